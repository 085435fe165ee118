//! Games and moves as Arrow record batches, with the column names and
//! types that `sanfen export` writes (Parquet, CSV, JSON Lines) and the
//! Python package hands to pyarrow, polars, duckdb and Spark: one schema,
//! built in one place.
//!
//! A moves table is built from [`MoveRows`] ([`moves_batch`], its columns
//! moved into Arrow's buffers, not copied); a games table from [`Game`]s
//! ([`GameTable`]). [`moves_schema`] and [`games_schema`] are the contract;
//! the README lists the columns.
//!
//! ```
//! use sanfen::pgn::read_games_from_slice;
//! use sanfen::pgn::rows::{MoveRowOptions, MoveRows};
//! use sanfen::pgn::table::{GameTable, moves_batch, moves_schema};
//!
//! let games = read_games_from_slice(b"[White \"Ann\"]\n\n1. e4 { [%clk 0:03:00] } e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n");
//! let mut table = GameTable::new();
//! table.push("games.pgn", 1, &games[0]);
//! let batch = table.finish()?;
//! assert_eq!(batch.num_rows(), 1);
//! assert_eq!(batch.schema().field(0).name(), "file");
//!
//! let options = MoveRowOptions::default();
//! let mut rows = MoveRows::new(options);
//! rows.push_game(&games[0], 1);
//! let batch = moves_batch(rows, "games.pgn", &moves_schema(options))?;
//! assert_eq!(batch.num_rows(), 7);
//! # Ok::<(), arrow_schema::ArrowError>(())
//! ```

use std::sync::Arc;

use arrow_array::builder::{MapBuilder, StringBuilder, UInt32Builder, UInt64Builder};
use arrow_array::types::{Float64Type, Int32Type};
use arrow_array::{
    ArrayRef, ArrowPrimitiveType, BooleanArray, ListArray, PrimitiveArray, RecordBatch, StringArray, UInt8Array,
    UInt32Array, UInt64Array,
};
use arrow_buffer::{BooleanBufferBuilder, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, Field, Fields, Schema, SchemaRef};

use crate::pgn::SEVEN_TAG_ROSTER;
use crate::pgn::game::{Game, GameFacts, ReadError};
use crate::pgn::reader::{Location, ResultToken};
use crate::pgn::rows::{MoveRowOptions, MoveRows, SparseColumn, TextColumn};
use crate::{Color, Severity};

/// The schema of the moves table, in column order:
///
/// | column | type | |
/// |---|---|---|
/// | `file` | utf8 | the input the game is in, as named |
/// | `game` | uint64 | the game's number in the input, from 1 |
/// | `path` | utf8 | with variations only: the line ([`MoveRows::path`]; empty for the mainline) |
/// | `ply` | uint32 | half-moves from the game's start, this one included |
/// | `number` | uint32 | the move number |
/// | `side` | utf8 | `white` or `black` |
/// | `san` | utf8 | canonical SAN with its check mark |
/// | `uci` | utf8 | UCI (`0000` for a null move; Chess960 castling king to rook) |
/// | `written` | utf8 | the token as written, null when it is the SAN |
/// | `is_capture` | bool | the move captures |
/// | `is_check` | bool | the move gives check (or mate) |
/// | `clock` | float64 | seconds on the clock after the move (`[%clk]`), null when absent |
/// | `elapsed` | float64 | seconds the move took (`[%emt]`), null when absent |
/// | `eval_cp` | int32 | evaluation in centipawns from White's side (`[%eval]`), null when absent or a mate |
/// | `eval_mate` | int32 | mate in N from White's side (negative: Black mates), null when absent or centipawns |
/// | `nags` | list\<uint8\> | the NAGs after the move, a glued annotation (`!?`) first |
/// | `comment` | utf8 | the comments after the move without their commands, joined by a space; null when none |
/// | `fen` | utf8 | with `fen` only: the position after the move |
pub fn moves_schema(options: MoveRowOptions) -> SchemaRef {
    let mut fields = vec![Field::new("file", DataType::Utf8, false), Field::new("game", DataType::UInt64, false)];
    if options.variations {
        fields.push(Field::new("path", DataType::Utf8, false));
    }
    fields.extend([
        Field::new("ply", DataType::UInt32, false),
        Field::new("number", DataType::UInt32, false),
        Field::new("side", DataType::Utf8, false),
        Field::new("san", DataType::Utf8, false),
        Field::new("uci", DataType::Utf8, false),
        Field::new("written", DataType::Utf8, true),
        Field::new("is_capture", DataType::Boolean, false),
        Field::new("is_check", DataType::Boolean, false),
        Field::new("clock", DataType::Float64, true),
        Field::new("elapsed", DataType::Float64, true),
        Field::new("eval_cp", DataType::Int32, true),
        Field::new("eval_mate", DataType::Int32, true),
        Field::new("nags", DataType::List(Arc::new(nag_field())), false),
        Field::new("comment", DataType::Utf8, true),
    ]);
    if options.fen {
        fields.push(Field::new("fen", DataType::Utf8, false));
    }
    Arc::new(Schema::new(fields))
}

fn nag_field() -> Field {
    Field::new("item", DataType::UInt8, false)
}

/// The record batch of `rows`, the moves of games of the input `file`,
/// with `schema` ([`moves_schema`] of the options the rows were built
/// with): the columns are moved into Arrow's buffers where Arrow's layout
/// is theirs.
///
/// # Errors
///
/// A text column over 2 GiB, or a schema that is not the rows'.
pub fn moves_batch(rows: MoveRows, file: &str, schema: &SchemaRef) -> Result<RecordBatch, ArrowError> {
    let sides = StringArray::from_iter_values(rows.side.iter().map(|&side| side_name(side)));
    let len = rows.game.len();
    let seconds = |times: &SparseColumn<std::time::Duration>| sparse_array::<Float64Type>(len, times.seconds());
    let cp = sparse_array::<Int32Type>(len, rows.eval.centipawns());
    let mate = sparse_array::<Int32Type>(len, rows.eval.mates());
    let nags = ListArray::try_new(
        Arc::new(nag_field()),
        offsets(&rows.nag_ends)?,
        Arc::new(UInt8Array::from(rows.nag_values)),
        None,
    )?;
    let mut columns: Vec<ArrayRef> = vec![repeated(file, rows.game.len())?, Arc::new(UInt64Array::from(rows.game))];
    if let Some(paths) = rows.path {
        columns.push(text_array(paths, false)?);
    }
    columns.extend([
        Arc::new(UInt32Array::from(rows.ply)) as ArrayRef,
        Arc::new(UInt32Array::from(rows.number)),
        Arc::new(sides),
        text_array(rows.san.expand(), false)?,
        text_array(rows.uci.expand(), false)?,
        text_array(rows.written, true)?,
        Arc::new(BooleanArray::from(rows.capture)),
        Arc::new(BooleanArray::from(rows.check)),
        Arc::new(seconds(&rows.clock)),
        Arc::new(seconds(&rows.elapsed)),
        Arc::new(cp),
        Arc::new(mate),
        Arc::new(nags),
        text_array(rows.comment, true)?,
    ]);
    if let Some(fens) = rows.fen {
        columns.push(text_array(fens, false)?);
    }
    RecordBatch::try_new(schema.clone(), columns)
}

/// A `utf8` column of `len` times `text`.
fn repeated(text: &str, len: usize) -> Result<ArrayRef, ArrowError> {
    let size = i32::try_from(text.len().saturating_mul(len))
        .map_err(|_| ArrowError::ComputeError("a column over 2 GiB".to_owned()))?;
    let step = text.len() as i32;
    let offsets = OffsetBuffer::new(ScalarBuffer::from((0..=len as i32).map(|i| i * step).collect::<Vec<i32>>()));
    debug_assert_eq!(offsets.last().copied(), Some(size));
    let values = Buffer::from_vec(text.repeat(len).into_bytes());
    Ok(Arc::new(StringArray::try_new(offsets, values, None)?))
}

/// A column of `len` numbers, null but in the rows `values` gives (in
/// increasing order), each with its value: set in place, not row by row.
fn sparse_array<T: ArrowPrimitiveType>(
    len: usize,
    values: impl Iterator<Item = (usize, T::Native)>,
) -> PrimitiveArray<T> {
    let mut numbers = vec![T::Native::default(); len];
    let mut valid = BooleanBufferBuilder::new(len);
    valid.append_n(len, false);
    for (row, value) in values {
        numbers[row] = value;
        valid.set_bit(row, true);
    }
    let nulls = NullBuffer::new(valid.finish());
    PrimitiveArray::new(ScalarBuffer::from(numbers), (nulls.null_count() > 0).then_some(nulls))
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

/// `white` or `black`.
pub fn side_name(side: Color) -> &'static str {
    if side == Color::White { "white" } else { "black" }
}

/// A termination marker as written: `1-0`, `0-1`, `1/2-1/2`, `*`.
pub fn result_text(result: ResultToken) -> &'static str {
    match result {
        ResultToken::Outcome(outcome) => outcome.as_str(),
        ResultToken::Unknown => "*",
    }
}

/// The schema of the games table, in column order:
///
/// | column | type | |
/// |---|---|---|
/// | `file` | utf8 | the input the game is in, as named |
/// | `game` | uint64 | the game's number in the input, from 1 |
/// | `line` | uint32 | the line the game starts on, from 1 |
/// | `byte_offset` | uint64 | the byte the game starts at, from 0 (of the decompressed input) |
/// | `Event` ... `Result` | utf8 | the Seven Tag Roster's values, null when absent |
/// | `other_tags` | map\<utf8, utf8\> | the other tags, in input order |
/// | `movetext_result` | utf8 | the termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`), null when none (named apart from the `Result` tag: Spark and SQL read names without case) |
/// | `termination` | utf8 | how the final position ends the game (`checkmate`, `stalemate`, `insufficient material`, `fivefold repetition`, `seventy-five-move rule`), null when it does not |
/// | `plies` | uint32 | mainline moves played (up to the first that cannot be played) |
/// | `errors` | uint32 | error findings (as `sanfen check` counts them) |
/// | `first_error` | utf8 | the first error, `LINE:COLUMN: [CODE] MESSAGE`, null when none |
/// | `eco` | utf8 | the ECO code of the deepest named position of the mainline, null when none |
/// | `opening` | utf8 | that position's opening name |
pub fn games_schema() -> SchemaRef {
    let mut fields = vec![
        Field::new("file", DataType::Utf8, false),
        Field::new("game", DataType::UInt64, false),
        Field::new("line", DataType::UInt32, false),
        Field::new("byte_offset", DataType::UInt64, false),
    ];
    fields.extend(SEVEN_TAG_ROSTER.iter().map(|(name, _)| Field::new(*name, DataType::Utf8, true)));
    let entries =
        Fields::from(vec![Field::new("keys", DataType::Utf8, false), Field::new("values", DataType::Utf8, true)]);
    let entries = Field::new("entries", DataType::Struct(entries), false);
    fields.extend([
        Field::new("other_tags", DataType::Map(Arc::new(entries), false), false),
        Field::new("movetext_result", DataType::Utf8, true),
        Field::new("termination", DataType::Utf8, true),
        Field::new("plies", DataType::UInt32, false),
        Field::new("errors", DataType::UInt32, false),
        Field::new("first_error", DataType::Utf8, true),
        Field::new("eco", DataType::Utf8, true),
        Field::new("opening", DataType::Utf8, true),
    ]);
    Arc::new(Schema::new(fields))
}

/// The rows of a games table, being built (see [`games_schema`]).
#[derive(Debug)]
pub struct GameTable {
    len: usize,
    file: StringBuilder,
    game: UInt64Builder,
    line: UInt32Builder,
    offset: UInt64Builder,
    roster: Vec<StringBuilder>,
    other: MapBuilder<StringBuilder, StringBuilder>,
    result: StringBuilder,
    termination: StringBuilder,
    plies: UInt32Builder,
    errors: UInt32Builder,
    first_error: StringBuilder,
    eco: StringBuilder,
    opening: StringBuilder,
}

impl Default for GameTable {
    fn default() -> GameTable {
        GameTable::new()
    }
}

impl GameTable {
    /// No rows.
    pub fn new() -> GameTable {
        GameTable {
            len: 0,
            file: StringBuilder::new(),
            game: UInt64Builder::new(),
            line: UInt32Builder::new(),
            offset: UInt64Builder::new(),
            roster: SEVEN_TAG_ROSTER.iter().map(|_| StringBuilder::new()).collect(),
            other: MapBuilder::new(None, StringBuilder::new(), StringBuilder::new()),
            result: StringBuilder::new(),
            termination: StringBuilder::new(),
            plies: UInt32Builder::new(),
            errors: UInt32Builder::new(),
            first_error: StringBuilder::new(),
            eco: StringBuilder::new(),
            opening: StringBuilder::new(),
        }
    }

    /// The rows so far.
    pub fn len(&self) -> usize {
        self.len
    }

    /// No row yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends the row of `game`, the `number`th of the input `file`. The
    /// row is made of the game's outline alone (the same row for the game
    /// [`crate::pgn::game::read_game_outlines_input`] reads).
    pub fn push(&mut self, file: &str, number: u64, game: &Game) {
        self.push_with(file, number, game, GameFacts::of(game));
    }

    /// [`GameTable::push`], with the game's `facts` found already
    /// ([`crate::pgn::game::read_game_facts_input`]).
    pub fn push_with(&mut self, file: &str, number: u64, game: &Game, facts: GameFacts) {
        self.len += 1;
        self.file.append_value(file);
        self.game.append_value(number);
        self.line.append_value(game.at.line);
        self.offset.append_value(game.at.offset);
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
        self.termination.append_option(facts.end.map(|end| end.reason.as_str()));
        self.plies.append_value(u32::try_from(facts.plies).unwrap_or(u32::MAX));
        self.errors.append_value(game.report.errors);
        let first = game.report.findings.iter().find(|f| f.severity() == Severity::Error);
        self.first_error
            .append_option(first.map(|f| format!("{}:{}: [{}] {}", f.at.line, f.at.column, f.kind.code(), f.kind)));
        self.eco.append_option(facts.opening.map(|found| found.opening.eco));
        self.opening.append_option(facts.opening.map(|found| found.opening.name));
    }

    /// Appends the row of a game too large to read ([`ReadError::TooLarge`]
    /// at `at`, of `size` bytes), the `number`th of the input `file`: where
    /// it is, and its one error.
    pub fn push_too_large(&mut self, file: &str, number: u64, at: Location, size: u64) {
        self.len += 1;
        self.file.append_value(file);
        self.game.append_value(number);
        self.line.append_value(at.line);
        self.offset.append_value(at.offset);
        for column in &mut self.roster {
            column.append_null();
        }
        let _ = self.other.append(true);
        self.result.append_null();
        self.termination.append_null();
        self.plies.append_value(0);
        self.errors.append_value(1);
        let err = ReadError::TooLarge { at, size };
        self.first_error.append_value(format!("{}:{}: [pgn:too-large] {err}", at.line, at.column));
        self.eco.append_null();
        self.opening.append_null();
    }

    /// The record batch of the rows (the table is then empty again).
    ///
    /// # Errors
    ///
    /// A column too large for Arrow.
    pub fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.game.finish()),
            Arc::new(self.line.finish()),
            Arc::new(self.offset.finish()),
        ];
        columns.extend(self.roster.iter_mut().map(|column| Arc::new(column.finish()) as ArrayRef));
        columns.extend([
            Arc::new(self.other.finish()) as ArrayRef,
            Arc::new(self.result.finish()),
            Arc::new(self.termination.finish()),
            Arc::new(self.plies.finish()),
            Arc::new(self.errors.finish()),
            Arc::new(self.first_error.finish()),
            Arc::new(self.eco.finish()),
            Arc::new(self.opening.finish()),
        ]);
        self.len = 0;
        RecordBatch::try_new(games_schema(), columns)
    }
}
