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

#[derive(clap::Args, Debug)]
pub struct StrengthArgs {
    /// A calibration point, `UCI_ELO:REFERENCE_ELO:SUMMARY`: Augur at UCI_ELO against a reference
    /// at REFERENCE_ELO, and the `augur-lab match --summary` file of their match (Augur first).
    #[arg(long = "point", value_name = "POINT")]
    pub points: Vec<Point>,
    /// The calibration CSV: written from the points, or read when no point is given.
    #[arg(long, value_name = "FILE")]
    pub csv: PathBuf,
    /// Also write the engine's table of levels from the CSV
    /// (crates/engine/src/search/strength_levels.rs).
    #[arg(long, value_name = "FILE")]
    pub engine_file: Option<PathBuf>,
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
/// reference and the Elo those settings measure at (95% interval).
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

/// The engine's table from the calibration: one level per row, ordered by settings (the
/// `UCI_Elo` each was measured at), its Elo the measured one. The measured strengths must rise
/// with the settings, or a `UCI_Elo` would not name one level.
pub fn engine_file(rows: &[Row], source: &str) -> Result<String> {
    ensure!(
        rows.len() >= 2,
        "{} calibration rows: a table of levels needs two at least",
        rows.len()
    );
    let mut rows = rows.to_vec();
    rows.sort_by_key(|r| r.uci_elo);
    for pair in rows.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        ensure!(
            a.measured.round() < b.measured.round() && a.nodes < b.nodes,
            "the settings of UCI_Elo {} measure {:.0}, those of {} {:.0}: strength must rise \
             with the settings (play more games, or space the points further apart)",
            a.uci_elo,
            a.measured,
            b.uci_elo,
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

/// What `--summary` keeps: the calibration rows.
#[derive(Debug, Serialize, Deserialize)]
pub struct Calibration {
    pub rows: Vec<Row>,
}

pub fn run(args: &StrengthArgs) -> Result<()> {
    let rows = if args.points.is_empty() {
        read_csv(&args.csv)?
    } else {
        let rows = args
            .points
            .iter()
            .map(Row::of)
            .collect::<Result<Vec<_>>>()?;
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
    if let Some(path) = &args.engine_file {
        let name = args.csv.file_name().map_or_else(
            || args.csv.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let text = engine_file(&rows, &name)?;
        crate::kit::atomic::write(path, text.as_bytes())?;
        println!("engine table: {}", path.display());
    }
    args.summary.write("strength", &Calibration { rows })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{EloFigures, Pairing};

    fn scratch(name: &str) -> PathBuf {
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
            }),
            anchor: None,
            against_anchor: Vec::new(),
            differences: Vec::new(),
        };
        let path = dir.join(name);
        summary::write(&path, "match", &figures).unwrap();
        path
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
            .map(|&(a, b, elo)| {
                let summary = match_summary(dir.as_path(), &format!("{a}.toml"), elo, 200);
                Row::of(&Point {
                    uci_elo: a,
                    reference_elo: b,
                    summary,
                })
                .unwrap()
            })
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

    #[test]
    fn strength_that_does_not_rise_or_cannot_be_measured_is_refused() {
        let dir = scratch("refused");
        let row = |a: i32, elo: f64| {
            let summary = match_summary(dir.as_path(), &format!("{a}.toml"), elo, 100);
            Row::of(&Point {
                uci_elo: a,
                reference_elo: a,
                summary,
            })
        };
        let rows = vec![row(1800, 100.0).unwrap(), row(2100, -250.0).unwrap()];
        let e = engine_file(&rows, "x").unwrap_err().to_string();
        assert!(e.contains("must rise"), "{e}");
        let e = engine_file(&rows[..1], "x").unwrap_err().to_string();
        assert!(e.contains("two at least"), "{e}");
        let e = format!("{:#}", row(2400, f64::INFINITY).unwrap_err());
        assert!(e.contains("measures no Elo"), "{e}");
    }
}
