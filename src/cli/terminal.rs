//! Text from files on a terminal: no byte of it may reach the terminal as
//! a control (an escape sequence can retitle the window, clear the screen,
//! or colour and hide what follows), nor as an invisible character that
//! reorders what follows it ([`shown_escaped`]). [`TerminalText`] shows
//! text written to a terminal; [`push_json`] escapes all of them in JSON
//! reports, which are read on terminals too.

use std::io::{self, Write};

/// A writer to a terminal that shows the control characters of what it is
/// given, and the others [`shown_escaped`] names, as the messages show them
/// (`\x1b`, `\u{9b}`, `\u{202e}`, `\r`), and each byte
/// that is not UTF-8 as `\xNN`. Line feeds, tabs and the carriage return of
/// a CRLF pass as they are. Text may be cut anywhere between writes: a
/// character or CRLF cut in two is held until the next write, and
/// [`TerminalText::finish`] shows what is left of one.
pub struct TerminalText<W: Write> {
    inner: W,
    /// The end of the last write that may begin a character or a CRLF.
    held: Vec<u8>,
    /// What goes to `inner`, reused between writes.
    shown: Vec<u8>,
}

impl<W: Write> TerminalText<W> {
    /// Shows text on `inner`.
    pub fn new(inner: W) -> TerminalText<W> {
        TerminalText { inner, held: Vec::new(), shown: Vec::new() }
    }

    /// Shows what is held (a character or CRLF never completed) and
    /// flushes.
    ///
    /// # Errors
    ///
    /// Those of the terminal.
    pub fn finish(&mut self) -> io::Result<()> {
        let held = core::mem::take(&mut self.held);
        self.shown.clear();
        for &byte in &held {
            if byte == b'\r' {
                self.shown.extend_from_slice(b"\\r");
            } else {
                push_byte(&mut self.shown, byte);
            }
        }
        self.inner.write_all(&self.shown)?;
        self.inner.flush()
    }

    /// Appends `text` as it is shown to `self.shown`, but for an end that
    /// may be completed by the next write, which it returns.
    fn show<'t>(&mut self, mut text: &'t [u8]) -> &'t [u8] {
        loop {
            let (valid, rest) = match core::str::from_utf8(text) {
                Ok(valid) => (valid, &text[text.len()..]),
                Err(err) => {
                    let (valid, rest) = text.split_at(err.valid_up_to());
                    (core::str::from_utf8(valid).expect("valid up to here"), rest)
                }
            };
            for (i, c) in valid.char_indices() {
                match c {
                    '\n' | '\t' => self.shown.push(c as u8),
                    '\r' if valid.as_bytes().get(i + 1) == Some(&b'\n') => self.shown.push(b'\r'),
                    '\r' if i + 1 == valid.len() && rest.is_empty() => return &text[i..],
                    '\r' => self.shown.extend_from_slice(b"\\r"),
                    c if shown_escaped(c) => {
                        let _ = write!(self.shown, "{}", ControlShown(c));
                    }
                    c => self.shown.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
                }
            }
            if rest.is_empty() {
                return rest;
            }
            match core::str::from_utf8(rest).err().and_then(|err| err.error_len()) {
                // the start of a character that the next write may end
                None => return rest,
                Some(len) => {
                    for &byte in &rest[..len] {
                        push_byte(&mut self.shown, byte);
                    }
                    text = &rest[len..];
                }
            }
        }
    }
}

/// Writes `value` as JSON, as `serde_json::to_writer` does but with every
/// character [`shown_escaped`] names escaped ([`push_json`]).
///
/// # Errors
///
/// Those of `out` or of `value`'s serialisation.
pub fn json_to_writer<W: Write, T: serde::Serialize + ?Sized>(mut out: W, value: &T) -> serde_json::Result<()> {
    let mut json = Vec::new();
    push_json(&mut json, value)?;
    out.write_all(&json).map_err(serde_json::Error::io)
}

/// Appends `value` as JSON to `out`, as `serde_json::to_writer` does but
/// with every character [`shown_escaped`] names escaped: serde_json
/// escapes those below U+0020 only, and leaves DEL, the C1 controls
/// (U+0080 to U+009F; U+009B is a CSI to many terminals) and the
/// bidirectional controls as they are. A file's text goes into JSON
/// reports, and JSON is read on terminals too. The JSON is the same value.
///
/// # Errors
///
/// Those of `value`'s serialisation.
pub fn push_json<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> serde_json::Result<()> {
    let from = out.len();
    serde_json::to_writer(&mut *out, value)?;
    // DEL is 7f, a C1 control c2 80 to c2 9f and a bidirectional control
    // e2 80 aa to e2 80 ae or e2 81 a6 to e2 81 a9 in UTF-8, found by one
    // search of the text (all are inside strings: the rest of JSON is
    // ASCII and printable)
    if memchr::memchr3(0x7f, 0xc2, 0xe2, &out[from..]).is_none() {
        return Ok(());
    }
    let json = out.split_off(from);
    let mut start = 0;
    for at in memchr::memchr3_iter(0x7f, 0xc2, 0xe2, &json) {
        let Some((c, len)) = escaped_at(&json[at..]) else { continue };
        out.extend_from_slice(&json[start..at]);
        let _ = write!(out, "\\u{:04x}", u32::from(c));
        start = at + len;
    }
    out.extend_from_slice(&json[start..]);
    Ok(())
}

/// The character [`shown_escaped`] names that `utf8` starts with, if any,
/// and its length in bytes (for one that starts with 7f, c2 or e2).
fn escaped_at(utf8: &[u8]) -> Option<(char, usize)> {
    let len = match utf8[0] {
        0x7f => 1,
        0xc2 => 2,
        0xe2 => 3,
        _ => return None,
    };
    let c = core::str::from_utf8(utf8.get(..len)?).ok()?.chars().next()?;
    shown_escaped(c).then_some((c, len))
}

/// Whether a file's `c` is shown escaped on a terminal (and in JSON): a
/// control character, or a bidirectional control (the embeddings,
/// overrides and isolates, U+202A to U+202E and U+2066 to U+2069), which
/// is invisible and reorders the text after it: a player's name holding
/// U+202E shows the rest of its line reversed. The marks that only set the
/// direction of their neighbours (U+200E, U+200F) are kept, as the letters
/// of right-to-left scripts are.
pub fn shown_escaped(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A character [`shown_escaped`] names as sanfen shows it: `\x1b`
/// (ASCII), `\u{9b}`, `\u{202e}`.
pub struct ControlShown(pub char);

impl core::fmt::Display for ControlShown {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let code = u32::from(self.0);
        if code < 0x80 { write!(f, "\\x{code:02x}") } else { write!(f, "\\u{{{code:x}}}") }
    }
}

/// Appends a byte shown as `\xNN`.
fn push_byte(shown: &mut Vec<u8>, byte: u8) {
    let _ = write!(shown, "\\x{byte:02x}");
}

impl<W: Write> Write for TerminalText<W> {
    fn write(&mut self, text: &[u8]) -> io::Result<usize> {
        self.shown.clear();
        let mut joined = core::mem::take(&mut self.held);
        let held = if joined.is_empty() {
            self.show(text)
        } else {
            joined.extend_from_slice(text);
            self.show(&joined)
        };
        let held = held.to_vec();
        self.inner.write_all(&self.shown)?;
        self.held = held;
        Ok(text.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// `pieces` written one after another, then finished.
    fn shown(pieces: &[&[u8]]) -> String {
        let mut terminal = TerminalText::new(Vec::new());
        for piece in pieces {
            terminal.write_all(piece).unwrap();
        }
        terminal.finish().unwrap();
        String::from_utf8(terminal.inner).unwrap()
    }

    #[test]
    fn controls_are_shown_escaped() {
        assert_eq!(
            shown(&[b"{\x1b]0;title\x07} \x1b[2J\r\n\tNf3 \xc2\x9b e4\x7f\rx\n"]),
            "{\\x1b]0;title\\x07} \\x1b[2J\r\n\tNf3 \\u{9b} e4\\x7f\\rx\n"
        );
        assert_eq!(shown(&[b"caf\xc3\xa9 \xff\xfe ok"]), "café \\xff\\xfe ok");
    }

    #[test]
    fn json_escapes_every_control_character() {
        let mut out = Vec::new();
        json_to_writer(&mut out, &["a\u{1b}[31m\u{7f}\u{9b}2J\u{85}é\u{a0}\"\\\n", "plain"]).unwrap();
        let text = String::from_utf8(out).unwrap();
        // (U+00A0, a no-break space, is no control: as it is)
        assert_eq!(text, "[\"a\\u001b[31m\\u007f\\u009b2J\\u0085é\u{a0}\\\"\\\\\\n\",\"plain\"]");
        let back: Vec<String> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, ["a\u{1b}[31m\u{7f}\u{9b}2J\u{85}é\u{a0}\"\\\n", "plain"]);
    }

    #[test]
    fn bidirectional_controls_are_shown_escaped() {
        // U+202E would show the rest of the line reversed; U+200F (a mark)
        // and the letters of a right-to-left script are kept
        let text = "Ana\u{202e}1-0\u{202c} \u{2066}x\u{2069} \u{200f}שלום ’";
        assert_eq!(shown(&[text.as_bytes()]), "Ana\\u{202e}1-0\\u{202c} \\u{2066}x\\u{2069} \u{200f}שלום ’");
        // cut inside one
        let bytes = text.as_bytes();
        assert_eq!(shown(&[&bytes[..4], &bytes[4..]]), shown(&[bytes]));
        let mut out = Vec::new();
        json_to_writer(&mut out, &[text]).unwrap();
        let json = String::from_utf8(out).unwrap();
        assert_eq!(json, "[\"Ana\\u202e1-0\\u202c \\u2066x\\u2069 \u{200f}שלום ’\"]");
        let back: Vec<String> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, [text]);
    }

    #[test]
    fn text_cut_between_writes_is_shown_as_whole() {
        assert_eq!(shown(&[b"caf\xc3", b"\xa9\r", b"\n\xe2\x82", b"\xac"]), "café\r\n€");
        assert_eq!(shown(&[b"a\r", b"b"]), "a\\rb");
        assert_eq!(shown(&[b"a\xe2\x82"]), "a\\xe2\\x82");
        assert_eq!(shown(&[b"a\r"]), "a\\r");
        assert_eq!(shown(&[b"\xe2", b"x"]), "\\xe2x");
    }

    proptest! {
        #[test]
        fn no_control_reaches_the_terminal_wherever_the_text_is_cut(
            text in prop::collection::vec(prop_oneof![any::<u8>(), Just(b'\r'), Just(b'\n'), Just(0xc2), Just(0xe2), Just(0x80), Just(0xae)], 0..200),
            cuts in prop::collection::vec(0..200usize, 0..6),
        ) {
            let whole = shown(&[&text]);
            let mut cuts: Vec<usize> = cuts.into_iter().map(|cut| cut.min(text.len())).collect();
            cuts.extend([0, text.len()]);
            cuts.sort_unstable();
            let pieces: Vec<&[u8]> = cuts.windows(2).map(|cut| &text[cut[0]..cut[1]]).collect();
            prop_assert_eq!(shown(&pieces), whole.clone());
            // (valid UTF-8: `shown` would have panicked) with no control
            // (nor bidirectional control) but line feeds, tabs and the
            // carriage returns of CRLFs
            for (i, c) in whole.char_indices() {
                let crlf = c == '\r' && whole[i + 1..].starts_with('\n');
                prop_assert!(!shown_escaped(c) || c == '\n' || c == '\t' || crlf, "{:?} in {:?}", c, whole);
            }
            // and text without controls passes as it is
            if let Ok(text) = core::str::from_utf8(&text)
                && !text.chars().any(|c| shown_escaped(c) && c != '\n' && c != '\t')
            {
                prop_assert_eq!(&whole, text);
            }
        }
    }
}
