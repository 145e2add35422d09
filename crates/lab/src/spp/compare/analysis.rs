//! What the measurements mean: the thesis's extra-pruning percentage, its summaries by depth
//! and parity, and the correctness check of move-score pairs against a reference algorithm.

use super::Row;
use augur::search::textbook::Algorithm;
use augur::search::Mode;
use std::collections::BTreeMap;

/// The thesis's algorithms as contenders of a run (which may also hold the engine's search).
pub const AB: Mode = Mode::Textbook(Algorithm::AlphaBeta);
pub const ABT: Mode = Mode::Textbook(Algorithm::Abt);
pub const SPP: Mode = Mode::Textbook(Algorithm::Spp);
pub const SPPT: Mode = Mode::Textbook(Algorithm::Sppt);
pub const SPP_EXACT: Mode = Mode::Textbook(Algorithm::SppExact);
pub const SPPT_EXACT: Mode = Mode::Textbook(Algorithm::SpptExact);
pub const SPP_DYN: Mode = Mode::Textbook(Algorithm::SppDyn);
pub const SPPT_AUTO: Mode = Mode::Textbook(Algorithm::SpptAuto);

/// The thesis's extra pruning of A1 over A2 (section 5): `100 - 100 * NBP(A1) / NBP(A2)`.
/// Positive when A1 evaluates fewer leaves; `None` when A2 evaluated none.
pub fn extra_pruning(nbp_a1: u64, nbp_a2: u64) -> Option<f64> {
    if nbp_a2 == 0 {
        return None;
    }
    Some(100.0 - 100.0 * nbp_a1 as f64 / nbp_a2 as f64)
}

/// The comparisons the thesis draws (section 5.2), then each further algorithm against
/// alpha-beta; only pairs whose two algorithms were both run.
pub fn pairs(algorithms: &[Mode]) -> Vec<(Mode, Mode)> {
    let has = |a: Mode| algorithms.contains(&a);
    let mut out: Vec<(Mode, Mode)> = [
        (SPP, AB),
        (ABT, AB),
        (SPPT, SPP),
        (SPPT, ABT),
        (SPP_EXACT, AB),
        (SPP_EXACT, SPP),
        (SPPT_EXACT, ABT),
        (SPP_DYN, AB),
        (SPP_DYN, SPP),
        (SPPT_AUTO, ABT),
        (SPPT_AUTO, SPPT),
    ]
    .into_iter()
    .filter(|&(a, b)| has(a) && has(b))
    .collect();
    for &a in algorithms {
        if a != AB && has(AB) && !out.iter().any(|&(x, _)| x == a) {
            out.push((a, AB));
        }
    }
    out
}

/// The thesis's abbreviations (AB, ABT, SPP, SPPT), other names upper-cased.
pub fn short_name(a: Mode) -> String {
    match a {
        AB => "AB".to_string(),
        a => a.name().to_uppercase(),
    }
}

pub fn pair_name(a1: Mode, a2: Mode) -> String {
    format!("{}/{}", short_name(a1), short_name(a2))
}

/// Summary of per-position extra-pruning percentages over a set of depths.
#[derive(Clone, Debug, PartialEq)]
pub struct PruningSummary {
    /// Positions (times depths) with both counts.
    pub n: usize,
    /// Over the summed counts: `100 - 100 * sum NBP(A1) / sum NBP(A2)`.
    pub pooled: f64,
    pub mean: f64,
    /// The mean with its paired 95% interval (each percentage compares A1 and A2 on one
    /// position and depth).
    pub mean_ci: Option<crate::kit::confidence::Interval>,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    /// Cases where A1 evaluated more leaves than A2.
    pub worse: usize,
}

/// Leaves indexed by (position, depth, algorithm).
pub type LeafIndex = BTreeMap<(usize, i32, usize), u64>;

/// A sortable key for an algorithm (the enum has no `Ord`).
pub fn akey(a: Mode) -> usize {
    Mode::ALL.iter().position(|&m| m == a).unwrap_or(usize::MAX)
}

pub fn leaf_index(rows: &[Row]) -> LeafIndex {
    rows.iter()
        .map(|r| ((r.position, r.depth, akey(r.algorithm)), r.leaves))
        .collect()
}

/// Per-position percentages of A1 over A2 at `depth`, in position order (`None`: missing).
pub fn per_position(
    idx: &LeafIndex,
    positions: usize,
    depth: i32,
    a1: Mode,
    a2: Mode,
) -> Vec<Option<f64>> {
    (0..positions)
        .map(|p| {
            let l1 = idx.get(&(p, depth, akey(a1)))?;
            let l2 = idx.get(&(p, depth, akey(a2)))?;
            extra_pruning(*l1, *l2)
        })
        .collect()
}

pub fn summarize(
    idx: &LeafIndex,
    positions: usize,
    depths: &[i32],
    a1: Mode,
    a2: Mode,
) -> Option<PruningSummary> {
    let mut pcts = Vec::new();
    let (mut s1, mut s2, mut worse) = (0u64, 0u64, 0usize);
    for &d in depths {
        for p in 0..positions {
            let (Some(&l1), Some(&l2)) = (idx.get(&(p, d, akey(a1))), idx.get(&(p, d, akey(a2))))
            else {
                continue;
            };
            s1 += l1;
            s2 += l2;
            if l1 > l2 {
                worse += 1;
            }
            if let Some(x) = extra_pruning(l1, l2) {
                pcts.push(x);
            }
        }
    }
    if pcts.is_empty() {
        return None;
    }
    let mean_ci = crate::kit::confidence::mean_interval(&pcts);
    pcts.sort_by(f64::total_cmp);
    let n = pcts.len();
    let median = if n % 2 == 1 {
        pcts[n / 2]
    } else {
        (pcts[n / 2 - 1] + pcts[n / 2]) / 2.0
    };
    Some(PruningSummary {
        n,
        pooled: extra_pruning(s1, s2).unwrap_or(0.0),
        mean: pcts.iter().sum::<f64>() / n as f64,
        mean_ci,
        median,
        min: pcts[0],
        max: pcts[n - 1],
        worse,
    })
}

/// A move-score pair that differs from the reference's at the same position and depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub position: usize,
    pub depth: i32,
    pub algorithm: Mode,
    pub reference: Mode,
    pub got: (String, i32),
    pub expected: (String, i32),
}

/// Which references each algorithm is checked against: every textbook algorithm against
/// `alphabeta` (same static ordering, so the same tree path and the same answer), and the
/// transposition-table algorithms also against `abt`. The engine search is not checked (its
/// own ordering and pruning may choose another move of equal or different value).
pub fn references(a: Mode, run: &[Mode]) -> Vec<Mode> {
    use Algorithm::*;
    let mut refs = Vec::new();
    let Mode::Textbook(t) = a else {
        return refs;
    };
    if a != AB && run.contains(&AB) {
        refs.push(AB);
    }
    let tt = matches!(t, Sppt | SpptExact | SpptAuto | Aspiration | Mtdf | Sss);
    if tt && run.contains(&ABT) {
        refs.push(ABT);
    }
    refs
}

pub fn mismatches(rows: &[Row], run: &[Mode]) -> Vec<Mismatch> {
    let by_key: BTreeMap<(usize, i32, usize), &Row> = rows
        .iter()
        .map(|r| ((r.position, r.depth, akey(r.algorithm)), r))
        .collect();
    let mut out = Vec::new();
    for r in rows {
        for reference in references(r.algorithm, run) {
            let Some(e) = by_key.get(&(r.position, r.depth, akey(reference))) else {
                continue;
            };
            if e.mv != r.mv || e.score != r.score {
                out.push(Mismatch {
                    position: r.position,
                    depth: r.depth,
                    algorithm: r.algorithm,
                    reference,
                    got: (r.mv.clone(), r.score),
                    expected: (e.mv.clone(), e.score),
                });
            }
        }
    }
    out
}

/// How many comparisons `mismatches` made (for "all N pairs identical").
pub fn comparisons(rows: &[Row], run: &[Mode]) -> usize {
    let have: std::collections::BTreeSet<(usize, i32, usize)> = rows
        .iter()
        .map(|r| (r.position, r.depth, akey(r.algorithm)))
        .collect();
    rows.iter()
        .map(|r| {
            references(r.algorithm, run)
                .into_iter()
                .filter(|&x| have.contains(&(r.position, r.depth, akey(x))))
                .count()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thesis_formula() {
        assert_eq!(extra_pruning(25, 100), Some(75.0));
        assert_eq!(extra_pruning(100, 100), Some(0.0));
        assert_eq!(extra_pruning(150, 100), Some(-50.0));
        assert_eq!(extra_pruning(5, 0), None);
    }
}
