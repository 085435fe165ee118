//! `sanfen fmt`: rewrite PGN with canonical SAN and layout
//! ([`sanfen::pgn::format`] says how), to standard output or, with
//! `--in-place`, back into each file ([`InPlace`] says how a file keeps its
//! owner, group, mode, kind and links), or, with `--check`, only say which
//! inputs would change (the formatted text compared with the input as both
//! stream by, nothing written).
//!
//! Input is streamed by the library ([`format_input`]: chunks of whole
//! games, each formatted and written before the next is read, so memory
//! does not grow with the input). A game that cannot be rewritten is
//! written unchanged and reported on standard error as
//! `FILE:LINE:COL: game N: MESSAGE (game written unchanged)`.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::sync::{Arc, Mutex, PoisonError};

use sanfen::notation::Notation;
use sanfen::pgn::chunk::TooLargeGame;
use sanfen::pgn::format_input::{FormatInputError, FormatOptions, Unchanged, format_input};
use sanfen::pgn::input::{Input, shown_name};
use sanfen::san::Letters;

use super::check::escape;
use super::input::Hint;
use super::pgn_input::{self, Source};
use super::rewrite::{self, InPlace};
use super::terminal::TerminalText;
use super::{Error, ExitCode, LintArgs};

/// `sanfen fmt`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write each file's formatted text back into it instead of to standard
    /// output, keeping its owner, group, mode, extended attributes (ACLs,
    /// capabilities, labels) and links; refuse anything else.
    ///
    /// Not with standard input or a compressed (`.gz`, `.zst`) file. A
    /// symbolic link is followed and its target rewritten. Refused, each
    /// with an error naming the file and the file left as it was (exit code
    /// 2): anything but a regular file (a directory, a FIFO, a device, a
    /// socket: never opened); a read-only file (no write bit in its mode,
    /// even for root) or one the user may not write; a file whose owner and
    /// group the rewritten file cannot be given (a user other than root
    /// rewriting another user's file), or an extended attribute (a
    /// capability, without CAP_SETFCAP); a file that changes while it is
    /// formatted. The text is formatted into a temporary file
    /// `.sanfen-fmt-XXXXXXXX.tmp` in the file's directory, given the file's
    /// owner, group, extended attributes and mode, then renamed over it; a
    /// file with hard links is written through instead (the formatted text
    /// copied into it at the end, not atomically), so every name keeps the
    /// same file. A file whose text would not change is left as it is. On
    /// any error, and on SIGINT, SIGTERM or SIGHUP (exit code 130, 143, 129),
    /// the temporary file is removed.
    #[arg(long)]
    in_place: bool,
    /// Write nothing: print `would reformat FILE` on standard output for each
    /// input `fmt` would change (`<stdin>` for standard input), and exit with
    /// 1 if there is one.
    ///
    /// Games written unchanged are reported on standard error as without
    /// `--check` (and make the exit code 1 too). Not with `--in-place`.
    #[arg(long, conflicts_with = "in_place")]
    check: bool,
    /// `--deny CODE`: a game with a lint finding of that code or group
    /// (`sanfen check` names them) is written unchanged and reported, as a
    /// game with an error is; `--allow CODE` takes a code out of a denied
    /// group. Other lint findings are not reported: `fmt` writes the
    /// canonical form.
    #[command(flatten)]
    lints: LintArgs,
    /// How moves are written: canonical SAN, or long algebraic, UCI or SAN
    /// with figurines, each read back as the same moves (`fmt` of the
    /// output writes what `fmt` of the input writes).
    #[arg(long, value_enum, default_value_t)]
    notation: MovetextNotation,
    /// Read the moves' piece letters in this language: en, pt, es, fr, de,
    /// it, nl. Moves are written in English (`Cf3` in Portuguese becomes
    /// `Nf3`): `fmt --letters pt` turns a game in Portuguese letters into
    /// standard PGN.
    #[arg(long, value_name = "LANG", default_value = "en")]
    letters: Letters,
    /// Threads that format games [default: one per core]. With more than
    /// one, this thread reads and cuts the input and writes; the output is
    /// the same whatever the number.
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = super::parse_jobs)]
    jobs: Option<u32>,
    /// PGN files (`.gz`, `.zst` decompressed); none, or `-`, reads standard
    /// input.
    ///
    /// Each game is rewritten: the Seven Tag Roster first (missing ones added
    /// with `?`, `????.??.??` for Date and the termination marker for
    /// Result), then the other tags in input order; moves in canonical SAN
    /// with check marks (or in the notation `--notation` names), move
    /// numbers before every White move and before a Black move after a
    /// comment, NAG or variation; comments byte for byte;
    /// NAGs as `$n`; variations kept; lines of movetext at most 80 bytes
    /// (a longer comment stands alone on its line); written to a terminal,
    /// the text's control characters are shown escaped (`\x1b`), as the
    /// messages show them. A game with an error (a
    /// syntax error, a move that is illegal or ambiguous, a bad FEN tag, a
    /// variant sanfen does not play) is written unchanged and reported on
    /// standard error (`FILE:LINE:COL: game N: MESSAGE (game written
    /// unchanged)`). Exit code 0 when every game was rewritten (with
    /// `--check`: and no input would change), 1 when one was written
    /// unchanged (with `--check`: or an input would change), 2 on a usage or
    /// I/O error or a refused file.
    #[arg(value_name = "FILE")]
    files: Vec<OsString>,
}

/// The notations of `--notation`: those of the library's [`Notation`]
/// that a PGN reader reads back as the same moves.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum MovetextNotation {
    /// Standard algebraic notation: `Nf3`, `exd5`, `e8=Q+`, `O-O`.
    #[default]
    San,
    /// Long algebraic: `Ng1-f3`, `e2-e4`, `e5xd6`, `e7-e8=Q+`, `O-O`.
    Lan,
    /// UCI: `g1f3`, `e7e8q`, no check marks; castling `e1g1` (king takes
    /// rook, `e1h1`, in Chess960 games); a null move `0000`.
    Uci,
    /// SAN with figurines: `♘f3`, `e8=♕`.
    Figurine,
}

impl From<MovetextNotation> for Notation {
    fn from(arg: MovetextNotation) -> Notation {
        match arg {
            MovetextNotation::San => Notation::San,
            MovetextNotation::Lan => Notation::Lan,
            MovetextNotation::Uci => Notation::Uci,
            MovetextNotation::Figurine => Notation::Figurine,
        }
    }
}

/// Shown before waiting for PGN typed in a terminal.
const HINT: Hint = Hint { command: "sanfen fmt", reads: "PGN", instead: "sanfen fmt FILE to read a file" };

/// `sanfen fmt`.
///
/// A file that cannot be opened, read or (with `--in-place`) written, or
/// that `--in-place` refuses ([`InPlace::open`]), is reported on standard
/// error and the run goes on with the next file; the exit code is then 2
/// (with `--in-place` the file is left as it was).
///
/// # Errors
///
/// `--in-place` with standard input or a compressed file ([`Error::Usage`]);
/// the signal handlers of `--in-place` cannot be set up ([`Error::Usage`]);
/// standard output failing ([`Error::Output`]).
pub fn run(args: &Args) -> Result<ExitCode, Error> {
    let names = pgn_input::names(&args.files);
    if args.in_place {
        for name in &names {
            if name == "-" {
                return Err(Error::Usage("fmt --in-place needs files: standard input cannot be rewritten".into()));
            }
            if pgn_input::is_compressed(name) {
                return Err(Error::Usage(format!(
                    "fmt --in-place cannot rewrite a compressed file: {}",
                    shown_name(name)
                )));
            }
        }
        rewrite::remove_temporary_on_signals()
            .map_err(|err| Error::Usage(format!("fmt --in-place cannot watch for signals: {err}")))?;
    }
    pgn_input::refuse_stdout_input(&args.files)?;
    let mut code = ExitCode::Valid;
    let mut failed = false;
    let stdout = io::stdout();
    let buffered = BufWriter::with_capacity(1 << 16, stdout.lock());
    // (a game's text, a comment's above all, may hold any byte: on a
    // terminal its controls are shown escaped)
    let (mut plain, mut shown) = (None, None);
    let out: &mut dyn Write =
        if stdout.is_terminal() { shown.insert(TerminalText::new(buffered)) } else { plain.insert(buffered) };
    let mut first = true;
    let options =
        FormatOptions { policy: args.lints.policy(false)?, notation: args.notation.into(), letters: args.letters };
    let how = How { options, threads: args.jobs.map_or(0, |n| n as usize) };
    for name in &names {
        let result = if args.in_place {
            rewrite_in_place(name, how)
        } else if args.check {
            check_source(name, how, out)
        } else {
            pgn_input::open(name, &HINT).and_then(|source| format_source(source, how, out, &mut first, Error::Output))
        };
        match result {
            Ok(valid) => code = code.and_valid(valid),
            Err(err @ (Error::Input(_) | Error::File { .. })) => {
                out.flush().map_err(Error::Output)?;
                eprintln!("sanfen: {err}");
                failed = true;
            }
            Err(err) => return Err(err),
        }
    }
    out.flush().map_err(Error::Output)?;
    if let Some(shown) = &mut shown {
        shown.finish().map_err(Error::Output)?;
    }
    Ok(if failed { ExitCode::Failure } else { code })
}

/// How games are formatted, on how many threads (0: one per core).
#[derive(Copy, Clone, Debug)]
struct How {
    options: FormatOptions,
    threads: usize,
}

/// Formats one source into `out` (`first`: no game written to `out` yet),
/// reporting games written unchanged on standard error. Whether every game
/// was rewritten.
fn format_source(
    source: Source,
    how: How,
    out: &mut dyn Write,
    first: &mut bool,
    write_error: impl Fn(io::Error) -> Error,
) -> Result<bool, Error> {
    let Source { name, input } = source;
    let read_error =
        |err| if name == "<stdin>" { Error::Input(err) } else { Error::File { path: name.clone(), source: err } };
    let written = format_input(input, how.options, how.threads, first, |part| {
        out.write_all(&part.text).map_err(&write_error)?;
        if !part.unchanged.is_empty() {
            out.flush().map_err(&write_error)?;
            let mut stderr = io::stderr().lock();
            for unchanged in &part.unchanged {
                // a closed standard error loses the report, not the output
                let _ = match unchanged {
                    Unchanged::Game { number, error } => writeln!(
                        stderr,
                        "{}:{}:{}: game {number}: {} (game written unchanged)",
                        escape(&name),
                        error.at.line,
                        error.at.column,
                        escape(&error.to_string())
                    ),
                    Unchanged::TooLarge { number, at, size } => writeln!(
                        stderr,
                        "{}:{}:{}: game {number}: {} (game written unchanged)",
                        escape(&name),
                        at.line,
                        at.column,
                        TooLargeGame(*size)
                    ),
                };
            }
        }
        Ok(())
    });
    match written {
        Ok(summary) => Ok(summary.unchanged == 0),
        Err(FormatInputError::Stopped(err)) => Err(err),
        Err(FormatInputError::NotText(reason)) => {
            Err(read_error(io::Error::new(io::ErrorKind::InvalidData, format!("not PGN text: {reason}"))))
        }
        // (the message as the system or the decompressor gave it)
        Err(FormatInputError::Read(err)) => Err(read_error(io::Error::new(err.kind, err.message))),
        Err(err @ FormatInputError::Threads(_)) => Err(Error::Usage(err.to_string())),
    }
}

/// Formats a file into a temporary file and puts that in its place, as
/// [`InPlace`] says (owner, group, mode, kind and links kept; refusals; the
/// temporary file removed on errors and signals); a file whose text would
/// not change is left as it is. Whether every game was rewritten.
fn rewrite_in_place(name: &OsStr, how: How) -> Result<bool, Error> {
    let file = InPlace::open(name, "fmt")?;
    let display = shown_name(name);
    if pgn_input::is_compressed(file.target().as_os_str()) {
        return Err(Error::Usage(format!("fmt --in-place cannot rewrite a compressed file: {display}")));
    }
    let comparison = Arc::new(Mutex::new(Comparison::default()));
    let reader = Tee { inner: Box::new(file.reader()?), comparison: Arc::clone(&comparison) };
    let source = pgn_input::from_reader(display.clone(), reader, Some(file.size()))?;
    if let Some(compression) = source.input.compression {
        return Err(Error::Usage(format!(
            "fmt --in-place cannot rewrite a compressed file: {display} ({} data)",
            compression.name()
        )));
    }
    let write_error = file.write_error();
    let mut out = Both(BufWriter::with_capacity(1 << 16, file.output()), Compare(Arc::clone(&comparison)));
    let valid = format_source(source, how, &mut out, &mut true, &write_error)?;
    out.flush().map_err(&write_error)?;
    drop(out);
    if comparison.lock().unwrap_or_else(PoisonError::into_inner).differs() {
        file.commit()?;
    }
    // else the text is the same: the file is left as it is (dropping `file`
    // removes the temporary file)
    Ok(valid)
}

/// `fmt --check` of one source: formats it, comparing the text with the
/// input instead of writing it, and prints `would reformat NAME` on `out`
/// when they differ. Whether every game was rewritten and nothing would
/// change.
fn check_source(name: &OsStr, how: How, out: &mut dyn Write) -> Result<bool, Error> {
    let source = pgn_input::open(name, &HINT)?;
    let display = source.name.clone();
    let comparison = Arc::new(Mutex::new(Comparison::default()));
    let reader = Tee { inner: source.input.reader, comparison: Arc::clone(&comparison) };
    let source = Source { input: Input { reader: Box::new(reader), ..source.input }, ..source };
    let valid = format_source(source, how, &mut Compare(Arc::clone(&comparison)), &mut true, Error::Output)?;
    let differs = comparison.lock().unwrap_or_else(PoisonError::into_inner).differs();
    if differs {
        writeln!(out, "would reformat {}", escape(&display)).map_err(Error::Output)?;
    }
    Ok(valid && !differs)
}

/// The input read and the text formatted that are not compared yet (at most
/// one of them is not empty), and whether a difference was found.
#[derive(Default)]
struct Comparison {
    input: VecDeque<u8>,
    output: VecDeque<u8>,
    different: bool,
}

impl Comparison {
    /// Compares what both sides have; once they differ, keeps nothing.
    fn settle(&mut self) {
        let common = self.input.len().min(self.output.len());
        if !self.different && common > 0 {
            self.different = self.input.make_contiguous()[..common] != self.output.make_contiguous()[..common];
            self.input.drain(..common);
            self.output.drain(..common);
        }
        if self.different {
            self.input = VecDeque::new();
            self.output = VecDeque::new();
        }
    }

    /// Whether the formatted text differs from the input, once both ended.
    fn differs(&self) -> bool {
        self.different || !self.input.is_empty() || !self.output.is_empty()
    }
}

/// The input, also handed to the comparison.
struct Tee {
    inner: Box<dyn Read + Send>,
    comparison: Arc<Mutex<Comparison>>,
}

impl Read for Tee {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let mut comparison = self.comparison.lock().unwrap_or_else(PoisonError::into_inner);
        if !comparison.different {
            comparison.input.extend(&buf[..n]);
            comparison.settle();
        }
        Ok(n)
    }
}

/// The formatted text, compared with the input and dropped.
struct Compare(Arc<Mutex<Comparison>>);

impl Write for Compare {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut comparison = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if !comparison.different {
            comparison.output.extend(buf);
            comparison.settle();
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes to both.
struct Both<A, B>(A, B);

impl<A: Write, B: Write> Write for Both<A, B> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write_all(buf)?;
        self.1.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()?;
        self.1.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::Comparison;

    /// Feeds `input` and `output` in the pieces given, alternating, and
    /// says whether they differ.
    fn differs(input: &[&str], output: &[&str]) -> bool {
        let mut comparison = Comparison::default();
        for i in 0..input.len().max(output.len()) {
            if let Some(piece) = input.get(i) {
                comparison.input.extend(piece.as_bytes());
                comparison.settle();
            }
            if let Some(piece) = output.get(i) {
                comparison.output.extend(piece.as_bytes());
                comparison.settle();
            }
        }
        comparison.differs()
    }

    #[test]
    fn comparison_in_any_pieces() {
        assert!(!differs(&[], &[]));
        assert!(!differs(&["abc", "def"], &["a", "bcde", "f"]));
        assert!(!differs(&["abcdef"], &["", "", "abc", "def"]));
        assert!(differs(&["abc", "def"], &["abc", "dex"]));
        assert!(differs(&["abc"], &["abcd"]));
        assert!(differs(&["abcd"], &["abc"]));
        assert!(differs(&["", "x"], &[]));
        assert!(differs(&["xbc", "def"], &["abc", "def"]));
    }
}
