//! The REPL driven through piped standard input: no prompt, no colour, one
//! response per line, exact output.

use std::path::PathBuf;
use std::process::Command;

use assert_cmd::cargo::cargo_bin_cmd;

const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
const AFTER_E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

/// Runs `sanfen ARGS` with `input` on standard input; its standard output.
fn repl(args: &[&str], input: &str) -> String {
    let output =
        cargo_bin_cmd!("sanfen").args(args).write_stdin(input).assert().code(0).stderr("").get_output().clone();
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
    // a board asked for is drawn without escape codes even with colour allowed
    let out = repl(&["repl", "--fen", AFTER_E4], "board\n");
    assert!(!out.contains('\x1b'), "{out}");
    assert_eq!(out.lines().count(), 9);
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
    assert_eq!(repl(&[], "e4 e5\nKe3\nfen\n"), expected.map(|l| format!("{l}\n")).concat());
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
    let input = "hepl\nresign\nexd\nflip x\nfen now\ne4 e5 Nf3\nundo 3\nredo 2\nredo 4\nredo\nhistory\n";
    let expected = [
        "unknown command `hepl`; did you mean `help`?",
        "unknown command `resign`; type help for the commands",
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
    assert_eq!(repl(&[], input), expected.map(|l| format!("{l}\n")).concat());
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
    assert_eq!(repl(&[], input), expected.map(|l| format!("{l}\n")).concat());
}

#[test]
fn help_texts_name_formats_and_orders_by_what_they_are() {
    let help = repl(&[], "help\n");
    assert!(help.contains(
        "  save FILE                      write the game as PGN (a .bin name: the binary move log, from and to squares)\n"
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
