//! The compare report: markdown (stdout and summary.md) and the charts; results.csv is the
//! run's result file (see `super::run_into`).

use super::analysis::{self, LeafIndex, PruningSummary};
use super::{Plan, Row};
use crate::kit::chart::{CategoryChart, Chart, Series, Style, YScale};
use crate::kit::provenance::Provenance;
use anyhow::{Context, Result};
use augur::search::Mode;
use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::path::Path;
use std::time::Duration;

/// The headline figures of a compare run (its `--summary`): the extra pruning of every pair
/// of algorithms over every depth and parity set, and the move-score checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    pub extra_pruning: Vec<PruningFigures>,
    /// Move-score pairs compared with their reference, and how many differ.
    pub comparisons: usize,
    pub mismatches: usize,
}

/// `100 - 100 * NBP(A1) / NBP(A2)` over a set of depths.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PruningFigures {
    /// `SPP/AB`.
    pub pair: String,
    /// One depth (`5`), or the depths of a parity pooled (`odd (5,7)`).
    pub depths: String,
    pub n: usize,
    /// Over the summed leaf counts.
    pub pooled: f64,
    pub mean: f64,
    pub median: f64,
}

pub struct Report<'a> {
    plan: &'a Plan,
    rows: &'a [Row],
    idx: LeafIndex,
    wall: Duration,
    /// Printed at the head of the report and written as `provenance.toml`.
    pub provenance: Option<Provenance>,
}

/// The thesis's published ranges (section 5.2), printed beside ours.
fn thesis_note(a1: Mode, a2: Mode, odd: Option<bool>) -> &'static str {
    use analysis::{AB, ABT, SPP, SPPT};
    match (a1, a2, odd) {
        (SPP, AB, Some(true)) => "thesis: 60-85% per position (except 15, 16: 0%)",
        (SPP, AB, Some(false)) => "thesis: lower and more spread than at odd depths",
        (ABT, AB, _) => "thesis: 13% (depth 4) to 98% (depth 9)",
        (SPPT, SPP, _) => "thesis: like ABT/AB shifted down; ~0 at depth 4",
        // Section 5.2.4's "around 50%" is the share of each half of the stacked bars
        // (Diagram 14): SPPT/ABT about as large as SPP/AB, a little smaller.
        (SPPT, ABT, Some(true)) => {
            "thesis: about SPP/AB, a little below (stacked halves ~50% each); 14-16 negative"
        }
        (SPPT, ABT, Some(false)) => "thesis: less stable than odd; 14-16 negative",
        _ => "",
    }
}

fn pct(x: f64) -> String {
    format!("{x:.1}")
}

impl<'a> Report<'a> {
    pub fn new(plan: &'a Plan, rows: &'a [Row], wall: Duration) -> Self {
        Report {
            plan,
            rows,
            idx: analysis::leaf_index(rows),
            wall,
            provenance: None,
        }
    }

    fn label(&self, p: usize) -> String {
        format!("{}:{}", p + 1, self.plan.positions[p].id)
    }

    fn depth_sets(&self) -> Vec<(String, Vec<i32>, Option<bool>)> {
        let mut sets: Vec<(String, Vec<i32>, Option<bool>)> = self
            .plan
            .depths
            .iter()
            .map(|&d| (d.to_string(), vec![d], Some(d % 2 == 1)))
            .collect();
        let odd: Vec<i32> = self
            .plan
            .depths
            .iter()
            .copied()
            .filter(|d| d % 2 == 1)
            .collect();
        let even: Vec<i32> = self
            .plan
            .depths
            .iter()
            .copied()
            .filter(|d| d % 2 == 0)
            .collect();
        if self.plan.depths.len() > 1 {
            // A parity row only when it pools two or more depths.
            if odd.len() > 1 {
                sets.push((format!("odd ({})", join(&odd)), odd, Some(true)));
            }
            if even.len() > 1 {
                sets.push((format!("even ({})", join(&even)), even, Some(false)));
            }
        }
        sets
    }

    /// The figures of the run.
    pub fn figures(&self) -> Figures {
        let plan = self.plan;
        let mut extra_pruning = Vec::new();
        for (a1, a2) in analysis::pairs(&plan.algorithms) {
            for (depths, ds, _) in self.depth_sets() {
                if let Some(sm) = analysis::summarize(&self.idx, plan.positions.len(), &ds, a1, a2)
                {
                    extra_pruning.push(PruningFigures {
                        pair: analysis::pair_name(a1, a2),
                        depths,
                        n: sm.n,
                        pooled: sm.pooled,
                        mean: sm.mean,
                        median: sm.median,
                    });
                }
            }
        }
        Figures {
            extra_pruning,
            comparisons: analysis::comparisons(self.rows, &plan.algorithms),
            mismatches: analysis::mismatches(self.rows, &plan.algorithms).len(),
        }
    }

    /// The whole report as markdown; `with_positions` includes the per-position tables.
    pub fn markdown(&self, with_positions: bool) -> String {
        let plan = self.plan;
        let mut s = String::new();
        let algs: Vec<&str> = plan.algorithms.iter().map(|a| a.name()).collect();
        let _ = writeln!(s, "# augur-lab compare\n");
        if let Some(p) = &self.provenance {
            s.push_str(&p.markdown());
        }
        let _ = writeln!(
            s,
            "Suite: {} ({} positions); depths {}; algorithms {}; eval {}; MPD {}; qsearch {}; \
             {} threads; wall time {:.1} s.\n",
            plan.suite_name,
            plan.positions.len(),
            join(&plan.depths),
            algs.join(", "),
            plan.config.eval,
            plan.config.mpd,
            if plan.config.qsearch { "on" } else { "off" },
            plan.threads,
            self.wall.as_secs_f64()
        );
        if plan.algorithms.contains(&analysis::SPP_DYN) {
            let _ = writeln!(s, "spp-dyn's MPD rule: {}.\n", plan.config.mpd_rule);
        }
        if plan.algorithms.contains(&analysis::SPPT_AUTO) {
            let w = plan.config.switch_off;
            let off: Vec<String> = self
                .rows
                .iter()
                .filter(|r| r.algorithm == analysis::SPPT_AUTO)
                .map(|r| r.spp_off_after.map_or("-".into(), |n| n.to_string()))
                .collect();
            let _ = writeln!(
                s,
                "sppt-auto switches SPP off below {}% pruned over {} depth-1 nodes; it switched \
                 off in {} of {} searches (depth-1 nodes measured before: {}).\n",
                w.below_pct,
                w.window,
                off.iter().filter(|o| *o != "-").count(),
                off.len(),
                off.join(" ")
            );
        }

        // Totals per depth and algorithm.
        let _ = writeln!(s, "## Totals per depth\n");
        let _ = write!(s, "| depth |");
        for a in &algs {
            let _ = write!(s, " {a} NBP | {a} NC | {a} s |");
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "|---:|{}", "---:|---:|---:|".repeat(algs.len()));
        for &d in &plan.depths {
            let _ = write!(s, "| {d} |");
            for &a in &plan.algorithms {
                let rs = self
                    .rows
                    .iter()
                    .filter(|r| r.depth == d && r.algorithm == a);
                let (mut l, mut n, mut t) = (0u64, 0u64, 0.0);
                for r in rs {
                    l += r.leaves;
                    n += r.nodes;
                    t += r.time_ms;
                }
                let _ = write!(s, " {l} | {n} | {:.1} |", t / 1000.0);
            }
            let _ = writeln!(s);
        }
        let _ = writeln!(s);

        // Extra pruning.
        let pairs = analysis::pairs(&plan.algorithms);
        if !pairs.is_empty() {
            let _ = writeln!(
                s,
                "## Extra pruning: 100 - 100 * NBP(A1) / NBP(A2), per position\n\n\
                 pooled = over the summed leaf counts; mean/median/min/max = over the \
                 per-position percentages (mean ± the half-width of its 95% Student-t interval, \
                 paired per position: each percentage compares A1 and A2 on one position); \
                 A1>A2 = cases where A1 evaluated more leaves.\n"
            );
            let _ = writeln!(
                s,
                "| A1/A2 | depths | n | pooled % | mean % | median % | min % | max % | A1>A2 | thesis |"
            );
            let _ = writeln!(s, "|---|---|---:|---:|---:|---:|---:|---:|---:|---|");
            for &(a1, a2) in &pairs {
                for (name, ds, odd) in self.depth_sets() {
                    let Some(sm) =
                        analysis::summarize(&self.idx, plan.positions.len(), &ds, a1, a2)
                    else {
                        continue;
                    };
                    let same_parity = plan
                        .depths
                        .iter()
                        .filter(|d| Some(*d % 2 == 1) == odd)
                        .count();
                    // The thesis's range goes on the pooled row, or on the one depth of a parity.
                    let note = if ds.len() > 1 || same_parity == 1 {
                        thesis_note(a1, a2, odd)
                    } else {
                        ""
                    };
                    let _ = writeln!(
                        s,
                        "| {} | {name} | {} | {} |",
                        analysis::pair_name(a1, a2),
                        sm.n,
                        summary_cells(&sm, note)
                    );
                }
            }
            let _ = writeln!(s);
        }

        self.correctness(&mut s);

        if with_positions {
            for &(a1, a2) in &pairs {
                let _ = writeln!(
                    s,
                    "## {} per position (extra pruning %)\n",
                    analysis::pair_name(a1, a2)
                );
                let _ = write!(s, "| # | id |");
                for d in &plan.depths {
                    let _ = write!(s, " d{d} |");
                }
                let _ = writeln!(s);
                let _ = writeln!(s, "|---:|---|{}", "---:|".repeat(plan.depths.len()));
                for p in 0..plan.positions.len() {
                    let _ = write!(s, "| {} | {} |", p + 1, plan.positions[p].id);
                    for &d in &plan.depths {
                        let v =
                            analysis::per_position(&self.idx, plan.positions.len(), d, a1, a2)[p];
                        let _ = write!(s, " {} |", v.map_or("-".to_string(), pct));
                    }
                    let _ = writeln!(s);
                }
                let _ = writeln!(s);
            }
            self.results_table(&mut s);
        }
        s
    }

    fn correctness(&self, s: &mut String) {
        let plan = self.plan;
        let _ = writeln!(s, "## Correctness\n");
        let n = analysis::comparisons(self.rows, &plan.algorithms);
        let bad = analysis::mismatches(self.rows, &plan.algorithms);
        if n == 0 {
            let _ = writeln!(
                s,
                "No move-score comparison made (run alphabeta, and abt for the TT algorithms).\n"
            );
        } else if bad.is_empty() {
            let refs: Vec<String> = plan
                .algorithms
                .iter()
                .filter_map(|&a| {
                    let r = analysis::references(a, &plan.algorithms);
                    (!r.is_empty()).then(|| {
                        format!(
                            "{a} vs {}",
                            r.iter().map(|x| x.name()).collect::<Vec<_>>().join(" and ")
                        )
                    })
                })
                .collect();
            let _ = writeln!(
                s,
                "All {n} move-score pairs identical to their reference ({}).\n",
                refs.join("; ")
            );
        } else {
            let _ = writeln!(
                s,
                "**!!! {} of {n} move-score pairs DIFFER from their reference !!!**\n",
                bad.len()
            );
            let _ = writeln!(
                s,
                "| # | id | depth | algorithm | got | reference | expected |"
            );
            let _ = writeln!(s, "|---:|---|---:|---|---|---|---|");
            for m in &bad {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {} {} | {} | {} {} |",
                    m.position + 1,
                    plan.positions[m.position].id,
                    m.depth,
                    m.algorithm,
                    m.got.0,
                    m.got.1,
                    m.reference,
                    m.expected.0,
                    m.expected.1
                );
            }
            let _ = writeln!(s);
        }
        // SPP must never evaluate more leaves than the algorithm it enhances.
        use analysis::{AB, ABT, SPP, SPPT, SPPT_EXACT, SPP_EXACT};
        for (a1, a2) in [(SPP, AB), (SPP_EXACT, AB), (SPPT, ABT), (SPPT_EXACT, ABT)] {
            if !(plan.algorithms.contains(&a1) && plan.algorithms.contains(&a2)) {
                continue;
            }
            if let Some(sm) =
                analysis::summarize(&self.idx, plan.positions.len(), &plan.depths, a1, a2)
            {
                if sm.worse == 0 {
                    let _ = writeln!(s, "- NBP({a1}) <= NBP({a2}) in all {} cases.", sm.n);
                } else {
                    let _ = writeln!(
                        s,
                        "- **NBP({a1}) > NBP({a2}) in {} of {} cases.**",
                        sm.worse, sm.n
                    );
                }
            }
        }
        let _ = writeln!(s);
    }

    fn results_table(&self, s: &mut String) {
        let plan = self.plan;
        let _ = writeln!(s, "## Results per position and depth\n");
        let _ = write!(s, "| # | id | depth | move | score |");
        for a in &plan.algorithms {
            let _ = write!(s, " {a} NBP |");
        }
        let _ = writeln!(s, " note |");
        let _ = writeln!(
            s,
            "|---:|---|---:|---|---:|{}---|",
            "---:|".repeat(plan.algorithms.len())
        );
        let bad = analysis::mismatches(self.rows, &plan.algorithms);
        for p in 0..plan.positions.len() {
            for &d in &plan.depths {
                let rs: Vec<&Row> = self
                    .rows
                    .iter()
                    .filter(|r| r.position == p && r.depth == d)
                    .collect();
                let Some(first) = rs.first() else { continue };
                let _ = write!(
                    s,
                    "| {} | {} | {d} | {} | {} |",
                    p + 1,
                    plan.positions[p].id,
                    first.mv,
                    first.score
                );
                for &a in &plan.algorithms {
                    let l = rs.iter().find(|r| r.algorithm == a).map(|r| r.leaves);
                    let _ = write!(s, " {} |", l.map_or("-".into(), |l| l.to_string()));
                }
                let diff: Vec<String> = bad
                    .iter()
                    .filter(|m| m.position == p && m.depth == d)
                    .map(|m| format!("{} {} {}", m.algorithm, m.got.0, m.got.1))
                    .collect();
                let note = if diff.is_empty() {
                    String::new()
                } else {
                    format!("**DIFFERS: {}**", diff.join("; "))
                };
                let _ = writeln!(s, " {note} |");
            }
        }
        let _ = writeln!(s);
    }

    pub fn charts(&self) -> Vec<(String, Chart)> {
        let plan = self.plan;
        let n = plan.positions.len();
        let cats: Vec<String> = (0..n).map(|p| self.label(p)).collect();
        let mut out = Vec::new();
        // Diagrams 1-6: leaves per position, log scale, one chart per depth.
        for &d in &plan.depths {
            let mut c = CategoryChart::new(
                format!("NBP (leaf evaluations) per position, depth {d} (log scale)"),
                cats.clone(),
            )
            .labels("position", "NBP")
            .style(Style::GroupedBars)
            .y_scale(YScale::Log10);
            for &a in &plan.algorithms {
                let v = (0..n)
                    .map(|p| {
                        self.idx
                            .get(&(p, d, analysis::akey(a)))
                            .map_or(f64::NAN, |&l| l as f64)
                    })
                    .collect();
                c = c.series(Series::new(a.name(), v));
            }
            out.push((format!("nbp_depth{d}"), c.into()));
        }
        // Diagrams 7-12: extra pruning per position, even and odd depths apart.
        let pairs = analysis::pairs(&plan.algorithms);
        for &(a1, a2) in &pairs {
            for (parity, ds) in depths_by_parity(&plan.depths) {
                let mut c = CategoryChart::new(
                    format!(
                        "Extra pruning of {} on {parity} depths (%)",
                        analysis::pair_name(a1, a2)
                    ),
                    cats.clone(),
                )
                .labels("position", "extra pruning %")
                .style(Style::GroupedBars);
                for d in ds {
                    let v = analysis::per_position(&self.idx, n, d, a1, a2)
                        .into_iter()
                        .map(|x| x.unwrap_or(f64::NAN))
                        .collect();
                    c = c.series(Series::new(format!("depth {d}"), v));
                }
                let stem = format!(
                    "pruning_{}_over_{}_{parity}",
                    a1.name().replace('-', "_"),
                    a2.name().replace('-', "_")
                );
                out.push((stem, c.into()));
            }
        }
        // Diagrams 13-14: SPPT/ABT stacked on SPP/AB per position and depth.
        use analysis::{AB, ABT, SPP, SPPT};
        if pairs.contains(&(SPPT, ABT)) && pairs.contains(&(SPP, AB)) {
            for (parity, ds) in depths_by_parity(&plan.depths) {
                let mut cats2 = Vec::new();
                let (mut top, mut bottom) = (Vec::new(), Vec::new());
                for p in 0..n {
                    for &d in &ds {
                        cats2.push(format!("{} d{d}", p + 1));
                        top.push(
                            analysis::per_position(&self.idx, n, d, SPPT, ABT)[p]
                                .unwrap_or(f64::NAN),
                        );
                        bottom.push(
                            analysis::per_position(&self.idx, n, d, SPP, AB)[p].unwrap_or(f64::NAN),
                        );
                    }
                }
                let c = CategoryChart::new(
                    format!("Stacked extra pruning SPPT/ABT and SPP/AB, {parity} depths (%)"),
                    cats2,
                )
                .labels("position and depth", "extra pruning %")
                .style(Style::StackedBars)
                .series(Series::new("SPPT/ABT", top))
                .series(Series::new("SPP/AB", bottom));
                out.push((format!("stacked_{parity}"), c.into()));
            }
        }
        out
    }

    /// Writes summary.md and every chart as SVG and PNG into `dir` (results.csv is the run's
    /// own result file, written as the searches finish).
    pub fn write_files(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let charts = self.charts();
        let mut md = self.markdown(true);
        let _ = writeln!(md, "## Charts\n");
        for (stem, chart) in &charts {
            chart.save(dir, stem)?;
            let _ = writeln!(md, "- [{stem}]({stem}.svg) ([PNG]({stem}.png))");
        }
        let _ = writeln!(md, "\nPositions:\n");
        for (i, p) in self.plan.positions.iter().enumerate() {
            let _ = writeln!(md, "{}. `{}` {}", i + 1, p.fen, p.id);
        }
        std::fs::write(dir.join("summary.md"), md)
            .with_context(|| format!("writing {}", dir.join("summary.md").display()))?;
        if let Some(p) = &self.provenance {
            p.write_into(dir)?;
        }
        Ok(())
    }
}

fn summary_cells(sm: &PruningSummary, note: &str) -> String {
    format!(
        "{} | {} | {} | {} | {} | {} | {note}",
        pct(sm.pooled),
        sm.mean_ci.map_or_else(|| pct(sm.mean), |ci| ci.text(1)),
        pct(sm.median),
        pct(sm.min),
        pct(sm.max),
        sm.worse
    )
}

fn join(ds: &[i32]) -> String {
    ds.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(",")
}
/// The depths split into ("even", ...) and ("odd", ...), leaving out a parity with none: the
/// thesis draws even and odd depths apart (the odd-even effect of alpha-beta).
fn depths_by_parity(depths: &[i32]) -> Vec<(&'static str, Vec<i32>)> {
    [("even", 0), ("odd", 1)]
        .into_iter()
        .map(|(name, rem)| {
            let ds = depths.iter().copied().filter(|d| d.rem_euclid(2) == rem);
            (name, ds.collect::<Vec<i32>>())
        })
        .filter(|(_, ds)| !ds.is_empty())
        .collect()
}
