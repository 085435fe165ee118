//! What [`Session::eval`](super::Session::eval) answers: a [`Response`] is a
//! list of [`Output`]s (text, refusals, boards to draw, files to write), as
//! data; the front end decides how to show them and does the writing.

use crate::pgn::Game as PgnGame;
use crate::{Bitboard, Board, Square};

/// What a line produced, in order, and whether the user asked to leave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Response {
    /// What to show (or write), in order.
    pub outputs: Vec<Output>,
    /// The user asked to leave (`quit`, `exit`).
    pub quit: bool,
}

/// One part of a [`Response`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// A line of text, without a line end.
    Text(String),
    /// A line saying what was refused and why: a move (the position is then
    /// as before that move), a command or its argument. The lines after it
    /// (suggestions, the moves not played) are [`Output::Text`].
    Error(String),
    /// A board to draw.
    Board(BoardView),
    /// Bytes to write to a file (`save FILE`); the front end writes them and
    /// says how it went ([`Save::saved`], [`Save::failed`]).
    Save(Save),
    /// A line saying why a file `save` (`save!`, `append`) names is not
    /// written, refused before the front end is asked to write it (a game
    /// number the file cannot take, a binary log to add to): as
    /// [`Output::Error`], and as a file that could not be written for a
    /// script's exit code.
    SaveRefused(String),
}

impl Output {
    /// The text of a [`Output::Text`] or [`Output::Error`] line; `None` for
    /// a board or a file to write.
    pub fn text(&self) -> Option<&str> {
        match self {
            Output::Text(text) | Output::Error(text) | Output::SaveRefused(text) => Some(text),
            Output::Board(_) | Output::Save(_) => None,
        }
    }
}

impl Response {
    /// Whether something was refused (the response holds an
    /// [`Output::Error`] or [`Output::SaveRefused`]).
    pub fn is_error(&self) -> bool {
        self.outputs.iter().any(|output| matches!(output, Output::Error(_) | Output::SaveRefused(_)))
    }

    /// The text lines ([`Output::Text`], [`Output::Error`] and [`Output::SaveRefused`]), in order,
    /// leaving out boards and files to write.
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        self.outputs.iter().filter_map(Output::text)
    }

    /// The boards to draw, in order.
    pub fn boards(&self) -> impl Iterator<Item = &BoardView> {
        self.outputs.iter().filter_map(|output| match output {
            Output::Board(view) => Some(view),
            _ => None,
        })
    }

    pub(crate) fn line(&mut self, line: impl Into<String>) {
        self.outputs.push(Output::Text(line.into()));
    }

    pub(crate) fn fail(&mut self, line: impl Into<String>) {
        self.outputs.push(Output::Error(line.into()));
    }

    pub(crate) fn refuse_save(&mut self, line: impl Into<String>) {
        self.outputs.push(Output::SaveRefused(line.into()));
    }

    pub(crate) fn board(&mut self, view: BoardView) {
        self.outputs.push(Output::Board(view));
    }
}

/// A board to draw: where the pieces stand, which way up, and what to point
/// out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    /// The pieces.
    pub board: Board,
    /// Black's side at the bottom (`flip`).
    pub flipped: bool,
    /// The squares to point out.
    pub marks: Marks,
}

/// What to point out on a board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Squares to mark: a piece's targets, the squares attacked.
    pub targets: Bitboard,
    /// The piece the marks are about.
    pub origin: Option<Square>,
    /// The last move's origin and destination.
    pub last_move: Option<(Square, Square)>,
    /// A king in check.
    pub check: Option<Square>,
}

/// What `save FILE` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveFormat {
    /// The game as PGN ([`Session::pgn`](super::Session::pgn)).
    Pgn,
    /// The binary move log ([`Game::move_log`](crate::Game::move_log)): four
    /// 32-bit integers a move, for a file name ending in `.bin`.
    MoveLog,
}

/// How a file is written: as a new file, over a file, or at its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveMode {
    /// `save FILE`: a new file. A file already there is for the front end
    /// to refuse: `sanfen repl` replaces only a file it wrote itself in the
    /// session, that nothing changed since.
    New,
    /// `save! FILE`: the file, whatever is there.
    Replace,
    /// `append FILE`: the game added at the end of a PGN file (the file
    /// made when there is none).
    Append,
}

impl SaveMode {
    /// Every mode, in the order above.
    pub const ALL: [SaveMode; 3] = [SaveMode::New, SaveMode::Replace, SaveMode::Append];

    /// The command that writes so: `save`, `save!`, `append`.
    pub fn command(self) -> &'static str {
        match self {
            SaveMode::New => "save",
            SaveMode::Replace => "save!",
            SaveMode::Append => "append",
        }
    }
}

/// A file to write: its name as typed, the bytes, what they are and how
/// they are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Save {
    /// The file name as typed.
    pub path: String,
    /// What to write.
    pub bytes: Vec<u8>,
    /// What the bytes are.
    pub format: SaveFormat,
    /// The number of moves (plies) saved.
    pub moves: usize,
    /// Whether the file is new, replaced or added to.
    pub mode: SaveMode,
    /// When the file is the one the game was loaded from and holds other
    /// games too: the game's number in it (counted from 1), which
    /// [`Save::exists`] tells.
    pub shared_game: Option<usize>,
    /// For `save FILE N`: the game the bytes take the place of, which the
    /// front end finds ([`crate::repl::find_game`]) and writes the file
    /// around, the rest of it byte for byte.
    pub place: Option<Place>,
    /// Which of the session's games this is: a number that changes when
    /// another game takes the game's place (`new`, `load`). A front end
    /// that lets `save` write again over a file it saved (as `sanfen repl`
    /// does) lets it for the same game only.
    pub game: u64,
}

/// Where `save FILE N` puts the game: in the place of game N of the file
/// it was loaded from, which must still be the game loaded (or, for
/// `sanfen repl`, the game it put there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// N, from 1.
    pub game: usize,
    /// Game N as it was loaded.
    pub loaded: Box<PgnGame>,
}

impl Place {
    /// Whether `found`, game N as the file holds it now, is the game
    /// loaded: the same tags, escape lines, start, moves with their
    /// comments, NAGs and variations, result and comments after it, each
    /// at the same place in the file.
    pub fn is_loaded(&self, found: &PgnGame) -> bool {
        let loaded = &*self.loaded;
        (loaded.at, loaded.end) == (found.at, found.end)
            && loaded.tags == found.tags
            && loaded.escapes == found.escapes
            && loaded.tag_comments == found.tag_comments
            && loaded.start == found.start
            && loaded.mainline == found.mainline
            && loaded.result == found.result
            && loaded.after_result == found.after_result
    }
}

impl Save {
    /// The line to show once the file is written: `saved 7 moves to game.pgn
    /// (PGN)`, `saved 7 moves to game.bin (binary log, 112 bytes)`,
    /// `appended 7 moves to games.pgn.gz (PGN, gzip)` (the file compressed
    /// by `compressed`).
    pub fn saved(&self, compressed: Option<&str>) -> String {
        let (moves, path) = (self.moves, &self.path);
        let path = match &self.place {
            Some(place) => format!("{path} in the place of game {}", place.game),
            None => path.clone(),
        };
        let plural = if moves == 1 { "" } else { "s" };
        let done = if self.mode == SaveMode::Append { "appended" } else { "saved" };
        let what = match (self.format, compressed) {
            (SaveFormat::Pgn, None) => "PGN".to_owned(),
            (SaveFormat::Pgn, Some(codec)) => format!("PGN, {codec}"),
            (SaveFormat::MoveLog, _) => format!("binary log, {} bytes", self.bytes.len()),
        };
        format!("{done} {moves} move{plural} to {path} ({what})")
    }

    /// The line to show when the file is refused by [`SaveMode::New`]
    /// because one is there: what to type to replace it or add to it.
    pub fn exists(&self) -> String {
        let path = &self.path;
        // (a name with spaces is typed in quotes)
        let typed = if path.contains(char::is_whitespace) { format!("\"{path}\"") } else { path.clone() };
        let (replace, append) = (SaveMode::Replace.command(), SaveMode::Append.command());
        match (self.format, self.shared_game) {
            (SaveFormat::Pgn, Some(game)) => format!(
                "{path} exists: not replaced: it holds other games than game {game}, loaded from it (save {typed} \
                 {game} puts this game in its place, {replace} {typed} replaces them all with this one, {append} \
                 {typed} adds this game at their end)"
            ),
            (SaveFormat::Pgn, None) => format!(
                "{path} exists: not replaced ({replace} {typed} replaces it, {append} {typed} adds this game at its end)"
            ),
            (SaveFormat::MoveLog, _) => format!("{path} exists: not replaced ({replace} {typed} replaces it)"),
        }
    }

    /// The line to show when the file could not be written: `cannot write
    /// game.pgn: REASON`.
    pub fn failed(&self, reason: &dyn core::fmt::Display) -> String {
        format!("cannot write {}: {reason}", self.path)
    }
}
