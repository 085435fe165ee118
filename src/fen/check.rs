//! The whole judgement of one FEN input, as `sanfen fen check` and the
//! Python package's `check_fen` report it: [`FenCheck`] (syntax, lints,
//! legality) and its [`FenFinding`]s in report order.

use core::fmt::{self, Display};
use core::ops::Range;

use super::error::{FenSyntaxError, ParseFenError};
use super::types::{EnPassantMode, Fen, FenField, FenLint};
use crate::{Bitboard, CastlingMode, Position, Reason, Severity};

/// The code of every syntax finding.
pub const SYNTAX_CODE: &str = "fen:syntax";

/// What a finding says, borrowed from the value it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenMessage<'a> {
    /// A syntax error.
    Syntax(&'a FenSyntaxError),
    /// A lint finding of the parser.
    Lint(&'a FenLint),
    /// A legality reason.
    Reason(&'a Reason),
}

impl Display for FenMessage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenMessage::Syntax(error) => error.fmt(f),
            FenMessage::Lint(lint) => lint.fmt(f),
            FenMessage::Reason(reason) => reason.fmt(f),
        }
    }
}

/// One problem of a FEN input (syntax error, lint or legality reason),
/// located in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenFinding<'a> {
    /// Whether it makes the input invalid.
    pub severity: Severity,
    /// A stable identifier (`fen:syntax`, `fen:castling`, ...).
    pub code: &'static str,
    /// The FEN field it concerns.
    pub field: FenField,
    /// Byte offsets in the input, end exclusive.
    pub span: Option<Range<usize>>,
    /// The squares involved.
    pub squares: Bitboard,
    /// What is wrong.
    pub message: FenMessage<'a>,
}

impl<'a> FenFinding<'a> {
    /// A syntax error (always an error).
    pub fn syntax(error: &'a FenSyntaxError) -> FenFinding<'a> {
        FenFinding {
            severity: Severity::Error,
            code: SYNTAX_CODE,
            field: error.field,
            span: Some(error.span.clone()),
            squares: Bitboard::EMPTY,
            message: FenMessage::Syntax(error),
        }
    }

    /// A lint finding (always a warning).
    pub fn lint(lint: &'a FenLint) -> FenFinding<'a> {
        FenFinding {
            severity: Severity::Warning,
            code: lint.code(),
            field: lint.field,
            span: Some(lint.span.clone()),
            squares: Bitboard::EMPTY,
            message: FenMessage::Lint(lint),
        }
    }

    /// A legality reason of `fen`, located where `fen` says it is.
    pub fn reason(reason: &'a Reason, fen: &Fen) -> FenFinding<'a> {
        FenFinding {
            severity: reason.severity(),
            code: reason.code(),
            field: reason.field(),
            span: fen.span_of(reason),
            squares: reason.squares,
            message: FenMessage::Reason(reason),
        }
    }
}

/// The judgement of one FEN input.
///
/// ```
/// use sanfen::fen::FenCheck;
/// use sanfen::{CastlingMode, Severity};
///
/// let check = FenCheck::judge(b"4k3/8/8/8/8/8/8/4K3 w K - 0 1", CastlingMode::Standard);
/// assert!(!check.is_valid());
/// let findings = check.findings();
/// assert_eq!(findings[0].code, "fen:castling");
/// assert_eq!(findings[0].severity, Severity::Error);
/// assert_eq!(findings[0].span, Some(22..23));
/// ```
#[derive(Clone, Debug)]
#[expect(
    clippy::large_enum_variant,
    reason = "one judgement at a time lives on the stack; boxing the Fen would cost an allocation per input"
)]
pub enum FenCheck {
    /// Not FEN.
    Syntax(ParseFenError),
    /// FEN, with its legality reasons (errors first).
    Parsed {
        /// The parsed FEN (with its lints).
        fen: Fen,
        /// What makes the position illegal or unusual.
        reasons: Vec<Reason>,
    },
}

impl FenCheck {
    /// Parses and checks one input, reading castling as `mode` says.
    pub fn judge(input: &[u8], mode: CastlingMode) -> FenCheck {
        match Fen::from_ascii(input, mode) {
            Err(err) => FenCheck::Syntax(err),
            Ok(fen) => {
                let reasons = Position::check(&fen.setup, mode);
                FenCheck::Parsed { fen, reasons }
            }
        }
    }

    /// No error (warnings allowed).
    pub fn is_valid(&self) -> bool {
        match self {
            FenCheck::Syntax(_) => false,
            FenCheck::Parsed { reasons, .. } => reasons.iter().all(|reason| reason.severity() != Severity::Error),
        }
    }

    /// No finding at all.
    pub fn is_clean(&self) -> bool {
        matches!(self, FenCheck::Parsed { fen, reasons } if fen.lints.is_empty() && reasons.is_empty())
    }

    /// Every finding, errors first, each group in input order (by span;
    /// findings without a span last; findings with the same span in the order
    /// the library reports them).
    pub fn findings(&self) -> Vec<FenFinding<'_>> {
        let mut findings: Vec<FenFinding<'_>> = match self {
            FenCheck::Syntax(err) => err.errors.iter().map(FenFinding::syntax).collect(),
            FenCheck::Parsed { fen, reasons } => reasons
                .iter()
                .map(|reason| FenFinding::reason(reason, fen))
                .chain(fen.lints.iter().map(FenFinding::lint))
                .collect(),
        };
        findings.sort_by_key(|finding| {
            let span = finding.span.as_ref().map_or((usize::MAX, 0), |span| (span.start, span.end));
            (finding.severity, span)
        });
        findings
    }

    /// The position, when valid.
    pub fn position(&self) -> Option<Position> {
        match self {
            FenCheck::Parsed { fen, .. } if self.is_valid() => {
                Position::from_setup(fen.setup.clone(), fen.castling_mode).ok()
            }
            _ => None,
        }
    }

    /// The position as canonical FEN, when valid, with the en passant square
    /// as `ep` says.
    pub fn position_fen(&self, ep: EnPassantMode) -> Option<Fen> {
        self.position().map(|position| position.fen_with(ep))
    }
}

/// The span of the castling field of `input` when that field makes it a
/// position only in Chess960 (read with standard castling it is refused for
/// its castling rights alone, read as Chess960 it is a position): what to
/// show a user who forgot to ask for Chess960.
///
/// ```
/// use sanfen::fen::castling_needing_chess960;
///
/// let fen = b"1k6/8/8/8/8/8/8/RK6 w A - 0 1";
/// assert_eq!(castling_needing_chess960(fen), Some(22..23));
/// assert_eq!(castling_needing_chess960(b"4k3/8/8/8/8/8/8/4K2R w K - 0 1"), None);
/// ```
pub fn castling_needing_chess960(input: &[u8]) -> Option<Range<usize>> {
    let standard = Fen::from_ascii(input, CastlingMode::Standard).ok();
    if standard.is_some_and(|fen| Position::from_setup_lenient(fen.setup, CastlingMode::Standard).is_ok()) {
        return None;
    }
    let parsed = Fen::from_ascii(input, CastlingMode::Chess960).ok()?;
    let span = parsed.spans.fields[2].clone()?;
    Position::from_setup_lenient(parsed.setup, CastlingMode::Chess960).ok()?;
    Some(span)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_come_errors_first_then_by_span() {
        // a lint (leading space) before an error (castling) in the text
        let check = FenCheck::judge(b" 4k3/8/8/8/8/8/8/4K3 w K - 0 1", CastlingMode::Standard);
        let codes: Vec<_> = check.findings().iter().map(|f| (f.severity, f.code, f.span.clone())).collect();
        assert_eq!(
            codes,
            [
                (Severity::Error, "fen:castling", Some(23..24)),
                (Severity::Warning, "fen:leading-whitespace", Some(0..1))
            ]
        );
        assert!(!check.is_valid());
        assert!(!check.is_clean());
        assert_eq!(check.position(), None);
    }

    #[test]
    fn syntax_errors_are_all_reported() {
        let check = FenCheck::judge(b"9/8/8/8/8/8/8/8 x - - 0 1", CastlingMode::Standard);
        let findings = check.findings();
        assert!(findings.len() >= 2, "{findings:?}");
        assert!(findings.iter().all(|f| f.code == SYNTAX_CODE && f.severity == Severity::Error));
        assert_eq!(findings[0].span.as_ref().map(|s| s.start), Some(0));
    }

    #[test]
    fn a_valid_fen_gives_its_canonical_form() {
        let check =
            FenCheck::judge(b"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", CastlingMode::Standard);
        assert!(check.is_valid());
        // valid, with a warning: no pawn can take en passant
        assert!(!check.is_clean());
        let findings = check.findings();
        assert_eq!(findings.len(), 1);
        assert_eq!((findings[0].severity, findings[0].code), (Severity::Warning, "fen:en-passant-not-capturable"));
        assert_eq!(findings[0].span, Some(53..55));
        assert_eq!(
            check.position_fen(EnPassantMode::Legal).map(|fen| fen.to_string()).as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
    }

    #[test]
    fn castling_that_only_chess960_reads() {
        assert_eq!(castling_needing_chess960(b"1k6/8/8/8/8/8/8/RK6 w A - 0 1"), Some(22..23));
        // not a position either way: no hint
        assert_eq!(castling_needing_chess960(b"8/8/8/8/8/8/8/RK6 w A - 0 1"), None);
        // not FEN
        assert_eq!(castling_needing_chess960(b"hello"), None);
    }
}
