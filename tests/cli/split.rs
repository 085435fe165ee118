//! `sanfen split`: exact ranges and parts of a small file, the parts of a
//! data file and of compressed files one after another equal to the input,
//! and the refusals (an existing part, a directory, a missing file,
//! standard input, `--ranges` on compressed data), each naming the file,
//! with exit code 2 and nothing written (nor a directory left made).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin_cmd;

use crate::scratch::Dir;

/// Three games: 27, 25 and 21 bytes; tag lines at 27 and 52.
const PGN: &str = "[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n\n1. d4 d5 *\n\n[Event \"C\"]\n\n1. c4 *\n";

fn sanfen(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("sanfen");
    cmd.args(args).timeout(Duration::from_secs(120));
    cmd
}

fn stdout_of(cmd: &mut assert_cmd::Command) -> String {
    let output = cmd.output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn ranges_of_a_small_file() {
    let dir = Dir::new("ranges");
    let file = dir.file("games.pgn", PGN.as_bytes());
    // offsets 24 and 48: the tag lines at 27 and 52
    sanfen(&["split", "--ranges", "3", &file]).assert().code(0).stdout("0 27\n27 52\n52 73\n").stderr("");
    // offsets 14, 29, 43, 58: two ranges empty
    sanfen(&["split", "--ranges", "5", &file]).assert().code(0).stdout("0 27\n27 52\n52 52\n52 73\n73 73\n");
    sanfen(&["split", "--ranges", "1", &file]).assert().code(0).stdout("0 73\n");
    // a number mistyped, zeros too many: refused before any work
    for n in ["1000001", "1000000000000", "0"] {
        sanfen(&["split", "--ranges", n, &file]).assert().code(2).stdout("").stderr(format!(
            "error: invalid value '{n}' for '--ranges <N>': expected a number of ranges from 1 to 1000000 (one a \
             worker)\n\nFor more information, try '--help'.\n"
        ));
    }
    sanfen(&["split", "--ranges", "2", "--json", &file])
        .assert()
        .code(0)
        .stdout("[{\"start\":0,\"end\":52},{\"start\":52,\"end\":73}]\n")
        .stderr("");
    // nothing written
    assert_eq!(dir.names(), ["games.pgn"]);
}

#[test]
fn parts_of_a_small_file() {
    let dir = Dir::new("parts");
    let file = dir.file("games.pgn", PGN.as_bytes());
    let out = dir.path("out");
    fs::create_dir(&out).unwrap();
    // offset 36: the part ends at the tag line at 52
    let stdout = stdout_of(&mut sanfen(&["split", "--parts", "2", "--output", &out, &file]));
    assert_eq!(stdout, format!("{out}/games-001.pgn: 52 bytes, 0..52\n{out}/games-002.pgn: 21 bytes, 52..73\n"));
    assert_eq!(fs::read_to_string(format!("{out}/games-001.pgn")).unwrap(), &PGN[..52]);
    assert_eq!(fs::read_to_string(format!("{out}/games-002.pgn")).unwrap(), &PGN[52..]);
    // the current directory by default; parts of at least 20 bytes
    let stdout = stdout_of(sanfen(&["split", "--size", "20", "games.pgn"]).current_dir(&dir.0));
    assert_eq!(
        stdout,
        "games-001.pgn: 27 bytes, 0..27\ngames-002.pgn: 25 bytes, 27..52\ngames-003.pgn: 21 bytes, 52..73\n"
    );
    assert_eq!(dir.names(), ["games-001.pgn", "games-002.pgn", "games-003.pgn", "games.pgn", "out"]);
    assert_eq!(dir.concat(&dir.names()[..3]), PGN.as_bytes());
    // what is there already is refused
    sanfen(&["split", "--parts", "2", "--output", &out, &file]).assert().code(2).stdout("").stderr(format!(
        "sanfen: {out}/games-001.pgn: exists already: not overwritten (nothing written; remove it or choose another \
         --output)\n"
    ));
    // 100 parts at most: three digits still (offsets 0, 1, ...: each game
    // a part)
    let other = dir.path("other");
    fs::create_dir(&other).unwrap();
    let stdout = stdout_of(&mut sanfen(&["split", "--parts", "100", "--output", &other, "--", &file]));
    assert_eq!(
        stdout,
        format!(
            "{other}/games-001.pgn: 27 bytes, 0..27\n{other}/games-002.pgn: 25 bytes, 27..52\n\
             {other}/games-003.pgn: 21 bytes, 52..73\n"
        )
    );
    // a thousand: four
    stdout_of(&mut sanfen(&["split", "--parts", "1000", "--output", &other, "--", &file]));
    assert!(Path::new(&other).join("games-0003.pgn").exists());
    // a directory named and missing is made
    let nested = dir.path("new/deeper");
    let stdout = stdout_of(&mut sanfen(&["split", "--parts", "2", "--output", &nested, &file]));
    assert_eq!(stdout, format!("{nested}/games-001.pgn: 52 bytes, 0..52\n{nested}/games-002.pgn: 21 bytes, 52..73\n"));
}

#[test]
fn parts_of_a_data_file_are_the_file() {
    let data_file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pgn/tcec/TCEC_Cup_14_Final.pgn");
    let data = fs::read(&data_file).unwrap();
    for args in [["--parts", "7"], ["--size", "100K"], ["--size", "1M"], ["--parts", "1"]] {
        let dir = Dir::new("data");
        let out = dir.0.to_string_lossy().into_owned();
        let stdout = stdout_of(&mut sanfen(&["split", args[0], args[1], "-o", &out, data_file.to_str().unwrap()]));
        let names = dir.names();
        assert!(names.iter().all(|name| name.starts_with("TCEC_Cup_14_Final-") && name.ends_with(".pgn")));
        assert_eq!(dir.concat(&names), data, "{args:?}");
        // one line per part: its name, size and offsets
        let mut start = 0;
        let mut expected = String::new();
        for name in &names {
            let size = fs::metadata(dir.0.join(name)).unwrap().len();
            expected.push_str(&format!("{}: {size} bytes, {start}..{}\n", dir.path(name), start + size));
            start += size;
        }
        assert_eq!(stdout, expected, "{args:?}");
        match args {
            ["--parts", n] => assert_eq!(names.len(), n.parse::<usize>().unwrap(), "{args:?}"),
            // 2 MB in parts of 100 KiB and 1 MiB (games of tens of KB:
            // parts larger than that; the file's last line end goes with
            // the last game, no part of its own)
            ["--size", "100K"] => assert_eq!(names.len(), 16),
            _ => assert_eq!(names.len(), 2),
        }
    }
}

#[test]
fn compressed_input_is_split_decompressed() {
    let dir = Dir::new("compressed");
    let pgn = PGN.repeat(100);
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gzip.write_all(pgn.as_bytes()).unwrap();
    let gz = dir.file("many.pgn.gz", &gzip.finish().unwrap());
    let zst = dir.file("other.pgn.zst", &zstd::encode_all(pgn.as_bytes(), 3).unwrap());
    let out = dir.path("parts");
    fs::create_dir(&out).unwrap();
    let stdout = stdout_of(&mut sanfen(&["split", "--parts", "3", "-o", &out, &gz]));
    // 7300 bytes: offsets 2433 and 4866, the tag lines after them (games
    // of 73 bytes from 0, with tag lines 27 and 52 bytes in)
    assert_eq!(
        stdout,
        format!(
            "{out}/many-001.pgn: 2436 bytes, 0..2436\n{out}/many-002.pgn: 2434 bytes, 2436..4870\n\
             {out}/many-003.pgn: 2430 bytes, 4870..7300\n"
        )
    );
    stdout_of(&mut sanfen(&["split", "--size", "1K", "-o", &out, &zst]));
    let dir = Dir(PathBuf::from(&out));
    let names = dir.names();
    let many: Vec<String> = names.iter().filter(|n| n.starts_with("many-")).cloned().collect();
    let other: Vec<String> = names.iter().filter(|n| n.starts_with("other-")).cloned().collect();
    assert_eq!(many.len(), 3);
    assert_eq!(other.len(), 7);
    assert_eq!(dir.concat(&many), pgn.as_bytes());
    assert_eq!(dir.concat(&other), pgn.as_bytes());
}

/// A gzip, bzip2 or zstd part's text.
fn decompressed(path: &Path) -> Vec<u8> {
    let bytes = fs::read(path).unwrap();
    let mut text = Vec::new();
    if path.extension().is_some_and(|e| e == "gz") {
        std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(&bytes[..]), &mut text).unwrap();
    } else if path.extension().is_some_and(|e| e == "bz2") {
        std::io::Read::read_to_end(&mut bzip2::read::MultiBzDecoder::new(&bytes[..]), &mut text).unwrap();
    } else {
        text = zstd::decode_all(&bytes[..]).unwrap();
    }
    text
}

#[test]
fn compressed_parts_are_the_input_once_decompressed() {
    let dir = Dir::new("compressed-parts");
    let file = dir.file("games.pgn", PGN.as_bytes());
    let out = dir.path("out");
    // offset 36: the part ends at the tag line at 52
    let stdout = stdout_of(&mut sanfen(&["split", "--parts", "2", "--compression", "zstd", "--output", &out, &file]));
    let size = |name: &str| fs::metadata(format!("{out}/{name}")).unwrap().len();
    assert_eq!(
        stdout,
        format!(
            "{out}/games-001.pgn.zst: 52 bytes, 0..52, {} bytes compressed\n\
             {out}/games-002.pgn.zst: 21 bytes, 52..73, {} bytes compressed\n",
            size("games-001.pgn.zst"),
            size("games-002.pgn.zst")
        )
    );
    let part = |name: &str| decompressed(&Path::new(&out).join(name));
    assert_eq!(part("games-001.pgn.zst"), &PGN.as_bytes()[..52]);
    assert_eq!(part("games-002.pgn.zst"), &PGN.as_bytes()[52..]);
    // each zstd frame has its checksum (the frame header's flag)
    let frame = fs::read(format!("{out}/games-001.pgn.zst")).unwrap();
    assert_eq!((&frame[..4], frame[4] & 0b100), (&[0x28, 0xb5, 0x2f, 0xfd][..], 0b100));
    // the same split again: refused by the compressed parts there, nothing written
    let output = sanfen(&["split", "--parts", "2", "--compression", "zstd", "--output", &out, &file]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!(
            "sanfen: {out}/games-001.pgn.zst: exists already: not overwritten (nothing written; remove it or choose \
             another --output)\n"
        )
    );
    // gzip parts beside them (other names), from a data file
    let data_file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pgn/tcec/TCEC_Cup_14_Final.pgn");
    let data = fs::read(&data_file).unwrap();
    let mut totals = Vec::new();
    for level in ["1", "9"] {
        let out = dir.path(&format!("gzip-{level}"));
        let args = ["split", "--size", "300K", "--compression", "gzip", "--compression-level", level, "-o", &out];
        stdout_of(sanfen(&args).arg(&data_file));
        let mut paths: Vec<PathBuf> = fs::read_dir(&out).unwrap().map(|entry| entry.unwrap().path()).collect();
        paths.sort();
        assert_eq!(paths.len(), 7, "{paths:?}");
        for path in &paths {
            let name = path.file_name().unwrap().to_string_lossy();
            assert!(name.starts_with("TCEC_Cup_14_Final-") && name.ends_with(".pgn.gz"), "{name}");
        }
        let text: Vec<u8> = paths.iter().flat_map(|path| decompressed(path)).collect();
        assert_eq!(text, data, "level {level}");
        totals.push(paths.iter().map(|path| fs::metadata(path).unwrap().len()).sum::<u64>());
    }
    // the level is the compressor's: 9 makes smaller parts than 1
    assert!(totals[1] < totals[0], "{totals:?}");
    // bzip2 parts, at bzip2's own default level (9: blocks of 900 kB)
    let out_bz2 = dir.path("bzip2");
    stdout_of(sanfen(&["split", "--size", "300K", "--compression", "bzip2", "-o", &out_bz2]).arg(&data_file));
    let mut paths: Vec<PathBuf> = fs::read_dir(&out_bz2).unwrap().map(|entry| entry.unwrap().path()).collect();
    paths.sort();
    assert_eq!(paths.len(), 7, "{paths:?}");
    for path in &paths {
        assert!(path.to_string_lossy().ends_with(".pgn.bz2"), "{path:?}");
        assert_eq!(&fs::read(path).unwrap()[..4], b"BZh9", "{path:?}");
    }
    assert_eq!(paths.iter().flat_map(|path| decompressed(path)).collect::<Vec<u8>>(), data);
    // the parts, compressed, read as the input reads
    let check = |path: &str| {
        stdout_of(sanfen(&["check", "--quiet"]).arg(path)).split(", ").take(2).collect::<Vec<_>>().join(", ")
    };
    assert_eq!(check(&format!("{out}/games-001.pgn.zst")), "2 games, 4 moves");
}

#[test]
fn zstd_parts_are_the_same_whatever_the_threads() {
    // 8 MB in 2 parts: each some 2 zstd jobs of 2 MiB at level 1
    let data_file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pgn/stockfish-books/8moves_v3.pgn");
    let dir = Dir::new("zstd-threads");
    let parts = |jobs: &str| {
        let out = dir.path(&format!("j{jobs}"));
        let args =
            ["split", "--parts", "2", "--compression", "zstd", "--compression-level", "1", "-j", jobs, "-o", &out];
        stdout_of(sanfen(&args).arg(&data_file));
        let mut paths: Vec<PathBuf> = fs::read_dir(&out).unwrap().map(|entry| entry.unwrap().path()).collect();
        paths.sort();
        let names: Vec<String> = paths.iter().map(|path| path.file_name().unwrap().to_string_lossy().into()).collect();
        assert_eq!(names, ["8moves_v3-001.pgn.zst", "8moves_v3-002.pgn.zst"]);
        paths.iter().map(|path| fs::read(path).unwrap()).collect::<Vec<_>>()
    };
    let one = parts("1");
    let text: Vec<u8> = one.iter().flat_map(|part| zstd::decode_all(&part[..]).unwrap()).collect();
    assert_eq!(text, fs::read(&data_file).unwrap());
    for jobs in ["2", "3"] {
        assert!(parts(jobs) == one, "-j {jobs}");
    }
}

#[test]
fn an_existing_part_is_never_overwritten() {
    let dir = Dir::new("existing");
    let file = dir.file("games.pgn", PGN.as_bytes());
    dir.file("games-002.pgn", b"mine");
    dir.file("games-004.pgn", b"mine too");
    let out = dir.0.to_string_lossy().into_owned();
    sanfen(&["split", "--size", "20", "-o", &out, &file]).assert().code(2).stdout("").stderr(format!(
        "sanfen: {out}/games-002.pgn: exists already: not overwritten (nothing written; remove it or choose another \
         --output)\n"
    ));
    assert_eq!(dir.names(), ["games-002.pgn", "games-004.pgn", "games.pgn"]);
    assert_eq!(fs::read(dir.0.join("games-002.pgn")).unwrap(), b"mine");
    // names the run cannot write are no obstacle: 4 parts at most here
    sanfen(&["split", "--parts", "3", "-o", &out, &file]).assert().code(2);
    fs::remove_file(dir.0.join("games-002.pgn")).unwrap();
    stdout_of(&mut sanfen(&["split", "--parts", "3", "-o", &out, &file]));
    assert_eq!(dir.names(), ["games-001.pgn", "games-002.pgn", "games-003.pgn", "games-004.pgn", "games.pgn"]);
    assert_eq!(fs::read(dir.0.join("games-004.pgn")).unwrap(), b"mine too");
}

#[test]
fn refusals_name_the_file() {
    let dir = Dir::new("refusals");
    let file = dir.file("games.pgn", PGN.as_bytes());
    let missing = dir.path("missing.pgn");
    let here = dir.path("");
    let under_file = format!("{file}/parts");
    let cases: [(&[&str], String); 8] = [
        (&["--parts", "2", &here], format!("sanfen: {here}: a directory, not a PGN file\n")),
        (&["--ranges", "2", &here], format!("sanfen: {here}: a directory, not a PGN file\n")),
        (&["--parts", "2", &missing], format!("sanfen: {missing}: No such file or directory (os error 2)\n")),
        (&["--ranges", "2", &missing], format!("sanfen: {missing}: No such file or directory (os error 2)\n")),
        (
            &["--parts", "2", "-"],
            "sanfen: split needs a file: standard input cannot be read twice nor by ranges (save it to a file \
             first)\n"
                .to_owned(),
        ),
        (&["--parts", "2", "-o", &under_file, &file], format!("sanfen: {under_file}: Not a directory (os error 20)\n")),
        (
            &["--parts", "2", "-o", &file, &file],
            format!("sanfen: {file}: not a directory: the parts go into a directory\n"),
        ),
        (
            &["--parts", "2", "/dev/null"],
            "sanfen: /dev/null: not a regular file: split reads files it can read again\n".to_owned(),
        ),
    ];
    for (args, stderr) in cases {
        let mut all = vec!["split"];
        all.extend(args);
        sanfen(&all).assert().code(2).stdout("").stderr(stderr);
    }
    assert_eq!(dir.names(), ["games.pgn"]);
}

#[test]
fn ranges_of_compressed_data_are_refused() {
    let dir = Dir::new("ranges-compressed");
    let zst = dir.file("games.pgn.zst", &zstd::encode_all(PGN.as_bytes(), 3).unwrap());
    // told by the bytes, whatever the name
    let hidden = dir.file("games.pgn", &zstd::encode_all(PGN.as_bytes(), 3).unwrap());
    for file in [zst, hidden] {
        sanfen(&["split", "--ranges", "2", &file]).assert().code(2).stdout("").stderr(format!(
            "sanfen: {file}: zstd data: --ranges needs an uncompressed file (a byte range of compressed data cannot \
             be read on its own); split it into files with --parts or --size, or decompress it first\n"
        ));
    }
}

#[test]
fn bad_input_is_refused_before_anything_is_written() {
    let dir = Dir::new("bad");
    let binary = dir.file("binary.pgn", &[0; 100]);
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gzip.write_all(PGN.repeat(1000).as_bytes()).unwrap();
    let mut truncated = gzip.finish().unwrap();
    truncated.truncate(truncated.len() / 2);
    let truncated = dir.file("truncated.pgn.gz", &truncated);
    let empty = dir.file("empty.pgn", b"");
    let out = dir.0.to_string_lossy().into_owned();
    sanfen(&["split", "--parts", "2", "-o", &out, &binary]).assert().code(2).stdout("").stderr(format!(
        "sanfen: {binary}: not PGN text: binary data: 100 of the first 100 bytes are control bytes (the first at \
         offset 0)\n"
    ));
    sanfen(&["split", "--ranges", "2", &binary]).assert().code(2).stdout("").stderr(format!(
        "sanfen: {binary}: not PGN text: binary data: 100 of the first 100 bytes are control bytes (the first at \
         offset 0)\n"
    ));
    // the directories made for the parts (as `mkdir -p` makes them) are
    // removed when no part is written: here two levels, then one
    let made = dir.path("new/parts");
    let output = sanfen(&["split", "--size", "1K", "-o", &made, &truncated]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with(&format!("sanfen: {truncated}: read failed at byte "))
            && stderr.contains("of the gzip stream"),
        "{stderr}"
    );
    assert_eq!(dir.names(), ["binary.pgn", "empty.pgn", "truncated.pgn.gz"]);
    // `new` there before the run stays; through `..`, `x`, `x/y` and `x/z`
    // are made, and removed where they are
    fs::create_dir(dir.path("new")).unwrap();
    for made in [made, dir.path("x/y/../z")] {
        sanfen(&["split", "--parts", "2", "-o", &made, &empty])
            .assert()
            .code(0)
            .stdout("")
            .stderr(format!("sanfen: {empty}: empty: no part written\n"));
        assert_eq!(dir.names(), ["binary.pgn", "empty.pgn", "new", "truncated.pgn.gz"], "{made}");
    }
    assert!(fs::read_dir(dir.path("new")).unwrap().next().is_none());
}

#[test]
fn compression_levels_out_of_range_are_refused() {
    for (codec, level, message) in [
        ("zstd", "0", "--compression-level 0: zstd levels go from 1 to 22"),
        ("zstd", "23", "--compression-level 23: zstd levels go from 1 to 22"),
        ("gzip", "10", "--compression-level 10: gzip levels go from 0 to 9"),
    ] {
        let dir = Dir::new("levels");
        let file = dir.file("games.pgn", PGN.as_bytes());
        let args =
            ["split", "--parts", "2", "--compression", codec, "--compression-level", level, "-o", &dir.path("out")];
        sanfen(&args).arg(&file).assert().code(2).stdout("").stderr(format!("sanfen: {message}\n"));
        assert_eq!(dir.names(), ["games.pgn"]);
    }
}

#[test]
fn usage_errors() {
    for args in [
        &["split", "games.pgn"][..],
        &["split", "--parts", "2", "--size", "1K", "games.pgn"],
        &["split", "--ranges", "2", "-o", "out", "games.pgn"],
        &["split", "--parts", "2", "--json", "games.pgn"],
        &["split", "--parts", "0", "games.pgn"],
        &["split", "--size", "1.5M", "games.pgn"],
        &["split", "--parts", "2"],
        &["split", "--ranges", "2", "--compression", "zstd", "games.pgn"],
        &["split", "--parts", "2", "--compression-level", "3", "games.pgn"],
        &["split", "--parts", "2", "--compression", "lz4", "games.pgn"],
    ] {
        let output = sanfen(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&output.stderr).starts_with("error: "), "{args:?}");
    }
}

#[test]
fn a_count_of_parts_or_ranges_that_is_no_count_is_said_so() {
    for (option, value, expected) in [
        ("--parts", "0", "expected a number of parts from 1"),
        ("--parts", "x", "expected a number of parts from 1"),
        ("--parts", "99999999999999999999", "expected a number of parts from 1"),
        ("--ranges", "0", "expected a number of ranges from 1 to 1000000 (one a worker)"),
        ("--ranges", "1000001", "expected a number of ranges from 1 to 1000000 (one a worker)"),
    ] {
        let output = sanfen(&["split", option, value, "games.pgn"]).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{option} {value}");
        let first = String::from_utf8_lossy(&output.stderr).lines().next().unwrap_or_default().to_owned();
        assert_eq!(first, format!("error: invalid value '{value}' for '{option} <N>': {expected}"));
    }
}

/// A run interrupted by a signal removes the part being written and the
/// directories it made that hold nothing, says which part was not written,
/// and exits with 128 + the signal's number; parts already complete stay.
#[test]
fn an_interrupted_split_says_which_part_is_not_written_and_leaves_no_trace() {
    let dir = Dir::new("interrupted");
    let games =
        fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pgn/tcec/TCEC_Season_1_-_Elite-Match.pgn"))
            .expect("../shared/data beside the repository");
    // about 40 MB: one bzip2 part takes seconds
    let input = dir.path("big.pgn");
    fs::write(&input, games.repeat(40_000_000 / games.len() + 1)).unwrap();
    let out = dir.path("made/parts");
    let child = Command::new(env!("CARGO_BIN_EXE_sanfen"))
        .args(["split", "--parts", "1", "--compression", "bzip2", "-o", &out, &input])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let temporary = |name: &String| name.starts_with(".sanfen-split-");
    let writing = || {
        fs::read_dir(&out)
            .is_ok_and(|mut names| names.any(|n| temporary(&n.unwrap().file_name().into_string().unwrap())))
    };
    while !writing() && started.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(Command::new("kill").arg("-INT").arg(child.id().to_string()).status().unwrap().success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!("sanfen: {out}/big-001.pgn.bz2: interrupted (SIGINT): not written\n")
    );
    // the directories made are gone: nothing of the run is left
    assert_eq!(dir.names(), ["big.pgn"]);
}
