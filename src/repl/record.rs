//! What a session records beyond its moves: the game's tags, how it ended
//! when the board does not say (a resignation, a draw agreed or claimed, the
//! result a loaded game was given), and what a loaded game had around its
//! moves (comments, NAGs, variations), which `save` writes back.

use crate::pgn::game::{Game as PgnGame, Line, Node, Tag, distinct_tags};
pub(super) use crate::pgn::played::{is_tag_name, set};
use crate::pgn::played::{node, roster};
use crate::pgn::reader::{Location, ResultToken};
use crate::pgn::validate::GameReport;
use crate::{Color, Game, Move, Outcome, Position};

/// The tags a session sets itself from its game: the result, and the
/// starting position and variant. `tag` refuses to set them.
pub(super) const DERIVED_TAGS: [&str; 4] = ["Result", "SetUp", "FEN", "Variant"];

/// The name the engine plays under in the `White` and `Black` tags.
pub(super) const ENGINE_NAME: &str = "sanfen";

/// A game ended off the board: the moves it ended after, the result and why
/// (`White resigned`, `draw agreed`, `draw claimed (threefold repetition)`,
/// `result as loaded`). It holds while the session's moves are these moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Ending {
    pub moves: Vec<Move>,
    pub result: Outcome,
    pub reason: String,
}

/// The tags of a new game from `initial`: the Seven Tag Roster (`date` for
/// the Date, unknown values otherwise, Result `*`), `Variant` for Chess960,
/// `SetUp` and `FEN` when the game does not start from the initial position.
pub(super) fn fresh_tags(initial: &Position, date: Option<&str>) -> Vec<Tag> {
    let mut tags = roster(initial);
    if let Some(date) = date {
        set(&mut tags, "Date", date);
    }
    tags
}

/// The value of a tag.
pub(super) fn get<'a>(tags: &'a [Tag], name: &str) -> Option<&'a str> {
    tags.iter().find(|t| t.name == name).map(|t| t.value.as_str())
}

/// A loaded game's tags with each name once (a name given twice with its
/// last value) and the Seven Tag Roster complete: in their order when it has
/// all seven, else the roster first (unknown values for those it lacks),
/// then its other tags in their order.
pub(super) fn complete_roster(tags: &mut Vec<Tag>) {
    let distinct =
        distinct_tags(tags).into_iter().map(|(name, value)| Tag { name: name.to_owned(), value: value.to_owned() });
    *tags = distinct.collect();
    let roster = crate::pgn::SEVEN_TAG_ROSTER;
    if roster.iter().all(|(name, _)| get(tags, name).is_some()) {
        return;
    }
    let mut complete: Vec<Tag> = roster
        .iter()
        .map(|&(name, unknown)| Tag { name: name.to_owned(), value: get(tags, name).unwrap_or(unknown).to_owned() })
        .collect();
    complete.extend(tags.drain(..).filter(|tag| !roster.iter().any(|&(name, _)| name == tag.name)));
    *tags = complete;
}

/// The game as a PGN game to write: `tags` (the result set to `result`), the
/// moves played from `initial`, and where they follow a loaded game's
/// mainline, that game's comments, NAGs and variations; where they leave it,
/// the loaded continuation becomes the first variation of the move played
/// instead.
pub(super) fn pgn_game(tags: &[Tag], loaded: Option<&PgnGame>, game: &Game, result: Option<Outcome>) -> PgnGame {
    let mut tags = tags.to_vec();
    set(&mut tags, "Result", result.map_or("*", Outcome::as_str));
    let empty = Line::default();
    let loaded_line = loaded.map_or(&empty, |game| &game.mainline);
    PgnGame {
        at: Location::default(),
        end: Location::default(),
        before: Vec::new(),
        tags,
        escapes: loaded.map(|game| game.escapes.clone()).unwrap_or_default(),
        tag_comments: loaded.map(|game| game.tag_comments.clone()).unwrap_or_default(),
        start: Some(game.initial().clone()),
        mainline: merged_line(loaded_line, game),
        result: Some(result.map_or(ResultToken::Unknown, ResultToken::Outcome)),
        after_result: loaded.map(|game| game.after_result.clone()).unwrap_or_default(),
        after: Vec::new(),
        report: GameReport::default(),
    }
}

/// The moves played as a line: the loaded line's nodes while they are the
/// same moves, new nodes after (see [`pgn_game`]).
fn merged_line(loaded: &Line, game: &Game) -> Line {
    let moves = game.moves();
    let common = loaded.moves.iter().zip(moves).take_while(|&(node, &m)| node.played == Some(m)).count();
    let mut line = Line { comments: loaded.comments.clone(), nags: loaded.nags.clone(), moves: Vec::new() };
    line.moves.extend_from_slice(&loaded.moves[..common]);
    if let Some(mut position) = game.position_at(common) {
        for (ply, &m) in moves.iter().enumerate().skip(common) {
            line.moves.push(node(&position, m, ply));
            position.play_unchecked(m);
        }
    }
    if common < moves.len() && common < loaded.moves.len() {
        // the loaded line went on otherwise: keep it, as the first
        // alternative to the move played instead (its own alternatives after)
        let mut old: Vec<Node> = loaded.moves[common..].to_vec();
        let alternatives = core::mem::take(&mut old[0].variations);
        let node = &mut line.moves[common];
        node.variations.push(Line { moves: old, ..Line::default() });
        node.variations.extend(alternatives);
    }
    line
}

/// `White` or `Black`: the tag naming a side's player.
pub(super) fn player_tag(color: Color) -> &'static str {
    if color == Color::White { "White" } else { "Black" }
}
