//! The SAN grammar (`grammar/san.ebnf`) as nom parsers; [`canonical`], the
//! fast path for canonical SAN; and the diagnosis of what is wrong with a
//! token that is not a move.
//!
//! Each grammar rule is one method of [`Grammar`] with the same name and the
//! rule copied above it. `move` is not one function: its alternatives are
//! tried one by one, each followed by the rest of `san_plus` to the end of
//! the token (so an alternative that reads a prefix cannot hide a later one
//! that reads the whole token), and the readings are chosen as the grammar's
//! header says.
//!
//! Errors. Every terminal that fails records, in [`Grammar`], the position
//! and what it expected there; the furthest position wins, and expectations
//! at the same position add up. When no alternative reads the token, that
//! furthest failure is the error: `Nf9` fails at byte 2 where a rank
//! (`Nf3`), a file (`Nfd7`) or `x` (`Nfxd7`) could come. nom's own errors
//! carry nothing ([`Fail`]): which is why `context`/`cut` are not used here.
//!
//! The fast path recognises exactly `strict_san_plus` (canonical SAN) with a
//! few byte comparisons and no allocation; everything else, and every error,
//! goes through the grammar. Tests check that both agree.

use core::cell::Cell;
use core::ops::Range;

use arrayvec::ArrayVec;
use nom::branch::alt;
use nom::combinator::{map, opt};
use nom::{IResult, Parser};

use super::error::{ParseSanError, SanLint, SanLintKind};
use super::letters::{LetterTable, Letters, figurine_role};
use super::types::{Annotation, CastlingSide, ParsedSan, Readings, San, SanPlus, Suffix};
use crate::{File, Rank, Role, Square};

/// The figurine at the start of `input` (three bytes of UTF-8), if any.
fn figurine_at(input: &[u8]) -> Option<Role> {
    match *input {
        // U+2654 to U+265F: E2 99 94 to E2 99 9F
        [0xE2, 0x99, low @ 0x94..=0x9F, ..] => {
            figurine_role(char::from_u32(0x2640 + u32::from(low & 0x3F))?).map(|(role, _)| role)
        }
        _ => None,
    }
}

/// The English letter of a piece, as text (empty for the pawn).
const fn english(role: Role) -> &'static str {
    match role {
        Role::Pawn => "",
        Role::Knight => "N",
        Role::Bishop => "B",
        Role::Rook => "R",
        Role::Queen => "Q",
        Role::King => "K",
    }
}

/// The canonical promotion text of a piece.
const fn promotion_text(role: Role) -> &'static str {
    match role {
        Role::Knight => "=N",
        Role::Bishop => "=B",
        Role::Rook => "=R",
        Role::Queen => "=Q",
        Role::King => "=K",
        Role::Pawn => "=P",
    }
}

// ---- The fast path -----------------------------------------------------------------------

/// Canonical SAN (`strict_san_plus`, with the letters `table` reads as English
/// without a lint), recognised by its length and a few comparisons; `None`
/// for anything else, including canonical SAN that `table` reads otherwise.
///
/// The annotation and the check mark are taken from the end; what is left is
/// the move, matched as a whole against each shape of `strict_move`.
// Inlined into its caller so the result stays in registers: returned through
// memory, it is stored field by field and loaded whole, which stalls.
#[inline(always)]
pub(super) fn canonical(text: &[u8], table: &LetterTable) -> Option<SanPlus> {
    let (text, annotation) = match *text {
        // most tokens end with a rank: one comparison for them
        [.., last] if last != b'!' && last != b'?' => (text, None),
        [ref rest @ .., b'!', b'!'] => (rest, Some(Annotation::Brilliant)),
        [ref rest @ .., b'?', b'?'] => (rest, Some(Annotation::Blunder)),
        [ref rest @ .., b'!', b'?'] => (rest, Some(Annotation::Speculative)),
        [ref rest @ .., b'?', b'!'] => (rest, Some(Annotation::Dubious)),
        [ref rest @ .., b'!'] => (rest, Some(Annotation::Good)),
        [ref rest @ .., b'?'] => (rest, Some(Annotation::Mistake)),
        _ => (text, None),
    };
    let (text, suffix) = match *text {
        [ref rest @ .., b'+'] => (rest, Some(Suffix::Check)),
        [ref rest @ .., b'#'] => (rest, Some(Suffix::Checkmate)),
        _ => (text, None),
    };
    let san = match *text {
        [first @ b'a'..=b'h', ref rest @ ..] => canonical_pawn(first, rest, table)?,
        [letter, ref rest @ ..] if letter.is_ascii_uppercase() => match *rest {
            [b'-', b'O'] if letter == b'O' => San::Castle(CastlingSide::KingSide),
            [b'-', b'O', b'-', b'O'] if letter == b'O' => San::Castle(CastlingSide::QueenSide),
            _ => canonical_piece(table.canonical[usize::from(letter)]?, rest)?,
        },
        [b'-', b'-'] => San::Null,
        _ => return None,
    };
    Some(SanPlus { san, suffix, annotation, en_passant_mark: false })
}

/// After the pawn's file: `[1-8]` or `x[a-h][1-8]`, then perhaps `=` and a
/// promotion letter.
#[inline(always)]
fn canonical_pawn(file: u8, rest: &[u8], table: &LetterTable) -> Option<San> {
    let (rest, promotion) = match *rest {
        [ref rest @ .., b'=', letter] => {
            (rest, Some(table.canonical[usize::from(letter)].filter(|&role| role != Role::King)?))
        }
        _ => (rest, None),
    };
    let (file, capture, to) = match *rest {
        [rank] => (None, false, square_of(file, rank)?),
        [b'x', to_file, to_rank] => (Some(file_of(file)?), true, square_of(to_file, to_rank)?),
        _ => return None,
    };
    Some(San::Normal { role: Role::Pawn, file, rank: None, capture, to, promotion })
}

/// After the piece letter: `[a-h]? [1-8]? x? [a-h][1-8]`.
#[inline(always)]
fn canonical_piece(role: Role, rest: &[u8]) -> Option<San> {
    let (file, rank, capture, to) = match *rest {
        [to_file, to_rank] => (None, None, false, square_of(to_file, to_rank)?),
        [b'x', to_file, to_rank] => (None, None, true, square_of(to_file, to_rank)?),
        [from, to_file, to_rank] => {
            let (file, rank) = file_or_rank(from)?;
            (file, rank, false, square_of(to_file, to_rank)?)
        }
        [from, b'x', to_file, to_rank] => {
            let (file, rank) = file_or_rank(from)?;
            (file, rank, true, square_of(to_file, to_rank)?)
        }
        [from_file, from_rank, to_file, to_rank] => {
            (Some(file_of(from_file)?), Some(rank_of(from_rank)?), false, square_of(to_file, to_rank)?)
        }
        [from_file, from_rank, b'x', to_file, to_rank] => {
            (Some(file_of(from_file)?), Some(rank_of(from_rank)?), true, square_of(to_file, to_rank)?)
        }
        _ => return None,
    };
    Some(San::Normal { role, file, rank, capture, to, promotion: None })
}

/// A file or a rank, as the one-byte disambiguation of a piece move.
#[inline]
fn file_or_rank(byte: u8) -> Option<(Option<File>, Option<Rank>)> {
    match file_of(byte) {
        Some(file) => Some((Some(file), None)),
        None => Some((None, Some(rank_of(byte)?))),
    }
}

#[inline]
fn file_of(byte: u8) -> Option<File> {
    File::new(u32::from(byte.wrapping_sub(b'a')))
}

#[inline]
fn rank_of(byte: u8) -> Option<Rank> {
    Rank::new(u32::from(byte.wrapping_sub(b'1')))
}

#[inline]
fn square_of(file: u8, rank: u8) -> Option<Square> {
    Some(Square::from_coords(file_of(file)?, rank_of(rank)?))
}

// ---- Entry points ---------------------------------------------------------------------------

/// Reads `text` leniently with the letters of `table`: the grammar, no fast path.
pub(super) fn lenient(text: &[u8], table: &'static LetterTable) -> Result<ParsedSan, ParseSanError> {
    let grammar = Grammar::new(text, table);
    let (first, second) = grammar.readings(text).ok_or_else(|| grammar.error(text))?;
    let readings = match second {
        Some(second) => Readings::two(first.san_plus, second.san_plus),
        None => Readings::one(first.san_plus),
    };
    Ok(ParsedSan { readings, lints: first.marks.iter().map(Mark::lint).collect() })
}

/// Why `text` is not canonical SAN (strict mode, English letters): the lenient
/// error if it is not SAN at all; else its first non-canonical part.
pub(super) fn strict_error(text: &[u8]) -> ParseSanError {
    let table = Letters::English.table();
    let grammar = Grammar::new(text, table);
    let Some((first, second)) = grammar.readings(text) else { return grammar.error(text) };
    if let Some(mark) = first.marks.first() {
        return ParseSanError {
            span: mark.span(),
            found: String::from_utf8_lossy(&text[mark.span()]).into_owned(),
            expected: mark.kind.strict_expected(mark.canonical),
        };
    }
    // no lint: a pawn move that names more of its origin than SAN does
    let span = 0..first.move_end;
    let found = String::from_utf8_lossy(&text[span.clone()]).into_owned();
    let canonical = first.san_plus.san.to_string();
    let expected = match second {
        Some(second) => format!(
            "`{canonical}` or `{}` (strict SAN: a pawn capture with `x`, a piece with its capital letter)",
            second.san_plus.san
        ),
        None => format!("`{canonical}` (strict SAN names a pawn's origin file only for a capture, and then with `x`)"),
    };
    ParseSanError { span, found, expected }
}

/// Whether the bytes are in the lenient grammar with English letters (the
/// grammar alone, without the fast path): for the grammar cross-check of
/// `grammar/san.regex` (`grammar_tests`).
#[cfg(test)]
pub(super) fn syntax_ok(text: &[u8]) -> bool {
    let grammar = Grammar::new(text, Letters::English.table());
    grammar.readings(text).is_some()
}

// ---- The grammar ------------------------------------------------------------------------------

/// nom's error type here: it carries nothing, [`Grammar`] keeps the diagnosis.
#[derive(Debug)]
struct Fail;

impl<I> nom::error::ParseError<I> for Fail {
    fn from_error_kind(_: I, _: nom::error::ErrorKind) -> Fail {
        Fail
    }

    fn append(_: I, _: nom::error::ErrorKind, other: Fail) -> Fail {
        other
    }
}

type Res<'a, O> = IResult<&'a [u8], O, Fail>;

/// What may come at a place of the input, as a set of bits, each one phrase
/// of the error message.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Expect(u32);

impl Expect {
    const NONE: Expect = Expect(0);
    const PIECE: Expect = Expect(1 << 0);
    const FILE: Expect = Expect(1 << 1);
    const RANK: Expect = Expect(1 << 2);
    const CAPTURE: Expect = Expect(1 << 3);
    const HYPHEN: Expect = Expect(1 << 4);
    const LETTER_O: Expect = Expect(1 << 5);
    const ZERO: Expect = Expect(1 << 6);
    const LOWER_O: Expect = Expect(1 << 7);
    const NULL: Expect = Expect(1 << 8);
    const PROMOTION: Expect = Expect(1 << 9);
    const PROMOTION_PIECE: Expect = Expect(1 << 10);
    const CLOSE: Expect = Expect(1 << 11);
    const EN_PASSANT: Expect = Expect(1 << 12);
    const PLUS: Expect = Expect(1 << 13);
    const CHECK: Expect = Expect(1 << 14);
    const ANNOTATION: Expect = Expect(1 << 15);
    const END: Expect = Expect(1 << 16);

    const fn has(self, other: Expect) -> bool {
        self.0 & other.0 != 0
    }

    /// The phrases, joined: `a rank 1-8, a file a-h or `x``.
    fn describe(self, table: &LetterTable) -> String {
        let mut set = self;
        // a phrase that says more already covers these
        if set.has(Expect::PROMOTION) {
            set.0 &= !Expect::PROMOTION_PIECE.0;
        }
        if set.has(Expect::CHECK) {
            set.0 &= !Expect::PLUS.0;
        }
        let piece = format!("a piece letter ({})", table.pieces);
        let promotion_piece = format!("a promotion piece ({})", table.promotions);
        let phrases: [(Expect, &str); 17] = [
            (Expect::PIECE, &piece),
            (Expect::FILE, "a file a-h"),
            (Expect::RANK, "a rank 1-8"),
            (Expect::CAPTURE, "`x`"),
            (Expect::HYPHEN, "`-`"),
            (Expect::LETTER_O, "`O`"),
            (Expect::ZERO, "`0`"),
            (Expect::LOWER_O, "`o`"),
            (Expect::NULL, "`null`"),
            (Expect::PROMOTION, "a promotion such as `=Q`"),
            (Expect::PROMOTION_PIECE, &promotion_piece),
            (Expect::CLOSE, "`)`"),
            (Expect::EN_PASSANT, "`e.p.`"),
            (Expect::PLUS, "`+`"),
            (Expect::CHECK, "`+` or `#`"),
            (Expect::ANNOTATION, "an annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`)"),
            (Expect::END, "the end of the move"),
        ];
        let chosen: Vec<&str> = phrases.iter().filter(|(bit, _)| set.has(*bit)).map(|(_, phrase)| *phrase).collect();
        match chosen.split_last() {
            None => "a move".to_owned(),
            Some((last, [])) => (*last).to_owned(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        }
    }
}

/// The dashes castling may be written with besides `-` (lint
/// [`SanLintKind::CastlingDash`]): hyphen, non-breaking hyphen, figure dash,
/// en dash, em dash, minus sign.
const TYPOGRAPHIC_DASHES: [char; 6] = ['\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2212}'];

/// What is expected at the start of a token.
const EXPECTED_MOVE: &str = "a move such as e4, Nf3, exd5, e8=Q or O-O";

/// A lint finding while parsing, with a static canonical text.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Mark {
    kind: SanLintKind,
    start: usize,
    end: usize,
    canonical: &'static str,
}

impl Mark {
    const fn new(kind: SanLintKind, start: usize, end: usize, canonical: &'static str) -> Mark {
        Mark { kind, start, end, canonical }
    }

    const fn span(&self) -> Range<usize> {
        self.start..self.end
    }

    fn lint(&self) -> SanLint {
        SanLint { kind: self.kind, span: self.span(), canonical: self.canonical.to_owned() }
    }
}

/// The lint findings of one reading; a token has at most one per part.
type Marks = ArrayVec<Mark, 8>;

/// One alternative of `move`, read.
#[derive(Clone, Debug)]
struct Move {
    san: San,
    en_passant: bool,
    marks: Marks,
    /// Read as `file square` with nothing else (`bc4`), the pawn reading a
    /// lowercase piece letter competes with.
    file_and_square: bool,
}

impl Move {
    fn new(san: San) -> Move {
        Move { san, en_passant: false, marks: Marks::new(), file_and_square: false }
    }

    fn mark(&mut self, mark: Option<Mark>) {
        if let Some(mark) = mark {
            // at most 8 parts; `try_push` keeps an impossible ninth from panicking
            let _ = self.marks.try_push(mark);
        }
    }
}

/// A whole token read one way.
#[derive(Clone, Debug)]
struct Reading {
    san_plus: SanPlus,
    /// Lint findings, in input order.
    marks: Marks,
    file_and_square: bool,
    /// Where the move ends (and the check mark or annotation begins).
    move_end: usize,
}

/// What stands between two squares: `-`, or a capture mark (and its lint for `:`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Link {
    Hyphen(usize),
    Capture(Option<Mark>),
}

/// The origin (as far as written), the capture, the destination of a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Tail {
    file: Option<File>,
    rank: Option<Rank>,
    link: Option<Link>,
    to: Square,
}

impl Tail {
    const fn capture(&self) -> bool {
        matches!(self.link, Some(Link::Capture(_)))
    }

    /// The lint of the link: `-` as `hyphen` says, `:` as a colon capture.
    fn link_mark(&self, hyphen: SanLintKind) -> Option<Mark> {
        match self.link {
            Some(Link::Hyphen(at)) => Some(Mark::new(hyphen, at, at + 1, "")),
            Some(Link::Capture(mark)) => mark,
            None => None,
        }
    }
}

/// What `pawn_end` read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum PawnEnd {
    Promotion(Role, Option<Mark>),
    EnPassant(Mark),
}

/// How a letter was written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Spelling {
    /// As canonical SAN writes it.
    Canonical,
    /// Lowercase.
    Lowercase,
    /// A letter of the chosen language that English writes otherwise.
    Local,
    /// A figurine.
    Figurine,
}

/// The rules of `grammar/san.ebnf` for one token, and the furthest failure
/// seen so far.
struct Grammar {
    table: &'static LetterTable,
    /// The token's length: offsets are `len - rest.len()`.
    len: usize,
    /// The furthest position a terminal failed at, and what it expected there.
    furthest: Cell<(usize, Expect)>,
}

/// One alternative of `move`.
type MoveRule = for<'a> fn(&Grammar, &'a [u8]) -> Res<'a, Move>;

impl Grammar {
    fn new(text: &[u8], table: &'static LetterTable) -> Grammar {
        Grammar { table, len: text.len(), furthest: Cell::new((0, Expect::NONE)) }
    }

    /// The offset of `input`, a suffix of the token.
    fn at(&self, input: &[u8]) -> usize {
        self.len - input.len()
    }

    /// Fails at `input`, recording what was expected there.
    fn fail<'a, O>(&self, input: &'a [u8], expect: Expect) -> Res<'a, O> {
        let at = self.at(input);
        let (furthest, set) = self.furthest.get();
        if at > furthest {
            self.furthest.set((at, expect));
        } else if at == furthest {
            self.furthest.set((at, Expect(set.0 | expect.0)));
        }
        Err(nom::Err::Error(Fail))
    }

    /// The byte `byte`.
    fn byte<'a>(&self, input: &'a [u8], byte: u8, expect: Expect) -> Res<'a, ()> {
        match input.split_first() {
            Some((&b, rest)) if b == byte => Ok((rest, ())),
            _ => self.fail(input, expect),
        }
    }

    /// The bytes of `text`; an ASCII text fails where the input departs from it.
    fn literal<'a>(&self, input: &'a [u8], text: &[u8], expect: Expect) -> Res<'a, ()> {
        let same = input.iter().zip(text).take_while(|(a, b)| a == b).count();
        if same == text.len() {
            Ok((&input[same..], ()))
        } else if text.is_ascii() {
            self.fail(&input[same..], expect)
        } else {
            self.fail(input, expect)
        }
    }

    /// The end of the token.
    fn end<'a>(&self, input: &'a [u8]) -> Res<'a, ()> {
        if input.is_empty() { Ok((input, ())) } else { self.fail(input, Expect::END) }
    }

    // ---- The token ------------------------------------------------------------------

    /// The readings of a whole token: the first alternative of `move` (but
    /// `lowercase_piece_move`) that reads it, and the lowercase piece reading
    /// where the header of the grammar says so; `None` if nothing reads it.
    ///
    /// ```text
    /// move ::= castling | null_move | piece_move | squares_move | pawn_move | lowercase_piece_move
    /// ```
    fn readings(&self, input: &[u8]) -> Option<(Reading, Option<Reading>)> {
        let rules: [MoveRule; 5] =
            [Grammar::castling, Grammar::null_move, Grammar::piece_move, Grammar::squares_move, Grammar::pawn_move];
        let main = rules.into_iter().find_map(|rule| self.san_plus(input, rule).ok().map(|(_, reading)| reading));
        let lowercase = self.san_plus(input, Grammar::lowercase_piece_move).ok().map(|(_, reading)| reading);
        match (main, lowercase) {
            (Some(main), Some(piece)) if main.file_and_square => Some((main, Some(piece))),
            (Some(main), _) => Some((main, None)),
            (None, Some(piece)) => Some((piece, None)),
            (None, None) => None,
        }
    }

    // san_plus ::= move check? annotation?
    //
    // (for one alternative of `move`, to the end of the token)
    fn san_plus<'a>(&self, input: &'a [u8], rule: MoveRule) -> Res<'a, Reading> {
        let (rest, mut read) = rule(self, input)?;
        let move_end = self.at(rest);
        let (rest, check) = opt(|i: &'a [u8]| self.check(i)).parse(rest)?;
        let (rest, annotation) = opt(|i: &'a [u8]| self.annotation(i)).parse(rest)?;
        let (rest, ()) = self.end(rest)?;
        let suffix = check.map(|(suffix, mark)| {
            read.mark(mark);
            suffix
        });
        read.marks.sort_unstable_by_key(|mark| (mark.start, mark.end));
        let san_plus = SanPlus { san: read.san, suffix, annotation, en_passant_mark: read.en_passant };
        Ok((rest, Reading { san_plus, marks: read.marks, file_and_square: read.file_and_square, move_end }))
    }

    // ---- Castling and the null move ------------------------------------------------

    // castling ::= "O" dash "O" ( dash "O" )? | "0" dash "0" ( dash "0" )? | "o" dash "o" ( dash "o" )?
    fn castling<'a>(&self, input: &'a [u8]) -> Res<'a, Move> {
        let start = self.at(input);
        let (rest, (letter, long, typographic)) = alt((
            |i: &'a [u8]| self.castling_with(i, b'O', Expect::LETTER_O),
            |i: &'a [u8]| self.castling_with(i, b'0', Expect::ZERO),
            |i: &'a [u8]| self.castling_with(i, b'o', Expect::LOWER_O),
        ))
        .parse(input)?;
        let side = if long { CastlingSide::QueenSide } else { CastlingSide::KingSide };
        let mut read = Move::new(San::Castle(side));
        // one finding for the castling: a typographic dash says the most
        // (its canonical spelling fixes the letter too)
        let kind = match letter {
            _ if typographic => Some(SanLintKind::CastlingDash),
            b'0' => Some(SanLintKind::CastlingZeros),
            b'o' => Some(SanLintKind::CastlingLowercase),
            _ => None,
        };
        read.mark(kind.map(|kind| Mark::new(kind, start, self.at(rest), side.as_str())));
        Ok((rest, read))
    }

    /// One spelling of `castling`, `letter` being its O: the letter, whether
    /// it is the long castling, and whether a typographic dash was used.
    fn castling_with<'a>(&self, input: &'a [u8], letter: u8, expect: Expect) -> Res<'a, (u8, bool, bool)> {
        let o = |i: &'a [u8]| self.byte(i, letter, expect);
        let dash = |i: &'a [u8]| self.dash(i);
        let (rest, (_, first, _)) = (o, dash, o).parse(input)?;
        let (rest, long) = opt((dash, o)).parse(rest)?;
        let typographic = first || long.is_some_and(|(second, ())| second);
        Ok((rest, (letter, long.is_some(), typographic)))
    }

    // dash ::= "-" | "\u{2010}" | "\u{2011}" | "\u{2012}" | "\u{2013}" | "\u{2014}" | "\u{2212}"
    //
    // (true for a typographic dash)
    fn dash<'a>(&self, input: &'a [u8]) -> Res<'a, bool> {
        if let Some(rest) = input.strip_prefix(b"-") {
            return Ok((rest, false));
        }
        for dash in TYPOGRAPHIC_DASHES {
            let mut buf = [0; 4];
            if let Some(rest) = input.strip_prefix(dash.encode_utf8(&mut buf).as_bytes()) {
                return Ok((rest, true));
            }
        }
        self.fail(input, Expect::HYPHEN)
    }

    // null_move ::= "--" | "Z0" | "0000" | "@@@@" | "null"
    //
    // Each spelling is one word: a token that only starts like one (`Zz9`,
    // `nul`) fails at its start, so the diagnosis speaks of the token as a
    // whole (a move such as ...) rather than of a letter of a rare word.
    fn null_move<'a>(&self, input: &'a [u8]) -> Res<'a, Move> {
        let start = self.at(input);
        let word = |i: &'a [u8], text: &'static [u8]| match i.strip_prefix(text) {
            Some(rest) => Ok((rest, ())),
            None => self.fail(i, Expect::NULL),
        };
        let (rest, canonical) = alt((
            map(|i: &'a [u8]| word(i, b"--"), |()| true),
            map(|i: &'a [u8]| word(i, b"Z0"), |()| false),
            map(|i: &'a [u8]| word(i, b"0000"), |()| false),
            map(|i: &'a [u8]| word(i, b"@@@@"), |()| false),
            map(|i: &'a [u8]| word(i, b"null"), |()| false),
        ))
        .parse(input)?;
        let mut read = Move::new(San::Null);
        if !canonical {
            read.mark(Some(Mark::new(SanLintKind::NullMoveSpelling, start, self.at(rest), "--")));
        }
        Ok((rest, read))
    }

    // ---- Piece moves -----------------------------------------------------------------

    // piece_move ::= piece piece_tail
    fn piece_move<'a>(&self, input: &'a [u8]) -> Res<'a, Move> {
        let (rest, ((role, mark), tail)) =
            (|i: &'a [u8]| self.piece(i), |i: &'a [u8]| self.piece_tail(i)).parse(input)?;
        Ok((rest, piece_read(role, mark, &tail)))
    }

    // lowercase_piece_move ::= lowercase_piece piece_tail
    fn lowercase_piece_move<'a>(&self, input: &'a [u8]) -> Res<'a, Move> {
        let (rest, ((role, mark), tail)) =
            (|i: &'a [u8]| self.lowercase_piece(i), |i: &'a [u8]| self.piece_tail(i)).parse(input)?;
        Ok((rest, piece_read(role, Some(mark), &tail)))
    }

    // piece_tail ::= square ( "-" | capture )? square
    //              | ( file | rank ) capture? square
    //              | capture? square
    fn piece_tail<'a>(&self, input: &'a [u8]) -> Res<'a, Tail> {
        let square = |i: &'a [u8]| self.square(i);
        let capture = |i: &'a [u8]| self.capture(i);
        alt((
            map((square, opt(|i: &'a [u8]| self.link(i)), square), |(from, link, to)| Tail {
                file: Some(from.file()),
                rank: Some(from.rank()),
                link,
                to,
            }),
            map(
                (
                    alt((
                        map(|i: &'a [u8]| self.file(i), |file| (Some(file), None)),
                        map(|i: &'a [u8]| self.rank(i), |rank| (None, Some(rank))),
                    )),
                    opt(capture),
                    square,
                ),
                |((file, rank), capture, to)| Tail { file, rank, link: capture.map(Link::Capture), to },
            ),
            map((opt(capture), square), |(capture, to)| Tail {
                file: None,
                rank: None,
                link: capture.map(Link::Capture),
                to,
            }),
        ))
        .parse(input)
    }

    /// `( "-" | capture )`, between two squares.
    fn link<'a>(&self, input: &'a [u8]) -> Res<'a, Link> {
        let at = self.at(input);
        alt((
            map(|i: &'a [u8]| self.byte(i, b'-', Expect::HYPHEN), |()| Link::Hyphen(at)),
            map(|i: &'a [u8]| self.capture(i), Link::Capture),
        ))
        .parse(input)
    }

    // ---- Pawn moves and coordinates ------------------------------------------------

    // squares_move ::= square ( "-" | capture )? square pawn_end
    fn squares_move<'a>(&self, input: &'a [u8]) -> Res<'a, Move> {
        let start = self.at(input);
        let square = |i: &'a [u8]| self.square(i);
        let (rest, (from, link, to)) = (square, opt(|i: &'a [u8]| self.link(i)), square).parse(input)?;
        let squares_end = self.at(rest);
        let (rest, end) = self.pawn_end(rest)?;
        let tail = Tail { file: Some(from.file()), rank: Some(from.rank()), link, to };
        let mut read = Move::new(San::Squares { from, to, capture: tail.capture(), promotion: None });
        read.mark(Some(Mark::new(SanLintKind::Coordinates, start, squares_end, "")));
        read.mark(tail.link_mark(SanLintKind::SquareSeparator));
        pawn_end_read(&mut read, end);
        Ok((rest, read))
    }

    // pawn_move ::= pawn_letter square ( "-" | capture )? square pawn_end
    //             | pawn_letter? pawn_body pawn_end
    fn pawn_move<'a>(&self, input: &'a [u8]) -> Res<'a, Move> {
        let square = |i: &'a [u8]| self.square(i);
        let pawn_letter = |i: &'a [u8]| self.pawn_letter(i);
        let pawn_end = |i: &'a [u8]| self.pawn_end(i);
        let long = map(
            (pawn_letter, square, opt(|i: &'a [u8]| self.link(i)), square, pawn_end),
            |(letter, from, link, to, end)| {
                (Some(letter), Tail { file: Some(from.file()), rank: Some(from.rank()), link, to }, end)
            },
        );
        let short = (opt(pawn_letter), |i: &'a [u8]| self.pawn_body(i), pawn_end);
        let (rest, (letter, tail, end)) = alt((long, short)).parse(input)?;
        let san = San::Normal {
            role: Role::Pawn,
            file: tail.file,
            rank: tail.rank,
            capture: tail.capture(),
            to: tail.to,
            promotion: None,
        };
        let mut read = Move::new(san);
        read.file_and_square =
            letter.is_none() && tail.file.is_some() && tail.rank.is_none() && tail.link.is_none() && end.is_none();
        read.mark(letter);
        read.mark(tail.link_mark(SanLintKind::LongAlgebraic));
        pawn_end_read(&mut read, end);
        Ok((rest, read))
    }

    // pawn_body ::= file capture? square
    //             | rank square
    //             | square
    fn pawn_body<'a>(&self, input: &'a [u8]) -> Res<'a, Tail> {
        let square = |i: &'a [u8]| self.square(i);
        alt((
            map((|i: &'a [u8]| self.file(i), opt(|i: &'a [u8]| self.capture(i)), square), |(file, capture, to)| Tail {
                file: Some(file),
                rank: None,
                link: capture.map(Link::Capture),
                to,
            }),
            map((|i: &'a [u8]| self.rank(i), square), |(rank, to)| Tail {
                file: None,
                rank: Some(rank),
                link: None,
                to,
            }),
            map(square, |to| Tail { file: None, rank: None, link: None, to }),
        ))
        .parse(input)
    }

    // pawn_end ::= ( promotion | en_passant )?
    fn pawn_end<'a>(&self, input: &'a [u8]) -> Res<'a, Option<PawnEnd>> {
        opt(alt((
            map(|i: &'a [u8]| self.promotion(i), |(role, mark)| PawnEnd::Promotion(role, mark)),
            map(|i: &'a [u8]| self.en_passant(i), PawnEnd::EnPassant),
        )))
        .parse(input)
    }

    // promotion ::= "="? promotion_piece
    //             | "/" promotion_piece
    //             | "(" promotion_piece ")"
    fn promotion<'a>(&self, input: &'a [u8]) -> Res<'a, (Role, Option<Mark>)> {
        let start = self.at(input);
        let piece = |i: &'a [u8]| self.promotion_piece(i);
        let opening = |byte: u8| move |i: &'a [u8]| self.byte(i, byte, Expect::PROMOTION);
        let (rest, (written, (role, spelling))) = alt((
            map((opt(opening(b'=')), piece), |(equals, piece)| (if equals.is_some() { b'=' } else { 0 }, piece)),
            map((opening(b'/'), piece), |((), piece)| (b'/', piece)),
            map((opening(b'('), piece, |i: &'a [u8]| self.byte(i, b')', Expect::CLOSE)), |((), piece, ())| {
                (b'(', piece)
            }),
        ))
        .parse(input)?;
        let kind = match (written, spelling) {
            (b'/' | b'(', _) => Some(SanLintKind::PromotionBracketed),
            (_, Spelling::Figurine) => Some(SanLintKind::Figurine),
            (0, _) => Some(SanLintKind::PromotionWithoutEquals),
            (_, Spelling::Lowercase) => Some(SanLintKind::PromotionLowercase),
            (_, Spelling::Local) => Some(SanLintKind::LocalLetters),
            (_, Spelling::Canonical) => None,
        };
        let mark = kind.map(|kind| Mark::new(kind, start, self.at(rest), promotion_text(role)));
        Ok((rest, (role, mark)))
    }

    // en_passant ::= " "? ( "e.p." | "ep" )
    fn en_passant<'a>(&self, input: &'a [u8]) -> Res<'a, Mark> {
        let start = self.at(input);
        let (rest, _) = (
            opt(|i: &'a [u8]| self.byte(i, b' ', Expect::EN_PASSANT)),
            alt((
                |i: &'a [u8]| self.literal(i, b"e.p.", Expect::EN_PASSANT),
                |i: &'a [u8]| self.literal(i, b"ep", Expect::EN_PASSANT),
            )),
        )
            .parse(input)?;
        Ok((rest, Mark::new(SanLintKind::EnPassantSuffix, start, self.at(rest), "")))
    }

    // ---- After the move ----------------------------------------------------------------

    // check ::= "+" | "#" | "++" | "‡"
    fn check<'a>(&self, input: &'a [u8]) -> Res<'a, (Suffix, Option<Mark>)> {
        let start = self.at(input);
        let (rest, (suffix, old)) = alt((
            map(|i: &'a [u8]| self.literal(i, b"++", Expect::PLUS), |()| (Suffix::Checkmate, true)),
            map(|i: &'a [u8]| self.byte(i, b'+', Expect::CHECK), |()| (Suffix::Check, false)),
            map(|i: &'a [u8]| self.byte(i, b'#', Expect::CHECK), |()| (Suffix::Checkmate, false)),
            map(|i: &'a [u8]| self.literal(i, "‡".as_bytes(), Expect::CHECK), |()| (Suffix::Checkmate, true)),
        ))
        .parse(input)?;
        let mark = old.then(|| Mark::new(SanLintKind::DoublePlusMate, start, self.at(rest), "#"));
        Ok((rest, (suffix, mark)))
    }

    // annotation ::= "!!" | "??" | "!?" | "?!" | "!" | "?"
    fn annotation<'a>(&self, input: &'a [u8]) -> Res<'a, Annotation> {
        let text = |text: &'static [u8], annotation: Annotation| {
            map(move |i: &'a [u8]| self.literal(i, text, Expect::ANNOTATION), move |()| annotation)
        };
        alt((
            text(b"!!", Annotation::Brilliant),
            text(b"??", Annotation::Blunder),
            text(b"!?", Annotation::Speculative),
            text(b"?!", Annotation::Dubious),
            text(b"!", Annotation::Good),
            text(b"?", Annotation::Mistake),
        ))
        .parse(input)
    }

    // ---- Shared shapes -------------------------------------------------------------------

    // capture ::= "x" | ":"
    //
    // (with the lint of a `:`)
    fn capture<'a>(&self, input: &'a [u8]) -> Res<'a, Option<Mark>> {
        let at = self.at(input);
        match input.split_first() {
            Some((b'x', rest)) => Ok((rest, None)),
            Some((b':', rest)) => Ok((rest, Some(Mark::new(SanLintKind::ColonCapture, at, at + 1, "x")))),
            _ => self.fail(input, Expect::CAPTURE),
        }
    }

    // square ::= file rank
    fn square<'a>(&self, input: &'a [u8]) -> Res<'a, Square> {
        map((|i: &'a [u8]| self.file(i), |i: &'a [u8]| self.rank(i)), |(file, rank)| Square::from_coords(file, rank))
            .parse(input)
    }

    // file ::= [a-h]
    fn file<'a>(&self, input: &'a [u8]) -> Res<'a, File> {
        match input.split_first() {
            Some((&byte, rest)) if file_of(byte).is_some() => Ok((rest, File::ALL[usize::from(byte - b'a')])),
            _ => self.fail(input, Expect::FILE),
        }
    }

    // rank ::= [1-8]
    fn rank<'a>(&self, input: &'a [u8]) -> Res<'a, Rank> {
        match input.split_first() {
            Some((&byte, rest)) if rank_of(byte).is_some() => Ok((rest, Rank::ALL[usize::from(byte - b'1')])),
            _ => self.fail(input, Expect::RANK),
        }
    }

    // ---- Letters -------------------------------------------------------------------------

    // piece ::= [KQRBN] | figurine
    //
    // (the uppercase letters of the language, see LetterTable)
    fn piece<'a>(&self, input: &'a [u8]) -> Res<'a, (Role, Option<Mark>)> {
        let at = self.at(input);
        match self
            .letter_or_figurine(input)
            .filter(|&(role, spelling, _)| role != Role::Pawn && spelling != Spelling::Lowercase)
        {
            Some((role, spelling, len)) => {
                let kind = match spelling {
                    Spelling::Local => Some(SanLintKind::LocalLetters),
                    Spelling::Figurine => Some(SanLintKind::Figurine),
                    Spelling::Canonical | Spelling::Lowercase => None,
                };
                Ok((&input[len..], (role, kind.map(|kind| Mark::new(kind, at, at + len, english(role))))))
            }
            None => self.fail(input, Expect::PIECE),
        }
    }

    // lowercase_piece ::= [kqrbn]
    //
    // (the lowercase letters of the language's pieces)
    fn lowercase_piece<'a>(&self, input: &'a [u8]) -> Res<'a, (Role, Mark)> {
        let at = self.at(input);
        match self.letter_or_figurine(input) {
            Some((role, Spelling::Lowercase, len)) if role != Role::Pawn => {
                Ok((&input[len..], (role, Mark::new(SanLintKind::LowercasePiece, at, at + len, english(role)))))
            }
            _ => self.fail(input, Expect::PIECE),
        }
    }

    // pawn_letter ::= [Pp] | pawn_figurine
    //
    // (the language's pawn letter, in either case)
    fn pawn_letter<'a>(&self, input: &'a [u8]) -> Res<'a, Mark> {
        let at = self.at(input);
        match self.letter_or_figurine(input) {
            Some((Role::Pawn, spelling, len)) => {
                let kind = if spelling == Spelling::Figurine { SanLintKind::Figurine } else { SanLintKind::PawnLetter };
                Ok((&input[len..], Mark::new(kind, at, at + len, "")))
            }
            _ => self.fail(input, Expect::PIECE),
        }
    }

    // promotion_piece ::= [QRBNqrbn] | "♕" | "♖" | "♗" | "♘" | "♛" | "♜" | "♝" | "♞"
    //
    // (the language's queen, rook, bishop and knight letters, in either case)
    fn promotion_piece<'a>(&self, input: &'a [u8]) -> Res<'a, (Role, Spelling)> {
        match self.letter_or_figurine(input) {
            Some((role @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight), spelling, len)) => {
                Ok((&input[len..], (role, spelling)))
            }
            _ => self.fail(input, Expect::PROMOTION_PIECE),
        }
    }

    /// A letter of the language in either case, or a figurine: its role, how
    /// it is written, and its length in bytes. Lowercase wins over local.
    fn letter_or_figurine(&self, input: &[u8]) -> Option<(Role, Spelling, usize)> {
        let &first = input.first()?;
        if first.is_ascii_alphabetic() {
            let (role, local) = self.table.letter(first)?;
            let spelling = if first.is_ascii_lowercase() {
                Spelling::Lowercase
            } else if local {
                Spelling::Local
            } else {
                Spelling::Canonical
            };
            return Some((role, spelling, 1));
        }
        figurine_at(input).map(|role| (role, Spelling::Figurine, 3))
    }

    // ---- Diagnosis ---------------------------------------------------------------------------

    /// The error of a token no alternative read: whitespace around it first,
    /// else the furthest failure.
    fn error(&self, text: &[u8]) -> ParseSanError {
        let leading = text.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let trailing = text.iter().rev().take_while(|b| b.is_ascii_whitespace()).count();
        let (span, expected) = if leading > 0 {
            (0..leading, "a move, with no whitespace before it".to_owned())
        } else if trailing > 0 {
            (text.len() - trailing..text.len(), "the end of the move, with no whitespace after it".to_owned())
        } else {
            let (at, expect) = self.furthest.get();
            let at = at.min(text.len());
            let span = at..at + char_len(&text[at..]);
            if at == 0 { (span, EXPECTED_MOVE.to_owned()) } else { (span, expect.describe(self.table)) }
        };
        let found = String::from_utf8_lossy(&text[span.clone()]).into_owned();
        ParseSanError { span, found, expected }
    }
}

/// A piece move's reading, from its letter and its tail.
fn piece_read(role: Role, letter: Option<Mark>, tail: &Tail) -> Move {
    let san =
        San::Normal { role, file: tail.file, rank: tail.rank, capture: tail.capture(), to: tail.to, promotion: None };
    let mut read = Move::new(san);
    read.mark(letter);
    read.mark(tail.link_mark(SanLintKind::LongAlgebraic));
    read
}

/// Adds what `pawn_end` read to a pawn or squares move.
fn pawn_end_read(read: &mut Move, end: Option<PawnEnd>) {
    match end {
        Some(PawnEnd::Promotion(role, mark)) => {
            if let San::Normal { promotion, .. } | San::Squares { promotion, .. } = &mut read.san {
                *promotion = Some(role);
            }
            read.mark(mark);
        }
        Some(PawnEnd::EnPassant(mark)) => {
            read.en_passant = true;
            read.mark(Some(mark));
        }
        None => {}
    }
}

/// The length of the character `text` starts with: its UTF-8 length, one byte
/// for a byte that starts none, zero at the end.
fn char_len(text: &[u8]) -> usize {
    match text.utf8_chunks().next() {
        Some(chunk) => chunk.valid().chars().next().map_or(1, char::len_utf8),
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::super::letters::TABLES;
    use super::super::parse::parse_san;
    use super::super::types::SanOptions;
    use super::*;

    const EN: &LetterTable = &TABLES[0];

    fn grammar(input: &[u8]) -> Grammar {
        Grammar::new(input, EN)
    }

    /// A lint finding as a tuple: kind, span, canonical text.
    type LintTuple = (SanLintKind, Range<usize>, String);

    /// Lenient readings (canonical text of each) and lint findings.
    fn read(text: &str, letters: Letters) -> (Vec<String>, Vec<LintTuple>) {
        let parsed = lenient(text.as_bytes(), letters.table()).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        let readings = parsed.readings.iter().map(ToString::to_string).collect();
        let lints = parsed.lints.into_iter().map(|lint| (lint.kind, lint.span, lint.canonical)).collect();
        (readings, lints)
    }

    fn lint(kind: SanLintKind, span: Range<usize>, canonical: &str) -> LintTuple {
        (kind, span, canonical.to_owned())
    }

    #[test]
    fn rules_leave_the_rest() {
        let g = grammar(b"e4xd5=Q+!");
        assert_eq!(g.square(b"e4xd5").ok(), Some((&b"xd5"[..], Square::E4)));
        assert_eq!(g.file(b"h8").ok(), Some((&b"8"[..], File::H)));
        assert!(g.file(b"i").is_err());
        assert_eq!(g.rank(b"8+").ok(), Some((&b"+"[..], Rank::Eighth)));
        assert!(g.rank(b"9").is_err());
        assert_eq!(g.capture(b"xd5").ok(), Some((&b"d5"[..], None)));
        assert!(g.capture(b"-d5").is_err());
        assert_eq!(g.check(b"+!").ok(), Some((&b"!"[..], (Suffix::Check, None))));
        assert_eq!(g.check(b"#").ok().map(|(rest, (suffix, _))| (rest, suffix)), Some((&b""[..], Suffix::Checkmate)));
        assert_eq!(g.annotation(b"!?x").ok(), Some((&b"x"[..], Annotation::Speculative)));
        assert_eq!(g.annotation(b"!x").ok(), Some((&b"x"[..], Annotation::Good)));
        assert_eq!(g.annotation(b"??").ok(), Some((&b""[..], Annotation::Blunder)));
        assert!(g.annotation(b"+").is_err());
        assert_eq!(g.promotion(b"=Q+").ok().map(|(rest, (role, _))| (rest, role)), Some((&b"+"[..], Role::Queen)));
        assert_eq!(g.promotion(b"(n)").ok().map(|(rest, (role, _))| (rest, role)), Some((&b""[..], Role::Knight)));
        assert!(g.promotion(b"=K").is_err());
        assert!(g.promotion(b"(Q").is_err());
        assert_eq!(g.en_passant(b" e.p.+").ok().map(|(rest, _)| rest), Some(&b"+"[..]));
        assert_eq!(g.en_passant(b"ep").ok().map(|(rest, _)| rest), Some(&b""[..]));
        assert!(g.en_passant(b"e.p").is_err());
        let tail =
            |input: &'static [u8]| g.piece_tail(input).ok().map(|(rest, t)| (rest, t.file, t.rank, t.capture(), t.to));
        assert_eq!(tail(b"f3+"), Some((&b"+"[..], None, None, false, Square::F3)));
        assert_eq!(tail(b"bd7"), Some((&b""[..], Some(File::B), None, false, Square::D7)));
        assert_eq!(tail(b"1xd7"), Some((&b""[..], None, Some(Rank::First), true, Square::D7)));
        assert_eq!(tail(b"g1-f3!"), Some((&b"!"[..], Some(File::G), Some(Rank::First), false, Square::F3)));
        assert_eq!(tail(b"g1xf3"), Some((&b""[..], Some(File::G), Some(Rank::First), true, Square::F3)));
        assert_eq!(tail(b"f3f4"), Some((&b""[..], Some(File::F), Some(Rank::Third), false, Square::F4)));
        assert_eq!(tail(b"f"), None);
        let body = |input: &'static [u8]| g.pawn_body(input).ok().map(|(rest, t)| (rest, t.file, t.rank, t.to));
        assert_eq!(body(b"e4=Q"), Some((&b"=Q"[..], None, None, Square::E4)));
        assert_eq!(body(b"exd5"), Some((&b""[..], Some(File::E), None, Square::D5)));
        assert_eq!(body(b"2e4"), Some((&b""[..], None, Some(Rank::Second), Square::E4)));
        assert_eq!(
            g.castling(b"O-O-O+").ok().map(|(rest, m)| (rest, m.san)),
            Some((&b"+"[..], San::Castle(CastlingSide::QueenSide)))
        );
        assert_eq!(
            g.castling(b"O-O-").ok().map(|(rest, m)| (rest, m.san)),
            Some((&b"-"[..], San::Castle(CastlingSide::KingSide)))
        );
        assert!(g.castling(b"O-0").is_err());
        assert_eq!(g.null_move(b"--+").ok().map(|(rest, m)| (rest, m.marks.len())), Some((&b"+"[..], 0)));
        assert_eq!(g.null_move(b"Z0").ok().map(|(rest, m)| (rest, m.marks.len())), Some((&b""[..], 1)));
    }

    #[test]
    fn lenient_readings_and_lints() {
        use SanLintKind::*;
        type Case<'a> = (&'a str, &'a [&'a str], Vec<(SanLintKind, Range<usize>, String)>);
        let cases: Vec<Case<'_>> = vec![
            // canonical: no lint
            ("Nf3", &["Nf3"], vec![]),
            ("exd5", &["exd5"], vec![]),
            ("e8=Q+", &["e8=Q+"], vec![]),
            ("Qh4xe1#!!", &["Qh4xe1#!!"], vec![]),
            ("O-O-O?!", &["O-O-O?!"], vec![]),
            ("--", &["--"], vec![]),
            // castling
            ("0-0", &["O-O"], vec![lint(CastlingZeros, 0..3, "O-O")]),
            // typographic dashes: en dash, non-breaking hyphen, em dash, hyphen, minus, figure dash
            ("O\u{2013}O", &["O-O"], vec![lint(CastlingDash, 0..5, "O-O")]),
            ("O\u{2011}O", &["O-O"], vec![lint(CastlingDash, 0..5, "O-O")]),
            ("0\u{2014}0", &["O-O"], vec![lint(CastlingDash, 0..5, "O-O")]),
            ("O\u{2010}O-O+", &["O-O-O+"], vec![lint(CastlingDash, 0..7, "O-O-O")]),
            ("o-o\u{2212}o", &["O-O-O"], vec![lint(CastlingDash, 0..7, "O-O-O")]),
            ("O\u{2012}O", &["O-O"], vec![lint(CastlingDash, 0..5, "O-O")]),
            ("0-0-0+", &["O-O-O+"], vec![lint(CastlingZeros, 0..5, "O-O-O")]),
            ("o-o-o#", &["O-O-O#"], vec![lint(CastlingLowercase, 0..5, "O-O-O")]),
            // promotion
            ("e8Q", &["e8=Q"], vec![lint(PromotionWithoutEquals, 2..3, "=Q")]),
            ("e8q", &["e8=Q"], vec![lint(PromotionWithoutEquals, 2..3, "=Q")]),
            ("e8=q", &["e8=Q"], vec![lint(PromotionLowercase, 2..4, "=Q")]),
            ("e8/Q", &["e8=Q"], vec![lint(PromotionBracketed, 2..4, "=Q")]),
            ("exd8(N)+", &["exd8=N+"], vec![lint(PromotionBracketed, 4..7, "=N")]),
            ("e8=♕", &["e8=Q"], vec![lint(Figurine, 2..6, "=Q")]),
            // en passant
            ("exd6 e.p.", &["exd6"], vec![lint(EnPassantSuffix, 4..9, "")]),
            ("exd6e.p.+", &["exd6+"], vec![lint(EnPassantSuffix, 4..8, "")]),
            ("exd6ep", &["exd6"], vec![lint(EnPassantSuffix, 4..6, "")]),
            // mate
            ("Qh7++", &["Qh7#"], vec![lint(DoublePlusMate, 3..5, "#")]),
            ("Qh7‡", &["Qh7#"], vec![lint(DoublePlusMate, 3..6, "#")]),
            // separators and captures
            ("Ng1-f3", &["Ng1f3"], vec![lint(LongAlgebraic, 3..4, "")]),
            ("Ng1f3", &["Ng1f3"], vec![]),
            ("Ng1:f3", &["Ng1xf3"], vec![lint(ColonCapture, 3..4, "x")]),
            ("e:d5", &["exd5"], vec![lint(ColonCapture, 1..2, "x")]),
            ("e2-e4", &["e2e4"], vec![lint(Coordinates, 0..5, ""), lint(SquareSeparator, 2..3, "")]),
            ("e2xd3", &["e2xd3"], vec![lint(Coordinates, 0..5, "")]),
            ("e2:d3", &["e2xd3"], vec![lint(Coordinates, 0..5, ""), lint(ColonCapture, 2..3, "x")]),
            ("g1f3", &["g1f3"], vec![lint(Coordinates, 0..4, "")]),
            ("e7e8q", &["e7e8=Q"], vec![lint(Coordinates, 0..4, ""), lint(PromotionWithoutEquals, 4..5, "=Q")]),
            ("e5d6ep", &["e5d6"], vec![lint(Coordinates, 0..4, ""), lint(EnPassantSuffix, 4..6, "")]),
            // pawn letters and origins
            ("Pe2e4", &["e4"], vec![lint(PawnLetter, 0..1, "")]),
            ("Pe2-e4", &["e4"], vec![lint(PawnLetter, 0..1, ""), lint(LongAlgebraic, 3..4, "")]),
            ("pe4", &["e4"], vec![lint(PawnLetter, 0..1, "")]),
            ("♙e4", &["e4"], vec![lint(Figurine, 0..3, "")]),
            ("Pexd5", &["exd5"], vec![lint(PawnLetter, 0..1, "")]),
            ("ed5", &["exd5"], vec![]),
            ("2e4", &["e4"], vec![]),
            // null moves
            ("Z0", &["--"], vec![lint(NullMoveSpelling, 0..2, "--")]),
            ("0000", &["--"], vec![lint(NullMoveSpelling, 0..4, "--")]),
            ("@@@@", &["--"], vec![lint(NullMoveSpelling, 0..4, "--")]),
            ("null", &["--"], vec![lint(NullMoveSpelling, 0..4, "--")]),
            // lowercase pieces and figurines
            ("nf3", &["Nf3"], vec![lint(LowercasePiece, 0..1, "N")]),
            ("qxh7#", &["Qxh7#"], vec![lint(LowercasePiece, 0..1, "Q")]),
            ("bc4", &["bxc4", "Bc4"], vec![]),
            ("bb4+", &["b4+", "Bb4+"], vec![]),
            ("bxc4", &["bxc4"], vec![]),
            ("b1c3", &["b1c3"], vec![lint(Coordinates, 0..4, "")]),
            ("bc8=Q", &["bxc8=Q"], vec![]),
            ("bf1c4", &["Bf1c4"], vec![lint(LowercasePiece, 0..1, "B")]),
            ("♘f3", &["Nf3"], vec![lint(Figurine, 0..3, "N")]),
            ("♞xe4+", &["Nxe4+"], vec![lint(Figurine, 0..3, "N")]),
            // several parts at once, in input order
            (
                "pe7:d8(q)++!?",
                &["exd8=Q#!?"],
                vec![
                    lint(PawnLetter, 0..1, ""),
                    lint(ColonCapture, 3..4, "x"),
                    lint(PromotionBracketed, 6..9, "=Q"),
                    lint(DoublePlusMate, 9..11, "#"),
                ],
            ),
        ];
        for (text, readings, lints) in cases {
            let (got_readings, got_lints) = read(text, Letters::English);
            assert_eq!(got_readings, readings, "{text:?}");
            assert_eq!(got_lints, lints, "{text:?}");
        }
    }

    #[test]
    fn values_as_written() {
        let first = |text: &str| lenient(text.as_bytes(), EN).unwrap().readings[0];
        // the pawn reading of `bc4` keeps capture = false as written; the resolver judges it
        assert_eq!(
            first("bc4").san,
            San::Normal {
                role: Role::Pawn,
                file: Some(File::B),
                rank: None,
                capture: false,
                to: Square::C4,
                promotion: None
            }
        );
        assert_eq!(
            lenient(b"bc4", EN).unwrap().readings[1].san,
            San::Normal { role: Role::Bishop, file: None, rank: None, capture: false, to: Square::C4, promotion: None }
        );
        assert_eq!(
            first("Pe2e4").san,
            San::Normal {
                role: Role::Pawn,
                file: Some(File::E),
                rank: Some(Rank::Second),
                capture: false,
                to: Square::E4,
                promotion: None
            }
        );
        assert_eq!(
            first("e7e8q").san,
            San::Squares { from: Square::E7, to: Square::E8, capture: false, promotion: Some(Role::Queen) }
        );
        assert!(first("exd6 e.p.").en_passant_mark);
        assert!(!first("exd6").en_passant_mark);
        assert_eq!(first("Nf3!?").annotation, Some(Annotation::Speculative));
        assert_eq!(first("O-O+").suffix, Some(Suffix::Check));
    }

    #[test]
    fn languages() {
        use SanLintKind::*;
        type Case<'a> = (Letters, &'a str, &'a [&'a str], Vec<(SanLintKind, Range<usize>, String)>);
        let cases: Vec<Case<'_>> = vec![
            (Letters::Portuguese, "Cf3", &["Nf3"], vec![lint(LocalLetters, 0..1, "N")]),
            (Letters::Portuguese, "Dd1", &["Qd1"], vec![lint(LocalLetters, 0..1, "Q")]),
            (Letters::Portuguese, "Tf1", &["Rf1"], vec![lint(LocalLetters, 0..1, "R")]),
            (Letters::Portuguese, "Rg1", &["Kg1"], vec![lint(LocalLetters, 0..1, "K")]),
            (Letters::Portuguese, "Bb5", &["Bb5"], vec![]),
            (Letters::Portuguese, "Nf3", &["Nf3"], vec![]),
            (Letters::Portuguese, "e8=D", &["e8=Q"], vec![lint(LocalLetters, 2..4, "=Q")]),
            (Letters::Portuguese, "e8C", &["e8=N"], vec![lint(PromotionWithoutEquals, 2..3, "=N")]),
            (Letters::Portuguese, "cd4", &["cxd4", "Nd4"], vec![]),
            (Letters::Portuguese, "tf1", &["Rf1"], vec![lint(LowercasePiece, 0..1, "R")]),
            (Letters::Spanish, "Axc6", &["Bxc6"], vec![lint(LocalLetters, 0..1, "B")]),
            (Letters::Spanish, "Re2", &["Ke2"], vec![lint(LocalLetters, 0..1, "K")]),
            (Letters::French, "Fb5", &["Bb5"], vec![lint(LocalLetters, 0..1, "B")]),
            (Letters::French, "Cc3", &["Nc3"], vec![lint(LocalLetters, 0..1, "N")]),
            (Letters::German, "Sf3", &["Nf3"], vec![lint(LocalLetters, 0..1, "N")]),
            (Letters::German, "Lb5+", &["Bb5+"], vec![lint(LocalLetters, 0..1, "B")]),
            (Letters::German, "Ke2", &["Ke2"], vec![]),
            (Letters::German, "Bb5", &["Bb5"], vec![]),
            (Letters::Italian, "Tad1", &["Rad1"], vec![lint(LocalLetters, 0..1, "R")]),
            (Letters::Dutch, "Pf3", &["Nf3"], vec![lint(LocalLetters, 0..1, "N")]),
            (Letters::Dutch, "Dxd8", &["Qxd8"], vec![lint(LocalLetters, 0..1, "Q")]),
            (Letters::Dutch, "♘f3", &["Nf3"], vec![lint(Figurine, 0..3, "N")]),
        ];
        for (letters, text, readings, lints) in cases {
            let (got_readings, got_lints) = read(text, letters);
            assert_eq!(got_readings, readings, "{letters:?} {text:?}");
            assert_eq!(got_lints, lints, "{letters:?} {text:?}");
            // the fast path agrees wherever it answers
            let options = SanOptions { strict: false, letters };
            let parsed = parse_san(text.as_bytes(), options).unwrap();
            assert_eq!(parsed, lenient(text.as_bytes(), letters.table()).unwrap(), "{letters:?} {text:?}");
        }
        // letters that mean something else are not read as in English
        assert!(lenient(b"e8=R", Letters::Portuguese.table()).is_err());
        assert!(lenient(b"Pe2e4", Letters::Dutch.table()).is_ok_and(|p| p.readings[0].to_string() == "Ne2e4"));
        assert!(lenient(b"Cf3", EN).is_err());
    }

    fn error(text: &[u8], strict: bool) -> ParseSanError {
        let options = if strict { SanOptions::STRICT } else { SanOptions::LENIENT };
        parse_san(text, options).expect_err(&String::from_utf8_lossy(text))
    }

    #[test]
    fn errors() {
        let cases: &[(&[u8], Range<usize>, &str, &str)] = &[
            (b"", 0..0, "", EXPECTED_MOVE),
            (b"Xf3", 0..1, "X", EXPECTED_MOVE),
            (b"N", 1..1, "", "a file a-h, a rank 1-8 or `x`"),
            (b"Nf9", 2..3, "9", "a file a-h, a rank 1-8 or `x`"),
            (b"Nf3x", 4..4, "", "a file a-h"),
            (b"Nf3xyz", 4..5, "y", "a file a-h"),
            (b"e9", 1..2, "9", "a file a-h, a rank 1-8 or `x`"),
            (b"exd", 3..3, "", "a rank 1-8"),
            (b"e4+x", 3..4, "x", "`+`, an annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`) or the end of the move"),
            (b"Nf3!!!", 5..6, "!", "the end of the move"),
            (b"e8=K", 3..4, "K", "a promotion piece (Q, R, B or N)"),
            (b"e8(Q", 4..4, "", "`)`"),
            (b"O-", 2..2, "", "`O`"),
            (b"O-0", 2..3, "0", "`O`"),
            (b"0-0-", 4..4, "", "`0`"),
            (b"exd6 e.", 7..7, "", "`e.p.`"),
            // a token that only starts like a null move word is judged as a whole
            (b"Z", 0..1, "Z", EXPECTED_MOVE),
            (b"Zz9", 0..1, "Z", EXPECTED_MOVE),
            (b"nul", 1..2, "u", "a file a-h, a rank 1-8 or `x`"),
            (b"00", 1..2, "0", "`-`"),
            // a dash that is no dash castling knows
            (b"O\xe2\x80\x95O", 1..4, "\u{2015}", "`-`"),
            (
                b"Nf3\xff",
                3..4,
                "\u{fffd}",
                "a file a-h, `x`, `-`, `+` or `#`, an annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`) or the end of the move",
            ),
            (b" Nf3", 0..1, " ", "a move, with no whitespace before it"),
            (b"Nf3\r", 3..4, "\r", "the end of the move, with no whitespace after it"),
            (b"exd6 ", 4..5, " ", "the end of the move, with no whitespace after it"),
            (
                b"Nf3 +",
                3..4,
                " ",
                "a file a-h, `x`, `-`, `+` or `#`, an annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`) or the end of the move",
            ),
            (
                b"e4\xe2\x80",
                2..3,
                "\u{fffd}",
                "a file a-h, `x`, `-`, a promotion such as `=Q`, `e.p.`, `+` or `#`, an annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`) or the end of the move",
            ),
            (b"Q@f8", 1..2, "@", "a file a-h, a rank 1-8 or `x`"),
        ];
        for (text, span, found, expected) in cases {
            let err = error(text, false);
            assert_eq!(
                (err.span.clone(), err.found.as_str(), err.expected.as_str()),
                (span.clone(), *found, *expected),
                "{:?}",
                String::from_utf8_lossy(text)
            );
        }
        let err = parse_san(b"Xf3", SanOptions { strict: false, letters: Letters::Portuguese }).unwrap_err();
        assert_eq!(err.expected, EXPECTED_MOVE);
        let err = parse_san(b"e8=K", SanOptions { strict: false, letters: Letters::German }).unwrap_err();
        assert_eq!(err.expected, "a promotion piece (D, T, L or S)");
    }

    #[test]
    fn strict_errors() {
        let cases: &[(&[u8], Range<usize>, &str, &str)] = &[
            (b"0-0", 0..3, "0-0", "`O-O` (strict SAN writes castling with the capital letter O)"),
            (b"o-o-o+", 0..5, "o-o-o", "`O-O-O` (strict SAN writes castling with the capital letter O)"),
            (
                "O\u{2013}O".as_bytes(),
                0..5,
                "O\u{2013}O",
                "`O-O` (strict SAN writes castling with the capital letter O and the hyphen `-`)",
            ),
            (
                "0\u{2014}0\u{2014}0".as_bytes(),
                0..9,
                "0\u{2014}0\u{2014}0",
                "`O-O-O` (strict SAN writes castling with the capital letter O and the hyphen `-`)",
            ),
            (b"e8Q", 2..3, "Q", "`=Q` (strict SAN writes a promotion as `=` and a capital letter)"),
            (b"e8=q", 2..4, "=q", "`=Q` (strict SAN writes a promotion as `=` and a capital letter)"),
            (b"e8/Q", 2..4, "/Q", "`=Q` (strict SAN writes a promotion as `=` and a capital letter)"),
            (
                b"exd6 e.p.",
                4..9,
                " e.p.",
                "the end of the move (strict SAN writes an en passant capture without a mark)",
            ),
            (b"Qh7++", 3..5, "++", "`#` for checkmate"),
            (b"Ng1-f3", 3..4, "-", "the destination square right after the origin (strict SAN writes no `-`)"),
            (b"e:d5", 1..2, ":", "`x` for a capture"),
            (b"g1f3", 0..4, "g1f3", "a piece letter or a pawn move such as e4 (strict SAN has no coordinate notation)"),
            (b"Pe4", 0..1, "P", "a pawn move without a letter, such as e4"),
            (b"Z0", 0..2, "Z0", "`--` for a null move"),
            (b"nf3", 0..1, "n", "`N` (strict SAN writes capital piece letters)"),
            (b"\xe2\x99\x98f3", 0..3, "♘", "`N` (strict SAN writes letters, not figurines)"),
            (b"\xe2\x99\x99e4", 0..3, "♙", "a pawn move without a figurine, such as e4"),
            (
                b"ed5+",
                0..3,
                "ed5",
                "`exd5` (strict SAN names a pawn's origin file only for a capture, and then with `x`)",
            ),
            (b"2e4", 0..3, "2e4", "`e4` (strict SAN names a pawn's origin file only for a capture, and then with `x`)"),
            (
                b"bc4",
                0..3,
                "bc4",
                "`bxc4` or `Bc4` (strict SAN: a pawn capture with `x`, a piece with its capital letter)",
            ),
            // not SAN at all: the lenient diagnosis
            (b"Cf3", 0..1, "C", EXPECTED_MOVE),
            (b"Nf9", 2..3, "9", "a file a-h, a rank 1-8 or `x`"),
            (b"", 0..0, "", EXPECTED_MOVE),
        ];
        for (text, span, found, expected) in cases {
            let err = error(text, true);
            assert_eq!(
                (err.span.clone(), err.found.as_str(), err.expected.as_str()),
                (span.clone(), *found, *expected),
                "{:?}",
                String::from_utf8_lossy(text)
            );
        }
        // strict ignores the letters option: canonical SAN is English
        let strict_pt = SanOptions { strict: true, letters: Letters::Portuguese };
        assert_eq!(parse_san(b"Rf1", strict_pt).unwrap().readings[0].to_string(), "Rf1");
        assert!(parse_san(b"Tf1", strict_pt).is_err());
    }

    #[test]
    fn every_lint_kind_is_produced() {
        let inputs: &[(&str, Letters)] = &[
            ("0-0", Letters::English),
            ("o-o", Letters::English),
            ("O\u{2013}O", Letters::English),
            ("e8Q", Letters::English),
            ("e8=q", Letters::English),
            ("e8(Q)", Letters::English),
            ("exd6ep", Letters::English),
            ("Qh7++", Letters::English),
            ("e2-e4", Letters::English),
            ("Ng1-f3", Letters::English),
            ("e:d5", Letters::English),
            ("Pe4", Letters::English),
            ("Z0", Letters::English),
            ("nf3", Letters::English),
            ("♘f3", Letters::English),
            ("Cf3", Letters::Portuguese),
        ];
        let mut seen = Vec::new();
        for &(text, letters) in inputs {
            seen.extend(read(text, letters).1.into_iter().map(|(kind, _, _)| kind));
        }
        for kind in <SanLintKind as strum::IntoEnumIterator>::iter() {
            assert!(seen.contains(&kind), "{kind:?}");
        }
    }

    #[test]
    fn fast_path_is_the_strict_language() {
        // every canonical token of some shapes: the fast path and the grammar agree exactly
        let mut tokens = vec!["O-O".to_owned(), "O-O-O".to_owned(), "--".to_owned()];
        for to in ["a1", "e4", "h8"] {
            tokens.push(to.to_owned());
            tokens.push(format!("{to}=N"));
            tokens.push(format!("bx{to}=Q"));
            for letter in ["K", "Q", "R", "B", "N"] {
                for origin in ["", "c", "7", "c7"] {
                    for capture in ["", "x"] {
                        tokens.push(format!("{letter}{origin}{capture}{to}"));
                    }
                }
            }
        }
        let mut count = 0;
        for token in &tokens {
            for suffix in ["", "+", "#"] {
                for annotation in ["", "!", "?", "!!", "??", "!?", "?!"] {
                    let text = format!("{token}{suffix}{annotation}");
                    let fast = canonical(text.as_bytes(), EN).unwrap_or_else(|| panic!("{text}"));
                    let slow = lenient(text.as_bytes(), EN).unwrap();
                    assert_eq!(slow.readings.as_slice(), [fast], "{text}");
                    assert!(slow.lints.is_empty(), "{text}");
                    assert_eq!(fast.to_string(), text);
                    count += 1;
                }
            }
        }
        assert_eq!(count, 21 * (3 + 3 * 3 + 3 * 5 * 8));
        for text in ["O-O-", "O-O+!!!", "e4=", "e4=K", "exd", "N", "Nf3x", "Kxx4", "Nf3f", "--x", "e4 ", "x4"] {
            assert_eq!(canonical(text.as_bytes(), EN), None, "{text}");
        }
        // a language's letters take the fast path only where they mean the English piece
        let pt = Letters::Portuguese.table();
        assert!(canonical(b"Nf3", pt).is_some());
        assert!(canonical(b"Bb5", pt).is_some());
        assert!(canonical(b"Rf1", pt).is_none());
        assert!(canonical(b"e8=Q", pt).is_some());
        assert!(canonical(b"e8=R", pt).is_none());
    }

    #[test]
    fn figurines() {
        assert_eq!(figurine_role('♔'), Some((Role::King, true)));
        assert_eq!(figurine_role('♟'), Some((Role::Pawn, false)));
        assert_eq!(figurine_role('♙'), Some((Role::Pawn, true)));
        assert_eq!(figurine_role('♚'), Some((Role::King, false)));
        assert_eq!(figurine_role('♠'), None);
        assert_eq!(figurine_role('K'), None);
        for (c, role) in "♔♕♖♗♘♙♚♛♜♝♞♟".chars().zip([0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5]) {
            let mut bytes = [0; 4];
            let roles = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];
            assert_eq!(figurine_at(c.encode_utf8(&mut bytes).as_bytes()), Some(roles[role]), "{c}");
        }
        assert_eq!(figurine_at("♠".as_bytes()), None);
        assert_eq!(figurine_at(b"\xe2\x99"), None);
    }

    #[test]
    fn long_inputs_do_not_panic() {
        let long = "Nf3".repeat(10_000);
        assert!(parse_san(long.as_bytes(), SanOptions::LENIENT).is_err());
        let bangs = format!("e4{}", "!".repeat(100_000));
        assert_eq!(parse_san(bangs.as_bytes(), SanOptions::LENIENT).unwrap_err().span, 4..5);
        assert!(parse_san(&[0xff; 1000], SanOptions::STRICT).is_err());
        assert!(parse_san("♘".repeat(1000).as_bytes(), SanOptions::LENIENT).is_err());
    }
}
