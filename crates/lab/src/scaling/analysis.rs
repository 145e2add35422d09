//! `augur-lab scaling-report`: the analysis that issue 66's pre-registration names, over one or
//! more finished studies (`scaling.csv` of `augur-lab scaling`, e.g. the hand-written
//! evaluation's engine and the network engine's):
//!
//! - per point: Elo and nElo with their intervals (pentanomial, recomputed from the counts), the
//!   two-sided p of "no effect" and that p after Holm's correction across the study's technique
//!   points (the calibration is not a hypothesis), and the Elo as a share of the calibration's
//!   doubling at the same control with the calibration's error carried (delta method);
//! - per technique: the slope per doubling of nodes in both units, a weighted least-squares line
//!   through its points against log2(nodes) (each point weighted by its inverse variance), its
//!   95% interval, its p (Holm-corrected across the study's techniques), and the points' χ²
//!   about the line (curvature the line does not follow);
//! - between studies: each later study's point and slope minus the first study's at the same
//!   technique and control, both units, the variances added (independent matches), and Holm's
//!   correction across the technique differences (a question such as "does MPC lose more on
//!   the network engine?" or "does king safety at 125% change MPC's Elo?");
//! - a chart per technique with every study's curve on it, so the engines are read side by side;
//! - what resolving would cost, per point, slope and difference (nElo): the smallest true effect
//!   its games resolve with 80% power at Bonferroni's level (α over the family's size, the
//!   strictest step of Holm's), and the games at which a true effect of the estimated size would
//!   be resolved, every point's games scaled alike (an estimate's error falls as one over the
//!   root of its games). The estimate taken as the truth is the usual planning assumption, not a
//!   finding.
//!
//! The statistics are normal approximations: a point's variance is the square of its 95% half
//! interval over 1.96, which is what the pentanomial estimate is built on.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;

use super::{last_of_each, read_points, Point};
use crate::kit::chart::{CategoryChart, Chart, Series, Style};
use crate::kit::confidence::{normal_cdf, normal_quantile};

/// z of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;
/// The power the cost of resolving an estimate is stated at.
const POWER: f64 = 0.8;

#[derive(Args, Debug, Clone)]
pub struct ScalingReportArgs {
    /// A study, `NAME=PATH` of its scaling.csv (repeatable; the name labels its rows and its
    /// curve, e.g. `hce=docs/evidence/scaling-hce/scaling.csv`). Specs that share a name are
    /// one study: a later stage's table (a long control) joins the curve of the first.
    #[arg(long = "study", value_name = "NAME=CSV", required = true)]
    pub studies: Vec<String>,
    /// Family-wise level of Holm's correction.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// Output folder: points.csv, slopes.csv, differences.csv (with two studies or more),
    /// report.md and a chart per technique.
    #[arg(long)]
    pub out: PathBuf,
}

/// One study's name and finished points (the last row of each technique and control).
#[derive(Clone, Debug)]
pub struct Study {
    pub name: String,
    pub points: Vec<Point>,
}

impl Study {
    /// `NAME=PATH` specs: each study's rows read back and checked (counts must add up), the
    /// tables of one name joined in the order given, the studies in the order first named.
    pub fn load_all(specs: &[String]) -> Result<Vec<Study>> {
        let mut tables: Vec<(&str, Vec<PathBuf>)> = Vec::new();
        for spec in specs {
            let (name, path) = spec
                .split_once('=')
                .map(|(n, p)| (n.trim(), p.trim()))
                .filter(|(n, p)| !n.is_empty() && !p.is_empty())
                .with_context(|| format!("--study {spec}: expected NAME=PATH of a scaling.csv"))?;
            match tables.iter_mut().find(|(n, _)| *n == name) {
                Some((_, paths)) => paths.push(PathBuf::from(path)),
                None => tables.push((name, vec![PathBuf::from(path)])),
            }
        }
        tables
            .into_iter()
            .map(|(name, paths)| {
                // One study is one engine: a table of another binary would bend its curves.
                let engines: BTreeSet<String> = paths.iter().map(|p| engine_of(p)).collect();
                if engines.len() > 1 {
                    bail!("--study {name}: its tables {paths:?} come from different engines");
                }
                let points = read_points(&paths)?;
                if points.is_empty() {
                    bail!("--study {name}: no finished point in {paths:?}");
                }
                Ok(Study::new(name, points))
            })
            .collect()
    }

    /// A rerun with more games appends a point's new row: the last one stands.
    pub fn new(name: &str, rows: Vec<Point>) -> Study {
        Study {
            name: name.to_string(),
            points: last_of_each(rows),
        }
    }

    fn calibration(&self, nodes: u64) -> Option<&Point> {
        self.points
            .iter()
            .find(|p| p.technique == "calibration" && p.nodes == nodes)
    }

    /// Techniques in the order they first appear.
    fn techniques(&self) -> Vec<String> {
        let mut seen = Vec::new();
        for p in &self.points {
            if !seen.contains(&p.technique) {
                seen.push(p.technique.clone());
            }
        }
        seen
    }
}

/// The engine a study's table was played with: its settings line's `engine_sha256`.
fn engine_of(table: &Path) -> String {
    crate::kit::result_log::setting(table, "engine_sha256").unwrap_or_default()
}

/// A value with its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measure {
    pub value: f64,
    pub se: f64,
}

impl Measure {
    fn low(&self) -> f64 {
        self.value - Z95 * self.se
    }
    fn high(&self) -> f64 {
        self.value + Z95 * self.se
    }
    /// Two-sided p of "the true value is 0".
    pub fn p(&self) -> f64 {
        if self.se <= 0.0 || !self.se.is_finite() {
            return f64::NAN;
        }
        2.0 * (1.0 - normal_cdf((self.value / self.se).abs()))
    }
    fn text(&self, decimals: usize) -> String {
        format!(
            "{:+.d$} [{:+.d$}, {:+.d$}]",
            self.value,
            self.low(),
            self.high(),
            d = decimals
        )
    }
}

/// `x` to `decimals` places: the CSVs carry what the estimates can say, not float noise.
fn round(x: f64, decimals: i32) -> f64 {
    let f = 10f64.powi(decimals);
    (x * f).round() / f + 0.0
}

/// A point's logistic Elo and nElo as measures: the Elo's error is half its (slightly
/// asymmetric) interval over 1.96.
fn measures(p: &Point) -> Option<(Measure, Measure)> {
    let elo = Measure {
        value: p.elo?,
        se: (p.elo_high? - p.elo_low?) / (2.0 * Z95),
    };
    let nelo = Measure {
        value: p.nelo?,
        se: p.nelo_half? / Z95,
    };
    Some((elo, nelo))
}

/// Holm's step-down adjustment: adjusted p in the input's order.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p.len()).filter(|&i| p[i].is_finite()).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let m = order.len();
    let mut adjusted = vec![f64::NAN; p.len()];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// The weighted least-squares line y = a + b·x with known errors: b with its error and the χ²
/// of the points about the line (df = n − 2). `None` with fewer than two distinct x.
pub fn slope(points: &[(f64, Measure)]) -> Option<(Measure, f64)> {
    let w: Vec<f64> = points.iter().map(|(_, m)| 1.0 / (m.se * m.se)).collect();
    if points.len() < 2 || w.iter().any(|w| !w.is_finite() || *w <= 0.0) {
        return None;
    }
    let sw: f64 = w.iter().sum();
    let xm = points.iter().zip(&w).map(|((x, _), w)| w * x).sum::<f64>() / sw;
    let ym = points
        .iter()
        .zip(&w)
        .map(|((_, m), w)| w * m.value)
        .sum::<f64>()
        / sw;
    let sxx: f64 = points
        .iter()
        .zip(&w)
        .map(|((x, _), w)| w * (x - xm).powi(2))
        .sum();
    if sxx <= 0.0 {
        return None;
    }
    let sxy: f64 = points
        .iter()
        .zip(&w)
        .map(|((x, m), w)| w * (x - xm) * (m.value - ym))
        .sum();
    let b = sxy / sxx;
    let a = ym - b * xm;
    let chi2 = points
        .iter()
        .zip(&w)
        .map(|((x, m), w)| w * (m.value - a - b * x).powi(2))
        .sum();
    Some((
        Measure {
            value: b,
            se: (1.0 / sxx).sqrt(),
        },
        chi2,
    ))
}

/// `t / c` with both errors carried (first order): the share of a doubling a technique is
/// worth. None when the calibration is not clearly positive.
pub fn share(t: Measure, c: Measure) -> Option<Measure> {
    if c.value <= 0.0 || c.value < 2.0 * c.se {
        return None;
    }
    let r = t.value / c.value;
    Some(Measure {
        value: r,
        se: (t.se * t.se + r * r * c.se * c.se).sqrt() / c.value,
    })
}

/// What resolving an estimate would take (nElo, like its p): `mde`, the smallest true effect
/// its `games` resolve with probability [`POWER`] at the two-sided level `alpha_each`; `games`,
/// the games (each point's scaled alike, summed) at which a true effect of the estimated size
/// would be resolved, rounded up to a hundred, None for an estimate of exactly 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    pub mde: f64,
    pub games: Option<u64>,
}

pub fn cost(m: Measure, games: u64, alpha_each: f64) -> Option<Cost> {
    if !(m.se > 0.0 && m.se.is_finite()) || games == 0 {
        return None;
    }
    let z = normal_quantile(1.0 - alpha_each / 2.0) + normal_quantile(POWER);
    if !z.is_finite() {
        return None;
    }
    let mde = z * m.se;
    let games = (m.value != 0.0).then(|| {
        let needed = games as f64 * (mde / m.value).powi(2);
        // `as` saturates: an estimate near 0 asks for more games than any budget.
        ((needed / 100.0).ceil() as u64).max(1).saturating_mul(100)
    });
    Some(Cost { mde, games })
}

/// A row of a Holm family: what the correction reads and the cells it fills. The calibration
/// rows are a yardstick, not a test, so they stay out of every family.
trait Tested {
    fn technique(&self) -> &str;
    fn p(&self) -> f64;
    fn games(&self) -> u64;
    fn fill(&mut self, p_holm: f64, nelo_mde: Option<f64>, games_to_resolve: Option<u64>);
}

/// The three tables' rows name their cells alike.
macro_rules! tested_row {
    ($($row:ty),*) => {$(
        impl Tested for $row {
            fn technique(&self) -> &str {
                &self.technique
            }
            fn p(&self) -> f64 {
                self.p
            }
            fn games(&self) -> u64 {
                self.games
            }
            fn fill(&mut self, p_holm: f64, nelo_mde: Option<f64>, games_to_resolve: Option<u64>) {
                self.p_holm = Some(p_holm);
                self.nelo_mde = nelo_mde;
                self.games_to_resolve = games_to_resolve;
            }
        }
    )*};
}
tested_row!(PointRow, SlopeRow, DifferenceRow);

/// Holm's correction across `rows` but the calibration's (`nelos[i]`: row i's nElo estimate),
/// and the [`Cost`] of each at Bonferroni's level over that family, its MDE rounded to
/// `decimals`.
fn correct<R: Tested>(rows: &mut [R], nelos: &[Measure], alpha: f64, decimals: i32) {
    let tested: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].technique() != "calibration")
        .collect();
    let adjusted = holm(&tested.iter().map(|&i| rows[i].p()).collect::<Vec<_>>());
    let alpha_each = alpha / tested.len().max(1) as f64;
    for (&i, a) in tested.iter().zip(adjusted) {
        let c = cost(nelos[i], rows[i].games(), alpha_each);
        rows[i].fill(
            a,
            c.map(|c| round(c.mde, decimals)),
            c.and_then(|c| c.games),
        );
    }
}

/// One point of the analysis (a row of points.csv).
#[derive(Clone, Debug, Serialize)]
pub struct PointRow {
    pub study: String,
    pub technique: String,
    pub nodes: u64,
    pub games: u64,
    pub penta: String,
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    pub nelo: f64,
    pub nelo_low: f64,
    pub nelo_high: f64,
    pub p: f64,
    pub p_holm: Option<f64>,
    pub share: Option<f64>,
    pub share_low: Option<f64>,
    pub share_high: Option<f64>,
    /// [`Cost`]: the nElo this point resolves, and the games its estimate would need.
    pub nelo_mde: Option<f64>,
    pub games_to_resolve: Option<u64>,
}

/// One technique's line (a row of slopes.csv).
#[derive(Clone, Debug, Serialize)]
pub struct SlopeRow {
    pub study: String,
    pub technique: String,
    pub controls: usize,
    /// The games of its points, all controls together.
    pub games: u64,
    pub elo_per_doubling: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    pub nelo_per_doubling: f64,
    pub nelo_low: f64,
    pub nelo_high: f64,
    pub p: f64,
    pub p_holm: Option<f64>,
    pub chi2: f64,
    pub df: usize,
    /// [`Cost`]: the nElo a doubling these points resolve, and the games (over all the
    /// technique's controls) its estimate would need.
    pub nelo_mde: Option<f64>,
    pub games_to_resolve: Option<u64>,
}

/// A technique's lines per doubling of nodes in both units (the nElo line's χ²).
struct TechniqueLine {
    technique: String,
    controls: usize,
    games: u64,
    elo: Measure,
    nelo: Measure,
    chi2: f64,
}

/// Each technique's weighted least-squares lines through its points against log2(nodes).
fn technique_lines(study: &Study) -> Vec<TechniqueLine> {
    study
        .techniques()
        .into_iter()
        .filter_map(|t| {
            let mine: Vec<(f64, Measure, Measure, u64)> = study
                .points
                .iter()
                .filter(|p| p.technique == t)
                .filter_map(|p| measures(p).map(|(e, n)| ((p.nodes as f64).log2(), e, n, p.games)))
                .collect();
            let (elo, _) = slope(&mine.iter().map(|r| (r.0, r.1)).collect::<Vec<_>>())?;
            let (nelo, chi2) = slope(&mine.iter().map(|r| (r.0, r.2)).collect::<Vec<_>>())?;
            Some(TechniqueLine {
                technique: t,
                controls: mine.len(),
                games: mine.iter().map(|r| r.3).sum(),
                elo,
                nelo,
                chi2,
            })
        })
        .collect()
}

/// The analysis of one study; `alpha` is the family-wise level the costs are stated at.
pub fn analyse(study: &Study, alpha: f64) -> (Vec<PointRow>, Vec<SlopeRow>) {
    let mut points = Vec::new();
    let mut nelos = Vec::new();
    for p in &study.points {
        let Some((elo, nelo)) = measures(p) else {
            continue;
        };
        let cal = study.calibration(p.nodes).and_then(measures).map(|m| m.0);
        let sh = cal
            .filter(|_| p.technique != "calibration")
            .and_then(|c| share(elo, c));
        points.push(PointRow {
            study: study.name.clone(),
            technique: p.technique.clone(),
            nodes: p.nodes,
            games: p.games,
            penta: format!("{}/{}/{}/{}/{}", p.ll, p.ld, p.wl_dd, p.wd, p.ww),
            elo: round(elo.value, 1),
            elo_low: round(elo.low(), 1),
            elo_high: round(elo.high(), 1),
            nelo: round(nelo.value, 1),
            nelo_low: round(nelo.low(), 1),
            nelo_high: round(nelo.high(), 1),
            p: nelo.p(),
            p_holm: None,
            share: sh.map(|s| round(s.value, 4)),
            share_low: sh.map(|s| round(s.low(), 4)),
            share_high: sh.map(|s| round(s.high(), 4)),
            nelo_mde: None,
            games_to_resolve: None,
        });
        nelos.push(nelo);
    }
    correct(&mut points, &nelos, alpha, 1);

    let mut slopes = Vec::new();
    let mut nelos = Vec::new();
    for TechniqueLine {
        technique: t,
        controls,
        games,
        elo: e,
        nelo: n,
        chi2,
    } in technique_lines(study)
    {
        nelos.push(n);
        slopes.push(SlopeRow {
            study: study.name.clone(),
            technique: t,
            controls,
            games,
            elo_per_doubling: round(e.value, 2),
            elo_low: round(e.low(), 2),
            elo_high: round(e.high(), 2),
            nelo_per_doubling: round(n.value, 2),
            nelo_low: round(n.low(), 2),
            nelo_high: round(n.high(), 2),
            p: n.p(),
            p_holm: None,
            chi2: round(chi2, 3),
            df: controls - 2,
            nelo_mde: None,
            games_to_resolve: None,
        });
    }
    correct(&mut slopes, &nelos, alpha, 2);
    (points, slopes)
}

/// A later study's point or slope minus the first study's (a row of differences.csv).
#[derive(Clone, Debug, Serialize)]
pub struct DifferenceRow {
    pub study: String,
    pub reference: String,
    pub technique: String,
    /// The control (nodes a move), or `slope` for the lines per doubling.
    pub control: String,
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    pub nelo: f64,
    pub nelo_low: f64,
    pub nelo_high: f64,
    pub p: f64,
    pub p_holm: Option<f64>,
    /// The games of both sides (a slope's: over all their controls).
    pub games: u64,
    /// [`Cost`]: the nElo difference these games resolve, and the games (both sides scaled
    /// alike) its estimate would need.
    pub nelo_mde: Option<f64>,
    pub games_to_resolve: Option<u64>,
}

/// Every later study against the first, where both measured a technique at a control (and per
/// technique, their slopes): the difference with the variances added, as for independent
/// matches. Holm's correction runs across the technique rows (the calibration is a yardstick);
/// `alpha` is the family-wise level the costs are stated at.
pub fn differences(studies: &[Study], alpha: f64) -> Vec<DifferenceRow> {
    let Some((first, rest)) = studies.split_first() else {
        return Vec::new();
    };
    let minus = |a: Measure, b: Measure| Measure {
        value: a.value - b.value,
        se: (a.se * a.se + b.se * b.se).sqrt(),
    };
    let reference_lines = technique_lines(first);
    let mut rows = Vec::new();
    let mut nelos = Vec::new();
    for other in rest {
        let mut push = |technique: &str, control: String, e: Measure, n: Measure, games: u64| {
            nelos.push(n);
            rows.push(DifferenceRow {
                study: other.name.clone(),
                reference: first.name.clone(),
                technique: technique.to_string(),
                control,
                elo: round(e.value, 1),
                elo_low: round(e.low(), 1),
                elo_high: round(e.high(), 1),
                nelo: round(n.value, 1),
                nelo_low: round(n.low(), 1),
                nelo_high: round(n.high(), 1),
                p: n.p(),
                p_holm: None,
                games,
                nelo_mde: None,
                games_to_resolve: None,
            });
        };
        for p in &other.points {
            let reference = first
                .points
                .iter()
                .find(|q| q.technique == p.technique && q.nodes == p.nodes);
            let reference = reference.and_then(|r| Some((r.games, measures(r)?)));
            if let (Some((e, n)), Some((games, (re, rn)))) = (measures(p), reference) {
                push(
                    &p.technique,
                    p.nodes.to_string(),
                    minus(e, re),
                    minus(n, rn),
                    p.games + games,
                );
            }
        }
        for l in technique_lines(other) {
            if let Some(r) = reference_lines.iter().find(|r| r.technique == l.technique) {
                push(
                    &l.technique,
                    "slope".into(),
                    minus(l.elo, r.elo),
                    minus(l.nelo, r.nelo),
                    l.games + r.games,
                );
            }
        }
    }
    correct(&mut rows, &nelos, alpha, 1);
    rows
}

fn verdict(p_holm: Option<f64>, value: f64, alpha: f64) -> &'static str {
    match p_holm {
        None => "",
        Some(p) if p < alpha && value > 0.0 => "gain",
        Some(p) if p < alpha => "loss",
        Some(_) => "unresolved",
    }
}

/// The report: a table of points and a table of slopes, every study's rows together, then the
/// differences between studies where there are any.
pub fn report(
    points: &[PointRow],
    slopes: &[SlopeRow],
    diffs: &[DifferenceRow],
    alpha: f64,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "## Points\n\nElo logistic and nElo with 95% intervals (pentanomial); p two-sided; Holm \
         across each study's technique points (family-wise {alpha}); doubling: the Elo as a \
         share of the calibration's at the same control, both errors carried.\n\n\
         | study | technique | nodes | games | Elo | nElo | p | Holm p | verdict | doubling |\n\
         | --- | --- | ---: | ---: | --- | --- | ---: | ---: | --- | --- |"
    );
    for p in points {
        let share = match (p.share, p.share_low, p.share_high) {
            (Some(v), Some(l), Some(h)) => {
                format!("{:.0}% [{:.0}, {:.0}]", 100.0 * v, 100.0 * l, 100.0 * h)
            }
            _ => "-".into(),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {:+.1} [{:+.1}, {:+.1}] | {:+.1} [{:+.1}, {:+.1}] | {:.3} | {} | {} | {share} |",
            p.study,
            p.technique,
            p.nodes,
            p.games,
            p.elo,
            p.elo_low,
            p.elo_high,
            p.nelo,
            p.nelo_low,
            p.nelo_high,
            p.p,
            p.p_holm.map_or("-".into(), |q| format!("{q:.3}")),
            verdict(p.p_holm, p.elo, alpha),
        );
    }
    let _ = writeln!(
        s,
        "\n## Slopes per doubling of nodes\n\nWeighted least squares of each unit on \
         log2(nodes); p of a zero slope (nElo), Holm across each study's techniques; χ² of \
         the points about the line (df = controls − 2).\n\n\
         | study | technique | controls | Elo / doubling | nElo / doubling | p | Holm p | verdict | χ² (df) |\n\
         | --- | --- | ---: | --- | --- | ---: | ---: | --- | --- |"
    );
    for l in slopes {
        let e = Measure {
            value: l.elo_per_doubling,
            se: (l.elo_high - l.elo_low) / (2.0 * Z95),
        };
        let n = Measure {
            value: l.nelo_per_doubling,
            se: (l.nelo_high - l.nelo_low) / (2.0 * Z95),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {:.3} | {} | {} | {:.2} ({}) |",
            l.study,
            l.technique,
            l.controls,
            e.text(1),
            n.text(1),
            l.p,
            l.p_holm.map_or("-".into(), |q| format!("{q:.3}")),
            verdict(l.p_holm, l.nelo_per_doubling, alpha),
            l.chi2,
            l.df
        );
    }
    if !diffs.is_empty() {
        let _ = writeln!(
            s,
            "\n## Between studies\n\nEach study minus the first at the same technique and \
             control (slope: the lines per doubling), variances added (independent matches); \
             p two-sided (nElo), Holm across the technique rows (family-wise {alpha}); \
             higher: the technique is worth more in that study.\n\n\
             | study | minus | technique | control | Elo | nElo | p | Holm p | verdict |\n\
             | --- | --- | --- | --- | --- | --- | ---: | ---: | --- |"
        );
        for d in diffs {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {:+.1} [{:+.1}, {:+.1}] | {:+.1} [{:+.1}, {:+.1}] | {:.3} | {} | {} |",
                d.study,
                d.reference,
                d.technique,
                d.control,
                d.elo,
                d.elo_low,
                d.elo_high,
                d.nelo,
                d.nelo_low,
                d.nelo_high,
                d.p,
                d.p_holm.map_or("-".into(), |q| format!("{q:.3}")),
                verdict(d.p_holm, d.nelo, alpha).replace("gain", "higher").replace("loss", "lower"),
            );
        }
    }
    cost_section(&mut s, points, slopes, diffs, alpha);
    s
}

/// The unresolved points, slopes and differences with what resolving each would cost ([`Cost`]).
fn cost_section(
    s: &mut String,
    points: &[PointRow],
    slopes: &[SlopeRow],
    diffs: &[DifferenceRow],
    alpha: f64,
) {
    /// A row of the section: who, where, the estimate and its cost.
    struct Open<'a> {
        study: String,
        technique: &'a str,
        control: String,
        nelo: f64,
        games: u64,
        mde: Option<f64>,
        need: Option<u64>,
    }
    let open = |p_holm, value| verdict(p_holm, value, alpha) == "unresolved";
    let rows: Vec<Open> = (points.iter().filter(|p| open(p.p_holm, p.nelo)))
        .map(|p| Open {
            study: p.study.clone(),
            technique: &p.technique,
            control: p.nodes.to_string(),
            nelo: p.nelo,
            games: p.games,
            mde: p.nelo_mde,
            need: p.games_to_resolve,
        })
        .chain(
            (slopes
                .iter()
                .filter(|l| open(l.p_holm, l.nelo_per_doubling)))
            .map(|l| Open {
                study: l.study.clone(),
                technique: &l.technique,
                control: "slope".into(),
                nelo: l.nelo_per_doubling,
                games: l.games,
                mde: l.nelo_mde,
                need: l.games_to_resolve,
            }),
        )
        .chain(
            (diffs.iter().filter(|d| open(d.p_holm, d.nelo))).map(|d| Open {
                study: format!("{} − {}", d.study, d.reference),
                technique: &d.technique,
                control: d.control.clone(),
                nelo: d.nelo,
                games: d.games,
                mde: d.nelo_mde,
                need: d.games_to_resolve,
            }),
        )
        .collect();
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "\n## What resolving would cost\n\nEach unresolved point, slope and difference (nElo): \
         the smallest true effect its games resolve with {:.0}% power at Bonferroni's level \
         (family-wise {alpha} over the family's size), and the games at which a true effect of \
         the estimated size would be resolved (a slope's over all its controls, a difference's \
         over both studies, each point's games scaled alike).\n\n\
         | study | technique | control | nElo | games | resolves ± | games for the estimate |\n\
         | --- | --- | --- | ---: | ---: | ---: | ---: |",
        100.0 * POWER
    );
    for r in rows {
        let mde = r.mde.map_or("-".into(), |m| format!("{m:.1}"));
        let need = r.need.map_or("-".into(), |n| n.to_string());
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:+.1} | {} | {mde} | {need} |",
            r.study, r.technique, r.control, r.nelo, r.games
        );
    }
}

/// One chart per technique: each study's Elo against nodes with its interval.
fn chart(technique: &str, points: &[PointRow]) -> Chart {
    let mine: Vec<&PointRow> = points.iter().filter(|p| p.technique == technique).collect();
    let nodes: Vec<u64> = mine
        .iter()
        .map(|p| p.nodes)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let studies: Vec<&str> = mine
        .iter()
        .map(|p| p.study.as_str())
        .fold(Vec::new(), |mut v, s| {
            if !v.contains(&s) {
                v.push(s);
            }
            v
        });
    let mut c = CategoryChart::new(
        format!("{technique}: Elo against nodes a move, per engine"),
        nodes.iter().map(|n| n.to_string()).collect(),
    )
    .labels("nodes a move (log scale)", "Elo (logistic), 95% interval")
    .style(Style::Lines);
    for study in studies {
        let value = |f: &dyn Fn(&PointRow) -> f64| -> Vec<f64> {
            nodes
                .iter()
                .map(|&n| {
                    mine.iter()
                        .find(|p| p.study == study && p.nodes == n)
                        .map_or(f64::NAN, |p| f(p))
                })
                .collect()
        };
        let low = value(&|p| p.elo_low);
        let high = value(&|p| p.elo_high);
        c = c.series(
            Series::new(study, value(&|p| p.elo))
                .with_interval(low.into_iter().zip(high).collect()),
        );
    }
    Chart::from(c)
}

fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    for r in rows {
        w.serialize(r)?;
    }
    w.flush()?;
    Ok(())
}

pub fn run(args: &ScalingReportArgs) -> Result<()> {
    if !(args.alpha > 0.0 && args.alpha < 1.0) {
        bail!("--alpha {}: expected a level between 0 and 1", args.alpha);
    }
    let studies = Study::load_all(&args.studies)?;
    let mut points = Vec::new();
    let mut slopes = Vec::new();
    for s in &studies {
        let (p, l) = analyse(s, args.alpha);
        points.extend(p);
        slopes.extend(l);
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    write_csv(&args.out.join("points.csv"), &points)?;
    write_csv(&args.out.join("slopes.csv"), &slopes)?;
    let diffs = differences(&studies, args.alpha);
    if !diffs.is_empty() {
        write_csv(&args.out.join("differences.csv"), &diffs)?;
    }
    let text = report(&points, &slopes, &diffs, args.alpha);
    std::fs::write(args.out.join("report.md"), &text)?;
    let techniques: Vec<String> =
        points
            .iter()
            .map(|p| p.technique.clone())
            .fold(Vec::new(), |mut v, t| {
                if !v.contains(&t) {
                    v.push(t);
                }
                v
            });
    for t in &techniques {
        chart(t, &points).save(&args.out, t)?;
    }
    print!("{text}");
    eprintln!(
        "wrote points.csv, slopes.csv{}, report.md and {} charts in {}",
        if diffs.is_empty() {
            ""
        } else {
            ", differences.csv"
        },
        techniques.len(),
        args.out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(value: f64, se: f64) -> Measure {
        Measure { value, se }
    }

    #[test]
    fn holm_steps_down_and_stays_monotone() {
        // m = 4: 0.01·4, 0.02·3, 0.03·2 (raised to the running max 0.06), 0.5·1.
        let a = holm(&[0.03, 0.5, 0.01, 0.02]);
        let want = [0.06, 0.5, 0.04, 0.06];
        for (x, y) in a.iter().zip(want) {
            assert!((x - y).abs() < 1e-12, "{a:?}");
        }
        assert!(holm(&[0.9, 0.8]).iter().all(|&p| p <= 1.0));
        assert!(holm(&[f64::NAN, 0.01])[0].is_nan());
    }

    #[test]
    fn the_slope_recovers_a_line_and_its_error() {
        // Exact line y = 3 + 2x: slope 2, χ² 0; equal errors σ over x = 0, 2, 4: se = σ/√8.
        let pts = [(0.0, m(3.0, 4.0)), (2.0, m(7.0, 4.0)), (4.0, m(11.0, 4.0))];
        let (b, chi2) = slope(&pts).unwrap();
        assert!((b.value - 2.0).abs() < 1e-12 && chi2.abs() < 1e-12);
        assert!((b.se - 4.0 / 8f64.sqrt()).abs() < 1e-12);
        // A precise point pulls the line; a bent set shows in χ².
        let bent = [(0.0, m(0.0, 1.0)), (2.0, m(10.0, 1.0)), (4.0, m(0.0, 1.0))];
        assert!(slope(&bent).unwrap().1 > 50.0);
        assert!(slope(&[(1.0, m(1.0, 1.0))]).is_none());
        assert!(slope(&[(1.0, m(1.0, 1.0)), (1.0, m(2.0, 1.0))]).is_none());
    }

    #[test]
    fn a_share_carries_both_errors() {
        let s = share(m(-40.0, 8.0), m(200.0, 10.0)).unwrap();
        assert!((s.value + 0.2).abs() < 1e-12);
        let want = (64.0f64 + 0.04 * 100.0).sqrt() / 200.0;
        assert!((s.se - want).abs() < 1e-12);
        assert!(share(m(1.0, 1.0), m(10.0, 8.0)).is_none());
    }

    #[test]
    fn a_cost_is_the_power_calculation_of_a_normal_estimate() {
        // 10 ± 5 from 1,000 games at a two-sided 0.05: z 1.960 + 0.842 = 2.802, so the games
        // resolve 14.0 with 80% power, and 10 needs 1,000 · (14.0 / 10)² = 1,963 → 2,000.
        let c = cost(m(10.0, 5.0), 1000, 0.05).unwrap();
        assert!((c.mde - 14.008).abs() < 0.01, "{c:?}");
        assert_eq!(c.games, Some(2000));
        // A stricter level asks for more; the sign does not matter; 0 and no error give none.
        let strict = cost(m(-10.0, 5.0), 1000, 0.05 / 12.0).unwrap();
        assert!(strict.mde > c.mde && strict.games > c.games);
        assert_eq!(cost(m(0.0, 5.0), 1000, 0.05).unwrap().games, None);
        assert!(cost(m(1.0, 0.0), 1000, 0.05).is_none());
        assert!(cost(m(1.0, 1.0), 1000, 0.0).is_none());
        // An estimate near 0 saturates instead of wrapping.
        assert_eq!(
            cost(m(1e-300, 5.0), 1000, 0.05).unwrap().games,
            Some(u64::MAX)
        );
    }

    #[test]
    fn a_study_keeps_the_last_row_of_a_point_and_reports_verdicts() {
        let row = |t: &str, nodes: u64, w: u64, d: u64, l: u64, penta: [u64; 5]| {
            let line = format!(
                "{t},{nodes},{},{w},{d},{l},{},{},{},{},{},{},0,8,8,0,0,0,,,,,,,,",
                w + d + l,
                penta[0],
                penta[1],
                penta[2],
                penta[3],
                penta[4],
                (w + d + l) / 2
            );
            Point::parse(&line).unwrap()
        };
        let rows = vec![
            row("calibration", 10_000, 600, 300, 100, [5, 20, 120, 180, 175]),
            row("mpc", 10_000, 10, 10, 10, [1, 3, 7, 3, 1]),
            row("mpc", 10_000, 250, 350, 400, [70, 130, 205, 70, 25]),
            row("calibration", 40_000, 550, 350, 100, [5, 20, 145, 180, 150]),
            row("mpc", 40_000, 200, 350, 450, [95, 145, 195, 45, 20]),
            row("se", 10_000, 330, 340, 330, [40, 100, 220, 100, 40]),
            row("se", 40_000, 335, 340, 325, [40, 100, 210, 110, 40]),
        ];
        let study = Study::new("nnue", rows);
        assert_eq!(study.points.len(), 6, "the rerun's row replaced the first");
        let (points, slopes) = analyse(&study, 0.05);
        let mpc10 = points
            .iter()
            .find(|p| p.technique == "mpc" && p.nodes == 10_000)
            .unwrap();
        assert_eq!(mpc10.games, 1000);
        assert!(mpc10.elo < 0.0 && mpc10.p < 0.001);
        assert!(mpc10.p_holm.unwrap() >= mpc10.p);
        assert!(mpc10.share.unwrap() < 0.0);
        let cal = points
            .iter()
            .find(|p| p.technique == "calibration")
            .unwrap();
        assert!(cal.p_holm.is_none() && cal.share.is_none());
        assert!(cal.nelo_mde.is_none() && cal.games_to_resolve.is_none());
        let se = points.iter().find(|p| p.technique == "se").unwrap();
        assert_eq!(verdict(se.p_holm, se.elo, 0.05), "unresolved");
        // Four technique points: Bonferroni's level 0.05 / 4; an estimate of 0 has no cost,
        // a small one needs more games than were played.
        assert_eq!(se.nelo, 0.0);
        assert!(se.nelo_mde.is_some() && se.games_to_resolve.is_none());
        let se = points
            .iter()
            .find(|p| p.technique == "se" && p.nodes == 40_000)
            .unwrap();
        let se_cost = cost(
            Measure {
                value: se.nelo,
                se: (se.nelo_high - se.nelo_low) / (2.0 * Z95),
            },
            se.games,
            0.05 / 4.0,
        )
        .unwrap();
        assert!((se.nelo_mde.unwrap() - se_cost.mde).abs() < 0.06);
        assert!(se.games_to_resolve.unwrap() > se.games);
        assert_eq!(verdict(mpc10.p_holm, mpc10.elo, 0.05), "loss");
        let mpc = slopes.iter().find(|l| l.technique == "mpc").unwrap();
        assert!(mpc.elo_per_doubling < 0.0 && mpc.controls == 2 && mpc.df == 0);
        assert_eq!(mpc.games, 2000);
        assert!(mpc.nelo_mde.is_some());
        let text = report(&points, &slopes, &[], 0.05);
        assert!(text.contains("| nnue | mpc | 10000 | 1000 |"), "{text}");
        // The cost section lists the unresolved se point, not the resolved MPC loss.
        let costs = text.split("## What resolving would cost").nth(1).unwrap();
        assert!(costs.contains("| nnue | se | 10000 |"), "{text}");
        assert!(!costs.contains("| nnue | mpc | 10000 |"), "{text}");
    }

    #[test]
    fn a_later_study_is_read_against_the_first_with_the_variances_added() {
        let row = |t: &str, nodes: u64, penta: [u64; 5]| {
            let (w, l) = (
                penta[3] + 2 * penta[4] + penta[2] / 2,
                penta[1] + 2 * penta[0] + penta[2] / 2,
            );
            let d = 2 * penta.iter().sum::<u64>() - w - l;
            let line = format!(
                "{t},{nodes},{},{w},{d},{l},{},{},{},{},{},{},0,8,8,0,0,0,,,,,,,,",
                w + d + l,
                penta[0],
                penta[1],
                penta[2],
                penta[3],
                penta[4],
                (w + d + l) / 2
            );
            Point::parse(&line).unwrap()
        };
        let hce = Study::new(
            "hce",
            vec![
                row("mpc", 10_000, [50, 120, 220, 80, 30]),
                row("mpc", 40_000, [60, 140, 210, 70, 20]),
            ],
        );
        let nnue = Study::new(
            "nnue",
            vec![
                row("mpc", 10_000, [70, 130, 205, 70, 25]),
                row("mpc", 40_000, [95, 145, 195, 45, 20]),
                row("se", 40_000, [40, 100, 210, 110, 40]),
            ],
        );
        assert!(differences(std::slice::from_ref(&hce), 0.05).is_empty());
        let diffs = differences(&[hce.clone(), nnue.clone()], 0.05);
        let controls: Vec<&str> = diffs.iter().map(|d| d.control.as_str()).collect();
        assert_eq!(controls, ["10000", "40000", "slope"], "se has no reference");
        let (a, _) = analyse(&hce, 0.05);
        let (b, _) = analyse(&nnue, 0.05);
        let half = |p: &PointRow| (p.elo_high - p.elo_low) / 2.0;
        let d40 = &diffs[1];
        assert!((d40.elo - (b[1].elo - a[1].elo)).abs() < 0.15, "{d40:?}");
        let expected = (half(&a[1]).powi(2) + half(&b[1]).powi(2)).sqrt();
        assert!(
            ((d40.elo_high - d40.elo_low) / 2.0 - expected).abs() < 0.2,
            "{d40:?}"
        );
        assert!(diffs.iter().all(|d| d.p_holm.unwrap() >= d.p));
        // Both sides' games; three rows, so Bonferroni's level 0.05 / 3.
        assert_eq!(d40.games, a[1].games + b[1].games);
        let n40 = Measure {
            value: d40.nelo,
            se: (d40.nelo_high - d40.nelo_low) / (2.0 * Z95),
        };
        let c = cost(n40, d40.games, 0.05 / 3.0).unwrap();
        assert!((d40.nelo_mde.unwrap() - c.mde).abs() < 0.1, "{d40:?}");
        let text = report(&a, &[], &diffs, 0.05);
        assert!(text.contains("| nnue | hce | mpc | 40000 |"), "{text}");
        // The cost section lists the unresolved 10k difference, both studies named, and not
        // the resolved 40k one.
        assert_eq!(verdict(d40.p_holm, d40.nelo, 0.05), "loss", "{d40:?}");
        assert_eq!(verdict(diffs[0].p_holm, diffs[0].nelo, 0.05), "unresolved");
        let costs = text.split("## What resolving would cost").nth(1).unwrap();
        assert!(costs.contains("| nnue − hce | mpc | 10000 |"), "{text}");
        assert!(!costs.contains("| nnue − hce | mpc | 40000 |"), "{text}");
    }

    #[test]
    fn the_chart_draws_a_whisker_per_interval() {
        let row = |study: &str, nodes: u64, elo: f64| PointRow {
            study: study.into(),
            technique: "mpc".into(),
            nodes,
            games: 100,
            penta: String::new(),
            elo,
            elo_low: elo - 10.0,
            elo_high: elo + 10.0,
            nelo: elo,
            nelo_low: elo - 14.0,
            nelo_high: elo + 14.0,
            p: 0.5,
            p_holm: None,
            share: None,
            share_low: None,
            share_high: None,
            nelo_mde: None,
            games_to_resolve: None,
        };
        let points = [
            row("hce", 10_000, -30.0),
            row("nnue", 10_000, -43.0),
            row("hce", 40_000, -66.0),
        ];
        let count = |svg: &str| svg.matches("<polyline").count() + svg.matches("<line").count();
        // The same axis for both, so that only the whiskers differ.
        let drawn = |intervals: bool| {
            let Chart::Category(mut c) = chart("mpc", &points) else {
                panic!("a category chart")
            };
            c.y_range = Some((-100.0, 0.0));
            if !intervals {
                c.series.iter_mut().for_each(|s| s.interval = None);
            }
            Chart::from(c).to_svg().unwrap()
        };
        let (with, without) = (drawn(true), drawn(false));
        // Three intervals, each a stem and two caps.
        assert_eq!(
            count(&with) - count(&without),
            9,
            "{} vs {}",
            count(&with),
            count(&without)
        );
    }

    #[test]
    fn tables_of_one_name_join_into_one_study() {
        // The committed network study cut in two, as a long stage's table sits beside the
        // study's: both halves under one name are the whole study; another name is another.
        let whole = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs/evidence/scaling-nnue/scaling.csv");
        let text = std::fs::read_to_string(&whole).unwrap();
        let (head, rows): (Vec<&str>, Vec<&str>) = text
            .lines()
            .partition(|l| l.starts_with('#') || l.starts_with("technique,"));
        assert!(rows.len() >= 4, "{}", whole.display());
        let dir = std::env::temp_dir().join(format!("augur-study-join-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (early, late) = rows.split_at(rows.len() - 2);
        let part = |name: &str, rows: &[&str]| {
            let path = dir.join(name);
            std::fs::write(&path, [&head[..], rows].concat().join("\n") + "\n").unwrap();
            path.display().to_string()
        };
        let (a, b) = (part("a.csv", early), part("b.csv", late));
        let one = |specs: &[String]| Study::load_all(specs).unwrap();
        let joined = one(&[format!("nnue={a}"), format!("x={b}"), format!("nnue={b}")]);
        let alone = one(&[format!("nnue={}", whole.display())]);
        assert_eq!(joined.len(), 2);
        assert_eq!(
            (joined[0].name.as_str(), joined[1].name.as_str()),
            ("nnue", "x")
        );
        assert_eq!(joined[0].points, alone[0].points);
        assert_eq!(joined[1].points.len(), 2);
        // A table of another engine does not join.
        let other = dir.join("other.csv");
        let text = std::fs::read_to_string(&b).unwrap();
        let sha = engine_of(Path::new(&b));
        assert_eq!(sha.len(), 64, "{b}");
        std::fs::write(&other, text.replace(&sha, &"0".repeat(64))).unwrap();
        let e = Study::load_all(&[format!("nnue={a}"), format!("nnue={}", other.display())]);
        assert!(format!("{:#}", e.unwrap_err()).contains("different engines"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_study_specs_are_refused() {
        for bad in ["", "nnue", "=x.csv", "nnue=", "nnue=/no/such/file.csv"] {
            assert!(Study::load_all(&[bad.to_string()]).is_err(), "{bad}");
        }
    }
}
