//! Sequential probability ratio test on game pairs, as fishtest and OpenBench
//! run it: a generalised SPRT whose log-likelihood ratio compares the
//! maximum-likelihood pentanomial distributions with expected score s0 and s1
//! (M. Van den Bergh, "A practical introduction to the GSPRT" / fishtest's
//! `LLRcalc`). Bounds are Wald's: ln(beta/(1-alpha)) and ln((1-beta)/alpha).

use crate::matchmaking::elo::{mean_var, score_from_elo, Penta};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EloModel {
    /// Logistic Elo: expected score 1/(1+10^(-elo/400)).
    Logistic,
    /// Normalized Elo (fishtest): elo = 800/ln(10) x (score - 1/2) / sigma per game.
    Normalized,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    /// H0 accepted (elo0 more likely).
    AcceptH0,
    /// H1 accepted (elo1 more likely).
    AcceptH1,
}

/// Zero counts are replaced by this (fishtest's `regularize`), so that an
/// unseen outcome does not make the likelihood degenerate.
const REGULARIZE: f64 = 1e-3;

/// Per-game scores of the five pair outcomes.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The distribution closest (maximum likelihood) to `pdf` with mean `s`:
/// q_i = p_i / (1 + x (a_i - s)), where x solves sum p_i (a_i - s)/(1 + x (a_i - s)) = 0.
/// The left side is strictly decreasing in x, so bisection finds the root.
fn mle_with_mean(pdf: &[f64; 5], s: f64) -> [f64; 5] {
    let (amin, amax) = (PAIR_SCORES[0], PAIR_SCORES[4]);
    // Keep every 1 + x (a_i - s) > 0.
    let mut lo = -1.0 / (amax - s) + 1e-12;
    let mut hi = 1.0 / (s - amin) - 1e-12;
    let f = |x: f64| -> f64 {
        PAIR_SCORES
            .iter()
            .zip(pdf)
            .map(|(a, p)| p * (a - s) / (1.0 + x * (a - s)))
            .sum()
    };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    let mut q = [0.0; 5];
    for i in 0..5 {
        q[i] = pdf[i] / (1.0 + x * (PAIR_SCORES[i] - s));
    }
    q
}

impl Sprt {
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Expected per-game scores under H0 and H1 for these pair counts.
    fn scores(&self, penta: &Penta) -> Option<(f64, f64)> {
        match self.model {
            EloModel::Logistic => Some((score_from_elo(self.elo0), score_from_elo(self.elo1))),
            EloModel::Normalized => {
                let (_, var) = mean_var(&regularized(penta))?;
                // Per-game sigma from the per-pair variance (fishtest: sigma_pg = sqrt(2 var)).
                let sigma_pg = (2.0 * var).sqrt();
                let nelo_per_nt = 800.0 / std::f64::consts::LN_10;
                Some((
                    0.5 + self.elo0 / nelo_per_nt * sigma_pg,
                    0.5 + self.elo1 / nelo_per_nt * sigma_pg,
                ))
            }
        }
    }

    /// Log-likelihood ratio of H1 against H0; 0 with no complete pairs.
    pub fn llr(&self, penta: &Penta) -> f64 {
        if penta.pairs() == 0 {
            return 0.0;
        }
        let counts = regularized(penta);
        let n: f64 = counts.iter().sum();
        let pdf = counts.map(|c| c / n);
        let Some((s0, s1)) = self.scores(penta) else {
            return 0.0;
        };
        let q0 = mle_with_mean(&pdf, s0);
        let q1 = mle_with_mean(&pdf, s1);
        n * (0..5).map(|i| pdf[i] * (q1[i] / q0[i]).ln()).sum::<f64>()
    }

    pub fn state(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

/// Counts with zeros replaced by [`REGULARIZE`].
fn regularized(p: &Penta) -> [f64; 5] {
    p.0.map(|c| if c == 0 { REGULARIZE } else { c as f64 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_walds() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        };
        let (a, b) = s.bounds();
        assert!((a + 2.944_438_979).abs() < 1e-8);
        assert!((b - 2.944_438_979).abs() < 1e-8);
    }

    #[test]
    fn mle_has_requested_mean() {
        let pdf = [0.1, 0.2, 0.4, 0.2, 0.1];
        let q = mle_with_mean(&pdf, 0.55);
        let sum: f64 = q.iter().sum();
        let mean: f64 = q.iter().zip(PAIR_SCORES).map(|(p, a)| p * a).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{sum}");
        assert!((mean - 0.55).abs() < 1e-9, "{mean}");
    }

    /// Reference values computed independently with Python 3 (plain floats),
    /// implementing the same published recipe (fishtest LLRcalc: regularize
    /// zeros to 1e-3, MLE distribution with mean s by solving the secular
    /// equation, LLR = N sum p log(q1/q0)); the script is in
    /// `crates/lab/tests/reference/llr_reference.py`.
    #[test]
    fn llr_matches_independent_reference() {
        let logistic = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        };
        let p = Penta([39, 8843, 26675, 9240, 44]);
        let llr = logistic.llr(&p);
        assert!((llr - LLR_LOGISTIC_REF).abs() < 1e-6, "{llr}");
        let normalized = Sprt {
            model: EloModel::Normalized,
            elo0: 0.5,
            elo1: 2.5,
            ..logistic
        };
        let llr = normalized.llr(&p);
        assert!((llr - LLR_NORMALIZED_REF).abs() < 1e-6, "{llr}");
        let tiny = Penta([0, 3, 10, 6, 1]);
        let llr = logistic.llr(&tiny);
        assert!((llr - LLR_TINY_REF).abs() < 1e-6, "{llr}");
        // Lopsided results far from both hypotheses: the MLE LLR grows much
        // more slowly than the normal approximation's 2.0 would.
        let ten = Sprt {
            elo1: 10.0,
            ..logistic
        };
        let llr = ten.llr(&Penta([0, 1, 0, 4, 10]));
        assert!((llr - LLR_SKEWED_REF).abs() < 1e-6, "{llr}");
        assert_eq!(logistic.llr(&Penta::default()), 0.0);
    }

    // Printed by llr_reference.py (OpenBench's example vector R5 for the first two).
    const LLR_LOGISTIC_REF: f64 = -16.698_658_942_5;
    const LLR_NORMALIZED_REF: f64 = 2.941_720_862_3;
    const LLR_TINY_REF: f64 = 0.233_389_431_4;
    const LLR_SKEWED_REF: f64 = 0.425_497_206_9;
}
