//! MPD against material, a future-work question of the SPP thesis: is the maximum positional
//! difference a linear function of the material, MPD = a · material + b? If it were, a
//! material-dependent MPD (`spp-dyn --mpd-rule material:A,B`) could prune harder in endings
//! and stay safe in the middlegame. Two least-squares lines per evaluation and axis:
//! - per position: the quiet-sibling spread of each position (its own largest positional
//!   difference) against the material;
//! - the envelope: the 99th percentile of the spread in each material bin against the bin's
//!   mean material, which is what an MPD must cover.
//!
//! Material is counted by the classic table (P 1, N/B 3, R 6, Q 10 pawns), kings excluded:
//! the total of both sides, and the imbalance |White - Black|.

use crate::kit::chart::{PointSeries, ScatterChart};
use crate::kit::regression::{fit_line, LinearFit};
use crate::spp::mpd::distribution::percentile;
use crate::spp::mpd::measure::{SiblingSpread, KINDS};
use augur::eval::classic;
use augur::position::Position;
use std::fmt::Write as _;

/// The material axes the spread is fitted against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// Both sides' material, in pawns.
    Total,
    /// |White's material - Black's|, in pawns.
    Imbalance,
}

impl Axis {
    pub const ALL: [Axis; 2] = [Axis::Total, Axis::Imbalance];

    pub fn name(self) -> &'static str {
        match self {
            Axis::Total => "total material",
            Axis::Imbalance => "material imbalance",
        }
    }

    /// The axis in file names (`material_total_classic.svg`).
    pub fn key(self) -> &'static str {
        match self {
            Axis::Total => "total",
            Axis::Imbalance => "imbalance",
        }
    }

    /// Bin width in pawns for the envelope fit.
    fn bin(self) -> f64 {
        match self {
            Axis::Total => 4.0,
            Axis::Imbalance => 1.0,
        }
    }

    /// The position's value on this axis, in pawns.
    pub fn of(self, pos: &Position) -> f64 {
        let b = pos.board();
        match self {
            Axis::Total => f64::from(classic::material_total(b)) / 100.0,
            Axis::Imbalance => f64::from(classic::material_balance(b).abs()) / 100.0,
        }
    }
}

/// Bins with fewer samples than this are left out of the envelope fit (their 99th percentile
/// would be their maximum).
pub const MIN_BIN: usize = 50;
/// The envelope's quantile.
pub const QUANTILE: f64 = 0.99;

/// One evaluation's fits on one axis.
#[derive(Clone, Debug)]
pub struct MaterialFit {
    pub eval: String,
    pub axis: Axis,
    /// (material, spread) per position.
    pub points: Vec<(f64, f64)>,
    pub per_position: LinearFit,
    /// (mean material, 99th-percentile spread, samples) per bin with at least `MIN_BIN`.
    pub bins: Vec<(f64, f64, usize)>,
    pub envelope: Option<LinearFit>,
}

/// The fits for every evaluation and axis over `samples` (FENs that do not parse are skipped;
/// they came from this program's own files).
pub fn fits(samples: &[&SiblingSpread]) -> Vec<MaterialFit> {
    let positions: Vec<Option<Position>> = samples
        .iter()
        .map(|s| Position::from_fen(&s.fen, false).ok())
        .collect();
    let mut out = Vec::new();
    for (k, kind) in KINDS.iter().enumerate() {
        for axis in Axis::ALL {
            let points: Vec<(f64, f64)> = samples
                .iter()
                .zip(&positions)
                .filter_map(|(s, p)| Some((axis.of(p.as_ref()?), f64::from(s.spread[k]?))))
                .collect();
            let Some(per_position) = fit_line(&points) else {
                continue;
            };
            let bins = envelope_bins(&points, axis.bin());
            let envelope = fit_line(&bins.iter().map(|b| (b.0, b.1)).collect::<Vec<_>>());
            out.push(MaterialFit {
                eval: kind.to_string(),
                axis,
                points,
                per_position,
                bins,
                envelope,
            });
        }
    }
    out
}

/// Groups the points into bins of `width` on x; per bin with at least `MIN_BIN` points, the
/// mean x, the `QUANTILE` of y (nearest rank) and the count.
pub fn envelope_bins(points: &[(f64, f64)], width: f64) -> Vec<(f64, f64, usize)> {
    let mut bins: std::collections::BTreeMap<i64, Vec<(f64, f64)>> = Default::default();
    for &(x, y) in points {
        bins.entry((x / width).floor() as i64)
            .or_default()
            .push((x, y));
    }
    bins.into_values()
        .filter(|v| v.len() >= MIN_BIN)
        .filter_map(|v| {
            let mean_x = v.iter().map(|p| p.0).sum::<f64>() / v.len() as f64;
            let mut ys: Vec<i32> = v.iter().map(|p| p.1.round() as i32).collect();
            ys.sort_unstable();
            Some((mean_x, f64::from(percentile(&ys, QUANTILE)?), v.len()))
        })
        .collect()
}

fn coef(value: f64, ci: Option<(f64, f64)>) -> String {
    match ci {
        Some((lo, hi)) => format!("{value:.2} [{lo:.2}, {hi:.2}]"),
        None => format!("{value:.2}"),
    }
}

/// The markdown section: one row per evaluation and axis.
pub fn section(md: &mut String, fits: &[MaterialFit], source: &str) {
    let _ = writeln!(
        md,
        "## MPD against material (is MPD = a · material + b?)\n\n\
         Over {source}: least-squares lines of the quiet-sibling spread against the material in \
         pawns (classic table, kings excluded), per position and for the envelope (the {}th \
         percentile of the spread per material bin of {} pawns (total) or {} pawn (imbalance), \
         bins of at least {MIN_BIN} positions). a and b with 95% intervals; R² = r².\n",
        (QUANTILE * 100.0).round(),
        Axis::Total.bin(),
        Axis::Imbalance.bin()
    );
    let _ = writeln!(
        md,
        "| eval | x | positions | a (per pawn) | b | R² | envelope bins | envelope a | envelope b | envelope R² |"
    );
    let _ = writeln!(md, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for f in fits {
        let p = &f.per_position;
        let pi = p.intervals();
        let (ea, eb, er) = match &f.envelope {
            Some(e) => {
                let ei = e.intervals();
                (
                    coef(e.slope, ei.map(|i| i.slope)),
                    coef(e.intercept, ei.map(|i| i.intercept)),
                    format!("{:.3}", e.r * e.r),
                )
            }
            None => ("-".into(), "-".into(), "-".into()),
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {:.3} | {} | {ea} | {eb} | {er} |",
            f.eval,
            f.axis.name(),
            p.n,
            coef(p.slope, pi.map(|i| i.slope)),
            coef(p.intercept, pi.map(|i| i.intercept)),
            p.r * p.r,
            f.bins.len()
        );
    }
    let _ = writeln!(md);
}

/// A scatter chart of one fit: the positions (thinned to at most 3000 points, every n-th, so
/// the SVG stays small), the bins' envelope, and the per-position line.
pub fn chart(f: &MaterialFit) -> ScatterChart {
    let step = f.points.len().div_ceil(3000).max(1);
    let shown: Vec<(f64, f64)> = f.points.iter().step_by(step).copied().collect();
    ScatterChart::new(format!(
        "{} eval: quiet-sibling spread against {}",
        f.eval,
        f.axis.name()
    ))
    .labels(format!("{} (pawns)", f.axis.name()), "spread (cp)")
    .series(PointSeries::new(format!("positions (every {step})"), shown))
    .series(PointSeries::new(
        format!("{}th percentile per bin", (QUANTILE * 100.0).round()),
        f.bins.iter().map(|b| (b.0, b.1)).collect(),
    ))
    .fit(f.per_position)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_is_counted_by_the_classic_table() {
        let start = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        )
        .unwrap();
        // 8 + 2·3 + 2·3 + 2·6 + 10 = 42 pawns a side.
        assert_eq!(Axis::Total.of(&start), 84.0);
        assert_eq!(Axis::Imbalance.of(&start), 0.0);
        let krk = Position::from_fen("K7/8/8/8/8/5k2/6R1/8 w - - 0 1", false).unwrap();
        assert_eq!((Axis::Total.of(&krk), Axis::Imbalance.of(&krk)), (6.0, 6.0));
    }

    #[test]
    fn the_envelope_takes_the_high_quantile_of_full_bins() {
        // Bin [0, 4): 100 points with y = 0..99; bin [4, 8): 10 points (too few, left out).
        let mut pts: Vec<(f64, f64)> = (0..100).map(|i| (1.0, f64::from(i))).collect();
        pts.extend((0..10).map(|i| (5.0, f64::from(i))));
        let bins = envelope_bins(&pts, 4.0);
        assert_eq!(bins, vec![(1.0, 98.0, 100)]);
    }

    #[test]
    fn fits_recover_a_spread_that_grows_with_material() {
        // Positions whose classic spread is set to 2 * total material + 10.
        let fens = [
            "K7/8/8/8/8/5k2/6R1/8 w - - 0 1",
            "8/8/8/3k4/8/8/3PK3/8 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1",
        ];
        let samples: Vec<SiblingSpread> = fens
            .iter()
            .map(|f| {
                let pos = Position::from_fen(f, false).unwrap();
                let mut s = crate::spp::mpd::measure::measure_position(&pos, None);
                s.spread[0] = Some((2.0 * Axis::Total.of(&pos) + 10.0) as i32);
                s
            })
            .collect();
        let refs: Vec<&SiblingSpread> = samples.iter().collect();
        let f = fits(&refs);
        let total = f
            .iter()
            .find(|f| f.eval == "classic" && f.axis == Axis::Total)
            .unwrap();
        assert!((total.per_position.slope - 2.0).abs() < 1e-9);
        assert!((total.per_position.intercept - 10.0).abs() < 1e-9);
        assert_eq!(total.points.len(), 4);
    }
}
