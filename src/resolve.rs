//! Resolving SAN against a position (the candidate origin squares): every
//! square holding a piece of the named kind is a candidate, kept or rejected with
//! its reason; then the move, or an error that explains and suggests.
//!
//! ```
//! use sanfen::resolve::{resolve, Rejection};
//! use sanfen::{Position, Square};
//!
//! let pos = Position::default();
//! let resolution = resolve(&pos, &"Nf3".parse().unwrap());
//! assert_eq!(resolution.candidates.len(), 2);
//! assert_eq!(resolution.candidates[0].from, Square::B1);
//! assert_eq!(resolution.candidates[0].rejection, Some(Rejection::CannotReach));
//! assert_eq!(resolution.candidates[1].from, Square::G1);
//! assert!(resolution.outcome.is_ok());
//! ```

use crate::attacks::{self, between, ray};
use crate::game::GameEnd;
use crate::notation::{self, Notation};
use crate::san::{
    CastlingSide, Letters, ParseSanError, ParsedSan, San, SanLint, SanOptions, SanPlus, Suffix, parse_san,
};
use crate::{Bitboard, File, Move, Piece, Position, Rank, Role, Square};

/// Why a candidate origin square cannot be the move's origin.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rejection {
    /// The SAN names another origin file.
    WrongFile,
    /// The SAN names another origin rank.
    WrongRank,
    /// The piece does not move that way.
    CannotReach,
    /// A piece stands in the way.
    Blocked {
        /// The first piece on the path.
        by: Square,
    },
    /// A pawn move diagonally needs something to capture there.
    NothingToCapture,
    /// The piece is pinned against its king.
    Pinned {
        /// The pinning piece.
        by: Square,
    },
    /// The king would be in check after the move (or would stay in check).
    LeavesKingInCheck {
        /// The pieces that would give check.
        by: Bitboard,
    },
}

impl Rejection {
    /// Whether the piece could not make the move even if nothing stood in
    /// its way and its king were safe: it does not move that way, or the SAN
    /// names another origin. Such candidates say nothing about why a move
    /// is illegal, so explanations leave them out.
    pub const fn is_geometric(&self) -> bool {
        matches!(self, Rejection::WrongFile | Rejection::WrongRank | Rejection::CannotReach)
    }

    /// A stable identifier, kebab-case: `wrong-file`, `wrong-rank`,
    /// `cannot-reach`, `blocked`, `nothing-to-capture`, `pinned`,
    /// `leaves-king-in-check`.
    pub const fn code(&self) -> &'static str {
        match self {
            Rejection::WrongFile => "wrong-file",
            Rejection::WrongRank => "wrong-rank",
            Rejection::CannotReach => "cannot-reach",
            Rejection::Blocked { .. } => "blocked",
            Rejection::NothingToCapture => "nothing-to-capture",
            Rejection::Pinned { .. } => "pinned",
            Rejection::LeavesKingInCheck { .. } => "leaves-king-in-check",
        }
    }

    /// The squares of the pieces the rejection names: the blocking piece,
    /// the pinning piece, the pieces that would give check; empty for the
    /// others.
    pub fn squares(&self) -> Bitboard {
        match self {
            Rejection::Blocked { by } | Rejection::Pinned { by } => Bitboard::from(*by),
            Rejection::LeavesKingInCheck { by } => *by,
            Rejection::WrongFile | Rejection::WrongRank | Rejection::CannotReach | Rejection::NothingToCapture => {
                Bitboard::EMPTY
            }
        }
    }

    /// The rejection as the end of a sentence about the piece: `is blocked
    /// by the piece on e2`.
    fn predicate(&self) -> String {
        match self {
            Rejection::WrongFile => "stands on another file than the one given".to_owned(),
            Rejection::WrongRank => "stands on another rank than the one given".to_owned(),
            Rejection::CannotReach => "cannot reach it".to_owned(),
            Rejection::Blocked { by } => format!("is blocked by the piece on {by}"),
            Rejection::NothingToCapture => "has nothing to capture there".to_owned(),
            Rejection::Pinned { by } => format!("is pinned by the piece on {by}"),
            Rejection::LeavesKingInCheck { .. } => format!("{self}"),
        }
    }
}

impl core::fmt::Display for Rejection {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Rejection::WrongFile => f.write_str("excluded by the given file"),
            Rejection::WrongRank => f.write_str("excluded by the given rank"),
            Rejection::CannotReach => f.write_str("cannot reach the destination"),
            Rejection::Blocked { by } => write!(f, "path blocked by the piece on {by}"),
            Rejection::NothingToCapture => f.write_str("a pawn moves diagonally only to capture"),
            Rejection::Pinned { by } => write!(f, "pinned by the piece on {by}"),
            Rejection::LeavesKingInCheck { by } => {
                let squares: Vec<String> = by.into_iter().map(|sq| sq.to_string()).collect();
                write!(f, "would leave the king in check from {}", squares.join(" and "))
            }
        }
    }
}

/// One candidate origin square.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Candidate {
    /// Where the piece stands.
    pub from: Square,
    /// `None` when kept; else why not.
    pub rejection: Option<Rejection>,
}

/// Why the move as a whole cannot be played, beyond its candidates. The
/// checks run in the order a player needs them: the game is over; no piece of
/// that kind; the destination is taken by one's own piece; the promotion; no
/// piece of that kind reaches the square at all; and only then what stops
/// the pieces that do reach it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Problem {
    /// The side to move has no legal move at all: checkmate or stalemate.
    GameOver {
        /// How the game ended.
        end: GameEnd,
    },
    /// The side to move has no piece of that kind.
    NoPiece {
        /// The kind asked for.
        role: Role,
    },
    /// No piece of that kind moves that way to the square, wherever the other
    /// pieces stand (a knight too far away, a pawn on another file).
    Unreachable {
        /// The kind asked for.
        role: Role,
        /// The destination.
        to: Square,
    },
    /// Pieces of that kind reach the square, but none can legally make the
    /// move: each of them with its reason.
    NoCandidateFits {
        /// The kind asked for.
        role: Role,
        /// The destination.
        to: Square,
        /// The pieces that reach the square (or would, but for the origin
        /// the SAN names), with why each cannot make the move.
        stopped: Vec<Candidate>,
    },
    /// The destination holds a piece of the side to move.
    OwnPieceOnDestination {
        /// The square.
        square: Square,
    },
    /// A pawn reaching the last rank must name its promotion piece.
    MissingPromotion,
    /// Promotion named where none happens, or to a king or pawn.
    PromotionNotAllowed,
    /// No piece of the side to move on the origin square of a coordinate move.
    EmptyOrigin {
        /// The square.
        square: Square,
    },
    /// The piece on the origin square belongs to the opponent.
    OpponentsPiece {
        /// The square.
        square: Square,
    },
    /// Castling without the right to.
    NoCastlingRight {
        /// Which side.
        side: CastlingSide,
    },
    /// Castling out of check.
    CastlingInCheck,
    /// Castling through pieces.
    CastlingBlocked {
        /// The occupied squares.
        squares: Bitboard,
    },
    /// Castling through or into check.
    CastlingThroughCheck {
        /// The attacked squares.
        squares: Bitboard,
    },
    /// A null move is not a move of the position.
    NullMove,
}

impl core::fmt::Display for Problem {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let list = |bb: &Bitboard| bb.into_iter().map(|sq| sq.to_string()).collect::<Vec<_>>().join(", ");
        match self {
            Problem::GameOver { end } => write!(f, "the game is over: {} by {}", end.result, end.reason),
            Problem::NoPiece { role } => write!(f, "no {role} can move there: the side to move has none"),
            Problem::Unreachable { role, to } => write!(f, "no {role} can move to {to}"),
            Problem::NoCandidateFits { role, to, stopped } => {
                write!(f, "no {role} can move to {to}: ")?;
                let mut groups: Vec<(String, Vec<Square>)> = Vec::new();
                for candidate in stopped {
                    let Some(rejection) = &candidate.rejection else { continue };
                    let predicate = rejection.predicate();
                    match groups.iter_mut().find(|(p, _)| *p == predicate) {
                        Some((_, squares)) => squares.push(candidate.from),
                        None => groups.push((predicate, vec![candidate.from])),
                    }
                }
                let sentences: Vec<String> = groups
                    .iter()
                    .map(|(predicate, squares)| {
                        let names: Vec<String> = squares.iter().map(Square::to_string).collect();
                        match names.split_last() {
                            Some((one, [])) => format!("the {role} on {one} {predicate}"),
                            Some((last, rest)) => {
                                let predicate = predicate
                                    .replacen("is ", "are ", 1)
                                    .replacen("has ", "have ", 1)
                                    .replacen("stands ", "stand ", 1);
                                format!("the {role}s on {} and {last} {predicate}", rest.join(", "))
                            }
                            None => String::new(),
                        }
                    })
                    .collect();
                f.write_str(&sentences.join("; "))
            }
            Problem::OwnPieceOnDestination { square } => write!(f, "{square} holds a piece of the side to move"),
            Problem::MissingPromotion => {
                f.write_str("a pawn reaching the last rank must promote: add =Q, =R, =B or =N")
            }
            Problem::PromotionNotAllowed => {
                f.write_str("promotion is only for a pawn reaching the last rank, to Q, R, B or N")
            }
            Problem::EmptyOrigin { square } => write!(f, "no piece of the side to move on {square}"),
            Problem::OpponentsPiece { square } => write!(f, "the piece on {square} belongs to the opponent"),
            Problem::NoCastlingRight { side } => write!(
                f,
                "castling {} is not allowed: the right is gone (king or rook has moved)",
                if *side == CastlingSide::KingSide { "king side" } else { "queen side" }
            ),
            Problem::CastlingInCheck => f.write_str("cannot castle out of check"),
            Problem::CastlingBlocked { squares } => write!(f, "cannot castle through pieces on {}", list(squares)),
            Problem::CastlingThroughCheck { squares } => {
                write!(f, "cannot castle through or into check: {} attacked", list(squares))
            }
            Problem::NullMove => f.write_str("a null move is not a move"),
        }
    }
}

/// SAN that names no legal move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SanError {
    /// No legal move fits.
    Illegal {
        /// Why.
        problem: Problem,
        /// The legal moves closest to what was written, best first, in SAN.
        suggestions: Vec<String>,
    },
    /// More than one legal move fits.
    Ambiguous {
        /// The origin squares of the fitting moves.
        from: Vec<Square>,
        /// Their canonical SAN.
        spellings: Vec<String>,
    },
}

impl core::fmt::Display for SanError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SanError::Illegal { problem, suggestions } => {
                write!(f, "illegal: {problem}")?;
                if !suggestions.is_empty() {
                    write!(f, "; did you mean {}?", suggestions.join(", "))?;
                }
                Ok(())
            }
            SanError::Ambiguous { from, spellings } => {
                let squares: Vec<String> = from.iter().map(|sq| sq.to_string()).collect();
                let all = if squares.len() == 2 { "both" } else { "all" };
                write!(
                    f,
                    "ambiguous: pieces on {} can {all} make the move; write {}",
                    squares.join(" and "),
                    spellings.join(" or ")
                )
            }
        }
    }
}

impl std::error::Error for SanError {}

/// Input accepted, but not as canonical SAN writes it (position-dependent lint).
#[derive(Clone, Debug, PartialEq, Eq, Hash, strum::EnumIter)]
#[non_exhaustive]
pub enum MoveLint {
    /// A capture written without `x`.
    MissingCaptureMark,
    /// `x` written for a move that captures nothing.
    SpuriousCaptureMark,
    /// An origin file or rank that no other legal move makes necessary.
    OverDisambiguated,
    /// No `+` on a checking move.
    MissingCheck,
    /// No `#` on a mating move.
    MissingCheckmate,
    /// `+` or `#` on a move that gives no check.
    SpuriousCheck,
    /// `+` on a mating move.
    CheckInsteadOfMate,
    /// `#` on a move that checks but does not mate.
    MateInsteadOfCheck,
    /// Castling written as the king's two-square move (`Kg1`).
    CastlingAsKingMove,
}

impl MoveLint {
    /// A stable identifier, `san:` and a kebab-case name.
    pub const fn code(&self) -> &'static str {
        match self {
            MoveLint::MissingCaptureMark => "san:missing-capture-mark",
            MoveLint::SpuriousCaptureMark => "san:spurious-capture-mark",
            MoveLint::OverDisambiguated => "san:over-disambiguated",
            MoveLint::MissingCheck => "san:missing-check",
            MoveLint::MissingCheckmate => "san:missing-checkmate",
            MoveLint::SpuriousCheck => "san:spurious-check",
            MoveLint::CheckInsteadOfMate => "san:check-instead-of-mate",
            MoveLint::MateInsteadOfCheck => "san:mate-instead-of-check",
            MoveLint::CastlingAsKingMove => "san:castling-as-king-move",
        }
    }
}

impl core::fmt::Display for MoveLint {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            MoveLint::MissingCaptureMark => "capture written without x",
            MoveLint::SpuriousCaptureMark => "x written for a move that captures nothing",
            MoveLint::OverDisambiguated => "origin given where no other piece could make the move",
            MoveLint::MissingCheck => "checking move written without +",
            MoveLint::MissingCheckmate => "mating move written without #",
            MoveLint::SpuriousCheck => "check mark on a move that gives no check",
            MoveLint::CheckInsteadOfMate => "+ on a mating move; it is #",
            MoveLint::MateInsteadOfCheck => "# on a move that does not mate; it is +",
            MoveLint::CastlingAsKingMove => "castling written as a king move",
        })
    }
}

/// What resolving found: the candidates with their verdicts, and the outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// Every square holding a piece of the named kind, a1 first.
    pub candidates: Vec<Candidate>,
    /// The move, or why not.
    pub outcome: Result<Move, SanError>,
    /// On success, what was not canonical (empty when the SAN was canonical).
    pub lints: Vec<MoveLint>,
    /// On success, the canonical SAN with its check mark.
    pub canonical: Option<SanPlus>,
}

/// Resolves SAN (any [`San`] form) against a position.
pub fn resolve(pos: &Position, san_plus: &SanPlus) -> Resolution {
    resolve_with(pos, san_plus, true)
}

/// [`resolve`], an illegal move's suggestions made only `with_suggestions`
/// (they cost the SAN of each legal move related to the one written: none
/// made when no one reads them).
pub(crate) fn resolve_with(pos: &Position, san_plus: &SanPlus, with_suggestions: bool) -> Resolution {
    let legal = pos.legal_moves();
    if let Some(end) = pos.end_by_position().filter(|_| legal.is_empty()) {
        return Resolution {
            candidates: Vec::new(),
            outcome: Err(SanError::Illegal { problem: Problem::GameOver { end }, suggestions: Vec::new() }),
            lints: Vec::new(),
            canonical: None,
        };
    }
    let (candidates, outcome, mut lints) = match san_plus.san {
        San::Normal { role, file, rank, capture, to, promotion } => {
            normal(pos, &legal, role, file, rank, capture, to, promotion)
        }
        San::Squares { from, to, capture, promotion } => squares(pos, &legal, from, to, capture, promotion),
        San::Castle(side) => (Vec::new(), castle(pos, &legal, side), Vec::new()),
        San::Null => (Vec::new(), Err(Problem::NullMove.into()), Vec::new()),
    };
    match outcome {
        Ok(m) => {
            let canonical = notation::san_plus(pos, m);
            suffix_lints(san_plus.suffix, canonical.suffix, &mut lints);
            Resolution { candidates, outcome: Ok(m), lints, canonical: Some(canonical) }
        }
        Err(Outcome::Ambiguous(moves)) => {
            let from = moves.iter().map(|m| m.from()).collect();
            let spellings = moves.iter().map(|&m| notation::san_plus(pos, m).to_string()).collect();
            Resolution {
                candidates,
                outcome: Err(SanError::Ambiguous { from, spellings }),
                lints: Vec::new(),
                canonical: None,
            }
        }
        Err(Outcome::Illegal(problem)) => {
            let suggestions = if with_suggestions { suggest(pos, &legal, san_plus) } else { Vec::new() };
            Resolution {
                candidates,
                outcome: Err(SanError::Illegal { problem, suggestions }),
                lints: Vec::new(),
                canonical: None,
            }
        }
    }
}

/// A token read and resolved: which reading fitted, its syntax lint findings,
/// and the resolution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextResolution {
    /// The readings of the token (two for `bc4`: pawn, then bishop).
    pub parsed: ParsedSan,
    /// The index of the reading the resolution is about.
    pub reading: usize,
    /// The spelling lint findings of that reading (`0-0`, `e8Q`, ...).
    pub syntax_lints: Vec<SanLint>,
    /// The candidates, the outcome and the position-dependent lint findings.
    pub resolution: Resolution,
}

impl TextResolution {
    /// Whether the input was canonical SAN for the move (no lint of either kind).
    pub fn is_canonical(&self) -> bool {
        self.syntax_lints.is_empty() && self.resolution.lints.is_empty()
    }
}

/// Reads a token (as [`parse_san`] does with `options`) and resolves it. A token
/// with two readings (`bc4`) resolves to the one that is legal, and is
/// ambiguous when both are.
///
/// # Errors
///
/// [`ParseSanError`] when the text is not a move at all; an illegal or
/// ambiguous move is a successful call whose `resolution.outcome` says why.
pub fn resolve_text(pos: &Position, text: &[u8], options: SanOptions) -> Result<TextResolution, ParseSanError> {
    resolve_text_with(pos, text, options, true)
}

/// [`resolve_text`], an illegal move's suggestions made only
/// `with_suggestions` (as [`resolve_with`]).
pub(crate) fn resolve_text_with(
    pos: &Position,
    text: &[u8],
    options: SanOptions,
    with_suggestions: bool,
) -> Result<TextResolution, ParseSanError> {
    let parsed = parse_san(text, options)?;
    let first = resolve_with(pos, parsed.first(), with_suggestions);
    let chosen = match parsed.readings.get(1) {
        None => (0, first),
        Some(second_reading) => {
            let second = resolve_with(pos, second_reading, with_suggestions);
            match (&first.outcome, &second.outcome) {
                (Ok(a), Ok(b)) if a != b => {
                    let spellings =
                        [&first, &second].iter().filter_map(|r| r.canonical.map(|c| c.to_string())).collect();
                    let mut candidates = first.candidates.clone();
                    candidates.extend(second.candidates.iter().cloned());
                    let ambiguous = Resolution {
                        candidates,
                        outcome: Err(SanError::Ambiguous { from: vec![a.from(), b.from()], spellings }),
                        lints: Vec::new(),
                        canonical: None,
                    };
                    (0, ambiguous)
                }
                (Err(_), Ok(_)) => (1, second),
                _ => (0, first),
            }
        }
    };
    let (reading, resolution) = chosen;
    let syntax_lints = parsed.lints_for(reading);
    Ok(TextResolution { parsed, reading, syntax_lints, resolution })
}

enum Outcome {
    Illegal(Problem),
    Ambiguous(Vec<Move>),
}

impl From<Problem> for Outcome {
    fn from(problem: Problem) -> Outcome {
        Outcome::Illegal(problem)
    }
}

type Found = (Vec<Candidate>, Result<Move, Outcome>, Vec<MoveLint>);

#[allow(clippy::too_many_arguments)]
fn normal(
    pos: &Position,
    legal: &[Move],
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    capture: bool,
    to: Square,
    promotion: Option<Role>,
) -> Found {
    let board = pos.board();
    let us = pos.turn();
    let pieces = board.by_piece(Piece { color: us, role });
    // castling written as the king's move to its castling square (`Kg1`), when no
    // ordinary king move goes there (in Chess960 one may: then that is the move)
    let ordinary_king_move = legal.iter().any(|m| !m.is_castle() && m.role() == Role::King && m.to() == to);
    if role == Role::King
        && promotion.is_none()
        && !ordinary_king_move
        && let Some(&m) = legal.iter().find(|m| m.is_castle() && m.to() == to && pieces.contains(m.from()))
        && file.is_none_or(|f| f == m.from().file())
        && rank.is_none_or(|r| r == m.from().rank())
    {
        let candidates = vec![Candidate { from: m.from(), rejection: None }];
        return (candidates, Ok(m), vec![MoveLint::CastlingAsKingMove]);
    }
    let mut candidates = Vec::with_capacity(pieces.count());
    let mut kept = Vec::new();
    for from in pieces {
        let rejection = judge(pos, legal, role, from, file, rank, to, promotion);
        if rejection.is_none() {
            kept.push(from);
        }
        candidates.push(Candidate { from, rejection });
    }
    if pieces.is_empty() {
        return (candidates, Err(Problem::NoPiece { role }.into()), Vec::new());
    }
    if board.by_color(us).contains(to) {
        return (candidates, Err(Problem::OwnPieceOnDestination { square: to }.into()), Vec::new());
    }
    let last_rank = to.rank() == Rank::Eighth.relative_to(us);
    if let Some(p) = promotion {
        if role != Role::Pawn || !last_rank || matches!(p, Role::Pawn | Role::King) {
            return (candidates, Err(Problem::PromotionNotAllowed.into()), Vec::new());
        }
    } else if role == Role::Pawn && last_rank && !kept.is_empty() {
        return (candidates, Err(Problem::MissingPromotion.into()), Vec::new());
    }
    let moves: Vec<Move> = kept.iter().filter_map(|&from| find(legal, role, from, to, promotion)).collect();
    match moves.as_slice() {
        [] => {
            // the pieces that reach the square, or would but for the origin given
            let stopped: Vec<Candidate> = candidates
                .iter()
                .filter(|c| match &c.rejection {
                    Some(Rejection::WrongFile | Rejection::WrongRank) => {
                        // judged as if the SAN named this piece's own square
                        let (file, rank) = (Some(c.from.file()), Some(c.from.rank()));
                        judge(pos, legal, role, c.from, file, rank, to, promotion).is_none()
                    }
                    Some(rejection) => !rejection.is_geometric(),
                    None => false,
                })
                .cloned()
                .collect();
            let problem = if stopped.is_empty() {
                Problem::Unreachable { role, to }
            } else {
                Problem::NoCandidateFits { role, to, stopped }
            };
            (candidates, Err(problem.into()), Vec::new())
        }
        [m] => {
            let mut lints = Vec::new();
            capture_lints(capture, m.is_capture(), &mut lints);
            if role != Role::Pawn || !m.is_capture() {
                // pawn captures name their file; anything more than the canonical
                // disambiguation is over-disambiguation
                let canonical = notation::san(pos, *m);
                if let San::Normal { file: cf, rank: cr, .. } = canonical
                    && ((file.is_some() && cf.is_none()) || (rank.is_some() && cr.is_none()))
                {
                    lints.push(MoveLint::OverDisambiguated);
                }
            } else if rank.is_some() {
                lints.push(MoveLint::OverDisambiguated);
            }
            (candidates, Ok(*m), lints)
        }
        _ => (candidates, Err(Outcome::Ambiguous(moves)), Vec::new()),
    }
}

/// The legal move of `role` from `from` to `to` with that promotion.
fn find(legal: &[Move], role: Role, from: Square, to: Square, promotion: Option<Role>) -> Option<Move> {
    legal
        .iter()
        .copied()
        .find(|m| !m.is_castle() && m.role() == role && m.from() == from && m.to() == to && m.promotion() == promotion)
}

/// The verdict on one candidate; `None` when it can make the move.
#[allow(clippy::too_many_arguments)]
fn judge(
    pos: &Position,
    legal: &[Move],
    role: Role,
    from: Square,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
) -> Option<Rejection> {
    if file.is_some_and(|f| f != from.file()) {
        return Some(Rejection::WrongFile);
    }
    if rank.is_some_and(|r| r != from.rank()) {
        return Some(Rejection::WrongRank);
    }
    let board = pos.board();
    let us = pos.turn();
    let occupied = board.occupied();
    let first_blocker = |path: Bitboard| {
        // the blocker nearest to `from`
        path.into_iter().min_by_key(|sq| sq.distance(from))
    };
    match role {
        Role::Knight if !attacks::knight_attacks(from).contains(to) => return Some(Rejection::CannotReach),
        Role::King if !attacks::king_attacks(from).contains(to) => return Some(Rejection::CannotReach),
        Role::Bishop | Role::Rook | Role::Queen => {
            let straight = from.file() == to.file() || from.rank() == to.rank();
            let fits = match role {
                Role::Bishop => !straight,
                Role::Rook => straight,
                _ => true,
            };
            if from == to || !fits || ray(from, to).is_empty() {
                return Some(Rejection::CannotReach);
            }
            if let Some(by) = first_blocker(between(from, to) & occupied) {
                return Some(Rejection::Blocked { by });
            }
        }
        Role::Pawn => {
            let forward = us.fold(1, -1);
            let df = to.file() as i32 - from.file() as i32;
            let dr = to.rank() as i32 - from.rank() as i32;
            if df.abs() == 1 && dr == forward {
                // SAN names a capturing pawn by its file: without one, the move is a push
                if file.is_none() {
                    return Some(Rejection::CannotReach);
                }
                let capturable = board.by_color(!us).contains(to) || pos.legal_ep_square() == Some(to);
                if !capturable && pos.ep_square() != Some(to) {
                    return Some(Rejection::NothingToCapture);
                }
            } else if df == 0 && dr == forward {
                if occupied.contains(to) {
                    return Some(Rejection::Blocked { by: to });
                }
            } else if df == 0 && dr == 2 * forward && from.rank() == Rank::Second.relative_to(us) {
                if let Some(by) = first_blocker((between(from, to) | to) & occupied) {
                    return Some(Rejection::Blocked { by });
                }
            } else {
                return Some(Rejection::CannotReach);
            }
        }
        _ => {}
    }
    if board.by_color(us).contains(to) {
        return Some(Rejection::Blocked { by: to });
    }
    // the piece can get there; is it legal?
    // the promotion piece matters only where a pawn promotes (a wrong one is the
    // move's problem, not the candidate's)
    let promotes = role == Role::Pawn && to.rank() == Rank::Eighth.relative_to(us);
    let promotion = if promotes { promotion.or(Some(Role::Queen)) } else { None };
    if find(legal, role, from, to, promotion).is_some() {
        return None;
    }
    Some(why_illegal(pos, role, from, to))
}

/// Why a move the piece could make geometrically is not legal.
fn why_illegal(pos: &Position, role: Role, from: Square, to: Square) -> Rejection {
    let board = pos.board();
    let us = pos.turn();
    let king = pos.our_king();
    if role != Role::King && pos.pinned().contains(from) && !ray(king, from).contains(to) {
        // the pinner: the enemy slider beyond `from` on the king's line
        let line = ray(king, from);
        let beyond = line & board.by_color(!us) & (board.rooks_and_queens() | board.bishops_and_queens());
        let pinner =
            beyond.into_iter().filter(|&sq| between(king, sq).contains(from)).min_by_key(|sq| sq.distance(king));
        if let Some(by) = pinner {
            return Rejection::Pinned { by };
        }
    }
    // play it on a copy of the board and look at the king
    let mut after = board.clone();
    let piece = after.remove_piece_at(from);
    let ep_victim = (role == Role::Pawn && from.file() != to.file() && !board.occupied().contains(to))
        .then(|| to.step(0, us.fold(-1, 1)))
        .flatten();
    if let Some(victim) = ep_victim {
        after.remove_piece_at(victim);
    }
    if let Some(piece) = piece {
        after.set_piece_at(to, piece);
    }
    let king_after = if role == Role::King { to } else { king };
    let by = after.attackers_to(king_after, !us, after.occupied());
    if by.is_empty() { Rejection::CannotReach } else { Rejection::LeavesKingInCheck { by } }
}

fn squares(pos: &Position, legal: &[Move], from: Square, to: Square, capture: bool, promotion: Option<Role>) -> Found {
    let board = pos.board();
    let us = pos.turn();
    let Some(piece) = board.piece_at(from) else {
        return (Vec::new(), Err(Problem::EmptyOrigin { square: from }.into()), Vec::new());
    };
    if piece.color != us {
        return (Vec::new(), Err(Problem::OpponentsPiece { square: from }.into()), Vec::new());
    }
    // castling as king takes rook (Chess960 UCI), or as the king's move to its
    // castling square when no ordinary king move goes there
    if piece.role == Role::King {
        let ordinary = legal.iter().any(|m| !m.is_castle() && m.from() == from && m.to() == to);
        if let Some(&m) = legal.iter().find(|m| match m {
            Move::Castle { king, rook } => *king == from && (*rook == to || (m.to() == to && !ordinary)),
            _ => false,
        }) {
            return (vec![Candidate { from, rejection: None }], Ok(m), Vec::new());
        }
    }
    let (candidates, outcome, mut lints) =
        normal(pos, legal, piece.role, Some(from.file()), Some(from.rank()), capture, to, promotion);
    // coordinates always name the origin: not over-disambiguation
    lints.retain(|lint| *lint != MoveLint::OverDisambiguated);
    if !capture {
        lints.retain(|lint| *lint != MoveLint::MissingCaptureMark);
    }
    let candidates = candidates.into_iter().filter(|c| c.from == from).collect();
    (candidates, outcome, lints)
}

fn castle(pos: &Position, legal: &[Move], side: CastlingSide) -> Result<Move, Outcome> {
    let us = pos.turn();
    let king = pos.our_king();
    let on_side = |m: &&Move| match m {
        Move::Castle { king: k, rook } => *k == king && ((rook.file() > k.file()) == (side == CastlingSide::KingSide)),
        _ => false,
    };
    if let Some(&m) = legal.iter().find(on_side) {
        return Ok(m);
    }
    let right = pos.castling_rights().files(us).find(|&file| (file > king.file()) == (side == CastlingSide::KingSide));
    let Some(file) = right else {
        return Err(Problem::NoCastlingRight { side }.into());
    };
    if pos.is_check() {
        return Err(Problem::CastlingInCheck.into());
    }
    let board = pos.board();
    let back = Rank::First.relative_to(us);
    let rook = Square::from_coords(file, back);
    let king_to = Square::from_coords(if side == CastlingSide::KingSide { File::G } else { File::C }, back);
    let rook_to = Square::from_coords(if side == CastlingSide::KingSide { File::F } else { File::D }, back);
    let path = between(king, king_to).with(king_to) | between(rook, rook_to).with(rook_to);
    let blocked = (path - king - rook) & board.occupied();
    if blocked.any() {
        return Err(Problem::CastlingBlocked { squares: blocked }.into());
    }
    let without_king = board.occupied() - king;
    let attacked: Bitboard = (between(king, king_to).with(king_to))
        .into_iter()
        .filter(|&sq| board.attackers_to(sq, !us, without_king).any())
        .collect();
    Err(Problem::CastlingThroughCheck { squares: attacked }.into())
}

fn capture_lints(written: bool, actual: bool, lints: &mut Vec<MoveLint>) {
    match (written, actual) {
        (false, true) => lints.push(MoveLint::MissingCaptureMark),
        (true, false) => lints.push(MoveLint::SpuriousCaptureMark),
        _ => {}
    }
}

pub(crate) fn suffix_lints(written: Option<Suffix>, actual: Option<Suffix>, lints: &mut Vec<MoveLint>) {
    let lint = match (written, actual) {
        (None, Some(Suffix::Check)) => MoveLint::MissingCheck,
        (None, Some(Suffix::Checkmate)) => MoveLint::MissingCheckmate,
        (Some(_), None) => MoveLint::SpuriousCheck,
        (Some(Suffix::Check), Some(Suffix::Checkmate)) => MoveLint::CheckInsteadOfMate,
        (Some(Suffix::Checkmate), Some(Suffix::Check)) => MoveLint::MateInsteadOfCheck,
        _ => return,
    };
    lints.push(lint);
}

/// The legal moves closest to what was written, best first, at most three.
/// Only related moves are offered: the same piece to the same square; any
/// piece to that square; the same kind of piece by a close spelling (edit
/// distance at most 2; for a pawn also from or to the square's file), or
/// from the origin square written; any promotion when a promotion was written. Nothing else, so a move with no
/// relative gets no suggestion.
fn suggest(pos: &Position, legal: &[Move], written: &SanPlus) -> Vec<String> {
    let text = written.san.to_string();
    let (role, from, to, promotes) = match written.san {
        San::Normal { role, to, promotion, .. } => (Some(role), None, Some(to), promotion.is_some()),
        San::Squares { from, to, promotion, .. } => {
            (pos.board().piece_at(from).map(|p| p.role), Some(from), Some(to), promotion.is_some())
        }
        San::Castle(_) => (Some(Role::King), None, None, false),
        San::Null => (None, None, None, false),
    };
    let mut scored: Vec<(u32, usize, u8, String, Move)> = legal
        .iter()
        .filter_map(|&m| {
            let same_role = Some(m.role()) == role;
            let same_to = Some(m.to()) == to;
            let promotion_for_promotion = promotes && m.promotion().is_some();
            // (no rank below without one of these: no SAN to write)
            if !same_role && !same_to && !promotion_for_promotion {
                return None;
            }
            // SAN without its check mark: no other move's is a prefix of it,
            // so the order is the order of the SAN written
            let san = notation::san(pos, m).to_string();
            let distance = edit_distance(&text, &san);
            let near_file = |file: File| to.is_none_or(|to| to.file() == file);
            let close =
                distance <= 2 && (m.role() != Role::Pawn || near_file(m.from().file()) || near_file(m.to().file()));
            let rank = match (same_role, same_to) {
                (true, true) => 0,
                (false, true) => 1,
                (true, false) if close || from == Some(m.from()) => 1,
                _ if promotion_for_promotion => 2,
                _ => return None,
            };
            // among promotions, the queen first
            let promotion = match m.promotion() {
                None | Some(Role::Queen) => 0,
                Some(Role::Rook) => 1,
                Some(Role::Bishop) => 2,
                Some(_) => 3,
            };
            Some((rank, distance, promotion, san, m))
        })
        .collect();
    // (the SAN breaks every tie: no two moves share it)
    scored.sort_by(|a, b| (a.0, a.1, a.2, &a.3).cmp(&(b.0, b.1, b.2, &b.3)));
    scored.into_iter().take(3).map(|(.., m)| notation::write_move(pos, m, Notation::San, Letters::English)).collect()
}

/// Levenshtein distance between two short strings.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let current = row[j + 1];
            row[j + 1] = (previous + usize::from(ca != cb)).min(row[j] + 1).min(current + 1);
            previous = current;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    fn text(pos: &Position, input: &str) -> TextResolution {
        resolve_text(pos, input.as_bytes(), SanOptions::LENIENT).unwrap()
    }

    #[test]
    fn pinned_knight_is_not_a_rival() {
        // knights on c3 and g1 could both reach e2, but c3 is pinned by the bishop on b4
        let pos = position("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1");
        let r = text(&pos, "Ne2");
        assert_eq!(r.resolution.outcome.as_ref().map(|m| m.from()), Ok(Square::G1));
        assert_eq!(
            r.resolution.candidates,
            [
                Candidate { from: Square::G1, rejection: None },
                Candidate { from: Square::C3, rejection: Some(Rejection::Pinned { by: Square::B4 }) },
            ]
        );
        assert!(r.is_canonical());
    }

    /// Each rejection's code and the squares it names.
    #[test]
    fn rejection_codes_and_squares() {
        let squares = |rejection: &Rejection| rejection.squares().into_iter().collect::<Vec<Square>>();
        let two = Bitboard::from(Square::B4) | Bitboard::from(Square::H4);
        for (rejection, code, named) in [
            (Rejection::WrongFile, "wrong-file", vec![]),
            (Rejection::WrongRank, "wrong-rank", vec![]),
            (Rejection::CannotReach, "cannot-reach", vec![]),
            (Rejection::Blocked { by: Square::E2 }, "blocked", vec![Square::E2]),
            (Rejection::NothingToCapture, "nothing-to-capture", vec![]),
            (Rejection::Pinned { by: Square::A5 }, "pinned", vec![Square::A5]),
            (Rejection::LeavesKingInCheck { by: two }, "leaves-king-in-check", vec![Square::B4, Square::H4]),
        ] {
            assert_eq!((rejection.code(), squares(&rejection)), (code, named), "{rejection:?}");
        }
    }

    #[test]
    fn ambiguous_with_spellings() {
        let pos = position("4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1");
        let r = text(&pos, "Ne2");
        assert_eq!(
            r.resolution.outcome,
            Err(SanError::Ambiguous {
                from: vec![Square::G1, Square::C3],
                spellings: vec!["Nge2".into(), "Nce2".into()]
            })
        );
        assert_eq!(
            r.resolution.outcome.unwrap_err().to_string(),
            "ambiguous: pieces on g1 and c3 can both make the move; write Nge2 or Nce2"
        );
    }

    #[test]
    fn lowercase_b_readings() {
        // only the pawn can take on c4
        let pos = position("4k3/8/8/8/2p5/1P6/8/4K3 w - - 0 1");
        let r = text(&pos, "bc4");
        assert_eq!((r.reading, r.resolution.outcome.as_ref().map(|m| m.from())), (0, Ok(Square::B3)));
        assert_eq!(r.resolution.lints, [MoveLint::MissingCaptureMark]);
        // only the bishop can go to c4
        let pos = position("4k3/8/8/8/8/8/8/4KB2 w - - 0 1");
        let r = text(&pos, "bc4");
        assert_eq!((r.reading, r.resolution.outcome.map(|m| m.from())), (1, Ok(Square::F1)));
        // both can: ambiguous
        let pos = position("4k3/8/8/8/2p5/1P6/8/4KB2 w - - 0 1");
        assert_eq!(
            text(&pos, "bc4").resolution.outcome,
            Err(SanError::Ambiguous {
                from: vec![Square::B3, Square::F1],
                spellings: vec!["bxc4".into(), "Bxc4".into()]
            })
        );
    }

    #[test]
    fn castling_reasons() {
        let pos = position("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1");
        assert_eq!(
            text(&pos, "O-O").resolution.outcome,
            Err(SanError::Illegal {
                problem: Problem::NoCastlingRight { side: CastlingSide::KingSide },
                suggestions: vec!["O-O-O".into()]
            })
        );
        let pos = position("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
        let Err(SanError::Illegal { problem, .. }) = text(&pos, "O-O").resolution.outcome else { panic!() };
        assert_eq!(problem, Problem::CastlingThroughCheck { squares: Bitboard::from(Square::F1) });
        let pos = position("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
        let Err(SanError::Illegal { problem, .. }) = text(&pos, "O-O-O").resolution.outcome else { panic!() };
        assert_eq!(problem, Problem::CastlingBlocked { squares: Bitboard::from(Square::B1) });
    }

    #[test]
    fn suggestions_for_an_illegal_move() {
        let pos = Position::default();
        let r = text(&pos, "Nf4");
        assert_eq!(
            r.resolution.outcome,
            Err(SanError::Illegal {
                problem: Problem::Unreachable { role: Role::Knight, to: Square::F4 },
                suggestions: vec!["Nf3".into(), "f4".into(), "Na3".into()]
            })
        );
        assert_eq!(
            r.resolution.candidates,
            [
                Candidate { from: Square::B1, rejection: Some(Rejection::CannotReach) },
                Candidate { from: Square::G1, rejection: Some(Rejection::CannotReach) },
            ]
        );
    }

    #[test]
    fn check_marks() {
        // Qh5 is not check; Qxf7 is mate
        let pos = position("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
        assert_eq!(text(&pos, "Qxf7").resolution.lints, [MoveLint::MissingCheckmate]);
        assert_eq!(text(&pos, "Qxf7+").resolution.lints, [MoveLint::CheckInsteadOfMate]);
        assert!(text(&pos, "Qxf7#").is_canonical());
        assert_eq!(text(&pos, "Qh5+").resolution.lints, [MoveLint::SpuriousCheck]);
    }
}
