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
//! A chunk of the input (about a megabyte of PGN) is encoded on the thread
//! that read it, as one data page per column ([`encode_moves`]); a row
//! group ([`RowGroup`]) holds the pages of chunks one after another, and one
//! dictionary of the SAN (and one of the UCI) of all its chunks, which the
//! thread that writes makes. The encodings:
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

use core::ops::Range;

use std::collections::VecDeque;
use std::io::Read;

use bytes::{Buf, Bytes};
use parquet::basic::{Compression, Encoding, GzipLevel, SortOrder, ZstdLevel};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::data_type::ByteArray;
use parquet::errors::{ParquetError, Result};
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::reader::{ChunkReader, Length};
use parquet::file::statistics::Statistics;
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;
use rustc_hash::FxHashMap;
use sanfen::Color;
use sanfen::pgn::rows::{MoveRows, TextColumn};

use super::compressed::{no_levels, out_of_range};

/// How pages are compressed (`sanfen export --compression`): the codecs
/// parquet readers know, and bzip2 for a CSV or JSON Lines file.
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
    /// bzip2 (level 9, or `--compression-level` from 1 to 9): a CSV or JSON
    /// Lines file only (Parquet has no bzip2 pages).
    Bzip2,
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
            Codec::Bzip2 => "bzip2",
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
            (Codec::Bzip2, _) => {
                return Err(
                    "--compression bzip2 is for CSV and JSON Lines files: Parquet's pages take snappy, zstd, lz4, \
                            gzip or none"
                        .to_owned(),
                );
            }
            (_, Some(_)) => return Err(no_levels(name)),
            (Codec::Snappy, None) => Compression::SNAPPY,
            (Codec::Lz4, None) => Compression::LZ4_RAW,
            (Codec::None, None) => Compression::UNCOMPRESSED,
        })
    }
}

/// One chunk's moves, encoded on the thread that read them, to be written
/// in a row group with the chunks after it ([`RowGroup`]).
pub(super) struct ChunkPages {
    /// The data pages of the columns written as pages, one after another.
    bytes: Bytes,
    /// Each leaf column's part, in schema order.
    parts: Vec<Part>,
}

impl ChunkPages {
    /// The bytes held: pages, dictionaries and their indices.
    pub(super) fn size(&self) -> usize {
        let dictionaries = self.parts.iter().map(|part| match part {
            Part::Dictionary { values, indices } => values.text.len() + 4 * indices.len(),
            _ => 0,
        });
        self.bytes.len() + dictionaries.sum::<usize>()
    }
}

/// A chunk's part of one column.
enum Part {
    /// The game numbers, which only the chunks before can tell: the row
    /// group writes them.
    Game,
    /// A dictionary column whose values depend on the chunk (`san`,
    /// `uci`): the chunk's distinct values, and each row's place among
    /// them. The row group writes one dictionary of its chunks' values.
    Dictionary { values: TextColumn, indices: Vec<u32> },
    /// A data page in [`ChunkPages::bytes`]; with the dictionary its
    /// indices point into, the same in every chunk of a row group (`file`,
    /// `side`).
    Page { page: PagePart, dictionary: Option<TextColumn> },
}

/// A data page written by [`Writer::data_page`], and what a column chunk's
/// metadata counts of it.
struct PagePart {
    /// Its bytes, header included.
    range: Range<usize>,
    /// Its size uncompressed, header included.
    uncompressed: usize,
    rows: usize,
    /// Values with their nulls.
    values: usize,
    encoding: Encoding,
    /// Compressed as the writer's compression says (or not compressed).
    compress: bool,
    statistics: Option<Statistics>,
}

/// The moves table's pages of `rows`, the moves of games of the input
/// `file`, for the leaf columns `columns` (of the schema
/// [`sanfen::pgn::table::moves_schema`] gives); the dictionary columns'
/// values and the game numbers are left to the row group.
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
) -> Result<ChunkPages> {
    // a few bytes per move and its text, as compressed
    let text = [Some(&rows.comment), Some(&rows.written), rows.fen.as_ref(), rows.path.as_ref()];
    let text: usize = text.into_iter().flatten().map(|column| column.text.len()).sum();
    let mut writer = Writer::new(rows.len() * 4 + text / 2, compression)?;
    let mut parts = Vec::with_capacity(columns.len());
    for descr in columns {
        parts.push(writer.moves_part(rows, file, descr)?);
    }
    Ok(ChunkPages { bytes: Bytes::from(writer.out.into_inner()?), parts })
}

/// Bytes in pieces, read as one after another: a column chunk's pages
/// where the threads that encoded them wrote them (appended to the file
/// from there, not copied into one buffer first).
struct Pieces(Vec<Bytes>);

impl Length for Pieces {
    fn len(&self) -> u64 {
        self.0.iter().map(|piece| piece.len() as u64).sum()
    }
}

impl ChunkReader for Pieces {
    type T = PiecesRead;

    fn get_read(&self, start: u64) -> Result<PiecesRead> {
        let mut pieces: VecDeque<Bytes> = self.0.iter().cloned().collect();
        let mut skip = start;
        while let Some(piece) = pieces.front_mut() {
            if skip < piece.len() as u64 {
                piece.advance(skip as usize);
                break;
            }
            skip -= piece.len() as u64;
            pieces.pop_front();
        }
        Ok(PiecesRead(pieces))
    }

    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes> {
        let mut out = Vec::with_capacity(length);
        self.get_read(start)?.take(length as u64).read_to_end(&mut out)?;
        if out.len() < length {
            return Err(ParquetError::EOF(format!("{length} bytes from {start}: {} only", out.len())));
        }
        Ok(Bytes::from(out))
    }
}

/// [`Pieces`] read from an offset on.
struct PiecesRead(VecDeque<Bytes>);

impl Read for PiecesRead {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while let Some(piece) = self.0.front_mut() {
            if piece.is_empty() {
                self.0.pop_front();
                continue;
            }
            let n = piece.len().min(buf.len());
            buf[..n].copy_from_slice(&piece[..n]);
            piece.advance(n);
            return Ok(n);
        }
        Ok(0)
    }
}

/// The rows of chunks after one another ([`encode_moves`]), written as one
/// row group: a column chunk holds each chunk's data page in turn, and a
/// dictionary column one dictionary of the values of every chunk.
#[derive(Default)]
pub(super) struct RowGroup {
    chunks: Vec<ChunkPages>,
    /// The game of each row, numbered across its input.
    game: Vec<u64>,
}

impl RowGroup {
    /// The rows held.
    pub(super) fn rows(&self) -> usize {
        self.game.len()
    }

    /// The bytes held, about.
    pub(super) fn size(&self) -> usize {
        self.chunks.iter().map(ChunkPages::size).sum()
    }

    /// Adds the rows of `chunk`, whose games are `games` (each row's, from
    /// 1 in the chunk) after `before` games of their input.
    pub(super) fn push(&mut self, chunk: ChunkPages, games: &[u64], before: u64) {
        if games.is_empty() {
            return;
        }
        self.game.extend(games.iter().map(|game| game + before));
        self.chunks.push(chunk);
    }

    /// Writes the rows held as the next row group of `file`, whose leaf
    /// columns are `columns`, compressed as `compression` says (as their
    /// chunks were), and holds none after. No rows, no row group.
    ///
    /// # Errors
    ///
    /// The chunks are not of the file's columns, a column over 2 GiB, or the
    /// file cannot be written.
    pub(super) fn write<W: std::io::Write + Send>(
        &mut self,
        file: &mut SerializedFileWriter<W>,
        columns: &[ColumnDescPtr],
        compression: Compression,
    ) -> Result<()> {
        if self.chunks.is_empty() {
            return Ok(());
        }
        // the pages of the game, SAN and UCI columns, written here
        let mut writer = Writer::new(self.game.len() * 4, compression)?;
        // each column chunk, and the pieces of the others' (not copied here)
        let mut closes = Vec::with_capacity(columns.len());
        for (i, descr) in columns.iter().enumerate() {
            let parts = self.chunks.iter().map(|chunk| chunk.parts.get(i).map(|part| (&chunk.bytes, part)));
            let parts: Option<Vec<(&Bytes, &Part)>> = parts.collect();
            let parts = parts.ok_or_else(|| general("a chunk of other columns".to_owned()))?;
            closes.push(match parts[0].1 {
                Part::Game => {
                    let chunk = writer.delta_page(&self.game);
                    (writer.write_chunk(descr, chunk)?, None)
                }
                Part::Dictionary { .. } => {
                    let dictionaries = parts.iter().map(|(_, part)| match part {
                        Part::Dictionary { values, indices } => Ok((values, indices.as_slice())),
                        _ => Err(general("a chunk of other columns".to_owned())),
                    });
                    (writer.united_column(descr, dictionaries.collect::<Result<Vec<_>>>()?)?, None)
                }
                Part::Page { dictionary, .. } => {
                    let pages = parts.iter().map(|&(bytes, part)| match part {
                        Part::Page { page, dictionary: its } if its == dictionary => Ok((bytes, page)),
                        Part::Page { .. } => Err(general("chunks of other dictionaries in one row group".to_owned())),
                        _ => Err(general("a chunk of other columns".to_owned())),
                    });
                    let (close, pieces) =
                        pages_column(descr, dictionary.as_ref(), pages.collect::<Result<Vec<_>>>()?, compression)?;
                    (close, Some(pieces))
                }
            });
        }
        let bytes = Bytes::from(writer.out.into_inner()?);
        let mut group = file.next_row_group()?;
        for (close, pieces) in closes {
            match pieces {
                Some(pieces) => group.append_column(&pieces, close)?,
                None => group.append_column(&bytes, close)?,
            }
        }
        group.close()?;
        self.chunks.clear();
        self.game.clear();
        Ok(())
    }
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

    /// A chunk's part of the moves table's leaf column `descr`.
    fn moves_part(&mut self, rows: &MoveRows, file: &str, descr: &ColumnDescPtr) -> Result<Part> {
        let n = rows.len();
        let name = descr.path().parts()[0].as_str();
        let chunk = match name {
            "game" => return Ok(Part::Game),
            "file" => {
                self.numbers.clear();
                self.numbers.resize(n, 0);
                let statistics = (n > 0).then(|| {
                    let file = Some(ByteArray::from(file));
                    Statistics::byte_array(file.clone(), file, None, Some(0), false)
                });
                return self.coded_page(&[file], n, statistics);
            }
            "side" => {
                self.numbers.clear();
                self.numbers.extend(rows.side.iter().map(|&side| u32::from(side == Color::Black)));
                return self.coded_page(&["white", "black"], n, None);
            }
            "san" | "uci" => {
                let column = if name == "san" { &rows.san } else { &rows.uci };
                return Ok(Part::Dictionary { values: column.values.clone(), indices: column.index.clone() });
            }
            "ply" | "number" => self.delta_page(if name == "ply" { &rows.ply } else { &rows.number }),
            "is_capture" | "is_check" => {
                let values = if name == "is_capture" { &rows.capture } else { &rows.check };
                self.page.clear();
                plain_booleans(&mut self.page, values);
                let statistics = (n > 0).then(|| {
                    let (min, max) = (values.iter().all(|&value| value), values.iter().any(|&value| value));
                    Statistics::boolean(Some(min), Some(max), None, Some(0), false)
                });
                ChunkMeta { rows: n, values: n, encoding: Encoding::PLAIN, compress: true, statistics }
            }
            "clock" | "elapsed" => {
                let times = if name == "clock" { &rows.clock } else { &rows.elapsed };
                self.optional_page(n, times.seconds(), f64::to_le_bytes, Statistics::double)?
            }
            "eval_cp" => self.optional_page(n, rows.eval.centipawns(), i32::to_le_bytes, Statistics::int32)?,
            "eval_mate" => self.optional_page(n, rows.eval.mates(), i32::to_le_bytes, Statistics::int32)?,
            "nags" => self.nags_page(rows)?,
            "written" | "comment" => {
                self.text_page(if name == "written" { &rows.written } else { &rows.comment }, true)?
            }
            "fen" | "path" => {
                let column = if name == "fen" { rows.fen.as_ref() } else { rows.path.as_ref() };
                let column = column.ok_or_else(|| general(format!("no {name} column in the rows")))?;
                self.text_page(column, false)?
            }
            _ => return Err(general(format!("the moves table has no column {name}"))),
        };
        Ok(Part::Page { page: self.data_page(chunk)?, dictionary: None })
    }

    /// The page of a dictionary column whose values are those of every
    /// chunk, `values` (`self.numbers` holds each row's index in them).
    fn coded_page(&mut self, values: &[&str], rows: usize, statistics: Option<Statistics>) -> Result<Part> {
        self.indices_page(values.len());
        let chunk = ChunkMeta { rows, values: rows, encoding: Encoding::RLE_DICTIONARY, compress: false, statistics };
        Ok(Part::Page { page: self.data_page(chunk)?, dictionary: Some(text_column(values)) })
    }

    /// `self.numbers`, indices into a dictionary of `values` values, as a
    /// data page holds them: their width, then the hybrid encoding.
    fn indices_page(&mut self, values: usize) {
        let width = bit_width(values.saturating_sub(1) as u64).max(1);
        self.page.clear();
        self.page.push(width);
        hybrid(&mut self.page, width, &self.numbers);
    }

    /// The column chunk of a dictionary column (`san`, `uci`),
    /// `dictionaries` being its chunks' values and indices: one dictionary
    /// of their values, in the order they come, and one data page.
    fn united_column(
        &mut self,
        descr: &ColumnDescPtr,
        dictionaries: Vec<(&TextColumn, &[u32])>,
    ) -> Result<ColumnCloseResult> {
        let mut places: FxHashMap<&str, u32> = FxHashMap::default();
        let mut values: Vec<&str> = Vec::new();
        let mut place = Vec::new();
        self.numbers.clear();
        for (chunk_values, indices) in dictionaries {
            place.clear();
            for value in chunk_values.ranges().map(|range| &chunk_values.text[range]) {
                place.push(*places.entry(value).or_insert_with(|| {
                    values.push(value);
                    values.len() as u32 - 1
                }));
            }
            if indices.iter().any(|&i| i as usize >= place.len()) {
                return Err(general("an index past its dictionary".to_owned()));
            }
            // the first chunk's places are its own
            if place.iter().enumerate().all(|(i, &at)| i as u32 == at) {
                self.numbers.extend_from_slice(indices);
            } else {
                self.numbers.extend(indices.iter().map(|&i| place[i as usize]));
            }
        }
        let rows = self.numbers.len();
        self.indices_page(values.len());
        let mut column = Column::of(descr);
        dictionary_page(&mut self.out, &mut column, &values)?;
        let chunk =
            ChunkMeta { rows, values: rows, encoding: Encoding::RLE_DICTIONARY, compress: false, statistics: None };
        let page = self.data_page(chunk)?;
        column.add(&page)?;
        close(descr, column, self.compression)
    }

    /// A page of whole numbers, `values`, delta-encoded, with their
    /// minimum and maximum. The minimum and maximum are found
    /// over `values` in their own type: folded as 64-bit numbers from the
    /// encoder's, they took a third of the encoding's own time.
    fn delta_page<T: DeltaValue>(&mut self, values: &[T]) -> ChunkMeta {
        self.page.clear();
        delta_binary_packed(&mut self.page, values);
        let statistics = min_max(values).map(|(min, max)| {
            let (min, max) = (min.unsigned(), max.unsigned());
            if T::INT32 {
                Statistics::int32(Some(min as u32 as i32), Some(max as u32 as i32), None, Some(0), false)
            } else {
                Statistics::int64(Some(min as i64), Some(max as i64), None, Some(0), false)
            }
        });
        let len = values.len();
        ChunkMeta { rows: len, values: len, encoding: Encoding::DELTA_BINARY_PACKED, compress: true, statistics }
    }

    /// A page of optional numbers, `rows` rows of which those in `values`
    /// (in increasing order of row) hold a value and the others are null,
    /// each value written as `bytes` gives it; with its minimum and maximum
    /// (none when every value is null), made by `statistics`
    /// (`Statistics::double`, `Statistics::int32`).
    fn optional_page<T: Copy + PartialOrd, const N: usize>(
        &mut self,
        rows: usize,
        values: impl Iterator<Item = (usize, T)>,
        bytes: impl Fn(T) -> [u8; N],
        statistics: StatisticsOf<T>,
    ) -> Result<ChunkMeta> {
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
        Ok(ChunkMeta { rows, values: rows, encoding: Encoding::PLAIN, compress: true, statistics })
    }

    /// The `nags` page: a list of NAGs per row (repetition and definition
    /// levels, the NAGs as 32-bit numbers).
    fn nags_page(&mut self, rows: &MoveRows) -> Result<ChunkMeta> {
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
        let (rows, values) = (rows.len(), repetition.len());
        Ok(ChunkMeta { rows, values, encoding: Encoding::PLAIN, compress: true, statistics })
    }

    /// A page of a text column written as it is; with `empty_is_null`, an
    /// empty value null.
    fn text_page(&mut self, column: &TextColumn, empty_is_null: bool) -> Result<ChunkMeta> {
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
        Ok(ChunkMeta { rows, values: rows, encoding: Encoding::PLAIN, compress: true, statistics: None })
    }

    /// Writes `self.page` as a data page that `chunk` tells of.
    fn data_page(&mut self, chunk: ChunkMeta) -> Result<PagePart> {
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
        let spec = SerializedPageWriter::new(&mut self.out).write_page(CompressedPage::new(page, size))?;
        let start = spec.offset as usize;
        Ok(PagePart {
            range: start..start + spec.compressed_size,
            uncompressed: spec.uncompressed_size,
            rows: chunk.rows,
            values: chunk.values,
            encoding: chunk.encoding,
            compress: chunk.compress,
            statistics: chunk.statistics,
        })
    }

    /// Writes a column chunk of one data page, `self.page`.
    fn write_chunk(&mut self, descr: &ColumnDescPtr, chunk: ChunkMeta) -> Result<ColumnCloseResult> {
        let mut column = Column::of(descr);
        let page = self.data_page(chunk)?;
        column.add(&page)?;
        close(descr, column, self.compression)
    }
}

/// The column chunk of `pages`, each in its chunk's bytes, one after
/// another, after the page of their `dictionary` if they have one: one data
/// page each, their statistics merged; and its pieces, where their offsets
/// count from.
fn pages_column(
    descr: &ColumnDescPtr,
    dictionary: Option<&TextColumn>,
    pages: Vec<(&Bytes, &PagePart)>,
    compression: Compression,
) -> Result<(ColumnCloseResult, Pieces)> {
    let mut pieces = Vec::with_capacity(pages.len() + 1);
    let mut column = Column::of(descr);
    if let Some(dictionary) = dictionary {
        let values: Vec<&str> = dictionary.ranges().map(|range| &dictionary.text[range]).collect();
        let mut out = TrackedWrite::new(Vec::new());
        dictionary_page(&mut out, &mut column, &values)?;
        pieces.push(Bytes::from(out.into_inner()?));
    }
    let mut at = column.compressed;
    for (bytes, page) in pages {
        if page.range.end > bytes.len() {
            return Err(general("a page past its chunk".to_owned()));
        }
        pieces.push(bytes.slice(page.range.clone()));
        column.add(&PagePart { range: at..at + page.range.len(), statistics: page.statistics.clone(), ..*page })?;
        at += page.range.len();
    }
    Ok((close(descr, column, compression)?, Pieces(pieces)))
}

/// Writes the dictionary page of `column` to `out`: `values`, `PLAIN`, not
/// compressed (nor are the indices that point into it).
fn dictionary_page(out: &mut TrackedWrite<Vec<u8>>, column: &mut Column, values: &[&str]) -> Result<()> {
    let mut dictionary = Vec::with_capacity(values.iter().map(|value| 4 + value.len()).sum());
    for value in values {
        plain_text(&mut dictionary, value.as_bytes())?;
    }
    let size = dictionary.len();
    let count = u32::try_from(values.len()).map_err(|_| general("a dictionary of over 2^32 values".to_owned()))?;
    let page = Page::DictionaryPage {
        buf: Bytes::from(dictionary),
        num_values: count,
        encoding: Encoding::PLAIN,
        is_sorted: false,
    };
    let spec = SerializedPageWriter::new(out).write_page(CompressedPage::new(page, size))?;
    column.dictionary = Some(spec.offset);
    column.compressed += spec.compressed_size;
    column.uncompressed += spec.uncompressed_size;
    Ok(())
}

/// The metadata of the column chunk `column` of `descr`, its pages
/// compressed by `compression` (or not compressed).
fn close(descr: &ColumnDescPtr, column: Column, compression: Compression) -> Result<ColumnCloseResult> {
    let data = column.data.ok_or_else(|| general("a column chunk without a page".to_owned()))?;
    let codec = if column.compress { compression } else { Compression::UNCOMPRESSED };
    let mut encodings = vec![data.encoding];
    if column.dictionary.is_some() {
        encodings.push(Encoding::PLAIN);
    }
    if descr.max_def_level() > 0 || descr.max_rep_level() > 0 {
        encodings.push(Encoding::RLE);
    }
    let mut metadata = ColumnChunkMetaData::builder(descr.clone())
        .set_compression(codec)
        .set_encodings(encodings)
        .set_num_values(column.values as i64)
        .set_total_compressed_size(column.compressed as i64)
        .set_total_uncompressed_size(column.uncompressed as i64)
        .set_data_page_offset(data.offset as i64)
        .set_dictionary_page_offset(column.dictionary.map(|offset| offset as i64));
    if let Some(statistics) = column.statistics {
        metadata = metadata.set_statistics(statistics);
    }
    Ok(ColumnCloseResult {
        bytes_written: column.compressed as u64,
        rows_written: column.rows as u64,
        metadata: metadata.build()?,
        bloom_filter: None,
        column_index: None,
        offset_index: None,
    })
}

/// A column chunk's pages, as its metadata counts them.
struct Column {
    /// Its whole numbers are unsigned.
    unsigned: bool,
    /// Where its dictionary page is, if it has one.
    dictionary: Option<u64>,
    /// The first data page: where, and how encoded.
    data: Option<FirstPage>,
    compressed: usize,
    uncompressed: usize,
    rows: usize,
    values: usize,
    compress: bool,
    statistics: Option<Statistics>,
}

/// Where a column chunk's first data page is, and how it is encoded.
#[derive(Clone, Copy)]
struct FirstPage {
    offset: u64,
    encoding: Encoding,
}

impl Column {
    /// A column chunk of `descr`, no page yet.
    fn of(descr: &ColumnDescPtr) -> Column {
        Column {
            unsigned: descr.sort_order() == SortOrder::UNSIGNED,
            dictionary: None,
            data: None,
            compressed: 0,
            uncompressed: 0,
            rows: 0,
            values: 0,
            compress: false,
            statistics: None,
        }
    }

    /// Counts the data page `page`, written next.
    fn add(&mut self, page: &PagePart) -> Result<()> {
        match self.data {
            None => {
                self.data = Some(FirstPage { offset: page.range.start as u64, encoding: page.encoding });
                self.compress = page.compress;
                self.statistics = page.statistics.clone();
            }
            Some(first) => {
                if first.encoding != page.encoding || self.compress != page.compress {
                    return Err(general("pages of one column encoded otherwise".to_owned()));
                }
                // a column's pages all have statistics, or none has
                self.statistics = match (self.statistics.take(), &page.statistics) {
                    (Some(statistics), Some(more)) => Some(merged(&statistics, more, self.unsigned)?),
                    _ => None,
                };
            }
        }
        self.compressed += page.range.len();
        self.uncompressed += page.uncompressed;
        self.rows += page.rows;
        self.values += page.values;
        Ok(())
    }
}

/// The statistics of two pages of one column as one: the least minimum,
/// the greatest maximum, the nulls of both. Whole numbers compared as
/// `unsigned` says (a `uint32` is stored as an `INT32`).
fn merged(a: &Statistics, b: &Statistics, unsigned: bool) -> Result<Statistics> {
    /// The least (or with `greatest`, the greatest) of `a` and `b` by `key`.
    fn pick<T: Clone, K: PartialOrd>(a: Option<&T>, b: Option<&T>, key: impl Fn(&T) -> K, greatest: bool) -> Option<T> {
        match (a, b) {
            (Some(a), Some(b)) => {
                let better = if greatest { key(b) > key(a) } else { key(b) < key(a) };
                Some(if better { b } else { a }.clone())
            }
            (a, b) => a.or(b).cloned(),
        }
    }
    let nulls = a.null_count_opt().zip(b.null_count_opt()).map(|(a, b)| a + b);
    Ok(match (a, b) {
        (Statistics::Boolean(a), Statistics::Boolean(b)) => {
            let (min, max) =
                (pick(a.min_opt(), b.min_opt(), |&v| v, false), pick(a.max_opt(), b.max_opt(), |&v| v, true));
            Statistics::boolean(min, max, None, nulls, false)
        }
        (Statistics::Int32(a), Statistics::Int32(b)) => {
            let key = |&v: &i32| if unsigned { i64::from(v as u32) } else { i64::from(v) };
            let (min, max) = (pick(a.min_opt(), b.min_opt(), key, false), pick(a.max_opt(), b.max_opt(), key, true));
            Statistics::int32(min, max, None, nulls, false)
        }
        (Statistics::Int64(a), Statistics::Int64(b)) => {
            let key = |&v: &i64| if unsigned { i128::from(v as u64) } else { i128::from(v) };
            let (min, max) = (pick(a.min_opt(), b.min_opt(), key, false), pick(a.max_opt(), b.max_opt(), key, true));
            Statistics::int64(min, max, None, nulls, false)
        }
        (Statistics::Double(a), Statistics::Double(b)) => {
            let (min, max) =
                (pick(a.min_opt(), b.min_opt(), |&v| v, false), pick(a.max_opt(), b.max_opt(), |&v| v, true));
            Statistics::double(min, max, None, nulls, false)
        }
        (Statistics::ByteArray(a), Statistics::ByteArray(b)) => {
            let key = |v: &ByteArray| v.data().to_vec();
            let (min, max) = (pick(a.min_opt(), b.min_opt(), key, false), pick(a.max_opt(), b.max_opt(), key, true));
            Statistics::byte_array(min, max, None, nulls, false)
        }
        _ => return Err(general(format!("statistics of pages of one column of two types: {a:?}, {b:?}"))),
    })
}

/// A text column of `values`.
fn text_column(values: &[&str]) -> TextColumn {
    let mut column = TextColumn::default();
    for value in values {
        column.push(value);
    }
    column
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

/// Appends `values` in the `DELTA_BINARY_PACKED` encoding.
fn delta_binary_packed<T: DeltaValue>(out: &mut Vec<u8>, values: &[T]) {
    varint(out, BLOCK as u64);
    varint(out, (BLOCK / MINIBLOCK) as u64);
    varint(out, values.len() as u64);
    let Some((first, rest)) = values.split_first() else {
        zigzag(out, 0);
        return;
    };
    zigzag(out, first.signed());
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

    fn move_rows(rows: &[Row], options: MoveRowOptions) -> MoveRows {
        let mut out = MoveRows::new(options);
        for row in rows {
            out.game.push(row.game);
            out.ply.push(row.ply);
            out.number.push(row.number);
            out.side.push(if row.black { Color::Black } else { Color::White });
            out.san.push(&row.san);
            out.uci.push(&row.uci);
            out.written.push(&row.written);
            out.capture.push(row.capture);
            out.check.push(row.check);
            out.clock.push(row.clock);
            out.elapsed.push(row.elapsed);
            out.eval.push(row.eval.map(|score| Eval { score, depth: None }));
            out.nag_values.extend_from_slice(&row.nags);
            out.nag_ends.push(out.nag_values.len());
            out.comment.push(&row.comment);
            if let Some(fens) = &mut out.fen {
                fens.push(&row.fen);
            }
            if let Some(paths) = &mut out.path {
                paths.push(&row.path);
            }
        }
        out
    }

    /// `rows` written as a Parquet file of one row group, as `sanfen
    /// export --compression CODEC` writes it, the games numbered after
    /// `before`, and the file.
    /// The codecs of Parquet's pages (bzip2 compresses CSV and JSON Lines
    /// files only).
    fn page_codecs() -> impl Iterator<Item = Codec> {
        Codec::value_variants().iter().copied().filter(|codec| codec.compression(None).is_ok())
    }

    fn written(rows: &MoveRows, options: MoveRowOptions, before: u64, codec: Codec) -> Bytes {
        written_in_chunks(&[(rows, before, "games.pgn")], options, codec)
    }

    /// Chunks of rows written as one row group, each with the games before
    /// it and the name of its input, and the file.
    fn written_in_chunks(chunks: &[(&MoveRows, u64, &str)], options: MoveRowOptions, codec: Codec) -> Bytes {
        let schema = moves_schema(options);
        let compression = codec.compression(None).unwrap();
        let writer = ArrowWriter::try_new(Vec::new(), schema, Some(parquet_properties(compression))).unwrap();
        let (mut file, _) = writer.into_serialized_writer().unwrap();
        let columns = file.schema_descr().columns().to_vec();
        let mut group = RowGroup::default();
        for &(rows, before, name) in chunks {
            group.push(encode_moves(rows, name, &columns, compression).unwrap(), &rows.game, before);
        }
        assert_eq!(group.rows(), chunks.iter().map(|(rows, ..)| rows.len()).sum::<usize>());
        group.write(&mut file, &columns, compression).unwrap();
        assert_eq!((group.rows(), group.size()), (0, 0));
        Bytes::from(file.into_inner().unwrap())
    }

    /// Each column chunk's statistics in the first row group of `file`, and
    /// the number of row groups.
    fn statistics(file: Bytes) -> (Vec<Option<Statistics>>, usize) {
        let reader = parquet::file::reader::SerializedFileReader::new(file).unwrap();
        let metadata = parquet::file::reader::FileReader::metadata(&reader);
        let group = metadata.row_group(0);
        (group.columns().iter().map(|column| column.statistics().cloned()).collect(), metadata.num_row_groups())
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
        for codec in page_codecs() {
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
        assert_round_trip(&rows, MoveRowOptions { fen: true, variations: true, ..MoveRowOptions::default() });
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
        assert_round_trip(&[one], MoveRowOptions { fen: true, variations: true, ..MoveRowOptions::default() });
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
        assert_eq!(names, ["snappy", "zstd", "lz4", "gzip", "none", "bzip2"]);
        assert_eq!(page_codecs().map(Codec::name).collect::<Vec<_>>(), &names[..5]);
        assert_eq!(names, taken);
    }

    #[test]
    fn each_column_chunk_names_its_codec_and_the_dictionary_indices_are_not_compressed() {
        let rows: Vec<Row> = (0..500).map(row).collect();
        let rows = move_rows(&rows, MoveRowOptions::default());
        let mut seen = Vec::new();
        for codec in page_codecs() {
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

    #[test]
    fn a_row_group_holds_the_chunks_of_one_input() {
        let rows = move_rows(&(0..240).map(row).collect::<Vec<_>>(), MoveRowOptions::default());
        let compression = Codec::Snappy.compression(None).unwrap();
        let schema = moves_schema(MoveRowOptions::default());
        let writer = ArrowWriter::try_new(Vec::new(), schema, Some(parquet_properties(compression))).unwrap();
        let (mut file, _) = writer.into_serialized_writer().unwrap();
        let columns = file.schema_descr().columns().to_vec();
        let mut group = RowGroup::default();
        for name in ["a.pgn", "b.pgn"] {
            group.push(encode_moves(&rows, name, &columns, compression).unwrap(), &rows.game, 0);
        }
        let err = group.write(&mut file, &columns, compression).unwrap_err();
        assert_eq!(err.to_string(), "Parquet error: chunks of other dictionaries in one row group");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn rows_in_chunks_are_the_rows_in_one(
            rows in prop::collection::vec(any_row(), 1..300),
            cuts in prop::collection::vec(0..300usize, 0..5),
            fen in any::<bool>(),
            variations in any::<bool>(),
        ) {
            let options = MoveRowOptions { fen, variations, ..MoveRowOptions::default() };
            let mut cuts: Vec<usize> = cuts.into_iter().map(|cut| cut.min(rows.len())).collect();
            cuts.push(0);
            cuts.push(rows.len());
            cuts.sort_unstable();
            // some chunks empty when two cuts meet
            let chunks: Vec<MoveRows> = cuts.windows(2).map(|cut| move_rows(&rows[cut[0]..cut[1]], options)).collect();
            let chunks: Vec<(&MoveRows, u64, &str)> = chunks.iter().map(|rows| (rows, 0, "games.pgn")).collect();
            let whole = move_rows(&rows, options);
            for codec in [Codec::Snappy, Codec::None] {
                let (one, several) = (written(&whole, options, 0, codec), written_in_chunks(&chunks, options, codec));
                prop_assert_eq!(read(several.clone()), read(one.clone()));
                prop_assert_eq!(statistics(several), statistics(one));
            }
        }

        #[test]
        fn any_rows_read_back(rows in prop::collection::vec(any_row(), 1..300), fen in any::<bool>(), variations in any::<bool>()) {
            assert_round_trip(&rows, MoveRowOptions { fen, variations, ..MoveRowOptions::default() });
        }
    }
}
