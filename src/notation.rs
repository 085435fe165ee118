//! Writing moves: canonical SAN (disambiguated from the legal moves only, with
//! `+`/`#`), long algebraic, UCI, figurines, other languages' piece letters, and
//! the file-prefixed listing; and the value order (pawns first).
//!
//! ```
//! use sanfen::Position;
//! use sanfen::notation::{Notation, write_move};
//! use sanfen::san::Letters;
//!
//! let pos = Position::default();
//! let knight = pos.legal_moves().into_iter().find(|m| m.to() == sanfen::Square::F3).unwrap();
//! assert_eq!(write_move(&pos, knight, Notation::San, Letters::English), "Nf3");
//! assert_eq!(write_move(&pos, knight, Notation::Lan, Letters::English), "Ng1-f3");
//! assert_eq!(write_move(&pos, knight, Notation::San, Letters::Portuguese), "Cf3");
//! assert_eq!(write_move(&pos, knight, Notation::Figurine, Letters::English), "♘f3");
//! ```

use core::cmp::Ordering;
use core::fmt::Write;

use crate::san::{CastlingSide, Letters, San, SanPlus, Suffix};
use crate::{CastlingMode, Color, File, Move, Piece, Position, Rank, Role};

/// How to write a move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Standard algebraic notation: `Nf3`, `exd5`, `e8=Q+`, `O-O`.
    #[default]
    San,
    /// Long algebraic: `Ng1-f3`, `e2-e4`, `e5xd6`, `e7-e8=Q`, `O-O`.
    Lan,
    /// UCI: `g1f3`, `e7e8q`; castling as the king's two-square move (`e1g1`), or
    /// king takes rook (`e1h1`) in Chess960.
    Uci,
    /// SAN with figurines for the pieces: `♘f3`.
    Figurine,
    /// The file-prefixed listing: SAN where every pawn move carries its origin file
    /// (`ee4`, `dxc8N`), promotions without `=`, castling as the king's move
    /// (`Kg1`), and no check marks.
    FilePrefixed,
}

impl Notation {
    /// The notation of a name: `san`, `lan`, `uci`, `figurine`, `file-prefixed`.
    pub fn from_name(name: &str) -> Option<Notation> {
        match name {
            "san" => Some(Notation::San),
            "lan" => Some(Notation::Lan),
            "uci" => Some(Notation::Uci),
            "figurine" => Some(Notation::Figurine),
            "file-prefixed" => Some(Notation::FilePrefixed),
            _ => None,
        }
    }

    /// The name [`Notation::from_name`] reads: `san`, `lan`, `uci`,
    /// `figurine`, `file-prefixed`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::San => "san",
            Notation::Lan => "lan",
            Notation::Uci => "uci",
            Notation::Figurine => "figurine",
            Notation::FilePrefixed => "file-prefixed",
        }
    }
}

/// The canonical SAN of a legal move: the piece letter, the origin file, rank or
/// both only when another legal move of the same kind of piece goes to the same
/// square, the capture mark, the destination, `=` and the promotion piece.
pub fn san(pos: &Position, m: Move) -> San {
    match m {
        Move::Castle { king, rook } => {
            San::Castle(if rook.file() > king.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide })
        }
        Move::EnPassant { from, to } => {
            San::Normal { role: Role::Pawn, file: Some(from.file()), rank: None, capture: true, to, promotion: None }
        }
        Move::Normal { role: Role::Pawn, from, capture, to, promotion } => San::Normal {
            role: Role::Pawn,
            file: capture.map(|_| from.file()),
            rank: None,
            capture: capture.is_some(),
            to,
            promotion,
        },
        Move::Normal { role, from, capture, to, promotion } => {
            // other pieces of the same kind that can legally go to the same square
            let mut rivals = crate::Bitboard::EMPTY;
            for other in pos.legal_moves() {
                if let Move::Normal { role: r, from: f, to: t, .. } = other
                    && r == role
                    && t == to
                    && f != from
                {
                    rivals.add(f);
                }
            }
            let (file, rank) = if rivals.is_empty() {
                (None, None)
            } else if !rivals.into_iter().any(|sq| sq.file() == from.file()) {
                (Some(from.file()), None)
            } else if !rivals.into_iter().any(|sq| sq.rank() == from.rank()) {
                (None, Some(from.rank()))
            } else {
                (Some(from.file()), Some(from.rank()))
            };
            San::Normal { role, file, rank, capture: capture.is_some(), to, promotion }
        }
    }
}

/// The check mark a move earns: `#` when it mates, `+` when it checks.
pub fn suffix(pos: &Position, m: Move) -> Option<Suffix> {
    let mut after = pos.clone();
    after.play_unchecked(m);
    if !after.is_check() {
        None
    } else if after.has_legal_moves() {
        Some(Suffix::Check)
    } else {
        Some(Suffix::Checkmate)
    }
}

/// [`san`] with its check mark.
pub fn san_plus(pos: &Position, m: Move) -> SanPlus {
    SanPlus { san: san(pos, m), suffix: suffix(pos, m), annotation: None, en_passant_mark: false }
}

/// Writes a legal move in a notation; piece letters in `letters`.
pub fn write_move(pos: &Position, m: Move, notation: Notation, letters: Letters) -> String {
    let mut out = String::with_capacity(8);
    let mode = pos.castling_mode();
    match notation {
        // UCI needs neither the SAN nor the check mark
        Notation::Uci => {
            let unread = SanPlus { san: San::Null, suffix: None, annotation: None, en_passant_mark: false };
            write_known_move(&mut out, m, &unread, mode, notation, letters);
        }
        _ => write_known_move(&mut out, m, &san_plus(pos, m), mode, notation, letters),
    }
    out
}

/// Appends to `out` the legal move `m`, whose canonical SAN with its check
/// mark is `san` (as [`san_plus`] gives it, or as a game read has it), in
/// `notation` (piece letters in `letters`; castling in UCI as `mode`
/// says): what [`write_move`] writes, without working out the SAN and the
/// check mark again (telling a mate takes the replies' generation). `san`
/// is not read for UCI, and its annotation never.
pub fn write_known_move(
    out: &mut String,
    m: Move,
    san: &SanPlus,
    mode: CastlingMode,
    notation: Notation,
    letters: Letters,
) {
    let letter = |role: Role| letters.letter(role);
    let check_mark = |out: &mut String| match san.suffix {
        Some(Suffix::Check) => out.push('+'),
        Some(Suffix::Checkmate) => out.push('#'),
        None => {}
    };
    match notation {
        Notation::Uci => {
            let _ = write!(out, "{}", m.to_uci(mode));
        }
        Notation::San | Notation::Figurine => {
            write_san(out, &san.san, |role| match notation {
                Notation::Figurine => Piece { color: Color::White, role }.figurine(),
                _ => letter(role),
            });
            check_mark(out);
        }
        Notation::Lan => {
            match m {
                Move::Castle { .. } => write_san(out, &san.san, letter),
                _ => {
                    if m.role() != Role::Pawn {
                        out.push(letter(m.role()));
                    }
                    let _ = write!(out, "{}", m.from());
                    out.push(if m.is_capture() { 'x' } else { '-' });
                    let _ = write!(out, "{}", m.to());
                    if let Some(role) = m.promotion() {
                        out.push('=');
                        out.push(letter(role));
                    }
                }
            }
            check_mark(out);
        }
        Notation::FilePrefixed => match m {
            Move::Castle { .. } => {
                out.push(letter(Role::King));
                let _ = write!(out, "{}", m.to());
            }
            _ if m.role() == Role::Pawn => {
                out.push(m.from().file().char());
                if m.is_capture() {
                    out.push('x');
                }
                let _ = write!(out, "{}", m.to());
                if let Some(role) = m.promotion() {
                    out.push(letter(role));
                }
            }
            _ => write_san(out, &san.san, letter),
        },
    }
}

/// Writes a SAN value with the given piece letters (no check mark).
fn write_san(out: &mut String, san: &San, letter: impl Fn(Role) -> char) {
    match *san {
        San::Castle(CastlingSide::KingSide) => out.push_str("O-O"),
        San::Castle(CastlingSide::QueenSide) => out.push_str("O-O-O"),
        San::Null => out.push_str("--"),
        San::Squares { from, to, capture, promotion } => {
            out.push_str(&from.to_string());
            write_destination(out, capture, to, promotion, &letter);
        }
        San::Normal { role, file, rank, capture, to, promotion } => {
            if role != Role::Pawn {
                out.push(letter(role));
            }
            if let Some(file) = file {
                out.push(file.char());
            }
            if let Some(rank) = rank {
                out.push(rank.char());
            }
            write_destination(out, capture, to, promotion, &letter);
        }
    }
}

/// The capture mark, the destination and the promotion (`x`, `d5`, `=Q`).
fn write_destination(
    out: &mut String,
    capture: bool,
    to: crate::Square,
    promotion: Option<Role>,
    letter: &impl Fn(Role) -> char,
) {
    if capture {
        out.push('x');
    }
    out.push_str(&to.to_string());
    if let Some(role) = promotion {
        out.push('=');
        out.push(letter(role));
    }
}

/// Sorts moves in value order: by piece (pawn, knight, bishop, rook,
/// queen, king), then origin file, origin rank, then destination file,
/// destination rank, then promotion piece (knight, bishop, rook, queen).
///
/// Castling counts as the king's move to its destination (`O-O` as `Kg1`),
/// right after an ordinary king move to the same square (Chess960 can have
/// both). Ranks count from White's side whichever side moves. The sort is
/// stable.
///
/// ```
/// use sanfen::Position;
/// use sanfen::notation::{Notation, sort_by_value, write_move};
/// use sanfen::san::Letters;
///
/// let pos = Position::default();
/// let mut moves = pos.legal_moves();
/// sort_by_value(&mut moves);
/// let first: Vec<String> = moves[..3].iter().map(|&m| write_move(&pos, m, Notation::San, Letters::English)).collect();
/// assert_eq!(first, ["a3", "a4", "b3"]);
/// assert_eq!(write_move(&pos, moves[16], Notation::San, Letters::English), "Na3");
/// ```
pub fn sort_by_value(moves: &mut [Move]) {
    moves.sort_by_key(|&m| value_key(m));
}

/// Compares two moves in value order, as [`sort_by_value`] sorts them;
/// for sorting records that hold a move.
pub fn cmp_by_value(a: Move, b: Move) -> Ordering {
    value_key(a).cmp(&value_key(b))
}

/// The sort key of [`sort_by_value`].
fn value_key(m: Move) -> (Role, File, Rank, File, Rank, Option<Role>, bool) {
    let (from, to) = (m.from(), m.to());
    (m.role(), from.file(), from.rank(), to.file(), to.rank(), m.promotion(), m.is_castle())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CastlingMode, Fen};

    fn pos(fen: &str, mode: CastlingMode) -> Position {
        Position::from_setup(Fen::parse(fen, mode).unwrap().setup, mode).unwrap()
    }

    /// Every legal move of `fen` in value order, written in `notation`.
    fn listing(fen: &str, mode: CastlingMode, notation: Notation) -> Vec<String> {
        let pos = pos(fen, mode);
        let mut moves = pos.legal_moves();
        sort_by_value(&mut moves);
        moves.iter().map(|&m| write_move(&pos, m, notation, Letters::English)).collect()
    }

    #[test]
    fn castling_sorts_right_after_a_king_move_to_the_same_square() {
        // Chess960: king f1, rook h1; Kg1 and O-O both put the king on g1
        let fen = "4k3/8/8/8/8/8/8/5K1R w H - 0 1";
        let uci = listing(fen, CastlingMode::Chess960, Notation::Uci);
        assert_eq!(uci[uci.len() - 6..], ["f1e1", "f1e2", "f1f2", "f1g1", "f1h1", "f1g2"]);
        let file_prefixed = listing(fen, CastlingMode::Chess960, Notation::FilePrefixed);
        assert_eq!(file_prefixed[file_prefixed.len() - 6..], ["Ke1", "Ke2", "Kf2", "Kg1", "Kg1", "Kg2"]);
        // the stable sort keeps equal keys in generation order; cmp_by_value agrees
        let pos = pos(fen, CastlingMode::Chess960);
        let mut moves = pos.legal_moves();
        sort_by_value(&mut moves);
        assert!(moves.windows(2).all(|pair| cmp_by_value(pair[0], pair[1]) == Ordering::Less));
    }

    #[test]
    fn check_marks_in_san_and_lan_but_not_file_prefixed() {
        // after 1. f3 e5 2. g4: Qh4 mates
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2";
        let pos = pos(fen, CastlingMode::Standard);
        let mate = pos.legal_moves().into_iter().find(|m| m.to() == crate::Square::H4).unwrap();
        let written: Vec<String> =
            [Notation::San, Notation::Lan, Notation::Uci, Notation::Figurine, Notation::FilePrefixed]
                .iter()
                .map(|&notation| write_move(&pos, mate, notation, Letters::English))
                .collect();
        assert_eq!(written, ["Qh4#", "Qd8-h4#", "d8h4", "♕h4#", "Qh4"]);
        assert_eq!(write_move(&pos, mate, Notation::San, Letters::German), "Dh4#");
    }

    #[test]
    fn en_passant_and_promotion_in_every_notation() {
        let fen = "4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 2";
        assert_eq!(
            listing(fen, CastlingMode::Standard, Notation::San)[..6],
            ["b8=N", "b8=B", "b8=R+", "b8=Q+", "exd6", "e6"]
        );
        assert_eq!(
            listing(fen, CastlingMode::Standard, Notation::FilePrefixed)[..6],
            ["bb8N", "bb8B", "bb8R", "bb8Q", "exd6", "ee6"]
        );
        assert_eq!(
            listing(fen, CastlingMode::Standard, Notation::Lan)[..6],
            ["b7-b8=N", "b7-b8=B", "b7-b8=R+", "b7-b8=Q+", "e5xd6", "e5-e6"]
        );
    }

    #[test]
    fn names_round_trip() {
        for notation in [Notation::San, Notation::Lan, Notation::Uci, Notation::Figurine, Notation::FilePrefixed] {
            assert_eq!(Notation::from_name(notation.name()), Some(notation));
        }
        assert_eq!(Notation::from_name("pgn"), None);
    }
}
