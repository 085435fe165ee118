//! Chess960 (Fischer Random) start positions by number:
//! [`Position::chess960`] in the standard (Scharnagl) numbering, 0 to 959,
//! where 518 is the standard initial position.
//!
//! ```
//! use sanfen::{CastlingMode, Position};
//!
//! let pos = Position::chess960(0).unwrap();
//! assert_eq!(pos.to_string(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
//! assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
//! assert_eq!(Position::chess960(960), None);
//! ```

use crate::{Bitboard, Board, CastlingMode, CastlingRights, Color, File, Piece, Position, Rank, Role, Square};

/// Where the two knights stand among the five squares left once the bishops
/// and the queen are placed, by the number's last digit (the KRN table): `0`
/// is `NN---`, `9` is `---NN`.
const KNIGHTS: [(usize, usize); 10] = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];

impl Position {
    /// How many Chess960 start positions there are; they are numbered from 0
    /// to `CHESS960_COUNT - 1`.
    pub const CHESS960_COUNT: u16 = 960;

    /// The start position of Chess960 number `number` in the standard
    /// (Scharnagl) numbering: the same back rank for both sides, White to
    /// move, both sides free to castle with both rooks, Chess960 castling
    /// ([`CastlingMode::Chess960`]). Number 518 is the standard initial
    /// position; `None` above 959.
    ///
    /// The number is read digit by digit: its remainder by 4 puts the bishop
    /// of the light squares on b, d, f or h; the next remainder by 4 the
    /// bishop of the dark squares on a, c, e or g; the next remainder by 6
    /// the queen on one of the six squares left; what remains (0 to 9) the
    /// two knights on the five squares left, by the KRN table; the last three
    /// squares take a rook, the king and a rook.
    ///
    /// ```
    /// use sanfen::{CastlingMode, Position};
    ///
    /// let standard = Position::chess960(518).unwrap();
    /// assert_eq!(standard.board(), Position::default().board());
    /// assert_eq!(Position::chess960(959).unwrap().board().to_string(), "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB");
    /// ```
    pub fn chess960(number: u16) -> Option<Position> {
        let back_rank = chess960_back_rank(number)?;
        let mut board = Board::empty();
        let mut rooks = Bitboard::EMPTY;
        for color in Color::ALL {
            let back = Rank::First.relative_to(color);
            let pawns = Rank::Second.relative_to(color);
            for (file, role) in File::ALL.into_iter().zip(back_rank) {
                let sq = Square::from_coords(file, back);
                board.set_piece_at(sq, Piece { color, role });
                if role == Role::Rook {
                    rooks = rooks.with(sq);
                }
                board.set_piece_at(Square::from_coords(file, pawns), Piece { color, role: Role::Pawn });
            }
        }
        Some(Position {
            board,
            turn: Color::White,
            castling_rights: CastlingRights::from_squares(rooks),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            mode: CastlingMode::Chess960,
        })
    }
}

/// The back rank of Chess960 start position `number`, file a first; `None`
/// above 959.
fn chess960_back_rank(number: u16) -> Option<[Role; 8]> {
    if number >= Position::CHESS960_COUNT {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let n = usize::from(number);
    // light squares of the first rank are b1, d1, f1, h1; dark ones a1, c1, e1, g1
    rank[2 * (n % 4) + 1] = Some(Role::Bishop);
    let n = n / 4;
    rank[2 * (n % 4)] = Some(Role::Bishop);
    let n = n / 4;
    let (queen, knights) = (n % 6, n / 6);
    place(&mut rank, queen, Role::Queen);
    // the second knight's index counts the squares left after the first one
    let (first, second) = KNIGHTS[knights];
    place(&mut rank, first, Role::Knight);
    place(&mut rank, second - 1, Role::Knight);
    for role in [Role::Rook, Role::King, Role::Rook] {
        place(&mut rank, 0, role);
    }
    let mut roles = [Role::Pawn; 8];
    for (role, placed) in roles.iter_mut().zip(rank) {
        *role = placed?;
    }
    Some(roles)
}

/// Puts `role` on the `index`-th empty square of `rank` (counted from 0, file
/// a first).
fn place(rank: &mut [Option<Role>; 8], index: usize, role: Role) {
    if let Some(square) = rank.iter_mut().filter(|square| square.is_none()).nth(index) {
        *square = Some(role);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::{Fen, perft};

    #[test]
    fn chess960_known_numbers_and_their_fen() {
        for (number, fen) in [
            (0, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"),
            (177, "bnrbnkrq/pppppppp/8/8/8/8/PPPPPPPP/BNRBNKRQ w KQkq - 0 1"),
            (518, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            (732, "rbknqnbr/pppppppp/8/8/8/8/PPPPPPPP/RBKNQNBR w KQkq - 0 1"),
            (959, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1"),
        ] {
            let pos = Position::chess960(number).unwrap();
            assert_eq!(pos.to_string(), fen, "{number}");
            // the same position read back from its FEN in Chess960 mode, and
            // from Shredder-FEN letters
            let read = Fen::parse(fen, CastlingMode::Chess960).unwrap().setup;
            assert_eq!(Position::from_setup(read, CastlingMode::Chess960), Ok(pos.clone()), "{number}");
            let files: String = pos.castling_rights().files(Color::White).rev().map(File::upper_char).collect();
            let shredder = fen.replace("KQkq", &format!("{files}{}", files.to_ascii_lowercase()));
            let read = Fen::parse(&shredder, CastlingMode::Chess960).unwrap().setup;
            assert_eq!(Position::from_setup(read, CastlingMode::Chess960), Ok(pos), "{shredder}");
        }
    }

    #[test]
    fn chess960_518_is_the_standard_start_with_chess960_castling() {
        let standard = Position::default();
        let pos = Position::chess960(518).unwrap();
        assert_eq!(pos.to_setup(), standard.to_setup());
        assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
        assert_eq!(pos.castling_rights(), CastlingRights::STANDARD);
    }

    #[test]
    fn chess960_numbers_above_959_have_no_position() {
        for number in [960, 961, 1000, u16::MAX] {
            assert_eq!(Position::chess960(number), None, "{number}");
        }
    }

    #[test]
    fn chess960_all_960_distinct_legal_with_the_rules_of_the_start() {
        let mut back_ranks = HashSet::new();
        for number in 0..Position::CHESS960_COUNT {
            let pos = Position::chess960(number).unwrap();
            // a position from_setup accepts, with nothing to warn about
            assert_eq!(Position::check(&pos.to_setup(), CastlingMode::Chess960), [], "{number}");
            let board = pos.board();
            let back: Vec<Role> = File::ALL
                .into_iter()
                .map(|file| board.piece_at(Square::from_coords(file, Rank::First)).unwrap().role)
                .collect();
            let black: Vec<Role> = File::ALL
                .into_iter()
                .map(|file| board.piece_at(Square::from_coords(file, Rank::Eighth)).unwrap().role)
                .collect();
            assert_eq!(back, black, "{number}: both sides mirror each other");
            let files_of = |role: Role| -> Vec<usize> { (0..8).filter(|&f| back[f] == role).collect() };
            let bishops = files_of(Role::Bishop);
            assert_eq!(bishops.len(), 2, "{number}");
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{number}: bishops on squares of both colours");
            let (rooks, king) = (files_of(Role::Rook), files_of(Role::King));
            assert_eq!((rooks.len(), king.len(), files_of(Role::Knight).len()), (2, 1, 2), "{number}");
            assert!(rooks[0] < king[0] && king[0] < rooks[1], "{number}: the king between the rooks");
            assert_eq!(pos.castling_rights().count(), 4, "{number}");
            for color in Color::ALL {
                let rook_files: Vec<usize> = pos.castling_rights().files(color).map(File::index).collect();
                assert_eq!(rook_files, rooks, "{number}");
            }
            assert_eq!(board.by_role(Role::Pawn), Bitboard::from_rank(Rank::Second) | Rank::Seventh);
            assert!(back_ranks.insert(back), "{number} repeats a back rank");
        }
        assert_eq!(back_ranks.len(), 960);
    }

    #[test]
    fn chess960_start_positions_of_the_perft_suite_count_as_listed() {
        let path = format!("{}/../shared/data/perft/chess960/frc_perftsuite.epd", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut found = Vec::new();
        for line in text.lines() {
            let mut fields = line.split(';');
            let fen = fields.next().unwrap().trim();
            if !fen.contains("/pppppppp/8/8/8/8/PPPPPPPP/") {
                continue;
            }
            let setup = Fen::parse(fen, CastlingMode::Chess960).unwrap().setup;
            let number = (0..Position::CHESS960_COUNT)
                .find(|&n| Position::chess960(n).unwrap().to_setup() == setup)
                .unwrap_or_else(|| panic!("{fen} is no Chess960 start position"));
            let pos = Position::chess960(number).unwrap();
            for field in fields.take(3) {
                let (depth, nodes) = field.trim().trim_start_matches('D').split_once(' ').unwrap();
                let depth: u32 = depth.parse().unwrap();
                assert_eq!(perft(&pos, depth), Ok(nodes.parse().unwrap()), "{number} depth {depth}");
            }
            found.push(number);
        }
        // the five start positions of the suite, in its order
        assert_eq!(found, [171, 22, 396, 732, 177]);
    }
}
