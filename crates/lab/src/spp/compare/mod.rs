//! `augur-lab compare`: the SPP thesis's experiment (sections 4-5). Every (position, depth,
//! algorithm) of a suite is searched with the engine's textbook algorithms, recording the
//! best move, score, leaf evaluations (NBP), nodes (NC) and time; then the extra-pruning
//! percentages, the move-score correctness check, a markdown report and the charts in the
//! spirit of the thesis's Diagrams 1-14.
//!
//! The textbook searches are single-threaded and deterministic, so the counts are the same on
//! every run whatever the number of worker threads; only the times vary.

pub mod analysis;
pub mod report;
pub mod suite;

use crate::data::bundled::SPP_THESIS_16;
use crate::kit::jobs::{self, Job, Options};
use crate::kit::provenance::{in_process_engine, sha256_file, sha256_hex, Provenance};
use crate::kit::result_log::{as_text, Header, Row as ResultRow};
use crate::kit::run_args::RunArgs;
use anyhow::{anyhow, bail, Context, Result};
use augur::eval::EvalKind;
use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::limits::Limits;
use augur::search::textbook::{self, Algorithm, MpdRule, SwitchOff, TextbookConfig};
use augur::search::{Mode, SearchTeam};
use clap::Args;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args, Debug, Clone)]
#[command(mut_arg("out", |a| a.value_name("DIR").help(
    "Write results.csv, summary.md and the charts (SVG and PNG) here."
)))]
pub struct CompareArgs {
    /// EPD suite (default: the bundled 16-position set of the SPP thesis).
    #[arg(long)]
    pub suite: Option<PathBuf>,
    /// Use only the first N positions of the suite.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Depths: a range "4-7", a list "5,7" or both "3,5-6".
    #[arg(long, default_value = "4-7")]
    pub depths: String,
    /// Comma-separated algorithms (textbook names, or "engine" for Augur's own search).
    #[arg(long, default_value = "alphabeta,abt,spp,sppt")]
    pub algorithms: String,
    /// Static evaluation: classic (the thesis's feature table), hce (or default) or nnue.
    #[arg(long, default_value = "classic")]
    pub eval: String,
    /// The fixed maximum positional difference of spp/sppt.
    #[arg(long, default_value_t = 70)]
    pub mpd: i32,
    /// spp-dyn's per-node MPD: `fixed` (= --mpd), `material:A,B` (A * material in pawns + B,
    /// the material of both sides by the classic table) or `siblings:K,FACTOR,FLOOR` (once K
    /// quiet siblings are searched, FACTOR times their spread, at least FLOOR).
    #[arg(long, default_value = "siblings:2,1.5,30")]
    pub mpd_rule: String,
    /// sppt-auto switches SPP off when, over a window of depth-1 nodes, it pruned fewer than
    /// this percentage of their quiet siblings (0: never).
    #[arg(long, default_value_t = 10.0)]
    pub switch_off_below: f64,
    /// sppt-auto's window, in depth-1 nodes that met quiet siblings.
    #[arg(long, default_value_t = 256)]
    pub switch_window: u32,
    /// Resolve captures at the leaves with a quiescence search (the thesis had none).
    #[arg(long)]
    pub qsearch: bool,
    /// Transposition-table size in MiB for each TT algorithm run.
    #[arg(long, default_value_t = 32)]
    pub tt_mib: usize,
    /// Exit with an error when any move-score pair differs from its reference.
    #[arg(long)]
    pub strict: bool,
    /// Leave the per-position table out of stdout (it still goes to summary.md).
    #[arg(long)]
    pub brief: bool,
    /// A UCI option for the `engine` algorithm, `Name=Value` (repeatable), e.g.
    /// `--engine-option Nmp=false`. Checked by the engine's own option table.
    #[arg(long = "engine-option", value_name = "NAME=VALUE")]
    pub engine_options: Vec<String>,
    /// `--threads`, `--out`, `--quiet`, `--summary`.
    #[command(flatten)]
    pub run: RunArgs,
}

/// One measurement, and a record of `results.csv` (the columns [`COLUMNS`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Index into the suite (the file's `index` counts from 1).
    #[serde(rename = "index", with = "one_based")]
    pub position: usize,
    /// The position's EPD id (the file's `position`), a check that a resumed file is of the
    /// same suite.
    #[serde(rename = "position")]
    pub id: String,
    pub depth: i32,
    #[serde(with = "as_text")]
    pub algorithm: Mode,
    /// Best move in UCI notation ("-" if none).
    #[serde(rename = "move")]
    pub mv: String,
    pub score: i32,
    /// NBP: leaf evaluations.
    pub leaves: u64,
    /// NC: nodes entered.
    pub nodes: u64,
    /// Wall time, to the microsecond.
    #[serde(with = "microseconds")]
    pub time_ms: f64,
    /// [spp] Depth-1 nodes where SPP cut siblings, and siblings pruned.
    pub spp_cuts: u64,
    pub spp_pruned: u64,
    /// [spp] `sppt-auto`: depth-1 nodes measured before SPP switched itself off.
    pub spp_off_after: Option<u64>,
}

impl ResultRow for Row {
    const COLUMNS: &'static str = COLUMNS;
}

/// The columns of `results.csv`: `index` is the position's 1-based place in the suite,
/// `position` its EPD id.
pub const COLUMNS: &str =
    "index,position,depth,algorithm,move,score,leaves,nodes,time_ms,spp_cuts,spp_pruned,spp_off_after";

/// A 0-based index written counting from 1.
mod one_based {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(i: &usize, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(*i as u64 + 1)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
        usize::deserialize(d)?
            .checked_sub(1)
            .ok_or_else(|| D::Error::custom("index counts from 1"))
    }
}

/// Milliseconds written to three decimals.
mod microseconds {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(ms: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64((ms * 1000.0).round() / 1000.0)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        f64::deserialize(d)
    }
}

impl Row {
    /// Checks a row read back against `plan`: its position is one of the suite's, with its id.
    pub fn check(&self, plan: &Plan) -> Result<()> {
        let Some(p) = plan.positions.get(self.position) else {
            bail!("index {} is not a position of the suite", self.position + 1);
        };
        if self.id != p.id {
            bail!(
                "position {} is '{}' in the file but '{}' in the suite",
                self.position + 1,
                self.id,
                p.id
            );
        }
        Ok(())
    }
}

/// Parses "4-7", "5,7", "3,5-6" into a sorted, deduplicated list of depths in 1..=20.
pub fn parse_depths(text: &str) -> Result<Vec<i32>> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let bad = || anyhow!("bad depth '{part}' in --depths '{text}' (use e.g. 4-7 or 5,7)");
        let (lo, hi) = match part.split_once('-') {
            Some((a, b)) => (
                a.trim().parse::<i32>().map_err(|_| bad())?,
                b.trim().parse::<i32>().map_err(|_| bad())?,
            ),
            None => {
                let d = part.parse::<i32>().map_err(|_| bad())?;
                (d, d)
            }
        };
        if lo < 1 || hi > 20 || lo > hi {
            bail!("depths must be within 1..=20 and ranges ascending: '{part}'");
        }
        out.extend(lo..=hi);
    }
    if out.is_empty() {
        bail!("no depths in '{text}'");
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Parses a comma-separated algorithm list, keeping its order; unknown names are an error
/// naming them and listing the known ones.
pub fn parse_algorithms(text: &str) -> Result<Vec<Mode>> {
    let mut out: Vec<Mode> = Vec::new();
    for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let a: Mode = name.parse()?;
        if !out.contains(&a) {
            out.push(a);
        }
    }
    if out.is_empty() {
        bail!("no algorithms in '{text}'");
    }
    Ok(out)
}

/// Everything a run needs, parsed and checked.
#[derive(Clone, Debug)]
pub struct Plan {
    pub positions: Vec<suite::SuitePosition>,
    pub depths: Vec<i32>,
    pub algorithms: Vec<Mode>,
    pub config: TextbookConfig,
    /// The `engine` algorithm's configuration (its evaluation is `config.eval`).
    pub engine: SearchConfig,
    pub threads: usize,
    pub suite_name: String,
}

impl Plan {
    pub fn from_args(args: &CompareArgs) -> Result<Plan> {
        let depths = parse_depths(&args.depths)?;
        let algorithms = parse_algorithms(&args.algorithms)?;
        let eval: EvalKind = args.eval.parse()?;
        if eval != EvalKind::Classic {
            if let Some(a) = algorithms.iter().find(|a| {
                matches!(
                    a,
                    Mode::Textbook(Algorithm::SppExact | Algorithm::SpptExact)
                )
            }) {
                bail!("{a} needs --eval classic (its bound is derived from the classic terms)");
            }
        }
        let mpd_rule: MpdRule = args.mpd_rule.parse()?;
        if !(0.0..=100.0).contains(&args.switch_off_below) || args.switch_window == 0 {
            bail!(
                "--switch-off-below must be a percentage in 0..=100 and --switch-window at \
                 least 1 (got {} and {})",
                args.switch_off_below,
                args.switch_window
            );
        }
        let mut positions = suite::load(args.suite.as_deref())?;
        if let Some(n) = args.limit {
            positions.truncate(n.max(1));
        }
        let threads = args.run.threads();
        let mut options = Vec::new();
        for o in &args.engine_options {
            let Some((k, v)) = o.split_once('=') else {
                bail!("--engine-option '{o}' is not Name=Value");
            };
            options.push((k.trim().to_string(), v.trim().to_string()));
        }
        if !options.is_empty() && !algorithms.contains(&Mode::Engine) {
            bail!("--engine-option applies to the 'engine' algorithm; add it to --algorithms");
        }
        let (engine, others) =
            crate::variants::search_config(&options).context("--engine-option")?;
        if let Some(o) = others.first() {
            bail!("--engine-option: '{o}' is not a search option of the engine");
        }
        let engine = SearchConfig { eval, ..engine };
        Ok(Plan {
            positions,
            depths,
            algorithms,
            config: TextbookConfig {
                eval,
                qsearch: args.qsearch,
                mpd: args.mpd,
                mpd_rule,
                switch_off: SwitchOff {
                    below_pct: args.switch_off_below,
                    window: args.switch_window,
                },
                tt_mib: args.tt_mib.max(1),
                ..TextbookConfig::default()
            },
            engine,
            threads,
            suite_name: args.suite.as_ref().map_or_else(
                || "SPP thesis 16-position set (bundled)".to_string(),
                |p| p.display().to_string(),
            ),
        })
    }
}

/// One search of one position: a textbook algorithm, or the engine's search with `engine`.
pub fn measure(
    pos: &Position,
    algorithm: Mode,
    depth: i32,
    cfg: &TextbookConfig,
    engine: &SearchConfig,
) -> Result<Row> {
    let start = Instant::now();
    let mut row = Row {
        position: 0,
        id: String::new(),
        depth,
        algorithm,
        mv: "-".into(),
        score: 0,
        leaves: 0,
        nodes: 0,
        time_ms: 0.0,
        spp_cuts: 0,
        spp_pruned: 0,
        spp_off_after: None,
    };
    match algorithm {
        Mode::Engine => {
            let limits = Limits {
                depth: Some(depth),
                ..Default::default()
            };
            let r = SearchTeam::new(engine.clone(), cfg.tt_mib)?.search(pos, &limits);
            row.mv = r.best.map_or_else(|| "-".into(), |m| pos.uci(m));
            row.score = r.score;
            row.leaves = r.stats.evals;
            row.nodes = r.stats.nodes;
        }
        Mode::Textbook(algorithm) => {
            let r = textbook::run(pos, algorithm, depth, cfg)?;
            row.mv = r.best.map_or_else(|| "-".into(), |m| pos.uci(m));
            row.score = r.score;
            row.leaves = r.leaves;
            row.nodes = r.nodes;
            row.spp_cuts = r.spp_cuts;
            row.spp_pruned = r.spp_pruned;
            row.spp_off_after = r.spp_off_after;
        }
    }
    row.time_ms = start.elapsed().as_secs_f64() * 1000.0;
    Ok(row)
}

/// A rough relative cost, to start the largest jobs first (so no long job is left to run
/// alone at the end): the tree grows about as b^(d/2) for alpha-beta with good ordering.
fn cost_estimate(pos: &Position, algorithm: Mode, depth: i32) -> f64 {
    use Algorithm::*;
    let b = pos.legal_moves().len().max(2) as f64;
    let factor = match algorithm {
        Mode::Textbook(Minimax) => return b.powi(depth),
        Mode::Textbook(AlphaBeta | AlphaBetaSoft | Pvs) => 1.0,
        Mode::Textbook(Abt | Aspiration | Mtdf | Sss) => 0.8,
        Mode::Textbook(Spp | SppExact | SppDyn) => 0.5,
        Mode::Textbook(Sppt | SpptExact | SpptAuto) => 0.4,
        Mode::Engine => 0.05,
    };
    factor * b.powf(depth as f64 * 0.75)
}

/// The plan as a job of the runner: an item is one (position, depth, algorithm) search, in
/// that order, each its own row.
struct Searches<'a> {
    plan: &'a Plan,
}

impl Searches<'_> {
    /// The (position, depth index, algorithm index) of an item.
    fn split(&self, item: usize) -> (usize, usize, usize) {
        let (d, a) = (self.plan.depths.len(), self.plan.algorithms.len());
        (item / (d * a), item / a % d, item % a)
    }
}

impl Job for Searches<'_> {
    type Output = Row;
    type Row = Row;
    type Worker = ();

    fn items(&self) -> usize {
        self.plan.positions.len() * self.plan.depths.len() * self.plan.algorithms.len()
    }

    fn worker(&self) -> Result<()> {
        Ok(())
    }

    fn run(&self, _: &mut (), item: usize, _: Option<&Row>) -> Result<Row> {
        let (p, d, a) = self.split(item);
        let (depth, algorithm) = (self.plan.depths[d], self.plan.algorithms[a]);
        let sp = &self.plan.positions[p];
        let mut row = measure(
            &sp.pos,
            algorithm,
            depth,
            &self.plan.config,
            &self.plan.engine,
        )
        .with_context(|| format!("{} ({}) depth {depth} {algorithm}", sp.id, sp.fen))?;
        row.position = p;
        row.id = sp.id.clone();
        Ok(row)
    }

    fn rows(&self, _: usize, row: &Row) -> Vec<Row> {
        vec![row.clone()]
    }

    fn item_of(&self, r: &Row) -> Result<usize> {
        let not_planned = || {
            anyhow!(
                "a finished row (position {}, depth {}, {}) is not part of this run",
                r.position + 1,
                r.depth,
                r.algorithm
            )
        };
        let p = Some(r.position)
            .filter(|&p| p < self.plan.positions.len())
            .ok_or_else(not_planned)?;
        let d = self.plan.depths.iter().position(|&x| x == r.depth);
        let a = self.plan.algorithms.iter().position(|&x| x == r.algorithm);
        let (d, a) = d.zip(a).ok_or_else(not_planned)?;
        Ok((p * self.plan.depths.len() + d) * self.plan.algorithms.len() + a)
    }

    fn output(&self, _: usize, mut rows: Vec<Row>) -> Result<Row> {
        let row = rows.remove(0);
        row.check(self.plan)?;
        Ok(row)
    }

    fn cost(&self, item: usize) -> f64 {
        let (p, d, a) = self.split(item);
        cost_estimate(
            &self.plan.positions[p].pos,
            self.plan.algorithms[a],
            self.plan.depths[d],
        )
    }

    fn nodes(&self, row: &Row) -> u64 {
        row.nodes
    }
}

/// Runs every search of the plan on `plan.threads` workers; rows come back in (position, depth,
/// algorithm-list) order.
pub fn run_jobs(plan: &Plan, progress: bool) -> Result<Vec<Row>> {
    run_searches(plan, progress, None)
}

fn run_searches(plan: &Plan, progress: bool, file: Option<(&Path, Header)>) -> Result<Vec<Row>> {
    let options = Options {
        workers: plan.threads,
        progress,
        unit: "searches",
        file,
    };
    Ok(jobs::run(&Searches { plan }, options)?.outputs)
}

/// The subcommand: measure, print the report, write the files, and with `--strict` fail on
/// any move-score difference.
pub fn run(args: &CompareArgs) -> Result<()> {
    let plan = Plan::from_args(args)?;
    let provenance = Provenance::capture(args, None);
    let start = Instant::now();
    let rows = match &args.run.output.out {
        Some(dir) => run_resumable(args, &plan, &provenance, dir)?,
        None => run_jobs(&plan, !args.run.output.quiet)?,
    };
    let wall = start.elapsed();
    let mut rep = report::Report::new(&plan, &rows, wall);
    rep.provenance = Some(provenance);
    print!("{}", rep.markdown(!args.brief));
    args.run.output.summary.write("compare", &rep.figures())?;
    if let Some(dir) = &args.run.output.out {
        rep.write_files(dir)?;
        eprintln!("wrote {}", dir.display());
    }
    let bad = analysis::mismatches(&rows, &plan.algorithms);
    if !bad.is_empty() {
        eprintln!(
            "!!! {} move-score pair(s) differ from their reference (see 'Correctness' above)",
            bad.len()
        );
        if args.strict {
            bail!("--strict: {} move-score mismatch(es)", bad.len());
        }
    }
    Ok(())
}

/// The result file's header: everything that decides the rows (the suite and its SHA-256,
/// the positions used, depths, algorithms, evaluation, MPD, quiescence, table size, engine
/// options and the engine's commit). Threads and output options are not settings.
pub fn header(args: &CompareArgs, plan: &Plan, provenance: &Provenance) -> Result<Header> {
    let suite_sha256 = match &args.suite {
        None => sha256_hex(SPP_THESIS_16.as_bytes()),
        Some(p) => sha256_file(p)?,
    };
    let list = |v: Vec<String>| v.join(",");
    Ok(Header {
        kind: "compare".into(),
        settings: vec![
            ("suite".into(), plan.suite_name.clone()),
            ("suite_sha256".into(), suite_sha256),
            ("positions".into(), plan.positions.len().to_string()),
            (
                "depths".into(),
                list(plan.depths.iter().map(i32::to_string).collect()),
            ),
            (
                "algorithms".into(),
                list(plan.algorithms.iter().map(Mode::to_string).collect()),
            ),
            ("eval".into(), plan.config.eval.to_string()),
            ("mpd".into(), plan.config.mpd.to_string()),
            ("mpd_rule".into(), plan.config.mpd_rule.to_string()),
            (
                "switch_off".into(),
                format!(
                    "below {}% over {} nodes",
                    plan.config.switch_off.below_pct, plan.config.switch_off.window
                ),
            ),
            ("qsearch".into(), plan.config.qsearch.to_string()),
            ("tt_mib".into(), plan.config.tt_mib.to_string()),
            ("engine_options".into(), list(args.engine_options.clone())),
            ("engine".into(), in_process_engine()),
        ],
        provenance: provenance.clone(),
        columns: COLUMNS.into(),
    })
}

/// Runs the plan into `dir/results.csv`, resuming what an earlier run of the same command left
/// there (kill -9 included): finished rows are kept, the rest are run and appended one by one,
/// and the finished file is rewritten in (position, depth, algorithm) order.
fn run_resumable(
    args: &CompareArgs,
    plan: &Plan,
    provenance: &Provenance,
    dir: &Path,
) -> Result<Vec<Row>> {
    let header = header(args, plan, provenance)?;
    run_into(
        plan,
        &header,
        &dir.join("results.csv"),
        args.run.output.quiet,
    )
}

/// Runs `plan` into the result file `path` (columns [`COLUMNS`]) with `header`, resuming what
/// an earlier run with the same settings left there.
pub fn run_into(plan: &Plan, header: &Header, path: &Path, quiet: bool) -> Result<Vec<Row>> {
    run_searches(plan, !quiet, Some((path, header.clone())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_lists() {
        assert_eq!(parse_depths("4-7").unwrap(), vec![4, 5, 6, 7]);
        assert_eq!(parse_depths("7,3,5-6").unwrap(), vec![3, 5, 6, 7]);
        assert!(parse_depths("0-3").is_err());
        assert!(parse_depths("a").is_err());
    }

    fn args(cli: &[&str]) -> CompareArgs {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            args: CompareArgs,
        }
        Cli::parse_from(std::iter::once("compare").chain(cli.iter().copied())).args
    }

    #[test]
    fn engine_options_reach_the_engine_search() {
        let plan = Plan::from_args(&args(&[
            "--algorithms",
            "alphabeta,engine",
            "--engine-option",
            "Nmp=false",
            "--engine-option",
            "LMR=false",
        ]))
        .unwrap();
        assert!(!plan.engine.nmp.enabled && !plan.engine.lmr.enabled);
        assert_eq!(plan.engine.eval, EvalKind::Classic);
        let e = Plan::from_args(&args(&[
            "--algorithms",
            "engine",
            "--engine-option",
            "Nope=1",
        ]))
        .unwrap_err();
        assert!(format!("{e:#}").contains("'Nope'"), "{e:#}");
        assert!(Plan::from_args(&args(&["--engine-option", "LMR=false"])).is_err());
        assert!(
            Plan::from_args(&args(&["--algorithms", "engine", "--engine-option", "LMR"])).is_err()
        );
    }

    #[test]
    fn spp_rules_are_parsed_and_bad_ones_refused() {
        let plan = Plan::from_args(&args(&[
            "--mpd-rule",
            "material:0.33,29",
            "--switch-off-below",
            "25",
        ]))
        .unwrap();
        assert_eq!(plan.config.mpd_rule, MpdRule::Material { a: 0.33, b: 29.0 });
        assert_eq!(plan.config.switch_off.below_pct, 25.0);
        let e = Plan::from_args(&args(&["--mpd-rule", "siblings:2"])).unwrap_err();
        assert!(e.to_string().contains("bad MPD rule 'siblings:2'"), "{e}");
        assert!(Plan::from_args(&args(&["--switch-off-below", "101"])).is_err());
        assert!(Plan::from_args(&args(&["--switch-window", "0"])).is_err());
    }

    #[test]
    fn unknown_algorithm_is_named() {
        let e = parse_algorithms("alphabeta,spq").unwrap_err().to_string();
        assert!(e.contains("'spq'"), "{e}");
        assert!(e.contains("sppt"), "{e}");
    }
}
