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

/// `stats --row --keep --registry` turns a finished match into committed evidence in one
/// step: the record and PGN kept, the row appended; the registry then verifies, and the same
/// id or an existing record is refused without touching either.
#[test]
fn a_match_becomes_evidence_and_a_registry_row_in_one_step() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = std::env::temp_dir().join(format!("augur-keep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // Two games of one opening pair, with the move comments `match` writes.
    let game = |white: &str, black: &str, result: &str| {
        format!(
            "[Event \"t\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
             [TimeControl \"nodes=1000\"]\n\n1. e4 {{+0.30/9 0.010s}} e5 {{-0.25/9 0.011s}} \
             2. Nf3 {{+0.31/9 0.010s}} {result}\n\n"
        )
    };
    let games = dir.join("games.pgn");
    let pgn_text = game("a", "b", "1-0") + &game("b", "a", "1/2-1/2");
    std::fs::write(&games, &pgn_text).unwrap();
    let registry = dir.join("verdicts.csv");
    let columns = std::fs::read_to_string(root.join("docs/evidence/verdicts.csv")).unwrap();
    std::fs::write(&registry, format!("{}\n", columns.lines().next().unwrap())).unwrap();
    let keep = |id: &str, strip: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_augur-lab"));
        cmd.current_dir(&dir)
            .arg("stats")
            .arg(&games)
            .args(["--row", id, "--kind", "match", "--keep", "kept"])
            .arg("--registry")
            .arg(&registry);
        if strip {
            cmd.arg("--strip-comments");
        }
        cmd.output().unwrap()
    };
    let out = keep("kept-match", true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The kept PGN is the games without their comments: `stats` reads it to the same row.
    let reread = Command::new(env!("CARGO_BIN_EXE_augur-lab"))
        .current_dir(&dir)
        .args([
            "stats",
            "kept/games.pgn.xz",
            "--row",
            "kept-match",
            "--kind",
            "match",
        ])
        .output()
        .unwrap();
    assert!(
        reread.status.success(),
        "{}",
        String::from_utf8_lossy(&reread.stderr)
    );
    let text = std::fs::read_to_string(&registry).unwrap();
    assert!(text
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("kept-match,match,"));
    assert!(text.contains("kept/games.csv.xz"), "{text}");
    let verify = Command::new(env!("CARGO_BIN_EXE_augur-lab"))
        .current_dir(&dir)
        .arg("stats")
        .arg("--verify")
        .arg(&registry)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&verify.stdout);
    assert!(verify.status.success(), "{report}");
    assert!(report.contains("ok kept-match"), "{report}");
    // Written once: the same folder again is refused, and the registry is unchanged.
    let again = keep("kept-again", false);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("written once"));
    assert_eq!(std::fs::read_to_string(&registry).unwrap(), text);
    std::fs::remove_dir_all(dir.join("kept")).unwrap();
    let same_id = keep("kept-match", false);
    assert!(!same_id.status.success());
    assert!(String::from_utf8_lossy(&same_id.stderr).contains("is there already"));
    assert_eq!(std::fs::read_to_string(&registry).unwrap(), text);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every committed restore record (`docs/evidence/**/restore.toml`) names kept files that are
/// there and decompress to the recorded SHA-256, so that `campaign restore` after a lost
/// machine puts back exactly what was kept (a table appended to since must have its SHA-256
/// updated with it).
#[test]
fn every_restore_record_matches_its_kept_files() {
    use augur_arena::matchmaking::kept;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/evidence");
    let mut checked = 0;
    for (dir, origins) in augur_lab::campaign::restore::records(&root).unwrap() {
        for origin in origins.files {
            kept::checked_bytes(&dir, &origin)
                .unwrap_or_else(|err| panic!("{}: {err:#}", dir.display()));
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} restore records found");
}
