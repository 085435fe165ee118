//! `check_fen` and its report: every finding about a FEN (syntax errors with
//! their byte spans, legality reasons, non-canonical spellings), as
//! `sanfen fen check --json` gives them, and the canonical FEN.

use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyType};
use sanfen::fen::{FenCheck, FenFinding};
use sanfen::{CastlingMode, Position, Severity};

/// One problem of a FEN: a syntax error, an illegal position's reason, or a
/// spelling that canonical FEN writes otherwise.
#[pyclass(module = "sanfen", frozen, get_all, eq, from_py_object)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// ``"error"`` or ``"warning"``.
    pub severity: String,
    /// A stable identifier: ``"fen:syntax"``, ``"fen:castling"``, ...
    pub code: String,
    /// What is wrong, in words.
    pub message: String,
    /// The FEN field concerned: ``"placement"``, ``"turn"``, ``"castling"``,
    /// ``"en-passant"``, ``"halfmove"``, ``"fullmove"`` or ``"layout"``.
    pub field: String,
    /// Byte offsets ``(start, end)`` in the input (its UTF-8 form), end
    /// exclusive; ``None`` when the finding has no place in the text.
    pub span: Option<(usize, usize)>,
    /// The squares involved, by name (``["e1", "h1"]``).
    pub squares: Vec<String>,
}

#[pymethods]
impl Finding {
    /// A finding of these values, as pickling rebuilds one.
    #[new]
    fn new(
        severity: String,
        code: String,
        message: String,
        field: String,
        span: Option<(usize, usize)>,
        squares: Vec<String>,
    ) -> Finding {
        Finding { severity, code, message, field, span, squares }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> ReduceTo<'py, FindingState> {
        let this = slf.get();
        let state = (
            this.severity.clone(),
            this.code.clone(),
            this.message.clone(),
            this.field.clone(),
            this.span,
            this.squares.clone(),
        );
        (slf.get_type(), state)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Finding(severity={}, code={}, field={}, span={}, squares={}, message={})",
            repr(py, &self.severity)?,
            repr(py, &self.code)?,
            repr(py, &self.field)?,
            repr(py, self.span)?,
            repr(py, &self.squares)?,
            repr(py, &self.message)?
        ))
    }

    fn __str__(&self) -> String {
        match self.span {
            Some((start, end)) => format!("{}[{}] at {start}..{end}: {}", self.severity, self.code, self.message),
            None => format!("{}[{}]: {}", self.severity, self.code, self.message),
        }
    }
}

impl From<&FenFinding<'_>> for Finding {
    fn from(finding: &FenFinding<'_>) -> Finding {
        Finding {
            severity: match finding.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            }
            .to_owned(),
            code: finding.code.to_owned(),
            message: finding.message.to_string(),
            field: finding.field.name().to_owned(),
            span: finding.span.as_ref().map(|span| (span.start, span.end)),
            squares: finding.squares.into_iter().map(|sq| sq.to_string()).collect(),
        }
    }
}

/// What the library says about one FEN: the findings (errors first, each
/// group in input order) and, when valid, the position.
pub struct Judgement {
    /// Every finding with its severity, in report order.
    pub findings: Vec<(Severity, Finding)>,
    /// The position, when the FEN has no error.
    pub position: Option<Position>,
}

impl Judgement {
    /// Parses and checks `input` (as `sanfen fen check` does). With
    /// `lenient`, the position is built as `Position::from_setup_lenient`
    /// builds it: also when no legal game reaches it, if the rules can be
    /// played from it.
    pub fn of(input: &[u8], mode: CastlingMode, lenient: bool) -> Judgement {
        let check = FenCheck::judge(input, mode);
        let findings = check.findings().iter().map(|finding| (finding.severity, Finding::from(finding))).collect();
        let position = match check {
            FenCheck::Parsed { fen, .. } if lenient => Position::from_setup_lenient(fen.setup, mode).ok(),
            _ => check.position(),
        };
        Judgement { findings, position }
    }

    /// The findings of one severity.
    pub fn of_severity(&self, severity: Severity) -> Vec<Finding> {
        self.findings.iter().filter(|(s, _)| *s == severity).map(|(_, finding)| finding.clone()).collect()
    }
}

/// The report of ``check_fen``.
#[pyclass(module = "sanfen", frozen, get_all, eq, from_py_object)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenReport {
    /// The input as given.
    pub input: String,
    /// Whether the FEN describes a legal position (warnings allowed).
    pub valid: bool,
    /// The errors, in input order.
    pub errors: Vec<Finding>,
    /// The warnings (accepted, but not canonical), in input order.
    pub warnings: Vec<Finding>,
    /// The canonical FEN of the position (en passant square only when a pawn
    /// can capture there, castling in ``KQkq`` order, ...), or ``None`` when
    /// the FEN is not valid.
    pub fen: Option<String>,
}

#[pymethods]
impl FenReport {
    /// A report of these values, as pickling rebuilds one.
    #[new]
    fn new(input: String, valid: bool, errors: Vec<Finding>, warnings: Vec<Finding>, fen: Option<String>) -> FenReport {
        FenReport { input, valid, errors, warnings, fen }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> ReduceTo<'py, FenReportState> {
        let this = slf.get().clone();
        (slf.get_type(), (this.input, this.valid, this.errors, this.warnings, this.fen))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "FenReport(valid={}, fen={}, errors={}, warnings={})",
            repr(py, self.valid)?,
            repr(py, &self.fen)?,
            self.errors.len(),
            self.warnings.len()
        ))
    }

    fn __bool__(&self) -> bool {
        self.valid
    }
}

/// What `__reduce__` gives, so that pickle (and `copy`) rebuild a value:
/// its class, called with `S`, its state.
pub type ReduceTo<'py, S> = (Bound<'py, PyType>, S);

type FindingState = (String, String, String, String, Option<(usize, usize)>, Vec<String>);
type FenReportState = (String, bool, Vec<Finding>, Vec<Finding>, Option<String>);

/// Python's `repr` of a value.
pub fn repr<'py>(py: Python<'py>, value: impl IntoPyObject<'py>) -> PyResult<String> {
    Ok(value.into_bound_py_any(py)?.repr()?.to_string())
}

/// The bytes of a text argument: a `str` (as UTF-8) or `bytes`.
pub fn text_bytes(value: &Bound<'_, PyAny>, function: &str) -> PyResult<Vec<u8>> {
    if let Ok(text) = value.cast::<PyString>() {
        Ok(text.to_cow()?.as_bytes().to_vec())
    } else if let Ok(bytes) = value.cast::<PyBytes>() {
        Ok(bytes.as_bytes().to_vec())
    } else {
        let kind = value.get_type().name()?;
        Err(PyTypeError::new_err(format!("{function}() takes a str or bytes, not {kind}")))
    }
}

/// The castling mode of the ``chess960`` flag.
pub const fn castling_mode(chess960: bool) -> CastlingMode {
    if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard }
}

/// Checks a FEN: its syntax (every error with its byte span), the legality of
/// the position (every reason at once) and its spelling (warnings), as
/// ``sanfen fen check --json`` does.
///
/// ``text`` is a ``str`` or ``bytes``; ``chess960=True`` reads the castling
/// field as Chess960 (Shredder-FEN or X-FEN) castling. Returns a
/// ``FenReport``: ``valid``, ``errors``, ``warnings``, ``fen`` (canonical,
/// or ``None`` when invalid). Never raises for bad FEN text; raises
/// ``TypeError`` when ``text`` is neither ``str`` nor ``bytes``.
#[pyfunction]
#[pyo3(signature = (text, chess960 = false))]
pub fn check_fen(py: Python<'_>, text: &Bound<'_, PyAny>, chess960: bool) -> PyResult<FenReport> {
    let input = text_bytes(text, "check_fen")?;
    let mode = castling_mode(chess960);
    let judgement = py.detach(|| Judgement::of(&input, mode, false));
    Ok(FenReport {
        input: String::from_utf8_lossy(&input).into_owned(),
        valid: judgement.findings.iter().all(|(severity, _)| *severity != Severity::Error),
        errors: judgement.of_severity(Severity::Error),
        warnings: judgement.of_severity(Severity::Warning),
        fen: judgement.position.as_ref().map(|position| position.fen().to_string()),
    })
}
