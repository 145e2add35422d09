//! Maximum-likelihood ratings for several engines (Bradley-Terry model with
//! logistic Elo, a draw counting as half a win), anchored to one engine.
//!
//! Fitted with Hunter's MM iteration: g_i <- W_i / sum_j n_ij / (g_i + g_j),
//! where g = 10^(rating/400), W_i are i's points and n_ij the games i-j. One
//! virtual draw per pairing that played keeps a 100% or 0% score finite.

/// One game: indices of the two engines and the first one's score (0, 1/2, 1).
#[derive(Clone, Copy, Debug)]
pub struct Result {
    pub a: usize,
    pub b: usize,
    pub score_a: f64,
}

/// Ratings in Elo, with `anchor` at 0.
pub fn fit(n_engines: usize, games: &[Result], anchor: usize) -> Vec<f64> {
    let mut played = vec![vec![0.0f64; n_engines]; n_engines];
    let mut points = vec![0.0f64; n_engines];
    for g in games {
        played[g.a][g.b] += 1.0;
        played[g.b][g.a] += 1.0;
        points[g.a] += g.score_a;
        points[g.b] += 1.0 - g.score_a;
    }
    for (i, row) in played.iter_mut().enumerate() {
        for (j, n) in row.iter_mut().enumerate() {
            if i != j && *n > 0.0 {
                // Half of one virtual draw on each side of the (i, j) entry.
                *n += 1.0;
                points[i] += 0.5;
            }
        }
    }
    let mut g = vec![1.0f64; n_engines];
    for _ in 0..10_000 {
        let mut next = g.clone();
        let mut change = 0.0f64;
        for i in 0..n_engines {
            let denom: f64 = (0..n_engines)
                .filter(|&j| j != i && played[i][j] > 0.0)
                .map(|j| played[i][j] / (g[i] + g[j]))
                .sum();
            if denom > 0.0 {
                next[i] = points[i] / denom;
            }
        }
        let norm = next[anchor];
        for (i, v) in next.iter_mut().enumerate() {
            *v /= norm;
            change = change.max((v.ln() - g[i].ln()).abs());
        }
        g = next;
        if change < 1e-12 {
            break;
        }
    }
    g.iter().map(|v| 400.0 * v.log10()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_engines_match_the_score_formula() {
        // 60 of 100 points, plus the virtual draw: 60.5/101.
        let mut games = Vec::new();
        for i in 0..100 {
            games.push(Result {
                a: 0,
                b: 1,
                score_a: if i < 60 { 1.0 } else { 0.0 },
            });
        }
        let r = fit(2, &games, 1);
        let expected = crate::matchmaking::elo::elo_from_score(60.5 / 101.0);
        assert!((r[0] - expected).abs() < 1e-6, "{r:?} {expected}");
        assert_eq!(r[1], 0.0);
    }

    #[test]
    fn transitive_three_engines() {
        let mut games = Vec::new();
        for (a, b, s) in [(0, 1, 0.75), (1, 2, 0.75), (0, 2, 0.9)] {
            for k in 0..100 {
                let score = if (k as f64) < s * 100.0 { 1.0 } else { 0.0 };
                games.push(Result {
                    a,
                    b,
                    score_a: score,
                });
            }
        }
        let r = fit(3, &games, 2);
        assert!(r[0] > r[1] && r[1] > r[2] && r[2] == 0.0, "{r:?}");
        assert!((r[1] - 190.0).abs() < 40.0, "{r:?}");
    }
}
