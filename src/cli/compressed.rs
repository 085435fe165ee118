//! Files written compressed, as the `zstd`, `gzip` and `bzip2` tools
//! write them: `sanfen split --compression`'s parts, `sanfen export`'s CSV
//! and JSON Lines.

use std::io::{self, Write};
use std::path::Path;

use sanfen::pgn::input::Compression;

/// A codec of compressed files.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FileCodec {
    /// Zstandard, with a checksum (`.zst`).
    Zstd,
    /// gzip (`.gz`).
    Gzip,
    /// bzip2 (`.bz2`): the smallest files, and the slowest to write.
    Bzip2,
}

/// A codec and its level.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FileCompression {
    pub codec: FileCodec,
    pub level: u32,
}

impl FileCodec {
    /// The codec's name, as `--compression` takes it.
    pub fn name(self) -> &'static str {
        match self {
            FileCodec::Zstd => "zstd",
            FileCodec::Gzip => "gzip",
            FileCodec::Bzip2 => "bzip2",
        }
    }

    /// The extension of its files, dot included.
    pub fn extension(self) -> &'static str {
        match self {
            FileCodec::Zstd => ".zst",
            FileCodec::Gzip => ".gz",
            FileCodec::Bzip2 => ".bz2",
        }
    }

    /// The codec at its tool's default level.
    pub fn at_default(self) -> FileCompression {
        FileCompression { codec: self, level: self.levels().0 }
    }

    /// Its tool's default level, its lowest and its highest.
    fn levels(self) -> (u32, u32, u32) {
        match self {
            FileCodec::Zstd => (3, 1, 22),
            FileCodec::Gzip => (6, 0, 9),
            FileCodec::Bzip2 => (9, 1, 9),
        }
    }

    /// The codec of data the input found `compression` in.
    pub fn of(compression: Compression) -> FileCodec {
        match compression {
            Compression::Gzip => FileCodec::Gzip,
            Compression::Zstd => FileCodec::Zstd,
            Compression::Bzip2 => FileCodec::Bzip2,
        }
    }

    /// The codec a file name's extension (`.zst`, `.gz`, `.bz2`, in any
    /// case) names, if any.
    pub fn of_path(path: &Path) -> Option<FileCodec> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        [FileCodec::Zstd, FileCodec::Gzip, FileCodec::Bzip2]
            .into_iter()
            .find(|codec| codec.extension()[1..] == extension)
    }

    /// The codec at `level`, or at its tool's default (zstd 3, gzip 6,
    /// bzip2 9).
    ///
    /// # Errors
    ///
    /// `level` is out of the codec's range: what to write.
    pub fn at(self, level: Option<u32>) -> Result<FileCompression, String> {
        let (default, low, high) = self.levels();
        let level = level.unwrap_or(default);
        if !(low..=high).contains(&level) {
            return Err(out_of_range(level, self.name(), low, high));
        }
        Ok(FileCompression { codec: self, level })
    }
}

/// What to write of a `--compression-level` out of its codec's range.
pub fn out_of_range(level: u32, codec: &str, low: u32, high: u32) -> String {
    format!("--compression-level {level}: {codec} levels go from {low} to {high}")
}

/// What to write of a `--compression-level` given to `codec`, which has
/// no levels.
pub fn no_levels(codec: &str) -> String {
    format!("{codec} has no levels: --compression-level is for zstd and gzip")
}

/// A writer of a file's bytes as they are, or compressed.
pub enum Encoder<W: Write> {
    Plain(W),
    Zstd(zstd::Encoder<'static, W>),
    Gzip(flate2::write::GzEncoder<W>),
    Bzip2(bzip2::write::BzEncoder<W>),
}

impl<W: Write> Encoder<W> {
    /// Writes to `inner`, compressed as `compression` says; zstd on
    /// `workers` threads of its own (at least one: zstd then cuts the input
    /// into the same jobs whatever their number, so the file is the same
    /// byte for byte; gzip and bzip2 compress on the caller's thread).
    ///
    /// # Errors
    ///
    /// The compressor cannot be made (or its threads started).
    pub fn new(inner: W, compression: Option<FileCompression>, workers: usize) -> io::Result<Encoder<W>> {
        Ok(match compression {
            None => Encoder::Plain(inner),
            Some(FileCompression { codec: FileCodec::Zstd, level }) => {
                let level = i32::try_from(level).map_err(io::Error::other)?;
                let mut encoder = zstd::Encoder::new(inner, level)?;
                encoder.include_checksum(true)?;
                encoder.multithread(u32::try_from(workers.max(1)).unwrap_or(u32::MAX))?;
                Encoder::Zstd(encoder)
            }
            Some(FileCompression { codec: FileCodec::Gzip, level }) => {
                Encoder::Gzip(flate2::write::GzEncoder::new(inner, flate2::Compression::new(level)))
            }
            Some(FileCompression { codec: FileCodec::Bzip2, level }) => {
                Encoder::Bzip2(bzip2::write::BzEncoder::new(inner, bzip2::Compression::new(level)))
            }
        })
    }

    /// Writes what the compressor holds and its stream's end: the writer
    /// written to.
    ///
    /// # Errors
    ///
    /// Writing fails.
    pub fn finish(self) -> io::Result<W> {
        match self {
            Encoder::Plain(inner) => Ok(inner),
            Encoder::Zstd(encoder) => encoder.finish(),
            Encoder::Gzip(encoder) => encoder.finish(),
            Encoder::Bzip2(encoder) => encoder.finish(),
        }
    }
}

impl<W: Write> Write for Encoder<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Encoder::Plain(inner) => inner.write(buf),
            Encoder::Zstd(encoder) => encoder.write(buf),
            Encoder::Gzip(encoder) => encoder.write(buf),
            Encoder::Bzip2(encoder) => encoder.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Encoder::Plain(inner) => inner.flush(),
            Encoder::Zstd(encoder) => encoder.flush(),
            Encoder::Gzip(encoder) => encoder.flush(),
            Encoder::Bzip2(encoder) => encoder.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codecs_by_extension_and_levels_in_range() {
        for codec in <FileCodec as clap::ValueEnum>::value_variants() {
            assert_eq!(clap::ValueEnum::to_possible_value(codec).unwrap().get_name(), codec.name());
        }
        assert_eq!(FileCodec::of_path(Path::new("a/moves.csv.ZST")), Some(FileCodec::Zstd));
        assert_eq!(FileCodec::of_path(Path::new("games.jsonl.gz")), Some(FileCodec::Gzip));
        assert_eq!(FileCodec::of_path(Path::new("games.pgn.Bz2")), Some(FileCodec::Bzip2));
        assert_eq!(FileCodec::of_path(Path::new("games.jsonl")), None);
        assert_eq!(FileCodec::of_path(Path::new("gz")), None);
        assert_eq!(FileCodec::Zstd.at(None), Ok(FileCompression { codec: FileCodec::Zstd, level: 3 }));
        assert_eq!(FileCodec::Gzip.at(None), Ok(FileCompression { codec: FileCodec::Gzip, level: 6 }));
        assert_eq!(FileCodec::Gzip.at(Some(0)), Ok(FileCompression { codec: FileCodec::Gzip, level: 0 }));
        assert_eq!(FileCodec::Bzip2.at(None), Ok(FileCompression { codec: FileCodec::Bzip2, level: 9 }));
        for codec in <FileCodec as clap::ValueEnum>::value_variants() {
            assert_eq!(Ok(codec.at_default()), codec.at(None));
            let written = Encoder::new(Vec::new(), Some(codec.at_default()), 1).unwrap().finish().unwrap();
            assert_eq!(Compression::of_magic(&written[..written.len().min(10)]).map(FileCodec::of), Some(*codec));
        }
        assert_eq!(Compression::of_magic(b"[Event \"?\"]").map(FileCodec::of), None);
        assert_eq!(FileCodec::Bzip2.at(Some(0)).unwrap_err(), "--compression-level 0: bzip2 levels go from 1 to 9");
        assert_eq!(FileCodec::Zstd.at(Some(0)).unwrap_err(), "--compression-level 0: zstd levels go from 1 to 22");
        assert_eq!(FileCodec::Gzip.at(Some(10)).unwrap_err(), "--compression-level 10: gzip levels go from 0 to 9");
    }

    #[test]
    fn what_is_written_reads_back() {
        let text = b"1. e4 e5 2. Nf3 *\n".repeat(1000);
        let compressions = [
            None,
            Some(FileCodec::Zstd.at(Some(19)).unwrap()),
            Some(FileCodec::Gzip.at(None).unwrap()),
            Some(FileCodec::Bzip2.at(Some(1)).unwrap()),
        ];
        for compression in compressions {
            let mut encoder = Encoder::new(Vec::new(), compression, 2).unwrap();
            encoder.write_all(&text[..5]).unwrap();
            encoder.write_all(&text[5..]).unwrap();
            let written = encoder.finish().unwrap();
            let read = match compression.map(|c| c.codec) {
                None => written.clone(),
                Some(FileCodec::Zstd) => zstd::decode_all(&written[..]).unwrap(),
                Some(FileCodec::Gzip) => {
                    let mut read = Vec::new();
                    io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&written[..]), &mut read).unwrap();
                    read
                }
                Some(FileCodec::Bzip2) => {
                    let mut read = Vec::new();
                    io::Read::read_to_end(&mut bzip2::read::BzDecoder::new(&written[..]), &mut read).unwrap();
                    read
                }
            };
            assert_eq!(read, text, "{compression:?}");
            assert_eq!(written.len() < text.len() / 10, compression.is_some(), "{compression:?}");
        }
    }

    #[test]
    fn zstd_writes_the_same_bytes_whatever_its_threads() {
        // some 12 MB of moves that do not repeat: at level 1, six jobs of 2 MiB
        let mut text = Vec::new();
        let mut seed = 1u64;
        while text.len() < 12 << 20 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            text.extend_from_slice(format!("{}. e4 {{{}}} ", text.len() % 97, seed >> 20).as_bytes());
        }
        let compressed = |workers| {
            let mut encoder = Encoder::new(Vec::new(), Some(FileCodec::Zstd.at(Some(1)).unwrap()), workers).unwrap();
            for piece in text.chunks(300_000 + workers * 1_000) {
                encoder.write_all(piece).unwrap();
            }
            encoder.finish().unwrap()
        };
        let one = compressed(1);
        assert_eq!(zstd::decode_all(&one[..]).unwrap(), text);
        for workers in [0, 2, 3, 8] {
            assert!(compressed(workers) == one, "{workers} workers");
        }
    }
}
