//! Records the source commit this binary is built from, so a lab result names the code that
//! produced it and not whatever the working directory's HEAD happens to be when it runs (a long
//! run outlives many commits). `+dirty` marks a build with uncommitted changes to tracked files.

#[path = "src/git_commit.rs"]
mod git_commit;
use git_commit::{git, head_commit};

fn main() {
    // Outside a checkout (a source tarball) this is empty: the lab asks at run time instead.
    let commit = head_commit().unwrap_or_default();
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
