//! The REPL's core (feature `repl`): a [`Session`] holds a game and its
//! settings, and [`Session::eval`] turns one input line into a [`Response`]:
//! text lines, refusals, boards to draw and files to write, as data. No
//! terminal I/O happens here: the front end (`sanfen repl`) reads lines,
//! draws boards (colour, figurines), writes files and prints.
//!
//! ```
//! use sanfen::repl::{Options, Output, Session};
//!
//! let mut session = Session::new(Options::default());
//! let response = session.eval("e4 e5 Ng1-f3");
//! assert_eq!(
//!     response.lines().collect::<Vec<_>>(),
//!     [
//!         "1. e4",
//!         "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
//!         "1... e5",
//!         "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
//!         "2. Nf3 (Ng1-f3 -> Nf3)",
//!         "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
//!     ]
//! );
//! // a refused move changes nothing and says why
//! let response = session.eval("Ke3");
//! assert!(response.is_error());
//! assert_eq!(response.outputs[0], Output::Error("illegal move \"Ke3\": no king can move to e3".into()));
//! // `save` hands the bytes to the front end
//! let response = session.eval("save game.pgn");
//! let Output::Save(save) = &response.outputs[0] else { panic!("{response:?}") };
//! assert!(save.bytes.ends_with(b"\n\n1. e4 e5 2. Nf3 *\n"));
//! assert_eq!(save.saved(None), "saved 3 moves to game.pgn (PGN)");
//! ```
//!
//! A line is a command (`board [on|off]`, `fen`, `load FEN | FILE [N] |
//! PGN`, `moves [SQUARE]`, `attacks [SQUARE]`, `undo [N]`, `redo [N]`,
//! `history`, `pgn`, `tag [NAME [VALUE]]`, `new`, `flip`, `letters LANG`,
//! `notation NAME`, `save FILE [N]`, `save! FILE`, `append FILE`, `go [DEPTH |
//! depth N | SECONDSs]`, `play
//! white|black|off [DEPTH]`, `resign`, `draw`, `claim`, `help`, `quit`:
//! [`COMMANDS`]) or one or more moves, with or without move numbers, in any
//! spelling the lenient SAN reader accepts in the session's letters.
//!
//! A session keeps the game's tags (the Seven Tag Roster, `Date` from
//! [`Options::date`], `White` or `Black` named `sanfen` for the engine's
//! side, `SetUp` and `FEN` from a position, `Variant` for Chess960, and any
//! set with `tag`); a game loaded from PGN keeps its tags, comments, NAGs,
//! variations and result, and `save` writes them back.
//!
//! The game is over on the board (checkmate, stalemate, insufficient
//! material, fivefold repetition, the seventy-five-move rule) or off it
//! (`resign`; `draw`, which the engine accepts or declines by its
//! evaluation; `claim` of a threefold repetition or the fifty-move rule;
//! the result of a loaded game): then moves and `go` are refused, in one
//! line, until `undo`, `new` or `load` ([`Session::over`]). A draw that may
//! only be claimed is announced and play goes on. Against the engine, `undo`
//! goes back to the player's previous move.
//!
//! The engine thinks about a second by default ([`engine::DEFAULT_TIME`]), a
//! given time (`go 5s`), or to a given depth (`go 8`, `go depth 8`) but never
//! longer than [`DEPTH_TIME_LIMIT`]; it also stops when the session's stop
//! flag ([`Session::stop_flag`]) is raised (the front end raises it on
//! Ctrl-C), and then plays its best move so far. The flag also ends a
//! `load` that waits for its file (a FIFO no program writes to yet) or
//! takes long to read it.

mod complete;
mod input;
mod record;
mod response;

use core::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::engine::{self, Engine, Limits, Score, SearchResult};
use crate::notation::{self, Notation};
use crate::pgn::game::{Game as PgnGame, ReadError, Tag, read_games_from_slice_in, read_games_text};
use crate::pgn::reader::ResultToken;
use crate::play::{self, MoveNumber, PlayError, Word};
use crate::resolve::SanError;
use crate::san::{Letters, ParseSanError};
use crate::views;
use crate::{Bitboard, CastlingMode, Color, Fen, Game, Move, Outcome, Position, Severity, Square};

use complete::closest_command;
pub use complete::{COMMANDS, Completer};
pub use response::{BoardView, Marks, Output, Place, Response, Save, SaveFormat, SaveMode};

use input::{MAX_SECONDS, parse_depth, parse_seconds, tokens};
use record::{DERIVED_TAGS, ENGINE_NAME, Ending};

/// Why a typed move was not played.
enum Unread {
    /// It is no move in any spelling.
    Syntax(ParseSanError),
    /// It names no legal move, or more than one.
    Refused(SanError),
    /// A null move, which typed moves never are (the reason).
    NullMove(String),
}

/// How a session starts.
#[derive(Clone, Debug)]
pub struct Options {
    /// The position the game starts from (and `new` goes back to).
    pub start: Position,
    /// The piece letters moves are read in (and `moves` lists in).
    pub letters: Letters,
    /// Show the board after every line of moves.
    pub board: bool,
    /// The `Date` tag of the games played (`2026.11.24`); unknown
    /// (`????.??.??`) when `None`.
    pub date: Option<String>,
    /// How `load` opens a file; `None`: [`std::fs::File::open`], whose
    /// reads fail once the stop flag is raised (see [`OpenFile`]).
    pub open: Option<OpenFile>,
}

/// How `load` opens the file at a path, on a thread of its own: a reader
/// whose reads fail once the flag given is raised (Ctrl-C). The standard
/// library's `open` and `read` wait for a FIFO's writer and a terminal's
/// input, and cannot be stopped: a thread left waiting in them takes the
/// first bytes that come. A front end that can wait otherwise (`poll`)
/// gives its own.
pub type OpenFile = fn(&Path, Arc<AtomicBool>) -> std::io::Result<Box<dyn std::io::Read + Send>>;

impl Default for Options {
    /// The initial position, English letters, no board after moves, no date.
    fn default() -> Options {
        Options { start: Position::default(), letters: Letters::English, board: false, date: None, open: None }
    }
}

/// A game over: its result and why (`checkmate`, `White resigned`, `draw
/// agreed`, `draw claimed (threefold repetition)`, `result as loaded`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOver {
    /// The result.
    pub result: Outcome,
    /// Why the game is over, lowercase but for a side's name.
    pub reason: String,
}

/// The longest the engine thinks for a move searched to a given depth
/// (`go 12`): the depth is reached sooner, or the best move found by then is
/// played.
pub const DEPTH_TIME_LIMIT: Duration = Duration::from_secs(10);

/// A game being played at the REPL, with its settings.
#[derive(Clone, Debug)]
pub struct Session {
    game: Game,
    start: Position,
    letters: Letters,
    /// Black's side at the bottom of the boards shown.
    flipped: bool,
    show_board: bool,
    /// The side the engine plays after the user's moves, if any.
    engine_side: Option<Color>,
    /// The depth of the engine's automatic answers (`None`: the time budget).
    engine_depth: Option<u32>,
    /// How `moves` lists moves and Tab completes them.
    notation: Notation,
    /// Raised to stop the engine's search (Ctrl-C in the front end).
    stop: Arc<AtomicBool>,
    /// The game's tags, in order (`Result` is set when the game is written).
    tags: Vec<Tag>,
    /// The game loaded from PGN, if any: its comments, NAGs and variations
    /// are written back where the moves played follow its mainline.
    loaded: Option<PgnGame>,
    /// The file the game was loaded from, if any.
    loaded_from: Option<LoadedFrom>,
    /// How the game ended off the board, if it did.
    ending: Option<Ending>,
    /// Which of the session's games this is ([`Save::game`]): 0 the first,
    /// one more each time another takes its place (`new`, `load`).
    game_number: u64,
    /// The `Date` tag of new games.
    date: Option<String>,
    /// How `load` opens a file.
    open: OpenFile,
}

impl Session {
    /// A session at `options.start` with no move played yet, moves read in
    /// `options.letters`, listed in SAN.
    pub fn new(options: Options) -> Session {
        let tags = record::fresh_tags(&options.start, options.date.as_deref());
        Session {
            game: Game::new(options.start.clone()),
            start: options.start,
            letters: options.letters,
            flipped: false,
            show_board: options.board,
            engine_side: None,
            engine_depth: None,
            notation: Notation::San,
            stop: Arc::new(AtomicBool::new(false)),
            tags,
            loaded: None,
            loaded_from: None,
            ending: None,
            game_number: 0,
            date: options.date,
            open: options.open.unwrap_or(open_stoppable),
        }
    }

    /// Whether the game is over, and how: on the board (checkmate,
    /// stalemate, insufficient material, fivefold repetition, the
    /// seventy-five-move rule) or off it (a resignation, a draw agreed or
    /// claimed, the result of a loaded game).
    ///
    /// ```
    /// use sanfen::repl::{Options, Session};
    /// use sanfen::{Color, Outcome};
    ///
    /// let mut session = Session::new(Options::default());
    /// session.eval("f3 e5 g4 Qh4");
    /// let over = session.over().unwrap();
    /// assert_eq!((over.result, over.reason.as_str()), (Outcome::Decisive { winner: Color::Black }, "checkmate"));
    /// session.eval("undo");
    /// session.eval("resign");
    /// assert_eq!(session.over().unwrap().reason, "Black resigned");
    /// ```
    pub fn over(&self) -> Option<GameOver> {
        if let Some(end) = self.game.end() {
            return Some(GameOver { result: end.result, reason: end.reason.to_string() });
        }
        let ending = self.ending.as_ref().filter(|ending| ending.moves == self.game.moves())?;
        Some(GameOver { result: ending.result, reason: ending.reason.clone() })
    }

    /// The game's tags, in order, `Result` as the game stands.
    pub fn tags(&self) -> Vec<Tag> {
        let mut tags = self.tags.clone();
        record::set(&mut tags, "Result", self.over().map_or("*", |over| over.result.as_str()));
        tags
    }

    /// A new game from `start`: fresh tags, nothing loaded, no ending.
    fn start_game(&mut self, start: Position) {
        self.tags = record::fresh_tags(&start, self.date.as_deref());
        self.game = Game::new(start);
        self.loaded = None;
        self.loaded_from = None;
        self.ending = None;
        self.game_number += 1;
        self.name_engine();
    }

    /// The engine's side named `sanfen` in its `White` or `Black` tag (when
    /// unknown), and a side it no longer plays named unknown again.
    fn name_engine(&mut self) {
        for color in [Color::White, Color::Black] {
            let name = record::player_tag(color);
            let plays = self.engine_side == Some(color);
            match record::get(&self.tags, name) {
                Some("?") | None if plays => record::set(&mut self.tags, name, ENGINE_NAME),
                Some(ENGINE_NAME) if !plays => record::set(&mut self.tags, name, "?"),
                _ => {}
            }
        }
    }

    /// The flag that stops the engine's search when raised: the search then
    /// plays its best move so far. It also ends a `load` still reading its
    /// file (nothing is then loaded). Each search and load lowers it when it
    /// starts, so a flag raised while neither runs stops nothing.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The piece letters moves are read in.
    pub fn letters(&self) -> Letters {
        self.letters
    }

    /// The notation of move listings and completion.
    pub fn notation(&self) -> Notation {
        self.notation
    }

    /// The legal moves of the current position in the session's notation
    /// and letters, by piece value (pawns first), as `moves` lists them.
    pub fn legal_moves(&self) -> Vec<String> {
        let position = self.game.position();
        let mut moves = position.legal_moves();
        notation::sort_by_value(&mut moves);
        moves.iter().map(|&m| notation::write_move(position, m, self.notation, self.letters)).collect()
    }

    /// What completes a word typed now: the legal moves of the current
    /// position ([`Session::legal_moves`]), the commands and their
    /// arguments.
    pub fn completer(&self) -> Completer {
        Completer::new(self.legal_moves())
    }

    /// Reads one line (a command or moves, see the [module](self) docs) and
    /// answers it. Any text is a normal input: what cannot be read is
    /// refused with an [`Output::Error`] saying why, and the game is then as
    /// before the refused move. Nothing is printed and no file is touched:
    /// `save` answers with an [`Output::Save`] for the caller to write. `go`
    /// and the engine's answers (`play`) take their thinking time here
    /// (stopped early by [`Session::stop_flag`]).
    pub fn eval(&mut self, line: &str) -> Response {
        let mut response = Response::default();
        let tokens = tokens(line);
        let Some(&(_, first)) = tokens.first() else {
            return response;
        };
        let rest: Vec<&str> = tokens[1..].iter().map(|&(_, t)| t).collect();
        let name = first.to_ascii_lowercase();
        if NO_ARGUMENT.contains(&name.as_str()) && !rest.is_empty() {
            response.fail(format!("{name} takes no argument; usage: {name}"));
            return response;
        }
        if first.starts_with('[') {
            self.pgn_line(line.trim(), &mut response);
            return response;
        }
        match name.as_str() {
            "board" => self.board_command(&rest, &mut response),
            "fen" => response.line(self.game.position().to_string()),
            "load" => self.load(line.trim_start()[first.len()..].trim(), &mut response),
            "tag" => self.tag_command(line.trim_start()[first.len()..].trim(), &mut response),
            "resign" => self.resign(&mut response),
            "draw" => self.draw(&mut response),
            "claim" => self.claim(&mut response),
            "moves" => self.moves_command(&rest, &mut response),
            "attacks" => self.attacks_command(&rest, &mut response),
            "undo" => self.undo(&rest, &mut response),
            "redo" => self.redo(&rest, &mut response),
            "history" => response.line(self.history()),
            "pgn" => self.pgn().lines().for_each(|line| response.line(line)),
            "new" => {
                self.start_game(self.start.clone());
                response.line("new game");
                self.show_position(&mut response);
            }
            "flip" => {
                self.flipped = !self.flipped;
                response.board(self.board_view(Marks::default()));
            }
            "letters" => self.letters_command(&rest, &mut response),
            "notation" => self.notation_command(&rest, &mut response),
            "save" | "save!" | "append" => {
                let mode = SaveMode::ALL.into_iter().find(|mode| mode.command() == name).unwrap_or(SaveMode::New);
                self.save(line.trim_start()[first.len()..].trim(), mode, &mut response);
            }
            "help" | "?" => {
                response.line(
                    "type moves (e4 e5 Nf3, 1. e4 e5, 0-0, Ng1-f3, e8Q, ...), a result (1-0, 0-1, 1/2-1/2) \
                     or a command:",
                );
                for (usage, what) in COMMANDS {
                    response.line(format!("  {usage:<30} {what}"));
                }
            }
            "quit" | "exit" => response.quit = true,
            "go" => self.go(&rest, &mut response),
            "play" => self.play_command(&rest, &mut response),
            _ if self.is_command_word(first) => response.fail(unknown_command(first)),
            _ => self.play_line(line, &mut response),
        }
        response
    }

    /// Whether the first word of a line, not a command, is a mistyped
    /// command rather than a move. Every spelling of a move stays a move (and
    /// gets the move's error when it is wrong): a word is a command word only
    /// if it is made of ASCII letters alone (so no move number `1.`, no
    /// castling `O-O`/`0-0`, no square `e4`, no figurine), at least two of
    /// them, the SAN reader does not read it (in the session's letters, legal
    /// or not), and it does not start like a move: not `OO` (castling), not a
    /// file letter then `x` and a file letter or nothing (`exd`, `ex`:
    /// `explain` is a command word), not two file letters alone (a pawn
    /// capture written short: `ed`), not an uppercase piece letter of the
    /// session's letters (English letters included) then a file letter or `x`
    /// (`Nxe`, `Bad`; in Portuguese `Dama` too). So `castle`, `hepl` and
    /// `flipp` are command words, while `Rest` reads as a rook move.
    fn is_command_word(&self, word: &str) -> bool {
        let bytes = word.as_bytes();
        if bytes.len() < 2 || !bytes.iter().all(u8::is_ascii_alphabetic) {
            return false;
        }
        let file = |b: u8| (b'a'..=b'h').contains(&b);
        let starts_like_a_move = bytes.starts_with(b"OO")
            || (file(bytes[0]) && bytes[1] == b'x' && bytes.get(2).is_none_or(|&b| file(b)))
            || (bytes.len() == 2 && file(bytes[0]) && file(bytes[1]))
            || (bytes[0].is_ascii_uppercase()
                && self.letters.role_of(char::from(bytes[0])).is_some()
                && (file(bytes[1]) || bytes[1] == b'x'));
        !starts_like_a_move && matches!(self.read_move(word), Err(Unread::Syntax(_)))
    }

    /// Plays the moves of a line until one cannot be played; a game result
    /// among them ends the game there ([`Session::typed_result`]).
    fn play_line(&mut self, line: &str, response: &mut Response) {
        let words = play::words_in(line);
        let texts: Vec<&str> = words.iter().map(|word| &line[word.span()]).collect();
        let mut played = false;
        for (index, word) in words.iter().enumerate() {
            let (span, text) = (word.span(), texts[index]);
            if let Word::Result(result, _) = *word {
                if self.typed_result(result, text, response) {
                    continue;
                }
            } else if let Some(over) = self.over() {
                let quoted: Vec<String> = texts[index..].iter().map(|t| format!("\"{t}\"")).collect();
                response.fail(format!("{}: {} not played; undo or new to play on", game_over(&over), quoted.join(" ")));
                break;
            } else {
                match self.read_move(text) {
                    Ok((m, canonical)) => {
                        let typed = if canonical { None } else { Some(text) };
                        if !self.play_move(m, typed, response) {
                            break;
                        }
                        played = true;
                        continue;
                    }
                    Err(unread) => say_unread(line, span, text, &unread, response),
                }
            }
            // refused, and said why: the rest of the line is not played
            not_played(&texts[index + 1..], response);
            break;
        }
        if played {
            self.engine_answers(response);
        }
        if played && self.show_board {
            response.board(self.board_view(Marks::default()));
        }
    }

    /// A game result typed among moves (`1. e4 e5 ... 1-0`, as a scoresheet
    /// ends): the game ends there with it, off the board, as `resign` and
    /// `draw` end it (`undo` takes it back). A result the game's end already
    /// gives passes; any other after the end is refused, as is a decisive
    /// or drawn result against the engine (`resign`, `draw` and `claim` end
    /// such a game). `*` is no end. False when refused.
    fn typed_result(&mut self, result: ResultToken, text: &str, response: &mut Response) -> bool {
        let outcome = match (self.over(), result) {
            (Some(over), ResultToken::Outcome(outcome)) if over.result == outcome => return true,
            (Some(over), _) => {
                response.fail(format!("{}: the result \"{text}\" does not fit", game_over(&over)));
                return false;
            }
            (None, ResultToken::Unknown) => {
                response.line(format!("\"{text}\": no result yet, the game goes on"));
                return true;
            }
            (None, ResultToken::Outcome(_)) if self.engine_side.is_some() => {
                response.fail(format!(
                    "\"{text}\": against the engine, a game ends on the board or by resign, draw or claim"
                ));
                return false;
            }
            (None, ResultToken::Outcome(outcome)) => outcome,
        };
        self.end_off_the_board(outcome, "result as typed".to_owned());
        self.announce_end(response);
        true
    }

    /// Reads a typed move (any spelling the lenient SAN reader accepts, in
    /// the session's letters) in the current position: the move, and whether
    /// it was typed in canonical SAN. The one place the session reads moves.
    fn read_move(&self, text: &str) -> Result<(Move, bool), Unread> {
        match play::read(self.game.position(), text.as_bytes(), play::Options::typed(self.letters)) {
            Ok(played) => match played.m {
                Some(m) => Ok((m, played.is_canonical())),
                // typed moves refuse null moves (the resolver says why)
                None => Err(Unread::NullMove("a null move is not a move".to_owned())),
            },
            Err(PlayError::NotAMove(err)) => Err(Unread::Syntax(err)),
            Err(PlayError::Move(err)) => Err(Unread::Refused(err)),
            Err(err @ PlayError::NullMoveInCheck) => Err(Unread::NullMove(err.to_string())),
        }
    }

    /// Plays a legal move and shows it: `12. Nf3` (with the spelling typed
    /// when it was not canonical: `(Ng1-f3 -> Nf3)`), the new FEN and the
    /// game's end. False (and an error line) if the move is not legal.
    fn play_move(&mut self, m: Move, typed: Option<&str>, response: &mut Response) -> bool {
        let position = self.game.position().clone();
        let san = notation::san_plus(&position, m).to_string();
        if self.game.play(m).is_err() {
            // the resolver and the engine only return legal moves; keep the promise anyway
            response.fail(format!("illegal move \"{}\"", typed.unwrap_or(&san)));
            return false;
        }
        let mut shown = format!("{} {san}", MoveNumber::before(&position));
        if let Some(text) = typed {
            shown.push_str(&format!(" ({text} -> {san})"));
        }
        response.line(shown);
        response.line(self.game.position().to_string());
        // an ending off the board holds for its moves only
        if self.ending.as_ref().is_some_and(|ending| !ending.moves.starts_with(self.game.moves())) {
            self.ending = None;
        }
        self.announce_end(response);
        true
    }

    /// After the user's moves: the engine's answer when it plays the side to
    /// move and the game goes on.
    fn engine_answers(&mut self, response: &mut Response) {
        if self.engine_side == Some(self.game.position().turn()) && self.over().is_none() {
            self.engine_move(self.engine_depth, response);
        }
    }

    /// The engine plays a move for the side to move, to `depth` (at most
    /// [`DEPTH_TIME_LIMIT`]) or for about a second. False when the game is over.
    fn engine_move(&mut self, depth: Option<u32>, response: &mut Response) -> bool {
        let limits = match depth {
            Some(depth) => Limits { depth: Some(depth), time: Some(DEPTH_TIME_LIMIT) },
            None => Limits::time(engine::DEFAULT_TIME),
        };
        self.search_and_play(limits, response)
    }

    /// Searches within `limits` (or until the stop flag), shows the search
    /// (`engine: Nf3 (eval +0.20, depth 6, 12345 nodes, 0.98 s)`) and plays
    /// the move. False when the game is over.
    fn search_and_play(&mut self, limits: Limits, response: &mut Response) -> bool {
        if let Some(over) = self.over() {
            response.fail(format!("{}: undo or new to play on", game_over(&over)));
            return false;
        }
        self.stop.store(false, Ordering::Relaxed);
        let start = Instant::now();
        let position = self.game.position().clone();
        let result = Engine::new().search_with_stop(&position, limits, &self.stop);
        let elapsed = start.elapsed();
        self.stop.store(false, Ordering::Relaxed);
        match result {
            Some(result) => {
                response.line(search_line(&position, &result, elapsed));
                self.play_move(result.best, None, response)
            }
            None => {
                // `end` above covers every position without a legal move
                response.fail("no legal move: the game is over");
                false
            }
        }
    }

    /// `go [DEPTH | depth N | SECONDSs]`: the engine moves for the side to move.
    fn go(&mut self, args: &[&str], response: &mut Response) {
        const USAGE: &str = "usage: go [DEPTH | depth N | SECONDSs]";
        let max = engine::MAX_DEPTH;
        let bad_depth = |n: &str| format!("{USAGE}: \"{n}\" is not a depth from 1 to {max}");
        let limits = match args {
            [] => Limits::time(engine::DEFAULT_TIME),
            [word, n] if word.eq_ignore_ascii_case("depth") => match parse_depth(n) {
                Some(depth) => Limits { depth: Some(depth), time: Some(DEPTH_TIME_LIMIT) },
                None => {
                    response.fail(bad_depth(n));
                    return;
                }
            },
            [word] if word.eq_ignore_ascii_case("depth") => {
                response.fail(USAGE);
                return;
            }
            [n] if n.ends_with(['s', 'S']) => match parse_seconds(&n[..n.len() - 1]) {
                Some(time) => Limits::time(time),
                None => {
                    response.fail(format!("{USAGE}: \"{n}\" is not a time from 0.1s to {MAX_SECONDS}s"));
                    return;
                }
            },
            [n] => match parse_depth(n) {
                Some(depth) => Limits { depth: Some(depth), time: Some(DEPTH_TIME_LIMIT) },
                None => {
                    response.fail(bad_depth(n));
                    return;
                }
            },
            _ => {
                response.fail(USAGE);
                return;
            }
        };
        if self.search_and_play(limits, response) {
            self.engine_answers(response);
            if self.show_board {
                response.board(self.board_view(Marks::default()));
            }
        }
    }

    /// `play white|black|off [DEPTH]`: who the engine plays, at what depth.
    fn play_command(&mut self, args: &[&str], response: &mut Response) {
        const USAGE: &str = "usage: play white|black|off [DEPTH]";
        let (who, depth) = match args {
            [who] => (*who, None),
            [who, n] => match parse_depth(n) {
                Some(depth) => (*who, Some(depth)),
                None => {
                    response.fail(format!("{USAGE}: \"{n}\" is not a depth from 1 to {}", engine::MAX_DEPTH));
                    return;
                }
            },
            _ => {
                response.fail(USAGE);
                return;
            }
        };
        let side = match who.to_ascii_lowercase().as_str() {
            "white" | "w" => Some(Color::White),
            "black" | "b" => Some(Color::Black),
            "off" | "none" => None,
            _ => {
                response.fail(USAGE);
                return;
            }
        };
        self.engine_side = side;
        self.engine_depth = depth;
        self.name_engine();
        let Some(color) = side else {
            response.line("engine: off");
            return;
        };
        let budget = depth.map_or_else(|| "about a second a move".to_owned(), |d| format!("depth {d}"));
        response.line(format!("engine: plays {} ({budget})", color.name()));
        if self.game.position().turn() == color
            && self.over().is_none()
            && self.engine_move(depth, response)
            && self.show_board
        {
            response.board(self.board_view(Marks::default()));
        }
    }

    /// Game over or a draw to claim, if so.
    fn announce_end(&self, response: &mut Response) {
        if let Some(over) = self.over() {
            let who = match over.result {
                Outcome::Decisive { winner } => format!("{} wins", side(winner)),
                Outcome::Draw => "draw".to_owned(),
            };
            response.line(format!("game over: {}, {} ({who})", over.reason, over.result));
        } else if let Some(claim) = self.game.claimable() {
            response.line(format!("{} may claim a draw: {claim} (type claim)", side(self.game.position().turn())));
        }
    }

    /// The FEN, and the board when board mode is on.
    fn show_position(&self, response: &mut Response) {
        response.line(self.game.position().to_string());
        if self.show_board {
            response.board(self.board_view(Marks::default()));
        }
    }

    /// The board of the current position with `marks`, the last move and a
    /// checked king added.
    fn board_view(&self, mut marks: Marks) -> BoardView {
        let position = self.game.position();
        marks.last_move = self.game.moves().last().map(|m| (m.from(), m.to()));
        if position.is_check() {
            marks.check = Some(position.our_king());
        }
        BoardView { board: position.board().clone(), flipped: self.flipped, marks }
    }

    fn board_command(&mut self, args: &[&str], response: &mut Response) {
        match args {
            [] => response.board(self.board_view(Marks::default())),
            [mode] if mode.eq_ignore_ascii_case("on") => {
                self.show_board = true;
                response.line("board: on");
            }
            [mode] if mode.eq_ignore_ascii_case("off") => {
                self.show_board = false;
                response.line("board: off");
            }
            _ => response.fail("usage: board [on|off]"),
        }
    }

    /// `load FEN | FILE [N] | PGN`: a position, a game of a PGN file (the
    /// first, or the N-th), a binary move log (`.bin`), or PGN text.
    fn load(&mut self, text: &str, response: &mut Response) {
        const USAGE: &str = "usage: load FEN | load FILE [N] | load PGN";
        if text.is_empty() {
            response.fail(USAGE);
            return;
        }
        if let Some((path, number)) = file_argument(text) {
            self.load_path(&path, number, response);
            return;
        }
        if let Some(why) = no_such_game(text) {
            response.fail(why);
            return;
        }
        let first = text.split_whitespace().next().unwrap_or_default();
        if looks_like_a_file_name(text) {
            response.fail(format!("cannot read {}: no such file", unquote(text)));
        } else if first.contains('/') {
            self.load_fen(text, response);
        } else {
            self.load_pgn_text(text, response);
        }
    }

    /// Loads a game from a file: the first game of a PGN file (plain or
    /// compressed), or its `number`-th (from 1), or a binary move log (a
    /// name ending in `.bin`, replayed from the session's first position).
    /// The game's moves can be undone and played again; its tags, comments,
    /// NAGs, variations and result are kept and written back by `save`.
    /// Its moves are read in English letters, as PGN is written, or in the
    /// session's when the game gets further so (a file written in them).
    ///
    /// ```
    /// use sanfen::repl::{Options, Session};
    ///
    /// let dir = std::env::temp_dir().join(format!("sanfen-load-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("games.pgn");
    /// std::fs::write(&path, "[White \"A\"]\n\n1. e4 {best by test} e5 *\n\n[White \"B\"]\n\n1. d4 d5 2. c4 1-0\n")?;
    /// let mut session = Session::new(Options::default());
    /// let response = session.load_file(&path, Some(2));
    /// assert_eq!(response.lines().next().unwrap(), format!("loaded game 2 of {}: B - ?, 3 moves, 1-0", path.display()));
    /// assert_eq!(session.over().unwrap().reason, "result as loaded");
    /// session.load_file(&path, None);
    /// assert!(session.pgn().ends_with("1. e4 {best by test} 1... e5 *\n"));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn load_file(&mut self, path: &Path, number: Option<usize>) -> Response {
        let mut response = Response::default();
        self.load_path(path, number, &mut response);
        response
    }

    fn load_path(&mut self, path: &Path, number: Option<usize>, response: &mut Response) {
        let shown = crate::pgn::shown_name(path.as_os_str());
        if number == Some(0) {
            response.fail("games are counted from 1");
            return;
        }
        if is_move_log(path) {
            if number.is_some_and(|n| n > 1) {
                response.fail(format!("{shown} is a binary move log: it holds one game"));
                return;
            }
            self.load_move_log(path, &shown, response);
            return;
        }
        let wanted = number.unwrap_or(1);
        let find = |letters: Letters| {
            let at = path.to_path_buf();
            let found = self.read_apart(path, move |file| {
                // as `read_games_path` reads a file
                let size = std::fs::metadata(at).ok().map(|metadata| metadata.len());
                match crate::pgn::Input::from_reader(file, size) {
                    Ok(input) => find_game_in(input, wanted, letters),
                    Err(error) => FoundGame::Unreadable(error.to_string()),
                }
            });
            found.unwrap_or_else(FoundGame::Unreadable)
        };
        let mut found = find(Letters::English);
        // a game in the session's letters (a regular file can be read again,
        // a FIFO's writer has gone); a second read stopped by Ctrl-C loads
        // nothing, as the first would
        if let FoundGame::Game(game, _) = &found
            && self.letters != Letters::English
            && game.report.errors > 0
            && std::fs::metadata(path).is_ok_and(|metadata| metadata.is_file())
        {
            match find(self.letters) {
                FoundGame::Game(local, others) if played(&local) > played(game) => {
                    found = FoundGame::Game(local, others);
                }
                unreadable @ FoundGame::Unreadable(_) => found = unreadable,
                _ => {}
            }
        }
        if let FoundGame::Game(game, others) = found {
            let from = LoadedFrom { path: path.to_path_buf(), game: wanted, others, unloaded: None };
            self.adopt(*game, &format!("game {wanted} of {shown}"), Some(from), response);
        } else if let Some(why) = found.failure(&shown, wanted) {
            response.fail(why);
        }
    }

    /// `read` on the file at `path`, opened and read on a thread of its own
    /// while this one waits for it or for the stop flag (raised by Ctrl-C):
    /// opening a FIFO waits for a program to write to it, and a large file
    /// takes time. When the flag is raised first: `Err`, the session as it
    /// was, and the thread stops as its [`OpenFile`] can: the default one at
    /// its next read (or, waiting for a FIFO's writer, when one comes).
    fn read_apart<T: Send + 'static>(
        &self,
        path: &Path,
        read: impl FnOnce(Box<dyn std::io::Read + Send>) -> T + Send + 'static,
    ) -> Result<T, String> {
        use std::sync::mpsc::{RecvTimeoutError, channel};
        self.stop.store(false, Ordering::Relaxed);
        let stopped = Arc::new(AtomicBool::new(false));
        let (send, receive) = channel();
        let (path, flag, open) = (path.to_path_buf(), Arc::clone(&stopped), self.open);
        std::thread::Builder::new()
            .name("sanfen-load".to_owned())
            .spawn(move || {
                let _ = send.send(open(&path, flag).map(read));
            })
            .map_err(|error| format!("cannot start a thread to read it: {error}"))?;
        loop {
            match receive.recv_timeout(Duration::from_millis(50)) {
                Ok(read) => return read.map_err(|error| error.to_string()),
                Err(RecvTimeoutError::Timeout) if self.stop.swap(false, Ordering::Relaxed) => {
                    stopped.store(true, Ordering::Relaxed);
                    return Err("interrupted (Ctrl-C); nothing loaded".to_owned());
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err("its reading thread ended".to_owned()),
            }
        }
    }

    /// Replays a binary move log from the session's first position.
    fn load_move_log(&mut self, path: &Path, shown: &str, response: &mut Response) {
        // 16 bytes a move: a longer log is no game anyone played
        const MAX_BYTES: u64 = 16 * 100_000;
        let bytes = match self.read_apart(path, |file| read_at_most(file, MAX_BYTES)) {
            Ok(Ok(Some(bytes))) => bytes,
            Ok(Ok(None)) => {
                response.fail(format!("cannot load {shown}: a binary move log of more than {MAX_BYTES} bytes"));
                return;
            }
            Ok(Err(error)) => {
                response.fail(format!("cannot read {shown}: {error}"));
                return;
            }
            Err(why) => {
                response.fail(format!("cannot read {shown}: {why}"));
                return;
            }
        };
        match Game::from_move_log(self.start.clone(), &bytes) {
            Ok(game) => {
                self.start_game(self.start.clone());
                self.game = game;
                let moves = self.game.moves().len();
                response.line(format!("loaded {moves} {} from {shown} (binary move log)", plural(moves, "move")));
                self.show_position(response);
                self.announce_end(response);
            }
            Err(error) => response.fail(format!("cannot load {shown}: {error}")),
        }
    }

    /// A line that starts with a tag pair, which no move or command does: PGN
    /// text, typed or pasted. Tags alone are set as `tag` sets them (a game
    /// pasted a line at a time gets its tags, then its moves played); with
    /// movetext, the game is loaded as `load PGN` loads it (a game pasted
    /// whole, its lines in one).
    fn pgn_line(&mut self, text: &str, response: &mut Response) {
        let games = self.read_pgn_text(text);
        if let [game] = games.as_slice()
            && game.mainline.moves.is_empty()
            && game.result.is_none()
            && !game.report.findings.iter().any(|finding| finding.severity == Severity::Error)
        {
            for tag in &game.tags {
                let name = self.tag_name(&tag.name);
                self.set_tag(&name, &tag.value, response);
            }
            return;
        }
        let error = games
            .first()
            .filter(|game| game.tags.is_empty() && game.mainline.moves.is_empty())
            .and_then(|game| game.report.findings.iter().find(|finding| finding.severity == Severity::Error));
        match error {
            Some(error) => response.fail(format!("cannot read \"{text}\" as PGN: {}", error.kind)),
            None => self.adopt_first(games, text, response),
        }
    }

    /// `load PGN`: the first game of PGN text typed or pasted on the line.
    fn load_pgn_text(&mut self, text: &str, response: &mut Response) {
        let games = self.read_pgn_text(text);
        self.adopt_first(games, text, response);
    }

    /// The games of PGN text typed or pasted: read in English letters, as
    /// PGN is written, or in the session's when the first game gets further
    /// so (`Cf3` in Portuguese is Nf3, but `Re1`, a rook's move in English,
    /// is a king's).
    fn read_pgn_text(&self, text: &str) -> Vec<PgnGame> {
        let games = read_games_from_slice_in(text.as_bytes(), Letters::English);
        if self.letters == Letters::English || games.first().is_none_or(|game| game.report.errors == 0) {
            return games;
        }
        let local = read_games_from_slice_in(text.as_bytes(), self.letters);
        match (games.first(), local.first()) {
            (Some(english), Some(first)) if played(first) > played(english) => local,
            _ => games,
        }
    }

    /// Makes the first of `games`, read from `text`, the session's game.
    fn adopt_first(&mut self, mut games: Vec<PgnGame>, text: &str, response: &mut Response) {
        let count = games.len();
        let playable = games.first().is_some_and(|game| !game.tags.is_empty() || !game.mainline.moves.is_empty());
        if !playable {
            response.fail(format!(
                "cannot load \"{text}\": no such file, and no FEN or PGN; usage: load FEN | load FILE [N] | load PGN"
            ));
            return;
        }
        let label =
            if count == 1 { "the game given".to_owned() } else { format!("the first of the {count} games given") };
        self.adopt(games.swap_remove(0), &label, None, response);
    }

    /// Makes a game read from PGN the session's game: its moves up to the
    /// first that cannot be played (said), its tags, its result when all of
    /// its mainline was played, and the game itself for `save`; `shared`,
    /// the file it comes from, if any.
    fn adopt(&mut self, record: PgnGame, label: &str, from: Option<LoadedFrom>, response: &mut Response) {
        let Some(start) = record.start.clone() else {
            let why =
                match (&record.report.skipped, record.report.findings.iter().find(|f| f.severity == Severity::Error)) {
                    (Some(variant), _) => format!("it is a game of {variant}, which sanfen does not play"),
                    (None, Some(finding)) => finding.kind.to_string(),
                    (None, None) => "its starting position is not known".to_owned(),
                };
            response.fail(format!("cannot load {label}: {why}"));
            return;
        };
        let mut game = Game::new(start);
        let mut stopped = None;
        for node in &record.mainline.moves {
            if node.played.is_none_or(|m| game.play(m).is_err()) {
                stopped = Some(node);
                break;
            }
        }
        let error = record.report.findings.iter().find(|f| f.severity == Severity::Error);
        let complete = stopped.is_none() && error.is_none();
        self.game = game;
        self.game_number += 1;
        self.tags.clone_from(&record.tags);
        record::complete_roster(&mut self.tags);
        self.ending = None;
        let result = match record.result {
            Some(ResultToken::Outcome(outcome)) => Some(outcome),
            Some(ResultToken::Unknown) => None,
            None => record.tag("Result").and_then(|value| value.parse().ok()),
        };
        if let Some(result) = result.filter(|_| complete && self.game.end().is_none()) {
            self.ending =
                Some(Ending { moves: self.game.moves().to_vec(), result, reason: "result as loaded".to_owned() });
        }
        let moves = self.game.moves().len();
        let (white, black) = (record.tag("White").unwrap_or("?"), record.tag("Black").unwrap_or("?"));
        let shown_result = result.map_or("*", Outcome::as_str);
        response.line(format!("loaded {label}: {white} - {black}, {moves} {}, {shown_result}", plural(moves, "move")));
        if let Some(finding) = error {
            let place = format!("{}:{}", finding.at.line, finding.at.column);
            let token = if finding.token.is_empty() { String::new() } else { format!(" \"{}\"", finding.token) };
            response.line(format!(
                "warning: the game has an error at {place}{token}: {}; loaded the {moves} {} before it",
                finding.kind,
                plural(moves, "move")
            ));
        } else if let Some(node) = stopped {
            response.line(format!(
                "warning: \"{}\" (a null move) cannot be played here; loaded the {moves} {} before it",
                node.written,
                plural(moves, "move")
            ));
        }
        let rest = match (error, stopped) {
            (Some(finding), _) => Some(format!("an error at {}:{}", finding.at.line, finding.at.column)),
            (None, Some(node)) => Some(format!("\"{}\", which cannot be played", node.written)),
            (None, None) => None,
        };
        self.loaded_from = from.map(|from| LoadedFrom { unloaded: rest, ..from });
        self.loaded = Some(record);
        self.show_position(response);
        self.announce_end(response);
    }

    /// `load FEN`: standard castling, or Chess960's when the position needs
    /// it (or the session plays Chess960); a position no game reaches is
    /// taken as given, with a warning.
    fn load_fen(&mut self, text: &str, response: &mut Response) {
        let modes = if self.start.castling_mode() == CastlingMode::Chess960 {
            [CastlingMode::Chess960, CastlingMode::Standard]
        } else {
            [CastlingMode::Standard, CastlingMode::Chess960]
        };
        let fen = match Fen::parse(text, modes[0]) {
            Ok(fen) => fen,
            Err(error) => {
                response.fail(format!("invalid FEN: {error}"));
                return;
            }
        };
        let position = match Position::from_setup(fen.setup.clone(), modes[0]) {
            Ok(position) => position,
            Err(strict_error) => {
                let other =
                    Fen::parse(text, modes[1]).ok().and_then(|fen| Position::from_setup(fen.setup, modes[1]).ok());
                match other {
                    Some(position) => {
                        if modes[1] == CastlingMode::Chess960 {
                            response.line("a Chess960 position (its castling rights need Chess960 castling)");
                        }
                        position
                    }
                    None => match Position::from_setup_lenient(fen.setup, modes[0]) {
                        Ok(position) => {
                            response.line(format!("warning: no legal game reaches this position: {strict_error}"));
                            position
                        }
                        Err(error) => {
                            response.fail(format!("invalid position: {error}"));
                            return;
                        }
                    },
                }
            }
        };
        self.start_game(position);
        self.show_position(response);
        self.announce_end(response);
    }

    /// `tag [NAME [VALUE]]`: lists the tags, shows one, or sets it (an empty
    /// value, `""`, removes a tag outside the Seven Tag Roster and makes a
    /// roster tag unknown).
    fn tag_command(&mut self, text: &str, response: &mut Response) {
        const USAGE: &str = "usage: tag [NAME [VALUE]]";
        let Some(name) = text.split_whitespace().next() else {
            for tag in self.tags() {
                response.line(tag_line(&tag));
            }
            return;
        };
        if !record::is_tag_name(name) {
            response.fail(format!("{USAGE}: \"{name}\" is not a tag name (letters, digits and _+#=:-)"));
            return;
        }
        let name = self.tag_name(name);
        let value = text[text.find(char::is_whitespace).unwrap_or(text.len())..].trim();
        if value.is_empty() {
            match self.tags().into_iter().find(|t| t.name == name) {
                Some(tag) => response.line(tag_line(&tag)),
                None => response.fail(format!("no tag {name}")),
            }
            return;
        }
        self.set_tag(&name, &unquote(value), response);
    }

    /// A tag name as the game has it, or a roster tag's, whatever the case
    /// typed (`event` is `Event`).
    fn tag_name(&self, name: &str) -> String {
        let roster = crate::pgn::SEVEN_TAG_ROSTER.iter().map(|&(n, _)| n);
        let known = self.tags.iter().map(|t| t.name.as_str()).chain(roster).find(|n| n.eq_ignore_ascii_case(name));
        known.map_or_else(|| name.to_owned(), str::to_owned)
    }

    /// Sets tag `name` to `value` (empty: removed, or unknown for a roster
    /// tag), and says it; refused for a tag the game sets itself and for a
    /// value with a control character.
    fn set_tag(&mut self, name: &str, value: &str, response: &mut Response) {
        if let Some(derived) = DERIVED_TAGS.iter().find(|d| d.eq_ignore_ascii_case(name)) {
            let by = if *derived == "Result" {
                "the game: resign, draw, claim or a result typed after the moves (1-0) end it"
            } else {
                "the starting position: load or new change it"
            };
            response.fail(format!("{derived} is set by {by}"));
            return;
        }
        if value.chars().any(char::is_control) {
            response.fail(format!("tag {name}: a tag value holds no control character"));
            return;
        }
        let unknown = crate::pgn::SEVEN_TAG_ROSTER.iter().find(|&&(n, _)| n == name).map(|&(_, unknown)| unknown);
        match (value.is_empty(), unknown) {
            (true, Some(unknown)) => record::set(&mut self.tags, name, unknown),
            (true, None) => {
                let before = self.tags.len();
                self.tags.retain(|t| t.name != name);
                if self.tags.len() == before {
                    response.fail(format!("no tag {name}"));
                } else {
                    response.line(format!("removed tag {name}"));
                }
                return;
            }
            (false, _) => record::set(&mut self.tags, name, value),
        }
        if let Some(tag) = self.tags.iter().find(|t| t.name == name) {
            response.line(tag_line(tag));
        }
    }

    /// `resign`: the side to move resigns; against the engine, the player.
    fn resign(&mut self, response: &mut Response) {
        if let Some(over) = self.over() {
            response.fail(format!("{}: nothing to resign", game_over(&over)));
            return;
        }
        let loser = self.engine_side.map_or(self.game.position().turn(), Color::other);
        self.end_off_the_board(Outcome::Decisive { winner: loser.other() }, format!("{} resigned", side(loser)));
        self.announce_end(response);
    }

    /// `draw`: a draw offer. The engine, when it plays, accepts it when it
    /// does not think itself better (a short search); between players at the
    /// REPL, the draw is agreed.
    fn draw(&mut self, response: &mut Response) {
        if let Some(over) = self.over() {
            response.fail(format!("{}: no draw to offer", game_over(&over)));
            return;
        }
        if let Some(engine) = self.engine_side {
            let position = self.game.position().clone();
            self.stop.store(false, Ordering::Relaxed);
            let limits = Limits { depth: Some(DRAW_DEPTH), time: Some(DEPTH_TIME_LIMIT) };
            let result = Engine::new().search_with_stop(&position, limits, &self.stop);
            self.stop.store(false, Ordering::Relaxed);
            let Some(result) = result else { return };
            // the search's score is for the side to move; the engine's own view
            let own = match result.score {
                score if position.turn() == engine => score,
                Score::Centipawns(cp) => Score::Centipawns(-cp),
                Score::Mate(n) => Score::Mate(-n),
            };
            let shown = match own {
                Score::Centipawns(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
                Score::Mate(n) => format!("#{n}"),
            };
            let better = match own {
                Score::Centipawns(cp) => cp > DRAW_ACCEPT_CENTIPAWNS,
                Score::Mate(n) => n > 0,
            };
            if better {
                response.line(format!("engine declines the draw (its evaluation for itself: {shown}); play on"));
                return;
            }
            response.line(format!("engine accepts the draw (its evaluation for itself: {shown})"));
        }
        self.end_off_the_board(Outcome::Draw, "draw agreed".to_owned());
        self.announce_end(response);
    }

    /// `claim`: a draw by threefold repetition or the fifty-move rule, when
    /// the position allows it.
    fn claim(&mut self, response: &mut Response) {
        if let Some(over) = self.over() {
            response.fail(format!("{}: no draw to claim", game_over(&over)));
            return;
        }
        let Some(claim) = self.game.claimable() else {
            let times = self.game.repetitions();
            response.fail(format!(
                "no draw to claim: this position has occurred {times} {} (a claim needs 3), and {} half-moves were \
                 played without a capture or a pawn move (a claim needs 100)",
                if times == 1 { "time" } else { "times" },
                self.game.position().halfmoves()
            ));
            return;
        };
        self.end_off_the_board(Outcome::Draw, format!("draw claimed ({claim})"));
        self.announce_end(response);
    }

    /// The game ends here, off the board.
    fn end_off_the_board(&mut self, result: Outcome, reason: String) {
        self.ending = Some(Ending { moves: self.game.moves().to_vec(), result, reason });
    }

    fn moves_command(&self, args: &[&str], response: &mut Response) {
        let position = self.game.position();
        match args {
            [] => {
                let mut moves = position.legal_moves();
                notation::sort_by_value(&mut moves);
                if moves.is_empty() {
                    response.line("no legal moves");
                    return;
                }
                let list: Vec<String> =
                    moves.iter().map(|&m| notation::write_move(position, m, self.notation, self.letters)).collect();
                response.line(format!("{} legal moves: {}", list.len(), list.join(" ")));
            }
            [square] => {
                let Some(sq) = self.piece_square(square, response) else { return };
                let name = piece_name(position, sq);
                let ours = position.board().piece_at(sq).is_some_and(|p| p.color == position.turn());
                let targets = if ours { position.legal_targets(sq) } else { position.reach(sq) };
                let verb = if ours { "moves to" } else { "reaches (not its turn)" };
                response.line(if targets.is_empty() {
                    format!("{name}: no legal move")
                } else {
                    format!("{name} {verb}: {}", squares(targets))
                });
                response.board(self.board_view(Marks { targets, origin: Some(sq), ..Marks::default() }));
            }
            _ => response.fail("usage: moves [SQUARE]"),
        }
    }

    fn attacks_command(&self, args: &[&str], response: &mut Response) {
        let position = self.game.position();
        match args {
            [] => {
                let them = position.turn().other();
                let targets = views::attacked(position.board(), them);
                response.line(format!("{} attacks {} squares: {}", side(them), targets.count(), squares(targets)));
                response.board(self.board_view(Marks { targets, ..Marks::default() }));
            }
            [square] => {
                let Some(sq) = self.piece_square(square, response) else { return };
                let name = piece_name(position, sq);
                let targets = position.safe_reach(sq);
                response.line(if targets.is_empty() {
                    format!("{name}: no safe square")
                } else {
                    format!("{name} is safe on: {}", squares(targets))
                });
                response.board(self.board_view(Marks { targets, origin: Some(sq), ..Marks::default() }));
            }
            _ => response.fail("usage: attacks [SQUARE]"),
        }
    }

    /// The square of a command argument, which must hold a piece.
    fn piece_square(&self, text: &str, response: &mut Response) -> Option<Square> {
        let Ok(sq) = text.to_ascii_lowercase().parse::<Square>() else {
            response.fail(format!("not a square: \"{text}\" (write a file and a rank: e4)"));
            return None;
        };
        if self.game.position().board().piece_at(sq).is_none() {
            response.fail(format!("no piece on {sq}"));
            return None;
        }
        Some(sq)
    }

    /// `undo [N]`: takes back N moves; against the engine, N of the
    /// player's moves with the engine's answers, back to the player's turn.
    /// A game ended off the board (a resignation, a draw agreed or claimed,
    /// a loaded game's result) has that ending taken back first, as one step.
    fn undo(&mut self, args: &[&str], response: &mut Response) {
        let Some(mut count) = move_count("undo", args, response) else { return };
        if self.game.end().is_none()
            && let Some(ending) = self.ending.take_if(|ending| ending.moves == self.game.moves())
        {
            response.line(format!("undone: {}; play on", ending.reason));
            count -= 1;
            if count == 0 {
                self.show_position(response);
                return;
            }
        }
        let played = self.game.moves().len();
        // said unless the ending undone is something
        let nothing = |session: &Self, why: &str, response: &mut Response| {
            if response.outputs.is_empty() {
                response.fail(why);
            } else {
                session.show_position(response);
            }
        };
        if played == 0 {
            nothing(self, "nothing to undo", response);
            return;
        }
        let plies = match self.engine_side {
            None => count.min(played),
            Some(engine) => {
                // back to the user's move: the engine's moves before the
                // user's first (it played White) stay
                let (mut plies, mut taken, mut through) = (0, 0, 0);
                while taken < count && plies < played {
                    // the side that made the move taken back
                    let before = self.game.position_at(played - 1 - plies).expect("the ply of a move played");
                    plies += 1;
                    if before.turn() != engine {
                        taken += 1;
                        through = plies;
                    }
                }
                if through == 0 {
                    nothing(self, "nothing to undo: no move of yours yet (new starts the game again)", response);
                    return;
                }
                through
            }
        };
        let undone = self.movetext(played - plies..played).join(" ");
        for _ in 0..plies {
            self.game.undo();
        }
        response.line(format!("undone: {undone}"));
        self.show_position(response);
    }

    /// `redo [N]`: plays N undone moves again; against the engine, N of the
    /// player's moves with the engine's answers.
    fn redo(&mut self, args: &[&str], response: &mut Response) {
        let Some(asked) = move_count("redo", args, response) else { return };
        let available = self.game.redo_moves().len();
        let (plies, count) = match self.engine_side {
            None => (asked.min(available), asked.min(available)),
            Some(engine) => {
                let (mut turn, mut plies, mut taken) = (self.game.position().turn(), 0, 0);
                while plies < available {
                    if turn != engine {
                        if taken == asked {
                            break;
                        }
                        taken += 1;
                    }
                    plies += 1;
                    turn = turn.other();
                }
                (plies, taken)
            }
        };
        if plies == 0 {
            response.fail("nothing to redo");
            return;
        }
        for _ in 0..plies {
            self.game.redo();
        }
        let played = self.game.moves().len();
        let redone = self.movetext(played - plies..played).join(" ");
        if count < asked {
            response.line(format!("redone: {redone} (only {count} {} to redo)", plural(count, "move")));
        } else {
            response.line(format!("redone: {redone}"));
        }
        self.show_position(response);
        self.announce_end(response);
    }

    fn notation_command(&mut self, args: &[&str], response: &mut Response) {
        match args {
            [] => response.line(format!("notation: {}", self.notation.name())),
            [name] => match Notation::from_name(name) {
                Some(notation) => {
                    self.notation = notation;
                    response.line(format!("notation: {}", notation.name()));
                }
                None => response.fail(format!("unknown notation \"{name}\": san, lan, uci, figurine or file-prefixed")),
            },
            _ => response.fail("usage: notation NAME"),
        }
    }

    fn letters_command(&mut self, args: &[&str], response: &mut Response) {
        match args {
            [] => response.line(describe_letters(self.letters)),
            [name] => match Letters::from_name(name) {
                Some(letters) => {
                    self.letters = letters;
                    response.line(describe_letters(letters));
                }
                None => response.fail(format!("unknown language \"{name}\": en, pt, es, fr, de, it or nl")),
            },
            _ => response.fail("usage: letters LANG"),
        }
    }

    /// The moves of `range` with their numbers: `1. e4 e5 2. Nf3`, or
    /// `1... e5` when the range starts with a Black move.
    fn movetext(&self, range: Range<usize>) -> Vec<String> {
        let mut out = Vec::new();
        let Some(mut position) = self.game.position_at(range.start) else { return out };
        for (i, &m) in range.clone().zip(&self.game.moves()[range.clone()]) {
            if position.turn() == Color::White || i == range.start {
                out.push(MoveNumber::before(&position).to_string());
            }
            out.push(notation::san_plus(&position, m).to_string());
            position.play_unchecked(m);
        }
        out
    }

    /// `history`: the numbered moves on one line.
    fn history(&self) -> String {
        let moves = self.movetext(0..self.game.moves().len());
        if moves.is_empty() { "no moves yet".to_owned() } else { moves.join(" ") }
    }

    /// The game so far as PGN, laid out by the one PGN writer
    /// ([`pgn::Game::to_pgn`](crate::pgn::Game::to_pgn)): its tags (the
    /// Seven Tag Roster, with `SetUp` and `FEN` when the game does not start
    /// from the initial position, `Variant` for Chess960, and those of a
    /// loaded game or set with `tag`), a blank line, the moves in canonical
    /// SAN with the result, lines of at most
    /// [`MAX_WIDTH`](crate::pgn::format::MAX_WIDTH) bytes, and a final line
    /// end. Where the moves follow a loaded game, its comments, NAGs and
    /// variations are kept; where they leave it, its moves from there become
    /// the first variation of the move played instead.
    pub fn pgn(&self) -> String {
        let result = self.over().map(|over| over.result);
        record::pgn_game(&self.tags, self.loaded.as_ref(), &self.game, result).to_pgn()
    }

    /// `save FILE`, `save! FILE`, `append FILE`: the game as PGN, or as a
    /// binary move log (four 32-bit integers a move: from and to squares)
    /// for a name ending in `.bin` (not for `append`: a log holds one
    /// game), for the front end to write as `mode` says. `save FILE N`:
    /// the game as PGN, to put in the place of game N of the PGN file it
    /// was loaded from as game N ([`Save::place`]).
    fn save(&self, text: &str, mode: SaveMode, response: &mut Response) {
        let command = mode.command();
        if text.is_empty() {
            response.fail(format!("usage: {command} FILE"));
            return;
        }
        let (text, number) = file_and_number(text);
        if number.is_none()
            && let Some(why) = number_not_taken(text, command)
        {
            response.refuse_save(why);
            return;
        }
        let name = unquote(text);
        let place = match number.map(|number| self.place(text, number, mode)) {
            Some(Err(why)) => {
                response.refuse_save(why);
                return;
            }
            Some(Ok(place)) => Some(place),
            None => None,
        };
        let binary = is_move_log(Path::new(&name));
        if binary && mode == SaveMode::Append {
            response.refuse_save(format!(
                "append adds a game to a PGN file: a binary move log holds one game (save! {name} replaces it)"
            ));
            return;
        }
        if binary {
            // the log keeps no promotion piece: say what will not come back
            let under: Vec<String> = (0..self.game.moves().len())
                .filter(|&i| self.game.moves()[i].promotion().is_some_and(|role| role != crate::Role::Queen))
                .map(|i| self.movetext(i..i + 1).join(" "))
                .collect();
            if !under.is_empty() {
                response.line(format!(
                    "warning: a binary log keeps no promotion piece: {} will read back as a queen",
                    under.join(", ")
                ));
            }
            // nor the position the game starts from
            let initial = self.game.initial();
            if *initial != Position::default() {
                response.line(format!(
                    "warning: a binary log keeps no starting position: it reads back only in a session that starts \
                     from this game's ({})",
                    initial.fen()
                ));
            }
        }
        let (bytes, format) = if binary {
            (self.game.move_log(), SaveFormat::MoveLog)
        } else {
            (self.pgn().into_bytes(), SaveFormat::Pgn)
        };
        let shared_game = (self.loaded_from.as_ref())
            .filter(|from| from.others && same_file(&typed_path(&name), &from.path))
            .map(|from| from.game);
        let moves = self.game.moves().len();
        let game = self.game_number;
        response.outputs.push(Output::Save(Save { path: name, bytes, format, moves, mode, shared_game, place, game }));
        let undone = self.game.redo_moves().len();
        if undone > 0 {
            response.line(if undone == 1 {
                "note: the undone move is not saved (redo plays it again)".to_owned()
            } else {
                format!("note: the {undone} undone moves are not saved (redo plays them again)")
            });
        }
    }

    /// Where `save FILE N` (`text` is `FILE`, as typed) puts the game: in
    /// the place of game N of the PGN file it was loaded from as game N;
    /// why not, for any other game, file or command.
    fn place(&self, text: &str, number: usize, mode: SaveMode) -> Result<Place, String> {
        let name = unquote(text);
        let path = typed_path(&name);
        if number == 0 {
            return Err("games are counted from 1".to_owned());
        }
        match mode {
            SaveMode::New => {}
            SaveMode::Replace => {
                return Err(format!(
                    "save! replaces the whole of {name}: it takes no game number (save {text} {number} puts this \
                     game in the place of game {number})"
                ));
            }
            SaveMode::Append => {
                return Err(format!("append adds this game at the end of {name}: it takes no game number"));
            }
        }
        if is_move_log(&path) {
            return Err(format!("{name} is a binary move log: it holds one game (save! {text} replaces it)"));
        }
        let from = self.loaded_from.as_ref().filter(|from| same_file(&path, &from.path));
        match (from, &self.loaded) {
            (Some(LoadedFrom { game, unloaded: Some(why), .. }), _) if *game == number => Err(format!(
                "game {number} of {name} was loaded up to {why}: in its place, this game would drop the rest of it \
                 (save FILE writes this game to another file)"
            )),
            (Some(from), Some(loaded)) if from.game == number => {
                Ok(Place { game: number, loaded: Box::new(loaded.clone()) })
            }
            (Some(from), _) => Err(format!(
                "this game was loaded as game {} of {name}: save {text} {} puts it back in its place",
                from.game, from.game
            )),
            _ => Err(format!(
                "save FILE N puts a game back in its place in the file it was loaded from: this game was not \
                 loaded from {name} (append {text} adds it at its end)"
            )),
        }
    }
}

/// The depth of the search that decides whether the engine accepts a draw.
const DRAW_DEPTH: u32 = 6;

/// The engine accepts a draw unless it thinks itself better by more than
/// this (its evaluation for itself, in centipawns).
const DRAW_ACCEPT_CENTIPAWNS: i32 = 0;

/// `[Name "Value"]`, as the PGN writer writes a tag.
fn tag_line(tag: &Tag) -> String {
    let mut line = Vec::new();
    crate::pgn::format::write_decoded_tag(&mut line, &tag.name, &tag.value);
    line.pop(); // its line end
    // a tag's name and value are `String`s, and the writer adds ASCII
    String::from_utf8_lossy(&line).into_owned()
}

/// `move` or `moves`.
fn plural(count: usize, word: &str) -> String {
    if count == 1 { word.to_owned() } else { format!("{word}s") }
}

/// A text without the double quotes around it, if it has them.
fn unquote(text: &str) -> String {
    text.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')).unwrap_or(text).to_owned()
}

/// Whether a file name is a binary move log's: it ends in `.bin`.
fn is_move_log(path: &Path) -> bool {
    path.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("bin"))
}

/// The file `load` names, and the game number after it: the whole text when
/// it names a file that exists, or all but a last word that is a number.
/// Double quotes around the name are taken off.
fn file_argument(text: &str) -> Option<(PathBuf, Option<usize>)> {
    let (name, number) = file_and_number(text);
    let path = typed_path(&unquote(name));
    path.exists().then_some((path, number))
}

/// A name and the game number after it (`games.pgn 2`): the number when
/// the whole text names no file and the name before the number does one;
/// else the whole text, without number (a quoted name is the name).
fn file_and_number(text: &str) -> (&str, Option<usize>) {
    match split_game_number(text) {
        (name, Some(number)) if !typed_path(&unquote(text)).exists() && typed_path(&unquote(name)).exists() => {
            (name, Some(number))
        }
        _ => (text, None),
    }
}

/// Why `load FILE N` or `save FILE N` cannot take N, a number no game has:
/// a negative one, or one too large to count (`load games.pgn
/// 99999999999999999999`), which [`file_argument`] and [`file_and_number`]
/// do not take for a number; `None` when FILE names no file, or N is no
/// whole number.
fn no_such_game(text: &str) -> Option<String> {
    let (name, number) = trailing_number(text)?;
    let path = typed_path(&unquote(name));
    if !path.exists() {
        return None;
    }
    Some(if number.starts_with('-') {
        "games are counted from 1".to_owned()
    } else {
        format!("there is no game {number} in {}", crate::pgn::shown_name(path.as_os_str()))
    })
}

/// `text` as a name and a whole number after it (`games.pgn -1`, the sign
/// kept), when its last word is one.
fn trailing_number(text: &str) -> Option<(&str, &str)> {
    let (name, number) = text.rsplit_once(char::is_whitespace)?;
    let digits = number.strip_prefix(['-', '+']).unwrap_or(number);
    (!digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit())).then_some((name.trim_end(), number))
}

/// The file a name typed at the prompt names (`load FILE`, `save FILE`):
/// `~/...` (and `~`) in the user's home directory (`$HOME`), as a shell
/// reads it; any other name as it is (`~user/` too).
///
/// ```
/// # use std::path::PathBuf;
/// use sanfen::repl::typed_path;
///
/// let home = std::env::var_os("HOME").filter(|home| !home.is_empty());
/// let in_home = home.map_or(PathBuf::from("~/games/club.pgn"), |home| PathBuf::from(home).join("games/club.pgn"));
/// assert_eq!(typed_path("~/games/club.pgn"), in_home);
/// assert_eq!(typed_path("~ana/club.pgn"), PathBuf::from("~ana/club.pgn"));
/// assert_eq!(typed_path("club~1.pgn"), PathBuf::from("club~1.pgn"));
/// ```
pub fn typed_path(name: &str) -> PathBuf {
    let home = std::env::var_os("HOME").filter(|home| !home.is_empty());
    match (name.strip_prefix('~'), home) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
            PathBuf::from(home).join(rest.trim_start_matches('/'))
        }
        _ => PathBuf::from(name),
    }
}

/// For `save FILE N` (`save!`, `append`) whose text [`file_and_number`]
/// does not read so, a name whose last word is a whole number and that
/// names no file: why it is not written (N is no game's number, FILE names
/// no file), rather than a new file named `FILE N` (a name that ends in a
/// number is typed in quotes).
fn number_not_taken(text: &str, command: &str) -> Option<String> {
    let (name, _) = trailing_number(text)?;
    if typed_path(&unquote(text)).exists() {
        return None;
    }
    no_such_game(text).or_else(|| {
        Some(format!(
            "{}: no such file: save FILE N puts this game in the place of game N of the file it was loaded from \
             ({command} \"{text}\" writes a file of that name)",
            unquote(name)
        ))
    })
}

/// `load`'s text as a file name and a game number after it, when its last
/// word is a number.
fn split_game_number(text: &str) -> (&str, Option<usize>) {
    match text.rsplit_once(char::is_whitespace) {
        Some((head, last)) => match last.parse::<usize>() {
            Ok(number) => (head.trim_end(), Some(number)),
            Err(_) => (text, None),
        },
        None => (text, None),
    }
}

/// Whether `load`'s text names a file (that does not exist): it ends in a
/// PGN, move log or compressed file's extension, maybe with a game number.
fn looks_like_a_file_name(text: &str) -> bool {
    let name = unquote(split_game_number(text).0.trim()).to_ascii_lowercase();
    [".pgn", ".bin", ".gz", ".zst", ".bz2"].iter().any(|ext| name.ends_with(ext))
}

/// A file's bytes, or `None` when it holds more than `max` bytes.
fn read_at_most(file: impl std::io::Read, max: u64) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= max).then_some(bytes))
}

/// The PGN file a game was loaded from.
#[derive(Clone, Debug)]
struct LoadedFrom {
    path: PathBuf,
    /// The game's number in it, from 1.
    game: usize,
    /// Whether it holds other games too.
    others: bool,
    /// Where the game's moves stopped loading, when they did (an error, a
    /// null move): what follows is in the file only.
    unloaded: Option<String>,
}

/// Whether `a` and `b` name one file: the same once links are followed,
/// or (on Unix) hard links to one.
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (std::fs::metadata(a), std::fs::metadata(b))
            && (a.dev(), a.ino()) == (b.dev(), b.ino())
        {
            return true;
        }
    }
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// What [`find_game`] finds in a PGN file: what `load FILE N` loads, and
/// where `save FILE N` puts the game.
#[derive(Debug)]
pub enum FoundGame {
    /// Game N (its text in the file from [`PgnGame::at`] to
    /// [`PgnGame::end`]), and whether the file holds other games.
    Game(Box<PgnGame>, bool),
    /// Game N is too large to read.
    TooLarge(ReadError),
    /// The file cannot be read (up to game N), or is not PGN text.
    Unreadable(String),
    /// The games of the file, fewer than N.
    Count(usize),
}

impl FoundGame {
    /// Why game `number` of the file shown as `shown` cannot be had: `None`
    /// for [`FoundGame::Game`].
    pub fn failure(&self, shown: &str, number: usize) -> Option<String> {
        Some(match self {
            FoundGame::Game(..) => return None,
            FoundGame::TooLarge(error) => format!("cannot load game {number} of {shown}: {error}"),
            FoundGame::Unreadable(error) => format!("cannot read {shown}: {error}"),
            FoundGame::Count(0) => format!("{shown} holds no game"),
            FoundGame::Count(1) => format!("{shown} holds 1 game: there is no game {number}"),
            FoundGame::Count(count) => format!("{shown} holds {count} games: there is no game {number}"),
        })
    }
}

/// Game `number` (from 1) of a PGN input, counted as `load FILE N` counts
/// them: every game [`crate::pgn::read_games`] gives, and every game too
/// large to read. The input is read up to the game after it (to tell
/// whether there are others), or to its end when it holds fewer.
///
/// ```
/// use sanfen::pgn::Input;
/// use sanfen::repl::{FoundGame, find_game};
///
/// let text = "[White \"A\"]\n\n1. e4 *\n\n{between} [White \"B\"]\n\n1. d4 d5 {done} 1-0 {after}\n";
/// let input = |text: &'static str| Input::from_reader(text.as_bytes(), None).unwrap();
/// let FoundGame::Game(game, others) = find_game(input(text), 2) else { panic!() };
/// assert_eq!(game.tag("White"), Some("B"));
/// let own = &text[game.at.offset as usize..game.end.offset as usize];
/// assert_eq!((own, others), ("[White \"B\"]\n\n1. d4 d5 {done} 1-0 {after}", true));
/// assert!(matches!(find_game(input(text), 3), FoundGame::Count(2)));
/// ```
pub fn find_game(input: crate::pgn::Input, number: usize) -> FoundGame {
    find_game_in(input, number, Letters::English)
}

/// [`find_game`], the moves read in the piece letters of `letters` (see
/// [`crate::pgn::read_games_in`]).
pub fn find_game_in(input: crate::pgn::Input, number: usize, letters: Letters) -> FoundGame {
    let games = match read_games_text(input, letters) {
        Ok(games) => games,
        Err(error) => return FoundGame::Unreadable(error.to_string()),
    };
    let mut count = 0;
    let mut games = games.into_iter();
    while let Some(item) = games.next() {
        match item {
            Ok(game) => {
                count += 1;
                if count == number {
                    // (what follows is read as far as its first game)
                    let others = count > 1 || games.next().is_some();
                    return FoundGame::Game(Box::new(game), others);
                }
            }
            Err(error @ ReadError::TooLarge { .. }) => {
                count += 1;
                if count == number {
                    return FoundGame::TooLarge(error);
                }
            }
            Err(error) => return FoundGame::Unreadable(error.to_string()),
        }
    }
    FoundGame::Count(count)
}

/// How many moves of a game's mainline were played, up to its first error.
fn played(game: &PgnGame) -> usize {
    game.mainline.moves.iter().take_while(|node| node.played.is_some()).count()
}

/// How `load` opens a file by default ([`OpenFile`]): the standard
/// library's `open`, as a [`Stoppable`].
fn open_stoppable(path: &Path, stopped: Arc<AtomicBool>) -> std::io::Result<Box<dyn std::io::Read + Send>> {
    Ok(Box::new(Stoppable { file: std::fs::File::open(path)?, stopped }))
}

/// A file that `load` reads apart ([`Session::read_apart`]): its reads fail
/// once `stopped` is raised.
struct Stoppable {
    file: std::fs::File,
    stopped: Arc<AtomicBool>,
}

impl std::io::Read for Stoppable {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.stopped.load(Ordering::Relaxed) {
            return Err(std::io::Error::other("interrupted"));
        }
        self.file.read(buf)
    }
}

/// The commands that take no argument (with the aliases `?` and `exit`).
const NO_ARGUMENT: [&str; 12] =
    ["fen", "history", "pgn", "new", "flip", "help", "?", "quit", "exit", "resign", "draw", "claim"];

/// The answer to a command word that names no command: the closest command
/// when one is close enough.
fn unknown_command(word: &str) -> String {
    match closest_command(word) {
        Some(command) => format!("unknown command `{word}`; did you mean `{command}`?"),
        None => format!("unknown command `{word}`; type help for the commands"),
    }
}

/// `the game is over (checkmate, 0-1)`.
fn game_over(over: &GameOver) -> String {
    format!("the game is over ({}, {})", over.reason, over.result)
}

/// What a search found, in one line: `engine: Nf3 (eval +0.20, depth 6,
/// 12345 nodes, 0.98 s)`, with `search stopped` first when the stop flag
/// ended it. The evaluation is from White's side, in pawns; `#3` is a mate
/// in 3 for White, `#-3` for Black.
fn search_line(position: &Position, result: &SearchResult, elapsed: Duration) -> String {
    let white = |value: i32| if position.turn() == Color::White { value } else { -value };
    let eval = match result.score {
        Score::Centipawns(cp) => format!("{:+.2}", f64::from(white(cp)) / 100.0),
        Score::Mate(n) => format!("#{}", white(n)),
    };
    let stopped = if result.interrupted { "search stopped: " } else { "" };
    format!(
        "engine: {stopped}{} (eval {eval}, depth {}, {} nodes, {:.2} s)",
        notation::san_plus(position, result.best),
        result.depth,
        result.nodes,
        elapsed.as_secs_f64()
    )
}

/// The `[N]` of `undo [N]` and `redo [N]`: 1 when not given; `None` (and the
/// usage said) when it is not one positive number.
fn move_count(command: &str, args: &[&str], response: &mut Response) -> Option<usize> {
    match args {
        [] => Some(1),
        [n] => match n.parse::<usize>() {
            Ok(n) if n > 0 => Some(n),
            // more moves than any game has: all of them, as for 1000
            Err(error) if *error.kind() == core::num::IntErrorKind::PosOverflow => Some(usize::MAX),
            _ => {
                response.fail(format!("usage: {command} [N]: \"{n}\" is not a positive number"));
                None
            }
        },
        _ => {
            response.fail(format!("usage: {command} [N]"));
            None
        }
    }
}

/// `White` or `Black`.
fn side(color: Color) -> &'static str {
    if color == Color::White { "White" } else { "Black" }
}

/// `white knight on g1`.
fn piece_name(position: &Position, sq: Square) -> String {
    match position.board().piece_at(sq) {
        Some(piece) => format!("{} {} on {sq}", piece.color.name(), piece.role.name()),
        None => format!("nothing on {sq}"),
    }
}

/// The squares of a set, a1 first, separated by spaces.
fn squares(set: Bitboard) -> String {
    set.into_iter().map(|sq| sq.to_string()).collect::<Vec<_>>().join(" ")
}

/// `letters: Portuguese (K=R Q=D R=T B=B N=C)`.
fn describe_letters(letters: Letters) -> String {
    use crate::Role::{Bishop, King, Knight, Queen, Rook};
    let table: Vec<String> = [King, Queen, Rook, Bishop, Knight]
        .iter()
        .map(|&r| format!("{}={}", r.upper_char(), letters.letter(r)))
        .collect();
    format!("letters: {} ({})", letters.name(), table.join(" "))
}

/// part of the line.
fn syntax_error(line: &str, span: Range<usize>, text: &str, error: &ParseSanError, response: &mut Response) {
    let found = if error.found.is_empty() { "nothing".to_owned() } else { format!("\"{}\"", error.found) };
    response.fail(format!("syntax error in \"{text}\": found {found}, expected {}", error.expected));
    // columns in characters: a figurine is one column but three bytes
    let start = span.start + error.span.start.min(text.len());
    let indent = line.get(..start).map_or(start, |s| s.chars().count());
    let width = line.get(start..start + error.span.len()).map_or(error.span.len(), |s| s.chars().count()).max(1);
    // a tab would make the caret line drift
    response.line(format!("  {}", line.trim_end().replace('\t', " ")));
    response.line(format!("  {}{}", " ".repeat(indent), "^".repeat(width)));
}

/// A move that names no legal move, or more than one.
fn refusal(text: &str, error: &SanError, response: &mut Response) {
    match error {
        SanError::Illegal { problem, suggestions } => {
            response.fail(format!("illegal move \"{text}\": {problem}"));
            if !suggestions.is_empty() {
                response.line(format!("did you mean {}?", suggestions.join(", ")));
            }
        }
        SanError::Ambiguous { from, spellings } => {
            let squares: Vec<String> = from.iter().map(Square::to_string).collect();
            let all = if squares.len() == 2 { "both" } else { "all" };
            response
                .fail(format!("ambiguous move \"{text}\": the pieces on {} can {all} make it", squares.join(" and ")));
            response.line(format!("did you mean {}?", spellings.join(" or ")));
        }
    }
}

/// Says why a typed word is not played: a syntax error under a caret (with
/// a hint for PGN's comments, NAGs and variations), a refusal with its
/// reasons, a null move.
fn say_unread(line: &str, span: Range<usize>, text: &str, unread: &Unread, response: &mut Response) {
    match unread {
        Unread::Syntax(error) => {
            syntax_error(line, span, text, error, response);
            if text.starts_with(['{', ';', '$', '(']) {
                response.line("(PGN comments, NAGs and variations: load reads them, as in load 1. e4 {best} e5)");
            }
        }
        Unread::Refused(error) => refusal(text, error, response),
        Unread::NullMove(reason) => response.fail(format!("\"{text}\": {reason}")),
    }
}

/// The moves of a line left unplayed after a refusal.
fn not_played(rest: &[&str], response: &mut Response) {
    if !rest.is_empty() {
        response.line(format!("not played: {}", rest.join(" ")));
    }
}

#[cfg(test)]
mod tests;
