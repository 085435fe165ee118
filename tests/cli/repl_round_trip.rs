//! Every game of three real PGN files loaded into the REPL (`load FILE N`)
//! and saved (`save FILE`) reads back as it was: the same tags, moves,
//! comments, NAGs, variations and result (compared with the PGN reader).

use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use sanfen::Move;
use sanfen::pgn::{Game, Line};

/// What a line holds, without locations and spellings: its comments and
/// NAGs, and for each move the move, its NAGs, comments and variations.
#[derive(Debug, PartialEq, Eq)]
struct Shape {
    comments: Vec<String>,
    nags: Vec<u8>,
    moves: Vec<MoveShape>,
}

/// A move, its NAGs, its comments and its variations.
type MoveShape = (Option<Move>, Vec<u8>, Vec<String>, Vec<Shape>);

fn shape(line: &Line) -> Shape {
    Shape {
        comments: line.comments.iter().map(|c| c.text().to_owned()).collect(),
        nags: line.nags.to_vec(),
        moves: line
            .moves
            .iter()
            .map(|node| {
                let comments = node.comments.iter().map(|c| c.text().to_owned()).collect();
                (node.played, node.nags.to_vec(), comments, node.variations.iter().map(shape).collect())
            })
            .collect(),
    }
}

fn games(path: &Path) -> Vec<Game> {
    sanfen::pgn::read_games_path(path).unwrap().collect::<Result<Vec<_>, _>>().unwrap()
}

fn round_trip(file: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pgn").join(file);
    let originals = games(&path);
    assert!(originals.len() >= 3, "{file}");
    let dir = std::env::temp_dir().join(format!("sanfen-round-trip-{}-{}", std::process::id(), file.replace('/', "-")));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let saved = |n: usize| -> PathBuf { dir.join(format!("game {n}.pgn")) };
    let mut input = String::new();
    for n in 1..=originals.len() {
        input.push_str(&format!("load \"{}\" {n}\nsave \"{}\"\n", path.display(), saved(n).display()));
    }
    let output = cargo_bin_cmd!("sanfen").arg("repl").write_stdin(input).assert().code(0).get_output().clone();
    let stdout = String::from_utf8(output.stdout).unwrap();
    for (index, original) in originals.iter().enumerate() {
        let n = index + 1;
        let plies = original.mainline.moves.len();
        assert!(stdout.contains(&format!("saved {plies} moves to {}", saved(n).display())), "{file} {n}: {stdout}");
        let back = games(&saved(n));
        assert_eq!(back.len(), 1, "{file} {n}");
        let back = &back[0];
        assert_eq!(back.tags, original.tags, "{file} {n}: tags");
        assert_eq!(back.result, original.result, "{file} {n}: result");
        assert_eq!(back.start, original.start, "{file} {n}: starting position");
        assert_eq!(shape(&back.mainline), shape(&original.mainline), "{file} {n}: movetext");
        assert_eq!(back.report.errors, 0, "{file} {n}: {:?}", back.report.findings);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn world_championship_games_with_clocks_come_back_from_load_and_save() {
    round_trip("scalachess/wcc2023.txt");
}

#[test]
fn chess960_engine_games_with_evaluations_come_back_from_load_and_save() {
    round_trip("tcec/TCEC_Season_16_-_Frc_Sufi.pgn");
}

#[test]
fn annotated_games_come_back_from_load_and_save() {
    round_trip("python-chess/kasparov-deep-blue-1997.pgn");
}
