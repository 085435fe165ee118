//! Fuzz target `fmt`: the formatter. For any input (raw bytes, or, when the
//! first byte is 0, a structured PGN rendered from the rest: see
//! `common/structured.rs`),
//!
//! - formatting never panics; `format_pgn` gives what the `Formatter` gives
//!   game by game, and so does formatting the chunks of the input (as
//!   `sanfen fmt` does);
//! - formatting is idempotent: formatting the output again gives the same bytes;
//! - formatting with moves read in another language's letters gives as many
//!   games;
//! - the moves written in another notation (long algebraic, UCI, figurines:
//!   one chosen by the input's length) read back as the same: formatting
//!   that output in SAN gives the output;
//! - nothing is lost or changed. The input and the output are both read with
//!   the reader and compared game by game (the same number of games):
//!   - a game written unchanged is its bytes from its first token to its
//!     last (a space before them when they start with `%` or look like
//!     UTF-16), a newline (and, for a game of tags alone, a blank line and a
//!     termination marker), and reads back alike;
//!   - a rewritten game has the tags the formatter's rules give (the Seven Tag
//!     Roster first, missing ones added, every value unchanged once
//!     unescaped), the same moves (as resolved against the position, with
//!     their annotations), null moves, comments (byte for byte, a `\r\n` in
//!     them being `\n`), NAGs, variations (same nesting) and result, and
//!     the comments among its tags (among them still);
//!   - the text between games and `%` escape lines inside games are kept
//!     (checks gated by [`CHECK_TEXT_OUTSIDE_GAMES`] and
//!     [`CHECK_ESCAPE_LINES_IN_GAMES`]).

#![no_main]

#[path = "common/structured.rs"]
mod structured;

use std::ops::Range;

use libfuzzer_sys::fuzz_target;
use sanfen::notation::Notation;
use sanfen::pgn::format::{FormatError, FormatErrorKind, FormattedGame, Formatter, append_game, format_pgn};
use sanfen::pgn::reader::result_of;
use sanfen::pgn::start::{Start, start_position};
use sanfen::pgn::{
    Chunker, Location, RawText, Reader, ResultToken, SEVEN_TAG_ROSTER, Skip, SyntaxError, SyntaxErrorKind, Visitor,
    looks_utf16,
};
use sanfen::resolve::resolve_text;
use sanfen::san::Letters;
use sanfen::san::{Annotation, San, SanOptions};
use sanfen::{Color, Move, Outcome, Position};

/// Whether the text between games (comments after a game's result, text
/// before the first game's tags, `%` escape lines and any other text the
/// reader finds outside games) must be in the output, word for word between
/// the same games. Off: the formatter drops it today (its documentation says
/// so); turn it on when it keeps that text.
const CHECK_TEXT_OUTSIDE_GAMES: bool = true;

/// Whether the `%` escape lines inside a rewritten game must be in the output
/// game, in the same order. Off: the formatter drops them today (its
/// documentation says so); turn it on when it keeps them.
const CHECK_ESCAPE_LINES_IN_GAMES: bool = true;

/// Whether an input that starts with a UTF-8 byte order mark is formatted
/// whole, as `format_pgn` does (`Reader::new` given the input, the
/// `Formatter` the input after the mark and the reader's location). On: this
/// once copied a game written unchanged 3 bytes off (seed
/// `format-pgn-bom-unchanged-game-shifted-3-bytes.pgn`). Off: such an input
/// is read from after the mark, as its chunks are, and `format_pgn` is not
/// compared for it; everything else is still checked.
const FORMAT_WHOLE_INPUT_WITH_BOM: bool = true;

fuzz_target!(|data: &[u8]| {
    let input = structured::input(data);
    check(&input);
});

fn check(input: &[u8]) {
    // format, reading the input's games at the same time
    let bom = input.starts_with(b"\xef\xbb\xbf");
    let whole = FORMAT_WHOLE_INPUT_WITH_BOM || !bom;
    let (mut reader, text) = if whole {
        (Reader::new(input), &input[if bom { 3 } else { 0 }..])
    } else {
        (Reader::with_start(&input[3..], Location { line: 1, column: 1, offset: 3 }), &input[3..])
    };
    let start = reader.location();
    let mut both = Both { formatter: Formatter::new(text, start), model: Model::new() };
    let mut out = Vec::new();
    let mut games = Vec::new();
    while let Some((game, model)) = reader.read_game(&mut both) {
        let first = out.is_empty();
        append_game(&mut out, &game.text, first);
        games.push((game, model));
    }
    // comments and escape lines after the last game
    let first = out.is_empty();
    append_game(&mut out, &both.formatter.take_outside(), first);
    if whole {
        assert_eq!(format_pgn(input).0, out, "format_pgn gives the games formatted one by one");
    }
    let small = 2 + input.len() % 61;
    for (target, line_by_line) in [(1, false), (1, true), (small, false)] {
        let by_chunks = chunked(input, target, line_by_line);
        assert!(
            by_chunks == out,
            "formatting chunks of at least {target} bytes (line by line: {line_by_line})\nwhole:  {:?}\nchunks: {:?}",
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&by_chunks)
        );
    }

    let notation = [Notation::Lan, Notation::Uci, Notation::Figurine][input.len() % 3];
    let mut reader = Reader::new(input);
    let mut formatter = Formatter::new(&input[if bom { 3 } else { 0 }..], reader.location()).with_notation(notation);
    let mut other = Vec::new();
    while let Some(game) = reader.read_game(&mut formatter) {
        let first = other.is_empty();
        append_game(&mut other, &game.text, first);
    }
    let first = other.is_empty();
    append_game(&mut other, &formatter.take_outside(), first);
    let back = format_pgn(&other).0;
    assert!(
        back == out,
        "{notation:?} read back as the same moves\nSAN:   {:?}\n{notation:?}: {:?}\nback:  {:?}",
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&other),
        String::from_utf8_lossy(&back)
    );

    // moves read in another language's letters (`fmt --letters`): as many
    // games, each rewritten or written unchanged
    let letters = Letters::ALL[1 + input.len() % (Letters::ALL.len() - 1)];
    let mut reader = Reader::new(input);
    let mut formatter = Formatter::new(&input[if bom { 3 } else { 0 }..], reader.location()).with_letters(letters);
    let mut local = 0;
    while reader.read_game(&mut formatter).is_some() {
        local += 1;
    }
    assert_eq!(local, games.len(), "formatting in {letters} letters gives as many games");

    let again = format_pgn(&out).0;
    assert!(
        again == out,
        "formatting is idempotent\nonce:  {:?}\ntwice: {:?}",
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&again)
    );

    let (read_back, out_gaps) = read(&out, Location { line: 1, column: 1, offset: 0 });
    assert_eq!(
        read_back.len(),
        games.len(),
        "the output has the input's games\noutput: {:?}",
        String::from_utf8_lossy(&out)
    );
    for (i, ((game, before), after)) in games.iter().zip(&read_back).enumerate() {
        match &game.error {
            None => compare_rewritten(before, after, i),
            Some(_) => compare_unchanged(input, game, before, after, i),
        }
        if CHECK_ESCAPE_LINES_IN_GAMES {
            let (kept, given) = (escape_lines(&out, after), escape_lines(input, before));
            assert!(
                kept == given,
                "game {}: the escape lines are kept: {:?} in {:?}",
                i + 1,
                lossy(&kept),
                lossy(&given)
            );
        }
    }
    if CHECK_TEXT_OUTSIDE_GAMES {
        let models: Vec<&GameModel> = games.iter().map(|(_, model)| model).collect();
        let in_gaps = gaps(input, start.offset, &models);
        for (i, (kept, given)) in out_gaps.iter().zip(&in_gaps).enumerate() {
            assert!(kept == given, "the text before game {} is kept: {:?} in {:?}", i + 1, lossy(kept), lossy(given));
        }
    }
}

/// The input formatted chunk by chunk, as `sanfen fmt` does.
fn chunked(input: &[u8], target: usize, line_by_line: bool) -> Vec<u8> {
    let chunker = Chunker::with_target(input, target);
    let mut chunker = if line_by_line { chunker.line_by_line() } else { chunker };
    let mut out = Vec::new();
    let mut first = true;
    let mut crlf = None;
    let mut buffer = Vec::new();
    while let Some(chunk) = chunker.next_chunk(buffer).expect("reading from memory") {
        let mut reader = Reader::with_start(&chunk.data, chunk.start);
        let formatter = Formatter::new(&chunk.data, chunk.start);
        // every chunk ends its lines as the first does
        let crlf = *crlf.get_or_insert(formatter.crlf());
        let mut formatter = formatter.with_crlf(crlf);
        while let Some(game) = reader.read_game(&mut formatter) {
            append_game(&mut out, &game.text, first);
            first &= game.text.is_empty();
        }
        let outside = formatter.take_outside();
        append_game(&mut out, &outside, first);
        first &= outside.is_empty();
        buffer = chunk.data;
    }
    out
}

/// The games of `input` as the model sees them, and the words of the text
/// between them.
fn read(input: &[u8], start: Location) -> (Vec<GameModel>, Vec<Vec<Vec<u8>>>) {
    let mut reader = Reader::with_start(input, start);
    let mut model = Model::new();
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut model) {
        games.push(game);
    }
    let gaps = gaps(input, start.offset, &games.iter().collect::<Vec<_>>());
    (games, gaps)
}

/// The words of the text before, between and after the games.
fn gaps(input: &[u8], start: u64, games: &[&GameModel]) -> Vec<Vec<Vec<u8>>> {
    let mut gaps = Vec::new();
    let mut from = start as usize;
    for game in games {
        gaps.push(words(&input[from..game.span.start]));
        from = game.span.end;
    }
    gaps.push(words(&input[from..]));
    gaps
}

/// Byte strings, readable.
fn lossy(texts: &[Vec<u8>]) -> Vec<String> {
    texts.iter().map(|text| String::from_utf8_lossy(text).into_owned()).collect()
}

/// The words of `text`, between whitespace as the reader knows it: ASCII
/// whitespace, vertical tab, and the invisible characters (no-break space,
/// `A0` alone, zero-width space, byte order mark).
fn words(text: &[u8]) -> Vec<Vec<u8>> {
    let mut words = Vec::new();
    let mut word = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let space = if rest[0].is_ascii_whitespace() || rest[0] == 0x0b || rest[0] == 0xa0 {
            1
        } else if rest.starts_with(b"\xc2\xa0") {
            2
        } else if rest.starts_with(b"\xe2\x80\x8b") || rest.starts_with(b"\xef\xbb\xbf") {
            3
        } else {
            0
        };
        if space == 0 {
            word.push(rest[0]);
            i += 1;
        } else {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            i += space;
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// The `%` escape lines of a game (lines that start with `%`, but in a
/// comment), without their line end.
fn escape_lines(input: &[u8], game: &GameModel) -> Vec<Vec<u8>> {
    let mut lines = Vec::new();
    let text = &input[game.span.clone()];
    let mut line_start = 0;
    while let Some(newline) = text[line_start..].iter().position(|&b| b == b'\n') {
        line_start += newline + 1;
        let offset = game.span.start + line_start;
        if text.get(line_start) == Some(&b'%') && !game.comments.iter().any(|c| c.contains(&offset)) {
            let end = text[line_start..].iter().position(|&b| b == b'\n').map(|i| line_start + i);
            let line = &text[line_start..end.unwrap_or(text.len())];
            // every `\r` right before a line end (or the end) goes with it
            // (as in `lf`)
            lines.push(trim_cr_end(line).to_vec());
        }
    }
    lines
}

/// `line` without the `\r`s at its end.
fn trim_cr_end(line: &[u8]) -> &[u8] {
    let end = line.iter().rposition(|&b| b != b'\r').map_or(0, |i| i + 1);
    &line[..end]
}

/// `text` with each `\r\n` as `\n`.
fn lf(text: &[u8]) -> Vec<u8> {
    // every `\r` right before a line end goes with it
    let mut out = Vec::with_capacity(text.len());
    let mut crs = 0;
    for &b in text {
        match b {
            b'\r' => crs += 1,
            b'\n' => {
                crs = 0;
                out.push(b);
            }
            _ => {
                out.extend(std::iter::repeat_n(b'\r', crs));
                crs = 0;
                out.push(b);
            }
        }
    }
    out.extend(std::iter::repeat_n(b'\r', crs));
    out
}

/// Where the no-break spaces (UTF-8, or the Latin-1 byte after an ASCII
/// one) and zero-width spaces that come right before `start` begin (`start`
/// when none does), which the reader takes for spaces. A game written
/// unchanged keeps them (not a byte order mark, which fmt drops: first in
/// the output, it would say the encoding).
fn with_invisible_before(input: &[u8], mut start: usize) -> usize {
    loop {
        let before = &input[..start];
        let latin1 = before.ends_with(b"\xa0") && (start == 1 || input[start - 2] < 0x80);
        let len = if before.ends_with(b"\xe2\x80\x8b") {
            3
        } else if before.ends_with(b"\xc2\xa0") {
            2
        } else {
            usize::from(latin1)
        };
        if len == 0 {
            return start;
        }
        start -= len;
    }
}

/// A game written unchanged: its bytes (but for its line ends, the
/// output's), with the invisible characters just before it, and it reads
/// back alike.
fn compare_unchanged(input: &[u8], game: &FormattedGame, before: &GameModel, after: &GameModel, i: usize) {
    let raw = &input[with_invisible_before(input, before.span.start)..before.span.end];
    if matches!(&game.error, Some(FormatError { kind: FormatErrorKind::Syntax(SyntaxErrorKind::Utf16, _), .. })) {
        // UTF-16 is written back byte for byte
        assert!(game.text == raw, "game {} (UTF-16) is written back byte for byte", i + 1);
        assert_eq!((&after.tags, &after.items), (&before.tags, &before.items), "game {}: reads back alike", i + 1);
        return;
    }
    let kept = raw.iter().rposition(|&b| b != b'\n' && b != b'\r').map_or(0, |last| last + 1);
    // a game that starts with a `%` (not an escape line: whitespace came
    // before it on its line) or looks like UTF-16 (whitespace came before
    // it in the input) gets a space before it, so that it starts no escape
    // line and does not make the output UTF-16
    let spaced = raw.first() == Some(&b'%') || looks_utf16(&raw[..kept]);
    let mut expected = if spaced { b" ".to_vec() } else { Vec::new() };
    expected.extend_from_slice(&lf(&raw[..kept]));
    expected.push(b'\n');
    let text = lf(&game.text);
    // the text between games before it (comments, escape lines) comes first,
    // a blank line after it
    let from = (0..=text.len().saturating_sub(expected.len()))
        .find(|&from| text[from..].starts_with(&expected) && (from == 0 || text[..from].ends_with(b"\n\n")));
    let rest = from.map(|from| &text[from + expected.len()..]).unwrap_or_else(|| {
        panic!(
            "game {} is written unchanged: {:?}\nbut is {:?}",
            i + 1,
            String::from_utf8_lossy(&expected),
            String::from_utf8_lossy(&game.text)
        )
    });
    let added = match rest {
        b"" => None,
        b"\n1-0\n" => Some(ResultToken::Outcome(Outcome::Decisive { winner: Color::White })),
        b"\n0-1\n" => Some(ResultToken::Outcome(Outcome::Decisive { winner: Color::Black })),
        b"\n1/2-1/2\n" => Some(ResultToken::Outcome(Outcome::Draw)),
        b"\n*\n" => Some(ResultToken::Unknown),
        _ => panic!("game {} written unchanged, then {:?}", i + 1, String::from_utf8_lossy(rest)),
    };
    assert_eq!(after.tags, before.tags, "game {}: the tags read back alike", i + 1);
    assert_eq!(after.tag_comments, before.tag_comments, "game {}: the comments among the tags", i + 1);
    assert_eq!(after.items, before.items, "game {}: the movetext reads back alike", i + 1);
    match added {
        None => assert_eq!(after.result, before.result, "game {}: the result", i + 1),
        Some(result) => {
            // (`;` comments alone may be read as the tags' when a tag follows)
            // (and the syntax errors of malformed tags before them)
            let comments_only = before.items.iter().all(|item| matches!(item, Item::Comment(_) | Item::Error));
            assert!(
                !before.has_movetext || comments_only,
                "game {}: a termination marker added to a game with movetext",
                i + 1
            );
            assert_eq!(after.result, Some(result), "game {}: the added result", i + 1);
        }
    }
}

/// A rewritten game: the formatter's tags, and the same moves, comments, NAGs,
/// variations and result.
fn compare_rewritten(before: &GameModel, after: &GameModel, i: usize) {
    let game = i + 1;
    assert!(
        before.items.iter().all(|item| !matches!(item, Item::Unplayable(_) | Item::Error)),
        "game {game} is rewritten, but holds a move that does not resolve or a syntax error: {:?}",
        before.items
    );
    // the result: the marker, or the (last) Result tag's value if it is one, or `*`
    let result = before.result.unwrap_or_else(|| {
        match before.tags.iter().rev().find(|(name, _)| name == b"Result").and_then(|(_, value)| result_of(value)) {
            Some(ResultToken::Outcome(outcome)) => ResultToken::Outcome(outcome),
            _ => ResultToken::Unknown,
        }
    });
    assert_eq!(after.result, Some(result), "game {game}: the result");
    // the tags: the roster in its order (missing ones with their unknown
    // value, Result with the marker), then the other tags in input order
    let marker: &[u8] = match result {
        ResultToken::Outcome(outcome) => outcome.as_str().as_bytes(),
        ResultToken::Unknown => b"*",
    };
    let mut tags = Vec::new();
    let mut roster = Vec::new();
    for (name, unknown) in SEVEN_TAG_ROSTER {
        let value = match before.tags.iter().position(|(n, _)| n == name.as_bytes()) {
            Some(index) => {
                roster.push(index);
                // a Result tag that spells a result unlike PGN (`0–1`) is written canonical
                match result_of(&before.tags[index].1) {
                    Some(ResultToken::Outcome(outcome)) if name == "Result" => outcome.as_str().as_bytes().to_vec(),
                    _ => before.tags[index].1.clone(),
                }
            }
            None if name == "Result" => marker.to_vec(),
            None => unknown.as_bytes().to_vec(),
        };
        tags.push((name.as_bytes().to_vec(), value));
    }
    tags.extend(
        before.tags.iter().enumerate().filter(|(index, _)| !roster.contains(index)).map(|(_, tag)| tag.clone()),
    );
    assert_eq!(after.tags, tags, "game {game}: the tags");
    // the comments among the tags stay among them (after the tag they came
    // after, which may be written elsewhere)
    let texts = |model: &GameModel| {
        let mut texts: Vec<Vec<u8>> = model.tag_comments.iter().map(|(_, text)| text.clone()).collect();
        texts.sort();
        texts
    };
    assert_eq!(texts(after), texts(before), "game {game}: the comments among the tags");
    assert_eq!(after.items, before.items, "game {game}: the movetext");
}

/// What a game holds, once read (locations left out).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct GameModel {
    /// From the game's first token to the end of its last.
    span: Range<usize>,
    /// Name, and value with its escapes undone.
    tags: Vec<(Vec<u8>, Vec<u8>)>,
    items: Vec<Item>,
    result: Option<ResultToken>,
    /// Whether anything came after the tags.
    has_movetext: bool,
    /// The comments' bytes, delimiters included.
    comments: Vec<Range<usize>>,
    /// The comments among the tags, as written, with the number of tags
    /// before each.
    tag_comments: Vec<(usize, Vec<u8>)>,
}

/// A movetext item (move numbers are left out: the formatter writes its own).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    /// A move, resolved, with the annotation written with it.
    Move(Move, Option<Annotation>),
    /// A null move.
    Null,
    /// A token that is no move here, or any move after it on its line (or
    /// in a game with no start position).
    Unplayable(Vec<u8>),
    Nag(u8),
    /// The comment's text, with each `\r\n` as `\n`.
    Comment(Vec<u8>),
    Open,
    Close,
    Error,
}

/// A line of play: the position reached (`None` once a move could not be
/// played) and the one before its last move.
#[derive(Clone, Debug)]
struct Frame {
    position: Option<Position>,
    before: Option<Position>,
}

/// Reads games into [`GameModel`]s, playing the moves from the start position
/// the tags give (from a reader at the start of its input).
struct Model {
    game: GameModel,
    lines: Vec<Frame>,
}

impl Model {
    fn new() -> Model {
        Model { game: GameModel::default(), lines: Vec::new() }
    }

    /// The index in the input (read from its start) of a location.
    fn index(&self, at: Location) -> usize {
        at.offset as usize
    }

    /// The value of the tag named `name`: of the last one, when given twice.
    fn tag_value(&self, name: &[u8]) -> Option<&[u8]> {
        self.game.tags.iter().rev().find(|(n, _)| n == name).map(|(_, value)| value.as_slice())
    }

    fn item(&mut self, item: Item) {
        self.game.has_movetext = true;
        self.game.items.push(item);
    }

    /// Plays a token on the current line; what it is.
    fn play(&mut self, token: &[u8]) -> Item {
        let Some(line) = self.lines.last_mut() else { return Item::Unplayable(token.to_vec()) };
        let Some(position) = &mut line.position else { return Item::Unplayable(token.to_vec()) };
        let before = position.clone();
        let item = match resolve_text(position, token, SanOptions::LENIENT) {
            Ok(resolved) => {
                let reading = resolved.parsed.readings[resolved.reading];
                match resolved.resolution.outcome {
                    Ok(m) => {
                        position.play_unchecked(m);
                        Item::Move(m, reading.annotation)
                    }
                    Err(_) if reading.san == San::Null && !position.is_check() => {
                        position.play_null();
                        Item::Null
                    }
                    Err(_) => Item::Unplayable(token.to_vec()),
                }
            }
            Err(_) => Item::Unplayable(token.to_vec()),
        };
        if matches!(item, Item::Unplayable(_)) {
            line.position = None;
        }
        line.before = Some(before);
        item
    }
}

impl Visitor for Model {
    type Output = GameModel;

    fn begin_game(&mut self, at: Location) {
        self.game = GameModel { span: self.index(at)..self.index(at), ..GameModel::default() };
        self.lines.clear();
    }

    fn tag(&mut self, name: &[u8], value: RawText<'_>, _at: Location) {
        self.game.tags.push((name.to_vec(), value.unescaped()));
    }

    fn tag_comment(&mut self, text: &[u8], _at: Location) {
        self.game.tag_comments.push((self.game.tags.len(), text.to_vec()));
    }

    fn end_tags(&mut self) -> Skip {
        let variant = self.tag_value(b"Variant").map(|value| sanfen::pgn::decode_text(value).into_owned());
        let fen = match self.tag_value(b"FEN").map(std::str::from_utf8) {
            None => Some(None),
            Some(Ok(fen)) => Some(Some(fen)),
            Some(Err(_)) => None,
        };
        let position = fen.and_then(|fen| match start_position(variant.as_deref(), fen) {
            Ok(Start::Play { position, .. }) => Some(*position),
            _ => None,
        });
        self.lines.push(Frame { position, before: None });
        Skip(false)
    }

    fn move_number(&mut self, _number: u32, _black: bool, _token: &[u8], _at: Location) {
        self.game.has_movetext = true;
    }

    fn san(&mut self, token: &[u8], _at: Location) {
        let item = self.play(token);
        self.item(item);
    }

    fn nag(&mut self, nag: u8, _token: &[u8], _at: Location) {
        self.item(Item::Nag(nag));
    }

    fn comment(&mut self, text: RawText<'_>, at: Location) {
        let start = self.index(at);
        self.game.comments.push(start..start + text.0.len() + 2);
        // line ends as the output writes them (see `lf`)
        self.item(Item::Comment(lf(text.0)));
    }

    fn begin_variation(&mut self, _at: Location) -> Skip {
        let frame = match self.lines.last() {
            Some(Frame { before: Some(before), .. }) => Frame { position: Some(before.clone()), before: None },
            _ => Frame { position: None, before: None },
        };
        self.lines.push(frame);
        self.item(Item::Open);
        Skip(false)
    }

    fn end_variation(&mut self, _at: Location) {
        if self.lines.len() > 1 {
            self.lines.pop();
        }
        self.item(Item::Close);
    }

    fn result(&mut self, result: ResultToken, _token: &[u8], _at: Location) {
        self.game.has_movetext = true;
        self.game.result = Some(result);
    }

    fn syntax_error(&mut self, _error: SyntaxError) {
        self.game.items.push(Item::Error);
    }

    fn end_game(&mut self, at: Location) -> GameModel {
        self.game.span.end = self.index(at);
        std::mem::take(&mut self.game)
    }
}

/// The formatter and the model, fed the same events.
struct Both<'a> {
    formatter: Formatter<'a>,
    model: Model,
}

impl Visitor for Both<'_> {
    type Output = (FormattedGame, GameModel);

    fn begin_game(&mut self, at: Location) {
        self.formatter.begin_game(at);
        self.model.begin_game(at);
    }

    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) {
        self.formatter.tag(name, value, at);
        self.model.tag(name, value, at);
    }

    fn tag_comment(&mut self, text: &[u8], at: Location) {
        self.formatter.tag_comment(text, at);
        self.model.tag_comment(text, at);
    }

    fn end_tags(&mut self) -> Skip {
        let skip = self.formatter.end_tags();
        assert_eq!(self.model.end_tags(), skip);
        skip
    }

    fn move_number(&mut self, number: u32, black: bool, token: &[u8], at: Location) {
        self.formatter.move_number(number, black, token, at);
        self.model.move_number(number, black, token, at);
    }

    fn san(&mut self, token: &[u8], at: Location) {
        self.formatter.san(token, at);
        self.model.san(token, at);
    }

    fn nag(&mut self, nag: u8, token: &[u8], at: Location) {
        self.formatter.nag(nag, token, at);
        self.model.nag(nag, token, at);
    }

    fn comment(&mut self, text: RawText<'_>, at: Location) {
        self.formatter.comment(text, at);
        self.model.comment(text, at);
    }

    fn begin_variation(&mut self, at: Location) -> Skip {
        let skip = self.formatter.begin_variation(at);
        assert_eq!(self.model.begin_variation(at), skip);
        skip
    }

    fn end_variation(&mut self, at: Location) {
        self.formatter.end_variation(at);
        self.model.end_variation(at);
    }

    fn result(&mut self, result: ResultToken, token: &[u8], at: Location) {
        self.formatter.result(result, token, at);
        self.model.result(result, token, at);
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        self.model.syntax_error(error.clone());
        self.formatter.syntax_error(error);
    }

    fn after_result(&mut self, text: &[u8], at: Location) {
        self.formatter.after_result(text, at);
        self.model.after_result(text, at);
    }

    fn between_games(&mut self, text: &[u8], at: Location) {
        self.formatter.between_games(text, at);
        self.model.between_games(text, at);
    }

    fn escape(&mut self, line: &[u8], at: Location) {
        self.formatter.escape(line, at);
        self.model.escape(line, at);
    }

    fn invisible(&mut self, text: &[u8], at: Location) {
        self.formatter.invisible(text, at);
        self.model.invisible(text, at);
    }

    fn en_passant_mark(&mut self, token: &[u8], at: Location) {
        self.formatter.en_passant_mark(token, at);
        self.model.en_passant_mark(token, at);
    }

    fn end_game(&mut self, at: Location) -> (FormattedGame, GameModel) {
        (self.formatter.end_game(at), self.model.end_game(at))
    }
}
