//! The two sides, and a pair of values indexed by side.
//!
//! ```
//! use sanfen::{ByColor, Color};
//!
//! assert_eq!(!Color::White, Color::Black);
//! assert_eq!(Color::from_char('b'), Some(Color::Black));
//! let kings = ByColor { white: 1, black: 0 };
//! assert_eq!(kings[Color::Black], 0);
//! ```

use core::ops::{Index, IndexMut, Not};

/// A side: White or Black.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, strum::EnumIter)]
#[repr(u8)]
pub enum Color {
    /// White, who moves first.
    White = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The colour of a FEN side-to-move letter (`w` or `b`).
    pub const fn from_char(ch: char) -> Option<Color> {
        match ch {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        }
    }

    /// The FEN side-to-move letter.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `white` when this is White, else `black`.
    pub const fn fold<T: Copy>(self, white: T, black: T) -> T {
        match self {
            Color::White => white,
            Color::Black => black,
        }
    }

    /// The lowercase English name.
    pub const fn name(self) -> &'static str {
        self.fold("white", "black")
    }

    /// Whether this is White.
    pub const fn is_white(self) -> bool {
        matches!(self, Color::White)
    }

    /// The other side.
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.other()
    }
}

impl core::fmt::Display for Color {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// One value for each side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ByColor<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// Builds both values from a function of the colour.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        ByColor { white: f(Color::White), black: f(Color::Black) }
    }

    /// The value of one side.
    pub const fn get(&self, color: Color) -> &T {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The value of one side, mutably.
    pub const fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }

    /// Applies a function to both values.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor { white: f(self.white), black: f(self.black) }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    fn index(&self, color: Color) -> &T {
        self.get(color)
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    fn index_mut(&mut self, color: Color) -> &mut T {
        self.get_mut(color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for color in Color::ALL {
            assert_eq!(Color::from_char(color.char()), Some(color));
        }
        assert_eq!(Color::from_char('W'), None);
    }

    #[test]
    fn by_color_indexing() {
        let mut pair = ByColor::new_with(|c| c.name().len());
        assert_eq!(pair[Color::White], 5);
        pair[Color::Black] += 1;
        assert_eq!(pair.black, 6);
    }
}
