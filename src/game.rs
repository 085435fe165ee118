//! The end of a game: checkmate, stalemate and insufficient material from the
//! position alone ([`Position::outcome`]), and a [`Game`] that keeps the move
//! history for the rules that need it (repetition, the fifty- and
//! seventy-five-move rules), with undo and redo.
//!
//! ```
//! use sanfen::{Move, Position, Role, Square};
//! use sanfen::game::{Claim, EndReason, Game, Outcome};
//!
//! let knight = |from, to| Move::Normal { role: Role::Knight, from, capture: None, to, promotion: None };
//! let mut game = Game::default();
//! // Nf3 Nf6 Ng1 Ng8, twice: the start position for the third time
//! for _ in 0..2 {
//!     for m in [knight(Square::G1, Square::F3), knight(Square::G8, Square::F6),
//!               knight(Square::F3, Square::G1), knight(Square::F6, Square::G8)] {
//!         game.play(m).unwrap();
//!     }
//! }
//! assert_eq!(game.repetitions(), 3);
//! assert_eq!(game.claimable(), Some(Claim::ThreefoldRepetition));
//! assert_eq!(game.end(), None);
//!
//! // the position alone: fool's mate
//! let fen: sanfen::Fen = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3".parse().unwrap();
//! let mated = Position::from_setup(fen.setup, fen.castling_mode).unwrap();
//! assert!(mated.is_checkmate());
//! assert_eq!(mated.outcome(), Some(Outcome::Decisive { winner: sanfen::Color::Black }));
//! let game = Game::new(mated);
//! assert_eq!(game.end().map(|end| end.reason), Some(EndReason::Checkmate));
//! assert_eq!(game.end().unwrap().to_string(), "checkmate: 0-1");
//! ```

use crate::{Bitboard, Color, File, IllegalMoveError, Move, Position, Rank, Role, Square};

/// How a finished game ended for the players: a win for one side or a draw.
/// Written as in PGN: `1-0`, `0-1`, `1/2-1/2`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Decisive {
        /// The side that won.
        winner: Color,
    },
    /// Neither side won.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner } => Some(winner),
            Outcome::Draw => None,
        }
    }

    /// The PGN result text: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Decisive { winner: Color::White } => "1-0",
            Outcome::Decisive { winner: Color::Black } => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// The outcome of a PGN result text (`1-0`, `0-1`, `1/2-1/2`).
    pub fn from_ascii(text: &[u8]) -> Option<Outcome> {
        match text {
            b"1-0" => Some(Outcome::Decisive { winner: Color::White }),
            b"0-1" => Some(Outcome::Decisive { winner: Color::Black }),
            b"1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }
}

impl core::fmt::Display for Outcome {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The text is not a game result (`1-0`, `0-1` or `1/2-1/2`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseOutcomeError;

impl core::fmt::Display for ParseOutcomeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("invalid result: expected 1-0, 0-1 or 1/2-1/2")
    }
}

impl std::error::Error for ParseOutcomeError {}

impl core::str::FromStr for Outcome {
    type Err = ParseOutcomeError;

    fn from_str(s: &str) -> Result<Outcome, ParseOutcomeError> {
        Outcome::from_ascii(s.as_bytes()).ok_or(ParseOutcomeError)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Outcome {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Outcome, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Why a game is over without anyone claiming anything.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "kebab-case"))]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// Neither side can mate by any series of legal moves, in the FIDE cases
    /// [`Position::is_insufficient_material`] knows.
    InsufficientMaterial,
    /// The same position for the fifth time.
    FivefoldRepetition,
    /// 75 moves each (150 plies) without a capture or a pawn move.
    SeventyFiveMoveRule,
}

impl EndReason {
    /// The reason in words, lowercase.
    pub const fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::FivefoldRepetition => "fivefold repetition",
            EndReason::SeventyFiveMoveRule => "seventy-five-move rule",
        }
    }
}

impl core::fmt::Display for EndReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game over: why, and the result. Displayed as `checkmate: 1-0`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameEnd {
    /// Why the game is over.
    pub reason: EndReason,
    /// The result.
    pub result: Outcome,
}

impl core::fmt::Display for GameEnd {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}: {}", self.reason, self.result)
    }
}

/// A draw the side to move may claim (FIDE 9.2 and 9.3); the game goes on
/// unless someone does.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "kebab-case"))]
pub enum Claim {
    /// The same position for the third (or fourth) time.
    ThreefoldRepetition,
    /// 50 moves each (100 plies) without a capture or a pawn move.
    FiftyMoveRule,
}

impl Claim {
    /// The claim in words, lowercase.
    pub const fn as_str(self) -> &'static str {
        match self {
            Claim::ThreefoldRepetition => "threefold repetition",
            Claim::FiftyMoveRule => "fifty-move rule",
        }
    }
}

impl core::fmt::Display for Claim {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Plies without a capture or pawn move after which a draw may be claimed.
const FIFTY_MOVES: u32 = 100;
/// Plies without a capture or pawn move after which the game is drawn.
const SEVENTY_FIVE_MOVES: u32 = 150;

impl Position {
    /// Whether the side to move is checkmated: in check, with no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move is stalemated: not in check, with no legal move.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// Whether the material left is one of the FIDE dead positions that need no
    /// search: king against king; king and one knight or one bishop against a
    /// lone king; kings and any number of bishops, of either side, all on
    /// squares of one colour. Blocked pawn chains and other dead positions that
    /// need looking ahead are not recognised.
    pub fn is_insufficient_material(&self) -> bool {
        let board = self.board();
        if (board.by_role(Role::Pawn) | board.by_role(Role::Rook) | board.by_role(Role::Queen)).any() {
            return false;
        }
        let knights = board.by_role(Role::Knight);
        let bishops = board.by_role(Role::Bishop);
        if knights.any() {
            // one knight against a lone king; any second minor piece can help mate
            return !knights.more_than_one() && bishops.is_empty();
        }
        // bishops on one square colour never attack the other colour, so no mate
        !(bishops & Bitboard::LIGHT_SQUARES).any() || !(bishops & Bitboard::DARK_SQUARES).any()
    }

    /// How the game ends in this position by the rules that need neither the
    /// history nor the clocks: checkmate, stalemate, insufficient material.
    /// See [`Game::end`] for repetition and the seventy-five-move rule.
    pub fn outcome(&self) -> Option<Outcome> {
        self.end_by_position().map(|end| end.result)
    }

    /// [`Position::outcome`] with its reason. Checkmate first: a mating move
    /// wins even when it also leaves insufficient material.
    pub(crate) fn end_by_position(&self) -> Option<GameEnd> {
        if !self.has_legal_moves() {
            return Some(if self.is_check() {
                GameEnd { reason: EndReason::Checkmate, result: Outcome::Decisive { winner: !self.turn() } }
            } else {
                GameEnd { reason: EndReason::Stalemate, result: Outcome::Draw }
            });
        }
        self.is_insufficient_material()
            .then_some(GameEnd { reason: EndReason::InsufficientMaterial, result: Outcome::Draw })
    }
}

/// Whether two positions are the same for the repetition rules (FIDE 9.2.3):
/// the same pieces on the same squares, the same side to move, the same
/// castling rights, and the same possible en passant capture (an en passant
/// square no pawn can legally capture on does not count).
fn same_position(a: &Position, b: &Position) -> bool {
    a.turn() == b.turn()
        && a.castling_rights() == b.castling_rights()
        && a.board() == b.board()
        && a.legal_ep_square() == b.legal_ep_square()
}

/// [`Game::end`] of the game at `position`, which has occurred
/// `repetitions()` times (asked only when the position alone does not end
/// the game).
fn end_of(position: &Position, repetitions: impl FnOnce() -> usize) -> Option<GameEnd> {
    if let Some(end) = position.end_by_position() {
        return Some(end);
    }
    if repetitions() >= 5 {
        return Some(GameEnd { reason: EndReason::FivefoldRepetition, result: Outcome::Draw });
    }
    if position.halfmoves() >= SEVENTY_FIVE_MOVES {
        return Some(GameEnd { reason: EndReason::SeventyFiveMoveRule, result: Outcome::Draw });
    }
    None
}

/// [`Game::end`] after `moves`, known to be legal, are played from `start`
/// (a game's mainline that was read and checked), without keeping the
/// history ([`Reversible`]).
pub(crate) fn end_of_legal_line(start: &Position, moves: impl Iterator<Item = Move>) -> Option<GameEnd> {
    let mut position = start.clone();
    let mut reversible = Reversible::default();
    reversible.start(start);
    for m in moves {
        position.play_unchecked(m);
        reversible.push(m, &position);
    }
    reversible.end()
}

/// The positions of a game since its last capture or pawn move (the
/// position after it first, or the game's start): the only ones that can
/// repeat the last, and all [`Game::end`] needs of the game. Kept while
/// there are at most [`Reversible::KEPT`]; past that, the moves from the
/// first are kept instead (a few bytes each, where a position takes a
/// hundred), and played again once when the end is asked: a game of a
/// million knight moves kept hundreds of megabytes of positions.
#[derive(Clone, Debug, Default)]
pub(crate) struct Reversible {
    /// The positions, the first first; only the first past `KEPT`.
    positions: Vec<Position>,
    /// The moves from the first position.
    moves: Vec<Move>,
    /// The last position, when `positions` does not hold it.
    last: Option<Position>,
}

impl Reversible {
    /// The most positions kept (a few in unit tests, so that random lines
    /// of a hundred plies go past it).
    const KEPT: usize = if cfg!(test) { 8 } else { 256 };

    /// Starts again at `position`: a game's start, or the position after a
    /// capture or pawn move.
    pub(crate) fn start(&mut self, position: &Position) {
        self.clear();
        self.positions.push(position.clone());
    }

    /// No position: [`Reversible::end`] is then `None`.
    pub(crate) fn clear(&mut self) {
        self.positions.clear();
        self.moves.clear();
        self.last = None;
    }

    /// `m`, legal, was played to `after`.
    #[inline]
    pub(crate) fn push(&mut self, m: Move, after: &Position) {
        if m.is_zeroing() {
            return self.start(after);
        }
        self.moves.push(m);
        if self.moves.len() < Self::KEPT {
            self.positions.push(after.clone());
        } else {
            self.positions.truncate(1);
            self.last = Some(after.clone());
        }
    }

    /// [`Game::end`] at the last position; `None` when there is none.
    pub(crate) fn end(&self) -> Option<GameEnd> {
        let first = self.positions.first()?;
        let Some(last) = &self.last else {
            return end_of_reversible(&self.positions);
        };
        end_of(last, || {
            // the positions before `last` with its side to move: an even
            // number of plies before it
            let mut position = first.clone();
            let mut count = 1;
            for (plies_before, &m) in (1..=self.moves.len()).rev().zip(&self.moves) {
                if plies_before.is_multiple_of(2) && same_position(&position, last) {
                    count += 1;
                }
                position.play_unchecked(m);
            }
            count
        })
    }
}

/// [`Game::end`] at the last of `positions`, a game's positions since its
/// last capture or pawn move (the position after it first), or since its
/// start; `None` when there are none.
fn end_of_reversible(positions: &[Position]) -> Option<GameEnd> {
    let (last, before) = positions.split_last()?;
    end_of(last, || {
        // the same side to move: every second position back
        let same = before.iter().rev().skip(1).step_by(2);
        1 + same.filter(|before| same_position(before, last)).count()
    })
}

/// A game: the position it started from, the moves played and the positions
/// they led to, with undo and redo. It answers whether the game is over
/// ([`Game::end`]) and which draw the side to move may claim ([`Game::claimable`]).
///
/// The game does not stop itself: moves can still be played after the game
/// is over (a PGN may go on after a fivefold repetition), and [`Game::end`]
/// always judges the current position.
///
/// The game keeps its moves, the position reached, and every 32nd
/// position: a few bytes a move, where a position
/// takes a couple of hundred (a game of two million plies, which a PGN game
/// of 8 MiB can be, held 450 MB of positions). Earlier positions are
/// played again when asked for ([`Game::position_at`], [`Game::positions`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `kept[k]` is the position after `k * KEPT_EVERY` moves (`kept[0]` the
    /// initial one): `moves.len() / KEPT_EVERY + 1` of them.
    kept: Vec<Position>,
    /// The position after the last move.
    current: Position,
    moves: Vec<Move>,
    /// Undone moves, the next to redo last.
    redo: Vec<Move>,
}

impl Default for Game {
    /// A game from the standard starting position.
    fn default() -> Game {
        Game::new(Position::default())
    }
}

impl From<Position> for Game {
    fn from(position: Position) -> Game {
        Game::new(position)
    }
}

impl Game {
    /// How often a position is kept: every this many moves (a few in unit
    /// tests, so that their short games go past it).
    const KEPT_EVERY: usize = if cfg!(test) { 4 } else { 32 };

    /// A game starting from `initial`, with no move played.
    pub fn new(initial: Position) -> Game {
        Game { kept: vec![initial.clone()], current: initial, moves: Vec::new(), redo: Vec::new() }
    }

    /// The position the game started from.
    pub fn initial(&self) -> &Position {
        &self.kept[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The moves played, first to last.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position after the first `ply` moves (the initial one for 0), or
    /// `None` past the moves played. It is played again from the last
    /// position kept before it: fewer than 32 moves.
    ///
    /// ```
    /// use sanfen::{Game, Position};
    ///
    /// let mut game = Game::default();
    /// let first = game.position().legal_moves()[0];
    /// game.play(first).unwrap();
    /// assert_eq!(game.position_at(0).as_ref(), Some(game.initial()));
    /// assert_eq!(game.position_at(1).as_ref(), Some(game.position()));
    /// assert_eq!(game.position_at(2), None);
    /// ```
    pub fn position_at(&self, ply: usize) -> Option<Position> {
        if ply > self.moves.len() {
            return None;
        }
        let from = ply / Self::KEPT_EVERY * Self::KEPT_EVERY;
        let mut position = self.kept[from / Self::KEPT_EVERY].clone();
        for &m in &self.moves[from..ply] {
            // the moves were legal where they were played
            position.play_unchecked(m);
        }
        Some(position)
    }

    /// The last move played and the position it was played in, or `None`
    /// at the initial position.
    ///
    /// ```
    /// use sanfen::{Game, Position};
    ///
    /// let mut game = Game::default();
    /// assert_eq!(game.last_move(), None);
    /// let first = game.position().legal_moves()[0];
    /// game.play(first).unwrap();
    /// assert_eq!(game.last_move(), Some((Position::default(), first)));
    /// ```
    pub fn last_move(&self) -> Option<(Position, Move)> {
        let ply = self.moves.len().checked_sub(1)?;
        Some((self.position_at(ply)?, self.moves[ply]))
    }

    /// Every position of the game, played again from the initial one: the
    /// initial one first, then the position after each move (so one more
    /// than [`Game::moves`]). Zipped with [`Game::moves`], each move with
    /// the position it was played in.
    ///
    /// ```
    /// use sanfen::{Game, Position};
    ///
    /// let mut game = Game::default();
    /// for _ in 0..3 {
    ///     let first = game.position().legal_moves()[0];
    ///     game.play(first).unwrap();
    /// }
    /// let positions: Vec<Position> = game.positions().collect();
    /// assert_eq!(positions.len(), 4);
    /// assert_eq!((&positions[0], &positions[3]), (game.initial(), game.position()));
    /// ```
    pub fn positions(&self) -> Positions<'_> {
        Positions { next: Some(self.initial().clone()), moves: self.moves.iter() }
    }

    /// The moves [`Game::redo`] would play again, the next one first.
    pub fn redo_moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.redo.iter().rev().copied()
    }

    /// Plays a move and clears the redo stack.
    ///
    /// # Errors
    ///
    /// [`IllegalMoveError`] when the move is not legal in the current position;
    /// the game is then unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        let next = self.position().play(m)?;
        self.push(m, next);
        self.redo.clear();
        Ok(())
    }

    /// Reserves room for at least `additional` more moves (and the
    /// positions they lead to), as [`Vec::reserve`] does: a game of many
    /// moves known in advance is then made without its vectors doubling.
    pub fn reserve(&mut self, additional: usize) {
        self.moves.reserve(additional);
        self.kept.reserve(additional / Self::KEPT_EVERY + 1);
    }

    /// Plays a legal move without checking it, and clears the redo stack.
    /// The move must be legal in the current position (one of its
    /// [`Position::legal_moves`], as [`crate::play::play`] finds them);
    /// anything else leaves the game in an unspecified (but memory-safe)
    /// state.
    ///
    /// ```
    /// use sanfen::{Game, Position};
    ///
    /// let mut game = Game::default();
    /// game.reserve(2);
    /// let [first, second] = [0, 1].map(|i| game.position().legal_moves()[i]);
    /// game.play_unchecked(first);
    /// game.undo();
    /// game.play_unchecked(second);
    /// assert_eq!(game.moves(), [second]);
    /// assert_eq!(game.position(), &Position::default().play(second).unwrap());
    /// assert_eq!(game.redo_moves().len(), 0);
    /// ```
    pub fn play_unchecked(&mut self, m: Move) {
        self.push_unchecked(m);
        self.redo.clear();
    }

    fn push(&mut self, m: Move, next: Position) {
        self.moves.push(m);
        self.current = next;
        self.keep();
    }

    /// Plays `m`, legal in the current position.
    fn push_unchecked(&mut self, m: Move) {
        self.moves.push(m);
        self.current.play_unchecked(m);
        self.keep();
    }

    /// Keeps the current position when its ply is a multiple of
    /// `KEPT_EVERY`.
    fn keep(&mut self) {
        if self.moves.len().is_multiple_of(Self::KEPT_EVERY) {
            self.kept.push(self.current.clone());
        }
    }

    /// Takes back the last move and returns it, or `None` at the initial
    /// position. The move can be played again with [`Game::redo`].
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        let ply = self.moves.len();
        self.kept.truncate(ply / Self::KEPT_EVERY + 1);
        self.current = self.position_at(ply).expect("the ply of a move played");
        self.redo.push(m);
        Some(m)
    }

    /// Plays the last undone move again and returns it, or `None` when there
    /// is nothing to redo (no undo since the last [`Game::play`]).
    pub fn redo(&mut self) -> Option<Move> {
        let m = self.redo.pop()?;
        // the move was legal here when it was undone, and the position is the same
        self.push_unchecked(m);
        Some(m)
    }

    /// How many times the current position has occurred in the game, this time
    /// included (so at least 1), comparing positions as FIDE 9.2.3 does:
    /// placement, side to move, castling rights and a *capturable* en passant
    /// square. Positions before the initial one are not known and not counted.
    pub fn repetitions(&self) -> usize {
        let current = self.position();
        let ply = self.moves.len();
        // Only positions since the last capture or pawn move can repeat the
        // current one (both are irreversible): played again from there, those
        // with the same side to move (an even number of plies before it).
        let since = self.moves.iter().rposition(|m| m.is_zeroing()).map_or(0, |last| last + 1);
        if ply - since < 2 {
            return 1;
        }
        let mut position = self.position_at(since).expect("the ply of a move played");
        let mut count = 1;
        for (before, &m) in (since..ply).map(|i| ply - i).zip(&self.moves[since..]) {
            if before.is_multiple_of(2) && same_position(&position, current) {
                count += 1;
            }
            position.play_unchecked(m);
        }
        count
    }

    /// Whether the game is over, and how: checkmate, stalemate, insufficient
    /// material, fivefold repetition or the seventy-five-move rule (150 plies
    /// without a capture or a pawn move, counted by the position's halfmove
    /// clock, so plies before the initial position count too). Checkmate comes
    /// first: a mate on the 150th ply wins (FIDE 9.6.2).
    pub fn end(&self) -> Option<GameEnd> {
        end_of(self.position(), || self.repetitions())
    }

    /// A draw the side to move may claim in the current position: threefold
    /// repetition (checked first), or the fifty-move rule (a halfmove clock of
    /// at least 100). `None` when the game is already over ([`Game::end`]).
    /// Claims announced together with a move that would bring them about
    /// are not covered: play the move, then ask.
    pub fn claimable(&self) -> Option<Claim> {
        if self.end().is_some() {
            return None;
        }
        if self.repetitions() >= 3 {
            Some(Claim::ThreefoldRepetition)
        } else if self.position().halfmoves() >= FIFTY_MOVES {
            Some(Claim::FiftyMoveRule)
        } else {
            None
        }
    }
}

/// The positions of a [`Game`], played again from its initial one
/// ([`Game::positions`]).
#[derive(Clone, Debug)]
pub struct Positions<'a> {
    /// The position to give next.
    next: Option<Position>,
    /// The moves after it.
    moves: core::slice::Iter<'a, Move>,
}

impl Iterator for Positions<'_> {
    type Item = Position;

    fn next(&mut self) -> Option<Position> {
        let position = self.next.take()?;
        if let Some(&m) = self.moves.next() {
            let mut after = position.clone();
            // the moves were legal where they were played
            after.play_unchecked(m);
            self.next = Some(after);
        }
        Some(position)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.len();
        (len, Some(len))
    }
}

impl ExactSizeIterator for Positions<'_> {
    fn len(&self) -> usize {
        usize::from(self.next.is_some()) + self.moves.len()
    }
}

impl core::iter::FusedIterator for Positions<'_> {}

/// Bytes per move in the binary move log ([`Game::move_log`]): four
/// little-endian 32-bit integers.
pub const MOVE_LOG_RECORD: usize = 16;

/// A binary move log ([`Game::from_move_log`]) that cannot be replayed: what
/// is wrong and where. Moves are counted from 1; byte offsets from 0.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveLogError {
    /// The log does not hold a whole number of 16-byte moves.
    Length {
        /// The log's length in bytes.
        len: usize,
    },
    /// A rank or file outside 0 to 7.
    Coordinate {
        /// The move it is in.
        move_number: usize,
        /// Where the integer starts in the log.
        offset: usize,
        /// The integer read.
        value: i32,
    },
    /// No legal move goes from `from` to `to` in the position reached.
    Illegal {
        /// The move it is.
        move_number: usize,
        /// The origin square read.
        from: Square,
        /// The destination square read.
        to: Square,
    },
    /// More than one legal move goes from `from` to `to` (in Chess960, a
    /// king move and castling can): the log cannot say which.
    Ambiguous {
        /// The move it is.
        move_number: usize,
        /// The origin square read.
        from: Square,
        /// The destination square read.
        to: Square,
    },
}

impl core::fmt::Display for MoveLogError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            MoveLogError::Length { len } => write!(
                f,
                "binary move log: {len} bytes is not a whole number of moves ({MOVE_LOG_RECORD} bytes each); \
                 the last {} bytes are a move cut short",
                len % MOVE_LOG_RECORD
            ),
            MoveLogError::Coordinate { move_number, offset, value } => {
                write!(f, "binary move log, move {move_number} (byte {offset}): {value} is no rank or file (0 to 7)")
            }
            MoveLogError::Illegal { move_number, from, to } => {
                let start = (move_number - 1) * MOVE_LOG_RECORD;
                write!(f, "binary move log, move {move_number} (byte {start}): no legal move from {from} to {to}")
            }
            MoveLogError::Ambiguous { move_number, from, to } => {
                let start = (move_number - 1) * MOVE_LOG_RECORD;
                write!(
                    f,
                    "binary move log, move {move_number} (byte {start}): more than one legal move from {from} to {to}"
                )
            }
        }
    }
}

impl std::error::Error for MoveLogError {}

impl Game {
    /// The moves as a binary move log: per move four little-endian
    /// 32-bit integers, from-rank, from-file, to-rank, to-file, each 0 to 7
    /// counted from a1 (so `e2e4` is `1, 4, 3, 4`). Castling is the king's
    /// move (`O-O` is `e1g1`, also in Chess960). The format has no room for a
    /// promotion piece: a promotion is written as the pawn's move, and
    /// [`Game::from_move_log`] reads it back as a queen.
    ///
    /// ```
    /// use sanfen::{Game, Move, Role, Square};
    ///
    /// let mut game = Game::default();
    /// game.play(Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None })
    ///     .unwrap();
    /// let log = game.move_log();
    /// assert_eq!(log, [1, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]);
    /// assert_eq!(Game::from_move_log(Default::default(), &log), Ok(game));
    /// ```
    pub fn move_log(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(MOVE_LOG_RECORD * self.moves.len());
        for m in &self.moves {
            // `Move::to` is the king's destination for castling
            let (from, to) = (m.from(), m.to());
            for index in [from.rank().index(), from.file().index(), to.rank().index(), to.file().index()] {
                // a rank or file index is 0 to 7
                out.extend_from_slice(&(index as u32).to_le_bytes());
            }
        }
        out
    }

    /// Replays a binary move log ([`Game::move_log`]) from `initial`. Each
    /// move is the legal move from the origin to the destination read; a
    /// pawn reaching the last rank is promoted to a queen (the log has no
    /// promotion piece).
    ///
    /// # Errors
    ///
    /// [`MoveLogError`] for the first problem: a length that is not a whole
    /// number of moves, a rank or file outside 0 to 7, no legal move (or more
    /// than one) between the squares read.
    pub fn from_move_log(initial: Position, log: &[u8]) -> Result<Game, MoveLogError> {
        if !log.len().is_multiple_of(MOVE_LOG_RECORD) {
            return Err(MoveLogError::Length { len: log.len() });
        }
        let mut game = Game::new(initial);
        for (index, record) in log.chunks_exact(MOVE_LOG_RECORD).enumerate() {
            let move_number = index + 1;
            let mut coords = [0u8; 4];
            for (i, (coord, bytes)) in coords.iter_mut().zip(record.chunks_exact(4)).enumerate() {
                let value = i32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                *coord = u8::try_from(value).ok().filter(|&v| v < 8).ok_or(MoveLogError::Coordinate {
                    move_number,
                    offset: index * MOVE_LOG_RECORD + 4 * i,
                    value,
                })?;
            }
            let square = |rank: u8, file: u8| Square::from_coords(File::ALL[file as usize], Rank::ALL[rank as usize]);
            let (from, to) = (square(coords[0], coords[1]), square(coords[2], coords[3]));
            let mut found = None;
            for m in game.position().legal_moves() {
                if m.from() != from || m.to() != to || m.promotion().is_some_and(|role| role != Role::Queen) {
                    continue;
                }
                if found.is_some() {
                    return Err(MoveLogError::Ambiguous { move_number, from, to });
                }
                found = Some(m);
            }
            let m = found.ok_or(MoveLogError::Illegal { move_number, from, to })?;
            // a legal move of the current position
            game.play(m).map_err(|_| MoveLogError::Illegal { move_number, from, to })?;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    fn position(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    fn normal(role: Role, from: Square, to: Square) -> Move {
        Move::Normal { role, from, capture: None, to, promotion: None }
    }

    #[test]
    fn outcome_text() {
        let table = [
            (Outcome::Decisive { winner: Color::White }, "1-0"),
            (Outcome::Decisive { winner: Color::Black }, "0-1"),
            (Outcome::Draw, "1/2-1/2"),
        ];
        for (outcome, text) in table {
            assert_eq!(outcome.to_string(), text);
            assert_eq!(text.parse::<Outcome>(), Ok(outcome));
        }
        for bad in ["", "*", "1/2", "½-½", "1-0 ", "2-0"] {
            assert_eq!(bad.parse::<Outcome>(), Err(ParseOutcomeError), "{bad}");
        }
        assert_eq!(ParseOutcomeError.to_string(), "invalid result: expected 1-0, 0-1 or 1/2-1/2");
        assert_eq!(Outcome::Decisive { winner: Color::Black }.winner(), Some(Color::Black));
        assert_eq!(Outcome::Draw.winner(), None);
    }

    /// Knight moves of both sides, out and back: the start position again
    /// after every four plies.
    const SHUFFLE: [(Square, Square); 4] =
        [(Square::G1, Square::F3), (Square::G8, Square::F6), (Square::F3, Square::G1), (Square::F6, Square::G8)];

    #[test]
    fn a_line_ends_by_fivefold_repetition() {
        let start = Position::default();
        let mut moves: Vec<Move> = Vec::new();
        let mut ends = Vec::new();
        for _ in 0..4 {
            for (from, to) in SHUFFLE {
                moves.push(normal(Role::Knight, from, to));
                ends.push(end_of_legal_line(&start, moves.iter().copied()));
            }
        }
        let fivefold = Some(GameEnd { reason: EndReason::FivefoldRepetition, result: Outcome::Draw });
        assert_eq!(ends[..15], [None; 15]);
        assert_eq!(ends[15], fivefold);
        // after pawn moves, the position they lead to: four occurrences,
        // then five
        let pawns = [normal(Role::Pawn, Square::A2, Square::A3), normal(Role::Pawn, Square::A7, Square::A6)];
        let line = |plies| moves.iter().copied().take(8).chain(pawns).chain(moves.iter().copied().take(plies));
        assert_eq!(end_of_legal_line(&start, line(12)), None);
        assert_eq!(end_of_legal_line(&start, line(16)), fivefold);
    }

    /// Where the random lines below start: the initial position, and
    /// endings near the seventy-five-move rule or mate.
    const STARTS: [&str; 4] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "8/8/4k3/8/8/3K4/8/6QR w - - 130 90",
        "4k3/8/8/8/8/8/2n5/R3K2R w KQ - 120 80",
        "7k/5Q2/8/8/8/8/8/6K1 w - - 0 1",
    ];

    proptest::proptest! {
        /// The end of a line played without its history is the end of the
        /// game that keeps it, after every move. The lines mostly take one
        /// of the first two legal moves, so that positions repeat.
        #[test]
        fn the_end_of_a_line_is_the_end_of_the_game_that_keeps_its_history(
            start in 0..STARTS.len(),
            choices in proptest::collection::vec((0u8..8, proptest::prelude::any::<u16>()), 0..200),
        ) {
            let start = position(STARTS[start]);
            let mut game = Game::new(start.clone());
            for (narrow, choice) in choices {
                let moves = game.position().legal_moves();
                if moves.is_empty() {
                    break;
                }
                let among = if narrow > 0 { moves.len().min(2) } else { moves.len() };
                game.play(moves[usize::from(choice) % among]).unwrap();
                proptest::prop_assert_eq!(end_of_legal_line(&start, game.moves().iter().copied()), game.end());
            }
        }
    }

    /// How many times the last of `positions` (a game's, with `moves` between
    /// them) occurred: every earlier one with the same side to move and no
    /// capture or pawn move since, compared as [`Game::repetitions`] does.
    fn repetitions_of(positions: &[Position], moves: &[Move]) -> usize {
        let last = positions.last().unwrap();
        let since = moves.iter().rposition(|m| m.is_zeroing()).map_or(0, |z| z + 1);
        let same_side = (since..positions.len()).filter(|&i| (positions.len() - 1 - i).is_multiple_of(2));
        same_side.filter(|&i| same_position(&positions[i], last)).count()
    }

    proptest::proptest! {
        /// A game keeps a position every few moves and plays the others
        /// again: after any mix of moves, undos and redos, every position it
        /// gives, and its repetition count, are those of a game that kept
        /// every position.
        #[test]
        fn the_positions_played_again_are_the_positions_played(
            start in 0..STARTS.len(),
            steps in proptest::collection::vec((0u8..10, proptest::prelude::any::<u16>()), 0..120),
        ) {
            let mut game = Game::new(position(STARTS[start]));
            // the positions and moves of the game, and what redo would play
            let mut positions = vec![game.position().clone()];
            let mut moves: Vec<Move> = Vec::new();
            let mut redo: Vec<Move> = Vec::new();
            for (step, choice) in steps {
                match step {
                    0 | 1 => {
                        let undone = game.undo();
                        proptest::prop_assert_eq!(undone, moves.pop());
                        if let Some(m) = undone {
                            positions.pop();
                            redo.push(m);
                        }
                    }
                    2 => {
                        let redone = game.redo();
                        proptest::prop_assert_eq!(redone, redo.pop());
                        if let Some(m) = redone {
                            positions.push(positions.last().unwrap().play(m).unwrap());
                            moves.push(m);
                        }
                    }
                    _ => {
                        let legal = game.position().legal_moves();
                        if legal.is_empty() {
                            continue;
                        }
                        // mostly one of the first two moves, so that positions repeat
                        let among = if step > 3 { legal.len().min(2) } else { legal.len() };
                        let m = legal[usize::from(choice) % among];
                        game.play(m).unwrap();
                        positions.push(positions.last().unwrap().play(m).unwrap());
                        moves.push(m);
                        redo.clear();
                    }
                }
                proptest::prop_assert_eq!(game.moves(), &moves[..]);
                proptest::prop_assert_eq!(game.position(), positions.last().unwrap());
                proptest::prop_assert_eq!(game.positions().len(), positions.len());
                proptest::prop_assert_eq!(game.positions().collect::<Vec<_>>(), positions.clone());
                for (ply, expected) in positions.iter().enumerate() {
                    proptest::prop_assert_eq!(game.position_at(ply), Some(expected.clone()));
                }
                proptest::prop_assert_eq!(game.position_at(positions.len()), None);
                proptest::prop_assert_eq!(game.repetitions(), repetitions_of(&positions, &moves));
            }
        }
    }

    #[test]
    fn end_and_claim_text() {
        let end = GameEnd { reason: EndReason::SeventyFiveMoveRule, result: Outcome::Draw };
        assert_eq!(end.to_string(), "seventy-five-move rule: 1/2-1/2");
        let end = GameEnd { reason: EndReason::Checkmate, result: Outcome::Decisive { winner: Color::White } };
        assert_eq!(end.to_string(), "checkmate: 1-0");
        assert_eq!(EndReason::InsufficientMaterial.to_string(), "insufficient material");
        assert_eq!(EndReason::FivefoldRepetition.to_string(), "fivefold repetition");
        assert_eq!(EndReason::Stalemate.to_string(), "stalemate");
        assert_eq!(Claim::ThreefoldRepetition.to_string(), "threefold repetition");
        assert_eq!(Claim::FiftyMoveRule.to_string(), "fifty-move rule");
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_through_text() {
        let end = GameEnd { reason: EndReason::Checkmate, result: Outcome::Decisive { winner: Color::Black } };
        let json = serde_json::to_string(&end).unwrap();
        assert_eq!(json, r#"{"reason":"checkmate","result":"0-1"}"#);
        assert_eq!(serde_json::from_str::<GameEnd>(&json).unwrap(), end);
        assert_eq!(serde_json::to_string(&Outcome::Draw).unwrap(), r#""1/2-1/2""#);
        assert!(serde_json::from_str::<Outcome>(r#""*""#).is_err());
        assert_eq!(serde_json::to_string(&Claim::FiftyMoveRule).unwrap(), r#""fifty-move-rule""#);
        assert_eq!(
            serde_json::from_str::<EndReason>(r#""seventy-five-move-rule""#).unwrap(),
            EndReason::SeventyFiveMoveRule
        );
    }

    #[test]
    fn insufficient_material_table() {
        let table = [
            ("8/8/8/8/8/8/8/k6K w - - 0 1", true),
            ("8/8/8/8/8/8/8/kn5K w - - 0 1", true),
            ("8/8/8/8/8/8/8/k5BK w - - 0 1", true),
            // bishops on one colour, however many, on both sides
            ("8/8/8/8/8/8/2b5/k4B1K w - - 0 1", true),
            ("8/8/8/8/8/8/1b6/k5BK w - - 0 1", true),
            ("8/8/8/8/8/8/8/k4B1K w - - 0 1", true),
            ("8/8/8/8/8/8/B1B5/k6K w - - 0 1", true),
            // opposite colours: a mate exists
            ("8/8/8/8/8/8/2b5/k5BK w - - 0 1", false),
            ("8/8/8/8/8/8/B7/k5BK w - - 0 1", false),
            ("8/8/8/8/8/8/8/knb4K w - - 0 1", false),
            ("8/8/8/8/8/8/8/knn4K w - - 0 1", false),
            ("8/8/8/8/8/8/8/kn4NK w - - 0 1", false),
            ("8/8/8/8/8/8/p7/k6K w - - 0 1", false),
            ("8/8/8/8/8/8/7R/k6K w - - 0 1", false),
            ("8/8/8/8/8/8/7Q/k6K w - - 0 1", false),
        ];
        for (fen, expected) in table {
            assert_eq!(position(fen).is_insufficient_material(), expected, "{fen}");
        }
    }

    #[test]
    fn outcome_of_the_position_alone() {
        let table = [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", None),
            ("R3k3/8/4K3/8/8/8/8/8 b - - 0 1", Some(Outcome::Decisive { winner: Color::White })),
            ("4k3/4P3/4K3/8/8/8/8/8 b - - 0 1", Some(Outcome::Draw)),
            ("8/8/8/8/8/8/8/k6K w - - 0 1", Some(Outcome::Draw)),
            // the clocks do not matter here
            ("4k3/8/8/8/8/8/8/R3K3 w - - 150 90", None),
        ];
        for (fen, expected) in table {
            assert_eq!(position(fen).outcome(), expected, "{fen}");
        }
    }

    #[test]
    fn undo_and_redo() {
        let mut game = Game::default();
        let e4 = normal(Role::Pawn, Square::E2, Square::E4);
        let e5 = normal(Role::Pawn, Square::E7, Square::E5);
        assert_eq!(game.undo(), None);
        assert_eq!(game.redo(), None);
        game.play(e4).unwrap();
        game.play(e5).unwrap();
        let after = game.position().clone();
        assert_eq!(game.undo(), Some(e5));
        assert_eq!(game.undo(), Some(e4));
        assert_eq!(game.position(), &Position::default());
        assert_eq!(game.redo_moves().collect::<Vec<_>>(), [e4, e5]);
        assert_eq!(game.redo(), Some(e4));
        assert_eq!(game.redo(), Some(e5));
        assert_eq!(game.position(), &after);
        assert_eq!(game.redo(), None);
        // a new move clears what could be redone
        game.undo();
        game.play(normal(Role::Pawn, Square::D7, Square::D5)).unwrap();
        assert_eq!(game.redo(), None);
        assert_eq!(game.moves().len(), 2);
        assert_eq!(game.positions().len(), 3);
    }

    #[test]
    fn illegal_move_leaves_the_game_alone() {
        let mut game = Game::default();
        game.play(normal(Role::Pawn, Square::E2, Square::E4)).unwrap();
        game.undo();
        let bad = normal(Role::Pawn, Square::E2, Square::E5);
        assert_eq!(game.play(bad), Err(IllegalMoveError { m: bad }));
        assert_eq!(game.moves(), &[]);
        // the redo stack survives a refused move
        assert_eq!(game.redo_moves().len(), 1);
    }
}
