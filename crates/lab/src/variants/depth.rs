//! `augur-lab depth`: the paper's speed test. Each variant searches the same positions for a
//! fixed time; a pruning variant that does not reach deeper than the baseline is no good.
//! Reports the average depth reached with its 95% confidence interval, the gain over the first
//! variant with a paired interval, nodes, and the share of ProbCut shallow searches that cut
//! (from the engine's stats line). With `--csv` every search is written as it finishes and a
//! restart resumes (see `variants::run_grid_to`).

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;
use serde::{Deserialize, Serialize};

use super::uci::{run_grid_to, Budget, Measurement, VariantRunArgs};
use super::Variant;
use crate::data::epd::{epd_identity, load_epd};
use crate::kit::confidence::{mean_interval, paired_interval, Interval};
use crate::kit::provenance::Provenance;
use crate::kit::summary::SummaryArgs;

#[derive(Args, Debug, Clone)]
pub struct DepthArgs {
    /// Positions (EPD); default: the bundled 300-position TCEC sample.
    #[arg(long)]
    pub epd: Option<PathBuf>,
    /// How many positions (the first N).
    #[arg(long, default_value_t = 100)]
    pub positions: usize,
    #[command(flatten)]
    pub run: VariantRunArgs,
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub summary: SummaryArgs,
}

/// Summary of one variant over all positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub positions: usize,
    pub avg_depth: f64,
    pub avg_nodes: f64,
    pub knps: f64,
    pub pc_tried: u64,
    pub pc_cut: u64,
    pub nmp_tried: u64,
    pub nmp_cut: u64,
    /// Positions where this variant went deeper / same / shallower than the first variant.
    pub deeper: usize,
    pub same: usize,
    pub shallower: usize,
}

pub fn summarize(results: &[Vec<Measurement>], variant: usize) -> Summary {
    let mut s = Summary {
        positions: results.len(),
        ..Default::default()
    };
    if results.is_empty() {
        return s;
    }
    let (mut depth, mut nodes, mut ms) = (0u64, 0u64, 0u64);
    for row in results {
        let m = &row[variant];
        depth += u64::from(m.depth);
        nodes += m.nodes;
        ms += m.ms;
        let (tried, cut) = m.probcut_counts();
        s.pc_tried += tried;
        s.pc_cut += cut;
        if let Some(&(t, c)) = m.counters.get("nmp") {
            s.nmp_tried += t;
            s.nmp_cut += c;
        }
        match m.depth.cmp(&row[0].depth) {
            std::cmp::Ordering::Greater => s.deeper += 1,
            std::cmp::Ordering::Equal => s.same += 1,
            std::cmp::Ordering::Less => s.shallower += 1,
        }
    }
    let n = results.len() as f64;
    s.avg_depth = depth as f64 / n;
    s.avg_nodes = nodes as f64 / n;
    s.knps = nodes as f64 / (ms.max(1) as f64);
    s
}

fn pct(cut: u64, tried: u64) -> String {
    if tried == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * cut as f64 / tried as f64)
    }
}

/// The headline figures of a depth run (its `--summary`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// The budget of every search (`20000 nodes`, `1000 ms`).
    pub budget: String,
    pub positions: usize,
    pub variants: Vec<VariantFigures>,
}

/// One variant's depth over the positions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantFigures {
    pub name: String,
    /// The mean depth reached, with its 95% interval.
    pub avg_depth: Option<Interval>,
    /// The depth minus the first variant's, paired per position; none for the first.
    pub gain: Option<Interval>,
    pub avg_nodes: f64,
}

/// Each variant's mean depth and its gain over the first, with their intervals.
pub fn figures(variants: &[Variant], results: &[Vec<Measurement>], budget: Budget) -> Figures {
    let depths = |v: usize| -> Vec<f64> { results.iter().map(|r| f64::from(r[v].depth)).collect() };
    let base = depths(0);
    Figures {
        budget: budget.label(),
        positions: results.len(),
        variants: variants
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let mine = depths(i);
                VariantFigures {
                    name: v.name.clone(),
                    avg_depth: mean_interval(&mine),
                    gain: (i > 0).then(|| paired_interval(&mine, &base)).flatten(),
                    avg_nodes: summarize(results, i).avg_nodes,
                }
            })
            .collect(),
    }
}

pub fn report(figures: &Figures, results: &[Vec<Measurement>]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<12} {:>5} {:>14} {:>16} {:>11} {:>7} {:>10} {:>8} {:>8} {:>14}",
        "variant",
        "pos",
        "avg depth",
        "gain (paired)",
        "avg nodes",
        "knps",
        "pc tried",
        "pc cut",
        "nmp cut",
        "deeper/=/less"
    );
    for (i, v) in figures.variants.iter().enumerate() {
        let s = summarize(results, i);
        let avg = v.avg_depth.map_or("-".into(), |c| c.text(2));
        let gain = v.gain.map_or("-".into(), |c| {
            format!("{}{}", if c.mean >= 0.0 { "+" } else { "" }, c.text(2))
        });
        let _ = writeln!(
            out,
            "{:<12} {:>5} {:>14} {:>16} {:>11.0} {:>7.0} {:>10} {:>8} {:>8} {:>14}",
            v.name,
            s.positions,
            avg,
            gain,
            s.avg_nodes,
            s.knps,
            s.pc_tried,
            pct(s.pc_cut, s.pc_tried),
            pct(s.nmp_cut, s.nmp_tried),
            format!("{}/{}/{}", s.deeper, s.same, s.shallower)
        );
    }
    out
}

pub fn run(args: &DepthArgs) -> Result<()> {
    let variants = Variant::parse_all(&args.run.variants)?;
    let mut positions = load_epd(args.epd.as_deref())?;
    positions.truncate(args.positions);
    if positions.is_empty() {
        bail!("no positions");
    }
    let provenance = Provenance::capture(args, None);
    let fens: Vec<String> = positions.iter().map(|p| p.fen.clone()).collect();
    let engine = args.run.engine_path();
    let budget = args.run.budget();
    let grid = args.run.grid(&fens, &variants, &engine, budget, args.quiet);
    let (epd, epd_sha256) = epd_identity(args.epd.as_deref())?;
    let settings = vec![
        ("epd".to_string(), epd),
        ("epd_sha256".to_string(), epd_sha256),
        ("positions".to_string(), positions.len().to_string()),
    ];
    let lines: Vec<(usize, String)> = positions.iter().map(|p| (p.line, p.fen.clone())).collect();
    let results = run_grid_to(
        &grid,
        args.run.csv.as_deref(),
        "depth",
        settings,
        &provenance,
        &lines,
    )?;
    let limit = budget.label();
    print!("{}", provenance.markdown());
    println!(
        "{} positions, {limit} per position and variant, engine {}",
        fens.len(),
        engine.display()
    );
    let figures = figures(&variants, &results, budget);
    print!("{}", report(&figures, &results));
    println!(
        "avg depth and gain with 95% confidence intervals; gain = depth minus the first \
         variant's, paired per position; pc = ProbCut family shallow searches \
         (probcut+mpc+sfpc), cut = share that cut"
    );
    args.summary.write("depth", &figures)
}
