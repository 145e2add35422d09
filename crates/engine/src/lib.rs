//! Augur: a UCI chess engine and a laboratory for forward-pruning search.
pub mod bench;
pub mod eval;
pub mod genfens;
pub mod options;
pub mod perft;
pub mod position;
pub mod search;
pub mod tablebase;
pub mod uci;
