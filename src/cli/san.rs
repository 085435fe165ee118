//! `sanfen san`: parse each SAN token without a position and show what it says.
//!
//! Out of a terminal, one line per token: the canonical SAN and the move in
//! words (`Nbd7 knight from b to d7`), then any lint finding (`; warning[...]`);
//! or the error (`error[san:syntax] at 2..3: ...`). In a terminal, the token
//! with carets under the findings, then one line each. `--json`: one object
//! per token.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};

use sanfen::san::{
    CastlingSide, Letters, ParseSanError, ParsedSan, San, SanLint, SanOptions, SanPlus, Suffix, parse_canonical,
    parse_san,
};
use serde_json::{Value, json};

use super::report::{Style, span_in_lossy};
use super::terminal::json_to_writer;
use super::{Error, ExitCode, input};

/// The code of every syntax error.
const SYNTAX_CODE: &str = "san:syntax";

/// `sanfen san`'s arguments.
#[derive(Debug, clap::Args)]
pub struct SanArgs {
    /// Accept only canonical PGN SAN (English letters; `Nf3`, `exd5`, `e8=Q`, `O-O`).
    #[arg(long)]
    strict: bool,
    /// Read piece letters of this language: en, pt, es, fr, de, it, nl (canonical
    /// output is English).
    #[arg(long, value_name = "LANG", default_value = "en", value_parser = parse_letters)]
    letters: Letters,
    /// One JSON object per token on stdout (JSON Lines) and nothing else.
    #[arg(long)]
    json: bool,
    /// SAN tokens; none, or `-`, reads one token per line of standard input.
    /// (A null move `--` as an argument comes after `--`: `sanfen san -- --`.)
    #[arg(value_name = "SAN")]
    sans: Vec<OsString>,
}

fn parse_letters(name: &str) -> Result<Letters, String> {
    Letters::from_name(name).ok_or_else(|| format!("unknown language {name:?}: expected en, pt, es, fr, de, it or nl"))
}

/// Output is written in blocks of about this size.
const BLOCK: usize = 1 << 16;

/// Room for the longest line of one reading without findings (about 110 bytes).
const LINE: usize = 128;

/// Shown before waiting for tokens typed in a terminal.
const HINT: input::Hint = input::Hint {
    command: "sanfen san",
    reads: "one SAN token per line",
    instead: "sanfen san TOKEN... to give them as arguments",
};

/// `sanfen san`: a report per token.
///
/// # Errors
///
/// Reading the input or writing the output failed.
pub fn run(args: &SanArgs) -> Result<ExitCode, Error> {
    let options = SanOptions { strict: args.strict, letters: args.letters };
    let stdout = io::stdout();
    let style = Style::for_stdout(stdout.is_terminal());
    let mut out = Output::new(stdout.lock());
    let mut scratch = Vec::new();
    let mut code = ExitCode::Valid;
    // canonical SAN out of a terminal: one line of one reading, written in place
    let plain = !args.json && !style.terminal;
    let letters = if args.strict { Letters::English } else { args.letters };
    let read = input::for_each(&args.sans, &HINT, |token| {
        if plain && let Some(san_plus) = parse_canonical(token, letters) {
            out.simple_line(&san_plus);
            return out.flush_if_full().map_err(Error::Output);
        }
        let parsed = parse_san(token, options);
        code = code.and_valid(parsed.is_ok());
        scratch.clear();
        if args.json {
            write_json(&mut scratch, token, &parsed);
        } else if style.terminal {
            write_terminal(&mut scratch, token, &parsed, style);
        } else {
            write_line(&mut scratch, &parsed);
        }
        out.extend(&scratch).map_err(Error::Output)?;
        if style.terminal { out.flush() } else { out.flush_if_full() }.map_err(Error::Output)
    });
    // the answers to the lines before a read error too
    out.flush().map_err(Error::Output)?;
    read.map(|()| code)
}

/// Standard output, gathered in one block that is written when full.
struct Output<W> {
    out: W,
    /// `BLOCK + LINE` bytes: a line always fits after less than `BLOCK`.
    bytes: Box<[u8]>,
    len: usize,
    /// Lines already written, by move (see [`Lines`]).
    lines: Lines,
}

impl<W: Write> Output<W> {
    fn new(out: W) -> Output<W> {
        Output { out, bytes: vec![0; BLOCK + LINE].into_boxed_slice(), len: 0, lines: Lines::new() }
    }

    /// The line of one reading without findings: copied from [`Lines`] when
    /// the same move was written recently, else written in place.
    #[inline]
    fn simple_line(&mut self, reading: &SanPlus) {
        let window: &mut [u8; LINE] =
            (&mut self.bytes[self.len..self.len + LINE]).try_into().unwrap_or_else(|_| unreachable!());
        let key = Lines::key(reading);
        let index = Lines::index(key);
        let (Some(known), Some(slot)) = (self.lines.keys.get_mut(index), self.lines.slots.get_mut(index)) else {
            unreachable!("the index is a hash of BITS bits")
        };
        if *known == key {
            window[..SLOT].copy_from_slice(&slot.line);
            self.len += usize::from(slot.len);
            return;
        }
        let mut line = Line { bytes: window, len: 0 };
        line.reading(reading);
        line.text(b"\n");
        let len = line.len;
        if len <= SLOT {
            *known = key;
            slot.len = len as u8;
            slot.line.copy_from_slice(&window[..SLOT]);
        }
        self.len += len;
    }

    fn extend(&mut self, data: &[u8]) -> io::Result<()> {
        if self.len + data.len() > self.bytes.len() {
            self.flush()?;
        }
        if data.len() > self.bytes.len() {
            return self.out.write_all(data);
        }
        self.bytes[self.len..self.len + data.len()].copy_from_slice(data);
        self.len += data.len();
        Ok(())
    }

    #[inline]
    fn flush_if_full(&mut self) -> io::Result<()> {
        if self.len >= BLOCK { self.flush() } else { Ok(()) }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.write_all(&self.bytes[..self.len])?;
        self.len = 0;
        self.out.flush()
    }
}

/// The bytes of a line kept in [`Lines`] (longer lines are not kept): a slot
/// and its length fill one cache line.
const SLOT: usize = 63;

/// The lines of recently written moves, by move: real move lists repeat a
/// few thousand moves, so most lines are copied rather than written again
/// (every token is still parsed; only the writing of a move is reused).
/// Direct-mapped: a move's slot is a hash of its key; a new move replaces
/// the one in its slot.
struct Lines {
    /// The [`Lines::key`] of the move in each slot, or 0 for none (no move has
    /// key 0): apart from the lines, so the lookup stays in the L1 cache.
    keys: Box<[u32]>,
    slots: Box<[Slot]>,
}

#[derive(Clone)]
#[repr(C, align(64))]
struct Slot {
    line: [u8; SLOT],
    len: u8,
}

impl Lines {
    const BITS: u32 = 12;

    fn new() -> Lines {
        Lines {
            keys: vec![0; 1 << Self::BITS].into_boxed_slice(),
            slots: vec![Slot { line: [0; SLOT], len: 0 }; 1 << Self::BITS].into_boxed_slice(),
        }
    }

    /// Every field of a move in one number, never 0: the line depends on
    /// nothing else.
    #[inline]
    fn key(reading: &SanPlus) -> u32 {
        let square = |square: sanfen::Square| square as u32;
        let role = |role: Option<sanfen::Role>| role.map_or(0, |role| role as u32);
        let san = match reading.san {
            San::Normal { role: piece, file, rank, capture, to, promotion } => {
                (piece as u32)
                    | file.map_or(0, |file| file as u32 + 1) << 3
                    | rank.map_or(0, |rank| rank as u32 + 1) << 7
                    | u32::from(capture) << 11
                    | square(to) << 12
                    | role(promotion) << 18
            }
            San::Squares { from, to, capture, promotion } => {
                7 | square(from) << 3 | u32::from(capture) << 11 | square(to) << 12 | role(promotion) << 18
            }
            San::Castle(side) => (side as u32 + 1) << 3,
            San::Null => 3 << 3,
        };
        let suffix = reading.suffix.map_or(0, |suffix| suffix as u32 + 1);
        let annotation = reading.annotation.map_or(0, |annotation| u32::from(annotation.nag()));
        san | suffix << 21 | annotation << 23 | u32::from(reading.en_passant_mark) << 26
    }

    #[inline]
    fn index(key: u32) -> usize {
        (key.wrapping_mul(0x9E37_79B1) >> (32 - Self::BITS)) as usize
    }
}

/// A line being written into a buffer with room to spare, in fixed-size
/// chunks: each chunk is always stored, and the length advances by as much of
/// it as belongs to the line (nothing, for a part the move does not have), so
/// the next chunk overwrites the rest. No branch per part and no call to
/// `memcpy`: the parts of consecutive moves vary too much for branches to be
/// predicted.
struct Line<'a> {
    bytes: &'a mut [u8; LINE],
    len: usize,
}

/// The words for a role, padded.
const ROLE_NAMES: [(&[u8; 8], usize); 6] =
    [(b"pawn    ", 4), (b"knight  ", 6), (b"bishop  ", 6), (b"rook    ", 4), (b"queen   ", 5), (b"king    ", 4)];

impl Line<'_> {
    #[inline(always)]
    fn chunk<const N: usize>(&mut self, chunk: &[u8; N], used: usize) {
        self.bytes[self.len..self.len + N].copy_from_slice(chunk);
        self.len += used;
    }

    #[inline(always)]
    fn text<const N: usize>(&mut self, text: &[u8; N]) {
        self.chunk(text, N);
    }

    #[inline(always)]
    fn text_if<const N: usize>(&mut self, text: &[u8; N], present: bool) {
        self.chunk(text, N * usize::from(present));
    }

    #[inline(always)]
    fn byte_if(&mut self, byte: u8, present: bool) {
        self.chunk(&[byte], usize::from(present));
    }

    #[inline(always)]
    fn square(&mut self, square: sanfen::Square) {
        self.text(&[square.file().char() as u8, square.rank().char() as u8]);
    }

    #[inline(always)]
    fn role_if(&mut self, role: sanfen::Role, present: bool) {
        let (name, len) = ROLE_NAMES[role.index()];
        self.chunk(name, len * usize::from(present));
    }

    #[inline(always)]
    fn promotion(&mut self, promotion: Option<sanfen::Role>) {
        self.text_if(b" promotes to ", promotion.is_some());
        self.role_if(promotion.unwrap_or(sanfen::Role::Queen), promotion.is_some());
    }

    #[inline(always)]
    fn verb(&mut self, capture: bool) {
        const VERBS: [(&[u8; 7], usize); 2] = [(b" to    ", 4), (b" takes ", 7)];
        let (verb, len) = VERBS[usize::from(capture)];
        self.chunk(verb, len);
    }

    /// `Nbd7 knight from b to d7`: the canonical SAN, then the move in words
    /// (`pawn from e takes d5`, `pawn to e8 promotes to queen, check`,
    /// `castles king-side`, `from g1 to f3`, `null move`).
    #[inline]
    fn reading(&mut self, san_plus: &SanPlus) {
        let window: &mut [u8; 16] =
            (&mut self.bytes[self.len..self.len + 16]).try_into().unwrap_or_else(|_| unreachable!());
        self.len += san_plus.write_ascii(window);
        self.text(b" ");
        match san_plus.san {
            San::Normal { role, file, rank, capture, to, promotion } => {
                self.role_if(role, true);
                self.text_if(b" from ", file.is_some() | rank.is_some());
                self.byte_if(file.map_or(b'a', |file| file.char() as u8), file.is_some());
                self.byte_if(rank.map_or(b'1', |rank| rank.char() as u8), rank.is_some());
                self.verb(capture);
                self.square(to);
                self.promotion(promotion);
            }
            San::Squares { from, to, capture, promotion } => {
                self.text(b"from ");
                self.square(from);
                self.verb(capture);
                self.square(to);
                self.promotion(promotion);
            }
            San::Castle(CastlingSide::KingSide) => self.text(b"castles king-side"),
            San::Castle(CastlingSide::QueenSide) => self.text(b"castles queen-side"),
            San::Null => self.text(b"null move"),
        }
        self.text_if(b", en passant", san_plus.en_passant_mark);
        const SUFFIXES: [(&[u8; 11], usize); 3] = [(b"           ", 0), (b", check    ", 7), (b", checkmate", 11)];
        let suffix = match san_plus.suffix {
            None => 0,
            Some(Suffix::Check) => 1,
            Some(Suffix::Checkmate) => 2,
        };
        let (text, len) = SUFFIXES[suffix];
        self.chunk(text, len);
        const ANNOTATIONS: [(&[u8; 13], usize); 7] = [
            (b"             ", 0),
            (b", good       ", 6),
            (b", mistake    ", 9),
            (b", brilliant  ", 11),
            (b", blunder    ", 9),
            (b", speculative", 13),
            (b", dubious    ", 9),
        ];
        let (text, len) = ANNOTATIONS[san_plus.annotation.map_or(0, |annotation| usize::from(annotation.nag()))];
        self.chunk(text, len);
    }
}

/// One line: the readings (canonical SAN and words), then the lint findings;
/// or the error.
fn write_line(out: &mut Vec<u8>, parsed: &Result<ParsedSan, ParseSanError>) {
    match parsed {
        Ok(parsed) => {
            write_readings(out, parsed);
            for lint in parsed.lints_for(parsed.readings.len() - 1) {
                out.extend_from_slice(b"; ");
                write_lint(out, &lint);
            }
        }
        Err(err) => write_error(out, err),
    }
    out.push(b'\n');
}

/// `Nf3 knight to f3`, or two readings joined by ` | `.
fn write_readings(out: &mut Vec<u8>, parsed: &ParsedSan) {
    for (i, reading) in parsed.readings.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b" | ");
        }
        let mut bytes = [0; LINE];
        let mut line = Line { bytes: &mut bytes, len: 0 };
        line.reading(reading);
        let len = line.len;
        out.extend_from_slice(&bytes[..len]);
    }
}

fn write_lint(out: &mut Vec<u8>, lint: &SanLint) {
    let _ = write!(out, "warning[{}] at {}..{}: {lint}", lint.code(), lint.span.start, lint.span.end);
}

fn write_error(out: &mut Vec<u8>, err: &ParseSanError) {
    let _ = write!(out, "error[{SYNTAX_CODE}] at {}..{}: found ", err.span.start, err.span.end);
    if err.found.is_empty() {
        out.extend_from_slice(b"nothing");
    } else {
        let _ = write!(out, "{:?}", err.found);
    }
    let _ = write!(out, ", expected {}", err.expected);
}

/// In a terminal: the token, carets under the spans of the findings, the
/// readings, then one line per finding.
fn write_terminal(out: &mut Vec<u8>, token: &[u8], parsed: &Result<ParsedSan, ParseSanError>, style: Style) {
    let shown = String::from_utf8_lossy(token);
    let _ = writeln!(out, "{}", shown.escape_debug());
    let (spans, color) = match parsed {
        Ok(parsed) => (parsed.lints_for(parsed.readings.len() - 1).into_iter().map(|l| l.span).collect(), YELLOW),
        Err(err) => (vec![err.span.clone()], RED),
    };
    if !spans.is_empty() {
        // one caret per character (escaped characters take their escape's width)
        let mut line = String::new();
        for (at, c) in shown.char_indices() {
            let width = c.escape_debug().count();
            let marked = spans.iter().any(|span| span.contains(&at) || (span.is_empty() && span.start == at));
            line.extend(std::iter::repeat_n(if marked { '^' } else { ' ' }, width));
        }
        if spans.iter().any(|span| span.is_empty() && span.start >= token.len()) {
            line.push('^');
        }
        let line = line.trim_end();
        if style.color {
            let _ = writeln!(out, "{color}{line}{RESET}");
        } else {
            let _ = writeln!(out, "{line}");
        }
    }
    match parsed {
        Ok(parsed) => {
            write_readings(out, parsed);
            out.push(b'\n');
            for lint in parsed.lints_for(parsed.readings.len() - 1) {
                write_lint(out, &lint);
                out.push(b'\n');
            }
        }
        Err(err) => {
            write_error(out, err);
            out.push(b'\n');
        }
    }
}

const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[1;33m";
const RESET: &str = "\x1b[0m";

/// One JSON object: `input`, `valid`, `readings` (each with its `warnings`),
/// `errors`.
fn write_json(out: &mut Vec<u8>, token: &[u8], parsed: &Result<ParsedSan, ParseSanError>) {
    let (readings, errors) = match parsed {
        Ok(parsed) => {
            let readings = (parsed.readings.iter().enumerate())
                .map(|(i, reading)| reading_json(reading, &parsed.lints_for(i), token));
            (readings.collect(), Vec::new())
        }
        Err(err) => (
            Vec::new(),
            vec![json!({
                "code": SYNTAX_CODE,
                "message": err.to_string(),
                "span": span_in_lossy(token, err.span.clone()),
                "found": err.found,
                "expected": err.expected,
            })],
        ),
    };
    let report = json!({
        "input": String::from_utf8_lossy(token),
        "valid": parsed.is_ok(),
        "readings": readings,
        "errors": errors,
    });
    let _ = json_to_writer(&mut *out, &report);
    out.push(b'\n');
}

/// A reading as JSON, its lints' spans in `token` as read.
fn reading_json(reading: &SanPlus, lints: &[SanLint], token: &[u8]) -> Value {
    let square = |square: sanfen::Square| square.to_string();
    let role = |role: Option<sanfen::Role>| role.map(sanfen::Role::name);
    let mut value = match reading.san {
        San::Normal { role: piece, file, rank, capture, to, promotion } => json!({
            "kind": "normal",
            "role": piece.name(),
            "file": file.map(|file| file.char().to_string()),
            "rank": rank.map(|rank| rank.char().to_string()),
            "capture": capture,
            "to": square(to),
            "promotion": role(promotion),
        }),
        San::Squares { from, to, capture, promotion } => json!({
            "kind": "squares",
            "from": square(from),
            "to": square(to),
            "capture": capture,
            "promotion": role(promotion),
        }),
        San::Castle(side) => json!({
            "kind": "castle",
            "side": match side {
                CastlingSide::KingSide => "king-side",
                CastlingSide::QueenSide => "queen-side",
            },
        }),
        San::Null => json!({ "kind": "null" }),
    };
    let warnings: Vec<Value> = lints
        .iter()
        .map(|lint| {
            json!({
                "code": lint.code(),
                "message": lint.to_string(),
                "span": span_in_lossy(token, lint.span.clone()),
                "canonical": lint.canonical,
            })
        })
        .collect();
    if let Value::Object(map) = &mut value {
        map.insert("san".to_owned(), Value::from(reading.to_string()));
        map.insert(
            "suffix".to_owned(),
            json!(reading.suffix.map(|suffix| match suffix {
                Suffix::Check => "check",
                Suffix::Checkmate => "checkmate",
            })),
        );
        map.insert("annotation".to_owned(), json!(reading.annotation.map(|a| a.as_str())));
        map.insert("en_passant_mark".to_owned(), Value::from(reading.en_passant_mark));
        map.insert("warnings".to_owned(), Value::from(warnings));
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(token: &str, options: SanOptions) -> String {
        let mut out = Vec::new();
        write_line(&mut out, &parse_san(token.as_bytes(), options));
        String::from_utf8(out).unwrap()
    }

    fn terminal(token: &str, color: bool) -> String {
        let mut out = Vec::new();
        let parsed = parse_san(token.as_bytes(), SanOptions::LENIENT);
        write_terminal(&mut out, token.as_bytes(), &parsed, Style { terminal: true, color });
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn lines_in_words() {
        let cases = [
            ("Nf3", "Nf3 knight to f3\n"),
            ("Nbd7", "Nbd7 knight from b to d7\n"),
            ("exd5", "exd5 pawn from e takes d5\n"),
            ("Qh4xe1#!!", "Qh4xe1#!! queen from h4 takes e1, checkmate, brilliant\n"),
            ("e8=Q+", "e8=Q+ pawn to e8 promotes to queen, check\n"),
            ("O-O-O", "O-O-O castles queen-side\n"),
            ("--", "-- null move\n"),
            (
                "bc4",
                "bxc4 pawn from b to c4 | Bc4 bishop to c4; warning[san:lowercase-piece] at 0..1: lowercase piece letter; SAN writes B\n",
            ),
            (
                "e7e8q",
                "e7e8=Q from e7 to e8 promotes to queen; warning[san:coordinates] at 0..4: squares without a piece letter (coordinate or UCI notation); SAN names the piece, which needs the position; warning[san:promotion-without-equals] at 4..5: promotion without `=`; SAN writes =Q\n",
            ),
            (
                "exd6 e.p.",
                "exd6 pawn from e takes d6, en passant; warning[san:en-passant-suffix] at 4..9: en passant mark; SAN leaves it out\n",
            ),
            ("Nf9", "error[san:syntax] at 2..3: found \"9\", expected a file a-h, a rank 1-8 or `x`\n"),
            ("", "error[san:syntax] at 0..0: found nothing, expected a move such as e4, Nf3, exd5, e8=Q or O-O\n"),
        ];
        for (token, expected) in cases {
            assert_eq!(line(token, SanOptions::LENIENT), expected, "{token:?}");
        }
    }

    /// The line of a reading, written in place, copied from the cache, and
    /// written by the general path: always the same bytes.
    #[test]
    fn cached_lines_are_the_lines() {
        let mut out = Output::new(Vec::new());
        let tokens = [
            "Nf3",
            "exd5",
            "e8=Q+",
            "O-O",
            "O-O-O",
            "--",
            "Qh4xe1#!!",
            "a1=N#?!",
            "e2e4",
            "Kxe2",
            "Nf3",
            "O-O",
            "e8=Q+",
            "b8=R",
            "O-O-O",
            "--",
            "g1f3",
            "exd6 e.p.",
            "exd6 e.p.",
            "Ra1",
            "Ra1",
        ];
        let mut expected = Vec::new();
        for token in tokens {
            let parsed = parse_san(token.as_bytes(), SanOptions::LENIENT).unwrap();
            out.simple_line(&parsed.readings[0]);
            let mut line = Vec::new();
            write_readings(&mut line, &parsed);
            line.push(b'\n');
            expected.extend(line);
        }
        let written = out.bytes[..out.len].to_vec();
        assert_eq!(String::from_utf8(written).unwrap(), String::from_utf8(expected).unwrap());
        // every kind of move has its own key
        let keys: Vec<u32> = tokens
            .iter()
            .map(|t| {
                Lines::key(
                    &t.parse::<SanPlus>()
                        .unwrap_or_else(|_| parse_san(t.as_bytes(), SanOptions::LENIENT).unwrap().readings[0]),
                )
            })
            .collect();
        for (i, a) in tokens.iter().enumerate() {
            for (j, b) in tokens.iter().enumerate() {
                assert_eq!(keys[i] == keys[j], a == b, "{a} {b}");
            }
        }
    }

    #[test]
    fn terminal_shows_carets() {
        assert_eq!(
            terminal("0-0+", false),
            "0-0+\n^^^\nO-O+ castles king-side, check\nwarning[san:castling-zeros] at 0..3: castling written with zeros; SAN writes O-O\n"
        );
        assert_eq!(terminal("Nf3", false), "Nf3\nNf3 knight to f3\n");
        assert_eq!(
            terminal("Nf", false),
            "Nf\n  ^\nerror[san:syntax] at 2..2: found nothing, expected a file a-h, a rank 1-8 or `x`\n"
        );
        assert_eq!(
            terminal("Nf9", true),
            "Nf9\n\x1b[1;31m  ^\x1b[0m\nerror[san:syntax] at 2..3: found \"9\", expected a file a-h, a rank 1-8 or `x`\n"
        );
        assert_eq!(
            terminal("♘f3\t", false),
            "♘f3\\t\n   ^^\nerror[san:syntax] at 5..6: found \"\\t\", expected the end of the move, with no whitespace after it\n"
        );
    }
}
