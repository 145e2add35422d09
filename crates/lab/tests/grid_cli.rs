//! `augur-lab grid` with the workspace's own `augur` binary: a 2 × 1 grid of two games a cell
//! at a few hundred nodes writes its CSV, markdown and heat map; a second run plays nothing;
//! a misspelt option is a clear error before any game.

mod common;

use std::path::Path;
use std::process::Command;

use augur_lab::probcut::grid::{self, GridArgs, GridSummary, COLUMNS};
use clap::Parser;

#[derive(Parser)]
struct Wrapper {
    #[command(flatten)]
    args: GridArgs,
}

fn tiny_grid(out: &Path, x: &str) -> Vec<String> {
    [
        "grid",
        "--quiet",
        "--engine",
        common::augur_binary().to_str().unwrap(),
        "--x",
        x,
        "--y",
        "MpcThresholdMid=120",
        "--tc",
        "nodes=300",
        "--games",
        "2",
        "--hash",
        "4",
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn run(argv: &[String]) -> anyhow::Result<GridSummary> {
    grid::run(&Wrapper::try_parse_from(argv).expect("arguments parse").args)
}

/// The record lines of grid.csv (its `#` header and column line left out).
fn records(out: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(out.join("grid.csv")).unwrap();
    assert!(text.contains(COLUMNS), "{text}");
    text.lines()
        .filter(|l| !l.starts_with('#') && *l != COLUMNS)
        .map(str::to_string)
        .collect()
}

#[test]
fn a_tiny_grid_writes_its_table_and_heat_map_and_resumes_without_playing() {
    let out = common::scratch("grid", "tiny");
    let argv = tiny_grid(&out, "MpcThresholdEnd=60,140");
    let first = run(&argv).unwrap();
    assert_eq!(first.games_played, 4);
    assert_eq!(first.cells.len(), 1);
    assert_eq!(first.cells[0].len(), 2);
    for (cell, x) in first.cells[0].iter().zip([60, 140]) {
        assert_eq!((cell.x, cell.y, cell.counts.wdl.games()), (x, 120, 2));
        assert_eq!(
            cell.counts.penta.pairs(),
            1,
            "two games of one opening make a pair"
        );
    }
    let recs = records(&out);
    assert_eq!(recs.len(), 2);
    assert!(recs[0].starts_with("60,120,2,") && recs[1].starts_with("140,120,2,"));
    let md = std::fs::read_to_string(out.join("grid.md")).unwrap();
    assert!(md.contains("Provenance: commit"), "{md}");
    assert!(
        md.contains(
            "| MpcThresholdMid \\ MpcThresholdEnd | MpcThresholdEnd=60 | MpcThresholdEnd=140 |"
        ),
        "{md}"
    );
    assert!(md.contains(&format!(
        "| MpcThresholdMid=120 | {} (LOS",
        first.cells[0][0].elo_text()
    )));
    let svg = std::fs::read_to_string(out.join("grid_heatmap.svg")).unwrap();
    for text in ["MpcThresholdEnd", "MpcThresholdMid", "140", "2 games"] {
        assert!(svg.contains(text), "heat map lacks '{text}'");
    }
    let png = std::fs::read(out.join("grid_heatmap.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    for pgn in [
        "MpcThresholdEnd60-MpcThresholdMid120.pgn",
        "MpcThresholdEnd140-MpcThresholdMid120.pgn",
    ] {
        let text = std::fs::read_to_string(out.join(pgn)).unwrap();
        assert_eq!(text.matches("[Event ").count(), 2, "{pgn}");
    }
    assert!(out.join("provenance.toml").exists());

    // The same command again: every cell is done, no game is played, the files hold the same.
    let pgn = out.join("MpcThresholdEnd60-MpcThresholdMid120.pgn");
    let pgn_before = std::fs::read(&pgn).unwrap();
    let second = run(&argv).unwrap();
    assert_eq!(second.games_played, 0);
    assert_eq!(second.cells, first.cells);
    assert_eq!(records(&out), recs);
    assert_eq!(std::fs::read(&pgn).unwrap(), pgn_before);

    // Other settings in the same folder are refused, naming the difference.
    let other = run(&tiny_grid(&out, "MpcThresholdEnd=60,100")).unwrap_err();
    let msg = format!("{other:#}");
    assert!(
        msg.contains("x: file has 'MpcThresholdEnd=60,140'"),
        "{msg}"
    );
}

#[test]
fn a_misspelt_option_is_a_clear_error_before_any_game() {
    let out = common::scratch("grid", "typo");
    let output = Command::new(env!("CARGO_BIN_EXE_augur-lab"))
        .args(tiny_grid(&out, "MpcThresholdEnf=60,140"))
        .output()
        .unwrap();
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("grid cell MpcThresholdEnf=60"), "{err}");
    assert!(err.contains("has no option 'MpcThresholdEnf'"), "{err}");
    let pgn = out.join("MpcThresholdEnf60-MpcThresholdMid120.pgn");
    assert!(!pgn.exists(), "no PGN for a cell that never started");
    // A bad axis never reaches the engine.
    let output = Command::new(env!("CARGO_BIN_EXE_augur-lab"))
        .args(tiny_grid(&out, "MpcThresholdEnd=60,abc"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("'abc' is not an integer"), "{err}");
}
