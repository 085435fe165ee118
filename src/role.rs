//! Piece kinds ([`Role`]) and coloured pieces ([`Piece`]), with their letters.
//!
//! ```
//! use sanfen::{Color, Piece, Role};
//!
//! let knight = Piece::from_char('n').unwrap();
//! assert_eq!(knight, Piece { color: Color::Black, role: Role::Knight });
//! assert_eq!(knight.char(), 'n');
//! assert_eq!(Role::Queen.upper_char(), 'Q');
//! ```

use crate::Color;

/// A kind of piece, in value order (pawn first, king last).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, strum::EnumIter)]
#[repr(u8)]
pub enum Role {
    /// Pawn (`P`).
    Pawn = 1,
    /// Knight (`N`).
    Knight = 2,
    /// Bishop (`B`).
    Bishop = 3,
    /// Rook (`R`).
    Rook = 4,
    /// Queen (`Q`).
    Queen = 5,
    /// King (`K`).
    King = 6,
}

impl Role {
    /// Every role, pawn first.
    pub const ALL: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

    /// The role of an English piece letter, either case.
    pub const fn from_char(ch: char) -> Option<Role> {
        match ch {
            'p' | 'P' => Some(Role::Pawn),
            'n' | 'N' => Some(Role::Knight),
            'b' | 'B' => Some(Role::Bishop),
            'r' | 'R' => Some(Role::Rook),
            'q' | 'Q' => Some(Role::Queen),
            'k' | 'K' => Some(Role::King),
            _ => None,
        }
    }

    /// The lowercase English letter.
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The uppercase English letter.
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// The lowercase English name.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    /// The integer code, 1 (pawn) to 6 (king).
    pub const fn code(self) -> i8 {
        self as i8
    }

    /// The role of an integer code, 1 to 6.
    pub const fn from_code(code: i8) -> Option<Role> {
        match code {
            1 => Some(Role::Pawn),
            2 => Some(Role::Knight),
            3 => Some(Role::Bishop),
            4 => Some(Role::Rook),
            5 => Some(Role::Queen),
            6 => Some(Role::King),
            _ => None,
        }
    }

    /// Index 0 (pawn) to 5 (king), for tables.
    pub const fn index(self) -> usize {
        self as usize - 1
    }
}

impl core::fmt::Display for Role {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece of one colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// Which kind.
    pub role: Role,
}

impl Piece {
    /// The piece of a FEN letter: uppercase White, lowercase Black.
    pub const fn from_char(ch: char) -> Option<Piece> {
        match Role::from_char(ch) {
            Some(role) => {
                Some(Piece { color: if ch.is_ascii_uppercase() { Color::White } else { Color::Black }, role })
            }
            None => None,
        }
    }

    /// The FEN letter: uppercase White, lowercase Black.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// The integer code: the role's code, negative for Black.
    pub const fn code(self) -> i8 {
        match self.color {
            Color::White => self.role.code(),
            Color::Black => -self.role.code(),
        }
    }

    /// The piece of an integer code (±1 to ±6).
    pub const fn from_code(code: i8) -> Option<Piece> {
        let color = if code < 0 { Color::Black } else { Color::White };
        match Role::from_code(code.unsigned_abs() as i8) {
            Some(role) if code != i8::MIN => Some(Piece { color, role }),
            _ => None,
        }
    }

    /// The two-letter name: `W` or `B`, then the uppercase letter (`"WK"`, `"BN"`).
    pub const fn matrix_name(self) -> &'static str {
        const NAMES: [[&str; 6]; 2] = [["WP", "WN", "WB", "WR", "WQ", "WK"], ["BP", "BN", "BB", "BR", "BQ", "BK"]];
        NAMES[self.color as usize][self.role.index()]
    }

    /// The piece of a two-letter name (`"WK"`, `"BN"`).
    pub fn from_matrix_name(name: &str) -> Option<Piece> {
        let mut chars = name.chars();
        let color = match chars.next()? {
            'W' => Color::White,
            'B' => Color::Black,
            _ => return None,
        };
        let letter = chars.next()?;
        if chars.next().is_some() || !letter.is_ascii_uppercase() {
            return None;
        }
        Some(Piece { color, role: Role::from_char(letter)? })
    }

    /// The Unicode chess symbol (`♔` White king ... `♟` Black pawn).
    pub const fn figurine(self) -> char {
        const WHITE: [char; 6] = ['♙', '♘', '♗', '♖', '♕', '♔'];
        const BLACK: [char; 6] = ['♟', '♞', '♝', '♜', '♛', '♚'];
        match self.color {
            Color::White => WHITE[self.role.index()],
            Color::Black => BLACK[self.role.index()],
        }
    }
}

impl core::fmt::Display for Piece {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} {}", self.color, self.role)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                assert_eq!(Piece::from_code(piece.code()), Some(piece));
                assert_eq!(Piece::from_char(piece.char()), Some(piece));
                assert_eq!(Piece::from_matrix_name(piece.matrix_name()), Some(piece));
            }
        }
        assert_eq!(Piece { color: Color::Black, role: Role::Queen }.code(), -5);
        assert_eq!(Piece::from_code(0), None);
        assert_eq!(Piece::from_code(7), None);
        assert_eq!(Piece::from_code(i8::MIN), None);
        assert_eq!(Piece::from_matrix_name("PM"), None);
        assert_eq!(Piece::from_matrix_name("Wk"), None);
        assert_eq!(Piece::from_matrix_name("WKK"), None);
    }
}
