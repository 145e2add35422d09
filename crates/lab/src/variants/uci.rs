//! The UCI runner of `depth` and `solve`: every variant is the `augur` binary (or another
//! engine) started with its options; every variant searches every position back to back, each
//! after `ucinewgame`, so machine load hits all variants alike and results do not depend on
//! the order positions are searched in. A run works through its positions on the lab's job
//! runner ([`crate::kit::jobs`]), so `--csv` files resume after kill -9.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use serde::{Deserialize, Serialize};

use augur_arena::engine::uci::{Score, UciEngine};

use super::{check_fitted_pairs, default_engine, parse_stats, search_config, Variant};
use crate::kit::jobs::{self, Job, Options};
use crate::kit::result_log::{Header, Row};

/// One search of one position by one variant.
#[derive(Clone, Debug, Default)]
pub struct Measurement {
    pub depth: u32,
    pub nodes: u64,
    pub ms: u64,
    pub bestmove: String,
    pub score: Option<Score>,
    pub counters: BTreeMap<String, (u64, u64)>,
}

/// The columns of the per-search CSV of `depth` and `solve` (one block of one line per
/// variant for each position; `index` is the position's 1-based place in the run, `line` its
/// line in the EPD, `counters` the engine's `tried/cut` stats as `key=tried/cut` words).
pub const COLUMNS: &str =
    "index,line,variant,depth,nodes,ms,pc_tried,pc_cut,score,bestmove,counters,fen";

/// A record of the result file: one variant's search of one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub index: usize,
    pub line: usize,
    pub variant: String,
    pub depth: u32,
    pub nodes: u64,
    pub ms: u64,
    pub pc_tried: u64,
    pub pc_cut: u64,
    #[serde(with = "score_text")]
    pub score: Option<Score>,
    pub bestmove: String,
    #[serde(with = "counter_words")]
    pub counters: BTreeMap<String, (u64, u64)>,
    pub fen: String,
}

impl Row for Record {
    const COLUMNS: &'static str = COLUMNS;
}

/// A score as `cp N`, `mate N`, or `-` for none.
mod score_text {
    use augur_arena::engine::uci::Score;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(score: &Option<Score>, s: S) -> Result<S::Ok, S::Error> {
        match score {
            Some(Score::Cp(cp)) => s.collect_str(&format_args!("cp {cp}")),
            Some(Score::Mate(m)) => s.collect_str(&format_args!("mate {m}")),
            None => s.serialize_str("-"),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Score>, D::Error> {
        let text = String::deserialize(d)?;
        let bad = || {
            D::Error::custom(format!(
                "bad score '{text}' (expected 'cp N', 'mate N' or '-')"
            ))
        };
        if text == "-" {
            return Ok(None);
        }
        let (kind, n) = text.split_once(' ').ok_or_else(bad)?;
        let n: i32 = n.parse().map_err(|_| bad())?;
        match kind {
            "cp" => Ok(Some(Score::Cp(n))),
            "mate" => Ok(Some(Score::Mate(n))),
            _ => Err(bad()),
        }
    }
}

/// The engine's counters as `key=tried/cut` words, the form of its stats line.
mod counter_words {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::collections::BTreeMap;

    pub fn serialize<S: Serializer>(
        counters: &BTreeMap<String, (u64, u64)>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let words: Vec<String> = counters
            .iter()
            .map(|(k, (t, c))| format!("{k}={t}/{c}"))
            .collect();
        s.serialize_str(&words.join(" "))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<String, (u64, u64)>, D::Error> {
        Ok(super::super::parse_stats(&String::deserialize(d)?))
    }
}

/// Counter keys of the ProbCut family in the stats line.
const PROBCUT_KEYS: [&str; 3] = ["probcut", "mpc", "sfpc"];

impl Measurement {
    /// The ProbCut family's tried and cut searches (probcut + mpc + sfpc).
    pub fn probcut_counts(&self) -> (u64, u64) {
        PROBCUT_KEYS
            .iter()
            .filter_map(|k| self.counters.get(*k))
            .fold((0, 0), |a, &(t, c)| (a.0 + t, a.1 + c))
    }

    /// The record of this search by `variant` of the position at `index` (1-based) of the run.
    pub fn record(&self, index: usize, line: usize, variant: &str, fen: &str) -> Record {
        let (pc_tried, pc_cut) = self.probcut_counts();
        Record {
            index,
            line,
            variant: variant.to_string(),
            depth: self.depth,
            nodes: self.nodes,
            ms: self.ms,
            pc_tried,
            pc_cut,
            score: self.score,
            bestmove: self.bestmove.clone(),
            counters: self.counters.clone(),
            fen: fen.to_string(),
        }
    }
}

impl From<Record> for Measurement {
    fn from(r: Record) -> Measurement {
        Measurement {
            depth: r.depth,
            nodes: r.nodes,
            ms: r.ms,
            bestmove: r.bestmove,
            score: r.score,
            counters: r.counters,
        }
    }
}

/// The settings shared by `depth` and `solve`: the engine (the SHA-256 of its binary, so the
/// same binary under another path is the same engine; the path is in the provenance),
/// the variants, the table size, the budget and the concurrency (which decides the load in
/// fixed-time mode).
pub fn grid_settings(
    engine: &Path,
    variants: &[Variant],
    hash: usize,
    budget: Budget,
    concurrency: usize,
) -> Result<Vec<(String, String)>> {
    let engine_sha256 = crate::kit::provenance::sha256_file(engine)
        .or_else(|_| {
            // A bare name is looked up on PATH, as the process start does.
            which(engine)
                .ok_or_else(|| anyhow!("engine {} not found", engine.display()))
                .and_then(|p| crate::kit::provenance::sha256_file(&p))
        })
        .with_context(|| format!("hashing the engine binary {}", engine.display()))?;
    let variants: Vec<String> = variants
        .iter()
        .map(|v| {
            let opts: Vec<String> = v.options.iter().map(|(k, x)| format!("{k}={x}")).collect();
            format!("{}:{}", v.name, opts.join(","))
        })
        .collect();
    Ok(vec![
        ("engine_sha256".into(), engine_sha256),
        ("variants".into(), variants.join(" ")),
        ("hash_mb".into(), hash.to_string()),
        ("budget".into(), budget.go_args()),
        ("concurrency".into(), concurrency.max(1).to_string()),
    ])
}

fn which(name: &Path) -> Option<PathBuf> {
    if name.components().count() != 1 {
        return None;
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

/// Runs `grid`; with `out`, into that per-search CSV (see [`COLUMNS`]) with the header whose
/// settings are `settings` plus the grid's own: each position's block is appended as it
/// finishes, a restart of the same command resumes (kill -9 included), and the finished file
/// is rewritten in position order. `positions` are each position's (EPD line, FEN).
pub fn run_grid_to(
    grid: &Grid,
    out: Option<&Path>,
    kind: &str,
    mut settings: Vec<(String, String)>,
    provenance: &crate::kit::provenance::Provenance,
    positions: &[(usize, String)],
) -> Result<Vec<Vec<Measurement>>> {
    let file = match out {
        None => None,
        Some(path) => {
            settings.extend(grid_settings(
                grid.engine,
                grid.variants,
                grid.hash,
                grid.budget,
                grid.concurrency,
            )?);
            let header = Header {
                kind: kind.into(),
                settings,
                provenance: provenance.clone(),
                columns: COLUMNS.into(),
            };
            Some((path, header))
        }
    };
    run_grid(grid, positions, file)
}

/// A UCI `position` command for an EPD/FEN (EPD's four fields get move counters).
pub fn position_command(fen: &str) -> String {
    if fen.split_whitespace().count() == 4 {
        format!("position fen {fen} 0 1")
    } else {
        format!("position fen {fen}")
    }
}

/// How each search is limited.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    MoveTime(u64),
    Nodes(u64),
}

impl Budget {
    /// `--nodes` when given, otherwise `--movetime` (the flags of `depth` and `solve`).
    pub fn from_args(nodes: Option<u64>, movetime: u64) -> Budget {
        nodes.map_or(Budget::MoveTime(movetime), Budget::Nodes)
    }

    /// "500 ms" or "10000 nodes", for the reports' headers.
    pub fn label(self) -> String {
        match self {
            Budget::MoveTime(ms) => format!("{ms} ms"),
            Budget::Nodes(n) => format!("{n} nodes"),
        }
    }

    pub fn go_args(self) -> String {
        match self {
            Budget::MoveTime(ms) => format!("movetime {ms}"),
            Budget::Nodes(n) => format!("nodes {n}"),
        }
    }
    fn deadline(self) -> Duration {
        match self {
            Budget::MoveTime(ms) => Duration::from_millis(ms * 3 + 5000),
            Budget::Nodes(_) => Duration::from_secs(600),
        }
    }
}

fn measure(engine: &mut UciEngine, fen: &str, budget: Budget) -> Result<Measurement> {
    engine.new_game()?;
    let report = engine
        .search(
            &position_command(fen),
            &budget.go_args(),
            budget.deadline(),
            Duration::from_secs(5),
        )
        .map_err(|f| anyhow!("engine '{}' failed on {fen}: {f:?}", engine.spec().name))?;
    Ok(Measurement {
        depth: report.depth.unwrap_or(0),
        nodes: report.nodes.unwrap_or(0),
        ms: report.elapsed.as_millis() as u64,
        bestmove: report.bestmove,
        score: report.score,
        counters: report.stats.as_deref().map(parse_stats).unwrap_or_default(),
    })
}

/// What [`run_grid_to`] searches.
pub struct Grid<'a> {
    pub fens: &'a [String],
    pub variants: &'a [Variant],
    pub engine: &'a Path,
    pub hash: usize,
    pub budget: Budget,
    pub concurrency: usize,
    pub quiet: bool,
}

/// The grid as a job of the runner: an item is a position, its block one search per variant;
/// each worker keeps one engine process per variant.
struct UciGrid<'a> {
    grid: &'a Grid<'a>,
    positions: &'a [(usize, String)],
}

impl Job for UciGrid<'_> {
    type Output = Vec<Measurement>;
    type Row = Record;
    type Worker = Vec<UciEngine>;

    fn items(&self) -> usize {
        self.grid.fens.len()
    }

    fn worker(&self) -> Result<Vec<UciEngine>> {
        let g = self.grid;
        g.variants
            .iter()
            .map(|v| UciEngine::start(&v.spec(g.engine, g.hash)))
            .collect()
    }

    fn run(
        &self,
        engines: &mut Vec<UciEngine>,
        item: usize,
        _: Option<&Vec<Measurement>>,
    ) -> Result<Vec<Measurement>> {
        let fen = &self.grid.fens[item];
        engines
            .iter_mut()
            .map(|e| measure(e, fen, self.grid.budget))
            .collect()
    }

    fn finish(&self, engines: Vec<UciEngine>) {
        for e in engines {
            e.quit();
        }
    }

    fn rows(&self, item: usize, row: &Vec<Measurement>) -> Vec<Record> {
        let (line, fen) = &self.positions[item];
        row.iter()
            .zip(self.grid.variants)
            .map(|(m, v)| m.record(item + 1, *line, &v.name, fen))
            .collect()
    }

    fn item_of(&self, r: &Record) -> Result<usize> {
        jobs::one_based(r.index, self.grid.fens.len())
    }

    fn block_len(&self, _: &Record) -> usize {
        self.grid.variants.len()
    }

    fn output(&self, item: usize, rows: Vec<Record>) -> Result<Vec<Measurement>> {
        let names: Vec<&str> = self.grid.variants.iter().map(|v| v.name.as_str()).collect();
        jobs::check_members(item, rows.iter().map(|r| r.variant.as_str()), &names)?;
        Ok(rows.into_iter().map(Measurement::from).collect())
    }
}

/// Searches every position with every variant (`result[position][variant]`; `concurrency`
/// workers each run their own engine process per variant), into `file` when given.
fn run_grid(
    grid: &Grid,
    positions: &[(usize, String)],
    file: Option<(&Path, Header)>,
) -> Result<Vec<Vec<Measurement>>> {
    // A ProbCut pair without fitted parameters is an error, a half-fitted one a loud warning.
    for v in grid.variants {
        let (cfg, _) =
            search_config(&v.options).with_context(|| format!("variant '{}'", v.name))?;
        for w in check_fitted_pairs(&v.name, &cfg)? {
            eprintln!("WARNING: {w}");
        }
    }
    // Fail early and clearly on a typo'd option: start each variant once.
    for v in grid.variants {
        UciEngine::start(&v.spec(grid.engine, grid.hash))
            .with_context(|| format!("variant '{}'", v.name))?
            .quit();
    }
    let job = UciGrid { grid, positions };
    let options = Options {
        workers: grid.concurrency,
        progress: !grid.quiet,
        unit: "positions",
        file,
    };
    Ok(jobs::run(&job, options)?.outputs)
}

/// The engine, variants, budget and result file of `depth` and `solve`.
#[derive(clap::Args, Debug, Clone)]
pub struct VariantRunArgs {
    /// Variants `name:Opt=Val,...` (repeatable); default: baseline, probcut, mpc.
    #[arg(long = "variant", short = 'v')]
    pub variants: Vec<String>,
    /// The engine binary; default: `augur` next to this program.
    #[arg(long)]
    pub engine: Option<std::path::PathBuf>,
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Positions searched at once. Fixed-time results are only comparable when the engines do
    /// not compete for cores, so the default is 1.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Time per position and variant, milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// Fixed nodes per search instead of fixed time (independent of machine load).
    #[arg(long, conflicts_with = "movetime")]
    pub nodes: Option<u64>,
    /// Every search as CSV, written as it finishes; a restart of the same command resumes it
    /// (other settings are refused).
    #[arg(long)]
    pub csv: Option<PathBuf>,
}

impl VariantRunArgs {
    /// `--nodes` when given, otherwise `--movetime`.
    pub fn budget(&self) -> Budget {
        Budget::from_args(self.nodes, self.movetime)
    }

    /// The engine binary these arguments name.
    pub fn engine_path(&self) -> PathBuf {
        self.engine.clone().unwrap_or_else(default_engine)
    }

    /// The grid `depth` and `solve` search: these settings over `fens` and `variants`.
    pub fn grid<'a>(
        &self,
        fens: &'a [String],
        variants: &'a [Variant],
        engine: &'a Path,
        budget: Budget,
        quiet: bool,
    ) -> Grid<'a> {
        Grid {
            fens,
            variants,
            engine,
            hash: self.hash,
            budget,
            concurrency: self.concurrency,
            quiet,
        }
    }
}
