//! Fuzz target `movelog`: the binary move log `load` and `sanfen repl FILE`
//! read (`.bin`: four 32-bit integers a move). The input's first byte picks
//! the initial position (standard, Chess960, a promotion ahead), the rest is
//! the log. Then
//!
//! - `Game::from_move_log` never panics: a game, or the first problem;
//! - a game read writes the same log back (`Game::move_log`), byte for byte,
//!   and each of its moves is legal where it is played.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sanfen::{CastlingMode, Game, Position};

/// Positions where a log's moves can be castling (both modes) and
/// promotions.
const STARTS: [(&str, CastlingMode); 4] = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CastlingMode::Standard),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard),
    ("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", CastlingMode::Chess960),
    ("1n2k3/P1P5/8/8/8/8/5p1p/4K1N1 w - - 0 1", CastlingMode::Standard),
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, log)) = data.split_first() else { return };
    let (fen, mode) = STARTS[pick as usize % STARTS.len()];
    let initial = Position::from_fen(fen, mode).expect("a legal position of the list");
    let Ok(game) = Game::from_move_log(initial.clone(), log) else { return };
    assert_eq!(game.move_log(), log, "{fen}");
    let mut position = initial;
    for (m, after) in game.moves().iter().zip(game.positions().skip(1)) {
        position = position.play(*m).unwrap_or_else(|err| panic!("{fen}: {m:?}: {err}"));
        assert_eq!(position, after, "{fen}");
    }
});
