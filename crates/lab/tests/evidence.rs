//! The committed verdict registry (`docs/evidence/verdicts.csv`) against its evidence: every
//! row that names evidence must be what `augur-lab stats` recomputes from it, to the digit.

use std::path::Path;
use std::process::Command;

#[test]
fn every_committed_verdict_recomputes_from_its_evidence() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let registry = root.join("docs/evidence/verdicts.csv");
    let out = Command::new(env!("CARGO_BIN_EXE_augur-lab"))
        .current_dir(&root)
        .arg("stats")
        .arg("--verify")
        .arg(&registry)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    // The registry is not empty of evidence: a check of nothing would pass as well.
    let recomputed = text
        .lines()
        .filter(|l| l.starts_with("ok ") && !l.ends_with("(lost)"))
        .count();
    assert!(recomputed >= 30, "{text}");
}
