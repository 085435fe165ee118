//! PGN: a streaming reader that turns bytes into events for a [`Visitor`]
//! ([`reader`]), a splitter that cuts a stream into chunks of whole games
//! ([`chunk`]), the validator ([`validate`]) and the formatter ([`format`](mod@format));
//! inputs opened and decompressed ([`input`]), work on chunks driven on N
//! threads in input order ([`parallel`]), whole inputs checked
//! ([`check`](mod@check): [`check_path`], [`check_reader`]) and formatted
//! ([`format_input`](mod@format_input)).

pub mod check;
pub mod chunk;
pub mod format;
pub mod format_input;
pub mod input;
pub mod parallel;
pub mod reader;
pub mod start;
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
pub use input::{Compression, Input};
pub use reader::{Location, RawText, ResultToken, Skip, SyntaxError, SyntaxErrorKind, Visitor};
pub use reader::{Reader, looks_utf16};
