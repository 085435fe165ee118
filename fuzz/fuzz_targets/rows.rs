//! Fuzz target `rows`: move rows (`sanfen::pgn::rows`) for any input
//! (raw bytes, or, when the first byte is 0, a structured PGN rendered from
//! the rest: see `common/structured.rs`):
//!
//! - reading never panics;
//! - the rows are the mainline moves of the games `read_games_from_slice`
//!   builds: the same games, numbers, plies, SAN, UCI, clocks, elapsed
//!   times, evaluations, NAGs and comments' prose;
//! - the input cut into chunks by the `Chunker` (small targets, with the
//!   quick search and line by line), each chunk's rows read on their own and
//!   numbered on, gives exactly the rows of the input read as one chunk;
//! - with variations, the rows read from the chunks are those
//!   `MoveRows::push_game` gives for the games built whole;
//! - read in parts of a few bytes (`MoveRows::read_chunk_in_parts`), the
//!   parts' rows one after another are the rows read whole;
//! - the games read for a games table (`read_game_facts_input`) are those
//!   games without their moves, each with the facts (plies, end, opening)
//!   of the whole game.

#![no_main]

#[path = "common/structured.rs"]
mod structured;

use libfuzzer_sys::fuzz_target;
use sanfen::pgn::game::{GameFacts, Line, read_game_facts_input};
use sanfen::pgn::input::Input;
use sanfen::pgn::rows::{MoveRowOptions, MoveRows};
use sanfen::pgn::{Chunker, Game, read_games_from_slice};

fuzz_target!(|data: &[u8]| {
    let input = structured::input(data);
    check(&input);
});

/// Every row as text, in order.
fn lines(rows: &[MoveRows]) -> Vec<String> {
    rows.iter().flat_map(|rows| rows.rows().map(|row| format!("{row:?}"))).collect()
}

/// The rows of `input` in chunks of at least `target` bytes; `None` when a
/// game is too large to read.
fn chunked(input: &[u8], target: usize, line_by_line: bool, options: MoveRowOptions) -> Option<Vec<MoveRows>> {
    let chunker = Chunker::with_target(input, target);
    let mut chunker = if line_by_line { chunker.line_by_line() } else { chunker };
    let mut out = Vec::new();
    let mut games = 1;
    let mut buffer = Vec::new();
    while let Some(chunk) = chunker.next_chunk(buffer).expect("reading from memory") {
        let rows = MoveRows::of_chunk(&chunk, games, options).ok()?;
        games += rows.games;
        out.push(rows);
        buffer = chunk.data;
    }
    Some(out)
}

fn check(input: &[u8]) {
    let fen = input.len().is_multiple_of(3);
    let mainline = MoveRowOptions { fen, variations: false, ..MoveRowOptions::default() };
    // the whole input as one chunk
    let Some(whole) = chunked(input, usize::MAX / 2, false, mainline) else { return };
    let whole_lines = lines(&whole);
    let small = 2 + input.len() % 61;
    for (target, line_by_line) in [(1, false), (1, true), (small, false)] {
        let Some(rows) = chunked(input, target, line_by_line, mainline) else { continue };
        let got = lines(&rows);
        assert!(got == whole_lines, "chunks of at least {target} bytes (line by line: {line_by_line}) give other rows");
        assert_eq!(rows.iter().map(|r| r.games).sum::<u64>(), whole.iter().map(|r| r.games).sum::<u64>());
    }
    // the games' mainlines
    let games = read_games_from_slice(input);
    assert_eq!(whole.iter().map(|r| r.games).sum::<u64>(), games.len() as u64, "the same games");
    let mut expected = Vec::new();
    for (index, game) in games.iter().enumerate() {
        for node in &game.mainline.moves {
            let prose: Vec<&str> = node.comments.iter().map(|c| c.prose()).filter(|p| !p.is_empty()).collect();
            expected.push(format!(
                "{} {} {} {} {:?} {:?} {:?} {:?} {:?}",
                index + 1,
                node.ply,
                node.san,
                node.uci_text(),
                node.clock(),
                node.elapsed(),
                node.eval(),
                node.nags,
                prose.join(" ")
            ));
        }
    }
    let got: Vec<String> = whole
        .iter()
        .flat_map(|rows| {
            rows.rows().map(|row| {
                format!(
                    "{} {} {} {} {:?} {:?} {:?} {:?} {:?}",
                    row.game, row.ply, row.san, row.uci, row.clock, row.elapsed, row.eval, row.nags, row.comment
                )
            })
        })
        .collect();
    assert_eq!(got, expected, "the rows are the games' mainline moves, with their commands and comments");
    // with variations, read from chunks: the rows of the games built whole
    let every = MoveRowOptions { fen, variations: true, ..MoveRowOptions::default() };
    let mut from_games = MoveRows::new(every);
    for (i, game) in games.iter().enumerate() {
        from_games.push_game(game, i as u64 + 1);
    }
    let from_games = lines(&[from_games]);
    for target in [usize::MAX / 2, small] {
        let rows = chunked(input, target, false, every).expect("no game too large");
        assert!(lines(&rows) == from_games, "chunks of at least {target} bytes with variations give other rows");
    }
    // read in parts
    let part_bytes = 1 + input.len() % 997;
    let chunk = Chunker::new(input).next_chunk(Vec::new()).expect("reading from memory");
    for options in [mainline, every] {
        let Some(chunk) = &chunk else { break };
        let mut parts = Vec::new();
        let mut rows = MoveRows::new(options);
        let mut hand = |part: &mut MoveRows| {
            parts.push(part.clone());
            true
        };
        rows.read_chunk_in_parts(chunk, 1, part_bytes, &mut hand).expect("no game too large");
        assert!(rows.is_empty(), "every row handed");
        let expected = if options.variations { &from_games } else { &whole_lines };
        assert!(lines(&parts) == *expected, "parts of {part_bytes} bytes give other rows ({options:?})");
    }
    // the games as a games table reads them (not text: refused; a game too
    // large to read: an error in its place)
    let Ok(reader) = Input::from_reader(std::io::Cursor::new(input.to_vec()), None) else { return };
    let Ok(read) = read_game_facts_input(reader, 1) else { return };
    let Ok(read) = read.collect::<Result<Vec<_>, _>>() else { return };
    assert_eq!(read.len(), games.len(), "the same games");
    for (i, ((game, facts), whole)) in read.iter().zip(&games).enumerate() {
        assert_eq!(*facts, GameFacts::of(whole), "game {}: the facts of the whole game", i + 1);
        let without_moves = Game { mainline: Line::default(), ..whole.clone() };
        assert!(*game == without_moves, "game {}: the game without its moves", i + 1);
    }
}
