//! `augur-lab match`: head-to-head matches (optionally an SPRT), gauntlets and
//! round robins between UCI engines, played concurrently, written to PGN as
//! games finish and resumable from that PGN.

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::path::PathBuf;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use shakmaty::Color;

use crate::engine::spec::{self, EngineSpec};
use crate::engine::uci::UciEngine;
use crate::game::openings::{self, Opening};
use crate::game::pgn;
use crate::game::time_control::TimeControl;
use crate::game::{self, AdjudicationArgs, GameRecord, GameSettings, Overhead};
use crate::machine::others_line;
use crate::matchmaking::elo::{self, fmt_elo};
use crate::matchmaking::games_csv::{self, GameRow};
use crate::matchmaking::interim::{InterimLooks, Look, HAYBITTLE_PETO_Z};
use crate::matchmaking::outcomes::Counts;
use crate::matchmaking::pool::Pool;
use crate::matchmaking::results::{white_score, Outcome, ResultTable};
use crate::matchmaking::schedule::{self, Format, OpeningOrder, Slot};
use crate::matchmaking::sprt::{EloModel, Sprt, SprtState};
use crate::progress::Progress;

#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// Engine: name=NAME,cmd=PATH[,arg=ARG][,dir=DIR][,nodes=N][,depth=D][,option.NAME=VALUE...]; repeat for each engine (nodes=/depth=: its own limit in a --tc nodes/depth match).
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// TOML file with [[engine]] tables (name, cmd, args, dir, options); added after --engine ones.
    #[arg(long, value_name = "FILE")]
    pub engines_file: Option<PathBuf>,
    /// Settings for every engine, same syntax as --engine (e.g. option.Threads=1).
    #[arg(long = "each", value_name = "SPEC")]
    pub each: Vec<String>,
    /// Time control: 10+0.1, 40/60, 40/60+1, movetime=0.5, nodes=20000, depth=8.
    #[arg(long, default_value = "10+0.1")]
    pub tc: TimeControl,
    /// Time an engine may overstep its clock before it forfeits (ms).
    #[arg(long, default_value_t = 100)]
    pub margin_ms: u64,
    /// For nodes/depth games: longest wait for a bestmove before a stall (s).
    #[arg(long, default_value_t = 60.0, value_parser = crate::game::time_control::parse_wait)]
    pub stall_timeout: f64,
    /// Games per pairing (rounded up to an even number: each opening is played with both colours).
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Openings: EPD (one FEN per line) or PGN (.pgn); default: the bundled 8moves_v3 sample.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// For PGN openings: use only the first N plies of each game.
    #[arg(long, value_name = "N")]
    pub opening_plies: Option<usize>,
    /// Chess960: openings may name rook files in their castling field (default openings:
    /// the 960 start positions by their standard number), every engine gets
    /// `UCI_Chess960=true`, castling is sent king-takes-rook.
    #[arg(long)]
    pub chess960: bool,
    /// Opening order.
    #[arg(long, value_enum, default_value = "random")]
    pub order: OpeningOrder,
    /// Seed of the random opening order (the whole schedule follows from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: number of cores).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// PGN output; if it already holds games of this schedule, the match resumes.
    #[arg(long, value_name = "FILE")]
    pub pgn: PathBuf,
    #[command(flatten)]
    pub sprt: SprtArgs,
    /// Interim looks at a fixed-length two-engine match (Haybittle-Peto): at each of these
    /// counts of games the match stops if the score's z against 1/2 reaches --interim-z.
    #[arg(long, value_name = "GAMES,...", value_delimiter = ',')]
    pub interim: Vec<usize>,
    /// The interim looks' |z| boundary (3.29: two-sided p = 0.001, so the final analysis at the
    /// full length keeps its nominal level).
    #[arg(long, default_value_t = HAYBITTLE_PETO_Z)]
    pub interim_z: f64,
    #[command(flatten)]
    pub adjudication: AdjudicationArgs,
    /// With more than two engines: gauntlet (first engine against the others) or round-robin.
    #[arg(long, value_enum, default_value = "gauntlet")]
    pub format: Format,
    /// Engine whose rating is 0 in the rating list (default: the last engine).
    #[arg(long)]
    pub anchor: Option<String>,
    /// PGN Event tag.
    #[arg(long, default_value = "augur-lab match")]
    pub event: String,
    /// One-sided level of the significance test printed with the results.
    #[arg(long, default_value_t = 0.05, value_parser = crate::matchmaking::elo::parse_significance)]
    pub significance: f64,
    /// Draw ratio assumed by the significance test (the ProbCut papers assumed 30%).
    #[arg(long, default_value_t = 0.30, value_parser = crate::matchmaking::elo::parse_draw_ratio)]
    pub assumed_draws: f64,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
}

impl MatchArgs {
    /// A match as `augur-lab match` would play it with only `--engine`s, `--tc`, `--games` and
    /// `--pgn` given: the other settings are the command line's own defaults (clap's, so the
    /// two cannot drift apart). Callers such as `augur-lab grid` and `scaling` change the rest.
    pub fn new(engines: Vec<String>, tc: TimeControl, games: usize, pgn: PathBuf) -> MatchArgs {
        #[derive(clap::Parser)]
        struct Defaults {
            #[command(flatten)]
            args: MatchArgs,
        }
        let mut args = <Defaults as clap::Parser>::try_parse_from(["match", "--pgn", "-"])
            .expect("the match command's defaults parse")
            .args;
        args.engines = engines;
        args.tc = tc;
        args.games = games;
        args.pgn = pgn;
        args
    }
}

/// Parses `ELO0,ELO1`.
pub fn parse_sprt_bounds(text: &str) -> Result<(f64, f64)> {
    let (a, b) = text
        .split_once(',')
        .with_context(|| format!("bad --sprt '{text}': expected ELO0,ELO1"))?;
    let e0: f64 = a
        .trim()
        .parse()
        .with_context(|| format!("bad --sprt elo0 '{a}'"))?;
    let e1: f64 = b
        .trim()
        .parse()
        .with_context(|| format!("bad --sprt elo1 '{b}'"))?;
    if e0.partial_cmp(&e1) != Some(std::cmp::Ordering::Less) {
        bail!("bad --sprt '{text}': elo0 must be below elo1");
    }
    Ok((e0, e1))
}

/// The SPRT options shared by `match` (stop early) and `stats` (report the LLR).
#[derive(clap::Args, Debug, Clone)]
pub struct SprtArgs {
    /// SPRT with bounds ELO0,ELO1 (two engines only; the first engine is tested).
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    pub sprt: Option<String>,
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Elo model of the bounds: normalized (fishtest's and OpenBench's default) or logistic.
    #[arg(long, value_enum, default_value = "normalized")]
    pub elo_model: EloModel,
    /// The change under test, for the verdict row printed after an SPRT.
    #[arg(long, value_name = "TEXT")]
    pub change: Option<String>,
    /// The commit under test, for the verdict row.
    #[arg(long, value_name = "HASH")]
    pub commit: Option<String>,
}

impl SprtArgs {
    /// The test, if `--sprt` was given; it needs exactly two engines (`what` says where).
    pub fn build(&self, engines: usize, what: &str) -> Result<Option<Sprt>> {
        match &self.sprt {
            None => Ok(None),
            Some(_) if engines != 2 => bail!("--sprt needs {what}"),
            Some(b) => make_sprt(b, self.alpha, self.beta, self.elo_model).map(Some),
        }
    }
}

pub fn make_sprt(bounds: &str, alpha: f64, beta: f64, model: EloModel) -> Result<Sprt> {
    let (elo0, elo1) = parse_sprt_bounds(bounds)?;
    for (name, v) in [("alpha", alpha), ("beta", beta)] {
        if !(v > 0.0 && v < 0.5) {
            bail!("--{name} must be in (0, 0.5), got {v}");
        }
    }
    Ok(Sprt {
        elo0,
        elo1,
        alpha,
        beta,
        model,
    })
}

/// What the match has produced so far.
struct MatchState {
    table: ResultTable,
    overhead: Overhead,
    /// Wall time minus think time, summed over this run's games, and their moves.
    idle: Duration,
    idle_moves: u64,
    /// [arena-others] This run's games' other load, for a match on the clock.
    others: Vec<f64>,
}

/// Summary of a finished (or stopped) match, for callers and tests.
#[derive(Debug)]
pub struct MatchSummary {
    pub games_played: usize,
    pub games_total: usize,
    pub faults: u64,
    pub sprt: Option<(f64, SprtState)>,
    /// The interim look that stopped a fixed-length match short of its games, if one did.
    pub interim_stop: Option<Look>,
    pub overhead: Overhead,
    pub report: String,
    /// Every game's outcome, resumed ones included (callers such as `augur-lab grid` take
    /// W/D/L and the pentanomial from it).
    pub table: ResultTable,
    /// The engine the ratings and the per-engine intervals are relative to.
    pub anchor: usize,
}

fn status_line(table: &ResultTable, sprt: Option<&Sprt>, faults: u64) -> String {
    if table.names.len() == 2 {
        let (wdl, penta) = table.head_to_head(0, 1);
        let sample = Counts::choose(&wdl, &penta);
        let est = elo::estimate(&sample);
        let mut s = format!(
            "W {} D {} L {}  {:.1}%",
            wdl.wins,
            wdl.draws,
            wdl.losses,
            100.0 * wdl.points() / wdl.games().max(1) as f64
        );
        if let (Some(e), Some(EloModel::Normalized)) = (&est, sprt.map(|t| t.model)) {
            // The SPRT's own model, so the live figure and the bounds compare.
            s.push_str(&format!("  nElo {} ±{:.1}", fmt_elo(e.nelo), e.nelo_half));
        } else if let Some(e) = est {
            let text = elo::fmt_elo_interval(e.elo, e.elo_low, e.elo_high);
            s.push_str(&format!("  Elo {text}"));
        }
        if let Some(t) = sprt {
            let (lo, hi) = t.bounds();
            s.push_str(&format!("  LLR {:.2} [{lo:.2}, {hi:.2}]", t.llr(&sample)));
        }
        s.push_str(&format!("  faults {faults}"));
        s
    } else {
        let totals = table.totals();
        let parts: Vec<String> = table
            .names
            .iter()
            .zip(totals)
            .map(|(n, (p, g))| format!("{n} {p:.1}/{g}"))
            .collect();
        format!("{}  faults {faults}", parts.join("  "))
    }
}

/// Final report text: statistics (and SPRT) for two engines, crosstable and
/// ratings for more; faults and runner overhead.
pub fn final_report(
    table: &ResultTable,
    sprt: Option<&Sprt>,
    anchor: usize,
    significance: f64,
    assumed_draws: f64,
) -> String {
    let mut out = String::new();
    if table.names.len() == 2 {
        let (wdl, penta) = table.head_to_head(0, 1);
        out.push_str(&format!(
            "{} vs {} (from {}'s side)\n",
            table.names[0], table.names[1], table.names[0]
        ));
        out.push_str(&elo::report(&wdl, &penta, significance, assumed_draws));
        if let Some(t) = sprt {
            let sample = Counts::choose(&wdl, &penta);
            let llr = t.llr(&sample);
            let (lo, hi) = t.bounds();
            out.push_str(&format!(
                "SPRT elo0={} elo1={} alpha={} beta={} ({} Elo, {} sample): LLR {llr:.3} [{lo:.3}, {hi:.3}] -> {}\n",
                t.elo0,
                t.elo1,
                t.alpha,
                t.beta,
                t.model.name(),
                sample.name(),
                t.state(llr).verdict()
            ));
        }
    }
    if table.names.len() > 2 || table.games.iter().any(|g| g.white >= 2 || g.black >= 2) {
        out.push_str(&table.crosstable(anchor));
        out.push_str(&table.against_anchor(anchor));
    }
    out.push_str(&table.fault_summary());
    out
}

/// What a verdict row needs beyond the results.
pub struct RowLabels<'a> {
    pub change: Option<&'a str>,
    pub commit: Option<&'a str>,
    pub time_control: &'a str,
}

/// A ready-to-paste Markdown row of an SPRT's verdict (the registry itself is
/// docs/evidence/verdicts.csv, whose row `stats --row` prints):
/// change | commit | bounds | TC | games | W/D/L | pentanomial | LLR |
/// Elo ± 95% CI | Elo model | verdict. The Elo is given in the SPRT's model.
pub fn strength_row(table: &ResultTable, sprt: &Sprt, labels: &RowLabels) -> String {
    let (wdl, penta) = table.head_to_head(0, 1);
    let sample = Counts::choose(&wdl, &penta);
    let llr = sprt.llr(&sample);
    let (lo, hi) = sprt.bounds();
    let elo = match elo::estimate(&sample) {
        Some(e) if sprt.model == EloModel::Normalized => {
            format!("{} ± {:.1}", fmt_elo(e.nelo), e.nelo_half)
        }
        Some(e) => {
            let half = (e.elo_high - e.elo_low) / 2.0;
            if half.is_finite() {
                format!("{} ± {half:.1}", fmt_elo(e.elo))
            } else {
                elo::fmt_elo_range(e.elo, e.elo_low, e.elo_high)
            }
        }
        None => "-".to_string(),
    };
    let pentanomial = match sample {
        Counts::Penta(p) => format!("[{}, {}, {}, {}, {}]", p[0], p[1], p[2], p[3], p[4]),
        Counts::Tri(_) => "- (unpaired)".to_string(),
    };
    let change = labels
        .change
        .map(str::to_string)
        .unwrap_or_else(|| format!("{} vs {}", table.names[0], table.names[1]));
    format!(
        "| {change} | {} | [{}, {}] | {} | {} | {}/{}/{} | {pentanomial} | {llr:.2} ({lo:.2}, {hi:.2}) | {elo} | {} | {} |",
        labels.commit.unwrap_or("?"),
        sprt.elo0,
        sprt.elo1,
        labels.time_control,
        wdl.games(),
        wdl.wins,
        wdl.draws,
        wdl.losses,
        sprt.model.name(),
        sprt.state(llr).verdict(),
    )
}

fn load_specs(args: &MatchArgs) -> Result<Vec<EngineSpec>> {
    let mut specs = Vec::new();
    for e in &args.engines {
        specs.push(EngineSpec::parse_cli(e)?);
    }
    if let Some(f) = &args.engines_file {
        specs.extend(spec::load_engines_file(f)?);
    }
    for spec in &mut specs {
        for each in &args.each {
            spec.apply_each(each)?;
        }
    }
    if args.chess960 {
        for spec in &mut specs {
            spec.set_option("UCI_Chess960", "true");
        }
    }
    if specs.len() < 2 {
        bail!("a match needs at least two engines (--engine or --engines-file)");
    }
    spec::check_names(&specs)?;
    Ok(specs)
}

/// Runs the match described by `args`; prints progress and the final report.
pub fn run(args: &MatchArgs) -> Result<MatchSummary> {
    let specs = load_specs(args)?;
    let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let sprt = args.sprt.build(specs.len(), "exactly two engines")?;
    let anchor = match &args.anchor {
        Some(a) => names.iter().position(|n| n == a).with_context(|| {
            format!(
                "--anchor '{a}' is not one of the engines ({})",
                names.join(", ")
            )
        })?,
        None => names.len() - 1,
    };
    // The schedule is built whole before the first game: a bound far above any match keeps
    // it in memory (40 bytes a game).
    const MAX_GAMES: usize = 10_000_000;
    if args.games == 0 || args.games > MAX_GAMES {
        bail!("--games {}: from 1 to {MAX_GAMES}", args.games);
    }
    let mode = shakmaty::CastlingMode::from_chess960(args.chess960);
    let openings = openings::load_in(args.openings.as_deref(), args.opening_plies, mode)?;
    let pairings = schedule::pairings(specs.len(), args.format);
    let slots = schedule::build(&pairings, args.games, openings.len(), args.order, args.seed);
    let mut looks = InterimLooks::new(
        &args.interim,
        args.interim_z,
        slots.len(),
        specs.len(),
        sprt.is_some(),
    )?;
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| {
            thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
        .max(1);
    let settings = GameSettings {
        tc: args.tc,
        margin: Duration::from_millis(args.margin_ms),
        stall_timeout: Duration::from_secs_f64(args.stall_timeout),
        adjudication: args.adjudication.rules(),
        chess960: args.chess960,
    };

    if let Some(spec) = specs.iter().find(|s| s.nodes.is_some()) {
        if !matches!(args.tc, TimeControl::Nodes(_)) {
            bail!(
                "engine {}: nodes= sets its own node limit in a --tc nodes=N match, not with --tc {}",
                spec.name,
                args.tc
            );
        }
    }
    if let Some(spec) = specs.iter().find(|s| s.depth.is_some()) {
        if !matches!(args.tc, TimeControl::Depth(_)) {
            bail!(
                "engine {}: depth= sets its own depth in a --tc depth=N match, not with --tc {}",
                spec.name,
                args.tc
            );
        }
    }
    // Pre-flight: every engine must start and accept its options, so that a
    // bad path or option name stops the match before any game is played.
    for spec in &specs {
        let e = UciEngine::start(spec)?;
        if !args.quiet {
            eprintln!(
                "engine {}: {} ({})",
                spec.name,
                e.id_name.as_deref().unwrap_or("?"),
                spec.cmd.display()
            );
        }
        e.quit();
    }

    let mut state = MatchState {
        table: ResultTable::new(names.clone()),
        overhead: Overhead::default(),
        idle: Duration::ZERO,
        idle_moves: 0,
        others: Vec::new(),
    };
    let (done, resumed) = resume(args, &slots, &openings, &mut state.table)?;
    // The per-game record starts again from the PGN's complete games, whatever a kill left.
    let record_path = games_csv::beside(&args.pgn);
    let mut record = games_csv::Writer::create(&record_path, &resumed)?;
    let pending: Vec<usize> = (0..slots.len()).filter(|i| !done.contains(i)).collect();
    if !done.is_empty() && !args.quiet {
        eprintln!(
            "resuming {}: {} games already played, {} to go",
            args.pgn.display(),
            done.len(),
            pending.len()
        );
    }
    let mut out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.pgn)
        .with_context(|| format!("cannot open {} for writing", args.pgn.display()))?;
    let mut progress = Progress::with_unit(slots.len(), done.len(), !args.quiet, "games");
    let mut finished = done.len();
    let mut sprt_state = sprt.as_ref().map(|t| {
        let llr = t.llr(&state.table.sample(0, 1));
        (llr, t.state(llr))
    });
    // A resumed match past a look's count takes it now, on every game it has.
    looks.look(finished, &state.table.sample(0, 1));
    let date = pgn::pgn_date_today();
    let tc_tag = args.tc.pgn_tag();
    let started = Instant::now();

    let decided = |state: &Option<(f64, SprtState)>| matches!(state, Some((_, s)) if *s != SprtState::Continue);
    if !decided(&sprt_state) && looks.stop().is_none() && !pending.is_empty() {
        let fens: Vec<String> = openings.iter().map(|o| o.fen.clone()).collect();
        let mut pending = pending;
        let mut played = vec![false; slots.len()];
        progress.update(finished, &status_line(&state.table, sprt.as_ref(), 0));
        // An SPRT that crosses a bound stops the pool, but the games in flight still finish
        // and count, and they can take the LLR back inside the bounds. The match then goes on
        // with the games left, so that its verdict is always the one of every game it played.
        loop {
            let before = finished;
            let pool = Pool::start(
                &specs,
                &slots,
                pending.clone(),
                &fens,
                &settings,
                concurrency,
            );
            for msg in pool.results() {
                let rec = match msg {
                    Ok(r) => r,
                    Err(e) => {
                        pool.stop();
                        progress.finish();
                        return Err(e);
                    }
                };
                pgn::append_record(
                    &mut out,
                    &pgn::format_game(&rec, &args.event, &date, &tc_tag),
                )
                .with_context(|| format!("cannot write {}", args.pgn.display()))?;
                played[rec.round - 1] = true;
                let slot = slots[rec.round - 1];
                record.append(&GameRow::of_record(&rec, slot.pair + 1))?;
                record_game(&mut state, &slot, &rec);
                finished += 1;
                if let Some(t) = &sprt {
                    let llr = t.llr(&state.table.sample(0, 1));
                    let s = t.state(llr);
                    sprt_state = Some((llr, s));
                    if s != SprtState::Continue {
                        // Games in flight still finish and are recorded.
                        pool.stop();
                    }
                }
                if looks.look(finished, &state.table.sample(0, 1)) {
                    pool.stop();
                }
                let faults = state.table.total_faults();
                let mut line = status_line(&state.table, sprt.as_ref(), faults);
                if let Some(last) = state.others.last() {
                    // [arena-others] Seen while it runs: a timed match beside other work.
                    line.push_str(&format!("  others {last:.2}"));
                }
                progress.update(finished, &line);
            }
            pool.join();
            pending.retain(|&i| !played[i]);
            if decided(&sprt_state)
                || looks.stop().is_some()
                || pending.is_empty()
                || finished == before
            {
                break;
            }
        }
        progress.finish();
    }

    let mut report = final_report(
        &state.table,
        sprt.as_ref(),
        anchor,
        args.significance,
        args.assumed_draws,
    );
    if let Some(line) = looks.describe(slots.len()) {
        report.push_str(&line);
    }
    if state.overhead.count > 0 {
        report.push_str(&format!(
            "Runner overhead (bestmove read -> next go written): mean {:.3} ms, max {:.3} ms, {} of {} moves over 1 ms\n",
            state.overhead.mean().as_secs_f64() * 1000.0,
            state.overhead.max.as_secs_f64() * 1000.0,
            state.overhead.over_1ms,
            state.overhead.count
        ));
    }
    if state.idle_moves > 0 {
        report.push_str(&format!(
            "Game wall time not spent thinking: {:.3} ms per move (includes ucinewgame/isready and engine restarts)\n",
            state.idle.as_secs_f64() * 1000.0 / state.idle_moves as f64
        ));
    }
    report.extend(others_line(&state.others));
    report.push_str(&format!(
        "Played {} games in {:.1} s; PGN: {}; per-game record: {}\n",
        finished - done.len(),
        started.elapsed().as_secs_f64(),
        args.pgn.display(),
        record_path.display()
    ));
    if let Some(t) = &sprt {
        let row = strength_row(
            &state.table,
            t,
            &RowLabels {
                change: args.sprt.change.as_deref(),
                commit: args.sprt.commit.as_deref(),
                time_control: &args.tc.to_string(),
            },
        );
        report.push_str(&format!(
            "Row for docs/strength.md (set --change and --commit to fill them in):\n{row}\n"
        ));
    }
    print!("{report}");
    Ok(MatchSummary {
        games_played: finished,
        games_total: slots.len(),
        faults: state.table.total_faults(),
        sprt: sprt_state,
        interim_stop: looks.stop(),
        overhead: state.overhead,
        report,
        table: state.table,
        anchor,
    })
}

fn record_game(state: &mut MatchState, slot: &Slot, rec: &GameRecord) {
    state.table.games.push(Outcome {
        white: slot.white,
        black: slot.black,
        white_score: white_score(rec.outcome),
        pair: Some(slot.pair),
    });
    if let Some(side) = rec.faulty_side() {
        let engine = if side == Color::White {
            slot.white
        } else {
            slot.black
        };
        if let game::GameEnd::Fault { fault, .. } = &rec.end {
            state.table.add_fault(engine, fault.keyword());
        }
    }
    state.overhead.merge(&rec.overhead);
    state.idle += rec.wall.saturating_sub(rec.think);
    state.idle_moves += rec.moves.len() as u64;
    state.others.extend(rec.others);
}

/// Reads games already in the PGN, checks they belong to this schedule and
/// records them; returns the slot indices already played and their per-game rows.
fn resume(
    args: &MatchArgs,
    slots: &[Slot],
    openings: &[Opening],
    table: &mut ResultTable,
) -> Result<(HashSet<usize>, Vec<GameRow>)> {
    let mut done = HashSet::new();
    let mut rows = Vec::new();
    if !args.pgn.exists() {
        return Ok((done, rows));
    }
    // A kill may have torn the last record: resume from the complete ones,
    // and cut the torn tail off only once they prove to be this schedule's.
    let bytes =
        std::fs::read(&args.pgn).with_context(|| format!("cannot read {}", args.pgn.display()))?;
    let complete = pgn::finished_prefix_len(&bytes);
    let games = pgn::read_summaries_from(&bytes[..complete], &args.pgn.display().to_string())?;
    for (k, g) in games.iter().enumerate() {
        let Some(result) = g.result else { continue };
        let where_ = || {
            format!(
                "{} game {} (Round {:?})",
                args.pgn.display(),
                k + 1,
                g.round
            )
        };
        let Some(round) = g.round.filter(|r| (1..=slots.len()).contains(r)) else {
            bail!(
                "{}: no Round tag within this schedule (1..={}); use a new --pgn",
                where_(),
                slots.len()
            );
        };
        let slot = slots[round - 1];
        let (w, b) = (&table.names[slot.white], &table.names[slot.black]);
        if &g.white != w || &g.black != b {
            bail!(
                "{}: {} vs {} but this schedule has {w} vs {b}; same engines, --games, --seed, --openings and --format are needed to resume, or use a new --pgn",
                where_(),
                g.white,
                g.black
            );
        }
        let fen = &openings[slot.opening].fen;
        if g.fen.as_deref() != Some(fen.as_str()) {
            bail!(
                "{}: starts from a different opening than the schedule's ({fen}); use the same --openings/--seed or a new --pgn",
                where_()
            );
        }
        if !done.insert(round - 1) {
            continue; // A duplicate (e.g. written twice); count it once.
        }
        rows.push(GameRow {
            game: round,
            pair: slot.pair + 1,
            white: g.white.clone(),
            black: g.black.clone(),
            opening: fen.clone(),
            result,
            termination: g.ending(),
            plies: g.plies,
        });
        table.games.push(Outcome {
            white: slot.white,
            black: slot.black,
            white_score: white_score(result),
            pair: Some(slot.pair),
        });
        if let Some((side, kind)) = g.fault() {
            table.add_fault(
                if side == Color::White {
                    slot.white
                } else {
                    slot.black
                },
                &kind,
            );
        }
    }
    let dropped = pgn::truncate_torn_tail(&args.pgn)?;
    if dropped > 0 && !args.quiet {
        eprintln!(
            "{}: removed an unfinished game record ({dropped} bytes) left by an interrupted run; it is played again",
            args.pgn.display()
        );
    }
    Ok((done, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_line_speaks_the_sprts_model() {
        let mut table = ResultTable::new(vec!["a".into(), "b".into()]);
        for (white, black, score, pair) in [
            (0, 1, 1.0, 0),
            (1, 0, 0.5, 0),
            (0, 1, 0.5, 1),
            (1, 0, 0.5, 1),
        ] {
            table.games.push(Outcome {
                white,
                black,
                white_score: score,
                pair: Some(pair),
            });
        }
        let mut sprt = make_sprt("0,10", 0.05, 0.05, EloModel::Normalized).unwrap();
        let line = status_line(&table, Some(&sprt), 0);
        assert!(
            line.contains("W 1 D 3 L 0") && line.contains("nElo +"),
            "{line}"
        );
        sprt.model = EloModel::Logistic;
        let line = status_line(&table, Some(&sprt), 0);
        assert!(line.contains("  Elo +") && !line.contains("nElo"), "{line}");
    }
}
