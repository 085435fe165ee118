//! Finding the move a SAN names, fast: the hot path of validating games at
//! scale. [`find`] answers whether exactly one legal move fits a [`San`] and
//! whether the SAN is written as canonical SAN writes it, without generating
//! the legal moves; [`suffix_with_checkers`] gives the check mark a move earns.
//!
//! Anything [`find`] does not accept ([`Quick::NotFound`], or
//! [`Quick::NonCanonical`] when the details are wanted) is for
//! [`resolve`](crate::resolve::resolve), which explains: candidates with
//! reasons, lint findings, suggestions. On strict SAN the two agree: `find`
//! finds a move exactly when `resolve` does (except castling written as a
//! king move, `Kg1`, which `find` leaves to `resolve`); the cross-check at
//! the end of this file holds it to that on thousands of positions.
//!
//! Private to the crate: [`play`](crate::play) and
//! [`SanPlus::to_move`](crate::san::SanPlus::to_move) are the public ways in.

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

/// Finds the legal move `san` names in `pos`, and whether `san` is its
/// canonical spelling.
///
/// Handles [`San::Normal`] and [`San::Castle`] (standard and Chess960);
/// [`San::Squares`] and [`San::Null`] are [`Quick::NotFound`]. A king move to
/// a square no ordinary king move reaches but castling does (`Kg1` for
/// `O-O`) is [`Quick::NotFound`] too, for the full resolver.
pub fn find(pos: &Position, san: &San) -> Quick {
    find_with_checkers(pos, pos.checkers(), *san)
}

/// [`find`], given the pieces that check the side to move (`pos.checkers()`,
/// which a caller that played the move before has at hand already).
pub fn find_with_checkers(pos: &Position, checkers: crate::Bitboard, san: San) -> Quick {
    match san {
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
/// `None`, [`Suffix::Check`] or [`Suffix::Checkmate`], given the pieces that
/// check the side to move (`after.checkers()`). Whether the side to move has
/// a legal move is asked only when it is in check, and answered without
/// generating every move.
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
    use crate::CastlingMode;

    /// [`suffix_with_checkers`] with the checkers found.
    fn suffix_after(after: &Position) -> Option<Suffix> {
        suffix_with_checkers(after, after.checkers())
    }

    #[test]
    fn canonical_non_canonical_and_not_found() {
        let pos = Position::default();
        let nf3 = Move::Normal { role: Role::Knight, from: Square::G1, capture: None, to: Square::F3, promotion: None };
        assert_eq!(find(&pos, &"Nf3".parse().unwrap()), Quick::Canonical(nf3));
        // an origin file no other knight makes necessary
        assert_eq!(find(&pos, &"Ngf3".parse().unwrap()), Quick::NonCanonical(nf3));
        assert_eq!(find(&pos, &"Nf4".parse().unwrap()), Quick::NotFound);
        let mut after = pos.clone();
        after.play_unchecked(nf3);
        assert_eq!(suffix_after(&after), None);
        // after 1. f3 e5 2. g4 Qh4
        let mated: Position = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3".parse().unwrap();
        assert_eq!(suffix_after(&mated), Some(Suffix::Checkmate));
    }

    #[test]
    fn chess960_castling_with_the_king_on_g1() {
        // the king stays on g1, the rook goes from h1 to f1
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/6KR w H - 0 1", CastlingMode::Chess960).unwrap();
        let castle = Move::Castle { king: Square::G1, rook: Square::H1 };
        assert_eq!(find(&pos, &"O-O".parse().unwrap()), Quick::Canonical(castle));
        assert_eq!(find(&pos, &"O-O-O".parse().unwrap()), Quick::NotFound);
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
            assert_eq!(find(&fen.parse().unwrap(), san), *want, "{fen}: {san:?}");
        }
    }
}

/// The fast path against the full resolver, on real positions.
///
/// Positions: every position of the opening books of `../shared/data/epd/`
/// replayed move by move, and the positions of the standard random and the
/// Chess960 perft suites. In each, for every legal move: its canonical SAN
/// must be found as [`Quick::Canonical`], and SAN spelled otherwise (capture
/// mark dropped or added, origin file or rank added, changed or dropped,
/// another piece, destination or promotion, castling both ways and as king
/// moves) must be answered as [`resolve`] answers it; and [`suffix_after`]
/// must agree with [`notation::suffix`].
///
/// The resolver is slow on SAN that names no move (it ranks suggestions), so
/// the opening positions, many and alike, are tried with the spellings near
/// each move's own ([`Variants::Near`]); the perft positions (random, composed,
/// Chess960: where the odd cases are) with every variation ([`Variants::All`]),
/// a third of the random ones.
#[cfg(test)]
mod cross_check {
    use std::collections::HashSet;

    use super::{Quick, find, suffix_with_checkers};
    use crate::notation;
    use crate::resolve::{MoveLint, resolve, resolve_text};
    use crate::san::{CastlingSide, San, SanOptions, SanPlus, Suffix, parse_san};
    use crate::{CastlingMode, Fen, File, Move, Position, Rank, Role, Square};

    fn suffix_after(after: &Position) -> Option<Suffix> {
        suffix_with_checkers(after, after.checkers())
    }

    fn read(path: &str) -> String {
        let full = format!("{}/../shared/data/{path}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e} (is ../shared beside the repository?)"))
    }

    /// SAN as written: strictly when it is canonical text, else leniently (the
    /// first reading: `bc6` is the pawn).
    fn san(text: &str) -> San {
        text.parse().unwrap_or_else(|_| {
            let parsed = parse_san(text.as_bytes(), SanOptions::LENIENT).unwrap_or_else(|e| panic!("{text}: {e}"));
            parsed.first().san
        })
    }

    /// What [`find`] must answer, from the full resolver: the move when it
    /// resolves (non-canonical when it reports a spelling lint: check marks aside,
    /// since the SAN has none), nothing when it does not, or when it reads the SAN
    /// as castling written as a king move.
    fn expected(pos: &Position, san: San) -> Quick {
        let resolution = resolve(pos, &SanPlus::new(san));
        match resolution.outcome {
            Ok(_) if resolution.lints.contains(&MoveLint::CastlingAsKingMove) => Quick::NotFound,
            Ok(m)
                if resolution.lints.iter().any(|lint| {
                    matches!(
                        lint,
                        MoveLint::MissingCaptureMark | MoveLint::SpuriousCaptureMark | MoveLint::OverDisambiguated
                    )
                }) =>
            {
                Quick::NonCanonical(m)
            }
            Ok(m) => Quick::Canonical(m),
            Err(_) => Quick::NotFound,
        }
    }

    /// How many SAN values were compared, by answer.
    #[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
    struct Tally {
        positions: usize,
        moves: usize,
        checks: usize,
        mates: usize,
        canonical: usize,
        non_canonical: usize,
        not_found: usize,
    }

    impl Tally {
        fn add(&mut self, other: Tally) {
            self.positions += other.positions;
            self.moves += other.moves;
            self.checks += other.checks;
            self.mates += other.mates;
            self.canonical += other.canonical;
            self.non_canonical += other.non_canonical;
            self.not_found += other.not_found;
        }
    }

    /// How many spellings of each move to try.
    #[derive(Copy, Clone, Debug, PartialEq, Eq)]
    enum Variants {
        /// The capture mark toggled; the origin file, rank or both added or dropped.
        Near,
        /// Every combination of origin file (none, the right one, the destination's,
        /// the neighbours), origin rank (none, the right one, the neighbours) and
        /// capture mark; every piece; the neighbouring destinations; other promotion
        /// pieces, none, and the forbidden ones.
        All,
    }

    /// Spellings near the canonical SAN `s` of `m`.
    fn variants(m: Move, s: San, how: Variants, out: &mut HashSet<San>) {
        let San::Normal { role, file, rank, capture, to, promotion } = s else {
            return;
        };
        let from = m.from();
        let normal = |file, rank, capture| San::Normal { role, file, rank, capture, to, promotion };
        if how == Variants::Near {
            for (file, rank) in [
                (None, None),
                (Some(from.file()), None),
                (None, Some(from.rank())),
                (Some(from.file()), Some(from.rank())),
            ] {
                for capture in [false, true] {
                    out.insert(normal(file, rank, capture));
                }
            }
            return;
        }
        let files = [None, Some(from.file()), Some(to.file()), from.file().offset(1), from.file().offset(-1)];
        let ranks = [None, Some(from.rank()), from.rank().offset(1), from.rank().offset(-1)];
        for file in files {
            for rank in ranks {
                for capture in [false, true] {
                    out.insert(normal(file, rank, capture));
                }
            }
        }
        for other in Role::ALL {
            out.insert(San::Normal { role: other, file, rank, capture, to, promotion });
            out.insert(San::Normal { role: other, file: None, rank: None, capture, to, promotion: None });
        }
        for (df, dr) in [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)] {
            if let Some(to) = to.step(df, dr) {
                out.insert(San::Normal { role, file, rank, capture, to, promotion });
            }
        }
        for promotion in [None, Some(Role::Queen), Some(Role::Knight), Some(Role::King), Some(Role::Pawn)] {
            out.insert(San::Normal { role, file, rank, capture, to, promotion });
        }
    }

    /// Checks one position; failures are pushed to `failures`.
    fn check_position(pos: &Position, how: Variants, failures: &mut Vec<String>) -> Tally {
        let mut tally = Tally { positions: 1, ..Tally::default() };
        let mut sans: HashSet<San> = HashSet::new();
        for m in pos.legal_moves() {
            sans.insert(notation::san(pos, m));
        }
        // castling both ways, and king moves along the back rank (castling written as a king move)
        sans.insert(San::Castle(CastlingSide::KingSide));
        sans.insert(San::Castle(CastlingSide::QueenSide));
        let back = Rank::First.relative_to(pos.turn());
        for file in File::ALL {
            let to = Square::from_coords(file, back);
            sans.insert(San::Normal { role: Role::King, file: None, rank: None, capture: false, to, promotion: None });
        }
        for m in pos.legal_moves() {
            tally.moves += 1;
            let s = notation::san(pos, m);
            let found = find(pos, &s);
            if found != Quick::Canonical(m) {
                failures.push(format!("{pos}: canonical {s} of {m:?}: found {found:?}"));
            }
            variants(m, s, how, &mut sans);
            let mut after = pos.clone();
            after.play_unchecked(m);
            let suffix = suffix_after(&after);
            match suffix {
                Some(Suffix::Check) => tally.checks += 1,
                Some(Suffix::Checkmate) => tally.mates += 1,
                None => {}
            }
            let want = notation::suffix(pos, m);
            if suffix != want {
                failures.push(format!("{pos}: {s}: suffix_after {suffix:?}, notation::suffix {want:?}"));
            }
        }
        let mut sans: Vec<San> = sans.into_iter().collect();
        sans.sort_by_key(|s| s.to_string());
        for s in sans {
            let found = find(pos, &s);
            let want = expected(pos, s);
            if found != want {
                failures.push(format!("{pos}: {s}: found {found:?}, resolver {want:?}"));
            }
            match found {
                Quick::Canonical(_) => tally.canonical += 1,
                Quick::NonCanonical(_) => tally.non_canonical += 1,
                Quick::NotFound => tally.not_found += 1,
            }
        }
        tally
    }

    /// Checks positions on every core, every `all_every`-th one (the first
    /// included) with [`Variants::All`], the others with [`Variants::Near`] (all
    /// with `Near` when `all_every` is 0); panics listing the first failures.
    fn check_all(positions: &[Position], all_every: usize) -> Tally {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let chunk = positions.len().div_ceil(threads).max(1);
        let results: Vec<(Tally, Vec<String>)> = std::thread::scope(|scope| {
            let handles: Vec<_> = positions
                .chunks(chunk)
                .enumerate()
                .map(|(part_index, part)| {
                    scope.spawn(move || {
                        let mut failures = Vec::new();
                        let mut tally = Tally::default();
                        for (i, pos) in part.iter().enumerate() {
                            let index = part_index * chunk + i;
                            let how = if all_every > 0 && index.is_multiple_of(all_every) {
                                Variants::All
                            } else {
                                Variants::Near
                            };
                            tally.add(check_position(pos, how, &mut failures));
                        }
                        (tally, failures)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("no panic")).collect()
        });
        let mut tally = Tally::default();
        let mut failures = Vec::new();
        for (part, fails) in results {
            tally.add(part);
            failures.extend(fails);
        }
        let shown: Vec<&String> = failures.iter().take(20).collect();
        assert!(failures.is_empty(), "{} failures, the first: {shown:#?}", failures.len());
        tally
    }

    /// Every distinct position (by FEN) on the lines of the opening books.
    fn opening_positions() -> Vec<Position> {
        let mut seen = HashSet::new();
        let mut positions = Vec::new();
        let mut lines = 0;
        let mut files = vec![("epd/notnil-chess/eco_lichess.tsv".to_owned(), 2)];
        files.extend(["a", "b", "c", "d", "e"].map(|name| (format!("epd/chess-openings/{name}.tsv"), 2)));
        for (path, column) in files {
            for line in read(&path).lines().skip(1) {
                lines += 1;
                let movetext = line.split('\t').nth(column).unwrap_or_else(|| panic!("{path}: {line}"));
                let mut pos = Position::default();
                for token in movetext.split_whitespace().filter(|t| !t.ends_with('.')) {
                    if seen.insert(pos.to_string()) {
                        positions.push(pos.clone());
                    }
                    let resolved = resolve_text(&pos, token.as_bytes(), SanOptions::STRICT).expect("SAN");
                    pos.play_unchecked(resolved.resolution.outcome.expect("a legal move"));
                }
                if seen.insert(pos.to_string()) {
                    positions.push(pos);
                }
            }
        }
        assert_eq!(lines, 3_397 + 3_807);
        positions
    }

    /// The positions (`epd` lines) of a perft suite, read in Chess960 mode (X-FEN).
    fn perft_positions(path: &str) -> Vec<Position> {
        read(path)
            .lines()
            .filter_map(|line| line.strip_prefix("epd "))
            .map(|fen| {
                let parsed = Fen::parse(fen, CastlingMode::Chess960).unwrap_or_else(|e| panic!("{fen}: {e}"));
                Position::from_setup_lenient(parsed.setup, CastlingMode::Chess960)
                    .unwrap_or_else(|e| panic!("{fen}: {e}"))
            })
            .collect()
    }

    #[test]
    fn opening_books_against_the_resolver() {
        let positions = opening_positions();
        let tally = check_all(&positions, 0);
        assert_eq!(
            tally,
            Tally {
                positions: 8461,
                moves: 276035,
                checks: 3833,
                mates: 3,
                canonical: 276035,
                non_canonical: 1897839,
                not_found: 97919
            }
        );
    }

    #[test]
    fn random_perft_positions_against_the_resolver() {
        let positions = perft_positions("perft/standard/random.perft");
        // every variation in a third of them: the resolver is slow on SAN that names no move
        let tally = check_all(&positions, 3);
        assert_eq!(
            tally,
            Tally {
                positions: 6838,
                moves: 178742,
                checks: 11875,
                mates: 138,
                canonical: 178742,
                non_canonical: 1221642,
                not_found: 2042224
            }
        );
    }

    #[test]
    fn chess960_perft_positions_against_the_resolver() {
        let positions = perft_positions("perft/chess960/chess960.perft");
        let tally = check_all(&positions, 1);
        assert_eq!(
            tally,
            Tally {
                positions: 960,
                moves: 25943,
                checks: 355,
                mates: 4,
                canonical: 25943,
                non_canonical: 177083,
                not_found: 804899
            }
        );
    }

    // ---- hand-written cases ---------------------------------------------------------------------------

    /// A readable answer: `Canonical e2e4`, `NonCanonical g1f3`, `NotFound`.
    fn answer(pos: &Position, text: &str) -> String {
        match find(pos, &san(text)) {
            Quick::Canonical(m) => format!("Canonical {}", m.to_uci(pos.castling_mode())),
            Quick::NonCanonical(m) => format!("NonCanonical {}", m.to_uci(pos.castling_mode())),
            Quick::NotFound => "NotFound".to_owned(),
        }
    }

    /// SAN as written and [`answer`]'s answer.
    type Cases<'a> = &'a [(&'a str, &'a str)];

    #[test]
    fn table() {
        let standard = CastlingMode::Standard;
        let chess960 = CastlingMode::Chess960;
        let table: &[(&str, CastlingMode, Cases)] = &[
            // san_render.tsv: the knight on d5 is pinned by the rook on a5, so Ne3 needs no file
            (
                "8/8/8/R2nkn2/8/8/2K5/8 b - - 0 1",
                standard,
                &[
                    ("Ne3", "Canonical f5e3"),
                    ("Nfe3", "NonCanonical f5e3"),
                    ("N5e3", "NonCanonical f5e3"),
                    ("Nde3", "NotFound"),
                ],
            ),
            // two knights that both reach e2: the file is needed
            (
                "4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1",
                standard,
                &[
                    ("Ne2", "NotFound"),
                    ("Nge2", "Canonical g1e2"),
                    ("Nce2", "Canonical c3e2"),
                    ("N1e2", "NonCanonical g1e2"),
                ],
            ),
            // bxc6 en passant would leave the king on a5 to the rook on h5
            ("8/8/8/KPp4r/8/8/8/7k w - c6 0 2", standard, &[("bxc6", "NotFound"), ("b6", "Canonical b5b6")]),
            ("8/8/8/1Pp4r/8/8/8/K6k w - c6 0 2", standard, &[("bxc6", "Canonical b5c6"), ("bc6", "NonCanonical b5c6")]),
            // the pawn that just moved gives check: taking it en passant answers the check
            (
                "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
                standard,
                &[
                    ("exd3", "Canonical e4d3"),
                    ("e3", "NotFound"),
                    ("Kd5", "Canonical c5d5"),
                    ("Kxd4", "Canonical c5d4"),
                ],
            ),
            // double check from the rook on a1 and the knight on d3: only the king moves
            (
                "4k3/8/8/5B2/8/3n4/8/r3K3 w - - 0 1",
                standard,
                &[
                    ("Bxd3", "NotFound"),
                    ("Kd2", "Canonical e1d2"),
                    ("Ke2", "Canonical e1e2"),
                    ("Kf2", "NotFound"),
                    ("Kf1", "NotFound"),
                ],
            ),
            // Chess960: the king stays on g1 when castling short; Kg1 is for the resolver
            (
                "4k3/8/8/8/8/8/8/6KR w H - 0 1",
                chess960,
                &[("O-O", "Canonical g1h1"), ("O-O-O", "NotFound"), ("Kg1", "NotFound"), ("Kf1", "Canonical g1f1")],
            ),
            // Chess960: the rook stands on the king's destination
            ("4k3/8/8/8/8/8/8/1K4R1 w G - 0 1", chess960, &[("O-O", "Canonical b1g1"), ("Kc1", "Canonical b1c1")]),
            // Chess960: the king's ordinary move to g1 is Kg1, castling is O-O
            ("4k3/8/8/8/8/8/8/5K1R w H - 0 1", chess960, &[("O-O", "Canonical f1h1"), ("Kg1", "Canonical f1g1")]),
            // an enemy rook on a1 behind the castling rook on b1 attacks c1 once the rook has moved
            ("4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", chess960, &[("O-O-O", "NotFound")]),
            // standard castling through an attacked square, and promotions
            ("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", standard, &[("O-O", "NotFound"), ("O-O-O", "Canonical e1c1")]),
            (
                "1r2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1",
                standard,
                &[
                    ("c8=Q+", "Canonical c7c8q"),
                    ("axb8=N", "Canonical a7b8n"),
                    ("a8=R", "Canonical a7a8r"),
                    ("a8", "NotFound"),
                    ("axb8", "NotFound"),
                ],
            ),
            // a pawn capture needs its file; a push is never written with one
            (
                "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
                standard,
                &[
                    ("exd5", "Canonical e4d5"),
                    ("d5", "NotFound"),
                    ("e5", "Canonical e4e5"),
                    ("ee5", "NonCanonical e4e5"),
                    ("exe5", "NonCanonical e4e5"),
                ],
            ),
        ];
        for (fen, mode, cases) in table {
            let pos = Position::from_fen(fen, *mode).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let answers: Vec<(&str, String)> = cases.iter().map(|(text, _)| (*text, answer(&pos, text))).collect();
            let want: Vec<(&str, String)> = cases.iter().map(|(text, want)| (*text, want.to_string())).collect();
            assert_eq!(answers, want, "{fen}");
            for (text, _) in *cases {
                assert_eq!(find(&pos, &san(text)), expected(&pos, san(text)), "{fen}: {text}");
            }
        }
    }

    #[test]
    fn castling_as_a_king_move_is_left_to_the_resolver() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/6KR w H - 0 1", CastlingMode::Chess960).unwrap();
        let resolution = resolve(&pos, &SanPlus::new(san("Kg1")));
        assert_eq!(resolution.outcome, Ok(Move::Castle { king: Square::G1, rook: Square::H1 }));
        assert_eq!(resolution.lints, [MoveLint::CastlingAsKingMove]);
        assert_eq!(find(&pos, &san("Kg1")), Quick::NotFound);
    }

    #[test]
    fn check_marks() {
        let table: &[(&str, &str, Option<Suffix>)] = &[
            // Scholar's mate
            ("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "Qxf7", Some(Suffix::Checkmate)),
            ("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "Bxf7", Some(Suffix::Check)),
            ("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "Qh5", None),
            // d7-d5 checks the king on e4 and only exd6 en passant answers it... or the king moves
            ("8/3p4/8/4P3/4K3/8/8/7k b - - 0 1", "d5", Some(Suffix::Check)),
            // a smothered mate: the knight checks, nothing can take it
            ("6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", "Nf7", Some(Suffix::Checkmate)),
            // a back-rank mate, and a back-rank check the bishop can block on c8
            ("6k1/5ppp/8/8/8/8/1b6/R5K1 w - - 0 1", "Ra8", Some(Suffix::Checkmate)),
            ("6k1/5ppp/4b3/8/8/8/8/R5K1 w - - 0 1", "Ra8", Some(Suffix::Check)),
        ];
        for (fen, text, want) in table {
            let pos: Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
            let Quick::Canonical(m) = find(&pos, &san(text)) else { panic!("{fen}: {text}") };
            let mut after = pos.clone();
            after.play_unchecked(m);
            assert_eq!(suffix_after(&after), *want, "{fen}: {text}");
            assert_eq!(notation::suffix(&pos, m), *want, "{fen}: {text}");
        }
    }
}
