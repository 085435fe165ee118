//! The validator: a [`Visitor`] that plays every move of every game, mainline
//! and variations, and reports what is wrong ([`Severity::Error`]) or not
//! canonical ([`Severity::Warning`]), each finding located.
//!
//! ```
//! use sanfen::pgn::reader::Reader;
//! use sanfen::Severity;
//! use sanfen::pgn::validate::Validator;
//!
//! let pgn = b"[Event \"?\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nf6 3. Ke3 *\n";
//! let mut validator = Validator::new(pgn, Default::default());
//! let report = Reader::new(pgn).read_game(&mut validator).unwrap();
//! assert_eq!(report.moves, 4);
//! let finding = &report.findings[0];
//! assert_eq!(finding.severity(), Severity::Error);
//! assert_eq!((finding.at.line, finding.at.column, finding.ply), (9, 24, Some(5)));
//! assert_eq!(finding.token, "Ke3");
//! assert_eq!(finding.kind.code(), "san:illegal");
//! ```
//!
//! A variation replaces the move before it and is played from the position
//! before that move. After a move that cannot be played, the rest of its line
//! is read but not judged (a variation right after the bad move is still
//! played: it is the alternative to it); the other lines and the next game are
//! judged as usual.

use std::borrow::Cow;
use std::ops::Range;

use crate::lint::{Level, LintPolicy};
use crate::movegen::Undo;
use crate::pgn::SEVEN_TAG_ROSTER;
use crate::pgn::reader::{
    Location, RawText, ResultToken, Skip, SyntaxError, SyntaxErrorKind, TagNames, Visitor, bom_len, decode_text,
    result_of,
};
use crate::pgn::start::{Start, StartError, start_position};
use crate::play::{self, PlayError, Played};
use crate::resolve::{MoveLint, SanError};
use crate::san::{Letters, ParseSanError, SanLintKind, SanPlus, Suffix};
use crate::{Bitboard, Color, Position, Severity};

/// What the validator may be asked to keep beyond the findings themselves.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Keep the source line of each finding (to show it with a caret).
    pub source_lines: bool,
    /// Count the findings without keeping them ([`GameReport::findings`]
    /// stays empty; [`GameReport::errors`] and [`GameReport::lints`] count):
    /// for a summary alone, at less cost.
    pub count_only: bool,
    /// Which lint findings are not reported ([`Level::Allow`]) and which
    /// are errors ([`Level::Deny`]).
    pub policy: LintPolicy,
    /// The piece letters the moves are written in: English by default; in
    /// another language, a move in its letters is read (`Cf3` in
    /// Portuguese) with the lint finding `san:local-letters`, since
    /// canonical SAN is English (see [`Letters`]).
    pub letters: Letters,
}

/// What a finding is about.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FindingKind {
    /// The reader found broken PGN syntax.
    Syntax(SyntaxErrorKind),
    /// A movetext token that is no move in any spelling.
    NotAMove(ParseSanError),
    /// A move that is illegal or ambiguous here.
    Move(SanError),
    /// A spelling that is accepted but not canonical (`0-0`, `e8Q`, ...).
    Spelling {
        /// Which spelling.
        kind: SanLintKind,
        /// The canonical SAN of the move (with check mark and annotation).
        canonical: SanPlus,
    },
    /// A move written unlike canonical SAN in a way that depends on the
    /// position (check marks, capture marks, disambiguation).
    MoveShape {
        /// What.
        lint: MoveLint,
        /// The canonical SAN of the move.
        canonical: SanPlus,
    },
    /// A null move (`--`, `Z0`): analysis writes it for "if it were the
    /// other side's turn"; it is played (the turn passes) but is no move of chess.
    NullMove,
    /// A null move while in check, which cannot be played.
    NullMoveInCheck,
    /// A move number that does not fit the move after it.
    WrongMoveNumber {
        /// The move number that fits: number, and whether Black moves.
        expected: (u32, bool),
    },
    /// A move without the move number PGN writes before it (every White
    /// move; a Black move that starts a variation or follows a comment or a
    /// variation).
    MissingMoveNumber {
        /// The move number that fits.
        expected: (u32, bool),
    },
    /// A `(` with no move before it to replace.
    VariationWithoutMove,
    /// The `FEN` tag cannot be played.
    FenTag(StartError),
    /// The `FEN` tag's position is reached by no legal game (played anyway).
    UnreachableFen,
    /// The `Result` tag and the termination marker differ.
    ResultMismatch {
        /// The tag's value.
        tag: String,
        /// The marker.
        marker: &'static str,
    },
    /// The mainline ends in checkmate or stalemate, and the marker says otherwise.
    ResultContradictsPosition {
        /// `checkmate` or `stalemate`.
        ending: &'static str,
        /// The result it implies.
        expected: &'static str,
    },
    /// The movetext has no termination marker.
    MissingResult,
    /// A termination marker spelled unlike PGN (`1–0`, `½-½`).
    ResultSpelling {
        /// The canonical marker.
        canonical: &'static str,
    },
    /// A `"` inside a tag value without its `\` (`[White ""Mirage""]`): read
    /// up to the last quote of the line.
    UnescapedQuote,
    /// A tag whose name the game already has: its value replaces the earlier
    /// one's (as python-chess and chess.js read it), so that the earlier
    /// value is read by no one.
    DuplicateTag {
        /// The line of the first tag of that name.
        first_line: u32,
    },
    /// Tags of the Seven Tag Roster are missing.
    MissingTags {
        /// Bit `i` set when `SEVEN_TAG_ROSTER[i]` is missing.
        missing: u8,
    },
    /// A comment after the termination marker: it belongs to no move
    /// (`sanfen fmt` keeps it after the marker).
    CommentAfterResult,
    /// A comment or a `%` escape line between games: it belongs to no game
    /// (`sanfen fmt` keeps it where it is).
    TextBetweenGames {
        /// `comment` or `escape line`.
        what: &'static str,
    },
    /// An invisible character between tokens, read as a space.
    InvisibleChar {
        /// Its name and code point (`no-break space U+00A0`).
        name: &'static str,
    },
    /// An evaluation symbol (`±`, `+-`, `=`, ...) written for its NAG.
    NagSymbol {
        /// The NAG it stands for.
        nag: u8,
    },
    /// An en passant mark (`e.p.`) after a move that is no en passant
    /// capture.
    EnPassantMarkWithoutCapture,
}

impl FindingKind {
    /// Errors make a game invalid; lint findings do not (unless `--strict`).
    pub fn severity(&self) -> Severity {
        match self {
            FindingKind::Syntax(_)
            | FindingKind::NotAMove(_)
            | FindingKind::Move(_)
            | FindingKind::VariationWithoutMove
            | FindingKind::NullMoveInCheck
            | FindingKind::EnPassantMarkWithoutCapture
            | FindingKind::FenTag(_) => Severity::Error,
            _ => Severity::Warning,
        }
    }

    /// A stable identifier: `pgn:...` for the game's structure, `san:...` for
    /// moves (the codes of [`SanLintKind`] and [`MoveLint`] included).
    pub fn code(&self) -> &'static str {
        match self {
            FindingKind::Syntax(kind) => match kind {
                SyntaxErrorKind::UnclosedComment => "pgn:unclosed-comment",
                SyntaxErrorKind::UnclosedVariation => "pgn:unclosed-variation",
                SyntaxErrorKind::UnmatchedCloseParen => "pgn:unmatched-paren",
                SyntaxErrorKind::TooDeep => "pgn:too-deep",
                SyntaxErrorKind::BadTag => "pgn:bad-tag",
                SyntaxErrorKind::UnexpectedChar => "pgn:unexpected-char",
                SyntaxErrorKind::BadNag => "pgn:bad-nag",
                SyntaxErrorKind::Utf16 => "pgn:utf16",
            },
            FindingKind::NotAMove(_) => "san:syntax",
            FindingKind::Move(SanError::Illegal { .. }) => "san:illegal",
            FindingKind::Move(SanError::Ambiguous { .. }) => "san:ambiguous",
            FindingKind::Spelling { kind, .. } => kind.code(),
            FindingKind::MoveShape { lint, .. } => lint.code(),
            FindingKind::NullMove => "pgn:null-move",
            FindingKind::NullMoveInCheck => "pgn:null-move-in-check",
            FindingKind::WrongMoveNumber { .. } => "pgn:move-number",
            FindingKind::MissingMoveNumber { .. } => "pgn:missing-move-number",
            FindingKind::VariationWithoutMove => "pgn:variation-without-move",
            FindingKind::FenTag(_) => "pgn:fen-tag",
            FindingKind::UnreachableFen => "pgn:unreachable-fen",
            FindingKind::ResultMismatch { .. } => "pgn:result-mismatch",
            FindingKind::ResultContradictsPosition { .. } => "pgn:result-contradicts-position",
            FindingKind::MissingResult => "pgn:missing-result",
            FindingKind::ResultSpelling { .. } => "pgn:result-spelling",
            FindingKind::UnescapedQuote => "pgn:unescaped-quote",
            FindingKind::DuplicateTag { .. } => "pgn:duplicate-tag",
            FindingKind::MissingTags { .. } => "pgn:missing-tags",
            FindingKind::CommentAfterResult => "pgn:comment-after-result",
            FindingKind::TextBetweenGames { .. } => "pgn:text-between-games",
            FindingKind::InvisibleChar { .. } => "pgn:invisible-char",
            FindingKind::NagSymbol { .. } => "pgn:nag-symbol",
            FindingKind::EnPassantMarkWithoutCapture => "pgn:en-passant-mark",
        }
    }

    /// The canonical or suggested text, where there is one: the canonical SAN
    /// of a lint finding, the closest legal move of an illegal one, the
    /// spellings of an ambiguous one (`Nbd7 or Nfd7`), the right move number.
    pub fn suggestion(&self) -> Option<String> {
        match self {
            FindingKind::Move(SanError::Illegal { suggestions, .. }) => suggestions.first().cloned(),
            FindingKind::Move(SanError::Ambiguous { spellings, .. }) => Some(spellings.join(" or ")),
            FindingKind::Spelling { canonical, .. } | FindingKind::MoveShape { canonical, .. } => {
                Some(canonical.to_string())
            }
            FindingKind::WrongMoveNumber { expected } | FindingKind::MissingMoveNumber { expected } => {
                Some(move_number_text(*expected).to_string())
            }
            FindingKind::ResultMismatch { marker, .. } => Some((*marker).to_owned()),
            FindingKind::ResultContradictsPosition { expected, .. } => Some((*expected).to_owned()),
            FindingKind::ResultSpelling { canonical } => Some((*canonical).to_owned()),
            FindingKind::NagSymbol { nag } => Some(format!("${nag}")),
            _ => None,
        }
    }
}

/// `12.` or `12...`.
fn move_number_text((number, black): (u32, bool)) -> crate::play::MoveNumber {
    crate::play::MoveNumber { number, turn: if black { Color::Black } else { Color::White } }
}

impl core::fmt::Display for FindingKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FindingKind::Syntax(kind) => f.write_str(match kind {
                SyntaxErrorKind::UnclosedComment => "comment opened here is never closed with }",
                SyntaxErrorKind::UnclosedVariation => "variation opened here is never closed with )",
                SyntaxErrorKind::UnmatchedCloseParen => ") closes no variation",
                SyntaxErrorKind::TooDeep => "variations nested too deep; this one is skipped",
                SyntaxErrorKind::BadTag => "not a tag pair [Name \"value\"]",
                SyntaxErrorKind::UnexpectedChar => "unexpected character in movetext",
                SyntaxErrorKind::BadNag => "NAG out of range: NAGs are $0 to $255",
                SyntaxErrorKind::Utf16 => "input looks like UTF-16, which PGN never is; convert it to UTF-8",
            }),
            FindingKind::NotAMove(err) => write!(f, "not a move: {err}"),
            FindingKind::Move(err) => write!(f, "{err}"),
            FindingKind::Spelling { kind, canonical } => write!(f, "{}; write {canonical}", kind.description()),
            FindingKind::MoveShape { lint, canonical } => write!(f, "{lint}; write {canonical}"),
            FindingKind::NullMove => f.write_str("null move: the turn passes without a move (analysis only)"),
            FindingKind::NullMoveInCheck => f.write_str("null move while in check: the king would stay attacked"),
            FindingKind::WrongMoveNumber { expected } => {
                write!(f, "wrong move number; the move is {}", move_number_text(*expected))
            }
            FindingKind::MissingMoveNumber { expected } => {
                if expected.1 {
                    write!(
                        f,
                        "Black's move after a comment or variation needs its number {}",
                        move_number_text(*expected)
                    )
                } else {
                    write!(f, "move without its number {}", move_number_text(*expected))
                }
            }
            FindingKind::VariationWithoutMove => f.write_str("variation with no move before it to replace"),
            FindingKind::FenTag(err) => write!(f, "{err}; the moves are not checked"),
            FindingKind::UnreachableFen => f.write_str("the FEN tag's position is reached by no legal game"),
            FindingKind::ResultMismatch { tag, marker } => {
                write!(f, "the Result tag says {tag} but the movetext ends with {marker}")
            }
            FindingKind::ResultContradictsPosition { ending, expected } => {
                write!(f, "the game ends in {ending}: the result is {expected}")
            }
            FindingKind::MissingResult => f.write_str("no termination marker (1-0, 0-1, 1/2-1/2 or *)"),
            FindingKind::ResultSpelling { canonical } => write!(f, "result spelled unlike PGN; write {canonical}"),
            FindingKind::UnescapedQuote => f.write_str("quote inside a tag value without its backslash; write \\\""),
            FindingKind::DuplicateTag { first_line } => {
                write!(f, "tag given again (first on line {first_line}): this value replaces the first's")
            }
            FindingKind::MissingTags { missing } => {
                let names: Vec<&str> = SEVEN_TAG_ROSTER
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| missing & (1 << i) != 0)
                    .map(|(_, (name, _))| *name)
                    .collect();
                write!(
                    f,
                    "missing Seven Tag Roster tag{}: {}",
                    if names.len() == 1 { "" } else { "s" },
                    names.join(", ")
                )
            }
            FindingKind::CommentAfterResult => {
                f.write_str("comment after the termination marker belongs to no move; move it before the marker")
            }
            FindingKind::TextBetweenGames { what } => write!(f, "{what} between games belongs to no game"),
            FindingKind::InvisibleChar { name } => {
                write!(f, "invisible character ({name}) read as a space; write a space")
            }
            FindingKind::NagSymbol { nag } => write!(f, "evaluation symbol written for a NAG; write ${nag}"),
            FindingKind::EnPassantMarkWithoutCapture => {
                f.write_str("en passant mark after a move that is no en passant capture")
            }
        }
    }
}

/// One finding, located.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// What.
    pub kind: FindingKind,
    /// How bad: see [`Finding::severity`].
    pub severity: Severity,
    /// Where: the token, or the game's start for findings about the whole game.
    pub at: Location,
    /// The 1-based half-move number of the move concerned, from the game's
    /// start along the line (mainline or variation) that holds it.
    pub ply: Option<u32>,
    /// The move number of the move concerned.
    pub move_number: Option<u32>,
    /// The side that makes the move concerned.
    pub side: Option<Color>,
    /// The token as written (empty for findings about the whole game); a
    /// token longer than [`MAX_TOKEN_TEXT`] bytes is kept up to there,
    /// followed by `…`.
    pub token: String,
    /// The source line of `at`, or a window of it around `at`, when
    /// [`Options::source_lines`] asked for it.
    pub source_line: Option<SourceLine>,
    /// How many findings this one stands for: identical one-byte syntax
    /// errors in a row (a run of stray `)` or control bytes, with only
    /// whitespace between them) are one finding, located at the first; 1
    /// for any other finding.
    pub repeats: u32,
    /// Where the last finding of the run is (`at` when `repeats` is 1).
    pub until: Location,
}

/// The longest token text a [`Finding`] keeps, in bytes.
pub const MAX_TOKEN_TEXT: usize = 80;

/// `text` as a [`Finding`] keeps a token: up to [`MAX_TOKEN_TEXT`] bytes,
/// cut at a character boundary and followed by `…` when it is longer,
/// decoded as tag values are ([`decode_text`]).
pub fn shortened(text: &[u8]) -> String {
    shorten(text, decode_text)
}

/// `text` as [`shortened`] keeps it, bytes that are not UTF-8 as U+FFFD
/// (text that is not a PGN's, as a FEN given alone).
pub(crate) fn shortened_lossy(text: &[u8]) -> String {
    shorten(text, String::from_utf8_lossy)
}

fn shorten<'a>(text: &'a [u8], decode: fn(&'a [u8]) -> Cow<'a, str>) -> String {
    if text.len() <= MAX_TOKEN_TEXT {
        return decode(text).into_owned();
    }
    // before the UTF-8 character the cut would split (of other text a byte
    // is a character: at most three fewer)
    let mut end = MAX_TOKEN_TEXT;
    while end > MAX_TOKEN_TEXT - 3 && text[end] & 0xc0 == 0x80 {
        end -= 1;
    }
    let mut shown = decode(&text[..end]).into_owned();
    shown.push('…');
    shown
}

/// The most findings a [`GameReport`] keeps; the findings after them are
/// counted ([`GameReport::unlisted`]), so a game of garbage costs bounded
/// memory.
pub const MAX_FINDINGS: usize = 1000;

/// The bytes of a source line kept around a finding, at most.
const SOURCE_WINDOW: usize = 80;

/// The part of a source line shown under a finding: the whole line, or a
/// window of about 80 bytes of a longer one around the finding's token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceLine {
    /// The text (decoded as UTF-8, or Windows-1252 when it is not:
    /// [`decode_text`]), without the line end; control characters are as
    /// in the input.
    pub text: String,
    /// The characters of `text` before the finding's token.
    pub caret: usize,
    /// The line goes on before `text`.
    pub cut_before: bool,
    /// The line goes on after `text`.
    pub cut_after: bool,
}

impl Finding {
    /// How bad it is: the kind's severity, or [`Severity::Error`] for a
    /// lint finding [`Options::policy`] denies.
    pub fn severity(&self) -> Severity {
        self.severity
    }
}

/// What the validator says about one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameReport {
    /// Where the game starts.
    pub at: Location,
    /// The `White`, `Black`, `Event`, `Round` tags (decoded), when the game
    /// has findings (they are not kept for clean games).
    pub white: Option<String>,
    /// See `white`.
    pub black: Option<String>,
    /// See `white`.
    pub event: Option<String>,
    /// See `white`.
    pub round: Option<String>,
    /// Moves played (mainline and variations).
    pub moves: u64,
    /// `Some(variant)` when the game is of a variant sanfen does not play: its
    /// moves are not judged.
    pub skipped: Option<String>,
    /// The findings, in the order of their locations (findings about the
    /// whole game are located at its start); empty with
    /// [`Options::count_only`].
    pub findings: Vec<Finding>,
    /// How many findings are errors.
    pub errors: u32,
    /// How many findings are lint.
    pub lints: u32,
    /// How many findings were counted but not kept: those after the first
    /// [`MAX_FINDINGS`].
    pub unlisted: u32,
}

impl GameReport {
    /// Whether any finding is an error (with `strict`, any finding at all).
    pub fn has_errors(&self, strict: bool) -> bool {
        self.errors > 0 || (strict && self.lints > 0)
    }
}

/// A move token played ([`Validator::play_san`]): what a builder of games
/// or rows keeps of it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct SanPlayed {
    /// The move, `None` for a null move.
    pub(crate) m: Option<crate::Move>,
    /// The move in UCI, in the game's castling mode (`None` for a null move).
    pub(crate) uci: Option<crate::Uci>,
    /// The move's canonical SAN, with the check mark it earns.
    pub(crate) san: SanPlus,
    /// The token is `san` byte for byte, as the fast path tells (`false`
    /// when it is not, or not known).
    pub(crate) written_as_san: bool,
    /// The number of the move.
    pub(crate) number: u32,
    /// The side that made it.
    pub(crate) side: Color,
}

/// A line of play: the mainline or a variation.
#[derive(Clone, Debug)]
struct Line {
    /// The position after the last move played.
    pos: Position,
    /// The pieces that check the side to move in `pos`.
    checkers: Bitboard,
    /// How to take back the last move played: a variation starts from the
    /// position before it (or, on a dead line, before the move that could not
    /// be played, which is `pos`).
    undo: Option<Undo>,
    /// Half-moves played from the game's start along this line.
    ply: u32,
    /// A move could not be played: the rest of the line is not judged.
    dead: bool,
    /// Tokens since the line died (a variation right after the bad move is
    /// still an alternative to it).
    since_dead: u32,
    /// A move number token waiting for its move.
    number: Option<(u32, bool, Location, Range<usize>)>,
    /// The next move needs its move number (line start, after a comment or
    /// a variation).
    needs_number: bool,
}

impl Line {
    fn new(pos: Position, ply: u32) -> Line {
        Line {
            checkers: pos.checkers(),
            pos,
            undo: None,
            ply,
            dead: false,
            since_dead: 0,
            number: None,
            needs_number: true,
        }
    }

    fn dead() -> Line {
        Line { dead: true, since_dead: 1, ..Line::new(Position::default(), 0) }
    }
}

/// The tags the validator reads, as byte ranges of the input.
#[derive(Clone, Debug, Default)]
struct Tags {
    white: Option<Range<usize>>,
    black: Option<Range<usize>>,
    event: Option<Range<usize>>,
    round: Option<Range<usize>>,
    result: Option<(Range<usize>, Location)>,
    fen: Option<(Range<usize>, Location)>,
    variant: Option<Range<usize>>,
    /// Which of the Seven Tag Roster were seen (bit i: `SEVEN_TAG_ROSTER[i]`).
    roster: u8,
    /// The line of each of the Seven Tag Roster seen (by its bit's number).
    roster_lines: [u32; 7],
}

/// Where findings go: kept (with their context) or only counted.
#[derive(Debug)]
struct Recorder<'a> {
    input: &'a [u8],
    /// The offset of `input[0]` in the stream.
    base: u64,
    options: Options,
    findings: Vec<Finding>,
    errors: u32,
    lints: u32,
    unlisted: u32,
    /// The last syntax error, while more like it may follow: its kind, its
    /// text (one character, one byte of the input), its offset, and which
    /// finding holds it (none when not kept).
    run: Option<(SyntaxErrorKind, char, u64, Option<usize>)>,
}

impl Recorder<'_> {
    fn push(&mut self, kind: FindingKind, at: Location, token: &[u8], line: Option<&Line>) {
        let context = line.map(|line| (line.ply + 1, line.pos.fullmoves(), line.pos.turn()));
        self.push_with(kind, at, token, context);
    }

    /// `context`: the ply, move number and side of the move concerned.
    fn push_with(&mut self, kind: FindingKind, at: Location, token: &[u8], context: Option<(u32, u32, Color)>) {
        let severity = match kind.severity() {
            Severity::Warning if !self.options.policy.is_default() => match self.options.policy.level(kind.code()) {
                Level::Allow => return,
                Level::Warn => Severity::Warning,
                Level::Deny => Severity::Error,
            },
            severity => severity,
        };
        let run = self.run.take();
        if let Some((syntax, byte)) = match &kind {
            FindingKind::Syntax(syntax) => single_char(token).map(|byte| (syntax, byte)),
            _ => None,
        } {
            if let Some((last_kind, last_byte, last_offset, index)) = run
                && last_kind == *syntax
                && last_byte == byte
                && self.only_whitespace(last_offset + 1, at.offset)
            {
                if let Some(finding) = index.and_then(|i| self.findings.get_mut(i)) {
                    finding.repeats = finding.repeats.saturating_add(1);
                    finding.until = at;
                }
                self.run = Some((last_kind, last_byte, at.offset, index));
                return;
            }
            let kept = !self.options.count_only && self.findings.len() < MAX_FINDINGS;
            self.run = Some((syntax.clone(), byte, at.offset, kept.then_some(self.findings.len())));
        }
        match severity {
            Severity::Error => self.errors = self.errors.saturating_add(1),
            Severity::Warning => self.lints = self.lints.saturating_add(1),
        }
        if self.options.count_only {
            return;
        }
        if self.findings.len() >= MAX_FINDINGS {
            self.unlisted = self.unlisted.saturating_add(1);
            return;
        }
        let (ply, move_number, side) = match context {
            Some((ply, number, side)) => (Some(ply), Some(number), Some(side)),
            None => (None, None, None),
        };
        let source_line = self.source_line(at);
        let token = shortened(token);
        self.findings.push(Finding {
            kind,
            severity,
            at,
            ply,
            move_number,
            side,
            token,
            source_line,
            repeats: 1,
            until: at,
        });
    }

    /// Whether the input between two stream offsets holds only whitespace.
    fn only_whitespace(&self, from: u64, to: u64) -> bool {
        let (Some(from), Some(to)) = (from.checked_sub(self.base), to.checked_sub(self.base)) else { return false };
        let (Ok(from), Ok(to)) = (usize::try_from(from), usize::try_from(to)) else { return false };
        self.input.get(from..to).is_some_and(|gap| gap.iter().all(u8::is_ascii_whitespace))
    }

    /// The source line of `at`, or a window of it.
    fn source_line(&self, at: Location) -> Option<SourceLine> {
        if !self.options.source_lines {
            return None;
        }
        let input = self.input;
        let offset = usize::try_from(at.offset.checked_sub(self.base)?).ok()?.min(input.len());
        let line_start = offset + 1 - (at.column as usize).min(offset + 1);
        // the byte order mark at the start of the stream is not shown (a
        // chunk after it has none to show)
        let bom = bom_len(input);
        let line_start = if self.base == 0 && line_start == 0 && offset >= bom { bom } else { line_start };
        let mut start = offset - (offset - line_start).min(SOURCE_WINDOW / 2);
        // the line's end, looked for no further than the window goes
        let limit = (start + SOURCE_WINDOW).min(input.len()).max(offset);
        let (mut end, cut_after) = match memchr::memchr(b'\n', &input[offset..limit]) {
            Some(i) => (offset + i, false),
            None => (limit, limit < input.len() && input[limit] != b'\n'),
        };
        // the `\r` of a CRLF line end is no part of the line, even right
        // before a finding placed at the line's end
        if !cut_after && end > start && input[end - 1] == b'\r' {
            end -= 1;
        }
        // whole characters (of UTF-8 text)
        while start < offset && input[start] & 0xc0 == 0x80 {
            start += 1;
        }
        while end > offset && end < input.len() && input[end] & 0xc0 == 0x80 {
            end -= 1;
        }
        let window = &input[start..end];
        let before = offset.min(end) - start;
        let (text, caret) = match core::str::from_utf8(window) {
            Ok(text) => (text.to_owned(), text[..before].chars().count()),
            // a character a byte
            Err(_) => (decode(window), before),
        };
        Some(SourceLine { text, caret, cut_before: start > line_start, cut_after })
    }

    /// The byte range of a slice of the input.
    fn range_of(&self, bytes: &[u8]) -> Range<usize> {
        let start = (bytes.as_ptr() as usize).wrapping_sub(self.input.as_ptr() as usize);
        if start <= self.input.len() && bytes.len() <= self.input.len() - start {
            start..start + bytes.len()
        } else {
            // not from our input (a caller's own reader): keep nothing
            0..0
        }
    }

    fn text(&self, range: &Option<Range<usize>>) -> Option<String> {
        range.as_ref().map(|r| RawText(&self.input[r.clone()]).decode().into_owned())
    }

    /// Plays one SAN token on `line`: the fast path (canonical SAN, found
    /// without generating the legal moves), else the resolver, which reads
    /// every spelling and explains.
    /// Gives what was played, or `None` when the token could not be played
    /// (inlined: checking alone, which drops it, then computes none of it).
    #[inline(always)]
    fn play(&mut self, line: &mut Line, token: &[u8], at: Location) -> Option<SanPlayed> {
        if line.dead {
            line.since_dead += 1;
            return None;
        }
        self.check_number(line, token, at);
        let (number, side, mode) = (line.pos.fullmoves(), line.pos.turn(), line.pos.castling_mode());
        let context = Some((line.ply + 1, number, side));
        // the fast path: canonical SAN naming exactly one legal move
        let (m, san, written_as_san) =
            if let Some((written, m)) = play::find_fast(&line.pos, line.checkers, token, self.options.letters) {
                line.undo = Some(line.pos.undo_info(Some(m)));
                line.pos.play_unchecked(m);
                line.checkers = line.pos.checkers_after(m);
                let fast = play::Fast { written, suffix: play::earned_suffix(&line.pos, line.checkers, &written) };
                if fast.suffix != written.suffix {
                    self.push_suffix_lint(written, fast.suffix, at, token, context);
                }
                advance(line);
                // the fast path reads canonical SAN only, each text as its
                // value writes it: the token is the SAN but for the check
                // mark and annotation written
                (Some(m), fast.san(), fast.suffix == written.suffix && written.annotation.is_none())
            } else {
                let (m, san) = self.play_slow(line, token, at, context)?;
                (m, san, false)
            };
        Some(SanPlayed { m, uci: m.map(|m| m.to_uci(mode)), san, written_as_san, number, side })
    }

    /// Any other token: the lenient resolver, every finding, the null-move
    /// policy (kept out of the hot path's code).
    #[inline(never)]
    fn play_slow(
        &mut self,
        line: &mut Line,
        token: &[u8],
        at: Location,
        context: Option<(u32, u32, Color)>,
    ) -> Option<(Option<crate::Move>, SanPlus)> {
        // counted findings show no suggestion: none is made
        let options = play::Options {
            suggestions: !self.options.count_only,
            letters: self.options.letters,
            ..play::Options::PGN
        };
        match play::play_slow(&mut line.pos, token, options) {
            Ok(played) => {
                if !played.is_canonical() {
                    self.push_lints(&played, at, token, context);
                }
                if played.m.is_none() {
                    self.push_with(FindingKind::NullMove, at, token, context);
                }
                line.undo = Some(played.undo);
                line.checkers = played.checkers;
                advance(line);
                Some((played.m, played.san))
            }
            Err(error) => {
                let kind = match error {
                    PlayError::NotAMove(err) => FindingKind::NotAMove(found_decoded(err, token)),
                    PlayError::Move(err) => FindingKind::Move(err),
                    PlayError::NullMoveInCheck => FindingKind::NullMoveInCheck,
                };
                self.push_with(kind, at, token, context);
                kill(line);
                None
            }
        }
    }

    /// The finding of a move in canonical SAN but for its check mark.
    #[cold]
    #[inline(never)]
    fn push_suffix_lint(
        &mut self,
        written: SanPlus,
        earned: Option<Suffix>,
        at: Location,
        token: &[u8],
        context: Option<(u32, u32, Color)>,
    ) {
        let mut lints = Vec::new();
        crate::resolve::suffix_lints(written.suffix, earned, &mut lints);
        let canonical = SanPlus { suffix: earned, ..written };
        for lint in lints {
            self.push_with(FindingKind::MoveShape { lint, canonical }, at, token, context);
        }
    }

    /// The findings of a move played but not written as canonical SAN:
    /// spelling first, then those about the move as a whole.
    #[inline(never)]
    fn push_lints(&mut self, played: &Played, at: Location, token: &[u8], context: Option<(u32, u32, Color)>) {
        // a null move's findings name `--` alone, as it has no annotation to keep
        let canonical = if played.m.is_some() { played.annotated() } else { played.san };
        for lint in &played.spelling {
            self.push_with(FindingKind::Spelling { kind: lint.kind, canonical }, at, token, context);
        }
        for lint in &played.lints {
            self.push_with(FindingKind::MoveShape { lint: lint.clone(), canonical }, at, token, context);
        }
    }

    /// Move number checks for the move about to be played (inlined: it runs
    /// for every move, and its findings are rare).
    #[inline(always)]
    fn check_number(&mut self, line: &mut Line, token: &[u8], at: Location) {
        let black = line.pos.turn() == Color::Black;
        let expected = (line.pos.fullmoves(), black);
        match line.number.take() {
            Some((number, dots, number_at, range)) => {
                let well_written = range.is_empty() || self.input.get(range.clone()).is_some_and(|t| t.ends_with(b"."));
                if (number, dots) != expected || !well_written {
                    let input = self.input;
                    let number_token = input.get(range).unwrap_or_default();
                    self.push(FindingKind::WrongMoveNumber { expected }, number_at, number_token, Some(line));
                }
            }
            None if !black || line.needs_number => {
                self.push(FindingKind::MissingMoveNumber { expected }, at, token, Some(line));
            }
            None => {}
        }
    }
}

/// The character a text is made of, when it is one.
fn single_char(text: &[u8]) -> Option<char> {
    let mut chars = core::str::from_utf8(text).ok()?.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

/// After a move played on `line`.
fn advance(line: &mut Line) {
    line.ply += 1;
    line.needs_number = false;
    line.number = None;
}

/// After a move that cannot be played on `line`.
fn kill(line: &mut Line) {
    line.dead = true;
    line.since_dead = 0;
    line.number = None;
}

/// Plays and checks games; give it to a [`crate::pgn::reader::Reader`] over the same input.
#[derive(Debug)]
pub struct Validator<'a> {
    recorder: Recorder<'a>,
    report: GameReport,
    tags: Tags,
    /// The names of the game's tags so far but the roster's (`Tags`), for
    /// `pgn:duplicate-tag`.
    tag_names: TagNames,
    lines: Vec<Line>,
    /// The movetext is not judged (variant, bad FEN tag).
    skipping: bool,
    marker: Option<(ResultToken, Location, bool)>,
    /// Between `begin_game` and `end_game`.
    in_game: bool,
    /// Findings about text between games, for the next game's report.
    outside: Vec<(FindingKind, Location, Vec<u8>)>,
}

impl<'a> Validator<'a> {
    /// A validator for games read from `input`, whose first byte is at offset
    /// 0 of the stream.
    pub fn new(input: &'a [u8], options: Options) -> Validator<'a> {
        Validator::with_base(input, 0, options)
    }

    /// A validator for games read from `input`, whose first byte is at offset
    /// `base` of the stream (a chunk: give the chunk's start offset).
    pub fn with_base(input: &'a [u8], base: u64, options: Options) -> Validator<'a> {
        Validator {
            recorder: Recorder {
                input,
                base,
                options,
                findings: Vec::new(),
                errors: 0,
                lints: 0,
                unlisted: 0,
                run: None,
            },
            report: GameReport::default(),
            tags: Tags::default(),
            tag_names: TagNames::default(),
            lines: Vec::new(),
            skipping: false,
            marker: None,
            in_game: false,
            outside: Vec::new(),
        }
    }

    /// The position of the line being played (the mainline or the innermost
    /// variation open), unless no move can be played on it (before the
    /// movetext, after a move that could not be played, in a game whose moves
    /// are not judged): for a visitor that builds games around the validator.
    pub(crate) fn playing(&self) -> Option<&Position> {
        self.lines.last().filter(|line| !line.dead).map(|line| &line.pos)
    }

    /// Plays a move token on the line being played, as [`Visitor::san`]
    /// does, and gives what was played: `None` when the token could not be
    /// played, or no move can be played on the line (for a visitor that
    /// builds games or rows around the validator).
    #[inline(always)]
    pub(crate) fn play_san(&mut self, token: &[u8], at: Location) -> Option<SanPlayed> {
        let line = self.lines.last_mut()?;
        let played = self.recorder.play(line, token, at)?;
        self.report.moves += 1;
        Some(played)
    }

    /// Findings about text after the last game read (comments, escape lines,
    /// invisible characters that no game follows), taken out: a reader
    /// reports text between games to the game after it, so these have no
    /// game to go to. Call it when the reader gives `None`.
    pub fn take_outside(&mut self) -> Vec<Finding> {
        let outside = core::mem::take(&mut self.outside);
        let (findings, errors, lints) =
            (core::mem::take(&mut self.recorder.findings), self.recorder.errors, self.recorder.lints);
        let count_only = core::mem::replace(&mut self.recorder.options.count_only, false);
        for (kind, at, token) in outside {
            self.recorder.push(kind, at, &token, None);
        }
        self.recorder.options.count_only = count_only;
        let taken = core::mem::replace(&mut self.recorder.findings, findings);
        (self.recorder.errors, self.recorder.lints) = (errors, lints);
        taken
    }

    /// A finding inside the game, or kept for the next one.
    fn note(&mut self, kind: FindingKind, at: Location, token: &[u8]) {
        if self.in_game {
            self.recorder.push(kind, at, token, None);
        } else {
            self.outside.push((kind, at, token.to_vec()));
        }
    }

    /// The end of the game's last line: `at` (where the game ends), or, when
    /// the game's last item took line ends with it (a `{` comment not closed
    /// before the next game's tags), the place just after its last byte that
    /// is not whitespace, so that the place shown is on the game's own line,
    /// found alike in the whole input and in a chunk that ends there.
    fn last_line_end(&self, at: Location) -> Location {
        let begin = self.report.at;
        let input = self.recorder.input;
        let base = self.recorder.base;
        let index = |offset: u64| offset.checked_sub(base).and_then(|i| usize::try_from(i).ok());
        let (Some(from), Some(mut end)) = (index(begin.offset), index(at.offset)) else { return at };
        if at.column != 1 || end <= from || end > input.len() || input[end - 1] != b'\n' {
            return at;
        }
        let mut line = at.line;
        while end > from && input[end - 1].is_ascii_whitespace() {
            end -= 1;
            if input[end] == b'\n' {
                line -= 1;
            }
        }
        let offset = base + end as u64;
        let column = match memchr::memrchr(b'\n', &input[from..end]) {
            Some(newline) => end - (from + newline),
            None => begin.column as usize + (end - from),
        };
        Location { line, column: u32::try_from(column).unwrap_or(u32::MAX), offset }
    }

    fn end_checks(&mut self, at: Location) {
        let end = self.last_line_end(at);
        let recorder = &mut self.recorder;
        let marker = self.marker;
        let marker_text = marker.map(|(m, _, _)| result_text(m));
        match marker {
            None => recorder.push(FindingKind::MissingResult, end, b"", None),
            Some((result, marker_at, canonical)) => {
                let text = result_text(result);
                if !canonical {
                    let token = marker_token(recorder.input, recorder.base, marker_at);
                    recorder.push(FindingKind::ResultSpelling { canonical: text }, marker_at, token, None);
                }
                if let Some((range, _)) = &self.tags.result {
                    let tag = &recorder.input[range.clone()];
                    if result_of(tag).map_or(tag != text.as_bytes(), |tag| tag != result) {
                        let tag = decode(tag);
                        let token = marker_token(recorder.input, recorder.base, marker_at);
                        recorder.push(FindingKind::ResultMismatch { tag, marker: text }, marker_at, token, None);
                    }
                }
            }
        }
        // a Result tag spelled unlike PGN (`½-½`) is read as the result it says
        if let Some((range, tag_at)) = &self.tags.result {
            let tag = &recorder.input[range.clone()];
            if let Some(result) = result_of(tag) {
                let canonical = result_text(result);
                if tag != canonical.as_bytes() {
                    recorder.push(FindingKind::ResultSpelling { canonical }, *tag_at, tag, None);
                }
            }
        }
        // the mainline's end
        if let Some(main) = self.lines.first()
            && !self.skipping
            && !main.dead
            && !main.pos.has_legal_moves()
        {
            let (ending, expected) = if main.pos.is_check() {
                ("checkmate", if main.pos.turn() == Color::White { "0-1" } else { "1-0" })
            } else {
                ("stalemate", "1/2-1/2")
            };
            if let (Some((_, marker_at, _)), Some(written)) = (marker, marker_text)
                && written != expected
            {
                let kind = FindingKind::ResultContradictsPosition { ending, expected };
                let token = marker_token(recorder.input, recorder.base, marker_at);
                let token = if token.is_empty() { written.as_bytes() } else { token };
                recorder.push(kind, marker_at, token, None);
            }
        }
        if self.tags.roster != 0x7f {
            let kind = FindingKind::MissingTags { missing: !self.tags.roster & 0x7f };
            recorder.push(kind, self.report.at, b"", None);
        }
    }
}

/// The SAN parser's error about `token` with what it found decoded as the
/// PGN's text is ([`decode_text`]; the parser, which reads bytes, shows
/// those that are not UTF-8 as U+FFFD).
pub(crate) fn found_decoded(mut err: ParseSanError, token: &[u8]) -> ParseSanError {
    if let Some(found) = token.get(err.span.clone())
        && core::str::from_utf8(token).is_err()
    {
        err.found = decode(found);
    }
    err
}

/// The text decoded ([`decode_text`]), owned.
fn decode(bytes: &[u8]) -> String {
    decode_text(bytes).into_owned()
}

/// The PGN text of a result.
fn result_text(result: ResultToken) -> &'static str {
    match result {
        ResultToken::Outcome(outcome) => outcome.as_str(),
        ResultToken::Unknown => "*",
    }
}

/// The token at a location of the input (up to the next whitespace).
fn marker_token(input: &[u8], base: u64, at: Location) -> &[u8] {
    let Some(start) = at.offset.checked_sub(base).and_then(|o| usize::try_from(o).ok()) else {
        return b"";
    };
    let rest = input.get(start..).unwrap_or_default();
    let end = rest.iter().position(|b| b.is_ascii_whitespace()).unwrap_or(rest.len());
    &rest[..end]
}

impl Visitor for Validator<'_> {
    type Output = GameReport;

    fn begin_game(&mut self, at: Location) {
        self.report = GameReport { at, ..GameReport::default() };
        self.recorder.findings.clear();
        self.recorder.errors = 0;
        self.recorder.lints = 0;
        self.recorder.unlisted = 0;
        self.recorder.run = None;
        self.tags = Tags::default();
        self.tag_names.clear();
        self.lines.clear();
        self.skipping = false;
        self.marker = None;
        self.in_game = true;
        // what came between the last game and this one
        for (kind, at, token) in core::mem::take(&mut self.outside) {
            self.recorder.push(kind, at, &token, None);
        }
    }

    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) {
        let range = self.recorder.range_of(value.0);
        if let Some(i) = memchr::memchr(b'"', value.0)
            && (i == 0 || value.0[i - 1] != b'\\')
        {
            self.recorder.push(FindingKind::UnescapedQuote, at, name, None);
        }
        // one comparison per tag: the roster bit (`SEVEN_TAG_ROSTER` order) and what is kept
        let tags = &mut self.tags;
        let bit = match name {
            b"Event" => {
                tags.event = Some(range);
                1
            }
            b"Site" => 2,
            b"Date" => 4,
            b"Round" => {
                tags.round = Some(range);
                8
            }
            b"White" => {
                tags.white = Some(range);
                16
            }
            b"Black" => {
                tags.black = Some(range);
                32
            }
            b"Result" => {
                tags.result = Some((range, at));
                64
            }
            b"FEN" => {
                tags.fen = Some((range, at));
                0
            }
            b"Variant" => {
                tags.variant = Some(range);
                0
            }
            _ => 0,
        };
        // a roster name seen before is told by its bit; only the others are looked up
        let first_line = if bit == 0 {
            self.tag_names.insert(name, at.line)
        } else if tags.roster & bit != 0 {
            Some(tags.roster_lines[bit.trailing_zeros() as usize])
        } else {
            tags.roster_lines[bit.trailing_zeros() as usize] = at.line;
            None
        };
        tags.roster |= bit;
        if let Some(first_line) = first_line {
            self.recorder.push(FindingKind::DuplicateTag { first_line }, at, name, None);
        }
    }

    fn end_tags(&mut self) -> Skip {
        if self.tags.variant.is_none() && self.tags.fen.is_none() {
            // the common case: standard chess from the initial position
            self.lines.push(Line::new(Position::default(), 0));
            return Skip(false);
        }
        let variant = self.recorder.text(&self.tags.variant);
        let fen = self.tags.fen.clone().map(|(range, at)| (self.recorder.text(&Some(range)).unwrap_or_default(), at));
        match start_position(variant.as_deref(), fen.as_ref().map(|(text, _)| text.as_str())) {
            Ok(Start::Play { position, unreachable, .. }) => {
                if unreachable {
                    let at = fen.as_ref().map_or(self.report.at, |(_, at)| *at);
                    self.recorder.push(FindingKind::UnreachableFen, at, b"", None);
                }
                self.lines.push(Line::new(*position, 0));
            }
            Ok(Start::Skip { variant }) => {
                self.report.skipped = Some(variant);
                self.skipping = true;
            }
            Err(err) => {
                let at = fen.as_ref().map_or(self.report.at, |(_, at)| *at);
                self.recorder.push(FindingKind::FenTag(err), at, b"", None);
                self.skipping = true;
            }
        }
        Skip(self.skipping)
    }

    fn move_number(&mut self, number: u32, black: bool, token: &[u8], at: Location) {
        let range = self.recorder.range_of(token);
        if let Some(line) = self.lines.last_mut()
            && !line.dead
        {
            line.number = Some((number, black, at, range));
        }
    }

    fn san(&mut self, token: &[u8], at: Location) {
        // checking keeps nothing of the move
        let _ = self.play_san(token, at);
    }

    fn comment(&mut self, _text: RawText<'_>, _at: Location) {
        if let Some(line) = self.lines.last_mut() {
            line.needs_number = true;
        }
    }

    // The events that few games have (NAGs, marks, text after the result,
    // escape lines, invisible characters, syntax errors) are not inlined
    // into the reader's loop: inlined there, they made `check` 1-3% slower
    // (alternating runs on the bench corpus).
    #[inline(never)]
    fn nag(&mut self, nag: u8, token: &[u8], at: Location) {
        if !matches!(token.first(), Some(b'$' | b'!' | b'?')) {
            self.recorder.push(FindingKind::NagSymbol { nag }, at, token, None);
        }
    }

    #[inline(never)]
    fn en_passant_mark(&mut self, token: &[u8], at: Location) {
        let Some(line) = self.lines.last() else { return };
        if line.dead {
            return;
        }
        // the move before the mark
        let (side, number) = match line.pos.turn() {
            Color::White => (Color::Black, line.pos.fullmoves().saturating_sub(1)),
            Color::Black => (Color::White, line.pos.fullmoves()),
        };
        let context = Some((line.ply, number, side));
        // the move before the mark, as the line's undo information has it
        let en_passant = line.undo.filter(|undo| matches!(undo.played(), Some(crate::Move::EnPassant { .. })));
        match en_passant {
            Some(undo) if line.ply > 0 => {
                let mut before = line.pos.clone();
                before.unplay(&undo);
                let m = undo.played().expect("an en passant capture");
                let canonical = crate::notation::san_plus(&before, m);
                let kind = FindingKind::Spelling { kind: SanLintKind::EnPassantSuffix, canonical };
                self.recorder.push_with(kind, at, token, context);
            }
            _ => self.recorder.push_with(FindingKind::EnPassantMarkWithoutCapture, at, token, context),
        }
    }

    #[inline(never)]
    fn after_result(&mut self, text: &[u8], at: Location) {
        self.recorder.push(FindingKind::CommentAfterResult, at, text, None);
    }

    #[inline(never)]
    fn between_games(&mut self, text: &[u8], at: Location) {
        self.note(FindingKind::TextBetweenGames { what: "comment" }, at, text);
    }

    #[inline(never)]
    fn escape(&mut self, line: &[u8], at: Location) {
        if !self.in_game {
            self.note(FindingKind::TextBetweenGames { what: "escape line" }, at, line);
        }
    }

    #[inline(never)]
    fn invisible(&mut self, text: &[u8], at: Location) {
        let name = match text {
            b"\xe2\x80\x8b" => "zero-width space U+200B",
            b"\xef\xbb\xbf" => "byte order mark U+FEFF",
            b"\xa0" => "no-break space U+00A0 in Latin-1",
            _ => "no-break space U+00A0",
        };
        self.note(FindingKind::InvisibleChar { name }, at, text);
    }

    fn begin_variation(&mut self, at: Location) -> Skip {
        let Some(parent) = self.lines.last() else { return Skip(false) };
        let child = match &parent.undo {
            // the variation replaces the move that could not be played
            _ if parent.dead && parent.since_dead == 0 => Line::new(parent.pos.clone(), parent.ply),
            // or the last move played
            Some(undo) if !parent.dead => {
                let mut before = parent.pos.clone();
                before.unplay(undo);
                Line::new(before, parent.ply - 1)
            }
            None if !parent.dead => {
                self.recorder.push(FindingKind::VariationWithoutMove, at, b"(", None);
                Line::dead()
            }
            _ => Line::dead(),
        };
        self.lines.push(child);
        Skip(false)
    }

    fn end_variation(&mut self, _at: Location) {
        if self.lines.len() > 1 {
            self.lines.pop();
        }
        if let Some(line) = self.lines.last_mut() {
            line.needs_number = true;
        }
    }

    fn result(&mut self, result: ResultToken, token: &[u8], at: Location) {
        let canonical = token == result_text(result).as_bytes();
        self.marker = Some((result, at, canonical));
    }

    #[inline(never)]
    fn syntax_error(&mut self, error: SyntaxError) {
        self.recorder.push(FindingKind::Syntax(error.kind), error.at, error.found.as_bytes(), None);
    }

    fn end_game(&mut self, at: Location) -> GameReport {
        self.end_checks(at);
        let recorder = &mut self.recorder;
        self.report.errors = recorder.errors;
        self.report.lints = recorder.lints;
        self.report.unlisted = recorder.unlisted;
        if !recorder.findings.is_empty() {
            self.report.white = recorder.text(&self.tags.white);
            self.report.black = recorder.text(&self.tags.black);
            self.report.event = recorder.text(&self.tags.event);
            self.report.round = recorder.text(&self.tags.round);
            recorder.findings.sort_by_key(|f| f.at.offset);
            self.report.findings = core::mem::take(&mut recorder.findings);
        }
        self.lines.clear();
        self.in_game = false;
        core::mem::take(&mut self.report)
    }
}
