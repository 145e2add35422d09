//! The checks of a `UCI_Elo` table: where to check it (midway between measured rows, where the
//! engine plays interpolated settings), the check as a pre-registered campaign file, and the
//! judgement of a played check against the table it was played under.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{ensure, Result};
use augur::search::strength::Level;
use augur_arena::matchmaking::elo::phi_inv;
use serde::{Deserialize, Serialize};

use super::Row;

/// The `UCI_Elo`s the table is checked at: midway between neighbouring measured rows, where
/// the engine plays settings interpolated between two points and nothing was measured; with
/// `widest`, only the midpoints of that many widest gaps (ties to the lower gap), in order.
pub fn check_points(rows: &[Row], widest: Option<usize>) -> Vec<i32> {
    let mut measured: Vec<f64> = rows.iter().map(|r| r.measured).collect();
    measured.sort_by(f64::total_cmp);
    let mut gaps: Vec<(f64, f64)> = measured.windows(2).map(|w| (w[0], w[1])).collect();
    if let Some(n) = widest {
        // A stable sort keeps the lower of two equal gaps first.
        gaps.sort_by(|a, b| (b.1 - b.0).total_cmp(&(a.1 - a.0)));
        gaps.truncate(n);
        gaps.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    gaps.iter()
        .map(|(lo, hi)| ((lo + hi) / 2.0).round() as i32)
        .collect()
}

/// The check as a campaign file: each midpoint a 200-game match (by default) of Augur at that
/// `UCI_Elo` against Stockfish 15.1 at the same `UCI_Elo`, in the points' protocol (300,000
/// nodes a move for Stockfish, Augur at its level's cap, the bundled 8-move book, seed 1).
pub fn check_campaign(
    rows: &[Row],
    games: u32,
    widest: Option<usize>,
    dir: &Path,
    source: &str,
) -> Result<String> {
    ensure!(
        widest != Some(0),
        "--check-widest 0: check one gap at least"
    );
    let points = check_points(rows, widest);
    ensure!(
        !points.is_empty(),
        "{} calibration rows: a check needs two at least",
        rows.len()
    );
    ensure!(
        games >= 2 && games.is_multiple_of(2),
        "--check-games {games}: an even number, both colours of each opening"
    );
    let list = points
        .iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let gaps = rows.len().saturating_sub(1);
    let which = match widest {
        Some(n) if n < gaps => format!("the {n} widest of the table's {gaps} gaps"),
        _ => "every gap of the table".to_string(),
    };
    let name = dir.file_name().map_or_else(
        || "calibrate-elo-check".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Pre-registration: the check of the UCI_Elo table (issue 68 §3), written by `augur-lab\n\
         # strength --check-campaign` from {source}; commit it before its first game and run it on\n\
         # the engine that embeds that table (bin/ is pinned from target/release at the first start).\n\
         # Each check: Augur at UCI_Elo m against Stockfish 15.1 at UCI_Elo m, m midway between two\n\
         # neighbouring rows, {which} ({list}), {games} games, the calibration's protocol (Stockfish 300,000\n\
         # nodes a move, Augur at its level's node cap, the bundled 8-move book, seed 1, colours\n\
         # swapped, one thread, 16 MiB, resign 1000 cp for 4 moves).\n\
         # Hypothesis: the table holds at each check: the 95% interval of the check's Elo minus the\n\
         # table's contains 0, the error being the check's (its pentanomial interval, `augur-lab\n\
         # stats`) and the table's at that point (its two rows' errors interpolated as independent;\n\
         # `augur-lab strength --judge`, docs/evidence/strength/table3-rule.txt). The check's own\n\
         # interval is reported beside it (the rule of the first two checks). A check that misses is\n\
         # reported with its numbers. No correction: each check is its own claim about one UCI_Elo.\n\
         name = {name:?}\n\
         dir = {:?}\n\
         cores = 2",
        dir.display().to_string()
    );
    for m in points {
        let _ = write!(
            out,
            "\n[[stage]]\n\
             id = \"check-{m}\"\n\
             cores = 1\n\
             command = [\n  \"match\",\n  \
             \"--engine\", \"name=augur-{m},cmd={{augur}},nodes=100000000,option.UCI_LimitStrength=true,option.UCI_Elo={m}\",\n  \
             \"--engine\", \"name=stockfish-{m},cmd=/usr/games/stockfish,nodes=300000,option.UCI_LimitStrength=true,option.UCI_Elo={m}\",\n  \
             \"--each\", \"option.Threads=1,option.Hash=16\",\n  \
             \"--tc\", \"nodes=300000\", \"--stall-timeout\", \"600\",\n  \
             \"--games\", \"{games}\", \"--concurrency\", \"1\", \"--seed\", \"1\",\n  \
             \"--resign-score\", \"1000\", \"--resign-moves\", \"4\",\n  \
             \"--pgn\", \"{{dir}}/games.pgn\", \"--quiet\",\n]\n"
        );
    }
    Ok(out)
}

/// The normal quantile of a two-sided 95% interval, with which every interval here is read.
fn z95() -> f64 {
    phi_inv(0.975)
}

/// The standard error of an Elo whose 95% interval is `low..high`: its half-width over 1.96
/// (the pentanomial intervals are nearly symmetric at these scores; the mean of both halves is
/// the normal reading of an asymmetric one).
fn sigma(low: f64, high: f64) -> f64 {
    (high - low) / (2.0 * z95())
}

/// One check read against its table (table3-rule.txt): the difference between what the check
/// measured and what the table says at that `UCI_Elo`, with the check's error alone (the first
/// two checks' rule) and with the table's error beside it (the third check's rule).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    pub uci_elo: i32,
    /// The table's rows on either side (their nodes) and the point's place between them.
    pub below_nodes: u64,
    pub above_nodes: u64,
    pub place: f64,
    /// The check's measured Elo minus the table's, and the check's own 95% interval of it.
    pub difference: f64,
    pub check_low: f64,
    pub check_high: f64,
    /// The table's standard error at the point: its two rows' errors, interpolated as
    /// independent.
    pub table_sigma: f64,
    /// The 95% interval of the difference with both errors.
    pub low: f64,
    pub high: f64,
    /// Whether the check holds by the check's error alone, and by both errors.
    pub holds_alone: bool,
    pub holds: bool,
}

/// Judges each check row against `table` (the rows the engine's levels were written from, as
/// `table_rows` returns them), which must be the table the check was played under: the check's
/// nodes must be those the engine interpolates at its `UCI_Elo`, or the judgement would compare
/// a measurement with a table it did not test. The table's Elo at the point is its `UCI_Elo`
/// (a level's Elo is its row's measured Elo, rounded); its error there is
/// sqrt((1-f)^2 sa^2 + f^2 sb^2) for the rows a, b on either side, f the place between them.
pub fn judge(table: &[Row], checks: &[Row]) -> Result<Vec<Judgement>> {
    let mut table = table.to_vec();
    table.sort_by_key(|r| r.nodes);
    ensure!(table.len() >= 2, "a table of one row has no point to check");
    checks
        .iter()
        .map(|c| {
            let m = c.uci_elo;
            let elo = |r: &Row| r.measured.round() as i32;
            let i = table
                .windows(2)
                .position(|w| elo(&w[0]) <= m && m < elo(&w[1]))
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "the check at UCI_Elo {m} lies outside the table ({} to {}): only an \
                         interpolated point can be checked",
                        elo(&table[0]),
                        elo(&table[table.len() - 1])
                    )
                })?;
            let (a, b) = (&table[i], &table[i + 1]);
            let f = f64::from(m - elo(a)) / f64::from(elo(b) - elo(a));
            let level = |r: &Row| Level {
                elo: elo(r),
                nodes: r.nodes,
                candidates: r.candidates,
                temperature: r.temperature,
            };
            let nodes = Level::between(level(a), level(b), m).nodes;
            ensure!(
                c.nodes.abs_diff(nodes) <= 1,
                "the check at UCI_Elo {m} played {} nodes a move; this table gives {nodes} there: \
                 judge a check against the table it was played under",
                c.nodes
            );
            let (sa, sb) = (
                sigma(a.measured_low, a.measured_high),
                sigma(b.measured_low, b.measured_high),
            );
            let table_sigma = ((1.0 - f).powi(2) * sa * sa + f * f * sb * sb).sqrt();
            let check_sigma = sigma(c.elo_low, c.elo_high);
            // The check's Elo is against the reference; the table's is m.
            let offset = f64::from(c.reference_elo - m);
            let difference = c.elo + offset;
            let half = z95() * (check_sigma * check_sigma + table_sigma * table_sigma).sqrt();
            let (low, high) = (difference - half, difference + half);
            let (check_low, check_high) = (c.elo_low + offset, c.elo_high + offset);
            Ok(Judgement {
                uci_elo: m,
                below_nodes: a.nodes,
                above_nodes: b.nodes,
                place: f,
                difference,
                check_low,
                check_high,
                table_sigma,
                low,
                high,
                holds_alone: check_low <= 0.0 && 0.0 <= check_high,
                holds: low <= 0.0 && 0.0 <= high,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::strength::tests::{bare, point_row, scratch};

    /// The check sits midway between neighbouring measured rows, whatever their order in the
    /// CSV, and its campaign file is one the runner accepts, a stage per midpoint.
    #[test]
    fn the_check_campaign_plays_the_midpoints() {
        let dir = scratch("check");
        let row = |a: i32, r: i32, elo: f64| point_row(dir.as_path(), a, r, elo, 200).unwrap();
        // Measured 1900, 1450, 1601: midpoints 1526 (1525.5 rounded) and 1751 (1750.5).
        let rows = vec![
            row(2400, 2100, -200.0),
            row(1500, 1500, -50.0),
            row(1800, 1800, -199.0),
        ];
        assert_eq!(check_points(&rows, None), vec![1526, 1751]);
        // The wider gap (1601 to 1900) alone, then both again when more are asked for.
        assert_eq!(check_points(&rows, Some(1)), vec![1751]);
        assert_eq!(check_points(&rows, Some(5)), vec![1526, 1751]);
        let one = check_campaign(&rows, 200, Some(1), Path::new("/tmp/check2"), "c").unwrap();
        assert!(
            one.contains("the 1 widest of the table's 2 gaps (1751)"),
            "{one}"
        );
        assert!(one.contains("name = \"check2\""), "{one}");
        assert!(
            one.contains("strength --judge"),
            "the rule with both errors: {one}"
        );
        assert!(!one.contains("check-1526"), "{one}");
        assert!(check_campaign(&rows, 200, Some(0), Path::new("/x"), "c").is_err());
        let text = check_campaign(&rows, 200, None, Path::new("/tmp/check"), "c.csv").unwrap();
        let file = dir.as_path().join("check.toml");
        std::fs::write(&file, &text).unwrap();
        let campaign = crate::campaign::file::CampaignFile::read(&file).unwrap();
        assert_eq!(campaign.stage.len(), 2);
        assert_eq!(campaign.stage[1].id, "check-1751");
        let cmd = campaign.stage[0].command.join(" ");
        assert!(cmd.contains("option.UCI_Elo=1526 --engine"), "{cmd}");
        assert!(
            cmd.contains("stockfish-1526,cmd=/usr/games/stockfish,nodes=300000"),
            "{cmd}"
        );
        assert!(check_campaign(&rows[..1], 200, None, Path::new("/x"), "c").is_err());
        assert!(check_campaign(&rows, 199, None, Path::new("/x"), "c").is_err());
    }

    /// A check at the midpoint of two rows measured to +-45: the table's error there is
    /// sqrt(2) * 22.96 / 2 = 16.2, so +50 [+5, +95] misses by its own error and holds with
    /// both; +80 misses either way; a check played under another table, or outside this one,
    /// is refused.
    #[test]
    fn a_check_is_judged_with_the_tables_error_beside_its_own() {
        let table = vec![bare(40_000, 0.5, 1700.0), bare(10_000, 0.5, 1500.0)];
        let check = |elo: f64, nodes: u64| Row {
            uci_elo: 1600,
            nodes,
            reference_elo: 1600,
            elo,
            elo_low: elo - 45.0,
            elo_high: elo + 45.0,
            measured: 1600.0 + elo,
            measured_low: 1555.0 + elo,
            measured_high: 1645.0 + elo,
            ..bare(nodes, 0.56, 1600.0 + elo)
        };
        let j = judge(&table, &[check(50.0, 20_000), check(80.0, 20_000)]).unwrap();
        assert_eq!((j[0].below_nodes, j[0].above_nodes), (10_000, 40_000));
        assert!((j[0].place - 0.5).abs() < 1e-12);
        assert!(
            (j[0].table_sigma - 16.236).abs() < 0.01,
            "{}",
            j[0].table_sigma
        );
        assert_eq!((j[0].check_low, j[0].check_high), (5.0, 95.0));
        assert!((j[0].low - (50.0 - 55.14)).abs() < 0.05, "{}", j[0].low);
        assert!(!j[0].holds_alone && j[0].holds);
        assert!(!j[1].holds_alone && !j[1].holds);
        let e = judge(&table, &[check(0.0, 25_000)])
            .unwrap_err()
            .to_string();
        assert!(e.contains("the table it was played under"), "{e}");
        let far = Row {
            uci_elo: 1750,
            ..check(0.0, 50_000)
        };
        let e = judge(&table, &[far]).unwrap_err().to_string();
        assert!(e.contains("outside the table"), "{e}");
        assert!(judge(&table[..1], &[check(0.0, 20_000)]).is_err());
    }
}
