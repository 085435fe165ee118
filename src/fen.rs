//! FEN text: [`Fen`] (parsed syntax, with every problem and lint finding located
//! by byte span), conversion to a [`Setup`], and the canonical writer.
//!
//! ```
//! use sanfen::fen::{Fen, FenField};
//!
//! let err = "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1".parse::<Fen>().unwrap_err();
//! // both problems at once: rank 7 has seven squares, 'x' is no castling letter
//! assert_eq!(err.errors.len(), 2);
//! assert_eq!(err.errors[0].field, FenField::Placement);
//! assert_eq!(err.errors[1].field, FenField::Castling);
//! assert_eq!(err.errors[1].span, 47..48);
//! ```

use core::fmt::Write as _;
use core::ops::Range;

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

/// One syntax problem: which field, where (byte span in the input), what was
/// found and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenSyntaxError {
    /// The field the problem is in.
    pub field: FenField,
    /// Byte offsets in the input, end exclusive; empty (`n..n`) for something missing at `n`.
    pub span: Range<usize>,
    /// The offending text (empty when something is missing).
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

/// Input accepted, but not as canonical FEN writes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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

use crate::parse;
use crate::position::castling_letter;
use crate::{
    Bitboard, CastlingMode, CastlingRights, Color, File, Piece, Position, Rank, Reason, ReasonKind, Role, Setup, Square,
};

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
/// stored (use [`Position::fen`] for the canonical en passant square).
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
    /// Parses FEN text, reading castling letters as `mode` says.
    ///
    /// # Errors
    ///
    /// Every syntax problem of the input at once.
    pub fn parse(text: &str, mode: CastlingMode) -> Result<Fen, ParseFenError> {
        Fen::from_ascii(text.as_bytes(), mode)
    }

    /// Parses FEN bytes, reading castling letters as `mode` says.
    ///
    /// # Errors
    ///
    /// Every syntax problem of the input at once.
    pub fn from_ascii(bytes: &[u8], mode: CastlingMode) -> Result<Fen, ParseFenError> {
        let raw = parse::fen::fen(bytes).map_err(|errors| ParseFenError { errors })?;
        let mut lints = raw.lints;
        let mut errors = Vec::new();
        let mut rights = CastlingRights::NONE;
        let mut castling_spans = Vec::with_capacity(raw.castling.len());
        for (at, &letter) in raw.castling.clone().zip(&bytes[raw.castling.clone()]) {
            let span = at..at + 1;
            let color = if letter.is_ascii_uppercase() { Color::White } else { Color::Black };
            let file = match letter.to_ascii_lowercase() {
                b'k' => castling_file(&raw.board, color, mode, true),
                b'q' => castling_file(&raw.board, color, mode, false),
                other => File::from_char(other as char).expect("the parser accepts only castling letters"),
            };
            if rights.has(color, file) {
                errors.push(FenSyntaxError {
                    field: FenField::Castling,
                    span,
                    found: (letter as char).to_string(),
                    expected: "each castling right once".to_owned(),
                });
                continue;
            }
            rights.add(color, file);
            if !matches!(letter.to_ascii_lowercase(), b'k' | b'q') {
                let canonical = castling_letter(&raw.board, color, file, mode);
                if canonical.to_ascii_lowercase() != letter.to_ascii_lowercase() as char {
                    lints.push(FenLint {
                        kind: FenLintKind::ShredderCastling { found: letter as char, canonical },
                        field: FenField::Castling,
                        span: span.clone(),
                    });
                }
            }
            castling_spans.push((color, file, span));
        }
        if !errors.is_empty() {
            return Err(ParseFenError { errors });
        }
        let written = castling_spans.iter().map(|(c, f, _)| (*c, *f));
        if !written.eq(canonical_castling_order(rights))
            && let Some(span) = raw.spans[2].clone()
        {
            let canonical = castling_text(&raw.board, rights, mode);
            lints.push(FenLint { kind: FenLintKind::CastlingOrder { canonical }, field: FenField::Castling, span });
        }
        lints.sort_by_key(|lint| (lint.span.start, lint.span.end));
        Ok(Fen {
            setup: Setup {
                board: raw.board,
                turn: raw.turn,
                castling_rights: rights,
                ep_square: raw.ep_square,
                halfmoves: raw.halfmoves,
                fullmoves: raw.fullmoves,
            },
            castling_mode: mode,
            lints,
            spans: FenSpans { fields: raw.spans, castling: castling_spans },
        })
    }

    /// A `Fen` for writing a setup (no lints, no spans).
    pub fn from_setup(setup: Setup, mode: CastlingMode) -> Fen {
        Fen { setup, castling_mode: mode, lints: Vec::new(), spans: FenSpans::default() }
    }

    /// The span of the text a legality reason is about: the castling letter, the
    /// field it concerns, else the placement.
    pub fn span_of(&self, reason: &Reason) -> Option<Range<usize>> {
        if let ReasonKind::Castling { color, file, .. } = reason.kind
            && let Some((_, _, span)) = self.spans.castling.iter().find(|(c, f, _)| *c == color && *f == file)
        {
            return Some(span.clone());
        }
        let index = FenField::FIELDS.iter().position(|f| *f == reason.field()).unwrap_or(0);
        self.spans.fields[index].clone()
    }
}

/// The file a `K`/`Q` letter names: the h/a file in standard chess; in
/// Chess960 (X-FEN) the outermost rook on that side of the king, else h/a.
fn castling_file(board: &crate::Board, color: Color, mode: CastlingMode, king_side: bool) -> File {
    let fallback = if king_side { File::H } else { File::A };
    if mode == CastlingMode::Standard {
        return fallback;
    }
    let back = Rank::First.relative_to(color);
    let Some(king) = board.by_piece(Piece { color, role: Role::King }).single_square().filter(|k| k.rank() == back)
    else {
        return fallback;
    };
    let rooks = board.by_piece(Piece { color, role: Role::Rook }) & Bitboard::from_rank(back);
    let outer = if king_side {
        rooks.into_iter().rev().find(|r| r.file() > king.file())
    } else {
        rooks.into_iter().find(|r| r.file() < king.file())
    };
    outer.map_or(fallback, Square::file)
}

/// Rights in the order canonical FEN writes them: White first, each side's
/// files from h to a (`KQkq`, `HFhf`).
fn canonical_castling_order(rights: CastlingRights) -> impl Iterator<Item = (Color, File)> {
    Color::ALL.into_iter().flat_map(move |color| rights.files(color).rev().map(move |file| (color, file)))
}

fn castling_text(board: &crate::Board, rights: CastlingRights, mode: CastlingMode) -> String {
    if rights.is_empty() {
        return "-".to_owned();
    }
    canonical_castling_order(rights).map(|(color, file)| castling_letter(board, color, file, mode)).collect()
}

impl core::str::FromStr for Fen {
    type Err = ParseFenError;

    /// Parses FEN text in standard castling mode.
    fn from_str(s: &str) -> Result<Fen, ParseFenError> {
        Fen::parse(s, CastlingMode::Standard)
    }
}

impl core::fmt::Display for Fen {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let setup = &self.setup;
        write!(f, "{} {} ", setup.board, setup.turn.char())?;
        if setup.castling_rights.is_empty() {
            f.write_char('-')?;
        }
        for (color, file) in canonical_castling_order(setup.castling_rights) {
            f.write_char(castling_letter(&setup.board, color, file, self.castling_mode))?;
        }
        match setup.ep_square {
            Some(sq) => write!(f, " {sq}")?,
            None => f.write_str(" -")?,
        }
        write!(f, " {} {}", setup.halfmoves, setup.fullmoves)
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

impl Position {
    /// The position as canonical FEN: the en passant square only when a capture
    /// there is legal.
    pub fn fen(&self) -> Fen {
        self.fen_with(EnPassantMode::Legal)
    }

    /// The position as FEN, keeping the en passant square as `ep` says.
    pub fn fen_with(&self, ep: EnPassantMode) -> Fen {
        let setup = match ep {
            EnPassantMode::Legal => self.to_canonical_setup(),
            EnPassantMode::AsGiven => self.to_setup(),
        };
        Fen::from_setup(setup, self.castling_mode())
    }
}

impl core::fmt::Display for Position {
    /// Canonical FEN.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.fen().fmt(f)
    }
}

#[cfg(feature = "serde")]
mod serde_impls {
    use super::*;

    impl serde::Serialize for Fen {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_str(self)
        }
    }

    impl<'de> serde::Deserialize<'de> for Fen {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Fen, D::Error> {
            let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
            text.parse().map_err(serde::de::Error::custom)
        }
    }

    impl serde::Serialize for Setup {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_str(&Fen::from_setup(self.clone(), CastlingMode::Chess960))
        }
    }

    impl<'de> serde::Deserialize<'de> for Setup {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Setup, D::Error> {
            let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
            Fen::parse(&text, CastlingMode::Chess960).map(|fen| fen.setup).map_err(serde::de::Error::custom)
        }
    }

    impl serde::Serialize for Position {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_str(self)
        }
    }

    impl<'de> serde::Deserialize<'de> for Position {
        /// Canonical FEN, standard castling first, else Chess960.
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Position, D::Error> {
            let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
            let standard = Fen::parse(&text, CastlingMode::Standard).map_err(serde::de::Error::custom)?;
            Position::from_setup(standard.setup, CastlingMode::Standard).or_else(|err| {
                let fen = Fen::parse(&text, CastlingMode::Chess960).map_err(serde::de::Error::custom)?;
                Position::from_setup(fen.setup, CastlingMode::Chess960).map_err(|_| serde::de::Error::custom(err))
            })
        }
    }

    impl serde::Serialize for crate::Board {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_str(self)
        }
    }

    impl<'de> serde::Deserialize<'de> for crate::Board {
        /// A FEN placement field.
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<crate::Board, D::Error> {
            let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
            let fen =
                Fen::parse(&format!("{text} w - - 0 1"), CastlingMode::Standard).map_err(serde::de::Error::custom)?;
            Ok(fen.setup.board)
        }
    }
}

/// Whether the bytes are in the FEN grammar (syntax only); for the grammar
/// cross-check test.
#[doc(hidden)]
pub use crate::parse::fen::syntax_ok as __syntax_ok;

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(text: &str, mode: CastlingMode) -> String {
        let fen = Fen::parse(text, mode).unwrap();
        Position::from_setup(fen.setup, mode).unwrap().fen().to_string()
    }

    #[test]
    fn castling_order_and_letters() {
        let fen = Fen::parse("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", CastlingMode::Standard).unwrap();
        assert_eq!(
            fen.lints,
            [FenLint {
                kind: FenLintKind::CastlingOrder { canonical: "KQkq".to_owned() },
                field: FenField::Castling,
                span: 26..30
            }]
        );
        assert_eq!(fen.to_string(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let fen = Fen::parse("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", CastlingMode::Standard).unwrap();
        let kinds: Vec<&FenLintKind> = fen.lints.iter().map(|l| &l.kind).collect();
        assert_eq!(
            kinds,
            [
                &FenLintKind::ShredderCastling { found: 'H', canonical: 'K' },
                &FenLintKind::ShredderCastling { found: 'A', canonical: 'Q' },
                &FenLintKind::ShredderCastling { found: 'h', canonical: 'k' },
                &FenLintKind::ShredderCastling { found: 'a', canonical: 'q' },
            ]
        );
        assert_eq!(fen.lints[2].span, 28..29);
        assert_eq!(fen.setup.castling_rights, CastlingRights::STANDARD);
    }

    #[test]
    fn chess960_letters() {
        // X-FEN: K and Q are the outermost rooks; Shredder letters say the same
        let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        assert_eq!(
            canonical(shredder, CastlingMode::Chess960),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
        );
        // the inner of two queen-side rooks needs its file letter
        let inner = "r1r1k3/8/8/8/8/8/8/R1R1K3 w Cc - 0 1";
        let fen = Fen::parse(inner, CastlingMode::Chess960).unwrap();
        assert!(fen.lints.is_empty());
        assert!(fen.setup.castling_rights.has(Color::White, File::C));
        assert_eq!(canonical(inner, CastlingMode::Chess960), inner);
        // while Q names the outermost one
        let outer = Fen::parse("r1r1k3/8/8/8/8/8/8/R1R1K3 w Qq - 0 1", CastlingMode::Chess960).unwrap();
        assert!(outer.setup.castling_rights.has(Color::White, File::A));
        // in standard chess Q is always the a-file rook
        let standard = Fen::parse("4k3/8/8/8/8/8/8/1R2K3 w Q - 0 1", CastlingMode::Standard).unwrap();
        assert!(standard.setup.castling_rights.has(Color::White, File::A));
    }

    #[test]
    fn duplicate_castling_letter() {
        let err = Fen::parse("r3k2r/8/8/8/8/8/8/R3K2R w KQKk - 0 1", CastlingMode::Standard).unwrap_err();
        assert_eq!(
            err.errors,
            [FenSyntaxError {
                field: FenField::Castling,
                span: 28..29,
                found: "K".to_owned(),
                expected: "each castling right once".to_owned()
            }]
        );
        // H and K are the same right in standard chess
        assert!(Fen::parse("r3k2r/8/8/8/8/8/8/R3K2R w KH - 0 1", CastlingMode::Standard).is_err());
    }

    #[test]
    fn reason_spans() {
        let text = "r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1";
        let fen = Fen::parse(text, CastlingMode::Standard).unwrap();
        let reasons = Position::check(&fen.setup, CastlingMode::Standard);
        assert_eq!(reasons.len(), 1);
        assert_eq!(fen.span_of(&reasons[0]), Some(27..28));
        assert_eq!(&text[27..28], "K");
        let text = "4k3/8/8/8/8/8/8/4K3 w - e6 0 1";
        let fen = Fen::parse(text, CastlingMode::Standard).unwrap();
        let reasons = Position::check(&fen.setup, CastlingMode::Standard);
        assert_eq!(reasons[0].code(), "fen:en-passant-no-pawn");
        assert_eq!(fen.span_of(&reasons[0]), Some(24..26));
    }

    #[test]
    fn writer_round_trips() {
        for text in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 12 40",
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
            "8/8/8/8/8/8/8/8 w - - 0 1",
        ] {
            let fen: Fen = text.parse().unwrap();
            assert_eq!(fen.to_string(), text);
            assert_eq!(fen.to_string().parse::<Fen>().unwrap().setup, fen.setup);
        }
        // the en passant square is kept as given on request, dropped when no capture is legal
        let pos = Position::from_setup(
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2".parse::<Fen>().unwrap().setup,
            CastlingMode::Standard,
        )
        .unwrap();
        assert_eq!(pos.fen().to_string(), "8/8/8/KPp4r/8/8/8/7k w - - 0 2");
        assert_eq!(pos.fen_with(EnPassantMode::AsGiven).to_string(), "8/8/8/KPp4r/8/8/8/7k w - c6 0 2");
    }
}
