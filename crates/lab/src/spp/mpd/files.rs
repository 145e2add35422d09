//! The files `mpd --out DIR` writes besides its result files: every position's spreads
//! (`spreads.csv`), the report (`summary.md`) and the spread charts.

use std::path::Path;

use anyhow::{Context, Result};

use super::measure::{Phase, SiblingSpread, SiblingSpreadFields, KINDS};
use crate::kit::chart::{CategoryChart, Chart, Series, Style, YScale};

/// One row of `spreads.csv`: where the position came from (`selfplay` or `sample`), then its
/// sample's fields.
const SPREAD_COLUMNS: &str =
    "source,phase,classic_spread,default_spread,nnue_spread,classic_gain,bound,fen";

fn write_spreads(path: &Path, played: &[SiblingSpread], sampled: &[SiblingSpread]) -> Result<()> {
    let mut out = csv::WriterBuilder::new()
        .has_headers(false)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_path(path)
        .with_context(|| format!("writing {}", path.display()))?;
    out.write_record(SPREAD_COLUMNS.split(','))?;
    for (source, set) in [("selfplay", played), ("sample", sampled)] {
        for s in set {
            out.serialize((source, SiblingSpreadFields::from(s)))?;
        }
    }
    out.flush()
        .with_context(|| format!("writing {}", path.display()))
}

pub fn write_files(
    dir: &std::path::Path,
    played: &[SiblingSpread],
    sampled: &[SiblingSpread],
    mpd: i32,
    md: &str,
) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    write_spreads(&dir.join("spreads.csv"), played, sampled)?;
    std::fs::write(dir.join("summary.md"), md)?;
    // Histogram of spreads (10 cp bins, log scale) per evaluation, all positions.
    let all: Vec<&SiblingSpread> = played.iter().chain(sampled.iter()).collect();
    let top = all
        .iter()
        .flat_map(|s| s.spread.iter().flatten())
        .max()
        .copied()
        .unwrap_or(0)
        .max(mpd);
    let bins = (top / 10 + 1) as usize;
    let cats: Vec<String> = (0..bins).map(|b| format!("{}", b * 10)).collect();
    let mut c = CategoryChart::new(
        format!("Quiet-sibling spread (10 cp bins; fixed MPD = {mpd})"),
        cats,
    )
    .labels("spread (cp, bin start)", "positions")
    .style(Style::GroupedBars)
    .y_scale(YScale::Log10);
    for (k, kind) in KINDS.iter().enumerate() {
        let mut h = vec![0.0; bins];
        for s in &all {
            if let Some(v) = s.spread[k] {
                h[(v / 10).max(0) as usize] += 1.0;
            }
        }
        c = c.series(Series::new(kind.to_string(), h));
    }
    Chart::from(c).save(dir, "spread_histogram")?;
    // Share above the MPD per phase and evaluation.
    let mut c = CategoryChart::new(
        format!("Share of positions whose quiet-sibling spread exceeds {mpd} (%)"),
        Phase::ALL.iter().map(|p| p.name().to_string()).collect(),
    )
    .labels("phase", "%")
    .style(Style::GroupedBars);
    for (k, kind) in KINDS.iter().enumerate() {
        let v = Phase::ALL
            .iter()
            .map(|&ph| {
                let xs: Vec<i32> = all
                    .iter()
                    .filter(|s| s.phase == ph)
                    .filter_map(|s| s.spread[k])
                    .collect();
                if xs.is_empty() {
                    f64::NAN
                } else {
                    100.0 * xs.iter().filter(|&&x| x > mpd).count() as f64 / xs.len() as f64
                }
            })
            .collect();
        c = c.series(Series::new(kind.to_string(), v));
    }
    Chart::from(c).save(dir, "spread_over_mpd")?;
    Ok(())
}
