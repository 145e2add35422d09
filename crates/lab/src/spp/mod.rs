//! Sibling Prediction Pruning laboratory (the SPP thesis): the experiments behind the
//! textbook algorithms' comparison and the evaluation's maximum positional difference.
//!
//! - [`compare`]: NBP/NC of textbook algorithms per position and depth, extra pruning,
//!   correctness, report and charts.
//! - [`mpd`]: the maximum positional difference of an evaluation (self-play, distributions,
//!   spp vs spp-exact).
//! - [`material`]: the spread against the material (is MPD = a · material + b?).

pub mod compare;
pub mod material;
pub mod mpd;
