//! `augur-lab wdl`: the win/draw/loss model of `UCI_ShowWDL`, fitted on Augur's own games as
//! Stockfish fits its own, and its calibration on games it was not fitted on.
//!
//! For every material count m (pawn 1, minor 3, rook 5, queen 9, both sides) the positions of
//! the data with that material give `a_m` and `b_m` by maximum likelihood of the ordinal model
//! `win = σ((s − a)/b)`, `loss = σ((−s − a)/b)`, `draw` the rest (s the search score, side to
//! move). Then `a` and `b` become cubic polynomials in m/58 (least squares weighted by each
//! count's positions), which the engine evaluates (`augur::search::wdl`). The calibration
//! compares, per score bucket, the mean predicted probability with the observed frequency on
//! the `--check` files.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::data::records::{Outcome, RecordReader};
use crate::kit::chart::{CategoryChart, Chart, Series, Style};
use crate::kit::summary::SummaryArgs;
use augur::search::wdl::WdlModel;

/// Scores beyond this (cp) are left out: mates and decided positions say nothing of the curve.
const SCORE_LIMIT: i32 = 1500;
/// Material counts the model distinguishes (the engine clamps to the same range).
const MATERIAL: std::ops::RangeInclusive<u32> = 17..=78;
/// A material count needs this many positions to give its own `a` and `b`.
const MIN_POSITIONS: u64 = 400;

#[derive(clap::Args, Debug)]
pub struct WdlArgs {
    /// Datagen record files to fit on.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Record files (of other games) to check the calibration on.
    #[arg(long)]
    pub check: Vec<PathBuf>,
    /// Output folder: wdl.toml, per-material.csv, calibration.csv, calibration.svg/png.
    #[arg(long)]
    pub out: PathBuf,
    /// Also write the engine's parameter file (crates/engine/src/search/wdl_params.rs).
    #[arg(long)]
    pub engine_file: Option<PathBuf>,
    #[command(flatten)]
    pub summary: SummaryArgs,
}

/// Counts of (score, outcome) at one material count: the likelihood needs nothing else.
struct Histogram {
    /// [score + SCORE_LIMIT][win, draw, loss]
    counts: Vec<[u64; 3]>,
    total: u64,
}

impl Histogram {
    fn new() -> Self {
        Histogram {
            counts: vec![[0; 3]; (2 * SCORE_LIMIT + 1) as usize],
            total: 0,
        }
    }

    /// Negative log-likelihood of (a, b).
    fn nll(&self, a: f64, b: f64) -> f64 {
        let mut sum = 0.0;
        for (i, c) in self.counts.iter().enumerate() {
            if c == &[0; 3] {
                continue;
            }
            let s = i as f64 - f64::from(SCORE_LIMIT);
            let w = 1.0 / (1.0 + ((a - s) / b).exp());
            let l = 1.0 / (1.0 + ((a + s) / b).exp());
            let d = (1.0 - w - l).max(1e-12);
            sum -= c[0] as f64 * w.max(1e-12).ln()
                + c[1] as f64 * d.ln()
                + c[2] as f64 * l.max(1e-12).ln();
        }
        sum
    }

    /// The maximum-likelihood (a, b): coordinate descent with golden-section line searches
    /// (two parameters and a smooth, unimodal likelihood in each).
    fn fit(&self) -> (f64, f64) {
        let (mut a, mut b) = (150.0, 80.0);
        for _ in 0..40 {
            a = golden(|x| self.nll(x, b), 1.0, 1500.0);
            b = golden(|x| self.nll(a, x), 5.0, 1500.0);
        }
        (a, b)
    }
}

fn golden(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let (mut x1, mut x2) = (hi - r * (hi - lo), lo + r * (hi - lo));
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..80 {
        if f1 < f2 {
            hi = x2;
            (x2, f2) = (x1, f1);
            x1 = hi - r * (hi - lo);
            f1 = f(x1);
        } else {
            lo = x1;
            (x1, f1) = (x2, f2);
            x2 = lo + r * (hi - lo);
            f2 = f(x2);
        }
    }
    (lo + hi) / 2.0
}

/// Weighted least squares of a cubic through (x, y, weight).
fn cubic(points: &[(f64, f64, f64)]) -> Result<[f64; 4]> {
    // Normal equations for the powers 3, 2, 1, 0.
    let mut m = [[0.0f64; 5]; 4];
    for &(x, y, w) in points {
        let p = [x * x * x, x * x, x, 1.0];
        for i in 0..4 {
            for j in 0..4 {
                m[i][j] += w * p[i] * p[j];
            }
            m[i][4] += w * p[i] * y;
        }
    }
    for col in 0..4 {
        let pivot = (col..4)
            .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
            .expect("four rows");
        if m[pivot][col].abs() < 1e-12 {
            bail!("too few material counts to fit a cubic");
        }
        m.swap(col, pivot);
        for row in 0..4 {
            if row != col {
                let k = m[row][col] / m[col][col];
                let pivot_row = m[col];
                for (x, p) in m[row].iter_mut().zip(pivot_row).skip(col) {
                    *x -= k * p;
                }
            }
        }
    }
    Ok([
        m[0][4] / m[0][0],
        m[1][4] / m[1][1],
        m[2][4] / m[2][2],
        m[3][4] / m[3][3],
    ])
}

/// Material of a record: pawn 1, knight and bishop 3, rook 5, queen 9.
fn material(r: &crate::data::records::Record) -> u32 {
    r.pieces()
        .map(|(_, code)| [1, 3, 3, 5, 9, 0][usize::from(code & 7).min(5)])
        .sum()
}

/// Every record of the files as (score, material, outcome), side to move's view.
fn read_positions(files: &[PathBuf]) -> Result<Vec<(i32, u32, Outcome)>> {
    let mut out = Vec::new();
    for f in files {
        for r in RecordReader::open(f)? {
            let r = r.with_context(|| f.display().to_string())?;
            let s = i32::from(r.score());
            if s.abs() <= SCORE_LIMIT {
                out.push((s, material(&r), r.result()));
            }
        }
    }
    Ok(out)
}

fn outcome_index(o: Outcome) -> usize {
    match o {
        Outcome::Win => 0,
        Outcome::Draw => 1,
        Outcome::Loss => 2,
    }
}

/// The fit's figures (`--summary`, and wdl.toml).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WdlFigures {
    pub positions: u64,
    pub check_positions: u64,
    pub a: [f64; 4],
    pub b: [f64; 4],
    /// The largest gap, over the calibration's score buckets with at least 1,000 positions,
    /// between predicted and observed win (and loss, and draw) frequency.
    pub max_gap: f64,
    /// Mean log-loss per position on the check files: the model's, and a constant model's
    /// (the check files' own outcome shares), for scale.
    pub log_loss: f64,
    pub log_loss_constant: f64,
}

pub fn run(args: &WdlArgs) -> Result<()> {
    if let Some(out) = &args.engine_file {
        let read: Vec<&std::path::Path> = args
            .data
            .iter()
            .chain(&args.check)
            .map(|p| p.as_path())
            .collect();
        augur_arena::outputs::refuse_inputs("--engine-file", out, &read)?;
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let fit_data = read_positions(&args.data)?;
    let mut hists: Vec<Histogram> = MATERIAL.map(|_| Histogram::new()).collect();
    for &(s, m, o) in &fit_data {
        let h =
            &mut hists[(m.clamp(*MATERIAL.start(), *MATERIAL.end()) - MATERIAL.start()) as usize];
        h.counts[(s + SCORE_LIMIT) as usize][outcome_index(o)] += 1;
        h.total += 1;
    }
    let mut per_material = String::from("material,positions,a,b\n");
    let (mut pa, mut pb) = (Vec::new(), Vec::new());
    for (i, h) in hists.iter().enumerate() {
        if h.total < MIN_POSITIONS {
            continue;
        }
        let m = MATERIAL.start() + i as u32;
        let (a, b) = h.fit();
        writeln!(per_material, "{m},{},{a:.2},{b:.2}", h.total)?;
        let x = f64::from(m) / 58.0;
        pa.push((x, a, h.total as f64));
        pb.push((x, b, h.total as f64));
    }
    if pa.len() < 8 {
        bail!(
            "only {} material counts have {MIN_POSITIONS} positions: more data is needed",
            pa.len()
        );
    }
    std::fs::write(args.out.join("per-material.csv"), per_material)?;
    let model = WdlModel {
        a: cubic(&pa)?,
        b: cubic(&pb)?,
    };
    let check = if args.check.is_empty() {
        fit_data
    } else {
        read_positions(&args.check)?
    };
    let (calibration, max_gap, log_loss, log_loss_constant) = calibrate(&model, &check, &args.out)?;
    std::fs::write(args.out.join("calibration.csv"), calibration)?;
    let figures = WdlFigures {
        positions: hists.iter().map(|h| h.total).sum(),
        check_positions: check.len() as u64,
        a: model.a,
        b: model.b,
        max_gap,
        log_loss,
        log_loss_constant,
    };
    std::fs::write(args.out.join("wdl.toml"), toml::to_string(&figures)?)?;
    if let Some(path) = &args.engine_file {
        std::fs::write(path, engine_file(&figures, &args.data))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    println!(
        "a = {:?}\nb = {:?}\n{} positions fitted, {} checked: largest gap {:.3}, log-loss {:.4} \
         (constant model {:.4})",
        model.a,
        model.b,
        figures.positions,
        figures.check_positions,
        max_gap,
        log_loss,
        log_loss_constant
    );
    args.summary.write("wdl", &figures)
}

/// The calibration table and chart; the largest gap and the log-losses.
fn calibrate(
    model: &WdlModel,
    check: &[(i32, u32, Outcome)],
    out: &Path,
) -> Result<(String, f64, f64, f64)> {
    const STEP: i32 = 50;
    const EDGE: i32 = 600;
    let buckets = (2 * EDGE / STEP + 1) as usize;
    // [bucket] -> (n, predicted w/d/l sums, observed w/d/l counts)
    let mut rows = vec![(0u64, [0f64; 3], [0u64; 3]); buckets];
    let mut shares = [0u64; 3];
    for &(_, _, o) in check {
        shares[outcome_index(o)] += 1;
    }
    let n = check.len().max(1) as f64;
    let constant = shares.map(|c| (c as f64 / n).max(1e-12));
    let (mut ll, mut ll_const) = (0.0, 0.0);
    for &(s, m, o) in check {
        let (w, d, l) = model.wdl(s, m);
        let p = [w, d, l].map(|x| f64::from(x) / 1000.0);
        let i = outcome_index(o);
        ll -= p[i].max(1e-4).ln();
        ll_const -= constant[i].ln();
        let b = ((s.clamp(-EDGE, EDGE) + EDGE + STEP / 2) / STEP) as usize;
        let row = &mut rows[b.min(buckets - 1)];
        row.0 += 1;
        for (sum, x) in row.1.iter_mut().zip(p) {
            *sum += x;
        }
        row.2[i] += 1;
    }
    let mut csv = String::from(
        "score,positions,predicted_win,observed_win,predicted_draw,observed_draw,predicted_loss,observed_loss\n",
    );
    let mut max_gap: f64 = 0.0;
    let (mut labels, mut series) = (Vec::new(), vec![Vec::new(); 4]);
    for (b, (count, pred, obs)) in rows.iter().enumerate() {
        if *count == 0 {
            continue;
        }
        let score = b as i32 * STEP - EDGE;
        let c = *count as f64;
        let p = pred.map(|x| x / c);
        let o = obs.map(|x| x as f64 / c);
        writeln!(
            csv,
            "{score},{count},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4}",
            p[0], o[0], p[1], o[1], p[2], o[2]
        )?;
        if *count >= 1000 {
            for k in 0..3 {
                max_gap = max_gap.max((p[k] - o[k]).abs());
            }
        }
        labels.push(score.to_string());
        series[0].push(p[0]);
        series[1].push(o[0]);
        series[2].push(p[1]);
        series[3].push(o[1]);
    }
    let names = [
        "win, predicted",
        "win, observed",
        "draw, predicted",
        "draw, observed",
    ];
    let mut chart = CategoryChart::new(
        "Win and draw probability against the search score (side to move)",
        labels,
    )
    .labels("score bucket (cp)", "probability")
    .style(Style::Lines);
    for (name, values) in names.iter().zip(series) {
        chart = chart.series(Series::new(*name, values));
    }
    Chart::from(chart).save(out, "calibration")?;
    Ok((csv, max_gap, ll / n, ll_const / n))
}

/// The engine's parameter file.
fn engine_file(f: &WdlFigures, data: &[PathBuf]) -> String {
    let names: Vec<String> = data
        .iter()
        .map(|p| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        })
        .collect();
    format!(
        "// Written by `augur-lab wdl` (docs/wdl.md) from {} positions of {}:\n\
         // the cubic coefficients of a and b in material / 58, highest power first.\n\
         pub const A: [f64; 4] = {:?};\n\
         pub const B: [f64; 4] = {:?};\n",
        f.positions,
        names.join(", "),
        f.a.map(|x| (x * 1000.0).round() / 1000.0),
        f.b.map(|x| (x * 1000.0).round() / 1000.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_finds_the_parameters_that_made_the_outcomes() {
        // Outcome counts drawn exactly from a known model at every score: the fit returns it.
        let (a0, b0) = (180.0, 70.0);
        let mut h = Histogram::new();
        for s in -SCORE_LIMIT..=SCORE_LIMIT {
            let w = 1.0 / (1.0 + ((a0 - f64::from(s)) / b0).exp());
            let l = 1.0 / (1.0 + ((a0 + f64::from(s)) / b0).exp());
            let c = &mut h.counts[(s + SCORE_LIMIT) as usize];
            *c = [
                (w * 1e6).round() as u64,
                ((1.0 - w - l) * 1e6).round() as u64,
                (l * 1e6).round() as u64,
            ];
        }
        let (a, b) = h.fit();
        assert!((a - a0).abs() < 0.5 && (b - b0).abs() < 0.5, "{a} {b}");
    }

    #[test]
    fn a_cubic_through_its_own_points() {
        let c = [0.5, -2.0, 3.0, 100.0];
        let pts: Vec<_> = (0..10)
            .map(|i| {
                let x = 0.3 + 0.1 * f64::from(i);
                (
                    x,
                    ((c[0] * x + c[1]) * x + c[2]) * x + c[3],
                    1.0 + f64::from(i),
                )
            })
            .collect();
        let fit = cubic(&pts).unwrap();
        for (f, e) in fit.iter().zip(c) {
            assert!((f - e).abs() < 1e-6, "{fit:?}");
        }
        assert!(cubic(&pts[..2]).is_err());
    }
}
