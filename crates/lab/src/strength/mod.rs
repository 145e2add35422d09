//! `augur-lab strength`: the calibration of the engine's weak mode (`UCI_LimitStrength`,
//! `UCI_Elo`; the engine's search/strength.rs). Each calibration point is a match of Augur at a
//! `UCI_Elo` against a reference whose Elo is already calibrated (Stockfish 15.1 at its own
//! `UCI_Elo`); the settings Augur played with at that `UCI_Elo` then play at the reference's
//! Elo plus the match's Elo difference. The points become a CSV (the evidence, one row per
//! point) and, from it, the engine's table of levels (`strength_levels.rs`), whose Elo column is
//! then the measured one: a `UCI_Elo` between two points plays settings interpolated between
//! theirs.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::{bail, ensure, Context, Result};
use augur::search::strength::Level;
use serde::{Deserialize, Serialize};

use crate::kit::summary::{self, SummaryArgs};
use crate::tournament::Figures;

pub mod check;

use check::{check_campaign, check_points, judge, Judgement};

#[derive(clap::Args, Debug)]
pub struct StrengthArgs {
    /// A calibration point, `UCI_ELO:REFERENCE_ELO:SUMMARY`: Augur at UCI_ELO against a reference
    /// at REFERENCE_ELO, and the `augur-lab match --summary` file of their match (Augur first).
    #[arg(long = "point", value_name = "POINT")]
    pub points: Vec<Point>,
    /// The calibration CSV: written from the points, or read when no point is given.
    #[arg(long, value_name = "FILE")]
    pub csv: PathBuf,
    /// Add the points' rows to those the CSV has (a later round of measurements, such as the
    /// checks of a table, each played under the table then in force) instead of replacing them.
    #[arg(long, requires = "points")]
    pub append: bool,
    /// Also write the engine's table of levels from the CSV
    /// (crates/engine/src/search/strength_levels.rs).
    #[arg(long, value_name = "FILE")]
    pub engine_file: Option<PathBuf>,
    /// Also write the check of the table as a campaign file: Augur at each `UCI_Elo` midway
    /// between neighbouring rows against the reference at the same Elo, as the points were
    /// played (to be committed before its first game, run on the engine that embeds the table).
    #[arg(long, value_name = "FILE")]
    pub check_campaign: Option<PathBuf>,
    /// Games of each check.
    #[arg(long, default_value_t = 200)]
    pub check_games: u32,
    /// The table's rows: only those that scored within LOW,HIGH against their reference (the
    /// rest keep their CSV lines); where two rows' strengths then fail to rise with their nodes,
    /// the one scored farther from 50% leaves (docs/evidence/strength/table3-rule.txt). Every
    /// row when absent, and a table that does not rise is refused.
    #[arg(long, value_name = "LOW,HIGH", value_parser = parse_window)]
    pub score_window: Option<(f64, f64)>,
    /// Check only the N widest gaps between neighbouring rows (where the interpolation is
    /// least constrained by a measurement); every gap when absent.
    #[arg(long, value_name = "N")]
    pub check_widest: Option<usize>,
    /// Judge the check rows of this CSV (written with `--point ... --csv FILE`, as the table
    /// then in force played them) against the table of `--csv` and `--score-window`: the
    /// check's error alone, and the table's error beside it (table3-rule.txt).
    #[arg(long, value_name = "FILE")]
    pub judge: Option<PathBuf>,
    /// The check campaign's folder.
    #[arg(long, default_value = "/work/campaign/calibrate-elo-check")]
    pub check_dir: PathBuf,
    #[command(flatten)]
    pub summary: SummaryArgs,
}

/// One calibration match as named on the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub uci_elo: i32,
    pub reference_elo: i32,
    pub summary: PathBuf,
}

impl FromStr for Point {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> Result<Point> {
        let mut parts = s.splitn(3, ':');
        let (Some(a), Some(b), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
            bail!("'{s}' is not UCI_ELO:REFERENCE_ELO:SUMMARY");
        };
        let elo = |t: &str| {
            t.trim()
                .parse::<i32>()
                .with_context(|| format!("'{t}' in '{s}' is not an Elo"))
        };
        Ok(Point {
            uci_elo: elo(a)?,
            reference_elo: elo(b)?,
            summary: PathBuf::from(path),
        })
    }
}

/// A row of the calibration CSV: the settings a `UCI_Elo` played with, its match against the
/// reference and the Elo those settings measure at (95% interval). `uci_elo` is the value asked
/// under the table in force when the match was played; the settings are what played, and what
/// the table is built from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub uci_elo: i32,
    pub nodes: u64,
    pub candidates: u32,
    pub temperature: f64,
    pub reference_elo: i32,
    pub games: u64,
    pub score: f64,
    /// Augur's Elo against the reference, with its interval.
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    /// The reference's Elo plus the difference: what these settings play at.
    pub measured: f64,
    pub measured_low: f64,
    pub measured_high: f64,
}

impl Row {
    /// The row of one point: its settings from the engine linked into this lab (the campaign pins
    /// both from one commit) and its match's figures.
    pub fn of(point: &Point) -> Result<Row> {
        let figures: Figures = summary::read(&point.summary)?
            .figures()
            .with_context(|| format!("{} is no match summary", point.summary.display()))?;
        let pairing = figures
            .pairing
            .with_context(|| format!("{}: not a two-engine match", point.summary.display()))?;
        let e = pairing
            .elo
            .with_context(|| format!("{}: no games", point.summary.display()))?;
        ensure!(
            e.elo.is_finite() && e.elo_low.is_finite() && e.elo_high.is_finite(),
            "{}: {} scored {:.1}% in {} games, which measures no Elo; play it against a \
             reference nearer its strength",
            point.summary.display(),
            pairing.engine,
            e.score * 100.0,
            e.games
        );
        let level = Level::at(point.uci_elo);
        let r = f64::from(point.reference_elo);
        // As the verdicts registry writes them: Elo to 0.1, the score to 0.0001.
        let round = |x: f64, places: i32| (x * 10f64.powi(places)).round() / 10f64.powi(places);
        Ok(Row {
            uci_elo: point.uci_elo,
            nodes: level.nodes,
            candidates: level.candidates,
            temperature: level.temperature,
            reference_elo: point.reference_elo,
            games: e.games,
            score: round(e.score, 4),
            elo: round(e.elo, 1),
            elo_low: round(e.elo_low, 1),
            elo_high: round(e.elo_high, 1),
            measured: round(r + e.elo, 1),
            measured_low: round(r + e.elo_low, 1),
            measured_high: round(r + e.elo_high, 1),
        })
    }
}

pub fn read_csv(path: &Path) -> Result<Vec<Row>> {
    let mut reader =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    reader
        .deserialize()
        .enumerate()
        .map(|(i, r)| r.with_context(|| format!("{}: row {}", path.display(), i + 1)))
        .collect()
}

pub fn write_csv(path: &Path, rows: &[Row]) -> Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r)?;
    }
    crate::kit::atomic::write(path, &w.into_inner()?)
}

/// A score window `LOW,HIGH` of `--score-window`, two shares with 0 <= LOW < 0.5 < HIGH <= 1.
fn parse_window(text: &str) -> Result<(f64, f64)> {
    let (a, b) = text
        .split_once(',')
        .with_context(|| format!("'{text}' is not LOW,HIGH (such as 0.25,0.75)"))?;
    let share = |t: &str| {
        t.trim()
            .parse::<f64>()
            .with_context(|| format!("'{t}' in '{text}' is not a share"))
    };
    let (low, high) = (share(a)?, share(b)?);
    ensure!(
        (0.0..0.5).contains(&low) && high > 0.5 && high <= 1.0,
        "'{text}': the window must hold 50% (0 <= LOW < 0.5 < HIGH <= 1)"
    );
    Ok((low, high))
}

/// Whether `b`, the row after `a` in node order, makes a level of its own above it: more nodes
/// and a higher measured Elo (to the table's whole Elo), the one test of a table that rises.
fn rises(a: &Row, b: &Row) -> bool {
    a.nodes < b.nodes && a.measured.round() < b.measured.round()
}

/// A row left out of the table, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct LeftOut {
    pub row: Row,
    pub why: String,
}

/// The rows the table is made of under `--score-window` (table3-rule.txt): a score outside
/// the window measures an Elo that leans most on the logistic's tail and on the reference's
/// scale far from its label, so that row leaves; then, ordered by nodes, wherever a row does
/// not measure above the one before it, the one of the pair scored farther from 50% leaves
/// (the later one on a tie), until the strengths rise. Without a window every row stays.
pub fn table_rows(rows: &[Row], window: Option<(f64, f64)>) -> (Vec<Row>, Vec<LeftOut>) {
    let Some((low, high)) = window else {
        return (rows.to_vec(), Vec::new());
    };
    let mut left = Vec::new();
    let mut kept: Vec<Row> = Vec::new();
    for r in rows {
        if (low..=high).contains(&r.score) {
            kept.push(r.clone());
        } else {
            left.push(LeftOut {
                row: r.clone(),
                why: format!(
                    "scored {:.1}%, outside [{:.0}%, {:.0}%]",
                    r.score * 100.0,
                    low * 100.0,
                    high * 100.0
                ),
            });
        }
    }
    kept.sort_by_key(|r| r.nodes);
    while let Some(i) = kept.windows(2).position(|w| !rises(&w[0], &w[1])) {
        let off = |r: &Row| (r.score - 0.5).abs();
        let (a, b) = (&kept[i], &kept[i + 1]);
        let (gone, other) = if off(a) > off(b) {
            (i, i + 1)
        } else {
            (i + 1, i)
        };
        let why = format!(
            "measures {:.0} at {} nodes against {:.0} at {} nodes, scored farther from 50% ({:.1}% against {:.1}%)",
            kept[gone].measured,
            kept[gone].nodes,
            kept[other].measured,
            kept[other].nodes,
            kept[gone].score * 100.0,
            kept[other].score * 100.0
        );
        let row = kept.remove(gone);
        left.push(LeftOut { row, why });
    }
    (kept, left)
}

/// The engine's table from the calibration: one level per row, ordered by settings (the node
/// budget, which every table raises with the Elo; rows played under different tables have
/// `UCI_Elo` labels that do not compare), its Elo the measured one. The measured strengths must
/// rise with the settings, or a `UCI_Elo` would not name one level.
pub fn engine_file(rows: &[Row], source: &str) -> Result<String> {
    ensure!(
        rows.len() >= 2,
        "{} calibration rows: a table of levels needs two at least",
        rows.len()
    );
    let mut rows = rows.to_vec();
    rows.sort_by_key(|r| r.nodes);
    for pair in rows.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        ensure!(
            rises(a, b),
            "the settings of UCI_Elo {} ({} nodes) measure {:.0}, those of {} ({} nodes) {:.0}: \
             strength must rise with the settings, and two rows may not share them (play more \
             games, or space the points further apart)",
            a.uci_elo,
            a.nodes,
            a.measured,
            b.uci_elo,
            b.nodes,
            b.measured
        );
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Calibrated: written by `augur-lab strength` (docs/strength.md) from {source}: each\n\
         // row's settings measured in matches against Stockfish 15.1's UCI_Elo, the Elo column the\n\
         // measured one (95% intervals in the CSV).\n\
         // One row per level: the Elo it plays at, nodes a move, root moves scored, temperature (cp)."
    );
    let _ = writeln!(
        out,
        "pub const LEVELS: [(i32, u64, u32, i32); {}] = [",
        rows.len()
    );
    for r in &rows {
        let _ = writeln!(
            out,
            "    ({}, {}, {}, {}),",
            r.measured.round() as i32,
            r.nodes,
            r.candidates,
            r.temperature.round() as i32
        );
    }
    out.push_str("];\n");
    Ok(out)
}

/// What `--summary` keeps: the calibration rows, and the judged checks with `--judge`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Calibration {
    pub rows: Vec<Row>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub judged: Vec<Judgement>,
}

pub fn run(args: &StrengthArgs) -> Result<()> {
    let rows = if args.points.is_empty() {
        read_csv(&args.csv)?
    } else {
        let mut rows = if args.append {
            read_csv(&args.csv)?
        } else {
            Vec::new()
        };
        for point in &args.points {
            rows.push(Row::of(point)?);
        }
        write_csv(&args.csv, &rows)?;
        rows
    };
    println!("UCI_Elo  nodes  candidates  temperature  reference  games  score  measured [95%]");
    for r in &rows {
        println!(
            "{:>7}  {:>5}  {:>10}  {:>11.1}  {:>9}  {:>5}  {:>5.1}%  {:.0} [{:.0}, {:.0}]",
            r.uci_elo,
            r.nodes,
            r.candidates,
            r.temperature,
            r.reference_elo,
            r.games,
            r.score * 100.0,
            r.measured,
            r.measured_low,
            r.measured_high
        );
    }
    let (table, left) = table_rows(&rows, args.score_window);
    for l in &left {
        println!(
            "left out of the table: UCI_Elo {} ({} nodes): {}",
            l.row.uci_elo, l.row.nodes, l.why
        );
    }
    if let Some(path) = &args.engine_file {
        let name = args.csv.file_name().map_or_else(
            || args.csv.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let text = engine_file(&table, &name)?;
        crate::kit::atomic::write(path, text.as_bytes())?;
        println!("engine table: {}", path.display());
    }
    if let Some(path) = &args.check_campaign {
        let name = args.csv.display().to_string();
        let text = check_campaign(
            &table,
            args.check_games,
            args.check_widest,
            &args.check_dir,
            &name,
        )?;
        crate::kit::atomic::write(path, text.as_bytes())?;
        println!(
            "check campaign: {} (UCI_Elo {:?})",
            path.display(),
            check_points(&table, args.check_widest)
        );
    }
    let judged = match &args.judge {
        Some(path) => {
            let judged = judge(&table, &read_csv(path)?)?;
            println!(
                "check  between (nodes)     place  check - table [95%, check alone]  table sigma  [95%, both]       alone  both"
            );
            for j in &judged {
                let word = |b: bool| if b { "holds" } else { "miss" };
                println!(
                    "{:>5}  {:>7}-{:<9}  {:>5.2}  {:>+6.1} [{:+.1}, {:+.1}]  {:>19.1}  [{:+.1}, {:+.1}]  {:>5}  {}",
                    j.uci_elo,
                    j.below_nodes,
                    j.above_nodes,
                    j.place,
                    j.difference,
                    j.check_low,
                    j.check_high,
                    j.table_sigma,
                    j.low,
                    j.high,
                    word(j.holds_alone),
                    word(j.holds)
                );
            }
            judged
        }
        None => Vec::new(),
    };
    args.summary
        .write("strength", &Calibration { rows, judged })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{EloFigures, Pairing};

    pub(super) fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("augur-strength-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn match_summary(dir: &Path, name: &str, elo: f64, games: u64) -> PathBuf {
        let figures = Figures {
            pairing: Some(Pairing {
                engine: "augur".into(),
                opponent: "stockfish".into(),
                elo: Some(EloFigures {
                    games,
                    score: 1.0 / (1.0 + 10f64.powf(-elo / 400.0)),
                    elo,
                    elo_low: elo - 40.0,
                    elo_high: elo + 40.0,
                    los: 0.5,
                }),
                sprt: None,
                interim_stop: None,
            }),
            anchor: None,
            against_anchor: Vec::new(),
            differences: Vec::new(),
        };
        let path = dir.join(name);
        summary::write(&path, "match", &figures).unwrap();
        path
    }

    /// The row of a point: Augur at `uci_elo` scored `elo` against the reference.
    pub(super) fn point_row(
        dir: &Path,
        uci_elo: i32,
        reference_elo: i32,
        elo: f64,
        games: u64,
    ) -> Result<Row> {
        let summary = match_summary(dir, &format!("{uci_elo}.toml"), elo, games);
        Row::of(&Point {
            uci_elo,
            reference_elo,
            summary,
        })
    }

    /// A row of given settings, score and measured Elo (the rest does not matter to the table).
    pub(super) fn bare(nodes: u64, score: f64, measured: f64) -> Row {
        Row {
            uci_elo: measured as i32,
            nodes,
            candidates: 4,
            temperature: 10.0,
            reference_elo: measured as i32,
            games: 200,
            score,
            elo: 0.0,
            elo_low: -45.0,
            elo_high: 45.0,
            measured,
            measured_low: measured - 45.0,
            measured_high: measured + 45.0,
        }
    }

    /// table3-rule.txt: a row scored outside the window leaves; of a pair whose strength does
    /// not rise with nodes, the one scored farther from 50% leaves; at the window's edges a
    /// row stays, and without a window nothing leaves.
    #[test]
    fn the_table_keeps_rows_scored_near_half_and_rising() {
        let rows = vec![
            bare(2_500, 0.25, 1435.0),  // on the window's edge: stays
            bare(8_000, 0.198, 1556.0), // outside: leaves
            bare(10_662, 0.6275, 1750.0),
            bare(70_711, 0.60, 1990.0),
            bare(100_000, 0.315, 1965.0), // below 70,711's and farther from 50%: leaves
            bare(400_000, 0.75, 2229.0),  // on the edge: stays
        ];
        let (all, none) = table_rows(&rows, None);
        assert_eq!((all.len(), none.len()), (6, 0));
        let (kept, left) = table_rows(&rows, Some((0.25, 0.75)));
        let nodes: Vec<u64> = kept.iter().map(|r| r.nodes).collect();
        assert_eq!(nodes, vec![2_500, 10_662, 70_711, 400_000]);
        let gone: Vec<u64> = left.iter().map(|l| l.row.nodes).collect();
        assert_eq!(gone, vec![8_000, 100_000]);
        assert!(
            left[0].why.contains("outside [25%, 75%]"),
            "{}",
            left[0].why
        );
        assert!(left[1].why.contains("farther from 50%"), "{}", left[1].why);
        // The nearer-50% row leaves when it is the later one's score that lies nearer.
        let flipped = vec![bare(70_711, 0.30, 1990.0), bare(100_000, 0.55, 1965.0)];
        let (kept, _) = table_rows(&flipped, Some((0.25, 0.75)));
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].nodes, 100_000);
        assert!(engine_file(&table_rows(&rows, Some((0.25, 0.75))).0, "c").is_ok());
        assert!(engine_file(&rows, "c").is_err(), "the raw rows do not rise");
        for bad in ["0.5,0.75", "0.25", "0.25,1.5", "a,b", "0.6,0.4"] {
            assert!(parse_window(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_window(" 0.2 , 0.8").unwrap(), (0.2, 0.8));
    }

    #[test]
    fn points_parse_and_bad_ones_are_refused() {
        let p: Point = "1500:1450:/tmp/a b/summary.toml".parse().unwrap();
        assert_eq!((p.uci_elo, p.reference_elo), (1500, 1450));
        assert_eq!(p.summary, PathBuf::from("/tmp/a b/summary.toml"));
        for bad in ["1500:summary.toml", "x:1500:s.toml", "1500"] {
            assert!(bad.parse::<Point>().is_err(), "{bad}");
        }
    }

    /// Matches become rows (the reference's Elo plus the difference), the CSV round-trips, and
    /// the engine's table takes the measured Elo with each point's settings.
    #[test]
    fn matches_become_the_csv_and_the_engine_table() {
        let dir = scratch("rows");
        let points = [
            (1500, 1500, -120.0),
            (2100, 2100, 35.0),
            (2700, 2700, -260.0),
        ];
        let rows: Vec<Row> = points
            .iter()
            .map(|&(a, b, elo)| point_row(dir.as_path(), a, b, elo, 200).unwrap())
            .collect();
        assert_eq!(rows[0].measured, 1380.0);
        assert_eq!(
            (rows[1].measured_low, rows[1].measured_high),
            (2095.0, 2175.0)
        );
        assert_eq!(rows[2].nodes, Level::at(2700).nodes);
        let csv = dir.as_path().join("calibration.csv");
        write_csv(&csv, &rows).unwrap();
        assert_eq!(read_csv(&csv).unwrap(), rows);
        let table = engine_file(&rows, "calibration.csv").unwrap();
        let l = Level::at(2100);
        let row = format!(
            "(2135, {}, {}, {}),",
            l.nodes,
            l.candidates,
            l.temperature.round()
        );
        assert!(table.contains(&row), "{row} not in\n{table}");
        assert!(table.contains("pub const LEVELS: [(i32, u64, u32, i32); 3] = ["));
    }

    /// A later round (a check's points, played under the table then in force) joins the rows
    /// the CSV has; the table orders every row by its settings, not by the `UCI_Elo` labels of
    /// two tables, and refuses two rows with the same settings.
    #[test]
    fn appended_points_join_the_table_by_their_settings() {
        let dir = scratch("append");
        let csv = dir.as_path().join("calibration.csv");
        let first = vec![
            point_row(dir.as_path(), 1500, 1500, -60.0, 200).unwrap(),
            point_row(dir.as_path(), 2400, 2100, 0.0, 200).unwrap(),
        ];
        write_csv(&csv, &first).unwrap();
        let check = match_summary(dir.as_path(), "check.toml", 10.0, 200);
        let args = StrengthArgs {
            points: vec![Point {
                uci_elo: 1900,
                reference_elo: 1900,
                summary: check,
            }],
            csv: csv.clone(),
            append: true,
            engine_file: Some(dir.as_path().join("levels.rs")),
            check_campaign: None,
            check_games: 200,
            check_widest: None,
            score_window: None,
            judge: None,
            check_dir: dir.as_path().join("c"),
            summary: SummaryArgs::default(),
        };
        run(&args).unwrap();
        let rows = read_csv(&csv).unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[..2], first[..]);
        assert_eq!(rows[2].nodes, Level::at(1900).nodes);
        let table = std::fs::read_to_string(dir.as_path().join("levels.rs")).unwrap();
        let elos: Vec<&str> = table
            .lines()
            .filter_map(|l| l.trim().strip_prefix('('))
            .map(|l| l.split(',').next().unwrap())
            .collect();
        assert_eq!(elos, ["1440", "1910", "2100"], "{table}");
        let twice = [first.clone(), first[..1].to_vec()].concat();
        let e = engine_file(&twice, "x").unwrap_err().to_string();
        assert!(e.contains("may not share"), "{e}");
    }

    #[test]
    fn strength_that_does_not_rise_or_cannot_be_measured_is_refused() {
        let dir = scratch("refused");
        let row = |a: i32, elo: f64| point_row(dir.as_path(), a, a, elo, 100);
        let rows = vec![row(1800, 100.0).unwrap(), row(2100, -250.0).unwrap()];
        let e = engine_file(&rows, "x").unwrap_err().to_string();
        assert!(e.contains("must rise"), "{e}");
        let e = engine_file(&rows[..1], "x").unwrap_err().to_string();
        assert!(e.contains("two at least"), "{e}");
        let e = format!("{:#}", row(2400, f64::INFINITY).unwrap_err());
        assert!(e.contains("measures no Elo"), "{e}");
    }
}
