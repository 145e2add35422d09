//! Match statistics: W/D/L, pentanomial counts over game pairs, logistic and
//! normalized Elo with 95% intervals from the pentanomial variance (trinomial
//! when games cannot be paired), LOS, draw ratio, and the "score needed for
//! significance" test used by the ProbCut papers.
//!
//! Scores are from the first engine's point of view: 1 win, 1/2 draw, 0 loss;
//! a game pair scores 0, 1/4, 1/2, 3/4 or 1 per game.

use statrs::distribution::{ContinuousCDF, Normal};

use crate::matchmaking::outcomes::{Counts, Penta, Wdl, NELO_PER_T};

/// Expected score for an Elo difference (logistic model).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score; ±infinity at 1 and 0.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Standard normal distribution function.
pub fn phi(x: f64) -> f64 {
    Normal::standard().cdf(x)
}

/// Inverse of the standard normal distribution function, for 0 < p < 1.
pub fn phi_inv(p: f64) -> f64 {
    Normal::standard().inverse_cdf(p)
}

/// An Elo estimate with its 95% confidence intervals, in both models.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Mean score per game.
    pub score: f64,
    /// Logistic Elo of the mean score, and the interval's ends.
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    /// Normalized Elo, 800/ln 10 x (score - 1/2) / sigma per game, and half
    /// its 95% interval.
    pub nelo: f64,
    pub nelo_half: f64,
    /// Likelihood of superiority, P(true Elo > 0) under the normal approximation.
    pub los: f64,
    /// Standard error of the mean score.
    pub std_error: f64,
    /// The sample the variance came from.
    pub sample: Counts,
}

/// Mean and variance of a distribution given as (possibly fractional) counts
/// of equally spaced outcomes scoring 0 ..= 1.
pub fn mean_var(counts: &[f64]) -> Option<(f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 || counts.len() < 2 {
        return None;
    }
    let last = (counts.len() - 1) as f64;
    let x = |i: usize| i as f64 / last;
    let mean = (0..counts.len()).map(|i| counts[i] * x(i)).sum::<f64>() / n;
    let var = (0..counts.len())
        .map(|i| counts[i] * (x(i) - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((mean, var))
}

/// Elo from a sample: game pairs when the games can be paired (the pair
/// variance accounts for the two games of a pair sharing an opening), single
/// games otherwise (see [`Counts::choose`]).
///
/// The logistic interval maps score ± 1.96 standard errors through the Elo
/// curve (OpenBench's `Elo`). The normalized interval is nElo ± 1.96 x 800/ln 10
/// / sqrt(games): the t-value's standard error is 1/sqrt(games) whatever the
/// draw ratio (delta method, sigma taken as known).
pub fn estimate(sample: &Counts) -> Option<Estimate> {
    let (counts, games, per_game_var): (Vec<f64>, f64, fn(f64) -> f64) = match sample {
        Counts::Penta(c) => (
            c.iter().map(|&x| x as f64).collect(),
            2.0 * c.iter().sum::<u64>() as f64,
            |var_pair| 2.0 * var_pair,
        ),
        Counts::Tri(c) => (
            c.iter().map(|&x| x as f64).collect(),
            c.iter().sum::<u64>() as f64,
            |var| var,
        ),
    };
    let (mean, var) = mean_var(&counts)?;
    let n: f64 = counts.iter().sum();
    let std_error = (var / n).sqrt();
    let z = phi_inv(0.975);
    let los = if std_error > 0.0 {
        phi((mean - 0.5) / std_error)
    } else if mean > 0.5 {
        1.0
    } else if mean < 0.5 {
        0.0
    } else {
        0.5
    };
    let sigma_pg = per_game_var(var).sqrt();
    let nelo = if sigma_pg > 0.0 {
        NELO_PER_T * (mean - 0.5) / sigma_pg
    } else if mean > 0.5 {
        f64::INFINITY
    } else if mean < 0.5 {
        f64::NEG_INFINITY
    } else {
        0.0
    };
    Some(Estimate {
        score: mean,
        elo: elo_from_score(mean),
        elo_low: elo_from_score(mean - z * std_error),
        elo_high: elo_from_score(mean + z * std_error),
        nelo,
        nelo_half: z * NELO_PER_T / games.sqrt(),
        los,
        std_error,
        sample: *sample,
    })
}

/// Elo from game pairs.
pub fn estimate_penta(p: &Penta) -> Option<Estimate> {
    estimate(&Counts::Penta(p.0))
}

/// Elo from independent games (for PGNs whose games cannot be paired).
pub fn estimate_wdl(r: &Wdl) -> Option<Estimate> {
    estimate(&Counts::Tri([r.losses, r.draws, r.wins]))
}

/// The score fraction an engine needs in an `n`-game match to be significantly
/// better at one-sided level `alpha`, assuming a `draw_ratio` of draws between
/// equal engines. Under H0 a game scores 1/2 on average with variance
/// (1 - d)/4, so the mean of n games is approximately normal with standard
/// deviation sqrt((1 - d)/(4n)): threshold = 1/2 + z(1-alpha) sqrt((1 - d)/(4n)).
/// The 2003 ProbCut paper (64 games, >= 30% draws, p < 0.05) gives 37.5 points,
/// its "above 38 points (or 59%)".
pub fn significance_threshold(n_games: u64, draw_ratio: f64, alpha: f64) -> f64 {
    if n_games == 0 {
        return 1.0;
    }
    let sd = ((1.0 - draw_ratio.clamp(0.0, 1.0)) / (4.0 * n_games as f64)).sqrt();
    0.5 + phi_inv(1.0 - alpha) * sd
}

/// `--significance`: a one-sided level strictly between 0 and 1 (the test's quantile exists
/// only there).
pub fn parse_significance(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(a) if a > 0.0 && a < 1.0 => Ok(a),
        _ => Err(format!(
            "'{text}' is not a level between 0 and 1 (e.g. 0.05)"
        )),
    }
}

/// `--assumed-draws`: a draw ratio from 0 up to, not including, 1.
pub fn parse_draw_ratio(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(d) if (0.0..1.0).contains(&d) => Ok(d),
        _ => Err(format!(
            "'{text}' is not a draw ratio from 0 to below 1 (e.g. 0.30)"
        )),
    }
}

/// Formats an Elo value, with `inf` for a perfect or zero score.
pub fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{e:+.1}")
    }
}

/// An Elo with the ends of its interval: `-15.0 [-28.8, -1.3]`.
pub fn fmt_elo_range(elo: f64, low: f64, high: f64) -> String {
    format!("{} [{}, {}]", fmt_elo(elo), fmt_elo(low), fmt_elo(high))
}

/// An Elo with half its 95% interval, `+12.3 ±25.1`; with the interval's ends when one of
/// them is infinite (a perfect or a zero score).
pub fn fmt_elo_interval(elo: f64, low: f64, high: f64) -> String {
    let half = (high - low) / 2.0;
    if half.is_finite() {
        format!("{} ±{half:.1}", fmt_elo(elo))
    } else {
        fmt_elo_range(elo, low, high)
    }
}

/// Plain-text report for a head-to-head result (first engine's view).
pub fn report(wdl: &Wdl, penta: &Penta, alpha: f64, assumed_draws: f64) -> String {
    let mut out = String::new();
    let n = wdl.games();
    out.push_str(&format!(
        "Games: {n}  W/D/L: {}/{}/{}  Points: {:.1}/{n}\n",
        wdl.wins,
        wdl.draws,
        wdl.losses,
        wdl.points()
    ));
    let p = penta.0;
    out.push_str(&format!(
        "Pentanomial [LL, LD, WL+DD, WD, WW] over {} pairs: [{}, {}, {}, {}, {}]\n",
        penta.pairs(),
        p[0],
        p[1],
        p[2],
        p[3],
        p[4]
    ));
    let draw_ratio = if n > 0 {
        wdl.draws as f64 / n as f64
    } else {
        0.0
    };
    let sample = Counts::choose(wdl, penta);
    let est = estimate(&sample);
    if let Some(e) = &est {
        let left_out = n - match sample {
            Counts::Penta(_) => 2 * penta.pairs(),
            Counts::Tri(_) => n,
        };
        let kind = match (sample, left_out) {
            (Counts::Penta(_), 0) => "pentanomial".to_string(),
            (Counts::Penta(_), k) => format!("pentanomial; {k} unpaired games left out"),
            (Counts::Tri(_), _) => "trinomial: the games cannot be paired".to_string(),
        };
        out.push_str(&format!(
            "Score: {:.2}%  Elo (logistic): {} [{}, {}]  nElo (normalized): {} ± {:.1}  (95%, {kind})  LOS: {:.1}%  Draw ratio: {:.1}%\n",
            100.0 * e.score,
            fmt_elo(e.elo),
            fmt_elo(e.elo_low),
            fmt_elo(e.elo_high),
            fmt_elo(e.nelo),
            e.nelo_half,
            100.0 * e.los,
            100.0 * draw_ratio
        ));
    }
    if n > 0 {
        let need_obs = significance_threshold(n, draw_ratio, alpha);
        let need_paper = significance_threshold(n, assumed_draws, alpha);
        let score = wdl.points() / n as f64;
        let verdict = |need: f64| {
            if score > need {
                "significant: first engine better"
            } else if score < 1.0 - need {
                "significant: first engine worse"
            } else {
                "not significant"
            }
        };
        out.push_str(&format!(
            "Significance (one-sided p < {alpha}, normal approximation): with {:.0}% draws a {n}-game match needs > {:.1} points ({:.1}%) -> {}; with the observed {:.1}% draws > {:.1} points ({:.1}%) -> {}\n",
            100.0 * assumed_draws,
            need_paper * n as f64,
            100.0 * need_paper,
            verdict(need_paper),
            100.0 * draw_ratio,
            need_obs * n as f64,
            100.0 * need_obs,
            verdict(need_obs),
        ));
        // The papers' test ignores the pairing and its per-game variance is
        // that of equal engines; when it and the LOS disagree, the LOS counts.
        if let Some(e) = &est {
            let los_verdict = if e.los > 1.0 - alpha {
                "significant: first engine better"
            } else if e.los < alpha {
                "significant: first engine worse"
            } else {
                "not significant"
            };
            if los_verdict != verdict(need_obs) {
                out.push_str(&format!(
                    "The verdicts differ: by the {} LOS the result is {los_verdict}. The LOS counts: it uses the observed variance of the {} sample, the papers' test assumes equal engines and independent games.\n",
                    e.sample.name(),
                    e.sample.name(),
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_draw_ratios_outside_their_range_are_refused() {
        assert_eq!(parse_significance("0.05"), Ok(0.05));
        for bad in ["0", "1", "2", "-0.1", "nan", "x"] {
            assert!(parse_significance(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_draw_ratio("0"), Ok(0.0));
        for bad in ["1", "5", "-0.1", "nan"] {
            assert!(parse_draw_ratio(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn elo_of_known_scores() {
        // -400 log10(1/0.6 - 1) = 400 log10(1.5) = 70.43650...
        assert!((elo_from_score(0.6) - 70.4365).abs() < 1e-4);
        assert!((elo_from_score(0.5)).abs() < 1e-12);
        assert!((elo_from_score(0.4) + 70.4365).abs() < 1e-4);
        assert!((score_from_elo(70.436_503_622) - 0.6).abs() < 1e-9);
        assert!(elo_from_score(1.0).is_infinite());
    }

    #[test]
    fn normal_functions() {
        assert!((phi(1.959_963_985) - 0.975).abs() < 1e-7);
        assert!((phi(-1.0) - 0.158_655_254).abs() < 1e-7);
        assert!((phi(0.3) - 0.617_911_422).abs() < 1e-7);
        assert!((phi_inv(0.975) - 1.959_963_985).abs() < 1e-7);
        assert!((phi_inv(0.05) + 1.644_853_627).abs() < 1e-7);
        assert!((phi_inv(0.001) + 3.090_232_306).abs() < 1e-6);
    }

    #[test]
    fn probcut_paper_threshold() {
        // 64 games, 30% draws, p < 0.05: 32 + 1.6449 * sqrt(0.7/4) * 8 = 37.505 points.
        let t = significance_threshold(64, 0.30, 0.05);
        assert!((t * 64.0 - 37.505).abs() < 0.01, "{}", t * 64.0);
        assert!((t - 0.586).abs() < 0.001);
    }

    #[test]
    fn pentanomial_interval() {
        // 100 pairs [5, 20, 40, 25, 10]: mean = (20*.25 + 40*.5 + 25*.75 + 10)/100 = 0.5375;
        // var = sum p (x - m)^2 = 0.05*0.28891 + 0.2*0.08266 + 0.4*0.00141 + 0.25*0.04516 + 0.1*0.21391
        //     = 0.06421875, se = sqrt(var/100) = 0.025341...
        let p = Penta([5, 20, 40, 25, 10]);
        let (m, v) = mean_var(&p.0.map(|c| c as f64)).unwrap();
        assert!((m - 0.5375).abs() < 1e-12);
        assert!((v - 0.064_218_75).abs() < 1e-12, "{v}");
        let e = estimate_penta(&p).unwrap();
        assert!((e.elo - 26.1).abs() < 0.05, "{}", e.elo);
        let lo = elo_from_score(0.5375 - 1.959_964 * (0.064_218_75f64 / 100.0).sqrt());
        assert!((e.elo_low - lo).abs() < 1e-6);
        assert!((e.los - phi(0.0375 / 0.064_218_75f64.sqrt() * 10.0)).abs() < 1e-9);
        assert!(e.los > 0.92 && e.los < 0.94);
        // nElo = 800/ln10 x 0.0375 / sqrt(2 x 0.06421875) = 36.355...;
        // half interval 1.959964 x 347.4356 / sqrt(200) = 48.151...
        assert!((e.nelo - 36.3548).abs() < 1e-3, "{}", e.nelo);
        assert!((e.nelo_half - 48.1510).abs() < 1e-3, "{}", e.nelo_half);
    }

    #[test]
    fn trinomial_interval() {
        // 7 wins, 10 draws, 3 losses: mean 0.6, var = (7 x 0.16 + 10 x 0.01 + 3 x 0.36)/20 = 0.115.
        let w = Wdl {
            wins: 7,
            draws: 10,
            losses: 3,
        };
        let e = estimate_wdl(&w).unwrap();
        assert!((e.score - 0.6).abs() < 1e-12);
        assert!((e.std_error - (0.115f64 / 20.0).sqrt()).abs() < 1e-12);
        assert!((e.nelo - 347.435_585_5 * 0.1 / 0.115f64.sqrt()).abs() < 1e-6);
        assert!((e.nelo_half - 1.959_964 * 347.435_585_5 / 20f64.sqrt()).abs() < 1e-3);
        assert_eq!(e.sample.name(), "trinomial");
    }

    #[test]
    fn wdl_counts_and_report() {
        let mut w = Wdl::default();
        for s in [1.0, 0.5, 0.0, 1.0] {
            w.add(s);
        }
        assert_eq!(
            w,
            Wdl {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
        let mut p = Penta::default();
        p.add_pair(1.0, 0.5);
        p.add_pair(0.0, 1.0);
        assert_eq!(p.0, [0, 0, 1, 1, 0]);
        let text = report(&w, &p, 0.05, 0.3);
        assert!(text.contains("W/D/L: 2/1/1"), "{text}");
    }
}
