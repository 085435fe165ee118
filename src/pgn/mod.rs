//! PGN: a streaming reader that turns bytes into events for a [`Visitor`]
//! ([`reader`]), a splitter that cuts a stream into chunks of whole games
//! ([`chunk`]), the validator ([`validate`]), the formatter
//! ([`format`](mod@format)), and games as values ([`game`]: [`read_games`],
//! [`read_games_path`], [`Game`], with the comment commands of [`commands`]);
//! inputs opened and decompressed ([`input`]), work on chunks driven on N
//! threads in input order ([`parallel`]), whole inputs checked
//! ([`check`](mod@check): [`check_path`], [`check_reader`]) and formatted
//! ([`format_input`](mod@format_input)), files cut at game boundaries into
//! byte ranges and parts ([`split`]).

pub mod check;
pub mod chunk;
pub mod commands;
pub mod format;
pub mod format_input;
pub mod game;
pub mod input;
pub mod parallel;
pub mod played;
pub mod reader;
pub mod rows;
pub mod split;
pub mod start;
#[cfg(feature = "arrow")]
pub mod table;
#[cfg(test)]
mod test_io;
pub mod validate;

/// The Seven Tag Roster, in export order, each with the value PGN writes when
/// it is unknown (`*` for Result: an unknown or unfinished game).
pub const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

pub use check::{CheckError, CheckOptions, Checks, check_input, check_path, check_reader};
pub use chunk::{Chunk, Chunker};
pub use game::{
    Game, GameCountError, Games, Line, Node, ParallelGames, ReadError, Tag, ThinVec, read_games, read_games_from_slice,
    read_games_from_slice_in, read_games_in, read_games_input, read_games_input_in, read_games_path,
};
pub use input::{Compression, Input, shown_name};
pub use reader::{Location, RawText, ResultToken, Skip, SyntaxError, SyntaxErrorKind, Visitor};
pub use reader::{Reader, decode_text, looks_utf16};
