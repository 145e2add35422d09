//! `augur-lab fit`: least squares of the deep score v on the shallow score v' per depth pair
//! (d', d) and game stage, over v' in a range ([-300, 300] as in the paper), mates excluded.
//! Prints the paper's Table 1 beside Crafty's values, writes the engine's parameter file and
//! draws Figure 4 (v' against v with the fitted line).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::{Deserialize, Serialize};

use augur::search::probcut::{Pair, Stage};

use super::collect::{read_csv, Record};
use super::params;
use crate::kit::chart::{Chart, PointSeries, ScatterChart};
use crate::kit::provenance::{sha256_file, Provenance};
use crate::kit::regression::{fit_line, LinearFit};
use crate::kit::run_args::folder_beside;
use crate::kit::summary::SummaryArgs;

#[derive(Args, Debug, Clone)]
pub struct FitArgs {
    /// CSV written by `augur-lab collect`.
    pub csv: PathBuf,
    /// Depth pairs to fit, `S:D,...`; default: every pair with D-S in 2..=6 in the data.
    #[arg(long, value_delimiter = ',')]
    pub pairs: Vec<String>,
    /// Fit only points with v' >= MIN (centipawns).
    #[arg(long, default_value_t = -300, allow_negative_numbers = true)]
    pub min: i32,
    /// Fit only points with v' <= MAX.
    #[arg(long, default_value_t = 300, allow_negative_numbers = true)]
    pub max: i32,
    /// Pairs written to the parameter file, in this order (those with enough data).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "3:5,2:6,3:7,4:8,3:9,4:10"
    )]
    pub file_pairs: Vec<String>,
    /// Fewest points for a pair to be written to the parameter file.
    #[arg(long, default_value_t = 100)]
    pub min_n: usize,
    /// Where the parameter file and charts go; default: the CSV's directory.
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    /// Parameter file name inside the output directory.
    #[arg(long, default_value = "probcut_params.toml")]
    pub params_name: String,
    /// Depth pair of the scatter plot (Figure 4).
    #[arg(long, default_value = "4:8")]
    pub plot_pair: String,
    /// Plot points with |v'| and |v| up to this many centipawns.
    #[arg(long, default_value_t = 1000)]
    pub plot_limit: i32,
    /// Write no charts.
    #[arg(long)]
    pub no_plot: bool,
    #[command(flatten)]
    pub summary: SummaryArgs,
}

/// The headline figures of a fit (its `--summary`): the pairs written to the parameter file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    pub positions: usize,
    pub pairs: Vec<FittedPair>,
}

/// One fitted model `v = a*v' + b + e` of a depth pair in a game stage, over `n` positions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FittedPair {
    /// `SHALLOW:DEEP`, as `--file-pairs` names it.
    pub pair: String,
    /// `mid` or `end`.
    pub stage: String,
    pub n: u64,
    /// Slope, intercept, standard deviation of the residual, correlation.
    pub a: f64,
    pub b: f64,
    pub sigma: f64,
    pub r: f64,
}

/// ProbCut's model `v = a*v' + b + e` by the lab's one least-squares fit (a = slope,
/// b = intercept); `None` with fewer than three points (no residual left for sigma) or no
/// spread in v'.
pub fn regress(points: &[(f64, f64)]) -> Option<LinearFit> {
    fit_line(points).filter(|f| f.n >= 3)
}

/// One position's iterative-deepening scores.
#[derive(Clone, Debug)]
pub struct DepthScores {
    pub stage: Stage,
    /// depth -> (score, is mate)
    pub scores: BTreeMap<i32, (i32, bool)>,
}

pub fn samples(records: &[Record]) -> BTreeMap<usize, DepthScores> {
    let mut out: BTreeMap<usize, DepthScores> = BTreeMap::new();
    for r in records {
        out.entry(r.id)
            .or_insert_with(|| DepthScores {
                stage: r.stage,
                scores: BTreeMap::new(),
            })
            .scores
            .insert(r.depth, (r.score, r.mate));
    }
    out
}

/// The (v', v) points of one depth pair and stage.
#[derive(Clone, Debug, Default)]
pub struct PairPoints {
    /// Inside the v' range, no mate at either depth.
    pub fit: Vec<(f64, f64)>,
    /// No mate, any v' (for the chart).
    pub all: Vec<(f64, f64)>,
    /// v' in range but v a mate score: the shallow search missed a mate the deep one saw.
    pub missed_mates: usize,
    /// Positions with both depths.
    pub total: usize,
}

pub fn pair_points(
    samples: &BTreeMap<usize, DepthScores>,
    stage: Option<Stage>,
    shallow: i32,
    deep: i32,
    range: (i32, i32),
) -> PairPoints {
    let mut p = PairPoints::default();
    for s in samples
        .values()
        .filter(|s| stage.is_none_or(|st| s.stage == st))
    {
        let (Some(&(vs, ms)), Some(&(vd, md))) = (s.scores.get(&shallow), s.scores.get(&deep))
        else {
            continue;
        };
        p.total += 1;
        let in_range = (range.0..=range.1).contains(&vs);
        if !ms && md && in_range {
            p.missed_mates += 1;
        }
        if ms || md {
            continue;
        }
        p.all.push((vs as f64, vd as f64));
        if in_range {
            p.fit.push((vs as f64, vd as f64));
        }
    }
    p
}

/// Crafty's Table 1 (Jiang & Buro): (shallow, deep, stage, a, b, sigma, r).
pub const CRAFTY_TABLE1: [(i32, i32, Stage, f64, f64, f64, f64); 4] = [
    (3, 5, Stage::Middlegame, 0.998, -7.0, 55.8, 0.90),
    (3, 5, Stage::Endgame, 1.026, -4.1, 51.8, 0.94),
    (4, 8, Stage::Middlegame, 1.02, 2.36, 82.0, 0.82),
    (4, 8, Stage::Endgame, 1.11, 1.75, 75.0, 0.90),
];

pub fn parse_pair(text: &str) -> Result<(i32, i32)> {
    let parse = || -> Option<(i32, i32)> {
        let (s, d) = text.trim().split_once([':', '-', '/'])?;
        Some((s.trim().parse().ok()?, d.trim().parse().ok()?))
    };
    match parse() {
        Some((s, d)) if s >= 1 && d > s => Ok((s, d)),
        _ => bail!("bad depth pair '{text}' (expected SHALLOW:DEEP with SHALLOW < DEEP)"),
    }
}

/// One fitted cell of the table.
#[derive(Clone, Debug)]
pub struct Cell {
    pub shallow: i32,
    pub deep: i32,
    pub stage: Option<Stage>,
    pub fit: Option<LinearFit>,
    pub points: PairPoints,
}

pub fn fit_cells(
    samples: &BTreeMap<usize, DepthScores>,
    pairs: &[(i32, i32)],
    range: (i32, i32),
) -> Vec<Cell> {
    let mut cells = Vec::new();
    for &(shallow, deep) in pairs {
        for stage in Stage::ALL.map(Some).into_iter().chain([None]) {
            let points = pair_points(samples, stage, shallow, deep, range);
            cells.push(Cell {
                shallow,
                deep,
                stage,
                fit: regress(&points.fit),
                points,
            });
        }
    }
    cells
}

fn stage_label(stage: Option<Stage>) -> &'static str {
    stage.map_or("all", Stage::name)
}

/// Table 1 beside Crafty's values.
pub fn table1(cells: &[Cell]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<7} {:<11} {:>7} {:>7} {:>7} {:>6} {:>6} | {:>6} {:>6} {:>6} {:>5}",
        "Pairs", "Stage", "a", "b", "sigma", "r", "n", "Crafty a", "b", "sigma", "r"
    );
    for &(sh, dp, stage, ca, cb, cs, cr) in &CRAFTY_TABLE1 {
        let ours = cells
            .iter()
            .find(|c| c.shallow == sh && c.deep == dp && c.stage == Some(stage));
        let pair = format!("({sh},{dp})");
        match ours.and_then(|c| c.fit.map(|f| (f, c))) {
            Some((f, _)) => {
                let _ =
                    writeln!(
                    s,
                    "{:<7} {:<11} {:>7.3} {:>7.2} {:>7.1} {:>6.3} {:>6} | {:>8} {:>6} {:>6} {:>5}",
                    pair, stage.name(), f.slope, f.intercept, f.sigma, f.r, f.n, ca, cb, cs, cr
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "{:<7} {:<11} {:>7} {:>7} {:>7} {:>6} {:>6} | {:>8} {:>6} {:>6} {:>5}",
                    pair,
                    stage.name(),
                    "-",
                    "-",
                    "-",
                    "-",
                    0,
                    ca,
                    cb,
                    cs,
                    cr
                );
            }
        }
    }
    s
}

/// Every fitted cell, with the missed-mate count the paper mentions.
pub fn full_table(cells: &[Cell]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<7} {:<11} {:>7} {:>7} {:>7} {:>6} {:>6} {:>6} {:>7}",
        "Pairs", "Stage", "a", "b", "sigma", "r", "n", "total", "mates"
    );
    for c in cells {
        let pair = format!("({},{})", c.shallow, c.deep);
        match c.fit {
            Some(f) => {
                let _ = writeln!(
                    s,
                    "{:<7} {:<11} {:>7.3} {:>7.2} {:>7.1} {:>6.3} {:>6} {:>6} {:>7}",
                    pair,
                    stage_label(c.stage),
                    f.slope,
                    f.intercept,
                    f.sigma,
                    f.r,
                    f.n,
                    c.points.total,
                    c.points.missed_mates
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "{:<7} {:<11} {:>7} {:>7} {:>7} {:>6} {:>6} {:>6} {:>7}",
                    pair,
                    stage_label(c.stage),
                    "-",
                    "-",
                    "-",
                    "-",
                    c.points.fit.len(),
                    c.points.total,
                    c.points.missed_mates
                );
            }
        }
    }
    s
}

/// The 95% confidence intervals of every fitted cell.
pub fn interval_table(cells: &[Cell]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<7} {:<11} {:>21} {:>19} {:>17} {:>6}",
        "Pairs", "Stage", "a (95% CI)", "b (95% CI)", "sigma (95% CI)", "n"
    );
    for c in cells {
        let Some((f, ci)) = c.fit.and_then(|f| f.intervals().map(|ci| (f, ci))) else {
            continue;
        };
        let _ = writeln!(
            s,
            "{:<7} {:<11} {:>21} {:>19} {:>17} {:>6}",
            format!("({},{})", c.shallow, c.deep),
            stage_label(c.stage),
            format!("{:.3} [{:.3}, {:.3}]", f.slope, ci.slope.0, ci.slope.1),
            format!(
                "{:.1} [{:.1}, {:.1}]",
                f.intercept, ci.intercept.0, ci.intercept.1
            ),
            format!("{:.1} [{:.1}, {:.1}]", f.sigma, ci.sigma.0, ci.sigma.1),
            f.n
        );
    }
    s
}

/// Default pairs: every (d', d) with d - d' in 2..=6 where both depths occur, plus (3,5) and
/// (4,8) when the data reach them (they are included by that rule anyway).
pub fn default_pairs(samples: &BTreeMap<usize, DepthScores>) -> Vec<(i32, i32)> {
    let max_depth = samples
        .values()
        .filter_map(|s| s.scores.keys().next_back().copied())
        .max()
        .unwrap_or(0);
    let mut pairs = Vec::new();
    for deep in 3..=max_depth {
        for shallow in (1..deep).rev() {
            if (2..=6).contains(&(deep - shallow)) {
                pairs.push((shallow, deep));
            }
        }
    }
    pairs.sort_by_key(|&(s, d)| (d - s, s));
    pairs
}

fn scatter(
    cell_points: &[(Stage, Vec<(f64, f64)>)],
    fit: &LinearFit,
    pair: (i32, i32),
    range: (i32, i32),
) -> Chart {
    let stages: Vec<&str> = cell_points.iter().map(|(s, _)| s.name()).collect();
    let mut chart = ScatterChart::new(format!(
        "v' versus v for depth pair ({},{}), {}; line fitted on v' in [{}, {}]",
        pair.0,
        pair.1,
        stages.join(" and "),
        range.0,
        range.1
    ))
    .labels(
        format!("v' = {}-ply score (centipawns, side to move)", pair.0),
        format!("v = {}-ply score", pair.1),
    );
    for (stage, pts) in cell_points {
        chart = chart.series(PointSeries::new(stage.name(), pts.clone()));
    }
    chart.fit(*fit).into()
}

pub fn run(args: &FitArgs) -> Result<()> {
    if args.min > args.max {
        bail!("--min {} is above --max {}", args.min, args.max);
    }
    let records = read_csv(&args.csv)?;
    if records.is_empty() {
        bail!("{}: no data lines", args.csv.display());
    }
    let provenance = Provenance::capture(args, None);
    print!("{}", provenance.markdown());
    let data_sha256 = sha256_file(&args.csv)?;
    // The collect run's settings line, so the parameter file names the data's own origin.
    let collected = crate::kit::result_log::settings_line(&args.csv);
    let samples = samples(&records);
    let range = (args.min, args.max);
    let pairs = if args.pairs.is_empty() {
        default_pairs(&samples)
    } else {
        args.pairs
            .iter()
            .map(|p| parse_pair(p))
            .collect::<Result<_>>()?
    };
    let mut wanted = pairs.clone();
    let file_pairs: Vec<(i32, i32)> = args
        .file_pairs
        .iter()
        .map(|p| parse_pair(p))
        .collect::<Result<_>>()?;
    for p in file_pairs.iter().chain([&(3, 5), &(4, 8)]) {
        if !wanted.contains(p) {
            wanted.push(*p);
        }
    }
    let cells = fit_cells(&samples, &wanted, range);
    let stages: BTreeMap<Stage, usize> = samples.values().fold(BTreeMap::new(), |mut m, s| {
        *m.entry(s.stage).or_default() += 1;
        m
    });
    println!(
        "{}: {} positions ({} middlegame, {} endgame), v' in [{}, {}], mates excluded",
        args.csv.display(),
        samples.len(),
        stages.get(&Stage::Middlegame).unwrap_or(&0),
        stages.get(&Stage::Endgame).unwrap_or(&0),
        args.min,
        args.max
    );
    println!("\nTable 1 (ours | Crafty 18.15, Jiang & Buro):");
    print!("{}", table1(&cells));
    println!("\nAll pairs (total = positions with both depths; mates = v' in range, v a mate):");
    let shown: Vec<Cell> = cells
        .iter()
        .filter(|c| pairs.contains(&(c.shallow, c.deep)))
        .cloned()
        .collect();
    print!("{}", full_table(&shown));
    println!(
        "\n95% confidence intervals (normal linear model: t for a and b, chi-square for sigma):"
    );
    print!("{}", interval_table(&shown));

    let out_dir = folder_beside(args.out_dir.as_deref(), &args.csv)?;
    augur_arena::outputs::refuse_inputs(
        "--params-name",
        &out_dir.join(&args.params_name),
        &[&args.csv],
    )?;

    let mut written = Vec::new();
    for &(shallow, deep) in &file_pairs {
        for stage in Stage::ALL {
            let cell = cells
                .iter()
                .find(|c| c.shallow == shallow && c.deep == deep && c.stage == Some(stage));
            if let Some(f) = cell.and_then(|c| c.fit).filter(|f| f.n >= args.min_n) {
                written.push(Pair {
                    stage,
                    shallow,
                    deep,
                    a: f.slope,
                    b: f.intercept,
                    sigma: f.sigma,
                    r: f.r,
                    n: f.n as u64,
                    min: args.min,
                    max: args.max,
                });
            }
        }
    }
    let source = args
        .csv
        .file_name()
        .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    let mut comment = format!(
        "data: {source}, {} positions (augur-lab collect); v' in [{}, {}], mates excluded\n\
         data sha256: {data_sha256}\ncollect settings: {collected}\n",
        samples.len(),
        args.min,
        args.max
    );
    for line in provenance.toml().lines().skip(1) {
        comment.push_str(line);
        comment.push('\n');
    }
    let text = params::to_toml(&written, &comment);
    // The engine must be able to read what we write: check it before it is saved.
    params::parse(&text, "generated parameter file")?;
    let params_path = out_dir.join(&args.params_name);
    std::fs::write(&params_path, &text)
        .with_context(|| format!("cannot write {}", params_path.display()))?;
    let names: Vec<String> = written
        .iter()
        .map(|p| format!("({},{}) {}", p.shallow, p.deep, p.stage.short()))
        .collect();
    println!(
        "\nparameter file: {} ({} pairs: {})",
        params_path.display(),
        written.len(),
        names.join(", ")
    );

    let figures = Figures {
        positions: samples.len(),
        pairs: written
            .iter()
            .map(|p| FittedPair {
                pair: format!("{}:{}", p.shallow, p.deep),
                stage: p.stage.short().to_string(),
                n: p.n,
                a: p.a,
                b: p.b,
                sigma: p.sigma,
                r: p.r,
            })
            .collect(),
    };
    args.summary.write("fit", &figures)?;

    if !args.no_plot {
        let pair = parse_pair(&args.plot_pair)?;
        let lim = args.plot_limit as f64;
        let inside = |&(x, y): &(f64, f64)| x.abs() <= lim && y.abs() <= lim;
        let mut per_stage = Vec::new();
        for stage in Stage::ALL {
            let pts = pair_points(&samples, Some(stage), pair.0, pair.1, range);
            per_stage.push((
                stage,
                pts.all.into_iter().filter(inside).collect::<Vec<_>>(),
            ));
        }
        let all = pair_points(&samples, None, pair.0, pair.1, range);
        let Some(fit) = regress(&all.fit) else {
            bail!("no data to plot for pair ({},{})", pair.0, pair.1);
        };
        let stem = format!("probcut_scatter_{}_{}", pair.0, pair.1);
        let (svg, png) = scatter(&per_stage, &fit, pair, range).save(&out_dir, &stem)?;
        println!("scatter: {} and {}", svg.display(), png.display());
        for (stage, pts) in &per_stage {
            let sp = pair_points(&samples, Some(*stage), pair.0, pair.1, range);
            if let Some(f) = regress(&sp.fit) {
                let stem = format!("probcut_scatter_{}_{}_{}", pair.0, pair.1, stage.short());
                let (svg, _) =
                    scatter(&[(*stage, pts.clone())], &f, pair, range).save(&out_dir, &stem)?;
                println!("scatter ({}): {}", stage.name(), svg.display());
            }
        }
    }
    Ok(())
}
