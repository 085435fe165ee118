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
/// nothing more. Before reading it, `hint` is shown if it is a terminal; it
/// is not read when it is the regular file standard output writes to.
///
/// # Errors
///
/// [`Error::Input`] when reading fails; [`Error::Usage`] when standard
/// input is standard output's file; any error `each` returns, which stops
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
    // (`sanfen fen check < fens.txt >> fens.txt` would read its own lines)
    super::pgn_input::refuse_stdout_input(&[])?;
    hint.show_if_terminal();
    lines(io::stdin().lock(), each)
}

/// The longest line of standard input read as one input (a FEN, a SAN, a
/// line of moves): 1 MiB. A longer one is not a list of them (a binary file,
/// a PGN without newlines); reading it whole would take memory in
/// proportion, without end on an endless line.
pub const MOST_LINE: usize = 1 << 20;

/// Calls `each` with every line of `reader`, without its `\n`. Reads in large
/// blocks and hands out slices of them: no copy per line.
///
/// # Errors
///
/// [`Error::Input`] when reading fails or a line is longer than
/// [`MOST_LINE`] (nothing from it on is read); any error `each` returns.
fn lines(mut reader: impl Read, each: &mut impl FnMut(&[u8]) -> Result<(), Error>) -> Result<(), Error> {
    // `WORD` bytes of room after the data, so a word can always be read at a
    // position before its end
    let mut capacity = 1 << 16;
    let mut buf = vec![0u8; capacity + WORD];
    let mut filled = 0;
    let mut number = 0u64;
    loop {
        if filled == capacity {
            // a line longer than the buffer: which holds at most the longest
            // line and its `\n`, so that every line found in it is short enough
            if capacity > MOST_LINE {
                let message = format!(
                    "line {} is longer than {MOST_LINE} bytes: not read, nor anything after it (one input a line)",
                    number + 1
                );
                return Err(Error::Input(io::Error::new(io::ErrorKind::InvalidData, message)));
            }
            capacity = (capacity * 2).min(MOST_LINE + 1);
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
            number += 1;
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
    fn a_line_over_the_most_stops_the_reading() {
        let collect = |text: Vec<u8>| {
            let mut seen = Vec::new();
            let result = lines(&text[..], &mut |line: &[u8]| {
                seen.push(line.len());
                Ok(())
            });
            (seen, result.map_err(|error| error.to_string()))
        };
        // the most, with a newline and at the end without one
        let mut text = vec![b'a'; MOST_LINE];
        text.push(b'\n');
        text.extend(vec![b'b'; MOST_LINE]);
        assert_eq!(collect(text), (vec![MOST_LINE, MOST_LINE], Ok(())));
        let refused = Err("cannot read standard input: line 2 is longer than 1048576 bytes: not read, nor anything \
                           after it (one input a line)"
            .to_owned());
        // one byte more: with a newline (in the same read as the line
        // before), without, and the line after it not read
        for end in [&b"\nc\n"[..], b""] {
            let mut text = b"one\n".to_vec();
            text.extend(vec![b'a'; MOST_LINE + 1]);
            text.extend(end);
            assert_eq!(collect(text), (vec![3], refused.clone()));
        }
    }

    #[test]
    fn an_endless_line_is_refused_in_bounded_memory() {
        struct Endless(u64);
        impl Read for Endless {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                buf.fill(b'x');
                self.0 += buf.len() as u64;
                Ok(buf.len())
            }
        }
        let mut endless = Endless(0);
        let error = lines(&mut endless, &mut |_: &[u8]| Ok(())).unwrap_err();
        assert!(error.to_string().contains("line 1 is longer than 1048576 bytes"), "{error}");
        // read up to the most and one byte
        assert_eq!(endless.0, (1 << 20) + 1);
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
