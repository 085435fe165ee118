//! Where a command's inputs come from: its arguments, or one per line of
//! standard input (when there is no argument, and for the argument `-`).

use std::ffi::OsString;
use std::io::{self, IsTerminal, Read};

use super::Error;

/// What a command tells a person at a terminal before it waits for standard
/// input, so a command run without arguments does not seem to hang.
#[derive(Clone, Copy, Debug)]
pub struct Hint {
    /// The command as typed (`sanfen fen check`).
    pub command: &'static str,
    /// What it reads (`PGN`, `one FEN per line`).
    pub reads: &'static str,
    /// How to give the input another way (`sanfen check FILE to read a file`).
    pub instead: &'static str,
}

/// The key that ends standard input in a terminal.
const END_OF_INPUT: &str = if cfg!(windows) { "Ctrl-Z then Enter" } else { "Ctrl-D" };

impl Hint {
    /// The hint's line, without its `\n`.
    pub fn line(&self) -> String {
        format!(
            "{}: reading {} from standard input ({END_OF_INPUT} to end; {})",
            self.command, self.reads, self.instead
        )
    }

    /// Writes the line on standard error when standard input is a terminal;
    /// nothing when it is a pipe or a file.
    pub fn show_if_terminal(&self) {
        if io::stdin().is_terminal() {
            eprintln!("{}", self.line());
        }
    }
}

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
/// nothing more. Before reading it, `hint` is shown if it is a terminal.
///
/// # Errors
///
/// [`Error::Input`] when reading fails; any error `each` returns, which stops
/// the iteration.
pub fn for_each(args: &[OsString], hint: &Hint, mut each: impl FnMut(&[u8]) -> Result<(), Error>) -> Result<(), Error> {
    if args.is_empty() {
        return stdin_lines(hint, &mut each);
    }
    let mut stdin_read = false;
    for arg in args {
        if arg == "-" {
            if !stdin_read {
                stdin_read = true;
                stdin_lines(hint, &mut each)?;
            }
        } else {
            each(arg.as_encoded_bytes())?;
        }
    }
    Ok(())
}

fn stdin_lines(hint: &Hint, each: &mut impl FnMut(&[u8]) -> Result<(), Error>) -> Result<(), Error> {
    hint.show_if_terminal();
    lines(io::stdin().lock(), each)
}

/// Calls `each` with every line of `reader`, without its `\n`. Reads in large
/// blocks and hands out slices of them: no copy per line.
fn lines(mut reader: impl Read, each: &mut impl FnMut(&[u8]) -> Result<(), Error>) -> Result<(), Error> {
    // `WORD` bytes of room after the data, so a word can always be read at a
    // position before its end
    let mut capacity = 1 << 16;
    let mut buf = vec![0u8; capacity + WORD];
    let mut filled = 0;
    loop {
        if filled == capacity {
            // a line longer than the buffer
            capacity *= 2;
            buf.resize(capacity + WORD, 0);
        }
        let read = match reader.read(&mut buf[filled..capacity]) {
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
        while let Some(newline) = next_newline(&buf, at, end) {
            each(&buf[start..newline])?;
            start = newline + 1;
            at = start;
        }
        buf.copy_within(start..end, 0);
        filled = end - start;
    }
}

const WORD: usize = 8;

/// The first `\n` in `buf[at..end]`, where `buf` has [`WORD`] bytes after
/// `end`. Short lines (SAN tokens) are found in one word read without a loop;
/// long ones (FEN, PGN) by memchr.
#[inline(always)]
fn next_newline(buf: &[u8], at: usize, end: usize) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; WORD]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; WORD]);
    const NEWLINES: u64 = u64::from_ne_bytes([b'\n'; WORD]);
    let word: [u8; WORD] = buf.get(at..at + WORD)?.try_into().ok()?;
    // a byte of `x` is 0 where the word has `\n`; the lowest marked byte is
    // the first zero (a borrow can only mark bytes after a zero)
    let x = u64::from_le_bytes(word) ^ NEWLINES;
    let marks = x.wrapping_sub(ONES) & !x & HIGHS;
    if marks != 0 {
        let newline = at + (marks.trailing_zeros() / 8) as usize;
        // a `\n` after `end` is stale data
        return (newline < end).then_some(newline);
    }
    let after = at + WORD;
    if after >= end {
        return None;
    }
    memchr::memchr(b'\n', &buf[after..end]).map(|offset| after + offset)
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
    fn newlines_in_words() {
        // data `a\nbc`, then stale bytes with newlines after its end
        let buf = b"a\nbc\n\n\n\n\n\n\n\n";
        assert_eq!(next_newline(buf, 0, 4), Some(1));
        assert_eq!(next_newline(buf, 2, 4), None);
        // a newline past the first word, by memchr
        let mut long = vec![b'x'; 40];
        long[20] = b'\n';
        long.extend([b'\n'; WORD]);
        assert_eq!(next_newline(&long, 3, 40), Some(20));
        assert_eq!(next_newline(&long, 21, 40), None);
        assert_eq!(next_newline(&long, 12, 20), None);
        assert_eq!(next_newline(&long, 13, 21), Some(20));
    }

    #[cfg(unix)]
    #[test]
    fn hint_names_the_command_the_input_and_the_way_out() {
        let hint = Hint {
            command: "sanfen fen check",
            reads: "one FEN per line",
            instead: "sanfen fen check FEN to check one",
        };
        assert_eq!(
            hint.line(),
            "sanfen fen check: reading one FEN per line from standard input (Ctrl-D to end; sanfen fen check FEN to check one)"
        );
    }

    #[test]
    fn arguments_in_order() {
        let args: Vec<OsString> = ["one", "two"].iter().map(OsString::from).collect();
        let mut seen = Vec::new();
        let hint = Hint { command: "sanfen test", reads: "lines", instead: "none" };
        for_each(&args, &hint, |input| {
            seen.push(input.to_vec());
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, [b"one".to_vec(), b"two".to_vec()]);
    }
}
