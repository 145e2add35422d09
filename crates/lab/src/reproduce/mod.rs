//! `augur-lab reproduce --quick | --full`: the lab's experiments end to end into one folder with
//! an index (`README.md`). `--quick` (small sizes, under a minute) is the first command for a
//! newcomer; `--full` runs larger sizes (some the papers', some smaller: docs/reproduce.md) and
//! the SPRT matches (hours).
//!
//! Each step is this program started again as a child process with the command line a reader
//! would type (the index lists them), its report captured to `<step>.md`. A finished step is
//! skipped when the command is run again, and an interrupted one resumes from its own result
//! files, so the whole run survives kill -9 like its parts.
//!
//! [`steps`] is the catalogue (every step's command line, and what the seeds reported), and
//! [`index`] writes `README.md` from the steps' outcomes and their summaries.

pub mod index;
pub mod steps;

use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::kit::provenance::Provenance;
use index::Outcome;
use steps::{steps, Step};

#[derive(Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("size").required(true).args(["quick", "full"])))]
pub struct ReproduceArgs {
    /// Small sizes: under a minute on two cores, on bundled data.
    #[arg(long)]
    pub quick: bool,
    /// Larger sizes (some the papers', some smaller: docs/reproduce.md) and the SPRT matches:
    /// hours on two cores. Resumable: run the same command again after an interruption (kill -9
    /// included); finished steps are skipped and the interrupted one continues from its own
    /// result files or PGN.
    #[arg(long)]
    pub full: bool,
    /// Folder for every experiment's files and the index (README.md); default:
    /// `reproduce-quick` or `reproduce-full`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Only these steps (comma-separated names; see the index for the list).
    #[arg(long, value_delimiter = ',')]
    pub steps: Vec<String>,
    /// Worker threads of the in-process experiments (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Test suite for `solve` (when the file is missing, the bundled copy of WAC).
    #[arg(long, default_value = "../shared/data/suites/wac.epd")]
    pub suite: PathBuf,
    /// Glaurung 2.2, an opponent of the Table 4 matches (`--full`; skipped when missing).
    #[arg(long, default_value = "/usr/games/glaurung")]
    pub glaurung: PathBuf,
    /// Toga II 3.0, the other opponent of the Table 4 matches.
    #[arg(long, default_value = "/usr/games/toga2")]
    pub toga: PathBuf,
}

impl ReproduceArgs {
    /// The suite `solve` reads: `--suite` when it is there, else the bundled copy of WAC
    /// that `run` writes into the output folder (a fresh clone has no `../shared`).
    pub fn suite_file(&self) -> PathBuf {
        if self.suite.exists() {
            self.suite.clone()
        } else {
            self.out_dir().join("wac.epd")
        }
    }

    pub fn out_dir(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(|| {
            PathBuf::from(if self.full {
                "reproduce-full"
            } else {
                "reproduce-quick"
            })
        })
    }

    pub(crate) fn mode(&self) -> &'static str {
        if self.full {
            "--full"
        } else {
            "--quick"
        }
    }
}

/// The file beside a step's report that keeps the step's wall time, so that a `--full` run
/// finished over several restarts (or sessions) can still state what the whole took.
fn secs_path(out: &Path, step: &str) -> PathBuf {
    out.join(format!("{step}.secs"))
}

/// The running total of a step not finished yet, rewritten every few seconds: a step cut by
/// kill -9 and resumed by the next run (every long step resumes) adds its earlier attempts'
/// time instead of losing it.
fn partial_secs_path(out: &Path, step: &str) -> PathBuf {
    out.join(format!("{step}.secs.partial"))
}

/// Runs a step's command and returns its status and its wall time, counting the time earlier
/// interrupted attempts left in `partial` and keeping `partial` current while it runs.
fn run_timed(mut cmd: Command, partial: &Path) -> Result<(std::process::ExitStatus, f64)> {
    const EVERY: Duration = Duration::from_secs(5);
    let earlier = read_secs(partial).unwrap_or(0.0);
    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let mut written = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        std::thread::sleep(Duration::from_millis(200));
        if written.elapsed() >= EVERY {
            let so_far = earlier + start.elapsed().as_secs_f64();
            // Best effort: a failed write costs at most this attempt's time, not the step.
            let _ = std::fs::write(partial, format!("{so_far:.1}\n"));
            written = Instant::now();
        }
    };
    Ok((status, earlier + start.elapsed().as_secs_f64()))
}

fn read_secs(path: &Path) -> Option<f64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|t| t.is_finite() && *t >= 0.0)
}

pub fn run(args: &ReproduceArgs) -> Result<()> {
    let all = steps(args);
    let out = args.out_dir();
    for s in &args.steps {
        if !all.iter().any(|x| x.name == s) {
            let names: Vec<&str> = all.iter().map(|x| x.name).collect();
            bail!("no step '{s}' (the steps: {})", names.join(", "));
        }
    }
    let steps: Vec<&Step> = all
        .iter()
        .filter(|s| args.steps.is_empty() || args.steps.iter().any(|x| x == s.name))
        .collect();
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    if !args.suite.exists() {
        let bundled = args.suite_file();
        std::fs::write(&bundled, crate::data::bundled::WAC)
            .with_context(|| format!("cannot write {}", bundled.display()))?;
    }
    if args.full {
        // `match` writes its PGN into this folder and does not create it.
        let matches = out.join("matches");
        std::fs::create_dir_all(&matches)
            .with_context(|| format!("cannot create {}", matches.display()))?;
    }
    let exe = std::env::current_exe().context("cannot find this program to run the steps")?;
    let provenance = Provenance::capture(args, None);
    let start = Instant::now();
    let mut outcomes = Vec::new();
    for step in &steps {
        let report = out.join(format!("{}.md", step.name));
        if report.exists() {
            eprintln!(
                "reproduce: {} done earlier ({})",
                step.name,
                report.display()
            );
            outcomes.push(Outcome::Earlier(read_secs(&secs_path(&out, step.name))));
            continue;
        }
        eprintln!("reproduce: {} ...", step.name);
        let tmp = out.join(format!("{}.md.tmp", step.name));
        let file = std::fs::File::create(&tmp)
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        let mut cmd = Command::new(&exe);
        cmd.args(&step.args).stdout(Stdio::from(file));
        let partial = partial_secs_path(&out, step.name);
        let (status, secs) =
            run_timed(cmd, &partial).with_context(|| format!("cannot run {}", exe.display()))?;
        if status.success() {
            // The time first: a kill between the two writes leaves the step to run again,
            // never a report without its time.
            let secs_file = secs_path(&out, step.name);
            std::fs::write(&secs_file, format!("{secs:.1}\n"))
                .with_context(|| format!("cannot write {}", secs_file.display()))?;
            std::fs::rename(&tmp, &report)
                .with_context(|| format!("cannot write {}", report.display()))?;
            let _ = std::fs::remove_file(&partial);
            eprintln!("reproduce: {} done in {secs:.1} s", step.name);
            outcomes.push(Outcome::Ran(secs));
        } else {
            eprintln!(
                "reproduce: {} FAILED ({status}); its output: {}",
                step.name,
                tmp.display()
            );
            outcomes.push(Outcome::Failed(secs, status.code().unwrap_or(-1)));
        }
    }
    let wall = start.elapsed().as_secs_f64();
    let mut index = index::index_text(args, &steps, &outcomes, &provenance, wall);
    index.push_str(&index::seeds_section(&out, &steps));
    let path = out.join("README.md");
    std::fs::write(&path, index).with_context(|| format!("cannot write {}", path.display()))?;
    println!("{}", path.display());
    let failed: Vec<&str> = steps
        .iter()
        .zip(&outcomes)
        .filter(|(_, o)| matches!(o, Outcome::Failed(..)))
        .map(|(s, _)| s.name)
        .collect();
    if !failed.is_empty() {
        bail!(
            "steps failed: {} (see {})",
            failed.join(", "),
            path.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_time_file_is_read_back_and_garbage_is_not() {
        let dir = std::env::temp_dir().join(format!("augur-secs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = secs_path(&dir, "compare");
        std::fs::write(&p, "942.3\n").unwrap();
        assert_eq!(read_secs(&p), Some(942.3));
        std::fs::write(&p, "soon").unwrap();
        assert_eq!(read_secs(&p), None);
        assert_eq!(read_secs(&dir.join("missing.secs")), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_resumed_step_counts_its_earlier_attempts() {
        let dir = std::env::temp_dir().join(format!("augur-partial-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let partial = partial_secs_path(&dir, "mpc");
        std::fs::write(&partial, "100.0\n").unwrap();
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "exit 0"]);
        let (status, secs) = run_timed(cmd, &partial).unwrap();
        assert!(status.success());
        assert!((100.0..130.0).contains(&secs), "{secs}");
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "exit 3"]);
        std::fs::remove_file(&partial).unwrap();
        let (status, secs) = run_timed(cmd, &partial).unwrap();
        assert_eq!(status.code(), Some(3));
        assert!(secs < 30.0, "no earlier attempt: {secs}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
