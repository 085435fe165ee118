//! Resolving SAN against positions: every move of the 100 games of
//! `../shared/data/pgn/chess.js/benchmark.pgn` (6,193 plies), read and
//! resolved and played from the start of each game; and canonical SAN of
//! every legal move of a few positions.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sanfen::notation::{self, Notation};
use sanfen::resolve::resolve_text;
use sanfen::san::{Letters, SanOptions};
use sanfen::{CastlingMode, Fen, Position};

/// The games of the file, each as its move tokens (no tags, move numbers or
/// result; the file has no comments or variations).
fn games() -> Vec<Vec<Vec<u8>>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/pgn/chess.js/benchmark.pgn");
    let text = std::fs::read_to_string(path).expect("../shared/data beside the repository");
    let mut games: Vec<Vec<Vec<u8>>> = Vec::new();
    let mut in_tags = false;
    for line in text.lines() {
        if line.starts_with('[') {
            if !in_tags {
                games.push(Vec::new());
            }
            in_tags = true;
            continue;
        }
        in_tags = false;
        let game = games.last_mut().expect("movetext after tags");
        for word in line.split_whitespace() {
            if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
                continue;
            }
            let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if !word.is_empty() {
                game.push(word.as_bytes().to_vec());
            }
        }
    }
    games
}

/// Plays a game's tokens from the start position; the number of plies.
fn replay(game: &[Vec<u8>], options: SanOptions) -> usize {
    let mut pos = Position::default();
    for token in game {
        let resolved = resolve_text(&pos, token, options).expect("a move");
        let m = resolved.resolution.outcome.expect("a legal move");
        pos.play_unchecked(black_box(m));
    }
    game.len()
}

fn resolve_and_play(c: &mut Criterion) {
    let games = games();
    assert_eq!(games.len(), 100);
    let plies: usize = games.iter().map(|game| replay(game, SanOptions::STRICT)).sum();
    assert_eq!(plies, 6_193);
    let mut group = c.benchmark_group("resolve");
    group.throughput(Throughput::Elements(plies as u64));
    for (name, options) in [("resolve+play strict", SanOptions::STRICT), ("resolve+play lenient", SanOptions::LENIENT)]
    {
        group.bench_function(name, |b| {
            b.iter(|| games.iter().map(|game| replay(game, options)).sum::<usize>());
        });
    }
    group.finish();
}

fn write_san(c: &mut Criterion) {
    let positions: Vec<Position> = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "7k/3R4/3p2Q1/6Q1/2N1N3/8/8/3R3K w - - 0 1",
        "1r3k2/P1P5/8/8/8/8/8/R3K2R w KQ - 0 1",
        "N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1",
    ]
    .iter()
    .map(|fen| {
        let fen: Fen = fen.parse().expect("FEN");
        Position::from_setup(fen.setup, CastlingMode::Standard).expect("a legal position")
    })
    .collect();
    let moves: usize = positions.iter().map(|pos| pos.legal_moves().len()).sum();
    let mut group = c.benchmark_group("write");
    group.throughput(Throughput::Elements(moves as u64));
    group.bench_function("san_plus (value)", |b| {
        b.iter(|| {
            for pos in &positions {
                for &m in &pos.legal_moves() {
                    black_box(notation::san_plus(pos, m));
                }
            }
        });
    });
    group.bench_function("san text", |b| {
        b.iter(|| {
            for pos in &positions {
                for &m in &pos.legal_moves() {
                    black_box(notation::write_move(pos, m, Notation::San, Letters::English));
                }
            }
        });
    });
    group.finish();
}

criterion_group!(benches, resolve_and_play, write_san);
criterion_main!(benches);
