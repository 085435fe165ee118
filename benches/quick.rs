//! The fast path against the full resolver, per move: every ply of the first
//! 200 games of `../shared/data/pgn/shakmaty-bench/twic1599_1000k.pgn`, each
//! SAN looked up in the position before it ([`find`] versus [`resolve`]), then
//! whole games replayed (find, check mark, play; and with the SAN parsed from
//! text too) as `sanfen check` does. Throughput is in plies.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sanfen::Position;
use sanfen::pgn::reader::{Location, Reader, Visitor};
use sanfen::quick::{Quick, find, suffix_after};
use sanfen::resolve::resolve;
use sanfen::san::{San, SanPlus};

/// Games read from the file.
const GAMES: usize = 200;

/// Collects the move tokens of a game.
struct Tokens(Vec<Vec<u8>>);

impl Visitor for Tokens {
    type Output = Vec<Vec<u8>>;

    fn san(&mut self, token: &[u8], _at: Location) {
        self.0.push(token.to_vec());
    }

    fn end_game(&mut self, _at: Location) -> Vec<Vec<u8>> {
        std::mem::take(&mut self.0)
    }
}

/// The first [`GAMES`] games of the file, each as its move tokens (read by
/// the PGN reader; the file has no comments or variations).
fn games() -> Vec<Vec<Vec<u8>>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/pgn/shakmaty-bench/twic1599_1000k.pgn");
    let bytes = std::fs::read(path).expect("../shared/data beside the repository");
    let mut reader = Reader::new(&bytes);
    let mut tokens = Tokens(Vec::new());
    std::iter::from_fn(|| reader.read_game(&mut tokens)).take(GAMES).collect()
}

/// Every ply of the games: the position before it and the SAN as written.
fn plies(games: &[Vec<Vec<u8>>]) -> Vec<(Position, SanPlus)> {
    let mut plies = Vec::new();
    for game in games {
        let mut pos = Position::default();
        for token in game {
            let san_plus = SanPlus::from_ascii(token).expect("strict SAN");
            let m = resolve(&pos, &san_plus).outcome.expect("a legal move");
            plies.push((pos.clone(), san_plus));
            pos.play_unchecked(m);
        }
    }
    plies
}

/// Replays a game as the checker does: parse, find, check mark, play; the
/// number of moves whose check mark is right.
fn replay(game: &[Vec<u8>]) -> usize {
    let mut pos = Position::default();
    let mut right = 0;
    for token in game {
        let san_plus = SanPlus::from_ascii(token).expect("strict SAN");
        let Some(m) = find(&pos, &san_plus.san).to_move() else { panic!("{pos}: {san_plus}") };
        pos.play_unchecked(m);
        right += usize::from(suffix_after(&pos) == san_plus.suffix);
    }
    right
}

/// [`replay`] with the SAN already parsed.
fn replay_parsed(game: &[SanPlus]) -> usize {
    let mut pos = Position::default();
    let mut right = 0;
    for san_plus in game {
        let Some(m) = find(&pos, &san_plus.san).to_move() else { panic!("{pos}: {san_plus}") };
        pos.play_unchecked(m);
        right += usize::from(suffix_after(&pos) == san_plus.suffix);
    }
    right
}

fn find_versus_resolve(c: &mut Criterion) {
    let games = games();
    assert_eq!(games.len(), GAMES);
    let plies = plies(&games);
    let sans: Vec<(Position, San)> = plies.iter().map(|(pos, san_plus)| (pos.clone(), san_plus.san)).collect();
    let canonical = sans.iter().filter(|(pos, san)| matches!(find(pos, san), Quick::Canonical(_))).count();
    assert_eq!((sans.len(), canonical), (sans.len(), sans.len()), "every move of the games is canonical SAN");

    let mut group = c.benchmark_group("quick");
    group.throughput(Throughput::Elements(sans.len() as u64));
    group.bench_function("find", |b| {
        b.iter(|| {
            for (pos, san) in &sans {
                black_box(find(black_box(pos), black_box(san)));
            }
        });
    });
    group.bench_function("resolve", |b| {
        b.iter(|| {
            for (pos, san_plus) in &plies {
                black_box(resolve(black_box(pos), black_box(san_plus)));
            }
        });
    });
    let parsed: Vec<Vec<SanPlus>> = games
        .iter()
        .map(|game| game.iter().map(|token| SanPlus::from_ascii(token).expect("strict SAN")).collect())
        .collect();
    let right: usize = parsed.iter().map(|game| replay_parsed(game)).sum();
    assert_eq!(right, sans.len(), "every check mark of the games is right");
    group.bench_function("find+suffix+play", |b| {
        b.iter(|| parsed.iter().map(|game| replay_parsed(game)).sum::<usize>());
    });
    group.bench_function("parse+find+suffix+play", |b| {
        b.iter(|| games.iter().map(|game| replay(game)).sum::<usize>());
    });
    group.finish();
}

criterion_group!(benches, find_versus_resolve);
criterion_main!(benches);
