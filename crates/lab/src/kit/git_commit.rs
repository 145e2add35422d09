//! The commit of the git checkout in the current directory, `+dirty` when tracked files have
//! uncommitted changes. Shared by the build script (which records it into the binary) and by
//! `provenance` (which asks at run time when the build could not).

use std::process::Command;

/// Runs git; its trimmed standard output on success.
pub fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// `git rev-parse HEAD`, `+dirty` with uncommitted changes; `None` outside a checkout.
pub fn head_commit() -> Option<String> {
    let head = git(&["rev-parse", "HEAD"]).filter(|h| !h.is_empty())?;
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    Some(if dirty { format!("{head}+dirty") } else { head })
}
