//! `augur-lab accuracy --nodes N,...`: the oracle measure at equal nodes, the budget the games
//! of `augur-lab scaling` play at. For each position, technique and control, the technique's
//! side and its base side (the scaling study's two engines: `mpc` against `Mpc=false`, the
//! calibration's N against N/2) each search `go nodes N` from a fresh state; their moves are
//! judged by the oracle, the default engine searched to the depth the default engine reaches at
//! that control plus `--extra` (6 unless given) or to `--oracle-depth`. A move the oracle did
//! not choose is scored by the oracle restricted to it (`searchmoves`).
//!
//! Files: `--out FILE` holds a block per position (one row per control × technique × side),
//! appended as each position finishes; `FILE` with `.oracle.csv` for its extension caches every
//! oracle search (position, depth, restriction), so a rerun with other techniques or controls
//! reuses them. Both resume after a kill ([`crate::kit::jobs`], [`crate::kit::result_log`]).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};

use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::limits::Limits;
use augur::search::SearchTeam;

use super::{capped, AccuracyArgs};
use crate::data::epd::{epd_identity, load_epd};
use crate::kit::confidence::{mean_interval, wilson, Interval};
use crate::kit::jobs::{self, Job};
use crate::kit::provenance::{in_process_engine, Provenance};
use crate::kit::result_log::{self, Header, ResultLog, Row};
use crate::scaling::Technique;
use crate::variants::{check_fitted_pairs, search_config};

/// The study's techniques when `-t` is not given: those of `campaigns/study-nnue.toml`, and the
/// default engine alone (`base`).
pub const DEFAULT_TECHNIQUES: [&str; 7] = [
    "base",
    "mpc",
    "probcut",
    "seed004",
    "clamp:SfpcDepthRule=dynamic-clamped",
    "se",
    "nosfpc:Sfpc=false",
];

/// Where the positions come from when `--epd` is not given and the shared data is present.
const SHARED_POSITIONS: &str = "../shared/data/positions/games-sample.epd";

/// Plies the oracle searches beyond the depth the default engine reaches at the control.
pub const DEFAULT_EXTRA: i32 = 6;

/// One judged search: a side of a technique at a control in one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodesRow {
    /// The position's 1-based place in the run and its line in the EPD.
    pub index: usize,
    pub line: usize,
    pub technique: String,
    /// `tested` (the technique's options) or `base` (its base side's).
    pub side: String,
    /// The control (nodes a move of the games) and this side's budget (the calibration's base
    /// searches half).
    pub control: u64,
    pub budget: u64,
    pub depth: i32,
    pub nodes: u64,
    pub bestmove: String,
    pub score: i32,
    pub oracle_depth: i32,
    pub oracle_move: String,
    pub oracle_score: i32,
    /// The oracle's score of `bestmove`.
    pub move_score: i32,
    /// `oracle_score - move_score`, both capped at ±[`super::SCORE_CAP`].
    pub loss: i32,
    pub fen: String,
}

pub const COLUMNS: &str = "index,line,technique,side,control,budget,depth,nodes,bestmove,score,\
oracle_depth,oracle_move,oracle_score,move_score,loss,fen";

impl Row for NodesRow {
    const COLUMNS: &'static str = COLUMNS;
}

/// One oracle search kept in the cache file: `only` is the move it was restricted to, `*` for
/// none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct OracleRow {
    fen: String,
    depth: i32,
    only: String,
    bestmove: String,
    score: i32,
    nodes: u64,
}

const ORACLE_COLUMNS: &str = "fen,depth,only,bestmove,score,nodes";

impl Row for OracleRow {
    const COLUMNS: &'static str = ORACLE_COLUMNS;
}

/// A side's search settings: a configuration and the share of the control it searches.
#[derive(Clone)]
struct Side {
    config: SearchConfig,
    /// 1, or 2 for the calibration's half side.
    divisor: u64,
}

/// A technique as the study plays it: its tested and base sides.
struct Entry {
    name: String,
    tested: Side,
    base: Side,
}

/// `base` (the default engine against itself: the reference) or a technique of
/// `augur-lab scaling`.
fn entry(text: &str, params: Option<&Path>) -> Result<Entry> {
    let config = |options: &[(String, String)], name: &str| -> Result<SearchConfig> {
        let (cfg, others) = search_config(options).with_context(|| format!("technique {name}"))?;
        if !others.is_empty() {
            bail!(
                "technique {name}: {} not a search option (the searches run in this process)",
                others.join(", ")
            );
        }
        for w in check_fitted_pairs(name, &cfg)? {
            eprintln!("warning: {w}");
        }
        Ok(cfg)
    };
    if text == "base" {
        let side = Side {
            config: SearchConfig::default(),
            divisor: 1,
        };
        return Ok(Entry {
            name: "base".into(),
            tested: side.clone(),
            base: side,
        });
    }
    let t = Technique::parse(text, params)?;
    Ok(Entry {
        tested: Side {
            config: config(&t.options, &t.name)?,
            divisor: 1,
        },
        base: Side {
            config: config(&t.base_options, &t.name)?,
            divisor: if t.calibration { 2 } else { 1 },
        },
        name: t.name,
    })
}

/// An oracle search's key: the position's FEN, the depth, the move it was restricted to (`*`).
type OracleKey = (String, i32, String);

/// The oracle cache, shared by the workers: what the file held plus what this run adds, each
/// search's (best move, score).
struct Oracle {
    known: Mutex<HashMap<OracleKey, (String, i32)>>,
    log: Mutex<ResultLog>,
    hash: usize,
}

impl Oracle {
    fn open(path: &Path, header: &Header, hash: usize) -> Result<Oracle> {
        let opened = result_log::open(path, header)?;
        let mut known = HashMap::new();
        for (i, line) in opened.records.iter().enumerate() {
            let r: OracleRow = result_log::from_line(line)
                .with_context(|| format!("{}: record {}", path.display(), i + 1))?;
            known.insert((r.fen, r.depth, r.only), (r.bestmove, r.score));
        }
        Ok(Oracle {
            known: Mutex::new(known),
            log: Mutex::new(opened.log),
            hash,
        })
    }

    /// The oracle's (best move, score) at `depth`, restricted to `only` when given: from the
    /// cache, or searched and added to it.
    fn get(
        &self,
        pos: &Position,
        fen: &str,
        depth: i32,
        only: Option<&str>,
    ) -> Result<(String, i32)> {
        let key = (fen.to_string(), depth, only.unwrap_or("*").to_string());
        if let Some(v) = self.known.lock().expect("oracle cache").get(&key) {
            return Ok(v.clone());
        }
        let limits = Limits {
            depth: Some(depth),
            searchmoves: only.map(|m| vec![m.to_string()]).unwrap_or_default(),
            ..Default::default()
        };
        let r = search(&SearchConfig::default(), self.hash, pos, &limits)?;
        let (best, score) = (r.best.clone(), r.score);
        let row = OracleRow {
            fen: key.0.clone(),
            depth,
            only: key.2.clone(),
            bestmove: r.best,
            score,
            nodes: r.nodes,
        };
        self.log
            .lock()
            .expect("oracle log")
            .append(&[result_log::to_line(&row)?])?;
        self.known
            .lock()
            .expect("oracle cache")
            .insert(key, (best.clone(), score));
        Ok((best, score))
    }
}

/// What one search found.
#[derive(Clone)]
struct Searched {
    /// The best move in UCI.
    best: String,
    score: i32,
    nodes: u64,
    /// The deepest iteration completed.
    depth: i32,
}

/// A search from a fresh state.
fn search(cfg: &SearchConfig, hash: usize, pos: &Position, limits: &Limits) -> Result<Searched> {
    let mut team = SearchTeam::new(cfg.clone(), hash).map_err(|e| anyhow!("{e}"))?;
    let r = team.search(pos, limits);
    Ok(Searched {
        best: r.best.map_or_else(|| "-".to_string(), |m| pos.uci(m)),
        score: r.score,
        nodes: r.stats.nodes,
        depth: r.depth,
    })
}

/// The run as a job: an item is a position, its block every control × technique × side.
struct Positions<'a> {
    places: &'a [(usize, String)],
    boards: &'a [Position],
    entries: &'a [Entry],
    controls: &'a [u64],
    oracle: &'a Oracle,
    /// `--oracle-depth`, else the depth reached at the control + `extra`.
    oracle_depth: Option<i32>,
    extra: i32,
    hash: usize,
}

impl Positions<'_> {
    fn block(&self, item: usize) -> Result<Vec<NodesRow>> {
        let (line, fen) = &self.places[item];
        let pos = &self.boards[item];
        let mut rows = Vec::new();
        // Within a position, equal sides at equal budgets search once.
        let mut searched: Vec<(SearchConfig, u64, Searched)> = Vec::new();
        let mut run = |cfg: &SearchConfig, budget: u64| -> Result<Searched> {
            if let Some((_, _, r)) = searched.iter().find(|(c, b, _)| *b == budget && c == cfg) {
                return Ok(r.clone());
            }
            let limits = Limits {
                nodes: Some(budget),
                ..Default::default()
            };
            let r = search(cfg, self.hash, pos, &limits)?;
            searched.push((cfg.clone(), budget, r.clone()));
            Ok(r)
        };
        for &control in self.controls {
            let reached = run(&SearchConfig::default(), control)?.depth;
            let oracle_depth = self.oracle_depth.unwrap_or(reached + self.extra);
            let (oracle_move, oracle_score) = self.oracle.get(pos, fen, oracle_depth, None)?;
            for e in self.entries {
                for (side_name, side) in [("tested", &e.tested), ("base", &e.base)] {
                    let budget = (control / side.divisor).max(1);
                    let Searched {
                        best: bestmove,
                        score,
                        nodes,
                        depth,
                    } = run(&side.config, budget)?;
                    let move_score = if bestmove == oracle_move {
                        oracle_score
                    } else {
                        self.oracle.get(pos, fen, oracle_depth, Some(&bestmove))?.1
                    };
                    rows.push(NodesRow {
                        index: item + 1,
                        line: *line,
                        technique: e.name.clone(),
                        side: side_name.into(),
                        control,
                        budget,
                        depth,
                        nodes,
                        bestmove,
                        score,
                        oracle_depth,
                        oracle_move: oracle_move.clone(),
                        oracle_score,
                        move_score,
                        loss: capped(oracle_score) - capped(move_score),
                        fen: fen.clone(),
                    });
                }
            }
        }
        Ok(rows)
    }

    /// The (control, technique, side) of each row of a block, in order.
    fn members(&self) -> Vec<(u64, &str, &str)> {
        let mut m = Vec::new();
        for &c in self.controls {
            for e in self.entries {
                m.push((c, e.name.as_str(), "tested"));
                m.push((c, e.name.as_str(), "base"));
            }
        }
        m
    }
}

impl Job for Positions<'_> {
    type Output = Vec<NodesRow>;
    type Row = NodesRow;
    type Worker = ();

    fn items(&self) -> usize {
        self.places.len()
    }

    fn worker(&self) -> Result<()> {
        Ok(())
    }

    fn run(&self, _: &mut (), item: usize, _: Option<&Vec<NodesRow>>) -> Result<Vec<NodesRow>> {
        self.block(item)
    }

    fn rows(&self, _: usize, block: &Vec<NodesRow>) -> Vec<NodesRow> {
        block.clone()
    }

    fn item_of(&self, r: &NodesRow) -> Result<usize> {
        jobs::one_based(r.index, self.places.len())
    }

    fn block_len(&self, _: &NodesRow) -> usize {
        self.controls.len() * self.entries.len() * 2
    }

    fn output(&self, item: usize, rows: Vec<NodesRow>) -> Result<Vec<NodesRow>> {
        for (r, (c, t, s)) in rows.iter().zip(self.members()) {
            if (r.control, r.technique.as_str(), r.side.as_str()) != (c, t, s) {
                bail!(
                    "position {} has {} {} at {} where {t} {s} at {c} was expected",
                    item + 1,
                    r.technique,
                    r.side,
                    r.control
                );
            }
        }
        Ok(rows)
    }

    fn nodes(&self, block: &Vec<NodesRow>) -> u64 {
        block.iter().map(|r| r.nodes).sum()
    }
}

/// The cache file beside `--out`: `FILE` with `.oracle.csv` for its extension.
pub fn oracle_path(out: &Path) -> PathBuf {
    out.with_extension("oracle.csv")
}

/// One technique's side at one control over all positions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideFigures {
    pub technique: String,
    pub side: String,
    pub control: u64,
    pub positions: usize,
    /// Positions where its move is the oracle's, with the Wilson 95% interval of the share.
    pub equal: usize,
    pub equal_lo: f64,
    pub equal_hi: f64,
    /// The mean loss (cp) with its t 95% interval.
    pub mean_loss: Option<Interval>,
}

/// A technique at one control: its tested side against its base side, paired by position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TechniqueFigures {
    pub technique: String,
    pub control: u64,
    /// The tested side's share of equal moves minus the base side's, and its mean loss minus
    /// the base side's, each with its paired 95% interval.
    pub equal_diff: Option<Interval>,
    pub loss_diff: Option<Interval>,
}

/// The figures of a run (its `--summary`, and what `--correlate` reads).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodesFigures {
    pub sides: Vec<SideFigures>,
    pub techniques: Vec<TechniqueFigures>,
}

/// Per side and per technique, from the rows of a run.
pub fn figures(rows: &[NodesRow]) -> NodesFigures {
    let mut keys: Vec<(String, u64)> = Vec::new();
    for r in rows {
        let k = (r.technique.clone(), r.control);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let mut sides = Vec::new();
    let mut techniques = Vec::new();
    for (technique, control) in keys {
        let of = |side: &str| -> Vec<&NodesRow> {
            rows.iter()
                .filter(|r| r.technique == technique && r.control == control && r.side == side)
                .collect()
        };
        let (tested, base) = (of("tested"), of("base"));
        for (side, list) in [("tested", &tested), ("base", &base)] {
            let n = list.len();
            let equal = list.iter().filter(|r| r.bestmove == r.oracle_move).count();
            let (lo, hi) = wilson(equal, n).unwrap_or((0.0, 1.0));
            let losses: Vec<f64> = list.iter().map(|r| f64::from(r.loss)).collect();
            sides.push(SideFigures {
                technique: technique.clone(),
                side: side.into(),
                control,
                positions: n,
                equal,
                equal_lo: lo,
                equal_hi: hi,
                mean_loss: mean_interval(&losses),
            });
        }
        // Paired by position: both sides' rows of a position sit at the same place in the lists.
        let diff = |f: &dyn Fn(&NodesRow) -> f64| -> Option<Interval> {
            let d: Vec<f64> = tested
                .iter()
                .zip(&base)
                .filter(|(a, b)| a.index == b.index)
                .map(|(a, b)| f(a) - f(b))
                .collect();
            mean_interval(&d)
        };
        techniques.push(TechniqueFigures {
            equal_diff: diff(&|r| f64::from(u8::from(r.bestmove == r.oracle_move))),
            loss_diff: diff(&|r| f64::from(r.loss)),
            technique,
            control,
        });
    }
    NodesFigures { sides, techniques }
}

/// The figures as markdown tables.
pub fn report(f: &NodesFigures) -> String {
    let mut s = String::from(
        "| technique | side | control | positions | move equal to the oracle's [Wilson 95%] | mean loss (cp, t 95%) |\n\
         | --- | --- | ---: | ---: | --- | --- |\n",
    );
    for x in &f.sides {
        let share = if x.positions == 0 {
            "-".to_string()
        } else {
            format!(
                "{:.1}% [{:.1}, {:.1}] ({}/{})",
                100.0 * x.equal as f64 / x.positions as f64,
                100.0 * x.equal_lo,
                100.0 * x.equal_hi,
                x.equal,
                x.positions
            )
        };
        let loss = x.mean_loss.map_or("-".into(), |i| i.text(1));
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {share} | {loss} |",
            x.technique, x.side, x.control, x.positions
        );
    }
    s.push_str(
        "\n| technique | control | equal share, tested − base (paired, points) | mean loss, tested − base (paired, cp) |\n\
         | --- | ---: | --- | --- |\n",
    );
    for t in &f.techniques {
        let eq = t.equal_diff.map_or("-".into(), |i| {
            format!("{:+.1} ± {:.1}", 100.0 * i.mean, 100.0 * i.half_width())
        });
        let loss = t.loss_diff.map_or("-".into(), |i| i.text(1));
        let _ = writeln!(s, "| {} | {} | {eq} | {loss} |", t.technique, t.control);
    }
    s
}

/// What a run leaves: every row in position order, and how many positions an earlier run had
/// finished.
pub struct Finished {
    pub rows: Vec<NodesRow>,
    pub resumed: usize,
    pub figures: NodesFigures,
}

pub fn run(args: &AccuracyArgs) -> Result<Finished> {
    let out = args
        .output
        .out
        .as_deref()
        .context("--nodes needs --out FILE (the rows and, beside them, the oracle cache)")?;
    if args.nodes.iter().any(|&n| n < 2) {
        bail!("--nodes: each at least 2");
    }
    let extra = args.extra.unwrap_or(DEFAULT_EXTRA);
    if extra < 1 || args.oracle_depth.is_some_and(|d| d < 1) {
        bail!("--extra and --oracle-depth must be at least 1");
    }
    let texts: Vec<String> = if args.techniques.is_empty() {
        DEFAULT_TECHNIQUES.iter().map(|s| s.to_string()).collect()
    } else {
        args.techniques.clone()
    };
    let mut entries: Vec<Entry> = Vec::new();
    for t in &texts {
        let e = entry(t, args.params.as_deref())?;
        if entries.iter().any(|o| o.name == e.name) {
            bail!("technique '{}' is listed twice", e.name);
        }
        entries.push(e);
    }
    let epd = args.epd.clone().or_else(|| {
        let p = PathBuf::from(SHARED_POSITIONS);
        p.exists().then_some(p)
    });
    let mut positions = load_epd(epd.as_deref())?;
    positions.truncate(args.positions.unwrap_or(300));
    if positions.is_empty() {
        bail!("no positions");
    }
    let boards = super::playable(&positions)?;
    let provenance = Provenance::capture(args, None);
    let (epd_name, epd_sha256) = epd_identity(epd.as_deref())?;
    let engine = in_process_engine();
    let header = Header {
        kind: "accuracy-nodes".into(),
        settings: vec![
            ("epd".into(), epd_name),
            ("epd_sha256".into(), epd_sha256),
            ("positions".into(), positions.len().to_string()),
            ("nodes".into(), options_list(&args.nodes)),
            ("techniques".into(), texts.join(" ")),
            (
                "params".into(),
                args.params
                    .as_ref()
                    .map_or("-".into(), |p| p.display().to_string()),
            ),
            (
                "oracle".into(),
                match args.oracle_depth {
                    Some(d) => format!("depth {d}"),
                    None => format!("depth reached + {extra}"),
                },
            ),
            ("hash_mb".into(), args.hash.to_string()),
            ("engine".into(), engine.clone()),
        ],
        provenance: provenance.clone(),
        columns: COLUMNS.into(),
    };
    // The cache depends on nothing but the engine and the table size: any run may share it.
    let oracle_header = Header {
        kind: "accuracy-oracle".into(),
        settings: vec![
            ("engine".into(), engine),
            ("hash_mb".into(), args.hash.to_string()),
            ("search".into(), "default options, fresh state".into()),
        ],
        provenance: provenance.clone(),
        columns: ORACLE_COLUMNS.into(),
    };
    let oracle = Oracle::open(&oracle_path(out), &oracle_header, args.hash)?;
    let places: Vec<(usize, String)> = positions.iter().map(|p| (p.line, p.fen.clone())).collect();
    let job = Positions {
        places: &places,
        boards: &boards,
        entries: &entries,
        controls: &args.nodes,
        oracle: &oracle,
        oracle_depth: args.oracle_depth,
        extra,
        hash: args.hash,
    };
    let options = jobs::Options {
        workers: args.threads.max(1),
        progress: !args.output.quiet,
        unit: "positions",
        file: Some((out, header)),
    };
    let finished = jobs::run(&job, options)?;
    let resumed = finished.resumed;
    let rows: Vec<NodesRow> = finished.outputs.into_iter().flatten().collect();
    let figures = figures(&rows);
    let mut md = provenance.markdown();
    let _ = writeln!(
        md,
        "{} positions; each side searched `go nodes N` from a fresh state; the oracle: the \
         default engine at {}; loss = the oracle's score of its move − its score of the side's \
         move, capped at ±{} cp.\n",
        positions.len(),
        match args.oracle_depth {
            Some(d) => format!("depth {d}"),
            None => format!("the depth it reaches at the control + {extra}"),
        },
        super::SCORE_CAP
    );
    md.push_str(&report(&figures));
    let md_path = out.with_extension("md");
    std::fs::write(&md_path, &md).with_context(|| format!("writing {}", md_path.display()))?;
    print!("{md}");
    args.output.summary.write("accuracy", &figures)?;
    Ok(Finished {
        rows,
        resumed,
        figures,
    })
}

fn options_list(nodes: &[u64]) -> String {
    nodes
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// The rows of a finished (or partial) run's file, for `--correlate`.
pub fn read_rows(path: &Path) -> Result<Vec<NodesRow>> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
    result_log::read_rows(&text, &name)
        .with_context(|| format!("{name}: not an `accuracy --nodes` file"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::run_args::OutputArgs;

    const THREE: &str = "\
r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3
6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1
";

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("augur-accnodes-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn args(dir: &Path, techniques: &[&str]) -> AccuracyArgs {
        AccuracyArgs {
            epd: Some(dir.join("three.epd")),
            positions: None,
            depth: 9,
            extra: Some(2),
            nodes: vec![300, 600],
            techniques: techniques.iter().map(|s| s.to_string()).collect(),
            params: None,
            oracle_depth: None,
            threads: 1,
            correlate: Vec::new(),
            variants: Vec::new(),
            hash: 1,
            output: OutputArgs {
                out: Some(dir.join("acc.csv")),
                quiet: true,
                ..OutputArgs::default()
            },
        }
    }

    fn records(path: &Path) -> Vec<String> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect()
    }

    /// A run writes a block per position (control × technique × side), judges each move by
    /// the cached oracle, and a rerun skips the finished positions: one cut in the middle of
    /// its last block works out that position alone, searching no oracle again.
    #[test]
    fn a_run_writes_its_rows_and_a_rerun_resumes() {
        let dir = scratch("resume");
        std::fs::write(dir.join("three.epd"), THREE).unwrap();
        let a = args(&dir, &["base", "calibration", "nonmp:Nmp=false"]);
        let first = run(&a).unwrap();
        assert_eq!(first.resumed, 0);
        assert_eq!(first.rows.len(), 3 * 2 * 3 * 2);
        let rows = records(&dir.join("acc.csv"));
        assert_eq!(rows[0], COLUMNS);
        assert_eq!(rows.len(), 1 + first.rows.len());
        for r in &first.rows {
            assert_eq!(
                r.loss,
                capped(r.oracle_score) - capped(r.move_score),
                "{r:?}"
            );
            if r.bestmove == r.oracle_move {
                assert_eq!(r.loss, 0);
            }
            // A found mate ends the search early; otherwise `go nodes N` searches N exactly.
            assert!(
                r.nodes == r.budget || (r.index == 2 && r.nodes < r.budget),
                "{r:?}"
            );
            assert!(r.oracle_depth > r.depth, "{r:?}");
        }
        let half = first
            .rows
            .iter()
            .find(|r| r.technique == "calibration" && r.side == "base");
        assert_eq!(half.map(|r| r.budget), Some(150));
        // The mate in one: every side finds Rd8#.
        assert!(first
            .rows
            .iter()
            .filter(|r| r.index == 2)
            .all(|r| r.bestmove == "d1d8"));
        let oracle = records(&oracle_path(&dir.join("acc.csv")));
        let whole = std::fs::read_to_string(dir.join("acc.csv")).unwrap();

        // Finished: nothing is searched again.
        let again = run(&a).unwrap();
        assert_eq!(again.resumed, 3);
        assert_eq!(again.rows, first.rows);
        // Killed in the middle of position 3's block: only it is worked out again, from the
        // oracle's cache.
        let cut = whole.len() - whole.lines().last().unwrap().len() - 20;
        std::fs::write(dir.join("acc.csv"), &whole[..cut]).unwrap();
        let resumed = run(&a).unwrap();
        assert_eq!(resumed.resumed, 2);
        assert_eq!(resumed.rows, first.rows);
        assert_eq!(std::fs::read_to_string(dir.join("acc.csv")).unwrap(), whole);
        assert_eq!(records(&oracle_path(&dir.join("acc.csv"))), oracle);

        // Other techniques are another run (its settings differ) but share the oracle's cache.
        let mut other = args(&dir, &["base"]);
        other.output.out = Some(dir.join("other.csv"));
        std::fs::copy(
            oracle_path(&dir.join("acc.csv")),
            oracle_path(&dir.join("other.csv")),
        )
        .unwrap();
        let o = run(&other).unwrap();
        assert_eq!(o.rows.len(), 3 * 2 * 2);
        let with_base = |rows: &[NodesRow]| -> Vec<(usize, u64, String, String)> {
            rows.iter()
                .filter(|r| r.technique == "base")
                .map(|r| {
                    (
                        r.index,
                        r.control,
                        r.bestmove.clone(),
                        r.oracle_move.clone(),
                    )
                })
                .collect()
        };
        assert_eq!(with_base(&o.rows), with_base(&first.rows));
        assert_eq!(records(&oracle_path(&dir.join("other.csv"))), oracle);
        let read = read_rows(&dir.join("acc.csv")).unwrap();
        assert_eq!(read, first.rows);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_figures_count_equal_moves_and_pair_the_sides() {
        let row = |index: usize, side: &str, mv: &str, loss: i32| NodesRow {
            index,
            line: index,
            technique: "t".into(),
            side: side.into(),
            control: 1000,
            budget: 1000,
            depth: 5,
            nodes: 1000,
            bestmove: mv.into(),
            score: 0,
            oracle_depth: 11,
            oracle_move: "e2e4".into(),
            oracle_score: 0,
            move_score: -loss,
            loss,
            fen: String::new(),
        };
        let rows = vec![
            row(1, "tested", "e2e4", 0),
            row(1, "base", "d2d4", 20),
            row(2, "tested", "e2e4", 0),
            row(2, "base", "e2e4", 0),
            row(3, "tested", "g1f3", 10),
            row(3, "base", "g1f3", 10),
        ];
        let f = figures(&rows);
        assert_eq!(f.sides.len(), 2);
        let (t, b) = (&f.sides[0], &f.sides[1]);
        assert_eq!((t.side.as_str(), t.equal, t.positions), ("tested", 2, 3));
        assert_eq!((b.side.as_str(), b.equal), ("base", 1));
        let (lo, hi) = wilson(2, 3).unwrap();
        assert!((t.equal_lo - lo).abs() < 1e-12 && (t.equal_hi - hi).abs() < 1e-12);
        assert!((b.mean_loss.unwrap().mean - 10.0).abs() < 1e-12);
        let d = &f.techniques[0];
        assert!((d.equal_diff.unwrap().mean - 1.0 / 3.0).abs() < 1e-12);
        assert!((d.loss_diff.unwrap().mean + 20.0 / 3.0).abs() < 1e-12);
        let md = report(&f);
        assert!(md.contains("| t | tested | 1000 | 3 | 66.7% "), "{md}");
        assert!(md.contains("| t | 1000 | +33.3 ± "), "{md}");
    }

    #[test]
    fn bad_input_is_refused_with_its_reason() {
        let dir = scratch("bad");
        let write = |text: &str| std::fs::write(dir.join("three.epd"), text).unwrap();
        let err = |a: &AccuracyArgs| format!("{:#}", run(a).err().expect("an error"));
        write("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1\n");
        let e = err(&args(&dir, &["base"]));
        assert!(e.contains("three.epd") && e.contains(":1"), "{e}");
        // Checkmated: nothing to choose.
        write(&format!(
            "{}rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n",
            THREE
        ));
        let e = err(&args(&dir, &["base"]));
        assert!(e.contains("line 4: no legal move"), "{e}");
        write(THREE);
        assert!(err(&args(&dir, &["mpc"])).contains("--params"));
        assert!(err(&args(&dir, &["x:NoSuchOption=1"])).contains("NoSuchOption"));
        assert!(err(&args(&dir, &["base", "base"])).contains("twice"));
        let mut a = args(&dir, &["base"]);
        a.output.out = None;
        assert!(err(&a).contains("--out"));
        a = args(&dir, &["base"]);
        a.nodes = vec![1];
        assert!(err(&a).contains("at least 2"));
        assert!(!dir.join("acc.csv").exists(), "no file for a refused run");
        let e = format!("{:#}", read_rows(&dir.join("three.epd")).unwrap_err());
        assert!(e.contains("not an `accuracy --nodes` file"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
