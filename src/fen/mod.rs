//! FEN text: [`Fen`] (parsed syntax, with every problem and lint finding located
//! by byte span), conversion to a [`Setup`](crate::Setup), and the canonical writer.
//!
//! ```
//! use sanfen::fen::{Fen, FenField};
//!
//! let err = "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1".parse::<Fen>().unwrap_err();
//! // both problems at once: rank 7 has seven squares, 'x' is no castling letter
//! assert_eq!(err.errors.len(), 2);
//! assert_eq!(err.errors[0].field, FenField::Placement);
//! assert_eq!(err.errors[1].field, FenField::Castling);
//! assert_eq!(err.errors[1].span, 47..48);
//! ```

mod check;
mod error;
mod parse;
mod reason;
#[cfg(feature = "serde")]
mod serde_impls;
mod types;
mod write;

#[cfg(test)]
mod grammar_tests;

pub use check::{FenCheck, FenFinding, FenMessage, SYNTAX_CODE, castling_needing_chess960};
pub use error::{FenSyntaxError, ParseFenError};
pub use types::{EnPassantMode, Fen, FenField, FenLint, FenLintKind, FenSpans};
