//! Drawing a board of the REPL ([`BoardView`]) as text: ranks and files
//! labelled, Unicode figurines or ASCII letters, either orientation, marked
//! squares (a piece's targets, attacked squares), and the last move and a
//! checked king: highlighted with ANSI escapes when colour is on, otherwise
//! marked in text (`<P>` on the last move's squares, `+K+` on a king in
//! check) with a [`status`] line under the board.

use sanfen::notation;
use sanfen::play::MoveNumber;
use sanfen::repl::{BoardView, GameOver, Marks};
use sanfen::{Board, File, Game, Rank, Square};

/// How to draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// ASCII letters (`K`, `p`, `.`) instead of Unicode figurines.
    pub ascii: bool,
    /// ANSI colour for the last move and a checked king.
    pub color: bool,
}

/// Background of the last move's squares.
const LAST_MOVE: &str = "\x1b[43m";
/// Background of a checked king.
const CHECK: &str = "\x1b[41m";
/// Back to normal.
const RESET: &str = "\x1b[0m";

/// The board as lines: eight rows of three-character cells with the rank on
/// both sides, then the files. Without colour, a cell of the last move is
/// drawn `<P>` (`<.>` where the piece left) and a king in check `+K+`, unless
/// a mark of the command (`[N]`, `(p)`, ` * `) is on that square.
///
/// ```text
/// 8  r  n  b  q  k  b  n  r  8
/// ...
/// 4  .  .  .  . <P> .  .  .  4
/// 3  .  .  .  .  .  .  .  .  3
/// 2  P  P  P  P <.> P  P  P  2
/// 1  R  N  B  Q  K  B  N  R  1
///    a  b  c  d  e  f  g  h
/// ```
pub fn render(view: &BoardView, style: Style) -> Vec<String> {
    let (board, marks) = (&view.board, &view.marks);
    let ranks: Vec<Rank> = if view.flipped { Rank::ALL.to_vec() } else { Rank::ALL.iter().rev().copied().collect() };
    let files: Vec<File> = if view.flipped { File::ALL.iter().rev().copied().collect() } else { File::ALL.to_vec() };
    let mut lines = Vec::with_capacity(9);
    for &rank in &ranks {
        let mut line = String::with_capacity(64);
        line.push(rank.char());
        line.push(' ');
        for &file in &files {
            let sq = Square::from_coords(file, rank);
            let cell = cell(board, sq, style, marks);
            let highlight = if !style.color {
                None
            } else if marks.check == Some(sq) {
                Some(CHECK)
            } else if marks.last_move.is_some_and(|(from, to)| from == sq || to == sq) {
                Some(LAST_MOVE)
            } else {
                None
            };
            match highlight {
                Some(code) => {
                    line.push_str(code);
                    line.push_str(&cell);
                    line.push_str(RESET);
                }
                None => line.push_str(&cell),
            }
        }
        line.push(' ');
        line.push(rank.char());
        lines.push(line);
    }
    let mut footer = String::from(" ");
    for &file in &files {
        footer.push_str("  ");
        footer.push(file.char());
    }
    lines.push(footer);
    lines
}

/// One square, three characters wide: the piece or an empty square's dot,
/// between the marks of the square.
fn cell(board: &Board, sq: Square, style: Style, marks: &Marks) -> String {
    let piece = board.piece_at(sq).map(|p| if style.ascii { p.char() } else { p.figurine() });
    let dot = if style.ascii { '.' } else { '·' };
    let in_text = !style.color;
    let (open, ch, close) = match piece {
        Some(ch) if marks.origin == Some(sq) => ('[', ch, ']'),
        Some(ch) if marks.targets.contains(sq) => ('(', ch, ')'),
        None if marks.targets.contains(sq) => (' ', '*', ' '),
        Some(ch) if in_text && marks.check == Some(sq) => ('+', ch, '+'),
        ch if in_text && marks.last_move.is_some_and(|(from, to)| from == sq || to == sq) => {
            ('<', ch.unwrap_or(dot), '>')
        }
        ch => (' ', ch.unwrap_or(dot), ' '),
    };
    [open, ch, close].iter().collect()
}

/// The line under a board drawn without colour: the last move, the side to
/// move and whether it is in check, checkmated or stalemated.
///
/// ```text
/// last move: 2... Qh4#, White to move, checkmate
/// ```
pub fn status(game: &Game, over: Option<&GameOver>) -> String {
    let position = game.position();
    let mut line = String::new();
    if let Some((before, m)) = game.last_move() {
        line = format!("last move: {} {}, ", MoveNumber::before(&before), notation::san_plus(&before, m));
    }
    let side = if position.turn().is_white() { "White" } else { "Black" };
    line.push_str(&format!("{side} to move"));
    if position.is_checkmate() {
        line.push_str(", checkmate");
    } else if position.is_check() {
        line.push_str(", check");
    } else if position.is_stalemate() {
        line.push_str(", stalemate");
    }
    // an end the board does not show: a resignation, a draw, a repetition
    if let Some(over) = over.filter(|over| over.reason != "checkmate" && over.reason != "stalemate") {
        line.push_str(&format!(", game over: {}, {}", over.reason, over.result));
    }
    line
}

#[cfg(test)]
mod tests {
    use sanfen::{Bitboard, Color, Outcome, Position};

    use super::*;

    #[test]
    fn ascii_start_position() {
        let style = Style { ascii: true, ..Style::default() };
        let view = BoardView { board: Position::default().board().clone(), flipped: false, marks: Marks::default() };
        let lines = render(&view, style);
        assert_eq!(
            lines,
            [
                "8  r  n  b  q  k  b  n  r  8",
                "7  p  p  p  p  p  p  p  p  7",
                "6  .  .  .  .  .  .  .  .  6",
                "5  .  .  .  .  .  .  .  .  5",
                "4  .  .  .  .  .  .  .  .  4",
                "3  .  .  .  .  .  .  .  .  3",
                "2  P  P  P  P  P  P  P  P  2",
                "1  R  N  B  Q  K  B  N  R  1",
                "   a  b  c  d  e  f  g  h",
            ]
        );
    }

    #[test]
    fn unicode_flipped_with_marks_and_colour() {
        let style = Style { ascii: false, color: true };
        let marks = Marks {
            targets: Bitboard::from_square(Square::F3).with(Square::H3),
            origin: Some(Square::G1),
            last_move: Some((Square::E2, Square::E4)),
            check: None,
        };
        let lines = render(&BoardView { board: Position::default().board().clone(), flipped: true, marks }, style);
        assert_eq!(lines[0], "1  ♖ [♘] ♗  ♔  ♕  ♗  ♘  ♖  1");
        assert_eq!(lines[1], format!("2  ♙  ♙  ♙ {LAST_MOVE} ♙ {RESET} ♙  ♙  ♙  ♙  2"));
        assert_eq!(lines[2], "3  *  ·  *  ·  ·  ·  ·  ·  3");
        assert_eq!(lines[3], format!("4  ·  ·  · {LAST_MOVE} · {RESET} ·  ·  ·  ·  4"));
        assert_eq!(lines[8], "   h  g  f  e  d  c  b  a");
    }

    #[test]
    fn without_colour_the_last_move_and_check_are_marked_in_text() {
        let position: Position = "4k3/8/8/8/8/8/4R3/4K3 b - - 1 1".parse().unwrap();
        let marks = Marks {
            last_move: Some((Square::A2, Square::E2)),
            check: Some(Square::E8),
            targets: Bitboard::from_square(Square::D8),
            origin: None,
        };
        let view = BoardView { board: position.board().clone(), flipped: false, marks };
        let lines = render(&view, Style { ascii: true, color: false });
        assert_eq!(lines[0], "8  .  .  .  * +k+ .  .  .  8");
        assert_eq!(lines[6], "2 <.> .  .  . <R> .  .  .  2");
        let lines = render(&view, Style { ascii: false, color: false });
        assert_eq!(lines[0], "8  ·  ·  ·  * +♚+ ·  ·  ·  8");
        assert_eq!(lines[6], "2 <·> ·  ·  · <♖> ·  ·  ·  2");
        // with colour, the escapes alone
        let lines = render(&view, Style { ascii: true, color: true });
        assert_eq!(lines[0], format!("8  .  .  .  * {CHECK} k {RESET} .  .  .  8"));
        assert_eq!(lines[6], format!("2 {LAST_MOVE} . {RESET} .  .  . {LAST_MOVE} R {RESET} .  .  .  2"));
    }

    #[test]
    fn status_says_the_last_move_the_side_to_move_and_check() {
        let mut game = Game::default();
        assert_eq!(status(&game, None), "White to move");
        for (san, expected) in [
            ("e4", "last move: 1. e4, Black to move"),
            ("f5", "last move: 1... f5, White to move"),
            ("Qh5", "last move: 2. Qh5+, Black to move, check"),
            ("g6", "last move: 2... g6, White to move"),
        ] {
            let m = san.parse::<sanfen::san::SanPlus>().unwrap().to_move(game.position()).unwrap();
            game.play(m).unwrap();
            assert_eq!(status(&game, None), expected);
        }
        let stalemate = Game::new("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse().unwrap());
        assert_eq!(status(&stalemate, None), "Black to move, stalemate");
        let resigned = GameOver { result: Outcome::Decisive { winner: Color::Black }, reason: "White resigned".into() };
        assert_eq!(status(&Game::default(), Some(&resigned)), "White to move, game over: White resigned, 0-1");
        let mate = Game::new("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 30".parse().unwrap());
        let checkmate = GameOver { result: Outcome::Decisive { winner: Color::White }, reason: "checkmate".into() };
        assert_eq!(status(&mate, Some(&checkmate)), "Black to move, checkmate");
    }
}
