//! The PGN reader and the chunker: exact events for small inputs, game counts
//! for every data file, and chunked reading equal to whole reading on every
//! data file. Games as values (`pgn::read_games`): exact trees and comment
//! commands, round trips through `Game::to_pgn`, agreement with python-chess.

use std::io::Read;
use std::path::PathBuf;

use sanfen::pgn::{
    Chunk, Chunker, Location, RawText, Reader, ResultToken, Skip, SyntaxError, SyntaxErrorKind, Visitor,
};

// ---- Recording events ---------------------------------------------------------------

/// One visitor call, with what it was given (bytes as lossy UTF-8).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Event {
    Begin(Location),
    Tag(String, String, Location),
    EndTags,
    Number(u32, bool, String, Location),
    San(String, Location),
    Nag(u8, String, Location),
    Comment(String, Location),
    BeginVariation(Location),
    EndVariation(Location),
    Result(ResultToken, String, Location),
    Error(SyntaxErrorKind, String, Location),
    AfterResult(String, Location),
    BetweenGames(String, Location),
    Escape(String, Location),
    TagComment(String, Location),
    Invisible(String, Location),
    EnPassantMark(String, Location),
    End(Location),
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Records every call; skips what `skip_movetext` / `skip_variations` say.
#[derive(Default)]
struct Record {
    events: Vec<Event>,
    skip_movetext: bool,
    skip_variations: bool,
}

impl Visitor for Record {
    type Output = Vec<Event>;

    fn begin_game(&mut self, at: Location) {
        self.events.push(Event::Begin(at));
    }
    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) {
        self.events.push(Event::Tag(text(name), text(value.as_bytes()), at));
    }
    fn end_tags(&mut self) -> Skip {
        self.events.push(Event::EndTags);
        Skip(self.skip_movetext)
    }
    fn move_number(&mut self, number: u32, black: bool, token: &[u8], at: Location) {
        self.events.push(Event::Number(number, black, text(token), at));
    }
    fn san(&mut self, token: &[u8], at: Location) {
        self.events.push(Event::San(text(token), at));
    }
    fn nag(&mut self, nag: u8, token: &[u8], at: Location) {
        self.events.push(Event::Nag(nag, text(token), at));
    }
    fn comment(&mut self, comment: RawText<'_>, at: Location) {
        self.events.push(Event::Comment(text(comment.as_bytes()), at));
    }
    fn begin_variation(&mut self, at: Location) -> Skip {
        self.events.push(Event::BeginVariation(at));
        Skip(self.skip_variations)
    }
    fn end_variation(&mut self, at: Location) {
        self.events.push(Event::EndVariation(at));
    }
    fn result(&mut self, result: ResultToken, token: &[u8], at: Location) {
        self.events.push(Event::Result(result, text(token), at));
    }
    fn syntax_error(&mut self, error: SyntaxError) {
        self.events.push(Event::Error(error.kind, error.found, error.at));
    }
    fn after_result(&mut self, comment: &[u8], at: Location) {
        self.events.push(Event::AfterResult(text(comment), at));
    }
    fn between_games(&mut self, comment: &[u8], at: Location) {
        self.events.push(Event::BetweenGames(text(comment), at));
    }
    fn escape(&mut self, line: &[u8], at: Location) {
        self.events.push(Event::Escape(text(line), at));
    }
    fn tag_comment(&mut self, comment: &[u8], at: Location) {
        self.events.push(Event::TagComment(text(comment), at));
    }
    fn invisible(&mut self, bytes: &[u8], at: Location) {
        self.events.push(Event::Invisible(format!("{bytes:02x?}"), at));
    }
    fn en_passant_mark(&mut self, token: &[u8], at: Location) {
        self.events.push(Event::EnPassantMark(text(token), at));
    }
    fn end_game(&mut self, at: Location) -> Vec<Event> {
        self.events.push(Event::End(at));
        std::mem::take(&mut self.events)
    }
}

/// The games of `input`, each as its events.
fn games(input: &[u8]) -> Vec<Vec<Event>> {
    games_with(Reader::new(input), &mut Record::default())
}

fn games_with(mut reader: Reader<'_>, record: &mut Record) -> Vec<Vec<Event>> {
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(record) {
        games.push(game);
    }
    games
}

/// A compact line per event: `line:column kind details`.
fn show(event: &Event) -> String {
    let at = |l: &Location| format!("{}:{}", l.line, l.column);
    match event {
        Event::Begin(l) => format!("{} begin", at(l)),
        Event::Tag(name, value, l) => format!("{} tag {name} ⟨{value}⟩", at(l)),
        Event::EndTags => "end_tags".to_owned(),
        Event::Number(n, black, token, l) => {
            format!("{} number {n}{} ⟨{token}⟩", at(l), if *black { " black" } else { "" })
        }
        Event::San(token, l) => format!("{} san {token}", at(l)),
        Event::Nag(nag, token, l) => format!("{} nag {nag} ⟨{token}⟩", at(l)),
        Event::Comment(comment, l) => format!("{} comment ⟨{comment}⟩", at(l)),
        Event::BeginVariation(l) => format!("{} (", at(l)),
        Event::EndVariation(l) => format!("{} )", at(l)),
        Event::Result(result, token, l) => {
            let result = match result {
                ResultToken::Outcome(outcome) => outcome.to_string(),
                ResultToken::Unknown => "*".to_owned(),
            };
            format!("{} result {result} ⟨{token}⟩", at(l))
        }
        Event::Error(kind, found, l) => format!("{} error {kind:?} ⟨{found}⟩", at(l)),
        Event::AfterResult(comment, l) => format!("{} after_result ⟨{comment}⟩", at(l)),
        Event::BetweenGames(comment, l) => format!("{} between_games ⟨{comment}⟩", at(l)),
        Event::Escape(line, l) => format!("{} escape ⟨{line}⟩", at(l)),
        Event::TagComment(comment, l) => format!("{} tag comment ⟨{comment}⟩", at(l)),
        Event::Invisible(bytes, l) => format!("{} invisible {bytes}", at(l)),
        Event::EnPassantMark(token, l) => format!("{} en_passant_mark ⟨{token}⟩", at(l)),
        Event::End(l) => format!("{} end", at(l)),
    }
}

fn shown(input: &[u8]) -> Vec<Vec<String>> {
    games(input).iter().map(|game| game.iter().map(show).collect()).collect()
}

/// The events after the last game of `input` (text between games that no
/// game follows).
fn shown_after_games(input: &[u8]) -> Vec<String> {
    let mut record = Record::default();
    games_with(Reader::new(input), &mut record);
    record.events.iter().map(show).collect()
}

fn loc(line: u32, column: u32, offset: u64) -> Location {
    Location { line, column, offset }
}

// ---- Data files ---------------------------------------------------------------------

use crate::common;

fn data_dir() -> PathBuf {
    common::pgn_root()
}

fn read(name: &str) -> Vec<u8> {
    let path = data_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// Counts games and nothing else.
struct Count;

impl Visitor for Count {
    type Output = ();

    fn end_game(&mut self, _at: Location) {}
}

fn count(input: &[u8]) -> usize {
    let mut reader = Reader::new(input);
    let mut games = 0;
    while reader.read_game(&mut Count).is_some() {
        games += 1;
    }
    games
}

/// Hands out its bytes in small pieces of varying sizes, with an
/// `Interrupted` error now and then.
struct Trickle<'a> {
    data: &'a [u8],
    calls: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        self.calls += 1;
        if self.calls.is_multiple_of(5) {
            return Err(std::io::Error::from(std::io::ErrorKind::Interrupted));
        }
        let size = [1, 2, 3, 7, 64, 1000, 4096][self.calls % 7].min(out.len()).min(self.data.len());
        out[..size].copy_from_slice(&self.data[..size]);
        self.data = &self.data[size..];
        Ok(size)
    }
}

/// How a [`Chunker`] finds its cut points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cuts {
    /// The quick search first (as the chunker does by default).
    Quick,
    /// Every line followed ([`Chunker::line_by_line`]).
    EveryLine,
}

fn chunker<R: Read>(input: R, target: usize, cuts: Cuts) -> Chunker<R> {
    let chunker = Chunker::with_target(input, target);
    if cuts == Cuts::EveryLine { chunker.line_by_line() } else { chunker }
}

/// Reads `data` whole and in chunks (from `input`, cut with `target`), game by
/// game, and asserts the same events; the number of chunks and of games.
fn assert_chunks_read_alike(name: &str, data: &[u8], input: impl Read, target: usize, cuts: Cuts) -> (usize, usize) {
    let mut whole = Reader::new(data);
    let mut whole_record = Record::default();
    let mut chunk_record = Record::default();
    let mut chunker = chunker(input, target, cuts);
    let mut buffer = Vec::new();
    let (mut chunks, mut games) = (0, 0);
    // columns count bytes: a byte order mark's three included
    let mut next_start = if data.starts_with(b"\xef\xbb\xbf") { loc(1, 4, 3) } else { loc(1, 1, 0) };
    while let Some(chunk) = chunker.next_chunk(buffer).expect("reading from memory") {
        let Chunk { data: bytes, start, .. } = chunk;
        chunks += 1;
        assert_eq!(start, next_start, "{name}: chunk {chunks} (target {target}, {cuts:?})");
        assert!(!bytes.is_empty());
        let mut reader = Reader::with_start(&bytes, start);
        while let Some(game) = reader.read_game(&mut chunk_record) {
            games += 1;
            let expected = whole.read_game(&mut whole_record);
            assert_eq!(Some(game), expected, "{name}: game {games}, in chunk {chunks} (target {target}, {cuts:?})");
        }
        next_start = reader.location();
        assert_eq!(next_start.offset, start.offset + bytes.len() as u64);
        buffer = bytes;
    }
    assert_eq!(whole.read_game(&mut whole_record), None, "{name}: games left after the chunks (target {target})");
    assert_eq!(next_start, whole.location(), "{name}");
    assert_eq!(chunker.bytes_read(), data.len() as u64);
    (chunks, games)
}

/// A buffer given back is room to read into: what it held (here a
/// megabyte of `[`, more than a chunk) never shows in a chunk, and the
/// chunks are those of new buffers.
#[test]
fn buffers_given_back_hold_nothing_of_their_past() {
    let mut text = String::new();
    for n in 0..20_000 {
        text.push_str(&format!("[Event \"{n}\"]\n\n1. e4 {{ game {n} }} e5 2. Nf3 Nc6 *\n\n"));
    }
    let chunks = |give_back: &dyn Fn(Vec<u8>) -> Vec<u8>| {
        let mut chunker = Chunker::with_target(text.as_bytes(), 64 << 10);
        let (mut chunks, mut buffer) = (Vec::new(), Vec::new());
        while let Some(chunk) = chunker.next_chunk(give_back(buffer)).unwrap() {
            buffer = chunk.data.clone();
            chunks.push(chunk);
        }
        chunks
    };
    let fresh = chunks(&|_| Vec::new());
    assert!(fresh.len() > 10);
    assert_eq!(fresh.iter().map(|chunk| chunk.data.len()).sum::<usize>(), text.len());
    assert_eq!(chunks(&|buffer| buffer), fresh);
    assert_eq!(chunks(&|_| vec![b'['; 1 << 20]), fresh);
}

/// Reader and chunker speed with a visitor that does nothing (run with
/// `cargo test --release --test pgn_reader -- --ignored --nocapture`).
#[test]
#[ignore = "timing, not a check"]
fn throughput() {
    let mut names: Vec<String> = ["stockfish-books/8moves_v3.pgn", "stockfish-books/bjbraams_chessdb_198350_lines.pgn"]
        .map(str::to_owned)
        .into();
    names.extend(common::pgn_files().into_iter().filter(|name| name.starts_with("tcec/")));
    names.push("shakmaty-bench/twic1599_1000k.pgn".to_owned());
    names.push("shakmaty-bench/lichess_db_1000k.pgn".to_owned());
    let mut total = (0, std::time::Duration::ZERO, std::time::Duration::ZERO);
    for name in names {
        let data = read(&name);
        let rounds = (200_000_000 / data.len()).max(3);
        let started = std::time::Instant::now();
        for _ in 0..rounds {
            std::hint::black_box(count(std::hint::black_box(&data)));
        }
        let reading = started.elapsed() / rounds as u32;
        let started = std::time::Instant::now();
        for _ in 0..rounds {
            let mut chunker = Chunker::new(std::hint::black_box(&data[..]));
            let mut buffer = Vec::new();
            while let Some(chunk) = chunker.next_chunk(buffer).expect("reading from memory") {
                buffer = chunk.data;
            }
        }
        let chunking = started.elapsed() / rounds as u32;
        let mb = data.len() as f64 / 1e6;
        println!(
            "{name}: {mb:.1} MB, read {:.0} MB/s, chunked {:.0} MB/s",
            mb / reading.as_secs_f64(),
            mb / chunking.as_secs_f64()
        );
        total.0 += data.len();
        total.1 += reading;
        total.2 += chunking;
    }
    let mb = total.0 as f64 / 1e6;
    println!("all: read {:.0} MB/s, chunked {:.0} MB/s", mb / total.1.as_secs_f64(), mb / total.2.as_secs_f64());
}

// ---- Tokens ---------------------------------------------------------------------------

#[test]
fn every_token_kind() {
    let pgn = concat!(
        "[Event \"A\"]\n",
        "[Site \"x \\\"y\\\" \\\\ z\"]\n",
        "\n",
        "1. e4 $1 e5! 2.Nf3 !? Nc6 ?! 3... a6 12 Bb5 ?? $256 $ { a comment } ; line comment\n",
        "(3. d4 (3. c4) exd4) 0-0 O-O-O -- Z0 e8=Q+!? !!! 1-0 e4",
    );
    assert_eq!(
        shown(pgn.as_bytes()),
        [
            vec![
                "1:1 begin",
                "1:1 tag Event ⟨A⟩",
                r#"2:1 tag Site ⟨x \"y\" \\ z⟩"#,
                "end_tags",
                "4:1 number 1 ⟨1.⟩",
                "4:4 san e4",
                "4:7 nag 1 ⟨$1⟩",
                "4:10 san e5!",
                "4:14 number 2 ⟨2.⟩",
                "4:16 san Nf3",
                "4:20 nag 5 ⟨!?⟩",
                "4:23 san Nc6",
                "4:27 nag 6 ⟨?!⟩",
                "4:30 number 3 black ⟨3...⟩",
                "4:35 san a6",
                "4:38 number 12 ⟨12⟩",
                "4:41 san Bb5",
                "4:45 nag 4 ⟨??⟩",
                "4:48 error BadNag ⟨$256⟩",
                "4:53 san $",
                "4:55 comment ⟨ a comment ⟩",
                "4:69 comment ⟨ line comment⟩",
                "5:1 (",
                "5:2 number 3 ⟨3.⟩",
                "5:5 san d4",
                "5:8 (",
                "5:9 number 3 ⟨3.⟩",
                "5:12 san c4",
                "5:14 )",
                "5:16 san exd4",
                "5:20 )",
                "5:22 san 0-0",
                "5:26 san O-O-O",
                "5:32 san --",
                "5:35 san Z0",
                "5:38 san e8=Q+!?",
                "5:46 san !!!",
                "5:50 result 1-0 ⟨1-0⟩",
                "5:53 end",
            ],
            // What follows a result on its line is the next game.
            vec!["5:54 begin", "end_tags", "5:54 san e4", "5:56 end"],
        ]
    );
}

#[test]
fn nags_and_suffix_annotations() {
    assert_eq!(
        shown(b"$0 $7 $255 $256 $00001 $x ! ? !! ?? !? ?! ?? !?!"),
        [[
            "1:1 begin",
            "end_tags",
            "1:1 nag 0 ⟨$0⟩",
            "1:4 nag 7 ⟨$7⟩",
            "1:7 nag 255 ⟨$255⟩",
            "1:12 error BadNag ⟨$256⟩",
            "1:17 nag 1 ⟨$00001⟩",
            "1:24 san $x",
            "1:27 nag 1 ⟨!⟩",
            "1:29 nag 2 ⟨?⟩",
            "1:31 nag 3 ⟨!!⟩",
            "1:34 nag 4 ⟨??⟩",
            "1:37 nag 5 ⟨!?⟩",
            "1:40 nag 6 ⟨?!⟩",
            "1:43 nag 4 ⟨??⟩",
            "1:46 san !?!",
            "1:49 end",
        ]]
    );
    // `$` ends the token before it.
    assert_eq!(
        shown(b"e4$1$2 *"),
        [["1:1 begin", "end_tags", "1:1 san e4", "1:3 nag 1 ⟨$1⟩", "1:5 nag 2 ⟨$2⟩", "1:8 result * ⟨*⟩", "1:9 end"]]
    );
    // A NAG past $255, even past u32, is an error of its own, not a move:
    // the moves after it are read.
    assert_eq!(
        shown(b"e4 $99999999999 $000000000007 e5 *"),
        [[
            "1:1 begin",
            "end_tags",
            "1:1 san e4",
            "1:4 error BadNag ⟨$99999999999⟩",
            // leading zeros, as many as written
            "1:17 nag 7 ⟨$000000000007⟩",
            "1:31 san e5",
            "1:34 result * ⟨*⟩",
            "1:35 end"
        ]]
    );
}

#[test]
fn move_numbers_glued_and_alone() {
    assert_eq!(
        shown(b"1.e4 1...e5 2..Nf3 12 Nc6 3.... Bb5 4. 5 99999999999. e4 4294967295. 4294967296 0.e4 2e4 1.1-0"),
        [[
            "1:1 begin",
            "end_tags",
            "1:1 number 1 ⟨1.⟩",
            "1:3 san e4",
            "1:6 number 1 black ⟨1...⟩",
            "1:10 san e5",
            "1:13 number 2 black ⟨2..⟩",
            "1:16 san Nf3",
            "1:20 number 12 ⟨12⟩",
            "1:23 san Nc6",
            "1:27 number 3 black ⟨3....⟩",
            "1:33 san Bb5",
            "1:37 number 4 ⟨4.⟩",
            "1:40 number 5 ⟨5⟩",
            // Too big for a u32: still a move number, given as 0 (never right).
            "1:42 number 0 ⟨99999999999.⟩",
            "1:55 san e4",
            "1:58 number 4294967295 ⟨4294967295.⟩",
            "1:70 number 0 ⟨4294967296⟩",
            "1:81 number 0 ⟨0.⟩",
            "1:83 san e4",
            "1:86 san 2e4",
            "1:90 number 1 ⟨1.⟩",
            "1:92 result 1-0 ⟨1-0⟩",
            "1:95 end",
        ]]
    );
}

/// `*` is a token of its own (PGN's self-terminating result), glued to the
/// move before it too, as python-chess reads it: `e5*` is `e5` then `*`.
#[test]
fn an_asterisk_glued_to_a_move_is_the_result() {
    assert_eq!(
        shown(b"1. e4 e5!?* 1. d4 **"),
        [
            vec![
                "1:1 begin",
                "end_tags",
                "1:1 number 1 ⟨1.⟩",
                "1:4 san e4",
                "1:7 san e5!?",
                "1:11 result * ⟨*⟩",
                "1:12 end"
            ],
            vec![
                "1:13 begin",
                "end_tags",
                "1:13 number 1 ⟨1.⟩",
                "1:16 san d4",
                "1:19 san *",
                "1:20 result * ⟨*⟩",
                "1:21 end"
            ],
        ]
    );
    // it ends the game for the chunker too: the comment after it, on the
    // next line, starts the next game (not a blank line after it)
    for input in [
        &b"e*\n;\n\nb"[..],
        b"1. e4 e5!?*\n{c}\n\n1. d4 *\n",
        b"1.e4*\n;\n\nb",
        b"$1*\n;\n\nb",
        b"1*\n;\n\nb",
        b"...$*\n;\n\nb",
        b"!*\n;\n\nb",
    ] {
        for cuts in [Cuts::Quick, Cuts::EveryLine] {
            assert_chunks_read_alike(&text(input), input, input, 1, cuts);
        }
    }
}

/// `0000` is UCI's null move, as python-chess reads it, not a move number
/// 0; `0000.`, `000` and `00000` are move numbers.
#[test]
fn four_zeros_are_a_null_move() {
    assert_eq!(
        shown(b"1. e4 0000 2.0000 0000. 000 00000 0000!? *"),
        [[
            "1:1 begin",
            "end_tags",
            "1:1 number 1 ⟨1.⟩",
            "1:4 san e4",
            "1:7 san 0000",
            "1:12 number 2 ⟨2.⟩",
            "1:14 san 0000",
            "1:19 number 0 ⟨0000.⟩",
            "1:25 number 0 ⟨000⟩",
            "1:29 number 0 ⟨00000⟩",
            "1:35 san 0000!?",
            "1:42 result * ⟨*⟩",
            "1:43 end",
        ]]
    );
}

#[test]
fn results_with_dashes_and_the_half_sign() {
    let pgn = "e4 1–0\ne4 0—1\ne4 1/2–1/2\ne4 ½-½\ne4 ½—½\ne4 1/2-1/2\ne4 0-1\ne4 1–0!\ne4 1/2-½ 1-1 *\n";
    let results: Vec<Vec<String>> = shown(pgn.as_bytes());
    assert_eq!(
        results,
        [
            vec!["1:1 begin", "end_tags", "1:1 san e4", "1:4 result 1-0 ⟨1–0⟩", "1:9 end"],
            vec!["2:1 begin", "end_tags", "2:1 san e4", "2:4 result 0-1 ⟨0—1⟩", "2:9 end"],
            vec!["3:1 begin", "end_tags", "3:1 san e4", "3:4 result 1/2-1/2 ⟨1/2–1/2⟩", "3:13 end"],
            vec!["4:1 begin", "end_tags", "4:1 san e4", "4:4 result 1/2-1/2 ⟨½-½⟩", "4:9 end"],
            vec!["5:1 begin", "end_tags", "5:1 san e4", "5:4 result 1/2-1/2 ⟨½—½⟩", "5:11 end"],
            vec!["6:1 begin", "end_tags", "6:1 san e4", "6:4 result 1/2-1/2 ⟨1/2-1/2⟩", "6:11 end"],
            vec!["7:1 begin", "end_tags", "7:1 san e4", "7:4 result 0-1 ⟨0-1⟩", "7:7 end"],
            vec![
                "8:1 begin",
                "end_tags",
                "8:1 san e4",
                // Not a result: something is glued to it.
                "8:4 san 1–0!",
                "9:1 san e4",
                "9:4 san 1/2-½",
                "9:11 san 1-1",
                "9:15 result * ⟨*⟩",
                "9:16 end",
            ],
        ]
    );
    let outcomes: Vec<ResultToken> = games(pgn.as_bytes())
        .iter()
        .flatten()
        .filter_map(|event| match event {
            Event::Result(result, ..) => Some(*result),
            _ => None,
        })
        .collect();
    use sanfen::{Color, Outcome};
    assert_eq!(
        outcomes,
        [
            ResultToken::Outcome(Outcome::Decisive { winner: Color::White }),
            ResultToken::Outcome(Outcome::Decisive { winner: Color::Black }),
            ResultToken::Outcome(Outcome::Draw),
            ResultToken::Outcome(Outcome::Draw),
            ResultToken::Outcome(Outcome::Draw),
            ResultToken::Outcome(Outcome::Draw),
            ResultToken::Outcome(Outcome::Decisive { winner: Color::Black }),
            ResultToken::Unknown,
        ]
    );
}

#[test]
fn nested_variations_with_exact_locations() {
    let pgn = b"[Event \"V\"]\n1. e4 (1. d4 d5 (1... Nf6\n2. c4)) (1. c4) e5 *\n";
    let games = games(pgn);
    assert_eq!(
        games,
        [vec![
            Event::Begin(loc(1, 1, 0)),
            Event::Tag("Event".into(), "V".into(), loc(1, 1, 0)),
            Event::EndTags,
            Event::Number(1, false, "1.".into(), loc(2, 1, 12)),
            Event::San("e4".into(), loc(2, 4, 15)),
            Event::BeginVariation(loc(2, 7, 18)),
            Event::Number(1, false, "1.".into(), loc(2, 8, 19)),
            Event::San("d4".into(), loc(2, 11, 22)),
            Event::San("d5".into(), loc(2, 14, 25)),
            Event::BeginVariation(loc(2, 17, 28)),
            Event::Number(1, true, "1...".into(), loc(2, 18, 29)),
            Event::San("Nf6".into(), loc(2, 23, 34)),
            Event::Number(2, false, "2.".into(), loc(3, 1, 38)),
            Event::San("c4".into(), loc(3, 4, 41)),
            Event::EndVariation(loc(3, 6, 43)),
            Event::EndVariation(loc(3, 7, 44)),
            Event::BeginVariation(loc(3, 9, 46)),
            Event::Number(1, false, "1.".into(), loc(3, 10, 47)),
            Event::San("c4".into(), loc(3, 13, 50)),
            Event::EndVariation(loc(3, 15, 52)),
            Event::San("e5".into(), loc(3, 17, 54)),
            Event::Result(ResultToken::Unknown, "*".into(), loc(3, 20, 57)),
            Event::End(loc(3, 21, 58)),
        ]]
    );
}

#[test]
fn skipping_variations_and_movetext() {
    let pgn = b"1. e4 (1. d4 (1. c4) {x} ] d5) e5 ) 1-0\n";
    let mut record = Record { skip_variations: true, ..Record::default() };
    let skipped: Vec<Vec<String>> =
        games_with(Reader::new(pgn), &mut record).iter().map(|game| game.iter().map(show).collect()).collect();
    assert_eq!(
        skipped,
        [[
            "1:1 begin",
            "end_tags",
            "1:1 number 1 ⟨1.⟩",
            "1:4 san e4",
            "1:7 (",
            // Errors are reported in skipped text too.
            "1:26 error UnexpectedChar ⟨]⟩",
            "1:32 san e5",
            "1:35 error UnmatchedCloseParen ⟨)⟩",
            "1:37 result 1-0 ⟨1-0⟩",
            "1:40 end",
        ]]
    );
    let mut record = Record { skip_movetext: true, ..Record::default() };
    let skipped: Vec<Vec<String>> =
        games_with(Reader::new(pgn), &mut record).iter().map(|game| game.iter().map(show).collect()).collect();
    assert_eq!(
        skipped,
        [["1:1 begin", "end_tags", "1:26 error UnexpectedChar ⟨]⟩", "1:35 error UnmatchedCloseParen ⟨)⟩", "1:40 end"]]
    );
}

#[test]
fn unexpected_characters() {
    assert_eq!(
        shown(b"e4 ] \" } \x01e5\x7f *"),
        [[
            "1:1 begin",
            "end_tags",
            "1:1 san e4",
            "1:4 error UnexpectedChar ⟨]⟩",
            "1:6 error UnexpectedChar ⟨\"⟩",
            "1:8 error UnexpectedChar ⟨}⟩",
            "1:10 error UnexpectedChar ⟨\u{1}⟩",
            "1:11 san e5",
            "1:13 error UnexpectedChar ⟨\u{7f}⟩",
            "1:15 result * ⟨*⟩",
            "1:16 end",
        ]]
    );
}

// ---- Lines, encodings ----------------------------------------------------------------

#[test]
fn crlf_line_ends() {
    let pgn = b"[Event \"A\"]\r\n\r\n1. e4 ; check\r\n{two\r\nlines} e5 *\r\n";
    let games = games(pgn);
    assert_eq!(
        games,
        [vec![
            Event::Begin(loc(1, 1, 0)),
            Event::Tag("Event".into(), "A".into(), loc(1, 1, 0)),
            Event::EndTags,
            Event::Number(1, false, "1.".into(), loc(3, 1, 15)),
            Event::San("e4".into(), loc(3, 4, 18)),
            // No `\r` in a `;` comment; a `{ }` comment keeps its bytes.
            Event::Comment(" check".into(), loc(3, 7, 21)),
            Event::Comment("two\r\nlines".into(), loc(4, 1, 30)),
            Event::San("e5".into(), loc(5, 8, 43)),
            Event::Result(ResultToken::Unknown, "*".into(), loc(5, 11, 46)),
            Event::End(loc(5, 12, 47)),
        ]]
    );
    // `\r` alone ends no line.
    assert_eq!(
        shown(b"e4\re5\r*"),
        [["1:1 begin", "end_tags", "1:1 san e4", "1:4 san e5", "1:7 result * ⟨*⟩", "1:8 end"]]
    );
}

#[test]
fn every_carriage_return_before_a_line_end_goes_with_it() {
    // in a `;` comment, an escape line and a comment after the result, as
    // at the end of the input: they are whitespace (the formatter drops
    // them), not text
    assert_eq!(
        shown(b"%x\r\r\ne4 ;a\r\r\n* ;b\r\r\r\n"),
        [[
            "1:1 escape ⟨%x⟩",
            "2:1 begin",
            "end_tags",
            "2:1 san e4",
            "2:4 comment ⟨a⟩",
            "3:1 result * ⟨*⟩",
            "3:3 after_result ⟨;b⟩",
            "3:5 end"
        ]]
    );
    assert_eq!(shown(b"e4 ;\r\r"), [["1:1 begin", "end_tags", "1:1 san e4", "1:4 comment ⟨⟩", "1:5 end"]]);
}

#[test]
fn byte_order_mark_at_the_start_is_skipped_and_counts_in_columns() {
    let pgn = read("python-chess/utf8-bom.pgn");
    let games = games(&pgn);
    assert_eq!(games.len(), 2);
    // columns count bytes: the mark's three come before column 4
    assert_eq!(games[0][0], Event::Begin(loc(1, 4, 3)));
    assert_eq!(games[0][1], Event::Tag("Event".into(), "A".into(), loc(1, 4, 3)));
}

#[test]
fn byte_order_mark_after_the_start_is_whitespace_not_a_move() {
    // after the start, a byte order mark is an invisible character: no move, no game
    assert_eq!(
        shown(b"\xef\xbb\xbf%escape\n\xef\xbb\xbf *"),
        [[
            "1:4 escape ⟨%escape⟩",
            "2:1 invisible [ef, bb, bf]",
            "2:5 begin",
            "end_tags",
            "2:5 result * ⟨*⟩",
            "2:6 end"
        ]]
    );
    // files joined with `cat`: the second file's mark is no phantom game
    assert_eq!(
        shown(b"[A \"1\"]\n\n1. e4 *\n\xef\xbb\xbf[A \"2\"]\n\n1. d4 *\n"),
        [
            vec![
                "1:1 begin",
                "1:1 tag A ⟨1⟩",
                "end_tags",
                "3:1 number 1 ⟨1.⟩",
                "3:4 san e4",
                "3:7 result * ⟨*⟩",
                "3:8 end"
            ],
            vec![
                "4:1 invisible [ef, bb, bf]",
                "4:4 begin",
                "4:4 tag A ⟨2⟩",
                "end_tags",
                "6:1 number 1 ⟨1.⟩",
                "6:4 san d4",
                "6:7 result * ⟨*⟩",
                "6:8 end",
            ],
        ]
    );
    // with_start skips none, but at the start of the stream
    let mut record = Record::default();
    let from_chunk = games_with(Reader::with_start(b"\xef\xbb\xbf *", loc(7, 1, 100)), &mut record);
    assert_eq!(
        from_chunk[0][..2],
        [Event::Invisible("[ef, bb, bf]".into(), loc(7, 1, 100)), Event::Begin(loc(7, 5, 104))]
    );
    let from_start = games_with(Reader::with_start(b"\xef\xbb\xbf *", loc(1, 1, 0)), &mut record);
    assert_eq!(from_start[0][..2], [Event::Invisible("[ef, bb, bf]".into(), loc(1, 1, 0)), Event::Begin(loc(1, 5, 4))]);
}

#[test]
fn a_latin1_no_break_space_right_after_the_byte_order_mark_reads_as_from_a_chunk() {
    // The chunker starts the first chunk after the mark, where a lone `A0`
    // is the first byte (invisible); read whole, the byte before it is the
    // mark's last, and it must read the same.
    let input = b"\xef\xbb\xbf\xa0 e4 *\n";
    assert_eq!(
        shown(input),
        [["1:4 invisible [a0]", "1:6 begin", "end_tags", "1:6 san e4", "1:9 result * ⟨*⟩", "1:10 end"]]
    );
    let mut chunker = Chunker::with_target(&input[..], 1);
    let chunk = chunker.next_chunk(Vec::new()).unwrap().unwrap();
    assert_eq!(chunk.start, loc(1, 4, 3));
    assert_eq!(games_with(Reader::with_start(&chunk.data, chunk.start), &mut Record::default()), games(input));
}

#[test]
fn invisible_characters_after_the_result_with_no_comment_belong_to_what_follows() {
    // before a comment on the result's line, they are the game's
    assert_eq!(
        shown(b"e4 1-0\xc2\xa0{done}\n"),
        [[
            "1:1 begin",
            "end_tags",
            "1:1 san e4",
            "1:4 result 1-0 ⟨1-0⟩",
            "1:7 invisible [c2, a0]",
            "1:9 after_result ⟨{done}⟩",
            "1:15 end"
        ]]
    );
    // with a token after them, the game ends at its result, and they come
    // before the next game's start (events in order: never one after the end)
    assert_eq!(
        shown(b"e4 1-0\xc2\xa0d4\n"),
        [
            vec!["1:1 begin", "end_tags", "1:1 san e4", "1:4 result 1-0 ⟨1-0⟩", "1:7 end"],
            vec!["1:7 invisible [c2, a0]", "1:9 begin", "end_tags", "1:9 san d4", "1:11 end"],
        ]
    );
}

#[test]
fn missing_final_newline() {
    assert_eq!(
        shown(&read("notnil-chess/0015.pgn")),
        [[
            "1:1 begin",
            "end_tags",
            "1:1 number 1 ⟨1.⟩",
            "1:4 san g1f3",
            "1:9 san e7e5",
            "1:15 result * ⟨*⟩",
            "1:16 end",
        ]]
    );
}

#[test]
fn latin1_tag_value_decoded() {
    let pgn = read("pychess/gamefiles/dortmund.pgn");
    let mut reader = Reader::new(&pgn);

    /// The decoded values of the White and Black tags.
    struct Players(Vec<String>);
    impl Visitor for Players {
        type Output = Vec<String>;
        fn tag(&mut self, name: &[u8], value: RawText<'_>, _at: Location) {
            if name == b"White" || name == b"Black" {
                self.0.push(value.decode().into_owned());
            }
        }
        fn end_game(&mut self, _at: Location) -> Vec<String> {
            std::mem::take(&mut self.0)
        }
    }

    let mut players = Players(Vec::new());
    assert_eq!(reader.read_game(&mut players).unwrap(), ["Colle, Edgar", "Van Nüss, Alfred"]);
    assert!(pgn.windows(4).any(|w| w == b"N\xfcss"), "the file is Latin-1");
    let second = reader.read_game(&mut players).unwrap();
    assert_eq!(second, ["Réti, Richard", "Bogoljubow, Efim"]);
}

#[test]
fn raw_text_decode() {
    assert_eq!(RawText(b"plain").decode(), std::borrow::Cow::Borrowed("plain"));
    assert_eq!(RawText(br#"a \"b\" \\ c \d \"#).decode(), r#"a "b" \ c \d \"#);
    assert_eq!(RawText(b"caf\xe9 \\\"x\\\"").decode(), "café \"x\"");
    // Windows-1252, with and without an escape to undo
    assert_eq!(RawText(b"\x93caf\xe9\x94 \x96 \x80").decode(), "“café” – €");
    assert_eq!(RawText(b"\x93caf\xe9\x94 \\\"\x80\\\"").decode(), "“café” \"€\"");
    assert_eq!(RawText(b"\x81\x8d\x8f\x90\x9d").decode(), "\u{81}\u{8d}\u{8f}\u{90}\u{9d}");
    assert_eq!(RawText("naïve ½".as_bytes()).decode(), "naïve ½");
    // Not UTF-8 as a whole: every byte is its Windows-1252 character.
    assert_eq!(RawText("é".as_bytes().iter().chain(b"\xe9").copied().collect::<Vec<_>>().as_slice()).decode(), "Ã©é");
    assert_eq!(RawText(b"x").as_bytes(), b"x");
}

#[test]
fn locations_continue_from_a_start() {
    let mut record = Record::default();
    let games = games_with(Reader::with_start(b"e4\n  e5 *", loc(10, 5, 1000)), &mut record);
    assert_eq!(
        games,
        [vec![
            Event::Begin(loc(10, 5, 1000)),
            Event::EndTags,
            Event::San("e4".into(), loc(10, 5, 1000)),
            Event::San("e5".into(), loc(11, 3, 1005)),
            Event::Result(ResultToken::Unknown, "*".into(), loc(11, 6, 1008)),
            Event::End(loc(11, 7, 1009)),
        ]]
    );
    let mut reader = Reader::with_start(b"e4 *\n\n", loc(3, 1, 50));
    assert_eq!(reader.location(), loc(3, 1, 50));
    assert!(reader.read_game(&mut Count).is_some());
    assert_eq!(reader.location(), loc(3, 5, 54));
    assert!(reader.read_game(&mut Count).is_none());
    assert_eq!(reader.location(), loc(5, 1, 56));
}

// ---- Variations: depth and balance -------------------------------------------------

#[test]
fn depth_limit_is_an_error_not_a_stack_overflow() {
    let mut pgn = vec![b'('; 100_000];
    pgn.extend_from_slice(b"e4");
    pgn.extend(std::iter::repeat_n(b')', 100_000));
    pgn.extend_from_slice(b" e5 *");
    let started = std::time::Instant::now();
    let read = games(&pgn);
    assert!(started.elapsed() < std::time::Duration::from_secs(1), "{:?}", started.elapsed());
    let max = Reader::MAX_DEPTH;
    assert_eq!(max, 64);
    let game = &read[0];
    assert_eq!(read.len(), 1);
    let begins: Vec<&Event> = game.iter().filter(|e| matches!(e, Event::BeginVariation(_))).collect();
    let ends: Vec<&Event> = game.iter().filter(|e| matches!(e, Event::EndVariation(_))).collect();
    assert_eq!(begins.len(), max);
    assert_eq!(ends.len(), max);
    assert_eq!(begins[max - 1], &Event::BeginVariation(loc(1, 64, 63)));
    // The 65th `(` is reported, and its variation (with all inside) skipped.
    assert_eq!(game[2 + max], Event::Error(SyntaxErrorKind::TooDeep, "(".into(), loc(1, 65, 64)));
    assert_eq!(game[3 + max], Event::EndVariation(loc(1, 100_000 + 2 + 100_000 - 63, 200_001 - 63)));
    assert_eq!(game.iter().filter(|e| matches!(e, Event::Error(..))).count(), 1);
    assert_eq!(game[game.len() - 3], Event::San("e5".into(), loc(1, 200_004, 200_003)));

    // Unclosed: reported once, at the innermost `(` that was read.
    let unclosed = games(&vec![b'('; 100_000]);
    assert_eq!(
        unclosed[0][unclosed[0].len() - 2..],
        [
            Event::Error(SyntaxErrorKind::UnclosedVariation, "(".into(), loc(1, 65, 64)),
            Event::End(loc(1, 100_001, 100_000))
        ]
    );
}

#[test]
fn unclosed_and_unmatched_variations() {
    assert_eq!(
        shown(b"1. e4 ) (1. d4 (1. c4 e5 *\n1. f4 (1. g4\n[Event \"B\"]\n"),
        [
            vec![
                "1:1 begin",
                "end_tags",
                "1:1 number 1 ⟨1.⟩",
                "1:4 san e4",
                "1:7 error UnmatchedCloseParen ⟨)⟩",
                "1:9 (",
                "1:10 number 1 ⟨1.⟩",
                "1:13 san d4",
                "1:16 (",
                "1:17 number 1 ⟨1.⟩",
                "1:20 san c4",
                "1:23 san e5",
                // A result ends the game at any depth.
                "1:16 error UnclosedVariation ⟨(⟩",
                "1:26 result * ⟨*⟩",
                "1:27 end",
            ],
            vec![
                "2:1 begin",
                "end_tags",
                "2:1 number 1 ⟨1.⟩",
                "2:4 san f4",
                "2:7 (",
                "2:8 number 1 ⟨1.⟩",
                "2:11 san g4",
                // So does a tag.
                "2:7 error UnclosedVariation ⟨(⟩",
                "2:13 end",
            ],
            vec!["3:1 begin", "3:1 tag Event ⟨B⟩", "end_tags", "3:12 end"],
        ]
    );
}

// ---- Comments and escapes ----------------------------------------------------------

#[test]
fn unclosed_comment_recovers_at_the_next_tag() {
    let pgn = b"[Event \"A\"]\n\n1. e4 { unclosed\n[clk 1:05:23 ] is no tag\n[Event \"B\"]\n\n1. d4 {at the end\n";
    assert_eq!(
        shown(pgn),
        [
            vec![
                "1:1 begin",
                "1:1 tag Event ⟨A⟩",
                "end_tags",
                "3:1 number 1 ⟨1.⟩",
                "3:4 san e4",
                "3:7 error UnclosedComment ⟨{ unclosed⟩",
                "5:1 end",
            ],
            vec![
                "5:1 begin",
                "5:1 tag Event ⟨B⟩",
                "end_tags",
                "7:1 number 1 ⟨1.⟩",
                "7:4 san d4",
                "7:7 error UnclosedComment ⟨{at the end⟩",
                "8:1 end",
            ],
        ]
    );
    // Before any game, an unclosed comment is a game of its own (its error
    // has to go somewhere).
    assert_eq!(
        shown(b"{closed} {open\n[Event \"A\"] *\n"),
        [
            vec!["1:1 begin", "end_tags", "1:1 comment ⟨closed⟩", "1:10 error UnclosedComment ⟨{open⟩", "2:1 end"],
            vec!["2:1 begin", "2:1 tag Event ⟨A⟩", "end_tags", "2:13 result * ⟨*⟩", "2:14 end"],
        ]
    );
}

#[test]
fn comments_between_games() {
    // Before a tag: no game's, reported before it. Before a movetext token:
    // the game's first. Alone: no game, reported after the last.
    let input = b"{between} ; between too\n[Event \"A\"] *\n{kept}\n;kept too\n1. e4 *\n{alone} ;alone\n\n";
    assert_eq!(
        shown(input),
        [
            vec![
                "1:1 between_games ⟨{between}⟩",
                "1:11 between_games ⟨; between too⟩",
                "2:1 begin",
                "2:1 tag Event ⟨A⟩",
                "end_tags",
                "2:13 result * ⟨*⟩",
                "2:14 end",
            ],
            vec![
                "3:1 begin",
                "end_tags",
                "3:1 comment ⟨kept⟩",
                "4:1 comment ⟨kept too⟩",
                "5:1 number 1 ⟨1.⟩",
                "5:4 san e4",
                "5:7 result * ⟨*⟩",
                "5:8 end",
            ],
        ]
    );
    assert_eq!(shown_after_games(input), ["6:1 between_games ⟨{alone}⟩", "6:9 between_games ⟨;alone⟩"]);
    assert!(games(b"  {only} ; comments\n%and an escape\n\n").is_empty());
    assert_eq!(
        shown_after_games(b"  {only} ; comments\n%and an escape\n\n"),
        ["1:3 between_games ⟨{only}⟩", "1:10 between_games ⟨; comments⟩", "2:1 escape ⟨%and an escape⟩"]
    );
    assert!(games(b"").is_empty());
    assert!(games(b"\xef\xbb\xbf").is_empty());
}

#[test]
fn escape_lines_are_reported_where_they_are() {
    assert_eq!(
        shown(b"%start\n[Event \"A\"]\n%in tags\n1. e4 %not an escape\n%escape {\ne5 *\n"),
        [[
            "1:1 escape ⟨%start⟩",
            "2:1 begin",
            "2:1 tag Event ⟨A⟩",
            "3:1 escape ⟨%in tags⟩",
            "end_tags",
            "4:1 number 1 ⟨1.⟩",
            "4:4 san e4",
            "4:7 san %not",
            "4:12 san an",
            "4:15 san escape",
            "5:1 escape ⟨%escape {⟩",
            "6:1 san e5",
            "6:4 result * ⟨*⟩",
            "6:5 end",
        ]]
    );
}

#[test]
fn semicolon_comments_among_the_tags_keep_the_game_whole() {
    // A `;` comment with a tag after it (blank lines, comments and escape
    // lines between) is among the tags; one with movetext after it starts
    // the movetext.
    let input = b"[Event \"A\"] ; on its line\n; alone\n%esc\n\n; after a blank line\n[Site \"x\"]\n; before the movetext\n1. e4 *\n";
    assert_eq!(
        shown(input),
        [[
            "1:1 begin",
            "1:1 tag Event ⟨A⟩",
            "1:13 tag comment ⟨; on its line⟩",
            "2:1 tag comment ⟨; alone⟩",
            "3:1 escape ⟨%esc⟩",
            "5:1 tag comment ⟨; after a blank line⟩",
            "6:1 tag Site ⟨x⟩",
            "end_tags",
            "7:1 comment ⟨ before the movetext⟩",
            "8:1 number 1 ⟨1.⟩",
            "8:4 san e4",
            "8:7 result * ⟨*⟩",
            "8:8 end",
        ]]
    );
    // a tag the section has, after a blank line, still starts a game: the
    // comment before it is the first game's movetext (what comes after a
    // game never changes how it reads: its chunk may end before)
    assert_eq!(
        shown(b"[Event \"A\"]\n\n; c\r\n[Event \"B\"]\n; d\n\n1. d4 *\n"),
        [
            vec!["1:1 begin", "1:1 tag Event ⟨A⟩", "end_tags", "3:1 comment ⟨ c⟩", "3:4 end"],
            vec![
                "4:1 begin",
                "4:1 tag Event ⟨B⟩",
                "end_tags",
                "5:1 comment ⟨ d⟩",
                "7:1 number 1 ⟨1.⟩",
                "7:4 san d4",
                "7:7 result * ⟨*⟩",
                "7:8 end",
            ],
        ]
    );
    // nothing after it: the movetext's
    assert_eq!(
        shown(b"[Event \"A\"]\n; c\n"),
        [["1:1 begin", "1:1 tag Event ⟨A⟩", "end_tags", "2:1 comment ⟨ c⟩", "2:4 end"]]
    );
}

#[test]
fn brace_comments_among_the_tags_keep_the_game_whole() {
    // A `{ }` comment closed on its line with a tag after it is among the
    // tags, as a `;` one is; one that goes on to the next line, or that
    // movetext follows, starts the movetext.
    let input = b"[Event \"A\"] {on its line}\n{alone} ; and more\n\n{after a blank line}\n[Site \"x\"]\n\
                  {before the movetext}\n1. e4 *\n";
    assert_eq!(
        shown(input),
        [[
            "1:1 begin",
            "1:1 tag Event ⟨A⟩",
            "1:13 tag comment ⟨{on its line}⟩",
            "2:1 tag comment ⟨{alone}⟩",
            "2:9 tag comment ⟨; and more⟩",
            "4:1 tag comment ⟨{after a blank line}⟩",
            "5:1 tag Site ⟨x⟩",
            "end_tags",
            "6:1 comment ⟨before the movetext⟩",
            "7:1 number 1 ⟨1.⟩",
            "7:4 san e4",
            "7:7 result * ⟨*⟩",
            "7:8 end",
        ]]
    );
    // one that goes on to the next line is the movetext's, and so the tag
    // after it starts a game
    assert_eq!(
        shown(b"[Event \"A\"]\n{two\nlines}\n[Site \"x\"]\n*\n"),
        [
            vec!["1:1 begin", "1:1 tag Event ⟨A⟩", "end_tags", "2:1 comment ⟨two\nlines⟩", "3:7 end"],
            vec!["4:1 begin", "4:1 tag Site ⟨x⟩", "end_tags", "5:1 result * ⟨*⟩", "5:2 end"],
        ]
    );
    // a tag the section has after a blank line still starts a game, the
    // comments before it the first game's movetext
    assert_eq!(
        shown(b"[Event \"A\"]\n\n{c} {d}\n[Event \"B\"]\n*\n"),
        [
            vec!["1:1 begin", "1:1 tag Event ⟨A⟩", "end_tags", "3:1 comment ⟨c⟩", "3:5 comment ⟨d⟩", "3:8 end"],
            vec!["4:1 begin", "4:1 tag Event ⟨B⟩", "end_tags", "5:1 result * ⟨*⟩", "5:2 end"],
        ]
    );
    // read in chunks cut anywhere, the same
    for input in [
        &input[..],
        b"[Event \"A\"]\n{two\nlines}\n[Site \"x\"]\n*\n",
        b"[Event \"A\"]\n\n{c} {d}\n[Event \"B\"]\n*\n",
        b"1. e4 *\n{c}\n[Event \"B\"]\n{d}\n[Site \"y\"]\n{e}\n\n[Event \"C\"]\n{f\n[Site \"z\"]\n*\n",
        // (a `{` in a `;` comment opens no comment)
        b"[Event #\"A\"] {on its line}\n{alone} ; Blac{oafte7 a bl]pei\n[Site \"y\"]\n*\n",
    ] {
        for cuts in [Cuts::Quick, Cuts::EveryLine] {
            assert_chunks_read_alike(&text(input), input, input, 1, cuts);
        }
    }
}

#[test]
fn a_blank_line_right_after_an_escape_line_ends_the_game() {
    // As a blank line after a token does, and as it does after an escape
    // line in the tags: one empty line after `%x` is enough.
    let input = b"1. e4\n%x\n\n1. d4 *\n";
    assert_eq!(
        shown(input),
        [
            vec!["1:1 begin", "end_tags", "1:1 number 1 ⟨1.⟩", "1:4 san e4", "2:1 escape ⟨%x⟩", "2:3 end"],
            vec!["4:1 begin", "end_tags", "4:1 number 1 ⟨1.⟩", "4:4 san d4", "4:7 result * ⟨*⟩", "4:8 end"],
        ]
    );
    // whitespace on the blank line, CRLF, two escape lines: the same
    for input in [&b"1. e4\n%x\n \t\n1. d4 *\n"[..], b"1. e4\r\n%x\r\n\r\n1. d4 *\r\n", b"1. e4\n%x\n%y\n\n1. d4 *\n"] {
        assert_eq!(games(input).len(), 2, "{}", text(input));
        for cuts in [Cuts::Quick, Cuts::EveryLine] {
            assert_eq!(assert_chunks_read_alike(&text(input), input, input, 1, cuts).1, 2);
        }
    }
    // an escape line alone between two moves does not end the game
    assert_eq!(games(b"1. e4\n%x\n1... e5 *\n").len(), 1);
}

#[test]
fn a_comment_starts_the_movetext() {
    // After a comment that starts the movetext (no tag of the game after
    // it), a tag starts the next game.
    assert_eq!(
        shown(b"[Event \"A\"] {c}\n\n[Event \"B\"]\n"),
        [
            vec!["1:1 begin", "1:1 tag Event ⟨A⟩", "end_tags", "1:13 comment ⟨c⟩", "1:16 end"],
            vec!["3:1 begin", "3:1 tag Event ⟨B⟩", "end_tags", "3:12 end"],
        ]
    );
}

// ---- Tags and game boundaries ----------------------------------------------------------

#[test]
fn pathological_headers() {
    let games = games(&read("chessops/pathological-headers.pgn"));
    let tags: Vec<(String, String)> = games[0]
        .iter()
        .filter_map(|event| match event {
            Event::Tag(name, value, _) => Some((name.clone(), value.clone())),
            _ => None,
        })
        .collect();
    let expected = [
        ("A", r#"b\""#),
        ("B", r#"b\""#),
        ("C", "A]]"),
        ("D", "A]]["),
        ("E", r#"\"A]][\""#),
        ("F", r#"\"A]][\"\\"#),
        ("G", r#"\"]"#),
    ];
    assert_eq!(tags, expected.map(|(n, v)| (n.to_owned(), v.to_owned())));
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].len(), 1 + 7 + 1 + 1);
    assert_eq!(RawText(expected[5].1.as_bytes()).decode(), r#""A]]["\"#);
}

#[test]
fn bad_tags() {
    assert_eq!(
        shown(&read("pychess/gamefiles/badpgn.pgn")),
        [[
            "1:1 begin",
            "1:1 error BadTag ⟨[kj90trkm\"sdfsdf\"yl]⟩",
            "end_tags",
            "2:1 san g",
            "2:2 (",
            "2:3 san erg",
            "2:6 )",
            "3:1 san r23",
            "3:5 result * ⟨*⟩",
            "3:6 end",
        ]]
    );
    assert_eq!(
        shown(b"[A \"no end\n[B no quotes] [ \"no name\"] [C \"x\" y] z [D\"ok\"]\r\n[E \"open\r\n[F \"x\"]\n"),
        [
            vec![
                "1:1 begin",
                // To the end of the line at the latest, else to a `]`.
                "1:1 error BadTag ⟨[A \"no end⟩",
                "2:1 error BadTag ⟨[B no quotes]⟩",
                "2:15 error BadTag ⟨[ \"no name\"]⟩",
                "2:28 error BadTag ⟨[C \"x\" y]⟩",
                "end_tags",
                "2:38 san z",
                "2:39 end",
            ],
            // Bad tags count as tags: `z` was movetext, so `[D` starts a game.
            vec![
                "2:40 begin",
                "2:40 tag D ⟨ok⟩",
                "3:1 error BadTag ⟨[E \"open⟩",
                "4:1 tag F ⟨x⟩",
                "end_tags",
                "4:8 end"
            ],
        ]
    );
    // A tag with spaces inside its brackets, and PGN symbol characters.
    assert_eq!(
        shown(b"[ \tWhite_Elo+#=:-9 \t\"x\" \t]"),
        [["1:1 begin", "1:1 tag White_Elo+#=:-9 ⟨x⟩", "end_tags", "1:27 end"]]
    );
}

#[test]
fn header_only_games() {
    // A repeated name after a blank line starts a game.
    assert_eq!(
        shown(b"[Event \"A\"]\n[Site \"x\"]\n\n[Event \"B\"]\n[Site \"y\"]\n \t\r\n%escape\n[Site \"z\"]\n"),
        [
            vec!["1:1 begin", "1:1 tag Event ⟨A⟩", "2:1 tag Site ⟨x⟩", "end_tags", "2:11 end"],
            vec!["4:1 begin", "4:1 tag Event ⟨B⟩", "5:1 tag Site ⟨y⟩", "7:1 escape ⟨%escape⟩", "end_tags", "7:8 end"],
            vec!["8:1 begin", "8:1 tag Site ⟨z⟩", "end_tags", "8:11 end"],
        ]
    );
    // Without a blank line, a repeated name is one more tag; a blank line
    // before a new name changes nothing.
    assert_eq!(
        shown(b"[Event \"A\"]\n[Event \"B\"]\n\n[Site \"x\"]\n   \n%escape\n\n1. e4 *"),
        [[
            "1:1 begin",
            "1:1 tag Event ⟨A⟩",
            "2:1 tag Event ⟨B⟩",
            "4:1 tag Site ⟨x⟩",
            "6:1 escape ⟨%escape⟩",
            "end_tags",
            "8:1 number 1 ⟨1.⟩",
            "8:4 san e4",
            "8:7 result * ⟨*⟩",
            "8:8 end",
        ]]
    );
    // Blank lines count only after the previous tag: not the rest of its line.
    assert_eq!(games(b"[Event \"A\"]   \n[Event \"B\"]\n").len(), 1);
    assert_eq!(games(b"[Event \"A\"]   \n\n[Event \"B\"]\n").len(), 2);
    assert_eq!(games(b"[Event \"A\"]\n%x\n\n[Event \"B\"]\n").len(), 2);
    assert_eq!(games(b"[Event \"A\"]\n%x\n[Event \"B\"]\n").len(), 1);
    // chessbase-empty-line.pgn: a blank line in the tag section, no name
    // repeated: one game.
    assert_eq!(count(&read("python-chess/chessbase-empty-line.pgn")), 1);
}

#[test]
fn header_only_files() {
    let fwwrc = read("scalachess/FWWRC.pgn");
    let games = games(&fwwrc);
    assert_eq!(games.len(), 605);
    let tags = games.iter().flatten().filter(|e| matches!(e, Event::Tag(..))).count();
    assert_eq!(tags, 11_462, "every line that starts with [");
    assert!(games.iter().all(|game| matches!(&game[1], Event::Tag(name, ..) if name == "Event")));
    assert!(games.iter().flatten().all(|e| !matches!(e, Event::Error(..))));
    assert_eq!(
        games[1][1],
        Event::Tag("Event".into(), "FIDE Women’s World Rapid Championships 2024".into(), loc(21, 1, 549))
    );
    // uzchesscup.pgn: one Event tag, then blocks that start with Round.
    let uz = read("scalachess/uzchesscup.pgn");
    let uz_games = self::games(&uz);
    assert_eq!(uz_games.len(), 45);
    assert_eq!(uz.windows(8).filter(|w| *w == b"\n[Round ").count(), 45);
    assert!(matches!(&uz_games[44][1], Event::Tag(name, value, _) if name == "Round" && value == "9.5"));
}

#[test]
fn chessops_tag_and_movetext_layouts() {
    // Three games whose tags share their line with the movetext, or not.
    let games = games(&read("chessops/headers-and-moves-on-the-same-line.pgn"));
    assert_eq!(games.len(), 3);
    for game in &games {
        let sans: Vec<&str> = game
            .iter()
            .filter_map(|e| match e {
                Event::San(s, _) => Some(s.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(sans, ["e3", "e6", "b4", "Bxb4", "Qg4"]);
        assert!(matches!(&game[1], Event::Tag(name, value, _) if name == "Variant" && value == "Antichess"));
    }
    assert_eq!(games[0][2], Event::EndTags);
    assert_eq!(games[0][3], Event::Number(1, false, "1.".into(), loc(1, 23, 22)));
    // Leading whitespace: the last block has no tags and follows the third
    // game's movetext, which has no result, after a blank line: a game of its own.
    let games = self::games(&read("chessops/leading-whitespace.pgn"));
    assert_eq!(games.len(), 4);
    assert_eq!(games[0][1], Event::Tag("Variant".into(), "Standard".into(), loc(1, 5, 4)));
    for game in &games[1..] {
        assert_eq!(game.iter().filter(|e| matches!(e, Event::San(..))).count(), 5);
    }
}

#[test]
fn html_line_breaks_are_tokens() {
    // chess.js/0.pgn uses `<br />` for newlines: the file is one line, so
    // after each tag `<br` and `/>` are movetext and the next `[` starts a game.
    let games = games(&read("chess.js/0.pgn"));
    assert_eq!(games.len(), 8);
    assert_eq!(
        games[0].iter().map(show).collect::<Vec<_>>(),
        ["1:1 begin", "1:1 tag Event ⟨?⟩", "end_tags", "1:12 san <br", "1:16 san />", "1:18 end"]
    );
    assert_eq!(
        games[7][..5].iter().map(show).collect::<Vec<_>>(),
        [
            "1:149 begin",
            "1:149 error BadTag ⟨[GreatestGameEverPlayed? \"True\"]⟩",
            "end_tags",
            "1:181 san <br",
            "1:185 san /><br"
        ]
    );
    assert!(matches!(games[7][games[7].len() - 2], Event::Result(ResultToken::Outcome(_), ..)));
}

// ---- Every data file ------------------------------------------------------------------

/// Games per data file. They equal python-chess 1.11.2's counts (in
/// shared/data/SOURCES.md) but where a comment says otherwise.
const GAME_COUNTS: [(&str, usize); 113] = [
    // `<br />` instead of newlines: one line, on which each tag is followed
    // by movetext (`<br`, `/>`), so each `[` starts a game: 7 games of a tag
    // each, and the 8th starts with the bad tag `[GreatestGameEverPlayed?
    // "True"]` and holds the moves. python-chess: 1.
    ("chess.js/0.pgn", 8),
    ("chess.js/1.pgn", 1),
    ("chess.js/2.pgn", 1),
    ("chess.js/3.pgn", 1),
    ("chess.js/benchmark.pgn", 100),
    // Three tag-and-movetext blocks, none with a result: each `[` after
    // movetext starts a game (as chessops reads it). python-chess: 2.
    ("chessops/headers-and-moves-on-the-same-line.pgn", 3),
    // Three tagged games, then a block with no tags after a blank line: a
    // game of its own. python-chess: 5 (it also reads the leading whitespace
    // before the first tag as an empty game).
    ("chessops/leading-whitespace.pgn", 4),
    ("chessops/pathological-headers.pgn", 1),
    ("notnil-chess/0001.pgn", 1),
    ("notnil-chess/0002.pgn", 1),
    ("notnil-chess/0003.pgn", 1),
    ("notnil-chess/0004.pgn", 1),
    ("notnil-chess/0005.pgn", 1),
    ("notnil-chess/0006.pgn", 5),
    ("notnil-chess/0007.pgn", 5),
    ("notnil-chess/0008.pgn", 1),
    ("notnil-chess/0009.pgn", 1),
    ("notnil-chess/0010.pgn", 1),
    ("notnil-chess/0011.pgn", 1),
    ("notnil-chess/0012.pgn", 1),
    ("notnil-chess/0013.pgn", 3),
    ("notnil-chess/0014.pgn", 5),
    ("notnil-chess/0015.pgn", 1),
    ("pychess/gamefiles/3fold.pgn", 2),
    ("pychess/gamefiles/50.pgn", 1),
    ("pychess/gamefiles/50halfmoves.pgn", 1),
    ("pychess/gamefiles/a.pgn", 1),
    // A comment line starts with `[clk 1:05:23 ]`: not a tag pair, so the
    // comment goes on (an unclosed comment ends only at a tag pair).
    ("pychess/gamefiles/annotated.pgn", 1),
    ("pychess/gamefiles/atomic.pgn", 10),
    ("pychess/gamefiles/b.pgn", 1),
    ("pychess/gamefiles/badpgn.pgn", 1),
    ("pychess/gamefiles/bilbao.pgn", 1),
    ("pychess/gamefiles/black.pgn", 1),
    ("pychess/gamefiles/c.pgn", 1),
    ("pychess/gamefiles/chess960rwch.pgn", 20),
    ("pychess/gamefiles/d.pgn", 1),
    ("pychess/gamefiles/dortmund.pgn", 347),
    ("pychess/gamefiles/draw.pgn", 1),
    ("pychess/gamefiles/e.pgn", 1),
    ("pychess/gamefiles/f.pgn", 1),
    ("pychess/gamefiles/fenSetup.pgn", 1),
    ("pychess/gamefiles/insufficient_material.pgn", 1),
    ("pychess/gamefiles/mate.pgn", 1),
    ("pychess/gamefiles/material.pgn", 1),
    ("pychess/gamefiles/promotion.pgn", 1),
    ("pychess/gamefiles/schess.pgn", 504),
    ("pychess/gamefiles/sittuyin.pgn", 3),
    ("pychess/gamefiles/threefold.pgn", 1),
    ("pychess/gamefiles/world_matches.pgn", 580),
    ("pychess/gamefiles/zh.pgn", 83),
    (
        "pychess/learn/lichess_study_2nd-part-game-puzzles-with-interactive-lessons_by_Francesco_Super_2018.01.03.pgn",
        16,
    ),
    ("pychess/learn/lichess_study_beautiful-checkmate-puzzles_by_thijscom_2018.04.16.pgn", 27),
    ("pychess/learn/lichess_study_beautiful-chess-studies-1_by_thijscom_2018.03.05.pgn", 64),
    ("pychess/learn/lichess_study_beautiful-chess-studies-2_by_thijscom_2018.04.17.pgn", 39),
    (
        "pychess/learn/lichess_study_beta-lichess-practice-7th-rank-rook-pawn-with-a-passive-rook_by_arex_2018.04.04.pgn",
        9,
    ),
    (
        "pychess/learn/lichess_study_beta-lichess-practice-checkmating-with-a-knight-and-bishop_by_arex_2017.08.02.pgn",
        13,
    ),
    ("pychess/learn/lichess_study_beta-lichess-practice-queen-vs-7th-rank-pawn_by_arex_2018.04.02.pgn", 18),
    ("pychess/learn/lichess_study_charles-xii-at-bender_by_gbtami_2016.08.15.pgn", 4),
    ("pychess/learn/lichess_study_game-puzzles-with-interactive-lessons_by_Francesco_Super_2017.08.27.pgn", 19),
    ("pychess/learn/lichess_study_lichess-practice-checkmate-patterns-i_by_arex_2017.01.22.pgn", 17),
    ("pychess/learn/lichess_study_lichess-practice-checkmate-patterns-ii_by_arex_2017.01.25.pgn", 24),
    ("pychess/learn/lichess_study_lichess-practice-checkmate-patterns-iii_by_arex_2017.01.27.pgn", 18),
    ("pychess/learn/lichess_study_lichess-practice-checkmate-patterns-iv_by_arex_2017.01.25.pgn", 16),
    ("pychess/learn/lichess_study_lichess-practice-discovered-attacks_by_arex_2017.01.30.pgn", 10),
    ("pychess/learn/lichess_study_lichess-practice-double-check_by_arex_2017.02.12.pgn", 6),
    ("pychess/learn/lichess_study_lichess-practice-greek-gift_by_arex_2017.02.11.pgn", 6),
    ("pychess/learn/lichess_study_lichess-practice-interference_by_arex_2017.02.11.pgn", 7),
    ("pychess/learn/lichess_study_lichess-practice-key-squares_by_arex_2017.01.21.pgn", 11),
    ("pychess/learn/lichess_study_lichess-practice-opposition_by_arex_2017.01.22.pgn", 8),
    ("pychess/learn/lichess_study_lichess-practice-overloaded-pieces_by_arex_2017.01.31.pgn", 11),
    ("pychess/learn/lichess_study_lichess-practice-piece-checkmates-i_by_arex_2017.01.25.pgn", 6),
    ("pychess/learn/lichess_study_lichess-practice-piece-checkmates-ii_by_arex_2017.01.25.pgn", 7),
    ("pychess/learn/lichess_study_lichess-practice-rook-endgames_by_TonyRo_2017.02.01.pgn", 5),
    // python-chess reads 18 games too, one of them with an IndexError.
    ("pychess/learn/lichess_study_lichess-practice-the-fork_by_arex_2017.01.29.pgn", 18),
    ("pychess/learn/lichess_study_lichess-practice-the-pin_by_arex_2017.01.22.pgn", 8),
    ("pychess/learn/lichess_study_lichess-practice-the-skewer_by_arex_2017.01.29.pgn", 9),
    ("pychess/learn/lichess_study_lichess-practice-zugzwang_by_arex_2017.02.01.pgn", 4),
    ("pychess/learn/lichess_study_lichess-practice-zwischenzug_by_arex_2017.02.02.pgn", 5),
    ("pychess/learn/mate_in_2.pgn", 166),
    ("pychess/learn/mate_in_3.pgn", 375),
    ("pychess/learn/mate_in_4.pgn", 373),
    ("python-chess/anastasian-lewis.pgn", 1),
    ("python-chess/antichess-programfox.pgn", 2),
    ("python-chess/chessbase-empty-line.pgn", 1),
    ("python-chess/cutechess-fischerrandom.pgn", 4),
    ("python-chess/kasparov-deep-blue-1997.pgn", 6),
    ("python-chess/knightvuillaume-jannlee-zh-lichess.pgn", 1),
    ("python-chess/molinari-bordais-1979.pgn", 1),
    ("python-chess/nepomniachtchi-liren-game1.pgn", 1),
    ("python-chess/saturs-jannlee-zh-lichess.pgn", 1),
    ("python-chess/stockfish-learning.pgn", 1),
    ("python-chess/uci-moves.pgn", 1),
    ("python-chess/utf8-bom.pgn", 2),
    // Header-only games, told apart by the Event tag repeated after a blank
    // line. python-chess: 1 (the whole file).
    ("scalachess/FWWRC.pgn", 605),
    ("scalachess/pgns.txt", 15),
    // Header-only games: the first block has the only Event tag, the others
    // start with Round, repeated after a blank line. python-chess: 1.
    ("scalachess/uzchesscup.pgn", 45),
    ("scalachess/wcc2023.txt", 3),
    ("shakmaty-bench/lichess_db_1000k.pgn", 438),
    ("shakmaty-bench/twic1599_1000k.pgn", 1110),
    ("stockfish-books/8moves_v3.pgn", 34_700),
    ("stockfish-books/bjbraams_chessdb_198350_lines.pgn", 198_350),
    ("tcec/TCEC_Cup_14_Final.pgn", 36),
    ("tcec/TCEC_Season_12_-_Superfinal.pgn", 100),
    ("tcec/TCEC_Season_13_-_Superfinal.pgn", 100),
    ("tcec/TCEC_Season_16_-_Frc_Sufi.pgn", 20),
    ("tcec/TCEC_Season_1_-_Elite-Match.pgn", 40),
    ("tcec/TCEC_Season_21_-_Frc4_Final.pgn", 50),
    ("tcec/TCEC_Season_22_-_Bonus_Dfrc_1_Final.pgn", 50),
    ("tcec/TCEC_Season_22_-_League_1.pgn", 112),
    ("tcec/TCEC_Season_24_-_Dfrc_2_League_1.pgn", 112),
    ("tcec/TCEC_Season_26_-_1s_Ultra_Bullet_Chess_Bonus.pgn", 100),
    ("tcec/TCEC_Season_28_-_Frd_4_League_A.pgn", 84),
    ("tcec/TCEC_Season_5_-_Superfinal.pgn", 48),
];

#[test]
fn game_counts_of_every_data_file() {
    let files = common::pgn_files();
    let listed: Vec<&str> = GAME_COUNTS.iter().map(|(name, _)| *name).collect();
    assert_eq!(files, listed, "the table lists every data file");
    for (name, games) in GAME_COUNTS {
        assert_eq!(count(&read(name)), games, "{name}");
    }
}

#[test]
fn chunks_read_like_the_whole_file() {
    for (name, games) in GAME_COUNTS {
        let data = read(name);
        // A target of 1, line by line, cuts at every cut point.
        let (chunks, read_games) = assert_chunks_read_alike(name, &data, &data[..], 1, Cuts::EveryLine);
        assert_eq!(read_games, games, "{name}");
        if name == "chess.js/0.pgn" {
            // One line: no cut point.
            assert_eq!(chunks, 1);
        } else {
            // The chunker finds a cut point before every game.
            assert!(chunks >= games, "{name}: {chunks} chunks, {games} games");
        }
        for cuts in [Cuts::Quick, Cuts::EveryLine] {
            let (_, read_games) = assert_chunks_read_alike(name, &data, &data[..], 1, cuts);
            assert_eq!(read_games, games, "{name}");
            let (chunks, _) = assert_chunks_read_alike(name, &data, &data[..], 64 * 1024, cuts);
            assert_eq!(chunks, data.len().div_ceil(64 * 1024).max(1).min(chunks), "{name}");
            if data.len() < 1_000_000 {
                assert_chunks_read_alike(name, &data, Trickle { data: &data, calls: 0 }, 1, cuts);
                assert_chunks_read_alike(name, &data, Trickle { data: &data, calls: 0 }, 1000, cuts);
            }
        }
    }
}

#[test]
fn chunk_sizes_follow_the_target() {
    let data = read("shakmaty-bench/twic1599_1000k.pgn");
    let mut chunker = Chunker::with_target(&data[..], 100_000);
    let mut sizes = Vec::new();
    let mut buffer = Vec::new();
    while let Some(chunk) = chunker.next_chunk(buffer).expect("reading from memory") {
        sizes.push(chunk.data.len());
        buffer = chunk.data;
    }
    assert_eq!(sizes.iter().sum::<usize>(), data.len());
    let (last, full) = sizes.split_last().expect("chunks");
    // At least the target, and cut at the first cut point after it: a game
    // of this file is less than 3 KB.
    assert!(full.iter().all(|&size| (100_000..103_000).contains(&size)), "{sizes:?}");
    assert!(*last <= 103_000);
    assert_eq!(sizes.len(), 10);
}

#[test]
fn chunker_edge_cases() {
    fn chunks(data: &[u8], target: usize) -> Vec<(String, Location)> {
        chunks_with(data, target, Cuts::EveryLine)
    }
    fn chunks_with(data: &[u8], target: usize, cuts: Cuts) -> Vec<(String, Location)> {
        let mut chunker = chunker(data, target, cuts);
        let mut out = Vec::new();
        while let Some(chunk) = chunker.next_chunk(Vec::new()).expect("reading from memory") {
            out.push((text(&chunk.data), chunk.start));
        }
        out
    }
    assert!(chunks(b"", 1).is_empty());
    assert!(chunks(b"\xef\xbb\xbf", 1).is_empty());
    assert_eq!(chunks(b"\n\n", 1), [("\n\n".to_owned(), loc(1, 1, 0))]);
    // The byte order mark is not in the data, but counts in the offsets.
    assert_eq!(
        chunks(b"\xef\xbb\xbf[A \"1\"]\ne4 *\n[A \"2\"]\n", 1),
        [("[A \"1\"]\ne4 *\n".to_owned(), loc(1, 4, 3)), ("[A \"2\"]\n".to_owned(), loc(3, 1, 16))]
    );
    // The cut points: after a result line, at a tag after movetext, at a
    // repeated tag after a blank line, at a tag that ends an unclosed comment.
    assert_eq!(
        chunks(b"e4 1-0\n e5\n[A \"1\"]\n\n[A \"2\"]\n{x\n[B \"3\"]\n", 1),
        [
            ("e4 1-0\n".to_owned(), loc(1, 1, 0)),
            (" e5\n".to_owned(), loc(2, 1, 7)),
            ("[A \"1\"]\n\n".to_owned(), loc(3, 1, 11)),
            ("[A \"2\"]\n{x\n".to_owned(), loc(5, 1, 20)),
            ("[B \"3\"]\n".to_owned(), loc(7, 1, 31)),
        ]
    );
    // Quick cut points: a line that starts with a tag pair, after a line
    // (blank lines aside) that is no escape line and holds no `[`.
    assert_eq!(
        chunks_with(b"e4 1-0\n e5\n[A \"1\"]\n\n[A \"2\"]\n{x\n[B \"3\"]\n", 1, Cuts::Quick),
        [
            ("e4 1-0\n e5\n".to_owned(), loc(1, 1, 0)),
            ("[A \"1\"]\n\n[A \"2\"]\n{x\n".to_owned(), loc(3, 1, 11)),
            ("[B \"3\"]\n".to_owned(), loc(7, 1, 31)),
        ]
    );
    assert_eq!(
        chunks_with(b"e4 *\n\n\n[A \"1\"]\n%x\n[B \"2\"]\ne4 [C \"3\"]\n[D \"4\"]\n{\n\n[E \"5\"]\n", 1, Cuts::Quick),
        [
            ("e4 *\n\n\n".to_owned(), loc(1, 1, 0)),
            ("[A \"1\"]\n%x\n[B \"2\"]\ne4 [C \"3\"]\n[D \"4\"]\n{\n\n".to_owned(), loc(4, 1, 7)),
            ("[E \"5\"]\n".to_owned(), loc(11, 1, 48))
        ]
    );
    // Not cut points: a result followed by more on its line, a result in a
    // comment or a tag, a tag in a comment, a tag after tags.
    for pgn in [
        &b"e4 1-0 {c}\n x\n"[..],
        b"e4 1-0 e5\n x\n",
        b"e4 1-0 ;\n x\n",
        b"[A \"1\"]\n[B \"2\"]\n",
        b"[A \"1 0-1\"]\n[B \"2\"]\n",
        b"e4 {0-1\n[2 \"x\"]\n}",
        b"e4 {\n0-1\n[ \"x\"]\n}",
        b"[A \"1\"]\n\n[B \"2\"]\n",
        b"[A \"1\"]\n[A \"2\"]\n",
        b"[A \"1\" ; \n\n[A \"2\"]\n",
        b"e4 $1-0\nx\n",
        b"%e4 1-0\nx\n",
    ] {
        for cuts in [Cuts::Quick, Cuts::EveryLine] {
            assert_eq!(chunks_with(pgn, 1, cuts).len(), 1, "{}", text(pgn));
            assert_chunks_read_alike(&text(pgn), pgn, pgn, 1, cuts);
        }
    }
    // A result after a move number too big for any game still ends it, as
    // the reader reads it: the comment on the next line is the next game's.
    for pgn in
        [&b"e4 1234567890.1-0\n;\n\nb\n"[..], b"e4 99999999999999999999...*\n;\n\nb\n", b"e4 12345678901.e5*\n;\n\nb\n"]
    {
        for cuts in [Cuts::Quick, Cuts::EveryLine] {
            assert_chunks_read_alike(&text(pgn), pgn, pgn, 1, cuts);
        }
    }
}

/// Pieces of PGN, well and badly formed, to build inputs from.
const FRAGMENTS: [&str; 45] = [
    "[Event \"A\"]",
    "[Event \"B\"]",
    "[Site \"x\"]",
    "[A \"b\\\"]\"]",
    "[bad",
    "[C \"open",
    "[x \"{\"]",
    "]",
    "\"",
    "\n",
    "\n",
    "\n",
    "\r\n",
    "\n\n",
    " ",
    " ",
    "\t",
    "\r",
    "{",
    "}",
    "{c}",
    "{\n",
    "; c",
    ";",
    "%",
    "%e",
    "(",
    ")",
    "1.",
    "1",
    "98765432109.",
    "...",
    "e4",
    "Nf3",
    "$",
    "$1",
    "!?",
    "1-0",
    "0-1",
    "1/2-1/2",
    "½–½",
    "*",
    "\u{1}",
    "\u{feff}",
    "[Event ",
];

#[test]
fn chunks_read_like_the_whole_of_generated_inputs() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

    let config = Config { cases: 20_000, failure_persistence: None, ..Config::default() };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let input =
        proptest::collection::vec(proptest::sample::select(&FRAGMENTS[..]), 0..40).prop_map(|parts| parts.concat());
    runner
        .run(&input, |pgn| {
            let data = pgn.as_bytes();
            for cuts in [Cuts::Quick, Cuts::EveryLine] {
                for target in [1, 5, 30] {
                    assert_chunks_read_alike(&pgn, data, data, target, cuts);
                }
                assert_chunks_read_alike(&pgn, data, Trickle { data, calls: 0 }, 1, cuts);
            }
            Ok(())
        })
        .expect("chunks read like the whole input");
}

// ---- Games as values -------------------------------------------------------------------

/// `pgn::read_games`: the tree, the comment commands, the findings; the
/// games written back and read again; agreement with python-chess.
mod games_as_values {
    use std::time::Duration;

    use sanfen::pgn::commands::{Command, Score};
    use sanfen::pgn::{Game, Line, ReadError, ResultToken, read_games, read_games_from_slice};
    use serde_json::Value;

    use super::common;

    /// A line as text: each move's SAN, NAGs, comments and variations.
    fn line_text(line: &Line) -> String {
        let mut parts: Vec<String> = line.comments.iter().map(|c| format!("{{{}}}", c.text())).collect();
        parts.extend(line.nags.iter().map(|nag| format!("${nag}")));
        for node in &line.moves {
            parts.push(format!("{}:{}{}", node.ply, node.san, if node.side.is_white() { "w" } else { "b" }));
            parts.extend(node.nags.iter().map(|nag| format!("${nag}")));
            parts.extend(node.comments.iter().map(|c| format!("{{{}}}", c.text())));
            parts.extend(node.variations.iter().map(|v| format!("({})", line_text(v))));
        }
        parts.join(" ")
    }

    fn one(pgn: &str) -> Game {
        Game::from_pgn(pgn).unwrap_or_else(|err| panic!("{pgn:?}: {err}"))
    }

    /// The text before a chunk's first game is that game's, read in chunks
    /// as read whole: its findings come first and count in the game's cap
    /// of listed findings. Regression (found by fuzzing `check`): read in
    /// chunks, a game with a full list got them on top, 1001 listed.
    #[test]
    fn findings_before_a_chunk_s_first_game_count_in_its_cap() {
        // the first game fills a chunk (64 KB), the escape line after it
        // is the second game's, which has 1500 white null moves without
        // their move numbers: more findings than are listed
        let long = format!("[Event \"A\"]\n\n1. e4 {{{}}} *\n\n; between\n", "x".repeat(70_000));
        let input = format!("{long}[Event \"B\"]\n\n1. e4 e5 {}*\n", "-- ".repeat(3000));
        let whole = read_games_from_slice(input.as_bytes());
        let chunked: Vec<Game> = read_games(input.as_bytes()).map(Result::unwrap).collect();
        assert_eq!(chunked.len(), 2);
        let (whole, chunked) = (&whole[1].report, &chunked[1].report);
        let counts =
            |report: &sanfen::pgn::validate::GameReport| (report.findings.len(), report.unlisted, report.lints);
        assert_eq!(counts(whole), (1000, 3502, 4502));
        assert_eq!(counts(chunked), counts(whole));
        assert!(chunked == whole, "the same findings");
        assert_eq!(whole.findings[0].kind.code(), "pgn:text-between-games");
    }

    #[test]
    fn tree_of_variations_comments_and_nags() {
        let game = one("[Event \"E\"]\n\n{start} $10 1. e4 {a} (1. d4 {b} d5 (1... Nf6 2. c4) {c} 2. c4) {d} \
             1... e5!? $14 2. Nf3 ( {s} 2. f4 ) 2... Nc6 *\n");
        assert_eq!(
            line_text(&game.mainline),
            "{start} $10 1:e4w {a} {d} (1:d4w {b} 2:d5b {c} (2:Nf6b 3:c4w) 3:c4w) 2:e5b $5 $14 3:Nf3w \
             ({s} 3:f4w) 4:Nc6b"
        );
        let e4 = &game.mainline.moves[0];
        assert_eq!((e4.number, e4.uci_text(), e4.written.as_str()), (1, "e2e4".to_owned(), "e4"));
        assert_eq!((e4.at.line, e4.at.column), (3, 16));
        assert_eq!(game.tags.len(), 1);
        assert_eq!((game.tags[0].name.as_str(), game.tags[0].value.as_str()), ("Event", "E"));
        assert_eq!(game.result, Some(ResultToken::Unknown));
        assert_eq!(
            game.start.as_ref().map(|p| p.fen().to_string()),
            Some(sanfen::Position::default().fen().to_string())
        );
        // python-chess's layout, with the comment after a variation before it
        assert_eq!(
            game.to_pgn(),
            "[Event \"E\"]\n\n{start} $10 1. e4 {a} {d} (1. d4 {b} 1... d5 {c} (1... Nf6 2. c4) 2. c4) 1... e5\n\
             $5 $14 2. Nf3 ({s} 2. f4) 2... Nc6 *\n"
        );
    }

    #[test]
    fn moves_in_any_spelling_get_their_canonical_san() {
        let game =
            one("1. Ng1f3 d5 2. g3 Nc6 3. Bg2 e5 4. 0-0 e4 5. Nh4 g5 6. d3 gxh4 7. dxe4 dxe4 8. Bxe4 Qxd1 9. Rd1 *");
        let sans: Vec<String> = game.mainline.moves.iter().map(|n| n.san.to_string()).collect();
        let written: Vec<&str> = game.mainline.moves.iter().map(|n| n.written.as_str()).collect();
        assert_eq!(
            sans,
            [
                "Nf3", "d5", "g3", "Nc6", "Bg2", "e5", "O-O", "e4", "Nh4", "g5", "d3", "gxh4", "dxe4", "dxe4", "Bxe4",
                "Qxd1", "Rxd1"
            ]
        );
        assert_eq!(written[0], "Ng1f3");
        assert_eq!(written[6], "0-0");
        assert_eq!(written[16], "Rd1");
        let uci: Vec<String> = game.mainline.moves.iter().map(|n| n.uci_text()).collect();
        assert_eq!((uci[6].as_str(), uci[16].as_str()), ("e1g1", "f1d1"));
    }

    #[test]
    fn clocks_evaluations_and_marks_of_a_lichess_game() {
        let pgn = "[Event \"Rated\"]\n[Result \"0-1\"]\n\n\
                   1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%eval 0.2] [%clk 0:02:59.5] } \
                   2. Qh5?? { [%eval -1.5,24] [%emt 0:00:12] [%csl Rh5][%cal Gd8h4] Blunder. } \
                   2... Qg5 { [%eval #-3] [%clk 0:02:50] [%unknown x y] [%clk later] } 0-1\n";
        let game = one(pgn);
        let moves = &game.mainline.moves;
        let clocks: Vec<Option<Duration>> = moves.iter().map(|n| n.clock()).collect();
        assert_eq!(
            clocks,
            [
                Some(Duration::from_secs(180)),
                Some(Duration::from_millis(179_500)),
                None,
                Some(Duration::from_secs(170))
            ]
        );
        let evals: Vec<Option<(Score, Option<u32>)>> =
            moves.iter().map(|n| n.eval().map(|e| (e.score, e.depth))).collect();
        assert_eq!(
            evals,
            [
                Some((Score::Centipawns(17), None)),
                Some((Score::Centipawns(20), None)),
                Some((Score::Centipawns(-150), Some(24))),
                Some((Score::Mate(-3), None)),
            ]
        );
        assert_eq!(moves[2].elapsed(), Some(Duration::from_secs(12)));
        assert_eq!(moves[2].nags, [4]);
        let comment = &moves[2].comments[0];
        assert_eq!(comment.prose(), "Blunder.");
        assert_eq!(
            comment.commands().iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["[%eval -1.50,24]", "[%emt 0:00:12]", "[%csl Rh5]", "[%cal Gd8h4]"]
        );
        let last = &moves[3].comments[0];
        assert_eq!(last.commands()[2], Command::Other { name: "unknown".into(), args: "x y".into() });
        assert_eq!(last.prose(), "[%clk later]");
        assert_eq!(game.result, Some(ResultToken::Outcome(sanfen::Outcome::Decisive { winner: sanfen::Color::Black })));
        // the comments are written back as they were, commands and all
        assert_eq!(
            game.to_pgn(),
            "[Event \"Rated\"]\n[Result \"0-1\"]\n\n\
             1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%eval 0.2] [%clk 0:02:59.5] }\n\
             2. Qh5 $4 { [%eval -1.5,24] [%emt 0:00:12] [%csl Rh5][%cal Gd8h4] Blunder. }\n\
             2... Qg5 { [%eval #-3] [%clk 0:02:50] [%unknown x y] [%clk later] } 0-1\n"
        );
    }

    #[test]
    fn a_game_with_an_illegal_move_keeps_the_moves_before_it() {
        let game = one("1. e4 e5 2. Ke3 (2. Nf3 Nc6) 2... Nc6 3. Nf3 {x} *\n");
        assert_eq!(line_text(&game.mainline), "1:e4w 2:e5b");
        assert_eq!(game.report.errors, 1);
        let finding = game.report.findings.iter().find(|f| f.kind.code() == "san:illegal").unwrap();
        assert_eq!((finding.at.line, finding.at.column), (1, 13));
        assert_eq!(finding.token, "Ke3");
        // the variation that replaces the bad move is played by the
        // validator but hangs from no move of the tree
        assert_eq!(game.report.moves, 4);
        // an illegal move in a variation: the mainline goes on
        let game = one("1. e4 (1. d4 d5 2. Qxd5 c6) 1... e5 *\n");
        assert_eq!(line_text(&game.mainline), "1:e4w (1:d4w 2:d5b) 2:e5b");
        assert_eq!(game.report.errors, 1);
        assert_eq!(game.to_pgn(), "1. e4 (1. d4 d5) 1... e5 *\n");
    }

    #[test]
    fn starting_positions_null_moves_and_chess960_castling() {
        let game =
            one("[Variant \"Chess960\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/5N2/PPPPBPPP/RNBQK2R w KQkq - 0 9\"]\n\n\
             9. g3 -- 10. O-O *\n");
        let moves = &game.mainline.moves;
        assert_eq!(moves.iter().map(|n| n.uci_text()).collect::<Vec<_>>(), ["g2g3", "0000", "e1h1"]);
        assert_eq!((moves[1].played, moves[1].san.to_string()), (None, "--".to_owned()));
        assert_eq!((moves[2].number, moves[2].side), (10, sanfen::Color::White));
        assert_eq!(game.start.as_ref().map(|p| p.castling_mode()), Some(sanfen::CastlingMode::Chess960));
        // a variant sanfen does not play: no start, no moves, the report says why
        let game = one("[Variant \"Atomic\"]\n\n1. e4 d5 *\n");
        assert_eq!((game.start.is_none(), game.mainline.moves.len()), (true, 0));
        assert_eq!(game.report.skipped.as_deref(), Some("Atomic"));
    }

    #[test]
    fn text_outside_the_moves_is_kept_where_it_is() {
        let pgn = "{before the first game}\n\n[Event \"A\"]\n\n1. e4 1-0 {after the marker}\n\n\
                   {between}\n% an escape line\n\n[Event \"B\"]\n\n1. d4 *\n\n{at the end}\n";
        let games = read_games_from_slice(pgn.as_bytes());
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].before, ["{before the first game}"]);
        assert_eq!(games[0].after_result, ["{after the marker}"]);
        assert_eq!(games[1].before, ["{between}", "% an escape line"]);
        assert_eq!(games[1].after, ["{at the end}"]);
        let between = |game: &Game| {
            let findings = game.report.findings.iter().filter(|f| f.kind.code() == "pgn:text-between-games");
            findings.map(|f| (f.at.line, f.token.clone())).collect::<Vec<_>>()
        };
        assert_eq!(between(&games[0]), [(1, "{before the first game}".to_owned())]);
        assert_eq!(
            between(&games[1]),
            [(7, "{between}".to_owned()), (8, "% an escape line".to_owned()), (14, "{at the end}".to_owned())]
        );
        let streamed: Vec<Game> = read_games(pgn.as_bytes()).collect::<Result<_, _>>().unwrap();
        assert_eq!(streamed, games);
        let written: String = games.iter().map(Game::to_pgn).collect::<Vec<_>>().join("\n");
        assert_eq!(
            written,
            "{before the first game}\n\n[Event \"A\"]\n\n1. e4 1-0 {after the marker}\n\n\
             {between}\n% an escape line\n\n[Event \"B\"]\n\n1. d4 *\n\n{at the end}\n"
        );
    }

    #[test]
    fn a_read_error_ends_the_games() {
        struct Failing(&'static [u8]);
        impl std::io::Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.0.is_empty() {
                    return Err(std::io::Error::other("disk on fire"));
                }
                let n = buf.len().min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let items: Vec<Result<Game, ReadError>> = read_games(Failing(b"1. e4 *\n\n1. d4 *\n")).collect();
        assert_eq!(items.len(), 3);
        assert_eq!(items[1].as_ref().map(|g| g.mainline.moves[0].san.to_string()), Ok("d4".to_owned()));
        assert_eq!(
            items[2],
            Err(ReadError::Io { kind: std::io::ErrorKind::Other, message: "disk on fire".to_owned() })
        );
    }

    #[test]
    fn a_game_larger_than_the_limit_is_an_error_and_reading_goes_on() {
        let mut pgn = b"[Event \"A\"]\n\n1. e4 *\n\n[Event \"Big\"]\n\n1. e4 ".to_vec();
        let comment = format!("{{{}}} ", "x".repeat(1000));
        while pgn.len() < 9 << 20 {
            pgn.extend_from_slice(comment.as_bytes());
        }
        pgn.extend_from_slice(b"*\n\n[Event \"C\"]\n\n1. d4 *\n");
        let items: Vec<Result<Game, ReadError>> = read_games(&pgn[..]).collect();
        assert_eq!(items.len(), 3);
        assert!(matches!(&items[1], Err(ReadError::TooLarge { at, .. }) if at.line == 5), "{:?}", items[1]);
        assert_eq!(items[2].as_ref().map(|g| g.tag("Event").map(str::to_owned)), Ok(Some("C".to_owned())));
    }

    /// What a game is, locations and findings aside: what writing it keeps.
    fn meaning(game: &Game) -> String {
        let tags: Vec<String> = game.tags.iter().map(|t| format!("{}={}", t.name, t.value)).collect();
        format!(
            "{:?}|{:?}|{:?}|{:?}|{}|{:?}|{:?}|{:?}",
            game.before,
            tags,
            game.escapes,
            game.start.as_ref().map(|p| p.fen().to_string()),
            line_text(&game.mainline),
            game.result.unwrap_or(ResultToken::Unknown),
            game.after_result,
            game.after,
        )
    }

    /// Every game of every data file, written and read again, is the same
    /// game; reading by stream and by slice give the same games.
    #[test]
    fn comments_among_the_tags_are_kept_and_written_back_among_them() {
        let game = one("[Event \"A\"]\n; note\n[Site \"x\"]\n; last\n[Round \"1\"]\n\n1. e4 *\n");
        assert_eq!(game.tag_comments, [(1, "; note".to_owned()), (2, "; last".to_owned())]);
        assert_eq!(game.to_pgn(), "[Event \"A\"]\n; note\n[Site \"x\"]\n; last\n[Round \"1\"]\n\n1. e4 *\n");
        // one after the last tag is written before it, where it stays among the tags
        let mut more = game.clone();
        more.tag_comments.push((3, "; after Round".to_owned()));
        let text = more.to_pgn();
        assert_eq!(text, "[Event \"A\"]\n; note\n[Site \"x\"]\n; last\n; after Round\n[Round \"1\"]\n\n1. e4 *\n");
        assert_eq!(
            one(&text).tag_comments,
            [(1, "; note".to_owned()), (2, "; last".to_owned()), (2, "; after Round".to_owned())]
        );
    }

    #[test]
    fn every_data_file_round_trips_through_to_pgn() {
        let mut games = 0;
        for name in common::pgn_files() {
            let path = common::pgn_root().join(&name);
            let data = std::fs::read(&path).unwrap();
            let whole = read_games_from_slice(&data);
            let streamed: Vec<Game> = read_games(std::fs::File::open(&path).unwrap())
                .collect::<Result<_, _>>()
                .unwrap_or_else(|err| panic!("{name}: {err}"));
            assert_eq!(streamed.len(), whole.len(), "{name}");
            for (i, (game, other)) in whole.iter().zip(&streamed).enumerate() {
                assert!(game == other, "{name}: game {} streamed differs", i + 1);
                let text = game.to_pgn();
                let again = Game::from_pgn(&text).unwrap_or_else(|err| panic!("{name}: game {}: {err}\n{text}", i + 1));
                assert_eq!(meaning(&again), meaning(game), "{name}: game {}\n{text}", i + 1);
                assert_eq!(again.to_pgn(), text, "{name}: game {}", i + 1);
            }
            games += whole.len();
        }
        assert!(games > 20_000, "{games}");
    }

    /// Mutated data files (bytes replaced by PGN's delimiters, cut short)
    /// read without a panic, alike by stream and by slice, and every game
    /// written reads as one game that writes the same text again.
    #[test]
    fn mutated_games_read_and_write_back() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let alphabet = b"{}()[];%$!?\"\n\r 10-*.#+=xO";
        for name in ["python-chess/kasparov-deep-blue-1997.pgn", "pychess/gamefiles/annotated.pgn", "chess.js/1.pgn"] {
            let data = std::fs::read(common::pgn_root().join(name)).unwrap();
            for round in 0..300 {
                let mut input = data.clone();
                for _ in 0..1 + next() % 4 {
                    let at = (next() % input.len() as u64) as usize;
                    input[at] = alphabet[(next() % alphabet.len() as u64) as usize];
                }
                input.truncate(input.len() - (next() % 64) as usize);
                let whole = read_games_from_slice(&input);
                let streamed: Vec<Game> = read_games(&input[..]).collect::<Result<_, _>>().unwrap();
                assert!(whole == streamed, "{name} round {round}");
                for game in &whole {
                    let text = game.to_pgn();
                    let again =
                        Game::from_pgn(&text).unwrap_or_else(|err| panic!("{name} round {round}: {err}\n{text}"));
                    assert_eq!(meaning(&again), meaning(game), "{name} round {round}\n{text}");
                    assert_eq!(again.to_pgn(), text, "{name} round {round}");
                }
            }
        }
    }

    // ---- python-chess ----

    /// Games compared per file larger than [`BIG_FILE`] bytes: the first ones
    /// only (python-chess reads a few thousand games a second; the whole of
    /// the large files would take minutes).
    const FIRST_GAMES: usize = 300;
    const BIG_FILE: u64 = 1 << 20;

    /// python-chess's games of a file (at most `limit`), or why it does not
    /// read the file cleanly.
    fn python_games(path: &std::path::Path, limit: Option<usize>) -> Result<Vec<Value>, String> {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/read_games.py");
        let mut command = std::process::Command::new("python3");
        command.arg(script).arg(path);
        if let Some(limit) = limit {
            command.arg(limit.to_string());
        }
        let output = command.output().expect("python3 runs");
        assert!(
            output.status.success(),
            "tests/python/read_games.py failed; it needs python-chess: `python3 -m pip install chess==1.11.2`\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let mut games = Vec::new();
        for line in String::from_utf8(output.stdout).unwrap().lines() {
            let value: Value = serde_json::from_str(line).unwrap();
            if let Some(why) = value.get("unclean") {
                return Err(why.to_string());
            }
            if value["errors"].as_u64() != Some(0) {
                return Err(format!("game {}: python-chess errors", games.len() + 1));
            }
            games.push(value);
        }
        Ok(games)
    }

    /// A comment as python-chess keeps it: one space after `{` and one
    /// before `}` dropped; the comments of a move joined with a space;
    /// `;` comments are not read.
    fn python_comment(texts: &[String]) -> String {
        let parts: Vec<&str> = texts
            .iter()
            .map(|text| {
                let text = text.strip_prefix(' ').unwrap_or(text);
                text.strip_suffix(' ').unwrap_or(text)
            })
            .filter(|text| !text.is_empty())
            .collect();
        parts.join(" ")
    }

    /// The variations that replace a move as python-chess holds them: those
    /// of its first move after each (a variation inside a variation, before
    /// its second move, replaces the same move).
    fn alternatives(node: &sanfen::pgn::Node) -> Vec<&Line> {
        let mut out = Vec::new();
        for variation in &node.variations {
            out.push(variation);
            if let Some(first) = variation.moves.first() {
                out.extend(alternatives(first));
            }
        }
        out
    }

    /// Compares a line with python-chess's (see tests/python/read_games.py);
    /// `variation`: whether it is a variation (the comments before its first
    /// move are then that move's starting comment).
    fn compare_line(line: &Line, variation: bool, theirs: &Value, at: &str) {
        let theirs = theirs.as_array().unwrap();
        let uci: Vec<String> = line.moves.iter().map(|n| n.uci_text()).collect();
        let their_uci: Vec<&str> = theirs.iter().map(|m| m[0].as_str().unwrap()).collect();
        assert_eq!(uci, their_uci, "{at}: moves");
        for (i, (node, m)) in line.moves.iter().zip(theirs).enumerate() {
            let at = format!("{at}, {}{} {}", node.number, if node.side.is_white() { "." } else { "..." }, node.san);
            let texts: Vec<String> = node.comments.iter().map(|c| c.text().to_owned()).collect();
            assert_eq!(python_comment(&texts), m[1].as_str().unwrap(), "{at}: comment");
            let mut nags = node.nags.clone();
            nags.sort_unstable();
            nags.dedup();
            let their_nags: Vec<u8> = m[2].as_array().unwrap().iter().map(|n| n.as_u64().unwrap() as u8).collect();
            assert_eq!(nags, their_nags, "{at}: NAGs");
            match (node.clock(), m[3].as_f64()) {
                (None, None) => {}
                (Some(ours), Some(theirs)) => {
                    assert!((ours.as_secs_f64() - theirs).abs() < 1e-6, "{at}: clock {ours:?} {theirs}")
                }
                (ours, _) => panic!("{at}: clock {ours:?} {}", m[3]),
            }
            let eval = node.eval().map(|e| match e.score {
                Score::Centipawns(cp) => ("cp", cp),
                Score::Mate(n) => ("mate", i64::from(n)),
            });
            let their_eval = m[4].as_array().map(|e| (e[0].as_str().unwrap(), e[1].as_i64().unwrap()));
            assert_eq!(eval, their_eval, "{at}: eval");
            let first_of_variation = variation && i == 0;
            let starting = if first_of_variation {
                let texts: Vec<String> = line.comments.iter().map(|c| c.text().to_owned()).collect();
                python_comment(&texts)
            } else {
                String::new()
            };
            assert_eq!(starting, m[5].as_str().unwrap(), "{at}: starting comment");
            // the variations of a variation's first move are among the
            // alternatives of the move it replaces
            let ours = if first_of_variation { Vec::new() } else { alternatives(node) };
            let theirs = m[6].as_array().unwrap();
            assert_eq!(ours.len(), theirs.len(), "{at}: variations");
            for (k, (ours, theirs)) in ours.into_iter().zip(theirs).enumerate() {
                compare_line(ours, true, theirs, &format!("{at}, variation {}", k + 1));
            }
        }
    }

    /// What comparing a file gave.
    #[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
    enum Compared {
        /// This many games compared, all alike.
        Games(usize),
        /// python-chess does not read the file cleanly: why.
        Unclean(String),
        /// The readers cut the file into different numbers of games: ours, theirs.
        Split(usize, usize),
    }

    /// Compares one file (any difference but the number of games panics).
    fn compare_with_python(name: &str) -> Compared {
        let path = common::pgn_root().join(name);
        let big = std::fs::metadata(&path).unwrap().len() > BIG_FILE;
        let limit = big.then_some(FIRST_GAMES);
        let theirs = match python_games(&path, limit) {
            Ok(theirs) => theirs,
            Err(why) => return Compared::Unclean(why),
        };
        let ours: Vec<Game> = read_games(std::fs::File::open(&path).unwrap())
            .take(limit.unwrap_or(usize::MAX))
            .map(Result::unwrap)
            .collect();
        if ours.len() != theirs.len() {
            return Compared::Split(ours.len(), theirs.len());
        }
        let mut compared = 0;
        for (i, (game, their)) in ours.iter().zip(&theirs).enumerate() {
            let at = format!("{name}: game {}", i + 1);
            if game.report.skipped.is_some() {
                // a variant sanfen does not play
                assert_ne!(their["variant"], "chess", "{at}");
                continue;
            }
            let texts: Vec<String> = game.mainline.comments.iter().map(|c| c.text().to_owned()).collect();
            assert_eq!(python_comment(&texts), their["comment"].as_str().unwrap(), "{at}: comment before the moves");
            compare_line(&game.mainline, false, &their["moves"], &at);
            compared += 1;
        }
        Compared::Games(compared)
    }

    /// `read_games` agrees with python-chess on every data file python-chess
    /// reads cleanly (UTF-8, no `game.errors`, no exception): the same
    /// number of games, and per game the same moves (UCI) in the mainline
    /// and every variation, and per move the same comments, NAGs,
    /// `node.clock()` and `node.eval()`. Files over
    /// 1 MiB are compared on their first 300 games. Games of variants
    /// sanfen does not play are counted, not compared. The files python-chess
    /// does not read cleanly, and those the two readers cut into different
    /// games (PGN layouts the reader's own tests pin), are listed.
    #[test]
    fn agrees_with_python_chess() {
        let files = common::pgn_files();
        let next = std::sync::atomic::AtomicUsize::new(0);
        let results = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(name) = files.get(i) else { break };
                        let result = compare_with_python(name);
                        results.lock().unwrap().push((name.clone(), result));
                    }
                });
            }
        });
        let mut results = results.into_inner().unwrap();
        results.sort();
        let mut compared = 0;
        let mut split = Vec::new();
        let mut unclean = Vec::new();
        for (name, result) in &results {
            match result {
                Compared::Games(games) => compared += games,
                Compared::Split(ours, theirs) => split.push(format!("{name}: {ours} {theirs}")),
                Compared::Unclean(why) => unclean.push(format!("{name}: {why}")),
            }
        }
        // files the readers cut differently, each read as its own tests say
        assert_eq!(
            split,
            [
                // `<br />` line breaks are tokens (`html_line_breaks_are_tokens`);
                // python-chess reads the first line as tags
                "chess.js/0.pgn: 8 1",
                // a tag line with moves after it (`chessops_tag_and_movetext_layouts`)
                "chessops/headers-and-moves-on-the-same-line.pgn: 3 2",
                "chessops/leading-whitespace.pgn: 4 5",
                // games of tags alone (`header_only_files`), which python-chess
                // reads as one game
                "scalachess/FWWRC.pgn: 605 1",
                "scalachess/uzchesscup.pgn: 45 1",
            ]
        );
        assert_eq!(
            unclean,
            [
                "pychess/gamefiles/dortmund.pgn: \"not UTF-8\"",
                "pychess/gamefiles/schess.pgn: \"python-chess raised ValueError: unsupported variant: Seirawan\"",
                "pychess/gamefiles/sittuyin.pgn: \"python-chess raised ValueError: unsupported variant: sittuyin\"",
                "pychess/learn/lichess_study_lichess-practice-greek-gift_by_arex_2017.02.11.pgn: game 1: python-chess errors",
                "pychess/learn/lichess_study_lichess-practice-the-fork_by_arex_2017.01.29.pgn: \"python-chess raised IndexError: list index out of range\"",
                "pychess/learn/mate_in_2.pgn: \"not UTF-8\"",
            ]
        );
        assert!(compared >= 4_900, "{compared} games compared");
    }
}
