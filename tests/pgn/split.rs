//! Cutting PGN at game boundaries (`pgn::split`): on every data file and on
//! generated inputs, the ranges of N parts read one after another give
//! exactly the events of the whole file, every boundary is a cut point of
//! the chunker, and the parts, one after another, are the input byte for
//! byte; exact offsets for small inputs.

use std::collections::BTreeSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Cursor;
use std::num::{NonZeroU64, NonZeroUsize};
use std::ops::Range;

use sanfen::pgn::split::{
    LOOK_BACK, PartSize, Parts, boundary_at_or_after, is_boundary, range_reader, ranges, start_locations,
};
use sanfen::pgn::{Chunker, Location, RawText, Reader, ResultToken, Skip, SyntaxError, Visitor};

use crate::common;

// ---- Events -------------------------------------------------------------------------

/// Every visitor call, in order (what comes between games too), as a hash
/// of all it says; and as text too when `detail` is asked, to show where two
/// readings differ (hashing is many times faster than formatting, and these
/// tests read every data file dozens of times).
#[derive(Default)]
struct Events {
    hashes: Vec<u64>,
    texts: Vec<String>,
    detail: bool,
    /// The games begun.
    games: usize,
}

impl Events {
    fn push(&mut self, key: impl Hash, describe: impl FnOnce() -> String) {
        let mut hasher = DefaultHasher::new();
        key.hash(&mut hasher);
        self.hashes.push(hasher.finish());
        if self.detail {
            self.texts.push(describe());
        }
    }
}

fn text(bytes: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(bytes))
}

fn at(l: Location) -> String {
    format!("{}:{}@{}", l.line, l.column, l.offset)
}

/// A location as a hash key.
fn key(l: Location) -> (u32, u32, u64) {
    (l.line, l.column, l.offset)
}

impl Visitor for Events {
    type Output = ();

    fn begin_game(&mut self, l: Location) {
        self.games += 1;
        self.push(("begin", key(l)), || format!("{} begin", at(l)));
    }
    fn tag(&mut self, name: &[u8], value: RawText<'_>, l: Location) {
        self.push(("tag", key(l), name, value.as_bytes()), || {
            format!("{} tag {} {}", at(l), text(name), text(value.as_bytes()))
        });
    }
    fn end_tags(&mut self) -> Skip {
        self.push("end_tags", || "end_tags".to_owned());
        Skip(false)
    }
    fn move_number(&mut self, number: u32, black: bool, token: &[u8], l: Location) {
        self.push(("number", key(l), number, black, token), || {
            format!("{} number {number} {black} {}", at(l), text(token))
        });
    }
    fn san(&mut self, token: &[u8], l: Location) {
        self.push(("san", key(l), token), || format!("{} san {}", at(l), text(token)));
    }
    fn nag(&mut self, nag: u8, token: &[u8], l: Location) {
        self.push(("nag", key(l), nag, token), || format!("{} nag {nag} {}", at(l), text(token)));
    }
    fn comment(&mut self, comment: RawText<'_>, l: Location) {
        self.push(("comment", key(l), comment.as_bytes()), || {
            format!("{} comment {}", at(l), text(comment.as_bytes()))
        });
    }
    fn begin_variation(&mut self, l: Location) -> Skip {
        self.push(("(", key(l)), || format!("{} (", at(l)));
        Skip(false)
    }
    fn end_variation(&mut self, l: Location) {
        self.push((")", key(l)), || format!("{} )", at(l)));
    }
    fn result(&mut self, result: ResultToken, token: &[u8], l: Location) {
        let described = format!("{} result {result:?} {}", at(l), text(token));
        self.push(("result", &described), || described.clone());
    }
    fn syntax_error(&mut self, error: SyntaxError) {
        let described = format!("{} error {:?} {:?}", at(error.at), error.kind, error.found);
        self.push(("error", &described), || described.clone());
    }
    fn after_result(&mut self, comment: &[u8], l: Location) {
        self.push(("after_result", key(l), comment), || format!("{} after_result {}", at(l), text(comment)));
    }
    fn between_games(&mut self, comment: &[u8], l: Location) {
        self.push(("between_games", key(l), comment), || format!("{} between_games {}", at(l), text(comment)));
    }
    fn escape(&mut self, line: &[u8], l: Location) {
        self.push(("escape", key(l), line), || format!("{} escape {}", at(l), text(line)));
    }
    fn tag_comment(&mut self, comment: &[u8], l: Location) {
        self.push(("tag comment", key(l), comment), || format!("{} tag comment {}", at(l), text(comment)));
    }
    fn invisible(&mut self, bytes: &[u8], l: Location) {
        self.push(("invisible", key(l), bytes), || format!("{} invisible {bytes:02x?}", at(l)));
    }
    fn en_passant_mark(&mut self, token: &[u8], l: Location) {
        self.push(("en_passant_mark", key(l), token), || format!("{} en_passant_mark {}", at(l), text(token)));
    }
    fn end_game(&mut self, l: Location) {
        self.push(("end", key(l)), || format!("{} end", at(l)));
    }
}

/// Every event of a reader, to its end.
fn events_into(mut reader: Reader<'_>, events: &mut Events) {
    while reader.read_game(events).is_some() {}
}

/// The events of `data` read whole (as text too with `detail`).
fn whole_events_as(data: &[u8], detail: bool) -> Events {
    let mut events = Events { detail, ..Events::default() };
    events_into(Reader::new(data), &mut events);
    events
}

fn whole_events(data: &[u8]) -> Events {
    whole_events_as(data, false)
}

/// The events of `data` read range by range, each from its start location.
fn range_events(name: &str, data: &[u8], ranges: &[Range<u64>], detail: bool) -> Events {
    let starts: Vec<u64> = ranges.iter().map(|range| range.start).collect();
    let locations = start_locations(&mut Cursor::new(data), &starts).expect("reading from memory");
    let mut events = Events { detail, ..Events::default() };
    for (range, start) in ranges.iter().zip(locations) {
        assert_eq!(start.offset, range.start, "{name}");
        events_into(range_reader(&data[range.start as usize..range.end as usize], start), &mut events);
    }
    events
}

/// Asserts the events of `data` read range by range are those of the
/// whole, saying where they first differ.
fn assert_read_alike(name: &str, data: &[u8], whole: &Events, ranges: &[Range<u64>]) {
    if range_events(name, data, ranges, false).hashes == whole.hashes {
        return;
    }
    // read both again as text, to say how they differ
    let (whole, by_ranges) = (whole_events_as(data, true).texts, range_events(name, data, ranges, true).texts);
    if let Some(i) = whole.iter().zip(&by_ranges).position(|(a, b)| a != b) {
        panic!("{name}: event {i} differs: whole {:?}, by ranges {:?} (ranges {ranges:?})", whole[i], by_ranges[i]);
    }
    assert_eq!(whole.len(), by_ranges.len(), "{name}: events (ranges {ranges:?})");
    panic!("{name}: the events differ in a hash only (ranges {ranges:?})");
}

/// Where the chunker cuts `data` when it follows every line with a target
/// of 1: every cut point (but 0).
fn chunker_cuts(data: &[u8]) -> BTreeSet<u64> {
    let mut chunker = Chunker::with_target(data, 1).line_by_line();
    let mut cuts = BTreeSet::new();
    let mut buffer = Vec::new();
    while let Some(chunk) = chunker.next_chunk(buffer).expect("reading from memory") {
        assert!(chunk.oversized.is_none());
        cuts.insert(chunk.start.offset);
        buffer = chunk.data;
    }
    cuts
}

/// The ranges of `n` parts, checked to cover `data` in order.
fn ranges_of(data: &[u8], n: usize) -> Vec<Range<u64>> {
    let ranges = ranges(&mut Cursor::new(data), NonZeroUsize::new(n).unwrap()).expect("reading from memory");
    assert_eq!(ranges.len(), n);
    assert_eq!(ranges[0].start, 0);
    assert_eq!(ranges[n - 1].end, data.len() as u64);
    for pair in ranges.windows(2) {
        assert_eq!(pair[0].end, pair[1].start);
        assert!(pair[0].start <= pair[0].end);
    }
    ranges
}

/// Every boundary of `data` ([`is_boundary`]), 0 included.
fn boundaries(data: &[u8]) -> Vec<u64> {
    (0..data.len().max(1)).filter(|&at| is_boundary(data, at)).map(|at| at as u64).collect()
}

/// What every input must satisfy: the boundaries are chunker cut points
/// (the BOM's end stands for 0), the windowed search finds them, and the
/// ranges of `counts` parts (and those cut at every boundary) read as the
/// whole.
fn assert_splits(name: &str, data: &[u8], counts: &[usize]) {
    let whole = whole_events(data);
    let cuts = chunker_cuts(data);
    let all = boundaries(data);
    for &boundary in &all[1..] {
        assert!(cuts.contains(&boundary), "{name}: boundary {boundary} is no cut point of the chunker");
    }
    let mut every: Vec<Range<u64>> = all.windows(2).map(|pair| pair[0]..pair[1]).collect();
    every.push(*all.last().unwrap()..data.len() as u64);
    assert_read_alike(name, data, &whole, &every);
    for &n in counts {
        let ranges = ranges_of(data, n);
        for range in &ranges {
            assert!(range.start == data.len() as u64 || all.binary_search(&range.start).is_ok(), "{name}: {range:?}");
        }
        assert_read_alike(&format!("{name} in {n}"), data, &whole, &ranges);
    }
}

// ---- Small inputs, exact offsets ----------------------------------------------------------

/// The boundaries of `pgn`, but 0.
fn inner_boundaries(pgn: &[u8]) -> Vec<u64> {
    let all = boundaries(pgn);
    assert_eq!(all[0], 0);
    all[1..].to_vec()
}

#[test]
fn a_tag_line_after_movetext_is_a_boundary_after_tags_it_is_not() {
    let pgn = b"[Event \"A\"]\n[Site \"?\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n[Site \"?\"]\n\n1. d4 *\n";
    assert_eq!(inner_boundaries(pgn), [38]);
    assert_eq!(&pgn[38..49], b"[Event \"B\"]");
    assert_splits("two games", pgn, &[1, 2, 3, 7]);
    assert_eq!(ranges_of(pgn, 2), [0..38, 38..70]);
    // offsets 17, 35 and 52: the boundary at 38, at 38 again, none
    assert_eq!(ranges_of(pgn, 4), [0..38, 38..38, 38..70, 70..70]);
}

#[test]
fn clock_commands_on_the_last_movetext_line() {
    // lichess: the movetext line holds `[`, which the chunker's quick search
    // cannot see past
    let pgn = b"[Event \"A\"]\n\n1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:02:58] } 1-0\n\n[Event \"B\"]\n\n1. d4 *\n";
    assert_eq!(inner_boundaries(pgn), [70]);
    assert_splits("clocks", pgn, &[2, 5]);
}

#[test]
fn comments_semicolons_and_escape_lines_before_a_tag_line() {
    let cases: [(&[u8], &[u64]); 20] = [
        // a comment left open: the tag line ends it and starts a game
        (b"1. e4 { open\n[Event \"B\"]\n1. d4 *\n", &[13]),
        // a `{ }` comment line among the tags, as a `;` one
        (b"[Event \"A\"]\n{note} {more}\n[Site \"b\"]\n*\n", &[]),
        // after movetext, between games
        (b"1. e4 *\n{note}\n[Event \"B\"]\n*\n", &[15]),
        // a token after the comment: movetext, whatever came before
        (b"{note} 1. e4\n[Event \"B\"]\n*\n", &[13]),
        // over two lines, the movetext's
        (b"[Event \"A\"]\n{two\nlines}\n[Site \"b\"]\n*\n", &[24]),
        // a tag line inside a comment whose `{` is on the line before
        (b"[Event \"A\"]\n{ note\n[Event \"B\"]\n*\n", &[19]),
        // `;` comments hide a `[`
        (b"1. e4 ; [Event \"x\"]\n[Event \"B\"]\n*\n", &[20]),
        // escape lines and blank lines are looked through
        (b"1. e4 *\n%x [y\n\n%z\n[Event \"B\"]\n*\n", &[18]),
        // an escape line between tags: the tag section goes on
        (b"[Event \"A\"]\n%x\n[Site \"b\"]\n*\n", &[]),
        // and so does a `;` comment line with a tag after it
        (b"[Event \"A\"]\n; note\n[Site \"b\"]\n*\n", &[]),
        (b"[Event \"A\"]\n\n; note\n[Event \"B\"]\n*\n", &[]),
        // after movetext, the comment is between games
        (b"1. e4 *\n; note\n[Event \"B\"]\n*\n", &[15]),
        // a stray `}` closes nothing: movetext
        (b"1. e4 }\n[Event \"B\"]\n*\n", &[8]),
        // `}` then a tag on the line: a tag section, maybe
        (b"1. e4 {a\n} [Event \"A\"]\n[Event \"B\"]\n*\n", &[]),
        // in a comment, `;` is text and `}` ends it: a tag section then
        (b"1. e4 {a\n; } [Site \"y\"]\n[Event \"B\"]\n*\n", &[]),
        // out of one (the file's start says so: the comment line is looked
        // through), the `;` hides the rest of the line: between games
        (b"1. e4 *\n; } [Site \"y\"]\n[Event \"B\"]\n*\n", &[23]),
        // (not knowing whether it is in one, no boundary)
        (b"{\n1. e4 *\n; } [Site \"y\"]\n[Event \"B\"]\n*\n", &[]),
        // CRLF
        (b"[Event \"A\"]\r\n\r\n1. e4 *\r\n\r\n[Event \"B\"]\r\n\r\n*\r\n", &[26]),
        // a byte order mark and blank lines at the start
        (b"\xef\xbb\xbf\n\n[Event \"A\"]\n[Site \"b\"]\n*\n", &[5]),
        // a tag line indented, and a malformed one, are no boundaries
        (b"1. e4 *\n [Event \"B\"]\n1. d4 *\n[Event \"C\n1. c4 *\n", &[]),
    ];
    for (pgn, expected) in cases {
        let name = String::from_utf8_lossy(pgn);
        assert_eq!(inner_boundaries(pgn), expected, "{name:?}");
        assert_splits(&name, pgn, &[2, 3, 9]);
    }
}

#[test]
fn games_of_tags_alone_have_no_boundary_between_them() {
    let pgn = b"[Event \"A\"]\n[Site \"a\"]\n\n[Event \"B\"]\n[Site \"b\"]\n\n[Event \"C\"]\n";
    // three games for the reader, one range
    assert_eq!(whole_events(pgn).games, 3);
    assert_eq!(inner_boundaries(pgn), [] as [u64; 0]);
    assert_eq!(ranges_of(pgn, 3), [0..60, 60..60, 60..60]);
    // after a game with movetext, the tags of the next one start a range
    let pgn = b"1. e4 *\n[Event \"B\"]\n\n[Event \"C\"]\n";
    assert_eq!(inner_boundaries(pgn), [8]);
}

#[test]
fn utf16_has_no_boundary_but_the_start() {
    let utf16: Vec<u8> =
        "[Event \"A\"]\n1. e4 *\n[Event \"B\"]\n1. d4 *\n".encode_utf16().flat_map(u16::to_le_bytes).collect();
    assert_eq!(inner_boundaries(&utf16), [] as [u64; 0]);
    let mut with_mark = b"\xff\xfe".to_vec();
    with_mark.extend(b"\n[Event \"A\"]\n1. e4 *\n[Event \"B\"]\n");
    assert_eq!(inner_boundaries(&with_mark), [] as [u64; 0]);
    assert_eq!(ranges_of(&with_mark, 2), [0..35, 35..35]);
    assert_splits("utf-16", &utf16, &[2, 5]);
}

#[test]
fn a_boundary_is_found_from_any_offset_before_it() {
    let pgn = b"[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n\n1. d4 d5 *\n";
    let found: Vec<u64> =
        (0..=pgn.len() as u64 + 2).map(|offset| boundary_at_or_after(&mut Cursor::new(pgn), offset).unwrap()).collect();
    let mut expected = vec![0];
    expected.extend([27; 27]);
    expected.extend([51; 26]);
    assert_eq!(found, expected);
}

#[test]
fn start_locations_count_lines_and_columns() {
    let pgn = b"\xef\xbb\xbfab\ncd\n\nef";
    let locations = start_locations(&mut Cursor::new(pgn), &[0, 3, 5, 6, 6, 9, 11]).unwrap();
    let shown: Vec<(u32, u32, u64)> = locations.iter().map(|l| (l.line, l.column, l.offset)).collect();
    assert_eq!(shown, [(1, 1, 0), (1, 4, 3), (1, 6, 5), (2, 1, 6), (2, 1, 6), (3, 1, 9), (4, 2, 11)]);
    let past = start_locations(&mut Cursor::new(pgn), &[13]).unwrap_err();
    assert_eq!(past.to_string(), "offset 13 is past the end of the file");
    let back = start_locations(&mut Cursor::new(pgn), &[5, 4]).unwrap_err();
    assert_eq!(back.to_string(), "offset 4 comes before the one before it");
}

// ---- Data files ---------------------------------------------------------------------------

#[test]
fn ranges_of_every_data_file_read_as_the_whole_file() {
    let files = common::pgn_files();
    assert!(files.len() > 100, "{} files", files.len());
    // the files of several games that have no boundary
    let unsplit = [
        // games of tags alone
        "scalachess/FWWRC.pgn",
        "scalachess/uzchesscup.pgn",
        // tags indented
        "chessops/leading-whitespace.pgn",
        // one line (`<br />` for line ends)
        "chess.js/0.pgn",
    ];
    for name in &files {
        let data = std::fs::read(common::pgn_root().join(name)).unwrap();
        let whole = whole_events(&data);
        let cuts = chunker_cuts(&data);
        for n in [1, 2, 3, 7, 64, 10_000] {
            let ranges = ranges_of(&data, n);
            for range in &ranges[1..] {
                let start = range.start;
                assert!([0, data.len() as u64].contains(&start) || cuts.contains(&start), "{name} in {n}: {start}");
                // the rule on the whole file says the same
                assert!(start == data.len() as u64 || is_boundary(&data, start as usize), "{name} in {n}: {start}");
            }
            if n == 64 {
                let games = whole.games;
                let split = ranges.iter().filter(|range| !range.is_empty()).count() > 1;
                assert_eq!(split, games > 1 && !unsplit.contains(&name.as_str()), "{name}: {games} games");
            }
            assert_read_alike(&format!("{name} in {n}"), &data, &whole, &ranges);
        }
    }
}

#[test]
fn parts_of_every_data_file_are_the_file() {
    for name in common::pgn_files() {
        let data = std::fs::read(common::pgn_root().join(&name)).unwrap();
        let whole = whole_events(&data);
        let cuts = chunker_cuts(&data);
        let len = data.len() as u64;
        let mut sizes: Vec<PartSize> = [1, 2, 3, 7, 64]
            .map(|count| PartSize::Count { count: NonZeroUsize::new(count).unwrap(), total: len })
            .to_vec();
        sizes.extend([1000, 100_000].map(|bytes| PartSize::Bytes(NonZeroU64::new(bytes).unwrap())));
        if data.len() < 200_000 {
            sizes.push(PartSize::Bytes(NonZeroU64::MIN));
        }
        for size in sizes {
            let parts = parts_of(&data, size);
            let label = format!("{name} ({size:?})");
            assert_eq!(parts.concat(), data, "{label}");
            let mut ranges = Vec::new();
            let mut start = 0;
            for (i, part) in parts.iter().enumerate() {
                assert!(!part.is_empty(), "{label}: part {i}");
                // text between games (a blank line, comments) is no part
                assert!(whole_events_as(part, false).games > 0, "{label}: part {i} holds no game");
                assert!(start == 0 || cuts.contains(&start), "{label}: part {i} at {start}");
                ranges.push(start..start + part.len() as u64);
                start += part.len() as u64;
                // each part is about its size, but for the last
                if let PartSize::Bytes(bytes) = size
                    && i + 1 < parts.len()
                {
                    assert!(part.len() as u64 >= bytes.get(), "{label}: part {i}");
                }
            }
            if let PartSize::Count { count, .. } = size {
                assert!(parts.len() <= count.get(), "{label}: {} parts", parts.len());
            }
            // each part read alone (from where it is in the file) gives
            // the games of its slice
            assert_read_alike(&label, &data, &whole, &ranges);
        }
    }
}

/// The parts of `data`, each whole.
fn parts_of(data: &[u8], size: PartSize) -> Vec<Vec<u8>> {
    let mut parts = Parts::new(data, size);
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut buffer = Vec::new();
    while let Some(piece) = parts.next_piece(buffer).expect("reading from memory") {
        assert!(!piece.data.is_empty());
        if piece.part == out.len() {
            out.push(Vec::new());
        }
        assert_eq!(piece.part + 1, out.len(), "pieces in order");
        out[piece.part].extend_from_slice(&piece.data);
        buffer = piece.data;
    }
    assert_eq!(parts.position(), data.len() as u64);
    out
}

#[test]
fn parts_of_a_count_end_at_the_first_cut_after_each_offset() {
    // five games of 19 bytes
    let pgn = b"[A \"1\"]\n1. e4 e5 *\n".repeat(5);
    assert_eq!(pgn.len(), 95);
    let count = |n: usize| PartSize::Count { count: NonZeroUsize::new(n).unwrap(), total: 95 };
    let lens = |size| parts_of(&pgn, size).iter().map(Vec::len).collect::<Vec<_>>();
    assert_eq!(lens(count(1)), [95]);
    // offset 47: the cut at 57
    assert_eq!(lens(count(2)), [57, 38]);
    // offsets 31 and 63
    assert_eq!(lens(count(3)), [38, 38, 19]);
    assert_eq!(lens(count(5)), [19; 5]);
    // fewer parts than asked when games are larger than a part would be:
    // offsets 10, 21, 31, 42, ...: the part from 19 ends at the cut after
    // 21, the one from 38 at the cut after 42
    assert_eq!(lens(count(9)), [19; 5]);
    assert_eq!(lens(PartSize::Bytes(NonZeroU64::new(30).unwrap())), [38, 38, 19]);
    // a stream longer than said: the last part takes the rest
    let longer = PartSize::Count { count: NonZeroUsize::new(2).unwrap(), total: 40 };
    assert_eq!(lens(longer), [38, 57]);
}

#[test]
fn text_before_between_or_after_games_is_no_part_of_its_own() {
    let lens = |pgn: &[u8], size| parts_of(pgn, size).iter().map(Vec::len).collect::<Vec<_>>();
    let count = |n: usize, total: usize| PartSize::Count { count: NonZeroUsize::new(n).unwrap(), total: total as u64 };
    // a blank line at the end: the last game's part
    let two = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n\n";
    assert_eq!(lens(two, count(4, two.len())), [22, 22]);
    // comments and escape lines before the first game, between and after
    // games: with the game after them, or, at the end, the one before
    let text = b"{before}\n[Event \"x\"]\n\n1. e4 *\n{between}\n%esc\n[Event \"y\"]\n\n1. d4 *\n{end}";
    assert_eq!(lens(text, count(10, text.len())), [45, 26]);
    assert_eq!(lens(text, PartSize::Bytes(NonZeroU64::MIN)), [45, 26]);
    // a blank line after a game the chunker cut after (a game over 4 KiB)
    let long = format!("[Event \"a\"]\n\n1. e4 {{{}}} *\n\n[Event \"b\"]\n\n1. d4 *\n", "x".repeat(5000));
    assert_eq!(lens(long.as_bytes(), PartSize::Bytes(NonZeroU64::MIN)), [5025, 21]);
    // text alone is one part
    assert_eq!(lens(b"{no game}\n\n", PartSize::Bytes(NonZeroU64::MIN)), [11]);
}

#[test]
fn a_byte_order_mark_stays_in_the_first_part() {
    let pgn = b"\xef\xbb\xbf[A \"1\"]\n1. e4 *\n[A \"2\"]\n1. d4 *\n";
    let parts = parts_of(pgn, PartSize::Bytes(NonZeroU64::MIN));
    assert_eq!(parts, [&pgn[..19], &pgn[19..]]);
}

#[test]
fn a_game_too_large_to_hold_stays_in_one_part() {
    let large = format!("[A \"2\"]\n1. e4 {{{}}} *\n", "x".repeat(Chunker::<&[u8]>::MAX_GAME + 1000));
    let pgn = format!("[A \"1\"]\n1. e4 *\n{large}[A \"3\"]\n1. d4 *\n");
    let parts = parts_of(pgn.as_bytes(), PartSize::Bytes(NonZeroU64::new(100).unwrap()));
    let lens: Vec<usize> = parts.iter().map(Vec::len).collect();
    // the first part ends at the first cut point 100 bytes from its start
    assert_eq!(lens, [16 + large.len(), 16]);
    // the large game's tag line is a boundary; the next is not, its line
    // before being longer than the rule looks back
    let data = pgn.as_bytes();
    assert_eq!(boundaries(data), [0, 16]);
    assert!(large.len() > LOOK_BACK);
    // with the comment on many short lines, it is
    let lines = format!("[A \"2\"]\n1. e4 {{{}}} *\n", "x\n".repeat(Chunker::<&[u8]>::MAX_GAME / 2));
    let pgn = format!("[A \"1\"]\n1. e4 *\n{lines}[A \"3\"]\n1. d4 *\n");
    assert_eq!(boundaries(pgn.as_bytes()), [0, 16, 16 + lines.len() as u64]);
    let parts = parts_of(pgn.as_bytes(), PartSize::Bytes(NonZeroU64::new(100).unwrap()));
    assert_eq!(parts.iter().map(Vec::len).collect::<Vec<_>>(), [16 + lines.len(), 16]);
}

// ---- Generated inputs ------------------------------------------------------------------

/// Lines, well and badly formed, that make hard cases for the rule:
/// comments over lines with tag lines in them, clock commands, `;`
/// comments, escape lines, games of tags alone, CRLF, a byte order mark,
/// blank runs, a stray `}`.
const LINES: [&str; 32] = [
    "[Event \"A\"]\n",
    "[Event \"A\"]\n",
    "[Site \"x\"]\n",
    "[Event \"B\"]\r\n",
    "[Event \"A\"] 1. e4 *\n",
    "[%clk 0:01:00]\n",
    "[bad\n",
    " [Event \"C\"]\n",
    "1. e4 e5\n",
    "1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:02:59] } 1-0\n",
    "2. Nf3 {open\n",
    "still in the comment\n",
    "} 2... Nc6\n",
    "}\n",
    "; } [Site \"y\"]\n",
    "a } [Site \"y\"]\n",
    "{ [Event \"in\"] }\n",
    "1. d4 ; [Event \"x\"] {\n",
    "%escape [Event \"y\"] {\n",
    "%\n",
    "\n",
    "\n\n\n",
    "\r\n",
    " \t\n",
    "\u{a0}\n",
    "*\n",
    "1-0\n",
    "1. c4 (1. d4\n",
    ") *\n",
    "$1 {x} *",
    "\u{feff}",
    "1/2-1/2 {after}\n",
];

#[test]
fn ranges_of_generated_inputs_read_as_the_whole() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

    let config = Config { cases: 5_000, failure_persistence: None, ..Config::default() };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[16; 32]);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let input = (any::<bool>(), proptest::collection::vec(proptest::sample::select(&LINES[..]), 0..30))
        .prop_map(|(bom, lines)| format!("{}{}", if bom { "\u{feff}" } else { "" }, lines.concat()));
    let with_boundaries = std::cell::Cell::new(0);
    runner
        .run(&input, |pgn| {
            let data = pgn.as_bytes();
            assert_splits(&pgn, data, &[1, 2, 3, 7, 64]);
            // the windowed search finds the first boundary from any offset
            let all = boundaries(data);
            for offset in 0..=data.len() {
                let expected = all.iter().copied().find(|&b| b >= offset as u64).unwrap_or(data.len() as u64);
                assert_eq!(boundary_at_or_after(&mut Cursor::new(data), offset as u64).unwrap(), expected, "{pgn:?}");
            }
            for size in [1, 7, 50] {
                let parts = parts_of(data, PartSize::Bytes(NonZeroU64::new(size).unwrap()));
                assert_eq!(parts.concat(), data);
            }
            with_boundaries.set(with_boundaries.get() + usize::from(all.len() > 1));
            Ok(())
        })
        .expect("ranges read like the whole input");
    // (most inputs have a boundary to test)
    assert!(with_boundaries.get() > 2_500, "{}", with_boundaries.get());
}
