//! Cutting PGN at game boundaries: byte ranges of a file that workers read on
//! their own, and parts of a stream written one after another.
//!
//! **Ranges.** [`ranges`] gives the byte ranges of `n` parts of an
//! uncompressed file, found from the bytes near each range's offset only
//! (so that a worker, a Spark task, can find its own range without reading
//! the file from its start): range `k` starts at the first certain game
//! boundary ([`is_boundary`]) at or after `k * len / n` and ends where the
//! next one starts; the first starts at 0, the last ends at the file's
//! length; a range is empty when no boundary comes before the next range's
//! offset. Read one after another, each with [`range_reader`] at its
//! [`start_locations`], the ranges give exactly the events (locations
//! included) of the whole file read with [`Reader::new`].
//!
//! ```
//! use std::io::Cursor;
//! use std::num::NonZeroUsize;
//!
//! use sanfen::pgn::split::{range_reader, ranges, start_locations};
//! use sanfen::pgn::{Location, Visitor};
//!
//! struct Lines;
//! impl Visitor for Lines {
//!     type Output = u32;
//!     fn begin_game(&mut self, _at: Location) {}
//!     fn end_game(&mut self, at: Location) -> u32 {
//!         at.line
//!     }
//! }
//!
//! let pgn: &[u8] = b"[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n\n1. d4 d5 *\n";
//! let mut file = Cursor::new(pgn);
//! let ranges = ranges(&mut file, NonZeroUsize::new(2).unwrap())?;
//! assert_eq!(ranges, [0..27, 27..51]);
//! let starts: Vec<u64> = ranges.iter().map(|range| range.start).collect();
//! let locations = start_locations(&mut file, &starts)?;
//! assert_eq!((locations[1].line, locations[1].column), (5, 1));
//! let mut ends = Vec::new();
//! for (range, start) in ranges.iter().zip(locations) {
//!     let bytes = &pgn[range.start as usize..range.end as usize];
//!     let mut reader = range_reader(bytes, start);
//!     while let Some(line) = reader.read_game(&mut Lines) {
//!         ends.push(line);
//!     }
//! }
//! assert_eq!(ends, [3, 7]);
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! **The boundary rule.** A line that starts with a well-formed tag pair
//! starts a game unless the reader is in a game's tag section there (then
//! it may be the next tag of the same game). Whether it is depends on what
//! came before; but only two things the reader knows decide it, whether it
//! is in a `{` comment and whether it is in a tag section, and how those
//! two change over a line depends on them and on the line alone. So the
//! line at `at` is a certain boundary when, from the start of the last line
//! before it that holds more than whitespace, is not a `%` escape line and
//! does not start with a comment, following the lines up to `at` (every
//! one, escape lines, comment lines and blank lines included) from each
//! state the reader can be in (in a comment; in a tag section; neither)
//! never ends in a tag section outside a comment. In practice: a tag line
//! after movetext (a last movetext line that holds `[%clk ...]` commands
//! too), after comments after movetext, or at the file's start (after
//! whitespace, escape lines and a byte order mark alone) is a boundary; a
//! tag line after a tag line is not, nor after comments after a tag line.
//! The rule looks back at most [`LOOK_BACK`] bytes and takes tag lines of
//! at most [`MAX_TAG_LINE`] bytes: beyond those, a line is no boundary
//! (certain, not complete). Games of tags alone
//! (no movetext) have no certain boundary between them: a file of those is
//! one range. A file that looks like UTF-16 at its start ([`looks_utf16`])
//! has no boundary but 0.
//!
//! **Parts.** [`Parts`] cuts a stream (decompressed, of any size, read once)
//! into parts of whole games, each ending at the first point after its
//! target size where the [`Chunker`] cuts; the parts, one after another, are
//! the stream byte for byte (a byte order mark at its start included). Every
//! part holds a game (but for a stream without one): text outside games
//! (blank lines, comments, escape lines) is no part of its own, but in the
//! part before it (before the first game, in the first part).
//!
//! ```
//! use std::num::NonZeroU64;
//!
//! use sanfen::pgn::split::{PartSize, Parts};
//!
//! let pgn: &[u8] = b"[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n\n1. d4 d5 *\n";
//! let mut parts = Parts::new(pgn, PartSize::Bytes(NonZeroU64::new(10).unwrap()));
//! let mut written: Vec<Vec<u8>> = Vec::new();
//! while let Some(piece) = parts.next_piece(Vec::new())? {
//!     if piece.part == written.len() {
//!         written.push(Vec::new());
//!     }
//!     written[piece.part].extend_from_slice(&piece.data);
//! }
//! assert_eq!(written, [&pgn[..27], &pgn[27..]]);
//! # Ok::<(), std::io::Error>(())
//! ```

use std::io::{self, Read, Seek, SeekFrom};
use std::num::{NonZeroU64, NonZeroUsize};
use std::ops::Range;

use crate::pgn::chunk::{Chunker, ScanState};
use crate::pgn::reader::{
    AFTER_BOM, Location, Reader, Skip, Visitor, bom_len, is_recovery_line, looks_utf16, skip_blank, skip_blank_back,
};

/// How far before a line [`is_boundary`] looks, at most: 1 MiB (the last
/// line of a game's movetext before it, or escape lines and blank lines
/// before that, are far shorter).
pub const LOOK_BACK: usize = 1 << 20;

/// The longest tag line (without its line end) [`is_boundary`] takes as a
/// boundary: 64 KiB.
pub const MAX_TAG_LINE: usize = 64 << 10;

/// The bytes of a file's start that tell UTF-16 ([`looks_utf16`]).
const UTF16_HEAD: usize = 64;

/// The most ranges [`ranges`] cuts a file into: one a worker, more than
/// any cluster has (a number mistyped with zeros too many would otherwise
/// take memory and time in proportion, the ranges nearly all empty).
pub const MOST_RANGES: usize = 1_000_000;

/// The limits of the rule (smaller in the unit tests, to test the windows).
#[derive(Copy, Clone, Debug)]
struct Limits {
    look_back: usize,
    /// How much [`boundary_at_or_after`] reads before an offset first (more
    /// when the rule needs it).
    back: usize,
    tag_line: usize,
    /// How much [`boundary_at_or_after`] reads at a time.
    block: usize,
}

const LIMITS: Limits = Limits { look_back: LOOK_BACK, back: 16 << 10, tag_line: MAX_TAG_LINE, block: 64 << 10 };

/// Whether a game certainly starts at `at` in the file whose bytes are
/// `data` (the whole file): 0 always; otherwise a line start whose line
/// starts with a well-formed tag pair, where the reader cannot be in a tag
/// section (the rule in the [module](self)). A file that looks like UTF-16
/// has no boundary but 0.
///
/// ```
/// use sanfen::pgn::split::is_boundary;
///
/// let pgn = b"[Event \"A\"]\n[Site \"?\"]\n\n1. e4 {[%clk 0:03:00]} *\n[Event \"B\"]\n";
/// let boundaries: Vec<usize> = (0..=pgn.len()).filter(|&at| is_boundary(pgn, at)).collect();
/// // not `[Site` (a tag after a tag), but `[Event "B"]` after the movetext
/// assert_eq!(boundaries, [0, 49]);
/// ```
pub fn is_boundary(data: &[u8], at: usize) -> bool {
    at == 0 || (at < data.len() && !looks_utf16(data) && certain(data, true, at, true, LIMITS) == Some(true))
}

/// The rule on a window of a file: `buf` holds the file's bytes from
/// `buf[0]` (the file's first byte when `file_start`) up to at least
/// [`Limits::tag_line`] + 1 bytes after `at`, or to the file's end (then
/// `ends_file`). Only `buf[at - look_back..]` is looked at, so the answer is
/// the same for any such window that holds [`Limits::look_back`] bytes
/// before `at` (or from the file's start). With fewer (a window that starts
/// later), the answer is the same when it comes; `None` when more bytes
/// before are needed to tell.
fn certain(buf: &[u8], file_start: bool, at: usize, ends_file: bool, limits: Limits) -> Option<bool> {
    if at == 0 || buf[at - 1] != b'\n' {
        return Some(false);
    }
    // the line at `at`, whole
    let rest = &buf[at..];
    let line = match memchr::memchr(b'\n', &rest[..rest.len().min(limits.tag_line + 1)]) {
        Some(k) => &rest[..=k],
        None if ends_file && rest.len() <= limits.tag_line => rest,
        None => return Some(false),
    };
    if !is_recovery_line(line, 0) {
        return Some(false);
    }
    let partial = !file_start && at < limits.look_back;
    let lo = at.saturating_sub(limits.look_back);
    let window = &buf[lo..at];
    let starts_file = file_start && lo == 0;
    // The last line that holds more than whitespace and is not an escape
    // line nor starts with a comment; at the file's start, the reader's
    // first state is known. (In a partial window, a line found after a `\n`
    // is the one the whole window gives: going back looks at no byte before
    // that `\n`, an invisible character never holding one.)
    let mut end = window.len();
    let (from, known) = loop {
        let content = skip_blank_back(window, end);
        if content == 0 {
            if partial {
                return None;
            }
            if !starts_file {
                return Some(false);
            }
            break (bom_len(window), true);
        }
        match memchr::memrchr(b'\n', &window[..content]) {
            // (a line that starts with a comment is followed too: in a tag
            // section, it may leave the reader there; the line before it
            // tells more)
            Some(k) if window[k + 1] == b'%' || matches!(window.get(skip_blank(window, k + 1)), Some(b';' | b'{')) => {
                end = k + 1
            }
            Some(k) => break (k + 1, false),
            None if partial => return None,
            None if starts_file => break (bom_len(window), true),
            None => return Some(false),
        }
    };
    // the reader's state there: one of these (never in a comment and in a
    // tag section at once)
    let states: &[(bool, bool)] =
        if known { &[(false, false)] } else { &[(false, false), (true, false), (false, true)] };
    Some(states.iter().all(|&(in_comment, tags)| {
        let mut state = ScanState::assuming(in_comment, tags);
        let mut start = from;
        for newline in memchr::memchr_iter(b'\n', &window[from..]) {
            let end = from + newline + 1;
            state.process_line(&window[start..end]);
            start = end;
        }
        !state.in_tags()
    }))
}

/// The first certain game boundary ([`is_boundary`]) at or after `offset`
/// in `file`, or the file's length when none comes (or `offset` is past
/// it). Reads from a little before `offset` ([`LOOK_BACK`] bytes at most)
/// up to the boundary and its tag line, not the whole file; leaves the
/// file's position anywhere.
///
/// ```
/// use std::io::Cursor;
///
/// use sanfen::pgn::split::boundary_at_or_after;
///
/// let pgn: &[u8] = b"[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n\n1. d4 d5 *\n";
/// let mut file = Cursor::new(pgn);
/// assert_eq!(boundary_at_or_after(&mut file, 1)?, 27);
/// assert_eq!(boundary_at_or_after(&mut file, 27)?, 27);
/// assert_eq!(boundary_at_or_after(&mut file, 28)?, 51);
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
///
/// The file's errors of seeking and reading.
pub fn boundary_at_or_after<R: Read + Seek>(file: &mut R, offset: u64) -> io::Result<u64> {
    let len = file.seek(SeekFrom::End(0))?;
    boundary_in_file(file, offset, len, LIMITS)
}

fn boundary_in_file<R: Read + Seek>(file: &mut R, offset: u64, len: u64, limits: Limits) -> io::Result<u64> {
    if offset == 0 {
        return Ok(0);
    }
    if offset >= len {
        return Ok(len);
    }
    let mut head = Vec::new();
    read_at(file, 0, UTF16_HEAD, &mut head)?;
    if looks_utf16(&head) {
        return Ok(len);
    }
    // `buf` holds the file's bytes from `base`, and at least `back` bytes
    // before `next` (or from the start), where a boundary is looked for.
    let tag_line = limits.tag_line as u64;
    let mut back = limits.back as u64;
    let mut base = offset.saturating_sub(back);
    let mut buf = Vec::new();
    let mut next = offset;
    let mut len = len;
    let mut more = true;
    loop {
        if more {
            // keep what the rule may look at before `next`; read what a
            // tag line at `next` needs, and a block
            let keep = next.saturating_sub(back);
            if keep < base {
                let mut before = Vec::with_capacity((base - keep) as usize + buf.len());
                read_at(file, keep, (base - keep) as usize, &mut before)?;
                before.append(&mut buf);
                buf = before;
            } else {
                buf.drain(..(keep - base) as usize);
            }
            base = keep;
            let end = base + buf.len() as u64;
            let wanted = next.saturating_add(tag_line + 1).max(end + limits.block as u64).min(len);
            let asked = wanted.saturating_sub(end) as usize;
            if read_at(file, end, asked, &mut buf)? < asked {
                // the file is shorter than it was
                len = base + buf.len() as u64;
            }
            more = false;
        }
        let end = base + buf.len() as u64;
        if next >= end {
            // (only at the end: a read gives what a tag line at `next` needs)
            return Ok(len);
        }
        // candidates: a `[` after a `\n`, from `next` on
        let from = (next - base) as usize;
        let Some(at) = memchr::memmem::find(&buf[from - 1..], b"\n[").map(|k| from + k) else {
            if end == len {
                return Ok(len);
            }
            next = end;
            more = true;
            continue;
        };
        let candidate = base + at as u64;
        if end < len && candidate + tag_line + 1 > end {
            // its line is not whole in the window yet
            next = candidate;
            more = true;
            continue;
        }
        match certain(&buf, base == 0, at, end == len, limits) {
            Some(true) => return Ok(candidate),
            Some(false) => next = candidate + 1,
            None => {
                // the rule looks further back
                next = candidate;
                back = limits.look_back as u64;
                more = true;
            }
        }
    }
}

/// Appends up to `n` bytes of `file` from `offset` to `buf`: fewer only at
/// the end of the file. How many.
fn read_at<R: Read + Seek>(file: &mut R, offset: u64, n: usize, buf: &mut Vec<u8>) -> io::Result<usize> {
    file.seek(SeekFrom::Start(offset))?;
    let before = buf.len();
    file.take(n as u64).read_to_end(buf)?;
    Ok(buf.len() - before)
}

/// The byte ranges of `parts` parts of `file` (uncompressed), cut at game
/// boundaries as the [module](self) says: range `k` starts at
/// [`boundary_at_or_after`]`(k * len / parts)` (the first at 0) and ends
/// where the next starts (the last at the file's length). Ranges are empty
/// when boundaries coincide; together they cover the file.
///
/// ```
/// use std::io::Cursor;
/// use std::num::NonZeroUsize;
///
/// use sanfen::pgn::split::ranges;
///
/// let pgn: &[u8] = b"[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n\n1. d4 d5 *\n";
/// let three = ranges(&mut Cursor::new(pgn), NonZeroUsize::new(3).unwrap())?;
/// assert_eq!(three, [0..27, 27..51, 51..51]);
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
///
/// The file's errors of seeking and reading; more than [`MOST_RANGES`]
/// parts ([`io::ErrorKind::InvalidInput`]).
pub fn ranges<R: Read + Seek>(file: &mut R, parts: NonZeroUsize) -> io::Result<Vec<Range<u64>>> {
    if parts.get() > MOST_RANGES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("at most {MOST_RANGES} ranges (one a worker), not {parts}"),
        ));
    }
    let len = file.seek(SeekFrom::End(0))?;
    ranges_in_file(file, parts, len, LIMITS)
}

fn ranges_in_file<R: Read + Seek>(
    file: &mut R,
    parts: NonZeroUsize,
    len: u64,
    limits: Limits,
) -> io::Result<Vec<Range<u64>>> {
    let n = parts.get();
    let mut starts = Vec::with_capacity(n + 1);
    starts.push(0);
    for k in 1..n {
        let offset = (u128::from(len) * k as u128 / n as u128) as u64;
        let previous = starts[k - 1];
        // the first boundary at or after the previous offset is at or after
        // this one too, when it is past this offset
        let start = if previous >= offset { previous } else { boundary_in_file(file, offset, len, limits)? };
        starts.push(start);
    }
    starts.push(len);
    Ok(starts.windows(2).map(|pair| pair[0]..pair[1]).collect())
}

/// The location of each offset of `starts` (in increasing order) in `file`:
/// its line (lines counted from the file's start), its column in bytes
/// (the byte order mark counted), the offset. Reads the file up to the
/// last offset once. With [`range_reader`], where a range is read from.
///
/// ```
/// use std::io::Cursor;
///
/// use sanfen::pgn::Location;
/// use sanfen::pgn::split::start_locations;
///
/// let pgn: &[u8] = b"[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n";
/// let locations = start_locations(&mut Cursor::new(pgn), &[0, 27])?;
/// assert_eq!(locations, [Location { line: 1, column: 1, offset: 0 }, Location { line: 5, column: 1, offset: 27 }]);
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
///
/// The file's errors of seeking and reading; an offset past the file's end
/// or out of order ([`io::ErrorKind::InvalidInput`]).
pub fn start_locations<R: Read + Seek>(file: &mut R, starts: &[u64]) -> io::Result<Vec<Location>> {
    file.seek(SeekFrom::Start(0))?;
    let mut locations = Vec::with_capacity(starts.len());
    let mut block = vec![0; 256 << 10];
    // where `block` starts in the file, and how much of it is read
    let (mut base, mut filled) = (0u64, 0usize);
    // newlines before `base`, and the offset after the last one
    let (mut lines, mut line_start) = (0u64, 0u64);
    let mut previous = 0;
    for &start in starts {
        if start < previous {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("offset {start} comes before the one before it"),
            ));
        }
        previous = start;
        while base + (filled as u64) < start {
            lines += memchr::memchr_iter(b'\n', &block[..filled]).count() as u64;
            if let Some(k) = memchr::memrchr(b'\n', &block[..filled]) {
                line_start = base + k as u64 + 1;
            }
            base += filled as u64;
            filled = read_some(file, &mut block)?;
            if filled == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("offset {start} is past the end of the file"),
                ));
            }
        }
        let within = &block[..(start - base) as usize];
        let newlines = memchr::memchr_iter(b'\n', within).count() as u64;
        let line_start = memchr::memrchr(b'\n', within).map_or(line_start, |k| base + k as u64 + 1);
        let line = u32::try_from(lines + newlines + 1).unwrap_or(u32::MAX);
        let column = u32::try_from(start - line_start + 1).unwrap_or(u32::MAX);
        locations.push(Location { line, column, offset: start });
    }
    Ok(locations)
}

/// Reads what comes (at least a byte unless at the end), retrying on
/// [`io::ErrorKind::Interrupted`].
fn read_some<R: Read>(file: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match file.read(buf) {
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            other => return other,
        }
    }
}

/// A reader of a range's bytes that starts at `start` (from
/// [`start_locations`]): [`Reader::new`] for a range at the file's start
/// (which skips a byte order mark and tells UTF-16), [`Reader::with_start`]
/// otherwise. Its events are those of the whole file's reader for the games
/// of the range.
pub fn range_reader(bytes: &[u8], start: Location) -> Reader<'_> {
    if start.offset == 0 { Reader::new(bytes) } else { Reader::with_start(bytes, start) }
}

/// How big the parts of [`Parts`] are.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PartSize {
    /// At most `count` parts of a stream of `total` bytes: a part that
    /// starts at `s` ends at the first cut point at or after the next of the
    /// offsets `k * total / count` (`k` from 1) past `s`; the last takes what
    /// remains, however long the stream really is. There are fewer parts
    /// when games are larger than a part would be.
    Count {
        /// The most parts.
        count: NonZeroUsize,
        /// The stream's size (decompressed), as known beforehand.
        total: u64,
    },
    /// Parts of at least this many bytes (but the last), each ending at
    /// the first cut point that far from its start.
    Bytes(NonZeroU64),
}

/// A piece of a part: bytes of the stream, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Piece {
    /// The part it belongs to, from 0: the same as the piece before, or the
    /// next one.
    pub part: usize,
    /// Its bytes (never empty).
    pub data: Vec<u8>,
}

/// Cuts a stream into parts of whole games (see the [module](self)): the
/// parts are handed out in pieces (whole games, or pieces of a game too
/// large to hold, which stay in one part), so memory is bounded whatever
/// the parts' size.
#[derive(Debug)]
pub struct Parts<R: Read> {
    chunker: Chunker<R>,
    size: PartSize,
    /// The part of the next piece.
    part: usize,
    /// Where the part of the next piece ends, at the earliest (`u64::MAX`:
    /// at the stream's end).
    target: u64,
    /// The stream's bytes handed out.
    position: u64,
    /// The next piece that holds a game starts a new part.
    next_part: bool,
    /// The part of the last piece holds a game: text before the first game
    /// (whitespace, comments, escape lines) is no part of its own, nor is
    /// text after the last game (it goes with the part before).
    part_has_game: bool,
}

/// The largest chunk asked of the chunker: what a piece holds, about.
const PIECE: u64 = 1 << 20;

impl<R: Read> Parts<R> {
    /// Parts of `input` (decompressed), of `size`.
    pub fn new(input: R, size: PartSize) -> Parts<R> {
        let mut parts = Parts {
            chunker: Chunker::new(input),
            size,
            part: 0,
            target: 0,
            position: 0,
            next_part: false,
            part_has_game: false,
        };
        parts.target = parts.target_from(0);
        parts
    }

    /// Where a part that starts at `start` ends, at the earliest.
    fn target_from(&self, start: u64) -> u64 {
        match self.size {
            PartSize::Bytes(bytes) => start.saturating_add(bytes.get()),
            PartSize::Count { count, total } => {
                // the first k with k * total / count > start
                let (count, total) = (count.get() as u128, u128::from(total));
                if total == 0 {
                    return u64::MAX;
                }
                let k = ((u128::from(start) + 1) * count).div_ceil(total);
                if k >= count { u64::MAX } else { (k * total / count) as u64 }
            }
        }
    }

    /// The next piece, or `None` at the end of the stream. `buffer` is
    /// where its bytes go (cleared first): pass a spent piece's `data` to
    /// reuse it, or `Vec::new()`.
    ///
    /// # Errors
    ///
    /// The stream's read error, once, after the pieces of everything read
    /// before it (as [`Chunker::next_chunk`]).
    pub fn next_piece(&mut self, buffer: Vec<u8>) -> io::Result<Option<Piece>> {
        let left = self.target.saturating_sub(self.position).clamp(1, PIECE);
        self.chunker.set_target(left as usize);
        let Some(chunk) = self.chunker.next_chunk(buffer)? else {
            // a stream of a byte order mark alone: the chunker leaves it out
            let left = self.chunker.bytes_read().saturating_sub(self.position);
            if left == 0 {
                return Ok(None);
            }
            self.position += left;
            let part = if std::mem::take(&mut self.next_part) { self.part + 1 } else { self.part };
            self.part = part;
            return Ok(Some(Piece { part, data: b"\xef\xbb\xbf"[..left as usize].to_vec() }));
        };
        let mut data = chunk.data;
        if self.position == 0 && chunk.start == AFTER_BOM {
            // the chunker leaves out a byte order mark at the stream's start
            data.splice(0..0, *b"\xef\xbb\xbf");
        }
        // (looked for only where it decides something: once a part)
        let holds_game = (self.next_part || !self.part_has_game) && (chunk.oversized.is_some() || holds_a_game(&data));
        if self.next_part && holds_game {
            self.next_part = false;
            self.part += 1;
            self.target = self.target_from(self.position);
        }
        self.part_has_game |= holds_game;
        self.position += data.len() as u64;
        let inside_game = chunk.oversized.is_some_and(|piece| !piece.last);
        if !inside_game && self.part_has_game && self.position >= self.target {
            self.next_part = true;
        }
        Ok(Some(Piece { part: self.part, data }))
    }

    /// The bytes of the stream handed out so far (a byte order mark at its
    /// start included).
    pub fn position(&self) -> u64 {
        self.position
    }
}

/// Whether `data` (whole games, from the start of a line) holds a game, not
/// only whitespace, escape lines and comments: its first game read, its
/// movetext skipped.
fn holds_a_game(data: &[u8]) -> bool {
    /// Skips every game's movetext.
    struct Found;
    impl Visitor for Found {
        type Output = ();
        fn end_tags(&mut self) -> Skip {
            Skip(true)
        }
        fn end_game(&mut self, _at: Location) {}
    }
    Reader::new(data).read_game(&mut Found).is_some()
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    #[test]
    fn ranges_are_at_most_a_million() {
        let pgn: &[u8] = b"1. e4 *\n";
        let err = ranges(&mut io::Cursor::new(pgn), NonZeroUsize::new(MOST_RANGES + 1).unwrap()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(err.to_string(), "at most 1000000 ranges (one a worker), not 1000001");
        let most = ranges(&mut io::Cursor::new(pgn), NonZeroUsize::new(MOST_RANGES).unwrap()).unwrap();
        // (one game: every range empty but one)
        let games: Vec<Range<u64>> = most.iter().filter(|range| !range.is_empty()).cloned().collect();
        assert_eq!((most.len(), games.len(), games[0].clone()), (MOST_RANGES, 1, 0..8));
    }

    const SMALL: Limits = Limits { look_back: 40, back: 9, tag_line: 16, block: 7 };

    /// The boundaries at or after every offset, by the windowed search and
    /// by the rule on the whole input, with `limits`.
    fn both_ways(data: &[u8], limits: Limits) {
        let whole: Vec<usize> = (0..data.len())
            .filter(|&at| at == 0 || (!looks_utf16(data) && certain(data, true, at, true, limits) == Some(true)))
            .collect();
        for offset in 0..=data.len() {
            let expected = whole.iter().copied().find(|&at| at >= offset).unwrap_or(data.len());
            let found = boundary_in_file(&mut Cursor::new(data), offset as u64, data.len() as u64, limits).unwrap();
            assert_eq!(found, expected as u64, "offset {offset} of {:?}", String::from_utf8_lossy(data));
        }
    }

    #[test]
    fn windows_find_what_the_whole_input_says() {
        let inputs: [&[u8]; 6] = [
            b"[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n\n1. d4 d5 *\n[C \"c\"]\n1. c4 *\n",
            b"1. e4 {a\n[%clk 1]\n} e5\n%x\n\n\n%y\n[Event \"B\"]\n1. d4\n[Event \"C\"]\n[Site \"a-very-long-site\"]\n",
            b"\xef\xbb\xbf\n\n[Event \"A\"]\n1. e4 *\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n[B \"b\"]\n",
            b"%only\n[Event \"A\"]\n[Event \"A\"]\n\n[Event \"A\"]\n1. e4 { x\n[Event \"B\"]\n",
            b"",
            b"\n[",
        ];
        for input in inputs {
            both_ways(input, SMALL);
            both_ways(input, LIMITS);
        }
    }

    #[test]
    fn windows_find_what_the_whole_input_says_on_generated_inputs() {
        use proptest::prelude::*;
        use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

        const LINES: [&str; 14] = [
            "[Event \"A\"]\n",
            "[Site \"a long site name\"]\n",
            "1. e4 { [%clk 0:03:00] } e5 1-0\n",
            "1. d4 {open\n",
            "} x\n",
            "; } [Site \"y\"]\n",
            "%e [Event \"x\"]\n",
            "\n",
            "\n\n\n\n\n\n\n\n\n\n",
            "\u{a0}\u{200b}\n",
            "\u{feff}",
            "\r\n",
            "*\n",
            "a longer line of movetext, 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6\n",
        ];
        let config = Config { cases: 3_000, failure_persistence: None, ..Config::default() };
        let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[3; 32]));
        let input = proptest::collection::vec(proptest::sample::select(&LINES[..]), 0..40).prop_map(|l| l.concat());
        let medium = Limits { look_back: 100, back: 30, tag_line: 30, block: 20 };
        runner
            .run(&input, |pgn| {
                both_ways(pgn.as_bytes(), SMALL);
                both_ways(pgn.as_bytes(), medium);
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn the_look_back_and_the_tag_line_are_bounded() {
        // 40 bytes back at most: the movetext line is too far
        let far = b"1. e4 *\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n[B \"b\"]\n";
        let at = far.len() - 8;
        assert_eq!(certain(far, true, at, true, LIMITS), Some(true));
        assert_eq!(certain(far, true, at, true, SMALL), Some(false));
        // 16 bytes of tag line at most
        let long = b"1. e4 *\n[Event \"1234567\"]\n[Event \"12345\"]\n";
        assert_eq!(certain(long, true, 8, true, SMALL), Some(false));
        assert_eq!(certain(long, true, 8, true, LIMITS), Some(true));
        // the line after it: a tag after a tag
        assert_eq!(certain(long, true, 26, true, LIMITS), Some(false));
    }

    #[test]
    fn targets_of_a_count_of_parts() {
        let parts = |count: usize, total: u64| {
            Parts::new(&b""[..], PartSize::Count { count: NonZeroUsize::new(count).unwrap(), total })
        };
        let p = parts(3, 10);
        // offsets 3 and 6, then the end
        assert_eq!([0, 2, 3, 5, 6, 9, 10].map(|s| p.target_from(s)), [3, 3, 6, 6, u64::MAX, u64::MAX, u64::MAX]);
        let p = parts(4, 2);
        // offsets 0, 1, 1
        assert_eq!([0, 1].map(|s| p.target_from(s)), [1, u64::MAX]);
        assert_eq!(parts(1, 10).target_from(0), u64::MAX);
        assert_eq!(parts(2, 0).target_from(0), u64::MAX);
    }
}
