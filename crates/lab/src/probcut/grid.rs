//! `augur-lab grid`: Jiang & Buro's Tables 2 and 3 with statistics. The paper chose MPC's
//! thresholds by 64-game matches over a grid of (endgame, middle-game) values and printed each
//! cell's score; here every cell is a match through the arena's runner (game pairs, the same
//! binary on both sides) whose result is Elo with its pentanomial 95% interval and LOS, the
//! estimator `augur-lab match` prints. The grid is any two numeric UCI options.
//!
//! Resumable after kill -9: each cell's games go to their own PGN (the match runner resumes
//! from it), and each finished cell is a line of `grid.csv` (a `result_log` file: settings
//! header, a restart with other settings refused). A restart with a larger `--games` plays
//! only the missing games of every cell. Outputs: `grid.csv`, `grid.md` (the table and every
//! cell's counts), `grid_heatmap.{svg,png}` and `provenance.toml` in `--out`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{bail, Context, Result};
use augur_arena::game::time_control::TimeControl;
use augur_arena::matchmaking::elo::{self, Estimate};
use augur_arena::matchmaking::outcomes::{PentaRow, Wdl};
use augur_arena::matchmaking::tournament::{self, MatchArgs};
use clap::Args;
use serde::{Deserialize, Serialize};

use crate::kit::chart::{Chart, HeatMap};
use crate::kit::jobs::{self, Job, Options};
use crate::kit::provenance::{sha256_file, Provenance};
use crate::kit::result_log::{Header, Row};
use crate::kit::summary::SummaryArgs;
use crate::tournament::EloFigures;
use crate::variants::{check_fitted_pairs, default_engine, parse_options, search_config, Variant};

#[derive(Args, Debug, Clone)]
pub struct GridArgs {
    /// The x axis: a numeric UCI option and its values, `NAME=V1,V2,...` (columns of the table).
    #[arg(long, default_value = "MpcThresholdEnd=60,100,140")]
    pub x: String,
    /// The y axis, `NAME=V1,V2,...` (rows of the table).
    #[arg(long, default_value = "MpcThresholdMid=80,120,160")]
    pub y: String,
    /// Options of the variant in every cell (`Opt=Val,...`); the cell's two values are added.
    #[arg(long, default_value = "Mpc=true,Sfpc=false")]
    pub variant: String,
    /// Options of the baseline every cell's variant plays (`Opt=Val,...`; may be empty).
    #[arg(long, default_value = "Sfpc=false")]
    pub baseline: String,
    /// The engine binary (both sides); default: `augur` next to this program.
    #[arg(long)]
    pub engine: Option<PathBuf>,
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Time control of every game: nodes=5000, 10+0.1, movetime=0.5, ... (see `match`).
    #[arg(long, default_value = "nodes=5000")]
    pub tc: TimeControl,
    /// Games per cell (rounded up to even: game pairs with colours reversed).
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Openings (EPD or PGN); default: the bundled 8moves_v3 sample. Every cell plays the same
    /// openings in the same order (the schedule follows from --seed), so cells differ only by
    /// their thresholds.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Output folder: per-cell PGNs, grid.csv, grid.md, grid_heatmap.{svg,png}.
    #[arg(long)]
    pub out: PathBuf,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub summary: SummaryArgs,
}

/// One axis of the grid: an option and its values, in the given order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    pub name: String,
    pub values: Vec<i64>,
}

impl Axis {
    /// Parses `NAME=V1,V2,...` (integers, no repeats); `flag` names the option in errors.
    pub fn parse(text: &str, flag: &str) -> Result<Axis> {
        let Some((name, list)) = text.split_once('=') else {
            bail!("bad {flag} '{text}': expected OPTION=V1,V2,... (e.g. MpcThresholdEnd=60,100)");
        };
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            bail!("bad {flag} '{text}': no option name before '='");
        }
        let mut values = Vec::new();
        for part in list.split(',').map(str::trim) {
            let v: i64 = part.parse().with_context(|| {
                format!("bad {flag} '{text}': '{part}' is not an integer option value")
            })?;
            if values.contains(&v) {
                bail!("bad {flag} '{text}': {v} is listed twice");
            }
            values.push(v);
        }
        Ok(Axis {
            name: name.to_string(),
            values,
        })
    }

    fn text(&self) -> String {
        let vs: Vec<String> = self.values.iter().map(i64::to_string).collect();
        format!("{}={}", self.name, vs.join(","))
    }
}

/// A value rounded to the tenth it is printed with, without a negative zero (an even score
/// maps to -0.0 Elo; adding +0.0 turns -0.0 into +0.0 and leaves every other value as it is).
fn tidy(x: f64) -> f64 {
    (x * 10.0).round() / 10.0 + 0.0
}

/// The arena's Elo text without a negative zero.
fn fmt_elo(e: f64) -> String {
    elo::fmt_elo(tidy(e))
}

/// One finished cell: the variant's results against the baseline.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub x: i64,
    pub y: i64,
    pub counts: PentaRow,
}

/// The CSV columns; the derived ones (score onwards) are for readers, a restart recomputes them.
pub const COLUMNS: &str =
    "x,y,games,wins,draws,losses,ll,ld,wl_dd,wd,ww,score,elo,elo_low,elo_high,nelo,nelo_half,los";

/// A record of `grid.csv`: a cell's counts, then the estimate derived from them (for readers;
/// a restart reads only the counts).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub x: i64,
    pub y: i64,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub ll: u64,
    pub ld: u64,
    pub wl_dd: u64,
    pub wd: u64,
    pub ww: u64,
    pub score: Option<f64>,
    pub elo: Option<f64>,
    pub elo_low: Option<f64>,
    pub elo_high: Option<f64>,
    pub nelo: Option<f64>,
    pub nelo_half: Option<f64>,
    pub los: Option<f64>,
}

impl Row for Record {
    const COLUMNS: &'static str = COLUMNS;
}

/// `x` rounded to four decimals (a score or a probability as the CSV keeps it).
fn four_decimals(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

impl Cell {
    /// The estimate `augur-lab match` prints: pentanomial when the games pair up.
    pub fn estimate(&self) -> Option<Estimate> {
        elo::estimate(&self.counts.sample())
    }

    /// Half the width of the logistic Elo interval (infinite for a perfect or zero score).
    pub fn elo_half(e: &Estimate) -> f64 {
        (e.elo_high - e.elo_low) / 2.0
    }

    /// The cell's record, the derived columns rounded as they are printed.
    pub fn record(&self) -> Record {
        let p = self.counts.penta.0;
        let e = self.estimate();
        let derived = |f: fn(&Estimate) -> f64| e.as_ref().map(f);
        Record {
            x: self.x,
            y: self.y,
            games: self.counts.wdl.games(),
            wins: self.counts.wdl.wins,
            draws: self.counts.wdl.draws,
            losses: self.counts.wdl.losses,
            ll: p[0],
            ld: p[1],
            wl_dd: p[2],
            wd: p[3],
            ww: p[4],
            score: derived(|e| four_decimals(e.score)),
            elo: derived(|e| tidy(e.elo)),
            elo_low: derived(|e| tidy(e.elo_low)),
            elo_high: derived(|e| tidy(e.elo_high)),
            nelo: derived(|e| tidy(e.nelo)),
            nelo_half: derived(|e| tidy(e.nelo_half)),
            los: derived(|e| four_decimals(e.los)),
        }
    }

    /// The counts of a record read back.
    pub fn from_record(r: &Record) -> Result<Cell> {
        let wdl = Wdl {
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
        };
        Ok(Cell {
            x: r.x,
            y: r.y,
            counts: PentaRow::from_columns(r.games, wdl, [r.ll, r.ld, r.wl_dd, r.wd, r.ww])?,
        })
    }

    /// `+12.3 ±25.1` (logistic Elo and half its 95% interval).
    pub fn elo_text(&self) -> String {
        match self.estimate() {
            Some(e) => elo::fmt_elo_interval(tidy(e.elo), e.elo_low, e.elo_high),
            None => "-".to_string(),
        }
    }
}

/// What a finished grid holds, for callers and tests.
#[derive(Debug)]
pub struct GridSummary {
    pub x: Axis,
    pub y: Axis,
    /// `cells[y][x]`.
    pub cells: Vec<Vec<Cell>>,
    /// Games this run added to `grid.csv` (0 when every cell was already done; games a killed
    /// run left in a cell's PGN count here, since the CSV did not hold them).
    pub games_played: usize,
    pub markdown: String,
}

/// The engine name of a cell's variant in its PGN: `MpcThresholdEnd60-MpcThresholdMid80`.
fn variant_name(x: &Axis, xv: i64, y: &Axis, yv: i64) -> String {
    format!("{}{xv}-{}{yv}", x.name, y.name)
}

/// The variant's options in a cell: the common ones, then the cell's two values (which win).
fn cell_options(
    common: &[(String, String)],
    x: &Axis,
    xv: i64,
    y: &Axis,
    yv: i64,
) -> Vec<(String, String)> {
    let mut opts: Vec<(String, String)> = common
        .iter()
        .filter(|(k, _)| !k.eq_ignore_ascii_case(&x.name) && !k.eq_ignore_ascii_case(&y.name))
        .cloned()
        .collect();
    opts.push((x.name.clone(), xv.to_string()));
    opts.push((y.name.clone(), yv.to_string()));
    opts
}

/// [mpc] [probcut] A ProbCut-family variant whose depth pairs have no fitted parameters would
/// never cut, and the grid would measure nothing: refuse it before any game. Options the
/// engine's search table does not hold are left to the match's pre-flight (it names the
/// engine and the option).
fn check_variant(name: &str, options: &[(String, String)]) -> Result<()> {
    let (cfg, _) = search_config(options).with_context(|| format!("variant {name}"))?;
    for w in check_fitted_pairs(name, &cfg)? {
        eprintln!("warning: {w}");
    }
    Ok(())
}

fn match_args(args: &GridArgs, engines: Vec<String>, pgn: PathBuf) -> MatchArgs {
    MatchArgs {
        openings: args.openings.clone(),
        seed: args.seed,
        concurrency: Some(args.concurrency.max(1)),
        event: "augur-lab grid".to_string(),
        quiet: args.quiet,
        ..MatchArgs::new(engines, args.tc, args.games, pgn)
    }
}

/// The grid as a job of the runner: an item is a cell (rows y, columns x), its row the cell's
/// counts. A cell is done when its record has this run's number of games; a rerun with more
/// games plays on in the cell's PGN and appends a record that replaces the earlier one.
struct Cells<'a> {
    args: &'a GridArgs,
    x: &'a Axis,
    y: &'a Axis,
    common: &'a [(String, String)],
    baseline: &'a [(String, String)],
    engine: &'a Path,
    /// Games per cell (whole pairs).
    per_cell: usize,
    /// Games this run added to the records.
    played: AtomicUsize,
}

impl Cells<'_> {
    fn values(&self, item: usize) -> (i64, i64) {
        let nx = self.x.values.len();
        (self.x.values[item % nx], self.y.values[item / nx])
    }
}

impl Job for Cells<'_> {
    type Output = Cell;
    type Row = Record;
    type Worker = ();

    fn items(&self) -> usize {
        self.x.values.len() * self.y.values.len()
    }

    fn worker(&self) -> Result<()> {
        Ok(())
    }

    fn run(&self, _: &mut (), item: usize, earlier: Option<&Cell>) -> Result<Cell> {
        let (x, y, args) = (self.x, self.y, self.args);
        let (xv, yv) = self.values(item);
        let name = variant_name(x, xv, y, yv);
        let opts = cell_options(self.common, x, xv, y, yv);
        let engines = vec![
            Variant {
                name: name.clone(),
                options: opts,
            }
            .spec_text(self.engine, args.hash),
            Variant {
                name: "baseline".into(),
                options: self.baseline.to_vec(),
            }
            .spec_text(self.engine, args.hash),
        ];
        let pgn = args.out.join(format!("{name}.pgn"));
        if !args.quiet {
            eprintln!(
                "cell {}/{}: {}={xv}, {}={yv} -> {}",
                item + 1,
                self.items(),
                x.name,
                y.name,
                pgn.display()
            );
        }
        let summary = tournament::run(&match_args(args, engines, pgn))
            .with_context(|| format!("grid cell {}={xv}, {}={yv}", x.name, y.name))?;
        let counts = summary.table.row(0, 1);
        let before = earlier.map_or(0, |c| c.counts.wdl.games());
        let added = counts.wdl.games().saturating_sub(before) as usize;
        self.played.fetch_add(added, Ordering::Relaxed);
        Ok(Cell {
            x: xv,
            y: yv,
            counts,
        })
    }

    fn rows(&self, _: usize, cell: &Cell) -> Vec<Record> {
        vec![cell.record()]
    }

    fn item_of(&self, r: &Record) -> Result<usize> {
        let xi = self.x.values.iter().position(|&v| v == r.x);
        let yi = self.y.values.iter().position(|&v| v == r.y);
        let (xi, yi) = xi
            .zip(yi)
            .with_context(|| format!("the cell ({}, {}) is not one of this grid's", r.x, r.y))?;
        Ok(yi * self.x.values.len() + xi)
    }

    fn output(&self, _: usize, rows: Vec<Record>) -> Result<Cell> {
        Cell::from_record(&rows[0])
    }

    fn is_done(&self, cell: &Cell) -> bool {
        cell.counts.wdl.games() as usize == self.per_cell
    }

    fn may_repeat(&self) -> bool {
        true
    }
}

/// Runs the grid (resuming what an earlier run left), writes the CSV, markdown and heat map.
pub fn run(args: &GridArgs) -> Result<GridSummary> {
    let x = Axis::parse(&args.x, "--x")?;
    let y = Axis::parse(&args.y, "--y")?;
    if x.name.eq_ignore_ascii_case(&y.name) {
        bail!("--x and --y both name the option {}", x.name);
    }
    let common = parse_options(&args.variant, &format!("--variant '{}'", args.variant))?;
    let baseline = parse_options(&args.baseline, &format!("--baseline '{}'", args.baseline))?;
    if args.games == 0 {
        bail!("--games must be positive");
    }
    let engine = args.engine.clone().unwrap_or_else(default_engine);
    if engine.display().to_string().contains(',') {
        bail!(
            "engine path {} contains a comma, which the engine spec cannot carry",
            engine.display()
        );
    }
    for &yv in &y.values {
        for &xv in &x.values {
            let name = variant_name(&x, xv, &y, yv);
            check_variant(&name, &cell_options(&common, &x, xv, &y, yv))?;
        }
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let provenance = Provenance::capture(args, Some(args.seed));
    let engine_sha256 = sha256_file(&engine)
        .with_context(|| format!("hashing the engine binary {}", engine.display()))?;
    let (openings, openings_sha256) = match &args.openings {
        None => ("<bundled 8moves_v3 sample>".to_string(), "-".to_string()),
        Some(p) => (p.display().to_string(), sha256_file(p)?),
    };
    let header = Header {
        kind: "grid".into(),
        settings: vec![
            ("engine_sha256".into(), engine_sha256),
            ("x".into(), x.text()),
            ("y".into(), y.text()),
            ("variant".into(), args.variant.clone()),
            ("baseline".into(), args.baseline.clone()),
            ("hash_mb".into(), args.hash.to_string()),
            ("tc".into(), args.tc.to_string()),
            ("openings".into(), openings),
            ("openings_sha256".into(), openings_sha256),
            ("seed".into(), args.seed.to_string()),
        ],
        provenance: provenance.clone(),
        columns: COLUMNS.into(),
    };
    let csv = args.out.join("grid.csv");
    let per_cell = args.games.div_ceil(2) * 2;
    if !args.quiet {
        eprintln!(
            "grid {} x {}: {} cells of {per_cell} games ({})",
            x.text(),
            y.text(),
            x.values.len() * y.values.len(),
            csv.display()
        );
    }
    let job = Cells {
        args,
        x: &x,
        y: &y,
        common: &common,
        baseline: &baseline,
        engine: &engine,
        per_cell,
        played: AtomicUsize::new(0),
    };
    let options = Options {
        workers: 1,
        progress: false,
        unit: "cells",
        file: Some((&csv, header)),
    };
    let mut found = jobs::run(&job, options)?.outputs.into_iter();
    let games_played = job.played.into_inner();
    let cells: Vec<Vec<Cell>> = y
        .values
        .iter()
        .map(|_| found.by_ref().take(x.values.len()).collect())
        .collect();
    provenance.write_into(&args.out)?;
    let mut markdown = provenance.markdown();
    markdown.push_str(&report(args, &x, &y, &cells));
    let md_path = args.out.join("grid.md");
    std::fs::write(&md_path, &markdown)
        .with_context(|| format!("writing {}", md_path.display()))?;
    let (svg, png) = heat_map(args, &x, &y, &cells).save(&args.out, "grid_heatmap")?;
    print!("{markdown}");
    if !args.quiet {
        eprintln!(
            "played {games_played} games; {}, {}, {}, {}",
            csv.display(),
            md_path.display(),
            svg.display(),
            png.display()
        );
    }
    args.summary.write("grid", &figures(&x, &y, &cells))?;
    Ok(GridSummary {
        x,
        y,
        cells,
        games_played,
        markdown,
    })
}

/// The headline figures of a grid (its `--summary`): each cell's Elo and the pooled one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// The axes, `NAME=V1,V2,...`.
    pub x: String,
    pub y: String,
    /// Every cell's games pooled.
    pub pooled: Option<EloFigures>,
    pub cells: Vec<CellFigures>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellFigures {
    pub x: i64,
    pub y: i64,
    pub elo: Option<EloFigures>,
}

fn elo_figures(c: &Cell) -> Option<EloFigures> {
    c.estimate()
        .map(|e| EloFigures::of(c.counts.wdl.games(), &e))
}

/// The figures of the finished `cells[y][x]`.
pub fn figures(x: &Axis, y: &Axis, cells: &[Vec<Cell>]) -> Figures {
    Figures {
        x: x.text(),
        y: y.text(),
        pooled: elo_figures(&pooled(cells.iter().flatten())),
        cells: cells
            .iter()
            .flatten()
            .map(|c| CellFigures {
                x: c.x,
                y: c.y,
                elo: elo_figures(c),
            })
            .collect(),
    }
}

/// The games of several cells as one sample (W/D/L and pair counts summed; x and y are 0).
pub fn pooled<'a>(cells: impl Iterator<Item = &'a Cell>) -> Cell {
    let mut sum = Cell {
        x: 0,
        y: 0,
        counts: PentaRow::default(),
    };
    for c in cells {
        sum.counts.add(&c.counts);
    }
    sum
}

/// The grid as markdown: the Elo table (rows y, columns x) and every cell's counts.
pub fn report(args: &GridArgs, x: &Axis, y: &Axis, cells: &[Vec<Cell>]) -> String {
    let mut s = String::new();
    let games = cells
        .first()
        .and_then(|r| r.first())
        .map_or(0, |c| c.counts.wdl.games());
    let openings = args
        .openings
        .as_ref()
        .map_or("the bundled 8moves_v3 sample".to_string(), |p| {
            p.display().to_string()
        });
    writeln!(
        s,
        "## Grid: {} × {}\n\n\
         Each cell: `{}` plus the cell's two values against `{}`, the same engine, {games} games \
         (game pairs, colours reversed) at `{}`, openings from {openings} (seed {}; every cell \
         plays the same openings). Elo is logistic, from the variant's side, ± half its 95% \
         interval (pentanomial); LOS = P(Elo > 0).\n",
        x.name, y.name, args.variant, args.baseline, args.tc, args.seed
    )
    .expect("writing to a String");
    let text = |c: &Cell| {
        let los = c.estimate().map_or(f64::NAN, |e| 100.0 * e.los);
        format!("{} (LOS {los:.0}%)", c.elo_text())
    };
    let mut head: Vec<String> = x.values.iter().map(|v| format!("{}={v}", x.name)).collect();
    head.push(format!("all {}", x.name));
    writeln!(s, "| {} \\ {} | {} |", y.name, x.name, head.join(" | ")).expect("string");
    writeln!(s, "|---|{}", "---:|".repeat(x.values.len() + 1)).expect("string");
    for (yv, row) in y.values.iter().zip(cells) {
        let mut texts: Vec<String> = row.iter().map(text).collect();
        texts.push(text(&pooled(row.iter())));
        writeln!(s, "| {}={yv} | {} |", y.name, texts.join(" | ")).expect("string");
    }
    let mut totals: Vec<String> = (0..x.values.len())
        .map(|xi| text(&pooled(cells.iter().filter_map(|r| r.get(xi)))))
        .collect();
    totals.push(text(&pooled(cells.iter().flatten())));
    writeln!(s, "| all {} | {} |", y.name, totals.join(" | ")).expect("string");
    writeln!(
        s,
        "\nThe `all` row and column pool the games of their cells (sums of the pair counts): the \
         mean effect over the other option's values, with a narrower interval. The pooled \
         cells share their openings, so the pooled interval is a little optimistic."
    )
    .expect("string");
    writeln!(
        s,
        "\n| {} | {} | games | W/D/L | score | pentanomial [LL, LD, WL+DD, WD, WW] | Elo [95% CI] | nElo ± 95% | LOS |\n|---:|---:|---:|---|---:|---|---|---|---:|",
        x.name, y.name
    )
    .expect("string");
    for c in cells.iter().flatten() {
        let p = c.counts.penta.0;
        let (score, elo, nelo, los) = match c.estimate() {
            Some(e) => (
                format!("{:.1}%", 100.0 * e.score),
                elo::fmt_elo_range(tidy(e.elo), tidy(e.elo_low), tidy(e.elo_high)),
                format!("{} ± {:.1}", fmt_elo(e.nelo), e.nelo_half),
                format!("{:.1}%", 100.0 * e.los),
            ),
            None => ("-".into(), "-".into(), "-".into(), "-".into()),
        };
        writeln!(
            s,
            "| {} | {} | {} | {}/{}/{} | {score} | [{}, {}, {}, {}, {}] | {elo} | {nelo} | {los} |",
            c.x,
            c.y,
            c.counts.wdl.games(),
            c.counts.wdl.wins,
            c.counts.wdl.draws,
            c.counts.wdl.losses,
            p[0],
            p[1],
            p[2],
            p[3],
            p[4]
        )
        .expect("string");
    }
    s
}

/// Cells coloured by Elo (diverging at 0; full colour at the larger of the largest |Elo| and
/// the mean 95% half-width), labelled `Elo ±CI` and `LOS, games`.
pub fn heat_map(args: &GridArgs, x: &Axis, y: &Axis, cells: &[Vec<Cell>]) -> Chart {
    let mut map = HeatMap::new(
        format!(
            "{} vs {}: Elo per cell ({})",
            args.variant,
            if args.baseline.is_empty() {
                "defaults"
            } else {
                &args.baseline
            },
            args.tc
        ),
        x.values.iter().map(i64::to_string).collect(),
        y.values.iter().map(i64::to_string).collect(),
    )
    .labels(x.name.clone(), y.name.clone())
    .value_label("Elo (logistic)");
    for (yi, row) in cells.iter().enumerate() {
        for (xi, c) in row.iter().enumerate() {
            let (elo, los) = c
                .estimate()
                .map_or((f64::NAN, f64::NAN), |e| (e.elo, e.los));
            map = map.cell(
                xi,
                yi,
                elo,
                format!(
                    "{}\nLOS {:.0}%, {} games",
                    c.elo_text(),
                    100.0 * los,
                    c.counts.wdl.games()
                ),
            );
        }
    }
    // Full colour no sooner than at the cells' mean 95% half-width, so that differences
    // inside the noise stay pale instead of spanning the whole scale.
    let halves: Vec<f64> = cells
        .iter()
        .flatten()
        .filter_map(|c| c.estimate().map(|e| Cell::elo_half(&e)))
        .filter(|h| h.is_finite())
        .collect();
    if !halves.is_empty() {
        let mean_half = halves.iter().sum::<f64>() / halves.len() as f64;
        let scale = map.full_scale().max(mean_half);
        map = map.scale(scale);
    }
    map.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::result_log;
    use augur_arena::matchmaking::outcomes::Penta;

    #[test]
    fn axes_and_options_parse_or_say_why_not() {
        let a = Axis::parse("MpcThresholdEnd=60, 100,140", "--x").unwrap();
        assert_eq!(a.name, "MpcThresholdEnd");
        assert_eq!(a.values, [60, 100, 140]);
        assert_eq!(a.text(), "MpcThresholdEnd=60,100,140");
        let err = |t: &str| format!("{:#}", Axis::parse(t, "--x").unwrap_err());
        assert!(err("MpcThresholdEnd").contains("expected OPTION=V1,V2"));
        assert!(err("=1,2").contains("no option name"));
        assert!(err("A=1,x").contains("'x' is not an integer"));
        assert!(err("A=1,1").contains("listed twice"));
        assert!(err("A=").contains("'' is not an integer"));
        assert_eq!(parse_options("", "--baseline").unwrap(), []);
        let o = parse_options("Mpc=true, Sfpc=false", "--variant").unwrap();
        assert_eq!(o[1], ("Sfpc".to_string(), "false".to_string()));
        assert!(parse_options("Mpc", "--variant").is_err());
    }

    #[test]
    fn a_cells_values_replace_the_common_ones() {
        let (x, y) = (
            Axis::parse("MpcThresholdEnd=60", "--x").unwrap(),
            Axis::parse("MpcThresholdMid=80", "--y").unwrap(),
        );
        let common = parse_options("Mpc=true,mpcthresholdend=5", "--variant").unwrap();
        let opts = cell_options(&common, &x, 60, &y, 80);
        assert_eq!(
            opts,
            [
                ("Mpc".to_string(), "true".to_string()),
                ("MpcThresholdEnd".to_string(), "60".to_string()),
                ("MpcThresholdMid".to_string(), "80".to_string()),
            ]
        );
        // An out-of-range value is refused by the engine's own option table.
        let bad = cell_options(&common, &x, 60, &y, 5000);
        assert!(check_variant("v", &bad).is_err());
    }

    #[test]
    fn a_cell_round_trips_through_its_csv_record() {
        let mut wdl = Wdl::default();
        for s in [1.0, 1.0, 0.5, 0.0, 1.0, 0.5] {
            wdl.add(s);
        }
        let cell = Cell {
            x: -5,
            y: 120,
            counts: PentaRow {
                wdl,
                penta: Penta([0, 1, 0, 1, 1]),
            },
        };
        let line = result_log::to_line(&cell.record()).unwrap();
        assert_eq!(line.split(',').count(), COLUMNS.split(',').count());
        let parse = |line: &str| -> Result<Cell> {
            Cell::from_record(&result_log::from_line::<Record>(line)?)
        };
        assert_eq!(parse(&line).unwrap(), cell);
        let e = cell.estimate().unwrap();
        assert!(e.elo > 0.0 && e.los > 0.5, "{e:?}");
        assert!(
            line.starts_with("-5,120,6,3,2,1,0,1,0,1,1,0.6667,"),
            "{line}"
        );
        assert!(parse("1,2,3").is_err());
        let two = pooled([&cell, &cell].into_iter());
        assert_eq!(
            (two.counts.wdl.games(), two.counts.penta.0),
            (12, [0, 2, 0, 2, 2])
        );
        assert_eq!(two.estimate().unwrap().score, e.score);
        assert_eq!(
            (fmt_elo(-0.04), fmt_elo(-0.06), fmt_elo(f64::INFINITY)),
            ("+0.0".into(), "-0.1".into(), "+inf".into())
        );
        let torn = line.replacen(",6,", ",7,", 1);
        assert!(format!("{:#}", parse(&torn).unwrap_err()).contains("wins + draws"));
    }
}
