//! [`Variant`]: the rule sets sanfen plays, standard chess and Chess960, named
//! as PGN `Variant` tags and perft suites name them; every other variant is
//! refused with [`UnsupportedVariant`].
//!
//! ```
//! use sanfen::{CastlingMode, Variant};
//!
//! assert_eq!("Fischerandom".parse::<Variant>(), Ok(Variant::Chess960));
//! assert_eq!(Variant::Chess960.castling_mode(), CastlingMode::Chess960);
//! let err = "crazyhouse".parse::<Variant>().unwrap_err();
//! assert_eq!(err.to_string(), "unsupported variant 'crazyhouse': sanfen plays standard chess and Chess960");
//! ```

use crate::CastlingMode;

/// A rule set sanfen plays.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Standard chess.
    #[default]
    Standard,
    /// Chess960 (Fischer Random): any starting back rank, castling by rook file.
    Chess960,
}

impl Variant {
    /// How castling rights are read in this variant.
    pub const fn castling_mode(self) -> CastlingMode {
        match self {
            Variant::Standard => CastlingMode::Standard,
            Variant::Chess960 => CastlingMode::Chess960,
        }
    }

    /// The variant of a name as PGN `Variant` tags and other programs write it,
    /// case and spaces, hyphens and underscores aside: `standard`, `normal`,
    /// `chess`, `from position` (standard); `chess960`, `chess 960`,
    /// `fischerandom`, `fischer random`, `frc` (Chess960).
    ///
    /// # Errors
    ///
    /// [`UnsupportedVariant`] for any other name (crazyhouse, atomic, ...).
    pub fn from_name(name: &str) -> Result<Variant, UnsupportedVariant> {
        let folded: String =
            name.chars().filter(|c| !matches!(c, ' ' | '-' | '_')).map(|c| c.to_ascii_lowercase()).collect();
        match folded.as_str() {
            "standard" | "normal" | "chess" | "fromposition" => Ok(Variant::Standard),
            "chess960" | "fischerandom" | "fischerrandom" | "frc" | "960" => Ok(Variant::Chess960),
            _ => Err(UnsupportedVariant { name: name.to_owned() }),
        }
    }

    /// The canonical name: `standard` or `chess960`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Chess960 => "chess960",
        }
    }
}

impl core::fmt::Display for Variant {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for Variant {
    type Err = UnsupportedVariant;

    fn from_str(name: &str) -> Result<Variant, UnsupportedVariant> {
        Variant::from_name(name)
    }
}

/// A variant sanfen does not play (crazyhouse, atomic, antichess, ...).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnsupportedVariant {
    /// The name as given.
    pub name: String,
}

impl core::fmt::Display for UnsupportedVariant {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "unsupported variant '{}': sanfen plays standard chess and Chess960", self.name)
    }
}

impl std::error::Error for UnsupportedVariant {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for (name, variant) in [
            ("Standard", Variant::Standard),
            ("normal", Variant::Standard),
            ("From Position", Variant::Standard),
            ("chess960", Variant::Chess960),
            ("Chess 960", Variant::Chess960),
            ("fischerandom", Variant::Chess960),
            ("Fischer-Random", Variant::Chess960),
        ] {
            assert_eq!(Variant::from_name(name), Ok(variant), "{name}");
        }
        for name in ["3check", "antichess", "atomic", "crazyhouse", "horde", "racingkings", "Seirawan", ""] {
            assert_eq!(Variant::from_name(name), Err(UnsupportedVariant { name: name.to_owned() }));
        }
    }
}
