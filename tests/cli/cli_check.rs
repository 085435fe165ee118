//! `sanfen check`, run as a user runs it: exact stdout and exit codes, JSON
//! Lines, the same output whatever the number of threads, compressed input.

use std::io::Write;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::{Value, json};

fn check(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("sanfen");
    cmd.arg("check").args(args);
    cmd
}

pub(crate) fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pgn").join(name).to_string_lossy().into_owned()
}

/// A file of the test's own in the temporary folder.
fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("sanfen-cli-check-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).expect("a temporary file");
    path
}

pub(crate) const GAMES: &str = "[Event \"Club championship\"]\n[Site \"?\"]\n[Date \"2024.05.01\"]\n[Round \"3\"]\n\
[White \"Ana\"]\n[Black \"Bruno\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. d3 Nf6 4. Nd2 d5 1-0\n\n\
[Event \"Club championship\"]\n[Site \"?\"]\n[Date \"2024.05.01\"]\n[Round \"4\"]\n[White \"Bruno\"]\n\
[Black \"Ana\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 0-1\n";

/// The summary line without its time.
fn without_seconds(text: &str) -> String {
    let (before, _) = text.trim_end().rsplit_once(", ").expect("the seconds at the end");
    before.to_owned()
}

#[test]
fn human_report_and_summary() {
    let output = check(&["-"]).write_stdin(GAMES).assert().code(1).get_output().stdout.clone();
    let text = String::from_utf8(output).unwrap();
    let (findings, summary) = text.trim_end().rsplit_once('\n').unwrap();
    assert_eq!(
        findings,
        "<stdin>:9:34: game 1 (Ana - Bruno, Club championship, round 3), 4. Nd2: error[san:ambiguous]: ambiguous: \
         pieces on b1 and f3 can both make the move; write Nbd2 or Nfd2\n\
         <stdin>:19:35: game 2 (Bruno - Ana, Club championship, round 4), 4. Qxf7: warning[san:missing-checkmate]: \
         mating move written without #; write Qxf7#\n\
         <stdin>:19:40: game 2 (Bruno - Ana, Club championship, round 4), 0-1: \
         warning[pgn:result-contradicts-position]: the game ends in checkmate: the result is 1-0"
    );
    assert_eq!(
        without_seconds(summary),
        "2 games, 13 moves, 1 games with errors, 1 errors, 2 lint findings, 0 skipped, 322 bytes"
    );
}

#[test]
fn quiet_strict_and_exit_codes() {
    let output = check(&["--quiet", "-"]).write_stdin(GAMES).assert().code(1).get_output().stdout.clone();
    let text = String::from_utf8(output).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(text.starts_with("2 games, 13 moves, 1 games with errors, 1 errors, 2 lint findings"), "{text}");
    // the second game alone: lint only, which --strict makes errors
    let second = &GAMES[GAMES.find("\n\n[Event").unwrap() + 2..];
    check(&["--quiet", "-"]).write_stdin(second).assert().code(0);
    let output = check(&["--quiet", "--strict", "-"]).write_stdin(second).assert().code(1).get_output().stdout.clone();
    assert!(String::from_utf8(output).unwrap().starts_with("1 games, 7 moves, 1 games with errors, 2 errors, 0 lint"));
    // a file that cannot be read: exit code 2, the other files still checked
    let assert = check(&["--quiet", "/nonexistent/games.pgn", &data("chess.js/1.pgn")]).assert().code(2);
    let output = assert.get_output();
    assert!(String::from_utf8_lossy(&output.stderr).starts_with("sanfen: /nonexistent/games.pgn: "));
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("1 games, 81 moves, 0 games with errors"));
}

#[test]
fn json_lines_contract() {
    let output = check(&["--json", "-"]).write_stdin(GAMES).assert().code(1).get_output().stdout.clone();
    let lines: Vec<Value> =
        String::from_utf8(output).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0],
        json!({"game": 1, "file": "<stdin>", "line": 1, "white": "Ana", "black": "Bruno",
               "event": "Club championship", "round": "3", "skipped": null, "lint": [],
               "errors": [{"game": 1, "line": 9, "column": 34, "ply": 7, "move_number": 4, "side": "white",
                           "token": "Nd2", "kind": "san:ambiguous",
                           "message": "ambiguous: pieces on b1 and f3 can both make the move; write Nbd2 or Nfd2",
                           "suggestion": "Nbd2 or Nfd2"}]})
    );
    assert_eq!(lines[1]["lint"][0]["kind"], "san:missing-checkmate");
    assert_eq!(lines[1]["lint"][0]["suggestion"], "Qxf7#");
    assert_eq!(lines[1]["lint"][1]["ply"], Value::Null);
    let mut summary = lines[2]["summary"].clone();
    assert!(summary["seconds"].as_f64().is_some());
    summary.as_object_mut().unwrap().remove("seconds");
    assert_eq!(
        summary,
        json!({"games": 2, "moves": 13, "games_with_errors": 1, "errors": 1, "lint": 2, "skipped": 0, "file_errors": 0,
               "bytes": 322})
    );
}

/// Several files of real games, some of more than one chunk (and more than
/// one block of the one-thread reader).
fn big_inputs() -> Vec<String> {
    [
        "pychess/gamefiles/world_matches.pgn",
        "pychess/gamefiles/dortmund.pgn",
        "shakmaty-bench/lichess_db_1000k.pgn",
        "tcec/TCEC_Season_13_-_Superfinal.pgn",
    ]
    .iter()
    .map(|name| data(name))
    .chain([data("pychess/learn/lichess_study_lichess-practice-the-fork_by_arex_2017.01.29.pgn")])
    .collect()
}

#[test]
fn threads_change_nothing_but_the_time() {
    let run = |jobs: &str| {
        let mut args = vec!["--json", "-j", jobs];
        let inputs = big_inputs();
        args.extend(inputs.iter().map(String::as_str));
        let output = check(&args).assert().code(1).get_output().stdout.clone();
        let text = String::from_utf8(output).unwrap();
        let (games, summary) = text.trim_end().rsplit_once('\n').unwrap();
        let mut summary: Value = serde_json::from_str(summary).unwrap();
        summary["summary"].as_object_mut().unwrap().remove("seconds");
        (games.to_owned(), summary)
    };
    let one = run("1");
    assert_eq!(
        one.1,
        json!({"summary": {"games": 1483, "moves": 144844, "games_with_errors": 3, "errors": 3, "lint": 7009,
                           "skipped": 0, "file_errors": 0, "bytes": 6180783}})
    );
    assert_eq!(one.0.lines().count(), 326);
    for jobs in ["2", "3", "8"] {
        assert!(run(jobs) == one, "-j {jobs}");
    }
}

#[test]
fn compressed_input() {
    let plain = std::fs::read(data("shakmaty-bench/twic1599_1000k.pgn")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&plain).unwrap();
    let gz = temp_file("twic.pgn.gz", &gz.finish().unwrap());
    let zst = temp_file("twic.pgn.zst", &zstd::encode_all(&plain[..], 1).unwrap());
    for path in [&gz, &zst] {
        let output = check(&["--quiet", path.to_str().unwrap()]).assert().code(0).get_output().stdout.clone();
        assert_eq!(
            without_seconds(&String::from_utf8(output).unwrap()),
            "1110 games, 101487 moves, 0 games with errors, 0 errors, 0 lint findings, 0 skipped, 999577 bytes"
        );
        std::fs::remove_file(path).unwrap();
    }
}

/// A game in Portuguese piece letters (C cavalo, T torre, D dama, R rei).
const PORTUGUESE: &str = "[Event \"pt\"]\n\n1. e4 e5 2. Cf3 Cc6 3. Bb5 a6 4. O-O Cf6 5. Te1 Be7 6. Bxc6 dxc6 7. d3 Dd6 \
                          8. Rh1 *\n";

#[test]
fn check_and_fmt_read_the_piece_letters_of_a_language() {
    // `check ARGS -` of the game, exiting with `code`: its standard output
    let checked = |args: &[&str], code: i32| {
        let output = check(args).arg("-").write_stdin(PORTUGUESE).assert().code(code).get_output().stdout.clone();
        String::from_utf8(output).unwrap()
    };
    // English letters: Cf3 is no move
    let text = checked(&["--allow", "pgn:missing-tags"], 1);
    assert!(text.starts_with("<stdin>:3:13: game 1 (pt), 2. Cf3: error[san:syntax]: not a move"), "{text}");
    // Portuguese letters: every move played, those in its letters with a lint finding
    let text = checked(&["--letters", "pt", "--allow", "pgn:missing-tags"], 0);
    let lines: Vec<&str> = text.lines().collect();
    let lint = |at: &str, number: &str, written: &str, english: &str| {
        format!(
            "<stdin>:3:{at}: game 1 (pt), {number} {written}: warning[san:local-letters]: piece letter of another language; write {english}"
        )
    };
    assert_eq!(
        lines[..lines.len() - 1],
        [
            lint("13", "2.", "Cf3", "Nf3"),
            lint("17", "2...", "Cc6", "Nc6"),
            lint("38", "4...", "Cf6", "Nf6"),
            lint("45", "5.", "Te1", "Re1"),
            lint("72", "7...", "Dd6", "Qd6"),
            lint("79", "8.", "Rh1", "Kh1"),
        ]
    );
    assert_eq!(
        without_seconds(lines[lines.len() - 1]),
        "1 games, 15 moves, 0 games with errors, 0 errors, 6 lint findings, 0 skipped, 98 bytes"
    );
    // fmt writes them in English; a denied lint finding leaves the game as it is
    let fmt = |args: &[&str]| {
        let mut cmd = cargo_bin_cmd!("sanfen");
        cmd.arg("fmt").args(args).write_stdin(PORTUGUESE);
        cmd
    };
    fmt(&["--letters", "pt"]).assert().code(0).stderr("").stdout(
        "[Event \"pt\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n\
         [Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 5. Re1 Be7 6. Bxc6 dxc6 7. d3 Qd6\n8. Kh1 *\n",
    );
    fmt(&["--letters", "pt", "--deny", "san:local-letters"]).assert().code(1).stdout(PORTUGUESE).stderr(
        "<stdin>:3:13: game 1: Cf3: piece letter of another language; write Nf3 (san:local-letters, denied) \
         (game written unchanged)\n",
    );
    let refused = check(&["--letters", "xx", "-"]).assert().code(2).get_output().stderr.clone();
    let refused = String::from_utf8(refused).unwrap();
    assert!(refused.contains("unknown piece-letter language: expected en, pt, es, fr, de, it or nl"), "{refused}");
}
