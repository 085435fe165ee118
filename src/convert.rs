//! One call for each conversion between the notations and the values they
//! name. The conversions that need a position take it as their argument;
//! those that can fail say why in an error with a readable `Display`.
//!
//! | from | to | call | error |
//! | --- | --- | --- | --- |
//! | FEN text | [`Position`] | `text.parse::<Position>()` (standard castling), [`Position::from_fen`]`(text, mode)` | [`ParsePositionError`] |
//! | [`Fen`] | [`Position`] | [`Fen::into_position`] | [`PositionError`] |
//! | [`Position`] | FEN text | `pos.to_string()`, [`Position::fen`] | |
//! | [`Uci`] + [`Position`] | [`Move`] | [`Uci::to_move`] | [`UciMoveError`] |
//! | [`Move`] | [`Uci`] | [`Move::to_uci`]`(pos.castling_mode())` | |
//! | [`SanPlus`] + [`Position`] | [`Move`] | [`SanPlus::to_move`] (any spelling that names one move), [`SanPlus::to_move_strict`] (canonical SAN only) | [`SanError`], [`StrictSanError`] |
//! | [`Move`] + [`Position`] | SAN | [`SanPlus::from_move`] (with the check mark), [`San::from_move`] | |
//! | text as typed or in PGN + [`Position`] | [`Move`] | [`play::read`](crate::play::read), [`play::play`](crate::play::play) | [`PlayError`](crate::play::PlayError) |
//! | [`SanPlus`] + [`Position`] | candidates with reasons | [`resolve`] | |
//!
//! ```
//! use sanfen::san::SanPlus;
//! use sanfen::{Position, Uci};
//!
//! let pos: Position = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".parse().unwrap();
//! let m = "g1f3".parse::<Uci>().unwrap().to_move(&pos).unwrap();
//! assert_eq!(SanPlus::from_move(&pos, m).to_string(), "Nf3");
//! assert_eq!("Nf3".parse::<SanPlus>().unwrap().to_move(&pos), Ok(m));
//! assert_eq!(m.to_uci(pos.castling_mode()).to_string(), "g1f3");
//! ```

use core::str::FromStr;

use crate::quick::{self, Quick};
use crate::resolve::{MoveLint, SanError, resolve};
use crate::san::{San, SanPlus};
use crate::{CastlingMode, Fen, Move, ParseFenError, ParseUciError, Position, PositionError, Uci, notation};

impl Fen {
    /// The position this FEN describes, its castling letters read as they
    /// were parsed.
    ///
    /// ```
    /// use sanfen::{CastlingMode, Fen};
    ///
    /// let fen = Fen::parse("4k3/8/8/8/8/8/8/4K2R w K - 0 1", CastlingMode::Standard).unwrap();
    /// assert_eq!(fen.into_position().unwrap().legal_moves().len(), 15);
    /// ```
    ///
    /// # Errors
    ///
    /// [`PositionError`] with every reason the setup is not a legal position.
    pub fn into_position(self) -> Result<Position, PositionError> {
        Position::from_setup(self.setup, self.castling_mode)
    }
}

/// FEN text that names no legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParsePositionError {
    /// The text is not FEN: every syntax problem, located.
    Fen(ParseFenError),
    /// The FEN describes no legal position: every reason.
    Position(PositionError),
}

impl core::fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ParsePositionError::Fen(error) => write!(f, "invalid FEN: {error}"),
            ParsePositionError::Position(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for ParsePositionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ParsePositionError::Fen(error) => Some(error),
            ParsePositionError::Position(error) => Some(error),
        }
    }
}

impl From<ParseFenError> for ParsePositionError {
    fn from(error: ParseFenError) -> ParsePositionError {
        ParsePositionError::Fen(error)
    }
}

impl From<PositionError> for ParsePositionError {
    fn from(error: PositionError) -> ParsePositionError {
        ParsePositionError::Position(error)
    }
}

impl Position {
    /// The position FEN text describes, castling letters read as `mode`
    /// says. Accepted spellings that are not canonical ([`Fen::lints`]) are
    /// not reported: parse a [`Fen`] for them.
    ///
    /// ```
    /// use sanfen::{CastlingMode, Position};
    ///
    /// // Chess960: the rooks on b1 and g1, Shredder-FEN letters
    /// let pos = Position::from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", CastlingMode::Chess960).unwrap();
    /// assert_eq!(pos.to_string(), "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1");
    /// let error = Position::from_fen("8/8/8/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap_err();
    /// assert_eq!(error.to_string(), "illegal position: black has no king");
    /// ```
    ///
    /// # Errors
    ///
    /// [`ParsePositionError::Fen`] when the text is not FEN,
    /// [`ParsePositionError::Position`] when the position is not legal.
    pub fn from_fen(text: &str, mode: CastlingMode) -> Result<Position, ParsePositionError> {
        Ok(Fen::parse(text, mode)?.into_position()?)
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// The position FEN text describes, in standard castling mode (see
    /// [`Position::from_fen`] for Chess960).
    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        Position::from_fen(text, CastlingMode::Standard)
    }
}

/// A UCI move that is not a legal move of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UciMoveError {
    /// The text is not UCI (for `?` after [`Uci::from_str`]).
    Syntax(ParseUciError),
    /// No legal move goes so: why, as the resolver explains a move between
    /// the same squares.
    Illegal {
        /// The move as given.
        uci: Uci,
        /// Why not, and the moves probably meant (in SAN).
        error: SanError,
    },
    /// A legal move, but UCI writes it otherwise in the position's castling
    /// mode: castling is the king's move to its destination (`e1g1`) in
    /// standard chess, the king taking its rook (`e1h1`) in Chess960.
    WrittenOtherwise {
        /// The move as given.
        uci: Uci,
        /// How UCI writes it.
        expected: Uci,
    },
}

impl core::fmt::Display for UciMoveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            UciMoveError::Syntax(error) => write!(f, "{error}"),
            UciMoveError::Illegal { uci, error } => write!(f, "{uci}: {error}"),
            UciMoveError::WrittenOtherwise { uci, expected } => {
                write!(f, "{uci}: UCI writes this move {expected} in this castling mode")
            }
        }
    }
}

impl std::error::Error for UciMoveError {}

impl From<ParseUciError> for UciMoveError {
    fn from(error: ParseUciError) -> UciMoveError {
        UciMoveError::Syntax(error)
    }
}

impl Uci {
    /// The legal move of `pos` that UCI writes as `self` (in the position's
    /// castling mode, as [`Move::to_uci`] writes it).
    ///
    /// ```
    /// use sanfen::{Position, Uci};
    ///
    /// let pos = Position::default();
    /// let error = "e2e5".parse::<Uci>().unwrap().to_move(&pos).unwrap_err();
    /// assert_eq!(error.to_string(), "e2e5: illegal: no pawn can move to e5; did you mean e3, e4?");
    /// ```
    ///
    /// # Errors
    ///
    /// [`UciMoveError::Illegal`] with the reason when no legal move goes so,
    /// [`UciMoveError::WrittenOtherwise`] for castling written as the other
    /// castling mode writes it.
    pub fn to_move(&self, pos: &Position) -> Result<Move, UciMoveError> {
        let mode = pos.castling_mode();
        if let Some(m) = pos.legal_moves().into_iter().find(|m| m.to_uci(mode) == *self) {
            return Ok(m);
        }
        // why not: the resolver's account of a move between the same squares
        let capture = pos.board().piece_at(self.to).is_some();
        let squares = San::Squares { from: self.from, to: self.to, capture, promotion: self.promotion };
        match resolve(pos, &SanPlus::new(squares)).outcome {
            Ok(m) => Err(UciMoveError::WrittenOtherwise { uci: *self, expected: m.to_uci(mode) }),
            Err(error) => Err(UciMoveError::Illegal { uci: *self, error }),
        }
    }
}

/// SAN that is not the canonical SAN of a legal move ([`SanPlus::to_move_strict`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StrictSanError {
    /// No legal move fits, or more than one does.
    Move(SanError),
    /// One legal move fits, but canonical SAN writes it otherwise.
    NotCanonical {
        /// The move.
        m: Move,
        /// What differs, where the resolver names it (empty for coordinates,
        /// `g1f3`, and for an `e.p.` mark).
        lints: Vec<MoveLint>,
        /// The canonical SAN, with its check mark.
        canonical: SanPlus,
    },
}

impl core::fmt::Display for StrictSanError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            StrictSanError::Move(error) => write!(f, "{error}"),
            StrictSanError::NotCanonical { lints, canonical, .. } => {
                f.write_str("not canonical SAN")?;
                for (i, lint) in lints.iter().enumerate() {
                    f.write_str(if i == 0 { ": " } else { "; " })?;
                    write!(f, "{lint}")?;
                }
                write!(f, "; SAN writes {canonical}")
            }
        }
    }
}

impl std::error::Error for StrictSanError {}

impl SanPlus {
    /// The legal move of `pos` this SAN names, in any spelling that names
    /// exactly one: a missing or spurious `x`, an origin no other piece makes
    /// necessary, castling as a king move (`Kg1`), coordinates (`Ng1f3`), a
    /// wrong check mark. The annotation is not looked at.
    ///
    /// Canonical SAN is found without generating the legal moves; anything
    /// else goes to [`resolve`], whose candidates and reasons explain a
    /// refusal (call it for them).
    ///
    /// ```
    /// use sanfen::Position;
    /// use sanfen::san::SanPlus;
    ///
    /// let pos = Position::default();
    /// let m = "Ng1f3".parse::<SanPlus>().unwrap().to_move(&pos).unwrap();
    /// assert_eq!(SanPlus::from_move(&pos, m).to_string(), "Nf3");
    /// let error = "Nd4".parse::<SanPlus>().unwrap().to_move(&pos).unwrap_err();
    /// assert_eq!(error.to_string(), "illegal: no knight can move to d4; did you mean d4, Na3, Nc3?");
    /// ```
    ///
    /// # Errors
    ///
    /// [`SanError`]: illegal with the reason and suggestions, or ambiguous
    /// with the candidates.
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        match quick::find(pos, &self.san) {
            Quick::Canonical(m) | Quick::NonCanonical(m) => Ok(m),
            Quick::NotFound => resolve(pos, self).outcome,
        }
    }

    /// [`to_move`](Self::to_move), but only for canonical SAN: the spelling
    /// [`SanPlus::from_move`] writes, check mark included (the annotation
    /// aside).
    ///
    /// ```
    /// use sanfen::Position;
    /// use sanfen::san::SanPlus;
    ///
    /// let pos = Position::default();
    /// assert!("Nf3".parse::<SanPlus>().unwrap().to_move_strict(&pos).is_ok());
    /// let error = "Ngf3".parse::<SanPlus>().unwrap().to_move_strict(&pos).unwrap_err();
    /// assert_eq!(error.to_string(), "not canonical SAN: origin given where no other piece could make the move; SAN writes Nf3");
    /// ```
    ///
    /// # Errors
    ///
    /// [`StrictSanError::Move`] as [`to_move`](Self::to_move) fails,
    /// [`StrictSanError::NotCanonical`] for another spelling of a legal move.
    pub fn to_move_strict(&self, pos: &Position) -> Result<Move, StrictSanError> {
        let written = SanPlus { annotation: None, ..*self };
        if let Quick::Canonical(m) = quick::find(pos, &self.san)
            && !self.en_passant_mark
            && notation::suffix(pos, m) == self.suffix
        {
            return Ok(m);
        }
        let resolution = resolve(pos, self);
        let m = resolution.outcome.map_err(StrictSanError::Move)?;
        let canonical = resolution.canonical.unwrap_or_else(|| notation::san_plus(pos, m));
        if resolution.lints.is_empty() && canonical == written {
            Ok(m)
        } else {
            Err(StrictSanError::NotCanonical { m, lints: resolution.lints, canonical })
        }
    }

    /// The canonical SAN of a legal move of `pos`, with its check mark.
    pub fn from_move(pos: &Position, m: Move) -> SanPlus {
        notation::san_plus(pos, m)
    }
}

impl San {
    /// The canonical SAN of a legal move of `pos`, without check mark.
    ///
    /// ```
    /// use sanfen::san::San;
    /// use sanfen::{Move, Position, Square};
    ///
    /// let pos = Position::from_fen("r3k3/8/8/8/8/8/8/4K3 b q - 0 1", Default::default()).unwrap();
    /// assert_eq!(San::from_move(&pos, Move::Castle { king: Square::E8, rook: Square::A8 }).to_string(), "O-O-O");
    /// ```
    pub fn from_move(pos: &Position, m: Move) -> San {
        notation::san(pos, m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;
    use crate::resolve::Problem;

    #[test]
    fn position_from_text_errors_say_what() {
        let syntax = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x".parse::<Position>().unwrap_err();
        assert!(matches!(syntax, ParsePositionError::Fen(_)), "{syntax:?}");
        assert!(syntax.to_string().starts_with("invalid FEN: "), "{syntax}");
        let illegal = "4k3/8/8/8/8/8/8/4K2R b K - 0 1".parse::<Position>();
        assert!(illegal.is_ok());
        let illegal = "4k2R/8/8/8/8/8/8/4K3 w - - 0 1".parse::<Position>().unwrap_err();
        assert!(matches!(illegal, ParsePositionError::Position(_)), "{illegal:?}");
    }

    #[test]
    fn uci_castling_is_written_as_the_mode_says() {
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        let castle = Move::Castle { king: Square::E1, rook: Square::H1 };
        let standard = Position::from_fen(fen, CastlingMode::Standard).unwrap();
        let chess960 = Position::from_fen(fen, CastlingMode::Chess960).unwrap();
        let e1g1: Uci = "e1g1".parse().unwrap();
        let e1h1: Uci = "e1h1".parse().unwrap();
        assert_eq!(e1g1.to_move(&standard), Ok(castle));
        assert_eq!(e1h1.to_move(&chess960), Ok(castle));
        assert_eq!(e1h1.to_move(&standard), Err(UciMoveError::WrittenOtherwise { uci: e1h1, expected: e1g1 }));
        assert_eq!(e1g1.to_move(&chess960), Err(UciMoveError::WrittenOtherwise { uci: e1g1, expected: e1h1 }));
        assert_eq!(
            UciMoveError::WrittenOtherwise { uci: e1h1, expected: e1g1 }.to_string(),
            "e1h1: UCI writes this move e1g1 in this castling mode"
        );
    }

    #[test]
    fn uci_promotion_must_be_named() {
        let pos: Position = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
        let a8q: Uci = "a7a8q".parse().unwrap();
        assert!(a8q.to_move(&pos).is_ok());
        let a8: Uci = "a7a8".parse().unwrap();
        let Err(UciMoveError::Illegal { error: SanError::Illegal { problem, .. }, .. }) = a8.to_move(&pos) else {
            panic!("a7a8 without a promotion piece")
        };
        assert_eq!(problem, Problem::MissingPromotion);
    }

    #[test]
    fn uci_from_an_empty_square_says_so() {
        let e3e4: Uci = "e3e4".parse().unwrap();
        assert_eq!(
            e3e4.to_move(&Position::default()).unwrap_err().to_string(),
            "e3e4: illegal: no piece of the side to move on e3; did you mean e4?"
        );
    }

    #[test]
    fn strict_san_wants_the_check_mark() {
        // after 1. e4 f5: Qh5 checks
        let pos: Position = "rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".parse().unwrap();
        let qh5: SanPlus = "Qh5".parse().unwrap();
        let m = qh5.to_move(&pos).unwrap();
        let canonical: SanPlus = "Qh5+".parse().unwrap();
        assert_eq!(
            qh5.to_move_strict(&pos),
            Err(StrictSanError::NotCanonical { m, lints: vec![MoveLint::MissingCheck], canonical })
        );
        assert_eq!(canonical.to_move_strict(&pos), Ok(m));
        assert_eq!("Qh5+!".parse::<SanPlus>().unwrap().to_move_strict(&pos), Ok(m));
    }

    #[test]
    fn strict_san_refuses_coordinates_with_no_lint_to_name() {
        let pos = Position::default();
        let g1f3 = SanPlus::new(San::Squares { from: Square::G1, to: Square::F3, capture: false, promotion: None });
        let nf3 = Move::Normal {
            role: crate::Role::Knight,
            from: Square::G1,
            capture: None,
            to: Square::F3,
            promotion: None,
        };
        assert_eq!(g1f3.to_move(&pos), Ok(nf3));
        let error = g1f3.to_move_strict(&pos).unwrap_err();
        assert_eq!(
            error,
            StrictSanError::NotCanonical { m: nf3, lints: Vec::new(), canonical: "Nf3".parse().unwrap() }
        );
        assert_eq!(error.to_string(), "not canonical SAN; SAN writes Nf3");
    }

    #[test]
    fn strict_san_refuses_castling_as_a_king_move() {
        let pos: Position = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap();
        let kg1: SanPlus = "Kg1".parse().unwrap();
        let castle = Move::Castle { king: Square::E1, rook: Square::H1 };
        assert_eq!(kg1.to_move(&pos), Ok(castle));
        let error = kg1.to_move_strict(&pos).unwrap_err();
        assert_eq!(error.to_string(), "not canonical SAN: castling written as a king move; SAN writes O-O");
    }
}
