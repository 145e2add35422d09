//! Records the source commit this binary is built from, so a lab result names the code that
//! produced it and not whatever the working directory's HEAD happens to be when it runs (a long
//! run outlives many commits). `+dirty` marks a build with uncommitted changes to tracked files.

#[path = "src/kit/git_commit.rs"]
mod git_commit;
use git_commit::{git, head_commit};
use std::path::PathBuf;

fn main() {
    // Outside a checkout (a source tarball) this is empty: the lab asks at run time instead.
    let commit = head_commit().unwrap_or_default();
    println!("cargo:rustc-env=AUGUR_LAB_BUILD_COMMIT={commit}");
    // Rerun on a commit, a checkout, a staged change, and any source edit (the dirty flag).
    // Git names each file's place (a worktree keeps its HEAD apart from the shared refs), and
    // only files that exist are watched: cargo counts a missing one as changed on every build,
    // which relinked the lab each time in a checkout without `packed-refs`. The reflog of HEAD
    // grows on every commit and checkout, so a branch whose ref is packed is still followed.
    let mut watched = vec!["HEAD".to_string(), "index".into(), "logs/HEAD".into()];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    watched.push("packed-refs".into());
    // A relative answer is relative to this directory, the package's, as cargo reads it.
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name])
            .map(PathBuf::from)
            .filter(|p| p.exists())
        {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    println!("cargo:rerun-if-changed=../../crates");
    println!("cargo:rerun-if-changed=../../Cargo.toml");
    println!("cargo:rerun-if-changed=../../Cargo.lock");
}
