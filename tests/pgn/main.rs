//! PGN through the library: the reader and the chunker, the validator, the
//! formatter, and what neither may lose, over every PGN data file.

#[path = "../common/mod.rs"]
mod common;

mod check;
mod fidelity;
mod fmt;
mod outlines;
mod played;
mod reader;
mod rows;
mod split;
