//! `augur-lab spsa`: tunes numeric UCI options by SPSA with the arena's runner
//! (`augur_arena::spsa`), then charts every parameter's trajectory from the
//! run's history CSV. Usage and the schedule are in docs/spsa.md.

use std::path::PathBuf;

use anyhow::Result;
use augur_arena::spsa::run::{self, SpsaArgs, SpsaSummary};

use crate::kit::chart::{Chart, PointSeries, ScatterChart};

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
pub fn run(args: &SpsaArgs) -> Result<SpsaSummary> {
    let summary = run::run(args)?;
    let (svg, png) = trajectory_chart(&summary)?.save(&args.out, "trajectories")?;
    for (p, v) in summary.params.iter().zip(&summary.theta) {
        println!("{}, {}", p.name, p.format(*v));
    }
    if !args.quiet {
        let files: Vec<PathBuf> = vec![summary.csv.clone(), svg, png];
        let shown: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        eprintln!("history and charts: {}", shown.join(", "));
    }
    Ok(summary)
}
