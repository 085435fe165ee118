//! `sanfen san`, run as a user runs it: exact stdout, stderr and exit code.
//! (The terminal rendering, with the token and carets, is unit-tested in
//! `src/cli/san.rs`: here stdout is never a terminal.)

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::{Value, json};

fn sanfen(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("sanfen");
    cmd.arg("san").args(args);
    cmd
}

const ZEROS_WARNING: &str = "warning[san:castling-zeros] at 0..3: castling written with zeros; SAN writes O-O";

#[test]
fn canonical_moves_one_line_each() {
    // a null move as an argument comes after `--`, the end of the options
    sanfen(&["Nf3", "exd5", "e8=Q+", "O-O-O", "Nbd7!?", "R1e2", "Qh4xe1#", "--", "--"])
        .assert()
        .code(0)
        .stdout(
            "Nf3 knight to f3\n\
             exd5 pawn from e takes d5\n\
             e8=Q+ pawn to e8 promotes to queen, check\n\
             O-O-O castles queen-side\n\
             Nbd7!? knight from b to d7, speculative\n\
             R1e2 rook from 1 to e2\n\
             Qh4xe1# queen from h4 takes e1, checkmate\n\
             -- null move\n",
        )
        .stderr("");
}

#[test]
fn lenient_spellings_warn_with_the_canonical_form() {
    sanfen(&["0-0", "e8q", "Ng1-f3", "g1f3", "exd6 e.p.", "Qh7++", "nf3", "♘f3", "Z0"])
        .assert()
        .code(0)
        .stdout(format!(
            "O-O castles king-side; {ZEROS_WARNING}\n\
             e8=Q pawn to e8 promotes to queen; warning[san:promotion-without-equals] at 2..3: promotion without `=`; SAN writes =Q\n\
             Ng1f3 knight from g1 to f3; warning[san:long-algebraic] at 3..4: `-` between the origin and the destination (long algebraic); SAN leaves it out\n\
             g1f3 from g1 to f3; warning[san:coordinates] at 0..4: squares without a piece letter (coordinate or UCI notation); SAN names the piece, which needs the position\n\
             exd6 pawn from e takes d6, en passant; warning[san:en-passant-suffix] at 4..9: en passant mark; SAN leaves it out\n\
             Qh7# queen to h7, checkmate; warning[san:double-plus-mate] at 3..5: checkmate written `++` or `‡`; SAN writes #\n\
             Nf3 knight to f3; warning[san:lowercase-piece] at 0..1: lowercase piece letter; SAN writes N\n\
             Nf3 knight to f3; warning[san:figurine] at 0..3: figurine; SAN writes N\n\
             -- null move; warning[san:null-move-spelling] at 0..2: null move spelling; SAN writes --\n"
        ))
        .stderr("");
}

#[test]
fn two_readings_of_a_lowercase_b() {
    sanfen(&["bc4"])
        .assert()
        .code(0)
        .stdout("bxc4 pawn from b to c4 | Bc4 bishop to c4; warning[san:lowercase-piece] at 0..1: lowercase piece letter; SAN writes B\n")
        .stderr("");
}

#[test]
fn invalid_tokens_exit_one() {
    sanfen(&["Nf3", "Nf9", "", "e4 "])
        .assert()
        .code(1)
        .stdout(
            "Nf3 knight to f3\n\
             error[san:syntax] at 2..3: found \"9\", expected a file a-h, a rank 1-8 or `x`\n\
             error[san:syntax] at 0..0: found nothing, expected a move such as e4, Nf3, exd5, e8=Q or O-O\n\
             error[san:syntax] at 2..3: found \" \", expected the end of the move, with no whitespace after it\n",
        )
        .stderr("");
}

#[test]
fn strict_accepts_canonical_san_only() {
    sanfen(&["--strict", "Nf3", "O-O+"]).assert().code(0).stdout("Nf3 knight to f3\nO-O+ castles king-side, check\n");
    sanfen(&["--strict", "0-0", "e8Q", "g1f3", "ed5"])
        .assert()
        .code(1)
        .stdout(
            "error[san:syntax] at 0..3: found \"0-0\", expected `O-O` (strict SAN writes castling with the capital letter O)\n\
             error[san:syntax] at 2..3: found \"Q\", expected `=Q` (strict SAN writes a promotion as `=` and a capital letter)\n\
             error[san:syntax] at 0..4: found \"g1f3\", expected a piece letter or a pawn move such as e4 (strict SAN has no coordinate notation)\n\
             error[san:syntax] at 0..3: found \"ed5\", expected `exd5` (strict SAN names a pawn's origin file only for a capture, and then with `x`)\n",
        )
        .stderr("");
}

#[test]
fn letters_of_other_languages() {
    let local = |span: &str, canonical: &str| {
        format!("warning[san:local-letters] at {span}: piece letter of another language; SAN writes {canonical}")
    };
    sanfen(&["--letters", "pt", "Cf3", "Dd1", "Tf1", "Rg1", "Bb5", "Nf3"])
        .assert()
        .code(0)
        .stdout(format!(
            "Nf3 knight to f3; {}\nQd1 queen to d1; {}\nRf1 rook to f1; {}\nKg1 king to g1; {}\nBb5 bishop to b5\nNf3 knight to f3\n",
            local("0..1", "N"),
            local("0..1", "Q"),
            local("0..1", "R"),
            local("0..1", "K"),
        ))
        .stderr("");
    sanfen(&["--letters", "german", "Sf3", "Lb5"]).assert().code(0).stdout(format!(
        "Nf3 knight to f3; {}\nBb5 bishop to b5; {}\n",
        local("0..1", "N"),
        local("0..1", "B")
    ));
    // English letters that mean something else are read in the language
    sanfen(&["--letters", "pt", "e8=R"]).assert().code(1);
}

#[test]
fn reads_stdin_lines() {
    // the last line has no final newline; a `\r` stays part of the token
    sanfen(&[])
        .write_stdin("e4\nNf3\r\nO-O")
        .assert()
        .code(1)
        .stdout(
            "e4 pawn to e4\n\
             error[san:syntax] at 3..4: found \"\\r\", expected the end of the move, with no whitespace after it\n\
             O-O castles king-side\n",
        )
        .stderr("");
    sanfen(&["d4", "-"]).write_stdin("d5\n").assert().code(0).stdout("d4 pawn to d4\nd5 pawn to d5\n");
}

#[test]
fn many_tokens_from_stdin() {
    // more than one output block
    let tokens = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O", "0-0"];
    let input: String = (0..20_000).map(|i| format!("{}\n", tokens[i % tokens.len()])).collect();
    let output = sanfen(&[]).write_stdin(input).assert().code(0).get_output().stdout.clone();
    let text = String::from_utf8(output).unwrap();
    assert_eq!(text.lines().count(), 20_000);
    assert_eq!(text.lines().nth(7), Some(format!("O-O castles king-side; {ZEROS_WARNING}").as_str()));
    assert_eq!(text.lines().nth(19_999), text.lines().nth(7));
}

#[test]
fn json_lines() {
    let output = sanfen(&["--json", "Nbd7+", "0-0", "bc4", "Nf9"]).assert().code(1).get_output().stdout.clone();
    let lines: Vec<Value> =
        String::from_utf8(output).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(
        lines[0],
        json!({
            "input": "Nbd7+",
            "valid": true,
            "readings": [{
                "san": "Nbd7+", "kind": "normal", "role": "knight", "file": "b", "rank": null, "capture": false,
                "to": "d7", "promotion": null, "suffix": "check", "annotation": null, "en_passant_mark": false,
                "warnings": [],
            }],
            "errors": [],
        })
    );
    assert_eq!(
        lines[1],
        json!({
            "input": "0-0",
            "valid": true,
            "readings": [{
                "san": "O-O", "kind": "castle", "side": "king-side", "suffix": null, "annotation": null,
                "en_passant_mark": false,
                "warnings": [{
                    "code": "san:castling-zeros",
                    "message": "castling written with zeros; SAN writes O-O",
                    "span": [0, 3],
                    "canonical": "O-O",
                }],
            }],
            "errors": [],
        })
    );
    assert_eq!(lines[2]["readings"].as_array().unwrap().len(), 2);
    assert_eq!(lines[2]["readings"][0]["warnings"], json!([]));
    assert_eq!(lines[2]["readings"][1]["role"], "bishop");
    assert_eq!(lines[2]["readings"][1]["warnings"][0]["code"], "san:lowercase-piece");
    assert_eq!(
        lines[3],
        json!({
            "input": "Nf9",
            "valid": false,
            "readings": [],
            "errors": [{
                "code": "san:syntax",
                "message": "invalid move at 2..3: found \"9\", expected a file a-h, a rank 1-8 or `x`",
                "span": [2, 3],
                "found": "9",
                "expected": "a file a-h, a rank 1-8 or `x`",
            }],
        })
    );
}

#[test]
fn usage_errors_exit_two() {
    let output = sanfen(&["--letters", "klingon", "Nf3"]).assert().code(2).stdout("").get_output().stderr.clone();
    let stderr = String::from_utf8(output).unwrap();
    assert!(stderr.contains("unknown language \"klingon\": expected en, pt, es, fr, de, it or nl"), "{stderr}");
    sanfen(&["--bogus"]).assert().code(2).stdout("");
}
