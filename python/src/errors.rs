//! The package's exceptions, all subclasses of `ValueError`, each carrying the
//! data a caller can act on as attributes (the findings of a FEN, the reason
//! and suggestions of an illegal move, the spellings of an ambiguous one, the
//! place of a syntax error), and the functions that build them from the
//! library's errors.

use pyo3::IntoPyObjectExt;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::type_object::PyTypeInfo;
use pyo3::types::PyTuple;
use sanfen::play::PlayError;
use sanfen::resolve::SanError;
use sanfen::san::ParseSanError;

create_exception!(
    sanfen,
    FenError,
    PyValueError,
    "A FEN that is not valid: a syntax error or an illegal position.\n\n\
     ``findings``: the errors (and warnings) as ``Finding`` objects, errors first."
);

create_exception!(
    sanfen,
    IllegalMoveError,
    PyValueError,
    "A move that is no legal move of the position.\n\n\
     ``text``: the move as given; ``reason``: why it is illegal, in words;\n\
     ``suggestions``: the legal moves closest to it, best first, in SAN."
);

create_exception!(
    sanfen,
    AmbiguousMoveError,
    PyValueError,
    "A move that more than one legal move fits.\n\n\
     ``text``: the move as given; ``spellings``: the canonical SAN of each\n\
     fitting move; ``squares``: their origin squares."
);

create_exception!(
    sanfen,
    InvalidMoveError,
    PyValueError,
    "Text that is not a move at all.\n\n\
     ``text``: the text as given; ``span``: the byte range ``(start, end)`` of\n\
     the problem in its UTF-8 form; ``found``: the offending text (empty when\n\
     something is missing); ``expected``: what would be right there, in words."
);

/// Builds an exception of type `E` with `message` and sets `attributes` on it.
fn with_attributes<'py, E: PyTypeInfo>(
    py: Python<'py>,
    message: String,
    attributes: &[(&str, Bound<'py, PyAny>)],
) -> PyErr {
    let error = PyErr::new::<E, _>(message);
    for (name, value) in attributes {
        if let Err(failure) = error.value(py).setattr(*name, value) {
            return failure;
        }
    }
    error
}

/// Converts a value for an attribute, or gives up with the conversion's error.
fn attribute<'py>(py: Python<'py>, value: impl IntoPyObject<'py>) -> PyResult<Bound<'py, PyAny>> {
    value.into_bound_py_any(py)
}

/// A `FenError` carrying `findings` (a list of `Finding` objects).
pub fn fen_error(py: Python<'_>, message: String, findings: Bound<'_, PyAny>) -> PyErr {
    with_attributes::<FenError>(py, message, &[("findings", findings)])
}

/// An `IllegalMoveError` about `text`.
pub fn illegal(py: Python<'_>, text: &str, message: String, reason: String, suggestions: Vec<String>) -> PyErr {
    let attributes = || -> PyResult<Vec<(&'static str, Bound<'_, PyAny>)>> {
        Ok(vec![
            ("text", attribute(py, text)?),
            ("reason", attribute(py, reason)?),
            ("suggestions", attribute(py, suggestions)?),
        ])
    };
    match attributes() {
        Ok(attributes) => with_attributes::<IllegalMoveError>(py, message, &attributes),
        Err(error) => error,
    }
}

/// An `AmbiguousMoveError` about `text`.
pub fn ambiguous(py: Python<'_>, text: &str, message: String, spellings: Vec<String>, squares: Vec<String>) -> PyErr {
    let attributes = || -> PyResult<Vec<(&'static str, Bound<'_, PyAny>)>> {
        Ok(vec![
            ("text", attribute(py, text)?),
            ("spellings", attribute(py, spellings)?),
            ("squares", attribute(py, squares)?),
        ])
    };
    match attributes() {
        Ok(attributes) => with_attributes::<AmbiguousMoveError>(py, message, &attributes),
        Err(error) => error,
    }
}

/// An `InvalidMoveError` about `text`.
pub fn invalid(
    py: Python<'_>,
    text: &str,
    message: String,
    span: (usize, usize),
    found: &str,
    expected: &str,
) -> PyErr {
    let attributes = || -> PyResult<Vec<(&'static str, Bound<'_, PyAny>)>> {
        Ok(vec![
            ("text", attribute(py, text)?),
            ("span", PyTuple::new(py, [span.0, span.1])?.into_any()),
            ("found", attribute(py, found)?),
            ("expected", attribute(py, expected)?),
        ])
    };
    match attributes() {
        Ok(attributes) => with_attributes::<InvalidMoveError>(py, message, &attributes),
        Err(error) => error,
    }
}

/// The exception for a resolver's refusal of `text`.
pub fn san_error(py: Python<'_>, text: &str, error: &SanError) -> PyErr {
    match error {
        SanError::Illegal { problem, suggestions } => {
            illegal(py, text, error.to_string(), problem.to_string(), suggestions.clone())
        }
        SanError::Ambiguous { from, spellings } => {
            ambiguous(py, text, error.to_string(), spellings.clone(), from.iter().map(ToString::to_string).collect())
        }
    }
}

/// The exception for text that is not a move.
pub fn syntax_error(py: Python<'_>, text: &str, error: &ParseSanError) -> PyErr {
    let message = format!("not a move: {error}");
    invalid(py, text, message, (error.span.start, error.span.end), &error.found, &error.expected)
}

/// The exception for a move that could not be played.
pub fn play_error(py: Python<'_>, text: &str, error: &PlayError) -> PyErr {
    match error {
        PlayError::NotAMove(error) => syntax_error(py, text, error),
        PlayError::Move(error) => san_error(py, text, error),
        PlayError::NullMoveInCheck => {
            illegal(py, text, error.to_string(), "a null move while in check".to_owned(), Vec::new())
        }
    }
}

/// Registers the exceptions in the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("FenError", py.get_type::<FenError>())?;
    module.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    module.add("AmbiguousMoveError", py.get_type::<AmbiguousMoveError>())?;
    module.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    Ok(())
}
