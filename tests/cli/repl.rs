//! The REPL driven through piped standard input: no prompt, no colour, one
//! response per line, exact output.

use std::path::PathBuf;
use std::process::Command;

use assert_cmd::cargo::cargo_bin_cmd;

const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
const AFTER_E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

/// Runs `sanfen ARGS` with `input` on standard input, every line answered
/// (exit code 0); its standard output.
fn repl(args: &[&str], input: &str) -> String {
    repl_exiting(args, input, 0)
}

/// Runs `sanfen ARGS` with `input` on standard input, expecting exit code
/// `code` (1: a line was refused; 2: a file could not be saved); its
/// standard output.
fn repl_exiting(args: &[&str], input: impl Into<Vec<u8>>, code: i32) -> String {
    let output = cargo_bin_cmd!("sanfen")
        .args(args)
        .write_stdin(input.into())
        .assert()
        .code(code)
        .stderr("")
        .get_output()
        .clone();
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn transcript_with_commands() {
    let input = "moves e2\ne4 e5\nfen\nundo\nfen\nredo\nhistory\nquit\nfen\n";
    let expected = [
        "white pawn on e2 moves to: e3 e4",
        "8  r  n  b  q  k  b  n  r  8",
        "7  p  p  p  p  p  p  p  p  7",
        "6  .  .  .  .  .  .  .  .  6",
        "5  .  .  .  .  .  .  .  .  5",
        "4  .  .  .  .  *  .  .  .  4",
        "3  .  .  .  .  *  .  .  .  3",
        "2  P  P  P  P [P] P  P  P  2",
        "1  R  N  B  Q  K  B  N  R  1",
        "   a  b  c  d  e  f  g  h",
        "White to move",
        "1. e4",
        AFTER_E4,
        "1... e5",
        AFTER_E4_E5,
        AFTER_E4_E5,
        "undone: 1... e5",
        AFTER_E4,
        AFTER_E4,
        "redone: 1... e5",
        AFTER_E4_E5,
        "1. e4 e5",
    ];
    // nothing after `quit`
    assert_eq!(repl(&["repl", "--ascii"], input), expected.map(|l| format!("{l}\n")).concat());
}

#[test]
fn bare_sanfen_reads_standard_input_without_prompt_or_colour() {
    assert_eq!(repl(&[], "e4\ne5\nfen\n"), format!("1. e4\n{AFTER_E4}\n1... e5\n{AFTER_E4_E5}\n{AFTER_E4_E5}\n"));
    assert_eq!(repl(&[], ""), "");
    // a board asked for is drawn without escape codes even with colour allowed,
    // the side to move under it
    let out = repl(&["repl", "--fen", AFTER_E4], "board\n");
    assert!(!out.contains('\x1b'), "{out}");
    assert_eq!(out.lines().count(), 10);
    assert!(out.ends_with("\n   a  b  c  d  e  f  g  h\nBlack to move\n"), "{out}");
}

#[test]
fn the_board_without_colour_marks_the_last_move_and_the_check_in_text() {
    let expected = [
        "1. e4",
        AFTER_E4,
        "1... f5",
        "rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "2. Qh5+",
        "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2",
        "8  r  n  b  q +k+ b  n  r  8",
        "7  p  p  p  p  p  .  p  p  7",
        "6  .  .  .  .  .  .  .  .  6",
        "5  .  .  .  .  .  p  . <Q> 5",
        "4  .  .  .  .  P  .  .  .  4",
        "3  .  .  .  .  .  .  .  .  3",
        "2  P  P  P  P  .  P  P  P  2",
        "1  R  N  B <.> K  B  N  R  1",
        "   a  b  c  d  e  f  g  h",
        "last move: 2. Qh5+, Black to move, check",
    ];
    assert_eq!(repl(&["repl", "--ascii"], "e4 f5 Qh5+\nboard\n"), expected.map(|l| format!("{l}\n")).concat());
}

#[test]
fn chess960_position_by_number() {
    let expected = [
        "Chess960 position 0: bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
        "8  b  b  q  n  n  r  k  r  8",
        "7  p  p  p  p  p  p  p  p  7",
        "6  .  .  .  .  .  .  .  .  6",
        "5  .  .  .  .  .  .  .  .  5",
        "4  .  .  .  .  .  .  .  .  4",
        "3  .  .  .  .  .  .  .  .  3",
        "2  P  P  P  P  P  P  P  P  2",
        "1  B  B  Q  N  N  R  K  R  1",
        "   a  b  c  d  e  f  g  h",
        "White to move",
        "1. Ne3",
        "bbqnnrkr/pppppppp/8/8/8/4N3/PPPPPPPP/BBQ1NRKR b KQkq - 1 1",
        "new game",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
    ];
    assert_eq!(
        repl(&["repl", "--ascii", "--chess960", "0"], "board\nNe3\nnew\n"),
        expected.map(|l| format!("{l}\n")).concat()
    );
    // 518 is the initial position, played with Chess960 castling
    let out = repl(&["repl", "--chess960", "518"], "pgn\n");
    assert!(
        out.starts_with("Chess960 position 518: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"),
        "{out}"
    );
    assert!(out.contains("\n[Variant \"Chess960\"]\n"), "{out}");
}

#[test]
fn chess960_without_a_number_picks_one_and_names_it() {
    let out = repl(&["repl", "--chess960"], "fen\n");
    let (first, fen) = out.split_once('\n').unwrap();
    let (number, first_fen) = first.strip_prefix("Chess960 position ").unwrap().split_once(": ").unwrap();
    let position = sanfen::Position::chess960(number.parse().unwrap()).unwrap();
    assert_eq!(first_fen, position.to_string());
    assert_eq!(fen, format!("{position}\n"));
}

#[test]
fn chess960_numbers_outside_0_to_959_are_usage_errors() {
    for arg in ["960", "65536", "x", ""] {
        cargo_bin_cmd!("sanfen").args(["repl", "--chess960", arg]).write_stdin("").assert().code(2).stdout("").stderr(
            format!(
                "error: invalid value '{arg}' for '--chess960 [<N>]': Chess960 positions are numbered 0-959\n\n\
                 For more information, try '--help'.\n"
            ),
        );
    }
    cargo_bin_cmd!("sanfen")
        .args(["repl", "--chess960", "5", "--fen", AFTER_E4])
        .write_stdin("")
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "sanfen: --chess960 5 and --fen both name the start position; give --fen with --chess960 alone to \
             read its castling as Chess960\n",
        );
}

/// The king on d1 and d8, rooks on a and h: castling that only Chess960 has.
const KING_ON_D: &str = "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w HAha - 0 1";

#[test]
fn chess960_castling_read_from_fen_with_the_option() {
    let expected = [
        "1. b3",
        "rnbkqbnr/pppppppp/8/8/8/1P6/P1PPPPPP/RNBKQBNR b KQkq - 0 1",
        "1... b6",
        "rnbkqbnr/p1pppppp/1p6/8/8/1P6/P1PPPPPP/RNBKQBNR w KQkq - 0 2",
        "2. Bb2",
        "rnbkqbnr/p1pppppp/1p6/8/8/1P6/PBPPPPPP/RN1KQBNR b KQkq - 1 2",
        "2... Bb7",
        "rn1kqbnr/pbpppppp/1p6/8/8/1P6/PBPPPPPP/RN1KQBNR w KQkq - 2 3",
        "3. Nc3",
        "rn1kqbnr/pbpppppp/1p6/8/8/1PN5/PBPPPPPP/R2KQBNR b KQkq - 3 3",
        "3... Nc6",
        "r2kqbnr/pbpppppp/1pn5/8/8/1PN5/PBPPPPPP/R2KQBNR w KQkq - 4 4",
        "4. O-O-O",
        "r2kqbnr/pbpppppp/1pn5/8/8/1PN5/PBPPPPPP/2KRQBNR b kq - 5 4",
        "8  r  .  .  k  q  b  n  r  8",
        "7  p  b  p  p  p  p  p  p  7",
        "6  .  p  n  .  .  .  .  .  6",
        "5  .  .  .  .  .  .  .  .  5",
        "4  .  .  .  .  .  .  .  .  4",
        "3  .  P  N  .  .  .  .  .  3",
        "2  P  B  P  P  P  P  P  P  2",
        "1  .  . <K><R> Q  B  N  R  1",
        "   a  b  c  d  e  f  g  h",
        "last move: 4. O-O-O, Black to move",
    ];
    let input = "b3 b6 Bb2 Bb7 Nc3 Nc6 O-O-O\nboard\n";
    let out = repl(&["repl", "--ascii", "--fen", KING_ON_D, "--chess960"], input);
    assert_eq!(out, expected.map(|l| format!("{l}\n")).concat());
    // X-FEN letters say the same
    let x_fen = KING_ON_D.replace("HAha", "KQkq");
    assert_eq!(repl(&["repl", "--ascii", "--chess960", "--fen", &x_fen], input), out);
}

#[test]
fn chess960_castling_in_fen_without_the_option_names_it() {
    let expected = [
        "error[fen:castling] at 46..47: castling right 'K' needs the white king on e1 and a rook on h1; found the king on d1",
        "error[fen:castling] at 47..48: castling right 'Q' needs the white king on e1 and a rook on a1; found the king on d1",
        "error[fen:castling] at 48..49: castling right 'k' needs the black king on e8 and a rook on h8; found the king on d8",
        "error[fen:castling] at 49..50: castling right 'q' needs the black king on e8 and a rook on a8; found the king on d8",
        "warning[fen:shredder-castling] at 46..47: Shredder-FEN castling letter 'H' where canonical FEN writes 'K'",
        "warning[fen:shredder-castling] at 47..48: Shredder-FEN castling letter 'A' where canonical FEN writes 'Q'",
        "warning[fen:shredder-castling] at 48..49: Shredder-FEN castling letter 'h' where canonical FEN writes 'k'",
        "warning[fen:shredder-castling] at 49..50: Shredder-FEN castling letter 'a' where canonical FEN writes 'q'",
        "invalid",
        "sanfen: castling 'HAha' is valid only in Chess960: add --chess960 to read the FEN as Chess960",
    ];
    cargo_bin_cmd!("sanfen")
        .args(["repl", "--fen", KING_ON_D])
        .write_stdin("fen\n")
        .assert()
        .code(1)
        .stdout("")
        .stderr(expected.map(|l| format!("{l}\n")).concat());
    // castling no Chess960 reading saves either (no rook on b1) gets no such line
    let bad = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Bb - 0 1";
    let output =
        cargo_bin_cmd!("sanfen").args(["repl", "--fen", bad]).write_stdin("").assert().code(1).get_output().clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.ends_with("\ninvalid\n") && !stderr.contains("--chess960"), "{stderr}");
}

#[test]
fn an_illegal_move_is_refused_and_the_position_kept() {
    let expected = [
        "1. e4",
        AFTER_E4,
        "1... e5",
        AFTER_E4_E5,
        "illegal move \"Ke3\": no king can move to e3",
        "did you mean Ke2?",
        AFTER_E4_E5,
    ];
    assert_eq!(repl_exiting(&[], "e4 e5\nKe3\nfen\n", 1), expected.map(|l| format!("{l}\n")).concat());
}

#[test]
fn a_script_line_not_utf8_or_too_long_is_refused_unread() {
    // a name not UTF-8 is not saved under another (the lossy reading saved
    // `caf\u{fffd}.pgn`), a move with such a byte is not read either
    let dir = temp_dir("script-lines");
    let mut input = format!("e4\nsave {}/caf", dir.display()).into_bytes();
    input.extend(b"\xe9.pgn\ne\xe95\n");
    // a line of 2 MiB (an endless one would fill the memory), then a
    // line of exactly the most a line may hold, a CRLF one
    input.extend(std::iter::repeat_n(b'x', 2 << 20));
    input.extend(b"\ne5\n");
    input.extend(std::iter::repeat_n(b' ', (1 << 20) - 4));
    input.extend(b"Nf3\r\n");
    let at = "save ".len() + dir.display().to_string().len() + "/caf".len() + 1;
    let expected = [
        "1. e4".to_owned(),
        AFTER_E4.to_owned(),
        format!("line 2 not read: byte {at} is not UTF-8 (\\xe9)"),
        "line 3 not read: byte 2 is not UTF-8 (\\xe9)".to_owned(),
        "line 4 not read: longer than a line may be (1048576 bytes)".to_owned(),
        "1... e5".to_owned(),
        AFTER_E4_E5.to_owned(),
        "2. Nf3".to_owned(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2".to_owned(),
    ];
    assert_eq!(repl_exiting(&[], input, 1), expected.map(|l| format!("{l}\n")).concat());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    // a long line at the end of the input, with no newline
    assert_eq!(
        repl_exiting(&[], vec![b'e'; 3 << 20], 1),
        "line 1 not read: longer than a line may be (1048576 bytes)\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_script_exits_with_1_for_a_refused_line_and_2_for_a_file_not_saved() {
    repl_exiting(&[], "e4\nfen\nundo\nquit\nKe2\n", 0);
    repl_exiting(&[], "e4\nKe7\nfen\n", 1);
    repl_exiting(&[], "e4\nmovez\n", 1);
    repl_exiting(&[], "save /nonexistent/a.pgn\ne4\n", 2);
    // a failed save outweighs a refused line, before it or after it
    repl_exiting(&[], "Ke2\nsave /nonexistent/a.pgn\nKe2\n", 2);
}

#[test]
fn letters_and_start_position_arguments() {
    let out = repl(&["repl", "--letters", "pt", "--fen", AFTER_E4], "Cc6\n");
    assert_eq!(out, "1... Nc6 (Cc6 -> Nc6)\nr1bqkbnr/pppppppp/2n5/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2\n");
    cargo_bin_cmd!("sanfen").args(["repl", "--fen", "bad"]).write_stdin("").assert().code(1).stdout("");
}

#[test]
fn go_at_a_fixed_depth_is_deterministic() {
    // but for the time the search took, never asserted
    let time = regex::Regex::new(r"[0-9]+\.[0-9]{2} s\)").unwrap();
    let first = repl(&[], "go 2\nfen\n");
    let second = repl(&[], "go 2\nfen\n");
    assert_eq!(time.replace(&first, "T s)"), time.replace(&second, "T s)"));
    assert_eq!(first.lines().count(), 4);
    assert!(first.starts_with("engine: "), "{first}");
    assert!(first.lines().nth(1).is_some_and(|l| l.starts_with("1. ")), "{first}");
}

/// The canonical moves of a game (87 plies, from a game in the pychess test
/// files) ending in a promotion on e8.
const CANONICAL: &str = "e4 e5 Bc4 Bc5 c3 Qe7 Nf3 d6 O-O Bb6 d4 Nf6 Na3 Bg4 Nc2 Nbd7 Qd3 d5 exd5 e4 Qd2 exf3 \
    Re1 Ne4 Qf4 f5 gxf3 g5 Qe3 Ne5 Bb5+ c6 fxg4 Nxg4 Qe2 cxb5 f3 Ngf6 fxe4 Nxe4 Qxb5+ Qd7 Qxd7+ Kxd7 c4 Rae8 c5 \
    Bd8 d6 f4 b4 Rhf8 Rf1 h5 Na3 Bf6 Bb2 g4 Nc4 f3 Ne5+ Bxe5 dxe5 h4 Rad1 f2+ Kh1 h3 Rd3 Rg8 b5 g3 hxg3 Rxg3 Rd4 \
    Reg8 e6+ Kd8 Rdd1 h2 e7+ Kd7 c6+ bxc6 bxc6+ Kxc6 e8=Q+";

/// The same game as typed: move numbers, long algebraic, zeros, Portuguese
/// letters, lowercase, no check marks, `e8Q`.
const TYPED: [&str; 14] = [
    "1. e4 e5 2. Bf1-c4 Bc5",
    "3.c3 Qd8-e7 4. Ng1-f3 d6",
    "0-0 Bb6 d2d4 Ng8f6",
    "Nb1-a3 Bc8-g4 Nc2 Nbd7 Qd3 d5",
    "exd5 e4 Qd2 exf3 Re1 Ne4",
    "letters pt",
    "Df4 f5 gxf3 g5 De3 Ce5 Bb5 c6 fxg4 Cxg4 De2 cxb5",
    "f3 Cgf6 fxe4 Cxe4 Dxb5 Dd7 Dxd7+ Rxd7 c4 Tae8 c5 Bd8",
    "d6 f4 b4 Thf8 Tf1 h5 Ca3 Bf6 Bb2 g4 Cc4 f3",
    "letters en",
    "Nc4-e5+ Bxe5 dxe5 h4 Rad1 f2 Kh1 h3 Rd3 Rg8 b5 g3 hxg3 Rxg3",
    "Rd4 Reg8 e6 Kd8 Rdd1 h2 e7+ Kd7 c6 bxc6 bxc6 Kxc6",
    "e8Q",
    "fen",
];

/// Runs a python-chess script; its standard output, trimmed.
fn python(script: &str, args: &[&str]) -> String {
    let output = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("python3 is needed for this test (with the `chess` module; .ci/run installs it)");
    assert!(
        output.status.success(),
        "python3 with the `chess` module (python-chess) is needed for this test (.ci/run installs it): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

const FEN_OF_MOVES: &str =
    "import sys, chess\nb = chess.Board()\nfor s in sys.argv[1].split():\n    b.push_san(s)\nprint(b.fen())";

const MOVES_OF_PGN: &str = "import sys, chess.pgn\ng = chess.pgn.read_game(open(sys.argv[1]))\nassert not g.errors, g.errors\n\
    b = g.board()\nout = []\nfor m in g.mainline_moves():\n    out.append(b.san(m))\n    b.push(m)\nprint(' '.join(out))";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sanfen-repl-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_game_in_mixed_spellings_ends_where_python_chess_does() {
    let expected_fen = python(FEN_OF_MOVES, &[CANONICAL]);
    let plies = CANONICAL.split_whitespace().count();
    assert!(plies >= 80);
    let dir = temp_dir("game");
    let pgn = dir.join("game.pgn");
    let bin = dir.join("game.bin");
    let mut input = TYPED.map(|l| format!("{l}\n")).concat();
    input.push_str(&format!("save {}\nsave {}\n", pgn.display(), bin.display()));
    let out = repl(&[], &input);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        !lines.iter().any(|l| l.starts_with("illegal") || l.starts_with("syntax") || l.starts_with("ambiguous")),
        "{out}"
    );
    // every move shown with its canonical spelling, in order
    let shown: Vec<&str> = lines
        .iter()
        .filter(|l| l.split_whitespace().next().is_some_and(|n| n.ends_with('.') && n.starts_with(char::is_numeric)))
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(shown, CANONICAL.split_whitespace().collect::<Vec<_>>());
    assert!(out.contains("(0-0 -> O-O)"), "{out}");
    assert!(out.contains("(Ng1-f3 -> Nf3)"), "{out}");
    assert!(out.contains("(Df4 -> Qf4)"), "{out}");
    assert!(out.contains("(e8Q -> e8=Q+)"), "{out}");
    assert_eq!(lines[lines.len() - 3], expected_fen, "the final `fen`");
    assert_eq!(lines[lines.len() - 2], format!("saved {plies} moves to {} (PGN)", pgn.display()));
    assert_eq!(
        lines[lines.len() - 1],
        format!("saved {plies} moves to {} (binary log, {} bytes)", bin.display(), 16 * plies)
    );
    assert_eq!(
        python(MOVES_OF_PGN, &[pgn.to_str().unwrap()]),
        CANONICAL.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    let log = std::fs::read(&bin).unwrap();
    assert_eq!(log.len(), 16 * plies);
    // 1. e4: from rank 1, file 4 to rank 3, file 4; 5. O-O as the king's move e1g1
    let values: Vec<i32> = log.chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(values[..4], [1, 4, 3, 4]);
    assert_eq!(values[8 * 4..9 * 4], [0, 4, 0, 6]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unknown_commands_extra_words_and_redo_n() {
    let input = "hepl\ncastle\nexd\nflip x\nfen now\ne4 e5 Nf3\nundo 3\nredo 2\nredo 4\nredo\nhistory\n";
    let expected = [
        "unknown command `hepl`; did you mean `help`?",
        "unknown command `castle`; type help for the commands",
        // a word that starts like a move is read as one
        "syntax error in \"exd\": found nothing, expected a rank 1-8",
        "  exd",
        "     ^",
        "flip takes no argument; usage: flip",
        "fen takes no argument; usage: fen",
        "1. e4",
        AFTER_E4,
        "1... e5",
        AFTER_E4_E5,
        "2. Nf3",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        "undone: 1. e4 e5 2. Nf3",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "redone: 1. e4 e5",
        AFTER_E4_E5,
        "redone: 2. Nf3 (only 1 move to redo)",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        "nothing to redo",
        "1. e4 e5 2. Nf3",
    ];
    assert_eq!(repl_exiting(&[], input, 1), expected.map(|l| format!("{l}\n")).concat());
}

#[test]
fn portuguese_letters_read_as_moves_not_commands() {
    let input = "letters pt\nCf3\nD\nTorre\n";
    let expected = [
        "letters: Portuguese (K=R Q=D R=T B=B N=C)",
        "1. Nf3 (Cf3 -> Nf3)",
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
        "syntax error in \"D\": found nothing, expected a file a-h, a rank 1-8 or `x`",
        "  D",
        "   ^",
        "unknown command `Torre`; type help for the commands",
    ];
    assert_eq!(repl_exiting(&[], input, 1), expected.map(|l| format!("{l}\n")).concat());
}

#[test]
fn help_texts_name_formats_and_orders_by_what_they_are() {
    let help = repl(&[], "help\n");
    assert!(help.contains(
        "  save FILE                      write the game to a new file: PGN (.gz, .zst, .bz2 compressed), or a .bin \
         name's move log\n"
    ));
    assert!(help.contains("  redo [N]                       play an undone move again (or N moves)\n"));
    let moves_help = cargo_bin_cmd!("sanfen").args(["moves", "--help"]).assert().code(0).get_output().stdout.clone();
    let moves_help = String::from_utf8(moves_help).unwrap();
    assert!(moves_help.contains("- value:   The value order: by piece (pawn, knight, bishop, rook, queen, king)"));
    assert!(moves_help.contains("- file-prefixed: SAN where every pawn move carries its origin file"));
    for text in [help, moves_help] {
        assert!(!text.to_lowercase().contains("seed"), "{text}");
    }
}

#[test]
fn a_whole_game_loaded_tagged_ended_and_taken_back() {
    let dir = temp_dir("whole-game");
    std::fs::write(
        dir.join("club.pgn"),
        "[Event \"Club\"]\n[White \"Ana\"]\n[Black \"Rui\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1/2-1/2\n",
    )
    .unwrap();
    let input = "e4\nundo\ntag Round 3\nundo\nclaim\nnew\ntag\nplay black 2\nd4\nundo\ndraw\nundo\n\
                 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8\nclaim\nNf3\n";
    let output = cargo_bin_cmd!("sanfen")
        .current_dir(&dir)
        .args(["repl", "club.pgn"])
        .write_stdin(input)
        .assert()
        // moves refused once the game is over
        .code(1)
        .stderr("")
        .get_output()
        .clone();
    let time = regex::Regex::new(r"[0-9]+\.[0-9]{2} s\)").unwrap();
    let stdout = time.replace_all(std::str::from_utf8(&output.stdout).unwrap(), "T s)").into_owned();
    // today's date as the system's `date` gives it: the Date of a new game
    let today = Command::new("date").arg("+%Y.%m.%d").output().unwrap().stdout;
    let today = String::from_utf8(today).unwrap().trim().to_owned();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let expected = [
        "loaded game 1 of club.pgn: Ana - Rui, 6 moves, 1/2-1/2",
        "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
        "game over: result as loaded, 1/2-1/2 (draw)",
        "the game is over (result as loaded, 1/2-1/2): \"e4\" not played; undo or new to play on",
        "undone: result as loaded; play on",
        "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
        "[Round \"3\"]",
        "undone: 3... a6",
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        "no draw to claim: this position has occurred 1 time (a claim needs 3), and 3 half-moves were played without \
         a capture or a pawn move (a claim needs 100)",
        "new game",
        start,
        "[Event \"?\"]",
        "[Site \"?\"]",
        &format!("[Date \"{today}\"]"),
        "[Round \"?\"]",
        "[White \"?\"]",
        "[Black \"?\"]",
        "[Result \"*\"]",
        "engine: plays black (depth 2)",
        "1. d4",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
        "engine: Nc6 (eval +0.40, depth 2, 116 nodes, T s)",
        "1... Nc6",
        "r1bqkbnr/pppppppp/2n5/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2",
        // against the engine, undo goes back to the player's move
        "undone: 1. d4 Nc6",
        start,
        "engine accepts the draw (its evaluation for itself: +0.00)",
        "game over: draw agreed, 1/2-1/2 (draw)",
        "undone: draw agreed; play on",
        start,
        "1. Nf3",
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
        "1... Nf6",
        "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2",
        "2. Ng1",
        "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 3 2",
        "2... Ng8",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3",
        "3. Nf3",
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 5 3",
        "3... Nf6",
        "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 6 4",
        "4. Ng1",
        "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 7 4",
        "4... Ng8",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5",
        "White may claim a draw: threefold repetition (type claim)",
        "game over: draw claimed (threefold repetition), 1/2-1/2 (draw)",
        "the game is over (draw claimed (threefold repetition), 1/2-1/2): \"Nf3\" not played; undo or new to play on",
    ];
    assert_eq!(stdout, expected.join("\n") + "\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_to_start_from_that_cannot_be_read_is_an_error() {
    let dir = temp_dir("bad-start");
    std::fs::write(dir.join("one.pgn"), "1. e4 *\n").unwrap();
    cargo_bin_cmd!("sanfen")
        .current_dir(&dir)
        .args(["repl", "one.pgn", "--game", "2"])
        .write_stdin("")
        .assert()
        .code(2)
        .stdout("")
        .stderr("sanfen: one.pgn holds 1 game: there is no game 2\n");
    cargo_bin_cmd!("sanfen")
        .current_dir(&dir)
        .args(["repl", "--pgn", "missing.pgn"])
        .write_stdin("")
        .assert()
        .code(2)
        .stdout("")
        .stderr("sanfen: cannot read missing.pgn: No such file or directory (os error 2)\n");
    cargo_bin_cmd!("sanfen")
        .args(["repl", "--game", "2"])
        .write_stdin("")
        .assert()
        .code(2)
        .stdout("")
        .stderr("sanfen: --game N needs a FILE to take the game from\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn save_and_load_read_a_tilde_as_the_home_directory() {
    let dir = temp_dir("home");
    let output = cargo_bin_cmd!("sanfen")
        .env("HOME", &dir)
        .write_stdin("e4\nsave ~/game.pgn\nsave ~nobody/game.pgn\nnew\nload ~/game.pgn 1\n")
        .assert()
        .code(2)
        .stderr("")
        .get_output()
        .clone();
    let out = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[2], "saved 1 move to ~/game.pgn (PGN)");
    // `~user` is not read: a name as it is
    assert_eq!(
        lines[3],
        "cannot write ~nobody/game.pgn: cannot create a temporary file beside it: No such file or directory (os error 2)"
    );
    assert!(std::fs::read_to_string(dir.join("game.pgn")).unwrap().ends_with("\n1. e4 *\n"));
    // and `load` reads it back
    assert_eq!(lines[6], format!("loaded game 1 of {}: ? - ?, 1 move, *", dir.join("game.pgn").display()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_replaces_a_file_as_it_is_or_refuses_it() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = temp_dir("save");
    let target = dir.join("target.pgn");
    std::fs::write(&target, "old\n").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.join("link.pgn");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink("target.pgn", &link).unwrap();
    let read_only = dir.join("read-only.pgn");
    let _ = std::fs::remove_file(&read_only);
    std::fs::write(&read_only, "old\n").unwrap();
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o444)).unwrap();
    let input = format!(
        "e4\ne5\nsave /dev/null\nsave {}\nsave! {}\nsave! {}\n",
        link.display(),
        link.display(),
        read_only.display()
    );
    // the read-only file not written: exit code 2
    let out = repl_exiting(&[], input, 2);
    let lines: Vec<&str> = out.lines().collect();
    // a device: written to as it is
    assert_eq!(lines[lines.len() - 4], "saved 2 moves to /dev/null (PGN)");
    // a file there, which this session did not write: only `save!` replaces it
    assert_eq!(
        lines[lines.len() - 3],
        format!(
            "{0} exists: not replaced (save! {0} replaces it, append {0} adds this game at its end)",
            link.display()
        )
    );
    assert_eq!(lines[lines.len() - 2], format!("saved 2 moves to {} (PGN)", link.display()));
    assert_eq!(
        lines[lines.len() - 1],
        format!("cannot write {}: read-only (mode 0444): not replaced", read_only.display())
    );
    // through the link: its target, with its mode; the link stays
    assert_eq!(std::fs::read_link(&link).unwrap(), std::path::Path::new("target.pgn"));
    assert!(std::fs::read_to_string(&target).unwrap().ends_with("\n1. e4 e5 *\n"));
    assert_eq!(std::fs::metadata(&target).unwrap().mode() & 0o7777, 0o600);
    assert_eq!(std::fs::read_to_string(&read_only).unwrap(), "old\n");
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["link.pgn", "read-only.pgn", "target.pgn"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The text of a three-game file whose second game `save FILE 2` replaces:
/// text between the games, a comment after a result, an escape line.
const THREE_GAMES: &str = "[Event \"A\"]\n\n1. e4 e5 *\n\n{between} [Event \"B\"]\n\n1. d4 d5 {note} 2. c4 1-0 \
                           {after}\n\n% escape\n[Event \"C\"]\n\n1. c4 *\n";

/// Game B of [`THREE_GAMES`] as `save` writes it with `moves` after 2. c4
/// (no final line end).
fn game_b(moves: &str) -> String {
    format!(
        "[Event \"B\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n\
         [Result \"*\"]\n\n1. d4 d5 {{note}} 2. c4 {moves} * {{after}}"
    )
}

#[test]
fn save_file_n_rewrites_that_game_alone_and_keeps_the_file_what_it_is() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = temp_dir("place");
    let db = dir.join("db.pgn");
    std::fs::write(&db, THREE_GAMES).unwrap();
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.join("link.pgn");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink("db.pgn", &link).unwrap();
    let (db_typed, link_typed) = (db.display().to_string(), link.display().to_string());
    // saved twice (the second time over the game this session put there),
    // through the link; an append after it changes nothing of game 2
    let input = format!(
        "load {link_typed} 2\nundo\nNc6\nsave {link_typed} 2\ne4\nappend {db_typed}\nsave {db_typed} 2\nsave {db_typed}\n"
    );
    // (the last save refused: exit code 2)
    let out = repl_exiting(&["repl", "--no-board"], input, 2);
    let said: Vec<&str> = out.lines().filter(|line| line.starts_with("saved") || line.contains("exists")).collect();
    assert_eq!(
        said,
        [
            format!("saved 4 moves to {link_typed} in the place of game 2 (PGN)"),
            format!("saved 5 moves to {db_typed} in the place of game 2 (PGN)"),
            format!(
                "{db_typed} exists: not replaced: it holds other games than game 2, loaded from it (save {db_typed} 2 \
                 puts this game in its place, save! {db_typed} replaces them all with this one, append {db_typed} \
                 adds this game at their end)"
            ),
        ]
    );
    let (before, after) = THREE_GAMES.split_once("[Event \"B\"]").unwrap();
    let after = &after[after.find("\n\n% escape").unwrap()..];
    let appended = format!("\n{}\n", game_b("Nc6 3. e4"));
    assert_eq!(std::fs::read_to_string(&db).unwrap(), [before, &game_b("Nc6 3. e4"), after, &appended].concat());
    assert_eq!(std::fs::metadata(&db).unwrap().mode() & 0o7777, 0o640);
    assert_eq!(std::fs::read_link(&link).unwrap(), std::path::Path::new("db.pgn"));
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["db.pgn", "link.pgn"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_file_n_keeps_compression_line_ends_and_hard_links() {
    use std::io::{Read, Write};
    let dir = temp_dir("place-gz");
    let db = dir.join("db.pgn.gz");
    let crlf = THREE_GAMES.replace('\n', "\r\n");
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gzip.write_all(crlf.as_bytes()).unwrap();
    std::fs::write(&db, gzip.finish().unwrap()).unwrap();
    let hard = dir.join("hard.pgn.gz");
    let _ = std::fs::remove_file(&hard);
    std::fs::hard_link(&db, &hard).unwrap();
    let typed = db.display().to_string();
    let out = repl(&["repl", "--no-board"], &format!("load {typed} 2\nundo\nNc6\nsave {typed} 2\n"));
    assert_eq!(out.lines().last().unwrap(), format!("saved 4 moves to {typed} in the place of game 2 (PGN, gzip)"));
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(&hard).unwrap()).read_to_string(&mut text).unwrap();
    let (before, after) = crlf.split_once("[Event \"B\"]").unwrap();
    let after = &after[after.find("\r\n\r\n% escape").unwrap()..];
    assert_eq!(text, [before, &game_b("Nc6").replace('\n', "\r\n"), after].concat());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_file_n_refuses_a_game_another_program_changed_or_a_file_it_may_not_write() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("place-changed");
    let db = dir.join("db.pgn");
    std::fs::write(&db, THREE_GAMES).unwrap();
    let typed = db.display().to_string();
    let mut repl = Live::start();
    repl.say(&format!("load {typed} 2"), "game over");
    let save = format!("save {typed} 2");
    // game 2 changed; game 1 changed (game 2 no longer at its place); the
    // file as it was, read-only
    let changed = THREE_GAMES.replace("{note}", "{changed}");
    let moved = THREE_GAMES.replace("1. e4 e5 *", "1. e4 e5 2. Nf3 *");
    let mut answers = Vec::new();
    for text in [&changed, &moved] {
        std::fs::write(&db, text).unwrap();
        answers.push(repl.say(&save, ""));
    }
    std::fs::write(&db, THREE_GAMES).unwrap();
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o444)).unwrap();
    answers.push(repl.say(&save, ""));
    assert_eq!(repl.end(), Some(2));
    let refused =
        format!("{typed} changed since game 2 was loaded from it: not replaced (load it again to see it as it is now)");
    let not_written = format!("cannot write {typed}: read-only (mode 0444): not rewritten");
    assert_eq!(answers, [refused.clone(), refused, not_written]);
    assert_eq!(std::fs::read_to_string(&db).unwrap(), THREE_GAMES);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_script_ended_by_a_signal_exits_with_128_and_its_number() {
    // (its handler removes the temporary file of a save being written)
    for (signal, code) in [("-INT", 130), ("-TERM", 143), ("-HUP", 129)] {
        let mut repl = Live::start();
        assert_eq!(repl.say("e4", AFTER_E4), AFTER_E4);
        let killed = Command::new("kill").args([signal, &repl.child.id().to_string()]).status().unwrap();
        assert!(killed.success());
        // (its standard input still open: the signal ends it, not the input's end)
        assert_eq!(repl.child.wait().unwrap().code(), Some(code), "{signal}");
    }
}

#[test]
fn save_file_n_writes_the_game_in_windows_1252_where_it_was() {
    let dir = temp_dir("place-1252");
    let db = dir.join("db.pgn");
    let first: &[u8] = b"[Event \"A\"]\n\n1. e4 *\n\n";
    std::fs::write(&db, [first, b"[White \"R\xe9ti\"]\n\n1. Nf3 {\x93Open\x94} d5 *\n"].concat()).unwrap();
    let typed = db.display().to_string();
    let input = format!("load {typed} 2\nc4\nsave {typed} 2\ntag Black Жуков\nsave {typed} 2\n");
    let out = repl_exiting(&["repl", "--no-board"], input, 2);
    let said: Vec<&str> = out.lines().filter(|line| line.contains(&typed)).collect();
    assert_eq!(
        said[1..],
        [
            format!("saved 3 moves to {typed} in the place of game 2 (PGN)"),
            format!(
                "cannot write {typed}: game 2 is written in Windows-1252, which has no place for every character of \
                 this game: not replaced"
            ),
        ]
    );
    let game: &[u8] = b"[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"R\xe9ti\"]\n\
                        [Black \"?\"]\n[Result \"*\"]\n\n1. Nf3 {\x93Open\x94} 1... d5 2. c4 *\n";
    assert_eq!(std::fs::read(&db).unwrap(), [first, game].concat());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `sanfen repl --no-board` running, its standard input and output piped, so
/// that a test can do something between two lines.
struct Live {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
}

impl Live {
    fn start() -> Live {
        use std::process::Stdio;
        let mut child = Command::new(assert_cmd::cargo::cargo_bin!("sanfen"))
            .args(["repl", "--no-board"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        Live { child, stdin, stdout }
    }

    /// Says `line`, reads its answer up to the first line that starts with
    /// `last`, and gives that line.
    fn say(&mut self, line: &str, last: &str) -> String {
        use std::io::{BufRead, Write};
        writeln!(self.stdin, "{line}").unwrap();
        let mut answer = String::new();
        loop {
            answer.clear();
            assert!(self.stdout.read_line(&mut answer).unwrap() > 0, "{line}");
            if answer.starts_with(last) {
                return answer.trim_end().to_owned();
            }
        }
    }

    /// Closes its standard input; its exit code.
    fn end(self) -> Option<i32> {
        let Live { mut child, stdin, .. } = self;
        drop(stdin);
        child.wait().unwrap().code()
    }
}
