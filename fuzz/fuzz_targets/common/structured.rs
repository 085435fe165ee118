//! Structured PGN inputs for the PGN fuzz targets.
//!
//! An input whose first byte is [`STRUCTURED`] is not PGN itself: the rest is
//! read with `arbitrary` as a small PGN syntax tree ([`Pgn`]: games with tags,
//! a start position, moves, move numbers, comments, NAGs, nested variations
//! and results, and text between games), which is rendered to bytes. Moves
//! are mostly legal: a [`Node::Move`] picks one of the legal moves of the
//! position the rendering has reached (variations start from the position
//! before the move they replace) and writes it in one of several spellings;
//! other nodes are tokens from a list of PGN-like words, or any bytes. So
//! whole games with variations and comments are generated, many of them
//! valid, from few input bytes. Any other input is used as it is.

use std::borrow::Cow;

use arbitrary::{Arbitrary, Unstructured};
use sanfen::notation::{self, Notation};
use sanfen::san::Letters;
use sanfen::{CastlingMode, Color, Fen, Move, Position};

/// The first byte that selects a structured input.
pub const STRUCTURED: u8 = 0;

/// The bytes a target reads: `data` itself, or, when it starts with
/// [`STRUCTURED`], the PGN the rest of it describes.
pub fn input(data: &[u8]) -> Cow<'_, [u8]> {
    match data.split_first() {
        Some((&STRUCTURED, rest)) => Cow::Owned(render(rest)),
        _ => Cow::Borrowed(data),
    }
}

/// Renders the PGN that `data` describes.
pub fn render(data: &[u8]) -> Vec<u8> {
    let pgn = Pgn::read(Unstructured::new(data));
    let mut out = Out { text: Vec::new(), crlf: pgn.crlf, column: 0 };
    if pgn.bom {
        out.text.extend_from_slice(b"\xef\xbb\xbf");
    }
    for item in &pgn.items {
        match item {
            Item::Game(game) => game.render(&mut out),
            Item::Between(between) => between.render(&mut out),
        }
    }
    out.text
}

/// A few bytes (at most 15), so that byte blobs do not eat the input.
#[derive(Debug, Default)]
struct Blob(Vec<u8>);

impl<'a> Arbitrary<'a> for Blob {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Blob> {
        let len = usize::from(u.arbitrary::<u8>()? % 16);
        Ok(Blob(u.bytes(len.min(u.len()))?.to_vec()))
    }
}

/// A short list (at most 7 items).
#[derive(Debug, Default)]
struct Few<T>(Vec<T>);

impl<'a, T: Arbitrary<'a>> Arbitrary<'a> for Few<T> {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Few<T>> {
        let len = u.arbitrary::<u8>()? % 8;
        let mut items = Vec::with_capacity(usize::from(len));
        for _ in 0..len {
            items.push(u.arbitrary()?);
        }
        Ok(Few(items))
    }
}

/// A PGN file.
#[derive(Debug, Default)]
pub struct Pgn {
    bom: bool,
    crlf: bool,
    items: Vec<Item>,
}

impl Pgn {
    /// Items while the bytes last.
    fn read(mut u: Unstructured<'_>) -> Pgn {
        let flags = u.arbitrary::<u8>().unwrap_or(0);
        let mut pgn = Pgn { bom: flags & 0x0f == 1, crlf: flags & 0xf0 == 0x10, items: Vec::new() };
        while !u.is_empty() {
            match u.arbitrary() {
                Ok(item) => pgn.items.push(item),
                Err(_) => break,
            }
        }
        pgn
    }
}

#[derive(Debug)]
enum Item {
    Game(Game),
    Between(Between),
}

impl<'a> Arbitrary<'a> for Item {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Item> {
        // mostly games
        Ok(if u.arbitrary::<u8>()? < 224 { Item::Game(u.arbitrary()?) } else { Item::Between(u.arbitrary()?) })
    }
}

/// Text between games.
#[derive(Arbitrary, Debug)]
enum Between {
    BlankLine,
    Escape(Text),
    Comment(Comment),
    LineComment(Text),
    Word(u8),
    Bytes(Blob),
}

#[derive(Debug)]
struct Game {
    tags: Few<Tag>,
    /// A start position from [`STARTS`], with its `FEN` (and `SetUp`,
    /// `Variant`) tags.
    start: Option<u8>,
    /// A blank line between the tags and the movetext.
    blank: bool,
    nodes: Vec<Node>,
    result: ResultChoice,
    /// Close the variations still open before the result.
    close: bool,
}

impl<'a> Arbitrary<'a> for Game {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Game> {
        let tags = u.arbitrary()?;
        let start = if u.arbitrary::<u8>()? < 64 { Some(u.arbitrary()?) } else { None };
        let blank = u.arbitrary::<u8>()? < 224;
        // about 64 nodes a game
        let mut nodes = Vec::new();
        while !u.is_empty() && u.arbitrary::<u8>()? >= 4 {
            nodes.push(u.arbitrary()?);
        }
        Ok(Game { tags, start, blank, nodes, result: u.arbitrary()?, close: u.arbitrary::<u8>()? < 224 })
    }
}

#[derive(Debug)]
struct Tag {
    name: TagName,
    value: Text,
    /// Spaces around the name and the value.
    loose: bool,
    /// `"` and `\` left unescaped in the value.
    unescaped: bool,
}

impl<'a> Arbitrary<'a> for Tag {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Tag> {
        let flags = u.arbitrary::<u8>()?;
        Ok(Tag { name: u.arbitrary()?, value: u.arbitrary()?, loose: flags & 7 == 0, unescaped: flags & 0xf8 == 0 })
    }
}

#[derive(Debug)]
enum TagName {
    Roster(u8),
    Known(u8),
    /// `FEN`, `SetUp` or `Variant`, with a value that is mostly not one.
    Special(u8),
    Bytes(Blob),
}

impl<'a> Arbitrary<'a> for TagName {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<TagName> {
        Ok(match u.arbitrary::<u8>()? {
            0..=191 => TagName::Roster(u.arbitrary()?),
            192..=239 => TagName::Known(u.arbitrary()?),
            240..=247 => TagName::Special(u.arbitrary()?),
            _ => TagName::Bytes(u.arbitrary()?),
        })
    }
}

#[derive(Debug)]
enum Node {
    /// A legal move (the index modulo the number of legal moves).
    Move {
        index: u16,
        spelling: Spelling,
        number: Number,
    },
    /// A word from [`WORDS`].
    Word(u8),
    /// Any bytes, as a token.
    Bytes(Blob),
    Comment(Comment),
    LineComment(Text),
    Nag(u8),
    Annotation(u8),
    Open,
    Close,
    Newline,
    Escape(Text),
}

impl<'a> Arbitrary<'a> for Node {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Node> {
        // mostly moves, some comments, NAGs and variations, few odd tokens
        Ok(match u.arbitrary::<u8>()? {
            0..=167 => Node::Move { index: u.arbitrary()?, spelling: u.arbitrary()?, number: u.arbitrary()? },
            168..=183 => Node::Comment(u.arbitrary()?),
            184..=189 => Node::Nag(u.arbitrary()?),
            190..=193 => Node::Annotation(u.arbitrary()?),
            194..=209 => Node::Open,
            210..=229 => Node::Close,
            230..=239 => Node::Newline,
            240..=244 => Node::Word(u.arbitrary()?),
            245..=247 => Node::Bytes(u.arbitrary()?),
            248..=252 => Node::LineComment(u.arbitrary()?),
            _ => Node::Escape(u.arbitrary()?),
        })
    }
}

#[derive(Debug)]
enum Spelling {
    Canonical,
    NoCheckMark,
    Long,
    Uci,
    Zeros,
    NoCaptureMark,
    NoEquals,
    EnPassantMark,
    Annotated(u8),
}

impl<'a> Arbitrary<'a> for Spelling {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Spelling> {
        // mostly canonical
        Ok(match u.arbitrary::<u8>()? {
            0..=159 => Spelling::Canonical,
            160..=175 => Spelling::NoCheckMark,
            176..=183 => Spelling::Long,
            184..=191 => Spelling::Uci,
            192..=207 => Spelling::Zeros,
            208..=215 => Spelling::NoCaptureMark,
            216..=223 => Spelling::NoEquals,
            224..=239 => Spelling::EnPassantMark,
            _ => Spelling::Annotated(u.arbitrary()?),
        })
    }
}

#[derive(Debug)]
enum Number {
    /// As PGN writes them.
    Auto,
    None,
    Glued,
    Wrong(u16),
}

impl<'a> Arbitrary<'a> for Number {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Number> {
        // mostly as PGN writes them
        Ok(match u.arbitrary::<u8>()? {
            0..=199 => Number::Auto,
            200..=229 => Number::None,
            230..=247 => Number::Glued,
            _ => Number::Wrong(u.arbitrary()?),
        })
    }
}

#[derive(Debug)]
struct Comment {
    /// Keep `}` in the text (which ends the comment early).
    raw: bool,
    text: Text,
}

impl<'a> Arbitrary<'a> for Comment {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Comment> {
        Ok(Comment { raw: u.arbitrary::<u8>()? >= 240, text: u.arbitrary()? })
    }
}

#[derive(Debug)]
enum Text {
    Words(Few<u8>),
    Bytes(Blob),
}

impl<'a> Arbitrary<'a> for Text {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Text> {
        Ok(if u.arbitrary::<u8>()? < 208 { Text::Words(u.arbitrary()?) } else { Text::Bytes(u.arbitrary()?) })
    }
}

#[derive(Arbitrary, Debug)]
enum ResultChoice {
    White,
    Black,
    Draw,
    Unknown,
    None,
    Word(u8),
}

/// Start positions: FEN, and whether it is Chess960.
const STARTS: &[(&str, bool)] = &[
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false),
    // castling both ways, en passant, promotion soon
    ("r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false),
    ("8/2P1k3/8/8/8/8/4Kp2/8 w - - 0 60", false),
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", false),
    // Chess960
    ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true),
    ("2r1kr2/8/8/8/8/8/8/1R2KR2 w FBfc - 0 1", true),
    // not a legal position
    ("8/8/8/8/8/8/8/8 w - - 0 1", false),
];

/// PGN-like words: tokens, markers, pieces of tags and comments.
const WORDS: &[&str] = &[
    "e4",
    "e5",
    "Nf3",
    "Nc6",
    "Bb5",
    "a6",
    "O-O",
    "O-O-O",
    "0-0",
    "0-0-0",
    "exd6",
    "e.p.",
    "exd6e.p.",
    "e8=Q",
    "e8Q",
    "=Q",
    "Ng1f3",
    "Ng1-f3",
    "g1f3",
    "Kxe1",
    "Qh4#",
    "Bxf7+",
    "Z0",
    "--",
    "P@f3",
    "Nbd7",
    "R1a3",
    "1.",
    "1...",
    "12.",
    "2...",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "½-½",
    "1–0",
    "0–1",
    "$1",
    "$255",
    "$256",
    "!",
    "?",
    "!!",
    "??",
    "!?",
    "?!",
    "{",
    "}",
    "(",
    ")",
    ";",
    "%",
    "[",
    "]",
    "\"",
    "\\",
    "[Event \"",
    "\"]",
    "[%clk 0:03:00]",
    "[%eval 0.31]",
    "[%cal Ge2e4]",
    "\r\n",
    "\n",
    "\r",
    "\t",
    " ",
    "\u{feff}",
    "\u{e9}",
    "good move",
    "\0",
];

/// Tag names besides the roster.
const TAG_NAMES: &[&str] = &["WhiteElo", "ECO", "TimeControl", "Annotator", "PlyCount", "Termination", "Opening"];

const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

fn word(index: u8) -> &'static [u8] {
    // index 0xff gives a Latin-1 byte (WORDS are UTF-8)
    if index == u8::MAX {
        return b"\xe9";
    }
    WORDS[usize::from(index) % WORDS.len()].as_bytes()
}

/// The rendered text, with the line ending asked for.
struct Out {
    text: Vec<u8>,
    crlf: bool,
    /// Bytes since the last line break (lines are wrapped near 80).
    column: usize,
}

impl Out {
    fn newline(&mut self) {
        self.text.extend_from_slice(if self.crlf { b"\r\n" } else { b"\n" });
        self.column = 0;
    }

    /// Text within a line.
    fn raw(&mut self, bytes: &[u8]) {
        self.text.extend_from_slice(bytes);
        self.column += bytes.len();
    }

    /// A movetext token: a space or a line break before it.
    fn token(&mut self, bytes: &[u8]) {
        if self.column + bytes.len() >= 80 {
            self.newline();
        } else if self.column > 0 {
            self.raw(b" ");
        }
        self.raw(bytes);
    }
}

impl Text {
    fn bytes(&self) -> Vec<u8> {
        match self {
            Text::Words(Few(words)) => {
                let mut text = Vec::new();
                for (i, &w) in words.iter().enumerate() {
                    if i > 0 && w % 3 != 0 {
                        text.push(b' ');
                    }
                    text.extend_from_slice(word(w));
                }
                text
            }
            Text::Bytes(Blob(bytes)) => bytes.clone(),
        }
    }

    /// The text with no line break.
    fn line(&self) -> Vec<u8> {
        let mut text = self.bytes();
        text.retain(|&b| b != b'\n');
        text
    }
}

impl Comment {
    fn bytes(&self) -> Vec<u8> {
        let mut text = vec![b'{'];
        text.extend(self.text.bytes().into_iter().filter(|&b| self.raw || b != b'}'));
        text.push(b'}');
        text
    }
}

impl Between {
    fn render(&self, out: &mut Out) {
        match self {
            Between::BlankLine => out.newline(),
            Between::Escape(text) => {
                if out.column > 0 {
                    out.newline();
                }
                out.raw(b"%");
                out.raw(&text.line());
                out.newline();
            }
            Between::Comment(comment) => out.token(&comment.bytes()),
            Between::LineComment(text) => {
                out.token(b";");
                out.raw(&text.line());
                out.newline();
            }
            Between::Word(w) => out.token(word(*w)),
            Between::Bytes(Blob(bytes)) => out.raw(bytes),
        }
    }
}

/// A line of play while rendering: the position reached, and the one before
/// its last move.
struct Frame {
    position: Position,
    before: Option<Position>,
}

impl Game {
    fn render(&self, out: &mut Out) {
        if out.column > 0 {
            out.newline();
        }
        let start = self.start.map(|i| STARTS[usize::from(i) % STARTS.len()]);
        if let Some((fen, chess960)) = start {
            if chess960 {
                out.raw(b"[Variant \"Chess960\"]");
                out.newline();
            }
            out.raw(b"[SetUp \"1\"]");
            out.newline();
            out.raw(format!("[FEN \"{fen}\"]").as_bytes());
            out.newline();
        }
        for tag in &self.tags.0 {
            tag.render(out);
        }
        if self.blank && (!self.tags.0.is_empty() || start.is_some()) {
            out.newline();
        }
        let position = match start {
            None => Some(Position::default()),
            Some((fen, chess960)) => {
                let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
                Fen::from_ascii(fen.as_bytes(), mode).ok().and_then(|fen| Position::from_setup(fen.setup, mode).ok())
            }
        };
        let mut lines = vec![Frame { position: position.unwrap_or_default(), before: None }];
        // whether Black's next move needs its number (PGN's export rule)
        let mut black_number = true;
        for node in &self.nodes {
            match node {
                Node::Move { index, spelling, number } => {
                    let line = lines.last_mut().expect("the mainline stays");
                    let moves = line.position.legal_moves();
                    if moves.is_empty() {
                        out.token(b"--");
                        continue;
                    }
                    let m = moves[usize::from(*index) % moves.len()];
                    let text = spell(&line.position, m, spelling);
                    let fullmoves = line.position.fullmoves();
                    let white = line.position.turn() == Color::White;
                    let prefix = match number {
                        Number::Auto if white => format!("{fullmoves}. "),
                        Number::Auto if black_number => format!("{fullmoves}... "),
                        Number::Auto | Number::None => String::new(),
                        Number::Glued => format!("{fullmoves}{}", if white { "." } else { "..." }),
                        Number::Wrong(n) => format!("{n}. "),
                    };
                    out.token(&[prefix.as_bytes(), &text].concat());
                    line.before = Some(line.position.clone());
                    line.position.play_unchecked(m);
                    black_number = false;
                    continue;
                }
                Node::Word(w) => out.token(word(*w)),
                Node::Bytes(Blob(bytes)) => out.token(bytes),
                Node::Comment(comment) => out.token(&comment.bytes()),
                Node::LineComment(text) => {
                    out.token(b";");
                    out.raw(&text.line());
                    out.newline();
                }
                Node::Nag(nag) => out.token(format!("${nag}").as_bytes()),
                Node::Annotation(a) => out.token(["!", "?", "!!", "??", "!?", "?!"][usize::from(*a) % 6].as_bytes()),
                Node::Open => {
                    let line = lines.last().expect("the mainline stays");
                    let position = line.before.as_ref().unwrap_or(&line.position).clone();
                    lines.push(Frame { position, before: None });
                    out.token(b"(");
                }
                Node::Close => {
                    // a `)` with no `(` comes from the words
                    if lines.len() > 1 {
                        lines.pop();
                        out.token(b")");
                    }
                }
                Node::Newline => out.newline(),
                Node::Escape(text) => {
                    if out.column > 0 {
                        out.newline();
                    }
                    out.raw(b"%");
                    out.raw(&text.line());
                    out.newline();
                }
            }
            black_number = true;
        }
        if self.close {
            for _ in 1..lines.len() {
                out.token(b")");
            }
        }
        match self.result {
            ResultChoice::White => out.token(b"1-0"),
            ResultChoice::Black => out.token(b"0-1"),
            ResultChoice::Draw => out.token(b"1/2-1/2"),
            ResultChoice::Unknown => out.token(b"*"),
            ResultChoice::None => {}
            ResultChoice::Word(w) => out.token(word(w)),
        }
        out.newline();
        out.newline();
    }
}

impl Tag {
    fn render(&self, out: &mut Out) {
        if out.column > 0 {
            out.newline();
        }
        let name: Cow<'_, [u8]> = match &self.name {
            TagName::Roster(i) => Cow::Borrowed(ROSTER[usize::from(*i) % 7].as_bytes()),
            TagName::Known(i) => Cow::Borrowed(TAG_NAMES[usize::from(*i) % TAG_NAMES.len()].as_bytes()),
            TagName::Special(i) => Cow::Borrowed(["FEN", "SetUp", "Variant"][usize::from(*i) % 3].as_bytes()),
            TagName::Bytes(Blob(bytes)) => Cow::Borrowed(bytes),
        };
        let mut value = Vec::new();
        for b in self.value.line() {
            if !self.unescaped && (b == b'"' || b == b'\\') {
                value.push(b'\\');
            }
            value.push(b);
        }
        if self.loose {
            out.raw(b" [ ");
            out.raw(&name);
            out.raw(b"   \"");
            out.raw(&value);
            out.raw(b"\" ]");
        } else {
            out.raw(b"[");
            out.raw(&name);
            out.raw(b" \"");
            out.raw(&value);
            out.raw(b"\"]");
        }
        out.newline();
    }
}

/// A legal move written in one of the spellings readers meet.
fn spell(position: &Position, m: Move, spelling: &Spelling) -> Vec<u8> {
    let canonical = notation::san_plus(position, m).to_string();
    let text = match spelling {
        Spelling::Canonical => canonical,
        Spelling::NoCheckMark => canonical.trim_end_matches(['+', '#']).to_owned(),
        Spelling::Long => notation::write_move(position, m, Notation::Lan, Letters::English),
        Spelling::Uci => notation::write_move(position, m, Notation::Uci, Letters::English),
        Spelling::Zeros => canonical.replace('O', "0"),
        Spelling::NoCaptureMark => canonical.replace('x', ""),
        Spelling::NoEquals => canonical.replace('=', ""),
        Spelling::EnPassantMark => {
            if matches!(m, Move::EnPassant { .. }) {
                format!("{canonical} e.p.")
            } else {
                canonical
            }
        }
        Spelling::Annotated(a) => format!("{canonical}{}", ["!", "?", "!!", "??", "!?", "?!"][usize::from(*a) % 6]),
    };
    text.into_bytes()
}
