//! `augur-lab collect`: the regression data for ProbCut. Every position is searched once by
//! the engine's normal iterative deepening (null move on, as Crafty's data was) to depth D,
//! and the score of each completed depth 1..D is one CSV line:
//!
//! ```text
//! id,depth,score,mate,stage,nodes,depths,fen
//! 17,4,35,0,middlegame,5021,8,r1b2rk1/4b1pp/p1pppn2/4q3/3BP3/1RN5/P1PQB1PP/5RK1 b - -
//! ```
//!
//! `id` is the position's line number in the EPD; `score` is centipawns for the side to
//! move (`mate` = 1 when it is a mate score); `nodes` is cumulative up to that depth;
//! `depths` is how many lines the position has (fewer than D when the search ended early,
//! e.g. with only one legal move), which makes an incomplete block detectable.
//!
//! The file begins with a `#` header (see [`crate::kit::result_log`]): the settings that decide
//! the values (depth, hash, the EPD and its SHA-256, the engine's commit), then the provenance
//! of the run. A position's lines are written together and flushed, so an interrupted run
//! (Ctrl-C, kill -9) loses at most the positions in flight: on restart with the same command
//! a torn or incomplete last block is cut and finished positions are skipped; other settings
//! are refused. A finished run leaves the lines in position order. Each position gets a fresh
//! searcher and transposition table, so its values do not depend on thread count or order.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use augur::eval::EvalKind;
use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::limits::Limits;
use augur::search::probcut::Stage;
use augur::search::{SearchTeam, MATE_BOUND};
use clap::Args;
use serde::{Deserialize, Serialize};

use crate::data::epd::{epd_identity, load_epd, EpdItems, EpdLine};
use crate::kit::jobs::{self, Job, Options};
use crate::kit::provenance::{in_process_engine, Provenance};
use crate::kit::result_log::{self, as_text, Header, Row};
use crate::kit::run_args::RunArgs;
use crate::variants::{parse_options, search_config};

pub const HEADER: &str = "id,depth,score,mate,stage,nodes,depths,fen";

#[derive(Args, Debug, Clone)]
#[command(mut_arg("out", |a| a.required(true).short('o').value_name("FILE")
    .help("Output CSV; appended to and resumed if it exists.")))]
#[command(mut_arg("threads", |a| a.help("Worker threads (one searcher each); default: all cores.")))]
pub struct CollectArgs {
    /// Positions (EPD); default: the bundled 300-position TCEC sample.
    #[arg(long)]
    pub epd: Option<PathBuf>,
    /// Deepest search (plies); every depth 1..=D is recorded.
    #[arg(long, short, default_value_t = 8)]
    pub depth: i32,
    /// Use only the first N positions of the EPD.
    #[arg(long)]
    pub positions: Option<usize>,
    /// Transposition table per thread, MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// The evaluation the searches use (`nnue`, the engine's default; `hce` or `default`;
    /// `classic`): the paper asks whether a better evaluation makes the shallow search a
    /// better predictor (a smaller σ). The model must come from the evaluation that plays.
    #[arg(long, default_value_t = augur::search::config::SearchConfig::default().eval)]
    pub eval: EvalKind,
    /// Other engine options the searches use, `Name=Value` as `setoption` takes them
    /// (repeatable): the engine under test's settings, e.g. `--set KingSafety=125` for a model
    /// of the hand-written evaluation with its king safety scaled. `Eval` is `--eval`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// `--out` (required), `--threads`, `--quiet`, `--summary`.
    #[command(flatten)]
    pub run: RunArgs,
}

/// The headline figures of a collection (its `--summary`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    pub positions: usize,
    /// The deepest search.
    pub depth: i32,
    pub records: usize,
    pub middlegame: usize,
    pub endgame: usize,
}

impl Figures {
    /// The figures of the records of a run to `depth` (a position counts by its depth-1 line).
    fn of(depth: i32, records: &[Record]) -> Figures {
        let first = |stage: Option<Stage>| {
            records
                .iter()
                .filter(|r| r.depth == 1 && stage.is_none_or(|s| r.stage == s))
                .count()
        };
        Figures {
            positions: first(None),
            depth,
            records: records.len(),
            middlegame: first(Some(Stage::Middlegame)),
            endgame: first(Some(Stage::Endgame)),
        }
    }
}

/// One CSV line (the columns [`HEADER`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub id: usize,
    pub depth: i32,
    pub score: i32,
    #[serde(with = "zero_one")]
    pub mate: bool,
    #[serde(with = "as_text")]
    pub stage: Stage,
    pub nodes: u64,
    pub depths: usize,
    pub fen: String,
}

impl Row for Record {
    const COLUMNS: &'static str = HEADER;
}

impl Record {
    /// What the columns' types do not say: the depth is one the engine searches to.
    fn check(&self) -> Result<()> {
        if !(1..=augur::search::MAX_DEPTH).contains(&self.depth) {
            bail!("field depth out of range: {}", self.depth);
        }
        Ok(())
    }
}

/// `mate` is written 0 or 1.
pub(crate) mod zero_one {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &bool, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(u8::from(*v))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        match u8::deserialize(d)? {
            0 => Ok(false),
            1 => Ok(true),
            n => Err(D::Error::custom(format!("mate must be 0 or 1, found {n}"))),
        }
    }
}

/// Reads a collect CSV strictly: every line must parse (the error names the line).
pub fn read_csv(path: &Path) -> Result<Vec<Record>> {
    result_log::read_checked(path, Record::check)
}

/// The result file's header: the settings that decide the records (a restart with others is
/// refused), the provenance, and the columns. How many positions is not a setting: a finished
/// run can be extended with a larger `--positions`.
pub fn header(args: &CollectArgs) -> Result<Header> {
    let (epd, epd_sha256) = epd_identity(args.epd.as_deref())?;
    Ok(Header {
        kind: "collect".into(),
        settings: vec![
            ("depth".into(), args.depth.to_string()),
            ("hash_mb".into(), args.hash.to_string()),
            ("epd".into(), epd),
            ("epd_sha256".into(), epd_sha256),
            ("engine".into(), in_process_engine()),
            ("search".into(), "default options, null move on".into()),
        ]
        .into_iter()
        // Files written before `--eval` existed (all with the HCE) carry no eval setting;
        // keeping the HCE implicit lets them resume with `--eval hce`.
        .chain((args.eval != EvalKind::Hce).then(|| ("eval".into(), args.eval.to_string())))
        // Likewise files written before `--set` existed: none is no setting.
        .chain((!args.set.is_empty()).then(|| ("options".into(), args.set.join(" "))))
        .collect(),
        provenance: Provenance::capture(args, None),
        columns: HEADER.into(),
    })
}

/// The searches' configuration: the default engine with `--eval` and the `--set` options,
/// each checked by the engine's option table.
pub fn config(args: &CollectArgs) -> Result<SearchConfig> {
    let mut options = vec![("Eval".to_string(), args.eval.to_string())];
    for text in &args.set {
        let pairs = parse_options(text, &format!("--set '{text}'"))?;
        if pairs.len() != 1 {
            bail!("--set '{text}': one Name=Value each");
        }
        if pairs[0].0.eq_ignore_ascii_case("Eval") {
            bail!("--set '{text}': the evaluation is --eval");
        }
        options.extend(pairs);
    }
    let (config, others) = search_config(&options)?;
    if !others.is_empty() {
        bail!(
            "--set: {} not a search option (the searches run in this process; the table              is --hash)",
            others.join(", ")
        );
    }
    Ok(config)
}

/// Searches one position to `depth` with a fresh searcher state; one record per completed
/// iteration.
pub fn search_position(
    searcher: &mut SearchTeam,
    epd: &EpdLine,
    depth: i32,
) -> Result<Vec<Record>> {
    let pos = Position::from_fen(&epd.fen, false)
        .map_err(|e| anyhow::anyhow!("line {}: {e}", epd.line))?;
    searcher.new_game();
    let result = searcher.search(
        &pos,
        &Limits {
            depth: Some(depth),
            ..Default::default()
        },
    );
    let stage = Stage::of(pos.board());
    let depths = result.iterations.len();
    Ok(result
        .iterations
        .iter()
        .map(|it| Record {
            id: epd.line,
            depth: it.depth,
            score: it.score,
            mate: it.score.abs() >= MATE_BOUND,
            stage,
            nodes: it.nodes,
            depths,
            fen: epd.fen.clone(),
        })
        .collect())
}

/// The collection as a job of the runner: an item is a position, its block one record per
/// completed depth; each worker keeps a searcher (a fresh table and histories per position).
struct Collect<'a> {
    args: &'a CollectArgs,
    epd: EpdItems<'a>,
}

impl Job for Collect<'_> {
    type Output = Vec<Record>;
    type Row = Record;
    type Worker = SearchTeam;

    fn items(&self) -> usize {
        self.epd.positions.len()
    }

    fn worker(&self) -> Result<SearchTeam> {
        let config = config(self.args)?;
        let hash = self.args.hash;
        SearchTeam::new(config, hash).map_err(|e| anyhow!("--hash {hash}: {e}"))
    }

    fn run(
        &self,
        team: &mut SearchTeam,
        item: usize,
        _: Option<&Vec<Record>>,
    ) -> Result<Vec<Record>> {
        search_position(team, &self.epd.positions[item], self.args.depth)
    }

    fn rows(&self, _: usize, block: &Vec<Record>) -> Vec<Record> {
        block.clone()
    }

    fn item_of(&self, r: &Record) -> Result<usize> {
        self.epd.item_of(r.id)
    }

    fn block_len(&self, first: &Record) -> usize {
        first.depths
    }

    fn output(&self, _: usize, block: Vec<Record>) -> Result<Vec<Record>> {
        for r in &block {
            r.check()?;
        }
        Ok(block)
    }

    fn nodes(&self, block: &Vec<Record>) -> u64 {
        block.last().map_or(0, |r| r.nodes)
    }
}

pub fn run(args: &CollectArgs) -> Result<()> {
    if !(1..=augur::search::MAX_DEPTH).contains(&args.depth) {
        bail!("--depth must be in 1..={}", augur::search::MAX_DEPTH);
    }
    let mut positions = load_epd(args.epd.as_deref())?;
    if let Some(n) = args.positions {
        positions.truncate(n);
    }
    // A bad --set is refused before any file is touched.
    config(args)?;
    let header = header(args)?;
    let out = args.run.out()?;
    let threads = args.run.threads().min(256);
    let job = Collect {
        args,
        epd: EpdItems::new(&positions),
    };
    let started = Instant::now();
    let finished = jobs::run(
        &job,
        Options {
            workers: threads,
            progress: !args.run.output.quiet,
            unit: "positions",
            file: Some((out, header.clone())),
        },
    )?;
    let total = positions.len();
    let new = total - finished.resumed;
    let records: Vec<Record> = finished.outputs.into_iter().flatten().collect();
    if !args.run.output.quiet {
        eprintln!(
            "collect: {} positions in {} ({} new, {:.1}s)",
            total,
            out.display(),
            new,
            started.elapsed().as_secs_f64()
        );
    }
    let figures = Figures::of(args.depth, &records);
    print!("{}", report(args, out, &header, &figures, &records, new));
    args.run.output.summary.write("collect", &figures)
}

/// The run's report on standard output (`--quiet` silences only the progress): what was
/// collected and where, so that a `reproduce` step has a report beside its data.
fn report(
    args: &CollectArgs,
    out: &Path,
    header: &Header,
    figures: &Figures,
    records: &[Record],
    new: usize,
) -> String {
    let nodes: u64 = records
        .iter()
        .filter(|r| r.depth == args.depth)
        .map(|r| r.nodes)
        .sum();
    format!(
        "# augur-lab collect\n\n{}{} positions searched to every depth 1..{} ({} this run): \
         {} records in `{}`, {} middle-game and {} endgame positions, {} nodes at the last \
         depth. `augur-lab fit {}` fits the regressions.\n",
        header.provenance.markdown(),
        figures.positions,
        args.depth,
        new,
        figures.records,
        out.display(),
        figures.middlegame,
        figures.endgame,
        nodes,
        out.display()
    )
}
