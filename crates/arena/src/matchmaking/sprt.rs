//! The sequential probability ratio test as fishtest runs it (and OpenBench,
//! whose pentanomial SPRT is fishtest's): a generalised SPRT whose
//! log-likelihood ratio compares the maximum-likelihood outcome distributions
//! under H0 and H1 (M. Van den Bergh, "Normalized Elo" and "A practical
//! introduction to the GSPRT"; fishtest `LLRcalc.py`).
//!
//! The sample is pentanomial (game pairs: one opening, both colours) when the
//! games can be paired and trinomial (single games) when they cannot, as
//! fishtest does for old results. Zero counts are replaced by 1e-3 so that an
//! unseen outcome does not make the likelihood degenerate.
//!
//! Two Elo models:
//! * **normalized** (the default, as on fishtest and OpenBench): H is a
//!   t-value, (mean - 1/2) / sigma, with sigma the per-game standard deviation;
//!   nElo = 800/ln 10 x t. The bounds do not depend on the draw ratio, so the
//!   same [0, 2] costs about as many games at any time control.
//! * **logistic**: H is an expected score 1/(1 + 10^(-elo/400)); fishtest's
//!   `LLR_logistic`, kept for bounds quoted in logistic Elo.
//!
//! Bounds are Wald's: ln(beta/(1-alpha)) and ln((1-beta)/alpha).

use crate::matchmaking::elo::score_from_elo;
use crate::matchmaking::outcomes::{Counts, NELO_PER_T};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EloModel {
    /// Logistic Elo: expected score 1/(1+10^(-elo/400)).
    Logistic,
    /// Normalized Elo (fishtest, OpenBench): 800/ln(10) x (score - 1/2) / sigma per game.
    Normalized,
}

impl EloModel {
    pub fn name(self) -> &'static str {
        match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        }
    }
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

impl SprtState {
    pub fn verdict(self) -> &'static str {
        match self {
            SprtState::AcceptH1 => "H1 accepted",
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::Continue => "no decision yet",
        }
    }
}

/// fishtest's `regularize`.
const REGULARIZE: f64 = 1e-3;

/// The sample's counts as floats, zeros replaced by [`REGULARIZE`].
fn regularized(sample: &Counts) -> Vec<f64> {
    sample
        .counts()
        .iter()
        .map(|&c| if c == 0 { REGULARIZE } else { c as f64 })
        .collect()
}

/// A discrete distribution over outcome scores `a` (0 ..= 1).
struct Pdf {
    a: Vec<f64>,
    p: Vec<f64>,
}

impl Pdf {
    fn from_counts(counts: &[f64]) -> (f64, Pdf) {
        let n: f64 = counts.iter().sum();
        let last = (counts.len() - 1) as f64;
        let a = (0..counts.len()).map(|i| i as f64 / last).collect();
        let p = counts.iter().map(|c| c / n).collect();
        (n, Pdf { a, p })
    }

    fn mean_var(a: &[f64], p: &[f64]) -> (f64, f64) {
        let mu: f64 = a.iter().zip(p).map(|(a, p)| a * p).sum();
        let var = a.iter().zip(p).map(|(a, p)| p * (a - mu).powi(2)).sum();
        (mu, var)
    }
}

/// The root x of sum p_i v_i / (1 + x v_i) = 0 on the interval where every
/// 1 + x v_i > 0 (the secular equation). The left side is strictly
/// decreasing there, so bisection finds it; `None` unless the v_i have both
/// signs (then no distribution satisfies the constraint).
fn secular(v: &[f64], p: &[f64]) -> Option<f64> {
    let (lo_v, hi_v) = v
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    if lo_v >= 0.0 || hi_v <= 0.0 {
        return None;
    }
    let f = |x: f64| -> f64 { v.iter().zip(p).map(|(v, p)| p * v / (1.0 + x * v)).sum() };
    let eps = 1e-12;
    let (mut lo, mut hi) = (-1.0 / hi_v + eps, -1.0 / lo_v - eps);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= f64::EPSILON * mid.abs().max(1.0) {
            break;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The maximum-likelihood distribution with expected score `s`:
/// q_i = p_i / (1 + x (a_i - s)) with x from the secular equation.
fn mle_expected(pdf: &Pdf, s: f64) -> Option<Vec<f64>> {
    let v: Vec<f64> = pdf.a.iter().map(|a| a - s).collect();
    let x = secular(&v, &pdf.p)?;
    Some(
        pdf.p
            .iter()
            .zip(&v)
            .map(|(p, v)| p / (1.0 + x * v))
            .collect(),
    )
}

/// The maximum-likelihood distribution with t-value (mean - 1/2) / sigma = t,
/// by fishtest's fixed point: with mu and sigma of the current estimate, the
/// constraint is linearised into a secular equation, solved, and repeated
/// until the distribution stops moving.
fn mle_t_value(pdf: &Pdf, t: f64) -> Option<Vec<f64>> {
    let n = pdf.p.len();
    let mut q = vec![1.0 / n as f64; n];
    for _ in 0..100 {
        let (mu, var) = Pdf::mean_var(&pdf.a, &q);
        let sigma = var.sqrt();
        let v: Vec<f64> = pdf
            .a
            .iter()
            .map(|a| a - 0.5 - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0)
            .collect();
        let x = secular(&v, &pdf.p)?;
        let next: Vec<f64> = pdf
            .p
            .iter()
            .zip(&v)
            .map(|(p, v)| p / (1.0 + x * v))
            .collect();
        let moved = next
            .iter()
            .zip(&q)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        q = next;
        if moved < 1e-12 {
            break;
        }
    }
    Some(q)
}

impl Sprt {
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 against H0; 0 for an empty sample.
    pub fn llr(&self, sample: &Counts) -> f64 {
        if sample.is_empty() {
            return 0.0;
        }
        let (n, pdf) = Pdf::from_counts(&regularized(sample));
        let pair = match self.model {
            EloModel::Logistic => mle_expected(&pdf, score_from_elo(self.elo0))
                .zip(mle_expected(&pdf, score_from_elo(self.elo1))),
            EloModel::Normalized => {
                let k = sample.t_scale() / NELO_PER_T;
                mle_t_value(&pdf, self.elo0 * k).zip(mle_t_value(&pdf, self.elo1 * k))
            }
        };
        let Some((q0, q1)) = pair else {
            return 0.0;
        };
        n * (0..pdf.p.len())
            .map(|i| pdf.p[i] * (q1[i] / q0[i]).ln())
            .sum::<f64>()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchmaking::outcomes::{Penta, Wdl};

    fn sprt(model: EloModel, elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    #[test]
    fn bounds_are_walds() {
        let (a, b) = sprt(EloModel::Logistic, 0.0, 5.0).bounds();
        assert!((a + 2.944_438_979).abs() < 1e-8);
        assert!((b - 2.944_438_979).abs() < 1e-8);
    }

    #[test]
    fn mle_meets_its_constraint() {
        let (_, pdf) = Pdf::from_counts(&[10.0, 20.0, 40.0, 20.0, 10.0]);
        let q = mle_expected(&pdf, 0.55).unwrap();
        let (mu, _) = Pdf::mean_var(&pdf.a, &q);
        assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!((mu - 0.55).abs() < 1e-9, "{mu}");
        let q = mle_t_value(&pdf, 0.1).unwrap();
        let (mu, var) = Pdf::mean_var(&pdf.a, &q);
        assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(((mu - 0.5) / var.sqrt() - 0.1).abs() < 1e-9);
    }

    /// Reference values from `tests/reference/llr_reference.py` (plain
    /// Python), which solves the constrained maximum-likelihood problem by
    /// Newton's method on its Karush-Kuhn-Tucker conditions: a route that
    /// shares nothing with the secular equation used here.
    #[test]
    fn llr_matches_independent_reference() {
        use EloModel::{Logistic, Normalized};
        let big = Counts::Penta([39, 8843, 26675, 9240, 44]);
        let tiny = Counts::Penta([0, 3, 10, 6, 1]);
        let skewed = Counts::Penta([0, 1, 0, 4, 10]);
        let losing = Counts::Penta([12, 20, 30, 8, 2]);
        let tri_big = Counts::Tri([22569, 44137, 22976]);
        let tri_small = Counts::Tri([3, 10, 7]);
        let cases = [
            (big, sprt(Logistic, 0.0, 5.0), BIG_LOGISTIC),
            (big, sprt(Normalized, 0.5, 2.5), BIG_NORMALIZED),
            (tiny, sprt(Logistic, 0.0, 5.0), TINY_LOGISTIC),
            (tiny, sprt(Normalized, 0.0, 5.0), TINY_NORMALIZED),
            (skewed, sprt(Logistic, 0.0, 10.0), SKEWED_LOGISTIC),
            (skewed, sprt(Normalized, 0.0, 10.0), SKEWED_NORMALIZED),
            (losing, sprt(Normalized, 0.0, 5.0), LOSING_NORMALIZED),
            (tri_big, sprt(Normalized, 0.5, 2.5), TRI_BIG_NORMALIZED),
            (tri_small, sprt(Logistic, 0.0, 10.0), TRI_SMALL_LOGISTIC),
            (tri_small, sprt(Normalized, 0.0, 10.0), TRI_SMALL_NORMALIZED),
        ];
        for (sample, test, expected) in cases {
            let llr = test.llr(&sample);
            assert!(
                (llr - expected).abs() < 1e-7,
                "{sample:?} {test:?}: {llr} vs {expected}"
            );
        }
        let empty = Counts::Penta([0; 5]);
        assert_eq!(sprt(Normalized, 0.0, 5.0).llr(&empty), 0.0);
    }

    /// The old normalized test (expected score 1/2 + nelo/k x sigma of the
    /// observed sample) agreed on big samples but not on small, lopsided
    /// ones, which is where a test stops early.
    #[test]
    fn t_value_method_differs_from_the_mean_shift_approximation_on_small_samples() {
        let sample = Counts::Penta([0, 1, 0, 4, 10]);
        let (n, pdf) = Pdf::from_counts(&regularized(&sample));
        let (_, var) = Pdf::mean_var(&pdf.a, &pdf.p);
        let sigma_pg = (2.0 * var).sqrt();
        let s = |e: f64| 0.5 + e / NELO_PER_T * sigma_pg;
        let q0 = mle_expected(&pdf, s(0.0)).unwrap();
        let q1 = mle_expected(&pdf, s(10.0)).unwrap();
        let approx: f64 = n * (0..5).map(|i| pdf.p[i] * (q1[i] / q0[i]).ln()).sum::<f64>();
        let exact = sprt(EloModel::Normalized, 0.0, 10.0).llr(&sample);
        assert!((exact - SKEWED_NORMALIZED).abs() < 1e-7);
        assert!((exact - approx).abs() > 0.05, "{exact} {approx}");
    }

    #[test]
    fn unpaired_games_fall_back_to_the_trinomial_sample() {
        let wdl = Wdl {
            wins: 7,
            draws: 10,
            losses: 3,
        };
        assert_eq!(
            Counts::choose(&wdl, &Penta::default()),
            Counts::Tri([3, 10, 7])
        );
        // 6 of 20 games paired: still trinomial.
        assert!(matches!(
            Counts::choose(&wdl, &Penta([0, 1, 1, 1, 0])),
            Counts::Tri(_)
        ));
        // 18 of 20 paired: pentanomial.
        assert_eq!(
            Counts::choose(&wdl, &Penta([0, 2, 4, 2, 1])),
            Counts::Penta([0, 2, 4, 2, 1])
        );
        // A foreign PGN that cannot be paired still moves the LLR.
        let llr = sprt(EloModel::Logistic, 0.0, 10.0).llr(&Counts::choose(&wdl, &Penta::default()));
        assert!((llr - TRI_SMALL_LOGISTIC).abs() < 1e-7, "{llr}");
    }

    // Printed by tests/reference/llr_reference.py.
    const BIG_LOGISTIC: f64 = -16.698_658_942_5;
    const BIG_NORMALIZED: f64 = 2.941_675_208_0;
    const TINY_LOGISTIC: f64 = 0.233_389_431_4;
    const TINY_NORMALIZED: f64 = 0.129_361_541_4;
    const SKEWED_LOGISTIC: f64 = 0.425_497_206_9;
    const SKEWED_NORMALIZED: f64 = 0.522_693_371_5;
    const LOSING_NORMALIZED: f64 = -0.609_509_784_2;
    const TRI_BIG_NORMALIZED: f64 = 1.058_825_493_9;
    const TRI_SMALL_LOGISTIC: f64 = 0.214_858_466_9;
    const TRI_SMALL_NORMALIZED: f64 = 0.154_690_374_4;
}
