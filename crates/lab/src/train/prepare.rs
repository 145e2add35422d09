//! The data of a run: the training positions and the held-out set, from the `data` and
//! `held_out` files as the [`RunConfig`] declares them, and the training K.
//!
//! In order: the files are read (at most `max_positions`); the held-out set is the `held_out`
//! files, or else the last `held_out_positions` positions, or else the last `validation` share
//! ([`split_validation`]: whole games at the end, never a random split); the training set is
//! cut to `train_positions`, doubled by `mirror`, and its K fitted ([`data_k`]) unless `k` is
//! given; `k_per_file` puts each file's scores on that K ([`file_factors`]).

use std::time::Instant;

use anyhow::{bail, Result};

use super::config::RunConfig;
use super::data;
use super::sample::TrainingPosition;

/// A run's positions, ready for the loop.
pub struct Prepared {
    pub train: Vec<TrainingPosition>,
    pub held_out: Vec<TrainingPosition>,
    /// The training K: the setting's, or the one fitted to the training positions.
    pub k: f32,
}

/// Reads and splits the data `config` names.
pub fn prepare(config: &RunConfig) -> Result<Prepared> {
    let start = Instant::now();
    let (mut samples, file_counts) = data::load_files(&config.data, config.max_positions)?;
    eprintln!(
        "read {} positions from {} file(s) in {:.1} s",
        samples.len(),
        config.data.len(),
        start.elapsed().as_secs_f64()
    );
    let held_out = if !config.held_out.is_empty() {
        // [train-heldout] A held-out file stays the same yardstick while the training data
        // grows from one generation to the next; the tail of the data would move with it.
        if let Some(both) = config.held_out.iter().find(|h| config.data.contains(h)) {
            bail!("{} is both a data and a held-out file", both.display());
        }
        let held = data::load(&config.held_out, None)?;
        eprintln!(
            "held out: {} positions from {} file(s)",
            held.len(),
            config.held_out.len()
        );
        held
    } else if let Some(n) = config.held_out_positions {
        if n >= samples.len() {
            bail!(
                "held_out_positions = {n} leaves none of the {} positions to train on",
                samples.len()
            );
        }
        samples.split_off(samples.len() - n)
    } else {
        split_validation(&mut samples, config.validation)
    };
    // [train-subset] A smaller training set under the same validation set: the data-size
    // comparison then measures the data, not a different split.
    if let Some(n) = config.train_positions {
        samples.truncate(n);
    }
    let unmirrored = samples.len();
    // [train-mirror] The inputs hold no castling rights, so a position mirrored left to right
    // keeps its score and result (up to castling, which the network cannot see anyway): twice
    // the positions for free, and a network that cannot learn a file bias from a small sample.
    if config.mirror {
        let mirrored: Vec<TrainingPosition> =
            samples.iter().map(TrainingPosition::mirrored).collect();
        samples.extend(mirrored);
    }
    // [train-k] The data's own scale: Augur's centipawns predict its results at K of about
    // 155-160 (docs/tune.md). Trained at K = 400, the result term pulled the network's
    // output towards 400/157 times the search's scale, so the networks rated material about
    // 1.3 times the HCE and their scores misled the search's margins.
    let k = match config.k {
        Some(k) => k as f32,
        None => {
            let k = data_k(&samples);
            eprintln!("K = {k:.1} (fitted to the training positions' scores and results)");
            k
        }
    };
    // [train-kfile] Each source's scores on the scale of its own results. The campaign mixes
    // the HCE's self-play (its scores fit results at K 142-152), the network's (128-141) and
    // match games (105-200): one K turned the same advantage into targets up to 0.07 apart.
    if config.k_per_file {
        let factors = file_factors(&samples[..unmirrored], &file_counts, k);
        for (path, (n, f)) in config.data.iter().zip(&factors) {
            match f {
                Some((kf, f)) => eprintln!(
                    "  {}: {n} positions, K {kf:.1}, scores × {f:.3}",
                    path.display()
                ),
                None => eprintln!(
                    "  {}: {n} positions, too few to fit, as they are",
                    path.display()
                ),
            }
        }
        rescale_by_file(&mut samples, unmirrored, &factors);
    }
    Ok(Prepared {
        train: samples,
        held_out,
        k,
    })
}

/// [train-k] The K at which the samples' search scores best predict their results (mean
/// squared error of sigmoid(score / K) against the result), from at most a million of them
/// spread evenly over the set.
pub fn data_k(samples: &[TrainingPosition]) -> f32 {
    let step = samples.len().div_ceil(1_000_000).max(1);
    let points: Vec<(f64, f64)> = samples
        .iter()
        .step_by(step)
        .map(|s| (f64::from(s.score), f64::from(s.result.value())))
        .collect();
    k_of(&points) as f32
}

/// The K at which search scores (cp) best predict results (1, ½, 0): the fit of [`data_k`] on
/// `(score, result)` pairs, which `heldout` shares so that every loss is on the trainer's scale.
pub fn k_of(points: &[(f64, f64)]) -> f64 {
    let error = |k: f64| {
        points
            .iter()
            .map(|&(score, result)| (1.0 / (1.0 + (-score / k).exp()) - result).powi(2))
            .sum::<f64>()
    };
    crate::kit::regression::minimise_scale(error)
}

/// [train-kfile] Per file: its training positions (the prefix `train` of the concatenation,
/// clipped to each file's range) and, when there are at least 5,000 of them, its own fitted
/// K_f and the factor K / K_f that puts its scores on the common scale.
pub fn file_factors(
    train: &[TrainingPosition],
    counts: &[usize],
    k: f32,
) -> Vec<(usize, Option<(f32, f32)>)> {
    let mut start = 0;
    counts
        .iter()
        .map(|&count| {
            let (lo, hi) = (start.min(train.len()), (start + count).min(train.len()));
            start += count;
            let n = hi - lo;
            let fit = (n >= 5_000).then(|| {
                let kf = data_k(&train[lo..hi]);
                (kf, k / kf)
            });
            (n, fit)
        })
        .collect()
}

/// [train-kfile] Multiplies each training position's score by its file's factor; positions
/// at `unmirrored` and beyond are the mirrored copies of those before it, in the same order.
pub fn rescale_by_file(
    samples: &mut [TrainingPosition],
    unmirrored: usize,
    factors: &[(usize, Option<(f32, f32)>)],
) {
    if unmirrored == 0 {
        return;
    }
    let mut start = 0;
    for &(n, fit) in factors {
        let range = start..start + n;
        start += n;
        let Some((_, f)) = fit else { continue };
        // The positions as read, then (with --mirror) their copies: the same range of each
        // `unmirrored`-long block.
        for block in samples.chunks_mut(unmirrored) {
            for s in &mut block[range.clone()] {
                s.score = (f32::from(s.score) * f)
                    .round()
                    .clamp(f32::from(i16::MIN), f32::from(i16::MAX))
                    as i16;
            }
        }
    }
}

/// Splits off the last `fraction` of `samples` for validation. Datagen files hold whole games
/// one after another, so the tail is whole games that training never sees: positions of one
/// game share its result and look alike, and a random split would leak them.
pub fn split_validation(
    samples: &mut Vec<TrainingPosition>,
    fraction: f64,
) -> Vec<TrainingPosition> {
    let n_val = ((samples.len() as f64) * fraction.clamp(0.0, 0.5)).round() as usize;
    samples.split_off(samples.len() - n_val)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logistic_samples(true_k: f64, per_score: usize) -> Vec<TrainingPosition> {
        use crate::train::sample::Wdl;
        let board = cozy_chess::Board::default();
        let mut out = Vec::new();
        for score in (-600i16..=600).step_by(20) {
            let p = 1.0 / (1.0 + (-f64::from(score) / true_k).exp());
            let wins = (p * per_score as f64).round() as usize;
            for i in 0..per_score {
                let result = if i < wins { Wdl::Win } else { Wdl::Loss };
                out.push(TrainingPosition::from_board(&board, score, result).unwrap());
            }
        }
        out
    }

    /// [train-k] Samples whose results follow sigmoid(score / 160) give K = 160 back; a
    /// set whose results follow the scores more loosely gives a larger K.
    #[test]
    fn data_k_is_the_scale_at_which_the_scores_predict_the_results() {
        for true_k in [160.0, 400.0] {
            let k = f64::from(data_k(&logistic_samples(true_k, 200)));
            assert!((k - true_k).abs() < 0.03 * true_k, "{true_k}: {k}");
        }
    }

    /// [train-kfile] Two files whose results follow their scores at K = 100 and K = 220, and a
    /// third too small to fit: after the rescale to K = 150 each fitted file fits at about
    /// 150, the small file is untouched, and a mirrored copy gets its original's factor.
    #[test]
    fn per_file_k_puts_every_file_on_the_training_scale() {
        let file = logistic_samples;
        let (a, b, c) = (file(100.0, 200), file(220.0, 200), file(100.0, 20));
        let counts = [a.len(), b.len(), c.len()];
        let mut samples: Vec<TrainingPosition> = [a.clone(), b.clone(), c.clone()].concat();
        let train = samples.len() - 5; // the last five are "held out"
        samples.truncate(train);
        let mirrored: Vec<TrainingPosition> = samples.iter().map(|s| s.mirrored()).collect();
        samples.extend(mirrored);
        let factors = file_factors(&samples[..train], &counts, 150.0);
        assert_eq!(factors.len(), 3);
        let (ka, fa) = factors[0].1.unwrap();
        let (kb, fb) = factors[1].1.unwrap();
        assert!(
            (ka - 100.0).abs() < 3.0 && (kb - 220.0).abs() < 6.6,
            "{ka} {kb}"
        );
        assert!((fa - 150.0 / ka).abs() < 1e-6 && (fb - 150.0 / kb).abs() < 1e-6);
        assert_eq!(factors[2], (c.len() - 5, None));
        rescale_by_file(&mut samples, train, &factors);
        for (range, kf) in [(0..a.len(), ka), (a.len()..a.len() + b.len(), kb)] {
            let k = f64::from(data_k(&samples[range.clone()]));
            assert!((k - 150.0).abs() < 0.05 * 150.0, "{kf}: {k}");
            let twin = f64::from(data_k(&samples[range.start + train..range.end + train]));
            assert_eq!(k, twin);
        }
        let small = a.len() + b.len()..train;
        assert!(samples[small.clone()]
            .iter()
            .zip(&c)
            .all(|(s, o)| s.score == o.score));
        assert!(samples[small.start + train..]
            .iter()
            .zip(&c)
            .all(|(s, o)| s.score == o.score));
    }
}
