//! The mainline moves of PGN games as columns, one row per move: what a
//! table of moves (Arrow, Parquet, CSV) is built from, without building the
//! games first.
//!
//! [`MoveRows::of_chunk`] reads the games of one [`Chunk`] (every move
//! validated as `sanfen check` validates it); [`read_move_rows_input`]
//! reads a whole input on several threads, one [`MoveRows`] per chunk in
//! input order (a chunk of long games in parts of bounded size). Variations
//! are skipped unless asked for ([`MoveRowOptions::variations`]); a line's
//! moves stop at the first that cannot be played.
//!
//! ```
//! use sanfen::pgn::input::Input;
//! use sanfen::pgn::rows::{MoveRowOptions, read_move_rows_input};
//!
//! let pgn = "1. e4 { [%clk 0:03:00] } e5 2. Nf3 $1 *\n\n1. d4 d5 *\n";
//! let input = Input::from_reader(std::io::Cursor::new(pgn), None)?;
//! let mut rows = Vec::new();
//! for chunk in read_move_rows_input(input, 2, MoveRowOptions::default())? {
//!     rows.push(chunk?);
//! }
//! let rows = &rows[0];
//! assert_eq!(rows.len(), 5);
//! assert_eq!(rows.game, [1, 1, 1, 2, 2]);
//! assert_eq!(rows.san.get(2), "Nf3");
//! assert_eq!(rows.clock.get(0).map(|clock| clock.as_secs()), Some(180));
//! let row = rows.row(2);
//! assert_eq!((row.game, row.ply, row.san, row.uci, row.nags), (1, 3, "Nf3", "g1f3", &[1][..]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt::Write as _;
use std::borrow::Cow;
use std::io::Read;
use std::time::Duration;

use rustc_hash::FxHashMap;

use crate::Color;
use crate::Position;
use crate::pgn::chunk::Chunk;
use crate::pgn::commands::{Comment, Eval, Score, Timings, read_commands, timings_only};
use crate::pgn::game::{Game, Line, Node, ReadError, chunker_of, comment_cow, glued_annotation};
use crate::pgn::input::{Compression, Input, InputError};
use crate::pgn::parallel::{ChunkWork, Ordered, Parts, Piece};
use crate::pgn::reader::{Location, RawText, Reader, ResultToken, Skip, SyntaxError, Visitor};
use crate::pgn::validate::{Options, Validator};
use crate::san::{Letters, San, SanPlus, Suffix};
use crate::{Move, Uci};

/// What [`MoveRows`] hold beyond the columns every table has.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveRowOptions {
    /// The position after each move, as FEN ([`MoveRows::fen`]).
    pub fen: bool,
    /// The moves of variations too, each row with its line's path
    /// ([`MoveRows::path`]), in the order [`MoveRows::push_game`] gives
    /// them. [`MoveRows::of_chunk`] reads them without building the games:
    /// each game is read twice, first for the comments and NAGs after its
    /// variations, which belong to the move before them.
    pub variations: bool,
    /// The piece letters the moves are written in (English by default; see
    /// [`crate::pgn::validate::Options::letters`]).
    pub letters: Letters,
}

/// A column of text values, one after another in one string.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextColumn {
    /// The values, concatenated.
    pub text: String,
    /// Where each value ends in `text` (value `i` starts where value
    /// `i - 1` ends, the first at 0).
    pub ends: Vec<usize>,
}

impl TextColumn {
    /// Value `i`.
    ///
    /// # Panics
    ///
    /// `i` is not below [`TextColumn::len`].
    #[inline]
    pub fn get(&self, i: usize) -> &str {
        &self.text[self.range(i)]
    }

    /// Where value `i` is in [`TextColumn::text`].
    ///
    /// # Panics
    ///
    /// `i` is not below [`TextColumn::len`].
    #[inline]
    pub fn range(&self, i: usize) -> core::ops::Range<usize> {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        start..self.ends[i]
    }

    /// Where each value is in [`TextColumn::text`], in order.
    pub fn ranges(&self) -> impl Iterator<Item = core::ops::Range<usize>> + '_ {
        core::iter::once(0).chain(self.ends.iter().copied()).zip(&self.ends).map(|(start, &end)| start..end)
    }

    /// The number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// No value.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// No value, the room kept.
    fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    /// Room for `values` more values of about `size` bytes.
    fn reserve(&mut self, values: usize, size: usize) {
        self.ends.reserve(values);
        self.text.reserve(values * size);
    }

    /// Ends the value being written in `text`.
    #[inline]
    fn end(&mut self) {
        self.ends.push(self.text.len());
    }

    /// Appends a value.
    #[inline]
    pub fn push(&mut self, value: &str) {
        self.text.push_str(value);
        self.end();
    }
}

/// A text column of few distinct values (the SAN and UCI of moves): each
/// distinct value once, in the order of its first row, and each row's value
/// as its place among them, as Parquet and Arrow store such a column
/// (dictionary encoding).
#[derive(Clone, Debug, Default)]
pub struct DictColumn {
    /// The distinct values, in the order of their first row.
    pub values: TextColumn,
    /// Each row's value: its place in [`DictColumn::values`].
    pub index: Vec<u32>,
    /// The place of a value by a key of what it was written from (a SAN,
    /// a move), so that a row of a value seen before writes no text.
    by_key: FxHashMap<u32, u32>,
    /// The keys looked up last, one per slot of a hash of the key (key + 1,
    /// as 0 marks an empty slot, and place): most rows find their key here,
    /// which costs less than a look in `by_key`. Empty until the first key.
    recent: Vec<(u32, u32)>,
    /// The place of a value by its text.
    by_text: FxHashMap<Box<str>, u32>,
}

impl PartialEq for DictColumn {
    /// The same values in the same rows (however they were looked up).
    fn eq(&self, other: &DictColumn) -> bool {
        self.values == other.values && self.index == other.index
    }
}

impl DictColumn {
    /// Value `i`.
    ///
    /// # Panics
    ///
    /// `i` is not below [`DictColumn::len`].
    #[inline]
    pub fn get(&self, i: usize) -> &str {
        self.values.get(self.index[i] as usize)
    }

    /// The number of rows.
    #[inline]
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// No row.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Every row's value written out, one after another.
    pub fn expand(&self) -> TextColumn {
        // Values of at most WIDTH bytes (every SAN and UCI) are copied
        // WIDTH bytes at a time, the next value written over the excess:
        // a copy of fixed width costs less than one of the value's length.
        const WIDTH: usize = 16;
        let values: Vec<core::ops::Range<usize>> = self.values.ranges().collect();
        let mut ends = Vec::with_capacity(self.len());
        let mut end = 0;
        for &i in &self.index {
            end += values[i as usize].len();
            ends.push(end);
        }
        if values.iter().any(|value| value.len() > WIDTH) {
            let mut text = String::with_capacity(end);
            for &i in &self.index {
                text.push_str(&self.values.text[values[i as usize].clone()]);
            }
            return TextColumn { text, ends };
        }
        let mut from = Vec::with_capacity(self.values.text.len() + WIDTH);
        from.extend_from_slice(self.values.text.as_bytes());
        from.resize(self.values.text.len() + WIDTH, 0);
        let mut text = vec![0; end + WIDTH];
        let mut at = 0;
        for &i in &self.index {
            let value = &values[i as usize];
            text[at..at + WIDTH].copy_from_slice(&from[value.start..value.start + WIDTH]);
            at += value.len();
        }
        text.truncate(end);
        let text = String::from_utf8(text).expect("whole values, one after another");
        TextColumn { text, ends }
    }

    /// No value and no row, the room kept.
    fn clear(&mut self) {
        self.values.clear();
        self.index.clear();
        self.by_key.clear();
        self.recent.fill((0, 0));
        self.by_text.clear();
    }

    /// Appends a row of `value`.
    pub fn push(&mut self, value: &str) {
        let i = self.place(value);
        self.index.push(i);
    }

    /// Appends a row of the value `key` stands for, which `text` writes
    /// when the key is new. A key stands for one text only.
    #[inline]
    fn push_keyed(&mut self, key: u32, text: impl FnOnce() -> String) {
        let slot = (key.wrapping_mul(0x9e37_79b1) >> (32 - RECENT_BITS)) as usize;
        let i = match self.recent.get(slot) {
            Some(&(recent, i)) if recent == key + 1 => i,
            _ => self.look_up(key, slot, text),
        };
        self.index.push(i);
    }

    /// The place of the value of `key`, not in its slot of the recent keys
    /// (`slot`), which it then takes.
    #[cold]
    fn look_up(&mut self, key: u32, slot: usize, text: impl FnOnce() -> String) -> u32 {
        let i = match self.by_key.get(&key) {
            Some(&i) => i,
            None => {
                let i = self.place(&text());
                self.by_key.insert(key, i);
                i
            }
        };
        if self.recent.is_empty() {
            self.recent = vec![(0, 0); 1 << RECENT_BITS];
        }
        self.recent[slot] = (key + 1, i);
        i
    }

    /// The place of `value` among the values, added if new.
    fn place(&mut self, value: &str) -> u32 {
        if let Some(&i) = self.by_text.get(value) {
            return i;
        }
        let i = self.values.len() as u32;
        self.values.push(value);
        self.by_text.insert(value.into(), i);
        i
    }

    /// The value of the last row.
    #[inline]
    fn last(&self) -> &str {
        self.index.last().map_or("", |&i| self.values.get(i as usize))
    }
}

/// A column in which most rows hold no value (the clocks, elapsed times
/// and evaluations of moves, which many games never write): the rows that
/// hold one, in order, each with its value. A row without a value costs
/// no memory.
///
/// ```
/// use sanfen::pgn::rows::SparseColumn;
///
/// let mut column = SparseColumn::default();
/// for value in [None, Some(7), None, None, Some(9)] {
///     column.push(value);
/// }
/// assert_eq!((column.len(), column.get(1), column.get(2)), (5, Some(7), None));
/// assert_eq!(column.present(), [(1, 7), (4, 9)]);
/// assert_eq!(column.iter().collect::<Vec<_>>(), [None, Some(7), None, None, Some(9)]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SparseColumn<T> {
    /// The rows that hold a value, in increasing order, with their values.
    present: Vec<(usize, T)>,
    /// The number of rows.
    len: usize,
}

impl<T> Default for SparseColumn<T> {
    fn default() -> SparseColumn<T> {
        SparseColumn { present: Vec::new(), len: 0 }
    }
}

impl<T: Copy> SparseColumn<T> {
    /// The number of rows.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// No row.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The value of row `i`, if it holds one (`None` past the last row).
    pub fn get(&self, i: usize) -> Option<T> {
        self.present.binary_search_by_key(&i, |&(row, _)| row).ok().map(|at| self.present[at].1)
    }

    /// The rows that hold a value, in increasing order, with their values.
    pub fn present(&self) -> &[(usize, T)] {
        &self.present
    }

    /// Every row's value, in order.
    pub fn iter(&self) -> impl Iterator<Item = Option<T>> + '_ {
        let mut present = self.present.iter().peekable();
        (0..self.len).map(move |row| present.next_if(|&&(at, _)| at == row).map(|&(_, value)| value))
    }

    /// No row, the room kept.
    fn clear(&mut self) {
        self.present.clear();
        self.len = 0;
    }

    /// Appends a row.
    #[inline]
    pub fn push(&mut self, value: Option<T>) {
        if let Some(value) = value {
            self.present.push((self.len, value));
        }
        self.len += 1;
    }
}

impl SparseColumn<Duration> {
    /// The rows that hold a time, each with it in seconds (as the tables
    /// store it).
    pub fn seconds(&self) -> impl Iterator<Item = (usize, f64)> + '_ {
        self.present.iter().map(|&(row, time)| (row, time.as_secs_f64()))
    }
}

impl SparseColumn<Eval> {
    /// The rows whose evaluation is in centipawns, each with it (as the
    /// tables store it, in 32 bits: a score beyond, which no engine gives,
    /// is left out).
    pub fn centipawns(&self) -> impl Iterator<Item = (usize, i32)> + '_ {
        self.present.iter().filter_map(|&(row, eval)| Some((row, stored_centipawns(eval)?)))
    }

    /// The rows whose evaluation is a mate, each with its number of moves
    /// (negative when Black mates).
    pub fn mates(&self) -> impl Iterator<Item = (usize, i32)> + '_ {
        self.present.iter().filter_map(|&(row, eval)| Some((row, stored_mate(eval)?)))
    }
}

/// An evaluation in centipawns as the tables store it, in 32 bits (a
/// score beyond, which no engine gives, is left out); `None` for a mate.
fn stored_centipawns(eval: Eval) -> Option<i32> {
    match eval.score {
        Score::Centipawns(cp) => i32::try_from(cp).ok(),
        Score::Mate(_) => None,
    }
}

/// A mate's number of moves (negative when Black mates); `None` for a
/// score in centipawns.
fn stored_mate(eval: Eval) -> Option<i32> {
    match eval.score {
        Score::Mate(n) => Some(n),
        Score::Centipawns(_) => None,
    }
}

/// The slots of a [`DictColumn`]'s recent keys: 2 to this power (more
/// than a chunk's distinct SANs, usually).
const RECENT_BITS: u32 = 12;

/// A key of each canonical SAN, told apart by every field its text shows:
/// the move's kind, piece, origin file and rank, capture, square,
/// promotion, check mark and annotation.
fn san_key(san: &SanPlus) -> u32 {
    let role = |role: Option<crate::Role>| role.map_or(0, |role| role as u32);
    let (kind, fields) = match san.san {
        San::Normal { role: piece, file, rank, capture, to, promotion } => {
            let file = file.map_or(0, |file| file as u32 + 1);
            let rank = rank.map_or(0, |rank| rank as u32 + 1);
            (
                0,
                piece as u32
                    | file << 3
                    | rank << 7
                    | u32::from(capture) << 11
                    | (to as u32) << 12
                    | role(promotion) << 18,
            )
        }
        San::Squares { from, to, capture, promotion } => {
            (1, from as u32 | (to as u32) << 6 | u32::from(capture) << 12 | role(promotion) << 13)
        }
        San::Castle(side) => (2, side as u32),
        San::Null => (3, 0),
    };
    let suffix = match san.suffix {
        None => 0,
        Some(Suffix::Check) => 1,
        Some(Suffix::Checkmate) => 2,
    };
    let annotation = san.annotation.map_or(0, |annotation| u32::from(annotation.nag()));
    fields | kind << 21 | suffix << 23 | annotation << 25
}

/// A key of each move in UCI (0 for a null move).
fn uci_key(uci: Option<Uci>) -> u32 {
    uci.map_or(0, |uci| {
        1 << 15 | uci.from as u32 | (uci.to as u32) << 6 | uci.promotion.map_or(0, |role| role as u32) << 12
    })
}

/// Appends a move's SAN and UCI to their columns.
#[inline]
fn push_move(rows: &mut MoveRows, san: &SanPlus, uci: Option<Uci>) {
    rows.san.push_keyed(san_key(san), || san.to_string());
    rows.uci.push_keyed(uci_key(uci), || crate::moves::uci_text(uci));
}

/// The mainline moves of some games, one row per move, as columns (each
/// column holds one value per row).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveRows {
    /// The game's number in the input, from 1.
    pub game: Vec<u64>,
    /// Half-moves from the game's start, this one included.
    pub ply: Vec<u32>,
    /// The move number.
    pub number: Vec<u32>,
    /// The side that moved.
    pub side: Vec<Color>,
    /// The move in canonical SAN, with its check mark.
    pub san: DictColumn,
    /// The move in UCI (`0000` for a null move; castling king to rook in
    /// Chess960 games).
    pub uci: DictColumn,
    /// The token as written when it is not [`MoveRows::san`] (`Ng1f3`,
    /// `e4!?`), else empty.
    pub written: TextColumn,
    /// Whether the move captures.
    pub capture: Vec<bool>,
    /// Whether the move gives check (mate included).
    pub check: Vec<bool>,
    /// The first clock (`[%clk]`) in the comments after the move.
    pub clock: SparseColumn<Duration>,
    /// The first elapsed move time (`[%emt]`) in the comments after the move.
    pub elapsed: SparseColumn<Duration>,
    /// The first evaluation (`[%eval]`) in the comments after the move.
    pub eval: SparseColumn<Eval>,
    /// The NAGs after the move, an annotation glued to it first, all rows'
    /// one after another: see [`MoveRows::nags`].
    pub nag_values: Vec<u8>,
    /// Where each row's NAGs end in `nag_values`.
    pub nag_ends: Vec<usize>,
    /// The comments after the move without their commands, joined with a
    /// space (empty when none).
    pub comment: TextColumn,
    /// The position after the move as FEN, with [`MoveRowOptions::fen`].
    pub fen: Option<TextColumn>,
    /// With [`MoveRowOptions::variations`], the line the move is on: empty
    /// for the mainline; for a variation, where it branches off its parent
    /// line, `PLY.N` (the `N`th variation, from 1, of the parent line's move
    /// at `PLY`, which the variation replaces), the parents' first, joined
    /// by `/` (`12.1/15.2`: the second variation of move 15 of the first
    /// variation of move 12).
    pub path: Option<TextColumn>,
    /// The games read (with moves or not).
    pub games: u64,
    /// The piece letters the moves are read in ([`MoveRowOptions::letters`]).
    pub letters: Letters,
}

impl MoveRows {
    /// No rows, ready for `options`.
    pub fn new(options: MoveRowOptions) -> MoveRows {
        MoveRows {
            fen: options.fen.then(TextColumn::default),
            path: options.variations.then(TextColumn::default),
            letters: options.letters,
            ..MoveRows::default()
        }
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.game.len()
    }

    /// No row.
    pub fn is_empty(&self) -> bool {
        self.game.is_empty()
    }

    /// Row `i`, borrowed.
    ///
    /// # Panics
    ///
    /// `i` is not below [`MoveRows::len`].
    pub fn row(&self, i: usize) -> MoveRow<'_> {
        self.row_with(i, self.clock.get(i), self.elapsed.get(i), self.eval.get(i))
    }

    /// Every row, in order (the sparse columns walked along, not searched
    /// for each row).
    pub fn rows(&self) -> impl Iterator<Item = MoveRow<'_>> {
        let sparse = self.clock.iter().zip(self.elapsed.iter()).zip(self.eval.iter());
        sparse.enumerate().map(|(i, ((clock, elapsed), eval))| self.row_with(i, clock, elapsed, eval))
    }

    /// Row `i`, with the values of its sparse columns.
    fn row_with(
        &self,
        i: usize,
        clock: Option<Duration>,
        elapsed: Option<Duration>,
        eval: Option<Eval>,
    ) -> MoveRow<'_> {
        MoveRow {
            game: self.game[i],
            ply: self.ply[i],
            number: self.number[i],
            side: self.side[i],
            san: self.san.get(i),
            uci: self.uci.get(i),
            written: self.written.get(i),
            capture: self.capture[i],
            check: self.check[i],
            clock,
            elapsed,
            eval,
            nags: self.nags(i),
            comment: self.comment.get(i),
            fen: self.fen.as_ref().map(|fens| fens.get(i)),
            path: self.path.as_ref().map(|paths| paths.get(i)),
        }
    }

    /// Room for `moves` more rows.
    fn reserve(&mut self, moves: usize) {
        self.game.reserve(moves);
        self.ply.reserve(moves);
        self.number.reserve(moves);
        self.side.reserve(moves);
        self.san.index.reserve(moves);
        self.uci.index.reserve(moves);
        self.written.reserve(moves, 0);
        self.capture.reserve(moves);
        self.check.reserve(moves);
        self.nag_ends.reserve(moves);
        self.comment.reserve(moves, 0);
        if let Some(fens) = &mut self.fen {
            fens.reserve(moves, 60);
        }
    }

    /// The NAGs of row `i`.
    ///
    /// # Panics
    ///
    /// `i` is not below [`MoveRows::len`].
    pub fn nags(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.nag_ends[i - 1] };
        &self.nag_values[start..self.nag_ends[i]]
    }

    /// The moves of the games of one chunk, numbered from `first_game`.
    ///
    /// # Errors
    ///
    /// The chunk is the last piece of a game too large to read
    /// ([`ReadError::TooLarge`]); the other pieces give no row.
    pub fn of_chunk(chunk: &Chunk, first_game: u64, options: MoveRowOptions) -> Result<MoveRows, ReadError> {
        let mut rows = MoveRows::new(options);
        rows.read_chunk(chunk, first_game)?;
        Ok(rows)
    }

    /// What the rows hold beyond the columns every table has.
    pub fn options(&self) -> MoveRowOptions {
        MoveRowOptions { fen: self.fen.is_some(), variations: self.path.is_some(), letters: self.letters }
    }

    /// The moves of the games of one chunk, numbered from `first_game`, in
    /// place of the rows held (with the same [`MoveRows::options`]), as
    /// [`MoveRows::of_chunk`] reads them. The room of the rows held is kept:
    /// chunk after chunk read into the same rows, the columns are allocated
    /// and their memory faulted in once, not for every chunk.
    ///
    /// # Errors
    ///
    /// See [`MoveRows::of_chunk`]; the rows are then empty.
    pub fn read_chunk(&mut self, chunk: &Chunk, first_game: u64) -> Result<(), ReadError> {
        self.read(chunk, first_game, None)
    }

    /// The moves of the games of one chunk, as [`MoveRows::read_chunk`]
    /// reads them, in parts: each time the rows reach `part_bytes` (about,
    /// at the end of a row; [`PART_BYTES`] suits most uses), they are
    /// handed to `hand`, then emptied, and the chunk read on; the rows left
    /// at its end are the last part (handed even when empty: it counts the
    /// last games). Each part counts the games that end in it
    /// ([`MoveRows::games`]); the games are numbered across the parts. The
    /// memory the rows take is then bounded whatever the chunk's games: a
    /// game of 8 MiB can hold two million moves. When `hand` gives `false`
    /// (the rows are not wanted any more), the reading stops after the
    /// game, its rows emptied as they would have been handed. The rows are
    /// left empty.
    ///
    /// # Errors
    ///
    /// See [`MoveRows::of_chunk`]; the rows are then empty.
    pub fn read_chunk_in_parts(
        &mut self,
        chunk: &Chunk,
        first_game: u64,
        part_bytes: usize,
        hand: &mut dyn FnMut(&mut MoveRows) -> bool,
    ) -> Result<(), ReadError> {
        self.read(chunk, first_game, Some(Hand { part_bytes, give: hand, wanted: true }))
    }

    /// [`MoveRows::read_chunk`], with the rows handed to `hand` in parts, if
    /// any.
    fn read(&mut self, chunk: &Chunk, first_game: u64, hand: Option<Hand<'_>>) -> Result<(), ReadError> {
        self.clear();
        if let Some(oversized) = chunk.oversized {
            if oversized.last {
                let size = chunk.start.offset + chunk.data.len() as u64 - oversized.game.offset;
                return Err(ReadError::TooLarge { at: oversized.game, size });
            }
            return Ok(());
        }
        self.reserve(chunk.data.len() / BYTES_PER_MOVE);
        // findings are counted, not kept: the rows hold moves alone
        let options = Options { count_only: true, letters: self.letters, ..Options::default() };
        let validator = Validator::with_base(&chunk.data, chunk.start.offset, options);
        let variations = self.path.is_some();
        let mut builder =
            RowBuilder { validator, rows: self, hand, next_game: first_game, ply: 0, row: None, mainline: true };
        let mut reader = Reader::with_start(&chunk.data, chunk.start);
        if variations {
            // each game read twice: first for its late notes, then for its rows
            let mut builder = VariationRows::new(builder);
            let mut ahead = Reader::with_start(&chunk.data, chunk.start);
            while Hand::wanted(&builder.rows.hand)
                && ahead.read_game(&mut builder.late).is_some()
                && reader.read_game(&mut builder).is_some()
            {}
            builder.rows.hand_over_the_rest();
            return Ok(());
        }
        while Hand::wanted(&builder.hand) && reader.read_game(&mut builder).is_some() {}
        builder.hand_over_the_rest();
        Ok(())
    }

    /// No row, the columns' room kept.
    fn clear(&mut self) {
        let MoveRows {
            game,
            ply,
            number,
            side,
            san,
            uci,
            written,
            capture,
            check,
            clock,
            elapsed,
            eval,
            nag_values,
            nag_ends,
            comment,
            fen,
            path,
            games,
            letters: _,
        } = self;
        game.clear();
        ply.clear();
        number.clear();
        side.clear();
        san.clear();
        uci.clear();
        written.clear();
        capture.clear();
        check.clear();
        clock.clear();
        elapsed.clear();
        eval.clear();
        nag_values.clear();
        nag_ends.clear();
        comment.clear();
        for column in [fen, path].into_iter().flatten() {
            column.clear();
        }
        *games = 0;
    }
}

impl MoveRows {
    /// Appends the moves of `game`, numbered `number`: its mainline, and
    /// with [`MoveRowOptions::variations`] its variations, in the order the
    /// PGN writes them (a move, then the variations that replace it, then
    /// the next move). Counts the game in [`MoveRows::games`]. A game whose
    /// moves are not played ([`Game::start`] is `None`) has no rows.
    pub fn push_game(&mut self, game: &Game, number: u64) {
        if let Some(start) = &game.start {
            let mut path = String::new();
            self.push_line(&game.mainline, start, number, &mut path);
        }
        self.games += 1;
    }

    /// The rows' size, about: their values, not the room kept for more.
    fn size(&self) -> usize {
        let texts = [&self.written, &self.comment].into_iter().chain(&self.fen).chain(&self.path);
        self.len() * ROW_BYTES + texts.map(|column| column.text.len()).sum::<usize>() + self.nag_values.len()
    }

    /// With a `hand`, once the rows reach its part's size (looked at every
    /// [`PART_CHECK`] rows, between rows): hands them over, if they are
    /// still wanted, and empties them.
    #[inline]
    fn hand_over_if_full(&mut self, hand: &mut Option<Hand<'_>>) {
        let Some(hand) = hand else { return };
        if !self.len().is_multiple_of(PART_CHECK) || self.is_empty() || self.size() < hand.part_bytes {
            return;
        }
        if hand.wanted {
            hand.wanted = (hand.give)(self);
        }
        self.clear();
    }

    /// Appends the last row's move as written, `token` (its text made by
    /// `text`), or an empty value when it is the row's SAN.
    #[inline]
    fn push_written<'t>(&mut self, token: &[u8], text: impl FnOnce() -> Cow<'t, str>) {
        // compared byte by byte in place: a call of memcmp cost more, for
        // tokens of a few bytes
        let san = self.san.last().as_bytes();
        if token.len() == san.len() && token.iter().zip(san).all(|(a, b)| a == b) {
            self.written.end();
        } else {
            self.written.push(&text());
        }
    }

    /// The rows of `line`, played from `start`, on the line at `path`.
    fn push_line(&mut self, line: &Line, start: &Position, game: u64, path: &mut String) {
        let mut pos = start.clone();
        let mode = start.castling_mode();
        for node in &line.moves {
            let before = self.path.is_some().then(|| pos.clone());
            match node.played {
                Some(m) => pos.play_unchecked(m),
                None => pos.play_null(),
            }
            self.push_node(node, game, path, &pos, mode);
            let Some(before) = before else { continue };
            for (i, variation) in node.variations.iter().enumerate() {
                let len = path.len();
                enter_variation(path, node.ply, i + 1);
                self.push_line(variation, &before, game, path);
                path.truncate(len);
            }
        }
    }

    /// The row of `node`, `after` it is played.
    fn push_node(&mut self, node: &Node, game: u64, path: &str, after: &Position, mode: crate::CastlingMode) {
        self.game.push(game);
        self.ply.push(node.ply);
        self.number.push(node.number);
        self.side.push(node.side);
        push_move(self, &node.san, node.played.map(|m| m.to_uci(mode)));
        self.push_written(node.written.as_bytes(), || Cow::Borrowed(&node.written));
        self.capture.push(node.played.is_some_and(Move::is_capture));
        self.check.push(node.san.suffix.is_some());
        self.clock.push(node.clock());
        self.elapsed.push(node.elapsed());
        self.eval.push(node.eval());
        self.nag_values.extend_from_slice(&node.nags);
        self.nag_ends.push(self.nag_values.len());
        let comment = &mut self.comment;
        for prose in node.comments.iter().map(Comment::prose).filter(|prose| !prose.is_empty()) {
            if comment.text.len() > comment.ends.last().copied().unwrap_or(0) {
                comment.text.push(' ');
            }
            comment.text.push_str(prose);
        }
        comment.end();
        if let Some(fens) = &mut self.fen {
            let _ = write!(fens.text, "{after}");
            fens.end();
        }
        if let Some(paths) = &mut self.path {
            paths.push(path);
        }
    }
}

/// One row of [`MoveRows`]: a mainline move (see the columns of
/// [`MoveRows`] for what each field holds).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MoveRow<'a> {
    /// The game's number in the input, from 1.
    pub game: u64,
    /// Half-moves from the game's start, this one included.
    pub ply: u32,
    /// The move number.
    pub number: u32,
    /// The side that moved.
    pub side: Color,
    /// Canonical SAN with its check mark.
    pub san: &'a str,
    /// UCI (`0000` for a null move).
    pub uci: &'a str,
    /// The token as written when it is not the SAN, else empty.
    pub written: &'a str,
    /// Whether the move captures.
    pub capture: bool,
    /// Whether the move gives check.
    pub check: bool,
    /// The clock after the move (`[%clk]`).
    pub clock: Option<Duration>,
    /// The time the move took (`[%emt]`).
    pub elapsed: Option<Duration>,
    /// The evaluation after the move (`[%eval]`).
    pub eval: Option<Eval>,
    /// The NAGs after the move.
    pub nags: &'a [u8],
    /// The comments' prose (empty when none).
    pub comment: &'a str,
    /// The position after the move as FEN, when asked for.
    pub fen: Option<&'a str>,
    /// The line's path ([`MoveRows::path`]), when variations are asked for.
    pub path: Option<&'a str>,
}

impl MoveRow<'_> {
    /// The evaluation in centipawns, as the tables' `eval_cp` holds it
    /// (see [`SparseColumn::centipawns`]).
    pub fn eval_cp(&self) -> Option<i32> {
        self.eval.and_then(stored_centipawns)
    }

    /// The mate's number of moves, as the tables' `eval_mate` holds it.
    pub fn eval_mate(&self) -> Option<i32> {
        self.eval.and_then(stored_mate)
    }
}

/// PGN bytes per mainline move in the densest games (move numbers, tags and
/// results included, no comments): the rows a chunk's bytes make room for
/// at first. The benchmark corpus has 14 on average, but 6.5 in its densest
/// megabyte; at 12, a third of its chunks outgrew their room, and every
/// column was then copied into twice the room (export took 3.6% longer).
/// Room made and not used is not touched, so costs little memory.
const BYTES_PER_MOVE: usize = 6;

/// A size of the rows handed over as a part
/// ([`MoveRows::read_chunk_in_parts`]): above the rows of most chunks (the
/// densest megabyte of PGN makes about 11 MB of rows, 21 MB with FEN), so
/// that most chunks are one part, but a bound on what a chunk of a few
/// long games holds at once.
pub const PART_BYTES: usize = 16 << 20;

/// The rows between two looks at their size when read in parts.
const PART_CHECK: usize = 64;

/// The bytes of a row beyond its text, about (its numbers, flags and the
/// ends of its text values).
const ROW_BYTES: usize = 64;

/// Where rows read in parts go (see [`MoveRows::read_chunk_in_parts`]).
struct Hand<'h> {
    /// The size of a part.
    part_bytes: usize,
    /// Takes a part; `false` when no more are wanted.
    give: &'h mut dyn FnMut(&mut MoveRows) -> bool,
    /// More parts are wanted.
    wanted: bool,
}

impl Hand<'_> {
    /// More rows are wanted: always without a hand.
    fn wanted(hand: &Option<Hand<'_>>) -> bool {
        hand.as_ref().is_none_or(|hand| hand.wanted)
    }
}

/// Reads games into rows, validating every move.
struct RowBuilder<'a, 'r, 'h> {
    validator: Validator<'a>,
    rows: &'r mut MoveRows,
    /// Where the rows go in parts, if anywhere.
    hand: Option<Hand<'h>>,
    next_game: u64,
    /// The ply of the last move of the line being read: on the mainline,
    /// the game's rows so far (a part may have taken some); before a
    /// variation's first move, one less than the ply of the move it
    /// replaces.
    ply: u32,
    /// The last row's timings, while its NAGs and comments may still come.
    row: Option<Timings>,
    /// Whether the line being read (the mainline, or with variations the
    /// innermost line) can still be played.
    mainline: bool,
}

impl RowBuilder<'_, '_, '_> {
    /// A NAG after the open row's move, if a row is open.
    fn row_nag(&mut self, nag: u8) {
        if self.row.is_some() {
            self.rows.nag_values.push(nag);
        }
    }

    /// A comment after the open row's move, if a row is open: its clock,
    /// elapsed time and evaluation, and its text without its commands.
    fn row_comment(&mut self, text: RawText<'_>) {
        let Some(row) = &mut self.row else { return };
        if let Some(timings) = timings_only(text.0) {
            // no prose: read without making text
            row.then(timings);
            return;
        }
        let (commands, prose) = read_commands(&comment_cow(text.0));
        commands.iter().for_each(|command| row.take(command));
        if !prose.is_empty() {
            let comment = &mut self.rows.comment;
            let start = comment.ends.last().copied().unwrap_or(0);
            if comment.text.len() > start {
                comment.text.push(' ');
            }
            comment.text.push_str(&prose);
        }
    }

    /// At the chunk's end, with a hand: the rows left, if still wanted, as
    /// the last part.
    fn hand_over_the_rest(&mut self) {
        if let Some(hand) = &mut self.hand {
            if hand.wanted {
                hand.wanted = (hand.give)(self.rows);
            }
            self.rows.clear();
        }
    }

    /// Ends the open row.
    fn close(&mut self) {
        if let Some(row) = self.row.take() {
            let rows = &mut *self.rows;
            rows.clock.push(row.clock);
            rows.elapsed.push(row.elapsed);
            rows.eval.push(row.eval);
            rows.nag_ends.push(rows.nag_values.len());
            rows.comment.end();
        }
    }
}

impl Visitor for RowBuilder<'_, '_, '_> {
    type Output = ();

    fn begin_game(&mut self, at: Location) {
        self.validator.begin_game(at);
        self.row = None;
        self.mainline = false;
        self.ply = 0;
    }

    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) {
        self.validator.tag(name, value, at);
    }

    fn end_tags(&mut self) -> Skip {
        let skip = self.validator.end_tags();
        self.mainline = self.validator.playing().is_some();
        skip
    }

    fn move_number(&mut self, number: u32, black: bool, token: &[u8], at: Location) {
        self.validator.move_number(number, black, token, at);
    }

    fn san(&mut self, token: &[u8], at: Location) {
        self.close();
        self.rows.hand_over_if_full(&mut self.hand);
        let played = self.validator.play_san(token, at);
        let Some(played) = played.filter(|_| self.mainline) else {
            self.mainline = false;
            return;
        };
        let rows = &mut *self.rows;
        self.ply += 1;
        rows.game.push(self.next_game);
        rows.ply.push(self.ply);
        rows.number.push(played.number);
        rows.side.push(played.side);
        push_move(rows, &played.san, played.uci);
        if played.written_as_san {
            rows.written.end();
        } else {
            rows.push_written(token, || RawText(token).decode());
        }
        rows.capture.push(played.m.is_some_and(Move::is_capture));
        rows.check.push(played.san.suffix.is_some());
        if let Some(nag) = glued_annotation(token) {
            rows.nag_values.push(nag);
        }
        if let (Some(fens), Some(pos)) = (&mut rows.fen, self.validator.playing()) {
            let _ = write!(fens.text, "{pos}");
            fens.end();
        }
        self.row = Some(Timings::default());
    }

    fn nag(&mut self, nag: u8, token: &[u8], at: Location) {
        self.validator.nag(nag, token, at);
        self.row_nag(nag);
    }

    fn comment(&mut self, text: RawText<'_>, at: Location) {
        self.validator.comment(text, at);
        self.row_comment(text);
    }

    fn begin_variation(&mut self, _at: Location) -> Skip {
        // the mainline only: the move before stays open for the comments
        // after the variation
        Skip(true)
    }

    fn result(&mut self, result: ResultToken, token: &[u8], at: Location) {
        self.validator.result(result, token, at);
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        self.validator.syntax_error(error);
    }

    fn after_result(&mut self, text: &[u8], at: Location) {
        self.validator.after_result(text, at);
    }

    fn between_games(&mut self, text: &[u8], at: Location) {
        self.validator.between_games(text, at);
    }

    fn escape(&mut self, line: &[u8], at: Location) {
        self.validator.escape(line, at);
    }

    fn invisible(&mut self, text: &[u8], at: Location) {
        self.validator.invisible(text, at);
    }

    fn en_passant_mark(&mut self, token: &[u8], at: Location) {
        self.validator.en_passant_mark(token, at);
    }

    fn end_game(&mut self, at: Location) {
        self.close();
        self.validator.end_game(at);
        self.rows.games += 1;
        self.next_game += 1;
    }
}

/// Extends `path`, a line's path, to the path of the `n`th variation
/// (from 1) of the line's move at `ply`: `PLY.N`, after a `/` unless the
/// line is the mainline (see [`MoveRows::path`]).
fn enter_variation(path: &mut String, ply: u32, n: usize) {
    if !path.is_empty() {
        path.push('/');
    }
    let _ = write!(path, "{ply}.{n}");
}

/// The comments and NAGs of a game that come after a variation of the
/// move they follow (`12. Nf3 (12. Nc3) {a comment on Nf3} $1`), which a
/// game's rows need before that variation's rows: read in a first pass
/// over the game, by the move's place among the game's move tokens.
#[derive(Default)]
struct LateNotes {
    /// Each line being read, the innermost last: the place of its last move
    /// token, and whether a variation came since.
    lines: Vec<(Option<u32>, bool)>,
    /// Move tokens read in the game.
    tokens: u32,
    notes: FxHashMap<u32, Vec<Note>>,
}

/// A comment or a NAG after a variation.
enum Note {
    Comment(Vec<u8>),
    Nag(u8),
}

impl LateNotes {
    /// Where a note read now goes: the last move of the line, when a
    /// variation came since.
    fn late(&mut self) -> Option<&mut Vec<Note>> {
        match self.lines.last() {
            Some(&(Some(token), true)) => Some(self.notes.entry(token).or_default()),
            _ => None,
        }
    }
}

impl Visitor for LateNotes {
    type Output = ();

    fn begin_game(&mut self, _at: Location) {
        self.lines.clear();
        self.lines.push((None, false));
        self.tokens = 0;
        self.notes.clear();
    }

    fn san(&mut self, _token: &[u8], _at: Location) {
        self.tokens += 1;
        if let Some(line) = self.lines.last_mut() {
            *line = (Some(self.tokens), false);
        }
    }

    fn nag(&mut self, nag: u8, _token: &[u8], _at: Location) {
        if let Some(notes) = self.late() {
            notes.push(Note::Nag(nag));
        }
    }

    fn comment(&mut self, text: RawText<'_>, _at: Location) {
        if let Some(notes) = self.late() {
            notes.push(Note::Comment(text.0.to_vec()));
        }
    }

    fn begin_variation(&mut self, _at: Location) -> Skip {
        if let Some(line) = self.lines.last_mut() {
            line.1 = true;
        }
        self.lines.push((None, false));
        Skip(false)
    }

    fn end_variation(&mut self, _at: Location) {
        if self.lines.len() > 1 {
            self.lines.pop();
        }
    }

    fn end_game(&mut self, _at: Location) {}
}

/// Reads games into rows, their variations' moves too, each row with its
/// line's path, in the order [`MoveRows::push_game`] gives them (a move,
/// the variations that replace it, the next move), without building the
/// games: the rows of the line being read are built by a [`RowBuilder`],
/// whose state for each outer line waits on a stack. A move's row ends
/// where its first variation starts, with the notes after its variations
/// that [`LateNotes`] read ahead.
struct VariationRows<'a, 'r, 'h> {
    rows: RowBuilder<'a, 'r, 'h>,
    late: LateNotes,
    /// Each outer line, the innermost last.
    outer: Vec<OuterLine>,
    /// The path of the line being read.
    path: String,
    /// The place of the line's last move token, if any.
    last_token: Option<u32>,
    /// The variations of the line's last move so far, but those whose rows
    /// are lost.
    variations: u32,
    /// Move tokens read in the game.
    tokens: u32,
}

/// A line whose variation is being read.
struct OuterLine {
    /// Its moves can still be played.
    mainline: bool,
    ply: u32,
    last_token: Option<u32>,
    variations: u32,
    /// The length of its path.
    path: usize,
}

impl<'a, 'r, 'h> VariationRows<'a, 'r, 'h> {
    fn new(rows: RowBuilder<'a, 'r, 'h>) -> VariationRows<'a, 'r, 'h> {
        VariationRows {
            rows,
            late: LateNotes::default(),
            outer: Vec::new(),
            path: String::new(),
            last_token: None,
            variations: 0,
            tokens: 0,
        }
    }
}

impl Visitor for VariationRows<'_, '_, '_> {
    type Output = ();

    fn begin_game(&mut self, at: Location) {
        self.rows.begin_game(at);
        self.outer.clear();
        self.path.clear();
        (self.last_token, self.variations, self.tokens) = (None, 0, 0);
    }

    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) {
        self.rows.tag(name, value, at);
    }

    fn end_tags(&mut self) -> Skip {
        self.rows.end_tags()
    }

    fn move_number(&mut self, number: u32, black: bool, token: &[u8], at: Location) {
        self.rows.move_number(number, black, token, at);
    }

    fn san(&mut self, token: &[u8], at: Location) {
        self.tokens += 1;
        self.rows.san(token, at);
        self.last_token = Some(self.tokens);
        self.variations = 0;
        if self.rows.row.is_some()
            && let Some(paths) = &mut self.rows.rows.path
        {
            paths.push(&self.path);
        }
    }

    fn nag(&mut self, nag: u8, token: &[u8], at: Location) {
        self.rows.nag(nag, token, at);
    }

    fn comment(&mut self, text: RawText<'_>, at: Location) {
        self.rows.comment(text, at);
    }

    fn begin_variation(&mut self, at: Location) -> Skip {
        let skip = self.rows.validator.begin_variation(at);
        // the move the variation replaces: its row ends, with its notes
        // after the variations
        if self.rows.row.is_some()
            && let Some(notes) = self.last_token.and_then(|token| self.late.notes.remove(&token))
        {
            for note in notes {
                match note {
                    Note::Comment(text) => self.rows.row_comment(RawText(&text)),
                    Note::Nag(nag) => self.rows.row_nag(nag),
                }
            }
        }
        self.rows.close();
        let rows = &mut self.rows;
        // lost (no rows) when it replaces no move that has a row
        let lost = !rows.mainline || self.last_token.is_none();
        let path = self.path.len();
        if !lost {
            self.variations += 1;
            enter_variation(&mut self.path, rows.ply, self.variations as usize);
        }
        let (last_token, variations) = (self.last_token, self.variations);
        self.outer.push(OuterLine { mainline: rows.mainline, ply: rows.ply, last_token, variations, path });
        // its first move has the ply of the move it replaces
        rows.mainline = !lost;
        rows.ply = rows.ply.saturating_sub(1);
        (self.last_token, self.variations) = (None, 0);
        skip
    }

    fn end_variation(&mut self, at: Location) {
        self.rows.validator.end_variation(at);
        let Some(outer) = self.outer.pop() else { return };
        self.rows.close();
        (self.rows.mainline, self.rows.ply) = (outer.mainline, outer.ply);
        (self.last_token, self.variations) = (outer.last_token, outer.variations);
        self.path.truncate(outer.path);
    }

    fn result(&mut self, result: ResultToken, token: &[u8], at: Location) {
        self.rows.result(result, token, at);
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        self.rows.syntax_error(error);
    }

    fn after_result(&mut self, text: &[u8], at: Location) {
        self.rows.after_result(text, at);
    }

    fn between_games(&mut self, text: &[u8], at: Location) {
        self.rows.between_games(text, at);
    }

    fn escape(&mut self, line: &[u8], at: Location) {
        self.rows.escape(line, at);
    }

    fn invisible(&mut self, text: &[u8], at: Location) {
        self.rows.invisible(text, at);
    }

    fn en_passant_mark(&mut self, token: &[u8], at: Location) {
        self.rows.en_passant_mark(token, at);
    }

    fn end_game(&mut self, at: Location) {
        self.rows.end_game(at);
    }
}

/// The move rows of an input read on several threads: see
/// [`read_move_rows_input`].
pub struct MoveRowChunks {
    ordered: Ordered<Box<dyn Read + Send>, RowWork>,
    compression: Option<Compression>,
    /// Games before the chunk whose rows come (its rows are numbered from 1
    /// in it).
    before: u64,
    /// Games read so far (a game too large to read counts).
    games: u64,
    done: bool,
}

impl core::fmt::Debug for MoveRowChunks {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MoveRowChunks").field("games", &self.games).finish_non_exhaustive()
    }
}

/// The work on each chunk: its rows, numbered from 1 in the chunk.
struct RowWork(MoveRowOptions);

impl ChunkWork for RowWork {
    type Part = MoveRows;
    type Output = (Result<(), ReadError>, Vec<u8>);

    fn work(&self, chunk: Chunk, parts: &mut Parts<'_, MoveRows>) -> Self::Output {
        let mut rows = MoveRows::new(self.0);
        let mut hand = |rows: &mut MoveRows| parts.send(core::mem::replace(rows, MoveRows::new(self.0)));
        let read = rows.read_chunk_in_parts(&chunk, 1, PART_BYTES, &mut hand);
        (read, chunk.data)
    }
}

/// Reads the mainline moves of every game of `input` on `threads` worker
/// threads (0: one per core; the calling thread takes the rows as they
/// come), one [`MoveRows`] per chunk of the input, in input order, the
/// games numbered from 1 across the input. A chunk whose rows grow past
/// [`PART_BYTES`] (a game can hold two million moves) comes in parts of
/// that size, as [`MoveRows::read_chunk_in_parts`] reads them: the memory
/// the rows take is bounded. A game too large to read is a
/// [`ReadError::TooLarge`] item (it counts as a game); the games after it
/// are read. A read error ends the rows.
///
/// # Errors
///
/// The input is not PGN text, or the threads cannot start.
pub fn read_move_rows_input(
    input: Input,
    threads: usize,
    options: MoveRowOptions,
) -> Result<MoveRowChunks, InputError> {
    let compression = input.compression;
    let chunker = chunker_of(input, crate::pgn::game::PARALLEL_CHUNK_TARGET)?;
    let ordered = Ordered::on_workers(chunker, RowWork(options), threads).map_err(InputError::threads)?;
    Ok(MoveRowChunks { ordered, compression, before: 0, games: 0, done: false })
}

impl Iterator for MoveRowChunks {
    type Item = Result<MoveRows, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            match self.ordered.next_piece()? {
                Ok(Piece::Part(mut rows)) => {
                    // numbered from 1 in their chunk
                    for game in &mut rows.game {
                        *game += self.before;
                    }
                    self.games += rows.games;
                    return Some(Ok(rows));
                }
                Ok(Piece::Output((read, data))) => {
                    self.ordered.recycle(data);
                    // a game too large to read counts
                    self.games += u64::from(read.is_err());
                    self.before = self.games;
                    if let Err(err) = read {
                        return Some(Err(err));
                    }
                }
                Err(err) => {
                    self.done = true;
                    return Some(Err(ReadError::stream(self.ordered.bytes_read(), self.compression, &err)));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::san::{Annotation, CastlingSide};
    use crate::{File, Rank, Role, Square};

    #[test]
    fn sparse_times_and_evaluations_as_the_tables_store_them() {
        let mut times = SparseColumn::default();
        for time in [None, Some(Duration::from_millis(1500)), None, Some(Duration::from_secs(180))] {
            times.push(time);
        }
        assert_eq!(times.seconds().collect::<Vec<_>>(), [(1, 1.5), (3, 180.0)]);
        let mut evals = SparseColumn::default();
        let eval = |score| Some(Eval { score, depth: None });
        for score in [
            eval(Score::Centipawns(-25)),
            None,
            eval(Score::Mate(-3)),
            // beyond 32 bits: in neither table column
            eval(Score::Centipawns(i64::from(i32::MAX) + 1)),
            eval(Score::Centipawns(i64::from(i32::MIN))),
            eval(Score::Mate(7)),
        ] {
            evals.push(score);
        }
        assert_eq!(evals.centipawns().collect::<Vec<_>>(), [(0, -25), (4, i32::MIN)]);
        assert_eq!(evals.mates().collect::<Vec<_>>(), [(2, -3), (5, 7)]);
        assert_eq!(evals.len(), 6);
        // a row's, the same
        let stored: Vec<(Option<i32>, Option<i32>)> =
            evals.iter().map(|eval| (eval.and_then(stored_centipawns), eval.and_then(stored_mate))).collect();
        assert_eq!(
            stored,
            [(Some(-25), None), (None, None), (None, Some(-3)), (None, None), (Some(i32::MIN), None), (None, Some(7))]
        );
    }

    #[test]
    fn rows_in_order_are_the_rows_one_by_one() {
        let pgn = b"1. e4 {[%clk 0:03:00]} e5 {[%eval #-2] [%emt 0:00:04]} 2. Nf3 {[%eval 0.3]} Nc6 *\n";
        let input = crate::pgn::Input::from_reader(std::io::Cursor::new(pgn.to_vec()), None).unwrap();
        let chunks: Vec<MoveRows> =
            read_move_rows_input(input, 1, MoveRowOptions::default()).unwrap().map(Result::unwrap).collect();
        let rows = &chunks[0];
        let walked: Vec<MoveRow<'_>> = rows.rows().collect();
        assert_eq!(walked, (0..rows.len()).map(|i| rows.row(i)).collect::<Vec<_>>());
        let sparse: Vec<_> =
            walked.iter().map(|row| (row.clock, row.elapsed, row.eval_cp(), row.eval_mate())).collect();
        assert_eq!(
            sparse,
            [
                (Some(Duration::from_secs(180)), None, None, None),
                (None, Some(Duration::from_secs(4)), None, Some(-2)),
                (None, None, Some(30), None),
                (None, None, None, None),
            ]
        );
    }

    /// Every SAN of a broad set: each kind, piece, origin, capture,
    /// promotion, check mark and annotation, on a few squares.
    fn sans() -> Vec<SanPlus> {
        let roles = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
        let promotions = [None, Some(Role::Knight), Some(Role::Bishop), Some(Role::Rook), Some(Role::Queen)];
        let squares = [Square::A1, Square::E4, Square::H8, Square::D5];
        let files = core::iter::once(None).chain(File::ALL.map(Some));
        let ranks: Vec<Option<Rank>> = core::iter::once(None).chain(Rank::ALL.map(Some)).collect();
        let mut moves = vec![San::Null, San::Castle(CastlingSide::KingSide), San::Castle(CastlingSide::QueenSide)];
        for file in files {
            for &rank in &ranks {
                for role in roles {
                    for to in squares {
                        for capture in [false, true] {
                            for promotion in promotions {
                                moves.push(San::Normal { role, file, rank, capture, to, promotion });
                            }
                        }
                    }
                }
            }
        }
        for from in squares {
            for to in squares {
                for capture in [false, true] {
                    for promotion in promotions {
                        moves.push(San::Squares { from, to, capture, promotion });
                    }
                }
            }
        }
        let annotations = [None, Some(Annotation::Good), Some(Annotation::Blunder), Some(Annotation::Dubious)];
        let mut sans = Vec::new();
        for san in moves {
            for suffix in [None, Some(Suffix::Check), Some(Suffix::Checkmate)] {
                for annotation in annotations {
                    sans.push(SanPlus { san, suffix, annotation, en_passant_mark: false });
                }
            }
        }
        sans
    }

    #[test]
    fn a_san_key_stands_for_one_text() {
        let sans = sans();
        // (3 + 9 * 9 * 6 * 4 * 2 * 5 + 4 * 4 * 2 * 5) moves, 3 check marks, 4 annotations
        assert_eq!(sans.len(), 235_236);
        let mut texts: FxHashMap<u32, String> = FxHashMap::default();
        for san in &sans {
            let text = san.to_string();
            let known = texts.entry(san_key(san)).or_insert_with(|| text.clone());
            assert_eq!(*known, text, "{san:?}");
        }
        // every SAN has a key of its own (some share a text: a pawn push
        // with and without its origin)
        assert_eq!(texts.len(), sans.len());
    }

    #[test]
    fn every_move_has_a_uci_key_of_its_own() {
        let mut keys = rustc_hash::FxHashSet::default();
        let promotions = [None, Some(Role::Knight), Some(Role::Queen)];
        let moves = Square::ALL.into_iter().flat_map(|from| {
            Square::ALL.into_iter().flat_map(move |to| promotions.map(move |promotion| Uci { from, to, promotion }))
        });
        for uci in moves.map(Some).chain([None]) {
            assert!(keys.insert(uci_key(uci)), "{uci:?}");
        }
        assert_eq!(keys.len(), 64 * 64 * 3 + 1);
    }

    #[test]
    fn a_dictionary_column_keeps_each_value_once_in_order_of_its_first_row() {
        let e4 = SanPlus::new(San::Normal {
            role: Role::Pawn,
            file: None,
            rank: None,
            capture: false,
            to: Square::E4,
            promotion: None,
        });
        let nf3 = SanPlus::new(San::Normal {
            role: Role::Knight,
            file: None,
            rank: None,
            capture: false,
            to: Square::F3,
            promotion: None,
        });
        let mut keyed = DictColumn::default();
        for san in [nf3, e4, nf3, nf3, e4] {
            keyed.push_keyed(san_key(&san), || san.to_string());
        }
        keyed.push("e4");
        keyed.push("O-O");
        let mut by_text = DictColumn::default();
        for text in ["Nf3", "e4", "Nf3", "Nf3", "e4", "e4", "O-O"] {
            by_text.push(text);
        }
        assert_eq!(keyed, by_text);
        assert_eq!(keyed.index, [0, 1, 0, 0, 1, 1, 2]);
        assert_eq!((keyed.values.text.as_str(), keyed.values.ends.as_slice()), ("Nf3e4O-O", &[3, 5, 8][..]));
        assert_eq!((keyed.len(), keyed.get(3), keyed.last()), (7, "Nf3", "O-O"));
        let expanded = keyed.expand();
        assert_eq!(expanded.text, "Nf3e4Nf3Nf3e4e4O-O");
        assert_eq!(expanded.ends, [3, 5, 8, 11, 13, 15, 18]);
    }

    #[test]
    fn a_dictionary_column_expands_values_of_any_length_and_script() {
        // up to 16 bytes each: copied 16 bytes at a time
        let mut short = DictColumn::default();
        for text in ["exd8=Q+", "", "0000", "sixteen bytes ok", "é", "exd8=Q+", "", "é"] {
            short.push(text);
        }
        let expanded = short.expand();
        assert_eq!(expanded.text, "exd8=Q+0000sixteen bytes okéexd8=Q+é");
        assert_eq!(expanded.ends, [7, 7, 11, 27, 29, 36, 36, 38]);
        // a longer value: copied by its length
        let mut long = DictColumn::default();
        for text in ["seventeen bytes!!", "a", "seventeen bytes!!"] {
            long.push(text);
        }
        let expanded = long.expand();
        assert_eq!(expanded.text, "seventeen bytes!!aseventeen bytes!!");
        assert_eq!(expanded.ends, [17, 18, 35]);
        assert_eq!(DictColumn::default().expand(), TextColumn::default());
    }
}
