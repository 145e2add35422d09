//! The declared run: every setting of `augur-lab train` as one TOML file (`--config`), with
//! the command line's flags on top, and the `run.toml` a run writes beside its output.
//!
//! Each setting is declared once, in [`settings!`]'s table below: its TOML key (the flag's name
//! with `_` for `-`), its type, its default and its flag. A setting's value is the flag's if
//! given, else the file's, else the default; the result is a [`RunConfig`], checked by
//! [`RunConfig::validate`] before any data is read.
//!
//! The written `run.toml` is a config file itself (`--config OUT/run.toml` runs the same run
//! again) with two more tables: `[inputs]`, the SHA-256 of every data file and of the `init`
//! network, and `[provenance]` (source commit, date, command line, the fitted K). `--resume`
//! compares the settings and inputs with the file's, as `kit::result_log` compares a result
//! file's settings line, and refuses a run that differs, naming the differences.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use augur::eval::nnue::{Activation, KingBuckets, Quantisation};
use serde::{Deserialize, Serialize};

use super::model::{LossConfig, Rounding};
use super::optim::{LrSchedule, Schedule};
use crate::kit::provenance::{sha256_file, Provenance};

/// The written config's name in the output folder.
pub const RUN_FILE: &str = "run.toml";

/// The settings that say how a run looks, not what it computes: a resume may change them.
const NOT_COMPARED: &[&str] = &["quiet"];

/// Declares the settings once: [`RunConfig`] (the TOML keys, their defaults) and
/// [`SettingFlags`] (the same names as flags, each optional so that an absent flag leaves the
/// file's value). After `=>` comes the flag's value type, written out (an optional setting's
/// flag takes the value, not the option) so that clap sees a `Vec` as a list.
macro_rules! settings {
    ($(
        $(#[doc = $doc:literal])*
        #[arg($($arg:tt)*)]
        $name:ident: $ty:ty = $default:expr => [$($flag:tt)+];
    )*) => {
        /// Every setting of a training run, as the TOML file names it.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields, default)]
        pub struct RunConfig {
            $( $(#[doc = $doc])* pub $name: $ty, )*
        }

        impl Default for RunConfig {
            fn default() -> Self {
                RunConfig { $( $name: $default, )* }
            }
        }

        /// The settings as flags: each overrides the config file's value.
        #[derive(clap::Args, Clone, Debug, Default, Serialize)]
        pub struct SettingFlags {
            $(
                $(#[doc = $doc])*
                #[arg($($arg)*)]
                #[serde(skip_serializing_if = "Option::is_none")]
                pub $name: Option<$($flag)+>,
            )*
        }
    };
}

settings! {
    /// Datagen record files (bullet 32-byte ChessBoard), read in order.
    #[arg(value_name = "DATA")]
    data: Vec<PathBuf> = Vec::new() => [Vec<PathBuf>];
    /// Held-out files: their positions are the validation set (instead of the last ones of
    /// the data).
    #[arg(long, value_name = "FILE")]
    held_out: Vec<PathBuf> = Vec::new() => [Vec<PathBuf>];
    /// Hold out the last N positions of the data for validation (instead of `validation`'s
    /// share).
    #[arg(long, value_name = "N")]
    held_out_positions: Option<usize> = None => [usize];
    /// Share of the positions held out for the validation loss (without `held_out` or
    /// `held_out_positions`).
    ///
    /// Default: 0.05.
    #[arg(long)]
    validation: f64 = 0.05 => [f64];
    /// Output folder: run.toml, checkpoint.ckpt, best.ckpt (the best epoch's), epoch-N.nnue,
    /// loss.csv, loss.svg, loss.png.
    ///
    /// Default: runs/nnue.
    #[arg(long)]
    out: PathBuf = PathBuf::from("runs/nnue") => [PathBuf];
    /// The final network file (default OUT/augur.nnue).
    #[arg(long)]
    net: Option<PathBuf> = None => [PathBuf];
    /// Hidden neurons per perspective (a multiple of 16).
    ///
    /// Default: 128.
    #[arg(long)]
    hidden: usize = 128 => [usize];
    /// Default: screlu.
    #[arg(long, value_enum)]
    activation: ActivationArg = ActivationArg::Screlu => [ActivationArg];
    /// Output buckets by the number of pieces (1 to 8; more than 1 writes a version 2 file).
    ///
    /// Default: 1.
    #[arg(long)]
    output_buckets: usize = 1 => [usize];
    /// [nnue-kings] King buckets of the inputs, a named layout: `none` (a version 1/2 file),
    /// `mirror1` (mirrored, one bucket), `mirror4`, `mirror8` or `mirror16` (mirrored: a
    /// version 3 file).
    ///
    /// Default: none.
    #[arg(long)]
    king_buckets: String = "none".to_string() => [String];
    /// [train-factoriser] Train a 768-row block shared by every king bucket, added into each
    /// when the network is written (needs king buckets).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    factoriser: bool = false => [bool];
    /// QB, the output weights' quantisation scale (1 to 1024): a weight w is stored as
    /// round(w · QB), and the SCReLU kernel caps it at 32767 / QA (128 with QA = 255), so QB
    /// 128 keeps weights up to ±1.0 at twice the resolution of the standard 64.
    ///
    /// Default: 64.
    #[arg(long)]
    qb: u16 = Quantisation::STANDARD.qb => [u16];
    /// Default: 12.
    #[arg(long)]
    epochs: usize = 12 => [usize];
    /// Positions per optimiser step.
    ///
    /// Default: 16384.
    #[arg(long)]
    batch: usize = 16384 => [usize];
    /// Starting learning rate (AdamW).
    ///
    /// Default: 0.001.
    #[arg(long)]
    lr: f64 = 0.001 => [f64];
    /// Default: cosine.
    #[arg(long, value_enum)]
    schedule: Schedule = Schedule::Cosine => [Schedule];
    /// Cosine: the last epoch ends at lr times this.
    ///
    /// Default: 0.05.
    #[arg(long)]
    lr_final: f64 = 0.05 => [f64];
    /// Step: multiply the rate by `gamma` every this many epochs.
    ///
    /// Default: 4.
    #[arg(long)]
    step_every: usize = 4 => [usize];
    /// Default: 0.3.
    #[arg(long)]
    gamma: f64 = 0.3 => [f64];
    /// AdamW's decoupled weight decay (weights only, not biases).
    ///
    /// Default: 0.01.
    #[arg(long)]
    weight_decay: f64 = 0.01 => [f64];
    /// [train-bucket-decay] The decay of the king buckets' own rows when a factoriser carries
    /// what they share (default: `weight_decay`). A larger one holds each bucket near the
    /// shared rows until its own data pulls it away.
    #[arg(long)]
    bucket_decay: Option<f64> = None => [f64];
    /// Weight λ of the game result in the target; 1 − λ goes to sigmoid(score / K).
    ///
    /// Default: 0.3.
    #[arg(long)]
    wdl: f64 = 0.3 => [f64];
    /// λ of the validation loss (default: `wdl`), so that runs trained with different λ are
    /// compared on one yardstick.
    #[arg(long)]
    validation_wdl: Option<f64> = None => [f64];
    /// Sigmoid scale K in centipawns, of both the score target and the network's output
    /// (default: fitted to the training positions, the K at which their search scores best
    /// predict their games' results; Augur's is about 155-160).
    #[arg(long)]
    k: Option<f64> = None => [f64];
    /// K of the validation loss (default: the training K), so that runs trained at
    /// different K are compared on one yardstick.
    #[arg(long)]
    validation_k: Option<f64> = None => [f64];
    /// Calibrate each file's scores to the training K: a file whose scores predict its own
    /// results best at K_f has them multiplied by K / K_f (files with fewer than 5,000
    /// training positions are left as they are; the held-out positions keep their scores).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    k_per_file: bool = false => [bool];
    /// Use at most this many positions (the first ones of the files).
    #[arg(long)]
    max_positions: Option<usize> = None => [usize];
    /// Train on only the first N positions left after the validation split, so that runs
    /// on different amounts of data share one validation set.
    #[arg(long)]
    train_positions: Option<usize> = None => [usize];
    /// Also train on every training position mirrored left to right (files a..h reversed).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    mirror: bool = false => [bool];
    /// The final network is the epoch with the lowest validation loss, not the last one.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    keep_best: bool = false => [bool];
    /// How each written network is rounded from the float model: `nearest`, `bias` (the
    /// nearest, each output bias moved to where the float outputs are centred),
    /// `compensated` (the output weights' steps chosen to keep the outputs closest to the
    /// float model's) or `best` (all three written, the one with the lowest validation loss
    /// kept).
    ///
    /// Default: bias.
    #[arg(long, value_enum)]
    rounding: Rounding = Rounding::Bias => [Rounding];
    /// Start from this network file instead of random weights (same `hidden`,
    /// `output_buckets` and `activation`; scale 400; a network with one output may be
    /// widened to `output_buckets`, each bucket a copy of it): fine-tunes it on the data, and
    /// the initial validation loss printed is that network's own. A training checkpoint
    /// (an earlier run's OUT/best.ckpt or checkpoint.ckpt) starts from its float model
    /// instead, unrounded, with a fresh optimiser.
    #[arg(long)]
    init: Option<PathBuf> = None => [PathBuf];
    /// Worker threads (default: all cores). The sums of a batch's gradient depend on it, so
    /// a run is reproduced with the same count.
    #[arg(long)]
    threads: Option<usize> = None => [usize];
    /// Default: 1.
    #[arg(long)]
    seed: u64 = 1 => [u64];
    /// No progress bar (epoch lines are still printed).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    quiet: bool = false => [bool];
}

/// Everything a training run needs besides the data.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// The network file's quantisation ([train-qb]: QB may differ from the standard).
    pub quant: Quantisation,
    pub hidden: usize,
    /// Output buckets ([nnue-buckets]).
    pub buckets: usize,
    /// King buckets of the inputs ([nnue-kings]).
    pub kings: KingBuckets,
    /// A factoriser trained beside the king buckets ([train-factoriser]).
    pub factoriser: bool,
    pub activation: Activation,
    pub epochs: usize,
    pub batch: usize,
    pub schedule: LrSchedule,
    pub weight_decay: f32,
    /// [train-bucket-decay] The king buckets' rows' decay beside a factoriser.
    pub bucket_decay: f32,
    pub loss: LossConfig,
    /// The validation loss's (the same as `loss` unless `--validation-wdl` says otherwise).
    pub val_loss: LossConfig,
    pub threads: usize,
    pub seed: u64,
    /// Continue from `OUT/checkpoint.ckpt` if it exists.
    pub resume: bool,
    /// Start from this network file ([train-init]).
    pub init: Option<PathBuf>,
    pub progress: bool,
    /// Where the final network goes (default `OUT/augur.nnue`).
    pub net: Option<PathBuf>,
    /// The final network is the epoch with the lowest validation loss (early stopping).
    pub keep_best: bool,
    /// How each written network is rounded ([train-qcal], [train-qround]).
    pub rounding: Rounding,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActivationArg {
    Screlu,
    Crelu,
}

impl From<ActivationArg> for Activation {
    fn from(a: ActivationArg) -> Self {
        match a {
            ActivationArg::Screlu => Activation::SCReLU,
            ActivationArg::Crelu => Activation::CReLU,
        }
    }
}

/// The tables of a written `run.toml` that are not settings.
const INPUTS: &str = "inputs";
const PROVENANCE: &str = "provenance";

impl RunConfig {
    /// The run declared by `file` (if any) with `flags` on top.
    pub fn resolve(file: Option<&Path>, flags: &SettingFlags) -> Result<RunConfig> {
        let mut table = match file {
            Some(path) => read_settings(path)?,
            None => toml::Table::new(),
        };
        let flags = toml::Table::try_from(flags).context("the flags as TOML")?;
        table.extend(flags);
        let config: RunConfig =
            toml::Value::Table(table)
                .try_into()
                .with_context(|| match file {
                    Some(path) => format!("the settings of {}", path.display()),
                    None => "the settings".to_string(),
                })?;
        config.validate()?;
        Ok(config)
    }

    /// Refuses settings no run can use, naming the key.
    pub fn validate(&self) -> Result<()> {
        use augur::eval::nnue::network::{MAX_BUCKETS, MAX_HIDDEN};
        if self.data.is_empty() {
            bail!("no data: name the datagen files (`data = [...]` in the config, or arguments)");
        }
        if self.hidden == 0 || !self.hidden.is_multiple_of(16) || self.hidden > MAX_HIDDEN {
            bail!(
                "hidden = {} must be a multiple of 16 from 16 to {MAX_HIDDEN}",
                self.hidden
            );
        }
        if self.batch == 0 || self.epochs == 0 {
            bail!("batch and epochs must be positive");
        }
        if !(1..=MAX_BUCKETS).contains(&self.output_buckets) {
            bail!(
                "output_buckets = {} must be from 1 to {MAX_BUCKETS}",
                self.output_buckets
            );
        }
        let unit = |x: f64| (0.0..=1.0).contains(&x);
        if !unit(self.wdl) || !unit(self.validation_wdl.unwrap_or(self.wdl)) {
            bail!("wdl and validation_wdl must be in [0, 1]");
        }
        let scale = |k: Option<f64>| k.is_none_or(|k| k > 0.0 && k.is_finite());
        if !scale(self.k) || !scale(self.validation_k) {
            bail!("k and validation_k must be positive");
        }
        if !(0.0..0.5).contains(&self.validation) {
            bail!("validation = {} must be in [0, 0.5)", self.validation);
        }
        // Without a validation set every epoch's loss is NaN and the run fails only at its
        // end, after the whole training: refuse it before the data is read.
        if self.held_out.is_empty()
            && self.held_out_positions.unwrap_or(0) == 0
            && self.validation == 0.0
        {
            bail!("no validation set: validation = 0 needs held_out files or held_out_positions above 0");
        }
        if !(self.lr > 0.0 && self.lr.is_finite()) {
            bail!("lr = {} must be a positive number", self.lr);
        }
        if !(0.0..=1.0).contains(&self.lr_final) {
            bail!(
                "lr_final = {} must be in [0, 1] (a share of lr)",
                self.lr_final
            );
        }
        if !(self.gamma > 0.0 && self.gamma <= 1.0) || self.step_every == 0 {
            bail!(
                "gamma = {} must be in (0, 1] and step_every = {} positive",
                self.gamma,
                self.step_every
            );
        }
        if !self.held_out.is_empty() && self.held_out_positions.is_some() {
            bail!("held_out (files) and held_out_positions are two ways to choose the validation set: give one");
        }
        if self.threads == Some(0) {
            bail!("threads must be positive");
        }
        let decay = |d: f64| d >= 0.0 && d.is_finite();
        if !decay(self.weight_decay) || !self.bucket_decay.is_none_or(decay) {
            bail!("weight_decay and bucket_decay must be 0 or more");
        }
        self.quantisation().validate().context("qb")?;
        let kings = self.kings()?;
        if self.factoriser && kings.count() == 1 {
            bail!(
                "factoriser = true needs king buckets (king_buckets = \"{}\" has one)",
                self.king_buckets
            );
        }
        if self.bucket_decay.is_some() && !self.factoriser {
            bail!("bucket_decay needs factoriser = true (it decays the buckets towards it)");
        }
        Ok(())
    }

    /// The named king-bucket layout.
    pub fn kings(&self) -> Result<KingBuckets> {
        KingBuckets::layout(&self.king_buckets).context("king_buckets")
    }

    /// The network file's quantisation ([train-qb]: QB may differ from the standard).
    pub fn quantisation(&self) -> Quantisation {
        Quantisation {
            qb: self.qb,
            ..Quantisation::STANDARD
        }
    }

    /// The loop's options, with the training K (the setting's or the one fitted to the
    /// data) and whether to continue from the checkpoint.
    pub fn options(&self, k: f32, resume: bool) -> TrainOptions {
        TrainOptions {
            quant: self.quantisation(),
            hidden: self.hidden,
            buckets: self.output_buckets,
            // Checked by `validate`, which every resolved config passed.
            kings: self.kings().unwrap_or(KingBuckets::NONE),
            factoriser: self.factoriser,
            activation: self.activation.into(),
            epochs: self.epochs,
            batch: self.batch,
            schedule: LrSchedule {
                kind: self.schedule,
                lr: self.lr as f32,
                epochs: self.epochs,
                step_every: self.step_every,
                gamma: self.gamma as f32,
                final_fraction: self.lr_final as f32,
            },
            weight_decay: self.weight_decay as f32,
            bucket_decay: self.bucket_decay.unwrap_or(self.weight_decay) as f32,
            loss: LossConfig {
                lambda: self.wdl as f32,
                k,
                ..LossConfig::default()
            },
            val_loss: LossConfig {
                lambda: self.validation_wdl.unwrap_or(self.wdl) as f32,
                k: self.validation_k.map_or(k, |k| k as f32),
                ..LossConfig::default()
            },
            threads: self.thread_count(),
            seed: self.seed,
            resume,
            init: self.init.clone(),
            progress: !self.quiet,
            net: self.net.clone(),
            keep_best: self.keep_best,
            rounding: self.rounding,
        }
    }

    pub fn thread_count(&self) -> usize {
        self.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    /// Where the final network goes.
    pub fn net_path(&self) -> PathBuf {
        self.net
            .clone()
            .unwrap_or_else(|| self.out.join("augur.nnue"))
    }

    /// The SHA-256 of every file the run reads: what, besides the settings, decides its
    /// result.
    pub fn inputs(&self) -> Result<Inputs> {
        let hash = |paths: &[PathBuf]| -> Result<Vec<String>> {
            paths.iter().map(|p| sha256_file(p)).collect()
        };
        Ok(Inputs {
            data_sha256: hash(&self.data)?,
            held_out_sha256: hash(&self.held_out)?,
            init_sha256: self.init.as_deref().map(sha256_file).transpose()?,
        })
    }
}

/// The identity of the files a run reads (the `[inputs]` table of `run.toml`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Inputs {
    /// One per `data` file, in order.
    pub data_sha256: Vec<String>,
    /// One per `held_out` file, in order.
    pub held_out_sha256: Vec<String>,
    pub init_sha256: Option<String>,
}

/// The `[provenance]` table of `run.toml`: where the run came from, not compared on resume.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunProvenance {
    pub commit: String,
    pub version: String,
    pub bench: String,
    pub date: String,
    pub command_line: String,
    /// The worker threads the run used (the setting's, or the machine's cores).
    pub threads: usize,
    /// The training K (the setting's, or the one fitted to the data).
    pub k: f64,
}

/// A written `run.toml`, as read back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    #[serde(flatten)]
    pub settings: RunConfig,
    pub inputs: Inputs,
    pub provenance: RunProvenance,
}

impl RunRecord {
    pub fn new(settings: &RunConfig, inputs: Inputs, threads: usize, k: f64) -> RunRecord {
        let p = Provenance::capture(&(), Some(settings.seed));
        RunRecord {
            settings: settings.clone(),
            inputs,
            provenance: RunProvenance {
                commit: p.commit,
                version: p.version,
                bench: p.bench,
                date: p.date,
                command_line: p.command_line,
                threads,
                k,
            },
        }
    }

    /// Reads `run.toml` from `path`.
    pub fn read(path: &Path) -> Result<RunRecord> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        toml::from_str(&text).with_context(|| format!("{} is not a train run file", path.display()))
    }

    /// Writes the record as TOML to `path`, whole (a temporary file renamed into place).
    pub fn write(&self, path: &Path) -> Result<()> {
        let body = toml::to_string(self).context("the run's settings as TOML")?;
        let text = format!(
            "# augur-lab train: the run's settings (a config file: `augur-lab train --config` \
             this file runs it again),\n# [inputs] the SHA-256 of the files it read, \
             [provenance] where it came from.\n{body}"
        );
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".tmp");
        let tmp = path.with_file_name(name);
        std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
        std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
    }

    /// Refuses to continue this run (an earlier `run.toml`, read from `path`) with
    /// `settings` and `inputs` unless they are the ones it began with; the message names each
    /// difference.
    pub fn check_resume(&self, settings: &RunConfig, inputs: &Inputs, path: &Path) -> Result<()> {
        let theirs = compared(&self.settings, &self.inputs)?;
        let ours = compared(settings, inputs)?;
        let keys: std::collections::BTreeSet<&String> = ours.keys().chain(theirs.keys()).collect();
        let show = |v: Option<&String>| v.map_or("nothing".to_string(), Clone::clone);
        let differences: Vec<String> = keys
            .into_iter()
            .filter(|k| ours.get(*k) != theirs.get(*k))
            .map(|k| {
                format!(
                    "  {k}: the file has {}, this run has {}",
                    show(theirs.get(k)),
                    show(ours.get(k))
                )
            })
            .collect();
        if !differences.is_empty() {
            bail!(
                "{} was begun with other settings; resume it with the same ones (`--config {}`), \
                 or choose another output:\n{}",
                path.display(),
                path.display(),
                differences.join("\n")
            );
        }
        Ok(())
    }
}

/// The settings and inputs that decide a run's result, as key → TOML text.
fn compared(settings: &RunConfig, inputs: &Inputs) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for (k, v) in toml::Table::try_from(settings)? {
        if !NOT_COMPARED.contains(&k.as_str()) {
            out.insert(k, v.to_string());
        }
    }
    for (k, v) in toml::Table::try_from(inputs)? {
        out.insert(format!("{INPUTS}.{k}"), v.to_string());
    }
    Ok(out)
}

/// A config file's settings: its top-level keys, without the tables a written `run.toml`
/// adds.
fn read_settings(path: &Path) -> Result<toml::Table> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut table: toml::Table = text
        .parse()
        .with_context(|| format!("{} is not TOML", path.display()))?;
    table.remove(INPUTS);
    table.remove(PROVENANCE);
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        flags: SettingFlags,
    }

    fn flags(args: &[&str]) -> SettingFlags {
        Cli::try_parse_from(std::iter::once("train").chain(args.iter().copied()))
            .unwrap()
            .flags
    }

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("augur-train-config-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d.join(name)
    }

    /// A flag overrides the file's key of the same name; a key neither gives is the default;
    /// `--mirror=false` can turn off a file's `mirror = true`.
    #[test]
    fn flags_override_the_file_and_defaults_fill_the_rest() {
        let path = temp("flags.toml");
        std::fs::write(
            &path,
            "data = [\"a.bin\", \"b.bin\"]\nhidden = 64\nlr = 0.002\nmirror = true\n\
             schedule = \"step\"\nheld_out = [\"h.bin\"]\nk = 150.0\n",
        )
        .unwrap();
        let c =
            RunConfig::resolve(Some(&path), &flags(&["--lr", "0.005", "--mirror=false"])).unwrap();
        assert_eq!(c.data, [PathBuf::from("a.bin"), PathBuf::from("b.bin")]);
        assert_eq!((c.hidden, c.lr, c.mirror), (64, 0.005, false));
        assert_eq!(c.schedule, Schedule::Step);
        assert_eq!(c.held_out, [PathBuf::from("h.bin")]);
        assert_eq!(c.k, Some(150.0));
        assert_eq!(c.epochs, RunConfig::default().epochs);
        let c = RunConfig::resolve(Some(&path), &flags(&["--keep-best", "x.bin"])).unwrap();
        assert!(c.keep_best && c.mirror);
        assert_eq!(c.data, [PathBuf::from("x.bin")]);
        // Flags alone, as before config files.
        let c = RunConfig::resolve(None, &flags(&["d.bin", "--epochs", "3"])).unwrap();
        assert_eq!((c.epochs, c.hidden), (3, 128));
    }

    /// An unknown key, a value of the wrong type and an impossible setting are errors that
    /// name the key.
    #[test]
    fn bad_settings_are_refused_by_name() {
        let path = temp("bad.toml");
        for (text, expect) in [
            ("data = [\"a\"]\nhiden = 64\n", "hiden"),
            ("data = [\"a\"]\nhidden = \"big\"\n", "hidden"),
            ("data = [\"a\"]\nhidden = 100\n", "hidden = 100"),
            ("data = [\"a\"]\nschedule = \"linear\"\n", "linear"),
            ("hidden = 64\n", "no data"),
            (
                "data = [\"a\"]\nheld_out = [\"b\"]\nheld_out_positions = 10\n",
                "held_out_positions",
            ),
            // [nnue-kings] An unknown layout names the key and the layouts there are.
            (
                "data = [\"a\"]\nking_buckets = \"mirror5\"\n",
                "king_buckets",
            ),
            ("data = [\"a\"]\nking_buckets = \"mirror5\"\n", "mirror8"),
            (
                "data = [\"a\"]\nfactoriser = true\n",
                "factoriser = true needs king buckets",
            ),
            // [train-bucket-decay] Only beside a factoriser, and never negative.
            (
                "data = [\"a\"]\nking_buckets = \"mirror8\"\nbucket_decay = 1.0\n",
                "bucket_decay needs factoriser = true",
            ),
            ("data = [\"a\"]\nweight_decay = -0.1\n", "weight_decay"),
            // A learning rate that trains nothing or NaN, a validation set of nothing: refused
            // before any data is read, not after the run.
            ("data = [\"a\"]\nlr = nan\n", "lr = NaN"),
            ("data = [\"a\"]\nlr = -1.0\n", "lr = -1"),
            ("data = [\"a\"]\nlr_final = 2.0\n", "lr_final"),
            ("data = [\"a\"]\ngamma = 0.0\n", "gamma"),
            ("data = [\"a\"]\nvalidation = 0.0\n", "no validation set"),
            (
                "data = [\"a\"]\nking_buckets = \"mirror8\"\nfactoriser = true\nbucket_decay = -1\n",
                "bucket_decay must be 0 or more",
            ),
        ] {
            std::fs::write(&path, text).unwrap();
            let e = RunConfig::resolve(Some(&path), &SettingFlags::default()).unwrap_err();
            assert!(format!("{e:#}").contains(expect), "{text}: {e:#}");
        }
        std::fs::write(&path, "data = [\"a\"]\nking_buckets = \"mirror8\"\n").unwrap();
        let factorised = flags(&["--factoriser"]);
        let c = RunConfig::resolve(Some(&path), &factorised).unwrap();
        let o = c.options(160.0, false);
        assert_eq!((o.kings.count(), o.factoriser), (8, true));
        assert_eq!(
            o.bucket_decay, o.weight_decay,
            "the default: the weights' decay"
        );
        let decayed = flags(&["--factoriser", "--bucket-decay", "3"]);
        let o = RunConfig::resolve(Some(&path), &decayed)
            .unwrap()
            .options(160.0, false);
        assert_eq!(o.bucket_decay, 3.0);
    }

    /// A written record reads back as itself and as a config file (its extra tables
    /// ignored); a resume with the same settings passes, one with another setting or
    /// another data file is refused naming what changed; `quiet` may change.
    #[test]
    fn a_resume_with_other_settings_is_refused() {
        let data = temp("data.bin");
        std::fs::write(&data, b"0123").unwrap();
        let config = RunConfig {
            data: vec![data.clone()],
            ..RunConfig::default()
        };
        let record = RunRecord::new(&config, config.inputs().unwrap(), 2, 157.5);
        let path = temp("run.toml");
        record.write(&path).unwrap();
        let back = RunRecord::read(&path).unwrap();
        assert_eq!(back, record);
        assert_eq!(
            RunConfig::resolve(Some(&path), &SettingFlags::default()).unwrap(),
            config
        );
        let check = |c: &RunConfig| back.check_resume(c, &c.inputs().unwrap(), &path);
        check(&config).unwrap();
        check(&RunConfig {
            quiet: true,
            ..config.clone()
        })
        .unwrap();
        let e = check(&RunConfig {
            lr: 0.5,
            ..config.clone()
        })
        .unwrap_err();
        assert!(
            format!("{e:#}").contains("lr: the file has 0.001,"),
            "{e:#}"
        );
        std::fs::write(&data, b"4567").unwrap();
        let e = check(&config).unwrap_err();
        assert!(format!("{e:#}").contains("inputs.data_sha256"), "{e:#}");
    }
}
