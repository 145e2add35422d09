//! Spreads as distributions: percentiles, the share above a fixed MPD, and the tables of the
//! report per evaluation and phase.

use std::fmt::Write as _;

use super::measure::{Phase, SiblingSpread, KINDS};

/// Nearest-rank percentile of sorted values (q in 0..=1).
pub fn percentile(sorted: &[i32], q: f64) -> Option<i32> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// Distribution summary of spreads: count, max, 99.9th and 99th percentiles, median, and
/// the share above `mpd`.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    pub n: usize,
    pub max: i32,
    pub p999: i32,
    pub p99: i32,
    pub median: i32,
    pub over: usize,
}

pub fn distribution(values: &[i32], mpd: i32) -> Option<Distribution> {
    let mut v = values.to_vec();
    v.sort_unstable();
    Some(Distribution {
        n: v.len(),
        max: *v.last()?,
        p999: percentile(&v, 0.999)?,
        p99: percentile(&v, 0.99)?,
        median: percentile(&v, 0.5)?,
        over: v.iter().filter(|&&x| x > mpd).count(),
    })
}

fn row(s: &mut String, label: &str, phase: &str, d: &Distribution) {
    let _ = writeln!(
        s,
        "| {label} | {phase} | {} | {} | {} | {} | {} | {:.2}% |",
        d.n,
        d.max,
        d.p999,
        d.p99,
        d.median,
        100.0 * d.over as f64 / d.n.max(1) as f64
    );
}

pub fn table(s: &mut String, title: &str, samples: &[SiblingSpread], mpd: i32) {
    let _ = writeln!(s, "## {title}\n");
    let _ = writeln!(
        s,
        "| eval | phase | positions | max | 99.9% | 99% | median | spread > {mpd} |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|---:|---:|");
    for (k, kind) in KINDS.iter().enumerate() {
        for ph in Phase::ALL.iter().map(Some).chain([None]) {
            let v: Vec<i32> = samples
                .iter()
                .filter(|x| ph.is_none_or(|p| x.phase == *p))
                .filter_map(|x| x.spread[k])
                .collect();
            if let Some(d) = distribution(&v, mpd) {
                row(s, &kind.to_string(), ph.map_or("all", |p| p.name()), &d);
            }
        }
    }
    let _ = writeln!(s);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_nearest_rank() {
        let v: Vec<i32> = (1..=1000).collect();
        assert_eq!(percentile(&v, 0.5), Some(500));
        assert_eq!(percentile(&v, 0.99), Some(990));
        assert_eq!(percentile(&v, 0.999), Some(999));
        assert_eq!(percentile(&[], 0.5), None);
    }
}
