//! The binary's modules: argument parsing ([`Args`]), the commands, rendering of
//! findings for people and for tools, and exit codes. No chess logic lives here:
//! every judgement is a library call.

mod apply;
mod board_view;
mod check;
mod compressed;
mod error;
mod exit_code;
mod export;
mod fen;
mod fmt;
mod input;
mod moves;
mod moves_parquet;
mod perft;
mod pgn_input;
mod repl;
mod report;
mod resolve;
mod rewrite;
mod san;
mod split;
mod terminal;

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Parser, Subcommand};
use sanfen::MAX_PERFT_DEPTH;
use sanfen::pgn::parallel::MOST_THREADS;

pub use error::Error;
pub use exit_code::ExitCode;

/// Prints an error of the arguments (or the help, the version) as clap
/// does, but for the characters [`terminal::shown_escaped`] names, which an
/// argument may bring and clap shows as they are (it drops ESC, not the C1
/// controls nor the bidirectional ones): then escaped, in plain text.
///
/// # Errors
///
/// Those of the output.
pub fn print_args_error(err: &clap::Error) -> std::io::Result<()> {
    use std::io::Write;
    let plain = err.render().to_string();
    if !plain.chars().any(|c| terminal::shown_escaped(c) && !matches!(c, '\n' | '\t')) {
        return err.print();
    }
    let out: Box<dyn Write> =
        if err.use_stderr() { Box::new(std::io::stderr().lock()) } else { Box::new(std::io::stdout().lock()) };
    let mut shown = terminal::TerminalText::new(out);
    shown.write_all(plain.as_bytes())?;
    shown.finish()
}

/// Chess notation: check and rewrite FEN and PGN, read SAN, list legal moves.
///
/// With no command: the REPL (`sanfen repl`) on the initial position.
#[derive(Debug, Parser)]
#[command(name = "sanfen", version, about)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play moves interactively (what `sanfen` with no command runs).
    ///
    /// Type moves in any common spelling, see the FEN (and the board in a
    /// terminal), undo, ask the engine (`help` lists the commands).
    ///
    /// In a terminal: line editing, tab completion of legal moves, commands
    /// and (after `load`, `save`, `append`) file names, history in
    /// `$XDG_DATA_HOME/sanfen/history`. Otherwise: one
    /// response per input line, no prompt and no colour (`printf 'e4\ne5\nfen\n'
    /// | sanfen`). Colour only in a terminal and without `NO_COLOR`; without
    /// colour the board marks the last move (`<P>`, `<.>` where the piece
    /// left) and a king in check (`+K+`), and a line under it says what was
    /// played and who is to move. Exit code 0, 1 when `--fen` is invalid, 2
    /// for a `--chess960` number outside 0-959; piped, also 1 when a line was
    /// refused (a move that cannot be played, an unknown command, a line not
    /// UTF-8 or over 1 MiB, skipped unread) and 2 when `save` (`save!`,
    /// `append`) could not write its file, or refused it (a game number
    /// the file cannot take, a file already there: `save` writes over no
    /// file but those it saved itself, with the same game).
    Repl(ReplArgs),
    /// FEN positions: check them or write them canonically.
    #[command(subcommand, arg_required_else_help = true)]
    Fen(FenCommand),
    /// List the legal moves of a position, one per line.
    ///
    /// Exit code 0, or 1 when the FEN is invalid (its problems on stderr, as
    /// `fen check` reports them). A position no legal game reaches but whose
    /// rules can be played (a composed problem) is listed, with a warning on
    /// stderr.
    Moves(MovesArgs),
    /// Count the leaf nodes of the legal move tree DEPTH plies deep.
    ///
    /// Prints the total alone on the last line; with `--divide`, first one
    /// `MOVE: COUNT` line per legal move (UCI). Exit code 0, or 1 when the FEN
    /// is invalid. A position no legal game reaches but whose rules can be
    /// played (perft suites have many) is counted, with a warning on stderr.
    Perft(PerftArgs),
    /// Parse SAN tokens without a position and show what each says.
    ///
    /// Reads leniently (`0-0`, `e8Q`, `Ng1-f3`, `g1f3`, `nf3`, figurines, the
    /// letters of `--letters`), each non-canonical part a warning with its
    /// canonical spelling; `--strict` accepts canonical PGN SAN only. One line
    /// per token: the canonical SAN and the move in words, then the warnings
    /// (`; warning[CODE] at START..END: MESSAGE`); or `error[san:syntax] at
    /// START..END: ...`. Exit code 0 when every token is a move, 1 when one is
    /// not.
    San(san::SanArgs),
    /// Resolve SAN against a position: why each candidate is kept or not.
    ///
    /// Shows the reading, each candidate origin square (kept, or why not), the
    /// outcome, the lint findings. Per SAN: `input:`, `reading:`, one `candidate SQUARE: kept|REASON` line
    /// per piece of the named kind, then `move: SAN (UCI)` or the `illegal: ...`
    /// / `ambiguous: ...` / `invalid move at ...` diagnostic, one
    /// `warning[CODE] at START..END: MESSAGE` line per lint finding (`error[...]`
    /// with `--strict`), and `fen after: FEN`. Exit code 0 when every SAN
    /// resolves (with `--strict`: and is canonical), 1 when one does not.
    Resolve(resolve::Args),
    /// Play moves in order and print the final FEN.
    ///
    /// Move numbers (`1.`, `12...`), NAGs and `*` are skipped; a result
    /// (`1-0`) ends the game. Lint findings are warnings on stderr (`sanfen:
    /// warning: move 2 (0-0): ...`); with `--strict` they stop the run. At the
    /// first move that cannot be played (or a move after the result, or a
    /// result the board contradicts): nothing on stdout, `sanfen: move N
    /// (TEXT): REASON` on stderr, exit code 1. More than 1 MiB of moves, more than a game holds, is
    /// refused unplayed (exit code 2).
    Apply(apply::Args),
    /// Validate PGN games: moves, variations, move numbers, results, tags.
    ///
    /// Every move of the mainline and of every variation is played; move
    /// numbers, check marks, results and tags are checked. Files ending in `.gz` or `.zst` are decompressed; no file, or `-`, reads
    /// standard input. One diagnostic per finding (`FILE:LINE:COL: game N
    /// (White - Black, Event, Round), 12... Nd7: error[KIND]: MESSAGE`), then a
    /// summary line, all on stdout (`--json`: JSON Lines, `--quiet`: the summary
    /// alone). Exit code 0 when no game has an error (lint findings are
    /// warnings, errors with `--strict`), 1 when one has, 2 when a file cannot
    /// be read.
    Check(check::Args),
    /// Rewrite PGN games canonically: SAN, tag order, movetext line width.
    ///
    /// Canonical SAN, the Seven Tag Roster first, movetext wrapped at 80
    /// columns; comments, NAGs and variations kept. A game with an error (an illegal move, a syntax error, an unsupported
    /// variant) is written unchanged and reported on stderr; the exit code is
    /// then 1.
    Fmt(fmt::Args),
    /// Write PGN games as a table: one row per game, or per move.
    ///
    /// Parquet, CSV or JSON Lines (`--format`, or the output's extension),
    /// to `--output` or standard output; Parquet's pages compressed by
    /// snappy (or `--compression`), CSV and JSON Lines by zstd, gzip or
    /// bzip2 when the output's name ends with `.zst`, `.gz` or `.bz2` (or
    /// `--compression` says). The games table: file, game number,
    /// line, the Seven Tag Roster and the other tags, result, termination,
    /// plies, errors and the first error, ECO code and opening name. The
    /// moves table (`--table moves`): file, game number, ply, move number,
    /// side, SAN, UCI, the move as written when it differs, capture and
    /// check, clock and elapsed time in seconds, evaluation, NAGs, comment;
    /// `--fen` adds the position after each move, `--variations` the
    /// variations' moves with their line's path. Games are numbered from 1
    /// in each input, in input order whatever `-j`. Every move is checked as `sanfen check`
    /// checks it: a game's rows stop at a move that cannot be played, and
    /// the games table counts its errors. Exit code 0; 1 when an input
    /// cannot be read to its end (its error on stderr, the other inputs
    /// exported); 2 for a usage error or an output that cannot be written
    /// (no output file is then left).
    Export(export::Args),
    /// Cut a PGN file at game boundaries: into parts, or into byte ranges.
    ///
    /// `--parts N` or `--size BYTES`: writes the input (decompressed: plain,
    /// gzip, zstd, bzip2) as plain PGN parts `DIR/STEM-001.pgn`, ... (or
    /// compressed, `--compression zstd|gzip|bzip2`: `.pgn.zst`, `.pgn.gz`,
    /// `.pgn.bz2`) that
    /// each hold whole games and, one after another, are the input byte for
    /// byte; one line per part on stdout (`PATH: SIZE bytes, START..END`).
    /// Each part is written under a temporary name, removed on an error or
    /// a signal, and an existing file is never overwritten (the run is
    /// refused before anything is written). `--ranges N`: prints the byte
    /// ranges of N parts of an uncompressed file, one `START END` line each
    /// (END exclusive; `--json`: one JSON array), without writing them. Exit
    /// code 0, or 2 when a file cannot be read or written.
    Split(split::Args),
}

#[derive(Debug, clap::Args)]
struct ReplArgs {
    /// The starting position, as FEN [default: the initial position].
    #[arg(long, value_name = "FEN")]
    fen: Option<OsString>,
    /// Piece letters moves are read in: en, pt, es, fr, de, it, nl (a
    /// loaded game's too, when it gets further so than in English letters).
    #[arg(long, value_name = "LANG", default_value = "en")]
    letters: sanfen::san::Letters,
    /// ASCII letters on the board instead of Unicode figurines.
    #[arg(long)]
    ascii: bool,
    /// No board after each move (the default when standard input is not a
    /// terminal).
    #[arg(long)]
    no_board: bool,
    /// Chess960: start from position N (0-959; 518 is the initial position),
    /// or a random one without N; with `--fen`, read its castling rights as
    /// Chess960 (X-FEN and Shredder-FEN letters).
    #[arg(long, value_name = "N", num_args = 0..=1, value_parser = repl::parse_chess960_number)]
    chess960: Option<Option<u16>>,
    /// Start from a game: the first of a PGN file (plain, .gz, .zst, .bz2),
    /// or a binary move log (.bin); its moves can be undone, its tags,
    /// comments and result are kept for `save`.
    #[arg(value_name = "FILE", conflicts_with_all = ["fen", "chess960"])]
    file: Option<PathBuf>,
    /// The same as FILE.
    #[arg(long = "pgn", value_name = "FILE", conflicts_with_all = ["file", "fen", "chess960"])]
    pgn: Option<PathBuf>,
    /// Which game of FILE to start from, counted from 1 [default: 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    game: Option<u64>,
}

/// Which lint findings to allow and which to deny (`check`, `fmt`, `apply`,
/// `resolve`).
#[derive(Debug, Default, clap::Args)]
struct LintArgs {
    /// Neither report nor count the lint findings of this code
    /// (`pgn:missing-move-number`) or group (`pgn`, `san`); repeatable.
    /// Errors cannot be allowed; a code outweighs its group.
    #[arg(long, value_name = "CODE")]
    allow: Vec<String>,
    /// Report the lint findings of this code or group as errors (the input
    /// is then invalid); repeatable.
    #[arg(long, value_name = "CODE")]
    deny: Vec<String>,
}

impl LintArgs {
    /// The policy, with every lint finding denied when `strict` (but those
    /// `--allow` names).
    fn policy(&self, strict: bool) -> Result<sanfen::lint::LintPolicy, Error> {
        sanfen::lint::LintPolicy::from_lists(&self.allow, &self.deny, strict)
            .map_err(|err| Error::Usage(err.to_string()))
    }
}

/// The position `moves` and `perft` work on.
#[derive(Debug, clap::Args)]
struct PositionArgs {
    /// The position, as FEN [default: the initial position].
    #[arg(long, value_name = "FEN")]
    fen: Option<OsString>,
    /// Read castling rights as Chess960 (X-FEN and Shredder-FEN letters); UCI
    /// castling is then written king to rook (`e1h1`).
    #[arg(long)]
    chess960: bool,
}

#[derive(Debug, clap::Args)]
struct MovesArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// How each move is written.
    #[arg(long, value_enum, default_value_t)]
    notation: moves::NotationArg,
    /// Piece letters of `san`, `lan` and `file-prefixed`: en, pt, es, fr, de,
    /// it, nl.
    #[arg(long, value_name = "LANG", default_value = "en")]
    letters: sanfen::san::Letters,
    /// `natural`: as generated; `value`: by piece (pawn ... king), origin
    /// file and rank, destination file and rank, promotion piece (N, B, R, Q).
    #[arg(long, value_enum, default_value_t)]
    order: moves::Order,
    /// One JSON object on stdout (`fen`, `moves`, ...) and nothing else.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// First one `MOVE: COUNT` line per legal move.
    #[arg(long)]
    divide: bool,
    /// Plies to look ahead, at most 32 (a deeper tree could not be counted anyway).
    #[arg(value_name = "DEPTH", value_parser = parse_perft_depth)]
    depth: u32,
}

#[derive(Debug, Subcommand)]
enum FenCommand {
    /// Check each FEN: syntax (with byte spans) and legality, all problems at once.
    ///
    /// Prints `ok` for a FEN with no finding, otherwise one line per finding
    /// (`error[CODE] at START..END: MESSAGE` or `warning[...]`), then `ok` if the
    /// FEN is valid despite its warnings. Exit code 0 when every FEN is valid, 1
    /// when one is not.
    Check(CheckArgs),
    /// Write each valid FEN canonically: castling in KQkq order, the en passant
    /// square only when a capture there is legal, one space between fields.
    ///
    /// Invalid FENs print nothing on stdout and their errors on stderr; the exit
    /// code is then 1.
    Normalize(NormalizeArgs),
}

/// What `fen check` and `fen normalize` share.
#[derive(Debug, clap::Args)]
struct FenInputArgs {
    /// One JSON object per input on stdout (JSON Lines) and nothing else.
    #[arg(long)]
    json: bool,
    /// Read castling rights as Chess960 (X-FEN and Shredder-FEN letters).
    #[arg(long)]
    chess960: bool,
    /// FEN texts; none, or `-`, reads one FEN per line of standard input.
    #[arg(value_name = "FEN")]
    fens: Vec<OsString>,
}

#[derive(Debug, clap::Args)]
struct CheckArgs {
    #[command(flatten)]
    input: FenInputArgs,
}

#[derive(Debug, clap::Args)]
struct NormalizeArgs {
    #[command(flatten)]
    input: FenInputArgs,
    /// Keep the en passant square as given, even when no capture there is legal.
    #[arg(long)]
    keep_ep: bool,
}

/// Runs the command the arguments name.
///
/// # Errors
///
/// Reading the input or writing the output failed ([`Error::is_broken_pipe`]
/// tells a reader that went away).
pub fn run(args: Args) -> Result<ExitCode, Error> {
    match args.command {
        Some(Command::Fen(FenCommand::Check(check))) => fen::check(&fen::Options::new(check.input, false)),
        Some(Command::Fen(FenCommand::Normalize(normalize))) => {
            fen::normalize(&fen::Options::new(normalize.input, normalize.keep_ep))
        }
        Some(Command::Moves(args)) => moves::run(&moves::Options {
            fen: args.position.fen,
            chess960: args.position.chess960,
            notation: args.notation.into(),
            letters: args.letters,
            order: args.order,
            json: args.json,
        }),
        Some(Command::San(args)) => san::run(&args),
        Some(Command::Resolve(args)) => resolve::run(&args),
        Some(Command::Apply(args)) => apply::run(&args),
        Some(Command::Check(args)) => check::run(&args),
        Some(Command::Fmt(args)) => fmt::run(&args),
        Some(Command::Split(args)) => split::run(&args),
        Some(Command::Export(args)) => export::run(&args),
        Some(Command::Perft(args)) => perft::run(&perft::Options {
            fen: args.position.fen,
            chess960: args.position.chess960,
            divide: args.divide,
            depth: args.depth,
        }),
        Some(Command::Repl(args)) => repl::run(&repl::Options {
            fen: args.fen,
            letters: args.letters,
            ascii: args.ascii,
            no_board: args.no_board,
            chess960: args.chess960,
            file: args.file.or(args.pgn),
            game: args.game.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        }),
        None => repl::run(&repl::Options::default()),
    }
}

/// Reads the N of `-j N`, the threads of `check`, `fmt`, `export` and
/// `split`.
///
/// # Errors
///
/// N is not a number from 1 to [`MOST_THREADS`], however large (the
/// message names the range).
fn parse_jobs(text: &str) -> Result<u32, String> {
    text.parse::<usize>()
        .ok()
        .filter(|n| (1..=MOST_THREADS).contains(n))
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| format!("expected a number of threads from 1 to {MOST_THREADS}"))
}

/// Reads perft's DEPTH.
///
/// # Errors
///
/// DEPTH is not a number from 0 to [`MAX_PERFT_DEPTH`], however large.
fn parse_perft_depth(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|&depth| depth <= MAX_PERFT_DEPTH)
        .ok_or_else(|| format!("expected a depth from 0 to {MAX_PERFT_DEPTH} (a deeper tree could not be counted)"))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Args;

    #[test]
    fn arguments_are_consistent() {
        Args::command().debug_assert();
    }
}
