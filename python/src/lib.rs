//! The `sanfen` Python package's native module (`sanfen._sanfen`): the
//! library's capabilities as Python classes and functions. The Python
//! package (`sanfen/__init__.py`) re-exports them.

#![forbid(unsafe_code)]

use pyo3::prelude::*;

mod errors;
mod fen;
mod position;

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

    Ok(())
}
