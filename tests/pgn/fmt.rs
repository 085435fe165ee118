//! The PGN formatter (`sanfen::pgn::format`, `sanfen fmt`): exact output for
//! small hand-written games; over every PGN file of `../shared/data/pgn`:
//! idempotence, meaning preserved (moves, variations, comments, NAGs, tags,
//! escape lines, comments after the result, text between games,
//! result), line widths; the command run as a user runs it.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use sanfen::Position;
use sanfen::lint::LintPolicy;
use sanfen::notation::Notation;
use sanfen::pgn::chunk::Chunker;
use sanfen::pgn::format::{FormattedGame, Formatter, MAX_WIDTH, append_game, format_pgn};
use sanfen::pgn::format_input::{FormatOptions, FormatSummary, Unchanged, format_input};
use sanfen::pgn::input::Input;
use sanfen::pgn::reader::{Location, RawText, Reader, ResultToken, Skip, SyntaxError, Visitor};
use sanfen::pgn::start::{Start, start_position};
use sanfen::pgn::validate::{GameReport, Options, Validator};
use sanfen::resolve::resolve_text;
use sanfen::san::{San, SanOptions};

/// The Seven Tag Roster with the values the formatter writes for a missing
/// tag, Result aside.
const UNKNOWN_ROSTER: &str =
    "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n";

fn format(input: &[u8]) -> (String, Vec<String>) {
    let (text, unchanged) = format_pgn(input);
    let text = String::from_utf8(text).expect("test inputs are UTF-8");
    (
        text,
        unchanged
            .iter()
            .map(|(game, error)| format!("{}:{}: game {game}: {error}", error.at.line, error.at.column))
            .collect(),
    )
}

/// Why `2. Ke3` after `1. e4 e5` is illegal.
const KE3: &str = "illegal: no king can move to e3; did you mean Ke2?";

/// Formats and checks that formatting again changes nothing.
fn formatted(input: &str) -> String {
    let (text, unchanged) = format(input.as_bytes());
    assert_eq!(unchanged, Vec::<String>::new());
    assert_eq!(format(text.as_bytes()).0, text, "not idempotent");
    text
}

#[test]
fn move_numbers_after_comments_nags_and_variations() {
    let input = "[Event \"Test\"]\n[Site \"Here\"]\n[Date \"2024.01.02\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n\
                 [Result \"*\"]\n\n1. e4 {best by test} e5 2. Nf3 $1 Nc6 (2... d6 3. d4 (3. Bc4 Be7) exd4) 3. Bb5 a6 *\n";
    assert_eq!(
        formatted(input),
        "[Event \"Test\"]\n[Site \"Here\"]\n[Date \"2024.01.02\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n\
         [Result \"*\"]\n\n\
         1. e4 {best by test} 1... e5 2. Nf3 $1 2... Nc6 (2... d6 3. d4 (3. Bc4 Be7)\n\
         3... exd4) 3. Bb5 a6 *\n"
    );
}

#[test]
fn variation_at_the_start_of_a_variation_and_after_a_black_move() {
    // a variation on Black's move starts with Black's move number; two
    // variations in a row both replace the same move
    let input = "1. e4 e5 (1... c5 2. Nf3 (2. c3) (2. Nc3 Nc6) 2... d6) 2. Nf3 *";
    assert_eq!(
        formatted(input),
        format!("{UNKNOWN_ROSTER}[Result \"*\"]\n\n1. e4 e5 (1... c5 2. Nf3 (2. c3) (2. Nc3 Nc6) 2... d6) 2. Nf3 *\n")
    );
}

#[test]
fn spellings_are_canonicalised() {
    let input = "1. e2e4 e7-e5 2.Ng1f3 Nb8c6 3. Bf1-c4 Ng8f6 4. 0-0 Nf6xe4 5. Rf1e1 Ne4-d6 \
                 6. Nf3xe5 Nc6xe5 7. Re1xe5 Bf8e7 1-0";
    assert_eq!(
        formatted(input),
        format!(
            "{UNKNOWN_ROSTER}[Result \"1-0\"]\n\n\
             1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O Nxe4 5. Re1 Nd6 6. Nxe5 Nxe5 7. Rxe5+ Be7\n1-0\n"
        )
    );
}

#[test]
fn black_moves_first_and_promotion_from_a_fen_tag() {
    let input = "[FEN \"4k3/1P6/8/8/8/8/8/4K3 b - - 0 40\"]\n[SetUp \"1\"]\n\n40... Kd7 41. b8Q Kc6 42. Qb5 Kd6 *\n";
    assert_eq!(
        formatted(input),
        format!(
            "{UNKNOWN_ROSTER}[Result \"*\"]\n[FEN \"4k3/1P6/8/8/8/8/8/4K3 b - - 0 40\"]\n[SetUp \"1\"]\n\n\
             40... Kd7 41. b8=Q Kc6 42. Qb5+ Kd6 *\n"
        )
    );
}

#[test]
fn tags_roster_first_missing_ones_added_values_reescaped() {
    let input = b"[White \"Tal, Mikhail\"]\n[Annotator \"x\"]\n[Event \"Riga \\\"open\\\"\"]\n[Site \"C:\\dir\"]\n\
                  [Black \"Caf\xe9\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n";
    let (text, unchanged) = format_pgn(input);
    assert!(unchanged.is_empty());
    let expected: &[u8] = b"[Event \"Riga \\\"open\\\"\"]\n[Site \"C:\\\\dir\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
                            [White \"Tal, Mikhail\"]\n[Black \"Caf\xe9\"]\n[Result \"1-0\"]\n[Annotator \"x\"]\n\n1. e4 1-0\n";
    assert_eq!(text, expected);
    assert_eq!(format_pgn(&text).0, text);
}

#[test]
fn result_tag_comes_from_the_marker_and_the_marker_from_the_tag() {
    assert_eq!(formatted("1. e4 0-1"), format!("{UNKNOWN_ROSTER}[Result \"0-1\"]\n\n1. e4 0-1\n"));
    assert_eq!(
        formatted("[Result \"1/2-1/2\"]\n\n1. e4 e5\n"),
        format!("{UNKNOWN_ROSTER}[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n")
    );
    // a Result tag that is no marker: the movetext ends in `*`, the tag stays
    assert_eq!(
        formatted("[Result \"1-0 (forfeit)\"]\n\n1. e4\n"),
        format!("{UNKNOWN_ROSTER}[Result \"1-0 (forfeit)\"]\n\n1. e4 *\n")
    );
    // no movetext at all
    assert_eq!(formatted("[Event \"E\"]\n"), format!("[Event \"E\"]{}[Result \"*\"]\n\n*\n", &UNKNOWN_ROSTER[11..]));
}

#[test]
fn marker_spellings_are_canonicalised() {
    assert_eq!(formatted("1. e4 e5 ½-½\n"), format!("{UNKNOWN_ROSTER}[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n"));
    assert_eq!(formatted("1. e4 e5 1–0\n"), format!("{UNKNOWN_ROSTER}[Result \"1-0\"]\n\n1. e4 e5 1-0\n"));
}

#[test]
fn annotations_and_line_comments() {
    // a glued annotation stays; one standing alone becomes a NAG; a `;`
    // comment is braced unless its text holds `}`
    let input = "1. e4 !? e5 ; a comment } with a brace\n2. Nf3?! ; plain line comment\nNc6 $14 *\n";
    assert_eq!(
        formatted(input),
        format!(
            "{UNKNOWN_ROSTER}[Result \"*\"]\n\n\
             1. e4 $5 1... e5 ; a comment }} with a brace\n2. Nf3?! {{ plain line comment}} 2... Nc6 $14 *\n"
        )
    );
}

#[test]
fn moves_in_every_notation() {
    let input = "1. e4 e5 2. Nf3 Nc6!? 3. Bb5 a6 4. O-O -- (4... Nf6 5. d4) 5. d4 exd4 6. e5 d5 7. exd6 e.p. \
                 Qxd6 8. Re1+ Be7 9. Bxc6+ bxc6 *\n\n\
                 [Variant \"Chess960\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O Kd7 *\n\n\
                 [FEN \"8/P7/8/8/8/8/7p/K6k w - - 0 1\"]\n\n1. a8=N Kg2 2. Nb6 h1=Q+ *\n";
    let movetext = |notation| {
        let (text, unchanged) = in_notation(input.as_bytes(), notation);
        assert_eq!(unchanged, 0);
        let text = String::from_utf8(text).unwrap();
        text.split("\n\n").skip(1).step_by(2).map(str::to_owned).collect::<Vec<_>>()
    };
    assert_eq!(
        movetext(Notation::Lan),
        [
            "1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6!? 3. Bf1-b5 a7-a6 4. O-O -- (4... Ng8-f6\n5. d2-d4) 5. d2-d4 e5xd4 \
             6. e4-e5 d7-d5 7. e5xd6 Qd8xd6 8. Rf1-e1+ Bf8-e7\n9. Bb5xc6+ b7xc6 *",
            "1. O-O Ke8-d7 *",
            "1. a7-a8=N Kh1-g2 2. Na8-b6 h2-h1=Q+ *\n",
        ]
    );
    assert_eq!(
        movetext(Notation::Uci),
        [
            "1. e2e4 e7e5 2. g1f3 b8c6!? 3. f1b5 a7a6 4. e1g1 0000 (4... g8f6 5. d2d4)\n5. d2d4 e5d4 6. e4e5 \
             d7d5 7. e5d6 d8d6 8. f1e1 f8e7 9. b5c6 b7c6 *",
            // Chess960: the king takes its rook
            "1. e1h1 e8d7 *",
            "1. a7a8n h1g2 2. a8b6 h2h1q *\n",
        ]
    );
    assert_eq!(
        movetext(Notation::Figurine),
        [
            "1. e4 e5 2. ♘f3 ♘c6!? 3. ♗b5 a6 4. O-O -- (4... ♘f6 5. d4) 5. d4 exd4\n6. e5 d5 7. exd6 ♕xd6 \
             8. ♖e1+ ♗e7 9. ♗xc6+ bxc6 *",
            "1. O-O ♔d7 *",
            "1. a8=♘ ♔g2 2. ♘b6 h1=♕+ *\n",
        ]
    );
    assert_eq!(in_notation(input.as_bytes(), Notation::San).0, format_pgn(input.as_bytes()).0);
}

#[test]
fn null_moves() {
    assert_eq!(
        formatted("1. e4 Z0 2. d4 -- (2... e5) 3. c4 *"),
        format!("{UNKNOWN_ROSTER}[Result \"*\"]\n\n1. e4 -- 2. d4 -- (2... e5) 3. c4 *\n")
    );
    // UCI's `0000` (not a move number 0) and `@@@@`, as python-chess reads them
    assert_eq!(
        formatted("1. e4 0000 2. d4 @@@@ 3.0000 c5 *"),
        format!("{UNKNOWN_ROSTER}[Result \"*\"]\n\n1. e4 -- 2. d4 -- 3. -- c5 *\n")
    );
    // not while in check
    let input = "1. e4 f6 2. Qh5+ -- *\n";
    assert_eq!(
        format(input.as_bytes()),
        (
            input.to_owned(),
            vec!["1:18: game 1: 2... --: a null move while in check: the king would stay attacked".to_owned()]
        )
    );
}

#[test]
fn parentheses_that_join_no_token() {
    // an empty variation; a `)` after a `;` comment starts the next line
    assert_eq!(formatted("1. e4 () e5 *"), format!("{UNKNOWN_ROSTER}[Result \"*\"]\n\n1. e4 () 1... e5 *\n"));
    assert_eq!(
        formatted("1. e4 (1. d4 ; why not}\n) e5 *"),
        format!("{UNKNOWN_ROSTER}[Result \"*\"]\n\n1. e4 (1. d4 ; why not}}\n) 1... e5 *\n")
    );
}

#[test]
fn comments_are_kept_byte_for_byte() {
    // but for `\r\n`, written as the output's line end (here `\n`, the
    // input's first)
    let input = "[Result \"*\"]\n1. e4 {  two spaces,\r\n a line break } e5 { [%clk 0:03:00] } {} *";
    assert_eq!(
        formatted(input),
        format!(
            "{UNKNOWN_ROSTER}[Result \"*\"]\n\n1. e4 {{  two spaces,\n a line break }} 1... e5 {{ [%clk 0:03:00] }} {{}} *\n"
        )
    );
}

/// The Opera game, written loosely, with `first_comment` after 7... Qe7
/// (the end of the first line) and a comment longer than a line.
fn opera(first_comment: &str) -> String {
    let long = "{a long comment that does not fit on one line of eighty bytes, so it stands alone here}";
    format!(
        "[Result \"1-0\"]\n1.e4 e5 2.Nf3 d6 3.d4 Bg4 4.dxe5 Bxf3 5.Qxf3 dxe5 6.Bc4 Nf6 7.Qb3 Qe7 {first_comment} 8.Nc3 \
         c6 9.Bg5 b5 10.Nxb5 cxb5 11.Bxb5+ Nbd7 12.0-0-0 Rd8 {{bc}} 13.Rxd7 Rxd7 14.Rd1 Qe6 {long} 15.Bxd7+ \
         Nxd7 16.Qb8+ Nxb8 17.Rd8# 1-0"
    )
}

#[test]
fn lines_wrap_at_exactly_80_bytes() {
    let head = format!("{UNKNOWN_ROSTER}[Result \"1-0\"]\n\n");
    let rest = "8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 {bc} 13. Rxd7\n\
                Rxd7 14. Rd1 Qe6\n\
                {a long comment that does not fit on one line of eighty bytes, so it stands alone here}\n\
                15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n";
    let line = "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7";
    // 76 + 1 + 3 = 80: fits
    let text = formatted(&opera("{a}"));
    assert_eq!(text, format!("{head}{line} {{a}}\n{rest}"));
    assert_eq!(text.lines().map(str::len).max(), Some(87));
    assert!(text.lines().any(|line| line.len() == MAX_WIDTH));
    // 76 + 1 + 4 = 81: the comment starts the next line
    let text = formatted(&opera("{ab}"));
    let rest = rest.replacen(
        "8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 {bc} 13. Rxd7\nRxd7 14. Rd1 Qe6",
        "{ab} 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 {bc}\n13. Rxd7 Rxd7 14. Rd1 Qe6",
        1,
    );
    assert_eq!(text, format!("{head}{line}\n{rest}"));
}

#[test]
fn a_game_with_an_illegal_move_is_written_unchanged() {
    // unchanged but for its line ends: the output's throughout (`\n`, the
    // input's first), never a mix
    let input = "[Event \"One\"]\n\n1. e4 e5 *\n\n[Event \"Two\"]\r\n[White \"X\"]\r\n\r\n1.e4   e5 2. Ke3 Nc6 *\r\n\r\n\r\n\
                 1. d4 d5 1/2-1/2";
    let (text, unchanged) = format(input.as_bytes());
    assert_eq!(
        text,
        format!(
            "[Event \"One\"]{}[Result \"*\"]\n\n1. e4 e5 *\n\n\
             [Event \"Two\"]\n[White \"X\"]\n\n1.e4   e5 2. Ke3 Nc6 *\n\n\
             {UNKNOWN_ROSTER}[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n",
            &UNKNOWN_ROSTER[11..]
        )
    );
    assert_eq!(unchanged, [format!("8:14: game 2: 2. Ke3: {KE3}")]);
    // formatted again, the game (now on line 14) stays as it is
    assert_eq!(format(text.as_bytes()), (text.clone(), vec![format!("14:14: game 2: 2. Ke3: {KE3}")]));
}

#[test]
fn unplayable_games_are_written_unchanged() {
    for (input, message) in [
        (
            "[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. N@f3 *\n",
            "1:1: game 1: variant \"Crazyhouse\" is not played by sanfen",
        ),
        (
            "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n",
            "1:1: game 1: FEN tag: illegal position: the board is empty; white has no king; black has no king",
        ),
        ("1. e4 e5 2. Nf3 { no end\n", "1:17: game 1: syntax: a `{` comment is not closed: found \"{ no end\""),
        ("1. e4 e5 2. Nf3 (2. d4\n", "1:17: game 1: syntax: a `(` variation is not closed: found \"(\""),
        (
            "1. Nf3 d5 2. d4 e6 3. Nd2 *\n",
            "1:23: game 1: 3. Nd2: ambiguous: pieces on b1 and f3 can both make the move; write Nbd2 or Nfd2",
        ),
        (
            "1. e4 e5 2. Xy9 *\n",
            "1:13: game 1: 2. Xy9: invalid move at 0..1: found \"X\", expected a move such as e4, Nf3, exd5, e8=Q or O-O",
        ),
    ] {
        let (text, unchanged) = format(input.as_bytes());
        assert_eq!(text, input, "{input}");
        assert_eq!(unchanged, [message], "{input}");
    }
}

#[test]
fn a_game_of_tags_alone_written_unchanged_keeps_the_next_game_apart() {
    // the reader ends the first game at the repeated White tag; rewritten,
    // the second game starts with an Event tag the first lacks
    let input = "[White \"x\"]\n[Result \"1-0\"]\n[FEN \"bad\"]\n\n[White \"y\"]\n\n1. e4 *\n";
    let (text, unchanged) = format(input.as_bytes());
    assert_eq!(
        text,
        format!(
            "[White \"x\"]\n[Result \"1-0\"]\n[FEN \"bad\"]\n\n1-0\n\n{}[White \"y\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 *\n",
            &UNKNOWN_ROSTER[..UNKNOWN_ROSTER.find("[White").unwrap()]
        )
    );
    assert_eq!(unchanged.len(), 1);
    assert_eq!(records(text.as_bytes()).0.len(), 2);
    assert_eq!(format(text.as_bytes()).0, text);
}

// ---- every PGN file of ../shared/data/pgn ---------------------------------------------

use crate::common;

fn data_root() -> PathBuf {
    common::pgn_root()
}

fn data_files() -> Vec<PathBuf> {
    common::pgn_files().iter().map(|name| data_root().join(name)).collect()
}

/// What a game says, as far as a reader can tell: the tags (a set, with the
/// roster tags a formatter adds for missing ones), the moves in UCI with
/// variations, comments and NAGs in order, and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Record {
    tags: BTreeSet<(Vec<u8>, Vec<u8>)>,
    items: Vec<Item>,
    result: Vec<u8>,
    /// Whether every move resolved and no syntax error was reported.
    playable: bool,
    /// The moves not written as canonical SAN (with check marks).
    non_canonical: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    Move(String),
    Nag(u8),
    Comment(Vec<u8>),
    Open,
    Close,
    /// A `%` escape line in the game.
    Escape(Vec<u8>),
    /// A comment after the termination marker.
    AfterResult(Vec<u8>),
}

/// `text` with its `\r\n` line breaks as `\n` (the output has one kind).
fn lf(text: &[u8]) -> Vec<u8> {
    text.iter()
        .enumerate()
        .filter(|&(i, &b)| !(b == b'\r' && text.get(i + 1) == Some(&b'\n')))
        .map(|(_, &b)| b)
        .collect()
}

/// Replays every game with `resolve_text` and records it.
#[derive(Default)]
struct Recorder {
    tags: Vec<(Vec<u8>, Vec<u8>)>,
    /// Per open line: the position, and the one before its last move.
    lines: Vec<(Position, Option<Position>)>,
    started: bool,
    items: Vec<Item>,
    result: Option<&'static str>,
    broken: bool,
    non_canonical: Vec<String>,
    in_game: bool,
    /// The comments and escape lines between games, of the whole input.
    outside: Vec<Vec<u8>>,
}

impl Recorder {
    fn tag_value(&self, name: &str) -> Option<&[u8]> {
        self.tags.iter().find(|(n, _)| n == name.as_bytes()).map(|(_, v)| v.as_slice())
    }

    fn start(&mut self) {
        if self.started {
            return;
        }
        self.started = true;
        let variant = self.tag_value("Variant").map(|v| String::from_utf8_lossy(v).into_owned());
        let fen = self.tag_value("FEN").map(|v| String::from_utf8_lossy(v).into_owned());
        match start_position(variant.as_deref(), fen.as_deref()) {
            Ok(Start::Play { position, .. }) => self.lines.push((*position, None)),
            _ => self.broken = true,
        }
    }

    fn live(&mut self) -> bool {
        self.start();
        !self.broken
    }
}

impl Visitor for Recorder {
    type Output = Record;

    fn begin_game(&mut self, _at: Location) {
        let outside = std::mem::take(&mut self.outside);
        *self = Recorder { outside, in_game: true, ..Recorder::default() };
    }

    fn escape(&mut self, line: &[u8], _at: Location) {
        if self.in_game {
            self.items.push(Item::Escape(line.to_vec()));
        } else {
            self.outside.push(line.to_vec());
        }
    }

    fn between_games(&mut self, text: &[u8], _at: Location) {
        self.outside.push(lf(text));
    }

    fn after_result(&mut self, text: &[u8], _at: Location) {
        self.items.push(Item::AfterResult(lf(text)));
    }

    fn tag(&mut self, name: &[u8], value: RawText<'_>, _at: Location) {
        self.tags.push((name.to_vec(), value.unescaped()));
    }

    fn san(&mut self, token: &[u8], _at: Location) {
        if !self.live() {
            return;
        }
        let (position, before) = self.lines.last_mut().unwrap();
        let resolved = match resolve_text(position, token, SanOptions::LENIENT) {
            Ok(resolved) => resolved,
            Err(_) => return self.broken = true,
        };
        if resolved.parsed.readings[resolved.reading].san == San::Null && !position.is_check() {
            self.items.push(Item::Move("--".to_owned()));
            *before = Some(position.clone());
            return position.play_null();
        }
        if !resolved.is_canonical() {
            self.non_canonical.push(String::from_utf8_lossy(token).into_owned());
        }
        let Ok(m) = resolved.resolution.outcome else { return self.broken = true };
        self.items.push(Item::Move(m.to_uci(position.castling_mode()).to_string()));
        if let Some(annotation) = resolved.parsed.readings[resolved.reading].annotation {
            self.items.push(Item::Nag(annotation.nag()));
        }
        *before = Some(position.clone());
        *position = position.play(m).unwrap();
    }

    fn nag(&mut self, nag: u8, _token: &[u8], _at: Location) {
        if self.live() {
            self.items.push(Item::Nag(nag));
        }
    }

    fn comment(&mut self, text: RawText<'_>, _at: Location) {
        if self.live() {
            // the formatter writes a `\r\n` line break as `\n`
            let text = text.0.iter().enumerate().filter(|&(i, &b)| !(b == b'\r' && text.0.get(i + 1) == Some(&b'\n')));
            self.items.push(Item::Comment(text.map(|(_, &b)| b).collect()));
        }
    }

    fn begin_variation(&mut self, _at: Location) -> Skip {
        if self.live() {
            match self.lines.last().unwrap().1.clone() {
                Some(before) => {
                    self.lines.push((before, None));
                    self.items.push(Item::Open);
                }
                None => self.broken = true,
            }
        }
        Skip(false)
    }

    fn end_variation(&mut self, _at: Location) {
        if self.live() {
            if self.lines.len() < 2 {
                return self.broken = true;
            }
            self.lines.pop();
            self.items.push(Item::Close);
        }
    }

    fn result(&mut self, result: ResultToken, _token: &[u8], _at: Location) {
        self.result = Some(match result {
            ResultToken::Outcome(outcome) => outcome.as_str(),
            ResultToken::Unknown => "*",
        });
    }

    fn syntax_error(&mut self, _error: SyntaxError) {
        self.broken = true;
    }

    fn end_game(&mut self, _at: Location) -> Record {
        self.in_game = false;
        self.start();
        let result = match (self.result, self.tag_value("Result")) {
            (Some(marker), _) => marker.as_bytes().to_vec(),
            (None, Some(tag)) if matches!(tag, b"1-0" | b"0-1" | b"1/2-1/2" | b"*") => tag.to_vec(),
            _ => b"*".to_vec(),
        };
        let mut tags: BTreeSet<(Vec<u8>, Vec<u8>)> = self.tags.iter().cloned().collect();
        for (name, unknown) in [
            ("Event", "?"),
            ("Site", "?"),
            ("Date", "????.??.??"),
            ("Round", "?"),
            ("White", "?"),
            ("Black", "?"),
            ("Result", ""),
        ] {
            if self.tag_value(name).is_none() {
                let value = if name == "Result" { result.clone() } else { unknown.as_bytes().to_vec() };
                tags.insert((name.as_bytes().to_vec(), value));
            }
        }
        Record {
            tags,
            items: std::mem::take(&mut self.items),
            result,
            playable: !self.broken && self.lines.len() == 1,
            non_canonical: std::mem::take(&mut self.non_canonical),
        }
    }
}

/// The games of `input`, and the text between games (comments, escape
/// lines) in input order.
fn records(input: &[u8]) -> (Vec<Record>, Vec<Vec<u8>>) {
    let mut reader = Reader::new(input);
    let mut recorder = Recorder::default();
    let games = std::iter::from_fn(|| reader.read_game(&mut recorder)).collect();
    (games, recorder.outside)
}

fn formatted_games(input: &[u8]) -> Vec<FormattedGame> {
    let mut reader = Reader::new(input);
    let mut formatter = Formatter::new(input, reader.location());
    std::iter::from_fn(|| reader.read_game(&mut formatter)).collect()
}

/// What `sanfen check` may say about a rewritten game: the tags are kept as
/// they are; a null move stays one; comments after the marker and text
/// between games stay where they are.
const KEPT_FINDINGS: [&str; 6] = [
    "pgn:result-mismatch",
    "pgn:result-contradicts-position",
    "pgn:unreachable-fen",
    "pgn:null-move",
    "pgn:comment-after-result",
    "pgn:text-between-games",
];

fn validated(input: &[u8]) -> Vec<GameReport> {
    let mut reader = Reader::new(input);
    let mut validator = Validator::new(input, Options::default());
    std::iter::from_fn(|| reader.read_game(&mut validator)).collect()
}

/// Whether each byte of a game's movetext is inside a comment, by comment
/// (0: not in one).
fn comment_ids(movetext: &[u8]) -> Vec<usize> {
    let mut ids = Vec::with_capacity(movetext.len());
    let (mut id, mut closing) = (0, None);
    for &byte in movetext {
        match closing {
            None if byte == b'{' || byte == b';' => {
                id += 1;
                closing = Some(if byte == b'{' { b'}' } else { b'\n' });
                ids.push(id);
            }
            None => ids.push(0),
            Some(end) => {
                ids.push(if byte == b'\n' && end == b'\n' { 0 } else { id });
                if byte == end {
                    closing = None;
                }
            }
        }
    }
    ids
}

/// Every line of a rewritten game's movetext is at most 80 bytes, unless it
/// is one comment (with the `(`s before it and `)`s after it); tag lines
/// are one tag each.
fn check_widths(file: &Path, game: usize, text: &[u8]) {
    // line ends as `\n`; the text between games before the game left out
    let text: Vec<u8> = text
        .iter()
        .enumerate()
        .filter(|&(i, &b)| !(b == b'\r' && text.get(i + 1) == Some(&b'\n')))
        .map(|(_, &b)| b)
        .collect();
    let mut text = &text[..];
    if !text.starts_with(b"[") {
        let blank = text.windows(2).position(|w| w == b"\n\n").expect("text between games, a blank line, the game");
        text = &text[blank + 2..];
    }
    let blank = text.windows(2).position(|w| w == b"\n\n").expect("tags, a blank line, movetext");
    for line in text[..blank].split(|&b| b == b'\n') {
        // (escape lines among the tags are written after them)
        let tag = line.starts_with(b"[") && line.ends_with(b"\"]");
        assert!(tag || line.starts_with(b"%"), "{}: game {game}: tag line", file.display());
    }
    let movetext = &text[blank + 2..];
    let ids = comment_ids(movetext);
    let mut start = 0;
    for line in movetext.split(|&b| b == b'\n') {
        let end = start + line.len();
        if line.len() > MAX_WIDTH {
            let first = start + line.iter().take_while(|&&b| b == b'(').count();
            let last = end - line.iter().rev().take_while(|&&b| b == b')').count();
            let id = ids[first];
            assert!(
                id > 0 && ids[first..last].iter().all(|&i| i == id),
                "{}: game {game}: line of {} bytes: {}",
                file.display(),
                line.len(),
                String::from_utf8_lossy(line)
            );
        }
        start = end + 1;
    }
}

#[test]
fn every_data_file_formats_idempotently_keeping_its_meaning() {
    let mut totals = (0, 0, 0, 0, 0);
    let root = data_root();
    for file in data_files() {
        let input = fs::read(&file).unwrap();
        let (output, unchanged) = format_pgn(&input);
        let (again, unchanged_again) = format_pgn(&output);
        assert!(again == output, "{}: formatting twice differs", file.display());
        assert_eq!(unchanged.len(), unchanged_again.len(), "{}", file.display());
        let (before, outside_before) = records(&input);
        let (after, outside_after) = records(&output);
        assert_eq!(before.len(), after.len(), "{}: games", file.display());
        // the text between games, all of it, in order
        assert_eq!(outside_before, outside_after, "{}: text between games", file.display());
        totals.3 += outside_before.len();
        totals.4 +=
            before.iter().map(|r| r.items.iter().filter(|i| matches!(i, Item::Escape(_))).count()).sum::<usize>();
        for (number, (before, after)) in before.iter().zip(&after).enumerate() {
            let after_moves = Record { non_canonical: before.non_canonical.clone(), ..after.clone() };
            assert_eq!(before, &after_moves, "{}: game {}", file.display(), number + 1);
            if after.playable {
                assert_eq!(after.non_canonical, Vec::<String>::new(), "{}: game {}", file.display(), number + 1);
            }
        }
        let games = formatted_games(&input);
        assert_eq!(games.len(), before.len());
        let reports = validated(&output);
        assert_eq!(reports.len(), games.len());
        for (number, ((game, record), report)) in games.iter().zip(&before).zip(&reports).enumerate() {
            assert_eq!(
                game.error.is_none(),
                record.playable,
                "{}: game {}: {:?}",
                file.display(),
                number + 1,
                game.error
            );
            if game.error.is_none() {
                // `sanfen check` finds nothing to say about a rewritten game
                // but what its tags say, which are kept
                let findings: Vec<String> = report
                    .findings
                    .iter()
                    .filter(|f| !KEPT_FINDINGS.contains(&f.kind.code()))
                    .map(|f| f.kind.to_string())
                    .collect();
                assert_eq!(findings, Vec::<String>::new(), "{}: game {}", file.display(), number + 1);
                check_widths(&file, number + 1, &game.text);
            }
        }
        let name = file.strip_prefix(&root).unwrap().to_string_lossy().into_owned();
        let expected_unchanged = EXPECTED_UNCHANGED.iter().find(|(n, _)| *n == name).map_or(0, |(_, count)| *count);
        assert_eq!(unchanged.len(), expected_unchanged, "{name}: {:?}", unchanged.first());
        totals.0 += 1;
        totals.1 += games.len();
        totals.2 += games.iter().filter(|game| game.error.is_none()).count();
    }
    assert_eq!(totals, (113, 239_175, 238_554, 176, 5), "(files, games, rewritten, text between games, escape lines)");
}

/// `input` formatted with moves in `notation`, as a whole.
fn in_notation(input: &[u8], notation: Notation) -> (Vec<u8>, usize) {
    let mut reader = Reader::new(input);
    let mut formatter = Formatter::new(input, reader.location()).with_notation(notation);
    let (mut out, mut unchanged) = (Vec::new(), 0);
    while let Some(game) = reader.read_game(&mut formatter) {
        let first = out.is_empty();
        append_game(&mut out, &game.text, first);
        unchanged += usize::from(game.error.is_some());
    }
    let first = out.is_empty();
    append_game(&mut out, &formatter.take_outside(), first);
    (out, unchanged)
}

#[test]
fn every_data_file_in_another_notation_reads_back_as_the_same_games() {
    let mut moves = 0;
    for file in data_files() {
        let input = fs::read(&file).unwrap();
        let (san, san_unchanged) = format_pgn(&input);
        for notation in [Notation::Lan, Notation::Uci, Notation::Figurine] {
            let (other, unchanged) = in_notation(&input, notation);
            assert_eq!(unchanged, san_unchanged.len(), "{}: {notation:?}", file.display());
            // the same games, in SAN again: what SAN gave at once
            let (back, _) = format_pgn(&other);
            assert!(back == san, "{}: {notation:?}", file.display());
        }
        moves += validated(&san).iter().map(|report| report.moves).sum::<u64>();
    }
    assert!(moves > 1_000_000, "{moves}");
}

#[test]
fn chunks_format_as_the_whole_input_does() {
    for file in data_files() {
        let input = fs::read(&file).unwrap();
        let (whole, whole_unchanged) = format_pgn(&input);
        let mut chunker = Chunker::with_target(&input[..], 1 << 12);
        let (mut out, mut unchanged, mut games, mut buffer) = (Vec::new(), Vec::new(), 0, Vec::new());
        let mut crlf = None;
        while let Some(chunk) = chunker.next_chunk(buffer).unwrap() {
            let mut reader = Reader::with_start(&chunk.data, chunk.start);
            let formatter = Formatter::new(&chunk.data, chunk.start);
            // the line ends of the first chunk for all
            let crlf = *crlf.get_or_insert(formatter.crlf());
            let mut formatter = formatter.with_crlf(crlf);
            while let Some(game) = reader.read_game(&mut formatter) {
                games += 1;
                let first = out.is_empty();
                append_game(&mut out, &game.text, first);
                unchanged.extend(game.error.map(|error| (games, error)));
            }
            let first = out.is_empty();
            append_game(&mut out, &formatter.take_outside(), first);
            buffer = chunk.data;
        }
        assert!(out == whole, "{}", file.display());
        assert_eq!(unchanged, whole_unchanged, "{}", file.display());
    }
}

/// `format_input` of `input` on `threads` threads (`first`: nothing written
/// before it): the text, the games written unchanged, the summary.
fn format_on(
    input: &[u8],
    threads: usize,
    policy: LintPolicy,
    first: bool,
) -> (Vec<u8>, Vec<Unchanged>, FormatSummary) {
    let (mut text, mut unchanged, mut first) = (Vec::new(), Vec::new(), first);
    let input = Input::from_reader(std::io::Cursor::new(input.to_vec()), None).unwrap();
    let options = FormatOptions { policy, ..FormatOptions::default() };
    let summary = format_input(input, options, threads, &mut first, |part| {
        text.extend_from_slice(&part.text);
        unchanged.extend(part.unchanged.iter().cloned());
        Ok::<(), ()>(())
    })
    .unwrap();
    (text, unchanged, summary)
}

#[test]
fn the_output_is_the_same_whatever_the_threads() {
    // Many 1 MiB chunks: a CRLF file first (every chunk after it is written
    // with its line ends, the LF ones formatted again), games with errors,
    // a lint denied, a game too large to read between the others; then the
    // same with an LF file first.
    let read = |name: &str| fs::read(data_root().join(name)).unwrap();
    let crlf = read("stockfish-books/8moves_v3.pgn");
    let mut lf_files = Vec::new();
    for name in ["shakmaty-bench/twic1599_1000k.pgn", "chess.js/0.pgn", "shakmaty-bench/lichess_db_1000k.pgn"] {
        lf_files.extend(read(name));
        lf_files.extend_from_slice(b"\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *\n\n");
    }
    let large = format!("[Event \"large\"]\n\n1. e4 {{{}}} *\n\n", "x".repeat(Chunker::<&[u8]>::MAX_GAME + 10));
    let mut policy = LintPolicy::default();
    policy.deny("san:castling-zeros").unwrap();
    for input in [[&crlf[..], &lf_files, large.as_bytes(), &lf_files].concat(), [&lf_files[..], &crlf].concat()] {
        for first in [true, false] {
            let one = format_on(&input, 1, policy, first);
            assert!(one.2.games > 1000 && one.2.unchanged > 10, "{:?}", one.2);
            for threads in [2, 3] {
                let many = format_on(&input, threads, policy, first);
                assert!(many.0 == one.0, "{threads} threads");
                assert_eq!((&many.1, many.2), (&one.1, one.2), "{threads} threads");
            }
        }
    }
}

/// The files with games written unchanged (path under `pgn/`), how many, and
/// why; every other game of every file is rewritten.
const EXPECTED_UNCHANGED: &[(&str, usize)] = &[
    // `<br />` for line breaks: not a move
    ("chess.js/0.pgn", 8),
    // Antichess
    ("chessops/headers-and-moves-on-the-same-line.pgn", 3),
    // variants
    ("pychess/gamefiles/atomic.pgn", 10),
    ("pychess/gamefiles/schess.pgn", 504),
    ("pychess/gamefiles/sittuyin.pgn", 3),
    ("pychess/gamefiles/zh.pgn", 83),
    ("python-chess/antichess-programfox.pgn", 2),
    ("python-chess/knightvuillaume-jannlee-zh-lichess.pgn", 1),
    ("python-chess/saturs-jannlee-zh-lichess.pgn", 1),
    ("scalachess/pgns.txt", 1),
    // `[kj90trkm"sdfsdf"yl]`: no tag
    ("pychess/gamefiles/badpgn.pgn", 1),
    // illegal moves (see SOURCES.md)
    ("pychess/learn/lichess_study_lichess-practice-greek-gift_by_arex_2017.02.11.pgn", 1),
    ("pychess/learn/lichess_study_lichess-practice-the-fork_by_arex_2017.01.29.pgn", 3),
];

// ---- the command ----------------------------------------------------------------------

fn sanfen(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("sanfen");
    cmd.args(args).env_remove("NO_COLOR");
    cmd
}

const SMALL: &str = "[White \"A\"]\n1. e4 e5 2. Ng1f3 0-1\n";
const SMALL_FORMATTED: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A\"]\n\
                               [Black \"?\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 0-1\n";
const BAD: &str = "1. e4 e5 2. Ke3 *\n";

#[test]
fn fmt_writes_stdout() {
    sanfen(&["fmt"]).write_stdin(SMALL).assert().code(0).stdout(SMALL_FORMATTED).stderr("");
    sanfen(&["fmt", "-"])
        .write_stdin(format!("{SMALL}\n{SMALL}"))
        .assert()
        .code(0)
        .stdout(format!("{SMALL_FORMATTED}\n{SMALL_FORMATTED}"));
    sanfen(&["fmt"]).write_stdin("").assert().code(0).stdout("").stderr("");
}

#[test]
fn fmt_streams_a_large_file() {
    // 8 MB, CRLF: many chunks
    let path = data_root().join("stockfish-books/8moves_v3.pgn");
    let expected = format_pgn(&fs::read(&path).unwrap()).0;
    for jobs in ["1", "2", "3"] {
        let output = sanfen(&["fmt", "-j", jobs, path.to_str().unwrap()])
            .assert()
            .code(0)
            .stderr("")
            .get_output()
            .stdout
            .clone();
        assert!(output == expected, "-j {jobs}");
    }
}

#[test]
fn fmt_reports_games_written_unchanged() {
    sanfen(&["fmt"])
        .write_stdin(format!("{SMALL}\n{BAD}"))
        .assert()
        .code(1)
        .stdout(format!("{SMALL_FORMATTED}\n{BAD}"))
        .stderr(format!("<stdin>:4:13: game 2: 2. Ke3: {KE3} (game written unchanged)\n"));
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sanfen-fmt-{}-{name}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.pgn");
    fs::write(&path, contents).unwrap();
    path
}

#[test]
fn fmt_in_place() {
    let path = temp_file("in-place", SMALL);
    let name = path.to_str().unwrap();
    sanfen(&["fmt", "--in-place", name]).assert().code(0).stdout("").stderr("");
    assert_eq!(fs::read_to_string(&path).unwrap(), SMALL_FORMATTED);
    // a file with a bad game is rewritten too, the bad game as it was
    fs::write(&path, format!("{BAD}\n{SMALL}")).unwrap();
    sanfen(&["fmt", "--in-place", name])
        .assert()
        .code(1)
        .stdout("")
        .stderr(format!("{name}:1:13: game 1: 2. Ke3: {KE3} (game written unchanged)\n"));
    assert_eq!(fs::read_to_string(&path).unwrap(), format!("{BAD}\n{SMALL_FORMATTED}"));
    // nothing else is left in the directory
    assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);
    fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn fmt_usage_and_io_errors() {
    // the listing's notation, which no reader reads back as castling, is none of fmt's
    let refused = sanfen(&["fmt", "--notation", "file-prefixed"]).write_stdin(SMALL).assert().code(2).stdout("");
    let stderr = String::from_utf8(refused.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.starts_with(
            "error: invalid value 'file-prefixed' for '--notation <NOTATION>'\n  [possible values: san, lan, uci, figurine]"
        ),
        "{stderr}"
    );
    sanfen(&["fmt", "--in-place"])
        .write_stdin(SMALL)
        .assert()
        .code(2)
        .stdout("")
        .stderr("sanfen: fmt --in-place needs files: standard input cannot be rewritten\n");
    sanfen(&["fmt", "--in-place", "games.pgn.zst"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("sanfen: fmt --in-place cannot rewrite a compressed file: games.pgn.zst\n");
    // a file that cannot be read: reported, the other files formatted
    let path = temp_file("missing", SMALL);
    sanfen(&["fmt", "/nonexistent/games.pgn", path.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(SMALL_FORMATTED)
        .stderr("sanfen: /nonexistent/games.pgn: No such file or directory (os error 2)\n");
    sanfen(&["fmt", "--in-place", "/nonexistent/games.pgn", path.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout("")
        .stderr("sanfen: /nonexistent/games.pgn: No such file or directory (os error 2)\n");
    assert_eq!(fs::read_to_string(&path).unwrap(), SMALL_FORMATTED);
    fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn carriage_returns_before_a_line_end_go_with_it() {
    // a game written unchanged (a bad tag) whose line ends with `\r\r\n`,
    // in `\n` output: kept, the extra `\r` would make its line look
    // `\r\n`-ended, and formatting again would change every line end
    let (text, unchanged) = format(b"\n[\r\r\no");
    assert_eq!(text, "[\no\n");
    assert_eq!(unchanged.len(), 1);
    assert_eq!(format(text.as_bytes()).0, text, "not idempotent");
    // in a comment, in `\r\n` output: one `\r` before each `\n`; a `\r`
    // inside a line is kept
    let (text, unchanged) = format(b"1. e4 {a\r\r\r\nb\rc} e5 *\r\n");
    assert!(unchanged.is_empty());
    assert!(text.ends_with("1. e4 {a\r\nb\rc} 1... e5 *\r\n"), "{text:?}");
    assert_eq!(format(text.as_bytes()).0, text, "not idempotent");
    // the reader agrees: a `;` comment before `\r\r\n` reads the same
    // once its game is written unchanged (found by the fmt fuzz target)
    // (tags and `;` comments alone: the game gets its termination marker,
    // as a game of tags alone does)
    let (text, unchanged) = format(b"\n[\n[\r\r\n;\r\r\n;");
    assert_eq!(text, "[\n[\n;\n;\n\n*\n");
    assert_eq!(unchanged.len(), 1);
    let comments = |pgn: &[u8]| {
        let games = sanfen::pgn::read_games_from_slice(pgn);
        games.iter().flat_map(|game| game.mainline.comments.iter().map(|c| c.text().to_owned())).collect::<Vec<_>>()
    };
    assert_eq!(comments(b"\n[\n[\r\r\n;\r\r\n;"), ["", ""]);
    assert_eq!(comments(text.as_bytes()), ["", ""]);
}

#[test]
fn invisible_characters_before_a_game_written_unchanged_are_kept() {
    // The reader takes a Latin-1 no-break space after a line end for a
    // space, and starts the second game at the next byte: written unchanged,
    // the game keeps the first, as it keeps a UTF-8 no-break space and a
    // zero-width space. Each pass lost one before.
    let roster = format!("{UNKNOWN_ROSTER}[Result \"*\"]\n\n1. e4 *\n\n");
    for invisible in [&b"\xa0"[..], b"\xc2\xa0", b"\xe2\x80\x8b"] {
        let mut input = b"1. e4 *\n\n".to_vec();
        input.extend_from_slice(invisible);
        input.extend_from_slice(b"\xa0\xa0 *\n");
        let (text, unchanged) = format_pgn(&input);
        let mut expected = roster.as_bytes().to_vec();
        expected.extend_from_slice(&input[9..]);
        assert_eq!(text, expected, "{invisible:?}");
        assert_eq!(unchanged.iter().map(|(game, _)| *game).collect::<Vec<_>>(), [2], "{invisible:?}");
        assert_eq!(format_pgn(&text).0, text, "{invisible:?}: not idempotent");
    }
    // a byte order mark goes, as before: it says the encoding of the text
    // it starts, and after a line end it would start the output
    for input in [&b"\xef\xbb\xbf|%"[..], b"\r\xef\xbb\xbf|%", b"1. e4 *\n\n\xef\xbb\xbf|%"] {
        let (text, unchanged) = format_pgn(input);
        let kept = if input.len() > 10 { format!("{roster}|%\n") } else { "|%\n".to_owned() };
        assert_eq!((String::from_utf8(text.clone()).unwrap(), unchanged.len()), (kept, 1), "{input:?}");
        assert_eq!(format_pgn(&text).0, text, "{input:?}: not idempotent");
    }
}
