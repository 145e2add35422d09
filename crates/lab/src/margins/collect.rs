//! `augur-lab margins collect`: the regression data of the margin rules. Each position is
//! searched once by the engine's normal iterative deepening to depth D with the search's
//! margin log on (`SearchTeam::log_margins`), which records every node where reverse futility,
//! futility or Stockfish-style ProbCut was tried: the node, its depth, the bound the rule
//! compares with and the estimate it compares. Of the distinct nodes of each rule and depth,
//! `--samples` evenly spread ones are measured; each becomes a CSV line
//!
//! ```text
//! id,count,rule,depth,improving,bound,estimate,shallow,deep,reduced,stage,move,fen
//! 17,9,rfp,3,1,-12,140,140,95,0,middlegame,-,r1b2rk1/4b1pp/p1pppn2/4q3/3BP3/1RN5/P1PQB1PP/5RK1 b - -
//! ```
//!
//! - `bound`: beta (`rfp`, `sfpc`) or alpha (`futility`), as the node saw it.
//! - `estimate`: what the rule compared in the search: the static eval (`rfp`, `futility`),
//!   or the capture's verification result (`sfpc`, a null-window bound at beta + margin).
//! - `shallow`: the estimate as fitted: the static eval, or for `sfpc` the capture's exact
//!   score at the verification depth (a search of the node restricted to the capture to
//!   `reduced` + 1 plies).
//! - `deep`: the truth the rule predicts, a full-window search from the node at its real
//!   depth: the node's score (`rfp`, `sfpc`) or the quiet move's (`futility`, the node's search
//!   restricted to `move`).
//!
//! Scores are centipawns for the side to move at the node. `id` is the position's EPD line,
//! `count` the lines of its block (a position whose search tried no rule near its bound
//! writes none, and is searched again by a resumed run). The measuring searches start fresh
//! (new table and histories) each time, so a run is deterministic whatever `--threads`.
//! The file has the `#` header and resume behaviour of [`crate::kit::result_log`]; other
//! settings are refused, a larger `--positions` extends.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use augur::eval::EvalKind;
use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::limits::Limits;
use augur::search::margins::{MarginRule, MarginSample};
use augur::search::probcut::Stage;
use augur::search::SearchTeam;
use clap::Args;
use cozy_chess::Move;
use serde::{Deserialize, Serialize};

use crate::data::epd::{epd_identity, load_epd, EpdItems, EpdLine};
use crate::kit::jobs::{self, Job, Options};
use crate::kit::provenance::{in_process_engine, Provenance};
use crate::kit::result_log::{self, as_text, Header, Row};
use crate::kit::run_args::RunArgs;
use crate::probcut::collect::zero_one;

pub const HEADER: &str =
    "id,count,rule,depth,improving,bound,estimate,shallow,deep,reduced,stage,move,fen";

#[derive(Args, Debug, Clone)]
#[command(mut_arg("out", |a| a.required(true).short('o').value_name("FILE")
    .help("Output CSV; appended to and resumed if it exists.")))]
#[command(mut_arg("threads", |a| a.help("Worker threads (one searcher each); default: all cores.")))]
pub struct CollectArgs {
    /// Positions (EPD); default: the bundled 300-position TCEC sample.
    #[arg(long)]
    pub epd: Option<PathBuf>,
    /// Use only the first N positions of the EPD.
    #[arg(long)]
    pub positions: Option<usize>,
    /// Depth of each position's normal search, whose nodes are sampled.
    #[arg(long, short, default_value_t = 10)]
    pub depth: i32,
    /// Nodes measured per rule, node depth and position (evenly spread over the distinct
    /// nodes the search tried).
    #[arg(long, default_value_t = 4)]
    pub samples: usize,
    /// Reverse futility and futility nodes are kept only with |estimate − bound| up to this
    /// (cp): far from the bound the margin does not decide.
    #[arg(long, default_value_t = 600)]
    pub window: i32,
    /// Transposition table of each search, MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// The evaluation of every search (`nnue`, the engine's default; `hce`; `classic`).
    #[arg(long, default_value_t = SearchConfig::default().eval)]
    pub eval: EvalKind,
    /// `--out` (required), `--threads`, `--quiet`, `--summary`.
    #[command(flatten)]
    pub run: RunArgs,
}

/// One CSV line (the columns [`HEADER`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub id: usize,
    pub count: usize,
    #[serde(with = "as_text")]
    pub rule: MarginRule,
    pub depth: i32,
    #[serde(with = "zero_one")]
    pub improving: bool,
    pub bound: i32,
    pub estimate: i32,
    pub shallow: i32,
    pub deep: i32,
    pub reduced: i32,
    #[serde(with = "as_text")]
    pub stage: Stage,
    /// The quiet move or capture in UCI notation; `-` for a node's sample.
    #[serde(rename = "move")]
    pub mv: String,
    pub fen: String,
}

impl Row for Record {
    const COLUMNS: &'static str = HEADER;
}

impl Record {
    /// What the columns' types do not say: a depth the engine searches to, a verification
    /// shallower than its node, a move where the rule has one.
    fn check(&self) -> Result<()> {
        if !(1..=augur::search::MAX_DEPTH).contains(&self.depth) {
            bail!("field depth out of range: {}", self.depth);
        }
        if self.reduced < 0 || self.reduced >= self.depth {
            bail!(
                "field reduced {} is not below the depth {}",
                self.reduced,
                self.depth
            );
        }
        if (self.rule == MarginRule::Rfp) != (self.mv == "-") {
            bail!(
                "field move '{}' does not fit rule {}",
                self.mv,
                self.rule.tag()
            );
        }
        Ok(())
    }
}

/// Reads a `margins collect` CSV strictly: every line must parse (the error names the line).
pub fn read_csv(path: &Path) -> Result<Vec<Record>> {
    result_log::read_checked(path, Record::check)
}

/// The result file's header: the settings that decide the records.
pub fn header(args: &CollectArgs) -> Result<Header> {
    let (epd, epd_sha256) = epd_identity(args.epd.as_deref())?;
    Ok(Header {
        kind: "margins collect".into(),
        settings: vec![
            ("depth".into(), args.depth.to_string()),
            ("samples".into(), args.samples.to_string()),
            ("window".into(), args.window.to_string()),
            ("hash_mb".into(), args.hash.to_string()),
            ("epd".into(), epd),
            ("epd_sha256".into(), epd_sha256),
            ("eval".into(), args.eval.to_string()),
            ("engine".into(), in_process_engine()),
            ("search".into(), "default options".into()),
        ],
        provenance: Provenance::capture(args, None),
        columns: HEADER.into(),
    })
}

/// The samples to measure: the distinct nodes (a node tried again in a later iteration with
/// the same bound counts once) of each rule and depth, `per_cell` of them evenly spread over
/// the order the search met them, ordered by rule and depth.
pub fn pick(samples: Vec<MarginSample>, per_cell: usize) -> Vec<MarginSample> {
    let mut seen = HashSet::new();
    let mut cells: BTreeMap<(MarginRule, i32), Vec<MarginSample>> = BTreeMap::new();
    for s in samples {
        if seen.insert((s.rule, s.board.hash(), s.depth, s.bound, s.mv)) {
            cells.entry((s.rule, s.depth)).or_default().push(s);
        }
    }
    let mut out = Vec::new();
    for (_, cell) in cells {
        let n = cell.len();
        let k = per_cell.min(n);
        let mut cell: Vec<Option<MarginSample>> = cell.into_iter().map(Some).collect();
        for i in 0..k {
            out.extend(cell[i * n / k].take());
        }
    }
    out
}

/// The searcher of the normal search and the one of the measuring searches.
pub struct Searchers {
    main: SearchTeam,
    probe: SearchTeam,
}

impl Searchers {
    pub fn new(eval: EvalKind, hash: usize) -> Result<Self> {
        let config = SearchConfig {
            eval,
            ..SearchConfig::default()
        };
        let team =
            || SearchTeam::new(config.clone(), hash).map_err(|e| anyhow!("--hash {hash}: {e}"));
        Ok(Searchers {
            main: team()?,
            probe: team()?,
        })
    }

    /// A fresh search of `node` to `depth`, restricted to `mv` when given: its score for the
    /// side to move, or `None` when there is nothing to search (no legal move).
    fn score(&mut self, node: &Position, depth: i32, mv: Option<Move>) -> Option<i32> {
        self.probe.new_game();
        let r = self.probe.search(
            node,
            &Limits {
                depth: Some(depth),
                searchmoves: mv.map(|m| node.uci(m)).into_iter().collect(),
                ..Default::default()
            },
        );
        (r.depth >= 1).then_some(r.score)
    }

    /// Measures one sample: its shallow estimate and its deep truth (see the module's notes).
    fn measure(&mut self, id: usize, s: &MarginSample) -> Option<Record> {
        let node = Position::from_board(s.board.clone(), false);
        let deep = match s.rule {
            MarginRule::Rfp | MarginRule::Sfpc => self.score(&node, s.depth, None)?,
            MarginRule::Futility => self.score(&node, s.depth, s.mv)?,
        };
        let shallow = match s.rule {
            MarginRule::Rfp | MarginRule::Futility => s.estimate,
            MarginRule::Sfpc => self.score(&node, s.reduced_depth + 1, s.mv)?,
        };
        Some(Record {
            id,
            count: 0,
            rule: s.rule,
            depth: s.depth,
            improving: s.improving,
            bound: s.bound,
            estimate: s.estimate,
            shallow,
            deep,
            reduced: s.reduced_depth,
            stage: Stage::of(node.board()),
            mv: s.mv.map_or_else(|| "-".to_string(), |m| node.uci(m)),
            fen: node.fen(),
        })
    }

    /// One position: its normal search with the margin log on, then the picked samples
    /// measured; the block of records.
    pub fn position(
        &mut self,
        epd: &EpdLine,
        depth: i32,
        window: i32,
        per_cell: usize,
    ) -> Result<Vec<Record>> {
        let pos =
            Position::from_fen(&epd.fen, false).map_err(|e| anyhow!("line {}: {e}", epd.line))?;
        self.main.new_game();
        self.main.log_margins(Some(window));
        self.main.search(
            &pos,
            &Limits {
                depth: Some(depth),
                ..Default::default()
            },
        );
        let samples = self.main.take_margin_samples();
        self.main.log_margins(None);
        let mut block: Vec<Record> = pick(samples, per_cell)
            .iter()
            .filter_map(|s| self.measure(epd.line, s))
            .collect();
        let count = block.len();
        for r in &mut block {
            r.count = count;
        }
        Ok(block)
    }
}

/// The collection as a job of the runner: an item is a position, its block its samples.
struct Collect<'a> {
    args: &'a CollectArgs,
    epd: EpdItems<'a>,
}

impl Job for Collect<'_> {
    type Output = Vec<Record>;
    type Row = Record;
    type Worker = Searchers;

    fn items(&self) -> usize {
        self.epd.positions.len()
    }

    fn worker(&self) -> Result<Searchers> {
        Searchers::new(self.args.eval, self.args.hash)
    }

    fn run(&self, s: &mut Searchers, item: usize, _: Option<&Vec<Record>>) -> Result<Vec<Record>> {
        let a = self.args;
        s.position(&self.epd.positions[item], a.depth, a.window, a.samples)
    }

    fn rows(&self, _: usize, block: &Vec<Record>) -> Vec<Record> {
        block.clone()
    }

    fn item_of(&self, r: &Record) -> Result<usize> {
        self.epd.item_of(r.id)
    }

    fn block_len(&self, first: &Record) -> usize {
        first.count
    }

    fn output(&self, _: usize, block: Vec<Record>) -> Result<Vec<Record>> {
        for r in &block {
            r.check()?;
        }
        Ok(block)
    }
}

/// The headline figures of a collection (its `--summary`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    pub positions: usize,
    pub depth: i32,
    pub records: usize,
    pub rfp: usize,
    pub futility: usize,
    pub sfpc: usize,
}

pub fn run(args: &CollectArgs) -> Result<()> {
    if !(1..=augur::search::MAX_DEPTH).contains(&args.depth) {
        bail!("--depth must be in 1..={}", augur::search::MAX_DEPTH);
    }
    if args.samples == 0 {
        bail!("--samples must be at least 1");
    }
    if args.window < 0 {
        bail!("--window must not be negative");
    }
    let mut positions = load_epd(args.epd.as_deref())?;
    if let Some(n) = args.positions {
        positions.truncate(n);
    }
    let header = header(args)?;
    let out = args.run.out()?;
    let job = Collect {
        args,
        epd: EpdItems::new(&positions),
    };
    let started = Instant::now();
    let finished = jobs::run(
        &job,
        Options {
            workers: args.run.threads().min(256),
            progress: !args.run.output.quiet,
            unit: "positions",
            file: Some((out, header.clone())),
        },
    )?;
    let records: Vec<Record> = finished.outputs.into_iter().flatten().collect();
    let of = |rule| records.iter().filter(|r| r.rule == rule).count();
    let figures = Figures {
        positions: positions.len(),
        depth: args.depth,
        records: records.len(),
        rfp: of(MarginRule::Rfp),
        futility: of(MarginRule::Futility),
        sfpc: of(MarginRule::Sfpc),
    };
    print!(
        "# augur-lab margins collect\n\n{}{} positions searched to depth {} ({} this run, {:.1}s): \
         {} samples in `{}` (rfp {}, futility {}, sfpc {}). `augur-lab margins fit {}` fits \
         the margins.\n",
        header.provenance.markdown(),
        figures.positions,
        args.depth,
        positions.len() - finished.resumed,
        started.elapsed().as_secs_f64(),
        figures.records,
        out.display(),
        figures.rfp,
        figures.futility,
        figures.sfpc,
        out.display()
    );
    args.run.output.summary.write("margins-collect", &figures)
}
