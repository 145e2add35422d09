//! `augur-lab accuracy --out FILE --correlate scaling.csv...`: does the oracle measure predict
//! Elo? Each technique × control of an `accuracy --nodes` run (its accuracy gain over its base
//! side, in equal moves and in mean loss) is matched with the scaling study's point of the same
//! technique and control, and the two are correlated across the points: Pearson's r (with
//! Fisher's z interval) and Spearman's ρ, each with a percentile bootstrap interval over the
//! points (resampled with replacement, a fixed seed). How good a proxy is put in the unit of
//! the games: the spread of Elo around the least-squares line on the accuracy gain, beside the
//! half-width of the points' own intervals.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};
use statrs::statistics::{Data, OrderStatistics, RankTieBreaker, Statistics};

use super::nodes::{figures, read_rows};
use crate::scaling::read_points;

/// Bootstrap resamples of the points.
const RESAMPLES: usize = 10_000;

/// One technique × control with both measures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Matched {
    pub technique: String,
    pub control: u64,
    /// Tested minus base: the share of moves equal to the oracle's (points), the mean loss (cp).
    pub equal_diff: f64,
    pub loss_diff: f64,
    pub elo: f64,
    pub nelo: f64,
    /// Half-widths of the point's 95% intervals, in Elo and nElo.
    #[serde(default)]
    pub elo_half: f64,
    #[serde(default)]
    pub nelo_half: f64,
}

/// A correlation with its intervals; `None` where the points do not allow one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Correlation {
    /// `techniques` (the calibration left out: its Elo, a doubling's, is ten times a
    /// technique's and would make the correlation alone) or `all`.
    pub points: String,
    pub x: String,
    pub y: String,
    pub n: usize,
    pub pearson: Option<f64>,
    /// Fisher's z interval (needs n > 3).
    pub pearson_z: Option<(f64, f64)>,
    pub pearson_boot: Option<(f64, f64)>,
    pub spearman: Option<f64>,
    pub spearman_boot: Option<(f64, f64)>,
    /// What the proxy would resolve: the standard deviation of y around its least-squares
    /// line on x (n − 2 degrees of freedom), with its χ² 95% interval; `None` below 3 points.
    #[serde(default)]
    pub residual_sd: Option<f64>,
    #[serde(default)]
    pub residual_sd_ci: Option<(f64, f64)>,
    /// The mean half-width of the points' own 95% intervals in y's unit (what 1.96 × the
    /// residual spread is read against).
    #[serde(default)]
    pub point_half: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CorrelateFigures {
    pub points: Vec<Matched>,
    pub correlations: Vec<Correlation>,
}

/// Pearson's r of the pairs; `None` when either side has no spread.
pub fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() < 2 || x.len() != y.len() {
        return None;
    }
    let (sx, sy) = (x.std_dev(), y.std_dev());
    if !(sx > 0.0 && sy > 0.0) {
        return None;
    }
    let r = x.covariance(y) / (sx * sy);
    r.is_finite().then_some(r.clamp(-1.0, 1.0))
}

/// Spearman's ρ: Pearson's r of the ranks (ties share their average rank).
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    let rank = |v: &[f64]| Data::new(v.to_vec()).ranks(RankTieBreaker::Average);
    pearson(&rank(x), &rank(y))
}

/// Fisher's z 95% interval of Pearson's r from n pairs.
pub fn fisher_interval(r: f64, n: usize) -> Option<(f64, f64)> {
    if n <= 3 || r.abs() >= 1.0 {
        return None;
    }
    let z = r.atanh();
    let q = Normal::new(0.0, 1.0).ok()?.inverse_cdf(0.975);
    let se = 1.0 / ((n - 3) as f64).sqrt();
    Some(((z - q * se).tanh(), (z + q * se).tanh()))
}

/// The 2.5% and 97.5% percentiles of `stat` over bootstrap resamples of the pairs; resamples
/// where it is undefined (no spread) are left out, and fewer than half defined gives none.
pub fn bootstrap(
    x: &[f64],
    y: &[f64],
    stat: fn(&[f64], &[f64]) -> Option<f64>,
    seed: u64,
) -> Option<(f64, f64)> {
    let n = x.len();
    if n < 3 {
        return None;
    }
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut values = Vec::with_capacity(RESAMPLES);
    let (mut bx, mut by) = (vec![0.0; n], vec![0.0; n]);
    for _ in 0..RESAMPLES {
        for k in 0..n {
            let i = rng.random_range(0..n);
            (bx[k], by[k]) = (x[i], y[i]);
        }
        if let Some(v) = stat(&bx, &by) {
            values.push(v);
        }
    }
    if values.len() < RESAMPLES / 2 {
        return None;
    }
    let mut d = Data::new(values);
    Some((d.quantile(0.025), d.quantile(0.975)))
}

/// The residual standard deviation of y on the least-squares line of y on x, with its
/// χ² 95% interval (n − 2 degrees of freedom).
pub fn residual_spread(x: &[f64], y: &[f64]) -> Option<(f64, (f64, f64))> {
    let pts: Vec<(f64, f64)> = x.iter().copied().zip(y.iter().copied()).collect();
    let fit = crate::kit::regression::fit_line(&pts)?;
    let ci = fit.intervals()?.sigma;
    Some((fit.sigma, ci))
}

fn correlation(
    points: &str,
    x_name: &str,
    y_name: &str,
    (x, y): (&[f64], &[f64]),
    halves: &[f64],
) -> Correlation {
    let r = pearson(x, y);
    let spread = residual_spread(x, y);
    Correlation {
        points: points.into(),
        x: x_name.into(),
        y: y_name.into(),
        n: x.len(),
        pearson: r,
        pearson_z: r.and_then(|r| fisher_interval(r, x.len())),
        pearson_boot: bootstrap(x, y, pearson, 1),
        spearman: spearman(x, y),
        spearman_boot: bootstrap(x, y, spearman, 2),
        residual_sd: spread.map(|s| s.0),
        residual_sd_ci: spread.map(|s| s.1),
        point_half: (!halves.is_empty()).then(|| halves.iter().sum::<f64>() / halves.len() as f64),
    }
}

/// Each technique × control of the accuracy rows that has an Elo point.
pub fn matched(accuracy: &Path, scaling: &[PathBuf]) -> Result<Vec<Matched>> {
    let rows = read_rows(accuracy)?;
    let points = read_points(scaling)?;
    let f = figures(&rows);
    Ok(f.techniques
        .iter()
        .filter_map(|t| {
            let p = points
                .iter()
                .find(|p| p.technique == t.technique && p.nodes == t.control)?;
            Some(Matched {
                technique: t.technique.clone(),
                control: t.control,
                equal_diff: 100.0 * t.equal_diff?.mean,
                loss_diff: t.loss_diff?.mean,
                elo: p.elo?,
                nelo: p.nelo?,
                elo_half: (p.elo_high? - p.elo_low?) / 2.0,
                nelo_half: p.nelo_half?,
            })
        })
        .collect())
}

/// Every pairing of the two accuracy measures with the two Elo units, over the techniques'
/// points and over all (the calibration's too, when it is there).
pub fn correlate(points: &[Matched]) -> Vec<Correlation> {
    let techniques: Vec<&Matched> = points
        .iter()
        .filter(|m| m.technique != "calibration")
        .collect();
    let all: Vec<&Matched> = points.iter().collect();
    let mut sets = vec![("techniques", techniques)];
    if all.len() > sets[0].1.len() {
        sets.push(("all", all));
    }
    let mut out = Vec::new();
    for (set, list) in &sets {
        let col = |f: fn(&Matched) -> f64| -> Vec<f64> { list.iter().map(|m| f(m)).collect() };
        let xs = [
            ("equal share gain (points)", col(|m| m.equal_diff)),
            ("mean loss change (cp)", col(|m| m.loss_diff)),
        ];
        let ys = [
            ("Elo", col(|m| m.elo), col(|m| m.elo_half)),
            ("nElo", col(|m| m.nelo), col(|m| m.nelo_half)),
        ];
        for (xn, x) in &xs {
            for (yn, y, halves) in &ys {
                out.push(correlation(set, xn, yn, (x, y), halves));
            }
        }
    }
    out
}

fn interval(i: Option<(f64, f64)>) -> String {
    i.map_or("-".into(), |(lo, hi)| format!("[{lo:+.2}, {hi:+.2}]"))
}

pub fn report(f: &CorrelateFigures) -> String {
    let mut s = String::from(
        "| technique | control | equal share gain (points) | mean loss change (cp) | Elo | nElo |\n\
         | --- | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for m in &f.points {
        let _ = writeln!(
            s,
            "| {} | {} | {:+.1} | {:+.1} | {:+.1} | {:+.1} |",
            m.technique, m.control, m.equal_diff, m.loss_diff, m.elo, m.nelo
        );
    }
    s.push_str(
        "\n| points | accuracy | against | n | Pearson r | Fisher z 95% | bootstrap 95% | Spearman ρ | bootstrap 95% | residual σ (95%) | a point's ± |\n\
         | --- | --- | --- | ---: | ---: | --- | --- | ---: | --- | --- | ---: |\n",
    );
    let num = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:+.2}"));
    for c in &f.correlations {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            c.points,
            c.x,
            c.y,
            c.n,
            num(c.pearson),
            interval(c.pearson_z),
            interval(c.pearson_boot),
            num(c.spearman),
            interval(c.spearman_boot),
            // The spread and its interval come together (`residual_spread`).
            c.residual_sd
                .zip(c.residual_sd_ci)
                .map_or("-".into(), |(r, (lo, hi))| format!(
                    "{r:.1} [{lo:.1}, {hi:.1}]"
                )),
            c.point_half.map_or("-".into(), |h| format!("{h:.1}")),
        );
    }
    s
}

pub fn run(accuracy: &Path, scaling: &[PathBuf]) -> Result<CorrelateFigures> {
    let points = matched(accuracy, scaling)?;
    if points.is_empty() {
        bail!(
            "no technique and control of {} has a point in the scaling files (the names and \
             node counts must match)",
            accuracy.display()
        );
    }
    let correlations = correlate(&points);
    Ok(CorrelateFigures {
        points,
        correlations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scaling::{Point, COLUMNS as SCALING_COLUMNS};

    #[test]
    fn correlations_match_the_textbook() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0];
        let y = [2.0, 4.0, 5.0, 4.0, 5.0];
        // Values from Python's statistics.correlation (of the values and of the ranks).
        assert!((pearson(&x, &y).unwrap() - 0.774_596_669_241_483_4).abs() < 1e-12);
        assert!((spearman(&x, &y).unwrap() - 0.737_864_787_372_621_8).abs() < 1e-12);
        let (lo, hi) = fisher_interval(0.774_596_669_241_483_4, 5).unwrap();
        assert!((lo + 0.340_082_035_187_510_35).abs() < 1e-9, "{lo}");
        assert!((hi - 0.984_235_755_150_726_7).abs() < 1e-9, "{hi}");
        // A perfect monotone but curved relation: Spearman 1, Pearson below.
        let c = [1.0, 8.0, 27.0, 64.0, 125.0, 216.0];
        let lin = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        assert!((spearman(&lin, &c).unwrap() - 1.0).abs() < 1e-12);
        assert!(pearson(&lin, &c).unwrap() < 0.99);
        assert!(
            pearson(&x, &[3.0; 5]).is_none(),
            "no spread, no correlation"
        );
        assert!(fisher_interval(0.5, 3).is_none());
        // Residuals of y on its line (slope 0.6, intercept 2.2): -0.8, 0.6, 1.0, -0.6, -0.2,
        // RSS 2.4 over 3 degrees of freedom.
        let (sd, (lo, hi)) = residual_spread(&x, &y).unwrap();
        assert!((sd - 0.8_f64.sqrt()).abs() < 1e-12, "{sd}");
        assert!(lo < sd && sd < hi, "{lo} {hi}");
        assert!(
            residual_spread(&lin, &lin.map(|v| 3.0 * v - 1.0))
                .unwrap()
                .0
                < 1e-9
        );
        assert!(
            residual_spread(&x[..2], &y[..2]).is_none(),
            "no degree of freedom left"
        );
        // The bootstrap is repeatable, brackets the estimate, and stays in [-1, 1].
        let (lo, hi) = bootstrap(&x, &y, pearson, 1).unwrap();
        assert_eq!(bootstrap(&x, &y, pearson, 1), Some((lo, hi)));
        assert!(
            (-1.0..=0.775).contains(&lo) && (0.774..=1.0).contains(&hi),
            "{lo} {hi}"
        );
    }

    fn point(technique: &str, nodes: u64, wins: u64) -> Point {
        let games = 20;
        let losses = 5;
        let draws = games - wins - losses;
        // No pentanomial counts: the Elo comes from the W/D/L.
        let line = format!(
            "{technique},{nodes},{games},{wins},{draws},{losses},0,0,0,0,0,0,0,9.0,9.0,0,0.0,0.0,,,,,,,,"
        );
        Point::parse(&line).unwrap_or_else(|e| panic!("{line}: {e:#}"))
    }

    /// Accuracy gains that rise with the Elo of each technique × control correlate at +1 by
    /// rank; points without an accuracy row (or rows without a point) are left out; a point
    /// listed twice counts last.
    #[test]
    fn a_synthetic_study_correlates_as_built() {
        let dir = std::env::temp_dir().join(format!("augur-correlate-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut scaling = format!("# settings: {{ }}\n{SCALING_COLUMNS}\n");
        for (t, n, w) in [
            ("a", 1000, 1),
            ("b", 1000, 5),
            ("c", 1000, 9),
            ("a", 2000, 3),
            ("b", 2000, 7),
            ("c", 2000, 11),
            ("zz", 1000, 10),
            ("calibration", 1000, 15),
        ] {
            scaling.push_str(&point(t, n, w).to_csv().unwrap());
            scaling.push('\n');
        }
        // Listed again: the last row of (c, 2000) counts.
        scaling.push_str(&point("c", 2000, 13).to_csv().unwrap());
        scaling.push('\n');
        std::fs::write(dir.join("scaling.csv"), scaling).unwrap();
        // Accuracy rows: technique t at control n gains g positions of 10 over its base.
        let gains = [
            ("a", 1000, 1),
            ("b", 1000, 3),
            ("c", 1000, 5),
            ("a", 2000, 2),
            ("b", 2000, 4),
            ("c", 2000, 6),
            ("d", 1000, 1),
            ("calibration", 1000, 0),
        ];
        let mut acc = format!(
            "# augur-lab accuracy-nodes\n{}\n",
            super::super::nodes::COLUMNS
        );
        for (t, n, g) in gains {
            for i in 0..10usize {
                for side in ["tested", "base"] {
                    let equal = side == "tested" && i < g;
                    let mv = if equal { "e2e4" } else { "d2d4" };
                    let loss = if equal { 0 } else { 10 };
                    let row = super::super::nodes::NodesRow {
                        index: i + 1,
                        line: i + 1,
                        technique: t.into(),
                        side: side.into(),
                        control: n,
                        budget: n,
                        depth: 5,
                        nodes: n,
                        bestmove: mv.into(),
                        score: 0,
                        oracle_depth: 11,
                        oracle_move: "e2e4".into(),
                        oracle_score: 0,
                        move_score: -loss,
                        loss,
                        fen: String::new(),
                    };
                    acc.push_str(&crate::kit::result_log::to_line(&row).unwrap());
                    acc.push('\n');
                }
            }
        }
        std::fs::write(dir.join("acc.csv"), acc).unwrap();
        let f = run(&dir.join("acc.csv"), &[dir.join("scaling.csv")]).unwrap();
        assert_eq!(f.points.len(), 7, "{:?}", f.points);
        let c2 = f
            .points
            .iter()
            .find(|m| m.technique == "c" && m.control == 2000)
            .unwrap();
        assert_eq!(c2.elo, point("c", 2000, 13).elo.unwrap());
        let by = |x: &str, y: &str| {
            f.correlations
                .iter()
                .find(|c| c.points == "techniques" && c.x.starts_with(x) && c.y == y)
                .unwrap()
                .clone()
        };
        let eq = by("equal", "Elo");
        assert_eq!(eq.n, 6);
        assert!((eq.spearman.unwrap() - 1.0).abs() < 1e-12, "{eq:?}");
        assert!(eq.pearson.unwrap() > 0.9, "{eq:?}");
        let z = eq.pearson_z.unwrap();
        assert!(z.0 < eq.pearson.unwrap() && eq.pearson.unwrap() < z.1);
        // The proxy's resolution sits beside the points' own: each point's half-width is its
        // interval's, so their mean is the mean of the six.
        let halves: Vec<f64> = f
            .points
            .iter()
            .filter(|m| m.technique != "calibration")
            .map(|m| m.elo_half)
            .collect();
        assert!(halves.iter().all(|h| *h > 10.0), "{halves:?}");
        let mean = halves.iter().sum::<f64>() / 6.0;
        assert!((eq.point_half.unwrap() - mean).abs() < 1e-9, "{eq:?}");
        assert!(eq.residual_sd.unwrap() > 0.0, "{eq:?}");
        // With the calibration (the largest Elo, no accuracy gain) the rank order breaks.
        let all = f
            .correlations
            .iter()
            .find(|c| c.points == "all" && c.x.starts_with("equal") && c.y == "Elo")
            .unwrap();
        assert_eq!(all.n, 7);
        assert!(all.spearman.unwrap() < 0.5, "{all:?}");
        let text = report(&f);
        assert!(text.contains("| c | 2000 |"), "{text}");
        let e = format!(
            "{:#}",
            run(&dir.join("acc.csv"), &[dir.join("acc.csv")]).unwrap_err()
        );
        assert!(e.contains("not a scaling.csv"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
