//! `augur-lab reproduce --quick`: the lab's bundled experiments end to end, at small sizes,
//! into one folder with an index (`README.md`) — the first command for a newcomer.
//!
//! Each step is this program started again as a child process with the command line a reader
//! would type (the index lists them), its report captured to `<step>.md`. A finished step is
//! skipped when the command is run again, and an interrupted one resumes from its own result
//! files, so the whole run survives kill -9 like its parts.

use anyhow::{bail, Context, Result};
use clap::Args;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::provenance::Provenance;

#[derive(Args, Debug, Clone)]
pub struct ReproduceArgs {
    /// Small sizes: minutes on two cores, on bundled data. (The only size so far.)
    #[arg(long, required = true)]
    pub quick: bool,
    /// Folder for every experiment's files and the index (README.md).
    #[arg(long, default_value = "reproduce-quick")]
    pub out: PathBuf,
    /// Only these steps (comma-separated names; see the index for the list).
    #[arg(long, value_delimiter = ',')]
    pub steps: Vec<String>,
    /// Worker threads of the in-process experiments (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Test suite for `solve` (the step is skipped when the file is missing).
    #[arg(long, default_value = "../shared/data/suites/wac.epd")]
    pub suite: PathBuf,
}

/// One experiment of the run.
pub struct Step {
    pub name: &'static str,
    /// What it stands for in the seeds.
    pub what: &'static str,
    pub args: Vec<String>,
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn shown(p: &Path) -> String {
    p.display().to_string()
}

/// The steps of `--quick`, in order (`fit` reads what `collect` wrote).
pub fn quick_steps(args: &ReproduceArgs) -> Vec<Step> {
    let out = &args.out;
    let threads: Vec<String> = args
        .threads
        .map(|t| vec!["--threads".to_string(), t.to_string()])
        .unwrap_or_default();
    let probcut = out.join("probcut");
    let with = |mut v: Vec<String>, extra: &[String]| {
        v.extend_from_slice(extra);
        v
    };
    let mut steps = vec![
        Step {
            name: "compare",
            what: "SPP thesis, section 5: leaf evaluations (NBP) per position and depth, extra \
                   pruning of SPP/SPPT over alpha-beta/ABT (Diagrams 1-14), correctness",
            args: with(
                strings(&["compare", "--depths", "3-5", "--brief", "--quiet", "--out"]),
                &[vec![shown(&out.join("compare"))], threads.clone()].concat(),
            ),
        },
        Step {
            name: "mpd",
            what: "SPP thesis, section 4.6: the maximum positional difference by self-play, its \
                   distribution, spp against spp-exact, the siblings met in the search",
            args: with(
                strings(&[
                    "mpd",
                    "--games",
                    "2",
                    "--play-depth",
                    "3",
                    "--max-plies",
                    "60",
                    "--limit",
                    "300",
                    "--prune-positions",
                    "8",
                    "--prune-depth",
                    "4",
                    "--search-depth",
                    "3",
                    "--quiet",
                    "--out",
                ]),
                &[vec![shown(&out.join("mpd"))], threads.clone()].concat(),
            ),
        },
        Step {
            name: "collect",
            what: "Jiang & Buro: the regression data, every depth 1..7 of 100 bundled TCEC \
                   positions",
            args: with(
                strings(&[
                    "collect",
                    "--positions",
                    "100",
                    "--depth",
                    "7",
                    "--quiet",
                    "--out",
                ]),
                &[vec![shown(&probcut.join("collect.csv"))], threads].concat(),
            ),
        },
        Step {
            name: "fit",
            what: "Jiang & Buro, Table 1 and Figure 4: a, b, sigma, r per depth pair and stage \
                   with confidence intervals, the scatter plot, a parameter file",
            args: with(
                strings(&["fit"]),
                &[
                    shown(&probcut.join("collect.csv")),
                    "--min-n".into(),
                    "20".into(),
                    "--file-pairs".into(),
                    "3:5,2:6,3:7".into(),
                    "--plot-pair".into(),
                    "3:7".into(),
                    "--out-dir".into(),
                    shown(&probcut),
                ],
            ),
        },
        Step {
            name: "depth",
            what: "Jiang & Buro's speed test: depth reached by baseline, ProbCut and MPC (at \
                   fixed nodes here, so the machine's load does not enter)",
            args: with(
                strings(&[
                    "depth",
                    "--positions",
                    "20",
                    "--nodes",
                    "20000",
                    "--quiet",
                    "--csv",
                ]),
                &[shown(&probcut.join("depth.csv"))],
            ),
        },
        Step {
            name: "grid",
            what: "Jiang & Buro, Tables 2 and 3: MPC against the baseline per pair of (endgame, \
                   middle-game) thresholds, Elo ± 95% CI and a heat map (2 × 2 cells of 8 games \
                   at 2,000 nodes here: the method, not a verdict)",
            args: strings(&[
                "grid",
                "--x",
                "MpcThresholdEnd=60,140",
                "--y",
                "MpcThresholdMid=80,160",
                "--tc",
                "nodes=2000",
                "--games",
                "8",
                "--quiet",
                "--out",
                &shown(&probcut.join("grid")),
            ]),
        },
    ];
    if args.suite.exists() {
        steps.push(Step {
            name: "solve",
            what: "the tactical cost of forward pruning: WAC positions solved per variant",
            args: with(
                strings(&["solve", "--suite"]),
                &[
                    shown(&args.suite),
                    "--positions".into(),
                    "30".into(),
                    "--nodes".into(),
                    "50000".into(),
                    "--quiet".into(),
                    "--csv".into(),
                    shown(&probcut.join("solve.csv")),
                ],
            ),
        });
    }
    steps
}

/// How a step ended in this run.
enum Outcome {
    Ran(f64),
    Earlier,
    Failed(f64, i32),
}

pub fn run(args: &ReproduceArgs) -> Result<()> {
    let all = quick_steps(args);
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
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let exe = std::env::current_exe().context("cannot find this program to run the steps")?;
    let provenance = Provenance::capture(args, None);
    let start = Instant::now();
    let mut outcomes = Vec::new();
    for step in &steps {
        let report = args.out.join(format!("{}.md", step.name));
        if report.exists() {
            eprintln!(
                "reproduce: {} done earlier ({})",
                step.name,
                report.display()
            );
            outcomes.push(Outcome::Earlier);
            continue;
        }
        eprintln!("reproduce: {} ...", step.name);
        let tmp = args.out.join(format!("{}.md.tmp", step.name));
        let file = std::fs::File::create(&tmp)
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        let t = Instant::now();
        let status = Command::new(&exe)
            .args(&step.args)
            .stdout(Stdio::from(file))
            .status()
            .with_context(|| format!("cannot start {}", exe.display()))?;
        let secs = t.elapsed().as_secs_f64();
        if status.success() {
            std::fs::rename(&tmp, &report)
                .with_context(|| format!("cannot write {}", report.display()))?;
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
    let index = index_text(args, &steps, &outcomes, &provenance, wall);
    let path = args.out.join("README.md");
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

fn index_text(
    args: &ReproduceArgs,
    steps: &[&Step],
    outcomes: &[Outcome],
    provenance: &Provenance,
    wall: f64,
) -> String {
    let mut s = String::from("# augur-lab reproduce --quick\n\n");
    s.push_str(&provenance.markdown());
    let _ = writeln!(
        s,
        "**Quick mode**: small sizes chosen to finish in minutes; the numbers show the method \
         works end to end and roughly where the results lie, not the papers' precision. The \
         full-size commands are in docs/compare.md and docs/probcut.md.\n\n\
         This run: {wall:.1} s of wall time for the steps it ran (steps done earlier are \
         skipped; run the command again after an interruption to finish).\n"
    );
    let _ = writeln!(s, "| step | reproduces | report | status | command |");
    let _ = writeln!(s, "|---|---|---|---|---|");
    for (step, outcome) in steps.iter().zip(outcomes) {
        let status = match outcome {
            Outcome::Ran(t) => format!("done, {t:.1} s"),
            Outcome::Earlier => "done in an earlier run".into(),
            Outcome::Failed(t, code) => format!("**failed** (exit {code}) after {t:.1} s"),
        };
        let _ = writeln!(
            s,
            "| {} | {} | [{}.md]({}.md) | {status} | `augur-lab {}` |",
            step.name,
            step.what,
            step.name,
            step.name,
            step.args.join(" ")
        );
    }
    if !args.suite.exists() {
        let _ = writeln!(
            s,
            "\n`solve` was skipped: its suite {} is not there.",
            args.suite.display()
        );
    }
    s
}
