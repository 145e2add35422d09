//! `augur-lab reproduce --quick` through the binary: a step runs, is indexed with its command
//! and time, and is skipped when the command is run again.

use std::process::Command;

const LAB: &str = env!("CARGO_BIN_EXE_augur-lab");

#[test]
fn reproduce_runs_a_step_once_and_indexes_it() {
    let dir = std::env::temp_dir().join(format!("augur-lab-reproduce-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = |steps: &str| {
        Command::new(LAB)
            .args([
                "reproduce",
                "--quick",
                "--threads",
                "2",
                "--steps",
                steps,
                "--out",
            ])
            .arg(&dir)
            .output()
            .unwrap()
    };
    let out = run("compare");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = std::fs::read_to_string(dir.join("compare.md")).unwrap();
    assert!(report.contains("Provenance: commit `"), "{report}");
    assert!(report.contains("SPP/AB"), "{report}");
    assert!(dir.join("compare").join("results.csv").exists());
    let index = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(index.contains("| compare |"), "{index}");
    assert!(index.contains("| done, "), "{index}");
    assert!(index.contains("`augur-lab compare --depths 3-5"), "{index}");
    // The index's figure comes from the summary the step wrote beside its report.
    let summary = std::fs::read_to_string(dir.join("compare.summary.toml")).unwrap();
    assert!(summary.starts_with("command = \"compare\""), "{summary}");
    let figures: toml::Table = summary.parse().unwrap();
    let odd = figures["figures"]["extra_pruning"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["pair"].as_str() == Some("SPP/AB") && p["depths"].as_str() == Some("odd (3,5)"))
        .unwrap_or_else(|| panic!("no pooled odd depths: {summary}"));
    let pooled = odd["pooled"].as_float().unwrap();
    assert!(
        index.contains(&format!(
            "| SPP/AB fewer leaves, pooled: odd (3,5) depths {pooled:.1} % |"
        )),
        "{index}"
    );

    let again = run("compare");
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("compare done earlier"));
    let index = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(index.contains("done in an earlier run"), "{index}");

    let bad = run("nope");
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("no step 'nope'") && err.contains("collect"),
        "{err}"
    );
    let no_mode = Command::new(LAB).args(["reproduce"]).output().unwrap();
    assert!(!no_mode.status.success());
    let both = Command::new(LAB)
        .args(["reproduce", "--quick", "--full"])
        .output()
        .unwrap();
    assert!(!both.status.success());

    // --full has its own steps, the SPRT matches among them; an unknown one is refused before
    // anything runs, with the list.
    let full = Command::new(LAB)
        .args(["reproduce", "--full", "--steps", "nope", "--out"])
        .arg(dir.join("full"))
        .output()
        .unwrap();
    assert!(!full.status.success());
    let err = String::from_utf8_lossy(&full.stderr);
    assert!(
        err.contains("no step 'nope'")
            && err.contains("seed004-clamp,")
            && err.contains("seed004-removal")
            && err.contains("accuracy"),
        "{err}"
    );
    assert!(
        !dir.join("full").exists(),
        "nothing is written for a refused step"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
