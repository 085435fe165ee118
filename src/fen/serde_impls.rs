//! serde for [`Fen`], [`Setup`], [`Position`] and [`Board`], through their
//! FEN text.

use super::types::Fen;
use crate::{Board, CastlingMode, Position, Setup};

impl serde::Serialize for Fen {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Fen {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Fen, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl serde::Serialize for Setup {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&Fen::from_setup(self.clone(), CastlingMode::Chess960))
    }
}

impl<'de> serde::Deserialize<'de> for Setup {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Setup, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Fen::parse(&text, CastlingMode::Chess960).map(|fen| fen.setup).map_err(serde::de::Error::custom)
    }
}

impl serde::Serialize for Position {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Position {
    /// Canonical FEN, standard castling first, else Chess960.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Position, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        let standard = Fen::parse(&text, CastlingMode::Standard).map_err(serde::de::Error::custom)?;
        Position::from_setup(standard.setup, CastlingMode::Standard).or_else(|err| {
            let fen = Fen::parse(&text, CastlingMode::Chess960).map_err(serde::de::Error::custom)?;
            Position::from_setup(fen.setup, CastlingMode::Chess960).map_err(|_| serde::de::Error::custom(err))
        })
    }
}

impl serde::Serialize for Board {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Board {
    /// A FEN placement field.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Board, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        let fen = Fen::parse(&format!("{text} w - - 0 1"), CastlingMode::Standard).map_err(serde::de::Error::custom)?;
        Ok(fen.setup.board)
    }
}
