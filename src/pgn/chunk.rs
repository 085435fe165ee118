//! Cutting a byte stream into chunks of whole games.
//!
//! A [`Chunker`] reads a stream with one reusable buffer and hands out
//! [`Chunk`]s of about a target size, each cut where the [`Reader`] is certain
//! to start a new game. Reading each chunk with [`Reader::with_start`] gives
//! exactly the events, locations included, that reading the whole stream with
//! [`Reader::new`] gives: so chunks can be read on many threads.
//!
//! ```
//! use sanfen::pgn::{Chunker, Location, Reader, Visitor};
//!
//! struct Count;
//! impl Visitor for Count {
//!     type Output = Location;
//!     fn end_game(&mut self, at: Location) -> Location {
//!         at
//!     }
//! }
//!
//! let pgn: &[u8] = b"[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n\n1. d4 d5 *\n";
//! let mut chunker = Chunker::with_target(pgn, 1);
//! let mut ends = Vec::new();
//! let mut buffer = Vec::new();
//! while let Some(chunk) = chunker.next_chunk(buffer)? {
//!     let mut reader = Reader::with_start(&chunk.data, chunk.start);
//!     while let Some(end) = reader.read_game(&mut Count) {
//!         ends.push((end.line, end.column));
//!     }
//!     buffer = chunk.data;
//! }
//! assert_eq!(ends, [(3, 13), (7, 11)]);
//! assert_eq!(chunker.bytes_read(), pgn.len() as u64);
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! Cut points are found in two ways. First a quick search from the target
//! on, which looks at a few lines only: a line that starts with a
//! well-formed tag pair is a cut point when the last line before it that
//! holds more than whitespace is not a `%` escape line, does not start with
//! a comment (which may be among a game's tags; but for a `{` comment left
//! open on it) and holds no `[`, or ends with a result token and holds `[`
//! and `;` only inside `{ }` comments that open on it (lichess's movetext,
//! with its `[%clk]` comments): the reader is then in movetext, in a
//! comment the tag line ends, or between games, never in a tag section.
//! When no such line comes within the target (at least 4 KiB) after the
//! target, the chunk is scanned line by line from
//! its start (a `\n` ends a line), following the reader's rules for what
//! hides a `[` (`{ }` comments, with their recovery at a line that starts with
//! a tag pair; `;` comments; `%` escape lines; tag pairs with their quoted
//! values), and these are its cut points:
//!
//! - a line whose first non-blank byte is `[`, outside comments, when the
//!   reader is between games or in a game's movetext (a token came after
//!   the last tag, or a comment that no tag of the section comes after: a
//!   comment is among the tags when one does, with only blank lines,
//!   comments and `%` escape lines between, a `{ }` one closing on its
//!   line); also a line that starts with a tag pair inside a comment (which
//!   was then never closed);
//! - the start of the line after one whose last token is a result token
//!   followed by nothing but whitespace (the reader ends the game at the
//!   result, and the next line starts afresh);
//! - in a tag section, a line that starts with a well-formed tag whose name
//!   the section already has, after a blank line (header-only games).
//!
//! A stream that looks like UTF-16 at its start (what the reader reports as
//! one error) is one chunk.
//!
//! A chunk ends at the first cut point found at least the target size from
//! its start, so it may be bigger when no cut point comes. The reading
//! thread of `sanfen check -j N` cuts the chunks: with the quick search it
//! reads a few lines per chunk, not every line.
//!
//! Memory is bounded whatever the stream holds. When no cut point comes
//! within [`Chunker::MAX_GAME`] bytes after the target (or a line that is not
//! yet ended grows longer than that), the game that starts at the last cut
//! point is too large: the games before it are handed out as usual, then the
//! large game in pieces of about a block each ([`Chunk::oversized`] says so),
//! never held whole, up to the next line that starts with a well-formed tag
//! pair after a line that does not start with `[` or `%` (lines that start
//! with a comment aside: the next game's first tag), where chunks of whole
//! games go on. So every line, token, comment and tag value the reader gets
//! is smaller than the limit too.
//!
//! A read error ends the stream: the chunks of what was read before it come
//! first (the last game as the stream left it), then the error, once.

use std::io::{self, Read};

#[cfg(doc)]
use crate::pgn::reader::Reader;
use crate::pgn::reader::{
    AFTER_BOM, CLASS, Location, NL, TOKEN, TagNames, TagScan, WS, bom_len, invisible_before, is_recovery_line,
    looks_utf16, run_ends_game, scan_tag, skip_blank, skip_blank_back,
};

/// How much is read from the stream at a time.
const BLOCK: usize = 256 * 1024;

/// Whole games, and where they are in the stream; or a piece of a game too
/// large to be held.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chunk {
    /// The bytes: whole games, starting at the start of a line; or, when
    /// `oversized` is set, a piece of one game (the pieces, in order, are
    /// the game's bytes exactly).
    pub data: Vec<u8>,
    /// The location of `data[0]` in the stream (column 1, or 4 after a
    /// byte order mark at the start of the stream, except for a piece of a
    /// large game after its first). Offsets and columns count every byte of
    /// the stream, a byte order mark included.
    pub start: Location,
    /// `Some` when `data` is a piece of a game larger than
    /// [`Chunker::MAX_GAME`]: such a game is not to be read, only passed on
    /// or reported.
    pub oversized: Option<Oversized>,
}

/// A game of this many bytes, larger than [`Chunker::MAX_GAME`], as every
/// message says it.
///
/// ```
/// use sanfen::pgn::chunk::TooLargeGame;
///
/// assert_eq!(TooLargeGame(9_000_000).to_string(), "game of 9000000 bytes, larger than the limit of 8388608 bytes");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TooLargeGame(pub u64);

impl core::fmt::Display for TooLargeGame {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let limit = Chunker::<std::io::Empty>::MAX_GAME;
        write!(f, "game of {} bytes, larger than the limit of {limit} bytes", self.0)
    }
}

/// A piece of a game too large to read (see [`Chunk::oversized`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Oversized {
    /// Where the game starts: the start of its first piece.
    pub game: Location,
    /// Whether this is the game's last piece: the game's size is then the
    /// end of this piece's data less `game.offset`.
    pub last: bool,
}

/// What the chunker knows of the lines of a large game it passes on in
/// pieces, to find where the next game starts.
#[derive(Copy, Clone, Debug, Default)]
struct Discard {
    /// Where the game starts.
    game: Location,
    /// The last line that held more than whitespace started neither with
    /// `[` nor with `%`: a line starting with a tag pair starts a game.
    eligible: bool,
    /// The position examined is at the start of a line.
    line_start: bool,
    /// Of the current line so far: it holds more than whitespace.
    content: bool,
    /// Of the current line: it starts with `[` or `%` (after inline
    /// whitespace, for `[`).
    tagged: bool,
    /// Of the current line: it starts with a comment (after inline
    /// whitespace), which leaves [`Discard::eligible`] as it was (in a tag
    /// section, a tag after it is of the same section).
    commented: bool,
}

/// Cuts a stream into [`Chunk`]s of whole games (see the [module](self)).
#[derive(Debug)]
pub struct Chunker<R: Read> {
    input: R,
    /// `buf[..filled]` is read and not yet handed out; `buf[0]` is at
    /// `start`. The rest of `buf` is room for the next read.
    buf: Vec<u8>,
    filled: usize,
    /// The lines before it are scanned (by [`ScanState`], from the chunk's
    /// start).
    scan: usize,
    /// Whether the quick search comes first (see [`Chunker::line_by_line`]).
    quick: bool,
    /// Whether the chunk is being scanned line by line, after the quick
    /// search found no cut point.
    scanning: bool,
    /// The quick search for a cut point has looked at the bytes before it.
    searched: usize,
    start: Location,
    target: usize,
    eof: bool,
    /// Whether the stream start was looked at for a byte order mark.
    started: bool,
    /// The stream looks like UTF-16: one chunk, which the reader reads as one
    /// error (there are no games to cut between).
    utf16: bool,
    bytes_read: u64,
    state: ScanState,
    /// Set while a game larger than the limit is passed on in pieces.
    discard: Option<Discard>,
    /// The read error that ended the stream, handed out after the chunks
    /// before it.
    failed: Option<io::Error>,
    /// The size of game over which it is passed on in pieces.
    limit: usize,
    /// The last cut point the line-by-line scan found in the chunk (0: its
    /// start).
    last_cut: usize,
}

impl<R: Read> Chunker<R> {
    /// The size of the largest game that is held whole: 8 MiB (a game of
    /// real chess, with every comment and variation an annotator writes, is
    /// a few hundred KiB at most). A game is passed on in pieces when no cut
    /// point comes within this many bytes after the chunk's target, or when
    /// one of its lines grows longer than this.
    pub const MAX_GAME: usize = 8 << 20;

    /// A chunker with chunks of about 1 MiB.
    pub fn new(input: R) -> Chunker<R> {
        Chunker::with_target(input, 1 << 20)
    }

    /// A chunker with chunks of at least `target` bytes (but the last), cut at
    /// the first cut point after that; a target of 0 is taken as 1, which
    /// cuts at every cut point.
    pub fn with_target(input: R, target: usize) -> Chunker<R> {
        Chunker {
            input,
            buf: Vec::new(),
            filled: 0,
            scan: 0,
            quick: true,
            scanning: false,
            searched: 0,
            start: Location { line: 1, column: 1, offset: 0 },
            target: target.max(1),
            eof: false,
            started: false,
            utf16: false,
            bytes_read: 0,
            state: ScanState::default(),
            discard: None,
            failed: None,
            limit: Self::MAX_GAME,
            last_cut: 0,
        }
    }

    /// Takes games larger than `limit` bytes (at least 1) as too large to
    /// read, instead of those larger than [`Chunker::MAX_GAME`]: such a game
    /// is passed on in pieces ([`Chunk::oversized`]), to be reported, never
    /// held whole nor parsed (see the [module](self), with `limit` for
    /// [`Chunker::MAX_GAME`]). For input that is not trusted, or whose games
    /// are known to be small.
    ///
    /// ```
    /// use sanfen::pgn::Chunker;
    ///
    /// let pgn = format!("[Event \"A\"]\n\n1. e4 {{{}}} *\n\n[Event \"B\"]\n\n1. d4 *\n", "a".repeat(5000));
    /// let mut chunker = Chunker::with_target(pgn.as_bytes(), 1).with_limit(1000);
    /// let mut chunks = Vec::new();
    /// while let Some(chunk) = chunker.next_chunk(Vec::new())? {
    ///     chunks.push(chunk);
    /// }
    /// // game A is too large: passed on, not to be read; game B is a chunk
    /// assert!(chunks[0].oversized.is_some());
    /// let last = chunks.last().unwrap();
    /// assert_eq!((last.data.as_slice(), last.oversized), (&b"[Event \"B\"]\n\n1. d4 *\n"[..], None));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn with_limit(mut self, limit: usize) -> Chunker<R> {
        self.limit = limit.max(1);
        self
    }

    /// Reads a stream that is a part of a larger one, from `start` in it: a
    /// byte range of a file that starts at a game boundary (see
    /// [`crate::pgn::split`]). The chunks' locations are then the larger
    /// stream's, and a part that does not start it (`start.offset > 0`) is
    /// not looked at for a byte order mark or UTF-16.
    pub fn starting_at(mut self, start: Location) -> Chunker<R> {
        self.start = start;
        if start.offset > 0 {
            self.started = true;
        }
        self
    }

    /// Finds the cut points by following the reader's rules on every line,
    /// without the quick search first: each chunk then ends at the first cut
    /// point after its target, of whatever kind (the line after a result,
    /// not only a tag line), at the cost of looking at every line of it. The
    /// chunks read alike either way; cutting both ways and comparing is how
    /// the quick search is checked.
    ///
    /// ```
    /// use sanfen::pgn::Chunker;
    ///
    /// let pgn: &[u8] = b"[Event \"A\"]\n\n1. e4 1-0\n\n[Event \"B\"]\n\n1. d4 *\n";
    /// let mut chunker = Chunker::with_target(pgn, 1).line_by_line();
    /// let first = chunker.next_chunk(Vec::new())?.unwrap();
    /// assert_eq!(first.data, b"[Event \"A\"]\n\n1. e4 1-0\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn line_by_line(mut self) -> Chunker<R> {
        self.quick = false;
        self.scanning = true;
        self
    }

    /// Sets the target of the chunks to come, as [`Chunker::with_target`]
    /// does (0 is taken as 1): between two calls of
    /// [`Chunker::next_chunk`], so that the next chunk ends at the first cut
    /// point at least `target` bytes after its start (how [`crate::pgn::split`]
    /// ends its parts).
    pub(crate) fn set_target(&mut self, target: usize) {
        self.target = target.max(1);
    }

    /// The bytes read from the stream so far (after a read error: where the
    /// stream failed).
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// The next chunk, or `None` at the end of the stream. `buffer` is where
    /// the chunk's bytes go (what it holds is overwritten): pass a spent
    /// chunk's `data` to reuse it, or `Vec::new()`.
    ///
    /// # Errors
    ///
    /// The stream's read error ([`io::ErrorKind::Interrupted`] is retried),
    /// once, after the chunks of everything read before it; the stream ends
    /// there (the next call gives `None`).
    pub fn next_chunk(&mut self, buffer: Vec<u8>) -> io::Result<Option<Chunk>> {
        loop {
            if let Some(discard) = self.discard {
                return Ok(Some(self.next_piece(discard, buffer)));
            }
            if self.utf16 && !self.eof {
                // one chunk while it is not larger than a game may be; then
                // pieces, as of a game too large
                if self.filled > self.limit {
                    let game = self.location_of(0);
                    self.discard = Some(Discard { game, line_start: true, ..Discard::default() });
                    continue;
                }
                self.fill();
                continue;
            }
            if self.started && !self.scanning && !self.utf16 {
                match self.quick_cut() {
                    Search::Found(at) => {
                        self.scan = at;
                        return Ok(Some(self.cut(buffer)));
                    }
                    Search::GiveUp => self.scanning = true,
                    Search::NeedMore => {}
                }
            }
            let cut = self.started && self.scanning && !self.utf16 && self.scan_lines();
            // a game too large: the one from the last cut point to the one
            // found, or an unended one
            let too_large = self.scanning
                && (self.scan - self.last_cut > self.limit || (!cut && self.filled - self.scan > self.limit));
            if too_large {
                // the games before the large one, if any, then its pieces
                let at = self.after_blank_lines(self.last_cut);
                let game = self.location_of(at);
                self.discard = Some(Discard { game, line_start: true, ..Discard::default() });
                self.scan = at;
                if at > 0 {
                    return Ok(Some(self.cut(buffer)));
                }
                continue;
            }
            if cut {
                return Ok(Some(self.cut(buffer)));
            }
            if self.eof {
                if self.filled == 0 {
                    return match self.failed.take() {
                        Some(err) => Err(err),
                        None => Ok(None),
                    };
                }
                self.scan = self.filled;
                return Ok(Some(self.cut(buffer)));
            }
            self.fill();
        }
    }

    /// The start of the first line from `at` (a line start) that holds more
    /// than whitespace: a cut point when `at` is one.
    fn after_blank_lines(&self, at: usize) -> usize {
        let buf = &self.buf[..self.filled];
        let mut start = at;
        for (i, &b) in buf.iter().enumerate().skip(at) {
            match CLASS[b as usize] {
                NL => start = i + 1,
                WS => {}
                _ => break,
            }
        }
        start
    }

    /// The location of `buf[at]`, at the start of a line.
    fn location_of(&self, at: usize) -> Location {
        if at == 0 {
            return self.start;
        }
        let lines = memchr::memchr_iter(b'\n', &self.buf[..at]).count();
        let line = self.start.line.saturating_add(u32::try_from(lines).unwrap_or(u32::MAX));
        Location { line, column: 1, offset: self.start.offset + at as u64 }
    }

    /// The next piece of a large game.
    fn next_piece(&mut self, mut discard: Discard, buffer: Vec<u8>) -> Chunk {
        loop {
            let (at, next_game) = discard.scan(&self.buf[..self.filled], self.scan, self.eof);
            self.scan = at;
            if next_game || (self.eof && at == self.filled) {
                // the last piece (possibly empty, so that the game is reported)
                self.discard = None;
                let mut chunk = self.cut(buffer);
                chunk.oversized = Some(Oversized { game: discard.game, last: true });
                return chunk;
            }
            self.discard = Some(discard);
            if at > 0 {
                let mut chunk = self.cut(buffer);
                chunk.oversized = Some(Oversized { game: discard.game, last: false });
                return chunk;
            }
            self.fill();
        }
    }

    /// Scans the complete lines from `scan` (and the last one at the end of
    /// the stream); `true` when it stops at a cut point.
    fn scan_lines(&mut self) -> bool {
        let buf = &self.buf[..self.filled];
        let from = self.scan;
        let mut scan = from;
        let mut cut = false;
        for newline in memchr::memchr_iter(b'\n', &buf[from..]) {
            let line = &buf[scan..from + newline + 1];
            if scan > 0 && self.state.is_cut(line) {
                if scan >= self.target {
                    cut = true;
                    break;
                }
                self.last_cut = scan;
            }
            self.state.process_line(line);
            scan += line.len();
        }
        if !cut && self.eof && scan < buf.len() {
            let line = &buf[scan..];
            if scan >= self.target && self.state.is_cut(line) {
                cut = true;
            } else {
                self.state.process_line(line);
                scan = buf.len();
            }
        }
        self.scan = scan;
        cut
    }

    /// Looks for a quick cut point from the target on, without following
    /// the reader through the lines before it.
    fn quick_cut(&mut self) -> Search {
        let buf = &self.buf[..self.filled];
        // Past this, the chunk is scanned line by line instead (files with no
        // quick cut point: header-only games, movetext without tags).
        let limit = self.target.saturating_add(self.target.max(QUICK_WINDOW));
        let mut i = self.searched.max(self.target);
        loop {
            let Some(at) = buf.get(i..).and_then(|rest| memchr::memchr(b'[', rest)).map(|k| i + k) else {
                self.searched = buf.len().max(i);
                return if self.eof || buf.len() >= limit { Search::GiveUp } else { Search::NeedMore };
            };
            if at >= limit {
                return Search::GiveUp;
            }
            if buf[at - 1] == b'\n' {
                // the whole line is needed to judge
                if !self.eof && memchr::memchr(b'\n', &buf[at..]).is_none() {
                    if buf.len() >= limit {
                        // a line too long to wait for: scan the lines
                        return Search::GiveUp;
                    }
                    self.searched = at;
                    return Search::NeedMore;
                }
                if is_quick_cut(buf, at) {
                    return Search::Found(at);
                }
            }
            i = at + 1;
        }
    }

    /// Hands out `buf[..scan]`.
    fn cut(&mut self, mut buffer: Vec<u8>) -> Chunk {
        let at = self.scan;
        let lines = memchr::memchr_iter(b'\n', &self.buf[..at]).count();
        // The rest read goes to the front of `buffer`; the bytes after it
        // (a chunk handed out before, given back) are room to read into
        // that needs no zeroing again.
        let rest = self.filled - at;
        if buffer.len() < rest {
            buffer.resize(rest, 0);
        }
        buffer[..rest].copy_from_slice(&self.buf[at..self.filled]);
        std::mem::swap(&mut self.buf, &mut buffer);
        buffer.truncate(at);
        self.filled = rest;
        let start = self.start;
        let line = start.line.saturating_add(u32::try_from(lines).unwrap_or(u32::MAX));
        self.start = Location { line, column: 1, offset: start.offset + at as u64 };
        self.scan = 0;
        self.last_cut = 0;
        self.scanning = !self.quick;
        self.searched = 0;
        // the reader starts a game at a cut point, as at the start of the stream
        self.state = ScanState::default();
        Chunk { data: buffer, start, oversized: None }
    }

    /// Reads a block, or notes the end of the stream (a read error ends it
    /// too, and is kept to be handed out).
    fn fill(&mut self) {
        if self.buf.len() - self.filled < BLOCK / 2 {
            // Zeroed once, then read into as often as it takes.
            self.buf.resize(self.filled + BLOCK, 0);
        }
        // (a block at most, however much room a buffer given back has: the
        // rest after a cut, copied into the next buffer, stays short)
        let room = self.filled..self.buf.len().min(self.filled + BLOCK);
        let read = loop {
            match self.input.read(&mut self.buf[room.clone()]) {
                Ok(n) => break n,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => {
                    self.failed = Some(err);
                    break 0;
                }
            }
        };
        self.filled += read;
        self.bytes_read += read as u64;
        self.eof = read == 0;
        // (64 bytes: what the reader looks at for UTF-16)
        if !self.started && (self.filled >= 64 || self.eof) {
            self.started = true;
            self.utf16 = looks_utf16(&self.buf[..self.filled]);
            let bom = bom_len(&self.buf[..self.filled]);
            if bom > 0 {
                self.buf.drain(..bom);
                self.filled -= bom;
                self.start = AFTER_BOM;
            }
        }
    }
}

impl Discard {
    /// Follows the lines of `buf` from `from` (where the previous call
    /// stopped): where to stop, and whether a game starts there. It stops
    /// before an unended line that starts with `[` (shorter than a tag line
    /// can be: 64 KiB), to judge it whole, unless the stream has ended.
    fn scan(&mut self, buf: &[u8], from: usize, eof: bool) -> (usize, bool) {
        const TAG_LINE: usize = 64 << 10;
        let mut i = from;
        loop {
            if self.line_start {
                let Some(&first) = buf.get(i) else { return (i, false) };
                let newline = memchr::memchr(b'\n', &buf[i..]).map(|k| i + k);
                if first == b'[' && self.eligible {
                    if newline.is_none() && !eof && buf.len() - i < TAG_LINE {
                        return (i, false);
                    }
                    if is_recovery_line(&buf[..newline.unwrap_or(buf.len())], i) {
                        return (i, true);
                    }
                }
                self.line_start = false;
                self.content = false;
                self.tagged = first == b'%';
                self.commented = false;
            }
            let newline = memchr::memchr(b'\n', &buf[i..]).map(|k| i + k);
            let segment = &buf[i..newline.unwrap_or(buf.len())];
            if !self.content {
                // (invisible characters are whitespace to the reader)
                let k = skip_blank(segment, 0);
                if k < segment.len() {
                    self.content = true;
                    self.tagged |= segment[k] == b'[';
                    self.commented = !self.tagged && matches!(segment[k], b';' | b'{');
                }
            }
            match newline {
                Some(k) => {
                    if self.content && !self.commented {
                        self.eligible = !self.tagged;
                    }
                    self.line_start = true;
                    i = k + 1;
                }
                None => return (buf.len(), false),
            }
        }
    }
}

/// How far past the target the quick search for a cut point goes, at least
/// (at most the target itself past it, for larger targets).
const QUICK_WINDOW: usize = 4096;

/// What the quick search found.
enum Search {
    Found(usize),
    /// Not in the bytes read so far.
    NeedMore,
    /// Not within the window: scan the lines.
    GiveUp,
}

/// Whether the line at `at` (`buf[at - 1]` is a `\n`) is a quick cut point:
/// it starts with a well-formed tag pair, and the last line before it that
/// holds more than whitespace is not a `%` escape line and either holds no
/// `[` or ends the game ([`ends_game`]: lichess's movetext lines, whose
/// comments hold `[%clk]`). The reader cannot be in a tag section there
/// (that line was not a tag, or a token after its tags ended their
/// section), so it starts a game at the tag: the `[` ends the movetext, or
/// the comment that the tag line recovers from, or it comes between games.
fn is_quick_cut(buf: &[u8], at: usize) -> bool {
    if !is_recovery_line(buf, at) {
        return false;
    }
    // (invisible characters are whitespace to the reader)
    let end = skip_blank_back(buf, at);
    if end == 0 {
        return false;
    }
    let start = memchr::memrchr(b'\n', &buf[..end]).map_or(0, |k| k + 1);
    let line = &buf[start..end];
    if line[0] == b'%' {
        return false;
    }
    let bracket = || memchr::memchr(b'[', line).is_some();
    match line.get(skip_blank(line, 0)) {
        // (after a line that starts with a comment, the reader may be in a
        // tag section: a comment is among the tags when a tag follows it)
        Some(b';') => false,
        // not when a `{` comment is left open, as one among the tags closes
        // on its line: the tag line ends it
        Some(b'{') => !bracket() && line_end(line) == LineEnd::Open,
        _ => !bracket() || ends_game(line),
    }
}

/// How a line read from its start outside comments ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LineEnd {
    /// Outside comments, no `[` nor `;` outside them on the way.
    Clear,
    /// A `[` or a `;` came outside comments (after a `;`, the rest of the
    /// line is comment text: no `{` there opens one).
    Marked,
    /// Inside a `{` comment, no `[` nor `;` outside comments before it.
    Open,
}

/// How `line` ends, read from its start outside comments (comments do not
/// nest: a `{` inside one opens nothing more).
fn line_end(line: &[u8]) -> LineEnd {
    let mut in_comment = false;
    for &b in line {
        match b {
            b'{' => in_comment = true,
            b'}' => in_comment = false,
            b'[' | b';' if !in_comment => return LineEnd::Marked,
            _ => {}
        }
    }
    if in_comment { LineEnd::Open } else { LineEnd::Clear }
}

/// Whether the reader ends a game at the end of `line` (a line that holds
/// more than whitespace and is no `%` escape line), whatever its state at
/// the line's start: the line's last token is a result token, and each `[`
/// and `;` on it is inside a `{ }` comment that opens on the line
/// (`1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 1-0`). Read from
/// the line's start as if outside a comment, the line's state is the
/// reader's from its first brace on (comments do not nest), and before it a
/// `[` or `;` is refused. So either the reader reads the result in
/// movetext, where it ends the game (in a tag section, the first token
/// ended it), or the whole line was inside a comment that the tag line
/// after it recovers from.
fn ends_game(line: &[u8]) -> bool {
    line_end(line) == LineEnd::Clear && ends_with_result(line)
}

/// What the chunker knows of the reader's state at the start of a line.
///
/// How `in_comment` and `tags` change over a line depends on them and on the
/// line's bytes alone, never on the other fields: [`crate::pgn::split`]
/// follows lines from each state the reader may be in ([`ScanState::assuming`])
/// and relies on that.
#[derive(Clone, Debug, Default)]
pub(crate) struct ScanState {
    /// Inside a `{` comment.
    in_comment: bool,
    /// In a game's tag section (otherwise between games or in movetext,
    /// where a `[` starts a game).
    tags: bool,
    /// In a tag section: a blank line came after the last tag.
    blank: bool,
    /// The last line ended with a result token.
    after_result: bool,
    /// A movetext token (not only comments) was read in this game: a blank
    /// line then ends it.
    moved: bool,
    /// A blank line came after this game's moves: the next line that holds
    /// something starts a game.
    blank_after_move: bool,
    /// The well-formed tag names of the tag section.
    names: TagNames,
}

impl ScanState {
    /// The state at a line start where the reader is in a `{` comment
    /// (`in_comment`), or in a game's tag section (`tags`), or neither
    /// (between games or in movetext); the rest as at a game's start, which
    /// does not change how `in_comment` and `tags` go on.
    pub(crate) fn assuming(in_comment: bool, tags: bool) -> ScanState {
        ScanState { in_comment, tags, ..ScanState::default() }
    }

    /// Whether a line that starts with a well-formed tag pair may be the
    /// reader's next tag of the same game here (in a tag section, outside
    /// comments); otherwise such a line starts a game ([`ScanState::is_cut`]).
    pub(crate) fn in_tags(&self) -> bool {
        self.tags && !self.in_comment
    }

    /// Whether the reader starts a game at the start of `line`.
    fn is_cut(&self, line: &[u8]) -> bool {
        if self.after_result {
            return true;
        }
        if self.in_comment {
            return is_recovery_line(line, 0);
        }
        if line.first() == Some(&b'%') {
            return false;
        }
        let i = skip_blank(line, 0);
        if self.blank_after_move && i < line.len() && line[i] != b'\n' {
            return true;
        }
        if line.get(i) != Some(&b'[') {
            return false;
        }
        if !self.tags {
            return true;
        }
        self.blank && matches!(scan_tag(line, i), TagScan::Good { name, .. } if self.has_name(&line[name.clone()]))
    }

    fn has_name(&self, name: &[u8]) -> bool {
        self.names.get(name).is_some()
    }

    /// Follows the reader through `line` (up to and with its `\n`, if any).
    pub(crate) fn process_line(&mut self, line: &[u8]) {
        if self.after_result {
            self.moved = false;
        }
        self.after_result = false;
        let mut i = 0;
        if self.in_comment {
            if is_recovery_line(line, 0) {
                self.in_comment = false;
            } else {
                match memchr::memchr(b'}', line) {
                    Some(k) => {
                        self.in_comment = false;
                        i = k + 1;
                    }
                    None => return,
                }
            }
        } else if line.first() == Some(&b'%') {
            if self.blank_after_move {
                // the blank line before ended the game
                self.blank_after_move = false;
                self.moved = false;
            }
            return;
        }
        // Whether the line holds more than whitespace.
        let mut content = i > 0;
        loop {
            i = skip_blank(line, i);
            if i == line.len() || line[i] == b'\n' {
                if self.tags && !content {
                    self.blank = true;
                }
                if self.moved && !content {
                    self.blank_after_move = true;
                }
                return;
            }
            if self.blank_after_move {
                // the blank line ended the game: this line starts the next
                self.blank_after_move = false;
                self.moved = false;
            }
            content = true;
            if line[i] == b'[' {
                // A tag: of this tag section, or the first of a new game.
                match scan_tag(line, i) {
                    TagScan::Good { name, end, .. } => {
                        if !self.tags || (self.blank && self.has_name(&line[name.clone()])) {
                            self.new_section();
                        }
                        // (lines are not counted here)
                        self.names.insert(&line[name], 0);
                        i = end;
                    }
                    TagScan::Bad { end } => {
                        if !self.tags {
                            self.new_section();
                        }
                        i = end;
                    }
                }
                self.blank = false;
                continue;
            }
            if self.tags && matches!(line[i], b';' | b'{') {
                // A comment among the tags when a tag comes after it (the
                // reader looks ahead); when anything else comes, it ends
                // the tag section where it would have here. A `{` comment
                // among the tags closes on its line: one that does not is
                // the movetext's (below).
                if line[i] == b';' {
                    return;
                }
                if let Some(m) = memchr::memchr(b'}', &line[i + 1..]) {
                    i += 2 + m;
                    continue;
                }
            }
            // Movetext: only comments and tags matter, and a result at the end.
            self.tags = false;
            if !matches!(line[i], b'{' | b';') {
                self.moved = true;
            }
            match memchr::memchr3(b'{', b';', b'[', &line[i..]) {
                None => {
                    self.after_result = ends_with_result(line);
                    return;
                }
                Some(k) => {
                    let j = i + k;
                    if line[j] != b'[' && ends_with_result(&line[i..j]) {
                        // the game ended there: what follows on the line starts the next
                        self.moved = false;
                    }
                    match line[j] {
                        b'{' => match memchr::memchr(b'}', &line[j + 1..]) {
                            Some(m) => i = j + 2 + m,
                            None => {
                                self.in_comment = true;
                                return;
                            }
                        },
                        b';' => return,
                        _ => i = j,
                    }
                }
            }
        }
    }

    fn new_section(&mut self) {
        self.tags = true;
        self.moved = false;
        self.blank_after_move = false;
        self.names.clear();
    }
}

/// Whether the reader ends the game at the end of a movetext line: whether
/// it reads a result at the end of the line's last run of token bytes (from
/// a delimiter, or from a `$`, which starts a run, to trailing whitespace).
/// The reader's own code decides ([`run_ends_game`]): `1-0`, `e5*`,
/// `12345678901.1-0` do, `!*`, `1*`, `e4$*` do not.
fn ends_with_result(line: &[u8]) -> bool {
    let end = skip_blank_back(line, line.len());
    let mut start = end;
    while start > 0
        && CLASS[line[start - 1] as usize] == TOKEN
        && (line[start - 1] < 0x80 || invisible_before(line, start) == 0)
    {
        start -= 1;
    }
    // a `$` starts a run of its own (a NAG)
    if start > 0 && line[start - 1] == b'$' {
        start -= 1;
    }
    run_ends_game(&line[start..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the last line of `text` (which starts with `[`) is a quick
    /// cut point.
    fn quick_cut_at_last_line(text: &str) -> bool {
        let at = text.trim_end().rfind('\n').expect("two lines") + 1;
        is_quick_cut(text.as_bytes(), at)
    }

    /// The line's last run of token bytes ends the game where the reader
    /// reads a result at its end.
    #[test]
    fn a_line_ends_the_game_where_its_last_run_ends_in_a_result() {
        for (line, ends) in [
            ("1. e4 e5 1-0", true),
            ("1. e4 e5 1/2-1/2 \r", true),
            ("1. e4 *\u{a0}", true),
            ("1. e4 e5*", true),
            ("1. e4 1.e4*", true),
            ("1. e4 e5!?*", true),
            // after move numbers of any size, as the reader reads them
            ("1. e4 12345678901.1-0", true),
            ("1. e4 99999999999999999999...e5*", true),
            ("1. e4 1*", false),
            ("1. e4 !*", false),
            // a `$` starts a run of its own: a NAG, or a token that is no result
            ("1. e4 e5$*", false),
            ("1. e4 e5 $1-0", false),
            ("1. e4 e5$1", false),
            ("1. e4 e5 1-0 e6", false),
            ("1. e4 e5 {1-0}", false),
            ("", false),
        ] {
            assert_eq!(ends_with_result(line.as_bytes()), ends, "{line:?}");
        }
    }

    #[test]
    fn a_tag_line_after_a_line_that_ends_the_game_is_a_quick_cut_point() {
        for (text, cut) in [
            // lichess's movetext
            ("1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 1-0\n\n[Event \"b\"]\n", true),
            ("1. e4 {[%clk 0:01:00]}1-0\n[Event \"b\"]\n", true),
            ("1. e4 { [%eval 0.2] [%clk 0:01:00] } *  \n \n[Event \"b\"]\n", true),
            ("1. e4 e5 1/2-1/2\n[Event \"b\"]\n", true),
            // no result at the end: the game may go on
            ("1. e4 { [%clk 0:03:00] } e5\n[Event \"b\"]\n", false),
            ("1. e4 { [%clk 0:03:00] 1-0 }\n[Event \"b\"]\n", false),
            ("1. e4 { [%clk 0:03:00] } 1-0 { open\n[Event \"b\"]\n", false),
            // a `[` or `;` outside the line's comments: maybe a tag section
            ("[Event \"a\" 1-0\n[Site \"b\"]\n", false),
            ("[Result \"1-0\"]\n[Site \"b\"]\n", false),
            ("1. e4 ; [%clk 0:03:00] 1-0\n[Event \"b\"]\n", false),
            ("x [a] } 1. e4 { [%clk 0:03:00] } 1-0\n[Event \"b\"]\n", false),
            ("1. e4 1-0 [Event \"c\"] 1-0\n[Event \"b\"]\n", false),
            // an escape line
            ("%1. e4 { [x] } 1-0\n[Event \"b\"]\n", false),
            // a `;` comment line: among the tags, maybe
            ("[Event \"a\"]\n; note\n[Site \"b\"]\n", false),
            ("1. e4 e5 1-0\n  ; note\n[Event \"b\"]\n", false),
            // a `{ }` comment line: among the tags, maybe
            ("[Event \"a\"]\n{note}\n[Site \"b\"]\n", false),
            ("1. e4 e5 1-0\n  {note} {more}\n[Event \"b\"]\n", false),
            // one left open on it: the tag line ends it, and starts a game
            ("[Event \"a\"]\n{note} {open\n[Event \"b\"]\n", true),
            // (a `{` in a `;` comment opens none)
            ("[Event \"a\"]\n{note} ; {open\n[Event \"b\"]\n", false),
            // after movetext on its line: the movetext's
            ("1. e4 {note}\n[Event \"b\"]\n", true),
            // a `;` comment after movetext on its line: as before
            ("1. e4 e5 ; note\n[Event \"b\"]\n", true),
            // no `[` at all: as before
            ("1. e4 e5\n[Event \"b\"]\n", true),
        ] {
            assert_eq!(quick_cut_at_last_line(text), cut, "{text:?}");
        }
    }
}
