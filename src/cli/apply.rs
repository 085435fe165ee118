//! `sanfen apply`: play moves in order from a position and print the final
//! FEN; stop at the first move that cannot be played and say which and why.
//!
//! The moves are read leniently (every spelling `resolve` accepts, in the
//! letters of `--letters`); move numbers (`1.`, `12...`, also glued to the move:
//! `1.e4`), NAGs (`$1`) and game results are skipped. Each lint finding is a
//! warning on standard error, or with `--strict` the failure of its move.

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};

use sanfen::Position;
use sanfen::lint::LintPolicy;
use sanfen::play::{self, Options, PlayError};
use sanfen::san::Letters;
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
}

/// The move that stopped the run, as JSON shows it.
#[derive(Debug, Serialize)]
struct ErrorReport {
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

/// Plays the move tokens from `position`: the moves played, and the move that
/// stopped the run if one did (then the final position is not meaningful).
fn play(mut position: Position, text: &str, options: Options, policy: LintPolicy) -> (Position, Game) {
    let mut game = Game { fen: None, moves: Vec::new(), error: None };
    for (index, range) in play::moves_in(text).into_iter().enumerate() {
        let (index, input) = (index + 1, text[range].to_owned());
        let played = match play::play(&mut position, input.as_bytes(), options) {
            Ok(played) => played,
            Err(error) => {
                let failure = match &error {
                    PlayError::NotAMove(error) => Failure::syntax(error),
                    PlayError::Move(error) => Failure::of(error),
                    PlayError::NullMoveInCheck => {
                        Failure::Illegal { message: error.to_string(), suggestions: Vec::new() }
                    }
                };
                game.error = Some(ErrorReport { index, input, stop: Stop::Resolve(failure) });
                return (position, game);
            }
        };
        let lints = lints(&played.spelling, &played.lints, Some(&played.san), policy);
        if lints.iter().any(|lint| lint.denied) {
            let lints: Vec<Lint> = lints.into_iter().filter(|lint| lint.denied).collect();
            let message = lints.iter().map(|lint| lint.message.as_str()).collect::<Vec<_>>().join("; ");
            game.error = Some(ErrorReport { index, input, stop: Stop::Lint { kind: "lint", message, lints } });
            return (position, game);
        }
        // null moves are refused (`Options::typed`): every move played is a move
        let uci = played.m.map(|m| m.to_uci(position.castling_mode()).to_string()).unwrap_or_default();
        let san = played.san.to_string();
        game.moves.push(MoveReport { index, input, played: Played { san, uci }, lints });
    }
    game.fen = Some(position.fen().to_string());
    (position, game)
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
