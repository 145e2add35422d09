//! `augur-lab mpd`: the maximum positional difference (MPD) of an evaluation, measured the SPP
//! thesis's way (section 4.6: self-play from random openings, recording the largest
//! difference between quiet siblings), plus its distribution over sampled game positions per
//! evaluation and game phase, how often a fixed MPD is exceeded, and how the sound per-node
//! bound of `spp-exact` prunes compared with the fixed MPD of `spp`.
//!
//! Quiet siblings (thesis section 3.2): the children of one position reached by moves that
//! neither capture, promote nor give check. Their spread is max - min of their evaluations
//! from the mover's point of view; SPP's pruning is sound exactly when MPD bounds the spread.
//!
//! The report's sections, in order: [`selfplay`] (the thesis's method), [`distribution`] of the
//! sampled positions, the spread against the material (`spp::material`), spp-exact's
//! [`bound`], [`pruning`] of spp and spp-exact against alpha-beta, and the [`siblings`] met in
//! the search; [`files`] writes them out.

pub mod bound;
pub mod distribution;
pub mod files;
pub mod measure;
pub mod pruning;
pub mod selfplay;
pub mod siblings;

pub use measure::{
    is_capture, is_castle, measure_position, phase, quiet_children, read_positions, Phase,
    SiblingSpread, KINDS,
};

use std::path::PathBuf;

use anyhow::{Context, Result};
use augur::eval::EvalKind;
use clap::Args;
use serde::{Deserialize, Serialize};

use crate::data::bundled::MPD_SAMPLE1000;
use crate::kit::chart::Chart;
use crate::kit::provenance::Provenance;
use crate::kit::run_args::RunArgs;
use crate::spp::material;

/// Openings for the self-play games (shared with `augur-lab match`).
pub const OPENINGS: &str = augur_arena::game::openings::BUNDLED_EPD;

#[derive(Args, Debug, Clone)]
#[command(mut_arg("out", |a| a.value_name("DIR").help(
    "Write spreads.csv, summary.md and charts here. The self-play games (selfplay.csv) and the pruning searches (pruning.csv) are written as they finish, and a restart of the same command resumes them (other settings are refused)."
)))]
pub struct MpdArgs {
    /// Self-play games (the thesis played 10).
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Fixed depth of the engine search that plays each move.
    #[arg(long, default_value_t = 4)]
    pub play_depth: i32,
    /// Evaluation the players use (spreads are recorded for all three evaluations).
    #[arg(long, default_value = "classic")]
    pub play_eval: String,
    /// A game ends as a draw after this many plies.
    #[arg(long, default_value_t = 200)]
    pub max_plies: usize,
    /// Opening positions (EPD/FEN lines; default: the bundled 8-move openings). Game i starts
    /// from opening i * 7 mod count, so the choice is spread and repeatable.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Positions to sample (default: bundled 1000 of games-sample.epd; the full file is
    /// ../shared/data/positions/games-sample.epd).
    #[arg(long)]
    pub epd: Option<PathBuf>,
    /// Use only the first N positions of --epd.
    #[arg(long)]
    pub limit: Option<usize>,
    /// The fixed MPD whose exceedance is reported (the thesis's 70).
    #[arg(long, default_value_t = 70)]
    pub mpd: i32,
    /// Positions (the first N of the sample) searched with alphabeta, spp and spp-exact.
    #[arg(long, default_value_t = 40)]
    pub prune_positions: usize,
    /// Depth of that comparison.
    #[arg(long, default_value_t = 5)]
    pub prune_depth: i32,
    /// Siblings met in the search (the thesis's own measurement): the quiet siblings of every
    /// depth-1 node of an alpha-beta search to --search-depth over these positions (EPD;
    /// default: the --prune-positions positions of the sample). E.g. the endgame suite
    /// ../shared/data/endgames/endgames.epd.
    #[arg(long)]
    pub search_epd: Option<PathBuf>,
    /// Depth of the alpha-beta searches whose siblings are recorded (0: skip).
    #[arg(long, default_value_t = 5)]
    pub search_depth: i32,
    /// `--threads`, `--out`, `--quiet`, `--summary`.
    #[command(flatten)]
    pub run: RunArgs,
}

/// The headline figures of an mpd run (its `--summary`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    pub games: usize,
    /// Positions the self-play games visited, and positions sampled.
    pub self_play_positions: usize,
    pub sampled_positions: usize,
    /// Per evaluation, the MPD self-play found (the thesis's method).
    pub mpd_found: Vec<selfplay::MpdFound>,
}

pub fn run(args: &MpdArgs) -> Result<()> {
    let play_eval: EvalKind = args.play_eval.parse()?;
    let threads = args.run.threads();
    let mut md = String::from("# augur-lab mpd\n\n");
    let provenance = Provenance::capture(args, None);
    md.push_str(&provenance.markdown());

    let played = selfplay::section(args, play_eval, threads, &provenance, &mut md)?;

    let (epd_text, epd_name) = match &args.epd {
        Some(p) => (
            std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?,
            p.display().to_string(),
        ),
        None => (
            MPD_SAMPLE1000.to_string(),
            "mpd-sample1000.epd (bundled)".to_string(),
        ),
    };
    let mut positions = read_positions(&epd_text, &epd_name)?;
    if let Some(n) = args.limit {
        positions.truncate(n.max(1));
    }
    let sampled: Vec<SiblingSpread> = positions
        .iter()
        .map(|(p, m)| measure_position(p, *m))
        .collect();
    distribution::table(
        &mut md,
        &format!(
            "Sampled positions ({epd_name}, {}): quiet-sibling spread",
            sampled.len()
        ),
        &sampled,
        args.mpd,
    );

    let all: Vec<&SiblingSpread> = played.iter().chain(sampled.iter()).collect();
    // The spread against the material (thesis future work: MPD = a * material + b?).
    let material_fits = material::fits(&all);
    material::section(
        &mut md,
        &material_fits,
        &format!(
            "the {} self-play and {} sampled positions",
            played.len(),
            sampled.len()
        ),
    );
    if let Some(dir) = &args.run.output.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for f in &material_fits {
            let name = format!("material_{}_{}", f.axis.key(), f.eval);
            Chart::from(material::chart(f)).save(dir, &name)?;
        }
    }
    bound::section(&mut md, &all, args.mpd);

    if args.prune_positions > 0 {
        let sample = pruning::Sampled {
            positions: &positions,
            epd_name: &epd_name,
            epd_text: &epd_text,
        };
        pruning::section(args, &sample, threads, &provenance, &mut md)?;
    }

    if args.search_depth > 0 {
        let (set, name) = match &args.search_epd {
            Some(p) => {
                let text = std::fs::read_to_string(p)
                    .with_context(|| format!("reading {}", p.display()))?;
                (
                    read_positions(&text, &p.display().to_string())?,
                    p.display().to_string(),
                )
            }
            None => {
                let n = args.prune_positions.min(positions.len());
                (positions[..n].to_vec(), format!("first {n} of {epd_name}"))
            }
        };
        let logs = siblings::search_siblings(&set, args.search_depth, threads)?;
        siblings::siblings_section(&mut md, &logs, &name, args.search_depth, args.mpd);
    }

    print!("{md}");
    if let Some(dir) = &args.run.output.out {
        files::write_files(dir, &played, &sampled, args.mpd, &md)?;
        provenance.write_into(dir)?;
        eprintln!("wrote {}", dir.display());
    }
    let figures = Figures {
        games: args.games,
        self_play_positions: played.len(),
        sampled_positions: sampled.len(),
        mpd_found: selfplay::mpd_found(&played),
    };
    args.run.output.summary.write("mpd", &figures)
}
