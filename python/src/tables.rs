//! Games and moves as Arrow tables (`games_table`, `moves_table`), handed
//! to Python through the Arrow PyCapsule interface (`__arrow_c_stream__`),
//! which pyarrow, polars and duckdb read without a copy.
//!
//! The rows and their schema are the library's (`sanfen::pgn::table`): the
//! tables `sanfen export` writes. They are built with the GIL released;
//! Ctrl-C stops the building at the next batch (`KeyboardInterrupt`).

use std::fs::File;
use std::io;
use std::num::NonZeroUsize;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, SchemaRef};
use arrow_select::concat::concat_batches;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use pyo3_arrow::export::{Arro3RecordBatch, Arro3Schema};
use pyo3_arrow::{PyRecordBatchReader, PyTable};
use sanfen::pgn::input::{Input, InputError};
use sanfen::pgn::rows::{MoveRowChunks, MoveRowOptions, read_move_rows_input};
use sanfen::pgn::table::{GameTableChunks, games_schema, moves_batch, moves_schema, read_game_table_input};
use sanfen::pgn::{Chunker, Location, ReadError, Reader, Visitor, split};
use sanfen::san::Letters;

use crate::games::{
    BLOCK, FileObject, Raised, Source, input_error, open_source, read_error, read_error_message, threads_arg, try_hold,
};

/// The rows of a games table's record batch, at most.
const GAME_BATCH: usize = 1 << 14;

pub(crate) fn arrow_error(err: ArrowError) -> PyErr {
    PyRuntimeError::new_err(format!("cannot build the table: {err}"))
}

/// games_table(source, threads=None, letters="en")
/// --
///
/// The games of a PGN input as an Arrow table, one row per game, in input
/// order: the table `sanfen export` writes. `source` and `threads` as for
/// `read_games` (and the same exceptions, but for a game too large to
/// read, which is a row with its error); `letters` as for `check_pgn`. The object given has
/// `__arrow_c_stream__`: `pyarrow.table`, `polars.DataFrame` and duckdb
/// read it.
///
/// Columns (the names and types are a contract):
///
/// - `file`: utf8, the source's name (a path as given, each byte of it
///   that is not UTF-8 as `\xNN`; a file object's `name`, else
///   `<stream>`)
/// - `game`: uint64, the game's number in the input, from 1
/// - `line`: uint32, the line the game starts on
/// - `byte_offset`: uint64, the byte the game starts at (of the decompressed
///   input)
/// - `Event`, `Site`, `Date`, `Round`, `White`, `Black`, `Result`: utf8,
///   the Seven Tag Roster tags' values (null when the tag is absent)
/// - `other_tags`: map<utf8, utf8>, the other tags in input order
/// - `movetext_result`: utf8, the termination marker of the movetext (`1-0`, `0-1`,
///   `1/2-1/2`, `*`), null when there is none
/// - `termination`: utf8, how the final position ends the game
///   (`checkmate`, `stalemate`, `insufficient material`, `fivefold
///   repetition`, `seventy-five-move rule`), null when it does not
/// - `plies`: uint32, the mainline's moves (up to the first that cannot be
///   played)
/// - `errors`: uint32, the error findings (as `Game.errors`)
/// - `first_error`: utf8, the first error finding, as `line:column: [code]
///   message`, null when there is none
/// - `eco`, `opening`: utf8, the ECO code and name of the deepest position
///   of the mainline that lichess's chess-openings names, null when none
#[pyfunction]
#[pyo3(signature = (source, threads=None, letters="en"))]
pub fn games_table(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    threads: Option<usize>,
    letters: &str,
) -> PyResult<PyTable> {
    let (threads, letters) = (threads_arg(threads)?, crate::position::letters(letters)?);
    let (batches, raised) = game_batches(open_source(source)?, threads, letters, 0)?;
    BatchReader::new(batches, raised).read_all(py)
}

/// The games table's record batches of `source`, as they are read, its
/// moves read in `letters`, its games numbered after `before`.
fn game_batches(source: Source, threads: usize, letters: Letters, before: u64) -> PyResult<(GameBatches, Raised)> {
    let Source { input, name, raised } = source;
    let chunks = read_game_table_input(input, threads, &name, letters)
        .map_err(|err| Source::raise(&raised, input_error(&err, &name)))?
        .after(before);
    Ok((GameBatches { chunks, name, number: before, held: Vec::new(), done: false }, raised))
}

/// What reading a table's batches can fail with: reading the game
/// numbered, or making a batch.
enum BatchError {
    Read(ReadError, u64),
    Arrow(ArrowError),
}

/// A table's record batches, read as they are asked for: one batch's rows
/// at a time are held, whatever the input's size.
trait Batches: Iterator<Item = Result<RecordBatch, BatchError>> + Send {
    /// The source's name, which errors name.
    fn name(&self) -> &str;
    /// The table's schema.
    fn schema(&self) -> SchemaRef;
}

/// The games table's batches of an input, of [`GAME_BATCH`] rows but the
/// last: the rows of the chunks the reading threads make (see
/// [`read_game_table_input`]), joined and cut.
struct GameBatches {
    chunks: GameTableChunks,
    name: String,
    /// The games read.
    number: u64,
    /// The chunks' rows not given yet.
    held: Vec<RecordBatch>,
    done: bool,
}

impl Iterator for GameBatches {
    type Item = Result<RecordBatch, BatchError>;

    fn next(&mut self) -> Option<Self::Item> {
        let held = |batches: &[RecordBatch]| batches.iter().map(RecordBatch::num_rows).sum::<usize>();
        while held(&self.held) < GAME_BATCH && !self.done {
            match self.chunks.next() {
                Some(Ok(batch)) => {
                    self.number += batch.num_rows() as u64;
                    self.held.push(batch);
                }
                Some(Err(err)) => {
                    // the rows held are dropped, as the stream ends
                    self.done = true;
                    self.held.clear();
                    return Some(Err(BatchError::Read(err, self.number + 1)));
                }
                None => self.done = true,
            }
        }
        let rows = held(&self.held);
        if rows == 0 {
            return None;
        }
        let joined = match concat_batches(&games_schema(), &self.held) {
            Ok(joined) => joined,
            Err(err) => return Some(Err(BatchError::Arrow(err))),
        };
        let size = rows.min(GAME_BATCH);
        self.held = if rows > size { vec![joined.slice(size, rows - size)] } else { Vec::new() };
        Some(Ok(joined.slice(0, size)))
    }
}

impl Batches for GameBatches {
    fn name(&self) -> &str {
        &self.name
    }

    fn schema(&self) -> SchemaRef {
        games_schema()
    }
}

/// moves_table(source, threads=None, fen=False, variations=False, letters="en")
/// --
///
/// The moves of every game of a PGN input as an Arrow table, one row per
/// move, in input order (a game's moves up to the first that cannot be
/// played): the table `sanfen export --table moves` writes. The mainline
/// only; with `variations=True` the variations' moves too, each after the
/// move it replaces, with a `path` column. `source` and `threads` as for
/// `read_games` (and the same exceptions, but for a game too large to
/// read, which has no rows: `games_table` has its error). The object given has
/// `__arrow_c_stream__`: `pyarrow.table`, `polars.DataFrame` and duckdb
/// read it.
///
/// Columns (the names and types are a contract):
///
/// - `file`: utf8, the source's name (as in `games_table`)
/// - `game`: uint64, the game's number in the input, from 1
/// - `path`: utf8, only with `variations=True`: the move's line, empty for
///   the mainline; for a variation `PLY.N` (the Nth variation of the
///   parent line's move at PLY), nested ones after their parents' joined
///   by `/` (`12.1/15.2`)
/// - `ply`: uint32, half-moves from the game's start, this one included
/// - `number`: uint32, the move number
/// - `side`: utf8, `white` or `black`
/// - `san`: utf8, canonical SAN with its check mark
/// - `uci`: utf8 (`0000` for a null move)
/// - `written`: utf8, the token as written when it is not the SAN, else
///   null
/// - `is_capture`, `is_check`: bool, whether the move captures, gives check
/// - `clock`: float64, the clock after the move in seconds (`[%clk]`),
///   null when absent
/// - `elapsed`: float64, the move's time in seconds (`[%emt]`), null when
///   absent
/// - `eval_cp`: int32, the evaluation in centipawns from White's side
///   (`[%eval]`), null when absent or a mate
/// - `eval_mate`: int32, mate in N from White's side (negative: Black
///   mates), null when absent or a score in centipawns
/// - `nags`: list<uint8>, the NAGs after the move
/// - `comment`: utf8, the comments' text without commands (as
///   `Move.comment`), null when empty
/// - `fen`: utf8, the position after the move as FEN (only with
///   `fen=True`)
#[pyfunction]
#[pyo3(signature = (source, threads=None, fen=false, variations=false, letters="en"))]
pub fn moves_table(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    threads: Option<usize>,
    fen: bool,
    variations: bool,
    letters: &str,
) -> PyResult<PyTable> {
    let options = MoveRowOptions { fen, variations, letters: crate::position::letters(letters)? };
    let (batches, raised) = move_batches(open_source(source)?, threads_arg(threads)?, options, 0)?;
    BatchReader::new(batches, raised).read_all(py)
}

/// The moves table's record batches of `source`, as they are read, its
/// games numbered after `before`.
fn move_batches(
    source: Source,
    threads: usize,
    options: MoveRowOptions,
    before: u64,
) -> PyResult<(MoveBatches, Raised)> {
    let Source { input, name, raised } = source;
    let chunks = read_move_rows_input(input, threads, options)
        .map_err(|err| Source::raise(&raised, input_error(&err, &name)))?;
    Ok((MoveBatches::new(chunks, moves_schema(options), name, before), raised))
}

/// The moves table's batches of an input, one per chunk (or part of a
/// chunk) with rows: see [`move_batches`].
struct MoveBatches {
    chunks: MoveRowChunks,
    schema: SchemaRef,
    name: String,
    /// What the games are numbered after.
    before: u64,
    /// Games before the next chunk (a game too large to read counts).
    games: u64,
    done: bool,
}

impl MoveBatches {
    /// The batches of `chunks`, of the source `name`, in `schema`, the games
    /// numbered after `before`.
    fn new(chunks: MoveRowChunks, schema: SchemaRef, name: String, before: u64) -> MoveBatches {
        MoveBatches { chunks, schema, name, before, games: before, done: false }
    }
}

impl Iterator for MoveBatches {
    type Item = Result<RecordBatch, BatchError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            match self.chunks.next() {
                None => self.done = true,
                Some(Ok(mut rows)) => {
                    self.games += rows.games;
                    if rows.is_empty() {
                        continue;
                    }
                    for game in &mut rows.game {
                        *game += self.before;
                    }
                    return Some(moves_batch(rows, &self.name, &self.schema).map_err(BatchError::Arrow));
                }
                // a game too large to read has no rows (`games_table` has its error)
                Some(Err(ReadError::TooLarge { .. })) => self.games += 1,
                Some(Err(err)) => {
                    self.done = true;
                    return Some(Err(BatchError::Read(err, self.games + 1)));
                }
            }
        }
        None
    }
}

impl Batches for MoveBatches {
    fn name(&self) -> &str {
        &self.name
    }

    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// games_batches(source, threads=None, letters="en")
/// --
///
/// The table of `games_table` as a stream of Arrow record batches, read as
/// they are asked for: memory holds a few batches however large the input
/// (`games_table` holds the whole table). `source` and `threads` as for
/// `read_games`; a source that cannot be opened raises here. The object
/// given, a `BatchReader`, is iterated (`for batch in ...`: each an
/// `arro3.core.RecordBatch`, read with the GIL released; a read error met
/// on the way raises what `read_games` raises for it, the file object's
/// own exception included) or has `__arrow_c_stream__`, read once:
/// `pyarrow.RecordBatchReader.from_stream` reads it batch by batch (and
/// `pyarrow.parquet.ParquetWriter` can write each batch as it comes); a
/// read error then ends the stream with an error that names the source
/// (pyarrow raises `OSError`).
#[pyfunction]
#[pyo3(signature = (source, threads=None, letters="en"))]
pub fn games_batches(source: &Bound<'_, PyAny>, threads: Option<usize>, letters: &str) -> PyResult<BatchReader> {
    let (threads, letters) = (threads_arg(threads)?, crate::position::letters(letters)?);
    let (batches, raised) = game_batches(open_source(source)?, threads, letters, 0)?;
    Ok(BatchReader::new(batches, raised))
}

/// moves_batches(source, threads=None, fen=False, variations=False, letters="en")
/// --
///
/// The table of `moves_table` as a stream of Arrow record batches, read as
/// they are asked for (a batch for each chunk of the input that has moves;
/// the moves of long games in batches of about 16 MiB of rows), as
/// `games_batches` streams the games table. The moves are read on
/// `threads` threads beside the one that takes the batches.
#[pyfunction]
#[pyo3(signature = (source, threads=None, fen=false, variations=false, letters="en"))]
pub fn moves_batches(
    source: &Bound<'_, PyAny>,
    threads: Option<usize>,
    fen: bool,
    variations: bool,
    letters: &str,
) -> PyResult<BatchReader> {
    let options = MoveRowOptions { fen, variations, letters: crate::position::letters(letters)? };
    let (batches, raised) = move_batches(open_source(source)?, threads_arg(threads)?, options, 0)?;
    Ok(BatchReader::new(batches, raised))
}

/// The schema a table of `kind` has with these options.
fn schema_of(kind: &str, fen: bool, variations: bool) -> PyResult<SchemaRef> {
    match kind {
        "games" => Ok(games_schema()),
        "moves" => Ok(moves_schema(MoveRowOptions { fen, variations, ..MoveRowOptions::default() })),
        other => {
            Err(pyo3::exceptions::PyValueError::new_err(format!("table must be \"games\" or \"moves\", not {other:?}")))
        }
    }
}

/// The bytes asked at a time of a file object a range or a whole file is
/// read from: a remote store's file (`pyarrow.fs`) makes a request of each
/// read.
const RANGE_BLOCK: usize = 4 << 20;

/// A file `sanfen.spark` reads: a path, or a seekable binary file object
/// (a file of a remote store opened by `pyarrow.fs`, say).
enum RangeFile {
    Path(PathBuf),
    Object(FileObject),
}

impl RangeFile {
    /// `source` and the name its errors carry: `name`, else the path as
    /// given (`<stream>` for an object, read `block` bytes at a time).
    fn of(
        source: &Bound<'_, PyAny>,
        name: Option<String>,
        block: usize,
        raised: &Raised,
    ) -> PyResult<(RangeFile, String)> {
        if source.hasattr("read")? {
            let file = RangeFile::Object(FileObject::new(source.clone().unbind(), block, raised.clone()));
            return Ok((file, name.unwrap_or_else(|| "<stream>".to_owned())));
        }
        let path: PathBuf = source.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "expected a path (str or os.PathLike) or a seekable binary file object, not {}",
                source.get_type().name().map_or_else(|_| "?".to_owned(), |name| name.to_string())
            ))
        })?;
        let name = name.unwrap_or_else(|| sanfen::pgn::shown_name(path.as_os_str()));
        Ok((RangeFile::Path(path), name))
    }

    /// The bytes `range` of the uncompressed file, the first at `start` (as
    /// [`Input::open_range`]).
    fn open_range(self, range: Range<u64>, start: Location) -> Result<Input, InputError> {
        match self {
            RangeFile::Path(path) => Input::open_range(&path, range, start),
            RangeFile::Object(file) => Input::of_range(file, range, start),
        }
    }

    /// The whole file, decompressed when its first bytes say so.
    fn open(self) -> Result<Input, InputError> {
        match self {
            RangeFile::Path(path) => Input::open(&path),
            RangeFile::Object(file) => Input::from_reader(file, None),
        }
    }
}

/// _byte_ranges(source, parts, name=None)
/// --
///
/// The byte ranges `(start, end)` of `parts` parts of an uncompressed PGN
/// file, each starting at a game boundary (as `sanfen split --ranges`):
/// for `sanfen.spark`. `source`: a path or a seekable binary file object;
/// `name`: the file's name in errors.
#[pyfunction]
#[pyo3(signature = (source, parts, name=None))]
pub fn _byte_ranges(source: &Bound<'_, PyAny>, parts: usize, name: Option<String>) -> PyResult<Vec<(u64, u64)>> {
    let parts = NonZeroUsize::new(parts)
        .filter(|parts| parts.get() <= split::MOST_RANGES)
        .ok_or_else(|| PyValueError::new_err(format!("parts must be from 1 to {}", split::MOST_RANGES)))?;
    let raised = Raised::default();
    // (small reads: the ranges' starts are looked for near their offsets)
    let (file, name) = RangeFile::of(source, name, BLOCK, &raised)?;
    source
        .py()
        .detach(|| match file {
            RangeFile::Path(path) => split::ranges(&mut File::open(&path)?, parts),
            RangeFile::Object(mut file) => split::ranges(&mut file, parts),
        })
        .map(|ranges| ranges.into_iter().map(|range| (range.start, range.end)).collect())
        .map_err(|err| Source::raise(&raised, PyOSError::new_err(format!("{name}: {err}"))))
}

/// _range_counts(source, start, end, name=None)
/// --
///
/// The games and the line ends in the bytes `start..end` of an
/// uncompressed PGN file (a range of `_byte_ranges`; `source` and `name`
/// as there): what the ranges after it are numbered after.
#[pyfunction]
#[pyo3(signature = (source, start, end, name=None))]
pub fn _range_counts(source: &Bound<'_, PyAny>, start: u64, end: u64, name: Option<String>) -> PyResult<(u64, u64)> {
    let raised = Raised::default();
    let (file, name) = RangeFile::of(source, name, RANGE_BLOCK, &raised)?;
    let at = Location { line: 1, column: 1, offset: start };
    let py = source.py();
    let input = py
        .detach(|| file.open_range(start..end, at))
        .map_err(|err| Source::raise(&raised, input_error(&err, &name)))?;
    py.detach(|| -> io::Result<(u64, u64)> {
        let mut chunker = Chunker::new(input.reader).starting_at(input.start);
        let (mut games, mut lines) = (0, 0);
        let mut buffer = Vec::new();
        while let Some(chunk) = chunker.next_chunk(buffer)? {
            lines += memchr::memchr_iter(b'\n', &chunk.data).count() as u64;
            match chunk.oversized {
                Some(oversized) => games += u64::from(oversized.last),
                None => {
                    let mut reader = Reader::with_start(&chunk.data, chunk.start);
                    while reader.read_game(&mut Count).is_some() {
                        games += 1;
                    }
                }
            }
            buffer = chunk.data;
        }
        Ok((games, lines))
    })
    .map_err(|err| Source::raise(&raised, PyOSError::new_err(format!("{name}: {err}"))))
}

/// A visitor that only sees games go by.
struct Count;

impl Visitor for Count {
    type Output = ();

    fn end_game(&mut self, _at: Location) {}
}

/// _range_batches(source, start, end, table, fen, variations, first_game, first_line, name)
/// --
///
/// The games or moves table (`table`: "games" or "moves") of the bytes
/// `start..end` of an uncompressed PGN file (`source`: a path or a
/// seekable binary file object), a range that starts at a game boundary on
/// line `first_line`, its games numbered from `first_game`, the `file`
/// column `name`: for `sanfen.spark`. Compressed files are read whole
/// (`start` 0, `end` None; a file object from where it is). A stream of
/// record batches (`__arrow_c_stream__`), read as they are asked for: the
/// rows of a batch or two are held at a time, however large the file. A
/// read error ends the stream with an error that names the file.
#[pyfunction]
#[pyo3(signature = (source, start, end, table, fen, variations, first_game, first_line, name, letters="en"))]
#[allow(clippy::too_many_arguments)]
pub fn _range_batches(
    source: &Bound<'_, PyAny>,
    start: u64,
    end: Option<u64>,
    table: &str,
    fen: bool,
    variations: bool,
    first_game: u64,
    first_line: u32,
    name: String,
    letters: &str,
) -> PyResult<BatchReader> {
    // a table or letters it has not: an error before the file is opened
    schema_of(table, fen, variations)?;
    let letters = crate::position::letters(letters)?;
    let raised = Raised::default();
    // (errors name the file as the `file` column does)
    let (file, display) = RangeFile::of(source, Some(name.clone()), RANGE_BLOCK, &raised)?;
    let input = source
        .py()
        .detach(|| match end {
            None => file.open(),
            Some(end) => file.open_range(start..end, Location { line: first_line, column: 1, offset: start }),
        })
        .map_err(|err| Source::raise(&raised, input_error(&err, &display)))?;
    if let Some(reason) = &input.not_text {
        return Err(PyValueError::new_err(format!("{display}: not PGN text: {reason}")));
    }
    let source = Source { input, name, raised };
    let before = first_game.saturating_sub(1);
    Ok(if table == "games" {
        let (batches, raised) = game_batches(source, 1, letters, before)?;
        BatchReader::new(batches, raised)
    } else {
        let (batches, raised) = move_batches(source, 1, MoveRowOptions { fen, variations, letters }, before)?;
        BatchReader::new(batches, raised)
    })
}

/// Batches as Arrow's [`RecordBatchReader`] (those `kept` first), a read
/// error as an I/O error whose message names the file (what an Arrow
/// stream's reader raises).
struct Stream {
    kept: std::collections::VecDeque<RecordBatch>,
    batches: Box<dyn Batches>,
}

impl Iterator for Stream {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(batch) = self.kept.pop_front() {
            return Some(Ok(batch));
        }
        let batch = self.batches.next()?;
        Some(batch.map_err(|err| match err {
            BatchError::Arrow(err) => err,
            BatchError::Read(err, number) => {
                let message = read_error_message(&err, self.batches.name(), number);
                ArrowError::IoError(message.clone(), io::Error::other(message))
            }
        }))
    }
}

impl RecordBatchReader for Stream {
    fn schema(&self) -> SchemaRef {
        self.batches.schema()
    }
}

/// A table's record batches, read as they are asked for (what
/// `games_batches` and `moves_batches` give): iterated from Python, each
/// batch is read with the GIL released and a read error raises what
/// `read_games` raises for it (an `OSError` by its kind, a `ValueError`
/// for a broken compressed stream, the file object's own exception); read
/// through `__arrow_c_stream__` (pyarrow, polars, duckdb), an error ends
/// the stream with its message.
#[pyclass(module = "sanfen._sanfen", name = "BatchReader", frozen)]
pub struct BatchReader {
    state: Mutex<State>,
    schema: SchemaRef,
    raised: Raised,
}

/// What a [`BatchReader`] holds.
struct State {
    held: Held,
    /// Batches read by a `read_all` that a signal interrupted, given first.
    kept: std::collections::VecDeque<RecordBatch>,
}

/// The batches of a [`State`], or why there are none.
enum Held {
    Batches(Box<dyn Batches>),
    /// Read to its end by `read_all`, or to an error: iteration stops.
    Ended,
    /// Given to a reader of `__arrow_c_stream__`: reading it is an error.
    HandedOver,
}

impl BatchReader {
    fn new(batches: impl Batches + 'static, raised: Raised) -> BatchReader {
        let schema = batches.schema();
        let held = Held::Batches(Box::new(batches));
        BatchReader { state: Mutex::new(State { held, kept: Default::default() }), schema, raised }
    }

    /// What it holds, unless another thread is reading it.
    fn state(&self) -> PyResult<MutexGuard<'_, State>> {
        try_hold(&self.state, "the batches")
    }

    /// The next batch, `None` at the end.
    fn next_batch(&self, py: Python<'_>) -> PyResult<Option<RecordBatch>> {
        let mut state = self.state()?;
        if let Some(batch) = state.kept.pop_front() {
            return Ok(Some(batch));
        }
        let batches = match &mut state.held {
            Held::Batches(batches) => batches,
            Held::Ended => return Ok(None),
            Held::HandedOver => return Err(closed()),
        };
        let batch = py.detach(|| batches.next());
        match batch {
            Some(Ok(batch)) => Ok(Some(batch)),
            None => Ok(None),
            Some(Err(err)) => {
                // nothing is read after an error
                let name = batches.name().to_owned();
                state.held = Held::Ended;
                Err(match err {
                    BatchError::Read(err, number) => read_error(err, &name, number, &self.raised),
                    BatchError::Arrow(err) => arrow_error(err),
                })
            }
        }
    }
}

/// The error of a stream read already.
fn closed() -> PyErr {
    pyo3::exceptions::PyIOError::new_err("closed stream: the batches were read (a stream is read once)")
}

#[pymethods]
impl BatchReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Arro3RecordBatch>> {
        // (a signal's handler runs as this returns: Ctrl-C stops a loop
        // over the batches after the one read)
        Ok(self.next_batch(py)?.map(Arro3RecordBatch::from))
    }

    /// The next batch; `StopIteration` at the end.
    fn read_next_batch(&self, py: Python<'_>) -> PyResult<Arro3RecordBatch> {
        self.__next__(py)?.ok_or_else(|| pyo3::exceptions::PyStopIteration::new_err(()))
    }

    /// The batches not read yet, as a table (the stream is then closed).
    /// A signal's exception (Ctrl-C's `KeyboardInterrupt`) is raised at
    /// the next batch, the reading stopped; on an error or a signal, the
    /// batches read are kept for the next read, none lost.
    fn read_all(&self, py: Python<'_>) -> PyResult<PyTable> {
        let mut all = Vec::new();
        loop {
            let read = match self.next_batch(py) {
                Ok(Some(batch)) => {
                    all.push(batch);
                    py.check_signals()
                }
                Ok(None) => break,
                Err(err) => Err(err),
            };
            if let Err(err) = read {
                self.state()?.kept.extend(all);
                return Err(err);
            }
        }
        self.state()?.held = Held::Ended;
        // (a table of no rows has a batch: some readers want one)
        if all.is_empty() {
            all.push(RecordBatch::new_empty(self.schema.clone()));
        }
        PyTable::try_new(all, self.schema.clone())
    }

    /// The table's schema.
    #[getter]
    fn schema(&self) -> Arro3Schema {
        self.schema.clone().into()
    }

    /// Whether the batches were read to the end by `read_all` or to an
    /// error, or handed over as a stream.
    #[getter]
    fn closed(&self) -> PyResult<bool> {
        let state = self.state()?;
        Ok(state.kept.is_empty() && !matches!(state.held, Held::Batches(_)))
    }

    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        Ok(pyo3_arrow::ffi::to_schema_pycapsule(py, self.schema.as_ref())?)
    }

    /// The batches not read yet as an Arrow C stream (read once).
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyCapsule>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut state = self.state()?;
        let kept = core::mem::take(&mut state.kept);
        let Held::Batches(batches) = core::mem::replace(&mut state.held, Held::HandedOver) else {
            return Err(closed());
        };
        let reader = Bound::new(py, PyRecordBatchReader::new(Box::new(Stream { kept, batches })))?;
        reader.call_method1("__arrow_c_stream__", (requested_schema,))
    }

    fn __repr__(&self) -> String {
        let names: Vec<&str> = self.schema.fields().iter().map(|field| field.name().as_str()).collect();
        format!("<sanfen BatchReader of {} columns: {}>", names.len(), names.join(", "))
    }
}

/// _schema(table, fen, variations)
/// --
///
/// The schema of a table, as an Arrow table of no rows.
#[pyfunction]
pub fn _schema(table: &str, fen: bool, variations: bool) -> PyResult<PyTable> {
    let schema = schema_of(table, fen, variations)?;
    PyTable::try_new(vec![RecordBatch::new_empty(schema.clone())], schema)
}
