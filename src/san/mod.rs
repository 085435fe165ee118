//! SAN text: [`San`] and [`SanPlus`] (a move as written, before any position
//! judges it), the lenient and strict parsers ([`parse_san`]), lint findings
//! for every accepted spelling that is not canonical ([`SanLint`]), piece
//! letters of several languages ([`Letters`]), and the canonical writer
//! (`Display`).
//!
//! ```
//! use sanfen::san::{Letters, San, SanLintKind, SanOptions, SanPlus, parse_san};
//! use sanfen::{File, Role, Square};
//!
//! // strict: canonical PGN SAN only
//! let san: SanPlus = "Nbd7+".parse().unwrap();
//! assert_eq!(
//!     san.san,
//!     San::Normal { role: Role::Knight, file: Some(File::B), rank: None, capture: false, to: Square::D7, promotion: None }
//! );
//! assert_eq!(san.to_string(), "Nbd7+");
//! assert!("0-0".parse::<SanPlus>().is_err());
//!
//! // lenient: any common spelling, each non-canonical part reported
//! let parsed = parse_san(b"0-0", SanOptions::default()).unwrap();
//! assert_eq!(parsed.readings[0].to_string(), "O-O");
//! assert_eq!(parsed.lints[0].kind, SanLintKind::CastlingZeros);
//! assert_eq!(parsed.lints[0].span, 0..3);
//!
//! // Portuguese letters: C is the knight (cavalo), R the king (rei)
//! let options = SanOptions { strict: false, letters: Letters::Portuguese };
//! assert_eq!(parse_san(b"Cf3", options).unwrap().readings[0].to_string(), "Nf3");
//! assert_eq!(parse_san(b"Rg1", options).unwrap().readings[0].to_string(), "Kg1");
//! ```

mod error;
mod grammar;
mod letters;
mod parse;
#[cfg(feature = "serde")]
mod serde_impls;
mod types;
mod write;

#[cfg(test)]
mod grammar_tests;

pub use error::{ParseSanError, SanLint, SanLintKind};
pub use letters::{Letters, ParseLettersError};
pub use parse::{parse_canonical, parse_san};
pub use types::{Annotation, CastlingSide, ParsedSan, Readings, San, SanOptions, SanPlus, Suffix};
