//! The `sanfen` binary, run as a user runs it: every command's exact output,
//! files, hostile input, the REPL through a pipe and a pseudo-terminal.
//!
//! One test binary per area (cli, pgn, chess): each integration test file
//! would otherwise be its own binary linking the whole crate.

mod check_hostile;
mod cli_check;
mod cli_san;
mod cli_seed000;
mod commands;
mod export;
mod fmt_files;
mod lint_control;
mod pty;
mod readme;
mod repl;
mod repl_round_trip;
mod scratch;
mod split;
mod trust_fixes;
