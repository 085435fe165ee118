//! SAN parsing on real move tokens: every move of
//! `../shared/data/pgn/shakmaty-bench/lichess_db_1000k.pgn` and
//! `../shared/data/pgn/chess.js/benchmark.pgn`, strictly and leniently, and a
//! set of lenient spellings (which take the grammar, not the fast path); and
//! the canonical writer.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sanfen::san::{SanOptions, SanPlus, parse_san};

/// The move tokens of a PGN file: no tags, comments, move numbers, results.
fn tokens(path: &str) -> Vec<Vec<u8>> {
    let path = format!("{}/../shared/data/pgn/{path}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("../shared/data beside the repository");
    let text = String::from_utf8_lossy(&bytes);
    let mut tokens = Vec::new();
    let mut depth = 0usize;
    for line in text.lines().filter(|line| !line.starts_with('[')) {
        for word in line.split_whitespace() {
            depth += word.matches('{').count();
            let closing = word.matches('}').count();
            if depth > 0 {
                depth = depth.saturating_sub(closing);
                continue;
            }
            let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if word.is_empty() || word.starts_with('$') || word.contains('-') && !word.starts_with('O') {
                continue;
            }
            tokens.push(word.as_bytes().to_vec());
        }
    }
    tokens
}

fn san(c: &mut Criterion) {
    let mut moves = tokens("shakmaty-bench/lichess_db_1000k.pgn");
    moves.extend(tokens("chess.js/benchmark.pgn"));
    assert!(moves.iter().all(|token| parse_san(token, SanOptions::STRICT).is_ok()));
    let lenient: Vec<&[u8]> = [
        &b"0-0"[..],
        b"o-o-o+",
        b"e8Q",
        b"e8=q",
        b"e8(Q)",
        b"exd6 e.p.",
        b"Qh7++",
        b"Ng1-f3",
        b"e2-e4",
        b"g1f3",
        b"e7e8q",
        b"Pe2e4",
        b"nf3",
        b"bc4",
        "♘f3".as_bytes(),
        b"Z0",
        b"ed5",
    ]
    .to_vec();

    let mut group = c.benchmark_group("san");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("parse strict (real moves)", |b| {
        b.iter(|| {
            for token in &moves {
                black_box(parse_san(black_box(token), SanOptions::STRICT).is_ok());
            }
        })
    });
    group.bench_function("parse lenient (real moves)", |b| {
        b.iter(|| {
            for token in &moves {
                black_box(parse_san(black_box(token), SanOptions::LENIENT).is_ok());
            }
        })
    });
    let parsed: Vec<SanPlus> = moves.iter().map(|token| SanPlus::from_ascii(token).unwrap()).collect();
    group.bench_function("write (real moves)", |b| {
        let mut out = [0; 16];
        b.iter(|| {
            for san in &parsed {
                black_box(san.write_ascii(black_box(&mut out)));
            }
        })
    });
    group.throughput(Throughput::Elements(lenient.len() as u64));
    group.bench_function("parse lenient spellings (grammar)", |b| {
        b.iter(|| {
            for token in &lenient {
                black_box(parse_san(black_box(token), SanOptions::LENIENT).is_ok());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, san);
criterion_main!(benches);
