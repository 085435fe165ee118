//! Findings about one input and how they are shown: lines for people (with the
//! input and carets under the spans in a terminal) and JSON Lines for tools.

use std::borrow::Cow;
use std::fmt::Display;
use std::io::{self, Write};
use std::ops::Range;

use sanfen::{Bitboard, Severity};
use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::check::escape;
use super::terminal::{ControlShown, json_to_writer, shown_escaped};

/// One problem of an input, as the library locates it.
pub use sanfen::fen::FenFinding as Finding;

/// How human output looks.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Standard output is a terminal: show the input with carets under the spans.
    pub terminal: bool,
    /// Colour `error` and `warning` (terminal only, and `NO_COLOR` unset).
    pub color: bool,
}

impl Style {
    /// The style for standard output, `terminal` telling whether it is one.
    pub fn for_stdout(terminal: bool) -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty());
        Style { terminal, color: terminal && !no_color }
    }
}

const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[1;33m";
const RESET: &str = "\x1b[0m";

fn label(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn colour(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => RED,
        Severity::Warning => YELLOW,
    }
}

/// Writes the human report of one input: in a terminal, the input (after its
/// number, if `number` is given) and a caret line under the spans; then one line
/// per finding; then `ok` when no finding is an error.
///
/// Outside a terminal only the finding lines and `ok` are written, so the output
/// never depends on the terminal.
///
/// # Errors
///
/// Writing to `out` failed.
pub fn write_human(
    out: &mut impl Write,
    input: &[u8],
    number: Option<usize>,
    findings: &[Finding<'_>],
    style: Style,
) -> io::Result<()> {
    if style.terminal {
        if number.is_some_and(|n| n > 1) {
            out.write_all(b"\n")?;
        }
        let prefix = number.map(|n| format!("{n}: ")).unwrap_or_default();
        let shown = Shown::new(input);
        writeln!(out, "{prefix}{}", shown.text)?;
        if !findings.is_empty() {
            out.write_all(" ".repeat(prefix.len()).as_bytes())?;
            write_carets(out, &shown, findings, style.color)?;
        }
    }
    for finding in findings {
        if style.color {
            write!(out, "{}{}{RESET}", colour(finding.severity), label(finding.severity))?;
        } else {
            out.write_all(label(finding.severity).as_bytes())?;
        }
        write!(out, "[{}]", finding.code)?;
        if let Some(span) = &finding.span {
            write!(out, " at {}..{}", span.start, span.end)?;
        }
        writeln!(out, ": {}", escape(&finding.message.to_string()))?;
    }
    // every input's block ends with its verdict, so consecutive blocks stay apart
    if findings.iter().all(|finding| finding.severity != Severity::Error) {
        out.write_all(b"ok\n")?;
    } else {
        out.write_all(b"invalid\n")?;
    }
    Ok(())
}

/// An input as shown in a terminal: control characters (and the others
/// [`shown_escaped`] names) and bytes that are not UTF-8 escaped (`\r`,
/// `\t`, `\x00`, `\u{202e}`), and the column each byte starts at.
struct Shown {
    text: String,
    /// `columns[i]`: the column of byte `i`; one more entry for the end.
    columns: Vec<usize>,
}

impl Shown {
    fn new(input: &[u8]) -> Shown {
        let mut text = String::with_capacity(input.len());
        let mut columns = Vec::with_capacity(input.len() + 1);
        let mut column = 0;
        for chunk in input.utf8_chunks() {
            for c in chunk.valid().chars() {
                let escaped = match c {
                    '\t' => Cow::Borrowed("\\t"),
                    '\r' => Cow::Borrowed("\\r"),
                    c if shown_escaped(c) => Cow::Owned(ControlShown(c).to_string()),
                    c => Cow::Owned(c.to_string()),
                };
                columns.extend(std::iter::repeat_n(column, c.len_utf8()));
                text.push_str(&escaped);
                column += escaped.chars().count();
            }
            for byte in chunk.invalid() {
                columns.push(column);
                let escaped = format!("\\x{byte:02x}");
                text.push_str(&escaped);
                column += escaped.len();
            }
        }
        columns.push(column);
        Shown { text, columns }
    }

    /// The columns a byte span covers (at least one, for an empty span).
    fn columns(&self, span: &Range<usize>) -> Range<usize> {
        let last = self.columns.len() - 1;
        let start = self.columns[span.start.min(last)];
        let end = self.columns[span.end.min(last)].max(start + 1);
        start..end
    }
}

fn write_carets(out: &mut impl Write, shown: &Shown, findings: &[Finding<'_>], color: bool) -> io::Result<()> {
    // per column, the gravest finding marked there
    let mut marks: Vec<Option<Severity>> = vec![None; shown.columns[shown.columns.len() - 1] + 1];
    for finding in findings {
        let Some(span) = &finding.span else { continue };
        for column in shown.columns(span) {
            let mark = &mut marks[column];
            *mark = Some(mark.map_or(finding.severity, |m| m.min(finding.severity)));
        }
    }
    while marks.last() == Some(&None) {
        marks.pop();
    }
    let mut line = String::new();
    let mut current = None;
    for mark in marks {
        if color && mark != current {
            if current.is_some() {
                line.push_str(RESET);
            }
            if let Some(severity) = mark {
                line.push_str(colour(severity));
            }
            current = mark;
        }
        line.push(if mark.is_some() { '^' } else { ' ' });
    }
    if color && current.is_some() {
        line.push_str(RESET);
    }
    writeln!(out, "{line}")
}

/// Writes the JSON report of one input as one line: `input`, `valid`, `fen` (only
/// when `fen` is `Some`: the canonical FEN, or null), `errors`, `warnings`.
///
/// # Errors
///
/// Writing to `out` failed.
pub fn write_json(
    out: &mut impl Write,
    input: &[u8],
    valid: bool,
    fen: Option<Option<&str>>,
    findings: &[Finding<'_>],
) -> io::Result<()> {
    let report = JsonReport { input: String::from_utf8_lossy(input), bytes: input, valid, fen, findings };
    json_to_writer(&mut *out, &report)?;
    out.write_all(b"\n")
}

struct JsonReport<'r, 'a> {
    input: Cow<'r, str>,
    /// The input as read, which the findings' spans are offsets in.
    bytes: &'r [u8],
    valid: bool,
    fen: Option<Option<&'r str>>,
    findings: &'r [Finding<'a>],
}

impl Serialize for JsonReport<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut report = serializer.serialize_struct("Report", if self.fen.is_some() { 5 } else { 4 })?;
        report.serialize_field("input", &self.input)?;
        report.serialize_field("valid", &self.valid)?;
        if let Some(fen) = self.fen {
            report.serialize_field("fen", &fen)?;
        }
        report.serialize_field("errors", &BySeverity(self.findings, Severity::Error, self.bytes))?;
        report.serialize_field("warnings", &BySeverity(self.findings, Severity::Warning, self.bytes))?;
        report.end()
    }
}

/// The findings of one severity, as a JSON array (the input as read).
struct BySeverity<'r, 'a>(&'r [Finding<'a>], Severity, &'r [u8]);

impl Serialize for BySeverity<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let findings = self.0.iter().filter(|finding| finding.severity == self.1);
        serializer.collect_seq(findings.map(|finding| JsonFinding(finding, self.2)))
    }
}

/// A finding as a JSON object (the input as read).
struct JsonFinding<'r, 'a>(&'r Finding<'a>, &'r [u8]);

impl Serialize for JsonFinding<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut finding = serializer.serialize_struct("Finding", 5)?;
        finding.serialize_field("code", self.0.code)?;
        finding.serialize_field("message", &AsText(&self.0.message))?;
        finding.serialize_field("field", self.0.field.name())?;
        finding.serialize_field("span", &self.0.span.clone().map(|span| span_in_lossy(self.1, span)))?;
        finding.serialize_field("squares", &Squares(self.0.squares))?;
        finding.end()
    }
}

/// A value serialised as its `Display` text.
struct AsText<T>(T);

impl<T: Display> Serialize for AsText<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

/// Squares as an array of names, `["e1", "h1"]`.
struct Squares(Bitboard);

impl Serialize for Squares {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.into_iter().map(AsText))
    }
}

/// A span of byte offsets in `bytes` as byte offsets in the text JSON shows
/// for them, `String::from_utf8_lossy(bytes)` (each invalid sequence one
/// U+FFFD, three bytes): the same span when `bytes` is UTF-8; an invalid
/// sequence the span starts or ends inside is wholly in it.
///
/// ```text
/// span_in_lossy(b"\xff\xfe w", 0..2) == [0, 6]   // "\u{fffd}\u{fffd} w"
/// ```
pub fn span_in_lossy(bytes: &[u8], span: Range<usize>) -> [usize; 2] {
    if str::from_utf8(bytes).is_ok() {
        return [span.start, span.end];
    }
    // the offset in the text of byte `at`: of the start of its U+FFFD, or
    // with `up` of its end, when `at` is inside an invalid sequence
    let offset = |at: usize, up: bool| {
        let (mut from, mut to) = (0, 0);
        for chunk in bytes.utf8_chunks() {
            let valid = chunk.valid().len();
            if at <= from + valid {
                return to + (at - from);
            }
            (from, to) = (from + valid, to + valid);
            let invalid = chunk.invalid().len();
            if at < from + invalid {
                return if up { to + 3 } else { to };
            }
            (from, to) = (from + invalid, to + 3);
        }
        to + at.saturating_sub(from)
    };
    [offset(span.start, false), offset(span.end, true)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_escapes_and_counts_columns() {
        let shown = Shown::new(b"a\tb\r\xffc\xc3\xa9");
        assert_eq!(shown.text, "a\\tb\\r\\xffcé");
        assert_eq!(shown.columns, [0, 1, 3, 4, 6, 10, 11, 11, 12]);
        assert_eq!(shown.columns(&(1..2)), 1..3);
        assert_eq!(shown.columns(&(9..9)), 12..13);
        // a control as the messages show it; a bidirectional control too
        let shown = Shown::new("\x1bK\u{202e}".as_bytes());
        assert_eq!(shown.text, "\\x1bK\\u{202e}");
        assert_eq!(shown.columns, [0, 4, 5, 5, 5, 13]);
    }
}
