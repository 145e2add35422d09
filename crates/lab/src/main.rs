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
    Match(Box<augur_lab::tournament::LabMatchArgs>),
    /// Statistics of the games in a PGN file (W/D/L, pentanomial, Elo, LOS, SPRT, ratings).
    Stats(augur_arena::matchmaking::pgn_stats::StatsArgs),
    /// Time used against the clock per move, per engine (overshoot percentiles), and faults, from match PGNs.
    Timing(augur_arena::matchmaking::timing::TimingArgs),
    /// SPSA over numeric UCI options (OpenBench's parameter format): resumable, CSV and chart of every trajectory.
    Spsa(Box<augur_lab::spsa::LabSpsaArgs>),
    /// SPP thesis experiment: NBP/NC of textbook algorithms per position and depth, extra pruning, correctness, charts.
    Compare(augur_lab::spp::compare::CompareArgs),
    /// Maximum positional difference of an evaluation: self-play (thesis method), distributions, spp vs spp-exact.
    Mpd(augur_lab::spp::mpd::MpdArgs),
    /// ProbCut data: search positions to every depth 1..D and record the scores (CSV, resumable).
    Collect(augur_lab::probcut::collect::CollectArgs),
    /// ProbCut regression per depth pair and stage (Table 1, Figure 4) and the parameter file.
    Fit(augur_lab::probcut::fit::FitArgs),
    /// Fitted margins for reverse futility, futility and Stockfish-style ProbCut: `collect` the rules' nodes, `fit` the margins (issue 66).
    Margins(augur_lab::margins::MarginsArgs),
    /// Fixed time per position for several engine variants: average depth reached, cut rates.
    Depth(augur_lab::variants::depth::DepthArgs),
    /// Test-suite positions (WAC) solved per engine variant at fixed time.
    Solve(augur_lab::variants::solve::SolveArgs),
    /// Tables 2 and 3 of Jiang & Buro: a match per cell of a grid of two option values (MPC's thresholds), Elo ± CI, heat map.
    Grid(augur_lab::probcut::grid::GridArgs),
    /// Jiang & Buro's accuracy measure: each variant's move at depth d judged by the baseline at d+k (differing share, mean loss).
    Accuracy(augur_lab::variants::accuracy::AccuracyArgs),
    /// Seed 004: per staticEval − beta bucket, how often each Stockfish-style ProbCut verification-depth rule extends or reduces.
    SfpcDepths(augur_lab::probcut::sfpc_depths::SfpcDepthsArgs),
    /// Training data from self-play: bullet ChessBoard records (board, score, result), resumable.
    Datagen(augur_lab::datagen::DatagenArgs),
    /// A declared, resumable campaign from a TOML file: the network loop, studies, SPRTs.
    Campaign(augur_lab::campaign::CampaignArgs),
    /// The training corpus: cut a live datagen file, manifest lines, a set checked for games counted twice.
    Corpus(augur_lab::corpus::CorpusArgs),
    /// Fit the win/draw/loss model of UCI_ShowWDL on datagen records, and check its calibration.
    Wdl(augur_lab::wdl::WdlArgs),
    /// Datagen records to `FEN | score | result` text (bullet's text format, white's view).
    Convert(augur_lab::datagen::ConvertArgs),
    /// Texel tuning of the default evaluation's weights (Adam on sigmoid(eval/K)); writes weights.rs.
    Tune(augur_lab::tune::TuneArgs),
    /// Train the NNUE on datagen files: AdamW on all cores, checkpoints, the quantised network file and a loss curve.
    Train(Box<augur_lab::train::TrainArgs>),
    /// Networks compared on held-out records as the engine evaluates them: loss with a block-bootstrap interval, paired differences to the first.
    Heldout(augur_lab::train::heldout::HeldOutArgs),
    /// The bundled experiments end to end at small sizes (--quick) into one folder with an index.
    Reproduce(augur_lab::reproduce::ReproduceArgs),
    /// Calibration of UCI_Elo: matches against a calibrated reference become a CSV and the engine's table of levels.
    Strength(augur_lab::strength::StrengthArgs),
    /// Elo against nodes a move: each technique against the engine without it at several fixed-node controls, with activity, depth and a calibration.
    Scaling(Box<augur_lab::scaling::ScalingArgs>),
    /// Issue 66's analysis of finished studies: p with Holm's correction, slopes per doubling with intervals, shares of a doubling, a chart per technique with every engine's curve.
    ScalingReport(augur_lab::scaling::analysis::ScalingReportArgs),
    /// A study's finished points into the committed evidence: games kept, registry rows, the table copied with its restore entry.
    ScalingKeep(augur_lab::scaling::keep::ScalingKeepArgs),
}

/// A campaign stage's command line parsed as this binary parses its own.
fn parse_lab_command(args: &[String]) -> Result<()> {
    Cli::try_parse_from(std::iter::once("augur-lab").chain(args.iter().map(String::as_str)))
        .map(|_| ())
        .map_err(|e| anyhow::anyhow!("{}", e.render().to_string().trim_end()))
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Match(args) => augur_lab::tournament::run(&args),
        Command::Spsa(args) => augur_lab::spsa::run(&args).map(|_| ()),
        Command::Stats(args) => augur_arena::matchmaking::pgn_stats::run(&args),
        Command::Timing(args) => augur_arena::matchmaking::timing::run(&args),
        Command::Compare(args) => augur_lab::spp::compare::run(&args),
        Command::Mpd(args) => augur_lab::spp::mpd::run(&args),
        Command::Collect(args) => augur_lab::probcut::collect::run(&args),
        Command::Fit(args) => augur_lab::probcut::fit::run(&args),
        Command::Margins(args) => augur_lab::margins::run(&args),
        Command::Depth(args) => augur_lab::variants::depth::run(&args),
        Command::Solve(args) => augur_lab::variants::solve::run(&args),
        Command::Grid(args) => augur_lab::probcut::grid::run(&args).map(|_| ()),
        Command::Scaling(args) => augur_lab::scaling::run(&args).map(|_| ()),
        Command::ScalingReport(args) => augur_lab::scaling::analysis::run(&args),
        Command::ScalingKeep(args) => augur_lab::scaling::keep::run(&args),
        Command::Accuracy(args) => augur_lab::variants::accuracy::run(&args),
        Command::SfpcDepths(args) => augur_lab::probcut::sfpc_depths::run(&args),
        Command::Datagen(args) => augur_lab::datagen::run(&args),
        Command::Campaign(args) => augur_lab::campaign::run(&args, &parse_lab_command),
        Command::Corpus(args) => augur_lab::corpus::run(&args),
        Command::Wdl(args) => augur_lab::wdl::run(&args),
        Command::Convert(args) => augur_lab::datagen::convert(&args),
        Command::Tune(args) => augur_lab::tune::run(&args),
        Command::Train(args) => augur_lab::train::run(&args),
        Command::Heldout(args) => augur_lab::train::heldout::run(&args),
        Command::Strength(args) => augur_lab::strength::run(&args),
        Command::Reproduce(args) => augur_lab::reproduce::run(&args),
    }
}
