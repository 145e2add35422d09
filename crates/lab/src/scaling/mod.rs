//! `augur-lab scaling`: forward-pruning verdicts across depth. For each technique, a
//! fixed-length pentanomial match of the engine with the technique against the same engine
//! without it at each of several node counts (the same openings at every control), with Elo
//! and normalized Elo per point; beside each point the depth the games reached, the identical
//! game pairs, and the technique's activity (tried and cut per 1,000 nodes, from the engine's
//! `info string stats` on a fixed set of positions searched with `go nodes N`), so a flat
//! curve can be told from a technique that does not run. A calibration curve (the engine at N
//! nodes against itself at N/2) says what a doubling is worth at each control, so every
//! technique also reads as a share of a doubling.
//!
//! Fishtest judges every change at a short and a long control because gains change with
//! depth; these curves are that judgement drawn out.
//!
//! ProbCut-family techniques play with a model fitted on the engine under test (Jiang &
//! Buro fitted on the engine they tested): unless `--params` names one, `collect` + `fit` run
//! into `OUT/model/` once, and again only when the engine's bench signature changes.
//!
//! Resumable after kill -9, on the lab's job runner (`kit::jobs`, one item per point): each
//! point's games go to `OUT/<technique>/nodes-<N>.pgn` (the match runner resumes from it), its
//! activity probe to `OUT/<technique>/activity-<N>.csv` (the variant runner resumes from it),
//! and each finished point is a row of `OUT/scaling.csv` (a `result_log` file: settings
//! header, a restart with other settings refused). Outputs: `scaling.csv`, `scaling.md`, a chart per technique
//! (`<technique>.{svg,png}`) and `provenance.toml`.

pub mod analysis;
pub mod keep;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use augur_arena::game::time_control::TimeControl;
use augur_arena::game::{pgn, AdjudicationArgs};
use augur_arena::matchmaking::elo::{self, Estimate};
use augur_arena::matchmaking::outcomes::{Penta, PentaRow, Wdl};
use augur_arena::matchmaking::tournament::{self, MatchArgs};
use clap::Args;
use serde::{Deserialize, Serialize};

use crate::data::bundled::{GAMES_SAMPLE300, GAMES_SAMPLE300_NAME};
use crate::data::epd::load_epd;
use crate::kit::chart::{CategoryChart, Chart, Series, Style};
use crate::kit::jobs::{self, Job};
use crate::kit::provenance::{sha256_file, sha256_hex, Provenance};
use crate::kit::result_log::{self, Header, Row};
use crate::kit::run_args::{OutputArgs, RunArgs};
use crate::kit::summary::SummaryArgs;
use crate::probcut::collect::{self, CollectArgs};
use crate::probcut::fit::{self, FitArgs};
use crate::variants::uci::{run_grid_to, Budget, Measurement, VariantRunArgs};
use crate::variants::{
    check_fitted_pairs, default_engine, options_text, parse_options, search_config, Variant,
};

/// The openings of the study when `--openings` is not given and the shared data is present:
/// unbalanced positions, as fishtest tests with, so fewer games are draws and each game pair
/// says more.
const SHARED_OPENINGS: &str = "../shared/data/openings/UHO_4060_v4-sample10k.epd";
/// The positions `collect` fits the model on when the shared data is present.
const SHARED_POSITIONS: &str = "../shared/data/positions/games-sample.epd";

#[derive(Args, Debug, Clone)]
#[command(after_help = "See docs/scaling.md.\n\nExamples:\n  \
augur-lab scaling --out runs/scaling\n  \
augur-lab scaling --out runs/scaling -t seed004 -t calibration --nodes 10000,40000 --games 2000\n  \
augur-lab scaling --out runs/tiny -t nmp:Nmp=false --nodes 2000,4000 --games 20 --activity-positions 5")]
pub struct ScalingArgs {
    /// Techniques, each against the default engine: `calibration` (N against N/2 nodes),
    /// `mpc`, `probcut`, `seed004` (Stockfish-style ProbCut's dynamic verification depth
    /// against the fixed one), `se` (singular extensions), or `NAME:Opt=Val,...` (repeatable).
    #[arg(long = "technique", short = 't', default_values_t = ["calibration".to_string(), "seed004".to_string(), "se".to_string(), "probcut".to_string(), "mpc".to_string()])]
    pub techniques: Vec<String>,
    /// Nodes a move at each point (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "10000,40000,160000")]
    pub nodes: Vec<u64>,
    /// Games per point: one number for every control, or one per --nodes value.
    #[arg(long, value_delimiter = ',', default_value = "2000,2000,1100")]
    pub games: Vec<usize>,
    /// The engine binary (both sides); default: `augur` next to this program.
    #[arg(long)]
    pub engine: Option<PathBuf>,
    /// Engine options of the engine under test, `Name=Value` (repeatable): set on both sides
    /// of every match and in the activity probe before the technique's own, and in the
    /// searches the ProbCut-family model is fitted on (e.g. `--set Eval=hce --set
    /// KingSafety=125`: the study on the hand-written evaluation with its king safety scaled).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Openings (EPD or PGN); default: the shared UHO_4060_v4 sample when present, else the
    /// bundled 8moves_v3 sample. Every point plays the same openings in the same order.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// ProbCut-family model for `mpc` and `probcut`; default: fitted on this engine into
    /// OUT/model (collect + fit).
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Positions the model is fitted on (EPD); default: the shared TCEC sample when present,
    /// else the bundled 300 positions.
    #[arg(long)]
    pub collect_epd: Option<PathBuf>,
    #[arg(long, default_value_t = 6000)]
    pub collect_positions: usize,
    #[arg(long, default_value_t = 10)]
    pub collect_depth: i32,
    /// Positions of the activity probe (the first N of the bundled TCEC sample), searched
    /// with `go nodes N` by the technique and the baseline at each control.
    #[arg(long, default_value_t = 60)]
    pub activity_positions: usize,
    /// Output folder.
    #[arg(long)]
    pub out: PathBuf,
    /// No progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub summary: SummaryArgs,
}

/// The figures of a study's summary (`--summary FILE`): every point, as in scaling.csv.
#[derive(Debug, Serialize, Deserialize)]
pub struct ScalingFigures {
    pub points: Vec<Point>,
}

/// One technique of the study: the engine name of its side in the PGNs, its options, and the
/// stats counter that says how often it acts.
#[derive(Clone, Debug, PartialEq)]
pub struct Technique {
    pub name: String,
    pub options: Vec<(String, String)>,
    /// The base side's options. The catalogue's techniques set their switch off here, so that
    /// a technique that has become a default is still measured against the engine without
    /// it (and not, silently, against itself); a custom one plays the default engine.
    pub base_options: Vec<(String, String)>,
    /// The `tag` of `tag=tried/cut` in the stats line; none for the calibration.
    pub counter: Option<String>,
    /// A second counter whose cuts are the searches the technique made shorter (seed 004's
    /// `sfpc_reduce`, beside `sfpc_extend`'s longer ones).
    pub reduced_counter: Option<&'static str>,
    /// The calibration: no options, the baseline at half the nodes.
    pub calibration: bool,
}

impl Technique {
    /// A catalogue name or `NAME:Opt=Val,...`; `params` is the ProbCut-family model file.
    pub fn parse(text: &str, params: Option<&Path>) -> Result<Technique> {
        let with_params = |mut options: Vec<(String, String)>| -> Result<Vec<(String, String)>> {
            let Some(p) = params else {
                bail!("technique '{text}' needs a fitted model (--params)");
            };
            options.push(("ProbCutParams".into(), p.display().to_string()));
            Ok(options)
        };
        let pairs = |options: &[(&str, &str)]| -> Vec<(String, String)> {
            options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        // A catalogue technique: its options on the tested side, its switch's off value on
        // the base side.
        let plain =
            |name: &str, on: &[(&str, &str)], off: &[(&str, &str)], counter: &str| Technique {
                name: name.into(),
                options: pairs(on),
                base_options: pairs(off),
                counter: Some(counter.into()),
                reduced_counter: None,
                calibration: false,
            };
        Ok(match text {
            "calibration" => Technique {
                name: "calibration".into(),
                options: Vec::new(),
                base_options: Vec::new(),
                counter: None,
                reduced_counter: None,
                calibration: true,
            },
            "seed004" => Technique {
                reduced_counter: Some("sfpc_reduce"),
                ..plain(
                    "seed004",
                    &[("SfpcDepthRule", "dynamic")],
                    &[("SfpcDepthRule", "fixed")],
                    "sfpc_extend",
                )
            },
            "se" => plain("se", &[("Se", "true")], &[("Se", "false")], "se"),
            "probcut" => Technique {
                options: with_params(vec![("ProbCut".into(), "true".into())])?,
                ..plain("probcut", &[], &[("ProbCut", "false")], "probcut")
            },
            "mpc" => Technique {
                options: with_params(vec![("Mpc".into(), "true".into())])?,
                ..plain("mpc", &[], &[("Mpc", "false")], "mpc")
            },
            _ => {
                if !text.contains(':') {
                    bail!(
                        "unknown technique '{text}': calibration, mpc, probcut, seed004, se or \
                         NAME:Opt=Val,..."
                    );
                }
                let Variant { name, options } = Variant::parse(text)?;
                // The name becomes a folder and an engine name in the PGNs.
                if !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                {
                    bail!("technique name '{name}': letters, digits, '-' and '_' only");
                }
                // The counter of the first option that belongs to a technique of the table.
                let counter = options.iter().find_map(|(k, _)| {
                    augur::options::all()
                        .into_iter()
                        .find(|s| s.name.eq_ignore_ascii_case(k))
                        .and_then(|s| s.tag)
                        .map(str::to_string)
                });
                Technique {
                    name,
                    options,
                    base_options: Vec::new(),
                    counter,
                    reduced_counter: None,
                    calibration: false,
                }
            }
        })
    }

    /// Whether it plays with a ProbCut-family model.
    fn needs_model(text: &str) -> bool {
        matches!(text, "mpc" | "probcut")
    }

    /// The engine names of a point's match: the tested side first.
    fn sides(&self) -> (&str, &str) {
        if self.calibration {
            CALIBRATION_SIDES
        } else {
            (&self.name, BASE_SIDE)
        }
    }
}

/// The calibration's engines in its PGNs: N nodes against N/2.
pub const CALIBRATION_SIDES: (&str, &str) = ("full", "half");
/// The engine without the technique in a technique's PGNs.
pub const BASE_SIDE: &str = "base";

/// The engine names in the PGN of a point of `technique`, the tested side first.
pub fn sides_of(technique: &str) -> (&str, &str) {
    if technique == "calibration" {
        CALIBRATION_SIDES
    } else {
        (technique, BASE_SIDE)
    }
}

/// One finished point: the technique's match at one control and what it did there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub technique: String,
    pub nodes: u64,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub ll: u64,
    pub ld: u64,
    pub wl_dd: u64,
    pub wd: u64,
    pub ww: u64,
    /// Complete game pairs, and those whose two games were the same move for move (the
    /// change altered no move of either game).
    pub pairs: u64,
    pub identical_pairs: u64,
    /// Average depth of the moves each side played in the games (from the PGN comments).
    pub game_depth: f64,
    pub game_depth_base: f64,
    /// The activity probe: positions, average depth, and the technique's counter per 1,000
    /// nodes (`reduced_per_k`: seed 004's verifications made shallower, `sfpc_reduce`).
    pub probe_positions: u64,
    pub probe_depth: f64,
    pub probe_depth_base: f64,
    pub tried_per_k: Option<f64>,
    pub cut_per_k: Option<f64>,
    pub reduced_per_k: Option<f64>,
    /// Derived from the counts (recomputed when read): logistic Elo and its 95% interval,
    /// normalized Elo and half its interval.
    pub elo: Option<f64>,
    pub elo_low: Option<f64>,
    pub elo_high: Option<f64>,
    pub nelo: Option<f64>,
    pub nelo_half: Option<f64>,
}

/// The CSV columns, in `Point`'s order.
pub const COLUMNS: &str = "technique,nodes,games,wins,draws,losses,ll,ld,wl_dd,wd,ww,pairs,\
identical_pairs,game_depth,game_depth_base,probe_positions,probe_depth,probe_depth_base,\
tried_per_k,cut_per_k,reduced_per_k,elo,elo_low,elo_high,nelo,nelo_half";

impl Point {
    /// The point's pentanomial row.
    pub fn counts(&self) -> PentaRow {
        let wdl = Wdl {
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
        };
        let penta = Penta([self.ll, self.ld, self.wl_dd, self.wd, self.ww]);
        PentaRow { wdl, penta }
    }

    /// The estimate `augur-lab match` prints (pentanomial when the games pair up).
    pub fn estimate(&self) -> Option<Estimate> {
        elo::estimate(&self.counts().sample())
    }

    fn with_estimate(mut self) -> Point {
        let e = self.estimate();
        let r1 = |x: f64| (x * 10.0).round() / 10.0 + 0.0;
        self.elo = e.as_ref().map(|e| r1(e.elo));
        self.elo_low = e.as_ref().map(|e| r1(e.elo_low)).filter(|x| x.is_finite());
        self.elo_high = e.as_ref().map(|e| r1(e.elo_high)).filter(|x| x.is_finite());
        self.nelo = e.as_ref().map(|e| r1(e.nelo));
        self.nelo_half = e.as_ref().map(|e| r1(e.nelo_half));
        self
    }

    pub fn to_csv(&self) -> Result<String> {
        result_log::to_line(self)
    }

    pub fn parse(line: &str) -> Result<Point> {
        let p: Point = result_log::from_line(line)
            .with_context(|| format!("expected the columns {COLUMNS}"))?;
        p.checked()
    }

    /// A point read back: its counts must add up; the derived Elo is recomputed from them.
    fn checked(self) -> Result<Point> {
        let counts = self.counts();
        PentaRow::from_columns(self.games, counts.wdl, counts.penta.0)?;
        Ok(self.with_estimate())
    }
}

impl Row for Point {
    const COLUMNS: &'static str = COLUMNS;
}

/// The points of scaling.csv files, each row checked (its counts must add up, its Elo is
/// recomputed from them); a point listed again (a match continued) counts last.
pub fn read_points(paths: &[PathBuf]) -> Result<Vec<Point>> {
    let mut points: Vec<Point> = Vec::new();
    for path in paths {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
        let rows: Vec<Point> = result_log::read_rows(&text, &name)
            .with_context(|| format!("{name}: not a scaling.csv of whole points"))?;
        for p in rows {
            points.push(p.checked().with_context(|| format!("{name}: bad point"))?);
        }
    }
    Ok(last_of_each(points))
}

/// One row per technique and control, in the order they first appear: a rerun with more games
/// appends a point's row again, and the last one stands.
pub fn last_of_each(rows: Vec<Point>) -> Vec<Point> {
    let mut points: Vec<Point> = Vec::new();
    for p in rows {
        match points
            .iter_mut()
            .find(|q| q.technique == p.technique && q.nodes == p.nodes)
        {
            Some(q) => *q = p,
            None => points.push(p),
        }
    }
    points
}

/// The match of one point. Adjudication as fishtest-style testers do at fixed nodes: resign
/// when both sides agree on ±1,000 cp for 4 moves, a draw when both stay within ±10 cp for 8
/// moves from move 40; it shortens decided and dead games without changing their results.
fn match_args(
    args: &ScalingArgs,
    engines: Vec<String>,
    nodes: u64,
    games: usize,
    pgn: PathBuf,
) -> MatchArgs {
    MatchArgs {
        openings: args.openings.clone(),
        seed: args.seed,
        concurrency: Some(args.concurrency.max(1)),
        adjudication: AdjudicationArgs {
            resign_score: Some(1000),
            resign_moves: 4,
            draw_score: Some(10),
            draw_moves: 8,
            draw_after: 40,
        },
        event: "augur-lab scaling".to_string(),
        quiet: args.quiet,
        ..MatchArgs::new(engines, TimeControl::Nodes(nodes), games, pgn)
    }
}

/// Identical pairs and each side's average depth, from a point's PGN.
fn game_facts(path: &Path, tested: &str) -> Result<(u64, u64, f64, f64)> {
    let games = pgn::read_summaries(path)?;
    let mut by_round = std::collections::BTreeMap::new();
    let (mut depth, mut base) = ((0u64, 0u64), (0u64, 0u64));
    for g in &games {
        if g.result.is_none() {
            continue;
        }
        if let Some(r) = g.round {
            by_round.insert(r, g);
        }
        let (w, b) = (g.depths[0], g.depths[1]);
        let (mine, theirs) = if g.white == tested { (w, b) } else { (b, w) };
        depth = (depth.0 + mine.0, depth.1 + mine.1);
        base = (base.0 + theirs.0, base.1 + theirs.1);
    }
    // The schedule plays each opening twice in a row, colours reversed: rounds 2k-1 and 2k.
    let (mut pairs, mut same) = (0, 0);
    for (&r, g) in &by_round {
        if r % 2 == 1 {
            if let Some(h) = by_round.get(&(r + 1)) {
                pairs += 1;
                same += u64::from(g.fen == h.fen && g.moves_hash == h.moves_hash);
            }
        }
    }
    let avg = |(s, n): (u64, u64)| if n == 0 { 0.0 } else { s as f64 / n as f64 };
    Ok((pairs, same, avg(depth), avg(base)))
}

/// What the probe of one point found.
struct Activity {
    positions: u64,
    depth: f64,
    depth_base: f64,
    /// Tried and cut per 1,000 nodes, and for seed 004 the reduced verifications.
    counters: Option<(f64, f64, Option<f64>)>,
}

/// The activity probe of one point: the tested side and the baseline search each probe
/// position with `go nodes N` (the calibration's half side with N/2); their average depths
/// and the tested side's counters per 1,000 nodes.
fn probe(
    args: &ScalingArgs,
    technique: &Technique,
    engine: &Path,
    nodes: u64,
    fens: &[(usize, String)],
    provenance: &Provenance,
    dir: &Path,
) -> Result<Activity> {
    let (tested, base) = technique.sides();
    let run = VariantRunArgs {
        variants: Vec::new(),
        engine: Some(engine.to_path_buf()),
        hash: args.hash,
        concurrency: 1,
        movetime: 0,
        nodes: Some(nodes),
        csv: None,
    };
    let only: Vec<String> = fens.iter().map(|(_, f)| f.clone()).collect();
    let settings = vec![
        ("epd".to_string(), GAMES_SAMPLE300_NAME.to_string()),
        (
            "epd_sha256".to_string(),
            sha256_hex(GAMES_SAMPLE300.as_bytes()),
        ),
        ("positions".to_string(), fens.len().to_string()),
    ];
    // One variant at one budget per file: the sides search N nodes, but the calibration's
    // half side N/2.
    let search = |name: &str, options: &[(String, String)], budget: u64, csv: PathBuf| {
        let variants = [Variant {
            name: name.into(),
            options: options.to_vec(),
        }];
        let grid = run.grid(
            &only,
            &variants,
            engine,
            Budget::from_args(Some(budget), 0),
            true,
        );
        run_grid_to(
            &grid,
            Some(&csv),
            "scaling-activity",
            settings.clone(),
            provenance,
            fens,
        )
        .map(|rows| {
            rows.into_iter()
                .map(|mut r| r.remove(0))
                .collect::<Vec<Measurement>>()
        })
    };
    let mine = search(
        tested,
        &technique.options,
        nodes,
        dir.join(format!("activity-{nodes}.csv")),
    )?;
    let theirs = search(
        base,
        &technique.base_options,
        if technique.calibration {
            nodes / 2
        } else {
            nodes
        },
        dir.join(format!("activity-{nodes}-{base}.csv")),
    )?;
    let depth = |rows: &[Measurement]| {
        rows.iter().map(|m| f64::from(m.depth)).sum::<f64>() / rows.len().max(1) as f64
    };
    let counters = technique.counter.as_ref().map(|tag| {
        let total = |f: &dyn Fn(&Measurement) -> u64| mine.iter().map(f).sum::<u64>();
        let per_k = total(&|m| m.nodes).max(1) as f64 / 1000.0;
        let count = |key: &str, cut: bool| {
            total(&|m| {
                m.counters
                    .get(key)
                    .map_or(0, |x| if cut { x.1 } else { x.0 })
            }) as f64
                / per_k
        };
        let reduced = technique.reduced_counter.map(|key| count(key, true));
        (count(tag, false), count(tag, true), reduced)
    });
    Ok(Activity {
        positions: mine.len() as u64,
        depth: depth(&mine),
        depth_base: depth(&theirs),
        counters,
    })
}

/// `augur bench`'s node count of a binary: the signature of its search.
fn bench_of(engine: &Path) -> Result<u64> {
    let out = std::process::Command::new(engine)
        .arg("bench")
        .output()
        .with_context(|| format!("running {} bench", engine.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .last()
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .with_context(|| format!("{} bench printed no '<N> nodes' line", engine.display()))
}

/// The ProbCut-family model fitted on the engine under test: reused from `OUT/model` when it
/// was fitted on an engine with this bench signature, else collected and fitted anew. The
/// fit runs in this process, so the lab must hold the same engine as the binary.
fn fitted_model(args: &ScalingArgs, engine: &Path) -> Result<PathBuf> {
    let dir = args.out.join("model");
    let params = dir.join("probcut_params.toml");
    let stamp = dir.join("engine.bench");
    let bench = bench_of(engine)?;
    // The stamp: the bench signature, and the engine options when there are any (a model
    // fitted with other settings is fitted again).
    let set = args.set.join(" ");
    let stamp_text = if set.is_empty() {
        format!("{bench}\n")
    } else {
        format!("{bench}\n{set}\n")
    };
    let fresh = std::fs::read_to_string(&stamp).ok().as_deref() == Some(stamp_text.as_str());
    if fresh && params.exists() {
        return Ok(params);
    }
    let own = augur::bench::run(
        augur::bench::DEFAULT_DEPTH,
        &augur::search::config::SearchConfig::default(),
        false,
    )
    .nodes;
    if own != bench {
        bail!(
            "the model is fitted in this process, whose engine (bench {own}) is not {} (bench \
             {bench}): build augur and augur-lab from one commit, or give --params",
            engine.display()
        );
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let epd = args.collect_epd.clone().or_else(|| {
        let p = PathBuf::from(SHARED_POSITIONS);
        p.exists().then_some(p)
    });
    let csv = dir.join(format!("collect-d{}.csv", args.collect_depth));
    if !args.quiet {
        eprintln!(
            "fitting the ProbCut-family model on this engine (bench {bench}) into {}",
            dir.display()
        );
    }
    // The evaluation the engine under test plays with: its default (as its bench above)
    // unless --set names one.
    let (tested, _) = search_config(&engine_options(&args.set)?)?;
    let set: Vec<String> = args
        .set
        .iter()
        .filter(|o| {
            !o.split_once('=')
                .is_some_and(|(k, _)| k.trim().eq_ignore_ascii_case("Eval"))
        })
        .cloned()
        .collect();
    collect::run(&CollectArgs {
        epd,
        depth: args.collect_depth,
        positions: Some(args.collect_positions),
        hash: 16,
        eval: tested.eval,
        set,
        run: RunArgs {
            threads: Some(args.concurrency.max(1)),
            output: OutputArgs {
                out: Some(csv.clone()),
                quiet: args.quiet,
                ..OutputArgs::default()
            },
        },
    })?;
    fit::run(&FitArgs {
        csv,
        pairs: Vec::new(),
        min: -300,
        max: 300,
        file_pairs: ["3:5", "2:6", "3:7", "4:8", "3:9", "4:10"]
            .map(String::from)
            .to_vec(),
        min_n: 100,
        out_dir: Some(dir.clone()),
        params_name: "probcut_params.toml".into(),
        plot_pair: "4:8".into(),
        plot_limit: 1000,
        no_plot: false,
        summary: SummaryArgs::default(),
    })?;
    std::fs::write(&stamp, stamp_text).with_context(|| format!("writing {}", stamp.display()))?;
    Ok(params)
}

/// The study as a job of the lab's runner (`kit::jobs`): one item per point (technique ×
/// control), each a match (resumed from its PGN by the arena's runner) and a probe (resumed
/// from its CSV); a point's row is written when both are done. A rerun with more games
/// continues the matches and appends the points' new rows.
struct Points<'a> {
    args: &'a ScalingArgs,
    techniques: &'a [Technique],
    engine: &'a Path,
    provenance: &'a Provenance,
    fens: &'a [(usize, String)],
    /// (technique index, nodes, games) per item.
    grid: &'a [(usize, u64, usize)],
}

impl Job for Points<'_> {
    type Output = Point;
    type Row = Point;
    type Worker = ();

    fn items(&self) -> usize {
        self.grid.len()
    }

    fn worker(&self) -> Result<()> {
        Ok(())
    }

    fn run(&self, _: &mut (), item: usize, _earlier: Option<&Point>) -> Result<Point> {
        let (ti, nodes, games) = self.grid[item];
        let (args, t, engine) = (self.args, &self.techniques[ti], self.engine);
        let dir = args.out.join(&t.name);
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let pgn_path = dir.join(format!("nodes-{nodes}.pgn"));
        let (tested, base) = t.sides();
        let side = |name: &str, options: &[(String, String)]| {
            Variant {
                name: name.into(),
                options: options.to_vec(),
            }
            .spec_text(engine, args.hash)
        };
        let engines = if t.calibration {
            // The half side's own node limit (the arena's per-engine `nodes=`).
            vec![
                side(tested, &t.options),
                format!("{},nodes={}", side(base, &t.base_options), nodes / 2),
            ]
        } else {
            vec![side(tested, &t.options), side(base, &t.base_options)]
        };
        if !args.quiet {
            eprintln!(
                "{} at {nodes} nodes: {games} games -> {}",
                t.name,
                pgn_path.display()
            );
        }
        let summary = tournament::run(&match_args(args, engines, nodes, games, pgn_path.clone()))
            .with_context(|| format!("{} at {nodes} nodes", t.name))?;
        let PentaRow { wdl, penta } = summary.table.row(0, 1);
        let (pairs, identical_pairs, game_depth, game_depth_base) = game_facts(&pgn_path, tested)?;
        let activity = probe(args, t, engine, nodes, self.fens, self.provenance, &dir)?;
        let counters = activity.counters;
        Ok(Point {
            technique: t.name.clone(),
            nodes,
            games: wdl.games(),
            wins: wdl.wins,
            draws: wdl.draws,
            losses: wdl.losses,
            ll: penta.0[0],
            ld: penta.0[1],
            wl_dd: penta.0[2],
            wd: penta.0[3],
            ww: penta.0[4],
            pairs,
            identical_pairs,
            game_depth,
            game_depth_base,
            probe_positions: activity.positions,
            probe_depth: activity.depth,
            probe_depth_base: activity.depth_base,
            tried_per_k: counters.map(|c| c.0),
            cut_per_k: counters.map(|c| c.1),
            reduced_per_k: counters.and_then(|c| c.2),
            elo: None,
            elo_low: None,
            elo_high: None,
            nelo: None,
            nelo_half: None,
        }
        .with_estimate())
    }

    fn rows(&self, _item: usize, output: &Point) -> Vec<Point> {
        vec![output.clone()]
    }

    fn item_of(&self, row: &Point) -> Result<usize> {
        self.grid
            .iter()
            .position(|&(ti, n, _)| self.techniques[ti].name == row.technique && n == row.nodes)
            .with_context(|| {
                format!(
                    "a point ({} at {} nodes) of none of this run's techniques and controls: \
                     list them all, or use another --out",
                    row.technique, row.nodes
                )
            })
    }

    fn output(&self, _item: usize, rows: Vec<Point>) -> Result<Point> {
        rows.into_iter().next().context("an empty block")?.checked()
    }

    fn is_done(&self, output: &Point) -> bool {
        self.item_of(output)
            .is_ok_and(|i| output.games as usize == self.grid[i].2)
    }

    fn may_repeat(&self) -> bool {
        true
    }
}

/// Everything a finished study holds, for callers and tests.
#[derive(Debug)]
pub struct ScalingSummary {
    pub points: Vec<Point>,
    pub markdown: String,
}

pub fn run(args: &ScalingArgs) -> Result<ScalingSummary> {
    if args.nodes.is_empty() || args.nodes.iter().any(|&n| n < 2) {
        bail!("--nodes: at least one node count, each at least 2");
    }
    if args.games.is_empty() || args.games.contains(&0) {
        bail!("--games: positive counts");
    }
    if args.games.len() != 1 && args.games.len() != args.nodes.len() {
        bail!(
            "--games: one count, or one per --nodes value ({} given for {} controls)",
            args.games.len(),
            args.nodes.len()
        );
    }
    let games_at = |i: usize| args.games[i.min(args.games.len() - 1)].div_ceil(2) * 2;
    let engine = args.engine.clone().unwrap_or_else(default_engine);
    if engine.display().to_string().contains(',') {
        bail!("engine path {} contains a comma", engine.display());
    }
    let mut args = args.clone();
    if args.openings.is_none() && Path::new(SHARED_OPENINGS).exists() {
        args.openings = Some(PathBuf::from(SHARED_OPENINGS));
    }
    let args = &args;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    // A bad --set is refused before the model's fit, hours before the games.
    let under_test = engine_options(&args.set)?;
    let params = match &args.params {
        Some(p) => Some(p.clone()),
        None if args.techniques.iter().any(|t| Technique::needs_model(t)) => {
            Some(fitted_model(args, &engine)?)
        }
        None => None,
    };
    let mut techniques = Vec::new();
    for t in &args.techniques {
        let mut t = Technique::parse(t, params.as_deref())?;
        // The engine under test's settings first; the technique's own override them.
        t.options = [under_test.clone(), t.options].concat();
        t.base_options = [under_test.clone(), t.base_options].concat();
        if techniques.iter().any(|o: &Technique| o.name == t.name) {
            bail!("technique '{}' is listed twice", t.name);
        }
        let (cfg, others) =
            search_config(&t.options).with_context(|| format!("technique {}", t.name))?;
        search_config(&t.base_options).with_context(|| format!("technique {}'s base", t.name))?;
        // Not a search option: it must be one of the engine's others (Hash, Eval, ...), or
        // a typo would stop the study at that technique's first match, hours in.
        let engine_options = augur::options::all();
        if let Some(o) = others.iter().find(|o| {
            !engine_options
                .iter()
                .any(|s| s.name.eq_ignore_ascii_case(o))
        }) {
            bail!("technique {}: the engine has no option '{o}'", t.name);
        }
        for w in check_fitted_pairs(&t.name, &cfg)? {
            eprintln!("warning: {w}");
        }
        techniques.push(t);
    }
    let provenance = Provenance::capture(args, Some(args.seed));
    let engine_sha256 = sha256_file(&engine)
        .with_context(|| format!("hashing the engine binary {}", engine.display()))?;
    let openings_sha256 = match &args.openings {
        None => "-".to_string(),
        Some(p) => sha256_file(p)?,
    };
    let header = Header {
        kind: "scaling".into(),
        settings: vec![
            ("engine_sha256".into(), engine_sha256),
            ("hash_mb".into(), args.hash.to_string()),
            ("openings_sha256".into(), openings_sha256),
            ("seed".into(), args.seed.to_string()),
            (
                "activity_positions".into(),
                args.activity_positions.to_string(),
            ),
        ]
        .into_iter()
        // Studies begun before `--set` existed carry no setting for it.
        .chain((!args.set.is_empty()).then(|| ("options".into(), options_text(&under_test))))
        .collect(),
        provenance: provenance.clone(),
        columns: COLUMNS.into(),
    };
    let csv_path = args.out.join("scaling.csv");
    let mut fens: Vec<(usize, String)> = load_epd(None)?
        .into_iter()
        .map(|p| (p.line, p.fen))
        .collect();
    fens.truncate(args.activity_positions.max(1));
    // Controls in order, every technique at each: the short controls finish first.
    let grid: Vec<(usize, u64, usize)> = args
        .nodes
        .iter()
        .enumerate()
        .flat_map(|(ni, &n)| (0..techniques.len()).map(move |ti| (ti, n, games_at(ni))))
        .collect();
    let job = Points {
        args,
        techniques: &techniques,
        engine: &engine,
        provenance: &provenance,
        fens: &fens,
        grid: &grid,
    };
    let options = jobs::Options {
        workers: 1,
        progress: !args.quiet,
        unit: "points",
        file: Some((&csv_path, header)),
    };
    let points = jobs::run(&job, options)?.outputs;
    provenance.write_into(&args.out)?;
    let mut markdown = provenance.markdown();
    markdown.push_str(&report(args, &techniques, &points));
    if let Some(p) = &params {
        markdown.push_str(&model_report(p)?);
    }
    let md = args.out.join("scaling.md");
    std::fs::write(&md, &markdown).with_context(|| format!("writing {}", md.display()))?;
    for t in &techniques {
        chart(t, &points).save(&args.out, &t.name)?;
    }
    let figures = ScalingFigures { points };
    args.summary.write("scaling", &figures)?;
    print!("{markdown}");
    Ok(ScalingSummary {
        points: figures.points,
        markdown,
    })
}

fn fmt_opt(x: Option<f64>, decimals: usize) -> String {
    x.map_or("-".into(), |v| format!("{v:.decimals$}"))
}

/// The `--set` options as pairs, each checked by the engine's option table: a search option,
/// or one of the engine's others (`Hash` is `--hash`).
fn engine_options(set: &[String]) -> Result<Vec<(String, String)>> {
    let mut pairs = Vec::new();
    for text in set {
        let p = parse_options(text, &format!("--set '{text}'"))?;
        if p.len() != 1 {
            bail!("--set '{text}': one Name=Value each");
        }
        pairs.extend(p);
    }
    let (_, others) = search_config(&pairs).context("--set")?;
    let engine = augur::options::all();
    if let Some(o) = others.iter().find(|o| {
        o.eq_ignore_ascii_case("Hash") || !engine.iter().any(|s| s.name.eq_ignore_ascii_case(o))
    }) {
        bail!("--set: the engine has no option '{o}' for this (Hash is --hash)");
    }
    Ok(pairs)
}

/// The study as markdown: per technique a table of its points; each Elo also as a share of
/// the calibration's doubling at the same control.
pub fn report(args: &ScalingArgs, techniques: &[Technique], points: &[Point]) -> String {
    let mut s = String::new();
    let openings = args
        .openings
        .as_ref()
        .map_or("the bundled 8moves_v3 sample".into(), |p| {
            p.display().to_string()
        });
    let _ = writeln!(
        s,
        "## Scaling: Elo against nodes a move\n\n\
         Each point: the technique against the same engine without it (`calibration`: the \
         engine at N nodes against itself at N/2), game pairs with colours reversed, openings \
         from {openings} (seed {}; the same at every control), resign at ±1,000 cp for 4 \
         moves, draw within ±10 cp for 8 moves from move 40. Elo logistic with its 95% \
         interval, nElo normalized ± half its interval, both pentanomial. Depth: the average \
         depth of the moves each side played. Probe: {} positions of the bundled TCEC sample \
         searched with `go nodes N` by both sides; per 1,000 nodes of the tested side, how \
         often its counter was tried and cut. Doubling: the Elo as a share of the \
         calibration's at the same control.\n",
        args.seed, args.activity_positions
    );
    if !args.set.is_empty() {
        let _ = writeln!(
            s,
            "Engine under test: `{}` on both sides of every match, in the probe and in the \
             model's searches.\n",
            args.set.join(" ")
        );
    }
    let calibration = |nodes: u64| {
        points
            .iter()
            .find(|p| p.technique == "calibration" && p.nodes == nodes)
            .and_then(|p| p.elo)
    };
    for t in techniques {
        let _ = writeln!(
            s,
            "### {}{}\n",
            t.name,
            if t.calibration {
                " (N against N/2)".to_string()
            } else if t.base_options.is_empty() {
                format!(" (`{}`)", options_text(&t.options))
            } else {
                format!(
                    " (`{}` against `{}`)",
                    options_text(&t.options),
                    options_text(&t.base_options)
                )
            }
        );
        let _ = writeln!(
            s,
            "| nodes | games | W/D/L | pentanomial | Elo [95%] | nElo | doubling | identical pairs | depth (tested / base) | probe depth | tried /1k | cut /1k |\n\
             | ---: | ---: | --- | --- | --- | --- | ---: | ---: | --- | --- | ---: | ---: |"
        );
        for p in points.iter().filter(|p| p.technique == t.name) {
            let elo = match (p.elo, p.elo_low, p.elo_high) {
                (Some(e), Some(l), Some(h)) => format!("{e:+.1} [{l:+.1}, {h:+.1}]"),
                (Some(e), _, _) => format!("{e:+.1}"),
                _ => "-".into(),
            };
            let nelo = match (p.nelo, p.nelo_half) {
                (Some(e), Some(h)) => format!("{e:+.1} ± {h:.1}"),
                _ => "-".into(),
            };
            let doubling = match (p.elo, calibration(p.nodes)) {
                (Some(e), Some(c)) if !t.calibration && c > 0.0 => {
                    format!("{:.0}%", 100.0 * e / c)
                }
                _ => "-".into(),
            };
            let cut = match p.reduced_per_k {
                Some(r) => format!("{} (+{r:.2} reduced)", fmt_opt(p.cut_per_k, 2)),
                None => fmt_opt(p.cut_per_k, 2),
            };
            let _ = writeln!(
                s,
                "| {} | {} | {}/{}/{} | [{}, {}, {}, {}, {}] | {elo} | {nelo} | {doubling} | {}/{} | {:.2} / {:.2} | {:.2} / {:.2} | {} | {cut} |",
                p.nodes,
                p.games,
                p.wins,
                p.draws,
                p.losses,
                p.ll,
                p.ld,
                p.wl_dd,
                p.wd,
                p.ww,
                p.identical_pairs,
                p.pairs,
                p.game_depth,
                p.game_depth_base,
                p.probe_depth,
                p.probe_depth_base,
                fmt_opt(p.tried_per_k, 2),
            );
        }
        s.push('\n');
    }
    s
}

/// The ProbCut-family model the study played with: each fitted pair's regression and σ,
/// the error of the shallow search's prediction that every cut margin is a multiple of.
fn model_report(path: &Path) -> Result<String> {
    let params = augur::search::probcut::model::ProbCutParams::load(&path.display().to_string())
        .with_context(|| format!("reading the model {}", path.display()))?;
    let mut s = format!(
        "### The model ({})\n\nv = a·v′ + b + e, e ~ N(0, σ), per game stage and depth pair.\n\n\
         | stage | pair | a | b | σ (cp) | r | n |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n",
        path.display()
    );
    for p in &params.pairs {
        let _ = writeln!(
            s,
            "| {} | {}:{} | {:.4} | {:.2} | {:.2} | {:.3} | {} |",
            p.stage.name(),
            p.shallow,
            p.deep,
            p.a,
            p.b,
            p.sigma,
            p.r,
            p.n
        );
    }
    s.push('\n');
    Ok(s)
}

/// Elo with its interval against nodes a move (the controls evenly spaced: each is a fixed
/// multiple of the last, so the axis is logarithmic), the calibration beside it.
fn chart(t: &Technique, points: &[Point]) -> Chart {
    let mine: Vec<&Point> = points.iter().filter(|p| p.technique == t.name).collect();
    let nodes: Vec<u64> = mine.iter().map(|p| p.nodes).collect();
    let value = |f: &dyn Fn(&Point) -> Option<f64>| -> Vec<f64> {
        mine.iter().map(|p| f(p).unwrap_or(f64::NAN)).collect()
    };
    let mut c = CategoryChart::new(
        format!("{}: Elo against nodes a move", t.name),
        nodes.iter().map(|n| format!("{n}")).collect(),
    )
    .labels("nodes a move (log scale)", "Elo (logistic)")
    .style(Style::Lines)
    .series(
        Series::new(t.name.clone(), value(&|p| p.elo)).with_interval(
            value(&|p| p.elo_low)
                .into_iter()
                .zip(value(&|p| p.elo_high))
                .collect(),
        ),
    );
    if !t.calibration {
        let cal: Vec<f64> = nodes
            .iter()
            .map(|&n| {
                points
                    .iter()
                    .find(|p| p.technique == "calibration" && p.nodes == n)
                    .and_then(|p| p.elo)
                    .unwrap_or(f64::NAN)
            })
            .collect();
        if cal.iter().any(|x| x.is_finite()) {
            c = c.series(Series::new("a doubling (N vs N/2)", cal));
        }
    }
    Chart::from(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_and_custom_techniques_parse() {
        let t = Technique::parse("seed004", None).unwrap();
        assert_eq!(t.options, [("SfpcDepthRule".into(), "dynamic".into())]);
        assert_eq!(t.counter.as_deref(), Some("sfpc_extend"));
        assert!(Technique::parse("mpc", None).is_err(), "MPC needs a model");
        let m = Technique::parse("mpc", Some(Path::new("m.toml"))).unwrap();
        assert!(m
            .options
            .contains(&("ProbCutParams".into(), "m.toml".into())));
        // The base turns the switch off itself, whatever the engine's default.
        type Off = fn(&augur::search::config::SearchConfig) -> bool;
        let checks: [(&str, Off); 4] = [
            ("seed004", |c| {
                c.sfpc.depth_rule == augur::search::probcut::model::DepthRule::Fixed
            }),
            ("se", |c| !c.se.enabled),
            ("probcut", |c| !c.probcut.enabled),
            ("mpc", |c| !c.mpc.enabled),
        ];
        for (name, off) in checks {
            let t = Technique::parse(name, Some(Path::new("m.toml"))).unwrap();
            let (cfg, others) = search_config(&t.base_options).unwrap();
            assert!(
                others.is_empty() && off(&cfg),
                "{name}: {:?}",
                t.base_options
            );
        }
        let c = Technique::parse("calibration", None).unwrap();
        assert!(c.calibration && c.counter.is_none());
        assert!(c.base_options.is_empty());
        assert_eq!(c.sides(), ("full", "half"));
        let x = Technique::parse("nonmp:Nmp=false,Hash=8", None).unwrap();
        assert_eq!(x.counter.as_deref(), Some("nmp"));
        assert_eq!(x.sides(), ("nonmp", "base"));
        for bad in ["bogus", "a b:Nmp=false", ":Nmp=false", "x:Nmp"] {
            assert!(Technique::parse(bad, None).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_point_round_trips_through_its_csv_row() {
        let p = Point {
            technique: "se".into(),
            nodes: 40000,
            games: 10,
            wins: 4,
            draws: 4,
            losses: 2,
            ll: 0,
            ld: 1,
            wl_dd: 2,
            wd: 1,
            ww: 1,
            pairs: 5,
            identical_pairs: 1,
            game_depth: 10.5,
            game_depth_base: 10.25,
            probe_positions: 60,
            probe_depth: 11.0,
            probe_depth_base: 10.9,
            tried_per_k: Some(3.5),
            cut_per_k: Some(0.25),
            reduced_per_k: None,
            elo: None,
            elo_low: None,
            elo_high: None,
            nelo: None,
            nelo_half: None,
        }
        .with_estimate();
        assert!(p.elo.unwrap() > 0.0);
        let line = p.to_csv().unwrap();
        assert_eq!(
            line.split(',').count(),
            COLUMNS.split(',').count(),
            "{line}"
        );
        assert_eq!(Point::parse(&line).unwrap(), p);
        let bad = line.replacen(",10,4,", ",11,4,", 1);
        assert!(Point::parse(&bad).is_err());
        assert!(Point::parse("se,1").is_err());
    }
}
