//! Regression tests, one per fault they pin: perft depths that overflowed the
//! stack, a REPL that played on after the game was over and an engine that
//! could not be stopped, explanations that gave a minor reason first or
//! suggested unrelated moves, and castling written with a typographic dash.

use std::fs;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin_cmd;
use sanfen::Position;
use sanfen::engine::{Engine, Limits};

fn sanfen(args: &[&str]) -> assert_cmd::Command {
    let mut command = cargo_bin_cmd!("sanfen");
    command.args(args);
    command
}

/// Runs the REPL on `input` (piped: no prompt, no colour), expecting exit
/// code `code` (1: a line was refused); its standard output.
fn repl(input: &str, code: i32) -> String {
    let output = sanfen(&["repl"]).write_stdin(input).assert().code(code).stderr("").get_output().clone();
    String::from_utf8(output.stdout).unwrap()
}

/// A search line with its time (never asserted) replaced by `T`.
fn without_time(line: &str) -> String {
    regex::Regex::new(r"[0-9]+\.[0-9]{2} s\)$").unwrap().replace(line, "T s)").into_owned()
}

// ---- perft ----------------------------------------------------------------------------------------

#[test]
fn perft_depth_2000_is_a_usage_error_not_a_stack_overflow() {
    let refused = |depth: &str| {
        format!("error: invalid value '{depth}' for '<DEPTH>': {DEPTH_RANGE}\n\nFor more information, try '--help'.\n")
    };
    sanfen(&["perft", "--fen", "7k/8/8/8/8/8/8/K7 w - - 0 1", "2000"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(refused("2000"));
    sanfen(&["perft", "--divide", "33"]).assert().code(2).stdout("").stderr(refused("33"));
    sanfen(&["perft", "99999999999999999999"]).assert().code(2).stdout("").stderr(refused("99999999999999999999"));
    // the deepest depth allowed works: a mated side has no move at any depth
    sanfen(&["perft", "--fen", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", "32"]).assert().code(0).stdout("0\n").stderr("");
}

// ---- the REPL once the game is over -----------------------------------------------------------------

#[test]
fn moves_and_go_after_fivefold_repetition_are_refused_until_undo() {
    let shuffle = "Ra2 Ra7 Ra1 Ra8 ".repeat(4);
    let input = format!("load r6k/8/8/8/8/8/8/R6K w - - 0 1\n{shuffle}\nRa2 Ra7\ngo\nundo\nKg7\nfen\n");
    let out = repl(&input, 1);
    let lines: Vec<&str> = out.lines().collect();
    let tail = [
        "8... Ra8",
        "r6k/8/8/8/8/8/8/R6K w - - 16 9",
        "game over: fivefold repetition, 1/2-1/2 (draw)",
        "the game is over (fivefold repetition, 1/2-1/2): \"Ra2\" \"Ra7\" not played; undo or new to play on",
        "the game is over (fivefold repetition, 1/2-1/2): undo or new to play on",
        "undone: 8... Ra8",
        "7k/r7/8/8/8/8/8/R6K b - - 15 8",
        "8... Kg7",
        "8/r5k1/8/8/8/8/8/R6K w - - 16 9",
        "8/r5k1/8/8/8/8/8/R6K w - - 16 9",
    ];
    assert_eq!(lines[lines.len() - tail.len()..], tail, "{out}");
    assert_eq!(
        lines.iter().filter(|l| l.contains("may claim a draw: threefold repetition (type claim)")).count(),
        8,
        "{out}"
    );
    // a claim after each of plies 8 to 15 (the third and fourth time); none once the game is over
}

#[test]
fn a_move_after_checkmate_is_refused_in_one_line() {
    let out = repl("f3 e5 g4 Qh4#\ne4\ngo 3\nnew\ne4\n", 1);
    let expected = [
        "1. f3",
        "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1",
        "1... e5",
        "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2",
        "2. g4",
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        "2... Qh4#",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "game over: checkmate, 0-1 (Black wins)",
        "the game is over (checkmate, 0-1): \"e4\" not played; undo or new to play on",
        "the game is over (checkmate, 0-1): undo or new to play on",
        "new game",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "1. e4",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    ];
    assert_eq!(out, expected.map(|l| format!("{l}\n")).concat());
}

#[test]
fn seventy_five_moves_and_dead_positions_end_the_game_but_claims_do_not() {
    let out = repl(
        "load r6k/8/8/8/8/8/8/R6K w - - 149 100\nRa2\nRa7\nload 8/8/8/8/8/8/8/k6K w - - 0 1\nKg1\n\
         load r6k/8/8/8/8/8/8/R6K w - - 99 100\nRa2\nRa7\n",
        1,
    );
    let expected = [
        "r6k/8/8/8/8/8/8/R6K w - - 149 100",
        "White may claim a draw: fifty-move rule (type claim)",
        "100. Ra2",
        "r6k/8/8/8/8/8/R7/7K b - - 150 100",
        "game over: seventy-five-move rule, 1/2-1/2 (draw)",
        "the game is over (seventy-five-move rule, 1/2-1/2): \"Ra7\" not played; undo or new to play on",
        "8/8/8/8/8/8/8/k6K w - - 0 1",
        "game over: insufficient material, 1/2-1/2 (draw)",
        "the game is over (insufficient material, 1/2-1/2): \"Kg1\" not played; undo or new to play on",
        "r6k/8/8/8/8/8/8/R6K w - - 99 100",
        "100. Ra2",
        "r6k/8/8/8/8/8/R7/7K b - - 100 100",
        "Black may claim a draw: fifty-move rule (type claim)",
        "100... Ra7",
        "7k/r7/8/8/8/8/R7/7K w - - 101 101",
        "White may claim a draw: fifty-move rule (type claim)",
    ];
    assert_eq!(out, expected.map(|l| format!("{l}\n")).concat());
}

// ---- the engine: a line about the search, limits, a stop flag ------------------------------------------

#[test]
fn go_prints_eval_depth_nodes_and_time_in_one_line() {
    let out = repl("load 4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1\ngo 2\ngo depth 1\ngo 0.2s\ngo 4000s\ngo depth\n", 1);
    let lines: Vec<String> = out.lines().map(without_time).collect();
    assert_eq!(
        lines[..7],
        [
            "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1",
            "engine: Rxd5 (eval +4.70, depth 2, 41 nodes, T s)",
            "1. Rxd5",
            "4k3/8/8/3R4/8/8/8/4K3 b - - 0 1",
            // Black to move: the evaluation stays from White's side
            "engine: Ke7 (eval +4.70, depth 1, 4 nodes, T s)",
            "1... Ke7",
            "8/4k3/8/3R4/8/8/8/4K3 w - - 1 2",
        ],
        "{out}"
    );
    // a time: as deep as it allows (the depth reached depends on the machine)
    let timed =
        regex::Regex::new(r"^engine: K[a-h][1-8] \(eval \+[0-9]+\.[0-9]{2}, depth [0-9]+, [0-9]+ nodes, T s\)$");
    assert!(timed.unwrap().is_match(&lines[7]), "{out}");
    assert!(lines[8].starts_with("2. K"), "{out}");
    assert_eq!(
        lines[10..],
        [
            "usage: go [DEPTH | depth N | SECONDSs]: \"4000s\" is not a time from 0.1s to 3600s",
            "usage: go [DEPTH | depth N | SECONDSs]",
        ]
    );
}

#[test]
fn go_mate_scores_are_from_whites_side() {
    let out = repl("load 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo 2\n", 0);
    let lines: Vec<String> = out.lines().map(without_time).collect();
    assert_eq!(lines[1], "engine: Ra8# (eval #1, depth 2, 56 nodes, T s)");
    let out = repl("load r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1\ngo 2\n", 0);
    let lines: Vec<String> = out.lines().map(without_time).collect();
    assert_eq!(lines[1], "engine: Ra1# (eval #-1, depth 2, 56 nodes, T s)");
}

#[test]
fn a_raised_stop_flag_ends_a_depth_64_search_with_its_best_move_so_far() {
    let pos: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let raiser = {
        let stop = Arc::clone(&stop);
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let start = Instant::now();
    let result = Engine::new().search_with_stop(&pos, Limits::depth(64), &stop).expect("a move");
    let took = start.elapsed();
    raiser.join().unwrap();
    assert!(result.interrupted);
    assert!(result.depth >= 1 && result.depth < 64, "{}", result.depth);
    assert!(pos.is_legal(result.best));
    // polled every 1,024 nodes: stopping takes far less than a deeper iteration would
    assert!(took < Duration::from_secs(20), "{took:?}");
    // raised before the search: iteration 1 still completes, so there is a move
    let result = Engine::new().search_with_stop(&pos, Limits::depth(64), &AtomicBool::new(true)).unwrap();
    assert_eq!((result.depth, result.interrupted), (1, true));
    // never raised: the limits end the search, not the flag
    let result = Engine::new().search_with_stop(&pos, Limits::depth(2), &AtomicBool::new(false)).unwrap();
    assert_eq!((result.depth, result.interrupted), (2, false));
}

// ---- explanations -------------------------------------------------------------------------------

#[test]
fn nxg5_with_no_knight_reaching_g5_says_so_first() {
    sanfen(&["resolve", "Nxg5"])
        .assert()
        .code(1)
        .stdout(
            "input: Nxg5\nreading: Nxg5\ncandidate b1: cannot reach the destination\n\
             candidate g1: cannot reach the destination\nillegal: no knight can move to g5\n",
        )
        .stderr("");
    sanfen(&["apply", "e4", "e5", "Nxg5"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("sanfen: move 3 (Nxg5): illegal: no knight can move to g5\n");
}

#[test]
fn a_promotion_no_pawn_can_make_suggests_nothing_unrelated() {
    let out = repl("e8=Q\nload 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\ne8=Q\n", 1);
    let expected = [
        "illegal move \"e8=Q\": no pawn can move to e8",
        "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        "illegal move \"e8=Q\": no pawn can move to e8",
        "did you mean b8=Q+, b8=R+, b8=B?",
    ];
    assert_eq!(out, expected.map(|l| format!("{l}\n")).concat());
}

#[test]
fn zz9_is_diagnosed_as_a_whole_token_not_as_the_null_move_z0() {
    let expected = "found \"Z\", expected a move such as e4, Nf3, exd5, e8=Q or O-O";
    sanfen(&["san", "Zz9"]).assert().code(1).stdout(format!("error[san:syntax] at 0..1: {expected}\n")).stderr("");
    sanfen(&["resolve", "Zz9"]).assert().code(1).stdout(format!("input: Zz9\ninvalid move at 0..1: {expected}\n"));
    let out = repl("Zz9\n", 1);
    assert_eq!(out, format!("syntax error in \"Zz9\": {expected}\n  Zz9\n  ^\n"));
}

#[test]
fn an_illegal_pawn_move_is_one_sentence_not_a_line_per_pawn() {
    let out = repl("e5\nload 4k3/8/8/b7/8/8/3P1P2/4K3 w - - 0 1\nd4\nload R7/8/7k/8/8/8/4r3/R3K3 w - - 0 1\nRa4\n", 1);
    let expected = [
        "illegal move \"e5\": no pawn can move to e5",
        "did you mean e3, e4?",
        "4k3/8/8/b7/8/8/3P1P2/4K3 w - - 0 1",
        "illegal move \"d4\": no pawn can move to d4: the pawn on d2 is pinned by the piece on a5",
        "R7/8/7k/8/8/8/4r3/R3K3 w - - 0 1",
        "illegal move \"Ra4\": no rook can move to a4: the rooks on a1 and a8 would leave the king in check from e2",
    ];
    assert_eq!(out, expected.map(|l| format!("{l}\n")).concat());
}

#[test]
fn a_move_after_checkmate_says_the_game_is_over() {
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    sanfen(&["resolve", "--fen", mated, "e4"])
        .assert()
        .code(1)
        .stdout("input: e4\nreading: e4\nillegal: the game is over: 0-1 by checkmate\n")
        .stderr("");
    sanfen(&["apply", "f3", "e5", "g4", "Qh4#", "e4"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("sanfen: move 5 (e4): illegal: the game is over: 0-1 by checkmate\n");
    sanfen(&["resolve", "--fen", "k7/2Q5/8/8/8/8/8/7K b - - 1 1", "Ka7"])
        .assert()
        .code(1)
        .stdout("input: Ka7\nreading: Ka7\nillegal: the game is over: 1/2-1/2 by stalemate\n");
}

// ---- castling with a typographic dash -------------------------------------------------------------

#[test]
fn castling_with_a_typographic_dash_is_read_with_a_lint_and_refused_when_strict() {
    let dashes = ["O\u{2013}O", "O\u{2011}O", "0\u{2014}0", "O\u{2010}O", "O\u{2212}O"];
    for dash in dashes {
        let len = dash.len();
        sanfen(&["san", dash])
            .assert()
            .code(0)
            .stdout(format!(
                "O-O castles king-side; warning[san:castling-dash] at 0..{len}: \
                 castling written with a dash other than `-`; SAN writes O-O\n"
            ))
            .stderr("");
        sanfen(&["san", "--strict", dash])
            .assert()
            .code(1)
            .stdout(format!(
                "error[san:syntax] at 0..{len}: found \"{dash}\", expected `O-O` \
                 (strict SAN writes castling with the capital letter O and the hyphen `-`)\n"
            ))
            .stderr("");
    }
    let moves = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O\u{2013}O"];
    let castled = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4\n";
    sanfen(&[&["apply"][..], &moves[..]].concat()).assert().code(0).stdout(castled).stderr(
        "sanfen: warning: move 7 (O\u{2013}O): castling written with a dash other than `-`; SAN writes O-O \
         (san:castling-dash)\n",
    );
    sanfen(&[&["apply", "--strict"][..], &moves[..]].concat()).assert().code(1).stdout("").stderr(
        "sanfen: move 7 (O\u{2013}O): not canonical: castling written with a dash other than `-`; SAN writes O-O \
         (san:castling-dash)\n",
    );
}

// ---- control characters in names and typed moves ---------------------------------------------

/// A file's name may hold any byte but `/` and NUL (a glob in a folder of
/// downloads), and a move read from standard input any text: fmt, split,
/// the errors of every command, apply and resolve show their control
/// characters escaped, as check does. Regression: they reached the
/// terminal as they were (`\e]0;...\a` sets a terminal's title).
#[test]
fn control_characters_in_file_names_and_moves_are_shown_escaped() {
    let dir = crate::scratch::Dir::new("control-names");
    let evil = dir.file("evil\u{1b}]0;owned\u{7}.pgn", b"1. e4 e5 *\n\n1. e4 e5 2. Ke3 *\n");
    let shown = evil.replace('\u{1b}', "\\x1b").replace('\u{7}', "\\x07");
    let bad = "illegal: no king can move to e3; did you mean Ke2?";
    sanfen(&["fmt", "--check", &evil])
        .assert()
        .code(1)
        .stdout(format!("would reformat {shown}\n"))
        .stderr(format!("{shown}:3:13: game 2: 2. Ke3: {bad} (game written unchanged)\n"));
    sanfen(&["fmt", "--in-place", &format!("{evil}.gz")])
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!("sanfen: fmt --in-place cannot rewrite a compressed file: {shown}.gz\n"));
    sanfen(&["export", "-o", &format!("{evil}.txt"), &evil]).assert().code(2).stderr(format!(
        "sanfen: cannot tell the format of {shown}.txt by its extension: give --format parquet, csv or jsonl\n"
    ));
    sanfen(&["split", "--parts", "1", "-o", &dir.path("parts"), &evil])
        .assert()
        .code(0)
        .stdout(format!("{}: 30 bytes, 0..30\n", dir.path("parts/evil\\x1b]0;owned\\x07-001.pgn")));
    let missing = dir.path("gone\u{1b}[2J.pgn");
    sanfen(&["check", &missing])
        .assert()
        .code(2)
        .stderr(format!("sanfen: {}: No such file or directory (os error 2)\n", missing.replace('\u{1b}', "\\x1b")));
    sanfen(&["apply"]).write_stdin("e4\n\u{1b}[31mzz\n").assert().code(1).stderr(
        "sanfen: move 2 (\\x1b[31mzz): invalid move at 0..1: found \"\\u{1b}\", expected a move such as e4, Nf3, \
         exd5, e8=Q or O-O\n",
    );
    let output = sanfen(&["resolve", "\u{1b}[31mNf3"]).assert().code(1).get_output().clone();
    assert!(String::from_utf8(output.stdout).unwrap().starts_with("input: \\x1b[31mNf3\n"));
}

/// A file name that is not UTF-8 (Latin-1 `caf\xe9.pgn` from an old
/// archive) is shown with that byte as `\xe9` in every message and
/// table, as a file's own bytes are shown; and `split` names its parts
/// with the name's own bytes. Regression: every command showed U+FFFD, so
/// that `caf\xe9.pgn` and `caf\xe8.pgn` looked the same, and `split` wrote
/// `caf\u{fffd}-001.pgn`, a name the user never gave.
#[test]
fn a_file_name_that_is_not_utf8_is_shown_by_its_bytes() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let dir = crate::scratch::Dir::new("latin1-names");
    let name = OsStr::from_bytes(b"caf\xe9.pgn");
    fs::write(dir.0.join(name), "[Event \"A\"]\n\n1.e4 e5 2. Ke3 *\n").unwrap();
    let shown = "caf\\xe9.pgn";
    let run = |args: &[&str]| {
        let mut cmd = cargo_bin_cmd!("sanfen");
        cmd.current_dir(&dir.0).args(args).arg(name).timeout(Duration::from_secs(60));
        cmd.assert()
    };
    let bad = "illegal: no king can move to e3; did you mean Ke2?";
    let checked = run(&["check"]).code(1).get_output().stdout.clone();
    assert_eq!(
        String::from_utf8(checked).unwrap().lines().nth(1),
        Some(format!("{shown}:3:12: game 1 (A), 2. Ke3: error[san:illegal]: {bad}").as_str())
    );
    let json = run(&["check", "--json"]).code(1).get_output().stdout.clone();
    assert!(String::from_utf8(json).unwrap().contains(r#""file":"caf\\xe9.pgn""#));
    run(&["fmt", "--check"])
        .code(1)
        .stdout("")
        .stderr(format!("{shown}:3:12: game 1: 2. Ke3: {bad} (game written unchanged)\n"));
    let csv = run(&["export", "--format", "csv"]).code(0).get_output().stdout.clone();
    assert_eq!(String::from_utf8(csv).unwrap().lines().nth(1).unwrap().split(',').next(), Some(shown));
    run(&["split", "--parts", "1"]).code(0).stdout("caf\\xe9-001.pgn: 30 bytes, 0..30\n");
    assert_eq!(
        fs::read(dir.0.join(OsStr::from_bytes(b"caf\xe9-001.pgn"))).unwrap(),
        fs::read(dir.0.join(name)).unwrap()
    );
    let repl = run(&["repl"]).code(0).get_output().stdout.clone();
    assert_eq!(
        String::from_utf8(repl).unwrap().lines().next(),
        Some(format!("loaded game 1 of {shown}: ? - ?, 2 moves, *").as_str())
    );
    fs::remove_file(dir.0.join(name)).unwrap();
    run(&["check"]).code(2).stderr(format!("sanfen: {shown}: No such file or directory (os error 2)\n"));
}

/// A PGN from a Windows program (ChessBase, old archives) is Windows-1252:
/// its `93` and `94` are typographic quotes, `96` a dash and `80` the euro
/// sign, in tags, comments and tokens alike, and so they are read (the
/// other bytes as Latin-1 reads them). Regression: they were read as
/// Latin-1's C1 control codes, U+0093 and U+0094 in every table and
/// message (`\u{93}Open\u{94}` on a terminal), and a token's were U+FFFD.
#[test]
fn a_windows_1252_pgn_is_read_with_its_quotes_and_dashes() {
    let pgn: &[u8] = b"[Event \"\x93Caf\xe9\x94 Open \x96 \x8010\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n\
                       1. e4 {\x93best\x94 \x85} 1... e5 2. \x93Nf3\x94 *\n";
    let event = "“Café” Open – €10";
    let game = format!("game 1 (A - B, {event})");
    let output = sanfen(&["check"]).write_stdin(pgn).assert().code(1).get_output().stdout.clone();
    let lines: Vec<String> = String::from_utf8(output).unwrap().lines().map(str::to_owned).collect();
    assert_eq!(
        lines[..2],
        [
            format!("<stdin>:1:1: {game}: warning[pgn:missing-tags]: missing Seven Tag Roster tags: Site, Date, Round"),
            format!(
                "<stdin>:6:29: {game}, 2. “Nf3”: error[san:syntax]: not a move: invalid move at 0..1: found \"“\", \
                 expected a move such as e4, Nf3, exd5, e8=Q or O-O"
            ),
        ]
    );
    let json = sanfen(&["check", "--json"]).write_stdin(pgn).assert().code(1).get_output().stdout.clone();
    let first: serde_json::Value = serde_json::from_slice(json.split(|&b| b == b'\n').next().unwrap()).unwrap();
    assert_eq!((&first["event"], &first["errors"][0]["token"]), (&event.into(), &"“Nf3”".into()));
    let export = |table: &str| {
        let output = sanfen(&["export", "--format", "jsonl", "--table", table]).write_stdin(pgn).assert().code(0);
        let rows = output.get_output().stdout.split(|&b| b == b'\n').filter(|line| !line.is_empty());
        rows.map(|row| serde_json::from_slice::<serde_json::Value>(row).unwrap()).collect::<Vec<_>>()
    };
    let games = export("games");
    assert_eq!((&games[0]["Event"], &games[0]["errors"]), (&event.into(), &1.into()));
    let moves = export("moves");
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0]["comment"], "“best” …");
}

/// A FEN's control character is named escaped in the message itself (the
/// library's text), and every command's message is escaped as it is
/// written. Regression: `fen check` wrote the placement's ESC raw in
/// "rank 7 has `...`".
#[test]
fn a_fen_message_names_a_control_character_escaped() {
    let fen = "rnbqkbnr/ppp\u{1b}pppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let message = "invalid placement field: found \"ppp\\u{1b}pppp\", expected piece letters from PNBRQKpnbrqk and \
                   digits 1-8 (rank 7 has `\\u{1b}`)";
    sanfen(&["fen", "check", fen]).assert().code(1).stdout(format!("error[fen:syntax] at 9..17: {message}\ninvalid\n"));
    sanfen(&["fen", "normalize"])
        .write_stdin(format!("{fen}\n"))
        .assert()
        .code(1)
        .stderr(format!("sanfen: input 1: {message}\n"));
}

/// The bidirectional controls (U+202A to U+202E, U+2066 to U+2069) are
/// invisible and reorder what follows them on a line ("Trojan Source"): a
/// name holding U+202E shows the rest of the line reversed. Every report
/// shows them escaped, as it shows control characters; JSON escapes them
/// (the same value read back). A right-to-left name and its marks
/// (U+200F) are kept as they are.
#[test]
fn bidirectional_controls_are_shown_escaped() {
    let input = "[White \"Ana\u{202e}1-0\"]\n[Black \"\u{200f}שלום\"]\n\n1. e4 e5 2. Nf9\u{2066} *\n";
    let output = sanfen(&["check", "-"]).write_stdin(input).assert().code(1).get_output().clone();
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        text.lines().nth(1).unwrap(),
        "<stdin>:4:13: game 1 (Ana\\u{202e}1-0 - \u{200f}שלום), 2. Nf9\\u{2066}: error[san:syntax]: not a move: invalid move \
         at 2..3: found \"9\", expected a file a-h, a rank 1-8 or `x`"
    );
    let output = sanfen(&["check", "--json", "-"]).write_stdin(input).assert().code(1).get_output().clone();
    let game = String::from_utf8(output.stdout).unwrap().lines().next().unwrap().to_owned();
    assert!(game.contains(r#""white":"Ana\u202e1-0""#), "{game}");
    assert!(game.contains(r#""token":"Nf9\u2066""#), "{game}");
    let value: serde_json::Value = serde_json::from_str(&game).unwrap();
    assert_eq!((value["white"].as_str(), value["black"].as_str()), (Some("Ana\u{202e}1-0"), Some("\u{200f}שלום")));
    let output = sanfen(&["export", "--format", "jsonl", "--table", "games", "-"])
        .write_stdin(input)
        .assert()
        .code(0)
        .get_output()
        .clone();
    let row = String::from_utf8(output.stdout).unwrap();
    assert!(row.contains(r#""White":"Ana\u202e1-0","Black":"‏שלום""#), "{row}");
    let value: serde_json::Value = serde_json::from_str(row.trim_end()).unwrap();
    assert_eq!(value["White"], "Ana\u{202e}1-0");
    let fen = "rnbqkbnr/ppp\u{202e}pppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let output = sanfen(&["fen", "check", fen]).assert().code(1).get_output().clone();
    assert!(String::from_utf8(output.stdout).unwrap().contains("(rank 7 has `\\u{202e}`)"));
}

/// What perft's DEPTH is, as a usage error says.
const DEPTH_RANGE: &str = "expected a depth from 0 to 32 (a deeper tree could not be counted)";

/// clap shows an argument's value in its errors as typed, dropping ESC but
/// not the C1 controls (U+009B is a CSI to many terminals) nor the
/// bidirectional ones: those are shown escaped.
#[test]
fn an_argument_s_controls_are_escaped_in_usage_errors() {
    sanfen(&["perft", "1\u{202e}"]).assert().code(2).stdout("").stderr(format!(
        "error: invalid value '1\\u{{202e}}' for '<DEPTH>': {DEPTH_RANGE}\n\nFor more information, try '--help'.\n"
    ));
    let output = sanfen(&["moves", "--order", "\u{9b}2J"]).assert().code(2).get_output().clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with("error: invalid value '\\u{9b}2J' for '--order <ORDER>'\n"), "{stderr}");
    // without one, the value as typed
    sanfen(&["perft", "1x"]).assert().code(2).stderr(format!(
        "error: invalid value '1x' for '<DEPTH>': {DEPTH_RANGE}\n\nFor more information, try '--help'.\n"
    ));
}

#[test]
fn a_line_of_standard_input_over_1_mib_stops_the_reading_with_an_error() {
    // a file that is no list of FENs or moves (no newline in megabytes):
    // read whole as one line it took 3.5 times its size, without end on an
    // endless one
    let refused = "sanfen: cannot read standard input: line 2 is longer than 1048576 bytes: not read, nor anything \
                   after it (one input a line)\n";
    let input = |first: &str| {
        let mut input = format!("{first}\n").into_bytes();
        input.extend(vec![b'a'; 2 << 20]);
        input.extend(format!("\n{first}\n").as_bytes());
        input
    };
    let fen = "8/8/8/8/8/8/8/K1k5 w - - 0 1";
    sanfen(&["fen", "check"]).write_stdin(input(fen)).assert().code(2).stdout("ok\n").stderr(refused);
    sanfen(&["fen", "normalize"]).write_stdin(input(fen)).assert().code(2).stdout(format!("{fen}\n")).stderr(refused);
    sanfen(&["apply"]).write_stdin(input("e4")).assert().code(2).stdout("").stderr(refused);
    // the answer to the line before it written (`san` kept it in its buffer)
    sanfen(&["san"]).write_stdin(input("e4")).assert().code(2).stdout("e4 pawn to e4\n").stderr(refused);
    let output = sanfen(&["resolve"]).write_stdin(input("e4")).assert().code(2).get_output().clone();
    assert!(
        String::from_utf8(output.stdout)
            .unwrap()
            .ends_with("move: e4 (e2e4)\nfen after: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n")
    );
}

#[test]
fn apply_reads_at_most_1_mib_of_moves() {
    // knights out and back: 4 moves in 16 bytes, legal without end
    let shuffle = |bytes: usize| "Nf3\nNf6\nNg1\nNg8\n".repeat(bytes / 16);
    // 260,000 moves: played (held, each, for the JSON report)
    sanfen(&["apply"])
        .write_stdin(shuffle(1_040_000))
        .assert()
        .code(0)
        .stdout("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 260000 130001\n");
    // more: no game's moves (an endless stream took memory without bound,
    // 480 MB for 2 million moves; a PGN file was read whole to fail at its
    // first tag)
    sanfen(&["apply"])
        .write_stdin(shuffle(2 << 20))
        .assert()
        .code(2)
        .stdout("")
        .stderr("sanfen: more than 1048576 bytes of moves, more than a game holds: none played, nothing more read\n");
}

// ---- an input that is also the output --------------------------------------------------------------

/// Runs sanfen with `args`, standard output appended to `output` (as the
/// shell's `>>` does) and standard input from `input`; its exit code and
/// standard error.
fn run_into(args: &[&str], output: &std::path::Path, input: Option<&std::path::Path>) -> (Option<i32>, String) {
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin!("sanfen"));
    command.args(args).stdout(fs::File::options().append(true).open(output).unwrap());
    command.stdin(match input {
        Some(path) => std::process::Stdio::from(fs::File::open(path).unwrap()),
        None => std::process::Stdio::null(),
    });
    let ran = command.output().unwrap();
    (ran.status.code(), String::from_utf8(ran.stderr).unwrap())
}

#[test]
fn an_input_that_is_standard_outputs_file_is_refused_not_read_without_end() {
    let dir = std::env::temp_dir().join(format!("sanfen-input-is-output-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.pgn");
    let name = path.display().to_string();
    // some 2.4 MB: `fmt` read what it appended, and wrote without end
    let games = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n".repeat(70_000);
    let not_read = format!(
        "sanfen: {name} is also standard output: not read, as it would hold what is written to it (redirect the \
         output to another file)\n"
    );
    for args in [
        &["check", &name][..],
        &["fmt", &name],
        &["fmt", "--check", &name],
        &["export", "--format", "csv", &name],
        &["split", "--ranges", "2", &name],
        &["check", "other.pgn", &name],
    ] {
        fs::write(&path, &games).unwrap();
        assert_eq!(run_into(args, &path, None), (Some(2), not_read.clone()), "{args:?}");
        assert!(fs::read(&path).unwrap() == games.as_bytes(), "{args:?}");
    }
    // the same file as standard input
    let not_read = "sanfen: standard input is also standard output: not read, as it would hold what is written to it \
                    (redirect the output to another file)\n";
    let stdin_readers =
        [&["check"][..], &["fmt", "-"], &["export", "--format", "jsonl"], &["fen", "check"], &["apply"], &["repl"]];
    for args in stdin_readers {
        fs::write(&path, &games).unwrap();
        assert_eq!(run_into(args, &path, Some(&path)), (Some(2), not_read.to_owned()), "{args:?}");
        assert!(fs::read(&path).unwrap() == games.as_bytes(), "{args:?}");
    }
    // `>`: the shell emptied it first, which is said
    fs::write(&path, "").unwrap();
    assert_eq!(
        run_into(&["fmt", &name], &path, None),
        (
            Some(2),
            format!(
                "sanfen: {name} is also standard output, which the shell emptied (>) before sanfen started: nothing \
                 to read (redirect the output to another file)\n"
            )
        )
    );
    // another file, and a device, are outputs as ever
    let other = dir.join("report.txt");
    fs::write(&path, &games).unwrap();
    fs::write(&other, "").unwrap();
    assert_eq!(run_into(&["check", "--quiet", &name], &other, None).0, Some(0));
    assert!(fs::read_to_string(&other).unwrap().starts_with("70000 games, 280000 moves, "));
    assert_eq!(run_into(&["check", "--quiet", &name], std::path::Path::new("/dev/null"), None).0, Some(0));
    fs::remove_dir_all(&dir).unwrap();
}

// ---- a tag given twice -------------------------------------------------------------------------

/// Two FEN tags, and the move mates from the second one's position only.
const TWO_FENS: &str = "[Event \"A\"]\n[Foo \"x\"]\n[SetUp \"1\"]\n[FEN \"7k/8/6K1/8/8/8/8/7R w - - 0 1\"]\n\
                        [Bar \"1\"]\n[FEN \"7k/8/6K1/8/8/8/8/R7 w - - 0 1\"]\n[Foo \"y\"]\n[Result \"1/2-1/2\"]\n\
                        [Result \"1-0\"]\n\n1. Ra8# 1-0\n";

#[test]
fn a_tag_given_twice_is_reported_and_read_as_its_last_value_by_every_command() {
    let out = sanfen(&["check", "--allow", "pgn:missing-tags", "-"]).write_stdin(TWO_FENS).assert().code(0);
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    let again = "warning[pgn:duplicate-tag]: tag given again";
    assert_eq!(
        lines[..3],
        [
            format!("<stdin>:6:1: game 1 (A), FEN: {again} (first on line 4): this value replaces the first's"),
            format!("<stdin>:7:1: game 1 (A), Foo: {again} (first on line 2): this value replaces the first's"),
            format!("<stdin>:9:1: game 1 (A), Result: {again} (first on line 8): this value replaces the first's"),
        ]
    );
    assert!(lines[3].starts_with("1 games, 1 moves, 0 games with errors, 0 errors, 3 lint findings"), "{stdout}");
    // fmt plays the moves from the same FEN as check (the last), and keeps every tag
    let out = sanfen(&["fmt", "-"]).write_stdin(TWO_FENS).assert().code(0);
    assert_eq!(
        String::from_utf8(out.get_output().stdout.clone()).unwrap(),
        "[Event \"A\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n\
         [Result \"1/2-1/2\"]\n[Foo \"x\"]\n[SetUp \"1\"]\n[FEN \"7k/8/6K1/8/8/8/8/7R w - - 0 1\"]\n[Bar \"1\"]\n\
         [FEN \"7k/8/6K1/8/8/8/8/R7 w - - 0 1\"]\n[Foo \"y\"]\n[Result \"1-0\"]\n\n1. Ra8# 1-0\n"
    );
    // the games table: each name once (a map's keys are unique), with its last value
    let out = sanfen(&["export", "-"]).write_stdin(TWO_FENS).assert().code(0);
    assert_eq!(
        String::from_utf8(out.get_output().stdout.clone()).unwrap(),
        "{\"file\":\"<stdin>\",\"game\":1,\"line\":1,\"byte_offset\":0,\"Event\":\"A\",\"Site\":null,\"Date\":null,\
         \"Round\":null,\"White\":null,\"Black\":null,\"Result\":\"1-0\",\"other_tags\":{\"Foo\":\"y\",\"SetUp\":\"1\",\
         \"FEN\":\"7k/8/6K1/8/8/8/8/R7 w - - 0 1\",\"Bar\":\"1\"},\"movetext_result\":\"1-0\",\"termination\":\
         \"checkmate\",\"plies\":1,\"errors\":0,\"first_error\":null,\"eco\":null,\"opening\":null}\n"
    );
    // the REPL loads the game with the same tags
    let dir = crate::scratch::Dir::new("two-fens");
    let path = dir.file("two.pgn", TWO_FENS.as_bytes());
    let shown = repl(&format!("load {path}\ntag Foo\ntag Result\nfen\n"), 0);
    assert!(shown.contains("[Foo \"y\"]\n"), "{shown}");
    assert!(shown.contains("[Result \"1-0\"]\n"), "{shown}");
    assert!(shown.contains("R6k/8/6K1/8/8/8/8/8 b - - 1 1"), "{shown}");
}

#[test]
fn many_tags_of_different_names_are_no_duplicates() {
    // more names than the hash has bits (each new name is then compared with every other), and names that
    // differ only in their order of letters
    let mut pgn = String::from("[Event \"A\"]\n");
    for i in 0..200 {
        pgn.push_str(&format!("[T{i} \"v\"]\n"));
    }
    pgn.push_str("[Ab \"1\"]\n[Ba \"2\"]\n[AAb \"3\"]\n\n1. e4 *\n");
    let out = sanfen(&["check", "--allow", "pgn:missing-tags", "--quiet", "-"]).write_stdin(pgn).assert().code(0);
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.starts_with("1 games, 1 moves, 0 games with errors, 0 errors, 0 lint findings"), "{stdout}");
}

// ---- Comments among the tags ---------------------------------------------------------------------

#[test]
fn a_semicolon_comment_among_the_tags_keeps_one_game_in_every_command_whatever_j() {
    comments_among_the_tags_keep_one_game("; ", "", "tag-comments");
}

#[test]
fn a_brace_comment_among_the_tags_keeps_one_game_in_every_command_whatever_j() {
    comments_among_the_tags_keep_one_game("{", "}", "brace-tag-comments");
}

/// Comments among the tags (each `{open}text{close}`), once read as two
/// games (the tags up to the comment, the comment as their movetext; then
/// the rest). Some 3.9 MB: chunks of 1 MiB, cut between games whose tags
/// hold comments.
fn comments_among_the_tags_keep_one_game(open: &str, close: &str, name: &str) {
    let game = |i: usize| {
        format!(
            "[Event \"g{i}\"]\n{open}a note on game {i}{close}\n[Site \"s\"] {open}and another{close}\n\
             [Result \"*\"]\n\n1. e4 e5 *\n\n"
        )
    };
    let games = 60_000;
    let pgn: String = (0..games).map(game).collect();
    let dir = crate::scratch::Dir::new(name);
    let path = dir.file("games.pgn", pgn.as_bytes());
    let stdout = |args: &[&str]| {
        let out = sanfen(args).assert().code(0).stderr("");
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let allow = ["--allow", "pgn:missing-tags"];
    for jobs in ["1", "2"] {
        let summary = stdout(&[&["check", "--quiet", "-j", jobs][..], &allow, &[&path]].concat());
        assert!(
            summary.starts_with("60000 games, 120000 moves, 0 games with errors, 0 errors, 0 lint findings"),
            "{summary}"
        );
        // fmt keeps each comment after its tag
        let formatted = stdout(&["fmt", "-j", jobs, &path]);
        let expected: String = (0..games)
            .map(|i| {
                format!(
                    "[Event \"g{i}\"]\n{open}a note on game {i}{close}\n[Site \"s\"]\n{open}and another{close}\n\
                     [Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 *\n"
                )
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert!(formatted == expected, "-j {jobs}: {}", &formatted[..formatted.len().min(600)]);
        // one row a game
        let rows = stdout(&["export", "--format", "csv", "--no-progress", "-j", jobs, &path]);
        assert_eq!(rows.lines().count(), games + 1, "-j {jobs}");
        assert!(rows.lines().nth(60_000).unwrap().contains(",g59999,s,"), "-j {jobs}");
    }
    // split: the parts hold the games whole
    let ranges = stdout(&["split", "--ranges", "4", &path]);
    let starts: Vec<usize> =
        ranges.lines().map(|line| line.split_whitespace().next().unwrap().parse().unwrap()).collect();
    assert_eq!(starts.len(), 4, "{ranges}");
    for (k, &start) in starts.iter().enumerate() {
        assert!(pgn[start..].starts_with("[Event \"g"), "{ranges}");
        assert!(k == 0 || start > starts[k - 1], "{ranges}");
    }
}
