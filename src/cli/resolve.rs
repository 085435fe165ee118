//! `sanfen resolve`: how a SAN token is read against a position. The
//! readings, every candidate origin square kept or rejected with its reason,
//! the outcome (the move, or why not and what was probably meant), the lint
//! findings, and the FEN after the move.
//!
//! Also what `apply` shares with it: the lint findings and failures of one
//! token, as the report and JSON show them.

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};

use sanfen::Position;
use sanfen::lint::{Level, LintPolicy};
use sanfen::resolve::{MoveLint, Resolution, SanError, resolve_text};
use sanfen::san::{Letters, ParseSanError, SanLint, SanOptions, SanPlus};
use serde::Serialize;

use super::check::escape;
use super::moves;
use super::report::span_in_lossy;
use super::terminal::json_to_writer;
use super::{Error, ExitCode, LintArgs, PositionArgs, input};

/// `sanfen resolve`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Read piece letters of this language: en, pt, es, fr, de, it, nl (the
    /// report writes English SAN).
    #[arg(long, value_name = "LANG", default_value = "en")]
    letters: Letters,
    /// Any lint finding is an error (but those `--allow` names): exit code 1
    /// unless the input is canonical SAN.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    lints: LintArgs,
    /// One JSON object per SAN on stdout (JSON Lines) and nothing else.
    #[arg(long)]
    json: bool,
    /// The moves to resolve, each against the same position; none, or `-`,
    /// reads one per line of standard input.
    #[arg(value_name = "SAN")]
    sans: Vec<OsString>,
}

/// A lint finding of a token: a spelling finding of the parser (located) or a
/// finding of the resolver about the move (missing `x`, `+`, ...).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lint {
    /// A stable identifier: `san:castling-zeros`, `san:missing-check`, ...
    pub code: &'static str,
    /// What is not canonical and what SAN writes.
    pub message: String,
    /// The canonical spelling: of the offending part for a spelling finding
    /// (`O-O`, `=Q`, or empty when SAN leaves the part out), of the whole move
    /// for a finding of the resolver.
    pub canonical: String,
    /// Byte offsets of the part in the input, end exclusive; `None` for a
    /// finding about the whole move.
    pub span: Option<[usize; 2]>,
    /// Whether the policy makes it an error (`--strict`, `--deny`).
    #[serde(skip)]
    pub denied: bool,
}

impl Lint {
    /// Writes `code at START..END: message` (no span for findings about the
    /// whole move), the body of a `warning[...]`/`error[...]` line.
    fn write_located(&self, out: &mut impl Write, severity: &str) -> io::Result<()> {
        write!(out, "{severity}[{}]", self.code)?;
        if let Some([start, end]) = self.span {
            write!(out, " at {start}..{end}")?;
        }
        writeln!(out, ": {}", escape(&self.message))
    }
}

/// The lint findings of a token that `policy` does not allow, spelling
/// first (in input order), then those about the move (`canonical`: its
/// canonical SAN).
pub fn lints(spelling: &[SanLint], moves: &[MoveLint], canonical: Option<&SanPlus>, policy: LintPolicy) -> Vec<Lint> {
    let syntax = spelling.iter().map(|lint| Lint {
        code: lint.code(),
        message: lint.to_string(),
        canonical: lint.canonical.clone(),
        span: Some([lint.span.start, lint.span.end]),
        denied: false,
    });
    let san = canonical.map(ToString::to_string).unwrap_or_default();
    let moves = moves.iter().map(|lint| Lint {
        code: lint.code(),
        message: format!("{lint}; SAN writes {san}"),
        canonical: san.clone(),
        span: None,
        denied: false,
    });
    syntax
        .chain(moves)
        .filter_map(|lint| match policy.level(lint.code) {
            Level::Allow => None,
            Level::Warn => Some(lint),
            Level::Deny => Some(Lint { denied: true, ..lint }),
        })
        .collect()
}

/// Why a token names no move, as JSON shows it (`kind` and the data a tool
/// can act on).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Failure {
    /// No legal move fits.
    Illegal {
        /// The whole diagnostic, as the text output shows it.
        message: String,
        /// The legal moves closest to the input, best first, in SAN.
        suggestions: Vec<String>,
    },
    /// More than one legal move fits.
    Ambiguous {
        /// The whole diagnostic.
        message: String,
        /// The canonical SAN of each fitting move.
        spellings: Vec<String>,
    },
    /// The text is not a move.
    Syntax {
        /// The whole diagnostic.
        message: String,
        /// Byte offsets of the problem in the input, end exclusive.
        span: [usize; 2],
    },
}

impl Failure {
    /// The failure of a resolution.
    pub fn of(error: &SanError) -> Failure {
        let message = error.to_string();
        match error {
            SanError::Illegal { suggestions, .. } => Failure::Illegal { message, suggestions: suggestions.clone() },
            SanError::Ambiguous { spellings, .. } => Failure::Ambiguous { message, spellings: spellings.clone() },
        }
    }

    /// The failure of a token that is not a move.
    pub fn syntax(error: &ParseSanError) -> Failure {
        Failure::Syntax { message: error.to_string(), span: [error.span.start, error.span.end] }
    }

    /// The diagnostic, as the text output shows it.
    pub fn message(&self) -> &str {
        match self {
            Failure::Illegal { message, .. } | Failure::Ambiguous { message, .. } | Failure::Syntax { message, .. } => {
                message
            }
        }
    }
}

/// A move in the two notations the reports name it in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Played {
    /// Canonical SAN, with `+`/`#`.
    pub san: String,
    /// UCI (castling king to rook with `--chess960`).
    pub uci: String,
}

/// One candidate origin square and its verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
struct CandidateReport {
    from: String,
    kept: bool,
    reason: Option<String>,
}

/// The report on one token: the text output and the JSON object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
struct Report {
    input: String,
    fen: String,
    readings: Vec<String>,
    candidates: Vec<CandidateReport>,
    #[serde(rename = "move")]
    played: Option<Played>,
    error: Option<Failure>,
    lints: Vec<Lint>,
    fen_after: Option<String>,
}

impl Report {
    /// Resolves `text` in `position` and reports.
    fn new(position: &Position, text: &[u8], options: SanOptions, policy: LintPolicy) -> Report {
        let mut report = Report {
            input: String::from_utf8_lossy(text).into_owned(),
            fen: position.fen().to_string(),
            readings: Vec::new(),
            candidates: Vec::new(),
            played: None,
            error: None,
            lints: Vec::new(),
            fen_after: None,
        };
        let resolved = match resolve_text(position, text, options) {
            Ok(resolved) => resolved,
            Err(error) => {
                let mut failure = Failure::syntax(&error);
                if let Failure::Syntax { span, .. } = &mut failure {
                    // (offsets in the input shown)
                    *span = span_in_lossy(text, error.span);
                }
                report.error = Some(failure);
                return report;
            }
        };
        report.readings = resolved.parsed.readings.iter().map(ToString::to_string).collect();
        let Resolution { candidates, outcome, canonical, .. } = &resolved.resolution;
        report.candidates = candidates
            .iter()
            .map(|candidate| CandidateReport {
                from: candidate.from.to_string(),
                kept: candidate.rejection.is_none(),
                reason: candidate.rejection.as_ref().map(ToString::to_string),
            })
            .collect();
        match outcome {
            Ok(m) => {
                report.played = Some(Played {
                    san: canonical.as_ref().map(ToString::to_string).unwrap_or_default(),
                    uci: m.to_uci(position.castling_mode()).to_string(),
                });
                report.fen_after = position.play(*m).ok().map(|after| after.fen().to_string());
            }
            Err(error) => report.error = Some(Failure::of(error)),
        }
        let resolution = &resolved.resolution;
        report.lints = lints(&resolved.syntax_lints, &resolution.lints, resolution.canonical.as_ref(), policy);
        report
    }

    /// Whether the token resolved with no lint finding the policy denies.
    fn is_valid(&self) -> bool {
        self.played.is_some() && !self.lints.iter().any(|lint| lint.denied)
    }

    /// The text report: one labelled line per fact.
    fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "input: {}", escape(&self.input))?;
        match self.readings.as_slice() {
            [] => {}
            [reading] => writeln!(out, "reading: {reading}")?,
            readings => writeln!(out, "readings: {}", readings.join(", "))?,
        }
        for candidate in &self.candidates {
            writeln!(out, "candidate {}: {}", candidate.from, candidate.reason.as_deref().unwrap_or("kept"))?;
        }
        match (&self.played, &self.error) {
            (Some(played), _) => writeln!(out, "move: {} ({})", played.san, played.uci)?,
            (None, Some(error)) => writeln!(out, "{}", escape(error.message()))?,
            (None, None) => {}
        }
        for lint in &self.lints {
            lint.write_located(out, if lint.denied { "error" } else { "warning" })?;
        }
        if let Some(fen) = &self.fen_after {
            writeln!(out, "fen after: {fen}")?;
        }
        Ok(())
    }
}

/// Shown before waiting for moves typed in a terminal.
const HINT: input::Hint = input::Hint {
    command: "sanfen resolve",
    reads: "one SAN per line",
    instead: "sanfen resolve SAN... to give them as arguments",
};

/// `sanfen resolve`: one report per SAN (text blocks separated by an empty
/// line, or JSON Lines).
///
/// # Errors
///
/// Reading the input or writing the output failed.
pub fn run(args: &Args) -> Result<ExitCode, Error> {
    let position = match moves::position(args.position.fen.as_ref(), args.position.chess960, args.json) {
        Ok(position) => position,
        Err(outcome) => return outcome,
    };
    let options = SanOptions { strict: false, letters: args.letters };
    let policy = args.lints.policy(args.strict)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut code = ExitCode::Valid;
    let mut first = true;
    input::for_each(&args.sans, &HINT, |text| {
        let report = Report::new(&position, text, options, policy);
        code = code.and_valid(report.is_valid());
        if args.json {
            json_to_writer(&mut out, &report).map_err(io::Error::from).map_err(Error::Output)?;
            out.write_all(b"\n").map_err(Error::Output)?;
        } else {
            if !first {
                out.write_all(b"\n").map_err(Error::Output)?;
            }
            report.write_text(&mut out).map_err(Error::Output)?;
        }
        first = false;
        Ok(())
    })?;
    out.flush().map_err(Error::Output)?;
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Position {
        Position::default()
    }

    fn text(report: &Report) -> String {
        let mut out = Vec::new();
        report.write_text(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn report_of_a_move_with_a_spelling_finding() {
        let lenient = Report::new(&start(), b"Ng1-f3", SanOptions::LENIENT, LintPolicy::default());
        assert!(lenient.is_valid());
        assert!(text(&lenient).contains("\nwarning[san:long-algebraic] at 3..4: "));
        let report = Report::new(&start(), b"Ng1-f3", SanOptions::LENIENT, LintPolicy::strict());
        assert_eq!(
            report.lints,
            [
                Lint {
                    code: "san:long-algebraic",
                    message: "`-` between the origin and the destination (long algebraic); SAN leaves it out".into(),
                    canonical: String::new(),
                    span: Some([3, 4]),
                    denied: true,
                },
                Lint {
                    code: "san:over-disambiguated",
                    message: "origin given where no other piece could make the move; SAN writes Nf3".into(),
                    canonical: "Nf3".into(),
                    span: None,
                    denied: true,
                }
            ]
        );
        assert!(!report.is_valid());
        assert_eq!(
            text(&report),
            "input: Ng1-f3\nreading: Ng1f3\ncandidate b1: excluded by the given file\ncandidate g1: kept\n\
             move: Nf3 (g1f3)\n\
             error[san:long-algebraic] at 3..4: `-` between the origin and the destination (long algebraic); SAN leaves it out\n\
             error[san:over-disambiguated]: origin given where no other piece could make the move; SAN writes Nf3\n\
             fen after: rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1\n"
        );
    }

    #[test]
    fn report_of_text_that_is_no_move() {
        let report = Report::new(&start(), b"Nz9", SanOptions::LENIENT, LintPolicy::default());
        assert!(report.readings.is_empty() && report.candidates.is_empty() && report.played.is_none());
        assert!(matches!(report.error, Some(Failure::Syntax { span: [1, 2], .. })), "{:?}", report.error);
        assert!(!report.is_valid());
    }

    #[test]
    fn allowed_lints_are_not_reported_and_denied_ones_are_errors() {
        let mut policy = LintPolicy::default();
        policy.allow("san:long-algebraic").unwrap();
        policy.deny("san:over-disambiguated").unwrap();
        let report = Report::new(&start(), b"Ng1-f3", SanOptions::LENIENT, policy);
        assert_eq!(
            report.lints.iter().map(|lint| (lint.code, lint.denied)).collect::<Vec<_>>(),
            [("san:over-disambiguated", true)]
        );
        assert!(!report.is_valid());
        let mut policy = LintPolicy::default();
        policy.allow("san").unwrap();
        let report = Report::new(&start(), b"Ng1-f3", SanOptions::LENIENT, policy);
        assert!(report.lints.is_empty() && report.is_valid());
    }
}
