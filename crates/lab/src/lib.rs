//! Augur laboratory: the search experiments (SPP thesis, ProbCut family), self-play data
//! generation, Texel tuning of the `default` evaluation, and their charts. Matches,
//! statistics and SPSA tuning of engine options come from the `augur_arena` crate; the
//! experiments reuse its UCI client to drive engines.

pub mod chart;
pub mod confidence;
pub mod datagen;
pub mod epd;
mod git_commit;
pub mod probcut;
pub mod provenance;
pub mod regression;
pub mod reproduce;
pub mod result_log;
pub mod scaling;
pub mod spp;
pub mod spsa;
pub mod train;
pub mod tune;
