//! `sanfen export`: PGN games to a table (Parquet, CSV, JSON Lines), one row
//! per game or per move.
//!
//! The library builds the rows as Arrow record batches
//! ([`sanfen::pgn::table`]: the one schema the Python package uses too),
//! chunks of games read on `-j N` threads and handed back in input order;
//! this module writes them out. The moves table skips the record batches:
//! its Parquet pages are encoded from the rows on those threads
//! ([`super::moves_parquet`]), and so are its lines of CSV and JSON Lines
//! ([`Fields::push_move`]). The games are numbered from 1 in each input:
//! `file` and `game` join the two tables.
//!
//! An output file is written under a temporary name beside it and takes its
//! name only when every input was read ([`NewFile`]): an interrupted run
//! or a failed write leaves no file that looks complete. An input that
//! cannot be opened or read to its end is reported on stderr, naming it
//! (with the offset where reading failed), and the others are exported;
//! the exit code is then 1. Its games read before the failure are kept
//! (each row is a whole game, or a move of one).

use std::ffi::OsString;
use std::fs;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::thread;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int32Type, UInt8Type, UInt32Type, UInt64Type};
use arrow_array::{Array, RecordBatch, StringArray};
use arrow_schema::{DataType, SchemaRef};
use indicatif::ProgressBar;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnDescPtr, ColumnPath};
use sanfen::pgn::game::PARALLEL_CHUNK_TARGET;
use sanfen::pgn::input::{Input, shown_name};
use sanfen::pgn::parallel::{ChunkWork, Ordered, Parts, Piece, threads_or_cores};
use sanfen::pgn::rows::{MoveRow, MoveRowOptions, MoveRows, PART_BYTES};
use sanfen::pgn::table::{games_schema, moves_schema, read_game_table_input, side_name};
use sanfen::pgn::{Chunk, Chunker, ReadError};
use sanfen::san::Letters;

use super::check::{escape, progress_bar};
use super::compressed::{Encoder, FileCodec, FileCompression, no_levels};
use super::input::Hint;
use super::moves_parquet::{ChunkPages, Codec, RowGroup, encode_moves};
use super::rewrite::{NewFile, open_device, remove_temporary_on_signals};
use super::terminal::shown_escaped;
use super::{Error, ExitCode, pgn_input};

/// `sanfen export`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The output's format [default: told by the output's extension,
    /// `.parquet`, `.csv`, `.jsonl` or `.ndjson`; jsonl on standard output].
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// One row per game, or one per move.
    #[arg(long, value_enum, default_value_t)]
    table: Table,
    /// With `--table moves`: a `fen` column, the position after each move.
    #[arg(long)]
    fen: bool,
    /// With `--table moves`: the moves of variations too, with a `path`
    /// column naming each one's line (empty for the mainline).
    #[arg(long)]
    variations: bool,
    /// Read the moves' piece letters in this language: en, pt, es, fr, de,
    /// it, nl (`Cf3` in Portuguese is the move Nf3, its `written` value
    /// `Cf3`).
    #[arg(long, value_name = "LANG", default_value = "en")]
    letters: Letters,
    /// How Parquet's pages are compressed [default: snappy]; a CSV or JSON
    /// Lines file is compressed whole, by zstd, gzip or bzip2 [default: as
    /// the output's name says, `.zst`, `.gz` or `.bz2`; else none].
    #[arg(long, value_enum, value_name = "CODEC")]
    compression: Option<Codec>,
    /// The level of zstd (1 to 22, default 1 for Parquet's pages and 3 for
    /// a file), gzip (0 to 9, default 6) or bzip2 (1 to 9, default 9),
    /// chosen by `--compression` or by the output's name (`-o moves.csv.zst
    /// --compression-level 19`).
    #[arg(long, value_name = "N")]
    compression_level: Option<u32>,
    /// Where the table goes [default, and `-`: standard output]. Written
    /// under a temporary name beside it, which takes its name once
    /// complete; never one of the inputs.
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,
    /// Threads that read games [default: one per core]. With more than one,
    /// one more thread reads the input and cuts it into chunks of games,
    /// and another writes the table. A zstd-compressed
    /// CSV or JSON Lines file is compressed on as many threads of zstd's own
    /// (the file is the same whatever N).
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = super::parse_jobs)]
    jobs: Option<u32>,
    /// No progress bar, even on a terminal.
    #[arg(long)]
    no_progress: bool,
    /// PGN files (gzip, zstd and bzip2 recognised by their first bytes and
    /// decompressed); none, or `-`, reads standard input.
    #[arg(value_name = "FILE")]
    files: Vec<OsString>,
}

/// An output format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Apache Parquet (snappy-compressed pages, or `--compression`), the
    /// Arrow schema kept.
    Parquet,
    /// Comma-separated values with a header line (RFC 4180 quoting).
    Csv,
    /// JSON Lines: one object per row.
    Jsonl,
}

impl Format {
    /// Its name in messages.
    fn name(self) -> &'static str {
        match self {
            Format::Parquet => "Parquet",
            Format::Csv => "CSV",
            Format::Jsonl => "JSON Lines",
        }
    }
}

/// Which table.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Table {
    /// One row per game: tags, result, errors, opening.
    #[default]
    Games,
    /// One row per move: SAN, UCI, clocks, evaluations, comments.
    Moves,
}

/// Shown before waiting for PGN typed in a terminal.
const HINT: Hint = Hint { command: "sanfen export", reads: "PGN", instead: "sanfen export FILE to read a file" };

/// `sanfen export`: see the [module](self).
///
/// # Errors
///
/// A usage error, or the output cannot be written.
pub fn run(args: &Args) -> Result<ExitCode, Error> {
    if args.table == Table::Games && (args.fen || args.variations) {
        let option = if args.fen { "--fen" } else { "--variations" };
        return Err(Error::Usage(format!("{option} is an option of the moves table: add --table moves")));
    }
    // `-o -` is standard output, as a file named `-` is standard input
    let output = args.output.as_deref().filter(|&path| path != Path::new("-"));
    let format = format_of(args.format, output)?;
    // Parquet's pages, or a CSV or JSON Lines file, compressed
    let (compression, text_compression) = match format {
        Format::Parquet => {
            if let Some(path) = output.filter(|path| FileCodec::of_path(path).is_some()) {
                return Err(Error::Usage(format!(
                    "{}: Parquet compresses its pages, not the file: name it .parquet (and choose --compression)",
                    escape(&shown_name(path.as_os_str()))
                )));
            }
            let codec = args.compression.unwrap_or_default();
            (codec.compression(args.compression_level).map_err(Error::Usage)?, None)
        }
        Format::Csv | Format::Jsonl => (Compression::UNCOMPRESSED, text_compression(args, output)?),
    };
    let stdout = io::stdout();
    // (control characters are escaped in CSV text written to a terminal)
    let terminal = output.is_none() && stdout.is_terminal();
    if terminal {
        if format == Format::Parquet {
            return Err(Error::Usage(
                "Parquet is binary: name a file with --output, or redirect standard output".into(),
            ));
        }
        if text_compression.is_some() {
            return Err(Error::Usage(
                "compressed text is binary: name a file with --output, or redirect standard output".into(),
            ));
        }
    }
    let options = MoveRowOptions { fen: args.fen, variations: args.variations, letters: args.letters };
    let schema = match args.table {
        Table::Games => games_schema(),
        Table::Moves => moves_schema(options),
    };
    match output {
        Some(path) => refuse_an_input(path, &args.files)?,
        None => pgn_input::refuse_stdout_input(&args.files)?,
    }
    let device = output.and_then(open_device);
    let (mut new_file, target): (Option<NewFile>, Box<dyn Write + Send>) = match (output, device) {
        (Some(path), Some(device)) => {
            let file = device.map_err(|err| Error::File { path: shown_name(path.as_os_str()), source: err })?;
            (None, Box::new(file))
        }
        (Some(path), None) => {
            remove_temporary_on_signals().map_err(|err| Error::Usage(format!("cannot handle signals: {err}")))?;
            let file = NewFile::create(path, "export")?;
            let writer =
                file.file().try_clone().map_err(|err| Error::File { path: file.name().to_owned(), source: err })?;
            (Some(file), Box::new(writer))
        }
        (None, _) => (None, Box::new(stdout)),
    };
    let output_error = |err: io::Error| match output {
        Some(path) => Error::File { path: shown_name(path.as_os_str()), source: err },
        None => Error::Output(err),
    };
    let columns = args.table == Table::Moves;
    let workers = threads_or_cores(args.jobs.map_or(0, |n| n as usize));
    let sink = Sink::new(format, target, &schema, terminal, columns, (compression, text_compression), workers)
        .map_err(&output_error)?;
    let (read, failed, written) = export_all(args, options, sink, workers);
    // on an error, the temporary file goes with `new_file`
    match (read, written) {
        (Err(Stop::Usage(err)), _) => return Err(err),
        // the writing's error before the reading's: it stopped the reading
        (_, Err(err)) | (Err(Stop::Output(err)), _) => return Err(output_error(err)),
        (Ok(()), Ok(sink)) => sink.finish().map_err(&output_error)?,
    }
    if let Some(file) = new_file.take() {
        file.commit()?;
    }
    Ok(if failed { ExitCode::Invalid } else { ExitCode::Valid })
}

/// Exports every input of `args` to `sink`: with more than one of
/// `workers`, the sink writes on a thread of its own (encoding the games
/// table's Parquet, gathering the moves table's row groups, writing), so
/// that this thread only reads and cuts the input, as `check`'s does, and
/// does not hold back workers on a machine of many cores. The reading's
/// end, whether an input failed, and the sink (or the error that stopped
/// its writing).
fn export_all(
    args: &Args,
    options: MoveRowOptions,
    mut sink: Sink,
    workers: usize,
) -> (Result<(), Stop>, bool, io::Result<Sink>) {
    let form = sink.form();
    // every input, its jobs to `writer` (which goes when the inputs are read)
    let read = |writer: Writer<'_>| {
        let mut exporter = Exporter { args, options, form, writer, games: 0, failed: false };
        (exporter.all_inputs(), exporter.failed)
    };
    if workers == 1 {
        let (read, failed) = read(Writer::Here(&mut sink, Vec::new()));
        return (read, failed, Ok(sink));
    }
    // a job waits at most while the one before it is written
    let (jobs, received) = mpsc::sync_channel(1);
    thread::scope(|scope| {
        let writing = thread::Builder::new().name("sanfen-write".into()).spawn_scoped(scope, move || {
            let mut buffer = Vec::new();
            for job in received {
                sink.take(job, &mut buffer)?;
            }
            Ok(sink)
        });
        let writing = match writing {
            Ok(writing) => writing,
            Err(err) => {
                let usage = Error::Usage(format!("cannot start the thread that writes: {err}"));
                return (Err(Stop::Usage(usage)), false, Err(err));
            }
        };
        // the writing thread ends when the jobs do, with the exporter
        let (read, failed) = read(Writer::There(jobs));
        let written = writing.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (read, failed, written)
    })
}

/// The format `--format` names, or the output's extension tells (before
/// `.gz` or `.zst`). A file whose extension names another format than
/// `--format` is refused, as a file read later by its name would be
/// misread (`-o games.parquet --format csv`); a device or FIFO
/// (`/dev/stdout`) takes what it is given.
fn format_of(format: Option<Format>, output: Option<&Path>) -> Result<Format, Error> {
    let Some(path) = output else { return Ok(format.unwrap_or(Format::Jsonl)) };
    let named = if FileCodec::of_path(path).is_some() { Path::new(path.file_stem().unwrap_or_default()) } else { path };
    let extension = named.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let by_name = match extension.as_deref() {
        Some("parquet" | "pq") => Some(Format::Parquet),
        Some("csv") => Some(Format::Csv),
        Some("jsonl" | "ndjson") => Some(Format::Jsonl),
        _ => None,
    };
    match (format, by_name) {
        (Some(format), Some(named)) if format != named && fs::metadata(path).map_or(true, |m| m.is_file()) => {
            Err(Error::Usage(format!(
                "{}: the name says {}, --format says {}",
                escape(&shown_name(path.as_os_str())),
                named.name(),
                format.name()
            )))
        }
        (Some(format), _) | (None, Some(format)) => Ok(format),
        (None, None) => Err(Error::Usage(format!(
            "cannot tell the format of {} by its extension: give --format parquet, csv or jsonl",
            escape(&shown_name(path.as_os_str()))
        ))),
    }
}

/// How a CSV or JSON Lines file is compressed: as `--compression` says
/// (zstd, gzip, bzip2 or none), or as the output's name does (`.zst`,
/// `.gz`, `.bz2`).
fn text_compression(args: &Args, output: Option<&Path>) -> Result<Option<FileCompression>, Error> {
    let named = output.and_then(FileCodec::of_path);
    let chosen = match args.compression {
        None => named,
        Some(Codec::Zstd) => Some(FileCodec::Zstd),
        Some(Codec::Gzip) => Some(FileCodec::Gzip),
        Some(Codec::Bzip2) => Some(FileCodec::Bzip2),
        Some(Codec::None) => None,
        Some(codec @ (Codec::Snappy | Codec::Lz4)) => {
            return Err(Error::Usage(format!(
                "--compression {} is for Parquet's pages: CSV and JSON Lines files take zstd, gzip, bzip2 or none",
                codec.name()
            )));
        }
    };
    // (a device or FIFO, `/dev/stdout`, takes what it is given)
    let file = output.filter(|path| fs::metadata(path).map_or(true, |metadata| metadata.is_file()));
    if let (Some(path), Some(_)) = (file.filter(|_| named != chosen), args.compression) {
        let say = |codec: Option<FileCodec>| codec.map_or("no compression", FileCodec::name);
        return Err(Error::Usage(format!(
            "{}: the name says {}, --compression says {}",
            escape(&shown_name(path.as_os_str())),
            say(named),
            say(chosen)
        )));
    }
    match (chosen, args.compression_level) {
        (None, Some(_)) if args.compression.is_some() => Err(Error::Usage(no_levels("none"))),
        (None, Some(level)) => Err(Error::Usage(format!(
            "--compression-level {level}: the output is not compressed (name it .zst, .gz or .bz2, or give --compression)"
        ))),
        (None, None) => Ok(None),
        (Some(codec), level) => codec.at(level).map(Some).map_err(Error::Usage),
    }
}

/// A Parquet error as an I/O error: a failed write as it is (a reader
/// that closed standard output then ends the run quietly), any other
/// wrapped.
fn parquet_io(err: parquet::errors::ParquetError) -> io::Error {
    match err {
        parquet::errors::ParquetError::External(inner) => match inner.downcast::<io::Error>() {
            Ok(err) => *err,
            Err(other) => io::Error::other(other),
        },
        other => io::Error::other(other),
    }
}

/// Refuses an output file that is also an input, named or redirected to
/// standard input: the table would take the place of the PGN it is read
/// from. (A FIFO or a device is no such file: `-o /dev/stdout` with the
/// same terminal on both ends is fine.)
fn refuse_an_input(output: &Path, files: &[OsString]) -> Result<(), Error> {
    let Ok(target) = fs::metadata(output) else { return Ok(()) };
    if !target.is_file() {
        return Ok(());
    }
    match pgn_input::input_that_is(&target, files) {
        Some(input) => Err(Error::Usage(format!(
            "{} is also an input ({}): not written over (choose another --output)",
            escape(&shown_name(output.as_os_str())),
            escape(&input)
        ))),
        None => Ok(()),
    }
}

/// What ends an export before its inputs are all read.
enum Stop {
    Output(io::Error),
    Usage(Error),
}

impl From<io::Error> for Stop {
    fn from(err: io::Error) -> Stop {
        Stop::Output(err)
    }
}

/// What the sink is handed, in input order ([`Sink::take`]).
enum Job {
    /// Rows of the games table.
    Batch(RecordBatch),
    /// A chunk of the moves table as Parquet pages, its games numbered
    /// after the games before it in its input.
    Chunk(Encoded, u64),
    /// A chunk of the moves table as lines of text, numbered so.
    Lines(TextRows, u64),
    /// An input's moves table is all handed over: its last row group is
    /// written (a row group holds one input's rows).
    InputEnd,
}

/// Where the jobs go: the sink, on this thread (with a buffer for its
/// lines of text) or on the one that writes.
enum Writer<'a> {
    Here(&'a mut Sink, Vec<u8>),
    There(mpsc::SyncSender<Job>),
}

impl Writer<'_> {
    fn take(&mut self, job: Job) -> Result<(), Stop> {
        match self {
            Writer::Here(sink, buffer) => Ok(sink.take(job, buffer)?),
            // the writing thread says why it stopped
            Writer::There(jobs) => jobs.send(job).map_err(|_| Stop::from(io::Error::other("the writing stopped"))),
        }
    }
}

/// What the sink makes of the moves table's chunks.
#[derive(Clone)]
enum Form {
    /// Parquet pages of the moves table's leaf columns `columns`,
    /// compressed so.
    Columns { columns: Arc<[ColumnDescPtr]>, compression: Compression },
    /// Lines of CSV (`keys` `None`) or JSON Lines.
    Text { keys: Option<Arc<[String]>>, terminal: bool },
    /// Record batches only: the games table's Parquet.
    Batches,
}

struct Exporter<'a> {
    args: &'a Args,
    options: MoveRowOptions,
    form: Form,
    writer: Writer<'a>,
    /// Games read in the input being read.
    games: u64,
    /// An input could not be opened or read to its end.
    failed: bool,
}

impl Exporter<'_> {
    fn all_inputs(&mut self) -> Result<(), Stop> {
        for name in pgn_input::names(&self.args.files) {
            let source = match pgn_input::open(&name, &HINT) {
                Ok(source) => source,
                Err(err) => {
                    self.report(&err.to_string());
                    continue;
                }
            };
            let file = source.name;
            if let Some(reason) = &source.input.not_text {
                self.report(&format!("{file}: not PGN text: {reason}"));
                continue;
            }
            let (input, progress) = with_progress(source.input, self.args.no_progress);
            self.games = 0;
            let result = match self.args.table {
                Table::Games => self.games_of(&file, input),
                Table::Moves => self.moves_of(&file, input),
            };
            progress.finish_and_clear();
            if let Err(message) = result? {
                self.report(&format!("{file}: {message}"));
            }
        }
        Ok(())
    }

    /// Reports an input that failed, on stderr.
    fn report(&mut self, message: &str) {
        eprintln!("sanfen: {}", escape(message));
        self.failed = true;
    }

    fn threads(&self) -> usize {
        self.args.jobs.map_or(0, |n| n as usize)
    }

    fn start_error(&self, err: impl core::fmt::Display) -> Stop {
        let threads = threads_or_cores(self.threads());
        Stop::Usage(Error::Usage(format!("cannot start {threads} threads: {err}")))
    }

    /// The games table's rows of one input; `Err` with the message of a read
    /// that failed part way.
    fn games_of(&mut self, file: &str, input: Input) -> Result<Result<(), String>, Stop> {
        let batches = read_game_table_input(input, self.threads(), file, self.args.letters)
            .map_err(|err| self.start_error(err.message))?;
        for batch in batches {
            match batch {
                Ok(batch) => {
                    self.games += batch.num_rows() as u64;
                    self.writer.take(Job::Batch(batch))?;
                }
                Err(err) => return Ok(Err(err.to_string())),
            }
        }
        Ok(Ok(()))
    }

    /// The moves table's rows of one input.
    fn moves_of(&mut self, file: &str, input: Input) -> Result<Result<(), String>, Stop> {
        match self.form.clone() {
            Form::Columns { columns, compression } => self.encoded_moves_of(file, input, columns, compression),
            Form::Text { keys, terminal } => self.text_moves_of(file, input, keys, terminal),
            Form::Batches => Err(Stop::from(io::Error::other("the moves table's Parquet comes in row groups"))),
        }
    }
}

impl Exporter<'_> {
    /// The moves table's rows of one input, as Parquet pages encoded (the
    /// leaf columns `columns`, compressed as `compression` says) on the
    /// threads that read the games (one per chunk of the input), gathered
    /// here into row groups.
    fn encoded_moves_of(
        &mut self,
        file: &str,
        input: Input,
        columns: Arc<[ColumnDescPtr]>,
        compression: Compression,
    ) -> Result<Result<(), String>, Stop> {
        let work =
            EncodeWork { options: self.options, columns, file: file.into(), compression, spare: Spare::default() };
        let read = self.chunks_of(input, CHUNK_BYTES, work, |encoded: Encoded, before| {
            (encoded.games, Job::Chunk(encoded, before))
        })?;
        // a row group holds one input's rows (their `file` is one value)
        self.writer.take(Job::InputEnd)?;
        Ok(read)
    }

    /// The moves table's rows of one input as CSV or JSON Lines (with the
    /// columns' `keys`), written but for their game numbers on the threads
    /// that read the games (one chunk of the input each): the sink numbers
    /// the games and writes.
    fn text_moves_of(
        &mut self,
        file: &str,
        input: Input,
        keys: Option<Arc<[String]>>,
        terminal: bool,
    ) -> Result<Result<(), String>, Stop> {
        let work = TextWork { options: self.options, file: file.into(), keys, terminal, spare: Spare::default() };
        self.chunks_of(input, PARALLEL_CHUNK_TARGET, work, |rows: TextRows, before| {
            (rows.games, Job::Lines(rows, before))
        })
    }

    /// `work` on the chunks of about `target` bytes of one input, on the
    /// reading threads; each chunk's parts, in input order, made by `job`
    /// with the games before the chunk into the games that end in the part
    /// and the job that writes it. A game too large to read counts, with
    /// no rows. `Err` with the message of a read that failed part way.
    fn chunks_of<T, W>(
        &mut self,
        input: Input,
        target: usize,
        work: W,
        job: impl Fn(T, u64) -> (u64, Job),
    ) -> Result<Result<(), String>, Stop>
    where
        W: ChunkWork<Part = T, Output = (Result<(), ReadError>, Vec<u8>)>,
    {
        /// What ends the reading of an input early.
        enum Cut {
            Export(Stop),
            /// The input failed part way: the message.
            Input(String),
        }
        let compression = input.compression;
        let chunker = Chunker::with_target(input.reader, target).starting_at(input.start);
        let mut ordered = Ordered::new(chunker, work, self.threads()).map_err(|err| self.start_error(err))?;
        let (writer, games) = (&mut self.writer, &mut self.games);
        // the games before the chunk whose parts come
        let mut before = *games;
        let driven = ordered.drive(|piece| match piece {
            Piece::Part(part) => {
                let (ended, job) = job(part, before);
                *games += ended;
                writer.take(job).map_err(Cut::Export)?;
                Ok(None)
            }
            Piece::Output((read, data)) => {
                match read {
                    Ok(()) => {}
                    // a game too large to read has no moves, and counts
                    Err(ReadError::TooLarge { .. }) => *games += 1,
                    Err(err @ ReadError::Io { .. }) => return Err(Cut::Input(err.to_string())),
                }
                before = *games;
                Ok(Some(data))
            }
        });
        match driven {
            Ok(Ok(())) => Ok(Ok(())),
            Ok(Err(err)) => {
                Ok(Err(sanfen::pgn::input::ReadError::new(ordered.bytes_read(), compression, &err).to_string()))
            }
            Err(Cut::Input(message)) => Ok(Err(message)),
            Err(Cut::Export(stop)) => Err(stop),
        }
    }
}

/// The moves of `chunk` read in parts ([`MoveRows::read_chunk_in_parts`]),
/// each made into what `make` makes of it and handed to `parts`.
fn parts_of<P>(
    spare: &Spare,
    options: MoveRowOptions,
    chunk: Chunk,
    parts: &mut Parts<'_, P>,
    mut make: impl FnMut(&mut MoveRows) -> Result<P, ReadError>,
) -> (Result<(), ReadError>, Vec<u8>) {
    let mut rows = spare.take(options);
    let mut failed = None;
    let mut hand = |rows: &mut MoveRows| match make(rows) {
        Ok(part) => parts.send(part),
        Err(err) => {
            failed = Some(err);
            false
        }
    };
    let mut read = rows.read_chunk_in_parts(&chunk, 1, PART_BYTES, &mut hand);
    if let Some(err) = failed {
        read = Err(err);
    }
    spare.give(rows);
    (read, chunk.data)
}

/// The work on each chunk: its moves as CSV or JSON Lines, but for their
/// game numbers.
struct TextWork {
    options: MoveRowOptions,
    file: Box<str>,
    /// The moves table's columns' keys in JSON; `None` for CSV.
    keys: Option<Arc<[String]>>,
    /// Control characters escaped (see [`Fields`]).
    terminal: bool,
    spare: Spare,
}

impl ChunkWork for TextWork {
    type Part = TextRows;
    type Output = (Result<(), ReadError>, Vec<u8>);

    fn work(&self, chunk: Chunk, parts: &mut Parts<'_, TextRows>) -> Self::Output {
        parts_of(&self.spare, self.options, chunk, parts, |rows| {
            Ok(TextRows::of(rows, &self.file, self.keys.as_deref(), self.terminal))
        })
    }
}

/// Rows whose chunk is done, for the next chunks (one per thread at most):
/// their columns' memory is reused, not allocated and faulted in again for
/// every chunk.
#[derive(Default)]
struct Spare(Mutex<Vec<MoveRows>>);

impl Spare {
    /// Rows for `options`: spare ones, or new.
    fn take(&self, options: MoveRowOptions) -> MoveRows {
        let spare = self.0.lock().unwrap_or_else(PoisonError::into_inner).pop();
        spare.unwrap_or_else(|| MoveRows::new(options))
    }

    fn give(&self, rows: MoveRows) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).push(rows);
    }
}

/// A chunk's moves as lines of text, each but for its game number (the
/// table's second column, after `file`): what the lines start with, up to
/// the number; the number, from 1 in the chunk; and the rest of each line.
struct TextRows {
    /// The chunk's games.
    games: u64,
    /// Each line up to its game number (the same for every line).
    prefix: String,
    /// The game of each line, from 1 in the chunk.
    game: Vec<u64>,
    /// Each line after its game number, line end included, one after
    /// another.
    text: String,
    /// Where each line ends in `text`.
    ends: Vec<usize>,
}

impl TextRows {
    /// The lines of `rows`, the moves of `file`, in CSV or in JSON (with
    /// the moves table's `keys`, `file` first, then `game`): as
    /// [`Sink::write`] writes their record batch.
    fn of(rows: &MoveRows, file: &str, keys: Option<&[String]>, terminal: bool) -> TextRows {
        let (mut prefix, mut text, mut field) = (String::new(), String::new(), String::new());
        if keys.is_some() {
            prefix.push('{');
        }
        let mut fields = Fields::new(&mut prefix, &mut field, keys, terminal);
        fields.push(Some(Value::Text(file)));
        // the game's key, or the comma before its field
        fields.key();
        let mut ends = Vec::with_capacity(rows.len());
        for row in rows.rows() {
            let mut fields = Fields::new(&mut text, &mut field, keys, terminal);
            // after `file` and `game`
            fields.column = 2;
            fields.push_move(&row);
            if keys.is_some() {
                text.push('}');
            }
            text.push('\n');
            ends.push(text.len());
        }
        TextRows { games: rows.games, prefix, game: rows.game.clone(), text, ends }
    }

    /// Appends the lines to `out`, their games numbered after `before`.
    fn write(&self, out: &mut Vec<u8>, before: u64) {
        let mut start = 0;
        for (&game, &end) in self.game.iter().zip(&self.ends) {
            out.extend_from_slice(self.prefix.as_bytes());
            push_number(out, game + before);
            out.extend_from_slice(&self.text.as_bytes()[start..end]);
            start = end;
        }
    }
}

/// Appends `n` in decimal.
fn push_number(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// An integer of `magnitude`, negative or not, in decimal.
fn push_integer(out: &mut String, negative: bool, magnitude: u64) {
    if negative {
        out.push('-');
    }
    out.push_str(itoa::Buffer::new().format(magnitude));
}

/// The bytes of PGN per chunk of the moves table encoded on a reading
/// thread, about: some 75,000 moves. Larger chunks took longer (their
/// columns no longer in the processor's caches) and more memory.
const CHUNK_BYTES: usize = 1 << 20;

/// The rows of a Parquet row group of the moves table, at most (as
/// parquet's and pyarrow's writers have it): chunks are gathered until the
/// next would make more. Readers pay for each row group: pyarrow took 1.7
/// times as long to read the benchmark corpus's moves in row groups of one
/// chunk each.
const ROW_GROUP_ROWS: usize = 1 << 20;

/// The bytes of a row group's chunks, encoded, at most (but for a chunk
/// alone): a bound on the memory they take whatever their text.
const ROW_GROUP_SIZE: usize = 64 << 20;

/// A chunk's moves, encoded but for their game numbers (which only the
/// chunks before can tell).
struct Encoded {
    /// The games of the chunk.
    games: u64,
    /// The game of each move, from 1 in the chunk.
    game: Vec<u64>,
    pages: ChunkPages,
}

/// The work on each chunk: its moves, as Parquet pages.
struct EncodeWork {
    options: MoveRowOptions,
    file: Box<str>,
    /// The moves table's leaf columns.
    columns: Arc<[ColumnDescPtr]>,
    compression: Compression,
    spare: Spare,
}

impl ChunkWork for EncodeWork {
    type Part = Encoded;
    type Output = (Result<(), ReadError>, Vec<u8>);

    fn work(&self, chunk: Chunk, parts: &mut Parts<'_, Encoded>) -> Self::Output {
        parts_of(&self.spare, self.options, chunk, parts, |rows| {
            let pages = encode_moves(rows, &self.file, &self.columns, self.compression).map_err(io::Error::other)?;
            // the game numbers go with the pages; the rows' other columns stay
            Ok(Encoded { games: rows.games, game: core::mem::take(&mut rows.game), pages })
        })
    }
}

/// The input, counting the bytes read from it on a progress bar (see
/// [`progress_bar`]).
fn with_progress(mut input: Input, hidden: bool) -> (Input, ProgressBar) {
    // the size on disk is the size read only when uncompressed
    let bar = progress_bar(hidden, input.size.filter(|_| input.compression.is_none()));
    if !bar.is_hidden() {
        input.reader = Box::new(Counted { inner: input.reader, bar: bar.clone() });
    }
    (input, bar)
}

/// A reader that moves a progress bar.
struct Counted {
    inner: Box<dyn Read + Send>,
    bar: ProgressBar,
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bar.inc(n as u64);
        Ok(n)
    }
}

/// Where Parquet goes.
type ParquetOut = BufWriter<Box<dyn Write + Send>>;

/// Where the rows go, in the chosen format.
enum Sink {
    /// Record batches, encoded here.
    Parquet(Box<ArrowWriter<ParquetOut>>),
    /// Row groups of chunks encoded by the reading threads ([`Encoded`]).
    Columns {
        file: Box<SerializedFileWriter<ParquetOut>>,
        /// The chunks of the next row group.
        group: RowGroup,
        /// The table's leaf columns.
        columns: Arc<[ColumnDescPtr]>,
        compression: Compression,
    },
    Text {
        out: Box<BufWriter<Encoder<Box<dyn Write + Send>>>>,
        /// JSON Lines: the columns' keys ([`json_keys`]); `None` for CSV.
        keys: Option<Arc<[String]>>,
        terminal: bool,
    },
}

impl Sink {
    /// A sink of `format` writing to `target`, compressed as `compression`
    /// says (Parquet's pages, or a text file, on `workers` threads for zstd:
    /// see [`Encoder::new`]); with `columns`, Parquet row groups come
    /// encoded ([`Sink::push_chunk`]).
    fn new(
        format: Format,
        target: Box<dyn Write + Send>,
        schema: &SchemaRef,
        terminal: bool,
        columns: bool,
        (compression, text_compression): (Compression, Option<FileCompression>),
        workers: usize,
    ) -> io::Result<Sink> {
        const BUFFER: usize = 1 << 16;
        Ok(match format {
            Format::Parquet => {
                let out = BufWriter::with_capacity(BUFFER, target);
                let properties = parquet_properties(compression);
                let writer = ArrowWriter::try_new(out, schema.clone(), Some(properties)).map_err(parquet_io)?;
                if columns {
                    let (file, _) = writer.into_serialized_writer().map_err(parquet_io)?;
                    let columns = file.schema_descr().columns().into();
                    Sink::Columns { file: Box::new(file), group: RowGroup::default(), columns, compression }
                } else {
                    Sink::Parquet(Box::new(writer))
                }
            }
            Format::Csv | Format::Jsonl => {
                let mut out = BufWriter::with_capacity(BUFFER, Encoder::new(target, text_compression, workers)?);
                let keys = (format == Format::Jsonl).then(|| json_keys(schema).into());
                if keys.is_none() {
                    let names: Vec<String> = schema.fields().iter().map(|field| csv_field(field.name())).collect();
                    writeln!(out, "{}", names.join(","))?;
                }
                Sink::Text { out: Box::new(out), keys, terminal }
            }
        })
    }

    /// What the sink makes of the moves table's chunks.
    fn form(&self) -> Form {
        match self {
            Sink::Parquet(_) => Form::Batches,
            Sink::Columns { columns, compression, .. } => {
                Form::Columns { columns: columns.clone(), compression: *compression }
            }
            Sink::Text { keys, terminal, .. } => Form::Text { keys: keys.clone(), terminal: *terminal },
        }
    }

    /// Does `job` (lines of text made in `buffer`).
    fn take(&mut self, job: Job, buffer: &mut Vec<u8>) -> io::Result<()> {
        match job {
            Job::Batch(batch) => self.write(&batch),
            Job::Chunk(encoded, before) => self.push_chunk(encoded, before),
            Job::Lines(rows, before) => {
                let Sink::Text { out, .. } = self else {
                    return Err(io::Error::other("text rows are for CSV and JSON Lines"));
                };
                buffer.clear();
                rows.write(buffer, before);
                out.write_all(buffer)
            }
            Job::InputEnd => self.write_row_group(),
        }
    }

    /// Adds the rows of `encoded`, its games numbered after `games`, to the
    /// next row group, written first if they would make it too large.
    fn push_chunk(&mut self, encoded: Encoded, games: u64) -> io::Result<()> {
        let Sink::Columns { file, group, columns, compression } = self else {
            return Err(io::Error::other("row groups are for Parquet"));
        };
        let rows = encoded.game.len();
        if group.rows() + rows > ROW_GROUP_ROWS || group.size() + encoded.pages.size() > ROW_GROUP_SIZE {
            group.write(file, columns, *compression).map_err(parquet_io)?;
        }
        group.push(encoded.pages, &encoded.game, games);
        Ok(())
    }

    /// Writes the rows of the next row group, if any.
    fn write_row_group(&mut self) -> io::Result<()> {
        match self {
            Sink::Columns { file, group, columns, compression } => {
                group.write(file, columns, *compression).map_err(parquet_io)
            }
            _ => Ok(()),
        }
    }

    fn write(&mut self, batch: &RecordBatch) -> io::Result<()> {
        match self {
            Sink::Parquet(writer) => writer.write(batch).map_err(parquet_io),
            Sink::Columns { .. } => Err(io::Error::other("record batches go to row groups")),
            Sink::Text { out, keys, terminal } => {
                let (mut line, mut field) = (String::new(), String::new());
                for row in 0..batch.num_rows() {
                    line.clear();
                    batch_line(&mut line, &mut field, keys.as_deref(), batch, row, *terminal);
                    out.write_all(line.as_bytes())?;
                }
                Ok(())
            }
        }
    }

    fn finish(self) -> io::Result<()> {
        match self {
            Sink::Parquet(writer) => {
                let mut out = writer.into_inner().map_err(parquet_io)?;
                out.flush()
            }
            Sink::Columns { mut file, mut group, columns, compression } => {
                // none left by an input, but nothing is lost if one was
                group.write(&mut file, &columns, compression).map_err(parquet_io)?;
                let mut out = file.into_inner().map_err(parquet_io)?;
                out.flush()
            }
            Sink::Text { out, .. } => {
                let encoder = out.into_inner().map_err(io::IntoInnerError::into_error)?;
                encoder.finish()?.flush()
            }
        }
    }
}

/// Pages compressed as `compression` says; the game numbers, lines and
/// byte offsets of games delta-encoded (they count up), the other columns
/// with a dictionary where it pays; a column chunk's minimum and maximum
/// (for readers that skip row groups). The moves table's pages make the same choices
/// ([`super::moves_parquet`]).
pub(super) fn parquet_properties(compression: Compression) -> WriterProperties {
    let mut properties =
        WriterProperties::builder().set_compression(compression).set_statistics_enabled(EnabledStatistics::Chunk);
    for column in ["game", "line", "byte_offset"] {
        properties = properties
            .set_column_dictionary_enabled(ColumnPath::from(column), false)
            .set_column_encoding(ColumnPath::from(column), Encoding::DELTA_BINARY_PACKED);
    }
    properties.build()
}

/// One value of a column (borrowed from it).
enum Value<'a> {
    Text(&'a str),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Bool(bool),
    Nags(&'a [u8]),
    /// Keys and values of a map, the entries in `range`.
    Map(&'a StringArray, &'a StringArray, Range<usize>),
}

/// Value `row` of `column`: `None` for null.
fn value(column: &dyn Array, row: usize) -> Option<Value<'_>> {
    if column.is_null(row) {
        return None;
    }
    Some(match column.data_type() {
        DataType::UInt64 => Value::Unsigned(column.as_primitive::<UInt64Type>().value(row)),
        DataType::UInt32 => Value::Unsigned(column.as_primitive::<UInt32Type>().value(row).into()),
        DataType::Int32 => Value::Signed(column.as_primitive::<Int32Type>().value(row).into()),
        DataType::Float64 => Value::Float(column.as_primitive::<Float64Type>().value(row)),
        DataType::Boolean => Value::Bool(column.as_boolean().value(row)),
        DataType::List(_) => {
            let list = column.as_list::<i32>();
            let offsets = list.value_offsets();
            let values = list.values().as_primitive::<UInt8Type>().values();
            Value::Nags(&values[offsets[row] as usize..offsets[row + 1] as usize])
        }
        DataType::Map(..) => {
            let map = column.as_map();
            let offsets = map.value_offsets();
            let range = offsets[row] as usize..offsets[row + 1] as usize;
            Value::Map(map.keys().as_string::<i32>(), map.values().as_string::<i32>(), range)
        }
        // utf8 (the tables have no other type)
        _ => Value::Text(column.as_string_opt::<i32>().map_or("", |text| text.value(row))),
    })
}

/// `x` as Rust writes it (`{x}`): a whole number (most clocks) without the
/// float formatting's cost, `180` for 180.0.
fn push_float(out: &mut String, x: f64) {
    if x.fract() == 0.0 && x.abs() < 1e15 && !(x == 0.0 && x.is_sign_negative()) {
        push_integer(out, x < 0.0, x.abs() as u64);
    } else {
        let _ = core::fmt::Write::write_fmt(out, format_args!("{x}"));
    }
}

/// Appends row `row` of `batch` as a line of CSV (`keys` is `None`) or
/// JSON (see [`Fields`]).
fn batch_line(
    out: &mut String,
    field: &mut String,
    keys: Option<&[String]>,
    batch: &RecordBatch,
    row: usize,
    terminal: bool,
) {
    if keys.is_some() {
        out.push('{');
    }
    let mut fields = Fields::new(out, field, keys, terminal);
    for column in batch.columns() {
        fields.push(value(column, row));
    }
    if keys.is_some() {
        out.push('}');
    }
    out.push('\n');
}

/// Each column's name as a JSON object's key, with its colon.
fn json_keys(schema: &SchemaRef) -> Vec<String> {
    let key = |name: &str| {
        let mut key = String::new();
        json_string(&mut key, name);
        key.push(':');
        key
    };
    schema.fields().iter().map(|field| key(field.name())).collect()
}

fn json_string(out: &mut String, text: &str) {
    out.push('"');
    // printable ASCII but `"` and `\` (most text, every column's name): as
    // it is, without looking at each character again
    if text.bytes().all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\') {
        out.push_str(text);
        out.push('"');
        return;
    }
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if shown_escaped(c) => {
                let _ = core::fmt::Write::write_fmt(out, format_args!("\\u{:04x}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A row's fields, one after another: as CSV (`keys` is `None`), or as the
/// members of a JSON object (with the columns' `keys`, see [`json_keys`]),
/// each but the first column's after a comma.
///
/// In CSV, null is an empty field, NAGs are separated by spaces, the other
/// tags are a JSON object; fields are quoted when they need it, and written
/// to a `terminal`, their control characters are escaped. In JSON, text is
/// escaped so that no control character (C0, DEL, C1) is written raw.
struct Fields<'a> {
    out: &'a mut String,
    /// Room for a CSV field written before it is quoted.
    field: &'a mut String,
    keys: Option<&'a [String]>,
    terminal: bool,
    /// The next field's column.
    column: usize,
}

impl<'a> Fields<'a> {
    fn new(out: &'a mut String, field: &'a mut String, keys: Option<&'a [String]>, terminal: bool) -> Fields<'a> {
        Fields { out, field, keys, terminal, column: 0 }
    }

    /// Starts the next field: the comma before it and, in JSON, its key.
    #[inline]
    fn key(&mut self) {
        if self.column > 0 {
            self.out.push(',');
        }
        if let Some(keys) = self.keys {
            self.out.push_str(&keys[self.column]);
        }
        self.column += 1;
    }

    fn json(&self) -> bool {
        self.keys.is_some()
    }

    /// Writes the next field, a value of any column (see [`value`]).
    fn push(&mut self, value: Option<Value<'_>>) {
        match value {
            None => self.null(),
            Some(Value::Text(text)) => self.text(text),
            Some(Value::Unsigned(n)) => self.unsigned(n),
            Some(Value::Signed(n)) => self.signed(n),
            Some(Value::Float(x)) => self.float(x),
            Some(Value::Bool(b)) => self.bool(b),
            Some(Value::Nags(nags)) => self.nags(nags),
            Some(Value::Map(keys, values, range)) => self.map(keys, values, range),
        }
    }

    /// The next field, or null for `None`.
    #[inline]
    fn or_null<T>(&mut self, value: Option<T>, push: impl FnOnce(&mut Self, T)) {
        match value {
            Some(value) => push(self, value),
            None => self.null(),
        }
    }

    #[inline]
    fn null(&mut self) {
        self.key();
        if self.json() {
            self.out.push_str("null");
        }
    }

    #[inline]
    fn text(&mut self, text: &str) {
        self.key();
        if self.json() {
            json_string(self.out, text);
        } else {
            push_csv_text(self.out, text, self.terminal);
        }
    }

    #[inline]
    fn unsigned(&mut self, n: u64) {
        self.key();
        push_integer(self.out, false, n);
    }

    #[inline]
    fn signed(&mut self, n: i64) {
        self.key();
        push_integer(self.out, n < 0, n.unsigned_abs());
    }

    #[inline]
    fn float(&mut self, x: f64) {
        self.key();
        push_float(self.out, x);
    }

    #[inline]
    fn bool(&mut self, b: bool) {
        self.key();
        self.out.push_str(if b { "true" } else { "false" });
    }

    /// NAGs: a JSON array, or numbers separated by spaces.
    fn nags(&mut self, nags: &[u8]) {
        self.key();
        let json = self.json();
        if json {
            self.out.push('[');
        }
        for (k, &nag) in nags.iter().enumerate() {
            if k > 0 {
                self.out.push(if json { ',' } else { ' ' });
            }
            push_integer(self.out, false, nag.into());
        }
        if json {
            self.out.push(']');
        }
    }

    /// A map's entries in `range`, as a JSON object (a CSV field holding
    /// one).
    fn map(&mut self, keys: &StringArray, values: &StringArray, range: Range<usize>) {
        self.key();
        let json = self.json();
        let object = &mut *self.field;
        object.clear();
        object.push('{');
        for i in range.clone() {
            if i > range.start {
                object.push(',');
            }
            json_string(object, keys.value(i));
            object.push(':');
            if values.is_valid(i) {
                json_string(object, values.value(i));
            } else {
                object.push_str("null");
            }
        }
        object.push('}');
        if json {
            self.out.push_str(object);
        } else {
            push_csv_text(self.out, object, self.terminal);
        }
    }

    /// Writes a move's fields in the moves table's columns after `file`
    /// and `game`, in the table's order: as
    /// [`moves_batch`](sanfen::pgn::table::moves_batch) makes the columns,
    /// which a test holds them to.
    fn push_move<'r>(&mut self, row: &MoveRow<'r>) {
        let text = |text: &'r str| (!text.is_empty()).then_some(text);
        if let Some(path) = row.path {
            self.text(path);
        }
        self.unsigned(row.ply.into());
        self.unsigned(row.number.into());
        self.text(side_name(row.side));
        self.text(row.san);
        self.text(row.uci);
        self.or_null(text(row.written), Fields::text);
        self.bool(row.capture);
        self.bool(row.check);
        self.or_null(row.clock, |fields, time| fields.float(time.as_secs_f64()));
        self.or_null(row.elapsed, |fields, time| fields.float(time.as_secs_f64()));
        self.or_null(row.eval_cp(), |fields, cp| fields.signed(cp.into()));
        self.or_null(row.eval_mate(), |fields, mate| fields.signed(mate.into()));
        self.nags(row.nags);
        self.or_null(text(row.comment), Fields::text);
        if let Some(fen) = row.fen {
            self.text(fen);
        }
    }
}

/// Appends a CSV field as [`push_csv_field`] does, its control characters
/// escaped when written to a `terminal`.
fn push_csv_text(out: &mut String, text: &str, terminal: bool) {
    if terminal {
        push_csv_field(out, &escape(text));
    } else {
        push_csv_field(out, text);
    }
}

/// Appends a CSV field: quoted (quotes doubled) when it holds a comma, a
/// quote or a line end.
fn push_csv_field(out: &mut String, text: &str) {
    if text.contains([',', '"', '\n', '\r']) {
        out.push('"');
        for part in text.split_inclusive('"') {
            out.push_str(part);
            if part.ends_with('"') {
                out.push('"');
            }
        }
        out.push('"');
    } else {
        out.push_str(text);
    }
}

/// A CSV field (see [`push_csv_field`]).
fn csv_field(text: &str) -> String {
    let mut out = String::new();
    push_csv_field(&mut out, text);
    out
}

#[cfg(test)]
mod tests {
    use sanfen::pgn::rows::read_move_rows_input;
    use sanfen::pgn::table::moves_batch;

    use super::*;

    #[test]
    fn numbers_are_written_as_rust_writes_them() {
        let plain = |value: Value<'_>| {
            let (mut out, mut field) = (String::new(), String::new());
            Fields::new(&mut out, &mut field, None, false).push(Some(value));
            out
        };
        for n in [0, 7, 10, 99, 180, 65_536, u64::from(u32::MAX), u64::MAX] {
            assert_eq!(plain(Value::Unsigned(n)), n.to_string());
        }
        for n in [0, -1, 1, i64::MIN, i64::MAX, -250, 300] {
            assert_eq!(plain(Value::Signed(n)), n.to_string());
        }
        let floats = [0.0, -0.0, 180.0, -3.0, 9.25, 0.1, 1e15, 1e15 - 1.0, -1e15, 1e300, f64::MAX, 2.5e-8, 59.999];
        for x in floats {
            assert_eq!(plain(Value::Float(x)), x.to_string(), "{x:?}");
        }
        assert_eq!(plain(Value::Float(-0.0)), "-0");
        assert_eq!(plain(Value::Float(180.0)), "180");
    }

    #[test]
    fn moves_are_written_as_their_record_batch_is() {
        // every kind of value: clocks, an elapsed time, evaluations (a mate,
        // a score too large for the table), NAGs, comments that need quoting
        // and escaping, a move written otherwise, variations
        let pgn = "[Event \"a\"]\n\n1. e4 {[%clk 0:03:00] [%eval 0.25] plain} e5 $1 $14 \
            {say \"hi\", then\nnew line [%emt 0:00:02.5]} 2. Ng1f3!? {[%eval #-3]} (2. Nc3 \
            {[%eval 99999999999]} Nc6 (2... Nf6 {\u{1b}[31m})) 2... Nc6 {[%clk 1:00:00.25]} *\n\n\
            [Event \"b\"]\n\n1. d4 d5 *\n";
        let file = "dir/a, b.pgn";
        for (fen, variations) in [(false, false), (true, false), (false, true), (true, true)] {
            let options = MoveRowOptions { fen, variations, ..MoveRowOptions::default() };
            let input = Input::from_reader(io::Cursor::new(pgn.as_bytes().to_vec()), None).unwrap();
            let chunks: Vec<MoveRows> = read_move_rows_input(input, 1, options).unwrap().map(Result::unwrap).collect();
            let [rows] = &chunks[..] else { panic!("{} chunks", chunks.len()) };
            assert_eq!(rows.len(), if variations { 9 } else { 6 });
            let schema = moves_schema(options);
            let batch = moves_batch(rows.clone(), file, &schema).unwrap();
            for (csv, terminal) in [(true, false), (true, true), (false, false)] {
                let mut written = Vec::new();
                let keys = (!csv).then(|| json_keys(&schema));
                TextRows::of(rows, file, keys.as_deref(), terminal).write(&mut written, 0);
                let (mut expected, mut field) = (String::new(), String::new());
                for row in 0..batch.num_rows() {
                    batch_line(&mut expected, &mut field, keys.as_deref(), &batch, row, terminal);
                }
                assert_eq!(String::from_utf8(written).unwrap(), expected, "{options:?}, csv {csv}");
            }
        }
        let mut written = Vec::new();
        let options = MoveRowOptions::default();
        let input = Input::from_reader(io::Cursor::new(pgn.as_bytes().to_vec()), None).unwrap();
        for rows in read_move_rows_input(input, 1, options).unwrap() {
            TextRows::of(&rows.unwrap(), file, None, false).write(&mut written, 0);
        }
        let lines: Vec<&str> = core::str::from_utf8(&written).unwrap().lines().collect();
        assert_eq!(lines[0], "\"dir/a, b.pgn\",1,1,1,white,e4,e2e4,,false,false,180,,25,,,plain");
        assert_eq!(lines[1], "\"dir/a, b.pgn\",1,2,1,black,e5,e7e5,,false,false,,2.5,,,1 14,\"say \"\"hi\"\", then");
        assert_eq!(lines[2], "new line\"");
        assert_eq!(lines[3], "\"dir/a, b.pgn\",1,3,2,white,Nf3,g1f3,Ng1f3!?,false,false,,,,-3,5,");
        assert_eq!(lines[4], "\"dir/a, b.pgn\",1,4,2,black,Nc6,b8c6,,false,false,3600.25,,,,,");
        assert_eq!(lines[5], "\"dir/a, b.pgn\",2,1,1,white,d4,d2d4,,false,false,,,,,,");
    }

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(csv_field("Nf3"), "Nf3");
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
    }

    #[test]
    fn json_strings_escape_every_control_character() {
        let mut out = String::new();
        json_string(&mut out, "a\"b\\c\n\u{1b}[31m\u{7f}\u{9b}é");
        assert_eq!(out, "\"a\\\"b\\\\c\\n\\u001b[31m\\u007f\\u009bé\"");
        // each alone, and text with none (written as it is)
        for (text, expected) in [
            ("\"", "\\\""),
            ("\\", "\\\\"),
            ("\u{0}", "\\u0000"),
            ("\u{1f}", "\\u001f"),
            ("\u{7f}", "\\u007f"),
            ("\u{85}", "\\u0085"),
            ("\t", "\\t"),
            ("é", "é"),
            (" plain ASCII, ~ {[%clk 0:01:00]} ", " plain ASCII, ~ {[%clk 0:01:00]} "),
            ("", ""),
        ] {
            out.clear();
            json_string(&mut out, text);
            assert_eq!(out, format!("\"{expected}\""), "{text:?}");
        }
    }

    #[test]
    fn the_format_is_told_by_the_extension() {
        let format = |output: &str| format_of(None, (!output.is_empty()).then_some(Path::new(output)));
        assert_eq!(format("").unwrap(), Format::Jsonl);
        assert_eq!(format("a.parquet").unwrap(), Format::Parquet);
        assert_eq!(format("a.CSV").unwrap(), Format::Csv);
        assert_eq!(format("a.ndjson").unwrap(), Format::Jsonl);
        assert!(format("a.txt").is_err());
        assert_eq!(format_of(Some(Format::Csv), Some(Path::new("a.txt"))).unwrap(), Format::Csv);
        assert_eq!(format_of(Some(Format::Csv), Some(Path::new("a.CSV.gz"))).unwrap(), Format::Csv);
        assert_eq!(format_of(Some(Format::Parquet), None).unwrap(), Format::Parquet);
        // the name and --format disagree: refused for a file, not for a device
        let refused = format_of(Some(Format::Csv), Some(Path::new("games.parquet"))).unwrap_err();
        assert_eq!(refused.to_string(), "games.parquet: the name says Parquet, --format says CSV");
        let refused = format_of(Some(Format::Parquet), Some(Path::new("games.jsonl.zst"))).unwrap_err();
        assert_eq!(refused.to_string(), "games.jsonl.zst: the name says JSON Lines, --format says Parquet");
    }
}
