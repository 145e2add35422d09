//! Augur's arena: plays UCI engines against each other like a GUI, referees
//! the games with `shakmaty` (independently of any engine's rules code),
//! writes PGN and computes the statistics the field uses to judge a change
//! (pentanomial Elo, LOS, fishtest's SPRT), and tunes engine options by SPSA.
//!
//! Grouped like fastchess: [`engine`] (processes and the UCI protocol),
//! [`game`] (one refereed game, clocks, openings, PGN), [`matchmaking`]
//! (schedules, results, Elo, SPRT, ratings, the match runner); [`machine`] (what else the
//! machine runs, from `/proc`); [`outputs`] (no command writes over its own input).

pub mod engine;
pub mod game;
pub mod machine;
pub mod matchmaking;
pub mod outputs;
pub mod progress;
pub mod spsa;
