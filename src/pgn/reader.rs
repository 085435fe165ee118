//! The PGN reader: events for a [`Visitor`], read from a slice of bytes that
//! holds whole games (a file read at once, or a [`crate::pgn::Chunk`]).
//!
//! One game at a time: [`Reader::read_game`] calls the visitor's methods in
//! input order and returns what [`Visitor::end_game`] returns. Tokens are
//! borrowed from the input; nothing is allocated per token.
//!
//! The token and game rules are `grammar/pgn.ebnf`; [`Reader`] sums them up.
//!
//! ```
//! use sanfen::pgn::{Location, Reader, Visitor};
//!
//! /// Counts the games and their tokens that should be moves.
//! struct Sans(usize);
//!
//! impl Visitor for Sans {
//!     type Output = usize;
//!     fn san(&mut self, _token: &[u8], _at: Location) {
//!         self.0 += 1;
//!     }
//!     fn end_game(&mut self, _at: Location) -> usize {
//!         std::mem::take(&mut self.0)
//!     }
//! }
//!
//! let pgn = b"[Event \"A\"]\n\n1. e4 {best by test} e5 1-0\n\n[Event \"B\"]\n\n1. d4 *\n";
//! let mut reader = Reader::new(pgn);
//! assert_eq!(reader.read_game(&mut Sans(0)), Some(2));
//! assert_eq!(reader.read_game(&mut Sans(0)), Some(1));
//! assert_eq!(reader.read_game(&mut Sans(0)), None);
//! ```

use core::fmt;
use std::borrow::Cow;
use std::collections::HashMap;

/// Where something is in the input: 1-based line, 1-based column (in bytes),
/// 0-based byte offset. Lines end at `\n` (a `\r` before it is part of no
/// token).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    /// The line, from 1.
    pub line: u32,
    /// The column in bytes, from 1.
    pub column: u32,
    /// The byte offset from the start of the input.
    pub offset: u64,
}

/// Whether to skip something (the rest of a game's movetext, a variation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Skip(pub bool);

/// Text of a tag value or a comment, as bytes: UTF-8, or Windows-1252 (which
/// every byte sequence is), escapes (`\"`, `\\`) left in.
///
/// `Display` writes the text decoded, as [`RawText::decode`] gives it:
///
/// ```
/// use sanfen::pgn::RawText;
///
/// assert_eq!(RawText(b"J\xfcrgen \\\"the\\\" Klein").to_string(), r#"Jürgen "the" Klein"#);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RawText<'a>(pub &'a [u8]);

/// A game termination marker.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ResultToken {
    /// `1-0`, `0-1` or `1/2-1/2`.
    Outcome(crate::Outcome),
    /// `*`: unknown, ongoing or abandoned.
    Unknown,
}

/// What is wrong with the input, beyond single tokens.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SyntaxErrorKind {
    /// A `{` comment with no `}`.
    UnclosedComment,
    /// A `(` with no `)` before the game ends.
    UnclosedVariation,
    /// A `)` with no `(`.
    UnmatchedCloseParen,
    /// Variations nested deeper than [`Reader::MAX_DEPTH`].
    TooDeep,
    /// A tag pair that is not `[Name "value"]`.
    BadTag,
    /// A byte that starts no token (`]`, `"`, a control character, ...).
    UnexpectedChar,
    /// A NAG past `$255` (`$256`, `$99999`): the standard's are `$0` to
    /// `$255`. It is left out; the moves after it are read as usual.
    BadNag,
    /// The input is UTF-16 (a UTF-16 byte order mark, or a NUL byte in
    /// every other place at its start), which PGN never is: nothing of it is
    /// read.
    Utf16,
}

/// A syntax error with its location and the text found there.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SyntaxError {
    /// What.
    pub kind: SyntaxErrorKind,
    /// Where (the opening `{` or `(` of unclosed ones).
    pub at: Location,
    /// The text found there (lossily decoded, at most a line).
    pub found: String,
}

impl fmt::Display for SyntaxErrorKind {
    /// What is wrong, in words: `a { comment is not closed`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SyntaxErrorKind::UnclosedComment => "a `{` comment is not closed",
            SyntaxErrorKind::UnclosedVariation => "a `(` variation is not closed",
            SyntaxErrorKind::UnmatchedCloseParen => "a `)` closes no variation",
            SyntaxErrorKind::TooDeep => "variations nested too deep",
            SyntaxErrorKind::BadTag => "not a tag pair `[Name \"value\"]`",
            SyntaxErrorKind::UnexpectedChar => "a character that starts no token",
            SyntaxErrorKind::BadNag => "a NAG past `$255`",
            SyntaxErrorKind::Utf16 => "input looks like UTF-16, which PGN never is",
        })
    }
}

impl std::error::Error for SyntaxError {}

impl fmt::Display for SyntaxError {
    /// What, where (line and column) and what was found:
    ///
    /// ```
    /// use sanfen::pgn::reader::{Location, SyntaxError, SyntaxErrorKind};
    ///
    /// let at = Location { line: 3, column: 7, offset: 40 };
    /// let error = SyntaxError { kind: SyntaxErrorKind::UnexpectedChar, at, found: "]".to_owned() };
    /// assert_eq!(error.to_string(), "a character that starts no token at 3:7: found \"]\"");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}:{}", self.kind, self.at.line, self.at.column)?;
        if !self.found.is_empty() {
            write!(f, ": found {:?}", self.found)?;
        }
        Ok(())
    }
}

/// Receives the events of one game at a time, in input order.
pub trait Visitor {
    /// What a game gives.
    type Output;

    /// A game starts (at its first tag or movetext token, or at the first of
    /// the comments right before its first movetext token).
    fn begin_game(&mut self, _at: Location) {}

    /// A tag pair: its name, and the value between the quotes.
    fn tag(&mut self, _name: &[u8], _value: RawText<'_>, _at: Location) {}

    /// The tags are over; the movetext follows. `Skip(true)` skips the
    /// movetext (it is still read, to find the end of the game, and syntax
    /// errors in it are still reported).
    fn end_tags(&mut self) -> Skip {
        Skip(false)
    }

    /// A move number: `12.` (`black` false) or `12...` (`black` true); the
    /// token is the whole text (`12.`, `12...`, `12`). A number too large
    /// for a `u32` (no game reaches it) is given as 0, which no move has
    /// either: `99999999999.` is a wrong move number, not a move.
    fn move_number(&mut self, _number: u32, _black: bool, _token: &[u8], _at: Location) {}

    /// A token that should be a move: everything up to the next delimiter,
    /// including any check mark and annotation (`Nxe5+!?`).
    fn san(&mut self, _token: &[u8], _at: Location) {}

    /// A numeric annotation glyph `$n`, a suffix annotation written as its
    /// own token (`!`, `?`, `!!`, `??`, `!?`, `?!`: NAGs 1 to 6), or an
    /// evaluation symbol written for its NAG (`=` 10, `∞` 13, `⩲` or `+=` 14,
    /// `⩱` or `=+` 15, `±` or `+/-` 16, `∓` or `-/+` 17, `+-` 18, `-+` 19);
    /// `token` is as written.
    fn nag(&mut self, _nag: u8, _token: &[u8], _at: Location) {}

    /// A comment: the text between `{` and `}`, or after `;` to the end of
    /// the line.
    fn comment(&mut self, _text: RawText<'_>, _at: Location) {}

    /// `(`: a variation starts; it replaces the move before it. `Skip(true)`
    /// skips it: no events up to its `)`, which gets no
    /// [`Visitor::end_variation`] either (syntax errors are still reported).
    /// Never called more than [`Reader::MAX_DEPTH`] deep.
    fn begin_variation(&mut self, _at: Location) -> Skip {
        Skip(false)
    }

    /// `)`: the variation ends.
    fn end_variation(&mut self, _at: Location) {}

    /// The termination marker, with the token as written (`1-0`, `1–0`, `½-½`).
    /// It ends the game, also inside a variation (after an
    /// [`SyntaxErrorKind::UnclosedVariation`] error) or a skipped one; it is
    /// not reported when [`Visitor::end_tags`] skipped the movetext.
    fn result(&mut self, _result: ResultToken, _token: &[u8], _at: Location) {}

    /// A syntax error (the reader goes on). Errors are reported whatever the
    /// visitor skips.
    fn syntax_error(&mut self, _error: SyntaxError) {}

    /// A comment after the termination marker, on the marker's line (or
    /// starting there): the whole comment as written (`{text}`, or `;text`
    /// without its line end). It belongs to the game (it comes after
    /// [`Visitor::result`] and before [`Visitor::end_game`]) but to no move.
    fn after_result(&mut self, _text: &[u8], _at: Location) {}

    /// A comment between games that belongs to no game (a tag or the end of
    /// the input follows it, not a movetext token): the whole comment as
    /// written (`{text}`, or `;text` without its line end). It comes outside
    /// any game: before the next game's [`Visitor::begin_game`], or, after
    /// the last game, before [`Reader::read_game`] returns `None`.
    fn between_games(&mut self, _text: &[u8], _at: Location) {}

    /// A comment among the tags (a tag of the same game comes after it,
    /// with only whitespace, comments and `%` escape lines between): the
    /// whole comment as written (`;text` without its line end, or `{text}`,
    /// closed on the line it opens on). A comment after the last tag, before
    /// the movetext (or before a tag that starts the next game), is the
    /// movetext's ([`Visitor::comment`]); so is a `{` comment that goes on
    /// to the next line, and every comment after it.
    fn tag_comment(&mut self, _text: &[u8], _at: Location) {}

    /// A `%` escape line: the line as written from its `%`, without its line
    /// end. Inside a game (among the tags or in the movetext, in input
    /// order), or between games like [`Visitor::between_games`].
    fn escape(&mut self, _line: &[u8], _at: Location) {}

    /// An invisible character read as whitespace: a no-break space (U+00A0,
    /// in UTF-8 or as the Latin-1 byte `A0`), a zero-width space (U+200B) or
    /// a byte order mark (U+FEFF) anywhere but at the start of the stream.
    /// `text` is its bytes. Inside a game or between games.
    fn invisible(&mut self, _text: &[u8], _at: Location) {}

    /// `e.p.` (or `ep`, `e.p`) written as a token of its own: the en passant
    /// mark of the move before it (`exd6 e.p.`).
    fn en_passant_mark(&mut self, _token: &[u8], _at: Location) {}

    /// The game is over: at its termination marker, at the start of the next
    /// game, or at the end of the input. `at` is just after the game's last
    /// token, comment or tag. Variations still open get no
    /// [`Visitor::end_variation`]: an [`SyntaxErrorKind::UnclosedVariation`]
    /// error came before.
    fn end_game(&mut self, at: Location) -> Self::Output;
}

impl<'a> RawText<'a> {
    /// The bytes as they are in the input (escapes left in).
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The bytes as a tag value reads: `\"` is `"`, `\\` is `\`, any other
    /// byte (a lone `\` included) is itself.
    ///
    /// ```
    /// use sanfen::pgn::RawText;
    ///
    /// assert_eq!(RawText(br#"say \"hi\" \\ \n"#).unescaped(), br#"say "hi" \ \n"#);
    /// ```
    pub fn unescaped(&self) -> Vec<u8> {
        let mut value = Vec::with_capacity(self.0.len());
        let mut bytes = self.0.iter().copied().peekable();
        while let Some(byte) = bytes.next() {
            if byte == b'\\'
                && let Some(next) = bytes.next_if(|&next| next == b'"' || next == b'\\')
            {
                value.push(next);
                continue;
            }
            value.push(byte);
        }
        value
    }

    /// The text with the escapes `\"` and `\\` undone (any other backslash
    /// stays), decoded as UTF-8 or, when the bytes are not valid UTF-8, as
    /// Windows-1252 ([`decode_text`]). Never fails; borrows when there is
    /// nothing to undo and the bytes are UTF-8.
    ///
    /// ```
    /// use sanfen::pgn::RawText;
    ///
    /// assert_eq!(RawText(br#"say \"hi\" \\ C:\x"#).decode(), r#"say "hi" \ C:\x"#);
    /// assert_eq!(RawText(b"J\xfcrgen").decode(), "Jürgen");
    /// assert_eq!(RawText(b"\x93Fritz\x94").decode(), "“Fritz”");
    /// assert_eq!(RawText("Jürgen".as_bytes()).decode(), "Jürgen");
    /// ```
    pub fn decode(&self) -> Cow<'a, str> {
        let bytes = self.0;
        if memchr::memchr(b'\\', bytes).is_none() {
            return decode_text(bytes);
        }
        match String::from_utf8(self.unescaped()) {
            Ok(text) => Cow::Owned(text),
            Err(err) => Cow::Owned(windows_1252(err.as_bytes())),
        }
    }
}

impl fmt::Display for RawText<'_> {
    /// The text decoded: [`RawText::decode`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.decode())
    }
}

/// Text from a PGN file: UTF-8 when the bytes are (borrowed), else
/// Windows-1252, the encoding of PGN files from Windows programs, which
/// Latin-1 (ISO 8859-1) files read the same as: every byte a character,
/// `E9` é and `FC` ü as in Latin-1, `80` to `9F` the characters Windows
/// gives them (`93` “, `80` €) and not C1 control codes (the five codes
/// Windows leaves unassigned, `81`, `8D`, `8F`, `90` and `9D`, are those
/// of the same number, as the WHATWG Encoding Standard decodes them).
///
/// ```
/// use sanfen::pgn::decode_text;
///
/// assert_eq!(decode_text("Réti".as_bytes()), "Réti");
/// assert_eq!(decode_text(b"R\xe9ti \x96 \x93Open\x94 \x80 5"), "Réti – “Open” € 5");
/// assert_eq!(decode_text(b"\x81\x9d"), "\u{81}\u{9d}");
/// ```
pub fn decode_text(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(windows_1252(bytes)),
    }
}

/// Bytes as Windows-1252, which never fails (see [`decode_text`]).
fn windows_1252(bytes: &[u8]) -> String {
    encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes).0.into_owned()
}

// ---- Byte classes -------------------------------------------------------------

/// A byte that starts or continues a token (grammar: `token_char`).
pub(crate) const TOKEN: u8 = 0;
/// Whitespace other than `\n`: space, tab, `\r`, vertical tab, form feed.
pub(crate) const WS: u8 = 1;
/// `\n`, the only line end.
pub(crate) const NL: u8 = 2;
/// `$`: ends a token and starts one (a NAG).
pub(crate) const DOLLAR: u8 = 3;
const LBRACE: u8 = 4;
const RBRACE: u8 = 5;
const LPAREN: u8 = 6;
const RPAREN: u8 = 7;
const LBRACKET: u8 = 8;
const RBRACKET: u8 = 9;
const SEMI: u8 = 10;
const QUOTE: u8 = 11;
/// Control bytes that are not whitespace, and DEL.
const CTRL: u8 = 12;
/// In a run of token bytes: the first byte of an invisible character
/// (`A0`, `C2`, `E2`, `EF`), which [`invisible_len`] looks at.
const MAYBE_WS: u8 = 13;

const CLASS_TABLE: [u8; 256] = {
    let mut table = [TOKEN; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = CTRL;
        b += 1;
    }
    table[0x7f] = CTRL;
    table[b' ' as usize] = WS;
    table[b'\t' as usize] = WS;
    table[b'\r' as usize] = WS;
    table[0x0b] = WS;
    table[0x0c] = WS;
    table[b'\n' as usize] = NL;
    table[b'$' as usize] = DOLLAR;
    table[b'{' as usize] = LBRACE;
    table[b'}' as usize] = RBRACE;
    table[b'(' as usize] = LPAREN;
    table[b')' as usize] = RPAREN;
    table[b'[' as usize] = LBRACKET;
    table[b']' as usize] = RBRACKET;
    table[b';' as usize] = SEMI;
    table[b'"' as usize] = QUOTE;
    table
};

/// The class of every byte; the tokenizer looks nothing else up.
pub(crate) static CLASS: [u8; 256] = CLASS_TABLE;

/// [`CLASS`], but [`MAYBE_WS`] for the first bytes of invisible
/// characters: what the movetext loop dispatches on.
static MOVETEXT: [u8; 256] = {
    let mut table = CLASS_TABLE;
    table[0xa0] = MAYBE_WS;
    table[0xc2] = MAYBE_WS;
    table[0xe2] = MAYBE_WS;
    table[0xef] = MAYBE_WS;
    table
};

/// In [`RUN`]: a byte that ends a run of token bytes.
const RUN_END: u8 = 1;

/// What a byte does to a run of token bytes: [`TOKEN`] continues it,
/// [`RUN_END`] ends it, [`MAYBE_WS`] ends it if an invisible character
/// starts there.
static RUN: [u8; 256] = {
    let mut table = [RUN_END; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match MOVETEXT[b] {
            TOKEN => TOKEN,
            MAYBE_WS => MAYBE_WS,
            _ => RUN_END,
        };
        b += 1;
    }
    table
};

/// The length of the invisible character at `i` (0: none): a no-break space
/// (`C2 A0`, or the Latin-1 byte `A0` after an ASCII byte), a zero-width
/// space (`E2 80 8B`), a byte order mark (`EF BB BF`).
#[inline]
pub(crate) fn invisible_len(input: &[u8], i: usize) -> usize {
    let rest = &input[i..];
    match rest.first() {
        Some(0xa0) if i == 0 || input[i - 1] < 0x80 => 1,
        Some(0xc2) if rest.get(1) == Some(&0xa0) => 2,
        Some(0xe2) if rest.starts_with(b"\xe2\x80\x8b") => 3,
        Some(0xef) if rest.starts_with(b"\xef\xbb\xbf") => 3,
        _ => 0,
    }
}

/// Whether `b` is whitespace other than `\n`.
#[inline(always)]
pub(crate) fn is_inline_ws(b: u8) -> bool {
    CLASS[b as usize] == WS
}

/// The end of the run of token bytes from `i`.
#[inline(always)]
fn run_end(input: &[u8], mut i: usize) -> usize {
    // Most tokens are shorter than 8 bytes: find the first delimiter among 8
    // without a branch per byte (token lengths vary, and mispredicted loop
    // exits were the reader's main cost). The word arithmetic marks a few
    // token bytes too; the table says which marks are delimiters.
    if let Some(bytes) = input.get(i..i + 8) {
        let word = u64::from_le_bytes(bytes.try_into().unwrap_or_default());
        let mut marks = delimiter_marks(word);
        while marks != 0 {
            let k = (marks.trailing_zeros() / 8) as usize;
            match RUN[bytes[k] as usize] {
                RUN_END => return i + k,
                MAYBE_WS if invisible_len(input, i + k) > 0 => return i + k,
                _ => {}
            }
            marks &= marks - 1;
        }
        i += 8;
    }
    while i < input.len() {
        match RUN[input[i] as usize] {
            RUN_END => break,
            MAYBE_WS if invisible_len(input, i) > 0 => break,
            _ => i += 1,
        }
    }
    i
}

const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);

/// The high bit of each byte of `word` that may be a delimiter (a byte whose
/// class is not [`TOKEN`]) or start an invisible character (every byte from
/// 0x80): every one is marked, and some token bytes may be (`!`, `#`, `9`,
/// `=`, `?` and a few more, and any byte after a marked one).
#[inline(always)]
fn delimiter_marks(word: u64) -> u64 {
    let repeat = |byte: u8| ONES * u64::from(byte);
    // below 0x2a: control bytes, space, `"`, `$`, `(`, `)`
    let low = word.wrapping_sub(repeat(0x2a)) & !word;
    // bits 0, 3 and 4 set, 7 clear (1, 2, 5 and 6 free): `;` `[` `]` `{`
    // `}` and DEL
    let z = (word & repeat(0x99)) ^ repeat(0x19);
    let high = z.wrapping_sub(ONES) & !z;
    (low | high | word) & HIGHS
}

/// Whether a line starting at `i` (inside a `{` comment) starts with a tag
/// pair: `[`, an ASCII letter, and the rest of a well-formed tag. Then the
/// comment was never closed, and the tag starts the next game. (A `[` and a
/// letter alone is not enough: comments hold lines like `[clk 1:05:23]`.)
#[inline]
pub(crate) fn is_recovery_line(input: &[u8], i: usize) -> bool {
    input.get(i) == Some(&b'[')
        && input.get(i + 1).is_some_and(u8::is_ascii_alphabetic)
        && matches!(scan_tag(input, i), TagScan::Good { .. })
}

/// The index of the first byte from `i` that is neither whitespace other
/// than `\n` nor an invisible character.
pub(crate) fn skip_blank(input: &[u8], mut i: usize) -> usize {
    while i < input.len() {
        if is_inline_ws(input[i]) {
            i += 1;
        } else if input[i] >= 0x80 && invisible_len(input, i) > 0 {
            i += invisible_len(input, i);
        } else {
            break;
        }
    }
    i
}

/// The length of the invisible character that ends just before `end` (0:
/// none); see [`invisible_len`].
pub(crate) fn invisible_before(input: &[u8], end: usize) -> usize {
    let before = &input[..end];
    if before.ends_with(b"\xef\xbb\xbf") || before.ends_with(b"\xe2\x80\x8b") {
        3
    } else if before.ends_with(b"\xc2\xa0") {
        2
    } else if before.ends_with(b"\xa0") && (end == 1 || input[end - 2] < 0x80) {
        1
    } else {
        0
    }
}

/// The index of the first byte before `end` (going back) after which only
/// whitespace (`\n` included) and invisible characters come.
pub(crate) fn skip_blank_back(input: &[u8], mut end: usize) -> usize {
    loop {
        if end > 0 && matches!(CLASS[input[end - 1] as usize], WS | NL) {
            end -= 1;
        } else if end > 0 && input[end - 1] >= 0x80 && invisible_before(input, end) > 0 {
            end -= invisible_before(input, end);
        } else {
            return end;
        }
    }
}

/// The index of the next `\n` from `i`, or the end of the input.
#[inline]
fn line_end(input: &[u8], i: usize) -> usize {
    memchr::memchr(b'\n', &input[i..]).map_or(input.len(), |k| i + k)
}

/// In a tag section: skips whitespace, counting lines; `blank` is set when
/// a line ends that held only whitespace since the last item (`fresh`: the
/// current line has held only whitespace so far).
#[inline(always)]
fn skip_tag_ws(input: &[u8], cur: &mut Cursor, blank: &mut bool, fresh: &mut bool) {
    while let Some(&b) = input.get(cur.pos) {
        match CLASS[b as usize] {
            WS => cur.pos += 1,
            NL => {
                *blank |= *fresh;
                *fresh = true;
                cur.pos += 1;
                cur.newline(cur.pos);
            }
            _ => return,
        }
    }
}

/// Whether a line of whitespace alone lies between `from` and `to` (both in
/// the same run of whitespace).
fn blank_line_between(input: &[u8], from: usize, to: usize) -> bool {
    let gap = &input[from.min(to)..to];
    let mut newlines = memchr::memchr_iter(b'\n', gap);
    newlines.next().is_some() && newlines.next().is_some()
}

/// `text` (a line, without its `\n`) without the `\r`s at its end: every
/// `\r` right before a line end goes with it, as the formatter writes it.
fn trim_cr(text: &[u8]) -> &[u8] {
    let end = text.iter().rposition(|&b| b != b'\r').map_or(0, |last| last + 1);
    &text[..end]
}

// ---- Tokens -------------------------------------------------------------------

/// A tag pair `[Name "value"]` as [`scan_tag`] finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TagScan {
    /// Well formed: the name and the value (between the quotes), and the end
    /// (after the `]`).
    Good { name: std::ops::Range<usize>, value: std::ops::Range<usize>, end: usize },
    /// Malformed: it extends to its first `]` after where it went wrong, or
    /// to the end of the line (before a `\r\n`) when there is none.
    Bad { end: usize },
}

/// Whether each byte may be in a tag name (PGN symbol characters).
static TAG_NAME: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || matches!(c, b'_' | b'+' | b'#' | b'=' | b':' | b'-');
        b += 1;
    }
    table
};

/// grammar: `tag_pair ::= "[" inline_ws* tag_name inline_ws* '"' tag_value '"' inline_ws* "]"`,
/// read from the `[` at `start`. A tag never goes past the end of its line.
pub(crate) fn scan_tag(input: &[u8], start: usize) -> TagScan {
    let skip_ws = |mut i: usize| {
        while i < input.len() && is_inline_ws(input[i]) {
            i += 1;
        }
        i
    };
    let mut i = skip_ws(start + 1);
    let name_start = i;
    while i < input.len() && TAG_NAME[input[i] as usize] {
        i += 1;
    }
    if i == name_start {
        return bad_tag(input, i);
    }
    let name = name_start..i;
    i = skip_ws(i);
    if input.get(i) != Some(&b'"') {
        return bad_tag(input, i);
    }
    i += 1;
    let value_start = i;
    loop {
        match input.get(i) {
            Some(b'"') => break,
            None | Some(b'\n') => return bad_tag(input, i),
            Some(b'\\') if matches!(input.get(i + 1), Some(b'"' | b'\\')) => i += 2,
            Some(_) => i += 1,
        }
    }
    let value = value_start..i;
    let after = skip_ws(i + 1);
    if input.get(after) == Some(&b']') {
        return TagScan::Good { name, value, end: after + 1 };
    }
    // A quote inside the value that is not escaped (`[White ""Mirage""]`):
    // when the line ends with `"]`, the value runs to that last quote.
    let line = line_end(input, value_start);
    let mut last = line;
    while last > value_start && (is_inline_ws(input[last - 1]) || input[last - 1] == b'\r') {
        last -= 1;
    }
    if last >= value_start + 2 && input[last - 1] == b']' {
        let quote = skip_ws_back(input, value_start, last - 1);
        let inside = &input[value_start..quote.saturating_sub(1).max(value_start)];
        let one_tag = !inside.iter().any(|&b| matches!(b, b'[' | b']'));
        if quote > value_start && input[quote - 1] == b'"' && quote - 1 > i && one_tag {
            return TagScan::Good { name, value: value_start..quote - 1, end: last };
        }
    }
    bad_tag(input, after)
}

/// The position after the last non-blank byte of `input[from..to]`.
fn skip_ws_back(input: &[u8], from: usize, mut to: usize) -> usize {
    while to > from && is_inline_ws(input[to - 1]) {
        to -= 1;
    }
    to
}

/// A malformed tag that went wrong at `at`.
fn bad_tag(input: &[u8], at: usize) -> TagScan {
    let mut i = at;
    while i < input.len() {
        match input[i] {
            b']' => return TagScan::Bad { end: i + 1 },
            b'\n' => break,
            _ => i += 1,
        }
    }
    if i < input.len() && input[i - 1] == b'\r' {
        i -= 1;
    }
    TagScan::Bad { end: i }
}

/// One side of a result: `1`, `0`, `1/2` or `½`.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Score {
    One,
    Zero,
    Half,
    HalfSign,
}

/// The termination marker a whole token spells, in any spelling the reader
/// takes (`1–0`, `½-½`), as the `Result` tag's value is read too.
///
/// grammar: `result ::= "1" dash "0" | "0" dash "1" | "1/2" dash "1/2" | "½" dash "½" | "*"`,
/// the whole token.
pub fn result_of(token: &[u8]) -> Option<ResultToken> {
    fn score(text: &[u8]) -> Option<(Score, &[u8])> {
        if let Some(rest) = text.strip_prefix(b"1/2") {
            Some((Score::Half, rest))
        } else if let Some(rest) = text.strip_prefix("½".as_bytes()) {
            Some((Score::HalfSign, rest))
        } else if let Some(rest) = text.strip_prefix(b"1") {
            Some((Score::One, rest))
        } else {
            text.strip_prefix(b"0").map(|rest| (Score::Zero, rest))
        }
    }
    fn dash(text: &[u8]) -> Option<&[u8]> {
        text.strip_prefix(b"-")
            .or_else(|| text.strip_prefix("\u{2013}".as_bytes()))
            .or_else(|| text.strip_prefix("\u{2014}".as_bytes()))
    }
    if token == b"*" {
        return Some(ResultToken::Unknown);
    }
    if !matches!(token.first(), Some(b'0' | b'1' | 0xc2)) {
        return None;
    }
    let (left, rest) = score(token)?;
    let (right, rest) = score(dash(rest)?)?;
    if !rest.is_empty() {
        return None;
    }
    let outcome = match (left, right) {
        (Score::One, Score::Zero) => crate::Outcome::Decisive { winner: crate::Color::White },
        (Score::Zero, Score::One) => crate::Outcome::Decisive { winner: crate::Color::Black },
        (Score::Half, Score::Half) | (Score::HalfSign, Score::HalfSign) => crate::Outcome::Draw,
        _ => return None,
    };
    Some(ResultToken::Outcome(outcome))
}

/// The NAG of a token of `!` and `?` alone: `!` 1, `?` 2, `!!` 3, `??` 4,
/// `!?` 5, `?!` 6.
pub(crate) fn suffix_nag(token: &[u8]) -> Option<u8> {
    match token {
        b"!" => Some(1),
        b"?" => Some(2),
        b"!!" => Some(3),
        b"??" => Some(4),
        b"!?" => Some(5),
        b"?!" => Some(6),
        _ => None,
    }
}

/// The NAG of an evaluation symbol written as its own token (the PGN
/// standard's NAG table): `=` 10, `∞` 13, `⩲` `+=` `+/=` 14, `⩱` `=+` `=/+`
/// 15, `±` `+/-` 16, `∓` `-/+` 17, `+-` 18, `-+` 19.
pub(crate) fn glyph_nag(token: &[u8]) -> Option<u8> {
    Some(match token {
        b"=" => 10,
        b"\xe2\x88\x9e" => 13,
        b"\xe2\xa9\xb2" | b"+=" | b"+/=" => 14,
        b"\xe2\xa9\xb1" | b"=+" | b"=/+" => 15,
        b"\xc2\xb1" | b"+/-" => 16,
        b"\xe2\x88\x93" | b"-/+" => 17,
        b"+-" => 18,
        b"-+" => 19,
        _ => return None,
    })
}

/// Whether a token is an en passant mark written apart: `e.p.`, `ep`, `e.p`.
#[inline]
fn is_en_passant_mark(token: &[u8]) -> bool {
    matches!(token, b"ep" | b"e.p." | b"e.p")
}

/// The UTF-8 byte order mark (U+FEFF), which a stream may start with.
const UTF8_BOM: &[u8] = b"\xef\xbb\xbf";

/// Where the text of a stream that starts with a UTF-8 byte order mark
/// starts: the mark is no part of the text, and columns count bytes, so the
/// byte after it is at column 4.
pub const AFTER_BOM: Location = Location { line: 1, column: 4, offset: 3 };

/// The length of the UTF-8 byte order mark `stream` starts with (3), or 0.
/// The one rule for the mark at a stream's start: the [`Reader`] skips it,
/// the [`crate::pgn::Chunker`] drops it (its first chunk starts at
/// [`AFTER_BOM`]), source lines do not show it. Anywhere else it is an
/// invisible character, whitespace to the reader.
///
/// ```
/// use sanfen::pgn::reader::bom_len;
///
/// assert_eq!(bom_len(b"\xef\xbb\xbf[Event \"?\"]"), 3);
/// assert_eq!(bom_len(b"[Event \"?\"]"), 0);
/// ```
pub fn bom_len(stream: &[u8]) -> usize {
    if stream.starts_with(UTF8_BOM) { UTF8_BOM.len() } else { 0 }
}

/// Whether the input starts as UTF-16 text does: with a UTF-16 byte order
/// mark, or with a NUL byte in every other place (and only there) over its
/// first 64 bytes.
pub fn looks_utf16(input: &[u8]) -> bool {
    if input.starts_with(b"\xff\xfe") || input.starts_with(b"\xfe\xff") {
        return true;
    }
    // (never fewer than 64 bytes: a chunk may be shorter than the stream)
    let Some(head) = input.get(..64) else { return false };
    let (even, odd): (Vec<u8>, Vec<u8>) = head.chunks_exact(2).map(|pair| (pair[0], pair[1])).unzip();
    let nul = |bytes: &[u8]| bytes.iter().all(|&b| b == 0);
    let none = |bytes: &[u8]| bytes.iter().all(|&b| b != 0);
    (nul(&odd) && none(&even)) || (nul(&even) && none(&odd))
}

/// Text for [`SyntaxError::found`], decoded ([`decode_text`]).
fn found(text: &[u8]) -> String {
    decode_text(trim_cr(text)).into_owned()
}

// ---- The reader -------------------------------------------------------------------

/// A place in the input: the byte, its line, and where that line starts
/// (before 0 when the input starts in the middle of a line).
#[derive(Copy, Clone, Debug)]
struct Cursor {
    pos: usize,
    line: u32,
    line_start: isize,
}

impl Cursor {
    /// A new line starts at `next`.
    #[inline(always)]
    fn newline(&mut self, next: usize) {
        self.line = self.line.saturating_add(1);
        self.line_start = next as isize;
    }

    #[inline(always)]
    fn at_line_start(&self) -> bool {
        self.pos as isize == self.line_start
    }

    /// Skips whitespace, counting lines.
    #[inline(always)]
    fn skip_ws(&mut self, input: &[u8]) {
        while let Some(&b) = input.get(self.pos) {
            let class = CLASS[b as usize];
            if class == WS {
                self.pos += 1;
            } else if class == NL {
                self.pos += 1;
                self.newline(self.pos);
            } else {
                break;
            }
        }
    }

    /// At a `%` that starts a line: skips the line and its `\n`, and gives
    /// the line (without its line end).
    fn skip_escape_line<'a>(&mut self, input: &'a [u8]) -> &'a [u8] {
        let start = self.pos;
        let end = line_end(input, self.pos);
        if end < input.len() {
            self.pos = end + 1;
            self.newline(end + 1);
        } else {
            self.pos = end;
        }
        trim_cr(&input[start..end])
    }

    /// At a `{`: reads the comment. Closed, it gives the position of the `}`
    /// and stands after it. Unclosed, it gives `None` and stands at the `[`
    /// of the line that ends it, or at the end.
    #[inline]
    fn scan_brace(&mut self, input: &[u8]) -> Option<usize> {
        let mut i = self.pos + 1;
        loop {
            let Some(k) = memchr::memchr2(b'}', b'\n', &input[i..]) else {
                self.pos = input.len();
                return None;
            };
            let j = i + k;
            if input[j] == b'}' {
                self.pos = j + 1;
                return Some(j);
            }
            i = j + 1;
            self.newline(i);
            if is_recovery_line(input, i) {
                self.pos = i;
                return None;
            }
        }
    }
}

/// Reads games from a slice that holds whole games, calling a [`Visitor`].
///
/// The rules are those of `grammar/pgn.ebnf`; in short:
///
/// - A game starts at its first tag or movetext token. Whitespace, `%`
///   escape lines and comments before it belong to no game when a tag follows
///   them (or nothing does), and are reported outside any game
///   ([`Visitor::between_games`], [`Visitor::escape`]); when a movetext token
///   follows, the game starts at the first of those comments, and they are
///   its first comments. So a stretch holding only comments is no game.
/// - Invisible characters (no-break space, zero-width space, a byte order
///   mark after the start) are whitespace, reported ([`Visitor::invisible`]).
/// - Its tags come first. A tag whose name this game already has starts the
///   next game when a blank line (a line of whitespace alone) came after the
///   previous tag: that is how header-only games (tags and no movetext) are
///   told apart. Comments between two tags of the game are among its tags
///   ([`Visitor::tag_comment`]); the movetext starts with any other.
/// - The game ends at its result token (at any depth), at a `[` once its
///   movetext has begun (a token or comment after the tags), at a blank line
///   once a movetext token has been read (as python-chess reads it: a game
///   without a result token followed by tagless movetext), or at the end of
///   the input. The comments after a result token on its line are the game's
///   ([`Visitor::after_result`]); whatever else follows on the line belongs
///   to the next game.
/// - A `{` comment that is not closed ends at the end of the input, or before
///   a line that starts with a tag pair (then the comment is an error, not an
///   event, and the tag starts the next game).
/// - [`Visitor::end_game`] gets the location just after the game's last token,
///   comment, tag or escape line, so it does not depend on what follows the
///   game.
/// - Open variations at the end of a game are reported once
///   ([`SyntaxErrorKind::UnclosedVariation`], at the innermost `(`), and get
///   no [`Visitor::end_variation`].
/// - Syntax errors are reported whatever the visitor skips.
///
/// Nothing is allocated per token or per game (two small buffers are reused),
/// and nothing recurses: any nesting depth takes constant stack.
///
/// ```
/// use sanfen::pgn::{Location, Reader, Visitor};
///
/// /// Collects the moves of each game.
/// struct Moves(Vec<String>);
///
/// impl Visitor for Moves {
///     type Output = Vec<String>;
///     fn san(&mut self, token: &[u8], _at: Location) {
///         self.0.push(String::from_utf8_lossy(token).into_owned());
///     }
///     fn end_game(&mut self, _at: Location) -> Vec<String> {
///         std::mem::take(&mut self.0)
///     }
/// }
///
/// let pgn = b"[Event \"A\"]\n\n1. e4 e5 2. Nf3 (2. f4) 1-0\n\n1.d4 d5 *\n";
/// let mut reader = Reader::new(pgn);
/// let mut moves = Moves(Vec::new());
/// assert_eq!(reader.read_game(&mut moves).unwrap(), ["e4", "e5", "Nf3", "f4"]);
/// assert_eq!(reader.read_game(&mut moves).unwrap(), ["d4", "d5"]);
/// assert!(reader.read_game(&mut moves).is_none());
/// assert_eq!(reader.location(), Location { line: 6, column: 1, offset: pgn.len() as u64 });
/// ```
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    input: &'a [u8],
    /// The next byte to read.
    cur: Cursor,
    /// The offset of `input[0]` in the stream.
    base: u64,
    /// Where the first line starts (before 0 when the input starts in the
    /// middle of a line).
    first_line_start: isize,
    /// Just after the last token, comment or tag of the current game.
    end: usize,
    /// The open variations' `(`, up to `MAX_DEPTH + 1` of them.
    parens: Vec<Location>,
    /// The input is UTF-16 and not yet reported.
    utf16: bool,
    /// Where a byte order mark at the start of the stream ends (a line
    /// starts there too), or `usize::MAX`.
    after_bom: usize,
    /// The current game's tag names (ranges of `input`), and those of them
    /// looked up by name so far: only a blank line among the tags asks
    /// whether a name was given before, so the common case keeps ranges alone.
    tag_names: Vec<(usize, usize)>,
    tag_index: TagNames,
    indexed: usize,
}

/// Tag names, each with a number given with it when first added (its line,
/// for `pgn:duplicate-tag` and for the rule that a name given again after a
/// blank line starts the next game, which the chunker follows too; its
/// position, for [`distinct_tags`](super::game::distinct_tags)): a flat
/// buffer reused from game to game, and a bit per name's hash so that a new
/// name is told apart without comparing it to every other; past `LIST_MAX`
/// names, a hash map (keyed at random: no input makes it slow), so that a
/// game of a million tags takes time linear in its size.
#[derive(Clone, Debug, Default)]
pub(crate) struct TagNames {
    bytes: Vec<u8>,
    /// Where each name ends in `bytes`, and its number.
    names: Vec<(usize, u32)>,
    hashes: u64,
    /// Past `LIST_MAX` names: each name's number.
    index: HashMap<Box<[u8]>, u32>,
}

impl TagNames {
    const LIST_MAX: usize = 64;

    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.names.clear();
        self.hashes = 0;
        self.index.clear();
    }

    fn bit(name: &[u8]) -> u64 {
        let (first, last) = (name.first().copied().unwrap_or(0), name.last().copied().unwrap_or(0));
        1 << ((name.len() + 7 * first as usize + 13 * last as usize) & 63)
    }

    /// The number given with `name`, if it was added.
    pub(crate) fn get(&self, name: &[u8]) -> Option<u32> {
        if self.names.len() >= Self::LIST_MAX {
            return self.index.get(name).copied();
        }
        if self.hashes & Self::bit(name) == 0 {
            return None;
        }
        let mut start = 0;
        for &(end, number) in &self.names {
            if &self.bytes[start..end] == name {
                return Some(number);
            }
            start = end;
        }
        None
    }

    /// Adds `name` with `number`; gives the number it was added with when
    /// it was already (and adds nothing).
    pub(crate) fn insert(&mut self, name: &[u8], number: u32) -> Option<u32> {
        if let Some(first) = self.get(name) {
            return Some(first);
        }
        if self.names.len() >= Self::LIST_MAX {
            self.index.insert(name.into(), number);
            return None;
        }
        self.hashes |= Self::bit(name);
        self.bytes.extend_from_slice(name);
        self.names.push((self.bytes.len(), number));
        if self.names.len() == Self::LIST_MAX {
            // from now on, the map
            let mut start = 0;
            for &(end, number) in &self.names {
                self.index.insert(self.bytes[start..end].into(), number);
                start = end;
            }
        }
        None
    }
}

/// Not skipping a variation.
const NO_SKIP: usize = usize::MAX;

impl<'a> Reader<'a> {
    /// The deepest variation nesting read: a `(` that would open variation
    /// number `MAX_DEPTH + 1` in a stack of them is a
    /// [`SyntaxErrorKind::TooDeep`] error, and that variation is skipped (read
    /// for its end, with no events). 64 is far deeper than any real annotation
    /// goes, and keeps what a visitor holds per level bounded.
    pub const MAX_DEPTH: usize = 64;

    /// A reader at the start of a stream: line 1, column 1, offset 0. A UTF-8
    /// byte order mark at the very start is skipped (with no event): columns
    /// count bytes, so the byte after it is column 4. Input that looks like
    /// UTF-16 is one game with one [`SyntaxErrorKind::Utf16`] error.
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        // Read after the mark as a chunk that starts there is: the byte
        // before the text is then never looked at (a lone `A0` right after
        // the mark reads the same either way).
        match bom_len(input) {
            0 => Reader::with_start(input, Location { line: 1, column: 1, offset: 0 }),
            bom => Reader::with_start(&input[bom..], AFTER_BOM),
        }
    }

    /// A reader whose input starts at `start` in a stream (a
    /// [`crate::pgn::Chunk`]): locations continue from there. No byte order
    /// mark is skipped; at offset 0, input that looks like UTF-16 is one game
    /// with one [`SyntaxErrorKind::Utf16`] error.
    pub fn with_start(input: &'a [u8], start: Location) -> Reader<'a> {
        let line_start = 1 - start.column as isize;
        Reader {
            input,
            cur: Cursor { pos: 0, line: start.line, line_start },
            base: start.offset,
            first_line_start: line_start,
            end: 0,
            parens: Vec::with_capacity(Self::MAX_DEPTH + 1),
            utf16: start.offset == 0 && looks_utf16(input),
            // a chunk that starts after the stream's byte order mark
            after_bom: if start == AFTER_BOM { 0 } else { usize::MAX },
            tag_names: Vec::new(),
            tag_index: TagNames::default(),
            indexed: 0,
        }
    }

    /// Where the reader stands: after the last game read (and, at the end,
    /// after the input: the start of a next chunk).
    pub fn location(&self) -> Location {
        self.loc(&self.cur, self.cur.pos)
    }

    /// Reads the next game, calling `visitor`, and returns what its
    /// [`Visitor::end_game`] returns; `None` when only whitespace, escape
    /// lines and comments remain.
    ///
    /// The order of the calls: [`Visitor::begin_game`]; the tags;
    /// [`Visitor::end_tags`] exactly once (also with no tags, and for a game
    /// of tags alone); the movetext events; [`Visitor::end_game`].
    /// [`Visitor::syntax_error`] comes where the error is found.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> Option<V::Output> {
        if self.utf16 {
            return Some(self.read_utf16(visitor));
        }
        let from = self.cur;
        let mut text = false;
        let found = self.find_game_start(&mut text);
        if text && self.cur.pos > from.pos {
            self.emit_outside(from, self.cur.pos, visitor);
        }
        if !found {
            return None;
        }
        visitor.begin_game(self.location());
        let ended = self.read_tags(visitor);
        let Skip(skip) = visitor.end_tags();
        if !ended {
            self.read_movetext(visitor, skip);
        }
        Some(visitor.end_game(self.end_location()))
    }

    /// Whether `cur` is at the start of a line (or just after the byte
    /// order mark at the start of the stream).
    #[inline]
    fn at_line_start(&self, cur: &Cursor) -> bool {
        cur.at_line_start() || cur.pos == self.after_bom
    }

    /// The location of `pos`, on the line of `cur`.
    #[inline(always)]
    fn loc(&self, cur: &Cursor, pos: usize) -> Location {
        location(self.base, cur, pos)
    }

    /// The location of the end of the game: the lines between it and the
    /// reader are counted back.
    fn end_location(&self) -> Location {
        let (end, cur) = (self.end, self.cur);
        let newlines = memchr::memchr_iter(b'\n', &self.input[end..cur.pos]).count();
        if newlines == 0 {
            return self.loc(&cur, end);
        }
        let line_start = memchr::memrchr(b'\n', &self.input[..end]).map_or(self.first_line_start, |k| k as isize + 1);
        let line = cur.line.saturating_sub(u32::try_from(newlines).unwrap_or(u32::MAX));
        self.loc(&Cursor { pos: end, line, line_start }, end)
    }

    /// UTF-16 input: one game, one error, and the input is read.
    fn read_utf16<V: Visitor>(&mut self, visitor: &mut V) -> V::Output {
        self.utf16 = false;
        let at = self.location();
        visitor.begin_game(at);
        let kind = SyntaxErrorKind::Utf16;
        visitor.syntax_error(SyntaxError { kind, at, found: String::new() });
        visitor.end_tags();
        let input = self.input;
        let lines = memchr::memchr_iter(b'\n', input).count();
        self.cur.line = self.cur.line.saturating_add(u32::try_from(lines).unwrap_or(u32::MAX));
        self.cur.line_start = memchr::memrchr(b'\n', input).map_or(self.cur.line_start, |k| k as isize + 1);
        self.cur.pos = input.len();
        self.end = input.len();
        visitor.end_game(self.end_location())
    }

    /// Reports what lies between games, from `from` to `to` (comments,
    /// escape lines, invisible characters; found by
    /// [`Reader::find_game_start`]).
    fn emit_outside<V: Visitor>(&self, from: Cursor, to: usize, visitor: &mut V) {
        let input = self.input;
        let mut cur = from;
        loop {
            cur.skip_ws(input);
            if cur.pos >= to {
                return;
            }
            let pos = cur.pos;
            let at = self.loc(&cur, pos);
            match input[pos] {
                b'%' if self.at_line_start(&cur) => visitor.escape(cur.skip_escape_line(input), at),
                b';' => {
                    cur.pos = line_end(input, pos);
                    visitor.between_games(trim_cr(&input[pos..cur.pos]), at);
                }
                b'{' => match cur.scan_brace(input) {
                    Some(close) => visitor.between_games(&input[pos..=close], at),
                    None => return,
                },
                _ => match invisible_len(input, pos) {
                    0 => return,
                    len => {
                        cur.pos += len;
                        visitor.invisible(&input[pos..cur.pos], at);
                    }
                },
            }
        }
    }

    /// Between games: skips whitespace, escape lines and comments up to the
    /// next game, and stands at its first item; `false` at the end. Sets
    /// `text` when more than whitespace came before it.
    fn find_game_start(&mut self, text: &mut bool) -> bool {
        let input = self.input;
        // The first comment since the last game, if any: a game that starts
        // with a movetext token starts there.
        let mut pending: Option<Cursor> = None;
        loop {
            self.cur.skip_ws(input);
            let Some(&b) = input.get(self.cur.pos) else { return false };
            *text |= b != b'[';
            match b {
                b'%' if self.at_line_start(&self.cur) => {
                    self.cur.skip_escape_line(input);
                }
                b';' => {
                    pending.get_or_insert(self.cur);
                    self.cur.pos = line_end(input, self.cur.pos);
                }
                b'{' => {
                    let before = self.cur;
                    if self.cur.scan_brace(input).is_some() {
                        pending.get_or_insert(before);
                    } else {
                        // An unclosed comment is an error of a game.
                        self.cur = pending.unwrap_or(before);
                        return true;
                    }
                }
                b'[' => return true,
                _ if b >= 0x80 && invisible_len(input, self.cur.pos) > 0 => {
                    self.cur.pos += invisible_len(input, self.cur.pos);
                }
                _ => {
                    if let Some(first) = pending {
                        self.cur = first;
                    }
                    return true;
                }
            }
        }
    }

    /// Whether the game has a tag named `name`, in time that does not grow
    /// with the number of its tags.
    fn has_tag_name(&mut self, name: &[u8]) -> bool {
        for &(start, end) in &self.tag_names[self.indexed..] {
            self.tag_index.insert(&self.input[start..end], 0);
        }
        self.indexed = self.tag_names.len();
        self.tag_index.get(name).is_some()
    }

    /// Reads the tags; `true` when the game ends with them (at the end of the
    /// input, or at a repeated tag after a blank line).
    fn read_tags<V: Visitor>(&mut self, visitor: &mut V) -> bool {
        let input = self.input;
        let mut cur = self.cur;
        self.tag_names.clear();
        self.tag_index.clear();
        self.indexed = 0;
        // A blank line came after the previous tag.
        let mut blank = false;
        // The current line started after the previous tag and holds only
        // whitespace so far.
        let mut fresh = false;
        // Where the first invisible character since the last item is: they
        // belong to the game if an item of it follows.
        let mut invisible: Option<Cursor> = None;
        // Where the tag after the last run of comments looked at is: the
        // comments before it belong to the tags (looked at once per run).
        let mut tag_after: Option<usize> = None;
        let ended = loop {
            skip_tag_ws(input, &mut cur, &mut blank, &mut fresh);
            let Some(&b) = input.get(cur.pos) else { break true };
            if b >= 0x80 {
                let len = invisible_len(input, cur.pos);
                if len > 0 {
                    invisible.get_or_insert(cur);
                    cur.pos += len;
                    continue;
                }
            }
            if b == b'%' && self.at_line_start(&cur) {
                if let Some(from) = invisible.take() {
                    self.emit_invisible(from, cur.pos, visitor);
                }
                let start = cur.pos;
                let at = self.loc(&cur, start);
                let line = cur.skip_escape_line(input);
                visitor.escape(line, at);
                // the game goes on to the end of its escape lines
                self.end = start + line.len();
                fresh = cur.at_line_start();
                continue;
            }
            if b == b';' || b == b'{' {
                // A comment among the tags when a tag comes after it (and
                // after the comments and escape lines that follow it);
                // otherwise the movetext starts with it.
                if tag_after.is_none_or(|at| cur.pos > at) {
                    tag_after = self.tag_after_comments(cur, blank);
                    if tag_after.is_none() {
                        break false;
                    }
                }
                if let Some(from) = invisible.take() {
                    self.emit_invisible(from, cur.pos, visitor);
                }
                let start = cur.pos;
                let at = self.loc(&cur, start);
                let text = if b == b';' {
                    cur.pos = line_end(input, start);
                    trim_cr(&input[start..cur.pos])
                } else {
                    // (closed on its line: the look ahead saw it)
                    let _ = cur.scan_brace(input);
                    &input[start..cur.pos]
                };
                visitor.tag_comment(text, at);
                self.end = start + text.len();
                fresh = false;
                continue;
            }
            if b != b'[' {
                break false;
            }
            let start = cur.pos;
            let at = self.loc(&cur, start);
            let tag = scan_tag(input, start);
            if let TagScan::Good { name, .. } = &tag {
                let name_bytes = &input[name.clone()];
                if blank && self.has_tag_name(name_bytes) {
                    break true;
                }
            }
            if let Some(from) = invisible.take() {
                self.emit_invisible(from, start, visitor);
            }
            let end = match tag {
                TagScan::Good { name, value, end } => {
                    let name_bytes = &input[name.clone()];
                    self.tag_names.push((name.start, name.end));
                    visitor.tag(name_bytes, RawText(&input[value]), at);
                    end
                }
                TagScan::Bad { end } => {
                    visitor.syntax_error(SyntaxError {
                        kind: SyntaxErrorKind::BadTag,
                        at,
                        found: found(&input[start..end]),
                    });
                    end
                }
            };
            cur.pos = end;
            self.end = end;
            blank = false;
            fresh = false;
        };
        // what follows the last item is read again by what comes next
        self.cur = invisible.unwrap_or(cur);
        ended
    }

    /// In a tag section, at a `;` or `{` comment (`blank`: a blank line
    /// came after the last tag): where the tag after it is, when only
    /// whitespace, more comments (a `{` one closed on its line) and `%`
    /// escape lines come between, and the tag is of this section (the
    /// comments are then among the tags, as python-chess reads `;` ones).
    /// `None` when anything else follows, or
    /// nothing, or a tag that starts the next game (one the section has,
    /// after a blank line): the comment then starts the movetext, so that
    /// what comes after the game never changes how it reads.
    fn tag_after_comments(&mut self, mut cur: Cursor, mut blank: bool) -> Option<usize> {
        let input = self.input;
        // as in `read_tags`: the current line holds only whitespace so far
        let mut fresh = false;
        loop {
            skip_tag_ws(input, &mut cur, &mut blank, &mut fresh);
            match *input.get(cur.pos)? {
                b'[' => break,
                b';' => {
                    cur.pos = line_end(input, cur.pos);
                    fresh = false;
                }
                // a `{ }` comment closed on its line (one that goes on to
                // the next line is the movetext's)
                b'{' => {
                    let close = memchr::memchr2(b'}', b'\n', &input[cur.pos..])?;
                    if input[cur.pos + close] != b'}' {
                        return None;
                    }
                    cur.pos += close + 1;
                    fresh = false;
                }
                b'%' if self.at_line_start(&cur) => {
                    cur.skip_escape_line(input);
                    fresh = cur.at_line_start();
                }
                b if b >= 0x80 && invisible_len(input, cur.pos) > 0 => cur.pos += invisible_len(input, cur.pos),
                _ => return None,
            }
        }
        if blank
            && let TagScan::Good { name, .. } = scan_tag(input, cur.pos)
            && self.has_tag_name(&input[name])
        {
            return None;
        }
        Some(cur.pos)
    }

    /// At an invisible character in the movetext, in a run of whitespace
    /// that started on `line` (after the game's last item, which ends at
    /// `end` when a blank line ends the game): whether the game ends in the
    /// run (then `cur` stays, and the characters belong to what follows);
    /// else the characters are reported (when `emit`) and `cur` stands at
    /// the end of the run.
    #[cold]
    fn invisible_run<V: Visitor>(
        &self,
        cur: &mut Cursor,
        line: u32,
        end: Option<usize>,
        visitor: &mut V,
        emit: bool,
    ) -> bool {
        let input = self.input;
        let mut after = *cur;
        loop {
            let len = match input.get(after.pos) {
                Some(&b) if b >= 0x80 => invisible_len(input, after.pos),
                _ => 0,
            };
            if len == 0 {
                break;
            }
            after.pos += len;
            after.skip_ws(input);
        }
        let blank =
            end.is_some_and(|end| after.line >= line.saturating_add(2) && blank_line_between(input, end, after.pos));
        if blank || matches!(input.get(after.pos), None | Some(b'[')) {
            return true;
        }
        if emit {
            self.emit_invisible(*cur, after.pos, visitor);
        }
        *cur = after;
        false
    }

    /// Reports the invisible characters in the whitespace from `from` to `to`.
    fn emit_invisible<V: Visitor>(&self, from: Cursor, to: usize, visitor: &mut V) {
        let input = self.input;
        let mut cur = from;
        loop {
            cur.skip_ws(input);
            let len = if cur.pos < to { invisible_len(input, cur.pos) } else { 0 };
            if len == 0 {
                return;
            }
            visitor.invisible(&input[cur.pos..cur.pos + len], self.loc(&cur, cur.pos));
            cur.pos += len;
        }
    }

    /// Reads the movetext up to the end of the game. `skip_all`: no events
    /// but syntax errors.
    fn read_movetext<V: Visitor>(&mut self, visitor: &mut V, skip_all: bool) {
        let input = self.input;
        let mut cur = self.cur;
        let mut end = self.end;
        // The nesting depth (also of skipped variations).
        let mut depth = 0usize;
        // The depth outside the variation being skipped, or NO_SKIP.
        let mut skip_from = NO_SKIP;
        self.parens.clear();
        // Something other than a comment was read: from then on a blank line
        // ends the game.
        let mut moved = false;
        // The line of the escape line just read: the run of whitespace after
        // it starts at that line's end, so one empty line after an escape
        // line is a blank line.
        let mut escape_line: Option<u32> = None;
        loop {
            let line = escape_line.take().unwrap_or(cur.line);
            cur.skip_ws(input);
            if moved && cur.line >= line.saturating_add(2) && blank_line_between(input, end, cur.pos) {
                break;
            }
            let pos = cur.pos;
            let Some(&b) = input.get(pos) else { break };
            let emit = !skip_all && skip_from == NO_SKIP;
            let class = MOVETEXT[b as usize];
            if class == TOKEN || class == DOLLAR || (class == MAYBE_WS && invisible_len(input, pos) == 0) {
                if b == b'%' && self.at_line_start(&cur) {
                    let at = self.loc(&cur, pos);
                    escape_line = Some(cur.line);
                    let line = cur.skip_escape_line(input);
                    if emit {
                        visitor.escape(line, at);
                    }
                    // the game goes on to the end of its escape lines
                    end = pos + line.len();
                    continue;
                }
                let result = tokens(input, self.base, &mut cur, visitor, emit);
                end = cur.pos;
                moved = true;
                if let Some((result, start)) = result {
                    if depth > 0 {
                        self.unclosed_variation(visitor);
                    }
                    if !skip_all {
                        visitor.result(result, &input[start..end], self.loc(&cur, start));
                        end = self.after_result(&mut cur, end, visitor);
                    }
                    self.cur = cur;
                    self.end = end;
                    return;
                }
                continue;
            }
            match class {
                LBRACE => {
                    let at = self.loc(&cur, pos);
                    match cur.scan_brace(input) {
                        Some(close) => {
                            if emit {
                                visitor.comment(RawText(&input[pos + 1..close]), at);
                            }
                        }
                        None => visitor.syntax_error(SyntaxError {
                            kind: SyntaxErrorKind::UnclosedComment,
                            at,
                            found: found(&input[pos..line_end(input, pos)]),
                        }),
                    }
                    end = cur.pos;
                }
                SEMI => {
                    let line_end = line_end(input, pos + 1);
                    let text = trim_cr(&input[pos + 1..line_end]);
                    if emit {
                        visitor.comment(RawText(text), self.loc(&cur, pos));
                    }
                    cur.pos = line_end;
                    end = pos + 1 + text.len();
                }
                LPAREN => {
                    let at = self.loc(&cur, pos);
                    cur.pos = pos + 1;
                    end = cur.pos;
                    moved = true;
                    if depth == Self::MAX_DEPTH {
                        visitor.syntax_error(SyntaxError { kind: SyntaxErrorKind::TooDeep, at, found: "(".into() });
                        if skip_from == NO_SKIP {
                            skip_from = depth;
                        }
                    } else if emit && visitor.begin_variation(at).0 {
                        skip_from = depth;
                    }
                    if depth <= Self::MAX_DEPTH {
                        self.parens.push(at);
                    }
                    depth += 1;
                }
                RPAREN => {
                    let at = self.loc(&cur, pos);
                    cur.pos = pos + 1;
                    end = cur.pos;
                    moved = true;
                    if depth == 0 {
                        visitor.syntax_error(SyntaxError {
                            kind: SyntaxErrorKind::UnmatchedCloseParen,
                            at,
                            found: ")".into(),
                        });
                        continue;
                    }
                    depth -= 1;
                    if self.parens.len() > depth {
                        self.parens.pop();
                    }
                    if skip_from == depth {
                        skip_from = NO_SKIP;
                    } else if emit {
                        visitor.end_variation(at);
                    }
                }
                LBRACKET => break,
                MAYBE_WS => {
                    // an invisible character
                    if self.invisible_run(&mut cur, line, moved.then_some(end), visitor, emit) {
                        // after the game: read again by what comes next
                        break;
                    }
                }
                _ => {
                    visitor.syntax_error(SyntaxError {
                        kind: SyntaxErrorKind::UnexpectedChar,
                        at: self.loc(&cur, pos),
                        found: char::from(b).to_string(),
                    });
                    cur.pos = pos + 1;
                    end = cur.pos;
                    moved = true;
                }
            }
        }
        self.cur = cur;
        self.end = end;
        if depth > 0 {
            self.unclosed_variation(visitor);
        }
    }

    /// After the termination marker: the comments that start on its line
    /// (with the whitespace and invisible characters before them) belong to
    /// the game. Gives the end of the game.
    fn after_result<V: Visitor>(&self, cur: &mut Cursor, mut end: usize, visitor: &mut V) -> usize {
        let input = self.input;
        loop {
            // The invisible characters before a comment are the game's; with
            // no comment after them, they belong to what follows (the game
            // ends before them).
            let run = *cur;
            let pos = skip_blank(input, cur.pos);
            cur.pos = pos;
            match input.get(pos) {
                Some(b'{') => {
                    let mut after = *cur;
                    if after.scan_brace(input).is_none() {
                        // an unclosed comment is an error of the next game
                        *cur = run;
                        return end;
                    }
                    self.emit_invisible(run, pos, visitor);
                    visitor.after_result(&input[pos..after.pos], self.loc(cur, pos));
                    *cur = after;
                    end = cur.pos;
                }
                Some(b';') => {
                    let text = trim_cr(&input[pos..line_end(input, pos)]);
                    self.emit_invisible(run, pos, visitor);
                    visitor.after_result(text, self.loc(cur, pos));
                    cur.pos = pos + text.len();
                    return cur.pos;
                }
                _ => {
                    *cur = run;
                    return end;
                }
            }
        }
    }

    /// Reports the innermost open variation.
    fn unclosed_variation<V: Visitor>(&self, visitor: &mut V) {
        if let Some(&at) = self.parens.last() {
            visitor.syntax_error(SyntaxError { kind: SyntaxErrorKind::UnclosedVariation, at, found: "(".into() });
        }
    }
}

/// Reads the run of token bytes at `cur` in `input` (a token, or a move
/// number and what is glued to it), calling the visitor when `emit`, with
/// locations from `base`. A result token is not reported but returned, with
/// where it starts.
#[inline(always)]
fn tokens<V: Visitor>(
    input: &[u8],
    base: u64,
    cur: &mut Cursor,
    visitor: &mut V,
    emit: bool,
) -> Option<(ResultToken, usize)> {
    let loc = |cur: &Cursor, at: usize| location(base, cur, at);
    let mut start = cur.pos;
    let end = run_end(input, start + 1);
    cur.pos = end;
    loop {
        let token = &input[start..end];
        let first = token[0];
        if first.is_ascii_digit() {
            // Digits, then `.`s (a move number), the end (a move number
            // too), or a result; anything else is a move.
            let mut i = 0;
            let mut number: u64 = 0;
            while i < token.len() && token[i].is_ascii_digit() {
                number = (number * 10 + u64::from(token[i] - b'0')).min(u64::from(u32::MAX) + 1);
                i += 1;
            }
            // (a number too large for any position, as 0 is too small,
            // is still a move number: told wrong, not read as a move)
            let number = u32::try_from(number).unwrap_or(0);
            match token.get(i) {
                // a null move as UCI writes it (and python-chess reads
                // it), not a move number 0
                None if token == b"0000" => {
                    if emit {
                        visitor.san(token, loc(cur, start));
                    }
                }
                None => {
                    if emit {
                        visitor.move_number(number, false, token, loc(cur, start));
                    }
                }
                Some(b'.') => {
                    let dots = token[i..].iter().take_while(|&&b| b == b'.').count();
                    let number_end = i + dots;
                    if emit {
                        visitor.move_number(number, dots >= 2, &token[..number_end], loc(cur, start));
                    }
                    if number_end < token.len() {
                        start += number_end;
                        continue;
                    }
                }
                Some(b'-' | b'/' | 0xe2) if result_of(token).is_some() => {
                    return result_of(token).map(|result| (result, start));
                }
                _ => {
                    if emit {
                        visitor.san(token, loc(cur, start));
                    }
                }
            }
            return None;
        }
        match first {
            // `1. ... Ba5`: dots alone add nothing to the move number before them
            b'.' if token.iter().all(|&b| b == b'.') => {}
            b'$' => {
                if emit {
                    let at = loc(cur, start);
                    let digits = &token[1..];
                    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
                        visitor.san(token, at);
                    } else if let Ok(nag) = u8::try_from(number_value(digits)) {
                        visitor.nag(nag, token, at);
                    } else {
                        let found = String::from_utf8_lossy(token).into_owned();
                        visitor.syntax_error(SyntaxError { kind: SyntaxErrorKind::BadNag, at, found });
                    }
                }
            }
            b'*' | 0xc2 if result_of(token).is_some() => return result_of(token).map(|result| (result, start)),
            b'!' | b'?' => {
                if emit {
                    let at = loc(cur, start);
                    match suffix_nag(token) {
                        Some(nag) => visitor.nag(nag, token, at),
                        None => visitor.san(token, at),
                    }
                }
            }
            b'+' | b'-' | b'=' | 0xc2 | 0xe2 if glyph_nag(token).is_some() => {
                if let (true, Some(nag)) = (emit, glyph_nag(token)) {
                    visitor.nag(nag, token, loc(cur, start));
                }
            }
            b'e' if is_en_passant_mark(token) => {
                if emit {
                    visitor.en_passant_mark(token, loc(cur, start));
                }
            }
            _ => {
                // `*` is a token of its own (PGN's self-terminating
                // result), also glued to the move before it: `e5*`
                let (san, unknown) = match token {
                    [san @ .., b'*'] => (san, true),
                    _ => (token, false),
                };
                if emit {
                    visitor.san(san, loc(cur, start));
                }
                if unknown {
                    return Some((ResultToken::Unknown, start + san.len()));
                }
            }
        }
        return None;
    }
}

/// Whether the reader reads a result at the end of `run`, one run of token
/// bytes as the movetext loop cuts them (its first byte a token byte or `$`,
/// the others token bytes, no invisible character): `1-0`, `*`, `e5*`,
/// `1.e4*` and `123456789012.1-0` end the game there; `!*`, `1*` and `$1*`
/// do not. The chunker asks it of a line's last run: the same code as the
/// reader's decides.
pub(crate) fn run_ends_game(run: &[u8]) -> bool {
    struct Silent;
    impl Visitor for Silent {
        type Output = ();
        fn end_game(&mut self, _at: Location) {}
    }
    let mut cur = Cursor { pos: 0, line: 1, line_start: 0 };
    !run.is_empty() && tokens(run, 0, &mut cur, &mut Silent, false).is_some()
}

/// The location of `pos` on `cur`'s line, in an input that starts at
/// offset `base` of its stream.
#[inline(always)]
fn location(base: u64, cur: &Cursor, pos: usize) -> Location {
    Location {
        line: cur.line,
        column: column(pos as isize - cur.line_start + 1),
        offset: base.wrapping_add(pos as u64),
    }
}

/// A column from a 1-based difference, clamped to `u32`.
#[inline(always)]
fn column(value: isize) -> u32 {
    (value as i64).clamp(0, i64::from(u32::MAX)) as u32
}

/// The value of ASCII digits (leading zeros allowed), or 256 when it is
/// more than 255.
fn number_value(digits: &[u8]) -> u32 {
    digits.iter().fold(0, |value, &b| (value * 10 + u32::from(b - b'0')).min(256))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where a run of token bytes from 0 ends, byte by byte: at a byte that
    /// is no token byte, or at an invisible character.
    fn reference_run_end(input: &[u8]) -> usize {
        (0..input.len())
            .find(|&j| CLASS[input[j] as usize] != TOKEN || invisible_len(input, j) > 0)
            .unwrap_or(input.len())
    }

    /// Every byte that is not a token byte, at every place in a word of token
    /// bytes, after any other byte: the run ends there.
    #[test]
    fn runs_end_at_every_delimiter() {
        for b in 0..=255u8 {
            for before in 0..=255u8 {
                for k in 0..8 {
                    let mut word = *b"Nf3xe5+!";
                    if k > 0 {
                        word[k - 1] = if CLASS[before as usize] == TOKEN { before } else { b'a' };
                    }
                    word[k] = b;
                    let mut input = word.to_vec();
                    input.extend_from_slice(b"abc");
                    let expected = reference_run_end(&input);
                    if CLASS[b as usize] != TOKEN {
                        assert!(expected <= k);
                    }
                    assert_eq!(run_end(&input, 0), expected, "byte {b:#04x} after {before:#04x} at {k}");
                }
            }
        }
        // token bytes that the word arithmetic marks too, before the delimiter
        let marked = *b"9=?!#&'_";
        assert!(marked.iter().all(|&b| CLASS[b as usize] == TOKEN));
        for b in (0..=255u8).filter(|&b| CLASS[b as usize] != TOKEN) {
            for k in 0..8 {
                let mut input = marked.to_vec();
                input[k] = b;
                assert_eq!(run_end(&input, 0), k, "byte {b:#04x} at {k}");
            }
        }
        assert_eq!(run_end(&marked, 0), 8);
        // shorter than a word, and longer
        assert_eq!(run_end(b"e4", 0), 2);
        assert_eq!(run_end(b"Nf3", 1), 3);
        assert_eq!(run_end(b"abcdefghijk)", 0), 11);
        assert_eq!(run_end(b"abcdefghijk", 2), 11);
    }

    /// Invisible characters end a run, in the first word and after it; the
    /// other characters whose first byte is the same do not.
    #[test]
    fn runs_end_at_invisible_characters() {
        for invisible in [&b"\xc2\xa0"[..], b"\xa0", b"\xe2\x80\x8b", b"\xef\xbb\xbf"] {
            for k in 1..12 {
                let mut input = b"Nf3xe5+!?abcdef"[..k].to_vec();
                input.extend_from_slice(invisible);
                input.extend_from_slice(b"e5");
                assert_eq!(run_end(&input, 0), k, "{invisible:x?} at {k}");
            }
        }
        for token in ["O\u{2013}O", "0\u{2014}0", "\u{bd}-\u{bd}", "Nf3\u{b1}", "e4e5e6e7\u{2013}"] {
            assert_eq!(run_end(token.as_bytes(), 0), token.len(), "{token}");
        }
        // `A0` after a byte from 0x80 is part of a character (Latin-1 `é` here)
        assert_eq!(run_end(b"Nf3\xe9\xa0x", 0), 6);
    }
}
