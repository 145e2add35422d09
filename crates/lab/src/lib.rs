//! Augur laboratory: talks to UCI engines like a GUI, referees games with
//! `shakmaty` (independently of the engine's rules code) and computes match
//! statistics. Other lab commands reuse [`uci_client`] to drive engines.

pub mod chart;
pub mod compare;
pub mod datagen;
pub mod engine_spec;
pub mod epd;
pub mod game;
pub mod mpd;
pub mod openings;
pub mod pgn;
pub mod pgn_stats;
pub mod probcut;
pub mod progress;
pub mod ratings;
pub mod referee;
pub mod results;
pub mod schedule;
pub mod sprt;
pub mod stats;
pub mod time_control;
pub mod tournament;
pub mod uci_client;
