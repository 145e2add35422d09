//! Confidence intervals for the differences the experiments report. Where the same positions
//! are measured under two settings the interval is paired: it is built from the per-position
//! differences, so the large spread between positions cancels and only the spread of the
//! differences counts.

use statrs::distribution::{ChiSquared, ContinuousCDF, Normal, StudentsT};

/// A mean with its two-sided 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    pub n: usize,
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Interval {
    /// Half the width of the interval.
    pub fn half_width(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }

    /// Whether the interval excludes zero (the difference is significant at 5%).
    pub fn excludes_zero(&self) -> bool {
        self.lo > 0.0 || self.hi < 0.0
    }

    /// "12.3 ± 4.5" with `decimals` digits.
    pub fn text(&self, decimals: usize) -> String {
        if self.n < 2 {
            return format!("{:.decimals$} (n={})", self.mean, self.n);
        }
        format!(
            "{:.decimals$} ± {:.decimals$}",
            self.mean,
            self.half_width()
        )
    }
}

/// The 95% Student-t interval of the mean of `values` (per-position differences for a paired
/// comparison). With fewer than two values the interval is the mean alone (no spread known).
pub fn mean_interval(values: &[f64]) -> Option<Interval> {
    let n = values.len();
    if n == 0 {
        return None;
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return Some(Interval {
            n,
            mean,
            lo: mean,
            hi: mean,
        });
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let se = (var / n as f64).sqrt();
    let t = t95((n - 1) as f64)?;
    Some(Interval {
        n,
        mean,
        lo: mean - t * se,
        hi: mean + t * se,
    })
}

/// The paired interval of `a[i] - b[i]`.
pub fn paired_interval(a: &[f64], b: &[f64]) -> Option<Interval> {
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    mean_interval(&d)
}

/// The two-sided 95% quantile of Student's t with `df` degrees of freedom (1.96 for large df).
pub fn t95(df: f64) -> Option<f64> {
    // Beyond 10^5 degrees of freedom t and the normal quantile agree to 1e-5, and statrs's
    // inverse search for t slows to minutes as df grows (10^9 never finished in a test).
    if df > 1e5 {
        return Normal::new(0.0, 1.0).ok().map(|z| z.inverse_cdf(0.975));
    }
    StudentsT::new(0.0, 1.0, df)
        .ok()
        .map(|t| t.inverse_cdf(0.975))
}

/// Φ(x), the standard normal distribution function: the confidence of a threshold of x
/// standard deviations (ProbCut's T, the margins' `--threshold`).
pub fn normal_cdf(x: f64) -> f64 {
    Normal::new(0.0, 1.0).map_or(f64::NAN, |z| z.cdf(x))
}

/// Φ⁻¹(p), the standard normal quantile (NaN outside 0 < p < 1): the z of a level or a power.
pub fn normal_quantile(p: f64) -> f64 {
    if !(p > 0.0 && p < 1.0) {
        return f64::NAN;
    }
    Normal::new(0.0, 1.0).map_or(f64::NAN, |z| z.inverse_cdf(p))
}

/// The 95% Wilson score interval of a proportion `k` of `n` (good near 0 and 1, where the
/// normal interval is not), as (lo, hi) shares.
pub fn wilson(k: usize, n: usize) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let z = Normal::new(0.0, 1.0).ok()?.inverse_cdf(0.975);
    let (nf, p) = (n as f64, k as f64 / n as f64);
    let centre = (p + z * z / (2.0 * nf)) / (1.0 + z * z / nf);
    let half = z / (1.0 + z * z / nf) * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt();
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

/// The 95% interval of a normal model's standard deviation estimated as `s` with `df`
/// degrees of freedom: `s * sqrt(df / chi2)` at the chi-square's 97.5% and 2.5% quantiles.
pub fn sigma_interval(s: f64, df: f64) -> Option<(f64, f64)> {
    let chi = ChiSquared::new(df).ok()?;
    Some((
        s * (df / chi.inverse_cdf(0.975)).sqrt(),
        s * (df / chi.inverse_cdf(0.025)).sqrt(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn student_t_interval_matches_the_textbook() {
        // n = 5, mean 3, sd = sqrt(2.5); t(0.975, 4) = 2.776
        let i = mean_interval(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert!((i.mean - 3.0).abs() < 1e-12);
        let hw = 2.776_445 * (2.5f64 / 5.0).sqrt();
        assert!((i.half_width() - hw).abs() < 1e-4, "{i:?}");
        assert!(i.excludes_zero());
    }

    #[test]
    fn the_normal_quantile_inverts_the_distribution() {
        assert!((normal_quantile(0.975) - 1.959_964).abs() < 1e-5);
        assert!((normal_quantile(0.8) - 0.841_621).abs() < 1e-5);
        assert!((normal_cdf(normal_quantile(0.3)) - 0.3).abs() < 1e-9);
        assert!(normal_quantile(0.0).is_nan() && normal_quantile(1.5).is_nan());
    }

    #[test]
    fn wilson_and_sigma_intervals_match_the_textbook() {
        // Wilson, 8 of 10: (0.490, 0.943).
        let (lo, hi) = wilson(8, 10).unwrap();
        assert!(
            (lo - 0.4902).abs() < 1e-3 && (hi - 0.9433).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0, 20).unwrap();
        assert!(lo.abs() < 1e-12 && (hi - 0.1611).abs() < 1e-3, "{lo} {hi}");
        assert!(wilson(0, 0).is_none());
        // s = 10 with 20 df: chi2(0.975) = 34.170, chi2(0.025) = 9.591.
        let (lo, hi) = sigma_interval(10.0, 20.0).unwrap();
        assert!(
            (lo - 7.650).abs() < 1e-2 && (hi - 14.440).abs() < 1e-2,
            "{lo} {hi}"
        );
        assert!((t95(30.0).unwrap() - 2.0423).abs() < 1e-3);
        assert!((t95(1e9).unwrap() - 1.95996).abs() < 1e-4);
    }

    #[test]
    fn pairing_removes_the_spread_between_positions() {
        let a = [100.0, 1000.0, 10.0, 500.0];
        let b = [99.0, 999.0, 9.0, 499.5];
        let p = paired_interval(&a, &b).unwrap();
        assert!(p.excludes_zero(), "{p:?}");
        let unpaired = mean_interval(&a).unwrap().half_width();
        assert!(p.half_width() < unpaired / 100.0);
        assert!(mean_interval(&[]).is_none());
        assert_eq!(mean_interval(&[2.0]).unwrap().text(1), "2.0 (n=1)");
    }
}
