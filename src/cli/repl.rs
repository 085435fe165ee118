//! `sanfen repl` (and a bare `sanfen`): the front end of [`Session`].
//!
//! In a terminal: a line editor (rustyline) with a prompt showing the move
//! number and the side to move, history kept in the user's data directory,
//! tab completion of legal moves and commands, hints, and the board after each
//! move. Otherwise: no prompt, no colour, no escape codes; one response per
//! input line, so the session can be scripted.
//!
//! Ctrl-C at the prompt clears the line (the line editor reads it as a key).
//! While a command runs (the engine thinking after `go`) the terminal is back
//! in its normal mode and Ctrl-C is a signal: in a terminal a handler then
//! raises the session's stop flag, so the engine plays its best move so far
//! and the session goes on. Piped input keeps the default: Ctrl-C ends it.

use std::borrow::Cow;
use std::ffi::OsString;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;

use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{CompletionType, Config, Context, Editor, Helper};
use sanfen::notation;
use sanfen::san::Letters;

use super::session::{COMMANDS, Options as SessionOptions, Response, Session};
use super::{Error, ExitCode, moves};

/// What `sanfen repl` is asked to do.
#[derive(Debug, Default)]
pub struct Options {
    /// The starting position (the initial position without it).
    pub fen: Option<OsString>,
    /// The piece letters moves are read in.
    pub letters: Letters,
    /// ASCII letters on the board instead of figurines.
    pub ascii: bool,
    /// No board after each move, even in a terminal.
    pub no_board: bool,
}

/// Runs the REPL until `quit`, the end of the input or Ctrl-D.
///
/// # Errors
///
/// Reading standard input or writing standard output failed.
pub fn run(options: &Options) -> Result<ExitCode, Error> {
    let start = match moves::position(options.fen.as_ref(), false, false) {
        Ok(position) => position,
        Err(outcome) => return outcome,
    };
    let interactive = io::stdin().is_terminal();
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let color = interactive && io::stdout().is_terminal() && !no_color;
    let session = Session::new(SessionOptions {
        start,
        letters: options.letters,
        ascii: options.ascii,
        color,
        board: interactive && !options.no_board,
    });
    if interactive { edit(session, color) } else { script(session, io::stdin().lock(), &mut io::stdout().lock()) }
}

/// Reads lines with no prompt and prints each response.
fn script(mut session: Session, mut input: impl BufRead, out: &mut impl Write) -> Result<ExitCode, Error> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf).map_err(Error::Input)? == 0 {
            break;
        }
        let line = String::from_utf8_lossy(&buf);
        let response = session.eval(line.trim_end_matches(['\n', '\r']));
        write_response(out, &response).map_err(Error::Output)?;
        if response.quit {
            break;
        }
    }
    Ok(ExitCode::Valid)
}

fn write_response(out: &mut impl Write, response: &Response) -> io::Result<()> {
    for line in &response.lines {
        writeln!(out, "{line}")?;
    }
    out.flush()
}

/// The prompt: `12. white> `.
fn prompt(session: &Session) -> String {
    let position = session.game().position();
    format!("{}. {}> ", position.fullmoves(), position.turn().name())
}

/// Where the line history is kept: `$XDG_DATA_HOME/sanfen/history`, or
/// `~/.local/share/sanfen/history`.
fn history_path() -> Option<PathBuf> {
    let data = match std::env::var_os("XDG_DATA_HOME").map(PathBuf::from) {
        Some(dir) if dir.is_absolute() => dir,
        _ => PathBuf::from(std::env::var_os("HOME").filter(|h| !h.is_empty())?).join(".local/share"),
    };
    Some(data.join("sanfen").join("history"))
}

/// The line editor loop, in a terminal.
fn edit(mut session: Session, color: bool) -> Result<ExitCode, Error> {
    let config = Config::builder().completion_type(CompletionType::List).auto_add_history(true).build();
    let mut editor: Editor<LineHelper, DefaultHistory> =
        Editor::with_config(config).map_err(|e| Error::Input(io::Error::other(e)))?;
    editor.set_helper(Some(LineHelper { moves: Vec::new(), color }));
    let history = history_path();
    if let Some(path) = &history {
        // a first run has no history yet
        let _ = editor.load_history(path);
    }
    let stop = session.stop_flag();
    // Ctrl-C during a search raises the stop flag (at the prompt the editor
    // reads it as a key); if the handler cannot be set, Ctrl-C ends the
    // program during a search, as it did without one
    let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, stop);
    let mut out = io::stdout();
    writeln!(out, "sanfen {}: type moves or a command (help, quit); Tab completes", env!("CARGO_PKG_VERSION"))
        .map_err(Error::Output)?;
    loop {
        if let Some(helper) = editor.helper_mut() {
            helper.moves = legal_moves(&session);
        }
        match editor.readline(&prompt(&session)) {
            Ok(line) => {
                let response = session.eval(&line);
                write_response(&mut out, &response).map_err(Error::Output)?;
                if response.quit {
                    break;
                }
            }
            // Ctrl-C: the line is dropped, the session goes on
            Err(ReadlineError::Interrupted) => {}
            Err(ReadlineError::Eof) => break,
            Err(ReadlineError::Io(err)) => return Err(Error::Input(err)),
            Err(err) => return Err(Error::Input(io::Error::other(err))),
        }
    }
    if let Some(path) = &history {
        // never fail for a history that cannot be written
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = editor.save_history(path);
    }
    Ok(ExitCode::Valid)
}

/// The legal moves of the session's position in the session's notation and letters.
fn legal_moves(session: &Session) -> Vec<String> {
    let position = session.game().position();
    let mut moves = position.legal_moves();
    notation::sort_by_value(&mut moves);
    moves.iter().map(|&m| notation::write_move(position, m, session.notation(), session.letters())).collect()
}

/// The command names (`board`, `fen`, ..., `quit`).
fn command_names() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().filter_map(|(usage, _)| usage.split_whitespace().next())
}

/// The words that may complete `word`, the `index`-th word of a line whose
/// first word is `first`.
fn candidates(moves: &[String], first: &str, index: usize, word: &str) -> Vec<String> {
    let arguments: &[&str] = match first.to_ascii_lowercase().as_str() {
        _ if index == 0 => &[],
        "board" => &["on", "off"],
        "play" => &["white", "black", "off"],
        "letters" => &["en", "pt", "es", "fr", "de", "it", "nl"],
        "notation" => &["san", "lan", "uci", "figurine", "file-prefixed"],
        _ => &[],
    };
    let mut out: Vec<String> = Vec::new();
    if index == 0 {
        // case-sensitive: `N` is a knight, not `new`
        out.extend(command_names().filter(|c| c.starts_with(word) && !word.is_empty()).map(str::to_owned));
    }
    if !arguments.is_empty() {
        out.extend(arguments.iter().filter(|a| a.starts_with(word)).map(|a| (*a).to_owned()));
    } else if index == 0 || command_names().all(|c| !c.eq_ignore_ascii_case(first)) {
        out.extend(moves.iter().filter(|m| m.starts_with(word)).cloned());
    }
    out
}

/// Completion, hints and hint colour for the line editor.
struct LineHelper {
    /// The legal moves of the current position, as completions.
    moves: Vec<String>,
    /// Hints dimmed with ANSI escapes.
    color: bool,
}

impl LineHelper {
    /// The start of the word at `pos` and the candidates for it.
    fn complete_at(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = &before[start..];
        let earlier: Vec<&str> = before[..start].split_whitespace().collect();
        let first = earlier.first().copied().unwrap_or(word);
        (start, candidates(&self.moves, first, earlier.len(), word))
    }
}

impl Completer for LineHelper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let (start, words) = self.complete_at(line, pos);
        Ok((start, words.into_iter().map(|w| Pair { display: w.clone(), replacement: w }).collect()))
    }
}

impl Hinter for LineHelper {
    type Hint = String;

    /// The rest of the only word that completes the one being typed.
    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<String> {
        if pos < line.len() {
            return None;
        }
        let (start, words) = self.complete_at(line, pos);
        let typed = pos - start;
        match words.as_slice() {
            [only] if typed > 0 && only.len() > typed => Some(only[typed..].to_owned()),
            _ => None,
        }
    }
}

impl Highlighter for LineHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color { Cow::Owned(format!("\x1b[2m{hint}\x1b[0m")) } else { Cow::Borrowed(hint) }
    }
}

impl Validator for LineHelper {}

impl Helper for LineHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_script(input: &str) -> String {
        let mut out = Vec::new();
        let session = Session::new(SessionOptions::default());
        script(session, input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn script_prints_each_response_and_stops_at_quit() {
        assert_eq!(
            run_script("e4\r\nfen\nquit\nfen\n"),
            "1. e4\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
             rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
        );
        assert_eq!(run_script(""), "");
    }

    #[test]
    fn prompt_shows_the_move_number_and_the_side() {
        let mut session = Session::new(SessionOptions::default());
        assert_eq!(prompt(&session), "1. white> ");
        session.eval("e4");
        assert_eq!(prompt(&session), "1. black> ");
        session.eval("e5");
        assert_eq!(prompt(&session), "2. white> ");
    }

    #[test]
    fn completion_of_moves_commands_and_arguments() {
        let mut session = Session::new(SessionOptions::default());
        let helper = LineHelper { moves: legal_moves(&session), color: false };
        assert_eq!(helper.complete_at("N", 1), (0, vec!["Na3".into(), "Nc3".into(), "Nf3".into(), "Nh3".into()]));
        assert_eq!(helper.complete_at("e4 N", 4).1.len(), 4);
        assert_eq!(helper.complete_at("he", 2), (0, vec!["help".into()]));
        assert_eq!(helper.complete_at("play b", 6), (5, vec!["black".into()]));
        assert_eq!(helper.complete_at("undo N", 6).1, Vec::<String>::new());
        session.eval("letters pt");
        let helper = LineHelper { moves: legal_moves(&session), color: false };
        assert_eq!(helper.complete_at("C", 1).1, ["Ca3", "Cc3", "Cf3", "Ch3"]);
        let ctx_free_hint = helper.complete_at("hel", 3);
        assert_eq!(ctx_free_hint.1, ["help"]);
    }

    #[test]
    fn history_lives_in_the_data_directory() {
        // only the shape: the environment is the user's
        if let Some(path) = history_path() {
            assert!(path.ends_with("sanfen/history"));
        }
    }
}
