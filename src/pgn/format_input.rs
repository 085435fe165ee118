//! Formatting a whole PGN input ([`crate::pgn::input`]: a file or any
//! reader, decompressed) as [`crate::pgn::format`] says, streamed: the input
//! is cut into chunks of whole games ([`Chunker`]) and each chunk formatted
//! and handed to the caller before the next is read, so memory does not
//! grow with the input. What `sanfen fmt` writes is this.
//!
//! ```
//! use sanfen::lint::LintPolicy;
//! use sanfen::pgn::format_input::{Unchanged, format_input};
//! use sanfen::pgn::input::Input;
//!
//! let input = Input::from_reader(&b"1. e4 e5 2. Nf3 *\n\n1. d4 d5 2. Ke3 *\n"[..], None)?;
//! let (mut text, mut unchanged) = (Vec::new(), Vec::new());
//! let mut first = true;
//! let summary = format_input(input, LintPolicy::default(), &mut first, |part| {
//!     text.extend_from_slice(&part.text);
//!     unchanged.extend(part.unchanged.iter().cloned());
//!     Ok::<(), ()>(())
//! })
//! .unwrap();
//! assert_eq!(summary.games, 2);
//! assert!(String::from_utf8(text).unwrap().ends_with("*\n\n1. d4 d5 2. Ke3 *\n"));
//! let Unchanged::Game { number, error } = &unchanged[0] else { panic!() };
//! assert_eq!((*number, error.at.line, error.at.column), (2, 3, 13));
//! # Ok::<(), sanfen::pgn::input::InputError>(())
//! ```
//!
//! A game larger than [`Chunker::MAX_GAME`] is never held: it is passed on
//! unchanged, piece by piece, and reported as [`Unchanged::TooLarge`].

use crate::lint::LintPolicy;
use crate::pgn::chunk::Chunker;
use crate::pgn::format::{FormatError, Formatter, append_game, denied_findings};
use crate::pgn::input::{Input, NotText, ReadError};
use crate::pgn::reader::{Location, Reader};

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
    /// The caller's callback returned this error.
    Stopped(E),
}

impl<E: core::fmt::Display> core::fmt::Display for FormatInputError<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FormatInputError::NotText(reason) => write!(f, "not PGN text: {reason}"),
            FormatInputError::Read(err) => err.fmt(f),
            FormatInputError::Stopped(err) => err.fmt(f),
        }
    }
}

impl<E: core::fmt::Debug + core::fmt::Display> std::error::Error for FormatInputError<E> {}

/// Formats every game of `input`, calling `each` with each part of the
/// output in turn. `first` says that no game was written to the output yet
/// (so no blank line goes before this input's first game); it is cleared
/// once one is. A game with a lint finding that `policy` denies is written
/// unchanged ([`denied_findings`]). Lines end as those of the first chunk
/// of games do.
///
/// # Errors
///
/// [`FormatInputError::NotText`] (nothing handed out),
/// [`FormatInputError::Read`] (after every part read before it), or the
/// first error `each` returns, as [`FormatInputError::Stopped`].
pub fn format_input<E>(
    input: Input,
    policy: LintPolicy,
    first: &mut bool,
    mut each: impl FnMut(&FormattedPart) -> Result<(), E>,
) -> Result<FormatSummary, FormatInputError<E>> {
    if let Some(reason) = input.not_text {
        return Err(FormatInputError::NotText(reason));
    }
    let compression = input.compression;
    let mut chunker = Chunker::new(input.reader);
    let mut buffer = Vec::new();
    let mut part = FormattedPart::default();
    let mut summary = FormatSummary::default();
    // the line ends of the output: those of the first chunk of games
    let mut crlf = None;
    loop {
        let chunk = match chunker.next_chunk(buffer) {
            Ok(Some(chunk)) => chunk,
            Ok(None) => return Ok(summary),
            Err(err) => return Err(FormatInputError::Read(ReadError::new(chunker.bytes_read(), compression, &err))),
        };
        part.text.clear();
        part.unchanged.clear();
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
        } else {
            let mut reader = Reader::with_start(&chunk.data, chunk.start);
            let formatter = Formatter::new(&chunk.data, chunk.start);
            let crlf = *crlf.get_or_insert(formatter.crlf());
            let mut formatter = formatter.with_crlf(crlf);
            let mut denied = denied_findings(&chunk.data, chunk.start, policy).into_iter();
            loop {
                if let Some(error) = denied.next().flatten() {
                    formatter.refuse_next_game(error);
                }
                let Some(game) = reader.read_game(&mut formatter) else { break };
                summary.games += 1;
                append_game(&mut part.text, &game.text, *first);
                *first &= game.text.is_empty();
                if let Some(error) = game.error {
                    part.unchanged.push(Unchanged::Game { number: summary.games, error });
                }
            }
            // comments and escape lines after the last game
            let outside = formatter.take_outside();
            append_game(&mut part.text, &outside, *first);
            *first &= outside.is_empty();
        }
        summary.unchanged += part.unchanged.len() as u64;
        each(&part).map_err(FormatInputError::Stopped)?;
        buffer = chunk.data;
    }
}
