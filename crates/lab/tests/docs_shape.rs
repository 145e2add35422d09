//! The docs are a reference, and stay one: within their sizes (issue 65: all Markdown under
//! docs/ under 3,500 lines, nnue.md under 400), no diary (the word "session" names none of
//! their sections or sentences; history is git's and CHANGELOG.md's), and ARCHITECTURE.md a map
//! whose table cells stay short.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .unwrap()
        .to_path_buf()
}

fn markdown_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            markdown_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

#[test]
fn the_docs_stay_within_their_sizes() {
    let mut files = Vec::new();
    markdown_under(&root().join("docs"), &mut files);
    let lines = |p: &Path| std::fs::read_to_string(p).unwrap().lines().count();
    let total: usize = files.iter().map(|f| lines(f)).sum();
    assert!(
        total < 3500,
        "docs/ holds {total} lines of Markdown (under 3,500)"
    );
    let nnue = lines(&root().join("docs/nnue.md"));
    assert!(nnue < 400, "docs/nnue.md has {nnue} lines (under 400)");
}

#[test]
fn the_docs_name_no_session() {
    let mut files = Vec::new();
    markdown_under(&root().join("docs"), &mut files);
    for name in ["README.md", "ARCHITECTURE.md", "CHANGELOG.md"] {
        files.push(root().join(name));
    }
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (n, line) in text.lines().enumerate() {
            assert!(
                !line.to_lowercase().contains("session"),
                "{}:{}: the docs are a reference, not a diary: {line}",
                f.display(),
                n + 1
            );
        }
    }
}

#[test]
fn architecture_is_a_map_with_short_cells() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('|') {
            for cell in line.split('|') {
                let len = cell.trim().chars().count();
                assert!(
                    len <= 300,
                    "ARCHITECTURE.md:{}: a cell of {len} characters (a map keeps them under 300)",
                    n + 1
                );
            }
        }
    }
}
