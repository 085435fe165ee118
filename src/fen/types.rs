//! The values of FEN: [`Fen`] (a parsed record: the setup, how its castling
//! letters were read, its lint findings and where its fields are), the field
//! names ([`FenField`]) and the lint findings ([`FenLint`]).

use core::ops::Range;

use crate::{CastlingMode, Color, File, Setup};

/// One of the six FEN fields, or the text around them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FenField {
    /// The piece placement, rank 8 first.
    Placement,
    /// The side to move (`w` or `b`).
    Turn,
    /// The castling rights (`KQkq`, Shredder-FEN letters, or `-`).
    Castling,
    /// The en passant square or `-`.
    EnPassant,
    /// The halfmove clock.
    Halfmoves,
    /// The fullmove number.
    Fullmoves,
    /// Separators and anything outside the six fields (extra fields, whitespace).
    Layout,
}

impl FenField {
    /// The six fields in FEN order.
    pub const FIELDS: [FenField; 6] = [
        FenField::Placement,
        FenField::Turn,
        FenField::Castling,
        FenField::EnPassant,
        FenField::Halfmoves,
        FenField::Fullmoves,
    ];

    /// The field's name as used in diagnostics and JSON (`placement`, `turn`,
    /// `castling`, `en-passant`, `halfmove`, `fullmove`, `layout`).
    pub const fn name(self) -> &'static str {
        match self {
            FenField::Placement => "placement",
            FenField::Turn => "turn",
            FenField::Castling => "castling",
            FenField::EnPassant => "en-passant",
            FenField::Halfmoves => "halfmove",
            FenField::Fullmoves => "fullmove",
            FenField::Layout => "layout",
        }
    }
}

impl core::fmt::Display for FenField {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Input accepted, but not as canonical FEN writes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FenLintKind {
    /// Whitespace before the placement field.
    LeadingWhitespace,
    /// Whitespace after the last field.
    TrailingWhitespace,
    /// A separator other than one space: a run of spaces or tabs, or underscores.
    Separator {
        /// The separator as written.
        found: String,
    },
    /// Trailing fields left out; their defaults (`w - - 0 1`) were used.
    MissingFields {
        /// How many fields were given (1 to 5).
        given: usize,
    },
    /// Castling letters in an order other than the canonical one.
    CastlingOrder {
        /// The canonical form of the same rights.
        canonical: String,
    },
    /// A Shredder-FEN file letter where `KQkq` says the same (`H` for `K`).
    ShredderCastling {
        /// The letter as written.
        found: char,
        /// The canonical letter.
        canonical: char,
    },
    /// The fullmove number is 0; counting starts at 1.
    FullmoveZero,
}

/// A lint finding, located.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FenLint {
    /// What is not canonical.
    pub kind: FenLintKind,
    /// The field it concerns.
    pub field: FenField,
    /// Byte offsets in the input, end exclusive.
    pub span: Range<usize>,
}

impl FenLint {
    /// A stable identifier, `fen:` and a kebab-case name.
    pub const fn code(&self) -> &'static str {
        match self.kind {
            FenLintKind::LeadingWhitespace => "fen:leading-whitespace",
            FenLintKind::TrailingWhitespace => "fen:trailing-whitespace",
            FenLintKind::Separator { .. } => "fen:separator",
            FenLintKind::MissingFields { .. } => "fen:missing-fields",
            FenLintKind::CastlingOrder { .. } => "fen:castling-order",
            FenLintKind::ShredderCastling { .. } => "fen:shredder-castling",
            FenLintKind::FullmoveZero => "fen:fullmove-zero",
        }
    }
}

impl core::fmt::Display for FenLint {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match &self.kind {
            FenLintKind::LeadingWhitespace => f.write_str("whitespace before the placement field"),
            FenLintKind::TrailingWhitespace => f.write_str("whitespace after the last field"),
            FenLintKind::Separator { found } => {
                write!(f, "fields separated by {found:?}; canonical FEN uses one space")
            }
            FenLintKind::MissingFields { given } => {
                let defaults = ["w", "-", "-", "0", "1"];
                let used = defaults[given.saturating_sub(1).min(5)..].join(" ");
                write!(f, "only {given} of 6 fields given; the rest default to '{used}'")
            }
            FenLintKind::CastlingOrder { canonical } => {
                write!(f, "castling letters out of order; canonical order is '{canonical}'")
            }
            FenLintKind::ShredderCastling { found, canonical } => {
                write!(f, "Shredder-FEN castling letter '{found}' where canonical FEN writes '{canonical}'")
            }
            FenLintKind::FullmoveZero => f.write_str("fullmove number 0; move numbers start at 1"),
        }
    }
}

/// Where things are in the text a [`Fen`] was parsed from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FenSpans {
    /// The byte span of each of the six fields, in FEN order; `None` for a field
    /// left out (its default was used).
    pub fields: [Option<Range<usize>>; 6],
    /// Each castling right with the span of its letter.
    pub castling: Vec<(Color, File, Range<usize>)>,
}

/// A parsed FEN: the [`Setup`] it describes, how its castling letters were
/// read, and what in the text was not canonical.
///
/// `Display` writes canonical FEN of the setup: castling in `KQkq` order, with
/// Shredder-FEN letters only where Chess960 needs them, the en passant square as
/// stored (use [`Position::fen`](crate::Position::fen) for the canonical en passant square).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fen {
    /// The position record.
    pub setup: Setup,
    /// How the castling letters were read (`K` is the h-file rook in standard
    /// chess, the outermost king-side rook in Chess960).
    pub castling_mode: CastlingMode,
    /// Non-canonical spellings that were accepted, in input order.
    pub lints: Vec<FenLint>,
    /// Where the fields are in the input (empty for a `Fen` not parsed from text).
    pub spans: FenSpans,
}

impl Fen {
    /// A `Fen` for writing a setup (no lints, no spans).
    pub fn from_setup(setup: Setup, mode: CastlingMode) -> Fen {
        Fen { setup, castling_mode: mode, lints: Vec::new(), spans: FenSpans::default() }
    }
}

/// Which en passant square a FEN writer keeps.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum EnPassantMode {
    /// Only when an en passant capture is legal (canonical).
    #[default]
    Legal,
    /// As given in the setup.
    AsGiven,
}
