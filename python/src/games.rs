//! PGN games for Python: `read_games` (an iterator of `Game`s with their
//! moves, comments, clocks, evaluations and findings) and `check_pgn` (the
//! findings and counts `sanfen check --json` gives), over a path (plain,
//! gzip, zstd or bzip2), a binary file object or a text file object.
//!
//! The library does the work ([`sanfen::pgn::read_games_input_in`],
//! [`sanfen::pgn::check_input`]: the ordered parallel driver); the GIL is
//! released while it reads, and taken back only to call a file object's
//! `read`.

use std::io::{self, Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};

use pyo3::IntoPyObjectExt;
use pyo3::exceptions::{
    PyBlockingIOError, PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError, PyRuntimeError,
    PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyMemoryView, PyString, PyTuple};
use sanfen::Color;
use sanfen::Severity;
use sanfen::lint::LintPolicy;
use sanfen::pgn::check::{CheckError, CheckOptions, Report, TOO_LARGE, check_input, too_large_message};
use sanfen::pgn::chunk::TooLargeGame;
use sanfen::pgn::commands::Score;
use sanfen::pgn::input::{Input, InputError};
use sanfen::pgn::parallel::MOST_THREADS;
use sanfen::pgn::validate::{Finding as RustFinding, GameReport, Options};
use sanfen::pgn::{Game as RustGame, Line, Node, ParallelGames, ReadError, ResultToken, read_games_input_in};

use crate::fen::ReduceTo;
use crate::position::{Outcome, Position};

/// The bytes asked of a file object's `read` at a time.
pub(crate) const BLOCK: usize = 1 << 16;

/// The exception a file object raised reading, kept to be raised again
/// ([`Source::raise`]).
pub(crate) type Raised = Arc<Mutex<Option<PyErr>>>;

/// Where PGN comes from, as given from Python.
pub(crate) struct Source {
    /// The input, opened (decompressed when its first bytes say so).
    pub(crate) input: Input,
    /// The name findings carry: the path as given, or the file object's
    /// `name` (`<stream>` when it has none).
    pub(crate) name: String,
    /// A Python exception raised by the file object's `read`, to raise
    /// again in place of the read error it caused.
    pub(crate) raised: Raised,
}

impl Source {
    /// The exception to raise for a read error: the file object's own, when
    /// it raised one, else `fallback`.
    pub(crate) fn raise(raised: &Mutex<Option<PyErr>>, fallback: PyErr) -> PyErr {
        raised.lock().unwrap_or_else(PoisonError::into_inner).take().unwrap_or(fallback)
    }
}

/// Opens `source`: a path (`str` or `os.PathLike`), or an object with a
/// `read` method giving `bytes` or `str`.
pub(crate) fn open_source(source: &Bound<'_, PyAny>) -> PyResult<Source> {
    let raised = Arc::new(Mutex::new(None));
    if source.hasattr("read")? {
        let name = source
            .getattr("name")
            .ok()
            .and_then(|name| name.extract::<String>().ok())
            .unwrap_or_else(|| "<stream>".to_owned());
        let reader = FileObject::new(source.clone().unbind(), BLOCK, raised.clone());
        let input = Input::from_reader(reader, None).map_err(|err| Source::raise(&raised, input_error(&err, &name)))?;
        return Ok(Source { input, name, raised });
    }
    let path: PathBuf = source.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "expected a path (str or os.PathLike) or a file object, not {}",
            source.get_type().name().map_or_else(|_| "?".to_owned(), |name| name.to_string())
        ))
    })?;
    let name = sanfen::pgn::shown_name(path.as_os_str());
    // (with the GIL released: reading the first bytes waits for a slow
    // disk, or a FIFO's writer, which may be a Python thread)
    let input = source.py().detach(|| open_path(&path, &raised)).map_err(|err| {
        if err.kind == io::ErrorKind::NotFound && source.is_instance_of::<PyString>() && looks_like_pgn(&name) {
            let hint = "a str is a path: for PGN text, pass io.StringIO(text)";
            io_error(err.kind, format!("{name}: {} ({hint})", err.message), &name)
        } else {
            input_error(&err, &name)
        }
    })?;
    Ok(Source { input, name, raised })
}

/// Opens the file at `path`: a regular file as it is; a FIFO or device
/// without waiting, read after `poll` ([`Polled`]) so that a signal (Ctrl-C)
/// stops a wait for its data.
fn open_path(path: &std::path::Path, raised: &Raised) -> Result<Input, InputError> {
    use std::os::unix::fs::OpenOptionsExt;
    // (a directory too: the library refuses it, in the command line's words)
    if std::fs::metadata(path).is_ok_and(|metadata| metadata.is_file() || metadata.is_dir()) {
        return Input::open(path);
    }
    let file = std::fs::File::options()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
        .map_err(|err| InputError::from_io(&err))?;
    Input::from_reader(Polled { file, raised: raised.clone() }, None)
}

/// A FIFO or device opened without waiting (`O_NONBLOCK`), each read after
/// `poll` says there is something to read, Python's signal handlers run
/// every 50 ms meanwhile: the exception one raises (`KeyboardInterrupt`)
/// ends the read, kept to be raised ([`Source::raise`]). (A FIFO that no
/// program has opened to write to yet is not at its end: `poll` waits for
/// the writer, where `read` would say the end.)
struct Polled {
    file: std::fs::File,
    raised: Raised,
}

impl Read for Polled {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        use rustix::io::Errno;
        if buf.is_empty() {
            return Ok(0);
        }
        let wait = Timespec { tv_sec: 0, tv_nsec: 50_000_000 };
        loop {
            let mut fds = [PollFd::new(&self.file, PollFlags::IN)];
            match poll(&mut fds, Some(&wait)) {
                Ok(0) | Err(Errno::INTR) => {
                    if let Err(err) = Python::attach(|py| py.check_signals()) {
                        let message = err.to_string();
                        *self.raised.lock().unwrap_or_else(PoisonError::into_inner) = Some(err);
                        return Err(io::Error::other(message));
                    }
                    continue;
                }
                Ok(_) => {}
                Err(error) => return Err(error.into()),
            }
            match self.file.read(buf) {
                Err(error) if matches!(error.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted) => {}
                read => return read,
            }
        }
    }
}

/// Whether a path not found is rather PGN text: it has a line break, or
/// starts as a tag, a comment or a first move does (`1. e4`).
fn looks_like_pgn(name: &str) -> bool {
    let text = name.trim_start();
    name.contains(['\n', '\r']) || text.starts_with(['[', '{']) || (text.starts_with("1.") && text.contains(' '))
}

/// The Python exception for an input that cannot be opened: the `OSError`
/// subclass of its kind; `ValueError` for data that is not what it says
/// (a broken compressed stream, binary data).
pub(crate) fn input_error(err: &InputError, name: &str) -> PyErr {
    io_error(err.kind, format!("{name}: {}", err.message), name)
}

/// The Python exception for an I/O error of `kind`.
fn io_error(kind: io::ErrorKind, message: String, name: &str) -> PyErr {
    match kind {
        io::ErrorKind::NotFound => PyFileNotFoundError::new_err((2, message, name.to_owned())),
        io::ErrorKind::PermissionDenied => PyPermissionError::new_err((13, message, name.to_owned())),
        io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err((21, message, name.to_owned())),
        io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput | io::ErrorKind::UnexpectedEof => {
            PyValueError::new_err(message)
        }
        _ => PyOSError::new_err(message),
    }
}

/// A Python file object as a [`Read`]: `read` is called with the GIL held,
/// a block at a time; `str` chunks are taken as UTF-8.
pub(crate) struct FileObject {
    file: Py<PyAny>,
    /// The bytes asked of `read` at a time.
    block: usize,
    pending: Vec<u8>,
    at: usize,
    raised: Raised,
}

impl Read for FileObject {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.pending.len() {
            let block = Python::attach(|py| -> PyResult<Vec<u8>> {
                let chunk = self.file.bind(py).call_method1("read", (self.block,))?;
                if let Ok(bytes) = chunk.cast::<PyBytes>() {
                    Ok(bytes.as_bytes().to_vec())
                } else if let Ok(text) = chunk.cast::<PyString>() {
                    Ok(text.to_cow()?.as_bytes().to_vec())
                } else if chunk.is_none() {
                    // a non-blocking stream with nothing yet, not its end
                    // (taken as the end, the rest of the input would be
                    // dropped without a word)
                    let eagain: i32 = py.import("errno")?.getattr("EAGAIN")?.extract()?;
                    Err(PyBlockingIOError::new_err((
                        eagain,
                        "the file object's read() gave None (a non-blocking stream with no data yet): \
                         sanfen reads blocking streams",
                    )))
                } else if chunk.cast::<PyByteArray>().is_ok() || chunk.cast::<PyMemoryView>().is_ok() {
                    chunk.extract::<Vec<u8>>()
                } else {
                    // (a list of small integers, which would extract as
                    // bytes too, is no file's data)
                    Err(PyTypeError::new_err(format!(
                        "the file object's read() gave {}, not bytes or str",
                        chunk.get_type().name().map_or_else(|_| "?".to_owned(), |name| name.to_string())
                    )))
                }
            });
            match block {
                Ok(block) => {
                    self.pending = block;
                    self.at = 0;
                }
                Err(err) => return Err(self.failed(err)),
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

impl FileObject {
    /// A file object read from where it is, `block` bytes asked at a time.
    pub(crate) fn new(file: Py<PyAny>, block: usize, raised: Raised) -> FileObject {
        FileObject { file, block, pending: Vec::new(), at: 0, raised }
    }

    /// The I/O error of the file object's exception `err`, which is kept
    /// to be raised in its place ([`Source::raise`]).
    fn failed(&self, err: PyErr) -> io::Error {
        let message = err.to_string();
        *self.raised.lock().unwrap_or_else(PoisonError::into_inner) = Some(err);
        io::Error::other(message)
    }
}

/// A seekable file object (`seek(offset, whence)` giving the new position,
/// as Python's files and pyarrow's do): the bytes read ahead are dropped.
impl Seek for FileObject {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let (offset, whence) = match to {
            SeekFrom::Start(offset) => (i128::from(offset), 0),
            // from where the reader is, not the file object
            SeekFrom::Current(offset) => (i128::from(offset) - (self.pending.len() - self.at) as i128, 1),
            SeekFrom::End(offset) => (i128::from(offset), 2),
        };
        self.pending.clear();
        self.at = 0;
        Python::attach(|py| self.file.bind(py).call_method1("seek", (offset, whence))?.extract::<u64>())
            .map_err(|err| self.failed(err))
    }
}

/// The number of threads `threads` stands for in the library: `None` is 0
/// (one per core).
pub(crate) fn threads_arg(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        None => Ok(0),
        Some(n @ 1..=MOST_THREADS) => Ok(n),
        Some(_) => {
            Err(PyValueError::new_err(format!("threads must be from 1 to {MOST_THREADS} (or None: one per core)")))
        }
    }
}

/// The games of an input, from [`read_games_input_in`], with what the
/// Python side needs to raise its errors.
pub(crate) struct GameStream {
    games: ParallelGames,
    /// Shared with the games handed out.
    name: Arc<str>,
    raised: Raised,
    /// Games handed out, too large ones included.
    count: u64,
}

impl GameStream {
    /// Starts reading `source` on `threads` threads (`None`: one per core),
    /// its moves in `letters`.
    pub(crate) fn open(source: &Bound<'_, PyAny>, threads: Option<usize>, letters: &str) -> PyResult<GameStream> {
        let (threads, letters) = (threads_arg(threads)?, crate::position::letters(letters)?);
        let Source { input, name, raised } = open_source(source)?;
        let games = read_games_input_in(input, threads, letters)
            .map_err(|err| Source::raise(&raised, input_error(&err, &name)))?;
        Ok(GameStream { games, name: name.into(), raised, count: 0 })
    }

    /// The next game and its number (from 1), with the GIL released while
    /// the library reads (a game built already is taken with it held).
    pub(crate) fn next_game(&mut self, py: Python<'_>) -> PyResult<Option<(u64, RustGame)>> {
        let next = self.games.next_ready().or_else(|| py.detach(|| self.games.next()));
        match next {
            None => Ok(None),
            Some(Ok(game)) => {
                self.count += 1;
                Ok(Some((self.count, game)))
            }
            Some(Err(err)) => {
                if matches!(err, ReadError::TooLarge { .. }) {
                    self.count += 1;
                }
                Err(read_error(err, &self.name, self.count, &self.raised))
            }
        }
    }
}

/// The Python exception for a game that cannot be read (`number`: the
/// game's number, when too large), or for the stream's read error (the
/// file object's own exception, when it raised one).
pub(crate) fn read_error(err: ReadError, name: &str, number: u64, raised: &Mutex<Option<PyErr>>) -> PyErr {
    let message = read_error_message(&err, name, number);
    match err {
        ReadError::TooLarge { .. } => PyValueError::new_err(message),
        ReadError::Io { kind, .. } => Source::raise(raised, io_error(kind, message, name)),
    }
}

/// What [`read_error`] says of `err`, met reading game `number` of `name`.
pub(crate) fn read_error_message(err: &ReadError, name: &str, number: u64) -> String {
    match err {
        ReadError::TooLarge { at, size } => {
            format!("{name}:{}:{}: game {number}: {}: not read", at.line, at.column, TooLargeGame(*size))
        }
        ReadError::Io { message, .. } => format!("{name}: {message}"),
    }
}

/// What `mutex` holds (a stream being read, `what`), unless another
/// thread is reading it: a thread that waited for it with the GIL held,
/// while the other reads a file object, which needs the GIL, would never
/// wake.
pub(crate) fn try_hold<'a, T>(mutex: &'a Mutex<T>, what: &str) -> PyResult<MutexGuard<'a, T>> {
    match mutex.try_lock() {
        Ok(guard) => Ok(guard),
        Err(TryLockError::Poisoned(poisoned)) => Ok(poisoned.into_inner()),
        Err(TryLockError::WouldBlock) => {
            Err(PyRuntimeError::new_err(format!("{what} are being read by another thread")))
        }
    }
}

/// An iterator of the games of a PGN input (see `read_games`).
#[pyclass(module = "sanfen._sanfen", name = "GameReader")]
pub struct GameReader {
    stream: Mutex<Option<GameStream>>,
}

#[pymethods]
impl GameReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Game>> {
        let mut guard = try_hold(&self.stream, "the games")?;
        let Some(stream) = guard.as_mut() else { return Ok(None) };
        match stream.next_game(py) {
            Ok(Some((number, game))) => Ok(Some(Game::new(game, number, &stream.name))),
            Ok(None) => {
                *guard = None;
                Ok(None)
            }
            // after an I/O error the stream gives no more games; after a
            // game too large, the next
            Err(err) => Err(err),
        }
    }
}

/// read_games(source, threads=None, letters="en")
/// --
///
/// The games of a PGN input, one at a time, in input order.
///
/// `source` is a path (`str` or `os.PathLike`; plain PGN, or gzip, zstd or
/// bzip2, told by the first bytes), a binary file object (`read` gives
/// `bytes`) or a text file object (`read` gives `str`, taken as UTF-8;
/// PGN text in a `str`: `io.StringIO(text)`, since a `str` is a path).
/// The input is read in blocks and a few chunks of games at a time, so
/// memory does not grow with its size. `threads` threads build and
/// validate the games (`None`: one per core); the games come out in input
/// order, the same whatever the number. The GIL is released while the
/// library works (a file object's `read` is called with it held).
/// `letters` names the language of the moves' piece letters, as for
/// `check_pgn` (`"pt"`: `Cf3` is the move Nf3, its `written` text `Cf3`).
///
/// Raises `FileNotFoundError`, `IsADirectoryError`, `PermissionError` or
/// another `OSError` when the input cannot be opened or read (at the game
/// where reading failed: the games before it are given first), the file
/// object's own exception when its `read` raises, `BlockingIOError` when
/// it gives `None` (a non-blocking stream), `ValueError` when the
/// input is not PGN text (binary data, UTF-16) or a compressed stream is
/// broken or cut short, and `ValueError` for a game larger than 8 MiB
/// (iteration may go on after it with `next()`). Everything wrong inside a
/// game is a finding (`Game.findings`), as `sanfen check` reports it.
#[pyfunction]
#[pyo3(signature = (source, threads=None, letters="en"))]
pub fn read_games(source: &Bound<'_, PyAny>, threads: Option<usize>, letters: &str) -> PyResult<GameReader> {
    Ok(GameReader { stream: Mutex::new(Some(GameStream::open(source, threads, letters)?)) })
}

/// A game read from PGN: its tags, its moves with their comments, clocks,
/// evaluations and variations, its result and what `sanfen check` finds in
/// it.
#[pyclass(module = "sanfen._sanfen", frozen)]
pub struct Game {
    /// Shared with the game's moves, which point into it.
    game: Arc<RustGame>,
    number: u64,
    file: Arc<str>,
}

impl Game {
    fn new(game: RustGame, number: u64, file: &Arc<str>) -> Game {
        Game { game: Arc::new(game), number, file: Arc::clone(file) }
    }
}

#[pymethods]
impl Game {
    /// Refused, with what to send instead: a game is read from its text,
    /// which it does not keep, and its findings come from that text.
    fn __reduce__(&self) -> PyResult<()> {
        Err(PyTypeError::new_err(
            "a sanfen Game does not pickle (its findings come from the text it was read from, which it does not \
             keep): send the path it was read from and its number, to read it again, or its to_pgn() text",
        ))
    }

    /// The game's number in its input, from 1 (as `sanfen check` numbers it).
    #[getter]
    fn number(&self) -> u64 {
        self.number
    }

    /// The tags, name to value, in input order (a later tag of the same name
    /// replaces an earlier one's value). Values are decoded: UTF-8, or
    /// Windows-1252 (Latin-1's letters, and “ ” – € where Latin-1 has
    /// control codes) when the bytes are not UTF-8.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for tag in &self.game.tags {
            dict.set_item(&tag.name, &tag.value)?;
        }
        Ok(dict)
    }

    /// The same as `tags` (python-chess's name).
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.tags(py)
    }

    /// The mainline's moves (a new list of `Move`s at each access), up to
    /// the first move that cannot be played (the findings say why).
    #[getter]
    fn mainline(&self) -> Vec<Move> {
        moves_of(&self.game, &[], &self.game.mainline)
    }

    /// The text of the comments before the first move, without their
    /// commands, joined by a space ("" when none).
    #[getter]
    fn comment(&self) -> String {
        prose(&self.game.mainline.comments)
    }

    /// The termination marker (`"1-0"`, `"0-1"`, `"1/2-1/2"`, `"*"`), or
    /// None when the movetext has none.
    #[getter]
    fn result(&self) -> Option<String> {
        self.game.result.map(result_text)
    }

    /// The FEN of the position the game starts from (its `FEN` tag, or the
    /// initial position), or None when its moves are not played (a variant
    /// sanfen does not play, a `FEN` tag that is no position).
    #[getter]
    fn start_fen(&self) -> Option<String> {
        self.game.start.as_ref().map(ToString::to_string)
    }

    /// The position after the mainline's moves (up to its first error, or
    /// the null move that ends its play), with those moves in its
    /// ``move_stack`` (``pop()`` walks back, ``outcome()`` counts their
    /// repetitions), or None when the moves are not played (as
    /// ``start_fen``).
    fn position(&self) -> Option<Position> {
        let start = self.game.start.clone()?;
        Some(Position::of_line(start, &self.game.mainline.moves))
    }

    /// How the position after the mainline ends the game by the rules of
    /// play (``Outcome``: checkmate, stalemate, insufficient material,
    /// fivefold repetition, the seventy-five-move rule), as the games
    /// table's ``termination``; None when it does not (a resignation, time
    /// or agreement is for the tags to say), when the moves are not played
    /// or the mainline holds a null move.
    fn outcome(&self) -> Option<Outcome> {
        self.game.end().map(Outcome::of)
    }

    /// The opening of the mainline, ``(eco, name)`` (``("C70", "Ruy Lopez:
    /// Morphy Defense")``): its deepest position that lichess's
    /// chess-openings names, as the games table's ``eco`` and ``opening``;
    /// None when none is named or the moves are not played.
    fn opening(&self) -> Option<(&'static str, &'static str)> {
        self.game.opening().map(|found| (found.opening.eco, found.opening.name))
    }

    /// What `sanfen check` finds in the game (and in the text before it),
    /// in input order: a list of `Finding`s.
    #[getter]
    fn findings(&self) -> Vec<Finding> {
        self.game.report.findings.iter().map(|f| Finding::new(&self.file, self.number, f)).collect()
    }

    /// The number of error findings (lint findings are not counted).
    #[getter]
    fn errors(&self) -> u32 {
        self.game.report.errors
    }

    /// The number of lint findings (input accepted but not canonical).
    #[getter]
    fn lints(&self) -> u32 {
        self.game.report.lints
    }

    /// The variant the game is of, when sanfen does not play it (its moves
    /// are then not read), else None.
    #[getter]
    fn skipped(&self) -> Option<String> {
        self.game.report.skipped.clone()
    }

    /// The game as PGN: canonical SAN, comments, NAGs and variations kept;
    /// with ``notation``, the moves in ``"lan"``, ``"uci"`` or
    /// ``"figurine"`` instead, as ``sanfen fmt --notation`` writes them.
    #[pyo3(signature = (notation = "san"))]
    fn to_pgn(&self, notation: &str) -> PyResult<String> {
        Ok(self.game.to_pgn_in(crate::position::movetext_notation(notation)?))
    }

    fn __repr__(&self) -> String {
        let tag = |name: &str| self.game.tag(name).unwrap_or("?").to_owned();
        format!(
            "<Game {} {} - {} ({} moves, {} errors)>",
            self.number,
            tag("White"),
            tag("Black"),
            self.game.mainline.moves.len(),
            self.game.report.errors
        )
    }
}

/// The moves of a line, as Python objects.
fn moves_of(game: &Arc<RustGame>, parent: &[u32], line: &Line) -> Vec<Move> {
    (0..line.moves.len())
        .map(|i| {
            let index = u32::try_from(i).unwrap_or(u32::MAX);
            let path = if parent.is_empty() {
                NodePath::Main(index)
            } else {
                NodePath::Deep(parent.iter().copied().chain([index]).collect())
            };
            Move { game: Arc::clone(game), path }
        })
        .collect()
}

/// Where a node is in its game: a mainline move's index, or the indices
/// that lead to it (move, variation, move, variation, ..., move).
enum NodePath {
    Main(u32),
    Deep(Box<[u32]>),
}

/// The text of comments without their commands, joined by a space.
pub(crate) fn prose(comments: &[sanfen::pgn::commands::Comment]) -> String {
    let parts: Vec<&str> = comments.iter().map(|c| c.prose()).filter(|p| !p.is_empty()).collect();
    parts.join(" ")
}

/// A termination marker as written: `1-0`, `0-1`, `1/2-1/2`, `*`.
pub(crate) fn result_text(result: ResultToken) -> String {
    match result {
        ResultToken::Outcome(outcome) => outcome.as_str().to_owned(),
        ResultToken::Unknown => "*".to_owned(),
    }
}

/// `"white"` or `"black"`.
pub(crate) fn side_name(side: Color) -> &'static str {
    if side == Color::White { "white" } else { "black" }
}

/// A move of a game, and what follows it (`sanfen.Node`: `sanfen.Move` is a
/// move played on a position).
#[pyclass(module = "sanfen._sanfen", name = "Node", frozen)]
pub struct Move {
    game: Arc<RustGame>,
    path: NodePath,
}

impl Move {
    /// The node, found in the game.
    fn node(&self) -> &Node {
        let mainline = &self.game.mainline.moves;
        match &self.path {
            NodePath::Main(i) => &mainline[*i as usize],
            NodePath::Deep(path) => {
                let mut node = &mainline[path[0] as usize];
                for step in path[1..].chunks_exact(2) {
                    node = &node.variations[step[0] as usize].moves[step[1] as usize];
                }
                node
            }
        }
    }

    /// The path of this node, to extend to the nodes of its variations.
    fn path(&self) -> Vec<u32> {
        match &self.path {
            NodePath::Main(i) => vec![*i],
            NodePath::Deep(path) => path.to_vec(),
        }
    }
}

#[pymethods]
impl Move {
    /// Refused, as a game is.
    fn __reduce__(&self) -> PyResult<()> {
        Err(PyTypeError::new_err(
            "a sanfen Node does not pickle (it is a move of its game, which does not pickle): send its game's path \
             and number and the node's ply, or its san and uci",
        ))
    }

    /// The move in canonical SAN with its check mark (`"Nf3"`, `"O-O"`,
    /// `"exd8=Q#"`; `"--"` for a null move).
    #[getter]
    fn san(&self) -> String {
        self.node().san.to_string()
    }

    /// The move in UCI (`"g1f3"`; castling king to rook in Chess960 games;
    /// `"0000"` for a null move).
    #[getter]
    fn uci(&self) -> String {
        self.node().uci_text()
    }

    /// The token as written in the PGN (`"Ng1f3!?"`).
    #[getter]
    fn written(&self) -> String {
        self.node().written.clone()
    }

    /// Half-moves from the game's start along the line, this one included
    /// (the first move of the game is ply 1).
    #[getter]
    fn ply(&self) -> u32 {
        self.node().ply
    }

    /// The move number (`12` for `12. Nf3` and `12... Nc6`).
    #[getter]
    fn number(&self) -> u32 {
        self.node().number
    }

    /// The side that moves: `"white"` or `"black"`.
    #[getter]
    fn side(&self) -> &'static str {
        side_name(self.node().side)
    }

    /// The clock after the move (`[%clk h:mm:ss]`), in seconds, or None.
    #[getter]
    fn clock(&self) -> Option<f64> {
        self.node().clock().map(|clock| clock.as_secs_f64())
    }

    /// The time the move took (`[%emt h:mm:ss]`), in seconds, or None.
    #[getter]
    fn elapsed(&self) -> Option<f64> {
        self.node().elapsed().map(|elapsed| elapsed.as_secs_f64())
    }

    /// The evaluation after the move (`[%eval ...]`), or None.
    #[getter]
    fn eval(&self) -> Option<Eval> {
        self.node().eval().map(|eval| {
            let (centipawns, mate) = match eval.score {
                Score::Centipawns(cp) => (Some(cp), None),
                Score::Mate(n) => (None, Some(n)),
            };
            Eval { centipawns, mate, depth: eval.depth }
        })
    }

    /// The text of the comments after the move, without their commands
    /// (`[%clk ...]`, `[%eval ...]`, ...), each trimmed, joined by a space
    /// ("" when none).
    #[getter]
    fn comment(&self) -> String {
        prose(&self.node().comments)
    }

    /// The comments after the move as written, commands included.
    #[getter]
    fn comments(&self) -> Vec<String> {
        self.node().comments.iter().map(|c| c.text().to_owned()).collect()
    }

    /// The NAGs after the move, in order (an annotation glued to the move,
    /// `Nf3!?`, first, as its NAG: 5).
    #[getter]
    fn nags(&self) -> Vec<u32> {
        self.node().nags.iter().map(|&nag| u32::from(nag)).collect()
    }

    /// The variations that replace this move: each a list of `Move`s, its
    /// first move an alternative to this one.
    #[getter]
    fn variations(&self) -> Vec<Vec<Move>> {
        let path = self.path();
        let node = self.node();
        (0..node.variations.len())
            .map(|v| {
                let mut parent = path.clone();
                parent.push(u32::try_from(v).unwrap_or(u32::MAX));
                moves_of(&self.game, &parent, &node.variations[v])
            })
            .collect()
    }

    fn __repr__(&self) -> String {
        format!("<Node {} {}>", self.node().ply, self.node().san)
    }
}

/// An engine's evaluation (`[%eval ...]`), from White's side: `centipawns`
/// (`[%eval -1.5]` is -150) or `mate` (mate in N moves: positive when White
/// mates, negative when Black does; `[%eval #-3]` is -3), the other None;
/// and the search `depth` when written (`[%eval 0.25,20]`).
#[pyclass(module = "sanfen._sanfen", frozen, eq)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Eval {
    /// The score in hundredths of a pawn, or None for a mate.
    #[pyo3(get)]
    centipawns: Option<i64>,
    /// Mate in this many moves (negative: Black mates), or None.
    #[pyo3(get)]
    mate: Option<i32>,
    /// The search depth, or None.
    #[pyo3(get)]
    depth: Option<u32>,
}

#[pymethods]
impl Eval {
    /// An evaluation of these values, as pickling rebuilds one: centipawns
    /// or mate, the other None (ValueError for both or neither).
    #[new]
    fn new(centipawns: Option<i64>, mate: Option<i32>, depth: Option<u32>) -> PyResult<Eval> {
        if centipawns.is_some() == mate.is_some() {
            let given = if centipawns.is_some() { "both" } else { "neither" };
            return Err(PyValueError::new_err(format!(
                "an evaluation is centipawns or mate, one of them: {given} given"
            )));
        }
        Ok(Eval { centipawns, mate, depth })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> ReduceTo<'py, (Option<i64>, Option<i32>, Option<u32>)> {
        let this = slf.get();
        (slf.get_type(), (this.centipawns, this.mate, this.depth))
    }

    fn __repr__(&self) -> String {
        match (self.centipawns, self.mate) {
            (Some(cp), _) => format!("Eval(centipawns={cp}, depth={:?})", self.depth),
            (_, mate) => format!("Eval(mate={}, depth={:?})", mate.unwrap_or(0), self.depth),
        }
    }
}

/// A finding of `sanfen check`: where (`file`, `line`, `column`, the
/// `game` number, the move's `ply`, `move_number`, `side` and `token`),
/// what (`kind`: the code, e.g. `"san:ambiguous"`; `message`; the
/// `suggestion`, the canonical form, when there is one), and how grave
/// (`severity`: `"error"` or `"warning"`, a lint finding). `repeats` > 1
/// when the finding stands for a run of the same finding, to `until`
/// (line, column). The fields are those of `sanfen check --json`.
#[pyclass(module = "sanfen._sanfen", name = "PgnFinding", frozen, eq, get_all, from_py_object)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The input's name.
    file: String,
    /// The game's number, from 1 (for text after the last game of an
    /// input: the number of that game).
    game: u64,
    /// The line, from 1.
    line: u32,
    /// The column, from 1, in characters.
    column: u32,
    /// The half-move along its line, or None.
    ply: Option<u32>,
    /// The move number, or None.
    move_number: Option<u32>,
    /// `"white"`, `"black"`, or None.
    side: Option<String>,
    /// The token as written ("" when none).
    token: String,
    /// The code (`"san:illegal"`, `"pgn:missing-move-number"`, ...).
    kind: String,
    /// What is wrong.
    message: String,
    /// The canonical form, when there is one.
    suggestion: Option<String>,
    /// `"error"` or `"warning"`.
    severity: String,
    /// How many findings in a row this one stands for.
    repeats: u32,
    /// Where the run ends, (line, column), when `repeats` > 1.
    until: Option<(u32, u32)>,
}

impl Finding {
    pub(crate) fn new(file: &str, game: u64, finding: &RustFinding) -> Finding {
        Finding {
            file: file.to_owned(),
            game,
            line: finding.at.line,
            column: finding.at.column,
            ply: finding.ply,
            move_number: finding.move_number,
            side: finding.side.map(|side| side_name(side).to_owned()),
            token: finding.token.clone(),
            kind: finding.kind.code().to_owned(),
            message: finding.kind.to_string(),
            suggestion: finding.kind.suggestion(),
            severity: if finding.severity() == Severity::Error { "error" } else { "warning" }.to_owned(),
            repeats: finding.repeats,
            until: (finding.repeats > 1).then_some((finding.until.line, finding.until.column)),
        }
    }
}

#[pymethods]
impl Finding {
    /// A finding of these values, as pickling rebuilds one.
    #[new]
    #[expect(clippy::too_many_arguments, reason = "one for each attribute, as pickling gives them")]
    fn new_from(
        file: String,
        game: u64,
        line: u32,
        column: u32,
        ply: Option<u32>,
        move_number: Option<u32>,
        side: Option<String>,
        token: String,
        kind: String,
        message: String,
        suggestion: Option<String>,
        severity: String,
        repeats: u32,
        until: Option<(u32, u32)>,
    ) -> Finding {
        Finding {
            file,
            game,
            line,
            column,
            ply,
            move_number,
            side,
            token,
            kind,
            message,
            suggestion,
            severity,
            repeats,
            until,
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<ReduceTo<'py, Bound<'py, PyTuple>>> {
        let (this, py) = (slf.get().clone(), slf.py());
        // more than the twelve values a Rust tuple converts
        let state = [
            this.file.into_bound_py_any(py)?,
            this.game.into_bound_py_any(py)?,
            this.line.into_bound_py_any(py)?,
            this.column.into_bound_py_any(py)?,
            this.ply.into_bound_py_any(py)?,
            this.move_number.into_bound_py_any(py)?,
            this.side.into_bound_py_any(py)?,
            this.token.into_bound_py_any(py)?,
            this.kind.into_bound_py_any(py)?,
            this.message.into_bound_py_any(py)?,
            this.suggestion.into_bound_py_any(py)?,
            this.severity.into_bound_py_any(py)?,
            this.repeats.into_bound_py_any(py)?,
            this.until.into_bound_py_any(py)?,
        ];
        Ok((slf.get_type(), PyTuple::new(py, state)?))
    }

    fn __repr__(&self) -> String {
        format!(
            "<PgnFinding {}:{}:{}: game {}: {}[{}]: {}>",
            self.file, self.line, self.column, self.game, self.severity, self.kind, self.message
        )
    }
}

type CheckResultState<'py> = (Vec<Finding>, Vec<(u64, String)>, Bound<'py, PyDict>);

/// What `check_pgn` gives: the findings and the counts.
#[pyclass(module = "sanfen._sanfen", frozen, get_all)]
pub struct CheckResult {
    /// Every finding, in input order (a list of `Finding`).
    findings: Vec<Finding>,
    /// The games sanfen does not play, not judged: (game number, variant).
    skipped: Vec<(u64, String)>,
    /// The counts, as `sanfen check --json`'s summary gives them (without
    /// the time): `games`, `moves`, `games_with_errors`, `errors`, `lint`,
    /// `skipped`, `bytes`.
    summary: Py<PyDict>,
}

#[pymethods]
impl CheckResult {
    /// A result of these values, as pickling rebuilds one.
    #[new]
    fn new(findings: Vec<Finding>, skipped: Vec<(u64, String)>, summary: Bound<'_, PyDict>) -> CheckResult {
        CheckResult { findings, skipped, summary: summary.unbind() }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> ReduceTo<'py, CheckResultState<'py>> {
        let this = slf.get();
        (slf.get_type(), (this.findings.clone(), this.skipped.clone(), this.summary.bind(slf.py()).clone()))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("<CheckResult {} findings, {}>", self.findings.len(), self.summary.bind(py))
    }
}

/// check_pgn(source, threads=None, strict=False, allow=(), deny=())
/// --
///
/// Checks every game of a PGN input as `sanfen check --json` does, without
/// building the games, and gives a `CheckResult`: the findings (each a
/// `Finding`, in input order), the games skipped (variants), and the
/// summary counts (`games`, `moves`, `games_with_errors`, `errors`, `lint`,
/// `skipped`, `bytes`).
///
/// `source` is as for `read_games`. `strict` turns lint findings into
/// errors (but those `allow` names); `allow` and `deny` name codes
/// (`"pgn:missing-move-number"`) or groups (`"pgn"`, `"san"`) of lint
/// findings not to report, or to report as errors (`sanfen check
/// --allow/--deny`). `letters` names the language of the moves' piece
/// letters (`"pt"`: `Cf3` is read as Nf3, with the lint finding
/// `san:local-letters`; `sanfen check --letters`). `threads` as for
/// `read_games`; the GIL is released while the library checks.
///
/// Raises `ValueError` for an unknown code in `allow`/`deny` or language, and as
/// `read_games` for inputs that cannot be opened, are not text or fail
/// part way. Ctrl-C stops the check (within a chunk of about a megabyte)
/// and raises `KeyboardInterrupt`.
///
/// The result holds every finding (a few hundred bytes each): for an
/// input with millions of them, iterate `read_games` instead, whose games
/// carry the same findings (`Game.findings`) and are read about as fast.
#[pyfunction]
#[pyo3(signature = (source, threads=None, strict=false, allow=Vec::new(), deny=Vec::new(), letters="en"))]
pub fn check_pgn(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    threads: Option<usize>,
    strict: bool,
    allow: Vec<String>,
    deny: Vec<String>,
    letters: &str,
) -> PyResult<CheckResult> {
    let threads = threads_arg(threads)?;
    let policy = LintPolicy::from_lists(&allow, &deny, strict).map_err(|err| PyValueError::new_err(err.to_string()))?;
    let letters = crate::position::letters(letters)?;
    let Source { input, name, raised } = open_source(source)?;
    let options = CheckOptions { validate: Options { policy, letters, ..Options::default() }, threads };
    let mut findings = Vec::new();
    let mut skipped = Vec::new();
    let outcome = py.detach(|| {
        check_input(input, &options, |part| {
            for report in &part.reports {
                match report {
                    Report::Game { number, report } => add_report(&mut findings, &mut skipped, &name, *number, report),
                    Report::TooLarge { number, at, size } => findings.push(Finding {
                        file: name.clone(),
                        game: *number,
                        line: at.line,
                        column: at.column,
                        ply: None,
                        move_number: None,
                        side: None,
                        token: String::new(),
                        kind: TOO_LARGE.to_owned(),
                        message: too_large_message(*size),
                        suggestion: None,
                        severity: "error".to_owned(),
                        repeats: 1,
                        until: None,
                    }),
                }
            }
            findings.extend(part.outside.iter().map(|f| Finding::new(&name, part.games_so_far, f)));
            // a signal's exception (Ctrl-C's KeyboardInterrupt) stops the check
            Python::attach(|py| py.check_signals())
        })
    });
    let summary = match outcome {
        Ok(summary) => summary,
        Err(CheckError::Read { error, .. }) => {
            let fallback = io_error(error.kind, format!("{name}: {error}"), &name);
            return Err(Source::raise(&raised, fallback));
        }
        Err(CheckError::NotText(reason)) => {
            return Err(PyValueError::new_err(format!("{name}: not PGN text: {reason}")));
        }
        Err(CheckError::Open(err)) => return Err(input_error(&err, &name)),
        Err(CheckError::Threads(message)) => return Err(PyRuntimeError::new_err(message)),
        Err(CheckError::Stopped(err)) => return Err(err),
    };
    let dict = PyDict::new(py);
    dict.set_item("games", summary.games)?;
    dict.set_item("moves", summary.moves)?;
    dict.set_item("games_with_errors", summary.games_with_errors)?;
    dict.set_item("errors", summary.errors)?;
    dict.set_item("lint", summary.lint)?;
    dict.set_item("skipped", summary.skipped)?;
    dict.set_item("bytes", summary.bytes)?;
    Ok(CheckResult { findings, skipped, summary: dict.unbind() })
}

/// The findings of a game's report, errors and lint in input order.
fn add_report(
    findings: &mut Vec<Finding>,
    skipped: &mut Vec<(u64, String)>,
    name: &str,
    number: u64,
    report: &GameReport,
) {
    if let Some(variant) = &report.skipped {
        skipped.push((number, variant.clone()));
    }
    findings.extend(report.findings.iter().map(|f| Finding::new(name, number, f)));
}
