//! Legal move generation with bitboards, playing moves, and perft.
//!
//! ```
//! use sanfen::{perft, Fen, Position, CastlingMode};
//!
//! let kiwipete: Fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
//! let pos = Position::from_setup(kiwipete.setup, CastlingMode::Standard).unwrap();
//! assert_eq!(pos.legal_moves().len(), 48);
//! assert_eq!(perft(&pos, 2), Ok(2039));
//! ```

use crate::attacks::{self, between, ray};
use crate::{Bitboard, CastlingMode, Color, File, Move, MoveList, Piece, Position, Rank, Role, Square};

/// The promotion pieces, in the order moves are generated.
const PROMOTIONS: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// The move is not legal in the position.
///
/// `Display` names the move by its squares: UCI (`e2e5`, `e7e8q`), or the
/// king's and the rook's squares for castling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMoveError {
    /// The move.
    pub m: Move,
}

impl core::fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.m {
            Move::Castle { king, rook } => {
                write!(f, "illegal move: castling with the king on {king} and the rook on {rook}")
            }
            m => write!(f, "illegal move: {}", m.to_uci(CastlingMode::Standard)),
        }
    }
}

impl std::error::Error for IllegalMoveError {}

/// What taking back a move needs besides the move: the state it overwrites.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Undo {
    /// The move, or `None` for a null move.
    m: Option<Move>,
    castling_rights: crate::CastlingRights,
    ep_square: Option<Square>,
    halfmoves: u32,
    /// The fullmove number before the move: playing it may not have added
    /// one (it stays at `u32::MAX`), so taking it back cannot subtract one.
    fullmoves: u32,
}

impl Undo {
    /// The move taken back, or `None` for a null move.
    pub(crate) fn played(&self) -> Option<Move> {
        self.m
    }
}

/// Where generated moves go: a list, or a counter that never builds them.
trait Sink {
    /// Moves of a non-pawn piece from `from` to each of `targets`.
    fn targets(&mut self, board: &crate::Board, role: Role, from: Square, targets: Bitboard);
    /// A pawn move, four of them when it promotes.
    fn pawn(&mut self, board: &crate::Board, from: Square, to: Square);
    /// Any other move.
    fn push(&mut self, m: Move);
}

impl Sink for MoveList {
    #[inline]
    fn targets(&mut self, board: &crate::Board, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            let capture = board.piece_at(to).map(|p| p.role);
            self.push(Move::Normal { role, from, capture, to, promotion: None });
        }
    }

    #[inline]
    fn pawn(&mut self, board: &crate::Board, from: Square, to: Square) {
        let capture = board.piece_at(to).map(|p| p.role);
        if matches!(to.rank(), Rank::First | Rank::Eighth) {
            for promotion in PROMOTIONS {
                self.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(promotion) });
            }
        } else {
            self.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: None });
        }
    }

    #[inline]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

/// Counts moves without building them.
struct Counter(usize);

impl Sink for Counter {
    #[inline]
    fn targets(&mut self, _: &crate::Board, _: Role, _: Square, targets: Bitboard) {
        self.0 += targets.count();
    }

    #[inline]
    fn pawn(&mut self, _: &crate::Board, _: Square, to: Square) {
        self.0 += if matches!(to.rank(), Rank::First | Rank::Eighth) { 4 } else { 1 };
    }

    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
}

impl Position {
    /// The number of legal moves, counted without building them.
    pub fn legal_move_count(&self) -> usize {
        let mut counter = Counter(0);
        self.generate(&mut counter);
        counter.0
    }

    /// Every legal move, in generation order: king moves, then knights,
    /// bishops and queens (diagonally), rooks and queens (straight), pawns, castling.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate(&mut moves);
        moves
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        let board = &self.board;
        let us = self.turn;
        let ours = board.by_color(us);
        let occupied = board.occupied();
        if board.attackers_to(self.our_king(), !us, occupied).is_empty() {
            // out of check, any move of a piece that is not pinned is legal
            let free = ours - self.pinned();
            for from in board.by_piece(Piece { color: us, role: Role::Knight }) & free {
                if (attacks::knight_attacks(from) - ours).any() {
                    return true;
                }
            }
            for from in board.bishops_and_queens() & free {
                if (attacks::bishop_attacks(from, occupied) - ours).any() {
                    return true;
                }
            }
            for from in board.rooks_and_queens() & free {
                if (attacks::rook_attacks(from, occupied) - ours).any() {
                    return true;
                }
            }
        }
        self.legal_move_count() != 0
    }

    /// Whether `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Our pieces that stand between our king and an enemy slider on its line,
    /// alone (so they may move only along that line).
    pub fn pinned(&self) -> Bitboard {
        let board = &self.board;
        let king = self.our_king();
        let them = board.by_color(!self.turn);
        let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()))
            & them;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & board.occupied();
            if !blockers.more_than_one() {
                pinned |= blockers & board.by_color(self.turn);
            }
        }
        pinned
    }

    fn generate(&self, moves: &mut impl Sink) {
        let board = &self.board;
        let us = self.turn;
        let ours = board.by_color(us);
        let occupied = board.occupied();
        let king = self.our_king();
        let checkers = board.attackers_to(king, !us, occupied);

        self.king_moves(moves, king, ours);
        if checkers.more_than_one() {
            return;
        }
        // with one checker, a move must capture it or block its line
        let target = match checkers.single_square() {
            Some(checker) => between(king, checker).with(checker),
            None => !ours,
        };
        let pinned = self.pinned();

        for from in board.by_piece(Piece { color: us, role: Role::Knight }) - pinned {
            moves.targets(board, Role::Knight, from, attacks::knight_attacks(from) & target);
        }
        for from in board.bishops_and_queens() & ours {
            let mut to = attacks::bishop_attacks(from, occupied) & target;
            if pinned.contains(from) {
                to &= ray(king, from);
            }
            moves.targets(board, self.role_at(from), from, to);
        }
        for from in board.rooks_and_queens() & ours {
            let mut to = attacks::rook_attacks(from, occupied) & target;
            if pinned.contains(from) {
                to &= ray(king, from);
            }
            moves.targets(board, self.role_at(from), from, to);
        }
        self.pawn_moves(moves, king, target, pinned, checkers);
        if checkers.is_empty() {
            self.castling_moves(moves, king);
        }
    }

    #[inline]
    fn role_at(&self, sq: Square) -> Role {
        self.board.piece_at(sq).map_or(Role::Pawn, |p| p.role)
    }

    fn king_moves(&self, moves: &mut impl Sink, king: Square, ours: Bitboard) {
        let board = &self.board;
        let without_king = board.occupied() - king;
        let mut safe = Bitboard::EMPTY;
        for to in attacks::king_attacks(king) - ours {
            if board.attackers_to(to, !self.turn, without_king).is_empty() {
                safe.add(to);
            }
        }
        moves.targets(board, Role::King, king, safe);
    }

    fn pawn_moves(&self, moves: &mut impl Sink, king: Square, target: Bitboard, pinned: Bitboard, checkers: Bitboard) {
        let board = &self.board;
        let us = self.turn;
        let pawns = board.by_piece(Piece { color: us, role: Role::Pawn });
        let empty = !board.occupied();
        let theirs = board.by_color(!us);
        let (forward, third): (i32, Bitboard) = match us {
            Color::White => (8, Bitboard::from_rank(Rank::Third)),
            Color::Black => (-8, Bitboard::from_rank(Rank::Sixth)),
        };
        let shift = |bb: Bitboard, by: i32| if by > 0 { Bitboard(bb.0 << by) } else { Bitboard(bb.0 >> -by) };
        let not_a = !Bitboard::from_file(File::A);
        let not_h = !Bitboard::from_file(File::H);

        // captures towards the a file, then towards the h file
        for (delta, mask) in [(forward - 1, not_a), (forward + 1, not_h)] {
            let to_squares = shift(pawns & mask, delta) & theirs & target;
            for to in to_squares {
                let from = Square::ALL[(to as i32 - delta) as usize & 63];
                self.push_pawn(moves, from, to, king, pinned);
            }
        }
        let single = shift(pawns, forward) & empty;
        let double = shift(single & third, forward) & empty & target;
        for to in single & target {
            let from = Square::ALL[(to as i32 - forward) as usize & 63];
            self.push_pawn(moves, from, to, king, pinned);
        }
        for to in double {
            let from = Square::ALL[(to as i32 - 2 * forward) as usize & 63];
            if !pinned.contains(from) || ray(king, from).contains(to) {
                moves.pawn(board, from, to);
            }
        }
        if let Some(ep) = self.ep_square {
            self.en_passant_moves(moves, ep, target, checkers);
        }
    }

    #[inline]
    fn push_pawn(&self, moves: &mut impl Sink, from: Square, to: Square, king: Square, pinned: Bitboard) {
        if pinned.contains(from) && !ray(king, from).contains(to) {
            return;
        }
        moves.pawn(&self.board, from, to);
    }

    fn en_passant_moves(&self, moves: &mut impl Sink, ep: Square, target: Bitboard, checkers: Bitboard) {
        let board = &self.board;
        let us = self.turn;
        let Some(captured) = ep.step(0, us.fold(-1, 1)) else { return };
        if board.piece_at(captured) != Some(Piece { color: !us, role: Role::Pawn }) || board.occupied().contains(ep) {
            return;
        }
        // in check, the capture must take the checker or block on the en passant square
        if checkers.any() && !target.contains(ep) && !checkers.contains(captured) {
            return;
        }
        let capturers = attacks::pawn_attacks(!us, ep) & board.by_piece(Piece { color: us, role: Role::Pawn });
        for from in capturers {
            if ep_is_safe(self, from, ep, captured) {
                moves.push(Move::EnPassant { from, to: ep });
            }
        }
    }

    fn castling_moves(&self, moves: &mut impl Sink, king: Square) {
        let board = &self.board;
        let us = self.turn;
        let back = Rank::First.relative_to(us);
        if king.rank() != back {
            return;
        }
        let occupied = board.occupied();
        let rooks = board.by_piece(Piece { color: us, role: Role::Rook });
        for file in self.castling_rights.files(us) {
            let rook = Square::from_coords(file, back);
            if !rooks.contains(rook) {
                continue;
            }
            let (king_to, rook_to) = castling_squares(king, rook);
            let king_path = between(king, king_to).with(king_to);
            let must_be_empty = (king_path | between(rook, rook_to).with(rook_to)) - king - rook;
            if must_be_empty.intersects(occupied) {
                continue;
            }
            let without_king = occupied - king;
            if king_path.into_iter().any(|sq| board.attackers_to(sq, !us, without_king).any()) {
                continue;
            }
            // after the rook has moved too (Chess960: it may have shielded the king's square)
            let after = (without_king - rook).with(king_to).with(rook_to);
            if board.attackers_to(king_to, !us, after).any() {
                continue;
            }
            moves.push(Move::Castle { king, rook });
        }
    }

    /// Plays a legal move. The move must come from [`Position::legal_moves`] (or
    /// be equal to one of them); anything else leaves the position in an
    /// unspecified (but memory-safe) state.
    #[inline(always)]
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let them = !us;
        self.ep_square = None;
        self.halfmoves = if m.is_zeroing() { 0 } else { self.halfmoves.saturating_add(1) };
        match m {
            Move::Normal { role, from, capture, to, promotion } => {
                self.board.play_normal(us, role, from, to, capture, promotion);
                if capture.is_some() && to.rank() == Rank::First.relative_to(them) {
                    self.castling_rights.discard(them, to.file());
                }
                match role {
                    Role::King => self.castling_rights.discard_color(us),
                    Role::Rook if from.rank() == Rank::First.relative_to(us) => {
                        self.castling_rights.discard(us, from.file());
                    }
                    Role::Pawn if (to as i32 - from as i32).abs() == 16 => {
                        self.ep_square = Square::new((from as u32 + to as u32) / 2);
                    }
                    _ => {}
                }
            }
            Move::EnPassant { from, to } => {
                self.board.remove_piece_at(from);
                if let Some(captured) = to.step(0, us.fold(-1, 1)) {
                    self.board.remove_piece_at(captured);
                }
                self.board.set_piece_at(to, Piece { color: us, role: Role::Pawn });
            }
            Move::Castle { king, rook } => {
                let (king_to, rook_to) = castling_squares(king, rook);
                self.board.remove_piece_at(king);
                self.board.remove_piece_at(rook);
                self.board.set_piece_at(king_to, Piece { color: us, role: Role::King });
                self.board.set_piece_at(rook_to, Piece { color: us, role: Role::Rook });
                self.castling_rights.discard_color(us);
            }
        }
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = them;
    }

    /// The pieces that check the side to move, in this position reached by
    /// playing `m` (as [`Position::checkers`], found from the move: the piece
    /// that moved, or a line it opened to the king).
    #[inline(always)]
    pub(crate) fn checkers_after(&self, m: Move) -> Bitboard {
        let Move::Normal { role, from, to, promotion, .. } = m else {
            return self.checkers();
        };
        let board = &self.board;
        let them = !self.turn;
        let king = self.our_king();
        let occupied = board.occupied();
        let mover = Piece { color: them, role: promotion.unwrap_or(role) };
        let mut checkers = Bitboard::EMPTY;
        if mover.role != Role::King && attacks::attacks(to, mover, occupied).contains(king) {
            checkers.add(to);
        }
        // a line through the square left: a slider behind it now sees the king
        let line = ray(king, from);
        if line.any() {
            let sliders = if king.file() == from.file() || king.rank() == from.rank() {
                attacks::rook_attacks(king, occupied) & board.rooks_and_queens()
            } else {
                attacks::bishop_attacks(king, occupied) & board.bishops_and_queens()
            };
            checkers |= sliders & board.by_color(them) & line;
        }
        checkers
    }

    /// What [`Position::unplay`] needs to take back the next move (or null move).
    pub(crate) fn undo_info(&self, m: Option<Move>) -> Undo {
        Undo {
            m,
            castling_rights: self.castling_rights,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// Takes back the move (or null move) `undo` was made for, played last.
    pub(crate) fn unplay(&mut self, undo: &Undo) {
        let us = !self.turn;
        self.turn = us;
        self.fullmoves = undo.fullmoves;
        self.castling_rights = undo.castling_rights;
        self.ep_square = undo.ep_square;
        self.halfmoves = undo.halfmoves;
        match undo.m {
            None => {}
            Some(Move::Normal { role, from, capture, to, promotion: _ }) => {
                self.board.remove_piece_at(to);
                if let Some(captured) = capture {
                    self.board.set_piece_at(to, Piece { color: !us, role: captured });
                }
                self.board.set_piece_at(from, Piece { color: us, role });
            }
            Some(Move::EnPassant { from, to }) => {
                self.board.remove_piece_at(to);
                self.board.set_piece_at(from, Piece { color: us, role: Role::Pawn });
                if let Some(captured) = to.step(0, us.fold(-1, 1)) {
                    self.board.set_piece_at(captured, Piece { color: !us, role: Role::Pawn });
                }
            }
            Some(Move::Castle { king, rook }) => {
                let (king_to, rook_to) = castling_squares(king, rook);
                self.board.remove_piece_at(king_to);
                self.board.remove_piece_at(rook_to);
                self.board.set_piece_at(king, Piece { color: us, role: Role::King });
                self.board.set_piece_at(rook, Piece { color: us, role: Role::Rook });
            }
        }
    }

    /// Passes the turn without moving: a null move, as analysis writes `--`
    /// (no legal move of chess; the caller makes sure the side to move is not
    /// in check). The en passant square goes; the clocks run.
    pub fn play_null(&mut self) {
        self.ep_square = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
    }

    /// Plays a move, if legal.
    ///
    /// # Errors
    ///
    /// [`IllegalMoveError`] when `m` is not among [`Position::legal_moves`].
    pub fn play(&self, m: Move) -> Result<Position, IllegalMoveError> {
        if !self.is_legal(m) {
            return Err(IllegalMoveError { m });
        }
        let mut next = self.clone();
        next.play_unchecked(m);
        Ok(next)
    }
}

/// Where castling with the rook on `rook` takes the king and the rook: the g
/// and f files on the king side, the c and d files on the queen side.
fn castling_squares(king: Square, rook: Square) -> (Square, Square) {
    let back = king.rank();
    let king_side = rook.file() > king.file();
    let king_to = Square::from_coords(if king_side { File::G } else { File::C }, back);
    let rook_to = Square::from_coords(if king_side { File::F } else { File::D }, back);
    (king_to, rook_to)
}

/// Whether the en passant capture `from` x `ep` leaves our king safe.
fn ep_is_safe(pos: &Position, from: Square, ep: Square, captured: Square) -> bool {
    let board = &pos.board;
    let king = pos.our_king();
    let occupied = (board.occupied() - from - captured).with(ep);
    let them = board.by_color(!pos.turn);
    let sliders = (attacks::rook_attacks(king, occupied) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, occupied) & board.bishops_and_queens());
    // other checks are already handled by the check target
    (sliders & them).is_empty()
}

/// The deepest perft [`perft`] and [`perft_divide`] accept, in plies. Each
/// ply is one frame on the call stack with its move list (a few kilobytes),
/// so the limit keeps the stack small on any thread; and no tree that deep
/// with moves left at its bottom could be counted in a lifetime anyway.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// A perft depth above [`MAX_PERFT_DEPTH`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftDepthError {
    /// The depth asked for.
    pub depth: u32,
}

impl core::fmt::Display for PerftDepthError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "perft depth {} is too deep: at most {MAX_PERFT_DEPTH}", self.depth)
    }
}

impl std::error::Error for PerftDepthError {}

/// The number of leaf nodes of the legal move tree `depth` plies deep.
/// Moves at the last ply are counted, not played.
///
/// # Errors
///
/// [`PerftDepthError`] when `depth` is above [`MAX_PERFT_DEPTH`].
pub fn perft(pos: &Position, depth: u32) -> Result<u64, PerftDepthError> {
    if depth > MAX_PERFT_DEPTH {
        return Err(PerftDepthError { depth });
    }
    Ok(count_leaves(pos, depth))
}

/// [`perft`] without the depth check: one stack frame per ply.
fn count_leaves(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.legal_move_count() as u64;
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            count_leaves(&next, depth - 1)
        })
        .sum()
}

/// Perft split by the first move: each legal move with its subtree's count
/// (`depth` 0 counts as 1, like [`perft`] 1).
///
/// # Errors
///
/// [`PerftDepthError`] when `depth` is above [`MAX_PERFT_DEPTH`].
pub fn perft_divide(pos: &Position, depth: u32) -> Result<Vec<(Move, u64)>, PerftDepthError> {
    if depth > MAX_PERFT_DEPTH {
        return Err(PerftDepthError { depth });
    }
    Ok(pos
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            (m, count_leaves(&next, depth.saturating_sub(1)))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CastlingMode, Fen};

    fn position(fen: &str, mode: CastlingMode) -> Position {
        // lenient: chessprogramming's position 4 needs more pawn captures than Black has lost pieces
        Position::from_setup_lenient(Fen::parse(fen, mode).unwrap().setup, mode).unwrap()
    }

    #[test]
    fn classic_perft() {
        let cases: &[(&str, &[u64])] = &[
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &[20, 400, 8902, 197_281]),
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &[48, 2039, 97_862]),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &[14, 191, 2812, 43_238]),
            ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", &[6, 264, 9467]),
            ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", &[44, 1486, 62_379]),
        ];
        for (fen, counts) in cases {
            let pos = position(fen, CastlingMode::Standard);
            for (depth, &count) in counts.iter().enumerate() {
                assert_eq!(perft(&pos, depth as u32 + 1), Ok(count), "{fen} depth {}", depth + 1);
            }
        }
    }

    #[test]
    fn perft_refuses_depths_above_the_limit_instead_of_overflowing_the_stack() {
        let kings = position("7k/8/8/8/8/8/8/K7 w - - 0 1", CastlingMode::Standard);
        assert_eq!(perft(&kings, 2000), Err(PerftDepthError { depth: 2000 }));
        assert_eq!(perft_divide(&kings, MAX_PERFT_DEPTH + 1), Err(PerftDepthError { depth: MAX_PERFT_DEPTH + 1 }));
        assert_eq!(PerftDepthError { depth: 2000 }.to_string(), "perft depth 2000 is too deep: at most 32");
        // a tree with no move left is counted at any allowed depth, on one frame per ply
        let mated = position("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", CastlingMode::Standard);
        assert_eq!(perft(&mated, MAX_PERFT_DEPTH), Ok(0));
        assert_eq!(perft(&kings, 0), Ok(1));
    }

    #[test]
    fn a_move_and_its_take_back_leave_the_fullmove_number_as_it_was_at_its_largest() {
        // playing Black's move cannot count past u32::MAX: taking it back
        // gives the number back as it was, not one less
        for fen in ["7k/8/8/8/8/8/8/K7 b - - 0 4294967295", "7k/8/8/8/8/8/8/K7 w - - 0 4294967295"] {
            let start = position(fen, CastlingMode::Standard);
            for m in [Some(start.legal_moves()[0]), None] {
                let mut pos = start.clone();
                let undo = pos.undo_info(m);
                match m {
                    Some(m) => pos.play_unchecked(m),
                    None => pos.play_null(),
                }
                assert_eq!(pos.fullmoves(), u32::MAX, "{fen}");
                pos.unplay(&undo);
                assert_eq!(pos, start, "{fen} {m:?}");
                assert_eq!(pos.fullmoves(), u32::MAX, "{fen}");
            }
        }
    }

    #[test]
    fn counting_listing_and_checkers_agree() {
        // walk a few plies of several positions: count and list agree, and
        // the checkers found from the move are those of the position
        fn walk(pos: &Position, depth: u32) {
            assert_eq!(pos.legal_move_count(), pos.legal_moves().len(), "{pos}");
            for &m in &pos.legal_moves() {
                let mut next = pos.clone();
                next.play_unchecked(m);
                assert_eq!(next.checkers_after(m), next.checkers(), "{pos} {m:?}");
                if depth > 0 {
                    walk(&next, depth - 1);
                }
            }
        }
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            // discovered checks on ranks, files and diagonals, promotions with check
            "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1",
            "7k/8/5N2/8/8/8/1B6/6K1 w - - 0 1",
            "4k3/2P5/8/8/8/8/8/4K3 w - - 0 1",
        ] {
            walk(&position(fen, CastlingMode::Standard), 2);
        }
    }

    #[test]
    fn more_than_256_moves() {
        // composed (28 white pieces): 270 legal moves, more than any legal game allows
        let pos = position("kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1", CastlingMode::Chess960);
        assert_eq!(pos.legal_moves().len(), 270);
        assert_eq!(pos.legal_move_count(), 270);
    }

    #[test]
    fn en_passant_pinned_along_the_rank() {
        // bxc6 would leave the king on a5 to the rook on h5
        let pos = position("8/8/8/KPp4r/8/8/8/7k w - c6 0 2", CastlingMode::Standard);
        assert!(!pos.legal_moves().iter().any(|m| matches!(m, Move::EnPassant { .. })));
        let pos = position("8/8/8/1Pp4r/8/8/8/K6k w - c6 0 2", CastlingMode::Standard);
        assert!(pos.legal_moves().contains(&Move::EnPassant { from: Square::B5, to: Square::C6 }));
    }

    #[test]
    fn play_updates_state() {
        let mut pos = Position::default();
        for m in [
            Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None },
            Move::Normal { role: Role::Knight, from: Square::G8, capture: None, to: Square::F6, promotion: None },
            Move::Normal { role: Role::Knight, from: Square::G1, capture: None, to: Square::F3, promotion: None },
        ] {
            pos = pos.play(m).unwrap();
        }
        assert_eq!(pos.to_string(), "rnbqkb1r/pppppppp/5n2/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2");
        let illegal =
            Move::Normal { role: Role::King, from: Square::E8, capture: None, to: Square::E7, promotion: None };
        assert_eq!(pos.play(illegal), Err(IllegalMoveError { m: illegal }));
    }

    #[test]
    fn illegal_move_error_names_the_squares() {
        let pos = Position::default();
        let bad = Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E5, promotion: None };
        assert_eq!(pos.play(bad).unwrap_err().to_string(), "illegal move: e2e5");
        let promotion = Move::Normal {
            role: Role::Pawn,
            from: Square::E7,
            capture: None,
            to: Square::E8,
            promotion: Some(Role::Queen),
        };
        assert_eq!(IllegalMoveError { m: promotion }.to_string(), "illegal move: e7e8q");
        let castle = Move::Castle { king: Square::E1, rook: Square::H1 };
        assert_eq!(
            pos.play(castle).unwrap_err().to_string(),
            "illegal move: castling with the king on e1 and the rook on h1"
        );
    }

    #[test]
    fn chess960_castling_with_rook_on_the_king_destination() {
        // king b1, rook g1 (on the king's destination for O-O): legal when f1 is empty
        let pos = position("4k3/8/8/8/8/8/8/1K4R1 w G - 0 1", CastlingMode::Chess960);
        assert!(pos.legal_moves().contains(&Move::Castle { king: Square::B1, rook: Square::G1 }));
        // an enemy rook on a1 behind the castling rook b1: after O-O-O the king on c1 is in check
        let pos = position("4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", CastlingMode::Chess960);
        assert!(!pos.legal_moves().iter().any(|m| m.is_castle()));
    }
}
