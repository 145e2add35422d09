//! The ProbCut family (Buro; Jiang & Buro's Multi-ProbCut; Stockfish's form): the models a
//! cut is predicted by (`model`: stages, fitted depth pairs and their parameter file, depth
//! rules) apart from the cuts themselves (`cuts`), so that the settings, the counters and the
//! lab take the vocabulary without the search.

pub mod cuts;
pub mod model;

pub use cuts::{unfitted, Unfitted};
pub use model::{DepthRule, Pair, ParamsError, ProbCutParams, Stage, BUILTIN_PARAMS};
