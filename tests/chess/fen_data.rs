//! FEN parsing and legality against real data: the vectors of other libraries'
//! test suites (`fen_cases.tsv`) and every position of `../shared/data/epd/`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use sanfen::fen::EnPassantMode;
use sanfen::{CastlingMode, Fen, Position, Severity};

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data").join(path)
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(data(path)).unwrap_or_else(|e| panic!("{path}: {e} (is ../shared beside the repository?)"))
}

/// Our verdict on one FEN: `invalid` (syntax or legality error) or `valid`.
fn verdict(fen: &str, mode: CastlingMode) -> &'static str {
    match Fen::parse(fen, mode) {
        Err(_) => "invalid",
        Ok(parsed) => match Position::from_setup(parsed.setup, mode) {
            Ok(_) => "valid",
            Err(_) => "invalid",
        },
    }
}

/// Rows where our verdict differs from the row's `expected` (the sources
/// disagree among themselves), with our verdict and why.
const DIFFERENCES: &[(&str, &str, &str)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 ",
        "valid",
        "chess.js rejects a missing fullmove number; we accept missing trailing fields with a lint (python-chess agrees)",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
        "valid",
        "fullmove 0 is accepted with a lint and read as 1 (python-chess agrees)",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1",
        "invalid",
        "chess.js silently drops the impossible rights; we report them (python-chess agrees)",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1",
        "invalid",
        "chess.js silently drops the impossible rights; we report them",
    ),
    (
        "r3k2r/8/8/8/8/8/8/1R2K2R w KQkq - 0 1",
        "invalid",
        "chess.js silently drops the impossible rights; we report them",
    ),
    (
        "r2k3r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "invalid",
        "chess.js silently drops the impossible rights; we report them",
    ),
    (
        "r3k1r1/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "invalid",
        "chess.js silently drops the impossible rights; we report them",
    ),
    (
        "1r2k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "invalid",
        "chess.js silently drops the impossible rights; we report them",
    ),
    ("8/8/8/8/8/8/8/8 w - - 1+2 12 42", "invalid", "three-check counters are a variant, not FEN"),
    ("8/8/8/8/8/8/8/8[Q] b - - 0 1", "invalid", "crazyhouse pockets are a variant, not FEN"),
    ("r3k2r/8/8/8/8/8/8/R3K2R[] w Qkq - 0 1", "invalid", "crazyhouse pockets are a variant, not FEN"),
    (
        "r3kb1r/p1pN1ppp/2p1p3/8/2Pn4/3Q4/PP3PPP/R1B2q~K1[] w kq - 0 1",
        "invalid",
        "crazyhouse promoted-piece marks are a variant",
    ),
    (
        "rQ~q1kb1r/pp2pppp/2p5/8/3P1Bb1/4PN2/PPP3PP/R2QKB1R[NNpn] b KQkq - 0 9",
        "invalid",
        "crazyhouse pockets are a variant",
    ),
];

/// `parses` rows that do parse, but whose canonical FEN differs from the input.
const NOT_ROUND_TRIPPED: &[(&str, &str, &str)] = &[
    (
        "rnbqkb1r/p1p1nppp/2Pp4/3P1PP1/PPPPPP1P/PPP1PPPP/PPPnbqkb/PPPPPPPP w ha - 1 6",
        "rnbqkb1r/p1p1nppp/2Pp4/3P1PP1/PPPPPP1P/PPP1PPPP/PPPnbqkb/PPPPPPPP w kq - 1 6",
        "Shredder letters h and a name the outermost rooks, which canonical FEN writes kq",
    ),
    (
        "rnbNRbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQhb - 2 3",
        "rnbNRbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkb - 2 3",
        "Shredder h is the h-file right, written k",
    ),
];

#[test]
fn fen_cases_tsv() {
    let text = String::from_utf8(read("vectors/fen_cases.tsv")).unwrap();
    let mut rows = 0;
    let mut differences_used = 0;
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (fen, expected, detail) = (cols[0], cols[1], cols[2]);
        let mode = if detail.contains("chess960=True") { CastlingMode::Chess960 } else { CastlingMode::Standard };
        rows += 1;
        let ours = verdict(fen, mode);
        if let Some((_, theirs_differs, why)) = DIFFERENCES.iter().find(|(f, _, _)| *f == fen) {
            assert_eq!(ours, *theirs_differs, "{fen}: {why}");
            assert_ne!(ours, expected, "{fen} is listed as a difference but agrees");
            differences_used += 1;
            continue;
        }
        match expected {
            "parses" => {
                let parsed = Fen::parse(fen, mode).unwrap_or_else(|e| panic!("{fen}: {e}"));
                let written = parsed.to_string();
                match NOT_ROUND_TRIPPED.iter().find(|(f, _, _)| *f == fen) {
                    Some((_, canonical, why)) => assert_eq!(written, *canonical, "{why}"),
                    None => assert_eq!(written, fen),
                }
            }
            _ => assert_eq!(ours, expected, "{fen} ({detail})"),
        }
        if detail.contains("round-trip must be identical") && expected != "parses" {
            let pos = Position::from_setup(Fen::parse(fen, mode).unwrap().setup, mode).unwrap();
            assert_eq!(pos.fen_with(EnPassantMode::AsGiven).to_string(), fen);
        }
    }
    assert_eq!(rows, 183);
    assert_eq!(differences_used, DIFFERENCES.len());
}

/// What a whole file gave: positions, and how often each warning or lint code came up.
#[derive(Debug, Default, PartialEq, Eq)]
struct Tally {
    positions: usize,
    findings: BTreeMap<&'static str, usize>,
    /// Positions whose canonical FEN dropped the given en passant square.
    ep_dropped: usize,
    /// Positions that are not legal, with the codes of their errors.
    illegal: Vec<(String, Vec<&'static str>)>,
}

/// How a file holds its positions.
#[derive(Clone, Copy)]
enum Layout {
    /// The whole line is the FEN.
    Line,
    /// EPD: the first four fields, then operations.
    Epd,
    /// A table with a header line: the FEN is column `.1` of columns split at `.0`.
    Column(char, usize),
}

fn tally(path: &str, layout: Layout, mode: CastlingMode) -> Tally {
    let bytes = read(path);
    let mut tally = Tally::default();
    let skip = usize::from(matches!(layout, Layout::Column(..)));
    for raw in bytes.split(|&b| b == b'\n').skip(skip) {
        let line = std::str::from_utf8(raw).expect("utf-8");
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let text: String = match layout {
            Layout::Line => line.to_owned(),
            Layout::Epd => trimmed.split(' ').take(4).collect::<Vec<_>>().join(" "),
            Layout::Column(separator, index) => line.split(separator).nth(index).expect("column").to_owned(),
        };
        let fen = Fen::parse(&text, mode).unwrap_or_else(|e| panic!("{path}: {text:?}: {e}"));
        for lint in &fen.lints {
            *tally.findings.entry(lint.code()).or_default() += 1;
        }
        let reasons = Position::check(&fen.setup, mode);
        let errors: Vec<&'static str> =
            reasons.iter().filter(|r| r.severity() == Severity::Error).map(|r| r.code()).collect();
        if !errors.is_empty() {
            tally.illegal.push((text, errors));
            continue;
        }
        for reason in &reasons {
            *tally.findings.entry(reason.code()).or_default() += 1;
        }
        let position = Position::from_setup(fen.setup.clone(), mode).unwrap();
        // normalize round trip: the canonical FEN is the input written canonically,
        // the en passant square dropped only when no capture is legal
        let canonical = position.fen().to_string();
        let mut expected_fields: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
        let defaults = ["", "w", "-", "-", "0", "1"];
        for default in &defaults[expected_fields.len()..] {
            expected_fields.push((*default).to_owned());
        }
        if expected_fields[3] != "-" && position.legal_ep_square().is_none() {
            expected_fields[3] = "-".to_owned();
            tally.ep_dropped += 1;
        }
        assert_eq!(canonical, expected_fields.join(" "), "{path}");
        // and the canonical text is a fixed point
        let again = Fen::parse(&canonical, mode).unwrap();
        assert!(again.lints.is_empty(), "{canonical}: {:?}", again.lints);
        let again = Position::from_setup(again.setup, mode).unwrap();
        assert_eq!(again.fen().to_string(), canonical);
        assert_eq!(again, Position::from_setup(position.fen().setup, mode).unwrap());
        tally.positions += 1;
    }
    tally
}

fn expect(
    path: &str,
    layout: Layout,
    mode: CastlingMode,
    positions: usize,
    findings: &[(&'static str, usize)],
    ep_dropped: usize,
) {
    expect_with_illegal(path, layout, mode, positions, findings, ep_dropped, &[]);
}

fn expect_with_illegal(
    path: &str,
    layout: Layout,
    mode: CastlingMode,
    positions: usize,
    findings: &[(&'static str, usize)],
    ep_dropped: usize,
    illegal: &[(&str, &[&'static str])],
) {
    let got = tally(path, layout, mode);
    let illegal = illegal.iter().map(|(fen, codes)| ((*fen).to_owned(), codes.to_vec())).collect();
    let want = Tally { positions, findings: findings.iter().copied().collect(), ep_dropped, illegal };
    assert_eq!(got, want, "{path}");
}

#[test]
fn popular_positions() {
    // 4-field EPD, each line ending in two spaces
    expect(
        "epd/stockfish-books/popularpos_lichess_v3.epd",
        Layout::Line,
        CastlingMode::Standard,
        200_000,
        &[("fen:missing-fields", 200_000), ("fen:trailing-whitespace", 200_000)],
        0,
    );
}

#[test]
fn endgames() {
    expect("epd/stockfish-books/endgames.epd", Layout::Line, CastlingMode::Standard, 157_846, &[], 0);
}

#[test]
fn stalemates() {
    expect("epd/stockfish-books/stalemates_200d30_v1.epd", Layout::Line, CastlingMode::Standard, 10_796, &[], 0);
}

#[test]
fn chess960_openings() {
    expect("epd/stockfish-books/FRC_openings.epd", Layout::Line, CastlingMode::Chess960, 960, &[], 0);
}

#[test]
fn small_suites() {
    expect(
        "epd/python-chess/bratko-kopec.epd",
        Layout::Epd,
        CastlingMode::Standard,
        24,
        &[("fen:missing-fields", 24)],
        0,
    );
    // Tablebase test positions are enumerated, not played: two of them are double
    // checks no move can give (a rook next to the king plus a knight; a rook and
    // a bishop with no square between them and the king that the other piece
    // could have left). python-chess does not look for this; we report it.
    expect_with_illegal(
        "epd/python-chess/endgame.epd",
        Layout::Epd,
        CastlingMode::Standard,
        198,
        &[("fen:missing-fields", 200)],
        0,
        &[
            ("8/5k2/8/6n1/7r/7K/8/8 w - -", &["fen:impossible-check"]),
            ("1k4b1/8/1r2K3/8/8/8/8/8 w - -", &["fen:impossible-check"]),
        ],
    );
    expect(
        "epd/python-chess/endgame-dm-4.epd",
        Layout::Epd,
        CastlingMode::Standard,
        48,
        &[("fen:en-passant-not-capturable", 1), ("fen:missing-fields", 48)],
        1,
    );
    expect(
        "epd/python-chess/endgame-dm-5.epd",
        Layout::Epd,
        CastlingMode::Standard,
        27,
        &[("fen:missing-fields", 27)],
        0,
    );
    expect(
        "epd/pychess/GetMated.epd",
        Layout::Epd,
        CastlingMode::Standard,
        3_119,
        &[("fen:en-passant-not-capturable", 20), ("fen:missing-fields", 3_119)],
        20,
    );
    // 1. e4 c5 with the en passant square c6 that no pawn can use
    expect(
        "epd/pychess/pawn.epd",
        Layout::Epd,
        CastlingMode::Standard,
        1,
        &[("fen:en-passant-not-capturable", 1), ("fen:missing-fields", 1)],
        1,
    );
    expect("epd/pychess/single.epd", Layout::Epd, CastlingMode::Standard, 1, &[("fen:missing-fields", 1)], 0);
    // a bare FEN with a CRLF line ending: the CR is trailing whitespace
    expect("epd/pychess/kkppr.fen", Layout::Line, CastlingMode::Standard, 1, &[("fen:trailing-whitespace", 1)], 0);
}

#[test]
fn puzzles() {
    // the CSV's FEN column: the position before the opponent's first move
    expect("epd/puzzles/lichess_db_puzzle.csv", Layout::Column(',', 1), CastlingMode::Standard, 1_499, &[], 0);
}

#[test]
fn eco_lines_final_positions() {
    // 4-field EPD after each opening line, en passant square only when capturable
    expect(
        "epd/notnil-chess/eco_lichess.tsv",
        Layout::Column('\t', 4),
        CastlingMode::Standard,
        3_397,
        &[("fen:missing-fields", 3_397)],
        0,
    );
}
