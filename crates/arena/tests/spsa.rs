//! SPSA on a toy problem with a known optimum: `arena-toy-engine` blunders
//! less the closer Skill is to 70 and Focus to 0.3 (see its source). Starting
//! far away, SPSA must walk both parameters to the optimum within 80
//! iterations of two game pairs each (a few seconds).

use std::path::{Path, PathBuf};

use augur_arena::spsa::run::{self, SpsaArgs};
use clap::Parser;

#[derive(Parser)]
struct Wrapper {
    #[command(flatten)]
    args: SpsaArgs,
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("augur-arena-spsa-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn args(out: &Path, extra: &[&str]) -> SpsaArgs {
    let engine = format!("name=toy,cmd={}", env!("CARGO_BIN_EXE_arena-toy-engine"));
    let mut argv = vec![
        "spsa",
        "--quiet",
        "--engine",
        &engine,
        "--param",
        "Skill, int, 20, 0, 100, 8, 0.05",
        "--param",
        "Focus, float, 0.9, 0, 1, 0.08, 0.1",
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
        "--draw-moves",
        "4",
        "--draw-after",
        "40",
        "--concurrency",
        "2",
        "--seed",
        "3",
    ];
    argv.extend_from_slice(extra);
    let out = out.display().to_string();
    argv.extend_from_slice(&["--out", &out]);
    Wrapper::try_parse_from(argv).expect("arguments parse").args
}

#[test]
fn finds_the_toy_engines_optimum() {
    let out = scratch("toy");
    let s = run::run(&args(&out, &["--iterations", "80"])).unwrap();
    assert_eq!(s.iterations, 80);
    assert_eq!(s.games_played, 80 * 4);
    let (skill, focus) = (s.theta[0], s.theta[1]);
    assert!((58.0..=82.0).contains(&skill), "Skill {skill}");
    assert!((0.12..=0.5).contains(&focus), "Focus {focus}");
    // The history has the start and every iteration.
    let h = run::read_history(&s.csv).unwrap();
    assert_eq!(h.names, ["Skill", "Focus"]);
    assert_eq!(h.iterations, (0..=80).collect::<Vec<u64>>());
    assert_eq!(h.values[0][0], 20.0);
    assert_eq!(h.values[1][80], focus);
    // A finished run resumes to nothing; other settings are refused.
    let again = run::run(&args(&out, &["--iterations", "80"])).unwrap();
    assert_eq!(again.theta, s.theta);
    let err = format!(
        "{:#}",
        run::run(&args(&out, &["--iterations", "90"])).unwrap_err()
    );
    assert!(err.contains("belongs to another run"), "{err}");
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn bad_parameters_are_clear_errors() {
    let out = scratch("bad");
    let mut a = args(&out, &["--iterations", "5"]);
    a.param_lines = vec!["Skill, int, 20, 0, 100, 8".to_string()];
    let err = format!("{:#}", run::run(&a).unwrap_err());
    assert!(
        err.contains("--param:1") && err.contains("7 comma-separated"),
        "{err}"
    );
    a.param_lines = vec!["Nonsense, int, 20, 0, 100, 8, 0.1".to_string()];
    let err = format!("{:#}", run::run(&a).unwrap_err());
    assert!(err.contains("has no option 'Nonsense'"), "{err}");
    assert!(!out.join(run::STATE_FILE).exists());
}
