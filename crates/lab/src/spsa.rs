//! `augur-lab spsa`: tunes numeric UCI options by SPSA with the arena's runner
//! (`augur_arena::spsa`), then charts every parameter's trajectory from the
//! run's history CSV and writes the tuned engine against the starting one as an engines file,
//! so that the SPRT that judges a tuning is one more campaign stage. Usage and the schedule
//! are in docs/spsa.md.

use std::path::{Path, PathBuf};

use anyhow::Result;
use augur_arena::engine::spec::{engines_file_text, EngineSpec};
use augur_arena::spsa::run::{self, SpsaArgs, SpsaSummary};
use serde::{Deserialize, Serialize};

use crate::kit::atomic;
use crate::kit::chart::{Chart, PointSeries, ScatterChart};
use crate::kit::summary::SummaryArgs;

/// `augur-lab spsa`: the arena's arguments and `--summary`.
#[derive(clap::Args, Debug, Clone)]
pub struct LabSpsaArgs {
    #[command(flatten)]
    pub spsa: SpsaArgs,
    #[command(flatten)]
    pub summary: SummaryArgs,
}

/// The file beside `history.csv`: `tuned` (the final values) against `start`.
pub const ENGINES_FILE: &str = "engines.toml";

/// What `--summary` records of a finished tuning.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SpsaFigures {
    pub iterations: u64,
    pub games: u64,
    /// `tuned` against `start`, for `augur-lab match --engines-file`.
    pub engines_file: PathBuf,
    pub params: Vec<TunedParam>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TunedParam {
    pub name: String,
    pub start: f64,
    /// As the engine is sent it (an integer parameter rounded).
    pub tuned: f64,
    pub min: f64,
    pub max: f64,
}

/// The trajectory chart: each parameter as the share of its [min, max] range,
/// so that parameters of any scale fit one picture.
pub fn trajectory_chart(summary: &SpsaSummary) -> Result<Chart> {
    let history = run::read_history(&summary.csv)?;
    let (names, iters, values) = (&history.names, &history.iterations, &history.values);
    let mut chart = ScatterChart::new(format!(
        "SPSA: parameters after each of {} iterations",
        summary.iterations
    ))
    .labels("iteration", "value as a share of [min, max]");
    for (name, vals) in names.iter().zip(values) {
        let Some(p) = summary.params.iter().find(|p| &p.name == name) else {
            continue;
        };
        let span = p.max - p.min;
        let pts = iters
            .iter()
            .zip(vals)
            .map(|(&k, &v)| (k as f64, (v - p.min) / span))
            .collect();
        chart = chart.series(PointSeries::new(
            format!("{} [{}, {}]", p.name, p.format(p.min), p.format(p.max)),
            pts,
        ));
    }
    Ok(chart.into())
}

/// Runs the tuning, writes the chart next to the CSV and prints the tuned
/// values in OpenBench's `name, value` form.
pub fn run(lab: &LabSpsaArgs) -> Result<SpsaSummary> {
    let args = &lab.spsa;
    let summary = run::run(args)?;
    let (svg, png) = trajectory_chart(&summary)?.save(&args.out, "trajectories")?;
    for (p, v) in summary.params.iter().zip(&summary.theta) {
        println!("{}, {}", p.name, p.format(*v));
    }
    let engines = write_engines_file(&args.engine, &summary, &args.out)?;
    let figures = SpsaFigures {
        iterations: summary.iterations,
        games: summary.games_played,
        engines_file: engines.clone(),
        params: summary
            .params
            .iter()
            .zip(&summary.theta)
            .map(|(p, &v)| TunedParam {
                name: p.name.clone(),
                start: p.start,
                tuned: p.format(v).parse().unwrap_or(v),
                min: p.min,
                max: p.max,
            })
            .collect(),
    };
    lab.summary.write("spsa", &figures)?;
    if !args.quiet {
        let files: Vec<PathBuf> = vec![summary.csv.clone(), svg, png, engines];
        let shown: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        eprintln!("history and charts: {}", shown.join(", "));
    }
    Ok(summary)
}

/// Writes `engines.toml` into `out`: the tuned engine (the `--engine` spec with the final
/// values) against the same spec with the starting values, in the order an SPRT tests them.
pub fn write_engines_file(engine: &str, summary: &SpsaSummary, out: &Path) -> Result<PathBuf> {
    let base = EngineSpec::parse_cli(engine)?;
    let with = |name: &str, values: &[f64]| {
        let mut spec = base.clone();
        spec.name = name.to_string();
        for (p, &v) in summary.params.iter().zip(values) {
            spec.set_option(&p.name, &p.format(v));
        }
        spec
    };
    let starts: Vec<f64> = summary.params.iter().map(|p| p.start).collect();
    let (tuned, start) = (with("tuned", &summary.theta), with("start", &starts));
    let path = out.join(ENGINES_FILE);
    atomic::write(&path, engines_file_text(&[tuned, start])?.as_bytes())?;
    Ok(path)
}
