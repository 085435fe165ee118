//! Where a game starts: the `Variant`, `FEN` and `SetUp` tags read into a
//! [`Position`], or the reason the game cannot be played.
//!
//! ```
//! use sanfen::pgn::start::{Start, start_position};
//!
//! assert!(matches!(start_position(None, None), Ok(Start::Play { .. })));
//! assert!(matches!(start_position(Some("Crazyhouse"), None), Ok(Start::Skip { .. })));
//! let err = start_position(None, Some("8/8/8/8/8/8/8/8 w - - 0 1")).unwrap_err();
//! assert!(err.to_string().starts_with("FEN tag: illegal position"));
//! ```

use crate::{CastlingMode, Fen, Position, Variant};

/// How a game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// Play it from this position.
    Play {
        /// The position after the tags.
        position: Box<Position>,
        /// The variant (standard chess or Chess960).
        variant: Variant,
        /// The `FEN` tag gives a position no legal game reaches, whose rules can
        /// still be played (a composed study): accepted, worth a warning.
        unreachable: bool,
    },
    /// A variant sanfen does not play: the game is skipped, not judged.
    Skip {
        /// The `Variant` tag's value.
        variant: String,
    },
}

/// The `FEN` tag cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartError {
    /// Why, in words.
    pub message: String,
}

impl core::fmt::Display for StartError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StartError {}

/// The start of a game from its `Variant` and `FEN` tag values (`None` when
/// absent). Without a `FEN` tag the game starts from the initial position. A
/// standard game whose `FEN` castling rights only make sense as Chess960
/// (X-FEN or Shredder-FEN letters for rooks off the a and h files) is read as
/// Chess960, as engines write such games without a `Variant` tag.
///
/// # Errors
///
/// [`StartError`] when the `FEN` tag is not FEN, or no game can be played
/// from it.
pub fn start_position(variant: Option<&str>, fen: Option<&str>) -> Result<Start, StartError> {
    let variant = match variant.map(Variant::from_name) {
        None => Variant::Standard,
        Some(Ok(variant)) => variant,
        Some(Err(unsupported)) => return Ok(Start::Skip { variant: unsupported.name }),
    };
    let Some(text) = fen else {
        let position = if variant == Variant::Chess960 {
            // the standard array is one of the 960 start positions
            let fen = Fen::parse(&Position::default().fen().to_string(), CastlingMode::Chess960)
                .map_err(|err| StartError { message: format!("FEN tag: {err}") })?;
            Position::from_setup(fen.setup, CastlingMode::Chess960)
                .map_err(|err| StartError { message: format!("FEN tag: {err}") })?
        } else {
            Position::default()
        };
        return Ok(Start::Play { position: Box::new(position), variant, unreachable: false });
    };
    let mut modes = vec![variant.castling_mode()];
    if variant == Variant::Standard {
        modes.push(CastlingMode::Chess960);
    }
    let mut first_error = None;
    for mode in modes {
        let fen = match Fen::parse(text.trim(), mode) {
            Ok(fen) => fen,
            Err(err) => {
                first_error.get_or_insert_with(|| format!("FEN tag: {err}"));
                continue;
            }
        };
        let variant = if mode == CastlingMode::Chess960 { Variant::Chess960 } else { Variant::Standard };
        match Position::from_setup(fen.setup.clone(), mode) {
            Ok(position) => return Ok(Start::Play { position: Box::new(position), variant, unreachable: false }),
            Err(strict) => {
                if let Ok(position) = Position::from_setup_lenient(fen.setup, mode) {
                    return Ok(Start::Play { position: Box::new(position), variant, unreachable: true });
                }
                first_error.get_or_insert_with(|| format!("FEN tag: {strict}"));
            }
        }
    }
    Err(StartError { message: first_error.unwrap_or_default() })
}
