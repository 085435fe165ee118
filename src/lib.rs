//! sanfen: chess notation. Parse and check FEN positions, report every problem at
//! once, and write canonical FEN.
//!
//! ```
//! use sanfen::{Fen, Position};
//!
//! let fen: Fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1".parse().unwrap();
//! let position = Position::from_setup(fen.setup.clone(), fen.castling_mode).unwrap();
//! // the en passant square is written only when a capture is possible
//! assert_eq!(position.fen().to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod attacks;
mod bitboard;
mod board;
mod color;
pub mod convert;
pub mod engine;
pub mod fen;
pub mod game;
pub mod lint;
mod movegen;
mod moves;
pub mod notation;
mod parse;
pub mod pgn;
pub mod play;
mod position;
mod quick;
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
pub use moves::{MAX_MOVES, Move, MoveList, ParseUciError, Uci};
pub use position::{CastlingMode, Position, PositionError, Reason, ReasonKind, Severity};
pub use role::{Piece, Role};
pub use setup::{CastlingRights, Setup};
pub use square::{File, ParseSquareError, Rank, Square};
pub use variant::{UnsupportedVariant, Variant};
