//! `augur-lab`: a thin dispatcher; each subcommand lives in its own module of
//! the `augur_lab` library.

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "augur-lab",
    version,
    about = "Augur laboratory: matches, statistics and search experiments over UCI engines"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a match, gauntlet or round robin between UCI engines (PGN, Elo, SPRT).
    Match(Box<augur_lab::tournament::MatchArgs>),
    /// Statistics of the games in a PGN file (W/D/L, pentanomial, Elo, LOS, SPRT, ratings).
    Stats(augur_lab::pgn_stats::StatsArgs),
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Match(args) => augur_lab::tournament::run(&args).map(|_| ()),
        Command::Stats(args) => augur_lab::pgn_stats::run(&args),
    }
}
