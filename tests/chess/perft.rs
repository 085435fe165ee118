//! Perft over every public suite in `../shared/data/perft/` (see its
//! `../SOURCES.md`, perft section): node counts of the legal move tree, standard
//! and Chess960, against the published numbers.
//!
//! The default run checks every (position, depth) pair whose count is at most
//! [`DEFAULT_LIMIT`] nodes; `cargo test --test perft -- --ignored` checks every
//! depth (hours: the files hold about 5.5 * 10^12 leaf nodes in all), or with
//! `PERFT_MAX_NODES=N` every depth of at most `N` nodes.
//!
//! Each suite asserts how many positions and pairs it read, so a parser that
//! skips lines cannot pass, and collects every failure (a position that does not
//! load, a wrong count, a panic) before one assertion lists them all.
//!
//! The variant files in `perft/variants/` are not chess: their positions are
//! refused as positions of their variant ([`variant_files_are_refused`]), and
//! [`variant_fens_alone`] pins what the FEN reader says about each FEN alone.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use sanfen::{CastlingMode, Fen, Position, Variant, perft};

/// The perft data folder.
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/perft");

/// The default run checks the depths whose count is at most this.
const DEFAULT_LIMIT: u64 = 1_000_000;

/// One position of a suite and its published counts.
#[derive(Debug)]
struct Record {
    /// 1-based line of the FEN in its file.
    line: usize,
    fen: String,
    /// `(depth, nodes)`, as listed.
    counts: Vec<(u32, u64)>,
}

/// How a suite file is written.
#[derive(Copy, Clone, Debug)]
enum Format {
    /// shakmaty's format: `id`, `epd FEN`, `perft DEPTH NODES` lines, blank
    /// lines between records, `#` comments.
    Perft,
    /// Ethereal's and pychess's: `FEN ;D1 n ;D2 n ...` per line, `#` comments.
    Epd,
}

/// A suite file, how to read it, and what it holds.
#[derive(Copy, Clone, Debug)]
struct Suite {
    /// Relative to [`DATA`].
    path: &'static str,
    format: Format,
    /// How castling letters are read: `.perft` files and the Chess960 files in
    /// Chess960 mode (X-FEN: `KQkq` is the outermost rook), the standard `.epd`
    /// files in standard mode.
    mode: CastlingMode,
    /// Positions in the file.
    positions: usize,
    /// (position, depth) pairs with at most [`DEFAULT_LIMIT`] nodes.
    default_pairs: usize,
    /// All (position, depth) pairs.
    all_pairs: usize,
}

const STANDARD_EPD: Suite = Suite {
    path: "standard/standard.epd",
    format: Format::Epd,
    mode: CastlingMode::Standard,
    positions: 128,
    default_pairs: 677,
    all_pairs: 759,
};
const PERFTSUITE: Suite = Suite {
    path: "standard/perftsuite.epd",
    format: Format::Epd,
    mode: CastlingMode::Standard,
    positions: 127,
    default_pairs: 678,
    all_pairs: 762,
};
const PERFTSUITE2: Suite = Suite {
    path: "standard/perftsuite2.epd",
    format: Format::Epd,
    mode: CastlingMode::Standard,
    positions: 32,
    default_pairs: 16,
    all_pairs: 32,
};
const TRICKY: Suite = Suite {
    path: "standard/tricky.perft",
    format: Format::Perft,
    mode: CastlingMode::Chess960,
    positions: 26,
    default_pairs: 87,
    all_pairs: 88,
};
const RANDOM: Suite = Suite {
    path: "standard/random.perft",
    format: Format::Perft,
    mode: CastlingMode::Chess960,
    positions: 6838,
    default_pairs: 27_002,
    all_pairs: 41_028,
};
const CHESS960: Suite = Suite {
    path: "chess960/chess960.perft",
    format: Format::Perft,
    mode: CastlingMode::Chess960,
    positions: 960,
    default_pairs: 3771,
    all_pairs: 5760,
};
const FISCHER: Suite = Suite {
    path: "chess960/fischer.epd",
    format: Format::Epd,
    mode: CastlingMode::Chess960,
    positions: 960,
    default_pairs: 3771,
    all_pairs: 5760,
};
const FRC_PERFTSUITE: Suite = Suite {
    path: "chess960/frc_perftsuite.epd",
    format: Format::Epd,
    mode: CastlingMode::Chess960,
    positions: 9,
    default_pairs: 35,
    all_pairs: 62,
};

const SUITES: [Suite; 8] = [STANDARD_EPD, PERFTSUITE, PERFTSUITE2, TRICKY, RANDOM, CHESS960, FISCHER, FRC_PERFTSUITE];

fn read(relative: &str) -> String {
    let path = format!("{DATA}/{relative}");
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{path}: {err} (../shared/data beside the repository?)"))
}

fn number<T: std::str::FromStr>(text: &str, what: &str, line: usize) -> T {
    text.parse().unwrap_or_else(|_| panic!("line {line}: {what} {text:?} is not a number"))
}

/// Reads shakmaty's `.perft` format.
fn parse_perft(text: &str) -> Vec<Record> {
    let mut records: Vec<Record> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number_of_line = index + 1;
        let line = line.trim();
        if let Some(fen) = line.strip_prefix("epd ") {
            records.push(Record { line: number_of_line, fen: fen.trim().to_owned(), counts: Vec::new() });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let record = records.last_mut().unwrap_or_else(|| panic!("line {number_of_line}: perft before any epd"));
            let (depth, nodes) =
                rest.split_once(' ').unwrap_or_else(|| panic!("line {number_of_line}: expected `perft DEPTH NODES`"));
            record.counts.push((number(depth, "depth", number_of_line), number(nodes.trim(), "nodes", number_of_line)));
        } else {
            assert!(
                line.is_empty() || line.starts_with('#') || line.starts_with("id "),
                "line {number_of_line}: unexpected {line:?}"
            );
        }
    }
    records
}

/// Reads the `FEN ;D1 n ;D2 n ...` format.
fn parse_epd(text: &str) -> Vec<Record> {
    let mut records = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number_of_line = index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';');
        let fen = fields.next().unwrap_or_default().trim().to_owned();
        let counts = fields
            .map(|field| {
                let (depth, nodes) = field
                    .trim()
                    .strip_prefix('D')
                    .and_then(|rest| rest.split_once(' '))
                    .unwrap_or_else(|| panic!("line {number_of_line}: expected `;Dk nodes`, found {field:?}"));
                (number(depth, "depth", number_of_line), number(nodes.trim(), "nodes", number_of_line))
            })
            .collect::<Vec<_>>();
        assert!(!counts.is_empty(), "line {number_of_line}: no counts");
        records.push(Record { line: number_of_line, fen, counts });
    }
    records
}

fn records(suite: &Suite) -> Vec<Record> {
    let text = read(suite.path);
    let records = match suite.format {
        Format::Perft => parse_perft(&text),
        Format::Epd => parse_epd(&text),
    };
    assert_eq!(records.len(), suite.positions, "{}: positions read", suite.path);
    records
}

/// Loads a suite position: leniently, since suites hold composed positions that
/// no game reaches (chessprogramming's position 4, impossible checks, ...).
fn load(fen: &str, mode: CastlingMode) -> Result<Position, String> {
    let fen = Fen::parse(fen, mode).map_err(|err| format!("not FEN: {err}"))?;
    Position::from_setup_lenient(fen.setup, mode).map_err(|err| format!("not playable: {err}"))
}

/// What checking some positions of a suite found.
#[derive(Debug, Default)]
struct Outcome {
    /// Positions looked at.
    positions: usize,
    /// (position, depth) pairs selected for checking.
    pairs: usize,
    /// One line per problem.
    failures: Vec<String>,
}

/// Checks the counts of one position that `select` picks.
fn check_record(suite: &Suite, record: &Record, select: &impl Fn(u64) -> bool, outcome: &mut Outcome) {
    outcome.positions += 1;
    let selected: Vec<(u32, u64)> = record.counts.iter().copied().filter(|&(_, nodes)| select(nodes)).collect();
    outcome.pairs += selected.len();
    let place = format!("{}:{}: {}", suite.path, record.line, record.fen);
    if selected.is_empty() {
        return;
    }
    let pos = match load(&record.fen, suite.mode) {
        Ok(pos) => pos,
        Err(err) => {
            outcome.failures.push(format!("{place}: cannot load ({} depths unchecked): {err}", selected.len()));
            return;
        }
    };
    for (depth, expected) in selected {
        match panic::catch_unwind(AssertUnwindSafe(|| perft(&pos, depth).expect("suite depths are small"))) {
            Ok(got) if got == expected => {}
            Ok(got) => outcome.failures.push(format!("{place}: depth {depth}: expected {expected}, got {got}")),
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                outcome.failures.push(format!("{place}: depth {depth}: expected {expected}, panicked: {message}"));
                // deeper depths would panic the same way
                break;
            }
        }
    }
}

/// Checks the positions of `suite` whose index is `shard.0` modulo `shard.1`,
/// at the depths `select` picks: a whole suite on every core, a shard on one
/// thread (the harness runs the shards side by side).
fn check(suite: &Suite, records: &[Record], shard: (usize, usize), select: impl Fn(u64) -> bool + Sync) -> Outcome {
    let (index, count) = shard;
    let picked: Vec<&Record> = records.iter().skip(index).step_by(count).collect();
    let threads = if count == 1 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { 1 };
    let next = AtomicUsize::new(0);
    let total = Mutex::new(Outcome::default());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut outcome = Outcome::default();
                while let Some(record) = picked.get(next.fetch_add(1, Ordering::Relaxed)) {
                    check_record(suite, record, &select, &mut outcome);
                }
                let mut total = total.lock().unwrap();
                total.positions += outcome.positions;
                total.pairs += outcome.pairs;
                total.failures.extend(outcome.failures);
            });
        }
    });
    let mut outcome = total.into_inner().unwrap();
    // threads finish in any order: report in file order
    outcome.failures.sort_by_key(|failure| {
        let line = failure.split(':').nth(1).and_then(|line| line.parse::<usize>().ok());
        line.unwrap_or(usize::MAX)
    });
    outcome
}

fn assert_clean(suite: &Suite, outcome: &Outcome) {
    assert!(
        outcome.failures.is_empty(),
        "{}: {} of {} (position, depth) pairs failed:\n{}",
        suite.path,
        outcome.failures.len(),
        outcome.pairs,
        outcome.failures.join("\n")
    );
}

/// The default run of a whole suite: every depth with at most [`DEFAULT_LIMIT`] nodes.
fn default_run(suite: &Suite) {
    let records = records(suite);
    let outcome = check(suite, &records, (0, 1), |nodes| nodes <= DEFAULT_LIMIT);
    assert_eq!((outcome.positions, outcome.pairs), (suite.positions, suite.default_pairs), "{}", suite.path);
    assert_clean(suite, &outcome);
}

#[test]
fn standard_epd() {
    default_run(&STANDARD_EPD);
}

#[test]
fn perftsuite_epd() {
    default_run(&PERFTSUITE);
}

#[test]
fn perftsuite2_epd() {
    default_run(&PERFTSUITE2);
}

#[test]
fn tricky_perft() {
    default_run(&TRICKY);
}

/// random.perft holds two thirds of the default run's nodes: four tests of
/// every fourth position, so the harness spreads them over the cores.
fn random_shard(index: usize) {
    const SHARDS: usize = 4;
    // the shard sizes of 6838 positions: 1710, 1710, 1709, 1709
    const POSITIONS: [usize; SHARDS] = [1710, 1710, 1709, 1709];
    let records = records(&RANDOM);
    let outcome = check(&RANDOM, &records, (index, SHARDS), |nodes| nodes <= DEFAULT_LIMIT);
    assert_eq!(outcome.positions, POSITIONS[index]);
    let pairs: usize = records
        .iter()
        .skip(index)
        .step_by(SHARDS)
        .map(|record| record.counts.iter().filter(|&&(_, nodes)| nodes <= DEFAULT_LIMIT).count())
        .sum();
    assert_eq!(outcome.pairs, pairs);
    assert_clean(&RANDOM, &outcome);
}

#[test]
fn random_perft_shards_cover_the_file() {
    let records = records(&RANDOM);
    let pairs: usize =
        records.iter().map(|record| record.counts.iter().filter(|&&(_, nodes)| nodes <= DEFAULT_LIMIT).count()).sum();
    assert_eq!(pairs, RANDOM.default_pairs);
    assert_eq!(records.iter().map(|record| record.counts.len()).sum::<usize>(), RANDOM.all_pairs);
}

#[test]
fn random_perft_0() {
    random_shard(0);
}

#[test]
fn random_perft_1() {
    random_shard(1);
}

#[test]
fn random_perft_2() {
    random_shard(2);
}

#[test]
fn random_perft_3() {
    random_shard(3);
}

#[test]
fn chess960_perft() {
    default_run(&CHESS960);
}

#[test]
fn fischer_epd() {
    default_run(&FISCHER);
}

#[test]
fn frc_perftsuite_epd() {
    default_run(&FRC_PERFTSUITE);
}

/// Every depth of every suite, on all cores: hours (see the module docs).
/// `PERFT_MAX_NODES=100000000` limits it to the depths of at most that many
/// nodes (minutes).
#[test]
#[ignore = "hours: every depth of every suite (about 5.5 * 10^12 leaf nodes)"]
fn all_depths() {
    let limit: Option<u64> = std::env::var("PERFT_MAX_NODES").ok().map(|limit| {
        limit.replace('_', "").parse().unwrap_or_else(|_| panic!("PERFT_MAX_NODES={limit:?}: expected a number"))
    });
    let mut failures = Vec::new();
    for suite in &SUITES {
        let records = records(suite);
        let start = std::time::Instant::now();
        let outcome = check(suite, &records, (0, 1), |nodes| limit.is_none_or(|limit| nodes <= limit));
        eprintln!(
            "{}: {} pairs, {} failures, {:.0?}",
            suite.path,
            outcome.pairs,
            outcome.failures.len(),
            start.elapsed()
        );
        let pairs = match limit {
            None => suite.all_pairs,
            Some(limit) => {
                records.iter().flat_map(|record| &record.counts).filter(|&&(_, nodes)| nodes <= limit).count()
            }
        };
        assert_eq!((outcome.positions, outcome.pairs), (suite.positions, pairs), "{}", suite.path);
        failures.extend(outcome.failures);
    }
    assert!(failures.is_empty(), "{} (position, depth) pairs failed:\n{}", failures.len(), failures.join("\n"));
}

/// What the FEN text alone says about a position of a variant file.
#[derive(Debug)]
enum FenVerdict {
    /// Rejected; the message contains this.
    Rejected(&'static str),
    /// Accepted: the placement is also an ordinary chess position (a FEN does
    /// not say which game it is meant for).
    Chess,
}

const THREE_CHECK: &str = "`3+3` or `+1+2` counts checks in three-check, a variant sanfen does not support";
const POCKET: &str = "rank 1 has a pocket `[...]`; that is crazyhouse, a variant sanfen does not support";
const PROMOTED: &str = "rank 7 has a promoted-piece mark `~`; that is crazyhouse, a variant sanfen does not support";
const NO_KINGS: &str = "white has no king; black has no king";

/// Every position of every file in `perft/variants/`, with its variant, and
/// what the FEN says alone.
const VARIANT_POSITIONS: &[(&str, &str, FenVerdict)] = &[
    (
        "3check",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 1+1",
        FenVerdict::Rejected(THREE_CHECK),
    ),
    ("3check", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1+1", FenVerdict::Rejected(THREE_CHECK)),
    ("antichess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -", FenVerdict::Chess),
    ("antichess", "8/1p6/8/8/8/8/P7/8 w - -", FenVerdict::Rejected(NO_KINGS)),
    ("antichess", "8/2p5/8/8/8/8/P7/8 w - -", FenVerdict::Rejected(NO_KINGS)),
    ("atomic", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", FenVerdict::Chess),
    ("atomic", "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq -", FenVerdict::Chess),
    ("atomic", "rn1qkb1r/p5pp/2p5/3p4/N3P3/5P2/PPP4P/R1BQK3 w Qkq -", FenVerdict::Chess),
    // Chess960 castling: the king on g1 between its rooks
    ("atomic", "8/8/8/8/8/8/2k5/rR4KR w KQ -", FenVerdict::Chess),
    (
        "atomic",
        "r3k1rR/5K2/8/8/8/8/8/8 b kq -",
        FenVerdict::Rejected("white is in check from e8 but it is black's turn"),
    ),
    (
        "atomic",
        "Rr2k1rR/3K4/3p4/8/8/8/7P/8 w kq -",
        FenVerdict::Rejected("black is in check from d7 but it is white's turn"),
    ),
    ("atomic", "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq -", FenVerdict::Chess),
    ("crazyhouse", "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - -", FenVerdict::Rejected(POCKET)),
    ("crazyhouse", "2k5/8/8/8/8/8/8/4K3[Qn] w - -", FenVerdict::Rejected(POCKET)),
    ("crazyhouse", "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq -", FenVerdict::Rejected(POCKET)),
    ("crazyhouse", "4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - - 0 1", FenVerdict::Rejected(PROMOTED)),
    (
        "horde",
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq -",
        FenVerdict::Rejected("white has no king"),
    ),
    ("horde", "4k3/pp4q1/3P2p1/8/P3PP2/PPP2r2/PPP5/PPPP4 b - -", FenVerdict::Rejected("white has no king")),
    ("horde", "k7/5p2/4p2P/3p2P1/2p2P2/1p2P2P/p2P2P1/2P2P2 w - -", FenVerdict::Rejected("white has no king")),
    ("racingkings", "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - -", FenVerdict::Chess),
    ("racingkings", "4brn1/2K2k2/8/8/8/8/8/8 w - -", FenVerdict::Chess),
];

/// A suite position in the variant its file names: the variant first, then
/// the FEN in that variant's castling mode.
fn load_in_variant(variant: &str, fen: &str) -> Result<Position, String> {
    let variant = Variant::from_name(variant).map_err(|err| err.to_string())?;
    load(fen, variant.castling_mode())
}

/// The variant files hold positions of other games. Every one is refused as a
/// position of its variant, with the variant named.
#[test]
fn variant_files_are_refused() {
    let mut seen = Vec::new();
    for variant in ["3check", "antichess", "atomic", "crazyhouse", "horde", "racingkings"] {
        let text = read(&format!("variants/{variant}.perft"));
        for fen in text.lines().filter_map(|line| line.strip_prefix("epd ")) {
            seen.push((variant, fen.trim().to_owned()));
        }
    }
    let listed: Vec<(&str, String)> =
        VARIANT_POSITIONS.iter().map(|(variant, fen, _)| (*variant, (*fen).to_owned())).collect();
    assert_eq!(seen, listed, "the variant files' positions");
    for (variant, fen) in &seen {
        let message = load_in_variant(variant, fen).map(|_| ()).unwrap_err();
        assert_eq!(message, format!("unsupported variant '{variant}': sanfen plays standard chess and Chess960"));
    }
}

/// The FEN text of a variant position alone: variant syntax (crazyhouse
/// pockets `[...]` and promoted marks `~`, three-check counters `+1+1`) and
/// positions that break chess rules (no king, 36 pawns) are rejected by the
/// parser or the position check with a message naming what is wrong; those
/// that are also chess positions (the antichess and atomic start positions,
/// racing kings' lines) are accepted, which is right, since a FEN does not name
/// its game. Nothing panics, in either castling mode, strict or lenient.
#[test]
fn variant_fens_alone() {
    let mut failures = Vec::new();
    for (variant, fen, verdict) in VARIANT_POSITIONS {
        for mode in [CastlingMode::Chess960, CastlingMode::Standard] {
            let got = panic::catch_unwind(|| {
                let strict = Fen::parse(fen, mode)
                    .map_err(|err| err.to_string())
                    .and_then(|fen| Position::from_setup(fen.setup, mode).map_err(|err| err.to_string()));
                (strict.map(|_| ()), load(fen, mode).map(|_| ()))
            });
            let Ok((strict, lenient)) = got else {
                failures.push(format!("{variant}: {fen} ({mode:?}): panicked"));
                continue;
            };
            match verdict {
                FenVerdict::Rejected(names) => {
                    for (how, result) in [("strict", strict), ("lenient", lenient)] {
                        match result {
                            Ok(()) => failures.push(format!("{variant}: {fen} ({mode:?}, {how}): accepted")),
                            Err(message) if !message.contains(names) => failures.push(format!(
                                "{variant}: {fen} ({mode:?}, {how}): error {message:?} does not say {names:?}"
                            )),
                            Err(_) => {}
                        }
                    }
                }
                // castling rights with the king on g1: a Chess960 position only
                FenVerdict::Chess if mode == CastlingMode::Standard && fen.contains("rR4KR") => {
                    if strict.is_ok() || lenient.is_ok() {
                        failures.push(format!("{variant}: {fen} ({mode:?}): castling with the king on g1 accepted"));
                    }
                }
                FenVerdict::Chess => {
                    if let Err(message) = strict {
                        failures.push(format!("{variant}: {fen} ({mode:?}): rejected: {message}"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
