//! The machinery the experiments share, apart from any one of them: files written whole
//! ([`atomic`]), where a result came from
//! ([`provenance`]), the resumable result files and their CSV rows ([`result_log`]), the one
//! runner of every command that works through a grid of items ([`jobs`]), the machine-readable
//! summary of a run ([`summary`]), the arguments the long-running commands share
//! ([`run_args`]), the confidence intervals ([`confidence`]), the
//! least-squares line ([`regression`]) and the charts ([`chart`]).

pub mod atomic;
pub mod chart;
pub mod confidence;
pub(crate) mod git_commit;
pub mod jobs;
pub mod provenance;
pub mod regression;
pub mod result_log;
pub mod run_args;
pub mod summary;
