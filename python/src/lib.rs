//! The `sanfen` Python package's native module (`sanfen._sanfen`): the
//! library's capabilities as Python classes and functions. The Python
//! package (`sanfen/__init__.py`) re-exports them.

#![forbid(unsafe_code)]

use pyo3::prelude::*;

mod errors;
mod fen;
mod games;
mod position;
mod tables;

/// Games are built on worker threads and dropped on the thread that reads
/// them: mimalloc frees across threads without the contention of the
/// system allocator's arenas.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The native module.
#[pymodule]
fn _sanfen(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;

    // positions, FEN checks and the exceptions
    errors::register(module)?;
    module.add_function(wrap_pyfunction!(fen::check_fen, module)?)?;
    module.add_class::<fen::Finding>()?;
    module.add_class::<fen::FenReport>()?;
    module.add_class::<position::Position>()?;
    module.add_class::<position::Move>()?;
    module.add_class::<position::Lint>()?;
    module.add_class::<position::Candidate>()?;
    module.add_class::<position::Resolution>()?;
    module.add_class::<position::Outcome>()?;

    // games: PGN games, checks and tables
    module.add_function(wrap_pyfunction!(games::read_games, module)?)?;
    module.add_function(wrap_pyfunction!(games::check_pgn, module)?)?;
    module.add_function(wrap_pyfunction!(tables::games_table, module)?)?;
    module.add_function(wrap_pyfunction!(tables::moves_table, module)?)?;
    module.add_function(wrap_pyfunction!(tables::games_batches, module)?)?;
    module.add_function(wrap_pyfunction!(tables::moves_batches, module)?)?;
    module.add_function(wrap_pyfunction!(tables::_byte_ranges, module)?)?;
    module.add("_MOST_RANGES", sanfen::pgn::split::MOST_RANGES)?;
    module.add_function(wrap_pyfunction!(tables::_range_counts, module)?)?;
    module.add_function(wrap_pyfunction!(tables::_range_batches, module)?)?;
    module.add_function(wrap_pyfunction!(tables::_schema, module)?)?;
    module.add_function(wrap_pyfunction!(position::_letters, module)?)?;
    module.add_class::<games::GameReader>()?;
    module.add_class::<tables::BatchReader>()?;
    module.add_class::<games::Game>()?;
    module.add_class::<games::Move>()?; // as `Node`
    module.add_class::<games::Eval>()?;
    module.add_class::<games::Finding>()?; // as `PgnFinding`
    module.add_class::<games::CheckResult>()?;
    Ok(())
}
