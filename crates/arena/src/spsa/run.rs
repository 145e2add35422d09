//! The SPSA loop with the arena's own runner: a state file written atomically
//! after every iteration and a CSV of every parameter's trajectory, so that a
//! run killed at any moment resumes where it was and ends exactly as an
//! uninterrupted run would (the iteration's randomness comes from the seed
//! and the iteration number alone).

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::{Deserialize, Serialize};

use crate::engine::spec::EngineSpec;
use crate::engine::uci::UciEngine;
use crate::game::openings;
use crate::game::time_control::TimeControl;
use crate::game::{AdjudicationArgs, GameSettings};
use crate::matchmaking::pool;
use crate::matchmaking::results::white_score;
use crate::matchmaking::schedule::Slot;
use crate::progress::Progress;
use crate::spsa::{iteration_rng, parse_params, perturb, update, Param, Schedule};

#[derive(Args, Debug, Clone)]
pub struct SpsaArgs {
    /// The engine to tune: name=NAME,cmd=PATH[,arg=..][,option.NAME=VALUE...] (fixed options go here).
    #[arg(long, value_name = "SPEC")]
    pub engine: String,
    /// Parameter file: lines `name, int|float, start, min, max, step, learning rate` (OpenBench's format, as `augur spsa` prints).
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// One parameter line in the same format; repeat for more (added after --params).
    #[arg(long = "param", value_name = "LINE")]
    pub param_lines: Vec<String>,
    /// Iterations N (the schedule ends at c_end and r_end after N).
    #[arg(long, default_value_t = 1000)]
    pub iterations: u64,
    /// Game pairs per iteration (one opening each, both colours).
    #[arg(long, default_value_t = 1)]
    pub pairs: usize,
    /// A = a_ratio x iterations.
    #[arg(long, default_value_t = 0.1)]
    pub a_ratio: f64,
    #[arg(long, default_value_t = 0.602)]
    pub alpha: f64,
    #[arg(long, default_value_t = 0.101)]
    pub gamma: f64,
    /// Time control: 10+0.1, 40/60, movetime=0.5, nodes=20000, depth=8.
    #[arg(long, default_value = "10+0.1")]
    pub tc: TimeControl,
    /// Time an engine may overstep its clock before it forfeits (ms).
    #[arg(long, default_value_t = 100)]
    pub margin_ms: u64,
    /// For nodes/depth games: longest wait for a bestmove before a stall (s).
    #[arg(long, default_value_t = 60.0, value_parser = crate::game::time_control::parse_wait)]
    pub stall_timeout: f64,
    /// Openings: EPD or PGN (.pgn); default: the bundled 8moves_v3 sample.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// For PGN openings: use only the first N plies of each game.
    #[arg(long, value_name = "N")]
    pub opening_plies: Option<usize>,
    /// Seed of the perturbations, roundings and openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: number of cores).
    #[arg(long)]
    pub concurrency: Option<usize>,
    #[command(flatten)]
    pub adjudication: AdjudicationArgs,
    /// Output directory: state.toml (resumable state) and history.csv (every iteration).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// What survives a kill: the iteration reached and θ after it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct State {
    /// Everything that shapes the run; a resume with other settings is refused.
    run: String,
    iteration: u64,
    theta: Vec<f64>,
    wins: u64,
    draws: u64,
    losses: u64,
}

/// The outcome of a run, for callers and tests.
#[derive(Debug, Clone, PartialEq)]
pub struct SpsaSummary {
    pub params: Vec<Param>,
    pub theta: Vec<f64>,
    pub iterations: u64,
    pub games_played: u64,
    pub csv: PathBuf,
}

pub const STATE_FILE: &str = "state.toml";
pub const CSV_FILE: &str = "history.csv";

pub fn load_params(args: &SpsaArgs) -> Result<Vec<Param>> {
    let mut text = String::new();
    if let Some(p) = &args.params {
        text = fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?;
        text.push('\n');
    }
    let origin = args
        .params
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "--param".to_string());
    for line in &args.param_lines {
        text.push_str(line);
        text.push('\n');
    }
    parse_params(&text, &origin)
}

/// The run's identity: what must not change between a run and its resume.
fn fingerprint(args: &SpsaArgs, params: &[Param]) -> String {
    let lines: Vec<String> = params
        .iter()
        .map(|p| {
            format!(
                "{},{:?},{},{},{},{},{}",
                p.name, p.kind, p.start, p.min, p.max, p.c_end, p.r_end
            )
        })
        .collect();
    format!(
        "engine={} params=[{}] iterations={} pairs={} a_ratio={} alpha={} gamma={} tc={} seed={} openings={:?}/{:?}",
        args.engine,
        lines.join("; "),
        args.iterations,
        args.pairs,
        args.a_ratio,
        args.alpha,
        args.gamma,
        args.tc,
        args.seed,
        args.openings,
        args.opening_plies
    )
}

/// Writes the state through a temporary file and a rename, so that a kill
/// leaves either the old state or the new one, never a torn one.
fn save_state(dir: &Path, state: &State) -> Result<()> {
    let path = dir.join(STATE_FILE);
    let tmp = dir.join(format!("{STATE_FILE}.tmp"));
    let text = toml::to_string(state).context("cannot encode the SPSA state")?;
    let mut f = File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
    f.write_all(text.as_bytes())
        .and_then(|_| f.sync_all())
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    fs::rename(&tmp, &path).with_context(|| format!("cannot replace {}", path.display()))?;
    Ok(())
}

fn csv_header(params: &[Param]) -> String {
    let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    format!("iteration,wins,draws,losses,{}\n", names.join(","))
}

fn csv_row(k: u64, s: &State) -> String {
    let values: Vec<String> = s.theta.iter().map(|v| format!("{v}")).collect();
    format!(
        "{k},{},{},{},{}\n",
        s.wins,
        s.draws,
        s.losses,
        values.join(",")
    )
}

/// Keeps the header and the complete rows up to iteration `upto`: a kill
/// between appending a row and saving the state, or in the middle of a row,
/// leaves rows the state does not know about; they are played again.
fn trim_csv(path: &Path, header: &str, upto: u64) -> Result<()> {
    let text = fs::read_to_string(path).unwrap_or_default();
    let mut keep = String::from(header);
    for line in text.split_inclusive('\n').skip(1) {
        if !line.ends_with('\n') {
            break;
        }
        match line.split(',').next().and_then(|k| k.parse::<u64>().ok()) {
            Some(k) if k <= upto => keep.push_str(line),
            _ => break,
        }
    }
    if keep != text {
        let tmp = path.with_extension("csv.tmp");
        fs::write(&tmp, &keep).with_context(|| format!("cannot write {}", tmp.display()))?;
        fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))?;
    }
    Ok(())
}

fn status(params: &[Param], s: &State) -> String {
    let values: Vec<String> = params
        .iter()
        .zip(&s.theta)
        .map(|(p, v)| format!("{} {}", p.name, fmt_value(p, *v)))
        .collect();
    format!(
        "W/D/L {}/{}/{}  {}",
        s.wins,
        s.draws,
        s.losses,
        values.join("  ")
    )
}

fn fmt_value(p: &Param, v: f64) -> String {
    match p.kind {
        crate::spsa::Kind::Int => format!("{v:.2}"),
        crate::spsa::Kind::Float => format!("{v:.4}"),
    }
}

/// Runs (or resumes) the tuning described by `args`.
pub fn run(args: &SpsaArgs) -> Result<SpsaSummary> {
    let params = load_params(args)?;
    if args.iterations == 0 || args.pairs == 0 {
        bail!("--iterations and --pairs must be positive");
    }
    for (name, v) in [("alpha", args.alpha), ("gamma", args.gamma)] {
        if !(v > 0.0 && v.is_finite()) {
            bail!("--{name} must be positive, got {v}");
        }
    }
    if !(args.a_ratio >= 0.0 && args.a_ratio.is_finite()) {
        bail!("--a-ratio must be non-negative, got {}", args.a_ratio);
    }
    let base = EngineSpec::parse_cli(&args.engine)?;
    let schedule = Schedule {
        iterations: args.iterations,
        a_ratio: args.a_ratio,
        alpha: args.alpha,
        gamma: args.gamma,
    };
    let openings = openings::load(args.openings.as_deref(), args.opening_plies)?;
    let fens: Vec<String> = openings.iter().map(|o| o.fen.clone()).collect();
    let settings = GameSettings {
        tc: args.tc,
        margin: Duration::from_millis(args.margin_ms),
        stall_timeout: Duration::from_secs_f64(args.stall_timeout),
        adjudication: args.adjudication.rules(),
        chess960: false,
    };
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
        .max(1);
    let with_values = |name: &str, values: &[f64]| {
        let mut spec = base.clone();
        spec.name = name.to_string();
        for (p, v) in params.iter().zip(values) {
            spec.set_option(&p.name, &p.format(*v));
        }
        spec
    };
    // Pre-flight: the engine starts and declares every tuned option.
    let starts: Vec<f64> = params.iter().map(|p| p.start).collect();
    UciEngine::start(&with_values(&base.name, &starts))?.quit();

    fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let state_path = args.out.join(STATE_FILE);
    let csv_path = args.out.join(CSV_FILE);
    let header = csv_header(&params);
    let run_id = fingerprint(args, &params);
    let mut state = if state_path.exists() {
        let text = fs::read_to_string(&state_path)
            .with_context(|| format!("cannot read {}", state_path.display()))?;
        let s: State = toml::from_str(&text)
            .with_context(|| format!("bad SPSA state {}", state_path.display()))?;
        if s.run != run_id || s.theta.len() != params.len() {
            bail!(
                "{} belongs to another run ({}); use the same settings to resume, or another --out",
                state_path.display(),
                s.run
            );
        }
        trim_csv(&csv_path, &header, s.iteration)?;
        if !args.quiet && s.iteration < args.iterations {
            eprintln!(
                "resuming {}: {} of {} iterations done",
                args.out.display(),
                s.iteration,
                args.iterations
            );
        }
        s
    } else {
        let s = State {
            run: run_id,
            iteration: 0,
            theta: starts.clone(),
            wins: 0,
            draws: 0,
            losses: 0,
        };
        fs::write(&csv_path, format!("{header}{}", csv_row(0, &s)))
            .with_context(|| format!("cannot write {}", csv_path.display()))?;
        save_state(&args.out, &s)?;
        s
    };
    let mut csv = OpenOptions::new()
        .append(true)
        .open(&csv_path)
        .with_context(|| format!("cannot open {}", csv_path.display()))?;
    let done_before = state.iteration;
    let mut progress = Progress::with_unit(
        args.iterations as usize,
        done_before as usize,
        !args.quiet,
        "iterations",
    );
    progress.update(state.iteration as usize, &status(&params, &state));
    while state.iteration < args.iterations {
        let k = state.iteration + 1;
        let mut rng = iteration_rng(args.seed, k);
        let pert = perturb(&params, &state.theta, &schedule, k, &mut rng);
        let specs = [
            with_values("plus", &pert.plus),
            with_values("minus", &pert.minus),
        ];
        let mut slots = Vec::with_capacity(2 * args.pairs);
        for pair in 0..args.pairs {
            let opening = rng.below(fens.len() as u64) as usize;
            for (white, black) in [(0, 1), (1, 0)] {
                slots.push(Slot {
                    index: slots.len(),
                    pair,
                    white,
                    black,
                    opening,
                });
            }
        }
        let records = pool::play_all(&specs, &slots, &fens, &settings, concurrency)?;
        let (mut w, mut d, mut l) = (0u64, 0u64, 0u64);
        for (slot, rec) in slots.iter().zip(&records) {
            let white = white_score(rec.outcome);
            let plus = if slot.white == 0 { white } else { 1.0 - white };
            if plus > 0.75 {
                w += 1;
            } else if plus < 0.25 {
                l += 1;
            } else {
                d += 1;
            }
        }
        update(&params, &mut state.theta, &pert, w as i64 - l as i64);
        state.iteration = k;
        state.wins += w;
        state.draws += d;
        state.losses += l;
        // Row first, then the state: a kill in between leaves a row that the
        // resume drops and plays again.
        csv.write_all(csv_row(k, &state).as_bytes())
            .and_then(|_| csv.flush())
            .with_context(|| format!("cannot write {}", csv_path.display()))?;
        save_state(&args.out, &state)?;
        progress.update(k as usize, &status(&params, &state));
    }
    progress.finish();
    if !args.quiet {
        eprintln!(
            "SPSA done after {} iterations ({} games by this run); tuned values (name, start -> now):",
            state.iteration,
            2 * args.pairs as u64 * (state.iteration - done_before)
        );
        for (p, v) in params.iter().zip(&state.theta) {
            eprintln!("{}, {} -> {}", p.name, p.format(p.start), p.format(*v));
        }
    }
    Ok(SpsaSummary {
        params,
        theta: state.theta,
        iterations: state.iteration,
        games_played: state.wins + state.draws + state.losses,
        csv: csv_path,
    })
}

/// The trajectories in a history CSV.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    pub names: Vec<String>,
    pub iterations: Vec<u64>,
    /// Per parameter, its value after each iteration (the start first).
    pub values: Vec<Vec<f64>>,
}

/// Reads a history CSV written by [`run`] (for charts).
pub fn read_history(path: &Path) -> Result<History> {
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut lines = text.lines();
    let header = lines
        .next()
        .with_context(|| format!("{}: empty", path.display()))?;
    let names: Vec<String> = header.split(',').skip(4).map(str::to_string).collect();
    let mut iters = Vec::new();
    let mut values = vec![Vec::new(); names.len()];
    for (i, line) in lines.enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() != 4 + names.len() {
            bail!(
                "{}:{}: expected {} fields",
                path.display(),
                i + 2,
                4 + names.len()
            );
        }
        iters.push(
            fields[0]
                .parse()
                .with_context(|| format!("{}:{}: bad iteration", path.display(), i + 2))?,
        );
        for (j, v) in fields[4..].iter().enumerate() {
            values[j].push(
                v.parse()
                    .with_context(|| format!("{}:{}: bad value '{v}'", path.display(), i + 2))?,
            );
        }
    }
    Ok(History {
        names,
        iterations: iters,
        values,
    })
}
