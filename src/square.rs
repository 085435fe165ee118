//! Board coordinates: [`File`] (a to h), [`Rank`] (1 to 8) and [`Square`] (a1 to h8).
//!
//! ```
//! use sanfen::{File, Rank, Square};
//!
//! let sq: Square = "e4".parse().unwrap();
//! assert_eq!(sq, Square::E4);
//! assert_eq!(sq.file(), File::E);
//! assert_eq!(sq.rank(), Rank::Fourth);
//! assert_eq!(Square::from_coords(File::G, Rank::First).to_string(), "g1");
//! ```

use crate::Color;

macro_rules! small_enum {
    ($(#[$meta:meta])* $name:ident, $count:expr, [$($variant:ident),*]) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum $name {
            $(#[allow(missing_docs)] $variant),*
        }

        impl $name {
            /// Every value, in increasing order.
            pub const ALL: [$name; $count] = [$($name::$variant),*];

            /// The value of an index, if in range.
            pub const fn new(index: u32) -> Option<$name> {
                if index < $count { Some(Self::ALL[index as usize]) } else { None }
            }

            /// The index of this value, from 0.
            #[inline]
            pub const fn index(self) -> usize {
                // the mask (every count is a power of two) tells the compiler the
                // index is in range, so array accesses need no bounds check
                self as usize & ($count - 1)
            }

            /// The value `delta` steps away, if on the board.
            pub const fn offset(self, delta: i32) -> Option<$name> {
                let index = self as i32 + delta;
                if index >= 0 { Self::new(index as u32) } else { None }
            }
        }
    };
}

small_enum!(
    /// A column of the board, `a` (queen side, index 0) to `h`.
    File, 8, [A, B, C, D, E, F, G, H]
);
small_enum!(
    /// A row of the board, `First` (White's back rank, index 0) to `Eighth`.
    Rank, 8, [First, Second, Third, Fourth, Fifth, Sixth, Seventh, Eighth]
);
small_enum!(
    /// A square, `a1` (index 0) to `h8` (index 63), rank by rank.
    Square, 64, [
        A1, B1, C1, D1, E1, F1, G1, H1,
        A2, B2, C2, D2, E2, F2, G2, H2,
        A3, B3, C3, D3, E3, F3, G3, H3,
        A4, B4, C4, D4, E4, F4, G4, H4,
        A5, B5, C5, D5, E5, F5, G5, H5,
        A6, B6, C6, D6, E6, F6, G6, H6,
        A7, B7, C7, D7, E7, F7, G7, H7,
        A8, B8, C8, D8, E8, F8, G8, H8
    ]
);

impl File {
    /// The file of a lowercase letter `a` to `h`.
    pub const fn from_char(ch: char) -> Option<File> {
        if ch >= 'a' && ch <= 'h' { File::new(ch as u32 - 'a' as u32) } else { None }
    }

    /// The lowercase letter.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// The uppercase letter (White's castling right in Shredder-FEN).
    pub const fn upper_char(self) -> char {
        (b'A' + self as u8) as char
    }

    /// The file seen from the other side of the board (a <-> h).
    pub const fn flip(self) -> File {
        File::ALL[7 - self as usize]
    }
}

impl Rank {
    /// The rank of a digit `1` to `8`.
    pub const fn from_char(ch: char) -> Option<Rank> {
        if ch >= '1' && ch <= '8' { Rank::new(ch as u32 - '1' as u32) } else { None }
    }

    /// The digit.
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// The rank seen from the other side (1 <-> 8).
    pub const fn flip(self) -> Rank {
        Rank::ALL[7 - self as usize]
    }

    /// The rank as `color` counts it: White's `First` is Black's `Eighth`.
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }
}

impl Square {
    /// The square on a file and a rank.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::ALL[(rank.index() << 3) | file.index()]
    }

    /// The file.
    #[inline]
    pub const fn file(self) -> File {
        File::ALL[self.index() & 7]
    }

    /// The rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::ALL[self.index() >> 3]
    }

    /// The square mirrored top to bottom (e2 <-> e7).
    pub const fn flip_vertical(self) -> Square {
        Square::ALL[self as usize ^ 56]
    }

    /// The square as `color` sees it: unchanged for White, mirrored for Black.
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// Whether the square is light (h1 is light, a1 dark).
    pub const fn is_light(self) -> bool {
        (self.file() as u8 + self.rank() as u8) % 2 == 1
    }

    /// The king distance (Chebyshev) between two squares.
    pub const fn distance(self, other: Square) -> u32 {
        let df = (self.file() as i32 - other.file() as i32).unsigned_abs();
        let dr = (self.rank() as i32 - other.rank() as i32).unsigned_abs();
        if df > dr { df } else { dr }
    }

    /// The square `file_delta` files and `rank_delta` ranks away, if on the board.
    pub const fn step(self, file_delta: i32, rank_delta: i32) -> Option<Square> {
        match (self.file().offset(file_delta), self.rank().offset(rank_delta)) {
            (Some(file), Some(rank)) => Some(Square::from_coords(file, rank)),
            _ => None,
        }
    }

    /// Parses a square from its two ASCII bytes (`b"e4"`).
    pub const fn from_ascii(bytes: &[u8]) -> Option<Square> {
        if bytes.len() != 2 {
            return None;
        }
        match (File::from_char(bytes[0] as char), Rank::from_char(bytes[1] as char)) {
            (Some(file), Some(rank)) => Some(Square::from_coords(file, rank)),
            _ => None,
        }
    }
}

impl core::fmt::Display for File {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl core::fmt::Display for Rank {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl core::fmt::Display for Square {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

/// The text was not a square name such as `e4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl core::fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("invalid square: expected a file a-h and a rank 1-8, such as e4")
    }
}

impl std::error::Error for ParseSquareError {}

impl core::str::FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes()).ok_or(ParseSquareError)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Square, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
        }
        for bad in ["", "e", "e9", "i1", "E4", "e44", "4e"] {
            assert_eq!(bad.parse::<Square>(), Err(ParseSquareError), "{bad}");
        }
    }

    #[test]
    fn geometry() {
        assert!(Square::H1.is_light());
        assert!(!Square::A1.is_light());
        assert_eq!(Square::E2.flip_vertical(), Square::E7);
        assert_eq!(Square::A1.distance(Square::H8), 7);
        assert_eq!(Square::B1.step(-1, 2), Some(Square::A3));
        assert_eq!(Square::A1.step(-1, 0), None);
        assert_eq!(Rank::Second.relative_to(Color::Black), Rank::Seventh);
        assert_eq!(File::C.flip(), File::F);
    }
}
