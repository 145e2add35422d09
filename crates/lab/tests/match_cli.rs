//! `augur-lab match` as a process (clear errors before any game) and two
//! Augur configurations through the arena (the workspace's own binary, so no
//! external engine is needed).

use std::path::{Path, PathBuf};
use std::process::Command;

use augur_arena::matchmaking::tournament::{self, MatchArgs, MatchSummary};
use clap::Parser;

#[derive(Parser)]
struct Wrapper {
    #[command(flatten)]
    args: MatchArgs,
}

/// The arena's scripted stand-in engine.
fn engines_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../arena/tests/engines")
}

fn script(mode: &str, name: &str) -> String {
    format!(
        "name={name},cmd={},arg={mode}",
        engines_dir().join("scripted-engine.sh").display()
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("augur-lab-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run_match(extra: &[&str]) -> anyhow::Result<MatchSummary> {
    let mut argv = vec!["match", "--quiet"];
    argv.extend_from_slice(extra);
    let w = Wrapper::try_parse_from(argv).expect("arguments parse");
    tournament::run(&w.args)
}

/// Round, result and moves of each game, without clock/eval comments and dates.
fn games_without_timing(pgn: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(pgn).unwrap();
    let mut out = Vec::new();
    for game in text.split("[Event ").skip(1) {
        let round: usize = game
            .split("[Round \"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .and_then(|r| r.parse().ok())
            .unwrap();
        let mut moves = String::new();
        let mut depth = 0;
        for c in game.split("\n\n").nth(1).unwrap_or("").chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => moves.push(c),
                _ => {}
            }
        }
        let result = game
            .split("[Result \"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let moves: Vec<&str> = moves.split_whitespace().collect();
        out.push((round, format!("{result} {}", moves.join(" "))));
    }
    out.sort();
    out
}

#[test]
fn bad_engine_path_is_a_clear_error() {
    let dir = scratch("badpath");
    let out = Command::new(env!("CARGO_BIN_EXE_augur-lab"))
        .args([
            "match",
            "--engine",
            "name=ghost,cmd=/nonexistent/ghost-engine",
            "--engine",
            &script("shuffle", "ok"),
            "--pgn",
            dir.join("m.pgn").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot start engine 'ghost' (command '/nonexistent/ghost-engine')"),
        "{err}"
    );
    assert!(
        !dir.join("m.pgn").exists(),
        "no PGN for a match that never started"
    );
    // A misspelt option is caught before the first game too.
    let out = Command::new(env!("CARGO_BIN_EXE_augur-lab"))
        .args([
            "match",
            "--engine",
            &format!("{},option.Hsh=8", script("shuffle", "typo")),
            "--engine",
            &script("shuffle", "ok"),
            "--pgn",
            dir.join("m.pgn").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("has no option 'Hsh'"), "{err}");
}

/// The workspace's `augur` binary, next to this test's profile directory.
/// `cargo test --workspace` builds it; otherwise it is built here.
fn augur_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    let bin = profile_dir.join("augur");
    if !bin.exists() {
        let target_dir = profile_dir.parent().unwrap();
        let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cmd.args(["build", "-p", "augur", "--target-dir"])
            .arg(target_dir);
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        let status = cmd.status().expect("cannot run cargo to build augur");
        assert!(status.success(), "building augur failed");
    }
    assert!(
        bin.exists(),
        "augur binary not found at {} (build it with cargo build -p augur)",
        bin.display()
    );
    bin
}

#[test]
fn fixed_nodes_match_between_augur_configurations_is_deterministic() {
    let augur = augur_binary();
    let dir = scratch("det");
    let a = format!(
        "name=nmp-on,cmd={},option.Nmp=true,option.Threads=1,option.Hash=8",
        augur.display()
    );
    let b = format!(
        "name=nmp-off,cmd={},option.Nmp=false,option.Threads=1,option.Hash=8",
        augur.display()
    );
    let mut runs = Vec::new();
    for k in 0..2 {
        let pgn = dir.join(format!("run{k}.pgn"));
        let s = run_match(&[
            "--engine",
            &a,
            "--engine",
            &b,
            "--tc",
            "nodes=1500",
            "--games",
            "4",
            "--seed",
            "11",
            "--concurrency",
            "1",
            "--pgn",
            pgn.to_str().unwrap(),
        ])
        .unwrap();
        assert_eq!(s.games_played, 4);
        assert_eq!(s.faults, 0, "{}", s.report);
        runs.push(games_without_timing(&pgn));
    }
    assert_eq!(runs[0].len(), 4);
    assert_eq!(runs[0], runs[1]);
    assert!(runs[0].iter().all(|(_, g)| g.split(' ').count() > 10));
}
