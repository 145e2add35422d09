//! The arguments the long-running lab commands share: `--out`, `--quiet` and `--summary`
//! ([`OutputArgs`]), and with `--threads` for the commands that work on several cores
//! ([`RunArgs`]); each flattened (`#[command(flatten)]`), so that they read and behave alike in
//! every command. What `--out` holds is the command's own (a file, a folder); a
//! command whose output is required says so with `#[command(mut_arg("out", ...))]`, and sets
//! its own help for it the same way.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::kit::summary::SummaryArgs;

/// `--out`, `--quiet`, `--summary`: what every long-running command writes and says.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct OutputArgs {
    /// Where the run's files go.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress line (the closing lines are still printed).
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub summary: SummaryArgs,
}

impl OutputArgs {
    /// `--out`, for a command that cannot run without it.
    pub fn out(&self) -> Result<&Path> {
        self.out.as_deref().context("--out is required")
    }
}

/// [`OutputArgs`] and `--threads`, for the commands that spread their work over cores.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RunArgs {
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub output: OutputArgs,
}

impl RunArgs {
    /// The worker threads: `--threads`, or every core.
    pub fn threads(&self) -> usize {
        self.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1)
    }

    /// `--out`, for a command that cannot run without it.
    pub fn out(&self) -> Result<&Path> {
        self.output.out()
    }
}

/// The folder a command writes its files into when its input names it: `out_dir` if given,
/// else the folder of `input` (`.` for a bare file name), created if missing.
pub fn folder_beside(out_dir: Option<&Path>, input: &Path) -> Result<PathBuf> {
    let dir = match out_dir {
        Some(d) => d.to_path_buf(),
        None => input
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    #[command(mut_arg("out", |a| a.required(true).short('o')))]
    struct Required {
        #[command(flatten)]
        run: RunArgs,
    }

    /// A command may require `--out` (and give it a short name); the group's values come
    /// through as given, `threads()` falls back to the cores.
    #[test]
    fn a_command_may_require_the_output() {
        assert!(Required::try_parse_from(["x", "--threads", "3"]).is_err());
        let r = Required::try_parse_from(["x", "-o", "f.bin", "--quiet", "--summary", "s.toml"])
            .unwrap()
            .run;
        assert_eq!(r.out().unwrap(), Path::new("f.bin"));
        assert!(r.output.quiet && r.output.summary.summary.is_some());
        assert!(r.threads() >= 1);
    }

    #[test]
    fn the_folder_beside_an_input_is_its_own_unless_named() {
        let scratch =
            std::env::temp_dir().join(format!("augur-folder-beside-{}", std::process::id()));
        let named = scratch.join("named");
        assert_eq!(
            folder_beside(Some(&named), Path::new("a/b.csv")).unwrap(),
            named
        );
        assert!(named.is_dir());
        let input = scratch.join("in").join("data.csv");
        assert_eq!(folder_beside(None, &input).unwrap(), scratch.join("in"));
        assert_eq!(
            folder_beside(None, Path::new("data.csv")).unwrap(),
            PathBuf::from(".")
        );
        std::fs::remove_dir_all(&scratch).unwrap();
        assert!(RunArgs::default().out().is_err());
    }
}
