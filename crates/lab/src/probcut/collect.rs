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

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use augur::eval::EvalKind;
use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::limits::Limits;
use augur::search::probcut::Stage;
use augur::search::{SearchTeam, MATE_BOUND};
use clap::Args;

use crate::data::bundled::{GAMES_SAMPLE300, GAMES_SAMPLE300_NAME};
use crate::data::epd::{load_epd, EpdLine};
use crate::kit::provenance::{in_process_engine, sha256_file, sha256_hex, Provenance};
use crate::kit::result_log::{self, Header, ResultLog};
use augur_arena::progress::Progress;

pub const HEADER: &str = "id,depth,score,mate,stage,nodes,depths,fen";

#[derive(Args, Debug, Clone)]
pub struct CollectArgs {
    /// Positions (EPD); default: the bundled 300-position TCEC sample.
    #[arg(long)]
    pub epd: Option<PathBuf>,
    /// Output CSV; appended to and resumed if it exists.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Deepest search (plies); every depth 1..=D is recorded.
    #[arg(long, short, default_value_t = 8)]
    pub depth: i32,
    /// Use only the first N positions of the EPD.
    #[arg(long)]
    pub positions: Option<usize>,
    /// Worker threads (one searcher each); default: all cores.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table per thread, MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// The evaluation the searches use (`default`, `classic`, `nnue`): the paper asks whether
    /// a better evaluation makes the shallow search a better predictor (a smaller σ).
    #[arg(long, default_value_t = EvalKind::Default)]
    pub eval: EvalKind,
    /// No progress line.
    #[arg(long)]
    pub quiet: bool,
}

/// One CSV line.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub id: usize,
    pub depth: i32,
    pub score: i32,
    pub mate: bool,
    pub stage: Stage,
    pub nodes: u64,
    pub depths: usize,
    pub fen: String,
}

impl Record {
    pub fn to_csv(&self) -> String {
        format!(
            "{},{},{},{},{},{},{},{}",
            self.id,
            self.depth,
            self.score,
            u8::from(self.mate),
            self.stage.name(),
            self.nodes,
            self.depths,
            self.fen
        )
    }

    pub fn parse(line: &str) -> Result<Record> {
        let f: Vec<&str> = line.splitn(8, ',').collect();
        if f.len() != 8 {
            bail!(
                "expected 8 comma-separated fields ({HEADER}), found {}",
                f.len()
            );
        }
        let num = |i: usize, name: &str| -> Result<i64> {
            f[i].trim()
                .parse::<i64>()
                .with_context(|| format!("field {name} is not an integer: '{}'", f[i]))
        };
        let mate = match f[3].trim() {
            "0" => false,
            "1" => true,
            other => bail!("field mate must be 0 or 1, found '{other}'"),
        };
        let name = f[4].trim();
        let stage = Stage::ALL
            .into_iter()
            .find(|s| s.name() == name || s.short() == name);
        let stage = stage.with_context(|| {
            format!(
                "field stage must be middlegame or endgame, found '{}'",
                f[4]
            )
        })?;
        let depth = num(1, "depth")?;
        if !(1..=augur::search::MAX_DEPTH as i64).contains(&depth) {
            bail!("field depth out of range: {depth}");
        }
        Ok(Record {
            id: usize::try_from(num(0, "id")?).context("field id is negative")?,
            depth: depth as i32,
            score: i32::try_from(num(2, "score")?).context("field score out of range")?,
            mate,
            stage,
            nodes: u64::try_from(num(5, "nodes")?).context("field nodes is negative")?,
            depths: usize::try_from(num(6, "depths")?).context("field depths is negative")?,
            fen: f[7].trim().to_string(),
        })
    }
}

/// Reads a collect CSV strictly: every line must parse (the error names the line).
pub fn read_csv(path: &Path) -> Result<Vec<Record>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    parse_csv(&text, &path.display().to_string())
}

/// Parses collect CSV text: `#` lines (the run header) and the column line are skipped.
pub fn parse_csv(text: &str, name: &str) -> Result<Vec<Record>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') || line.trim() == HEADER {
            continue;
        }
        let r = Record::parse(line)
            .with_context(|| format!("{name}:{}: bad CSV line '{line}'", i + 1))?;
        out.push(r);
    }
    Ok(out)
}

/// The result file's header: the settings that decide the records (a restart with others is
/// refused), the provenance, and the columns. How many positions is not a setting: a finished
/// run can be extended with a larger `--positions`.
pub fn header(args: &CollectArgs) -> Result<Header> {
    let (epd, epd_sha256) = match &args.epd {
        None => (
            GAMES_SAMPLE300_NAME.to_string(),
            sha256_hex(GAMES_SAMPLE300.as_bytes()),
        ),
        Some(p) => (p.display().to_string(), sha256_file(p)?),
    };
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
        // Files written before `--eval` existed carry no eval setting; keeping the default
        // implicit lets them resume.
        .chain((args.eval != EvalKind::Default).then(|| ("eval".into(), args.eval.to_string())))
        .collect(),
        provenance: Provenance::capture(args, None),
        columns: HEADER.into(),
    })
}

/// What a resumed run found in an existing CSV.
pub struct ResumeState {
    pub log: ResultLog,
    /// The positions (ids) whose every depth is in the file.
    pub done: HashSet<usize>,
    pub records: Vec<Record>,
    /// Records dropped (the lines of a block that was not finished), and whether a torn last
    /// line was cut.
    pub dropped: usize,
    pub torn: bool,
}

/// Opens the output for appending: creates it with its header, or checks the header and keeps
/// every complete position block. A kill leaves at most a torn last line or an unfinished
/// last block; anything else malformed is an error (guessing would lose data).
pub fn prepare_output(path: &Path, header: &Header) -> Result<ResumeState> {
    let resumed = result_log::open(path, header)?;
    let name = path.display().to_string();
    let records: Vec<Record> = resumed
        .records
        .iter()
        .enumerate()
        .map(|(i, line)| {
            Record::parse(line)
                .with_context(|| format!("{name}: record {}: bad CSV line '{line}'", i + 1))
        })
        .collect::<Result<_>>()?;
    let blocks: Vec<(usize, usize)> = records.iter().map(|r| (r.id, r.depths)).collect();
    let kept = result_log::complete_blocks(&blocks)
        .with_context(|| format!("{name}: the position blocks do not add up"))?;
    let mut log = resumed.log;
    log.keep(kept)?;
    let mut records = records;
    let dropped = records.len() - kept;
    records.truncate(kept);
    Ok(ResumeState {
        log,
        done: records.iter().map(|r| r.id).collect(),
        records,
        dropped,
        torn: resumed.torn_bytes > 0,
    })
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

pub fn run(args: &CollectArgs) -> Result<()> {
    if !(1..=augur::search::MAX_DEPTH).contains(&args.depth) {
        bail!("--depth must be in 1..={}", augur::search::MAX_DEPTH);
    }
    let mut positions = load_epd(args.epd.as_deref())?;
    if let Some(n) = args.positions {
        positions.truncate(n);
    }
    let header = header(args)?;
    let resume = prepare_output(&args.out, &header)?;
    if (resume.dropped > 0 || resume.torn) && !args.quiet {
        eprintln!(
            "collect: cut an unfinished block ({} complete line(s){}) at the end of {}; that \
             position is redone",
            resume.dropped,
            if resume.torn { " and a torn line" } else { "" },
            args.out.display()
        );
    }
    let todo: Vec<EpdLine> = positions
        .iter()
        .filter(|p| !resume.done.contains(&p.line))
        .cloned()
        .collect();
    let total = positions.len();
    let initial = total - todo.len();
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 256);
    let ResumeState {
        mut log,
        mut records,
        ..
    } = resume;
    let mut progress = Progress::new(total, initial, !args.quiet);
    progress.update(initial, "");

    let todo = Arc::new(todo);
    let next = Arc::new(AtomicUsize::new(0));
    let failed = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Result<Vec<Record>>>();
    let mut handles = Vec::new();
    for _ in 0..threads.min(todo.len().max(1)) {
        let (todo, next, failed, tx) = (todo.clone(), next.clone(), failed.clone(), tx.clone());
        let (depth, hash) = (args.depth, args.hash);
        let config = SearchConfig {
            eval: args.eval,
            ..SearchConfig::default()
        };
        handles.push(std::thread::spawn(move || {
            let mut searcher = match SearchTeam::new(config, hash) {
                Ok(t) => t,
                Err(e) => {
                    failed.store(true, Ordering::Relaxed);
                    let _ = tx.send(Err(anyhow::anyhow!("--hash {hash}: {e}")));
                    return;
                }
            };
            loop {
                if failed.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(epd) = todo.get(i) else { break };
                if tx.send(search_position(&mut searcher, epd, depth)).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);
    let started = Instant::now();
    let (mut done, mut nodes) = (initial, 0u64);
    let mut first_error = None;
    for result in rx {
        let result = result.and_then(|block| {
            let lines: Vec<String> = block.iter().map(Record::to_csv).collect();
            log.append(&lines).map(|_| block)
        });
        match result {
            Ok(block) => {
                nodes += block.last().map_or(0, |r| r.nodes);
                records.extend(block);
                done += 1;
                let secs = started.elapsed().as_secs_f64().max(1e-3);
                progress.update(done, &format!("{:.0} knps", nodes as f64 / secs / 1000.0));
            }
            Err(e) => {
                failed.store(true, Ordering::Relaxed);
                first_error.get_or_insert(e);
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    progress.finish();
    if let Some(e) = first_error {
        return Err(e);
    }
    // Finished: the file in position order, whatever order the threads and kills left.
    let mut sorted = records.clone();
    sorted.sort_by_key(|r| (r.id, r.depth));
    if sorted != records {
        log.rewrite(&sorted.iter().map(Record::to_csv).collect::<Vec<_>>())?;
    }
    if !args.quiet {
        eprintln!(
            "collect: {} positions in {} ({} new, {:.1}s)",
            total,
            args.out.display(),
            total - initial,
            started.elapsed().as_secs_f64()
        );
    }
    print!("{}", report(args, &header, &sorted, total - initial));
    Ok(())
}

/// The run's report on standard output (`--quiet` silences only the progress): what was
/// collected and where, so that a `reproduce` step has a report beside its data.
fn report(args: &CollectArgs, header: &Header, records: &[Record], new: usize) -> String {
    let per_stage = |stage: Stage| {
        records
            .iter()
            .filter(|r| r.stage == stage && r.depth == 1)
            .count()
    };
    let positions = records.iter().filter(|r| r.depth == 1).count();
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
        positions,
        args.depth,
        new,
        records.len(),
        args.out.display(),
        per_stage(Stage::Middlegame),
        per_stage(Stage::Endgame),
        nodes,
        args.out.display()
    )
}
