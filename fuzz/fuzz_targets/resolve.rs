//! Fuzz target `resolve`: the input's first byte picks a position from a small
//! fixed list, the second the reading options (bit 7: strict; the rest, modulo
//! 7: the piece-letter language), and the rest is the typed move. Then
//!
//! - `resolve_text` never panics: it returns a parse error or a resolution;
//! - a resolved move is legal, and its canonical SAN reads back, strictly and
//!   with no lint finding, as the same move;
//! - an ambiguous move's spellings each read back as a different legal move
//!   from one of the listed squares; an illegal move's suggestions are the
//!   canonical SAN of legal moves;
//! - what strict reading resolves, lenient reading (English letters) resolves
//!   the same way;
//! - for every legal move `m` of the position, `resolve_text` of
//!   `san_plus(m)` resolves to `m` (checked once per position and process: it
//!   does not depend on the input).

#![no_main]

use std::sync::Once;

use libfuzzer_sys::fuzz_target;
use sanfen::notation::san_plus;
use sanfen::resolve::{SanError, resolve_text};
use sanfen::san::{Letters, SanOptions};
use sanfen::{CastlingMode, Move, Position};

/// Positions with something to get wrong: disambiguation, pins, checks, en
/// passant, promotions, castling both ways, the lowercase-b rule, Chess960.
const POSITIONS: [(&str, CastlingMode); 13] = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CastlingMode::Standard),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", CastlingMode::Standard),
    ("N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1", CastlingMode::Standard),
    ("r2qkbnr/ppp2ppp/2n5/1B2pQ2/4P3/8/PPP2PPP/RNB1K2R b KQkq - 3 7", CastlingMode::Standard),
    ("1r3k2/P1P5/8/8/8/8/8/R3K2R w KQ - 0 1", CastlingMode::Standard),
    ("7k/1p2Npbp/8/2P5/1P1r4/3b2QP/3q1pPK/2RB4 b - - 1 29", CastlingMode::Standard),
    ("rnbqkbnr/pppp1ppp/8/8/4PpP1/8/PPPP3P/RNBQKBNR b KQkq g3 0 3", CastlingMode::Standard),
    ("7k/3R4/3p2Q1/6Q1/2N1N3/8/8/3R3K w - - 0 1", CastlingMode::Standard),
    ("4k3/8/8/8/2n5/1P6/8/4KB2 w - - 0 1", CastlingMode::Standard),
    ("8/8/1n6/3R1P2/1n6/2k2K2/3p4/r6r b - - 0 82", CastlingMode::Standard),
    // Chess960, including a king step onto its castling square (b1-c1 and O-O-O)
    ("4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1", CastlingMode::Chess960),
    ("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", CastlingMode::Chess960),
    ("4k3/8/8/8/8/8/8/RK6 w A - 0 1", CastlingMode::Chess960),
];

static ROUND_TRIPPED: [Once; POSITIONS.len()] = [const { Once::new() }; POSITIONS.len()];

fn position(index: usize) -> Position {
    let (fen, mode) = POSITIONS[index];
    Position::from_fen(fen, mode).expect("a legal position of the list")
}

/// Reads `text` strictly: the move, asserting it was canonical.
fn strict_move(pos: &Position, text: &str) -> Move {
    let resolved = match resolve_text(pos, text.as_bytes(), SanOptions::STRICT) {
        Ok(resolved) => resolved,
        Err(err) => panic!("{pos}: {text:?} does not parse strictly: {err}"),
    };
    let m = match resolved.resolution.outcome {
        Ok(m) => m,
        Err(ref err) => panic!("{pos}: {text:?}: {err}"),
    };
    assert!(resolved.is_canonical(), "{pos}: {text:?} is not canonical: {resolved:?}");
    m
}

fuzz_target!(|data: &[u8]| {
    let [choice, flags, text @ ..] = data else {
        return;
    };
    let index = usize::from(*choice) % POSITIONS.len();
    let pos = position(index);
    ROUND_TRIPPED[index].call_once(|| {
        for &m in &pos.legal_moves() {
            let written = san_plus(&pos, m).to_string();
            assert_eq!(strict_move(&pos, &written), m, "{pos}: {written}");
        }
    });

    let options = SanOptions { strict: flags & 0x80 != 0, letters: Letters::ALL[usize::from(flags & 0x7f) % 7] };
    let Ok(resolved) = resolve_text(&pos, text, options) else {
        return;
    };
    match &resolved.resolution.outcome {
        Ok(m) => {
            assert!(pos.is_legal(*m), "{pos}: {:?} resolved to an illegal move {m:?}", String::from_utf8_lossy(text));
            let canonical = resolved.resolution.canonical.expect("a resolved move has its canonical SAN").to_string();
            assert_eq!(strict_move(&pos, &canonical), *m, "{pos}: {canonical}");
        }
        Err(SanError::Ambiguous { from, spellings }) => {
            assert!(spellings.len() >= 2 && spellings.len() == from.len(), "{pos}: {from:?} {spellings:?}");
            let moves: Vec<Move> = spellings.iter().map(|s| strict_move(&pos, s)).collect();
            for (i, m) in moves.iter().enumerate() {
                assert!(from.contains(&m.from()), "{pos}: {spellings:?} from {from:?}");
                assert!(!moves[..i].contains(m), "{pos}: {spellings:?} name the same move twice");
            }
        }
        Err(SanError::Illegal { suggestions, .. }) => {
            for suggestion in suggestions {
                strict_move(&pos, suggestion);
            }
        }
    }
    if options.strict {
        // strict reading is English whatever the letters; so is this one
        let again = resolve_text(&pos, text, SanOptions::LENIENT).expect("strict SAN reads leniently");
        assert_eq!(again.resolution.outcome, resolved.resolution.outcome, "{pos}: {:?}", String::from_utf8_lossy(text));
    }
});
