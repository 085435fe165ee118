//! Legal move generation on a few positions, and perft with bulk counting at
//! the last ply (the numbers `../shared/bench/compare perft` compares against
//! shakmaty).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sanfen::{Position, perft};

/// The initial position.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// chessprogramming.org position 2: castling, en passant, pins, 48 moves.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// chessprogramming.org position 3: a rook and pawn endgame with a horizontal en passant pin.
const ENDGAME: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
/// A middlegame from Steven Edwards (chessprogramming.org position 6), 46 moves.
const MIDDLEGAME: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

fn legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for (name, fen) in [("start", START), ("kiwipete", KIWIPETE), ("endgame", ENDGAME), ("middlegame", MIDDLEGAME)] {
        let pos: Position = fen.parse().unwrap();
        group.throughput(Throughput::Elements(pos.legal_moves().len() as u64));
        group.bench_function(name, |b| b.iter(|| black_box(black_box(&pos).legal_moves())));
    }
    group.finish();
}

fn perft_nodes(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    for (name, fen, depth, nodes) in [("start_4", START, 4, 197_281), ("kiwipete_3", KIWIPETE, 3, 97_862)] {
        let pos: Position = fen.parse().unwrap();
        assert_eq!(perft(&pos, depth), Ok(nodes), "{name}");
        // throughput in leaf nodes per second, as perft speeds are quoted
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| b.iter(|| perft(black_box(&pos), black_box(depth))));
    }
    group.finish();
}

criterion_group!(benches, legal_moves, perft_nodes);
criterion_main!(benches);
