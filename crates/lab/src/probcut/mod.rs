//! ProbCut laboratory (Jiang & Buro, "First Experimental Results of ProbCut Applied to
//! Chess"): the data behind the linear opinion-change model `v = a*v' + b + e`.
//!
//! - [`collect`]: search positions to every depth 1..D and record the iterative-deepening
//!   scores (CSV, resumable).
//! - [`fit`]: least squares per depth pair and game stage (the paper's Table 1 and
//!   Figure 4), and the engine's parameter file.
//! - [`depth`]: fixed time per position, average depth reached per engine variant.
//! - [`solve`]: tactical cost, test-suite positions solved per variant.
//! - [`grid`]: Tables 2 and 3, a match per pair of threshold values, Elo ± CI and a heat map.
//! - [`accuracy`]: Jiang & Buro's suggested measure, each variant's move judged by a deeper
//!   search (share of differing moves, mean loss).
//! - [`sfpc_depths`]: seed 004, how often each verification-depth rule of Stockfish-style
//!   ProbCut goes deeper or shallower than the fixed one, by staticEval − beta.

pub mod accuracy;
pub mod collect;
pub mod depth;
pub mod fit;
pub mod grid;
pub mod params;
pub mod sfpc_depths;
pub mod solve;
pub mod variants;

use std::path::Path;

use anyhow::{Context, Result};

/// The 300-position sample bundled into the binary (every 50th line of
/// `../shared/data/positions/games-sample.epd`, TCEC games; see `data/games-sample300.md`).
pub const SAMPLE_EPD: &str = include_str!("../../data/games-sample300.epd");
pub const SAMPLE_NAME: &str = "<builtin games-sample300>";

pub use crate::epd::{parse_epd, EpdLine};

/// Reads an EPD file, or the bundled sample when `path` is `None`.
pub fn load_epd(path: Option<&Path>) -> Result<Vec<EpdLine>> {
    match path {
        None => parse_epd(SAMPLE_EPD, SAMPLE_NAME),
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read EPD file {}", p.display()))?;
            parse_epd(&text, &p.display().to_string())
        }
    }
}
