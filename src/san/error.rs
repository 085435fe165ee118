//! What SAN reading reports: lint findings for accepted spellings that are
//! not canonical ([`SanLint`]), and [`ParseSanError`] for text that is no move.

use core::fmt;
use core::ops::Range;

// ---- Lint findings -------------------------------------------------------------------

/// A spelling accepted in lenient mode that canonical SAN writes otherwise.
///
/// Each finding is about one part of the token (the castling, the piece letter,
/// the promotion, ...), and each part has at most one finding.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, strum::EnumIter)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "kebab-case"))]
pub enum SanLintKind {
    /// Castling with zeros: `0-0`, `0-0-0`.
    CastlingZeros,
    /// Castling with a lowercase o: `o-o`, `o-o-o`.
    CastlingLowercase,
    /// Castling with a typographic dash instead of the hyphen-minus `-`
    /// (`O–O`: the hyphen U+2010, non-breaking hyphen U+2011, figure dash
    /// U+2012, en dash U+2013, em dash U+2014 or minus sign U+2212), whatever
    /// its letter (`0—0` too).
    CastlingDash,
    /// A promotion without `=`: `e8Q`, `e8q`.
    PromotionWithoutEquals,
    /// A promotion piece in lowercase: `e8=q`.
    PromotionLowercase,
    /// A promotion with `/` or in parentheses: `e8/Q`, `e8(Q)`.
    PromotionBracketed,
    /// An en passant mark: `exd6 e.p.`, `exd6e.p.`, `exd6ep`.
    EnPassantSuffix,
    /// Checkmate written `++` or `‡`.
    DoublePlusMate,
    /// `-` between the squares of a coordinate move: `e2-e4`.
    SquareSeparator,
    /// `-` between the origin and destination of a move with a piece letter:
    /// `Ng1-f3` (`Ng1f3` itself is canonical SAN where two knights can reach
    /// f3; whether the origin was needed is for the resolver to say).
    LongAlgebraic,
    /// A capture written `:`: `e:d5`, `Ng1:f3`, `e2:d3`.
    ColonCapture,
    /// Squares without a piece letter: `g1f3`, `e7e8q` (UCI), `e2-e4`, `e2xd3`.
    /// The canonical spelling depends on the position (`canonical` is empty).
    Coordinates,
    /// A pawn letter: `Pe4`, `Pe2e4`.
    PawnLetter,
    /// A null move written `Z0`, `0000` or `null`.
    NullMoveSpelling,
    /// A lowercase piece letter: `nf3`.
    LowercasePiece,
    /// A figurine for a piece: `♘f3`, `e8=♕`.
    Figurine,
    /// A piece letter of the chosen language where English writes another:
    /// `Cf3` (Portuguese) for `Nf3`.
    LocalLetters,
}

impl SanLintKind {
    /// A stable identifier: `san:` and a kebab-case name.
    pub const fn code(self) -> &'static str {
        match self {
            SanLintKind::CastlingZeros => "san:castling-zeros",
            SanLintKind::CastlingLowercase => "san:castling-lowercase",
            SanLintKind::CastlingDash => "san:castling-dash",
            SanLintKind::PromotionWithoutEquals => "san:promotion-without-equals",
            SanLintKind::PromotionLowercase => "san:promotion-lowercase",
            SanLintKind::PromotionBracketed => "san:promotion-bracketed",
            SanLintKind::EnPassantSuffix => "san:en-passant-suffix",
            SanLintKind::DoublePlusMate => "san:double-plus-mate",
            SanLintKind::SquareSeparator => "san:square-separator",
            SanLintKind::LongAlgebraic => "san:long-algebraic",
            SanLintKind::ColonCapture => "san:colon-capture",
            SanLintKind::Coordinates => "san:coordinates",
            SanLintKind::PawnLetter => "san:pawn-letter",
            SanLintKind::NullMoveSpelling => "san:null-move-spelling",
            SanLintKind::LowercasePiece => "san:lowercase-piece",
            SanLintKind::Figurine => "san:figurine",
            SanLintKind::LocalLetters => "san:local-letters",
        }
    }

    /// What the part is, in words.
    pub(crate) const fn description(self) -> &'static str {
        match self {
            SanLintKind::CastlingZeros => "castling written with zeros",
            SanLintKind::CastlingLowercase => "castling written with a lowercase o",
            SanLintKind::CastlingDash => "castling written with a dash other than `-`",
            SanLintKind::PromotionWithoutEquals => "promotion without `=`",
            SanLintKind::PromotionLowercase => "promotion piece in lowercase",
            SanLintKind::PromotionBracketed => "promotion written with `/` or parentheses",
            SanLintKind::EnPassantSuffix => "en passant mark",
            SanLintKind::DoublePlusMate => "checkmate written `++` or `‡`",
            SanLintKind::SquareSeparator => "`-` between the squares",
            SanLintKind::LongAlgebraic => "`-` between the origin and the destination (long algebraic)",
            SanLintKind::ColonCapture => "capture written `:`",
            SanLintKind::Coordinates => "squares without a piece letter (coordinate or UCI notation)",
            SanLintKind::PawnLetter => "pawn letter",
            SanLintKind::NullMoveSpelling => "null move spelling",
            SanLintKind::LowercasePiece => "lowercase piece letter",
            SanLintKind::Figurine => "figurine",
            SanLintKind::LocalLetters => "piece letter of another language",
        }
    }

    /// What strict SAN wants instead of the part, given its canonical spelling.
    pub(crate) fn strict_expected(self, canonical: &str) -> String {
        match self {
            SanLintKind::CastlingZeros | SanLintKind::CastlingLowercase => {
                format!("`{canonical}` (strict SAN writes castling with the capital letter O)")
            }
            SanLintKind::CastlingDash => {
                format!("`{canonical}` (strict SAN writes castling with the capital letter O and the hyphen `-`)")
            }
            SanLintKind::PromotionWithoutEquals | SanLintKind::PromotionLowercase | SanLintKind::PromotionBracketed => {
                format!("`{canonical}` (strict SAN writes a promotion as `=` and a capital letter)")
            }
            SanLintKind::EnPassantSuffix => {
                "the end of the move (strict SAN writes an en passant capture without a mark)".to_owned()
            }
            SanLintKind::DoublePlusMate => "`#` for checkmate".to_owned(),
            SanLintKind::SquareSeparator | SanLintKind::LongAlgebraic => {
                "the destination square right after the origin (strict SAN writes no `-`)".to_owned()
            }
            SanLintKind::ColonCapture => "`x` for a capture".to_owned(),
            SanLintKind::Coordinates => {
                "a piece letter or a pawn move such as e4 (strict SAN has no coordinate notation)".to_owned()
            }
            SanLintKind::PawnLetter => "a pawn move without a letter, such as e4".to_owned(),
            SanLintKind::NullMoveSpelling => "`--` for a null move".to_owned(),
            SanLintKind::LowercasePiece => format!("`{canonical}` (strict SAN writes capital piece letters)"),
            SanLintKind::Figurine if canonical.is_empty() => "a pawn move without a figurine, such as e4".to_owned(),
            SanLintKind::Figurine => format!("`{canonical}` (strict SAN writes letters, not figurines)"),
            SanLintKind::LocalLetters => format!("`{canonical}` (strict SAN writes English letters)"),
        }
    }
}

/// A lint finding, located: the part of the input that is not canonical SAN,
/// and its canonical spelling.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SanLint {
    /// What is not canonical.
    pub kind: SanLintKind,
    /// Byte offsets in the input, end exclusive.
    pub span: Range<usize>,
    /// The canonical spelling of the offending part (`O-O`, `=Q`, `N`, `x`,
    /// `#`, `--`); empty when canonical SAN leaves the part out (an en passant
    /// mark, a pawn letter, `-` between squares) or when it depends on the
    /// position ([`SanLintKind::Coordinates`]).
    pub canonical: String,
}

impl SanLint {
    /// A stable identifier, `san:` and a kebab-case name.
    pub const fn code(&self) -> &'static str {
        self.kind.code()
    }
}

impl fmt::Display for SanLint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.description())?;
        match self.kind {
            SanLintKind::Coordinates => f.write_str("; SAN names the piece, which needs the position"),
            _ if self.canonical.is_empty() => f.write_str("; SAN leaves it out"),
            _ => write!(f, "; SAN writes {}", self.canonical),
        }
    }
}

// ---- Errors -------------------------------------------------------------------------------

/// The text is not a move: where, what was found there, and what would be
/// right. The first problem only.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ParseSanError {
    /// Byte offsets in the input, end exclusive; empty (`n..n`) for something
    /// missing at `n`.
    pub span: Range<usize>,
    /// The offending text (empty when something is missing).
    pub found: String,
    /// What would be right there, in words.
    pub expected: String,
}

impl fmt::Display for ParseSanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid move at {}..{}: found ", self.span.start, self.span.end)?;
        if self.found.is_empty() {
            f.write_str("nothing")?;
        } else {
            write!(f, "{:?}", self.found)?;
        }
        write!(f, ", expected {}", self.expected)
    }
}

impl std::error::Error for ParseSanError {}
