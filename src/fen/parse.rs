//! Reading FEN: [`Fen::parse`], [`Fen::from_ascii`] and `FromStr`; the FEN
//! grammar (`grammar/fen.ebnf`) as nom parsers, and [`fen`], which parses a
//! whole record and reports every syntax problem at once.
//!
//! Each grammar rule is one function with the same name and the rule copied
//! above it. [`fen`] does not run the rules as one chain, which would stop at
//! the first problem: it splits the input at runs of separator and whitespace
//! bytes (no field contains one), checks each run against `whitespace` or
//! `separator`, and runs each field's rule on that field alone, all-consuming.
//! When a rule fails, a diagnosis function looks at the field again to say
//! what is wrong, where, and what would be right. nom's own errors are never
//! shown, which is also why `context`/`cut` are not used here.
//!
//! Everything runs in linear time without recursion deeper than the eight
//! squares of a rank, and never panics.

use core::ops::Range;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1, take_while};
use nom::combinator::{all_consuming, map, map_opt, recognize, value, verify};
use nom::multi::{many0_count, many1, many1_count};
use nom::{IResult, Parser};

use super::error::{FenSyntaxError, ParseFenError};
use super::types::{Fen, FenField, FenLint, FenLintKind, FenSpans};
use super::write::{canonical_castling_order, castling_text};
use crate::position;
use crate::{Bitboard, Board, CastlingMode, CastlingRights, Color, File, Piece, Rank, Role, Setup, Square};

// ---- The entry points --------------------------------------------------------

impl Fen {
    /// Parses FEN text, reading castling letters as `mode` says.
    ///
    /// # Errors
    ///
    /// Every syntax problem of the input at once.
    pub fn parse(text: &str, mode: CastlingMode) -> Result<Fen, ParseFenError> {
        Fen::from_ascii(text.as_bytes(), mode)
    }

    /// Parses FEN bytes, reading castling letters as `mode` says.
    ///
    /// # Errors
    ///
    /// Every syntax problem of the input at once.
    pub fn from_ascii(bytes: &[u8], mode: CastlingMode) -> Result<Fen, ParseFenError> {
        let raw = fen(bytes).map_err(|errors| ParseFenError { errors })?;
        let mut lints = raw.lints;
        let mut errors = Vec::new();
        let mut rights = CastlingRights::NONE;
        let mut castling_spans = Vec::with_capacity(raw.castling.len());
        for (at, &letter) in raw.castling.clone().zip(&bytes[raw.castling.clone()]) {
            let span = at..at + 1;
            let color = if letter.is_ascii_uppercase() { Color::White } else { Color::Black };
            let file = match letter.to_ascii_lowercase() {
                b'k' => castling_file(&raw.board, color, mode, true),
                b'q' => castling_file(&raw.board, color, mode, false),
                other => File::from_char(other as char).expect("the parser accepts only castling letters"),
            };
            if rights.has(color, file) {
                errors.push(FenSyntaxError {
                    field: FenField::Castling,
                    span,
                    found: (letter as char).to_string(),
                    expected: "each castling right once".to_owned(),
                });
                continue;
            }
            rights.add(color, file);
            if !matches!(letter.to_ascii_lowercase(), b'k' | b'q') {
                let canonical = position::castling_letter(&raw.board, color, file, mode);
                if canonical.to_ascii_lowercase() != letter.to_ascii_lowercase() as char {
                    lints.push(FenLint {
                        kind: FenLintKind::ShredderCastling { found: letter as char, canonical },
                        field: FenField::Castling,
                        span: span.clone(),
                    });
                }
            }
            castling_spans.push((color, file, span));
        }
        if !errors.is_empty() {
            return Err(ParseFenError { errors });
        }
        let written = castling_spans.iter().map(|(c, f, _)| (*c, *f));
        if !written.eq(canonical_castling_order(rights))
            && let Some(span) = raw.spans[2].clone()
        {
            let canonical = castling_text(&raw.board, rights, mode);
            lints.push(FenLint { kind: FenLintKind::CastlingOrder { canonical }, field: FenField::Castling, span });
        }
        lints.sort_by_key(|lint| (lint.span.start, lint.span.end));
        Ok(Fen {
            setup: Setup {
                board: raw.board,
                turn: raw.turn,
                castling_rights: rights,
                ep_square: raw.ep_square,
                halfmoves: raw.halfmoves,
                fullmoves: raw.fullmoves,
            },
            castling_mode: mode,
            lints,
            spans: FenSpans { fields: raw.spans, castling: castling_spans },
        })
    }
}

/// The file a `K`/`Q` letter names: the h/a file in standard chess; in
/// Chess960 (X-FEN) the outermost rook on that side of the king, else h/a.
fn castling_file(board: &Board, color: Color, mode: CastlingMode, king_side: bool) -> File {
    let fallback = if king_side { File::H } else { File::A };
    if mode == CastlingMode::Standard {
        return fallback;
    }
    let back = Rank::First.relative_to(color);
    let Some(king) = board.by_piece(Piece { color, role: Role::King }).single_square().filter(|k| k.rank() == back)
    else {
        return fallback;
    };
    let rooks = board.by_piece(Piece { color, role: Role::Rook }) & Bitboard::from_rank(back);
    let outer = if king_side {
        rooks.into_iter().rev().find(|r| r.file() > king.file())
    } else {
        rooks.into_iter().find(|r| r.file() < king.file())
    };
    outer.map_or(fallback, Square::file)
}

impl core::str::FromStr for Fen {
    type Err = ParseFenError;

    /// Parses FEN text in standard castling mode.
    fn from_str(s: &str) -> Result<Fen, ParseFenError> {
        Fen::parse(s, CastlingMode::Standard)
    }
}

// ---- The grammar -------------------------------------------------------------

/// A FEN record that is syntactically valid, with where each part was written.
/// Nothing here is checked for legality.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RawFen {
    /// The pieces.
    pub board: Board,
    /// The side to move (`w` when the field was missing).
    pub turn: Color,
    /// The span of the castling letters (one byte each), empty for `-` or a
    /// missing field. Duplicates are kept: judging them is the caller's job.
    pub castling: Range<usize>,
    /// The en passant square, if one was written.
    pub ep_square: Option<Square>,
    /// The halfmove clock (0 when missing).
    pub halfmoves: u32,
    /// The fullmove number (1 when missing; 0 is accepted with a lint).
    pub fullmoves: u32,
    /// The byte span of each of the six fields; `None` for a missing field.
    pub spans: [Option<Range<usize>>; 6],
    /// Lint findings, in input order.
    pub lints: Vec<FenLint>,
}

/// Whether `input` is FEN as `grammar/fen.ebnf` defines it, ignoring lints
/// and legality: for the cross-check of `grammar/fen.regex` against the
/// parser (`grammar_tests`).
#[cfg(test)]
pub(super) fn syntax_ok(input: &[u8]) -> bool {
    fen(input).is_ok()
}

type Res<'a, O> = IResult<&'a [u8], O>;

/// One rank's squares, file a first.
type Row = [Option<Piece>; 8];

// ---- What the diagnostics say ----------------------------------------------

const EXPECTED_PLACEMENT: &str = "a piece placement: 8 ranks separated by `/`";
const EXPECTED_TURN: &str = "`w` or `b`";
const EXPECTED_CASTLING: &str = "castling letters from KQkq and A-H/a-h, or `-`";
const EXPECTED_EN_PASSANT: &str = "a square such as e3, or `-`";
const EXPECTED_NUMBER: &str = "a decimal number without sign or leading zeros";
const EXPECTED_SMALL_NUMBER: &str = "a number at most 4294967295";
const EXPECTED_SEPARATOR: &str = "spaces, tabs or `_` between fields";
const EXPECTED_LEADING: &str = "the placement field (`_` only separates fields)";
const EXPECTED_TRAILING: &str = "another field, or the end of input (`_` only separates fields)";
const EXPECTED_END: &str = "end of input after the fullmove number";
const EXPECTED_NOT_THREE_CHECK: &str =
    "a move counter (`3+3` or `+1+2` counts checks in three-check, a variant sanfen does not support)";

/// Whether a field is a three-check counter: `3+3` (checks left) or `+1+2` (checks given).
fn is_check_counter(text: &[u8]) -> bool {
    let text = text.strip_prefix(b"+").unwrap_or(text);
    match text.iter().position(|&b| b == b'+') {
        Some(plus) => {
            let (left, right) = (&text[..plus], &text[plus + 1..]);
            !left.is_empty() && !right.is_empty() && left.iter().chain(right).all(u8::is_ascii_digit)
        }
        None => false,
    }
}

// ---- The record --------------------------------------------------------------

/// Parses a FEN record: one to six fields, the missing ones defaulted.
///
/// ```text
/// fen ::= whitespace* placement
///         ( separator turn
///           ( separator castling
///             ( separator en_passant
///               ( separator halfmoves
///                 ( separator fullmoves )? )? )? )? )?
///         whitespace*
/// ```
///
/// # Errors
///
/// Every syntax problem, in input order. Where they point:
///
/// - a bad rank: the rank's text, the rank named in `expected`; too many
///   ranks: from the eighth `/` to the end of the placement; too few: the
///   empty span at its end;
/// - bad castling letters: each run of them; `-` mixed with anything: the field;
/// - any other bad field: the field;
/// - a run of blanks that is no `separator` between two fields, or that holds
///   `_` before the first field or after the last one: the run;
/// - a seventh field: from it to the end, trailing whitespace left out;
/// - nothing but whitespace: the empty span at the end.
fn fen(input: &[u8]) -> Result<RawFen, Vec<FenSyntaxError>> {
    let mut report = Report { input, errors: Vec::new(), lints: Vec::new() };
    let mut raw = RawFen {
        board: Board::empty(),
        turn: Color::White,
        castling: 0..0,
        ep_square: None,
        halfmoves: 0,
        fullmoves: 1,
        spans: Default::default(),
        lints: Vec::new(),
    };
    let mut given = 0;
    let mut rest = input;
    let trailing = loop {
        // A run of blanks: before the first field, between two, or at the end.
        let (after, blank) = blanks(rest);
        let start = input.len() - rest.len();
        let span = start..start + blank.len();
        rest = after;
        if rest.is_empty() {
            break span;
        }
        if given == 0 {
            if !blank.is_empty() {
                if is_whitespace_run(blank) {
                    report.lint(FenLintKind::LeadingWhitespace, FenField::Layout, span);
                } else {
                    report.error(FenField::Layout, span, EXPECTED_LEADING.into());
                }
            }
        } else if given == 6 {
            let end = input.len() - input.iter().rev().take_while(|&&b| is_whitespace_byte(b)).count();
            let extra = &input[span.end..end.max(span.end)];
            let first = extra.split(|&b| is_blank_byte(b)).next().unwrap_or_default();
            let expected = if is_check_counter(first) { EXPECTED_NOT_THREE_CHECK } else { EXPECTED_END };
            report.error(FenField::Layout, span.end..end.max(span.end), expected.into());
            break span.end..span.end;
        } else if all_consuming(separator).parse(blank).is_err() {
            report.error(FenField::Layout, span, EXPECTED_SEPARATOR.into());
        } else if blank != b" " {
            let found = String::from_utf8_lossy(blank).into_owned();
            report.lint(FenLintKind::Separator { found }, FenField::Layout, span);
        }
        // `rest` starts with a byte that is not blank, so a field follows.
        let start = input.len() - rest.len();
        if given == 0 {
            // the common case: a good placement, parsed where it stands
            // (the board is filled in place: it is a few hundred bytes;
            // when this fails, `Report::field` starts it again)
            if let Ok((after, ())) = placement(rest, &mut raw.board)
                && after.first().is_none_or(|&b| is_blank_byte(b))
            {
                raw.spans[0] = Some(start..start + (rest.len() - after.len()));
                rest = after;
                given = 1;
                continue;
            }
        }
        let Ok((after, text)) = field_text(rest) else { break start..start };
        let span = start..start + text.len();
        rest = after;
        raw.spans[given] = Some(span.clone());
        report.field(given, text, span, &mut raw);
        given += 1;
    };

    if given == 0 {
        if trailing.is_empty() || is_whitespace_run(&input[trailing.clone()]) {
            report.error(FenField::Placement, trailing.end..trailing.end, EXPECTED_PLACEMENT.into());
        } else {
            report.error(FenField::Layout, trailing, EXPECTED_LEADING.into());
        }
    } else {
        if given < 6 {
            let end = trailing.start;
            report.lint(FenLintKind::MissingFields { given }, FenField::Layout, end..end);
        }
        if !trailing.is_empty() {
            if is_whitespace_run(&input[trailing.clone()]) {
                report.lint(FenLintKind::TrailingWhitespace, FenField::Layout, trailing);
            } else {
                let expected = if given < 6 { EXPECTED_TRAILING } else { EXPECTED_END };
                report.error(FenField::Layout, trailing, expected.into());
            }
        }
    }

    if report.errors.is_empty() {
        raw.lints = report.lints;
        Ok(raw)
    } else {
        Err(report.errors)
    }
}

/// Bytes that end a field: whitespace or a separator.
const fn is_blank_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'_')
}

const fn is_whitespace_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// A run of blank bytes, possibly empty: where `whitespace*` or `separator`
/// is expected.
fn blanks(input: &[u8]) -> (&[u8], &[u8]) {
    let res: Res<'_, &[u8]> = take_while(is_blank_byte)(input);
    res.unwrap_or((input, &input[..0]))
}

/// The text of one field: everything up to the next blank byte.
fn field_text(input: &[u8]) -> Res<'_, &[u8]> {
    take_till1(is_blank_byte)(input)
}

fn is_whitespace_run(input: &[u8]) -> bool {
    all_consuming(many0_count(whitespace)).parse(input).is_ok()
}

// whitespace ::= [#x20#x9#xD#xA]
fn whitespace(input: &[u8]) -> Res<'_, char> {
    map(verify(byte, |&b| is_whitespace_byte(b)), char::from).parse(input)
}

// separator ::= [#x20#x9_]+
fn separator(input: &[u8]) -> Res<'_, &[u8]> {
    recognize(many1(verify(byte, |&b| matches!(b, b' ' | b'\t' | b'_')))).parse(input)
}

// ---- Field 1: piece placement ----------------------------------------------

// placement ::= rank "/" rank "/" rank "/" rank "/" rank "/" rank "/" rank "/" rank
//
// The pieces are put on `board`, which starts empty.
fn placement<'a>(input: &'a [u8], board: &mut Board) -> Res<'a, ()> {
    let mut rest = input;
    for (index, rank_) in Rank::ALL.into_iter().rev().enumerate() {
        if index > 0 {
            (rest, _) = tag("/").parse(rest)?;
        }
        (rest, _) = squares_of_rank(rest, |file, piece| {
            board.put_on_empty(Square::from_coords(File::ALL[file], rank_), piece);
        })?;
    }
    Ok((rest, ()))
}

// rank ::= squares8
fn rank(input: &[u8]) -> Res<'_, Row> {
    let mut row: Row = [None; 8];
    let (rest, ()) = squares_of_rank(input, |file, piece| row[file] = Some(piece))?;
    Ok((rest, row))
}

// The sixteen rules below are the states of one loop, `left` being N:
//
// squaresN ::= after_gapN | k after_gap(N-k) for 0 < k < N | "N"
//   (squares8 ::= after_gap8 | "1" after_gap7 | ... | "7" after_gap1 | "8", down to
//    squares1 ::= after_gap1 | "1")
// after_gapN ::= piece_letter squares(N-1)
//   (after_gap1 ::= piece_letter)
//
// In state squaresN a piece letter or a digit k <= N may come; in state
// after_gapN (right after a digit) only a piece letter. The rank ends when no
// square is left. `put` receives each piece with its file index (0 = a).
#[inline]
fn squares_of_rank(input: &[u8], mut put: impl FnMut(usize, Piece)) -> Res<'_, ()> {
    let mut left = 8usize;
    let mut after_gap = false;
    let mut at = 0;
    while left > 0 {
        let Some(&byte) = input.get(at) else { return Err(fail(&input[at..])) };
        if let Ok((_, piece)) = piece_letter(&input[at..]) {
            put(8 - left, piece);
            left -= 1;
            after_gap = false;
        } else {
            let gap = usize::from(byte.wrapping_sub(b'0'));
            if after_gap || gap == 0 || gap > left {
                return Err(fail(&input[at..]));
            }
            left -= gap;
            after_gap = true;
        }
        at += 1;
    }
    Ok((&input[at..], ()))
}

/// The piece of each byte that is a `piece_letter`.
const PIECE_LETTERS: [Option<Piece>; 256] = {
    let mut table = [None; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = Piece::from_char(byte as u8 as char);
        byte += 1;
    }
    table
};

/// A nom error at `input`, for the hand-driven rules.
fn fail(input: &[u8]) -> nom::Err<nom::error::Error<&[u8]>> {
    nom::Err::Error(nom::error::Error::new(input, nom::error::ErrorKind::Verify))
}

// piece_letter ::= [PNBRQKpnbrqk]
#[inline]
fn piece_letter(input: &[u8]) -> Res<'_, Piece> {
    map_opt(byte, |b| PIECE_LETTERS[usize::from(b)]).parse(input)
}

/// Any one byte.
fn byte(input: &[u8]) -> Res<'_, u8> {
    match input.split_first() {
        Some((&b, rest)) => Ok((rest, b)),
        None => Err(fail(input)),
    }
}

// ---- Field 2: side to move -----------------------------------------------------

// turn ::= "w" | "b"
fn turn(input: &[u8]) -> Res<'_, Color> {
    alt((value(Color::White, tag("w")), value(Color::Black, tag("b")))).parse(input)
}

// ---- Field 3: castling rights ----------------------------------------------

// castling ::= "-" | castling_letter+
fn castling(input: &[u8]) -> Res<'_, &[u8]> {
    alt((value(&input[..0], tag("-")), recognize(many1_count(castling_letter)))).parse(input)
}

// castling_letter ::= [KQkqA-Ha-h]
fn castling_letter(input: &[u8]) -> Res<'_, u8> {
    verify(byte, |&b| is_castling_letter(char::from(b))).parse(input)
}

const fn is_castling_letter(c: char) -> bool {
    matches!(c, 'K' | 'Q' | 'k' | 'q' | 'A'..='H' | 'a'..='h')
}

// ---- Field 4: en passant target square ---------------------------------------

// en_passant ::= "-" | square
fn en_passant(input: &[u8]) -> Res<'_, Option<Square>> {
    alt((value(None, tag("-")), map(square, Some))).parse(input)
}

// square ::= file rank_digit
fn square(input: &[u8]) -> Res<'_, Square> {
    map((file, rank_digit), |(file, rank)| Square::from_coords(file, rank)).parse(input)
}

// file ::= [a-h]
fn file(input: &[u8]) -> Res<'_, File> {
    map_opt(byte, |b| File::from_char(char::from(b))).parse(input)
}

// rank_digit ::= [1-8]
fn rank_digit(input: &[u8]) -> Res<'_, Rank> {
    map_opt(byte, |b| Rank::from_char(char::from(b))).parse(input)
}

// ---- Fields 5 and 6: move counters -------------------------------------------

// halfmoves ::= number
fn halfmoves(input: &[u8]) -> Res<'_, u32> {
    number(input)
}

// fullmoves ::= number
fn fullmoves(input: &[u8]) -> Res<'_, u32> {
    number(input)
}

// number ::= "0" | [1-9] digit*
//            /* Constraint: the value is at most 4294967295 (fits in a u32). */
fn number(input: &[u8]) -> Res<'_, u32> {
    map_opt(
        recognize(alt((tag("0"), recognize((verify(digit, |&d| d != 0), many0_count(digit)))))),
        |digits: &[u8]| {
            digits.iter().try_fold(0u32, |value, &d| value.checked_mul(10)?.checked_add(u32::from(d - b'0')))
        },
    )
    .parse(input)
}

// digit ::= [0-9]
fn digit(input: &[u8]) -> Res<'_, usize> {
    map_opt(byte, |b| b.is_ascii_digit().then(|| usize::from(b - b'0'))).parse(input)
}

// ---- Diagnostics -----------------------------------------------------------------

/// Problems and lint findings collected while parsing one record.
struct Report<'a> {
    input: &'a [u8],
    errors: Vec<FenSyntaxError>,
    lints: Vec<FenLint>,
}

impl Report<'_> {
    fn error(&mut self, field: FenField, span: Range<usize>, expected: String) {
        // a field of megabytes is quoted in part: the span says where it is
        let found = crate::pgn::validate::shortened_lossy(&self.input[span.clone()]);
        self.errors.push(FenSyntaxError { field, span, found, expected });
    }

    fn lint(&mut self, kind: FenLintKind, field: FenField, span: Range<usize>) {
        self.lints.push(FenLint { kind, field, span });
    }

    /// Parses field number `index` (0 = placement), `text` at `span`, into
    /// `raw`; or reports what is wrong with it.
    fn field(&mut self, index: usize, text: &[u8], span: Range<usize>, raw: &mut RawFen) {
        match index {
            0 => {
                raw.board = Board::empty();
                match placement(text, &mut raw.board) {
                    Ok((&[], ())) => {}
                    _ => self.placement_errors(text, span.start),
                }
            }
            1 => match all_consuming(turn).parse(text) {
                Ok((_, turn)) => raw.turn = turn,
                Err(_) => self.error(FenField::Turn, span, EXPECTED_TURN.into()),
            },
            2 => match all_consuming(castling).parse(text) {
                Ok((_, letters)) => raw.castling = span.start..span.start + letters.len(),
                Err(_) => self.castling_errors(text, span),
            },
            3 => match all_consuming(en_passant).parse(text) {
                Ok((_, ep_square)) => raw.ep_square = ep_square,
                Err(_) => self.error(FenField::EnPassant, span, EXPECTED_EN_PASSANT.into()),
            },
            4 => match all_consuming(halfmoves).parse(text) {
                Ok((_, halfmoves)) => raw.halfmoves = halfmoves,
                Err(_) => self.error(FenField::Halfmoves, span, number_expected(text).into()),
            },
            _ => match all_consuming(fullmoves).parse(text) {
                Ok((_, fullmoves)) => {
                    raw.fullmoves = fullmoves;
                    if fullmoves == 0 {
                        self.lint(FenLintKind::FullmoveZero, FenField::Fullmoves, span);
                    }
                }
                Err(_) => self.error(FenField::Fullmoves, span, number_expected(text).into()),
            },
        }
    }

    /// One error per bad rank (span: the rank's text), then one if there are
    /// not exactly eight ranks.
    fn placement_errors(&mut self, text: &[u8], offset: usize) {
        let mut start = offset;
        let mut ranks = 0;
        for rank_text in text.split(|&b| b == b'/') {
            if ranks == 8 {
                // `start - 1` is the eighth `/`: the text from there on is too much.
                let extra = text.split(|&b| b == b'/').count();
                self.error(
                    FenField::Placement,
                    start - 1..offset + text.len(),
                    format!("8 ranks separated by `/`, not {extra}"),
                );
                return;
            }
            if all_consuming(rank).parse(rank_text).is_err() {
                let expected = rank_expected(8 - ranks, rank_text);
                self.error(FenField::Placement, start..start + rank_text.len(), expected);
            }
            start += rank_text.len() + 1;
            ranks += 1;
        }
        if ranks < 8 {
            let end = offset + text.len();
            self.error(FenField::Placement, end..end, format!("8 ranks separated by `/`, not {ranks}"));
        }
    }

    /// A castling field that mixes `-` with anything is wrong as a whole;
    /// otherwise each run of bytes that are not castling letters is an error.
    fn castling_errors(&mut self, text: &[u8], span: Range<usize>) {
        if text.contains(&b'-') {
            self.error(FenField::Castling, span, EXPECTED_CASTLING.into());
            return;
        }
        let mut at = 0;
        while at < text.len() {
            let good = text[at..].iter().take_while(|&&b| is_castling_letter(char::from(b))).count();
            at += good;
            let bad = text[at..].iter().take_while(|&&b| !is_castling_letter(char::from(b))).count();
            if bad > 0 {
                let start = span.start + at;
                self.error(FenField::Castling, start..start + bad, EXPECTED_CASTLING.into());
            }
            at += bad;
        }
    }
}

/// What is wrong with a rank that is not `rank`, said as what was expected:
/// the first character that is neither a piece letter nor a digit 1-8, else
/// the first digits side by side, else the number of squares.
fn rank_expected(number: usize, text: &[u8]) -> String {
    let is_gap = |b: u8| (b'1'..=b'8').contains(&b);
    let is_piece = |b: u8| Piece::from_char(char::from(b)).is_some();
    if text.contains(&b'[') || text.contains(&b'~') {
        return format!(
            "piece letters and digits (rank {number} has {}; that is crazyhouse, a variant sanfen does not support)",
            if text.contains(&b'[') { "a pocket `[...]`" } else { "a promoted-piece mark `~`" }
        );
    }
    if let Some(at) = text.iter().position(|&b| !is_gap(b) && !is_piece(b)) {
        // The whole character, even if it takes several bytes; a control
        // or invisible one escaped (`\u{1b}`), as the found text shows it
        let bad = String::from_utf8_lossy(&text[at..text.len().min(at + 4)]).chars().next().unwrap_or('?');
        let bad = if bad.escape_debug().len() == 1 || matches!(bad, '\'' | '"' | '\\') {
            bad.to_string()
        } else {
            bad.escape_debug().to_string()
        };
        return format!("piece letters from PNBRQKpnbrqk and digits 1-8 (rank {number} has `{bad}`)");
    }
    if let Some(at) = text.windows(2).position(|pair| is_gap(pair[0]) && is_gap(pair[1])) {
        let run = text[at..].iter().take_while(|&&b| is_gap(b)).count();
        let digits = String::from_utf8_lossy(&text[at..at + run]);
        return format!("no two digits in a row (rank {number} has `{digits}`)");
    }
    let count =
        text.iter().fold(0usize, |count, &b| count.saturating_add(if is_gap(b) { usize::from(b - b'0') } else { 1 }));
    let plural = if count == 1 { "" } else { "s" };
    format!("8 squares (rank {number} has {count} square{plural})")
}

/// Why a move counter is not a `number`: too large, or not written right.
fn number_expected(text: &[u8]) -> &'static str {
    if is_check_counter(text) {
        return EXPECTED_NOT_THREE_CHECK;
    }
    let well_formed = text.iter().all(u8::is_ascii_digit) && (text == b"0" || text.first() != Some(&b'0'));
    if well_formed && !text.is_empty() { EXPECTED_SMALL_NUMBER } else { EXPECTED_NUMBER }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    fn lint(kind: FenLintKind, field: FenField, span: Range<usize>) -> FenLint {
        FenLint { kind, field, span }
    }

    fn error(field: FenField, span: Range<usize>, found: &str, expected: &str) -> FenSyntaxError {
        FenSyntaxError { field, span, found: found.into(), expected: expected.into() }
    }

    fn sep(found: &str) -> FenLintKind {
        FenLintKind::Separator { found: found.into() }
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn start_position() {
        let raw = fen(START.as_bytes()).unwrap();
        assert_eq!(raw.board, Board::new());
        assert_eq!(raw.turn, Color::White);
        assert_eq!(raw.castling, 46..50);
        assert_eq!(raw.ep_square, None);
        assert_eq!((raw.halfmoves, raw.fullmoves), (0, 1));
        assert_eq!(raw.spans, [Some(0..43), Some(44..45), Some(46..50), Some(51..52), Some(53..54), Some(55..56)]);
        assert_eq!(raw.lints, []);
    }

    #[test]
    fn values() {
        let empty = Board::empty();
        let mut kings = Board::empty();
        kings.set_piece_at(Square::E1, Piece { color: Color::White, role: Role::King });
        kings.set_piece_at(Square::H8, Piece { color: Color::Black, role: Role::King });
        kings.set_piece_at(Square::A4, Piece { color: Color::Black, role: Role::Pawn });
        // input, board, turn, castling letters, en passant square, halfmoves, fullmoves
        type Case<'a> = (&'a str, &'a Board, Color, &'a [u8], Option<Square>, u32, u32);
        let cases: &[Case<'_>] = &[
            ("8/8/8/8/8/8/8/8 w - - 0 1", &empty, Color::White, b"", None, 0, 1),
            ("7k/8/8/8/p7/8/8/4K3 b Hh a3 12 4294967295", &kings, Color::Black, b"Hh", Some(Square::A3), 12, u32::MAX),
            (
                "7k/8/8/8/p7/8/8/4K3 b kKqQ h6 4294967295 30",
                &kings,
                Color::Black,
                b"kKqQ",
                Some(Square::H6),
                u32::MAX,
                30,
            ),
            // duplicates are the caller's business
            ("8/8/8/8/8/8/8/8 b KK", &empty, Color::Black, b"KK", None, 0, 1),
        ];
        for &(input, board, turn, letters, ep_square, halfmoves, fullmoves) in cases {
            let raw = fen(input.as_bytes()).unwrap();
            assert_eq!(&raw.board, board, "{input}");
            assert_eq!(raw.turn, turn, "{input}");
            assert_eq!(&input.as_bytes()[raw.castling.clone()], letters, "{input}");
            assert_eq!(raw.ep_square, ep_square, "{input}");
            assert_eq!((raw.halfmoves, raw.fullmoves), (halfmoves, fullmoves), "{input}");
        }
    }

    #[test]
    fn rank_shapes() {
        // `rank` alone: the leftover input and the squares, file a first, `.` empty
        let cases: &[(&str, Option<(&str, &str)>)] = &[
            ("8", Some(("", "........"))),
            ("rnbqkbnr", Some(("", "rnbqkbnr"))),
            ("1p1p1p1p", Some(("", ".p.p.p.p"))),
            ("p6P/", Some(("/", "p......P"))),
            ("4K3 w", Some((" w", "....K..."))),
            ("ppppppppp", Some(("p", "pppppppp"))),
            ("7", None),
            ("44", None),
            ("9", None),
            ("0p7", None),
            ("ppppppp", None),
            ("p8", None),
            ("", None),
        ];
        for &(input, expected) in cases {
            let got = rank(input.as_bytes()).ok().map(|(rest, row)| {
                let squares: String = row.iter().map(|square| square.map_or('.', Piece::char)).collect();
                (rest, squares)
            });
            let expected = expected.map(|(rest, squares)| (rest.as_bytes(), squares.to_string()));
            assert_eq!(got, expected, "{input:?}");
        }
    }

    #[test]
    fn rules() {
        assert_eq!(turn(b"w -"), Ok((&b" -"[..], Color::White)));
        assert_eq!(turn(b"b"), Ok((&b""[..], Color::Black)));
        assert!(turn(b"W").is_err());
        assert_eq!(castling(b"KQkq -"), Ok((&b" -"[..], &b"KQkq"[..])));
        assert_eq!(castling(b"-KQ"), Ok((&b"KQ"[..], &b""[..])));
        assert_eq!(castling(b"AHah"), Ok((&b""[..], &b"AHah"[..])));
        assert!(castling(b"x").is_err());
        assert_eq!(en_passant(b"e3 0"), Ok((&b" 0"[..], Some(Square::E3))));
        assert_eq!(en_passant(b"-"), Ok((&b""[..], None)));
        assert!(en_passant(b"e9").is_err());
        assert_eq!(square(b"h8"), Ok((&b""[..], Square::H8)));
        assert_eq!(number(b"0"), Ok((&b""[..], 0)));
        assert_eq!(number(b"01"), Ok((&b"1"[..], 0)));
        assert_eq!(number(b"4294967295 "), Ok((&b" "[..], u32::MAX)));
        assert!(number(b"4294967296").is_err());
        assert!(number(b"-1").is_err());
        assert!(number(b"").is_err());
        assert_eq!(separator(b" \t_x"), Ok((&b"x"[..], &b" \t_"[..])));
        assert!(separator(b"\n").is_err());
        assert_eq!(whitespace(b"\r"), Ok((&b""[..], '\r')));
        assert!(whitespace(b"_").is_err());
    }

    #[test]
    fn lints() {
        use FenField::{Fullmoves, Layout};
        use FenLintKind::{FullmoveZero, LeadingWhitespace, MissingFields, TrailingWhitespace};
        let epd = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        let cases: &[(&str, &[FenLint])] = &[
            (START, &[]),
            (" \t8/8/8/8/8/8/8/8 w - - 0 1", &[lint(LeadingWhitespace, Layout, 0..2)]),
            ("8/8/8/8/8/8/8/8 w - - 0 1\r\n", &[lint(TrailingWhitespace, Layout, 25..27)]),
            (
                "8/8/8/8/8/8/8/8  w\t-_-_ \t0 1",
                &[
                    lint(sep("  "), Layout, 15..17),
                    lint(sep("\t"), Layout, 18..19),
                    lint(sep("_"), Layout, 20..21),
                    lint(sep("_ \t"), Layout, 22..25),
                ],
            ),
            (epd, &[lint(MissingFields { given: 4 }, Layout, 52..52)]),
            ("8/8/8/8/8/8/8/8", &[lint(MissingFields { given: 1 }, Layout, 15..15)]),
            (
                "8/8/8/8/8/8/8/8 b \n",
                &[lint(MissingFields { given: 2 }, Layout, 17..17), lint(TrailingWhitespace, Layout, 17..19)],
            ),
            ("8/8/8/8/8/8/8/8 w - - 0 0", &[lint(FullmoveZero, Fullmoves, 24..25)]),
            (
                "\n8/8/8/8/8/8/8/8__w - - 7 0 ",
                &[
                    lint(LeadingWhitespace, Layout, 0..1),
                    lint(sep("__"), Layout, 16..18),
                    lint(FullmoveZero, Fullmoves, 26..27),
                    lint(TrailingWhitespace, Layout, 27..28),
                ],
            ),
        ];
        for &(input, expected) in cases {
            let raw = fen(input.as_bytes()).unwrap_or_else(|e| panic!("{input:?}: {e:?}"));
            assert_eq!(raw.lints, expected, "{input:?}");
        }
    }

    #[test]
    fn missing_fields_take_defaults() {
        let raw = fen(b"8/8/8/8/8/8/8/8 b KQ").unwrap();
        assert_eq!((raw.turn, raw.ep_square, raw.halfmoves, raw.fullmoves), (Color::Black, None, 0, 1));
        assert_eq!(raw.castling, 18..20);
        assert_eq!(raw.spans, [Some(0..15), Some(16..17), Some(18..20), None, None, None]);
        let raw = fen(b"8/8/8/8/8/8/8/8").unwrap();
        assert_eq!((raw.turn, raw.castling, raw.ep_square), (Color::White, 0..0, None));
        assert_eq!(raw.spans, [Some(0..15), None, None, None, None, None]);
    }

    #[test]
    fn errors() {
        use FenField::*;
        let rank_letters =
            |n: usize, bad: &str| format!("piece letters from PNBRQKpnbrqk and digits 1-8 (rank {n} has `{bad}`)");
        let cases: Vec<(&str, Vec<FenSyntaxError>)> = vec![
            // the example of the issue: two problems at once (the `x` is byte 47:
            // rank 7 is one byte short of the start position's)
            (
                "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1",
                vec![
                    error(Placement, 9..16, "ppppppp", "8 squares (rank 7 has 7 squares)"),
                    error(Castling, 47..48, "x", EXPECTED_CASTLING),
                ],
            ),
            (
                "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPPP/RNBQKBNR",
                vec![
                    error(Placement, 9..16, "ppppppp", "8 squares (rank 7 has 7 squares)"),
                    error(Placement, 25..34, "PPPPPPPPP", "8 squares (rank 2 has 9 squares)"),
                ],
            ),
            ("8/8/8/8/8/8/8/8/8 w - - 0 1", vec![error(Placement, 15..17, "/8", "8 ranks separated by `/`, not 9")]),
            ("8/8/8/8/8/8/8/8/8/ w", vec![error(Placement, 15..18, "/8/", "8 ranks separated by `/`, not 10")]),
            ("8/8/8/8/8/8/8 w - - 0 1", vec![error(Placement, 13..13, "", "8 ranks separated by `/`, not 7")]),
            (
                "8/8/8/8/8/7/8",
                vec![
                    error(Placement, 10..11, "7", "8 squares (rank 3 has 7 squares)"),
                    error(Placement, 13..13, "", "8 ranks separated by `/`, not 7"),
                ],
            ),
            ("44/8/8/8/8/8/8/8", vec![error(Placement, 0..2, "44", "no two digits in a row (rank 8 has `44`)")]),
            ("8/p16/8/8/8/8/8/8", vec![error(Placement, 2..5, "p16", "no two digits in a row (rank 7 has `16`)")]),
            ("9/8/8/8/8/8/8/8", vec![error(Placement, 0..1, "9", &rank_letters(8, "9"))]),
            ("8/8/8/8/8/8/8/RNBQKBNX", vec![error(Placement, 14..22, "RNBQKBNX", &rank_letters(1, "X"))]),
            ("8/8/8/8/8/8/8/p6é", vec![error(Placement, 14..18, "p6é", &rank_letters(1, "é"))]),
            ("8/8//8/8/8/8/8", vec![error(Placement, 4..4, "", "8 squares (rank 6 has 0 squares)")]),
            ("8/8/8/8/8/8/8/1", vec![error(Placement, 14..15, "1", "8 squares (rank 1 has 1 square)")]),
            ("8/8/8/8/8/8/8/8 W", vec![error(Turn, 16..17, "W", EXPECTED_TURN)]),
            ("8/8/8/8/8/8/8/8 white", vec![error(Turn, 16..21, "white", EXPECTED_TURN)]),
            ("8/8/8/8/8/8/8/8 w KQ-", vec![error(Castling, 18..21, "KQ-", EXPECTED_CASTLING)]),
            ("8/8/8/8/8/8/8/8 w --", vec![error(Castling, 18..20, "--", EXPECTED_CASTLING)]),
            (
                "8/8/8/8/8/8/8/8 w xKyzQ",
                vec![error(Castling, 18..19, "x", EXPECTED_CASTLING), error(Castling, 20..22, "yz", EXPECTED_CASTLING)],
            ),
            ("8/8/8/8/8/8/8/8 w Kä", vec![error(Castling, 19..21, "ä", EXPECTED_CASTLING)]),
            ("8/8/8/8/8/8/8/8 w - e9", vec![error(EnPassant, 20..22, "e9", EXPECTED_EN_PASSANT)]),
            ("8/8/8/8/8/8/8/8 w - E3", vec![error(EnPassant, 20..22, "E3", EXPECTED_EN_PASSANT)]),
            ("8/8/8/8/8/8/8/8 w - - -1 1", vec![error(Halfmoves, 22..24, "-1", EXPECTED_NUMBER)]),
            ("8/8/8/8/8/8/8/8 w - - 01 1", vec![error(Halfmoves, 22..24, "01", EXPECTED_NUMBER)]),
            (
                "8/8/8/8/8/8/8/8 w - - 99999999999 1",
                vec![error(Halfmoves, 22..33, "99999999999", EXPECTED_SMALL_NUMBER)],
            ),
            ("8/8/8/8/8/8/8/8 w - - 4294967296 1", vec![error(Halfmoves, 22..32, "4294967296", EXPECTED_SMALL_NUMBER)]),
            ("8/8/8/8/8/8/8/8 w - - 0 +1", vec![error(Fullmoves, 24..26, "+1", EXPECTED_NUMBER)]),
            ("8/8/8/8/8/8/8/8 w - - 0 00", vec![error(Fullmoves, 24..26, "00", EXPECTED_NUMBER)]),
            ("8/8/8/8/8/8/8/8 w - - 0 1 extra fields", vec![error(Layout, 26..38, "extra fields", EXPECTED_END)]),
            ("8/8/8/8/8/8/8/8 w - - 0 1 x_ \n", vec![error(Layout, 26..28, "x_", EXPECTED_END)]),
            ("8/8/8/8/8/8/8/8 w - - 0 1_", vec![error(Layout, 25..26, "_", EXPECTED_END)]),
            ("8/8/8/8/8/8/8/8 w_ ", vec![error(Layout, 17..19, "_ ", EXPECTED_TRAILING)]),
            ("_8/8/8/8/8/8/8/8", vec![error(Layout, 0..1, "_", EXPECTED_LEADING)]),
            ("8/8/8/8/8/8/8/8\r\nw", vec![error(Layout, 15..17, "\r\n", EXPECTED_SEPARATOR)]),
            ("", vec![error(Placement, 0..0, "", EXPECTED_PLACEMENT)]),
            (" \t\r\n", vec![error(Placement, 4..4, "", EXPECTED_PLACEMENT)]),
            (" _ ", vec![error(Layout, 0..3, " _ ", EXPECTED_LEADING)]),
            // every field wrong
            (
                "_8/8/8/8/8/8/8/9 x KQkq1 e0 -0 01 7",
                vec![
                    error(Layout, 0..1, "_", EXPECTED_LEADING),
                    error(Placement, 15..16, "9", &rank_letters(1, "9")),
                    error(Turn, 17..18, "x", EXPECTED_TURN),
                    error(Castling, 23..24, "1", EXPECTED_CASTLING),
                    error(EnPassant, 25..27, "e0", EXPECTED_EN_PASSANT),
                    error(Halfmoves, 28..30, "-0", EXPECTED_NUMBER),
                    error(Fullmoves, 31..33, "01", EXPECTED_NUMBER),
                    error(Layout, 34..35, "7", EXPECTED_END),
                ],
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(fen(input.as_bytes()).map(|raw| raw.lints), Err(expected), "{input:?}");
        }
    }

    #[test]
    fn variants_are_named() {
        let pockets = fen(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1").unwrap_err();
        assert_eq!(
            pockets[0].expected,
            "piece letters and digits (rank 1 has a pocket `[...]`; that is crazyhouse, a variant sanfen does not support)"
        );
        let promoted = fen(b"4k3/1Q~6/8/8/4b3/8/Kpp5/8 b - - 0 1").unwrap_err();
        assert!(promoted[0].expected.contains("promoted-piece mark `~`"), "{promoted:?}");
        for input in [&b"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1+1"[..], b"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 +2+0"] {
            let errors = fen(input).unwrap_err();
            assert_eq!(errors.len(), 1, "{errors:?}");
            assert_eq!(errors[0].expected, EXPECTED_NOT_THREE_CHECK);
        }
        assert!(!is_check_counter(b"+"));
        assert!(!is_check_counter(b"1+"));
        assert!(is_check_counter(b"3+3"));
    }

    #[test]
    fn a_control_or_bidirectional_character_is_named_escaped() {
        // the message is shown on terminals: no raw ESC, nor a U+202E that
        // would show the rest of its line reversed
        for (rank, shown) in [("ppp\u{1b}pppp", "\\u{1b}"), ("ppp\u{202e}pppp", "\\u{202e}"), ("ppp'pppp", "'")] {
            let errors = fen(format!("rnbqkbnr/{rank}/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").as_bytes()).unwrap_err();
            let expected = format!("piece letters from PNBRQKpnbrqk and digits 1-8 (rank 7 has `{shown}`)");
            assert_eq!(errors, [error(FenField::Placement, 9..9 + rank.len(), rank, &expected)]);
        }
    }

    #[test]
    fn invalid_utf8() {
        let errors = fen(b"8/8/8/8/8/8/8/8 w K\xff\xfeQ").unwrap_err();
        assert_eq!(errors, [error(FenField::Castling, 19..21, "\u{fffd}\u{fffd}", EXPECTED_CASTLING)]);
        let errors = fen(b"8/8/8/8/8/8/8/\xc3").unwrap_err();
        let expected = "piece letters from PNBRQKpnbrqk and digits 1-8 (rank 1 has `\u{fffd}`)";
        assert_eq!(errors, [error(FenField::Placement, 14..15, "\u{fffd}", expected)]);
    }

    #[test]
    fn a_long_field_is_quoted_in_part() {
        // 80 bytes of it, cut at a character's boundary; the span is whole
        let placement = "é".repeat(500_000);
        let errors = fen(format!("{placement} w - - 0 1").as_bytes()).unwrap_err();
        let expected = "piece letters from PNBRQKpnbrqk and digits 1-8 (rank 8 has `é`)";
        let found = format!("{}…", "é".repeat(40));
        let ranks = "8 ranks separated by `/`, not 1";
        let whole = error(FenField::Placement, 0..1_000_000, &found, expected);
        assert_eq!(errors, [whole, error(FenField::Placement, 1_000_000..1_000_000, "", ranks)]);
        let errors = fen(format!("8/8/8/8/8/8/8/8 w K{} - 0 1", "x".repeat(81)).as_bytes()).unwrap_err();
        let found = format!("{}…", "x".repeat(80));
        assert_eq!(errors, [error(FenField::Castling, 19..100, &found, EXPECTED_CASTLING)]);
    }

    #[test]
    fn syntax_ok_agrees() {
        for (input, ok) in
            [(START, true), ("8/8/8/8/8/8/8/8 w KKQQ", true), ("", false), ("8/8/8/8/8/8/8/8 w - - 0 1 ", true)]
        {
            assert_eq!(syntax_ok(input.as_bytes()), ok, "{input:?}");
        }
    }

    #[test]
    fn long_inputs_are_linear_and_do_not_panic() {
        let mut long = b"8/8/8/8/8/8/8/8 w ".to_vec();
        long.extend(std::iter::repeat_n(b'K', 1 << 20));
        assert_eq!(fen(&long).unwrap().castling.len(), 1 << 20);
        let ranks = vec![b'/'; 1 << 20];
        assert_eq!(fen(&ranks).unwrap_err().len(), 9);
        let fields = b"x ".repeat(1 << 19);
        assert_eq!(fen(&fields).unwrap_err().len(), 8);
    }

    fn canonical(text: &str, mode: CastlingMode) -> String {
        let fen = Fen::parse(text, mode).unwrap();
        Position::from_setup(fen.setup, mode).unwrap().fen().to_string()
    }

    #[test]
    fn castling_order_and_letters() {
        let fen = Fen::parse("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", CastlingMode::Standard).unwrap();
        assert_eq!(
            fen.lints,
            [FenLint {
                kind: FenLintKind::CastlingOrder { canonical: "KQkq".to_owned() },
                field: FenField::Castling,
                span: 26..30
            }]
        );
        assert_eq!(fen.to_string(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let fen = Fen::parse("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", CastlingMode::Standard).unwrap();
        let kinds: Vec<&FenLintKind> = fen.lints.iter().map(|l| &l.kind).collect();
        assert_eq!(
            kinds,
            [
                &FenLintKind::ShredderCastling { found: 'H', canonical: 'K' },
                &FenLintKind::ShredderCastling { found: 'A', canonical: 'Q' },
                &FenLintKind::ShredderCastling { found: 'h', canonical: 'k' },
                &FenLintKind::ShredderCastling { found: 'a', canonical: 'q' },
            ]
        );
        assert_eq!(fen.lints[2].span, 28..29);
        assert_eq!(fen.setup.castling_rights, CastlingRights::STANDARD);
    }

    #[test]
    fn chess960_letters() {
        // X-FEN: K and Q are the outermost rooks; Shredder letters say the same
        let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        assert_eq!(
            canonical(shredder, CastlingMode::Chess960),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
        );
        // the inner of two queen-side rooks needs its file letter
        let inner = "r1r1k3/8/8/8/8/8/8/R1R1K3 w Cc - 0 1";
        let fen = Fen::parse(inner, CastlingMode::Chess960).unwrap();
        assert!(fen.lints.is_empty());
        assert!(fen.setup.castling_rights.has(Color::White, File::C));
        assert_eq!(canonical(inner, CastlingMode::Chess960), inner);
        // while Q names the outermost one
        let outer = Fen::parse("r1r1k3/8/8/8/8/8/8/R1R1K3 w Qq - 0 1", CastlingMode::Chess960).unwrap();
        assert!(outer.setup.castling_rights.has(Color::White, File::A));
        // in standard chess Q is always the a-file rook
        let standard = Fen::parse("4k3/8/8/8/8/8/8/1R2K3 w Q - 0 1", CastlingMode::Standard).unwrap();
        assert!(standard.setup.castling_rights.has(Color::White, File::A));
    }

    #[test]
    fn duplicate_castling_letter() {
        let err = Fen::parse("r3k2r/8/8/8/8/8/8/R3K2R w KQKk - 0 1", CastlingMode::Standard).unwrap_err();
        assert_eq!(
            err.errors,
            [FenSyntaxError {
                field: FenField::Castling,
                span: 28..29,
                found: "K".to_owned(),
                expected: "each castling right once".to_owned()
            }]
        );
        // H and K are the same right in standard chess
        assert!(Fen::parse("r3k2r/8/8/8/8/8/8/R3K2R w KH - 0 1", CastlingMode::Standard).is_err());
    }
}
