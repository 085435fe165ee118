//! sanfen: chess notation. Read and write FEN positions and SAN moves, list
//! legal moves, resolve a move against a position (which piece, from which
//! square, and why not), play games, and check and rewrite PGN movetext. Bad
//! input gets an error that says what is wrong and where, every problem at
//! once; nothing panics on any input.
//!
//! Text, syntax and legal values are separate types: [`Fen`] (the text form)
//! holds a [`Setup`] (anything FEN can say), and a [`Position`] is a legal
//! one; a [`SanPlus`](san::SanPlus) is SAN as written, and a [`Move`] exists
//! only once resolved against a position. [`convert`] lists every conversion
//! between them, one call each.
//!
//! # FEN to position and back
//!
//! ```
//! use sanfen::Position;
//!
//! let pos: Position = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1".parse().unwrap();
//! // canonical FEN: the en passant square only when a capture is possible
//! assert_eq!(pos.to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//!
//! // an illegal position: every reason at once
//! let error = "k6R/8/8/8/8/8/8/8 w - - 0 1".parse::<Position>().unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "illegal position: white has no king; black is in check from h8 but it is white's turn"
//! );
//! ```
//!
//! # Legal moves, in SAN
//!
//! ```
//! use sanfen::Position;
//! use sanfen::san::SanPlus;
//!
//! let pos = Position::default();
//! let sans: Vec<String> = pos.legal_moves().iter().map(|&m| SanPlus::from_move(&pos, m).to_string()).collect();
//! assert_eq!(sans.len(), 20);
//! assert_eq!(sans[..6], ["Na3", "Nc3", "Nf3", "Nh3", "a3", "b3"]);
//! ```
//!
//! # SAN and UCI to a move, and back
//!
//! ```
//! use sanfen::san::SanPlus;
//! use sanfen::{Position, Uci};
//!
//! let pos = Position::default();
//! let nf3 = "Nf3".parse::<SanPlus>().unwrap().to_move(&pos).unwrap();
//! assert_eq!(SanPlus::from_move(&pos, nf3).to_string(), "Nf3");
//! assert_eq!(nf3.to_uci(pos.castling_mode()).to_string(), "g1f3");
//! assert_eq!("g1f3".parse::<Uci>().unwrap().to_move(&pos), Ok(nf3));
//!
//! // any common spelling, in the letters of a language, as typed or in PGN
//! use sanfen::play::{Options, read};
//! use sanfen::san::Letters;
//! let played = read(&pos, b"Cg1-f3", Options::typed(Letters::Portuguese)).unwrap();
//! assert_eq!((played.m, played.san.to_string()), (Some(nf3), "Nf3".to_owned()));
//! assert!(!played.is_canonical());
//! ```
//!
//! # Resolving, with reasons
//!
//! Every piece of the named kind is a candidate, kept or rejected with its
//! reason; a refusal says why and what was probably meant.
//!
//! ```
//! use sanfen::resolve::{Rejection, resolve};
//! use sanfen::{Position, Square};
//!
//! // the knight on d5 is pinned by the rook on a5
//! let pos: Position = "8/8/8/R2nkn2/8/8/2K5/8 b - - 0 1".parse().unwrap();
//! let resolution = resolve(&pos, &"Nb4".parse().unwrap());
//! let candidates: Vec<(Square, Option<Rejection>)> =
//!     resolution.candidates.iter().map(|c| (c.from, c.rejection.clone())).collect();
//! assert_eq!(candidates, [
//!     (Square::D5, Some(Rejection::Pinned { by: Square::A5 })),
//!     (Square::F5, Some(Rejection::CannotReach)),
//! ]);
//! assert_eq!(
//!     resolution.outcome.unwrap_err().to_string(),
//!     "illegal: no knight can move to b4: the knight on d5 is pinned by the piece on a5; did you mean Nd4+, Nh4, Nd6?"
//! );
//! ```
//!
//! # Playing a game
//!
//! A [`Game`] keeps the moves, for undo and for the rules that need the
//! history (repetition, the fifty-move rule).
//!
//! ```
//! use sanfen::Game;
//! use sanfen::san::SanPlus;
//!
//! let mut game = Game::default();
//! for san in ["f3", "e5", "g4", "Qh4#"] {
//!     let m = san.parse::<SanPlus>().unwrap().to_move(game.position()).unwrap();
//!     game.play(m).unwrap();
//! }
//! assert_eq!(game.end().unwrap().to_string(), "checkmate: 0-1");
//! assert_eq!(game.position().to_string(), "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
//! ```
//!
//! # Reading PGN
//!
//! [`pgn::read_games`] reads any [`std::io::Read`] (and
//! [`pgn::read_games_path`] a file, gzip, zstd and bzip2 recognised by their
//! first bytes) into owned games: tags, the starting position, the moves as a
//! tree with comments, NAGs and comment commands (clock, evaluation, arrows),
//! every move validated, the findings located. A game writes itself back as
//! PGN. [`pgn::check_path`] and [`pgn::check_reader`] check a whole input on N
//! threads, the reports in input order, memory bounded. For tables,
//! [`pgn::rows::read_move_rows_input`] reads the mainline moves of every game
//! straight into columns (SAN, UCI, clock, evaluation, NAGs, comment, FEN), on
//! N threads, without building the games.
//!
//! ```
//! use sanfen::pgn::commands::Score;
//! use sanfen::pgn::read_games;
//!
//! let pgn = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 { [%clk 0:03:00] [%eval 0.25] } e5 { [%eval #-3] } 2. Nf3 Nc6 1-0\n";
//! let game = read_games(pgn.as_bytes()).next().unwrap().unwrap();
//! let moves = &game.mainline.moves;
//! assert_eq!(moves.iter().map(|node| node.san.to_string()).collect::<Vec<_>>(), ["e4", "e5", "Nf3", "Nc6"]);
//! assert_eq!(moves[0].clock().unwrap().as_secs(), 180);
//! assert_eq!(moves[1].eval().unwrap().score, Score::Mate(-3));
//! assert_eq!(game.tags[0].value, "A");
//! assert!(game.to_pgn().contains("1. e4 { [%clk 0:03:00] [%eval 0.25] } 1... e5 { [%eval #-3] } 2. Nf3 Nc6 1-0"));
//! ```
//!
//! # Cargo features
//!
//! | feature | default | what it adds |
//! | --- | --- | --- |
//! | `cli` | yes | the `sanfen` binary: argument parsing, line editing, JSON output, progress bars; turns on `repl`, `compression` and `serde`. The library alone pulls in none of it: depend on sanfen with `default-features = false` |
//! | `repl` | with `cli` | [`repl::Session`]: the interactive board's core (commands in, responses as data, no terminal I/O); no dependency |
//! | `compression` | with `cli` | gzip, zstd and bzip2 input for [`pgn::input`], [`pgn::read_games_path`] and [`pgn::check_path`], recognised by the first bytes (flate2, zstd, bzip2) |
//! | `openings` | with `cli` | [`openings`]: the ECO code and name of a position or a game, from lichess's chess-openings (CC0), embedded at build time; no dependency |
//! | `serde` | with `cli` | `Serialize` and `Deserialize` for the public values, through their text form where they have one |
//!
//! Without `compression`, a compressed input is refused with an error that
//! says so; checking on several threads needs no feature (it uses the
//! standard library's threads).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The README's Rust examples run as doctests, so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

pub mod attacks;
mod bitboard;
mod board;
mod chess960;
mod color;
pub mod convert;
pub mod engine;
pub mod fen;
pub mod game;
pub mod lint;
mod movegen;
mod moves;
pub mod notation;
#[cfg(feature = "openings")]
pub mod openings;
pub mod pgn;
pub mod play;
mod position;
mod quick;
#[cfg(feature = "repl")]
pub mod repl;
pub mod resolve;
mod role;
pub mod san;
mod setup;
mod square;
mod variant;
pub mod views;

pub use bitboard::{Bitboard, Squares};
pub use board::{Board, IntMatrix, MatrixError, StringMatrix};
pub use color::{ByColor, Color};
pub use fen::{Fen, ParseFenError};
pub use game::{Claim, EndReason, Game, GameEnd, Outcome, ParseOutcomeError};
pub use movegen::{IllegalMoveError, MAX_PERFT_DEPTH, PerftDepthError, perft, perft_divide};
pub use moves::{MAX_MOVES, Move, MoveList, MoveListIntoIter, ParseUciError, Uci};
pub use position::{CastlingMode, Position, PositionError, Reason, ReasonKind, Severity};
pub use role::{Piece, Role};
pub use setup::{CastlingRights, Setup};
pub use square::{File, ParseSquareError, Rank, Square};
pub use variant::{UnsupportedVariant, Variant};
