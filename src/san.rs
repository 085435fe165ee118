//! SAN text: [`San`] and [`SanPlus`] (a move as written, before any position
//! judges it), the lenient and strict parsers ([`parse_san`]), lint findings
//! for every accepted spelling that is not canonical ([`SanLint`]), piece
//! letters of several languages ([`Letters`]), and the canonical writer
//! (`Display`).
//!
//! ```
//! use sanfen::san::{Letters, San, SanLintKind, SanOptions, SanPlus, parse_san};
//! use sanfen::{File, Role, Square};
//!
//! // strict: canonical PGN SAN only
//! let san: SanPlus = "Nbd7+".parse().unwrap();
//! assert_eq!(
//!     san.san,
//!     San::Normal { role: Role::Knight, file: Some(File::B), rank: None, capture: false, to: Square::D7, promotion: None }
//! );
//! assert_eq!(san.to_string(), "Nbd7+");
//! assert!("0-0".parse::<SanPlus>().is_err());
//!
//! // lenient: any common spelling, each non-canonical part reported
//! let parsed = parse_san(b"0-0", SanOptions::default()).unwrap();
//! assert_eq!(parsed.readings[0].to_string(), "O-O");
//! assert_eq!(parsed.lints[0].kind, SanLintKind::CastlingZeros);
//! assert_eq!(parsed.lints[0].span, 0..3);
//!
//! // Portuguese letters: C is the knight (cavalo), R the king (rei)
//! let options = SanOptions { strict: false, letters: Letters::Portuguese };
//! assert_eq!(parse_san(b"Cf3", options).unwrap().readings[0].to_string(), "Nf3");
//! assert_eq!(parse_san(b"Rg1", options).unwrap().readings[0].to_string(), "Kg1");
//! ```

use core::fmt;
use core::ops::Range;
use core::str::FromStr;

use arrayvec::ArrayVec;

use crate::parse;
use crate::{File, Rank, Role, Square};

// ---- Moves as written ----------------------------------------------------------

/// A move as written, without check mark or annotation.
///
/// `Display` writes canonical SAN: `Nf3`, `exd5`, `e8=Q`, `O-O`, `Nbd7`, `R1e2`,
/// `Qh4e1`, `--`. A pawn move is written with its file only when it captures
/// (and a pawn that changes file always captures), never with its rank.
/// [`San::Squares`] has no SAN without a position; it is written as
/// coordinates (`g1f3`, `e2xd3`, `e7e8=Q`), which read back leniently.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move. `file`/`rank`: the origin as far as written
    /// (disambiguation, long algebraic).
    Normal {
        /// The moving piece.
        role: Role,
        /// The origin file, if written.
        file: Option<File>,
        /// The origin rank, if written.
        rank: Option<Rank>,
        /// Whether a capture mark was written.
        capture: bool,
        /// The destination.
        to: Square,
        /// The piece a pawn becomes, if written.
        promotion: Option<Role>,
    },
    /// Origin and destination squares with no piece letter: UCI `g1f3`,
    /// `e7e8q`, coordinate `e2-e4`, `e2xd3`, `e2:d3`. The piece is whatever
    /// stands on `from`.
    Squares {
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
        /// Whether a capture mark was written.
        capture: bool,
        /// The piece a pawn becomes, if written.
        promotion: Option<Role>,
    },
    /// Castling, `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// A null move: `--` (canonical), also `Z0`, `0000`, `null`.
    Null,
}

/// Which way a king castles.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "kebab-case"))]
pub enum CastlingSide {
    /// Towards the h-file: `O-O`.
    KingSide,
    /// Towards the a-file: `O-O-O`.
    QueenSide,
}

impl CastlingSide {
    /// The canonical text, `O-O` or `O-O-O`.
    pub const fn as_str(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "O-O",
            CastlingSide::QueenSide => "O-O-O",
        }
    }
}

/// The mark after a move that gives check.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "kebab-case"))]
pub enum Suffix {
    /// `+`
    Check,
    /// `#`
    Checkmate,
}

impl Suffix {
    /// `+` or `#`.
    pub const fn char(self) -> char {
        match self {
            Suffix::Check => '+',
            Suffix::Checkmate => '#',
        }
    }
}

/// A move annotation (the PGN "suffix annotations", NAGs 1 to 6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "kebab-case"))]
pub enum Annotation {
    /// `!`
    Good,
    /// `?`
    Mistake,
    /// `!!`
    Brilliant,
    /// `??`
    Blunder,
    /// `!?`
    Speculative,
    /// `?!`
    Dubious,
}

impl Annotation {
    /// The text: `!`, `?`, `!!`, `??`, `!?` or `?!`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Annotation::Good => "!",
            Annotation::Mistake => "?",
            Annotation::Brilliant => "!!",
            Annotation::Blunder => "??",
            Annotation::Speculative => "!?",
            Annotation::Dubious => "?!",
        }
    }

    /// The PGN numeric annotation glyph, 1 to 6.
    pub const fn nag(self) -> u8 {
        match self {
            Annotation::Good => 1,
            Annotation::Mistake => 2,
            Annotation::Brilliant => 3,
            Annotation::Blunder => 4,
            Annotation::Speculative => 5,
            Annotation::Dubious => 6,
        }
    }

    /// One word: `good`, `mistake`, `brilliant`, `blunder`, `speculative`, `dubious`.
    pub const fn name(self) -> &'static str {
        match self {
            Annotation::Good => "good",
            Annotation::Mistake => "mistake",
            Annotation::Brilliant => "brilliant",
            Annotation::Blunder => "blunder",
            Annotation::Speculative => "speculative",
            Annotation::Dubious => "dubious",
        }
    }
}

/// A move with what may follow it: check mark, annotation, en passant mark.
///
/// `Display` writes canonical SAN: the move, `+` or `#`, the annotation (no
/// en passant mark: SAN writes en passant captures like any pawn capture).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// `+` or `#`, if written.
    pub suffix: Option<Suffix>,
    /// `!`, `?`, ..., if written.
    pub annotation: Option<Annotation>,
    /// Whether `e.p.` or `ep` was written after the move.
    pub en_passant_mark: bool,
}

impl SanPlus {
    /// The move alone, with nothing after it.
    pub const fn new(san: San) -> SanPlus {
        SanPlus { san, suffix: None, annotation: None, en_passant_mark: false }
    }

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

    /// Appends the canonical text (as `Display` writes it) to `out`, without
    /// going through the formatting machinery.
    pub fn append_ascii(&self, out: &mut Vec<u8>) {
        let (bytes, len) = san_plus_text(self);
        out.extend_from_slice(&bytes[..len]);
    }

    /// Writes the canonical text (as `Display` writes it) at the start of
    /// `out` and returns its length, at most 11 (the rest of `out` may be
    /// overwritten). For writers of large outputs: `out` can be a window of
    /// the output buffer itself, written without a branch per byte.
    #[inline]
    pub fn write_ascii(&self, out: &mut [u8; 16]) -> usize {
        let mut writer = Writer { out, len: 0 };
        writer.san_plus(self);
        writer.len
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

    /// Appends the canonical text (as `Display` writes it) to `out`.
    pub fn append_ascii(&self, out: &mut Vec<u8>) {
        let (bytes, len) = san_text(self);
        out.extend_from_slice(&bytes[..len]);
    }

    /// The moving piece, where written: the role of a normal move, the king
    /// for castling; `None` for squares and the null move.
    pub const fn role(&self) -> Option<Role> {
        match *self {
            San::Normal { role, .. } => Some(role),
            San::Castle(_) => Some(Role::King),
            San::Squares { .. } | San::Null => None,
        }
    }

    /// The promotion piece, if written.
    pub const fn promotion(&self) -> Option<Role> {
        match *self {
            San::Normal { promotion, .. } | San::Squares { promotion, .. } => promotion,
            San::Castle(_) | San::Null => None,
        }
    }
}

/// Writes canonical text into a fixed 16-byte window (the longest text is
/// `Qa1xh8=Q#!!`, 11 bytes). Branch-free where it can be: every byte is
/// stored and the length advances only if it belongs to the text, so the
/// next byte overwrites one that does not. The window is usually the
/// caller's output buffer: bytes stored one by one and then read back as a
/// whole from a scratch array would stall the processor (store forwarding).
struct Writer<'a> {
    out: &'a mut [u8; 16],
    len: usize,
}

impl Writer<'_> {
    #[inline(always)]
    fn put(&mut self, byte: u8, present: bool) {
        // the mask keeps the index in range without a check (len <= 11)
        self.out[self.len & 15] = byte;
        self.len += usize::from(present);
    }

    #[inline(always)]
    fn square(&mut self, square: Square) {
        self.put(square.file().char() as u8, true);
        self.put(square.rank().char() as u8, true);
    }

    #[inline(always)]
    fn promotion(&mut self, promotion: Option<Role>) {
        let letter = promotion.map_or(b'=', |role| role.upper_char() as u8);
        self.put(b'=', promotion.is_some());
        self.put(letter, promotion.is_some());
    }

    fn text(&mut self, text: &str) {
        for &byte in text.as_bytes() {
            self.put(byte, true);
        }
    }

    #[inline(always)]
    fn san(&mut self, san: &San) {
        match *san {
            San::Normal { role, file, rank, capture, to, promotion } => {
                // a pawn has no letter, never its rank, and its file only when
                // it captures (a pawn that changes file captures)
                let pawn = role == Role::Pawn;
                let file_char = file.map_or(b'a', |file| file.char() as u8);
                let pawn_capture = capture | (file.is_some() & (file_char != to.file().char() as u8));
                self.put(role.upper_char() as u8, !pawn);
                self.put(file_char, file.is_some() & (!pawn | pawn_capture));
                self.put(rank.map_or(b'1', |rank| rank.char() as u8), rank.is_some() & !pawn);
                self.put(b'x', (pawn & pawn_capture) | (!pawn & capture));
                self.square(to);
                self.promotion(promotion);
            }
            San::Squares { from, to, capture, promotion } => {
                self.square(from);
                self.put(b'x', capture);
                self.square(to);
                self.promotion(promotion);
            }
            San::Castle(side) => self.text(side.as_str()),
            San::Null => self.text("--"),
        }
    }

    #[inline(always)]
    fn san_plus(&mut self, san_plus: &SanPlus) {
        self.san(&san_plus.san);
        self.put(san_plus.suffix.map_or(b'+', |suffix| suffix.char() as u8), san_plus.suffix.is_some());
        let annotation = san_plus.annotation.map_or(&b"!!"[..], |annotation| annotation.as_str().as_bytes());
        let present = san_plus.annotation.is_some();
        self.put(annotation[0], present);
        self.put(annotation[annotation.len() - 1], present & (annotation.len() == 2));
    }
}

/// The canonical text of a move, in a scratch array: its bytes and length.
pub(crate) fn san_text(san: &San) -> ([u8; 16], usize) {
    let mut out = [0; 16];
    let mut writer = Writer { out: &mut out, len: 0 };
    writer.san(san);
    let len = writer.len;
    (out, len)
}

/// The canonical text of a move with its suffixes, in a scratch array.
fn san_plus_text(san_plus: &SanPlus) -> ([u8; 16], usize) {
    let mut out = [0; 16];
    let mut writer = Writer { out: &mut out, len: 0 };
    writer.san_plus(san_plus);
    let len = writer.len;
    (out, len)
}

/// Writes ASCII text made by [`Writer`].
fn write_text(f: &mut fmt::Formatter<'_>, (bytes, len): ([u8; 16], usize)) -> fmt::Result {
    f.write_str(core::str::from_utf8(&bytes[..len]).unwrap_or_default())
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_text(f, san_text(self))
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_text(f, san_plus_text(self))
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
    pub(crate) const fn own(self) -> [u8; 5] {
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
        if let Some((role, _)) = parse::san::figurine_role(c) {
            return Some(role);
        }
        let byte = u8::try_from(c).ok().filter(u8::is_ascii_uppercase)?;
        self.table().upper[usize::from(byte)]
    }

    /// The reading table of this language.
    pub(crate) const fn table(self) -> &'static parse::san::LetterTable {
        &parse::san::TABLES[self as usize]
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

// ---- Lint findings -------------------------------------------------------------------

/// A spelling accepted in lenient mode that canonical SAN writes otherwise.
///
/// Each finding is about one part of the token (the castling, the piece letter,
/// the promotion, ...), and each part has at most one finding.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, strum::EnumIter)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "kebab-case"))]
pub enum SanLintKind {
    /// Castling with zeros: `0-0`, `0-0-0`.
    CastlingZeros,
    /// Castling with a lowercase o: `o-o`, `o-o-o`.
    CastlingLowercase,
    /// Castling with a typographic dash instead of the hyphen-minus `-`
    /// (`O–O`: the hyphen U+2010, non-breaking hyphen U+2011, figure dash
    /// U+2012, en dash U+2013, em dash U+2014 or minus sign U+2212), whatever
    /// its letter (`0—0` too).
    CastlingDash,
    /// A promotion without `=`: `e8Q`, `e8q`.
    PromotionWithoutEquals,
    /// A promotion piece in lowercase: `e8=q`.
    PromotionLowercase,
    /// A promotion with `/` or in parentheses: `e8/Q`, `e8(Q)`.
    PromotionBracketed,
    /// An en passant mark: `exd6 e.p.`, `exd6e.p.`, `exd6ep`.
    EnPassantSuffix,
    /// Checkmate written `++` or `‡`.
    DoublePlusMate,
    /// `-` between the squares of a coordinate move: `e2-e4`.
    SquareSeparator,
    /// `-` between the origin and destination of a move with a piece letter:
    /// `Ng1-f3` (`Ng1f3` itself is canonical SAN where two knights can reach
    /// f3; whether the origin was needed is for the resolver to say).
    LongAlgebraic,
    /// A capture written `:`: `e:d5`, `Ng1:f3`, `e2:d3`.
    ColonCapture,
    /// Squares without a piece letter: `g1f3`, `e7e8q` (UCI), `e2-e4`, `e2xd3`.
    /// The canonical spelling depends on the position (`canonical` is empty).
    Coordinates,
    /// A pawn letter: `Pe4`, `Pe2e4`.
    PawnLetter,
    /// A null move written `Z0`, `0000` or `null`.
    NullMoveSpelling,
    /// A lowercase piece letter: `nf3`.
    LowercasePiece,
    /// A figurine for a piece: `♘f3`, `e8=♕`.
    Figurine,
    /// A piece letter of the chosen language where English writes another:
    /// `Cf3` (Portuguese) for `Nf3`.
    LocalLetters,
}

impl SanLintKind {
    /// A stable identifier: `san:` and a kebab-case name.
    pub const fn code(self) -> &'static str {
        match self {
            SanLintKind::CastlingZeros => "san:castling-zeros",
            SanLintKind::CastlingLowercase => "san:castling-lowercase",
            SanLintKind::CastlingDash => "san:castling-dash",
            SanLintKind::PromotionWithoutEquals => "san:promotion-without-equals",
            SanLintKind::PromotionLowercase => "san:promotion-lowercase",
            SanLintKind::PromotionBracketed => "san:promotion-bracketed",
            SanLintKind::EnPassantSuffix => "san:en-passant-suffix",
            SanLintKind::DoublePlusMate => "san:double-plus-mate",
            SanLintKind::SquareSeparator => "san:square-separator",
            SanLintKind::LongAlgebraic => "san:long-algebraic",
            SanLintKind::ColonCapture => "san:colon-capture",
            SanLintKind::Coordinates => "san:coordinates",
            SanLintKind::PawnLetter => "san:pawn-letter",
            SanLintKind::NullMoveSpelling => "san:null-move-spelling",
            SanLintKind::LowercasePiece => "san:lowercase-piece",
            SanLintKind::Figurine => "san:figurine",
            SanLintKind::LocalLetters => "san:local-letters",
        }
    }

    /// What the part is, in words.
    pub(crate) const fn description(self) -> &'static str {
        match self {
            SanLintKind::CastlingZeros => "castling written with zeros",
            SanLintKind::CastlingLowercase => "castling written with a lowercase o",
            SanLintKind::CastlingDash => "castling written with a dash other than `-`",
            SanLintKind::PromotionWithoutEquals => "promotion without `=`",
            SanLintKind::PromotionLowercase => "promotion piece in lowercase",
            SanLintKind::PromotionBracketed => "promotion written with `/` or parentheses",
            SanLintKind::EnPassantSuffix => "en passant mark",
            SanLintKind::DoublePlusMate => "checkmate written `++` or `‡`",
            SanLintKind::SquareSeparator => "`-` between the squares",
            SanLintKind::LongAlgebraic => "`-` between the origin and the destination (long algebraic)",
            SanLintKind::ColonCapture => "capture written `:`",
            SanLintKind::Coordinates => "squares without a piece letter (coordinate or UCI notation)",
            SanLintKind::PawnLetter => "pawn letter",
            SanLintKind::NullMoveSpelling => "null move spelling",
            SanLintKind::LowercasePiece => "lowercase piece letter",
            SanLintKind::Figurine => "figurine",
            SanLintKind::LocalLetters => "piece letter of another language",
        }
    }

    /// What strict SAN wants instead of the part, given its canonical spelling.
    pub(crate) fn strict_expected(self, canonical: &str) -> String {
        match self {
            SanLintKind::CastlingZeros | SanLintKind::CastlingLowercase => {
                format!("`{canonical}` (strict SAN writes castling with the capital letter O)")
            }
            SanLintKind::CastlingDash => {
                format!("`{canonical}` (strict SAN writes castling with the capital letter O and the hyphen `-`)")
            }
            SanLintKind::PromotionWithoutEquals | SanLintKind::PromotionLowercase | SanLintKind::PromotionBracketed => {
                format!("`{canonical}` (strict SAN writes a promotion as `=` and a capital letter)")
            }
            SanLintKind::EnPassantSuffix => {
                "the end of the move (strict SAN writes an en passant capture without a mark)".to_owned()
            }
            SanLintKind::DoublePlusMate => "`#` for checkmate".to_owned(),
            SanLintKind::SquareSeparator | SanLintKind::LongAlgebraic => {
                "the destination square right after the origin (strict SAN writes no `-`)".to_owned()
            }
            SanLintKind::ColonCapture => "`x` for a capture".to_owned(),
            SanLintKind::Coordinates => {
                "a piece letter or a pawn move such as e4 (strict SAN has no coordinate notation)".to_owned()
            }
            SanLintKind::PawnLetter => "a pawn move without a letter, such as e4".to_owned(),
            SanLintKind::NullMoveSpelling => "`--` for a null move".to_owned(),
            SanLintKind::LowercasePiece => format!("`{canonical}` (strict SAN writes capital piece letters)"),
            SanLintKind::Figurine if canonical.is_empty() => "a pawn move without a figurine, such as e4".to_owned(),
            SanLintKind::Figurine => format!("`{canonical}` (strict SAN writes letters, not figurines)"),
            SanLintKind::LocalLetters => format!("`{canonical}` (strict SAN writes English letters)"),
        }
    }
}

/// A lint finding, located: the part of the input that is not canonical SAN,
/// and its canonical spelling.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SanLint {
    /// What is not canonical.
    pub kind: SanLintKind,
    /// Byte offsets in the input, end exclusive.
    pub span: Range<usize>,
    /// The canonical spelling of the offending part (`O-O`, `=Q`, `N`, `x`,
    /// `#`, `--`); empty when canonical SAN leaves the part out (an en passant
    /// mark, a pawn letter, `-` between squares) or when it depends on the
    /// position ([`SanLintKind::Coordinates`]).
    pub canonical: String,
}

impl SanLint {
    /// A stable identifier, `san:` and a kebab-case name.
    pub const fn code(&self) -> &'static str {
        self.kind.code()
    }
}

impl fmt::Display for SanLint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.description())?;
        match self.kind {
            SanLintKind::Coordinates => f.write_str("; SAN names the piece, which needs the position"),
            _ if self.canonical.is_empty() => f.write_str("; SAN leaves it out"),
            _ => write!(f, "; SAN writes {}", self.canonical),
        }
    }
}

// ---- Errors -------------------------------------------------------------------------------

/// The text is not a move: where, what was found there, and what would be
/// right. The first problem only.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ParseSanError {
    /// Byte offsets in the input, end exclusive; empty (`n..n`) for something
    /// missing at `n`.
    pub span: Range<usize>,
    /// The offending text (empty when something is missing).
    pub found: String,
    /// What would be right there, in words.
    pub expected: String,
}

impl fmt::Display for ParseSanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid move at {}..{}: found ", self.span.start, self.span.end)?;
        if self.found.is_empty() {
            f.write_str("nothing")?;
        } else {
            write!(f, "{:?}", self.found)?;
        }
        write!(f, ", expected {}", self.expected)
    }
}

impl std::error::Error for ParseSanError {}

// ---- Parsing --------------------------------------------------------------------------------

/// How to read SAN.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SanOptions {
    /// Accept only canonical PGN SAN (English letters, whatever `letters` says).
    pub strict: bool,
    /// The piece letters of lenient reading.
    pub letters: Letters,
}

impl SanOptions {
    /// Lenient, English letters (the default).
    pub const LENIENT: SanOptions = SanOptions { strict: false, letters: Letters::English };
    /// Strict: canonical PGN SAN only.
    pub const STRICT: SanOptions = SanOptions { strict: true, letters: Letters::English };
}

/// What a token says: one reading, or two for a lowercase letter that is both
/// a file and a piece (`bc4`: the b-pawn to c4, then the bishop to c4), and the
/// lint findings.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParsedSan {
    /// One or two readings; with two, the pawn (or coordinate) reading first.
    pub readings: ArrayVec<SanPlus, 2>,
    /// Lint findings of the first reading, in input order. The second reading
    /// has these and one more, at the lowercase letter: see
    /// [`ParsedSan::lints_for`]. Empty (and unallocated) for canonical SAN.
    pub lints: Vec<SanLint>,
}

impl ParsedSan {
    /// One reading, no lint.
    pub(crate) fn one(san: SanPlus) -> ParsedSan {
        let mut readings = ArrayVec::new();
        readings.push(san);
        ParsedSan { readings, lints: Vec::new() }
    }

    /// The first reading.
    pub fn first(&self) -> &SanPlus {
        &self.readings[0]
    }

    /// Whether the token had two readings.
    pub fn is_ambiguous(&self) -> bool {
        self.readings.len() > 1
    }

    /// The lint findings of reading `index`, in input order: [`lints`](Self::lints)
    /// for the first; for the second (the piece reading of a lowercase
    /// letter), also [`SanLintKind::LowercasePiece`] at byte 0. Empty for an
    /// index with no reading.
    pub fn lints_for(&self, index: usize) -> Vec<SanLint> {
        match (index, self.readings.get(index)) {
            (0, Some(_)) => self.lints.clone(),
            (_, Some(SanPlus { san: San::Normal { role, .. }, .. })) => {
                let mut lints = Vec::with_capacity(self.lints.len() + 1);
                lints.push(SanLint {
                    kind: SanLintKind::LowercasePiece,
                    span: 0..1,
                    canonical: role.upper_char().to_string(),
                });
                lints.extend(self.lints.iter().cloned());
                lints
            }
            _ => Vec::new(),
        }
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
    if let Some(san) = parse::san::canonical(text, letters.table()) {
        return Ok(ParsedSan::one(san));
    }
    if options.strict { Err(parse::san::strict_error(text)) } else { parse::san::lenient(text, letters.table()) }
}

/// Whether the bytes are in the lenient SAN grammar with English letters (the
/// nom parser alone, without the fast path); for the grammar cross-check test.
#[doc(hidden)]
pub use crate::parse::san::syntax_ok as __syntax_ok;

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
#[inline]
pub fn parse_canonical(text: &[u8], letters: Letters) -> Option<SanPlus> {
    parse::san::canonical(text, letters.table())
}

/// The nom parser alone (no fast path), leniently; for the tests.
///
/// # Errors
///
/// As [`parse_san`].
#[doc(hidden)]
pub fn __lenient_nom(text: &[u8], letters: Letters) -> Result<ParsedSan, ParseSanError> {
    parse::san::lenient(text, letters.table())
}

// ---- serde ------------------------------------------------------------------------------------

#[cfg(feature = "serde")]
mod serde_impls {
    use serde::Deserialize;

    use super::*;

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
            if plain.readings.is_empty() || plain.readings.len() > 2 {
                return Err(serde::de::Error::custom("one or two readings"));
            }
            Ok(ParsedSan { readings: plain.readings.into_iter().collect(), lints: plain.lints })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
