//! `augur-lab accuracy`: the accuracy measure Jiang & Buro suggest for forward pruning. A
//! deeper search is the oracle: the first variant (the baseline) at depth d + k. Each variant searches every
//! position at depth d; its move is judged by the oracle, not by its own score. Reported per
//! variant: the share of positions where its move differs from the oracle's (Wilson 95%
//! interval) and the mean loss, the oracle's score of its own best move minus the
//! oracle-depth score of the variant's move (`go depth d+k searchmoves <move>`), with a 95%
//! interval and, against the first variant, a paired one. Searches run in this process, each
//! from a fresh state (new table and histories), so a run is deterministic.
//!
//! With `--out FILE` every position's block (the oracle's line, then one per variant) is
//! appended as it finishes and the same command resumes after a kill (`result_log`).
//!
//! Two more forms: `--nodes N,...` judges the scaling study's techniques at equal nodes
//! ([`nodes`]), and `--correlate scaling.csv...` correlates such a run with the study's Elo
//! points ([`correlate`]).

pub mod correlate;
pub mod nodes;

/// The positions as boards, each with a move to judge: a bad FEN or a finished game is
/// refused by its EPD line.
fn playable(positions: &[crate::data::epd::EpdLine]) -> Result<Vec<Position>> {
    positions
        .iter()
        .map(|p| {
            let pos =
                Position::from_fen(&p.fen, false).map_err(|e| anyhow!("line {}: {e}", p.line))?;
            if pos.legal_moves().is_empty() {
                bail!("line {}: no legal move (mate or stalemate)", p.line);
            }
            Ok(pos)
        })
        .collect()
}

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use serde::{Deserialize, Serialize};

use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::limits::Limits;
use augur::search::{SearchTeam, MATE_BOUND};

use super::{check_fitted_pairs, search_config, Variant};
use crate::data::epd::{epd_identity, load_epd};
use crate::kit::confidence::{mean_interval, paired_interval, wilson, Interval};
use crate::kit::jobs::{self, PositionBlocks};
use crate::kit::provenance::{in_process_engine, Provenance};
use crate::kit::result_log::{Header, Row};
use crate::kit::run_args::OutputArgs;

/// The variants of the forward-pruning family, each alone on the search without them (`Sfpc`
/// is on by default, so the others switch it off).
pub const DEFAULT_VARIANTS: [&str; 5] = [
    "baseline:Sfpc=false",
    "probcut:Sfpc=false,ProbCut=true",
    "mpc:Sfpc=false,Mpc=true",
    "sfpc:Sfpc=true",
    "sppf:Sfpc=false,Sppf=true",
];

/// Scores beyond this (mates) count as this much when losses are taken, so that a mate in 3
/// against a mate in 5 is no loss of thousands of centipawns.
pub const SCORE_CAP: i32 = 1000;

#[derive(Args, Debug, Clone)]
#[command(mut_arg("out", |a| a.value_name("FILE").help(
    "Per-position results as CSV, written as they finish; the same command resumes it"
)))]
pub struct AccuracyArgs {
    /// Positions (EPD); default: the bundled 300-position TCEC sample.
    #[arg(long)]
    pub epd: Option<PathBuf>,
    /// How many positions (the first N); default 100, with --nodes 300.
    #[arg(long)]
    pub positions: Option<usize>,
    /// Depth of the variants' searches.
    #[arg(long, default_value_t = 9)]
    pub depth: i32,
    /// The oracle searches this many plies deeper (than --depth; with --nodes, than the depth
    /// the default engine reaches at the control); default 2, with --nodes 6.
    #[arg(long)]
    pub extra: Option<i32>,
    /// Equal nodes: each technique's two sides search `go nodes N` at each of these controls
    /// (comma-separated), judged by the default engine searched deeper (see --extra,
    /// --oracle-depth); needs --out FILE, and keeps the oracle's searches in FILE.oracle.csv.
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["depth", "variants"])]
    pub nodes: Vec<u64>,
    /// With --nodes: techniques as `augur-lab scaling` takes them (`base`, `calibration`,
    /// `mpc`, `probcut`, `seed004`, `se`, `NAME:Opt=Val,...`; repeatable); default: base, mpc,
    /// probcut, seed004, clamp, se, nosfpc.
    #[arg(long = "technique", short = 't', requires = "nodes")]
    pub techniques: Vec<String>,
    /// With --nodes: the ProbCut-family model of `mpc` and `probcut` (the one the study played
    /// with).
    #[arg(long, requires = "nodes")]
    pub params: Option<PathBuf>,
    /// With --nodes: the oracle's depth, the same at every control.
    #[arg(long, requires = "nodes")]
    pub oracle_depth: Option<i32>,
    /// With --nodes: positions searched at once (one thread each).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Correlate the `--nodes` run in --out with the Elo points of these scaling.csv files.
    #[arg(long, num_args = 1.., conflicts_with_all = ["nodes", "variants"])]
    pub correlate: Vec<PathBuf>,
    /// Variants `name:Opt=Val,...` (repeatable); default: baseline, probcut, mpc, sfpc, sppf.
    /// The first is the oracle (at depth + extra) and the reference of the paired intervals.
    #[arg(long = "variant", short = 'v')]
    pub variants: Vec<String>,
    /// Hash table of each search (MiB).
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// One search's result in a position: the oracle's or a variant's; a record of the result
/// file (`index` is the position's 1-based place in the run, `line` its line in the EPD).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Judged {
    pub index: usize,
    pub line: usize,
    pub variant: String,
    pub depth: i32,
    pub nodes: u64,
    pub bestmove: String,
    /// The searcher's own score.
    pub score: i32,
    /// The oracle-depth score of `bestmove`.
    pub oracle_score: i32,
    /// The oracle's best score minus `oracle_score`, both capped at ±[`SCORE_CAP`].
    pub loss: i32,
    pub fen: String,
}

impl Row for Judged {
    const COLUMNS: &'static str = COLUMNS;
}

jobs::position_row!(Judged, variant);

pub const COLUMNS: &str = "index,line,variant,depth,nodes,bestmove,score,oracle_score,loss,fen";

fn capped(score: i32) -> i32 {
    score.clamp(-SCORE_CAP, SCORE_CAP)
}

/// A search from a fresh state: (best move in UCI, score, nodes).
fn search(
    cfg: &SearchConfig,
    hash: usize,
    pos: &Position,
    depth: i32,
    only: Option<&str>,
) -> Result<(String, i32, u64)> {
    let mut team = SearchTeam::new(cfg.clone(), hash).map_err(|e| anyhow!("{e}"))?;
    let limits = Limits {
        depth: Some(depth),
        searchmoves: only.map(|m| vec![m.to_string()]).unwrap_or_default(),
        ..Default::default()
    };
    let r = team.search(pos, &limits);
    let best = r.best.map_or_else(|| "-".to_string(), |m| pos.uci(m));
    Ok((best, r.score, r.stats.nodes))
}

/// The oracle's line and each variant's for one position (the block of the result file, its
/// place in the run left for the caller).
fn judge(
    pos: &Position,
    oracle_cfg: &SearchConfig,
    variants: &[(String, SearchConfig)],
    depth: i32,
    extra: i32,
    hash: usize,
) -> Result<Vec<Judged>> {
    let oracle_depth = depth + extra;
    let (oracle_move, oracle_best, oracle_nodes) =
        search(oracle_cfg, hash, pos, oracle_depth, None)?;
    // The oracle-depth score of each move a variant chose (its own for the oracle's move).
    let mut scored: HashMap<String, i32> = HashMap::from([(oracle_move.clone(), oracle_best)]);
    let mut block = vec![Judged {
        index: 0,
        line: 0,
        variant: "oracle".into(),
        depth: oracle_depth,
        nodes: oracle_nodes,
        bestmove: oracle_move,
        score: oracle_best,
        oracle_score: oracle_best,
        loss: 0,
        fen: String::new(),
    }];
    for (name, cfg) in variants {
        let (mv, score, nodes) = search(cfg, hash, pos, depth, None)?;
        let oracle_score = match scored.get(&mv) {
            Some(&s) => s,
            None => {
                let (_, s, _) = search(oracle_cfg, hash, pos, oracle_depth, Some(&mv))?;
                scored.insert(mv.clone(), s);
                s
            }
        };
        block.push(Judged {
            index: 0,
            line: 0,
            variant: name.clone(),
            depth,
            nodes,
            bestmove: mv,
            score,
            oracle_score,
            loss: capped(oracle_best) - capped(oracle_score),
            fen: String::new(),
        });
    }
    Ok(block)
}

/// Per variant over all positions: (name, differs, loss values, nodes values).
struct Column {
    name: String,
    differs: usize,
    losses: Vec<f64>,
    nodes: Vec<f64>,
}

fn columns(blocks: &[Vec<Judged>], names: &[String]) -> Vec<Column> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let rows: Vec<(&Judged, &Judged)> = blocks.iter().map(|b| (&b[0], &b[i + 1])).collect();
            Column {
                name: name.clone(),
                differs: rows
                    .iter()
                    .filter(|(o, v)| o.bestmove != v.bestmove)
                    .count(),
                losses: rows.iter().map(|(_, v)| f64::from(v.loss)).collect(),
                nodes: rows.iter().map(|(_, v)| v.nodes as f64).collect(),
            }
        })
        .collect()
}

/// The headline figures of an accuracy run (its `--summary`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// The variants' depth; the oracle searches `extra` plies deeper.
    pub depth: i32,
    pub extra: i32,
    pub variants: Vec<VariantFigures>,
}

/// One variant's moves judged by the oracle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantFigures {
    pub name: String,
    pub positions: usize,
    /// Positions where its move is not the oracle's.
    pub differs: usize,
    /// The mean loss in centipawns, with its 95% interval.
    pub mean_loss: Option<Interval>,
}

/// Each variant's differing moves and mean loss.
pub fn figures(blocks: &[Vec<Judged>], names: &[String], depth: i32, extra: i32) -> Figures {
    Figures {
        depth,
        extra,
        variants: columns(blocks, names)
            .into_iter()
            .map(|c| VariantFigures {
                mean_loss: mean_interval(&c.losses),
                name: c.name,
                positions: blocks.len(),
                differs: c.differs,
            })
            .collect(),
    }
}

/// The table: per variant, the differing share, the mean loss, the loss against the first
/// variant (paired), and the mean nodes.
pub fn report(blocks: &[Vec<Judged>], names: &[String]) -> String {
    let cols = columns(blocks, names);
    let n = blocks.len();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| variant | positions | move differs from the oracle's | mean loss (cp) | loss − {}'s (paired, cp) | mean nodes | nodes / {}'s |",
        names[0], names[0]
    );
    let _ = writeln!(out, "| --- | --- | --- | --- | --- | --- | --- |");
    let base = &cols[0];
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    for c in &cols {
        let share = match wilson(c.differs, n) {
            Some((lo, hi)) => format!(
                "{:.1}% [{:.1}, {:.1}] ({}/{n})",
                100.0 * c.differs as f64 / n.max(1) as f64,
                100.0 * lo,
                100.0 * hi,
                c.differs
            ),
            None => "-".into(),
        };
        let loss = mean_interval(&c.losses).map_or("-".into(), |i| i.text(1));
        let paired = if std::ptr::eq(c, base) {
            "-".to_string()
        } else {
            paired_interval(&c.losses, &base.losses).map_or("-".into(), |i| i.text(1))
        };
        let ratio = mean(&c.nodes) / mean(&base.nodes).max(1.0);
        let _ = writeln!(
            out,
            "| {} | {n} | {share} | {loss} | {paired} | {:.0} | {:.3} |",
            c.name,
            mean(&c.nodes),
            ratio
        );
    }
    out
}

pub fn run(args: &AccuracyArgs) -> Result<()> {
    if !args.correlate.is_empty() {
        let out = args
            .output
            .out
            .as_deref()
            .context("--correlate needs --out FILE, the `--nodes` run to correlate")?;
        let f = correlate::run(out, &args.correlate)?;
        print!("{}", correlate::report(&f));
        return args.output.summary.write("accuracy-correlate", &f);
    }
    if !args.nodes.is_empty() {
        return nodes::run(args).map(|_| ());
    }
    let extra = args.extra.unwrap_or(2);
    if args.depth < 1 || extra < 1 {
        bail!("--depth and --extra must be at least 1");
    }
    let texts: Vec<String> = if args.variants.is_empty() {
        DEFAULT_VARIANTS.iter().map(|s| s.to_string()).collect()
    } else {
        args.variants.clone()
    };
    let variants = Variant::parse_all(&texts)?;
    let mut configs = Vec::new();
    for v in &variants {
        let (cfg, others) =
            search_config(&v.options).with_context(|| format!("variant '{}'", v.name))?;
        if !others.is_empty() {
            bail!(
                "variant '{}': {} not a search option (the searches run in this process)",
                v.name,
                others.join(", ")
            );
        }
        for w in check_fitted_pairs(&v.name, &cfg)? {
            eprintln!("WARNING: {w}");
        }
        configs.push((v.name.clone(), cfg));
    }
    let names: Vec<String> = variants.iter().map(|v| v.name.clone()).collect();
    let mut positions = load_epd(args.epd.as_deref())?;
    positions.truncate(args.positions.unwrap_or(100));
    if positions.is_empty() {
        bail!("no positions");
    }
    let boards = playable(&positions)?;
    let provenance = Provenance::capture(args, None);
    let (epd, epd_sha256) = epd_identity(args.epd.as_deref())?;
    let variant_text: Vec<String> = variants
        .iter()
        .map(|v| {
            let opts: Vec<String> = v.options.iter().map(|(k, x)| format!("{k}={x}")).collect();
            format!("{}:{}", v.name, opts.join(","))
        })
        .collect();
    let header = Header {
        kind: "accuracy".into(),
        settings: vec![
            ("epd".into(), epd),
            ("epd_sha256".into(), epd_sha256),
            ("positions".into(), positions.len().to_string()),
            ("depth".into(), args.depth.to_string()),
            ("extra".into(), extra.to_string()),
            ("variants".into(), variant_text.join(" ")),
            ("hash_mb".into(), args.hash.to_string()),
            ("engine".into(), in_process_engine()),
        ],
        provenance: provenance.clone(),
        columns: COLUMNS.into(),
    };
    let members: Vec<&str> = std::iter::once("oracle")
        .chain(names.iter().map(String::as_str))
        .collect();
    // The oracle is the first variant (the reference) searched deeper.
    let places: Vec<(usize, String)> = positions.iter().map(|p| (p.line, p.fen.clone())).collect();
    let job = PositionBlocks {
        positions: &places,
        members: &members,
        measure: |i: usize| {
            let (depth, hash) = (args.depth, args.hash);
            judge(&boards[i], &configs[0].1, &configs, depth, extra, hash)
        },
    };
    let file = args.output.out.as_deref().map(|p| (p, header));
    let blocks = job.run(file, !args.output.quiet)?;
    print!("{}", provenance.markdown());
    println!(
        "{} positions; variants at depth {}, the oracle (the first variant) at depth {}; loss = oracle's best score − oracle-depth score of the variant's move, scores capped at ±{SCORE_CAP} cp; 95% intervals (Wilson for shares, t for means)",
        blocks.len(),
        args.depth,
        args.depth + extra
    );
    print!("{}", report(&blocks, &names));
    // Mates beyond the cap are rare but say so when they decided a loss.
    let capped_losses = blocks
        .iter()
        .flat_map(|b| &b[1..])
        .filter(|j| j.oracle_score.abs() >= MATE_BOUND && j.loss != 0)
        .count();
    if capped_losses > 0 {
        println!("{capped_losses} losses involve a mate score (counted as ±{SCORE_CAP} cp)");
    }
    let figures = figures(&blocks, &names, args.depth, extra);
    args.output.summary.write("accuracy", &figures)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::result_log;

    const FENS: [&str; 3] = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        // White mates in one (Rd8#).
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        // Kiwipete: many captures, so shallow and deep searches tend to disagree.
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ];

    fn variant(text: &str) -> (String, SearchConfig) {
        let v = Variant::parse(text).unwrap();
        (v.name, search_config(&v.options).unwrap().0)
    }

    /// The oracle's own move has no loss; a variant's loss is the oracle's best minus the
    /// oracle-depth score of its move, and it differs exactly when its move is another.
    #[test]
    fn the_oracle_judges_each_variants_move() {
        let variants = [variant("baseline"), variant("sppf:Sppf=true,SppfMpd=0")];
        for fen in FENS {
            let pos = Position::from_fen(fen, false).unwrap();
            let block = judge(&pos, &SearchConfig::default(), &variants, 2, 2, 1).unwrap();
            assert_eq!(block.len(), 3);
            let oracle = &block[0];
            assert_eq!((oracle.variant.as_str(), oracle.loss), ("oracle", 0));
            for j in &block[1..] {
                assert_eq!(
                    j.loss,
                    capped(oracle.score) - capped(j.oracle_score),
                    "{fen}"
                );
                if j.bestmove == oracle.bestmove {
                    assert_eq!(j.loss, 0, "{fen}");
                }
                let line = result_log::to_line(j).unwrap();
                assert_eq!(result_log::from_line::<Judged>(&line).unwrap(), *j);
            }
        }
        // The mate in one: every variant finds it at depth 2, and loses nothing.
        let pos = Position::from_fen(FENS[1], false).unwrap();
        let block = judge(&pos, &SearchConfig::default(), &variants, 2, 1, 1).unwrap();
        assert!(
            block.iter().all(|j| j.bestmove == "d1d8" && j.loss == 0),
            "{block:?}"
        );
    }

    #[test]
    fn the_report_counts_differing_moves_and_losses() {
        let j = |variant: &str, mv: &str, loss: i32| Judged {
            index: 1,
            line: 1,
            variant: variant.into(),
            depth: 1,
            nodes: 100,
            bestmove: mv.into(),
            score: 0,
            oracle_score: -loss,
            loss,
            fen: String::new(),
        };
        let blocks = vec![
            vec![
                j("oracle", "e2e4", 0),
                j("a", "e2e4", 0),
                j("b", "d2d4", 30),
            ],
            vec![j("oracle", "g1f3", 0), j("a", "g1f3", 0), j("b", "g1f3", 0)],
        ];
        let names = vec!["a".to_string(), "b".to_string()];
        let text = report(&blocks, &names);
        assert!(text.contains("| a | 2 | 0.0% "), "{text}");
        assert!(text.contains("| b | 2 | 50.0% "), "{text}");
        assert!(text.contains("(1/2) | 15.0 ±"), "{text}");
    }
}
