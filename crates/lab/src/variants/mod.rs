//! Engine variants compared position by position: the same engine with different UCI options,
//! written `name:Opt=Val,Opt=Val`.
//!
//! - [`depth`]: the paper's speed test, the depth each variant reaches in a fixed budget.
//! - [`solve`]: the tactical cost, test-suite positions solved per variant.
//! - [`accuracy`]: each variant's move judged by a deeper search of the first variant.
//!
//! `depth` and `solve` drive the `augur` binary over UCI (the runner below): every variant
//! searches every position back to back, each after `ucinewgame`, so machine load hits all
//! variants alike and results do not depend on the order positions are searched in.
//! `accuracy` searches in this process, with the configuration the options give
//! ([`search_config`]).

pub mod accuracy;
pub mod depth;
pub mod solve;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};

use augur::search::config::SearchConfig;
use augur::search::probcut;
use augur_arena::engine::spec::EngineSpec;
use augur_arena::engine::uci::{Score, UciEngine};
use augur_arena::progress::Progress;

use crate::kit::result_log::{self, Header, ResultLog};

pub const DEFAULT_VARIANTS: [&str; 3] = [
    "baseline:Sfpc=false",
    "probcut:Sfpc=false,ProbCut=true",
    "mpc:Sfpc=false,Mpc=true",
];

/// `Opt=Val,Opt=Val` (empty allowed) into pairs; `what` names the text in errors (`variant
/// 'mpc:Mpc'`, `--baseline 'Mpc'`).
pub fn parse_options(text: &str, what: &str) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((k, v)) = part.split_once('=') else {
            bail!("bad {what}: '{part}' is not Opt=Val");
        };
        let (k, v) = (k.trim(), v.trim());
        if k.is_empty() || k.contains(char::is_whitespace) {
            bail!("bad {what}: '{part}' has no option name");
        }
        out.push((k.to_string(), v.to_string()));
    }
    Ok(out)
}

#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    pub name: String,
    pub options: Vec<(String, String)>,
}

impl Variant {
    /// `name` or `name:Opt=Val,Opt=Val`.
    pub fn parse(text: &str) -> Result<Variant> {
        let (name, rest) = text.split_once(':').unwrap_or((text, ""));
        let name = name.trim();
        if name.is_empty() {
            bail!("bad variant '{text}': empty name (expected name:Opt=Val,Opt=Val)");
        }
        Ok(Variant {
            name: name.to_string(),
            options: parse_options(rest, &format!("variant '{text}'"))?,
        })
    }

    pub fn parse_all(texts: &[String]) -> Result<Vec<Variant>> {
        let list: Vec<String> = if texts.is_empty() {
            DEFAULT_VARIANTS.iter().map(|s| s.to_string()).collect()
        } else {
            texts.to_vec()
        };
        let vs: Vec<Variant> = list
            .iter()
            .map(|t| Variant::parse(t))
            .collect::<Result<_>>()?;
        for (i, v) in vs.iter().enumerate() {
            if vs[..i].iter().any(|w| w.name == v.name) {
                bail!("variant name '{}' is used twice", v.name);
            }
        }
        Ok(vs)
    }

    pub fn spec(&self, engine: &Path, hash: usize) -> EngineSpec {
        let mut spec = EngineSpec::new(&self.name, engine);
        spec.set_option("Hash", &hash.to_string());
        spec.set_option("Threads", "1");
        for (k, v) in &self.options {
            spec.set_option(k, v);
        }
        spec
    }
}

/// The engine's search configuration for UCI options `Name=Value`, checked and applied by the
/// engine's own option table (so renamed or mistyped options are errors here too). Options the
/// search does not hold (`Hash`, `Threads`, ...) are returned for the caller to judge.
pub fn search_config(options: &[(String, String)]) -> Result<(SearchConfig, Vec<String>)> {
    let mut cfg = SearchConfig::default();
    let mut others = Vec::new();
    for (name, value) in options {
        if !cfg
            .set_option(name, Some(value))
            .map_err(|e| anyhow!("{e}"))?
        {
            others.push(name.clone());
        }
    }
    Ok((cfg, others))
}

/// [probcut] [mpc] A ProbCut-family switch whose depth pairs have no fitted parameters never
/// cuts, silently (`augur::search::probcut::unfitted`). Errors when a variant's switch has no
/// pair at all; warnings (returned) when only one game stage has one.
pub fn check_fitted_pairs(name: &str, cfg: &SearchConfig) -> Result<Vec<String>> {
    let mut warnings = Vec::new();
    for u in probcut::unfitted(cfg) {
        if u.stages.is_empty() {
            bail!(
                "variant '{name}': {} ({} pairs in the file); fit it (augur-lab fit \
                 --file-pairs SHALLOW:HEIGHT) or choose a fitted one",
                u.message(),
                cfg.probcut.params.pairs.len()
            );
        }
        warnings.push(format!("variant '{name}': {}", u.message()));
    }
    Ok(warnings)
}

/// The `augur` binary next to this executable, else `augur` from PATH.
pub fn default_engine() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join("augur")))
        .filter(|p| p.exists())
        .unwrap_or_else(|| PathBuf::from("augur"))
}

/// `tried/cut` counters from the engine's `info string stats k=v ...` line.
pub fn parse_stats(line: &str) -> BTreeMap<String, (u64, u64)> {
    let mut out = BTreeMap::new();
    for word in line.split_whitespace() {
        let Some((k, v)) = word.split_once('=') else {
            continue;
        };
        let parsed = match v.split_once('/') {
            Some((t, c)) => t.parse().ok().zip(c.parse().ok()),
            None => v.parse().ok().map(|n| (n, 0)),
        };
        if let Some(tc) = parsed {
            out.insert(k.to_string(), tc);
        }
    }
    out
}

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

fn score_text(score: Option<Score>) -> String {
    match score {
        Some(Score::Cp(cp)) => format!("cp {cp}"),
        Some(Score::Mate(m)) => format!("mate {m}"),
        None => "-".into(),
    }
}

fn parse_score(text: &str) -> Result<Option<Score>> {
    let bad = || anyhow!("bad score '{text}' (expected 'cp N', 'mate N' or '-')");
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

impl Measurement {
    /// The ProbCut family's tried and cut searches (probcut + mpc + sfpc).
    pub fn probcut_counts(&self) -> (u64, u64) {
        depth::PROBCUT_KEYS
            .iter()
            .filter_map(|k| self.counters.get(*k))
            .fold((0, 0), |a, &(t, c)| (a.0 + t, a.1 + c))
    }

    /// One CSV line (see [`COLUMNS`]).
    pub fn to_csv(&self, index: usize, line: usize, variant: &str, fen: &str) -> String {
        let (t, c) = self.probcut_counts();
        let counters: Vec<String> = self
            .counters
            .iter()
            .map(|(k, (t, c))| format!("{k}={t}/{c}"))
            .collect();
        format!(
            "{index},{line},{variant},{},{},{},{t},{c},{},{},{},{fen}",
            self.depth,
            self.nodes,
            self.ms,
            score_text(self.score),
            self.bestmove,
            counters.join(" ")
        )
    }

    /// Reads a line back: (index, variant name, measurement).
    pub fn parse(text: &str) -> Result<(usize, String, Measurement)> {
        let f: Vec<&str> = text.splitn(12, ',').collect();
        if f.len() != 12 {
            bail!("expected the columns {COLUMNS}");
        }
        let num = |i: usize, name: &str| -> Result<u64> {
            f[i].parse()
                .with_context(|| format!("bad {name} '{}'", f[i]))
        };
        Ok((
            num(0, "index")? as usize,
            f[2].to_string(),
            Measurement {
                depth: num(3, "depth")? as u32,
                nodes: num(4, "nodes")?,
                ms: num(5, "ms")?,
                score: parse_score(f[8])?,
                bestmove: f[9].to_string(),
                counters: parse_stats(f[10]),
            },
        ))
    }
}

/// A result file of `depth` or `solve`: what an earlier run left, and the open file.
pub struct GridLog {
    pub log: ResultLog,
    /// `done[position]`: the row of every position already measured.
    pub done: Vec<Option<Vec<Measurement>>>,
}

/// Opens the per-search CSV of a `depth`/`solve` run over `lines` (the EPD line of each
/// position) with `variants`: creates it, or keeps the complete position blocks an earlier
/// run with the same settings left (a kill leaves at most an unfinished last block).
pub fn open_grid_log(
    path: &Path,
    header: &Header,
    lines: &[usize],
    variants: &[Variant],
) -> Result<GridLog> {
    let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    let blocks = result_log::open_blocks(
        path,
        header,
        lines.len(),
        &names,
        |l| Measurement::parse(l).map(|(index, variant, m)| (index, (variant, m))),
        |(variant, _): &(String, Measurement)| variant.as_str(),
    )?;
    let done = blocks
        .done
        .into_iter()
        .map(|b| b.map(|row| row.into_iter().map(|(_, m)| m).collect()))
        .collect();
    Ok(GridLog {
        log: blocks.log,
        done,
    })
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
    let Some(path) = out else {
        return run_grid_with(grid, vec![None; grid.fens.len()], &mut |_, _| Ok(()));
    };
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
    let lines: Vec<usize> = positions.iter().map(|p| p.0).collect();
    let GridLog { mut log, done } = open_grid_log(path, &header, &lines, grid.variants)?;
    let already = done.iter().filter(|d| d.is_some()).count();
    if already > 0 && !grid.quiet {
        eprintln!(
            "resuming {}: {already} positions already done",
            path.display()
        );
    }
    let block = |i: usize, row: &[Measurement]| -> Vec<String> {
        row.iter()
            .zip(grid.variants)
            .map(|(m, v)| m.to_csv(i + 1, positions[i].0, &v.name, &positions[i].1))
            .collect()
    };
    let results = run_grid_with(grid, done, &mut |i, row| log.append(&block(i, row)))?;
    let all: Vec<String> = results
        .iter()
        .enumerate()
        .flat_map(|(i, row)| block(i, row))
        .collect();
    log.rewrite(&all)?;
    Ok(results)
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

/// What [`run_grid_with`] searches.
pub struct Grid<'a> {
    pub fens: &'a [String],
    pub variants: &'a [Variant],
    pub engine: &'a Path,
    pub hash: usize,
    pub budget: Budget,
    pub concurrency: usize,
    pub quiet: bool,
}

/// Searches every position with every variant (`result[position][variant]`; `concurrency`
/// workers each run their own engine process per variant), skipping the positions whose row is in `done` and handing each new row to
/// `on_row(position, row)` as it finishes (which appends it to the result file).
pub fn run_grid_with(
    grid: &Grid,
    done: Vec<Option<Vec<Measurement>>>,
    on_row: &mut dyn FnMut(usize, &[Measurement]) -> Result<()>,
) -> Result<Vec<Vec<Measurement>>> {
    let Grid {
        fens,
        variants,
        engine,
        hash,
        budget,
        concurrency,
        quiet,
    } = *grid;
    // A ProbCut pair without fitted parameters is an error, a half-fitted one a loud warning.
    for v in variants {
        let (cfg, _) =
            search_config(&v.options).with_context(|| format!("variant '{}'", v.name))?;
        for w in check_fitted_pairs(&v.name, &cfg)? {
            eprintln!("WARNING: {w}");
        }
    }
    // Fail early and clearly on a typo'd option: start each variant once.
    for v in variants {
        UciEngine::start(&v.spec(engine, hash))
            .with_context(|| format!("variant '{}'", v.name))?
            .quit();
    }
    let todo: Vec<usize> = (0..fens.len()).filter(|&i| done[i].is_none()).collect();
    let initial = fens.len() - todo.len();
    let fens = Arc::new(fens.to_vec());
    let todo = Arc::new(todo);
    let variants = Arc::new(variants.to_vec());
    let next = Arc::new(AtomicUsize::new(0));
    let failed = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<(usize, Result<Vec<Measurement>>)>();
    let mut handles = Vec::new();
    for _ in 0..concurrency.clamp(1, todo.len().max(1)) {
        let (fens, todo, variants, next, failed, tx) = (
            fens.clone(),
            todo.clone(),
            variants.clone(),
            next.clone(),
            failed.clone(),
            tx.clone(),
        );
        let engine = engine.to_path_buf();
        handles.push(std::thread::spawn(move || {
            let mut engines = Vec::new();
            for v in variants.iter() {
                match UciEngine::start(&v.spec(&engine, hash)) {
                    Ok(e) => engines.push(e),
                    Err(e) => {
                        let _ = tx.send((usize::MAX, Err(e)));
                        return;
                    }
                }
            }
            while !failed.load(Ordering::Relaxed) {
                let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                    break;
                };
                let fen = &fens[i];
                let row: Result<Vec<Measurement>> = engines
                    .iter_mut()
                    .map(|e| measure(e, fen, budget))
                    .collect();
                if tx.send((i, row)).is_err() {
                    break;
                }
            }
            for e in engines {
                e.quit();
            }
        }));
    }
    drop(tx);
    let mut results = done;
    let mut progress = Progress::new(fens.len(), initial, !quiet);
    let mut done = initial;
    let mut error = None;
    for (i, row) in rx {
        match row.and_then(|row| on_row(i, &row).map(|_| row)) {
            Ok(row) => {
                results[i] = Some(row);
                done += 1;
                progress.update(done, "");
            }
            Err(e) => {
                failed.store(true, Ordering::Relaxed);
                error.get_or_insert(e);
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    progress.finish();
    if let Some(e) = error {
        return Err(e);
    }
    results
        .into_iter()
        .map(|r| r.ok_or_else(|| anyhow!("a position was not searched")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_and_stats() {
        let v = Variant::parse("mpc:Mpc=true, MpcThresholdMid=100").unwrap();
        assert_eq!(v.name, "mpc");
        assert_eq!(v.options[1], ("MpcThresholdMid".into(), "100".into()));
        assert!(Variant::parse(":ProbCut=true").is_err());
        assert!(Variant::parse("x:ProbCut").is_err());
        assert!(Variant::parse_all(&["a".into(), "a:ProbCut=true".into()]).is_err());
        let s = parse_stats("stats nodes=84424 mpc=5317/4572 pc_mid_4_8=1292/1001 junk");
        assert_eq!(s["nodes"], (84424, 0));
        assert_eq!(s["mpc"], (5317, 4572));
        assert_eq!(s["pc_mid_4_8"], (1292, 1001));
    }

    #[test]
    fn a_probcut_pair_without_fitted_parameters_is_an_error() {
        let v = Variant::parse("pc64:ProbCut=true,ProbCutHeight=6,ProbCutShallow=4").unwrap();
        let (cfg, _) = search_config(&v.options).unwrap();
        let e = check_fitted_pairs(&v.name, &cfg).unwrap_err().to_string();
        assert!(e.contains("(shallow 4, height 6)"), "{e}");
        let ok = Variant::parse("pc48:ProbCut=true,ProbCutHeight=8,ProbCutShallow=4").unwrap();
        let (cfg, _) = search_config(&ok.options).unwrap();
        assert!(check_fitted_pairs(&ok.name, &cfg).unwrap().is_empty());
        let mpc = Variant::parse("mpc:Mpc=true,MpcMaxHeight=4").unwrap();
        let (cfg, _) = search_config(&mpc.options).unwrap();
        assert!(check_fitted_pairs(&mpc.name, &cfg).is_err());
        let (_, others) = search_config(&[("Hash".into(), "8".into())]).unwrap();
        assert_eq!(others, ["Hash"]);
        assert!(search_config(&[("ProbCutHeight".into(), "x".into())]).is_err());
    }
}

/// The engine and variants of `depth` and `solve`.
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
}

impl VariantRunArgs {
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
