//! `augur-lab train`: the CPU trainer of Augur's NNUE, from datagen files to the quantised
//! network file the engine reads (`EvalFile`), with a loss curve beside it.
//!
//! A run is declared: `augur-lab train --config run.toml` (flags override the file's keys) and
//! writes its effective settings, the SHA-256 of the files it read and its provenance to
//! `OUT/run.toml`, which `--resume` checks and `--config` accepts.
//!
//! - [`config`]: the settings (TOML keys and flags), `run.toml`, the resume check, and
//!   [`TrainOptions`], what the loop takes of them.
//! - [`prepare`]: the training positions, the held-out set and the training K.
//! - [`epochs`]: the loop (AdamW on all threads, per-epoch checkpoints and networks).
//! - [`output`]: the network files, the loss table and chart, the summary's figures.
//! - [`sample`]: a position as the side to move's active features, score and result.
//! - [`data`]: datagen records read as samples.
//! - [`model`]: the float network, its sparse forward/backward pass and quantisation.
//! - [`optim`]: AdamW and the learning-rate schedules.
//! - [`update`]: the step between two gradient passes, fused and split over the threads.
//! - [`checkpoint`]: per-epoch checkpoints for `--resume`.

pub mod checkpoint;
pub mod config;
pub mod data;
pub mod epochs;
pub mod heldout;
pub mod model;
pub mod optim;
pub mod output;
pub mod prepare;
pub mod sample;
pub mod update;

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use augur_arena::outputs::refuse_inputs;

pub use config::{ActivationArg, RunConfig, RunRecord, SettingFlags, TrainOptions, RUN_FILE};
pub use epochs::train;
pub use model::mean_loss;
pub use output::{best_epoch, TrainFigures, TrainReport};

use crate::kit::summary::SummaryArgs;

/// `augur-lab train`: datagen files in, a quantised network file (and checkpoints, per-epoch
/// networks, the loss table and chart, `run.toml`) out.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// The run's settings as TOML: every flag below is a key of the same name (`_` for
    /// `-`, `data = [...]` for the files); a flag given overrides the file's key.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub settings: SettingFlags,
    /// Continue from OUT/checkpoint.ckpt: refused unless the settings and the files' SHA-256
    /// are those of OUT/run.toml.
    #[arg(long, conflicts_with = "init")]
    pub resume: bool,
    #[command(flatten)]
    pub summary: SummaryArgs,
}

pub fn run(args: &TrainArgs) -> Result<()> {
    let config = RunConfig::resolve(args.config.as_deref(), &args.settings)?;
    let inputs = config.inputs()?;
    let run_file = config.out.join(RUN_FILE);
    // The check comes before the data is read: a refused resume costs nothing.
    let resumed = args.resume && run_file.exists();
    if resumed {
        RunRecord::read(&run_file)?.check_resume(&config, &inputs, &run_file)?;
    } else if args.resume && config.out.join("checkpoint.ckpt").exists() {
        bail!(
            "{} has a checkpoint but no {RUN_FILE} to check the settings against; start the run \
             again without --resume, or in another folder",
            config.out.display()
        );
    } else if !args.resume && run_file.exists() {
        // A fresh start would overwrite the run's networks, loss table and checkpoint: hours of
        // training lost to a flag left out.
        bail!(
            "{} already holds a run ({RUN_FILE}); go on with it with --resume, or train into \
             another --out",
            config.out.display()
        );
    }
    let mut read: Vec<&std::path::Path> = config.data.iter().map(|p| p.as_path()).collect();
    read.extend(config.held_out.iter().map(|p| p.as_path()));
    read.extend(config.init.as_deref());
    refuse_inputs("--net", &config.net_path(), &read)?;
    if let Some(summary) = &args.summary.summary {
        refuse_inputs("--summary", summary, &read)?;
    }
    let data = prepare::prepare(&config)?;
    if data.held_out.is_empty() {
        bail!("no validation position is left (an empty held-out file, or too few positions for the share held out)");
    }
    let opts = config.options(data.k, args.resume);
    if !resumed {
        std::fs::create_dir_all(&config.out)
            .with_context(|| format!("creating {}", config.out.display()))?;
        RunRecord::new(&config, inputs, opts.threads, f64::from(data.k)).write(&run_file)?;
    }
    let r = train(&data.train, &data.held_out, &opts, &config.out)?;
    let (t, v) = r.history.last().copied().unwrap_or((f64::NAN, f64::NAN));
    println!(
        "{} positions ({} validation), H={} {}, {} epochs: train loss {t:.6}, validation loss {v:.6} (initial {:.6}); {:.0} s, {:.0} pos/s",
        data.train.len(),
        data.held_out.len(),
        opts.hidden,
        opts.activation.name(),
        r.history.len(),
        r.initial_val_loss,
        r.seconds,
        r.trained_positions as f64 / r.seconds.max(1e-9)
    );
    println!("network: {}", r.net_path.display());
    let figures = TrainFigures::of(&r, data.train.len(), data.held_out.len(), data.k)?;
    args.summary.write("train", &figures)
}
