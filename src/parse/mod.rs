//! Crate-private parsers, one file per grammar in `grammar/`, one nom function
//! per EBNF rule with the same name. nom stays inside this module: the rest of
//! the crate sees plain values and its own error types.

pub(crate) mod fen;
pub(crate) mod san;
