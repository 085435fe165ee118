//! Games read as outlines (`pgn::game::read_game_outlines_input`): on every
//! PGN data file, the whole games without the annotations of their moves,
//! and the same games table; read with their facts
//! (`pgn::table::read_table_games_input`), the same outlines, each with the
//! facts of its whole game.

use std::io::Cursor;

use sanfen::pgn::ReadError;
use sanfen::pgn::game::{Line, read_game_outlines_input, read_games_input};
use sanfen::pgn::input::Input;
use sanfen::pgn::table::{GameFacts, GameTable, read_table_games_input};

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
        let with_facts = games_of(&data, read_table_games_input);
        assert_eq!((outlines.len(), with_facts.len()), (whole.len(), whole.len()), "{name}");
        let (mut table, mut outline_table, mut facts_table) = (GameTable::new(), GameTable::new(), GameTable::new());
        for (i, ((game, got), (read, facts))) in whole.iter().zip(&outlines).zip(&with_facts).enumerate() {
            table.push(&name, i as u64 + 1, game);
            outline_table.push(&name, i as u64 + 1, got);
            facts_table.push_with(&name, i as u64 + 1, read, *facts);
            assert_eq!((read, *facts), (got, GameFacts::of(game)), "{name}, game {}", i + 1);
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
        games += whole.len();
    }
    assert!(games > 200_000 && annotated > 50_000, "{games} games, {annotated} annotated");
    assert!(ends > 1_000 && openings > 200_000, "{ends} ends, {openings} openings");
}
