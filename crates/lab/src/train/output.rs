//! What a run leaves: each epoch's network file, quantised the run's way (`rounding`:
//! [train-qcal], [train-qround]), the loss table and chart, and the headline figures of
//! `--summary` ([`TrainFigures`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::config::TrainOptions;
use super::model::{mean_loss, Model, Rounding};
use super::sample::TrainingPosition;
use crate::kit::chart::{CategoryChart, Chart, Series, Style};
use crate::kit::provenance::sha256_file;

/// What a run produced.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// Validation loss of the untrained (or resumed) network.
    pub initial_val_loss: f64,
    /// (train loss, validation loss) per epoch, including epochs of earlier runs resumed. The
    /// validation loss is the written network's (quantised, as the engine reads it), not the
    /// float model's: it is what `--keep-best` chooses by.
    pub history: Vec<(f64, f64)>,
    pub trained_positions: usize,
    pub seconds: f64,
    pub net_path: PathBuf,
    pub model: Model,
}

/// The epoch (from 1) with the lowest validation loss.
pub fn best_epoch(history: &[(f64, f64)]) -> Option<usize> {
    history
        .iter()
        .enumerate()
        .filter(|(_, h)| h.1.is_finite())
        .min_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
        .map(|(i, _)| i + 1)
}

/// The figures of a `train` summary (`kit::summary`, command `train`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainFigures {
    /// The held-out loss of the network the run started from (random, `init` or resumed).
    pub initial_held_out_loss: f64,
    /// The last epoch's held-out loss (of its written, quantised network).
    pub final_held_out_loss: f64,
    /// The lowest epoch held-out loss, and its epoch (from 1).
    pub best_held_out_loss: f64,
    pub best_epoch: usize,
    /// Epochs done, resumed ones included.
    pub epochs: usize,
    /// Training positions (mirrored copies included) and held-out positions.
    pub positions: usize,
    pub held_out_positions: usize,
    /// The training K.
    pub k: f32,
    /// The final network file and its SHA-256.
    pub network: PathBuf,
    pub network_sha256: String,
}

impl TrainFigures {
    pub fn of(
        report: &TrainReport,
        positions: usize,
        held_out_positions: usize,
        k: f32,
    ) -> Result<TrainFigures> {
        let best = best_epoch(&report.history).context("no epoch has a held-out loss")?;
        Ok(TrainFigures {
            initial_held_out_loss: report.initial_val_loss,
            final_held_out_loss: report.history.last().map_or(f64::NAN, |h| h.1),
            best_held_out_loss: report.history[best - 1].1,
            best_epoch: best,
            epochs: report.history.len(),
            positions,
            held_out_positions,
            k,
            network: report.net_path.clone(),
            network_sha256: sha256_file(&report.net_path)?,
        })
    }
}

/// A float model written as a network file, with the rounding that made it and the file's
/// validation loss.
pub struct Written {
    pub net: augur::eval::nnue::Network,
    pub rounding: Rounding,
    pub val_loss: f64,
}

/// The network file a float model is written as: quantised the run's way (`--rounding`:
/// [train-qcal], [train-qround]).
pub fn written_network(
    model: &Model,
    opts: &TrainOptions,
    calibration: &[TrainingPosition],
    val: &[TrainingPosition],
    threads: usize,
) -> Result<Written> {
    let write = |rounding: Rounding| -> Result<Written> {
        let net = rounded_network(model, rounding, opts, calibration)?;
        let val_loss = mean_loss(&Model::from_network(&net), val, &opts.val_loss, threads);
        Ok(Written {
            net,
            rounding,
            val_loss,
        })
    };
    // [train-qround] The compensated outputs are always the closer ones, but on some models
    // the nearest rounding's errors happen to lower the loss (gen2ft3: held-out 0.011302
    // with the bias, 0.011353 compensated; gen2ft4's first run the other way by 0.00023).
    // `best` makes the choice on the validation set, as [train-best] chooses the epoch.
    let candidates: &[Rounding] = match opts.rounding {
        Rounding::Best => &[Rounding::Nearest, Rounding::Bias, Rounding::Compensated],
        one => &[one],
    };
    let mut best: Option<Written> = None;
    for &rounding in candidates {
        let candidate = write(rounding)?;
        if best
            .as_ref()
            .is_none_or(|b| candidate.val_loss < b.val_loss)
        {
            best = Some(candidate);
        }
    }
    best.context("no rounding to write the network with")
}

/// The name `--rounding` gives `rounding` (clap's, so the vocabulary has one home).
pub fn rounding_name(rounding: Rounding) -> String {
    use clap::ValueEnum;
    rounding
        .to_possible_value()
        .map_or_else(|| format!("{rounding:?}"), |v| v.get_name().to_owned())
}

/// The float model quantised with one rounding (`best`, a choice among them, is
/// [`written_network`]'s).
pub fn rounded_network(
    model: &Model,
    rounding: Rounding,
    opts: &TrainOptions,
    calibration: &[TrainingPosition],
) -> Result<augur::eval::nnue::Network> {
    let model = match rounding {
        Rounding::Nearest => model.clone(),
        Rounding::Bias => model.bias_corrected(opts.quant, calibration)?,
        Rounding::Compensated => model.compensated(opts.quant, calibration, &opts.loss)?,
        Rounding::Best => bail!("`best` is a choice among the roundings, not one of them"),
    };
    Ok(model.quantise(opts.quant)?)
}

pub fn write_history(history: &[(f64, f64)], out: &Path) -> Result<()> {
    let path = out.join("loss.csv");
    let mut f =
        std::fs::File::create(&path).with_context(|| format!("writing {}", path.display()))?;
    writeln!(f, "epoch,train_loss,validation_loss")?;
    for (i, (t, v)) in history.iter().enumerate() {
        writeln!(f, "{},{t:.8},{v:.8}", i + 1)?;
    }
    Ok(())
}

pub fn loss_chart(history: &[(f64, f64)]) -> Chart {
    let epochs: Vec<String> = (1..=history.len()).map(|e| e.to_string()).collect();
    CategoryChart::new("NNUE training loss", epochs)
        .labels("epoch", "mean loss")
        .style(Style::Lines)
        .series(Series::new("train", history.iter().map(|h| h.0).collect()))
        .series(Series::new(
            "validation",
            history.iter().map(|h| h.1).collect(),
        ))
        .into()
}
