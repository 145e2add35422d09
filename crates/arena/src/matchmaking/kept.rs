//! Where kept evidence came from: `restore.toml` beside the files of an evidence folder
//! (`docs/evidence/<id>/`) names, for each kept file, the path it was copied from and the
//! SHA-256 of what it restores to. A campaign's folder lives outside git and dies with its
//! machine; with this record `augur-lab campaign restore` puts a finished stage's games (and
//! any other file listed) back where the campaign looks for them, so that a lost machine costs
//! only the stage in flight. `stats --keep` writes the entry of the PGN it keeps; other files
//! (a fit's data, a study's table of finished points) are listed by hand. A stage's PGN can
//! also be kept while it is in flight, in parts that each hold only the games since the last
//! (`campaign keep-in-flight`): each part's entry names its `offset` in the restored file.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

/// The record's file name in an evidence folder.
pub const FILE_NAME: &str = "restore.toml";

/// One kept file and where it goes back to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Origin {
    /// The kept file, relative to the evidence folder (`.xz` is decompressed on the way back).
    pub kept: String,
    /// The absolute path it restores to (inside a campaign's folder).
    pub to: PathBuf,
    /// SHA-256 of the restored bytes (the kept file decompressed).
    pub sha256: String,
    /// For a part of a file kept in flight: where its bytes start in the restored file. The
    /// parts of one `to` follow each other from 0; an entry without an offset is the whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
}

impl Origin {
    /// The entry of the kept file `dir/kept` restoring to `to`, with the SHA-256 of what it
    /// restores to now.
    pub fn of(dir: &Path, kept: String, to: PathBuf) -> Result<Origin> {
        let mut origin = Origin {
            kept,
            to,
            sha256: String::new(),
            offset: None,
        };
        origin.sha256 = sha256_hex(&restored_bytes(dir, &origin)?);
        Ok(origin)
    }
}

/// An evidence folder's `restore.toml`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Origins {
    #[serde(default, rename = "file")]
    pub files: Vec<Origin>,
}

impl Origins {
    /// The record of `dir`, empty where it has none.
    pub fn read(dir: &Path) -> Result<Origins> {
        let path = dir.join(FILE_NAME);
        if !path.exists() {
            return Ok(Origins::default());
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let origins: Origins = toml::from_str(&text)
            .with_context(|| format!("{} is not a restore record", path.display()))?;
        for o in &origins.files {
            if !o.to.is_absolute() {
                bail!(
                    "{}: `to = {:?}` is not an absolute path",
                    path.display(),
                    o.to
                );
            }
            if o.kept.contains("..") || Path::new(&o.kept).is_absolute() {
                bail!(
                    "{}: `kept = {:?}` must lie inside its folder",
                    path.display(),
                    o.kept
                );
            }
        }
        Ok(origins)
    }

    /// Adds (or replaces, by kept name) one entry and writes the record of `dir`.
    pub fn add(dir: &Path, origin: Origin) -> Result<()> {
        let mut origins = Origins::read(dir)?;
        origins.files.retain(|o| o.kept != origin.kept);
        origins.files.push(origin);
        let text = format!(
            "# Where these files came from: `augur-lab campaign restore` puts them back\n{}",
            toml::to_string(&origins).context("the restore record")?
        );
        let path = dir.join(FILE_NAME);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    }
}

/// The bytes a kept file restores to: decompressed when its name ends in `.xz`.
pub fn restored_bytes(dir: &Path, origin: &Origin) -> Result<Vec<u8>> {
    let path = dir.join(&origin.kept);
    let raw = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    if !origin.kept.ends_with(".xz") {
        return Ok(raw);
    }
    let mut out = Vec::new();
    liblzma::read::XzDecoder::new(&raw[..])
        .read_to_end(&mut out)
        .with_context(|| format!("{} is not a whole xz file", path.display()))?;
    Ok(out)
}

/// Writes `bytes` to `path` compressed at xz's level 9 (evidence is written once and read
/// rarely); [`restored_bytes`] reads it back.
pub fn write_xz(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut xz = liblzma::write::XzEncoder::new(file, 9);
    xz.write_all(bytes)
        .and_then(|_| xz.finish().map(drop))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// SHA-256 of `bytes`, lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The restored bytes of `origin`, refused unless their SHA-256 is the recorded one.
pub fn checked_bytes(dir: &Path, origin: &Origin) -> Result<Vec<u8>> {
    let bytes = restored_bytes(dir, origin)?;
    let got = sha256_hex(&bytes);
    if got != origin.sha256 {
        bail!(
            "{}: SHA-256 {got}, but {} records {}",
            dir.join(&origin.kept).display(),
            FILE_NAME,
            origin.sha256
        );
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_round_trips_and_refuses_paths_outside() {
        let dir = std::env::temp_dir().join(format!("augur-kept-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(Origins::read(&dir).unwrap(), Origins::default());
        std::fs::write(dir.join("a.txt"), b"abc").unwrap();
        let a = Origin {
            kept: "a.txt".into(),
            to: "/tmp/x/a.txt".into(),
            sha256: sha256_hex(b"abc"),
            offset: None,
        };
        Origins::add(&dir, a.clone()).unwrap();
        // The same kept name again replaces its entry.
        Origins::add(&dir, a.clone()).unwrap();
        assert_eq!(Origins::read(&dir).unwrap().files, vec![a.clone()]);
        assert_eq!(checked_bytes(&dir, &a).unwrap(), b"abc");
        let wrong = Origin {
            sha256: sha256_hex(b"abd"),
            ..a.clone()
        };
        assert!(checked_bytes(&dir, &wrong).is_err());
        // A part names its offset; a whole file's entry is written without one.
        let part = Origin {
            kept: "b.txt".into(),
            offset: Some(3),
            ..a.clone()
        };
        Origins::add(&dir, part.clone()).unwrap();
        let text = std::fs::read_to_string(dir.join(FILE_NAME)).unwrap();
        assert_eq!(text.matches("offset = 3").count(), 1, "{text}");
        assert_eq!(Origins::read(&dir).unwrap().files, vec![a.clone(), part]);
        for bad in [
            "[[file]]\nkept = \"a.txt\"\nto = \"relative/a.txt\"\nsha256 = \"00\"\n",
            "[[file]]\nkept = \"../a.txt\"\nto = \"/tmp/a.txt\"\nsha256 = \"00\"\n",
            "[[file]]\nkept = \"a.txt\"\nto = \"/tmp/a.txt\"\nsha = \"00\"\n",
        ] {
            std::fs::write(dir.join(FILE_NAME), bad).unwrap();
            assert!(Origins::read(&dir).is_err(), "{bad}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
