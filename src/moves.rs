//! [`Move`]: a move of a legal position, and [`MoveList`], a list of them that
//! lives on the stack.
//!
//! ```
//! use sanfen::{CastlingMode, Move, Position, Role, Square};
//!
//! let pos = Position::default();
//! let moves = pos.legal_moves();
//! assert_eq!(moves.len(), 20);
//! let e4 = Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None };
//! assert!(moves.contains(&e4));
//! assert_eq!(e4.to_uci(CastlingMode::Standard).to_string(), "e2e4");
//! ```

use core::ops::{Deref, DerefMut, Index};
use core::slice::SliceIndex;

use arrayvec::ArrayVec;

use crate::{CastlingMode, File, Role, Square};

/// A move. Built by move generation or by resolving notation against a
/// position; only then is it known to be legal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece moves, perhaps capturing, perhaps promoting.
    Normal {
        /// The moving piece.
        role: Role,
        /// Where it stands.
        from: Square,
        /// The piece captured on `to`, if any.
        capture: Option<Role>,
        /// Where it goes.
        to: Square,
        /// The piece a pawn becomes on the last rank.
        promotion: Option<Role>,
    },
    /// A pawn captures en passant: `to` is the en passant square.
    EnPassant {
        /// Where the capturing pawn stands.
        from: Square,
        /// The en passant square.
        to: Square,
    },
    /// Castling, named by the king's and the rook's squares (so it works for
    /// Chess960 too). The king goes to the g or c file, the rook to f or d.
    Castle {
        /// The king's square.
        king: Square,
        /// The castling rook's square.
        rook: Square,
    },
}

impl Move {
    /// The moving piece (the king for castling).
    pub const fn role(self) -> Role {
        match self {
            Move::Normal { role, .. } => role,
            Move::EnPassant { .. } => Role::Pawn,
            Move::Castle { .. } => Role::King,
        }
    }

    /// The square the move starts from (the king's for castling).
    pub const fn from(self) -> Square {
        match self {
            Move::Normal { from, .. } | Move::EnPassant { from, .. } => from,
            Move::Castle { king, .. } => king,
        }
    }

    /// The destination: for castling, where the king lands (g or c file).
    pub const fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::EnPassant { to, .. } => to,
            Move::Castle { king, rook } => {
                let file = if (rook as u8) > (king as u8) { File::G } else { File::C };
                Square::from_coords(file, king.rank())
            }
        }
    }

    /// The captured piece, if any (a pawn for en passant).
    pub const fn capture(self) -> Option<Role> {
        match self {
            Move::Normal { capture, .. } => capture,
            Move::EnPassant { .. } => Some(Role::Pawn),
            Move::Castle { .. } => None,
        }
    }

    /// Whether the move captures.
    pub const fn is_capture(self) -> bool {
        self.capture().is_some()
    }

    /// The promotion piece, if any.
    pub const fn promotion(self) -> Option<Role> {
        match self {
            Move::Normal { promotion, .. } => promotion,
            _ => None,
        }
    }

    /// Whether the move is castling.
    pub const fn is_castle(self) -> bool {
        matches!(self, Move::Castle { .. })
    }

    /// Whether the move resets the fifty-move counter (a capture or a pawn move).
    pub const fn is_zeroing(self) -> bool {
        self.is_capture() || matches!(self.role(), Role::Pawn)
    }

    /// The move in UCI notation. Castling is king to destination (`e1g1`) in
    /// standard mode, king to rook (`e1h1`) in Chess960 mode.
    pub const fn to_uci(self, mode: CastlingMode) -> Uci {
        match self {
            Move::Castle { king, rook } => match mode {
                CastlingMode::Standard => Uci { from: king, to: self.to(), promotion: None },
                CastlingMode::Chess960 => Uci { from: king, to: rook, promotion: None },
            },
            _ => Uci { from: self.from(), to: self.to(), promotion: self.promotion() },
        }
    }
}

/// A move in UCI notation: from, to and a promotion letter (`e7e8q`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Uci {
    /// The origin square.
    pub from: Square,
    /// The destination square (the rook's square for Chess960 castling).
    pub to: Square,
    /// The promotion piece.
    pub promotion: Option<Role>,
}

impl core::fmt::Display for Uci {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(role) = self.promotion {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

/// A move in UCI, or `0000` for a null move (`None`), as UCI writes one.
pub(crate) fn uci_text(uci: Option<Uci>) -> String {
    uci.map_or_else(|| "0000".to_owned(), |uci| uci.to_string())
}

/// The text is not a UCI move such as `e2e4` or `e7e8q`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseUciError;

impl core::fmt::Display for ParseUciError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("invalid UCI move: expected two squares and an optional promotion letter, such as e7e8q")
    }
}

impl std::error::Error for ParseUciError {}

impl core::str::FromStr for Uci {
    type Err = ParseUciError;

    fn from_str(s: &str) -> Result<Uci, ParseUciError> {
        let bytes = s.as_bytes();
        if !(4..=5).contains(&bytes.len()) {
            return Err(ParseUciError);
        }
        let from = Square::from_ascii(&bytes[0..2]).ok_or(ParseUciError)?;
        let to = Square::from_ascii(&bytes[2..4]).ok_or(ParseUciError)?;
        let promotion = match bytes.get(4) {
            None => None,
            Some(&b) => match Role::from_char(char::from(b)) {
                Some(role @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) if b.is_ascii_lowercase() => {
                    Some(role)
                }
                _ => return Err(ParseUciError),
            },
        };
        Ok(Uci { from, to, promotion })
    }
}

/// The most legal moves any placement can have, legal or composed: each of the
/// 64 destination squares can be reached by at most 16 pieces (the nearest piece
/// in each of the 8 directions, and 8 knights), 1,024 moves; a pawn promoting
/// adds 3 more moves, and at most 3 pawns reach each of the 8 promotion squares,
/// 72 more; and 2 castling moves. (Legal games never exceed 218.)
pub const MAX_MOVES: usize = 64 * 16 + 8 * 3 * 3 + 2;

/// Moves on the stack: room for [`MAX_MOVES`], so no placement can overflow it.
///
/// It reads as a slice of moves (`Deref<Target = [Move]>`: `len`, `iter`,
/// `contains`, indexing, sorting), and iterates by reference or by value.
///
/// ```
/// use sanfen::{Move, MoveList, Position, Square};
///
/// let moves: MoveList = Position::default().legal_moves();
/// assert_eq!(moves.len(), 20);
/// assert_eq!(moves.iter().filter(|m| m.from() == Square::G1).count(), 2);
/// let first: Move = moves[0];
/// assert!(moves.contains(&first));
/// let all: Vec<Move> = moves.into_iter().collect();
/// assert_eq!(all.len(), 20);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveList(ArrayVec<Move, MAX_MOVES>);

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList(ArrayVec::new())
    }

    /// The moves, as a slice.
    pub fn as_slice(&self) -> &[Move] {
        &self.0
    }

    /// Keeps only the moves for which `keep` returns `true`, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        self.0.retain(|m| keep(m));
    }

    /// Adds a move at the end. Move generation never adds more than
    /// [`MAX_MOVES`].
    #[inline]
    pub(crate) fn push(&mut self, m: Move) {
        self.0.push(m);
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        &self.0
    }
}

impl DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.0
    }
}

impl<I: SliceIndex<[Move]>> Index<I> for MoveList {
    type Output = I::Output;

    #[inline]
    fn index(&self, index: I) -> &I::Output {
        &self.0[index]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;

    fn into_iter(self) -> core::slice::Iter<'a, Move> {
        self.0.iter()
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;

    fn into_iter(self) -> MoveListIntoIter {
        MoveListIntoIter(self.0.into_iter())
    }
}

/// The moves of a [`MoveList`], by value, in order.
#[derive(Clone, Debug)]
pub struct MoveListIntoIter(arrayvec::IntoIter<Move, MAX_MOVES>);

impl Iterator for MoveListIntoIter {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        self.0.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for MoveListIntoIter {
    fn next_back(&mut self) -> Option<Move> {
        self.0.next_back()
    }
}

impl ExactSizeIterator for MoveListIntoIter {}

impl core::iter::FusedIterator for MoveListIntoIter {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_squares() {
        let short = Move::Castle { king: Square::E1, rook: Square::H1 };
        assert_eq!(short.to(), Square::G1);
        assert_eq!(short.to_uci(CastlingMode::Standard).to_string(), "e1g1");
        assert_eq!(short.to_uci(CastlingMode::Chess960).to_string(), "e1h1");
        let long = Move::Castle { king: Square::B8, rook: Square::A8 };
        assert_eq!(long.to(), Square::C8);
        assert_eq!(long.role(), Role::King);
    }

    #[test]
    fn uci_text() {
        let uci: Uci = "e7e8q".parse().unwrap();
        assert_eq!(uci, Uci { from: Square::E7, to: Square::E8, promotion: Some(Role::Queen) });
        assert_eq!(uci.to_string(), "e7e8q");
        for bad in ["", "e2", "e2e9", "e7e8k", "e7e8Q", "e2e4e", "e2e4qq"] {
            assert_eq!(bad.parse::<Uci>(), Err(ParseUciError), "{bad}");
        }
    }
}
