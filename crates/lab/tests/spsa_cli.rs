//! `augur-lab spsa` killed with SIGKILL at random moments resumes from its
//! state file and ends with exactly the history of an uninterrupted run; the
//! trajectory chart is written. The engine is the arena's toy engine.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The arena's `arena-toy-engine`, next to this test's profile directory
/// (`cargo test --workspace` builds it; otherwise it is built here).
fn toy_engine() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    let bin = profile_dir.join("arena-toy-engine");
    if !bin.exists() {
        let target_dir = profile_dir.parent().unwrap();
        let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cmd.args(["build", "-p", "augur-arena", "--bins", "--target-dir"])
            .arg(target_dir);
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        assert!(
            cmd.status().unwrap().success(),
            "building the toy engine failed"
        );
    }
    bin
}

fn spsa(out: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_augur-lab"));
    cmd.args([
        "spsa",
        "--quiet",
        "--engine",
        &format!("name=toy,cmd={}", toy_engine().display()),
        "--param",
        "Skill, int, 20, 0, 100, 8, 0.05",
        "--param",
        "Focus, float, 0.9, 0, 1, 0.08, 0.1",
        "--iterations",
        "40",
        "--pairs",
        "2",
        "--tc",
        "nodes=1",
        "--resign-score",
        "300",
        "--resign-moves",
        "2",
        "--draw-score",
        "100",
        "--draw-after",
        "40",
        "--concurrency",
        "2",
        "--seed",
        "9",
        "--out",
    ])
    .arg(out)
    .stdout(Stdio::null())
    .stderr(Stdio::null());
    cmd
}

#[test]
fn spsa_survives_kill_9_and_charts_its_trajectories() {
    let base = std::env::temp_dir().join(format!("augur-lab-spsa-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let reference = base.join("reference");
    assert!(spsa(&reference).status().unwrap().success());
    let expected = std::fs::read_to_string(reference.join("history.csv")).unwrap();
    assert_eq!(expected.lines().count(), 42, "{expected}");
    assert!(reference.join("trajectories.svg").exists());
    assert!(reference.join("trajectories.png").exists());

    let killed = base.join("killed");
    let mut seed: u64 = 12345;
    let mut kills = 0;
    for _ in 0..5 {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let mut child = spsa(&killed).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(40 + (seed >> 33) % 200));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap(); // SIGKILL
            kills += 1;
        }
        child.wait().unwrap();
    }
    assert!(kills >= 3, "only {kills} runs were still going when killed");
    assert!(spsa(&killed).status().unwrap().success());
    let got = std::fs::read_to_string(killed.join("history.csv")).unwrap();
    assert_eq!(got, expected);
    std::fs::remove_dir_all(&base).ok();
}

/// A finished tuning leaves what a campaign's next stage needs: `--summary` with each
/// parameter's start and tuned value, and `engines.toml` with the tuned engine against the
/// starting one, which `match --engines-file` reads back with those values.
#[test]
fn spsa_writes_its_summary_and_the_engines_to_judge_it() {
    let base = std::env::temp_dir().join(format!("augur-lab-spsa-sum-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let out = base.join("run");
    let summary = base.join("summary.toml");
    let mut cmd = spsa(&out);
    cmd.arg("--summary").arg(&summary);
    assert!(cmd.status().unwrap().success());

    let text = std::fs::read_to_string(&summary).unwrap();
    let s: toml::Table = toml::from_str(&text).unwrap();
    assert_eq!(s["command"].as_str(), Some("spsa"));
    let f = s["figures"].as_table().unwrap();
    assert_eq!(f["iterations"].as_integer(), Some(40));
    assert_eq!(f["games"].as_integer(), Some(160));
    let params = f["params"].as_array().unwrap();
    let tuned = |name: &str| {
        params
            .iter()
            .find(|p| p["name"].as_str() == Some(name))
            .map(|p| {
                (
                    p["start"].as_float().unwrap(),
                    p["tuned"].as_float().unwrap(),
                )
            })
            .unwrap()
    };
    let (skill_start, skill) = tuned("Skill");
    assert_eq!(skill_start, 20.0);
    assert!(
        skill.fract() == 0.0 && (0.0..=100.0).contains(&skill),
        "{skill}"
    );
    let (_, focus) = tuned("Focus");
    assert!((0.0..=1.0).contains(&focus), "{focus}");

    let engines = augur_arena::engine::spec::load_engines_file(&out.join("engines.toml")).unwrap();
    let names: Vec<&str> = engines.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["tuned", "start"]);
    let opt = |i: usize, k: &str| engines[i].option(k).unwrap().to_string();
    assert_eq!(opt(0, "Skill"), format!("{}", skill as i64));
    assert_eq!(opt(1, "Skill"), "20");
    assert_eq!(opt(1, "Focus"), "0.9");
    assert_eq!(engines[0].cmd, toy_engine());
    std::fs::remove_dir_all(&base).ok();
}
