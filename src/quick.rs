//! Finding the move a SAN names, fast: the hot path of validating games at
//! scale. [`find`] answers whether exactly one legal move fits a [`San`] and
//! whether the SAN is written as canonical SAN writes it, without generating
//! the legal moves; [`suffix_after`] gives the check mark a move earns.
//!
//! Anything [`find`] does not accept ([`Quick::NotFound`], or
//! [`Quick::NonCanonical`] when the details are wanted) is for
//! [`resolve`](crate::resolve::resolve), which explains: candidates with
//! reasons, lint findings, suggestions. On strict SAN the two agree: `find`
//! finds a move exactly when `resolve` does (except castling written as a
//! king move, `Kg1`, which `find` leaves to `resolve`).
//!
//! ```
//! use sanfen::quick::{Quick, find, suffix_after};
//! use sanfen::san::San;
//! use sanfen::{Move, Position, Role, Square};
//!
//! let pos = Position::default();
//! let nf3 = Move::Normal { role: Role::Knight, from: Square::G1, capture: None, to: Square::F3, promotion: None };
//! assert_eq!(find(&pos, &"Nf3".parse().unwrap()), Quick::Canonical(nf3));
//! // an origin file no other knight makes necessary
//! assert_eq!(find(&pos, &"Ngf3".parse().unwrap()), Quick::NonCanonical(nf3));
//! assert_eq!(find(&pos, &"Nf4".parse().unwrap()), Quick::NotFound);
//!
//! let mut after = pos.clone();
//! after.play_unchecked(nf3);
//! assert_eq!(suffix_after(&after), None);
//! ```

use crate::attacks::{self, between, ray};
use crate::san::{CastlingSide, San, Suffix};
use crate::{Bitboard, Color, File, Move, Piece, Position, Rank, Role, Square};

/// What the fast path found for a SAN in a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Quick {
    /// Exactly one legal move fits, and the SAN is written exactly as
    /// canonical SAN writes it (check mark aside): the capture mark when and
    /// only when the move captures, the origin file or rank only when another
    /// legal move of the same kind of piece goes to the same square, a pawn
    /// capture with its file, the promotion piece.
    Canonical(Move),
    /// Exactly one legal move fits, but the spelling is not canonical: a
    /// missing or spurious `x`, an origin file or rank no other move makes
    /// necessary. [`resolve`](crate::resolve::resolve) says which.
    NonCanonical(Move),
    /// No legal move fits, more than one does, or the SAN is one the fast path
    /// leaves to [`resolve`](crate::resolve::resolve) (castling written as a
    /// king move, coordinates, a null move).
    NotFound,
}

impl Quick {
    /// The move, canonically written or not.
    pub const fn to_move(self) -> Option<Move> {
        match self {
            Quick::Canonical(m) | Quick::NonCanonical(m) => Some(m),
            Quick::NotFound => None,
        }
    }

    /// Whether a move was found and written canonically.
    pub const fn is_canonical(self) -> bool {
        matches!(self, Quick::Canonical(_))
    }
}

/// Finds the legal move `san` names in `pos`, and whether `san` is its
/// canonical spelling.
///
/// Handles [`San::Normal`] and [`San::Castle`] (standard and Chess960);
/// [`San::Squares`] and [`San::Null`] are [`Quick::NotFound`]. A king move to
/// a square no ordinary king move reaches but castling does (`Kg1` for
/// `O-O`) is [`Quick::NotFound`] too, for the full resolver.
///
/// ```
/// use sanfen::quick::{Quick, find};
/// use sanfen::{CastlingMode, Fen, Move, Position, Square};
///
/// // Chess960: the king stays on g1, the rook goes from h1 to f1
/// let fen = Fen::parse("4k3/8/8/8/8/8/8/6KR w H - 0 1", CastlingMode::Chess960).unwrap();
/// let pos = Position::from_setup(fen.setup, CastlingMode::Chess960).unwrap();
/// let castle = Move::Castle { king: Square::G1, rook: Square::H1 };
/// assert_eq!(find(&pos, &"O-O".parse().unwrap()), Quick::Canonical(castle));
/// assert_eq!(find(&pos, &"O-O-O".parse().unwrap()), Quick::NotFound);
/// ```
pub fn find(pos: &Position, san: &San) -> Quick {
    find_with_checkers(pos, pos.checkers(), san)
}

/// [`find`], given the pieces that check the side to move (`pos.checkers()`,
/// which a caller that played the move before has at hand already).
pub fn find_with_checkers(pos: &Position, checkers: crate::Bitboard, san: &San) -> Quick {
    match *san {
        San::Normal { role, file, rank, capture, to, promotion } => {
            let side = Side::with_checkers(pos, checkers);
            if side.ours.contains(to) {
                return Quick::NotFound;
            }
            let last_rank = to.rank() == Rank::Eighth.relative_to(side.us);
            match (role, promotion) {
                (Role::Pawn, None) if last_rank => Quick::NotFound,
                (Role::Pawn, Some(p)) if !last_rank || matches!(p, Role::Pawn | Role::King) => Quick::NotFound,
                (Role::Pawn, _) => side.pawn(file, rank, capture, to, promotion),
                (_, Some(_)) => Quick::NotFound,
                (Role::King, None) => side.king(file, rank, capture, to),
                (_, None) => side.piece(role, file, rank, capture, to),
            }
        }
        San::Castle(castling_side) => Side::with_checkers(pos, checkers).castle(castling_side),
        San::Squares { .. } | San::Null => Quick::NotFound,
    }
}

/// The check mark canonical SAN writes after a move that led to `after`:
/// `None`, [`Suffix::Check`] or [`Suffix::Checkmate`]. Whether the side to
/// move has a legal move is asked only when it is in check, and answered
/// without generating every move.
///
/// ```
/// use sanfen::quick::suffix_after;
/// use sanfen::san::Suffix;
/// use sanfen::{Fen, Position};
///
/// // after 1. f3 e5 2. g4 Qh4
/// let after: Fen = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3".parse().unwrap();
/// let after = Position::from_setup(after.setup, after.castling_mode).unwrap();
/// assert_eq!(suffix_after(&after), Some(Suffix::Checkmate));
/// ```
pub fn suffix_after(after: &Position) -> Option<Suffix> {
    suffix_with_checkers(after, after.checkers())
}

/// [`suffix_after`], given the pieces that check the side to move
/// (`after.checkers()`).
pub fn suffix_with_checkers(after: &Position, checkers: crate::Bitboard) -> Option<Suffix> {
    if checkers.is_empty() {
        None
    } else if Side::with_checkers(after, checkers).has_evasion() {
        Some(Suffix::Check)
    } else {
        Some(Suffix::Checkmate)
    }
}

/// The side to move, with what every legality test needs.
struct Side<'a> {
    pos: &'a Position,
    us: Color,
    ours: Bitboard,
    theirs: Bitboard,
    occupied: Bitboard,
    king: Square,
    checkers: Bitboard,
}

/// The squares of a file, or every square when none is given.
#[inline]
fn file_mask(file: Option<File>) -> Bitboard {
    file.map_or(Bitboard::FULL, Bitboard::from_file)
}

/// The squares of a rank, or every square when none is given.
#[inline]
fn rank_mask(rank: Option<Rank>) -> Bitboard {
    rank.map_or(Bitboard::FULL, Bitboard::from_rank)
}

impl<'a> Side<'a> {
    #[inline]
    fn with_checkers(pos: &'a Position, checkers: Bitboard) -> Side<'a> {
        let board = &pos.board;
        let us = pos.turn;
        Side {
            pos,
            us,
            ours: board.by_color(us),
            theirs: board.by_color(!us),
            occupied: board.occupied(),
            king: pos.our_king(),
            checkers,
        }
    }

    /// One rank forward for the side to move.
    #[inline]
    fn forward(&self) -> i32 {
        self.us.fold(1, -1)
    }

    /// Whether a move (not the king's) to `to` deals with the check, if any:
    /// it captures the single checker or blocks its line.
    #[inline]
    fn answers_check(&self, to: Square) -> bool {
        if self.checkers.is_empty() {
            return true;
        }
        // in double check only the king moves
        self.checkers.single_square().is_some_and(|checker| between(self.king, checker).with(checker).contains(to))
    }

    /// Whether the piece on `from` is pinned to our king and `to` leaves the
    /// pin line.
    #[inline(always)]
    fn pinned_off_line(&self, from: Square, to: Square) -> bool {
        let line = ray(self.king, from);
        if line.is_empty() || line.contains(to) {
            return false;
        }
        let board = &self.pos.board;
        let straight = from.file() == self.king.file() || from.rank() == self.king.rank();
        let sliders = if straight { board.rooks_and_queens() } else { board.bishops_and_queens() };
        // usually no enemy slider stands on the line at all
        let sliders = sliders & self.theirs & line;
        if sliders.is_empty() {
            return false;
        }
        let without = self.occupied - from;
        let snipers = if straight {
            attacks::rook_attacks(self.king, without)
        } else {
            attacks::bishop_attacks(self.king, without)
        };
        (snipers & sliders).into_iter().any(|sniper| between(self.king, sniper).contains(from))
    }

    /// Whether the king's square `to` is attacked once the king has left its square.
    #[inline]
    fn king_attacked_on(&self, to: Square) -> bool {
        self.pos.board.attackers_to(to, !self.us, self.occupied - self.king).any()
    }

    /// Whether the en passant capture from `from` to `ep` leaves the king safe
    /// from sliders (other checks are the check target's business).
    fn en_passant_is_safe(&self, from: Square, ep: Square, captured: Square) -> bool {
        let board = &self.pos.board;
        let occupied = (self.occupied - from - captured).with(ep);
        let sliders = (attacks::rook_attacks(self.king, occupied) & board.rooks_and_queens())
            | (attacks::bishop_attacks(self.king, occupied) & board.bishops_and_queens());
        (sliders & self.theirs).is_empty()
    }

    /// The pawn that an en passant capture on `ep` takes, when the capture is
    /// a move of the position (ignoring which pawn captures and pins).
    fn en_passant_victim(&self, ep: Square) -> Option<Square> {
        if self.pos.ep_square != Some(ep) || self.occupied.contains(ep) {
            return None;
        }
        let captured = ep.step(0, -self.forward())?;
        if self.pos.board.piece_at(captured) != Some(Piece { color: !self.us, role: Role::Pawn }) {
            return None;
        }
        // in check: the capture must take the checker or block on `ep`
        if self.checkers.more_than_one()
            || (self.checkers.any() && !self.answers_check(ep) && !self.checkers.contains(captured))
        {
            return None;
        }
        Some(captured)
    }

    /// The enemy piece on `to`, if any.
    fn capture_at(&self, to: Square) -> Option<Role> {
        if self.theirs.contains(to) { self.pos.board.piece_at(to).map(|p| p.role) } else { None }
    }

    /// A pawn move: the origin follows from `to` (one or two steps back, or
    /// diagonally back from the named file).
    #[inline(always)]
    fn pawn(
        &self,
        file: Option<File>,
        rank: Option<Rank>,
        capture: bool,
        to: Square,
        promotion: Option<Role>,
    ) -> Quick {
        let pawns = self.pos.board.by_piece(Piece { color: self.us, role: Role::Pawn });
        let Some(behind) = to.step(0, -self.forward()) else { return Quick::NotFound };
        match file {
            Some(file) if file != to.file() => {
                // a capture, from the named file
                let df = file as i32 - to.file() as i32;
                if df.abs() != 1 {
                    return Quick::NotFound;
                }
                let Some(from) = behind.step(df, 0) else { return Quick::NotFound };
                if !pawns.contains(from) || rank.is_some_and(|r| r != from.rank()) {
                    return Quick::NotFound;
                }
                let m = if let Some(victim) = self.capture_at(to) {
                    if !self.answers_check(to) || self.pinned_off_line(from, to) {
                        return Quick::NotFound;
                    }
                    Move::Normal { role: Role::Pawn, from, capture: Some(victim), to, promotion }
                } else {
                    match self.en_passant_victim(to) {
                        Some(captured) if self.en_passant_is_safe(from, to, captured) => Move::EnPassant { from, to },
                        _ => return Quick::NotFound,
                    }
                };
                if capture && rank.is_none() { Quick::Canonical(m) } else { Quick::NonCanonical(m) }
            }
            _ => {
                // a push, one step or two
                if self.occupied.contains(to) {
                    return Quick::NotFound;
                }
                let from = if pawns.contains(behind) {
                    behind
                } else if to.rank() == Rank::Fourth.relative_to(self.us) && !self.occupied.contains(behind) {
                    match behind.step(0, -self.forward()) {
                        Some(start) if pawns.contains(start) => start,
                        _ => return Quick::NotFound,
                    }
                } else {
                    return Quick::NotFound;
                };
                if rank.is_some_and(|r| r != from.rank()) || !self.answers_check(to) || self.pinned_off_line(from, to) {
                    return Quick::NotFound;
                }
                let m = Move::Normal { role: Role::Pawn, from, capture: None, to, promotion };
                if !capture && file.is_none() && rank.is_none() { Quick::Canonical(m) } else { Quick::NonCanonical(m) }
            }
        }
    }

    /// An ordinary king move (castling written as one is the resolver's).
    fn king(&self, file: Option<File>, rank: Option<Rank>, capture: bool, to: Square) -> Quick {
        // an illegal king move may be castling written as a king move: the resolver's
        if !attacks::king_attacks(self.king).contains(to) || self.king_attacked_on(to) {
            return Quick::NotFound;
        }
        let from = self.king;
        if !(file_mask(file) & rank_mask(rank)).contains(from) {
            return Quick::NotFound;
        }
        let captured = self.capture_at(to);
        let m = Move::Normal { role: Role::King, from, capture: captured, to, promotion: None };
        if capture == captured.is_some() && file.is_none() && rank.is_none() {
            Quick::Canonical(m)
        } else {
            Quick::NonCanonical(m)
        }
    }

    /// A knight, bishop, rook or queen move: the candidates are our pieces of
    /// that kind that attack `to`.
    #[inline(always)]
    fn piece(&self, role: Role, file: Option<File>, rank: Option<Rank>, capture: bool, to: Square) -> Quick {
        if !self.answers_check(to) {
            return Quick::NotFound;
        }
        let attackers = match role {
            Role::Knight => attacks::knight_attacks(to),
            Role::Bishop => attacks::bishop_attacks(to, self.occupied),
            Role::Rook => attacks::rook_attacks(to, self.occupied),
            _ => attacks::queen_attacks(to, self.occupied),
        } & self.pos.board.by_piece(Piece { color: self.us, role });
        let mut legal = Bitboard::EMPTY;
        for from in attackers {
            if !self.pinned_off_line(from, to) {
                legal.add(from);
            }
        }
        let Some(from) = (legal & file_mask(file) & rank_mask(rank)).single_square() else {
            return Quick::NotFound;
        };
        // canonical disambiguation: file, else rank, else both
        let rivals = legal.without(from);
        let (need_file, need_rank) = if rivals.is_empty() {
            (false, false)
        } else if !rivals.intersects(Bitboard::from_file(from.file())) {
            (true, false)
        } else if !rivals.intersects(Bitboard::from_rank(from.rank())) {
            (false, true)
        } else {
            (true, true)
        };
        let captured = self.capture_at(to);
        let m = Move::Normal { role, from, capture: captured, to, promotion: None };
        if capture == captured.is_some() && file.is_some() == need_file && rank.is_some() == need_rank {
            Quick::Canonical(m)
        } else {
            Quick::NonCanonical(m)
        }
    }

    /// Castling to one side, as move generation allows it (Chess960 included).
    fn castle(&self, side: CastlingSide) -> Quick {
        let back = Rank::First.relative_to(self.us);
        let king = self.king;
        if self.checkers.any() || king.rank() != back {
            return Quick::NotFound;
        }
        let board = &self.pos.board;
        let rooks = board.by_piece(Piece { color: self.us, role: Role::Rook });
        let king_side = side == CastlingSide::KingSide;
        for file in self.pos.castling_rights.files(self.us) {
            let rook = Square::from_coords(file, back);
            if (file > king.file()) != king_side || !rooks.contains(rook) {
                continue;
            }
            let king_to = Square::from_coords(if king_side { File::G } else { File::C }, back);
            let rook_to = Square::from_coords(if king_side { File::F } else { File::D }, back);
            let king_path = between(king, king_to).with(king_to);
            let must_be_empty = (king_path | between(rook, rook_to).with(rook_to)) - king - rook;
            if must_be_empty.intersects(self.occupied) {
                continue;
            }
            let without_king = self.occupied - king;
            if king_path.into_iter().any(|sq| board.attackers_to(sq, !self.us, without_king).any()) {
                continue;
            }
            // after the rook has moved too (Chess960: it may have shielded the king's square)
            let after = (without_king - rook).with(king_to).with(rook_to);
            if board.attackers_to(king_to, !self.us, after).any() {
                continue;
            }
            return Quick::Canonical(Move::Castle { king, rook });
        }
        Quick::NotFound
    }

    /// Whether the side to move, in check, has a legal move.
    fn has_evasion(&self) -> bool {
        let board = &self.pos.board;
        for to in attacks::king_attacks(self.king) - self.ours {
            if !self.king_attacked_on(to) {
                return true;
            }
        }
        let Some(checker) = self.checkers.single_square() else { return false };
        // a pinned piece cannot capture the checker or block its line
        let movers = self.ours - self.king - self.pos.pinned();
        let pawns = board.by_role(Role::Pawn) & movers;
        let blocks = between(self.king, checker);
        // captures of the checker, by pawns too
        if (board.attackers_to(checker, self.us, self.occupied) & movers).any() {
            return true;
        }
        for to in blocks {
            if (board.attackers_to(to, self.us, self.occupied) & (movers - pawns)).any() {
                return true;
            }
            // pawn pushes onto the line, one step or two
            let Some(behind) = to.step(0, -self.forward()) else { continue };
            if pawns.contains(behind) {
                return true;
            }
            if to.rank() == Rank::Fourth.relative_to(self.us)
                && !self.occupied.contains(behind)
                && let Some(start) = behind.step(0, -self.forward())
                && pawns.contains(start)
            {
                return true;
            }
        }
        if let Some(ep) = self.pos.ep_square
            && let Some(captured) = self.en_passant_victim(ep)
        {
            let capturers =
                attacks::pawn_attacks(!self.us, ep) & board.by_piece(Piece { color: self.us, role: Role::Pawn });
            if capturers.into_iter().any(|from| self.en_passant_is_safe(from, ep, captured)) {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CastlingMode, Fen};

    fn position(fen: &str) -> Position {
        let fen = Fen::parse(fen, CastlingMode::Standard).unwrap();
        Position::from_setup(fen.setup, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn san_that_strict_text_cannot_say() {
        let pawn =
            |file, capture, to, promotion| San::Normal { role: Role::Pawn, file, rank: None, capture, to, promotion };
        let table: &[(&str, San, Quick)] = &[
            // a pawn capture without its file, with or without the mark
            ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", pawn(None, true, Square::D5, None), Quick::NotFound),
            ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", pawn(None, false, Square::D5, None), Quick::NotFound),
            // promotion to a king, or on another rank
            ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", pawn(None, false, Square::B8, Some(Role::King)), Quick::NotFound),
            ("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1", pawn(None, false, Square::B4, Some(Role::Queen)), Quick::NotFound),
            (
                "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
                pawn(None, false, Square::B8, Some(Role::Rook)),
                Quick::Canonical(Move::Normal {
                    role: Role::Pawn,
                    from: Square::B7,
                    capture: None,
                    to: Square::B8,
                    promotion: Some(Role::Rook),
                }),
            ),
            // a king that promotes
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
                San::Normal {
                    role: Role::King,
                    file: None,
                    rank: None,
                    capture: false,
                    to: Square::E2,
                    promotion: Some(Role::Queen),
                },
                Quick::NotFound,
            ),
            // coordinates and null moves are the resolver's
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
                San::Squares { from: Square::E1, to: Square::E2, capture: false, promotion: None },
                Quick::NotFound,
            ),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", San::Null, Quick::NotFound),
        ];
        for (fen, san, want) in table {
            assert_eq!(find(&position(fen), san), *want, "{fen}: {san:?}");
        }
    }
}
