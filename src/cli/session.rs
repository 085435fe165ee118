//! The REPL's core: a [`Session`] holds the game and the settings, and
//! [`Session::eval`] turns one input line into a [`Response`], the lines to
//! show. No terminal I/O happens here: the front end reads lines, prints the
//! responses and decides about colour (`NO_COLOR`, a terminal or not).
//!
//! A line is a command (`board`, `fen`, `load FEN`, `moves [SQUARE]`,
//! `attacks [SQUARE]`, `undo [N]`, `redo`, `history`, `pgn`, `new`, `flip`,
//! `letters LANG`, `save FILE`, `go [DEPTH | depth N | SECONDSs]`,
//! `play white|black|off [DEPTH]`, `help`, `quit`) or one or more moves, with
//! or without move numbers, in any spelling the lenient SAN reader accepts in
//! the session's letters.
//!
//! Once the game is over (checkmate, stalemate, insufficient material,
//! fivefold repetition, the seventy-five-move rule) moves and `go` are
//! refused until `undo`, `new` or `load`; a draw that may only be claimed
//! (threefold repetition, the fifty-move rule) is announced and play goes on.
//!
//! The engine thinks about a second by default ([`engine::DEFAULT_TIME`]), a
//! given time (`go 5s`), or to a given depth (`go 8`, `go depth 8`) but never
//! longer than [`DEPTH_TIME_LIMIT`]; it also stops when the session's stop
//! flag ([`Session::stop_flag`]) is raised (the front end raises it on
//! Ctrl-C), and then plays its best move so far.

#[path = "board_view.rs"]
mod board_view;

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use sanfen::engine::{self, Engine, Limits, Score, SearchResult};
use sanfen::notation::{self, Notation};
use sanfen::resolve::{SanError, resolve_text};
use sanfen::san::{Letters, ParseSanError, SanOptions};
use sanfen::views;
use sanfen::{Bitboard, CastlingMode, Color, Fen, Game, GameEnd, Move, Outcome, Position, Square};

pub use board_view::{Marks, Style};

/// How a session starts.
#[derive(Clone, Debug)]
pub struct Options {
    /// The position the game starts from (and `new` goes back to).
    pub start: Position,
    /// The piece letters moves are read in (and `moves` lists in).
    pub letters: Letters,
    /// ASCII letters on the board instead of Unicode figurines.
    pub ascii: bool,
    /// ANSI colour on the board (the caller decides: terminal, `NO_COLOR`).
    pub color: bool,
    /// Show the board after every line of moves.
    pub board: bool,
}

impl Default for Options {
    /// The initial position, English letters, Unicode, no colour, no board.
    fn default() -> Options {
        Options { start: Position::default(), letters: Letters::English, ascii: false, color: false, board: false }
    }
}

/// What a line produced: the lines to show, and what the front end should do.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Response {
    /// The text to show, one entry per line, without line ends. ANSI escapes
    /// only on board lines and only when the session has colour on.
    pub lines: Vec<String>,
    /// The user asked to leave.
    pub quit: bool,
    /// Something was refused: a move (the position is then as before that
    /// move), a command's argument, a file that could not be written.
    pub error: bool,
}

impl Response {
    /// The lines joined with `\n`, with no final line end.
    #[cfg(test)]
    pub fn text(&self) -> String {
        self.lines.join("\n")
    }

    fn line(&mut self, line: impl Into<String>) {
        self.lines.push(line.into());
    }

    fn fail(&mut self, line: impl Into<String>) {
        self.error = true;
        self.lines.push(line.into());
    }
}

/// The longest the engine thinks for a move searched to a given depth
/// (`go 12`): the depth is reached sooner, or the best move found by then is
/// played.
pub const DEPTH_TIME_LIMIT: Duration = Duration::from_secs(10);

/// The longest time `go SECONDSs` accepts, in seconds.
const MAX_SECONDS: f64 = 3600.0;

/// The commands, for `help` (and for completion in the front end).
pub const COMMANDS: [(&str, &str); 18] = [
    ("board [on|off]", "show the board; with on/off, show it after every move or not"),
    ("fen", "show the position as FEN"),
    ("load FEN", "start a game from a position"),
    ("moves [SQUARE]", "list the legal moves; with a square, mark that piece's targets"),
    ("attacks [SQUARE]", "mark the squares the opponent attacks; with a square, the piece's safe squares"),
    ("undo [N]", "take back the last move (or N moves)"),
    ("redo", "play an undone move again"),
    ("history", "the moves so far"),
    ("pgn", "the game so far as PGN"),
    ("new", "start again from the first position"),
    ("flip", "turn the board around"),
    ("letters LANG", "read piece letters of a language: en, pt, es, fr, de, it, nl"),
    ("notation NAME", "list and complete moves as san, lan, uci, figurine or file-prefixed"),
    ("save FILE", "write the game as PGN (a .bin name: seed 001's binary move log)"),
    ("go [DEPTH|Ns]", "the engine moves: about a second, N seconds, or DEPTH plies (at most 10 s; Ctrl-C stops it)"),
    ("play white|black|off [DEPTH]", "the engine plays that side after each of your moves, or stops"),
    ("help", "this list"),
    ("quit", "leave"),
];

/// A game being played at the REPL, with its settings.
#[derive(Clone, Debug)]
pub struct Session {
    game: Game,
    start: Position,
    letters: Letters,
    style: Style,
    show_board: bool,
    /// The side the engine plays after the user's moves, if any.
    engine_side: Option<Color>,
    /// The depth of the engine's automatic answers (`None`: the time budget).
    engine_depth: Option<u32>,
    /// How `moves` lists moves and Tab completes them.
    notation: Notation,
    /// Raised to stop the engine's search (Ctrl-C in the front end).
    stop: Arc<AtomicBool>,
}

impl Session {
    /// A session with no move played yet.
    pub fn new(options: Options) -> Session {
        Session {
            game: Game::new(options.start.clone()),
            start: options.start,
            letters: options.letters,
            style: Style { ascii: options.ascii, color: options.color, flipped: false },
            show_board: options.board,
            engine_side: None,
            engine_depth: None,
            notation: Notation::San,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The flag that stops the engine's search when raised: the search then
    /// plays its best move so far. Each search lowers it when it starts, so a
    /// flag raised while no search runs stops nothing.
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

    /// Reads one line (a command or moves) and answers it.
    pub fn eval(&mut self, line: &str) -> Response {
        let mut response = Response::default();
        let tokens = tokens(line);
        let Some(&(_, first)) = tokens.first() else {
            return response;
        };
        let rest: Vec<&str> = tokens[1..].iter().map(|&(_, t)| t).collect();
        match first.to_ascii_lowercase().as_str() {
            "board" => self.board_command(&rest, &mut response),
            "fen" => response.line(self.game.position().to_string()),
            "load" => self.load(line.trim_start()[first.len()..].trim(), &mut response),
            "moves" => self.moves_command(&rest, &mut response),
            "attacks" => self.attacks_command(&rest, &mut response),
            "undo" => self.undo(&rest, &mut response),
            "redo" => self.redo(&mut response),
            "history" => response.line(self.history()),
            "pgn" => response.lines.extend(self.pgn().lines().map(str::to_owned)),
            "new" => {
                self.game = Game::new(self.start.clone());
                response.line("new game");
                self.show_position(&mut response);
            }
            "flip" => {
                self.style.flipped = !self.style.flipped;
                response.lines.extend(self.board_lines(Marks::default()));
            }
            "letters" => self.letters_command(&rest, &mut response),
            "notation" => self.notation_command(&rest, &mut response),
            "save" => self.save(line.trim_start()[first.len()..].trim(), &mut response),
            "help" | "?" => {
                response.line("type moves (e4 e5 Nf3, 1. e4 e5, 0-0, Ng1-f3, e8Q, ...) or a command:");
                for (usage, what) in COMMANDS {
                    response.line(format!("  {usage:<30} {what}"));
                }
            }
            "quit" | "exit" => response.quit = true,
            "go" => self.go(&rest, &mut response),
            "play" => self.play_command(&rest, &mut response),
            _ => self.play_line(line, &tokens, &mut response),
        }
        response
    }

    /// Plays the moves of a line until one cannot be played.
    fn play_line(&mut self, line: &str, tokens: &[(usize, &str)], response: &mut Response) {
        let moves = move_tokens(line, tokens);
        let mut played = false;
        for (index, (span, text)) in moves.iter().enumerate() {
            if let Some(end) = self.game.end() {
                let texts: Vec<String> = moves[index..].iter().map(|(_, t)| format!("\"{t}\"")).collect();
                response.fail(format!("{}: {} not played; undo or new to play on", game_over(end), texts.join(" ")));
                break;
            }
            let position = self.game.position().clone();
            let options = SanOptions { strict: false, letters: self.letters };
            let resolved = match resolve_text(&position, text.as_bytes(), options) {
                Ok(resolved) => resolved,
                Err(error) => {
                    syntax_error(line, span.clone(), text, &error, response);
                    not_played(&moves[index + 1..], response);
                    break;
                }
            };
            let m = match resolved.resolution.outcome {
                Ok(m) => m,
                Err(ref error) => {
                    refusal(text, error, response);
                    not_played(&moves[index + 1..], response);
                    break;
                }
            };
            let typed = if resolved.is_canonical() { None } else { Some(text.as_str()) };
            if !self.play_move(m, typed, response) {
                break;
            }
            played = true;
        }
        if played {
            self.engine_answers(response);
        }
        if played && self.show_board {
            response.lines.extend(self.board_lines(Marks::default()));
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
        let mut shown = format!("{} {san}", number(&position));
        if let Some(text) = typed {
            shown.push_str(&format!(" ({text} -> {san})"));
        }
        response.line(shown);
        response.line(self.game.position().to_string());
        self.announce_end(response);
        true
    }

    /// After the user's moves: the engine's answer when it plays the side to
    /// move and the game goes on.
    fn engine_answers(&mut self, response: &mut Response) {
        if self.engine_side == Some(self.game.position().turn()) && self.game.end().is_none() {
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
        if let Some(end) = self.game.end() {
            response.fail(format!("{}: undo or new to play on", game_over(end)));
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
                response.lines.extend(self.board_lines(Marks::default()));
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
        let Some(color) = side else {
            response.line("engine: off");
            return;
        };
        let budget = depth.map_or_else(|| "about a second a move".to_owned(), |d| format!("depth {d}"));
        response.line(format!("engine: plays {} ({budget})", color.name()));
        if self.game.position().turn() == color
            && self.game.end().is_none()
            && self.engine_move(depth, response)
            && self.show_board
        {
            response.lines.extend(self.board_lines(Marks::default()));
        }
    }

    /// Game over or a draw to claim, if so.
    fn announce_end(&self, response: &mut Response) {
        if let Some(end) = self.game.end() {
            let who = match end.result {
                Outcome::Decisive { winner } => format!("{} wins", side(winner)),
                Outcome::Draw => "draw".to_owned(),
            };
            response.line(format!("game over: {}, {} ({who})", end.reason, end.result));
        } else if let Some(claim) = self.game.claimable() {
            response.line(format!("{} may claim a draw: {claim}", side(self.game.position().turn())));
        }
    }

    /// The FEN, and the board when board mode is on.
    fn show_position(&self, response: &mut Response) {
        response.line(self.game.position().to_string());
        if self.show_board {
            response.lines.extend(self.board_lines(Marks::default()));
        }
    }

    /// The board of the current position with `marks`, the last move and a
    /// checked king added.
    fn board_lines(&self, mut marks: Marks) -> Vec<String> {
        let position = self.game.position();
        marks.last_move = self.game.moves().last().map(|m| (m.from(), m.to()));
        if position.is_check() {
            marks.check = Some(position.our_king());
        }
        board_view::render(position.board(), self.style, &marks)
    }

    fn board_command(&mut self, args: &[&str], response: &mut Response) {
        match args {
            [] => response.lines.extend(self.board_lines(Marks::default())),
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

    fn load(&mut self, text: &str, response: &mut Response) {
        if text.is_empty() {
            response.fail("usage: load FEN");
            return;
        }
        let fen = match Fen::parse(text, CastlingMode::Standard) {
            Ok(fen) => fen,
            Err(error) => {
                response.fail(format!("invalid FEN: {error}"));
                return;
            }
        };
        let position = match Position::from_setup(fen.setup.clone(), fen.castling_mode) {
            Ok(position) => position,
            Err(strict_error) => match Position::from_setup_lenient(fen.setup, fen.castling_mode) {
                Ok(position) => {
                    response.line(format!("warning: no legal game reaches this position: {strict_error}"));
                    position
                }
                Err(error) => {
                    response.fail(format!("invalid position: {error}"));
                    return;
                }
            },
        };
        self.game = Game::new(position);
        self.show_position(response);
        self.announce_end(response);
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
                response.lines.extend(self.board_lines(Marks { targets, origin: Some(sq), ..Marks::default() }));
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
                response.lines.extend(self.board_lines(Marks { targets, ..Marks::default() }));
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
                response.lines.extend(self.board_lines(Marks { targets, origin: Some(sq), ..Marks::default() }));
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

    fn undo(&mut self, args: &[&str], response: &mut Response) {
        let count = match args {
            [] => 1,
            [n] => match n.parse::<usize>() {
                Ok(n) if n > 0 => n,
                _ => {
                    response.fail(format!("usage: undo [N]: \"{n}\" is not a positive number"));
                    return;
                }
            },
            _ => {
                response.fail("usage: undo [N]");
                return;
            }
        };
        let played = self.game.moves().len();
        if played == 0 {
            response.fail("nothing to undo");
            return;
        }
        let count = count.min(played);
        let undone = self.movetext(played - count..played).join(" ");
        for _ in 0..count {
            self.game.undo();
        }
        response.line(format!("undone: {undone}"));
        self.show_position(response);
    }

    fn redo(&mut self, response: &mut Response) {
        if self.game.redo().is_none() {
            response.fail("nothing to redo");
            return;
        }
        let played = self.game.moves().len();
        response.line(format!("redone: {}", self.movetext(played - 1..played).join(" ")));
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
        let first = range.start;
        for i in range {
            let position = &self.game.positions()[i];
            let m = self.game.moves()[i];
            if position.turn() == Color::White || i == first {
                out.push(number(position));
            }
            out.push(notation::san_plus(position, m).to_string());
        }
        out
    }

    /// `history`: the numbered moves on one line.
    fn history(&self) -> String {
        let moves = self.movetext(0..self.game.moves().len());
        if moves.is_empty() { "no moves yet".to_owned() } else { moves.join(" ") }
    }

    /// The game so far as PGN: the Seven Tag Roster (with `SetUp` and `FEN`
    /// when the game does not start from the initial position), a blank line,
    /// the moves with the result, lines of at most 79 characters, and a final
    /// line end.
    pub fn pgn(&self) -> String {
        let result = self.game.end().map_or("*", |end| end.result.as_str());
        let mut out = String::new();
        for (tag, unknown) in sanfen::pgn::SEVEN_TAG_ROSTER {
            let value = if tag == "Result" { result } else { unknown };
            out.push_str(&format!("[{tag} \"{value}\"]\n"));
        }
        let initial = self.game.initial();
        if *initial != Position::default() {
            out.push_str("[SetUp \"1\"]\n");
            out.push_str(&format!("[FEN \"{initial}\"]\n"));
        }
        out.push('\n');
        let mut words = self.movetext(0..self.game.moves().len());
        words.push(result.to_owned());
        let mut line = String::new();
        for word in words {
            if !line.is_empty() && line.len() + 1 + word.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }

    /// Seed 001's binary move log: per move four little-endian `i32`:
    /// from-rank, from-file, to-rank, to-file, 0-based from a1; castling as
    /// the king's move.
    pub fn binary_log(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 * self.game.moves().len());
        for m in self.game.moves() {
            // `Move::to` is the king's destination for castling too
            let (from, to) = (m.from(), m.to());
            for value in [from.rank().index(), from.file().index(), to.rank().index(), to.file().index()] {
                out.extend_from_slice(&(value as i32).to_le_bytes());
            }
        }
        out
    }

    fn save(&self, name: &str, response: &mut Response) {
        if name.is_empty() {
            response.fail("usage: save FILE");
            return;
        }
        let path = Path::new(name);
        let binary = path.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("bin"));
        let bytes = if binary { self.binary_log() } else { self.pgn().into_bytes() };
        let moves = self.game.moves().len();
        let plural = if moves == 1 { "" } else { "s" };
        match std::fs::write(path, &bytes) {
            Ok(()) if binary => {
                response.line(format!("saved {moves} move{plural} to {name} (binary log, {} bytes)", bytes.len()));
            }
            Ok(()) => response.line(format!("saved {moves} move{plural} to {name} (PGN)")),
            Err(error) => response.fail(format!("cannot write {name}: {error}")),
        }
    }
}

/// A search depth typed as a command argument: 1 to [`engine::MAX_DEPTH`].
fn parse_depth(text: &str) -> Option<u32> {
    text.parse::<u32>().ok().filter(|d| (1..=engine::MAX_DEPTH).contains(d))
}

/// A thinking time typed as a number of seconds (`5`, `0.5`): 0.1 to [`MAX_SECONDS`].
fn parse_seconds(text: &str) -> Option<Duration> {
    let seconds = text.parse::<f64>().ok().filter(|s| (0.1..=MAX_SECONDS).contains(s))?;
    Some(Duration::from_secs_f64(seconds))
}

/// `the game is over (checkmate, 0-1)`.
fn game_over(end: GameEnd) -> String {
    format!("the game is over ({}, {})", end.reason, end.result)
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

/// The move number before a move of `position`: `12.` or `12...`.
fn number(position: &Position) -> String {
    let dots = if position.turn() == Color::White { "." } else { "..." };
    format!("{}{dots}", position.fullmoves())
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
    use sanfen::Role::{Bishop, King, Knight, Queen, Rook};
    let table: Vec<String> = [King, Queen, Rook, Bishop, Knight]
        .iter()
        .map(|&r| format!("{}={}", r.upper_char(), letters.letter(r)))
        .collect();
    format!("letters: {} ({})", letters.name(), table.join(" "))
}

/// The whitespace-separated tokens of a line with their byte offsets.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in line.char_indices() {
        match (ch.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

/// The moves of a line, each with its byte range in the line: move numbers
/// (`1.`, `12...`, also glued on: `1.e4`), NAGs (`$1`) and results left out,
/// an en passant mark written apart (`exd6 e.p.`) joined to its move.
fn move_tokens(line: &str, tokens: &[(usize, &str)]) -> Vec<(Range<usize>, String)> {
    let mut out: Vec<(Range<usize>, String)> = Vec::new();
    for &(offset, token) in tokens {
        let digits = token.bytes().take_while(u8::is_ascii_digit).count();
        let dots = token[digits..].bytes().take_while(|&b| b == b'.').count();
        let skip = if digits > 0 && dots > 0 { digits + dots } else { 0 };
        let text = &token[skip..];
        let nag = text.len() > 1 && text.starts_with('$') && text[1..].bytes().all(|b| b.is_ascii_digit());
        let result = matches!(text, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*");
        if text.is_empty() || nag || result {
            continue;
        }
        let start = offset + skip;
        let end = offset + token.len();
        if matches!(text.to_ascii_lowercase().as_str(), "e.p." | "ep")
            && let Some(last) = out.last_mut()
        {
            last.0.end = end;
            last.1 = line[last.0.clone()].to_owned();
            continue;
        }
        out.push((start..end, text.to_owned()));
    }
    out
}

/// A token that is not a move: the message and a caret under the offending
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

/// The moves of a line left unplayed after a refusal.
fn not_played(rest: &[(Range<usize>, String)], response: &mut Response) {
    if !rest.is_empty() {
        let texts: Vec<&str> = rest.iter().map(|(_, t)| t.as_str()).collect();
        response.line(format!("not played: {}", texts.join(" ")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    const AFTER_E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

    fn ascii() -> Session {
        Session::new(Options { ascii: true, ..Options::default() })
    }

    /// Evaluates `line` and checks the whole response text and the error flag.
    fn check(session: &mut Session, line: &str, expected: &[&str], error: bool) {
        let response = session.eval(line);
        assert_eq!(response.lines, expected, "{line}");
        assert_eq!(response.error, error, "{line}");
        assert!(!response.quit, "{line}");
    }

    fn fen(session: &Session) -> String {
        session.game().position().to_string()
    }

    /// A fresh directory for files a test writes.
    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("sanfen-session-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn notation_setting_changes_the_listing() {
        let mut s = Session::new(Options::default());
        assert_eq!(s.eval("notation lan").text(), "notation: lan");
        assert!(s.eval("moves").text().starts_with("20 legal moves: a2-a3 a2-a4 b2-b3"), "{}", s.eval("moves").text());
        assert_eq!(s.eval("notation uci").text(), "notation: uci");
        assert!(s.eval("moves").text().ends_with("g1f3 g1h3"));
        assert!(s.eval("notation xyz").error);
        assert_eq!(s.eval("notation").text(), "notation: uci");
    }

    #[test]
    fn a_few_moves() {
        let mut s = ascii();
        check(&mut s, "e4", &["1. e4", AFTER_E4], false);
        check(
            &mut s,
            "e5 Nf3",
            &["1... e5", AFTER_E4_E5, "2. Nf3", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"],
            false,
        );
        check(&mut s, "", &[], false);
        check(&mut s, "   ", &[], false);
    }

    #[test]
    fn move_numbers_annotations_and_results_are_skipped() {
        let mut s = ascii();
        check(
            &mut s,
            "1. e4 e5 2.Nf3 $1 2... Nc6! *",
            &[
                "1. e4",
                AFTER_E4,
                "1... e5",
                AFTER_E4_E5,
                "2. Nf3",
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
                "2... Nc6",
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            ],
            false,
        );
    }

    #[test]
    fn mixed_spellings() {
        let mut s = ascii();
        check(
            &mut s,
            "e4 e5 Ng1-f3 Nc6 Bc4 Bc5 0-0",
            &[
                "1. e4",
                AFTER_E4,
                "1... e5",
                AFTER_E4_E5,
                "2. Nf3 (Ng1-f3 -> Nf3)",
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
                "2... Nc6",
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                "3. Bc4",
                "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
                "3... Bc5",
                "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                "4. O-O (0-0 -> O-O)",
                "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4",
            ],
            false,
        );
        check(&mut s, "load 2k5/4P3/8/8/8/8/8/K7 w - - 0 1", &["2k5/4P3/8/8/8/8/8/K7 w - - 0 1"], false);
        check(&mut s, "e8Q", &["1. e8=Q+ (e8Q -> e8=Q+)", "2k1Q3/8/8/8/8/8/8/K7 b - - 0 1"], false);

        let mut s = ascii();
        check(&mut s, "letters pt", &["letters: Portuguese (K=R Q=D R=T B=B N=C)"], false);
        check(
            &mut s,
            "1. e4 d5 2. exd5 Dxd5 3. Cf3",
            &[
                "1. e4",
                AFTER_E4,
                "1... d5",
                "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                "2. exd5",
                "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
                "2... Qxd5 (Dxd5 -> Qxd5)",
                "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
                "3. Nf3 (Cf3 -> Nf3)",
                "rnb1kbnr/ppp1pppp/8/3q4/8/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 3",
            ],
            false,
        );
        // the king is R in Portuguese: castling is still O-O
        check(
            &mut s,
            "Bf5 Be2 Cc6 O-O",
            &[
                "3... Bf5",
                "rn2kbnr/ppp1pppp/8/3q1b2/8/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 4",
                "4. Be2",
                "rn2kbnr/ppp1pppp/8/3q1b2/8/5N2/PPPPBPPP/RNBQK2R b KQkq - 3 4",
                "4... Nc6 (Cc6 -> Nc6)",
                "r3kbnr/ppp1pppp/2n5/3q1b2/8/5N2/PPPPBPPP/RNBQK2R w KQkq - 4 5",
                "5. O-O",
                "r3kbnr/ppp1pppp/2n5/3q1b2/8/5N2/PPPPBPPP/RNBQ1RK1 b kq - 5 5",
            ],
            false,
        );
    }

    #[test]
    fn en_passant_mark_written_apart() {
        let mut s = ascii();
        s.eval("e4 Nf6 e5 d5");
        check(
            &mut s,
            "exd6 e.p.",
            &["3. exd6 (exd6 e.p. -> exd6)", "rnbqkb1r/ppp1pppp/3P1n2/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"],
            false,
        );
    }

    #[test]
    fn an_illegal_third_move_stops_the_line() {
        let mut s = ascii();
        check(
            &mut s,
            "e4 e5 Ke3 Nf3",
            &[
                "1. e4",
                AFTER_E4,
                "1... e5",
                AFTER_E4_E5,
                "illegal move \"Ke3\": no king can move to e3",
                "did you mean Ke2?",
                "not played: Nf3",
            ],
            true,
        );
        assert_eq!(fen(&s), AFTER_E4_E5);
    }

    #[test]
    fn illegal_with_a_reason() {
        let mut s = ascii();
        check(
            &mut s,
            "Nd2",
            &["illegal move \"Nd2\": d2 holds a piece of the side to move", "did you mean Na3, Nc3, Nf3?"],
            true,
        );
        check(
            &mut s,
            "Bc4",
            &[
                "illegal move \"Bc4\": no bishop can move to c4: the bishop on f1 is blocked by the piece on e2",
                "did you mean c4?",
            ],
            true,
        );
        assert_eq!(fen(&s), START);
    }

    #[test]
    fn ambiguous() {
        let mut s = ascii();
        s.eval("load 4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        check(
            &mut s,
            "Nd2",
            &["ambiguous move \"Nd2\": the pieces on b1 and f3 can both make it", "did you mean Nbd2 or Nfd2?"],
            true,
        );
        assert_eq!(fen(&s), "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        check(&mut s, "Nfd2", &["1. Nfd2", "4k3/8/8/8/8/8/3N4/1N2K3 b - - 1 1"], false);
    }

    #[test]
    fn syntax_error_with_a_caret() {
        let mut s = ascii();
        check(
            &mut s,
            "1. e4 e5 2. Nf9",
            &[
                "1. e4",
                AFTER_E4,
                "1... e5",
                AFTER_E4_E5,
                "syntax error in \"Nf9\": found \"9\", expected a file a-h, a rank 1-8 or `x`",
                "  1. e4 e5 2. Nf9",
                "                ^",
            ],
            true,
        );
        assert_eq!(fen(&s), AFTER_E4_E5);
        // a figurine counts as one column; a tab as one space
        let response = s.eval("♘f3\tNz3");
        assert_eq!(response.lines[3..], ["  ♘f3 Nz3", "       ^"]);
    }

    #[test]
    fn undo_then_redo_returns_the_same_fen() {
        let mut s = ascii();
        s.eval("e4 e5 Nf3 Nc6");
        let before = fen(&s);
        check(
            &mut s,
            "undo",
            &["undone: 2... Nc6", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"],
            false,
        );
        check(&mut s, "undo 2", &["undone: 1... e5 2. Nf3", AFTER_E4], false);
        check(&mut s, "redo", &["redone: 1... e5", AFTER_E4_E5], false);
        s.eval("redo");
        check(
            &mut s,
            "redo",
            &["redone: 2... Nc6", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"],
            false,
        );
        assert_eq!(fen(&s), before);
        check(&mut s, "redo", &["nothing to redo"], true);
        check(&mut s, "undo 10", &["undone: 1. e4 e5 2. Nf3 Nc6", START], false);
        check(&mut s, "undo", &["nothing to undo"], true);
        check(&mut s, "undo x", &["usage: undo [N]: \"x\" is not a positive number"], true);
        check(&mut s, "undo 0", &["usage: undo [N]: \"0\" is not a positive number"], true);
        // a new move clears the redo stack
        s.eval("d4");
        check(&mut s, "redo", &["nothing to redo"], true);
    }

    #[test]
    fn fools_mate() {
        let mut s = ascii();
        check(
            &mut s,
            "f3 e5 g4 Qh4#",
            &[
                "1. f3",
                "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1",
                "1... e5",
                "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2",
                "2. g4",
                "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
                "2... Qh4#",
                "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
                "game over: checkmate, 0-1 (Black wins)",
            ],
            false,
        );
        check(&mut s, "moves", &["no legal moves"], false);
        check(
            &mut s,
            "pgn",
            &[
                "[Event \"?\"]",
                "[Site \"?\"]",
                "[Date \"????.??.??\"]",
                "[Round \"?\"]",
                "[White \"?\"]",
                "[Black \"?\"]",
                "[Result \"0-1\"]",
                "",
                "1. f3 e5 2. g4 Qh4# 0-1",
            ],
            false,
        );
    }

    #[test]
    fn stalemate() {
        let mut s = ascii();
        check(&mut s, "load k7/8/1Q6/8/8/8/8/7K w - - 0 1", &["k7/8/1Q6/8/8/8/8/7K w - - 0 1"], false);
        check(
            &mut s,
            "Qb6-c7",
            &["1. Qc7 (Qb6-c7 -> Qc7)", "k7/2Q5/8/8/8/8/8/7K b - - 1 1", "game over: stalemate, 1/2-1/2 (draw)"],
            false,
        );
    }

    #[test]
    fn claimable_draw() {
        let mut s = ascii();
        let response = s.eval("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
        assert_eq!(response.lines.last().unwrap(), "White may claim a draw: threefold repetition");
        assert_eq!(response.lines.iter().filter(|l| l.contains("claim")).count(), 1);
    }

    #[test]
    fn board_fen_flip_and_board_mode() {
        let mut s = ascii();
        check(&mut s, "fen", &[START], false);
        s.eval("e4");
        let board = [
            "8  r  n  b  q  k  b  n  r  8",
            "7  p  p  p  p  p  p  p  p  7",
            "6  .  .  .  .  .  .  .  .  6",
            "5  .  .  .  .  .  .  .  .  5",
            "4  .  .  .  .  P  .  .  .  4",
            "3  .  .  .  .  .  .  .  .  3",
            "2  P  P  P  P  .  P  P  P  2",
            "1  R  N  B  Q  K  B  N  R  1",
            "   a  b  c  d  e  f  g  h",
        ];
        check(&mut s, "board", &board, false);
        let flipped = [
            "1  R  N  B  K  Q  B  N  R  1",
            "2  P  P  P  .  P  P  P  P  2",
            "3  .  .  .  .  .  .  .  .  3",
            "4  .  .  .  P  .  .  .  .  4",
            "5  .  .  .  .  .  .  .  .  5",
            "6  .  .  .  .  .  .  .  .  6",
            "7  p  p  p  p  p  p  p  p  7",
            "8  r  n  b  k  q  b  n  r  8",
            "   h  g  f  e  d  c  b  a",
        ];
        check(&mut s, "flip", &flipped, false);
        check(&mut s, "flip", &board, false);
        check(&mut s, "board on", &["board: on"], false);
        let mut expected = vec!["1... e5", AFTER_E4_E5];
        let after: Vec<String> = board.iter().map(|l| l.replace("5  .  .  .  .  .", "5  .  .  .  .  p")).collect();
        let after: Vec<String> = after.iter().map(|l| l.replace("7  p  p  p  p  p", "7  p  p  p  p  .")).collect();
        expected.extend(after.iter().map(String::as_str));
        check(&mut s, "e5", &expected, false);
        check(&mut s, "board off", &["board: off"], false);
        check(&mut s, "board sideways", &["usage: board [on|off]"], true);
        check(&mut s, "Nf3", &["2. Nf3", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"], false);
    }

    #[test]
    fn colour_marks_the_last_move_and_a_checked_king() {
        let mut s = Session::new(Options { ascii: true, color: true, board: true, ..Options::default() });
        let response = s.eval("f3 e5 g4 Qh4");
        assert_eq!(response.lines[13], "4  .  .  .  .  .  .  P \x1b[43m q \x1b[0m 4");
        assert_eq!(response.lines[16], "1  R  N  B  Q \x1b[41m K \x1b[0m B  N  R  1");
        assert_eq!(response.lines[15], "2  P  P  P  P  P  .  .  P  2");
        assert!(response.lines[9].starts_with("8  r  n  b \x1b[43m . \x1b[0m k"));
    }

    #[test]
    fn unicode_board() {
        let mut s = Session::new(Options::default());
        let response = s.eval("board");
        assert_eq!(response.lines[0], "8  ♜  ♞  ♝  ♛  ♚  ♝  ♞  ♜  8");
        assert_eq!(response.lines[3], "5  ·  ·  ·  ·  ·  ·  ·  ·  5");
        assert_eq!(response.lines[7], "1  ♖  ♘  ♗  ♕  ♔  ♗  ♘  ♖  1");
    }

    #[test]
    fn load_and_new() {
        let mut s = ascii();
        s.eval("e4");
        check(&mut s, "load 4k3/8/8/8/8/8/8/4K2R w K - 0 1", &["4k3/8/8/8/8/8/8/4K2R w K - 0 1"], false);
        assert!(s.game().moves().is_empty());
        check(&mut s, "load", &["usage: load FEN"], true);
        let response = s.eval("load 9/8 w");
        assert!(response.error);
        assert!(response.lines[0].starts_with("invalid FEN: "), "{:?}", response.lines);
        assert_eq!(fen(&s), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        // no legal game reaches it, but it can be played
        let response = s.eval("load 4k3/8/8/8/8/8/PPPPPPPP/QQQQKQQQ w - - 0 1");
        assert!(!response.error);
        assert!(response.lines[0].starts_with("warning: no legal game reaches this position"), "{:?}", response.lines);
        assert_eq!(response.lines[1], "4k3/8/8/8/8/8/PPPPPPPP/QQQQKQQQ w - - 0 1");
        let response = s.eval("load 8/8/8/8/8/8/8/8 w - - 0 1");
        assert!(response.error);
        assert!(response.lines[0].starts_with("invalid position: "), "{:?}", response.lines);
        check(
            &mut s,
            "load 8/8/8/8/8/8/8/k6K w - - 0 1",
            &["8/8/8/8/8/8/8/k6K w - - 0 1", "game over: insufficient material, 1/2-1/2 (draw)"],
            false,
        );
        check(&mut s, "new", &["new game", START], false);
        // `new` goes back to the session's start
        let start = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        let position =
            Position::from_setup(Fen::parse(start, CastlingMode::Standard).unwrap().setup, CastlingMode::Standard)
                .unwrap();
        let mut s = Session::new(Options { start: position, ascii: true, ..Options::default() });
        s.eval("e4");
        check(&mut s, "new", &["new game", start], false);
    }

    #[test]
    fn moves_and_attacks() {
        let mut s = ascii();
        check(
            &mut s,
            "moves",
            &["20 legal moves: a3 a4 b3 b4 c3 c4 d3 d4 e3 e4 f3 f4 g3 g4 h3 h4 Na3 Nc3 Nf3 Nh3"],
            false,
        );
        s.eval("letters pt");
        check(
            &mut s,
            "moves",
            &["20 legal moves: a3 a4 b3 b4 c3 c4 d3 d4 e3 e4 f3 f4 g3 g4 h3 h4 Ca3 Cc3 Cf3 Ch3"],
            false,
        );
        s.eval("e4 e5 Cf3 Cc6");
        check(
            &mut s,
            "moves f3",
            &[
                "white knight on f3 moves to: g1 d4 h4 e5 g5",
                "8  r  .  b  q  k  b  n  r  8",
                "7  p  p  p  p  .  p  p  p  7",
                "6  .  .  n  .  .  .  .  .  6",
                "5  .  .  .  . (p) .  *  .  5",
                "4  .  .  .  *  P  .  .  *  4",
                "3  .  .  .  .  . [N] .  .  3",
                "2  P  P  P  P  .  P  P  P  2",
                "1  R  N  B  Q  K  B  *  R  1",
                "   a  b  c  d  e  f  g  h",
            ],
            false,
        );
        let response = s.eval("moves c6");
        assert_eq!(response.lines[0], "black knight on c6 reaches (not its turn): b4 d4 a5 e7 b8");
        check(&mut s, "moves e3", &["no piece on e3"], true);
        check(&mut s, "moves z9", &["not a square: \"z9\" (write a file and a rank: e4)"], true);
        check(&mut s, "moves a b", &["usage: moves [SQUARE]"], true);
        check(
            &mut s,
            "attacks f3",
            &[
                "white knight on f3 is safe on: g1",
                "8  r  .  b  q  k  b  n  r  8",
                "7  p  p  p  p  .  p  p  p  7",
                "6  .  .  n  .  .  .  .  .  6",
                "5  .  .  .  .  p  .  .  .  5",
                "4  .  .  .  .  P  .  .  .  4",
                "3  .  .  .  .  . [N] .  .  3",
                "2  P  P  P  P  .  P  P  P  2",
                "1  R  N  B  Q  K  B  *  R  1",
                "   a  b  c  d  e  f  g  h",
            ],
            false,
        );
        let response = s.eval("attacks");
        assert!(!response.error);
        assert!(response.lines[0].starts_with("Black attacks "), "{}", response.lines[0]);
        assert_eq!(response.lines[5], "4  .  *  .  *  P  *  .  *  4");
        check(&mut s, "attacks e3", &["no piece on e3"], true);
        check(&mut s, "attacks a b", &["usage: attacks [SQUARE]"], true);
    }

    #[test]
    fn history_and_pgn() {
        let mut s = ascii();
        check(&mut s, "history", &["no moves yet"], false);
        s.eval("e4 e5 Nf3");
        check(&mut s, "history", &["1. e4 e5 2. Nf3"], false);
        s.eval("load 4k3/8/8/8/8/8/4P3/4K3 b - - 0 30");
        s.eval("Kd7 e4 Kd6");
        check(&mut s, "history", &["30... Kd7 31. e4 Kd6"], false);
        check(
            &mut s,
            "pgn",
            &[
                "[Event \"?\"]",
                "[Site \"?\"]",
                "[Date \"????.??.??\"]",
                "[Round \"?\"]",
                "[White \"?\"]",
                "[Black \"?\"]",
                "[Result \"*\"]",
                "[SetUp \"1\"]",
                "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]",
                "",
                "30... Kd7 31. e4 Kd6 *",
            ],
            false,
        );
        // long games wrap at 79 characters
        let mut s = ascii();
        s.eval("Nf3 Nf6 Nc3 Nc6 Ng1 Ng8 Nb1 Nb8 Nf3 Nf6 Nc3 Nc6 Ng1 Ng8 Nb1 Nb8 e4 e5");
        let pgn = s.pgn();
        assert!(pgn.lines().all(|l| l.len() <= 79));
        assert!(pgn.ends_with("9. e4 e5 *\n"), "{pgn}");
    }

    #[test]
    fn save_pgn_and_binary_log() {
        let dir = temp_dir("save");
        let mut s = ascii();
        s.eval("e4 e5 Nf3 Nc6 Bc4 Bc5 O-O");
        let pgn = dir.join("game.pgn");
        let name = pgn.to_str().unwrap();
        check(&mut s, &format!("save {name}"), &[&format!("saved 7 moves to {name} (PGN)")], false);
        assert_eq!(
            std::fs::read_to_string(&pgn).unwrap(),
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n\
             [Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *\n"
        );
        let bin = dir.join("game.bin");
        let name = bin.to_str().unwrap();
        check(&mut s, &format!("save {name}"), &[&format!("saved 7 moves to {name} (binary log, 112 bytes)")], false);
        let bytes = std::fs::read(&bin).unwrap();
        assert_eq!(bytes.len(), 16 * 7);
        let values: Vec<i32> = bytes.chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect();
        #[rustfmt::skip]
        let expected = [
            1, 4, 3, 4, // e2e4
            6, 4, 4, 4, // e7e5
            0, 6, 2, 5, // g1f3
            7, 1, 5, 2, // b8c6
            0, 5, 3, 2, // f1c4
            7, 5, 4, 2, // f8c5
            0, 4, 0, 6, // O-O as e1g1
        ];
        assert_eq!(values, expected);
        check(&mut s, "save", &["usage: save FILE"], true);
        let missing = dir.join("no-such-dir").join("game.pgn");
        let response = s.eval(&format!("save {}", missing.to_str().unwrap()));
        assert!(response.error);
        assert!(response.lines[0].starts_with("cannot write "), "{:?}", response.lines);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn letters_help_quit_and_the_engine() {
        let mut s = ascii();
        check(&mut s, "letters", &["letters: English (K=K Q=Q R=R B=B N=N)"], false);
        check(&mut s, "letters de", &["letters: German (K=K Q=D R=T B=L N=S)"], false);
        assert_eq!(s.letters(), Letters::German);
        check(
            &mut s,
            "Sf3",
            &["1. Nf3 (Sf3 -> Nf3)", "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"],
            false,
        );
        check(&mut s, "letters xx", &["unknown language \"xx\": en, pt, es, fr, de, it or nl"], true);
        check(&mut s, "letters a b", &["usage: letters LANG"], true);
        assert_eq!(s.letters(), Letters::German);
        let help = s.eval("help");
        assert_eq!(help.lines.len(), 1 + COMMANDS.len());
        assert_eq!(
            help.lines[1],
            "  board [on|off]                 show the board; with on/off, show it after every move or not"
        );
        assert!(help.lines.iter().any(|l| l.starts_with("  quit ")));
        let response = s.eval("quit");
        assert!(response.quit);
        assert!(response.lines.is_empty());
        assert!(s.eval("exit").quit);
        assert_eq!(Response { lines: vec!["a".into(), "b".into()], ..Response::default() }.text(), "a\nb");
    }

    #[test]
    fn go_plays_the_engine_move_like_a_typed_move() {
        let mut s = ascii();
        // a hanging queen is taken at any depth
        s.eval("load 4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1");
        let response = s.eval("go 2");
        assert!(!response.error);
        assert_eq!(without_time(&response.lines[0]), "engine: Rxd5 (eval +4.70, depth 2, 41 nodes, T s)");
        assert_eq!(response.lines[1..], ["1. Rxd5", "4k3/8/8/3R4/8/8/8/4K3 b - - 0 1"]);
        // deterministic at a fixed depth, but for the time taken
        let mut a = ascii();
        let mut b = ascii();
        let (first, second) = (a.eval("go 3").lines, b.eval("go 3").lines);
        assert_eq!(
            first.iter().map(|l| without_time(l)).collect::<Vec<_>>(),
            second.iter().map(|l| without_time(l)).collect::<Vec<_>>()
        );
        assert_eq!(a.game().moves().len(), 1);
        let usage = "usage: go [DEPTH | depth N | SECONDSs]";
        check(&mut s, "go 0", &[&format!("{usage}: \"0\" is not a depth from 1 to 64")], true);
        check(&mut s, "go x", &[&format!("{usage}: \"x\" is not a depth from 1 to 64")], true);
        check(&mut s, "go depth 65", &[&format!("{usage}: \"65\" is not a depth from 1 to 64")], true);
        check(&mut s, "go 0s", &[&format!("{usage}: \"0s\" is not a time from 0.1s to 3600s")], true);
        check(&mut s, "go 1 2", &[usage], true);
        s.eval("load 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
        check(&mut s, "go 2", &["the game is over (checkmate, 1-0): undo or new to play on"], true);
    }

    /// A search line with its time replaced by `T` (the time is never asserted).
    fn without_time(line: &str) -> String {
        regex::Regex::new(r"[0-9]+\.[0-9]{2} s\)$").unwrap().replace(line, "T s)").into_owned()
    }

    #[test]
    fn go_finds_a_mate_in_one() {
        let mut s = ascii();
        s.eval("load 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        let response = s.eval("go 2");
        assert_eq!(without_time(&response.lines[0]), "engine: Ra8# (eval #1, depth 2, 56 nodes, T s)");
        assert_eq!(response.lines[1], "1. Ra8#");
        assert_eq!(response.lines[3], "game over: checkmate, 1-0 (White wins)");
    }

    #[test]
    fn play_makes_the_engine_answer() {
        let mut s = ascii();
        check(&mut s, "play black 1", &["engine: plays black (depth 1)"], false);
        let response = s.eval("e4");
        assert!(!response.error);
        assert_eq!(response.lines.len(), 5, "{response:?}");
        assert_eq!(response.lines[0], "1. e4");
        assert!(response.lines[2].starts_with("engine: "), "{response:?}");
        assert!(response.lines[3].starts_with("1... "), "{response:?}");
        assert_eq!(s.game().moves().len(), 2);
        assert_eq!(s.game().position().turn(), Color::White);
        // a refused move gets no answer
        let refused = s.eval("Ke3");
        assert!(refused.error);
        assert_eq!(s.game().moves().len(), 2);
    }

    #[test]
    fn play_for_the_side_to_move_moves_at_once_and_off_stops() {
        let mut s = ascii();
        let response = s.eval("play white 1");
        assert_eq!(response.lines[0], "engine: plays white (depth 1)");
        assert!(response.lines[1].starts_with("engine: "));
        assert!(response.lines[2].starts_with("1. "));
        assert_eq!(s.game().moves().len(), 1);
        check(&mut s, "play off", &["engine: off"], false);
        let response = s.eval("e5");
        assert_eq!(response.lines.len(), 2);
        assert_eq!(s.game().moves().len(), 2);
        check(&mut s, "play", &["usage: play white|black|off [DEPTH]"], true);
        check(&mut s, "play red", &["usage: play white|black|off [DEPTH]"], true);
        check(
            &mut s,
            "play black 99",
            &["usage: play white|black|off [DEPTH]: \"99\" is not a depth from 1 to 64"],
            true,
        );
        // the engine answers `go` too when it plays the other side
        s.eval("play black 1");
        s.eval("go 1");
        assert_eq!(s.game().moves().len(), 4);
    }
}
