//! Where PGN comes from: a file or any reader, decompressed when its first
//! bytes say it is compressed (gzip, zstd, bzip2, whatever the name), and
//! told apart from data that is clearly not text at its start.
//!
//! ```
//! use std::io::Read;
//!
//! use sanfen::pgn::input::Input;
//!
//! let mut input = Input::from_reader(&b"1. e4 e5 *\n"[..], None)?;
//! assert_eq!((input.compression, input.not_text.is_none()), (None, true));
//! let mut text = String::new();
//! input.reader.read_to_string(&mut text).unwrap();
//! assert_eq!(text, "1. e4 e5 *\n");
//! # Ok::<(), sanfen::pgn::input::InputError>(())
//! ```
//!
//! Decompression needs the `compression` feature (on with `cli`); without
//! it, a compressed stream is refused with an [`InputError`] that says so.
//! Nothing is lost by looking at the start: the reader gives every byte of
//! the (decompressed) stream.

use core::fmt::Write as _;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::Path;

use crate::pgn::reader::{Location, SyntaxErrorKind, looks_utf16};
use crate::pgn::validate::FindingKind;

/// A file's name as messages and tables show it: as it is when it is
/// UTF-8, each byte that is not as `\xNN`, as a file's own bytes are shown
/// on a terminal (`Path::display` shows U+FFFD instead: two names
/// differing there would look the same).
///
/// ```
/// use std::ffi::OsStr;
/// use std::os::unix::ffi::OsStrExt;
///
/// use sanfen::pgn::shown_name;
///
/// assert_eq!(shown_name(OsStr::new("games/café.pgn")), "games/café.pgn");
/// assert_eq!(shown_name(OsStr::from_bytes(b"caf\xe9.pgn")), "caf\\xe9.pgn");
/// assert_eq!(shown_name(OsStr::from_bytes(b"caf\xc3.pgn")), "caf\\xc3.pgn");
/// ```
pub fn shown_name(name: &std::ffi::OsStr) -> String {
    if let Some(name) = name.to_str() {
        return name.to_owned();
    }
    let mut shown = String::with_capacity(name.len() + 8);
    for chunk in name.as_encoded_bytes().utf8_chunks() {
        shown.push_str(chunk.valid());
        for byte in chunk.invalid() {
            let _ = write!(shown, "\\x{byte:02x}");
        }
    }
    shown
}

/// A compression format, recognised by its magic bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// gzip (`1f 8b`), members one after the other read as one stream.
    Gzip,
    /// Zstandard (`28 b5 2f fd`), frames one after the other.
    Zstd,
    /// bzip2 (`BZh` and a block size digit, then a block or the end-of-stream
    /// magic), streams one after the other.
    Bzip2,
}

impl Compression {
    /// The format whose magic bytes `head` starts with (`head` holds the
    /// first 10 bytes of the stream, or all of a shorter one).
    ///
    /// ```
    /// use sanfen::pgn::input::Compression;
    ///
    /// assert_eq!(Compression::of_magic(b"\x1f\x8b\x08\0\0\0\0\0\0\x03"), Some(Compression::Gzip));
    /// assert_eq!(Compression::of_magic(b"[Event \"?\"]"), None);
    /// ```
    pub fn of_magic(head: &[u8]) -> Option<Compression> {
        const BZIP2_BLOCK: [u8; 6] = [0x31, 0x41, 0x59, 0x26, 0x53, 0x59];
        const BZIP2_END: [u8; 6] = [0x17, 0x72, 0x45, 0x38, 0x50, 0x90];
        match head {
            [0x1f, 0x8b, ..] => Some(Compression::Gzip),
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Some(Compression::Zstd),
            [b'B', b'Z', b'h', b'1'..=b'9', rest @ ..]
                if rest.get(..6).is_some_and(|magic| magic == BZIP2_BLOCK || magic == BZIP2_END) =>
            {
                Some(Compression::Bzip2)
            }
            _ => None,
        }
    }

    /// `gzip`, `zstd`, `bzip2`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
            Compression::Bzip2 => "bzip2",
        }
    }
}

impl core::fmt::Display for Compression {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a stream is not PGN text, when its start says so clearly (see
/// [`NotText::of_start`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotText {
    /// It looks like UTF-16 text ([`looks_utf16`]).
    Utf16,
    /// Too many control bytes (other than whitespace).
    Binary {
        /// The control bytes among the first `sample` bytes.
        controls: usize,
        /// The bytes looked at.
        sample: usize,
        /// The offset of the first control byte.
        first: usize,
    },
}

impl NotText {
    /// Why a stream that starts with `head` is not PGN text, when that is
    /// clear: UTF-16 text ([`looks_utf16`]: as the reader says it, once for
    /// the whole stream, however large), or control bytes (other than
    /// whitespace) more than 8 and more than 1 in 100 of `head`. PGN text
    /// holds none; a stray one or two are reported as findings by the
    /// validator.
    ///
    /// ```
    /// use sanfen::pgn::input::NotText;
    ///
    /// assert_eq!(NotText::of_start(b"1. e4 \x1b[31m e5 *\n"), None);
    /// assert_eq!(NotText::of_start(&[0; 100]), Some(NotText::Binary { controls: 100, sample: 100, first: 0 }));
    /// ```
    pub fn of_start(head: &[u8]) -> Option<NotText> {
        if looks_utf16(head) {
            return Some(NotText::Utf16);
        }
        let is_control = |b: &u8| (*b < 0x20 && !matches!(*b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)) || *b == 0x7f;
        let controls = head.iter().filter(|b| is_control(b)).count();
        if controls > 8 && controls * 100 > head.len() {
            let first = head.iter().position(is_control).unwrap_or(0);
            return Some(NotText::Binary { controls, sample: head.len(), first });
        }
        None
    }
}

impl core::fmt::Display for NotText {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            NotText::Utf16 => write!(f, "{}", FindingKind::Syntax(SyntaxErrorKind::Utf16)),
            NotText::Binary { controls, sample, first } => write!(
                f,
                "binary data: {controls} of the first {sample} bytes are control bytes (the first at offset {first})"
            ),
        }
    }
}

/// An input that cannot be opened: the file (or a decompressor) cannot
/// start, or the stream is compressed and decompression is not built in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The kind of the I/O error ([`io::ErrorKind::Unsupported`] for a
    /// compressed stream without the `compression` feature).
    pub kind: io::ErrorKind,
    /// What the system or the decompressor said.
    pub message: String,
}

impl InputError {
    /// The error of an input that could not be opened: its kind and what
    /// the system said.
    pub fn from_io(err: &io::Error) -> InputError {
        InputError { kind: err.kind(), message: err.to_string() }
    }

    /// The threads that would read an input cannot start.
    pub(crate) fn threads(err: io::Error) -> InputError {
        InputError { kind: err.kind(), message: format!("cannot start the threads: {err}") }
    }
}

impl core::fmt::Display for InputError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InputError {}

impl From<InputError> for io::Error {
    fn from(err: InputError) -> io::Error {
        io::Error::new(err.kind, err.message)
    }
}

/// The file at `path`, opened for reading; a directory is refused (where
/// reading one would fail with the system's words).
fn open_file(path: &Path) -> Result<File, InputError> {
    let file = File::open(path).map_err(|err| InputError::from_io(&err))?;
    if file.metadata().is_ok_and(|metadata| metadata.is_dir()) {
        return Err(InputError {
            kind: io::ErrorKind::IsADirectory,
            message: "a directory, not a PGN file".to_owned(),
        });
    }
    Ok(file)
}

/// A read that failed part way: where in the (decompressed) stream, and
/// why. What was read before it was checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The bytes of the stream read (after decompression) before the
    /// failure.
    pub offset: u64,
    /// The compression of the stream, if any.
    pub compression: Option<Compression>,
    /// The kind of the I/O error.
    pub kind: io::ErrorKind,
    /// What the system or the decompressor said.
    pub message: String,
}

impl ReadError {
    /// The failure `err` of a stream of `compression` after `offset` bytes.
    pub fn new(offset: u64, compression: Option<Compression>, err: &io::Error) -> ReadError {
        ReadError { offset, compression, kind: err.kind(), message: err.to_string() }
    }
}

impl core::fmt::Display for ReadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "read failed at byte {}", self.offset)?;
        if let Some(compression) = self.compression {
            write!(f, " of the {compression} stream, decompressed")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ReadError {}

/// One PGN input, opened: its bytes decompressed, and what its start says.
pub struct Input {
    /// The bytes, decompressed, from the first.
    pub reader: Box<dyn Read + Send>,
    /// The size of the file on disk, when known (for progress).
    pub size: Option<u64>,
    /// The compression the stream was recognised by, if any.
    pub compression: Option<Compression>,
    /// Why the (decompressed) stream is not PGN text, when its first block
    /// says so clearly ([`NotText::of_start`]).
    pub not_text: Option<NotText>,
    /// Where the first byte is in the stream the input is a part of: the
    /// stream's start, but for a byte range ([`Input::open_range`]).
    pub start: Location,
}

impl core::fmt::Debug for Input {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Input")
            .field("size", &self.size)
            .field("compression", &self.compression)
            .field("not_text", &self.not_text)
            .finish_non_exhaustive()
    }
}

/// The bytes of a stream's start that are looked at for magic bytes.
const MAGIC: usize = 10;

/// The bytes of the decompressed stream's start that are looked at to tell
/// text from binary data.
const SAMPLE: usize = 8192;

impl Input {
    /// Opens the file at `path` (its size known), as [`Input::from_reader`].
    ///
    /// # Errors
    ///
    /// The file cannot be opened, or a decompressor cannot start (see
    /// [`Input::from_reader`]).
    pub fn open(path: impl AsRef<Path>) -> Result<Input, InputError> {
        let file = open_file(path.as_ref())?;
        let size = file.metadata().ok().map(|m| m.len());
        Input::from_reader(file, size)
    }

    /// An input over any reader of the raw bytes: compression recognised by
    /// the first bytes, the start of the decompressed stream looked at.
    /// `size` is the size of the raw stream, when known (for progress).
    /// The input ends at the reader's first end, though a terminal's goes
    /// on after a Ctrl-D.
    ///
    /// # Errors
    ///
    /// A zstd stream cannot start, or the stream is compressed and the
    /// `compression` feature is off ([`io::ErrorKind::Unsupported`]). A read
    /// error met on the first bytes is not one: it comes on the first read.
    pub fn from_reader(raw: impl Read + Send + 'static, size: Option<u64>) -> Result<Input, InputError> {
        let raw = Peeked::new(EndStays::new(raw), MAGIC);
        let compression = Compression::of_magic(&raw.head);
        let reader = match compression {
            None => Box::new(raw),
            Some(compression) => decompress(raw, compression)?,
        };
        let reader = Peeked::new(reader, SAMPLE);
        let not_text = NotText::of_start(&reader.head);
        Ok(Input {
            reader: Box::new(reader),
            size,
            compression,
            not_text,
            start: Location { line: 1, column: 1, offset: 0 },
        })
    }

    /// The bytes `range` of the uncompressed file at `path`, whose first
    /// byte is at `start` in the file (its line; see
    /// [`crate::pgn::split`] for ranges that start at a game boundary, and
    /// their locations): read as a part of the file, the games' locations
    /// are the file's.
    ///
    /// # Errors
    ///
    /// The file cannot be opened or read, or it is compressed (a range of
    /// compressed bytes cannot be read on its own:
    /// [`io::ErrorKind::InvalidInput`]).
    pub fn open_range(path: impl AsRef<Path>, range: Range<u64>, start: Location) -> Result<Input, InputError> {
        let mut file = open_file(path.as_ref())?;
        let mut head = [0; MAGIC];
        let read = read_up_to(&mut file, &mut head).map_err(|err| InputError::from_io(&err))?;
        if let Some(compression) = Compression::of_magic(&head[..read]) {
            return Err(InputError {
                kind: io::ErrorKind::InvalidInput,
                message: format!("{compression} data: a byte range of a compressed file cannot be read on its own"),
            });
        }
        Input::of_range(file, range, start)
    }

    /// The bytes `range` of an uncompressed file read by `reader` (which
    /// is sought to `range.start`), the first at `start` in the file, as
    /// [`Input::open_range`] reads one: for a file that is not on a file
    /// system sanfen opens (a remote store read through an object). The
    /// bytes are taken as they are: no compression is recognised in a
    /// range. A file that ends before the range does (cut short since its
    /// ranges were found) is a read error ([`io::ErrorKind::UnexpectedEof`]),
    /// not a range with fewer games.
    ///
    /// # Errors
    ///
    /// The reader cannot seek to the range's start.
    pub fn of_range(
        mut reader: impl Read + Seek + Send + 'static,
        range: Range<u64>,
        start: Location,
    ) -> Result<Input, InputError> {
        reader.seek(SeekFrom::Start(range.start)).map_err(|err| InputError::from_io(&err))?;
        let size = range.end.saturating_sub(range.start);
        let reader = Peeked::new(WholeRange { inner: reader, range, read: 0 }, SAMPLE);
        let not_text = NotText::of_start(&reader.head);
        Ok(Input { reader: Box::new(reader), size: Some(size), compression: None, not_text, start })
    }
}

/// A reader of a file's bytes `range`, from its start: it ends at the
/// range's end, and fails if the file ends first.
struct WholeRange<R> {
    inner: R,
    range: Range<u64>,
    /// The bytes read so far.
    read: u64,
}

impl<R: Read> Read for WholeRange<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.range.end.saturating_sub(self.range.start) - self.read;
        if left == 0 || buf.is_empty() {
            return Ok(0);
        }
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "the file ends at byte {}, before the end of its range {}..{}: it was cut short since its ranges \
                     were found",
                    self.range.start + self.read,
                    self.range.start,
                    self.range.end
                ),
            ));
        }
        self.read += n as u64;
        Ok(n)
    }
}

/// Reads into `buf` until it is full or the reader ends: the bytes read.
fn read_up_to(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut read = 0;
    while read < buf.len() {
        match reader.read(&mut buf[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(read)
}

/// The decompressed stream of `raw`.
#[cfg(feature = "compression")]
fn decompress(raw: impl Read + Send + 'static, compression: Compression) -> Result<Box<dyn Read + Send>, InputError> {
    use std::io::BufReader;
    Ok(match compression {
        Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(BufReader::with_capacity(1 << 16, raw))),
        Compression::Zstd => Box::new(zstd::stream::read::Decoder::new(raw).map_err(|err| InputError::from_io(&err))?),
        Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(BufReader::with_capacity(1 << 16, raw))),
    })
}

/// Without the `compression` feature: a compressed stream is refused.
#[cfg(not(feature = "compression"))]
fn decompress(_raw: impl Read + Send + 'static, compression: Compression) -> Result<Box<dyn Read + Send>, InputError> {
    Err(InputError {
        kind: io::ErrorKind::Unsupported,
        message: format!("{compression} data: decompression needs sanfen's `compression` feature"),
    })
}

/// A reader that stays at its end once it reached it. A terminal (standard
/// input, `/dev/tty`, a path to either) ends once per Ctrl-D, and an input
/// is read ahead (for magic bytes and binary data) before the reading
/// proper: without this, each of those reads would wait for a Ctrl-D of its
/// own, and take the text typed after the first as more input.
struct EndStays<R> {
    inner: R,
    ended: bool,
}

impl<R> EndStays<R> {
    fn new(inner: R) -> EndStays<R> {
        EndStays { inner, ended: false }
    }
}

impl<R: Read> Read for EndStays<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ended {
            return Ok(0);
        }
        let read = self.inner.read(buf)?;
        self.ended = read == 0 && !buf.is_empty();
        Ok(read)
    }
}

/// A reader whose first bytes were read ahead: it gives them, then the
/// rest. A read error met while reading ahead comes in its place.
struct Peeked<R> {
    head: Vec<u8>,
    at: usize,
    error: Option<io::Error>,
    inner: R,
}

impl<R: Read> Peeked<R> {
    /// Reads up to `n` bytes ahead.
    fn new(mut inner: R, n: usize) -> Peeked<R> {
        let mut head = vec![0; n];
        let mut filled = 0;
        let mut error = None;
        while filled < n {
            match inner.read(&mut head[filled..]) {
                Ok(0) => break,
                Ok(read) => filled += read,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => {
                    error = Some(err);
                    break;
                }
            }
        }
        head.truncate(filled);
        Peeked { head, at: 0, error, inner }
    }
}

impl<R: Read> Read for Peeked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at < self.head.len() {
            let n = buf.len().min(self.head.len() - self.at);
            buf[..n].copy_from_slice(&self.head[self.at..self.at + n]);
            self.at += n;
            if self.at == self.head.len() {
                self.head = Vec::new();
                self.at = 0;
            }
            return Ok(n);
        }
        if let Some(err) = self.error.take() {
            return Err(err);
        }
        self.inner.read(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_is_read_whole_or_fails() {
        use std::io::Cursor;
        let file: Vec<u8> = (0..100).collect();
        let at = Location { line: 1, column: 1, offset: 10 };
        let mut read = Vec::new();
        Input::of_range(Cursor::new(file.clone()), 10..50, at).unwrap().reader.read_to_end(&mut read).unwrap();
        assert_eq!(read, &file[10..50]);
        // the file ends at 100, before the range's end: an error, after
        // the bytes there were
        let mut reader = Input::of_range(Cursor::new(file.clone()), 10..200, at).unwrap().reader;
        let mut read = vec![0; 300];
        let mut filled = 0;
        let err = loop {
            match reader.read(&mut read[filled..]) {
                Ok(n) => filled += n,
                Err(err) => break err,
            }
        };
        assert_eq!(&read[..filled], &file[10..]);
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        assert_eq!(
            err.to_string(),
            "the file ends at byte 100, before the end of its range 10..200: it was cut short since its ranges were \
             found"
        );
    }

    #[test]
    fn magic_bytes_name_the_compression() {
        assert_eq!(Compression::of_magic(b"\x1f\x8b\x08\0\0\0\0\0\0\x03"), Some(Compression::Gzip));
        assert_eq!(Compression::of_magic(b"\x28\xb5\x2f\xfd\x04\0"), Some(Compression::Zstd));
        assert_eq!(Compression::of_magic(b"BZh91AY&SY"), Some(Compression::Bzip2));
        assert_eq!(Compression::of_magic(b"BZh9\x17\x72\x45\x38\x50\x90"), Some(Compression::Bzip2));
        // text that starts like bzip2 is text
        assert_eq!(Compression::of_magic(b"BZh9 is no"), None);
        assert_eq!(Compression::of_magic(b"[Event \"?\"]"), None);
        assert_eq!(Compression::of_magic(b"\x1f"), None);
    }

    #[test]
    fn control_bytes_tell_binary_data() {
        let not_text = |head: &[u8]| NotText::of_start(head).map(|reason| reason.to_string());
        assert_eq!(not_text(b"[Event \"?\"]\r\n\t1. e4 \x0c*\n"), None);
        // a stray control byte or two is a finding, not binary data
        assert_eq!(not_text(b"1. e4 \x1b[31m e5 \x07*\n"), None);
        assert_eq!(
            not_text(&[0; 100]).as_deref(),
            Some("binary data: 100 of the first 100 bytes are control bytes (the first at offset 0)")
        );
        assert_eq!(
            not_text(b"\xff\xfe[\0E\0").as_deref(),
            Some("input looks like UTF-16, which PGN never is; convert it to UTF-8")
        );
    }

    #[test]
    fn peeked_reader_gives_every_byte_then_the_error() {
        use crate::pgn::test_io::Failing;
        let mut peeked = Peeked::new(Failing(b"abcdef".to_vec()), 4);
        assert_eq!(peeked.head, b"abcd");
        let mut all = Vec::new();
        let err = peeked.read_to_end(&mut all).unwrap_err();
        assert_eq!((all.as_slice(), err.to_string().as_str()), (&b"abcdef"[..], "broken"));
        let mut peeked = Peeked::new(Failing(b"ab".to_vec()), 4);
        assert_eq!(peeked.head, b"ab");
        let mut all = Vec::new();
        assert!(peeked.read_to_end(&mut all).is_err());
        assert_eq!(all, b"ab");
    }

    /// Like a terminal: each chunk a read, an empty one an end (Ctrl-D),
    /// with more text typed after it.
    struct Terminal(Vec<&'static [u8]>);

    impl Read for Terminal {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if buf.is_empty() || self.0.is_empty() {
                return Ok(0);
            }
            let chunk = self.0.remove(0);
            buf[..chunk.len()].copy_from_slice(chunk);
            Ok(chunk.len())
        }
    }

    #[test]
    fn end_of_input_stays_after_the_first_end() {
        let mut reader = EndStays::new(Terminal(vec![b"1. e4", b"", b"more"]));
        let mut buf = [0; 16];
        assert_eq!(reader.read(&mut buf).unwrap(), 5);
        assert_eq!(reader.read(&mut buf).unwrap(), 0);
        assert_eq!(reader.read(&mut buf).unwrap(), 0);
        // an empty buffer says nothing about the end
        let mut reader = EndStays::new(Terminal(vec![b"x"]));
        assert_eq!(reader.read(&mut []).unwrap(), 0);
        assert_eq!(reader.read(&mut buf).unwrap(), 1);
        assert_eq!(reader.read(&mut buf).unwrap(), 0);
    }

    #[test]
    fn an_input_ends_at_its_first_end_though_read_ahead() {
        // the text typed after the first Ctrl-D is not the input's (the
        // reads ahead for magic bytes and binary data each met an end)
        let mut input = Input::from_reader(Terminal(vec![b"1. e4", b"", b"e5 *\n", b"", b"Nf3"]), None).unwrap();
        let mut all = Vec::new();
        input.reader.read_to_end(&mut all).unwrap();
        assert_eq!(all, b"1. e4");
        assert_eq!(input.reader.read(&mut [0; 8]).unwrap(), 0);
    }

    #[test]
    fn read_error_says_where_in_which_stream() {
        let err = io::Error::new(io::ErrorKind::UnexpectedEof, "unexpected end of file");
        assert_eq!(
            ReadError::new(120, Some(Compression::Gzip), &err).to_string(),
            "read failed at byte 120 of the gzip stream, decompressed: unexpected end of file"
        );
        assert_eq!(ReadError::new(7, None, &err).to_string(), "read failed at byte 7: unexpected end of file");
    }

    #[test]
    fn a_directory_is_refused_when_opened() {
        let directory = std::env::temp_dir();
        let start = Location { line: 1, column: 1, offset: 0 };
        for err in [Input::open(&directory).err(), Input::open_range(&directory, 0..10, start).err()] {
            let err = err.expect("an error");
            assert_eq!(err.kind, io::ErrorKind::IsADirectory);
            assert_eq!(err.to_string(), "a directory, not a PGN file");
        }
    }

    #[cfg(not(feature = "compression"))]
    #[test]
    fn compressed_input_without_the_feature_is_refused() {
        let err = Input::from_reader(&b"\x1f\x8b\x08\0\0\0\0\0\0\x03"[..], None).unwrap_err();
        assert_eq!(err.kind, io::ErrorKind::Unsupported);
        assert_eq!(err.to_string(), "gzip data: decompression needs sanfen's `compression` feature");
    }
}
