//! Move rows (`pgn::rows`): on every PGN data file, exactly the mainline
//! moves of the games `pgn::read_games` builds, value for value, whole and
//! on several threads; exact rows for small inputs.

use std::io::Cursor;
use std::time::Duration;

use sanfen::Color;
use sanfen::pgn::commands::{Eval, Score};
use sanfen::pgn::input::Input;
use sanfen::pgn::rows::{MoveRow, MoveRowOptions, MoveRows, read_move_rows_input};
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

/// One row as text, for comparing with the games.
fn row_text(rows: &MoveRows, i: usize) -> String {
    format!("{:?}", rows.row(i))
}

/// The rows the games of `data` give, as text.
fn expected_rows(data: &[u8], fen: bool) -> Vec<String> {
    let mut out = Vec::new();
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
            };
            out.push(format!("{row:?}"));
        }
    }
    out
}

#[test]
fn every_data_file_gives_the_mainline_moves_of_its_games() {
    let mut total = 0;
    for name in common::pgn_files() {
        let data = std::fs::read(common::pgn_root().join(&name)).expect("a data file");
        let fen = data.len() < 2 << 20;
        let expected = expected_rows(&data, fen);
        let games = read_games(Cursor::new(data.clone())).count() as u64;
        for threads in [1, 3] {
            let (chunks, errors) = rows_of(&data, threads, MoveRowOptions { fen });
            assert!(errors.is_empty(), "{name}: {errors:?}");
            let got: Vec<String> =
                chunks.iter().flat_map(|rows| (0..rows.len()).map(move |i| row_text(rows, i))).collect();
            assert_eq!(got.len(), expected.len(), "{name}, {threads} threads");
            for (i, (got, expected)) in got.iter().zip(&expected).enumerate() {
                assert_eq!(got, expected, "{name}, row {i}, {threads} threads");
            }
            assert_eq!(chunks.iter().map(|rows| rows.games).sum::<u64>(), games, "{name}");
        }
        total += expected.len();
    }
    assert!(total > 1_000_000, "{total} rows");
}

#[test]
fn rows_of_a_small_input_exactly() {
    let pgn = b"[Event \"a\"]\n\n1. e4 {[%clk 0:03:00] [%eval 0.17] good} e5 (1... c5 {Sicilian}) {after} \
                2. Nf3!? $14 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O Qd4 6. Nxd4 *\n\n\
                [Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[SetUp \"1\"]\n\n1. Rh8+ Kd7 2. Qd1 Ke6 *\n";
    let (chunks, errors) = rows_of(pgn, 1, MoveRowOptions { fen: true });
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

#[test]
fn a_game_too_large_is_an_error_item_and_counts() {
    let big = format!("[Event \"big\"]\n\n1. e4 {{{}}} *\n\n", "x".repeat(Chunker::<std::io::Empty>::MAX_GAME + 10));
    let pgn = format!("1. d4 *\n\n{big}[Event \"after\"]\n\n1. c4 *\n");
    let (chunks, errors) = rows_of(pgn.as_bytes(), 2, MoveRowOptions::default());
    assert!(matches!(errors[..], [ReadError::TooLarge { .. }]), "{errors:?}");
    let games: Vec<u64> = chunks.iter().flat_map(|rows| rows.game.clone()).collect();
    // the third game is numbered after the one too large
    assert_eq!(games, [1, 3]);
    let sans: Vec<String> = chunks
        .iter()
        .flat_map(|rows| (0..rows.len()).map(|i| rows.san.get(i).to_owned()).collect::<Vec<_>>())
        .collect();
    assert_eq!(sans, ["d4", "c4"]);
}
