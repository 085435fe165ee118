//! Piece letters of several languages: [`Letters`], and the tables the
//! parser reads them with.

use core::fmt;
use core::str::FromStr;

use crate::Role;

// ---- Letters -------------------------------------------------------------------------

/// The piece letters a text is written in.
///
/// | language | king | queen | rook | bishop | knight |
/// | --- | --- | --- | --- | --- | --- |
/// | English | K | Q | R | B | N |
/// | Portuguese | R (rei) | D (dama) | T (torre) | B (bispo) | C (cavalo) |
/// | Spanish | R (rey) | D (dama) | T (torre) | A (alfil) | C (caballo) |
/// | French | R (roi) | D (dame) | T (tour) | F (fou) | C (cavalier) |
/// | German | K (König) | D (Dame) | T (Turm) | L (Läufer) | S (Springer) |
/// | Italian | R (re) | D (donna) | T (torre) | A (alfiere) | C (cavallo) |
/// | Dutch | K (koning) | D (dame) | T (toren) | L (loper) | P (paard) |
///
/// Reading in a language, an uppercase letter means what it means in that
/// language; an English letter the language does not use keeps its English
/// meaning (so `Nf3` is read in every language, but in Portuguese `R` is the
/// king, never the rook). `P` is the pawn letter (long algebraic `Pe2e4`)
/// except in Dutch, where it is the knight. Figurines mean the same in every
/// language. Canonical SAN is always written in English.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Letters {
    /// K Q R B N.
    #[default]
    English,
    /// R D T B C.
    Portuguese,
    /// R D T A C.
    Spanish,
    /// R D T F C.
    French,
    /// K D T L S.
    German,
    /// R D T A C.
    Italian,
    /// K D T L P.
    Dutch,
}

impl Letters {
    /// Every language, English first.
    pub const ALL: [Letters; 7] = [
        Letters::English,
        Letters::Portuguese,
        Letters::Spanish,
        Letters::French,
        Letters::German,
        Letters::Italian,
        Letters::Dutch,
    ];

    /// The language of a name: the ISO 639-1 code (`en`, `pt`, `es`, `fr`,
    /// `de`, `it`, `nl`) or the English or native name, in any case.
    pub fn from_name(name: &str) -> Option<Letters> {
        let name = name.to_lowercase();
        Some(match name.as_str() {
            "en" | "english" => Letters::English,
            "pt" | "portuguese" | "português" | "portugues" => Letters::Portuguese,
            "es" | "spanish" | "español" | "espanol" => Letters::Spanish,
            "fr" | "french" | "français" | "francais" => Letters::French,
            "de" | "german" | "deutsch" => Letters::German,
            "it" | "italian" | "italiano" => Letters::Italian,
            "nl" | "dutch" | "nederlands" => Letters::Dutch,
            _ => return None,
        })
    }

    /// The ISO 639-1 code: `en`, `pt`, `es`, `fr`, `de`, `it`, `nl`.
    pub const fn code(self) -> &'static str {
        match self {
            Letters::English => "en",
            Letters::Portuguese => "pt",
            Letters::Spanish => "es",
            Letters::French => "fr",
            Letters::German => "de",
            Letters::Italian => "it",
            Letters::Dutch => "nl",
        }
    }

    /// The English name of the language.
    pub const fn name(self) -> &'static str {
        match self {
            Letters::English => "English",
            Letters::Portuguese => "Portuguese",
            Letters::Spanish => "Spanish",
            Letters::French => "French",
            Letters::German => "German",
            Letters::Italian => "Italian",
            Letters::Dutch => "Dutch",
        }
    }

    /// The letters of king, queen, rook, bishop and knight, in that order.
    const fn own(self) -> [u8; 5] {
        match self {
            Letters::English => *b"KQRBN",
            Letters::Portuguese => *b"RDTBC",
            Letters::Spanish | Letters::Italian => *b"RDTAC",
            Letters::French => *b"RDTFC",
            Letters::German => *b"KDTLS",
            Letters::Dutch => *b"KDTLP",
        }
    }

    /// The uppercase letter of a role in this language. Pawns have no letter
    /// in SAN; for [`Role::Pawn`] this is `P`, the letter of long algebraic
    /// notation, which Dutch reads as the knight.
    pub const fn letter(self, role: Role) -> char {
        let own = self.own();
        (match role {
            Role::King => own[0],
            Role::Queen => own[1],
            Role::Rook => own[2],
            Role::Bishop => own[3],
            Role::Knight => own[4],
            Role::Pawn => b'P',
        }) as char
    }

    /// The role an uppercase letter or a figurine names when reading in this
    /// language (see the table above: the language's letters, English letters
    /// it does not use, `P` for the pawn except in Dutch).
    pub fn role_of(self, c: char) -> Option<Role> {
        if let Some((role, _)) = figurine_role(c) {
            return Some(role);
        }
        let byte = u8::try_from(c).ok().filter(u8::is_ascii_uppercase)?;
        self.table().upper[usize::from(byte)]
    }

    /// The reading table of this language.
    pub(super) const fn table(self) -> &'static LetterTable {
        &TABLES[self as usize]
    }
}

impl fmt::Display for Letters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The text names no language sanfen knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseLettersError;

impl fmt::Display for ParseLettersError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown piece-letter language: expected en, pt, es, fr, de, it or nl")
    }
}

impl std::error::Error for ParseLettersError {}

impl FromStr for Letters {
    type Err = ParseLettersError;

    /// [`Letters::from_name`].
    fn from_str(s: &str) -> Result<Letters, ParseLettersError> {
        Letters::from_name(s).ok_or(ParseLettersError)
    }
}

// ---- Reading tables --------------------------------------------------------------

/// How one language's letters read (see [`Letters`] and the grammar's table).
#[derive(Debug)]
pub(super) struct LetterTable {
    /// The role of each uppercase ASCII letter: the language's own letters,
    /// English letters it does not use, `P` for the pawn unless taken.
    pub(super) upper: [Option<Role>; 256],
    /// Whether an uppercase letter is the language's own and English writes
    /// that role with another letter (lint [`SanLintKind::LocalLetters`](super::error::SanLintKind::LocalLetters)).
    pub(super) local: [bool; 256],
    /// For the fast path: the uppercase English piece letters that this
    /// language reads as in English, without a lint.
    pub(super) canonical: [Option<Role>; 256],
    /// The piece letters, for messages: `K, Q, R, B or N`.
    pub(super) pieces: &'static str,
    /// The promotion letters, for messages: `Q, R, B or N`.
    pub(super) promotions: &'static str,
}

const ROLES: [Role; 5] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
const ENGLISH: [u8; 5] = *b"KQRBN";

const fn letter_table(letters: Letters) -> LetterTable {
    let own = letters.own();
    let mut upper = [None; 256];
    let mut local = [false; 256];
    let mut canonical = [None; 256];
    let mut i = 0;
    while i < 5 {
        upper[own[i] as usize] = Some(ROLES[i]);
        local[own[i] as usize] = own[i] != ENGLISH[i];
        i += 1;
    }
    let mut i = 0;
    while i < 5 {
        let english = ENGLISH[i] as usize;
        if upper[english].is_none() {
            upper[english] = Some(ROLES[i]);
        }
        if let Some(role) = upper[english]
            && role as u8 == ROLES[i] as u8
            && !local[english]
        {
            canonical[english] = Some(role);
        }
        i += 1;
    }
    if upper[b'P' as usize].is_none() {
        upper[b'P' as usize] = Some(Role::Pawn);
    }
    let (pieces, promotions) = match letters {
        Letters::English => ("K, Q, R, B or N", "Q, R, B or N"),
        Letters::Portuguese => ("R, D, T, B or C", "D, T, B or C"),
        Letters::Spanish | Letters::Italian => ("R, D, T, A or C", "D, T, A or C"),
        Letters::French => ("R, D, T, F or C", "D, T, F or C"),
        Letters::German => ("K, D, T, L or S", "D, T, L or S"),
        Letters::Dutch => ("K, D, T, L or P", "D, T, L or P"),
    };
    LetterTable { upper, local, canonical, pieces, promotions }
}

/// The tables of [`Letters::ALL`], in that order.
pub(super) static TABLES: [LetterTable; 7] = [
    letter_table(Letters::English),
    letter_table(Letters::Portuguese),
    letter_table(Letters::Spanish),
    letter_table(Letters::French),
    letter_table(Letters::German),
    letter_table(Letters::Italian),
    letter_table(Letters::Dutch),
];

impl LetterTable {
    /// The role of an ASCII letter in either case, and whether it is a local letter.
    pub(super) fn letter(&self, byte: u8) -> Option<(Role, bool)> {
        let upper = byte.to_ascii_uppercase();
        self.upper[usize::from(upper)].map(|role| (role, self.local[usize::from(upper)]))
    }
}

/// The role of a figurine character, and its colour as `true` for White.
pub(super) fn figurine_role(c: char) -> Option<(Role, bool)> {
    const ROLES: [Role; 6] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];
    let index = u32::from(c).checked_sub(0x2654).filter(|&i| i < 12)?;
    Some((ROLES[index as usize % 6], index < 6))
}
