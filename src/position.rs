//! [`Position`]: a position some legal game can reach, built by
//! [`Position::from_setup`], which reports every problem of a [`Setup`] at once.
//!
//! ```
//! use sanfen::{CastlingMode, Position, ReasonKind, Setup};
//!
//! let mut setup = Setup::empty();
//! setup.castling_rights = sanfen::CastlingRights::STANDARD;
//! let err = Position::from_setup(setup, CastlingMode::Standard).unwrap_err();
//! // an empty board with castling rights: every reason at once
//! let kinds: Vec<&str> = err.errors().map(|r| r.code()).collect();
//! assert_eq!(kinds, ["fen:empty-board", "fen:missing-king", "fen:missing-king", "fen:castling",
//!                    "fen:castling", "fen:castling", "fen:castling"]);
//! assert!(matches!(err.reasons[1].kind, ReasonKind::MissingKing { .. }));
//! ```

use crate::attacks::{self, between, ray};
use crate::{Bitboard, Board, ByColor, CastlingRights, Color, File, Piece, Rank, Role, Setup, Square};

/// How castling rights are read and checked.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum CastlingMode {
    /// Standard chess: the king on e1/e8, rooks on the a and h files.
    #[default]
    Standard,
    /// Chess960: the king anywhere on its back rank between the castling rooks.
    Chess960,
}

/// How bad a finding is: whether it makes the input invalid, or only
/// non-canonical. The one scale of every check: legality reasons of a
/// position ([`Reason::severity`]) and PGN findings
/// ([`Finding::severity`](crate::pgn::validate::Finding::severity)).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The input is invalid: for a position, no legal game reaches it; for a
    /// PGN game, it is not valid PGN of legal chess (or a lint finding the
    /// policy denies).
    Error,
    /// Valid, but not as canonical notation writes it: a position people do
    /// write that is not consistent with a real game's history, a PGN lint
    /// finding.
    Warning,
}

/// Why a double check cannot happen.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ImpossibleCheck {
    /// Two sliders check along the same line.
    SameLine,
    /// Neither checker is a slider, so neither check was discovered.
    TwoLeapers,
    /// No single move puts one checker where it stands while uncovering the other.
    NoMove,
}

/// What is wrong with a setup. Squares involved are in [`Reason::squares`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReasonKind {
    /// No piece at all.
    EmptyBoard,
    /// A side has no king.
    MissingKing {
        /// The side.
        color: Color,
    },
    /// A side has more than one king.
    TooManyKings {
        /// The side.
        color: Color,
    },
    /// Pawns on rank 1 or 8.
    PawnsOnBackRank,
    /// More than 8 pawns.
    TooManyPawns {
        /// The side.
        color: Color,
        /// How many.
        count: usize,
    },
    /// More than 16 pieces.
    TooManyPieces {
        /// The side.
        color: Color,
        /// How many.
        count: usize,
    },
    /// More extra pieces (beyond the initial set, light and dark bishops apart)
    /// than missing pawns could have promoted to.
    UnexplainedMaterial {
        /// The side.
        color: Color,
        /// Promotions the pieces need.
        promotions: usize,
        /// Pawns missing, the most that can have promoted.
        missing_pawns: usize,
    },
    /// The pawns stand on files that need more captures than the opponent has
    /// pieces missing.
    ImpossiblePawnStructure {
        /// The side.
        color: Color,
        /// The fewest captures that bring the pawns to their files (`None`: no way at all).
        captures_needed: Option<usize>,
        /// Pieces the opponent has lost.
        captures_available: usize,
    },
    /// The side not to move is in check.
    OppositeCheck {
        /// The side in check.
        color: Color,
    },
    /// More than two pieces give check.
    TooManyCheckers {
        /// How many.
        count: usize,
    },
    /// Two checkers that no move could have produced.
    ImpossibleCheck {
        /// Why.
        why: ImpossibleCheck,
    },
    /// The check does not fit the double pawn push the en passant square says
    /// was the last move.
    CheckWithEnPassant,
    /// A castling right without its king and rook on their squares.
    Castling {
        /// The side.
        color: Color,
        /// The rook's file the right names.
        file: File,
        /// The standard letter, or the Shredder-FEN letter.
        letter: char,
        /// Where the side's king stands, when it has exactly one.
        king: Option<Square>,
        /// Where the king must stand: e1/e8 in standard chess; in Chess960 its
        /// square when on the back rank (`None`: anywhere on the back rank).
        required_king: Option<Square>,
        /// What is wrong, in words.
        problem: CastlingProblem,
    },
    /// The en passant square is not on rank 6 (White to move) or 3 (Black to move).
    EnPassantWrongRank,
    /// No pawn of the side that just moved stands in front of the en passant square.
    EnPassantNoPawn,
    /// The en passant square, or the square the pawn came from, is occupied.
    EnPassantOccupied,
    /// Warning: no pawn can legally capture en passant.
    EnPassantNotCapturable,
    /// Warning: an en passant square with a non-zero halfmove clock (the last move
    /// was a pawn move, which resets it).
    EnPassantWithHalfmoves {
        /// The clock.
        halfmoves: u32,
    },
    /// Warning: more halfmoves since a capture or pawn move than plies played.
    HalfmovesTooLarge {
        /// The clock.
        halfmoves: u32,
        /// The plies the fullmove number allows.
        max: u32,
    },
}

/// What is wrong with a castling right.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingProblem {
    /// The king is not on its castling square (standard: e1/e8; Chess960: the back rank).
    King,
    /// No rook of that side on the named square.
    Rook,
    /// Standard chess castles only with rooks on the a and h files.
    File,
    /// Two rights on the same side of the king.
    SameSide,
}

/// One problem, with the squares involved.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reason {
    /// What is wrong.
    pub kind: ReasonKind,
    /// The squares involved (the kings, the checkers, the pawns, ...).
    pub squares: Bitboard,
}

impl Reason {
    /// Error or warning.
    pub const fn severity(&self) -> Severity {
        match self.kind {
            ReasonKind::EnPassantNotCapturable
            | ReasonKind::EnPassantWithHalfmoves { .. }
            | ReasonKind::HalfmovesTooLarge { .. } => Severity::Warning,
            _ => Severity::Error,
        }
    }

    /// Whether the reason makes the rules unplayable, not only the position
    /// unreachable (see [`Position::from_setup_lenient`]).
    pub const fn breaks_play(&self) -> bool {
        matches!(
            self.kind,
            ReasonKind::EmptyBoard
                | ReasonKind::MissingKing { .. }
                | ReasonKind::TooManyKings { .. }
                | ReasonKind::PawnsOnBackRank
                | ReasonKind::OppositeCheck { .. }
                | ReasonKind::Castling { .. }
                | ReasonKind::EnPassantWrongRank
                | ReasonKind::EnPassantNoPawn
                | ReasonKind::EnPassantOccupied
        )
    }

    /// A stable identifier: `fen:` and a kebab-case name.
    pub const fn code(&self) -> &'static str {
        match self.kind {
            ReasonKind::EmptyBoard => "fen:empty-board",
            ReasonKind::MissingKing { .. } => "fen:missing-king",
            ReasonKind::TooManyKings { .. } => "fen:too-many-kings",
            ReasonKind::PawnsOnBackRank => "fen:pawns-on-back-rank",
            ReasonKind::TooManyPawns { .. } => "fen:too-many-pawns",
            ReasonKind::TooManyPieces { .. } => "fen:too-many-pieces",
            ReasonKind::UnexplainedMaterial { .. } => "fen:unexplained-material",
            ReasonKind::ImpossiblePawnStructure { .. } => "fen:impossible-pawn-structure",
            ReasonKind::OppositeCheck { .. } => "fen:opposite-check",
            ReasonKind::TooManyCheckers { .. } => "fen:too-many-checkers",
            ReasonKind::ImpossibleCheck { .. } => "fen:impossible-check",
            ReasonKind::CheckWithEnPassant => "fen:check-with-en-passant",
            ReasonKind::Castling { .. } => "fen:castling",
            ReasonKind::EnPassantWrongRank => "fen:en-passant-rank",
            ReasonKind::EnPassantNoPawn => "fen:en-passant-no-pawn",
            ReasonKind::EnPassantOccupied => "fen:en-passant-occupied",
            ReasonKind::EnPassantNotCapturable => "fen:en-passant-not-capturable",
            ReasonKind::EnPassantWithHalfmoves { .. } => "fen:en-passant-halfmoves",
            ReasonKind::HalfmovesTooLarge { .. } => "fen:halfmoves-too-large",
        }
    }
}

fn squares_list(squares: Bitboard) -> String {
    let names: Vec<String> = squares.into_iter().map(|sq| sq.to_string()).collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

impl core::fmt::Display for Reason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let on = squares_list(self.squares);
        match &self.kind {
            ReasonKind::EmptyBoard => f.write_str("the board is empty"),
            ReasonKind::MissingKing { color } => write!(f, "{color} has no king"),
            ReasonKind::TooManyKings { color } => {
                write!(f, "{color} has {} kings, on {on}; a side has exactly one", self.squares.count())
            }
            ReasonKind::PawnsOnBackRank => {
                write!(f, "pawns on the first or last rank, on {on}; a pawn there has promoted")
            }
            ReasonKind::TooManyPawns { color, count } => write!(f, "{color} has {count} pawns; at most 8"),
            ReasonKind::TooManyPieces { color, count } => write!(f, "{color} has {count} pieces; at most 16"),
            ReasonKind::UnexplainedMaterial { color, promotions, missing_pawns } => write!(
                f,
                "{color}'s pieces need at least {promotions} {} but only {missing_pawns} {} missing",
                if *promotions == 1 { "promotion" } else { "promotions" },
                if *missing_pawns == 1 { "pawn is" } else { "pawns are" }
            ),
            ReasonKind::ImpossiblePawnStructure { color, captures_needed: Some(needed), captures_available } => write!(
                f,
                "{color}'s pawns need at least {needed} {} to reach their files but {} has lost only {captures_available} {}",
                if *needed == 1 { "capture" } else { "captures" },
                !*color,
                if *captures_available == 1 { "piece" } else { "pieces" }
            ),
            ReasonKind::ImpossiblePawnStructure { color, captures_needed: None, .. } => {
                write!(f, "{color}'s pawns cannot all have come from different files")
            }
            ReasonKind::OppositeCheck { color } => {
                write!(f, "{color} is in check from {on} but it is {}'s turn", !*color)
            }
            ReasonKind::TooManyCheckers { count } => write!(f, "{count} pieces give check, from {on}; at most two can"),
            ReasonKind::ImpossibleCheck { why } => match why {
                ImpossibleCheck::SameLine => write!(f, "impossible double check from {on} along one line"),
                ImpossibleCheck::TwoLeapers => {
                    write!(f, "impossible double check from {on}: neither checker can have been uncovered")
                }
                ImpossibleCheck::NoMove => write!(f, "impossible double check from {on}: no move gives both checks"),
            },
            ReasonKind::CheckWithEnPassant => {
                write!(f, "the check from {on} cannot follow the double pawn push the en passant square implies")
            }
            ReasonKind::Castling { color, letter, king, required_king, problem, file } => {
                let back = Rank::First.relative_to(*color);
                let rook = Square::from_coords(*file, back);
                match problem {
                    CastlingProblem::File => {
                        write!(
                            f,
                            "castling right '{letter}' names the rook on {rook}; standard chess castles only with rooks on a and h"
                        )
                    }
                    CastlingProblem::SameSide => {
                        write!(
                            f,
                            "castling right '{letter}': {color} has two castling rooks on the same side of the king"
                        )
                    }
                    CastlingProblem::King | CastlingProblem::Rook => {
                        let needs = match required_king {
                            Some(square) => format!("needs the {color} king on {square} and a rook on {rook}"),
                            None => format!("needs the {color} king on rank {} and a rook on {rook}", back.char()),
                        };
                        let found = match (problem, king) {
                            (CastlingProblem::King, Some(k)) => format!("found the king on {k}"),
                            (CastlingProblem::King, None) => format!("found no single {color} king"),
                            _ => format!("found no {color} rook on {rook}"),
                        };
                        write!(f, "castling right '{letter}' {needs}; {found}")
                    }
                }
            }
            ReasonKind::EnPassantWrongRank => {
                write!(
                    f,
                    "en passant square {on} is on the wrong rank; it must be on rank 6 with White to move, rank 3 with Black"
                )
            }
            ReasonKind::EnPassantNoPawn => {
                write!(f, "en passant square {on} has no pawn that just made a double step in front of it")
            }
            ReasonKind::EnPassantOccupied => {
                write!(
                    f,
                    "en passant square: {on} must be empty, since a pawn just passed through it from its start square"
                )
            }
            ReasonKind::EnPassantNotCapturable => {
                write!(f, "en passant square {on}, but no pawn can capture there; canonical FEN writes '-'")
            }
            ReasonKind::EnPassantWithHalfmoves { halfmoves } => {
                write!(
                    f,
                    "en passant square with halfmove clock {halfmoves}; the double pawn push just played resets it to 0"
                )
            }
            ReasonKind::HalfmovesTooLarge { halfmoves, max } => {
                write!(f, "halfmove clock {halfmoves} is more than the {max} plies the move number allows")
            }
        }
    }
}

/// The setup is not a legal position: every reason found, errors and warnings
/// (warnings alone never make an error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// All reasons, errors first, each group in the order the checks run.
    pub reasons: Vec<Reason>,
}

impl PositionError {
    /// The reasons that make the position illegal.
    pub fn errors(&self) -> impl Iterator<Item = &Reason> {
        self.reasons.iter().filter(|r| r.severity() == Severity::Error)
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Reason> {
        self.reasons.iter().filter(|r| r.severity() == Severity::Warning)
    }
}

impl core::fmt::Display for PositionError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("illegal position: ")?;
        for (i, reason) in self.errors().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{reason}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PositionError {}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.castling_rights == other.castling_rights
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
            && self.mode == other.mode
            && (self.ep_square == other.ep_square || self.legal_ep_square() == other.legal_ep_square())
    }
}

impl Eq for Position {}

impl core::hash::Hash for Position {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.board.hash(state);
        self.turn.hash(state);
        self.castling_rights.hash(state);
        self.halfmoves.hash(state);
        self.fullmoves.hash(state);
        self.mode.hash(state);
        self.legal_ep_square().hash(state);
    }
}

/// A legal position: one king a side, the side not to move not in check, and the
/// rest of the rules [`Position::from_setup`] checks.
///
/// Two positions are equal (and hash alike) when their canonical FEN and
/// castling mode are: an en passant square no pawn can take is no part of the
/// position, whether a FEN gave it or a double step made it.
///
/// ```
/// use sanfen::{Position, Uci};
///
/// let mut played = Position::default();
/// for uci in ["e2e4", "e7e5"] {
///     played = played.play(uci.parse::<Uci>().unwrap().to_move(&played).unwrap()).unwrap();
/// }
/// // e6, behind the pawn that stepped twice, kept as given: no white pawn takes there
/// assert_eq!(played.ep_square().map(|square| square.to_string()), Some("e6".to_owned()));
/// let read: Position = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".parse().unwrap();
/// assert_eq!(played, read);
/// ```
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling_rights: CastlingRights,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) mode: CastlingMode,
}

impl Default for Position {
    fn default() -> Position {
        Position {
            board: Board::new(),
            turn: Color::White,
            castling_rights: CastlingRights::STANDARD,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            mode: CastlingMode::Standard,
        }
    }
}

impl Position {
    /// Checks a setup and, if no error is found, makes it a position. A
    /// fullmove number of 0 is taken as 1.
    ///
    /// # Errors
    ///
    /// Every reason at once ([`PositionError::reasons`]), when at least one is an
    /// error; warnings alone do not fail (see [`Position::check`] for them).
    pub fn from_setup(setup: Setup, mode: CastlingMode) -> Result<Position, PositionError> {
        Position::accept(setup, mode, |r| r.severity() == Severity::Error)
    }

    /// Makes a position of `setup` unless one of its reasons is `fatal`.
    fn accept(setup: Setup, mode: CastlingMode, fatal: impl Fn(&Reason) -> bool) -> Result<Position, PositionError> {
        let reasons = Position::check(&setup, mode);
        if reasons.iter().any(fatal) {
            return Err(PositionError { reasons });
        }
        Ok(Position {
            board: setup.board,
            turn: setup.turn,
            castling_rights: setup.castling_rights,
            ep_square: setup.ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            mode,
        })
    }

    /// Like [`Position::from_setup`], but accepts positions that no legal game
    /// reaches as long as the rules can be played from them: one king a side,
    /// the side not to move not in check, castling rights with their king and
    /// rook, a consistent en passant square, no pawn on the first or last rank.
    /// Material, pawn structure and check geometry are not judged. For perft
    /// suites and composed problems.
    ///
    /// # Errors
    ///
    /// Every reason at once, when one of those rules is broken.
    pub fn from_setup_lenient(setup: Setup, mode: CastlingMode) -> Result<Position, PositionError> {
        // the en passant square stays even when the check does not fit the push
        // (composed positions): the capture may still block or take the checker
        Position::accept(setup, mode, Reason::breaks_play)
    }

    /// Every reason, errors first, then warnings, that a setup is not a
    /// legal, canonical position. Empty for a clean one.
    pub fn check(setup: &Setup, mode: CastlingMode) -> Vec<Reason> {
        let mut checker = Checker { setup, mode, reasons: Vec::new() };
        checker.run();
        let mut reasons = checker.reasons;
        reasons.sort_by_key(|r| r.severity());
        reasons
    }

    /// The pieces.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The castling rights.
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling_rights
    }

    /// The castling mode the position was checked in.
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// The en passant square as given (it may be that no capture is possible).
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The en passant square, only when some pawn can legally capture there.
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        ep_capturable(&self.board, self.turn, ep).then_some(ep)
    }

    /// The halfmove clock.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The fullmove number (at least 1).
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The king of the side to move.
    pub fn our_king(&self) -> Square {
        self.board.king_of(self.turn).unwrap_or(Square::A1)
    }

    /// The pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        self.board.attackers_to(self.our_king(), !self.turn, self.board.occupied())
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// The record, with the en passant square as given.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            turn: self.turn,
            castling_rights: self.castling_rights,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The record as canonical FEN writes it: the en passant square only when a
    /// capture there is legal.
    pub fn to_canonical_setup(&self) -> Setup {
        Setup { ep_square: self.legal_ep_square(), ..self.to_setup() }
    }
}

/// Whether a pawn of `turn` can legally capture en passant on `ep`, assuming
/// the pawn that just moved stands in front of it.
pub(crate) fn ep_capturable(board: &Board, turn: Color, ep: Square) -> bool {
    let Some(captured) = ep.step(0, turn.fold(-1, 1)) else { return false };
    let Some(king) = board.king_of(turn) else { return false };
    let capturers = attacks::pawn_attacks(!turn, ep) & board.by_piece(Piece { color: turn, role: Role::Pawn });
    capturers.into_iter().any(|from| {
        let occupied = (board.occupied() - from - captured).with(ep);
        let them = board.by_color(!turn) - captured;
        let sliders = (attacks::rook_attacks(king, occupied) & board.rooks_and_queens())
            | (attacks::bishop_attacks(king, occupied) & board.bishops_and_queens());
        let others = (attacks::knight_attacks(king) & board.by_role(Role::Knight))
            | (attacks::pawn_attacks(turn, king) & board.by_role(Role::Pawn))
            | (attacks::king_attacks(king) & board.by_role(Role::King));
        ((sliders | others) & them).is_empty()
    })
}

struct Checker<'a> {
    setup: &'a Setup,
    mode: CastlingMode,
    reasons: Vec<Reason>,
}

impl Checker<'_> {
    fn push(&mut self, kind: ReasonKind, squares: Bitboard) {
        self.reasons.push(Reason { kind, squares });
    }

    fn run(&mut self) {
        let board = &self.setup.board;
        if board.occupied().is_empty() {
            self.push(ReasonKind::EmptyBoard, Bitboard::EMPTY);
        }
        for color in Color::ALL {
            let kings = board.by_piece(Piece { color, role: Role::King });
            if kings.is_empty() {
                self.push(ReasonKind::MissingKing { color }, Bitboard::EMPTY);
            } else if kings.more_than_one() {
                self.push(ReasonKind::TooManyKings { color }, kings);
            }
        }
        let back_pawns = board.by_role(Role::Pawn) & Bitboard::BACKRANKS;
        if back_pawns.any() {
            self.push(ReasonKind::PawnsOnBackRank, back_pawns);
        }
        self.material();
        self.castling();
        let ep_ok = self.en_passant();
        self.checks(ep_ok);
        self.clocks();
    }

    fn material(&mut self) {
        let board = &self.setup.board;
        let mut counts = ByColor::new_with(|_| 0);
        let mut pawn_counts = ByColor::new_with(|_| 0);
        for color in Color::ALL {
            let ours = board.by_color(color);
            counts[color] = ours.count();
            let pawns = (ours & board.by_role(Role::Pawn)).count();
            pawn_counts[color] = pawns;
            if pawns > 8 {
                self.push(ReasonKind::TooManyPawns { color, count: pawns }, ours & board.by_role(Role::Pawn));
            }
            if counts[color] > 16 {
                self.push(ReasonKind::TooManyPieces { color, count: counts[color] }, ours);
            }
            let bishops = ours & board.by_role(Role::Bishop);
            let queens = ours & board.by_role(Role::Queen);
            let rooks = ours & board.by_role(Role::Rook);
            let knights = ours & board.by_role(Role::Knight);
            // the common case, no more of any kind than at the start, needs no counting
            if !queens.more_than_one()
                && !rooks.more_than_two()
                && !knights.more_than_two()
                && !(bishops & Bitboard::LIGHT_SQUARES).more_than_one()
                && !(bishops & Bitboard::DARK_SQUARES).more_than_one()
            {
                continue;
            }
            let extra = |bb: Bitboard, initial: usize| bb.count().saturating_sub(initial);
            let promotions = extra(queens, 1)
                + extra(rooks, 2)
                + extra(knights, 2)
                + extra(bishops & Bitboard::LIGHT_SQUARES, 1)
                + extra(bishops & Bitboard::DARK_SQUARES, 1);
            let missing_pawns = 8usize.saturating_sub(pawns);
            if promotions > missing_pawns {
                let pieces = ours - board.by_role(Role::Pawn) - board.by_role(Role::King);
                self.push(ReasonKind::UnexplainedMaterial { color, promotions, missing_pawns }, pieces);
            }
        }
        for color in Color::ALL {
            if pawn_counts[color] > 8 {
                continue;
            }
            let pawns = board.by_piece(Piece { color, role: Role::Pawn }) - Bitboard::BACKRANKS;
            if pawns.is_empty() {
                continue;
            }
            let captures_available = 16usize.saturating_sub(counts[!color]);
            let needed = pawn_captures_needed(pawns, color, captures_available);
            if needed.is_none_or(|n| n > captures_available) {
                self.push(
                    ReasonKind::ImpossiblePawnStructure { color, captures_needed: needed, captures_available },
                    pawns,
                );
            }
        }
    }

    fn castling(&mut self) {
        let setup = self.setup;
        let board = &setup.board;
        for color in Color::ALL {
            let back = Rank::First.relative_to(color);
            let kings = board.by_piece(Piece { color, role: Role::King });
            let king = kings.single_square().filter(|k| k.rank() == back);
            let rooks = board.by_piece(Piece { color, role: Role::Rook });
            let mut sides_used = [false; 2];
            for file in setup.castling_rights.files(color) {
                let rook = Square::from_coords(file, back);
                let problem = match self.mode {
                    CastlingMode::Standard => {
                        if file != File::A && file != File::H {
                            Some(CastlingProblem::File)
                        } else if king != Some(Square::from_coords(File::E, back)) {
                            Some(CastlingProblem::King)
                        } else if !rooks.contains(rook) {
                            Some(CastlingProblem::Rook)
                        } else {
                            None
                        }
                    }
                    CastlingMode::Chess960 => match king {
                        None => Some(CastlingProblem::King),
                        Some(k) if !rooks.contains(rook) || k.file() == file => Some(CastlingProblem::Rook),
                        Some(k) => {
                            let side = usize::from(file > k.file());
                            if sides_used[side] {
                                Some(CastlingProblem::SameSide)
                            } else {
                                sides_used[side] = true;
                                None
                            }
                        }
                    },
                };
                if let Some(problem) = problem {
                    let letter = castling_letter(board, color, file, self.mode);
                    let king_reported = kings.single_square();
                    let squares = kings | (Bitboard::from(rook) & board.occupied());
                    let required_king = match self.mode {
                        CastlingMode::Standard => Some(Square::from_coords(File::E, back)),
                        CastlingMode::Chess960 => king,
                    };
                    self.push(
                        ReasonKind::Castling { color, file, letter, king: king_reported, required_king, problem },
                        squares,
                    );
                }
            }
        }
    }

    /// Checks the en passant square; true when it is consistent (or absent).
    fn en_passant(&mut self) -> bool {
        let setup = self.setup;
        let Some(ep) = setup.ep_square else { return true };
        let turn = setup.turn;
        if ep.rank() != Rank::Sixth.relative_to(turn) {
            self.push(ReasonKind::EnPassantWrongRank, Bitboard::from(ep));
            return false;
        }
        let board = &setup.board;
        let pushed = ep.step(0, turn.fold(-1, 1)).expect("rank 3 or 6 has a square on each side");
        let origin = ep.step(0, turn.fold(1, -1)).expect("rank 3 or 6 has a square on each side");
        let mut ok = true;
        if board.piece_at(pushed) != Some(Piece { color: !turn, role: Role::Pawn }) {
            self.push(ReasonKind::EnPassantNoPawn, Bitboard::from(ep));
            ok = false;
        }
        let occupied = (Bitboard::from(ep) | origin) & board.occupied();
        if occupied.any() {
            self.push(ReasonKind::EnPassantOccupied, occupied);
            ok = false;
        }
        if setup.halfmoves != 0 {
            self.push(ReasonKind::EnPassantWithHalfmoves { halfmoves: setup.halfmoves }, Bitboard::from(ep));
        }
        if ok && board.king_of(turn).is_some() && !ep_capturable(board, turn, ep) {
            self.push(ReasonKind::EnPassantNotCapturable, Bitboard::from(ep));
        }
        ok
    }

    fn checks(&mut self, ep_ok: bool) {
        let setup = self.setup;
        let board = &setup.board;
        let turn = setup.turn;
        let occupied = board.occupied();
        if let Some(their_king) = board.king_of(!turn) {
            let attackers = board.attackers_to(their_king, turn, occupied);
            if attackers.any() {
                self.push(ReasonKind::OppositeCheck { color: !turn }, attackers);
            }
        }
        let Some(king) = board.king_of(turn) else { return };
        let checkers = board.attackers_to(king, !turn, occupied);
        if checkers.count() > 2 {
            self.push(ReasonKind::TooManyCheckers { count: checkers.count() }, checkers);
            return;
        }
        if let (Some(ep), true) = (setup.ep_square, ep_ok)
            && checkers.any()
        {
            let pushed = ep.step(0, turn.fold(-1, 1)).expect("checked rank");
            let origin = ep.step(0, turn.fold(1, -1)).expect("checked rank");
            let before = (occupied - pushed).with(origin);
            let consistent = match checkers.single_square() {
                Some(checker) if checker == pushed => true,
                // a check the push uncovered: the checker did not attack the king before
                Some(checker) => !board.attackers_to(king, !turn, before).contains(checker),
                None => false,
            };
            if !consistent {
                self.push(ReasonKind::CheckWithEnPassant, checkers);
            }
            return;
        }
        if checkers.count() == 2
            && let Some(why) = impossible_double_check(board, king, checkers, !turn)
        {
            self.push(ReasonKind::ImpossibleCheck { why }, checkers);
        }
    }

    fn clocks(&mut self) {
        let setup = self.setup;
        // (in u64: twice a move number above 2^31 is more than a u32 holds)
        let max = 2 * u64::from(setup.fullmoves.max(1) - 1) + u64::from(setup.turn == Color::Black);
        if u64::from(setup.halfmoves) > max {
            // (then less than the halfmoves, a u32)
            let max = u32::try_from(max).unwrap_or(u32::MAX);
            self.push(ReasonKind::HalfmovesTooLarge { halfmoves: setup.halfmoves, max }, Bitboard::EMPTY);
        }
    }
}

/// The letter canonical FEN uses for a right: `K`/`Q` (`k`/`q`) for the
/// outermost rook on its side of the king, else the Shredder-FEN file letter.
pub(crate) fn castling_letter(board: &Board, color: Color, file: File, mode: CastlingMode) -> char {
    let back = Rank::First.relative_to(color);
    let letter = match mode {
        CastlingMode::Standard => match file {
            File::H => Some('K'),
            File::A => Some('Q'),
            _ => None,
        },
        CastlingMode::Chess960 => {
            let king = board.by_piece(Piece { color, role: Role::King }).single_square().filter(|k| k.rank() == back);
            let rooks = board.by_piece(Piece { color, role: Role::Rook }) & Bitboard::from_rank(back);
            match king {
                Some(k) if file > k.file() => {
                    let outer = rooks.into_iter().rev().find(|r| r.file() > k.file());
                    (outer.map(Square::file) == Some(file)).then_some('K')
                }
                Some(k) if file < k.file() => {
                    let outer = rooks.into_iter().find(|r| r.file() < k.file());
                    (outer.map(Square::file) == Some(file)).then_some('Q')
                }
                _ => None,
            }
        }
    };
    let letter = letter.unwrap_or(file.upper_char());
    if color.is_white() { letter } else { letter.to_ascii_lowercase() }
}

/// The fewest pawn captures that bring `pawns` (of `color`) from distinct start
/// files to where they stand, each pawn having made at most as many captures as
/// ranks advanced past its second rank; `None` when no assignment exists.
fn pawn_captures_needed(pawns: Bitboard, color: Color, budget: usize) -> Option<usize> {
    // every square above a pawn, on its file
    let mut above = pawns.0 << 8;
    above |= above << 8;
    above |= above << 16;
    above |= above << 32;
    if pawns.0 & above == 0 {
        return Some(0); // each pawn on its own file: no capture needed
    }
    // each pawn: (file, the most captures it can have made)
    let mut list = [(0i32, 0i32); 8];
    let mut n = 0;
    for sq in pawns {
        list[n] = (sq.file() as i32, sq.rank().relative_to(color) as i32 - 1);
        n += 1;
    }
    let list = &mut list[..n];
    list.sort_unstable();
    // Fast path: the cheapest order-preserving assignment, which is optimal when feasible.
    if let Some(cost) = monotone_assignment(list)
        && cost <= budget
    {
        return Some(cost);
    }
    // Exact: dynamic programming over the sets of start files used, keeping only
    // the sets reachable so far (each with its cheapest cost).
    let mut best = [u8::MAX; 256];
    let mut states: Vec<u8> = vec![0];
    best[0] = 0;
    for &(file, reach) in list.iter() {
        let mut next_states = Vec::with_capacity(states.len() * 3);
        let mut next = [u8::MAX; 256];
        for &mask in &states {
            for start in (file - reach).max(0)..=(file + reach).min(7) {
                if mask & (1 << start) == 0 {
                    let cost = best[usize::from(mask)] + (file - start).unsigned_abs() as u8;
                    let target = mask | 1 << start;
                    let slot = &mut next[usize::from(target)];
                    if *slot == u8::MAX {
                        next_states.push(target);
                    }
                    *slot = (*slot).min(cost);
                }
            }
        }
        best = next;
        states = next_states;
    }
    states.iter().map(|&mask| usize::from(best[usize::from(mask)])).min()
}

/// The cheapest assignment of pawns (sorted by file) to increasing start files
/// within each pawn's reach, if one exists.
fn monotone_assignment(pawns: &[(i32, i32)]) -> Option<usize> {
    // cost[j]: cheapest for the pawns so far with the last one on start file < j
    let mut cost = [Some(0usize); 9];
    for &(file, reach) in pawns {
        let mut next: [Option<usize>; 9] = [None; 9];
        for start in 0..8usize {
            let fits = (file - start as i32).abs() <= reach;
            let here = if fits { cost[start].map(|c| c + (file - start as i32).unsigned_abs() as usize) } else { None };
            next[start + 1] = match (next[start], here) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        cost = next;
    }
    cost[8]
}

fn is_slider(role: Role) -> bool {
    matches!(role, Role::Bishop | Role::Rook | Role::Queen)
}

/// Whether a double check on `king` by `checkers` (of `attacker`) can follow a
/// move; `Some(why)` when it cannot.
fn impossible_double_check(
    board: &Board,
    king: Square,
    checkers: Bitboard,
    attacker: Color,
) -> Option<ImpossibleCheck> {
    let mut it = checkers.into_iter();
    let (a, b) = (it.next()?, it.next()?);
    let role = |sq: Square| board.piece_at(sq).map_or(Role::King, |p| p.role);
    if !is_slider(role(a)) && !is_slider(role(b)) {
        return Some(ImpossibleCheck::TwoLeapers);
    }
    if is_slider(role(a)) && is_slider(role(b)) && ray(a, b).contains(king) {
        return Some(ImpossibleCheck::SameLine);
    }
    // One checker (the mover) came from a square on the other's (a slider's) line
    // to the king, uncovering it; or an en passant capture uncovered a line.
    let possible = |mover: Square, uncovered: Square| {
        is_slider(role(uncovered))
            && between(uncovered, king)
                .into_iter()
                .any(|from| could_have_moved(board, attacker, from, mover, role(mover)))
    };
    if possible(a, b) || possible(b, a) || en_passant_double_check(board, king, a, b, attacker) {
        None
    } else {
        Some(ImpossibleCheck::NoMove)
    }
}

/// Whether a piece of `role` (of `color`) can have moved from `from` to `to` in
/// one move on this board (with `from` now empty); promotions included.
fn could_have_moved(board: &Board, color: Color, from: Square, to: Square, role: Role) -> bool {
    let occupied = board.occupied() - to;
    let promotion_rank = Rank::Eighth.relative_to(color);
    let pawn_could = |from: Square| {
        let forward = color.fold(1, -1);
        let df = to.file() as i32 - from.file() as i32;
        let dr = to.rank() as i32 - from.rank() as i32;
        let start = Rank::Second.relative_to(color);
        (df.abs() <= 1 && dr == forward)
            || (df == 0
                && dr == 2 * forward
                && from.rank() == start
                && !occupied.contains(from.step(0, forward).unwrap_or(from)))
    };
    match role {
        Role::Pawn => pawn_could(from),
        // a piece on the last rank may be a pawn that just promoted
        _ if to.rank() == promotion_rank && from.rank() == Rank::Seventh.relative_to(color) && pawn_could(from) => true,
        Role::King => false,
        _ => attacks::attacks(from, Piece { color, role }, occupied).contains(to),
    }
}

/// Whether an en passant capture explains a double check: the capturing pawn
/// (one checker, or an uncovered slider) and the captured pawn's square opening
/// lines.
fn en_passant_double_check(board: &Board, king: Square, a: Square, b: Square, attacker: Color) -> bool {
    let pawn = Piece { color: attacker, role: Role::Pawn };
    let ep_rank = Rank::Sixth.relative_to(attacker);
    // the capturing pawn now stands on the en passant square
    board.by_piece(pawn).into_iter().filter(|sq| sq.rank() == ep_rank).any(|to| {
        let captured = to.step(0, attacker.fold(-1, 1)).expect("rank 3 or 6");
        if board.occupied().contains(captured) {
            return false;
        }
        [-1, 1].into_iter().filter_map(|df| captured.step(df, 0)).any(|from| {
            if board.occupied().contains(from) {
                return false;
            }
            let before = board.occupied().with(from).with(captured) - to;
            // every checker must be new: not attacking the king before the capture
            let old = board.attackers_to(king, attacker, before);
            !old.contains(a) && !old.contains(b)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reasons(fen: &str) -> Vec<(&'static str, Vec<String>)> {
        reasons_in(fen, CastlingMode::Standard)
    }

    fn reasons_in(fen: &str, mode: CastlingMode) -> Vec<(&'static str, Vec<String>)> {
        let setup = crate::Fen::parse(fen, mode).expect("syntax").setup;
        Position::check(&setup, mode)
            .iter()
            .map(|r| (r.code(), r.squares.into_iter().map(|s| s.to_string()).collect()))
            .collect()
    }

    fn codes(fen: &str) -> Vec<&'static str> {
        reasons(fen).into_iter().map(|(c, _)| c).collect()
    }

    #[test]
    fn clean_positions() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/8/8/8/8/K6k b - - 99 50",
        ] {
            assert_eq!(reasons(fen), vec![], "{fen}");
        }
    }

    #[test]
    fn each_reason_alone() {
        type Expected<'a> = &'a [(&'a str, &'a [&'a str])];
        let table: &[(&str, Expected)] = &[
            (
                "8/8/8/8/8/8/8/8 w - - 0 1",
                &[("fen:empty-board", &[]), ("fen:missing-king", &[]), ("fen:missing-king", &[])],
            ),
            ("k7/8/8/8/8/8/8/6KK w - - 0 1", &[("fen:too-many-kings", &["g1", "h1"])]),
            ("k7/8/8/8/8/8/8/P6K w - - 0 1", &[("fen:pawns-on-back-rank", &["a1"])]),
            (
                "k7/8/8/8/8/PPPPPPPP/P7/7K w - - 0 1",
                &[("fen:too-many-pawns", &["a2", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3"])],
            ),
            ("6k1/8/8/8/8/8/8/QQQQK3 w - - 0 1", &[]),
            ("k7/8/8/8/8/8/PPPPPPPP/QQK5 w - - 0 1", &[("fen:unexplained-material", &["a1", "b1"])]),
            (
                "k7/8/8/8/NNNNNNNN/PPPPPPPP/8/K7 w - - 0 1",
                &[
                    (
                        "fen:too-many-pieces",
                        &[
                            "a1", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4",
                            "g4", "h4",
                        ],
                    ),
                    ("fen:unexplained-material", &["a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4"]),
                ],
            ),
            ("k7/8/8/8/8/8/PPPPPPP1/BB5K w - - 0 1", &[]),
            ("k7/8/8/8/8/8/PPPPPPP1/B1B4K w - - 0 1", &[]),
            ("k7/8/8/8/8/8/PPPPPPPP/B1B4K w - - 0 1", &[("fen:unexplained-material", &["a1", "c1"])]),
            (
                "rnbqkbnr/pppppppp/8/8/8/P7/P1PPPPPP/RNBQKBNR w KQkq - 0 1",
                &[("fen:impossible-pawn-structure", &["a2", "c2", "d2", "e2", "f2", "g2", "h2", "a3"])],
            ),
            ("k7/8/8/8/8/8/8/K6r b - - 0 1", &[("fen:opposite-check", &["h1"])]),
            ("8/8/8/8/8/8/8/Kk6 w - - 0 1", &[("fen:opposite-check", &["a1"])]),
            ("k7/8/8/8/8/8/8/K6q b - - 0 1", &[("fen:opposite-check", &["h1"])]),
            ("4k3/8/8/8/8/3n1n2/8/r3K3 w - - 0 1", &[("fen:too-many-checkers", &["a1", "d3", "f3"])]),
            ("8/8/N7/2k5/N7/8/8/3K4 b - - 0 1", &[("fen:impossible-check", &["a4", "a6"])]),
            ("4k3/8/8/8/8/8/8/r3K2r w - - 0 1", &[("fen:impossible-check", &["a1", "h1"])]),
            ("4k3/4r3/8/8/8/8/8/r3K3 w - - 0 1", &[("fen:impossible-check", &["a1", "e7"])]),
            ("4k3/8/8/8/8/3n4/8/r3K3 w - - 0 1", &[]),
            ("4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &[("fen:castling", &["e8"]), ("fen:castling", &["e8"])]),
            ("5k2/8/8/8/8/8/8/4K2R w Kk - 0 1", &[("fen:castling", &["f8"])]),
            ("4k3/8/8/8/8/8/8/4KR2 w F - 0 1", &[("fen:castling", &["e1", "f1"])]),
            ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", &[("fen:en-passant-no-pawn", &["e6"])]),
            ("4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1", &[("fen:en-passant-rank", &["e3"])]),
            ("4k3/4n3/8/4p3/8/8/8/4K3 w - e6 0 1", &[("fen:en-passant-occupied", &["e7"])]),
            ("4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1", &[("fen:en-passant-not-capturable", &["e6"])]),
            ("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 1 2", &[("fen:en-passant-halfmoves", &["e6"])]),
            ("4k3/8/8/8/8/8/8/4K3 w - - 10 3", &[("fen:halfmoves-too-large", &[])]),
            ("4k3/8/8/8/8/8/8/4K3 b - - 5 3", &[]),
            // move numbers whose plies a u32 does not hold
            ("4k3/8/8/8/8/8/8/4K3 w - - 100 2147483649", &[]),
            ("4k3/8/8/8/8/8/8/4K3 w - - 4294967295 4294967295", &[]),
            ("4k3/8/8/8/8/8/8/4K3 b - - 4294967295 2147483648", &[]),
            ("4k3/8/8/8/8/8/8/4K3 w - - 4294967295 2147483648", &[("fen:halfmoves-too-large", &[])]),
        ];
        for (fen, expected) in table {
            let expected: Vec<(&str, Vec<String>)> =
                expected.iter().map(|(c, sq)| (*c, sq.iter().map(|s| s.to_string()).collect())).collect();
            assert_eq!(reasons(fen), expected, "{fen}");
        }
    }

    #[test]
    fn double_checks_that_a_move_explains() {
        for fen in [
            // the knight left e5 for d3, uncovering the rook on e8
            "4r1k1/8/8/8/8/3n4/8/4K3 w - - 0 1",
            // the bishop left e7 for b4
            "4r1k1/8/8/8/1b6/8/8/4K3 w - - 0 1",
            // the pawn captured d3xe2, uncovering the rook on d8
            "3r2k1/8/8/8/8/8/4p3/3K4 w - - 0 1",
            // e5xd6 en passant emptied e5 and d5: rook and bishop both uncovered
            "B3R3/8/3P4/8/4k3/8/8/7K b - - 0 1",
        ] {
            assert_eq!(codes(fen), Vec::<&str>::new(), "{fen}");
        }
    }

    #[test]
    fn check_and_en_passant() {
        // the pushed pawn gives check: fine
        assert_eq!(codes("8/8/8/3k4/4P3/8/8/4K3 b - e3 0 1"), ["fen:en-passant-not-capturable"]);
        // a rook check that was there before the push
        assert_eq!(
            codes("8/8/8/3k4/4P3/8/8/3RK3 b - e3 0 1"),
            ["fen:check-with-en-passant", "fen:en-passant-not-capturable"]
        );
    }

    #[test]
    fn chess960_rights() {
        let mode = CastlingMode::Chess960;
        assert_eq!(reasons_in("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", mode), vec![]);
        assert_eq!(
            reasons_in("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CastlingMode::Standard)
                .into_iter()
                .map(|(c, _)| c)
                .collect::<Vec<_>>(),
            ["fen:castling"; 4]
        );
        let two_same_side = reasons_in("1r2k1rr/8/8/8/8/8/8/4K3 w gh - 0 1", mode);
        assert_eq!(two_same_side, [("fen:castling", vec!["e8".to_owned(), "h8".to_owned()])]);
    }

    #[test]
    fn messages() {
        let setup = crate::Fen::parse("5k2/8/8/8/8/8/8/4K2R w Kk - 0 1", CastlingMode::Standard).unwrap().setup;
        let reasons = Position::check(&setup, CastlingMode::Standard);
        assert_eq!(
            reasons[0].to_string(),
            "castling right 'k' needs the black king on e8 and a rook on h8; found the king on f8"
        );
        let setup = crate::Fen::parse("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", CastlingMode::Standard).unwrap().setup;
        assert_eq!(
            Position::check(&setup, CastlingMode::Standard)[0].to_string(),
            "castling right 'K' needs the white king on e1 and a rook on h1; found no white rook on h1"
        );
    }

    #[test]
    fn legal_en_passant_square() {
        let setup = crate::Fen::parse("8/8/8/KPp4r/8/8/8/7k w - c6 0 2", CastlingMode::Standard).unwrap().setup;
        let pos = Position::from_setup(setup, CastlingMode::Standard).unwrap();
        assert_eq!(pos.ep_square(), Some(Square::C6));
        // the capture would expose the king along the rank
        assert_eq!(pos.legal_ep_square(), None);
    }
}
