//! PGN: a streaming reader that turns bytes into events for a [`Visitor`]
//! ([`reader`]), and a splitter that cuts a stream into chunks of whole games
//! ([`chunk`]).

pub mod chunk;
pub mod reader;

pub use chunk::{Chunk, Chunker};
pub use reader::Reader;
pub use reader::{Location, RawText, ResultToken, Skip, SyntaxError, SyntaxErrorKind, Visitor};
