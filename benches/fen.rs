//! Parse + full legality check per FEN, on real positions from
//! `../shared/data/epd/stockfish-books/endgames.epd`, and the writer.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sanfen::{CastlingMode, Fen, Position};

fn positions() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/epd/stockfish-books/endgames.epd");
    let text = std::fs::read_to_string(path).expect("../shared/data beside the repository");
    text.lines().take(10_000).map(str::to_owned).collect()
}

fn fen(c: &mut Criterion) {
    let fens = positions();
    let mut group = c.benchmark_group("fen");
    group.throughput(Throughput::Elements(fens.len() as u64));
    group.bench_function("parse", |b| {
        b.iter(|| {
            for fen in &fens {
                black_box(Fen::from_ascii(fen.as_bytes(), CastlingMode::Standard).is_ok());
            }
        })
    });
    group.bench_function("parse+check", |b| {
        b.iter(|| {
            for fen in &fens {
                let parsed = Fen::from_ascii(fen.as_bytes(), CastlingMode::Standard).unwrap();
                black_box(Position::from_setup(parsed.setup, CastlingMode::Standard).is_ok());
            }
        })
    });
    let parsed: Vec<Position> = fens
        .iter()
        .map(|f| Position::from_setup(f.parse::<Fen>().unwrap().setup, CastlingMode::Standard).unwrap())
        .collect();
    group.bench_function("write", |b| {
        b.iter(|| {
            for pos in &parsed {
                black_box(pos.fen().to_string());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, fen);
criterion_main!(benches);
