//! What can stop a command before it has judged every input.

use std::io;

/// A usage or I/O error (exit code 2).
#[derive(Debug)]
pub enum Error {
    /// Reading standard input failed.
    Input(io::Error),
    /// Writing standard output failed.
    Output(io::Error),
    /// A named file could not be opened, read or written.
    File {
        /// The file as named on the command line.
        path: String,
        /// What went wrong.
        source: io::Error,
    },
    /// The arguments cannot be used together (exit code 2).
    Usage(String),
}

impl Error {
    /// Whether standard output was closed by its reader, which ends a run quietly.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Output(err) if err.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::Input(err) => write!(f, "cannot read standard input: {err}"),
            Error::Output(err) => write!(f, "cannot write standard output: {err}"),
            Error::File { path, source } => write!(f, "{path}: {source}"),
            Error::Usage(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Input(err) | Error::Output(err) | Error::File { source: err, .. } => Some(err),
            Error::Usage(_) => None,
        }
    }
}
