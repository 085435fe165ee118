//! Where a legality problem of a position is in its FEN text:
//! [`Reason::field`] and [`Fen::span_of`].

use core::ops::Range;

use super::types::{Fen, FenField};
use crate::{Reason, ReasonKind};

impl Reason {
    /// The FEN field the reason is about.
    pub const fn field(&self) -> FenField {
        match self.kind {
            ReasonKind::Castling { .. } => FenField::Castling,
            ReasonKind::EnPassantWrongRank
            | ReasonKind::EnPassantNoPawn
            | ReasonKind::EnPassantOccupied
            | ReasonKind::EnPassantNotCapturable
            | ReasonKind::CheckWithEnPassant => FenField::EnPassant,
            ReasonKind::EnPassantWithHalfmoves { .. } | ReasonKind::HalfmovesTooLarge { .. } => FenField::Halfmoves,
            ReasonKind::OppositeCheck { .. } => FenField::Turn,
            _ => FenField::Placement,
        }
    }
}

impl Fen {
    /// The span of the text a legality reason is about: the castling letter, the
    /// field it concerns, else the placement.
    pub fn span_of(&self, reason: &Reason) -> Option<Range<usize>> {
        if let ReasonKind::Castling { color, file, .. } = reason.kind
            && let Some((_, _, span)) = self.spans.castling.iter().find(|(c, f, _)| *c == color && *f == file)
        {
            return Some(span.clone());
        }
        let index = FenField::FIELDS.iter().position(|f| *f == reason.field()).unwrap_or(0);
        self.spans.fields[index].clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CastlingMode, Position};

    #[test]
    fn reason_spans() {
        let text = "r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1";
        let fen = Fen::parse(text, CastlingMode::Standard).unwrap();
        let reasons = Position::check(&fen.setup, CastlingMode::Standard);
        assert_eq!(reasons.len(), 1);
        assert_eq!(fen.span_of(&reasons[0]), Some(27..28));
        assert_eq!(&text[27..28], "K");
        let text = "4k3/8/8/8/8/8/8/4K3 w - e6 0 1";
        let fen = Fen::parse(text, CastlingMode::Standard).unwrap();
        let reasons = Position::check(&fen.setup, CastlingMode::Standard);
        assert_eq!(reasons[0].code(), "fen:en-passant-no-pawn");
        assert_eq!(fen.span_of(&reasons[0]), Some(24..26));
    }
}
