//! The session, line by line: exact responses.

use super::*;

/// The text lines of a response (boards and files to write left out).
fn lines(response: &Response) -> Vec<String> {
    response.lines().map(str::to_owned).collect()
}

/// The text lines joined with `\n`.
fn text(response: &Response) -> String {
    lines(response).join("\n")
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
const AFTER_E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

fn session() -> Session {
    Session::new(Options::default())
}

/// Evaluates `line` and checks the whole response text and the error flag.
fn check(session: &mut Session, line: &str, expected: &[&str], error: bool) {
    let response = session.eval(line);
    assert_eq!(lines(&response), expected, "{line}");
    assert_eq!(response.is_error(), error, "{line}");
    assert!(!response.quit, "{line}");
}

fn fen(session: &Session) -> String {
    session.game().position().to_string()
}

#[test]
fn notation_setting_changes_the_listing() {
    let mut s = Session::new(Options::default());
    assert_eq!(text(&s.eval("notation lan")), "notation: lan");
    assert!(text(&s.eval("moves")).starts_with("20 legal moves: a2-a3 a2-a4 b2-b3"), "{}", text(&s.eval("moves")));
    assert_eq!(text(&s.eval("notation uci")), "notation: uci");
    assert!(text(&s.eval("moves")).ends_with("g1f3 g1h3"));
    assert!(s.eval("notation xyz").is_error());
    assert_eq!(text(&s.eval("notation")), "notation: uci");
}

#[test]
fn a_few_moves() {
    let mut s = session();
    check(&mut s, "e4", &["1. e4", AFTER_E4], false);
    check(
        &mut s,
        "e5 Nf3",
        &["1... e5", AFTER_E4_E5, "2. Nf3", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"],
        false,
    );
    check(&mut s, "", &[], false);
    check(&mut s, "   ", &[], false);
}

#[test]
fn move_numbers_and_annotations_are_skipped() {
    let mut s = session();
    check(
        &mut s,
        "1. e4 e5 2.Nf3 $1 2... Nc6! *",
        &[
            "1. e4",
            AFTER_E4,
            "1... e5",
            AFTER_E4_E5,
            "2. Nf3",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
            "2... Nc6",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "\"*\": no result yet, the game goes on",
        ],
        false,
    );
}

#[test]
fn a_result_typed_among_moves_ends_the_game_with_it() {
    let mut s = session();
    check(
        &mut s,
        "1. e4 e5 1-0",
        &["1. e4", AFTER_E4, "1... e5", AFTER_E4_E5, "game over: result as typed, 1-0 (White wins)"],
        false,
    );
    assert!(s.pgn().ends_with("[Result \"1-0\"]\n\n1. e4 e5 1-0\n"), "{}", s.pgn());
    // the same result again passes; another, or moves, are refused
    check(&mut s, "1-0", &[], false);
    let over = "the game is over (result as typed, 1-0)";
    check(&mut s, "½-½ Nf3", &[&format!("{over}: the result \"½-½\" does not fit"), "not played: Nf3"], true);
    check(&mut s, "*", &[&format!("{over}: the result \"*\" does not fit")], true);
    check(&mut s, "2.Nf3", &[&format!("{over}: \"Nf3\" not played; undo or new to play on")], true);
    check(&mut s, "undo", &["undone: result as typed; play on", AFTER_E4_E5], false);
    check(
        &mut s,
        "1/2-1/2 Nf3",
        &[
            "game over: result as typed, 1/2-1/2 (draw)",
            "the game is over (result as typed, 1/2-1/2): \"Nf3\" not played; undo or new to play on",
        ],
        true,
    );
    s.eval("undo");
    // a result glued to its move number, after a mate that gives it
    s.eval("new");
    s.eval("f3 e5 g4 Qh4#");
    check(&mut s, "3.0-1", &[], false);
    check(&mut s, "1-0", &["the game is over (checkmate, 0-1): the result \"1-0\" does not fit"], true);
    // against the engine, the game ends on the board or by a command
    s.eval("new");
    s.eval("play black 1");
    check(&mut s, "0-1", &["\"0-1\": against the engine, a game ends on the board or by resign, draw or claim"], true);
    assert_eq!(s.over(), None);
}

#[test]
fn mixed_spellings() {
    let mut s = session();
    check(
        &mut s,
        "e4 e5 Ng1-f3 Nc6 Bc4 Bc5 0-0",
        &[
            "1. e4",
            AFTER_E4,
            "1... e5",
            AFTER_E4_E5,
            "2. Nf3 (Ng1-f3 -> Nf3)",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
            "2... Nc6",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "3. Bc4",
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
            "3... Bc5",
            "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "4. O-O (0-0 -> O-O)",
            "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4",
        ],
        false,
    );
    check(&mut s, "load 2k5/4P3/8/8/8/8/8/K7 w - - 0 1", &["2k5/4P3/8/8/8/8/8/K7 w - - 0 1"], false);
    check(&mut s, "e8Q", &["1. e8=Q+ (e8Q -> e8=Q+)", "2k1Q3/8/8/8/8/8/8/K7 b - - 0 1"], false);

    let mut s = session();
    check(&mut s, "letters pt", &["letters: Portuguese (K=R Q=D R=T B=B N=C)"], false);
    check(
        &mut s,
        "1. e4 d5 2. exd5 Dxd5 3. Cf3",
        &[
            "1. e4",
            AFTER_E4,
            "1... d5",
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "2. exd5",
            "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
            "2... Qxd5 (Dxd5 -> Qxd5)",
            "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
            "3. Nf3 (Cf3 -> Nf3)",
            "rnb1kbnr/ppp1pppp/8/3q4/8/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 3",
        ],
        false,
    );
    // the king is R in Portuguese: castling is still O-O
    check(
        &mut s,
        "Bf5 Be2 Cc6 O-O",
        &[
            "3... Bf5",
            "rn2kbnr/ppp1pppp/8/3q1b2/8/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 4",
            "4. Be2",
            "rn2kbnr/ppp1pppp/8/3q1b2/8/5N2/PPPPBPPP/RNBQK2R b KQkq - 3 4",
            "4... Nc6 (Cc6 -> Nc6)",
            "r3kbnr/ppp1pppp/2n5/3q1b2/8/5N2/PPPPBPPP/RNBQK2R w KQkq - 4 5",
            "5. O-O",
            "r3kbnr/ppp1pppp/2n5/3q1b2/8/5N2/PPPPBPPP/RNBQ1RK1 b kq - 5 5",
        ],
        false,
    );
}

#[test]
fn en_passant_mark_written_apart() {
    let mut s = session();
    s.eval("e4 Nf6 e5 d5");
    check(
        &mut s,
        "exd6 e.p.",
        &["3. exd6 (exd6 e.p. -> exd6)", "rnbqkb1r/ppp1pppp/3P1n2/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"],
        false,
    );
}

#[test]
fn an_illegal_third_move_stops_the_line() {
    let mut s = session();
    check(
        &mut s,
        "e4 e5 Ke3 Nf3",
        &[
            "1. e4",
            AFTER_E4,
            "1... e5",
            AFTER_E4_E5,
            "illegal move \"Ke3\": no king can move to e3",
            "did you mean Ke2?",
            "not played: Nf3",
        ],
        true,
    );
    assert_eq!(fen(&s), AFTER_E4_E5);
}

#[test]
fn illegal_with_a_reason() {
    let mut s = session();
    check(
        &mut s,
        "Nd2",
        &["illegal move \"Nd2\": d2 holds a piece of the side to move", "did you mean Na3, Nc3, Nf3?"],
        true,
    );
    check(
        &mut s,
        "Bc4",
        &[
            "illegal move \"Bc4\": no bishop can move to c4: the bishop on f1 is blocked by the piece on e2",
            "did you mean c4?",
        ],
        true,
    );
    assert_eq!(fen(&s), START);
}

#[test]
fn ambiguous() {
    let mut s = session();
    s.eval("load 4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    check(
        &mut s,
        "Nd2",
        &["ambiguous move \"Nd2\": the pieces on b1 and f3 can both make it", "did you mean Nbd2 or Nfd2?"],
        true,
    );
    assert_eq!(fen(&s), "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    check(&mut s, "Nfd2", &["1. Nfd2", "4k3/8/8/8/8/8/3N4/1N2K3 b - - 1 1"], false);
}

#[test]
fn syntax_error_with_a_caret() {
    let mut s = session();
    check(
        &mut s,
        "1. e4 e5 2. Nf9",
        &[
            "1. e4",
            AFTER_E4,
            "1... e5",
            AFTER_E4_E5,
            "syntax error in \"Nf9\": found \"9\", expected a file a-h, a rank 1-8 or `x`",
            "  1. e4 e5 2. Nf9",
            "                ^",
        ],
        true,
    );
    assert_eq!(fen(&s), AFTER_E4_E5);
    // a figurine counts as one column; a tab as one space
    let response = s.eval("♘f3\tNz3");
    assert_eq!(lines(&response)[3..], ["  ♘f3 Nz3", "       ^"]);
}

#[test]
fn undo_then_redo_returns_the_same_fen() {
    let mut s = session();
    s.eval("e4 e5 Nf3 Nc6");
    let before = fen(&s);
    check(
        &mut s,
        "undo",
        &["undone: 2... Nc6", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"],
        false,
    );
    check(&mut s, "undo 2", &["undone: 1... e5 2. Nf3", AFTER_E4], false);
    check(&mut s, "redo", &["redone: 1... e5", AFTER_E4_E5], false);
    s.eval("redo");
    check(
        &mut s,
        "redo",
        &["redone: 2... Nc6", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"],
        false,
    );
    assert_eq!(fen(&s), before);
    check(&mut s, "redo", &["nothing to redo"], true);
    check(&mut s, "undo 10", &["undone: 1. e4 e5 2. Nf3 Nc6", START], false);
    check(&mut s, "undo", &["nothing to undo"], true);
    check(&mut s, "undo x", &["usage: undo [N]: \"x\" is not a positive number"], true);
    check(&mut s, "undo 0", &["usage: undo [N]: \"0\" is not a positive number"], true);
    // a new move clears the redo stack
    s.eval("d4");
    check(&mut s, "redo", &["nothing to redo"], true);
}

#[test]
fn fools_mate() {
    let mut s = session();
    check(
        &mut s,
        "f3 e5 g4 Qh4#",
        &[
            "1. f3",
            "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1",
            "1... e5",
            "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2",
            "2. g4",
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
            "2... Qh4#",
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "game over: checkmate, 0-1 (Black wins)",
        ],
        false,
    );
    check(&mut s, "moves", &["no legal moves"], false);
    check(
        &mut s,
        "pgn",
        &[
            "[Event \"?\"]",
            "[Site \"?\"]",
            "[Date \"????.??.??\"]",
            "[Round \"?\"]",
            "[White \"?\"]",
            "[Black \"?\"]",
            "[Result \"0-1\"]",
            "",
            "1. f3 e5 2. g4 Qh4# 0-1",
        ],
        false,
    );
}

#[test]
fn stalemate() {
    let mut s = session();
    check(&mut s, "load k7/8/1Q6/8/8/8/8/7K w - - 0 1", &["k7/8/1Q6/8/8/8/8/7K w - - 0 1"], false);
    check(
        &mut s,
        "Qb6-c7",
        &["1. Qc7 (Qb6-c7 -> Qc7)", "k7/2Q5/8/8/8/8/8/7K b - - 1 1", "game over: stalemate, 1/2-1/2 (draw)"],
        false,
    );
}

#[test]
fn claimable_draw() {
    let mut s = session();
    let response = s.eval("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    assert_eq!(lines(&response).last().unwrap(), "White may claim a draw: threefold repetition (type claim)");
    assert_eq!(lines(&response).iter().filter(|l| l.contains("claim")).count(), 1);
}

/// The board of the session's position as a response shows it.
fn view(session: &Session, flipped: bool, marks: Marks) -> Output {
    Output::Board(BoardView { board: session.game().position().board().clone(), flipped, marks })
}

/// The last move's squares, as marks.
fn last(from: Square, to: Square) -> Marks {
    Marks { last_move: Some((from, to)), ..Marks::default() }
}

#[test]
fn board_fen_flip_and_board_mode() {
    let mut s = session();
    check(&mut s, "fen", &[START], false);
    assert_eq!(
        s.eval("board").outputs,
        [Output::Board(BoardView {
            board: Position::default().board().clone(),
            flipped: false,
            marks: Marks::default()
        })]
    );
    s.eval("e4");
    let e2e4 = last(Square::E2, Square::E4);
    assert_eq!(s.eval("board").outputs, [view(&s, false, e2e4)]);
    assert_eq!(s.eval("flip").outputs, [view(&s, true, e2e4)]);
    assert_eq!(s.eval("board").outputs, [view(&s, true, e2e4)]);
    assert_eq!(s.eval("flip").outputs, [view(&s, false, e2e4)]);
    check(&mut s, "board on", &["board: on"], false);
    let response = s.eval("e5");
    let expected = [
        Output::Text("1... e5".into()),
        Output::Text(AFTER_E4_E5.into()),
        view(&s, false, last(Square::E7, Square::E5)),
    ];
    assert_eq!(response.outputs, expected);
    check(&mut s, "board off", &["board: off"], false);
    check(&mut s, "board sideways", &["usage: board [on|off]"], true);
    let response = s.eval("Nf3");
    assert_eq!(lines(&response), ["2. Nf3", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"]);
    assert_eq!(response.boards().count(), 0);
}

#[test]
fn boards_mark_the_last_move_and_a_checked_king() {
    let mut s = Session::new(Options { board: true, ..Options::default() });
    let response = s.eval("f3 e5 g4 Qh4");
    // one board, after the line's last move
    let marks = Marks { last_move: Some((Square::D8, Square::H4)), check: Some(Square::E1), ..Marks::default() };
    assert_eq!(
        response.boards().collect::<Vec<_>>(),
        [&BoardView { board: s.game().position().board().clone(), flipped: false, marks }]
    );
    assert_eq!(response.outputs.last(), Some(&view(&s, false, marks)));
}

#[test]
fn load_and_new() {
    let mut s = session();
    s.eval("e4");
    check(&mut s, "load 4k3/8/8/8/8/8/8/4K2R w K - 0 1", &["4k3/8/8/8/8/8/8/4K2R w K - 0 1"], false);
    assert!(s.game().moves().is_empty());
    check(&mut s, "load", &["usage: load FEN | load FILE [N] | load PGN"], true);
    let response = s.eval("load 9/8 w");
    assert!(response.is_error());
    assert!(lines(&response)[0].starts_with("invalid FEN: "), "{:?}", lines(&response));
    assert_eq!(fen(&s), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    // no legal game reaches it, but it can be played
    let response = s.eval("load 4k3/8/8/8/8/8/PPPPPPPP/QQQQKQQQ w - - 0 1");
    assert!(!response.is_error());
    assert!(lines(&response)[0].starts_with("warning: no legal game reaches this position"), "{:?}", lines(&response));
    assert_eq!(lines(&response)[1], "4k3/8/8/8/8/8/PPPPPPPP/QQQQKQQQ w - - 0 1");
    let response = s.eval("load 8/8/8/8/8/8/8/8 w - - 0 1");
    assert!(response.is_error());
    assert!(lines(&response)[0].starts_with("invalid position: "), "{:?}", lines(&response));
    check(
        &mut s,
        "load 8/8/8/8/8/8/8/k6K w - - 0 1",
        &["8/8/8/8/8/8/8/k6K w - - 0 1", "game over: insufficient material, 1/2-1/2 (draw)"],
        false,
    );
    check(&mut s, "new", &["new game", START], false);
    // `new` goes back to the session's start
    let start = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let position =
        Position::from_setup(Fen::parse(start, CastlingMode::Standard).unwrap().setup, CastlingMode::Standard).unwrap();
    let mut s = Session::new(Options { start: position, ..Options::default() });
    s.eval("e4");
    check(&mut s, "new", &["new game", start], false);
}

#[test]
fn moves_and_attacks() {
    let mut s = session();
    check(&mut s, "moves", &["20 legal moves: a3 a4 b3 b4 c3 c4 d3 d4 e3 e4 f3 f4 g3 g4 h3 h4 Na3 Nc3 Nf3 Nh3"], false);
    s.eval("letters pt");
    check(&mut s, "moves", &["20 legal moves: a3 a4 b3 b4 c3 c4 d3 d4 e3 e4 f3 f4 g3 g4 h3 h4 Ca3 Cc3 Cf3 Ch3"], false);
    s.eval("e4 e5 Cf3 Cc6");
    let last = last(Square::B8, Square::C6);
    let knight =
        |targets: &[Square]| Marks { targets: targets.iter().copied().collect(), origin: Some(Square::F3), ..last };
    let response = s.eval("moves f3");
    assert_eq!(
        response.outputs,
        [
            Output::Text("white knight on f3 moves to: g1 d4 h4 e5 g5".into()),
            view(&s, false, knight(&[Square::G1, Square::D4, Square::H4, Square::E5, Square::G5])),
        ]
    );
    let response = s.eval("moves c6");
    assert_eq!(lines(&response), ["black knight on c6 reaches (not its turn): b4 d4 a5 e7 b8"]);
    check(&mut s, "moves e3", &["no piece on e3"], true);
    check(&mut s, "moves z9", &["not a square: \"z9\" (write a file and a rank: e4)"], true);
    check(&mut s, "moves a b", &["usage: moves [SQUARE]"], true);
    let response = s.eval("attacks f3");
    assert_eq!(
        response.outputs,
        [Output::Text("white knight on f3 is safe on: g1".into()), view(&s, false, knight(&[Square::G1])),]
    );
    let response = s.eval("attacks");
    assert!(!response.is_error());
    assert!(lines(&response)[0].starts_with("Black attacks "), "{}", lines(&response)[0]);
    let attacked = response.boards().next().unwrap().marks.targets;
    assert_eq!(
        attacked & Bitboard::from_rank(crate::Rank::Fourth),
        [Square::B4, Square::D4, Square::F4, Square::H4].into_iter().collect()
    );
    assert_eq!(response.boards().next().unwrap().marks.origin, None);
    check(&mut s, "attacks e3", &["no piece on e3"], true);
    check(&mut s, "attacks a b", &["usage: attacks [SQUARE]"], true);
}

#[test]
fn history_and_pgn() {
    let mut s = session();
    check(&mut s, "history", &["no moves yet"], false);
    s.eval("e4 e5 Nf3");
    check(&mut s, "history", &["1. e4 e5 2. Nf3"], false);
    s.eval("load 4k3/8/8/8/8/8/4P3/4K3 b - - 0 30");
    s.eval("Kd7 e4 Kd6");
    check(&mut s, "history", &["30... Kd7 31. e4 Kd6"], false);
    check(
        &mut s,
        "pgn",
        &[
            "[Event \"?\"]",
            "[Site \"?\"]",
            "[Date \"????.??.??\"]",
            "[Round \"?\"]",
            "[White \"?\"]",
            "[Black \"?\"]",
            "[Result \"*\"]",
            "[SetUp \"1\"]",
            "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]",
            "",
            "30... Kd7 31. e4 Kd6 *",
        ],
        false,
    );
    // long games wrap at 80 bytes, as `pgn::format` writes PGN: this line is 80 long
    let mut s = session();
    s.eval("e4 e5 Bc4 Bc5 c3 Qe7 Nf3 d6 O-O Bb6 d4 Nf6 Na3 Bg4 Nc2");
    let pgn = s.pgn();
    let movetext = "1. e4 e5 2. Bc4 Bc5 3. c3 Qe7 4. Nf3 d6 5. O-O Bb6 6. d4 Nf6 7. Na3 Bg4 8. Nc2 *\n";
    assert_eq!(pgn.split_once("\n\n").map(|(_, moves)| moves), Some(movetext));
    // a move number stays with its move
    s.eval("Nbd7 Qd3 d5 exd5 e4 Qd2 exf3 Re1 Ne4 Qf4 f5 gxf3 g5 Qe3 Ne5 Bb5+ c6 fxg4 Nxg4 Qe2 cxb5");
    let movetext = "1. e4 e5 2. Bc4 Bc5 3. c3 Qe7 4. Nf3 d6 5. O-O Bb6 6. d4 Nf6 7. Na3 Bg4 8. Nc2\n\
                    Nbd7 9. Qd3 d5 10. exd5 e4 11. Qd2 exf3 12. Re1 Ne4 13. Qf4 f5 14. gxf3 g5\n\
                    15. Qe3 Ne5 16. Bb5+ c6 17. fxg4 Nxg4 18. Qe2 cxb5 *\n";
    assert_eq!(s.pgn().split_once("\n\n").map(|(_, moves)| moves), Some(movetext));
    // the formatter rewrote it (no game left unchanged)
    let unlaid = s.pgn().replace('\n', " ").replace("]  ", "]\n\n").replace("] ", "]\n");
    assert_eq!(crate::pgn::format::format_pgn(unlaid.as_bytes()), (s.pgn().into_bytes(), Vec::new()));
}

#[test]
fn save_pgn_and_binary_log() {
    let mut s = session();
    s.eval("e4 e5 Nf3 Nc6 Bc4 Bc5 O-O");
    let pgn = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n\
               [Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *\n";
    assert_eq!(s.pgn(), pgn);
    let save = Save {
        path: "game.pgn".into(),
        bytes: pgn.as_bytes().to_vec(),
        format: SaveFormat::Pgn,
        moves: 7,
        mode: SaveMode::New,
        shared_game: None,
        place: None,
        game: 0,
    };
    assert_eq!(s.eval("save game.pgn").outputs, [Output::Save(save.clone())]);
    assert_eq!(save.saved(None), "saved 7 moves to game.pgn (PGN)");
    assert_eq!(save.saved(Some("zstd")), "saved 7 moves to game.pgn (PGN, zstd)");
    assert_eq!(save.failed(&"no such directory"), "cannot write game.pgn: no such directory");
    assert_eq!(
        save.exists(),
        "game.pgn exists: not replaced (save! game.pgn replaces it, append game.pgn adds this game at its end)"
    );
    // save! replaces, append adds: the same bytes, to be written otherwise
    for (line, mode) in [("save! game.pgn", SaveMode::Replace), ("APPEND   \"game.pgn\" ", SaveMode::Append)] {
        assert_eq!(s.eval(line).outputs, [Output::Save(Save { mode, ..save.clone() })], "{line}");
    }
    let appended = Save { mode: SaveMode::Append, ..save.clone() };
    assert_eq!(appended.saved(Some("gzip")), "appended 7 moves to game.pgn (PGN, gzip)");
    let spaced = Save { path: "my games.pgn".into(), ..save.clone() };
    assert_eq!(
        spaced.exists(),
        "my games.pgn exists: not replaced (save! \"my games.pgn\" replaces it, append \"my games.pgn\" adds this \
         game at its end)"
    );
    let response = s.eval("save dir/GAME.BIN");
    // (from the initial position, with no promotion: no warning)
    let [Output::Save(save)] = response.outputs.as_slice() else { panic!("{response:?}") };
    assert_eq!((save.path.as_str(), save.format, save.moves), ("dir/GAME.BIN", SaveFormat::MoveLog, 7));
    assert_eq!(save.saved(None), "saved 7 moves to dir/GAME.BIN (binary log, 112 bytes)");
    assert_eq!(save.exists(), "dir/GAME.BIN exists: not replaced (save! dir/GAME.BIN replaces it)");
    let values: Vec<i32> = save.bytes.chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect();
    #[rustfmt::skip]
    let expected = [
        1, 4, 3, 4, // e2e4
        6, 4, 4, 4, // e7e5
        0, 6, 2, 5, // g1f3
        7, 1, 5, 2, // b8c6
        0, 5, 3, 2, // f1c4
        7, 5, 4, 2, // f8c5
        0, 4, 0, 6, // O-O as e1g1
    ];
    assert_eq!(values, expected);
    assert_eq!(save.bytes, s.game().move_log());
    check(&mut s, "save", &["usage: save FILE"], true);
    check(&mut s, "save   ", &["usage: save FILE"], true);
    check(&mut s, "save!", &["usage: save! FILE"], true);
    check(&mut s, "append", &["usage: append FILE"], true);
    // a move log holds one game: nothing to add to
    check(
        &mut s,
        "append dir/GAME.BIN",
        &["append adds a game to a PGN file: a binary move log holds one game (save! dir/GAME.BIN replaces it)"],
        true,
    );
    // the log keeps no promotion piece, nor the starting position: an
    // underpromotion and a position other than the initial one are pointed
    // out
    s.eval("load 1n2k2r/P7/8/8/8/8/8/4K3 w - - 0 1");
    s.eval("axb8=N Rh7 Nc6");
    let response = s.eval("save game.bin");
    let start = "warning: a binary log keeps no starting position: it reads back only in a session that starts from \
                 this game's (1n2k2r/P7/8/8/8/8/8/4K3 w - - 0 1)";
    assert_eq!(
        lines(&response),
        ["warning: a binary log keeps no promotion piece: 1. axb8=N will read back as a queen", start]
    );
    assert_eq!(response.outputs.len(), 3);
    assert!(!response.is_error());
    check(&mut s, "undo 3", &["undone: 1. axb8=N Rh7 2. Nc6", "1n2k2r/P7/8/8/8/8/8/4K3 w - - 0 1"], false);
    s.eval("axb8=Q");
    assert_eq!(lines(&s.eval("save game.bin")), [start]);
    // which game is saved: another after `new` and `load`, not after `undo`
    let games: Vec<u64> =
        ["save a.pgn", "undo", "save a.pgn", "new", "save a.pgn", "load 8/8/8/8/8/8/8/K1k5 w - - 0 1", "save a.pgn"]
            .into_iter()
            .filter_map(|line| {
                s.eval(line).outputs.into_iter().find_map(|output| match output {
                    Output::Save(save) => Some(save.game),
                    _ => None,
                })
            })
            .collect();
    assert_eq!(games, [1, 1, 2, 3]);
    // one move: no plural
    let mut s = session();
    s.eval("d4");
    let response = s.eval("save a.pgn");
    let [Output::Save(save)] = response.outputs.as_slice() else { panic!("{response:?}") };
    assert_eq!(save.saved(None), "saved 1 move to a.pgn (PGN)");
}

#[test]
fn letters_help_quit_and_the_engine() {
    let mut s = session();
    check(&mut s, "letters", &["letters: English (K=K Q=Q R=R B=B N=N)"], false);
    check(&mut s, "letters de", &["letters: German (K=K Q=D R=T B=L N=S)"], false);
    assert_eq!(s.letters(), Letters::German);
    check(&mut s, "Sf3", &["1. Nf3 (Sf3 -> Nf3)", "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"], false);
    check(&mut s, "letters xx", &["unknown language \"xx\": en, pt, es, fr, de, it or nl"], true);
    check(&mut s, "letters a b", &["usage: letters LANG"], true);
    assert_eq!(s.letters(), Letters::German);
    let help = s.eval("help");
    assert_eq!(lines(&help).len(), 1 + COMMANDS.len());
    assert_eq!(
        lines(&help)[1],
        "  board [on|off]                 show the board; with on/off, show it after every move or not"
    );
    assert!(lines(&help).iter().any(|l| l.starts_with("  quit ")));
    assert!(
        lines(&help).contains(&"  redo [N]                       play an undone move again (or N moves)".to_owned())
    );
    let saving: Vec<String> =
        lines(&help).into_iter().filter(|l| l.starts_with("  save") || l.starts_with("  append")).collect();
    assert_eq!(
        saving,
        [
            "  save FILE                      write the game to a new file: PGN (.gz, .zst, .bz2 compressed), or a \
             .bin name's move log",
            "  save FILE N                    put the game back in the place of game N of the file it was loaded \
             from, the rest kept",
            "  save! FILE                     write the game over the file there (save replaces only a file it wrote \
             itself)",
            "  append FILE                    add the game at the end of a PGN file",
        ]
    );
    let response = s.eval("quit");
    assert!(response.quit);
    assert!(lines(&response).is_empty());
    assert!(s.eval("exit").quit);
}

#[test]
fn go_plays_the_engine_move_like_a_typed_move() {
    let mut s = session();
    // a hanging queen is taken at any depth
    s.eval("load 4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1");
    let response = s.eval("go 2");
    assert!(!response.is_error());
    assert_eq!(without_time(&lines(&response)[0]), "engine: Rxd5 (eval +4.70, depth 2, 41 nodes, T s)");
    assert_eq!(lines(&response)[1..], ["1. Rxd5", "4k3/8/8/3R4/8/8/8/4K3 b - - 0 1"]);
    // deterministic at a fixed depth, but for the time taken
    let mut a = session();
    let mut b = session();
    let (first, second) = (lines(&a.eval("go 3")), lines(&b.eval("go 3")));
    assert_eq!(
        first.iter().map(|l| without_time(l)).collect::<Vec<_>>(),
        second.iter().map(|l| without_time(l)).collect::<Vec<_>>()
    );
    assert_eq!(a.game().moves().len(), 1);
    let usage = "usage: go [DEPTH | depth N | SECONDSs]";
    check(&mut s, "go 0", &[&format!("{usage}: \"0\" is not a depth from 1 to 64")], true);
    check(&mut s, "go x", &[&format!("{usage}: \"x\" is not a depth from 1 to 64")], true);
    check(&mut s, "go depth 65", &[&format!("{usage}: \"65\" is not a depth from 1 to 64")], true);
    check(&mut s, "go 0s", &[&format!("{usage}: \"0s\" is not a time from 0.1s to 3600s")], true);
    check(&mut s, "go 1 2", &[usage], true);
    s.eval("load 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    check(&mut s, "go 2", &["the game is over (checkmate, 1-0): undo or new to play on"], true);
}

/// A search line with its time replaced by `T` (the time is never asserted).
fn without_time(line: &str) -> String {
    regex::Regex::new(r"[0-9]+\.[0-9]{2} s\)$").unwrap().replace(line, "T s)").into_owned()
}

#[test]
fn go_finds_a_mate_in_one() {
    let mut s = session();
    s.eval("load 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let response = s.eval("go 2");
    assert_eq!(without_time(&lines(&response)[0]), "engine: Ra8# (eval #1, depth 2, 56 nodes, T s)");
    assert_eq!(lines(&response)[1], "1. Ra8#");
    assert_eq!(lines(&response)[3], "game over: checkmate, 1-0 (White wins)");
}

#[test]
fn play_makes_the_engine_answer() {
    let mut s = session();
    check(&mut s, "play black 1", &["engine: plays black (depth 1)"], false);
    let response = s.eval("e4");
    assert!(!response.is_error());
    assert_eq!(lines(&response).len(), 5, "{response:?}");
    assert_eq!(lines(&response)[0], "1. e4");
    assert!(lines(&response)[2].starts_with("engine: "), "{response:?}");
    assert!(lines(&response)[3].starts_with("1... "), "{response:?}");
    assert_eq!(s.game().moves().len(), 2);
    assert_eq!(s.game().position().turn(), Color::White);
    // a refused move gets no answer
    let refused = s.eval("Ke3");
    assert!(refused.is_error());
    assert_eq!(s.game().moves().len(), 2);
}

#[test]
fn play_for_the_side_to_move_moves_at_once_and_off_stops() {
    let mut s = session();
    let response = s.eval("play white 1");
    assert_eq!(lines(&response)[0], "engine: plays white (depth 1)");
    assert!(lines(&response)[1].starts_with("engine: "));
    assert!(lines(&response)[2].starts_with("1. "));
    assert_eq!(s.game().moves().len(), 1);
    check(&mut s, "play off", &["engine: off"], false);
    let response = s.eval("e5");
    assert_eq!(lines(&response).len(), 2);
    assert_eq!(s.game().moves().len(), 2);
    check(&mut s, "play", &["usage: play white|black|off [DEPTH]"], true);
    check(&mut s, "play red", &["usage: play white|black|off [DEPTH]"], true);
    check(&mut s, "play black 99", &["usage: play white|black|off [DEPTH]: \"99\" is not a depth from 1 to 64"], true);
    // the engine answers `go` too when it plays the other side
    s.eval("play black 1");
    s.eval("go 1");
    assert_eq!(s.game().moves().len(), 4);
}

#[test]
fn chess960_games_get_a_variant_tag() {
    let fen = Fen::parse("1k6/8/8/8/8/8/8/RK6 w A - 0 1", CastlingMode::Chess960).unwrap();
    let start = Position::from_setup(fen.setup, CastlingMode::Chess960).unwrap();
    let mut s = Session::new(Options { start, ..Options::default() });
    check(&mut s, "O-O-O", &["1. O-O-O", "1k6/8/8/8/8/8/8/2KR4 b - - 1 1"], false);
    let pgn = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n\
               [Result \"*\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"1k6/8/8/8/8/8/8/RK6 w Q - 0 1\"]\n\n1. O-O-O *\n";
    assert_eq!(s.pgn(), pgn);
    // the formatter read it (as Chess960) and rewrote it
    assert_eq!(crate::pgn::format::format_pgn(pgn.as_bytes()), (pgn.as_bytes().to_vec(), Vec::new()));
}

#[test]
fn an_unknown_command_names_the_closest_command() {
    let mut s = session();
    let cases = [
        ("hepl", "unknown command `hepl`; did you mean `help`?"),
        ("Hepl", "unknown command `Hepl`; did you mean `help`?"),
        ("flipp", "unknown command `flipp`; did you mean `flip`?"),
        ("hitsory", "unknown command `hitsory`; did you mean `history`?"),
        ("quti", "unknown command `quti`; did you mean `quit`?"),
        ("sav game.pgn", "unknown command `sav`; did you mean `save`?"),
        ("nw", "unknown command `nw`; did you mean `new`?"),
        ("notaton lan", "unknown command `notaton`; did you mean `notation`?"),
        ("attaks", "unknown command `attaks`; did you mean `attacks`?"),
        ("boad", "unknown command `boad`; did you mean `board`?"),
        ("lod 8/8/8/8/8/8/8/8 w - - 0 1", "unknown command `lod`; did you mean `load`?"),
        ("castle", "unknown command `castle`; type help for the commands"),
        ("xyzzy", "unknown command `xyzzy`; type help for the commands"),
        ("abc", "unknown command `abc`; type help for the commands"),
        ("Kk", "unknown command `Kk`; type help for the commands"),
        // a pawn capture starts `exd`, not `exp`
        ("explain Nc6", "unknown command `explain`; type help for the commands"),
        ("extra", "unknown command `extra`; type help for the commands"),
        ("exti", "unknown command `exti`; did you mean `exit`?"),
        // the whole line is refused: no move after it is played
        ("hepl e4", "unknown command `hepl`; did you mean `help`?"),
    ];
    for (line, answer) in cases {
        check(&mut s, line, &[answer], true);
    }
    assert_eq!(fen(&s), START);
    // in Portuguese, words that are no move in those letters are commands too
    s.eval("letters pt");
    check(&mut s, "Cz", &["unknown command `Cz`; type help for the commands"], true);
    check(&mut s, "ajuda", &["unknown command `ajuda`; type help for the commands"], true);
}

#[test]
fn every_move_spelling_stays_a_move() {
    let nf3 = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1";
    let played: [(&str, &[&str]); 8] = [
        ("e4", &["1. e4", AFTER_E4]),
        ("Nf3", &["1. Nf3", nf3]),
        ("1.e4", &["1. e4", AFTER_E4]),
        ("1. e4", &["1. e4", AFTER_E4]),
        ("Ng1-f3", &["1. Nf3 (Ng1-f3 -> Nf3)", nf3]),
        ("g1f3", &["1. Nf3 (g1f3 -> Nf3)", nf3]),
        ("Pe2-e4", &["1. e4 (Pe2-e4 -> e4)", AFTER_E4]),
        ("♘f3", &["1. Nf3 (♘f3 -> Nf3)", nf3]),
    ];
    for (line, expected) in played {
        check(&mut session(), line, expected, false);
    }
    let refused: [(&str, &[&str]); 13] = [
        ("O-O", &["illegal move \"O-O\": cannot castle through pieces on f1, g1"]),
        ("0-0", &["illegal move \"0-0\": cannot castle through pieces on f1, g1"]),
        ("exd6", &["illegal move \"exd6\": no pawn can move to d6"]),
        ("e8=Q", &["illegal move \"e8=Q\": no pawn can move to e8"]),
        ("e8Q", &["illegal move \"e8Q\": no pawn can move to e8"]),
        ("exd", &["syntax error in \"exd\": found nothing, expected a rank 1-8", "  exd", "     ^"]),
        ("Nxe", &["syntax error in \"Nxe\": found nothing, expected a rank 1-8", "  Nxe", "     ^"]),
        ("R", &["syntax error in \"R\": found nothing, expected a file a-h, a rank 1-8 or `x`", "  R", "   ^"]),
        ("Rest", &["syntax error in \"Rest\": found \"s\", expected a file a-h, a rank 1-8 or `x`", "  Rest", "    ^"]),
        ("OO", &["syntax error in \"OO\": found \"O\", expected `-`", "  OO", "   ^"]),
        ("ed", &["syntax error in \"ed\": found nothing, expected a rank 1-8", "  ed", "    ^"]),
        ("ge", &["syntax error in \"ge\": found nothing, expected a rank 1-8", "  ge", "    ^"]),
        ("e9", &["syntax error in \"e9\": found \"9\", expected a file a-h, a rank 1-8 or `x`", "  e9", "   ^"]),
    ];
    for (line, expected) in refused {
        check(&mut session(), line, expected, true);
    }
    // the session's letters: Portuguese C is a knight, R the king, D the queen
    let mut s = session();
    s.eval("letters pt");
    check(&mut s, "Cf3", &["1. Nf3 (Cf3 -> Nf3)", nf3], false);
    s.eval("new");
    check(&mut s, "Bxe5", &["illegal move \"Bxe5\": no bishop can move to e5"], true);
    check(&mut s, "Tf1", &["illegal move \"Tf1\": f1 holds a piece of the side to move"], true);
    for letter in ["R", "D"] {
        let caret =
            ["syntax error in \"", letter, "\": found nothing, expected a file a-h, a rank 1-8 or `x`"].concat();
        check(&mut s, letter, &[caret.as_str(), &format!("  {letter}"), "   ^"], true);
    }
    check(
        &mut s,
        "Dama",
        &["syntax error in \"Dama\": found \"m\", expected a file a-h, a rank 1-8 or `x`", "  Dama", "    ^"],
        true,
    );
    // in English, D is no piece letter: `Dama` is a command word
    check(&mut session(), "Dama", &["unknown command `Dama`; type help for the commands"], true);
}

#[test]
fn commands_without_arguments_refuse_extra_words() {
    let mut s = session();
    for name in ["fen", "history", "pgn", "new", "flip", "help", "quit", "exit", "?"] {
        let answer = format!("{name} takes no argument; usage: {name}");
        check(&mut s, &format!("{name} x"), &[answer.as_str()], true);
    }
    check(&mut s, "FLIP now", &["flip takes no argument; usage: flip"], true);
    check(&mut s, "undo 1 2", &["usage: undo [N]"], true);
    check(&mut s, "board on off", &["usage: board [on|off]"], true);
    check(&mut s, "moves e2 e4", &["usage: moves [SQUARE]"], true);
    check(&mut s, "attacks e2 e4", &["usage: attacks [SQUARE]"], true);
    check(&mut s, "notation san lan", &["usage: notation NAME"], true);
    assert_eq!(fen(&s), START);
}

#[test]
fn redo_n_redoes_n_moves_and_says_when_fewer_were_left() {
    let mut s = session();
    check(&mut s, "redo 2", &["nothing to redo"], true);
    s.eval("e4 e5 Nf3 Nc6");
    s.eval("undo 4");
    check(&mut s, "redo 2", &["redone: 1. e4 e5", AFTER_E4_E5], false);
    check(&mut s, "redo", &["redone: 2. Nf3", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"], false);
    let after_nc6 = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    check(&mut s, "redo 5", &["redone: 2... Nc6 (only 1 move to redo)", after_nc6], false);
    check(&mut s, "redo", &["nothing to redo"], true);
    s.eval("undo 3");
    check(&mut s, "redo 9", &["redone: 1... e5 2. Nf3 Nc6 (only 3 moves to redo)", after_nc6], false);
    // a count past any game's moves is all of them, as 10 is
    check(&mut s, "undo 99999999999999999999", &["undone: 1. e4 e5 2. Nf3 Nc6", START], false);
    check(
        &mut s,
        "redo 99999999999999999999",
        &["redone: 1. e4 e5 2. Nf3 Nc6 (only 4 moves to redo)", after_nc6],
        false,
    );
    check(&mut s, "redo 0", &["usage: redo [N]: \"0\" is not a positive number"], true);
    check(&mut s, "redo x", &["usage: redo [N]: \"x\" is not a positive number"], true);
    check(&mut s, "redo 1 2", &["usage: redo [N]"], true);
    assert_eq!(fen(&s), after_nc6);
}

#[test]
fn a_load_that_waits_ends_when_the_stop_flag_is_raised() {
    use std::sync::atomic::Ordering;
    let dir = temp_dir("load-fifo");
    let (idle, live) = (dir.join("idle.pgn"), dir.join("live.pgn"));
    for fifo in [&idle, &live] {
        assert!(std::process::Command::new("mkfifo").arg(fifo).status().unwrap().success());
    }
    let mut s = session();
    s.eval("e4");
    let after_e4 = fen(&s);
    // no program writes to `idle`: opening it waits until Ctrl-C raises the flag
    for line in [format!("load {}", idle.display()), format!("load {} 2", idle.display())] {
        let stop = s.stop_flag();
        let raise = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(200));
            stop.store(true, Ordering::Relaxed);
        });
        let expected = format!("cannot read {}: interrupted (Ctrl-C); nothing loaded", idle.display());
        check(&mut s, &line, &[&expected], true);
        raise.join().unwrap();
        assert_eq!(fen(&s), after_e4);
        assert!(!s.stop_flag().load(Ordering::Relaxed), "the flag is lowered again");
    }
    // a writer lets the threads left waiting on `idle` go on: their reads
    // fail, and they end (the write fails when they are gone before it)
    let _ = std::fs::write(&idle, "1. c4 *\n");
    // a FIFO a program writes to is read as a file
    let writer = {
        let live = live.clone();
        std::thread::spawn(move || std::fs::write(live, "[White \"A\"]\n\n1. d4 d5 *\n").unwrap())
    };
    let response = s.eval(&format!("load {}", live.display()));
    assert_eq!(lines(&response)[0], format!("loaded game 1 of {}: A - ?, 2 moves, *", live.display()));
    writer.join().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A fresh directory for a test's files.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sanfen-repl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The tag lines of `pgn`, before its blank line.
fn tag_lines(pgn: &str) -> Vec<&str> {
    pgn.lines().take_while(|line| !line.is_empty()).collect()
}

#[test]
fn tags_are_listed_set_and_removed() {
    let mut s = Session::new(Options { date: Some("2026.11.24".into()), ..Options::default() });
    let roster = [
        "[Event \"?\"]",
        "[Site \"?\"]",
        "[Date \"2026.11.24\"]",
        "[Round \"?\"]",
        "[White \"?\"]",
        "[Black \"?\"]",
        "[Result \"*\"]",
    ];
    check(&mut s, "tag", &roster, false);
    check(&mut s, "tag white Ana Lopes", &["[White \"Ana Lopes\"]"], false);
    check(&mut s, "tag Event \"Club \\ \"open\"\"", &["[Event \"Club \\\\ \\\"open\\\"\"]"], false);
    check(&mut s, "tag WhiteElo 1850", &["[WhiteElo \"1850\"]"], false);
    check(&mut s, "tag whiteelo", &["[WhiteElo \"1850\"]"], false);
    check(&mut s, "tag Annotator", &["no tag Annotator"], true);
    check(
        &mut s,
        "tag Result 1-0",
        &["Result is set by the game: resign, draw, claim or a result typed after the moves (1-0) end it"],
        true,
    );
    check(
        &mut s,
        "tag fen 8/8/8/8/8/8/8/8 w - - 0 1",
        &["FEN is set by the starting position: load or new change it"],
        true,
    );
    check(
        &mut s,
        "tag Bad[name x",
        &["usage: tag [NAME [VALUE]]: \"Bad[name\" is not a tag name (letters, digits and _+#=:-)"],
        true,
    );
    check(&mut s, "tag WhiteElo \"\"", &["removed tag WhiteElo"], false);
    check(&mut s, "tag Site \"\"", &["[Site \"?\"]"], false);
    s.eval("e4 e5");
    assert_eq!(
        s.pgn(),
        "[Event \"Club \\\\ \\\"open\\\"\"]\n[Site \"?\"]\n[Date \"2026.11.24\"]\n[Round \"?\"]\n[White \"Ana Lopes\"]\n\
         [Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 *\n"
    );
    // `new` starts with fresh tags
    s.eval("new");
    check(&mut s, "tag", &roster, false);
}

#[test]
fn the_engine_is_named_in_its_side_tag() {
    let mut s = session();
    s.eval("play black 1");
    assert_eq!(tag_lines(&s.pgn())[4..6], ["[White \"?\"]", "[Black \"sanfen\"]"]);
    s.eval("play white 1");
    assert_eq!(tag_lines(&s.pgn())[4..6], ["[White \"sanfen\"]", "[Black \"?\"]"]);
    s.eval("play off");
    s.eval("tag Black Ana");
    s.eval("play black 1");
    // a name the user gave stays
    assert_eq!(tag_lines(&s.pgn())[4..6], ["[White \"?\"]", "[Black \"Ana\"]"]);
}

#[test]
fn resign_draw_and_claim_end_the_game() {
    let mut s = session();
    s.eval("e4 e5");
    check(&mut s, "resign", &["game over: White resigned, 0-1 (Black wins)"], false);
    check(&mut s, "Nf3", &["the game is over (White resigned, 0-1): \"Nf3\" not played; undo or new to play on"], true);
    check(&mut s, "go 1", &["the game is over (White resigned, 0-1): undo or new to play on"], true);
    check(&mut s, "draw", &["the game is over (White resigned, 0-1): no draw to offer"], true);
    check(&mut s, "resign", &["the game is over (White resigned, 0-1): nothing to resign"], true);
    assert!(s.pgn().ends_with("[Result \"0-1\"]\n\n1. e4 e5 0-1\n"), "{}", s.pgn());
    // undo takes the resignation back first, then moves
    check(&mut s, "undo", &["undone: White resigned; play on", AFTER_E4_E5], false);
    assert_eq!(s.over(), None);
    s.eval("resign");
    check(&mut s, "undo 2", &["undone: White resigned; play on", "undone: 1... e5", AFTER_E4], false);
    check(&mut s, "c5", &["1... c5", "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"], false);
    check(&mut s, "draw", &["game over: draw agreed, 1/2-1/2 (draw)"], false);
    // an ending before any move is taken back too
    s.eval("new");
    s.eval("draw");
    check(&mut s, "undo", &["undone: draw agreed; play on", START], false);
    check(&mut s, "undo", &["nothing to undo"], true);
    s.eval("new");
    check(
        &mut s,
        "claim",
        &[
            "no draw to claim: this position has occurred 1 time (a claim needs 3), and 0 half-moves were played without \
           a capture or a pawn move (a claim needs 100)",
        ],
        true,
    );
    s.eval("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    check(&mut s, "claim", &["game over: draw claimed (threefold repetition), 1/2-1/2 (draw)"], false);
    assert!(s.pgn().ends_with("4. Ng1 Ng8 1/2-1/2\n"), "{}", s.pgn());
}

#[test]
fn the_engine_accepts_a_draw_only_when_it_is_not_better() {
    let mut s = session();
    // Black (the engine) is a queen down: it accepts
    s.eval("load 4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    s.eval("play black 1");
    let response = s.eval("draw");
    assert_eq!(lines(&response)[1], "game over: draw agreed, 1/2-1/2 (draw)");
    assert!(lines(&response)[0].starts_with("engine accepts the draw (its evaluation for itself: -"), "{response:?}");
    // a queen up, it declines, and the game goes on
    s.eval("load 3qk3/8/8/8/8/8/8/4K3 w - - 0 1");
    let response = s.eval("draw");
    assert_eq!(lines(&response).len(), 1, "{response:?}");
    assert!(lines(&response)[0].starts_with("engine declines the draw (its evaluation for itself: +"), "{response:?}");
    assert!(lines(&response)[0].ends_with("); play on"), "{response:?}");
    assert_eq!(s.over(), None);
}

#[test]
fn undo_against_the_engine_goes_back_to_the_players_move() {
    let mut s = session();
    s.eval("play black 1");
    s.eval("e4");
    s.eval("d4");
    assert_eq!(s.game().moves().len(), 4);
    let response = s.eval("undo");
    assert!(lines(&response)[0].starts_with("undone: 2. d4 "), "{response:?}");
    assert_eq!(s.game().moves().len(), 2);
    assert_eq!(s.game().position().turn(), Color::White);
    // redo brings back the player's move and the engine's answer
    s.eval("redo");
    assert_eq!(s.game().moves().len(), 4);
    s.eval("undo 2");
    assert_eq!(s.game().moves().len(), 0);
    let response = s.eval("redo 5");
    assert!(lines(&response)[0].ends_with("(only 2 moves to redo)"), "{response:?}");
    assert_eq!(s.game().moves().len(), 4);
    // the engine playing White: its first move is not the player's to take
    // back (the player would then play White's moves), nor, with more
    // asked for, taken back with the player's first
    let mut s = session();
    s.eval("play white 1");
    let first = s.game().moves().to_vec();
    assert_eq!(first.len(), 1);
    check(&mut s, "undo", &["nothing to undo: no move of yours yet (new starts the game again)"], true);
    assert_eq!(s.game().moves(), first);
    s.eval("e5");
    assert_eq!(s.game().moves().len(), 3);
    let response = s.eval("undo 5");
    assert!(lines(&response)[0].starts_with("undone: 1... e5 2. "), "{response:?}");
    assert_eq!(s.game().moves(), first);
    assert_eq!(s.game().position().turn(), Color::Black);
}

#[test]
fn load_reads_chess960_castling_when_the_position_needs_it() {
    let mut s = session();
    check(
        &mut s,
        "load 4k3/8/8/8/8/8/8/R1K4R w HA - 0 1",
        &["a Chess960 position (its castling rights need Chess960 castling)", "4k3/8/8/8/8/8/8/R1K4R w KQ - 0 1"],
        false,
    );
    assert_eq!(s.game().position().castling_mode(), CastlingMode::Chess960);
    assert_eq!(
        tag_lines(&s.pgn())[7..],
        ["[Variant \"Chess960\"]", "[SetUp \"1\"]", "[FEN \"4k3/8/8/8/8/8/8/R1K4R w KQ - 0 1\"]"]
    );
    check(&mut s, "O-O", &["1. O-O", "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1"], false);
    // a standard position stays standard
    s.eval("load 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(s.game().position().castling_mode(), CastlingMode::Standard);
}

#[test]
fn a_pgn_game_pasted_a_line_at_a_time_gets_its_tags_then_its_moves() {
    let mut s = Session::new(Options { date: Some("2026.11.24".into()), ..Options::default() });
    s.eval("e4");
    // tags alone are set as tag sets them (the name's case as the roster's),
    // the game going on
    check(&mut s, "[Event \"Club \\\\ open\"]", &["[Event \"Club \\\\ open\"]"], false);
    check(&mut s, "[white \"Ana\"] [Black \"Rui\"]", &["[White \"Ana\"]", "[Black \"Rui\"]"], false);
    check(&mut s, "[Site \"\"] [Annotator \"Bo\"]", &["[Site \"?\"]", "[Annotator \"Bo\"]"], false);
    // those the game sets itself are refused, saying how to set them
    check(
        &mut s,
        "[Result \"1-0\"]",
        &["Result is set by the game: resign, draw, claim or a result typed after the moves (1-0) end it"],
        true,
    );
    check(
        &mut s,
        "[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]",
        &["FEN is set by the starting position: load or new change it"],
        true,
    );
    check(&mut s, "[Event \"x]", &["cannot read \"[Event \"x]\" as PGN: not a tag pair [Name \"value\"]"], true);
    assert_eq!(s.game().moves().len(), 1, "tags leave the moves alone");
    // a comment in moves typed: what reads it is said
    check(
        &mut s,
        "e5 {best} Nf3",
        &[
            "1... e5",
            AFTER_E4_E5,
            "syntax error in \"{best}\": found \"{\", expected a move such as e4, Nf3, exd5, e8=Q or O-O",
            "  e5 {best} Nf3",
            "     ^",
            "(PGN comments, NAGs and variations: load reads them, as in load 1. e4 {best} e5)",
            "not played: Nf3",
        ],
        true,
    );
    assert_eq!(
        s.pgn(),
        "[Event \"Club \\\\ open\"]\n[Site \"?\"]\n[Date \"2026.11.24\"]\n[Round \"?\"]\n[White \"Ana\"]\n\
         [Black \"Rui\"]\n[Result \"*\"]\n[Annotator \"Bo\"]\n\n1. e4 e5 *\n"
    );
}

#[test]
fn a_pgn_game_pasted_whole_is_loaded() {
    let mut s = session();
    s.eval("d4");
    // a bracketed paste: the game's lines in one
    let response = s.eval("[White \"Ana\"]\n[Black \"Rui\"]\n\n1. e4 {a comment} e5 2. Nf3 (2. Qh5) 2... Nc6 *\n");
    assert_eq!(
        lines(&response),
        [
            "loaded the game given: Ana - Rui, 4 moves, *",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
        ]
    );
    assert!(s.pgn().ends_with("\n\n1. e4 {a comment} 1... e5 2. Nf3 (2. Qh5) 2... Nc6 *\n"), "{}", s.pgn());
}

#[test]
fn load_pgn_text_keeps_its_tags_comments_and_result() {
    let mut s = session();
    let response =
        s.eval("load [White \"Ana\"] [Black \"Rui\"] 1. e4 {a comment} e5 $1 (1... c5) 2. Qh5 Ke7 3. Qxe5# 1-0");
    assert_eq!(
        lines(&response),
        [
            "loaded the game given: Ana - Rui, 5 moves, 1-0",
            "rnbq1bnr/ppppkppp/8/4Q3/4P3/8/PPPP1PPP/RNB1KBNR b KQ - 0 3",
            "game over: checkmate, 1-0 (White wins)",
        ]
    );
    let pgn = s.pgn();
    assert_eq!(
        tag_lines(&pgn),
        [
            "[Event \"?\"]",
            "[Site \"?\"]",
            "[Date \"????.??.??\"]",
            "[Round \"?\"]",
            "[White \"Ana\"]",
            "[Black \"Rui\"]",
            "[Result \"1-0\"]"
        ]
    );
    assert!(pgn.ends_with("\n\n1. e4 {a comment} 1... e5 $1 (1... c5) 2. Qh5 Ke7 3. Qxe5# 1-0\n"), "{pgn}");
    // played on from an earlier move, the loaded line becomes a variation
    s.eval("undo 3");
    s.eval("Nf3");
    assert!(
        s.pgn().ends_with("\n\n1. e4 {a comment} 1... e5 $1 (1... c5) 2. Nf3 (2. Qh5 Ke7 3. Qxe5#) *\n"),
        "{}",
        s.pgn()
    );
    check(
        &mut s,
        "load xyzzy",
        &["cannot load \"xyzzy\": no such file, and no FEN or PGN; usage: load FEN | load FILE [N] | load PGN"],
        true,
    );
}

#[test]
fn load_a_file_its_nth_game_and_a_binary_log() {
    let dir = temp_dir("load");
    let path = dir.join("two games.pgn");
    std::fs::write(
        &path,
        "[Event \"A\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n\n\
         [Event \"B\"]\n\n1. e4 e5 2. Qxe5 Nc6 *\n",
    )
    .unwrap();
    let mut s = session();
    let shown = path.display().to_string();
    let response = s.eval(&format!("load {shown}"));
    assert_eq!(
        lines(&response),
        [
            format!("loaded game 1 of {shown}: W - B, 2 moves, 1/2-1/2"),
            "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2".to_owned(),
            "game over: result as loaded, 1/2-1/2 (draw)".to_owned(),
        ]
    );
    let response = s.eval(&format!("load \"{shown}\" 2"));
    assert_eq!(
        lines(&response),
        [
            format!("loaded game 2 of {shown}: ? - ?, 2 moves, *"),
            "warning: the game has an error at 10:13 \"Qxe5\": illegal: no queen can move to e5; did you mean Qe2, \
             Qh5?; loaded the 2 moves before it"
                .to_owned(),
            AFTER_E4_E5.to_owned(),
        ]
    );
    check(&mut s, &format!("load {shown} 3"), &[&format!("{shown} holds 2 games: there is no game 3")], true);
    check(&mut s, &format!("load {shown} 0"), &["games are counted from 1"], true);
    check(&mut s, &format!("load {shown} -1"), &["games are counted from 1"], true);
    check(
        &mut s,
        &format!("load {shown} 99999999999999999999"),
        &[&format!("there is no game 99999999999999999999 in {shown}")],
        true,
    );
    check(&mut s, "load missing.pgn", &["cannot read missing.pgn: no such file"], true);
    // a binary move log, as `save` writes it
    s.eval("new");
    s.eval("e4 e5 Nf3");
    let Output::Save(save) = &s.eval("save x.bin").outputs[0] else { panic!() };
    let log = dir.join("game.bin");
    std::fs::write(&log, &save.bytes).unwrap();
    s.eval("new");
    let response = s.eval(&format!("load {}", log.display()));
    assert_eq!(lines(&response)[0], format!("loaded 3 moves from {} (binary move log)", log.display()));
    assert_eq!(s.game().moves().len(), 3);
    std::fs::write(&log, [1u8; 17]).unwrap();
    let response = s.eval(&format!("load {}", log.display()));
    assert!(response.is_error());
    assert_eq!(s.game().moves().len(), 3, "a refused load changes nothing");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `three.pgn`, games A, B and C (each `1. e4 e5 *`), and `one.pgn`, game
/// A, in `dir`.
fn three_games_and_one(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let game = |event: &str| format!("[Event \"{event}\"]\n\n1. e4 e5 *\n\n");
    let (three, one) = (dir.join("three.pgn"), dir.join("one.pgn"));
    std::fs::write(&three, [game("A"), game("B"), game("C")].concat()).unwrap();
    std::fs::write(&one, game("A")).unwrap();
    (three, one)
}

#[test]
fn save_over_the_file_a_game_came_from_says_what_else_it_holds() {
    let dir = temp_dir("shared");
    let (three, one) = three_games_and_one(&dir);
    let other = dir.join("other.pgn");
    std::fs::copy(&one, &other).unwrap();
    std::os::unix::fs::symlink(&three, dir.join("link.pgn")).unwrap();
    std::fs::hard_link(&three, dir.join("hard.pgn")).unwrap();
    let shared_game = |s: &mut Session, name: &std::path::Path| {
        let response = s.eval(&format!("save {}", name.display()));
        let [Output::Save(save)] = response.outputs.as_slice() else { panic!("{response:?}") };
        save.shared_game
    };
    let mut s = session();
    // the file, by a symbolic link, by a hard link, by another way to write its name
    let names = ["three.pgn", "link.pgn", "hard.pgn", "./three.pgn"].map(|name| dir.join(name));
    for number in [1, 2, 3] {
        s.eval(&format!("load {} {number}", three.display()));
        s.eval("Nf3");
        for name in &names {
            assert_eq!(shared_game(&mut s, name), Some(number), "game {number}, {}", name.display());
        }
        assert_eq!(shared_game(&mut s, &other), None);
    }
    let Output::Save(save) = &s.eval(&format!("save {}", three.display())).outputs[0] else { panic!() };
    let typed = three.display().to_string();
    assert_eq!(
        save.exists(),
        format!(
            "{typed} exists: not replaced: it holds other games than game 3, loaded from it (save {typed} 3 puts \
             this game in its place, save! {typed} replaces them all with this one, append {typed} adds this game at \
             their end)"
        )
    );
    // a file of one game; the game given up for a new one, or for one typed in
    s.eval(&format!("load {}", one.display()));
    assert_eq!(shared_game(&mut s, &one), None);
    s.eval(&format!("load {} 2", three.display()));
    s.eval("new");
    assert_eq!(shared_game(&mut s, &three), None);
    s.eval(&format!("load {} 2", three.display()));
    s.eval("load 1. d4 d5 *");
    assert_eq!(shared_game(&mut s, &three), None);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_file_n_puts_the_game_back_where_it_was_loaded_from_and_only_there() {
    let dir = temp_dir("place");
    let (three, one) = three_games_and_one(&dir);
    let log = dir.join("log.bin");
    std::fs::write(&log, [0u8; 16]).unwrap();
    let (three_typed, one_typed) = (three.display().to_string(), one.display().to_string());
    let mut s = session();
    s.eval(&format!("load {three_typed} 2"));
    s.eval("Nf3");
    let response = s.eval(&format!("save {three_typed} 2"));
    let [Output::Save(save)] = response.outputs.as_slice() else { panic!("{response:?}") };
    let place = save.place.as_ref().expect("a place");
    assert_eq!((place.game, place.loaded.tag("Event"), place.loaded.at.line), (2, Some("B"), 5));
    assert_eq!(
        (save.path.as_str(), save.mode, save.bytes.as_slice()),
        (three_typed.as_str(), SaveMode::New, s.pgn().as_bytes())
    );
    assert_eq!(save.saved(Some("gzip")), format!("saved 3 moves to {three_typed} in the place of game 2 (PGN, gzip)"));
    // game 2 as the file holds it is the game loaded; not once changed
    let found = |text: &str| {
        let input = crate::pgn::Input::from_reader(std::io::Cursor::new(text.as_bytes().to_vec()), None).unwrap();
        let FoundGame::Game(game, true) = find_game(input, 2) else { panic!() };
        game
    };
    let text = std::fs::read_to_string(&three).unwrap();
    assert!(place.is_loaded(&found(&text)));
    assert!(!place.is_loaded(&found(&text.replace("[Event \"B\"]\n\n1. e4 e5", "[Event \"B\"]\n\n1. e4 c5"))));
    assert!(!place.is_loaded(&found(&text.replace("[Event \"A\"]", "[Event \"A2\"]"))), "moved in the file");
    // any other number, file, command or game is refused, saying why, as a
    // file save asked for that is not written
    let refused = |s: &mut Session, line: &str, why: String| {
        assert_eq!(s.eval(line).outputs, [Output::SaveRefused(why)], "{line}");
    };
    refused(
        &mut s,
        &format!("save {three_typed} 3"),
        format!("this game was loaded as game 2 of {three_typed}: save {three_typed} 2 puts it back in its place"),
    );
    refused(
        &mut s,
        &format!("save! {three_typed} 2"),
        format!(
            "save! replaces the whole of {three_typed}: it takes no game number (save {three_typed} 2 puts this game \
             in the place of game 2)"
        ),
    );
    refused(
        &mut s,
        &format!("append {three_typed} 2"),
        format!("append adds this game at the end of {three_typed}: it takes no game number"),
    );
    refused(
        &mut s,
        &format!("save {one_typed} 1"),
        format!(
            "save FILE N puts a game back in its place in the file it was loaded from: this game was not loaded \
             from {one_typed} (append {one_typed} adds it at its end)"
        ),
    );
    refused(
        &mut s,
        &format!("save {} 1", log.display()),
        format!("{0} is a binary move log: it holds one game (save! {0} replaces it)", log.display()),
    );
    refused(&mut s, &format!("save {three_typed} 0"), "games are counted from 1".to_owned());
    refused(&mut s, &format!("save {three_typed} -2"), "games are counted from 1".to_owned());
    refused(
        &mut s,
        &format!("save {three_typed} 99999999999999999999"),
        format!("there is no game 99999999999999999999 in {three_typed}"),
    );
    // a name in quotes is a name, a number after it too; a number after a
    // name that is no file makes no file of that name unless quoted
    let Output::Save(save) = &s.eval(&format!("save \"{three_typed} 2\"")).outputs[0] else { panic!() };
    assert_eq!((save.path.clone(), save.place.is_none()), (format!("{three_typed} 2"), true));
    let new = format!("{}/new.pgn", dir.display());
    for command in ["save", "save!", "append"] {
        refused(
            &mut s,
            &format!("{command} {new} 2"),
            format!(
                "{new}: no such file: save FILE N puts this game in the place of game N of the file it was loaded \
                 from ({command} \"{new} 2\" writes a file of that name)"
            ),
        );
    }
    let Output::Save(save) = &s.eval(&format!("save \"{new} 2\"")).outputs[0] else { panic!() };
    assert_eq!((save.path.clone(), save.place.is_none()), (format!("{new} 2"), true));
    // a file of that name is that file
    std::fs::write(format!("{new} 3"), "").unwrap();
    let Output::Save(save) = &s.eval(&format!("save {new} 3")).outputs[0] else { panic!() };
    assert_eq!((save.path.clone(), save.place.is_none()), (format!("{new} 3"), true));
    // the only game of a file, loaded without a number; no longer after `new`
    s.eval(&format!("load {one_typed}"));
    let Output::Save(save) = &s.eval(&format!("save {one_typed} 1")).outputs[0] else { panic!() };
    assert_eq!(save.place.as_ref().map(|place| place.game), Some(1));
    s.eval("new");
    assert!(s.eval(&format!("save {one_typed} 1")).is_error());
    // a game whose moves did not all load: its place keeps the rest
    let broken = dir.join("broken.pgn");
    std::fs::write(&broken, "1. e4 e5 2. Nf9 Nc6 3. Bb5 *\n\n1. d4 -- 2. c4 *\n").unwrap();
    let typed = broken.display().to_string();
    s.eval(&format!("load {typed} 1"));
    check(
        &mut s,
        &format!("save {typed} 1"),
        &[&format!(
            "game 1 of {typed} was loaded up to an error at 1:13: in its place, this game would drop the rest of it \
             (save FILE writes this game to another file)"
        )],
        true,
    );
    s.eval(&format!("load {typed} 2"));
    check(
        &mut s,
        &format!("save {typed} 2"),
        &[&format!(
            "game 2 of {typed} was loaded up to \"--\", which cannot be played: in its place, this game would drop \
             the rest of it (save FILE writes this game to another file)"
        )],
        true,
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_says_when_undone_moves_are_left_out() {
    let mut s = session();
    s.eval("e4 e5 Nf3");
    s.eval("undo 2");
    let response = s.eval("save game.pgn");
    assert_eq!(lines(&response), ["note: the 2 undone moves are not saved (redo plays them again)"]);
    let Output::Save(save) = &response.outputs[0] else { panic!("{response:?}") };
    assert!(save.bytes.ends_with(b"\n\n1. e4 *\n"));
}

#[test]
fn load_reads_a_game_in_the_session_s_letters_when_it_gets_further_so() {
    let dir = temp_dir("letters");
    let path = dir.join("games.pgn");
    // a game written with Portuguese letters, then one in English (whose
    // Re1, a rook's move, is a king's in Portuguese)
    std::fs::write(
        &path,
        "[White \"Ana\"]\n\n1. e4 e5 2. Cf3 Cc6 3. Bb5 a6 4. O-O Cf6 5. Te1 *\n\n\
         [White \"Rui\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Re1 d6 *\n",
    )
    .unwrap();
    let shown = path.display().to_string();
    // in English letters, the first game stops at Cf3
    let mut s = session();
    let response = s.eval(&format!("load {shown}"));
    assert_eq!(lines(&response)[0], format!("loaded game 1 of {shown}: Ana - ?, 2 moves, *"));
    assert!(lines(&response)[1].starts_with("warning: the game has an error at 3:13 \"Cf3\": "), "{response:?}");
    // in Portuguese, both load whole
    let mut s = session();
    s.eval("letters pt");
    let response = s.eval(&format!("load {shown}"));
    assert_eq!(
        lines(&response),
        [
            format!("loaded game 1 of {shown}: Ana - ?, 9 moves, *"),
            "r1bqkb1r/1ppp1ppp/p1n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQR1K1 b kq - 3 5".to_owned(),
        ]
    );
    assert!(s.pgn().ends_with("\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 5. Re1 *\n"), "{}", s.pgn());
    let response = s.eval(&format!("load {shown} 2"));
    assert_eq!(
        lines(&response),
        [
            format!("loaded game 2 of {shown}: Rui - ?, 10 moves, *"),
            "r1bqk2r/ppp2ppp/2np1n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQR1K1 w kq - 0 6".to_owned(),
        ]
    );
    // PGN text typed or pasted, the same
    let response = s.eval("load 1. e4 e5 2. Cf3 Cc6 *");
    assert_eq!(lines(&response)[0], "loaded the game given: ? - ?, 4 moves, *");
    let response = s.eval("[White \"Ana\"] 1. e4 e5 2. Re1 *");
    assert_eq!(lines(&response)[0], "loaded the game given: Ana - ?, 2 moves, *");
    assert!(
        lines(&response)[1].starts_with("warning: the game has an error at 1:27 \"Re1\": illegal: "),
        "{response:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_load_stopped_while_it_reads_again_in_the_session_s_letters_loads_nothing() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static OPENED: AtomicUsize = AtomicUsize::new(0);
    /// Waits, as a slow disk would, until the read is stopped.
    struct Slow(Arc<AtomicBool>);
    impl std::io::Read for Slow {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            while !self.0.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            Err(std::io::Error::other("interrupted"))
        }
    }
    // the first read as a file is read; the second waits
    fn open(path: &Path, stopped: Arc<AtomicBool>) -> std::io::Result<Box<dyn std::io::Read + Send>> {
        if OPENED.fetch_add(1, Ordering::Relaxed) == 0 {
            Ok(Box::new(std::fs::File::open(path)?))
        } else {
            Ok(Box::new(Slow(stopped)))
        }
    }
    let dir = temp_dir("letters-stopped");
    let path = dir.join("games.pgn");
    std::fs::write(&path, "1. e4 e5 2. Cf3 Cc6 *\n").unwrap();
    let mut s = Session::new(Options { letters: Letters::Portuguese, open: Some(open), ..Options::default() });
    s.eval("d4");
    let after_d4 = fen(&s);
    let stop = s.stop_flag();
    let raise = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        stop.store(true, Ordering::Relaxed);
    });
    let shown = path.display();
    check(
        &mut s,
        &format!("load {shown}"),
        &[&format!("cannot read {shown}: interrupted (Ctrl-C); nothing loaded")],
        true,
    );
    raise.join().unwrap();
    assert_eq!(OPENED.load(Ordering::Relaxed), 2);
    assert_eq!(fen(&s), after_d4);
    std::fs::remove_dir_all(&dir).unwrap();
}
