//! Where a command's inputs come from: its arguments, or one per line of
//! standard input (when there is no argument, and for the argument `-`).

use std::ffi::OsString;
use std::io::{self, BufRead};

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
    let mut reader = io::stdin().lock();
    let mut line = Vec::with_capacity(256);
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line).map_err(Error::Input)? == 0 {
            return Ok(());
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        each(&line)?;
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
