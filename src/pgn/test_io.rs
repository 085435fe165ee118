//! Readers for unit tests of the PGN input.

use std::io::{self, Read};

/// Gives its bytes, then fails on every read (a stream cut off by an I/O
/// error).
pub(crate) struct Failing(pub(crate) Vec<u8>);

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.0.is_empty() {
            return Err(io::Error::other("broken"));
        }
        let n = buf.len().min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0.drain(..n);
        Ok(n)
    }
}
