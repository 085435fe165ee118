//! Where a command's inputs come from: its arguments, or one per line of
//! standard input (when there is no argument, and for the argument `-`).

use std::ffi::OsString;
use std::io::{self, Read};

use super::Error;

/// Whether the inputs are exactly one argument (not `-`), so a report need not
/// number them.
pub fn is_single(args: &[OsString]) -> bool {
    matches!(args, [arg] if arg != "-")
}

/// Calls `each` with every input, in order: each argument as given (its bytes,
/// which need not be UTF-8), or for `-` and for no argument at all, each line of
/// standard input without its final `\n` (a `\r` before it stays).
///
/// Standard input is read once, through one reusable buffer; a second `-` reads
/// nothing more.
///
/// # Errors
///
/// [`Error::Input`] when reading fails; any error `each` returns, which stops
/// the iteration.
pub fn for_each(args: &[OsString], mut each: impl FnMut(&[u8]) -> Result<(), Error>) -> Result<(), Error> {
    if args.is_empty() {
        return stdin_lines(&mut each);
    }
    let mut stdin_read = false;
    for arg in args {
        if arg == "-" {
            if !stdin_read {
                stdin_read = true;
                stdin_lines(&mut each)?;
            }
        } else {
            each(arg.as_encoded_bytes())?;
        }
    }
    Ok(())
}

fn stdin_lines(each: &mut impl FnMut(&[u8]) -> Result<(), Error>) -> Result<(), Error> {
    lines(io::stdin().lock(), each)
}

/// Calls `each` with every line of `reader`, without its `\n`. Reads in large
/// blocks and hands out slices of them: no copy per line.
fn lines(mut reader: impl Read, each: &mut impl FnMut(&[u8]) -> Result<(), Error>) -> Result<(), Error> {
    let mut buf = vec![0u8; 1 << 16];
    let mut filled = 0;
    loop {
        if filled == buf.len() {
            // a line longer than the buffer
            buf.resize(buf.len() * 2, 0);
        }
        let read = match reader.read(&mut buf[filled..]) {
            Ok(read) => read,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(Error::Input(err)),
        };
        if read == 0 {
            return if filled > 0 { each(&buf[..filled]) } else { Ok(()) };
        }
        let end = filled + read;
        let mut start = 0;
        let mut at = filled;
        while at < end {
            // short lines (SAN tokens) are found fastest byte by byte, long ones
            // (FEN, PGN) by memchr
            let window = (at + 16).min(end);
            let newline = match buf[at..window].iter().position(|&b| b == b'\n') {
                Some(offset) => at + offset,
                None => match memchr::memchr(b'\n', &buf[window..end]) {
                    Some(offset) => window + offset,
                    None => break,
                },
            };
            each(&buf[start..newline])?;
            start = newline + 1;
            at = start;
        }
        buf.copy_within(start..end, 0);
        filled = end - start;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_input() {
        let args = |list: &[&str]| list.iter().map(OsString::from).collect::<Vec<_>>();
        assert!(is_single(&args(&["8/8/8/8/8/8/8/8 w - - 0 1"])));
        assert!(!is_single(&args(&[])));
        assert!(!is_single(&args(&["-"])));
        assert!(!is_single(&args(&["a", "b"])));
    }

    #[test]
    fn lines_across_reads() {
        // a reader that hands out three bytes at a time, so lines straddle reads
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(buf.len()).min(3);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let long = "x".repeat(200_000);
        let text = format!("one\r\n\ntwo\n{long}\nlast");
        let mut seen = Vec::new();
        lines(Trickle(text.as_bytes()), &mut |line: &[u8]| {
            seen.push(String::from_utf8(line.to_vec()).unwrap());
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, ["one\r", "", "two", long.as_str(), "last"]);
        let mut count = 0;
        lines(&b"a\nb\n"[..], &mut |_: &[u8]| {
            count += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(count, 2);
    }

    #[test]
    fn arguments_in_order() {
        let args: Vec<OsString> = ["one", "two"].iter().map(OsString::from).collect();
        let mut seen = Vec::new();
        for_each(&args, |input| {
            seen.push(input.to_vec());
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, [b"one".to_vec(), b"two".to_vec()]);
    }
}
