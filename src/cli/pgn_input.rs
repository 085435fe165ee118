//! Where `check` and `fmt` read PGN from: files named on the command line
//! (`.gz` and `.zst` decompressed by their extension), or standard input for
//! `-` and when no file is named.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, BufReader, Read};

use super::Error;

/// One PGN source, opened.
pub struct Source {
    /// The name diagnostics use: the path as given, or `<stdin>`.
    pub name: String,
    /// The bytes, decompressed.
    pub reader: Box<dyn Read + Send>,
    /// The size of the file on disk, when known (for progress).
    pub size: Option<u64>,
}

/// The sources the arguments name, in order; standard input when there is none.
pub fn names(args: &[OsString]) -> Vec<OsString> {
    if args.is_empty() { vec![OsString::from("-")] } else { args.to_vec() }
}

/// Whether a name is decompressed on reading (`.gz`, `.zst`).
pub fn is_compressed(name: &OsStr) -> bool {
    let name = name.to_string_lossy();
    name.ends_with(".gz") || name.ends_with(".zst")
}

/// Opens one source.
///
/// # Errors
///
/// [`Error::File`] when the file cannot be opened (or a zstd stream cannot
/// start).
pub fn open(name: &OsStr) -> Result<Source, Error> {
    if name == "-" {
        return Ok(Source { name: "<stdin>".to_owned(), reader: Box::new(io::stdin()), size: None });
    }
    let display = name.to_string_lossy().into_owned();
    let file_error = |source| Error::File { path: display.clone(), source };
    let file = File::open(name).map_err(file_error)?;
    let size = file.metadata().ok().map(|m| m.len());
    let reader: Box<dyn Read + Send> = if display.ends_with(".gz") {
        Box::new(flate2::read::MultiGzDecoder::new(BufReader::with_capacity(1 << 16, file)))
    } else if display.ends_with(".zst") {
        Box::new(zstd::stream::read::Decoder::new(file).map_err(file_error)?)
    } else {
        Box::new(file)
    };
    Ok(Source { name: display, reader, size })
}
