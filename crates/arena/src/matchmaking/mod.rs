//! Matches: the seeded schedule, the result table, the outcome counts, Elo and SPRT statistics,
//! ratings for several engines, and the runner that plays it all.

pub mod csv_rows;
pub mod elo;
pub mod games_csv;
pub mod interim;
pub mod kept;
pub mod outcomes;
pub mod pgn_stats;
pub mod pool;
pub mod ratings;
pub mod results;
pub mod schedule;
pub mod sprt;
pub mod timing;
pub mod tournament;
pub mod verdicts;
