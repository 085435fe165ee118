//! `sanfen fen check` and `sanfen fen normalize`: judge each input with the
//! library (syntax, lints, legality) and report.

use std::ffi::OsString;
use std::io::{self, BufWriter, IsTerminal, Write};

use sanfen::fen::EnPassantMode;
use sanfen::{CastlingMode, Severity};

use super::check;
use super::report::{self, Style};
use super::{Error, ExitCode, FenInputArgs, input};

/// What the two commands are asked to do.
#[derive(Debug)]
pub struct Options {
    fens: Vec<OsString>,
    json: bool,
    mode: CastlingMode,
    ep: EnPassantMode,
}

impl Options {
    pub(super) fn new(args: FenInputArgs, keep_ep: bool) -> Options {
        Options {
            fens: args.fens,
            json: args.json,
            mode: if args.chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard },
            ep: if keep_ep { EnPassantMode::AsGiven } else { EnPassantMode::Legal },
        }
    }
}

/// The library's judgement of one input.
pub use sanfen::fen::FenCheck as Verdict;

/// Shown before waiting for FENs typed in a terminal.
const CHECK_HINT: input::Hint = input::Hint {
    command: "sanfen fen check",
    reads: "one FEN per line",
    instead: "sanfen fen check FEN... to give them as arguments",
};

/// Shown before waiting for FENs typed in a terminal.
const NORMALIZE_HINT: input::Hint = input::Hint {
    command: "sanfen fen normalize",
    reads: "one FEN per line",
    instead: "sanfen fen normalize FEN... to give them as arguments",
};

/// `sanfen fen check`: a report per input.
///
/// # Errors
///
/// Reading the input or writing the output failed.
pub fn check(options: &Options) -> Result<ExitCode, Error> {
    let stdout = io::stdout();
    let style = Style::for_stdout(stdout.is_terminal());
    let numbered = !input::is_single(&options.fens);
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut code = ExitCode::Valid;
    let mut number = 0;
    input::for_each(&options.fens, &CHECK_HINT, |line| {
        number += 1;
        let verdict = Verdict::judge(line, options.mode);
        let valid = verdict.is_valid();
        code = code.and_valid(valid);
        let written = if options.json {
            report::write_json(&mut out, line, valid, None, &verdict.findings())
        } else if verdict.is_clean() && !style.terminal {
            // the common case, without building a findings list
            out.write_all(b"ok\n")
        } else {
            report::write_human(&mut out, line, numbered.then_some(number), &verdict.findings(), style)
        };
        written.and_then(|()| if style.terminal { out.flush() } else { Ok(()) }).map_err(Error::Output)
    })?;
    out.flush().map_err(Error::Output)?;
    Ok(code)
}

/// `sanfen fen normalize`: the canonical FEN of each valid input; the errors of
/// the others on standard error.
///
/// # Errors
///
/// Reading the input or writing the output failed.
pub fn normalize(options: &Options) -> Result<ExitCode, Error> {
    let stdout = io::stdout();
    let terminal = stdout.is_terminal();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut code = ExitCode::Valid;
    let mut number = 0;
    input::for_each(&options.fens, &NORMALIZE_HINT, |line| {
        number += 1;
        let verdict = Verdict::judge(line, options.mode);
        let fen = verdict.position_fen(options.ep);
        code = code.and_valid(fen.is_some());
        let written = if options.json {
            let text = fen.map(|fen| fen.to_string());
            report::write_json(&mut out, line, text.is_some(), Some(text.as_deref()), &verdict.findings())
        } else if let Some(fen) = fen {
            writeln!(out, "{fen}")
        } else {
            // keep stdout and stderr in order for a reader that sees both
            out.flush().map_err(Error::Output)?;
            let mut stderr = io::stderr().lock();
            for finding in verdict.findings().iter().filter(|finding| finding.severity == Severity::Error) {
                let _ = writeln!(stderr, "sanfen: input {number}: {}", check::escape(&finding.message.to_string()));
            }
            Ok(())
        };
        written.and_then(|()| if terminal { out.flush() } else { Ok(()) }).map_err(Error::Output)
    })?;
    out.flush().map_err(Error::Output)?;
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn human(input: &str, number: Option<usize>, style: Style) -> String {
        let verdict = Verdict::judge(input.as_bytes(), CastlingMode::Standard);
        let mut out = Vec::new();
        report::write_human(&mut out, input.as_bytes(), number, &verdict.findings(), style).unwrap();
        String::from_utf8(out).unwrap()
    }

    const CASTLING: &str = "rnbq1knr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w k - 0 1";

    #[test]
    fn terminal_shows_the_input_and_carets() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
        let plain = Style { terminal: true, color: false };
        assert_eq!(
            human(fen, None, plain),
            format!(
                "{fen}\n{}^^\nwarning[fen:en-passant-not-capturable] at 53..55: en passant square e3, but no pawn can capture there; canonical FEN writes '-'\nok\n",
                " ".repeat(53)
            )
        );
        assert_eq!(
            human("8/8/8/8/8/8/8/8 w - - 0 1", Some(1), plain).lines().take(2).collect::<Vec<_>>(),
            ["1: 8/8/8/8/8/8/8/8 w - - 0 1", "   ^^^^^^^^^^^^^^^"]
        );
        assert!(human(CASTLING, Some(2), plain).starts_with("\n2: "));
    }

    #[test]
    fn colour_only_when_asked() {
        let coloured = human(CASTLING, None, Style { terminal: true, color: true });
        assert_eq!(
            coloured,
            format!(
                "{CASTLING}\n{}\x1b[1;31m^\x1b[0m\n\x1b[1;31merror\x1b[0m[fen:castling] at 46..47: castling right 'k' needs the black king on e8 and a rook on h8; found the king on f8\ninvalid\n",
                " ".repeat(46)
            )
        );
        let plain = human(CASTLING, None, Style { terminal: false, color: false });
        assert!(!plain.contains('\x1b'));
        assert!(!plain.contains(CASTLING));
    }
}
