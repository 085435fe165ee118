//! Where `check` and `fmt` read PGN from: files named on the command line, or
//! standard input for `-` and when no file is named, opened with the library
//! ([`Input`]: compression told by the first bytes, binary data told apart).

use std::ffi::{OsStr, OsString};
use std::fs::{self, File, Metadata};
use std::io::{self, Read};
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;

use sanfen::pgn::input::{Input, InputError, shown_name};

use super::Error;
use super::check::escape;
use super::input::Hint;

/// One PGN source, opened.
pub struct Source {
    /// The name diagnostics use: the path as given, or `<stdin>`.
    pub name: String,
    /// The input: its bytes, decompressed, and what its start says.
    pub input: Input,
}

/// The sources the arguments name, in order; standard input when there is none.
pub fn names(args: &[OsString]) -> Vec<OsString> {
    if args.is_empty() { vec![OsString::from("-")] } else { args.to_vec() }
}

/// The first of the inputs `files` names (standard input for `-` or
/// none) that is the file `target` (the same device and inode), as shown
/// in messages.
pub fn input_that_is(target: &Metadata, files: &[OsString]) -> Option<String> {
    names(files).into_iter().find_map(|name| {
        let (shown, metadata) = if name == "-" {
            let stdin = io::stdin().as_fd().try_clone_to_owned().and_then(|fd| File::from(fd).metadata());
            ("standard input".to_owned(), stdin)
        } else {
            (shown_name(&name), fs::metadata(&name))
        };
        metadata.is_ok_and(|input| (input.dev(), input.ino()) == (target.dev(), target.ino())).then_some(shown)
    })
}

/// Refuses inputs of which one is the regular file standard output
/// writes to (`sanfen fmt games.pgn >> games.pgn`): read, it would hold
/// what the run writes, and the run would read it again without end.
///
/// # Errors
///
/// [`Error::Usage`] naming the input, and saying when the shell emptied
/// it (`>`) before the run.
pub fn refuse_stdout_input(files: &[OsString]) -> Result<(), Error> {
    let stdout = io::stdout().as_fd().try_clone_to_owned().and_then(|fd| File::from(fd).metadata());
    let Some(stdout) = stdout.ok().filter(Metadata::is_file) else { return Ok(()) };
    let Some(input) = input_that_is(&stdout, files) else { return Ok(()) };
    let input = escape(&input);
    Err(Error::Usage(if stdout.len() == 0 {
        format!(
            "{input} is also standard output, which the shell emptied (>) before sanfen started: nothing to read \
             (redirect the output to another file)"
        )
    } else {
        format!(
            "{input} is also standard output: not read, as it would hold what is written to it (redirect the output \
             to another file)"
        )
    }))
}

/// Whether a name says the file is compressed (`.gz`, `.zst`, `.bz2`);
/// [`Input::compression`] tells by the content.
pub fn is_compressed(name: &OsStr) -> bool {
    let name = name.to_string_lossy();
    name.ends_with(".gz") || name.ends_with(".zst") || name.ends_with(".bz2")
}

/// Opens one source: `-` is standard input, after `hint` if it is a terminal.
///
/// # Errors
///
/// [`Error::File`] when the file cannot be opened (or a zstd stream cannot
/// start).
pub fn open(name: &OsStr, hint: &Hint) -> Result<Source, Error> {
    if name == "-" {
        hint.show_if_terminal();
        return from_reader("<stdin>".to_owned(), io::stdin(), None);
    }
    let display = shown_name(name);
    match Input::open(name) {
        Ok(input) => Ok(Source { name: display, input }),
        Err(err) => Err(file_error(display, err)),
    }
}

/// A source over any reader of the raw bytes.
///
/// # Errors
///
/// [`Error::File`] when a zstd stream cannot start (a failed read of the
/// first bytes is kept for the first read).
pub fn from_reader(name: String, raw: impl Read + Send + 'static, size: Option<u64>) -> Result<Source, Error> {
    match Input::from_reader(raw, size) {
        Ok(input) => Ok(Source { name, input }),
        Err(err) => Err(file_error(name, err)),
    }
}

fn file_error(path: String, err: InputError) -> Error {
    Error::File { path, source: err.into() }
}
