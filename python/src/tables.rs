//! Games and moves as Arrow tables (`games_table`, `moves_table`), handed
//! to Python through the Arrow PyCapsule interface (`__arrow_c_stream__`),
//! which pyarrow, polars and duckdb read without a copy.
//!
//! The games come from the library's ordered parallel reader (see
//! `games.rs`); the rows are built with the GIL released.

use std::sync::Arc;

use arrow_array::builder::{
    Float64Builder, Int32Builder, ListBuilder, MapBuilder, StringBuilder, UInt8Builder, UInt32Builder, UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3_arrow::PyTable;
use sanfen::Severity;
use sanfen::pgn::SEVEN_TAG_ROSTER;
use sanfen::pgn::commands::Score;

use crate::games::{GameStream, prose, result_text, side_name};

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
    let mut stream = GameStream::open(source, threads)?;
    let schema = moves_schema(fen);
    let mut batches = Vec::new();
    let mut rows = MoveRows::new(fen);
    while let Some((number, game)) = stream.next_game(py)? {
        py.detach(|| rows.push(number, &game));
        if rows.len >= BATCH_ROWS {
            let done = std::mem::replace(&mut rows, MoveRows::new(fen));
            batches.push(py.detach(|| done.finish(&schema)).map_err(arrow_error)?);
        }
    }
    if rows.len > 0 || batches.is_empty() {
        batches.push(rows.finish(&schema).map_err(arrow_error)?);
    }
    PyTable::try_new(batches, schema)
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

/// The columns of `moves_table`, being built.
struct MoveRows {
    len: usize,
    game: UInt64Builder,
    ply: UInt32Builder,
    number: UInt32Builder,
    side: StringBuilder,
    san: StringBuilder,
    uci: StringBuilder,
    clock: Float64Builder,
    eval_cp: Int32Builder,
    eval_mate: Int32Builder,
    nags: ListBuilder<UInt8Builder>,
    comment: StringBuilder,
    fen: Option<StringBuilder>,
}

impl MoveRows {
    fn new(fen: bool) -> MoveRows {
        MoveRows {
            len: 0,
            game: UInt64Builder::new(),
            ply: UInt32Builder::new(),
            number: UInt32Builder::new(),
            side: StringBuilder::new(),
            san: StringBuilder::new(),
            uci: StringBuilder::new(),
            clock: Float64Builder::new(),
            eval_cp: Int32Builder::new(),
            eval_mate: Int32Builder::new(),
            nags: ListBuilder::new(UInt8Builder::new()),
            comment: StringBuilder::new(),
            fen: fen.then(StringBuilder::new),
        }
    }

    fn push(&mut self, number: u64, game: &sanfen::pgn::Game) {
        let mut position = if self.fen.is_some() { game.start.clone() } else { None };
        for node in &game.mainline.moves {
            self.len += 1;
            self.game.append_value(number);
            self.ply.append_value(node.ply);
            self.number.append_value(node.number);
            self.side.append_value(side_name(node.side));
            self.san.append_value(node.san.to_string());
            self.uci.append_value(node.uci_text());
            self.clock.append_option(node.clock().map(|clock| clock.as_secs_f64()));
            let (cp, mate) = match node.eval().map(|eval| eval.score) {
                // a score beyond int32 (none an engine gives) is null
                Some(Score::Centipawns(cp)) => (i32::try_from(cp).ok(), None),
                Some(Score::Mate(n)) => (None, Some(n)),
                None => (None, None),
            };
            self.eval_cp.append_option(cp);
            self.eval_mate.append_option(mate);
            self.nags.values().append_slice(&node.nags);
            self.nags.append(true);
            let comment = prose(&node.comments);
            self.comment.append_option((!comment.is_empty()).then_some(comment));
            if let Some(fens) = &mut self.fen {
                // every move of the tree was played from the one before it
                position = position.and_then(|pos| match node.played {
                    Some(m) => pos.play(m).ok(),
                    None => {
                        let mut pos = pos;
                        pos.play_null();
                        Some(pos)
                    }
                });
                fens.append_option(position.as_ref().map(ToString::to_string));
            }
        }
    }

    fn finish(mut self, schema: &SchemaRef) -> Result<RecordBatch, ArrowError> {
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.game.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.number.finish()),
            Arc::new(self.side.finish()),
            Arc::new(self.san.finish()),
            Arc::new(self.uci.finish()),
            Arc::new(self.clock.finish()),
            Arc::new(self.eval_cp.finish()),
            Arc::new(self.eval_mate.finish()),
            Arc::new(self.nags.finish()),
            Arc::new(self.comment.finish()),
        ];
        if let Some(fens) = &mut self.fen {
            columns.push(Arc::new(fens.finish()));
        }
        RecordBatch::try_new(schema.clone(), columns)
    }
}
