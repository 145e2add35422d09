//! Records the source commit this binary is built from, so a lab result names the code that
//! produced it and not whatever the working directory's HEAD happens to be when it runs (a long
//! run outlives many commits). `+dirty` marks a build with uncommitted changes to tracked files.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let commit = match git(&["rev-parse", "HEAD"]) {
        Some(head) if !head.is_empty() => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{head}+dirty")
            } else {
                head
            }
        }
        // Outside a checkout (a source tarball): the lab falls back to asking at run time.
        _ => String::new(),
    };
    println!("cargo:rustc-env=AUGUR_LAB_BUILD_COMMIT={commit}");
    // Rerun on a commit, a checkout, a staged change, and any source edit (the dirty flag).
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/index");
        if let Some(head_ref) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={dir}/{head_ref}");
        }
        println!("cargo:rerun-if-changed={dir}/packed-refs");
    }
    println!("cargo:rerun-if-changed=../../crates");
    println!("cargo:rerun-if-changed=../../Cargo.toml");
    println!("cargo:rerun-if-changed=../../Cargo.lock");
}
