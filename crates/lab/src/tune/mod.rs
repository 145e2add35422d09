//! `augur-lab tune`: Texel tuning of every weight of the `default` evaluation. Positions
//! ([`crate::data::samples`]) are resolved to their quiescence leaf and traced once into sparse features
//! ([`dataset`]); K is fitted, then Adam lowers the loss of sigmoid(eval / K) against the
//! blend of game result and search score ([`model`]); the weights are written back as the
//! engine's `weights.rs` ([`weights_file`]). docs/tune.md has the commands and the results.

pub mod dataset;
pub mod model;
pub mod weights_file;

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use augur::eval::tapered::WEIGHTS;

use augur_arena::progress::Progress;

use crate::data::samples;
use model::{EpochLoss, Objective, Schedule};

#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// Position files: `.bin` datagen records, `.epd` with the result in c9 (score in ce,
    /// optional), `.pgn` games of `augur-lab match` (scores from the move comments), or text
    /// lines `FEN | score | result` (white's view).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Read at most this many positions in all.
    #[arg(long)]
    pub limit: Option<u64>,
    /// Write the tuned weights here as the engine's weights.rs (e.g.
    /// crates/engine/src/eval/tapered/weights.rs); without it only the losses are reported.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Weight of the game result in the target; the rest is the search score's win
    /// probability. Positions without a score use the result alone.
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Use this K instead of fitting it.
    #[arg(long)]
    pub k: Option<f64>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 100)]
    pub epochs: usize,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Adam's step size, about the centipawns a weight moves per step.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// The step size is multiplied by this after every epoch.
    #[arg(long, default_value_t = 1.0)]
    pub lr_decay: f64,
    /// Penalty l2 · Σ (w − w_start)² added to the loss, pulling weights towards the start.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Tie every piece-square weight to its left-right mirror (a1 = h1, ...): half the
    /// piece-square parameters, against the noise of rarely visited squares in thin data.
    #[arg(long)]
    pub mirror_psq: bool,
    /// Share of the positions held out to measure over-fitting (blocks of 256 consecutive
    /// positions, so a datagen game rarely straddles both sets).
    #[arg(long, default_value_t = 0.1)]
    pub holdout: f64,
    /// Which weights to write: those of the epoch with the lowest held-out loss, or the last.
    #[arg(long, value_enum, default_value_t = Keep::Best)]
    pub keep: Keep,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed of the held-out split and the batch order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write each epoch's losses here as CSV (epoch,train,held_out,lr).
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// No progress line.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Keep {
    Best,
    Last,
}

pub fn run(args: &TuneArgs) -> Result<()> {
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda must be within 0..1, got {}", args.lambda);
    }
    if !(0.0..1.0).contains(&args.holdout) {
        bail!(
            "--holdout must be within 0..1 (exclusive), got {}",
            args.holdout
        );
    }
    let positive = |x: f64| x.is_finite() && x > 0.0;
    if args.k.is_some_and(|k| !positive(k)) {
        bail!("--k must be a positive number");
    }
    if args.batch == 0 || args.epochs == 0 || !positive(args.lr) || !positive(args.lr_decay) {
        bail!("--batch, --epochs, --lr and --lr-decay must be positive");
    }
    if !(args.l2.is_finite() && args.l2 >= 0.0) {
        bail!("--l2 must be zero or positive");
    }
    let read: Vec<&std::path::Path> = args.data.iter().map(|p| p.as_path()).collect();
    for (flag, out) in [("--log", &args.log), ("--out", &args.out)] {
        if let Some(out) = out {
            augur_arena::outputs::refuse_inputs(flag, out, &read)?;
        }
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);

    // Features, once.
    let started = Instant::now();
    let mut total = 0u64;
    let mut sources = Vec::new();
    for path in &args.data {
        total += samples::count(path)?;
        sources.push(samples::open(path)?);
    }
    let total = args.limit.map_or(total, |l| l.min(total));
    let mut progress = Progress::with_unit(total as usize, 0, !args.quiet, "positions");
    let (ds, read) = dataset::build(
        sources.into_iter().flatten(),
        args.limit,
        threads,
        |d, n| progress.update(n as usize, &format!("positions, {} kept", d.len())),
    )?;
    progress.finish();
    if ds.is_empty() {
        bail!("no usable positions in {:?}", args.data);
    }
    let (train, held) = dataset::split(ds.len(), args.holdout, args.seed);
    if train.is_empty() {
        bail!("every position was held out; lower --holdout or add data");
    }
    println!(
        "positions: {read} read, {} kept ({} resolved by quiescence search, {} dropped as mate or \
         draw), {} training, {} held out; features in {:.1} s",
        ds.len(),
        ds.resolved,
        ds.dropped,
        train.len(),
        held.len(),
        started.elapsed().as_secs_f64()
    );

    let start = model::from_engine(&WEIGHTS);
    let k = match args.k {
        Some(k) => k,
        None => model::fit_k(&ds, &train, &start, threads),
    };
    let obj = Objective {
        k,
        lambda: args.lambda,
    };
    println!(
        "K = {k:.1} ({}), lambda = {}",
        if args.k.is_some() {
            "given"
        } else {
            "fitted to the training results with the starting weights"
        },
        args.lambda
    );
    let before = (
        model::loss(&ds, &train, &start, obj, threads),
        model::loss(&ds, &held, &start, obj, threads),
    );
    println!(
        "loss before: training {:.6}, held-out {:.6}",
        before.0, before.1
    );

    let mut log = match &args.log {
        Some(p) => {
            let mut f = std::fs::File::create(p)
                .with_context(|| format!("cannot create {}", p.display()))?;
            writeln!(f, "epoch,train,held_out,lr")?;
            Some(f)
        }
        None => None,
    };
    let sched = Schedule {
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lr_decay: args.lr_decay,
        l2: args.l2,
        mirror_psq: args.mirror_psq,
        threads,
        seed: args.seed,
    };
    let training = Instant::now();
    let mut log_error = None;
    let trained = model::train(&ds, &train, &held, &start, obj, sched, |l: EpochLoss| {
        println!(
            "epoch {:>4}  training {:.6}  held-out {:.6}  lr {:.4}",
            l.epoch, l.train, l.held_out, l.lr
        );
        if let Some(f) = log.as_mut() {
            if let Err(e) = writeln!(f, "{},{},{},{}", l.epoch, l.train, l.held_out, l.lr) {
                log_error.get_or_insert(e);
            }
        }
    });
    if let Some(e) = log_error {
        return Err(e).context("writing the epoch log");
    }
    let (chosen, epoch) = match args.keep {
        Keep::Best => (&trained.best, trained.best_epoch),
        Keep::Last => (&trained.last, args.epochs),
    };
    let rounded = model::to_engine(chosen);
    let as_engine = model::from_engine(&rounded);
    let after = (
        model::loss(&ds, &train, &as_engine, obj, threads),
        model::loss(&ds, &held, &as_engine, obj, threads),
    );
    println!(
        "loss after (epoch {epoch}, weights rounded as the engine reads them): training {:.6}, \
         held-out {:.6}; {} epochs in {:.1} s",
        after.0,
        after.1,
        args.epochs,
        training.elapsed().as_secs_f64()
    );

    if let Some(out) = &args.out {
        // File names, not paths: the header is committed, and one machine's folders mean
        // nothing on another (docs/tune.md gives the commands and where the files come from).
        let files: Vec<String> = args
            .data
            .iter()
            .map(|p| {
                p.file_name()
                    .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
            })
            .collect();
        let provenance = vec![
            format!(
                "Tuned by `augur-lab tune` on {} ({} positions: {} training, {} held out).",
                files.join(", "),
                ds.len(),
                train.len(),
                held.len()
            ),
            format!(
                "K = {k:.1}, lambda = {}, Adam lr {} (decay {} an epoch), batch {}, l2 {}, \
                 epoch {epoch} of {}, seed {}.",
                args.lambda, args.lr, args.lr_decay, args.batch, args.l2, args.epochs, args.seed
            ),
            format!(
                "Loss: training {:.6} -> {:.6}, held-out {:.6} -> {:.6}.",
                before.0, after.0, before.1, after.1
            ),
        ];
        std::fs::write(out, weights_file::render(&rounded, &provenance))
            .with_context(|| format!("cannot write {}", out.display()))?;
        println!("wrote {}", out.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        tune: TuneArgs,
    }

    fn args(line: &[&str]) -> TuneArgs {
        Cli::parse_from(std::iter::once("tune").chain(line.iter().copied())).tune
    }

    #[test]
    fn a_small_run_writes_a_weights_file_and_bad_settings_are_refused() {
        let dir = std::env::temp_dir().join(format!("augur-tune-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let epd = dir.join("p.epd");
        let text: String = augur::bench::positions()
            .enumerate()
            .map(|(i, f)| {
                let r = ["1-0", "1/2-1/2", "0-1"][i % 3];
                let fen: Vec<&str> = f.split_whitespace().take(4).collect();
                format!("{} c9 \"{r}\";\n", fen.join(" "))
            })
            .collect();
        std::fs::write(&epd, text).unwrap();
        let out = dir.join("weights.rs");
        let (e, o) = (epd.to_str().unwrap(), out.to_str().unwrap());
        run(&args(&[
            e,
            "--epochs",
            "3",
            "--out",
            o,
            "--quiet",
            "--threads",
            "2",
        ]))
        .unwrap();
        let written = std::fs::read_to_string(&out).unwrap();
        // The data by file name: the header is committed, the scratch folder is not.
        let name = epd.file_name().unwrap().to_str().unwrap();
        assert!(
            written.contains(&format!("//! Tuned by `augur-lab tune` on {name} (")),
            "{written}"
        );
        assert!(!written.contains(dir.to_str().unwrap()), "{written}");
        assert!(written.contains("pub const KING_ATTACK: [S; 41] = ["));

        for bad in [
            &["--lambda", "1.5"][..],
            &["--holdout", "1"],
            &["--k=-3"],
            &["--lr", "0"],
            &["--l2=-1"],
        ] {
            let mut line = vec![e, "--quiet"];
            line.extend_from_slice(bad);
            assert!(run(&args(&line)).is_err(), "{bad:?}");
        }
        let missing = dir.join("missing.epd");
        let err = run(&args(&[missing.to_str().unwrap(), "--quiet"])).unwrap_err();
        assert!(format!("{err:#}").contains("missing.epd"), "{err:#}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
