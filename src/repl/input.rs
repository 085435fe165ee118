//! Reading a line: its words with their places, and the moves among them.

use core::ops::Range;
use core::time::Duration;

use crate::engine;

/// The longest time `go SECONDSs` accepts, in seconds.
pub(super) const MAX_SECONDS: f64 = 3600.0;

/// A search depth typed as a command argument: 1 to [`engine::MAX_DEPTH`].
pub(super) fn parse_depth(text: &str) -> Option<u32> {
    text.parse::<u32>().ok().filter(|d| (1..=engine::MAX_DEPTH).contains(d))
}

/// A thinking time typed as a number of seconds (`5`, `0.5`): 0.1 to [`MAX_SECONDS`].
pub(super) fn parse_seconds(text: &str) -> Option<Duration> {
    let seconds = text.parse::<f64>().ok().filter(|s| (0.1..=MAX_SECONDS).contains(s))?;
    Some(Duration::from_secs_f64(seconds))
}

/// The whitespace-separated tokens of a line with their byte offsets.
pub(super) fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in line.char_indices() {
        match (ch.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

/// The moves of a line, each with its byte range in the line: move numbers
/// (`1.`, `12...`, also glued on: `1.e4`), NAGs (`$1`) and results left out,
/// an en passant mark written apart (`exd6 e.p.`) joined to its move.
pub(super) fn move_tokens(line: &str, tokens: &[(usize, &str)]) -> Vec<(Range<usize>, String)> {
    let mut out: Vec<(Range<usize>, String)> = Vec::new();
    for &(offset, token) in tokens {
        let digits = token.bytes().take_while(u8::is_ascii_digit).count();
        let dots = token[digits..].bytes().take_while(|&b| b == b'.').count();
        let skip = if digits > 0 && dots > 0 { digits + dots } else { 0 };
        let text = &token[skip..];
        let nag = text.len() > 1 && text.starts_with('$') && text[1..].bytes().all(|b| b.is_ascii_digit());
        let result = matches!(text, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*");
        if text.is_empty() || nag || result {
            continue;
        }
        let start = offset + skip;
        let end = offset + token.len();
        if matches!(text.to_ascii_lowercase().as_str(), "e.p." | "ep")
            && let Some(last) = out.last_mut()
        {
            last.0.end = end;
            last.1 = line[last.0.clone()].to_owned();
            continue;
        }
        out.push((start..end, text.to_owned()));
    }
    out
}
