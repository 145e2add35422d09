//! `augur-lab match` as a process (clear errors before any game) and two
//! Augur configurations through the arena (the workspace's own binary, so no
//! external engine is needed).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use augur_arena::game::pgn::read_played;
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

fn run_match(extra: &[&str]) -> anyhow::Result<MatchSummary> {
    let mut argv = vec!["match", "--quiet"];
    argv.extend_from_slice(extra);
    let w = Wrapper::try_parse_from(argv).expect("arguments parse");
    tournament::run(&w.args)
}

/// `augur-lab match` of `engine` against a shuffler, expected to fail before any game:
/// its stderr.
fn refused_match(engine: &str, pgn: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_augur-lab"))
        .args([
            "match",
            "--engine",
            engine,
            "--engine",
            &script("shuffle", "ok"),
        ])
        .arg("--pgn")
        .arg(pgn)
        .output()
        .unwrap();
    assert!(!out.status.success());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn bad_engine_path_is_a_clear_error() {
    let dir = common::scratch("it", "badpath");
    let pgn = dir.join("m.pgn");
    let err = refused_match("name=ghost,cmd=/nonexistent/ghost-engine", &pgn);
    assert!(
        err.contains("cannot start engine 'ghost' (command '/nonexistent/ghost-engine')"),
        "{err}"
    );
    assert!(!pgn.exists(), "no PGN for a match that never started");
    // A misspelt option is caught before the first game too.
    let typo = format!("{},option.Hsh=8", script("shuffle", "typo"));
    let err = refused_match(&typo, &pgn);
    assert!(err.contains("has no option 'Hsh'"), "{err}");
}

/// An engine spec for Augur on one thread with `options` (`Name=Value,option.Name=Value`).
fn augur_spec(augur: &Path, name: &str, options: &str) -> String {
    format!(
        "name={name},cmd={},option.Threads=1,option.{options}",
        augur.display()
    )
}

#[test]
fn fixed_nodes_match_between_augur_configurations_is_deterministic() {
    let augur = common::augur_binary();
    let dir = common::scratch("it", "det");
    let a = augur_spec(&augur, "nmp-on", "Nmp=true,option.Hash=8");
    let b = augur_spec(&augur, "nmp-off", "Nmp=false,option.Hash=8");
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
        runs.push(read_played(&pgn).unwrap());
    }
    assert_eq!(runs[0].len(), 4);
    assert_eq!(runs[0], runs[1]);
    assert!(runs[0].iter().all(|g| g.plies >= 10), "{:?}", runs[0]);
}

/// `augur-lab match` killed with SIGKILL several times, at random moments and
/// in the middle of writing a game record, then run to the end: the PGN holds
/// exactly the games of an uninterrupted run (same moves and results, none
/// lost, none twice, no torn record). Two Augur configurations at a few
/// hundred nodes per move keep the games varied, deterministic and quick.
#[test]
fn survives_kill_9_at_random_moments_and_during_a_write() {
    use augur_arena::game::pgn::complete_prefix_len;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let augur = common::augur_binary();
    let dir = common::scratch("it", "kill9");
    let a = augur_spec(&augur, "default", "Hash=4");
    let b = augur_spec(&augur, "classic", "Eval=classic,option.Hash=4");
    let games = 20;
    let args = |pgn: &Path| -> Vec<String> {
        let mut v: Vec<String> = [
            "match",
            "--quiet",
            "--engine",
            &a,
            "--engine",
            &b,
            "--tc",
            "nodes=300",
            "--games",
            &games.to_string(),
            "--seed",
            "5",
            "--concurrency",
            "2",
            "--resign-score",
            "600",
            "--resign-moves",
            "2",
            "--draw-score",
            "10",
            "--draw-moves",
            "4",
            "--draw-after",
            "30",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.push("--pgn".into());
        v.push(pgn.display().to_string());
        v
    };
    let lab = env!("CARGO_BIN_EXE_augur-lab");
    let reference = dir.join("reference.pgn");
    let status = Command::new(lab)
        .args(args(&reference))
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let expected = read_played(&reference).unwrap();
    assert_eq!(expected.len(), games);

    let pgn = dir.join("killed.pgn");
    // A small LCG: the kill moments are random but the test is repeatable.
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |n: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % n
    };
    let (mut kills, mut torn_kills) = (0, 0);
    for round in 0..6 {
        let during_write = round % 2 == 1;
        let mut cmd = Command::new(lab);
        cmd.args(args(&pgn))
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // The test hook pauses half-way through each record: long pauses make
        // the kill land mid-write, short ones still keep every run slower than
        // the kill moment on a fast machine (20 games at 300 nodes otherwise
        // finish in well under the random delay).
        cmd.env(
            "AUGUR_ARENA_WRITE_PAUSE_MS",
            if during_write { "400" } else { "150" },
        );
        let mut child = cmd.spawn().unwrap();
        if during_write {
            let deadline = Instant::now() + Duration::from_secs(30);
            while Instant::now() < deadline {
                if child.try_wait().unwrap().is_some() {
                    break;
                }
                let text = std::fs::read_to_string(&pgn).unwrap_or_default();
                if complete_prefix_len(text.as_bytes()) < text.len() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        } else {
            std::thread::sleep(Duration::from_millis(30 + next(300)));
        }
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap(); // SIGKILL
            kills += 1;
        }
        child.wait().unwrap();
        let text = std::fs::read_to_string(&pgn).unwrap_or_default();
        if complete_prefix_len(text.as_bytes()) < text.len() {
            torn_kills += 1;
        }
    }
    assert!(kills >= 5, "only {kills} runs were still going when killed");
    assert!(torn_kills >= 2, "only {torn_kills} kills tore a record");
    // The last run also writes its summary: the result of all 20 games, resumed ones included.
    let summary = dir.join("match.summary.toml");
    let status = Command::new(lab)
        .args(args(&pgn))
        .arg("--summary")
        .arg(&summary)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let read = augur_lab::kit::summary::read(&summary).unwrap();
    assert_eq!(read.command, "match");
    let figures: augur_lab::tournament::Figures = read.figures().unwrap();
    let pairing = figures.pairing.unwrap();
    assert_eq!(
        (pairing.engine.as_str(), pairing.opponent.as_str()),
        ("default", "classic")
    );
    let elo = pairing.elo.unwrap();
    assert_eq!(elo.games, games as u64);
    assert!(elo.elo_low <= elo.elo && elo.elo <= elo.elo_high, "{elo:?}");
    assert!(pairing.sprt.is_none());
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        complete_prefix_len(text.as_bytes()),
        text.len(),
        "a torn record is left"
    );
    assert_eq!(read_played(&pgn).unwrap(), expected);
}
