//! `sanfen check`: validate PGN games, in parallel when asked, reporting in
//! input order.
//!
//! The library checks each file ([`check_input`]: chunks of whole games
//! validated on `-j N` threads, handed back in input order, so the output
//! is the same whatever `-j`; memory bounded whatever the input); this
//! module renders what it hands back (text, JSON Lines, a progress bar)
//! and sets the exit code. A game larger than
//! [`Chunker::MAX_GAME`](sanfen::pgn::Chunker::MAX_GAME) is reported as an
//! error (`pgn:too-large`).
//!
//! Text from the input (tags, tokens, source lines) is written with its
//! control characters escaped (`\x1b`), so a file cannot send escape
//! sequences to a terminal; a long source line is shown as a window around
//! the finding.

use std::borrow::Cow;
use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sanfen::Color;
use sanfen::Severity;
use sanfen::pgn::check::{CheckError, CheckOptions, Part, Report, Summary, TOO_LARGE, check_input, too_large_message};
use sanfen::pgn::input::{NotText, ReadError};
use sanfen::pgn::parallel::threads_or_cores;
use sanfen::pgn::reader::Location;
use sanfen::pgn::validate::{Finding, GameReport, MAX_FINDINGS, Options, shortened};
use sanfen::play::MoveNumber;
use sanfen::san::Letters;
use serde_json::{Value, json};

use super::input::Hint;
use super::report::Style;
use super::terminal::{ControlShown, json_to_writer, push_json, shown_escaped};
use super::{Error, ExitCode, LintArgs, pgn_input};

/// `sanfen check`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// One JSON object per game with findings, and per file not checked to
    /// its end, on stdout (JSON Lines), then one `{"summary": ...}` object,
    /// and nothing else.
    #[arg(long)]
    json: bool,
    /// Threads that check games [default: one per core]. With more than one,
    /// this thread reads and cuts the input.
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = super::parse_jobs)]
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
    /// Read the moves' piece letters in this language: en, pt, es, fr, de,
    /// it, nl. A move in another language's letters (`Cf3` in Portuguese)
    /// is played, with the lint finding `san:local-letters` (canonical SAN
    /// is English).
    #[arg(long, value_name = "LANG", default_value = "en")]
    letters: Letters,
    /// No progress bar, even on a terminal.
    #[arg(long)]
    no_progress: bool,
    /// PGN files (gzip, zstd and bzip2 recognised by their first bytes and
    /// decompressed); none, or `-`, reads standard input.
    #[arg(value_name = "FILE")]
    files: Vec<OsString>,
}

/// Shown before waiting for PGN typed in a terminal.
const HINT: Hint = Hint { command: "sanfen check", reads: "PGN", instead: "sanfen check FILE to read a file" };

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
    pgn_input::refuse_stdout_input(&args.files)?;
    let stdout = io::stdout();
    let style = Style::for_stdout(stdout.is_terminal());
    let policy = args.lints.policy(args.strict)?;
    let source_lines = style.terminal && !args.json;
    let validate = Options { source_lines, count_only: args.quiet, policy, letters: args.letters };
    let jobs = args.jobs.map_or(0, |n| n as usize);
    let options = CheckOptions { validate, threads: jobs };
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut totals = Summary::default();
    let mut failed = false;
    let mut invalid = false;
    // files not checked to their end
    let mut file_errors = 0;
    let mut report_file = |out: &mut io::BufWriter<_>, problem: FileProblem<'_>| -> Result<(), Error> {
        file_errors += 1;
        if args.json && !args.quiet {
            json_to_writer(&mut *out, &problem.json()).map_err(io::Error::from).map_err(Error::Output)?;
            writeln!(out).map_err(Error::Output)?;
        }
        out.flush().map_err(Error::Output)?;
        eprintln!("sanfen: {}: {}", escape(problem.file), escape(&problem.message()));
        Ok(())
    };
    for name in pgn_input::names(&args.files) {
        let source = match pgn_input::open(&name, &HINT) {
            Ok(source) => source,
            Err(Error::File { path, source }) => {
                report_file(&mut out, FileProblem { file: &path, kind: FileProblemKind::Open(&source) })?;
                failed = true;
                continue;
            }
            Err(err) => return Err(err),
        };
        if let Some(reason) = &source.input.not_text {
            report_file(&mut out, FileProblem { file: &source.name, kind: FileProblemKind::NotText(reason) })?;
            invalid = true;
            continue;
        }
        let progress = progress_bar(args.no_progress, source.input.size);
        let mut printer = Printer {
            out: &mut out,
            file: &source.name,
            args,
            style,
            progress: &progress,
            seen_errors: &mut *seen_errors,
        };
        let result = check_input(source.input, &options, |part| printer.part(part));
        progress.finish_and_clear();
        match result {
            Ok(file_totals) => totals.add(&file_totals),
            Err(CheckError::Read { error, summary }) => {
                totals.add(&summary);
                report_file(&mut out, FileProblem { file: &source.name, kind: FileProblemKind::Read(&error) })?;
                failed = true;
            }
            Err(CheckError::Stopped(err)) => return Err(err),
            Err(CheckError::Threads(err)) => {
                return Err(Error::Usage(format!("cannot start {} threads: {err}", threads_or_cores(jobs))));
            }
            // (told apart above; opened above)
            Err(err @ (CheckError::NotText(_) | CheckError::Open(_))) => return Err(Error::Usage(err.to_string())),
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let verdict = if failed {
        ExitCode::Failure
    } else if invalid || totals.errors > 0 {
        ExitCode::Invalid
    } else {
        ExitCode::Valid
    };
    // every game was checked: a closed output leaves the verdict as it is
    match write_summary(&mut out, &totals, file_errors, seconds, args.json).and_then(|()| out.flush()) {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => Ok(verdict),
        Err(err) => Err(Error::Output(err)),
        Ok(()) => Ok(verdict),
    }
}

/// A progress bar of bytes on standard error: on a terminal, unless
/// `hidden`, for inputs of 32 MiB or more, or of unknown size (a spinner).
pub(super) fn progress_bar(hidden: bool, size: Option<u64>) -> ProgressBar {
    const LARGE: u64 = 32 << 20;
    let show = !hidden && io::stderr().is_terminal() && size.is_none_or(|size| size >= LARGE);
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

/// Writes the reports of each part of a file as it comes in.
struct Printer<'a> {
    out: &'a mut dyn Write,
    file: &'a str,
    args: &'a Args,
    style: Style,
    progress: &'a ProgressBar,
    /// Set once an error is counted.
    seen_errors: &'a mut bool,
}

impl Printer<'_> {
    fn part(&mut self, part: &Part) -> Result<(), Error> {
        self.progress.inc(part.summary.bytes);
        // an error outside any game (text between games under `--deny`) counts too
        *self.seen_errors |= part.summary.errors > 0;
        if !self.args.quiet && !part.reports.is_empty() {
            let mut text = Vec::new();
            for report in &part.reports {
                match *report {
                    Report::Game { number, ref report } if self.args.json => {
                        if !report.findings.is_empty() {
                            let value = game_json(self.file, number, report);
                            push_json(&mut text, &value).map_err(io::Error::from).map_err(Error::Output)?;
                            text.push(b'\n');
                        }
                    }
                    Report::Game { number, ref report } => {
                        write_game(&mut text, self.file, number, report, self.style).map_err(Error::Output)?;
                    }
                    Report::TooLarge { number, at, size } => {
                        if self.args.json {
                            let value = too_large_json(self.file, number, at, size);
                            push_json(&mut text, &value).map_err(io::Error::from).map_err(Error::Output)?;
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
        let games = part.games_so_far;
        if !self.args.quiet && !part.outside.is_empty() {
            let findings = part.outside.clone();
            let report = GameReport {
                at: findings[0].at,
                errors: findings.iter().filter(|f| is_error(f)).count() as u32,
                lints: findings.iter().filter(|f| !is_error(f)).count() as u32,
                findings,
                ..GameReport::default()
            };
            let mut text = Vec::new();
            if self.args.json {
                let mut value = game_json(self.file, games, &report);
                value["game"] = Value::Null;
                value["after_game"] = json!(games);
                push_json(&mut text, &value).map_err(io::Error::from).map_err(Error::Output)?;
                text.push(b'\n');
            } else {
                write_game_as(&mut text, self.file, &format!("after game {games}"), &report, self.style)
                    .map_err(Error::Output)?;
            }
            let out = &mut self.out;
            self.progress.suspend(|| out.write_all(&text)).map_err(Error::Output)?;
        }
        Ok(())
    }
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

/// Text from the input as it may be shown: control characters escaped
/// (`\t`, `\r`, `\n`, `\x1b`, `\u{9b}`), and bidirectional controls
/// (`\u{202e}`, see [`shown_escaped`]), so that no byte of a file reaches a
/// terminal as a control or reorders what is shown.
pub(super) fn escape(text: &str) -> Cow<'_, str> {
    escape_where(text, shown_escaped)
}

/// A move's token or a source line as shown: as [`escape`] does, and every
/// invisible character escaped too (`\u{200b}`, `\u{a0}`; see
/// [`invisible`]), so that what is shown is all the file holds there (a
/// token `N\u{200d}f3` is not a move, and must not look like `Nf3`) and a
/// caret under a line stands under what it points at.
fn escape_token(text: &str) -> Cow<'_, str> {
    escape_where(text, |c| shown_escaped(c) || invisible(c))
}

/// Whether `c` shows as nothing, or as a space that is not one: the
/// no-break spaces, the soft hyphen, the zero-width characters and joiners,
/// the other format characters Unicode says to ignore when they cannot be
/// shown (variation selectors and tag characters among them), the line and
/// paragraph separators, and the Hangul fillers.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{a0}'
            | '\u{ad}'
            | '\u{34f}'
            | '\u{61c}'
            | '\u{115f}'
            | '\u{1160}'
            | '\u{17b4}'
            | '\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202f}'
            | '\u{205f}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fff8}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

/// `text` with the characters `escaped` names escaped, as [`escape`] shows
/// them.
fn escape_where(text: &str, escaped_char: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&escaped_char) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\t' => escaped.push_str("\\t"),
            '\r' => escaped.push_str("\\r"),
            '\n' => escaped.push_str("\\n"),
            c if escaped_char(c) => {
                let _ = core::fmt::Write::write_fmt(&mut escaped, format_args!("{}", ControlShown(c)));
            }
            c => escaped.push(c),
        }
    }
    Cow::Owned(escaped)
}

/// `game 7 (White - Black, Event, Round)`, control characters escaped, each
/// tag's value shown up to
/// [`MAX_TOKEN_TEXT`](sanfen::pgn::validate::MAX_TOKEN_TEXT) bytes (the
/// name starts every line of the game's findings: a tag of megabytes must
/// not make each one as long).
fn identity(number: u64, report: &GameReport) -> String {
    let mut parts = Vec::new();
    let [white, black, event, round] = [&report.white, &report.black, &report.event, &report.round]
        .map(|tag| tag.as_deref().map(|value| shortened(value.as_bytes())));
    match (white, black) {
        (None, None) => {}
        (white, black) => {
            parts.push(format!("{} - {}", white.as_deref().unwrap_or("?"), black.as_deref().unwrap_or("?")))
        }
    }
    parts.extend(event);
    parts.extend(round.map(|round| format!("round {round}")));
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
            write!(out, ", {} {}", MoveNumber { number, turn: side }, escape_token(&finding.token))?;
        } else if !finding.token.is_empty() {
            write!(out, ", {}", escape_token(&finding.token))?;
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
                let piece = escape_token(c.encode_utf8(&mut [0; 4])).into_owned();
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

/// A file `check` could not check to its end.
struct FileProblem<'a> {
    /// As shown.
    file: &'a str,
    kind: FileProblemKind<'a>,
}

enum FileProblemKind<'a> {
    /// It could not be opened.
    Open(&'a io::Error),
    /// It is binary data or UTF-16 text.
    NotText(&'a NotText),
    /// A read failed part way.
    Read(&'a ReadError),
}

impl FileProblem<'_> {
    /// What went wrong, in words, without the file's name.
    fn message(&self) -> String {
        match self.kind {
            FileProblemKind::Open(err) => err.to_string(),
            FileProblemKind::NotText(reason) => format!("not PGN text: {reason}"),
            FileProblemKind::Read(err) => err.to_string(),
        }
    }

    /// `{"file": ..., "file_error": {"kind": ..., "message": ..., "offset": ...}}`.
    fn json(&self) -> Value {
        let (kind, offset) = match self.kind {
            FileProblemKind::Open(_) => ("file:open", None),
            FileProblemKind::NotText(NotText::Binary { first, .. }) => ("file:not-text", Some(*first as u64)),
            FileProblemKind::NotText(_) => ("file:not-text", Some(0)),
            FileProblemKind::Read(err) => ("file:read", Some(err.offset)),
        };
        json!({"file": self.file, "file_error": {"kind": kind, "message": self.message(), "offset": offset}})
    }
}

/// The summary line (or object); `file_errors` counts the files not
/// checked to their end.
fn write_summary(out: &mut impl Write, totals: &Summary, file_errors: u64, seconds: f64, json: bool) -> io::Result<()> {
    if json {
        let value = json!({"summary": {
            "games": totals.games,
            "moves": totals.moves,
            "games_with_errors": totals.games_with_errors,
            "errors": totals.errors,
            "lint": totals.lint,
            "skipped": totals.skipped,
            "file_errors": file_errors,
            "bytes": totals.bytes,
            "seconds": (seconds * 1000.0).round() / 1000.0,
        }});
        json_to_writer(&mut *out, &value)?;
        writeln!(out)
    } else {
        let files = match file_errors {
            0 => String::new(),
            1 => ", 1 file not checked to its end".to_owned(),
            n => format!(", {n} files not checked to their end"),
        };
        writeln!(
            out,
            "{} games, {} moves, {} games with errors, {} errors, {} lint findings, {} skipped{files}, {} bytes, \
             {seconds:.3} s",
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
    fn terminal_shows_invisible_characters_of_tokens_and_source_lines_escaped() {
        // a zero-width space between N and f3, a zero-width joiner in Nc6
        let pgn = "[White \"Ana\u{a0}Maria\"]\n\n1. e4 e5 2. N\u{200b}f3 N\u{200d}c6 *\n";
        let options = Options { source_lines: true, ..Options::default() };
        let mut validator = Validator::new(pgn.as_bytes(), options);
        let report = Reader::new(pgn.as_bytes()).read_game(&mut validator).expect("a game");
        let mut out = Vec::new();
        write_game(&mut out, "g.pgn", 1, &report, Style { terminal: true, color: false }).unwrap();
        let text = String::from_utf8(out).unwrap();
        // (after the missing tags' finding and its source line, where the
        // no-break space is shown escaped too)
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[2], "1 | [White \"Ana\\u{a0}Maria\"]");
        let source = "3 | 1. e4 e5 2. N\\u{200b}f3 N\\u{200d}c6 *";
        assert_eq!(
            lines[4..],
            [
                "g.pgn:3:13: game 1 (Ana\u{a0}Maria - ?), 2. N: error[san:syntax]: not a move: invalid move at 1..1: \
                 found nothing, expected a file a-h, a rank 1-8 or `x`",
                "  |",
                source,
                "  |             ^",
                "g.pgn:3:14: game 1 (Ana\u{a0}Maria - ?), \\u{200b}: warning[pgn:invisible-char]: invisible character \
                 (zero-width space U+200B) read as a space; write a space",
                "  |",
                source,
                "  |              ^^^^^^^^",
            ],
            "{text}"
        );
        // a token that is not a move shows what it holds
        let pgn = "1. e4 e5 2. N\u{200d}f3 *\n";
        let mut validator = Validator::new(pgn.as_bytes(), Options::default());
        let report = Reader::new(pgn.as_bytes()).read_game(&mut validator).expect("a game");
        let mut out = Vec::new();
        write_game(&mut out, "g.pgn", 1, &report, Style { terminal: false, color: false }).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("g.pgn:1:13: game 1, 2. N\\u{200d}f3: error[san:syntax]: "), "{text}");
    }

    #[test]
    fn invisible_characters_are_told_from_visible_ones() {
        for c in
            ['\u{a0}', '\u{ad}', '\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{feff}', '\u{fe0f}', '\u{e0041}']
        {
            assert!(invisible(c), "{c:?}");
        }
        for c in ['a', ' ', 'é', 'ש', '\u{2013}', '♘', '\u{1f600}'] {
            assert!(!invisible(c), "{c:?}");
        }
        assert_eq!(escape_token("N\u{200d}f3\u{a0}\x1b"), "N\\u{200d}f3\\u{a0}\\x1b");
        // tag values keep theirs: a no-break space in a name is a space
        assert_eq!(escape("Ana\u{a0}Maria"), "Ana\u{a0}Maria");
    }

    #[test]
    fn escape_shows_control_characters() {
        assert_eq!(escape("Ana"), "Ana");
        assert_eq!(escape("a\x1b[31mb\r\n\t\x07\x7f\u{9b}é"), "a\\x1b[31mb\\r\\n\\t\\x07\\x7f\\u{9b}é");
        assert_eq!(escape("Ana\u{202e}0-1\u{2069} \u{200f}שלום"), "Ana\\u{202e}0-1\\u{2069} \u{200f}שלום");
    }
}
