//! Fuzz target `check`: the validator, as `sanfen check` runs it. For any
//! input (raw bytes, or, when the first byte is 0, a structured PGN rendered
//! from the rest: see `common/structured.rs`),
//!
//! - validating never panics (moves read in English letters, or, for some
//!   inputs, another language's: see [`options`]), and the reader stops at the end of the input;
//! - each game's report is sound: findings in the order of their locations,
//!   inside the game and the input, with the source line of their location;
//!   the error and lint counts agree with the findings kept (see
//!   [`check_findings_cap`] for the per-game cap);
//! - counting only (`check --quiet`) gives the same counts;
//! - the input cut into chunks by the `Chunker` (small targets, with the quick
//!   search and line by line), each chunk validated on its own as
//!   `sanfen check` does (with `-j 1` as with `-j N`: the same chunks), gives
//!   exactly the reports of the whole input, source lines included.

#![no_main]

#[path = "common/structured.rs"]
mod structured;

use libfuzzer_sys::fuzz_target;
use sanfen::Severity;
use sanfen::lint::LintPolicy;
use sanfen::pgn::validate::{Finding, GameReport, MAX_FINDINGS, Options, Validator};
use sanfen::pgn::{Chunker, Location, Reader};
use sanfen::san::Letters;

fuzz_target!(|data: &[u8]| {
    let input = structured::input(data);
    check(&input);
});

/// Whether the findings' source lines are compared between the whole input
/// and its chunks. On: `sanfen check` shows them on a terminal, and its
/// output must not depend on `-j` or on where chunks end (seeds
/// `source-line-*`, and `j1-blocks-source-line-*` from when `-j 1` read
/// blocks of its own); turning this off checks everything else.
const COMPARE_SOURCE_LINES: bool = true;

/// The options of `sanfen check` on a terminal: findings with their source
/// line; moves read in the piece letters of a language the input's length
/// picks (`check --letters`), English for most.
fn options(input: &[u8]) -> Options {
    let letters = if input.len().is_multiple_of(3) {
        Letters::ALL[input.len() / 3 % Letters::ALL.len()]
    } else {
        Letters::English
    };
    Options { source_lines: true, count_only: false, policy: LintPolicy::DEFAULT, letters }
}

fn check(input: &[u8]) {
    let whole = {
        let mut validator = Validator::new(input, options(input));
        let mut reader = Reader::new(input);
        let mut reports = Vec::new();
        while let Some(report) = reader.read_game(&mut validator) {
            reports.push(report);
        }
        assert_eq!(reader.location().offset, input.len() as u64, "the reader stops at the end");
        reports
    };
    let newlines: Vec<usize> = input.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i).collect();
    // findings about the text between two games (invisible characters,
    // comments, escape lines) come with the next game
    let mut after = 0;
    for report in &whole {
        check_report(input, &newlines, report, after);
        after = report.at.offset;
    }

    // counting only
    {
        let mut validator = Validator::new(input, Options { count_only: true, ..options(input) });
        let mut reader = Reader::new(input);
        let mut counted = Vec::new();
        while let Some(report) = reader.read_game(&mut validator) {
            assert!(report.findings.is_empty(), "count_only keeps no finding");
            counted.push(report);
        }
        let summary = |r: &GameReport| (r.at, r.moves, r.skipped.clone(), r.errors, r.lints);
        assert_eq!(
            counted.iter().map(summary).collect::<Vec<_>>(),
            whole.iter().map(summary).collect::<Vec<_>>(),
            "counting only gives the same counts"
        );
    }

    // `check`: chunks of whole games, each validated on its own
    let small = 2 + input.len() % 61;
    for (target, line_by_line) in [(1, false), (1, true), (small, false), (small, true), (1000, false)] {
        let what = format!("chunks of at least {target} bytes (line by line: {line_by_line})");
        same_reports(&chunked(input, target, line_by_line), &whole, &what);
    }
}

/// Marks a report whose tags were not kept (see [`chunked`]).
const IDENTITY_UNKNOWN: &str = "\u{0}tags not kept";

/// Asserts that `reports` are `whole`, showing the first that differs.
fn same_reports(reports: &[GameReport], whole: &[GameReport], what: &str) {
    let without_source_lines = |reports: &[GameReport]| {
        let mut reports = reports.to_vec();
        for finding in reports.iter_mut().flat_map(|report| &mut report.findings) {
            finding.source_line = None;
        }
        reports
    };
    let (reports, whole) = if COMPARE_SOURCE_LINES {
        (reports.to_vec(), whole.to_vec())
    } else {
        (without_source_lines(reports), without_source_lines(whole))
    };
    // a game that got its findings from the chunk before has no tags kept
    let mut whole = whole;
    for (report, whole) in reports.iter().zip(whole.iter_mut()) {
        if report.white.as_deref() == Some(IDENTITY_UNKNOWN) {
            (whole.white, whole.black, whole.event, whole.round) =
                (report.white.clone(), report.black.clone(), report.event.clone(), report.round.clone());
        }
    }
    if let Some(i) = (0..reports.len().max(whole.len())).find(|&i| reports.get(i) != whole.get(i)) {
        panic!("{what}: game {} differs\nwhole:  {:#?}\nchunks: {:#?}", i + 1, whole.get(i), reports.get(i));
    }
}

/// Checks what one report says about its game, which comes after the game
/// that starts at `after`.
fn check_report(input: &[u8], newlines: &[usize], report: &GameReport, after: u64) {
    assert!(report.at.offset <= input.len() as u64);
    let mut errors = 0;
    let mut lints = 0;
    for finding in &report.findings {
        match finding.severity() {
            Severity::Error => errors += 1,
            Severity::Warning => lints += 1,
        }
        let offset = finding.at.offset as usize;
        assert!(offset <= input.len(), "{finding:?}");
        assert!(finding.at.offset >= after, "{finding:?} before the game before its game at {:?}", report.at);
        assert_eq!(finding.at, location(newlines, offset), "{finding:?}");
        let shown = finding.source_line.as_ref().expect("source lines were asked for");
        if !shown.cut_before && !shown.cut_after {
            assert_eq!(shown.text, source_line(input, newlines, offset), "{finding:?}");
        }
    }
    assert!(
        report.findings.windows(2).all(|pair| pair[0].at.offset <= pair[1].at.offset),
        "findings in the order of their locations: {:?}",
        report.findings.iter().map(|f| (f.at.line, f.at.column, f.kind.code())).collect::<Vec<_>>()
    );
    assert!(errors <= report.errors && lints <= report.lints, "{report:?}");
    check_findings_cap(report, errors, lints);
}

/// The findings kept per game are capped: at most [`MAX_FINDINGS`], the rest
/// counted in `unlisted`; below the cap, the counts are those of the
/// findings kept (`errors` and `lints`).
fn check_findings_cap(report: &GameReport, errors: u32, lints: u32) {
    assert!(report.findings.len() <= MAX_FINDINGS, "{} findings kept", report.findings.len());
    assert_eq!(
        report.errors + report.lints,
        errors + lints + report.unlisted,
        "the counts are those of the findings kept and those not listed"
    );
    if report.unlisted == 0 {
        assert_eq!((report.errors, report.lints), (errors, lints), "the counts are those of the findings kept");
    }
}

/// The location of `offset` in a whole input whose `\n`s are at `newlines`
/// (columns count every byte, a byte order mark's at the start included).
fn location(newlines: &[usize], offset: usize) -> Location {
    let before = newlines.partition_point(|&newline| newline < offset);
    let line = 1 + before as u32;
    let column = offset - before.checked_sub(1).map_or(0, |i| newlines[i] + 1) + 1;
    Location { line, column: column as u32, offset: offset as u64 }
}

fn line_start(input: &[u8], newlines: &[usize], offset: usize) -> usize {
    let before = newlines.partition_point(|&newline| newline < offset);
    match before.checked_sub(1).map(|i| newlines[i]) {
        Some(newline) => newline + 1,
        None if input.starts_with(b"\xef\xbb\xbf") && offset >= 3 => 3,
        None => 0,
    }
}

/// The line that holds `offset`, without its line end, decoded as UTF-8 or,
/// when it is not, Windows-1252 (as `decode_text` decodes).
fn source_line(input: &[u8], newlines: &[usize], offset: usize) -> String {
    let start = line_start(input, newlines, offset);
    let end = newlines.get(newlines.partition_point(|&newline| newline < start)).copied().unwrap_or(input.len());
    let line = &input[start..end];
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    sanfen::pgn::decode_text(line).into_owned()
}

/// The reports of the chunks of `input`, each chunk validated on its own (as
/// `sanfen check -j N` does).
fn chunked(input: &[u8], target: usize, line_by_line: bool) -> Vec<GameReport> {
    let chunker = Chunker::with_target(input, target);
    let mut chunker = if line_by_line { chunker.line_by_line() } else { chunker };
    let mut reports = Vec::new();
    let mut buffer = Vec::new();
    let mut bytes = 0;
    // findings about the text after a chunk's last game: read whole, they
    // come with the next game (`sanfen check` prints them after the chunk)
    let mut carried: Vec<Finding> = Vec::new();
    while let Some(chunk) = chunker.next_chunk(buffer).expect("reading from memory") {
        bytes += chunk.data.len();
        let mut validator = Validator::with_base(&chunk.data, chunk.start.offset, options(input));
        let mut reader = Reader::with_start(&chunk.data, chunk.start);
        while let Some(mut report) = reader.read_game(&mut validator) {
            if !carried.is_empty() {
                let clean = report.findings.is_empty();
                for finding in &carried {
                    match finding.severity() {
                        Severity::Error => report.errors += 1,
                        Severity::Warning => report.lints += 1,
                    }
                }
                carried.append(&mut report.findings);
                report.findings = std::mem::take(&mut carried);
                // read whole, they would have been the game's first
                // findings, under its cap
                if report.findings.len() > MAX_FINDINGS {
                    report.unlisted += (report.findings.len() - MAX_FINDINGS) as u32;
                    report.findings.truncate(MAX_FINDINGS);
                }
                if clean {
                    // the tags of a game are kept only when it has findings
                    report.white = Some(IDENTITY_UNKNOWN.to_owned());
                }
            }
            reports.push(report);
        }
        carried.extend(validator.take_outside());
        buffer = chunk.data;
    }
    // the summary's byte count: every byte but a byte order mark
    assert_eq!(bytes + if input.starts_with(b"\xef\xbb\xbf") { 3 } else { 0 }, input.len());
    reports
}
