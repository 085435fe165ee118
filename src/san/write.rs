//! Writing SAN: canonical text of [`San`] and [`SanPlus`], through `Display`
//! or straight into a byte buffer.

use core::fmt;

use super::types::{San, SanPlus};
use crate::{Role, Square};

impl SanPlus {
    /// Appends the canonical text (as `Display` writes it) to `out`, without
    /// going through the formatting machinery.
    pub fn append_ascii(&self, out: &mut Vec<u8>) {
        let (bytes, len) = san_plus_text(self);
        out.extend_from_slice(&bytes[..len]);
    }

    /// Writes the canonical text (as `Display` writes it) at the start of
    /// `out` and returns its length, at most 11 (the rest of `out` may be
    /// overwritten). For writers of large outputs: `out` can be a window of
    /// the output buffer itself, written without a branch per byte.
    #[inline]
    pub fn write_ascii(&self, out: &mut [u8; 16]) -> usize {
        let mut writer = Writer { out, len: 0 };
        writer.san_plus(self);
        writer.len
    }
}

impl San {
    /// Appends the canonical text (as `Display` writes it) to `out`.
    pub fn append_ascii(&self, out: &mut Vec<u8>) {
        let (bytes, len) = san_text(self);
        out.extend_from_slice(&bytes[..len]);
    }
}

/// Writes canonical text into a fixed 16-byte window (the longest text is
/// `Qa1xh8=Q#!!`, 11 bytes). Branch-free where it can be: every byte is
/// stored and the length advances only if it belongs to the text, so the
/// next byte overwrites one that does not. The window is usually the
/// caller's output buffer: bytes stored one by one and then read back as a
/// whole from a scratch array would stall the processor (store forwarding).
struct Writer<'a> {
    out: &'a mut [u8; 16],
    len: usize,
}

impl Writer<'_> {
    #[inline(always)]
    fn put(&mut self, byte: u8, present: bool) {
        // the mask keeps the index in range without a check (len <= 11)
        self.out[self.len & 15] = byte;
        self.len += usize::from(present);
    }

    #[inline(always)]
    fn square(&mut self, square: Square) {
        self.put(square.file().char() as u8, true);
        self.put(square.rank().char() as u8, true);
    }

    #[inline(always)]
    fn promotion(&mut self, promotion: Option<Role>) {
        let letter = promotion.map_or(b'=', |role| role.upper_char() as u8);
        self.put(b'=', promotion.is_some());
        self.put(letter, promotion.is_some());
    }

    fn text(&mut self, text: &str) {
        for &byte in text.as_bytes() {
            self.put(byte, true);
        }
    }

    #[inline(always)]
    fn san(&mut self, san: &San) {
        match *san {
            San::Normal { role, file, rank, capture, to, promotion } => {
                // a pawn has no letter, never its rank, and its file only when
                // it captures (a pawn that changes file captures)
                let pawn = role == Role::Pawn;
                let file_char = file.map_or(b'a', |file| file.char() as u8);
                let pawn_capture = capture | (file.is_some() & (file_char != to.file().char() as u8));
                self.put(role.upper_char() as u8, !pawn);
                self.put(file_char, file.is_some() & (!pawn | pawn_capture));
                self.put(rank.map_or(b'1', |rank| rank.char() as u8), rank.is_some() & !pawn);
                self.put(b'x', (pawn & pawn_capture) | (!pawn & capture));
                self.square(to);
                self.promotion(promotion);
            }
            San::Squares { from, to, capture, promotion } => {
                self.square(from);
                self.put(b'x', capture);
                self.square(to);
                self.promotion(promotion);
            }
            San::Castle(side) => self.text(side.as_str()),
            San::Null => self.text("--"),
        }
    }

    #[inline(always)]
    fn san_plus(&mut self, san_plus: &SanPlus) {
        self.san(&san_plus.san);
        self.put(san_plus.suffix.map_or(b'+', |suffix| suffix.char() as u8), san_plus.suffix.is_some());
        let annotation = san_plus.annotation.map_or(&b"!!"[..], |annotation| annotation.as_str().as_bytes());
        let present = san_plus.annotation.is_some();
        self.put(annotation[0], present);
        self.put(annotation[annotation.len() - 1], present & (annotation.len() == 2));
    }
}

/// The canonical text of a move, in a scratch array: its bytes and length.
pub(super) fn san_text(san: &San) -> ([u8; 16], usize) {
    let mut out = [0; 16];
    let mut writer = Writer { out: &mut out, len: 0 };
    writer.san(san);
    let len = writer.len;
    (out, len)
}

/// The canonical text of a move with its suffixes, in a scratch array.
fn san_plus_text(san_plus: &SanPlus) -> ([u8; 16], usize) {
    let mut out = [0; 16];
    let mut writer = Writer { out: &mut out, len: 0 };
    writer.san_plus(san_plus);
    let len = writer.len;
    (out, len)
}

/// Writes ASCII text made by [`Writer`].
fn write_text(f: &mut fmt::Formatter<'_>, (bytes, len): ([u8; 16], usize)) -> fmt::Result {
    f.write_str(core::str::from_utf8(&bytes[..len]).unwrap_or_default())
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_text(f, san_text(self))
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_text(f, san_plus_text(self))
    }
}
