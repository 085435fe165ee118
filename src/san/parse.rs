//! Reading SAN: [`parse_san`] (strict or lenient), [`parse_canonical`] (the
//! fast path alone), and `from_ascii`/`FromStr` of [`San`] and [`SanPlus`]
//! (strict).

use core::str::FromStr;

use super::error::ParseSanError;
use super::grammar;
use super::letters::Letters;
use super::types::{ParsedSan, San, SanOptions, SanPlus};
use super::write::san_text;

impl SanPlus {
    /// Parses canonical PGN SAN with English letters (strict), from bytes.
    ///
    /// # Errors
    ///
    /// The text is not canonical SAN: where, what was found, what strict SAN
    /// wants there.
    pub fn from_ascii(text: &[u8]) -> Result<SanPlus, ParseSanError> {
        let parsed = parse_san(text, SanOptions::STRICT)?;
        Ok(parsed.readings[0])
    }
}

impl San {
    /// Parses canonical PGN SAN with English letters (strict), with no check
    /// mark or annotation.
    ///
    /// # Errors
    ///
    /// The text is not canonical SAN, or it has a check mark or annotation
    /// (parse a [`SanPlus`] for those).
    pub fn from_ascii(text: &[u8]) -> Result<San, ParseSanError> {
        let san_plus = SanPlus::from_ascii(text)?;
        if san_plus.suffix.is_some() || san_plus.annotation.is_some() {
            let start = san_text(&san_plus.san).1;
            return Err(ParseSanError {
                span: start..text.len(),
                found: String::from_utf8_lossy(&text[start.min(text.len())..]).into_owned(),
                expected: "the end of the move (a San has no check mark or annotation; parse a SanPlus)".to_owned(),
            });
        }
        Ok(san_plus.san)
    }
}

impl FromStr for SanPlus {
    type Err = ParseSanError;

    /// Strict: canonical PGN SAN with English letters.
    fn from_str(s: &str) -> Result<SanPlus, ParseSanError> {
        SanPlus::from_ascii(s.as_bytes())
    }
}

impl FromStr for San {
    type Err = ParseSanError;

    /// Strict: canonical PGN SAN with English letters, no check mark or annotation.
    fn from_str(s: &str) -> Result<San, ParseSanError> {
        San::from_ascii(s.as_bytes())
    }
}

/// Parses one SAN token, strictly (canonical PGN SAN only) or leniently (every
/// common spelling, each non-canonical part reported), as `options` say.
///
/// The whole of `text` is the token: whitespace around it is an error.
/// Canonical SAN takes a fast path that allocates nothing.
///
/// ```
/// use sanfen::san::{SanOptions, parse_san};
///
/// let parsed = parse_san(b"bc4", SanOptions::LENIENT).unwrap();
/// let readings: Vec<String> = parsed.readings.iter().map(ToString::to_string).collect();
/// assert_eq!(readings, ["bxc4", "Bc4"]); // the b-pawn, or the bishop
///
/// let err = parse_san(b"e8Q", SanOptions::STRICT).unwrap_err();
/// assert_eq!(err.span, 2..3);
/// assert_eq!(err.to_string(), "invalid move at 2..3: found \"Q\", expected `=Q` (strict SAN writes a promotion as `=` and a capital letter)");
/// ```
///
/// # Errors
///
/// The text is not a move (strict: not canonical SAN): the first problem,
/// with its span, what was found and what would be right.
#[inline]
pub fn parse_san(text: &[u8], options: SanOptions) -> Result<ParsedSan, ParseSanError> {
    let letters = if options.strict { Letters::English } else { options.letters };
    if let Some(san) = grammar::canonical(text, letters.table()) {
        return Ok(ParsedSan::one(san));
    }
    if options.strict { Err(grammar::strict_error(text)) } else { grammar::lenient(text, letters.table()) }
}

/// Parses one token of canonical PGN SAN: the fast path of [`parse_san`],
/// without its reports. `Some` exactly when the token is canonical SAN whose
/// piece letters `letters` reads as English does (a letter of another
/// language is a lint finding); then [`parse_san`] gives this reading and no
/// finding. `None` says nothing more: ask [`parse_san`] why.
///
/// ```
/// use sanfen::san::{Letters, parse_canonical};
///
/// assert_eq!(parse_canonical(b"Nxe5+", Letters::English).unwrap().to_string(), "Nxe5+");
/// assert_eq!(parse_canonical(b"Bxe5", Letters::Portuguese).unwrap().to_string(), "Bxe5");
/// assert_eq!(parse_canonical(b"Cxe5", Letters::Portuguese), None); // Nxe5, with a lint
/// assert_eq!(parse_canonical(b"0-0", Letters::English), None); // O-O, with a lint
/// ```
// Inlined into its caller (as `grammar::canonical` is into it) so the result
// stays in registers: returned through memory, it is stored field by field
// and loaded whole, which stalls the validator's hot path.
#[inline(always)]
pub fn parse_canonical(text: &[u8], letters: Letters) -> Option<SanPlus> {
    grammar::canonical(text, letters.table())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::san::{Annotation, CastlingSide, ParseLettersError, SanLint, SanLintKind, Suffix};
    use crate::{File, Rank, Role, Square};

    fn normal(role: Role, file: Option<File>, rank: Option<Rank>, capture: bool, to: Square) -> San {
        San::Normal { role, file, rank, capture, to, promotion: None }
    }

    fn plus(san: San, suffix: Option<Suffix>, annotation: Option<Annotation>) -> SanPlus {
        SanPlus { san, suffix, annotation, en_passant_mark: false }
    }

    #[test]
    fn display_is_canonical_san() {
        use Role::*;
        let cases: &[(San, &str)] = &[
            (normal(Knight, None, None, false, Square::F3), "Nf3"),
            (normal(Pawn, Some(File::E), None, true, Square::D5), "exd5"),
            (
                San::Normal {
                    role: Pawn,
                    file: None,
                    rank: None,
                    capture: false,
                    to: Square::E8,
                    promotion: Some(Queen),
                },
                "e8=Q",
            ),
            (San::Castle(CastlingSide::KingSide), "O-O"),
            (San::Castle(CastlingSide::QueenSide), "O-O-O"),
            (normal(Knight, Some(File::B), None, false, Square::D7), "Nbd7"),
            (normal(Rook, None, Some(Rank::First), false, Square::E2), "R1e2"),
            (normal(Queen, Some(File::H), Some(Rank::Fourth), false, Square::E1), "Qh4e1"),
            (normal(Queen, Some(File::H), Some(Rank::Fourth), true, Square::E1), "Qh4xe1"),
            (San::Null, "--"),
            // pawns: the file only for a capture, never the rank
            (normal(Pawn, Some(File::E), None, false, Square::D5), "exd5"),
            (normal(Pawn, Some(File::E), Some(Rank::Second), false, Square::E4), "e4"),
            (normal(Pawn, None, Some(Rank::Second), false, Square::E4), "e4"),
            (normal(Pawn, Some(File::E), None, true, Square::E5), "exe5"),
            // coordinates
            (San::Squares { from: Square::G1, to: Square::F3, capture: false, promotion: None }, "g1f3"),
            (San::Squares { from: Square::E2, to: Square::D3, capture: true, promotion: None }, "e2xd3"),
            (San::Squares { from: Square::E7, to: Square::E8, capture: false, promotion: Some(Knight) }, "e7e8=N"),
        ];
        for (san, text) in cases {
            assert_eq!(san.to_string(), *text, "{san:?}");
            let mut bytes = Vec::new();
            san.append_ascii(&mut bytes);
            assert_eq!(bytes, text.as_bytes());
        }
        let full = plus(
            normal(Queen, Some(File::A), Some(Rank::First), true, Square::H8),
            Some(Suffix::Checkmate),
            Some(Annotation::Brilliant),
        );
        assert_eq!(full.to_string(), "Qa1xh8#!!");
        let ep = SanPlus { en_passant_mark: true, ..SanPlus::new(normal(Pawn, Some(File::E), None, true, Square::D6)) };
        assert_eq!(ep.to_string(), "exd6");
    }

    #[test]
    fn canonical_values_round_trip() {
        let mut count = 0;
        for text in [
            "e4", "exd5", "e8=Q", "exd8=N+", "Nf3", "Nbd7", "R1e2", "Qh4e1", "Qh4xe1#", "Kxe2", "O-O", "O-O-O+", "--",
            "Bb5!", "d4?", "Nc3!!", "g4??", "Bg5!?", "Qh5?!", "a1=R#?!",
        ] {
            let parsed: SanPlus = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(parsed.to_string(), text);
            assert_eq!(parsed.to_string().parse::<SanPlus>(), Ok(parsed));
            count += 1;
        }
        assert_eq!(count, 20);
        // every square, every role: parse(display(x)) == x
        for to in Square::ALL {
            for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
                for (file, rank) in [
                    (None, None),
                    (Some(File::C), None),
                    (None, Some(Rank::Sixth)),
                    (Some(File::A), Some(Rank::Eighth)),
                ] {
                    for capture in [false, true] {
                        let san = normal(role, file, rank, capture, to);
                        assert_eq!(san.to_string().parse::<San>(), Ok(san));
                    }
                }
            }
            for promotion in [None, Some(Role::Queen), Some(Role::Knight)] {
                let push = San::Normal { role: Role::Pawn, file: None, rank: None, capture: false, to, promotion };
                assert_eq!(push.to_string().parse::<San>(), Ok(push));
                let take =
                    San::Normal { role: Role::Pawn, file: Some(File::B), rank: None, capture: true, to, promotion };
                assert_eq!(take.to_string().parse::<San>(), Ok(take));
            }
        }
    }

    #[test]
    fn san_from_str_refuses_suffixes() {
        assert_eq!("Nf3".parse::<San>(), Ok(normal(Role::Knight, None, None, false, Square::F3)));
        let err = "Nf3+".parse::<San>().unwrap_err();
        assert_eq!(err.span, 3..4);
        assert_eq!(err.found, "+");
        assert!(err.expected.starts_with("the end of the move"), "{err}");
    }

    #[test]
    fn letters_tables() {
        use Role::*;
        let cases: &[(Letters, [char; 5])] = &[
            (Letters::English, ['K', 'Q', 'R', 'B', 'N']),
            (Letters::Portuguese, ['R', 'D', 'T', 'B', 'C']),
            (Letters::Spanish, ['R', 'D', 'T', 'A', 'C']),
            (Letters::French, ['R', 'D', 'T', 'F', 'C']),
            (Letters::German, ['K', 'D', 'T', 'L', 'S']),
            (Letters::Italian, ['R', 'D', 'T', 'A', 'C']),
            (Letters::Dutch, ['K', 'D', 'T', 'L', 'P']),
        ];
        for &(letters, own) in cases {
            for (role, letter) in [King, Queen, Rook, Bishop, Knight].into_iter().zip(own) {
                assert_eq!(letters.letter(role), letter, "{letters:?} {role:?}");
                assert_eq!(letters.role_of(letter), Some(role), "{letters:?} {letter}");
            }
            assert_eq!(Letters::from_name(letters.code()), Some(letters));
            assert_eq!(Letters::from_name(&letters.name().to_uppercase()), Some(letters));
            assert_eq!(letters.to_string().parse::<Letters>(), Ok(letters));
            assert_eq!(letters.role_of('♘'), Some(Knight));
            assert_eq!(letters.role_of('♟'), Some(Pawn));
            assert_eq!(letters.role_of('x'), None);
            assert_eq!(letters.role_of('n'), None);
        }
        // English letters a language does not use keep their meaning; the others do not
        assert_eq!(Letters::Portuguese.role_of('N'), Some(Knight));
        assert_eq!(Letters::Portuguese.role_of('R'), Some(King));
        assert_eq!(Letters::Portuguese.role_of('Q'), Some(Queen));
        assert_eq!(Letters::Portuguese.role_of('P'), Some(Pawn));
        assert_eq!(Letters::German.role_of('B'), Some(Bishop));
        assert_eq!(Letters::Dutch.role_of('P'), Some(Knight));
        assert_eq!(Letters::English.role_of('C'), None);
        assert_eq!(Letters::from_name("português"), Some(Letters::Portuguese));
        assert_eq!(Letters::from_name("klingon"), None);
        assert_eq!("xx".parse::<Letters>(), Err(ParseLettersError));
    }

    #[test]
    fn lint_codes_and_messages() {
        use SanLintKind::*;
        let cases: &[(SanLintKind, &str, &str, &str)] = &[
            (CastlingZeros, "O-O", "san:castling-zeros", "castling written with zeros; SAN writes O-O"),
            (
                CastlingLowercase,
                "O-O-O",
                "san:castling-lowercase",
                "castling written with a lowercase o; SAN writes O-O-O",
            ),
            (PromotionWithoutEquals, "=Q", "san:promotion-without-equals", "promotion without `=`; SAN writes =Q"),
            (PromotionLowercase, "=N", "san:promotion-lowercase", "promotion piece in lowercase; SAN writes =N"),
            (
                PromotionBracketed,
                "=R",
                "san:promotion-bracketed",
                "promotion written with `/` or parentheses; SAN writes =R",
            ),
            (EnPassantSuffix, "", "san:en-passant-suffix", "en passant mark; SAN leaves it out"),
            (DoublePlusMate, "#", "san:double-plus-mate", "checkmate written `++` or `‡`; SAN writes #"),
            (SquareSeparator, "", "san:square-separator", "`-` between the squares; SAN leaves it out"),
            (
                LongAlgebraic,
                "",
                "san:long-algebraic",
                "`-` between the origin and the destination (long algebraic); SAN leaves it out",
            ),
            (ColonCapture, "x", "san:colon-capture", "capture written `:`; SAN writes x"),
            (
                Coordinates,
                "",
                "san:coordinates",
                "squares without a piece letter (coordinate or UCI notation); SAN names the piece, which needs the position",
            ),
            (PawnLetter, "", "san:pawn-letter", "pawn letter; SAN leaves it out"),
            (NullMoveSpelling, "--", "san:null-move-spelling", "null move spelling; SAN writes --"),
            (LowercasePiece, "N", "san:lowercase-piece", "lowercase piece letter; SAN writes N"),
            (Figurine, "N", "san:figurine", "figurine; SAN writes N"),
            (LocalLetters, "N", "san:local-letters", "piece letter of another language; SAN writes N"),
        ];
        for &(kind, canonical, code, message) in cases {
            let lint = SanLint { kind, span: 0..1, canonical: canonical.to_owned() };
            assert_eq!(lint.code(), code);
            assert_eq!(lint.to_string(), message);
            assert!(!kind.strict_expected(canonical).is_empty());
        }
    }

    #[test]
    fn lints_of_each_reading() {
        let parsed = parse_san(b"bc4+", SanOptions::LENIENT).unwrap();
        assert_eq!(parsed.readings.len(), 2);
        assert!(parsed.is_ambiguous());
        assert_eq!(parsed.lints_for(0), []);
        assert_eq!(
            parsed.lints_for(1),
            [SanLint { kind: SanLintKind::LowercasePiece, span: 0..1, canonical: "B".to_owned() }]
        );
        assert_eq!(parsed.lints_for(2), []);
        let parsed = parse_san(b"bc4++", SanOptions::LENIENT).unwrap();
        let kinds: Vec<SanLintKind> = parsed.lints_for(1).iter().map(|l| l.kind).collect();
        assert_eq!(kinds, [SanLintKind::LowercasePiece, SanLintKind::DoublePlusMate]);
    }

    #[test]
    fn error_display() {
        let err = ParseSanError { span: 3..3, found: String::new(), expected: "a rank 1-8".to_owned() };
        assert_eq!(err.to_string(), "invalid move at 3..3: found nothing, expected a rank 1-8");
        let err = ParseSanError { span: 0..1, found: "Z".to_owned(), expected: "x".to_owned() };
        assert_eq!(err.to_string(), "invalid move at 0..1: found \"Z\", expected x");
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_through_text() {
        let san: SanPlus = "exd8=Q+".parse().unwrap();
        let json = serde_json::to_string(&san).unwrap();
        assert_eq!(json, "\"exd8=Q+\"");
        assert_eq!(serde_json::from_str::<SanPlus>(&json).unwrap(), san);
        let squares = San::Squares { from: Square::G1, to: Square::F3, capture: false, promotion: None };
        assert_eq!(serde_json::from_str::<San>(&serde_json::to_string(&squares).unwrap()).unwrap(), squares);
        assert!(serde_json::from_str::<San>("\"Nf3+\"").is_err());
        assert!(serde_json::from_str::<SanPlus>("\"bc4\"").is_err());
        assert_eq!(serde_json::to_string(&Letters::Portuguese).unwrap(), "\"pt\"");
        assert_eq!(serde_json::from_str::<Letters>("\"de\"").unwrap(), Letters::German);
        let parsed = parse_san(b"0-0+", SanOptions::LENIENT).unwrap();
        let json = serde_json::to_string(&parsed).unwrap();
        assert_eq!(
            json,
            r#"{"readings":["O-O+"],"lints":[{"kind":"castling-zeros","span":{"start":0,"end":3},"canonical":"O-O"}]}"#
        );
        assert_eq!(serde_json::from_str::<ParsedSan>(&json).unwrap(), parsed);
        assert_eq!(serde_json::to_string(&Annotation::Speculative).unwrap(), "\"speculative\"");
    }
}
