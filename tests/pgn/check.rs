//! The PGN validator over every PGN file of `../shared/data/pgn`: game, move,
//! error, lint and skip counts per file, the exact location of every error,
//! and injected errors in clean games, each with its exact diagnostic; and
//! whole inputs checked through the library's front door (`pgn::check_path`,
//! `pgn::check_reader`): input order whatever the threads, compressed input,
//! read failures, byte order marks.

use std::io::{Cursor, Read, Write};
use std::path::PathBuf;

use sanfen::Severity;
use sanfen::pgn::check::{Part, Report, Summary as CheckSummary};
use sanfen::pgn::chunk::Chunker;
use sanfen::pgn::input::{Compression, Input};
use sanfen::pgn::reader::Reader;
use sanfen::pgn::validate::{Finding, GameReport, Options, Validator};
use sanfen::pgn::{CheckError, CheckOptions, Checks, check_path, check_reader};

use crate::common;

fn data(name: &str) -> PathBuf {
    common::pgn_root().join(name)
}

/// What a file gives: counts, and every error as (game, line, column, code, token).
#[derive(Debug, Default, PartialEq, Eq)]
struct Summary {
    games: u64,
    moves: u64,
    errors: u64,
    lints: u64,
    skipped: u64,
    error_list: Vec<(u64, u32, u32, String, String)>,
}

fn check_bytes(bytes: &[u8]) -> (Summary, Vec<GameReport>) {
    let mut summary = Summary::default();
    let mut reports = Vec::new();
    let mut chunker = Chunker::new(bytes);
    let mut buffer = Vec::new();
    while let Some(chunk) = chunker.next_chunk(buffer).expect("reading a slice") {
        let mut validator = Validator::with_base(&chunk.data, chunk.start.offset, Options::default());
        let mut reader = Reader::with_start(&chunk.data, chunk.start);
        while let Some(report) = reader.read_game(&mut validator) {
            summary.games += 1;
            summary.moves += report.moves;
            summary.errors += u64::from(report.errors);
            summary.lints += u64::from(report.lints);
            summary.skipped += u64::from(report.skipped.is_some());
            for f in report.findings.iter().filter(|f| f.severity() == Severity::Error) {
                summary.error_list.push((
                    summary.games,
                    f.at.line,
                    f.at.column,
                    f.kind.code().to_owned(),
                    f.token.clone(),
                ));
            }
            reports.push(report);
        }
        // text after the chunk's last game, which no game of the chunk takes
        for f in validator.take_outside() {
            match f.severity() {
                Severity::Error => summary.errors += 1,
                Severity::Warning => summary.lints += 1,
            }
        }
        buffer = chunk.data;
    }
    (summary, reports)
}

fn check_file(name: &str) -> (Summary, Vec<GameReport>) {
    let bytes = std::fs::read(data(name)).unwrap_or_else(|err| panic!("{name}: {err}"));
    check_bytes(&bytes)
}

/// Every finding of one game as `LINE:COL code token: message [suggestion]`.
fn lines_of(report: &GameReport) -> Vec<String> {
    report
        .findings
        .iter()
        .map(|f: &Finding| {
            let suggestion = f.kind.suggestion().map(|s| format!(" [{s}]")).unwrap_or_default();
            format!("{}:{} {} {}: {}{suggestion}", f.at.line, f.at.column, f.kind.code(), f.token, f.kind)
        })
        .collect()
}

/// (file, games, moves played, errors, lint findings, games skipped). Zero
/// errors wherever python-chess reads a file without error (SOURCES.md);
/// errors in `chess.js/0.pgn` (`<br />` where lines should end: one line of
/// eight games with `<br` tokens), `badpgn.pgn` (34 bytes of junk) and the
/// two lichess-practice studies with illegal moves; every game of a variant
/// sanfen does not play skipped (crazyhouse, atomic, antichess, S-chess,
/// sittuyin). Lint: missing Seven Tag Roster tags (every game of the opening
/// books and studies), `N...` missing after comments (TCEC), UCI movetext
/// (`uci-moves.pgn`: every move), missing results (header-only files), `;`
/// comments between games (two TCEC files: two lines after every game), ...
const FILES: &[(&str, u64, u64, u64, u64, u64)] = &[
    ("chess.js/0.pgn", 8, 0, 9, 23, 0),
    ("chess.js/1.pgn", 1, 81, 0, 0, 0),
    ("chess.js/2.pgn", 1, 4, 0, 0, 0),
    ("chess.js/3.pgn", 1, 4, 0, 1, 0),
    ("chess.js/benchmark.pgn", 100, 6193, 0, 0, 0),
    ("chessops/headers-and-moves-on-the-same-line.pgn", 3, 0, 0, 6, 3),
    ("chessops/leading-whitespace.pgn", 4, 20, 0, 8, 0),
    ("chessops/pathological-headers.pgn", 1, 0, 0, 2, 0),
    ("notnil-chess/0001.pgn", 1, 89, 0, 0, 0),
    ("notnil-chess/0002.pgn", 1, 149, 0, 2, 0),
    ("notnil-chess/0003.pgn", 1, 8, 0, 0, 0),
    ("notnil-chess/0004.pgn", 1, 26, 0, 0, 0),
    ("notnil-chess/0005.pgn", 1, 153, 0, 1, 0),
    ("notnil-chess/0006.pgn", 5, 391, 0, 5, 0),
    ("notnil-chess/0007.pgn", 5, 514, 0, 0, 0),
    ("notnil-chess/0008.pgn", 1, 4, 0, 2, 0),
    ("notnil-chess/0009.pgn", 1, 6, 0, 2, 0),
    ("notnil-chess/0010.pgn", 1, 6, 0, 2, 0),
    ("notnil-chess/0011.pgn", 1, 83, 0, 1, 0),
    ("notnil-chess/0012.pgn", 1, 0, 0, 1, 0),
    ("notnil-chess/0013.pgn", 3, 73, 0, 3, 0),
    ("notnil-chess/0014.pgn", 5, 37, 0, 5, 0),
    ("notnil-chess/0015.pgn", 1, 2, 0, 3, 0),
    ("pychess/gamefiles/3fold.pgn", 2, 20, 0, 0, 0),
    ("pychess/gamefiles/50.pgn", 1, 110, 0, 0, 0),
    ("pychess/gamefiles/50halfmoves.pgn", 1, 91, 0, 0, 0),
    ("pychess/gamefiles/a.pgn", 1, 8, 0, 1, 0),
    ("pychess/gamefiles/annotated.pgn", 1, 13, 0, 4, 0),
    ("pychess/gamefiles/atomic.pgn", 10, 0, 0, 10, 10),
    ("pychess/gamefiles/b.pgn", 1, 18, 0, 1, 0),
    ("pychess/gamefiles/badpgn.pgn", 1, 0, 3, 3, 0),
    ("pychess/gamefiles/bilbao.pgn", 1, 348, 0, 0, 0),
    ("pychess/gamefiles/black.pgn", 1, 17, 0, 1, 0),
    ("pychess/gamefiles/c.pgn", 1, 70, 0, 1, 0),
    ("pychess/gamefiles/chess960rwch.pgn", 20, 1692, 0, 2, 0),
    ("pychess/gamefiles/d.pgn", 1, 46, 0, 1, 0),
    ("pychess/gamefiles/dortmund.pgn", 347, 33273, 0, 333, 0),
    ("pychess/gamefiles/draw.pgn", 1, 54, 0, 1, 0),
    ("pychess/gamefiles/e.pgn", 1, 69, 0, 1, 0),
    ("pychess/gamefiles/f.pgn", 1, 18, 0, 1, 0),
    ("pychess/gamefiles/fenSetup.pgn", 1, 4, 0, 0, 0),
    ("pychess/gamefiles/insufficient_material.pgn", 1, 56, 0, 0, 0),
    ("pychess/gamefiles/mate.pgn", 1, 4, 0, 0, 0),
    ("pychess/gamefiles/material.pgn", 1, 68, 0, 0, 0),
    ("pychess/gamefiles/promotion.pgn", 1, 22, 0, 1, 0),
    ("pychess/gamefiles/schess.pgn", 504, 0, 0, 504, 504),
    ("pychess/gamefiles/sittuyin.pgn", 3, 0, 0, 3, 3),
    ("pychess/gamefiles/threefold.pgn", 1, 8, 0, 0, 0),
    ("pychess/gamefiles/world_matches.pgn", 580, 69714, 0, 27, 0),
    ("pychess/gamefiles/zh.pgn", 83, 0, 0, 166, 83),
    (
        "pychess/learn/lichess_study_2nd-part-game-puzzles-with-interactive-lessons_by_Francesco_Super_2018.01.03.pgn",
        16,
        167,
        0,
        18,
        0,
    ),
    ("pychess/learn/lichess_study_beautiful-checkmate-puzzles_by_thijscom_2018.04.16.pgn", 27, 214, 0, 54, 0),
    ("pychess/learn/lichess_study_beautiful-chess-studies-1_by_thijscom_2018.03.05.pgn", 64, 1364, 0, 96, 0),
    ("pychess/learn/lichess_study_beautiful-chess-studies-2_by_thijscom_2018.04.17.pgn", 39, 895, 0, 62, 0),
    (
        "pychess/learn/lichess_study_beta-lichess-practice-7th-rank-rook-pawn-with-a-passive-rook_by_arex_2018.04.04.pgn",
        9,
        199,
        0,
        9,
        0,
    ),
    (
        "pychess/learn/lichess_study_beta-lichess-practice-checkmating-with-a-knight-and-bishop_by_arex_2017.08.02.pgn",
        13,
        370,
        0,
        14,
        0,
    ),
    (
        "pychess/learn/lichess_study_beta-lichess-practice-queen-vs-7th-rank-pawn_by_arex_2018.04.02.pgn",
        18,
        269,
        0,
        25,
        0,
    ),
    ("pychess/learn/lichess_study_charles-xii-at-bender_by_gbtami_2016.08.15.pgn", 4, 51, 0, 8, 0),
    (
        "pychess/learn/lichess_study_game-puzzles-with-interactive-lessons_by_Francesco_Super_2017.08.27.pgn",
        19,
        143,
        0,
        24,
        0,
    ),
    ("pychess/learn/lichess_study_lichess-practice-checkmate-patterns-i_by_arex_2017.01.22.pgn", 17, 0, 0, 17, 0),
    ("pychess/learn/lichess_study_lichess-practice-checkmate-patterns-ii_by_arex_2017.01.25.pgn", 24, 2, 0, 24, 0),
    ("pychess/learn/lichess_study_lichess-practice-checkmate-patterns-iii_by_arex_2017.01.27.pgn", 18, 1, 0, 19, 0),
    ("pychess/learn/lichess_study_lichess-practice-checkmate-patterns-iv_by_arex_2017.01.25.pgn", 16, 10, 0, 22, 0),
    ("pychess/learn/lichess_study_lichess-practice-discovered-attacks_by_arex_2017.01.30.pgn", 10, 9, 0, 10, 0),
    ("pychess/learn/lichess_study_lichess-practice-double-check_by_arex_2017.02.12.pgn", 6, 25, 0, 9, 0),
    ("pychess/learn/lichess_study_lichess-practice-greek-gift_by_arex_2017.02.11.pgn", 6, 46, 1, 9, 0),
    ("pychess/learn/lichess_study_lichess-practice-interference_by_arex_2017.02.11.pgn", 7, 43, 0, 8, 0),
    ("pychess/learn/lichess_study_lichess-practice-key-squares_by_arex_2017.01.21.pgn", 11, 16, 0, 11, 0),
    ("pychess/learn/lichess_study_lichess-practice-opposition_by_arex_2017.01.22.pgn", 8, 0, 0, 8, 0),
    ("pychess/learn/lichess_study_lichess-practice-overloaded-pieces_by_arex_2017.01.31.pgn", 11, 83, 0, 10, 0),
    ("pychess/learn/lichess_study_lichess-practice-piece-checkmates-i_by_arex_2017.01.25.pgn", 6, 47, 0, 9, 0),
    ("pychess/learn/lichess_study_lichess-practice-piece-checkmates-ii_by_arex_2017.01.25.pgn", 7, 66, 0, 9, 0),
    ("pychess/learn/lichess_study_lichess-practice-rook-endgames_by_TonyRo_2017.02.01.pgn", 5, 144, 0, 5, 0),
    ("pychess/learn/lichess_study_lichess-practice-the-fork_by_arex_2017.01.29.pgn", 18, 24, 3, 23, 0),
    ("pychess/learn/lichess_study_lichess-practice-the-pin_by_arex_2017.01.22.pgn", 8, 0, 0, 8, 0),
    ("pychess/learn/lichess_study_lichess-practice-the-skewer_by_arex_2017.01.29.pgn", 9, 18, 0, 9, 0),
    ("pychess/learn/lichess_study_lichess-practice-zugzwang_by_arex_2017.02.01.pgn", 4, 1, 0, 4, 0),
    ("pychess/learn/lichess_study_lichess-practice-zwischenzug_by_arex_2017.02.02.pgn", 5, 22, 0, 5, 0),
    ("pychess/learn/mate_in_2.pgn", 166, 498, 0, 166, 0),
    ("pychess/learn/mate_in_3.pgn", 375, 1875, 0, 378, 0),
    ("pychess/learn/mate_in_4.pgn", 373, 2611, 0, 379, 0),
    ("python-chess/anastasian-lewis.pgn", 1, 84, 0, 2, 0),
    ("python-chess/antichess-programfox.pgn", 2, 0, 0, 4, 2),
    ("python-chess/chessbase-empty-line.pgn", 1, 134, 0, 1, 0),
    ("python-chess/cutechess-fischerrandom.pgn", 4, 396, 0, 197, 0),
    ("python-chess/kasparov-deep-blue-1997.pgn", 6, 519, 0, 0, 0),
    ("python-chess/knightvuillaume-jannlee-zh-lichess.pgn", 1, 0, 0, 2, 1),
    ("python-chess/molinari-bordais-1979.pgn", 1, 10, 0, 0, 0),
    ("python-chess/nepomniachtchi-liren-game1.pgn", 1, 97, 0, 0, 0),
    ("python-chess/saturs-jannlee-zh-lichess.pgn", 1, 0, 0, 2, 1),
    ("python-chess/stockfish-learning.pgn", 1, 154, 0, 77, 0),
    ("python-chess/uci-moves.pgn", 1, 113, 0, 179, 0),
    ("python-chess/utf8-bom.pgn", 2, 0, 0, 0, 0),
    ("scalachess/FWWRC.pgn", 605, 0, 0, 605, 0),
    ("scalachess/pgns.txt", 15, 1654, 0, 6, 1),
    ("scalachess/uzchesscup.pgn", 45, 0, 0, 90, 0),
    ("scalachess/wcc2023.txt", 3, 1503, 0, 0, 0),
    ("shakmaty-bench/lichess_db_1000k.pgn", 438, 28538, 0, 0, 0),
    ("shakmaty-bench/twic1599_1000k.pgn", 1110, 101487, 0, 0, 0),
    ("stockfish-books/8moves_v3.pgn", 34700, 555200, 0, 0, 0),
    ("stockfish-books/bjbraams_chessdb_198350_lines.pgn", 198350, 2517446, 0, 198350, 0),
    ("tcec/TCEC_Cup_14_Final.pgn", 36, 6214, 0, 3094, 0),
    ("tcec/TCEC_Season_12_-_Superfinal.pgn", 100, 13182, 0, 6569, 0),
    ("tcec/TCEC_Season_13_-_Superfinal.pgn", 100, 13295, 0, 6626, 0),
    ("tcec/TCEC_Season_16_-_Frc_Sufi.pgn", 20, 2465, 0, 1225, 0),
    ("tcec/TCEC_Season_1_-_Elite-Match.pgn", 40, 7071, 0, 3605, 0),
    ("tcec/TCEC_Season_21_-_Frc4_Final.pgn", 50, 7592, 0, 3778, 0),
    ("tcec/TCEC_Season_22_-_Bonus_Dfrc_1_Final.pgn", 50, 6923, 0, 3442, 0),
    ("tcec/TCEC_Season_22_-_League_1.pgn", 112, 16371, 0, 8146, 0),
    ("tcec/TCEC_Season_24_-_Dfrc_2_League_1.pgn", 112, 14728, 0, 7323, 0),
    ("tcec/TCEC_Season_26_-_1s_Ultra_Bullet_Chess_Bonus.pgn", 100, 18199, 0, 9071, 0),
    ("tcec/TCEC_Season_28_-_Frd_4_League_A.pgn", 84, 13822, 0, 6879, 0),
    ("tcec/TCEC_Season_5_-_Superfinal.pgn", 48, 6622, 0, 3395, 0),
];

#[test]
fn every_data_file_gives_its_counts() {
    let names: Vec<&str> = FILES.iter().map(|row| row.0).collect();
    assert_eq!(common::pgn_files(), names, "the table lists every data file");
    for &(name, games, moves, errors, lints, skipped) in FILES {
        let (summary, _) = check_file(name);
        assert_eq!(
            (summary.games, summary.moves, summary.errors, summary.lints, summary.skipped),
            (games, moves, errors, lints, skipped),
            "{name}: (games, moves, errors, lint, skipped)"
        );
    }
}

/// An expected error: game, line, column, code, token.
type ErrorAt = (u64, u32, u32, &'static str, &'static str);

#[test]
fn every_error_of_the_data_files_is_located() {
    let expected: &[(&str, &[ErrorAt])] = &[
        (
            "chess.js/0.pgn",
            &[
                (1, 1, 12, "san:syntax", "<br"),
                (2, 1, 28, "san:syntax", "<br"),
                (3, 1, 53, "san:syntax", "<br"),
                (4, 1, 70, "san:syntax", "<br"),
                (5, 1, 96, "san:syntax", "<br"),
                (6, 1, 123, "san:syntax", "<br"),
                (7, 1, 143, "san:syntax", "<br"),
                (8, 1, 149, "pgn:bad-tag", "[GreatestGameEverPlayed? \"True\"]"),
                (8, 1, 181, "san:syntax", "<br"),
            ],
        ),
        (
            "pychess/gamefiles/badpgn.pgn",
            &[
                (1, 1, 1, "pgn:bad-tag", "[kj90trkm\"sdfsdf\"yl]"),
                (1, 2, 1, "san:syntax", "g"),
                // `(erg)` is the alternative to the bad move `g`: still judged
                (1, 2, 3, "san:syntax", "erg"),
            ],
        ),
        (
            "pychess/learn/lichess_study_lichess-practice-greek-gift_by_arex_2017.02.11.pgn",
            &[(1, 17, 137, "san:illegal", "Kf8")],
        ),
        (
            "pychess/learn/lichess_study_lichess-practice-the-fork_by_arex_2017.01.29.pgn",
            &[
                (1, 15, 6, "san:illegal", "Nxg5"),
                // `1... Nxg5 (1. Bxc6+)`: a variation written for White replaces a
                // Black move (python-chess 1.11.2 raises IndexError on this game)
                (17, 270, 15, "san:illegal", "Bxc6+"),
                (18, 286, 16, "san:illegal", "Nxg5"),
            ],
        ),
    ];
    for (name, errors) in expected {
        let (summary, _) = check_file(name);
        let errors: Vec<(u64, u32, u32, String, String)> = errors
            .iter()
            .map(|&(game, line, column, code, token)| (game, line, column, code.to_owned(), token.to_owned()))
            .collect();
        assert_eq!(summary.error_list, errors, "{name}");
    }
    for &(name, _, _, errors, _, _) in FILES {
        if errors == 0 {
            assert_eq!(check_file(name).0.error_list, Vec::new(), "{name}");
        }
    }
}

#[test]
fn lichess_practice_illegal_moves_are_explained() {
    let (_, reports) = check_file("pychess/learn/lichess_study_lichess-practice-greek-gift_by_arex_2017.02.11.pgn");
    let kf8 = reports[0].findings.iter().find(|f| f.severity() == Severity::Error).expect("the illegal move");
    assert_eq!((kf8.ply, kf8.move_number, kf8.side), (Some(2), Some(1), Some(sanfen::Color::Black)));
    assert_eq!(kf8.kind.to_string(), "illegal: f8 holds a piece of the side to move; did you mean Kh8?");
    assert_eq!(kf8.kind.suggestion().as_deref(), Some("Kh8"));
    let (_, reports) = check_file("pychess/learn/lichess_study_lichess-practice-the-fork_by_arex_2017.01.29.pgn");
    assert_eq!(
        lines_of(&reports[0]),
        [
            "1:1 pgn:missing-tags : missing Seven Tag Roster tags: Date, Round, White, Black",
            "15:1 pgn:move-number 1...: wrong move number; the move is 1. [1.]",
            "15:6 san:illegal Nxg5: illegal: no knight can move to g5; did you mean Ng3, Ng7, g5? [Ng3]",
        ]
    );
}

#[test]
fn header_only_files_count_their_games() {
    for (name, games) in [("scalachess/FWWRC.pgn", 605), ("scalachess/uzchesscup.pgn", 45)] {
        let (summary, reports) = check_file(name);
        assert_eq!((summary.games, summary.moves, summary.errors), (games, 0, 0), "{name}");
        assert!(reports.iter().all(|r| r.findings.iter().any(|f| f.kind.code() == "pgn:missing-result")), "{name}");
    }
}

#[test]
fn uci_movetext_is_reported_move_by_move() {
    let (summary, reports) = check_file("python-chess/uci-moves.pgn");
    assert_eq!((summary.games, summary.moves, summary.errors), (1, 113, 0));
    let coordinates = reports[0].findings.iter().filter(|f| f.kind.code() == "san:coordinates").count();
    assert_eq!(coordinates, 113);
    let first = &reports[0].findings.iter().find(|f| f.kind.code() == "san:coordinates").unwrap();
    assert_eq!((first.token.as_str(), first.kind.suggestion().as_deref()), ("g1f3", Some("Nf3")));
}

#[test]
fn variants_are_skipped_not_judged() {
    for name in ["pychess/gamefiles/zh.pgn", "pychess/gamefiles/atomic.pgn", "python-chess/antichess-programfox.pgn"] {
        let (summary, reports) = check_file(name);
        assert_eq!((summary.skipped, summary.moves, summary.errors), (summary.games, 0, 0), "{name}");
        assert!(reports.iter().all(|r| r.skipped.is_some()));
    }
    // Chess960 is played: TCEC's Fischer random games, X-FEN castling
    let (summary, _) = check_file("tcec/TCEC_Season_22_-_Bonus_Dfrc_1_Final.pgn");
    assert_eq!((summary.games, summary.moves, summary.errors, summary.skipped), (50, 6923, 0, 0));
}

/// The first two games of a TWIC issue (clean OTB games), as text.
fn two_clean_games() -> String {
    let text = std::fs::read_to_string(data("shakmaty-bench/twic1599_1000k.pgn")).expect("the TWIC file");
    let third = text.match_indices("[Event ").nth(2).expect("three games").0;
    text[..third].to_owned()
}

/// Checks `text` after replacing `from` (which must occur once) by `to`;
/// the findings of game 1 and the summary. Game 2 must stay clean.
fn injected(from: &str, to: &str) -> (Vec<String>, Summary) {
    let clean = two_clean_games();
    assert_eq!(clean.matches(from).count(), 1, "{from:?} occurs once");
    let text = clean.replacen(from, to, 1);
    let (summary, reports) = check_bytes(text.as_bytes());
    assert_eq!(reports.len(), 2);
    assert_eq!(reports[1].errors, 0, "the next game is judged as usual: {:?}", lines_of(&reports[1]));
    assert_eq!(reports[1].moves, 115);
    (lines_of(&reports[0]), summary)
}

#[test]
fn clean_games_are_clean() {
    let (summary, reports) = check_bytes(two_clean_games().as_bytes());
    assert_eq!((summary.games, summary.moves, summary.errors, summary.lints), (2, 74 + 115, 0, 0));
    assert_eq!(reports[0].moves, 74);
}

#[test]
fn injected_illegal_move() {
    // 9. h4 becomes 9. h5: three squares for a pawn
    let (lines, summary) = injected("9. h4 h5", "9. h5 h5");
    assert_eq!(lines, ["20:7 san:illegal h5: illegal: no pawn can move to h5; did you mean h3, h4? [h3]"]);
    // the rest of the game is read but not judged
    assert_eq!((summary.moves, summary.errors), (16 + 115, 1));
}

#[test]
fn injected_ambiguous_move() {
    // 6. Nge2 becomes 6. Ne2: the knights on c3 and g1 both go there
    let (lines, _) = injected("6. Nge2", "6. Ne2");
    assert_eq!(
        lines,
        [
            "19:53 san:ambiguous Ne2: ambiguous: pieces on g1 and c3 can both make the move; write Nge2 or Nce2 [Nge2 or Nce2]"
        ]
    );
}

#[test]
fn injected_garbage_token() {
    let (lines, _) = injected("13. cxb5", "13. c*b5");
    assert_eq!(
        lines,
        [
            "20:55 san:syntax c*b5: not a move: invalid move at 1..2: found \"*\", expected a file a-h, a rank 1-8 or `x`"
        ]
    );
}

#[test]
fn injected_wrong_move_number() {
    let (lines, summary) = injected("34.\nQxc4", "35.\nQxc4");
    assert_eq!(lines, ["23:75 pgn:move-number 35.: wrong move number; the move is 34. [34.]"]);
    assert_eq!((summary.errors, summary.lints), (0, 1));
}

#[test]
fn injected_move_number_too_large_for_any_game() {
    // (past u32: a move number all the same, wrong as 0 would be, not a move)
    let (lines, summary) = injected("34.\nQxc4", "99999999999999999999.\nQxc4");
    assert_eq!(lines, ["23:75 pgn:move-number 99999999999999999999.: wrong move number; the move is 34. [34.]"]);
    assert_eq!((summary.errors, summary.lints), (0, 1));
}

#[test]
fn injected_nag_out_of_range() {
    // an error, and the moves after it still read and judged (as a move, the
    // token stopped the game there)
    let (lines, summary) = injected("34.\nQxc4", "34.\nQxc4 $256");
    assert_eq!(lines, ["24:6 pgn:bad-nag $256: NAG out of range: NAGs are $0 to $255"]);
    assert_eq!((summary.moves, summary.errors, summary.lints), (74 + 115, 1, 0));
}

#[test]
fn injected_unclosed_comment() {
    // the comment runs to the next game's tags, which end it; the missing
    // result is placed after its last word, on its own line
    let (lines, summary) = injected("Re3 0-1", "Re3 { the end 0-1");
    assert_eq!(
        lines,
        [
            "24:47 pgn:unclosed-comment { the end 0-1: comment opened here is never closed with }",
            "24:60 pgn:missing-result : no termination marker (1-0, 0-1, 1/2-1/2 or *)",
        ]
    );
    assert_eq!(summary.errors, 1);
}

#[test]
fn injected_unclosed_variation() {
    let (lines, summary) = injected("11. d5 Nb6", "11. d5 (11. dxe5 Nb6");
    // the variation goes on to the end of the game: its moves are played there,
    // until one cannot be
    assert_eq!(
        lines,
        [
            "20:33 pgn:unclosed-variation (: variation opened here is never closed with )",
            "21:5 san:spurious-capture-mark Nxd5: x written for a move that captures nothing; write Nd5 [Nd5]",
            "21:68 san:illegal e4: illegal: no pawn can move to e4; did you mean Be4? [Be4]",
        ]
    );
    assert_eq!(summary.errors, 2);
}

// ---- Whole inputs through the library ---------------------------------------------

/// Every report of a check, in the order handed out, as (game number, line
/// of the game, findings as `LINE:COL code`), and the outside findings as
/// (games so far, `LINE:COL code`).
#[derive(Debug, Default, PartialEq, Eq)]
struct Handed {
    games: Vec<(u64, u32, Vec<String>)>,
    outside: Vec<(u64, String)>,
    parts: usize,
}

impl Handed {
    fn take(&mut self, part: &Part) -> Result<(), std::convert::Infallible> {
        self.parts += 1;
        for report in &part.reports {
            match report {
                Report::Game { number, report } => self.games.push((
                    *number,
                    report.at.line,
                    report
                        .findings
                        .iter()
                        .map(|f| format!("{}:{} {}", f.at.line, f.at.column, f.kind.code()))
                        .collect(),
                )),
                Report::TooLarge { number, at, .. } => self.games.push((*number, at.line, vec!["too large".into()])),
            }
        }
        for f in &part.outside {
            self.outside.push((part.games_so_far, format!("{}:{} {}", f.at.line, f.at.column, f.kind.code())));
        }
        Ok(())
    }
}

fn threads(threads: usize) -> CheckOptions {
    CheckOptions { threads, ..CheckOptions::default() }
}

/// `check_reader` over `bytes` on `n` threads: what it handed out, and the summary.
fn check_in_memory(bytes: Vec<u8>, n: usize) -> (Handed, Result<CheckSummary, CheckError<std::convert::Infallible>>) {
    let mut handed = Handed::default();
    let result = check_reader(Cursor::new(bytes), &threads(n), |part| handed.take(part));
    (handed, result)
}

#[test]
fn check_path_hands_reports_in_input_order_whatever_the_threads() {
    // 3.5 MB: four chunks, every game with lint findings
    let name = "tcec/TCEC_Season_12_-_Superfinal.pgn";
    let mut one = Handed::default();
    let summary = check_path(data(name), &threads(1), |part| one.take(part)).unwrap();
    assert_eq!(
        (summary.games, summary.moves, summary.games_with_errors, summary.errors, summary.lint, summary.skipped),
        (100, 13182, 0, 0, 6569, 0)
    );
    assert_eq!(summary.bytes, std::fs::metadata(data(name)).unwrap().len());
    assert_eq!(one.parts, 4);
    assert_eq!(one.games.iter().map(|g| g.0).collect::<Vec<_>>(), (1..=100).collect::<Vec<_>>());
    // the same findings as the chunks read one by one
    let (_, reports) = check_file(name);
    let by_chunks: Vec<Vec<String>> = reports
        .iter()
        .map(|r| r.findings.iter().map(|f| format!("{}:{} {}", f.at.line, f.at.column, f.kind.code())).collect())
        .collect();
    assert_eq!(one.games.iter().map(|g| g.2.clone()).collect::<Vec<_>>(), by_chunks);
    for n in [2, 3, 8] {
        let mut many = Handed::default();
        assert_eq!(check_path(data(name), &threads(n), |part| many.take(part)), Ok(summary), "{n} threads");
        assert_eq!(many, one, "{n} threads");
    }
}

#[test]
fn check_reader_hands_small_parts_in_order_with_their_outside_findings() {
    // games with errors, and comments after the last game: one chunk
    let text = "1. e4 e5 2. Ke3 *\n\n1. d4 d5 *\n\n1. Nf6 *\n{ after }\n";
    for n in [1, 2, 3, 8] {
        let (handed, summary) = check_in_memory(text.as_bytes().to_vec(), n);
        let summary = summary.unwrap();
        assert_eq!(
            handed.games,
            [
                (1, 1, vec!["1:1 pgn:missing-tags".to_owned(), "1:13 san:illegal".to_owned()]),
                (2, 3, vec!["3:1 pgn:missing-tags".to_owned()]),
                (3, 5, vec!["5:1 pgn:missing-tags".to_owned(), "5:4 san:illegal".to_owned()]),
            ],
            "{n} threads"
        );
        assert_eq!(handed.outside, [(3, "6:1 pgn:text-between-games".to_owned())], "{n} threads");
        assert_eq!((summary.games, summary.games_with_errors, summary.bytes), (3, 2, text.len() as u64));
    }
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

#[test]
fn compressed_readers_are_told_by_their_first_bytes() {
    let plain = std::fs::read(data("pychess/gamefiles/world_matches.pgn")).unwrap();
    let (expected, summary) = check_in_memory(plain.clone(), 1);
    let summary = summary.unwrap();
    assert_eq!((summary.games, summary.moves, summary.lint), (580, 69714, 27));
    for (compression, bytes) in [
        (Compression::Gzip, gzip(&plain)),
        (Compression::Zstd, zstd::encode_all(&plain[..], 1).unwrap()),
        (Compression::Bzip2, bzip2(&plain)),
    ] {
        let input = Input::from_reader(Cursor::new(bytes.clone()), None).unwrap();
        assert_eq!(input.compression, Some(compression));
        let mut text = Vec::new();
        input.reader.take(u64::MAX).read_to_end(&mut text).unwrap();
        assert!(text == plain, "{compression}: the decompressed bytes");
        for n in [1, 3] {
            let (handed, result) = check_in_memory(bytes.clone(), n);
            // bytes count the decompressed stream
            assert_eq!(result, Ok(summary), "{compression}, {n} threads");
            assert_eq!(handed, expected, "{compression}, {n} threads");
        }
    }
}

#[test]
fn truncated_gzip_is_a_read_error_at_its_offset_after_the_games_before() {
    let text = two_clean_games().repeat(1500);
    let whole = gzip(text.as_bytes());
    let cut = whole[..whole.len() / 2].to_vec();
    // what a decoder gives of the truncated stream before it fails
    let mut decoder = flate2::read::MultiGzDecoder::new(&cut[..]);
    let mut given = Vec::new();
    let mut buf = [0; 4096];
    let failure = loop {
        match decoder.read(&mut buf) {
            Ok(0) => panic!("the truncated stream ends without an error"),
            Ok(n) => given.extend_from_slice(&buf[..n]),
            Err(err) => break err,
        }
    };
    assert!(given.len() > 1 << 20, "more than a chunk before the failure");
    for n in [1, 2, 8] {
        let (handed, result) = check_in_memory(cut.clone(), n);
        let Err(CheckError::Read { error, summary }) = result else { panic!("a read error: {result:?}") };
        assert_eq!(
            (error.offset, error.compression, error.kind, summary.bytes),
            (given.len() as u64, Some(Compression::Gzip), failure.kind(), given.len() as u64),
            "{n} threads"
        );
        assert_eq!(
            error.to_string(),
            format!("read failed at byte {} of the gzip stream, decompressed: {failure}", given.len())
        );
        // every whole game read before was checked: two per copy, clean
        let copies = given.len() / two_clean_games().len();
        assert!(summary.games >= 2 * copies as u64, "{n} threads: {} games", summary.games);
        assert_eq!(summary.games_with_errors, handed.games.iter().filter(|g| !g.2.is_empty()).count() as u64);
    }
}

#[test]
fn byte_order_mark_is_no_part_of_the_text_in_any_input() {
    // the mark counts in columns (the byte after it is column 4), is no
    // finding, and is dropped once, at the start of the stream only
    let text = b"\xef\xbb\xbf1. e4 e5 2. Ke3 *\n\n1. d4 d5 *\n";
    for n in [1, 2] {
        for (label, bytes) in [("plain", text.to_vec()), ("gzip", gzip(text))] {
            let (handed, summary) = check_in_memory(bytes, n);
            assert_eq!(
                handed.games,
                [
                    (1, 1, vec!["1:4 pgn:missing-tags".to_owned(), "1:16 san:illegal".to_owned()]),
                    (2, 3, vec!["3:1 pgn:missing-tags".to_owned()])
                ],
                "{label}, {n} threads"
            );
            // (the summary's bytes are those of the text)
            assert_eq!(summary.map(|s| (s.games, s.bytes)), Ok((2, text.len() as u64 - 3)), "{label}");
        }
    }
    // the data file that starts with a mark: clean, as with the whole-stream reader
    let (handed, summary) = {
        let mut handed = Handed::default();
        let summary = check_path(data("python-chess/utf8-bom.pgn"), &threads(2), |part| handed.take(part));
        (handed, summary.unwrap())
    };
    assert_eq!((summary.games, summary.errors, summary.lint), (2, 0, 0));
    assert!(handed.games.is_empty());
    // a mark anywhere else is an invisible character: a finding
    let (handed, _) = check_in_memory(b"1. e4 \xef\xbb\xbfe5 *\n".to_vec(), 1);
    assert_eq!(handed.games.len(), 1);
    assert_eq!(handed.games[0].2, ["1:1 pgn:missing-tags", "1:7 pgn:invisible-char"]);
}

#[test]
fn checks_iterator_gives_the_parts_the_callback_gets() {
    let text = two_clean_games().repeat(1500);
    let cut = {
        let whole = gzip(text.as_bytes());
        whole[..whole.len() / 2].to_vec()
    };
    for n in [1, 3] {
        let (handed, result) = check_in_memory(cut.clone(), n);
        let Err(CheckError::Read { error, summary }) = result else { panic!("a read error: {result:?}") };
        let input = Input::from_reader(Cursor::new(cut.clone()), None).unwrap();
        let mut checks = Checks::new(input, &threads(n)).unwrap();
        let mut iterated = Handed::default();
        let mut failure = None;
        for part in &mut checks {
            match part {
                Ok(part) => iterated.take(&part).unwrap(),
                Err(err) => failure = Some(err),
            }
        }
        assert_eq!((iterated, failure, checks.summary()), (handed, Some(error), summary), "{n} threads");
        assert!(checks.next().is_none(), "the failure once");
    }
}

#[test]
fn binary_input_is_refused_before_any_game() {
    let (handed, result) = check_in_memory(vec![0; 100], 2);
    assert_eq!(handed, Handed::default());
    let Err(CheckError::NotText(reason)) = result else { panic!("refused: {result:?}") };
    assert_eq!(reason.to_string(), "binary data: 100 of the first 100 bytes are control bytes (the first at offset 0)");
    // a missing file cannot be opened
    let result = check_path("/nonexistent/games.pgn", &threads(1), |_| Ok::<(), ()>(()));
    let Err(CheckError::Open(err)) = result else { panic!("not opened: {result:?}") };
    assert_eq!(err.kind, std::io::ErrorKind::NotFound);
}

#[test]
fn a_callback_error_stops_the_check() {
    let text = "1. Ke3 *\n\n".repeat(10);
    for n in [1, 3] {
        let mut calls = 0;
        let result = check_reader(Cursor::new(text.clone().into_bytes()), &threads(n), |_| {
            calls += 1;
            Err("enough")
        });
        assert_eq!((result, calls), (Err(CheckError::Stopped("enough")), 1), "{n} threads");
    }
}
