//! `sanfen split`: a PGN file cut at game boundaries, into parts written as
//! files ([`sanfen::pgn::split::Parts`]) or into byte ranges printed for
//! workers that read them on their own ([`sanfen::pgn::split::ranges`]).
//!
//! Parts are written as new files through a temporary file each
//! ([`NewFile`]: removed on an error and on SIGINT, SIGTERM, SIGHUP), and
//! never over an existing file: every name the run could write is looked
//! for before the first byte is written.

use std::ffi::{OsStr, OsString};
use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Write};
use std::num::{NonZeroU64, NonZeroUsize};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use sanfen::pgn::input::{Compression, Input, NotText, ReadError, shown_name};
use sanfen::pgn::parallel::threads_or_cores;
use sanfen::pgn::split::{MOST_RANGES, PartSize, Parts, ranges};

use super::check::escape;
use super::compressed::{Encoder, FileCodec, FileCompression};
use super::pgn_input;
use super::rewrite::{self, NewFile};
use super::terminal::json_to_writer;
use super::{Error, ExitCode};

/// `sanfen split`'s arguments.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("how").required(true).args(["parts", "size", "ranges"])))]
pub struct Args {
    /// Write N parts of about the same size (fewer when games are larger
    /// than a part would be): part k ends at the first game start found at
    /// or after k * SIZE / N, SIZE the input's size (decompressed: a
    /// compressed file is read twice, first to count its bytes).
    #[arg(long, value_name = "N", value_parser = parse_part_count)]
    parts: Option<NonZeroUsize>,
    /// Write parts of at least BYTES each (but the last), each ending at the
    /// first game start found that far from its start: a number with an
    /// optional unit, K, M, G, T (or KiB, MiB, GiB, TiB: powers of 1024) or
    /// KB, MB, GB, TB (powers of 1000).
    #[arg(long, value_name = "BYTES", value_parser = parse_size)]
    size: Option<NonZeroU64>,
    /// Print the byte ranges of N parts of an uncompressed file, one `START
    /// END` line each (END exclusive), without writing them: range k starts
    /// at the first certain game boundary at or after k * SIZE / N (the
    /// first at 0) and ends where the next starts (the last at SIZE); a
    /// range is empty when no boundary comes before the next one's offset.
    /// At most 1000000.
    #[arg(long, value_name = "N", value_parser = parse_range_count)]
    ranges: Option<NonZeroUsize>,
    /// With `--ranges`: one JSON array of `{"start": START, "end": END}` on
    /// standard output instead.
    #[arg(long, conflicts_with_all = ["parts", "size"])]
    json: bool,
    /// Where the parts are written [default: the current directory; made
    /// when missing, and removed again when no part is written], as
    /// `DIR/STEM-001.pgn`, `DIR/STEM-002.pgn`, ... (STEM: FILE's name less
    /// `.gz`, `.zst`, `.bz2` and `.pgn`; at least three digits, as many as
    /// the largest part number the run may write).
    #[arg(long, short, value_name = "DIR", conflicts_with = "ranges")]
    output: Option<PathBuf>,
    /// Write the parts compressed, as `STEM-001.pgn.zst`, `STEM-001.pgn.gz`
    /// or `STEM-001.pgn.bz2`: sizes and offsets are still those of the PGN
    /// text.
    #[arg(long, value_enum, value_name = "CODEC", conflicts_with = "ranges")]
    compression: Option<FileCodec>,
    /// The level of `--compression zstd` (1 to 22, default 3), `gzip` (0 to
    /// 9, default 6) or `bzip2` (1 to 9, default 9), as the `zstd`, `gzip`
    /// and `bzip2` tools have them.
    #[arg(long, value_name = "N", requires = "compression")]
    compression_level: Option<u32>,
    /// Threads that compress zstd parts [default: one per core]; the parts
    /// are the same byte for byte whatever their number. (gzip and bzip2
    /// compress on one thread, and plain parts need none.)
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = super::parse_jobs)]
    jobs: Option<u32>,
    /// The PGN file: plain, or compressed (gzip, zstd, bzip2, told by its
    /// first bytes; `--ranges` refuses them). Not standard input.
    #[arg(value_name = "FILE")]
    file: OsString,
}

/// `sanfen split`.
///
/// # Errors
///
/// The file cannot be read, is not a regular file, is not PGN text, is
/// compressed (`--ranges`); a part exists already or cannot be written
/// ([`Error::File`]); standard input named ([`Error::Usage`]); standard
/// output failing ([`Error::Output`]).
pub fn run(args: &Args) -> Result<ExitCode, Error> {
    if args.file == "-" {
        return Err(Error::Usage(
            "split needs a file: standard input cannot be read twice nor by ranges (save it to a file first)".into(),
        ));
    }
    pgn_input::refuse_stdout_input(core::slice::from_ref(&args.file))?;
    let name = shown_name(&args.file);
    let file_error = |source| Error::File { path: name.clone(), source };
    // never opened unless a regular file (a FIFO would block)
    let metadata = fs::metadata(&args.file).map_err(file_error)?;
    if metadata.is_dir() {
        return Err(file_error(io::Error::other("a directory, not a PGN file")));
    }
    if !metadata.is_file() {
        return Err(file_error(io::Error::other("not a regular file: split reads files it can read again")));
    }
    if let Some(n) = args.ranges {
        return print_ranges(&args.file, &name, n, args.json);
    }
    let size = match (args.parts, args.size) {
        (Some(count), _) => Size::Parts(count),
        (None, Some(bytes)) => Size::Bytes(bytes),
        (None, None) => return Err(Error::Usage("split needs --parts, --size or --ranges".into())),
    };
    let compression =
        args.compression.map(|codec| codec.at(args.compression_level)).transpose().map_err(Error::Usage)?;
    let workers = threads_or_cores(args.jobs.map_or(0, |n| n as usize));
    write_parts(&args.file, &name, size, args.output.as_deref(), compression, workers)
}

/// `--ranges N`: the ranges on standard output.
fn print_ranges(path: &OsStr, name: &str, n: NonZeroUsize, json: bool) -> Result<ExitCode, Error> {
    let file_error = |source| Error::File { path: name.to_owned(), source };
    let mut file = File::open(path).map_err(file_error)?;
    let mut head = Vec::new();
    (&mut file).take(8192).read_to_end(&mut head).map_err(file_error)?;
    if let Some(compression) = Compression::of_magic(&head[..head.len().min(10)]) {
        return Err(file_error(io::Error::other(format!(
            "{compression} data: --ranges needs an uncompressed file (a byte range of compressed data cannot be read \
             on its own); split it into files with --parts or --size, or decompress it first"
        ))));
    }
    if let Some(reason) = NotText::of_start(&head) {
        return Err(file_error(io::Error::new(io::ErrorKind::InvalidData, format!("not PGN text: {reason}"))));
    }
    let ranges = ranges(&mut file, n).map_err(file_error)?;
    let mut out = BufWriter::new(io::stdout().lock());
    if json {
        /// A range as JSON, its fields in this order.
        #[derive(serde::Serialize)]
        struct Range {
            start: u64,
            end: u64,
        }
        let array: Vec<Range> = ranges.iter().map(|range| Range { start: range.start, end: range.end }).collect();
        json_to_writer(&mut out, &array).map_err(io::Error::from).map_err(Error::Output)?;
        writeln!(out).map_err(Error::Output)?;
    } else {
        for range in &ranges {
            writeln!(out, "{} {}", range.start, range.end).map_err(Error::Output)?;
        }
    }
    out.flush().map_err(Error::Output)?;
    Ok(ExitCode::Valid)
}

/// What `--parts` or `--size` asks for.
#[derive(Copy, Clone, Debug)]
enum Size {
    Parts(NonZeroUsize),
    Bytes(NonZeroU64),
}

/// `--parts N` or `--size BYTES`: the parts written (compressed as
/// `written_as` says, zstd on `workers` threads), one line each on standard
/// output.
fn write_parts(
    path: &OsStr,
    name: &str,
    size: Size,
    output: Option<&Path>,
    written_as: Option<FileCompression>,
    workers: usize,
) -> Result<ExitCode, Error> {
    let file_error = |source| Error::File { path: name.to_owned(), source };
    let open = || Input::open(path).map_err(|err| file_error(err.into()));
    let input = open()?;
    if let Some(reason) = input.not_text {
        return Err(file_error(io::Error::new(io::ErrorKind::InvalidData, format!("not PGN text: {reason}"))));
    }
    let compression = input.compression;
    let read_error = |err: &io::Error, offset| {
        file_error(io::Error::new(err.kind(), ReadError::new(offset, compression, err).to_string()))
    };
    // the decompressed size: the file's, or counted
    let total = match (compression, input.size) {
        (None, Some(size)) => size,
        _ => {
            let mut counted = CountingSink(0);
            if let Err(err) = io::copy(&mut open()?.reader, &mut counted) {
                return Err(read_error(&err, counted.0));
            }
            counted.0
        }
    };
    let (part_size, most) = match size {
        Size::Parts(count) => (PartSize::Count { count, total }, count.get() as u64),
        Size::Bytes(bytes) => (PartSize::Bytes(bytes), total.div_ceil(bytes.get()).max(1)),
    };
    let extension = format!(".pgn{}", written_as.map_or("", |written_as| written_as.codec.extension()));
    let names = PartNames::new(path, output, most, extension);
    // (dropped at the end, or on a signal: a directory made and left empty
    // is removed)
    let made = names.refuse_existing()?;
    rewrite::remove_on_signals_when_empty(&made.0);
    rewrite::remove_temporary_on_signals()
        .map_err(|err| Error::Usage(format!("split cannot watch for signals: {err}")))?;
    let mut parts = Parts::new(input.reader, part_size);
    let stdout = io::stdout();
    let mut current: Option<Part> = None;
    let mut buffer = Vec::new();
    loop {
        let before = parts.position();
        let piece = match parts.next_piece(buffer) {
            Ok(Some(piece)) => piece,
            Ok(None) => break,
            // (dropping the part being written removes it)
            Err(err) => return Err(read_error(&err, parts.position())),
        };
        if current.as_ref().is_none_or(|part| part.number != piece.part) {
            if let Some(part) = current.take() {
                part.finish(before, &stdout)?;
            }
            let file = NewFile::create(&names.path(piece.part), "split")?;
            let writer = file.file().try_clone().and_then(|writer| Encoder::new(writer, written_as, workers));
            let writer = writer.map_err(|source| Error::File { path: file.name().to_owned(), source })?;
            current = Some(Part { file, writer, number: piece.part, start: before });
        }
        if let Some(part) = &mut current {
            part.writer.write_all(&piece.data).map_err(|source| part.error(source))?;
        }
        buffer = piece.data;
    }
    match current {
        Some(part) => part.finish(parts.position(), &stdout)?,
        None => eprintln!("sanfen: {}: empty: no part written", escape(name)),
    }
    Ok(ExitCode::Valid)
}

/// The part being written.
struct Part {
    file: NewFile,
    writer: Encoder<File>,
    /// Its number, from 0.
    number: usize,
    /// Where it starts in the input.
    start: u64,
}

impl Part {
    fn error(&self, source: io::Error) -> Error {
        Error::File { path: self.file.name().to_owned(), source }
    }

    /// Ends the part at `end` (in the input), gives it its name, and says
    /// so on standard output.
    fn finish(self, end: u64, stdout: &io::Stdout) -> Result<(), Error> {
        let Part { file, writer, start, .. } = self;
        let name = file.name().to_owned();
        let error = |source| Error::File { path: name.clone(), source };
        let compressed = !matches!(writer, Encoder::Plain(_));
        writer.finish().map_err(error)?;
        let written = file.file().metadata().map_err(error)?.len();
        // (a file made there since the run began is kept)
        file.commit_new()?;
        let mut out = stdout.lock();
        let name = escape(&name);
        if compressed {
            writeln!(out, "{name}: {} bytes, {start}..{end}, {written} bytes compressed", end - start)
        } else {
            writeln!(out, "{name}: {} bytes, {start}..{end}", end - start)
        }
        .map_err(Error::Output)?;
        out.flush().map_err(Error::Output)
    }
}

/// Counts what is written to it.
struct CountingSink(u64);

impl Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The names of the parts: `DIR/STEM-NNN.pgn` (or another extension).
struct PartNames {
    directory: Option<PathBuf>,
    /// The input's file name less its extensions, byte for byte.
    stem: Vec<u8>,
    /// `.pgn`, `.pgn.zst` or `.pgn.gz`.
    extension: String,
    /// The number of digits.
    width: usize,
    /// The largest part number the run may write.
    most: u64,
}

impl PartNames {
    /// The names of at most `most` parts of the file at `path`, in
    /// `directory` (the current one when `None`), ending with `extension`.
    fn new(path: &OsStr, directory: Option<&Path>, most: u64, extension: String) -> PartNames {
        let name = Path::new(path).file_name().map_or(&b"pgn"[..], OsStr::as_bytes);
        let stem = strip_suffix(name, &[".gz", ".zst", ".bz2"]);
        let stem = strip_suffix(stem, &[".pgn"]);
        let stem = if stem.is_empty() { b"pgn" } else { stem };
        let width = most.to_string().len().max(3);
        PartNames { directory: directory.map(Path::to_path_buf), stem: stem.to_vec(), extension, width, most }
    }

    /// The file name of part `part` (from 0).
    fn file_name(&self, part: usize) -> OsString {
        let mut name = self.stem.clone();
        name.extend_from_slice(format!("-{:0width$}{}", part + 1, self.extension, width = self.width).as_bytes());
        OsString::from_vec(name)
    }

    fn path(&self, part: usize) -> PathBuf {
        match &self.directory {
            Some(directory) => directory.join(self.file_name(part)),
            None => PathBuf::from(self.file_name(part)),
        }
    }

    /// Refuses the run when a name it may write is taken (the first, looked
    /// up in one reading of the directory), or the directory cannot be
    /// read; makes the directory when it was named and does not exist (as
    /// `mkdir -p` makes it), and gives what it made.
    fn refuse_existing(&self) -> Result<Made, Error> {
        let directory = self.directory.clone().unwrap_or_else(|| PathBuf::from("."));
        let shown = shown_name(directory.as_os_str());
        let dir_error = |source| Error::File { path: shown.clone(), source };
        let mut made = Made(Vec::new());
        if self.directory.is_some() {
            // one level at a time, each made kept where it really is: in
            // `a/b/../c`, `a/b/..` is `a`, made already, and `c` is `a/c`
            let mut prefix = PathBuf::new();
            for component in directory.components() {
                prefix.push(component);
                if fs::symlink_metadata(&prefix).is_ok() {
                    continue;
                }
                match fs::create_dir(&prefix) {
                    Ok(()) => made.0.push(fs::canonicalize(&prefix).unwrap_or_else(|_| prefix.clone())),
                    // made meanwhile, by another program
                    Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
                    Err(err) => return Err(dir_error(err)),
                }
            }
        }
        let metadata = fs::metadata(&directory).map_err(dir_error)?;
        if !metadata.is_dir() {
            return Err(dir_error(io::Error::other("not a directory: the parts go into a directory")));
        }
        let mut first: Option<(u64, OsString)> = None;
        for entry in fs::read_dir(&directory).map_err(dir_error)? {
            let entry = entry.map_err(dir_error)?;
            let file_name = entry.file_name();
            let number = file_name
                .as_bytes()
                .strip_prefix(self.stem.as_slice())
                .and_then(|rest| rest.strip_prefix(b"-")?.strip_suffix(self.extension.as_bytes()));
            let Some(number) = number.filter(|n| n.len() == self.width && n.iter().all(u8::is_ascii_digit)) else {
                continue;
            };
            let Some(number) = core::str::from_utf8(number).ok().and_then(|n| n.parse::<u64>().ok()) else {
                continue;
            };
            if (1..=self.most).contains(&number) && first.as_ref().is_none_or(|(n, _)| number < *n) {
                first = Some((number, file_name));
            }
        }
        let Some((_, file_name)) = first else { return Ok(made) };
        let path = match &self.directory {
            Some(directory) => directory.join(&file_name),
            None => PathBuf::from(&file_name),
        };
        Err(Error::File {
            path: shown_name(path.as_os_str()),
            source: io::Error::new(
                io::ErrorKind::AlreadyExists,
                "exists already: not overwritten (nothing written; remove it or choose another --output)",
            ),
        })
    }
}

/// The directories a run made for its parts, the outermost first: those
/// left empty when the run ends are removed (it failed before writing a
/// part, or the input was empty), so that a failed run leaves nothing.
struct Made(Vec<PathBuf>);

impl Drop for Made {
    fn drop(&mut self) {
        for directory in self.0.iter().rev() {
            // only an empty directory goes: one holding a part, or
            // anything put there meanwhile, stays, and so do those above
            if fs::remove_dir(directory).is_err() {
                break;
            }
        }
    }
}

/// `name` less the first of `suffixes` it ends with (in any case).
fn strip_suffix<'a>(name: &'a [u8], suffixes: &[&str]) -> &'a [u8] {
    for suffix in suffixes {
        if let Some(at) = name.len().checked_sub(suffix.len())
            && name[at..].eq_ignore_ascii_case(suffix.as_bytes())
        {
            return &name[..at];
        }
    }
    name
}

/// `--parts N`: a number from 1.
fn parse_part_count(text: &str) -> Result<NonZeroUsize, String> {
    text.parse::<NonZeroUsize>().map_err(|_| "expected a number of parts from 1".to_owned())
}

/// `--ranges N`: a number from 1 to [`MOST_RANGES`].
fn parse_range_count(text: &str) -> Result<NonZeroUsize, String> {
    match text.parse::<NonZeroUsize>() {
        Ok(n) if n.get() <= MOST_RANGES => Ok(n),
        _ => Err(format!("expected a number of ranges from 1 to {MOST_RANGES} (one a worker)")),
    }
}

/// `--size`: a number of bytes with an optional unit.
fn parse_size(text: &str) -> Result<NonZeroU64, String> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let expected = "a number of bytes with an optional unit: K, M, G, T (KiB, MiB, GiB, TiB: powers of 1024) or KB, \
                    MB, GB, TB (powers of 1000)";
    if digits == 0 {
        return Err(format!("`{text}` is not a size: expected {expected}"));
    }
    let unit = match text[digits..].to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        "t" | "tib" => 1 << 40,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        "tb" => 1_000_000_000_000,
        unit => return Err(format!("unknown unit `{unit}`: expected {expected}")),
    };
    let bytes = text[..digits].parse::<u64>().ok().and_then(|n| n.checked_mul(unit));
    match bytes {
        None => Err(format!("`{text}` is too large")),
        Some(bytes) => NonZeroU64::new(bytes).ok_or_else(|| "a part holds at least 1 byte".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_with_units() {
        let size = |text: &str| parse_size(text).map(NonZeroU64::get);
        assert_eq!(size("100"), Ok(100));
        assert_eq!(size("100B"), Ok(100));
        assert_eq!(size("2K"), Ok(2048));
        assert_eq!(size("2kib"), Ok(2048));
        assert_eq!(size("2KB"), Ok(2000));
        assert_eq!(size("3M"), Ok(3 << 20));
        assert_eq!(size("3MB"), Ok(3_000_000));
        assert_eq!(size("1G"), Ok(1 << 30));
        assert_eq!(size("1GiB"), Ok(1 << 30));
        assert_eq!(size("5TB"), Ok(5_000_000_000_000));
        assert_eq!(size("0").unwrap_err(), "a part holds at least 1 byte");
        assert_eq!(size("99999999999T").unwrap_err(), "`99999999999T` is too large");
        assert!(size("1.5M").unwrap_err().starts_with("unknown unit `.5m`: expected a number of bytes"));
        assert!(size("M").unwrap_err().starts_with("`M` is not a size"));
        assert!(size("").is_err());
    }

    #[test]
    fn part_names_from_the_input_name() {
        let names = |path: &str, most| {
            let names = PartNames::new(OsStr::new(path), None, most, ".pgn".into());
            (names.file_name(0), names.file_name(most as usize - 1))
        };
        assert_eq!(names("games.pgn", 7), ("games-001.pgn".into(), "games-007.pgn".into()));
        assert_eq!(names("dir/games.pgn.zst", 1000), ("games-0001.pgn".into(), "games-1000.pgn".into()));
        assert_eq!(names("Games.PGN.GZ", 2), ("Games-001.pgn".into(), "Games-002.pgn".into()));
        assert_eq!(names("a.txt", 1), ("a.txt-001.pgn".into(), "a.txt-001.pgn".into()));
        assert_eq!(names(".pgn", 1), ("pgn-001.pgn".into(), "pgn-001.pgn".into()));
        let zstd = PartNames::new(OsStr::new("games.pgn.gz"), None, 12, ".pgn.zst".into());
        assert_eq!((zstd.file_name(0), zstd.file_name(11)), ("games-001.pgn.zst".into(), "games-012.pgn.zst".into()));
        // a name that is not UTF-8 keeps its bytes
        let latin1 = PartNames::new(OsStr::from_bytes(b"d/caf\xe9.PGN"), None, 2, ".pgn".into());
        assert_eq!(latin1.file_name(1), OsStr::from_bytes(b"caf\xe9-002.pgn"));
    }
}
