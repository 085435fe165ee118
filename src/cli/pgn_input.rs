//! Where `check` and `fmt` read PGN from: files named on the command line, or
//! standard input for `-` and when no file is named, opened with the library
//! ([`Input`]: compression told by the first bytes, binary data told apart).

use std::ffi::{OsStr, OsString};
use std::io::{self, Read};

use sanfen::pgn::input::{Input, InputError};

use super::Error;

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

/// Whether a name says the file is compressed (`.gz`, `.zst`, `.bz2`);
/// [`Input::compression`] tells by the content.
pub fn is_compressed(name: &OsStr) -> bool {
    let name = name.to_string_lossy();
    name.ends_with(".gz") || name.ends_with(".zst") || name.ends_with(".bz2")
}

/// Opens one source: `-` is standard input.
///
/// # Errors
///
/// [`Error::File`] when the file cannot be opened (or a zstd stream cannot
/// start).
pub fn open(name: &OsStr) -> Result<Source, Error> {
    if name == "-" {
        return from_reader("<stdin>".to_owned(), io::stdin(), None);
    }
    let display = name.to_string_lossy().into_owned();
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
