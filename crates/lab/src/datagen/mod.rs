//! `augur-lab datagen`: training data from Augur's own self-play games, in bullet's 32-byte
//! `ChessBoard` records ([`crate::data::records`]), resumable after any interruption ([`journal`]), one game
//! per worker thread ([`selfplay`]). `augur-lab convert` turns records into text lines.
//! docs/datagen.md has the format, the rules and example commands.

pub mod journal;
pub mod selfplay;

use std::io::{BufWriter, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use augur::position::Position;
use augur::search::Control;

use crate::data::records::{self, RecordReader};
use crate::kit::jobs;
use crate::kit::run_args::RunArgs;
use augur_arena::outputs::refuse_inputs;
use augur_arena::progress::Progress;
use selfplay::{Adjudication, GameSettings};

#[derive(clap::Args, Debug)]
#[command(
    group(clap::ArgGroup::new("target").required(true).args(["games", "positions"])),
    mut_arg("out", |a| a.required(true).value_name("FILE").help(
        "Output file of bullet ChessBoard records; FILE.journal beside it lists the finished \
         games. An interrupted run resumes when started again with the same settings."
    )),
    mut_arg("threads", |a| a.help("Worker threads, one game each (default: all cores).")),
    after_help = "Examples:\n  \
augur-lab datagen --out ../shared/data/datagen/augur-s1.bin --games 100000 --threads 2 --seed 1\n  \
augur-lab datagen --out data.bin --positions 10000000 --book openings.epd --random-plies 4\n  \
augur-lab datagen --out gen1.bin --positions 1000000 --eval nnue --eval-file gen1.nnue --seed 3\n  \
augur-lab convert data.bin --limit 10",
    after_long_help = "Plays Augur against itself in-process and writes training positions as \
bullet's 32-byte ChessBoard records: the board, the search score (side to move, cp) and the \
game result. Each game: --random-plies random moves from the start (or a --book position), \
replayed if the first search says |score| > 300; then every move searched with a soft node \
limit (--nodes) and a hard cap. Wins are adjudicated at |score| >= --win-score (1000) for \
--win-plies (4) plies, draws by the rules or from ply --draw-ply (70) at |score| <= --draw-score \
(10) for --draw-plies (10) plies. The engine searches with its defaults, or with --eval, \
--eval-file and --set (a network generation's data). Positions in check, with a capture or \
promotion as best move, or a mate score are not written. The same settings give the same \
file for any --threads; an interrupted run (Ctrl-C, kill -9) resumes when started again. \
See docs/datagen.md.\n\nExamples:\n  \
augur-lab datagen --out ../shared/data/datagen/augur-s1.bin --games 100000 --threads 2 --seed 1\n  \
augur-lab datagen --out data.bin --positions 10000000 --book openings.epd --random-plies 4\n  \
augur-lab datagen --out gen1.bin --positions 1000000 --eval nnue --eval-file gen1.nnue --seed 3\n  \
augur-lab convert data.bin --limit 10"
)]
pub struct DatagenArgs {
    /// `--out` (required), `--threads`, `--quiet`, `--summary` (games, positions, results,
    /// the file's SHA-256).
    #[command(flatten)]
    pub run: RunArgs,
    /// Stop when the file holds this many games (counting earlier runs).
    #[arg(long)]
    pub games: Option<u64>,
    /// Stop after the game that brings the file to this many positions.
    #[arg(long)]
    pub positions: Option<u64>,
    /// Soft node limit per move: no new iteration once crossed.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Hard node cap per move (default: 40 × --nodes).
    #[arg(long)]
    pub hard_nodes: Option<u64>,
    /// Seed of the random openings; the same seed and settings give the same games.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Random legal plies played from the start (or book) position.
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Start positions, EPD or PGN (position after each game's moves); default: the standard
    /// start position.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Hash table per game, MiB. 2 MiB holds a 5,000-node search many times over and stays
    /// in cache: 26% less CPU a position than 16 MiB, no strength difference resolved at 5,000 nodes
    /// (docs/datagen.md, "Throughput").
    #[arg(long, default_value_t = 2)]
    pub hash: usize,
    /// Win adjudication: the score from white's view at or beyond ±this (cp) ...
    #[arg(long, default_value_t = Adjudication::DEFAULT.win_score)]
    pub win_score: i32,
    /// ... for this many consecutive plies (both sides' searches agree).
    #[arg(long, default_value_t = Adjudication::DEFAULT.win_plies)]
    pub win_plies: u32,
    /// Draw adjudication from this ply of the game on (random plies included) ...
    #[arg(long, default_value_t = Adjudication::DEFAULT.draw_min_ply)]
    pub draw_ply: u32,
    /// ... when |score| stays within this (cp) ...
    #[arg(long, default_value_t = Adjudication::DEFAULT.draw_score)]
    pub draw_score: i32,
    /// ... for this many consecutive plies.
    #[arg(long, default_value_t = Adjudication::DEFAULT.draw_plies)]
    pub draw_plies: u32,
    /// The evaluation the games are played with (`nnue`, the engine's default; `hce` or
    /// `default`; `classic`). A file made with the HCE resumes only with `--eval hce`: the
    /// journal's settings line must match.
    #[arg(long, default_value_t = augur::search::config::SearchConfig::default().eval)]
    pub eval: augur::eval::EvalKind,
    /// With `--eval nnue`: the network file (default: the one compiled in).
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
    /// Search options for every game, `Name=Value` (as `augur bench --set`; several may be
    /// joined with commas, as in `depth --variant` and `scaling -t` specs); repeatable.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

/// The searcher's configuration from `--eval`, `--eval-file` and `--set`, and what the
/// journal's settings line adds for them: nothing for the defaults (so that files made before
/// these flags resume), else the evaluation, the network's SHA-256 and the options.
fn engine_settings(args: &DatagenArgs) -> Result<(augur::search::config::SearchConfig, String)> {
    use crate::kit::provenance::{sha256_file, sha256_hex};
    use augur::eval::{nnue, EvalKind};
    let mut line = String::new();
    if args.eval != EvalKind::Hce {
        line += &format!(" eval={}", args.eval);
    }
    let mut network = None;
    match (&args.eval_file, args.eval) {
        (Some(path), EvalKind::Nnue) => {
            network = Some(Arc::new(nnue::Network::load(path)?));
            line += &format!(" net={}", sha256_file(path)?);
        }
        (Some(_), _) => anyhow::bail!("--eval-file needs --eval nnue"),
        (None, EvalKind::Nnue) => line += &format!(" net={}", sha256_hex(nnue::DEFAULT_NETWORK)),
        (None, _) => {}
    }
    // `Eval` first, so that the options go through the engine's own table in one pass.
    let mut options = vec![("Eval".to_string(), args.eval.to_string())];
    for s in &args.set {
        let pairs = crate::variants::parse_options(s, &format!("--set '{s}'"))
            .with_context(|| format!("--set '{s}': expected Name=Value"))?;
        for (name, value) in &pairs {
            line += &format!(" set={name}={value}");
        }
        options.extend(pairs);
    }
    let (mut config, others) = crate::variants::search_config(&options)?;
    if let Some(name) = others.first() {
        anyhow::bail!("--set: '{name}' is not a search option");
    }
    if let Some(network) = network {
        config.network = network;
    }
    Ok((config, line))
}

#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// A file of bullet ChessBoard records (datagen output), written out as text; or a match
    /// PGN (`.pgn`, the games of `augur-lab match`), whose scored quiet positions are written
    /// out as records.
    pub input: PathBuf,
    /// Output. For records: one `FEN | score | result` line per record, score and result from
    /// white's view as bullet's text format has them (default: standard output). For a PGN:
    /// the record file to write (required; it is replaced).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Convert only the first N records (positions).
    #[arg(long)]
    pub limit: Option<u64>,
    /// For a PGN: the first game to convert (1-based), so that a live match is converted in
    /// pieces that never share a game.
    #[arg(long, default_value_t = 1)]
    pub first_game: u64,
    /// For a PGN: the last game to convert (default: the last whole game in the file).
    #[arg(long)]
    pub last_game: Option<u64>,
    /// For a PGN: write the output's manifest line (`corpus::manifest::Line`) as the summary.
    #[command(flatten)]
    pub summary: crate::kit::summary::SummaryArgs,
}

// [pgn-data] Every SPRT the lab plays at a fixed node count is self-play with a search score
// on each move, so its PGN is training data for free; as records the network's trainer and
// bullet read it like datagen's. The positions kept are the tuner's (`data::pgn`): quiet moves
// with a centipawn score, not in check, of games that ended normally.
fn pgn_to_records(args: &ConvertArgs, out: &Path) -> Result<crate::corpus::manifest::Line> {
    let (input, limit) = (&args.input, args.limit);
    let range = crate::data::pgn::Games {
        first: args.first_game,
        last: args.last_game,
    };
    let (samples, read) = crate::data::pgn::read_range(input, range)?;
    let file =
        std::fs::File::create(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut writer = records::RecordWriter::new(BufWriter::new(file));
    let mut n = 0;
    for s in samples
        .into_iter()
        .take(limit.map_or(usize::MAX, |l| l as usize))
    {
        let stm = s.board.side_to_move();
        let pos = Position::from_board(s.board, false);
        // `white_view` is its own inverse: it turns white's score into the mover's too.
        let stm_score = crate::data::labelled::white_view(s.score.unwrap_or(0), stm);
        let white_result = records::Outcome::from_value(s.result);
        let result = if stm == cozy_chess::Color::White {
            white_result
        } else {
            white_result.flip()
        };
        let score = stm_score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        writer
            .write(&records::Record::from_position(&pos, score, result))
            .with_context(|| format!("cannot write {}", out.display()))?;
        n += 1;
    }
    writer
        .flush()
        .with_context(|| format!("cannot write {}", out.display()))?;
    let games = read.last + 1 - read.first;
    Ok(crate::corpus::manifest::Line {
        file: out.display().to_string(),
        sha256: crate::kit::provenance::sha256_file(out)?,
        positions: n,
        games,
        source: crate::corpus::manifest::Source::Pgn,
        // The match's file name, not its path: the same games wherever the file lies.
        origin: input.file_name().map_or_else(
            || input.display().to_string(),
            |f| f.to_string_lossy().into_owned(),
        ),
        first_game: read.first,
        last_game: read.last,
        engine: crate::kit::provenance::source_commit(),
    })
}

/// The settings line of the journal: everything that decides the games (`engine`: what
/// `engine_settings` adds).
fn settings_line(s: &GameSettings, book: Option<&Path>, engine: &str) -> String {
    let a = &s.adjudication;
    format!(
        "seed={} nodes={} hard_nodes={} random_plies={} book={} hash={} opening_max={} \
         win={}x{} draw={}/{}x{} max_plies={}{engine}",
        s.seed,
        s.soft_nodes,
        s.hard_nodes,
        s.random_plies,
        book.map_or("-".to_string(), |p| p.display().to_string()),
        s.hash_mib,
        s.opening_max_score,
        a.win_score,
        a.win_plies,
        a.draw_min_ply,
        a.draw_score,
        a.draw_plies,
        a.max_plies
    )
}

fn load_book(path: &Path) -> Result<Vec<String>> {
    let openings = augur_arena::game::openings::load(Some(path), None)?;
    for o in &openings {
        Position::from_fen(&o.fen, false)
            .map_err(|e| anyhow::anyhow!("{}: '{}': {e}", o.origin, o.fen))?;
    }
    Ok(openings.into_iter().map(|o| o.fen).collect())
}

/// Totals so far, for the progress line and the summary.
#[derive(Default)]
struct Tally {
    games: u64,
    records: u64,
    white: u64,
    draws: u64,
    black: u64,
    plies: u64,
}

/// `augur-lab datagen`: plays until the file holds what was asked, then writes its summary, the
/// file's manifest line (a campaign's stage is done when that exists), also when a rerun has
/// nothing to do. The commit that began the file is recorded beside it once
/// (`FILE.provenance.toml`), for the manifest.
pub fn run(args: &DatagenArgs) -> Result<()> {
    let out = args.run.out()?;
    if !crate::kit::provenance::beside(out).exists() {
        if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        crate::kit::provenance::Provenance::capture(args, Some(args.seed)).write_beside(out)?;
    }
    generate(args)?;
    if args.run.output.summary.summary.is_some() {
        args.run
            .output
            .summary
            .write("datagen", &crate::corpus::line_of(out)?)?;
    }
    Ok(())
}

fn generate(args: &DatagenArgs) -> Result<()> {
    let threads = args.run.threads();
    let out = args.run.out()?;
    let (config, engine_line) = engine_settings(args)?;
    let settings = GameSettings {
        seed: args.seed,
        soft_nodes: args.nodes.max(1),
        hard_nodes: args.hard_nodes.unwrap_or(args.nodes.saturating_mul(40)),
        random_plies: args.random_plies,
        book: match &args.book {
            Some(p) => load_book(p)?,
            None => Vec::new(),
        },
        hash_mib: args.hash.max(1),
        opening_max_score: 300,
        adjudication: Adjudication {
            win_score: args.win_score,
            win_plies: args.win_plies,
            draw_min_ply: args.draw_ply,
            draw_score: args.draw_score,
            draw_plies: args.draw_plies,
            ..Adjudication::default()
        },
        config,
    };
    let (mut run, resumed) = journal::open(
        out,
        &settings_line(&settings, args.book.as_deref(), &engine_line),
    )?;
    if resumed.games > 0 || resumed.cut_bytes > 0 {
        eprintln!(
            "resuming {}: {} games, {} positions already there{}",
            out.display(),
            resumed.games,
            resumed.records,
            if resumed.cut_bytes > 0 {
                format!("; cut {} bytes of unfinished game data", resumed.cut_bytes)
            } else {
                String::new()
            }
        );
    }
    let done = |t: &Tally| match (args.games, args.positions) {
        (Some(g), _) => t.games >= g,
        (_, Some(p)) => t.records >= p,
        _ => true,
    };
    let mut tally = Tally {
        games: resumed.games,
        records: resumed.records,
        ..Default::default()
    };
    if done(&tally) {
        eprintln!(
            "{}: already {} games, {} positions; nothing to do",
            out.display(),
            tally.games,
            tally.records
        );
        drop(run);
        return Ok(());
    }

    let control = Arc::new(Control::default());
    let game_limit = args.games.map_or(usize::MAX, |g| g as usize);
    let mut meter = Meter::new(args, &tally);
    // [datagen-empty] Games that keep no position (a book of positions that end at once, or
    // settings that filter every one) would never reach --positions: stop after a long run of them.
    let mut empty_in_a_row = 0u32;
    // Games are written in index order (kit::jobs hands them over in order), so the file does
    // not depend on the number of threads.
    let outcome = jobs::run_in_order(
        threads,
        resumed.games as usize..game_limit,
        || Ok(()),
        |_, index| {
            let game = selfplay::play_game(&settings, index as u64, &control);
            if game.is_err() {
                control.stop.store(true, Ordering::Relaxed);
            }
            game
        },
        |index, game| {
            // A game is cut short only once the run has what it wants.
            let Some(g) = game else {
                return Ok(ControlFlow::Break(()));
            };
            run.write_game(index as u64, &g.records)
                .with_context(|| format!("writing {}", out.display()))?;
            empty_in_a_row = if g.records.is_empty() {
                empty_in_a_row + 1
            } else {
                0
            };
            if empty_in_a_row >= MAX_EMPTY_GAMES {
                control.stop.store(true, Ordering::Relaxed);
                anyhow::bail!(
                    "{MAX_EMPTY_GAMES} games in a row kept no position (games {}..={}): does \
                     every opening end at once, or do the settings filter every position?",
                    index + 1 - MAX_EMPTY_GAMES as usize,
                    index
                );
            }
            tally.games += 1;
            tally.records += g.records.len() as u64;
            tally.plies += u64::from(g.plies);
            match g.white {
                records::Outcome::Win => tally.white += 1,
                records::Outcome::Draw => tally.draws += 1,
                records::Outcome::Loss => tally.black += 1,
            }
            if done(&tally) {
                // The searches still running are stopped: their games are not needed.
                control.stop.store(true, Ordering::Relaxed);
                return Ok(ControlFlow::Break(()));
            }
            meter.update(&tally, false);
            Ok(ControlFlow::Continue(()))
        },
    );
    meter.update(&tally, true);
    meter.finish();
    outcome?;
    eprintln!(
        "{}: {} games, {} positions; results this run (white wins-draws-black wins) {}-{}-{}",
        out.display(),
        tally.games,
        tally.records,
        tally.white,
        tally.draws,
        tally.black
    );
    drop(run);
    Ok(())
}

/// The progress display: the arena's bar on a terminal (redrawn at every game), otherwise (a
/// log file) a plain line every `LOG_EVERY`. Rates count only this run's games.
struct Meter {
    progress: Progress,
    by_games: bool,
    tty: bool,
    start: Instant,
    first: (u64, u64),
    last_log: Instant,
}

const LOG_EVERY: Duration = Duration::from_secs(60);

impl Meter {
    fn new(args: &DatagenArgs, t: &Tally) -> Meter {
        let by_games = args.games.is_some();
        let (total, done, unit) = match (args.games, args.positions) {
            (Some(g), _) => (g, t.games, "games"),
            (_, p) => (p.unwrap_or(0), t.records, "positions"),
        };
        Meter {
            progress: Progress::with_unit(
                total as usize,
                done as usize,
                !args.run.output.quiet,
                unit,
            ),
            by_games,
            tty: std::io::stderr().is_terminal(),
            start: Instant::now(),
            first: (t.games, t.records),
            last_log: Instant::now(),
        }
    }

    /// What the bar does not show already: the other count, positions/s, results, game length.
    fn stats(&self, t: &Tally) -> String {
        let secs = self.start.elapsed().as_secs_f64().max(1e-3);
        let games = t.games - self.first.0;
        let other = if self.by_games {
            format!(
                "games, {} positions, {:.0} pos/s",
                t.records,
                (t.records - self.first.1) as f64 / secs
            )
        } else {
            format!("positions, {} games", t.games)
        };
        format!(
            "{other} | W-D-B {}-{}-{} | {:.0} plies/game",
            t.white,
            t.draws,
            t.black,
            t.plies as f64 / games.max(1) as f64
        )
    }

    fn update(&mut self, t: &Tally, last: bool) {
        if self.tty || last || self.last_log.elapsed() >= LOG_EVERY {
            self.last_log = Instant::now();
            let done = if self.by_games { t.games } else { t.records };
            let stats = self.stats(t);
            self.progress.update(done as usize, &stats);
        }
    }

    fn finish(&mut self) {
        self.progress.finish();
    }
}

/// [datagen-empty] Consecutive games without a kept position that end a run: ordinary play
/// keeps positions from nearly every game, so this many in a row is a setting, not chance.
const MAX_EMPTY_GAMES: u32 = 1000;

/// `augur-lab convert`: records to `FEN | score | result` text.
pub fn convert(args: &ConvertArgs) -> Result<()> {
    let journal = journal::journal_path(&args.input);
    let read = [args.input.as_path(), journal.as_path()];
    for (flag, out) in [("--out", &args.out), ("--summary", &args.summary.summary)] {
        if let Some(out) = out {
            refuse_inputs(flag, out, &read)?;
        }
    }
    if args.input.extension().is_some_and(|e| e == "pgn") {
        let out = args
            .out
            .as_deref()
            .context("converting a PGN to records needs --out FILE")?;
        let line = pgn_to_records(args, out)?;
        eprintln!(
            "{} positions of games {}..={} written to {}",
            line.positions,
            line.first_game,
            line.last_game,
            out.display()
        );
        return args.summary.write("convert", &line);
    }
    let reader = RecordReader::open(&args.input)?;
    let mut out: Box<dyn Write> = match &args.out {
        Some(p) => Box::new(BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let limit = args.limit.unwrap_or(u64::MAX);
    for (i, record) in reader.enumerate() {
        if i as u64 >= limit {
            break;
        }
        let record = record.with_context(|| args.input.display().to_string())?;
        writeln!(out, "{}", record.to_text())?;
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [pgn-data] A match PGN becomes one record per scored quiet position, with the score
    /// and the result turned to the side to move's view.
    #[test]
    fn a_match_pgn_becomes_records_from_the_movers_view() {
        let dir = std::env::temp_dir().join(format!("augur-convert-pgn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pgn = dir.join("m.pgn");
        std::fs::write(
            &pgn,
            "[Result \"0-1\"]\n[Termination \"normal\"]\n\n\
             1. e4 {+0.30/9 0.008s} e5 {-0.20/8 0.007s} 2. Nf3 {+M3/9} Nc6 {+0.15/8} 0-1\n",
        )
        .unwrap();
        let out = dir.join("m.bin");
        let args = ConvertArgs {
            input: pgn,
            out: Some(out.clone()),
            limit: None,
            first_game: 1,
            last_game: None,
            summary: Default::default(),
        };
        convert(&args).unwrap();
        let records: Vec<_> = RecordReader::open(&out)
            .unwrap()
            .map(|r| r.unwrap())
            .collect();
        // e4 (white +30), e5 (black −20), Nc6 (black +15); Nf3 has a mate score.
        let seen: Vec<_> = records
            .iter()
            .map(|r| (r.side_to_move(), r.score(), r.result()))
            .collect();
        use cozy_chess::Color::{Black, White};
        use records::Outcome::{Loss, Win};
        assert_eq!(
            seen,
            vec![(White, 30, Loss), (Black, -20, Win), (Black, 15, Win)]
        );
        assert_eq!(
            records[1].to_fen().split(' ').next(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR")
        );
        let no_out = ConvertArgs {
            input: dir.join("m.pgn"),
            out: None,
            limit: None,
            first_game: 1,
            last_game: None,
            summary: Default::default(),
        };
        assert!(format!("{:#}", convert(&no_out).unwrap_err()).contains("--out"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
