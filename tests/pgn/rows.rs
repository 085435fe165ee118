//! Move rows (`pgn::rows`): on every PGN data file, exactly the mainline
//! moves of the games `pgn::read_games` builds, value for value, whole and
//! on several threads; exact rows for small inputs.

use std::io::Cursor;
use std::time::Duration;

use sanfen::Color;
use sanfen::pgn::commands::{Eval, Score};
use sanfen::pgn::input::Input;
use sanfen::pgn::rows::{MoveRow, MoveRowOptions, MoveRows, PART_BYTES, read_move_rows_input};
use sanfen::pgn::{Chunker, ReadError, read_games};

use crate::common;

/// Every row of `data`, read on `threads` threads, and the games counted.
fn rows_of(data: &[u8], threads: usize, options: MoveRowOptions) -> (Vec<MoveRows>, Vec<ReadError>) {
    let input = Input::from_reader(Cursor::new(data.to_vec()), None).expect("PGN text");
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for chunk in read_move_rows_input(input, threads, options).expect("threads start") {
        match chunk {
            Ok(chunk) => rows.push(chunk),
            Err(err) => errors.push(err),
        }
    }
    (rows, errors)
}

/// The rows the games of `data` give, each handed to `each` (compared as
/// values: formatting millions of rows took most of the test's time).
fn for_each_expected_row(data: &[u8], fen: bool, mut each: impl FnMut(MoveRow<'_>)) {
    for (index, game) in read_games(Cursor::new(data.to_vec())).enumerate() {
        let Ok(game) = game else { continue };
        let mut position = game.start.clone();
        for node in &game.mainline.moves {
            let san = node.san.to_string();
            let written = if node.written == san { String::new() } else { node.written.clone() };
            let prose: Vec<&str> = node.comments.iter().map(|c| c.prose()).filter(|p| !p.is_empty()).collect();
            let fen_text = if fen {
                position = position.and_then(|pos| match node.played {
                    Some(m) => pos.play(m).ok(),
                    None => {
                        let mut pos = pos;
                        pos.play_null();
                        Some(pos)
                    }
                });
                position.as_ref().map(ToString::to_string).unwrap_or_default()
            } else {
                String::new()
            };
            let nags = node.nags.clone();
            let row = MoveRow {
                game: index as u64 + 1,
                ply: node.ply,
                number: node.number,
                side: node.side,
                san: &san,
                uci: &node.uci_text(),
                written: &written,
                capture: node.played.is_some_and(sanfen::Move::is_capture),
                check: node.san.suffix.is_some(),
                clock: node.clock(),
                elapsed: node.elapsed(),
                eval: node.eval(),
                nags: &nags,
                comment: &prose.join(" "),
                fen: fen.then_some(fen_text.as_str()),
                path: None,
            };
            each(row);
        }
    }
}

#[test]
fn every_data_file_gives_the_mainline_moves_of_its_games() {
    let mut total = 0;
    for name in common::pgn_files() {
        let data = std::fs::read(common::pgn_root().join(&name)).expect("a data file");
        let fen = data.len() < 2 << 20;
        let games = read_games(Cursor::new(data.clone())).count() as u64;
        let read = [1, 3].map(|threads| {
            rows_of(&data, threads, MoveRowOptions { fen, variations: false, ..MoveRowOptions::default() })
        });
        let mut got = Vec::new();
        for (threads, (chunks, errors)) in [1, 3].iter().zip(&read) {
            assert!(errors.is_empty(), "{name}: {errors:?}");
            assert_eq!(chunks.iter().map(|rows| rows.games).sum::<u64>(), games, "{name}");
            got.push((threads, chunks.iter().flat_map(MoveRows::rows).collect::<Vec<_>>()));
        }
        let mut expected = 0;
        for_each_expected_row(&data, fen, |row| {
            for (threads, got) in &got {
                assert_eq!(got.get(expected), Some(&row), "{name}, row {expected}, {threads} threads");
            }
            expected += 1;
        });
        for (threads, got) in &got {
            assert_eq!(got.len(), expected, "{name}, {threads} threads");
        }
        total += expected;
    }
    assert!(total > 1_000_000, "{total} rows");
}

#[test]
fn rows_of_a_small_input_exactly() {
    let pgn = b"[Event \"a\"]\n\n1. e4 {[%clk 0:03:00] [%eval 0.17] good} e5 (1... c5 {Sicilian}) {after} \
                2. Nf3!? $14 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O Qd4 6. Nxd4 *\n\n\
                [Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[SetUp \"1\"]\n\n1. Rh8+ Kd7 2. Qd1 Ke6 *\n";
    let (chunks, errors) =
        rows_of(pgn, 1, MoveRowOptions { fen: true, variations: false, ..MoveRowOptions::default() });
    assert!(errors.is_empty());
    assert_eq!(chunks.len(), 1);
    let rows = &chunks[0];
    assert_eq!(rows.games, 2);
    assert_eq!(rows.len(), 13);
    assert_eq!(
        rows.row(0),
        MoveRow {
            game: 1,
            ply: 1,
            number: 1,
            side: Color::White,
            san: "e4",
            uci: "e2e4",
            written: "",
            capture: false,
            check: false,
            clock: Some(Duration::from_secs(180)),
            elapsed: None,
            eval: Some(Eval { score: Score::Centipawns(17), depth: None }),
            nags: &[],
            comment: "good",
            fen: Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
            path: None,
        }
    );
    // the variation skipped, the comment after it on the move before it
    assert_eq!(rows.comment.get(1), "after");
    assert_eq!((rows.san.get(2), rows.written.get(2), rows.nags(2)), ("Nf3", "Nf3!?", &[5, 14][..]));
    assert_eq!((rows.san.get(6), rows.capture[6]), ("Bxc6", true));
    assert_eq!((rows.san.get(8), rows.uci.get(8)), ("O-O", "e1g1"));
    assert_eq!((rows.san.get(10), rows.capture[10], rows.check[10]), ("Nxd4", true, false));
    // the second game: a check mark, and the moves up to the first that cannot be played
    let row = rows.row(11);
    assert_eq!(
        (row.game, row.ply, row.number, row.side, row.san, row.uci, row.written, row.capture, row.check),
        (2, 1, 1, Color::White, "Rh8+", "h1h8", "", false, true)
    );
    assert!(rows.check[11]);
    assert_eq!(rows.game[11..], [2, 2]);
    assert_eq!(rows.ply[11..], [1, 2]);
    assert_eq!(rows.san.get(12), "Kd7");
}

/// Every row of `rows`, with its path or without.
fn rows_with(rows: &MoveRows, path: bool) -> impl Iterator<Item = MoveRow<'_>> {
    rows.rows().map(move |row| MoveRow { path: row.path.filter(|_| path), ..row })
}

/// Asserts two lists of rows are equal, saying where they first differ.
fn assert_same_rows(name: &str, got: &[MoveRow<'_>], expected: &[MoveRow<'_>]) {
    if let Some(i) = got.iter().zip(expected).position(|(a, b)| a != b) {
        panic!("{name}: row {i} differs: {:?}, expected {:?}", got[i], expected[i]);
    }
    assert_eq!(got.len(), expected.len(), "{name}: rows");
}

#[test]
fn rows_of_whole_games_are_the_rows_of_chunks_and_variations_add_their_lines() {
    let mut variation_rows = 0;
    for name in common::pgn_files() {
        let data = std::fs::read(common::pgn_root().join(&name)).expect("a data file");
        let fen = data.len() < 2 << 20;
        let mainline = MoveRowOptions { fen, variations: false, ..MoveRowOptions::default() };
        let every = MoveRowOptions { fen, variations: true, ..MoveRowOptions::default() };
        let (chunks, _) = rows_of(&data, 2, mainline);
        let plain: Vec<MoveRow<'_>> = chunks.iter().flat_map(|rows| rows_with(rows, false)).collect();
        // from the games, one by one
        let mut whole = MoveRows::new(every);
        let mut nodes = 0;
        for (i, game) in read_games(Cursor::new(data.clone())).enumerate() {
            if let Ok(game) = game {
                whole.push_game(&game, i as u64 + 1);
                nodes += count_nodes(&game.mainline);
            }
        }
        assert_eq!(whole.len(), nodes, "{name}");
        let paths = whole.path.as_ref().expect("paths");
        let main: Vec<MoveRow<'_>> = rows_with(&whole, false)
            .enumerate()
            .filter(|(i, _)| paths.get(*i).is_empty())
            .map(|(_, row)| row)
            .collect();
        assert_same_rows(&name, &main, &plain);
        // from chunks, with variations: the same rows
        let (chunks, _) = rows_of(&data, 2, every);
        let got: Vec<MoveRow<'_>> = chunks.iter().flat_map(|rows| rows_with(rows, true)).collect();
        assert_same_rows(&name, &got, &rows_with(&whole, true).collect::<Vec<_>>());
        variation_rows += whole.len() - main.len();
    }
    assert!(variation_rows > 10_000, "{variation_rows} rows of variations");
}

/// The moves of a line and of every variation hanging from it.
fn count_nodes(line: &sanfen::pgn::Line) -> usize {
    line.moves.iter().map(|node| 1 + node.variations.iter().map(count_nodes).sum::<usize>()).sum()
}

#[test]
fn variations_are_rows_in_reading_order_with_their_paths() {
    let pgn = b"1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) (2. c3) d6) 2. Nf3 (2. Bc4) *\n";
    let (chunks, errors) = rows_of(pgn, 1, MoveRowOptions { fen: true, variations: true, ..MoveRowOptions::default() });
    assert!(errors.is_empty());
    let rows = &chunks[0];
    let got: Vec<(&str, u32, &str)> = rows.rows().map(|row| (row.path.unwrap(), row.ply, row.san)).collect();
    assert_eq!(
        got,
        [
            ("", 1, "e4"),
            ("", 2, "e5"),
            ("2.1", 2, "c5"),
            ("2.1", 3, "Nf3"),
            ("2.1/3.1", 3, "Nc3"),
            ("2.1/3.1", 4, "Nc6"),
            ("2.1/3.2", 3, "c3"),
            ("2.1", 4, "d6"),
            ("", 3, "Nf3"),
            ("3.1", 3, "Bc4"),
        ]
    );
    // each from the position its line reaches
    assert_eq!(rows.fen.as_ref().unwrap().get(6), "rnbqkbnr/pp1ppppp/8/2p5/4P3/2P5/PP1P1PPP/RNBQKBNR b KQkq - 0 2");
    assert_eq!(rows.fen.as_ref().unwrap().get(9), "rnbqkbnr/pppp1ppp/8/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 2");
}

#[test]
fn a_game_too_large_is_an_error_item_and_counts() {
    let big = format!("[Event \"big\"]\n\n1. e4 {{{}}} *\n\n", "x".repeat(Chunker::<std::io::Empty>::MAX_GAME + 10));
    let pgn = format!("1. d4 *\n\n{big}[Event \"after\"]\n\n1. c4 *\n");
    let (chunks, errors) = rows_of(pgn.as_bytes(), 2, MoveRowOptions::default());
    assert!(matches!(errors[..], [ReadError::TooLarge { .. }]), "{errors:?}");
    let said = format!("line 3: game of {} bytes, larger than the limit of 8388608 bytes: not read", big.len());
    assert_eq!(errors[0].to_string(), said);
    let games: Vec<u64> = chunks.iter().flat_map(|rows| rows.game.clone()).collect();
    // the third game is numbered after the one too large
    assert_eq!(games, [1, 3]);
    let sans: Vec<String> = chunks
        .iter()
        .flat_map(|rows| (0..rows.len()).map(|i| rows.san.get(i).to_owned()).collect::<Vec<_>>())
        .collect();
    assert_eq!(sans, ["d4", "c4"]);
}

#[test]
fn rows_read_chunk_after_chunk_into_the_same_rows_are_each_chunks_rows() {
    // the rows held before leave their room, not their values (nor the
    // dictionaries' keys): every chunk of every data file, and a game too
    // large, read into one `MoveRows` after another, give the rows a new
    // `MoveRows` gets
    let big = format!(
        "1. d4 *\n\n[Event \"big\"]\n\n1. e4 {{{}}} *\n\n",
        "x".repeat(Chunker::<std::io::Empty>::MAX_GAME + 10)
    );
    let inputs = common::pgn_files()
        .into_iter()
        .map(|name| (std::fs::read(common::pgn_root().join(&name)).expect("a data file"), name))
        .chain([(format!("{big}1. c4 c5 *\n").into_bytes(), "a game too large".to_owned())]);
    let (mut chunks, mut rows, mut too_large) = (0, 0, 0);
    for (data, name) in inputs {
        let fen = data.len() < 2 << 20;
        let kinds = [
            MoveRowOptions { fen, variations: false, ..MoveRowOptions::default() },
            MoveRowOptions { fen: false, variations: false, ..MoveRowOptions::default() },
            MoveRowOptions { fen: false, variations: true, ..MoveRowOptions::default() },
        ];
        for options in kinds {
            let mut reused = MoveRows::new(options);
            let mut chunker = Chunker::with_target(&data[..], 64 << 10);
            while let Some(chunk) = chunker.next_chunk(Vec::new()).expect("bytes in memory") {
                chunks += 1;
                let again = reused.read_chunk(&chunk, 7);
                match (MoveRows::of_chunk(&chunk, 7, options), again) {
                    (Ok(new), Ok(())) => {
                        assert_eq!(reused, new, "{name}, chunk at {}, {options:?}", chunk.start.offset);
                        assert_eq!(reused.options(), options);
                        rows += new.len();
                    }
                    (Err(ReadError::TooLarge { at, .. }), Err(ReadError::TooLarge { at: again, .. })) => {
                        assert_eq!(at, again, "{name}");
                        assert!(reused.is_empty() && reused.games == 0, "{name}");
                        too_large += 1;
                    }
                    (new, again) => panic!("{name}: {:?} read again as {again:?}", new.map(|rows| rows.len())),
                }
            }
        }
    }
    assert!(chunks > 2000 && rows > 10_000_000, "{chunks} chunks, {rows} rows");
    assert_eq!(too_large, 3);
}

/// A game of `cycles` times four knight moves and back, each move with a
/// clock, a comment and a NAG, and a variation on each white move followed
/// by more notes on that move: long, every kind of value, and legal.
fn knight_game(cycles: usize) -> String {
    let mut pgn = String::from("[Event \"knights\"]\n\n");
    for cycle in 0..cycles {
        let number = 2 * cycle + 1;
        let clock = |i| format!("{{[%clk 0:{:02}:{:02}] move {i}}}", cycle % 60, i * 7 % 60);
        pgn += &format!(
            "{number}. Nf3 {} $1 ({number}. Nc3 Nc6 {{aside}}) {{late [%eval 0.{}]}} $5 ",
            clock(1),
            cycle % 10
        );
        pgn += &format!("{number}... Nf6 {} $2 {}. Ng1 {} $3 ", clock(2), number + 1, clock(3));
        pgn += &format!("{}... Ng8 {} $4\n", number + 1, clock(4));
    }
    pgn + "*\n\n"
}

#[test]
fn rows_read_in_parts_are_the_rows_read_whole() {
    // parts of a few kilobytes, on long games, short ones and a data file
    // of clocks and evaluations: the parts' rows one after another (the
    // last part what is left at the chunk's end) are the chunk's rows read
    // whole, the plies of a game cut between parts go on, each game counts
    // once, and no part holds many more rows than its size allows (a row
    // takes at least 64 bytes)
    const PART: usize = 16 << 10;
    let lichess = std::fs::read(common::pgn_root().join("shakmaty-bench/lichess_db_1000k.pgn")).expect("a data file");
    let inputs = [
        format!(
            "{}1. e4 e5 *\n\n{}[Event \"after\"]\n\n1. d4 {{[%eval 0.2]}} d5 *\n",
            knight_game(400),
            knight_game(90)
        )
        .into_bytes(),
        lichess,
    ];
    let mut cut_games = 0;
    for data in &inputs {
        for fen in [false, true] {
            for variations in [false, true] {
                let options = MoveRowOptions { fen, variations, ..MoveRowOptions::default() };
                let mut chunker = Chunker::with_target(&data[..], 256 << 10);
                let mut parted = MoveRows::new(options);
                while let Some(chunk) = chunker.next_chunk(Vec::new()).expect("bytes in memory") {
                    let whole = MoveRows::of_chunk(&chunk, 7, options).expect("no game too large");
                    let (mut rows, mut games, mut last_game) = (Vec::new(), 0, None);
                    let mut hand = |part: &mut MoveRows| {
                        assert!(part.len() <= PART / 64 + 64, "{} rows in a part, {options:?}", part.len());
                        rows.extend(part.rows().map(|row| format!("{row:?}")));
                        games += part.games;
                        if part.game.last() == last_game.as_ref() {
                            cut_games += 1;
                        }
                        last_game = part.game.last().copied();
                        true
                    };
                    parted.read_chunk_in_parts(&chunk, 7, PART, &mut hand).expect("no game too large");
                    assert!(parted.is_empty() && parted.games == 0, "every row handed");
                    let expected: Vec<String> = whole.rows().map(|row| format!("{row:?}")).collect();
                    assert_eq!(rows, expected, "chunk at {}, {options:?}", chunk.start.offset);
                    assert_eq!(games, whole.games, "chunk at {}, {options:?}", chunk.start.offset);
                }
            }
        }
    }
    // the long games were cut, the same game before and after a cut
    assert!(cut_games > 10, "{cut_games}");
}

#[test]
fn rows_read_in_parts_stop_when_not_wanted() {
    // a hand that takes no more: no part is handed out again, not even the
    // rows left at the end, and the rows are left empty
    let data = format!("{}{}", knight_game(300), knight_game(300)).into_bytes();
    let chunk = Chunker::new(&data[..]).next_chunk(Vec::new()).expect("bytes in memory").expect("a chunk");
    let mut parts = 0;
    let mut rows = MoveRows::new(MoveRowOptions::default());
    rows.read_chunk_in_parts(&chunk, 1, 16 << 10, &mut |_| {
        parts += 1;
        false
    })
    .expect("no game too large");
    assert_eq!(parts, 1);
    assert!(rows.is_empty() && rows.games == 0);
}

#[test]
fn rows_of_a_long_game_come_in_parts_whatever_the_threads() {
    // 160,000 moves with their FEN: past the 16 MiB of rows a part holds,
    // between two short games; every row as the games give it, the games
    // counted once, numbered on across the parts
    let long = "Nf3 Nf6 Ng1 Ng8 ".repeat(40_000);
    let data = format!("1. e4 *\n\n{long}*\n\n1. d4 d5 *\n").into_bytes();
    let options = MoveRowOptions { fen: true, variations: false, ..MoveRowOptions::default() };
    let mut expected = Vec::new();
    for_each_expected_row(&data, true, |row| expected.push(format!("{row:?}")));
    assert_eq!(expected.len(), 160_003);
    for threads in [1, 2, 3] {
        let (parts, errors) = rows_of(&data, threads, options);
        assert!(errors.is_empty(), "{errors:?}");
        let sizes: Vec<usize> = parts.iter().map(MoveRows::len).collect();
        assert!(sizes.iter().filter(|&&rows| rows > 0).count() >= 3, "{sizes:?}, {threads} threads");
        assert!(sizes.iter().all(|&rows| rows <= PART_BYTES / 64 + 64), "{sizes:?}");
        assert_eq!(parts.iter().map(|rows| rows.games).sum::<u64>(), 3);
        let got: Vec<String> = parts.iter().flat_map(MoveRows::rows).map(|row| format!("{row:?}")).collect();
        assert!(got == expected, "{threads} threads");
    }
}

#[test]
fn rows_of_variations_read_without_building_games_are_the_rows_of_whole_games() {
    // comments and NAGs after a variation belong to the move before it, at
    // every depth; variations that replace no move, or a move that cannot
    // be played, have no rows; null moves, glued annotations, a start from
    // FEN, a variation left open at the end
    let games = [
        "1. e4 (1. d4 {a} d5 $1) {late} $2 (1. c4 {b}) {late 2 [%clk 0:01:00]} $3 e5 *",
        "( 1. d4 d5 ) {before} 1. e4 e5 *",
        "1. e4 e5 2. Ke3 (2. Nf3 Nc6) {after} 2... Nc6 3. Nf3 *",
        "1. e4 e5 (1... c5 2. Nf3 (2. Nc3 {x}) {inner} $3 (2. c3) d6) {outer [%eval -0.5]} $4 2. Nf3 (2. Bc4) *",
        "1. e4 -- 2. d4 (2. Nf3 -- 3. Ng5) {c} $6 2... d5 *",
        "1. e4!? (1. d4?! {d} Nf6!) $1 {after} e5?? ( {pre} 1... c5 ) ( ) 2. Nf3 *",
        "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[SetUp \"1\"]\n\n1. O-O (1. Rh8+ Kd7 (1... Ke7 {x}) {y}) {z} Kd7 *",
        "1. e4 e5 2. Nf3 (2. Nc3 (2. Bc4 Nf6 (2... Nc6 {deep}) {deeper}",
    ];
    let data = games.map(|game| format!("{game}\n\n")).concat() + &knight_game(30);
    for fen in [false, true] {
        let every = MoveRowOptions { fen, variations: true, ..MoveRowOptions::default() };
        let mut whole = MoveRows::new(every);
        for (i, game) in read_games(Cursor::new(data.clone().into_bytes())).enumerate() {
            whole.push_game(&game.expect("a game"), i as u64 + 1);
        }
        assert!(whole.len() > 150, "{} rows", whole.len());
        for threads in [1, 2] {
            let (chunks, errors) = rows_of(data.as_bytes(), threads, every);
            assert!(errors.is_empty(), "{errors:?}");
            let got: Vec<MoveRow<'_>> = chunks.iter().flat_map(MoveRows::rows).collect();
            assert_same_rows("games", &got, &whole.rows().collect::<Vec<_>>());
        }
    }
}
