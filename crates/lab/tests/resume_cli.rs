//! The long lab runs (`collect`, `compare`, `depth`, `solve`, `mpd`, `sfpc-depths`) killed with
//! SIGKILL at random moments and in the middle of writing a record, then restarted with the same
//! command: the result file ends with exactly the records of an uninterrupted run (none lost,
//! none twice, no torn line), and a restart with other settings is refused.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const LAB: &str = env!("CARGO_BIN_EXE_augur-lab");

fn lab(args: &[String]) -> Command {
    let mut cmd = Command::new(LAB);
    cmd.args(args).stdout(Stdio::null()).stderr(Stdio::null());
    cmd
}

fn run_ok(args: &[String]) {
    let out = Command::new(LAB).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "augur-lab {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The record lines of a result file (its `#` header left out), without the columns named in
/// `timing` (wall-clock times, which no two runs share).
fn records(path: &Path, timing: &[&str]) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(
        text.ends_with('\n'),
        "{} ends in a torn line",
        path.display()
    );
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let columns: Vec<&str> = lines.next().unwrap().split(',').collect();
    let skip: Vec<usize> = timing
        .iter()
        .map(|t| columns.iter().position(|c| c == t).unwrap())
        .collect();
    lines
        .map(|l| {
            l.split(',')
                .enumerate()
                .filter(|(i, _)| !skip.contains(i))
                .map(|(_, f)| f)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect()
}

fn torn(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|b| !b.is_empty() && b.last() != Some(&b'\n'))
}

/// Starts `args` `rounds` times and kills each run with SIGKILL: odd rounds as soon as a
/// record is half written (the write-pause hook holds it torn for 400 ms), even rounds at a
/// random moment. The 150 ms pause of even rounds keeps every run slower than the kill
/// moment even on a fast idle machine. Returns (kills, kills that left a torn record).
fn kill_rounds(args: &[String], file: &Path, rounds: usize, seed: u64) -> (usize, usize) {
    let mut seed = seed;
    let mut next = move |n: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % n
    };
    let (mut kills, mut torn_kills) = (0, 0);
    for round in 0..rounds {
        let during_write = round % 2 == 1;
        let mut cmd = lab(args);
        cmd.env(
            "AUGUR_ARENA_WRITE_PAUSE_MS",
            if during_write { "400" } else { "150" },
        );
        let mut child = cmd.spawn().unwrap();
        if during_write {
            let deadline = Instant::now() + Duration::from_secs(30);
            while Instant::now() < deadline && child.try_wait().unwrap().is_none() && !torn(file) {
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
        if torn(file) {
            torn_kills += 1;
        }
    }
    (kills, torn_kills)
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

const POSITIONS: &str = include_str!("../data/games-sample300.epd");

#[test]
fn collect_survives_kill_9_and_refuses_other_settings() {
    let dir = common::scratch("resume", "collect");
    let epd = dir.join("sample.epd");
    let sixteen: String = POSITIONS
        .lines()
        .take(16)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&epd, sixteen).unwrap();
    let args = |out: &Path, depth: &str| {
        let mut v = strings(&["collect", "--quiet", "--threads", "2", "--hash", "1"]);
        v.extend(strings(&["--depth", depth, "--epd"]));
        v.push(epd.display().to_string());
        v.push("--out".into());
        v.push(out.display().to_string());
        v
    };
    let reference = dir.join("reference.csv");
    let first = Command::new(LAB)
        .args(args(&reference, "4"))
        .output()
        .unwrap();
    assert!(first.status.success());
    // `--quiet` silences the progress, not the report: a `reproduce` step gets one.
    let report = String::from_utf8_lossy(&first.stdout);
    assert!(
        report.contains("16 positions searched to every depth 1..4 (16 this run)")
            && report.contains("Provenance: commit"),
        "{report}"
    );
    let expected = records(&reference, &[]);
    // Every position is there (one line per depth reached, at most 4).
    let ids: std::collections::BTreeSet<&str> = expected
        .iter()
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(ids.len(), 16, "{expected:?}");
    assert!(expected.len() > 16 * 3, "{expected:?}");

    let killed = dir.join("killed.csv");
    let (kills, torn_kills) = kill_rounds(&args(&killed, "4"), &killed, 6, 0x5EED_0001);
    assert!(kills >= 4, "only {kills} runs were still going when killed");
    assert!(torn_kills >= 2, "only {torn_kills} kills tore a record");
    run_ok(&args(&killed, "4"));
    assert_eq!(records(&killed, &[]), expected);

    // Other settings on the same file: refused, naming the difference; the file is untouched.
    let before = std::fs::read(&killed).unwrap();
    let out = Command::new(LAB).args(args(&killed, "5")).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("other settings"), "{err}");
    assert!(
        err.contains("depth: file has '4', this run has '5'"),
        "{err}"
    );
    assert_eq!(std::fs::read(&killed).unwrap(), before);
    // The header names the data file's hash and the provenance.
    let text = String::from_utf8(before).unwrap();
    assert!(text.contains("epd_sha256 = \""), "{text}");
    assert!(text.contains("# command_line = "), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compare_survives_kill_9() {
    let dir = common::scratch("resume", "compare");
    let args = |out: &Path| {
        let mut v = strings(&[
            "compare",
            "--quiet",
            "--brief",
            "--limit",
            "4",
            "--depths",
            "2-3",
            "--algorithms",
            "alphabeta,spp,sppt",
            "--threads",
            "2",
            "--tt-mib",
            "1",
            "--out",
        ]);
        v.push(out.display().to_string());
        v
    };
    let reference = dir.join("reference");
    run_ok(&args(&reference));
    let expected = records(&reference.join("results.csv"), &["time_ms"]);
    assert_eq!(expected.len(), 4 * 2 * 3);

    let killed = dir.join("killed");
    let file = killed.join("results.csv");
    let (kills, torn_kills) = kill_rounds(&args(&killed), &file, 6, 0x5EED_0002);
    assert!(kills >= 4, "only {kills} runs were still going when killed");
    assert!(torn_kills >= 2, "only {torn_kills} kills tore a record");
    run_ok(&args(&killed));
    assert_eq!(records(&file, &["time_ms"]), expected);
    let summary = std::fs::read_to_string(killed.join("summary.md")).unwrap();
    assert!(summary.contains("Provenance: commit `"), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `depth` or `solve` killed once in the middle of a record and restarted; the finished run's
/// report and records (its `ms` column left out).
fn variant_run_resumes(cmd: &str, input: (&str, &Path), dir: &Path) -> (String, Vec<String>) {
    let augur = common::augur_binary();
    let args = |csv: &Path, nodes: &str| {
        let mut v = strings(&[cmd, "--quiet", "--nodes", nodes, "--hash", "1"]);
        v.extend(strings(&[
            "-v",
            "baseline",
            "-v",
            "nonmp:Nmp=false",
            input.0,
        ]));
        v.push(input.1.display().to_string());
        v.push("--engine".into());
        v.push(augur.display().to_string());
        v.push("--csv".into());
        v.push(csv.display().to_string());
        v
    };
    let reference = dir.join("reference.csv");
    run_ok(&args(&reference, "3000"));
    let expected = records(&reference, &["ms"]);
    assert_eq!(expected.len(), 4 * 2, "{expected:?}");

    let killed = dir.join("killed.csv");
    let (kills, torn_kills) = kill_rounds(&args(&killed, "3000"), &killed, 2, 0x5EED_0003);
    assert!(
        kills >= 1 && torn_kills >= 1,
        "{kills} kills, {torn_kills} torn"
    );
    let out = Command::new(LAB)
        .args(args(&killed, "3000"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(records(&killed, &["ms"]), expected);
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(report.contains("Provenance: commit `"), "{report}");

    let out = Command::new(LAB)
        .args(args(&killed, "4000"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("budget: file has 'nodes 3000', this run has 'nodes 4000'"),
        "{err}"
    );
    (report, expected)
}

#[test]
fn depth_resumes_after_kill_9_and_reports_paired_intervals() {
    let dir = common::scratch("resume", "depth");
    let epd = dir.join("four.epd");
    let four: String = POSITIONS
        .lines()
        .take(4)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&epd, four).unwrap();
    let (report, records) = variant_run_resumes("depth", ("--epd", epd.as_path()), &dir);
    // Each variant's depth per position, from the records (index,line,variant,depth,...).
    let depths = |variant: &str| -> Vec<f64> {
        records
            .iter()
            .map(|r| r.split(',').collect::<Vec<_>>())
            .filter(|f| f[2] == variant)
            .map(|f| f[3].parse().unwrap())
            .collect()
    };
    let (base, nonmp) = (depths("baseline"), depths("nonmp"));
    assert_eq!((base.len(), nonmp.len()), (4, 4), "{records:?}");
    // The paired 95% interval of the gain, worked out here: Student's t with 3 degrees of
    // freedom over the four per-position differences.
    let diffs: Vec<f64> = nonmp.iter().zip(&base).map(|(a, b)| a - b).collect();
    let mean = diffs.iter().sum::<f64>() / 4.0;
    let sd = (diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / 3.0).sqrt();
    let half = 3.182_446_305_284_263 * sd / 2.0;
    let mean_of = |v: &[f64]| v.iter().sum::<f64>() / 4.0;
    let row = |name: &str| -> Vec<String> {
        report
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row for {name}: {report}"))
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    // variant, positions, avg depth `m ± h`, gain `g ± h` (the first variant has none: `-`).
    let nonmp_row = row("nonmp");
    assert_eq!(nonmp_row[1], "4", "{report}");
    assert_eq!(nonmp_row[2], format!("{:.2}", mean_of(&nonmp)), "{report}");
    assert_eq!(
        nonmp_row[5..8].join(" "),
        format!("{mean:+.2} ± {half:.2}"),
        "{report}"
    );
    let base_row = row("baseline");
    assert_eq!(base_row[2], format!("{:.2}", mean_of(&base)), "{report}");
    assert_eq!(base_row[5], "-", "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn solve_resumes_after_kill_9() {
    let dir = common::scratch("resume", "solve");
    let suite = dir.join("wac4.epd");
    std::fs::write(
        &suite,
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n\
         8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id \"WAC.002\";\n\
         5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - bm Rg3; id \"WAC.003\";\n\
         r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - bm Qxh7+; id \"WAC.004\";\n",
    )
    .unwrap();
    variant_run_resumes("solve", ("--suite", suite.as_path()), &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mpd_resumes_after_kill_9() {
    let dir = common::scratch("resume", "mpd");
    let args = |out: &Path| {
        let mut v = strings(&[
            "mpd",
            "--quiet",
            "--games",
            "6",
            "--play-depth",
            "2",
            "--max-plies",
            "12",
            "--limit",
            "20",
            "--prune-positions",
            "4",
            "--prune-depth",
            "2",
            "--search-depth",
            "0",
            "--threads",
            "2",
            "--out",
        ]);
        v.push(out.display().to_string());
        v
    };
    let reference = dir.join("reference");
    run_ok(&args(&reference));
    let games = records(&reference.join("selfplay.csv"), &[]);
    let pruning = records(&reference.join("pruning.csv"), &["time_ms"]);
    assert_eq!((games.len(), pruning.len()), (6, 12));

    let killed = dir.join("killed");
    let (kills, torn_kills) =
        kill_rounds(&args(&killed), &killed.join("selfplay.csv"), 2, 0x5EED_0004);
    assert!(
        kills >= 1 && torn_kills >= 1,
        "{kills} kills, {torn_kills} torn"
    );
    run_ok(&args(&killed));
    assert_eq!(records(&killed.join("selfplay.csv"), &[]), games);
    assert_eq!(records(&killed.join("pruning.csv"), &["time_ms"]), pruning);
    assert_eq!(
        std::fs::read_to_string(killed.join("spreads.csv")).unwrap(),
        std::fs::read_to_string(reference.join("spreads.csv")).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sfpc_depths_survives_kill_9() {
    let dir = common::scratch("resume", "sfpc-depths");
    let args = |out: &Path| {
        let mut v = strings(&[
            "sfpc-depths",
            "--quiet",
            "--positions",
            "12",
            "--depth",
            "8",
            "--hash",
            "1",
            "--out",
        ]);
        v.push(out.display().to_string());
        v
    };
    let reference = dir.join("reference.csv");
    run_ok(&args(&reference));
    let expected = records(&reference, &[]);
    // One record per position and rule (fixed, dynamic, dynamic-clamped).
    assert_eq!(expected.len(), 12 * 3, "{expected:?}");
    let killed = dir.join("killed.csv");
    let (kills, _) = kill_rounds(&args(&killed), &killed, 4, 0x5EED_0004);
    assert!(kills >= 2, "only {kills} runs were still going when killed");
    run_ok(&args(&killed));
    assert_eq!(records(&killed, &[]), expected);
    let _ = std::fs::remove_dir_all(&dir);
}
