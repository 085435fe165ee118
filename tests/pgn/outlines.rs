//! Games read as outlines (`pgn::game::read_game_outlines_input`): on every
//! PGN data file, the whole games without the annotations of their moves,
//! and the same games table; read for a games table
//! (`pgn::game::read_game_facts_input`), the same games without their
//! moves, each with the facts of its whole game, and the same table; and
//! that table made on the reading threads
//! (`pgn::table::read_game_table_input`), whatever the threads.

use std::io::Cursor;

use arrow_array::RecordBatch;
use sanfen::pgn::game::{GameFacts, Line, read_game_facts_input, read_game_outlines_input, read_games_input};
use sanfen::pgn::input::Input;
use sanfen::pgn::table::{GameTable, games_schema, read_game_table_input};
use sanfen::pgn::{Game, ReadError};
use sanfen::san::Letters;

use crate::common;

/// The games of `data` read by `read` on two threads.
fn games_of<T, I: Iterator<Item = Result<T, ReadError>>>(
    data: &[u8],
    read: impl FnOnce(Input, usize) -> Result<I, sanfen::pgn::input::InputError>,
) -> Vec<T> {
    let input = Input::from_reader(Cursor::new(data.to_vec()), None).expect("PGN text");
    read(input, 2).expect("threads start").collect::<Result<_, _>>().expect("no game too large")
}

/// `line` without the annotations of its moves, its variations' too.
fn outline(line: &mut Line) {
    line.comments.clear();
    line.nags.clear();
    for node in &mut line.moves {
        node.written.clear();
        node.nags.clear();
        node.comments.clear();
        node.variations.iter_mut().for_each(outline);
    }
}

#[test]
fn outlines_are_the_games_without_their_annotations_and_give_the_same_games_table() {
    // (games, annotated games, games ended by the rules, named openings)
    let (mut games, mut annotated, mut ends, mut openings) = (0, 0, 0, 0);
    for name in common::pgn_files() {
        let data = std::fs::read(common::pgn_root().join(&name)).expect("a data file");
        let whole = games_of(&data, read_games_input);
        let outlines = games_of(&data, read_game_outlines_input);
        let with_facts = games_of(&data, read_game_facts_input);
        assert_eq!((outlines.len(), with_facts.len()), (whole.len(), whole.len()), "{name}");
        let (mut table, mut outline_table, mut facts_table) = (GameTable::new(), GameTable::new(), GameTable::new());
        for (i, ((game, got), (read, facts))) in whole.iter().zip(&outlines).zip(&with_facts).enumerate() {
            table.push(&name, i as u64 + 1, game);
            outline_table.push(&name, i as u64 + 1, got);
            facts_table.push_with(&name, i as u64 + 1, read, *facts);
            let without_moves = Game { mainline: Line::default(), ..got.clone() };
            assert_eq!((read, *facts), (&without_moves, GameFacts::of(game)), "{name}, game {}", i + 1);
            ends += usize::from(facts.end.is_some());
            openings += usize::from(facts.opening.is_some());
            let mut expected = game.clone();
            outline(&mut expected.mainline);
            annotated += usize::from(expected != *game);
            assert_eq!(*got, expected, "{name}, game {}", i + 1);
        }
        let table = table.finish().expect("a batch");
        assert_eq!(outline_table.finish().expect("a batch"), table, "{name}");
        assert_eq!(facts_table.finish().expect("a batch"), table, "{name}");
        for threads in [1, 2] {
            assert_eq!(table_of(&data, threads, &name), table, "{name}, {threads} threads");
        }
        games += whole.len();
    }
    assert!(games > 200_000 && annotated > 50_000, "{games} games, {annotated} annotated");
    assert!(ends > 1_000 && openings > 200_000, "{ends} ends, {openings} openings");
}

/// Games whose mainline's facts take more than playing every move: a
/// fivefold repetition (reached, and undone by a variation's pawn move), a
/// null move before a mate, moves after a mate that cannot be played, a
/// game that starts mated, a mainline ended by a bad move, a variant whose
/// moves are not played, the seventy-five-move rule.
const SHAPED: &str = "\
[Event \"fivefold\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 (8. e4 e5) 8... Ng8 *\n\n\
[Event \"four times\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 (6. d4) 6... Ng8 *\n\n\
[Event \"null\"]\n\n1. f3 e5 2. g4 d6 3. -- Qh4# *\n\n\
[Event \"after mate\"]\n\n1. f3 e5 2. g4 Qh4# 3. Nc3 *\n\n\
[Event \"mated\"]\n[SetUp \"1\"]\n[FEN \"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\"]\n\n*\n\n\
[Event \"bad move\"]\n\n1. e4 c5 2. Nf3 d6 3. Qxh7 Nc6 *\n\n\
[Event \"variant\"]\n[Variant \"Atomic\"]\n\n1. e4 e5 *\n\n\
[Event \"seventy-five\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 149 120\"]\n\n120. Ra2 *\n";

#[test]
fn facts_found_as_games_are_read_are_those_of_the_whole_games() {
    let whole = games_of(SHAPED.as_bytes(), read_games_input);
    let with_facts = games_of(SHAPED.as_bytes(), read_game_facts_input);
    let facts: Vec<GameFacts> = with_facts.iter().map(|(_, facts)| *facts).collect();
    assert_eq!(facts, whole.iter().map(GameFacts::of).collect::<Vec<_>>());
    let ends: Vec<_> = facts.iter().map(|facts| facts.end.map(|end| end.to_string())).collect();
    let expected = [
        Some("fivefold repetition: 1/2-1/2"),
        None,
        None,
        Some("checkmate: 0-1"),
        Some("checkmate: 0-1"),
        None,
        None,
        Some("seventy-five-move rule: 1/2-1/2"),
    ];
    assert_eq!(ends, expected.map(|end| end.map(str::to_owned)));
    let plies: Vec<_> = facts.iter().map(|facts| facts.plies).collect();
    assert_eq!(plies, [16, 12, 6, 4, 0, 4, 0, 1]);
    let openings: Vec<_> =
        facts.iter().map(|facts| facts.opening.map(|found| (found.opening.eco, found.ply))).collect();
    assert_eq!(openings[2..4], [Some(("A00", 1)), Some(("A00", 4))]);
}

/// The games table of `data`, the input named `file`, made on `threads`
/// threads, its batches joined.
fn table_of(data: &[u8], threads: usize, file: &str) -> RecordBatch {
    let input = Input::from_reader(Cursor::new(data.to_vec()), None).expect("PGN text");
    let batches: Vec<RecordBatch> = read_game_table_input(input, threads, file, Letters::English)
        .expect("threads start")
        .collect::<Result<_, _>>()
        .expect("read");
    arrow_select::concat::concat_batches(&games_schema(), &batches).expect("one schema")
}

/// A game too large to read (over 8 MiB).
fn large_game() -> String {
    format!("[Event \"large\"]\n\n{}*\n\n", "1. e4 { long } ".repeat(700_000))
}

/// The games table of `data` as the games read with their facts make it,
/// one row each; and its games too large to read, and its errors.
fn facts_table(data: &[u8]) -> (RecordBatch, usize, u32) {
    let mut table = GameTable::new();
    let input = Input::from_reader(Cursor::new(data.to_vec()), None).expect("PGN text");
    let (mut large, mut errors) = (0, 0);
    for (i, game) in read_game_facts_input(input, 2).expect("threads start").enumerate() {
        match game {
            Ok((game, facts)) => {
                errors += game.report.errors;
                table.push_with("g.pgn", i as u64 + 1, &game, facts);
            }
            Err(ReadError::TooLarge { at, size }) => {
                large += 1;
                table.push_too_large("g.pgn", i as u64 + 1, at, size);
            }
            Err(err) => panic!("{err}"),
        }
    }
    (table.finish().expect("a batch"), large, errors)
}

#[test]
fn the_table_made_on_the_threads_is_that_of_the_games_read() {
    // chunks of many games, text between games (a comment, a zero-width
    // space, an escape line) at the end of some chunks, a game too large to
    // read between two, and text after the last game
    let mut pgn = String::new();
    for i in 0..12_000 {
        pgn.push_str(&format!("[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 {} *\n\n", if i % 7 == 0 { "Nf3" } else { "" }));
        pgn.push_str(["{ between }\n\n", "\u{200b}\n", "%escape\n\n"][i % 3]);
        if i == 6_000 {
            pgn.push_str(&large_game());
            pgn.push_str("{ after the large }\n\n");
        }
    }
    pgn.push_str("{ after the last }\n");
    let (expected, large, errors) = facts_table(pgn.as_bytes());
    assert_eq!((expected.num_rows(), large, errors), (12_001, 1, 1715));
    for threads in [1, 2] {
        assert_eq!(table_of(pgn.as_bytes(), threads, "g.pgn"), expected, "{threads} threads");
    }
}

#[test]
fn a_last_game_too_large_to_read_is_the_tables_last_row() {
    let pgn = format!("[Event \"a\"]\n\n1. e4 e5 *\n\n{}", large_game());
    let (expected, large, _) = facts_table(pgn.as_bytes());
    assert_eq!((expected.num_rows(), large), (2, 1));
    for threads in [1, 2] {
        assert_eq!(table_of(pgn.as_bytes(), threads, "g.pgn"), expected, "{threads} threads");
    }
}
