//! Fuzz target `fen`: for any bytes, in both castling modes,
//!
//! - `Fen::from_ascii` never panics, and `Position::check` runs on what it accepts;
//! - writing an accepted `Fen` and parsing the text again gives the same `Setup`,
//!   and the written text is canonical (no lint but `fullmove 0`, which the
//!   writer keeps as given);
//! - when the setup is a legal position, its canonical FEN parses back to a
//!   position whose canonical FEN is the same text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sanfen::fen::{EnPassantMode, FenLintKind};
use sanfen::{CastlingMode, Fen, Position};

fuzz_target!(|data: &[u8]| {
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        check(data, mode);
    }
});

fn check(data: &[u8], mode: CastlingMode) {
    let Ok(fen) = Fen::from_ascii(data, mode) else {
        return;
    };
    let _reasons = Position::check(&fen.setup, mode);

    let written = fen.to_string();
    let again = match Fen::from_ascii(written.as_bytes(), mode) {
        Ok(again) => again,
        Err(err) => panic!("written FEN {written:?} does not parse: {err}"),
    };
    assert_eq!(again.setup, fen.setup, "round trip through {written:?}");
    assert!(
        again.lints.iter().all(|lint| lint.kind == FenLintKind::FullmoveZero),
        "written FEN {written:?} is not canonical: {:?}",
        again.lints
    );

    let Ok(position) = Position::from_setup(fen.setup, mode) else {
        return;
    };
    for ep in [EnPassantMode::Legal, EnPassantMode::AsGiven] {
        let canonical = position.fen_with(ep).to_string();
        let reparsed = match Fen::from_ascii(canonical.as_bytes(), mode) {
            Ok(reparsed) => reparsed,
            Err(err) => panic!("canonical FEN {canonical:?} does not parse: {err}"),
        };
        let position_again = match Position::from_setup(reparsed.setup, mode) {
            Ok(position) => position,
            Err(err) => panic!("canonical FEN {canonical:?} is not a position: {err}"),
        };
        assert_eq!(position_again.fen_with(ep).to_string(), canonical, "canonical FEN round trip");
    }
}
