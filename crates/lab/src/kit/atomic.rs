//! Files written whole: the bytes go to `NAME.tmp` beside the target, which is then renamed
//! into place, so a kill at any moment leaves either the old file or the new one, never half of
//! one. Everything a campaign reads to decide what is done (summaries, manifests, choices) is
//! written this way.

use std::path::Path;

use anyhow::{Context, Result};

/// Writes `bytes` to `path` whole, creating its folder.
pub fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    let tmp = path.with_file_name(name);
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}
