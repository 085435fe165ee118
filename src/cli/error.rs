//! What can stop a command before it has judged every input.

use std::io;

/// A usage or I/O error (exit code 2).
#[derive(Debug)]
pub enum Error {
    /// Reading standard input failed.
    Input(io::Error),
    /// Writing standard output failed.
    Output(io::Error),
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
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Input(err) | Error::Output(err) => Some(err),
        }
    }
}
