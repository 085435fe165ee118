//! Seed 000's acceptance: its two examples (`shared/seeds/000_*.txt`, sections
//! 4.1 and 4.2) listed by `sanfen moves --order value --notation
//! file-prefixed`, byte for byte. The expected listings are transcribed from the
//! seed into `tests/data/seed000_*.txt`, one move per line.

use assert_cmd::cargo::cargo_bin_cmd;

/// Runs the seed's command on `fen` and compares stdout with the fixture.
fn assert_listing(fen: &str, fixture: &str) {
    let path = format!("{}/tests/data/{fixture}", env!("CARGO_MANIFEST_DIR"));
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{path}: {err}"));
    cargo_bin_cmd!("sanfen")
        .args(["moves", "--fen", fen, "--order", "value", "--notation", "file-prefixed"])
        .assert()
        .code(0)
        .stdout(expected)
        .stderr("");
}

#[test]
fn seed_000_example_1_start_position() {
    assert_listing("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "seed000_1.txt");
}

#[test]
fn seed_000_example_2_promotions_disambiguation_and_castling() {
    assert_listing("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", "seed000_2.txt");
}

#[test]
fn seed_000_fixtures_are_the_seeds_listings() {
    // guards the transcription: the counts and the landmarks of section 4.2
    let read =
        |name: &str| std::fs::read_to_string(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let (first, second) = (read("seed000_1.txt"), read("seed000_2.txt"));
    assert_eq!(first.lines().count(), 20);
    assert_eq!(second.lines().count(), 44);
    assert!(first.ends_with("Nh3\n") && second.ends_with("Kxf2\nKg1\n"));
    assert!(second.contains("cc3\ndxc8N\ndxc8B\ndxc8R\ndxc8Q\ngg3\n"));
}
