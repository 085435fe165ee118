//! [`Setup`]: any record a FEN can express, legal or not, and [`CastlingRights`].
//!
//! A castling right names its rook's file, so standard chess and Chess960 use the
//! same type: White's `K` in the starting position is the right on file h.
//!
//! ```
//! use sanfen::{CastlingRights, Color, File, Setup};
//!
//! let setup = Setup::default();
//! assert!(setup.castling_rights.has(Color::White, File::H));
//! assert_eq!(setup.castling_rights.files(Color::Black).collect::<Vec<_>>(), [File::A, File::H]);
//! assert_eq!(setup.fullmoves, 1);
//! ```

use crate::{Bitboard, Board, Color, File, Rank, Square};

/// Castling rights: for each side, the files of the rooks it may still castle with.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights(Bitboard);

impl CastlingRights {
    /// No right.
    pub const NONE: CastlingRights = CastlingRights(Bitboard::EMPTY);
    /// `KQkq` of the standard starting position (rooks on a and h).
    pub const STANDARD: CastlingRights = CastlingRights(Bitboard(0x8100_0000_0000_0081));

    /// Whether `color` may castle with the rook on `file` of its back rank.
    pub const fn has(self, color: Color, file: File) -> bool {
        self.0.contains(Self::square(color, file))
    }

    /// Adds a right.
    pub fn add(&mut self, color: Color, file: File) {
        self.0.add(Self::square(color, file));
    }

    /// Removes a right.
    pub fn discard(&mut self, color: Color, file: File) {
        self.0.discard(Self::square(color, file));
    }

    /// Removes every right of one side.
    pub fn discard_color(&mut self, color: Color) {
        self.0 -= Bitboard::from_rank(Rank::First.relative_to(color));
    }

    /// The rook files of one side, a first.
    pub fn files(self, color: Color) -> impl DoubleEndedIterator<Item = File> {
        (self.0 & Bitboard::from_rank(Rank::First.relative_to(color))).into_iter().map(Square::file)
    }

    /// Every right, White's first, a-file first.
    pub fn iter(self) -> impl Iterator<Item = (Color, File)> {
        Color::ALL.into_iter().flat_map(move |color| self.files(color).map(move |file| (color, file)))
    }

    /// The rook squares (on each side's back rank).
    pub const fn squares(self) -> Bitboard {
        self.0
    }

    /// The rights of a set of rook squares; squares off both back ranks are dropped.
    pub const fn from_squares(squares: Bitboard) -> CastlingRights {
        CastlingRights(Bitboard(squares.0 & Bitboard::BACKRANKS.0))
    }

    /// Whether there is no right.
    pub const fn is_empty(self) -> bool {
        self.0.is_empty()
    }

    /// The number of rights.
    pub const fn count(self) -> usize {
        self.0.count()
    }

    const fn square(color: Color, file: File) -> Square {
        Square::from_coords(file, Rank::First.relative_to(color))
    }
}

impl core::fmt::Debug for CastlingRights {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("CastlingRights(")?;
        for (color, file) in self.iter() {
            let letter = if color.is_white() { file.upper_char() } else { file.char() };
            write!(f, "{letter}")?;
        }
        f.write_str(")")
    }
}

/// A position record as a FEN writes it: the board, the side to move, castling
/// rights, the en passant square and the two clocks. Anything goes here, even an
/// empty board; [`Position::from_setup`](crate::Position::from_setup) judges it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The pieces.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// Which rooks may still castle.
    pub castling_rights: CastlingRights,
    /// The square a pawn skipped with its double step, if the FEN names one.
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move (the fifty-move clock).
    pub halfmoves: u32,
    /// The move number, starting at 1 and counted up after each Black move.
    pub fullmoves: u32,
}

impl Default for Setup {
    /// The standard starting position.
    fn default() -> Setup {
        Setup {
            board: Board::new(),
            turn: Color::White,
            castling_rights: CastlingRights::STANDARD,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

impl Setup {
    /// An empty board, White to move, no rights, clocks `0 1`.
    pub fn empty() -> Setup {
        Setup { board: Board::empty(), castling_rights: CastlingRights::NONE, ..Setup::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rights_by_side() {
        let mut rights = CastlingRights::NONE;
        rights.add(Color::Black, File::B);
        rights.add(Color::White, File::G);
        rights.add(Color::White, File::C);
        assert_eq!(
            rights.iter().collect::<Vec<_>>(),
            [(Color::White, File::C), (Color::White, File::G), (Color::Black, File::B)]
        );
        assert_eq!(format!("{rights:?}"), "CastlingRights(CGb)");
        rights.discard_color(Color::White);
        assert_eq!(rights.count(), 1);
        assert!(rights.has(Color::Black, File::B));
        assert_eq!(CastlingRights::STANDARD.count(), 4);
    }
}
