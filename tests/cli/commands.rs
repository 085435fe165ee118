//! The `sanfen` binary, run as a user runs it: exact stdout, stderr and exit code.
//! (The terminal rendering, with the input and carets, is unit-tested in
//! `src/cli/fen.rs`: here stdout is never a terminal.)

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::{Value, json};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// After 1. e4: the en passant square e3 is not capturable, a warning.
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
const AFTER_E4_CANONICAL: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
/// Black's king on f8 with the right to castle king side.
const BAD_CASTLING: &str = "rnbq1knr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w k - 0 1";
const BAD_CASTLING_ERROR: &str = "error[fen:castling] at 46..47: castling right 'k' needs the black king on e8 and a rook on h8; found the king on f8\ninvalid\n";
/// Rank 7 has seven squares and `x` is no castling letter: two syntax errors.
const TWO_SYNTAX_ERRORS: &str = "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1";
const TWO_SYNTAX_ERRORS_REPORT: &str = "\
error[fen:syntax] at 9..16: invalid placement field: found \"ppppppp\", expected 8 squares (rank 7 has 7 squares)
error[fen:syntax] at 47..48: invalid castling field: found \"x\", expected castling letters from KQkq and A-H/a-h, or `-`
invalid
";
const EP_WARNING: &str = "warning[fen:en-passant-not-capturable] at 53..55: en passant square e3, but no pawn can capture there; canonical FEN writes '-'\n";
const EMPTY_LINE_ERROR: &str = "error[fen:syntax] at 0..0: invalid placement field: found nothing, expected a piece placement: 8 ranks separated by `/`\ninvalid\n";
/// A Chess960 position with Shredder-FEN castling letters.
const CHESS960: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";

fn sanfen(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("sanfen");
    cmd.args(args).env_remove("NO_COLOR");
    cmd
}

#[test]
fn check_valid_fen_prints_ok() {
    sanfen(&["fen", "check", START]).assert().code(0).stdout("ok\n").stderr("");
}

#[test]
fn check_castling_right_without_its_king() {
    sanfen(&["fen", "check", BAD_CASTLING]).assert().code(1).stdout(BAD_CASTLING_ERROR).stderr("");
}

#[test]
fn check_reports_every_syntax_error() {
    sanfen(&["fen", "check", TWO_SYNTAX_ERRORS]).assert().code(1).stdout(TWO_SYNTAX_ERRORS_REPORT).stderr("");
}

#[test]
fn check_warning_only_input_is_valid() {
    sanfen(&["fen", "check", AFTER_E4]).assert().code(0).stdout(format!("{EP_WARNING}ok\n")).stderr("");
}

#[test]
fn check_several_arguments_in_order() {
    sanfen(&["fen", "check", START, BAD_CASTLING, AFTER_E4])
        .assert()
        .code(1)
        .stdout(format!("ok\n{BAD_CASTLING_ERROR}{EP_WARNING}ok\n"))
        .stderr("");
}

#[test]
fn check_reads_stdin_lines() {
    // the last line has no final newline; a `\r` stays part of the input
    let stdin = format!("{START}\n{BAD_CASTLING}\n{START}\r\n{AFTER_E4}");
    let expected = format!(
        "ok\n{BAD_CASTLING_ERROR}warning[fen:trailing-whitespace] at 56..57: whitespace after the last field\nok\n{EP_WARNING}ok\n"
    );
    sanfen(&["fen", "check"]).write_stdin(stdin.clone()).assert().code(1).stdout(expected.clone()).stderr("");
    // `-` means standard input too, among other arguments
    sanfen(&["fen", "check", START, "-"])
        .write_stdin(stdin)
        .assert()
        .code(1)
        .stdout(format!("ok\n{expected}"))
        .stderr("");
}

#[test]
fn check_all_valid_stdin_exits_zero() {
    sanfen(&["fen", "check"])
        .write_stdin(format!("{START}\n{AFTER_E4}\n"))
        .assert()
        .code(0)
        .stdout(format!("ok\n{EP_WARNING}ok\n"));
}

#[test]
fn check_empty_input_line_is_invalid() {
    sanfen(&["fen", "check"])
        .write_stdin(format!("{START}\n\n{START}\n"))
        .assert()
        .code(1)
        .stdout(format!("ok\n{EMPTY_LINE_ERROR}ok\n"))
        .stderr("");
    sanfen(&["fen", "check", ""]).assert().code(1).stdout(EMPTY_LINE_ERROR).stderr("");
}

#[test]
fn check_no_input_prints_nothing() {
    sanfen(&["fen", "check"]).write_stdin("").assert().code(0).stdout("").stderr("");
}

#[cfg(unix)]
#[test]
fn check_non_utf8_input() {
    use std::os::unix::ffi::OsStrExt;

    let input = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w K\xffkq - 0 1";
    let expected = "error[fen:syntax] at 47..48: invalid castling field: found \"\u{fffd}\", expected castling letters from KQkq and A-H/a-h, or `-`\ninvalid\n";
    let mut cmd = cargo_bin_cmd!("sanfen");
    cmd.args(["fen", "check"]).arg(std::ffi::OsStr::from_bytes(input));
    cmd.assert().code(1).stdout(expected).stderr("");
    let mut stdin = input.to_vec();
    stdin.push(b'\n');
    sanfen(&["fen", "check"]).write_stdin(stdin).assert().code(1).stdout(expected).stderr("");
}

/// Regression: JSON spans were offsets in the bytes read, which do not
/// index `input` (the bytes with U+FFFD, three bytes, for each invalid
/// sequence). They are offsets in `input` now; the text output keeps those
/// of the bytes.
#[test]
fn json_spans_index_the_input_shown_when_it_is_not_utf8() {
    let json = |args: &[&str], stdin: &[u8], code: i32| {
        let output =
            sanfen(args).write_stdin(stdin.to_vec()).assert().code(code).stderr("").get_output().stdout.clone();
        serde_json::from_slice::<Value>(&output).unwrap()
    };
    let fen = json(&["fen", "check", "--json"], b"\xff\xfe w - - 0 1\n", 1);
    assert_eq!(fen["input"], "\u{fffd}\u{fffd} w - - 0 1");
    assert_eq!(fen["errors"][0]["span"], json!([0, 6]));
    let fen = json(&["fen", "check", "--json"], b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w K\xffkq - 0 1\n", 1);
    let input = fen["input"].as_str().unwrap();
    assert_eq!(&input[47..50], "\u{fffd}");
    assert_eq!(fen["errors"][0]["span"], json!([47, 50]));
    let san = json(&["san", "--json"], b"N\xffe4\n", 1);
    assert_eq!((&san["input"], &san["errors"][0]["span"]), (&json!("N\u{fffd}e4"), &json!([1, 4])));
    let resolve = json(&["resolve", "--json", "-"], b"0-0\xff\n", 1);
    assert_eq!(resolve["error"]["span"], json!([3, 6]));
    // U+FFFD itself, valid UTF-8: the same offsets
    let san = json(&["san", "--json", "-"], "e4\u{fffd}?!".as_bytes(), 1);
    assert_eq!(san["errors"][0]["span"], json!([2, 5]));
}

#[test]
fn check_chess960() {
    sanfen(&["fen", "check", "--chess960", CHESS960])
        .assert()
        .code(0)
        .stdout(
            "\
warning[fen:shredder-castling] at 55..56: Shredder-FEN castling letter 'H' where canonical FEN writes 'K'
warning[fen:shredder-castling] at 56..57: Shredder-FEN castling letter 'F' where canonical FEN writes 'Q'
warning[fen:shredder-castling] at 57..58: Shredder-FEN castling letter 'h' where canonical FEN writes 'k'
warning[fen:shredder-castling] at 58..59: Shredder-FEN castling letter 'f' where canonical FEN writes 'q'
ok
",
        )
        .stderr("");
    // in standard chess the king is not on e1/e8 and f names no castling rook
    let standard = sanfen(&["fen", "check", CHESS960]).assert().code(1).stderr("");
    let stdout = String::from_utf8(standard.get_output().stdout.clone()).unwrap();
    let codes: Vec<&str> = stdout.lines().map(|line| line.split(' ').next().unwrap()).collect();
    assert_eq!(
        codes,
        [
            "error[fen:castling]",
            "error[fen:castling]",
            "error[fen:castling]",
            "error[fen:castling]",
            "warning[fen:shredder-castling]",
            "warning[fen:shredder-castling]",
            "invalid"
        ]
    );
    sanfen(&["fen", "normalize", "--chess960", CHESS960])
        .assert()
        .code(0)
        .stdout("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9\n")
        .stderr("");
}

fn json_lines(stdout: &[u8]) -> Vec<Value> {
    let text = std::str::from_utf8(stdout).unwrap();
    assert!(text.ends_with('\n'), "JSON Lines end with a newline: {text:?}");
    text.lines().map(|line| serde_json::from_str(line).unwrap_or_else(|err| panic!("{err}: {line:?}"))).collect()
}

/// Compares a JSON object field by field (names and values exactly), so a
/// failure names the field.
fn assert_object(actual: &Value, expected: &Value) {
    let (actual, expected) = (actual.as_object().unwrap(), expected.as_object().unwrap());
    assert_eq!(actual.keys().collect::<Vec<_>>(), expected.keys().collect::<Vec<_>>(), "field names");
    for (name, value) in expected {
        match (value, &actual[name]) {
            (Value::Array(expected), Value::Array(actual)) if expected.iter().all(Value::is_object) => {
                assert_eq!(actual.len(), expected.len(), "length of {name}");
                for (a, e) in actual.iter().zip(expected) {
                    assert_object(a, e);
                }
            }
            (expected, actual) => assert_eq!(actual, expected, "field {name}"),
        }
    }
}

#[test]
fn check_json_lines() {
    let stdin = format!("{START}\n{BAD_CASTLING}\n{TWO_SYNTAX_ERRORS}\n{AFTER_E4}\n");
    let output =
        sanfen(&["fen", "check", "--json"]).write_stdin(stdin).assert().code(1).stderr("").get_output().stdout.clone();
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 4);
    assert_object(&lines[0], &json!({"input": START, "valid": true, "errors": [], "warnings": []}));
    assert_object(
        &lines[1],
        &json!({
            "input": BAD_CASTLING,
            "valid": false,
            "errors": [{
                "code": "fen:castling",
                "message": "castling right 'k' needs the black king on e8 and a rook on h8; found the king on f8",
                "field": "castling",
                "span": [46, 47],
                "squares": ["f8", "h8"],
            }],
            "warnings": [],
        }),
    );
    assert_object(
        &lines[2],
        &json!({
            "input": TWO_SYNTAX_ERRORS,
            "valid": false,
            "errors": [
                {
                    "code": "fen:syntax",
                    "message": "invalid placement field: found \"ppppppp\", expected 8 squares (rank 7 has 7 squares)",
                    "field": "placement",
                    "span": [9, 16],
                    "squares": [],
                },
                {
                    "code": "fen:syntax",
                    "message": "invalid castling field: found \"x\", expected castling letters from KQkq and A-H/a-h, or `-`",
                    "field": "castling",
                    "span": [47, 48],
                    "squares": [],
                },
            ],
            "warnings": [],
        }),
    );
    assert_object(
        &lines[3],
        &json!({
            "input": AFTER_E4,
            "valid": true,
            "errors": [],
            "warnings": [{
                "code": "fen:en-passant-not-capturable",
                "message": "en passant square e3, but no pawn can capture there; canonical FEN writes '-'",
                "field": "en-passant",
                "span": [53, 55],
                "squares": ["e3"],
            }],
        }),
    );
}

#[test]
fn check_json_one_object_per_empty_line_too() {
    let output =
        sanfen(&["fen", "check", "--json"]).write_stdin("\n\n").assert().code(1).stderr("").get_output().stdout.clone();
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 2);
    for line in &lines {
        assert_eq!(line["input"], "");
        assert_eq!(line["valid"], false);
        assert_eq!(line["errors"][0]["code"], "fen:syntax");
        assert_eq!(line["errors"][0]["span"], json!([0, 0]));
    }
}

#[test]
fn normalize_drops_or_keeps_the_en_passant_square() {
    sanfen(&["fen", "normalize", AFTER_E4]).assert().code(0).stdout(format!("{AFTER_E4_CANONICAL}\n")).stderr("");
    sanfen(&["fen", "normalize", "--keep-ep", AFTER_E4]).assert().code(0).stdout(format!("{AFTER_E4}\n")).stderr("");
}

#[test]
fn normalize_orders_castling_and_spacing() {
    sanfen(&["fen", "normalize", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w qkQK - 0 1 "])
        .assert()
        .code(0)
        .stdout(format!("{START}\n"))
        .stderr("");
    // missing fields take their defaults
    sanfen(&["fen", "normalize", "4k3/8/8/8/8/8/8/4K3"])
        .assert()
        .code(0)
        .stdout("4k3/8/8/8/8/8/8/4K3 w - - 0 1\n")
        .stderr("");
}

#[test]
fn normalize_reports_invalid_inputs_on_stderr() {
    sanfen(&["fen", "normalize"])
        .write_stdin(format!("{AFTER_E4}\n{TWO_SYNTAX_ERRORS}\n{BAD_CASTLING}\n{START}\n"))
        .assert()
        .code(1)
        .stdout(format!("{AFTER_E4_CANONICAL}\n{START}\n"))
        .stderr(
            "\
sanfen: input 2: invalid placement field: found \"ppppppp\", expected 8 squares (rank 7 has 7 squares)
sanfen: input 2: invalid castling field: found \"x\", expected castling letters from KQkq and A-H/a-h, or `-`
sanfen: input 3: castling right 'k' needs the black king on e8 and a rook on h8; found the king on f8
",
        );
}

#[test]
fn normalize_json_adds_the_fen() {
    let output = sanfen(&["fen", "normalize", "--json", AFTER_E4, BAD_CASTLING])
        .assert()
        .code(1)
        .stderr("")
        .get_output()
        .stdout
        .clone();
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["fen"], AFTER_E4_CANONICAL);
    assert_eq!(lines[0]["valid"], true);
    assert_eq!(lines[0]["warnings"].as_array().unwrap().len(), 1);
    assert_eq!(lines[1]["fen"], Value::Null);
    assert_eq!(lines[1]["valid"], false);
    assert_eq!(
        lines[1].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["errors", "fen", "input", "valid", "warnings"]
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [&["fen", "check", "--no-such-flag"][..], &["fen"], &["fen", "frobnicate"], &["nonsense"]] {
        let assert = sanfen(args).assert().code(2).stdout("");
        assert!(!assert.get_output().stderr.is_empty(), "{args:?}: a usage error says why");
    }
}

#[test]
fn jobs_outside_1_to_1024_however_large_are_refused_with_the_range() {
    for command in ["check", "fmt", "export", "split"] {
        for jobs in ["0", "1025", "99999999999999999999", "two"] {
            let args = [command, "-j", jobs, "-"];
            let assert = sanfen(&args).write_stdin("1. e4 *\n").assert().code(2).stdout("");
            let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
            let expected = format!(
                "error: invalid value '{jobs}' for '--jobs <N>': expected a number of threads from 1 to 1024\n"
            );
            assert!(stderr.starts_with(&expected), "{args:?}: {stderr}");
        }
    }
}

/// `sanfen --help`: every command, each with a one-line summary that fits in 80
/// columns.
const TOP_LEVEL_HELP: &str = "\
Chess notation: check and rewrite FEN and PGN, read SAN, list legal moves.

With no command: the REPL (`sanfen repl`) on the initial position.

Usage: sanfen [COMMAND]

Commands:
  repl     Play moves interactively (what `sanfen` with no command runs)
  fen      FEN positions: check them or write them canonically
  moves    List the legal moves of a position, one per line
  perft    Count the leaf nodes of the legal move tree DEPTH plies deep
  san      Parse SAN tokens without a position and show what each says
  resolve  Resolve SAN against a position: why each candidate is kept or not
  apply    Play moves in order and print the final FEN
  check    Validate PGN games: moves, variations, move numbers, results, tags
  fmt      Rewrite PGN games canonically: SAN, tag order, movetext line width
  export   Write PGN games as a table: one row per game, or per move
  split    Cut a PGN file at game boundaries: into parts, or into byte ranges
  help     Print this message or the help of the given subcommand(s)

Options:
  -h, --help
          Print help (see a summary with '-h')

  -V, --version
          Print version
";

#[test]
fn top_level_help_lists_every_command_on_one_line() {
    let assert = sanfen(&["--help"]).assert().code(0).stdout(TOP_LEVEL_HELP).stderr("");
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(stdout.lines().all(|line| line.chars().count() <= 80), "{stdout}");
}

#[test]
fn help_and_version_exit_0() {
    sanfen(&["fen", "check", "--help"]).assert().code(0).stderr("");
    sanfen(&["--version"]).assert().code(0).stdout(format!("sanfen {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn closed_stdout_ends_quietly() {
    use std::io::Write;
    use std::process::{Command, Stdio};

    let mut child = Command::new(assert_cmd::cargo::cargo_bin!("sanfen"))
        .args(["fen", "check"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // close our end of stdout before anything is written
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let line = format!("{START}\n");
        // 6 MB of input, far more output than a pipe holds; stops when sanfen exits
        for _ in 0..100_000 {
            if stdin.write_all(line.as_bytes()).is_err() {
                break;
            }
        }
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    assert_eq!(output.status.code(), Some(0));
}

// ---------------------------------------------------------------- perft

/// Kiwipete (chessprogramming.org position 2).
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Two rooks check the white king along one rank: no game reaches it, but it can be played.
const DOUBLE_CHECK_ONE_LINE: &str = "5R2/2P5/8/4k3/8/3rK2r/8/8 w - -";
const DOUBLE_CHECK_WARNING: &str = "sanfen: warning: no legal game reaches this position (impossible double check from d3 and h3 along one line); using it as given\n";

#[test]
fn perft_counts_leaf_nodes() {
    sanfen(&["perft", "3"]).assert().code(0).stdout("8902\n").stderr("");
    sanfen(&["perft", "--fen", KIWIPETE, "2"]).assert().code(0).stdout("2039\n").stderr("");
    sanfen(&["perft", "--chess960", "--fen", CHESS960, "3"]).assert().code(0).stdout("12189\n").stderr("");
    // depth 0: the root alone, with or without --divide
    sanfen(&["perft", "0"]).assert().code(0).stdout("1\n").stderr("");
    sanfen(&["perft", "--divide", "0"]).assert().code(0).stdout("1\n").stderr("");
    // checkmate: no move
    sanfen(&["perft", "--fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "1"]).assert().code(0).stdout("0\n").stderr("");
}

#[test]
fn perft_divide_lines_then_the_total() {
    // the well-known split of the start position at depth 3, in seed 000's value order
    sanfen(&["perft", "--divide", "3"])
        .assert()
        .code(0)
        .stdout(
            "\
a2a3: 380
a2a4: 420
b2b3: 420
b2b4: 421
c2c3: 420
c2c4: 441
d2d3: 539
d2d4: 560
e2e3: 599
e2e4: 600
f2f3: 380
f2f4: 401
g2g3: 420
g2g4: 421
h2h3: 380
h2h4: 420
b1a3: 400
b1c3: 440
g1f3: 440
g1h3: 400
8902
",
        )
        .stderr("");
}

#[test]
fn perft_divide_writes_castling_in_the_castling_mode() {
    let fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1";
    let divide = |args: &[&str]| {
        let output = sanfen(args).assert().code(0).stderr("").get_output().stdout.clone();
        String::from_utf8(output).unwrap()
    };
    let standard = divide(&["perft", "--divide", "--fen", fen, "1"]);
    let chess960 = divide(&["perft", "--divide", "--chess960", "--fen", fen, "1"]);
    assert!(standard.contains("\ne1c1: 1\n") && standard.contains("\ne1g1: 1\n"), "{standard}");
    assert!(chess960.contains("\ne1a1: 1\n") && chess960.contains("\ne1h1: 1\n"), "{chess960}");
    assert!(standard.ends_with("\n26\n") && chess960.ends_with("\n26\n"));
    assert_eq!(standard.lines().count(), 27);
}

#[test]
fn perft_counts_a_composed_position_with_a_warning() {
    sanfen(&["perft", "--fen", DOUBLE_CHECK_ONE_LINE, "3"])
        .assert()
        .code(0)
        .stdout("1030\n")
        .stderr(DOUBLE_CHECK_WARNING);
}

#[test]
fn perft_invalid_fen_exits_1_with_the_diagnostics() {
    sanfen(&["perft", "--fen", BAD_CASTLING, "2"]).assert().code(1).stdout("").stderr(BAD_CASTLING_ERROR);
    sanfen(&["perft", "--fen", TWO_SYNTAX_ERRORS, "2"]).assert().code(1).stdout("").stderr(TWO_SYNTAX_ERRORS_REPORT);
    // no king: nothing to play
    sanfen(&["perft", "--fen", "8/1p6/8/8/8/8/P7/8 w - - 0 1", "1"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("error[fen:missing-king] at 0..18: white has no king\nerror[fen:missing-king] at 0..18: black has no king\ninvalid\n");
}

// ---------------------------------------------------------------- moves

const START_UCI_VALUE: &str = "\
a2a3\na2a4\nb2b3\nb2b4\nc2c3\nc2c4\nd2d3\nd2d4\ne2e3\ne2e4\nf2f3\nf2f4\ng2g3\ng2g4\nh2h3\nh2h4\nb1a3\nb1c3\ng1f3\ng1h3\n";

#[test]
fn moves_of_the_start_position() {
    // SAN by default
    sanfen(&["moves", "--order", "value"])
        .assert()
        .code(0)
        .stdout("a3\na4\nb3\nb4\nc3\nc4\nd3\nd4\ne3\ne4\nf3\nf4\ng3\ng4\nh3\nh4\nNa3\nNc3\nNf3\nNh3\n")
        .stderr("");
    sanfen(&["moves", "--fen", START, "--notation", "uci", "--order", "value"])
        .assert()
        .code(0)
        .stdout(START_UCI_VALUE)
        .stderr("");
    sanfen(&["moves", "--notation", "lan", "--order", "value"])
        .assert()
        .code(0)
        .stdout(
            "\
a2-a3\na2-a4\nb2-b3\nb2-b4\nc2-c3\nc2-c4\nd2-d3\nd2-d4\ne2-e3\ne2-e4\nf2-f3\nf2-f4\ng2-g3\ng2-g4\nh2-h3\nh2-h4\n\
Nb1-a3\nNb1-c3\nNg1-f3\nNg1-h3\n",
        )
        .stderr("");
    // the natural order (the generator's) lists the same moves, once each
    let output = sanfen(&["moves", "--notation", "uci"]).assert().code(0).stderr("").get_output().stdout.clone();
    let mut natural: Vec<&str> = std::str::from_utf8(&output).unwrap().lines().collect();
    natural.sort_unstable();
    let mut value: Vec<&str> = START_UCI_VALUE.lines().collect();
    value.sort_unstable();
    assert_eq!(natural, value);
}

#[test]
fn moves_lan_marks_captures_promotions_castling_and_checks() {
    // en passant f5xe6, promotions with and without capture, both castlings;
    // `+` as python-chess's `lan()` writes it (rook and queen on rank 8 check e8)
    sanfen(&["moves", "--notation", "lan", "--order", "value", "--fen", "r3k2r/1P6/8/4pP2/8/8/8/R3K2R w KQkq e6 0 2"])
        .assert()
        .code(0)
        .stdout(
            "\
b7xa8=N\nb7xa8=B\nb7xa8=R+\nb7xa8=Q+\nb7-b8=N\nb7-b8=B\nb7-b8=R+\nb7-b8=Q+\nf5xe6\nf5-f6\n\
Ra1-a2\nRa1-a3\nRa1-a4\nRa1-a5\nRa1-a6\nRa1-a7\nRa1xa8+\nRa1-b1\nRa1-c1\nRa1-d1\n\
Rh1-f1\nRh1-g1\nRh1-h2\nRh1-h3\nRh1-h4\nRh1-h5\nRh1-h6\nRh1-h7\nRh1xh8+\n\
O-O-O\nKe1-d1\nKe1-d2\nKe1-e2\nKe1-f1\nKe1-f2\nO-O\n",
        )
        .stderr("");
}

#[test]
fn moves_uci_castling_follows_the_castling_mode() {
    let fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1";
    let rooks = "a1a2\na1a3\na1a4\na1a5\na1a6\na1a7\na1a8\na1b1\na1c1\na1d1\nh1f1\nh1g1\nh1h2\nh1h3\nh1h4\nh1h5\nh1h6\nh1h7\nh1h8\n";
    sanfen(&["moves", "--notation", "uci", "--order", "value", "--fen", fen])
        .assert()
        .code(0)
        .stdout(format!("{rooks}e1c1\ne1d1\ne1d2\ne1e2\ne1f1\ne1f2\ne1g1\n"))
        .stderr("");
    sanfen(&["moves", "--notation", "uci", "--order", "value", "--chess960", "--fen", fen])
        .assert()
        .code(0)
        .stdout(format!("{rooks}e1a1\ne1d1\ne1d2\ne1e2\ne1f1\ne1f2\ne1h1\n"))
        .stderr("");
    // Shredder-FEN castling letters need --chess960
    sanfen(&["moves", "--notation", "uci", "--order", "value", "--chess960", "--fen", CHESS960])
        .assert()
        .code(0)
        .stdout("a3a4\nb2b3\nb2b4\nc2c3\nc2c4\nd3d4\ne2e3\ne2e4\nf4f5\ng2g3\ng2g4\nh2h3\nh2h4\na2b4\na2c1\na2c3\ne1f3\nf1f2\nf1f3\nb1c1\ng1f2\n")
        .stderr("");
}

#[test]
fn moves_of_a_finished_game_print_nothing() {
    // checkmate and stalemate
    sanfen(&["moves", "--fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"]).assert().code(0).stdout("").stderr("");
    sanfen(&["moves", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]).assert().code(0).stdout("").stderr("");
}

#[test]
fn moves_json() {
    // the value order counts ranks from White's side, whichever side moves
    let output = sanfen(&["moves", "--json", "--notation", "lan", "--order", "value", "--fen", AFTER_E4])
        .assert()
        .code(0)
        .stderr("")
        .get_output()
        .stdout
        .clone();
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 1);
    assert_object(
        &lines[0],
        &json!({
            "input": AFTER_E4,
            "valid": true,
            "fen": AFTER_E4_CANONICAL,
            "notation": "lan",
            "moves": [
                "a7-a5", "a7-a6", "b7-b5", "b7-b6", "c7-c5", "c7-c6", "d7-d5", "d7-d6", "e7-e5", "e7-e6",
                "f7-f5", "f7-f6", "g7-g5", "g7-g6", "h7-h5", "h7-h6", "Nb8-a6", "Nb8-c6", "Ng8-f6", "Ng8-h6",
            ],
        }),
    );
    // an invalid FEN: the `fen check --json` object, and exit code 1
    let output =
        sanfen(&["moves", "--json", "--fen", BAD_CASTLING]).assert().code(1).stderr("").get_output().stdout.clone();
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["valid"], false);
    assert_eq!(lines[0]["errors"][0]["code"], "fen:castling");
    assert_eq!(lines[0]["errors"][0]["span"], json!([46, 47]));
}

#[test]
fn moves_invalid_fen_exits_1_with_the_diagnostics() {
    sanfen(&["moves", "--fen", BAD_CASTLING]).assert().code(1).stdout("").stderr(BAD_CASTLING_ERROR);
    sanfen(&["moves", "--fen", TWO_SYNTAX_ERRORS]).assert().code(1).stdout("").stderr(TWO_SYNTAX_ERRORS_REPORT);
    sanfen(&["moves", "--fen", ""]).assert().code(1).stdout("").stderr(EMPTY_LINE_ERROR);
}

#[test]
fn moves_of_a_composed_position_with_a_warning() {
    sanfen(&["moves", "--fen", DOUBLE_CHECK_ONE_LINE])
        .assert()
        .code(0)
        .stdout("Ke2\nKf2\n")
        .stderr(DOUBLE_CHECK_WARNING);
}

#[test]
fn moves_and_perft_usage_errors_exit_2() {
    for args in [
        &["perft"][..],
        &["perft", "x"],
        &["perft", "-1"],
        &["perft", "3", "4"],
        &["perft", "--fen"],
        &["moves", "--notation", "pgn"],
        &["moves", "--letters", "xx"],
        &["moves", "--letters"],
        &["moves", "--order", "random"],
        &["moves", "3"],
    ] {
        let assert = sanfen(args).assert().code(2).stdout("");
        assert!(!assert.get_output().stderr.is_empty(), "{args:?}: a usage error says why");
    }
    sanfen(&["moves", "--help"]).assert().code(0).stderr("");
    sanfen(&["perft", "--help"]).assert().code(0).stderr("");
}

/// Every kind of move: promotions (two of them mate), en passant, two knights
/// that reach the same squares, a capture with check, castling.
const EVERY_KIND: &str = "7k/1P4pp/8/3pP3/8/2N3N1/8/4K2R w K d6 0 1";

#[test]
fn moves_in_every_notation() {
    let listing = |notation: &str, extra: &[&str]| {
        let mut args = vec!["moves", "--order", "value", "--fen", EVERY_KIND, "--notation", notation];
        args.extend_from_slice(extra);
        let output = sanfen(&args).assert().code(0).stderr("").get_output().stdout.clone();
        let text = String::from_utf8(output).unwrap();
        assert!(text.ends_with('\n'), "{text:?}");
        text.lines().map(str::to_owned).collect::<Vec<_>>().join(" ")
    };
    assert_eq!(
        listing("san", &[]),
        "b8=N b8=B b8=R# b8=Q# exd6 e6 Na2 Na4 Nb1 Nb5 Nd1 Nxd5 Nce2 Nce4 Nge2 Nge4 Nf1 Nf5 Nh5 \
         Rf1 Rg1 Rh2 Rh3 Rh4 Rh5 Rh6 Rxh7+ Kd1 Kd2 Ke2 Kf1 Kf2 O-O"
    );
    assert_eq!(
        listing("lan", &[]),
        "b7-b8=N b7-b8=B b7-b8=R# b7-b8=Q# e5xd6 e5-e6 Nc3-a2 Nc3-a4 Nc3-b1 Nc3-b5 Nc3-d1 Nc3xd5 Nc3-e2 Nc3-e4 \
         Ng3-e2 Ng3-e4 Ng3-f1 Ng3-f5 Ng3-h5 Rh1-f1 Rh1-g1 Rh1-h2 Rh1-h3 Rh1-h4 Rh1-h5 Rh1-h6 Rh1xh7+ \
         Ke1-d1 Ke1-d2 Ke1-e2 Ke1-f1 Ke1-f2 O-O"
    );
    let uci = "b7b8n b7b8b b7b8r b7b8q e5d6 e5e6 c3a2 c3a4 c3b1 c3b5 c3d1 c3d5 c3e2 c3e4 g3e2 g3e4 g3f1 g3f5 g3h5 \
               h1f1 h1g1 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 e1d1 e1d2 e1e2 e1f1 e1f2";
    assert_eq!(listing("uci", &[]), format!("{uci} e1g1"));
    assert_eq!(listing("uci", &["--chess960"]), format!("{uci} e1h1"));
    assert_eq!(
        listing("figurine", &[]),
        "b8=♘ b8=♗ b8=♖# b8=♕# exd6 e6 ♘a2 ♘a4 ♘b1 ♘b5 ♘d1 ♘xd5 ♘ce2 ♘ce4 ♘ge2 ♘ge4 ♘f1 ♘f5 ♘h5 \
         ♖f1 ♖g1 ♖h2 ♖h3 ♖h4 ♖h5 ♖h6 ♖xh7+ ♔d1 ♔d2 ♔e2 ♔f1 ♔f2 O-O"
    );
    assert_eq!(
        listing("file-prefixed", &[]),
        "bb8N bb8B bb8R bb8Q exd6 ee6 Na2 Na4 Nb1 Nb5 Nd1 Nxd5 Nce2 Nce4 Nge2 Nge4 Nf1 Nf5 Nh5 \
         Rf1 Rg1 Rh2 Rh3 Rh4 Rh5 Rh6 Rxh7 Kd1 Kd2 Ke2 Kf1 Kf2 Kg1"
    );
    // other languages' letters: Portuguese SAN, German file-prefixed
    assert_eq!(
        listing("san", &["--letters", "pt"]),
        "b8=C b8=B b8=T# b8=D# exd6 e6 Ca2 Ca4 Cb1 Cb5 Cd1 Cxd5 Cce2 Cce4 Cge2 Cge4 Cf1 Cf5 Ch5 \
         Tf1 Tg1 Th2 Th3 Th4 Th5 Th6 Txh7+ Rd1 Rd2 Re2 Rf1 Rf2 O-O"
    );
    assert_eq!(
        listing("file-prefixed", &["--letters", "de"]),
        "bb8S bb8L bb8T bb8D exd6 ee6 Sa2 Sa4 Sb1 Sb5 Sd1 Sxd5 Sce2 Sce4 Sge2 Sge4 Sf1 Sf5 Sh5 \
         Tf1 Tg1 Th2 Th3 Th4 Th5 Th6 Txh7 Kd1 Kd2 Ke2 Kf1 Kf2 Kg1"
    );
}

#[test]
fn moves_json_names_the_notation() {
    let output = sanfen(&["moves", "--json", "--order", "value", "--notation", "file-prefixed", "--fen", EVERY_KIND])
        .assert()
        .code(0)
        .stderr("")
        .get_output()
        .stdout
        .clone();
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["notation"], "file-prefixed");
    assert_eq!(lines[0]["moves"][0], "bb8N");
    assert_eq!(lines[0]["moves"].as_array().unwrap().len(), 33);
    // the default notation is SAN
    let output = sanfen(&["moves", "--json", "--fen", EVERY_KIND]).assert().code(0).get_output().stdout.clone();
    assert_eq!(json_lines(&output)[0]["notation"], "san");
}

// ---------------------------------------------------------------- resolve

const NF3_AFTER: &str = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1";
/// Knights on b3 and f3 can both go to d4.
const TWO_KNIGHTS: &str = "r1bqkbnr/pppppppp/2n5/8/8/1N3N2/PPPPPPPP/R1BQKB1R w KQkq - 0 1";
/// The knight on e2 is pinned by the rook on e7.
const PINNED_KNIGHT: &str = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1";

#[test]
fn resolve_success() {
    sanfen(&["resolve", "Nf3"])
        .assert()
        .code(0)
        .stdout(format!(
            "input: Nf3\nreading: Nf3\ncandidate b1: cannot reach the destination\ncandidate g1: kept\n\
             move: Nf3 (g1f3)\nfen after: {NF3_AFTER}\n"
        ))
        .stderr("");
}

#[test]
fn resolve_illegal_with_suggestions() {
    sanfen(&["resolve", "Nf6"])
        .assert()
        .code(1)
        .stdout(
            "input: Nf6\nreading: Nf6\ncandidate b1: cannot reach the destination\n\
             candidate g1: cannot reach the destination\n\
             illegal: no knight can move to f6; did you mean Nf3, Na3, Nc3?\n",
        )
        .stderr("");
}

#[test]
fn resolve_ambiguous() {
    sanfen(&["resolve", "--fen", TWO_KNIGHTS, "Nd4"])
        .assert()
        .code(1)
        .stdout(
            "input: Nd4\nreading: Nd4\ncandidate b3: kept\ncandidate f3: kept\n\
             ambiguous: pieces on b3 and f3 can both make the move; write Nbd4 or Nfd4\n",
        )
        .stderr("");
    // the origin file settles it
    sanfen(&["resolve", "--fen", TWO_KNIGHTS, "Nbd4"]).assert().code(0).stderr("");
}

#[test]
fn resolve_syntax_error() {
    sanfen(&["resolve", "Nz9"])
        .assert()
        .code(1)
        .stdout("input: Nz9\ninvalid move at 1..2: found \"z\", expected a file a-h, a rank 1-8 or `x`\n")
        .stderr("");
}

#[test]
fn resolve_pinned_piece() {
    sanfen(&["resolve", "--fen", PINNED_KNIGHT, "Nc3"])
        .assert()
        .code(1)
        .stdout(
            "input: Nc3\nreading: Nc3\ncandidate e2: pinned by the piece on e7\n\
             illegal: no knight can move to c3: the knight on e2 is pinned by the piece on e7\n",
        )
        .stderr("");
}

#[test]
fn resolve_lints_are_warnings_unless_strict() {
    let report = |severity: &str| {
        format!(
            "input: Ng1-f3\nreading: Ng1f3\ncandidate b1: excluded by the given file\ncandidate g1: kept\n\
             move: Nf3 (g1f3)\n\
             {severity}[san:long-algebraic] at 3..4: `-` between the origin and the destination (long algebraic); SAN leaves it out\n\
             {severity}[san:over-disambiguated]: origin given where no other piece could make the move; SAN writes Nf3\n\
             fen after: {NF3_AFTER}\n"
        )
    };
    sanfen(&["resolve", "Ng1-f3"]).assert().code(0).stdout(report("warning")).stderr("");
    sanfen(&["resolve", "--strict", "Ng1-f3"]).assert().code(1).stdout(report("error")).stderr("");
    // canonical SAN passes --strict
    sanfen(&["resolve", "--strict", "Nf3"]).assert().code(0).stderr("");
}

#[test]
fn resolve_castling_spellings_and_two_readings() {
    sanfen(&["resolve", "--fen", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0", "Kg1"])
        .assert()
        .code(0)
        .stdout(
            "\
input: 0-0
reading: O-O
move: O-O (e1g1)
warning[san:castling-zeros] at 0..3: castling written with zeros; SAN writes O-O
fen after: r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1

input: Kg1
reading: Kg1
candidate e1: kept
move: O-O (e1g1)
warning[san:castling-as-king-move]: castling written as a king move; SAN writes O-O
fen after: r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1
",
        )
        .stderr("");
    // `bc4`: the b-pawn reading does not fit (nothing on c4 to take), the bishop's does
    sanfen(&["resolve", "--fen", "rnbqkbnr/pppp1ppp/8/4p3/8/1P2P3/P1PP1PPP/RNBQKBNR w KQkq - 0 2", "bc4"])
        .assert()
        .code(0)
        .stdout(
            "\
input: bc4
readings: bxc4, Bc4
candidate c1: cannot reach the destination
candidate f1: kept
move: Bc4 (f1c4)
warning[san:lowercase-piece] at 0..1: lowercase piece letter; SAN writes B
fen after: rnbqkbnr/pppp1ppp/8/4p3/2B5/1P2P3/P1PP1PPP/RNBQK1NR b KQkq - 1 2
",
        )
        .stderr("");
}

#[test]
fn resolve_reads_standard_input_one_san_per_line() {
    // each against the same position
    let output =
        sanfen(&["resolve", "--json"]).write_stdin("e4\nNf6\n").assert().code(1).stderr("").get_output().stdout.clone();
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["move"], json!({"san": "e4", "uci": "e2e4"}));
    assert_eq!(lines[1]["error"]["kind"], "illegal");
}

#[test]
fn resolve_json() {
    let object = |args: &[&str], code: i32| {
        let output = sanfen(args).assert().code(code).stderr("").get_output().stdout.clone();
        let lines = json_lines(&output);
        assert_eq!(lines.len(), 1, "{args:?}");
        lines.into_iter().next().unwrap()
    };
    assert_object(
        &object(&["resolve", "--json", "Ng1-f3"], 0),
        &json!({
            "input": "Ng1-f3",
            "fen": START,
            "readings": ["Ng1f3"],
            "candidates": [
                {"from": "b1", "kept": false, "reason": "excluded by the given file"},
                {"from": "g1", "kept": true, "reason": null},
            ],
            "move": {"san": "Nf3", "uci": "g1f3"},
            "error": null,
            "lints": [
                {
                    "code": "san:long-algebraic",
                    "message": "`-` between the origin and the destination (long algebraic); SAN leaves it out",
                    "canonical": "",
                    "span": [3, 4],
                },
                {
                    "code": "san:over-disambiguated",
                    "message": "origin given where no other piece could make the move; SAN writes Nf3",
                    "canonical": "Nf3",
                    "span": null,
                },
            ],
            "fen_after": NF3_AFTER,
        }),
    );
    assert_object(
        &object(&["resolve", "--json", "Nf6"], 1),
        &json!({
            "input": "Nf6",
            "fen": START,
            "readings": ["Nf6"],
            "candidates": [
                {"from": "b1", "kept": false, "reason": "cannot reach the destination"},
                {"from": "g1", "kept": false, "reason": "cannot reach the destination"},
            ],
            "move": null,
            "error": {
                "kind": "illegal",
                "message": "illegal: no knight can move to f6; did you mean Nf3, Na3, Nc3?",
                "suggestions": ["Nf3", "Na3", "Nc3"],
            },
            "lints": [],
            "fen_after": null,
        }),
    );
    assert_object(
        &object(&["resolve", "--json", "--fen", TWO_KNIGHTS, "Nd4"], 1),
        &json!({
            "input": "Nd4",
            "fen": TWO_KNIGHTS,
            "readings": ["Nd4"],
            "candidates": [
                {"from": "b3", "kept": true, "reason": null},
                {"from": "f3", "kept": true, "reason": null},
            ],
            "move": null,
            "error": {
                "kind": "ambiguous",
                "message": "ambiguous: pieces on b3 and f3 can both make the move; write Nbd4 or Nfd4",
                "spellings": ["Nbd4", "Nfd4"],
            },
            "lints": [],
            "fen_after": null,
        }),
    );
    assert_object(
        &object(&["resolve", "--json", "Nz9"], 1),
        &json!({
            "input": "Nz9",
            "fen": START,
            "readings": [],
            "candidates": [],
            "move": null,
            "error": {
                "kind": "syntax",
                "message": "invalid move at 1..2: found \"z\", expected a file a-h, a rank 1-8 or `x`",
                "span": [1, 2],
            },
            "lints": [],
            "fen_after": null,
        }),
    );
}

#[test]
fn resolve_invalid_fen_and_usage_errors() {
    sanfen(&["resolve", "--fen", BAD_CASTLING, "Nf3"]).assert().code(1).stdout("").stderr(BAD_CASTLING_ERROR);
    for args in
        [&["resolve", "--letters", "xx", "Nf3"][..], &["resolve", "--fen"], &["resolve", "--no-such-flag", "Nf3"]]
    {
        let assert = sanfen(args).assert().code(2).stdout("");
        assert!(!assert.get_output().stderr.is_empty(), "{args:?}: a usage error says why");
    }
}

// ---------------------------------------------------------------- apply

const ITALIAN: &str = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4";

#[test]
fn apply_success() {
    // move numbers, alone or glued to the move, and `*` are skipped
    sanfen(&["apply", "1.", "e4", "e5", "2.Nf3", "Nc6", "3. Bc4 Bc5", "4.", "O-O", "*"])
        .assert()
        .code(0)
        .stdout(format!("{ITALIAN}\n"))
        .stderr("");
    // no move: the position itself
    sanfen(&["apply", "--fen", TWO_KNIGHTS, "-"])
        .write_stdin("")
        .assert()
        .code(0)
        .stdout(format!("{TWO_KNIGHTS}\n"))
        .stderr("");
    // standard input, across lines
    sanfen(&["apply"])
        .write_stdin("1. e4 e5\n2. Nf3 Nc6\n3. Bc4 Bc5 4. O-O 1-0\n")
        .assert()
        .code(0)
        .stdout(format!("{ITALIAN}\n"))
        .stderr("");
}

#[test]
fn apply_joins_an_en_passant_mark_written_apart_to_its_move() {
    let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    sanfen(&["apply", "--fen", fen, "exf6", "e.p."])
        .assert()
        .code(0)
        .stdout("rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3\n")
        .stderr("sanfen: warning: move 1 (exf6 e.p.): en passant mark; SAN leaves it out (san:en-passant-suffix)\n");
}

#[test]
fn apply_lenient_warnings() {
    sanfen(&["apply", "e2-e4", "e5", "Nf3", "Nc6", "Bc4!", "Bc5", "0-0"])
        .assert()
        .code(0)
        .stdout(format!("{ITALIAN}\n"))
        .stderr(
            "\
sanfen: warning: move 1 (e2-e4): squares without a piece letter (coordinate or UCI notation); SAN names the piece, which needs the position (san:coordinates)
sanfen: warning: move 1 (e2-e4): `-` between the squares; SAN leaves it out (san:square-separator)
sanfen: warning: move 7 (0-0): castling written with zeros; SAN writes O-O (san:castling-zeros)
",
        );
}

#[test]
fn apply_strict_failure() {
    sanfen(&["apply", "--strict", "1.", "e4", "e5", "2.", "Nf3", "Nc6", "3.", "Bc4", "Bc5", "4.", "0-0"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "sanfen: move 7 (0-0): not canonical: castling written with zeros; SAN writes O-O (san:castling-zeros)\n",
        );
    // a move lint (the check mark) fails too
    sanfen(&["apply", "--strict", "e4", "e5", "Qh5", "Nc6", "Qxf7"]).assert().code(1).stdout("").stderr(
        "sanfen: move 5 (Qxf7): not canonical: checking move written without +; SAN writes Qxf7+ (san:missing-check)\n",
    );
    sanfen(&["apply", "--strict", "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"])
        .assert()
        .code(0)
        .stdout("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4\n")
        .stderr("");
}

#[test]
fn apply_names_the_failing_move() {
    sanfen(&["apply", "1.", "e4", "e5", "2.", "Nf6"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("sanfen: move 3 (Nf6): illegal: no knight can move to f6; did you mean Nf3, Na3, Nc3?\n");
    sanfen(&["apply", "--fen", TWO_KNIGHTS, "Nd4"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("sanfen: move 1 (Nd4): ambiguous: pieces on b3 and f3 can both make the move; write Nbd4 or Nfd4\n");
    sanfen(&["apply", "e4", "Nz9"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("sanfen: move 2 (Nz9): invalid move at 1..2: found \"z\", expected a file a-h, a rank 1-8 or `x`\n");
}

#[test]
fn apply_stops_at_a_result_the_board_contradicts_or_a_move_after_the_result() {
    let fools_mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    let e4_e5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let fails = |args: &[&str], stderr: &str| {
        sanfen(args).assert().code(1).stdout("").stderr(stderr.to_owned());
    };
    // the result the board gives, a result after which no move comes, written again
    for (args, fen) in [
        (&["apply", "f3", "e5", "g4", "Qh4#", "0-1"][..], fools_mate),
        (&["apply", "f3", "e5", "g4", "Qh4#", "0-1", "0-1"], fools_mate),
        (&["apply", "--fen", stalemate, "½-½"], stalemate),
        (&["apply", "e4", "e5", "1-0"], e4_e5),
        (&["apply", "e4", "*", "e5", "1/2-1/2", "1/2-1/2"], e4_e5),
    ] {
        sanfen(args).assert().code(0).stdout(format!("{fen}\n")).stderr("");
    }
    fails(
        &["apply", "f3", "e5", "g4", "Qh4#", "1-0"],
        "sanfen: result 1-0 after move 4: the game ends in checkmate: the result is 0-1\n",
    );
    fails(
        &["apply", "f3", "e5", "g4", "Qh4#", "*"],
        "sanfen: result * after move 4: the game ends in checkmate: the result is 0-1\n",
    );
    fails(
        &["apply", "--fen", stalemate, "0-1"],
        "sanfen: result 0-1: the game ends in stalemate: the result is 1/2-1/2\n",
    );
    fails(
        &["apply", "e4", "e5", "1-0", "Nf3"],
        "sanfen: move 3 (Nf3): the game ended with 1-0 after move 2: not played\n",
    );
    fails(&["apply", "1-0", "e4"], "sanfen: move 1 (e4): the game ended with 1-0: not played\n");
    fails(&["apply", "e4", "1-0", "0-1"], "sanfen: result 0-1 after move 1: the game ended with 1-0 already\n");
    fails(&["apply", "e4", "1-0", "*"], "sanfen: result * after move 1: the game ended with 1-0 already\n");
    // JSON: the result's index is the move's it follows
    let json = |args: &[&str]| {
        let output = sanfen(args).assert().code(1).stderr("").get_output().stdout.clone();
        json_lines(&output).into_iter().next().unwrap()
    };
    let e4 = json!({"index": 1, "input": "e4", "san": "e4", "uci": "e2e4", "lints": []});
    assert_object(
        &json(&["apply", "--json", "e4", "1-0", "e5"]),
        &json!({
            "fen": null,
            "moves": [e4],
            "error": {"index": 2, "input": "e5", "kind": "over", "message": "the game ended with 1-0 after move 1: not played"},
        }),
    );
    assert_object(
        &json(&["apply", "--json", "--fen", stalemate, "1-0"]),
        &json!({
            "fen": null,
            "moves": [],
            "error": {"index": 0, "input": "1-0", "kind": "result", "message": "the game ends in stalemate: the result is 1/2-1/2"},
        }),
    );
}

#[test]
fn apply_portuguese_letters() {
    sanfen(&["apply", "--letters", "pt", "Cf3"])
        .assert()
        .code(0)
        .stdout(format!("{NF3_AFTER}\n"))
        .stderr("sanfen: warning: move 1 (Cf3): piece letter of another language; SAN writes N (san:local-letters)\n");
    // in English, C is no piece letter
    sanfen(&["apply", "Cf3"]).assert().code(1).stdout("");
}

#[test]
fn apply_json() {
    let object = |args: &[&str], code: i32| {
        let output = sanfen(args).assert().code(code).stderr("").get_output().stdout.clone();
        let lines = json_lines(&output);
        assert_eq!(lines.len(), 1, "{args:?}");
        lines.into_iter().next().unwrap()
    };
    assert_object(
        &object(&["apply", "--json", "1.", "e4", "e5", "2.", "Nf3", "Nc6", "3.", "Bc4", "Bc5", "4.", "0-0"], 0),
        &json!({
            "fen": ITALIAN,
            "moves": [
                {"index": 1, "input": "e4", "san": "e4", "uci": "e2e4", "lints": []},
                {"index": 2, "input": "e5", "san": "e5", "uci": "e7e5", "lints": []},
                {"index": 3, "input": "Nf3", "san": "Nf3", "uci": "g1f3", "lints": []},
                {"index": 4, "input": "Nc6", "san": "Nc6", "uci": "b8c6", "lints": []},
                {"index": 5, "input": "Bc4", "san": "Bc4", "uci": "f1c4", "lints": []},
                {"index": 6, "input": "Bc5", "san": "Bc5", "uci": "f8c5", "lints": []},
                {
                    "index": 7,
                    "input": "0-0",
                    "san": "O-O",
                    "uci": "e1g1",
                    "lints": [{
                        "code": "san:castling-zeros",
                        "message": "castling written with zeros; SAN writes O-O",
                        "canonical": "O-O",
                        "span": [0, 3],
                    }],
                },
            ],
            "error": null,
        }),
    );
    assert_object(
        &object(&["apply", "--json", "e4", "e5", "Nf6"], 1),
        &json!({
            "fen": null,
            "moves": [
                {"index": 1, "input": "e4", "san": "e4", "uci": "e2e4", "lints": []},
                {"index": 2, "input": "e5", "san": "e5", "uci": "e7e5", "lints": []},
            ],
            "error": {
                "index": 3,
                "input": "Nf6",
                "kind": "illegal",
                "message": "illegal: no knight can move to f6; did you mean Nf3, Na3, Nc3?",
                "suggestions": ["Nf3", "Na3", "Nc3"],
            },
        }),
    );
    assert_object(
        &object(&["apply", "--json", "--strict", "0-0"], 1),
        &json!({
            "fen": null,
            "moves": [],
            "error": {
                "index": 1,
                "input": "0-0",
                "kind": "illegal",
                "message": "illegal: cannot castle through pieces on f1, g1",
                "suggestions": [],
            },
        }),
    );
    assert_object(
        &object(&["apply", "--json", "--strict", "--fen", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0"], 1),
        &json!({
            "fen": null,
            "moves": [],
            "error": {
                "index": 1,
                "input": "0-0",
                "kind": "lint",
                "message": "castling written with zeros; SAN writes O-O",
                "lints": [{
                    "code": "san:castling-zeros",
                    "message": "castling written with zeros; SAN writes O-O",
                    "canonical": "O-O",
                    "span": [0, 3],
                }],
            },
        }),
    );
}

#[test]
fn apply_invalid_fen_and_usage_errors() {
    sanfen(&["apply", "--fen", BAD_CASTLING, "Nf3"]).assert().code(1).stdout("").stderr(BAD_CASTLING_ERROR);
    for args in [&["apply", "--letters", "klingon", "Nf3"][..], &["apply", "--fen"], &["apply", "--no-such-flag"]] {
        let assert = sanfen(args).assert().code(2).stdout("");
        assert!(!assert.get_output().stderr.is_empty(), "{args:?}: a usage error says why");
    }
    sanfen(&["resolve", "--help"]).assert().code(0).stderr("");
    sanfen(&["apply", "--help"]).assert().code(0).stderr("");
}
