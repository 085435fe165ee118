//! Drawing a board of the REPL ([`BoardView`]) as text: ranks and files
//! labelled, Unicode figurines or ASCII letters, either orientation, marked
//! squares (a piece's targets, attacked squares), and, with colour on, the
//! last move and a checked king highlighted with ANSI escapes.

use sanfen::repl::{BoardView, Marks};
use sanfen::{Board, File, Rank, Square};

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
/// both sides, then the files.
///
/// ```text
/// 8  r  n  b  q  k  b  n  r  8
/// ...
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

/// One square, three characters wide.
fn cell(board: &Board, sq: Square, style: Style, marks: &Marks) -> String {
    let piece = board.piece_at(sq).map(|p| if style.ascii { p.char() } else { p.figurine() });
    let marked = marks.targets.contains(sq);
    match (piece, marked) {
        (Some(ch), _) if marks.origin == Some(sq) => format!("[{ch}]"),
        (Some(ch), true) => format!("({ch})"),
        (Some(ch), false) => format!(" {ch} "),
        (None, true) => " * ".to_owned(),
        (None, false) => {
            if style.ascii {
                " . ".to_owned()
            } else {
                " · ".to_owned()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use sanfen::{Bitboard, Position};

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
}
