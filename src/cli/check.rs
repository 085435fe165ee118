//! `sanfen check`: validate PGN games, in parallel when asked, reporting in
//! input order.
//!
//! Each file is cut into chunks of whole games ([`Chunker`]); each chunk is
//! read and validated on its own ([`Validator`]), on the calling thread with
//! `-j 1`, else on a pool of worker threads while this thread reads the next
//! chunks. Reports are written in input order whatever order the workers
//! finish in. At most a few chunks per worker are in flight, so memory does
//! not grow with the input.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{self, IsTerminal, Read, Write};
use std::sync::mpsc;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sanfen::Color;
use sanfen::pgn::chunk::{Chunk, Chunker};
use sanfen::pgn::reader::{Location, Reader};
use sanfen::pgn::validate::{Finding, GameReport, Options, Severity, Validator};
use serde_json::{Value, json};

use super::report::Style;
use super::{Error, ExitCode, pgn_input};

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
    /// missing tags) count as errors.
    #[arg(long)]
    strict: bool,
    /// No progress bar, even on a terminal.
    #[arg(long)]
    no_progress: bool,
    /// PGN files (`.gz`, `.zst` decompressed); none, or `-`, reads standard input.
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

/// One chunk validated: its counts, and the games worth reporting.
struct Checked {
    totals: Totals,
    /// (game number within the chunk, from 0; the report)
    reports: Vec<(u64, GameReport)>,
    /// The chunk's buffer, to be reused for a later chunk.
    data: Vec<u8>,
}

/// Settings every chunk needs.
#[derive(Copy, Clone, Debug)]
struct Settings {
    strict: bool,
    options: Options,
}

fn check_chunk(chunk: Chunk, settings: Settings) -> Checked {
    let mut checked = Checked {
        totals: Totals { bytes: chunk.data.len() as u64, ..Totals::default() },
        reports: Vec::new(),
        data: Vec::new(),
    };
    {
        let mut validator = Validator::with_base(&chunk.data, chunk.start.offset, settings.options);
        let mut reader = Reader::with_start(&chunk.data, chunk.start);
        while let Some(report) = reader.read_game(&mut validator) {
            count_game(&mut checked, report, settings);
        }
    }
    checked.data = chunk.data;
    checked
}

/// Adds one game to the counts, and keeps its report when there is something to say.
fn count_game(checked: &mut Checked, report: GameReport, settings: Settings) {
    let totals = &mut checked.totals;
    totals.moves += report.moves;
    totals.skipped += u64::from(report.skipped.is_some());
    let (errors, lints) =
        if settings.strict { (report.errors + report.lints, 0) } else { (report.errors, report.lints) };
    totals.errors += u64::from(errors);
    totals.lint += u64::from(lints);
    totals.games_with_errors += u64::from(errors > 0);
    if !settings.options.count_only && (!report.findings.is_empty() || report.skipped.is_some()) {
        checked.reports.push((totals.games, report));
    }
    totals.games += 1;
}

/// `sanfen check`.
///
/// # Errors
///
/// Writing the output failed.
pub fn run(args: &Args) -> Result<ExitCode, Error> {
    let started = Instant::now();
    let stdout = io::stdout();
    let style = Style::for_stdout(stdout.is_terminal());
    let options = Options { source_lines: style.terminal && !args.json, count_only: args.quiet };
    let settings = Settings { strict: args.strict, options };
    let jobs = args.jobs.map_or_else(default_jobs, |n| n as usize);
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut totals = Totals::default();
    let mut failed = false;
    for name in pgn_input::names(&args.files) {
        let source = match pgn_input::open(&name) {
            Ok(source) => source,
            Err(err) => {
                out.flush().map_err(Error::Output)?;
                eprintln!("sanfen: {err}");
                failed = true;
                continue;
            }
        };
        let progress = progress_bar(args, source.size);
        let mut printer = Printer { out: &mut out, file: &source.name, args, style, progress: &progress, games: 0 };
        let result = if jobs <= 1 {
            check_sequential(source.reader, settings, &mut printer)
        } else {
            check_parallel(source.reader, settings, jobs, &mut printer)
        };
        progress.finish_and_clear();
        match result {
            Ok(file_totals) => totals.add(&file_totals),
            Err(Error::Input(err)) => {
                out.flush().map_err(Error::Output)?;
                eprintln!("sanfen: {}: {err}", source.name);
                failed = true;
            }
            Err(err) => return Err(err),
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    write_summary(&mut out, &totals, seconds, args.json).map_err(Error::Output)?;
    out.flush().map_err(Error::Output)?;
    Ok(if failed {
        ExitCode::Failure
    } else if totals.games_with_errors > 0 {
        ExitCode::Invalid
    } else {
        ExitCode::Valid
    })
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

/// One thread: blocks of input read into one buffer, games read from it
/// directly (no chunker pass); a game that reaches the end of the buffer
/// before the input ends is read again once more input is in.
fn check_sequential(
    mut input: Box<dyn Read + Send>,
    settings: Settings,
    printer: &mut Printer<'_>,
) -> Result<Totals, Error> {
    const BLOCK: usize = 1 << 20;
    let mut totals = Totals::default();
    // `space[..len]` holds the input not yet checked; the rest is room to
    // read into (zeroed once, when it grows)
    let mut space: Vec<u8> = Vec::new();
    let mut len = 0;
    let mut start = Location { line: 1, column: 1, offset: 0 };
    let mut eof = false;
    let mut first = true;
    // how much to read: doubled while no game fits, so a huge game is read again
    // only a few times
    let mut block = BLOCK;
    loop {
        // read until a block more than what is left over is in, or the input ends
        let target = len + block;
        if space.len() < target {
            space.resize(target, 0);
        }
        while !eof && len < target {
            match input.read(&mut space[len..target]) {
                Ok(0) => eof = true,
                Ok(read) => len += read,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(Error::Input(err)),
            }
        }
        if first {
            first = false;
            if space[..len].starts_with(b"\xef\xbb\xbf") {
                space.copy_within(3..len, 0);
                len -= 3;
                start.offset = 3;
            }
        }
        let buf = &space[..len];
        let mut checked = Checked { totals: Totals::default(), reports: Vec::new(), data: Vec::new() };
        let end = start.offset + buf.len() as u64;
        let mut consumed = start;
        {
            let mut validator = Validator::with_base(buf, start.offset, settings.options);
            let mut reader = Reader::with_start(buf, start);
            while let Some(report) = reader.read_game(&mut validator) {
                let after = reader.location();
                if !eof && after.offset >= end {
                    // the game may go on in the next block: read it again then
                    break;
                }
                consumed = after;
                count_game(&mut checked, report, settings);
            }
            if eof {
                consumed = reader.location();
            }
        }
        let used = usize::try_from(consumed.offset - start.offset).unwrap_or(buf.len()).min(buf.len());
        checked.totals.bytes = used as u64;
        printer.chunk(&checked)?;
        totals.add(&checked.totals);
        if eof {
            return Ok(totals);
        }
        block = if used == 0 { block * 2 } else { BLOCK };
        space.copy_within(used..len, 0);
        len -= used;
        start = consumed;
    }
}

fn check_parallel(
    input: Box<dyn Read + Send>,
    settings: Settings,
    jobs: usize,
    printer: &mut Printer<'_>,
) -> Result<Totals, Error> {
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
    loop {
        // keep the workers fed
        while !finished && sent - next < max_in_flight {
            match chunker.next_chunk(spare.pop().unwrap_or_default()).map_err(Error::Input)? {
                Some(chunk) => {
                    let sender = sender.clone();
                    let index = sent;
                    pool.spawn(move || {
                        // the receiver is gone only when the run is over
                        let _ = sender.send((index, check_chunk(chunk, settings)));
                    });
                    sent += 1;
                }
                None => finished = true,
            }
        }
        if next == sent {
            break;
        }
        // write what is ready, in order; wait for the next one otherwise
        while let Some(checked) = done.remove(&next) {
            printer.chunk(&checked)?;
            totals.add(&checked.totals);
            spare.push(checked.data);
            next += 1;
        }
        if next == sent {
            continue;
        }
        let (index, checked) = receiver.recv().map_err(|_| Error::Usage("a worker thread stopped".to_owned()))?;
        done.insert(index, checked);
        while let Some(checked) = done.remove(&next) {
            printer.chunk(&checked)?;
            totals.add(&checked.totals);
            spare.push(checked.data);
            next += 1;
        }
    }
    Ok(totals)
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
}

impl Printer<'_> {
    fn chunk(&mut self, checked: &Checked) -> Result<(), Error> {
        self.progress.inc(checked.totals.bytes);
        if !self.args.quiet && !checked.reports.is_empty() {
            let mut text = Vec::new();
            for (index, report) in &checked.reports {
                let number = self.games + index + 1;
                if self.args.json {
                    if !report.findings.is_empty() {
                        let value = game_json(self.file, number, report, self.args.strict);
                        serde_json::to_writer(&mut text, &value).map_err(io::Error::from).map_err(Error::Output)?;
                        text.push(b'\n');
                    }
                } else {
                    write_game(&mut text, self.file, number, report, self.args.strict, self.style)
                        .map_err(Error::Output)?;
                }
            }
            let out = &mut self.out;
            self.progress.suspend(|| out.write_all(&text)).map_err(Error::Output)?;
        }
        self.games += checked.totals.games;
        Ok(())
    }
}

/// `12.` or `12...` before a move of `side`.
fn move_prefix(number: u32, side: Color) -> String {
    format!("{number}{}", if side == Color::White { "." } else { "..." })
}

/// `game 7 (White - Black, Event, Round)`.
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
    if parts.is_empty() { format!("game {number}") } else { format!("game {number} ({})", parts.join(", ")) }
}

fn is_error(finding: &Finding, strict: bool) -> bool {
    strict || finding.severity() == Severity::Error
}

fn write_game(
    out: &mut Vec<u8>,
    file: &str,
    number: u64,
    report: &GameReport,
    strict: bool,
    style: Style,
) -> io::Result<()> {
    let who = identity(number, report);
    if let Some(variant) = &report.skipped {
        writeln!(
            out,
            "{file}:{}:{}: {who}: skipped: variant {variant} (sanfen plays standard chess and Chess960)",
            report.at.line, report.at.column
        )?;
    }
    for finding in &report.findings {
        let (label, colour) =
            if is_error(finding, strict) { ("error", "\x1b[1;31m") } else { ("warning", "\x1b[1;33m") };
        write!(out, "{file}:{}:{}: {who}", finding.at.line, finding.at.column)?;
        if let (Some(number), Some(side)) = (finding.move_number, finding.side) {
            write!(out, ", {} {}", move_prefix(number, side), finding.token)?;
        } else if !finding.token.is_empty() {
            write!(out, ", {}", finding.token)?;
        }
        if style.color {
            write!(out, ": {colour}{label}[{}]\x1b[0m: {}", finding.kind.code(), finding.kind)?;
        } else {
            write!(out, ": {label}[{}]: {}", finding.kind.code(), finding.kind)?;
        }
        writeln!(out)?;
        if let Some(line) = &finding.source_line {
            let gutter = finding.at.line.to_string();
            let pad = " ".repeat(gutter.len());
            // the caret goes under the token: count characters, not bytes, before it
            let before = line.char_indices().take_while(|(i, _)| *i + 1 < finding.at.column as usize).count();
            let width = finding.token.chars().count().max(1);
            writeln!(out, "{pad} |")?;
            writeln!(out, "{gutter} | {line}")?;
            writeln!(out, "{pad} | {}{}", " ".repeat(before), "^".repeat(width))?;
        }
    }
    Ok(())
}

fn finding_json(number: u64, finding: &Finding) -> Value {
    json!({
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
    })
}

fn game_json(file: &str, number: u64, report: &GameReport, strict: bool) -> Value {
    let (errors, lint): (Vec<&Finding>, Vec<&Finding>) = report.findings.iter().partition(|f| is_error(f, strict));
    json!({
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
    })
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
        let options = Options { source_lines: true, count_only: false };
        let mut validator = Validator::new(pgn.as_bytes(), options);
        let mut report = Reader::new(pgn.as_bytes()).read_game(&mut validator).expect("a game");
        report.findings.retain(|f| f.kind.code() == "san:ambiguous");
        let mut out = Vec::new();
        write_game(&mut out, "g.pgn", 1, &report, false, Style { terminal: true, color: false }).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "g.pgn:4:34: game 1 (Ana - Bruno), 4. Nd2: error[san:ambiguous]: ambiguous: pieces on b1 and f3 can both \
             make the move; write Nbd2 or Nfd2\n  |\n4 | 1. e4 e5 2. Nf3 Nc6 3. d3 Nf6 4. Nd2 d5 *\n  | \
             \x20                                ^^^\n"
        );
        // in colour: the label only
        let mut out = Vec::new();
        write_game(&mut out, "g.pgn", 1, &report, true, Style { terminal: true, color: true }).unwrap();
        assert!(String::from_utf8(out).unwrap().contains(": \x1b[1;31merror[san:ambiguous]\x1b[0m: ambiguous"));
    }
}
