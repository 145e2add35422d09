//! ProbCut laboratory (Jiang & Buro, "First Experimental Results of ProbCut Applied to
//! Chess"): the data behind the linear opinion-change model `v = a*v' + b + e`.
//!
//! - [`collect`]: search positions to every depth 1..D and record the iterative-deepening
//!   scores (CSV, resumable).
//! - [`fit`]: least squares per depth pair and game stage (the paper's Table 1 and
//!   Figure 4), and the engine's parameter file ([`params`]).
//! - [`grid`]: Tables 2 and 3, a match per pair of threshold values, Elo ± CI and a heat map.
//! - [`sfpc_depths`]: seed 004, how often each verification-depth rule of Stockfish-style
//!   ProbCut goes deeper or shallower than the fixed one, by staticEval − beta.
//!
//! The experiments that compare engine variants position by position (`depth`, `solve`,
//! `accuracy`) are in [`crate::variants`].

pub mod collect;
pub mod fit;
pub mod grid;
pub mod params;
pub mod sfpc_depths;
