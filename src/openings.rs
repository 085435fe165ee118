//! Opening names: the ECO code and name of a position, from lichess's
//! chess-openings (public domain, CC0), embedded at build time
//! (`data/openings/`, 3,807 lines of play).
//!
//! A position is named when one of the lines reaches it (whatever the move
//! order); a game is named by the deepest position of its mainline that is.
//!
//! ```
//! use sanfen::openings::{opening, opening_of_game};
//! use sanfen::san::SanPlus;
//! use sanfen::Position;
//!
//! let mut position = Position::default();
//! let mut moves = Vec::new();
//! for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "h3"] {
//!     let m = san.parse::<SanPlus>()?.to_move(&position)?;
//!     position.play_unchecked(m);
//!     moves.push(m);
//! }
//! // the Ruy Lopez, Morphy Defense; 7. h3 is in no line
//! let named = opening_of_game(&Position::default(), &moves).unwrap();
//! assert_eq!((named.opening.eco, named.opening.name), ("C70", "Ruy Lopez: Morphy Defense"));
//! assert_eq!(named.ply, 6);
//! assert_eq!(opening(&position), None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::LazyLock;

use rustc_hash::FxHashMap;

use crate::san::SanPlus;
use crate::{CastlingRights, Color, Move, Position, Role, Square};

/// An opening: its ECO code and name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The ECO code (`C70`).
    pub eco: &'static str,
    /// The name (`Ruy Lopez: Morphy Defense`).
    pub name: &'static str,
}

/// The opening of a game: the deepest named position of its mainline.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameOpening {
    /// The opening.
    pub opening: Opening,
    /// The ply after which the game is in that position (1: after the
    /// first move).
    pub ply: usize,
}

/// The embedded lines, `eco<TAB>name<TAB>pgn` with a header line, one file
/// per ECO volume.
const TABLES: [&str; 5] = [
    include_str!("../data/openings/a.tsv"),
    include_str!("../data/openings/b.tsv"),
    include_str!("../data/openings/c.tsv"),
    include_str!("../data/openings/d.tsv"),
    include_str!("../data/openings/e.tsv"),
];

/// What names a position: its pieces, the side to move, the castling
/// rights and the en passant square when a capture there is legal (as EPD
/// compares positions).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    pieces: Pieces,
    turn: Color,
    castling: CastlingRights,
    ep: Option<Square>,
}

/// The board's bitboards (by role, then by colour), which say all the
/// board says, and hash fast.
#[derive(Clone, Debug)]
struct Pieces([u64; 8]);

impl PartialEq for Pieces {
    /// The same pieces, compared all at once (the differences of their
    /// words ored), not as a call of `memcmp`, which took half the time of
    /// a look-up.
    #[inline]
    fn eq(&self, other: &Pieces) -> bool {
        self.0.iter().zip(&other.0).fold(0, |differ, (a, b)| differ | (a ^ b)) == 0
    }
}

impl Eq for Pieces {}

impl core::hash::Hash for Pieces {
    /// The words: equal pieces hash alike.
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl Key {
    #[inline]
    fn of(position: &Position) -> Key {
        let board = position.board();
        let mut pieces = [0; 8];
        for (i, role) in Role::ALL.into_iter().enumerate() {
            pieces[i] = board.by_role(role).0;
        }
        for (i, color) in Color::ALL.into_iter().enumerate() {
            pieces[6 + i] = board.by_color(color).0;
        }
        let (turn, castling, ep) = (position.turn(), position.castling_rights(), position.legal_ep_square());
        Key { pieces: Pieces(pieces), turn, castling, ep }
    }

    /// The occupied squares.
    #[inline]
    fn occupied(&self) -> u64 {
        self.pieces.0[6] | self.pieces.0[7]
    }
}

/// Every named position, and the longest line's plies.
struct Book {
    names: FxHashMap<Key, Opening>,
    /// A bit for the occupied squares of each named position
    /// ([`filter_bit`]): a position whose bit is clear has no name. Most
    /// positions that have none are told so by one bit, without making
    /// their key and looking it up.
    filter: Box<[u64]>,
    max_plies: usize,
}

/// The bits of [`Book::filter`]: 2 to this power (some 4,000 named
/// positions set about one bit in 16).
const FILTER_BITS: u32 = 16;

/// The bit of [`Book::filter`] for the occupied squares `occupied`.
fn filter_bit(occupied: u64) -> usize {
    (occupied.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - FILTER_BITS)) as usize
}

impl Book {
    /// The opening named for the position of `key`, if a line reaches it.
    #[inline]
    fn named(&self, key: &Key) -> Option<Opening> {
        let bit = filter_bit(key.occupied());
        if self.filter[bit / 64] >> (bit % 64) & 1 == 0 {
            return None;
        }
        self.names.get(key).copied()
    }
}

/// Read at first use: every line played from the initial position. A
/// position reached by several lines keeps the first line's name (the
/// files' order).
static BOOK: LazyLock<Book> = LazyLock::new(|| {
    let mut names = FxHashMap::default();
    let mut filter = vec![0u64; (1 << FILTER_BITS) / 64].into_boxed_slice();
    let mut max_plies = 0;
    for table in TABLES {
        for line in table.lines().skip(1) {
            let mut fields = line.split('\t');
            let (Some(eco), Some(name), Some(pgn)) = (fields.next(), fields.next(), fields.next()) else { continue };
            let Some((position, plies)) = play_line(pgn) else { continue };
            max_plies = max_plies.max(plies);
            let key = Key::of(&position);
            let bit = filter_bit(key.occupied());
            filter[bit / 64] |= 1 << (bit % 64);
            names.entry(key).or_insert(Opening { eco, name });
        }
    }
    Book { names, filter, max_plies }
});

/// The position a line of movetext (`1. e4 e5 2. Nf3`) reaches from the
/// initial position, and its plies; `None` if a move is not legal there.
fn play_line(pgn: &str) -> Option<(Position, usize)> {
    let mut position = Position::default();
    let mut plies = 0;
    for token in pgn.split_whitespace() {
        if token.ends_with('.') {
            continue;
        }
        let m = token.parse::<SanPlus>().ok()?.to_move(&position).ok()?;
        position.play_unchecked(m);
        plies += 1;
    }
    Some((position, plies))
}

/// The opening named for `position`, if a line reaches it.
pub fn opening(position: &Position) -> Option<Opening> {
    BOOK.named(&Key::of(position))
}

/// The positions of a game's mainline where its opening may be, as it is
/// played ([`Trail::push`]), looked up once it ends ([`Trail::opening`]):
/// the deepest first, and no further once one is named. (Each looked up as
/// it came, `sanfen export`'s games table took 4 to 8% longer: most of a
/// game's first positions are named, and were looked up one by one.)
#[derive(Clone, Debug, Default)]
pub(crate) struct Trail {
    /// The keys of the positions after the first moves, as many as the
    /// longest named line has.
    keys: Vec<Key>,
}

impl Trail {
    /// No position yet: a game's start.
    pub(crate) fn clear(&mut self) {
        self.keys.clear();
    }

    /// The position after the mainline's next move (legal), if its ply is
    /// one a named line reaches.
    #[inline]
    pub(crate) fn push(&mut self, after: &Position) {
        if self.keys.len() < BOOK.max_plies {
            self.keys.push(Key::of(after));
        }
    }

    /// The deepest named position so far, with its ply.
    pub(crate) fn opening(&self) -> Option<GameOpening> {
        let book = &*BOOK;
        self.keys.iter().enumerate().rev().find_map(|(i, key)| {
            let opening = book.named(key)?;
            Some(GameOpening { opening, ply: i + 1 })
        })
    }
}

/// The opening of a game that starts at `start` and plays `moves` (its
/// mainline): the deepest position on the way that has a name, with its
/// ply. Only the first plies are looked at, as many as the longest named
/// line has; `None` when no position is named (or a move is not legal).
pub fn opening_of_game(start: &Position, moves: &[Move]) -> Option<GameOpening> {
    let mut position = start.clone();
    let mut legal = Vec::new();
    for &m in moves.iter().take(BOOK.max_plies) {
        position = position.play(m).ok()?;
        legal.push(m);
    }
    opening_of_legal_game(start, legal.into_iter())
}

/// [`opening_of_game`] of moves known to be legal, one after another (a
/// game's mainline that was read and checked).
pub(crate) fn opening_of_legal_game(start: &Position, moves: impl Iterator<Item = Move>) -> Option<GameOpening> {
    let mut position = start.clone();
    let mut trail = Trail::default();
    for m in moves.take(BOOK.max_plies) {
        position.play_unchecked(m);
        trail.push(&position);
    }
    trail.opening()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_legal_and_named() {
        let mut lines = 0;
        for table in TABLES {
            for line in table.lines().skip(1) {
                let pgn = line.split('\t').nth(2).expect("three fields");
                let (position, _) = play_line(pgn).unwrap_or_else(|| panic!("{line}"));
                assert!(opening(&position).is_some(), "{line}");
                lines += 1;
            }
        }
        assert_eq!(lines, 3807);
        assert!(BOOK.names.len() <= lines);
    }

    #[test]
    fn transpositions_reach_the_same_name() {
        // the Grünfeld's line, and the English move order that reaches it
        let (a, _) = play_line("1. d4 Nf6 2. c4 g6 3. Nc3 d5").unwrap();
        let (b, _) = play_line("1. c4 Nf6 2. Nc3 g6 3. d4 d5").unwrap();
        let grunfeld = Some(Opening { eco: "D80", name: "Grünfeld Defense" });
        assert_eq!((opening(&a), opening(&b)), (grunfeld, grunfeld));
    }

    #[test]
    fn the_initial_position_has_no_name_and_a_game_without_a_named_position_none() {
        assert_eq!(opening(&Position::default()), None);
        assert_eq!(opening_of_game(&Position::default(), &[]), None);
    }
}
