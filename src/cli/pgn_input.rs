//! Where `check` and `fmt` read PGN from: files named on the command line, or
//! standard input for `-` and when no file is named. gzip, zstd and bzip2
//! streams are recognised by their first bytes (whatever the name) and
//! decompressed; input that is clearly not text is told apart at its start.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, BufReader, Read};

use sanfen::pgn::validate::FindingKind;
use sanfen::pgn::{SyntaxErrorKind, looks_utf16};

use super::Error;

/// A compression format, recognised by its magic bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
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

/// One PGN source, opened.
pub struct Source {
    /// The name diagnostics use: the path as given, or `<stdin>`.
    pub name: String,
    /// The bytes, decompressed.
    pub reader: Box<dyn Read + Send>,
    /// The size of the file on disk, when known (for progress).
    pub size: Option<u64>,
    /// The compression the stream was recognised by, if any.
    pub compression: Option<Compression>,
    /// Why the (decompressed) stream is not PGN text, when its first block
    /// says so clearly (see [`not_text`]).
    pub not_text: Option<String>,
}

/// The sources the arguments name, in order; standard input when there is none.
pub fn names(args: &[OsString]) -> Vec<OsString> {
    if args.is_empty() { vec![OsString::from("-")] } else { args.to_vec() }
}

/// Whether a name says the file is compressed (`.gz`, `.zst`, `.bz2`);
/// [`Source::compression`] tells by the content.
pub fn is_compressed(name: &OsStr) -> bool {
    let name = name.to_string_lossy();
    name.ends_with(".gz") || name.ends_with(".zst") || name.ends_with(".bz2")
}

/// The bytes of a stream's start that are looked at for magic bytes.
const MAGIC: usize = 10;

/// The bytes of the decompressed stream's start that are looked at to tell
/// text from binary data.
const SAMPLE: usize = 8192;

/// Opens one source: recognises compression by the first bytes, and looks at
/// the first block of the decompressed stream (without losing a byte: the
/// reader gives the whole stream).
///
/// # Errors
///
/// [`Error::File`] when the file cannot be opened (or a zstd stream cannot
/// start).
pub fn open(name: &OsStr) -> Result<Source, Error> {
    let (display, raw, size): (String, Box<dyn Read + Send>, Option<u64>) = if name == "-" {
        ("<stdin>".to_owned(), Box::new(io::stdin()), None)
    } else {
        let display = name.to_string_lossy().into_owned();
        let file = File::open(name).map_err(|source| Error::File { path: display.clone(), source })?;
        let size = file.metadata().ok().map(|m| m.len());
        (display, Box::new(file), size)
    };
    from_reader(display, raw, size)
}

/// A source over any reader of the raw bytes: compression recognised by the
/// first bytes, the start of the decompressed stream looked at.
///
/// # Errors
///
/// [`Error::File`] when a zstd stream cannot start (a failed read of the
/// first bytes is kept for the first read).
pub fn from_reader(display: String, raw: Box<dyn Read + Send>, size: Option<u64>) -> Result<Source, Error> {
    let file_error = |source| Error::File { path: display.clone(), source };
    let raw = Peeked::new(raw, MAGIC);
    let compression = Compression::of_magic(&raw.head);
    let reader: Box<dyn Read + Send> = match compression {
        Some(Compression::Gzip) => Box::new(flate2::read::MultiGzDecoder::new(BufReader::with_capacity(1 << 16, raw))),
        Some(Compression::Zstd) => Box::new(zstd::stream::read::Decoder::new(raw).map_err(file_error)?),
        Some(Compression::Bzip2) => Box::new(bzip2::read::MultiBzDecoder::new(BufReader::with_capacity(1 << 16, raw))),
        None => Box::new(raw),
    };
    let reader = Peeked::new(reader, SAMPLE);
    let not_text = not_text(&reader.head);
    Ok(Source { name: display, reader: Box::new(reader), size, compression, not_text })
}

/// Why a stream that starts with `head` is not PGN text, when that is clear:
/// UTF-16 text ([`looks_utf16`]: as the reader says it, once for the whole
/// stream, however large), or control bytes (other than whitespace) more
/// than 8 and more than 1 in 100 of `head`. PGN text holds none; a stray
/// one or two are reported as findings.
pub fn not_text(head: &[u8]) -> Option<String> {
    if looks_utf16(head) {
        return Some(FindingKind::Syntax(SyntaxErrorKind::Utf16).to_string());
    }
    let is_control = |b: &u8| (*b < 0x20 && !matches!(*b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)) || *b == 0x7f;
    let controls = head.iter().filter(|b| is_control(b)).count();
    if controls > 8 && controls * 100 > head.len() {
        let first = head.iter().position(is_control).unwrap_or(0);
        return Some(format!(
            "binary data: {controls} of the first {} bytes are control bytes (the first at offset {first})",
            head.len()
        ));
    }
    None
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
        struct Failing(Vec<u8>);
        impl Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::other("broken"));
                }
                let n = buf.len().min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0.drain(..n);
                Ok(n)
            }
        }
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
}
