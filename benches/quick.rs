//! The fast path against the full resolver, per move: every ply of the first
//! 200 games of `../shared/data/pgn/shakmaty-bench/twic1599_1000k.pgn`, each
//! SAN looked up in the position before it ([`find`] versus [`resolve`]), then
//! whole games replayed (find, check mark, play; and with the SAN parsed from
//! text too) as `sanfen check` does. Throughput is in plies.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sanfen::Position;
use sanfen::quick::{Quick, find, suffix_after};
use sanfen::resolve::resolve;
use sanfen::san::{San, SanPlus};

/// Games read from the file.
const GAMES: usize = 200;

/// The first [`GAMES`] games of the file, each as its move tokens (no tags,
/// move numbers or result; the file has no comments or variations).
fn games() -> Vec<Vec<Vec<u8>>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/pgn/shakmaty-bench/twic1599_1000k.pgn");
    let text = std::fs::read_to_string(path).expect("../shared/data beside the repository");
    let mut games: Vec<Vec<Vec<u8>>> = Vec::new();
    let mut in_tags = false;
    for line in text.lines() {
        if line.starts_with('[') {
            if !in_tags {
                if games.len() == GAMES {
                    break;
                }
                games.push(Vec::new());
            }
            in_tags = true;
            continue;
        }
        in_tags = false;
        let Some(game) = games.last_mut() else { continue };
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
