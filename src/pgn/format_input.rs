//! Formatting a whole PGN input ([`crate::pgn::input`]: a file or any
//! reader, decompressed) as [`crate::pgn::format`] says, streamed: the input
//! is cut into chunks of whole games ([`Chunker`]), formatted on N threads
//! and handed to the caller in input order
//! ([`crate::pgn::parallel::Ordered`]), a few chunks in flight at most, so
//! memory does not grow with the input. What `sanfen fmt` writes is this.
//!
//! ```
//! use sanfen::notation::Notation;
//! use sanfen::pgn::format_input::{FormatOptions, Unchanged, format_input};
//! use sanfen::pgn::input::Input;
//!
//! let input = Input::from_reader(&b"1. e4 e5 2. Nf3 *\n\n1. d4 d5 2. Ke3 *\n"[..], None)?;
//! let (mut text, mut unchanged) = (Vec::new(), Vec::new());
//! let mut first = true;
//! let summary = format_input(input, FormatOptions::default(), 1, &mut first, |part| {
//!     text.extend_from_slice(&part.text);
//!     unchanged.extend(part.unchanged.iter().cloned());
//!     Ok::<(), ()>(())
//! })
//! .unwrap();
//! assert_eq!(summary.games, 2);
//! assert!(String::from_utf8(text).unwrap().ends_with("*\n\n1. d4 d5 2. Ke3 *\n"));
//! let Unchanged::Game { number, error } = &unchanged[0] else { panic!() };
//! assert_eq!((*number, error.at.line, error.at.column), (2, 3, 13));
//!
//! // the same in UCI
//! let input = Input::from_reader(&b"1. e4 e5 2. Nf3 *\n"[..], None)?;
//! let uci = FormatOptions { notation: Notation::Uci, ..FormatOptions::default() };
//! let mut text = Vec::new();
//! format_input(input, uci, 1, &mut true, |part| Ok::<(), ()>(text.extend_from_slice(&part.text))).unwrap();
//! assert!(text.ends_with(b"\n\n1. e2e4 e7e5 2. g1f3 *\n"));
//! # Ok::<(), sanfen::pgn::input::InputError>(())
//! ```
//!
//! A game larger than [`Chunker::MAX_GAME`] is never held: it is passed on
//! unchanged, piece by piece, and reported as [`Unchanged::TooLarge`].

use crate::lint::LintPolicy;
use crate::notation::Notation;
use crate::pgn::chunk::{Chunk, Chunker};
use crate::pgn::format::{FormatError, Formatter, append_game, denied_findings};
use crate::pgn::input::{Input, NotText, ReadError};
use crate::pgn::parallel::{Ordered, threads_or_cores};
use crate::pgn::reader::{Location, Reader};
use crate::san::Letters;

/// How [`format_input`] writes games.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FormatOptions {
    /// A game with a lint finding that the policy denies is written
    /// unchanged ([`denied_findings`]).
    pub policy: LintPolicy,
    /// How moves are written ([`Formatter::with_notation`]).
    pub notation: Notation,
    /// The piece letters moves are read in ([`Formatter::with_letters`]).
    pub letters: Letters,
}

/// A game written unchanged, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unchanged {
    /// A game that could not be rewritten ([`crate::pgn::format`] says when).
    Game {
        /// The game's number in the input, from 1.
        number: u64,
        /// Why.
        error: FormatError,
    },
    /// A game larger than [`Chunker::MAX_GAME`], passed on unread.
    TooLarge {
        /// The game's number in the input, from 1.
        number: u64,
        /// Where it starts.
        at: Location,
        /// Its size in bytes.
        size: u64,
    },
}

/// A part of the output, in input order: the formatted text of a chunk of
/// games (or a piece of a game too large to read, as it was), and the
/// games of it written unchanged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FormattedPart {
    /// The text, with the blank line that separates it from the games
    /// written before it.
    pub text: Vec<u8>,
    /// The games written unchanged, reported once their text is in `text`
    /// (a game too large: with its last piece).
    pub unchanged: Vec<Unchanged>,
}

/// What was formatted.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FormatSummary {
    /// Games read.
    pub games: u64,
    /// Games written unchanged.
    pub unchanged: u64,
}

/// Why formatting stopped before the end of its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatInputError<E> {
    /// The input is not PGN text: nothing was written.
    NotText(NotText),
    /// The input failed part way: the games before were handed out.
    Read(ReadError),
    /// The worker threads could not be started: nothing was read.
    Threads(String),
    /// The caller's callback returned this error.
    Stopped(E),
}

impl<E: core::fmt::Display> core::fmt::Display for FormatInputError<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FormatInputError::NotText(reason) => write!(f, "not PGN text: {reason}"),
            FormatInputError::Read(err) => err.fmt(f),
            FormatInputError::Threads(message) => write!(f, "cannot start the formatting threads: {message}"),
            FormatInputError::Stopped(err) => err.fmt(f),
        }
    }
}

impl<E: core::fmt::Debug + core::fmt::Display> std::error::Error for FormatInputError<E> {}

/// Formats every game of `input` on `threads` threads (0: one per core;
/// the output is the same whatever the number), calling `each` with each
/// part of the output in turn, in input order. `first` says that no game
/// was written to the output yet (so no blank line goes before this
/// input's first game); it is cleared once one is. Games are written as
/// `options` says; lines end as those of the first chunk of games do.
///
/// # Errors
///
/// [`FormatInputError::NotText`] (nothing handed out),
/// [`FormatInputError::Threads`] (nothing read),
/// [`FormatInputError::Read`] (after every part read before it), or the
/// first error `each` returns, as [`FormatInputError::Stopped`].
pub fn format_input<E>(
    input: Input,
    options: FormatOptions,
    threads: usize,
    first: &mut bool,
    mut each: impl FnMut(&FormattedPart) -> Result<(), E>,
) -> Result<FormatSummary, FormatInputError<E>> {
    if let Some(reason) = input.not_text {
        return Err(FormatInputError::NotText(reason));
    }
    let compression = input.compression;
    // with worker threads, each chunk formatted on one with its own line
    // ends; else here, as it comes
    let on_workers = threads_or_cores(threads) > 1;
    let work = move |chunk: Chunk| {
        let mut formatted = Formatted { chunk, text: Vec::new(), unchanged: Vec::new(), games: 0, crlf: None };
        if on_workers && formatted.chunk.oversized.is_none() {
            formatted.format(options);
        }
        formatted
    };
    let mut ordered = Ordered::new(Chunker::new(input.reader), work, threads)
        .map_err(|err| FormatInputError::Threads(err.to_string()))?;
    let mut part = FormattedPart::default();
    let mut summary = FormatSummary::default();
    // the line ends of the output: those of the first chunk of games
    let mut crlf = None;
    while let Some(formatted) = ordered.next() {
        let mut formatted =
            formatted.map_err(|err| FormatInputError::Read(ReadError::new(ordered.bytes_read(), compression, &err)))?;
        part.text.clear();
        part.unchanged.clear();
        let chunk = &formatted.chunk;
        if let Some(oversized) = chunk.oversized {
            // a game too large to hold: passed on unchanged, piece by piece
            if oversized.game == chunk.start {
                summary.games += 1;
                if !*first {
                    part.text.push(b'\n');
                }
                *first = false;
            }
            part.text.extend_from_slice(&chunk.data);
            if oversized.last {
                let size = chunk.start.offset + chunk.data.len() as u64 - oversized.game.offset;
                part.unchanged.push(Unchanged::TooLarge { number: summary.games, at: oversized.game, size });
            }
        } else if formatted.crlf.is_none_or(|own| crlf.is_some_and(|crlf| crlf != own)) {
            // not formatted yet, or with other line ends than the first chunk's
            let Chunk { data, start, .. } = &formatted.chunk;
            let (own, outside) = format_games(data, *start, options, crlf, |text, error| {
                summary.games += 1;
                append_game(&mut part.text, text, *first);
                *first &= text.is_empty();
                if let Some(error) = error {
                    part.unchanged.push(Unchanged::Game { number: summary.games, error });
                }
            });
            append_game(&mut part.text, &outside, *first);
            *first &= outside.is_empty();
            crlf.get_or_insert(own);
        } else {
            crlf = crlf.or(formatted.crlf);
            core::mem::swap(&mut part.text, &mut formatted.text);
            if *first {
                // (the blank line before the chunk's first game: `\r\n` or `\n`)
                let lead = if part.text.first() == Some(&b'\r') { 2 } else { 1 };
                part.text.drain(..lead.min(part.text.len()));
            }
            *first &= part.text.is_empty();
            core::mem::swap(&mut part.unchanged, &mut formatted.unchanged);
            for unchanged in &mut part.unchanged {
                let (Unchanged::Game { number, .. } | Unchanged::TooLarge { number, .. }) = unchanged;
                *number += summary.games;
            }
            summary.games += formatted.games;
        }
        summary.unchanged += part.unchanged.len() as u64;
        each(&part).map_err(FormatInputError::Stopped)?;
        ordered.recycle(formatted.chunk.data);
    }
    Ok(summary)
}

/// A chunk formatted on a worker thread: its games' text as
/// [`append_game`] joins them, the first after a blank line too.
struct Formatted {
    chunk: Chunk,
    text: Vec<u8>,
    /// The games written unchanged, numbered from 1 within the chunk.
    unchanged: Vec<Unchanged>,
    /// The games of the chunk.
    games: u64,
    /// Whether the lines written end with `\r\n`; `None` until formatted.
    crlf: Option<bool>,
}

impl Formatted {
    /// Formats the chunk's games (not a piece of a game too large), with
    /// the chunk's own line ends.
    fn format(&mut self, options: FormatOptions) {
        let Chunk { data, start, .. } = &self.chunk;
        let (text, unchanged, games) = (&mut self.text, &mut self.unchanged, &mut self.games);
        let (own, outside) = format_games(data, *start, options, None, |game, error| {
            *games += 1;
            append_game(text, game, false);
            if let Some(error) = error {
                unchanged.push(Unchanged::Game { number: *games, error });
            }
        });
        append_game(text, &outside, false);
        self.crlf = Some(own);
    }
}

/// Formats the games of `data` (whole games, the first at `start`) as
/// `options` says, with the line ends `crlf` says, or else those of
/// `data`, giving `each` the text of each game and why it was written
/// unchanged. Gives the line ends used, and the text after the last game
/// (comments, escape lines) to be written after it.
#[inline(always)]
fn format_games(
    data: &[u8],
    start: Location,
    options: FormatOptions,
    crlf: Option<bool>,
    mut each: impl FnMut(&[u8], Option<FormatError>),
) -> (bool, Vec<u8>) {
    let mut reader = Reader::with_start(data, start);
    let formatter = Formatter::new(data, start);
    let crlf = crlf.unwrap_or(formatter.crlf());
    let mut formatter = formatter.with_crlf(crlf).with_notation(options.notation).with_letters(options.letters);
    let mut denied = denied_findings(data, start, options.policy, options.letters).into_iter();
    loop {
        if let Some(error) = denied.next().flatten() {
            formatter.refuse_next_game(error);
        }
        let Some(game) = reader.read_game(&mut formatter) else { break };
        each(&game.text, game.error);
    }
    (crlf, formatter.take_outside())
}
