//! Chess through the library against real data: FEN, SAN, the resolver, the
//! fast path, legal move lists, perft, game ends and the engine.

mod engine;
mod fen_data;
mod front_door;
mod game;
mod movelists;
mod perft;
mod resolve;
mod san_data;
