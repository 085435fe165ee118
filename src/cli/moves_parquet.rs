//! The moves table's Parquet column chunks, encoded straight from
//! [`MoveRows`]: `sanfen export --table moves --format parquet`.
//!
//! Why not through Arrow and parquet's column writers, as the games table
//! is written: on the benchmark corpus they took twice as long as reading
//! and validating the games (export 0.94 s, check 0.25 s; 0.67 s here).
//! Their dictionary interns every value of every text column (a
//! hash and a byte comparison per row, for `file`, `side`, `san` and `uci`
//! alike), and their levels are computed from Arrow's arrays. Here the
//! table's shape is known: the SAN and UCI columns come as dictionaries
//! already ([`sanfen::pgn::rows::DictColumn`], built from the moves as
//! they are read, with no text per row), a constant column is one run, and
//! the levels of a column are one pass over its rows. parquet
//! still writes the pages' headers, the row groups and the footer (with
//! the Arrow schema), so what a reader sees is what Arrow's writer makes:
//! the same columns and types, read back alike (tested against it).
//!
//! One data page per column chunk (a row group is about a megabyte of PGN);
//! the encodings:
//!
//! - `file`, `side`, `san`, `uci`: a dictionary (`RLE_DICTIONARY`);
//! - `game`, `ply`, `number`: `DELTA_BINARY_PACKED` (they count up by one);
//! - the others `PLAIN`, optional ones with their definition levels (`RLE`).
//!
//! Pages are compressed as chosen ([`Codec`]: snappy by default) but
//! the dictionary indices' (which snappy does not make smaller). A column
//! chunk's minimum and maximum are kept, exact (parquet's writer cuts a
//! `file` name over 64 bytes), but for the text of moves (`side`, `san`,
//! `uci`, `written`, `comment`, `fen`, `path`): every row group holds about
//! the whole range of their values, so a reader skips none by them, and
//! finding them compares every value.

use bytes::Bytes;
use parquet::basic::{Compression, Encoding, GzipLevel, ZstdLevel};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::data_type::ByteArray;
use parquet::errors::{ParquetError, Result};
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::statistics::Statistics;
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;
use sanfen::Color;
use sanfen::pgn::rows::{MoveRows, TextColumn};

use super::compressed::{no_levels, out_of_range};

/// How pages are compressed (`sanfen export --compression`): the codecs
/// parquet readers know.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Codec {
    /// Snappy: fast, and what most Parquet writers use (pyarrow, Spark);
    /// every reader knows it.
    #[default]
    Snappy,
    /// Zstandard (level 1, or `--compression-level` from 1 to 22): smaller
    /// files, a little slower to write.
    Zstd,
    /// LZ4 (the `LZ4_RAW` codec): the fastest to write after none; not
    /// known to readers older than 2022 (Spark before 3.3, for one).
    Lz4,
    /// gzip (level 6, or `--compression-level` from 0 to 9): slow to
    /// write; for readers that know no other.
    Gzip,
    /// No compression: the largest files.
    None,
}

impl Codec {
    /// The codec's name, as `--compression` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Snappy => "snappy",
            Codec::Zstd => "zstd",
            Codec::Lz4 => "lz4",
            Codec::Gzip => "gzip",
            Codec::None => "none",
        }
    }

    /// The codec as parquet names it, at `level` (parquet's default
    /// without).
    ///
    /// # Errors
    ///
    /// What is wrong with `level`: out of the codec's range, or given to a
    /// codec that has none.
    pub fn compression(self, level: Option<u32>) -> core::result::Result<Compression, String> {
        let name = self.name();
        Ok(match (self, level) {
            (Codec::Zstd, None) => Compression::ZSTD(ZstdLevel::default()),
            (Codec::Zstd, Some(level)) => Compression::ZSTD(
                i32::try_from(level)
                    .ok()
                    .and_then(|level| ZstdLevel::try_new(level).ok())
                    .ok_or_else(|| out_of_range(level, name, 1, 22))?,
            ),
            (Codec::Gzip, None) => Compression::GZIP(GzipLevel::default()),
            (Codec::Gzip, Some(level)) => {
                Compression::GZIP(GzipLevel::try_new(level).map_err(|_| out_of_range(level, name, 0, 9))?)
            }
            (_, Some(_)) => return Err(no_levels(name)),
            (Codec::Snappy, None) => Compression::SNAPPY,
            (Codec::Lz4, None) => Compression::LZ4_RAW,
            (Codec::None, None) => Compression::UNCOMPRESSED,
        })
    }
}

/// The column chunks of one row group, one after another in `bytes`.
pub(super) struct ColumnChunks {
    /// The chunks' pages.
    pub bytes: Bytes,
    /// Each leaf column's chunk in schema order (offsets into `bytes`), or
    /// `None` for one left out ([`encode_moves`]).
    pub columns: Vec<Option<ColumnCloseResult>>,
}

/// The moves table's column chunks of `rows`, the moves of games of the
/// input `file`, for the leaf columns `columns` (of the schema
/// [`sanfen::pgn::table::moves_schema`] gives), but `game`'s: the games are
/// numbered across the input, which only the chunks before can tell (see
/// [`encode_games`]).
///
/// # Errors
///
/// A column whose page would be over 2 GiB, or a column the moves table
/// has not.
pub(super) fn encode_moves(
    rows: &MoveRows,
    file: &str,
    columns: &[ColumnDescPtr],
    compression: Compression,
) -> Result<ColumnChunks> {
    // a few bytes per move and its text, as compressed
    let text = [Some(&rows.comment), Some(&rows.written), rows.fen.as_ref(), rows.path.as_ref()];
    let text: usize = text.into_iter().flatten().map(|column| column.text.len()).sum();
    let mut writer = Writer::new(rows.len() * 8 + text / 2, compression)?;
    let mut chunks = Vec::with_capacity(columns.len());
    for descr in columns {
        let name = descr.path().parts()[0].as_str();
        chunks.push(if name == "game" { None } else { Some(writer.moves_column(rows, file, name, descr)?) });
    }
    Ok(ColumnChunks { bytes: Bytes::from(writer.out.into_inner()?), columns: chunks })
}

/// The `game` column's chunk: `games` (numbered in the chunk, from 1) after
/// `before` games, for the leaf column `descr`, its page compressed as
/// `compression` says.
///
/// # Errors
///
/// See [`encode_moves`].
pub(super) fn encode_games(
    games: &[u64],
    before: u64,
    descr: &ColumnDescPtr,
    compression: Compression,
) -> Result<ColumnChunks> {
    let mut writer = Writer::new(games.len() / 4, compression)?;
    let close = writer.delta_column(descr, games, before)?;
    Ok(ColumnChunks { bytes: Bytes::from(writer.out.into_inner()?), columns: vec![Some(close)] })
}

/// Writes a row group of the moves table: `moves` from [`encode_moves`],
/// `games` from [`encode_games`] in the place it left.
///
/// # Errors
///
/// The chunks are not of the file's columns, or the file cannot be written.
pub(super) fn write_row_group<W: std::io::Write + Send>(
    file: &mut SerializedFileWriter<W>,
    moves: ColumnChunks,
    mut games: ColumnChunks,
) -> Result<()> {
    let mut group = file.next_row_group()?;
    for close in moves.columns {
        match close {
            Some(close) => group.append_column(&moves.bytes, close)?,
            None => {
                let close = games.columns.pop().flatten().ok_or_else(|| general("no game column".to_owned()))?;
                group.append_column(&games.bytes, close)?;
            }
        }
    }
    group.close()?;
    Ok(())
}

/// Writes column chunks one after another.
struct Writer {
    out: TrackedWrite<Vec<u8>>,
    /// The page being made (its levels, then its values).
    page: Vec<u8>,
    /// Dictionary indices or levels of the column being written.
    numbers: Vec<u32>,
    /// How pages are compressed (but those of chunks left uncompressed).
    compression: Compression,
    compressor: Option<Compressor>,
}

/// A codec's compressor, kept from page to page.
enum Compressor {
    Snappy(Box<snap::raw::Encoder>),
    Zstd(zstd::bulk::Compressor<'static>),
    Lz4,
    Gzip(flate2::Compression),
}

impl Compressor {
    /// The compressor of `compression` (one of [`Codec`]'s), if it
    /// compresses.
    fn of(compression: Compression) -> Result<Option<Compressor>> {
        Ok(Some(match compression {
            Compression::UNCOMPRESSED => return Ok(None),
            Compression::SNAPPY => Compressor::Snappy(Box::new(snap::raw::Encoder::new())),
            Compression::ZSTD(level) => Compressor::Zstd(zstd::bulk::Compressor::new(level.compression_level())?),
            Compression::LZ4_RAW => Compressor::Lz4,
            Compression::GZIP(level) => Compressor::Gzip(flate2::Compression::new(level.compression_level())),
            other => return Err(general(format!("no compressor of {other}"))),
        }))
    }

    /// `page` compressed.
    fn compress(&mut self, page: &[u8]) -> Result<Vec<u8>> {
        let external = |err: std::io::Error| ParquetError::External(Box::new(err));
        Ok(match self {
            Compressor::Snappy(snappy) => {
                let mut out = vec![0; snap::raw::max_compress_len(page.len())];
                let len = snappy.compress(page, &mut out).map_err(|err| ParquetError::External(Box::new(err)))?;
                out.truncate(len);
                out
            }
            Compressor::Zstd(zstd) => zstd.compress(page).map_err(external)?,
            Compressor::Lz4 => lz4_flex::block::compress(page),
            Compressor::Gzip(level) => {
                let mut encoder = flate2::write::GzEncoder::new(Vec::with_capacity(page.len() / 3), *level);
                std::io::Write::write_all(&mut encoder, page).map_err(external)?;
                encoder.finish().map_err(external)?
            }
        })
    }
}

/// What a column chunk's metadata says beside its pages.
struct ChunkMeta {
    /// Rows of the table.
    rows: usize,
    /// Values with their nulls (levels, when the column has them).
    values: usize,
    /// The data page's encoding.
    encoding: Encoding,
    compress: bool,
    statistics: Option<Statistics>,
}

impl Writer {
    /// A writer of about `size` bytes of pages, compressed as
    /// `compression` says.
    fn new(size: usize, compression: Compression) -> Result<Writer> {
        Ok(Writer {
            out: TrackedWrite::new(Vec::with_capacity(size)),
            page: Vec::new(),
            numbers: Vec::new(),
            compression,
            compressor: Compressor::of(compression)?,
        })
    }

    /// The chunk of the moves table's column `name`.
    fn moves_column(
        &mut self,
        rows: &MoveRows,
        file: &str,
        name: &str,
        descr: &ColumnDescPtr,
    ) -> Result<ColumnCloseResult> {
        let n = rows.len();
        match name {
            "file" => {
                self.numbers.clear();
                self.numbers.resize(n, 0);
                let statistics = (n > 0).then(|| {
                    let file = Some(ByteArray::from(file));
                    Statistics::byte_array(file.clone(), file, None, Some(0), false)
                });
                self.dictionary_column(descr, &[file], n, statistics)
            }
            "side" => {
                self.numbers.clear();
                self.numbers.extend(rows.side.iter().map(|&side| u32::from(side == Color::Black)));
                self.dictionary_column(descr, &["white", "black"], n, None)
            }
            "san" | "uci" => {
                let column = if name == "san" { &rows.san } else { &rows.uci };
                self.numbers.clear();
                self.numbers.extend_from_slice(&column.index);
                let values: Vec<&str> = (0..column.values.len()).map(|i| column.values.get(i)).collect();
                self.dictionary_column(descr, &values, n, None)
            }
            "ply" | "number" => {
                let values = if name == "ply" { &rows.ply } else { &rows.number };
                self.delta_column(descr, values, 0)
            }
            "is_capture" | "is_check" => {
                let values = if name == "is_capture" { &rows.capture } else { &rows.check };
                self.page.clear();
                plain_booleans(&mut self.page, values);
                let statistics = (n > 0).then(|| {
                    let (min, max) = (values.iter().all(|&value| value), values.iter().any(|&value| value));
                    Statistics::boolean(Some(min), Some(max), None, Some(0), false)
                });
                let chunk = ChunkMeta { rows: n, values: n, encoding: Encoding::PLAIN, compress: true, statistics };
                self.write_chunk(descr, None, chunk)
            }
            "clock" | "elapsed" => {
                let times = if name == "clock" { &rows.clock } else { &rows.elapsed };
                self.optional_column(descr, n, times.seconds(), f64::to_le_bytes, Statistics::double)
            }
            "eval_cp" => self.optional_column(descr, n, rows.eval.centipawns(), i32::to_le_bytes, Statistics::int32),
            "eval_mate" => self.optional_column(descr, n, rows.eval.mates(), i32::to_le_bytes, Statistics::int32),
            "nags" => self.nags_column(descr, rows),
            "written" | "comment" => {
                let column = if name == "written" { &rows.written } else { &rows.comment };
                self.text_column(descr, column, true)
            }
            "fen" | "path" => {
                let column = if name == "fen" { rows.fen.as_ref() } else { rows.path.as_ref() };
                let column = column.ok_or_else(|| general(format!("no {name} column in the rows")))?;
                self.text_column(descr, column, false)
            }
            _ => Err(general(format!("the moves table has no column {name}"))),
        }
    }

    /// A text column of `values` (`self.numbers` holds each row's index in
    /// them).
    fn dictionary_column(
        &mut self,
        descr: &ColumnDescPtr,
        values: &[&str],
        rows: usize,
        statistics: Option<Statistics>,
    ) -> Result<ColumnCloseResult> {
        let mut dictionary = Vec::with_capacity(values.iter().map(|value| 4 + value.len()).sum());
        for value in values {
            plain_text(&mut dictionary, value.as_bytes())?;
        }
        let width = bit_width(values.len().saturating_sub(1) as u64).max(1);
        self.page.clear();
        self.page.push(width);
        hybrid(&mut self.page, width, &self.numbers);
        let chunk = ChunkMeta { rows, values: rows, encoding: Encoding::RLE_DICTIONARY, compress: false, statistics };
        self.write_chunk(descr, Some((dictionary, values.len())), chunk)
    }

    /// A column of whole numbers, `values` plus `offset`, delta-encoded,
    /// with their minimum and maximum. The minimum and maximum are found
    /// over `values` in their own type: folded as 64-bit numbers from the
    /// encoder's, they took a third of the encoding's own time.
    fn delta_column<T: DeltaValue>(
        &mut self,
        descr: &ColumnDescPtr,
        values: &[T],
        offset: u64,
    ) -> Result<ColumnCloseResult> {
        self.page.clear();
        delta_binary_packed(&mut self.page, values, offset);
        let statistics = min_max(values).map(|(min, max)| {
            let (min, max) = (min.unsigned() + offset, max.unsigned() + offset);
            if T::INT32 {
                Statistics::int32(Some(min as u32 as i32), Some(max as u32 as i32), None, Some(0), false)
            } else {
                Statistics::int64(Some(min as i64), Some(max as i64), None, Some(0), false)
            }
        });
        let len = values.len();
        let chunk =
            ChunkMeta { rows: len, values: len, encoding: Encoding::DELTA_BINARY_PACKED, compress: true, statistics };
        self.write_chunk(descr, None, chunk)
    }

    /// An optional column of numbers, `rows` rows of which those in
    /// `values` (in increasing order of row) hold a value and the others
    /// are null, each value written as `bytes` gives it; with its minimum
    /// and maximum (none when every value is null), made by `statistics`
    /// (`Statistics::double`, `Statistics::int32`).
    fn optional_column<T: Copy + PartialOrd, const N: usize>(
        &mut self,
        descr: &ColumnDescPtr,
        rows: usize,
        values: impl Iterator<Item = (usize, T)>,
        bytes: impl Fn(T) -> [u8; N],
        statistics: StatisticsOf<T>,
    ) -> Result<ColumnCloseResult> {
        // the definition levels: 0 for a null, 1 for a value
        self.numbers.clear();
        self.numbers.resize(rows, 0);
        let mut present = Vec::new();
        let mut range: Option<(T, T)> = None;
        for (row, value) in values {
            self.numbers[row] = 1;
            present.extend_from_slice(&bytes(value));
            range = Some(match range {
                Some((min, max)) => (if value < min { value } else { min }, if value > max { value } else { max }),
                None => (value, value),
            });
        }
        let nulls = (rows - present.len() / N) as u64;
        self.page.clear();
        levels(&mut self.page, &self.numbers)?;
        self.page.extend_from_slice(&present);
        let (min, max) = range.unzip();
        let statistics = Some(statistics(min, max, None, Some(nulls), false));
        let chunk = ChunkMeta { rows, values: rows, encoding: Encoding::PLAIN, compress: true, statistics };
        self.write_chunk(descr, None, chunk)
    }

    /// The `nags` column: a list of NAGs per row (repetition and definition
    /// levels, the NAGs as 32-bit numbers).
    fn nags_column(&mut self, descr: &ColumnDescPtr, rows: &MoveRows) -> Result<ColumnCloseResult> {
        // one level per NAG, and one for a row without
        let mut repetition = Vec::with_capacity(rows.len());
        self.numbers.clear();
        let mut values = Vec::with_capacity(rows.nag_values.len() * 4);
        // a row without NAGs counts as a null (as parquet's writer counts it)
        let mut empty = 0;
        for i in 0..rows.len() {
            let nags = rows.nags(i);
            if nags.is_empty() {
                empty += 1;
                repetition.push(0);
                self.numbers.push(0);
            }
            for (j, &nag) in nags.iter().enumerate() {
                repetition.push(u32::from(j > 0));
                self.numbers.push(1);
                values.extend_from_slice(&i32::from(nag).to_le_bytes());
            }
        }
        self.page.clear();
        levels(&mut self.page, &repetition)?;
        levels(&mut self.page, &self.numbers)?;
        self.page.extend_from_slice(&values);
        let (min, max) = (rows.nag_values.iter().min(), rows.nag_values.iter().max());
        let (min, max) = (min.map(|&nag| i32::from(nag)), max.map(|&nag| i32::from(nag)));
        let statistics = Some(Statistics::int32(min, max, None, Some(empty), false));
        let chunk = ChunkMeta {
            rows: rows.len(),
            values: repetition.len(),
            encoding: Encoding::PLAIN,
            compress: true,
            statistics,
        };
        self.write_chunk(descr, None, chunk)
    }

    /// A text column written as it is; with `empty_is_null`, an empty
    /// value null.
    fn text_column(
        &mut self,
        descr: &ColumnDescPtr,
        column: &TextColumn,
        empty_is_null: bool,
    ) -> Result<ColumnCloseResult> {
        self.page.clear();
        let rows = column.len();
        if empty_is_null {
            self.numbers.clear();
            self.numbers.extend(column.ranges().map(|range| u32::from(!range.is_empty())));
            levels(&mut self.page, &self.numbers)?;
        }
        self.page.reserve(column.text.len() + 4 * rows);
        for range in column.ranges() {
            if !(empty_is_null && range.is_empty()) {
                plain_text(&mut self.page, &column.text.as_bytes()[range])?;
            }
        }
        let chunk = ChunkMeta { rows, values: rows, encoding: Encoding::PLAIN, compress: true, statistics: None };
        self.write_chunk(descr, None, chunk)
    }

    /// Writes a column chunk: the dictionary page (its values `PLAIN`, and
    /// how many), then `self.page` as its one data page.
    fn write_chunk(
        &mut self,
        descr: &ColumnDescPtr,
        dictionary: Option<(Vec<u8>, usize)>,
        chunk: ChunkMeta,
    ) -> Result<ColumnCloseResult> {
        let start = self.out.bytes_written();
        let codec = if chunk.compress { self.compression } else { Compression::UNCOMPRESSED };
        let mut pages = SerializedPageWriter::new(&mut self.out);
        let (mut compressed_size, mut uncompressed_size) = (0, 0);
        let mut dictionary_offset = None;
        let mut encodings = vec![chunk.encoding];
        if let Some((values, count)) = dictionary {
            let size = values.len();
            let buf = compress(&mut self.compressor, &values, chunk.compress)?;
            let count = u32::try_from(count).map_err(|_| general("a dictionary of over 2^32 values".to_owned()))?;
            let page = Page::DictionaryPage { buf, num_values: count, encoding: Encoding::PLAIN, is_sorted: false };
            let spec = pages.write_page(CompressedPage::new(page, size))?;
            dictionary_offset = Some(spec.offset as i64);
            compressed_size += spec.compressed_size;
            uncompressed_size += spec.uncompressed_size;
            encodings.push(Encoding::PLAIN);
        }
        if descr.max_def_level() > 0 || descr.max_rep_level() > 0 {
            encodings.push(Encoding::RLE);
        }
        let size = self.page.len();
        let buf = compress(&mut self.compressor, &self.page, chunk.compress)?;
        let num_values = u32::try_from(chunk.values).map_err(|_| general("a page of over 2^32 values".to_owned()))?;
        let page = Page::DataPage {
            buf,
            num_values,
            encoding: chunk.encoding,
            def_level_encoding: Encoding::RLE,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        };
        let spec = pages.write_page(CompressedPage::new(page, size))?;
        compressed_size += spec.compressed_size;
        uncompressed_size += spec.uncompressed_size;
        let mut metadata = ColumnChunkMetaData::builder(descr.clone())
            .set_compression(codec)
            .set_encodings(encodings)
            .set_num_values(chunk.values as i64)
            .set_total_compressed_size(compressed_size as i64)
            .set_total_uncompressed_size(uncompressed_size as i64)
            .set_data_page_offset(spec.offset as i64)
            .set_dictionary_page_offset(dictionary_offset);
        if let Some(statistics) = chunk.statistics {
            metadata = metadata.set_statistics(statistics);
        }
        Ok(ColumnCloseResult {
            bytes_written: (self.out.bytes_written() - start) as u64,
            rows_written: chunk.rows as u64,
            metadata: metadata.build()?,
            bloom_filter: None,
            column_index: None,
            offset_index: None,
        })
    }
}

/// A constructor of [`Statistics`] of values of `T` (`Statistics::double`
/// ...): minimum, maximum, distinct values, nulls, whether deprecated.
type StatisticsOf<T> = fn(Option<T>, Option<T>, Option<u64>, Option<u64>, bool) -> Statistics;

fn general(message: String) -> ParquetError {
    ParquetError::General(message)
}

/// A page's bytes, compressed if `compress` (and there is a compressor).
fn compress(compressor: &mut Option<Compressor>, page: &[u8], compress: bool) -> Result<Bytes> {
    if i32::try_from(page.len()).is_err() {
        return Err(general("a column of a row group over 2 GiB".to_owned()));
    }
    match compressor {
        Some(compressor) if compress => Ok(Bytes::from(compressor.compress(page)?)),
        _ => Ok(Bytes::copy_from_slice(page)),
    }
}

/// Appends `value` in `PLAIN` encoding: its length (4 bytes), its bytes.
fn plain_text(out: &mut Vec<u8>, value: &[u8]) -> Result<()> {
    let len = u32::try_from(value.len()).map_err(|_| general("a value over 4 GiB".to_owned()))?;
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(value);
    Ok(())
}

/// Appends booleans in `PLAIN` encoding: a bit each, the first the lowest.
fn plain_booleans(out: &mut Vec<u8>, values: &[bool]) {
    for eight in values.chunks(8) {
        out.push(eight.iter().enumerate().fold(0, |byte, (i, &value)| byte | (u8::from(value) << i)));
    }
}

/// Appends levels of 0 or 1 as a version 1 data page holds them: their
/// length (4 bytes), then the levels in the hybrid encoding.
fn levels(out: &mut Vec<u8>, levels: &[u32]) -> Result<()> {
    let at = out.len();
    out.extend_from_slice(&[0; 4]);
    hybrid(out, 1, levels);
    let len = u32::try_from(out.len() - at - 4).map_err(|_| general("levels over 4 GiB".to_owned()))?;
    out[at..at + 4].copy_from_slice(&len.to_le_bytes());
    Ok(())
}

/// The bits that `value` needs.
fn bit_width(value: u64) -> u8 {
    (64 - value.leading_zeros()) as u8
}

/// Values of a bit-packed run at most: 63 groups of 8, a run's header in
/// one byte, as other writers make them.
const BIT_PACKED_RUN: usize = 63 * 8;

/// Appends `values`, each of `width` bits, in the RLE / bit-packing hybrid
/// encoding: a run of 8 or more equal values as one repeated value, the
/// others bit-packed in groups of 8 (the last group filled with zeros).
fn hybrid(out: &mut Vec<u8>, width: u8, values: &[u32]) {
    let mut literals = 0;
    let mut i = 0;
    while i < values.len() {
        let value = values[i];
        // a run shorter than 8 is among the literals: most values of an
        // index column are, so one look tells most of them apart
        if values.get(i + 7).is_some_and(|&last| last != value) {
            i += 1;
            continue;
        }
        let end = run_end(values, i);
        // the values before the run make whole groups: some of the run
        // may go with them
        let pending = i - literals;
        let borrowed = (8 - pending % 8) % 8;
        if end - i >= borrowed + 8 {
            bit_packed(out, width, &values[literals..i + borrowed]);
            varint(out, ((end - i - borrowed) as u64) << 1);
            let bytes = value.to_le_bytes();
            out.extend_from_slice(&bytes[..usize::from(width).div_ceil(8)]);
            literals = end;
        }
        i = end;
    }
    bit_packed(out, width, &values[literals..]);
}

/// The end of the run of equal values that starts at `start`.
fn run_end(values: &[u32], start: usize) -> usize {
    let value = values[start];
    let mut end = start + 1;
    // eight at a time (compared at once) while the run lasts: the runs
    // of levels of a column of few values are long
    while let Some(eight) = values.get(end..end + 8)
        && eight.iter().all(|&other| other == value)
    {
        end += 8;
    }
    while end < values.len() && values[end] == value {
        end += 1;
    }
    end
}

/// Appends `values` as bit-packed runs (a multiple of 8 values but at the
/// end of a page, whose last group is filled with zeros).
fn bit_packed(out: &mut Vec<u8>, width: u8, values: &[u32]) {
    for run in values.chunks(BIT_PACKED_RUN) {
        let groups = run.len().div_ceil(8);
        varint(out, ((groups as u64) << 1) | 1);
        pack(out, width, run);
    }
}

/// Appends `values` (at most 32 bits each) in groups of 8 values of
/// `width` bits, the first in the lowest bits (`width` bytes a group, the
/// last group filled with zeros).
fn pack(out: &mut Vec<u8>, width: u8, values: &[u32]) {
    // each width packed by code of its own, whose shifts are constants:
    // a third of the time of one loop for every width
    macro_rules! widths {
        ($($width:literal)*) => {
            match width {
                0 => {}
                $($width => pack_width::<$width>(out, values),)*
                _ => unreachable!("a width of more than 32 bits for values of 32 bits"),
            }
        };
    }
    widths!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
}

/// [`pack`] of `WIDTH` bits.
fn pack_width<const WIDTH: usize>(out: &mut Vec<u8>, values: &[u32]) {
    out.reserve(values.len().div_ceil(8) * WIDTH);
    let mut groups = values.chunks_exact(8);
    for group in groups.by_ref() {
        pack_group::<WIDTH>(out, group.try_into().expect("8 values"));
    }
    let rest = groups.remainder();
    if !rest.is_empty() {
        let mut group = [0; 8];
        group[..rest.len()].copy_from_slice(rest);
        pack_group::<WIDTH>(out, group);
    }
}

/// Appends a group of 8 values of `WIDTH` bits, the first in the lowest
/// bits: `WIDTH` bytes.
#[inline(always)]
fn pack_group<const WIDTH: usize>(out: &mut Vec<u8>, values: [u32; 8]) {
    // whole 32-bit words as soon as they are full, then what is left (a
    // whole number of bytes: the group is WIDTH bytes)
    let mut bytes = [0u8; 32];
    let (mut bits, mut held, mut at) = (0u64, 0, 0);
    for value in values {
        bits |= u64::from(value) << held;
        held += WIDTH;
        if held >= 32 {
            bytes[at..at + 4].copy_from_slice(&(bits as u32).to_le_bytes());
            (bits, held, at) = (bits >> 32, held - 32, at + 4);
        }
    }
    if held > 0 {
        bytes[at..at + 4].copy_from_slice(&(bits as u32).to_le_bytes());
    }
    out.extend_from_slice(&bytes[..WIDTH]);
}

/// Appends `value` as an unsigned LEB128 number.
fn varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Appends `value` zigzag-encoded, then as LEB128.
fn zigzag(out: &mut Vec<u8>, value: i64) {
    varint(out, ((value << 1) ^ (value >> 63)) as u64);
}

/// The least and the greatest of `values`, `None` when there are none.
fn min_max<T: Copy + Ord>(values: &[T]) -> Option<(T, T)> {
    values.iter().min().zip(values.iter().max()).map(|(&min, &max)| (min, max))
}

/// Values per block of the delta encoding, and per miniblock.
const BLOCK: usize = 128;
const MINIBLOCK: usize = 32;

/// Appends a miniblock of differences from `min`, each in `width` bits
/// (missing values at the end of the last block written as zeros).
fn pack_miniblock(out: &mut Vec<u8>, width: u8, deltas: &[i64], min: i64) {
    if width <= 32 {
        let mut values = [0u32; MINIBLOCK];
        for (value, delta) in values.iter_mut().zip(deltas) {
            // of `width` bits
            *value = delta.wrapping_sub(min) as u32;
        }
        return pack(out, width, &values);
    }
    let value = |k: usize| deltas.get(k).map_or(0, |&delta| delta.wrapping_sub(min) as u64);
    let mut bits: u128 = 0;
    let mut held = 0;
    for k in 0..MINIBLOCK {
        bits |= u128::from(value(k)) << held;
        held += u32::from(width);
        while held >= 8 {
            out.push(bits as u8);
            bits >>= 8;
            held -= 8;
        }
    }
}

/// A whole number of a column the delta encoding writes: `UINT_32` in
/// `INT32` (the bits, as Arrow's writer stores them), or `UINT_64` in
/// `INT64`.
trait DeltaValue: Copy + Ord {
    /// 32 bits: the differences are taken in 32-bit arithmetic.
    const INT32: bool;

    /// The value as the encoding takes it.
    fn signed(self) -> i64;

    /// The value.
    fn unsigned(self) -> u64;
}

impl DeltaValue for u32 {
    const INT32: bool = true;

    fn signed(self) -> i64 {
        i64::from(self as i32)
    }

    fn unsigned(self) -> u64 {
        u64::from(self)
    }
}

impl DeltaValue for u64 {
    const INT32: bool = false;

    fn signed(self) -> i64 {
        self as i64
    }

    fn unsigned(self) -> u64 {
        self
    }
}

/// Appends `values` plus `offset` in the `DELTA_BINARY_PACKED` encoding
/// (the offset changes the first value only; the differences are the
/// values').
fn delta_binary_packed<T: DeltaValue>(out: &mut Vec<u8>, values: &[T], offset: u64) {
    varint(out, BLOCK as u64);
    varint(out, (BLOCK / MINIBLOCK) as u64);
    varint(out, values.len() as u64);
    let Some((first, rest)) = values.split_first() else {
        zigzag(out, 0);
        return;
    };
    zigzag(out, first.signed().wrapping_add(offset as i64));
    let mut previous = first.signed();
    let mut deltas = [0i64; BLOCK];
    for block in rest.chunks(BLOCK) {
        for (delta, value) in deltas.iter_mut().zip(block) {
            let value = value.signed();
            *delta = if T::INT32 {
                i64::from((value as i32).wrapping_sub(previous as i32))
            } else {
                value.wrapping_sub(previous)
            };
            previous = value;
        }
        let deltas = &deltas[..block.len()];
        let min = deltas.iter().copied().min().unwrap_or(0);
        zigzag(out, min);
        let widths_at = out.len();
        out.extend_from_slice(&[0; BLOCK / MINIBLOCK]);
        for (m, miniblock) in deltas.chunks(MINIBLOCK).enumerate() {
            // a difference from the minimum, of at most 32 bits with INT32
            let width = bit_width(miniblock.iter().fold(0, |bits, &delta| bits | delta.wrapping_sub(min) as u64));
            out[widths_at + m] = width;
            pack_miniblock(out, width, miniblock, min);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use arrow_array::RecordBatch;
    use parquet::arrow::ArrowWriter;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use proptest::prelude::*;
    use sanfen::pgn::commands::Eval;
    use sanfen::pgn::rows::MoveRowOptions;
    use sanfen::pgn::table::{moves_batch, moves_schema};

    use clap::ValueEnum;

    use super::*;
    use crate::cli::export::parquet_properties;
    use sanfen::pgn::commands::Score;

    /// One row of the moves table, as the test makes it.
    #[derive(Clone, Debug)]
    struct Row {
        game: u64,
        ply: u32,
        number: u32,
        black: bool,
        san: String,
        uci: String,
        written: String,
        capture: bool,
        check: bool,
        clock: Option<Duration>,
        elapsed: Option<Duration>,
        eval: Option<Score>,
        nags: Vec<u8>,
        comment: String,
        fen: String,
        path: String,
    }

    fn push(column: &mut TextColumn, value: &str) {
        column.text.push_str(value);
        column.ends.push(column.text.len());
    }

    fn move_rows(rows: &[Row], options: MoveRowOptions) -> MoveRows {
        let mut out = MoveRows::new(options);
        for row in rows {
            out.game.push(row.game);
            out.ply.push(row.ply);
            out.number.push(row.number);
            out.side.push(if row.black { Color::Black } else { Color::White });
            out.san.push(&row.san);
            out.uci.push(&row.uci);
            push(&mut out.written, &row.written);
            out.capture.push(row.capture);
            out.check.push(row.check);
            out.clock.push(row.clock);
            out.elapsed.push(row.elapsed);
            out.eval.push(row.eval.map(|score| Eval { score, depth: None }));
            out.nag_values.extend_from_slice(&row.nags);
            out.nag_ends.push(out.nag_values.len());
            push(&mut out.comment, &row.comment);
            if let Some(fens) = &mut out.fen {
                push(fens, &row.fen);
            }
            if let Some(paths) = &mut out.path {
                push(paths, &row.path);
            }
        }
        out
    }

    /// `rows` written as a Parquet file of one row group, as `sanfen
    /// export --compression CODEC` writes it, the games numbered after
    /// `before`, and the file.
    fn written(rows: &MoveRows, options: MoveRowOptions, before: u64, codec: Codec) -> Bytes {
        let schema = moves_schema(options);
        let compression = codec.compression(None).unwrap();
        let writer = ArrowWriter::try_new(Vec::new(), schema, Some(parquet_properties(compression))).unwrap();
        let (mut file, _) = writer.into_serialized_writer().unwrap();
        let columns = file.schema_descr().columns().to_vec();
        let moves = encode_moves(rows, "games.pgn", &columns, compression).unwrap();
        let games = encode_games(&rows.game, before, &columns[1], compression).unwrap();
        write_row_group(&mut file, moves, games).unwrap();
        Bytes::from(file.into_inner().unwrap())
    }

    /// The table parquet's reader reads from `file`.
    fn read(file: Bytes) -> RecordBatch {
        let reader = ParquetRecordBatchReaderBuilder::try_new(file).unwrap().with_batch_size(1 << 20).build().unwrap();
        let batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
        assert_eq!(batches.len(), 1);
        batches.into_iter().next().unwrap()
    }

    /// Written with every codec and read back, `rows` are what the
    /// library's Arrow table of them holds, column by column.
    fn assert_round_trip(rows: &[Row], options: MoveRowOptions) {
        let rows = move_rows(rows, options);
        let schema = moves_schema(options);
        let expected = moves_batch(rows.clone(), "games.pgn", &schema).unwrap();
        for &codec in Codec::value_variants() {
            let got = read(written(&rows, options, 0, codec));
            assert_eq!(got.schema(), schema, "{codec:?}");
            for (i, field) in schema.fields().iter().enumerate() {
                assert_eq!(got.column(i), expected.column(i), "{codec:?}: {}", field.name());
            }
        }
    }

    fn row(i: usize) -> Row {
        Row {
            game: 1 + i as u64 / 80,
            ply: 1 + i as u32 % 80,
            number: 1 + (i as u32 % 80) / 2,
            black: i % 2 == 1,
            san: format!("N{}", i % 50),
            uci: format!("u{i}"),
            written: String::new(),
            capture: i.is_multiple_of(3),
            check: i.is_multiple_of(7),
            clock: None,
            elapsed: None,
            eval: None,
            nags: Vec::new(),
            comment: String::new(),
            fen: String::new(),
            path: String::new(),
        }
    }

    /// `values` bit-packed one bit at a time, in groups of 8 (the last
    /// filled with zeros), with no run header.
    fn bits_one_by_one(width: u8, values: &[u32]) -> Vec<u8> {
        let mut bits = Vec::new();
        for k in 0..values.len().div_ceil(8) * 8 {
            let value = values.get(k).copied().unwrap_or(0);
            bits.extend((0..width).map(|bit| (value >> bit) & 1 == 1));
        }
        bits.chunks(8).map(|byte| byte.iter().rev().fold(0, |acc, &bit| (acc << 1) | u8::from(bit))).collect()
    }

    #[test]
    fn bit_packing_matches_packing_bit_by_bit_at_every_width() {
        for width in 1..=32u8 {
            let max = u32::MAX >> (32 - width);
            // 21 values: two whole groups and a part, the largest among them
            let values: Vec<u32> =
                (0..21u32).map(|k| if k == 5 { max } else { k.wrapping_mul(2_654_435_761) & max }).collect();
            let mut out = Vec::new();
            bit_packed(&mut out, width, &values);
            // the header: 3 groups, bit-packed
            assert_eq!(out[0], 3 << 1 | 1, "width {width}");
            assert_eq!(out[1..], bits_one_by_one(width, &values)[..], "width {width}");
        }
    }

    #[test]
    fn hybrid_runs_start_at_whole_groups() {
        // a run alone: its length and value
        let mut out = Vec::new();
        hybrid(&mut out, 1, &[1; 10]);
        assert_eq!(out, [10 << 1, 1]);
        // 3 literals borrow 5 of the run of 14 to make a group; 9 remain a run
        let mut values = vec![0, 1, 0];
        values.extend([1; 14]);
        let mut out = Vec::new();
        hybrid(&mut out, 1, &values);
        assert_eq!(out, [1 << 1 | 1, 0b1111_1010, 9 << 1, 1]);
        // a run of 7, and one of 8 that the 7 borrow 1 of, stay literals
        let mut values = vec![2; 7];
        values.extend([3; 8]);
        let mut out = Vec::new();
        hybrid(&mut out, 2, &values);
        let mut literals = vec![2 << 1 | 1];
        literals.extend(bits_one_by_one(2, &values));
        assert_eq!(out, literals);
        // one more, and 8 of the run remain a run
        values.push(3);
        let mut out = Vec::new();
        hybrid(&mut out, 2, &values);
        assert_eq!(out, [1 << 1 | 1, 0b1010_1010, 0b1110_1010, 8 << 1, 3]);
    }

    #[test]
    fn long_runs_and_many_values_read_back() {
        let mut rows: Vec<Row> = (0..5000).map(row).collect();
        // runs of one value after values that do not make a whole group of
        // 8, and a run of 7
        for (i, row) in rows.iter_mut().enumerate() {
            if (1003..1100).contains(&i) || (2001..2008).contains(&i) {
                row.san = "O-O".to_owned();
            }
            if i >= 1000 {
                row.clock = Some(Duration::from_millis(i as u64 * 10));
            }
            if i % 1000 == 999 {
                row.eval = Some(Score::Mate(-3));
                row.nags = vec![1, 14];
                row.comment = "a long comment, the same each time".to_owned();
                row.written = "Ng1f3".to_owned();
            }
            if i.is_multiple_of(500) {
                row.eval = Some(Score::Centipawns(-25));
            }
        }
        // 5000 UCI texts: indices of 13 bits, literals of many runs
        assert_round_trip(&rows, MoveRowOptions::default());
        assert_round_trip(&rows, MoveRowOptions { fen: true, variations: true });
    }

    #[test]
    fn numbers_at_their_limits_read_back() {
        let mut rows: Vec<Row> = (0..300).map(row).collect();
        let limits = [0, 1, u64::from(u32::MAX), i64::MAX as u64, u64::MAX, 0, u64::MAX];
        for (row, &limit) in rows.iter_mut().zip(limits.iter().cycle()) {
            row.game = limit;
            row.ply = limit as u32;
            row.number = (limit >> 3) as u32;
            // beyond int32: null, as in the Arrow table
            row.eval = Some(Score::Centipawns(limit as i64));
        }
        assert_round_trip(&rows, MoveRowOptions::default());
        // one row, and every text empty or longer than a word
        let mut one = row(0);
        one.san = String::new();
        one.uci = "é".repeat(7);
        assert_round_trip(&[one], MoveRowOptions { fen: true, variations: true });
    }

    #[test]
    fn the_games_are_numbered_after_the_chunks_before() {
        let rows = move_rows(&(0..200).map(row).collect::<Vec<_>>(), MoveRowOptions::default());
        let file = written(&rows, MoveRowOptions::default(), 41, Codec::Snappy);
        let got = read(file.clone());
        let numbers = got.column(1).as_any().downcast_ref::<arrow_array::UInt64Array>().unwrap();
        let expected: Vec<u64> = rows.game.iter().map(|game| game + 41).collect();
        assert_eq!(numbers.values().to_vec(), expected);
        assert_eq!((expected[0], expected[199]), (42, 44));
        // the chunk's minimum and maximum, of the numbers as numbered
        let reader = parquet::file::reader::SerializedFileReader::new(file).unwrap();
        let group = parquet::file::reader::FileReader::metadata(&reader).row_group(0);
        let range = |i: usize| match group.column(i).statistics() {
            Some(Statistics::Int64(s)) => (*s.min_opt().unwrap(), *s.max_opt().unwrap()),
            Some(Statistics::Int32(s)) => (i64::from(*s.min_opt().unwrap()), i64::from(*s.max_opt().unwrap())),
            other => panic!("column {i}: {other:?}"),
        };
        // game, ply (1 to 80) and number (1 to 40)
        assert_eq!([range(1), range(2), range(3)], [(42, 44), (1, 80), (1, 40)]);
    }

    #[test]
    fn codecs_are_named_as_the_command_line_takes_them() {
        let names: Vec<&str> = Codec::value_variants().iter().map(|codec| codec.name()).collect();
        let taken: Vec<String> = Codec::value_variants()
            .iter()
            .map(|codec| codec.to_possible_value().unwrap().get_name().to_owned())
            .collect();
        assert_eq!(names, ["snappy", "zstd", "lz4", "gzip", "none"]);
        assert_eq!(names, taken);
    }

    #[test]
    fn each_column_chunk_names_its_codec_and_the_dictionary_indices_are_not_compressed() {
        let rows: Vec<Row> = (0..500).map(row).collect();
        let rows = move_rows(&rows, MoveRowOptions::default());
        let mut seen = Vec::new();
        for &codec in Codec::value_variants() {
            let reader =
                parquet::file::reader::SerializedFileReader::new(written(&rows, MoveRowOptions::default(), 0, codec))
                    .unwrap();
            let group = parquet::file::reader::FileReader::metadata(&reader).row_group(0);
            let mut compressed = Vec::new();
            for column in group.columns() {
                let name = column.column_path().string();
                match column.compression() {
                    Compression::UNCOMPRESSED => {}
                    other => {
                        assert_eq!(other, codec.compression(None).unwrap(), "{name}");
                        compressed.push(name);
                    }
                }
            }
            seen.push((codec, compressed.len(), group.compressed_size() < group.total_byte_size()));
            if codec == Codec::Snappy {
                let expected = [
                    "game",
                    "ply",
                    "number",
                    "written",
                    "is_capture",
                    "is_check",
                    "clock",
                    "elapsed",
                    "eval_cp",
                    "eval_mate",
                    "nags.list.item",
                    "comment",
                ];
                assert_eq!(compressed, expected);
            }
        }
        // every codec but none compresses the same columns, and makes them smaller
        assert_eq!(
            seen,
            [
                (Codec::Snappy, 12, true),
                (Codec::Zstd, 12, true),
                (Codec::Lz4, 12, true),
                (Codec::Gzip, 12, true),
                (Codec::None, 0, false)
            ]
        );
    }

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![Just(String::new()), "[a-h1-8xO=+#-]{1,7}", "\\PC{1,12}"]
    }

    fn any_row() -> impl Strategy<Value = Row> {
        let numbers = (prop_oneof![0..3u64, any::<u64>()], prop_oneof![0..3u32, any::<u32>()], 0..3u32, any::<bool>());
        let texts = (text(), prop_oneof![Just("e2e4".to_owned()), text()], prop_oneof![Just(String::new()), text()]);
        let flags = (any::<bool>(), 0..3u8);
        let time = || prop_oneof![Just(None), (0..10_000_000u64).prop_map(|ms| Some(Duration::from_millis(ms)))];
        let score = prop_oneof![
            Just(None),
            any::<i64>().prop_map(|cp| Some(Score::Centipawns(cp))),
            (-300..300i64).prop_map(|cp| Some(Score::Centipawns(cp))),
            any::<i32>().prop_map(|n| Some(Score::Mate(n))),
        ];
        let notes = (time(), time(), score, prop::collection::vec(any::<u8>(), 0..3), text(), text(), text());
        (numbers, texts, flags, notes).prop_map(
            |((game, ply, number, black), (san, uci, written), (capture, check), notes)| {
                let (clock, elapsed, eval, nags, comment, fen, path) = notes;
                Row {
                    game,
                    ply,
                    number,
                    black,
                    san,
                    uci,
                    written,
                    capture,
                    check: check == 0,
                    clock,
                    elapsed,
                    eval,
                    nags,
                    comment,
                    fen,
                    path,
                }
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn any_rows_read_back(rows in prop::collection::vec(any_row(), 1..300), fen in any::<bool>(), variations in any::<bool>()) {
            assert_round_trip(&rows, MoveRowOptions { fen, variations });
        }
    }
}
