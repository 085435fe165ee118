//! `sanfen moves`: the legal moves of a position, one per line, in a chosen
//! notation and order; and what `moves`, `perft`, `resolve` and `apply` share:
//! reading the position of `--fen`.
//!
//! Writing and ordering are the library's ([`notation::write_move`],
//! [`notation::sort_by_value`]); this module maps the command line onto them.

use std::ffi::OsString;
use std::io::{self, BufWriter, IsTerminal, Write};

use sanfen::notation::{self, Notation};
use sanfen::san::Letters;
use sanfen::{CastlingMode, Position, Severity};
use serde::Serialize;

use super::fen::Verdict;
use super::report::{self, Style};
use super::terminal::json_to_writer;
use super::{Error, ExitCode};

/// The initial position, which `--fen` defaults to.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// How `--notation` names the library's [`Notation`]s.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum NotationArg {
    /// Standard algebraic notation: `Nf3`, `exd5`, `e8=Q+`, `O-O`.
    #[default]
    San,
    /// Long algebraic: `Ng1-f3`, `e2-e4`, `e5xd6`, `e7-e8=Q`, `O-O`, with `+`/`#`.
    Lan,
    /// UCI: `g1f3`, `e7e8q`; castling `e1g1`, or king takes rook (`e1h1`) with
    /// `--chess960`.
    Uci,
    /// SAN where every pawn move carries its origin file (`ee4`, `dxc8N`),
    /// promotion without `=`, castling as the king's move (`Kg1`), no check
    /// marks.
    FilePrefixed,
    /// SAN with figurines: `♘f3`, `e8=♕`.
    Figurine,
}

impl From<NotationArg> for Notation {
    fn from(arg: NotationArg) -> Notation {
        match arg {
            NotationArg::San => Notation::San,
            NotationArg::Lan => Notation::Lan,
            NotationArg::Uci => Notation::Uci,
            NotationArg::FilePrefixed => Notation::FilePrefixed,
            NotationArg::Figurine => Notation::Figurine,
        }
    }
}

/// The order moves are listed in.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// As the move generator produces them.
    #[default]
    Natural,
    /// The value order: by piece (pawn, knight, bishop, rook, queen, king),
    /// then origin file, origin rank, destination file, destination rank, then
    /// promotion piece (knight, bishop, rook, queen); castling as the king's move.
    Value,
}

/// The castling mode `--chess960` asks for.
pub const fn castling_mode(chess960: bool) -> CastlingMode {
    if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard }
}

/// The position `--fen` names (the initial position without it), read
/// leniently, as perft suites need: a position no legal game reaches but whose
/// rules can be played is accepted, with a warning on standard error.
///
/// # Errors
///
/// The FEN is not FEN, or the rules cannot be played from it (no king, a
/// castling right without its rook, ...): every problem is written (on
/// standard error, or as a JSON object on standard output when `json`), and the
/// `Err` holds the exit code.
pub fn position(fen: Option<&OsString>, chess960: bool, json: bool) -> Result<Position, Result<ExitCode, Error>> {
    let input = fen.map_or(START.as_bytes(), |fen| fen.as_encoded_bytes());
    let mode = castling_mode(chess960);
    let verdict = Verdict::judge(input, mode);
    if let Verdict::Parsed { fen, reasons } = &verdict {
        let errors: Vec<String> =
            reasons.iter().filter(|reason| reason.severity() == Severity::Error).map(ToString::to_string).collect();
        if let Ok(position) = Position::from_setup_lenient(fen.setup.clone(), mode) {
            if !errors.is_empty() {
                let _ = writeln!(
                    io::stderr(),
                    "sanfen: warning: no legal game reaches this position ({}); using it as given",
                    errors.join("; ")
                );
            }
            return Ok(position);
        }
    }
    Err(report_invalid(input, &verdict, json))
}

/// Writes why the input is not a position: the `fen check` report on standard
/// error, or its JSON object on standard output.
fn report_invalid(input: &[u8], verdict: &Verdict, json: bool) -> Result<ExitCode, Error> {
    let findings = verdict.findings();
    if json {
        let mut out = io::stdout().lock();
        report::write_json(&mut out, input, false, None, &findings)
            .and_then(|()| out.flush())
            .map_err(Error::Output)?;
    } else {
        let stderr = io::stderr();
        let style = Style::for_stdout(stderr.is_terminal());
        let mut err = stderr.lock();
        let _ = report::write_human(&mut err, input, None, &findings, style);
    }
    Ok(ExitCode::Invalid)
}

/// What `sanfen moves` is asked to do.
#[derive(Debug)]
pub struct Options {
    /// The FEN, if given.
    pub fen: Option<OsString>,
    /// Read castling as Chess960 (and write UCI castling as king to rook).
    pub chess960: bool,
    /// How to write each move.
    pub notation: Notation,
    /// The piece letters of the SAN-like notations.
    pub letters: Letters,
    /// In which order.
    pub order: Order,
    /// One JSON object instead of lines.
    pub json: bool,
}

/// The JSON object of a listing.
#[derive(Serialize)]
struct Listing<'a> {
    input: &'a str,
    valid: bool,
    fen: String,
    notation: &'static str,
    moves: Vec<String>,
}

/// The legal moves of `position` in `order`, each written in `notation` with
/// `letters`.
pub fn listing(position: &Position, notation: Notation, letters: Letters, order: Order) -> Vec<String> {
    let mut moves = position.legal_moves();
    if order == Order::Value {
        notation::sort_by_value(&mut moves);
    }
    moves.iter().map(|&m| notation::write_move(position, m, notation, letters)).collect()
}

/// `sanfen moves`: every legal move, one per line (or one JSON object).
///
/// # Errors
///
/// Writing the output failed.
pub fn run(options: &Options) -> Result<ExitCode, Error> {
    let position = match position(options.fen.as_ref(), options.chess960, options.json) {
        Ok(position) => position,
        Err(outcome) => return outcome,
    };
    let moves = listing(&position, options.notation, options.letters, options.order);
    let mut out = BufWriter::new(io::stdout().lock());
    if options.json {
        let input = options.fen.as_ref().map_or(START.into(), |fen| fen.to_string_lossy());
        let listing = Listing {
            input: &input,
            valid: true,
            fen: position.fen().to_string(),
            notation: options.notation.name(),
            moves,
        };
        json_to_writer(&mut out, &listing).map_err(io::Error::from).map_err(Error::Output)?;
        out.write_all(b"\n").map_err(Error::Output)?;
    } else {
        for m in &moves {
            writeln!(out, "{m}").map_err(Error::Output)?;
        }
    }
    out.flush().map_err(Error::Output)?;
    Ok(ExitCode::Valid)
}

#[cfg(test)]
mod tests {
    use sanfen::Fen;

    use super::*;

    fn pos(fen: &str, mode: CastlingMode) -> Position {
        Position::from_setup(Fen::parse(fen, mode).unwrap().setup, mode).unwrap()
    }

    #[test]
    fn every_notation_argument_names_its_library_notation() {
        use clap::ValueEnum;

        for arg in NotationArg::value_variants() {
            let name = arg.to_possible_value().unwrap();
            assert_eq!(Notation::from_name(name.get_name()), Some(Notation::from(*arg)), "{name:?}");
        }
    }

    #[test]
    fn value_order_with_castling_after_a_king_move_to_the_same_square() {
        // Chess960: king f1, rook h1; Kg1 and O-O both put the king on g1
        let position = pos("4k3/8/8/8/8/8/8/5K1R w H - 0 1", CastlingMode::Chess960);
        let uci = listing(&position, Notation::Uci, Letters::English, Order::Value);
        assert_eq!(uci[uci.len() - 6..], ["f1e1", "f1e2", "f1f2", "f1g1", "f1h1", "f1g2"]);
        let san = listing(&position, Notation::San, Letters::English, Order::Value);
        assert_eq!(san[san.len() - 6..], ["Ke1", "Ke2", "Kf2", "Kg1", "O-O", "Kg2"]);
    }

    #[test]
    fn natural_order_is_generation_order() {
        let position = Position::default();
        let generated: Vec<String> = position
            .legal_moves()
            .iter()
            .map(|&m| notation::write_move(&position, m, Notation::Uci, Letters::English))
            .collect();
        assert_eq!(listing(&position, Notation::Uci, Letters::English, Order::Natural), generated);
    }
}
