//! The `sanfen` Python package's native module (`sanfen._sanfen`): the
//! library's capabilities as Python classes and functions. The Python
//! package (`sanfen/__init__.py`) re-exports them.

#![forbid(unsafe_code)]

use pyo3::prelude::*;

/// The native module.
#[pymodule]
fn _sanfen(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
