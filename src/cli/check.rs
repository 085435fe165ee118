//! `sanfen check`: validate PGN games, in parallel when asked, reporting in
//! input order.
//!
//! Each file is cut into chunks of whole games ([`Chunker`]); each chunk is
//! read and validated on its own ([`Validator`]), on the calling thread with
//! `-j 1`, else on a pool of worker threads while this thread reads the next
//! chunks. Reports are written in input order whatever order the workers
//! finish in, so the output is the same whatever `-j`. At most a few chunks
//! per worker are in flight, so memory does not grow with the input: a game
//! larger than [`Chunker::MAX_GAME`] is not held but reported as an error
//! (`pgn:too-large`), and the findings kept per game are capped.
//!
//! Text from the input (tags, tokens, source lines) is written with its
//! control characters escaped (`\x1b`), so a file cannot send escape
//! sequences to a terminal; a long source line is shown as a window around
//! the finding.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{self, IsTerminal, Read, Write};
use std::sync::mpsc;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sanfen::Color;
use sanfen::Severity;
use sanfen::pgn::chunk::{Chunk, Chunker};
use sanfen::pgn::reader::{Location, Reader};
use sanfen::pgn::validate::{Finding, GameReport, MAX_FINDINGS, Options, Validator};
use serde_json::{Value, json};

use super::report::Style;
use super::{Error, ExitCode, LintArgs, pgn_input};

/// `sanfen check`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// One JSON object per game with findings on stdout (JSON Lines), then one
    /// `{"summary": ...}` object, and nothing else.
    #[arg(long)]
    json: bool,
    /// Threads that check games [default: one per core]. With more than one,
    /// this thread reads and cuts the input.
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    jobs: Option<u32>,
    /// Only the summary (and, with `--json`, the summary object).
    #[arg(short, long)]
    quiet: bool,
    /// Lint findings (non-canonical SAN, move numbers, check marks, results,
    /// missing tags) count as errors, but those `--allow` names.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    lints: LintArgs,
    /// No progress bar, even on a terminal.
    #[arg(long)]
    no_progress: bool,
    /// PGN files (gzip, zstd and bzip2 recognised by their first bytes and
    /// decompressed); none, or `-`, reads standard input.
    #[arg(value_name = "FILE")]
    files: Vec<OsString>,
}

/// What the chunks of a run add up to.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Totals {
    games: u64,
    moves: u64,
    games_with_errors: u64,
    errors: u64,
    lint: u64,
    skipped: u64,
    bytes: u64,
}

impl Totals {
    fn add(&mut self, other: &Totals) {
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
enum Report {
    /// A game read and validated.
    Game(GameReport),
    /// A game larger than [`Chunker::MAX_GAME`], not read.
    TooLarge {
        /// Where it starts.
        at: Location,
        /// Its size in bytes.
        size: u64,
    },
}

/// One chunk validated: its counts, and the games worth reporting.
struct Checked {
    totals: Totals,
    /// (game number within the chunk, from 0; the report)
    reports: Vec<(u64, Report)>,
    /// The chunk's buffer, to be reused for a later chunk.
    data: Vec<u8>,
    /// Where the games not yet checked start, when the reports reached
    /// [`REPORT_BUDGET`] findings before the chunk's end: the index in
    /// `data`, and the location.
    resume: Option<(usize, Location)>,
    /// Findings about the text after the chunk's last game (comments,
    /// escape lines, invisible characters before the next chunk's first
    /// game, or at the end of the input), counted in `totals`; kept unless
    /// counting only.
    outside: Vec<Finding>,
}

/// The findings a part of a chunk keeps at most (and the game that reaches
/// the number): a chunk of many small broken games is checked in parts, so
/// that the reports held stay bounded.
const REPORT_BUDGET: usize = 8192;

/// Settings every chunk needs.
#[derive(Copy, Clone, Debug)]
struct Settings {
    options: Options,
}

fn check_chunk(chunk: Chunk, settings: Settings) -> Checked {
    if chunk.oversized.is_none() {
        return check_part(chunk.data, 0, chunk.start, settings);
    }
    let mut checked = Checked {
        totals: Totals { bytes: chunk.data.len() as u64, ..Totals::default() },
        reports: Vec::new(),
        data: Vec::new(),
        resume: None,
        outside: Vec::new(),
    };
    if let Some(oversized) = chunk.oversized {
        // a piece of a game too large to read: the game is one error, at its last piece
        if oversized.last {
            let size = chunk.start.offset + chunk.data.len() as u64 - oversized.game.offset;
            let totals = &mut checked.totals;
            totals.errors += 1;
            totals.games_with_errors += 1;
            if !settings.options.count_only {
                checked.reports.push((0, Report::TooLarge { at: oversized.game, size }));
            }
            totals.games += 1;
        }
    }
    checked.data = chunk.data;
    checked
}

/// Checks the games of `data[from..]` (whole games, `data[from]` at
/// `start`), up to the end or until the reports hold [`REPORT_BUDGET`]
/// findings.
fn check_part(data: Vec<u8>, from: usize, start: Location, settings: Settings) -> Checked {
    let mut checked =
        Checked { totals: Totals::default(), reports: Vec::new(), data: Vec::new(), resume: None, outside: Vec::new() };
    let part = &data[from..];
    let mut end = part.len();
    {
        let mut validator = Validator::with_base(part, start.offset, settings.options);
        let mut reader = Reader::with_start(part, start);
        let mut kept = 0;
        while let Some(report) = reader.read_game(&mut validator) {
            kept += report.findings.len();
            count_game(&mut checked, report, settings);
            if kept >= REPORT_BUDGET {
                let at = reader.location();
                let used = usize::try_from(at.offset - start.offset).unwrap_or(part.len()).min(part.len());
                if used < part.len() {
                    end = used;
                    checked.resume = Some((from + used, at));
                }
                break;
            }
        }
        if checked.resume.is_none() {
            // the text after the last game: read whole, the library gives it
            // to the next game, which is in the next chunk
            let outside = validator.take_outside();
            for finding in &outside {
                match finding.severity() {
                    Severity::Error => checked.totals.errors += 1,
                    Severity::Warning => checked.totals.lint += 1,
                }
            }
            if !settings.options.count_only {
                checked.outside = outside;
            }
        }
    }
    checked.totals.bytes = end as u64;
    checked.data = data;
    checked
}

/// Prints a checked chunk and checks and prints the rest of it, if it was
/// checked in part; adds up the counts. The chunk's buffer, to reuse.
fn print_chunk(
    mut checked: Checked,
    settings: Settings,
    printer: &mut Printer<'_>,
    totals: &mut Totals,
) -> Result<Vec<u8>, Error> {
    loop {
        printer.chunk(&checked)?;
        totals.add(&checked.totals);
        match checked.resume {
            Some((from, start)) => checked = check_part(checked.data, from, start, settings),
            None => return Ok(checked.data),
        }
    }
}

/// Adds one game to the counts, and keeps its report when there is something to say.
fn count_game(checked: &mut Checked, report: GameReport, settings: Settings) {
    let totals = &mut checked.totals;
    totals.moves += report.moves;
    totals.skipped += u64::from(report.skipped.is_some());
    let (errors, lints) = (report.errors, report.lints);
    totals.errors += u64::from(errors);
    totals.lint += u64::from(lints);
    totals.games_with_errors += u64::from(errors > 0);
    if !settings.options.count_only && (!report.findings.is_empty() || report.skipped.is_some()) {
        checked.reports.push((totals.games, Report::Game(report)));
    }
    totals.games += 1;
}

/// A read that failed part way: where, and why.
struct ReadFailure {
    /// The bytes read (decompressed) before the failure.
    offset: u64,
    error: io::Error,
}

/// `sanfen check`.
///
/// A source that cannot be opened or read to its end is reported on
/// standard error (a read that fails part way with its offset in the
/// decompressed stream, after the findings and counts of what was read);
/// the exit code is then 2. Input that is clearly not text is reported the
/// same way, once, and makes the exit code 1.
///
/// Standard output closed by its reader ends the run quietly, with exit
/// code 1 when an error was found before, and 2 when the run stopped before
/// every game was checked with none found (0 only when every game was
/// checked: the code never claims more than was checked).
///
/// # Errors
///
/// Writing the output failed.
pub fn run(args: &Args) -> Result<ExitCode, Error> {
    // a game with an error was counted before the output closed
    let mut seen_errors = false;
    match run_sources(args, &mut seen_errors) {
        Err(err) if err.is_broken_pipe() => Ok(if seen_errors { ExitCode::Invalid } else { ExitCode::Failure }),
        outcome => outcome,
    }
}

/// [`run`], telling through `seen_errors` whether a game with an error was
/// counted.
fn run_sources(args: &Args, seen_errors: &mut bool) -> Result<ExitCode, Error> {
    let started = Instant::now();
    let stdout = io::stdout();
    let style = Style::for_stdout(stdout.is_terminal());
    let policy = args.lints.policy(args.strict)?;
    let options = Options { source_lines: style.terminal && !args.json, count_only: args.quiet, policy };
    let settings = Settings { options };
    let jobs = args.jobs.map_or_else(default_jobs, |n| n as usize);
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut totals = Totals::default();
    let mut failed = false;
    let mut invalid = false;
    for name in pgn_input::names(&args.files) {
        let source = match pgn_input::open(&name) {
            Ok(source) => source,
            Err(err) => {
                out.flush().map_err(Error::Output)?;
                eprintln!("sanfen: {}", escape(&err.to_string()));
                failed = true;
                continue;
            }
        };
        if let Some(reason) = &source.not_text {
            out.flush().map_err(Error::Output)?;
            eprintln!("sanfen: {}: not PGN text: {reason}", escape(&source.name));
            invalid = true;
            continue;
        }
        let progress = progress_bar(args, source.size);
        let mut printer = Printer {
            out: &mut out,
            file: &source.name,
            args,
            style,
            progress: &progress,
            games: 0,
            seen_errors: &mut *seen_errors,
        };
        let result = if jobs <= 1 {
            check_sequential(source.reader, settings, &mut printer)
        } else {
            check_parallel(source.reader, settings, jobs, &mut printer)
        };
        progress.finish_and_clear();
        let (file_totals, failure) = result?;
        totals.add(&file_totals);
        if let Some(ReadFailure { offset, error }) = failure {
            out.flush().map_err(Error::Output)?;
            let stream = match source.compression {
                Some(compression) => format!(" of the {} stream, decompressed", compression.name()),
                None => String::new(),
            };
            eprintln!("sanfen: {}: read failed at byte {offset}{stream}: {error}", escape(&source.name));
            failed = true;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let verdict = if failed {
        ExitCode::Failure
    } else if invalid || totals.games_with_errors > 0 {
        ExitCode::Invalid
    } else {
        ExitCode::Valid
    };
    // every game was checked: a closed output leaves the verdict as it is
    match write_summary(&mut out, &totals, seconds, args.json).and_then(|()| out.flush()) {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => Ok(verdict),
        Err(err) => Err(Error::Output(err)),
        Ok(()) => Ok(verdict),
    }
}

/// Checking threads when `-j` is not given: one per core. This thread, which
/// reads the input and cuts it with the chunker's quick search, needs little
/// time (one more thread made no difference with 2 cores).
fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn progress_bar(args: &Args, size: Option<u64>) -> ProgressBar {
    const LARGE: u64 = 32 << 20;
    let show = !args.no_progress && io::stderr().is_terminal() && size.is_none_or(|size| size >= LARGE);
    if !show {
        return ProgressBar::hidden();
    }
    match size {
        Some(size) => ProgressBar::with_draw_target(Some(size), ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        ),
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("{spinner} {bytes} {bytes_per_sec}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        ),
    }
}

/// One thread: chunks cut and checked in turn (the same chunks as with
/// more threads, so the same output).
fn check_sequential(
    input: Box<dyn Read + Send>,
    settings: Settings,
    printer: &mut Printer<'_>,
) -> Result<(Totals, Option<ReadFailure>), Error> {
    let mut chunker = Chunker::new(input);
    let mut totals = Totals::default();
    let mut buffer = Vec::new();
    loop {
        match chunker.next_chunk(buffer) {
            Ok(Some(chunk)) => buffer = print_chunk(check_chunk(chunk, settings), settings, printer, &mut totals)?,
            Ok(None) => return Ok((totals, None)),
            Err(error) => return Ok((totals, Some(ReadFailure { offset: chunker.bytes_read(), error }))),
        }
    }
}

fn check_parallel(
    input: Box<dyn Read + Send>,
    settings: Settings,
    jobs: usize,
    printer: &mut Printer<'_>,
) -> Result<(Totals, Option<ReadFailure>), Error> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|err| Error::Usage(format!("cannot start {jobs} threads: {err}")))?;
    let (sender, receiver) = mpsc::channel::<(u64, Checked)>();
    let mut chunker = Chunker::new(input);
    let mut totals = Totals::default();
    let mut spare: Vec<Vec<u8>> = Vec::new();
    let mut done: BTreeMap<u64, Checked> = BTreeMap::new();
    let (mut sent, mut next) = (0u64, 0u64);
    let max_in_flight = 2 * jobs as u64 + 1;
    let mut finished = false;
    let mut failure = None;
    loop {
        // keep the workers fed
        while !finished && sent - next < max_in_flight {
            match chunker.next_chunk(spare.pop().unwrap_or_default()) {
                Ok(Some(chunk)) => {
                    let sender = sender.clone();
                    let index = sent;
                    pool.spawn(move || {
                        // the receiver is gone only when the run is over
                        let _ = sender.send((index, check_chunk(chunk, settings)));
                    });
                    sent += 1;
                }
                Ok(None) => finished = true,
                Err(error) => {
                    // what was read before is checked and reported first
                    failure = Some(ReadFailure { offset: chunker.bytes_read(), error });
                    finished = true;
                }
            }
        }
        if next == sent {
            break;
        }
        if !done.contains_key(&next) {
            let (index, checked) = receiver.recv().map_err(|_| Error::Usage("a worker thread stopped".to_owned()))?;
            done.insert(index, checked);
        }
        // write what is ready, in order
        while let Some(checked) = done.remove(&next) {
            spare.push(print_chunk(checked, settings, printer, &mut totals)?);
            next += 1;
        }
    }
    Ok((totals, failure))
}

/// Writes reports as chunks come in, numbering games across the file.
struct Printer<'a> {
    out: &'a mut dyn Write,
    file: &'a str,
    args: &'a Args,
    style: Style,
    progress: &'a ProgressBar,
    /// Games of the file before the current chunk.
    games: u64,
    /// Set once a game with an error is counted.
    seen_errors: &'a mut bool,
}

impl Printer<'_> {
    fn chunk(&mut self, checked: &Checked) -> Result<(), Error> {
        self.progress.inc(checked.totals.bytes);
        *self.seen_errors |= checked.totals.games_with_errors > 0;
        if !self.args.quiet && !checked.reports.is_empty() {
            let mut text = Vec::new();
            for (index, report) in &checked.reports {
                let number = self.games + index + 1;
                match report {
                    Report::Game(report) if self.args.json => {
                        if !report.findings.is_empty() {
                            let value = game_json(self.file, number, report);
                            serde_json::to_writer(&mut text, &value).map_err(io::Error::from).map_err(Error::Output)?;
                            text.push(b'\n');
                        }
                    }
                    Report::Game(report) => {
                        write_game(&mut text, self.file, number, report, self.style).map_err(Error::Output)?;
                    }
                    &Report::TooLarge { at, size } => {
                        if self.args.json {
                            let value = too_large_json(self.file, number, at, size);
                            serde_json::to_writer(&mut text, &value).map_err(io::Error::from).map_err(Error::Output)?;
                            text.push(b'\n');
                        } else {
                            write_too_large(&mut text, self.file, number, at, size, self.style)
                                .map_err(Error::Output)?;
                        }
                    }
                }
            }
            let out = &mut self.out;
            self.progress.suspend(|| out.write_all(&text)).map_err(Error::Output)?;
        }
        self.games += checked.totals.games;
        *self.seen_errors |= checked.outside.iter().any(is_error);
        if !self.args.quiet && !checked.outside.is_empty() {
            let findings = checked.outside.clone();
            let report = GameReport {
                at: findings[0].at,
                errors: findings.iter().filter(|f| is_error(f)).count() as u32,
                lints: findings.iter().filter(|f| !is_error(f)).count() as u32,
                findings,
                ..GameReport::default()
            };
            let mut text = Vec::new();
            if self.args.json {
                let mut value = game_json(self.file, self.games, &report);
                value["game"] = Value::Null;
                value["after_game"] = json!(self.games);
                serde_json::to_writer(&mut text, &value).map_err(io::Error::from).map_err(Error::Output)?;
                text.push(b'\n');
            } else {
                write_game_as(&mut text, self.file, &format!("after game {}", self.games), &report, self.style)
                    .map_err(Error::Output)?;
            }
            let out = &mut self.out;
            self.progress.suspend(|| out.write_all(&text)).map_err(Error::Output)?;
        }
        Ok(())
    }
}

/// The code of a game too large to read.
const TOO_LARGE: &str = "pgn:too-large";

/// What is said of a game too large to read.
fn too_large_message(size: u64) -> String {
    format!(
        "game of {size} bytes, larger than the limit of {} bytes: not checked (the next game starts at the next \
         tag pair at the start of a line)",
        Chunker::<io::Empty>::MAX_GAME
    )
}

fn write_too_large(
    out: &mut Vec<u8>,
    file: &str,
    number: u64,
    at: Location,
    size: u64,
    style: Style,
) -> io::Result<()> {
    let label = if style.color { "\x1b[1;31merror\x1b[0m" } else { "error" };
    writeln!(
        out,
        "{}:{}:{}: game {number}: {label}[{TOO_LARGE}]: {}",
        escape(file),
        at.line,
        at.column,
        too_large_message(size)
    )
}

fn too_large_json(file: &str, number: u64, at: Location, size: u64) -> Value {
    json!({
        "game": number,
        "file": file,
        "line": at.line,
        "white": null,
        "black": null,
        "event": null,
        "round": null,
        "skipped": null,
        "errors": [{
            "game": number,
            "line": at.line,
            "column": at.column,
            "ply": null,
            "move_number": null,
            "side": null,
            "token": "",
            "kind": TOO_LARGE,
            "message": too_large_message(size),
            "suggestion": null,
        }],
        "lint": [],
    })
}

/// `12.` or `12...` before a move of `side`.
fn move_prefix(number: u32, side: Color) -> String {
    format!("{number}{}", if side == Color::White { "." } else { "..." })
}

/// Text from the input as it may be shown: control characters escaped
/// (`\t`, `\r`, `\n`, `\x1b`, `\u{9b}`), so that no byte of a file reaches a
/// terminal as a control.
fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\t' => escaped.push_str("\\t"),
            '\r' => escaped.push_str("\\r"),
            '\n' => escaped.push_str("\\n"),
            c if c.is_control() && u32::from(c) < 0x80 => escaped.push_str(&format!("\\x{:02x}", u32::from(c))),
            c if c.is_control() => escaped.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => escaped.push(c),
        }
    }
    Cow::Owned(escaped)
}

/// `game 7 (White - Black, Event, Round)`, control characters escaped.
fn identity(number: u64, report: &GameReport) -> String {
    let mut parts = Vec::new();
    match (&report.white, &report.black) {
        (None, None) => {}
        (white, black) => {
            parts.push(format!("{} - {}", white.as_deref().unwrap_or("?"), black.as_deref().unwrap_or("?")))
        }
    }
    parts.extend(report.event.iter().cloned());
    parts.extend(report.round.iter().map(|round| format!("round {round}")));
    if parts.is_empty() {
        format!("game {number}")
    } else {
        escape(&format!("game {number} ({})", parts.join(", "))).into_owned()
    }
}

fn is_error(finding: &Finding) -> bool {
    finding.severity() == Severity::Error
}

/// ` (1048576 in a row, to 1:1048576)` for a finding that stands for a run.
fn repeats_note(finding: &Finding) -> String {
    if finding.repeats > 1 {
        format!(" ({} in a row, to {}:{})", finding.repeats, finding.until.line, finding.until.column)
    } else {
        String::new()
    }
}

fn write_game(out: &mut Vec<u8>, file: &str, number: u64, report: &GameReport, style: Style) -> io::Result<()> {
    write_game_as(out, file, &identity(number, report), report, style)
}

/// [`write_game`], the game named `who` (`game 3 (Ana - Bruno)`, `after game 3`).
fn write_game_as(out: &mut Vec<u8>, file: &str, who: &str, report: &GameReport, style: Style) -> io::Result<()> {
    let file = escape(file);
    if let Some(variant) = &report.skipped {
        writeln!(
            out,
            "{file}:{}:{}: {who}: skipped: variant {} (sanfen plays standard chess and Chess960)",
            report.at.line,
            report.at.column,
            escape(variant)
        )?;
    }
    for finding in &report.findings {
        let (label, colour) = if is_error(finding) { ("error", "\x1b[1;31m") } else { ("warning", "\x1b[1;33m") };
        write!(out, "{file}:{}:{}: {who}", finding.at.line, finding.at.column)?;
        if let (Some(number), Some(side)) = (finding.move_number, finding.side) {
            write!(out, ", {} {}", move_prefix(number, side), escape(&finding.token))?;
        } else if !finding.token.is_empty() {
            write!(out, ", {}", escape(&finding.token))?;
        }
        let message = escape(&finding.kind.to_string()).into_owned();
        if style.color {
            write!(out, ": {colour}{label}[{}]\x1b[0m: {message}", finding.kind.code())?;
        } else {
            write!(out, ": {label}[{}]: {message}", finding.kind.code())?;
        }
        writeln!(out, "{}", repeats_note(finding))?;
        if let Some(line) = &finding.source_line {
            let gutter = finding.at.line.to_string();
            let pad = " ".repeat(gutter.len());
            // the caret goes under the token: count what is shown, not bytes, before it
            let mut shown = String::new();
            if line.cut_before {
                shown.push('…');
            }
            let mut before = shown.chars().count();
            let mut width = 0;
            let token_chars = finding.token.chars().count();
            for (i, c) in line.text.chars().enumerate() {
                let piece = escape(c.encode_utf8(&mut [0; 4])).into_owned();
                let count = piece.chars().count();
                if i < line.caret {
                    before += count;
                } else if i < line.caret + token_chars {
                    width += count;
                }
                shown.push_str(&piece);
            }
            if line.cut_after {
                shown.push('…');
            }
            writeln!(out, "{pad} |")?;
            writeln!(out, "{gutter} | {shown}")?;
            writeln!(out, "{pad} | {}{}", " ".repeat(before), "^".repeat(width.max(1)))?;
        }
    }
    if report.unlisted > 0 {
        writeln!(
            out,
            "{file}:{}:{}: {who}: and {} more findings, not listed (at most {MAX_FINDINGS} are listed per game)",
            report.at.line, report.at.column, report.unlisted
        )?;
    }
    Ok(())
}

fn finding_json(number: u64, finding: &Finding) -> Value {
    let mut value = json!({
        "game": number,
        "line": finding.at.line,
        "column": finding.at.column,
        "ply": finding.ply,
        "move_number": finding.move_number,
        "side": finding.side.map(|side| if side == Color::White { "white" } else { "black" }),
        "token": finding.token,
        "kind": finding.kind.code(),
        "message": finding.kind.to_string(),
        "suggestion": finding.kind.suggestion(),
    });
    if finding.repeats > 1 {
        value["repeats"] = json!(finding.repeats);
        value["until"] = json!({"line": finding.until.line, "column": finding.until.column});
    }
    value
}

fn game_json(file: &str, number: u64, report: &GameReport) -> Value {
    let (errors, lint): (Vec<&Finding>, Vec<&Finding>) = report.findings.iter().partition(|f| is_error(f));
    let mut value = json!({
        "game": number,
        "file": file,
        "line": report.at.line,
        "white": report.white,
        "black": report.black,
        "event": report.event,
        "round": report.round,
        "skipped": report.skipped,
        "errors": errors.iter().map(|f| finding_json(number, f)).collect::<Vec<_>>(),
        "lint": lint.iter().map(|f| finding_json(number, f)).collect::<Vec<_>>(),
    });
    if report.unlisted > 0 {
        value["unlisted"] = json!(report.unlisted);
    }
    value
}

fn write_summary(out: &mut impl Write, totals: &Totals, seconds: f64, json: bool) -> io::Result<()> {
    if json {
        let value = json!({"summary": {
            "games": totals.games,
            "moves": totals.moves,
            "games_with_errors": totals.games_with_errors,
            "errors": totals.errors,
            "lint": totals.lint,
            "skipped": totals.skipped,
            "bytes": totals.bytes,
            "seconds": (seconds * 1000.0).round() / 1000.0,
        }});
        serde_json::to_writer(&mut *out, &value)?;
        writeln!(out)
    } else {
        writeln!(
            out,
            "{} games, {} moves, {} games with errors, {} errors, {} lint findings, {} skipped, {} bytes, {seconds:.3} s",
            totals.games,
            totals.moves,
            totals.games_with_errors,
            totals.errors,
            totals.lint,
            totals.skipped,
            totals.bytes
        )
    }
}

#[cfg(test)]
mod tests {
    use sanfen::pgn::reader::Reader;
    use sanfen::pgn::validate::{Options, Validator};

    use super::*;

    #[test]
    fn terminal_shows_the_source_line_with_a_caret() {
        let pgn = "[White \"Ana\"]\n[Black \"Bruno\"]\n\n1. e4 e5 2. Nf3 Nc6 3. d3 Nf6 4. Nd2 d5 *\n";
        let options = Options { source_lines: true, ..Options::default() };
        let mut validator = Validator::new(pgn.as_bytes(), options);
        let mut report = Reader::new(pgn.as_bytes()).read_game(&mut validator).expect("a game");
        report.findings.retain(|f| f.kind.code() == "san:ambiguous");
        let mut out = Vec::new();
        write_game(&mut out, "g.pgn", 1, &report, Style { terminal: true, color: false }).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "g.pgn:4:34: game 1 (Ana - Bruno), 4. Nd2: error[san:ambiguous]: ambiguous: pieces on b1 and f3 can both \
             make the move; write Nbd2 or Nfd2\n  |\n4 | 1. e4 e5 2. Nf3 Nc6 3. d3 Nf6 4. Nd2 d5 *\n  | \
             \x20                                ^^^\n"
        );
        // in colour: the label only
        let mut out = Vec::new();
        write_game(&mut out, "g.pgn", 1, &report, Style { terminal: true, color: true }).unwrap();
        assert!(String::from_utf8(out).unwrap().contains(": \x1b[1;31merror[san:ambiguous]\x1b[0m: ambiguous"));
    }

    #[test]
    fn terminal_shows_control_bytes_escaped_and_a_window_of_a_long_line() {
        let pgn = format!("[White \"A\x1b[2J\"]\n\n1. e4 {{{}\x07}} e5 2. Ke3 *\n", "x".repeat(200));
        let options = Options { source_lines: true, ..Options::default() };
        let mut validator = Validator::new(pgn.as_bytes(), options);
        let mut report = Reader::new(pgn.as_bytes()).read_game(&mut validator).expect("a game");
        report.findings.retain(|f| f.kind.code() == "san:illegal");
        let mut out = Vec::new();
        write_game(&mut out, "g.pgn", 1, &report, Style { terminal: true, color: false }).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("g.pgn:3:217: game 1 (A\\x1b[2J - ?), 2. Ke3: error[san:illegal]: "), "{text}");
        assert_eq!(
            lines[1..],
            ["  |", &format!("3 | …{}\\x07}} e5 2. Ke3 *", "x".repeat(31)), &format!("  | {}^^^", " ".repeat(44)),]
        );
        assert!(!text.bytes().any(|b| b < 0x20 && b != b'\n'), "no control byte but line ends: {text:?}");
    }

    #[test]
    fn escape_shows_control_characters() {
        assert_eq!(escape("Ana"), "Ana");
        assert_eq!(escape("a\x1b[31mb\r\n\t\x07\x7f\u{9b}é"), "a\\x1b[31mb\\r\\n\\t\\x07\\x7f\\u{9b}é");
    }
}
