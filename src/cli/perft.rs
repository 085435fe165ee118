//! `sanfen perft`: the number of leaf nodes of the legal move tree, optionally
//! split by the first move.

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};

#[cfg(doc)]
use sanfen::MAX_PERFT_DEPTH;
use sanfen::notation::{self, Notation};
use sanfen::san::Letters;
use sanfen::{perft, perft_divide};

use super::moves;
use super::{Error, ExitCode};

/// What `sanfen perft` is asked to do.
#[derive(Debug)]
pub struct Options {
    /// The FEN, if given.
    pub fen: Option<OsString>,
    /// Read castling as Chess960 (and write UCI castling as king to rook).
    pub chess960: bool,
    /// One line per first move before the total.
    pub divide: bool,
    /// Plies.
    pub depth: u32,
}

/// `sanfen perft`: with `--divide`, `MOVE: COUNT` per legal move (UCI, in
/// the value order, as `moves --order value` lists them); then the
/// total, alone on the last line.
///
/// # Errors
///
/// A depth above [`MAX_PERFT_DEPTH`] (a usage error; the command line
/// refuses it before, with the arguments); writing the output failed.
pub fn run(options: &Options) -> Result<ExitCode, Error> {
    let position = match moves::position(options.fen.as_ref(), options.chess960, false) {
        Ok(position) => position,
        Err(outcome) => return outcome,
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let total = if options.divide && options.depth > 0 {
        let mut counts = perft_divide(&position, options.depth).map_err(|e| Error::Usage(e.to_string()))?;
        counts.sort_by(|&(a, _), &(b, _)| notation::cmp_by_value(a, b));
        for &(m, count) in &counts {
            let uci = notation::write_move(&position, m, Notation::Uci, Letters::English);
            writeln!(out, "{uci}: {count}").map_err(Error::Output)?;
        }
        counts.iter().map(|&(_, count)| count).sum()
    } else {
        perft(&position, options.depth).map_err(|e| Error::Usage(e.to_string()))?
    };
    writeln!(out, "{total}").map_err(Error::Output)?;
    out.flush().map_err(Error::Output)?;
    Ok(ExitCode::Valid)
}
