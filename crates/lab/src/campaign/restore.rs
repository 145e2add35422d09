//! `augur-lab campaign restore`: a campaign's finished work back from its committed evidence.
//! A campaign's folder is outside git and is lost with its machine; each evidence folder's
//! `restore.toml` (`augur_arena::matchmaking::kept`; `stats --keep` and `campaign keep` write
//! it) names where its files came from. Restore
//! writes every listed file that belongs to the campaign's folder and is missing there, after
//! checking its SHA-256, and never touches a file that exists. A match stage then resumes with
//! its kept games played (a finished one writes its summary at once); a study resumes after
//! its finished points.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use augur_arena::matchmaking::kept::{self, Origin, Origins};

use super::stages::Campaign;

/// What restore did with one listed file.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Written from the evidence.
    Restored,
    /// Already there; left alone.
    Present,
}

/// One listed file of the campaign and what happened to it.
#[derive(Debug)]
pub struct Entry {
    pub evidence: PathBuf,
    pub origin: Origin,
    pub outcome: Outcome,
}

/// How many of `entries` were (or, in a dry run, would be) written.
pub fn restored(entries: &[Entry]) -> usize {
    entries
        .iter()
        .filter(|e| e.outcome == Outcome::Restored)
        .count()
}

/// Every evidence folder under `root` (its own and its sub-folders', three levels down) with
/// a restore record, and the record.
pub fn records(root: &Path) -> Result<Vec<(PathBuf, Origins)>> {
    let mut out = Vec::new();
    let mut pending = vec![(root.to_path_buf(), 0)];
    while let Some((dir, depth)) = pending.pop() {
        if dir.join(kept::FILE_NAME).exists() {
            out.push((dir.clone(), Origins::read(&dir)?));
        }
        if depth == 3 {
            continue;
        }
        let listing =
            std::fs::read_dir(&dir).with_context(|| format!("cannot list {}", dir.display()))?;
        for e in listing {
            let e = e.with_context(|| format!("cannot list {}", dir.display()))?;
            if e.file_type()?.is_dir() {
                pending.push((e.path(), depth + 1));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Restores the files of `campaign`'s folder listed under the evidence `root`; with `dry_run`
/// only says what it would write. Every file is checked before any is written, so a corrupt
/// record writes nothing.
pub fn restore(campaign: &Campaign, root: &Path, dry_run: bool) -> Result<Vec<Entry>> {
    let dir = &campaign.layout.dir;
    let mut plan = Vec::new();
    for (evidence, origins) in records(root)? {
        for origin in origins.files {
            if !origin.to.starts_with(dir) {
                continue;
            }
            let present = origin.to.exists();
            let bytes = if present {
                None
            } else {
                Some(kept::checked_bytes(&evidence, &origin)?)
            };
            plan.push((evidence.clone(), origin, bytes));
        }
    }
    let mut done = Vec::new();
    for (evidence, origin, bytes) in plan {
        let outcome = match bytes {
            None => Outcome::Present,
            Some(bytes) => {
                if !dry_run {
                    crate::kit::atomic::write(&origin.to, &bytes)?;
                }
                Outcome::Restored
            }
        };
        done.push(Entry {
            evidence,
            origin,
            outcome,
        });
    }
    Ok(done)
}
