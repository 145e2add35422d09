//! `augur-lab mpd`: the maximum positional difference (MPD) of an evaluation, measured the SPP
//! thesis's way (section 4.6: self-play from random openings, recording the largest
//! difference between quiet siblings), plus its distribution over sampled game positions per
//! evaluation and game phase, how often a fixed MPD is exceeded, and how the sound per-node
//! bound of `spp-exact` prunes compared with the fixed MPD of `spp`.
//!
//! Quiet siblings (thesis section 3.2): the children of one position reached by moves that
//! neither capture, promote nor give check. Their spread is max - min of their evaluations
//! from the mover's point of view; SPP's pruning is sound exactly when MPD bounds the spread.

use crate::data::bundled::MPD_SAMPLE1000;
use crate::kit::chart::{CategoryChart, Chart, Series, Style, YScale};
use crate::kit::provenance::{in_process_engine, sha256_hex};
use crate::kit::result_log::{self, Header};
use crate::spp::compare::{self, analysis, suite};
use crate::spp::material;
use anyhow::{anyhow, bail, Context, Result};
use augur::eval::{self, classic, EvalKind};
use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::limits::Limits;
use augur::search::textbook::{self, Algorithm, SiblingLog, TextbookConfig};
use augur::search::SearchTeam;
use augur_arena::progress::Progress;
use clap::Args;
use cozy_chess::{Move, Piece};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Openings for the self-play games (shared with `augur-lab match`).
pub const OPENINGS: &str = augur_arena::game::openings::BUNDLED_EPD;

#[derive(Args, Debug, Clone)]
pub struct MpdArgs {
    /// Self-play games (the thesis played 10).
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Fixed depth of the engine search that plays each move.
    #[arg(long, default_value_t = 4)]
    pub play_depth: i32,
    /// Evaluation the players use (spreads are recorded for all three evaluations).
    #[arg(long, default_value = "classic")]
    pub play_eval: String,
    /// A game ends as a draw after this many plies.
    #[arg(long, default_value_t = 200)]
    pub max_plies: usize,
    /// Opening positions (EPD/FEN lines; default: the bundled 8-move openings). Game i starts
    /// from opening i * 7 mod count, so the choice is spread and repeatable.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Positions to sample (default: bundled 1000 of games-sample.epd; the full file is
    /// ../shared/data/positions/games-sample.epd).
    #[arg(long)]
    pub epd: Option<PathBuf>,
    /// Use only the first N positions of --epd.
    #[arg(long)]
    pub limit: Option<usize>,
    /// The fixed MPD whose exceedance is reported (the thesis's 70).
    #[arg(long, default_value_t = 70)]
    pub mpd: i32,
    /// Positions (the first N of the sample) searched with alphabeta, spp and spp-exact.
    #[arg(long, default_value_t = 40)]
    pub prune_positions: usize,
    /// Depth of that comparison.
    #[arg(long, default_value_t = 5)]
    pub prune_depth: i32,
    /// Siblings met in the search (the thesis's own measurement): the quiet siblings of every
    /// depth-1 node of an alpha-beta search to --search-depth over these positions (EPD;
    /// default: the --prune-positions positions of the sample). E.g. the endgame suite
    /// ../shared/data/endgames/endgames.epd.
    #[arg(long)]
    pub search_epd: Option<PathBuf>,
    /// Depth of the alpha-beta searches whose siblings are recorded (0: skip).
    #[arg(long, default_value_t = 5)]
    pub search_depth: i32,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write spreads.csv, summary.md and charts here. The self-play games (selfplay.csv) and
    /// the pruning searches (pruning.csv) are written as they finish, and a restart of the
    /// same command resumes them (other settings are refused).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    Opening,
    Middlegame,
    Endgame,
}

impl Phase {
    pub const ALL: [Phase; 3] = [Phase::Opening, Phase::Middlegame, Phase::Endgame];
    pub fn name(self) -> &'static str {
        match self {
            Phase::Opening => "opening",
            Phase::Middlegame => "middlegame",
            Phase::Endgame => "endgame",
        }
    }
}

/// Game phase: endgame by Crafty's stage (`is_endgame_stage`: both sides' non-pawn material,
/// Q=9 R=5 B=N=3, below 15); otherwise opening up to move 15 when the move number is known,
/// else opening while both sides keep all their pieces (non-pawn weight 31); otherwise
/// middlegame.
pub fn phase(pos: &Position, fullmove: Option<u32>) -> Phase {
    let b = pos.board();
    if eval::is_endgame_stage(b) {
        return Phase::Endgame;
    }
    let opening = match fullmove {
        Some(m) => m <= 15,
        None => [cozy_chess::Color::White, cozy_chess::Color::Black]
            .iter()
            .all(|&c| eval::non_pawn_weight(b, c) >= 31),
    };
    if opening {
        Phase::Opening
    } else {
        Phase::Middlegame
    }
}

/// Whether `mv` captures (en passant included; castling, encoded king-takes-own-rook, not).
pub fn is_capture(pos: &Position, mv: Move) -> bool {
    let b = pos.board();
    let us = b.side_to_move();
    if b.colors(!us).has(mv.to) {
        return true;
    }
    b.piece_on(mv.from) == Some(Piece::Pawn) && mv.from.file() != mv.to.file()
}

/// Whether `mv` is castling (cozy-chess encodes it as the king moving onto its own rook).
pub fn is_castle(pos: &Position, mv: Move) -> bool {
    let b = pos.board();
    b.piece_on(mv.from) == Some(Piece::King) && b.colors(b.side_to_move()).has(mv.to)
}

/// The evaluations, from the mover's point of view, of the quiet children of `pos` (no
/// capture, promotion or check: the thesis's siblings with spatial locality), with the moves.
pub fn quiet_children(pos: &Position, kind: EvalKind) -> Vec<(Move, i32)> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for mv in pos.legal_moves() {
        if mv.promotion.is_some() || is_capture(pos, mv) {
            continue;
        }
        p.make(mv);
        if !p.in_check() {
            out.push((mv, -eval::evaluate(&p, kind)));
        }
        p.unmake();
    }
    out
}

/// One position's measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub phase: Phase,
    /// Quiet-sibling spread (max - min) per evaluation, `[classic, default, nnue]`; `None`
    /// with fewer than two quiet children.
    pub spread: [Option<i32>; 3],
    /// Classic: the largest rise of the mover's evaluation over the parent's by one quiet
    /// non-castling move, and `quiet_gain_bound`, the sound bound `spp-exact` uses for it.
    pub gain: Option<i32>,
    pub bound: i32,
    pub fen: String,
}

impl Sample {
    /// The fields as both result files write them: phase, the three spreads, gain, bound, FEN
    /// (a missing spread or gain is empty).
    fn fields(&self) -> [String; 7] {
        let opt = |v: Option<i32>| v.map_or(String::new(), |x| x.to_string());
        [
            self.phase.name().to_string(),
            opt(self.spread[0]),
            opt(self.spread[1]),
            opt(self.spread[2]),
            opt(self.gain),
            self.bound.to_string(),
            self.fen.clone(),
        ]
    }
}

/// [nnue] The network (`EvalFile`'s, the embedded one by default) is measured beside the two
/// hand-written evaluations on the same positions: its spread is what SPP would have to bound
/// if the search evaluated with it.
pub const KINDS: [EvalKind; 3] = [EvalKind::Classic, EvalKind::Default, EvalKind::Nnue];

pub fn measure_position(pos: &Position, fullmove: Option<u32>) -> Sample {
    let mut spread = [None; 3];
    let mut gain = None;
    for (k, &kind) in KINDS.iter().enumerate() {
        let kids = quiet_children(pos, kind);
        if kids.len() >= 2 {
            let max = kids.iter().map(|c| c.1).max().unwrap_or(0);
            let min = kids.iter().map(|c| c.1).min().unwrap_or(0);
            spread[k] = Some(max - min);
        }
        if kind == EvalKind::Classic {
            let parent = eval::evaluate(pos, kind);
            gain = kids
                .iter()
                .filter(|(mv, _)| !is_castle(pos, *mv))
                .map(|(_, v)| v - parent)
                .max();
        }
    }
    Sample {
        phase: phase(pos, fullmove),
        spread,
        gain,
        bound: classic::quiet_gain_bound(pos.board()),
        fen: pos.fen(),
    }
}

/// The position at the start of each line (FEN or EPD) with its move number (EPD `fmvn`, or
/// the sixth FEN field).
pub fn read_positions(text: &str, source: &str) -> Result<Vec<(Position, Option<u32>)>> {
    let mut out = Vec::new();
    for e in crate::data::epd::parse_epd(text, source)? {
        let pos = Position::from_fen(&e.fen, false)
            .map_err(|err| anyhow!("{source}:{}: {err}", e.line))?;
        let fullmove = match e.fen.split_whitespace().nth(5) {
            Some(n) => n.parse().ok(),
            None => e.op("fmvn").and_then(|v| v.parse().ok()),
        };
        out.push((pos, fullmove));
    }
    if out.is_empty() {
        bail!("{source}: no positions");
    }
    Ok(out)
}

/// Plays one self-play game with a fixed-depth engine search per move, measuring every
/// position visited (the thesis's automatic MPD search).
pub fn self_play(
    start: &Position,
    start_move: u32,
    depth: i32,
    play_eval: EvalKind,
    max_plies: usize,
) -> Vec<Sample> {
    let config = SearchConfig {
        eval: play_eval,
        ..SearchConfig::default()
    };
    let mut s = SearchTeam::new(config, 8).expect("8 MiB for the hash table");
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let mut pos = start.clone();
    let root = pos.ply_count();
    let mut out = Vec::new();
    for ply in 0..max_plies {
        if !pos.has_legal_move() || pos.is_draw(root) {
            break;
        }
        out.push(measure_position(&pos, Some(start_move + ply as u32 / 2)));
        let Some(mv) = s.search(&pos, &limits).best else {
            break;
        };
        pos.make(mv);
    }
    out
}

/// The columns of `selfplay.csv`, mpd's result file for the self-play games: one line per
/// game, its samples joined by `|`, each `phase;classic_spread;default_spread;nnue_spread;
/// classic_gain;bound;fen` (an empty field for none).
pub const GAME_COLUMNS: &str = "game,samples,data";

/// A game's line of `selfplay.csv`.
pub fn game_line(game: usize, samples: &[Sample]) -> String {
    let data: Vec<String> = samples.iter().map(|s| s.fields().join(";")).collect();
    format!("{game},{},{}", samples.len(), data.join("|"))
}

/// Reads a game's line back.
pub fn parse_game_line(line: &str) -> Result<(usize, Vec<Sample>)> {
    let mut f = line.splitn(3, ',');
    let (Some(game), Some(count), Some(data)) = (f.next(), f.next(), f.next()) else {
        bail!("expected the columns {GAME_COLUMNS}");
    };
    let game: usize = game.parse().with_context(|| format!("bad game '{game}'"))?;
    let count: usize = count
        .parse()
        .with_context(|| format!("bad count '{count}'"))?;
    let opt = |t: &str| -> Result<Option<i32>> {
        if t.is_empty() {
            Ok(None)
        } else {
            Ok(Some(
                t.parse().with_context(|| format!("bad number '{t}'"))?,
            ))
        }
    };
    let mut samples = Vec::new();
    for item in data.split('|').filter(|t| !t.is_empty()) {
        let x: Vec<&str> = item.splitn(7, ';').collect();
        if x.len() != 7 {
            bail!("bad sample '{item}' (7 fields: phase;classic;default;nnue;gain;bound;fen)");
        }
        samples.push(Sample {
            phase: Phase::ALL
                .into_iter()
                .find(|p| p.name() == x[0])
                .ok_or_else(|| anyhow!("bad phase '{}'", x[0]))?,
            spread: [opt(x[1])?, opt(x[2])?, opt(x[3])?],
            gain: opt(x[4])?,
            bound: x[5]
                .parse()
                .with_context(|| format!("bad bound '{}'", x[5]))?,
            fen: x[6].to_string(),
        });
    }
    if samples.len() != count {
        bail!(
            "game {game}: {} samples, the count says {count}",
            samples.len()
        );
    }
    Ok((game, samples))
}

/// Nearest-rank percentile of sorted values (q in 0..=1).
pub fn percentile(sorted: &[i32], q: f64) -> Option<i32> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// Distribution summary of spreads: count, max, 99.9th and 99th percentiles, median, and
/// the share above `mpd`.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    pub n: usize,
    pub max: i32,
    pub p999: i32,
    pub p99: i32,
    pub median: i32,
    pub over: usize,
}

pub fn distribution(values: &[i32], mpd: i32) -> Option<Distribution> {
    let mut v = values.to_vec();
    v.sort_unstable();
    Some(Distribution {
        n: v.len(),
        max: *v.last()?,
        p999: percentile(&v, 0.999)?,
        p99: percentile(&v, 0.99)?,
        median: percentile(&v, 0.5)?,
        over: v.iter().filter(|&&x| x > mpd).count(),
    })
}

fn dist_row(s: &mut String, label: &str, phase: &str, d: &Distribution) {
    let _ = writeln!(
        s,
        "| {label} | {phase} | {} | {} | {} | {} | {} | {:.2}% |",
        d.n,
        d.max,
        d.p999,
        d.p99,
        d.median,
        100.0 * d.over as f64 / d.n.max(1) as f64
    );
}

fn dist_table(s: &mut String, title: &str, samples: &[Sample], mpd: i32) {
    let _ = writeln!(s, "## {title}\n");
    let _ = writeln!(
        s,
        "| eval | phase | positions | max | 99.9% | 99% | median | spread > {mpd} |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|---:|---:|");
    for (k, kind) in KINDS.iter().enumerate() {
        for ph in Phase::ALL.iter().map(Some).chain([None]) {
            let v: Vec<i32> = samples
                .iter()
                .filter(|x| ph.is_none_or(|p| x.phase == *p))
                .filter_map(|x| x.spread[k])
                .collect();
            if let Some(d) = distribution(&v, mpd) {
                dist_row(s, &kind.to_string(), ph.map_or("all", |p| p.name()), &d);
            }
        }
    }
    let _ = writeln!(s);
}

pub fn run(args: &MpdArgs) -> Result<()> {
    let play_eval: EvalKind = args.play_eval.parse()?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let mut md = String::from("# augur-lab mpd\n\n");
    let provenance = crate::kit::provenance::Provenance::capture(args, None);
    md.push_str(&provenance.markdown());

    // 1. The thesis's method: self-play, largest quiet-sibling spread seen.
    let openings_text = match &args.openings {
        Some(p) => std::fs::read_to_string(p)
            .with_context(|| format!("reading the openings {}", p.display()))?,
        None => OPENINGS.to_string(),
    };
    let openings = read_positions(&openings_text, "openings")?;
    let mut games: Vec<Option<Vec<Sample>>> = vec![None; args.games];
    // With --out the games go to selfplay.csv as they finish, and a restart resumes.
    let mut game_log = None;
    if let Some(dir) = &args.out {
        let header = Header {
            kind: "mpd self-play".into(),
            settings: vec![
                ("games".into(), args.games.to_string()),
                ("play_depth".into(), args.play_depth.to_string()),
                ("play_eval".into(), play_eval.to_string()),
                ("max_plies".into(), args.max_plies.to_string()),
                (
                    "openings".into(),
                    args.openings
                        .as_ref()
                        .map_or("bundled".into(), |p| p.display().to_string()),
                ),
                (
                    "openings_sha256".into(),
                    sha256_hex(openings_text.as_bytes()),
                ),
                ("engine".into(), in_process_engine()),
            ],
            provenance: provenance.clone(),
            columns: GAME_COLUMNS.into(),
        };
        let path = dir.join("selfplay.csv");
        let resumed = result_log::open(&path, &header)?;
        for (i, line) in resumed.records.iter().enumerate() {
            let (g, samples) = parse_game_line(line)
                .with_context(|| format!("{}: record {}", path.display(), i + 1))?;
            match games.get_mut(g) {
                Some(slot @ None) => *slot = Some(samples),
                _ => bail!(
                    "{}: game {g} is twice in the file or not of this run",
                    path.display()
                ),
            }
        }
        game_log = Some(resumed.log);
    }
    let todo: Vec<usize> = (0..args.games).filter(|&g| games[g].is_none()).collect();
    if !todo.is_empty() {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let (tx, rx) = std::sync::mpsc::channel::<(usize, Vec<Sample>)>();
        let initial = args.games - todo.len();
        let mut bar = Progress::new(args.games, initial, !args.quiet);
        let mut error = None;
        std::thread::scope(|scope| {
            for _ in 0..threads.min(todo.len()) {
                let tx = tx.clone();
                let next = &next;
                let openings = &openings;
                let todo = &todo;
                scope.spawn(move || loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&g) = todo.get(i) else {
                        break;
                    };
                    let (pos, mv) = &openings[(g * 7) % openings.len()];
                    let samples = self_play(
                        pos,
                        mv.unwrap_or(9),
                        args.play_depth,
                        play_eval,
                        args.max_plies,
                    );
                    if tx.send((g, samples)).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            let mut done = initial;
            for (g, samples) in rx {
                if let Some(log) = &mut game_log {
                    if let Err(e) = log.append(&[game_line(g, &samples)]) {
                        // Stop the workers: they find the channel closed.
                        next.store(usize::MAX / 2, std::sync::atomic::Ordering::Relaxed);
                        error = Some(e);
                        break;
                    }
                }
                games[g] = Some(samples);
                done += 1;
                bar.update(done, "self-play games");
            }
        });
        bar.finish();
        if let Some(e) = error {
            return Err(e);
        }
    }
    let games: Vec<Vec<Sample>> = games.into_iter().map(Option::unwrap_or_default).collect();
    if let Some(log) = &mut game_log {
        let lines: Vec<String> = games
            .iter()
            .enumerate()
            .map(|(g, s)| game_line(g, s))
            .collect();
        log.rewrite(&lines)?;
    }
    let played: Vec<Sample> = games.into_iter().flatten().collect();
    let _ = writeln!(
        md,
        "## Self-play (the thesis's method)\n\n{} games from the openings, {} plies at most, \
         each move a depth-{} engine search with the {} evaluation; {} positions visited.\n",
        args.games,
        args.max_plies,
        args.play_depth,
        play_eval,
        played.len()
    );
    let _ = writeln!(
        md,
        "| eval | MPD found (largest quiet-sibling spread) | at |"
    );
    let _ = writeln!(md, "|---|---:|---|");
    for (k, kind) in KINDS.iter().enumerate() {
        if let Some(best) = played
            .iter()
            .filter(|s| s.spread[k].is_some())
            .max_by_key(|s| s.spread[k])
        {
            let _ = writeln!(
                md,
                "| {kind} | {} | `{}` |",
                best.spread[k].unwrap_or(0),
                best.fen
            );
        }
    }
    let _ = writeln!(md);
    dist_table(
        &mut md,
        "Self-play positions: quiet-sibling spread",
        &played,
        args.mpd,
    );

    // 2. The distribution over sampled game positions.
    let (epd_text, epd_name) = match &args.epd {
        Some(p) => (
            std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?,
            p.display().to_string(),
        ),
        None => (
            MPD_SAMPLE1000.to_string(),
            "mpd-sample1000.epd (bundled)".to_string(),
        ),
    };
    let mut positions = read_positions(&epd_text, &epd_name)?;
    if let Some(n) = args.limit {
        positions.truncate(n.max(1));
    }
    let sampled: Vec<Sample> = positions
        .iter()
        .map(|(p, m)| measure_position(p, *m))
        .collect();
    dist_table(
        &mut md,
        &format!(
            "Sampled positions ({epd_name}, {}): quiet-sibling spread",
            sampled.len()
        ),
        &sampled,
        args.mpd,
    );

    // 3. spp-exact's per-node bound against the fixed MPD.
    let all: Vec<&Sample> = played.iter().chain(sampled.iter()).collect();
    // The spread against the material (thesis future work: MPD = a * material + b?).
    let material_fits = material::fits(&all);
    material::section(
        &mut md,
        &material_fits,
        &format!(
            "the {} self-play and {} sampled positions",
            played.len(),
            sampled.len()
        ),
    );
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for f in &material_fits {
            let name = format!("material_{}_{}", f.axis.key(), f.eval);
            Chart::from(material::chart(f)).save(dir, &name)?;
        }
    }
    let mut bounds: Vec<i32> = all.iter().map(|s| s.bound).collect();
    bounds.sort_unstable();
    let violations = all
        .iter()
        .filter(|s| s.gain.is_some_and(|g| g > s.bound))
        .count();
    let gains: Vec<i32> = all.iter().filter_map(|s| s.gain).collect();
    let _ = writeln!(
        md,
        "## spp-exact's per-node bound (classic `quiet_gain_bound`)\n\n\
         Over {} positions (self-play and sample): bound median {}, 99% {}, max {}; the bound \
         is below the fixed MPD {} in {:.1}% of positions. Largest actual rise of the mover's \
         eval by one quiet non-castling move: median {}, max {}. Positions where the rise \
         exceeded the bound (unsound): {violations}.\n",
        all.len(),
        percentile(&bounds, 0.5).unwrap_or(0),
        percentile(&bounds, 0.99).unwrap_or(0),
        bounds.last().copied().unwrap_or(0),
        args.mpd,
        100.0 * bounds.iter().filter(|&&b| b < args.mpd).count() as f64
            / bounds.len().max(1) as f64,
        {
            let mut g = gains.clone();
            g.sort_unstable();
            percentile(&g, 0.5).unwrap_or(0)
        },
        gains.iter().max().copied().unwrap_or(0),
    );

    // 4. How much each prunes: alphabeta vs spp (fixed MPD) vs spp-exact.
    if args.prune_positions > 0 {
        let n = args.prune_positions.min(positions.len());
        let suite_positions: Vec<suite::SuitePosition> = positions[..n]
            .iter()
            .enumerate()
            .filter(|(_, (p, _))| p.has_legal_move())
            .map(|(i, (p, _))| suite::SuitePosition {
                id: format!("s{}", i + 1),
                fen: p.fen(),
                pos: p.clone(),
                line: i + 1,
            })
            .collect();
        let algorithms = vec![analysis::AB, analysis::SPP, analysis::SPP_EXACT];
        let plan = compare::Plan {
            positions: suite_positions,
            depths: vec![args.prune_depth],
            algorithms: algorithms.clone(),
            config: TextbookConfig {
                eval: EvalKind::Classic,
                mpd: args.mpd,
                ..TextbookConfig::default()
            },
            engine: SearchConfig::default(),
            threads,
            suite_name: format!("first {n} of {epd_name}"),
        };
        let rows = match &args.out {
            Some(dir) => {
                let header = Header {
                    kind: "mpd pruning".into(),
                    settings: vec![
                        ("epd".into(), epd_name.clone()),
                        ("epd_sha256".into(), sha256_hex(epd_text.as_bytes())),
                        ("limit".into(), format!("{:?}", args.limit)),
                        ("positions".into(), plan.positions.len().to_string()),
                        ("depth".into(), args.prune_depth.to_string()),
                        ("mpd".into(), args.mpd.to_string()),
                        ("engine".into(), in_process_engine()),
                    ],
                    provenance: provenance.clone(),
                    columns: compare::COLUMNS.into(),
                };
                compare::run_into(&plan, &header, &dir.join("pruning.csv"), args.quiet)?
            }
            None => compare::run_jobs(&plan, !args.quiet)?,
        };
        let idx = analysis::leaf_index(&rows);
        let bad = analysis::mismatches(&rows, &algorithms);
        let _ = writeln!(
            md,
            "## Pruning: spp (fixed MPD {}) and spp-exact (per-node bound) against alpha-beta\n\n\
             {} positions of {epd_name}, depth {}, classic eval, no quiescence.\n",
            args.mpd,
            plan.positions.len(),
            args.prune_depth
        );
        let _ = writeln!(
            md,
            "| A1/A2 | pooled % | mean % ± 95% CI (paired) | median % | min % | max % | A1>A2 | move-score differs from AB |"
        );
        let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|---:|---:|");
        for (a1, a2) in [
            (analysis::SPP, analysis::AB),
            (analysis::SPP_EXACT, analysis::AB),
            (analysis::SPP_EXACT, analysis::SPP),
        ] {
            if let Some(sm) =
                analysis::summarize(&idx, plan.positions.len(), &[args.prune_depth], a1, a2)
            {
                let differs = if a2 == analysis::AB {
                    bad.iter().filter(|m| m.algorithm == a1).count().to_string()
                } else {
                    String::new()
                };
                let _ = writeln!(
                    md,
                    "| {} | {:.1} | {} | {:.1} | {:.1} | {:.1} | {} | {differs} |",
                    analysis::pair_name(a1, a2),
                    sm.pooled,
                    sm.mean_ci
                        .map_or_else(|| format!("{:.1}", sm.mean), |ci| ci.text(1)),
                    sm.median,
                    sm.min,
                    sm.max,
                    sm.worse
                );
            }
        }
        let _ = writeln!(md);
        for m in &bad {
            let _ = writeln!(
                md,
                "- **{} differs** at `{}`: {} {} vs alphabeta {} {}",
                m.algorithm,
                plan.positions[m.position].fen,
                m.got.0,
                m.got.1,
                m.expected.0,
                m.expected.1
            );
        }
        if !bad.is_empty() {
            let _ = writeln!(md);
        }
    }

    // 5. The siblings the search itself meets, where draw rules score some of them.
    if args.search_depth > 0 {
        let (set, name) = match &args.search_epd {
            Some(p) => {
                let text = std::fs::read_to_string(p)
                    .with_context(|| format!("reading {}", p.display()))?;
                (
                    read_positions(&text, &p.display().to_string())?,
                    p.display().to_string(),
                )
            }
            None => {
                let n = args.prune_positions.min(positions.len());
                (positions[..n].to_vec(), format!("first {n} of {epd_name}"))
            }
        };
        let logs = search_siblings(&set, args.search_depth, threads)?;
        siblings_section(&mut md, &logs, &name, args.search_depth, args.mpd);
    }

    print!("{md}");
    if let Some(dir) = &args.out {
        write_files(dir, &played, &sampled, args.mpd, &md)?;
        provenance.write_into(dir)?;
        eprintln!("wrote {}", dir.display());
    }
    Ok(())
}

/// Alpha-beta (fixed depth, classic eval) over `set`, logging every depth-1 node's quiet
/// siblings; one log per position, in order.
pub fn search_siblings(
    set: &[(Position, Option<u32>)],
    depth: i32,
    threads: usize,
) -> Result<Vec<Vec<SiblingLog>>> {
    let cfg = TextbookConfig {
        eval: EvalKind::Classic,
        log_siblings: true,
        ..TextbookConfig::default()
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<Vec<SiblingLog>> = vec![Vec::new(); set.len()];
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.min(set.len()).max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((pos, _)) = set.get(i) else { break };
                let r = if pos.has_legal_move() {
                    textbook::run(pos, Algorithm::AlphaBeta, depth, &cfg)
                } else {
                    Ok(Default::default())
                };
                results.lock().expect("no panics").push((i, r));
            });
        }
    });
    for (i, r) in results.into_inner().expect("no panics") {
        out[i] = r.map_err(|e| anyhow!(e))?.siblings;
    }
    Ok(out)
}

/// The report on the siblings met in the search: spreads as the search scored them and as the
/// evaluation alone would, and how many exceed the MPD because a rule scored a sibling.
pub fn siblings_section(
    md: &mut String,
    logs: &[Vec<SiblingLog>],
    name: &str,
    depth: i32,
    mpd: i32,
) {
    let all: Vec<&SiblingLog> = logs.iter().flatten().collect();
    let _ = writeln!(
        md,
        "## Siblings met in the search (the thesis's measurement)\n\n\
         Alpha-beta to depth {depth} (classic eval, fail-hard, no quiescence) over {} positions \
         of {name}: every depth-1 node with two or more quiet siblings searched ({} nodes). \
         \"search\" is the spread of the values the search gave them (draws by rule score 0); \
         \"eval\" leaves out the siblings a rule scored.\n",
        logs.len(),
        all.len()
    );
    let _ = writeln!(
        md,
        "| spread | nodes | max | 99.9% | 99% | median | > {mpd} |"
    );
    let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|---:|");
    let search: Vec<i32> = all.iter().map(|l| l.spread).collect();
    let evals: Vec<i32> = all.iter().filter_map(|l| l.eval_spread).collect();
    for (label, v) in [("search", &search), ("eval", &evals)] {
        if let Some(d) = distribution(v, mpd) {
            let _ = writeln!(
                md,
                "| {label} | {} | {} | {} | {} | {} | {} ({:.3}%) |",
                d.n,
                d.max,
                d.p999,
                d.p99,
                d.median,
                d.over,
                100.0 * d.over as f64 / d.n.max(1) as f64
            );
        }
    }
    let over: Vec<&&SiblingLog> = all.iter().filter(|l| l.spread > mpd).collect();
    let by_rule = over.iter().filter(|l| l.rule_scored > 0).count();
    let positions_over = logs
        .iter()
        .filter(|l| l.iter().any(|x| x.spread > mpd))
        .count();
    let positions_rule = logs
        .iter()
        .filter(|l| l.iter().any(|x| x.spread > mpd && x.rule_scored > 0))
        .count();
    let _ = writeln!(
        md,
        "\nDepth-1 nodes whose search spread exceeds {mpd}: {} ({by_rule} with a sibling scored \
         by a draw rule); positions with such a node: {positions_over} of {} ({positions_rule} \
         through a rule-scored sibling).\n",
        over.len(),
        logs.len()
    );
    if let Some(x) = over
        .iter()
        .filter(|l| l.rule_scored > 0)
        .max_by_key(|l| l.spread)
    {
        let (rm, rv) = x.rule_move.clone().unwrap_or_default();
        let _ = writeln!(
            md,
            "Widest such node: `{}`, {} quiet siblings searched, spread {} (evaluations alone: \
             {}): best {} {}, worst {} {}; {rm} is scored {rv} by a draw rule.\n",
            x.fen,
            x.count,
            x.spread,
            x.eval_spread.map_or("-".into(), |v| v.to_string()),
            x.best.0,
            x.best.1,
            x.worst.0,
            x.worst.1
        );
    }
}

fn write_files(
    dir: &std::path::Path,
    played: &[Sample],
    sampled: &[Sample],
    mpd: i32,
    md: &str,
) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut csv = String::from(
        "source,phase,classic_spread,default_spread,nnue_spread,classic_gain,bound,fen\n",
    );
    for (src, set) in [("selfplay", played), ("sample", sampled)] {
        for s in set {
            let _ = writeln!(csv, "{src},{}", s.fields().join(","));
        }
    }
    std::fs::write(dir.join("spreads.csv"), csv)?;
    std::fs::write(dir.join("summary.md"), md)?;
    // Histogram of spreads (10 cp bins, log scale) per evaluation, all positions.
    let all: Vec<&Sample> = played.iter().chain(sampled.iter()).collect();
    let top = all
        .iter()
        .flat_map(|s| s.spread.iter().flatten())
        .max()
        .copied()
        .unwrap_or(0)
        .max(mpd);
    let bins = (top / 10 + 1) as usize;
    let cats: Vec<String> = (0..bins).map(|b| format!("{}", b * 10)).collect();
    let mut c = CategoryChart::new(
        format!("Quiet-sibling spread (10 cp bins; fixed MPD = {mpd})"),
        cats,
    )
    .labels("spread (cp, bin start)", "positions")
    .style(Style::GroupedBars)
    .y_scale(YScale::Log10);
    for (k, kind) in KINDS.iter().enumerate() {
        let mut h = vec![0.0; bins];
        for s in &all {
            if let Some(v) = s.spread[k] {
                h[(v / 10).max(0) as usize] += 1.0;
            }
        }
        c = c.series(Series::new(kind.to_string(), h));
    }
    Chart::from(c).save(dir, "spread_histogram")?;
    // Share above the MPD per phase and evaluation.
    let mut c = CategoryChart::new(
        format!("Share of positions whose quiet-sibling spread exceeds {mpd} (%)"),
        Phase::ALL.iter().map(|p| p.name().to_string()).collect(),
    )
    .labels("phase", "%")
    .style(Style::GroupedBars);
    for (k, kind) in KINDS.iter().enumerate() {
        let v = Phase::ALL
            .iter()
            .map(|&ph| {
                let xs: Vec<i32> = all
                    .iter()
                    .filter(|s| s.phase == ph)
                    .filter_map(|s| s.spread[k])
                    .collect();
                if xs.is_empty() {
                    f64::NAN
                } else {
                    100.0 * xs.iter().filter(|&&x| x > mpd).count() as f64 / xs.len() as f64
                }
            })
            .collect();
        c = c.series(Series::new(kind.to_string(), v));
    }
    Chart::from(c).save(dir, "spread_over_mpd")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_nearest_rank() {
        let v: Vec<i32> = (1..=1000).collect();
        assert_eq!(percentile(&v, 0.5), Some(500));
        assert_eq!(percentile(&v, 0.99), Some(990));
        assert_eq!(percentile(&v, 0.999), Some(999));
        assert_eq!(percentile(&[], 0.5), None);
    }

    /// [nnue] A game line with all three spreads (and a missing one) reads back as written; a
    /// line of the older two-spread format is refused with the expected fields named.
    #[test]
    fn game_lines_round_trip_with_three_evaluations() {
        let samples = vec![
            Sample {
                phase: Phase::ALL[0],
                spread: [Some(40), Some(55), Some(120)],
                gain: Some(12),
                bound: 30,
                fen: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into(),
            },
            Sample {
                phase: Phase::ALL[2],
                spread: [None, Some(3), None],
                gain: None,
                bound: 0,
                fen: "4k3/8/8/8/8/8/8/4K3 b - - 0 60".into(),
            },
        ];
        let line = game_line(7, &samples);
        assert_eq!(parse_game_line(&line).unwrap(), (7, samples));
        let old = "3,1,opening;40;55;12;30;4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        let err = parse_game_line(old).unwrap_err().to_string();
        assert!(err.contains("7 fields"), "{err}");
    }

    /// The network's spread is measured on the same quiet children as the others'.
    #[test]
    fn the_network_is_measured_beside_the_hand_written_evaluations() {
        let pos = Position::from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            false,
        )
        .unwrap();
        let s = measure_position(&pos, Some(4));
        let kids = quiet_children(&pos, EvalKind::Nnue);
        let max = kids.iter().map(|c| c.1).max().unwrap();
        let min = kids.iter().map(|c| c.1).min().unwrap();
        assert_eq!(s.spread[2], Some(max - min));
        assert_eq!(kids.len(), quiet_children(&pos, EvalKind::Classic).len());
    }

    #[test]
    fn castling_and_en_passant_are_classified() {
        let p = Position::from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6", false).unwrap();
        let moves = p.legal_moves();
        let ep = moves.iter().find(|m| p.uci(**m) == "e5d6").unwrap();
        assert!(is_capture(&p, *ep));
        let castles: Vec<_> = moves.iter().filter(|m| is_castle(&p, **m)).collect();
        assert_eq!(castles.len(), 2);
        assert!(castles.iter().all(|m| !is_capture(&p, **m)));
    }
}
