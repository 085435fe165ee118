//! serde for [`San`], [`SanPlus`], [`Letters`] and [`ParsedSan`]: the moves
//! through their text (read leniently), the letters through their code.

use serde::Deserialize;

use super::error::SanLint;
use super::letters::Letters;
use super::parse::parse_san;
use super::types::{ParsedSan, Readings, San, SanOptions, SanPlus};

fn read<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<SanPlus, D::Error> {
    let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
    let parsed = parse_san(text.as_bytes(), SanOptions::LENIENT).map_err(serde::de::Error::custom)?;
    if parsed.is_ambiguous() {
        return Err(serde::de::Error::custom(format!("{text:?} reads two ways; write {}", parsed.readings[0])));
    }
    Ok(parsed.readings[0])
}

impl serde::Serialize for SanPlus {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for SanPlus {
    /// The text form, read leniently (so coordinates read back too).
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<SanPlus, D::Error> {
        read(deserializer)
    }
}

impl serde::Serialize for San {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for San {
    /// The text form, read leniently, without check mark or annotation.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<San, D::Error> {
        let san_plus = read(deserializer)?;
        if san_plus.suffix.is_some() || san_plus.annotation.is_some() {
            return Err(serde::de::Error::custom("a move without check mark or annotation"));
        }
        Ok(san_plus.san)
    }
}

impl serde::Serialize for Letters {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl<'de> serde::Deserialize<'de> for Letters {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Letters, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// `ParsedSan` as `{"readings": [...], "lints": [...]}`.
#[derive(serde::Serialize, serde::Deserialize)]
struct Plain {
    readings: Vec<SanPlus>,
    lints: Vec<SanLint>,
}

impl serde::Serialize for ParsedSan {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Plain { readings: self.readings.to_vec(), lints: self.lints.clone() }.serialize(serializer)
    }
}

impl<'de> serde::Deserialize<'de> for ParsedSan {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<ParsedSan, D::Error> {
        let plain = Plain::deserialize(deserializer)?;
        let readings = match plain.readings[..] {
            [one] => Readings::one(one),
            [first, second] => Readings::two(first, second),
            _ => return Err(serde::de::Error::custom("one or two readings")),
        };
        Ok(ParsedSan { readings, lints: plain.lints })
    }
}
