//! `augur-lab stats`: the match statistics, SPRT, crosstable and ratings of
//! any PGN file.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::game::pgn;
use crate::matchmaking::results::ResultTable;
use crate::matchmaking::tournament::{final_report, strength_row, RowLabels, SprtArgs};

#[derive(Args, Debug, Clone)]
pub struct StatsArgs {
    /// PGN file.
    pub pgn: PathBuf,
    /// With two engines: the engine whose side the statistics take (default: White of the first game).
    #[arg(long)]
    pub engine: Option<String>,
    #[command(flatten)]
    pub sprt: SprtArgs,
    /// Engine rated 0 in the rating list (default: the last engine seen).
    #[arg(long)]
    pub anchor: Option<String>,
    /// One-sided level of the significance test.
    #[arg(long, default_value_t = 0.05)]
    pub significance: f64,
    /// Draw ratio assumed by the significance test (the ProbCut papers assumed 30%).
    #[arg(long, default_value_t = 0.30)]
    pub assumed_draws: f64,
}

/// Computes the report text.
pub fn report(args: &StatsArgs) -> Result<String> {
    let games = pgn::read_summaries(&args.pgn)?;
    let mut table = ResultTable::from_summaries(&games);
    if table.games.is_empty() {
        bail!("{}: no finished games", args.pgn.display());
    }
    if let Some(first) = &args.engine {
        let i = table.index_of(first).with_context(|| {
            format!("--engine '{first}' does not play in {}", args.pgn.display())
        })?;
        // Reorder so that the chosen engine is engine 0.
        let mut order: Vec<usize> = (0..table.names.len()).collect();
        order.swap(0, i);
        table = reindex(&table, &order);
    }
    let sprt = args
        .sprt
        .build(table.names.len(), "a PGN with exactly two engines")?;
    let anchor = match &args.anchor {
        Some(a) => table
            .index_of(a)
            .with_context(|| format!("--anchor '{a}' does not play in {}", args.pgn.display()))?,
        None => table.names.len() - 1,
    };
    let mut out = final_report(
        &table,
        sprt.as_ref(),
        anchor,
        args.significance,
        args.assumed_draws,
    );
    if let Some(t) = &sprt {
        let tc = games
            .iter()
            .find_map(|g| g.time_control.clone())
            .unwrap_or_else(|| "?".to_string());
        let row = strength_row(
            &table,
            t,
            &RowLabels {
                change: args.sprt.change.as_deref(),
                commit: args.sprt.commit.as_deref(),
                time_control: &tc,
            },
        );
        out.push_str(&format!("Row for docs/strength.md:\n{row}\n"));
    }
    Ok(out)
}

pub fn run(args: &StatsArgs) -> Result<()> {
    print!("{}", report(args)?);
    Ok(())
}

/// The same table with engine `order[k]` renamed to index `k`.
fn reindex(t: &ResultTable, order: &[usize]) -> ResultTable {
    let mut inverse = vec![0; order.len()];
    for (k, &old) in order.iter().enumerate() {
        inverse[old] = k;
    }
    let mut out = ResultTable::new(order.iter().map(|&o| t.names[o].clone()).collect());
    out.faults = order.iter().map(|&o| t.faults[o].clone()).collect();
    out.games = t
        .games
        .iter()
        .map(|g| crate::matchmaking::results::Outcome {
            white: inverse[g.white],
            black: inverse[g.black],
            ..*g
        })
        .collect();
    out
}
