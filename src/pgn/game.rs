//! Games as values: [`read_games`] reads PGN into owned [`Game`]s (tags,
//! the starting position, the moves as a tree with their comments, NAGs and
//! comment commands, the result, and the validator's findings), and
//! [`Game::to_pgn`] writes one back.
//!
//! ```
//! use sanfen::pgn::read_games;
//!
//! let pgn = "[White \"A\"]\n[Black \"B\"]\n\n\
//!            1. e4 { [%clk 0:03:00] [%eval 0.25] } 1... e5 { [%clk 0:02:58] [%eval #-3] } 2. Qh5?! 1-0\n";
//! for game in read_games(pgn.as_bytes()) {
//!     let game = game?;
//!     for node in &game.mainline.moves {
//!         println!("{} {:?} {:?}", node.san, node.clock(), node.eval().map(|eval| eval.score));
//!     }
//!     assert_eq!(game.mainline.moves[1].clock().unwrap().as_secs(), 178);
//!     assert_eq!(game.mainline.moves[2].nags, [6]);
//!     print!("{}", game.to_pgn());
//! }
//! # Ok::<(), sanfen::pgn::ReadError>(())
//! ```
//!
//! # The tree
//!
//! A [`Line`] is the mainline or a variation: the comments and NAGs before
//! its first move, then its moves. Each [`Node`] holds a move and what
//! follows it: its NAGs, its comments, and the variations that replace it
//! (each a [`Line`] that starts from the position before the move). A comment
//! after a variation belongs to the move the variation replaces, as
//! python-chess reads it (it is written back before the variations).
//!
//! Every move is validated as `sanfen check` validates it (the same
//! [`Validator`] reads the game, and [`Game::report`] is its report). A line
//! holds its moves up to the first one that cannot be played: that move, the
//! rest of its line and what hangs from them (a variation right after it,
//! which the validator still plays as its alternative, included) are not in
//! the tree, and the report says what is wrong and where. A game whose start
//! cannot be played (a variant sanfen does not play, a `FEN` tag that is no
//! position) has no moves and no [`Game::start`].
//!
//! # Text outside the moves
//!
//! Comments before the first move are the mainline's
//! ([`Line::comments`]); comments after the termination marker are
//! [`Game::after_result`]; comments and `%` escape lines between two games
//! are the next game's [`Game::before`], or, after the last game, the last
//! game's [`Game::after`]. `%` escape lines inside a game are
//! [`Game::escapes`], comments among its tags [`Game::tag_comments`].
//! [`Game::to_pgn`] writes all of them back (escape lines after the tags,
//! comments among them after the tag they came after, or before the last
//! tag when they came after it). Text in an input that holds no game at all
//! belongs to no game, and [`read_games`] gives nothing for it.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::io::{self, Read};

use crate::Severity;
use crate::notation::Notation;
use crate::pgn::chunk::Chunk;
use crate::pgn::chunk::{Chunker, TooLargeGame};
use crate::pgn::commands::{Comment, Eval};
use crate::pgn::input::Compression;
use crate::pgn::input::{Input, InputError};
use crate::pgn::parallel::ChunkWork;
use crate::pgn::parallel::Ordered;
use crate::pgn::reader::{Location, RawText, Reader, ResultToken, Skip, SyntaxError, Visitor, decode_text};
use crate::pgn::validate::{Finding, GameReport, MAX_FINDINGS, Options, Validator};
use crate::san::{Letters, SanPlus};
use crate::{Color, Move, Position, Uci};
pub use thin_vec::ThinVec;

/// A game read from PGN (see the [module](self)). Not to be confused with
/// [`crate::Game`], a game being played (move history, repetitions, undo).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Where the game starts in the input (its first tag or token).
    pub at: Location,
    /// Where the game ends in the input: just after its last token, tag or
    /// comment (those after its termination marker on that line included,
    /// [`Game::after_result`]). The game's own text is the bytes from
    /// [`Game::at`] to here; what lies between it and the next game is not
    /// its own.
    pub end: Location,
    /// Comments (as written, `{...}` or `;...`) and `%` escape lines between
    /// the game before and this one, in input order.
    pub before: Vec<String>,
    /// The tags, in input order, values decoded (escapes undone; UTF-8, or
    /// Windows-1252 when the bytes are not UTF-8: [`decode_text`]).
    pub tags: Vec<Tag>,
    /// The `%` escape lines inside the game, as written.
    pub escapes: Vec<String>,
    /// The comments among the tags (a tag comes after each), as written
    /// (`;text`, `{text}`, each on one line), each with the number of
    /// [`Game::tags`] before it.
    pub tag_comments: Vec<(usize, String)>,
    /// The position the game starts from (the `FEN` and `Variant` tags;
    /// Chess960 castling where they say so), or `None` when its moves are
    /// not played.
    pub start: Option<Position>,
    /// The mainline, and the variations hanging from it.
    pub mainline: Line,
    /// The termination marker, when the movetext has one.
    pub result: Option<ResultToken>,
    /// Comments after the termination marker, as written.
    pub after_result: Vec<String>,
    /// For the last game of an input: the comments and `%` escape lines after
    /// it, as written.
    pub after: Vec<String>,
    /// What the validator says: the findings with their locations, their
    /// counts, the moves played.
    pub report: GameReport,
}

/// A tag pair.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tag {
    /// The name.
    pub name: String,
    /// The value, decoded.
    pub value: String,
}

/// Each tag name of `tags` once, where it first is, with the last value given
/// to it: the tags as read when a name given twice (`pgn:duplicate-tag`)
/// takes its last value. (Names are looked up as the reader does, in time
/// linear in their number.)
pub fn distinct_tags(tags: &[Tag]) -> Vec<(&str, &str)> {
    let mut distinct: Vec<(&str, &str)> = Vec::with_capacity(tags.len());
    let mut positions = super::reader::TagNames::default();
    for tag in tags {
        let (name, value) = (tag.name.as_str(), tag.value.as_str());
        // (fewer than 2^32 tags: each takes 48 bytes, a game read 8 MiB at most)
        match positions.insert(name.as_bytes(), distinct.len() as u32) {
            Some(first) => distinct[first as usize].1 = value,
            None => distinct.push((name, value)),
        }
    }
    distinct
}

/// A line of play: the mainline or a variation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The comments before the first move.
    pub comments: ThinVec<Comment>,
    /// The NAGs before the first move.
    pub nags: ThinVec<u8>,
    /// The moves.
    pub moves: Vec<Node>,
}

/// A move of a line, and what follows it. Its NAGs, comments and
/// variations are [`ThinVec`]s (a pointer each, nothing allocated when
/// empty, as they are for most moves): a node takes 96 bytes, its written
/// text beside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move; `None` for a null move (`--`, `Z0`).
    pub played: Option<Move>,
    /// The move in canonical SAN, with its check mark (no annotation: an
    /// annotation written with the move is the first of [`Node::nags`]).
    pub san: SanPlus,
    /// The move in UCI (castling king to rook in Chess960 games); `None` for
    /// a null move (UCI writes `0000`).
    pub uci: Option<Uci>,
    /// The token as written (`Ng1f3!?`).
    pub written: String,
    /// Where the token is.
    pub at: Location,
    /// The move number.
    pub number: u32,
    /// The side that moves.
    pub side: Color,
    /// Half-moves from the game's start along the line, this one included.
    pub ply: u32,
    /// The NAGs after the move, an annotation glued to the move (`Nf3!?`,
    /// NAG 5) first.
    pub nags: ThinVec<u8>,
    /// The comments after the move (and after its variations).
    pub comments: ThinVec<Comment>,
    /// The variations that replace the move, in order.
    pub variations: ThinVec<Line>,
}

impl Node {
    /// The first clock (`[%clk ...]`) in the move's comments.
    pub fn clock(&self) -> Option<std::time::Duration> {
        self.comments.iter().find_map(Comment::clock)
    }

    /// The first elapsed move time (`[%emt ...]`) in the move's comments.
    pub fn elapsed(&self) -> Option<std::time::Duration> {
        self.comments.iter().find_map(Comment::elapsed)
    }

    /// The first evaluation (`[%eval ...]`) in the move's comments.
    pub fn eval(&self) -> Option<Eval> {
        self.comments.iter().find_map(Comment::eval)
    }

    /// The move in UCI: [`Node::uci`], or `0000` for a null move.
    pub fn uci_text(&self) -> String {
        crate::moves::uci_text(self.uci)
    }
}

impl Game {
    /// A game at `at` with nothing in it yet.
    fn empty(at: Location) -> Game {
        Game {
            at,
            end: at,
            before: Vec::new(),
            tags: Vec::new(),
            escapes: Vec::new(),
            tag_comments: Vec::new(),
            start: None,
            mainline: Line::default(),
            result: None,
            after_result: Vec::new(),
            after: Vec::new(),
            report: GameReport::default(),
        }
    }

    /// How the position after the mainline's last move ends the game, by
    /// the rules of play (checkmate, stalemate, insufficient material,
    /// fivefold repetition, the seventy-five-move rule); `None` when it does
    /// not (resignation, time and agreement are for the tags to say), when
    /// the moves are not played, or when the mainline holds a null move.
    pub fn end(&self) -> Option<crate::game::GameEnd> {
        let start = self.start.as_ref()?;
        let moves = &self.mainline.moves;
        if moves.iter().any(|node| node.played.is_none()) {
            return None;
        }
        // (the mainline's moves were checked as they were read)
        crate::game::end_of_legal_line(start, moves.iter().filter_map(|node| node.played))
    }

    /// The opening of the mainline: its deepest position that lichess's
    /// chess-openings names ([`crate::openings::opening_of_game`]); `None`
    /// when none is named, or the moves are not played.
    #[cfg(feature = "openings")]
    pub fn opening(&self) -> Option<crate::openings::GameOpening> {
        let start = self.start.as_ref()?;
        // (the mainline's moves were checked as they were read)
        crate::openings::opening_of_legal_game(start, self.mainline.moves.iter().map_while(|node| node.played))
    }

    /// The value of the tag of this name; of the last one when the game has
    /// several (`pgn:duplicate-tag`): the value the game is checked with, as
    /// python-chess reads it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().rev().find(|tag| tag.name == name).map(|tag| tag.value.as_str())
    }

    /// The game as PGN: the text before it, the tags in their order, the
    /// escape lines, a blank line, the movetext (canonical SAN with move
    /// numbers, NAGs as `$n`, comments as written with their commands,
    /// variations, the termination marker, `*` when the game has none, and
    /// the comments after it), and the text after it; lines of movetext
    /// wrapped at [`crate::pgn::format::MAX_WIDTH`] as the formatter wraps
    /// them. Reading it gives the same game (but for its locations and lint
    /// findings).
    ///
    /// ```
    /// use sanfen::pgn::Game;
    ///
    /// let game = Game::from_pgn("1.e4 e5 2.Nf3 {[%clk 0:01:00]} (2.f4 exf4) 2...Nc6 *").unwrap();
    /// assert_eq!(game.to_pgn(), "1. e4 e5 2. Nf3 {[%clk 0:01:00]} (2. f4 exf4) 2... Nc6 *\n");
    /// ```
    pub fn to_pgn(&self) -> String {
        self.to_pgn_in(Notation::San)
    }

    /// [`Game::to_pgn`] with the moves in `notation`, as `sanfen fmt
    /// --notation` writes them (see [`crate::pgn::format`]).
    ///
    /// ```
    /// use sanfen::notation::Notation;
    /// use sanfen::pgn::Game;
    ///
    /// let game = Game::from_pgn("1.e4 e5 2.Nf3 (2.f4 exf4) 2...Nc6 3.Bb5 a6 4.O-O *").unwrap();
    /// let uci = "1. e2e4 e7e5 2. g1f3 (2. f2f4 e5f4) 2... b8c6 3. f1b5 a7a6 4. e1g1 *\n";
    /// assert_eq!(game.to_pgn_in(Notation::Uci), uci);
    /// let lan = "1. e2-e4 e7-e5 2. Ng1-f3 (2. f2-f4 e5xf4) 2... Nb8-c6 3. Bf1-b5 a7-a6 4. O-O *\n";
    /// assert_eq!(game.to_pgn_in(Notation::Lan), lan);
    /// ```
    pub fn to_pgn_in(&self, notation: Notation) -> String {
        let mut out = Vec::new();
        crate::pgn::format::write_game(self, notation, &mut out);
        // every part of the game is a `String`, and the writer adds ASCII
        String::from_utf8(out).unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
    }

    /// The one game of a PGN text.
    ///
    /// # Errors
    ///
    /// [`GameCountError`] when the text holds no game or more than one.
    pub fn from_pgn(text: &str) -> Result<Game, GameCountError> {
        let mut games = read_games_from_slice(text.as_bytes());
        if games.len() != 1 {
            return Err(GameCountError { games: games.len() });
        }
        Ok(games.remove(0))
    }
}

impl core::fmt::Display for Game {
    /// [`Game::to_pgn`].
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.to_pgn())
    }
}

/// The text given to [`Game::from_pgn`] holds no game, or more than one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameCountError {
    /// How many games it holds.
    pub games: usize,
}

impl core::fmt::Display for GameCountError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "expected one game, found {}", self.games)
    }
}

impl std::error::Error for GameCountError {}

/// What keeps [`read_games`] from giving a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The stream could not be read: nothing after this is read.
    Io {
        /// The kind of I/O error.
        kind: io::ErrorKind,
        /// What the system said.
        message: String,
    },
    /// A game larger than [`Chunker::MAX_GAME`] bytes: it is not read
    /// (memory stays bounded); the games after it are.
    TooLarge {
        /// Where the game starts.
        at: Location,
        /// Its size in bytes.
        size: u64,
    },
}

impl ReadError {
    /// The error of a stream that failed after `bytes_read` bytes (of its
    /// decompressed text, when `compression` says it is compressed).
    pub(crate) fn stream(bytes_read: u64, compression: Option<Compression>, err: &io::Error) -> ReadError {
        let error = crate::pgn::input::ReadError::new(bytes_read, compression, err);
        ReadError::Io { kind: error.kind, message: error.to_string() }
    }
}

impl core::fmt::Display for ReadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ReadError::Io { message, .. } => write!(f, "cannot read the input: {message}"),
            ReadError::TooLarge { at, size } => write!(f, "line {}: {}: not read", at.line, TooLargeGame(*size)),
        }
    }
}

impl std::error::Error for ReadError {}

impl From<io::Error> for ReadError {
    fn from(err: io::Error) -> ReadError {
        ReadError::Io { kind: err.kind(), message: err.to_string() }
    }
}

/// Every game of a PGN stream, in order, read a few at a time: memory is
/// bounded by the largest game (and at most [`Chunker::MAX_GAME`] bytes of
/// input per game: a larger game is a [`ReadError::TooLarge`], and reading
/// goes on after it). A read error is the last item.
///
/// The stream's bytes are PGN as the [`Reader`] reads it (a decompressing
/// reader gives compressed files).
pub fn read_games<R: Read>(input: R) -> Games<R> {
    read_games_in(input, Letters::English)
}

/// [`read_games`], the moves read in the piece letters of `letters` (see
/// [`crate::pgn::validate::Options::letters`]: `Cf3` in Portuguese is the
/// move Nf3, written `Cf3`, with the lint finding `san:local-letters`).
///
/// ```
/// use sanfen::san::Letters;
///
/// let pgn: &[u8] = b"1. e4 e5 2. Cf3 Cc6 3. Bb5 *\n";
/// let games: Vec<_> = sanfen::pgn::game::read_games_in(pgn, Letters::Portuguese).collect::<Result<_, _>>()?;
/// assert_eq!(games[0].mainline.moves[2].san.to_string(), "Nf3");
/// assert_eq!(games[0].mainline.moves.len(), 5);
/// # Ok::<(), sanfen::pgn::ReadError>(())
/// ```
pub fn read_games_in<R: Read>(input: R, letters: Letters) -> Games<R> {
    Games {
        chunker: Chunker::with_target(input, CHUNK_TARGET),
        buffer: Vec::new(),
        pending: Pending::default(),
        letters,
    }
}

/// Every game of the PGN file at `path`, as [`read_games`]: gzip, zstd and
/// bzip2 recognised by their first bytes (with the `compression` feature),
/// whatever the file's name.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("sanfen-read-games-path-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let path = dir.join("games.pgn");
/// # std::fs::write(&path, "1. e4 { [%clk 0:03:00] } e5 1-0\n")?;
/// let games: Vec<_> = sanfen::pgn::read_games_path(&path)?.collect::<Result<_, _>>()?;
/// assert_eq!(games[0].mainline.moves[0].clock().unwrap().as_secs(), 180);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// The file cannot be opened, its compression is not built in, or its start
/// shows it is not PGN text (binary data, UTF-16): then nothing is read.
/// Errors met later come from the iterator.
pub fn read_games_path(path: impl AsRef<std::path::Path>) -> Result<Games<Box<dyn Read + Send>>, InputError> {
    read_games_text(Input::open(path)?, Letters::English)
}

/// The games of `input` as [`read_games_in`] reads them in `letters`,
/// unless its start shows it is not PGN text ([`Input::not_text`]).
pub(crate) fn read_games_text(input: Input, letters: Letters) -> Result<Games<Box<dyn Read + Send>>, InputError> {
    if let Some(not_text) = input.not_text {
        return Err(InputError { kind: std::io::ErrorKind::InvalidData, message: not_text.to_string() });
    }
    Ok(read_games_in(input.reader, letters))
}

/// Every game of `input` ([`Input::open`], [`Input::from_reader`]), as
/// [`read_games`] gives them, read on `threads` threads (0: one per core;
/// 1: the calling thread alone) by the ordered driver
/// ([`crate::pgn::parallel`]): the calling thread reads and cuts the input,
/// the games of each chunk are built and validated on any thread, and they
/// come out in input order, the same games whatever the number of threads.
/// Memory stays bounded: a few chunks of about [`GAME_CHUNK_TARGET`]
/// bytes per thread are in flight. A read error is the last item (its
/// message says at which byte of the decompressed stream).
///
/// ```
/// use sanfen::pgn::input::Input;
///
/// let pgn = "1. e4 e5 *\n\n1. d4 { [%clk 0:01:00] } d5 *\n";
/// let input = Input::from_reader(std::io::Cursor::new(pgn), None)?;
/// let games: Vec<_> = sanfen::pgn::game::read_games_input(input, 2)?.collect::<Result<_, _>>()?;
/// assert_eq!(games[1].mainline.moves[0].clock().unwrap().as_secs(), 60);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// The input is not PGN text ([`Input::not_text`]: kind
/// [`io::ErrorKind::InvalidData`]), or the threads cannot start.
pub fn read_games_input(input: Input, threads: usize) -> Result<ParallelGames, InputError> {
    read_games_input_in(input, threads, Letters::English)
}

/// [`read_games_input`], the moves read in the piece letters of `letters`
/// (see [`crate::pgn::validate::Options::letters`]: `Cf3` in Portuguese is
/// the move Nf3, written `Cf3`, with the lint finding `san:local-letters`).
///
/// ```
/// use sanfen::pgn::input::Input;
/// use sanfen::san::Letters;
///
/// let pgn = "1. e4 e5 2. Cf3 Cc6 3. Bb5 Cf6 4. O-O *\n";
/// let input = Input::from_reader(std::io::Cursor::new(pgn), None)?;
/// let games: Vec<_> =
///     sanfen::pgn::game::read_games_input_in(input, 2, Letters::Portuguese)?.collect::<Result<_, _>>()?;
/// let knight = &games[0].mainline.moves[2];
/// assert_eq!((knight.san.to_string(), knight.written.as_str()), ("Nf3".to_owned(), "Cf3"));
/// assert_eq!(games[0].mainline.moves.len(), 7);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// See [`read_games_input`].
pub fn read_games_input_in(input: Input, threads: usize, letters: Letters) -> Result<ParallelGames, InputError> {
    parallel_games(input, threads, BuildWork { build: build_chunk, letters })
}

/// [`read_games_input`], each game read as an outline: its tags, its moves
/// (each node's move, SAN, UCI, location, number, side and ply) with their
/// variations, its result, its findings and the text around it, but not the
/// annotations of its moves: each node's `written`, `nags` and `comments`,
/// and a line's `nags` and `comments`, are left empty. What a table of games
/// needs ([`crate::pgn::table::GameTable`] makes the same rows of outlines),
/// read at less cost: a third less time for lichess's games, whose every
/// move has a comment.
///
/// ```
/// use sanfen::pgn::input::Input;
///
/// let pgn = "[White \"Ann\"]\n\n1. e4 { [%clk 0:01:00] } e5!? 2. Nf3 *\n";
/// let input = Input::from_reader(std::io::Cursor::new(pgn), None)?;
/// let games: Vec<_> = sanfen::pgn::game::read_game_outlines_input(input, 2)?.collect::<Result<_, _>>()?;
/// let moves = &games[0].mainline.moves;
/// assert_eq!((games[0].tag("White"), moves.len(), moves[1].san.to_string()), (Some("Ann"), 3, "e5".to_owned()));
/// assert!(moves[0].comments.is_empty() && moves[1].nags.is_empty() && moves[1].written.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// See [`read_games_input`].
pub fn read_game_outlines_input(input: Input, threads: usize) -> Result<ParallelGames, InputError> {
    parallel_games(input, threads, BuildWork { build: build_outline_chunk, letters: Letters::English })
}

/// What a row of a games table ([`crate::pgn::table::GameTable`]) shows of
/// a game's mainline: how many moves were played (up to the first that
/// cannot be), how the game ends, its opening.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameFacts {
    /// The mainline's moves.
    pub plies: usize,
    /// [`Game::end`].
    pub end: Option<crate::game::GameEnd>,
    /// [`Game::opening`].
    #[cfg(feature = "openings")]
    pub opening: Option<crate::openings::GameOpening>,
}

impl GameFacts {
    /// The facts of `game`.
    pub fn of(game: &Game) -> GameFacts {
        GameFacts {
            plies: game.mainline.moves.len(),
            end: game.end(),
            #[cfg(feature = "openings")]
            opening: game.opening(),
        }
    }
}

/// The games of `input` as [`read_games_input`] reads them but without
/// their moves (the mainline empty), each with its [`GameFacts`], found on
/// the threads that read it from the positions its moves reach: what
/// [`crate::pgn::table::GameTable::push_with`] makes a row of, with no
/// move kept or played again.
///
/// ```
/// use sanfen::pgn::input::Input;
/// use sanfen::pgn::game::read_game_facts_input;
///
/// let pgn = "1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 c5 *\n";
/// let input = Input::from_reader(std::io::Cursor::new(pgn), None)?;
/// let games: Vec<_> = read_game_facts_input(input, 2)?.collect::<Result<_, _>>()?;
/// let (game, facts) = &games[0];
/// assert_eq!((game.mainline.moves.len(), facts.plies), (0, 4));
/// assert_eq!(facts.end.map(|end| end.to_string()).as_deref(), Some("checkmate: 0-1"));
/// assert_eq!(games[1].1.opening.map(|found| found.opening.name), Some("Sicilian Defense"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// See [`read_games_input`].
pub fn read_game_facts_input(input: Input, threads: usize) -> Result<ParallelGames<(Game, GameFacts)>, InputError> {
    parallel_games(input, threads, BuildWork { build: build_facts_chunk, letters: Letters::English })
}

/// How each chunk's games are built on the threads: by `build`, the moves
/// read in `letters`.
struct BuildWork<T> {
    build: fn(Chunk, Letters) -> ChunkGames<T>,
    letters: Letters,
}

impl<T: ChunkItem> ChunkWork for BuildWork<T> {
    type Part = core::convert::Infallible;
    type Output = ChunkGames<T>;

    fn work(&self, chunk: Chunk, _parts: &mut crate::pgn::parallel::Parts<'_, Self::Part>) -> ChunkGames<T> {
        (self.build)(chunk, self.letters)
    }
}

/// The games of `input`, each chunk's built as `build` says on `threads`
/// threads.
fn parallel_games<T: ChunkItem>(
    input: Input,
    threads: usize,
    build: BuildWork<T>,
) -> Result<ParallelGames<T>, InputError> {
    let compression = input.compression;
    let ordered = ordered_input(input, build, threads, GAME_CHUNK_TARGET)?;
    Ok(ParallelGames { ordered, compression, pending: Pending::default() })
}

/// `work` on the chunks of `input` on `threads` threads, in input order.
///
/// # Errors
///
/// The input is not PGN text, or the threads cannot start.
pub(crate) fn ordered_input<W: ChunkWork>(
    input: Input,
    work: W,
    threads: usize,
    target: usize,
) -> Result<Ordered<Box<dyn Read + Send>, W>, InputError> {
    Ordered::new(chunker_of(input, target)?, work, threads).map_err(InputError::threads)
}

/// The chunks of about `target` bytes of `input`, from where it starts.
///
/// # Errors
///
/// The input is not PGN text.
pub(crate) fn chunker_of(input: Input, target: usize) -> Result<Chunker<Box<dyn Read + Send>>, InputError> {
    if let Some(not_text) = input.not_text {
        return Err(InputError { kind: io::ErrorKind::InvalidData, message: not_text.to_string() });
    }
    Ok(Chunker::with_target(input.reader, target).starting_at(input.start))
}

/// The chunks the ordered driver hands to its threads when their work is
/// compact (move rows), in bytes.
pub const PARALLEL_CHUNK_TARGET: usize = 256 << 10;

/// The chunks [`read_games_input`] hands to its threads, in bytes: smaller
/// than [`PARALLEL_CHUNK_TARGET`], since a chunk's games (tags, nodes,
/// comments, reports) take many times its bytes. The games of a chunk
/// are then still in the processor's cache when the caller reads them:
/// with 256 KiB chunks, reading every game's moves from Python took 15 to
/// 25% longer.
pub const GAME_CHUNK_TARGET: usize = 32 << 10;

/// The games of a chunk, built on a worker thread: the chunk's games (or
/// the error of a game too large to read), and the text after its last game.
struct ChunkGames<T = Game> {
    games: Vec<Result<T, ReadError>>,
    carry: Carry,
    data: Vec<u8>,
}

fn build_chunk(chunk: Chunk, letters: Letters) -> ChunkGames {
    build_chunk_as(chunk, Keep::Whole, letters, |game, _| game)
}

/// [`build_chunk`], the games as outlines ([`read_game_outlines_input`]).
fn build_outline_chunk(chunk: Chunk, letters: Letters) -> ChunkGames {
    build_chunk_as(chunk, Keep::Outline, letters, |game, _| game)
}

/// [`build_chunk`], the games without their moves, each with its facts
/// ([`read_game_facts_input`]).
fn build_facts_chunk(chunk: Chunk, letters: Letters) -> ChunkGames<(Game, GameFacts)> {
    build_chunk_as(chunk, Keep::Mainline, letters, |game, summary| (game, summary.facts()))
}

/// The games of a chunk, moves read in `letters`, each kept as `keep` says
/// and given to `item` with its mainline's summary (with
/// [`Keep::Mainline`]; else empty).
fn build_chunk_as<T>(
    chunk: Chunk,
    keep: Keep,
    letters: Letters,
    mut item: impl FnMut(Game, &MainlineSummary) -> T,
) -> ChunkGames<T> {
    let mut games = Vec::new();
    let carry = for_each_chunk_game(&chunk, keep, letters, |game, summary| {
        games.push(match game {
            Ok(game) => Ok(item(game, summary)),
            Err((at, size)) => Err(ReadError::TooLarge { at, size }),
        });
    });
    ChunkGames { games, carry, data: chunk.data }
}

/// The games of a chunk, moves read in `letters`, each kept as `keep` says
/// and given to `each` as it is read, with its mainline's summary (with
/// [`Keep::Mainline`]; else empty); a game too large to read as where it
/// starts and its size. What the chunk leaves for the game after it.
fn for_each_chunk_game(
    chunk: &Chunk,
    keep: Keep,
    letters: Letters,
    mut each: impl FnMut(Result<Game, (Location, u64)>, &MainlineSummary),
) -> Carry {
    if let Some(oversized) = chunk.oversized {
        if oversized.last {
            let size = chunk.start.offset + chunk.data.len() as u64 - oversized.game.offset;
            each(Err((oversized.game, size)), &MainlineSummary::default());
        }
        return Carry::default();
    }
    let options = Options { letters, ..Options::default() };
    let validator = Validator::with_base(&chunk.data, chunk.start.offset, options);
    let mut builder = Builder { keep, ..Builder::new(validator, Carry::default()) };
    let mut reader = Reader::with_start(&chunk.data, chunk.start);
    while let Some(game) = reader.read_game(&mut builder) {
        each(Ok(game), &builder.summary);
    }
    builder.finish()
}

/// The games of a chunk with their facts, as [`read_game_facts_input`]
/// reads them (moves in `letters`), each given to `each` as it is read; a game too large to
/// read as where it starts and its size. The findings about the text after
/// the chunk's last game, which go to the game after it. (The games table's
/// reader: [`crate::pgn::table`].)
#[cfg(feature = "arrow")]
pub(crate) fn for_each_facts_game(
    chunk: &Chunk,
    letters: Letters,
    mut each: impl FnMut(Result<(Game, GameFacts), (Location, u64)>),
) -> Vec<Finding> {
    let each = |game: Result<Game, _>, summary: &MainlineSummary| each(game.map(|game| (game, summary.facts())));
    for_each_chunk_game(chunk, Keep::Mainline, letters, each).findings
}

/// The games of an input read on several threads: see [`read_games_input`].
/// Each is a [`Game`], or a game with what was made of it on the threads
/// ([`ChunkItem`]).
pub struct ParallelGames<T: ChunkItem = Game> {
    ordered: ChunkThreads<T>,
    compression: Option<crate::pgn::input::Compression>,
    pending: Pending<T>,
}

/// What [`ParallelGames`] gives for each game: the game, alone or with
/// what the thread that read it made of it ([`GameFacts`]). Sealed: the
/// library says what its threads make.
pub trait ChunkItem: sealed::Sealed + Send + 'static {
    /// The game.
    fn game_mut(&mut self) -> &mut Game;
}

mod sealed {
    /// Implemented by the library's [`super::ChunkItem`]s alone.
    pub trait Sealed {}

    impl Sealed for super::Game {}

    impl<T> Sealed for (super::Game, T) {}
}

impl ChunkItem for Game {
    fn game_mut(&mut self) -> &mut Game {
        self
    }
}

impl<T: Send + 'static> ChunkItem for (Game, T) {
    fn game_mut(&mut self) -> &mut Game {
        &mut self.0
    }
}

impl<T: ChunkItem> core::fmt::Debug for ParallelGames<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ParallelGames").field("ready", &self.pending.ready.len()).finish_non_exhaustive()
    }
}

/// The threads of [`read_games_input`]: chunks of the input in, each
/// chunk's games out, in input order.
type ChunkThreads<T> = Ordered<Box<dyn Read + Send>, BuildWork<T>>;

/// Takes the next chunk's games from the threads into `pending`; `false` at
/// the end of the stream.
fn fill_parallel<T: ChunkItem>(
    ordered: &mut ChunkThreads<T>,
    compression: Option<crate::pgn::input::Compression>,
    pending: &mut Pending<T>,
) -> bool {
    let chunk = match ordered.next() {
        None => return false,
        Some(Ok(chunk)) => chunk,
        Some(Err(err)) => {
            pending.ready.push_back(Err(ReadError::stream(ordered.bytes_read(), compression, &err)));
            pending.done = true;
            return true;
        }
    };
    let ChunkGames { games, carry, data } = chunk;
    ordered.recycle(data);
    let mut games = games.into_iter();
    // the text after the previous chunk's last game goes to this
    // chunk's first game, as the sequential reader gives it
    match games.next() {
        Some(Ok(mut first)) => {
            let before = core::mem::take(&mut pending.carry);
            let game = first.game_mut();
            game.before.splice(0..0, before.text);
            add_findings(&mut game.report, before.findings);
            pending.ready.push_back(Ok(first));
            pending.carry = carry;
        }
        Some(Err(err)) => {
            pending.ready.push_back(Err(err));
            pending.carry.text.extend(carry.text);
            pending.carry.findings.extend(carry.findings);
        }
        None => {
            pending.carry.text.extend(carry.text);
            pending.carry.findings.extend(carry.findings);
        }
    }
    pending.ready.extend(games);
    true
}

impl<T: ChunkItem> ParallelGames<T> {
    /// The next game when it is built already: no reading, no waiting for
    /// a thread (`None` when [`Iterator::next`] has work to do, and at the
    /// end). A caller that holds a lock the reading does not need (Python's
    /// GIL) lets it go only when the next game takes work.
    pub fn next_ready(&mut self) -> Option<Result<T, ReadError>> {
        if self.pending.settled() { self.pending.ready.pop_front() } else { None }
    }
}

impl<T: ChunkItem> Iterator for ParallelGames<T> {
    type Item = Result<T, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        let (ordered, compression) = (&mut self.ordered, self.compression);
        self.pending.next(|pending| fill_parallel(ordered, compression, pending))
    }
}

/// Every game of PGN text held whole (a file read at once), with no limit on
/// a game's size.
pub fn read_games_from_slice(input: &[u8]) -> Vec<Game> {
    read_games_from_slice_in(input, Letters::English)
}

/// [`read_games_from_slice`], the moves read in the piece letters of
/// `letters` (as [`read_games_in`] reads them).
pub fn read_games_from_slice_in(input: &[u8], letters: Letters) -> Vec<Game> {
    let mut reader = Reader::new(input);
    let options = Options { letters, ..Options::default() };
    let mut builder = Builder::new(Validator::new(input, options), Carry::default());
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut builder) {
        games.push(game);
    }
    let carry = builder.finish();
    if let Some(last) = games.last_mut() {
        carry.attach_after(last);
    }
    games
}

/// The chunks [`read_games`] reads at a time, in bytes: a few games.
const CHUNK_TARGET: usize = 64 << 10;

/// The games of a stream: see [`read_games`].
#[derive(Debug)]
pub struct Games<R: Read> {
    chunker: Chunker<R>,
    buffer: Vec<u8>,
    pending: Pending,
    /// The piece letters moves are read in.
    letters: Letters,
}

/// What a game iterator holds between chunks: the games read and not yet
/// given (the last is held until the next chunk says whether text after it
/// is its [`Game::after`]), the text after the last game of the chunks read
/// so far, and whether the stream has ended.
#[derive(Debug)]
struct Pending<T = Game> {
    ready: VecDeque<Result<T, ReadError>>,
    carry: Carry,
    done: bool,
}

impl<T> Default for Pending<T> {
    fn default() -> Pending<T> {
        Pending { ready: VecDeque::new(), carry: Carry::default(), done: false }
    }
}

impl<T: ChunkItem> Pending<T> {
    /// The next game, reading chunks with `fill` (which puts a chunk's games
    /// in `ready`, and answers `false` at the end of the stream) until two
    /// games are ready or the stream has ended.
    fn next(&mut self, mut fill: impl FnMut(&mut Pending<T>) -> bool) -> Option<Result<T, ReadError>> {
        while !self.settled() {
            if !fill(self) {
                self.done = true;
                let carry = core::mem::take(&mut self.carry);
                if let Some(Ok(last)) = self.ready.back_mut() {
                    carry.attach_after(last.game_mut());
                }
            }
        }
        self.ready.pop_front()
    }

    /// Whether the next game can be given without reading: the one after
    /// it is read too (so text after the next is not its own), or the
    /// stream has ended.
    fn settled(&self) -> bool {
        self.done || self.ready.len() >= 2
    }
}

/// What a chunk leaves for the next game: the text after its last game and
/// the validator's findings about it.
#[derive(Clone, Debug, Default)]
struct Carry {
    text: Vec<String>,
    findings: Vec<Finding>,
}

impl Carry {
    /// Gives the text to `game` as the text after it.
    fn attach_after(self, game: &mut Game) {
        game.after = self.text;
        add_findings(&mut game.report, self.findings);
    }
}

/// Adds findings about text outside games to a report, as the game's own
/// validation would have had them (the text before a game is the game's
/// when the input is read whole): in the order of their places, the first
/// [`MAX_FINDINGS`] kept and the others counted as unlisted.
fn add_findings(report: &mut GameReport, findings: Vec<Finding>) {
    for finding in &findings {
        match finding.severity() {
            Severity::Error => report.errors += 1,
            Severity::Warning => report.lints += 1,
        }
    }
    report.findings.extend(findings);
    report.findings.sort_by_key(|finding| finding.at.offset);
    if report.findings.len() > MAX_FINDINGS {
        let over = report.findings.len() - MAX_FINDINGS;
        report.findings.truncate(MAX_FINDINGS);
        report.unlisted = report.unlisted.saturating_add(u32::try_from(over).unwrap_or(u32::MAX));
    }
}

/// Reads the next chunk into `pending` (`buffer`: the last chunk's, to
/// reuse), moves read in `letters`; `false` at the end of the stream.
fn fill<R: Read>(chunker: &mut Chunker<R>, buffer: &mut Vec<u8>, letters: Letters, pending: &mut Pending) -> bool {
    let chunk = match chunker.next_chunk(core::mem::take(buffer)) {
        Ok(Some(chunk)) => chunk,
        Ok(None) => return false,
        Err(err) => {
            pending.ready.push_back(Err(err.into()));
            pending.done = true;
            return true;
        }
    };
    if let Some(oversized) = chunk.oversized {
        if oversized.last {
            let size = chunk.start.offset + chunk.data.len() as u64 - oversized.game.offset;
            pending.ready.push_back(Err(ReadError::TooLarge { at: oversized.game, size }));
        }
    } else {
        let options = Options { letters, ..Options::default() };
        let validator = Validator::with_base(&chunk.data, chunk.start.offset, options);
        let mut builder = Builder::new(validator, core::mem::take(&mut pending.carry));
        let mut reader = Reader::with_start(&chunk.data, chunk.start);
        while let Some(game) = reader.read_game(&mut builder) {
            pending.ready.push_back(Ok(game));
        }
        pending.carry = builder.finish();
    }
    *buffer = chunk.data;
    true
}

impl<R: Read> Iterator for Games<R> {
    type Item = Result<Game, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        let (chunker, buffer, letters) = (&mut self.chunker, &mut self.buffer, self.letters);
        self.pending.next(|pending| fill(chunker, buffer, letters, pending))
    }
}

/// A line being built: `dead` once a move of it could not be played (it
/// keeps the moves before), or from its start when it replaces no move of
/// the tree (`lost`: it is not kept).
#[derive(Debug, Default)]
struct Frame {
    line: Line,
    dead: bool,
    lost: bool,
}

/// What is kept of a game's mainline as it is read, in place of its moves
/// ([`read_game_facts_input`]): how many were played, the positions that
/// decide how the game ends, and its opening. The same as [`Game`] finds
/// playing the moves again, found from the positions the validator reaches.
#[derive(Debug, Default)]
struct MainlineSummary {
    /// The moves played.
    plies: usize,
    /// Whether one is a null move (the game's end is then not judged, and
    /// its opening is looked for before it only).
    null: bool,
    /// The positions that decide how the game ends; none when the moves
    /// are not played.
    reversible: crate::game::Reversible,
    /// The positions where its opening may be ([`Game::opening`]).
    #[cfg(feature = "openings")]
    opening: crate::openings::Trail,
}

impl MainlineSummary {
    /// A game's moves starting (its tags read): at `start` when they are
    /// played.
    fn begin(&mut self, start: Option<&Position>) {
        self.plies = 0;
        self.null = false;
        match start {
            Some(start) => self.reversible.start(start),
            None => self.reversible.clear(),
        }
        #[cfg(feature = "openings")]
        self.opening.clear();
    }

    /// The mainline's next move, `m` (`None` for a null move), played to
    /// `after`.
    fn push(&mut self, m: Option<Move>, after: &Position) {
        self.plies += 1;
        match m {
            Some(m) => self.reversible.push(m, after),
            None => self.null = true,
        }
        #[cfg(feature = "openings")]
        if !self.null {
            self.opening.push(after);
        }
    }

    /// The facts of the mainline.
    fn facts(&self) -> GameFacts {
        GameFacts {
            plies: self.plies,
            end: if self.null { None } else { self.reversible.end() },
            #[cfg(feature = "openings")]
            opening: self.opening.opening(),
        }
    }
}

/// What a [`Builder`] keeps of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Keep {
    /// Everything.
    Whole,
    /// An outline: the annotations of moves and lines not kept
    /// ([`read_game_outlines_input`]).
    Outline,
    /// No move in the game, its mainline summed up in
    /// [`Builder::summary`] ([`read_game_facts_input`]).
    Mainline,
}

/// The visitor that builds games: the validator, and the tree around it.
struct Builder<'a> {
    validator: Validator<'a>,
    keep: Keep,
    /// With [`Keep::Mainline`], the game's mainline so far.
    summary: MainlineSummary,
    /// Text between games, for the next game.
    carry: Carry,
    game: Option<Game>,
    frames: Vec<Frame>,
}

impl<'a> Builder<'a> {
    fn new(validator: Validator<'a>, carry: Carry) -> Builder<'a> {
        Builder {
            validator,
            keep: Keep::Whole,
            summary: MainlineSummary::default(),
            carry,
            game: None,
            frames: Vec::new(),
        }
    }

    /// After the last game: the text after it and the findings about it.
    fn finish(mut self) -> Carry {
        let findings = self.validator.take_outside();
        self.carry.findings.extend(findings);
        self.carry
    }

    /// The line being built, unless it is dead.
    fn live(&mut self) -> Option<&mut Line> {
        self.frames.last_mut().filter(|frame| !frame.dead).map(|frame| &mut frame.line)
    }

    /// Closes the innermost variation into the move it replaces.
    fn close(&mut self) {
        if self.frames.len() < 2 {
            return;
        }
        let Some(frame) = self.frames.pop() else { return };
        if frame.lost {
            return;
        }
        if let Some(node) = self.frames.last_mut().and_then(|parent| parent.line.moves.last_mut()) {
            node.variations.push(frame.line);
        }
    }
}

/// The text decoded ([`decode_text`]), owned.
fn decode(bytes: &[u8]) -> String {
    decode_text(bytes).into_owned()
}

/// A comment's text: decoded, `\r\n` as `\n`.
fn comment_text(bytes: &[u8]) -> String {
    comment_cow(bytes).into_owned()
}

/// A comment's text: decoded, `\r\n` as `\n` (borrowed when it is UTF-8
/// with no `\r`).
pub(crate) fn comment_cow(bytes: &[u8]) -> Cow<'_, str> {
    match RawText(bytes).decode() {
        Cow::Borrowed(text) if memchr::memchr(b'\r', text.as_bytes()).is_none() => Cow::Borrowed(text),
        text => Cow::Owned(text.replace("\r\n", "\n")),
    }
}

/// The NAG of an annotation glued to a move token (`Nf3!?`).
pub(crate) fn glued_annotation(token: &[u8]) -> Option<u8> {
    let marks = token.iter().rev().take_while(|&&b| b == b'!' || b == b'?').count();
    crate::pgn::reader::suffix_nag(&token[token.len() - marks..])
}

impl Visitor for Builder<'_> {
    type Output = Game;

    fn begin_game(&mut self, at: Location) {
        self.validator.begin_game(at);
        let carry = core::mem::take(&mut self.carry);
        self.game = Some(Game { before: carry.text, ..Game::empty(at) });
        // findings about text before the game that an earlier chunk read
        self.carry.findings = carry.findings;
        self.frames.clear();
        self.frames.push(Frame { line: Line::default(), dead: true, lost: false });
    }

    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) {
        self.validator.tag(name, value, at);
        if let Some(game) = &mut self.game {
            game.tags.push(Tag { name: decode(name), value: value.decode().into_owned() });
        }
    }

    fn end_tags(&mut self) -> Skip {
        let skip = self.validator.end_tags();
        let start = self.validator.playing().cloned();
        if let Some(frame) = self.frames.first_mut() {
            frame.dead = start.is_none();
        }
        if self.keep == Keep::Mainline {
            self.summary.begin(start.as_ref());
        }
        if let Some(game) = &mut self.game {
            game.start = start;
        }
        skip
    }

    fn move_number(&mut self, number: u32, black: bool, token: &[u8], at: Location) {
        self.validator.move_number(number, black, token, at);
    }

    fn san(&mut self, token: &[u8], at: Location) {
        let alive = self.frames.last().is_some_and(|frame| !frame.dead);
        let played = self.validator.play_san(token, at);
        let Some(played) = played.filter(|_| alive) else {
            if let Some(frame) = self.frames.last_mut() {
                frame.dead = true;
            }
            return;
        };
        if self.keep == Keep::Mainline {
            if let Some(after) = self.validator.playing().filter(|_| self.frames.len() == 1) {
                self.summary.push(played.m, after);
            }
            return;
        }
        let outline = self.keep == Keep::Outline;
        let ply = self.frames.last().and_then(|frame| frame.line.moves.last()).map_or_else(
            || {
                // the first move of a variation: the ply of the move it
                // replaces (of the mainline: 1)
                let depth = self.frames.len();
                if depth < 2 { 1 } else { self.frames[depth - 2].line.moves.last().map_or(1, |node| node.ply) }
            },
            |node| node.ply + 1,
        );
        let node = Node {
            played: played.m,
            san: played.san,
            uci: played.uci,
            written: if outline { String::new() } else { decode(token) },
            at,
            number: played.number,
            side: played.side,
            ply,
            nags: if outline { ThinVec::new() } else { glued_annotation(token).into_iter().collect() },
            comments: ThinVec::new(),
            variations: ThinVec::new(),
        };
        if let Some(line) = self.live() {
            line.moves.push(node);
        }
    }

    fn nag(&mut self, nag: u8, token: &[u8], at: Location) {
        self.validator.nag(nag, token, at);
        if self.keep != Keep::Whole {
            return;
        }
        if let Some(line) = self.live() {
            match line.moves.last_mut() {
                Some(node) => node.nags.push(nag),
                None => line.nags.push(nag),
            }
        }
    }

    fn comment(&mut self, text: RawText<'_>, at: Location) {
        self.validator.comment(text, at);
        if self.keep != Keep::Whole {
            return;
        }
        if let Some(line) = self.live() {
            let comment = Comment::new(comment_text(text.0));
            match line.moves.last_mut() {
                Some(node) => node.comments.push(comment),
                None => line.comments.push(comment),
            }
        }
    }

    fn begin_variation(&mut self, at: Location) -> Skip {
        let skip = self.validator.begin_variation(at);
        // a variation replaces the last move of a live line
        let lost = self.frames.last().is_none_or(|frame| frame.dead || frame.line.moves.is_empty());
        self.frames.push(Frame { line: Line::default(), dead: lost, lost });
        skip
    }

    fn end_variation(&mut self, at: Location) {
        self.validator.end_variation(at);
        self.close();
    }

    fn result(&mut self, result: ResultToken, token: &[u8], at: Location) {
        self.validator.result(result, token, at);
        if let Some(game) = &mut self.game {
            game.result = Some(result);
        }
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        self.validator.syntax_error(error);
    }

    fn after_result(&mut self, text: &[u8], at: Location) {
        self.validator.after_result(text, at);
        if let Some(game) = &mut self.game {
            game.after_result.push(comment_text(text));
        }
    }

    fn between_games(&mut self, text: &[u8], at: Location) {
        self.validator.between_games(text, at);
        self.carry.text.push(comment_text(text));
    }

    fn tag_comment(&mut self, text: &[u8], at: Location) {
        self.validator.tag_comment(text, at);
        if let Some(game) = &mut self.game {
            game.tag_comments.push((game.tags.len(), comment_text(text)));
        }
    }

    fn escape(&mut self, line: &[u8], at: Location) {
        self.validator.escape(line, at);
        match &mut self.game {
            Some(game) => game.escapes.push(decode(line)),
            None => self.carry.text.push(decode(line)),
        }
    }

    fn invisible(&mut self, text: &[u8], at: Location) {
        self.validator.invisible(text, at);
    }

    fn en_passant_mark(&mut self, token: &[u8], at: Location) {
        self.validator.en_passant_mark(token, at);
    }

    fn end_game(&mut self, at: Location) -> Game {
        let mut report = self.validator.end_game(at);
        while self.frames.len() > 1 {
            self.close();
        }
        let mut game = self.game.take().unwrap_or_else(|| Game::empty(at));
        game.end = at;
        if let Some(frame) = self.frames.pop() {
            game.mainline = frame.line;
        }
        add_findings(&mut report, core::mem::take(&mut self.carry.findings));
        game.report = report;
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name given again takes its last value at its first place, before
    /// and after the lookup moves from the list to the map (64 names).
    #[test]
    fn distinct_tags_keep_first_places_and_last_values() {
        let tag = |name: &str, value: &str| Tag { name: name.to_owned(), value: value.to_owned() };
        let mut tags: Vec<Tag> = (0..100).map(|i| tag(&format!("T{i}"), &i.to_string())).collect();
        tags.insert(3, tag("T1", "again"));
        tags.extend([tag("T0", "last"), tag("T70", "seventy"), tag("New", "n"), tag("T1", "third")]);
        let distinct = distinct_tags(&tags);
        assert_eq!(distinct.len(), 101);
        assert_eq!(distinct[..3], [("T0", "last"), ("T1", "third"), ("T2", "2")]);
        assert_eq!(distinct[3..5], [("T3", "3"), ("T4", "4")]);
        assert_eq!(distinct[70], ("T70", "seventy"));
        assert_eq!(distinct[99..], [("T99", "99"), ("New", "n")]);
        assert_eq!(distinct_tags(&[]), []);
    }

    /// A game of a million moves (the reader holds games of up to 8 MiB)
    /// keeps a node for each: their size is what such a game costs.
    #[test]
    fn a_node_takes_96_bytes_and_its_empty_notes_nothing_more() {
        assert_eq!(size_of::<Node>(), 96);
        let games = read_games_from_slice(b"1. e4 e5 2. Nf3 $1 {a comment} (2. f4) *\n");
        let game = &games[0];
        let moves = &game.mainline.moves;
        assert_eq!((moves[0].nags.capacity(), moves[0].comments.capacity(), moves[0].variations.capacity()), (0, 0, 0));
        assert_eq!((&moves[2].nags[..], moves[2].comments.len(), moves[2].variations.len()), (&[1][..], 1, 1));
    }

    /// Many games with text between them, over several chunks of
    /// [`GAME_CHUNK_TARGET`] bytes.
    fn many_games() -> String {
        let mut text = String::from("{ before all }\n");
        for n in 0..10000 {
            text.push_str(&format!(
                "[Event \"e{n}\"]\n\n1. e4 {{ [%clk 0:03:00] }} e5 2. Nf3 (2. f4 exf4) Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n\n"
            ));
            if n % 7 == 0 {
                text.push_str(&format!("{{ between {n} }}\n\n"));
            }
        }
        text.push_str("{ after all }\n");
        text
    }

    #[test]
    fn read_games_input_gives_the_games_read_games_gives_whatever_the_threads() {
        let text = many_games();
        assert!(text.len() > 3 * GAME_CHUNK_TARGET);
        let expected: Vec<Game> = read_games(text.as_bytes()).collect::<Result<_, _>>().unwrap();
        assert_eq!(expected.len(), 10000);
        assert_eq!(expected[8].before, ["{ between 7 }"]);
        assert!(expected[8].report.lints > 0);
        for threads in [1, 3] {
            let input = Input::from_reader(io::Cursor::new(text.clone().into_bytes()), None).unwrap();
            let games: Vec<Game> = read_games_input(input, threads).unwrap().collect::<Result<_, _>>().unwrap();
            assert_eq!(games, expected, "{threads} threads");
        }
    }

    #[test]
    fn next_ready_gives_the_games_built_and_next_the_others_in_the_same_order() {
        let text = many_games();
        let expected: Vec<Game> = read_games(text.as_bytes()).collect::<Result<_, _>>().unwrap();
        for threads in [1, 2] {
            let input = Input::from_reader(io::Cursor::new(text.clone().into_bytes()), None).unwrap();
            let mut games = read_games_input(input, threads).unwrap();
            assert!(games.next_ready().is_none(), "nothing is read before the first next");
            let (mut got, mut ready) = (Vec::new(), 0);
            loop {
                if let Some(game) = games.next_ready() {
                    got.push(game.unwrap());
                    ready += 1;
                } else if let Some(game) = games.next() {
                    got.push(game.unwrap());
                } else {
                    break;
                }
            }
            assert!(games.next_ready().is_none() && games.next().is_none());
            assert_eq!(got, expected, "{threads} threads");
            // most games come ready: `next` works once per chunk or so
            assert!(ready > expected.len() * 9 / 10, "{ready} of {}", expected.len());
        }
    }

    #[test]
    fn read_games_input_refuses_binary_data() {
        let input = Input::from_reader(io::Cursor::new(vec![0u8; 100]), None).unwrap();
        let err = read_games_input(input, 1).unwrap_err();
        assert_eq!(err.kind, io::ErrorKind::InvalidData);
        assert_eq!(err.message, "binary data: 100 of the first 100 bytes are control bytes (the first at offset 0)");
    }
}
