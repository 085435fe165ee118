//! A small chess engine: negamax alpha-beta search with iterative deepening over
//! a material and piece-square evaluation (an opponent to play against).
//!
//! The search orders the previous iteration's principal variation first, then
//! captures and promotions by MVV-LVA (most valuable victim, least valuable
//! attacker), then quiet moves. At the horizon a quiescence search plays
//! captures and promotions (and every evasion when in check) until the
//! position is quiet. Mate scores prefer shorter mates; stalemate and
//! insufficient material score 0. With only a depth limit the search is fully
//! deterministic: it never looks at the clock.
//!
//! A search also stops when a caller's stop flag is raised
//! ([`Engine::search_with_stop`]: an `AtomicBool` the search polls, which
//! another thread or a signal handler may set): it then returns the best move
//! of the last completed iteration, like a search that ran out of time.
//!
//! ```
//! use sanfen::engine::{Limits, Score, search};
//! use sanfen::{CastlingMode, Fen, Position};
//!
//! // Back-rank mate: Ra8#.
//! let fen = Fen::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", CastlingMode::Standard).unwrap();
//! let pos = Position::from_setup(fen.setup, fen.castling_mode).unwrap();
//! let result = search(&pos, Limits::depth(2)).unwrap();
//! assert_eq!(result.score, Score::Mate(1));
//! assert_eq!(result.best.to_uci(CastlingMode::Standard).to_string(), "a1a8");
//!
//! // No legal move, no result.
//! let mated = pos.play(result.best).unwrap();
//! assert!(search(&mated, Limits::depth(2)).is_none());
//! ```

use core::cmp::Reverse;
use core::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::{Color, Move, Piece, Position, Role, Square};

/// The time budget when neither a depth nor a time is given.
pub const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// The deepest iteration the search starts, in plies.
pub const MAX_DEPTH: u32 = 64;

/// The hard limit on the distance from the root, in plies (quiescence included).
const MAX_PLY: usize = 128;

/// The score of being checkmated at the root; mates further away score less.
const MATE: i32 = 32_000;

/// Scores beyond this magnitude are mates.
const MATE_BOUND: i32 = MATE - 1_000;

/// Above every reachable score.
const INFINITY: i32 = MATE + 1;

/// How many nodes pass between two looks at the clock and the stop flag.
const CLOCK_INTERVAL: u64 = 1024;

/// What stops a search: a depth, a time, or both (whichever comes first).
///
/// With neither, the search runs for about [`DEFAULT_TIME`]. With a depth only
/// it never reads the clock and is deterministic.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Limits {
    /// The deepest iteration, in plies (at least 1; capped at [`MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// The time budget. Iteration 1 always completes, so a search returns a
    /// move even with a zero budget.
    pub time: Option<Duration>,
}

impl Limits {
    /// Search exactly `depth` plies (and quiescence beyond), without a clock.
    pub const fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), time: None }
    }

    /// Search as deep as `time` allows.
    pub const fn time(time: Duration) -> Limits {
        Limits { depth: None, time: Some(time) }
    }
}

/// The value of a position for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// An evaluation in centipawns (a pawn is 100); positive is good for the
    /// side to move.
    Centipawns(i32),
    /// A forced mate in this many moves of the side to move: positive when the
    /// side to move mates, negative when it is mated (`Mate(-1)`: whatever it
    /// plays, it is mated next move).
    Mate(i32),
}

impl Score {
    /// The score of an internal value (mates count plies from the root).
    fn from_internal(value: i32) -> Score {
        if value > MATE_BOUND {
            Score::Mate((MATE - value + 1) / 2)
        } else if value < -MATE_BOUND {
            Score::Mate(-(MATE + value) / 2)
        } else {
            Score::Centipawns(value)
        }
    }

    /// Whether the score is a forced mate, for either side.
    pub const fn is_mate(self) -> bool {
        matches!(self, Score::Mate(_))
    }
}

impl fmt::Display for Score {
    /// UCI style: `cp 35`, `mate 2`, `mate -1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Centipawns(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SearchResult {
    /// The move to play.
    pub best: Move,
    /// The value of the position for the side to move.
    pub score: Score,
    /// The depth of the last completed iteration, in plies.
    pub depth: u32,
    /// Nodes visited by all iterations (quiescence included).
    pub nodes: u64,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// Whether the stop flag ended the search before its limits did.
    pub interrupted: bool,
}

/// Search state: node counter, clock and the principal variation of the last
/// iteration. Reusable: every [`Engine::search`] starts afresh.
#[derive(Clone, Debug, Default)]
pub struct Engine {
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// Whether the caller's flag (not the clock) stopped the search.
    interrupted: bool,
    prev_pv: Vec<Move>,
}

/// Searches `pos` with a fresh [`Engine`]. `None` when the side to move has no
/// legal move (checkmate or stalemate).
pub fn search(pos: &Position, limits: Limits) -> Option<SearchResult> {
    Engine::new().search(pos, limits)
}

impl Engine {
    /// A new engine.
    pub fn new() -> Engine {
        Engine::default()
    }

    /// Searches `pos` by iterative deepening until `limits` stop it. `None`
    /// when the side to move has no legal move (checkmate or stalemate).
    pub fn search(&mut self, pos: &Position, limits: Limits) -> Option<SearchResult> {
        self.search_with_stop(pos, limits, &AtomicBool::new(false))
    }

    /// [`Engine::search`] that also stops soon after `stop` becomes true (it
    /// is read every 1,024 nodes and between iterations), with
    /// the best move of the last completed iteration and
    /// [`SearchResult::interrupted`] set. Iteration 1 always completes, so a
    /// position with a legal move always gets one. The flag is only read.
    pub fn search_with_stop(&mut self, pos: &Position, limits: Limits, stop: &AtomicBool) -> Option<SearchResult> {
        if !pos.has_legal_moves() {
            return None;
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let budget = match limits {
            Limits { depth: None, time: None } => Some(DEFAULT_TIME),
            Limits { time, .. } => time,
        };
        let start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.interrupted = false;
        self.prev_pv.clear();
        // iteration 1 runs without a clock, so there is always a move
        self.deadline = None;
        let mut best: Option<SearchResult> = None;
        for depth in 1..=max_depth {
            let mut pv = Vec::new();
            let value = self.negamax(pos, depth, 0, -INFINITY, INFINITY, true, &mut pv, (depth > 1).then_some(stop));
            if self.stopped {
                break;
            }
            let Some(&first) = pv.first() else {
                break;
            };
            best = Some(SearchResult {
                best: first,
                score: Score::from_internal(value),
                depth,
                nodes: 0,
                pv: pv.clone(),
                interrupted: false,
            });
            self.prev_pv = pv;
            // on the clock, stop at a mate found within the horizon: looking
            // deeper cannot change it (with a depth, finish every iteration)
            if limits.depth.is_none() && value.abs() > MATE_BOUND && MATE - value.abs() <= depth as i32 {
                break;
            }
            self.deadline = budget.map(|b| start + b);
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            if depth < max_depth && stop.load(Ordering::Relaxed) {
                self.interrupted = true;
                break;
            }
        }
        let (nodes, interrupted) = (self.nodes, self.interrupted);
        best.map(|result| SearchResult { nodes, interrupted, ..result })
    }

    /// Whether the clock has run out or the stop flag is up (looked at every
    /// [`CLOCK_INTERVAL`] nodes).
    fn out_of_time(&mut self, stop: Option<&AtomicBool>) -> bool {
        if !self.stopped && self.nodes.is_multiple_of(CLOCK_INTERVAL) {
            if stop.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
                self.stopped = true;
                self.interrupted = true;
            } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// The value of `pos` for the side to move, searched `depth` plies deep.
    /// `pv` receives the best line from here; `on_pv` says whether the path
    /// from the root follows the previous iteration's principal variation.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        on_pv: bool,
        pv: &mut Vec<Move>,
        stop: Option<&AtomicBool>,
    ) -> i32 {
        pv.clear();
        if depth == 0 || ply >= MAX_PLY {
            return self.quiescence(pos, ply, alpha, beta, stop);
        }
        self.nodes += 1;
        if self.out_of_time(stop) {
            return 0;
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.is_check() { -MATE + ply as i32 } else { 0 };
        }
        if ply > 0 && pos.is_insufficient_material() {
            return 0;
        }
        let pv_move = if on_pv { self.prev_pv.get(ply).copied() } else { None };
        moves.sort_unstable_by_key(|&m| Reverse(order_key(m, pv_move)));
        let mut best = -INFINITY;
        let mut line = Vec::new();
        for m in moves {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let follows_pv = pv_move == Some(m);
            let value = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, follows_pv, &mut line, stop);
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    pv.clear();
                    pv.push(m);
                    pv.extend_from_slice(&line);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Captures and promotions only (every evasion when in check), until the
    /// position is quiet; the side to move may stand pat when not in check.
    fn quiescence(&mut self, pos: &Position, ply: usize, mut alpha: i32, beta: i32, stop: Option<&AtomicBool>) -> i32 {
        self.nodes += 1;
        if self.out_of_time(stop) {
            return 0;
        }
        let mut moves = pos.legal_moves();
        let in_check = pos.is_check();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if pos.is_insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        let mut best = -INFINITY;
        if !in_check {
            best = evaluate(pos);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            moves.retain(|m| m.is_capture() || m.promotion().is_some());
        }
        moves.sort_unstable_by_key(|&m| Reverse(order_key(m, None)));
        for m in moves {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let value = -self.quiescence(&child, ply + 1, -beta, -alpha, stop);
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// The sort key of a move, highest first: the principal variation's move,
/// then captures and promotions by MVV-LVA, then quiet moves.
fn order_key(m: Move, pv_move: Option<Move>) -> i32 {
    if pv_move == Some(m) {
        return i32::MAX;
    }
    let victim = m.capture().map_or(0, value);
    let promotion = m.promotion().map_or(0, value);
    if victim == 0 && promotion == 0 {
        return 0;
    }
    // the victim dominates; among equal victims, the cheaper attacker first
    10 * (victim + promotion) - value(m.role()) / 10 + 1_000
}

/// The material value of a piece, in centipawns (the king counts 0).
pub const fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 0,
    }
}

/// The static evaluation of `pos` for the side to move: material plus
/// piece-square bonuses, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    let board = pos.board();
    // the king walks to the centre once the queens are off, or little is left
    let heavy = (board.by_role(Role::Queen).count() * 9 + board.by_role(Role::Rook).count() * 5) as i32;
    let minors = (board.by_role(Role::Knight).count() + board.by_role(Role::Bishop).count()) as i32;
    let endgame = board.by_role(Role::Queen).is_empty() || heavy + 3 * minors <= 13;
    let mut score = 0;
    for (sq, piece) in board.pieces() {
        let piece_value = value(piece.role) + square_bonus(piece, sq, endgame);
        score += piece.color.fold(piece_value, -piece_value);
    }
    pos.turn().fold(score, -score)
}

/// The piece-square bonus of `piece` on `sq`, from its own side's view.
fn square_bonus(piece: Piece, sq: Square, endgame: bool) -> i32 {
    // tables are written with rank 8 on top, from White's view
    let own = match piece.color {
        Color::White => sq.flip_vertical(),
        Color::Black => sq,
    };
    let table = match piece.role {
        Role::Pawn => &PAWN,
        Role::Knight => &KNIGHT,
        Role::Bishop => &BISHOP,
        Role::Rook => &ROOK,
        Role::Queen => &QUEEN,
        Role::King if endgame => &KING_END,
        Role::King => &KING,
    };
    i32::from(table[own.index()])
}

#[rustfmt::skip]
const PAWN: [i8; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    60, 60, 60, 60, 60, 60, 60, 60,
    15, 15, 20, 30, 30, 20, 15, 15,
     5,  5, 10, 25, 25, 10,  5,  5,
     0,  0,  5, 20, 20,  5,  0,  0,
     5,  0, -5,  5,  5, -5,  0,  5,
     5, 10, 10,-20,-20, 10, 10,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
];

#[rustfmt::skip]
const KNIGHT: [i8; 64] = [
   -50,-35,-30,-30,-30,-30,-35,-50,
   -35,-20,  0,  5,  5,  0,-20,-35,
   -30,  5, 10, 15, 15, 10,  5,-30,
   -30,  0, 15, 20, 20, 15,  0,-30,
   -30,  5, 15, 20, 20, 15,  5,-30,
   -30,  0, 10, 15, 15, 10,  0,-30,
   -35,-20,  0,  0,  0,  0,-20,-35,
   -50,-35,-30,-30,-30,-30,-35,-50,
];

#[rustfmt::skip]
const BISHOP: [i8; 64] = [
   -20,-10,-10,-10,-10,-10,-10,-20,
   -10,  0,  0,  0,  0,  0,  0,-10,
   -10,  0,  5, 10, 10,  5,  0,-10,
   -10,  5,  5, 10, 10,  5,  5,-10,
   -10,  0, 10, 10, 10, 10,  0,-10,
   -10, 10, 10, 10, 10, 10, 10,-10,
   -10,  5,  0,  0,  0,  0,  5,-10,
   -20,-10,-15,-10,-10,-15,-10,-20,
];

#[rustfmt::skip]
const ROOK: [i8; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    10, 15, 15, 15, 15, 15, 15, 10,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
     0,  0,  0,  5,  5,  0,  0,  0,
];

#[rustfmt::skip]
const QUEEN: [i8; 64] = [
   -20,-10,-10, -5, -5,-10,-10,-20,
   -10,  0,  0,  0,  0,  0,  0,-10,
   -10,  0,  5,  5,  5,  5,  0,-10,
    -5,  0,  5,  5,  5,  5,  0, -5,
    -5,  0,  5,  5,  5,  5,  0, -5,
   -10,  0,  5,  5,  5,  5,  0,-10,
   -10,  0,  0,  0,  0,  0,  0,-10,
   -20,-10,-10, -5, -5,-10,-10,-20,
];

#[rustfmt::skip]
const KING: [i8; 64] = [
   -30,-40,-40,-50,-50,-40,-40,-30,
   -30,-40,-40,-50,-50,-40,-40,-30,
   -30,-40,-40,-50,-50,-40,-40,-30,
   -30,-40,-40,-50,-50,-40,-40,-30,
   -20,-30,-30,-40,-40,-30,-30,-20,
   -10,-20,-20,-25,-25,-20,-20,-10,
    15, 15, -5,-10,-10, -5, 15, 15,
    20, 30, 15, -5,  0,  5, 30, 20,
];

#[rustfmt::skip]
const KING_END: [i8; 64] = [
   -50,-35,-30,-25,-25,-30,-35,-50,
   -30,-15,  0,  5,  5,  0,-15,-30,
   -30,  0, 20, 30, 30, 20,  0,-30,
   -30,  5, 30, 40, 40, 30,  5,-30,
   -30,  5, 30, 40, 40, 30,  5,-30,
   -30,  0, 20, 30, 30, 20,  0,-30,
   -30,-20,  0,  0,  0,  0,-20,-30,
   -50,-35,-30,-30,-30,-30,-35,-50,
];
