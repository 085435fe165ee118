//! Per-piece views: the squares one piece can reach, the squares a
//! side attacks, the reachable squares where the piece is not attacked after
//! moving there, and the string matrix with those squares marked `"PM"`.
//!
//! Reach is pseudo-legal: a slider runs until the first
//! piece, taking it when it is an enemy and stopping one square short when it
//! is its own; a knight jumps; a king steps once (no castling); a pawn pushes one
//! square, two from its start rank, and captures diagonally onto enemy pieces
//! (and onto the en passant square, for [`Position::reach`]). Checks and pins
//! are ignored; [`Position::legal_targets`] gives the legal view.
//!
//! ```
//! use sanfen::{Board, Square};
//! use sanfen::views::{mark, reach, safe_reach};
//!
//! // a white knight on row 2, column 4 (e3) and a black king on row 4, column 5 (f5)
//! let mut cells = [[""; 8]; 8];
//! cells[2][4] = "WN";
//! cells[4][5] = "BK";
//! let board = Board::from_string_matrix(&cells).unwrap();
//! let squares: Vec<String> = reach(&board, Square::E3).into_iter().map(|sq| sq.to_string()).collect();
//! assert_eq!(squares, ["d1", "f1", "c2", "g2", "c4", "g4", "d5", "f5"]);
//! // the king on f5 guards g4; it can be taken on f5 (in these views kings can be captured)
//! let safe: Vec<String> = safe_reach(&board, Square::E3).into_iter().map(|sq| sq.to_string()).collect();
//! assert_eq!(safe, ["d1", "f1", "c2", "g2", "c4", "d5", "f5"]);
//! let matrix = mark(&board, safe_reach(&board, Square::E3));
//! assert_eq!(matrix[2], ["", "", "", "", "WN", "", "", ""]);
//! assert_eq!(matrix[3], ["", "", "PM", "", "", "", "", ""]);
//! assert_eq!(matrix[4], ["", "", "", "PM", "", "PM", "", ""]);
//! ```

use crate::attacks;
use crate::{Bitboard, Board, Color, Piece, Position, Rank, Role, Square, StringMatrix};

/// The string written on a square a piece can move to.
pub const MARK: &str = "PM";

/// The squares the piece on `sq` can reach (see the [module docs](self));
/// empty when `sq` is empty. A board has no en passant square: see
/// [`Position::reach`] for that.
pub fn reach(board: &Board, sq: Square) -> Bitboard {
    reach_with_ep(board, sq, None)
}

/// [`reach`], with a pawn also capturing onto `ep_square` when it attacks it,
/// the square is on its en passant rank (6 for White, 3 for Black) and an
/// enemy pawn stands just past it.
fn reach_with_ep(board: &Board, sq: Square, ep_square: Option<Square>) -> Bitboard {
    let Some(piece) = board.piece_at(sq) else { return Bitboard::EMPTY };
    let ours = board.by_color(piece.color);
    match piece.role {
        Role::Pawn => pawn_reach(board, sq, piece.color, ep_square),
        _ => attacks::attacks(sq, piece, board.occupied()) - ours,
    }
}

fn pawn_reach(board: &Board, sq: Square, color: Color, ep_square: Option<Square>) -> Bitboard {
    let forward = color.fold(1, -1);
    let empty = !board.occupied();
    let mut reach = Bitboard::EMPTY;
    if let Some(one) = sq.step(0, forward).filter(|&one| empty.contains(one)) {
        reach.add(one);
        if sq.rank() == Rank::Second.relative_to(color)
            && let Some(two) = one.step(0, forward).filter(|&two| empty.contains(two))
        {
            reach.add(two);
        }
    }
    let targets = attacks::pawn_attacks(color, sq);
    reach |= targets & board.by_color(!color);
    if let Some(ep) = ep_square.filter(|&ep| targets.contains(ep) && en_passant_victim(board, color, ep).is_some()) {
        reach.add(ep);
    }
    reach
}

/// The enemy pawn a pawn of `color` takes by capturing en passant on `ep`, if
/// `ep` is an empty square of the right rank with an enemy pawn just past it.
fn en_passant_victim(board: &Board, color: Color, ep: Square) -> Option<Square> {
    if ep.rank() != Rank::Sixth.relative_to(color) || board.occupied().contains(ep) {
        return None;
    }
    let victim = ep.step(0, color.fold(-1, 1))?;
    (board.piece_at(victim) == Some(Piece { color: !color, role: Role::Pawn })).then_some(victim)
}

/// Every square the pieces of `color` attack (a pawn attacks its two capture
/// squares, not the squares it pushes to), whether or not a piece stands there.
pub fn attacked(board: &Board, color: Color) -> Bitboard {
    board.attacked_by(color)
}

/// The squares of [`reach`] where the piece on `sq` is not attacked by the
/// opponent after moving there. The opponent's attacks are worked out on the
/// board after the move: the square the piece left is open (so a slider may
/// now attack along it), and the piece it captures attacks nothing any more.
pub fn safe_reach(board: &Board, sq: Square) -> Bitboard {
    safe_subset(board, sq, reach(board, sq), None)
}

/// The squares of `targets` where the piece on `sq` is safe after moving there;
/// `ep_square` says which target, if any, is an en passant capture.
fn safe_subset(board: &Board, sq: Square, targets: Bitboard, ep_square: Option<Square>) -> Bitboard {
    let Some(piece) = board.piece_at(sq) else { return Bitboard::EMPTY };
    targets
        .into_iter()
        .filter(|&to| {
            let mut after = board.clone();
            after.remove_piece_at(sq);
            if piece.role == Role::Pawn
                && Some(to) == ep_square
                && let Some(victim) = en_passant_victim(board, piece.color, to)
            {
                after.remove_piece_at(victim);
            }
            after.set_piece_at(to, piece);
            after.attackers_to(to, !piece.color, after.occupied()).is_empty()
        })
        .collect()
}

/// The string matrix of `board` (row 0 = rank 1, column 0 = file a) with
/// [`MARK`] (`"PM"`) written on every square of `squares`. A square that holds
/// a piece is overwritten too: a capture is marked that way.
pub fn mark(board: &Board, squares: Bitboard) -> StringMatrix {
    let mut matrix = board.to_string_matrix();
    for sq in squares {
        matrix[sq.rank().index()][sq.file().index()] = MARK.to_owned();
    }
    matrix
}

impl Position {
    /// The squares the piece on `sq` can reach, as [`reach`], with a pawn of the
    /// side to move also reaching the en passant square when it attacks it
    /// (whether or not the capture is legal).
    pub fn reach(&self, sq: Square) -> Bitboard {
        reach_with_ep(self.board(), sq, self.ep_for(sq))
    }

    /// The squares of [`Position::reach`] where the piece is not attacked by the
    /// opponent after moving there, as [`safe_reach`]; an en passant capture
    /// removes the captured pawn first.
    pub fn safe_reach(&self, sq: Square) -> Bitboard {
        let ep = self.ep_for(sq);
        safe_subset(self.board(), sq, reach_with_ep(self.board(), sq, ep), ep)
    }

    /// The en passant square, when the piece on `sq` belongs to the side to move.
    fn ep_for(&self, sq: Square) -> Option<Square> {
        self.ep_square().filter(|_| self.board().by_color(self.turn()).contains(sq))
    }

    /// The destinations of the legal moves of the piece on `sq`: empty when the
    /// square is empty or holds a piece of the side not to move. Castling adds
    /// the king's destination (g or c file; in Chess960 it may be the king's
    /// own square).
    pub fn legal_targets(&self, sq: Square) -> Bitboard {
        self.legal_moves().iter().filter(|m| m.from() == sq).map(|m| m.to()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CastlingMode, Fen};

    /// A board from seed 002 rows written rank 1 first, `"PM"` cells ignored.
    fn board(rows: &[[&str; 8]; 8]) -> Board {
        Board::from_string_matrix(&rows.map(|row| row.map(|cell| if cell == MARK { "" } else { cell }))).unwrap()
    }

    fn owned(rows: [[&str; 8]; 8]) -> StringMatrix {
        rows.map(|row| row.map(str::to_owned))
    }

    fn squares(bb: Bitboard) -> Vec<String> {
        bb.into_iter().map(|sq| sq.to_string()).collect()
    }

    /// seed 002, basic level: `BB`, row 3, column 2, on an empty board.
    #[test]
    fn seed_002_bishop_on_an_empty_board() {
        let expected = [
            ["", "", "", "", "", "PM", "", ""],
            ["PM", "", "", "", "PM", "", "", ""],
            ["", "PM", "", "PM", "", "", "", ""],
            ["", "", "BB", "", "", "", "", ""],
            ["", "PM", "", "PM", "", "", "", ""],
            ["PM", "", "", "", "PM", "", "", ""],
            ["", "", "", "", "", "PM", "", ""],
            ["", "", "", "", "", "", "PM", ""],
        ];
        let board = board(&expected);
        assert_eq!(mark(&board, reach(&board, Square::C4)), owned(expected));
        // nothing attacks anything: every square is safe
        assert_eq!(safe_reach(&board, Square::C4), reach(&board, Square::C4));
    }

    /// seed 002, basic level: `WN`, row 1, column 4, on an empty board.
    #[test]
    fn seed_002_knight_on_an_empty_board() {
        let expected = [
            ["", "", "PM", "", "", "", "PM", ""],
            ["", "", "", "", "WN", "", "", ""],
            ["", "", "PM", "", "", "", "PM", ""],
            ["", "", "", "PM", "", "PM", "", ""],
            ["", "", "", "", "", "", "", ""],
            ["", "", "", "", "", "", "", ""],
            ["", "", "", "", "", "", "", ""],
            ["", "", "", "", "", "", "", ""],
        ];
        let board = board(&expected);
        assert_eq!(squares(reach(&board, Square::E2)), ["c1", "g1", "c3", "g3", "d4", "f4"]);
        assert_eq!(mark(&board, reach(&board, Square::E2)), owned(expected));
    }

    /// seed 002, proficient level: a bishop on row 4, column 4 stops before its
    /// own pieces and takes enemy ones; a black bishop there sees it reversed.
    #[test]
    fn bishop_blocked_and_capturing() {
        let mut cells = [
            ["", "", "", "", "", "", "", ""],
            ["", "", "", "", "", "", "", ""],
            ["", "", "WN", "", "", "", "BN", ""],
            ["", "", "", "", "", "", "", ""],
            ["", "", "", "", "WB", "", "", ""],
            ["", "", "", "", "", "BR", "", ""],
            ["", "", "WK", "", "", "", "", ""],
            ["", "", "", "", "", "", "", "BK"],
        ];
        let white = board(&cells);
        assert_eq!(
            mark(&white, reach(&white, Square::E5)),
            owned([
                ["", "", "", "", "", "", "", ""],
                ["", "", "", "", "", "", "", ""],
                ["", "", "WN", "", "", "", "PM", ""],
                ["", "", "", "PM", "", "PM", "", ""],
                ["", "", "", "", "WB", "", "", ""],
                ["", "", "", "PM", "", "PM", "", ""],
                ["", "", "WK", "", "", "", "", ""],
                ["", "", "", "", "", "", "", "BK"],
            ])
        );
        cells[4][4] = "BB";
        let black = board(&cells);
        assert_eq!(
            mark(&black, reach(&black, Square::E5)),
            owned([
                ["", "", "", "", "", "", "", ""],
                ["", "", "", "", "", "", "", ""],
                ["", "", "PM", "", "", "", "BN", ""],
                ["", "", "", "PM", "", "PM", "", ""],
                ["", "", "", "", "BB", "", "", ""],
                ["", "", "", "PM", "", "BR", "", ""],
                ["", "", "PM", "", "", "", "", ""],
                ["", "", "", "", "", "", "", "BK"],
            ])
        );
    }

    /// A board from a FEN placement field.
    fn placement(text: &str) -> Board {
        Fen::parse(&format!("{text} w - - 0 1"), CastlingMode::Standard).unwrap().setup.board
    }

    #[test]
    fn reach_of_each_kind() {
        let table: &[(&str, Square, &[&str])] = &[
            ("8/8/8/8/8/8/4P3/8", Square::E2, &["e3", "e4"]),
            ("8/8/8/8/4p3/8/4P3/8", Square::E2, &["e3"]),
            ("8/8/8/8/8/4n3/4P3/8", Square::E2, &[]),
            ("8/8/8/8/8/3n1N2/4P3/8", Square::E2, &["d3", "e3", "e4"]),
            // off the start rank: one step only
            ("8/8/8/8/8/4P3/8/8", Square::E3, &["e4"]),
            ("8/3p4/2P1P3/8/8/8/8/8", Square::D7, &["d5", "c6", "d6", "e6"]),
            ("8/3p4/2p1P3/8/8/8/8/8", Square::D7, &["d5", "d6", "e6"]),
            ("8/4P3/8/8/8/8/8/8", Square::E7, &["e8"]),
            ("8/8/8/8/8/8/8/K7", Square::A1, &["b1", "a2", "b2"]),
            ("8/8/8/8/8/8/1p6/K7", Square::A1, &["b1", "a2", "b2"]),
            ("8/8/8/8/8/8/1P6/K7", Square::A1, &["b1", "a2"]),
            ("8/8/8/8/8/1n6/8/n7", Square::A1, &["c2"]),
            ("8/8/8/8/8/1n6/8/N7", Square::A1, &["c2", "b3"]),
            (
                "8/8/8/8/r2R2Pp/8/8/8",
                Square::D4,
                &["d1", "d2", "d3", "a4", "b4", "c4", "e4", "f4", "d5", "d6", "d7", "d8"],
            ),
            ("8/8/8/8/8/8/8/8", Square::D4, &[]),
        ];
        for (text, sq, expected) in table {
            assert_eq!(squares(reach(&placement(text), *sq)), *expected, "{text} {sq}");
        }
        let queen = placement("8/8/8/8/3Q4/8/8/8");
        assert_eq!(reach(&queen, Square::D4).count(), 27);
        let queen = placement("8/8/8/2p1P3/3Q4/8/8/8");
        // c5 taken (b6, a7 cut off), e5 its own (e5, f6, g7, h8 cut off)
        assert_eq!(reach(&queen, Square::D4).count(), 21);
    }

    #[test]
    fn attacked_squares() {
        // the knight on d3 attacks e1 though its own king stands there
        let board = placement("8/8/8/8/8/3n4/8/R3k3");
        assert_eq!(
            squares(attacked(&board, Color::Black)),
            ["c1", "d1", "e1", "f1", "b2", "d2", "e2", "f2", "b4", "f4", "c5", "e5"]
        );
        // pawns attack diagonally, not forwards
        assert_eq!(squares(attacked(&placement("8/8/8/8/8/8/4P3/8"), Color::White)), ["d3", "f3"]);
        assert_eq!(attacked(&Board::new(), Color::Black).count(), 22);
    }

    /// The black rook on a1 attacks along the first rank through c1 once the
    /// white rook has left it; the knight and the pawn guard c3, c5 and c6.
    #[test]
    fn safe_reach_recomputes_the_attacks() {
        let cells = [
            ["BR", "", "WR", "", "", "", "", ""],
            ["", "", "", "", "", "", "", ""],
            ["", "", "", "", "", "", "", ""],
            ["", "", "", "", "BN", "", "", ""],
            ["", "", "", "", "", "", "", ""],
            ["", "", "", "", "", "", "", ""],
            ["", "", "", "BP", "", "", "", ""],
            ["", "", "", "", "", "", "", ""],
        ];
        let board = board(&cells);
        assert_eq!(
            mark(&board, reach(&board, Square::C1)),
            owned([
                ["PM", "PM", "WR", "PM", "PM", "PM", "PM", "PM"],
                ["", "", "PM", "", "", "", "", ""],
                ["", "", "PM", "", "", "", "", ""],
                ["", "", "PM", "", "BN", "", "", ""],
                ["", "", "PM", "", "", "", "", ""],
                ["", "", "PM", "", "", "", "", ""],
                ["", "", "PM", "BP", "", "", "", ""],
                ["", "", "PM", "", "", "", "", ""],
            ])
        );
        assert_eq!(
            mark(&board, safe_reach(&board, Square::C1)),
            owned([
                ["PM", "", "WR", "", "", "", "", ""],
                ["", "", "PM", "", "", "", "", ""],
                ["", "", "", "", "", "", "", ""],
                ["", "", "PM", "", "BN", "", "", ""],
                ["", "", "", "", "", "", "", ""],
                ["", "", "", "", "", "", "", ""],
                ["", "", "PM", "BP", "", "", "", ""],
                ["", "", "PM", "", "", "", "", ""],
            ])
        );
    }

    /// The king in check from a4 may not step back to f4 along the rook's line;
    /// it may take the knight on f5 (the knight no longer attacks anything) but
    /// not the pawn on e5, which d6 defends.
    #[test]
    fn safe_reach_of_a_king() {
        let cells = [
            ["", "", "", "", "", "", "", ""],
            ["", "", "", "", "", "", "", ""],
            ["", "", "", "", "", "", "", ""],
            ["BR", "", "", "", "WK", "", "", ""],
            ["", "", "", "", "BP", "BN", "", ""],
            ["", "", "", "BP", "", "", "", ""],
            ["", "", "", "", "", "", "", ""],
            ["", "", "", "", "", "", "", "BK"],
        ];
        let board = board(&cells);
        assert_eq!(squares(reach(&board, Square::E4)), ["d3", "e3", "f3", "d4", "f4", "d5", "e5", "f5"]);
        assert_eq!(
            mark(&board, safe_reach(&board, Square::E4)),
            owned([
                ["", "", "", "", "", "", "", ""],
                ["", "", "", "", "", "", "", ""],
                ["", "", "", "PM", "", "PM", "", ""],
                ["BR", "", "", "", "WK", "", "", ""],
                ["", "", "", "PM", "BP", "PM", "", ""],
                ["", "", "", "BP", "", "", "", ""],
                ["", "", "", "", "", "", "", ""],
                ["", "", "", "", "", "", "", "BK"],
            ])
        );
        assert_eq!(safe_reach(&board, Square::A1), Bitboard::EMPTY);
    }

    #[test]
    fn en_passant_in_the_position_views() {
        // d7-d5 was the last move: e5 may take on d6, after which the rook on d2
        // sees d6 through the square the captured pawn left
        let pos: Position = "4k3/8/8/3pP3/8/8/3r4/4K3 w - d6 0 2".parse().unwrap();
        assert_eq!(squares(reach(pos.board(), Square::E5)), ["e6"]);
        assert_eq!(squares(pos.reach(Square::E5)), ["d6", "e6"]);
        assert_eq!(squares(pos.safe_reach(Square::E5)), ["e6"]);
        assert_eq!(squares(pos.legal_targets(Square::E5)), ["d6", "e6"]);
        // the black pawn is not the side to move: no en passant for it
        assert_eq!(squares(pos.reach(Square::D5)), ["d4"]);
    }

    #[test]
    fn legal_targets_of_pieces() {
        let start = Position::default();
        assert_eq!(squares(start.legal_targets(Square::E2)), ["e3", "e4"]);
        assert_eq!(squares(start.legal_targets(Square::G1)), ["f3", "h3"]);
        assert_eq!(squares(start.legal_targets(Square::E1)), Vec::<String>::new());
        assert_eq!(squares(start.legal_targets(Square::E7)), Vec::<String>::new());
        assert_eq!(squares(start.legal_targets(Square::E4)), Vec::<String>::new());
        // a pinned knight reaches six squares but has no legal move
        let pinned: Position = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1".parse().unwrap();
        assert_eq!(squares(pinned.reach(Square::E2)), ["c1", "g1", "c3", "g3", "d4", "f4"]);
        assert_eq!(pinned.legal_targets(Square::E2), Bitboard::EMPTY);
        let castling: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        assert_eq!(squares(castling.legal_targets(Square::E1)), ["c1", "d1", "f1", "g1", "d2", "e2", "f2"]);
        assert_eq!(squares(castling.reach(Square::E1)), ["d1", "f1", "d2", "e2", "f2"]);
    }
}
