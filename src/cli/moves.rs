//! `sanfen moves`: the legal moves of a position, one per line, in a chosen
//! notation and order; and what `moves` and `perft` share: reading the
//! position of `--fen`.
//!
//! [`Notation`] and [`notate`] render one move, [`Order`] and [`sort`] order a
//! list: the SAN notations (`san`, `file-prefixed`, figurine) plug in as new
//! variants of [`Notation`] when the SAN writer exists.

use std::ffi::OsString;
use std::fmt::{self, Display};
use std::io::{self, BufWriter, IsTerminal, Write};

use sanfen::{CastlingMode, Move, Position, Role, Severity};
use serde::Serialize;

use super::fen::Verdict;
use super::report::{self, Style};
use super::{Error, ExitCode};

/// The initial position, which `--fen` defaults to.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// How a move is written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Notation {
    /// UCI: from, to, promotion letter (`e2e4`, `e7e8q`); castling as king to
    /// destination (`e1g1`), or in Chess960 mode as king to rook (`e1h1`).
    #[default]
    Uci,
    /// Long algebraic: piece letter (none for pawns), from, `-` or `x`, to,
    /// `=Q` for promotions (`Ng1-f3`, `e5xd6`, `e7-e8=Q`); castling `O-O`, `O-O-O`.
    Lan,
}

impl Notation {
    /// The name `--notation` takes.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Uci => "uci",
            Notation::Lan => "lan",
        }
    }
}

/// A move written in a notation: `Display` writes it.
#[derive(Copy, Clone, Debug)]
pub struct Notated<'a> {
    /// The position the move is played in (SAN will need it for check marks
    /// and disambiguation; UCI for the castling mode).
    pub position: &'a Position,
    /// The move, legal in `position`.
    pub m: Move,
    /// How to write it.
    pub notation: Notation,
}

/// The move `m` of `position`, to be written in `notation`.
pub const fn notate(position: &Position, m: Move, notation: Notation) -> Notated<'_> {
    Notated { position, m, notation }
}

impl Display for Notated<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.m;
        match self.notation {
            Notation::Uci => self.m.to_uci(self.position.castling_mode()).fmt(f),
            Notation::Lan => match m {
                Move::Castle { king, rook } => f.write_str(if rook > king { "O-O" } else { "O-O-O" }),
                _ => {
                    if m.role() != Role::Pawn {
                        write!(f, "{}", m.role().upper_char())?;
                    }
                    write!(f, "{}{}{}", m.from(), if m.is_capture() { 'x' } else { '-' }, m.to())?;
                    if let Some(role) = m.promotion() {
                        write!(f, "={}", role.upper_char())?;
                    }
                    Ok(())
                }
            },
        }
    }
}

/// The order moves are listed in.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// As the move generator produces them.
    #[default]
    Natural,
    /// Seed 000's order: by piece (pawn, knight, bishop, rook, queen, king),
    /// then origin file, origin rank, destination file, destination rank, then
    /// promotion piece (knight, bishop, rook, queen).
    Value,
}

/// Seed 000's sort key of a move (see [`Order::Value`]); castling counts as the
/// king moving to its destination, after an ordinary king move to the same
/// square (Chess960 allows both).
pub fn value_key(m: Move) -> impl Ord {
    let (from, to) = (m.from(), m.to());
    (m.role(), from.file(), from.rank(), to.file(), to.rank(), m.promotion(), m.is_castle())
}

/// Puts `moves` in `order` (a stable sort: equal keys keep generation order).
pub fn sort(moves: &mut [Move], order: Order) {
    match order {
        Order::Natural => {}
        Order::Value => moves.sort_by_key(|&m| value_key(m)),
    }
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
    let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
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
    let mut moves = position.legal_moves();
    sort(&mut moves, options.order);
    let mut out = BufWriter::new(io::stdout().lock());
    if options.json {
        let input = options.fen.as_ref().map_or(START.into(), |fen| fen.to_string_lossy());
        let listing = Listing {
            input: &input,
            valid: true,
            fen: position.fen().to_string(),
            notation: options.notation.name(),
            moves: moves.iter().map(|&m| notate(&position, m, options.notation).to_string()).collect(),
        };
        serde_json::to_writer(&mut out, &listing).map_err(io::Error::from).map_err(Error::Output)?;
        out.write_all(b"\n").map_err(Error::Output)?;
    } else {
        for &m in &moves {
            writeln!(out, "{}", notate(&position, m, options.notation)).map_err(Error::Output)?;
        }
    }
    out.flush().map_err(Error::Output)?;
    Ok(ExitCode::Valid)
}

#[cfg(test)]
mod tests {
    use sanfen::{Fen, Square};

    use super::*;

    fn pos(fen: &str, mode: CastlingMode) -> Position {
        Position::from_setup(Fen::parse(fen, mode).unwrap().setup, mode).unwrap()
    }

    fn listing(position: &Position, notation: Notation, order: Order) -> Vec<String> {
        let mut moves = position.legal_moves();
        sort(&mut moves, order);
        moves.iter().map(|&m| notate(position, m, notation).to_string()).collect()
    }

    #[test]
    fn lan_of_every_kind_of_move() {
        let position = pos("r3k2r/1P6/8/4pP2/8/8/8/R3K2R w KQkq e6 0 2", CastlingMode::Standard);
        let lan = listing(&position, Notation::Lan, Order::Value);
        for present in ["b7-b8=N", "b7-b8=Q", "b7xa8=Q", "f5xe6", "f5-f6", "Ra1xa8", "Ke1-d1", "O-O", "O-O-O"] {
            assert!(lan.iter().any(|m| m == present), "{present} in {lan:?}");
        }
        assert!(!lan.iter().any(|m| m == "Ra1-a8"), "a capture is written with x: {lan:?}");
        let uci = listing(&position, Notation::Uci, Order::Value);
        for present in ["e1g1", "e1c1", "b7a8q", "f5e6"] {
            assert!(uci.iter().any(|m| m == present), "{present} in {uci:?}");
        }
    }

    #[test]
    fn value_order_is_seed_000s() {
        // seed 000, example 2, with UCI in place of its SAN
        let position = pos("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", CastlingMode::Standard);
        assert_eq!(
            listing(&position, Notation::Lan, Order::Value).join(" "),
            "a2-a3 a2-a4 b2-b3 b2-b4 c2-c3 d7xc8=N d7xc8=B d7xc8=R d7xc8=Q g2-g3 g2-g4 h2-h3 h2-h4 \
             Nb1-a3 Nb1-c3 Nb1-d2 Ne2-c3 Ne2-d4 Ne2-f4 Ne2-g1 Ne2-g3 \
             Bc1-d2 Bc1-e3 Bc1-f4 Bc1-g5 Bc1-h6 Bc4-a6 Bc4-b3 Bc4-b5 Bc4-d3 Bc4-d5 Bc4-e6 Bc4xf7 \
             Rh1-f1 Rh1-g1 Qd1-d2 Qd1-d3 Qd1-d4 Qd1-d5 Qd1-d6 Ke1-d2 Ke1-f1 Ke1xf2 O-O"
        );
    }

    #[test]
    fn castling_after_a_king_move_to_the_same_square() {
        // Chess960: king f1, rook h1; Kg1 and O-O both put the king on g1
        let position = pos("4k3/8/8/8/8/8/8/5K1R w H - 0 1", CastlingMode::Chess960);
        let uci = listing(&position, Notation::Uci, Order::Value);
        // the king's moves last, castling (f1h1) right after Kg1
        assert_eq!(uci[uci.len() - 6..], ["f1e1", "f1e2", "f1f2", "f1g1", "f1h1", "f1g2"]);
        assert_eq!(
            notate(&position, Move::Castle { king: Square::F1, rook: Square::H1 }, Notation::Lan).to_string(),
            "O-O"
        );
    }

    #[test]
    fn natural_order_is_generation_order() {
        let position = Position::default();
        let mut moves = position.legal_moves();
        let generated = moves.clone();
        sort(&mut moves, Order::Natural);
        assert_eq!(moves, generated);
    }
}
