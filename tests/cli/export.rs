//! `sanfen export`: the tables' exact rows in JSON Lines and CSV, Parquet
//! read back with its schema, the same output whatever `-j`, games numbered
//! across inputs, bad inputs among good ones, and no output file left by a
//! run that fails or is interrupted.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use arrow_array::RecordBatch;
use assert_cmd::cargo::cargo_bin_cmd;

use crate::scratch::{Dir, acl, attributes, set_attribute};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use sanfen::pgn::input::Input;
use sanfen::pgn::rows::{MoveRowOptions, read_move_rows_input};
use sanfen::pgn::table::{GameTable, games_schema, moves_batch, moves_schema};

const PGN: &str = "[Event \"x\"]\n[White \"Ann\"]\n[ECO \"C20\"]\n\n\
                   1. e4 { [%clk 0:03:00] [%eval 0.25] hi } e5 2. Qh5 (2. Nf3 Nc6) Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0\n\n\
                   1. d4 d5 2. Kd3 Ke7 *\n";

fn sanfen(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("sanfen");
    cmd.args(args).timeout(Duration::from_secs(300));
    cmd
}

fn stdout_of(args: &[&str], stdin: &str) -> String {
    let output = sanfen(args).write_stdin(stdin).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_games_table_as_json_lines() {
    let out = stdout_of(&["export"], PGN);
    assert_eq!(
        out,
        "{\"file\":\"<stdin>\",\"game\":1,\"line\":1,\"byte_offset\":0,\"Event\":\"x\",\"Site\":null,\"Date\":null,\
         \"Round\":null,\"White\":\"Ann\",\"Black\":null,\"Result\":null,\"other_tags\":{\"ECO\":\"C20\"},\
         \"movetext_result\":\"1-0\",\"termination\":\"checkmate\",\"plies\":7,\"errors\":0,\"first_error\":null,\
         \"eco\":\"C20\",\"opening\":\"King's Pawn Game: Wayward Queen Attack\"}\n\
         {\"file\":\"<stdin>\",\"game\":2,\"line\":7,\"byte_offset\":134,\"Event\":null,\"Site\":null,\"Date\":null,\
         \"Round\":null,\"White\":null,\"Black\":null,\"Result\":null,\"other_tags\":{},\"movetext_result\":\"*\",\
         \"termination\":null,\"plies\":2,\"errors\":1,\
         \"first_error\":\"7:13: [san:illegal] illegal: no king can move to d3; did you mean Kd2, Qd3?\",\
         \"eco\":\"D00\",\"opening\":\"Queen's Pawn Game\"}\n"
    );
}

#[test]
fn a_game_too_large_to_read_is_a_row_with_its_error() {
    let big = format!("[Event \"big\"]\n\n1. e4 {{{}}} *\n\n", "x".repeat(8 << 20));
    let out = stdout_of(&["export", "--format", "csv"], &format!("1. d4 *\n\n{big}[Event \"after\"]\n\n1. c4 *\n"));
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(
        rows[2],
        format!(
            "<stdin>,2,3,9,,,,,,,,{{}},,,0,1,\"3:1: [pgn:too-large] game of {} bytes, larger than the limit of 8388608 \
             bytes: not checked (the next game starts at the next tag pair at the start of a line)\",,",
            big.len()
        )
    );
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(rows[3].starts_with(&format!("<stdin>,3,{},{},after,", 7, 9 + big.len())), "{}", rows[3]);
}

#[test]
fn the_moves_table_as_csv_with_fen() {
    let out = stdout_of(&["export", "--table", "moves", "--format", "csv", "--fen"], PGN);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "file,game,ply,number,side,san,uci,written,is_capture,is_check,clock,elapsed,eval_cp,eval_mate,nags,comment,fen"
    );
    assert_eq!(
        lines[1],
        "<stdin>,1,1,1,white,e4,e2e4,,false,false,180,,25,,,hi,rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(
        lines[6],
        "<stdin>,1,6,3,black,Nf6,g8f6,Nf6??,false,false,,,,,4,,r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    );
    assert_eq!(
        lines[7],
        "<stdin>,1,7,4,white,Qxf7#,h5f7,,true,true,,,,,,,r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
    );
    // the second game's moves up to the one that cannot be played
    assert_eq!(
        lines[8..].iter().map(|line| &line[..20]).collect::<Vec<_>>(),
        ["<stdin>,2,1,1,white,", "<stdin>,2,2,1,black,"]
    );
    assert_eq!(lines.len(), 10);
}

#[test]
fn variations_come_with_their_paths() {
    let out = stdout_of(&["export", "--table", "moves", "--variations"], PGN);
    let rows: Vec<serde_json::Value> = out.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let got: Vec<(u64, &str, &str)> = rows
        .iter()
        .map(|row| (row["game"].as_u64().unwrap(), row["path"].as_str().unwrap(), row["san"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            (1, "", "e4"),
            (1, "", "e5"),
            (1, "", "Qh5"),
            (1, "3.1", "Nf3"),
            (1, "3.1", "Nc6"),
            (1, "", "Nc6"),
            (1, "", "Bc4"),
            (1, "", "Nf6"),
            (1, "", "Qxf7#"),
            (2, "", "d4"),
            (2, "", "d5"),
        ]
    );
    assert_eq!((rows[0]["eval_cp"].as_i64(), rows[0]["comment"].as_str()), (Some(25), Some("hi")));
}

#[test]
fn options_of_the_moves_table_are_refused_for_the_games_table() {
    let output = sanfen(&["export", "--fen"]).write_stdin(PGN).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "sanfen: --fen is an option of the moves table: add --table moves\n"
    );
    let output = sanfen(&["export", "-o", "games.txt"]).write_stdin(PGN).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "sanfen: cannot tell the format of games.txt by its extension: give --format parquet, csv or jsonl\n"
    );
    assert!(!Path::new("games.txt").exists());
}

/// The record batches of a Parquet file.
fn read_parquet(path: &str) -> Vec<RecordBatch> {
    let file = fs::File::open(path).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file).unwrap().build().unwrap();
    reader.map(Result::unwrap).collect()
}

/// One batch of all of `batches`.
fn concat(batches: &[RecordBatch]) -> RecordBatch {
    arrow_select::concat::concat_batches(&batches[0].schema(), batches).unwrap()
}

/// A few real files, one after another.
fn data_files() -> Vec<String> {
    [
        "tcec/TCEC_Season_13_-_Superfinal.pgn",
        "python-chess/kasparov-deep-blue-1997.pgn",
        "python-chess/nepomniachtchi-liren-game1.pgn",
    ]
    .iter()
    .map(|name| crate_root().join("../shared/data/pgn").join(name).to_string_lossy().into_owned())
    .filter(|path| Path::new(path).exists())
    .collect()
}

fn crate_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn parquet_reads_back_as_the_librarys_tables_whatever_the_threads() {
    let dir = Dir::new("parquet");
    let files = data_files();
    assert!(files.len() >= 2, "{files:?}");
    let options = MoveRowOptions { fen: true, variations: false, ..MoveRowOptions::default() };
    // what the library builds, the games numbered from 1 in each file
    let mut expected_moves = Vec::new();
    let mut expected_games = GameTable::new();
    for file in &files {
        let input = Input::open(std::ffi::OsStr::new(file)).unwrap();
        let mut games = 0;
        for rows in read_move_rows_input(input, 1, options).unwrap() {
            let rows = rows.unwrap();
            games += rows.games;
            if !rows.is_empty() {
                expected_moves.push(moves_batch(rows, file, &moves_schema(options)).unwrap());
            }
        }
        let mut number = 0;
        for game in sanfen::pgn::read_games_path(file).unwrap() {
            number += 1;
            expected_games.push(file, number, &game.unwrap());
        }
        assert_eq!(number, games);
    }
    let expected_moves = concat(&expected_moves);
    let expected_games = expected_games.finish().unwrap();
    let mut outputs = Vec::new();
    for jobs in ["1", "2", "3"] {
        let moves = dir.path(&format!("moves-{jobs}.parquet"));
        let mut args = vec!["export", "--table", "moves", "--fen", "-j", jobs, "-o", &moves];
        args.extend(files.iter().map(String::as_str));
        sanfen(&args).assert().success().stdout("").stderr("");
        let got = concat(&read_parquet(&moves));
        assert_eq!(got.schema(), moves_schema(options), "-j {jobs}");
        for (i, field) in got.schema().fields().iter().enumerate() {
            assert_eq!(got.column(i), expected_moves.column(i), "-j {jobs}: {}", field.name());
        }
        let games_path = dir.path(&format!("games-{jobs}.parquet"));
        let mut args = vec!["export", "-j", jobs, "-o", &games_path];
        args.extend(files.iter().map(String::as_str));
        sanfen(&args).assert().success();
        let got = concat(&read_parquet(&games_path));
        assert_eq!(got.schema(), games_schema(), "-j {jobs}");
        for (i, field) in got.schema().fields().iter().enumerate() {
            assert_eq!(got.column(i), expected_games.column(i), "-j {jobs}: {}", field.name());
        }
        outputs.push((fs::read(&moves).unwrap(), fs::read(&games_path).unwrap()));
    }
    // byte for byte the same files
    assert!(outputs.windows(2).all(|w| w[0] == w[1]));
    // no temporary file left beside them
    assert!(dir.names().iter().all(|name| name.ends_with(".parquet")), "{:?}", dir.names());
}

#[test]
fn every_codec_writes_the_same_table_whatever_the_threads() {
    let dir = Dir::new("codecs");
    let files = data_files();
    let file = files.first().expect("a data file");
    let table = |codec: &str, table: &str, jobs: &str| {
        let path = dir.path(&format!("{table}-{codec}-{jobs}.parquet"));
        let mut args = vec!["export", "--table", table, "-j", jobs, "-o", &path, file];
        if codec != "default" {
            args.extend(["--compression", codec]);
        }
        sanfen(&args).assert().success().stdout("").stderr("");
        (concat(&read_parquet(&path)), fs::read(&path).unwrap())
    };
    for name in ["games", "moves"] {
        let (expected, default) = table("default", name, "1");
        assert!(expected.num_rows() >= 100, "{name}");
        assert_eq!(table("snappy", name, "1").1, default, "{name}: snappy is the default");
        for codec in ["zstd", "lz4", "gzip", "none"] {
            let (got, bytes) = table(codec, name, "1");
            assert_eq!(got, expected, "{name} {codec}");
            assert_ne!(bytes.len(), default.len(), "{name} {codec}");
            assert_eq!(table(codec, name, "2").1, bytes, "{name} {codec}: -j 2");
        }
    }
}

/// A zstd, gzip or bzip2 file's text.
fn decompressed(bytes: &[u8]) -> String {
    let mut text = String::new();
    if bytes.starts_with(&[0x1f, 0x8b]) {
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(bytes), &mut text).unwrap();
        text
    } else if bytes.starts_with(b"BZh") {
        std::io::Read::read_to_string(&mut bzip2::read::BzDecoder::new(bytes), &mut text).unwrap();
        text
    } else {
        String::from_utf8(zstd::decode_all(bytes).unwrap()).unwrap()
    }
}

#[test]
fn csv_and_json_lines_are_compressed_as_their_name_or_compression_says() {
    let dir = Dir::new("text-codecs");
    let files = data_files();
    let file = files.first().expect("a data file");
    for format in ["csv", "jsonl"] {
        let plain = sanfen(&["export", "--table", "moves", "--format", format, file]).output().unwrap();
        assert_eq!(plain.status.code(), Some(0));
        let plain = String::from_utf8(plain.stdout).unwrap();
        assert!(plain.lines().count() > 1000, "{format}");
        for (name, extension, args) in [
            ("a", "gz", &[][..]),
            ("b", "zst", &[][..]),
            ("c", "zst", &["--compression", "zstd", "--compression-level", "19"][..]),
            ("d", "gz", &["--compression", "gzip", "--compression-level", "1"][..]),
            // the codec told by the name, the level given
            ("e", "zst", &["--compression-level", "19"][..]),
            ("f", "gz", &["--compression-level", "1"][..]),
            ("g", "bz2", &[][..]),
            ("h", "bz2", &["--compression", "bzip2", "--compression-level", "1"][..]),
        ] {
            let path = dir.path(&format!("moves-{name}.{format}.{extension}"));
            let mut all = vec!["export", "--table", "moves", "-j", "2", "-o", &path, file];
            all.extend(args);
            sanfen(&all).assert().success().stdout("").stderr("");
            let bytes = fs::read(&path).unwrap();
            assert!(bytes.len() < plain.len() / 2, "{path}");
            assert_eq!(decompressed(&bytes), plain, "{path}");
            // the same file whatever -j (zstd's threads too)
            let one = dir.path(&format!("moves-{name}-j1.{format}.{extension}"));
            all[4] = "1";
            all[6] = &one;
            sanfen(&all).assert().success();
            assert!(fs::read(&one).unwrap() == bytes, "{one}");
        }
        // a level for the codec the name tells is the level --compression takes
        let read =
            |name: &str, extension: &str| fs::read(dir.path(&format!("moves-{name}.{format}.{extension}"))).unwrap();
        assert!(read("e", "zst") == read("c", "zst"), "{format}");
        assert!(read("f", "gz") == read("d", "gz"), "{format}");
        assert!(read("e", "zst") != read("b", "zst"), "{format}");
        // bzip2 9 by default: its blocks of 900 kB, 1 of 100 kB
        assert_eq!((&read("g", "bz2")[..4], &read("h", "bz2")[..4]), (&b"BZh9"[..], &b"BZh1"[..]), "{format}");
        // to standard output: as --compression says
        let piped = sanfen(&["export", "--table", "moves", "--format", format, "--compression", "gzip", file])
            .output()
            .unwrap();
        assert_eq!(decompressed(&piped.stdout), plain, "{format}");
        // a device takes what --compression says, whatever its name
        let args = ["export", "--table", "moves", "--format", format, "--compression", "zstd", "-o", "/dev/stdout"];
        let device = sanfen(&args).arg(file).output().unwrap();
        assert_eq!(device.status.code(), Some(0), "{}", String::from_utf8_lossy(&device.stderr));
        assert_eq!(decompressed(&device.stdout), plain, "{format}");
    }
    let path = |name: &str| dir.path(name);
    for (args, message) in [
        (
            vec!["-o", &path("t.parquet.gz")],
            format!(
                "{}: Parquet compresses its pages, not the file: name it .parquet (and choose --compression)",
                path("t.parquet.gz")
            ),
        ),
        (
            vec!["-o", &path("t.csv.gz"), "--compression", "zstd"],
            format!("{}: the name says gzip, --compression says zstd", path("t.csv.gz")),
        ),
        (
            vec!["-o", &path("t.csv"), "--compression", "gzip"],
            format!("{}: the name says no compression, --compression says gzip", path("t.csv")),
        ),
        (
            vec!["-o", &path("t.jsonl.zst"), "--compression", "none"],
            format!("{}: the name says zstd, --compression says no compression", path("t.jsonl.zst")),
        ),
        (
            vec!["--format", "csv", "--compression", "lz4"],
            "--compression lz4 is for Parquet's pages: CSV and JSON Lines files take zstd, gzip, bzip2 or none"
                .to_owned(),
        ),
        (
            vec!["-o", &path("t.parquet"), "--compression", "bzip2"],
            "--compression bzip2 is for CSV and JSON Lines files: Parquet's pages take snappy, zstd, lz4, gzip or none"
                .to_owned(),
        ),
        (
            vec!["-o", &path("t.csv.bz2"), "--compression-level", "0"],
            "--compression-level 0: bzip2 levels go from 1 to 9".to_owned(),
        ),
        (
            vec!["--compression", "none", "--compression-level", "1"],
            "none has no levels: --compression-level is for zstd and gzip".to_owned(),
        ),
        (
            vec!["-o", &path("t.csv.zst"), "--compression", "zstd", "--compression-level", "23"],
            "--compression-level 23: zstd levels go from 1 to 22".to_owned(),
        ),
        (
            vec!["-o", &path("t.csv.gz"), "--compression-level", "10"],
            "--compression-level 10: gzip levels go from 0 to 9".to_owned(),
        ),
        (
            vec!["-o", &path("t.csv"), "--compression-level", "3"],
            "--compression-level 3: the output is not compressed (name it .zst, .gz or .bz2, or give --compression)"
                .to_owned(),
        ),
        (
            vec!["--format", "jsonl", "--compression-level", "3"],
            "--compression-level 3: the output is not compressed (name it .zst, .gz or .bz2, or give --compression)"
                .to_owned(),
        ),
        (
            vec!["-o", &path("t.parquet"), "--compression-level", "3"],
            "snappy has no levels: --compression-level is for zstd and gzip".to_owned(),
        ),
        (
            vec!["-o", &path("t.parquet"), "--format", "csv"],
            format!("{}: the name says Parquet, --format says CSV", path("t.parquet")),
        ),
        (
            vec!["-o", &path("t.csv.gz"), "--format", "jsonl"],
            format!("{}: the name says CSV, --format says JSON Lines", path("t.csv.gz")),
        ),
    ] {
        let output = sanfen(&[&["export"], &args[..]].concat()).write_stdin(PGN).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&output.stderr), format!("sanfen: {message}\n"));
        assert!(output.stdout.is_empty());
    }
    // nothing left of the refused runs
    let names = dir.names();
    assert!(names.iter().all(|name| name.starts_with("moves-")), "{names:?}");
    assert_eq!(names.len(), 32);
}

#[test]
fn zstd_and_gzip_take_a_level_and_the_others_refuse_one() {
    let dir = Dir::new("levels");
    let files = data_files();
    let file = files.first().expect("a data file");
    let table = |args: &[&str]| {
        let path = dir.path(&format!("moves{}.parquet", args.join("")));
        let mut all = vec!["export", "--table", "moves", "-o", &path, file];
        all.extend(args);
        sanfen(&all).assert().success().stdout("").stderr("");
        (concat(&read_parquet(&path)), fs::metadata(&path).unwrap().len())
    };
    let (expected, _) = table(&[]);
    let sizes: Vec<u64> = [["zstd", "1"], ["zstd", "19"], ["gzip", "1"], ["gzip", "9"]]
        .iter()
        .map(|[codec, level]| {
            let (got, size) = table(&["--compression", codec, "--compression-level", level]);
            assert_eq!(got, expected, "{codec} {level}");
            size
        })
        .collect();
    // the levels are given to the codecs: a higher one makes a smaller file
    assert!(sizes[1] < sizes[0] && sizes[3] < sizes[2], "{sizes:?}");
    // level 1 is zstd's default
    assert_eq!(table(&["--compression", "zstd"]).1, sizes[0]);
    for (args, message) in [
        (["zstd", "0"], "--compression-level 0: zstd levels go from 1 to 22"),
        (["zstd", "23"], "--compression-level 23: zstd levels go from 1 to 22"),
        (["gzip", "10"], "--compression-level 10: gzip levels go from 0 to 9"),
        (["snappy", "1"], "snappy has no levels: --compression-level is for zstd and gzip"),
        (["none", "1"], "none has no levels: --compression-level is for zstd and gzip"),
    ] {
        let path = dir.path("refused.parquet");
        let all = ["export", "-o", &path, "--compression", args[0], "--compression-level", args[1], file];
        let output = sanfen(&all).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&output.stderr), format!("sanfen: {message}\n"));
        assert!(!Path::new(&path).exists());
    }
}

#[test]
fn parquet_keeps_minimum_and_maximum_but_for_the_text_of_moves() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::file::statistics::Statistics;
    let dir = Dir::new("statistics");
    let moves = dir.path("moves.parquet");
    sanfen(&["export", "--table", "moves", "-o", &moves, "-"]).write_stdin(PGN).assert().success();
    let reader = SerializedFileReader::new(fs::File::open(&moves).unwrap()).unwrap();
    let group = reader.metadata().row_group(0);
    macro_rules! range {
        ($s:expr) => {
            format!("{:?}..{:?}", $s.min_opt(), $s.max_opt())
        };
    }
    let mut statistics = Vec::new();
    for column in group.columns() {
        let range = match column.statistics() {
            Some(Statistics::Int64(s)) => range!(s),
            Some(Statistics::Int32(s)) => range!(s),
            Some(Statistics::Double(s)) => range!(s),
            Some(Statistics::Boolean(s)) => range!(s),
            Some(Statistics::ByteArray(s)) => {
                let text =
                    |value: Option<&parquet::data_type::ByteArray>| value.map(|v| v.as_utf8().unwrap().to_owned());
                format!("{:?}..{:?}", text(s.min_opt()), text(s.max_opt()))
            }
            Some(other) => panic!("{}: {other:?}", column.column_path()),
            None => "none".to_owned(),
        };
        statistics.push(format!("{} {range}", column.column_path().string()));
    }
    assert_eq!(
        statistics,
        [
            "file Some(\"<stdin>\")..Some(\"<stdin>\")",
            "game Some(1)..Some(2)",
            "ply Some(1)..Some(7)",
            "number Some(1)..Some(4)",
            "side none",
            "san none",
            "uci none",
            "written none",
            "is_capture Some(false)..Some(true)",
            "is_check Some(false)..Some(true)",
            "clock Some(180.0)..Some(180.0)",
            "elapsed None..None",
            "eval_cp Some(25)..Some(25)",
            "eval_mate None..None",
            "nags.list.item Some(4)..Some(4)",
            "comment none",
        ]
    );
}

#[test]
fn text_output_is_the_same_whatever_the_threads() {
    let files = data_files();
    for format in ["csv", "jsonl"] {
        for table in ["games", "moves"] {
            let run = |jobs: &str| {
                let mut args = vec!["export", "--format", format, "--table", table, "-j", jobs];
                args.extend(files.iter().map(String::as_str));
                let output = sanfen(&args).output().unwrap();
                assert_eq!(output.status.code(), Some(0));
                output.stdout
            };
            let one = run("1");
            assert!(one.len() > 10_000, "{format} {table}");
            if format == "jsonl" {
                // numbered from 1 in each file, each game once
                let rows: Vec<serde_json::Value> =
                    String::from_utf8_lossy(&one).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
                for file in &files {
                    let mut numbers: Vec<u64> = rows
                        .iter()
                        .filter(|row| row["file"] == file.as_str())
                        .map(|row| row["game"].as_u64().unwrap())
                        .collect();
                    assert!(numbers.is_sorted(), "{table}");
                    numbers.dedup();
                    assert_eq!(numbers.first(), Some(&1), "{table} {file}");
                    assert!(numbers.windows(2).all(|w| w[1] == w[0] + 1) || table == "moves", "{table}");
                }
            }
            assert_eq!(one, run("2"), "{format} {table}");
            assert_eq!(one, run("3"), "{format} {table}");
        }
    }
}

#[test]
fn bad_inputs_are_reported_by_name_and_the_others_exported() {
    let dir = Dir::new("bad");
    let good = dir.file("good.pgn", PGN.as_bytes());
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    for i in 0..300 {
        write!(gz, "[Event \"{i}\"]\n\n1. e4 {{ game {i} }} e5 *\n\n").unwrap();
        gz.flush().unwrap();
    }
    let gz = gz.finish().unwrap();
    let truncated = dir.file("truncated.pgn.gz", &gz[..gz.len() / 2]);
    let binary = dir.file("binary.pgn", &[0u8, 1, 2, 3, 0xff, 0xfe, 0, 0, 7].repeat(100));
    let missing = dir.path("missing.pgn");
    let sub = dir.path("sub");
    fs::create_dir(&sub).unwrap();
    let out = dir.path("games.jsonl");
    let output = sanfen(&["export", "-o", &out, &good, &truncated, &binary, &missing, &sub, &good]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 4, "{stderr}");
    assert!(
        lines[0].starts_with(&format!("sanfen: {truncated}: cannot read the input: read failed at byte ")),
        "{stderr}"
    );
    assert!(lines[0].ends_with(" of the gzip stream, decompressed: incomplete deflate stream"), "{stderr}");
    assert!(lines[1].starts_with(&format!("sanfen: {binary}: not PGN text: binary data")), "{stderr}");
    assert_eq!(lines[2], format!("sanfen: {missing}: No such file or directory (os error 2)"));
    assert_eq!(lines[3], format!("sanfen: {sub}: a directory, not a PGN file"));
    let rows: Vec<serde_json::Value> =
        fs::read_to_string(&out).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    // both good files, and the whole games before the truncation
    let files: Vec<&str> = rows.iter().map(|row| row["file"].as_str().unwrap()).collect();
    assert_eq!(files.iter().filter(|file| **file == good).count(), 4);
    let from_truncated: Vec<&str> =
        rows.iter().filter(|row| row["file"] == truncated.as_str()).map(|row| row["Event"].as_str().unwrap()).collect();
    assert!(from_truncated.len() > 100 && from_truncated.len() < 300, "{}", from_truncated.len());
    let events: Vec<String> = (0..from_truncated.len()).map(|i| i.to_string()).collect();
    assert_eq!(from_truncated, events);
    let numbers: Vec<u64> = rows.iter().map(|row| row["game"].as_u64().unwrap()).collect();
    let truncated_numbers: Vec<u64> = (1..=from_truncated.len() as u64).collect();
    assert_eq!(numbers, [&[1, 2][..], &truncated_numbers, &[1, 2]].concat());
}

#[test]
fn a_device_or_fifo_is_written_as_it_is_and_a_full_disk_is_an_error() {
    let output = sanfen(&["export", "--format", "jsonl", "-o", "/dev/full"]).write_stdin(PGN).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "sanfen: /dev/full: No space left on device (os error 28)\n");
    let dir = Dir::new("dir");
    let output =
        sanfen(&["export", "--format", "csv", "-o", dir.0.to_str().unwrap()]).write_stdin(PGN).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!("sanfen: {}: a directory: not written\n", dir.0.display())
    );
    // an output that fails part way, on one thread and when a thread of its
    // own writes (with more than one): one message, the write's, whichever
    // thread saw it fail
    let many = "[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n".repeat(60_000);
    for (table, format) in [("moves", "parquet"), ("games", "parquet"), ("moves", "csv"), ("games", "jsonl")] {
        for jobs in ["1", "3"] {
            let args = ["export", "--table", table, "--format", format, "-j", jobs, "-o", "/dev/full"];
            let output = sanfen(&args).write_stdin(many.as_str()).output().unwrap();
            assert_eq!(output.status.code(), Some(2), "{args:?}");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(stderr, "sanfen: /dev/full: No space left on device (os error 28)\n", "{args:?}");
        }
    }
    // a FIFO takes the format given, whatever its name says
    let fifo = dir.path("live.parquet");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = std::thread::spawn({
        let fifo = fifo.clone();
        move || fs::read_to_string(fifo).unwrap()
    });
    sanfen(&["export", "--format", "csv", "-o", &fifo]).write_stdin(PGN).assert().code(0).stderr("");
    assert!(reader.join().unwrap().starts_with("file,game,line,byte_offset,Event,"));
}

#[test]
fn an_interrupted_export_leaves_no_file() {
    let dir = Dir::new("interrupted");
    let out = dir.path("moves.parquet");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sanfen"))
        .args(["export", "--table", "moves", "-o", &out, "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // enough games to make a row group, then the input stays open
    stdin.write_all(PGN.repeat(20_000).as_bytes()).unwrap();
    stdin.flush().unwrap();
    let started = Instant::now();
    while dir.names().is_empty() && started.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let names = dir.names();
    assert!(names.len() == 1 && names[0].starts_with(".sanfen-export-"), "{names:?}");
    std::thread::sleep(Duration::from_millis(300));
    assert!(Command::new("kill").arg("-TERM").arg(child.id().to_string()).status().unwrap().success());
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(143));
    assert_eq!(String::from_utf8_lossy(&output.stderr), format!("sanfen: {out}: interrupted (SIGTERM): not written\n"));
    assert_eq!(dir.names(), Vec::<String>::new());
}

#[test]
fn an_input_is_never_written_over() {
    let dir = Dir::new("input-output");
    let pgn = dir.file("games.pgn", PGN.as_bytes());
    // named, named through another path, and redirected to standard input
    let other_path = format!("{}/../{}/games.pgn", dir.0.display(), dir.0.file_name().unwrap().to_str().unwrap());
    for (output, inputs, named) in [
        (pgn.as_str(), vec![pgn.as_str()], pgn.clone()),
        (other_path.as_str(), vec!["missing.pgn", pgn.as_str()], pgn.clone()),
        (pgn.as_str(), vec![], "standard input".to_owned()),
        (pgn.as_str(), vec!["-"], "standard input".to_owned()),
    ] {
        let args = [&["export", "--format", "csv", "-o", output][..], &inputs].concat();
        let output_ = Command::new(env!("CARGO_BIN_EXE_sanfen"))
            .args(&args)
            .stdin(fs::File::open(&pgn).unwrap())
            .output()
            .unwrap();
        assert_eq!(output_.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&output_.stderr),
            format!("sanfen: {output} is also an input ({named}): not written over (choose another --output)\n")
        );
        assert_eq!(fs::read_to_string(&pgn).unwrap(), PGN, "{args:?}");
    }
    assert_eq!(dir.names(), ["games.pgn"]);
}

#[test]
fn output_dash_is_standard_output() {
    let dir = Dir::new("dash");
    let pgn = dir.file("games.pgn", PGN.as_bytes());
    let output = sanfen(&["export", "-o", "-", &pgn]).current_dir(&dir.0).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(String::from_utf8(output.stdout).unwrap(), stdout_of(&["export", &pgn], ""));
    assert_eq!(dir.names(), ["games.pgn"]);
}

#[test]
fn a_reader_that_stops_ends_a_parquet_export_quietly() {
    // as `sanfen export --format parquet | head -c 4` does
    let mut child = Command::new(env!("CARGO_BIN_EXE_sanfen"))
        .args(["export", "--table", "moves", "--format", "parquet", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // more than a pipe holds; the export may stop reading early
        let _ = stdin.write_all(PGN.repeat(20_000).as_bytes());
    });
    let mut magic = [0; 4];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut magic).unwrap();
    assert_eq!(&magic, b"PAR1");
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    assert_eq!(output.status.code(), Some(0));
}

/// A new output file gets the mode any program's new file gets: 0666 less
/// the umask, or what the directory's default ACL says, the umask ignored
/// (regression: the mode was computed from the umask and set, which
/// narrowed the ACL's mask).
#[test]
fn a_new_file_has_the_mode_the_kernel_gives() {
    use std::os::unix::fs::MetadataExt;
    let dir = Dir::new("new-mode");
    let pgn = dir.file("games.pgn", PGN.as_bytes());
    let export = |output: &str, umask: &str| {
        let script = format!("umask {umask} && exec \"$0\" export --format csv -o \"$1\" \"$2\"");
        let output =
            Command::new("sh").args(["-c", &script, env!("CARGO_BIN_EXE_sanfen"), output, &pgn]).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&output.stderr), "");
        assert_eq!(output.status.code(), Some(0));
    };
    let mode = |path: &str| fs::metadata(path).unwrap().mode() & 0o7777;
    for (umask, wanted) in [("022", 0o644), ("027", 0o640), ("077", 0o600)] {
        let path = dir.path(&format!("umask-{umask}.csv"));
        export(&path, umask);
        assert_eq!(mode(&path), wanted, "umask {umask}");
    }
    let shared = dir.0.join("shared");
    fs::create_dir(&shared).unwrap();
    // owner rw, the user 1234 rw, group r, mask rw, others nothing
    if set_attribute(&shared, "system.posix_acl_default", &acl(6, 6, 4, 6, 0)).is_ok() {
        let path = shared.join("table.csv");
        let path = path.to_str().unwrap();
        export(path, "077");
        assert_eq!(mode(path), 0o660);
        let given: Vec<(String, Vec<u8>)> =
            attributes(Path::new(path)).into_iter().filter(|(name, _)| name == "system.posix_acl_access").collect();
        assert_eq!(given, [("system.posix_acl_access".to_owned(), acl(6, 6, 4, 6, 0))]);
    } else {
        eprintln!("a_new_file_has_the_mode_the_kernel_gives: default ACLs not tested: none here");
    }
    assert_eq!(dir.names(), ["games.pgn", "shared", "umask-022.csv", "umask-027.csv", "umask-077.csv"]);
}

#[test]
fn a_file_there_is_replaced_as_it_is_or_refused() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = Dir::new("replaced");
    let pgn = dir.file("games.pgn", PGN.as_bytes());
    let table = stdout_of(&["export", "--format", "csv", &pgn], "");
    let export = |output: &str| sanfen(&["export", "--format", "csv", "-o", output, &pgn]).output().unwrap();
    // a symbolic link: its target is replaced, with its mode; the link stays
    let target = dir.file("target.csv", b"old\n");
    fs::set_permissions(&target, fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.path("link.csv");
    std::os::unix::fs::symlink("target.csv", &link).unwrap();
    let output = export(&link);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(fs::read_link(&link).unwrap(), Path::new("target.csv"));
    assert_eq!(fs::read_to_string(&target).unwrap(), table);
    assert_eq!(fs::metadata(&target).unwrap().mode() & 0o7777, 0o600);
    // its extended attributes kept, where the file system has them: a user
    // attribute and an ACL (regression: the new file had none)
    let shared = dir.file("shared.csv", b"old\n");
    if set_attribute(Path::new(&shared), "user.origin", b"export").is_ok() {
        set_attribute(Path::new(&shared), "system.posix_acl_access", &acl(6, 6, 4, 6, 4)).unwrap();
        let before = attributes(Path::new(&shared));
        assert_eq!(before.len(), 2);
        assert_eq!(export(&shared).status.code(), Some(0));
        assert_eq!(fs::read_to_string(&shared).unwrap(), table);
        assert_eq!(attributes(Path::new(&shared)), before);
        // the ACL's mask is the mode's group bits
        assert_eq!(fs::metadata(&shared).unwrap().mode() & 0o7777, 0o664);
    } else {
        eprintln!("a_file_there_is_replaced_as_it_is_or_refused: extended attributes not tested: none here");
    }
    // refused, the file left as it was
    let read_only = dir.file("read-only.csv", b"old\n");
    fs::set_permissions(&read_only, fs::Permissions::from_mode(0o444)).unwrap();
    let linked = dir.file("linked.csv", b"old\n");
    fs::hard_link(&linked, dir.path("other-name.csv")).unwrap();
    let dangling = dir.path("dangling.csv");
    std::os::unix::fs::symlink("nothing.csv", &dangling).unwrap();
    for (path, message) in [
        (&read_only, "read-only (mode 0444): not replaced"),
        (&linked, "2 names (hard links): the others would keep the old content: not replaced"),
        (&dangling, "a symbolic link to no file: not written"),
    ] {
        let output = export(path);
        assert_eq!(output.status.code(), Some(2), "{path}");
        assert_eq!(String::from_utf8_lossy(&output.stderr), format!("sanfen: {path}: {message}\n"));
    }
    assert_eq!(fs::read_to_string(&read_only).unwrap(), "old\n");
    assert_eq!(fs::read_to_string(&linked).unwrap(), "old\n");
    assert!(!Path::new(&dir.path("nothing.csv")).exists());
    if fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0) {
        // as root: another user's file is refused; a file of another group
        // keeps it
        let other = dir.file("other.csv", b"old\n");
        std::os::unix::fs::chown(&other, Some(65534), Some(65534)).unwrap();
        let output = export(&other);
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            format!("sanfen: {other}: owned by user 65534: not replaced\n")
        );
        assert_eq!(fs::read_to_string(&other).unwrap(), "old\n");
        let group = dir.file("group.csv", b"old\n");
        std::os::unix::fs::chown(&group, None, Some(65534)).unwrap();
        assert_eq!(export(&group).status.code(), Some(0));
        assert_eq!(fs::read_to_string(&group).unwrap(), table);
        assert_eq!(fs::metadata(&group).unwrap().gid(), 65534);
    }
    // no temporary file left
    assert!(dir.names().iter().all(|name| !name.starts_with(".sanfen")), "{:?}", dir.names());
}

#[test]
fn moves_parquet_comes_in_row_groups_of_at_most_2_20_rows_the_same_whatever_j() {
    use arrow_array::{StringArray, UInt32Array, UInt64Array};
    use parquet::arrow::ProjectionMask;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let dir = Dir::new("row-groups");
    // 1,100,000 moves: 10 plies in each of 110,000 games
    let game = "[Event \"g\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n\n";
    let input = dir.path("many.pgn");
    fs::write(&input, game.repeat(110_000)).unwrap();
    let mut files = Vec::new();
    for jobs in ["1", "3"] {
        let out = dir.path(&format!("moves-{jobs}.parquet"));
        sanfen(&["export", "--table", "moves", "--no-progress", "-j", jobs, "-o", &out, &input]).assert().success();
        files.push(out);
    }
    assert!(fs::read(&files[0]).unwrap() == fs::read(&files[1]).unwrap(), "-j 1 and -j 3 write other files");
    let reader = SerializedFileReader::new(fs::File::open(&files[0]).unwrap()).unwrap();
    let metadata = reader.metadata();
    let rows: Vec<i64> = (0..metadata.num_row_groups()).map(|i| metadata.row_group(i).num_rows()).collect();
    // as many chunks of the input (a megabyte each, some 140,000 moves) as
    // fit in 2^20 rows, then the others
    assert_eq!((rows.len(), rows.iter().sum::<i64>()), (2, 1_100_000), "{rows:?}");
    assert!(rows[0] <= 1 << 20 && rows[0] > (1 << 20) - 200_000, "{rows:?}");
    // every row in its place: the games numbered on across the row groups
    let builder = ParquetRecordBatchReaderBuilder::try_new(fs::File::open(&files[0]).unwrap()).unwrap();
    let columns = ProjectionMask::leaves(builder.parquet_schema(), [1, 2, 5]);
    let reader = builder.with_projection(columns).with_batch_size(1 << 21).build().unwrap();
    let batch = concat(&reader.map(Result::unwrap).collect::<Vec<_>>());
    let game = batch.column(0).as_any().downcast_ref::<UInt64Array>().unwrap();
    let ply = batch.column(1).as_any().downcast_ref::<UInt32Array>().unwrap();
    let san = batch.column(2).as_any().downcast_ref::<StringArray>().unwrap();
    let sans = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"];
    for i in 0..1_100_000 {
        let expected = (i as u64 / 10 + 1, i as u32 % 10 + 1, sans[i % 10]);
        assert_eq!((game.value(i), ply.value(i), san.value(i)), expected, "row {i}");
    }
}

#[test]
fn a_game_whose_rows_come_in_parts_is_exported_whole_whatever_j() {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{UInt32Type, UInt64Type};
    // 400,000 knight moves with their FEN: more rows than a reading thread
    // holds at once (they come in parts of about 32 MB), between two short
    // games; every move in its place, numbered on across the parts
    let dir = Dir::new("parts");
    let input = dir.path("long.pgn");
    let long = "Nf3 Nf6 Ng1 Ng8 ".repeat(100_000);
    fs::write(&input, format!("1. e4 *\n\n{long}*\n\n1. d4 d5 *\n")).unwrap();
    let run = |jobs: &str| {
        let out = sanfen(&["export", "--table", "moves", "--format", "csv", "--fen", "-j", jobs, &input]).output();
        let out = out.unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let one = run("1");
    let lines: Vec<&str> = one.lines().collect();
    assert_eq!(lines.len(), 1 + 1 + 400_000 + 2);
    let file = &input;
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert_eq!(lines[1], format!("{file},1,1,1,white,e4,e2e4,,false,false,,,,,,,{after_e4}"));
    let positions = [
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq -",
        "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq -",
        "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq -",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    ];
    let moves =
        [("white", "Nf3", "g1f3"), ("black", "Nf6", "g8f6"), ("white", "Ng1", "f3g1"), ("black", "Ng8", "f6g8")];
    for (i, line) in lines[2..400_002].iter().enumerate() {
        let ply = i + 1;
        let (side, san, uci) = moves[i % 4];
        let fen = format!("{} {} {}", positions[i % 4], ply, ply / 2 + 1);
        let expected = format!("{file},2,{ply},{},{side},{san},{uci},,false,false,,,,,,,{fen}", i / 2 + 1);
        assert_eq!(*line, expected, "row {ply}");
    }
    assert!(lines[400_002].starts_with(&format!("{file},3,1,1,white,d4,")), "{}", lines[400_002]);
    assert!(lines[400_003].starts_with(&format!("{file},3,2,1,black,d5,")), "{}", lines[400_003]);
    assert!(one == run("3"), "-j 1 and -j 3 write other rows");
    // Parquet: the same rows, the same file whatever -j
    let mut files = Vec::new();
    for jobs in ["1", "3"] {
        let out = dir.path(&format!("moves-{jobs}.parquet"));
        sanfen(&["export", "--table", "moves", "--fen", "--no-progress", "-j", jobs, "-o", &out, &input])
            .assert()
            .success();
        files.push(out);
    }
    assert!(fs::read(&files[0]).unwrap() == fs::read(&files[1]).unwrap(), "-j 1 and -j 3 write other files");
    let batch = concat(&read_parquet(&files[0]));
    let text = |name: &str| batch.column_by_name(name).unwrap().as_string::<i32>().clone();
    let (san, fen) = (text("san"), text("fen"));
    let game = batch.column_by_name("game").unwrap().as_primitive::<UInt64Type>().clone();
    let ply = batch.column_by_name("ply").unwrap().as_primitive::<UInt32Type>().clone();
    assert_eq!(batch.num_rows(), 400_003);
    for (i, line) in lines[1..].iter().enumerate() {
        let row = format!("{},{},{},{}", game.value(i), ply.value(i), san.value(i), fen.value(i));
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(row, [fields[1], fields[2], fields[5], fields[16]].join(","), "row {i}");
    }
}

#[test]
fn export_reads_the_piece_letters_of_a_language() {
    // the same game in Portuguese letters (C cavalo, T torre, D dama, R rei) and in English
    let portuguese = "[Event \"pt\"]\n\n1. e4 e5 2. Cf3 Cc6 3. Bb5 a6 4. O-O Cf6 5. Te1 d6 6. d4 Dd7 7. h3 Rd8 *\n";
    let english = "[Event \"pt\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 5. Re1 d6 6. d4 Qd7 7. h3 Kd8 *\n";
    let rows = |args: &[&str], pgn: &str| -> Vec<serde_json::Value> {
        stdout_of(args, pgn).lines().map(|line| serde_json::from_str(line).unwrap()).collect()
    };
    let moves = rows(&["export", "--table", "moves", "--letters", "pt"], portuguese);
    let english_moves = rows(&["export", "--table", "moves"], english);
    assert_eq!(moves.len(), 14);
    let written: Vec<&str> = moves.iter().filter_map(|row| row["written"].as_str()).collect();
    assert_eq!(written, ["Cf3", "Cc6", "Cf6", "Te1", "Dd7", "Rd8"]);
    for (row, english_row) in moves.iter().zip(&english_moves) {
        let without_written = |row: &serde_json::Value| {
            let mut row = row.clone();
            row.as_object_mut().unwrap().remove("written");
            row
        };
        assert_eq!(without_written(row), without_written(english_row));
    }
    // the games table: the game whole, as in English; without the letters, an error at Cf3
    let games = rows(&["export", "--letters", "pt"], portuguese);
    assert_eq!((games[0]["plies"].as_u64(), games[0]["errors"].as_u64()), (Some(14), Some(0)));
    assert_eq!(games[0]["opening"], rows(&["export"], english)[0]["opening"]);
    let games = rows(&["export"], portuguese);
    assert_eq!((games[0]["plies"].as_u64(), games[0]["errors"].as_u64()), (Some(2), Some(1)));
}
