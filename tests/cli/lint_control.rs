//! `--allow CODE` and `--deny CODE` on `check`, `apply` and `resolve`: lint
//! findings not reported, or reported as errors, by code or group; exact
//! output and exit codes.

use assert_cmd::cargo::cargo_bin_cmd;

/// A legal game with three lint findings: the Seven Tag Roster, a move
/// without its number, castling with zeros.
const GAME: &str = "[Event \"x\"]\n\n1. e4 e5 Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *\n";

const MISSING_TAGS: &str = "<stdin>:1:1: game 1 (x): warning[pgn:missing-tags]: missing Seven Tag Roster tags: Site, \
                            Date, Round, White, Black, Result\n";

/// `sanfen check ARGS -` on [`GAME`]: stdout without the summary's time,
/// and the exit code.
fn check(args: &[&str]) -> (String, i32) {
    let output = cargo_bin_cmd!("sanfen").arg("check").args(args).arg("-").write_stdin(GAME).output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let without_time = match stdout.rsplit_once(", ") {
        Some((before, _)) => format!("{before}\n"),
        None => stdout,
    };
    (without_time, output.status.code().unwrap())
}

#[test]
fn check_reports_every_lint_finding_as_a_warning_by_default() {
    assert_eq!(
        check(&[]),
        (
            format!(
                "{MISSING_TAGS}<stdin>:3:10: game 1 (x), 2. Nf3: warning[pgn:missing-move-number]: move without its \
                 number 2.\n<stdin>:3:32: game 1 (x), 4. 0-0: warning[san:castling-zeros]: castling written with \
                 zeros; write O-O\n1 games, 7 moves, 0 games with errors, 0 errors, 3 lint findings, 0 skipped, 50 \
                 bytes\n"
            ),
            0
        )
    );
}

#[test]
fn check_allow_drops_a_code_and_deny_makes_another_an_error() {
    assert_eq!(
        check(&["--allow", "pgn:missing-move-number", "--deny", "san:castling-zeros"]),
        (
            format!(
                "{MISSING_TAGS}<stdin>:3:32: game 1 (x), 4. 0-0: error[san:castling-zeros]: castling written with \
                 zeros; write O-O\n1 games, 7 moves, 1 games with errors, 1 errors, 1 lint findings, 0 skipped, 50 \
                 bytes\n"
            ),
            1
        )
    );
}

#[test]
fn check_strict_with_a_group_allowed() {
    assert_eq!(
        check(&["--strict", "--allow", "pgn"]),
        (
            "<stdin>:3:32: game 1 (x), 4. 0-0: error[san:castling-zeros]: castling written with zeros; write O-O\n1 \
             games, 7 moves, 1 games with errors, 1 errors, 0 lint findings, 0 skipped, 50 bytes\n"
                .to_owned(),
            1
        )
    );
}

#[test]
fn check_a_code_outweighs_its_group() {
    assert_eq!(
        check(&["--deny", "pgn", "--allow", "pgn:missing-tags"]),
        (
            "<stdin>:3:10: game 1 (x), 2. Nf3: error[pgn:missing-move-number]: move without its number 2.\n<stdin>:3:32: \
             game 1 (x), 4. 0-0: warning[san:castling-zeros]: castling written with zeros; write O-O\n1 games, 7 moves, \
             1 games with errors, 1 errors, 1 lint findings, 0 skipped, 50 bytes\n"
                .to_owned(),
            1
        )
    );
}

#[test]
fn check_json_lists_a_denied_finding_among_the_errors() {
    let output = cargo_bin_cmd!("sanfen")
        .args(["check", "--json", "--deny", "san", "--allow", "pgn", "-"])
        .write_stdin(GAME)
        .output()
        .unwrap();
    let lines: Vec<serde_json::Value> =
        String::from_utf8(output.stdout).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(lines[0]["errors"][0]["kind"], "san:castling-zeros");
    assert_eq!(lines[0]["lint"], serde_json::json!([]));
    assert_eq!(lines[1]["summary"]["errors"], 1);
    assert_eq!(lines[1]["summary"]["lint"], 0);
}

#[test]
fn refused_codes_are_usage_errors_that_say_why() {
    let cases: [(&[&str], &str); 4] = [
        (&["--allow", "san:illegal"], "sanfen: `san:illegal` is an error, not a lint finding: it cannot be allowed\n"),
        (
            &["--allow", "pgn:missing-move-numbers"],
            "sanfen: unknown finding code `pgn:missing-move-numbers`; did you mean `pgn:missing-move-number`?\n",
        ),
        (&["--allow", "pgn", "--deny", "pgn"], "sanfen: `pgn` is both allowed and denied\n"),
        (
            &["--deny", "fen:castling"],
            "sanfen: unknown finding code `fen:castling`; codes start with `pgn:` or `san:`\n",
        ),
    ];
    for (args, stderr) in cases {
        let output = cargo_bin_cmd!("sanfen").arg("check").args(args).arg("-").write_stdin(GAME).output().unwrap();
        assert_eq!((String::from_utf8(output.stderr).unwrap().as_str(), output.status.code()), (stderr, Some(2)));
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn apply_stops_at_a_denied_finding_and_says_nothing_of_allowed_ones() {
    let moves = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "0-0"];
    let output =
        cargo_bin_cmd!("sanfen").arg("apply").args(["--deny", "san:castling-zeros"]).args(moves).output().unwrap();
    assert_eq!(
        (
            String::from_utf8(output.stdout).unwrap().as_str(),
            String::from_utf8(output.stderr).unwrap().as_str(),
            output.status.code()
        ),
        (
            "",
            "sanfen: move 7 (0-0): not canonical: castling written with zeros; SAN writes O-O (san:castling-zeros)\n",
            Some(1)
        )
    );
    let output = cargo_bin_cmd!("sanfen").arg("apply").args(["--allow", "san"]).args(moves).output().unwrap();
    assert_eq!(
        (
            String::from_utf8(output.stdout).unwrap().as_str(),
            String::from_utf8(output.stderr).unwrap().as_str(),
            output.status.code()
        ),
        ("r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4\n", "", Some(0))
    );
}

#[test]
fn resolve_reports_a_denied_finding_as_an_error_and_drops_an_allowed_one() {
    let output = cargo_bin_cmd!("sanfen")
        .args(["resolve", "--deny", "san:long-algebraic", "--allow", "san:over-disambiguated", "Ng1-f3"])
        .output()
        .unwrap();
    assert_eq!(
        (String::from_utf8(output.stdout).unwrap().as_str(), output.status.code()),
        (
            "input: Ng1-f3\nreading: Ng1f3\ncandidate b1: excluded by the given file\ncandidate g1: kept\nmove: Nf3 \
             (g1f3)\nerror[san:long-algebraic] at 3..4: `-` between the origin and the destination (long algebraic); \
             SAN leaves it out\nfen after: rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1\n",
            Some(1)
        )
    );
}

#[test]
fn fmt_writes_a_game_with_a_denied_finding_unchanged_and_says_why() {
    let input = format!("{GAME}\n[Event \"y\"]\n\n1. d4 d5 *\n");
    let output = cargo_bin_cmd!("sanfen")
        .args(["fmt", "--deny", "san:castling-zeros"])
        .write_stdin(input.clone())
        .output()
        .unwrap();
    assert_eq!(
        (
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(output.stderr).unwrap(),
            output.status.code()
        ),
        (
            "[Event \"x\"]\n\n1. e4 e5 Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *\n\n[Event \"y\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n\
             [Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. d4 d5 *\n"
                .to_owned(),
            "<stdin>:3:32: game 1: 0-0: castling written with zeros; write O-O (san:castling-zeros, denied) (game \
             written unchanged)\n"
                .to_owned(),
            Some(1)
        )
    );
    // a code allowed out of a denied group: the game is rewritten
    let output = cargo_bin_cmd!("sanfen")
        .args(["fmt", "--deny", "san", "--allow", "san:castling-zeros"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!((output.stderr.as_slice(), output.status.code()), (&b""[..], Some(0)));
    assert!(String::from_utf8(output.stdout).unwrap().contains("4. O-O *"));
}

#[test]
fn a_denied_finding_outside_any_game_makes_the_check_fail() {
    // text after the last game is no game's: an error there (denied) still
    // fails the check, with --quiet too, though no game has an error
    let input = "1. e4 *\n\n{after the last game}\n";
    for quiet in [false, true] {
        let mut cmd = cargo_bin_cmd!("sanfen");
        cmd.args(["check", "--allow", "pgn:missing-tags", "--deny", "pgn:text-between-games"]);
        if quiet {
            cmd.arg("--quiet");
        }
        let output = cmd.arg("-").write_stdin(input).output().unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        let summary = stdout.lines().last().unwrap().rsplit_once(", ").unwrap().0.to_owned();
        assert_eq!(summary, "1 games, 1 moves, 0 games with errors, 1 errors, 0 lint findings, 0 skipped, 31 bytes");
        assert_eq!(output.status.code(), Some(1), "quiet: {quiet}\n{stdout}");
    }
}
