//! What can stop a command before it has judged every input.

use std::io;

use super::check::escape;

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
    /// The error, control characters escaped (`\x1b`): a file's name may
    /// hold any, and no byte of it reaches a terminal as a control.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::Input(err) => write!(f, "cannot read standard input: {}", escape(&err.to_string())),
            Error::Output(err) => write!(f, "cannot write standard output: {}", escape(&err.to_string())),
            Error::File { path, source } => write!(f, "{}: {}", escape(path), escape(&source.to_string())),
            Error::Usage(message) => f.write_str(&escape(message)),
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
