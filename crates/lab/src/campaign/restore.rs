//! `augur-lab campaign restore`: a campaign's finished work back from its committed evidence.
//! A campaign's folder is outside git and is lost with its machine; each evidence folder's
//! `restore.toml` (`augur_arena::matchmaking::kept`; `stats --keep` and `campaign keep` write
//! it) names where its files came from. Restore
//! writes every listed file that belongs to the campaign's folder and is missing there, after
//! checking its SHA-256, and never touches a file that exists. A match stage then resumes with
//! its kept games played (a finished one writes its summary at once); a study resumes after
//! its finished points.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use augur_arena::matchmaking::kept::{self, Origin, Origins};

use super::stages::Campaign;

/// What restore did with one listed file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
/// record writes nothing. A file kept whole wins over the parts kept of it in flight before,
/// and is followed by those kept after its end; parts are written one after another and must
/// follow each other from where the kept bytes end.
pub fn restore(campaign: &Campaign, root: &Path, dry_run: bool) -> Result<Vec<Entry>> {
    let dir = &campaign.layout.dir;
    let mut by_target: BTreeMap<PathBuf, Vec<(PathBuf, Origin)>> = BTreeMap::new();
    for (evidence, origins) in records(root)? {
        for origin in origins.files {
            if origin.to.starts_with(dir) {
                by_target
                    .entry(origin.to.clone())
                    .or_default()
                    .push((evidence.clone(), origin));
            }
        }
    }
    let mut plan = Vec::new();
    for (to, listed) in by_target {
        let present = to.exists();
        let (used, bytes) = assemble(&to, listed, !present)?;
        plan.push((used, bytes));
    }
    let mut done = Vec::new();
    for (used, bytes) in plan {
        let outcome = match bytes {
            None => Outcome::Present,
            Some(bytes) => {
                if !dry_run {
                    crate::kit::atomic::write(&used[0].1.to, &bytes)?;
                }
                Outcome::Restored
            }
        };
        for (evidence, origin) in used {
            done.push(Entry {
                evidence,
                origin,
                outcome,
            });
        }
    }
    Ok(done)
}

/// Kept files with their evidence folders.
type Used = Vec<(PathBuf, Origin)>;

/// The kept files that make `to` (its whole file, then the parts kept after its end; else its
/// parts in order) and, with `read`, the checked bytes they restore to. Parts of which one
/// begins inside the whole file were kept before it and are not used.
fn assemble(to: &Path, listed: Used, read: bool) -> Result<(Used, Option<Vec<u8>>)> {
    let (wholes, mut parts): (Used, Used) =
        listed.into_iter().partition(|(_, o)| o.offset.is_none());
    let mut used = Vec::new();
    let mut bytes = Vec::new();
    if let Some(first) = wholes.first() {
        if let Some((e, o)) = wholes.iter().find(|(_, o)| o.sha256 != first.1.sha256) {
            bail!(
                "{} is kept twice with different contents: {} and {}",
                to.display(),
                first.0.join(&first.1.kept).display(),
                e.join(&o.kept).display()
            );
        }
        used.push(first.clone());
        if parts.is_empty() && !read {
            return Ok((used, None));
        }
        // Its length says which parts continue it, so it is read when parts are listed beside it.
        bytes = kept::checked_bytes(&first.0, &first.1)?;
        // Parts kept before it (one begins inside it; a study point's whole file, kept without
        // comments, is shorter than its parts) are superseded, all of them.
        let end = bytes.len() as u64;
        if parts
            .iter()
            .any(|(_, o)| o.offset.is_some_and(|at| at < end))
        {
            parts.clear();
        }
    }
    parts.sort_by_key(|(_, o)| o.offset);
    used.extend(parts);
    if !read {
        return Ok((used, None));
    }
    for (evidence, origin) in used.iter().filter(|(_, o)| o.offset.is_some()) {
        let part = kept::checked_bytes(evidence, origin)?;
        if origin.offset != Some(bytes.len() as u64) {
            bail!(
                "{}: a part of {} starts at byte {}, but the kept bytes before it end at {}",
                evidence.join(&origin.kept).display(),
                to.display(),
                origin.offset.unwrap_or(0),
                bytes.len()
            );
        }
        bytes.extend_from_slice(&part);
    }
    Ok((used, Some(bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kept file `name` with `bytes` in `dir`, restoring to `to` at `offset`.
    fn kept_file(dir: &Path, name: &str, bytes: &[u8], offset: Option<u64>) -> (PathBuf, Origin) {
        std::fs::write(dir.join(name), bytes).unwrap();
        let origin = Origin {
            kept: name.into(),
            to: "/c/games.pgn".into(),
            sha256: kept::sha256_hex(bytes),
            offset,
        };
        (dir.to_path_buf(), origin)
    }

    #[test]
    fn parts_follow_each_other_and_continue_a_whole_file() {
        let dir = std::env::temp_dir().join(format!("augur-restore-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let to = Path::new("/c/games.pgn");
        let a = kept_file(&dir, "a", b"abc", Some(0));
        let b = kept_file(&dir, "b", b"de", Some(3));
        // Listed in any order, written in offset order.
        let (used, bytes) = assemble(to, vec![b.clone(), a.clone()], true).unwrap();
        assert_eq!(bytes.unwrap(), b"abcde");
        assert_eq!(used.len(), 2);
        // A gap (or an overlap) between parts is refused.
        let late = kept_file(&dir, "late", b"de", Some(4));
        let err = assemble(to, vec![a.clone(), late], true).unwrap_err();
        assert!(format!("{err:#}").contains("end at 3"), "{err:#}");
        // The whole file, once kept, is what comes back.
        let whole = kept_file(&dir, "whole", b"abcdefgh", None);
        let (used, bytes) = assemble(to, vec![a.clone(), whole.clone(), b], true).unwrap();
        assert_eq!(bytes.unwrap(), b"abcdefgh");
        assert_eq!(used, vec![whole.clone()]);
        // Parts kept after the whole file's end continue it.
        let after = kept_file(&dir, "after", b"ij", Some(8));
        let (used, bytes) = assemble(to, vec![after.clone(), whole.clone()], true).unwrap();
        assert_eq!(bytes.unwrap(), b"abcdefghij");
        assert_eq!(used, vec![whole.clone(), after.clone()]);
        // Beside a part inside the whole file they were kept before it (a whole file kept
        // shorter than the live one, without comments): none is used.
        let (used, bytes) =
            assemble(to, vec![after.clone(), a.clone(), whole.clone()], true).unwrap();
        assert_eq!(bytes.unwrap(), b"abcdefgh");
        assert_eq!(used, vec![whole.clone()]);
        let (used, bytes) = assemble(to, vec![after, whole.clone()], false).unwrap();
        assert!(bytes.is_none());
        assert_eq!(used.len(), 2);
        // A gap after the whole file: refused.
        let gap = kept_file(&dir, "gap", b"jk", Some(9));
        let err = assemble(to, vec![whole.clone(), gap], true).unwrap_err();
        assert!(format!("{err:#}").contains("end at 8"), "{err:#}");
        // Two wholes that differ: refused.
        let other = kept_file(&dir, "other", b"abcdefgX", None);
        assert!(assemble(to, vec![whole, other], true).is_err());
        // A file already there is not read at all.
        let (_, bytes) = assemble(to, vec![a], false).unwrap();
        assert!(bytes.is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
