//! Texel's method with a gradient: the evaluation is linear in its weights (`Trace`), so
//! its prediction sigmoid(eval / K) can be fitted to the game results by gradient descent.
//! The loss is the mean squared error between sigmoid(eval / K) and the target
//! λ·result + (1 − λ)·sigmoid(score / K) (the result alone where the data has no score);
//! K is fitted first, on the results, with the starting weights; Adam does the descent.

use augur::eval::tapered::layout::COUNT;
use augur::eval::tapered::Score;

use super::dataset::{Dataset, Entry};
use augur_arena::matchmaking::schedule::SplitMix64;

/// One (middle game, endgame) pair per weight, in the flat order of `layout`.
pub type Weights = Vec<[f64; 2]>;

pub fn from_engine(w: &[Score; COUNT]) -> Weights {
    w.iter().map(|s| [s.0 as f64, s.1 as f64]).collect()
}

/// Rounded to the engine's integers.
pub fn to_engine(w: &Weights) -> [Score; COUNT] {
    let mut out = [Score::default(); COUNT];
    for (o, p) in out.iter_mut().zip(w) {
        *o = Score(p[0].round() as i32, p[1].round() as i32);
    }
    out
}

#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The two parameters of the loss.
#[derive(Clone, Copy, Debug)]
pub struct Objective {
    /// Centipawns per unit of the sigmoid's argument.
    pub k: f64,
    /// Weight of the game result against the search score in the target.
    pub lambda: f64,
}

impl Objective {
    #[inline]
    pub fn target(&self, e: &Entry) -> f64 {
        let result = e.result as f64;
        match e.score {
            Some(s) => self.lambda * result + (1.0 - self.lambda) * sigmoid(s as f64 / self.k),
            None => result,
        }
    }
}

/// The evaluation for white as the engine computes it, in floating point: the weighted sum
/// blended by phase, and the drawish-ending scale of the side it favours. Also returns the
/// derivative's common factor (the scale).
#[inline]
pub fn evaluate(ds: &Dataset, e: &Entry, w: &Weights) -> (f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in ds.coeffs(e) {
        let p = &w[i as usize];
        mg += c as f64 * p[0];
        eg += c as f64 * p[1];
    }
    let phase = e.mg as f64;
    let linear = phase * mg + (1.0 - phase) * eg;
    let strong = usize::from(linear <= 0.0);
    let scale = if e.drawish[strong] { 0.125 } else { 1.0 };
    (linear * scale, scale)
}

/// `f` over `threads` slices of `idx`, results in slice order.
fn parallel<T: Send>(idx: &[usize], threads: usize, f: impl Fn(&[usize]) -> T + Sync) -> Vec<T> {
    let per = idx.len().div_ceil(threads.max(1)).max(1);
    if idx.len() <= per {
        return vec![f(idx)];
    }
    std::thread::scope(|s| {
        let f = &f;
        let handles: Vec<_> = idx.chunks(per).map(|c| s.spawn(move || f(c))).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("tuner thread panicked"))
            .collect()
    })
}

/// Mean loss over the entries `idx`.
pub fn loss(ds: &Dataset, idx: &[usize], w: &Weights, obj: Objective, threads: usize) -> f64 {
    if idx.is_empty() {
        return f64::NAN;
    }
    let sums = parallel(idx, threads, |part| {
        part.iter()
            .map(|&i| {
                let e = &ds.entries[i];
                let p = sigmoid(evaluate(ds, e, w).0 / obj.k);
                (p - obj.target(e)).powi(2)
            })
            .sum::<f64>()
    });
    sums.iter().sum::<f64>() / idx.len() as f64
}

/// The K that makes the starting evaluation predict the game results best (mean squared
/// error; `regression::minimise_scale`).
pub fn fit_k(ds: &Dataset, idx: &[usize], w: &Weights, threads: usize) -> f64 {
    let evals: Vec<(f64, f64)> = parallel(idx, threads, |part| {
        part.iter()
            .map(|&i| {
                let e = &ds.entries[i];
                (evaluate(ds, e, w).0, e.result as f64)
            })
            .collect::<Vec<_>>()
    })
    .concat();
    let error = |k: f64| -> f64 {
        let parts = parallel(&(0..evals.len()).collect::<Vec<_>>(), threads, |part| {
            part.iter()
                .map(|&i| (sigmoid(evals[i].0 / k) - evals[i].1).powi(2))
                .sum::<f64>()
        });
        parts.iter().sum::<f64>() / evals.len().max(1) as f64
    };
    crate::kit::regression::minimise_scale(error)
}

/// Sum of the loss gradient over the entries `idx`, and the sum of their losses.
pub fn gradient(
    ds: &Dataset,
    idx: &[usize],
    w: &Weights,
    obj: Objective,
    threads: usize,
) -> (Weights, f64) {
    let parts = parallel(idx, threads, |part| {
        let mut g = vec![[0.0f64; 2]; w.len()];
        let mut total = 0.0;
        for &i in part {
            let e = &ds.entries[i];
            let (eval, scale) = evaluate(ds, e, w);
            let p = sigmoid(eval / obj.k);
            let diff = p - obj.target(e);
            total += diff * diff;
            // d/dw of (p − t)², p = sigmoid(eval / K), eval = scale · (φ·mg + (1 − φ)·eg).
            let common = 2.0 * diff * p * (1.0 - p) / obj.k * scale;
            let (gm, ge) = (common * e.mg as f64, common * (1.0 - e.mg as f64));
            for &(j, c) in ds.coeffs(e) {
                let gj = &mut g[j as usize];
                gj[0] += gm * c as f64;
                gj[1] += ge * c as f64;
            }
        }
        (g, total)
    });
    let mut g = vec![[0.0f64; 2]; w.len()];
    let mut total = 0.0;
    for (pg, pt) in parts {
        for (a, b) in g.iter_mut().zip(&pg) {
            a[0] += b[0];
            a[1] += b[1];
        }
        total += pt;
    }
    (g, total)
}

/// Adam (Kingma & Ba 2015) with the usual β1 = 0.9, β2 = 0.999: a per-weight step of about
/// `lr` centipawns in the direction the recent gradients agree on.
pub struct Adam {
    pub lr: f64,
    m: Weights,
    v: Weights,
    t: i32,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPS: f64 = 1e-8;

    pub fn new(lr: f64, n: usize) -> Self {
        Adam {
            lr,
            m: vec![[0.0; 2]; n],
            v: vec![[0.0; 2]; n],
            t: 0,
        }
    }

    pub fn step(&mut self, w: &mut Weights, g: &Weights) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        for (((wi, gi), mi), vi) in w.iter_mut().zip(g).zip(&mut self.m).zip(&mut self.v) {
            for k in 0..2 {
                mi[k] = Self::BETA1 * mi[k] + (1.0 - Self::BETA1) * gi[k];
                vi[k] = Self::BETA2 * vi[k] + (1.0 - Self::BETA2) * gi[k] * gi[k];
                wi[k] -= self.lr * (mi[k] / c1) / ((vi[k] / c2).sqrt() + Self::EPS);
            }
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f64,
    /// The learning rate is multiplied by this after every epoch.
    pub lr_decay: f64,
    /// Pull towards the starting weights: `l2 · Σ (w − w0)²` is added to the loss.
    pub l2: f64,
    /// Tie each piece-square weight to its left-right mirror (a1 with h1, ...): half the
    /// free parameters, for data too thin to place a piece on 64 squares.
    pub mirror_psq: bool,
    pub threads: usize,
    pub seed: u64,
}

/// The flat index pairs a square and its left-right mirror in every piece-square table.
fn psq_mirror_pairs() -> impl Iterator<Item = (usize, usize)> {
    use augur::eval::tapered::layout::PSQ;
    (0..6).flat_map(|p| {
        (0..64)
            .filter(|sq| sq % 8 < 4)
            .map(move |sq| (PSQ + 64 * p + sq, PSQ + 64 * p + (sq ^ 7)))
    })
}

/// Replaces each mirrored pair of piece-square entries by their mean.
fn tie_psq(w: &mut Weights) {
    for (a, b) in psq_mirror_pairs() {
        let mean = [(w[a][0] + w[b][0]) / 2.0, (w[a][1] + w[b][1]) / 2.0];
        w[a] = mean;
        w[b] = mean;
    }
}

/// One epoch's outcome, for the caller's log.
#[derive(Clone, Copy, Debug)]
pub struct EpochLoss {
    pub epoch: usize,
    pub train: f64,
    pub held_out: f64,
    pub lr: f64,
}

pub struct Trained {
    pub last: Weights,
    /// The weights of the epoch with the lowest held-out loss (the last ones without a
    /// held-out set), and that epoch.
    pub best: Weights,
    pub best_epoch: usize,
}

/// Mini-batch Adam over `train` in a seeded random order, each epoch's losses reported.
pub fn train(
    ds: &Dataset,
    train: &[usize],
    held_out: &[usize],
    start: &Weights,
    obj: Objective,
    s: Schedule,
    mut report: impl FnMut(EpochLoss),
) -> Trained {
    // Tied weights start equal and get equal gradients, so they stay equal.
    let start = &{
        let mut w = start.clone();
        if s.mirror_psq {
            tie_psq(&mut w);
        }
        w
    };
    let mut w = start.clone();
    let mut adam = Adam::new(s.lr, w.len());
    let mut order = train.to_vec();
    let mut rng = SplitMix64::new(s.seed);
    let mut best = (f64::INFINITY, w.clone(), 0);
    for epoch in 1..=s.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        for batch in order.chunks(s.batch.max(1)) {
            let (mut g, _) = gradient(ds, batch, &w, obj, s.threads);
            let n = batch.len() as f64;
            for ((gi, wi), w0) in g.iter_mut().zip(&w).zip(start) {
                for k in 0..2 {
                    gi[k] = gi[k] / n + 2.0 * s.l2 * (wi[k] - w0[k]);
                }
            }
            if s.mirror_psq {
                tie_psq(&mut g);
            }
            adam.step(&mut w, &g);
        }
        let train_loss = loss(ds, train, &w, obj, s.threads);
        let held = loss(ds, held_out, &w, obj, s.threads);
        report(EpochLoss {
            epoch,
            train: train_loss,
            held_out: held,
            lr: adam.lr,
        });
        let score = if held_out.is_empty() { 0.0 } else { held };
        if score <= best.0 {
            best = (score, w.clone(), epoch);
        }
        adam.lr *= s.lr_decay;
    }
    Trained {
        last: w,
        best: best.1,
        best_epoch: best.2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::labelled::LabelledBoard;
    use augur::eval::tapered::layout::{MATERIAL, PSQ};
    use augur::eval::tapered::{Trace, WEIGHTS};

    /// Positions from the bench set and seeded random play from it.
    /// The boards as drawn games (result 0.5) with this search score.
    fn drawn(boards: &[cozy_chess::Board], score: Option<i32>) -> Vec<LabelledBoard> {
        boards
            .iter()
            .map(|b| LabelledBoard {
                board: b.clone(),
                result: 0.5,
                score,
            })
            .collect()
    }

    fn boards() -> Vec<cozy_chess::Board> {
        let mut out = Vec::new();
        let mut rng = SplitMix64::new(3);
        for fen in augur::bench::positions() {
            let mut pos = augur::position::Position::from_fen(fen, false).unwrap();
            for _ in 0..12 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[rng.below(moves.len() as u64) as usize]);
                out.push(pos.board().clone());
            }
        }
        out
    }

    #[test]
    fn float_evaluation_is_the_engines_up_to_rounding() {
        let boards = boards();
        let samples = drawn(&boards, None);
        let mut ds = Dataset::default();
        ds.extend(&samples, 2);
        let w = from_engine(&WEIGHTS);
        for e in &ds.entries {
            let t = Trace {
                coeffs: ds.coeffs(e).to_vec(),
                phase: (e.mg * 24.0).round() as i32,
                drawish: e.drawish,
            };
            let exact = t.evaluate(&WEIGHTS) as f64;
            let (float, scale) = evaluate(&ds, e, &w);
            // The engine truncates each blend (twice, the tempo on its own) and the scale.
            assert!((float - exact).abs() <= 2.0 + scale, "{float} vs {exact}");
        }
        assert!(ds.len() > 400);
    }

    /// A synthetic truth: the engine's weights with knights worth 150 cp more and the tempo
    /// 40 more. Targets are its own win probabilities (λ = 0, scores from the truth), so
    /// the tuner should lower the loss and move the knight's value up.
    #[test]
    fn adam_lowers_the_loss_on_a_synthetic_set() {
        let boards = boards();
        let mut truth = from_engine(&WEIGHTS);
        truth[MATERIAL + 1][0] += 150.0;
        truth[MATERIAL + 1][1] += 150.0;
        let tempo = augur::eval::tapered::layout::TEMPO;
        truth[tempo][0] += 40.0;
        let samples = drawn(&boards, Some(0));
        let mut ds = Dataset::default();
        ds.extend(&samples, 2);
        for i in 0..ds.entries.len() {
            let e = ds.entries[i];
            let s = evaluate(&ds, &e, &truth).0;
            ds.entries[i].score = Some(s as f32);
        }
        let obj = Objective {
            k: 200.0,
            lambda: 0.0,
        };
        let all: Vec<usize> = (0..ds.len()).collect();
        let start = from_engine(&WEIGHTS);
        let before = loss(&ds, &all, &start, obj, 2);
        let sched = Schedule {
            epochs: 60,
            batch: 256,
            lr: 2.0,
            lr_decay: 0.97,
            l2: 0.0,
            mirror_psq: false,
            threads: 2,
            seed: 1,
        };
        let mut losses = Vec::new();
        let t = train(&ds, &all, &[], &start, obj, sched, |l| losses.push(l.train));
        let after = loss(&ds, &all, &t.last, obj, 2);
        assert!(after < before * 0.5, "loss {before} -> {after}");
        assert!(losses.last().unwrap() < &losses[0]);
        // The knight's value (material plus its average square) moved towards the truth.
        let knight = |w: &Weights| {
            w[MATERIAL + 1][0] + (0..64).map(|s| w[PSQ + 64 + s][0]).sum::<f64>() / 64.0
        };
        assert!(knight(&t.last) > knight(&start) + 40.0);
    }

    /// With `mirror_psq` every piece-square weight ends equal to its mirror even from an
    /// asymmetric start, while the untied run leaves them apart.
    #[test]
    fn mirrored_piece_square_weights_stay_tied() {
        let boards = boards();
        let samples = drawn(&boards, Some(30));
        let mut ds = Dataset::default();
        ds.extend(&samples, 2);
        let all: Vec<usize> = (0..ds.len()).collect();
        let mut start = from_engine(&WEIGHTS);
        start[PSQ + 64 + 1][0] += 25.0; // knight b1, not g1
        let obj = Objective {
            k: 200.0,
            lambda: 0.5,
        };
        let run = |mirror_psq| {
            let sched = Schedule {
                epochs: 3,
                batch: 64,
                lr: 1.0,
                lr_decay: 1.0,
                l2: 0.0,
                mirror_psq,
                threads: 2,
                seed: 1,
            };
            train(&ds, &all, &[], &start, obj, sched, |_| {}).last
        };
        let tied = run(true);
        for (a, b) in psq_mirror_pairs() {
            assert_eq!(tied[a], tied[b], "{a} {b}");
        }
        let free = run(false);
        assert_ne!(free[PSQ + 64 + 1], free[PSQ + 64 + 6]);
    }

    #[test]
    fn k_fit_finds_the_scale_of_synthetic_results() {
        // Results drawn as sigmoid(eval / 300): the fitted K must come out near 300.
        let boards = boards();
        let w = from_engine(&WEIGHTS);
        let mut ds = Dataset::default();
        let samples = drawn(&boards, None);
        ds.extend(&samples, 1);
        for i in 0..ds.entries.len() {
            let e = ds.entries[i];
            ds.entries[i].result = sigmoid(evaluate(&ds, &e, &w).0 / 300.0) as f32;
        }
        let all: Vec<usize> = (0..ds.len()).collect();
        let k = fit_k(&ds, &all, &w, 2);
        assert!((k - 300.0).abs() < 3.0, "{k}");
    }

    #[test]
    fn adam_steps_about_lr_against_the_gradient() {
        let mut w = vec![[10.0, -10.0]; 2];
        let mut adam = Adam::new(0.5, 2);
        adam.step(&mut w, &vec![[3.0, -0.001], [0.0, 0.0]]);
        assert!((w[0][0] - 9.5).abs() < 1e-4 && (w[0][1] + 9.5).abs() < 1e-4);
        assert_eq!(w[1], [10.0, -10.0], "no gradient, no step");
    }
}
