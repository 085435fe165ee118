//! Games and moves as Arrow record batches, with the column names and
//! types that `sanfen export` writes (Parquet, CSV, JSON Lines) and the
//! Python package hands to pyarrow, polars, duckdb and Spark: one schema,
//! built in one place.
//!
//! A moves table is built from [`MoveRows`] ([`moves_batch`], its columns
//! moved into Arrow's buffers, not copied); a games table from [`Game`]s
//! ([`GameTable`]), or from an input on several threads
//! ([`read_game_table_input`]). [`moves_schema`] and [`games_schema`] are
//! the contract; the README lists the columns.
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

use std::convert::Infallible;
use std::io::Read;
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
use crate::pgn::check::{TOO_LARGE, too_large_message};
use crate::pgn::chunk::Chunk;
use crate::pgn::game::{Game, GameFacts, ReadError, distinct_tags, for_each_facts_game, ordered_input};
use crate::pgn::input::{Compression, Input, InputError};
use crate::pgn::parallel::{ChunkWork, Ordered, Parts};
use crate::pgn::reader::{Location, ResultToken};
use crate::pgn::rows::{MoveRowOptions, MoveRows, SparseColumn, TextColumn};
use crate::pgn::validate::Finding;
use crate::san::Letters;
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
/// | `other_tags` | map\<utf8, utf8\> | the other tags, in input order; a name given twice once, with its last value (as for the roster's) |
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
        // (a map's keys are unique)
        for (name, value) in distinct_tags(&game.tags) {
            if !SEVEN_TAG_ROSTER.iter().any(|(roster, _)| *roster == name) {
                self.other.keys().append_value(name);
                self.other.values().append_value(value);
            }
        }
        // (the map's key and value columns always have the same length)
        let _ = self.other.append(true);
        self.result.append_option(game.result.map(result_text));
        self.termination.append_option(facts.end.map(|end| end.reason.as_str()));
        self.plies.append_value(u32::try_from(facts.plies).unwrap_or(u32::MAX));
        self.errors.append_value(game.report.errors);
        self.first_error.append_option(first_error(&game.report.findings).map(error_text));
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
        let message = too_large_message(size);
        self.first_error.append_value(format!("{}:{}: [{TOO_LARGE}] {message}", at.line, at.column));
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

/// The first error among `findings` (in the order of their places, as a
/// report keeps them).
fn first_error(findings: &[Finding]) -> Option<&Finding> {
    findings.iter().find(|finding| finding.severity() == Severity::Error)
}

/// An error as the `first_error` column writes it.
fn error_text(finding: &Finding) -> String {
    format!("{}:{}: [{}] {}", finding.at.line, finding.at.column, finding.kind.code(), finding.kind)
}

/// Reads the games table of `input` on `threads` threads (0: one per core),
/// the input named `file`, its moves in the piece letters of `letters`
/// (English: [`Letters::English`]): a record batch per chunk of the input, in input
/// order, the games numbered from 1 across the input, the rows of
/// [`crate::pgn::game::read_game_facts_input`]'s games as [`GameTable::push_with`]
/// makes them (a game too large to read: [`GameTable::push_too_large`]).
/// Each chunk's rows are made on the thread that reads its games, which
/// also frees them: only the table reaches the caller's thread. A read
/// error ends the batches.
///
/// ```
/// use sanfen::pgn::input::Input;
/// use sanfen::pgn::table::read_game_table_input;
/// use sanfen::san::Letters;
///
/// let pgn = "[White \"Ann\"]\n\n1. e4 e5 *\n\n1. d4 d5 *\n";
/// let input = Input::from_reader(std::io::Cursor::new(pgn), None)?;
/// let mut rows = 0;
/// for batch in read_game_table_input(input, 2, "games.pgn", Letters::English)? {
///     rows += batch?.num_rows();
/// }
/// assert_eq!(rows, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// The input is not PGN text, or the threads cannot start.
pub fn read_game_table_input(
    input: Input,
    threads: usize,
    file: &str,
    letters: Letters,
) -> Result<GameTableChunks, InputError> {
    let compression = input.compression;
    let work = TableWork(file.into(), letters);
    let ordered = ordered_input(input, work, threads, crate::pgn::game::PARALLEL_CHUNK_TARGET)?;
    Ok(GameTableChunks { ordered, compression, games: 0, carry: Vec::new(), held: None, failed: None, done: false })
}

/// The games table of an input, a batch per chunk: see
/// [`read_game_table_input`].
pub struct GameTableChunks {
    ordered: Ordered<Box<dyn Read + Send>, TableWork>,
    compression: Option<Compression>,
    /// Games before the next chunk.
    games: u64,
    /// The findings about text outside games that the next game is given,
    /// as the sequential reader gives it.
    carry: Vec<Finding>,
    /// The last batch read, and its last row, held until the input's end
    /// tells whether that row is the input's last game: that game is given
    /// the findings about the text after it.
    held: Option<(RecordBatch, Edge)>,
    /// The read error that ended the input, given after the held batch.
    failed: Option<ReadError>,
    done: bool,
}

impl core::fmt::Debug for GameTableChunks {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GameTableChunks").field("games", &self.games).finish_non_exhaustive()
    }
}

/// A row at the edge of a chunk's table, as findings about the text
/// outside games may change it.
#[derive(Copy, Clone, Debug)]
enum Edge {
    /// A game, with the place of its first error.
    Game(Option<u64>),
    /// A game too large to read, which is given no text outside games.
    TooLarge,
}

/// The work on each chunk: the table of its games, numbered from 1 in the
/// chunk, of the input named so, moves read in those letters.
struct TableWork(Box<str>, Letters);

/// The table of a chunk's games, and what the text outside them may
/// change.
struct ChunkTable {
    batch: RecordBatch,
    /// The first row and the last (`None` when there is none).
    first: Option<Edge>,
    last: Option<Edge>,
    /// The findings about the text after the last game.
    carry: Vec<Finding>,
}

impl ChunkWork for TableWork {
    type Part = Infallible;
    type Output = (Result<ChunkTable, ArrowError>, Vec<u8>);

    fn work(&self, chunk: Chunk, _parts: &mut Parts<'_, Infallible>) -> Self::Output {
        let mut table = GameTable::new();
        let (mut first, mut last) = (None, None);
        let carry = for_each_facts_game(&chunk, self.1, |game| {
            let number = table.len() as u64 + 1;
            let edge = match game {
                Ok((game, facts)) => {
                    table.push_with(&self.0, number, &game, facts);
                    Edge::Game(first_error(&game.report.findings).map(|finding| finding.at.offset))
                }
                Err((at, size)) => {
                    table.push_too_large(&self.0, number, at, size);
                    Edge::TooLarge
                }
            };
            first.get_or_insert(edge);
            last = Some(edge);
        });
        let table = table.finish().map(|batch| ChunkTable { batch, first, last, carry });
        (table, chunk.data)
    }
}

impl Iterator for GameTableChunks {
    type Item = Result<RecordBatch, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let step = match self.ordered.next() {
                Some(Ok((table, data))) => {
                    self.ordered.recycle(data);
                    table.and_then(|table| self.read(table))
                }
                Some(Err(err)) => {
                    self.done = true;
                    self.failed = Some(ReadError::stream(self.ordered.bytes_read(), self.compression, &err));
                    break;
                }
                None => {
                    self.done = true;
                    self.end().map(|()| None)
                }
            };
            match step {
                Ok(Some(batch)) => return Some(Ok(batch)),
                Ok(None) => {}
                Err(err) => {
                    self.done = true;
                    self.failed = Some(table_error(&err));
                }
            }
        }
        match self.held.take() {
            Some((batch, _)) => Some(Ok(batch)),
            None => self.failed.take().map(Err),
        }
    }
}

impl GameTableChunks {
    /// The games numbered after `games` games (of the parts of a file read
    /// before its part, say), not from 1.
    pub fn after(mut self, games: u64) -> GameTableChunks {
        self.games = games;
        self
    }

    /// The input's end: the text after its last game goes to it (a game
    /// too large to read keeps its row as it is).
    fn end(&mut self) -> Result<(), ArrowError> {
        let carry = core::mem::take(&mut self.carry);
        if let Some((batch, Edge::Game(at))) = self.held.take_if(|(_, last)| matches!(last, Edge::Game(_))) {
            let row = batch.num_rows() - 1;
            let (batch, at) = with_findings(batch, row, at, &carry)?;
            self.held = Some((batch, Edge::Game(at)));
        }
        Ok(())
    }

    /// Takes in the next chunk's table: its games numbered after those
    /// before, its first game given the text outside games before it. The
    /// batch held before, if this one takes its place.
    fn read(&mut self, table: ChunkTable) -> Result<Option<RecordBatch>, ArrowError> {
        let ChunkTable { batch, first, last, carry } = table;
        let (Some(first), Some(mut last)) = (first, last) else {
            // no game: the text goes on to the next
            self.carry.extend(carry);
            return Ok(None);
        };
        let rows = batch.num_rows();
        let mut batch = numbered_after(batch, self.games)?;
        self.games += rows as u64;
        match first {
            Edge::Game(at) => {
                let before = core::mem::replace(&mut self.carry, carry);
                let (patched, at) = with_findings(batch, 0, at, &before)?;
                batch = patched;
                if rows == 1 {
                    last = Edge::Game(at);
                }
            }
            Edge::TooLarge => self.carry.extend(carry),
        }
        Ok(self.held.replace((batch, last)).map(|(batch, _)| batch))
    }
}

/// An error making a chunk's table, as a read error.
fn table_error(err: &ArrowError) -> ReadError {
    ReadError::Io { kind: std::io::ErrorKind::Other, message: format!("cannot make the games table: {err}") }
}

/// `batch` (rows of the games table, numbered from 1) with its games
/// numbered after `before`.
fn numbered_after(batch: RecordBatch, before: u64) -> Result<RecordBatch, ArrowError> {
    if before == 0 {
        return Ok(batch);
    }
    let index = batch.schema().index_of("game")?;
    let games = batch.column(index).as_any().downcast_ref::<UInt64Array>().map(|games| games.values());
    let games = games.ok_or_else(|| ArrowError::SchemaError("the game column is not of uint64".to_owned()))?;
    let numbered = UInt64Array::from_iter_values(games.iter().map(|&game| game + before));
    let mut columns = batch.columns().to_vec();
    columns[index] = Arc::new(numbered);
    RecordBatch::try_new(batch.schema(), columns)
}

/// `batch` (rows of the games table) with the findings `findings` given to
/// the game of row `row`, whose first error is at `at`: counted among its
/// errors, and the first of them its first error if it comes before (as a
/// report keeps findings in the order of their places, the game's own
/// first at the same place). The batch, and the place of the row's first
/// error.
fn with_findings(
    batch: RecordBatch,
    row: usize,
    at: Option<u64>,
    findings: &[Finding],
) -> Result<(RecordBatch, Option<u64>), ArrowError> {
    let errors: Vec<&Finding> = findings.iter().filter(|finding| finding.severity() == Severity::Error).collect();
    let Some(first) = errors.iter().min_by_key(|finding| finding.at.offset) else { return Ok((batch, at)) };
    let schema = batch.schema();
    let mut columns = batch.columns().to_vec();
    let not_of = |name: &str| ArrowError::SchemaError(format!("the {name} column is not of its type"));
    let index = schema.index_of("errors")?;
    let counts = columns[index].as_any().downcast_ref::<UInt32Array>().ok_or_else(|| not_of("errors"))?;
    let added = u32::try_from(errors.len()).unwrap_or(u32::MAX);
    let counts = counts.values().iter().enumerate().map(|(i, &n)| if i == row { n.saturating_add(added) } else { n });
    columns[index] = Arc::new(UInt32Array::from_iter_values(counts));
    let mut at = at;
    if at.is_none_or(|at| first.at.offset < at) {
        at = Some(first.at.offset);
        let index = schema.index_of("first_error")?;
        let texts = columns[index].as_any().downcast_ref::<StringArray>().ok_or_else(|| not_of("first_error"))?;
        let text = error_text(first);
        let texts = texts.iter().enumerate().map(|(i, value)| if i == row { Some(text.as_str()) } else { value });
        columns[index] = Arc::new(texts.collect::<StringArray>());
    }
    Ok((RecordBatch::try_new(schema, columns)?, at))
}

#[cfg(test)]
mod tests {
    use arrow_array::Array;

    use super::*;
    use crate::pgn::read_games_from_slice;
    use crate::pgn::reader::SyntaxErrorKind;
    use crate::pgn::validate::FindingKind;

    /// A finding of `kind` at `offset` (the line and column its offset).
    fn finding(kind: FindingKind, offset: u64) -> Finding {
        let at = Location { line: offset as u32, column: 1, offset };
        let severity = kind.severity();
        Finding {
            kind,
            severity,
            at,
            ply: None,
            move_number: None,
            side: None,
            token: String::new(),
            source_line: None,
            repeats: 1,
            until: at,
        }
    }

    /// The errors and first errors of `batch`.
    fn errors(batch: &RecordBatch) -> Vec<(u32, Option<String>)> {
        let counts = batch.column_by_name("errors").unwrap().as_any().downcast_ref::<UInt32Array>().unwrap();
        let texts = batch.column_by_name("first_error").unwrap().as_any().downcast_ref::<StringArray>().unwrap();
        counts.values().iter().zip(texts.iter()).map(|(&n, text)| (n, text.map(str::to_owned))).collect()
    }

    #[test]
    fn findings_outside_games_count_among_a_rows_errors_in_the_order_of_their_places() {
        // a game without errors, and one whose first error is at byte 24
        let games = read_games_from_slice(b"1. e4 e5 *\n\n1. d4 d5 2. Qxh7 *\n");
        let mut table = GameTable::new();
        for (i, game) in games.iter().enumerate() {
            table.push("x.pgn", i as u64 + 1, game);
        }
        let batch = table.finish().unwrap();
        let own = "3:13: [san:illegal] illegal: no queen can move to h7".to_owned();
        let before = errors(&batch);
        assert_eq!(before, [(0, None), (1, Some(own.clone()))]);
        let at = Some(24);
        let error = |offset| finding(FindingKind::Syntax(SyntaxErrorKind::UnexpectedChar), offset);
        let lint = finding(FindingKind::TextBetweenGames { what: "comment" }, 5);
        // lint alone changes nothing
        let (same, same_at) = with_findings(batch.clone(), 1, at, std::slice::from_ref(&lint)).unwrap();
        assert_eq!((errors(&same), same_at), (before.clone(), at));
        // errors after the row's own: counted, its own stays first
        let (after, after_at) = with_findings(batch.clone(), 1, at, &[error(40), lint.clone(), error(30)]).unwrap();
        assert_eq!((errors(&after), after_at), (vec![(0, None), (3, Some(own))], at));
        // an error before: the first; the earliest of two at one place
        let mut first = error(7);
        first.kind = FindingKind::NullMoveInCheck;
        let (earlier, earlier_at) = with_findings(batch.clone(), 1, at, &[error(9), first, error(7)]).unwrap();
        let text = "7:1: [pgn:null-move-in-check] null move while in check: the king would stay attacked".to_owned();
        assert_eq!((errors(&earlier), earlier_at), (vec![(0, None), (4, Some(text))], Some(7)));
        // a row without errors takes the first
        let (row0, row0_at) = with_findings(batch, 0, None, &[error(50)]).unwrap();
        assert_eq!(row0_at, Some(50));
        assert_eq!(errors(&row0)[0], (1, Some("50:1: [pgn:unexpected-char] unexpected character in movetext".into())));
    }
}
