//! `grammar/fen.regex` against the nom parser: both must accept exactly the
//! same inputs. The regex is derived by hand from `grammar/fen.ebnf`, the
//! parser mirrors the same grammar rule by rule, so a disagreement means one
//! of them (or the grammar) is wrong.
//!
//! The parser side is `syntax_ok` of the parser module: syntax only, so
//! duplicate castling letters and illegal positions count as accepted.

use std::sync::LazyLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use regex::bytes::Regex;

use super::parse::syntax_ok;

static FEN_REGEX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(include_str!("../../grammar/fen.regex")).expect("grammar/fen.regex compiles"));

fn regex_accepts(input: &[u8]) -> bool {
    FEN_REGEX.is_match(input)
}

fn parser_accepts(input: &[u8]) -> bool {
    syntax_ok(input)
}

fn assert_agree(input: &[u8]) -> bool {
    let by_regex = regex_accepts(input);
    let by_parser = parser_accepts(input);
    assert_eq!(
        by_regex,
        by_parser,
        "regex {} but parser {}: {:?}",
        if by_regex { "accepts" } else { "rejects" },
        if by_parser { "accepts" } else { "rejects" },
        String::from_utf8_lossy(input),
    );
    by_parser
}

#[test]
fn hand_picked() {
    let cases: &[(&str, bool)] = &[
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", true),
        ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", true),
        ("8/8/8/8/8/8/8/8 w - - 0 1", true),
        ("r3k2r/8/8/8/8/8/8/R3K2R w AHah - 12 4294967295", true),
        ("4k3/8/8/8/8/8/8/4K3 w KKkk - 0 1", true),
        ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", false),
        ("4k3/8/8/8/8/8/8/4K3 w - a1 0 0", true),
        // field counts
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", true),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", true),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", false),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 0", false),
        ("", false),
        (" \t\r\n", false),
        // separators and whitespace
        ("  8/8/8/8/8/8/8/8\tw__-  -_0 1\r\n", true),
        ("_8/8/8/8/8/8/8/8 w - - 0 1", false),
        ("8/8/8/8/8/8/8/8 w - - 0 1_", false),
        ("8/8/8/8/8/8/8/8 w_", false),
        ("8/8/8/8/8/8/8/8 w \n", true),
        ("8/8/8/8/8/8/8/8\nw - - 0 1", false),
        ("8/8/8/8/8/8/8/8w - - 0 1", false),
        ("8/8/8/8/8/8/8/8 w - - 0 1\u{a0}", false),
        // placement
        ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", false),
        ("8/8/8/8/8/8/8/8/8 w - - 0 1", false),
        ("8/8/8/8/8/8/8 w - - 0 1", false),
        ("44/8/8/8/8/8/8/8 w - - 0 1", false),
        ("9/8/8/8/8/8/8/8 w - - 0 1", false),
        ("08/8/8/8/8/8/8/8 w - - 0 1", false),
        ("8/8/8/8/8/8/8/8/ w - - 0 1", false),
        ("1p1p1p1p/p1p1p1p1/8/8/8/8/7P/P7 w - - 0 1", true),
        ("1p1p1p1p/p1p1p1p1/8/8/8/8/7P/P6 w - - 0 1", false),
        // turn, castling, en passant
        ("8/8/8/8/8/8/8/8 W - - 0 1", false),
        ("8/8/8/8/8/8/8/8 w K- - 0 1", false),
        ("8/8/8/8/8/8/8/8 w -- - 0 1", false),
        ("8/8/8/8/8/8/8/8 w KQkqABCDEFGHabcdefgh - 0 1", true),
        ("8/8/8/8/8/8/8/8 w KI - 0 1", false),
        ("8/8/8/8/8/8/8/8 w - E3 0 1", false),
        ("8/8/8/8/8/8/8/8 w - - -1 1", false),
        ("8/8/8/8/8/8/8/8 w - - 01 1", false),
        ("8/8/8/8/8/8/8/8 w - - 99999999999 1", false),
        ("8/8/8/8/8/8/8/8 w - - 4294967295 1", true),
        ("8/8/8/8/8/8/8/8 w - - 4294967296 1", false),
        ("8/8/8/8/8/8/8/8 w - - 0 +1", false),
    ];
    for &(input, accepted) in cases {
        assert_eq!(regex_accepts(input.as_bytes()), accepted, "regex on {input:?}");
        assert_eq!(parser_accepts(input.as_bytes()), accepted, "parser on {input:?}");
    }
}

/// A third opinion on one rank, straight from the rules in words: piece
/// letters and digits 1-8, never two digits side by side, 8 squares in all.
fn is_rank(text: &[u8]) -> bool {
    let is_gap = |b: u8| (b'1'..=b'8').contains(&b);
    let letters_ok = text.iter().all(|&b| is_gap(b) || b"PNBRQKpnbrqk".contains(&b));
    let apart = !text.windows(2).any(|pair| is_gap(pair[0]) && is_gap(pair[1]));
    let squares: usize = text.iter().map(|&b| if is_gap(b) { usize::from(b - b'0') } else { 1 }).sum();
    letters_ok && apart && squares == 8
}

/// Checks `rank` as the first and as the last rank of a record (the regex
/// spells the rank twice) against the regex, the parser and [`is_rank`].
fn check_rank(rank: &[u8]) -> bool {
    let expected = is_rank(rank);
    for (before, after) in [(&b""[..], &b"/8/8/8/8/8/8/8 w"[..]), (b"8/8/8/8/8/8/8/", b" w")] {
        let input = [before, rank, after].concat();
        assert_eq!(assert_agree(&input), expected, "{:?}", String::from_utf8_lossy(&input));
    }
    expected
}

/// All 256 ranks (one per set of occupied squares), and every string one
/// edit away from one of them: a character replaced, deleted or inserted.
#[test]
fn every_rank_and_its_neighbours() {
    const ALPHABET: &[u8] = b"pK0123456789x/";
    let mut ranks = Vec::new();
    for occupied in 0..=255u8 {
        let squares: Vec<Option<char>> =
            (0..8).map(|file| (occupied >> file & 1 == 1).then_some(PIECES[file % PIECES.len()])).collect();
        ranks.push(encode(&squares).into_bytes());
    }
    ranks.sort();
    ranks.dedup();
    assert_eq!(ranks.len(), 256);
    let mut accepted = 0;
    let mut rejected = 0;
    for rank in &ranks {
        assert!(check_rank(rank), "{:?}", String::from_utf8_lossy(rank));
        for at in 0..=rank.len() {
            let mut edits = Vec::new();
            if at < rank.len() {
                edits.push([&rank[..at], &rank[at + 1..]].concat());
                edits.extend(ALPHABET.iter().map(|&c| [&rank[..at], &[c], &rank[at + 1..]].concat()));
            }
            edits.extend(ALPHABET.iter().map(|&c| [&rank[..at], &[c], &rank[at..]].concat()));
            for edit in edits {
                if check_rank(&edit) { accepted += 1 } else { rejected += 1 }
            }
        }
    }
    assert!(accepted > 1000 && rejected > 10_000, "{accepted} accepted, {rejected} rejected");
}

/// Every string over a small alphabet, up to a length, as a rank.
#[test]
fn every_short_string_as_a_rank() {
    fn all_strings(alphabet: &[u8], max_len: usize) -> (usize, usize) {
        let (mut accepted, mut total) = (0, 0);
        let mut digits = vec![0usize; max_len];
        for len in 0..=max_len {
            digits.fill(0);
            loop {
                let rank: Vec<u8> = digits[..len].iter().map(|&d| alphabet[d]).collect();
                accepted += usize::from(check_rank(&rank));
                total += 1;
                // the next string of this length, like an odometer
                let Some(at) = digits[..len].iter().rposition(|&d| d + 1 < alphabet.len()) else { break };
                digits[at] += 1;
                digits[at + 1..len].fill(0);
            }
        }
        (accepted, total)
    }
    // ranks of at most 5 characters: "8"; a piece and 7; ...
    let (accepted, _) = all_strings(b"p12345678", 5);
    assert_eq!(accepted, 1 + 2 + 9 + 19 + 39);
    let (accepted, total) = all_strings(b"Pk09x/-", 5);
    assert_eq!((accepted, total), (0, 19_608));
}

/// Ten-digit move counters around u32::MAX: one digit of 4294967295 changed,
/// followed by all 0s or all 9s.
#[test]
fn counters_near_u32_max() {
    let max = u32::MAX.to_string();
    let mut numbers = vec![max.clone(), format!("{max}0"), "0".into(), "00".into(), "10".into()];
    for at in 0..max.len() {
        for digit in '0'..='9' {
            for fill in ['0', '9'] {
                let rest: String = std::iter::repeat_n(fill, max.len() - at - 1).collect();
                numbers.push(format!("{}{digit}{rest}", &max[..at]));
            }
        }
    }
    for number in &numbers {
        let fits = !number.starts_with('0') || number == "0";
        let fits = fits && number.parse::<u32>().is_ok();
        for input in [format!("8/8/8/8/8/8/8/8 w - - {number} 1"), format!("8/8/8/8/8/8/8/8 w - - 0 {number}")] {
            assert_eq!(assert_agree(input.as_bytes()), fits, "{input}");
        }
    }
}

// ---- Generated inputs -------------------------------------------------------------

const PIECES: &[char] = &['P', 'N', 'B', 'R', 'Q', 'K', 'p', 'n', 'b', 'r', 'q', 'k'];

/// A rank as FEN writes it: runs of empty squares as one digit (so 9 or more
/// empty squares give a number that is no digit).
fn encode(squares: &[Option<char>]) -> String {
    let mut text = String::new();
    let mut empty = 0;
    for square in squares {
        match square {
            None => empty += 1,
            Some(piece) => {
                if empty > 0 {
                    text += &empty.to_string();
                    empty = 0;
                }
                text.push(*piece);
            }
        }
    }
    if empty > 0 {
        text += &empty.to_string();
    }
    text
}

fn squares(count: usize) -> impl Strategy<Value = Vec<Option<char>>> {
    proptest::collection::vec(prop_oneof![3 => Just(None), 2 => select(PIECES).prop_map(Some)], count)
}

/// Mostly valid ranks; some with 7 or 9 squares, two digits side by side, or
/// a character that is neither a piece letter nor a digit 1-8.
fn rank() -> impl Strategy<Value = String> {
    prop_oneof![
        200 => squares(8).prop_map(|s| encode(&s)),
        2 => squares(7).prop_map(|s| encode(&s)),
        2 => squares(9).prop_map(|s| encode(&s)),
        // a gap of k written as two digits a + b = k (or one more digit)
        2 => (squares(8), 1u8..8).prop_map(|(s, split)| {
            let text = encode(&s);
            match text.char_indices().find(|(_, c)| c.is_ascii_digit()) {
                Some((at, c)) => {
                    let gap = c as u8 - b'0';
                    let (a, b) = if split < gap { (split, gap - split) } else { (gap, split) };
                    format!("{}{a}{b}{}", &text[..at], &text[at + 1..])
                }
                None => format!("{text}{split}"),
            }
        }),
        2 => (squares(8), any::<prop::sample::Index>(), select(&['0', '9', 'x', 'P', '/', '-', 'é'][..]))
            .prop_map(|(s, at, c)| {
                let mut text = encode(&s);
                let at = at.index(text.len() + 1);
                let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
                text.insert(at, c);
                text
            }),
    ]
}

fn placement() -> impl Strategy<Value = String> {
    prop_oneof![
        60 => proptest::collection::vec(rank(), 8),
        1 => proptest::collection::vec(rank(), 7),
        1 => proptest::collection::vec(rank(), 9),
        1 => proptest::collection::vec(rank(), 0..3),
    ]
    .prop_map(|ranks| ranks.join("/"))
}

fn turn() -> impl Strategy<Value = String> {
    prop_oneof![40 => "[wb]", 1 => "[wbWBx-]{0,2}"]
}

fn castling() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => Just("-".to_string()),
        24 => "[KQkq]{1,4}",
        8 => "[KQkqA-Ha-h]{1,5}",
        1 => "[KQkqx-]{1,3}",
        1 => "[A-Za-z]{1,3}",
    ]
}

fn en_passant() -> impl Strategy<Value = String> {
    prop_oneof![16 => Just("-".to_string()), 16 => "[a-h][1-8]", 1 => "[a-jA-H-][0-9-]?"]
}

fn counter() -> impl Strategy<Value = String> {
    prop_oneof![
        30 => (0u32..200).prop_map(|n| n.to_string()),
        8 => any::<u32>().prop_map(|n| n.to_string()),
        2 => (4_294_967_290u64..4_294_967_300).prop_map(|n| n.to_string()),
        1 => "0[0-9]{1,3}",
        1 => "[+-][0-9]{1,3}",
        1 => "[1-9][0-9]{9,12}",
    ]
}

fn separator() -> impl Strategy<Value = String> {
    prop_oneof![40 => Just(" ".to_string()), 3 => "[ \t_]{1,3}", 1 => "[ \t_\r\n]{0,2}"]
}

fn edge_space() -> impl Strategy<Value = String> {
    prop_oneof![24 => Just(String::new()), 4 => "[ \t\r\n]{1,3}", 1 => "[ \t_\u{a0}]{1,2}"]
}

/// A record built field by field (most of them valid), then perhaps one byte
/// replaced, deleted or inserted.
fn near_fen() -> impl Strategy<Value = Vec<u8>> {
    let fields = (placement(), turn(), castling(), en_passant(), counter(), counter(), "[0-9a-z]{1,3}");
    let layout =
        (prop_oneof![2 => 1usize..6, 12 => Just(6usize), 1 => Just(7usize)], proptest::collection::vec(separator(), 6));
    let byte = prop_oneof![3 => select(&b"pK18/ -_w\t\r0"[..]), 1 => any::<u8>()];
    let edit = prop_oneof![20 => Just(None), 1 => (any::<prop::sample::Index>(), 0u8..3, byte).prop_map(Some)];
    (edge_space(), fields, layout, edge_space(), edit).prop_map(|(lead, fields, (count, seps), trail, edit)| {
        let fields = [fields.0, fields.1, fields.2, fields.3, fields.4, fields.5, fields.6];
        let mut text = lead.into_bytes();
        for (i, field) in fields[..count].iter().enumerate() {
            if i > 0 {
                text.extend_from_slice(seps[i - 1].as_bytes());
            }
            text.extend_from_slice(field.as_bytes());
        }
        text.extend_from_slice(trail.as_bytes());
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

/// Mostly-rejected inputs: arbitrary bytes, and soup of FEN characters.
fn noise() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..80),
        proptest::collection::vec(select(&b"pnbrqkPNBRQK0123456789/ wb-_\t\r\nKQkqa-h"[..]), 0..70),
    ]
}

#[test]
fn regex_and_parser_agree_on_generated_inputs() {
    const CASES: u32 = 20_000;
    let config = Config { cases: CASES, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let accepted = AtomicUsize::new(0);
    let total = AtomicUsize::new(0);
    let strategy = prop_oneof![9 => near_fen(), 1 => noise()];
    let result = runner.run(&strategy, |input| {
        total.fetch_add(1, Ordering::Relaxed);
        let by_regex = regex_accepts(&input);
        let by_parser = parser_accepts(&input);
        prop_assert_eq!(by_regex, by_parser, "input {:?}", String::from_utf8_lossy(&input));
        accepted.fetch_add(usize::from(by_parser), Ordering::Relaxed);
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
    // Both sides are well covered: neither almost everything nor almost
    // nothing is accepted (shrinking does not run when nothing fails).
    let (accepted, total) = (accepted.into_inner(), total.into_inner());
    assert_eq!(total, CASES as usize);
    let share = accepted as f64 / total as f64;
    assert!((0.25..=0.75).contains(&share), "{accepted} of {total} generated inputs accepted");
}
