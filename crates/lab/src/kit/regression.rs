//! The one least-squares line of the lab: ProbCut's opinion-change model `v = a*v' + b + e`
//! (`probcut::fit`) and the fitted line of a scatter chart (`chart`) both come from here.

/// Least-squares line `y = slope * x + intercept`, with the correlation coefficient `r`
/// and the standard deviation `sigma` of the residuals (ProbCut's parameters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearFit {
    pub slope: f64,
    pub intercept: f64,
    pub r: f64,
    pub sigma: f64,
    pub n: usize,
    /// Standard errors of the slope and the intercept (0 with two points).
    pub se_slope: f64,
    pub se_intercept: f64,
}

/// 95% confidence intervals of a fitted line's parameters, as (lo, hi).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitIntervals {
    pub slope: (f64, f64),
    pub intercept: (f64, f64),
    pub sigma: (f64, f64),
}

impl LinearFit {
    /// The textbook intervals of the normal linear model: Student's t with n - 2 degrees of
    /// freedom for slope and intercept, the chi-square for sigma. They assume independent
    /// residuals of one spread; ProbCut's errors are wider at large |v'|, so read them as a
    /// lower bound on the uncertainty, not as exact. `None` with fewer than three points.
    pub fn intervals(&self) -> Option<FitIntervals> {
        let df = self.n as f64 - 2.0;
        let t = crate::kit::confidence::t95(df)?;
        Some(FitIntervals {
            slope: (
                self.slope - t * self.se_slope,
                self.slope + t * self.se_slope,
            ),
            intercept: (
                self.intercept - t * self.se_intercept,
                self.intercept + t * self.se_intercept,
            ),
            sigma: crate::kit::confidence::sigma_interval(self.sigma, df)?,
        })
    }
}

/// Ordinary least squares over the finite points; `None` with fewer than two points or when
/// every x is the same.
pub fn fit_line(points: &[(f64, f64)]) -> Option<LinearFit> {
    let pts: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect();
    let n = pts.len();
    if n < 2 {
        return None;
    }
    let nf = n as f64;
    let mx = pts.iter().map(|p| p.0).sum::<f64>() / nf;
    let my = pts.iter().map(|p| p.1).sum::<f64>() / nf;
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let syy: f64 = pts.iter().map(|p| (p.1 - my).powi(2)).sum();
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let r = if syy > 0.0 {
        sxy / (sxx * syy).sqrt()
    } else {
        1.0
    };
    let rss: f64 = pts
        .iter()
        .map(|p| (p.1 - slope * p.0 - intercept).powi(2))
        .sum();
    let sigma = if n > 2 {
        (rss / (nf - 2.0)).sqrt()
    } else {
        0.0
    };
    Some(LinearFit {
        slope,
        intercept,
        r,
        sigma,
        n,
        se_slope: sigma / sxx.sqrt(),
        se_intercept: sigma * (1.0 / nf + mx * mx / sxx).sqrt(),
    })
}

/// Weighted least squares of `y` on several regressors: the coefficients `c` that minimise
/// Σ w·(y − c·x)² over the rows `(x, y, w)` (put a 1 in `x` for an intercept). `None` when
/// the rows cannot decide them (fewer distinct rows than coefficients, a zero column). The
/// margins' engine forms (`margins::fit`) are lines and planes in depth fitted to per-depth
/// margins, each weighted by its sample size.
pub fn weighted_least_squares(rows: &[(Vec<f64>, f64, f64)]) -> Option<Vec<f64>> {
    let k = rows.first()?.0.len();
    if k == 0 || rows.iter().any(|(x, _, _)| x.len() != k) {
        return None;
    }
    // The normal equations (XᵀWX) c = XᵀWy, solved by Gaussian elimination with partial
    // pivoting on the augmented k × (k + 1) matrix.
    let mut m = vec![vec![0.0; k + 1]; k];
    for (x, y, w) in rows {
        for i in 0..k {
            for j in 0..k {
                m[i][j] += w * x[i] * x[j];
            }
            m[i][k] += w * x[i] * y;
        }
    }
    let scale = m
        .iter()
        .flat_map(|r| r[..k].iter())
        .fold(0.0f64, |a, v| a.max(v.abs()));
    for col in 0..k {
        let pivot = (col..k).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() <= 1e-9 * scale.max(f64::MIN_POSITIVE) {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col].clone();
        for (row, r) in m.iter_mut().enumerate() {
            if row != col {
                let f = r[col] / pivot_row[col];
                for (v, p) in r.iter_mut().zip(&pivot_row).skip(col) {
                    *v -= f * p;
                }
            }
        }
    }
    Some((0..k).map(|i| m[i][k] / m[i][i]).collect())
}

/// The positive scale K that minimises `error(K)`, for the logistic models that map
/// centipawns to an expected result, sigmoid(cp / K): a geometric scan from 10 to about 2,300
/// (steps of 12%), then golden-section search between the best point's neighbours. The
/// Texel tuner fits its evaluation's K with it (`tune::model::fit_k`) and the NNUE trainer the
/// K of its data's search scores (`train`), so both read centipawns on the scale at which the
/// engine's own scores predict its games.
pub fn minimise_scale(error: impl Fn(f64) -> f64) -> f64 {
    let grid: Vec<f64> = (0..=48).map(|i| 10.0 * 1.12f64.powi(i)).collect();
    let errors: Vec<f64> = grid.iter().map(|&k| error(k)).collect();
    let best = (0..grid.len())
        .min_by(|&a, &b| errors[a].total_cmp(&errors[b]))
        .expect("grid is not empty");
    let (mut lo, mut hi) = (
        grid[best.saturating_sub(1)],
        grid[(best + 1).min(grid.len() - 1)],
    );
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results drawn as a logistic model with K = 160 would have them: the fit finds 160
    /// back (the expected squared error is smallest at the true K), and a sharper model a
    /// smaller K.
    #[test]
    fn minimise_scale_finds_the_scale_of_a_logistic_model() {
        let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
        for true_k in [160.0, 400.0, 55.0] {
            let scores: Vec<f64> = (-600..=600).step_by(5).map(f64::from).collect();
            // The expectation of (sigmoid(s / K) - result)^2 over results with
            // P(win) = sigmoid(s / true_k): the fit's objective without sampling noise.
            let error = |k: f64| {
                scores
                    .iter()
                    .map(|&s| {
                        let (p, q) = (sigmoid(s / k), sigmoid(s / true_k));
                        q * (p - 1.0).powi(2) + (1.0 - q) * p * p
                    })
                    .sum::<f64>()
            };
            let k = minimise_scale(error);
            assert!((k - true_k).abs() < 0.01 * true_k, "{true_k}: {k}");
        }
    }

    /// A plane through weighted points is found back exactly; the weights decide between
    /// rows that disagree; rows that cannot decide the coefficients give `None`.
    #[test]
    fn weighted_least_squares_solves_the_normal_equations() {
        let rows: Vec<(Vec<f64>, f64, f64)> = (1..=6)
            .flat_map(|d| {
                [0.0, 1.0].map(|imp| {
                    let d = d as f64;
                    (vec![1.0, d, imp], 20.0 + 70.0 * d - 55.0 * imp, d)
                })
            })
            .collect();
        let c = weighted_least_squares(&rows).unwrap();
        for (got, want) in c.iter().zip([20.0, 70.0, -55.0]) {
            assert!((got - want).abs() < 1e-9, "{c:?}");
        }
        // Two values of one mean: the weighted average.
        let c = weighted_least_squares(&[(vec![1.0], 10.0, 1.0), (vec![1.0], 40.0, 2.0)]);
        assert!((c.unwrap()[0] - 30.0).abs() < 1e-12);
        // One depth cannot give a slope; no rows, no fit.
        assert_eq!(
            weighted_least_squares(&[(vec![1.0, 3.0], 1.0, 1.0), (vec![1.0, 3.0], 2.0, 1.0)]),
            None
        );
        assert_eq!(weighted_least_squares(&[]), None);
    }

    #[test]
    fn fit_recovers_an_exact_line() {
        let pts: Vec<(f64, f64)> = (0..10).map(|i| (i as f64, 2.0 * i as f64 + 1.0)).collect();
        let f = fit_line(&pts).unwrap();
        assert!((f.slope - 2.0).abs() < 1e-12);
        assert!((f.intercept - 1.0).abs() < 1e-12);
        assert!((f.r - 1.0).abs() < 1e-12);
        assert!(f.sigma.abs() < 1e-9);
        assert_eq!(fit_line(&[(1.0, 2.0)]), None);
        assert_eq!(fit_line(&[(1.0, 2.0), (1.0, 3.0)]), None);
    }

    #[test]
    fn fit_matches_the_hand_computed_statistics() {
        // mean (1.5, 4); Sxx = 5, Sxy = 11, Syy = 26; residuals 0.3, 0.1, -1.1, 0.7.
        let f = fit_line(&[
            (0.0, 1.0),
            (1.0, 3.0),
            (2.0, 4.0),
            (3.0, 8.0),
            (f64::NAN, 0.0),
        ]);
        let f = f.unwrap();
        assert_eq!(f.n, 4, "the non-finite point is left out");
        assert!((f.slope - 2.2).abs() < 1e-12 && (f.intercept - 0.7).abs() < 1e-12);
        assert!((f.r - 11.0 / 130f64.sqrt()).abs() < 1e-12);
        assert!(
            (f.sigma - 0.9f64.sqrt()).abs() < 1e-12,
            "sigma = sqrt(RSS / (n - 2))"
        );
        // Two points: a line, but no residual degree of freedom.
        assert_eq!(
            fit_line(&[(0.0, 0.0), (1.0, 2.0)]).map(|f| f.sigma),
            Some(0.0)
        );
    }
}
