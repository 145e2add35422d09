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
        assert!(RunArgs::default().out().is_err());
    }
}
