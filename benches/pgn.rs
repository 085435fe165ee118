//! PGN checking: reading and validating whole files, as `sanfen check -j 1`
//! does (chunks of whole games, each read and validated), and reading alone;
//! and the rows of the moves table, built as `sanfen export --table moves
//! -j 1` builds them (every move validated too), before they are encoded.
//! Inputs: a TWIC issue (OTB games, no comments), a lichess dump (a clock
//! comment after every move) and a TCEC file (long engine comments).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sanfen::pgn::chunk::Chunker;
use sanfen::pgn::reader::{Location, Reader, Visitor};
use sanfen::pgn::rows::{MoveRowOptions, MoveRows};
use sanfen::pgn::validate::{Options, Validator};

const FILES: [(&str, &str); 3] = [
    ("twic", "shakmaty-bench/twic1599_1000k.pgn"),
    ("lichess", "shakmaty-bench/lichess_db_1000k.pgn"),
    ("tcec", "tcec/TCEC_Season_5_-_Superfinal.pgn"),
];

fn read(name: &str) -> Vec<u8> {
    let path = format!("{}/../shared/data/pgn/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(path).expect("../shared/data beside the repository")
}

/// Counts games and does nothing else.
struct Count;

impl Visitor for Count {
    type Output = ();

    fn end_game(&mut self, _: Location) {}
}

/// Validates every game; the number of moves played.
fn check(data: &[u8]) -> u64 {
    let mut chunker = Chunker::new(data);
    let mut moves = 0;
    let mut buffer = Vec::new();
    while let Some(chunk) = chunker.next_chunk(buffer).expect("reading a slice") {
        let mut validator = Validator::with_base(&chunk.data, chunk.start.offset, Options::default());
        let mut reader = Reader::with_start(&chunk.data, chunk.start);
        while let Some(report) = reader.read_game(&mut validator) {
            moves += report.moves;
        }
        buffer = chunk.data;
    }
    moves
}

/// The moves table's rows of every chunk, one `MoveRows` reused as
/// `sanfen export` reuses it; the number of rows.
fn rows(data: &[u8]) -> usize {
    let mut chunker = Chunker::new(data);
    let mut rows = MoveRows::new(MoveRowOptions::default());
    let (mut games, mut len) = (0, 0);
    let mut buffer = Vec::new();
    while let Some(chunk) = chunker.next_chunk(buffer).expect("reading a slice") {
        rows.read_chunk(&chunk, games + 1).expect("no game over the chunk limit");
        games += rows.games;
        len += rows.len();
        buffer = chunk.data;
    }
    len
}

fn bench(c: &mut Criterion) {
    for (label, name) in FILES {
        let data = read(name);
        let mut group = c.benchmark_group(format!("pgn/{label}"));
        group.throughput(Throughput::Bytes(data.len() as u64));
        group.sample_size(20);
        group.bench_function("read", |b| {
            b.iter(|| {
                let mut reader = Reader::new(black_box(&data));
                let mut games = 0;
                while reader.read_game(&mut Count).is_some() {
                    games += 1;
                }
                games
            })
        });
        group.bench_function("check", |b| b.iter(|| check(black_box(&data))));
        group.bench_function("rows", |b| b.iter(|| rows(black_box(&data))));
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
