//! A game played move by move ([`crate::Game`]) as a PGN game to write
//! ([`Game::from_play`]), and the tags such a game gets: the Seven Tag
//! Roster, and `Variant`, `SetUp` and `FEN` from its initial position.
//!
//! ```
//! use sanfen::{Game, Position, Uci, pgn};
//!
//! let mut game = Game::new(Position::default());
//! for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
//!     let m = uci.parse::<Uci>().unwrap().to_move(game.position()).unwrap();
//!     game.play(m).unwrap();
//! }
//! let written = pgn::Game::from_play(&game, &[("White", "Ana"), ("Annotator", "Rui")]).unwrap();
//! assert_eq!(
//!     written.to_pgn(),
//!     "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"Ana\"]\n[Black \"?\"]\n\
//!      [Result \"0-1\"]\n[Annotator \"Rui\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"
//! );
//! ```

use super::game::{Game, Line, Node, Tag};
use super::reader::{Location, ResultToken};
use super::validate::GameReport;
use crate::san::SanPlus;
use crate::{CastlingMode, Move, Outcome, Position};

/// The tags that [`Game::from_play`] sets from the game itself: its
/// starting position and variant.
pub const START_TAGS: [&str; 3] = ["SetUp", "FEN", "Variant"];

/// A tag [`Game::from_play`] cannot write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagError {
    /// The tag's name, as given.
    pub name: String,
    /// What is wrong with it.
    pub reason: String,
}

impl core::fmt::Display for TagError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "tag {:?}: {}", self.name, self.reason)
    }
}

impl std::error::Error for TagError {}

impl Game {
    /// The moves of `game`, from its initial position, as a PGN game: the
    /// Seven Tag Roster (unknown values, `?` and `????.??.??`, where `tags`
    /// gives none), `tags` in their order, and `Variant`, `SetUp` and `FEN`
    /// when the game is Chess960 or does not start from the initial
    /// position. The result is the game's end by the rules
    /// ([`crate::Game::end`]: checkmate, stalemate, insufficient material,
    /// fivefold repetition, the seventy-five-move rule), or the `Result`
    /// given (a resignation, a draw agreed), or `*`.
    ///
    /// # Errors
    ///
    /// [`TagError`]: a name that is not a PGN symbol (a letter or digit,
    /// then letters, digits and `_+#=:-`), a value with a control character,
    /// one of [`START_TAGS`] (the game says them), a `Result` that is not
    /// `1-0`, `0-1`, `1/2-1/2` or `*`, or that is not how the game ended
    /// on the board.
    pub fn from_play(game: &crate::Game, tags: &[(&str, &str)]) -> Result<Game, TagError> {
        let end = game.end();
        let ended = end.map(|end| end.result);
        let mut result = ended;
        let mut written = roster(game.initial());
        for &(name, value) in tags {
            let refuse = |reason: String| TagError { name: name.to_owned(), reason };
            if !is_tag_name(name) {
                return Err(refuse("not a tag name (a letter or digit, then letters, digits and _+#=:-)".into()));
            }
            if value.chars().any(char::is_control) {
                return Err(refuse("a tag value holds no control character".into()));
            }
            if START_TAGS.contains(&name) {
                return Err(refuse("set from the game's initial position".into()));
            }
            if name == "Result" {
                let given = match value {
                    "*" => None,
                    _ => Some(value.parse::<Outcome>().map_err(|_| refuse(format!("{value:?} is not a result")))?),
                };
                if let Some(end) = end.filter(|_| given != ended) {
                    return Err(refuse(format!("{value}, but the game ended on the board ({end})")));
                }
                result = given;
            }
            set(&mut written, name, value);
        }
        set(&mut written, "Result", result.map_or("*", Outcome::as_str));
        let moves = game.positions().zip(game.moves()).enumerate().map(|(ply, (before, &m))| node(&before, m, ply));
        Ok(Game {
            at: Location::default(),
            end: Location::default(),
            before: Vec::new(),
            tags: written,
            escapes: Vec::new(),
            tag_comments: Vec::new(),
            start: Some(game.initial().clone()),
            mainline: Line { moves: moves.collect(), ..Line::default() },
            result: Some(result.map_or(ResultToken::Unknown, ResultToken::Outcome)),
            after_result: Vec::new(),
            after: Vec::new(),
            report: GameReport::default(),
        })
    }
}

/// The Seven Tag Roster with unknown values (`?`, `????.??.??` and `*`),
/// then the tags of a game from `initial` ([`set_start_tags`]).
pub(crate) fn roster(initial: &Position) -> Vec<Tag> {
    let mut tags: Vec<Tag> = super::SEVEN_TAG_ROSTER
        .iter()
        .map(|&(name, unknown)| Tag { name: name.to_owned(), value: unknown.to_owned() })
        .collect();
    set_start_tags(&mut tags, initial);
    tags
}

/// Sets (or removes) `Variant`, `SetUp` and `FEN` for a game from `initial`.
fn set_start_tags(tags: &mut Vec<Tag>, initial: &Position) {
    let chess960 = initial.castling_mode() == CastlingMode::Chess960;
    let from_start = *initial == Position::default();
    let variant_is_960 = tags.iter().any(|t| t.name == "Variant" && is_chess960_name(&t.value));
    if chess960 && !variant_is_960 {
        set(tags, "Variant", "Chess960");
    } else if !chess960 && variant_is_960 {
        tags.retain(|t| t.name != "Variant");
    }
    if from_start {
        tags.retain(|t| t.name != "SetUp" && t.name != "FEN");
    } else {
        set(tags, "SetUp", "1");
        set(tags, "FEN", &initial.to_string());
    }
}

/// Whether a `Variant` tag names Chess960 (`Chess960`, `chess 960`,
/// `Fischerandom`, ...).
fn is_chess960_name(value: &str) -> bool {
    let squeezed: String = value.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_lowercase();
    squeezed.contains("960") || squeezed.contains("fischerandom") || squeezed.contains("fischerrandom")
}

/// Sets a tag's value, adding the tag at the end when there is none.
pub(crate) fn set(tags: &mut Vec<Tag>, name: &str, value: &str) {
    match tags.iter_mut().find(|t| t.name == name) {
        Some(tag) => value.clone_into(&mut tag.value),
        None => tags.push(Tag { name: name.to_owned(), value: value.to_owned() }),
    }
}

/// Whether a tag name is a PGN symbol: a letter or digit, then letters,
/// digits and `_+#=:-`, at most 255 bytes.
pub(crate) fn is_tag_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 255
        && bytes[0].is_ascii_alphanumeric()
        && bytes.iter().all(|&b| b.is_ascii_alphanumeric() || b"_+#=:-".contains(&b))
}

/// A node for a move played in `position`, the `ply`-th (from 0) of its
/// game, written in canonical SAN.
pub(crate) fn node(position: &Position, m: Move, ply: usize) -> Node {
    let san = SanPlus::from_move(position, m);
    Node {
        played: Some(m),
        written: san.to_string(),
        san,
        uci: Some(m.to_uci(position.castling_mode())),
        at: Location::default(),
        number: position.fullmoves(),
        side: position.turn(),
        ply: u32::try_from(ply + 1).unwrap_or(u32::MAX),
        nags: Default::default(),
        comments: Default::default(),
        variations: Default::default(),
    }
}
