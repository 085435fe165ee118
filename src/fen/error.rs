//! What goes wrong reading FEN: [`ParseFenError`], every [`FenSyntaxError`]
//! of the input at once.

use core::ops::Range;

use super::types::FenField;

/// One syntax problem: which field, where (byte span in the input), what was
/// found and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenSyntaxError {
    /// The field the problem is in.
    pub field: FenField,
    /// Byte offsets in the input, end exclusive; empty (`n..n`) for something missing at `n`.
    pub span: Range<usize>,
    /// The offending text (empty when something is missing), its first
    /// 80 bytes followed by `…` when it is longer.
    pub found: String,
    /// What would be right there, in words.
    pub expected: String,
}

impl core::fmt::Display for FenSyntaxError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.found.is_empty() {
            write!(f, "invalid {} field: found nothing, expected {}", self.field, self.expected)
        } else {
            write!(f, "invalid {} field: found {:?}, expected {}", self.field, self.found, self.expected)
        }
    }
}
/// The text is not FEN: every syntax problem found, in input order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseFenError {
    /// The problems, at least one.
    pub errors: Vec<FenSyntaxError>,
}

impl core::fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for (i, error) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{error} at {}..{}", error.span.start, error.span.end)?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseFenError {}
