//! SAN reading and writing against real data: the vectors of other libraries'
//! test suites (`../shared/data/vectors/san_*.tsv`,
//! `valid_notation_tests.json`), the opening books of `../shared/data/epd/`
//! replayed move by move, and a differential test against python-chess over
//! positions reached by random legal play.
//!
//! Each vector row is a test of its own; where we deliberately answer
//! otherwise than the row expects, the row is listed below with our answer
//! and why, and the test checks that the listed rows still differ.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use sanfen::fen::EnPassantMode;
use sanfen::notation::{self, Notation};
use sanfen::resolve::{MoveLint, SanError, TextResolution, resolve_text};
use sanfen::san::{Letters, SanLintKind, SanOptions};
use sanfen::{CastlingMode, Move, Position};

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data").join(path)
}

fn read(path: &str) -> String {
    std::fs::read_to_string(data(path)).unwrap_or_else(|e| panic!("{path}: {e} (is ../shared beside the repository?)"))
}

fn position(fen: &str, mode: CastlingMode) -> Position {
    Position::from_fen(fen, mode).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(pos: &Position, m: Move) -> Position {
    pos.play(m).unwrap_or_else(|e| panic!("{pos}: {e}"))
}

fn uci(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// How reading a token in a position came out, in the words of the vectors.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    /// Resolved to a legal move, given in UCI, with the lint findings of both
    /// kinds (spelling, then position-dependent) and the canonical SAN.
    Played { uci: String, syntax: Vec<SanLintKind>, lints: Vec<MoveLint>, canonical: String },
    /// Not a move at all (python-chess: `InvalidMoveError`).
    Invalid,
    /// A move, but no legal move fits (python-chess: `IllegalMoveError`).
    Illegal,
    /// More than one legal move fits (python-chess: `AmbiguousMoveError`).
    Ambiguous,
}

fn verdict(pos: &Position, text: &str, options: SanOptions) -> (Verdict, Option<Move>) {
    let Ok(resolved) = resolve_text(pos, text.as_bytes(), options) else {
        return (Verdict::Invalid, None);
    };
    match resolved.resolution.outcome {
        Ok(m) => {
            assert!(pos.is_legal(m), "{pos}: {text}: resolved to an illegal move {m:?}");
            let verdict = Verdict::Played {
                uci: uci(m),
                syntax: resolved.syntax_lints.iter().map(|lint| lint.kind).collect(),
                lints: resolved.resolution.lints.clone(),
                canonical: resolved.resolution.canonical.expect("a resolved move has its canonical SAN").to_string(),
            };
            (verdict, Some(m))
        }
        Err(SanError::Illegal { .. }) => (Verdict::Illegal, None),
        Err(SanError::Ambiguous { .. }) => (Verdict::Ambiguous, None),
    }
}

/// Strict reading (as `sanfen apply --strict`): canonical PGN SAN for a legal
/// move, nothing else. `true` when accepted.
fn strict_accepts(pos: &Position, text: &str) -> bool {
    match resolve_text(pos, text.as_bytes(), SanOptions::STRICT) {
        Ok(resolved) => resolved.resolution.outcome.is_ok() && resolved.is_canonical(),
        Err(_) => false,
    }
}

// ---- san_parse.tsv --------------------------------------------------------------------

/// Rows of `san_parse.tsv` (fen, san) that we read leniently otherwise than
/// the row expects: our verdict (the move in UCI) and why.
const PARSE_DIFFERENCES: &[(&str, &str, &str, &str)] = &[(
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "Kg1",
    "e1g1",
    "castling written as the king's move (seed 000's notation writes `Kg1`): read leniently as O-O with the \
         lint san:castling-as-king-move; strict reading refuses it, as python-chess does",
)];

/// Rows accepted leniently whose text is not canonical SAN: the lint findings
/// (spelling, position) and the canonical SAN. Every other accepted row is
/// canonical.
const PARSE_LINTED: &[(&str, &[SanLintKind], &[MoveLint], &str)] = &[
    ("Nge7", &[], &[MoveLint::OverDisambiguated], "Ne7"),
    ("Ba3", &[], &[MoveLint::MissingCaptureMark], "Bxa3"),
    ("ef4", &[], &[MoveLint::MissingCaptureMark], "exf4"),
    ("fg3", &[], &[MoveLint::MissingCaptureMark], "fxg3"),
    ("2e4", &[], &[MoveLint::OverDisambiguated], "e4"),
    ("Kg1", &[], &[MoveLint::CastlingAsKingMove], "O-O"),
];

#[test]
fn san_parse_tsv() {
    let text = read("vectors/san_parse.tsv");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("fen\tsan\texpected\tfen_after\tdetail\tsource\tpython_chess_view"));
    let mut rows = 0;
    let mut differences = 0;
    let mut strict_rows = 0;
    let mut linted = std::collections::BTreeSet::new();
    for line in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 7, "{line}");
        let (fen, san, expected, fen_after, detail, view) = (cols[0], cols[1], cols[2], cols[3], cols[4], cols[6]);
        // a trailing newline is written as the two characters `\n`
        let san = san.replace("\\n", "\n");
        let pos = position(fen, CastlingMode::Standard);
        rows += 1;
        let context = format!("row {rows}: {fen} {san:?} ({detail})");

        if detail.contains("[strict mode]") {
            // chess.js's strict mode: only canonical SAN
            assert_eq!(expected, "error", "{context}");
            assert!(!strict_accepts(&pos, &san), "{context}: strict reading accepts it");
            strict_rows += 1;
            continue;
        }

        let (ours, played) = verdict(&pos, &san, SanOptions::LENIENT);
        if let Some(&(_, _, our_uci, why)) = PARSE_DIFFERENCES.iter().find(|(f, s, _, _)| *f == fen && *s == san) {
            let Verdict::Played { uci, .. } = &ours else { panic!("{context}: listed as read as {our_uci}: {ours:?}") };
            assert_eq!(uci, our_uci, "{context}: {why}");
            assert!(!strict_accepts(&pos, &san), "{context}: strict reading accepts it");
            differences += 1;
        } else {
            // the row's expectation, in our words
            let want = match expected {
                "ok" => "played",
                // chess.js and chessops say only "error": python-chess's class
                "error" => match view {
                    "error:IllegalMoveError" => "illegal",
                    "error:InvalidMoveError" => "invalid",
                    _ => panic!("{context}: no error class"),
                },
                "IllegalMoveError" => "illegal",
                "AmbiguousMoveError" => "ambiguous",
                "InvalidMoveError" => "invalid",
                // a move in UCI
                _ => "played",
            };
            let got = match &ours {
                Verdict::Played { .. } => "played",
                Verdict::Invalid => "invalid",
                Verdict::Illegal => "illegal",
                Verdict::Ambiguous => "ambiguous",
            };
            assert_eq!(got, want, "{context}: {ours:?}");
            if let (Verdict::Played { uci, .. }, Some(m)) = (&ours, played) {
                if expected == "ok" {
                    // chess.js: the FEN after the move, en passant square only when capturable
                    assert_eq!(play(&pos, m).to_string(), fen_after, "{context}");
                } else {
                    assert_eq!(uci, expected, "{context}");
                }
            }
        }

        // lint findings of the accepted rows: exactly the listed ones
        if let Verdict::Played { syntax, lints, canonical, .. } = &ours {
            match PARSE_LINTED.iter().find(|(s, ..)| *s == san) {
                Some((_, want_syntax, want_lints, want_canonical)) => {
                    linted.insert(san.clone());
                    assert_eq!((syntax.as_slice(), lints.as_slice()), (*want_syntax, *want_lints), "{context}");
                    assert_eq!(canonical, want_canonical, "{context}");
                }
                None => {
                    assert_eq!((syntax.as_slice(), lints.as_slice()), (&[][..], &[][..]), "{context}");
                    assert_eq!(*canonical, san, "{context}");
                    assert!(strict_accepts(&pos, &san), "{context}: canonical, but strict reading refuses it");
                }
            }
        }
    }
    assert_eq!(rows, 31);
    assert_eq!(strict_rows, 1);
    assert_eq!(linted.len(), PARSE_LINTED.len(), "listed as linted: {PARSE_LINTED:?}, seen: {linted:?}");
    assert_eq!(differences, PARSE_DIFFERENCES.len());
}

// ---- san_render.tsv, san_legal_move_sets.tsv ------------------------------------------------

/// The legal move of `pos` that UCI `text` names (king to destination or,
/// for Chess960, king takes rook).
fn by_uci(pos: &Position, text: &str) -> Move {
    let found: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| {
            m.to_uci(CastlingMode::Standard).to_string() == text || m.to_uci(CastlingMode::Chess960).to_string() == text
        })
        .collect();
    assert_eq!(found.len(), 1, "{pos}: {text} names {found:?}");
    found[0]
}

#[test]
fn san_render_tsv() {
    let text = read("vectors/san_render.tsv");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("fen\tuci\texpected_san\tsource\tpython_chess_agrees"));
    let mut rows = 0;
    for line in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        let (fen, uci_text, expected) = (cols[0], cols[1], cols[2]);
        assert_eq!(cols[4], "yes", "{line}");
        let pos = position(fen, CastlingMode::Standard);
        let m = by_uci(&pos, uci_text);
        assert_eq!(notation::san_plus(&pos, m).to_string(), expected, "{fen} {uci_text}");
        assert_eq!(notation::write_move(&pos, m, Notation::San, Letters::English), expected, "{fen} {uci_text}");
        // and back: the written SAN names the move, canonically
        let resolved = resolve_text(&pos, expected.as_bytes(), SanOptions::STRICT).unwrap();
        assert_eq!(resolved.resolution.outcome, Ok(m), "{fen} {expected}");
        assert!(resolved.is_canonical(), "{fen} {expected}: {resolved:?}");
        rows += 1;
    }
    assert_eq!(rows, 20);
}

/// The SAN of every legal move, with `+`/`#`, sorted (byte order).
fn san_set(pos: &Position) -> Vec<String> {
    let mut sans: Vec<String> = pos.legal_moves().iter().map(|&m| notation::san_plus(pos, m).to_string()).collect();
    sans.sort();
    sans
}

#[test]
fn san_legal_move_sets_tsv() {
    let text = read("vectors/san_legal_move_sets.tsv");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("fen\tlegal_moves_san_sorted\tsource\tpython_chess_agrees"));
    let mut rows = 0;
    for line in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        let pos = position(cols[0], CastlingMode::Standard);
        let mut expected: Vec<&str> = cols[1].split(' ').collect();
        expected.sort_unstable();
        assert_eq!(san_set(&pos), expected, "{}", cols[0]);
        rows += 1;
    }
    assert_eq!(rows, 7);
}

// ---- valid_notation_tests.json ----------------------------------------------------------------

#[test]
fn valid_notation_tests_json() {
    let text = read("vectors/valid_notation_tests.json");
    let cases: Vec<BTreeMap<String, String>> = serde_json::from_str(&text).unwrap();
    assert_eq!(cases.len(), 23);
    let mut ep_kept = 0;
    let mut not_canonical = Vec::new();
    for case in &cases {
        let field = |name: &str| case.get(name).unwrap_or_else(|| panic!("{case:?}: no {name}")).as_str();
        let pos = position(field("pos1"), CastlingMode::Standard);
        let mut moves = Vec::new();
        for name in ["algText", "longAlgText", "uciText"] {
            let text = field(name);
            let resolved = resolve_text(&pos, text.as_bytes(), SanOptions::LENIENT)
                .unwrap_or_else(|e| panic!("{}: {name} {text}: {e}", field("pos1")));
            let m = resolved.resolution.outcome.clone().unwrap_or_else(|e| panic!("{}: {text}: {e}", field("pos1")));
            if name == "algText" && !resolved.is_canonical() {
                assert!(resolved.syntax_lints.is_empty(), "{text}: {resolved:?}");
                not_canonical.push((text.to_owned(), resolved.resolution.lints.clone()));
            }
            moves.push(m);
        }
        assert!(moves.iter().all(|&m| m == moves[0]), "{case:?}: {moves:?}");
        let after = play(&pos, moves[0]);
        // pos2 sets the en passant square after every double push, capturable
        // or not: equal to our FEN with the square as played, and to our
        // canonical FEN once pos2 is made canonical
        let expected = position(field("pos2"), CastlingMode::Standard);
        assert_eq!(after.fen_with(EnPassantMode::AsGiven).to_string(), field("pos2"));
        assert_eq!(after.to_string(), expected.to_string());
        if after.fen_with(EnPassantMode::AsGiven).to_string() != after.to_string() {
            ep_kept += 1;
        }
    }
    // `e4` from the start: pos2 says e3, canonical FEN says `-`
    assert_eq!(ep_kept, 1);
    // the SAN column is canonical (an annotation such as `??` is no lint
    // finding) but for one check mark left out
    let not_canonical: Vec<(&str, &[MoveLint])> =
        not_canonical.iter().map(|(text, lints)| (text.as_str(), lints.as_slice())).collect();
    assert_eq!(not_canonical, [("Qxd1", &[MoveLint::MissingCheck][..])]);
}

// ---- opening books ------------------------------------------------------------------------------

/// What replaying SAN lines found: plies, and the non-canonical tokens by kind.
#[derive(Debug, Default, PartialEq, Eq)]
struct Replay {
    lines: usize,
    plies: usize,
    findings: BTreeMap<String, usize>,
}

/// Replays a movetext line (`1. e4 e5 2. Nf3`) from the start position;
/// returns the moves and the final position.
fn replay(movetext: &str, replay: &mut Replay) -> (Vec<Move>, Position) {
    let mut pos = Position::default();
    let mut moves = Vec::new();
    for token in movetext.split_whitespace() {
        if token.trim_end_matches('.').bytes().all(|b| b.is_ascii_digit()) && token.ends_with('.') {
            continue;
        }
        let resolved: TextResolution = resolve_text(&pos, token.as_bytes(), SanOptions::LENIENT)
            .unwrap_or_else(|e| panic!("{movetext}: {token}: {e}"));
        let m = resolved.resolution.outcome.clone().unwrap_or_else(|e| panic!("{movetext}: {token}: {e}"));
        for lint in &resolved.syntax_lints {
            *replay.findings.entry(lint.code().to_owned()).or_default() += 1;
        }
        for lint in &resolved.resolution.lints {
            *replay.findings.entry(lint.code().to_owned()).or_default() += 1;
        }
        if resolved.is_canonical() {
            assert_eq!(resolved.resolution.canonical.map(|c| c.to_string()).as_deref(), Some(token));
        }
        pos = play(&pos, m);
        moves.push(m);
        replay.plies += 1;
    }
    replay.lines += 1;
    (moves, pos)
}

#[test]
fn eco_lichess_lines() {
    let text = read("epd/notnil-chess/eco_lichess.tsv");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("eco\tname\tpgn\tuci\tepd"));
    let mut tally = Replay::default();
    for line in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 5, "{line}");
        let (pgn, uci_column, epd) = (cols[2], cols[3], cols[4]);
        let (moves, last) = replay(pgn, &mut tally);
        let ours: Vec<String> = moves.iter().map(|&m| uci(m)).collect();
        assert_eq!(ours.join(" "), uci_column, "{pgn}");
        let fen = last.to_string();
        let fields: Vec<&str> = fen.split(' ').take(4).collect();
        assert_eq!(fields.join(" "), epd, "{pgn}");
    }
    // every token canonical SAN
    assert_eq!(tally, Replay { lines: 3_397, plies: 32_079, findings: BTreeMap::new() });
}

#[test]
fn chess_openings_lines() {
    let mut tally = Replay::default();
    let mut per_file = Vec::new();
    for name in ["a", "b", "c", "d", "e"] {
        let path = format!("epd/chess-openings/{name}.tsv");
        let text = read(&path);
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("eco\tname\tpgn"), "{path}");
        let before = tally.lines;
        for line in lines {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 3, "{path}: {line}");
            assert!(cols[0].starts_with(&name.to_uppercase()), "{path}: {line}");
            replay(cols[2], &mut tally);
        }
        per_file.push(tally.lines - before);
    }
    assert_eq!(per_file, [817, 769, 1_250, 614, 357]);
    // every token canonical SAN
    assert_eq!(tally, Replay { lines: 3_807, plies: 36_895, findings: BTreeMap::new() });
}

// ---- differential test against python-chess ----------------------------------------------------

/// xorshift64: a fixed, dependency-free pseudo-random sequence.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays up to `plies` random legal moves from `start`; every position on the
/// way (the start included) is pushed to `out`.
fn random_walk(start: Position, plies: usize, rng: &mut XorShift, out: &mut Vec<Position>) {
    let mut pos = start;
    for _ in 0..=plies {
        let moves = pos.legal_moves();
        out.push(pos.clone());
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        pos.play_unchecked(m);
    }
}

/// Every `step`-th line of an EPD file, as a position.
fn every_nth(path: &str, step: usize) -> Vec<Position> {
    read(path).lines().step_by(step).map(|line| position(line.trim(), CastlingMode::Standard)).collect()
}

fn differential_positions() -> Vec<Position> {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut positions = Vec::new();
    for _ in 0..100 {
        random_walk(Position::default(), 120, &mut rng, &mut positions);
    }
    for start in every_nth("epd/stockfish-books/endgames.epd", 800) {
        random_walk(start, 24, &mut rng, &mut positions);
    }
    for start in every_nth("epd/stockfish-books/popularpos_lichess_v3.epd", 1_000) {
        random_walk(start, 24, &mut rng, &mut positions);
    }
    positions
}

/// Runs `tests/python/san_sets.py` on the FENs; its output, one line per FEN.
fn python_san_sets(fens: &str) -> String {
    let dir = std::env::temp_dir().join(format!("sanfen-san-sets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("positions.fen");
    std::fs::write(&file, fens).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/san_sets.py");
    let child = Command::new("python3").arg(script).arg(&file).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
    let mut child = child.unwrap_or_else(|e| {
        panic!("cannot run python3 ({e}): this test needs Python 3 with python-chess: `python3 -m pip install chess==1.11.2`")
    });
    let mut stdout = String::new();
    child.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let status = child.wait().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        status.success(),
        "tests/python/san_sets.py failed ({status}); it needs python-chess: `python3 -m pip install chess==1.11.2`\n{stderr}"
    );
    stdout
}

/// Over positions reached by random legal play, the SAN of every legal move
/// is python-chess's, and reads back as that move with no lint finding.
#[test]
fn differential_against_python_chess() {
    let positions = differential_positions();
    assert_eq!(positions.len(), 21_892);
    let fens: String = positions.iter().map(|pos| format!("{pos}\n")).collect();
    // python-chess works while we do our part
    let theirs = std::thread::spawn(move || python_san_sets(&fens));

    let mut ours = Vec::with_capacity(positions.len());
    let mut moves_checked = 0;
    for pos in &positions {
        let sans = san_set(pos);
        for &m in &pos.legal_moves() {
            // canonical SAN takes the same fast path leniently and strictly: one reading is enough
            let text = notation::san_plus(pos, m).to_string();
            let resolved = resolve_text(pos, text.as_bytes(), SanOptions::LENIENT)
                .unwrap_or_else(|e| panic!("{pos}: {text}: {e}"));
            assert_eq!(resolved.resolution.outcome, Ok(m), "{pos}: {text}");
            assert!(resolved.is_canonical(), "{pos}: {text}: {resolved:?}");
            moves_checked += 1;
        }
        ours.push(sans.join(" "));
    }
    assert_eq!(moves_checked, 637_856);

    let theirs = theirs.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    let theirs: Vec<&str> = theirs.lines().collect();
    assert_eq!(theirs.len(), positions.len(), "python-chess answered for another number of positions");
    let mut mismatches = Vec::new();
    for ((pos, ours), theirs) in positions.iter().zip(&ours).zip(&theirs) {
        if ours != theirs {
            let ours_set: Vec<&str> = ours.split(' ').collect();
            let theirs_set: Vec<&str> = theirs.split(' ').collect();
            let only_ours: Vec<&&str> = ours_set.iter().filter(|s| !theirs_set.contains(s)).collect();
            let only_theirs: Vec<&&str> = theirs_set.iter().filter(|s| !ours_set.contains(s)).collect();
            mismatches.push(format!("{pos}: only ours {only_ours:?}, only python-chess {only_theirs:?}"));
        }
    }
    assert!(mismatches.is_empty(), "{} positions differ:\n{}", mismatches.len(), mismatches.join("\n"));
}

/// Every notation we write reads back as the move, in every language, on a
/// sample of the same positions.
#[test]
fn written_notations_read_back() {
    let positions = differential_positions();
    let mut written = 0;
    for pos in positions.iter().step_by(16) {
        for &m in &pos.legal_moves() {
            let mut spellings = vec![
                (notation::write_move(pos, m, Notation::Uci, Letters::English), Letters::English),
                (notation::write_move(pos, m, Notation::Figurine, Letters::English), Letters::English),
            ];
            for letters in Letters::ALL {
                spellings.push((notation::write_move(pos, m, Notation::San, letters), letters));
                spellings.push((notation::write_move(pos, m, Notation::Lan, letters), letters));
            }
            for (text, letters) in spellings {
                let options = SanOptions { strict: false, letters };
                let resolved =
                    resolve_text(pos, text.as_bytes(), options).unwrap_or_else(|e| panic!("{pos}: {text}: {e}"));
                assert_eq!(resolved.resolution.outcome, Ok(m), "{pos}: {text} ({letters:?})");
                written += 1;
            }
        }
    }
    assert_eq!(written, 651_520);
}
