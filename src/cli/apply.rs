//! `sanfen apply`: play moves in order from a position and print the final
//! FEN; stop at the first move that cannot be played and say which and why.
//!
//! The moves are read leniently (every spelling `resolve` accepts, in the
//! letters of `--letters`); move numbers (`1.`, `12...`, also glued to the move:
//! `1.e4`), NAGs (`$1`) and `*` are skipped. Each lint finding is a warning on
//! standard error, or with `--strict` the failure of its move. A game result
//! (`1-0`, `0-1`, `1/2-1/2`) ends the game: one the board contradicts (`1-0`
//! after White is mated, any but `1/2-1/2` after a stalemate), or a move after
//! it, stops the run as an illegal move does.

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};

use sanfen::lint::LintPolicy;
use sanfen::pgn::reader::ResultToken;
use sanfen::play::{self, Options, PlayError, Word};
use sanfen::san::Letters;
use sanfen::{Outcome, Position};
use serde::Serialize;

use super::check::escape;
use super::resolve::{Failure, Lint, Played, lints};
use super::terminal::json_to_writer;
use super::{Error, ExitCode, LintArgs, PositionArgs, input, moves};

/// `sanfen apply`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Any lint finding (`0-0`, `e8Q`, a missing `+`, ...) stops the run as an
    /// illegal move does, but those `--allow` names.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    lints: LintArgs,
    /// Read piece letters of this language: en, pt, es, fr, de, it, nl.
    #[arg(long, value_name = "LANG", default_value = "en")]
    letters: Letters,
    /// One JSON object on stdout (`fen`, `moves`, `error`) and nothing else.
    #[arg(long)]
    json: bool,
    /// The moves, in order; an argument may hold several, separated by spaces
    /// (`"1. e4 e5 2. Nf3"`). None, or `-`, reads them from standard input.
    #[arg(value_name = "MOVE")]
    moves: Vec<OsString>,
}

/// A move that was played, as JSON shows it.
#[derive(Debug, Serialize)]
struct MoveReport {
    index: usize,
    input: String,
    #[serde(flatten)]
    played: Played,
    lints: Vec<Lint>,
}

/// Why a move stopped the run.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Stop {
    /// Not a move, illegal or ambiguous.
    Resolve(Failure),
    /// Played, but not canonical SAN, under `--strict`.
    Lint {
        /// Always `lint`.
        kind: &'static str,
        /// The findings' messages, joined.
        message: String,
        /// The findings.
        lints: Vec<Lint>,
    },
    /// A result the board contradicts (`result`), or a move after the
    /// game's result (`over`).
    Result {
        /// `result` or `over`.
        kind: &'static str,
        /// The diagnostic.
        message: String,
    },
}

/// The move (or result) that stopped the run, as JSON shows it.
#[derive(Debug, Serialize)]
struct ErrorReport {
    /// The move's index, from 1; for a result, the index of the move it
    /// follows (0 before any).
    index: usize,
    input: String,
    #[serde(flatten)]
    stop: Stop,
}

/// The JSON object of a run.
#[derive(Debug, Serialize)]
struct Game {
    fen: Option<String>,
    moves: Vec<MoveReport>,
    error: Option<ErrorReport>,
}

/// Plays the moves of `text` from `position`, and reads its results: the
/// moves played, and the move or result that stopped the run if one did
/// (then the final position is not meaningful).
fn play(mut position: Position, text: &str, options: Options, policy: LintPolicy) -> (Position, Game) {
    let mut game = Game { fen: None, moves: Vec::new(), error: None };
    // the result that ended the game, and the index of the move it follows
    let mut ended: Option<(Outcome, usize)> = None;
    for word in play::words_in(text) {
        let input = text[word.span()].to_owned();
        let before = game.moves.len();
        let (index, stop) = match (word, ended) {
            (Word::Result(result, _), _) => match result_stop(&position, result, ended) {
                Ok(outcome) => {
                    ended = outcome.map(|outcome| (outcome, before)).or(ended);
                    continue;
                }
                Err(message) => (before, Stop::Result { kind: "result", message }),
            },
            (Word::Move(_), Some((outcome, after))) => {
                let message = format!("the game ended with {outcome}{}: not played", after_move(after));
                (before + 1, Stop::Result { kind: "over", message })
            }
            (Word::Move(_), None) => match play_move(&mut position, &input, options, policy) {
                Ok((played, lints)) => {
                    game.moves.push(MoveReport { index: before + 1, input, played, lints });
                    continue;
                }
                Err(stop) => (before + 1, stop),
            },
        };
        game.error = Some(ErrorReport { index, input, stop });
        return (position, game);
    }
    game.fen = Some(position.fen().to_string());
    (position, game)
}

/// Plays one move: its SAN and UCI and its lint findings, or why it stopped
/// the run.
fn play_move(
    position: &mut Position,
    input: &str,
    options: Options,
    policy: LintPolicy,
) -> Result<(Played, Vec<Lint>), Stop> {
    let played = play::play(position, input.as_bytes(), options).map_err(|error| {
        Stop::Resolve(match &error {
            PlayError::NotAMove(error) => Failure::syntax(error),
            PlayError::Move(error) => Failure::of(error),
            PlayError::NullMoveInCheck => Failure::Illegal { message: error.to_string(), suggestions: Vec::new() },
        })
    })?;
    let lints = lints(&played.spelling, &played.lints, Some(&played.san), policy);
    if lints.iter().any(|lint| lint.denied) {
        let lints: Vec<Lint> = lints.into_iter().filter(|lint| lint.denied).collect();
        let message = lints.iter().map(|lint| lint.message.as_str()).collect::<Vec<_>>().join("; ");
        return Err(Stop::Lint { kind: "lint", message, lints });
    }
    // null moves are refused (`Options::typed`): every move played is a move
    let uci = played.m.map(|m| m.to_uci(position.castling_mode()).to_string()).unwrap_or_default();
    Ok((Played { san: played.san.to_string(), uci }, lints))
}

/// What a result written in `position` does: ends the game (`Some`), or
/// nothing (`*` before the end, the result the game ended with written
/// again); the error's message when the board or an earlier result
/// (`ended`, with the move it follows) contradicts it.
fn result_stop(
    position: &Position,
    result: ResultToken,
    ended: Option<(Outcome, usize)>,
) -> Result<Option<Outcome>, String> {
    let written = match result {
        ResultToken::Outcome(outcome) => Some(outcome),
        ResultToken::Unknown => None,
    };
    if let Some((outcome, _)) = ended {
        return if written == Some(outcome) { Ok(None) } else { Err(format!("the game ended with {outcome} already")) };
    }
    if !position.has_legal_moves() {
        let (ending, expected) = if position.is_check() {
            ("checkmate", Outcome::Decisive { winner: !position.turn() })
        } else {
            ("stalemate", Outcome::Draw)
        };
        if written != Some(expected) {
            return Err(format!("the game ends in {ending}: the result is {expected}"));
        }
    }
    Ok(written)
}

/// ` after move N`, or nothing before the first move.
fn after_move(index: usize) -> String {
    if index == 0 { String::new() } else { format!(" after move {index}") }
}

/// The warnings of the moves played (lenient mode), then the failure of the
/// move that stopped the run: `sanfen: move 3 (Nf6): illegal: ...`.
fn write_diagnostics(err: &mut impl Write, game: &Game) -> io::Result<()> {
    for played in &game.moves {
        for lint in &played.lints {
            writeln!(
                err,
                "sanfen: warning: move {} ({}): {} ({})",
                played.index,
                escape(&played.input),
                escape(&lint.message),
                lint.code
            )?;
        }
    }
    if let Some(error) = &game.error {
        match &error.stop {
            Stop::Resolve(failure) => {
                writeln!(err, "sanfen: move {} ({}): {}", error.index, escape(&error.input), escape(failure.message()))?
            }
            Stop::Lint { lints, .. } => {
                for lint in lints {
                    writeln!(
                        err,
                        "sanfen: move {} ({}): not canonical: {} ({})",
                        error.index,
                        escape(&error.input),
                        escape(&lint.message),
                        lint.code
                    )?;
                }
            }
            Stop::Result { kind: "result", message } => {
                writeln!(err, "sanfen: result {}{}: {message}", escape(&error.input), after_move(error.index))?
            }
            Stop::Result { message, .. } => {
                writeln!(err, "sanfen: move {} ({}): {message}", error.index, escape(&error.input))?
            }
        }
    }
    Ok(())
}

/// The most text of moves `apply` reads: 1 MiB, some hundred thousand
/// moves, more than any game holds (the longest games played are under a
/// thousand). More is no game's moves (a PGN file, an endless stream): it
/// is refused before a move is played, and nothing more is read.
const MOST_MOVES_TEXT: usize = 1 << 20;

/// Shown before waiting for moves typed in a terminal.
const HINT: input::Hint =
    input::Hint { command: "sanfen apply", reads: "moves", instead: "sanfen apply MOVE... to give them as arguments" };

/// `sanfen apply`: the final FEN on stdout (or one JSON object); warnings and
/// the failure on stderr.
///
/// # Errors
///
/// Reading the input or writing the output failed.
pub fn run(args: &Args) -> Result<ExitCode, Error> {
    let position = match moves::position(args.position.fen.as_ref(), args.position.chess960, args.json) {
        Ok(position) => position,
        Err(outcome) => return outcome,
    };
    // every argument (or the standard input) as text, words apart
    let mut text = String::new();
    input::for_each(&args.moves, &HINT, |chunk| {
        if text.len() + chunk.len() > MOST_MOVES_TEXT {
            return Err(Error::Usage(format!(
                "more than {MOST_MOVES_TEXT} bytes of moves, more than a game holds: none played, nothing more read"
            )));
        }
        text.push_str(&String::from_utf8_lossy(chunk));
        text.push(' ');
        Ok(())
    })?;
    let options = Options::typed(args.letters);
    let (_, game) = play(position, &text, options, args.lints.policy(args.strict)?);
    let code = ExitCode::Valid.and_valid(game.error.is_none());
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json {
        json_to_writer(&mut out, &game).map_err(io::Error::from).map_err(Error::Output)?;
        out.write_all(b"\n").map_err(Error::Output)?;
    } else {
        let _ = write_diagnostics(&mut io::stderr().lock(), &game);
        if let Some(fen) = &game.fen {
            writeln!(out, "{fen}").map_err(Error::Output)?;
        }
    }
    out.flush().map_err(Error::Output)?;
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_stops_at_the_first_failing_move() {
        let (position, game) = play(
            Position::default(),
            "1. e4 e5 2. Nf3 Nf6 Nf6",
            Options::typed(Letters::English),
            LintPolicy::default(),
        );
        assert_eq!(game.fen, None);
        assert_eq!(game.moves.len(), 4);
        let error = game.error.unwrap();
        assert_eq!((error.index, error.input.as_str()), (5, "Nf6"));
        assert!(matches!(error.stop, Stop::Resolve(Failure::Illegal { .. })), "{:?}", error.stop);
        // the position is the one before the failing move
        assert_eq!(position.fen().to_string(), "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    }
}
