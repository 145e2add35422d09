//! The perft suites through the real binary, node-limited so CI stays fast; the full suites
//! run with `augur perft --suite FILE` (see the README).

use std::process::Command;

fn suite(file: &str, max_nodes: &str) -> (bool, String) {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO_BIN_EXE_augur"))
        .args(["perft", "--suite", &path, "--max-nodes", max_nodes])
        .output()
        .expect("run augur");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
    )
}

#[test]
fn standard_suite_counts_match() {
    let (ok, text) = suite("perft.epd", "3000000");
    assert!(ok, "{text}");
    assert!(text.contains("126 positions"), "{text}");
    assert!(text.contains(" 0 failed"), "{text}");
}

#[test]
fn chess960_suite_counts_match() {
    let (ok, text) = suite("perft960.epd", "300000");
    assert!(ok, "{text}");
    assert!(text.contains("960 positions"), "{text}");
}

#[test]
fn a_wrong_count_fails_the_suite_and_names_the_line() {
    let dir = std::env::temp_dir().join(format!("augur-perft-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.epd");
    std::fs::write(
        &f,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_augur"))
        .args(["perft", "--suite", f.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("FAIL line 1 depth 2: expected 401, got 400"),
        "{text}"
    );
    std::fs::write(&f, "not a fen ;D1 20\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_augur"))
        .args(["perft", "--suite", f.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1"));
}

#[test]
fn divide_output_and_startpos_depth_4() {
    let out = Command::new(env!("CARGO_BIN_EXE_augur"))
        .args(["perft", "4"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("e2e4: 13160"), "{text}");
    assert!(text.contains("Nodes searched: 197281"), "{text}");
}
