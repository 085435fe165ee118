//! Checking a whole PGN input: a file or any reader, decompressed
//! ([`crate::pgn::input`]), cut into chunks of whole games and validated on
//! N threads ([`crate::pgn::parallel`]), the reports handed to the caller in
//! input order (to a callback: [`check_path`], [`check_reader`],
//! [`check_input`]; or as an iterator: [`Checks`]), and the counts added
//! up. What `sanfen check` prints is this, rendered.
//!
//! ```
//! use sanfen::pgn::check::{CheckOptions, Report, check_reader};
//!
//! let pgn = "[White \"Ana\"]\n\n1. e4 e5 2. Ke3 *\n\n1. d4 d5 *\n";
//! let options = CheckOptions { threads: 2, ..CheckOptions::default() };
//! let mut errors = Vec::new();
//! let summary = check_reader(pgn.as_bytes(), &options, |part| {
//!     for report in &part.reports {
//!         if let Report::Game { number, report } = report {
//!             for finding in &report.findings {
//!                 errors.push((*number, finding.at.line, finding.kind.code()));
//!             }
//!         }
//!     }
//!     Ok::<(), ()>(())
//! })
//! .unwrap();
//! assert!(errors.contains(&(1, 3, "san:illegal")));
//! assert_eq!((summary.games, summary.moves, summary.games_with_errors), (2, 4, 1));
//! assert_eq!(summary.bytes, pgn.len() as u64);
//! ```
//!
//! Memory is bounded whatever the input: at most a few chunks per thread
//! are in flight; a game larger than [`Chunker::MAX_GAME`] is not held but
//! reported as [`Report::TooLarge`]; the findings kept per game are capped
//! ([`crate::pgn::validate::MAX_FINDINGS`]); and a chunk of many small
//! broken games is handed out in parts, each holding at most a few thousand
//! findings.

use std::convert::Infallible;
use std::io::Read;
use std::path::Path;

use crate::Severity;
use crate::pgn::chunk::{Chunk, Chunker, TooLargeGame};
use crate::pgn::input::{Compression, Input, InputError, NotText, ReadError};
use crate::pgn::parallel::{ChunkWork, Ordered, Parts};
use crate::pgn::reader::{Location, Reader};
use crate::pgn::validate::{Finding, GameReport, Options, Validator};

/// How to check.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// What the validator keeps and which lint findings count how.
    pub validate: Options,
    /// Threads that validate: 0 for one per core, 1 for the calling thread
    /// alone. With more than one, the calling thread reads and cuts the
    /// input. The reports are the same whatever the number.
    pub threads: usize,
}

/// What the games of an input (or of a part of it) add up to.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Summary {
    /// Games read (a game too large to read counts as one).
    pub games: u64,
    /// Moves played, mainlines and variations.
    pub moves: u64,
    /// Games with at least one error.
    pub games_with_errors: u64,
    /// Error findings, those about text between games included.
    pub errors: u64,
    /// Lint findings, those about text between games included.
    pub lint: u64,
    /// Games of a variant sanfen does not play, not judged.
    pub skipped: u64,
    /// Bytes of the input's text read (decompressed; a byte order mark at
    /// its start is not counted).
    pub bytes: u64,
}

impl Summary {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &Summary) {
        self.games += other.games;
        self.moves += other.moves;
        self.games_with_errors += other.games_with_errors;
        self.errors += other.errors;
        self.lint += other.lint;
        self.skipped += other.skipped;
        self.bytes += other.bytes;
    }
}

/// What is reported of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// A game read and validated, with findings (or skipped).
    Game {
        /// The game's number in the input, from 1.
        number: u64,
        /// What the validator said.
        report: GameReport,
    },
    /// A game larger than [`Chunker::MAX_GAME`], not read: one error
    /// ([`TOO_LARGE`], [`too_large_message`]).
    TooLarge {
        /// The game's number in the input, from 1.
        number: u64,
        /// Where it starts.
        at: Location,
        /// Its size in bytes.
        size: u64,
    },
}

/// The code of the error of a game too large to read ([`Report::TooLarge`]).
pub const TOO_LARGE: &str = "pgn:too-large";

/// What checking says of a game of `size` bytes, too large to read
/// ([`Report::TooLarge`]).
pub fn too_large_message(size: u64) -> String {
    format!("{}: not checked (the next game starts at the next tag pair at the start of a line)", TooLargeGame(size))
}

/// A part of the input checked: its counts and the reports of its games,
/// in input order. Parts come in input order too.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Part {
    /// The counts of the part's games (and of the text after its last game).
    pub summary: Summary,
    /// The games worth reporting: those with findings, skipped or too
    /// large (none when [`Options::count_only`]). Games with nothing to say
    /// are only counted.
    pub reports: Vec<Report>,
    /// Findings about text after the part's last game that no game of the
    /// part takes (comments, escape lines or invisible characters before the
    /// next part's first game, or at the end of the input); counted in
    /// `summary`, and kept unless [`Options::count_only`].
    pub outside: Vec<Finding>,
    /// The games of the input up to the end of this part: the game
    /// `outside` comes after.
    pub games_so_far: u64,
}

/// Why a check stopped before the end of its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError<E> {
    /// The input could not be opened ([`Input::open`], [`Input::from_reader`]).
    Open(InputError),
    /// The input is not PGN text: nothing was checked.
    NotText(NotText),
    /// The worker threads could not be started: what the system said.
    Threads(String),
    /// The input failed part way: every game read before was checked and
    /// handed out, and `summary` counts them.
    Read {
        /// Where and why.
        error: ReadError,
        /// The counts of what was read.
        summary: Summary,
    },
    /// The caller's callback returned this error.
    Stopped(E),
}

impl<E: core::fmt::Display> core::fmt::Display for CheckError<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CheckError::Open(err) => err.fmt(f),
            CheckError::NotText(reason) => write!(f, "not PGN text: {reason}"),
            CheckError::Threads(message) => write!(f, "cannot start the checking threads: {message}"),
            CheckError::Read { error, .. } => error.fmt(f),
            CheckError::Stopped(err) => err.fmt(f),
        }
    }
}

impl<E: core::fmt::Debug + core::fmt::Display> std::error::Error for CheckError<E> {}

/// Checks the PGN file at `path` (compressed or not), as [`check_input`].
///
/// # Errors
///
/// As [`check_input`], and [`CheckError::Open`] when the file cannot be
/// opened.
pub fn check_path<E>(
    path: impl AsRef<Path>,
    options: &CheckOptions,
    each: impl FnMut(&Part) -> Result<(), E>,
) -> Result<Summary, CheckError<E>> {
    check_input(Input::open(path).map_err(CheckError::Open)?, options, each)
}

/// Checks the PGN `reader` gives (compressed or not), as [`check_input`].
///
/// # Errors
///
/// As [`check_input`], and [`CheckError::Open`] when a decompressor cannot
/// start.
pub fn check_reader<E>(
    reader: impl Read + Send + 'static,
    options: &CheckOptions,
    each: impl FnMut(&Part) -> Result<(), E>,
) -> Result<Summary, CheckError<E>> {
    check_input(Input::from_reader(reader, None).map_err(CheckError::Open)?, options, each)
}

/// Checks every game of `input` on [`CheckOptions::threads`] threads,
/// calling `each` on the calling thread with each part of the input in
/// turn (a chunk of about 1 MiB of whole games, or a piece of one), in
/// input order, and gives the counts of the whole input. [`Checks`] gives
/// the same parts as an iterator.
///
/// # Errors
///
/// [`CheckError::NotText`] (nothing checked), [`CheckError::Threads`],
/// [`CheckError::Read`] (after every part read before it), or the first
/// error `each` returns, as [`CheckError::Stopped`] (the check stops
/// there).
pub fn check_input<E>(
    input: Input,
    options: &CheckOptions,
    mut each: impl FnMut(&Part) -> Result<(), E>,
) -> Result<Summary, CheckError<E>> {
    let mut checks = Checks::new(input, options).map_err(CheckError::widen)?;
    for part in &mut checks {
        match part {
            Ok(part) => each(&part).map_err(CheckError::Stopped)?,
            Err(error) => return Err(CheckError::Read { error, summary: checks.summary() }),
        }
    }
    Ok(checks.summary())
}

impl CheckError<Infallible> {
    /// The same error, as one of a check whose callback fails with `E`.
    fn widen<E>(self) -> CheckError<E> {
        match self {
            CheckError::Open(err) => CheckError::Open(err),
            CheckError::NotText(reason) => CheckError::NotText(reason),
            CheckError::Threads(message) => CheckError::Threads(message),
            CheckError::Read { error, summary } => CheckError::Read { error, summary },
            CheckError::Stopped(never) => match never {},
        }
    }
}

/// The parts of an input checked ([`Part`]), in input order, as an
/// iterator: what [`check_input`] hands its callback. A read failure is the
/// last item, after the parts of everything read before it;
/// [`Checks::summary`] adds up the parts handed out.
///
/// ```
/// use sanfen::pgn::check::{CheckOptions, Checks};
/// use sanfen::pgn::input::Input;
///
/// let input = Input::from_reader(&b"1. e4 e5 2. Ke3 *\n"[..], None)?;
/// let mut checks = Checks::new(input, &CheckOptions::default()).unwrap();
/// let parts: Vec<_> = checks.by_ref().collect::<Result<_, _>>().unwrap();
/// assert_eq!(parts.len(), 1);
/// assert_eq!(checks.summary().games_with_errors, 1);
/// # Ok::<(), sanfen::pgn::input::InputError>(())
/// ```
pub struct Checks {
    ordered: Ordered<Box<dyn Read + Send>, CheckWork>,
    compression: Option<Compression>,
    options: Options,
    /// A chunk checked in part: its buffer, and where its games not yet
    /// checked start (index and location).
    rest: Option<(Vec<u8>, usize, Location)>,
    summary: Summary,
}

impl Checks {
    /// Starts checking `input` as `options` say (the worker threads start
    /// here; the input is read as the parts are asked for).
    ///
    /// # Errors
    ///
    /// [`CheckError::NotText`] or [`CheckError::Threads`].
    pub fn new(input: Input, options: &CheckOptions) -> Result<Checks, CheckError<Infallible>> {
        if let Some(reason) = input.not_text {
            return Err(CheckError::NotText(reason));
        }
        let work = CheckWork(options.validate);
        let ordered = Ordered::new(Chunker::new(input.reader), work, options.threads)
            .map_err(|err| CheckError::Threads(err.to_string()))?;
        Ok(Checks {
            ordered,
            compression: input.compression,
            options: options.validate,
            rest: None,
            summary: Summary::default(),
        })
    }

    /// The counts of the parts handed out so far: of the whole input once
    /// the iterator ended.
    pub fn summary(&self) -> Summary {
        self.summary
    }
}

impl core::fmt::Debug for Checks {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Checks").field("summary", &self.summary).finish_non_exhaustive()
    }
}

impl Iterator for Checks {
    type Item = Result<Part, ReadError>;

    fn next(&mut self) -> Option<Result<Part, ReadError>> {
        // the rest of a chunk checked in part, or the next chunk
        let checked = match self.rest.take() {
            Some((data, from, start)) => check_part(data, from, start, self.options),
            None => match self.ordered.next()? {
                Ok(checked) => checked,
                Err(err) => return Some(Err(ReadError::new(self.ordered.bytes_read(), self.compression, &err))),
            },
        };
        let Checked { mut part, data, resume } = checked;
        match resume {
            Some((from, start)) => self.rest = Some((data, from, start)),
            None => self.ordered.recycle(data),
        }
        let games_before = self.summary.games;
        for report in &mut part.reports {
            match report {
                Report::Game { number, .. } | Report::TooLarge { number, .. } => *number += games_before + 1,
            }
        }
        self.summary.add(&part.summary);
        part.games_so_far = self.summary.games;
        Some(Ok(part))
    }
}

/// Validation of a chunk, on any thread.
struct CheckWork(Options);

impl ChunkWork for CheckWork {
    type Part = Infallible;
    type Output = Checked;

    fn work(&self, chunk: Chunk, _parts: &mut Parts<'_, Infallible>) -> Checked {
        check_chunk(chunk, self.0)
    }
}

/// One chunk validated: a part whose game numbers count from 0 within the
/// chunk, and what is left of the chunk.
struct Checked {
    part: Part,
    /// The chunk's buffer, to be reused for a later chunk.
    data: Vec<u8>,
    /// Where the games not yet checked start, when the reports reached
    /// [`REPORT_BUDGET`] findings before the chunk's end: the index in
    /// `data`, and the location.
    resume: Option<(usize, Location)>,
}

/// The findings a part of a chunk keeps at most (and the game that reaches
/// the number): a chunk of many small broken games is checked in parts, so
/// that the reports held stay bounded.
const REPORT_BUDGET: usize = 8192;

fn check_chunk(chunk: Chunk, options: Options) -> Checked {
    let Some(oversized) = chunk.oversized else {
        return check_part(chunk.data, 0, chunk.start, options);
    };
    let mut part =
        Part { summary: Summary { bytes: chunk.data.len() as u64, ..Summary::default() }, ..Part::default() };
    // a piece of a game too large to read: the game is one error, at its last piece
    if oversized.last {
        let size = chunk.start.offset + chunk.data.len() as u64 - oversized.game.offset;
        let summary = &mut part.summary;
        summary.errors += 1;
        summary.games_with_errors += 1;
        if !options.count_only {
            part.reports.push(Report::TooLarge { number: 0, at: oversized.game, size });
        }
        summary.games += 1;
    }
    Checked { part, data: chunk.data, resume: None }
}

/// Checks the games of `data[from..]` (whole games, `data[from]` at
/// `start`), up to the end or until the reports hold [`REPORT_BUDGET`]
/// findings.
fn check_part(data: Vec<u8>, from: usize, start: Location, options: Options) -> Checked {
    let mut part = Part::default();
    let mut resume = None;
    let slice = &data[from..];
    let mut end = slice.len();
    {
        let mut validator = Validator::with_base(slice, start.offset, options);
        let mut reader = Reader::with_start(slice, start);
        let mut kept = 0;
        while let Some(report) = reader.read_game(&mut validator) {
            kept += report.findings.len();
            count_game(&mut part, report, options);
            if kept >= REPORT_BUDGET {
                let at = reader.location();
                let used = usize::try_from(at.offset - start.offset).unwrap_or(slice.len()).min(slice.len());
                if used < slice.len() {
                    end = used;
                    resume = Some((from + used, at));
                }
                break;
            }
        }
        if resume.is_none() {
            // the text after the last game: read whole, the reader gives it
            // to the next game, which is in the next chunk
            let outside = validator.take_outside();
            for finding in &outside {
                match finding.severity() {
                    Severity::Error => part.summary.errors += 1,
                    Severity::Warning => part.summary.lint += 1,
                }
            }
            if !options.count_only {
                part.outside = outside;
            }
        }
    }
    part.summary.bytes = end as u64;
    Checked { part, data, resume }
}

/// Adds one game to the counts, and keeps its report when there is
/// something to say (numbered from 0 in the chunk).
fn count_game(part: &mut Part, report: GameReport, options: Options) {
    let summary = &mut part.summary;
    summary.moves += report.moves;
    summary.skipped += u64::from(report.skipped.is_some());
    let (errors, lints) = (report.errors, report.lints);
    summary.errors += u64::from(errors);
    summary.lint += u64::from(lints);
    summary.games_with_errors += u64::from(errors > 0);
    if !options.count_only && (!report.findings.is_empty() || report.skipped.is_some()) {
        part.reports.push(Report::Game { number: summary.games, report });
    }
    summary.games += 1;
}
