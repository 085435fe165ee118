//! The README's shell examples, run: every `$ ` line of its `console` blocks
//! runs in `bash` with `sanfen` (and `cargo run --release -q [--]`) standing
//! for the built binary, in a scratch directory holding the files the
//! examples name, and its output (standard output and error, as a terminal
//! would show them) must be the lines under it, byte for byte, but for the
//! time a run took and the whitespace at the end. The few lines that cannot run here are listed in
//! [`NOT_RUN`], each with why.

use std::path::Path;
use std::process::Command;

use crate::cli_check::GAMES;
use crate::scratch::Dir;

/// The README's commands (the start of each) that are not run, and why.
/// Each must still be in the README (a line removed there is removed here).
const NOT_RUN: [(&str, &str); 5] = [
    (
        "sanfen fen check 'rnbq1knr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'",
        "the output of a terminal (the input shown with carets); the piped output is the example before it",
    ),
    ("sanfen check --strict --allow pgn games.pgn", "a usage shown without its output"),
    ("sanfen check --deny pgn --allow pgn:missing-tags games.pgn", "a usage shown without its output"),
    (
        "sanfen export --table moves -o moves.parquet lichess_db_standard_rated_2013-01.pgn.zst",
        "a lichess month, not among the data files",
    ),
    ("duckdb -c", "duckdb's command line is no test dependency"),
];

/// One `$ ` line of a console block and the lines under it.
struct Example {
    /// The README's line number of the command.
    line: usize,
    command: String,
    expected: String,
}

/// The console blocks of `text`, each a list of examples.
fn console_blocks(text: &str) -> Vec<Vec<Example>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<Example>> = None;
    for (index, line) in text.lines().enumerate() {
        match (&mut current, line) {
            (None, "```console") => current = Some(Vec::new()),
            (None, _) => {}
            (Some(_), "```") => blocks.extend(current.take()),
            (Some(examples), _) => {
                if let Some(command) = line.strip_prefix("$ ") {
                    examples.push(Example { line: index + 1, command: command.to_owned(), expected: String::new() });
                } else {
                    let example = examples.last_mut().expect("a console block starts with a command");
                    example.expected.push_str(line);
                    example.expected.push('\n');
                }
            }
        }
    }
    assert!(current.is_none(), "a console block left open");
    blocks
}

/// Output with the times a run took replaced by `T` (the summary's `, 0.003
/// s` and JSON's `"seconds":0.002`) and without the whitespace at its end
/// (invisible on a terminal: `tr '\n' ' '` leaves a space there).
fn without_times(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = match line.rsplit_once(", ") {
            Some((head, tail)) if tail.strip_suffix(" s").is_some_and(|t| t.parse::<f64>().is_ok()) => {
                format!("{head}, T s")
            }
            _ => line.to_owned(),
        };
        let line = match line.split_once("\"seconds\":") {
            Some((head, tail)) => {
                let rest = tail.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                format!("{head}\"seconds\":T{rest}")
            }
            None => line,
        };
        out.push_str(&line);
        out.push('\n');
    }
    out.trim_end().to_owned()
}

/// The files the examples of a block read, written into `dir` before it
/// runs: `games.pgn` is the club games of the check examples, or, in the
/// split examples, a TCEC file (the README names it), also compressed;
/// `fens.txt` is what the README shows of it (`fens`).
fn write_fixtures(block: &[Example], dir: &Dir, fens: &str) {
    let commands: Vec<&str> = block.iter().map(|e| e.command.as_str()).collect();
    let reads = |name: &str| commands.iter().any(|c| c.contains(name));
    if commands.iter().any(|c| c.starts_with("sanfen split")) {
        let tcec = crate::cli_check::data("tcec/TCEC_Season_5_-_Superfinal.pgn");
        let bytes = std::fs::read(tcec).expect("the TCEC data file");
        dir.file("games.pgn", &bytes);
        dir.file("games.pgn.zst", &zstd::encode_all(&bytes[..], 3).unwrap());
    } else if reads("games.pgn") {
        dir.file("games.pgn", GAMES.as_bytes());
    }
    if reads("fens.txt") {
        dir.file("fens.txt", fens.as_bytes());
    }
}

/// Runs one example's command in `dir` with `bin` first on the `PATH`: its
/// standard output and error, in one stream.
fn run(command: &str, dir: &Path, bin: &Path) -> String {
    let command = command.replace("cargo run --release -q --", "sanfen").replace("cargo run --release -q", "sanfen");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let output = Command::new("bash")
        .arg("-c")
        .arg(format!("exec 2>&1; {command}"))
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .expect("bash runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn every_readme_example_gives_the_output_shown() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let blocks = console_blocks(&readme);
    let examples = || blocks.iter().flatten();
    for (command, why) in NOT_RUN {
        assert!(examples().any(|e| e.command.starts_with(command)), "NOT_RUN names a line the README lacks ({why})");
    }
    let fens = &examples().find(|e| e.command == "cat fens.txt").expect("the README shows fens.txt").expected;
    let bin = Dir::new("readme-bin");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_sanfen"), bin.0.join("sanfen")).unwrap();
    let (mut ran, mut failures) = (0, Vec::new());
    for block in &blocks {
        let dir = Dir::new("readme");
        write_fixtures(block, &dir, fens);
        for example in block {
            if NOT_RUN.iter().any(|(command, _)| example.command.starts_with(command)) {
                continue;
            }
            let got = without_times(&run(&example.command, &dir.0, &bin.0));
            let expected = without_times(&example.expected);
            if got != expected {
                failures.push(format!(
                    "README.md:{}: $ {}\n--- expected\n{expected}\n--- got\n{got}\n",
                    example.line, example.command
                ));
            }
            ran += 1;
        }
    }
    assert!(failures.is_empty(), "{} of {ran} examples differ:\n\n{}", failures.len(), failures.join("\n"));
    // every console block of the README but the ones listed is run
    assert_eq!(ran, 39);
}
