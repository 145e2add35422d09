//! What the lab's integration tests share: a scratch directory, the workspace's `augur`
//! binary and a seeded normal generator for synthetic data.

#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh, empty directory for one test (`kind` and `name` keep parallel tests apart).
pub fn scratch(kind: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("augur-lab-{kind}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The workspace's `augur` binary, next to this test's profile directory
/// (`cargo test --workspace` builds it; otherwise it is built here).
pub fn augur_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    let bin = profile_dir.join("augur");
    if !bin.exists() {
        let target_dir = profile_dir.parent().unwrap();
        let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cmd.args(["build", "-p", "augur", "--target-dir"])
            .arg(target_dir);
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        let status = cmd.status().expect("cannot run cargo to build augur");
        assert!(status.success(), "building augur failed");
    }
    assert!(
        bin.exists(),
        "augur binary not found at {} (build it with cargo build -p augur)",
        bin.display()
    );
    bin
}

/// xorshift64* and Box-Muller: a seeded normal generator, so the test data never change.
pub struct Rng(pub u64);

impl Rng {
    /// 53 random bits in (0, 1].
    pub fn next_f64(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        ((x >> 11) as f64 + 1.0) / (1u64 << 53) as f64
    }

    /// A standard normal draw.
    pub fn normal(&mut self) -> f64 {
        let (u, v) = (self.next_f64(), self.next_f64());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}
