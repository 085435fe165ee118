//! The engine: mate in 2 problems, hanging material, determinism, no-move
//! positions.

use std::time::{Duration, Instant};

use sanfen::engine::{Engine, Limits, Score, evaluate, search};
use sanfen::{CastlingMode, Move, Position, Role, Square};

const MATE_IN_2: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/pgn/pychess/learn/mate_in_2.pgn");

fn position(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn uci(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// Whether `pos` (the side to move) has a mating move.
fn has_mate_in_1(pos: &Position) -> bool {
    pos.legal_moves().into_iter().any(|m| pos.play(m).expect("legal").is_checkmate())
}

/// Whether `m` forces mate next move: every reply allows a mate (no reply at
/// all when `m` mates at once).
fn forces_mate_in_2(pos: &Position, m: Move) -> bool {
    let after = pos.play(m).expect("legal");
    if after.is_checkmate() {
        return true;
    }
    let replies = after.legal_moves();
    !replies.is_empty() && replies.into_iter().all(|reply| has_mate_in_1(&after.play(reply).expect("legal")))
}

/// The `[FEN "..."]` tags of the file, decoded from ISO-8859-1.
fn mate_in_2_fens() -> Vec<String> {
    let bytes = std::fs::read(MATE_IN_2).expect("read mate_in_2.pgn");
    let text: String = bytes.iter().map(|&b| char::from(b)).collect();
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("[FEN \"")?.strip_suffix("\"]").map(str::to_owned))
        .collect()
}

#[test]
fn mate_in_2_problems_at_depth_3() {
    let fens = mate_in_2_fens();
    assert_eq!(fens.len(), 166);
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut nodes = 0;
    for fen in &fens {
        let pos = position(fen);
        let result = search(&pos, Limits::depth(3)).expect("the side to move has moves");
        nodes += result.nodes;
        let mate = matches!(result.score, Score::Mate(n) if (1..=2).contains(&n));
        if !mate || !forces_mate_in_2(&pos, result.best) {
            failures.push(format!("{fen}: {} {}", uci(result.best), result.score));
        }
    }
    eprintln!(
        "mate in 2: {} of {} at depth 3, {nodes} nodes, {:?}",
        fens.len() - failures.len(),
        fens.len(),
        start.elapsed()
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn takes_hanging_material_at_depth_2() {
    let cases = [
        // a rook on an open file
        ("4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1", "d1d5"),
        // a knight en prise to a pawn
        ("4k3/8/8/8/4n3/3P4/8/4K3 w - - 0 1", "d3e4"),
        // Black takes a loose queen with the bishop
        ("4k3/7p/2b5/8/8/8/6Q1/4K3 b - - 0 1", "c6g2"),
        // the free piece is the larger one: the queen, not the rook
        ("4k3/8/8/8/1q1r4/8/2N5/4K3 w - - 0 1", "c2b4"),
    ];
    for (fen, expected) in cases {
        let pos = position(fen);
        let result = search(&pos, Limits::depth(2)).expect("moves");
        assert_eq!(uci(result.best), expected, "{fen}");
        // the gain shows in the score: at least a pawn over the static balance
        let before = evaluate(&pos);
        assert!(
            matches!(result.score, Score::Centipawns(cp) if cp > before + 100),
            "{fen}: {} from {before}",
            result.score
        );
    }
}

#[test]
fn leaves_a_poisoned_pawn_at_depth_3() {
    // d5 is defended by e6: Qxd5 exd5 loses the queen for a pawn
    let pos = position("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1");
    let result = search(&pos, Limits::depth(3)).expect("moves");
    assert_ne!(uci(result.best), "d1d5");
    assert!(!result.best.is_capture());
    // and Black, to move, does not grab a pawn guarded by a pawn with the queen
    let pos = position("3qk3/8/8/3p4/2P1P3/8/8/4K3 b - - 0 1");
    let result = search(&pos, Limits::depth(3)).expect("moves");
    assert_ne!(uci(result.best), "d8d5");
}

#[test]
fn deterministic_at_a_fixed_depth() {
    let positions = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ];
    for fen in positions {
        let pos = position(fen);
        let first = search(&pos, Limits::depth(4)).expect("moves");
        let second = Engine::new().search(&pos, Limits::depth(4)).expect("moves");
        assert_eq!(first, second, "{fen}");
        assert_eq!(first.depth, 4);
        assert_eq!(first.pv.first(), Some(&first.best));
        // the principal variation is a line of legal moves
        let mut line = pos.clone();
        for &m in &first.pv {
            line = line.play(m).expect("pv move is legal");
        }
    }
}

#[test]
fn scholars_mate_is_found() {
    let pos = position("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    let result = search(&pos, Limits::depth(4)).expect("moves");
    assert_eq!(result.score, Score::Mate(1));
    assert_eq!(
        result.best,
        Move::Normal {
            role: Role::Queen,
            from: Square::H5,
            capture: Some(Role::Pawn),
            to: Square::F7,
            promotion: None,
        }
    );
}

#[test]
fn mate_scores_count_moves() {
    // fool's mate: Black mates at once with Qh4#
    let pos = position("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
    let result = search(&pos, Limits::depth(2)).expect("moves");
    assert_eq!(result.score, Score::Mate(1));
    let after = pos.play(result.best).expect("legal");
    assert!(after.is_checkmate());

    // after 1. Nf6+ of the first mate in 2 problem, Black is mated next move
    let pos = position("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 0");
    let nf6 = pos.legal_moves().into_iter().find(|&m| uci(m) == "d5f6").expect("Nf6+");
    let pos = pos.play(nf6).expect("legal");
    let result = search(&pos, Limits::depth(2)).expect("moves");
    assert_eq!(result.score, Score::Mate(-1));
}

#[test]
fn no_legal_move_gives_none() {
    // checkmate
    let mated = position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert!(mated.is_checkmate());
    assert_eq!(search(&mated, Limits::depth(3)), None);
    // stalemate
    let stalemate = position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(stalemate.is_stalemate());
    assert_eq!(search(&stalemate, Limits::default()), None);
}

#[test]
fn draws_score_zero() {
    // the only move, Kxg2, leaves king against king
    let pos = position("8/8/8/8/8/8/6q1/k6K w - - 0 1");
    let result = search(&pos, Limits::depth(3)).expect("moves");
    assert_eq!(uci(result.best), "h1g2");
    assert_eq!(result.score, Score::Centipawns(0));
}

#[test]
fn time_limits() {
    // durations are measured in benchmarks, never asserted here: only what a
    // time-limited search returns
    let pos = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let result = search(&pos, Limits::time(Duration::from_millis(50))).expect("moves");
    assert!(result.depth >= 1);
    assert!(pos.is_legal(result.best));
    // a zero budget still finishes iteration 1
    let result = search(&pos, Limits::time(Duration::ZERO)).expect("moves");
    assert_eq!(result.depth, 1);
    assert!(pos.is_legal(result.best));
}
