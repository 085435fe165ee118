//! `Position`: a legal chess position to list moves on, play moves of any
//! spelling on, and resolve moves against with every reason; and the values
//! it gives back (`Move`, `Lint`, `Candidate`, `Resolution`, `Outcome`).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyType};
use sanfen::convert::UciMoveError;
use sanfen::notation::{self, Notation};
use sanfen::pgn::Node;
use sanfen::play::{self, Options, Played};
use sanfen::resolve::{MoveLint, Rejection, SanError, resolve_text};
use sanfen::san::{Letters, SanLint, SanOptions, SanPlus};
use sanfen::{Bitboard, GameEnd, Move as LibMove, Severity, Uci};

use crate::errors;
use crate::fen::{Judgement, ReduceTo, castling_mode, repr, text_bytes};

type LintState = (String, String, String, Option<(usize, usize)>);
type MoveState = (String, String, String, String, Option<String>, Vec<Lint>);
/// A position's pickle: its class, the arguments that make the position it
/// was made from, and the moves played on it.
type PositionPickle<'py> = (Bound<'py, PyType>, (String, bool, bool), Vec<Move>);
type CandidateState = (String, bool, Option<String>, Option<String>, Vec<String>);
type ResolutionState = (
    String,
    Vec<String>,
    Option<usize>,
    Vec<Candidate>,
    Option<Move>,
    Option<Py<PyAny>>,
    Vec<String>,
    Vec<Lint>,
    Option<String>,
);

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A finding about how a move was written: accepted, but not as canonical SAN
/// writes it (``0-0``, ``e8Q``, ``Ng1-f3``, a missing ``x`` or ``+``, ...).
#[pyclass(module = "sanfen", frozen, get_all, eq, from_py_object)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lint {
    /// A stable identifier: ``"san:castling-zeros"``, ``"san:missing-check"``, ...
    pub code: String,
    /// What is not canonical, in words.
    pub message: String,
    /// The canonical spelling of the part (``"O-O"``, ``"=Q"``), or of the
    /// whole move for findings about the move; empty when canonical SAN
    /// leaves the part out.
    pub canonical: String,
    /// Byte offsets ``(start, end)`` of the part in the text, or ``None`` for a
    /// finding about the move as a whole.
    pub span: Option<(usize, usize)>,
}

#[pymethods]
impl Lint {
    /// A finding of these values, as pickling rebuilds one.
    #[new]
    fn new(code: String, message: String, canonical: String, span: Option<(usize, usize)>) -> Lint {
        Lint { code, message, canonical, span }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> ReduceTo<'py, LintState> {
        let this = slf.get().clone();
        (slf.get_type(), (this.code, this.message, this.canonical, this.span))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Lint(code={}, message={})", repr(py, &self.code)?, repr(py, &self.message)?))
    }

    fn __str__(&self) -> String {
        format!("{}: {}", self.code, self.message)
    }
}

/// The findings of a move as written: spelling first (in input order), then
/// those about the move as a whole, with the canonical SAN.
fn lints(spelling: &[SanLint], moves: &[MoveLint], canonical: Option<&SanPlus>) -> Vec<Lint> {
    let san = canonical.map(ToString::to_string).unwrap_or_default();
    spelling
        .iter()
        .map(|lint| Lint {
            code: lint.code().to_owned(),
            message: lint.to_string(),
            canonical: lint.canonical.clone(),
            span: Some((lint.span.start, lint.span.end)),
        })
        .chain(moves.iter().map(|lint| Lint {
            code: lint.code().to_owned(),
            message: format!("{lint}; SAN writes {san}"),
            canonical: san.clone(),
            span: None,
        }))
        .collect()
}

/// A move played or resolved on a position.
#[pyclass(module = "sanfen", frozen, get_all, eq, from_py_object)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// Canonical SAN, with the check mark the move earns (``"Nf3"``, ``"O-O"``, ``"Qh4#"``).
    pub san: String,
    /// UCI (``"g1f3"``; castling as the king's move in standard chess, as the
    /// king taking its rook in Chess960).
    pub uci: String,
    /// The origin square (``"g1"``; the king's square for castling).
    pub from_square: String,
    /// The destination square (``"f3"``; for castling the king's destination
    /// in standard chess, the rook's square in Chess960, as UCI writes it).
    pub to_square: String,
    /// The promotion piece as a lowercase letter (``"q"``), or ``None``.
    pub promotion: Option<String>,
    /// How the text differed from canonical SAN (empty when it was canonical).
    pub lints: Vec<Lint>,
}

#[pymethods]
impl Move {
    /// A move of these values, as pickling rebuilds one.
    #[new]
    fn new_from(
        san: String,
        uci: String,
        from_square: String,
        to_square: String,
        promotion: Option<String>,
        lints: Vec<Lint>,
    ) -> Move {
        Move { san, uci, from_square, to_square, promotion, lints }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> ReduceTo<'py, MoveState> {
        let this = slf.get().clone();
        (slf.get_type(), (this.san, this.uci, this.from_square, this.to_square, this.promotion, this.lints))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Move(san={}, uci={})", repr(py, &self.san)?, repr(py, &self.uci)?))
    }

    fn __str__(&self) -> String {
        self.san.clone()
    }

    fn __hash__(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        (&self.san, &self.uci).hash(&mut hasher);
        hasher.finish()
    }
}

impl Move {
    fn new(pos: &sanfen::Position, m: LibMove, san: String, lints: Vec<Lint>) -> Move {
        let uci = m.to_uci(pos.castling_mode());
        Move {
            san,
            uci: uci.to_string(),
            from_square: uci.from.to_string(),
            to_square: uci.to.to_string(),
            promotion: m.promotion().map(|role| role.char().to_string()),
            lints,
        }
    }

    /// `m`, played in `before` with `lints`, as ``play`` gave it back.
    fn replayed(before: &sanfen::Position, m: LibMove, lints: &[Lint]) -> Move {
        Move::new(before, m, SanPlus::from_move(before, m).to_string(), lints.to_vec())
    }

    fn played(pos: &sanfen::Position, played: &Played) -> Option<Move> {
        let m = played.m?;
        let lints = lints(&played.spelling, &played.lints, Some(&played.san));
        Some(Move::new(pos, m, played.san.to_string(), lints))
    }
}

/// One candidate origin square of a resolved move: a square holding a piece of
/// the named kind, kept or rejected with its reason.
#[pyclass(module = "sanfen", frozen, get_all, eq, from_py_object)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Where the piece stands (``"g1"``).
    pub square: String,
    /// Whether the piece can make the move.
    pub kept: bool,
    /// Why not, in words, or ``None`` when kept.
    pub reason: Option<String>,
    /// Why not, as a name: ``"wrong-file"``, ``"wrong-rank"``,
    /// ``"cannot-reach"``, ``"blocked"``, ``"nothing-to-capture"``,
    /// ``"pinned"``, ``"leaves-king-in-check"``; ``None`` when kept.
    pub rejection: Option<String>,
    /// The squares of the pieces the reason names (the blocker, the pinner,
    /// the checkers); empty otherwise.
    pub by: Vec<String>,
}

#[pymethods]
impl Candidate {
    /// A candidate of these values, as pickling rebuilds one.
    #[new]
    fn new(
        square: String,
        kept: bool,
        reason: Option<String>,
        rejection: Option<String>,
        by: Vec<String>,
    ) -> Candidate {
        Candidate { square, kept, reason, rejection, by }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> ReduceTo<'py, CandidateState> {
        let this = slf.get().clone();
        (slf.get_type(), (this.square, this.kept, this.reason, this.rejection, this.by))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let square = repr(py, &self.square)?;
        Ok(match &self.reason {
            None => format!("Candidate(square={square}, kept=True)"),
            Some(reason) => format!("Candidate(square={square}, kept=False, reason={})", repr(py, reason)?),
        })
    }
}

impl Candidate {
    fn of(candidate: &sanfen::resolve::Candidate) -> Candidate {
        let rejection = candidate.rejection.as_ref();
        let by = rejection.map_or(Bitboard::EMPTY, Rejection::squares);
        Candidate {
            square: candidate.from.to_string(),
            kept: rejection.is_none(),
            reason: rejection.map(ToString::to_string),
            rejection: rejection.map(|rejection| rejection.code().to_owned()),
            by: by.into_iter().map(|square| square.to_string()).collect(),
        }
    }
}

/// How a text is read against a position (``Position.resolve``): its
/// readings, every candidate origin square with its verdict, and the outcome:
/// the move, or the exception ``Position.play`` would raise.
#[pyclass(module = "sanfen", frozen)]
pub struct Resolution {
    text: String,
    readings: Vec<String>,
    reading: Option<usize>,
    candidates: Vec<Candidate>,
    played: Option<Move>,
    error: Option<Py<PyAny>>,
    suggestions: Vec<String>,
    lints: Vec<Lint>,
    fen_after: Option<String>,
}

#[pymethods]
impl Resolution {
    /// A resolution of these values (its attributes in order, ``move`` as
    /// ``played``), as pickling rebuilds one.
    #[new]
    #[expect(clippy::too_many_arguments, reason = "one for each attribute, as pickling gives them")]
    fn new(
        text: String,
        readings: Vec<String>,
        reading: Option<usize>,
        candidates: Vec<Candidate>,
        played: Option<Move>,
        error: Option<Py<PyAny>>,
        suggestions: Vec<String>,
        lints: Vec<Lint>,
        fen_after: Option<String>,
    ) -> Resolution {
        Resolution { text, readings, reading, candidates, played, error, suggestions, lints, fen_after }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> ReduceTo<'py, ResolutionState> {
        let this = slf.get();
        let error = this.error.as_ref().map(|error| error.clone_ref(slf.py()));
        let state = (
            this.text.clone(),
            this.readings.clone(),
            this.reading,
            this.candidates.clone(),
            this.played.clone(),
            error,
            this.suggestions.clone(),
            this.lints.clone(),
            this.fen_after.clone(),
        );
        (slf.get_type(), state)
    }

    /// The text as given.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    /// The readings of the text as SAN, in order (two for ``"bc4"``: the pawn
    /// capture ``"bxc4"``, then the bishop move ``"Bc4"``); empty when the text
    /// is not a move.
    #[getter]
    fn readings(&self) -> Vec<String> {
        self.readings.clone()
    }

    /// The index in ``readings`` of the reading the outcome is about, or
    /// ``None`` when the text is not a move.
    #[getter]
    fn reading(&self) -> Option<usize> {
        self.reading
    }

    /// Every square holding a piece of the named kind (``Candidate``), a1
    /// first, kept or rejected with the reason.
    #[getter]
    fn candidates(&self) -> Vec<Candidate> {
        self.candidates.clone()
    }

    /// The move (``Move``), or ``None`` when the text names no single legal move.
    #[getter(r#move)]
    fn played(&self) -> Option<Move> {
        self.played.clone()
    }

    /// The exception ``Position.play`` raises for the text
    /// (``IllegalMoveError``, ``AmbiguousMoveError`` or ``InvalidMoveError``,
    /// with its attributes), or ``None`` when the text names a move.
    #[getter]
    fn error(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.error.as_ref().map(|error| error.clone_ref(py))
    }

    /// The legal moves closest to the text, best first, in SAN (for an
    /// illegal move); for an ambiguous one, the spellings that would name each
    /// fitting move; else empty.
    #[getter]
    fn suggestions(&self) -> Vec<String> {
        self.suggestions.clone()
    }

    /// How the text differed from canonical SAN (``Lint``), when it names a move.
    #[getter]
    fn lints(&self) -> Vec<Lint> {
        self.lints.clone()
    }

    /// The canonical FEN after the move, or ``None``.
    #[getter]
    fn fen_after(&self) -> Option<String> {
        self.fen_after.clone()
    }

    /// Whether the text names exactly one legal move.
    #[getter]
    fn ok(&self) -> bool {
        self.played.is_some()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let san = self.played.as_ref().map(|m| m.san.as_str());
        Ok(format!("Resolution(text={}, move={})", repr(py, &self.text)?, repr(py, san)?))
    }
}

/// How a game ends by the rules that need no claim: checkmate, stalemate,
/// insufficient material, fivefold repetition, the seventy-five-move rule.
#[pyclass(module = "sanfen", frozen, get_all, eq, from_py_object)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The PGN result: ``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``.
    pub result: String,
    /// ``"checkmate"``, ``"stalemate"``, ``"insufficient material"``,
    /// ``"fivefold repetition"`` or ``"seventy-five-move rule"``.
    pub reason: String,
    /// ``"white"`` or ``"black"``, or ``None`` for a draw.
    pub winner: Option<String>,
}

impl Outcome {
    /// The outcome of a game's end.
    pub(crate) fn of(end: GameEnd) -> Outcome {
        Outcome {
            result: end.result.as_str().to_owned(),
            reason: end.reason.as_str().to_owned(),
            winner: end.result.winner().map(|side| side.name().to_owned()),
        }
    }
}

#[pymethods]
impl Outcome {
    /// An outcome of these values, as pickling rebuilds one: a result
    /// (``"1-0"``, ``"0-1"``, ``"1/2-1/2"``), a reason that ends a game so
    /// (checkmate a win, the others a draw) and the result's winner
    /// (``"white"``, ``"black"``, None); ValueError for any other.
    #[new]
    fn new(py: Python<'_>, result: String, reason: String, winner: Option<String>) -> PyResult<Outcome> {
        use sanfen::EndReason;
        const REASONS: [EndReason; 5] = [
            EndReason::Checkmate,
            EndReason::Stalemate,
            EndReason::InsufficientMaterial,
            EndReason::FivefoldRepetition,
            EndReason::SeventyFiveMoveRule,
        ];
        let Ok(parsed) = result.parse::<sanfen::Outcome>() else {
            let shown = repr(py, &result)?;
            return Err(PyValueError::new_err(format!("unknown result {shown}: expected one of 1-0, 0-1, 1/2-1/2")));
        };
        let Some(kind) = REASONS.into_iter().find(|kind| kind.as_str() == reason) else {
            let names: Vec<&str> = REASONS.iter().map(|kind| kind.as_str()).collect();
            let shown = repr(py, &reason)?;
            return Err(PyValueError::new_err(format!("unknown reason {shown}: expected one of {}", names.join(", "))));
        };
        if (kind == EndReason::Checkmate) != parsed.winner().is_some() {
            return Err(PyValueError::new_err(format!("a game does not end {result} by {reason}")));
        }
        let outcome = Outcome::of(GameEnd { reason: kind, result: parsed });
        if outcome.winner != winner {
            let (wanted, given) = (repr(py, &outcome.winner)?, repr(py, &winner)?);
            return Err(PyValueError::new_err(format!("the winner of {result} is {wanted}, not {given}")));
        }
        Ok(outcome)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> ReduceTo<'py, (String, String, Option<String>)> {
        let this = slf.get().clone();
        (slf.get_type(), (this.result, this.reason, this.winner))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Outcome(result={}, reason={})", repr(py, &self.result)?, repr(py, &self.reason)?))
    }

    fn __str__(&self) -> String {
        format!("{}: {}", self.reason, self.result)
    }
}

/// The code of a language of piece letters (``"pt"`` for
/// ``"portuguese"``); ValueError for one sanfen does not know. For
/// `sanfen.spark`, which checks its options before Spark runs a task.
#[pyfunction]
pub fn _letters(name: &str) -> PyResult<&'static str> {
    Ok(letters(name)?.code())
}

/// Reads a language name (``"en"``, ``"pt"``, ``"portuguese"``, ...).
pub(crate) fn letters(name: &str) -> PyResult<Letters> {
    Letters::from_name(name).ok_or_else(|| {
        let codes: Vec<&str> = Letters::ALL.iter().map(|letters| letters.code()).collect();
        PyValueError::new_err(format!("unknown letters '{name}': expected one of {}", codes.join(", ")))
    })
}

/// Reads the notation of a PGN's moves (``to_pgn``): those a reader reads
/// back as the same moves.
pub(crate) fn movetext_notation(name: &str) -> PyResult<Notation> {
    match Notation::from_name(name) {
        Some(Notation::FilePrefixed) | None => Err(PyValueError::new_err(format!(
            "unknown notation '{name}' for PGN: expected one of san, lan, uci, figurine"
        ))),
        Some(notation) => Ok(notation),
    }
}

/// The text of a move argument.
fn move_text(value: &Bound<'_, PyAny>, function: &str) -> PyResult<String> {
    match value.cast::<PyString>() {
        Ok(text) => Ok(text.to_cow()?.into_owned()),
        Err(_) => {
            let kind = value.get_type().name()?;
            Err(PyTypeError::new_err(format!("{function}() takes a str, not {kind}")))
        }
    }
}

/// A legal chess position (standard chess or Chess960).
///
/// ``Position()`` is the initial position; ``Position(fen)`` the position a
/// FEN describes (``FenError`` with the findings when it is not valid);
/// ``chess960=True`` reads the castling field as Chess960 castling;
/// ``lenient=True`` also accepts a position no legal game reaches (an
/// impossible check, too much material) when the rules can be played from it
/// (one king a side, the side not to move not in check, castling rights and en
/// passant square that fit), as composed problems and test suites need. Moves of
/// any common spelling are played with ``play``, listed with
/// ``legal_moves``, explained with ``resolve``, and taken back with ``pop``;
/// the moves played since the position was made (``move_stack``) are what
/// ``outcome`` and ``is_repetition`` count repetitions in, as python-chess's
/// ``Board`` does. Each move played is kept (about 20 bytes, with a position
/// every 32 moves): for games played one after another, make a ``Position``
/// for each.
#[pyclass(module = "sanfen")]
#[derive(Clone)]
pub struct Position {
    /// The position made, the moves played on it and the positions they led to.
    game: sanfen::Game,
    /// The lints of the game's moves that have some, as ``play`` found
    /// them, by the move's index (from 0, ascending): the rest of each
    /// ``Move`` is made again from the game when asked for (a game of a
    /// million moves read from PGN holds no strings, and nothing for its
    /// canonical moves).
    lints: Vec<(usize, Vec<Lint>)>,
}

#[pymethods]
impl Position {
    #[new]
    #[pyo3(signature = (fen = None, chess960 = false, lenient = false))]
    fn py_new(py: Python<'_>, fen: Option<&Bound<'_, PyAny>>, chess960: bool, lenient: bool) -> PyResult<Position> {
        let input = match fen {
            Some(fen) => text_bytes(fen, "Position")?,
            None => START.as_bytes().to_vec(),
        };
        let judgement = Judgement::of(&input, castling_mode(chess960), lenient);
        match judgement.position {
            Some(inner) => Ok(Position::new(inner)),
            None => {
                let errors: Vec<String> = judgement
                    .findings
                    .iter()
                    .filter(|(severity, _)| *severity == Severity::Error)
                    .map(|(_, finding)| finding.message.clone())
                    .collect();
                let message = if errors.is_empty() {
                    "invalid FEN".to_owned()
                } else {
                    format!("invalid FEN: {}", errors.join("; "))
                };
                let findings: Vec<_> = judgement.findings.into_iter().map(|(_, finding)| finding).collect();
                let findings = PyList::new(py, findings)?.into_any();
                Err(errors::fen_error(py, message, findings))
            }
        }
    }

    /// The Chess960 start position of ``number`` (0 to 959, the standard
    /// numbering; 518 is the standard start), with every castling right, as
    /// python-chess's ``Board.from_chess960_pos``.
    #[staticmethod]
    fn from_chess960_pos(number: i64) -> PyResult<Position> {
        u16::try_from(number)
            .ok()
            .and_then(sanfen::Position::chess960)
            .map(Position::new)
            .ok_or_else(|| PyValueError::new_err(format!("a Chess960 position number is 0 to 959, not {number}")))
    }

    /// The canonical FEN: the en passant square only when a pawn can capture
    /// there, castling rights in ``KQkq`` order (Shredder-FEN letters where
    /// Chess960 needs them).
    fn fen(&self) -> String {
        self.position().fen().to_string()
    }

    /// The side to move: ``"white"`` or ``"black"``.
    #[getter]
    fn turn(&self) -> &'static str {
        self.position().turn().name()
    }

    /// Whether castling is read and written as in Chess960.
    #[getter]
    fn chess960(&self) -> bool {
        self.position().castling_mode() == sanfen::CastlingMode::Chess960
    }

    /// The halfmove clock: plies since the last capture or pawn move.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.position().halfmoves()
    }

    /// The fullmove number: 1 at the start, one more after each black move.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.position().fullmoves()
    }

    /// The legal moves as text, in ``notation``: ``"san"`` (the default),
    /// ``"lan"`` (``Ng1-f3``), ``"uci"``, ``"figurine"`` (``♘f3``) or
    /// ``"file-prefixed"`` (every pawn move with its origin file, castling as
    /// the king's destination). ``order="natural"`` is generation order;
    /// ``"value"`` sorts by piece (pawn first, king last), then origin, then
    /// destination. ``letters`` names the piece letters' language for SAN and
    /// LAN (``"en"``, ``"pt"``, ``"es"``, ``"fr"``, ``"de"``, ``"it"``, ``"nl"``).
    #[pyo3(signature = (notation = "san", order = "natural", letters = "en"))]
    fn legal_moves(&self, notation: &str, order: &str, letters: &str) -> PyResult<Vec<String>> {
        let written = Notation::from_name(notation).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown notation '{notation}': expected one of san, lan, uci, figurine, file-prefixed"
            ))
        })?;
        let letters = self::letters(letters)?;
        let mut moves = self.position().legal_moves();
        match order {
            "natural" => {}
            "value" => notation::sort_by_value(&mut moves),
            _ => {
                return Err(PyValueError::new_err(format!("unknown order '{order}': expected natural or value")));
            }
        }
        Ok(moves.iter().map(|&m| notation::write_move(self.position(), m, written, letters)).collect())
    }

    /// Plays the move ``text`` names, in any spelling: SAN (``"Nf3"``), with
    /// origin (``"Ng1f3"``, ``"Ng1-f3"``), coordinates or UCI (``"g1f3"``,
    /// ``"e2-e4"``), castling with zeros (``"0-0"``), promotion without ``=``
    /// (``"e8Q"``), ``"exd6 e.p."``, lowercase piece letters where
    /// unambiguous, figurines, and the piece letters of ``letters``
    /// (``letters="pt"`` reads ``"Cf3"``). Returns the ``Move`` (with its
    /// ``lints``: how the text differed from canonical SAN) and changes the
    /// position.
    ///
    /// Raises ``InvalidMoveError`` when the text is not a move,
    /// ``IllegalMoveError`` when no legal move fits (with the reason and
    /// suggestions), ``AmbiguousMoveError`` when several do; the position is
    /// then unchanged.
    #[pyo3(signature = (text, letters = "en"))]
    fn play(&mut self, py: Python<'_>, text: &Bound<'_, PyAny>, letters: &str) -> PyResult<Move> {
        let text = move_text(text, "play")?;
        let options = Options::typed(self::letters(letters)?);
        let mut after = self.position().clone();
        match play::play(&mut after, text.as_bytes(), options) {
            Ok(played) => match (played.m, Move::played(self.position(), &played)) {
                (Some(m), Some(shown)) => {
                    self.push(m, shown.lints.clone());
                    Ok(shown)
                }
                _ => {
                    // a null move cannot be typed; the position stays as it was
                    Err(errors::illegal(
                        py,
                        &text,
                        "illegal: a null move is not a move".to_owned(),
                        "a null move is not a move".to_owned(),
                        Vec::new(),
                    ))
                }
            },
            Err(error) => Err(errors::play_error(py, &text, &error)),
        }
    }

    /// Plays a move given in UCI (``"g1f3"``, ``"e7e8q"``; castling as the
    /// king's move in standard chess, the king taking its rook in Chess960).
    /// Returns the ``Move``. Raises ``InvalidMoveError`` when the text is not
    /// UCI, ``IllegalMoveError`` when the move is not legal.
    fn push_uci(&mut self, py: Python<'_>, uci: &Bound<'_, PyAny>) -> PyResult<Move> {
        let text = move_text(uci, "push_uci")?;
        let parsed: Uci = match text.parse() {
            Ok(parsed) => parsed,
            Err(error) => {
                let expected = "two squares and an optional promotion letter, such as e7e8q";
                return Err(errors::invalid(py, &text, error.to_string(), (0, text.len()), &text, expected));
            }
        };
        let m = match parsed.to_move(self.position()) {
            Ok(m) => m,
            Err(UciMoveError::Illegal { error, .. }) => return Err(errors::san_error(py, &text, &error)),
            Err(error @ UciMoveError::WrittenOtherwise { expected, .. }) => {
                let reason = format!("UCI writes this move {expected} in this castling mode");
                return Err(errors::illegal(py, &text, error.to_string(), reason, vec![expected.to_string()]));
            }
            Err(error) => {
                return Err(errors::illegal(py, &text, error.to_string(), error.to_string(), Vec::new()));
            }
        };
        let san = SanPlus::from_move(self.position(), m).to_string();
        let played = Move::new(self.position(), m, san, Vec::new());
        self.push(m, Vec::new());
        Ok(played)
    }

    /// Takes back the last move played (``play`` or ``push_uci``) and returns
    /// it, as python-chess's ``Board.pop``; ``IndexError`` when no move was
    /// played on this position (the moves of its FEN are not known).
    fn pop(&mut self) -> PyResult<Move> {
        let shown = self.last().ok_or_else(no_move)?;
        self.game.undo();
        let played = self.game.moves().len();
        self.lints.pop_if(|(i, _)| *i == played);
        Ok(shown)
    }

    /// The last move played, without taking it back; ``IndexError`` when
    /// there is none.
    fn peek(&self) -> PyResult<Move> {
        self.last().ok_or_else(no_move)
    }

    /// The moves played on this position since it was made, first to last.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        let mut lints = self.lints.iter().peekable();
        let moves = self.game.positions().zip(self.game.moves()).enumerate();
        moves
            .map(|(i, (before, &m))| {
                let these = lints.next_if(|&&(at, _)| at == i).map_or(&[][..], |(_, lints)| lints);
                Move::replayed(&before, m, these)
            })
            .collect()
    }

    /// Whether the current position has occurred at least ``count`` times
    /// (this time included) since the position was made (``move_stack``),
    /// compared as FIDE compares them: the placement, the side to move, the
    /// castling rights and an en passant capture that can be made.
    #[pyo3(signature = (count = 3))]
    fn is_repetition(&self, count: usize) -> bool {
        self.game.repetitions() >= count
    }

    /// The draw the side to move may claim now: ``"threefold repetition"``
    /// (of the positions since this one was made), ``"fifty-move rule"`` (a
    /// halfmove clock of 100 or more), or ``None`` (also when the game is
    /// over). A claim made with a move that brings it about is not covered:
    /// play the move, then ask.
    fn claimable_draw(&self) -> Option<&'static str> {
        self.game.claimable().map(|claim| claim.as_str())
    }

    /// Whether the game is over: ``outcome()`` is not ``None``.
    fn is_game_over(&self) -> bool {
        self.game.end().is_some()
    }

    /// Resolves ``text`` against the position without playing it: the
    /// readings, every candidate origin square kept or rejected with its
    /// reason, and the outcome (``move``, or ``error``: the exception
    /// ``play`` would raise), with ``suggestions``, ``lints`` and
    /// ``fen_after``. Reads the spellings ``play`` reads.
    #[pyo3(signature = (text, letters = "en"))]
    fn resolve(&self, py: Python<'_>, text: &Bound<'_, PyAny>, letters: &str) -> PyResult<Resolution> {
        let text = move_text(text, "resolve")?;
        let options = SanOptions { strict: false, letters: self::letters(letters)? };
        let mut resolution = Resolution {
            text: text.clone(),
            readings: Vec::new(),
            reading: None,
            candidates: Vec::new(),
            played: None,
            error: None,
            suggestions: Vec::new(),
            lints: Vec::new(),
            fen_after: None,
        };
        let resolved = match resolve_text(self.position(), text.as_bytes(), options) {
            Ok(resolved) => resolved,
            Err(error) => {
                resolution.error = Some(errors::syntax_error(py, &text, &error).into_value(py).into_any());
                return Ok(resolution);
            }
        };
        resolution.readings = resolved.parsed.readings.iter().map(ToString::to_string).collect();
        resolution.reading = Some(resolved.reading);
        let outcome = &resolved.resolution;
        resolution.candidates = outcome.candidates.iter().map(Candidate::of).collect();
        match &outcome.outcome {
            Ok(m) => {
                let lints = lints(&resolved.syntax_lints, &outcome.lints, outcome.canonical.as_ref());
                let san = outcome.canonical.as_ref().map(ToString::to_string).unwrap_or_default();
                resolution.lints.clone_from(&lints);
                resolution.played = Some(Move::new(self.position(), *m, san, lints));
                resolution.fen_after = self.position().play(*m).ok().map(|after| after.fen().to_string());
            }
            Err(error) => {
                resolution.suggestions = match error {
                    SanError::Illegal { suggestions, .. } => suggestions.clone(),
                    SanError::Ambiguous { spellings, .. } => spellings.clone(),
                };
                resolution.error = Some(errors::san_error(py, &text, error).into_value(py).into_any());
            }
        }
        Ok(resolution)
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.position().is_check()
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.position().is_checkmate()
    }

    /// Whether the side to move is stalemated.
    fn is_stalemate(&self) -> bool {
        self.position().is_stalemate()
    }

    /// Whether neither side can mate (the FIDE cases that need no search).
    fn is_insufficient_material(&self) -> bool {
        self.position().is_insufficient_material()
    }

    /// How the game ends in this position (``Outcome``: ``result`` such as
    /// ``"1-0"``, ``reason`` such as ``"checkmate"``, ``winner``), or ``None``
    /// while it goes on. The reasons: ``"checkmate"``, ``"stalemate"``,
    /// ``"insufficient material"``, ``"fivefold repetition"`` (of the
    /// positions since this one was made: ``move_stack``) and
    /// ``"seventy-five-move rule"`` (a halfmove clock of 150; a mate on that
    /// move wins), the ends FIDE's rules make without a claim, as
    /// python-chess's ``Board.outcome()``.
    fn outcome(&self) -> Option<Outcome> {
        self.game.end().map(Outcome::of)
    }

    /// The moves played since the position was made, as a PGN game: the
    /// Seven Tag Roster (unknown values, ``?``, where ``tags`` gives none),
    /// ``Variant``, ``SetUp`` and ``FEN`` when the position made is Chess960
    /// or not the initial one, the other ``tags`` in their order (a dict, or
    /// pairs of str), then the moves in canonical SAN, lines of at most 80
    /// characters. The result: how the game ended on the board (checkmate,
    /// stalemate, insufficient material, fivefold repetition, the
    /// seventy-five-move rule), or the ``Result`` given (a resignation, a
    /// draw agreed), or ``*``. Raises ValueError for a tag it cannot write:
    /// a name that is not a PGN symbol, a value with a control character,
    /// ``SetUp``, ``FEN`` or ``Variant`` (the position says them), a
    /// ``Result`` that is not one or not how the game ended. ``notation``
    /// writes the moves in ``"lan"``, ``"uci"`` or ``"figurine"`` instead,
    /// as ``sanfen fmt --notation`` does.
    #[pyo3(signature = (tags = None, notation = "san"))]
    fn to_pgn(&self, tags: Option<&Bound<'_, PyAny>>, notation: &str) -> PyResult<String> {
        let notation = movetext_notation(notation)?;
        let pairs: Vec<(String, String)> = match tags {
            None => Vec::new(),
            Some(tags) => {
                // a mapping's items, or the pairs themselves
                let pairs = if tags.hasattr("items")? { tags.call_method0("items")? } else { tags.clone() };
                pairs.try_iter()?.map(|pair| pair?.extract()).collect::<PyResult<_>>()?
            }
        };
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(name, value)| (name.as_str(), value.as_str())).collect();
        let game =
            sanfen::pgn::Game::from_play(&self.game, &pairs).map_err(|err| PyValueError::new_err(err.to_string()))?;
        Ok(game.to_pgn_in(notation))
    }

    /// The board as the integer matrix: 8 rows of 8 integers, row 0 = rank 1,
    /// column 0 = file a; 1..6 for a white pawn, knight, bishop, rook, queen,
    /// king, negative for black, 0 for an empty square.
    fn board(&self) -> Vec<Vec<i8>> {
        self.position().board().to_int_matrix().iter().map(|row| row.to_vec()).collect()
    }

    /// An independent copy of the position.
    fn copy(&self) -> Position {
        self.clone()
    }

    fn __copy__(&self) -> Position {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Position {
        self.clone()
    }

    /// Pickled as the position made, then the moves played on it (state).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PositionPickle<'py> {
        let this = slf.borrow();
        let initial = this.game.initial().fen().to_string();
        // lenient: a position made leniently (and every one after its moves) comes back
        (slf.get_type(), (initial, this.chess960(), true), this.move_stack())
    }

    /// The moves of a pickle played again on the position made: each must
    /// be legal where it comes (``ValueError`` naming the first that is not).
    fn __setstate__(&mut self, py: Python<'_>, moves: Vec<Move>) -> PyResult<()> {
        let mut replayed = Position::with_room(self.game.initial().clone(), moves.len());
        for (i, shown) in moves.into_iter().enumerate() {
            let m = shown.uci.parse::<Uci>().ok().and_then(|uci| uci.to_move(replayed.position()).ok());
            let Some(m) = m else {
                let fen = replayed.fen();
                let message = format!("move {} of the pickle, {}, is not legal in {fen}", i + 1, repr(py, &shown.uci)?);
                return Err(PyValueError::new_err(message));
            };
            replayed.push(m, shown.lints);
        }
        *self = replayed;
        Ok(())
    }

    fn __str__(&self) -> String {
        self.fen()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let fen = repr(py, self.fen())?;
        Ok(if self.chess960() { format!("Position({fen}, chess960=True)") } else { format!("Position({fen})") })
    }

    /// Positions are equal when their canonical FENs and castling modes are
    /// (the moves that led there are not compared, as python-chess compares
    /// boards).
    fn __eq__(&self, other: PyRef<'_, Position>) -> bool {
        self.position().castling_mode() == other.position().castling_mode()
            && self.position().to_canonical_setup() == other.position().to_canonical_setup()
    }

    fn __hash__(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.chess960().hash(&mut hasher);
        self.position().to_canonical_setup().hash(&mut hasher);
        hasher.finish()
    }
}

impl Position {
    /// `position` with no move played on it.
    fn new(position: sanfen::Position) -> Position {
        Position::with_room(position, 0)
    }

    /// `position` with room for `moves` moves (not up to twice as much
    /// memory while the game's vectors double).
    fn with_room(position: sanfen::Position, moves: usize) -> Position {
        let mut game = sanfen::Game::new(position);
        game.reserve(moves);
        Position { game, lints: Vec::new() }
    }

    /// `start` with the moves of `nodes` played on it, up to the first that
    /// was not played (a null move, the move of an error), each with the
    /// lints ``play`` finds in its text.
    pub(crate) fn of_line(start: sanfen::Position, nodes: &[Node]) -> Position {
        let played = nodes.iter().take_while(|node| node.played.is_some()).count();
        let mut position = Position::with_room(start, played);
        for node in nodes {
            let Some(m) = node.played else { break };
            // canonical text has none (most moves: nothing to resolve again)
            let found = if node.written == node.san.to_string() {
                Vec::new()
            } else {
                let mut after = position.position().clone();
                match play::play(&mut after, node.written.as_bytes(), Options::PGN) {
                    Ok(played) if played.m == Some(m) => lints(&played.spelling, &played.lints, Some(&played.san)),
                    // (a node read without its text, which read_games never gives)
                    _ => Vec::new(),
                }
            };
            position.push(m, found);
        }
        position
    }

    /// The current position.
    fn position(&self) -> &sanfen::Position {
        self.game.position()
    }

    /// Plays `m`, a legal move of the current position, with the lints of
    /// its text.
    fn push(&mut self, m: LibMove, lints: Vec<Lint>) {
        if !lints.is_empty() {
            self.lints.push((self.game.moves().len(), lints));
        }
        self.game.play_unchecked(m);
    }

    /// The last move played, as ``play`` gave it back.
    fn last(&self) -> Option<Move> {
        let (before, m) = self.game.last_move()?;
        let last = self.game.moves().len() - 1;
        let lints = self.lints.last().filter(|&&(i, _)| i == last).map_or(&[][..], |(_, lints)| lints);
        Some(Move::replayed(&before, m, lints))
    }
}

/// `pop` or `peek` with no move played.
fn no_move() -> PyErr {
    PyIndexError::new_err("no move was played on this position (the moves before its FEN are not known)")
}
