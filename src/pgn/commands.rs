//! Comments and the commands inside them: `[%clk 0:03:00]`, `[%emt 0:00:05]`,
//! `[%eval 0.25]`, `[%eval #-3]`, `[%csl Ga4]`, `[%cal Ge2e4]`, and any other
//! `[%name ...]`.
//!
//! A [`Comment`] keeps its text as written and gives the commands read from
//! it and the text without them. A command whose arguments do not read as
//! that command reads them (`[%clk soon]`) is no command: it stays in the
//! text. Nothing in a comment is dropped.
//!
//! ```
//! use std::time::Duration;
//! use sanfen::pgn::commands::{Command, Comment, Score};
//!
//! let comment = Comment::new(" [%eval #-3] [%clk 0:02:59.5] a blunder [%foo bar] ");
//! assert_eq!(comment.clock(), Some(Duration::from_millis(179_500)));
//! assert_eq!(comment.eval().map(|eval| eval.score), Some(Score::Mate(-3)));
//! assert_eq!(comment.prose(), "a blunder");
//! assert_eq!(comment.commands()[2], Command::Other { name: "foo".into(), args: "bar".into() });
//! assert_eq!(comment.commands()[1].to_string(), "[%clk 0:02:59.5]");
//! ```
//!
//! The values are those python-chess reads (`node.clock()`, `node.eval()`):
//! a clock is `h:mm:ss` with any fraction of a second; an evaluation is in
//! pawns from White's side with at most two decimals (`0.25` is 25
//! centipawns), or a mate in N (`#3`, `#-3`: Black mates), with an optional
//! search depth after a comma (`[%eval 0.25,20]`).

use core::fmt;
use std::time::Duration;

use crate::Square;

/// A comment: its text, the commands in it, and the text around them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Comment {
    text: String,
    prose: String,
    commands: Vec<Command>,
}

/// A command of a comment, `[%name args]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Command {
    /// `[%clk h:mm:ss]`: the clock of the side that moved, after the move.
    Clock(Duration),
    /// `[%emt h:mm:ss]`: the time the move took.
    Elapsed(Duration),
    /// `[%eval ...]`: an engine's evaluation.
    Eval(Eval),
    /// `[%csl Ra1,Gb2]`: squares marked in colour.
    Squares(Vec<Highlight>),
    /// `[%cal Ra1a8,Gb1c3]`: arrows in colour.
    Arrows(Vec<Arrow>),
    /// Any other command, as written: its name (without `%`) and its
    /// arguments (the text after the space that follows the name, up to the
    /// `]`).
    Other {
        /// The name, without `%`.
        name: String,
        /// The arguments, as written.
        args: String,
    },
}

/// An evaluation: a score and the depth it was searched to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Eval {
    /// The score, from White's side.
    pub score: Score,
    /// The search depth, when written (`[%eval 0.25,20]`).
    pub depth: Option<u32>,
}

/// A score from White's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// In hundredths of a pawn (`[%eval -1.5]` is -150).
    Centipawns(i64),
    /// Mate in this many moves: positive when White mates, negative when
    /// Black does (`[%eval #-3]` is -3).
    Mate(i32),
}

/// The colours of marks: `R`, `G`, `Y`, `B`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MarkColor {
    /// `R`
    Red,
    /// `G`
    Green,
    /// `Y`
    Yellow,
    /// `B`
    Blue,
}

/// A square marked in a colour (`Ga4`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Highlight {
    /// The colour.
    pub color: MarkColor,
    /// The square.
    pub square: Square,
}

/// An arrow in a colour (`Ge2e4`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// The colour.
    pub color: MarkColor,
    /// Where it starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
}

impl MarkColor {
    /// The letter: `R`, `G`, `Y` or `B`.
    pub const fn char(self) -> char {
        match self {
            MarkColor::Red => 'R',
            MarkColor::Green => 'G',
            MarkColor::Yellow => 'Y',
            MarkColor::Blue => 'B',
        }
    }

    /// The colour of a letter (uppercase only).
    pub const fn from_char(c: char) -> Option<MarkColor> {
        match c {
            'R' => Some(MarkColor::Red),
            'G' => Some(MarkColor::Green),
            'Y' => Some(MarkColor::Yellow),
            'B' => Some(MarkColor::Blue),
            _ => None,
        }
    }
}

impl Comment {
    /// Reads the commands of a comment's text (the text between `{` and
    /// `}`, or after `;`). PGN writes a text that holds `}` as a `;`
    /// comment, which ends at its line: such a text with line breaks is
    /// written back as one `;` comment per line.
    pub fn new(text: impl Into<String>) -> Comment {
        let text = text.into();
        let (commands, prose) = read_commands(&text);
        Comment { text, prose, commands }
    }

    /// The text as written (line breaks as `\n`).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text without its commands, trimmed, one space where a command
    /// stood between two words.
    pub fn prose(&self) -> &str {
        &self.prose
    }

    /// The commands, in the order written.
    pub fn commands(&self) -> &[Command] {
        &self.commands
    }

    /// The first clock (`%clk`).
    pub fn clock(&self) -> Option<Duration> {
        self.commands.iter().find_map(|c| match c {
            Command::Clock(d) => Some(*d),
            _ => None,
        })
    }

    /// The first elapsed move time (`%emt`).
    pub fn elapsed(&self) -> Option<Duration> {
        self.commands.iter().find_map(|c| match c {
            Command::Elapsed(d) => Some(*d),
            _ => None,
        })
    }

    /// The first evaluation (`%eval`).
    pub fn eval(&self) -> Option<Eval> {
        self.commands.iter().find_map(|c| match c {
            Command::Eval(e) => Some(*e),
            _ => None,
        })
    }
}

impl fmt::Display for Comment {
    /// The text as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// `h:mm:ss`, and the fraction of a second when there is one (`0:00:09.25`).
fn write_duration(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
    let secs = d.as_secs();
    write!(f, "{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)?;
    let nanos = d.subsec_nanos();
    if nanos != 0 {
        let fraction = format!("{nanos:09}");
        write!(f, ".{}", fraction.trim_end_matches('0'))?;
    }
    Ok(())
}

impl fmt::Display for Command {
    /// The command as PGN writes it: `[%clk 0:03:00]`, `[%eval -0.5,20]`,
    /// `[%eval #3]`, `[%csl Ga4,Rb5]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Clock(d) => {
                f.write_str("[%clk ")?;
                write_duration(f, *d)?;
            }
            Command::Elapsed(d) => {
                f.write_str("[%emt ")?;
                write_duration(f, *d)?;
            }
            Command::Eval(eval) => {
                f.write_str("[%eval ")?;
                match eval.score {
                    Score::Centipawns(cp) => {
                        let sign = if cp < 0 { "-" } else { "" };
                        let abs = cp.unsigned_abs();
                        write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)?;
                    }
                    Score::Mate(n) => write!(f, "#{n}")?,
                }
                if let Some(depth) = eval.depth {
                    write!(f, ",{depth}")?;
                }
            }
            Command::Squares(marks) => {
                f.write_str("[%csl ")?;
                for (i, mark) in marks.iter().enumerate() {
                    let comma = if i > 0 { "," } else { "" };
                    write!(f, "{comma}{}{}", mark.color.char(), mark.square)?;
                }
            }
            Command::Arrows(arrows) => {
                f.write_str("[%cal ")?;
                for (i, arrow) in arrows.iter().enumerate() {
                    let comma = if i > 0 { "," } else { "" };
                    write!(f, "{comma}{}{}{}", arrow.color.char(), arrow.from, arrow.to)?;
                }
            }
            Command::Other { name, args } => write!(f, "[%{name} {args}")?,
        }
        f.write_str("]")
    }
}

/// The commands of a comment's text, and the text without them.
pub(crate) fn read_commands(text: &str) -> (Vec<Command>, String) {
    let mut commands = Vec::new();
    let mut prose = String::new();
    let mut rest = text;
    while let Some(open) = command_start(rest) {
        let Some((command, len)) = command_at(&rest[open..]) else {
            prose.push_str(&rest[..open + 2]);
            rest = &rest[open + 2..];
            continue;
        };
        commands.push(command);
        let before = &rest[..open];
        // one space where the command stood between two words
        if prose.ends_with(char::is_whitespace) || prose.is_empty() {
            prose.push_str(before.trim_start());
        } else {
            prose.push_str(before);
        }
        rest = &rest[open + len..];
        if prose.ends_with(char::is_whitespace) {
            rest = rest.trim_start();
        }
    }
    if prose.ends_with(char::is_whitespace) || prose.is_empty() {
        prose.push_str(rest.trim_start());
    } else {
        prose.push_str(rest);
    }
    // trimmed in place
    prose.truncate(prose.trim_end().len());
    prose.drain(..prose.len() - prose.trim_start().len());
    (commands, prose)
}

/// The first clock, elapsed time and evaluation of a comment.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Timings {
    /// The first `[%clk]`.
    pub(crate) clock: Option<Duration>,
    /// The first `[%emt]`.
    pub(crate) elapsed: Option<Duration>,
    /// The first `[%eval]`.
    pub(crate) eval: Option<Eval>,
}

impl Timings {
    /// Keeps `command` when it is the first of its kind.
    pub(crate) fn take(&mut self, command: &Command) {
        match command {
            Command::Clock(clock) => _ = self.clock.get_or_insert(*clock),
            Command::Elapsed(elapsed) => _ = self.elapsed.get_or_insert(*elapsed),
            Command::Eval(eval) => _ = self.eval.get_or_insert(*eval),
            _ => {}
        }
    }

    /// Keeps those of `later`'s timings this has none of.
    pub(crate) fn then(&mut self, later: Timings) {
        self.clock = self.clock.or(later.clock);
        self.elapsed = self.elapsed.or(later.elapsed);
        self.eval = self.eval.or(later.eval);
    }
}

/// The timings of a comment that holds nothing but `[%clk]`, `[%emt]` and
/// `[%eval]` commands and ASCII whitespace (`{ [%clk 0:03:00] }`,
/// `{ [%eval 0.17] [%clk 0:03:00] }`: the comment lichess writes after
/// every move), read from its bytes: what [`read_commands`] reads of it,
/// whose prose is then empty, with no text made. `None` for any other
/// comment (prose, another command, arguments that do not read), which
/// [`read_commands`] reads.
pub(crate) fn timings_only(bytes: &[u8]) -> Option<Timings> {
    let space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let mut timings = Timings::default();
    let mut rest = bytes;
    loop {
        let Some(start) = rest.iter().position(|b| !space(b)) else { return Some(timings) };
        let command = &rest[start..];
        // compared byte by byte: a call of memcmp cost more
        let (name, after) = match command {
            [b'[', b'%', b'c', b'l', b'k', after @ ..] => (b'c', after),
            [b'[', b'%', b'e', b'm', b't', after @ ..] => (b'm', after),
            [b'[', b'%', b'e', b'v', b'a', b'l', after @ ..] => (b'e', after),
            _ => return None,
        };
        // whitespace after the name, then the arguments up to `]`
        let args_start = after.iter().position(|b| !space(b)).filter(|&at| at > 0)?;
        // the first `]`: after the bytes of numbers, found byte by byte (a
        // call of memchr cost more for the few bytes of a clock), else
        // searched for
        let number = |b: &u8| matches!(b, b'0'..=b'9' | b':' | b'.' | b',' | b'#' | b'-' | b'+');
        let close = match after[args_start..].iter().position(|b| !number(b)) {
            Some(at) if after[args_start + at] == b']' => args_start + at,
            _ => memchr::memchr(b']', after)?,
        };
        let args = after.get(args_start..close)?;
        if args.contains(&b'[') {
            return None;
        }
        match name {
            b'c' => _ = timings.clock.get_or_insert(duration(args)?),
            b'm' => _ = timings.elapsed.get_or_insert(duration(args)?),
            _ => _ = timings.eval.get_or_insert(eval(core::str::from_utf8(args).ok()?)?),
        }
        rest = &after[close + 1..];
    }
}

/// Where the first `[%` in `text` is.
fn command_start(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'[', bytes).find(|&i| bytes.get(i + 1) == Some(&b'%'))
}

/// The command at the start of `text` (which starts with `[%`), and its
/// length in bytes: `[%`, a name of ASCII letters, digits and `_`, one or
/// more whitespace characters (none when `]` follows the name), the
/// arguments, `]`. `None` when it is no command, or a known command whose
/// arguments do not read.
fn command_at(text: &str) -> Option<(Command, usize)> {
    let body = &text[2..];
    let name_len = body.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    if name_len == 0 {
        return None;
    }
    let name = &body[..name_len];
    let after = &body[name_len..];
    let args_start = after.len() - after.trim_start().len();
    if args_start == 0 && !after.starts_with(']') {
        return None;
    }
    let close = after.find(']')?;
    if close < args_start {
        // `[%name ]`: nothing but whitespace
        return None;
    }
    let args = &after[args_start..close];
    if args.contains('[') {
        return None;
    }
    let command = match name {
        "clk" => Command::Clock(duration(args.as_bytes())?),
        "emt" => Command::Elapsed(duration(args.as_bytes())?),
        "eval" => Command::Eval(eval(args)?),
        "csl" => Command::Squares(marks(args, |color, squares| match squares {
            [square] => Some(Highlight { color, square: *square }),
            _ => None,
        })?),
        "cal" => Command::Arrows(marks(args, |color, squares| match squares {
            [from, to] => Some(Arrow { color, from: *from, to: *to }),
            _ => None,
        })?),
        _ => Command::Other { name: name.to_owned(), args: args.to_owned() },
    };
    Some((command, 2 + name_len + close + 1))
}

/// ASCII digits only, at least one, as a number (`None` past `u64`).
fn digits(bytes: &[u8]) -> Option<u64> {
    if bytes.is_empty() {
        return None;
    }
    bytes.iter().try_fold(0u64, |value, &b| {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        value.checked_mul(10)?.checked_add(u64::from(digit))
    })
}

/// `h:mm:ss`, `h:mm:ss.` or `h:mm:ss.fff` (any number of digits, each
/// field any number of digits, as python-chess reads it).
fn duration(args: &[u8]) -> Option<Duration> {
    // a few bytes: searched byte by byte, which costs less than memchr
    let colon = args.iter().position(|&b| b == b':')?;
    let (hours, rest) = (digits(&args[..colon])?, &args[colon + 1..]);
    let colon = rest.iter().position(|&b| b == b':')?;
    let (minutes, seconds) = (digits(&rest[..colon])?, &rest[colon + 1..]);
    let (seconds, fraction) = match seconds.iter().position(|&b| b == b'.') {
        Some(point) => (&seconds[..point], &seconds[point + 1..]),
        None => (seconds, &[][..]),
    };
    let seconds = digits(seconds)?;
    if !fraction.iter().all(u8::is_ascii_digit) {
        return None;
    }
    // nanoseconds: the first nine digits of the fraction
    let mut nanos = 0u32;
    for i in 0..9 {
        nanos = nanos * 10 + fraction.get(i).map_or(0, |b| u32::from(b - b'0'));
    }
    let secs = hours.checked_mul(3600)?.checked_add(minutes.checked_mul(60)?)?.checked_add(seconds)?;
    Some(Duration::new(secs, nanos))
}

/// `0.25`, `-1`, `+3.`, `.5` (pawns, at most ten digits before the point and
/// two after), or `#3`, `#-3`; then `,depth` or nothing.
fn eval(args: &str) -> Option<Eval> {
    let (value, depth) = match args.split_once(',') {
        Some((value, depth)) => (value, Some(u32::try_from(digits(depth.as_bytes())?).ok()?)),
        None => (args, None),
    };
    let score = if let Some(mate) = value.strip_prefix('#') {
        let (negative, n) = signed(mate);
        let n = i32::try_from(digits(n.as_bytes())?).ok()?;
        Score::Mate(if negative { -n } else { n })
    } else {
        let (negative, pawns) = signed(value);
        let (whole, fraction) = match pawns.split_once('.') {
            Some((whole, fraction)) => (whole, Some(fraction)),
            None => (pawns, None),
        };
        let whole_value = if whole.is_empty() { 0 } else { digits(whole.as_bytes())? };
        let hundredths = match fraction {
            // `1` or `1.`
            None | Some("") if !whole.is_empty() => 0,
            Some(f) if (1..=2).contains(&f.len()) => digits(f.as_bytes())? * if f.len() == 1 { 10 } else { 1 },
            _ => return None,
        };
        if whole.len() > 10 {
            return None;
        }
        let cp = i64::try_from(whole_value * 100 + hundredths).ok()?;
        Score::Centipawns(if negative { -cp } else { cp })
    };
    Some(Eval { score, depth })
}

/// A leading sign: whether it is `-`, and the text after it.
fn signed(text: &str) -> (bool, &str) {
    match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    }
}

/// Comma-separated marks: a colour letter and squares, each read by `make`.
fn marks<T>(args: &str, make: impl Fn(MarkColor, &[Square]) -> Option<T>) -> Option<Vec<T>> {
    let mut out = Vec::new();
    for item in args.split(',') {
        let mut chars = item.chars();
        let color = MarkColor::from_char(chars.next()?)?;
        let rest = chars.as_str().as_bytes();
        if rest.is_empty() || rest.len() % 2 != 0 || rest.len() > 4 {
            return None;
        }
        let squares: Vec<Square> = rest.chunks(2).map(Square::from_ascii).collect::<Option<_>>()?;
        out.push(make(color, &squares)?);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cp(cp: i64) -> Option<Eval> {
        Some(Eval { score: Score::Centipawns(cp), depth: None })
    }

    #[test]
    fn evaluations_read_as_python_chess_reads_them() {
        for (args, expected) in [
            ("0.25", cp(25)),
            ("-0.29", cp(-29)),
            ("+3", cp(300)),
            ("3.", cp(300)),
            (".5", cp(50)),
            ("-.05", cp(-5)),
            ("12.3", cp(1230)),
            ("1.234", None),
            ("", None),
            (".", None),
            ("1e3", None),
            ("#3", Some(Eval { score: Score::Mate(3), depth: None })),
            ("#-3", Some(Eval { score: Score::Mate(-3), depth: None })),
            ("#+2,14", Some(Eval { score: Score::Mate(2), depth: Some(14) })),
            ("0.25,20", Some(Eval { score: Score::Centipawns(25), depth: Some(20) })),
            ("0.25,", None),
            ("#", None),
            ("12345678901.0", None),
        ] {
            assert_eq!(eval(args), expected, "{args:?}");
        }
    }

    #[test]
    fn clocks_read_hours_minutes_seconds_and_fractions() {
        for (args, expected) in [
            ("0:03:00", Some(Duration::from_secs(180))),
            ("1:00:00", Some(Duration::from_secs(3600))),
            ("0:00:09.25", Some(Duration::from_millis(9250))),
            ("0:00:09.", Some(Duration::from_secs(9))),
            ("12:5:7", Some(Duration::from_secs(12 * 3600 + 5 * 60 + 7))),
            ("0:03", None),
            ("0:03:00:00", None),
            ("a:03:00", None),
            ("-0:03:00", None),
            ("0:03:0x", None),
            ("0:00:01.1234567891", Some(Duration::new(1, 123_456_789))),
            ("0:00:01.2.3", None),
            ("0::01", None),
            ("18446744073709551615:00:00", None),
            ("0:0:18446744073709551616", None),
            ("0:0:18446744073709551615", Some(Duration::from_secs(u64::MAX))),
        ] {
            assert_eq!(duration(args.as_bytes()), expected, "{args:?}");
        }
    }

    #[test]
    fn commands_and_prose() {
        let comment = Comment::new("Good [%csl Ga4,Rb5][%cal Ge2e4] move [%clk 0:01:00] [%clk soon] [%]");
        assert_eq!(
            comment.commands(),
            [
                Command::Squares(vec![
                    Highlight { color: MarkColor::Green, square: Square::A4 },
                    Highlight { color: MarkColor::Red, square: Square::B5 },
                ]),
                Command::Arrows(vec![Arrow { color: MarkColor::Green, from: Square::E2, to: Square::E4 }]),
                Command::Clock(Duration::from_secs(60)),
            ]
        );
        assert_eq!(comment.prose(), "Good move [%clk soon] [%]");
        assert_eq!(comment.text(), "Good [%csl Ga4,Rb5][%cal Ge2e4] move [%clk 0:01:00] [%clk soon] [%]");
        // malformed marks stay text
        for text in ["[%csl Ga9]", "[%cal Ge2]", "[%csl Xa1]", "[%csl Ga1,]", "[%clk 0:01:00", "[%eval]"] {
            let comment = Comment::new(text);
            assert_eq!((comment.commands(), comment.prose()), (&[][..], text), "{text}");
        }
        let other = Comment::new("[%evp 20,0.3,0.4] [%mdl 8192]");
        assert_eq!(
            other.commands(),
            [
                Command::Other { name: "evp".into(), args: "20,0.3,0.4".into() },
                Command::Other { name: "mdl".into(), args: "8192".into() },
            ]
        );
        assert_eq!(other.prose(), "");
        // prose trimmed at both ends, also when it starts with a mark that is no command
        let cases = [
            ("  [%clk soon  ", "[%clk soon"),
            (" \n[%]\t", "[%]"),
            ("  a [ b ]  [%clk 0:00:05]  ", "a [ b ]"),
            (" [%clk 0:00:05]\r\n x\t", "x"),
            ("   ", ""),
        ];
        for (text, prose) in cases {
            assert_eq!(Comment::new(text).prose(), prose, "{text:?}");
        }
    }

    #[test]
    fn commands_write_as_pgn_writes_them() {
        for text in [
            "[%clk 0:03:00]",
            "[%clk 10:00:00.5]",
            "[%emt 0:00:01.25]",
            "[%eval 0.25]",
            "[%eval -1.05,20]",
            "[%eval #-3]",
            "[%csl Ga4,Rb5]",
            "[%cal Ge2e4,Bb1c3]",
            "[%foo a b]",
        ] {
            let comment = Comment::new(text);
            assert_eq!(comment.commands().len(), 1, "{text}");
            assert_eq!(comment.commands()[0].to_string(), text);
        }
        assert_eq!(Comment::new("[%eval -.5]").commands()[0].to_string(), "[%eval -0.50]");
    }

    /// The first clock, elapsed time and evaluation of `commands`.
    fn first_timings(commands: &[Command]) -> Timings {
        let mut timings = Timings::default();
        commands.iter().for_each(|command| timings.take(command));
        timings
    }

    /// Timing commands that read, as lichess writes them and not.
    const TIMING_COMMANDS: &[&str] = &[
        "[%clk 0:03:00]",
        "[%clk 1:02:03.5]",
        "[%emt 0:00:05]",
        "[%eval 0.17]",
        "[%eval #-3]",
        "[%eval 0.25,20]",
        "[%clk\n 0:00:01]",
        "[%clk\t0:00:01]",
    ];

    /// Comments of timing commands (some that do not read), other commands,
    /// whitespace of every kind, prose and stray brackets.
    fn any_comment() -> impl Strategy<Value = String> {
        const PIECES: &[&str] = &[
            " ",
            "\t",
            "\n",
            "\r\n",
            "\u{b}",
            "\u{a0}",
            "[%clk 5:00]",
            "[%clks 0:01:00]",
            "[%clk]",
            "[%clk ]",
            "[%clk0:03:00]",
            "[%eval0.5]",
            "[%emt_ 0:00:01]",
            "[%clk  0:01:00 ]",
            "[%eval x]",
            "[%csl Ga4]",
            "[%clk 0:01:0[0]",
            "[%emt 0:00:0\u{e9}]",
            "word",
            "\u{e9}",
            "[",
            "]",
            "[%",
            "%",
        ];
        let piece = prop_oneof![
            prop::sample::select(PIECES).prop_map(str::to_owned),
            prop::sample::select(TIMING_COMMANDS).prop_map(str::to_owned),
            "[\\[\\]%clkemtva0-9:.#, -]{0,12}"
        ];
        prop::collection::vec(piece, 0..8).prop_map(|pieces| pieces.concat())
    }

    /// Comments lichess writes: timing commands that read, ASCII whitespace
    /// around and between them.
    fn timings_comment() -> impl Strategy<Value = String> {
        let space = prop::sample::select(&[" ", "", "\t", "\n", " \r\n "][..]);
        prop::collection::vec((space.clone(), prop::sample::select(TIMING_COMMANDS)), 0..4)
            .prop_flat_map(move |parts| (Just(parts), space.clone()))
            .prop_map(|(parts, end)| {
                parts.into_iter().flat_map(|(space, command)| [space, command]).chain([end]).collect()
            })
    }

    proptest! {
        #[test]
        fn timings_read_from_bytes_are_what_read_commands_reads(text in any_comment()) {
            let (commands, prose) = read_commands(&text);
            if let Some(timings) = timings_only(text.as_bytes()) {
                prop_assert_eq!(prose, "");
                prop_assert!(commands.iter().all(|c| matches!(c, Command::Clock(_) | Command::Elapsed(_) | Command::Eval(_))));
                prop_assert_eq!(timings, first_timings(&commands));
            }
        }

        #[test]
        fn comments_of_timings_alone_are_read_from_bytes(text in timings_comment()) {
            let (commands, prose) = read_commands(&text);
            prop_assert_eq!(prose, "");
            prop_assert_eq!(timings_only(text.as_bytes()), Some(first_timings(&commands)));
        }
    }
}
