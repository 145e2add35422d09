//! Augur laboratory: the search experiments (SPP thesis, ProbCut family), self-play data
//! generation, Texel tuning of the `default` evaluation, NNUE training, and their charts.
//! Matches, statistics and SPSA tuning of engine options come from the `augur_arena` crate; the
//! experiments reuse its UCI client to drive engines.
//!
//! The machinery apart from the experiments: [`kit`] (result files, provenance, intervals,
//! charts) and [`data`] (what the lab reads). The experiments, one folder per family: [`spp`],
//! [`probcut`], [`margins`] (Buro's method for modern pruning margins), [`variants`] (engine variants compared position by position), [`datagen`],
//! [`tune`], [`train`]; [`reproduce`] runs them end to end. [`tournament`] and [`spsa`] are the
//! arena's match and SPSA with the lab's summary and chart.

pub mod campaign;
pub mod corpus;
pub mod data;
pub mod datagen;
pub mod kit;
pub mod margins;
pub mod probcut;
pub mod reproduce;
pub mod scaling;
pub mod spp;
pub mod spsa;
pub mod strength;
pub mod tournament;
pub mod train;
pub mod tune;
pub mod variants;
pub mod wdl;
