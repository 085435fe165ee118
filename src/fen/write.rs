//! Writing FEN: `Display` for [`Fen`] (canonical FEN of its setup) and for
//! [`Position`], and [`Position::fen`].

use core::fmt::Write as _;

use super::types::{EnPassantMode, Fen};
use crate::position::castling_letter;
use crate::{Board, CastlingMode, CastlingRights, Color, File, Position};

/// Rights in the order canonical FEN writes them: White first, each side's
/// files from h to a (`KQkq`, `HFhf`).
pub(super) fn canonical_castling_order(rights: CastlingRights) -> impl Iterator<Item = (Color, File)> {
    Color::ALL.into_iter().flat_map(move |color| rights.files(color).rev().map(move |file| (color, file)))
}

/// The castling field of canonical FEN for `rights`.
pub(super) fn castling_text(board: &Board, rights: CastlingRights, mode: CastlingMode) -> String {
    if rights.is_empty() {
        return "-".to_owned();
    }
    canonical_castling_order(rights).map(|(color, file)| castling_letter(board, color, file, mode)).collect()
}

impl core::fmt::Display for Fen {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let setup = &self.setup;
        write!(f, "{} {} ", setup.board, setup.turn.char())?;
        if setup.castling_rights.is_empty() {
            f.write_char('-')?;
        }
        for (color, file) in canonical_castling_order(setup.castling_rights) {
            f.write_char(castling_letter(&setup.board, color, file, self.castling_mode))?;
        }
        match setup.ep_square {
            Some(sq) => write!(f, " {sq}")?,
            None => f.write_str(" -")?,
        }
        write!(f, " {} {}", setup.halfmoves, setup.fullmoves)
    }
}

impl Position {
    /// The position as canonical FEN: the en passant square only when a capture
    /// there is legal.
    pub fn fen(&self) -> Fen {
        self.fen_with(EnPassantMode::Legal)
    }

    /// The position as FEN, keeping the en passant square as `ep` says.
    pub fn fen_with(&self, ep: EnPassantMode) -> Fen {
        let setup = match ep {
            EnPassantMode::Legal => self.to_canonical_setup(),
            EnPassantMode::AsGiven => self.to_setup(),
        };
        Fen::from_setup(setup, self.castling_mode())
    }
}

impl core::fmt::Display for Position {
    /// Canonical FEN.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.fen().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writer_round_trips() {
        for text in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 12 40",
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
            "8/8/8/8/8/8/8/8 w - - 0 1",
        ] {
            let fen: Fen = text.parse().unwrap();
            assert_eq!(fen.to_string(), text);
            assert_eq!(fen.to_string().parse::<Fen>().unwrap().setup, fen.setup);
        }
        // the en passant square is kept as given on request, dropped when no capture is legal
        let pos = Position::from_setup(
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2".parse::<Fen>().unwrap().setup,
            CastlingMode::Standard,
        )
        .unwrap();
        assert_eq!(pos.fen().to_string(), "8/8/8/KPp4r/8/8/8/7k w - - 0 2");
        assert_eq!(pos.fen_with(EnPassantMode::AsGiven).to_string(), "8/8/8/KPp4r/8/8/8/7k w - c6 0 2");
    }
}
