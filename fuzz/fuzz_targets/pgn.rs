//! Fuzz target `pgn`: for any bytes,
//!
//! - the reader never panics, and every event's location lies in the input,
//!   with a line and column that agree with its offset (counted here
//!   independently);
//! - the events come in order: `begin_game`, tags, `end_tags` once, movetext,
//!   `end_game`; item locations strictly increase (the first item shares the
//!   game's start), errors point at or before where the reader stands, and
//!   `end_game` is after the game's last item and before the next game;
//! - tokens, comments and results are the input's bytes at their location;
//! - variations balance (`end_variation` never without its `begin_variation`)
//!   and never nest deeper than `Reader::MAX_DEPTH`;
//! - cutting the input into chunks (small targets) and reading each chunk
//!   gives exactly the events, locations included, of reading it whole,
//!   with the quick search for cut points and line by line.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sanfen::pgn::{Chunker, Location, RawText, Reader, ResultToken, Skip, SyntaxError, SyntaxErrorKind, Visitor};

fuzz_target!(|data: &[u8]| {
    // Skip variations (and sometimes all movetext) on some inputs, so the
    // skipping paths are checked too.
    let skip_variations = data.first().is_some_and(|b| b & 1 == 1);
    let skip_movetext = data.first().is_some_and(|b| b & 6 == 6);
    // where lines start, counted once: locations are checked by a binary
    // search (a count from the start for each event made long inputs slow)
    let newlines: Vec<usize> = data.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i).collect();
    let whole = {
        let mut checker = Checker::new(data, &newlines, skip_variations, skip_movetext);
        let mut reader = Reader::new(data);
        let mut games = Vec::new();
        while let Some(game) = reader.read_game(&mut checker) {
            games.push(game);
        }
        let end = reader.location();
        assert_eq!(end.offset, data.len() as u64);
        assert_eq!(end, checker.location(data.len()));
        games
    };
    for (target, line_by_line) in [1, 2 + data.len() % 61, 1000].into_iter().flat_map(|t| [(t, false), (t, true)]) {
        let chunker = Chunker::with_target(data, target);
        let mut chunker = if line_by_line { chunker.line_by_line() } else { chunker };
        let mut games = Vec::new();
        let mut buffer = Vec::new();
        let mut next = None;
        // events outside games at the end of a chunk (escape lines, comments
        // between games) come with the next chunk's first game, as they do
        // read whole
        let mut pending = Vec::new();
        while let Some(chunk) = chunker.next_chunk(buffer).expect("reading from memory") {
            let start = chunk.start.offset as usize;
            // column 1, or 4 after the stream's byte order mark (columns count bytes)
            assert_eq!(chunk.start.column, if start == 3 && chunk.start.line == 1 { 4 } else { 1 });
            assert!(next.is_none_or(|next| next == chunk.start), "chunks follow each other");
            let mut checker = Checker::new(data, &newlines, skip_variations, skip_movetext);
            checker.events = std::mem::take(&mut pending);
            assert_eq!(chunk.start, checker.location(start));
            assert_eq!(&data[start..start + chunk.data.len()], chunk.data.as_slice());
            let mut reader = Reader::with_start(&chunk.data, chunk.start);
            while let Some(game) = reader.read_game(&mut checker) {
                games.push(game);
            }
            next = Some(reader.location());
            pending = std::mem::take(&mut checker.events);
            buffer = chunk.data;
        }
        assert_eq!(games, whole, "chunks of at least {target} bytes");
        assert_eq!(chunker.bytes_read(), data.len() as u64);
    }
});

/// One visitor call, with its data.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Event {
    Begin(Location),
    Tag(Vec<u8>, Vec<u8>, Location),
    EndTags,
    Number(u32, bool, Vec<u8>, Location),
    San(Vec<u8>, Location),
    Nag(u8, Vec<u8>, Location),
    Comment(Vec<u8>, Location),
    BeginVariation(Location),
    EndVariation(Location),
    Result(ResultToken, Vec<u8>, Location),
    Error(SyntaxErrorKind, String, Location),
    AfterResult(Vec<u8>, Location),
    BetweenGames(Vec<u8>, Location),
    Escape(Vec<u8>, Location),
    TagComment(Vec<u8>, Location),
    Invisible(Vec<u8>, Location),
    EnPassantMark(Vec<u8>, Location),
    End(Location),
}

/// Checks the events of a reader over (part of) `input` against the whole
/// input, and records them.
struct Checker<'a> {
    input: &'a [u8],
    /// The offsets of the input's `\n`s.
    newlines: &'a [usize],
    skip_variations: bool,
    skip_movetext: bool,
    events: Vec<Event>,
    /// Where the game started.
    begin: Option<Location>,
    tags_ended: bool,
    /// The offset of the last item (strictly increasing).
    last_item: Option<u64>,
    /// Where the last game ended.
    last_end: u64,
    /// Variations begun and not ended (and not skipped).
    depth: usize,
}

impl<'a> Checker<'a> {
    fn new(input: &'a [u8], newlines: &'a [usize], skip_variations: bool, skip_movetext: bool) -> Checker<'a> {
        Checker {
            input,
            newlines,
            skip_variations,
            skip_movetext,
            events: Vec::new(),
            begin: None,
            tags_ended: false,
            last_item: None,
            last_end: 0,
            depth: 0,
        }
    }

    /// The location of `offset`, counted from the start of the input.
    fn location(&self, offset: usize) -> Location {
        // the newlines before `offset` (columns count every byte, a byte
        // order mark's included)
        let before = self.newlines.partition_point(|&newline| newline < offset);
        let line = 1 + before as u32;
        let line_start = before.checked_sub(1).map_or(0, |i| self.newlines[i] + 1);
        Location { line, column: (offset - line_start + 1) as u32, offset: offset as u64 }
    }

    /// Checks a location: in the input, consistent, and in this game.
    fn check(&self, at: Location) -> usize {
        let offset = at.offset as usize;
        assert!(offset <= self.input.len(), "{at:?}");
        assert_eq!(at, self.location(offset));
        let begin = self.begin.expect("an event in a game");
        assert!(at.offset >= begin.offset, "{at:?} before the game's start {begin:?}");
        offset
    }

    /// Checks an item (not an error): after the previous one, and its bytes
    /// are the input's at its location.
    fn item(&mut self, at: Location, bytes: &[u8]) {
        let offset = self.check(at);
        assert!(self.last_item.is_none_or(|last| last < at.offset), "{at:?} after {:?}", self.last_item);
        self.last_item = Some(at.offset);
        assert_eq!(&self.input[offset..offset + bytes.len()], bytes, "{at:?}");
    }

    fn movetext(&mut self, at: Location, bytes: &[u8]) {
        assert!(self.tags_ended, "movetext before end_tags");
        self.item(at, bytes);
    }

    /// Checks text outside any game: located, its bytes the input's, after
    /// the last game.
    fn outside(&mut self, at: Location, bytes: &[u8]) {
        assert!(self.begin.is_none(), "{at:?} outside a game");
        let offset = at.offset as usize;
        assert_eq!(at, self.location(offset));
        assert!(at.offset >= self.last_end, "{at:?} before the last game's end");
        assert_eq!(&self.input[offset..offset + bytes.len()], bytes, "{at:?}");
    }
}

impl Visitor for Checker<'_> {
    type Output = Vec<Event>;

    fn begin_game(&mut self, at: Location) {
        assert!(self.begin.is_none(), "begin_game twice");
        assert!(at.offset >= self.last_end, "a game starts before the last ended");
        self.begin = Some(at);
        self.tags_ended = false;
        self.last_item = None;
        self.depth = 0;
        self.check(at);
        self.events.push(Event::Begin(at));
    }

    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) {
        assert!(!self.tags_ended, "a tag after end_tags");
        self.item(at, b"[");
        assert!(!name.is_empty());
        let _ = value.decode();
        self.events.push(Event::Tag(name.to_vec(), value.as_bytes().to_vec(), at));
    }

    fn tag_comment(&mut self, text: &[u8], at: Location) {
        assert!(!self.tags_ended, "a tag comment after end_tags");
        // (after a tag, or a malformed one: never the game's first item)
        assert!(self.begin.is_some_and(|begin| at.offset > begin.offset), "a tag comment first in its game");
        self.item(at, text);
        // `;text` without its line end, or `{text}` closed on its line
        assert!(!text.contains(&b'\n'));
        match text.first() {
            Some(b';') => assert!(text.last() != Some(&b'\r')),
            Some(b'{') => assert!(text.iter().position(|&b| b == b'}') == Some(text.len() - 1)),
            _ => panic!("a tag comment that is no comment: {text:?}"),
        }
        self.events.push(Event::TagComment(text.to_vec(), at));
    }

    fn end_tags(&mut self) -> Skip {
        assert!(self.begin.is_some() && !self.tags_ended, "end_tags out of place");
        self.tags_ended = true;
        self.events.push(Event::EndTags);
        Skip(self.skip_movetext)
    }

    fn move_number(&mut self, number: u32, black: bool, token: &[u8], at: Location) {
        self.movetext(at, token);
        let digits = token.iter().take_while(|b| b.is_ascii_digit()).count();
        // (a number too large for a u32 is given as 0)
        let value = std::str::from_utf8(&token[..digits]).ok().map(|d| d.parse::<u32>().unwrap_or(0));
        assert_eq!(value, Some(number));
        assert_eq!(black, token.len() > digits + 1);
        self.events.push(Event::Number(number, black, token.to_vec(), at));
    }

    fn san(&mut self, token: &[u8], at: Location) {
        self.movetext(at, token);
        assert!(!token.is_empty());
        self.events.push(Event::San(token.to_vec(), at));
    }

    fn nag(&mut self, nag: u8, token: &[u8], at: Location) {
        self.movetext(at, token);
        self.events.push(Event::Nag(nag, token.to_vec(), at));
    }

    fn comment(&mut self, text: RawText<'_>, at: Location) {
        let offset = at.offset as usize;
        assert!(matches!(self.input.get(offset), Some(b'{' | b';')), "{at:?}");
        self.movetext(at, &[self.input[offset]]);
        assert_eq!(&self.input[offset + 1..offset + 1 + text.0.len()], text.0);
        let _ = text.decode();
        self.events.push(Event::Comment(text.0.to_vec(), at));
    }

    fn begin_variation(&mut self, at: Location) -> Skip {
        self.movetext(at, b"(");
        self.depth += 1;
        assert!(self.depth <= Reader::MAX_DEPTH);
        self.events.push(Event::BeginVariation(at));
        if self.skip_variations {
            self.depth -= 1;
        }
        Skip(self.skip_variations)
    }

    fn end_variation(&mut self, at: Location) {
        self.movetext(at, b")");
        assert!(self.depth > 0, "end_variation without begin_variation");
        self.depth -= 1;
        self.events.push(Event::EndVariation(at));
    }

    fn result(&mut self, result: ResultToken, token: &[u8], at: Location) {
        self.movetext(at, token);
        self.events.push(Event::Result(result, token.to_vec(), at));
    }

    fn after_result(&mut self, text: &[u8], at: Location) {
        self.movetext(at, text);
        assert!(matches!(text.first(), Some(b'{' | b';')));
        self.events.push(Event::AfterResult(text.to_vec(), at));
    }

    fn between_games(&mut self, text: &[u8], at: Location) {
        self.outside(at, text);
        assert!(matches!(text.first(), Some(b'{' | b';')));
        self.events.push(Event::BetweenGames(text.to_vec(), at));
    }

    fn escape(&mut self, line: &[u8], at: Location) {
        if self.begin.is_some() {
            self.item(at, line);
        } else {
            self.outside(at, line);
        }
        assert_eq!(line.first(), Some(&b'%'));
        self.events.push(Event::Escape(line.to_vec(), at));
    }

    fn invisible(&mut self, text: &[u8], at: Location) {
        if self.begin.is_some() {
            self.item(at, text);
        } else {
            self.outside(at, text);
        }
        assert!(matches!(text, b"\xc2\xa0" | b"\xa0" | b"\xe2\x80\x8b" | b"\xef\xbb\xbf"));
        self.events.push(Event::Invisible(text.to_vec(), at));
    }

    fn en_passant_mark(&mut self, token: &[u8], at: Location) {
        self.movetext(at, token);
        self.events.push(Event::EnPassantMark(token.to_vec(), at));
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        let offset = self.check(error.at);
        match error.kind {
            SyntaxErrorKind::Utf16 => assert_eq!(offset, 0),
            SyntaxErrorKind::UnclosedVariation => assert_eq!(self.input[offset], b'('),
            SyntaxErrorKind::BadTag => {
                assert!(!self.tags_ended);
                assert_eq!(self.input[offset], b'[');
            }
            SyntaxErrorKind::UnclosedComment => assert_eq!(self.input[offset], b'{'),
            SyntaxErrorKind::TooDeep => assert_eq!(self.input[offset], b'('),
            SyntaxErrorKind::UnmatchedCloseParen => assert_eq!(self.input[offset], b')'),
            SyntaxErrorKind::UnexpectedChar => {
                assert!(matches!(self.input[offset], b']' | b'"' | b'}' | 0..=0x1f | 0x7f))
            }
            SyntaxErrorKind::BadNag => {
                // `$` and digits, as in the input, past 255
                assert!(self.tags_ended);
                let found = error.found.as_bytes();
                assert!(found.len() > 1 && found[0] == b'$' && found[1..].iter().all(u8::is_ascii_digit));
                assert_eq!(&self.input[offset..offset + found.len()], found);
                assert!(found[1..].iter().fold(0u64, |n, &d| (n * 10 + u64::from(d - b'0')).min(256)) > 255);
            }
            // the list is non-exhaustive: a kind added to it needs its rule here
            kind => panic!("a syntax error this model has no rule for: {kind:?}"),
        }
        if error.kind != SyntaxErrorKind::UnclosedVariation {
            // Errors are reported where they are found, in order.
            assert!(self.last_item.is_none_or(|last| last <= error.at.offset), "{error:?}");
            self.last_item = Some(error.at.offset);
        }
        assert!(!error.found.is_empty() || error.kind == SyntaxErrorKind::Utf16);
        self.events.push(Event::Error(error.kind, error.found, error.at));
    }

    fn end_game(&mut self, at: Location) -> Vec<Event> {
        assert!(self.tags_ended, "end_game before end_tags");
        let begin = self.begin.expect("end_game without begin_game");
        self.check(at);
        self.begin = None;
        assert!(at.offset > begin.offset, "an empty game");
        assert!(self.last_item.is_none_or(|last| last < at.offset), "end_game {at:?} before an item");
        self.last_end = at.offset;
        self.events.push(Event::End(at));
        std::mem::take(&mut self.events)
    }
}
