//! [`Board`]: where the pieces stand, as bitboards plus a 64-entry piece matrix,
//! with the seeds' matrix forms.
//!
//! The integer matrix holds `1` (white pawn) to `6` (white king), the
//! negatives for Black and `0` for an empty square; the string matrix holds
//! `"WK"`, `"BN"`, ... and `""`. In both, row 0 is rank 1 and column 0 is file a.
//!
//! ```
//! use sanfen::{Board, Color, Piece, Role, Square};
//!
//! let board = Board::new();
//! assert_eq!(board.piece_at(Square::E1), Some(Piece { color: Color::White, role: Role::King }));
//! let matrix = board.to_int_matrix();
//! assert_eq!(matrix[0], [4, 2, 3, 5, 6, 3, 2, 4]);
//! assert_eq!(matrix[7][4], -6);
//! assert_eq!(Board::from_int_matrix(&matrix), Ok(board.clone()));
//! assert_eq!(board.to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
//! ```

use crate::attacks;
use crate::{Bitboard, Color, File, Piece, Rank, Role, Square};

/// The pieces on the board. Any arrangement is allowed here; legality is
/// [`Position`](crate::Position)'s business.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    occupied: Bitboard,
    squares: [Option<Piece>; 64],
}

/// The initial position, built at compile time (games start here by the million).
const STANDARD: Board = {
    let back =
        [Role::Rook, Role::Knight, Role::Bishop, Role::Queen, Role::King, Role::Bishop, Role::Knight, Role::Rook];
    let mut squares = [None; 64];
    let mut file = 0;
    while file < 8 {
        squares[file] = Some(Piece { color: Color::White, role: back[file] });
        squares[8 + file] = Some(Piece { color: Color::White, role: Role::Pawn });
        squares[48 + file] = Some(Piece { color: Color::Black, role: Role::Pawn });
        squares[56 + file] = Some(Piece { color: Color::Black, role: back[file] });
        file += 1;
    }
    Board {
        by_role: [
            Bitboard(0x00ff_0000_0000_ff00),
            Bitboard(0x4200_0000_0000_0042),
            Bitboard(0x2400_0000_0000_0024),
            Bitboard(0x8100_0000_0000_0081),
            Bitboard(0x0800_0000_0000_0008),
            Bitboard(0x1000_0000_0000_0010),
        ],
        by_color: [Bitboard(0x0000_0000_0000_ffff), Bitboard(0xffff_0000_0000_0000)],
        occupied: Bitboard(0xffff_0000_0000_ffff),
        squares,
    }
};

/// The integer board: `matrix[row][column]`, row 0 = rank 1, column 0 = file a,
/// `1..=6` White pawn..king, negative for Black, `0` empty.
pub type IntMatrix = [[i8; 8]; 8];

/// The string board: `matrix[row][column]`, row 0 = rank 1, column 0 = file a,
/// `"WK"`, `"BN"`, ... or `""` for an empty square.
pub type StringMatrix = [[String; 8]; 8];

/// A matrix cell that names no piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatrixError {
    /// The row (0 = rank 1).
    pub row: usize,
    /// The column (0 = file a).
    pub column: usize,
    /// The cell's content as written.
    pub value: String,
}

impl core::fmt::Display for MatrixError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "invalid matrix cell [{}][{}] ({}): found {:?}, expected a piece code",
            self.row,
            self.column,
            Square::from_coords(File::ALL[self.column], Rank::ALL[self.row]),
            self.value
        )
    }
}

impl std::error::Error for MatrixError {}

impl Default for Board {
    fn default() -> Board {
        Board::new()
    }
}

impl Board {
    /// The standard starting position.
    pub const fn new() -> Board {
        STANDARD
    }

    /// A board with no piece.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
            squares: [None; 64],
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// Puts `piece` on `sq`, replacing what stood there; returns what was replaced.
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) -> Option<Piece> {
        let old = self.remove_piece_at(sq);
        self.put_on_empty(sq, piece);
        old
    }

    /// Puts `piece` on `sq`, which must be empty.
    #[inline]
    pub(crate) fn put_on_empty(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.squares[sq.index()].is_none());
        let bit = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] |= bit;
        self.by_color[piece.color as usize] |= bit;
        self.occupied |= bit;
        self.squares[sq.index()] = Some(piece);
    }

    /// Moves a `color` `role` from `from` to `to`, taking the `captured`
    /// piece there, if any, and becoming `promotion`, if any: from what the
    /// move says, without reading the squares (a move that does not fit the
    /// board leaves it inconsistent). Each set is read and written once, so
    /// no update waits for the one before it.
    #[inline(always)]
    pub(crate) fn play_normal(
        &mut self,
        color: Color,
        role: Role,
        from: Square,
        to: Square,
        captured: Option<Role>,
        promotion: Option<Role>,
    ) {
        let from_bit = Bitboard::from_square(from);
        let to_bit = Bitboard::from_square(to);
        if let Some(captured) = captured {
            self.by_role[captured.index()] -= to_bit;
            self.by_color[(!color) as usize] -= to_bit;
        }
        let arriving = match promotion {
            None => {
                self.by_role[role.index()] ^= from_bit | to_bit;
                role
            }
            Some(promoted) => {
                self.by_role[role.index()] -= from_bit;
                self.by_role[promoted.index()] |= to_bit;
                promoted
            }
        };
        self.by_color[color as usize] = (self.by_color[color as usize] - from_bit) | to_bit;
        self.occupied = (self.occupied - from_bit) | to_bit;
        self.squares[from.index()] = None;
        self.squares[to.index()] = Some(Piece { color, role: arriving });
    }

    /// Empties `sq`; returns what stood there.
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let old = self.squares[sq.index()].take();
        if let Some(piece) = old {
            self.by_role[piece.role.index()].discard(sq);
            self.by_color[piece.color as usize].discard(sq);
            self.occupied.discard(sq);
        }
        old
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The squares of one side's pieces.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// The squares of one kind of piece, both sides.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of one piece (colour and kind).
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_color(piece.color)
    }

    /// Bishops and queens.
    #[inline]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.by_role(Role::Bishop) | self.by_role(Role::Queen)
    }

    /// Rooks and queens.
    #[inline]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.by_role(Role::Rook) | self.by_role(Role::Queen)
    }

    /// The king of `color`, when there is exactly one.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        self.by_piece(Piece { color, role: Role::King }).single_square()
    }

    /// The pieces of `attacker` that attack `sq`, given the occupied squares
    /// (which may differ from the board's, to look through a moving piece).
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color(attacker);
        let rooks = attacks::rook_attacks(sq, occupied) & self.rooks_and_queens();
        let bishops = attacks::bishop_attacks(sq, occupied) & self.bishops_and_queens();
        let knights = attacks::knight_attacks(sq) & self.by_role(Role::Knight);
        let kings = attacks::king_attacks(sq) & self.by_role(Role::King);
        let pawns = attacks::pawn_attacks(!attacker, sq) & self.by_role(Role::Pawn);
        them & (rooks | bishops | knights | kings | pawns)
    }

    /// Every square the pieces of `color` attack.
    pub fn attacked_by(&self, color: Color) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for sq in self.by_color(color) {
            if let Some(piece) = self.piece_at(sq) {
                bb |= attacks::attacks(sq, piece, self.occupied);
            }
        }
        bb
    }

    /// The pieces with their squares, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied.into_iter().filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// The board mirrored top to bottom with colours swapped.
    pub fn flip_colors(&self) -> Board {
        let mut board = Board::empty();
        for (sq, piece) in self.pieces() {
            board.set_piece_at(sq.flip_vertical(), Piece { color: !piece.color, role: piece.role });
        }
        board
    }

    /// The board as the integer matrix.
    pub fn to_int_matrix(&self) -> IntMatrix {
        let mut matrix = [[0; 8]; 8];
        for (sq, piece) in self.pieces() {
            matrix[sq.rank().index()][sq.file().index()] = piece.code();
        }
        matrix
    }

    /// A board from the integer matrix.
    ///
    /// # Errors
    ///
    /// The first cell (row by row) holding a value other than `-6..=6`.
    pub fn from_int_matrix(matrix: &IntMatrix) -> Result<Board, MatrixError> {
        let mut board = Board::empty();
        for (row, cells) in matrix.iter().enumerate() {
            for (column, &code) in cells.iter().enumerate() {
                if code == 0 {
                    continue;
                }
                let piece =
                    Piece::from_code(code).ok_or_else(|| MatrixError { row, column, value: code.to_string() })?;
                board.set_piece_at(Square::from_coords(File::ALL[column], Rank::ALL[row]), piece);
            }
        }
        Ok(board)
    }

    /// The board as the string matrix.
    pub fn to_string_matrix(&self) -> StringMatrix {
        let mut matrix: StringMatrix = Default::default();
        for (sq, piece) in self.pieces() {
            matrix[sq.rank().index()][sq.file().index()] = piece.matrix_name().to_owned();
        }
        matrix
    }

    /// A board from the string matrix (`"WK"`, `"BN"`, `""`).
    ///
    /// # Errors
    ///
    /// The first cell (row by row) that is neither empty nor a piece name.
    pub fn from_string_matrix<S: AsRef<str>>(matrix: &[[S; 8]; 8]) -> Result<Board, MatrixError> {
        let mut board = Board::empty();
        for (row, cells) in matrix.iter().enumerate() {
            for (column, cell) in cells.iter().enumerate() {
                let cell = cell.as_ref();
                if cell.is_empty() {
                    continue;
                }
                let piece =
                    Piece::from_matrix_name(cell).ok_or_else(|| MatrixError { row, column, value: cell.to_owned() })?;
                board.set_piece_at(Square::from_coords(File::ALL[column], Rank::ALL[row]), piece);
            }
        }
        Ok(board)
    }
}

impl core::fmt::Display for Board {
    /// The FEN piece placement field.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // at most 64 letters and 7 slashes: built on the stack, written once
        let mut text = arrayvec::ArrayString::<71>::new();
        for rank in (0..8).rev() {
            let mut empty = 0u8;
            for square in &self.squares[rank * 8..rank * 8 + 8] {
                match square {
                    Some(piece) => {
                        if empty > 0 {
                            text.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        text.push(piece.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                text.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                text.push('/');
            }
        }
        f.write_str(&text)
    }
}

impl core::fmt::Debug for Board {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Board({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_001_matrix_of_the_start() {
        let matrix = Board::new().to_int_matrix();
        assert_eq!(matrix[0], [4, 2, 3, 5, 6, 3, 2, 4]);
        assert_eq!(matrix[1], [1; 8]);
        assert_eq!(matrix[2], [0; 8]);
        assert_eq!(matrix[6], [-1; 8]);
        assert_eq!(matrix[7], [-4, -2, -3, -5, -6, -3, -2, -4]);
    }

    #[test]
    fn seed_002_example_2() {
        // a white knight on row 2, column 4 and a black king on row 4, column 5
        let mut matrix: [[&str; 8]; 8] = [[""; 8]; 8];
        matrix[2][4] = "WN";
        matrix[4][5] = "BK";
        let board = Board::from_string_matrix(&matrix).unwrap();
        assert_eq!(board.piece_at(Square::E3), Some(Piece { color: Color::White, role: Role::Knight }));
        assert_eq!(board.piece_at(Square::F5), Some(Piece { color: Color::Black, role: Role::King }));
        assert_eq!(board.occupied().count(), 2);
        let back = board.to_string_matrix();
        assert_eq!(back[2][4], "WN");
        assert_eq!(back[4][5], "BK");
        assert_eq!(back[0][0], "");
        assert_eq!(Board::from_string_matrix(&back), Ok(board));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn matrices_serialise() {
        let board = Board::new();
        let ints = serde_json::to_string(&board.to_int_matrix()).unwrap();
        assert!(ints.starts_with("[[4,2,3,5,6,3,2,4],[1,1,1,1,1,1,1,1],[0,0,0,0,0,0,0,0]"));
        let back: IntMatrix = serde_json::from_str(&ints).unwrap();
        assert_eq!(Board::from_int_matrix(&back), Ok(board.clone()));
        let strings = serde_json::to_string(&board.to_string_matrix()).unwrap();
        assert!(strings.starts_with(r#"[["WR","WN","WB","WQ","WK","WB","WN","WR"],["WP","#));
        let back: StringMatrix = serde_json::from_str(&strings).unwrap();
        assert_eq!(Board::from_string_matrix(&back), Ok(board.clone()));
        assert_eq!(serde_json::to_string(&board).unwrap(), r#""rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR""#);
        assert_eq!(serde_json::from_str::<Board>(r#""8/8/8/8/8/8/8/K6k""#).unwrap().occupied().count(), 2);
    }

    #[test]
    fn bad_matrix_cells() {
        let mut ints = [[0i8; 8]; 8];
        ints[3][6] = 7;
        assert_eq!(Board::from_int_matrix(&ints), Err(MatrixError { row: 3, column: 6, value: "7".into() }));
        let mut strings = [[""; 8]; 8];
        strings[5][1] = "PM";
        assert_eq!(Board::from_string_matrix(&strings), Err(MatrixError { row: 5, column: 1, value: "PM".into() }));
        assert_eq!(
            Board::from_string_matrix(&strings).unwrap_err().to_string(),
            "invalid matrix cell [5][1] (b6): found \"PM\", expected a piece code"
        );
    }

    #[test]
    fn attackers() {
        let board = Board::new();
        assert_eq!(
            board.attackers_to(Square::F3, Color::White, board.occupied()),
            Bitboard::from(Square::E2) | Square::G2 | Square::G1
        );
        assert_eq!(board.attacked_by(Color::White).count(), 22);
    }
}
