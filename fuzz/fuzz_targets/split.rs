//! Fuzz target `split`: game boundaries (`sanfen::pgn::split`) for any input
//! (raw bytes, or, when the first byte is 0, a structured PGN rendered from
//! the rest: see `common/structured.rs`):
//!
//! - every boundary is a cut point of the `Chunker` (line by line), and the
//!   input read range by range, cut at every boundary, gives exactly the
//!   events, locations included, of the input read whole;
//! - from a few offsets derived from the input, `boundary_at_or_after`
//!   finds the first boundary at or after it, and the ranges of a few
//!   counts of parts read as the whole;
//! - parts of a few sizes are the input byte for byte, each holding a game
//!   (when the input holds one).

#![no_main]

#[path = "common/structured.rs"]
mod structured;

use std::io::Cursor;
use std::num::{NonZeroU64, NonZeroUsize};
use std::ops::Range;

use libfuzzer_sys::fuzz_target;
use sanfen::pgn::split::{PartSize, Parts, boundary_at_or_after, is_boundary, range_reader, ranges, start_locations};
use sanfen::pgn::{Chunker, Location, RawText, Reader, ResultToken, Skip, SyntaxError, Visitor};

fuzz_target!(|data: &[u8]| {
    let input = structured::input(data);
    check(&input);
});

fn check(input: &[u8]) {
    let len = input.len() as u64;
    let whole = whole_events(input);
    let boundaries: Vec<u64> =
        (0..input.len().max(1)).filter(|&at| is_boundary(input, at)).map(|at| at as u64).collect();
    assert_eq!(boundaries.first(), Some(&0));
    // every boundary is a cut point of the chunker
    let mut chunker = Chunker::with_target(input, 1).line_by_line();
    let mut cuts = Vec::new();
    let mut oversized = false;
    let mut buffer = Vec::new();
    while let Some(chunk) = chunker.next_chunk(buffer).expect("reading from memory") {
        oversized |= chunk.oversized.is_some();
        cuts.push(chunk.start.offset);
        buffer = chunk.data;
    }
    if !oversized {
        for boundary in &boundaries[1..] {
            assert!(cuts.binary_search(boundary).is_ok(), "boundary {boundary} is no cut point");
        }
    }
    // read from every boundary on its own
    let mut every: Vec<Range<u64>> = boundaries.windows(2).map(|pair| pair[0]..pair[1]).collect();
    every.push(boundaries[boundaries.len() - 1]..len);
    assert!(range_events(input, &every) == whole, "cut at every boundary: other events");
    // from offsets taken from the input
    let seed = input.iter().take(8).fold(7u64, |acc, &b| acc.wrapping_mul(31).wrapping_add(u64::from(b)));
    for offset in [seed % (len + 1), len / 2, len / 3, len.saturating_sub(1), len + 1] {
        let expected = boundaries.iter().copied().find(|&b| b >= offset).unwrap_or(len);
        let found = boundary_at_or_after(&mut Cursor::new(input), offset).expect("reading from memory");
        assert_eq!(found, expected, "from offset {offset}");
    }
    for n in [2, 3, 7, 1 + (seed % 40) as usize] {
        let ranges = ranges(&mut Cursor::new(input), NonZeroUsize::new(n).unwrap()).expect("reading from memory");
        assert_eq!(ranges.len(), n);
        assert_eq!((ranges[0].start, ranges[n - 1].end), (0, len));
        assert!(ranges.windows(2).all(|pair| pair[0].end == pair[1].start && pair[0].start <= pair[0].end));
        assert!(range_events(input, &ranges) == whole, "{n} ranges: other events");
    }
    // parts are the input, and each holds a game when the input does
    let has_games = whole.iter().any(|event| event.ends_with(" begin"));
    for size in [1, 1 + seed % 200, 4096] {
        let mut parts = Parts::new(input, PartSize::Bytes(NonZeroU64::new(size).unwrap()));
        let mut joined: Vec<Vec<u8>> = Vec::new();
        while let Some(piece) = parts.next_piece(Vec::new()).expect("reading from memory") {
            assert!(!piece.data.is_empty());
            assert!(piece.part == joined.len() || piece.part + 1 == joined.len());
            if piece.part == joined.len() {
                joined.push(Vec::new());
            }
            joined[piece.part].extend_from_slice(&piece.data);
        }
        assert!(joined.concat() == input, "parts of {size} bytes are not the input");
        for (i, part) in joined.iter().enumerate() {
            let games = whole_events(part).iter().filter(|event| event.ends_with(" begin")).count();
            assert!(games > 0 || !has_games, "part {i} of parts of {size} bytes holds no game");
        }
    }
}

/// Every event of `input` read whole.
fn whole_events(input: &[u8]) -> Vec<String> {
    let mut events = Events::default();
    let mut reader = Reader::new(input);
    while reader.read_game(&mut events).is_some() {}
    events.0
}

/// Every event of `input` read range by range, each from its start.
fn range_events(input: &[u8], ranges: &[Range<u64>]) -> Vec<String> {
    let starts: Vec<u64> = ranges.iter().map(|range| range.start).collect();
    let locations = start_locations(&mut Cursor::new(input), &starts).expect("reading from memory");
    let mut events = Events::default();
    for (range, start) in ranges.iter().zip(locations) {
        let mut reader = range_reader(&input[range.start as usize..range.end as usize], start);
        while reader.read_game(&mut events).is_some() {}
    }
    events.0
}

/// Every visitor call, as text.
#[derive(Default)]
struct Events(Vec<String>);

fn at(l: Location) -> String {
    format!("{}:{}@{}", l.line, l.column, l.offset)
}

impl Visitor for Events {
    type Output = ();

    fn begin_game(&mut self, l: Location) {
        self.0.push(format!("{} begin", at(l)));
    }
    fn tag(&mut self, name: &[u8], value: RawText<'_>, l: Location) {
        self.0.push(format!("{} tag {name:?} {:?}", at(l), value.as_bytes()));
    }
    fn end_tags(&mut self) -> Skip {
        self.0.push("end_tags".to_owned());
        Skip(false)
    }
    fn move_number(&mut self, number: u32, black: bool, token: &[u8], l: Location) {
        self.0.push(format!("{} number {number} {black} {token:?}", at(l)));
    }
    fn san(&mut self, token: &[u8], l: Location) {
        self.0.push(format!("{} san {token:?}", at(l)));
    }
    fn nag(&mut self, nag: u8, token: &[u8], l: Location) {
        self.0.push(format!("{} nag {nag} {token:?}", at(l)));
    }
    fn comment(&mut self, comment: RawText<'_>, l: Location) {
        self.0.push(format!("{} comment {:?}", at(l), comment.as_bytes()));
    }
    fn begin_variation(&mut self, l: Location) -> Skip {
        self.0.push(format!("{} (", at(l)));
        Skip(false)
    }
    fn end_variation(&mut self, l: Location) {
        self.0.push(format!("{} )", at(l)));
    }
    fn result(&mut self, result: ResultToken, token: &[u8], l: Location) {
        self.0.push(format!("{} result {result:?} {token:?}", at(l)));
    }
    fn syntax_error(&mut self, error: SyntaxError) {
        self.0.push(format!("{} error {:?} {:?}", at(error.at), error.kind, error.found));
    }
    fn after_result(&mut self, text: &[u8], l: Location) {
        self.0.push(format!("{} after_result {text:?}", at(l)));
    }
    fn between_games(&mut self, text: &[u8], l: Location) {
        self.0.push(format!("{} between_games {text:?}", at(l)));
    }
    fn escape(&mut self, line: &[u8], l: Location) {
        self.0.push(format!("{} escape {line:?}", at(l)));
    }
    fn tag_comment(&mut self, text: &[u8], l: Location) {
        self.0.push(format!("{} tag comment {text:?}", at(l)));
    }
    fn invisible(&mut self, bytes: &[u8], l: Location) {
        self.0.push(format!("{} invisible {bytes:?}", at(l)));
    }
    fn en_passant_mark(&mut self, token: &[u8], l: Location) {
        self.0.push(format!("{} en_passant_mark {token:?}", at(l)));
    }
    fn end_game(&mut self, l: Location) {
        self.0.push(format!("{} end", at(l)));
    }
}
