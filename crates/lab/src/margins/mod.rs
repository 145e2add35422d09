//! Fitted margins for modern pruning (issue 66): the method of Buro's ProbCut applied to the
//! margins of reverse futility pruning, futility pruning and Stockfish-style ProbCut. Each
//! rule compares an estimate (a static eval, a reduced search) with a bound plus a margin;
//! the lab fits how the estimate predicts a full search of the node at its real depth and
//! derives the margin at a chosen threshold T·σ.
//!
//! - [`collect`]: the nodes where each rule was tried in normal searches (the engine's margin
//!   log), each measured by a fresh full search (CSV, resumable).
//! - [`fit`]: least squares per rule, depth and improving flag; the margin per depth with its
//!   interval; the engine's form of each rule fitted to them; options, an engines file for
//!   the match of fitted against today's margins, and charts.

pub mod collect;
pub mod fit;

use anyhow::Result;

#[derive(clap::Args, Debug)]
pub struct MarginsArgs {
    #[command(subcommand)]
    pub command: MarginsCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum MarginsCommand {
    /// Sample the nodes where reverse futility, futility and Stockfish-style ProbCut decide, and measure each by a full search at its depth (CSV, resumable).
    Collect(collect::CollectArgs),
    /// Regress the deep result on the rules' estimates per depth; the margins at a threshold T·σ, the engine's forms, options, engines file, charts.
    Fit(fit::FitArgs),
}

pub fn run(args: &MarginsArgs) -> Result<()> {
    match &args.command {
        MarginsCommand::Collect(a) => collect::run(a),
        MarginsCommand::Fit(a) => fit::run(a),
    }
}
