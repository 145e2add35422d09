//! The loop: AdamW over the training positions, a fresh seeded order each epoch, the held-out
//! loss of each epoch's written network, a checkpoint after every epoch (`--resume`) and the
//! best epoch's float model (`best.ckpt`, for a later run's `init`).
//!
//! Batches are split over the threads: each thread sums the gradient of its share into its
//! own buffer, the buffers are added, and one AdamW step follows. With the same seed and
//! thread count a run is reproducible, resumed or not.

use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::checkpoint::{self, Checkpoint};
use super::config::TrainOptions;
use super::model::{mean_loss, Layout, Model, Scratch};
use super::optim::AdamW;
use super::output::{
    best_epoch, loss_chart, rounding_name, write_history, written_network, TrainReport,
};
use super::sample::TrainingPosition;
use super::update;

// [train-init] A network of an earlier generation as the starting point: its validation loss
// on this run's data is the yardstick the new network must beat, and fine-tuning it keeps
// what it learnt from data that may no longer exist.
fn initial_model(path: &Path, opts: &TrainOptions) -> Result<Model> {
    let bytes = std::fs::read(path).with_context(|| format!("--init {}", path.display()))?;
    // [train-init] A checkpoint carries the float model a network file was rounded from:
    // a fine-tune that moves weights by less than a rounding step keeps those moves only if
    // the next turn starts from it rather than from the file.
    if checkpoint::is_checkpoint(&bytes) {
        let model = Checkpoint::from_bytes(&bytes, opts.weight_decay)
            .with_context(|| format!("--init {}", path.display()))?
            .model;
        let model = factorised(widened_to(model, opts), opts);
        check_shape(&model, opts, path)?;
        return Ok(model);
    }
    let net = augur::eval::nnue::Network::from_bytes(&bytes)
        .with_context(|| format!("--init {}", path.display()))?;
    let model = factorised(widened_to(Model::from_network(&net), opts), opts);
    check_shape(&model, opts, path)?;
    if f32::from(net.quantisation().scale) != opts.loss.scale {
        bail!(
            "--init {}: output scale {} differs from the trainer's {}",
            path.display(),
            net.quantisation().scale,
            opts.loss.scale
        );
    }
    Ok(model)
}

// [train-rebucket] Output buckets lost when they were trained from scratch on 0.77M positions
// (docs/nnue.md); a network trained on millions since can still gain them: an `--init` with one
// output and `--output-buckets B` starts every bucket from that output, the same evaluation.
fn widened_to(model: Model, opts: &TrainOptions) -> Model {
    match model.widened(opts.buckets) {
        Some(wide) => {
            eprintln!(
                "--init: its one output layer copied into {} output buckets",
                opts.buckets
            );
            wide
        }
        None => model,
    }
}

/// [train-factoriser] A start without a factoriser gains a zero one when the run trains one.
fn factorised(model: Model, opts: &TrainOptions) -> Model {
    if opts.factoriser && !model.layout.factoriser {
        model.with_factoriser()
    } else {
        model
    }
}

/// The run's layout of parameters.
fn layout_of(opts: &TrainOptions) -> Layout {
    Layout {
        kings: opts.kings,
        factoriser: opts.factoriser,
        ..Layout::plain(opts.hidden, opts.buckets)
    }
}

/// A network this run did not create (a checkpoint to resume, an `--init` file) must have
/// the shape the run trains.
fn check_shape(model: &Model, opts: &TrainOptions, source: &Path) -> Result<()> {
    let have = (model.hidden(), model.buckets(), model.activation);
    let (l, want) = (model.layout, layout_of(opts));
    if (l.kings, l.factoriser) != (want.kings, want.factoriser) {
        let name = |k: &augur::eval::nnue::KingBuckets| {
            k.name()
                .map_or(format!("{} mirrored", k.count()), str::to_string)
        };
        bail!(
            "{} holds a network with king buckets {}{}, this run asks for {}{}",
            source.display(),
            name(&l.kings),
            if l.factoriser {
                " and a factoriser"
            } else {
                ""
            },
            name(&want.kings),
            if want.factoriser {
                " and a factoriser"
            } else {
                ""
            },
        );
    }
    if have != (opts.hidden, opts.buckets, opts.activation) {
        bail!(
            "{} holds a H={} {} network with {} output bucket(s), this run asks for H={} {} with {}",
            source.display(),
            have.0,
            have.2.name(),
            have.1,
            opts.hidden,
            opts.activation.name(),
            opts.buckets
        );
    }
    Ok(())
}

/// Trains on `train` (in a fresh seeded order each epoch), validates on `val`, writes
/// checkpoints, per-epoch networks, `loss.csv` and the loss chart into `out`.
pub fn train(
    train: &[TrainingPosition],
    val: &[TrainingPosition],
    opts: &TrainOptions,
    out: &Path,
) -> Result<TrainReport> {
    if train.is_empty() {
        bail!("no training positions");
    }
    if train.len() > u32::MAX as usize {
        bail!(
            "{} training positions: at most 2^32 - 1 in one run",
            train.len()
        );
    }
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let ck_path = out.join("checkpoint.ckpt");
    let mut ck = if opts.resume && ck_path.exists() {
        let ck = Checkpoint::load(&ck_path, opts.weight_decay)?;
        check_shape(&ck.model, opts, &ck_path)?;
        eprintln!(
            "resuming from {} after epoch {}",
            ck_path.display(),
            ck.epochs_done
        );
        ck
    } else {
        let model = match &opts.init {
            Some(path) => initial_model(path, opts)?,
            None => Model::with_layout(layout_of(opts), opts.activation, opts.seed),
        };
        let opt = AdamW::new(model.params.len(), opts.weight_decay);
        Checkpoint {
            model,
            opt,
            epochs_done: 0,
            history: Vec::new(),
        }
    };
    // [train-bucket-decay] The run's setting, whether the optimiser is new or resumed.
    ck.opt.bucket_decay = opts.bucket_decay;
    let threads = opts.threads.max(1);
    let initial_val_loss = mean_loss(&ck.model, val, &opts.val_loss, threads);
    eprintln!(
        "{} training, {} validation positions; H={} {}; initial validation loss {:.6}",
        train.len(),
        val.len(),
        opts.hidden,
        opts.activation.name(),
        initial_val_loss
    );

    let batches = train.len().div_ceil(opts.batch);
    let remaining = opts.epochs.saturating_sub(ck.epochs_done);
    let bar = if opts.progress {
        ProgressBar::new((remaining * train.len()) as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {human_pos}/{human_len} pos {per_sec} eta {eta} {msg}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    let layout = ck.model.layout;
    // [train-fold] The gradient pass runs on the model with its factoriser folded in, folded
    // again after each step ([train-step]); the folded model and the threads' gradients are
    // buffers kept across batches.
    let mut folded = ck.model.folded();
    let mut grads: Vec<Vec<f32>> = vec![vec![0.0; layout.folded().len()]; threads];
    let mut scratches: Vec<Scratch> = (0..threads).map(|_| Scratch::new(opts.hidden)).collect();
    let start = Instant::now();
    let mut trained = 0usize;
    let mut last_val = ck.history.last().map_or(initial_val_loss, |h| h.1);
    // [train-qcal] A fixed sample of the training positions, spread evenly over them.
    let calibration: Vec<TrainingPosition> = train
        .iter()
        .step_by(train.len().div_ceil(CALIBRATION_POSITIONS))
        .copied()
        .collect();
    let mut order: Vec<u32> = Vec::with_capacity(train.len());
    let mut batch: Vec<TrainingPosition> = Vec::with_capacity(opts.batch);

    for epoch in ck.epochs_done..opts.epochs {
        // Each epoch's order depends only on the seed and the epoch: resuming reproduces it.
        let mut rng = rand::rngs::SmallRng::seed_from_u64(
            opts.seed ^ (epoch as u64 + 1).wrapping_mul(0x9E37_79B9),
        );
        order.clear();
        order.extend(0..train.len() as u32);
        order.shuffle(&mut rng);
        let mut epoch_loss = 0.0f64;
        for (b, indices) in order.chunks(opts.batch).enumerate() {
            batch.clear();
            batch.extend(indices.iter().map(|&i| train[i as usize]));
            let batch = &batch[..];
            let lr = opts.schedule.at(epoch as f64 + b as f64 / batches as f64);
            let part = batch.len().div_ceil(threads);
            let model = &folded;
            let loss_cfg = &opts.loss;
            let loss: f64 = std::thread::scope(|s| {
                let handles: Vec<_> = batch
                    .chunks(part)
                    .zip(grads.iter_mut())
                    .zip(scratches.iter_mut())
                    .map(|((samples, grad), scratch)| {
                        s.spawn(move || {
                            grad.fill(0.0);
                            model.backward(samples, loss_cfg, grad, scratch)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("gradient thread"))
                    .sum()
            });
            let used = batch.len().div_ceil(part);
            let scale = 1.0 / batch.len() as f32;
            update::step(
                &mut ck.model,
                &mut folded,
                &mut ck.opt,
                &grads[..used],
                scale,
                lr,
                threads,
            );
            epoch_loss += loss;
            trained += batch.len();
            bar.inc(batch.len() as u64);
            bar.set_message(format!(
                "epoch {}/{} lr {lr:.2e} train {:.6} val {last_val:.6}",
                epoch + 1,
                opts.epochs,
                epoch_loss / ((b * opts.batch + batch.len()) as f64)
            ));
        }
        let train_loss = epoch_loss / train.len() as f64;
        let float_val = mean_loss(&ck.model, val, &opts.val_loss, threads);
        let written = written_network(&ck.model, opts, &calibration, val, threads)?;
        last_val = written.val_loss;
        // The epoch's file before the checkpoint that counts the epoch done: a resumed run
        // finds every finished epoch's network on disk.
        let epoch_net = out.join(format!("epoch-{}.nnue", epoch + 1));
        std::fs::write(&epoch_net, written.net.to_bytes())
            .with_context(|| format!("writing {}", epoch_net.display()))?;
        ck.history.push((train_loss, last_val));
        ck.epochs_done = epoch + 1;
        ck.save(&ck_path)?;
        // [train-best] The kept epoch's float model, for a later run's --init.
        if best_epoch(&ck.history) == Some(epoch + 1) {
            ck.save(&out.join("best.ckpt"))?;
        }
        bar.suspend(|| {
            eprintln!(
                "epoch {:>3}: train loss {train_loss:.6}  validation loss {last_val:.6} (float {float_val:.6}, {})  ({:.0} s)",
                epoch + 1,
                rounding_name(written.rounding),
                start.elapsed().as_secs_f64()
            )
        });
        write_history(&ck.history, out)?;
    }
    bar.finish_and_clear();

    let net_path = opts.net.clone().unwrap_or_else(|| out.join("augur.nnue"));
    if let Some(dir) = net_path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    // [train-best] Early stopping: with little data the validation loss turns up while the
    // training loss still falls, so the network to keep is the best epoch's. Every epoch's
    // network is already on disk as OUT/epoch-N.nnue (also after a resume), the last one
    // included, so the file is read, not written again.
    let kept = match best_epoch(&ck.history).filter(|_| opts.keep_best) {
        Some(e) => {
            eprintln!("keeping epoch {e} (lowest validation loss)");
            e
        }
        None => ck.history.len(),
    };
    let path = out.join(format!("epoch-{kept}.nnue"));
    let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    std::fs::write(&net_path, bytes).with_context(|| format!("writing {}", net_path.display()))?;
    if !ck.history.is_empty() {
        loss_chart(&ck.history).save(out, "loss")?;
    }
    Ok(TrainReport {
        initial_val_loss,
        history: ck.history,
        trained_positions: trained,
        seconds: start.elapsed().as_secs_f64(),
        net_path,
        model: ck.model,
    })
}

/// How many training positions [train-qcal]'s bias correction averages over.
const CALIBRATION_POSITIONS: usize = 65_536;

#[cfg(test)]
mod tests {
    use super::super::model::{LossConfig, Rounding};
    use super::super::optim::{LrSchedule, Schedule};
    use super::super::output::rounded_network;
    use super::super::prepare::split_validation;
    use super::super::sample::{self, material_samples};
    use super::*;
    use augur::eval::nnue::{Activation, Quantisation};
    use std::path::PathBuf;

    fn options(hidden: usize, epochs: usize) -> TrainOptions {
        TrainOptions {
            quant: Quantisation::STANDARD,
            hidden,
            buckets: 1,
            kings: augur::eval::nnue::KingBuckets::NONE,
            factoriser: false,
            activation: Activation::SCReLU,
            epochs,
            batch: 256,
            schedule: LrSchedule {
                kind: Schedule::Cosine,
                lr: 0.01,
                epochs,
                step_every: 1,
                gamma: 0.5,
                final_fraction: 0.1,
            },
            weight_decay: 0.0,
            bucket_decay: 0.0,
            loss: LossConfig {
                lambda: 0.0,
                ..LossConfig::default()
            },
            val_loss: LossConfig {
                lambda: 0.0,
                ..LossConfig::default()
            },
            threads: 2,
            seed: 1,
            resume: false,
            init: None,
            progress: false,
            net: None,
            keep_best: false,
            rounding: Rounding::Bias,
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("augur-train-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    /// The trainer fits material balance: validation loss falls far below the start, and on
    /// fresh positions the quantised network in the engine tracks the material count.
    #[test]
    fn fits_a_synthetic_material_target() {
        let mut data = material_samples(40_000, 7);
        let val = split_validation(&mut data, 0.1);
        let out = temp_dir("fit");
        let r = train(&data, &val, &options(32, 6), &out).unwrap();
        let last = r.history.last().unwrap().1;
        assert!(
            last < r.initial_val_loss * 0.05,
            "validation loss {} -> {last}",
            r.initial_val_loss
        );
        let net = augur::eval::nnue::Network::load(&r.net_path).unwrap();
        let (mut err, mut n) = (0.0, 0);
        for (board, cp) in material_boards(400, 99) {
            if cp.abs() <= 600 {
                err += (augur::eval::nnue::evaluate_board(&net, &board) - cp).abs() as f64;
                n += 1;
            }
        }
        let mae = err / n as f64;
        assert!(mae < 60.0, "mean error {mae:.1} cp over {n} positions");
        for f in [
            "loss.csv",
            "loss.svg",
            "loss.png",
            "checkpoint.ckpt",
            "epoch-6.nnue",
        ] {
            assert!(out.join(f).exists(), "{f}");
        }
        std::fs::remove_dir_all(&out).unwrap();
    }

    /// Boards from random games with their material balance (cp, side to move).
    fn material_boards(n: usize, seed: u64) -> Vec<(cozy_chess::Board, i32)> {
        use rand::Rng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut b = cozy_chess::Board::default();
            for _ in 0..rng.random_range(10..120) {
                let mut moves = Vec::new();
                b.generate_moves(|pm| {
                    moves.extend(pm);
                    false
                });
                if moves.is_empty() {
                    break;
                }
                b.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            let s = TrainingPosition::from_board(&b, 0, sample::Wdl::Draw).unwrap();
            let stm = b.side_to_move();
            let value = |c| {
                use cozy_chess::Piece::*;
                [(Pawn, 1), (Knight, 3), (Bishop, 3), (Rook, 5), (Queen, 9)]
                    .iter()
                    .map(|&(p, v)| v * b.colored_pieces(c, p).len() as i32)
                    .sum::<i32>()
            };
            let cp = 100 * (value(stm) - value(!stm));
            assert!(s.count > 0);
            out.push((b, cp));
        }
        out
    }

    /// The engine's integer inference of the written file against the trainer's float forward
    /// pass, on real game positions (both sides to move): equal up to quantisation error, and
    /// within integer rounding of the float pass over the rounded weights.
    #[test]
    fn quantised_engine_inference_matches_the_float_network() {
        let mut data = material_samples(6000, 3);
        let val = split_validation(&mut data, 0.1);
        let out = temp_dir("quant");
        let text = include_str!("../../data/games-sample300.epd");
        let lines = crate::data::epd::parse_epd(text, "games-sample300.epd").unwrap();
        // [nnue-buckets] and a bucketed network: the engine picks the bucket the trainer did.
        // [train-qb] and a finer output quantisation, QB 128. [train-qround] and the
        // compensated rounding, with one bucket and with eight.
        for (activation, buckets, qb, rounding) in [
            (Activation::SCReLU, 1, 64, Rounding::Bias),
            (Activation::CReLU, 1, 64, Rounding::Bias),
            (Activation::SCReLU, 8, 64, Rounding::Bias),
            (Activation::SCReLU, 1, 128, Rounding::Bias),
            (Activation::SCReLU, 1, 64, Rounding::Compensated),
            (Activation::SCReLU, 8, 64, Rounding::Compensated),
            (Activation::SCReLU, 8, 64, Rounding::Best),
        ] {
            let mut opts = options(64, 3);
            opts.activation = activation;
            opts.buckets = buckets;
            opts.quant.qb = qb;
            opts.rounding = rounding;
            let r = train(&data, &val, &opts, &out).unwrap();
            let net = augur::eval::nnue::Network::load(&r.net_path).unwrap();
            assert_eq!(net.quantisation().qb, qb);
            // [train-qcal] The file holds the bias-corrected model, rounded, or [train-qround]
            // the compensated one (the whole training slice is the calibration sample at this
            // size).
            let rounded = Model::from_network(
                &written_network(&r.model, &opts, &data, &val, 1)
                    .unwrap()
                    .net,
            );
            let mut scratch = Scratch::new(64);
            let (mut worst, mut total, mut worst_rounded) = (0.0f64, 0.0f64, 0.0f64);
            for l in &lines {
                let board: cozy_chess::Board = format!("{} 0 1", l.fen).parse().unwrap();
                let s = TrainingPosition::from_board(&board, 0, sample::Wdl::Draw).unwrap();
                let scale = opts.loss.scale as f64;
                let float_cp = r.model.forward(&s, &mut scratch) as f64 * scale;
                let rounded_cp = rounded.forward(&s, &mut scratch) as f64 * scale;
                let int_cp = augur::eval::nnue::evaluate_board(&net, &board) as f64;
                worst = worst.max((float_cp - int_cp).abs());
                total += (float_cp - int_cp).abs();
                worst_rounded = worst_rounded.max((rounded_cp - int_cp).abs());
            }
            let mean = total / lines.len() as f64;
            eprintln!("{activation:?}: float vs int mean {mean:.2} cp, worst {worst:.2} cp, rounded worst {worst_rounded:.2}");
            assert!(
                worst_rounded < 1.5,
                "{activation:?}: rounded weights differ by {worst_rounded:.2} cp"
            );
            assert!(
                mean < 15.0 && worst < 40.0,
                "{activation:?}: mean {mean:.2} cp, worst {worst:.2} cp"
            );
            std::fs::remove_dir_all(&out).unwrap();
        }
    }

    /// [nnue-kings] [train-factoriser] An 8-bucket mirrored layout with a factoriser learns
    /// from a few thousand positions (held-out loss falls), writes a version 3 file the
    /// engine reads, whose integer evaluation tracks the float model; its checkpoint carries
    /// the layout, and a resume with another layout is refused.
    #[test]
    fn a_king_bucketed_network_trains_and_writes_version_3() {
        let mut data = material_samples(6000, 11);
        let val = split_validation(&mut data, 0.1);
        let out = temp_dir("kings");
        let kings = augur::eval::nnue::KingBuckets::layout("mirror8").unwrap();
        let mut opts = options(32, 4);
        opts.kings = kings;
        opts.buckets = 2;
        // Without the factoriser first, for the record (each bucket sees an eighth of
        // the data at most).
        let alone = train(&data, &val, &opts, &out).unwrap();
        opts.factoriser = true;
        let r = train(&data, &val, &opts, &out).unwrap();
        let last = r.history.last().unwrap().1;
        eprintln!(
            "mirror8: validation loss {:.5} -> {last:.5} with the factoriser, {:.5} without",
            r.initial_val_loss,
            alone.history.last().unwrap().1
        );
        assert!(
            last < r.initial_val_loss * 0.85,
            "validation loss {} -> {last}",
            r.initial_val_loss
        );
        let bytes = std::fs::read(&r.net_path).unwrap();
        assert_eq!((bytes[8], bytes[22]), (3, 8), "a version 3 file with K = 8");
        let net = augur::eval::nnue::Network::from_bytes(&bytes).unwrap();
        assert_eq!((net.king_buckets(), net.buckets()), (&kings, 2));
        let text = include_str!("../../data/games-sample300.epd");
        let lines = crate::data::epd::parse_epd(text, "games-sample300.epd").unwrap();
        let mut scratch = Scratch::new(32);
        let (mut worst, mut total) = (0.0f64, 0.0f64);
        for l in &lines {
            let board: cozy_chess::Board = format!("{} 0 1", l.fen).parse().unwrap();
            let s = TrainingPosition::from_board(&board, 0, sample::Wdl::Draw).unwrap();
            let float_cp = r.model.forward(&s, &mut scratch) as f64 * opts.loss.scale as f64;
            let int_cp = augur::eval::nnue::evaluate_board(&net, &board) as f64;
            worst = worst.max((float_cp - int_cp).abs());
            total += (float_cp - int_cp).abs();
        }
        let mean = total / lines.len() as f64;
        assert!(
            mean < 15.0 && worst < 40.0,
            "mean {mean:.2} cp, worst {worst:.2} cp"
        );
        let ck = Checkpoint::load(&out.join("checkpoint.ckpt"), 0.0).unwrap();
        assert_eq!(ck.model.layout, r.model.layout);
        assert!(ck.model.layout.factoriser);
        let mut other = opts.clone();
        other.resume = true;
        other.kings = augur::eval::nnue::KingBuckets::layout("mirror4").unwrap();
        let err = train(&data, &val, &other, &out).unwrap_err().to_string();
        assert!(err.contains("king buckets"), "{err}");
        std::fs::remove_dir_all(&out).unwrap();
    }

    /// [train-qround] `--rounding best` writes the model all three ways (nearest,
    /// bias-corrected, compensated) and keeps the file with the lowest validation loss; the
    /// loss the history records is that file's.
    #[test]
    fn best_rounding_keeps_the_lowest_validation_loss() {
        let mut data = material_samples(3000, 7);
        let val = split_validation(&mut data, 0.1);
        let out = temp_dir("best-rounding");
        let mut opts = options(32, 2);
        opts.rounding = Rounding::Best;
        let r = train(&data, &val, &opts, &out).unwrap();
        // The whole training slice is the calibration sample at this size.
        let loss = |rounding| {
            let net = rounded_network(&r.model, rounding, &opts, &data).unwrap();
            mean_loss(&Model::from_network(&net), &val, &opts.val_loss, 1)
        };
        let losses = [
            loss(Rounding::Nearest),
            loss(Rounding::Bias),
            loss(Rounding::Compensated),
        ];
        let lowest = losses.iter().copied().fold(f64::INFINITY, f64::min);
        assert!(
            losses
                .iter()
                .filter(|&&l| (l - lowest).abs() < 1e-12)
                .count()
                == 1,
            "the roundings must differ for the choice to be tested: {losses:?}"
        );
        let file = augur::eval::nnue::Network::load(&r.net_path).unwrap();
        let written = mean_loss(&Model::from_network(&file), &val, &opts.val_loss, 1);
        assert_eq!(written, lowest);
        assert_eq!(r.history.last().unwrap().1, written);
        std::fs::remove_dir_all(&out).unwrap();
    }

    /// [train-init] A network file read back as a float model is the trained model with its
    /// weights rounded to the file's steps; a run started from it (`init`) reports that
    /// network's validation loss as its initial loss; a network of another size is refused.
    #[test]
    fn init_starts_from_a_network_file() {
        let mut data = material_samples(3000, 5);
        let val = split_validation(&mut data, 0.1);
        let out = temp_dir("init");
        let r = train(&data, &val, &options(32, 2), &out).unwrap();
        let net = augur::eval::nnue::Network::load(&r.net_path).unwrap();
        let back = Model::from_network(&net);
        let rounded = Model::from_network(
            &written_network(&r.model, &options(32, 2), &data, &val, 1)
                .unwrap()
                .net,
        );
        assert_eq!(back.params.len(), rounded.params.len());
        for (i, (a, b)) in back.params.iter().zip(&rounded.params).enumerate() {
            assert!((a - b).abs() < 1e-5, "param {i}: {a} vs {b}");
        }
        let mut again = options(32, 1);
        again.init = Some(r.net_path.clone());
        let out2 = temp_dir("init2");
        let r2 = train(&data, &val, &again, &out2).unwrap();
        let expect = mean_loss(&back, &val, &again.val_loss, 1);
        assert!((r2.initial_val_loss - expect).abs() < 1e-9);
        let out3 = refuses_another_size(&r.net_path, &data, &val, "init3");
        for d in [out, out2, out3] {
            let _ = std::fs::remove_dir_all(d);
        }
    }

    /// [train-init] best.ckpt holds the float model of the epoch with the lowest validation
    /// loss (its file is that model corrected and rounded); a run started from it begins
    /// from the unrounded float model, its initial loss that model's own; a checkpoint of
    /// another size is refused.
    #[test]
    fn init_from_a_checkpoint_starts_from_the_float_model() {
        let mut data = material_samples(3000, 6);
        let val = split_validation(&mut data, 0.1);
        let out = temp_dir("ckinit");
        let r = train(&data, &val, &options(32, 3), &out).unwrap();
        let best = best_epoch(&r.history).unwrap();
        let ck = Checkpoint::load(&out.join("best.ckpt"), 0.0).unwrap();
        assert_eq!(ck.epochs_done, best);
        let file =
            augur::eval::nnue::Network::load(&out.join(format!("epoch-{best}.nnue"))).unwrap();
        let expect = Model::from_network(
            &written_network(&ck.model, &options(32, 2), &data, &val, 1)
                .unwrap()
                .net,
        );
        for (a, b) in Model::from_network(&file).params.iter().zip(&expect.params) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
        let mut again = options(32, 1);
        again.init = Some(out.join("best.ckpt"));
        let out2 = temp_dir("ckinit2");
        let r2 = train(&data, &val, &again, &out2).unwrap();
        let float = mean_loss(&ck.model, &val, &again.val_loss, 1);
        assert!((r2.initial_val_loss - float).abs() < 1e-12);
        let rounded = mean_loss(&Model::from_network(&file), &val, &again.val_loss, 1);
        assert!(
            (r2.initial_val_loss - rounded).abs() > 1e-9,
            "the float model, not the file"
        );
        let out3 = refuses_another_size(&out.join("best.ckpt"), &data, &val, "ckinit3");
        for d in [out, out2, out3] {
            let _ = std::fs::remove_dir_all(d);
        }
    }

    /// [train-rebucket] A one-output checkpoint started with `--output-buckets 8` begins as
    /// eight copies of its output (the same loss to the last bit of rounding, every bucket's
    /// weights equal), trains them apart, and writes a network of eight buckets; a bucketed
    /// model is not widened again (another count is refused).
    #[test]
    fn init_widens_one_output_into_buckets() {
        let mut data = material_samples(3000, 12);
        let val = split_validation(&mut data, 0.1);
        let out = temp_dir("rebucket");
        train(&data, &val, &options(32, 2), &out).unwrap();
        let ck = Checkpoint::load(&out.join("best.ckpt"), 0.0).unwrap();
        let wide = ck.model.widened(8).unwrap();
        assert_eq!(wide.buckets(), 8);
        for b in 1..8 {
            assert_eq!(
                wide.params[wide.layout.bucket_weights(b)],
                wide.params[wide.layout.bucket_weights(0)]
            );
        }
        let narrow_loss = mean_loss(&ck.model, &val, &options(32, 1).val_loss, 1);
        let wide_loss = mean_loss(&wide, &val, &options(32, 1).val_loss, 1);
        assert!(
            (narrow_loss - wide_loss).abs() < 1e-12,
            "{narrow_loss} vs {wide_loss}"
        );
        assert!(wide.widened(4).is_none() && ck.model.widened(1).is_none());

        let mut again = options(32, 2);
        again.buckets = 8;
        again.init = Some(out.join("best.ckpt"));
        let out2 = temp_dir("rebucket2");
        let r = train(&data, &val, &again, &out2).unwrap();
        assert!((r.initial_val_loss - narrow_loss).abs() < 1e-12);
        assert_eq!(r.model.buckets(), 8);
        let net = augur::eval::nnue::Network::load(&r.net_path).unwrap();
        assert_eq!(net.buckets(), 8);
        let trained = &r.model;
        assert!(
            (1..8).any(|b| trained.params[trained.layout.bucket_weights(b)]
                != trained.params[trained.layout.bucket_weights(0)]),
            "the buckets trained apart"
        );

        let mut other = options(32, 1);
        other.buckets = 4;
        other.init = Some(out2.join("best.ckpt"));
        let out3 = temp_dir("rebucket3");
        let e = train(&data, &val, &other, &out3).unwrap_err();
        assert!(format!("{e:#}").contains("8 output bucket(s)"), "{e:#}");
        for d in [out, out2, out3] {
            let _ = std::fs::remove_dir_all(d);
        }
    }

    /// [train-init] A run of H = 64 started from `init` (an H = 32 network or checkpoint) is
    /// refused with a message naming the size it holds; returns the run's folder.
    fn refuses_another_size(
        init: &Path,
        data: &[TrainingPosition],
        val: &[TrainingPosition],
        dir: &str,
    ) -> PathBuf {
        let mut wrong = options(64, 1);
        wrong.init = Some(init.to_path_buf());
        let out = temp_dir(dir);
        let e = train(data, val, &wrong, &out).unwrap_err();
        assert!(format!("{e:#}").contains("H=32"), "{e:#}");
        out
    }

    /// [train-best] With early stopping the final file is the best validation epoch's.
    #[test]
    fn keep_best_writes_the_best_epochs_network() {
        assert_eq!(best_epoch(&[(0.3, 0.2), (0.2, 0.1), (0.1, 0.15)]), Some(2));
        assert_eq!(best_epoch(&[]), None);
        let data = material_samples(3000, 8);
        // Labels opposite to the training data's: the more the network learns, the worse it
        // validates, so the best epoch is the first and not the last.
        let val: Vec<TrainingPosition> = material_samples(300, 9)
            .into_iter()
            .map(|mut s| {
                s.score = -s.score;
                s.result = match s.result {
                    sample::Wdl::Win => sample::Wdl::Loss,
                    sample::Wdl::Loss => sample::Wdl::Win,
                    d => d,
                };
                s
            })
            .collect();
        let out = temp_dir("best");
        let mut opts = options(16, 3);
        opts.keep_best = true;
        let r = train(&data, &val, &opts, &out).unwrap();
        let best = best_epoch(&r.history).unwrap();
        assert_eq!(best, 1, "{:?}", r.history);
        let kept = std::fs::read(&r.net_path).unwrap();
        assert_eq!(
            kept,
            std::fs::read(out.join(format!("epoch-{best}.nnue"))).unwrap()
        );
        std::fs::remove_dir_all(&out).unwrap();
    }

    /// Stopping after two epochs and resuming gives the same network as four epochs in one go.
    #[test]
    fn resuming_reproduces_an_uninterrupted_run() {
        let data = material_samples(3000, 8);
        let val = material_samples(300, 9);
        let whole = temp_dir("whole");
        let a = train(&data, &val, &options(16, 4), &whole).unwrap();

        let parts = temp_dir("parts");
        let mut first = options(16, 4);
        first.epochs = 2;
        // The schedule still spans four epochs, as the interrupted run's did.
        first.schedule.epochs = 4;
        train(&data, &val, &first, &parts).unwrap();
        let mut second = options(16, 4);
        second.resume = true;
        let b = train(&data, &val, &second, &parts).unwrap();
        assert_eq!(a.model, b.model);
        assert_eq!(a.history, b.history);
        assert_eq!(b.trained_positions, 2 * data.len());
        let mut wrong = options(32, 4);
        wrong.resume = true;
        assert!(train(&data, &val, &wrong, &parts).is_err());
        std::fs::remove_dir_all(&whole).unwrap();
        std::fs::remove_dir_all(&parts).unwrap();
    }
}
