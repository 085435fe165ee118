//! `sanfen check` and `sanfen fmt` on hostile input: garbage, huge games and
//! lines, binary and compressed data under any name, streams that fail part
//! way, output closed early. Exact output, and the same whatever `-j`.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use assert_cmd::cargo::cargo_bin_cmd;
use sanfen::pgn::chunk::Chunker;
use sanfen::pgn::reader::Reader;
use sanfen::pgn::validate::{MAX_FINDINGS, Options, Validator};
use serde_json::json;

fn sanfen(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("sanfen");
    cmd.args(args);
    cmd
}

/// A file of the test's own in the temporary folder.
fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("sanfen-check-hostile-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).expect("a temporary file");
    path
}

/// Stdout without the summary's time (`, 0.012 s`), which varies.
fn untimed(stdout: &[u8]) -> String {
    let text = String::from_utf8(stdout.to_vec()).expect("UTF-8 output");
    let mut lines: Vec<&str> = text.lines().collect();
    let last = lines.pop().expect("a summary line");
    let (summary, seconds) = last.rsplit_once(", ").expect("a time");
    assert!(seconds.ends_with(" s"), "{last}");
    lines.push(summary);
    lines.join("\n") + "\n"
}

/// A clean game with the Seven Tag Roster: no finding.
const CLEAN: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"A\"]\n[Black \"B\"]\n\
[Result \"*\"]\n\n1. e4 e5 *\n\n";

/// 100 clean games (9,500 bytes: more than the block looked at for binary data).
fn clean_games() -> String {
    CLEAN.repeat(100)
}

/// The 101st game's tags (its first line is line 1001).
const TAGS: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"C\"]\n[Black \"D\"]\n\
[Result \"*\"]\n\n";

/// 100 clean games, then one whose movetext holds 1 MiB of NUL bytes.
fn nul_game() -> Vec<u8> {
    let mut input = clean_games().into_bytes();
    input.extend_from_slice(TAGS.as_bytes());
    input.extend_from_slice(b"1. e4 ");
    input.extend(std::iter::repeat_n(0u8, 1 << 20));
    input.extend_from_slice(b" e5 *\n");
    input
}

#[test]
fn a_run_of_nul_bytes_is_one_finding() {
    let input = nul_game();
    for jobs in ["1", "2"] {
        let output =
            sanfen(&["check", "-j", jobs, "-"]).write_stdin(input.clone()).assert().code(1).get_output().clone();
        assert_eq!(
            untimed(&output.stdout),
            format!(
                "<stdin>:1009:7: game 101 (C - D, ?, round ?), \\x00: error[pgn:unexpected-char]: unexpected \
             character in movetext (1048576 in a row, to 1009:1048582)\n\
             101 games, 202 moves, 1 games with errors, 1 errors, 0 lint findings, 0 skipped, {} bytes\n",
                input.len()
            ),
            "-j {jobs}"
        );
        assert!(output.stderr.is_empty());
    }
    let output = sanfen(&["check", "--json", "-"]).write_stdin(input).assert().code(1).get_output().clone();
    let text = String::from_utf8(output.stdout).unwrap();
    let first = text.lines().next().unwrap();
    assert_eq!(
        first,
        "{\"black\":\"D\",\"errors\":[{\"column\":7,\"game\":101,\"kind\":\"pgn:unexpected-char\",\"line\":1009,\
         \"message\":\"unexpected character in movetext\",\"move_number\":null,\"ply\":null,\
         \"repeats\":1048576,\"side\":null,\"suggestion\":null,\"token\":\"\\u0000\",\"until\":{\"column\":1048582,\"line\":1009}}],\
         \"event\":\"?\",\"file\":\"<stdin>\",\"game\":101,\"line\":1001,\"lint\":[],\"round\":\"?\",\
         \"skipped\":null,\"white\":\"C\"}"
    );
}

/// `count` findings that do not collapse: `)` with a comment between each.
fn unmatched_parens(count: usize) -> String {
    let mut input = String::from(TAGS);
    input.push_str("1. e4 ");
    input.push_str(&") {} ".repeat(count));
    input.push_str("*\n");
    input
}

#[test]
fn findings_past_the_cap_are_counted_not_listed() {
    let input = unmatched_parens(MAX_FINDINGS + 150);
    let output = sanfen(&["check", "-"]).write_stdin(input.clone()).assert().code(1).get_output().clone();
    let mut expected = String::new();
    for i in 0..MAX_FINDINGS {
        expected.push_str(&format!(
            "<stdin>:9:{}: game 1 (C - D, ?, round ?), ): error[pgn:unmatched-paren]: ) closes no variation\n",
            7 + 5 * i
        ));
    }
    expected.push_str("<stdin>:1:1: game 1 (C - D, ?, round ?): and 150 more findings, not listed (at most 1000 are listed per game)\n");
    expected.push_str(&format!(
        "1 games, 1 moves, 1 games with errors, 1150 errors, 0 lint findings, 0 skipped, {} bytes\n",
        input.len()
    ));
    assert_eq!(untimed(&output.stdout), expected);
    let output = sanfen(&["check", "--json", "-"]).write_stdin(input).assert().code(1).get_output().clone();
    let game: serde_json::Value =
        serde_json::from_str(String::from_utf8(output.stdout).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!((game["errors"].as_array().unwrap().len(), game["unlisted"].as_u64()), (MAX_FINDINGS, Some(150)));
}

#[test]
fn validator_keeps_the_first_findings_and_counts_the_rest() {
    let input = unmatched_parens(MAX_FINDINGS + 900);
    let mut validator = Validator::new(input.as_bytes(), Options::default());
    let report = Reader::new(input.as_bytes()).read_game(&mut validator).expect("a game");
    assert_eq!((report.findings.len(), report.unlisted, report.errors, report.lints), (MAX_FINDINGS, 900, 1900, 0));
    assert_eq!(report.findings.last().map(|f| (f.at.line, f.at.column)), Some((9, 7 + 5 * 999)));
    // counting alone counts the same
    let options = Options { count_only: true, ..Options::default() };
    let mut validator = Validator::new(input.as_bytes(), options);
    let report = Reader::new(input.as_bytes()).read_game(&mut validator).expect("a game");
    assert_eq!((report.findings.len(), report.unlisted, report.errors), (0, 0, 1900));
}

#[test]
fn a_long_token_is_kept_cut() {
    let input = format!("{TAGS}1. {} *\n", "x".repeat(100_000));
    let mut validator = Validator::new(input.as_bytes(), Options { source_lines: true, ..Options::default() });
    let report = Reader::new(input.as_bytes()).read_game(&mut validator).expect("a game");
    let finding = &report.findings[0];
    assert_eq!(finding.token, format!("{}…", "x".repeat(80)));
    let line = finding.source_line.as_ref().expect("a source line");
    assert_eq!((line.text.len(), line.caret, line.cut_before, line.cut_after), (80, 3, false, true));
}

/// The game's name starts every line of its findings: each tag's value in
/// it is cut as a token is, or a tag of megabytes made every line as long
/// (4 MB of input gave 4 GB of output, all of it held in memory first).
#[test]
fn long_tags_are_cut_in_the_name_of_the_game() {
    let event = "é".repeat(1_000_000);
    let white = format!("W{}", "w".repeat(200));
    let input = format!("[Event \"{event}\"]\n[White \"{white}\"]\n[Round \"1\"]\n\n1. e4 (1. Ke3) (1. Ke3) *\n");
    let output = sanfen(&["check", "-"]).write_stdin(input.clone()).assert().code(1).get_output().clone();
    // é is two bytes: 80 bytes are 40 of them
    let name = format!("game 1 (W{} - ?, {}…, round 1)", "w".repeat(79) + "…", "é".repeat(40));
    let expected = format!(
        "<stdin>:1:1: {name}: warning[pgn:missing-tags]: missing Seven Tag Roster tags: Site, Date, Black, Result\n\
         <stdin>:5:11: {name}, 1. Ke3: error[san:illegal]: illegal: no king can move to e3; did you mean e3?\n\
         <stdin>:5:20: {name}, 1. Ke3: error[san:illegal]: illegal: no king can move to e3; did you mean e3?\n\
         1 games, 1 moves, 1 games with errors, 2 errors, 1 lint findings, 0 skipped, {} bytes\n",
        input.len()
    );
    assert_eq!(untimed(&output.stdout), expected);
    // the JSON report keeps the tags whole: they are data, given once a game
    let output = sanfen(&["check", "--json", "-"]).write_stdin(input).assert().code(1).get_output().clone();
    let game: serde_json::Value =
        serde_json::from_str(String::from_utf8(output.stdout).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!((game["event"].as_str(), game["white"].as_str()), (Some(event.as_str()), Some(white.as_str())));
}

/// 100 clean games, a game of more than 8 MiB (one line of movetext), and
/// a game with an error after it.
fn huge_game() -> (Vec<u8>, usize) {
    let mut input = clean_games().into_bytes();
    let start = input.len();
    input.extend_from_slice(TAGS.as_bytes());
    input.extend_from_slice(b"1. e4 {");
    input.extend(std::iter::repeat_n(b'a', Chunker::<std::io::Empty>::MAX_GAME + 1000));
    input.extend_from_slice(b"} *\n\n");
    let size = input.len() - start;
    input.extend_from_slice(TAGS.as_bytes());
    input.extend_from_slice(b"1. e4 e4 *\n");
    (input, size)
}

#[test]
fn a_game_over_the_limit_is_one_error_and_the_next_is_checked() {
    let (input, size) = huge_game();
    let path = temp_file("huge.pgn", &input);
    let path = path.to_str().unwrap();
    let expected = format!(
        "{path}:1001:1: game 101: error[pgn:too-large]: game of {size} bytes, larger than the limit of 8388608 \
         bytes: not checked (the next game starts at the next tag pair at the start of a line)\n\
         {path}:1019:7: game 102 (C - D, ?, round ?), 1... e4: error[san:illegal]: illegal: no pawn can move to e4; \
         did you mean e5, e6?\n\
         102 games, 201 moves, 2 games with errors, 2 errors, 0 lint findings, 0 skipped, {} bytes\n",
        input.len()
    );
    for jobs in ["1", "2", "3"] {
        let output = sanfen(&["check", "-j", jobs, path]).assert().code(1).get_output().clone();
        assert_eq!(untimed(&output.stdout), expected, "-j {jobs}");
    }
    // fmt writes it through unchanged, and says so
    let output = sanfen(&["fmt", path]).assert().code(1).get_output().clone();
    let huge = &input[clean_games().len()..clean_games().len() + size];
    assert!(output.stdout.windows(huge.len()).any(|w| w == huge), "the large game is written unchanged");
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        format!(
            "{path}:1001:1: game 101: game of {size} bytes, larger than the limit of 8388608 bytes (game written \
             unchanged)\n{path}:1019:7: game 102: 1... e4: illegal: no pawn can move to e4; did you mean e5, e6? \
             (game written unchanged)\n"
        )
    );
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_line_without_end_is_a_game_over_the_limit() {
    // 9 MiB of movetext with no newline, at the end of the stream
    let mut input = clean_games().into_bytes();
    let start = input.len();
    input.extend_from_slice(b"1. e4 e5 ");
    input.extend(std::iter::repeat_n(b'x', 9 << 20));
    let output = sanfen(&["check", "-"]).write_stdin(input.clone()).assert().code(1).get_output().clone();
    assert_eq!(
        untimed(&output.stdout),
        format!(
            "<stdin>:1001:1: game 101: error[pgn:too-large]: game of {} bytes, larger than the limit of 8388608 \
             bytes: not checked (the next game starts at the next tag pair at the start of a line)\n\
             101 games, 200 moves, 1 games with errors, 1 errors, 0 lint findings, 0 skipped, {} bytes\n",
            input.len() - start,
            input.len()
        )
    );
}

#[test]
fn binary_input_is_one_error() {
    let output = sanfen(&["check", "-"]).write_stdin(vec![0u8; 1 << 20]).assert().code(1).get_output().clone();
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "sanfen: <stdin>: not PGN text: binary data: 8192 of the first 8192 bytes are control bytes (the first at \
         offset 0)\n"
    );
    assert_eq!(
        untimed(&output.stdout),
        "0 games, 0 moves, 0 games with errors, 0 errors, 0 lint findings, 0 skipped, 1 file not checked to its end, \
         0 bytes\n"
    );
    // compressed zeros are told after decompression
    let zeros = gzip(&vec![0u8; 1 << 20]);
    let output = sanfen(&["check", "-"]).write_stdin(zeros).assert().code(1).get_output().clone();
    assert!(String::from_utf8(output.stderr).unwrap().starts_with("sanfen: <stdin>: not PGN text: binary data: "));
    // fmt refuses it
    let output = sanfen(&["fmt", "-"]).write_stdin(vec![0u8; 100]).assert().code(2).get_output().clone();
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "sanfen: cannot read standard input: not PGN text: binary data: 100 of the first 100 bytes are control \
         bytes (the first at offset 0)\n"
    );
    assert!(output.stdout.is_empty());
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

fn bzip2(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 1).unwrap()
}

/// A game with one error, its report, and its summary.
const BAD: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"A\"]\n[Black \"B\"]\n\
[Result \"*\"]\n\n1. e4 e4 *\n";

#[test]
fn compressed_input_is_told_by_its_first_bytes() {
    let report = |name: &str| {
        format!(
            "{name}:9:7: game 1 (A - B, ?, round ?), 1... e4: error[san:illegal]: illegal: no pawn can move to e4; \
             did you mean e5, e6?\n1 games, 1 moves, 1 games with errors, 1 errors, 0 lint \
             findings, 0 skipped, 95 bytes\n"
        )
    };
    for (format, bytes) in [("gz", gzip(BAD.as_bytes())), ("bz2", bzip2(BAD.as_bytes())), ("zst", zstd(BAD.as_bytes()))]
    {
        // on standard input
        let output = sanfen(&["check", "-"]).write_stdin(bytes.clone()).assert().code(1).get_output().clone();
        assert_eq!(untimed(&output.stdout), report("<stdin>"), "{format} on standard input");
        // in a file with a wrong extension
        let path = temp_file(&format!("{format}.txt"), &bytes);
        let name = path.to_str().unwrap();
        let output = sanfen(&["check", name]).assert().code(1).get_output().clone();
        assert_eq!(untimed(&output.stdout), report(name), "{format} as .txt");
        // fmt --in-place refuses it, whatever its name, and leaves it as it was
        let output = sanfen(&["fmt", "--in-place", name]).assert().code(2).get_output().clone();
        let data = match format {
            "gz" => "gzip",
            "bz2" => "bzip2",
            _ => "zstd",
        };
        assert_eq!(
            String::from_utf8(output.stderr).unwrap(),
            format!("sanfen: fmt --in-place cannot rewrite a compressed file: {name} ({data} data)\n")
        );
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        std::fs::remove_file(&path).unwrap();
    }
}

/// Games, so many that the gzip stream spans several chunks.
fn many_games() -> String {
    BAD.repeat(30_000)
}

#[test]
fn a_read_error_comes_after_what_was_read_whatever_the_threads() {
    let games = many_games();
    let mut compressed = gzip(games.as_bytes());
    // a gzip file followed by zero bytes: every game read, then the error
    compressed.extend_from_slice(&[0; 64]);
    let path = temp_file("zeros-after.pgn.gz", &compressed);
    let name = path.to_str().unwrap();
    let mut outputs = Vec::new();
    for jobs in ["1", "2", "3", "8"] {
        let output = sanfen(&["check", "-j", jobs, name]).assert().code(2).get_output().clone();
        let text = untimed(&output.stdout);
        assert!(text.ends_with(&format!(
            "\n30000 games, 30000 moves, 30000 games with errors, 30000 errors, 0 lint findings, 0 skipped, 1 file not \
             checked to its end, {} bytes\n",
            games.len()
        )));
        assert_eq!(
            String::from_utf8(output.stderr).unwrap(),
            format!(
                "sanfen: {name}: read failed at byte {} of the gzip stream, decompressed: invalid gzip header\n",
                games.len()
            )
        );
        outputs.push(text);
    }
    assert!(outputs.iter().all(|text| *text == outputs[0]));
    std::fs::remove_file(&path).unwrap();

    // a truncated gzip file: the games before the cut, then the error
    let compressed = gzip(games.as_bytes());
    let truncated = &compressed[..compressed.len() / 2];
    let mut outputs = Vec::new();
    for jobs in ["1", "2"] {
        let output =
            sanfen(&["check", "-j", jobs, "-"]).write_stdin(truncated.to_vec()).assert().code(2).get_output().clone();
        outputs.push((untimed(&output.stdout), String::from_utf8(output.stderr).unwrap()));
    }
    assert_eq!(outputs[0], outputs[1]);
    let (stdout, stderr) = &outputs[0];
    let read: usize = stderr
        .strip_prefix("sanfen: <stdin>: read failed at byte ")
        .and_then(|rest| rest.split_once(' '))
        .and_then(|(bytes, rest)| {
            (rest == "of the gzip stream, decompressed: incomplete deflate stream\n").then_some(bytes)
        })
        .unwrap_or_else(|| panic!("{stderr}"))
        .parse()
        .unwrap();
    // every byte read is counted, the last game as the stream left it
    assert!(read > 0 && read < games.len(), "{read}");
    let summary = stdout.lines().last().unwrap();
    assert!(summary.ends_with(&format!(" {read} bytes")), "{summary}");
}

#[test]
fn every_file_not_checked_to_its_end_is_named_on_standard_error_in_json_and_in_the_summary() {
    let good = temp_file("good.pgn", BAD.as_bytes());
    let binary = temp_file("binary.pgn", &[b"[Event \"?\"]\n".as_slice(), &[1; 100]].concat());
    let games = many_games();
    let compressed = gzip(games.as_bytes());
    let truncated = temp_file("truncated.pgn.gz", &compressed[..compressed.len() / 2]);
    let missing = std::env::temp_dir().join(format!("sanfen-check-hostile-{}-missing.pgn", std::process::id()));
    let directory = std::env::temp_dir();
    let names = [&good, &missing, &directory, &binary, &truncated].map(|path| path.to_str().unwrap());
    let [good, missing, directory, binary, truncated] = names;
    let assert = sanfen(&["check", "--json", "-j", "2", good, missing, directory, binary, truncated]).assert().code(2);
    let output = assert.get_output();
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines[..3],
        [
            format!("sanfen: {missing}: No such file or directory (os error 2)"),
            format!("sanfen: {directory}: a directory, not a PGN file"),
            format!(
                "sanfen: {binary}: not PGN text: binary data: 100 of the first 112 bytes are control bytes (the first at \
             offset 12)"
            ),
        ]
    );
    assert_eq!(lines.len(), 4, "{stderr}");
    let read: u64 = lines[3]
        .strip_prefix(&format!("sanfen: {truncated}: read failed at byte "))
        .and_then(|rest| rest.strip_suffix(" of the gzip stream, decompressed: incomplete deflate stream"))
        .unwrap_or_else(|| panic!("{stderr}"))
        .parse()
        .unwrap();
    assert!(read > 0 && read < games.len() as u64, "{read}");
    let mut objects: Vec<serde_json::Value> =
        std::str::from_utf8(&output.stdout).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let mut summary = objects.pop().unwrap();
    assert!(summary["summary"]["seconds"].as_f64().unwrap() >= 0.0);
    summary["summary"].as_object_mut().unwrap().remove("seconds");
    // the good file's game, then the truncated file's games before the cut, each with its error
    assert_eq!(objects[0]["file"], json!(good));
    let failures: Vec<_> = objects.iter().filter(|object| object.get("file_error").is_some()).collect();
    assert_eq!(
        failures,
        [
            &json!({"file": missing, "file_error": {"kind": "file:open", "offset": null,
                "message": "No such file or directory (os error 2)"}}),
            &json!({"file": directory, "file_error": {"kind": "file:open", "offset": null,
                "message": "a directory, not a PGN file"}}),
            &json!({"file": binary, "file_error": {"kind": "file:not-text", "offset": 12,
                "message": "not PGN text: binary data: 100 of the first 112 bytes are control bytes (the first at offset 12)"}}),
            &json!({"file": truncated, "file_error": {"kind": "file:read", "offset": read,
                "message": format!("read failed at byte {read} of the gzip stream, decompressed: incomplete deflate stream")}}),
        ]
    );
    // in the order the files were named, each after the games read before it
    let at = |file: &str| {
        objects.iter().position(|object| object["file"] == json!(file) && object.get("file_error").is_some())
    };
    assert_eq!([at(missing), at(directory), at(binary)], [Some(1), Some(2), Some(3)]);
    assert_eq!(at(truncated), Some(objects.len() - 1));
    // the games and counts are those of the same bytes, read whole: the
    // good file's game, then the stream up to the cut (its last game as
    // the cut left it)
    let prefix = temp_file("prefix.pgn", &games.as_bytes()[..read as usize]);
    let whole = sanfen(&["check", "--json", good, prefix.to_str().unwrap()]).assert().code(1).get_output().clone();
    std::fs::remove_file(&prefix).unwrap();
    let mut expected: Vec<serde_json::Value> =
        std::str::from_utf8(&whole.stdout).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let mut expected_summary = expected.pop().unwrap();
    expected_summary["summary"].as_object_mut().unwrap().remove("seconds");
    expected_summary["summary"]["file_errors"] = json!(4);
    assert_eq!(summary, expected_summary);
    assert!(summary["summary"]["games"].as_u64().unwrap() > 1000, "{summary}");
    assert_eq!(summary["summary"]["bytes"], json!(BAD.len() as u64 + read));
    let games_only: Vec<_> = objects.iter().filter(|object| object.get("file_error").is_none()).collect();
    assert_eq!(games_only.len(), expected.len());
    for (game, mut expected) in games_only.into_iter().zip(expected) {
        if expected["file"] != json!(good) {
            expected["file"] = json!(truncated);
        }
        assert_eq!(*game, expected);
    }

    // --quiet: the summary alone, with the count
    let output = sanfen(&["check", "--json", "--quiet", missing, good]).assert().code(2).get_output().clone();
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.starts_with(r#"{"summary":{"bytes":"#) && text.contains(r#""file_errors":1,"#), "{text}");
    // text: the summary line says it
    let output = sanfen(&["check", good, missing, directory]).assert().code(2).get_output().clone();
    assert!(untimed(&output.stdout).ends_with(&format!(
        "\n1 games, 1 moves, 1 games with errors, 1 errors, 0 lint findings, 0 skipped, 2 files not checked to their \
         end, {} bytes\n",
        BAD.len()
    )));
    let output = sanfen(&["check", binary]).assert().code(1).get_output().clone();
    assert_eq!(
        untimed(&output.stdout),
        "0 games, 0 moves, 0 games with errors, 0 errors, 0 lint findings, 0 skipped, 1 file not checked to its end, \
         0 bytes\n"
    );
    for path in [good, binary, truncated] {
        std::fs::remove_file(path).unwrap();
    }
}

#[test]
fn control_bytes_from_the_file_are_shown_escaped() {
    let input = "[Event \"\x1b]0;owned\x07\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"A\r\"]\n\
                 [Black \"B\"]\n[Result \"*\"]\n\n1. e4 \x1b[2J e5 *\n";
    let output = sanfen(&["check", "-"]).write_stdin(input).assert().code(1).get_output().clone();
    assert_eq!(
        untimed(&output.stdout),
        "<stdin>:9:7: game 1 (A\\r - B, \\x1b]0;owned\\x07, round ?), \\x1b: error[pgn:unexpected-char]: \
         unexpected character in movetext\n\
         <stdin>:9:8: game 1 (A\\r - B, \\x1b]0;owned\\x07, round ?): warning[pgn:missing-result]: no termination \
         marker (1-0, 0-1, 1/2-1/2 or *)\n\
         <stdin>:9:8: game 2, [2J e5 *: error[pgn:bad-tag]: not a tag pair [Name \"value\"]\n\
         <stdin>:9:8: game 2: warning[pgn:missing-tags]: missing Seven Tag Roster tags: Event, Site, Date, Round, \
         White, Black, Result\n\
         <stdin>:9:16: game 2: warning[pgn:missing-result]: no termination marker (1-0, 0-1, 1/2-1/2 or *)\n\
         2 games, 1 moves, 2 games with errors, 2 errors, 3 lint findings, 0 skipped, 110 bytes\n"
    );
}

#[test]
fn json_reports_escape_every_control_character_of_the_file() {
    // DEL and C1 controls (U+009B is a CSI to many terminals), which JSON
    // itself lets through, escaped too
    let input = "[Event \"a\u{9b}2Jb\u{7f}\"]\n\n1. e4 {\u{85}} e5 Nf9\u{9b} *\n";
    let output = sanfen(&["check", "--json", "-"]).write_stdin(input).assert().code(1).get_output().clone();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{text}");
    let game = text.lines().next().unwrap();
    assert!(game.contains(r#""event":"a\u009b2Jb\u007f""#), "{game}");
    assert!(game.contains(r#""token":"Nf9\u009b""#), "{game}");
    let value: serde_json::Value = serde_json::from_str(game).unwrap();
    assert_eq!(value["event"], "a\u{9b}2Jb\u{7f}");
}

/// Runs `sanfen check` with its standard output closed before it reads its
/// input: the exit code.
fn check_with_closed_output(input: Vec<u8>) -> i32 {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sanfen"))
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sanfen runs");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    // it may stop reading early
    let _ = stdin.write_all(&input);
    drop(stdin);
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    assert_eq!(stderr, "", "a closed output ends quietly");
    child.wait().unwrap().code().expect("an exit code")
}

#[test]
fn closed_output_keeps_the_verdict() {
    // every game checked (only the summary was to be written): the verdict
    assert_eq!(check_with_closed_output(CLEAN.into()), 0);
    assert_eq!(check_with_closed_output(BAD.into()), 1);
    // stopped before the end with an error seen: invalid
    assert_eq!(check_with_closed_output(many_games().into()), 1);
    // stopped before the end with only lint seen: the run did not finish
    let lint = "1. e4 e5 *\n\n".repeat(30_000);
    assert_eq!(check_with_closed_output(lint.into()), 2);
}

#[test]
fn chunker_passes_a_large_game_on_in_pieces() {
    use sanfen::pgn::reader::Location;
    let big = format!("[Event \"big\"]\n\n1. e4 {{{}}} *\n\n", "a".repeat(5000));
    let input = format!("{CLEAN}{big}{CLEAN}");
    /// Reads 100 bytes at a time.
    struct Slow<'a>(&'a [u8]);
    impl Read for Slow<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(self.0.len()).min(100);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let mut chunker = Chunker::with_target(Slow(input.as_bytes()), 1).with_limit(1000);
    let mut chunks = Vec::new();
    while let Some(chunk) = chunker.next_chunk(Vec::new()).expect("reading from memory") {
        chunks.push(chunk);
    }
    // every byte once, in order
    assert_eq!(chunks.iter().flat_map(|c| c.data.clone()).collect::<Vec<u8>>(), input.as_bytes());
    let game = Location { line: 11, column: 1, offset: CLEAN.len() as u64 };
    let pieces: Vec<_> = chunks.iter().filter(|c| c.oversized.is_some()).collect();
    assert!(pieces.len() >= 2, "{}", pieces.len());
    assert!(pieces.iter().all(|c| c.oversized.is_some_and(|o| o.game == game)));
    assert_eq!(pieces.iter().filter(|c| c.oversized.is_some_and(|o| o.last)).count(), 1);
    assert_eq!(pieces.iter().flat_map(|c| c.data.clone()).collect::<Vec<u8>>(), big.as_bytes());
    // whole games before and after
    assert_eq!((chunks[0].data.as_slice(), chunks[0].oversized), (CLEAN.as_bytes(), None));
    let last_piece = chunks.iter().position(|c| c.oversized.is_some_and(|o| o.last)).unwrap();
    let after = &chunks[last_piece + 1..];
    assert!(after.iter().all(|c| c.oversized.is_none()));
    assert_eq!(after[0].start.line, 15);
    assert_eq!(after.iter().flat_map(|c| c.data.clone()).collect::<Vec<u8>>(), CLEAN.as_bytes());
}

/// Each finding as `LINE:COL code | source line`, from the whole input and
/// from its chunks (chunks of one game each).
fn placed_findings(input: &[u8]) -> (Vec<String>, Vec<String>) {
    let options = Options { source_lines: true, ..Options::default() };
    let show = |finding: &sanfen::pgn::validate::Finding| {
        let line = finding.source_line.as_ref().expect("a source line");
        format!("{}:{} {} | {}", finding.at.line, finding.at.column, finding.kind.code(), line.text)
    };
    let mut whole = Vec::new();
    let mut reader = Reader::new(input);
    let mut validator = Validator::new(input, options);
    while let Some(report) = reader.read_game(&mut validator) {
        whole.extend(report.findings.iter().map(show));
    }
    let mut chunked = Vec::new();
    let mut chunker = Chunker::with_target(input, 1);
    let mut buffer = Vec::new();
    while let Some(chunk) = chunker.next_chunk(buffer).expect("reading from memory") {
        let mut reader = Reader::with_start(&chunk.data, chunk.start);
        let mut validator = Validator::with_base(&chunk.data, chunk.start.offset, options);
        while let Some(report) = reader.read_game(&mut validator) {
            chunked.extend(report.findings.iter().map(show));
        }
        buffer = chunk.data;
    }
    (whole, chunked)
}

#[test]
fn missing_result_after_an_unclosed_comment_is_shown_on_the_game_s_own_line() {
    let (whole, chunked) = placed_findings(b"1. e4 {\n[Event \"B\"]\n");
    let expected = [
        "1:1 pgn:missing-tags | 1. e4 {",
        "1:7 pgn:unclosed-comment | 1. e4 {",
        "1:8 pgn:missing-result | 1. e4 {",
        "2:1 pgn:missing-tags | [Event \"B\"]",
        "2:12 pgn:missing-result | [Event \"B\"]",
    ];
    assert_eq!(whole, expected);
    assert_eq!(chunked, expected);
    // a `\r\n` line end too
    let (whole, chunked) = placed_findings(b"1. e4 {\r\n[Event \"B\"]\r\n");
    assert_eq!(whole[2], "1:8 pgn:missing-result | 1. e4 {");
    assert_eq!(chunked, whole);
}

#[test]
fn source_line_after_a_byte_order_mark_is_shown_without_it() {
    let (whole, chunked) = placed_findings(b"\xef\xbb\xbf1. e4 e5 2. Ke3 *\n");
    let expected = ["1:4 pgn:missing-tags | 1. e4 e5 2. Ke3 *", "1:16 san:illegal | 1. e4 e5 2. Ke3 *"];
    assert_eq!(whole, expected);
    assert_eq!(chunked, expected);
}

/// A game of `tags` tags named `T0`, `T1`, ... up to `names` (then again
/// from `T0`), valued by their number, a blank line after each when `blank`.
fn many_tags(tags: usize, names: usize, blank: bool) -> Vec<u8> {
    let mut pgn = String::new();
    for i in 0..tags {
        pgn.push_str(&format!("[T{} \"{i}\"]\n{}", i % names, if blank { "\n" } else { "" }));
    }
    pgn.push_str("\n1. e4 *\n");
    pgn.into_bytes()
}

#[test]
fn a_game_of_300000_tags_is_read_in_time_linear_in_its_size() {
    // Each tag's name was compared with every earlier one's (to find the name
    // given again after a blank line that starts the next game, and for
    // `pgn:duplicate-tag`): hours for these games of 5 MB. (No time is
    // asserted: the test would not end.)
    let allow = ["--allow", "pgn:missing-tags", "--allow", "pgn:missing-result", "--quiet"];
    let blank = many_tags(300_000, 150_000, true);
    let again: &[u8] = b"[T0 \"150000\"]";
    let second = blank.windows(again.len()).position(|w| w == again).unwrap();
    let path = temp_file("many-tags-blank", &blank);
    for threads in ["1", "2"] {
        let out = sanfen(&["check", "-j", threads]).args(allow).arg(&path).assert().code(0);
        let summary = format!(
            "2 games, 1 moves, 0 games with errors, 0 errors, 0 lint findings, 0 skipped, {} bytes\n",
            blank.len()
        );
        assert_eq!(untimed(&out.get_output().stdout), summary);
    }
    // ranges from a quarter, a half and three quarters of the file: from a
    // quarter, in the first game's tags, the second game's first tag cannot be
    // told from one more of the first game's (the names before are unknown
    // there), so no range starts there; after the half, no game starts
    let out = sanfen(&["split", "--ranges", "4"]).arg(&path).assert().code(0);
    let end = blank.len();
    assert!(second < end / 2);
    let ranges = format!("0 {end}\n{end} {end}\n{end} {end}\n{end} {end}\n");
    assert_eq!(String::from_utf8_lossy(&out.get_output().stdout), ranges);
    std::fs::remove_file(path).unwrap();
    // no blank line: one game, and each name given again reported
    let dense = many_tags(300_000, 150_000, false);
    let path = temp_file("many-tags-dense", &dense);
    let out = sanfen(&["check"]).args(allow).arg(&path).assert().code(0);
    let summary = format!(
        "1 games, 1 moves, 0 games with errors, 0 errors, 150000 lint findings, 0 skipped, {} bytes\n",
        dense.len()
    );
    assert_eq!(untimed(&out.get_output().stdout), summary);
    let out = sanfen(&["export"]).arg(&path).assert().code(0);
    let row: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let other = row["other_tags"].as_object().unwrap();
    assert_eq!((other.len(), &other["T0"], &other["T149999"]), (150_000, &json!("150000"), &json!("299999")));
    let out = sanfen(&["fmt"]).arg(&path).assert().code(0);
    let roster = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n";
    assert!(out.get_output().stdout == [roster.as_bytes(), &dense].concat());
    std::fs::remove_file(path).unwrap();
}
