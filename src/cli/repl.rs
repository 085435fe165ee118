//! `sanfen repl` (and a bare `sanfen`): the terminal around the library's
//! [`Session`]: it reads lines, prints the responses, draws the boards
//! (colour, figurines or letters) and writes the files `save` asks for.
//!
//! In a terminal: a line editor (rustyline) with a prompt showing the move
//! number and the side to move, history kept in the user's data directory,
//! tab completion of legal moves, commands and file names (after `load`,
//! `save`, `append`), hints, and the board before
//! the first move and after each move. Otherwise: no prompt, no colour, no
//! escape codes; one response per input line, so the session can be scripted
//! (with an exit code that says whether every line was answered).
//! Without colour, a board shows the last move and a check in text, with a
//! status line under it ([`board_view::status`]).
//!
//! `--chess960 [N]` starts from a numbered Chess960 position (a random one
//! without N) and names it first; with `--fen` it reads the FEN's castling
//! as Chess960.
//!
//! Ctrl-C at the prompt clears the line (the line editor reads it as a key).
//! While a command runs (the engine thinking after `go`) the terminal is back
//! in its normal mode and Ctrl-C is a signal: in a terminal a handler then
//! raises the session's stop flag, so the engine plays its best move so far
//! and the session goes on. Piped input keeps the default: Ctrl-C ends it.

use std::borrow::Cow;
use std::collections::hash_map::RandomState;
use std::ffi::OsString;
use std::fs;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, BufRead, IsTerminal, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rustix::fs::FlockOperation;
use rustix::io::Errno;
use rustyline::completion::{self, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{CompletionType, Config, Context, Editor, Helper};
use sanfen::Position;
use sanfen::fen::castling_needing_chess960;
use sanfen::pgn::format::{uses_crlf, with_line_ends};
use sanfen::pgn::input::{Input, ReadError, shown_name};
use sanfen::repl::{
    Completer, FoundGame, Options as SessionOptions, Output, Place, Response, Save, SaveFormat, SaveMode, Session,
    find_game, typed_path,
};
use sanfen::san::Letters;

use super::board_view::{self, Style};
use super::check::escape;
use super::compressed::{Encoder, FileCodec};
use super::rewrite::{InPlace, NewFile, is_device};
use super::{Error, ExitCode, moves};

/// What `sanfen repl` is asked to do.
#[derive(Debug, Default)]
pub struct Options {
    /// The starting position (the initial position without it).
    pub fen: Option<OsString>,
    /// The piece letters moves are read in.
    pub letters: Letters,
    /// ASCII letters on the board instead of figurines.
    pub ascii: bool,
    /// No board after each move, even in a terminal.
    pub no_board: bool,
    /// `--chess960 [N]`: Chess960 castling; without `--fen`, start from
    /// Chess960 position N (`Some(None)`: a random one).
    pub chess960: Option<Option<u16>>,
    /// A file to start from (`repl FILE`, `--pgn FILE`): a PGN file's game,
    /// or a binary move log.
    pub file: Option<PathBuf>,
    /// Which game of `file`, counted from 1 (`--game N`; the first when
    /// `None`).
    pub game: Option<usize>,
}

/// Reads the N of `--chess960 N`: a Chess960 start position number.
///
/// # Errors
///
/// N is not a number from 0 to 959 (the message names the range).
pub fn parse_chess960_number(text: &str) -> Result<u16, String> {
    let last = Position::CHESS960_COUNT - 1;
    text.parse::<u16>().ok().filter(|&n| n <= last).ok_or_else(|| format!("Chess960 positions are numbered 0-{last}"))
}

/// A Chess960 start position number picked at random, from the standard
/// library's per-process random hash keys and the clock.
fn random_chess960_number() -> u16 {
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u128(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_nanos()));
    let number = hasher.finish() % u64::from(Position::CHESS960_COUNT);
    u16::try_from(number).unwrap_or_default()
}

/// The start position `options` name and the line that says which Chess960
/// position it is, if one is numbered; or the outcome when `--fen` is no
/// position.
fn start(options: &Options) -> Result<(Position, Option<String>), Result<ExitCode, Error>> {
    let number = match (&options.fen, options.chess960) {
        (Some(_), Some(Some(number))) => {
            return Err(Err(Error::Usage(format!(
                "--chess960 {number} and --fen both name the start position; give --fen with --chess960 alone \
                 to read its castling as Chess960"
            ))));
        }
        (None, Some(number)) => Some(number.unwrap_or_else(random_chess960_number)),
        _ => None,
    };
    if let Some(number) = number {
        let position = Position::chess960(number).ok_or_else(|| {
            Err(Error::Usage(format!(
                "no Chess960 position {number}: they are numbered 0-{}",
                Position::CHESS960_COUNT - 1
            )))
        })?;
        let line = format!("Chess960 position {number}: {position}");
        return Ok((position, Some(line)));
    }
    let chess960 = options.chess960.is_some();
    match moves::position(options.fen.as_ref(), chess960, false) {
        Ok(position) => Ok((position, None)),
        Err(outcome) => {
            let fen = options.fen.as_ref().filter(|_| !chess960).map(|fen| fen.as_encoded_bytes());
            if let Some((fen, span)) = fen.and_then(|fen| Some((fen, castling_needing_chess960(fen)?))) {
                let castling = String::from_utf8_lossy(&fen[span]);
                let _ = writeln!(
                    io::stderr(),
                    "sanfen: castling '{castling}' is valid only in Chess960: add --chess960 to read the FEN as Chess960"
                );
            }
            Err(outcome)
        }
    }
}

/// Runs the REPL until `quit`, the end of the input or Ctrl-D.
///
/// # Errors
///
/// Reading standard input or writing standard output failed.
pub fn run(options: &Options) -> Result<ExitCode, Error> {
    let (start, chess960_line) = match start(options) {
        Ok(start) => start,
        Err(outcome) => return outcome,
    };
    let interactive = io::stdin().is_terminal();
    if !interactive {
        // (a script appending its answers to itself would read them as lines)
        super::pgn_input::refuse_stdout_input(&[])?;
        // a script ends on a signal as a program does, leaving no temporary
        // file of a save behind (the editor's Ctrl-C stops a search instead)
        super::rewrite::remove_temporary_on_signals()
            .map_err(|error| Error::Usage(format!("cannot handle signals: {error}")))?;
    }
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let color = interactive && io::stdout().is_terminal() && !no_color;
    let board = interactive && !options.no_board;
    let date = chrono::Local::now().format("%Y.%m.%d").to_string();
    let mut session = Session::new(SessionOptions {
        start,
        letters: options.letters,
        board,
        date: Some(date),
        open: Some(open_polled),
    });
    let style = Style { ascii: options.ascii, color };
    let mut intro = Response::default();
    if let Some(line) = chess960_line {
        intro.outputs.push(Output::Text(line));
    }
    match (&options.file, options.game) {
        (Some(path), game) => {
            let loaded = session.load_file(path, game);
            if loaded.is_error() {
                // the game asked for cannot be played: nothing to start from
                let mut err = io::stderr().lock();
                for line in loaded.lines() {
                    let _ = writeln!(err, "sanfen: {}", escape(line));
                }
                return Ok(ExitCode::Failure);
            }
            // its board comes with the first screen's
            intro.outputs.extend(loaded.outputs.into_iter().filter(|output| !matches!(output, Output::Board(_))));
        }
        (None, Some(_)) => return Err(Error::Usage("--game N needs a FILE to take the game from".to_owned())),
        (None, None) => {}
    }
    if interactive {
        edit(session, style, &intro, board)
    } else {
        script(session, style, &intro, io::stdin().lock(), &mut io::stdout().lock())
    }
}

/// The longest line a script may hold: 1 MiB (a game's moves with their
/// comments take some kilobytes). A longer one is refused and skipped
/// unread, so that input without newlines cannot fill the memory.
const MOST_SCRIPT_LINE: usize = 1 << 20;

/// Prints `intro`, then reads lines with no prompt and prints each
/// response. The exit code: 1
/// when a line was refused (a move that cannot be played, an unknown
/// command, a line that is not UTF-8 or longer than [`MOST_SCRIPT_LINE`]),
/// 2 when a file `save` asked for could not be written.
fn script(
    mut session: Session,
    style: Style,
    intro: &Response,
    mut input: impl BufRead,
    out: &mut impl Write,
) -> Result<ExitCode, Error> {
    let mut saved = Saved::default();
    write_response(out, intro, style, &session, &mut saved).map_err(Error::Output)?;
    let (mut code, mut unwritten) = (ExitCode::Valid, false);
    let mut buf = Vec::new();
    // a line of the most and its `\n`: more is a line too long
    let limit = MOST_SCRIPT_LINE as u64 + 1;
    for number in 1u64.. {
        buf.clear();
        if io::Read::take(&mut input, limit).read_until(b'\n', &mut buf).map_err(Error::Input)? == 0 {
            break;
        }
        let line = if buf.len() as u64 == limit && buf.last() != Some(&b'\n') {
            input.skip_until(b'\n').map_err(Error::Input)?;
            Err(format!("line {number} not read: longer than a line may be ({MOST_SCRIPT_LINE} bytes)"))
        } else {
            let text = buf.strip_suffix(b"\n").unwrap_or(&buf);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            str::from_utf8(text).map_err(|error| {
                let at = error.valid_up_to();
                format!("line {number} not read: byte {} is not UTF-8 (\\x{:02x})", at + 1, text[at])
            })
        };
        let response = match line {
            Ok(line) => session.eval(line),
            Err(refusal) => {
                writeln!(out, "{refusal}").map_err(Error::Output)?;
                code = code.and_valid(false);
                continue;
            }
        };
        unwritten |= !write_response(out, &response, style, &session, &mut saved).map_err(Error::Output)?;
        code = code.and_valid(!response.is_error());
        if response.quit {
            break;
        }
    }
    Ok(if unwritten { ExitCode::Failure } else { code })
}

/// Prints a response: its lines, its boards drawn in `style` (without
/// colour, each with the status line of `session`'s game under it: the
/// session is the one that answered, so its position is the one on the
/// boards), and for each file to write, the file written and a line saying
/// how it went. False when a file could not be written.
fn write_response(
    out: &mut impl Write,
    response: &Response,
    style: Style,
    session: &Session,
    saved: &mut Saved,
) -> io::Result<bool> {
    let game = session.game();
    let mut written = true;
    for output in &response.outputs {
        match output {
            // a loaded game's tags and comments are a file's text
            Output::Text(line) | Output::Error(line) => writeln!(out, "{}", escape(line))?,
            Output::SaveRefused(line) => {
                written = false;
                writeln!(out, "{}", escape(line))?;
            }
            Output::Board(view) => {
                for line in board_view::render(view, style) {
                    writeln!(out, "{line}")?;
                }
                // a board of another position than the game's gets no status
                if !style.color && view.board == *game.position().board() {
                    writeln!(out, "{}", board_view::status(game, session.over().as_ref()))?;
                }
            }
            // (the name typed may hold any character too)
            Output::Save(save) => {
                let said = write_file(save, saved, &session.stop_flag()).unwrap_or_else(|failed| {
                    written = false;
                    failed
                });
                writeln!(out, "{}", escape(&said))?;
            }
        }
    }
    out.flush()?;
    Ok(written)
}

/// The files the session wrote, each as it was then.
#[derive(Default)]
struct Saved {
    /// Those `save` and `save!` wrote, with the game each holds
    /// ([`Save::game`]): `save` writes the same game over one again (a game
    /// saved as it goes on, as PGN and as a move log alike) while nothing
    /// else has changed it, and over no other file without `save!` (another
    /// game in particular, after `new` or `load`). One stamp a file: a file
    /// saved again takes its old stamp's place.
    files: Vec<(Stamp, u64)>,
    /// The games `save FILE N` put in files: `save FILE N` puts a game
    /// there again while game N is still the text it wrote, though no
    /// longer the game loaded.
    placed: Vec<Placed>,
}

/// A game `save FILE N` put in a file.
struct Placed {
    /// Where the file is (symbolic links resolved).
    target: PathBuf,
    /// N.
    game: usize,
    /// The game's text, as written.
    text: Vec<u8>,
}

/// What tells a file from another, and from itself changed: its device
/// and inode, size, modification time, and change time (which a program
/// that gives the file back its old modification time, `cp -p`, `rsync
/// -t`, `touch -d`, changes).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Stamp {
    device: u64,
    inode: u64,
    size: u64,
    modified: (i64, i64),
    changed: (i64, i64),
}

impl Stamp {
    /// The stamp of the file at `path` (a symbolic link followed), if any.
    fn of(path: &Path) -> Option<Stamp> {
        fs::metadata(path).ok().as_ref().map(Stamp::of_metadata)
    }

    /// The stamp of a file's metadata.
    fn of_metadata(metadata: &fs::Metadata) -> Stamp {
        Stamp {
            device: metadata.dev(),
            inode: metadata.ino(),
            size: metadata.len(),
            modified: (metadata.mtime(), metadata.mtime_nsec()),
            changed: (metadata.ctime(), metadata.ctime_nsec()),
        }
    }
}

/// Writes a file `save`, `save!` or `append` asks for; the line that says
/// how it went, as an error when it was refused or could not be written.
///
/// - A PGN file is compressed as its name says (`.gz`, `.zst`, `.bz2`), as
///   `sanfen export` compresses its files.
/// - `save` writes a new file, as `sanfen export` writes its output
///   ([`NewFile`]: under a temporary name that takes the file's name once
///   complete); a file already there is refused, unless this session
///   saved it and nothing changed it since ([`Saved`]). `save!` replaces a file there,
///   with its mode, group and extended attributes (or refuses it, as
///   `NewFile` does).
/// - `append` adds the game at the end of the file ([`append`]).
/// - `save FILE N` puts the game in the place of game N ([`write_in_place`]).
/// - A FIFO or a device is written to as it is ([`write_device`]), until
///   `stop` is raised (Ctrl-C) if it has to wait.
fn write_file(save: &Save, saved: &mut Saved, stop: &AtomicBool) -> Result<String, String> {
    if let Some(place) = &save.place {
        return write_in_place(save, place, saved, stop);
    }
    let path = &typed_path(&save.path);
    if is_device(path) {
        return match write_device(path, &save.bytes, stop) {
            Ok(()) => Ok(save.saved(None)),
            Err(error) => Err(save.failed(&error)),
        };
    }
    let metadata = fs::metadata(path).ok();
    let exists = metadata.as_ref().is_some_and(fs::Metadata::is_file);
    let before = metadata.as_ref().map(Stamp::of_metadata);
    let written = match save.mode {
        SaveMode::Append if exists => append(path, &save.bytes),
        SaveMode::New if exists && !before.is_some_and(|stamp| saved.files.contains(&(stamp, save.game))) => {
            return Err(save.exists());
        }
        mode => {
            let codec = FileCodec::of_path(path).filter(|_| save.format == SaveFormat::Pgn);
            // a new file takes no name another program gave a file meanwhile
            write_new(path, &save.bytes, codec, mode != SaveMode::Replace && !exists).map(|()| codec)
        }
    };
    match written {
        Ok(codec) => {
            saved.files.retain(|&(stamp, _)| Some(stamp) != before);
            // (a file added to holds more than this game: `save` keeps off it)
            if let Some(stamp) = Stamp::of(path).filter(|_| save.mode != SaveMode::Append) {
                saved.files.push((stamp, save.game));
            }
            Ok(save.saved(codec.map(FileCodec::name)))
        }
        Err(Error::File { source, .. }) => Err(save.failed(&source)),
        Err(error) => Err(save.failed(&error)),
    }
}

/// Writes `save FILE N`: the file with the game in the place of game N, as
/// [`find_game`] finds it, and the rest of the file byte for byte; the game
/// written with the line ends (CRLF or LF) and in the encoding (UTF-8, or
/// Windows-1252) of the text it replaces ([`written_as`]), the file
/// compressed again as it was. The file is rewritten as `fmt --in-place`
/// rewrites one ([`InPlace`]: its owner, group, mode and links kept, the
/// whole of it or nothing), and refused when game N is neither
/// the game loaded ([`Place::is_loaded`]) nor the text this session put
/// there (what comes before it changed, or it did).
fn write_in_place(save: &Save, place: &Place, saved: &mut Saved, stop: &AtomicBool) -> Result<String, String> {
    let path = typed_path(&save.path);
    let (shown, number) = (shown_name(path.as_os_str()), place.game);
    let failed = |error: Error| match error {
        Error::File { source, .. } => save.failed(&source),
        error => save.failed(&error),
    };
    let file = InPlace::open(path.as_os_str(), "save").map_err(failed)?;
    let unreadable = |error: &dyn core::fmt::Display| format!("cannot read {shown}: {error}: not replaced");
    let decoded = || match file.reader().map_err(failed) {
        Ok(reader) => Input::from_reader(reader, Some(file.size())).map_err(|error| unreadable(&error)),
        Err(why) => Err(why),
    };
    let input = decoded()?;
    let codec = input.compression.map(FileCodec::of);
    let game = match find_game(input, number) {
        FoundGame::Game(game, _) => game,
        found => return Err(format!("{}: not replaced", found.failure(&shown, number).unwrap_or_default())),
    };
    let (start, end) = (game.at.offset, game.end.offset);
    let mut input = decoded()?.reader;
    let write_error = file.write_error();
    let written = |error| failed(write_error(error));
    let buffered = io::BufWriter::with_capacity(1 << 16, file.output());
    let mut out = Encoder::new(buffered, codec.map(FileCodec::at_default), 1).map_err(written)?;
    // a flag raised before this save stops nothing
    stop.store(false, Ordering::Relaxed);
    let pass_on = |input: &mut dyn io::Read, out: &mut dyn Write, bytes: u64| match pass_on(input, out, bytes, stop) {
        Ok(passed) if passed == bytes || bytes == u64::MAX => Ok(()),
        Ok(_) => Err(unreadable(&"it ended before the game's end")),
        Err(Passing::Read(error)) => Err(unreadable(&error)),
        Err(Passing::Write(error)) => Err(written(error)),
        Err(Passing::Stopped) => Err(save.failed(&"interrupted (Ctrl-C): not replaced")),
    };
    pass_on(&mut input, &mut out, start)?;
    let mut old = Vec::new();
    pass_on(&mut input, &mut old, end - start)?;
    let target = file.target().to_path_buf();
    let ours = |placed: &Placed| placed.target == target && placed.game == number;
    if !place.is_loaded(&game) && !saved.placed.iter().any(|placed| ours(placed) && placed.text == old) {
        return Err(format!(
            "{shown} changed since game {number} was loaded from it: not replaced (load it again to see it as it \
             is now)"
        ));
    }
    let text = save.bytes.strip_suffix(b"\n").unwrap_or(&save.bytes);
    // in the encoding and with the line ends of the text it replaces
    let (windows_1252, crlf) = (str::from_utf8(&old).is_err(), uses_crlf(&old));
    let Some(text) = written_as(text, windows_1252, crlf) else {
        return Err(save.failed(&format!(
            "game {number} is written in Windows-1252, which has no place for every character of this game: not \
             replaced"
        )));
    };
    out.write_all(&text).map_err(written)?;
    pass_on(&mut input, &mut out, u64::MAX)?;
    out.finish().and_then(|mut buffered| buffered.flush()).map_err(written)?;
    file.commit().map_err(failed)?;
    saved.placed.retain(|placed| !ours(placed));
    saved.placed.push(Placed { target, game: number, text });
    Ok(save.saved(codec.map(FileCodec::name)))
}

/// `text` (UTF-8, lines ending with `\n`) in Windows-1252 (as the reader
/// takes text that is not UTF-8) or UTF-8, its lines ending with `\r\n`
/// (`crlf`) or `\n` ([`with_line_ends`], as `fmt` ends them). `None` when Windows-1252 has no place for one of its
/// characters.
fn written_as(text: &[u8], windows_1252: bool, crlf: bool) -> Option<Vec<u8>> {
    let text = if windows_1252 {
        let utf8 = String::from_utf8_lossy(text);
        let (encoded, _, unmappable) = encoding_rs::WINDOWS_1252.encode(&utf8);
        if unmappable {
            return None;
        }
        encoded.into_owned()
    } else {
        text.to_vec()
    };
    Some(with_line_ends(text, crlf))
}

/// How [`pass_on`] failed.
enum Passing {
    Read(io::Error),
    Write(io::Error),
    /// `stop` was raised (Ctrl-C).
    Stopped,
}

/// Copies `input` to `out`, at most `bytes` bytes of it, until `stop` is
/// raised: how many.
fn pass_on(input: &mut dyn io::Read, out: &mut dyn Write, bytes: u64, stop: &AtomicBool) -> Result<u64, Passing> {
    let mut buffer = vec![0; 1 << 16];
    let mut passed = 0;
    while passed < bytes {
        if stop.load(Ordering::Relaxed) {
            return Err(Passing::Stopped);
        }
        let wanted = usize::try_from(bytes - passed).unwrap_or(usize::MAX).min(buffer.len());
        let read = match input.read(&mut buffer[..wanted]) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(Passing::Read(error)),
        };
        out.write_all(&buffer[..read]).map_err(Passing::Write)?;
        passed += read as u64;
    }
    Ok(passed)
}

/// Writes `bytes` to the FIFO or device at `path` without ever blocking
/// on it, so that Ctrl-C (raising `stop`) ends a wait: for a program to
/// open a FIFO to read it, or to read what fills the FIFO.
fn write_device(path: &Path, bytes: &[u8], stop: &AtomicBool) -> io::Result<()> {
    // a flag raised before this save stops nothing
    stop.store(false, Ordering::Relaxed);
    let wait = || {
        if stop.swap(false, Ordering::Relaxed) {
            return Err(io::Error::other("interrupted (Ctrl-C)"));
        }
        std::thread::sleep(Duration::from_millis(20));
        Ok(())
    };
    let mut file = loop {
        match open_without_waiting(fs::File::options().write(true), path) {
            Ok(file) => break file,
            // a FIFO that no program has open to read yet
            Err(error) if error.raw_os_error() == Some(Errno::NXIO.raw_os_error()) => wait()?,
            Err(error) => return Err(error),
        }
    };
    let mut rest = bytes;
    while !rest.is_empty() {
        match file.write(rest) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => rest = &rest[n..],
            Err(error) if error.kind() == io::ErrorKind::WouldBlock => wait()?,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// How `load` opens a file here ([`sanfen::repl::OpenFile`]): without
/// waiting (`O_NONBLOCK`), each read after `poll` says there is something
/// to read, looking at `stopped` every 50 ms meanwhile. So a `load` that
/// Ctrl-C ends leaves no thread behind in `open` or `read`, to take the
/// bytes a FIFO's writer sends later or the next key typed on a terminal.
/// (A FIFO that no program has opened to write to yet is not at its end:
/// `poll` waits for the writer, where `read` would say the end.)
fn open_polled(path: &Path, stopped: Arc<AtomicBool>) -> io::Result<Box<dyn io::Read + Send>> {
    let file = open_without_waiting(fs::File::options().read(true), path)?;
    Ok(Box::new(Polled { file, stopped }))
}

/// Opens `path` as `options` say, `O_NONBLOCK`: opening a FIFO does not
/// wait for the program at its other end, nor do its reads and writes.
fn open_without_waiting(options: &mut fs::OpenOptions, path: &Path) -> io::Result<fs::File> {
    options.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32).open(path)
}

/// A file read after `poll` ([`open_polled`]).
struct Polled {
    file: fs::File,
    stopped: Arc<AtomicBool>,
}

impl io::Read for Polled {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        if buf.is_empty() {
            return Ok(0);
        }
        let wait = Timespec { tv_sec: 0, tv_nsec: 50_000_000 };
        loop {
            if self.stopped.load(Ordering::Relaxed) {
                return Err(io::Error::other("interrupted"));
            }
            let mut fds = [PollFd::new(&self.file, PollFlags::IN)];
            match poll(&mut fds, Some(&wait)) {
                Ok(0) | Err(Errno::INTR) => continue,
                Ok(_) => {}
                Err(error) => return Err(error.into()),
            }
            match io::Read::read(&mut self.file, buf) {
                Err(error) if matches!(error.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted) => {}
                read => return read,
            }
        }
    }
}

/// Writes `bytes` (compressed by `codec`) to a [`NewFile`] at `path`,
/// which replaces a file there, unless `only_new`.
fn write_new(path: &Path, bytes: &[u8], codec: Option<FileCodec>, only_new: bool) -> Result<(), Error> {
    let file = NewFile::create(path, "save")?;
    let error = |source| Error::File { path: file.name().to_owned(), source };
    let mut out = Encoder::new(file.file(), codec.map(FileCodec::at_default), 1).map_err(error)?;
    out.write_all(bytes).and_then(|()| out.finish().map(drop)).map_err(error)?;
    if only_new { file.commit_new() } else { file.commit() }
}

/// Adds a PGN game at the end of the file at `path`, in what the file
/// holds: gzip, zstd or bzip2 data (told by its first bytes) gets a member,
/// frame or stream of its own, which their tools and sanfen read as one
/// text with the file's; the game comes after a blank line, in the file's
/// encoding (UTF-8, or Windows-1252 when its text is not UTF-8) and with
/// its line ends (as its first line ends, `\r\n` or `\n`). The file
/// keeps its owner, mode, links and attributes (it is written, not
/// replaced), and on an error is cut back to its size before. Its lock is
/// held meanwhile ([`lock_to_append`]). Refused: a read-only file (no write
/// bit in its mode), a file locked for longer than [`APPEND_LOCK_WAIT`], and
/// a file a game added to could not be read back from ([`text_end`]), and a
/// game with a character Windows-1252 has no place for, for a file in it.
/// The codec the game was compressed by.
fn append(path: &Path, bytes: &[u8]) -> Result<Option<FileCodec>, Error> {
    let error = |source| Error::File { path: shown_name(path.as_os_str()), source };
    let mut file = fs::File::options().read(true).append(true).open(path).map_err(error)?;
    lock_to_append(&file, APPEND_LOCK_WAIT).map_err(error)?;
    let metadata = file.metadata().map_err(error)?;
    let mode = metadata.mode() & 0o7777;
    if mode & 0o222 == 0 {
        // as a file replaced: its mode says no, even to root
        return Err(error(io::Error::other(format!("read-only (mode {mode:04o}): not appended to"))));
    }
    let size = metadata.len();
    let text = if size == 0 {
        TextEnd { codec: FileCodec::of_path(path), end: Vec::new(), windows_1252: false, crlf: false }
    } else {
        text_end(&file, size).map_err(error)?
    };
    let end: Vec<u8> = text.end.iter().copied().filter(|&byte| byte != b'\r').collect();
    let separator: &[u8] = match end.as_slice() {
        [] | [.., b'\n', b'\n'] | [b'\n'] => b"",
        [.., b'\n'] => b"\n",
        _ => b"\n\n",
    };
    let Some(game) = written_as(&[separator, bytes].concat(), text.windows_1252, text.crlf) else {
        return Err(error(io::Error::other(
            "its games are written in Windows-1252, which has no place for every character of this game: not \
             appended to",
        )));
    };
    let codec = text.codec;
    let mut added = Encoder::new(Vec::new(), codec.map(FileCodec::at_default), 1).map_err(error)?;
    added.write_all(&game).map_err(error)?;
    let added = added.finish().map_err(error)?;
    if let Err(err) = file.write_all(&added).and_then(|()| file.sync_all()) {
        // nothing half-written stays, and only what was written goes: not
        // what a program that takes no lock may have added meanwhile
        if file.metadata().is_ok_and(|now| now.len() <= size + added.len() as u64) {
            let _ = file.set_len(size);
        }
        return Err(error(err));
    }
    Ok(codec)
}

/// How long `append` waits for another program adding to the file.
const APPEND_LOCK_WAIT: Duration = Duration::from_secs(5);

/// Takes the file's lock (`flock`, exclusive) for an append: another sanfen
/// adding to it meanwhile would make the end just read (and so the blank
/// line between the games) wrong, and would lose its game if this one's
/// failed and was cut back. Waits up to `wait` for a program holding it; a
/// file system without locks appends without.
fn lock_to_append(file: &fs::File, wait: Duration) -> io::Result<()> {
    let start = Instant::now();
    loop {
        match rustix::fs::flock(file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => return Ok(()),
            Err(Errno::WOULDBLOCK) if start.elapsed() < wait => std::thread::sleep(Duration::from_millis(20)),
            Err(Errno::WOULDBLOCK) => {
                return Err(io::Error::new(
                    io::ErrorKind::WouldBlock,
                    format!("locked by another program (waited {} s): not appended to", wait.as_secs()),
                ));
            }
            Err(Errno::INTR) => {}
            // (`ENOLCK`, `EOPNOTSUPP`: no locks there)
            Err(_) => return Ok(()),
        }
    }
}

/// What [`append`] needs of the text of a file: its codec, its last bytes
/// (to end it with a blank line), and how its text is written.
struct TextEnd {
    codec: Option<FileCodec>,
    /// The last four bytes of the text (fewer in a shorter one).
    end: Vec<u8>,
    /// Not UTF-8: Windows-1252, as the reader takes it.
    windows_1252: bool,
    /// Its first line ends with `\r\n`.
    crlf: bool,
}

/// The text of `file` (of `size` bytes, not 0), read to its end (compressed
/// data decompressed): its codec, its end, its encoding and line ends.
/// Refused, as a game added to it could not be read back: a file that is
/// not PGN text (a game after it would be taken for more of it), and
/// compressed data that is damaged or cut short (a reader stops there).
fn text_end(file: &fs::File, size: u64) -> io::Result<TextEnd> {
    let refused = |why: String| io::Error::other(format!("{why}: not appended to"));
    let mut input = Input::from_reader(file.try_clone()?, Some(size))?;
    if let Some(not_text) = input.not_text {
        return Err(refused(format!("not PGN text: {not_text}")));
    }
    let mut text = TextEnd {
        codec: input.compression.map(FileCodec::of),
        end: Vec::with_capacity(8),
        windows_1252: false,
        crlf: false,
    };
    // a UTF-8 sequence cut by the end of a block; the first line end not seen yet
    let (mut cut, mut first_line) = (Vec::new(), true);
    let mut buffer = vec![0; 1 << 16];
    let mut read = 0u64;
    loop {
        let n = match input.reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => {
                let failed = ReadError::new(read, input.compression, &err);
                return Err(refused(format!("{failed}; a game added after it would not be read")));
            }
        };
        let block = &buffer[..n];
        // (as `uses_crlf` tells, across blocks)
        if first_line && let Some(at) = memchr::memchr(b'\n', block) {
            let before = if at > 0 { block.get(at - 1) } else { text.end.last() };
            (text.crlf, first_line) = (before == Some(&b'\r'), false);
        }
        if !text.windows_1252 {
            if !cut.is_empty() {
                cut.extend_from_slice(block);
            }
            let checked = if cut.is_empty() { block } else { &cut[..] };
            cut = match str::from_utf8(checked) {
                Ok(_) => Vec::new(),
                Err(error) if error.error_len().is_none() => checked[error.valid_up_to()..].to_vec(),
                Err(_) => {
                    text.windows_1252 = true;
                    Vec::new()
                }
            };
        }
        read += n as u64;
        text.end.extend_from_slice(&block[n.saturating_sub(4)..]);
        text.end.drain(..text.end.len() - text.end.len().min(4));
    }
    // (a sequence cut by the text's end is no UTF-8)
    text.windows_1252 |= !cut.is_empty();
    Ok(text)
}

/// The prompt: `12. white> `, or once the game is over, `12. white (game
/// over, 1-0)> `.
fn prompt(session: &Session) -> String {
    let position = session.game().position();
    match session.over() {
        Some(over) => format!("{}. {} (game over, {})> ", position.fullmoves(), position.turn().name(), over.result),
        None => format!("{}. {}> ", position.fullmoves(), position.turn().name()),
    }
}

/// Where the line history is kept: `$XDG_DATA_HOME/sanfen/history`, or
/// `~/.local/share/sanfen/history`.
fn history_path() -> Option<PathBuf> {
    let data = match std::env::var_os("XDG_DATA_HOME").map(PathBuf::from) {
        Some(dir) if dir.is_absolute() => dir,
        _ => PathBuf::from(std::env::var_os("HOME").filter(|h| !h.is_empty())?).join(".local/share"),
    };
    Some(data.join("sanfen").join("history"))
}

/// The line editor loop, in a terminal: the greeting, `intro` (which
/// Chess960 position is played, the game loaded), the board when `board`
/// is on, then a prompt for each line.
fn edit(mut session: Session, style: Style, intro: &Response, board: bool) -> Result<ExitCode, Error> {
    let config = Config::builder().completion_type(CompletionType::List).auto_add_history(true).build();
    let mut editor: Editor<LineHelper, DefaultHistory> =
        Editor::with_config(config).map_err(|e| Error::Input(io::Error::other(e)))?;
    editor.set_helper(Some(LineHelper { completer: Completer::default(), color: style.color }));
    let history = history_path();
    if let Some(path) = &history {
        // a first run has no history yet
        let _ = editor.load_history(path);
    }
    let stop = session.stop_flag();
    // Ctrl-C during a search raises the stop flag (at the prompt the editor
    // reads it as a key); if the handler cannot be set, Ctrl-C ends the
    // program during a search, as it did without one
    let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, stop);
    let mut out = io::stdout();
    writeln!(out, "sanfen {}: type moves or a command (help, quit); Tab completes", env!("CARGO_PKG_VERSION"))
        .map_err(Error::Output)?;
    let mut saved = Saved::default();
    write_response(&mut out, intro, style, &session, &mut saved).map_err(Error::Output)?;
    if board {
        let response = session.eval("board");
        write_response(&mut out, &response, style, &session, &mut saved).map_err(Error::Output)?;
    }
    loop {
        if let Some(helper) = editor.helper_mut() {
            helper.completer = session.completer();
        }
        match editor.readline(&prompt(&session)) {
            Ok(line) => {
                let response = session.eval(&line);
                write_response(&mut out, &response, style, &session, &mut saved).map_err(Error::Output)?;
                if response.quit {
                    break;
                }
            }
            // Ctrl-C: the line is dropped, the session goes on
            Err(ReadlineError::Interrupted) => {}
            Err(ReadlineError::Eof) => break,
            Err(ReadlineError::Io(err)) => return Err(Error::Input(err)),
            Err(err) => return Err(Error::Input(io::Error::other(err))),
        }
    }
    if let Some(path) = &history {
        // never fail for a history that cannot be written
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = editor.save_history(path);
    }
    Ok(ExitCode::Valid)
}

/// Completion, hints and hint colour for the line editor.
struct LineHelper {
    /// What completes a word in the current position.
    completer: Completer,
    /// Hints dimmed with ANSI escapes.
    color: bool,
}

impl completion::Completer for LineHelper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        if let Some(files) = file_completion(line, pos) {
            return Ok(files);
        }
        let (start, words) = self.completer.complete(line, pos);
        Ok((start, words.into_iter().map(|w| Pair { display: w.clone(), replacement: w }).collect()))
    }
}

/// The commands whose argument is a file name, which Tab completes from the
/// file system (`load` also takes a FEN or PGN text: no file starts so).
const FILE_COMMANDS: [&str; 4] = ["load", "save", "save!", "append"];

/// The most entries of a directory looked at for one completion: a
/// directory of millions of files answers Tab at once all the same.
const MOST_ENTRIES: usize = 10_000;

/// The completion of a file name after one of [`FILE_COMMANDS`], ending at
/// byte `pos` of `line`: where the name starts, and the entries of its
/// directory that begin with what is typed of its last part (those beginning
/// with a dot only when it does), sorted; a directory with a `/` after it; a
/// name holding a space, or begun with a double quote, in double quotes (as
/// `load` and `save` read it). Names that are not UTF-8 or hold a control
/// character are left out: they would reach the terminal as they are. `None`
/// when the line is no such command's.
fn file_completion(line: &str, pos: usize) -> Option<(usize, Vec<Pair>)> {
    let before = line.get(..pos)?;
    let command_start = before.len() - before.trim_start().len();
    let command_end = command_start + before[command_start..].find(char::is_whitespace)?;
    if !FILE_COMMANDS.contains(&before[command_start..command_end].to_ascii_lowercase().as_str()) {
        return None;
    }
    let rest = &before[command_end..];
    let start = command_end + (rest.len() - rest.trim_start().len());
    let typed = &before[start..];
    let (quoted, typed) = match typed.strip_prefix('"') {
        Some(inside) => (true, inside),
        None => (false, typed),
    };
    let (directory, prefix) = match typed.rfind('/') {
        Some(slash) => (&typed[..=slash], &typed[slash + 1..]),
        None => ("", typed),
    };
    let listed = if directory.is_empty() { PathBuf::from(".") } else { typed_path(directory) };
    let Ok(entries) = fs::read_dir(listed) else { return Some((start, Vec::new())) };
    let mut names: Vec<(String, bool)> = entries
        .take(MOST_ENTRIES)
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let name = entry.file_name().into_string().ok()?;
            let shown = name.starts_with(prefix)
                && (prefix.starts_with('.') || !name.starts_with('.'))
                && !name.chars().any(char::is_control);
            // (a symbolic link to a directory is one)
            shown.then(|| (name, entry.path().is_dir()))
        })
        .collect();
    names.sort();
    let pairs = names
        .into_iter()
        .map(|(name, is_dir)| {
            let path = format!("{directory}{name}{}", if is_dir { "/" } else { "" });
            let replacement = if quoted || path.contains(char::is_whitespace) {
                // a directory's quote stays open for the name typed after it
                format!("\"{path}{}", if is_dir { "" } else { "\"" })
            } else {
                path
            };
            Pair { display: format!("{name}{}", if is_dir { "/" } else { "" }), replacement }
        })
        .collect();
    Some((start, pairs))
}

impl Hinter for LineHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<String> {
        self.completer.hint(line, pos)
    }
}

impl Highlighter for LineHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color { Cow::Owned(format!("\x1b[2m{hint}\x1b[0m")) } else { Cow::Borrowed(hint) }
    }
}

impl Validator for LineHelper {}

impl Helper for LineHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passing_on_stops_at_its_count_at_the_end_or_when_the_flag_is_raised() {
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let stop = AtomicBool::new(false);
        let (mut input, mut out) = (&bytes[..], Vec::new());
        assert!(matches!(pass_on(&mut input, &mut out, 150_000, &stop), Ok(150_000)));
        assert!(matches!(pass_on(&mut input, &mut out, u64::MAX, &stop), Ok(50_000)));
        assert!(out == bytes);
        stop.store(true, Ordering::Relaxed);
        let (mut input, mut out) = (&bytes[..], Vec::new());
        assert!(matches!(pass_on(&mut input, &mut out, u64::MAX, &stop), Err(Passing::Stopped)));
        assert!(out.is_empty());
    }

    const ASCII: Style = Style { ascii: true, color: false };

    /// Runs `input` through a session from the initial position; what it printed.
    fn run(options: SessionOptions, style: Style, input: &str) -> String {
        let mut out = Vec::new();
        script(Session::new(options), style, &Response::default(), input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn run_script(input: &str) -> String {
        run(SessionOptions::default(), Style::default(), input)
    }

    /// The lines printed for the last line of `input`, in ASCII.
    fn last_response(options: SessionOptions, style: Style, setup: &str, line: &str) -> Vec<String> {
        let before = run(options.clone(), style, setup).len();
        let all = run(options, style, &format!("{setup}{line}\n"));
        all[before..].lines().map(str::to_owned).collect()
    }

    #[test]
    fn script_prints_each_response_and_stops_at_quit() {
        assert_eq!(
            run_script("e4\r\nfen\nquit\nfen\n"),
            "1. e4\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
             rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
        );
        assert_eq!(run_script(""), "");
    }

    #[test]
    fn boards_drawn_flipped_and_after_moves() {
        let board = [
            "8  r  n  b  q  k  b  n  r  8",
            "7  p  p  p  p  p  p  p  p  7",
            "6  .  .  .  .  .  .  .  .  6",
            "5  .  .  .  .  .  .  .  .  5",
            "4  .  .  .  . <P> .  .  .  4",
            "3  .  .  .  .  .  .  .  .  3",
            "2  P  P  P  P <.> P  P  P  2",
            "1  R  N  B  Q  K  B  N  R  1",
            "   a  b  c  d  e  f  g  h",
            "last move: 1. e4, Black to move",
        ];
        let options = SessionOptions::default();
        assert_eq!(last_response(options.clone(), ASCII, "e4\n", "board"), board);
        let flipped = [
            "1  R  N  B  K  Q  B  N  R  1",
            "2  P  P  P <.> P  P  P  P  2",
            "3  .  .  .  .  .  .  .  .  3",
            "4  .  .  . <P> .  .  .  .  4",
            "5  .  .  .  .  .  .  .  .  5",
            "6  .  .  .  .  .  .  .  .  6",
            "7  p  p  p  p  p  p  p  p  7",
            "8  r  n  b  k  q  b  n  r  8",
            "   h  g  f  e  d  c  b  a",
            "last move: 1. e4, Black to move",
        ];
        assert_eq!(last_response(options.clone(), ASCII, "e4\n", "flip"), flipped);
        assert_eq!(last_response(options.clone(), ASCII, "e4\nflip\n", "flip"), board);
        let expected = [
            "1... e5",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "8  r  n  b  q  k  b  n  r  8",
            "7  p  p  p  p <.> p  p  p  7",
            "6  .  .  .  .  .  .  .  .  6",
            "5  .  .  .  . <p> .  .  .  5",
            "4  .  .  .  .  P  .  .  .  4",
            "3  .  .  .  .  .  .  .  .  3",
            "2  P  P  P  P  .  P  P  P  2",
            "1  R  N  B  Q  K  B  N  R  1",
            "   a  b  c  d  e  f  g  h",
            "last move: 1... e5, White to move",
        ];
        assert_eq!(last_response(options, ASCII, "e4\nboard on\n", "e5"), expected);
    }

    #[test]
    fn no_colour_marks_the_last_move_and_a_checked_king_in_text() {
        let options = SessionOptions { board: true, ..SessionOptions::default() };
        let lines = last_response(options.clone(), ASCII, "f3 e5 g4\n", "Qh4");
        assert_eq!(
            lines[3..],
            [
                "8  r  n  b <.> k  b  n  r  8",
                "7  p  p  p  p  .  p  p  p  7",
                "6  .  .  .  .  .  .  .  .  6",
                "5  .  .  .  .  p  .  .  .  5",
                "4  .  .  .  .  .  .  P <q> 4",
                "3  .  .  .  .  .  P  .  .  3",
                "2  P  P  P  P  P  .  .  P  2",
                "1  R  N  B  Q +K+ B  N  R  1",
                "   a  b  c  d  e  f  g  h",
                "last move: 2... Qh4#, White to move, checkmate",
            ]
        );
        // figurines, a check that is no mate, the board flipped
        let unicode = Style { ascii: false, color: false };
        let lines = last_response(options.clone(), unicode, "e4 f5\nflip\n", "Qh5");
        assert_eq!(
            lines[2..],
            [
                "1  ♖  ♘  ♗  ♔ <·> ♗  ♘  ♖  1",
                "2  ♙  ♙  ♙  ·  ♙  ♙  ♙  ♙  2",
                "3  ·  ·  ·  ·  ·  ·  ·  ·  3",
                "4  ·  ·  ·  ♙  ·  ·  ·  ·  4",
                "5 <♕> ·  ♟  ·  ·  ·  ·  ·  5",
                "6  ·  ·  ·  ·  ·  ·  ·  ·  6",
                "7  ♟  ♟  ·  ♟  ♟  ♟  ♟  ♟  7",
                "8  ♜  ♞  ♝ +♚+ ♛  ♝  ♞  ♜  8",
                "   h  g  f  e  d  c  b  a",
                "last move: 2. Qh5+, Black to move, check",
            ]
        );
        // a stalemate, from a position with no move played: no last move
        let start = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse().unwrap();
        let options = SessionOptions { start, ..SessionOptions::default() };
        assert_eq!(last_response(options, ASCII, "", "board")[9], "Black to move, stalemate");
    }

    #[test]
    fn colour_marks_the_last_move_and_a_checked_king() {
        let options = SessionOptions { board: true, ..SessionOptions::default() };
        let lines = last_response(options, Style { ascii: true, color: true }, "", "f3 e5 g4 Qh4");
        assert_eq!(lines[13], "4  .  .  .  .  .  .  P \x1b[43m q \x1b[0m 4");
        assert_eq!(lines[16], "1  R  N  B  Q \x1b[41m K \x1b[0m B  N  R  1");
        assert_eq!(lines[15], "2  P  P  P  P  P  .  .  P  2");
        assert!(lines[9].starts_with("8  r  n  b \x1b[43m . \x1b[0m k"));
    }

    #[test]
    fn unicode_board() {
        let lines = last_response(SessionOptions::default(), Style::default(), "", "board");
        assert_eq!(lines[0], "8  ♜  ♞  ♝  ♛  ♚  ♝  ♞  ♜  8");
        assert_eq!(lines[3], "5  ·  ·  ·  ·  ·  ·  ·  ·  5");
        assert_eq!(lines[7], "1  ♖  ♘  ♗  ♕  ♔  ♗  ♘  ♖  1");
    }

    #[test]
    fn marked_squares() {
        let setup = "e4 e5 Nf3 Nc6\n";
        let options = SessionOptions::default();
        assert_eq!(
            last_response(options.clone(), ASCII, setup, "moves f3"),
            [
                "white knight on f3 moves to: g1 d4 h4 e5 g5",
                "8  r <.> b  q  k  b  n  r  8",
                "7  p  p  p  p  .  p  p  p  7",
                "6  .  . <n> .  .  .  .  .  6",
                "5  .  .  .  . (p) .  *  .  5",
                "4  .  .  .  *  P  .  .  *  4",
                "3  .  .  .  .  . [N] .  .  3",
                "2  P  P  P  P  .  P  P  P  2",
                "1  R  N  B  Q  K  B  *  R  1",
                "   a  b  c  d  e  f  g  h",
                "last move: 2... Nc6, White to move",
            ]
        );
        assert_eq!(
            last_response(options.clone(), ASCII, setup, "attacks f3"),
            [
                "white knight on f3 is safe on: g1",
                "8  r <.> b  q  k  b  n  r  8",
                "7  p  p  p  p  .  p  p  p  7",
                "6  .  . <n> .  .  .  .  .  6",
                "5  .  .  .  .  p  .  .  .  5",
                "4  .  .  .  .  P  .  .  .  4",
                "3  .  .  .  .  . [N] .  .  3",
                "2  P  P  P  P  .  P  P  P  2",
                "1  R  N  B  Q  K  B  *  R  1",
                "   a  b  c  d  e  f  g  h",
                "last move: 2... Nc6, White to move",
            ]
        );
        // the command's marks win over the last move's
        assert_eq!(
            last_response(options.clone(), ASCII, setup, "moves c6")[..4],
            [
                "black knight on c6 reaches (not its turn): b4 d4 a5 e7 b8",
                "8  r  *  b  q  k  b  n  r  8",
                "7  p  p  p  p  *  p  p  p  7",
                "6  .  . [n] .  .  .  .  .  6",
            ]
        );
        assert_eq!(last_response(options, ASCII, setup, "attacks")[5], "4  .  *  .  *  P  *  .  *  4");
    }

    #[test]
    fn save_writes_the_file_or_says_why_not() {
        let dir = std::env::temp_dir().join(format!("sanfen-repl-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (pgn, bin) = (dir.join("game.pgn"), dir.join("game.bin"));
        let missing = dir.join("no-such-dir").join("game.pgn");
        let input = format!("e4 e5\nsave {}\nsave {}\nsave {}\n", pgn.display(), bin.display(), missing.display());
        let out = run_script(&input);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[4], format!("saved 2 moves to {} (PGN)", pgn.display()));
        assert_eq!(lines[5], format!("saved 2 moves to {} (binary log, 32 bytes)", bin.display()));
        assert!(lines[6].starts_with(&format!("cannot write {}: ", missing.display())), "{}", lines[6]);
        assert_eq!(lines.len(), 7);
        assert!(std::fs::read_to_string(&pgn).unwrap().ends_with("\n\n1. e4 e5 *\n"));
        // a name typed with a control character is written as typed, shown escaped
        let out = run_script(&format!("e4\nsave {}/a\x1b[2J.pgn\n", dir.display()));
        assert_eq!(out.lines().nth(2), Some(format!("saved 1 move to {}/a\\x1b[2J.pgn (PGN)", dir.display()).as_str()));
        assert!(dir.join("a\x1b[2J.pgn").is_file());
        assert_eq!(
            std::fs::read(&bin).unwrap(),
            [1, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 6, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A new directory named `name` in the temporary one, with a FIFO
    /// `live.pgn` in it.
    fn fifo_in(name: &str) -> (PathBuf, PathBuf) {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("live.pgn");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        (dir, fifo)
    }

    #[test]
    fn a_save_to_a_fifo_waits_for_its_reader_until_the_stop_flag_is_raised() {
        let (dir, fifo) = fifo_in("sanfen-repl-save-fifo");
        assert!(is_device(&fifo) && !is_device(&dir) && !is_device(&dir.join("none")));
        let stop = Arc::new(AtomicBool::new(true));
        // no reader: the wait ends when the flag is raised (one raised before
        // the save stops nothing)
        let raise = {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(200));
                stop.store(true, Ordering::Relaxed);
            })
        };
        let error = write_device(&fifo, b"1. e4 *\n", &stop).unwrap_err();
        assert_eq!(error.to_string(), "interrupted (Ctrl-C)");
        raise.join().unwrap();
        assert!(!stop.load(Ordering::Relaxed));
        // a reader that comes later, and reads slowly: 4 MB, far more than a
        // FIFO holds, all written
        let bytes: Vec<u8> = (0..4_000_000u32).map(|i| (i % 251) as u8).collect();
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(100));
                let mut file = fs::File::open(fifo).unwrap();
                let mut read = Vec::new();
                let mut block = [0; 65536];
                loop {
                    std::thread::sleep(Duration::from_millis(1));
                    match io::Read::read(&mut file, &mut block).unwrap() {
                        0 => return read,
                        n => read.extend_from_slice(&block[..n]),
                    }
                }
            })
        };
        write_device(&fifo, &bytes, &stop).unwrap();
        assert!(reader.join().unwrap() == bytes);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_load_ended_by_the_stop_flag_leaves_no_reader_to_take_a_later_writers_game() {
        let (dir, fifo) = fifo_in("sanfen-repl-load-fifo");
        let mut session = Session::new(SessionOptions { open: Some(open_polled), ..SessionOptions::default() });
        let flag = session.stop_flag();
        let raise_in = |millis| {
            let stop = Arc::clone(&flag);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(millis));
                stop.store(true, Ordering::Relaxed);
            })
        };
        // no writer: the load waits until the flag is raised
        let raise = raise_in(200);
        let response = session.load_file(&fifo, None);
        raise.join().unwrap();
        let shown = fifo.display();
        assert_eq!(
            response.lines().collect::<Vec<_>>(),
            [format!("cannot read {shown}: interrupted (Ctrl-C); nothing loaded")]
        );
        // its reading thread is gone (it looks at the flag every 50 ms): a
        // writer that comes now waits for the next load, which gets its
        // whole game (a thread left in `open` took the writer, the next load
        // then waiting for one until the watchdog's flag)
        std::thread::sleep(Duration::from_millis(200));
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::write(fifo, "[White \"W\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n"))
        };
        std::thread::sleep(Duration::from_millis(100));
        // (not joined: the test ends with the load)
        drop(raise_in(5000));
        let response = session.load_file(&fifo, None);
        assert_eq!(response.lines().next(), Some(format!("loaded game 1 of {shown}: W - ?, 4 moves, *").as_str()));
        writer.join().unwrap().unwrap();
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The lines a script printed that are not FENs, and its exit code.
    fn said(input: &str) -> (Vec<String>, ExitCode) {
        let mut out = Vec::new();
        let session = Session::new(SessionOptions::default());
        let code = script(session, Style::default(), &Response::default(), input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        (text.lines().filter(|line| !line.contains(" w ") && !line.contains(" b ")).map(str::to_owned).collect(), code)
    }

    /// The games of a PGN file (compressed or not): each one's moves in SAN.
    fn games_in(path: &Path) -> Vec<Vec<String>> {
        let games = sanfen::pgn::game::read_games_path(path).unwrap();
        games.map(|game| game.unwrap().mainline.moves.iter().map(|node| node.san.to_string()).collect()).collect()
    }

    /// A game as `save` writes it (with today's date), after `moves`.
    fn game_after(moves: &str) -> Vec<u8> {
        let mut session = Session::new(SessionOptions::default());
        session.eval(moves);
        session.pgn().into_bytes()
    }

    #[test]
    fn append_refuses_a_file_a_game_could_not_be_read_back_from() {
        let dir = std::env::temp_dir().join(format!("sanfen-repl-append-refused-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let compressed = |codec: FileCodec, text: &[u8]| {
            let mut out = Encoder::new(Vec::new(), Some(codec.at_default()), 1).unwrap();
            out.write_all(text).unwrap();
            out.finish().unwrap()
        };
        let binary: Vec<u8> = (0..3000u32).map(|i| (i * 7 % 256) as u8).collect();
        let cut = |codec, keep| {
            let whole = compressed(codec, &b"1. e4 e5 2. Nf3 Nc6 *\n".repeat(100));
            whole[..keep].to_vec()
        };
        let refused = [
            (
                "binary.pgn",
                binary,
                "not PGN text: binary data: 328 of the first 3000 bytes are control bytes (the first at offset 0)",
            ),
            (
                "cut.pgn.gz",
                cut(FileCodec::Gzip, 30),
                "read failed at byte 19 of the gzip stream, decompressed: incomplete deflate stream",
            ),
            (
                "cut.pgn.zst",
                cut(FileCodec::Zstd, 30),
                "read failed at byte 0 of the zstd stream, decompressed: incomplete frame",
            ),
            (
                "cut.pgn.bz2",
                cut(FileCodec::Bzip2, 60),
                "read failed at byte 0 of the bzip2 stream, decompressed: decompression not finished but EOF reached",
            ),
        ];
        for (name, bytes, why) in refused {
            let path = dir.join(name);
            fs::write(&path, &bytes).unwrap();
            let (lines, code) = said(&format!("e4\nappend {}\n", path.display()));
            let damaged = if name.starts_with("cut") { "; a game added after it would not be read" } else { "" };
            assert_eq!(lines[1], format!("cannot write {}: {why}{damaged}: not appended to", path.display()));
            assert_eq!(code, ExitCode::Failure);
            assert_eq!(fs::read(&path).unwrap(), bytes, "{name}");
        }
        // compressed text that does not end its line: the game after a blank line, as in a text file
        let zst = dir.join("no-end.pgn.zst");
        fs::write(&zst, compressed(FileCodec::Zstd, b"1. e4 *")).unwrap();
        let (lines, code) = said(&format!("d4\nappend {}\n", zst.display()));
        assert_eq!(
            (lines[1].as_str(), code),
            (format!("appended 1 move to {} (PGN, zstd)", zst.display()).as_str(), ExitCode::Valid)
        );
        let mut text = Vec::new();
        io::Read::read_to_end(&mut zstd::Decoder::new(&fs::read(&zst).unwrap()[..]).unwrap(), &mut text).unwrap();
        assert_eq!(text, [&b"1. e4 *\n\n"[..], &game_after("d4")].concat());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn save_replaces_only_its_own_file_and_append_adds_to_one() {
        let dir = std::env::temp_dir().join(format!("sanfen-repl-own-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let (club, mine) = (dir.join("club.pgn"), dir.join("mine.pgn"));
        let (club_name, mine_name) = (club.display().to_string(), mine.display().to_string());
        // someone's file: refused, left as it was; save! replaces it, its mode kept
        fs::write(&club, "[Event \"Club\"]\n\n1. d4 *\n").unwrap();
        fs::set_permissions(&club, std::os::unix::fs::PermissionsExt::from_mode(0o640)).unwrap();
        let (lines, code) = said(&format!("e4\nsave {club_name}\n"));
        let refused = |name: &str| {
            format!("{name} exists: not replaced (save! {name} replaces it, append {name} adds this game at its end)")
        };
        assert_eq!(lines, ["1. e4".to_owned(), refused(&club_name)]);
        assert_eq!(code, ExitCode::Failure);
        assert_eq!(fs::read(&club).unwrap(), b"[Event \"Club\"]\n\n1. d4 *\n");
        let (lines, code) = said(&format!("e4\nsave! {club_name}\n"));
        assert_eq!((&lines[1][..], code), (&format!("saved 1 move to {club_name} (PGN)")[..], ExitCode::Valid));
        assert_eq!(fs::read(&club).unwrap(), game_after("e4"));
        assert_eq!(fs::metadata(&club).unwrap().mode() & 0o777, 0o640);
        // the file this session saved is saved again as the game goes on
        let input = format!("e4\nsave {mine_name}\ne5\nsave {mine_name}\nappend {mine_name}\nsave {mine_name}\n");
        let (lines, code) = said(&input);
        assert_eq!(
            lines,
            [
                "1. e4".to_owned(),
                format!("saved 1 move to {mine_name} (PGN)"),
                "1... e5".to_owned(),
                format!("saved 2 moves to {mine_name} (PGN)"),
                format!("appended 2 moves to {mine_name} (PGN)"),
                // it holds two games now: not this session's alone
                refused(&mine_name),
            ]
        );
        assert_eq!(code, ExitCode::Failure);
        assert_eq!(games_in(&mine), [["e4", "e5"], ["e4", "e5"]]);
        // saved as PGN and as a move log, by turns
        let (pgn, bin) = (dir.join("both.pgn").display().to_string(), dir.join("both.bin").display().to_string());
        let (lines, code) = said(&format!("e4\nsave {pgn}\nsave {bin}\ne5\nsave {pgn}\nsave {bin}\n"));
        assert_eq!(
            lines[4..],
            [format!("saved 2 moves to {pgn} (PGN)"), format!("saved 2 moves to {bin} (binary log, 32 bytes)")]
        );
        assert_eq!(code, ExitCode::Valid);
        // nor once another program changed it
        let mut session = Session::new(SessionOptions::default());
        let mut saved = Saved::default();
        let mut say = |line: &str| {
            let mut out = Vec::new();
            let response = session.eval(line);
            write_response(&mut out, &response, Style::default(), &session, &mut saved).unwrap();
            String::from_utf8(out).unwrap().lines().last().unwrap_or_default().to_owned()
        };
        let later = dir.join("later.pgn").display().to_string();
        say("e4");
        assert_eq!(say(&format!("save {later}")), format!("saved 1 move to {later} (PGN)"));
        fs::write(&later, "edited\n").unwrap();
        assert_eq!(say(&format!("save {later}")), refused(&later));
        assert_eq!(fs::read(&later).unwrap(), b"edited\n");
        // nor once changed with its size and modification time kept (`cp
        // -p`, `rsync -t`): its change time tells
        let kept = dir.join("kept.pgn").display().to_string();
        assert_eq!(say(&format!("save {kept}")), format!("saved 1 move to {kept} (PGN)"));
        let modified = fs::metadata(&kept).unwrap().modified().unwrap();
        let edited = String::from_utf8(fs::read(&kept).unwrap()).unwrap().replace("[White \"?\"]", "[White \"!\"]");
        fs::write(&kept, &edited).unwrap();
        fs::File::options().write(true).open(&kept).unwrap().set_modified(modified).unwrap();
        assert_eq!(fs::metadata(&kept).unwrap().modified().unwrap(), modified);
        assert_eq!(say(&format!("save {kept}")), refused(&kept));
        assert_eq!(fs::read_to_string(&kept).unwrap(), edited);
        // nor with another game of the session's in it: after `new`, `load`
        let other = dir.join("other.pgn").display().to_string();
        assert_eq!(say(&format!("save {other}")), format!("saved 1 move to {other} (PGN)"));
        say("new");
        say("d4");
        assert_eq!(say(&format!("save {other}")), refused(&other));
        say(&format!("load {other}"));
        assert_eq!(say(&format!("save {other}")), refused(&other));
        assert_eq!(games_in(Path::new(&other)), [["e4"]]);
        // the game loaded from it, saved there: its own again
        say(&format!("save! {other}"));
        say("e5");
        assert_eq!(say(&format!("save {other}")), format!("saved 2 moves to {other} (PGN)"));
        // a game number the file cannot take is a file save refused
        let (lines, code) = said(&format!("e4\nsave {other} 0\n"));
        assert_eq!((&lines[1][..], code), ("games are counted from 1", ExitCode::Failure));
        fs::remove_dir_all(&dir).unwrap();
    }

    /// An append waits for the lock of another one to the same file, and
    /// reads the file's end only once it holds it: the blank line goes after
    /// what the other added. A lock held too long refuses it.
    #[test]
    fn appends_to_one_file_wait_for_each_other() {
        let dir = std::env::temp_dir().join(format!("sanfen-repl-append-lock-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("shared.pgn");
        fs::write(&path, "1. e4 *").unwrap();
        let mut other = fs::File::options().append(true).open(&path).unwrap();
        rustix::fs::flock(&other, FlockOperation::LockExclusive).unwrap();
        let refused = lock_to_append(&fs::File::open(&path).unwrap(), Duration::from_millis(50)).unwrap_err();
        assert_eq!(refused.kind(), io::ErrorKind::WouldBlock);
        assert_eq!(refused.to_string(), "locked by another program (waited 0 s): not appended to");
        let appending = std::thread::spawn({
            let path = path.clone();
            move || append(&path, b"1. c4 *\n").map_err(|err| err.to_string())
        });
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(fs::read(&path).unwrap(), b"1. e4 *");
        other.write_all(b"\n\n1. d4 *\n").unwrap();
        drop(other);
        assert_eq!(appending.join().unwrap(), Ok(None));
        assert_eq!(fs::read(&path).unwrap(), b"1. e4 *\n\n1. d4 *\n\n1. c4 *\n");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn append_adds_the_game_after_a_blank_line_or_in_a_compressed_member() {
        let dir = std::env::temp_dir().join(format!("sanfen-repl-append-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let game = game_after("d4 d5");
        let crlf_game = String::from_utf8(game.clone()).unwrap().replace('\n', "\r\n").into_bytes();
        // text: the game after one blank line, whatever the file ends with,
        // its lines ending as the file's first line does
        for (name, before, between, game) in [
            ("empty.pgn", "", "", &game),
            ("no-end.pgn", "1. e4 *", "\n\n", &game),
            ("one-end.pgn", "1. e4 *\n", "\n", &game),
            ("blank.pgn", "1. e4 *\n\n", "", &game),
            ("crlf.pgn", "1. e4 *\r\n", "\r\n", &crlf_game),
            ("crlf-blank.pgn", "1. e4 *\r\n\r\n", "", &crlf_game),
            ("crlf-no-end.pgn", "[Event \"?\"]\r\n\r\n1. e4 *", "\r\n\r\n", &crlf_game),
        ] {
            let path = dir.join(name);
            fs::write(&path, before).unwrap();
            let (lines, code) = said(&format!("d4 d5\nappend {}\n", path.display()));
            assert_eq!(lines[2], format!("appended 2 moves to {} (PGN)", path.display()));
            assert_eq!(code, ExitCode::Valid);
            assert_eq!(fs::read(&path).unwrap(), [before.as_bytes(), between.as_bytes(), game].concat(), "{name}");
        }
        // a file in Windows-1252: the game in it too, or refused
        let latin = dir.join("latin.pgn");
        let before: &[u8] = b"[White \"R\xe9ti\"]\n\n1. Nf3 {\x93Open\x94} *\n";
        fs::write(&latin, before).unwrap();
        let (lines, code) =
            said(&format!("tag White Réti\nNf3\nappend {0}\ntag Black Жуков\nappend {0}\n", latin.display()));
        let refused = "its games are written in Windows-1252, which has no place for every character of this game";
        assert_eq!(
            lines[lines.len() - 3..],
            [
                format!("appended 1 move to {} (PGN)", latin.display()),
                "[Black \"Жуков\"]".to_owned(),
                format!("cannot write {}: {refused}: not appended to", latin.display()),
            ]
        );
        assert_eq!(code, ExitCode::Failure);
        let mut session = Session::new(SessionOptions::default());
        session.eval("tag White Réti");
        session.eval("Nf3");
        let written = session.pgn();
        let (encoded, _, _) = encoding_rs::WINDOWS_1252.encode(&written);
        assert!(encoded.contains(&b'\xe9') && !encoded.contains(&b'\xc3'));
        assert_eq!(fs::read(&latin).unwrap(), [before, b"\n", &encoded].concat());
        // hard links and mode kept: the file is written, not replaced
        let linked = dir.join("linked.pgn");
        fs::hard_link(dir.join("one-end.pgn"), &linked).unwrap();
        fs::set_permissions(&linked, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
        said(&format!("e4\nappend {}\n", linked.display()));
        assert_eq!(fs::read(&linked).unwrap(), fs::read(dir.join("one-end.pgn")).unwrap());
        assert_eq!(games_in(&linked), [vec!["e4"], vec!["d4", "d5"], vec!["e4"]]);
        assert_eq!(fs::metadata(&linked).unwrap().mode() & 0o777, 0o600);
        fs::set_permissions(&linked, std::os::unix::fs::PermissionsExt::from_mode(0o444)).unwrap();
        let (lines, code) = said(&format!("e4\nappend {}\n", linked.display()));
        assert_eq!(lines[1], format!("cannot write {}: read-only (mode 0444): not appended to", linked.display()));
        assert_eq!(code, ExitCode::Failure);
        assert_eq!(games_in(&linked).len(), 3);
        // compressed as the name says when new, as the data is when not
        let (gz, zst, bz2) = (dir.join("g.pgn.gz"), dir.join("g.pgn.zst"), dir.join("g.pgn.bz2"));
        let plain_named_gz = dir.join("plain.pgn.gz");
        fs::write(&plain_named_gz, "1. e4 *\n").unwrap();
        let input = format!(
            "d4 d5\nsave {}\nappend {}\nappend {}\nappend {}\nappend {}\nappend {}\nappend {}\n",
            gz.display(),
            gz.display(),
            zst.display(),
            zst.display(),
            bz2.display(),
            bz2.display(),
            plain_named_gz.display()
        );
        let (lines, code) = said(&input);
        assert_eq!(
            lines[2..],
            [
                format!("saved 2 moves to {} (PGN, gzip)", gz.display()),
                format!("appended 2 moves to {} (PGN, gzip)", gz.display()),
                format!("appended 2 moves to {} (PGN, zstd)", zst.display()),
                format!("appended 2 moves to {} (PGN, zstd)", zst.display()),
                format!("appended 2 moves to {} (PGN, bzip2)", bz2.display()),
                format!("appended 2 moves to {} (PGN, bzip2)", bz2.display()),
                format!("appended 2 moves to {} (PGN)", plain_named_gz.display()),
            ]
        );
        assert_eq!(code, ExitCode::Valid);
        for (path, magic) in [(&gz, &[0x1f, 0x8b][..]), (&zst, &[0x28, 0xb5, 0x2f, 0xfd]), (&bz2, b"BZh9")] {
            assert!(fs::read(path).unwrap().starts_with(magic), "{path:?}");
            assert_eq!(games_in(path), [["d4", "d5"], ["d4", "d5"]], "{path:?}");
        }
        let mut text = Vec::new();
        io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(&fs::read(&gz).unwrap()[..]), &mut text).unwrap();
        assert_eq!(text, [&game[..], b"\n", &game].concat());
        assert_eq!(fs::read(&plain_named_gz).unwrap(), [&b"1. e4 *\n\n"[..], &game].concat());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn prompt_shows_the_move_number_and_the_side() {
        let mut session = Session::new(SessionOptions::default());
        assert_eq!(prompt(&session), "1. white> ");
        session.eval("e4");
        assert_eq!(prompt(&session), "1. black> ");
        session.eval("e5");
        assert_eq!(prompt(&session), "2. white> ");
    }

    #[test]
    fn the_line_editor_completes_and_hints_from_the_session() {
        let mut session = Session::new(SessionOptions::default());
        session.eval("letters pt");
        let helper = LineHelper { completer: session.completer(), color: false };
        let history = DefaultHistory::new();
        let ctx = Context::new(&history);
        let (start, pairs) = completion::Completer::complete(&helper, "C", 1, &ctx).unwrap();
        assert_eq!(start, 0);
        assert_eq!(pairs.iter().map(|p| p.replacement.as_str()).collect::<Vec<_>>(), ["Ca3", "Cc3", "Cf3", "Ch3"]);
        assert_eq!(helper.hint("hel", 3, &ctx), Some("p".to_owned()));
        assert_eq!(helper.highlight_hint("p"), "p");
        let coloured = LineHelper { completer: Completer::default(), color: true };
        assert_eq!(coloured.highlight_hint("p"), "\x1b[2mp\x1b[0m");
    }

    #[test]
    fn tab_completes_file_names_after_load_save_and_append() {
        let dir = std::env::temp_dir().join(format!("sanfen-complete-{}", std::process::id()));
        fs::create_dir_all(dir.join("sub")).unwrap();
        for name in ["game.pgn", "games two.pgn", ".hidden.pgn", "other.bin", "bad\x1b[2J.pgn"] {
            fs::write(dir.join(name), "").unwrap();
        }
        let shown = dir.display().to_string();
        let complete = |line: &str| {
            let (start, pairs) = file_completion(line, line.len()).unwrap();
            (start, pairs.into_iter().map(|pair| (pair.display, pair.replacement)).collect::<Vec<_>>())
        };
        let pair = |display: &str, replacement: String| (display.to_owned(), replacement);
        assert_eq!(
            complete(&format!("load {shown}/ga")),
            (
                5,
                vec![
                    pair("game.pgn", format!("{shown}/game.pgn")),
                    pair("games two.pgn", format!("\"{shown}/games two.pgn\""))
                ]
            )
        );
        // the dot files when asked for; a directory, open for what follows
        assert_eq!(
            complete(&format!("SAVE!  {shown}/.h")),
            (7, vec![pair(".hidden.pgn", format!("{shown}/.hidden.pgn"))])
        );
        assert_eq!(complete(&format!("append {shown}/s")), (7, vec![pair("sub/", format!("{shown}/sub/"))]));
        assert_eq!(complete(&format!("save \"{shown}/s")), (5, vec![pair("sub/", format!("\"{shown}/sub/"))]));
        // every entry but the dot files, and the name with a control character
        let all = complete(&format!("load {shown}/")).1;
        let names: Vec<&str> = all.iter().map(|(display, _)| display.as_str()).collect();
        assert_eq!(names, ["game.pgn", "games two.pgn", "other.bin", "sub/"]);
        // not a file command, or the command still being typed: the session's completion
        assert!(file_completion("e4 e", 4).is_none());
        assert!(file_completion("loa", 3).is_none());
        assert!(file_completion(&format!("tag Event {shown}/"), 10 + shown.len() + 1).is_none());
        // a directory that is not there: nothing
        assert_eq!(complete(&format!("load {shown}/none/x")), (5, vec![]));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn history_lives_in_the_data_directory() {
        // only the shape: the environment is the user's
        if let Some(path) = history_path() {
            assert!(path.ends_with("sanfen/history"));
        }
    }
}
