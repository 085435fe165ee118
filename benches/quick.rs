//! The fast path against the full resolver, per move: every ply of the first
//! 200 games of `../shared/data/pgn/shakmaty-bench/twic1599_1000k.pgn`, each
//! SAN looked up in the position before it ([`SanPlus::to_move`], which finds
//! canonical SAN without generating the legal moves, versus [`resolve`]), then
//! whole games replayed from the tokens with [`play_with_checkers`] (parse,
//! find, check mark, play) as `sanfen check` does. Throughput is in plies.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sanfen::Position;
use sanfen::pgn::reader::{Location, Reader, Visitor};
use sanfen::play::{Options, play_with_checkers};
use sanfen::resolve::resolve;
use sanfen::san::SanPlus;

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

/// Replays a game as the checker does, from the tokens: parse, find, check
/// mark, play; the number of moves written as canonical SAN, check mark
/// included.
fn replay(game: &[Vec<u8>]) -> usize {
    let mut pos = Position::default();
    let mut checkers = pos.checkers();
    let mut canonical = 0;
    for token in game {
        let played = play_with_checkers(&mut pos, checkers, token, Options::PGN)
            .unwrap_or_else(|e| panic!("{pos}: {}: {e}", String::from_utf8_lossy(token)));
        checkers = played.checkers;
        canonical += usize::from(played.is_canonical());
    }
    canonical
}

fn find_versus_resolve(c: &mut Criterion) {
    let games = games();
    assert_eq!(games.len(), GAMES);
    let plies = plies(&games);
    let strict = plies.iter().filter(|(pos, san_plus)| san_plus.to_move_strict(pos).is_ok()).count();
    assert_eq!(strict, plies.len(), "every move of the games is canonical SAN");

    let mut group = c.benchmark_group("quick");
    group.throughput(Throughput::Elements(plies.len() as u64));
    group.bench_function("to_move", |b| {
        b.iter(|| {
            for (pos, san_plus) in &plies {
                let _ = black_box(black_box(san_plus).to_move(black_box(pos)));
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
    let canonical: usize = games.iter().map(|game| replay(game)).sum();
    assert_eq!(canonical, plies.len(), "every token of the games is canonical SAN, check marks right");
    group.bench_function("parse+find+suffix+play", |b| {
        b.iter(|| games.iter().map(|game| replay(game)).sum::<usize>());
    });
    group.finish();
}

criterion_group!(benches, find_versus_resolve);
criterion_main!(benches);
