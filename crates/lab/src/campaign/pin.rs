//! `augur-lab campaign pin`: moving a campaign to newer binaries while it runs, as a recorded
//! step. A campaign runs the binaries pinned into its `bin/` at the first start, so that a
//! rebuild never changes a running campaign; a later stage may still need a newer lab (a
//! trainer that knows a new architecture). Re-pinning replaces `bin/` and keeps the history in
//! `bin/pinned.toml`. A campaign whose corpus is still growing must not mix two engines in it,
//! so where it declares datagen both labs first write the same positions with the campaign's
//! own datagen command, and the pin is refused unless the records are byte for byte the same.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, ensure, Context, Result};

use super::plan::Step;
use super::stages::Campaign;
use crate::kit::provenance::{sha256_file, source_commit};

/// What to pin and how to check it.
pub struct PinRequest<'a> {
    /// The new lab and engine binaries.
    pub lab: &'a Path,
    pub augur: &'a Path,
    /// Why, kept in pinned.toml.
    pub reason: &'a str,
    /// Positions each lab writes for the datagen check (0: none).
    pub check_positions: u64,
}

/// What a pin did.
#[derive(Debug, PartialEq, Eq)]
pub enum Pinned {
    /// Both binaries were already the pinned ones.
    Already,
    /// Re-pinned; the datagen check's positions (0 if none ran).
    Repinned { checked: u64 },
}

/// Re-pins `campaign`'s binaries to `req`'s, after the datagen check.
pub fn pin(campaign: &Campaign, req: &PinRequest) -> Result<Pinned> {
    let l = &campaign.layout;
    let record = l.pinned();
    let old = std::fs::read_to_string(&record).with_context(|| {
        format!(
            "{}: nothing is pinned yet (the first `campaign run` or `start` pins the binaries)",
            record.display()
        )
    })?;
    for p in [req.lab, req.augur] {
        ensure!(p.exists(), "{} does not exist: build it first", p.display());
    }
    let (new_lab, new_augur) = (sha256_file(req.lab)?, sha256_file(req.augur)?);
    if sha256_file(&l.lab())? == new_lab && sha256_file(&l.augur())? == new_augur {
        return Ok(Pinned::Already);
    }
    let checked = match datagen_args(campaign)? {
        Some(args) if req.check_positions > 0 => {
            same_records(&l.lab(), req.lab, &args, req.check_positions, &l.dir)?;
            req.check_positions
        }
        _ => 0,
    };
    for (src, dst) in [(req.lab, l.lab()), (req.augur, l.augur())] {
        install(src, &dst)?;
    }
    let text = record_text(
        &old,
        &pinned_commit(campaign),
        req.reason,
        checked,
        [
            (req.lab, &l.lab(), new_lab.as_str()),
            (req.augur, &l.augur(), new_augur.as_str()),
        ],
    );
    crate::kit::atomic::write(&record, text.as_bytes())?;
    Ok(Pinned::Repinned { checked })
}

/// The campaign's first datagen command as its runner would run it (the held-out set's if
/// no generation's), or `None` if it declares no datagen.
fn datagen_args(campaign: &Campaign) -> Result<Option<Vec<String>>> {
    let stage = campaign
        .stages
        .iter()
        .find(|s| matches!(s.step, Step::Datagen { .. }))
        .or_else(|| {
            campaign
                .stages
                .iter()
                .find(|s| matches!(s.step, Step::HeldOut))
        });
    stage
        .map(|s| campaign.resolve(s).map(|f| f.args))
        .transpose()
}

/// Runs `args` (a datagen command) with both labs for `positions` positions on one thread
/// and refuses unless their records are the same bytes.
fn same_records(old: &Path, new: &Path, args: &[String], positions: u64, dir: &Path) -> Result<()> {
    let scratch = dir.join("pin-check");
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch)?;
    }
    std::fs::create_dir_all(&scratch)?;
    let mut outputs = Vec::new();
    for (name, lab) in [("old", old), ("new", new)] {
        let out = scratch.join(format!("{name}.bin"));
        let mut a = args.to_vec();
        set_flag(&mut a, "--out", &out.display().to_string());
        set_flag(&mut a, "--positions", &positions.to_string());
        set_flag(&mut a, "--threads", "1");
        // Never the stage's own summary: that file marks the stage done.
        let summary = scratch.join(format!("{name}.toml"));
        set_flag(&mut a, "--summary", &summary.display().to_string());
        let status = Command::new(lab)
            .args(&a)
            .stdout(std::process::Stdio::null())
            .status()
            .with_context(|| format!("cannot run {}", lab.display()))?;
        ensure!(
            status.success(),
            "{} {}: {status}",
            lab.display(),
            a.join(" ")
        );
        outputs.push(std::fs::read(&out).with_context(|| format!("reading {}", out.display()))?);
    }
    if outputs[0] != outputs[1] || outputs[0].is_empty() {
        bail!(
            "the pinned lab and {} write different datagen records ({} and {} bytes for {positions} \
             positions, kept in {}): the corpus would mix two engines; pin after datagen ends, or \
             begin a new corpus",
            new.display(),
            outputs[0].len(),
            outputs[1].len(),
            scratch.display()
        );
    }
    std::fs::remove_dir_all(&scratch)?;
    Ok(())
}

/// Copies a binary into `bin/`: beside the target first, then renamed over it, so a stage
/// that runs the old file keeps it and a kill leaves one whole file.
pub(super) fn install(src: &Path, dst: &Path) -> Result<()> {
    let tmp = dst.with_extension("tmp");
    std::fs::copy(src, &tmp)
        .with_context(|| format!("cannot copy {} to {}", src.display(), tmp.display()))?;
    std::fs::rename(&tmp, dst).with_context(|| format!("cannot write {}", dst.display()))
}

/// A binary's line of pinned.toml: keyed by its name in `bin/`, where it came from, its hash.
pub(super) fn binary_line(src: &Path, dst: &Path, sha: &str) -> String {
    format!(
        "{} = {{ from = {:?}, sha256 = {sha:?} }}",
        dst.file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .replace('-', "_"),
        src.display().to_string()
    )
}

/// Sets `flag`'s value in a command line, adding the flag if absent.
fn set_flag(args: &mut Vec<String>, flag: &str, value: &str) {
    match args.iter().position(|a| a == flag) {
        Some(i) if i + 1 < args.len() => args[i + 1] = value.to_string(),
        _ => args.extend([flag.to_string(), value.to_string()]),
    }
}

/// The new pinned.toml: the old one's history (its comment lines) and a line for this pin,
/// then the new commit and binaries.
fn record_text(
    old: &str,
    commit: &str,
    reason: &str,
    checked: u64,
    binaries: [(&Path, &Path, &str); 2],
) -> String {
    let was = old
        .lines()
        .find_map(|l| l.strip_prefix("lab_commit = "))
        .map_or("unknown".to_string(), |c| c.trim_matches('"').to_string());
    let short = |c: &str| c.chars().take(7).collect::<String>();
    let mut out: Vec<String> = old
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(str::to_string)
        .collect();
    if out.is_empty() {
        out.push("# the binaries this campaign runs".to_string());
    }
    let check = if checked > 0 {
        format!("; datagen identical on {checked} positions")
    } else {
        String::new()
    };
    out.push(format!(
        "# re-pinned at {} (was {}): {}{check}",
        short(commit),
        short(&was),
        reason.replace('\n', " ")
    ));
    out.push(format!("lab_commit = {commit:?}"));
    for (src, dst, sha) in binaries {
        out.push(binary_line(src, dst, sha));
    }
    out.join("\n") + "\n"
}

/// The commit a pin of `campaign` records, the lab's: its [engine] lab_commit, else its
/// commit, else the running lab's.
pub fn pinned_commit(campaign: &Campaign) -> String {
    let e = &campaign.file.engine;
    e.lab_commit
        .clone()
        .or_else(|| e.commit.clone())
        .unwrap_or_else(source_commit)
}

/// [campaign-commit] Both binaries built from `commit` in `src` (a detached git worktree of the
/// checkout the lab runs in, made on first use), returned as (lab, augur). Release builds of
/// one commit are the same bytes wherever the worktree lies, so the binary a study's settings
/// name by SHA-256 comes back on a new machine.
pub fn build_commit(src: &Path, commit: &str) -> Result<(PathBuf, PathBuf)> {
    let release = src.join("target").join("release");
    let (lab, augur) = (release.join("augur-lab"), release.join("augur"));
    if lab.exists() && augur.exists() {
        return Ok((lab, augur));
    }
    if !src.join(".git").exists() {
        // A worktree left registered by a lost folder would block the name: prune it first.
        let _ = Command::new("git").args(["worktree", "prune"]).status();
        let status = Command::new("git")
            .args(["worktree", "add", "--detach", "--force"])
            .arg(src)
            .arg(commit)
            .status()
            .context("cannot run git (the campaign's engine.commit needs a checkout)")?;
        ensure!(
            status.success(),
            "git worktree add {} {commit}: {status} (run from the repository, with that commit in it)",
            src.display()
        );
    }
    eprintln!("building {commit} in {} (a few minutes)", src.display());
    let status = Command::new("cargo")
        .args(["build", "--release", "-p", "augur", "-p", "augur-lab"])
        .current_dir(src)
        .stdout(std::process::Stdio::null())
        .status()
        .context("cannot run cargo")?;
    ensure!(
        status.success(),
        "cargo build of {commit} in {}: {status}",
        src.display()
    );
    Ok((lab, augur))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_set_or_added() {
        let mut a: Vec<String> = ["datagen", "--out", "x", "--quiet"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        set_flag(&mut a, "--out", "y");
        set_flag(&mut a, "--threads", "1");
        assert_eq!(a, ["datagen", "--out", "y", "--quiet", "--threads", "1"]);
    }

    /// The record keeps every earlier comment, adds this pin's line and names the new files.
    #[test]
    fn the_record_keeps_its_history() {
        let old = "# the binaries this campaign runs\n# re-pinned at 808b99e (was 284ef9d): x\n\
                   lab_commit = \"808b99edf7\"\naugur_lab = { from = \"a\", sha256 = \"1\" }\n";
        let text = record_text(
            old,
            "106dbe19dd",
            "trainer",
            2000,
            [
                (Path::new("/b/augur-lab"), Path::new("bin/augur-lab"), "ab"),
                (Path::new("/b/augur"), Path::new("bin/augur"), "cd"),
            ],
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "# re-pinned at 808b99e (was 284ef9d): x");
        assert_eq!(
            lines[2],
            "# re-pinned at 106dbe1 (was 808b99e): trainer; datagen identical on 2000 positions"
        );
        assert_eq!(lines[3], "lab_commit = \"106dbe19dd\"");
        assert_eq!(
            lines[4],
            "augur_lab = { from = \"/b/augur-lab\", sha256 = \"ab\" }"
        );
        assert_eq!(lines.len(), 6);
    }
}
