//! spp-exact's per-node bound (the classic evaluation's `quiet_gain_bound`) against the fixed
//! MPD: how tight it is, and whether any quiet move rose above it.

use std::fmt::Write as _;

use super::distribution::percentile;
use super::measure::SiblingSpread;

/// The section of the report over `all` positions, for the fixed MPD `mpd`.
pub fn section(md: &mut String, all: &[&SiblingSpread], mpd: i32) {
    let mut bounds: Vec<i32> = all.iter().map(|s| s.bound).collect();
    bounds.sort_unstable();
    let violations = all
        .iter()
        .filter(|s| s.gain.is_some_and(|g| g > s.bound))
        .count();
    let mut gains: Vec<i32> = all.iter().filter_map(|s| s.gain).collect();
    gains.sort_unstable();
    let _ = writeln!(
        md,
        "## spp-exact's per-node bound (classic `quiet_gain_bound`)\n\n\
         Over {} positions (self-play and sample): bound median {}, 99% {}, max {}; the bound \
         is below the fixed MPD {} in {:.1}% of positions. Largest actual rise of the mover's \
         eval by one quiet non-castling move: median {}, max {}. Positions where the rise \
         exceeded the bound (unsound): {violations}.\n",
        all.len(),
        percentile(&bounds, 0.5).unwrap_or(0),
        percentile(&bounds, 0.99).unwrap_or(0),
        bounds.last().copied().unwrap_or(0),
        mpd,
        100.0 * bounds.iter().filter(|&&b| b < mpd).count() as f64 / bounds.len().max(1) as f64,
        percentile(&gains, 0.5).unwrap_or(0),
        gains.last().copied().unwrap_or(0),
    );
}
