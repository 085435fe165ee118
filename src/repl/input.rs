//! Reading a line: its words with their places, and the moves among them.

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
