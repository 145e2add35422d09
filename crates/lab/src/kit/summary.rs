//! A run's machine-readable summary: its headline figures as TOML, beside its Markdown report,
//! so that a reader such as `reproduce`'s index takes the numbers from the data and not from
//! the prose (whose wording may change).
//!
//! ```toml
//! command = "depth"                 # which figures follow
//! commit = "1a2b..."                # the source commit of the binary that wrote them
//!
//! [figures]                         # the command's own typed figures
//! budget = "20000 nodes"
//! [[figures.variants]]
//! name = "baseline"
//! ...
//! ```
//!
//! A command takes [`SummaryArgs`] (`--summary FILE`) and, when its figures are known, calls
//! [`SummaryArgs::write`] with its own serde type; a reader calls [`read`] and turns `figures`
//! into the type of the `command` it finds ([`Summary::figures`]). The file is written whole
//! (a temporary file renamed into place), so a kill never leaves half a summary.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::kit::provenance::source_commit;

/// The `--summary FILE` flag of the commands that write one.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SummaryArgs {
    /// Also write the run's headline figures as TOML to this file (`reproduce` reads them).
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
}

impl SummaryArgs {
    /// Writes `figures` as the summary of `command` when a file was asked for.
    pub fn write<F: Serialize>(&self, command: &str, figures: &F) -> Result<()> {
        match &self.summary {
            Some(path) => write(path, command, figures),
            None => Ok(()),
        }
    }
}

/// A summary file as read back: the command that wrote it, and its figures still untyped.
#[derive(Debug, Serialize, Deserialize)]
pub struct Summary<F = toml::Value> {
    pub command: String,
    pub commit: String,
    pub figures: F,
}

impl Summary {
    /// The figures as the type of this summary's command.
    pub fn figures<F: DeserializeOwned>(&self) -> Result<F> {
        self.figures
            .clone()
            .try_into()
            .with_context(|| format!("the figures of a `{}` summary", self.command))
    }
}

/// Writes the summary of `command` to `path`. A file already there that is not empty and not
/// a lab summary is refused, not replaced: `--summary` naming the command's own data, result
/// log or PGN by mistake would otherwise destroy it.
pub fn write<F: Serialize>(path: &Path, command: &str, figures: &F) -> Result<()> {
    let occupied = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
    if occupied && read(path).is_err() {
        anyhow::bail!(
            "--summary {} names a file that is not a lab summary (an input or a result of \
             this run?); it is left as it is: name another file",
            path.display()
        );
    }
    let summary = Summary {
        command: command.to_string(),
        commit: source_commit(),
        figures,
    };
    let text =
        toml::to_string(&summary).with_context(|| format!("the figures of `{command}` as TOML"))?;
    crate::kit::atomic::write(path, text.as_bytes())
}

/// Reads a summary file.
pub fn read(path: &Path) -> Result<Summary> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    toml::from_str(&text).with_context(|| format!("{} is not a lab summary", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Figures {
        positions: usize,
        rows: Vec<Named>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Named {
        name: String,
        value: Option<f64>,
    }

    /// A summary replaces a summary, never another file.
    #[test]
    fn a_file_that_is_not_a_summary_is_not_replaced() {
        let dir = std::env::temp_dir().join(format!("augur-summary-x-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("games.csv");
        std::fs::write(&data, "round,white,black\n1,a,b\n").unwrap();
        let figures = Figures {
            positions: 1,
            rows: vec![],
        };
        let err = write(&data, "collect", &figures).unwrap_err();
        assert!(err.to_string().contains("not a lab summary"), "{err}");
        assert_eq!(
            std::fs::read_to_string(&data).unwrap(),
            "round,white,black\n1,a,b\n"
        );
        let path = dir.join("s.toml");
        write(&path, "collect", &figures).unwrap();
        write(&path, "collect", &figures).unwrap();
        std::fs::write(&path, "").unwrap();
        write(&path, "collect", &figures).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_summary_reads_back_as_its_commands_figures() {
        let dir = std::env::temp_dir().join(format!("augur-summary-{}", std::process::id()));
        let path = dir.join("step.summary.toml");
        let figures = Figures {
            positions: 20,
            rows: vec![
                Named {
                    name: "baseline".into(),
                    value: Some(9.25),
                },
                Named {
                    name: "mpc".into(),
                    value: None,
                },
            ],
        };
        let args = SummaryArgs {
            summary: Some(path.clone()),
        };
        args.write("depth", &figures).unwrap();
        let back = read(&path).unwrap();
        assert_eq!(back.command, "depth");
        assert_eq!(back.commit, source_commit());
        assert_eq!(back.figures::<Figures>().unwrap(), figures);
        assert!(back.figures::<Named>().is_err());
        assert!(!dir.join("step.summary.toml.tmp").exists());
        SummaryArgs::default().write("depth", &figures).unwrap();
        std::fs::write(&path, "not = [toml").unwrap();
        assert!(read(&path).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
