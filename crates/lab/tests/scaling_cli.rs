//! `augur-lab scaling` through the real binary with the workspace's `augur`: a tiny study (a
//! technique and the calibration at two controls) writes its table, CSV and charts; killed
//! with SIGKILL at moments spread over the run and restarted, it ends with the same points as
//! an uninterrupted run (fixed-node games and probes repeat exactly); a finished study replays
//! nothing.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use augur_lab::scaling::{Point, COLUMNS};

fn argv(out: &Path) -> Vec<String> {
    [
        "scaling",
        "--quiet",
        "--engine",
        common::augur_binary().to_str().unwrap(),
        "-t",
        "nonmp:Nmp=false",
        "-t",
        "calibration",
        "--nodes",
        "600,1200",
        "--games",
        "4",
        "--activity-positions",
        "3",
        "--hash",
        "2",
        "--openings",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../arena/data/8moves_v3-sample300.epd"
        ),
        "--out",
        out.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The points of scaling.csv, in file order.
fn points(out: &Path) -> Vec<Point> {
    let text = std::fs::read_to_string(out.join("scaling.csv")).unwrap();
    assert!(text.contains(COLUMNS), "{text}");
    text.lines()
        .filter(|l| !l.starts_with('#') && *l != COLUMNS)
        .map(|l| Point::parse(l).unwrap())
        .collect()
}

fn run_to_end(out: &Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_augur-lab"))
        .args(argv(out))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_tiny_study_reports_and_resumes_after_kill_9() {
    let clean = common::scratch("scaling", "clean");
    let md = run_to_end(&clean);
    let want = points(&clean);
    assert_eq!(want.len(), 4, "{want:?}");
    for p in &want {
        assert_eq!(p.games, 4);
        assert_eq!(p.pairs, 2, "two openings, colours reversed");
        assert_eq!(p.probe_positions, 3);
        assert!(p.game_depth > 0.0 && p.probe_depth > 0.0, "{p:?}");
        assert!(p.elo.is_some());
    }
    let cal = want.iter().find(|p| p.technique == "calibration").unwrap();
    assert!(cal.tried_per_k.is_none());
    // The half side of the calibration searches half the nodes, so it reaches less deep.
    assert!(cal.game_depth > cal.game_depth_base, "{cal:?}");
    assert!(md.contains("### nonmp (`Nmp=false`)"), "{md}");
    assert!(md.contains("### calibration (N against N/2)"), "{md}");
    for chart in [
        "nonmp.svg",
        "nonmp.png",
        "calibration.svg",
        "calibration.png",
    ] {
        assert!(clean.join(chart).exists(), "{chart}");
    }

    let killed = common::scratch("scaling", "killed");
    for wait_ms in [300u64, 900, 1500, 2500] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_augur-lab"))
            .args(argv(&killed))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(wait_ms));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
    }
    run_to_end(&killed);
    let got = points(&killed);
    let key = |p: &Point| (p.technique.clone(), p.nodes);
    let mut sorted_want = want.clone();
    let mut sorted_got = got.clone();
    sorted_want.sort_by_key(key);
    sorted_got.sort_by_key(key);
    assert_eq!(sorted_got, sorted_want);

    // Finished: a rerun plays nothing and the PGNs stay as they are.
    let pgn = killed.join("calibration").join("nodes-1200.pgn");
    let before = std::fs::read(&pgn).unwrap();
    run_to_end(&killed);
    assert_eq!(std::fs::read(&pgn).unwrap(), before);
    assert_eq!(points(&killed).len(), 4);

    keep_into_evidence(&clean);
}

fn lab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_augur-lab"))
        .args(args)
        .output()
        .unwrap()
}

/// `scaling-keep`: every finished point's games and registry row, the table copied with its
/// restore entry; a second run keeps nothing twice; a table that is not the study's start is
/// refused.
fn keep_into_evidence(study: &Path) {
    let docs = common::scratch("scaling", "keep");
    let registry = docs.join("verdicts.csv");
    let table = docs.join("study/scaling.csv");
    std::fs::write(
        &registry,
        "id,kind,control,tested,base,bounds,elo_model,games,wins,draws,losses,penta,elo,elo_lo,\
         elo_hi,nelo,nelo_lo,nelo_hi,llr,verdict,evidence,note\n",
    )
    .unwrap();
    let keep_with = |table: &Path, more: &[&str]| {
        let mut args = vec![
            "scaling-keep",
            "--study",
            study.to_str().unwrap(),
            "--table",
            table.to_str().unwrap(),
            "--prefix",
            "tiny",
            "--note",
            "tiny study, {what}",
            "--registry",
            registry.to_str().unwrap(),
        ];
        args.extend_from_slice(more);
        lab(&args)
    };
    let keep = |table: &Path| keep_with(table, &["--what", "nonmp=null move off"]);
    let o = keep(&table);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read(&table).unwrap(),
        std::fs::read(study.join("scaling.csv")).unwrap()
    );
    let rows = std::fs::read_to_string(&registry).unwrap();
    assert_eq!(
        rows.lines().count(),
        5,
        "the column line and four points: {rows}"
    );
    assert!(
        rows.contains("tiny-nonmp-600,scaling,nodes=600,nonmp,base,"),
        "{rows}"
    );
    assert!(rows.contains("\"tiny study, null move off\""), "{rows}");
    assert!(rows.contains("tiny study, calibration"), "{rows}");
    assert!(docs.join("tiny-calibration-1200/games.pgn.xz").exists());
    let restore = std::fs::read_to_string(docs.join("study/restore.toml")).unwrap();
    assert!(restore.contains("kept = \"scaling.csv\""), "{restore}");

    let again = keep(&table);
    assert!(again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("kept already"),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
    assert_eq!(std::fs::read_to_string(&registry).unwrap(), rows);

    let other = docs.join("other.csv");
    std::fs::write(&other, "not the study's rows\n").unwrap();
    let refused = keep(&other);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("is not the start of"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    assert_eq!(std::fs::read_to_string(&registry).unwrap(), rows);

    // --model: this study fitted none, so there is nothing to keep and it says so.
    let with_model = |table: &Path| keep_with(table, &["--model"]);
    let none = with_model(&table);
    assert!(!none.status.success());
    assert!(
        String::from_utf8_lossy(&none.stderr).contains("--model"),
        "{}",
        String::from_utf8_lossy(&none.stderr)
    );
    // A model's files (the study's own layout): kept beside the table, the data compressed,
    // each restoring to the bytes it came from; a second run keeps nothing twice.
    let model = study.join("model");
    std::fs::create_dir_all(&model).unwrap();
    let data = "fen,d1,d2\n".repeat(500);
    for (name, text) in [
        ("probcut_params.toml", "[[pair]]\nshallow = 4\n"),
        ("engine.bench", "3068163\n"),
        ("collect-d10.csv", data.as_str()),
        ("probcut_scatter_4_8.svg", "<svg/>"),
    ] {
        std::fs::write(model.join(name), text).unwrap();
    }
    let o = with_model(&table);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let dir = docs.join("study");
    let origins = augur_arena::matchmaking::kept::Origins::read(&dir).unwrap();
    for (kept, from) in [
        ("probcut_params.toml", "probcut_params.toml"),
        ("engine.bench", "engine.bench"),
        ("collect-d10.csv.xz", "collect-d10.csv"),
    ] {
        let origin = origins
            .files
            .iter()
            .find(|o| o.kept == kept)
            .unwrap_or_else(|| panic!("{kept} has no restore entry: {origins:?}"));
        assert_eq!(origin.to, std::path::absolute(model.join(from)).unwrap());
        assert_eq!(
            augur_arena::matchmaking::kept::checked_bytes(&dir, origin).unwrap(),
            std::fs::read(model.join(from)).unwrap()
        );
    }
    assert!(
        std::fs::metadata(dir.join("collect-d10.csv.xz"))
            .unwrap()
            .len()
            < data.len() as u64
    );
    assert!(
        !dir.join("probcut_scatter_4_8.svg").exists(),
        "charts are redrawn, not kept"
    );
    let twice = with_model(&table);
    assert!(twice.status.success());
    assert!(
        !String::from_utf8_lossy(&twice.stdout).contains("kept, restores to"),
        "{}",
        String::from_utf8_lossy(&twice.stdout)
    );
    std::fs::remove_dir_all(&model).unwrap();
}

#[test]
fn bad_settings_are_refused_before_any_game() {
    let out = common::scratch("scaling", "bad");
    for (flag, value, says) in [
        ("--games", "4,4,4", "one count, or one per --nodes value"),
        ("--nodes", "1", "each at least 2"),
        ("-t", "bogus", "unknown technique 'bogus'"),
        ("-t", "typo:NmpReductoin=2", "NmpReductoin"),
        ("--set", "KingSafety=300", "KingSafety"),
        ("--set", "KingSafty=100", "KingSafty"),
        ("--set", "Hash=4", "Hash is --hash"),
        ("--set", "KingSafety", "Opt=Val"),
    ] {
        let mut args = argv(&out);
        args.extend([flag.to_string(), value.to_string()]);
        // Repeated, each flag adds to its list.
        let o = Command::new(env!("CARGO_BIN_EXE_augur-lab"))
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success() && err.contains(says),
            "{flag} {value}: {err}"
        );
    }
    assert!(!out.join("nonmp").exists(), "no game was played");
}
