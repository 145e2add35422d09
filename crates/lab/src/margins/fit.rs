//! `augur-lab margins fit`: Buro's regression applied to the margin rules. Per rule, node
//! depth and improving flag, least squares of the deep truth on the shallow estimate, both
//! taken relative to the rule's bound (`x = shallow − bound`, `y = deep − bound`), over x in
//! `[--min, --max]`, mate scores excluded: `y = a·x + b + e`, `e ~ N(0, σ)`, with the same fit
//! and intervals as ProbCut's (`kit::regression`).
//!
//! The margin at threshold T (a confidence p = Φ(T)):
//! - reverse futility and Stockfish-style ProbCut cut when `x ≥ m` and claim `y ≥ 0`; the
//!   smallest m with P(y ≥ 0 | x = m) ≥ p is `m = (T·σ − b) / a`;
//! - futility prunes when `x ≤ −m` and claims `y ≤ 0`: `m = (b + T·σ) / a`.
//!
//! The margin's interval is m at the ends of σ's 95% interval (a and b held: at T ≥ 1 σ's
//! term dominates). Beside it, the points past the margin and the share of them where the
//! claim failed: the normal model's check on the data. Then each rule's engine form, a plane
//! in depth and improving weighted by the cells' sizes, rounded into its options' ranges:
//! reverse futility `RfpBase + RfpMargin·(depth − improving)`, futility `FutilityBase +
//! FutilityMargin·depth`, Stockfish-style ProbCut `SfpcMargin + SfpcDepthMargin·depth −
//! SfpcImproving·improving`; a term the cells cannot decide (one depth only, no improving
//! node) keeps today's value.
//!
//! Writes `margins.csv` (every cell), `margins.toml` (fitted and today's options, with the
//! data's identity and provenance), `setoption.txt`, `engines.toml` (`augur-lab match
//! --engines-file`: `fitted` against `today`) and a chart per rule.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use augur::options::Kind;
use augur::search::config::SearchConfig;
use augur::search::margins::MarginRule;
use augur::search::MATE_BOUND;
use augur_arena::engine::spec::{engines_file_text, EngineSpec};
use clap::Args;
use serde::{Deserialize, Serialize};

use super::collect::{read_csv, Record};
use crate::kit::chart::{CategoryChart, Chart, Series, Style};
use crate::kit::confidence::{normal_cdf, sigma_interval};
use crate::kit::provenance::{sha256_file, Provenance};
use crate::kit::regression::{fit_line, weighted_least_squares, LinearFit};
use crate::kit::run_args::folder_beside;
use crate::kit::summary::SummaryArgs;

#[derive(Args, Debug, Clone)]
pub struct FitArgs {
    /// CSV written by `augur-lab margins collect`.
    pub csv: PathBuf,
    /// The threshold T in σ (ProbCut's T): the margin makes the rule's claim hold with
    /// probability Φ(T) under the fitted model (1.0: 84%).
    #[arg(long, default_value_t = 1.0)]
    pub threshold: f64,
    /// Fit only points with shallow − bound >= MIN (centipawns).
    #[arg(long, default_value_t = -600, allow_negative_numbers = true)]
    pub min: i32,
    /// Fit only points with shallow − bound <= MAX.
    #[arg(long, default_value_t = 600, allow_negative_numbers = true)]
    pub max: i32,
    /// Fewest points for a cell to enter its rule's engine form.
    #[arg(long, default_value_t = 30)]
    pub min_n: usize,
    /// Where the files go; default: the CSV's directory.
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    /// The engine command written into `engines.toml`.
    #[arg(long, default_value = "augur")]
    pub engine_cmd: String,
    /// Write no charts.
    #[arg(long)]
    pub no_plot: bool,
    #[command(flatten)]
    pub summary: SummaryArgs,
}

/// The (x, y) points of a cell: x = shallow − bound, y = deep − bound, no mate score, x in
/// `range`.
pub fn points(
    records: &[Record],
    rule: MarginRule,
    depth: i32,
    improving: Option<bool>,
    range: (i32, i32),
) -> Vec<(f64, f64)> {
    records
        .iter()
        .filter(|r| r.rule == rule && r.depth == depth)
        .filter(|r| improving.is_none_or(|i| r.improving == i))
        .filter(|r| r.shallow.abs() < MATE_BOUND && r.deep.abs() < MATE_BOUND)
        .map(|r| (r.shallow - r.bound, r.deep - r.bound))
        .filter(|&(x, _)| (range.0..=range.1).contains(&x))
        .map(|(x, y)| (x as f64, y as f64))
        .collect()
}

/// The margin of `rule` at threshold `t` under the fitted model (see the module's notes);
/// `None` when the slope is not positive (the estimate does not predict the truth).
pub fn margin(rule: MarginRule, slope: f64, intercept: f64, sigma: f64, t: f64) -> Option<f64> {
    if slope <= 0.0 {
        return None;
    }
    Some(match rule {
        MarginRule::Rfp | MarginRule::Sfpc => (t * sigma - intercept) / slope,
        MarginRule::Futility => (intercept + t * sigma) / slope,
    })
}

/// The points the rule would act on with margin `m`, and of those the ones where its claim
/// was wrong.
pub fn past_and_failed(rule: MarginRule, points: &[(f64, f64)], m: f64) -> (usize, usize) {
    let past: Vec<f64> = points
        .iter()
        .filter(|&&(x, _)| match rule {
            MarginRule::Rfp | MarginRule::Sfpc => x >= m,
            MarginRule::Futility => x <= -m,
        })
        .map(|&(_, y)| y)
        .collect();
    let failed = past
        .iter()
        .filter(|&&y| match rule {
            MarginRule::Rfp | MarginRule::Sfpc => y < 0.0,
            MarginRule::Futility => y > 0.0,
        })
        .count();
    (past.len(), failed)
}

/// One option of a rule's engine form: its name, its regressor at (depth, improving) and
/// today's value.
struct Term {
    option: &'static str,
    regressor: fn(f64, f64) -> f64,
}

/// The terms of each rule's margin as the engine computes it, most important first (a term
/// the data cannot decide is dropped from the end and keeps today's value).
fn terms(rule: MarginRule) -> Vec<Term> {
    match rule {
        MarginRule::Rfp => vec![
            Term {
                option: "RfpMargin",
                regressor: |d, i| d - i,
            },
            Term {
                option: "RfpBase",
                regressor: |_, _| 1.0,
            },
        ],
        MarginRule::Futility => vec![
            Term {
                option: "FutilityMargin",
                regressor: |d, _| d,
            },
            Term {
                option: "FutilityBase",
                regressor: |_, _| 1.0,
            },
        ],
        MarginRule::Sfpc => vec![
            Term {
                option: "SfpcMargin",
                regressor: |_, _| 1.0,
            },
            Term {
                option: "SfpcImproving",
                regressor: |_, i| -i,
            },
            Term {
                option: "SfpcDepthMargin",
                regressor: |d, _| d,
            },
        ],
    }
}

/// Whether the rule's margin depends on the improving flag (its cells are split by it).
fn split_by_improving(rule: MarginRule) -> bool {
    rule != MarginRule::Futility
}

/// A search option's value in `cfg`, by name (the options of the terms are spins).
fn option_value(cfg: &SearchConfig, name: &str) -> Option<i64> {
    let value = match name {
        "RfpMargin" => cfg.rfp.margin,
        "RfpBase" => cfg.rfp.base,
        "FutilityMargin" => cfg.futility.margin,
        "FutilityBase" => cfg.futility.base,
        "SfpcMargin" => cfg.sfpc.margin,
        "SfpcImproving" => cfg.sfpc.improving,
        "SfpcDepthMargin" => cfg.sfpc.depth_margin,
        _ => return None,
    };
    Some(value as i64)
}

/// An option's declared range.
fn option_range(name: &str) -> Option<(i64, i64)> {
    SearchConfig::option_specs()
        .into_iter()
        .find(|s| s.name == name)
        .and_then(|s| match s.kind {
            Kind::Spin { min, max, .. } => Some((min, max)),
            _ => None,
        })
}

/// The rule's margin at (depth, improving) with the options `values` (by term).
fn form_margin(rule: MarginRule, values: &[f64], depth: i32, improving: bool) -> f64 {
    terms(rule)
        .iter()
        .zip(values)
        .map(|(t, v)| v * (t.regressor)(depth as f64, improving as u8 as f64))
        .sum()
}

/// Today's options of the rule's terms.
fn today(rule: MarginRule) -> Vec<f64> {
    let cfg = SearchConfig::default();
    terms(rule)
        .iter()
        .map(|t| option_value(&cfg, t.option).expect("a term's option is a spin") as f64)
        .collect()
}

/// A fitted cell: one rule, node depth and improving flag (`None`: both).
#[derive(Clone, Debug)]
pub struct Cell {
    pub rule: MarginRule,
    pub depth: i32,
    pub improving: Option<bool>,
    pub fit: Option<LinearFit>,
    pub sigma_ci: Option<(f64, f64)>,
    /// The margin, and its values at the ends of σ's interval.
    pub margin: Option<(f64, f64, f64)>,
    /// Today's margin in the engine.
    pub today: f64,
    pub past: usize,
    pub failed: usize,
}

pub fn fit_cells(records: &[Record], range: (i32, i32), t: f64) -> Vec<Cell> {
    let mut depths: BTreeMap<MarginRule, Vec<i32>> = BTreeMap::new();
    for r in records {
        let d = depths.entry(r.rule).or_default();
        if !d.contains(&r.depth) {
            d.push(r.depth);
        }
    }
    let mut cells = Vec::new();
    for (rule, mut ds) in depths {
        ds.sort_unstable();
        let now = today(rule);
        for depth in ds {
            let splits: &[Option<bool>] = if split_by_improving(rule) {
                &[None, Some(false), Some(true)]
            } else {
                &[None]
            };
            for &improving in splits {
                let pts = points(records, rule, depth, improving, range);
                let fit = fit_line(&pts).filter(|f| f.n >= 3);
                let sigma_ci = fit.and_then(|f| sigma_interval(f.sigma, f.n as f64 - 2.0));
                let m = |s: f64| fit.and_then(|f| margin(rule, f.slope, f.intercept, s, t));
                let margin = fit.and_then(|f| {
                    let (lo, hi) = sigma_ci?;
                    Some((m(f.sigma)?, m(lo)?, m(hi)?))
                });
                let (past, failed) =
                    margin.map_or((0, 0), |(v, _, _)| past_and_failed(rule, &pts, v));
                cells.push(Cell {
                    rule,
                    depth,
                    improving,
                    fit,
                    sigma_ci,
                    margin,
                    today: form_margin(rule, &now, depth, improving == Some(true)),
                    past,
                    failed,
                });
            }
        }
    }
    cells
}

/// A rule's engine form fitted to its cells' margins: the options' values (rounded, inside
/// their ranges) and how many terms the data decided (the rest keep today's values).
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub rule: MarginRule,
    /// (option, fitted value, today's value)
    pub options: Vec<(&'static str, i64, i64)>,
    /// Each term's coefficient before rounding; `None` for a term that kept today's value.
    pub raw: Vec<Option<f64>>,
}

/// The weighted least-squares form of `rule` over its cells with at least `min_n` points.
/// Terms are decided from the first: when the cells cannot decide the last ones (one depth
/// gives no slope), those keep today's values. A coefficient outside its option's range is
/// held at the range's end and the others are fitted again around it (least squares under
/// the bounds, one term at a time).
pub fn engine_form(rule: MarginRule, cells: &[Cell], min_n: usize) -> Option<Form> {
    let terms = terms(rule);
    let now = today(rule);
    let ranges: Vec<(i64, i64)> = terms
        .iter()
        .map(|t| option_range(t.option).expect("a term's option is a spin"))
        .collect();
    let used: Vec<(f64, f64, f64, f64)> = cells
        .iter()
        .filter(|c| c.rule == rule)
        .filter(|c| c.improving.is_some() == split_by_improving(rule))
        .filter_map(|c| {
            let f = c.fit.filter(|f| f.n >= min_n)?;
            let imp = (c.improving == Some(true)) as u8 as f64;
            Some((c.depth as f64, imp, c.margin?.0, f.n as f64))
        })
        .collect();
    // Solves for the free terms with the held ones at their values.
    let solve = |held: &[Option<f64>]| -> Option<Vec<f64>> {
        let rows: Vec<(Vec<f64>, f64, f64)> = used
            .iter()
            .map(|&(d, i, m, n)| {
                let mut x = Vec::new();
                let mut target = m;
                for (t, h) in terms.iter().zip(held) {
                    match h {
                        Some(v) => target -= v * (t.regressor)(d, i),
                        None => x.push((t.regressor)(d, i)),
                    }
                }
                (x, target, n)
            })
            .collect();
        let free = held.iter().filter(|h| h.is_none()).count();
        if free == 0 {
            return Some(Vec::new());
        }
        if rows.len() < free {
            return None;
        }
        weighted_least_squares(&rows)
    };
    if used.is_empty() {
        return None;
    }
    for decided in (1..=terms.len()).rev() {
        let mut held: Vec<Option<f64>> = (0..terms.len())
            .map(|k| (k >= decided).then_some(now[k]))
            .collect();
        let Some(mut free) = solve(&held) else {
            continue;
        };
        // Hold the worst offender at its bound and fit the rest again, until all fit.
        loop {
            let free_terms: Vec<usize> = (0..terms.len()).filter(|&k| held[k].is_none()).collect();
            let outside = free_terms
                .iter()
                .zip(&free)
                .map(|(&k, &v)| {
                    let (lo, hi) = (ranges[k].0 as f64, ranges[k].1 as f64);
                    (k, v.clamp(lo, hi), (v - v.clamp(lo, hi)).abs())
                })
                .filter(|o| o.2 > 0.0)
                .max_by(|a, b| a.2.total_cmp(&b.2));
            let Some((k, bound, _)) = outside else { break };
            held[k] = Some(bound);
            free = solve(&held)?;
        }
        let mut values = free.into_iter();
        let raw: Vec<Option<f64>> = (0..terms.len())
            .map(|k| match held[k] {
                Some(_) if k >= decided => None,
                Some(v) => Some(v),
                None => values.next(),
            })
            .collect();
        let options = terms
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let value = raw[k].unwrap_or(now[k]);
                let (lo, hi) = ranges[k];
                (
                    t.option,
                    (value.round() as i64).clamp(lo, hi),
                    now[k] as i64,
                )
            })
            .collect();
        return Some(Form { rule, options, raw });
    }
    None
}

fn improving_label(i: Option<bool>) -> &'static str {
    match i {
        None => "all",
        Some(false) => "no",
        Some(true) => "yes",
    }
}

/// The cells as a Markdown table.
pub fn table(cells: &[Cell]) -> String {
    let mut s = String::from(
        "| rule | depth | improving | n | a | b | σ [95%] | r | margin [σ's interval] | today | past | failed |\n\
         | --- | ---: | --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: |\n",
    );
    for c in cells {
        let Some(f) = c.fit else {
            let _ = writeln!(
                s,
                "| {} | {} | {} | <3 | | | | | | {:.0} | | |",
                c.rule.tag(),
                c.depth,
                improving_label(c.improving),
                c.today
            );
            continue;
        };
        let sigma = c.sigma_ci.map_or(format!("{:.1}", f.sigma), |(lo, hi)| {
            format!("{:.1} [{lo:.1}, {hi:.1}]", f.sigma)
        });
        let margin = c.margin.map_or("-".to_string(), |(m, lo, hi)| {
            format!("{m:.0} [{lo:.0}, {hi:.0}]")
        });
        let failed = if c.past > 0 {
            format!(
                "{} ({:.1}%)",
                c.failed,
                100.0 * c.failed as f64 / c.past as f64
            )
        } else {
            "0".to_string()
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {:.3} | {:.1} | {} | {:.3} | {} | {:.0} | {} | {} |",
            c.rule.tag(),
            c.depth,
            improving_label(c.improving),
            f.n,
            f.slope,
            f.intercept,
            sigma,
            f.r,
            margin,
            c.today,
            c.past,
            failed
        );
    }
    s
}

/// `margins.csv`: every cell, one line each.
fn cells_csv(cells: &[Cell]) -> String {
    let mut s = String::from(
        "rule,depth,improving,n,a,b,sigma,sigma_lo,sigma_hi,r,margin,margin_lo,margin_hi,today,past,failed\n",
    );
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.3}"));
    for c in cells {
        let f = c.fit;
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{:.1},{},{}",
            c.rule.tag(),
            c.depth,
            improving_label(c.improving),
            f.map_or(0, |f| f.n),
            opt(f.map(|f| f.slope)),
            opt(f.map(|f| f.intercept)),
            opt(f.map(|f| f.sigma)),
            opt(c.sigma_ci.map(|s| s.0)),
            opt(c.sigma_ci.map(|s| s.1)),
            opt(f.map(|f| f.r)),
            opt(c.margin.map(|m| m.0)),
            opt(c.margin.map(|m| m.1)),
            opt(c.margin.map(|m| m.2)),
            c.today,
            c.past,
            c.failed
        );
    }
    s
}

/// The per-depth margins of a rule (the cells the form is fitted to, `min_n` points or more)
/// beside its fitted engine form and today's, by depth.
fn chart(
    rule: MarginRule,
    cells: &[Cell],
    form: Option<&Form>,
    t: f64,
    min_n: usize,
) -> Option<Chart> {
    let of_rule: Vec<&Cell> = cells
        .iter()
        .filter(|c| c.rule == rule && c.fit.is_some_and(|f| f.n >= min_n))
        .collect();
    let min_depth = of_rule.iter().map(|c| c.depth).min()?;
    let max_depth = of_rule.iter().map(|c| c.depth).max()?;
    let depths: Vec<i32> = (min_depth..=max_depth).collect();
    let mut chart = CategoryChart::new(
        format!(
            "{}: margin by depth at T = {t} (p = {:.3}), fitted per depth (cells of {min_n}+) and in the engine's form",
            rule.tag(),
            normal_cdf(t)
        ),
        depths.iter().map(i32::to_string).collect(),
    )
    .labels("node depth", "margin (cp)")
    .style(Style::Lines);
    let splits: &[(Option<bool>, &str)] = if split_by_improving(rule) {
        &[(Some(false), "not improving"), (Some(true), "improving")]
    } else {
        &[(None, "all nodes")]
    };
    for &(imp, label) in splits {
        let fitted = depths
            .iter()
            .map(|&d| {
                of_rule
                    .iter()
                    .find(|c| c.depth == d && c.improving == imp)
                    .and_then(|c| c.margin)
                    .map_or(f64::NAN, |m| m.0)
            })
            .collect();
        chart = chart.series(Series::new(format!("fitted per depth, {label}"), fitted));
        let improving = imp == Some(true);
        if let Some(form) = form {
            let values: Vec<f64> = form.options.iter().map(|o| o.1 as f64).collect();
            chart = chart.series(Series::new(
                format!("fitted form, {label}"),
                depths
                    .iter()
                    .map(|&d| form_margin(rule, &values, d, improving))
                    .collect(),
            ));
        }
        let now = today(rule);
        chart = chart.series(Series::new(
            format!("today, {label}"),
            depths
                .iter()
                .map(|&d| form_margin(rule, &now, d, improving))
                .collect(),
        ));
    }
    Some(chart.into())
}

/// The headline figures of a fit (its `--summary`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    pub records: usize,
    pub threshold: f64,
    pub confidence: f64,
    pub options: Vec<FittedOption>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FittedOption {
    pub name: String,
    pub fitted: i64,
    pub today: i64,
}

/// `engines.toml` for `augur-lab match --engines-file`: the fitted margins against today's,
/// one thread and 16 MiB each.
pub fn engines_toml(cmd: &str, fitted: &[(&str, i64)]) -> Result<String> {
    let engine = |name: &str, options: &[(&str, i64)]| {
        let mut spec = EngineSpec::new(name, cmd);
        spec.set_option("Threads", "1");
        spec.set_option("Hash", "16");
        for (k, v) in options {
            spec.set_option(k, &v.to_string());
        }
        spec
    };
    engines_file_text(&[engine("fitted", fitted), engine("today", &[])])
}

pub fn run(args: &FitArgs) -> Result<()> {
    if args.min > args.max {
        bail!("--min {} is above --max {}", args.min, args.max);
    }
    if !(args.threshold.is_finite() && args.threshold >= 0.0) {
        bail!("--threshold must be a number >= 0");
    }
    let records = read_csv(&args.csv)?;
    if records.is_empty() {
        bail!("{}: no data lines", args.csv.display());
    }
    let provenance = Provenance::capture(args, None);
    print!("{}", provenance.markdown());
    let data_sha256 = sha256_file(&args.csv)?;
    let collected = crate::kit::result_log::settings_line(&args.csv);
    let t = args.threshold;
    let range = (args.min, args.max);
    let cells = fit_cells(&records, range, t);
    println!(
        "{}: {} samples; x = shallow − bound in [{}, {}], mates excluded; threshold T = {t} \
         (the rule's claim holds with p = {:.3} under the fit)\n",
        args.csv.display(),
        records.len(),
        args.min,
        args.max,
        normal_cdf(t)
    );
    print!("{}", table(&cells));

    let forms: Vec<Form> = MarginRule::ALL
        .into_iter()
        .filter_map(|rule| engine_form(rule, &cells, args.min_n))
        .collect();
    println!(
        "\nThe engine's forms fitted to the per-depth margins (cells with n >= {}):\n",
        args.min_n
    );
    println!("| option | fitted | today | fitted before rounding |\n| --- | ---: | ---: | --- |");
    for f in &forms {
        for ((name, fitted, now), raw) in f.options.iter().zip(&f.raw) {
            let decided = raw.map_or("kept today's".to_string(), |v| format!("{v:.1}"));
            println!("| {name} | {fitted} | {now} | {decided} |");
        }
    }
    let fitted: Vec<(&str, i64)> = forms
        .iter()
        .flat_map(|f| f.options.iter().map(|o| (o.0, o.1)))
        .collect();
    // The engine must accept every value: checked by its own setter before anything is saved.
    let mut check = SearchConfig::default();
    for (name, v) in &fitted {
        check
            .set_option(name, Some(&v.to_string()))
            .with_context(|| format!("the fitted {name} = {v}"))?;
    }

    let out_dir = folder_beside(args.out_dir.as_deref(), &args.csv)?;
    let write = |name: &str, text: &str| -> Result<PathBuf> {
        let p = out_dir.join(name);
        std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))?;
        Ok(p)
    };
    write("margins.csv", &cells_csv(&cells))?;
    let source = args
        .csv
        .file_name()
        .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    let mut text = format!(
        "# Augur fitted margins, augur-lab margins fit\n# data: {source}, {} samples; sha256 {data_sha256}\n\
         # collect settings: {collected}\n# threshold T = {t} (p = {:.3}); x in [{}, {}]; cells with n >= {}\n",
        records.len(),
        normal_cdf(t),
        args.min,
        args.max,
        args.min_n
    );
    for line in provenance.toml().lines().skip(1) {
        let _ = writeln!(text, "# {line}");
    }
    let mut fitted_table = toml::Table::new();
    let mut today_table = toml::Table::new();
    for f in &forms {
        for (name, v, now) in &f.options {
            fitted_table.insert((*name).into(), (*v).into());
            today_table.insert((*name).into(), (*now).into());
        }
    }
    let mut doc = toml::Table::new();
    doc.insert("fitted".into(), fitted_table.into());
    doc.insert("today".into(), today_table.into());
    text.push_str(&toml::to_string(&doc)?);
    let params = write("margins.toml", &text)?;
    let setoption: String = fitted
        .iter()
        .map(|(k, v)| format!("setoption name {k} value {v}\n"))
        .collect();
    write("setoption.txt", &setoption)?;
    let engines = write("engines.toml", &engines_toml(&args.engine_cmd, &fitted)?)?;
    augur_arena::engine::spec::load_engines_file(&engines)
        .context("the engines file just written")?;
    println!(
        "\nfitted options: {} (setoption.txt beside it); match: augur-lab match --engines-file {}",
        params.display(),
        engines.display()
    );
    if !args.no_plot {
        for rule in MarginRule::ALL {
            let form = forms.iter().find(|f| f.rule == rule);
            if let Some(c) = chart(rule, &cells, form, t, args.min_n) {
                let (svg, _) = c.save(&out_dir, &format!("margins_{}", rule.tag()))?;
                println!("chart: {}", svg.display());
            }
        }
    }
    let figures = Figures {
        records: records.len(),
        threshold: t,
        confidence: normal_cdf(t),
        options: forms
            .iter()
            .flat_map(|f| f.options.iter())
            .map(|(name, fitted, today)| FittedOption {
                name: (*name).to_string(),
                fitted: *fitted,
                today: *today,
            })
            .collect(),
    };
    args.summary.write("margins-fit", &figures)
}
