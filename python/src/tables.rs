//! Games and moves as Arrow tables (`games_table`, `moves_table`), handed
//! to Python through the Arrow PyCapsule interface (`__arrow_c_stream__`),
//! which pyarrow, polars and duckdb read without a copy.
//!
//! The games come from the library's ordered parallel reader (see
//! `games.rs`); the rows are built with the GIL released.

use std::sync::Arc;

use arrow_array::builder::{MapBuilder, StringBuilder, UInt32Builder, UInt64Builder};
use arrow_array::{
    ArrayRef, Float64Array, Int32Array, ListArray, RecordBatch, StringArray, UInt8Array, UInt32Array, UInt64Array,
};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3_arrow::PyTable;
use sanfen::Severity;
use sanfen::pgn::SEVEN_TAG_ROSTER;
use sanfen::pgn::commands::Score;
use sanfen::pgn::rows::{MoveRowOptions, MoveRows, TextColumn, read_move_rows_input};

use crate::games::{GameStream, Source, input_error, open_source, read_error, result_text, side_name, threads_arg};

/// The rows a record batch holds at most.
const BATCH_ROWS: usize = 1 << 16;

fn arrow_error(err: ArrowError) -> PyErr {
    PyRuntimeError::new_err(format!("cannot build the table: {err}"))
}

/// games_table(source, threads=None)
/// --
///
/// The games of a PGN input as an Arrow table, one row per game, in input
/// order. `source` and `threads` as for `read_games` (and the same
/// exceptions). The object given has `__arrow_c_stream__`: `pyarrow.table`,
/// `polars.DataFrame` and duckdb read it.
///
/// Columns (the names and types are a contract):
///
/// - `game`: uint64, the game's number in the input, from 1
/// - `Event`, `Site`, `Date`, `Round`, `White`, `Black`, `Result`: utf8,
///   the Seven Tag Roster tags' values (null when the tag is absent)
/// - `other_tags`: map<utf8, utf8>, the other tags in input order
/// - `result`: utf8, the termination marker of the movetext (`1-0`, `0-1`,
///   `1/2-1/2`, `*`), null when there is none
/// - `plies`: uint32, the mainline's moves (up to the first that cannot be
///   played)
/// - `errors`: uint32, the error findings (as `Game.errors`)
/// - `first_error`: utf8, the message of the first error finding, as
///   `line:column: [code] message`, null when there is none
#[pyfunction]
#[pyo3(signature = (source, threads=None))]
pub fn games_table(py: Python<'_>, source: &Bound<'_, PyAny>, threads: Option<usize>) -> PyResult<PyTable> {
    let mut stream = GameStream::open(source, threads)?;
    let schema = games_schema();
    let mut batches = Vec::new();
    let mut rows = GameRows::default();
    while let Some((number, game)) = stream.next_game(py)? {
        py.detach(|| rows.push(number, &game));
        if rows.len >= BATCH_ROWS {
            let done = std::mem::take(&mut rows);
            batches.push(py.detach(|| done.finish(&schema)).map_err(arrow_error)?);
        }
    }
    if rows.len > 0 || batches.is_empty() {
        batches.push(rows.finish(&schema).map_err(arrow_error)?);
    }
    PyTable::try_new(batches, schema)
}

fn games_schema() -> SchemaRef {
    let mut fields = vec![Field::new("game", DataType::UInt64, false)];
    fields.extend(SEVEN_TAG_ROSTER.iter().map(|(name, _)| Field::new(*name, DataType::Utf8, true)));
    let entries = Field::new(
        "entries",
        DataType::Struct(
            vec![Field::new("keys", DataType::Utf8, false), Field::new("values", DataType::Utf8, true)].into(),
        ),
        false,
    );
    fields.push(Field::new("other_tags", DataType::Map(Arc::new(entries), false), false));
    fields.push(Field::new("result", DataType::Utf8, true));
    fields.push(Field::new("plies", DataType::UInt32, false));
    fields.push(Field::new("errors", DataType::UInt32, false));
    fields.push(Field::new("first_error", DataType::Utf8, true));
    Arc::new(Schema::new(fields))
}

/// The columns of `games_table`, being built.
struct GameRows {
    len: usize,
    game: UInt64Builder,
    roster: Vec<StringBuilder>,
    other: MapBuilder<StringBuilder, StringBuilder>,
    result: StringBuilder,
    plies: UInt32Builder,
    errors: UInt32Builder,
    first_error: StringBuilder,
}

impl Default for GameRows {
    fn default() -> GameRows {
        GameRows {
            len: 0,
            game: UInt64Builder::new(),
            roster: SEVEN_TAG_ROSTER.iter().map(|_| StringBuilder::new()).collect(),
            other: MapBuilder::new(None, StringBuilder::new(), StringBuilder::new()),
            result: StringBuilder::new(),
            plies: UInt32Builder::new(),
            errors: UInt32Builder::new(),
            first_error: StringBuilder::new(),
        }
    }
}

impl GameRows {
    fn push(&mut self, number: u64, game: &sanfen::pgn::Game) {
        self.len += 1;
        self.game.append_value(number);
        for ((name, _), column) in SEVEN_TAG_ROSTER.iter().zip(&mut self.roster) {
            column.append_option(game.tag(name));
        }
        for tag in &game.tags {
            if !SEVEN_TAG_ROSTER.iter().any(|(name, _)| *name == tag.name) {
                self.other.keys().append_value(&tag.name);
                self.other.values().append_value(&tag.value);
            }
        }
        // (the map's key and value columns always have the same length)
        let _ = self.other.append(true);
        self.result.append_option(game.result.map(result_text));
        self.plies.append_value(u32::try_from(game.mainline.moves.len()).unwrap_or(u32::MAX));
        self.errors.append_value(game.report.errors);
        let first = game.report.findings.iter().find(|f| f.severity() == Severity::Error);
        self.first_error
            .append_option(first.map(|f| format!("{}:{}: [{}] {}", f.at.line, f.at.column, f.kind.code(), f.kind)));
    }

    fn finish(mut self, schema: &SchemaRef) -> Result<RecordBatch, ArrowError> {
        let mut columns: Vec<ArrayRef> = vec![Arc::new(self.game.finish())];
        columns.extend(self.roster.iter_mut().map(|column| Arc::new(column.finish()) as ArrayRef));
        columns.push(Arc::new(self.other.finish()));
        columns.push(Arc::new(self.result.finish()));
        columns.push(Arc::new(self.plies.finish()));
        columns.push(Arc::new(self.errors.finish()));
        columns.push(Arc::new(self.first_error.finish()));
        RecordBatch::try_new(schema.clone(), columns)
    }
}

/// moves_table(source, threads=None, fen=False)
/// --
///
/// The mainline moves of every game of a PGN input as an Arrow table, one
/// row per move, in input order (a game's moves up to the first that
/// cannot be played). `source` and `threads` as for `read_games` (and the
/// same exceptions). The object given has `__arrow_c_stream__`:
/// `pyarrow.table`, `polars.DataFrame` and duckdb read it.
///
/// Columns (the names and types are a contract):
///
/// - `game`: uint64, the game's number in the input, from 1
/// - `ply`: uint32, half-moves from the game's start, this one included
/// - `number`: uint32, the move number
/// - `side`: utf8, `white` or `black`
/// - `san`: utf8, canonical SAN with its check mark
/// - `uci`: utf8 (`0000` for a null move)
/// - `clock`: float64, the clock after the move in seconds (`[%clk]`),
///   null when absent
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
#[pyo3(signature = (source, threads=None, fen=false))]
pub fn moves_table(py: Python<'_>, source: &Bound<'_, PyAny>, threads: Option<usize>, fen: bool) -> PyResult<PyTable> {
    let threads = threads_arg(threads)?;
    let Source { input, name, raised } = open_source(source)?;
    let mut chunks = read_move_rows_input(input, threads, MoveRowOptions { fen, variations: false })
        .map_err(|err| Source::raise(&raised, input_error(&err, &name)))?;
    let schema = moves_schema(fen);
    let mut batches = Vec::new();
    // games before the next chunk (a game too large to read counts)
    let mut games = 0;
    loop {
        // the rows are read and put into Arrow columns with the GIL released
        let next = py.detach(|| chunks.next().map(|rows| rows.map(|rows| (rows.games, move_batch(rows, &schema)))));
        match next {
            None => break,
            Some(Ok((read, batch))) => {
                games += read;
                let batch = batch.map_err(arrow_error)?;
                if batch.num_rows() > 0 {
                    batches.push(batch);
                }
            }
            Some(Err(err)) => {
                games += 1;
                return Err(read_error(err, &name, games, &raised));
            }
        }
    }
    if batches.is_empty() {
        batches.push(RecordBatch::new_empty(schema.clone()));
    }
    PyTable::try_new(batches, schema)
}

/// Offsets of Arrow's `utf8` and `list` layouts from where each value ends.
fn offsets(ends: &[usize]) -> Result<OffsetBuffer<i32>, ArrowError> {
    let mut offsets = Vec::with_capacity(ends.len() + 1);
    offsets.push(0);
    for &end in ends {
        offsets.push(i32::try_from(end).map_err(|_| ArrowError::ComputeError("a column over 2 GiB".to_owned()))?);
    }
    Ok(OffsetBuffer::new(ScalarBuffer::from(offsets)))
}

/// A text column as Arrow `utf8` (its text moved, not copied); with
/// `empty_is_null`, empty values null.
fn text_array(column: TextColumn, empty_is_null: bool) -> Result<ArrayRef, ArrowError> {
    let offsets = offsets(&column.ends)?;
    let nulls = empty_is_null.then(|| NullBuffer::from_iter(offsets.windows(2).map(|w| w[1] > w[0])));
    let values = Buffer::from_vec(column.text.into_bytes());
    Ok(Arc::new(StringArray::try_new(offsets, values, nulls.filter(|nulls| nulls.null_count() > 0))?))
}

/// The record batch of a chunk's move rows (their columns moved, not
/// copied, where Arrow's layout is theirs).
fn move_batch(rows: MoveRows, schema: &SchemaRef) -> Result<RecordBatch, ArrowError> {
    let sides = StringArray::from_iter_values(rows.side.iter().map(|&side| side_name(side)));
    let clocks: Float64Array = rows.clock.iter().map(|clock| clock.map(|clock| clock.as_secs_f64())).collect();
    let (cp, mate): (Int32Array, Int32Array) = (
        rows.eval
            .iter()
            .map(|eval| match eval.map(|eval| eval.score) {
                // a score beyond int32 (none an engine gives) is null
                Some(Score::Centipawns(cp)) => i32::try_from(cp).ok(),
                _ => None,
            })
            .collect(),
        rows.eval
            .iter()
            .map(|eval| match eval.map(|eval| eval.score) {
                Some(Score::Mate(n)) => Some(n),
                _ => None,
            })
            .collect(),
    );
    let nag_values = UInt8Array::from(rows.nag_values);
    let nags = ListArray::try_new(
        Arc::new(Field::new("item", DataType::UInt8, true)),
        offsets(&rows.nag_ends)?,
        Arc::new(nag_values),
        None,
    )?;
    let mut columns: Vec<ArrayRef> = vec![
        Arc::new(UInt64Array::from(rows.game)),
        Arc::new(UInt32Array::from(rows.ply)),
        Arc::new(UInt32Array::from(rows.number)),
        Arc::new(sides),
        text_array(rows.san, false)?,
        text_array(rows.uci, false)?,
        Arc::new(clocks),
        Arc::new(cp),
        Arc::new(mate),
        Arc::new(nags),
        text_array(rows.comment, true)?,
    ];
    if let Some(fens) = rows.fen {
        columns.push(text_array(fens, false)?);
    }
    RecordBatch::try_new(schema.clone(), columns)
}

fn moves_schema(fen: bool) -> SchemaRef {
    let mut fields = vec![
        Field::new("game", DataType::UInt64, false),
        Field::new("ply", DataType::UInt32, false),
        Field::new("number", DataType::UInt32, false),
        Field::new("side", DataType::Utf8, false),
        Field::new("san", DataType::Utf8, false),
        Field::new("uci", DataType::Utf8, false),
        Field::new("clock", DataType::Float64, true),
        Field::new("eval_cp", DataType::Int32, true),
        Field::new("eval_mate", DataType::Int32, true),
        Field::new("nags", DataType::List(Arc::new(Field::new("item", DataType::UInt8, true))), false),
        Field::new("comment", DataType::Utf8, true),
    ];
    if fen {
        fields.push(Field::new("fen", DataType::Utf8, false));
    }
    Arc::new(Schema::new(fields))
}
