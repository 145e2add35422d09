//! `augur-lab corpus`: the training corpus as files with manifests. What a campaign does to its
//! data lives here, next to the formats it works on: a live datagen file cut at its last whole
//! game ([`cut`]), a file's manifest line ([`line_of`]), and a set refused when it counts a game
//! twice ([`manifest::Manifest::check_no_game_twice`]). Converting a match PGN from game N is
//! `augur-lab convert --first-game N` (datagen's module), which writes its manifest line too.

pub mod manifest;

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::datagen::journal;
use crate::kit::provenance::sha256_file;
use crate::kit::summary::SummaryArgs;
use augur_arena::outputs::refuse_inputs;
use manifest::{Line, Manifest, Source};

/// One record of a data file, as bullet's ChessBoard has it.
const RECORD_SIZE: u64 = crate::data::records::RECORD_SIZE as u64;

#[derive(clap::Args, Debug)]
pub struct CorpusArgs {
    #[command(subcommand)]
    pub command: CorpusCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum CorpusCommand {
    /// Copy a datagen file (live or finished) up to its last journalled game, with its
    /// manifest line: what a training run may read while datagen goes on.
    Cut {
        /// The datagen file (its FILE.journal beside it).
        live: PathBuf,
        /// The snapshot to write (replaced whole).
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        summary: SummaryArgs,
    },
    /// Manifest lines of finished datagen files (each with its journal), as CSV.
    Manifest {
        files: Vec<PathBuf>,
        /// Write the manifest here (default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Check a manifest: every file present with its SHA-256 and size, no game counted twice.
    Check {
        manifest: PathBuf,
        /// Check only the lines, not the files (the files are elsewhere).
        #[arg(long)]
        lines_only: bool,
    },
}

pub fn run(args: &CorpusArgs) -> Result<()> {
    match &args.command {
        CorpusCommand::Cut { live, out, summary } => {
            let line = cut(live, out)?;
            println!(
                "{}: {} games, {} positions (sha256 {})",
                out.display(),
                line.games,
                line.positions,
                line.sha256
            );
            summary.write("corpus-cut", &line)
        }
        CorpusCommand::Manifest { files, out } => {
            let lines = files.iter().map(|f| line_of(f)).collect::<Result<_>>()?;
            let m = Manifest { lines };
            m.check_no_game_twice()?;
            match out {
                Some(path) => m.write(path),
                None => Ok(std::io::stdout().write_all(&m.to_csv()?)?),
            }
        }
        CorpusCommand::Check {
            manifest,
            lines_only,
        } => {
            let m = Manifest::read(manifest)?;
            m.check_no_game_twice()?;
            if !lines_only {
                let base = manifest.parent().unwrap_or(Path::new("."));
                for line in &m.lines {
                    check_file(base, line)?;
                }
            }
            println!(
                "{}: {} files, {} positions, no game twice",
                manifest.display(),
                m.lines.len(),
                m.positions()
            );
            Ok(())
        }
    }
}

/// The engine commit recorded beside a datagen file (its provenance), if any.
fn writer_commit(file: &Path) -> String {
    std::fs::read_to_string(crate::kit::provenance::beside(file))
        .ok()
        .and_then(|t| t.parse::<toml::Table>().ok())
        .and_then(|t| t.get("commit").and_then(|c| c.as_str()).map(str::to_string))
        .unwrap_or_else(|| "unknown".to_string())
}

/// The manifest line of a datagen file as its journal vouches for it. A live file whose data
/// runs past its journal (a game being written) is refused: cut it first.
pub fn line_of(file: &Path) -> Result<Line> {
    let j = journal::read(file)?;
    if j.unbacked > 0 {
        bail!(
            "{}: its journal lists {} more games than the file holds data for (after game {}): \
             the file lost data or was cut short; a manifest would drop those games silently",
            file.display(),
            j.unbacked,
            j.games
        );
    }
    let len = std::fs::metadata(file)?.len();
    if j.records.checked_mul(RECORD_SIZE) != Some(len) {
        bail!(
            "{} holds {} bytes but its journal vouches for {} records: it is live or torn; \
             `augur-lab corpus cut` takes its whole games",
            file.display(),
            len,
            j.records
        );
    }
    Ok(datagen_line(
        file,
        sha256_file(file)?,
        j,
        writer_commit(file),
    ))
}

/// The line of a datagen file holding the journal's whole games.
fn datagen_line(file: &Path, sha256: String, j: journal::Journalled, engine: String) -> Line {
    Line {
        file: file.display().to_string(),
        sha256,
        positions: j.records,
        games: j.games,
        source: Source::Datagen,
        origin: j.settings,
        first_game: 1,
        last_game: j.games,
        engine,
    }
}

/// Copies `live` up to its last journalled game into `out` and returns the copy's line.
pub fn cut(live: &Path, out: &Path) -> Result<Line> {
    let journal = journal::journal_path(live);
    let provenance = crate::kit::provenance::beside(live);
    refuse_inputs("--out", out, &[live, &journal, &provenance])?;
    let j = journal::read(live)?;
    let mut bytes =
        std::fs::read(live).with_context(|| format!("cannot read {}", live.display()))?;
    let keep = (j.records * RECORD_SIZE) as usize;
    if bytes.len() < keep {
        bail!(
            "{} is shorter than its journal says ({} < {} bytes)",
            live.display(),
            bytes.len(),
            keep
        );
    }
    bytes.truncate(keep);
    crate::kit::atomic::write(out, &bytes)?;
    let sha256 = crate::kit::provenance::sha256_hex(&bytes);
    Ok(datagen_line(out, sha256, j, writer_commit(live)))
}

/// Where a manifest in `base` puts a line's file (its name as written, or joined to `base`).
pub fn file_of(base: &Path, line: &Line) -> PathBuf {
    if Path::new(&line.file).is_absolute() {
        PathBuf::from(&line.file)
    } else {
        base.join(&line.file)
    }
}

/// Checks that a line's file exists with its SHA-256 and its size in records.
pub fn check_file(base: &Path, line: &Line) -> Result<()> {
    let path = file_of(base, line);
    let len = std::fs::metadata(&path)
        .with_context(|| format!("{} is missing", path.display()))?
        .len();
    if line.positions.checked_mul(RECORD_SIZE) != Some(len) {
        bail!(
            "{}: {} positions, the manifest says {}",
            path.display(),
            len / RECORD_SIZE,
            line.positions
        );
    }
    let sha = sha256_file(&path)?;
    if sha != line.sha256 {
        bail!(
            "{}: SHA-256 {sha}, the manifest says {}",
            path.display(),
            line.sha256
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finished file whose journal lists games its data does not hold (cut short, or lost
    /// with a crashed machine's page cache) gets no manifest line that would drop them.
    #[test]
    fn a_manifest_refuses_journalled_games_without_data() {
        let dir =
            std::env::temp_dir().join(format!("augur-corpus-unbacked-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("data.bin");
        std::fs::write(
            journal::journal_path(&file),
            "augur-lab datagen journal 1; seed=1\n0 3\n1 2\n",
        )
        .unwrap();
        std::fs::write(&file, vec![0u8; 5 * RECORD_SIZE as usize]).unwrap();
        assert_eq!(line_of(&file).unwrap().games, 2);
        std::fs::write(&file, vec![0u8; 3 * RECORD_SIZE as usize]).unwrap();
        let err = line_of(&file).unwrap_err().to_string();
        assert!(err.contains("1 more games"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
