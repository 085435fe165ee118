//! The formatter: PGN games rewritten with canonical SAN and one layout, or,
//! when a game cannot be read with certainty, left exactly as it was.
//!
//! ```
//! use sanfen::pgn::format::format_pgn;
//!
//! let pgn = b"[White \"Reti\"]\n1.Ng1f3 d5 2.g3!? {fianchetto} Nc6 3.Bg2 e5 4.0-0 1-0\n";
//! let (text, unchanged) = format_pgn(pgn);
//! assert!(unchanged.is_empty());
//! assert_eq!(
//!     String::from_utf8(text).unwrap(),
//!     "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"Reti\"]\n\
//!      [Black \"?\"]\n[Result \"1-0\"]\n\n1. Nf3 d5 2. g3!? {fianchetto} 2... Nc6 3. Bg2 e5 4. O-O 1-0\n"
//! );
//!
//! // an illegal move: the game is written as it was, and the reason is given
//! let (text, unchanged) = format_pgn(b"1. e4 e5 2. Ke3 *\n");
//! assert_eq!(text, b"1. e4 e5 2. Ke3 *\n");
//! let (game, error) = &unchanged[0];
//! assert_eq!((*game, error.at.line, error.at.column), (1, 1, 13));
//! assert!(error.to_string().starts_with("2. Ke3: illegal: "));
//! ```
//!
//! # What is written
//!
//! A game is **rewritten** when every token of it is understood: the tags
//! give a position sanfen plays (standard chess or Chess960), every move
//! resolves (in any spelling [`play`](crate::play::play) reads, English
//! letters) to exactly one legal move or is a null move out of check, and
//! the reader reported no syntax error. Otherwise the game is written
//! **unchanged**: the bytes from its first token to its last (but for its
//! line ends, the output's; with the no-break and zero-width spaces right
//! before its first token, which the reader reads as spaces), then one
//! line end, and
//! [`FormattedGame::error`] says why (the first problem); UTF-16 input is
//! written back byte for byte. (A game
//! of tags alone, or of tags and `;` comments, gets a blank line and a
//! termination marker after them, as a rewritten one does: without it, the
//! rewritten game after it could be read as more of its tags.)
//! The meaning of a game is never changed:
//!
//! - **Tags**: one per line, `[Name "value"]`. The Seven Tag Roster first in
//!   its order (Event, Site, Date, Round, White, Black, Result), then every
//!   other tag in input order (a repeated tag name stays, in input order,
//!   after the roster). A missing roster tag is added with the PGN value for
//!   "unknown": `?`, `????.??.??` for Date, and for Result the termination
//!   marker. Values are written as given, byte for byte (Latin-1 stays
//!   Latin-1), with `"` and `\` escaped (`\"`, `\\`); a lone `\` in the input
//!   is a backslash and is written `\\`.
//! - One blank line, then the **movetext**: moves in canonical SAN with
//!   their check mark (`0-0` becomes `O-O`, `e8Q` `e8=Q`, `Ng1f3` `Nf3`;
//!   `O-O` also in Chess960; a null move, `Z0` or `--`, is `--`); an
//!   annotation written with a move stays with it (`Nf3!?`); an annotation
//!   written as its own token (`!?`) and every NAG is written `$n`. `N.` before every White move; `N...` before a Black move
//!   that starts the game or a variation, or follows a comment, a NAG or a
//!   variation (the PGN export rule: "intervening annotation or
//!   commentary"). Move numbers in the input are not kept: they are written
//!   from the position. Comments are kept byte for byte, braces and all
//!   (`{ [%clk 0:03:00] }` keeps its spaces), but for a `\r\n` line break
//!   in one, written `\n` as everywhere in the output; a `;` comment is written
//!   `{text}`, or, if its text holds a `}`, as `;text` followed by a line
//!   break. Variations are kept, `(` glued to the token after it and `)` to
//!   the token before it, lichess style: `1. e4 (1. d4 d5) 1... e5`. The
//!   termination marker ends the movetext, canonical (`1–0` is `1-0`, `½-½`
//!   is `1/2-1/2`, and so is a Result tag of `½-½`); a movetext without one
//!   gets the Result tag's value if it is a marker, else `*`.
//! - **Lines** of movetext are at most [`MAX_WIDTH`] bytes: tokens are
//!   separated by one space and a token that does not fit starts a new line.
//!   A move number stays on the line of its move. Comments are never broken
//!   (their text is their meaning): a comment longer than a line sits on its
//!   own line, and a comment's own line breaks are kept. Tag lines are never
//!   wrapped.
//! - **Nothing is dropped.** A comment after the termination marker, on its
//!   line, stays there: `1-0 {note}`. Comments and `%` escape lines between
//!   games are written as they are, each on its own line(s), where they
//!   were: before the next game (a blank line after them), or after the
//!   last game ([`Formatter::take_outside`]). An escape line among a game's
//!   tags is written after the tags; one in the movetext on a line of its
//!   own at its place. A comment among the tags (`;` or `{ }`, a tag of the
//!   game following it) is written on its line after the tag it came after,
//!   wherever the roster order puts that tag, but before the last tag
//!   written when it would come after it (there, it would start the
//!   movetext). Evaluation symbols written for NAGs (`±`) are written
//!   `$n`; an en passant mark written apart (`exd6 e.p.`) goes the way of
//!   a glued one (canonical SAN has none). Only whitespace changes: invisible
//!   characters between tokens (no-break and zero-width spaces, a byte order
//!   mark after the start) are whitespace, and the byte order mark at the
//!   start of the input is not written.
//! - Lines end as the input's first line does, `\r\n` or `\n`, throughout
//!   (comments and games written unchanged included: never a mix); games are
//!   separated by one blank line ([`format_pgn`] and `sanfen fmt` write it;
//!   [`FormattedGame::text`] has none).
//!
//! Formatting is idempotent: formatting the output again gives the same
//! bytes.
//!
//! [`Formatter::with_notation`] writes the moves in another notation
//! instead of SAN: long algebraic (`Ng1-f3`, `e7-e8=Q+`), UCI (`g1f3`,
//! `e7e8q`, no check mark; a null move `0000`; Chess960 castling king to
//! rook), or SAN with figurines (`♘f3`); castling stays `O-O` but in UCI,
//! and an annotation glued to a move stays glued (`g1f3!?`). Every one is
//! read back, so formatting such output in SAN gives what formatting the
//! input in SAN gives. Everything else is as above.

use core::fmt;
use core::ops::Range;

use memchr::{memchr, memrchr};

use crate::lint::LintPolicy;
use crate::notation::{Notation, write_known_move};
use crate::pgn::SEVEN_TAG_ROSTER;
use crate::pgn::game::{Game, Line};
use crate::pgn::reader::{
    Location, RawText, Reader, ResultToken, Skip, SyntaxError, SyntaxErrorKind, Visitor, decode_text, invisible_before,
    looks_utf16, result_of,
};
use crate::pgn::start::{Start, StartError, start_position};
use crate::pgn::validate::{Options, Validator, found_decoded};
use crate::play::{self, MoveNumber, PlayError};
use crate::resolve::SanError;
use crate::san::{Letters, ParseSanError, SanPlus};
use crate::{CastlingMode, Color, Move, Position, Severity};

/// The longest line of movetext the formatter writes, in bytes, unless a
/// single comment is longer.
pub const MAX_WIDTH: usize = 80;

/// One game, formatted or left as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormattedGame {
    /// The game's text, ending with one `\n` (no blank line after it). Empty
    /// only for a game of no bytes.
    pub text: Vec<u8>,
    /// Why the game was written unchanged; `None` when it was rewritten.
    pub error: Option<FormatError>,
}

/// Why a game was written unchanged: where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// Where the problem is (the token, the tag, the `(`).
    pub at: Location,
    /// What it is.
    pub kind: FormatErrorKind,
}

/// What keeps a game from being rewritten.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FormatErrorKind {
    /// The reader found broken PGN syntax.
    Syntax(SyntaxErrorKind, String),
    /// A movetext token that is no move in any spelling.
    NotAMove {
        /// The move as written, after its move number (`12... Xd7`).
        text: String,
        /// Why it is no move.
        error: ParseSanError,
    },
    /// A move that is illegal or ambiguous where it is played.
    Move {
        /// The move as written, after its move number (`12... Nd7`).
        text: String,
        /// Why it cannot be played.
        error: SanError,
    },
    /// The `FEN` tag cannot be played.
    FenTag(StartError),
    /// The `Variant` tag names a variant sanfen does not play.
    Variant(String),
    /// A null move (`--`, `Z0`) while in check: the king would stay
    /// attacked.
    NullMoveInCheck {
        /// The move as written, after its move number (`12... --`).
        text: String,
    },
    /// A `(` with no move before it to replace.
    VariationWithoutMove,
    /// A termination marker inside a variation.
    ResultInVariation,
    /// A comment that holds both `}` and a line break, which no PGN comment
    /// can (the reader never gives one).
    UnwritableComment,
    /// An en passant mark (`e.p.`) after a move that is no en passant
    /// capture.
    EnPassantMarkWithoutCapture {
        /// The mark as written, after the move's number (`12. e.p.`).
        text: String,
    },
    /// A lint finding that the policy denies ([`denied_findings`]).
    Denied {
        /// The finding's code (`san:castling-zeros`).
        code: &'static str,
        /// The token as written (empty for a finding about the whole game).
        token: String,
        /// What the finding says.
        message: String,
    },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.kind, f)
    }
}

impl fmt::Display for FormatErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatErrorKind::Syntax(kind, found) => {
                f.write_str(match kind {
                    SyntaxErrorKind::UnclosedComment => "syntax: a `{` comment is not closed",
                    SyntaxErrorKind::UnclosedVariation => "syntax: a `(` variation is not closed",
                    SyntaxErrorKind::UnmatchedCloseParen => "syntax: a `)` closes no variation",
                    SyntaxErrorKind::TooDeep => "syntax: variations nested too deep",
                    SyntaxErrorKind::BadTag => "syntax: not a tag pair `[Name \"value\"]`",
                    SyntaxErrorKind::UnexpectedChar => "syntax: a character that starts no token",
                    SyntaxErrorKind::BadNag => "syntax: a NAG past $255",
                    SyntaxErrorKind::Utf16 => "input looks like UTF-16; convert it to UTF-8",
                })?;
                if !found.is_empty() {
                    write!(f, ": found {found:?}")?;
                }
                Ok(())
            }
            FormatErrorKind::NotAMove { text, error } => write!(f, "{text}: {error}"),
            FormatErrorKind::Move { text, error } => write!(f, "{text}: {error}"),
            FormatErrorKind::FenTag(error) => write!(f, "{error}"),
            FormatErrorKind::Variant(name) => write!(f, "variant {name:?} is not played by sanfen"),
            FormatErrorKind::NullMoveInCheck { text } => {
                write!(f, "{text}: a null move while in check: the king would stay attacked")
            }
            FormatErrorKind::VariationWithoutMove => f.write_str("a variation with no move before it"),
            FormatErrorKind::ResultInVariation => f.write_str("a termination marker inside a variation"),
            FormatErrorKind::UnwritableComment => f.write_str("a comment with both `}` and a line break"),
            FormatErrorKind::EnPassantMarkWithoutCapture { text } => {
                write!(f, "{text}: an en passant mark after a move that is no en passant capture")
            }
            FormatErrorKind::Denied { code, token, message } if token.is_empty() => {
                write!(f, "{message} ({code}, denied)")
            }
            FormatErrorKind::Denied { code, token, message } => write!(f, "{token}: {message} ({code}, denied)"),
        }
    }
}

impl std::error::Error for FormatError {}

/// A tag as read: ranges into the formatter's tag buffer.
#[derive(Clone, Debug)]
struct Tag {
    name: Range<usize>,
    value: Range<usize>,
    at: Location,
}

/// A line of play being written: the position after its last move, the
/// position before it (where a variation replacing that move starts), and
/// whether the next Black move needs its move number.
#[derive(Clone, Debug)]
struct Frame {
    position: Position,
    before: Option<Position>,
    number_black: bool,
    /// The last move was an en passant capture.
    en_passant: bool,
}

/// Movetext being laid out in lines of at most [`MAX_WIDTH`] bytes.
///
/// An *atom* is what is never broken: a token with its move number, the `(`
/// before it and the `)`s after it. The last atom is held until the next
/// token starts, so that a `)` can still join it.
#[derive(Clone, Debug, Default)]
struct Layout {
    out: Vec<u8>,
    /// Bytes on the current line.
    column: usize,
    atom: Vec<u8>,
    /// Whether `atom` holds a token not yet placed.
    pending: bool,
    /// Whether `atom` is a `;` comment, which a line break must end.
    line_comment: bool,
    /// `(`s waiting for the next token.
    opens: usize,
}

impl Layout {
    fn clear(&mut self) {
        self.out.clear();
        self.column = 0;
        self.atom.clear();
        self.pending = false;
        self.line_comment = false;
        self.opens = 0;
    }

    /// Places the held atom, and starts a new one (with the waiting `(`s);
    /// the caller appends the token.
    fn token(&mut self) -> &mut Vec<u8> {
        self.flush();
        self.pending = true;
        self.atom.extend(core::iter::repeat_n(b'(', self.opens));
        self.opens = 0;
        &mut self.atom
    }

    fn open(&mut self) {
        self.opens += 1;
    }

    /// Whether nothing has been written or held yet.
    fn is_empty(&self) -> bool {
        self.out.is_empty() && !self.pending && self.opens == 0
    }

    /// A line of its own (a `%` escape line), as written.
    fn own_line(&mut self, line: &[u8]) {
        self.flush();
        if self.column > 0 {
            self.out.push(b'\n');
        }
        self.out.extend_from_slice(line);
        self.out.push(b'\n');
        self.column = 0;
    }

    fn close(&mut self) {
        if self.opens > 0 || !self.pending || self.line_comment {
            // an empty variation, or nothing the `)` can join
            self.token();
        }
        self.atom.push(b')');
    }

    fn flush(&mut self) {
        if !self.pending {
            return;
        }
        let atom = &self.atom;
        let first_line = memchr(b'\n', atom).unwrap_or(atom.len());
        if self.column > 0 {
            if self.column + 1 + first_line <= MAX_WIDTH {
                self.out.push(b' ');
                self.column += 1;
            } else {
                self.out.push(b'\n');
                self.column = 0;
            }
        }
        self.out.extend_from_slice(atom);
        self.column = match memrchr(b'\n', atom) {
            Some(newline) => atom.len() - newline - 1,
            None => self.column + atom.len(),
        };
        if self.line_comment {
            self.out.push(b'\n');
            self.column = 0;
        }
        self.atom.clear();
        self.pending = false;
        self.line_comment = false;
    }
}

/// The formatter: a [`Visitor`] whose output is each game formatted (see the
/// [module documentation](self) for the layout).
///
/// It is given the same bytes as the [`Reader`], to copy a game it cannot
/// rewrite, and can be used for every game read from them.
///
/// ```
/// use sanfen::pgn::format::Formatter;
/// use sanfen::pgn::reader::Reader;
///
/// let pgn = b"1. e4 e5 2. Nf3 Nc6 *\n";
/// let mut reader = Reader::new(pgn);
/// let mut formatter = Formatter::new(pgn, reader.location());
/// let game = reader.read_game(&mut formatter).unwrap();
/// assert_eq!(game.error, None);
/// assert!(game.text.ends_with(b"[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n"));
/// ```
#[derive(Clone, Debug)]
pub struct Formatter<'a> {
    input: &'a [u8],
    start: u64,
    /// Offset of the game's first byte and of the byte after its last token.
    begin: u64,
    /// Where the game's first byte is.
    begin_at: Location,
    end: u64,
    error: Option<FormatError>,
    tag_bytes: Vec<u8>,
    tags: Vec<Tag>,
    /// Whether the movetext started (the start position was looked up).
    started: bool,
    /// Whether anything came after the tags but `;` comments (after a game
    /// written unchanged, a tag the game lacks would make those comments
    /// its tags': [`Formatter::unchanged`] ends the game with a marker).
    has_movetext: bool,
    lines: Vec<Frame>,
    result: Option<ResultToken>,
    layout: Layout,
    /// Whether lines end with `\r\n` (else `\n`).
    crlf: bool,
    /// Between `begin_game` and `end_game`.
    in_game: bool,
    /// Text between games (comments, escape lines) not yet written, one
    /// line (or comment) each, `\n` after each.
    outside: Vec<u8>,
    /// The game's escape lines among its tags, `\n` after each.
    tag_escapes: Vec<u8>,
    /// The game's comments among its tags, as written (in `tag_bytes`),
    /// each with the number of tags before it.
    tag_comments: Vec<(usize, Range<usize>)>,
    /// The comments after the termination marker, a space before each.
    after_result: Vec<u8>,
    /// The game is UTF-16: written as it is, byte for byte.
    verbatim: bool,
    /// How moves are written.
    notation: Notation,
    /// The piece letters moves are read in.
    letters: Letters,
    /// A move's text in another notation than SAN, written there first.
    move_text: String,
    /// Why the next game is to be written unchanged, when the caller knows
    /// ([`Formatter::refuse_next_game`]).
    next_refusal: Option<FormatError>,
    /// The same, for the game being read.
    refusal: Option<FormatError>,
}

impl<'a> Formatter<'a> {
    /// A formatter for games read from `input`, whose first byte is at
    /// `start`: a chunk and its start, as the [`Reader`] is given them, or a
    /// whole stream and [`Reader::location`] before its first game. A stream
    /// that starts with a UTF-8 byte order mark is given without it (the
    /// reader skips it, so its location is then 3 bytes on), as
    /// [`format_pgn`] does:
    ///
    /// ```
    /// use sanfen::pgn::format::Formatter;
    /// use sanfen::pgn::reader::Reader;
    ///
    /// let pgn = b"\xef\xbb\xbf1. Ke3 *\n";
    /// let mut reader = Reader::new(pgn);
    /// let mut formatter = Formatter::new(&pgn[3..], reader.location());
    /// let game = reader.read_game(&mut formatter).unwrap();
    /// assert_eq!(game.text, b"1. Ke3 *\n");
    /// ```
    pub fn new(input: &'a [u8], start: Location) -> Formatter<'a> {
        Formatter {
            input,
            start: start.offset,
            begin: start.offset,
            begin_at: start,
            end: start.offset,
            error: None,
            tag_bytes: Vec::new(),
            tags: Vec::new(),
            started: false,
            has_movetext: false,
            lines: Vec::new(),
            result: None,
            layout: Layout::default(),
            crlf: uses_crlf(input),
            in_game: false,
            outside: Vec::new(),
            tag_escapes: Vec::new(),
            tag_comments: Vec::new(),
            after_result: Vec::new(),
            verbatim: false,
            notation: Notation::San,
            letters: Letters::English,
            move_text: String::new(),
            next_refusal: None,
            refusal: None,
        }
    }

    /// The same formatter, writing lines that end with `\r\n` (`crlf`) or
    /// `\n`. [`Formatter::new`] takes the convention of the input
    /// ([`uses_crlf`]); a caller that formats a stream in chunks gives every
    /// chunk the convention of the first.
    #[must_use]
    pub fn with_crlf(self, crlf: bool) -> Formatter<'a> {
        Formatter { crlf, ..self }
    }

    /// The same formatter, writing moves in `notation` (SAN by default;
    /// see the module's documentation). [`Notation::FilePrefixed`], a
    /// listing's notation, writes castling as the king's move (`Kg1`),
    /// which no PGN reader reads as castling.
    #[must_use]
    pub fn with_notation(self, notation: Notation) -> Formatter<'a> {
        Formatter { notation, ..self }
    }

    /// The same formatter, reading moves in the piece letters of `letters`
    /// (English by default): a move in another language's letters (`Cf3`
    /// in Portuguese) is written in canonical SAN, in English (`Nf3`).
    ///
    /// ```
    /// use sanfen::pgn::format::Formatter;
    /// use sanfen::pgn::reader::Reader;
    /// use sanfen::san::Letters;
    ///
    /// let pgn = b"1. e4 e5 2. Cf3 Cc6 3. Bb5 Cf6 4. O-O Bc5 5. Te1 *\n";
    /// let mut reader = Reader::new(pgn);
    /// let mut formatter = Formatter::new(pgn, reader.location()).with_letters(Letters::Portuguese);
    /// let game = reader.read_game(&mut formatter).unwrap();
    /// assert!(game.text.ends_with(b"\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O Bc5 5. Re1 *\n"));
    /// ```
    #[must_use]
    pub fn with_letters(self, letters: Letters) -> Formatter<'a> {
        Formatter { letters, ..self }
    }

    /// Whether the lines written end with `\r\n`.
    pub fn crlf(&self) -> bool {
        self.crlf
    }

    /// The text between games read since the last game that no game has
    /// taken yet (after the last game of the input, comments and escape
    /// lines that no game follows), to be written after that game with
    /// [`append_game`]; empty when there is none. Call it when the reader
    /// gives `None`.
    pub fn take_outside(&mut self) -> Vec<u8> {
        let text = core::mem::take(&mut self.outside);
        self.line_ends(text)
    }

    /// `text` with the line ends of the output ([`with_line_ends`]).
    fn line_ends(&self, text: Vec<u8>) -> Vec<u8> {
        with_line_ends(text, self.crlf)
    }

    /// Records the first problem of the game.
    /// Makes the next game read be written unchanged, for this reason
    /// (unless it has a problem of its own, which is then the reason given).
    pub fn refuse_next_game(&mut self, error: FormatError) {
        self.next_refusal = Some(error);
    }

    fn fail(&mut self, at: Location, kind: FormatErrorKind) {
        if self.error.is_none() {
            self.error = Some(FormatError { at, kind });
        }
    }

    /// The value of the tag named `name`, unescaped: of the last one when
    /// there are several (`pgn:duplicate-tag`), as the game is checked.
    fn tag_value(&self, name: &[u8]) -> Option<(Vec<u8>, Location)> {
        self.tags
            .iter()
            .rev()
            .find(|tag| &self.tag_bytes[tag.name.clone()] == name)
            .map(|tag| (RawText(&self.tag_bytes[tag.value.clone()]).unescaped(), tag.at))
    }

    /// Looks up the start position, once, and whether the game can be played
    /// (no problem so far).
    fn playing(&mut self) -> bool {
        if !self.started {
            self.started = true;
            let variant = self.tag_value(b"Variant");
            let fen = self.tag_value(b"FEN");
            let variant_name = variant.as_ref().map(|(value, _)| decode_text(value).into_owned());
            let fen_at = fen.as_ref().map(|(_, at)| *at).unwrap_or_default();
            let fen_text = match fen.as_ref().map(|(value, _)| core::str::from_utf8(value)) {
                None => None,
                Some(Ok(text)) => Some(text),
                Some(Err(_)) => {
                    let message = "FEN tag: not ASCII".to_owned();
                    self.fail(fen_at, FormatErrorKind::FenTag(StartError { message }));
                    return false;
                }
            };
            match start_position(variant_name.as_deref(), fen_text) {
                Ok(Start::Play { position, .. }) => {
                    self.lines.push(Frame { position: *position, before: None, number_black: true, en_passant: false });
                }
                Ok(Start::Skip { variant }) => {
                    let at = self.tag_value(b"Variant").map(|(_, at)| at).unwrap_or_default();
                    self.fail(at, FormatErrorKind::Variant(variant));
                }
                Err(error) => self.fail(fen_at, FormatErrorKind::FenTag(error)),
            }
        }
        self.error.is_none()
    }

    /// Notes a movetext event; whether the game can be played (see
    /// [`Formatter::playing`]).
    fn movetext(&mut self) -> bool {
        self.has_movetext = true;
        self.playing()
    }

    /// The termination marker to write.
    fn marker(&self) -> &'static [u8] {
        match self.result {
            Some(ResultToken::Outcome(outcome)) => outcome.as_str().as_bytes(),
            Some(ResultToken::Unknown) => b"*",
            None => match self.tag_value(b"Result").and_then(|(value, _)| result_of(&value)) {
                Some(ResultToken::Outcome(outcome)) => outcome.as_str().as_bytes(),
                _ => b"*",
            },
        }
    }

    /// The game as it was; a game of tags alone (or of tags and `;`
    /// comments) gets its termination marker after them (when the reader reads that marker as the game's: not
    /// after a token that gives no event, like a stray `.`, after which a
    /// blank line ends the game).
    fn unchanged(&self) -> Vec<u8> {
        let len = self.input.len();
        let index = |offset: u64| usize::try_from(offset.saturating_sub(self.start)).unwrap_or(len).min(len);
        // with the invisible characters just before its first token (a
        // no-break space the reader took for a space): the reader starts
        // the game after them, and they would be lost, one a pass. Not a
        // byte order mark: first in the output, it would say the encoding,
        // and go in the next pass.
        let mut begin = index(self.begin);
        while let k @ 1.. = invisible_before(self.input, begin) {
            if self.input[..begin].ends_with(b"\xef\xbb\xbf") {
                break;
            }
            begin -= k;
        }
        let raw = &self.input[begin..index(self.end).max(begin)];
        // only its line ends go: a `;` comment or an escape line may end with spaces
        let kept = raw.iter().rposition(|&b| b != b'\n' && b != b'\r').map_or(0, |last| last + 1);
        let mut text = Vec::with_capacity(kept + 5);
        if kept > 0 {
            if raw[0] == b'%' || looks_utf16(&raw[..kept]) {
                // Whitespace came before it (else a `%` would have made an
                // escape line, and the input would have been read as
                // UTF-16): first on a line, a `%` would become an escape
                // line, and first in the output, a UTF-16 byte order mark
                // or a NUL in every other byte would make the whole output
                // UTF-16.
                text.push(b' ');
            }
            text.extend_from_slice(&raw[..kept]);
            text.push(b'\n');
            if !self.has_movetext {
                // The reader ended it at a tag it already had, after a blank
                // line; the rewritten game after it may start with a tag it
                // lacks (`[Event`), and would then be read as part of it
                // (its comments too, as comments among its tags).
                let bare = text.len();
                text.push(b'\n');
                text.extend_from_slice(self.marker());
                text.push(b'\n');
                if !one_game(&text, self.begin_at) {
                    // The reader read a movetext token, so a blank line
                    // ends the game: the marker would be a game of its own,
                    // and the game after it cannot join this one.
                    text.truncate(bare);
                }
            }
        }
        text
    }

    /// The game rewritten: tags, blank line, movetext.
    fn rewritten(&mut self) -> Vec<u8> {
        let marker = self.marker();
        let tag_bytes = &self.tag_bytes;
        let mut text = Vec::with_capacity(tag_bytes.len() + 16 * self.tags.len() + self.layout.out.len() + 128);
        let position = |name: &str| self.tags.iter().position(|tag| &tag_bytes[tag.name.clone()] == name.as_bytes());
        let roster_tags = SEVEN_TAG_ROSTER.map(|(name, _)| position(name));
        // The last tag written: the last of the others, or Result.
        let last = (0..self.tags.len()).rev().find(|&index| !roster_tags.contains(&Some(index))).or(roster_tags[6]);
        // A tag of the input, with the comments that came after it (with the
        // first tag, any before every tag): after the last tag written they
        // would be read as the movetext's, so there they go before it.
        let write_input_tag = |text: &mut Vec<u8>, index: usize, name: &[u8], value: &[u8]| {
            let upto = |tags: usize| self.tag_comments.partition_point(|(before, _)| *before <= tags);
            let comments = &self.tag_comments[if index == 0 { 0 } else { upto(index) }..upto(index + 1)];
            let write_comments = |text: &mut Vec<u8>| {
                for (_, comment) in comments {
                    text.extend_from_slice(&tag_bytes[comment.clone()]);
                    text.push(b'\n');
                }
            };
            if Some(index) == last {
                write_comments(text);
                write_tag(text, name, value);
            } else {
                write_tag(text, name, value);
                write_comments(text);
            }
        };
        // a missing tag gets its unknown value; a missing Result, the termination marker
        for ((name, unknown), slot) in SEVEN_TAG_ROSTER.into_iter().zip(roster_tags) {
            let (name, missing) = (name.as_bytes(), if name == "Result" { marker } else { unknown.as_bytes() });
            match slot {
                Some(index) => {
                    let value = &tag_bytes[self.tags[index].value.clone()];
                    // a result spelled unlike PGN (`½-½`) is written as PGN writes it
                    let canonical = match result_of(value) {
                        Some(ResultToken::Outcome(outcome)) if name == b"Result" => outcome.as_str().as_bytes(),
                        _ => value,
                    };
                    write_input_tag(&mut text, index, name, canonical);
                }
                None => write_tag(&mut text, name, missing),
            }
        }
        for (index, tag) in self.tags.iter().enumerate() {
            if !roster_tags.contains(&Some(index)) {
                write_input_tag(&mut text, index, &tag_bytes[tag.name.clone()], &tag_bytes[tag.value.clone()]);
            }
        }
        text.extend_from_slice(&self.tag_escapes);
        text.push(b'\n');
        self.layout.token().extend_from_slice(marker);
        self.layout.flush();
        text.extend_from_slice(&self.layout.out);
        // on the marker's line, where the reader finds them again
        text.extend_from_slice(&self.after_result);
        text.push(b'\n');
        text
    }
}

/// Whether `text`, starting at `at` in its stream, reads as one game.
fn one_game(text: &[u8], at: Location) -> bool {
    struct Games;
    impl Visitor for Games {
        type Output = ();
        fn end_game(&mut self, _at: Location) {}
    }
    let mut reader = Reader::with_start(text, at);
    reader.read_game(&mut Games).is_some() && reader.read_game(&mut Games).is_none()
}

/// Writes `[Name "value"]` and a line break, the value re-escaped.
fn write_tag(out: &mut Vec<u8>, name: &[u8], raw_value: &[u8]) {
    out.push(b'[');
    out.extend_from_slice(name);
    out.extend_from_slice(b" \"");
    for byte in RawText(raw_value).unescaped() {
        if byte == b'"' || byte == b'\\' {
            out.push(b'\\');
        }
        out.push(byte);
    }
    out.extend_from_slice(b"\"]\n");
}

/// Writes `[Name "value"]` and a line break, for a decoded value: `"` and
/// `\` escaped.
pub(crate) fn write_decoded_tag(out: &mut Vec<u8>, name: &str, value: &str) {
    out.push(b'[');
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b" \"");
    for byte in value.bytes() {
        if byte == b'"' || byte == b'\\' {
            out.push(b'\\');
        }
        out.push(byte);
    }
    out.extend_from_slice(b"\"]\n");
}

/// Appends to `atom` a move played (`None`: a null move) whose canonical
/// SAN, with its check mark and annotation, is `san`, in `notation`
/// (castling in UCI as `mode` says); `scratch` holds the text of other
/// notations on the way.
fn write_played(
    atom: &mut Vec<u8>,
    scratch: &mut String,
    m: Option<Move>,
    san: &SanPlus,
    mode: CastlingMode,
    notation: Notation,
) {
    if notation == Notation::San {
        return san.append_ascii(atom);
    }
    match m {
        Some(m) => {
            scratch.clear();
            write_known_move(scratch, m, san, mode, notation, Letters::English);
            atom.extend_from_slice(scratch.as_bytes());
        }
        None if notation == Notation::Uci => atom.extend_from_slice(b"0000"),
        None => atom.extend_from_slice(b"--"),
    }
    if let Some(annotation) = san.annotation {
        atom.extend_from_slice(annotation.as_str().as_bytes());
    }
}

/// Writes an owned game as PGN, its moves in `notation`: see
/// [`Game::to_pgn_in`], which calls it.
pub(crate) fn write_game(game: &Game, notation: Notation, out: &mut Vec<u8>) {
    for text in &game.before {
        out.extend_from_slice(text.as_bytes());
        out.push(b'\n');
    }
    if !game.before.is_empty() {
        out.push(b'\n');
    }
    // a comment after the last tag is written before it: after it, it
    // would be read as the movetext's
    let last = game.tags.len().saturating_sub(1).max(1);
    let mut comments = game.tag_comments.iter().peekable();
    for (index, tag) in game.tags.iter().enumerate() {
        write_decoded_tag(out, &tag.name, &tag.value);
        while let Some((_, text)) = comments.next_if(|(before, _)| (*before).min(last) <= index + 1) {
            out.extend_from_slice(text.as_bytes());
            out.push(b'\n');
        }
    }
    for (_, text) in comments {
        out.extend_from_slice(text.as_bytes());
        out.push(b'\n');
    }
    for line in &game.escapes {
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
    }
    if !game.tags.is_empty() || !game.escapes.is_empty() || !game.tag_comments.is_empty() {
        out.push(b'\n');
    }
    let mut layout = Layout::default();
    let mode = game.start.as_ref().map_or(CastlingMode::Standard, Position::castling_mode);
    let mut how = (notation, mode, String::new());
    write_line(&mut layout, &game.mainline, &mut how);
    let marker = match game.result {
        Some(ResultToken::Outcome(outcome)) => outcome.as_str(),
        Some(ResultToken::Unknown) | None => "*",
    };
    layout.token().extend_from_slice(marker.as_bytes());
    layout.flush();
    out.extend_from_slice(&layout.out);
    // on the marker's line, where the reader finds them again
    for text in &game.after_result {
        out.push(b' ');
        out.extend_from_slice(text.as_bytes());
    }
    out.push(b'\n');
    if !game.after.is_empty() {
        out.push(b'\n');
        for text in &game.after {
            out.extend_from_slice(text.as_bytes());
            out.push(b'\n');
        }
    }
}

/// Lays out a line of an owned game: its comments and NAGs, then its moves,
/// each with its number (before a White move; before a Black move that
/// starts the line or follows a NAG, a comment or a variation), its NAGs,
/// comments and variations.
/// The moves are written as `how` says: in its notation, castling in UCI as
/// its mode says, with its string for the text on the way.
fn write_line(layout: &mut Layout, line: &Line, how: &mut (Notation, CastlingMode, String)) {
    let mut number_black = true;
    for comment in &line.comments {
        write_comment(layout, comment.text());
    }
    for &nag in &line.nags {
        write_nag(layout, nag);
    }
    for node in &line.moves {
        let atom = layout.token();
        if node.side == Color::White {
            atom.extend_from_slice(node.number.to_string().as_bytes());
            atom.extend_from_slice(b". ");
        } else if number_black {
            atom.extend_from_slice(node.number.to_string().as_bytes());
            atom.extend_from_slice(b"... ");
        }
        let (notation, mode, scratch) = how;
        write_played(atom, scratch, node.played, &node.san, *mode, *notation);
        number_black = false;
        for &nag in &node.nags {
            write_nag(layout, nag);
            number_black = true;
        }
        for comment in &node.comments {
            write_comment(layout, comment.text());
            number_black = true;
        }
        for variation in &node.variations {
            layout.open();
            write_line(layout, variation, how);
            layout.close();
            number_black = true;
        }
    }
}

fn write_nag(layout: &mut Layout, nag: u8) {
    let atom = layout.token();
    atom.push(b'$');
    atom.extend_from_slice(nag.to_string().as_bytes());
}

/// A comment: `{text}`; a text that holds `}` as `;` comments, one per line
/// of it (a `;` comment ends at its line's end).
fn write_comment(layout: &mut Layout, text: &str) {
    if memchr(b'}', text.as_bytes()).is_none() {
        let atom = layout.token();
        atom.push(b'{');
        atom.extend_from_slice(text.as_bytes());
        atom.push(b'}');
        return;
    }
    for line in text.split('\n') {
        let atom = layout.token();
        atom.push(b';');
        atom.extend_from_slice(line.as_bytes());
        layout.line_comment = true;
    }
}

/// `12. Nf3` or `12... Nf6`, for messages.
fn move_text(position: &Position, token: &[u8]) -> String {
    format!("{} {}", MoveNumber::before(position), decode_text(token))
}

impl Visitor for Formatter<'_> {
    type Output = FormattedGame;

    fn begin_game(&mut self, at: Location) {
        self.begin = at.offset;
        self.begin_at = at;
        self.end = at.offset;
        self.error = None;
        self.tag_bytes.clear();
        self.tags.clear();
        self.started = false;
        self.has_movetext = false;
        self.lines.clear();
        self.result = None;
        self.layout.clear();
        self.in_game = true;
        self.tag_escapes.clear();
        self.tag_comments.clear();
        self.after_result.clear();
        self.verbatim = false;
        self.refusal = self.next_refusal.take();
    }

    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) {
        let start = self.tag_bytes.len();
        self.tag_bytes.extend_from_slice(name);
        let middle = self.tag_bytes.len();
        self.tag_bytes.extend_from_slice(value.0);
        self.tags.push(Tag { name: start..middle, value: middle..self.tag_bytes.len(), at });
    }

    fn end_tags(&mut self) -> Skip {
        self.playing();
        Skip(false)
    }

    fn tag_comment(&mut self, text: &[u8], _at: Location) {
        let start = self.tag_bytes.len();
        self.tag_bytes.extend_from_slice(text);
        self.tag_comments.push((self.tags.len(), start..self.tag_bytes.len()));
    }

    fn san(&mut self, token: &[u8], at: Location) {
        if !self.movetext() {
            return;
        }
        let Some(line) = self.lines.last_mut() else { return };
        let before = line.position.clone();
        let options = play::Options { letters: self.letters, ..play::Options::PGN };
        let played = match play::play(&mut line.position, token, options) {
            Ok(played) => played,
            Err(error) => {
                let text = move_text(&line.position, token);
                return self.fail(
                    at,
                    match error {
                        PlayError::NotAMove(error) => {
                            FormatErrorKind::NotAMove { text, error: found_decoded(error, token) }
                        }
                        PlayError::Move(error) => FormatErrorKind::Move { text, error },
                        PlayError::NullMoveInCheck => FormatErrorKind::NullMoveInCheck { text },
                    },
                );
            }
        };
        line.en_passant = matches!(played.m, Some(crate::Move::EnPassant { .. }));
        let san = played.annotated();
        let atom = self.layout.token();
        if before.turn() == Color::White || line.number_black {
            MoveNumber::before(&before).append_ascii(atom);
            atom.push(b' ');
        }
        write_played(atom, &mut self.move_text, played.m, &san, before.castling_mode(), self.notation);
        line.before = Some(before);
        line.number_black = false;
    }

    fn nag(&mut self, nag: u8, _token: &[u8], _at: Location) {
        if !self.movetext() {
            return;
        }
        let atom = self.layout.token();
        atom.push(b'$');
        atom.extend_from_slice(nag.to_string().as_bytes());
        if let Some(line) = self.lines.last_mut() {
            line.number_black = true;
        }
    }

    fn comment(&mut self, text: RawText<'_>, at: Location) {
        let at_input = usize::try_from(at.offset.saturating_sub(self.start)).ok().and_then(|i| self.input.get(i));
        self.has_movetext |= at_input != Some(&b';');
        if !self.playing() {
            return;
        }
        let text = text.0;
        if memchr(b'}', text).is_some() {
            if memchr(b'\n', text).is_some() {
                return self.fail(at, FormatErrorKind::UnwritableComment);
            }
            self.layout.token().push(b';');
            self.layout.atom.extend_from_slice(text);
            self.layout.line_comment = true;
        } else {
            let atom = self.layout.token();
            atom.push(b'{');
            // a line break is `\n` throughout the output, in comments too
            let mut rest = text;
            while let Some(cr) = memchr::memmem::find(rest, b"\r\n") {
                atom.extend_from_slice(&rest[..cr]);
                rest = &rest[cr + 1..];
            }
            atom.extend_from_slice(rest);
            atom.push(b'}');
        }
        if let Some(line) = self.lines.last_mut() {
            line.number_black = true;
        }
    }

    fn begin_variation(&mut self, at: Location) -> Skip {
        if !self.movetext() {
            return Skip(false);
        }
        match self.lines.last().and_then(|line| line.before.clone()) {
            Some(position) => {
                self.lines.push(Frame { position, before: None, number_black: true, en_passant: false });
                self.layout.open();
            }
            None => self.fail(at, FormatErrorKind::VariationWithoutMove),
        }
        Skip(false)
    }

    fn end_variation(&mut self, at: Location) {
        if !self.movetext() {
            return;
        }
        if self.lines.len() < 2 {
            return self.fail(at, FormatErrorKind::Syntax(SyntaxErrorKind::UnmatchedCloseParen, ")".to_owned()));
        }
        self.lines.pop();
        self.layout.close();
        if let Some(line) = self.lines.last_mut() {
            line.number_black = true;
        }
    }

    fn move_number(&mut self, _number: u32, _black: bool, _token: &[u8], _at: Location) {
        self.has_movetext = true;
    }

    fn en_passant_mark(&mut self, token: &[u8], at: Location) {
        if !self.movetext() {
            return;
        }
        // canonical SAN has no mark: the capture before it says it all
        let Some(line) = self.lines.last() else { return };
        if !line.en_passant {
            let text = move_text(&line.position, token);
            self.fail(at, FormatErrorKind::EnPassantMarkWithoutCapture { text });
        }
    }

    fn after_result(&mut self, text: &[u8], _at: Location) {
        self.after_result.push(b' ');
        self.after_result.extend_from_slice(text);
    }

    fn between_games(&mut self, text: &[u8], _at: Location) {
        self.outside.extend_from_slice(text);
        self.outside.push(b'\n');
    }

    fn escape(&mut self, line: &[u8], _at: Location) {
        if !self.in_game {
            self.outside.extend_from_slice(line);
            self.outside.push(b'\n');
        } else if !self.started {
            self.tag_escapes.extend_from_slice(line);
            self.tag_escapes.push(b'\n');
        } else if self.movetext() {
            if self.layout.is_empty() {
                // Nothing of the movetext written before it: written after
                // the tags, where it is read again (an escape line before
                // the first movetext item is in the tag section).
                self.tag_escapes.extend_from_slice(line);
                self.tag_escapes.push(b'\n');
            } else {
                self.layout.own_line(line);
            }
        }
    }

    fn result(&mut self, result: ResultToken, _token: &[u8], at: Location) {
        self.has_movetext = true;
        if self.lines.len() > 1 {
            self.fail(at, FormatErrorKind::ResultInVariation);
        }
        self.result = Some(result);
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        // after the tags (`end_tags` looked up the start), an error is movetext
        self.has_movetext |= self.started;
        let SyntaxError { kind, at, found } = error;
        self.verbatim |= kind == SyntaxErrorKind::Utf16;
        self.fail(at, FormatErrorKind::Syntax(kind, found));
    }

    fn end_game(&mut self, at: Location) -> FormattedGame {
        self.end = self.end.max(at.offset);
        if self.playing() && self.lines.len() > 1 {
            self.fail(at, FormatErrorKind::Syntax(SyntaxErrorKind::UnclosedVariation, String::new()));
        }
        self.in_game = false;
        if let Some(refusal) = self.refusal.take() {
            // a problem of its own comes first
            self.error.get_or_insert(refusal);
        }
        let (text, error) = match self.error.take() {
            Some(error) if self.verbatim => {
                let len = self.input.len();
                let index = |offset: u64| usize::try_from(offset.saturating_sub(self.start)).unwrap_or(len).min(len);
                let raw = self.input[index(self.begin)..index(self.end).max(index(self.begin))].to_vec();
                return FormattedGame { text: raw, error: Some(error) };
            }
            Some(error) => (self.unchanged(), Some(error)),
            None => (self.rewritten(), None),
        };
        // the text between the last game and this one comes first, a blank line after it
        let mut full = core::mem::take(&mut self.outside);
        if !full.is_empty() && !text.is_empty() {
            full.push(b'\n');
        }
        full.extend_from_slice(&text);
        FormattedGame { text: self.line_ends(full), error }
    }
}

/// For each game of `input` (whole games, the first at `start`, as a
/// [`crate::pgn::Chunk`] holds them, moves in the piece letters of
/// `letters`), the first finding that `policy` makes an error of a lint
/// finding, as the reason to write the game unchanged
/// (for [`Formatter::refuse_next_game`]); `None` for the other games. Empty
/// when the policy denies nothing.
///
/// ```
/// use sanfen::lint::LintPolicy;
/// use sanfen::pgn::Location;
/// use sanfen::pgn::format::denied_findings;
/// use sanfen::san::Letters;
///
/// let pgn = b"1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *\n\n1. d4 d5 *\n";
/// let start = Location { line: 1, column: 1, offset: 0 };
/// let mut policy = LintPolicy::default();
/// policy.deny("san:castling-zeros").unwrap();
/// let denied = denied_findings(pgn, start, policy, Letters::English);
/// assert_eq!(denied.len(), 2);
/// let error = denied[0].as_ref().unwrap();
/// assert_eq!((error.at.line, error.at.column), (1, 35));
/// assert_eq!(error.to_string(), "0-0: castling written with zeros; write O-O (san:castling-zeros, denied)");
/// assert_eq!(denied[1], None);
/// ```
pub fn denied_findings(
    input: &[u8],
    start: Location,
    policy: LintPolicy,
    letters: Letters,
) -> Vec<Option<FormatError>> {
    if !policy.denies_any() {
        return Vec::new();
    }
    let options = Options { policy, letters, ..Options::default() };
    let mut validator = Validator::with_base(input, start.offset, options);
    let mut reader = Reader::with_start(input, start);
    let mut denied = Vec::new();
    while let Some(report) = reader.read_game(&mut validator) {
        let finding = report
            .findings
            .into_iter()
            .find(|finding| finding.severity() == Severity::Error && finding.kind.severity() == Severity::Warning);
        denied.push(finding.map(|finding| FormatError {
            at: finding.at,
            kind: FormatErrorKind::Denied {
                code: finding.kind.code(),
                message: finding.kind.to_string(),
                token: finding.token,
            },
        }));
    }
    denied
}

/// Appends a game's text to PGN output, with the blank line that separates
/// it from the game before (`first`: whether it is the first game written).
pub fn append_game(out: &mut Vec<u8>, text: &[u8], first: bool) {
    if text.is_empty() {
        return;
    }
    if !first {
        // the line end the text uses
        if text.ends_with(b"\r\n") {
            out.push(b'\r');
        }
        out.push(b'\n');
    }
    out.extend_from_slice(text);
}

/// `text` (lines ending with `\n`, or `\r\n` as read) with its lines
/// ending with `\r\n` (`crlf`) or `\n`. The `\r`s right before a `\n` all
/// go with the line end (they are whitespace): kept, one of them would make
/// a line of `\n`-ended output look `\r\n`-ended, and formatting the output
/// again would change its line ends.
///
/// ```
/// use sanfen::pgn::format::with_line_ends;
///
/// assert_eq!(with_line_ends(b"1. e4 {a\r\nb} *\n".to_vec(), true), b"1. e4 {a\r\nb} *\r\n");
/// assert_eq!(with_line_ends(b"1. e4 {a\r\r\nb} *\r\n".to_vec(), false), b"1. e4 {a\nb} *\n");
/// ```
pub fn with_line_ends(text: Vec<u8>, crlf: bool) -> Vec<u8> {
    let crs = memchr::memchr_iter(b'\r', &text).count();
    if crs == 0 && !crlf {
        return text;
    }
    let newlines = memchr::memchr_iter(b'\n', &text).count();
    let mut out = Vec::with_capacity(text.len() + if crlf { newlines } else { 0 });
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        if b == b'\r' {
            // the run of `\r`s, looked at once
            let run = text[i..].iter().take_while(|&&b| b == b'\r').count();
            if text.get(i + run) != Some(&b'\n') {
                out.extend_from_slice(&text[i..i + run]);
            }
            i += run;
            continue;
        }
        if b == b'\n' && crlf {
            out.push(b'\r');
        }
        out.push(b);
        i += 1;
    }
    out
}

/// Whether PGN text uses `\r\n` line ends: its first line end is one.
pub fn uses_crlf(input: &[u8]) -> bool {
    memchr(b'\n', input).is_some_and(|newline| newline > 0 && input[newline - 1] == b'\r')
}

/// Formats every game of `input` (whole games, as a file holds them): the
/// formatted text, and for each game written unchanged its number (from 1)
/// and why.
pub fn format_pgn(input: &[u8]) -> (Vec<u8>, Vec<(usize, FormatError)>) {
    let mut reader = Reader::new(input);
    // the formatter's input starts where the reader starts, after the byte
    // order mark the reader skips
    let skipped = usize::try_from(reader.location().offset).unwrap_or(0).min(input.len());
    let mut formatter = Formatter::new(&input[skipped..], reader.location());
    let mut out = Vec::with_capacity(input.len() + input.len() / 4);
    let mut unchanged = Vec::new();
    let mut games = 0;
    while let Some(game) = reader.read_game(&mut formatter) {
        games += 1;
        let first = out.is_empty();
        append_game(&mut out, &game.text, first);
        if let Some(error) = game.error {
            unchanged.push((games, error));
        }
    }
    let first = out.is_empty();
    append_game(&mut out, &formatter.take_outside(), first);
    (out, unchanged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_values_are_unescaped_and_escaped_again() {
        for (raw, value, written) in [
            (&br"plain"[..], &b"plain"[..], &br#"[T "plain"]"#[..]),
            (br#"say \"hi\""#, br#"say "hi""#, br#"[T "say \"hi\""]"#),
            (br"a \\ b", br"a \ b", br#"[T "a \\ b"]"#),
            (br"C:\dir", br"C:\dir", br#"[T "C:\\dir"]"#),
            (br"end\", br"end\", br#"[T "end\\"]"#),
            (b"Caf\xe9", b"Caf\xe9", b"[T \"Caf\xe9\"]"),
        ] {
            assert_eq!(RawText(raw).unescaped(), value, "{raw:?}");
            let mut out = Vec::new();
            write_tag(&mut out, b"T", raw);
            assert_eq!(out.strip_suffix(b"\n"), Some(written), "{raw:?}");
        }
    }

    /// Lays out `tokens` (`(` and `)` are variation marks, `;...` line
    /// comments) and returns the text.
    fn layout(tokens: &[&str]) -> String {
        let mut layout = Layout::default();
        for token in tokens {
            match *token {
                "(" => layout.open(),
                ")" => layout.close(),
                _ => {
                    layout.token().extend_from_slice(token.as_bytes());
                    layout.line_comment = token.starts_with(';');
                }
            }
        }
        layout.flush();
        String::from_utf8(layout.out).unwrap()
    }

    #[test]
    fn layout_joins_parentheses_and_wraps() {
        let long = "x".repeat(MAX_WIDTH - 3);
        for (tokens, text) in [
            (&["1. e4", "(", "1. d4", ")", "*"][..], "1. e4 (1. d4) *".to_owned()),
            (&["1. e4", "(", ")", "*"], "1. e4 () *".to_owned()),
            (&["1. e4", "(", "1. d4", "(", "1. c4", ")", ")", "*"], "1. e4 (1. d4 (1. c4)) *".to_owned()),
            (&["1. e4", "(", "; x}", ")", "*"], "1. e4 (; x}\n) *".to_owned()),
            // `e4` and 77 bytes: 80 fit; a `)` more does not, so the atom moves
            (&["e4", &long], format!("e4 {long}")),
            (&["e4", "(", &long, ")"], format!("e4\n({long})")),
            // a comment's own line breaks: the first line must fit, the last
            // line is where the next token goes
            (&["e4", "{a\nbc}", "e5"], "e4 {a\nbc} e5".to_owned()),
            (&[&long, "{a\nb}", "e5"], format!("{long} {{a\nb}} e5")),
            (&[&format!("{long}x"), "{a\nb}", "e5"], format!("{long}x\n{{a\nb}} e5")),
        ] {
            assert_eq!(layout(tokens), text, "{tokens:?}");
        }
    }
}
