//! The values of SAN: [`San`] and [`SanPlus`] (a move as written, before any
//! position judges it), their parts, and [`ParsedSan`], what a token says.

use core::ops::Deref;

use arrayvec::ArrayVec;

use super::error::{SanLint, SanLintKind};
use super::letters::Letters;
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
}

impl San {
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

/// The one or two readings of a token ([`ParsedSan::readings`]), in order:
/// a slice of [`SanPlus`] (`Deref<Target = [SanPlus]>`), held on the stack.
///
/// ```
/// use sanfen::san::{SanOptions, parse_san};
///
/// let readings = parse_san(b"bc4", SanOptions::LENIENT).unwrap().readings;
/// assert_eq!(readings.len(), 2);
/// assert_eq!(readings[1].to_string(), "Bc4");
/// let texts: Vec<String> = readings.iter().map(ToString::to_string).collect();
/// assert_eq!(texts, ["bxc4", "Bc4"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Readings(ArrayVec<SanPlus, 2>);

impl Readings {
    /// One reading.
    pub(crate) fn one(san: SanPlus) -> Readings {
        let mut readings = ArrayVec::new();
        readings.push(san);
        Readings(readings)
    }

    /// The two readings, `first` first.
    pub(crate) fn two(first: SanPlus, second: SanPlus) -> Readings {
        Readings(ArrayVec::from([first, second]))
    }

    /// The readings, as a slice.
    pub fn as_slice(&self) -> &[SanPlus] {
        &self.0
    }
}

impl Deref for Readings {
    type Target = [SanPlus];

    #[inline]
    fn deref(&self) -> &[SanPlus] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a Readings {
    type Item = &'a SanPlus;
    type IntoIter = core::slice::Iter<'a, SanPlus>;

    fn into_iter(self) -> core::slice::Iter<'a, SanPlus> {
        self.0.iter()
    }
}

/// What a token says: one reading, or two for a lowercase letter that is both
/// a file and a piece (`bc4`: the b-pawn to c4, then the bishop to c4), and the
/// lint findings.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParsedSan {
    /// One or two readings; with two, the pawn (or coordinate) reading first.
    pub readings: Readings,
    /// Lint findings of the first reading, in input order. The second reading
    /// has these and one more, at the lowercase letter: see
    /// [`ParsedSan::lints_for`]. Empty (and unallocated) for canonical SAN.
    pub lints: Vec<SanLint>,
}

impl ParsedSan {
    /// One reading, no lint.
    pub(crate) fn one(san: SanPlus) -> ParsedSan {
        ParsedSan { readings: Readings::one(san), lints: Vec::new() }
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
