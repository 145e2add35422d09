//! Engines: how to start one ([`spec`]) and how to talk to it ([`uci`]).

pub mod spec;
pub mod uci;
