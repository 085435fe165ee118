//! `grammar/san.regex` against the nom parser, and `grammar/san-strict.regex`
//! against strict parsing: each pair must accept exactly the same inputs. The
//! regexes are derived by hand from `grammar/san.ebnf`, the parser mirrors the
//! same grammar rule by rule, so a disagreement means one of them (or the
//! grammar) is wrong.
//!
//! The lenient parser side is `syntax_ok` of the grammar module: the grammar alone,
//! English letters, no fast path. The strict side is `parse_san` in strict
//! mode, whose acceptance is the fast path's; its answers are also checked
//! against the grammar: one reading, no lint, written back as given.

use std::sync::LazyLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use regex::bytes::Regex;

use super::grammar::{self, syntax_ok};
use super::letters::Letters;
use super::parse::{parse_canonical, parse_san};
use super::types::SanOptions;

static SAN_REGEX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(include_str!("../../grammar/san.regex")).expect("grammar/san.regex compiles"));
static STRICT_REGEX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(include_str!("../../grammar/san-strict.regex")).expect("grammar/san-strict.regex compiles")
});

fn show(input: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(input))
}

/// Both pairs agree on `input`; the fast path, the grammar and the strict
/// parser agree with each other. Returns whether the lenient parser accepts.
fn assert_agree(input: &[u8]) -> bool {
    let lenient = syntax_ok(input);
    assert_eq!(SAN_REGEX.is_match(input), lenient, "regex and parser disagree on {}", show(input));
    let strict = parse_san(input, SanOptions::STRICT);
    assert_eq!(STRICT_REGEX.is_match(input), strict.is_ok(), "strict regex and parser disagree on {}", show(input));
    // lenient parsing with the fast path gives what the grammar alone gives
    let full = parse_san(input, SanOptions::LENIENT);
    let nom = grammar::lenient(input, Letters::English.table());
    assert_eq!(full, nom, "fast path and grammar disagree on {}", show(input));
    assert_eq!(full.is_ok(), lenient, "{}", show(input));
    assert_eq!(parse_canonical(input, Letters::English).is_some(), strict.is_ok(), "{}", show(input));
    if let Ok(strict) = strict {
        // strict SAN is lenient SAN read without a lint, and is its own canonical text
        let nom = nom.unwrap_or_else(|e| panic!("strict but not lenient: {}: {e}", show(input)));
        assert_eq!(nom.readings, strict.readings, "{}", show(input));
        assert!(nom.lints.is_empty(), "{}: {:?}", show(input), nom.lints);
        assert_eq!(strict.readings[0].to_string().as_bytes(), input);
    }
    lenient
}

#[test]
fn hand_picked() {
    // input, lenient, strict
    let cases: &[(&str, bool, bool)] = &[
        ("e4", true, true),
        ("exd5", true, true),
        ("e8=Q+", true, true),
        ("Nf3", true, true),
        ("Nbd7", true, true),
        ("R1e2", true, true),
        ("Qh4xe1#", true, true),
        ("O-O", true, true),
        ("O-O-O!?", true, true),
        ("--", true, true),
        ("Kxe2??", true, true),
        ("0-0", true, false),
        ("o-o-o", true, false),
        ("O-0", false, false),
        ("e8Q", true, false),
        ("e8q", true, false),
        ("e8=q", true, false),
        ("e8/Q", true, false),
        ("e8(Q)", true, false),
        ("e8(Q", false, false),
        ("e8=K", false, false),
        ("exd6 e.p.", true, false),
        ("exd6e.p.", true, false),
        ("exd6ep", true, false),
        ("exd6  e.p.", false, false),
        ("exd6=Qep", false, false),
        ("Qh7++", true, false),
        ("Qh7‡", true, false),
        ("Qh7+#", false, false),
        ("e2-e4", true, false),
        ("e2:d3", true, false),
        ("Ng1f3", true, true),
        ("Ng1-f3", true, false),
        ("Pe2e4", true, false),
        ("g1f3", true, false),
        ("e7e8q", true, false),
        ("Z0", true, false),
        ("0000", true, false),
        ("@@@@", true, false),
        ("@@@", false, false),
        ("null", true, false),
        ("nf3", true, false),
        ("bc4", true, false),
        ("♘f3", true, false),
        ("♙e4", true, false),
        ("ed5", true, false),
        ("2e4", true, false),
        ("Nf3 ", false, false),
        (" Nf3", false, false),
        ("", false, false),
        ("Nf9", false, false),
        ("N@f3", false, false),
        ("Nf3=Q", false, false),
        ("Nf3ep", false, false),
        ("xd5", false, false),
        ("Pxd5", false, false),
        ("2xe4", false, false),
        ("Cf3", false, false),
        ("exd5!!!", false, false),
        ("e4+!", true, true),
        ("e4!+", false, false),
    ];
    for &(input, lenient, strict) in cases {
        assert_eq!(SAN_REGEX.is_match(input.as_bytes()), lenient, "regex on {input:?}");
        assert_eq!(STRICT_REGEX.is_match(input.as_bytes()), strict, "strict regex on {input:?}");
        assert_eq!(assert_agree(input.as_bytes()), lenient, "parser on {input:?}");
        assert_eq!(parse_san(input.as_bytes(), SanOptions::STRICT).is_ok(), strict, "strict parser on {input:?}");
    }
}

/// Every string over a small alphabet, up to a length.
#[test]
fn every_short_string() {
    fn all_strings(alphabet: &[&str], max_len: usize) -> (usize, usize) {
        let (mut accepted, mut total) = (0, 0);
        let mut digits = vec![0usize; max_len];
        for len in 0..=max_len {
            digits.fill(0);
            loop {
                let text: String = digits[..len].iter().map(|&d| alphabet[d]).collect();
                accepted += usize::from(assert_agree(text.as_bytes()));
                total += 1;
                let Some(at) = digits[..len].iter().rposition(|&d| d + 1 < alphabet.len()) else { break };
                digits[at] += 1;
                digits[at + 1..len].fill(0);
            }
        }
        (accepted, total)
    }
    let (accepted, total) = all_strings(&["N", "b", "e", "4", "1", "x", "-", "=", "Q", "+", "!", "O", "p"], 5);
    assert_eq!(total, (0..=5).map(|n| 13usize.pow(n)).sum::<usize>());
    assert!(accepted > 1000, "{accepted}");
    let (accepted, _) = all_strings(&["0", "-", "o", "O", "Z", "e", ".", "p", " ", "#", "?", "‡", "♘"], 4);
    assert!(accepted > 10, "{accepted}");
}

// ---- Generated inputs -------------------------------------------------------------

fn piece() -> impl Strategy<Value = &'static str> {
    select(
        &[
            "", "", "", "", "K", "Q", "R", "B", "N", "N", "k", "q", "r", "b", "n", "P", "p", "♔", "♘", "♙", "♟", "C",
            "X",
        ][..],
    )
}

fn square() -> impl Strategy<Value = String> {
    prop_oneof![20 => "[a-h][1-8]", 1 => "[a-j][0-9]", 1 => "[a-h]"]
}

fn origin() -> impl Strategy<Value = String> {
    prop_oneof![6 => Just(String::new()), 3 => "[a-h]", 3 => "[1-8]", 3 => square(), 1 => "[a-h][1-8][a-h]"]
}

fn link() -> impl Strategy<Value = &'static str> {
    select(&["", "", "", "x", "x", ":", "-", "X", "x-"][..])
}

fn pawn_end() -> impl Strategy<Value = &'static str> {
    select(
        &[
            "", "", "", "", "", "", "=Q", "=N", "Q", "q", "=q", "/Q", "(Q)", "(q)", "=♕", "♘", "=K", "(Q", "=",
            " e.p.", "e.p.", "ep", " ep", "e.p", "=Qep", "  e.p.",
        ][..],
    )
}

fn check() -> impl Strategy<Value = &'static str> {
    select(&["", "", "", "", "+", "#", "++", "‡", "+#", "+++"][..])
}

fn annotation() -> impl Strategy<Value = &'static str> {
    select(&["", "", "", "", "", "!", "?", "!!", "??", "!?", "?!", "!!!", "!+"][..])
}

fn special() -> impl Strategy<Value = &'static str> {
    select(
        &[
            "O-O",
            "O-O-O",
            "0-0",
            "0-0-0",
            "o-o",
            "o-o-o",
            "O-0",
            "OO",
            "O-O-O-O",
            "--",
            "Z0",
            "0000",
            "@@@@",
            "null",
            "-",
            "Z",
            "000",
            "nul",
            "O\u{2013}O",
            "0\u{2014}0\u{2014}0",
            "O\u{2011}O-O",
            "o\u{2212}o",
            "O\u{2015}O",
            "O\u{2013}0",
        ][..],
    )
}

/// The move of a token in one of the grammar's shapes (parts chosen to fit).
fn shaped() -> impl Strategy<Value = String> {
    let letter = select(&["K", "Q", "R", "B", "N", "n", "q", "b", "♘", "♕"][..]);
    let short_origin = select(&["", "", "", "a", "h", "1", "8"][..]);
    let capture = select(&["", "", "x", ":"][..]);
    let long_link = select(&["", "x", "-", ":"][..]);
    let pawn_letter = select(&["", "", "", "", "P", "p", "♙"][..]);
    prop_oneof![
        // piece_move: piece ( file | rank )? capture? square, or square link? square
        (letter.clone(), short_origin, capture.clone(), "[a-h][1-8]")
            .prop_map(|(piece, origin, capture, to)| format!("{piece}{origin}{capture}{to}")),
        (letter, "[a-h][1-8]", long_link.clone(), "[a-h][1-8]")
            .prop_map(|(piece, from, link, to)| format!("{piece}{from}{link}{to}")),
        // pawn_move and squares_move, with pawn_end
        (pawn_letter, "[a-h]", capture, "[a-h][1-8]", pawn_end())
            .prop_map(|(letter, file, capture, to, end)| format!("{letter}{file}{capture}{to}{end}")),
        ("[a-h][1-8]", pawn_end()).prop_map(|(to, end)| format!("{to}{end}")),
        ("[a-h][1-8]", long_link, "[a-h][1-8]", pawn_end())
            .prop_map(|(from, link, to, end)| format!("{from}{link}{to}{end}")),
    ]
}

/// A token built part by part (most of them in the grammar), then perhaps one
/// byte replaced, deleted or inserted.
fn near_san() -> impl Strategy<Value = Vec<u8>> {
    let body = prop_oneof![
        8 => shaped(),
        4 => (piece(), origin(), link(), square(), pawn_end())
            .prop_map(|(piece, origin, link, to, end)| format!("{piece}{origin}{link}{to}{end}")),
        2 => special().prop_map(str::to_owned),
    ];
    let byte = prop_oneof![3 => select(&b"Nbe4x=Q+!O-0 p"[..]), 1 => any::<u8>()];
    let edit = prop_oneof![12 => Just(None), 1 => (any::<prop::sample::Index>(), 0u8..3, byte).prop_map(Some)];
    (body, check(), annotation(), edit).prop_map(|(body, check, annotation, edit)| {
        let mut text = format!("{body}{check}{annotation}").into_bytes();
        if let Some((at, kind, byte)) = edit {
            let at = at.index(text.len() + 1);
            match kind {
                0 if at < text.len() => text[at] = byte,
                1 if at < text.len() => {
                    text.remove(at);
                }
                _ => text.insert(at, byte),
            }
        }
        text
    })
}

/// Mostly-rejected inputs: arbitrary bytes, and soup of SAN characters.
fn noise() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..12),
        proptest::collection::vec(select(&b"NBRQKPnbrqkpabcdefgh12345678x:-=+#!?O0o()/. "[..]), 0..9),
    ]
}

#[test]
fn regexes_and_parsers_agree_on_generated_inputs() {
    const CASES: u32 = 50_000;
    let config = Config { cases: CASES, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let accepted = AtomicUsize::new(0);
    let strict = AtomicUsize::new(0);
    let total = AtomicUsize::new(0);
    let strategy = prop_oneof![9 => near_san(), 1 => noise()];
    let result = runner.run(&strategy, |input| {
        total.fetch_add(1, Ordering::Relaxed);
        accepted.fetch_add(usize::from(assert_agree(&input)), Ordering::Relaxed);
        strict.fetch_add(usize::from(STRICT_REGEX.is_match(&input)), Ordering::Relaxed);
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
    // Both sides are well covered: neither almost everything nor almost
    // nothing is accepted, and strict SAN is a fair share of it.
    let (accepted, strict, total) = (accepted.into_inner(), strict.into_inner(), total.into_inner());
    assert_eq!(total, CASES as usize);
    let share = accepted as f64 / total as f64;
    assert!((0.25..=0.75).contains(&share), "{accepted} of {total} generated inputs accepted");
    let strict_share = strict as f64 / total as f64;
    assert!((0.05..=0.5).contains(&strict_share), "{strict} of {total} generated inputs strictly accepted");
}

// ---- Real data ---------------------------------------------------------------------

/// The move tokens of a PGN file: tags, comments, move numbers, NAGs and
/// results left out. Good enough for well-formed files.
fn move_tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut in_comment = false;
    for line in text.lines() {
        if !in_comment && (line.starts_with('[') || line.starts_with('%')) {
            continue;
        }
        let mut rest = line;
        let mut kept = String::new();
        while !rest.is_empty() {
            if in_comment {
                match rest.find('}') {
                    Some(end) => {
                        rest = &rest[end + 1..];
                        in_comment = false;
                    }
                    None => rest = "",
                }
            } else {
                match rest.find(['{', ';']) {
                    Some(at) if rest[at..].starts_with(';') => {
                        kept.push_str(&rest[..at]);
                        rest = "";
                    }
                    Some(at) => {
                        kept.push_str(&rest[..at]);
                        kept.push(' ');
                        rest = &rest[at + 1..];
                        in_comment = true;
                    }
                    None => {
                        kept.push_str(rest);
                        rest = "";
                    }
                }
            }
        }
        for word in kept.split([' ', '\t', '(', ')']) {
            let word = word.trim_end_matches('\r');
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
                continue;
            }
            // a move number before the move: `12.` or `12...` (maybe glued to it)
            let word = match word.find(|c: char| !c.is_ascii_digit()) {
                Some(at) if at > 0 && word[at..].starts_with('.') => word[at..].trim_start_matches('.'),
                _ => word,
            };
            if word.is_empty() || word.starts_with('$') {
                continue;
            }
            tokens.push(word.to_owned());
        }
    }
    tokens
}

fn data(path: &str) -> String {
    let path = format!("{}/../shared/data/pgn/{path}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Every move of real games is canonical SAN: strict parsing reads it, writes
/// it back as given, and the grammar reads it the same way.
#[test]
fn real_games_are_strict_san() {
    let mut count = 0;
    for file in ["shakmaty-bench/lichess_db_1000k.pgn", "shakmaty-bench/twic1599_1000k.pgn", "chess.js/benchmark.pgn"] {
        for token in move_tokens(&data(file)) {
            let parsed =
                parse_san(token.as_bytes(), SanOptions::STRICT).unwrap_or_else(|e| panic!("{file}: {token:?}: {e}"));
            assert_eq!(parsed.readings[0].to_string(), token);
            assert_agree(token.as_bytes());
            count += 1;
        }
    }
    assert!(count > 100_000, "{count} tokens");
}

/// The notation test vectors of other libraries: SAN and long algebraic text
/// reads leniently; coordinates as coordinates.
#[test]
fn notation_vectors_read_leniently() {
    let path = format!("{}/../shared/data/vectors/valid_notation_tests.json", env!("CARGO_MANIFEST_DIR"));
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let rows = json.as_array().unwrap();
    assert_eq!(rows.len(), 23);
    for row in rows {
        for field in ["algText", "longAlgText", "uciText"] {
            let text = row[field].as_str().unwrap();
            let parsed =
                parse_san(text.as_bytes(), SanOptions::LENIENT).unwrap_or_else(|e| panic!("{field} {text}: {e}"));
            assert_eq!(parsed.readings.len(), 1, "{text}");
        }
        let alg = row["algText"].as_str().unwrap();
        assert!(parse_san(alg.as_bytes(), SanOptions::STRICT).is_ok(), "{alg}");
    }
}
