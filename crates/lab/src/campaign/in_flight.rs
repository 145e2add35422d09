//! `augur-lab campaign keep-in-flight`: the games of a campaign's stages in flight, kept in
//! the evidence in parts, so that a lost machine costs only the games since the last keep and
//! not a whole stage (a 640k study point or a timed match runs longer than one sitting of a
//! machine). Each PGN in the campaign's folder gets a new part holding only its complete games
//! since the previous part, or since the end of its file kept whole (a stage resumed from a
//! restored partial point appends to it): every game is committed once while in flight, never
//! a growing file again and again. The parts keep the move
//! comments, which a resumed study point reads its depths from. `campaign restore` writes
//! the parts one after another; once a stage's games are kept whole (`stats --keep`,
//! `scaling-keep`), its parts are superseded and the next keep removes their folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use augur_arena::game::pgn::{complete_prefix_len, read_summaries_from};
use augur_arena::matchmaking::kept::{self, Origin, Origins};

use super::restore::records;
use super::stages::{Campaign, Layout};

/// The folder under the evidence root that holds the parts.
pub const FOLDER: &str = "in-flight";

/// What one keep did with one PGN of the campaign, or with a superseded folder.
#[derive(Debug, PartialEq, Eq)]
pub enum Kept {
    /// A new part with this many games, written to `folder/kept`.
    Part {
        pgn: PathBuf,
        folder: PathBuf,
        kept: String,
        games: usize,
    },
    /// No complete game since the last part.
    Unchanged { pgn: PathBuf },
    /// Every complete game is in the file's evidence kept whole: not in flight.
    Whole { pgn: PathBuf },
    /// The parts' folder of a PGN now kept whole: removed.
    Superseded { folder: PathBuf },
}

/// Keeps a new part of every PGN in flight in `campaign`'s folder under `root`
/// (`root/in-flight/<campaign>/<path>/part-NN.pgn.xz` with its restore.toml) and removes the
/// parts' folders of PGNs kept whole since. A PGN kept whole that has grown since (a stage
/// resumed from a restored partial point) is in flight again: its parts continue after the
/// kept file, so its new games are kept like any others.
pub fn keep(campaign: &Campaign, root: &Path) -> Result<Vec<Kept>> {
    let dir = &campaign.layout.dir;
    let mut whole: BTreeMap<PathBuf, (PathBuf, Origin)> = BTreeMap::new();
    let mut parts: BTreeMap<PathBuf, (PathBuf, Vec<Origin>)> = BTreeMap::new();
    // No evidence folder yet: nothing is kept, every PGN gets its first part.
    let found = if root.is_dir() {
        records(root)?
    } else {
        Vec::new()
    };
    for (folder, origins) in found {
        for o in origins.files {
            if !o.to.starts_with(dir) {
                continue;
            }
            if o.offset.is_none() {
                // Two wholes that differ are refused by restore; the first stands here.
                whole.entry(o.to.clone()).or_insert((folder.clone(), o));
                continue;
            }
            let entry = parts
                .entry(o.to.clone())
                .or_insert_with(|| (folder.clone(), Vec::new()));
            if entry.0 != folder {
                bail!(
                    "{} has parts in two folders, {} and {}",
                    o.to.display(),
                    entry.0.display(),
                    folder.display()
                );
            }
            entry.1.push(o);
        }
    }
    let whole_bytes = |to: &Path| -> Result<Vec<u8>> {
        match whole.get(to) {
            Some((folder, o)) => kept::checked_bytes(folder, o),
            None => Ok(Vec::new()),
        }
    };
    // Parts that begin inside a file kept whole are superseded by it. Their folder goes, with
    // any part after the whole file's end: this keep writes those games again from the live file.
    let mut done = Vec::new();
    for (to, (folder, origins)) in parts.iter_mut() {
        if !whole.contains_key(to) {
            continue;
        }
        let len = whole_bytes(to)?.len() as u64;
        if origins.iter().any(|o| o.offset.is_some_and(|at| at < len)) {
            std::fs::remove_dir_all(&*folder)
                .with_context(|| format!("cannot remove {}", folder.display()))?;
            done.push(Kept::Superseded {
                folder: folder.clone(),
            });
            origins.clear();
        }
    }
    let base = root.join(FOLDER).join(&campaign.file.name);
    for pgn in pgns(dir)? {
        let start = whole_bytes(&pgn)?;
        let (folder, before) = parts
            .remove(&pgn)
            .unwrap_or_else(|| (base.join(folder_name(dir, &pgn)), Vec::new()));
        done.push(keep_part(&pgn, &folder, &start, before)?);
    }
    Ok(done)
}

/// The PGN files of a campaign's folder, outside its binaries and its source worktrees (the
/// engine's `src`, the lab's `src-lab`: a checkout may hold PGN files of its own).
fn pgns(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        let listing =
            std::fs::read_dir(&d).with_context(|| format!("cannot list {}", d.display()))?;
        for e in listing {
            let e = e.with_context(|| format!("cannot list {}", d.display()))?;
            let path = e.path();
            if e.file_type()?.is_dir() {
                let outside = e.file_name().to_str().is_some_and(Layout::holds_no_stage);
                if d != *dir || !outside {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|x| x == "pgn") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// `study/scaling/se/nodes-640000.pgn` → `study-scaling-se-nodes-640000`.
fn folder_name(dir: &Path, pgn: &Path) -> String {
    let rel = pgn.strip_prefix(dir).unwrap_or(pgn).with_extension("");
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("-")
}

/// Keeps the complete games of `pgn` after its file kept whole (`start`, empty if none) and
/// the parts `before` as the next part in `folder`; refused when the parts do not follow the
/// kept bytes in the file (another run's games).
fn keep_part(pgn: &Path, folder: &Path, start: &[u8], mut before: Vec<Origin>) -> Result<Kept> {
    let bytes = std::fs::read(pgn).with_context(|| format!("cannot read {}", pgn.display()))?;
    let complete = complete_prefix_len(&bytes);
    // A file kept whole that is not the start of the live one is a rendering of it (a study
    // point keeps its games without the move comments): its games are kept, none in flight.
    if !bytes.starts_with(start) {
        return Ok(Kept::Whole {
            pgn: pgn.to_path_buf(),
        });
    }
    before.sort_by_key(|o| o.offset);
    let mut kept_len = start.len();
    for o in &before {
        let part = kept::checked_bytes(folder, o)?;
        let end = kept_len + part.len();
        if o.offset != Some(kept_len as u64) || bytes.get(kept_len..end) != Some(&part[..]) {
            bail!(
                "{}: {} is not the start of the live file's games (another run's?); remove {} \
                 to keep this run from its first game",
                pgn.display(),
                folder.join(&o.kept).display(),
                folder.display()
            );
        }
        kept_len = end;
    }
    if complete <= kept_len && before.is_empty() && !start.is_empty() {
        return Ok(Kept::Whole {
            pgn: pgn.to_path_buf(),
        });
    }
    if complete <= kept_len {
        return Ok(Kept::Unchanged {
            pgn: pgn.to_path_buf(),
        });
    }
    let new = &bytes[kept_len..complete];
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    let name = format!("part-{:02}.pgn.xz", before.len() + 1);
    kept::write_xz(&folder.join(&name), new)?;
    Origins::add(
        folder,
        Origin {
            kept: name.clone(),
            to: pgn.to_path_buf(),
            sha256: kept::sha256_hex(new),
            offset: Some(kept_len as u64),
        },
    )?;
    let games = read_summaries_from(new, &pgn.display().to_string())?.len();
    Ok(Kept::Part {
        pgn: pgn.to_path_buf(),
        folder: folder.to_path_buf(),
        kept: name,
        games,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pgn_s_folder_name_is_its_path_in_the_campaign() {
        let dir = Path::new("/work/campaign/study-nnue");
        let pgn = dir.join("long/scaling-long/se/nodes-640000.pgn");
        assert_eq!(folder_name(dir, &pgn), "long-scaling-long-se-nodes-640000");
    }
}
