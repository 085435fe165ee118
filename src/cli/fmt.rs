//! `sanfen fmt`: rewrite PGN with canonical SAN and layout
//! ([`sanfen::pgn::format`] says how), to standard output or, with
//! `--in-place`, back into each file.
//!
//! Input is streamed: each file is cut into chunks of whole games
//! ([`Chunker`]) and each chunk formatted and written before the next is read,
//! so memory does not grow with the input. A game that cannot be rewritten
//! is written unchanged and reported on standard error as
//! `FILE:LINE:COL: game N: MESSAGE (game written unchanged)`.

use std::ffi::{OsStr, OsString};
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use sanfen::pgn::chunk::Chunker;
use sanfen::pgn::format::{Formatter, append_game};
use sanfen::pgn::reader::Reader;

use super::pgn_input::{self, Source};
use super::{Error, ExitCode};

/// `sanfen fmt`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write each file's formatted text back into it (through a temporary
    /// file in the same directory, renamed over it), instead of to standard
    /// output. Not with standard input or a compressed (`.gz`, `.zst`) file.
    #[arg(long)]
    in_place: bool,
    /// PGN files (`.gz`, `.zst` decompressed); none, or `-`, reads standard
    /// input.
    ///
    /// Each game is rewritten: the Seven Tag Roster first (missing ones added
    /// with `?`, `????.??.??` for Date and the termination marker for
    /// Result), then the other tags in input order; moves in canonical SAN
    /// with check marks, move numbers before every White move and before a
    /// Black move after a comment, NAG or variation; comments byte for byte;
    /// NAGs as `$n`; variations kept; lines of movetext at most 80 bytes
    /// (a longer comment stands alone on its line). A game with an error (a
    /// syntax error, a move that is illegal or ambiguous, a bad FEN tag, a
    /// variant sanfen does not play) is written unchanged and reported on
    /// standard error (`FILE:LINE:COL: game N: MESSAGE (game written
    /// unchanged)`). Exit code 0 when every game was rewritten, 1 when one
    /// was written unchanged, 2 on a usage or I/O error.
    #[arg(value_name = "FILE")]
    files: Vec<OsString>,
}

/// `sanfen fmt`.
///
/// A file that cannot be opened, read or (with `--in-place`) written is
/// reported on standard error and the run goes on with the next file; the
/// exit code is then 2 (with `--in-place` the file is left as it was).
///
/// # Errors
///
/// `--in-place` with standard input or a compressed file ([`Error::Usage`]);
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
                    name.to_string_lossy()
                )));
            }
        }
    }
    let mut code = ExitCode::Valid;
    let mut failed = false;
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut first = true;
    for name in &names {
        let result = if args.in_place {
            rewrite_in_place(name)
        } else {
            pgn_input::open(name).and_then(|source| format_source(source, &mut out, &mut first, Error::Output))
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
    Ok(if failed { ExitCode::Failure } else { code })
}

/// Formats one source into `out` (`first`: no game written to `out` yet),
/// reporting games written unchanged on standard error. Whether every game
/// was rewritten.
fn format_source(
    source: Source,
    out: &mut dyn Write,
    first: &mut bool,
    write_error: impl Fn(io::Error) -> Error,
) -> Result<bool, Error> {
    let Source { name, reader, .. } = source;
    let read_error =
        |err| if name == "<stdin>" { Error::Input(err) } else { Error::File { path: name.clone(), source: err } };
    let mut chunker = Chunker::new(reader);
    let mut buffer = Vec::new();
    let mut text = Vec::new();
    let mut games = 0u64;
    let mut valid = true;
    // the line ends of the output: those of the first chunk
    let mut crlf = None;
    while let Some(chunk) = chunker.next_chunk(buffer).map_err(read_error)? {
        text.clear();
        let mut reports = Vec::new();
        {
            let mut reader = Reader::with_start(&chunk.data, chunk.start);
            let formatter = Formatter::new(&chunk.data, chunk.start);
            let crlf = *crlf.get_or_insert(formatter.crlf());
            let mut formatter = formatter.with_crlf(crlf);
            while let Some(game) = reader.read_game(&mut formatter) {
                games += 1;
                append_game(&mut text, &game.text, *first);
                *first &= game.text.is_empty();
                if let Some(error) = game.error {
                    reports.push(format!(
                        "{name}:{}:{}: game {games}: {error} (game written unchanged)",
                        error.at.line, error.at.column
                    ));
                }
            }
            // comments and escape lines after the last game
            let outside = formatter.take_outside();
            append_game(&mut text, &outside, *first);
            *first &= outside.is_empty();
        }
        out.write_all(&text).map_err(&write_error)?;
        if !reports.is_empty() {
            valid = false;
            out.flush().map_err(&write_error)?;
            let mut stderr = io::stderr().lock();
            for report in reports {
                // a closed standard error loses the report, not the output
                let _ = writeln!(stderr, "{report}");
            }
        }
        buffer = chunk.data;
    }
    Ok(valid)
}

/// Formats a file into a temporary file next to it, then renames that over
/// it (a symbolic link stays a link: its target is rewritten). Whether every
/// game was rewritten.
fn rewrite_in_place(name: &OsStr) -> Result<bool, Error> {
    let display = name.to_string_lossy().into_owned();
    let file_error = |source| Error::File { path: display.clone(), source };
    let target = fs::canonicalize(name).map_err(file_error)?;
    if pgn_input::is_compressed(target.as_os_str()) {
        return Err(Error::Usage(format!("fmt --in-place cannot rewrite a compressed file: {display}")));
    }
    let source = pgn_input::open(target.as_os_str())?;
    let source = Source { name: display.clone(), ..source };
    let temporary = temporary_path(&target);
    let temporary_error = |source| Error::File { path: temporary.to_string_lossy().into_owned(), source };
    let file = File::options().write(true).create_new(true).open(&temporary).map_err(temporary_error)?;
    let result: Result<bool, Error> = (|| {
        let mut out = BufWriter::with_capacity(1 << 16, file);
        let valid = format_source(source, &mut out, &mut true, temporary_error)?;
        let file = out.into_inner().map_err(|err| temporary_error(err.into_error()))?;
        if let Ok(metadata) = fs::metadata(&target) {
            file.set_permissions(metadata.permissions()).map_err(temporary_error)?;
        }
        file.sync_all().map_err(temporary_error)?;
        drop(file);
        fs::rename(&temporary, &target).map_err(file_error)?;
        Ok(valid)
    })();
    if result.is_err() {
        // the original is untouched; the partial output goes
        let _ = fs::remove_file(&temporary);
    }
    result
}

/// `DIR/.NAME.sanfen-fmt-PID.tmp` for `DIR/NAME`.
fn temporary_path(target: &Path) -> PathBuf {
    let file_name = target.file_name().map(OsStr::to_string_lossy).unwrap_or_default();
    let temporary = format!(".{file_name}.sanfen-fmt-{}.tmp", std::process::id());
    target.with_file_name(temporary)
}
