//! A move as written (a SAN token of PGN movetext, or a move a person typed)
//! played on a position: the one way from a token to a move that the PGN
//! validator, the formatter and the command line share.
//!
//! [`play`] tries the fast path first: canonical SAN naming exactly one legal
//! move, found without generating the legal moves and without allocating.
//! Anything else goes to the lenient resolver
//! ([`resolve_text`](crate::resolve::resolve_text)), which reads every
//! spelling and explains a refusal. A null move (`--`) is then played or
//! refused as [`Options::null_moves`] says. [`read`] does the same on a copy
//! of the position.
//!
//! [`MoveNumber`] writes the number before a move: `12.` or `12...`.
//!
//! ```
//! use sanfen::Position;
//! use sanfen::play::{self, MoveNumber, Options};
//! use sanfen::san::Letters;
//!
//! let mut pos = Position::default();
//! let played = play::play(&mut pos, b"e4", Options::PGN).unwrap();
//! assert_eq!(played.san.to_string(), "e4");
//! assert!(played.is_canonical());
//!
//! // any spelling, in the letters of a language: `Cf6` is Portuguese for Nf6
//! let before = pos.clone();
//! let played = play::play(&mut pos, b"Cg8-f6", Options::typed(Letters::Portuguese)).unwrap();
//! assert_eq!(format!("{} {}", MoveNumber::before(&before), played.san), "1... Nf6");
//! // the letter and the dash are spelling, the origin square is about the move
//! let codes: Vec<&str> = played.spelling.iter().map(|lint| lint.code()).collect();
//! assert_eq!(codes, ["san:local-letters", "san:long-algebraic"]);
//! assert_eq!(played.lints.len(), 1);
//!
//! // a refused move leaves the position as it was, and says why
//! let error = play::play(&mut pos, b"Ke3", Options::PGN).unwrap_err();
//! assert_eq!(error.to_string(), "illegal: no king can move to e3; did you mean Ke2?");
//! assert_eq!(pos.to_string(), "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
//! ```

use core::ops::Range;

use crate::movegen::Undo;
use crate::pgn::ResultToken;
use crate::quick::{self, Quick};
use crate::resolve::{MoveLint, SanError, resolve_text_with, suffix_lints};
use crate::san::{Annotation, Letters, ParseSanError, San, SanLint, SanOptions, SanPlus, Suffix};
use crate::{Bitboard, Color, Move, Outcome, Position, notation};

/// How [`play`] reads a token.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// The piece letters (English SAN is always read too, where the letters
    /// do not say otherwise).
    pub letters: Letters,
    /// Whether a null move (`--`, `Z0`, ...) is played (PGN analysis writes
    /// them; never in check), or refused as the resolver refuses it.
    pub null_moves: bool,
    /// Whether an illegal move's error suggests the legal moves nearest to
    /// it (they cost the SAN of each legal move related to it: off when no
    /// one reads them, as when findings are only counted).
    pub suggestions: bool,
}

impl Options {
    /// PGN movetext: English letters, null moves played.
    pub const PGN: Options = Options { letters: Letters::English, null_moves: true, suggestions: true };

    /// A move someone typed, in the letters of `letters`: null moves refused.
    pub const fn typed(letters: Letters) -> Options {
        Options { letters, null_moves: false, suggestions: true }
    }
}

/// A token played: the move, its canonical SAN, and what was not canonical.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move; `None` for a null move.
    pub m: Option<Move>,
    /// The canonical SAN of the move, with the check mark it earns (`--` for
    /// a null move); no annotation.
    pub san: SanPlus,
    /// The annotation as written (`!`, `?!`, ...).
    pub annotation: Option<Annotation>,
    /// The spelling findings, in input order (`0-0`, `e8Q`, `Ng1-f3`, ...).
    pub spelling: Vec<SanLint>,
    /// The findings about the move as a whole (missing `x`, a wrong check
    /// mark, an origin no other piece makes necessary, ...).
    pub lints: Vec<MoveLint>,
    /// The pieces that give check in the position after the move (what
    /// [`play_with_checkers`] takes for the next move).
    pub checkers: Bitboard,
    /// How to take the move back.
    pub(crate) undo: Undo,
}

impl Played {
    /// Whether the token was canonical SAN (no finding of either kind).
    pub fn is_canonical(&self) -> bool {
        self.spelling.is_empty() && self.lints.is_empty()
    }

    /// The canonical SAN with the annotation as written, as PGN keeps it.
    pub fn annotated(&self) -> SanPlus {
        SanPlus { annotation: self.annotation, ..self.san }
    }
}

/// Why a token was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The text is not a move at all.
    NotAMove(ParseSanError),
    /// No legal move fits, or more than one does: why, and what was probably
    /// meant.
    Move(SanError),
    /// A null move while the side to move is in check.
    NullMoveInCheck,
}

impl core::fmt::Display for PlayError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PlayError::NotAMove(error) => write!(f, "not a move: {error}"),
            PlayError::Move(error) => write!(f, "{error}"),
            PlayError::NullMoveInCheck => f.write_str("illegal: a null move while in check"),
        }
    }
}

impl std::error::Error for PlayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlayError::NotAMove(error) => Some(error),
            PlayError::Move(error) => Some(error),
            PlayError::NullMoveInCheck => None,
        }
    }
}

/// Plays the move `token` names on `pos`.
///
/// # Errors
///
/// [`PlayError`] when the token names no move that can be played; `pos` is
/// then unchanged.
pub fn play(pos: &mut Position, token: &[u8], options: Options) -> Result<Played, PlayError> {
    let checkers = pos.checkers();
    play_with_checkers(pos, checkers, token, options)
}

/// [`play`], given the pieces that check the side to move (`pos.checkers()`,
/// which [`Played::checkers`] of the move before gives).
///
/// # Errors
///
/// As [`play`].
// Inlined so that the fast path's values stay in the caller's registers.
#[inline(always)]
pub fn play_with_checkers(
    pos: &mut Position,
    checkers: Bitboard,
    token: &[u8],
    options: Options,
) -> Result<Played, PlayError> {
    // the fast path: canonical SAN (but perhaps for its check mark) naming
    // exactly one legal move, found without generating the legal moves
    if let Some((written, m)) = find_fast(pos, checkers, token, options.letters) {
        let undo = pos.undo_info(Some(m));
        pos.play_unchecked(m);
        let checkers = pos.checkers_after(m);
        let fast = Fast { written, suffix: earned_suffix(pos, checkers, &written) };
        let mut lints = Vec::new();
        suffix_lints(written.suffix, fast.suffix, &mut lints);
        return Ok(Played {
            m: Some(m),
            san: fast.san(),
            annotation: written.annotation,
            spelling: Vec::new(),
            lints,
            checkers,
            undo,
        });
    }
    play_slow(pos, token, options)
}

/// A move found by the fast path ([`find_fast`]): as written, and the
/// check mark it earns.
pub(crate) struct Fast {
    /// The token as read: canonical SAN, with the check mark and annotation
    /// as written.
    pub(crate) written: SanPlus,
    /// The check mark the move earns.
    pub(crate) suffix: Option<Suffix>,
}

impl Fast {
    /// The canonical SAN: the check mark earned, no annotation.
    pub(crate) fn san(&self) -> SanPlus {
        SanPlus { san: self.written.san, suffix: self.suffix, annotation: None, en_passant_mark: false }
    }
}

/// The fast path's search, without playing: the token read as canonical SAN
/// (but perhaps for its check mark) and the one legal move it names, found
/// without generating the legal moves. The caller plays the move (the
/// validator in place, where its line keeps the position, the checkers and
/// the undo information).
#[inline(always)]
pub(crate) fn find_fast(pos: &Position, checkers: Bitboard, token: &[u8], letters: Letters) -> Option<(SanPlus, Move)> {
    let written = crate::san::parse_canonical(token, letters)?;
    match quick::find_with_checkers(pos, checkers, written.san) {
        Quick::Canonical(m) => Some((written, m)),
        _ => None,
    }
}

/// The check mark a move earns, in the position `after` it, given the
/// pieces that check the side to move there. Looked for only when there is
/// a check or when one was `written`: without either, there is none.
#[inline(always)]
pub(crate) fn earned_suffix(after: &Position, checkers: Bitboard, written: &SanPlus) -> Option<Suffix> {
    if checkers.any() || written.suffix.is_some() { quick::suffix_with_checkers(after, checkers) } else { None }
}

/// The lenient resolver, then the null-move policy.
#[inline(never)]
pub(crate) fn play_slow(pos: &mut Position, token: &[u8], options: Options) -> Result<Played, PlayError> {
    let san_options = SanOptions { strict: false, letters: options.letters };
    let resolved = resolve_text_with(pos, token, san_options, options.suggestions).map_err(PlayError::NotAMove)?;
    let reading = resolved.parsed.readings[resolved.reading];
    if reading.san == San::Null && options.null_moves {
        if pos.is_check() {
            return Err(PlayError::NullMoveInCheck);
        }
        let undo = pos.undo_info(None);
        pos.play_null();
        return Ok(Played {
            m: None,
            san: SanPlus::new(San::Null),
            annotation: reading.annotation,
            spelling: resolved.syntax_lints,
            lints: Vec::new(),
            checkers: Bitboard::EMPTY,
            undo,
        });
    }
    let m = resolved.resolution.outcome.map_err(PlayError::Move)?;
    // the resolver gives the canonical SAN of every move it returns
    let san = resolved.resolution.canonical.unwrap_or_else(|| notation::san_plus(pos, m));
    let undo = pos.undo_info(Some(m));
    pos.play_unchecked(m);
    Ok(Played {
        m: Some(m),
        san,
        annotation: reading.annotation,
        spelling: resolved.syntax_lints,
        lints: resolved.resolution.lints,
        checkers: pos.checkers(),
        undo,
    })
}

/// [`play`] on a copy of `pos`: the move `token` names, without playing it.
///
/// ```
/// use sanfen::Position;
/// use sanfen::play::{Options, read};
///
/// let played = read(&Position::default(), b"ng1f3", Options::PGN).unwrap();
/// assert_eq!(played.san.to_string(), "Nf3");
/// assert_eq!(played.spelling.len(), 1); // the lowercase letter
/// assert_eq!(played.lints.len(), 1); // the origin square no other knight needs
/// ```
///
/// # Errors
///
/// As [`play`].
pub fn read(pos: &Position, token: &[u8], options: Options) -> Result<Played, PlayError> {
    let mut after = pos.clone();
    play(&mut after, token, options)
}

/// A word of text as people type or paste it (see [`words_in`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Word {
    /// A move: its byte range in the text, a move number glued to it cut off
    /// and an en passant mark written apart joined to it.
    Move(Range<usize>),
    /// A game result (`1-0`, `0-1`, `1/2-1/2` or `½-½`, `*`) and its byte
    /// range.
    Result(ResultToken, Range<usize>),
}

impl Word {
    /// The word's byte range in its text.
    pub fn span(&self) -> Range<usize> {
        match self {
            Word::Move(span) | Word::Result(_, span) => span.clone(),
        }
    }
}

/// The moves and game results in text as people type or paste them (a REPL
/// line, command-line arguments, movetext without comments), in order.
/// Words are separated by whitespace. Move numbers alone (`1.`, `12...`) and
/// NAGs (`$1`) are left out; a move number glued to a move or a result is
/// cut off (`1.e4`, `12...Nf6`); an en passant mark written apart (`exd6
/// e.p.`, `exd6 ep`) is joined to its move, which [`play`] then reads with
/// it.
///
/// ```
/// use sanfen::play::{Word, words_in};
/// use sanfen::pgn::ResultToken;
/// use sanfen::{Color, Outcome};
///
/// let text = "1. e4 e5 2.Nf3 $1 exd6 e.p. 1-0";
/// let words = words_in(text);
/// assert_eq!(words[3], Word::Move(18..27));
/// assert_eq!(words[4], Word::Result(ResultToken::Outcome(Outcome::Decisive { winner: Color::White }), 28..31));
/// ```
pub fn words_in(text: &str) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    let mut rest = text;
    let mut offset = 0;
    loop {
        let start = match rest.find(|c: char| !c.is_whitespace()) {
            Some(start) => start,
            None => return out,
        };
        let len = rest[start..].find(char::is_whitespace).unwrap_or(rest.len() - start);
        let word = &rest[start..start + len];
        let (word_start, word_end) = (offset + start, offset + start + len);
        offset = word_end;
        rest = &text[word_end..];
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
        let skip = if digits > 0 && dots > 0 { digits + dots } else { 0 };
        let move_text = &word[skip..];
        let span = word_start + skip..word_end;
        let nag =
            move_text.len() > 1 && move_text.starts_with('$') && move_text[1..].bytes().all(|b| b.is_ascii_digit());
        if move_text.is_empty() || nag {
            continue;
        }
        let result = match move_text {
            "*" => Some(ResultToken::Unknown),
            "½-½" => Some(ResultToken::Outcome(Outcome::Draw)),
            _ => Outcome::from_ascii(move_text.as_bytes()).map(ResultToken::Outcome),
        };
        if let Some(result) = result {
            out.push(Word::Result(result, span));
            continue;
        }
        if matches!(move_text.to_ascii_lowercase().as_str(), "e.p." | "ep")
            && let Some(Word::Move(last)) = out.last_mut()
        {
            last.end = word_end;
            continue;
        }
        out.push(Word::Move(span));
    }
}

/// The moves in text as people type or paste them: [`words_in`]'s moves,
/// the byte range of each, in order (game results are no moves).
///
/// ```
/// use sanfen::play::moves_in;
///
/// let text = "1. e4 e5 2.Nf3 $1 exd6 e.p. 1-0";
/// let moves: Vec<&str> = moves_in(text).into_iter().map(|range| &text[range]).collect();
/// assert_eq!(moves, ["e4", "e5", "Nf3", "exd6 e.p."]);
/// ```
pub fn moves_in(text: &str) -> Vec<Range<usize>> {
    words_in(text)
        .into_iter()
        .filter_map(|word| match word {
            Word::Move(span) => Some(span),
            Word::Result(..) => None,
        })
        .collect()
}

/// The number written before a move: `12.` before White's move, `12...`
/// before Black's.
///
/// ```
/// use sanfen::play::MoveNumber;
/// use sanfen::{Color, Position};
///
/// assert_eq!(MoveNumber::before(&Position::default()).to_string(), "1.");
/// assert_eq!(MoveNumber { number: 12, turn: Color::Black }.to_string(), "12...");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveNumber {
    /// The full-move number.
    pub number: u32,
    /// The side whose move it is.
    pub turn: Color,
}

impl MoveNumber {
    /// The number before the move of the side to move in `pos`.
    pub fn before(pos: &Position) -> MoveNumber {
        MoveNumber { number: pos.fullmoves(), turn: pos.turn() }
    }

    /// Appends the text to `out` (no allocation beyond `out`'s).
    pub fn append_ascii(self, out: &mut Vec<u8>) {
        use std::io::Write as _;
        // writing to a vector cannot fail
        let _ = write!(out, "{self}");
    }
}

impl core::fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let dots = if self.turn == Color::White { "." } else { "..." };
        write!(f, "{}{dots}", self.number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::san::SanLintKind;

    #[test]
    fn the_fast_path_judges_the_check_mark() {
        // after 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6: Qxf7 mates
        let mut pos: Position = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4".parse().unwrap();
        let played = read(&pos, b"Qxf7+!", Options::PGN).unwrap();
        assert_eq!(played.annotated().to_string(), "Qxf7#!");
        assert_eq!(played.lints, [MoveLint::CheckInsteadOfMate]);
        let played = play(&mut pos, b"Qxf7#", Options::PGN).unwrap();
        assert!(played.is_canonical());
        assert_eq!(played.checkers, pos.checkers());
        assert_eq!(played.checkers.count(), 1);
    }

    #[test]
    fn move_numbers_nags_and_results_are_no_moves() {
        let words = |text: &'static str| -> Vec<&'static str> {
            moves_in(text).into_iter().map(|range| &text[range]).collect()
        };
        assert_eq!(words("e4 1. 12... 1.e4 12...Nf6 0-0 0-0-0 3.0-0"), ["e4", "e4", "Nf6", "0-0", "0-0-0", "0-0"]);
        assert_eq!(words("1-0 0-1 1/2-1/2 ½-½ * $14"), Vec::<&str>::new());
        assert_eq!(words("$ 12 e4\u{a0}e5\texd6  EP"), ["$", "12", "e4", "e5", "exd6  EP"]);
        // a mark with no move before it is a word of its own
        assert_eq!(words("e.p. e4"), ["e.p.", "e4"]);
        assert_eq!(words(""), Vec::<&str>::new());
    }

    #[test]
    fn null_moves_are_played_or_refused_as_the_options_say() {
        let mut pos = Position::default();
        let played = play(&mut pos, b"Z0!", Options::PGN).unwrap();
        assert_eq!((played.m, played.annotated().to_string()), (None, "--!".to_owned()));
        assert_eq!(played.spelling.iter().map(|lint| lint.kind).collect::<Vec<_>>(), [SanLintKind::NullMoveSpelling]);
        assert_eq!(pos.to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 1 1");
        let refused = play(&mut pos, b"--", Options::typed(Letters::English)).unwrap_err();
        assert_eq!(refused.to_string(), "illegal: a null move is not a move");
        // in check: never
        let mut check: Position = "4k3/8/8/8/8/8/8/4K2r w - - 0 1".parse().unwrap();
        assert_eq!(play(&mut check, b"--", Options::PGN), Err(PlayError::NullMoveInCheck));
        assert_eq!(check.to_string(), "4k3/8/8/8/8/8/8/4K2r w - - 0 1");
    }

    #[test]
    fn results_are_words_of_their_own() {
        let text = "e4 ½-½ 3.0-1 * 1/2-1/2 exd6 ep 1-0 ep";
        let words: Vec<(bool, &str)> =
            words_in(text).iter().map(|word| (matches!(word, Word::Move(_)), &text[word.span()])).collect();
        let expected = [(true, "e4"), (false, "½-½"), (false, "0-1"), (false, "*"), (false, "1/2-1/2")];
        assert_eq!(words[..5], expected);
        // an en passant mark after a result is no move's
        assert_eq!(words[5..], [(true, "exd6 ep"), (false, "1-0"), (true, "ep")]);
        let draw = ResultToken::Outcome(Outcome::Draw);
        assert_eq!(words_in("½-½ 1/2-1/2"), [Word::Result(draw, 0..5), Word::Result(draw, 6..13)]);
        assert_eq!(words_in("*"), [Word::Result(ResultToken::Unknown, 0..1)]);
    }

    #[test]
    fn an_illegal_moves_suggestions_are_made_as_the_options_say() {
        let mut pos = Position::default();
        let error = play(&mut pos, b"Nf4", Options::PGN).unwrap_err();
        assert_eq!(error.to_string(), "illegal: no knight can move to f4; did you mean Nf3, f4, Na3?");
        let quiet = Options { suggestions: false, ..Options::PGN };
        let error = play(&mut pos, b"Nf4", quiet).unwrap_err();
        assert_eq!(error.to_string(), "illegal: no knight can move to f4");
        // a token with two readings (the pawn's is the error given)
        let error = play(&mut pos, b"bc4", Options::PGN).unwrap_err();
        let pawn = "illegal: no pawn can move to c4: the pawn on c2 stands on another file than the one given";
        assert_eq!(error.to_string(), format!("{pawn}; did you mean c4?"));
        let error = play(&mut pos, b"bc4", quiet).unwrap_err();
        assert_eq!(error.to_string(), pawn);
        assert_eq!(pos, Position::default());
    }

    #[test]
    fn text_that_is_no_move_is_refused_with_its_location() {
        let mut pos = Position::default();
        let error = play(&mut pos, b"Nf3x", Options::PGN).unwrap_err();
        let PlayError::NotAMove(ref syntax) = error else { panic!("{error:?}") };
        assert_eq!(syntax.span, 4..4);
        assert_eq!(pos, Position::default());
    }

    #[test]
    fn the_fast_path_and_the_resolver_agree() {
        // the same move through both paths: canonical text, and a spelling
        // only the resolver reads
        for (fast, slow) in [("exd5", "e4xd5"), ("Nf3+", "Ng1f3+"), ("O-O", "0-0")] {
            let fen = match fast {
                "exd5" => "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                "Nf3+" => "rnbq1bnr/pppp1ppp/8/4k3/8/8/PPPP1PPP/RNBQKBNR w KQ - 0 4",
                _ => "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            };
            let pos: Position = fen.parse().unwrap();
            let a = read(&pos, fast.as_bytes(), Options::PGN).unwrap();
            let b = read(&pos, slow.as_bytes(), Options::PGN).unwrap();
            assert_eq!((a.m, a.san, a.checkers), (b.m, b.san, b.checkers), "{fast} {slow}");
            assert!(a.is_canonical() && !b.is_canonical(), "{fast} {slow}");
        }
    }
}
