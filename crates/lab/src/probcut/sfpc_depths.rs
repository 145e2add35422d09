//! `augur-lab sfpc-depths`: the seed-004 measurement. Stockfish-style ProbCut verifies a
//! capture with a reduced search whose depth the seed patch made depend on staticEval − beta:
//! deeper when the static eval is far below beta, shallower when far above. Stockfish found the
//! first effect only after merging it (#6280) and clamped it away. This command searches many
//! positions once per depth rule and counts, per static-eval gap bucket, the verification
//! depths computed and how many came out deeper or shallower than the fixed rule's; it also
//! reports each rule's nodes, paired per position against the first rule.
//!
//! Searches run in this process, each from a fresh state (new table and histories), so a run
//! is deterministic. With `--out FILE` each position's block (one record per rule) is appended
//! as it finishes, and the same command resumes after a kill (`result_log`).

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use serde::{Deserialize, Serialize};

use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::limits::Limits;
use augur::search::stats::{sfpc_gap_range, SfpcGap, Technique, SFPC_GAP_BUCKETS};
use augur::search::SearchTeam;

use crate::data::epd::{epd_identity, load_epd};
use crate::kit::confidence::{mean_interval, wilson};
use crate::kit::jobs::{self, PositionBlocks};
use crate::kit::provenance::{in_process_engine, Provenance};
use crate::kit::result_log::{Header, Row};
use crate::kit::run_args::OutputArgs;
use crate::variants::search_config;

pub const DEFAULT_RULES: &str = "fixed,dynamic,dynamic-clamped";

#[derive(Args, Debug, Clone)]
#[command(mut_arg("out", |a| a.value_name("FILE").help(
    "Per-position results as CSV, written as they finish; the same command resumes it"
)))]
pub struct SfpcDepthsArgs {
    /// Positions (EPD); default: the bundled 300-position TCEC sample.
    #[arg(long)]
    pub epd: Option<PathBuf>,
    /// How many positions (the first N).
    #[arg(long, default_value_t = 300)]
    pub positions: usize,
    /// Depth of every search.
    #[arg(long, default_value_t = 12)]
    pub depth: i32,
    /// The verification-depth rules (`SfpcDepthRule` values), comma-separated; the first is
    /// the reference of the paired node counts.
    #[arg(long, default_value = DEFAULT_RULES)]
    pub rules: String,
    /// Hash table of each search (MiB).
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// One rule's search of one position; a record of the result file (`index` its 1-based
/// place in the run, `line` in the EPD; the gap buckets as `computed/extended/reduced` words).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    pub index: usize,
    pub line: usize,
    pub rule: String,
    pub depth: i32,
    pub nodes: u64,
    /// Stockfish-style ProbCut: tried, cut.
    pub sfpc_tried: u64,
    pub sfpc_cut: u64,
    #[serde(with = "gap_words")]
    pub gaps: [SfpcGap; SFPC_GAP_BUCKETS],
    pub fen: String,
}

impl Row for Measured {
    const COLUMNS: &'static str = COLUMNS;
}

jobs::position_row!(Measured, rule);

pub const COLUMNS: &str = "index,line,rule,depth,nodes,sfpc_tried,sfpc_cut,gaps,fen";

/// The gap buckets as one field: `computed/extended/reduced` per bucket, space-separated.
mod gap_words {
    use augur::search::stats::{SfpcGap, SFPC_GAP_BUCKETS};
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        gaps: &[SfpcGap; SFPC_GAP_BUCKETS],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let words: Vec<String> = gaps
            .iter()
            .map(|g| format!("{}/{}/{}", g.computed, g.extended, g.reduced))
            .collect();
        s.serialize_str(&words.join(" "))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<[SfpcGap; SFPC_GAP_BUCKETS], D::Error> {
        let text = String::deserialize(d)?;
        let words: Vec<&str> = text.split(' ').collect();
        if words.len() != SFPC_GAP_BUCKETS {
            return Err(D::Error::custom(format!(
                "gaps: {} buckets, not {SFPC_GAP_BUCKETS}",
                words.len()
            )));
        }
        let mut gaps = [SfpcGap::default(); SFPC_GAP_BUCKETS];
        for (g, word) in gaps.iter_mut().zip(words) {
            let n: Vec<u64> = word
                .split('/')
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|_| D::Error::custom(format!("gaps: bad bucket '{word}'")))?;
            let [computed, extended, reduced] = n[..] else {
                return Err(D::Error::custom(format!(
                    "gaps: bucket '{word}' is not computed/extended/reduced"
                )));
            };
            *g = SfpcGap {
                computed,
                extended,
                reduced,
            };
        }
        Ok(gaps)
    }
}

/// The search configuration of a rule: `Sfpc` on, `SfpcDepthRule=rule`.
fn rule_config(rule: &str) -> Result<SearchConfig> {
    let options = [
        ("Sfpc".to_string(), "true".to_string()),
        ("SfpcDepthRule".to_string(), rule.to_string()),
    ];
    Ok(search_config(&options)
        .with_context(|| format!("rule '{rule}'"))?
        .0)
}

/// One search from a fresh state with the rule's configuration `cfg` (its place in the run
/// left for the caller).
fn measure(
    pos: &Position,
    rule: &str,
    cfg: &SearchConfig,
    depth: i32,
    hash: usize,
) -> Result<Measured> {
    let mut team = SearchTeam::new(cfg.clone(), hash).map_err(|e| anyhow!("{e}"))?;
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let stats = team.search(pos, &limits).stats;
    Ok(Measured {
        index: 0,
        line: 0,
        rule: rule.to_string(),
        depth,
        nodes: stats.nodes,
        sfpc_tried: stats.tried[Technique::Sfpc as usize],
        sfpc_cut: stats.cut[Technique::Sfpc as usize],
        gaps: stats.sfpc_gaps,
        fen: String::new(),
    })
}

fn range_text(i: usize) -> String {
    match sfpc_gap_range(i) {
        (None, Some(hi)) => format!("< {hi}"),
        (Some(lo), None) => format!("≥ {lo}"),
        (Some(lo), Some(hi)) => format!("[{lo}, {hi})"),
        (None, None) => "all".into(),
    }
}

fn share(k: u64, n: u64) -> String {
    match wilson(k as usize, n as usize) {
        Some((lo, hi)) => format!(
            "{:.1}% [{:.1}, {:.1}]",
            100.0 * k as f64 / n as f64,
            100.0 * lo,
            100.0 * hi
        ),
        None => "–".into(),
    }
}

/// The two tables: per rule (nodes, paired against the first rule; verifications; ProbCut's
/// cut rate) and per gap bucket (each rule's verifications, extended and reduced shares).
/// The headline figures of a run (its `--summary`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    pub positions: usize,
    pub depth: i32,
    pub rules: Vec<RuleFigures>,
}

/// One rule's verification depths over all positions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuleFigures {
    pub rule: String,
    /// Verification depths computed, and how many came out deeper or shallower than the fixed
    /// rule's.
    pub verifications: u64,
    pub extended: u64,
    pub reduced: u64,
}

/// Rule `r`'s gap buckets summed over every bucket and position.
fn totals(blocks: &[Vec<Measured>], r: usize) -> SfpcGap {
    let mut t = SfpcGap::default();
    for g in blocks.iter().flat_map(|b| &b[r].gaps) {
        t.computed += g.computed;
        t.extended += g.extended;
        t.reduced += g.reduced;
    }
    t
}

/// Each rule's verifications, extended and reduced.
pub fn figures(blocks: &[Vec<Measured>], rules: &[String], depth: i32) -> Figures {
    Figures {
        positions: blocks.len(),
        depth,
        rules: rules
            .iter()
            .enumerate()
            .map(|(r, rule)| {
                let t = totals(blocks, r);
                RuleFigures {
                    rule: rule.clone(),
                    verifications: t.computed,
                    extended: t.extended,
                    reduced: t.reduced,
                }
            })
            .collect(),
    }
}

pub fn report(blocks: &[Vec<Measured>], rules: &[String]) -> String {
    let n = blocks.len();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| rule | positions | mean nodes | nodes vs {} (paired, %) | verifications | extended | reduced | ProbCut cuts / tries |",
        rules[0]
    );
    let _ = writeln!(out, "| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (r, rule) in rules.iter().enumerate() {
        let nodes: Vec<f64> = blocks.iter().map(|b| b[r].nodes as f64).collect();
        let mean = nodes.iter().sum::<f64>() / n.max(1) as f64;
        let paired = if r == 0 {
            "–".to_string()
        } else {
            let change: Vec<f64> = blocks
                .iter()
                .map(|b| 100.0 * (b[r].nodes as f64 / b[0].nodes.max(1) as f64 - 1.0))
                .collect();
            mean_interval(&change).map_or("–".into(), |i| i.text(2))
        };
        let t = totals(blocks, r);
        let computed = t.computed;
        let (tried, cut) = blocks
            .iter()
            .fold((0, 0), |(t, c), b| (t + b[r].sfpc_tried, c + b[r].sfpc_cut));
        let _ = writeln!(
            out,
            "| {rule} | {n} | {mean:.0} | {paired} | {computed} | {} | {} | {} |",
            share(t.extended, computed),
            share(t.reduced, computed),
            share(cut, tried)
        );
    }
    out.push('\n');
    let mut head = "| staticEval − beta (cp) |".to_string();
    let mut rule_line = "| --- |".to_string();
    for rule in rules {
        let _ = write!(
            head,
            " {rule}: computed | {rule}: extended | {rule}: reduced |"
        );
        rule_line.push_str(" ---: | ---: | ---: |");
    }
    let _ = writeln!(out, "{head}\n{rule_line}");
    for i in 0..SFPC_GAP_BUCKETS {
        let _ = write!(out, "| {} |", range_text(i));
        for r in 0..rules.len() {
            let at = |f: &dyn Fn(&SfpcGap) -> u64| -> u64 {
                blocks.iter().map(|b| f(&b[r].gaps[i])).sum()
            };
            let computed = at(&|g| g.computed);
            let _ = write!(
                out,
                " {computed} | {} | {} |",
                share(at(&|g| g.extended), computed),
                share(at(&|g| g.reduced), computed)
            );
        }
        out.push('\n');
    }
    out
}

pub fn run(args: &SfpcDepthsArgs) -> Result<()> {
    if args.depth < 1 {
        bail!("--depth must be at least 1");
    }
    let rules: Vec<String> = args
        .rules
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if rules.is_empty() {
        bail!("--rules names no rule");
    }
    let configs: Vec<SearchConfig> = rules
        .iter()
        .map(|rule| rule_config(rule).context("--rules"))
        .collect::<Result<_>>()?;
    let mut positions = load_epd(args.epd.as_deref())?;
    positions.truncate(args.positions);
    if positions.is_empty() {
        bail!("no positions");
    }
    let boards: Vec<Position> = positions
        .iter()
        .map(|p| Position::from_fen(&p.fen, false).map_err(|e| anyhow!("line {}: {e}", p.line)))
        .collect::<Result<_>>()?;
    let provenance = Provenance::capture(args, None);
    let (epd, epd_sha256) = epd_identity(args.epd.as_deref())?;
    let header = Header {
        kind: "sfpc-depths".into(),
        settings: vec![
            ("epd".into(), epd),
            ("epd_sha256".into(), epd_sha256),
            ("positions".into(), positions.len().to_string()),
            ("depth".into(), args.depth.to_string()),
            ("rules".into(), rules.join(",")),
            ("hash_mb".into(), args.hash.to_string()),
            ("engine".into(), in_process_engine()),
        ],
        provenance: provenance.clone(),
        columns: COLUMNS.into(),
    };
    let places: Vec<(usize, String)> = positions.iter().map(|p| (p.line, p.fen.clone())).collect();
    let members: Vec<&str> = rules.iter().map(String::as_str).collect();
    let job = PositionBlocks {
        positions: &places,
        members: &members,
        measure: |i: usize| -> Result<Vec<Measured>> {
            rules
                .iter()
                .zip(&configs)
                .map(|(rule, cfg)| measure(&boards[i], rule, cfg, args.depth, args.hash))
                .collect()
        },
    };
    let file = args.output.out.as_deref().map(|p| (p, header));
    let blocks = job.run(file, !args.output.quiet)?;
    print!("{}", provenance.markdown());
    println!(
        "{} positions at depth {}, `Sfpc` on, one search per rule from a fresh state; shares with Wilson 95% intervals (they treat the verifications of one search as independent, so read them as lower bounds on the uncertainty), paired node change as a mean ± 95% t interval",
        blocks.len(),
        args.depth
    );
    print!("{}", report(&blocks, &rules));
    args.output
        .summary
        .write("sfpc-depths", &figures(&blocks, &rules, args.depth))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::result_log;

    /// The fixed rule never extends or reduces; the dynamic rule extends only far below beta
    /// and reduces only far above; the clamped one never extends. The CSV round-trips, and the
    /// report's totals are the sums of the records.
    #[test]
    fn each_rule_changes_the_depth_only_where_it_should() {
        let pos = Position::from_fen(
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
            false,
        )
        .unwrap();
        let rules: Vec<String> = DEFAULT_RULES.split(',').map(String::from).collect();
        let block: Vec<Measured> = rules
            .iter()
            .map(|r| measure(&pos, r, &rule_config(r).unwrap(), 9, 4).unwrap())
            .collect();
        let total = |m: &Measured, f: fn(&SfpcGap) -> u64| m.gaps.iter().map(f).sum::<u64>();
        for m in &block {
            assert!(total(m, |g| g.computed) > 0, "{}", m.rule);
            let line = result_log::to_line(m).unwrap();
            assert_eq!(result_log::from_line::<Measured>(&line).unwrap(), *m);
        }
        assert_eq!(total(&block[0], |g| g.extended + g.reduced), 0);
        assert_eq!(total(&block[2], |g| g.extended), 0);
        for (i, g) in block[1].gaps.iter().enumerate() {
            let (lo, hi) = sfpc_gap_range(i);
            if lo.is_some_and(|l| l > -300) {
                assert_eq!(g.extended, 0, "bucket {i}");
            }
            if hi.is_some_and(|h| h <= 300) {
                assert_eq!(g.reduced, 0, "bucket {i}");
            }
        }
        let text = report(std::slice::from_ref(&block), &rules);
        let computed = total(&block[1], |g| g.computed);
        assert!(
            text.contains(&format!("| dynamic | 1 | {} | ", block[1].nodes)),
            "{text}"
        );
        assert!(text.contains(&format!(" | {computed} | ")), "{text}");
        assert!(
            text.contains("| ≥ 900 |") && text.contains("| < -900 |"),
            "{text}"
        );
    }

    #[test]
    fn a_damaged_record_is_an_error() {
        let parse = |line: &str| result_log::from_line::<Measured>(line).map_err(|e| e.to_string());
        let e = parse("1,2,fixed,9,100,3,1,0/0/0,fen").unwrap_err();
        assert_eq!(e, format!("gaps: 1 buckets, not {SFPC_GAP_BUCKETS}"));
        let gaps = vec!["1/0/x"; SFPC_GAP_BUCKETS].join(" ");
        assert!(parse(&format!("1,2,fixed,9,100,3,1,{gaps},fen")).is_err());
        let gaps = vec!["1/0"; SFPC_GAP_BUCKETS].join(" ");
        assert!(parse(&format!("1,2,fixed,9,100,3,1,{gaps},fen")).is_err());
        let gaps = vec!["1/0/0"; SFPC_GAP_BUCKETS].join(" ");
        assert!(parse(&format!("1,2,fixed,9,100,3,1,{gaps},fen")).is_ok());
    }
}
