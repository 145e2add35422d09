//! `augur-lab reproduce --quick | --full`: the lab's experiments end to end into one folder with
//! an index (`README.md`). `--quick` (small sizes, minutes) is the first command for a newcomer;
//! `--full` runs the papers' sizes and the SPRT matches (hours).
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
use std::time::{Duration, Instant};

use crate::kit::provenance::Provenance;

#[derive(Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("size").required(true).args(["quick", "full"])))]
pub struct ReproduceArgs {
    /// Small sizes: minutes on two cores, on bundled data.
    #[arg(long)]
    pub quick: bool,
    /// The papers' sizes and the SPRT matches: hours on two cores. Resumable: run the same
    /// command again after an interruption (kill -9 included); finished steps are skipped and the
    /// interrupted one continues from its own result files or PGN.
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
    /// Test suite for `solve` (the step is skipped when the file is missing).
    #[arg(long, default_value = "../shared/data/suites/wac.epd")]
    pub suite: PathBuf,
    /// Glaurung 2.2, an opponent of the Table 4 matches (`--full`; skipped when missing).
    #[arg(long, default_value = "/usr/games/glaurung")]
    pub glaurung: PathBuf,
    /// Toga II 3.0, the other opponent of the Table 4 matches.
    #[arg(long, default_value = "/usr/games/toga2")]
    pub toga: PathBuf,
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

impl ReproduceArgs {
    pub fn out_dir(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(|| {
            PathBuf::from(if self.full {
                "reproduce-full"
            } else {
                "reproduce-quick"
            })
        })
    }

    fn mode(&self) -> &'static str {
        if self.full {
            "--full"
        } else {
            "--quick"
        }
    }
}

/// The steps of the chosen size.
pub fn steps(args: &ReproduceArgs) -> Vec<Step> {
    if args.full {
        full_steps(args)
    } else {
        quick_steps(args)
    }
}

/// The steps of `--quick`, in order (`fit` reads what `collect` wrote).
pub fn quick_steps(args: &ReproduceArgs) -> Vec<Step> {
    let out = &args.out_dir();
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
        Step {
            name: "sfpc-depths",
            what: "Seed 004: per staticEval − beta bucket, how often the dynamic and clamped \
                   verification depths of Stockfish-style ProbCut go deeper or shallower than \
                   the fixed one (30 positions at depth 10 here)",
            args: strings(&[
                "sfpc-depths",
                "--positions",
                "30",
                "--depth",
                "10",
                "--quiet",
                "--out",
                &shown(&probcut.join("sfpc-depths.csv")),
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

/// SPRT bounds (normalized Elo) of a change that must gain, and of one that must not lose.
const GAINER: &str = "0,10";
const NON_REGRESSION: &str = "-10,0";

/// The steps of `--full`, in order: the seeds' sizes (the thesis's 16 positions to depth 7 and
/// its 10 self-play games; the paper's 300 positions to depth 10, 1 s a position, its 3 × 3
/// threshold grid) and the SPRT matches of issue 12, each resumable by itself.
pub fn full_steps(args: &ReproduceArgs) -> Vec<Step> {
    let out = &args.out_dir();
    let threads: Vec<String> = args
        .threads
        .map(|t| vec!["--threads".to_string(), t.to_string()])
        .unwrap_or_default();
    let probcut = out.join("probcut");
    let matches = out.join("matches");
    let with = |mut v: Vec<String>, extra: &[String]| {
        v.extend_from_slice(extra);
        v
    };
    let engine = shown(&crate::variants::default_engine());
    // [probcut] [mpc] [sfpc] The SPRTs of docs/strength.md, at the control they were run at:
    // fixed nodes, so the machine's load does not enter and a resumed match plays the same games.
    // A gainer test has bounds [0, 10] (normalized Elo); a simplification is judged as Stockfish
    // judged #6286 and #6607, by a non-regression test [-10, 0] that stops by itself when the
    // change is neutral.
    let sprt = |name: &'static str,
                what: &'static str,
                dev: &str,
                base: &str,
                games: &str,
                bounds: &str| Step {
        name,
        what,
        args: vec![
            "match".into(),
            "--engine".into(),
            format!("name=dev,cmd={engine}{dev}"),
            "--engine".into(),
            format!("name=base,cmd={engine}{base}"),
            "--each".into(),
            "option.Threads=1".into(),
            "--each".into(),
            "option.Hash=16".into(),
            "--openings".into(),
            "../shared/data/openings/UHO_4060_v4-sample10k.epd".into(),
            "--tc".into(),
            "nodes=10000".into(),
            "--concurrency".into(),
            "2".into(),
            "--games".into(),
            games.into(),
            format!("--sprt={bounds}"),
            "--quiet".into(),
            "--pgn".into(),
            shown(&matches.join(format!("{name}.pgn"))),
        ],
    };
    let mut steps = vec![
        Step {
            name: "compare",
            what: "SPP thesis, section 5: NBP per position and depth 4-7 on its 16 positions, \
                   extra pruning of SPP/SPPT over alpha-beta/ABT (Diagrams 1-14), correctness",
            args: with(
                strings(&["compare", "--depths", "4-7", "--quiet", "--out"]),
                &[vec![shown(&out.join("compare"))], threads.clone()].concat(),
            ),
        },
        Step {
            name: "mpd",
            what: "SPP thesis, section 4.6: the maximum positional difference over its 10 \
                   self-play games, spp against spp-exact, the siblings met in the search",
            args: with(
                strings(&["mpd", "--quiet", "--out"]),
                &[vec![shown(&out.join("mpd"))], threads.clone()].concat(),
            ),
        },
        Step {
            name: "collect",
            what: "Jiang & Buro: the regression data, every depth 1..10 of the 300 bundled TCEC \
                   positions",
            args: with(
                strings(&["collect", "--depth", "10", "--quiet", "--out"]),
                &[vec![shown(&probcut.join("collect.csv"))], threads.clone()].concat(),
            ),
        },
        Step {
            name: "fit",
            what: "Jiang & Buro, Table 1 and Figure 4: a, b, sigma, r per depth pair and stage \
                   with confidence intervals, the (4, 8) scatter plot, a parameter file",
            args: vec![
                "fit".into(),
                shown(&probcut.join("collect.csv")),
                "--out-dir".into(),
                shown(&probcut),
            ],
        },
        Step {
            name: "depth",
            what: "Jiang & Buro's speed test: depth reached by baseline, ProbCut and MPC at 1 s \
                   a position over 300 positions (needs the machine to itself)",
            args: with(
                strings(&[
                    "depth",
                    "--positions",
                    "300",
                    "--movetime",
                    "1000",
                    "--quiet",
                    "--csv",
                ]),
                &[shown(&probcut.join("depth.csv"))],
            ),
        },
        Step {
            name: "accuracy",
            what: "Jiang & Buro's suggested accuracy measure: each variant's move at depth 9 \
                   judged by the baseline at depth 11",
            args: vec![
                "accuracy".into(),
                "--positions".into(),
                "100".into(),
                "--depth".into(),
                "9".into(),
                "--extra".into(),
                "2".into(),
                "--quiet".into(),
                "--out".into(),
                shown(&probcut.join("accuracy.csv")),
            ],
        },
        Step {
            name: "sfpc-depths",
            what: "Seed 004: per staticEval − beta bucket, how often the dynamic and clamped \
                   verification depths of Stockfish-style ProbCut go deeper or shallower than \
                   the fixed one, 300 positions at depth 14, with each rule's nodes",
            args: strings(&[
                "sfpc-depths",
                "--positions",
                "300",
                "--depth",
                "14",
                "--quiet",
                "--out",
                &shown(&probcut.join("sfpc-depths.csv")),
            ]),
        },
        Step {
            name: "grid",
            what: "Jiang & Buro, Tables 2 and 3: MPC against the baseline per pair of (endgame, \
                   middle-game) thresholds, 3 × 3 cells of 200 games at 5,000 nodes, Elo ± 95% \
                   CI and a heat map",
            args: strings(&[
                "grid",
                "--tc",
                "nodes=5000",
                "--games",
                "200",
                "--concurrency",
                "2",
                "--quiet",
                "--out",
                &shown(&probcut.join("grid")),
            ]),
        },
        sprt(
            "nonmp-probcut",
            "Jiang & Buro's null-move-off experiment (their 40-24): ProbCut against the \
             baseline, both without null move; SPRT [0, 10], at most 1,500 games",
            ",option.ProbCut=true,option.Nmp=false,option.Sfpc=false",
            ",option.Nmp=false,option.Sfpc=false",
            "1500",
            GAINER,
        ),
        sprt(
            "nonmp-mpc",
            "The same with Multi-ProbCut in place of ProbCut",
            ",option.Mpc=true,option.Nmp=false,option.Sfpc=false",
            ",option.Nmp=false,option.Sfpc=false",
            "1500",
            GAINER,
        ),
        sprt(
            "mpc",
            "Jiang & Buro's verdict on MPC, on top of Augur's full pruning: MPC against the \
             baseline; SPRT [0, 10], at most 3,000 games",
            ",option.Mpc=true",
            "",
            "3000",
            GAINER,
        ),
        sprt(
            "seed004-dynamic",
            "Seed 004, Stockfish #6219: the dynamic verification depth against the fixed one \
             (Stockfish-style ProbCut on both), as a gainer; SPRT [0, 10], at most 6,000 games",
            ",option.SfpcDepthRule=dynamic",
            ",option.SfpcDepthRule=fixed",
            "6000",
            GAINER,
        ),
        sprt(
            "seed004-clamp",
            "Seed 004, Stockfish #6286: the clamp (the term may only reduce) against the \
             dynamic rule, as a non-regression test; SPRT [-10, 0], at most 6,000 games",
            ",option.SfpcDepthRule=dynamic-clamped",
            ",option.SfpcDepthRule=dynamic",
            "6000",
            NON_REGRESSION,
        ),
        sprt(
            "seed004-removal",
            "Seed 004, Stockfish #6607: the fixed depth (the term removed) against the clamped \
             rule, as a non-regression test; SPRT [-10, 0], at most 6,000 games",
            ",option.SfpcDepthRule=fixed",
            ",option.SfpcDepthRule=dynamic-clamped",
            "6000",
            NON_REGRESSION,
        ),
    ];
    steps.extend(table4_steps(args, &engine, &matches));
    if args.suite.exists() {
        steps.push(Step {
            name: "solve",
            what: "the tactical cost of forward pruning: all WAC positions solved per variant at \
                   1 s (needs the machine to itself)",
            args: with(
                strings(&["solve", "--suite"]),
                &[
                    shown(&args.suite),
                    "--movetime".into(),
                    "1000".into(),
                    "--quiet".into(),
                    "--csv".into(),
                    shown(&probcut.join("solve.csv")),
                ],
            ),
        });
    }
    steps
}

/// The Table 4 opponents: step name stem, UCI spec without the path, path.
fn table4_opponents(args: &ReproduceArgs) -> [(&'static str, &'static str, &Path); 2] {
    [
        (
            "glaurung",
            "option.Threads=1,option.OwnBook=false,option.Ponder=false,option.Hash=16",
            &args.glaurung,
        ),
        (
            "toga",
            "option.Number of Threads=1,option.OwnBook=false,option.Ponder=false,option.Hash=16",
            &args.toga,
        ),
    ]
}

/// [mpc] Jiang & Buro's Table 4: does MPC's self-play result carry over to another program?
/// Baseline and MPC Augur each play a Debian engine at two time controls four times apart (the
/// paper's 2 and 8 minutes); timed games, two at a time on the two cores (the load of the two
/// gauntlets side by side that docs/probcut.md's table was played with), so these steps need
/// the machine to themselves.
fn table4_steps(args: &ReproduceArgs, engine: &str, matches: &Path) -> Vec<Step> {
    // Games a pairing: 200 at the short control; at the long one the paper's 64, which keeps
    // the whole of `--full` within a session of this machine (200 would add two hours).
    const TCS: [(&str, &str); 2] = [("2+0.02", "200"), ("8+0.08", "64")];
    const NAMES: [[&str; 2]; 2] = [
        ["table4-glaurung-stc", "table4-glaurung-ltc"],
        ["table4-toga-stc", "table4-toga-ltc"],
    ];
    let mut steps = Vec::new();
    for ((stem, options, path), names) in table4_opponents(args).into_iter().zip(NAMES) {
        if !path.exists() {
            continue;
        }
        for ((tc, games), name) in TCS.into_iter().zip(names) {
            steps.push(Step {
                name,
                what: "Jiang & Buro, Table 4: baseline and MPC Augur (`Mpc=true` with its \
                       defaults, which lost less in self-play than the SPSA-tuned values) each \
                       against an older program, 200 games a pairing at 2+0.02 and the \
                       paper's 64 at 8+0.08, two games at a time \
                       (needs the machine to itself)",
                args: vec![
                    "match".into(),
                    "--engine".into(),
                    format!("name={stem},cmd={},{options}", shown(path)),
                    "--engine".into(),
                    format!("name=base,cmd={engine},option.Threads=1,option.Hash=16"),
                    "--engine".into(),
                    format!(
                        "name=mpc,cmd={engine},option.Threads=1,option.Hash=16,option.Mpc=true"
                    ),
                    "--openings".into(),
                    "../shared/data/openings/8moves_v3.epd".into(),
                    "--tc".into(),
                    tc.into(),
                    "--concurrency".into(),
                    "2".into(),
                    "--games".into(),
                    games.into(),
                    "--seed".into(),
                    "4".into(),
                    "--format".into(),
                    "gauntlet".into(),
                    "--anchor".into(),
                    stem.into(),
                    "--quiet".into(),
                    "--pgn".into(),
                    shown(&matches.join(format!("{name}.pgn"))),
                ],
            });
        }
    }
    steps
}

/// How a step ended in this run.
enum Outcome {
    Ran(f64),
    /// Done by an earlier run, with the wall time that run recorded for it (`None` for a
    /// report written before step times were kept).
    Earlier(Option<f64>),
    Failed(f64, i32),
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
    let mut index = index_text(args, &steps, &outcomes, &provenance, wall);
    let reports: Vec<Option<String>> = steps
        .iter()
        .map(|s| std::fs::read_to_string(out.join(format!("{}.md", s.name))).ok())
        .collect();
    index.push_str(&seeds_section(&steps, &reports));
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

fn index_text(
    args: &ReproduceArgs,
    steps: &[&Step],
    outcomes: &[Outcome],
    provenance: &Provenance,
    wall: f64,
) -> String {
    let mut s = format!("# augur-lab reproduce {}\n\n", args.mode());
    s.push_str(&provenance.markdown());
    if args.full {
        let _ = writeln!(
            s,
            "**Full mode**: the seeds' sizes and the SPRT matches (hours on two cores); the \
             `depth` and `solve` steps measure time and need the machine to itself.\n"
        );
    } else {
        let _ = writeln!(
            s,
            "**Quick mode**: small sizes chosen to finish in minutes; the numbers show the \
             method works end to end and roughly where the results lie, not the papers' \
             precision. `--full` runs the papers' sizes (docs/compare.md, docs/probcut.md).\n"
        );
    }
    let _ = writeln!(
        s,
        "This run: {wall:.1} s of wall time for the steps it ran (steps done earlier are \
         skipped; run the command again after an interruption to finish).\n"
    );
    let _ = writeln!(s, "{}\n", total_text(outcomes));
    let _ = writeln!(s, "| step | reproduces | report | status | command |");
    let _ = writeln!(s, "|---|---|---|---|---|");
    for (step, outcome) in steps.iter().zip(outcomes) {
        let status = match outcome {
            Outcome::Ran(t) => format!("done, {t:.1} s"),
            Outcome::Earlier(Some(t)) => format!("done in an earlier run, {t:.1} s"),
            Outcome::Earlier(None) => "done in an earlier run (time not recorded)".into(),
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
    if args.full {
        for (stem, _, path) in table4_opponents(args) {
            if !path.exists() {
                let _ = writeln!(
                    s,
                    "\nThe Table 4 matches against {stem} were skipped: {} is not there \
                     (`apt-get install glaurung toga2`).",
                    path.display()
                );
            }
        }
    }
    s
}

/// What the seeds reported for the experiment a step repeats, typed in from the texts in
/// `../shared/seeds/` (and, for seed 004's story, from the Stockfish pull requests it led to).
fn seed_figure(step: &str) -> &'static str {
    match step {
        "compare" => {
            "SPP thesis (seed 003), section 5: SPP evaluates 60-85 % fewer leaves than \
             alpha-beta per position (0 % on positions 15 and 16), with identical move-score \
             pairs"
        }
        "mpd" => "SPP thesis, section 4.6: MPD 70 for its evaluation, from self-play games",
        "collect" | "fit" => {
            "Jiang & Buro 2003 (seed 000), Table 1: a, b, sigma and r per depth pair and \
             stage for Crafty 18.15 (printed beside Augur's in fit.md)"
        }
        "depth" => {
            "Jiang & Buro, sections 3-4: 30 s on 300 positions, Crafty 11.5 plies, ProbCut \
             (threshold 1.0) 11.6, MPC 12.0"
        }
        "accuracy" => "Jiang & Buro, section 5: proposed as further research, not measured",
        "sfpc-depths" => {
            "Seed 004 and Stockfish issue #6280: the rule extends the verification search \
             when staticEval is 300 cp or more below beta (no share measured there)"
        }
        "grid" => {
            "Jiang & Buro, Tables 2 and 3: 64-game matches; the pairs (1.2, 1.0) and \
             (1.0, 1.0) scored 59.4 % against Crafty"
        }
        "nonmp-probcut" => {
            "Jiang & Buro, section 3: ProbCut against Crafty, both without null move, 40-24 \
             in 64 games (62.5 %, about +89 Elo), significant by their test (> 38 points)"
        }
        "nonmp-mpc" => "not run by the paper (it ran the null-move-off match with ProbCut)",
        "mpc" => {
            "Jiang & Buro, Table 3: MPC-Crafty (1.0, 1.0) 59.4 % against Crafty with null \
             move (64 games)"
        }
        "seed004-dynamic" => {
            "Stockfish #6219: passed STC [0, 2] (LLR 2.98, 174,400 games) and LTC \
             [0.5, 2.5] (56,010 games), about +1 Elo"
        }
        "seed004-clamp" => {
            "Stockfish #6286: passed non-regression STC [-1.75, 0.25] (86,688 games) and LTC \
             (82,914 games)"
        }
        "seed004-removal" => {
            "Stockfish #6607: passed non-regression STC (139,392 games) and LTC (266,934 \
             games)"
        }
        s if s.starts_with("table4-") => {
            "Jiang & Buro, Table 4 (64 games against Yace, 2 min + 10 s and 8 min + 20 s): \
             Crafty 42.0 % and 50.8 %, MPC-Crafty (1.0, 1.0) 57.0 % and 55.5 %"
        }
        "solve" => "none (the seeds ran no tactical suite)",
        _ => "-",
    }
}

/// Augur's headline figure from a step's report, where the report has one: a match's games,
/// logistic Elo with its interval and SPRT verdict, or a grid's pooled cell. Other steps are
/// tables to read in their report.
fn augur_figure(report: &str) -> Option<String> {
    let after = |line: &str, key: &str| line.split_once(key).map(|(_, r)| r.trim().to_string());
    if let Some(pooled) = report
        .contains("## Grid:")
        .then(|| report.lines().find(|l| l.starts_with("| all ")))
        .flatten()
    {
        let last = pooled.trim_end_matches('|').rsplit('|').next()?.trim();
        return Some(format!("pooled over the grid: {last} Elo"));
    }
    // compare: the thesis's headline ratio, pooled over the odd and over the even depths.
    let spp: Vec<String> = report
        .lines()
        .filter(|l| l.starts_with("| SPP/AB | odd") || l.starts_with("| SPP/AB | even"))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            Some(format!("{} depths {} %", cells.get(2)?, cells.get(4)?))
        })
        .collect();
    if !spp.is_empty() {
        return Some(format!("SPP/AB fewer leaves, pooled: {}", spp.join("; ")));
    }
    // mpd: the largest quiet-sibling spread found by self-play, per evaluation.
    if let Some(rows) = rows_after(
        report,
        "| eval | MPD found",
        2,
        |l| l.starts_with('|'),
        |l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            Some(format!("{} {}", cells.get(1)?, cells.get(2)?))
        },
    ) {
        return Some(format!("MPD found by self-play: {rows}"));
    }
    // solve: positions solved per variant (its `variant` table has a `solved` column).
    let solve = report
        .split_once("\nvariant ")
        .is_some_and(|(_, t)| t.lines().next().is_some_and(|h| h.contains("solved")));
    let solve_row = |l: &str| !l.trim().is_empty() && !l.starts_with("share:");
    if let Some(rows) = rows_after(report, "\nvariant ", 1, solve_row, |l| {
        let cols: Vec<&str> = l.split_whitespace().collect();
        Some(format!(
            "{} {}/{}",
            cols.first()?,
            cols.get(1)?,
            cols.get(2)?
        ))
    })
    .filter(|_| solve)
    {
        return Some(format!("solved: {rows}"));
    }
    // sfpc-depths: the share of verification searches each rule extends and reduces.
    let rules: Vec<String> = report
        .lines()
        .filter(|l| l.starts_with("| dynamic"))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let share = |c: &str| c.split_whitespace().next().unwrap_or("").to_string();
            Some(format!(
                "{} extends {} and reduces {} of verifications",
                cells.get(1)?,
                share(cells.get(6)?),
                share(cells.get(7)?)
            ))
        })
        .collect();
    if !rules.is_empty() {
        return Some(rules.join("; "));
    }
    // depth: each variant's average depth and its paired gain over the first.
    let depth_row = |l: &str| !l.trim().is_empty() && !l.starts_with("avg depth");
    if let Some(rows) = rows_after(report, "\nvariant ", 1, depth_row, |l| {
        let cols: Vec<&str> = l.split_whitespace().collect();
        let (name, depth) = (cols.first()?, cols.get(2)?);
        let gain = match (cols.get(5), cols.get(6), cols.get(7)) {
            (Some(g), Some(&"±"), Some(w)) => format!(" ({g} ± {w})"),
            _ => String::new(),
        };
        Some(format!("{name} {depth}{gain}"))
    }) {
        return Some(format!("average depth: {rows} plies"));
    }
    // gauntlet (Table 4): each engine's own games against the anchor, with the Elo interval;
    // reports written before that section existed give the maximum-likelihood ratings.
    if let Some((_, rest)) = report.split_once("\nAgainst ") {
        let anchor = rest.split(" alone").next().unwrap_or("").to_string();
        let indented = |l: &str| l.starts_with("  ");
        if let Some(rows) = rows_after(rest, "\n", 0, indented, |l| {
            if let Some((difference, _)) = l.split_once(" points of score") {
                return Some(format!("{} pp of score", difference.trim()));
            }
            let cols: Vec<&str> = l.split_whitespace().collect();
            let (name, points) = (cols.first()?, cols.get(1)?);
            let elo = l.split_once("Elo ")?.1.split("  ").next()?;
            Some(format!("{name} {elo} ({points})"))
        }) {
            return Some(format!("Elo against {anchor} [95%]: {rows}"));
        }
    }
    const RATINGS: &str = "Maximum-likelihood ratings (Elo, ";
    if let Some((_, table)) = report.split_once(RATINGS) {
        let anchor = table.split(" = 0").next().unwrap_or("").to_string();
        let numbered = |l: &str| l.trim_start().starts_with(|c: char| c.is_ascii_digit());
        if let Some(rows) = rows_after(report, RATINGS, 2, numbered, |l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            let (name, elo, points) = (cols.get(1)?, cols.get(2)?, cols.get(3)?);
            (*name != anchor).then(|| format!("{name} {elo} ({points})"))
        }) {
            return Some(format!("Elo against {anchor}: {rows}"));
        }
    }
    // match: per pairing, games, logistic Elo and the SPRT verdict.
    let mut pairings: Vec<(String, String)> = Vec::new();
    let mut title = String::new();
    let mut games = String::new();
    for line in report.lines() {
        if line.contains(" vs ") && line.contains("(from ") {
            title = line
                .split(" (from ")
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
        } else if let Some(r) = after(line, "Games: ") {
            games = r.split_whitespace().next().unwrap_or("").to_string();
        } else if let Some(r) = after(line, "Elo (logistic): ") {
            let elo = r.split("  ").next().unwrap_or("").to_string();
            pairings.push((title.clone(), format!("{games} games, Elo {elo}")));
        } else if line.starts_with("SPRT ") {
            if let (Some(v), Some(last)) = (after(line, "-> "), pairings.last_mut()) {
                last.1.push_str(&format!(", SPRT: {v}"));
            }
        }
    }
    match pairings.len() {
        0 => None,
        1 => Some(pairings.remove(0).1),
        _ => Some(
            pairings
                .into_iter()
                .map(|(t, f)| format!("{t}: {f}"))
                .collect::<Vec<_>>()
                .join("; "),
        ),
    }
}

/// The rows of the table that follows `marker` in a report (its first `skip` lines are the
/// rest of the header), as long as `is_row` holds, each put in words by `row` and joined;
/// `None` without the marker or without rows.
fn rows_after(
    report: &str,
    marker: &str,
    skip: usize,
    is_row: impl Fn(&str) -> bool,
    row: impl Fn(&str) -> Option<String>,
) -> Option<String> {
    let (_, table) = report.split_once(marker)?;
    let rows: Vec<String> = table
        .lines()
        .skip(skip)
        .take_while(|l| is_row(l))
        .filter_map(row)
        .collect();
    (!rows.is_empty()).then(|| rows.join(", "))
}

/// The seeds' numbers beside Augur's, one row a step that has a report.
fn seeds_section(steps: &[&Step], reports: &[Option<String>]) -> String {
    let mut s = String::from(
        "\n## The seeds' numbers beside Augur's\n\n| step | the seed reported | Augur (this run) |\n\
         |---|---|---|\n",
    );
    for (step, report) in steps.iter().zip(reports) {
        let ours = match report {
            None => "not run yet".to_string(),
            Some(r) => augur_figure(r)
                .unwrap_or_else(|| format!("the tables of [{0}.md]({0}.md)", step.name)),
        };
        let _ = writeln!(s, "| {} | {} | {ours} |", step.name, seed_figure(step.name));
    }
    s
}

/// The wall time of every step listed, this run's and earlier runs' together: the figure the
/// issue asks for, which one run of a resumed `--full` cannot see by itself.
fn total_text(outcomes: &[Outcome]) -> String {
    let mut total = 0.0;
    let mut unknown = 0;
    for o in outcomes {
        match o {
            Outcome::Ran(t) | Outcome::Failed(t, _) | Outcome::Earlier(Some(t)) => total += t,
            Outcome::Earlier(None) => unknown += 1,
        }
    }
    let hours = total / 3600.0;
    if unknown == 0 {
        format!(
            "All {} steps listed: {total:.1} s ({hours:.2} h) of wall time in total.",
            outcomes.len()
        )
    } else {
        format!(
            "All {} steps listed: at least {total:.1} s ({hours:.2} h) of wall time; {unknown} \
             done before step times were recorded.",
            outcomes.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full_args(glaurung: &Path, toga: &Path) -> ReproduceArgs {
        ReproduceArgs {
            quick: false,
            full: true,
            out: Some(PathBuf::from("unused")),
            steps: vec![],
            threads: None,
            suite: PathBuf::from("no/such/suite.epd"),
            glaurung: glaurung.to_path_buf(),
            toga: toga.to_path_buf(),
        }
    }

    #[test]
    fn every_full_step_names_what_its_seed_reported() {
        let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        for step in full_steps(&full_args(&here, &here)) {
            assert_ne!(seed_figure(step.name), "-", "{}", step.name);
        }
    }

    #[test]
    fn augur_figures_are_read_from_match_and_grid_reports() {
        let sprt = "dev vs base (from dev's side)\nGames: 1482  W/D/L: 434/550/498  Points: 709.0/1482\n\
                    Score: 47.84%  Elo (logistic): -15.0 [-28.8, -1.3]  nElo (normalized): -19.3 ± 17.7\n\
                    SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05 (normalized Elo): LLR -2.979 [-2.944, 2.944] -> H0 accepted\n";
        assert_eq!(
            augur_figure(sprt).as_deref(),
            Some("1482 games, Elo -15.0 [-28.8, -1.3], SPRT: H0 accepted")
        );
        let grid = "## Grid: MpcThresholdEnd × MpcThresholdMid\n\
                    | MpcThresholdMid=80 | -50.7 ±37.7 (LOS 0%) | -33.7 ±21.7 (LOS 0%) |\n\
                    | all MpcThresholdMid | -26.7 ±21.6 (LOS 1%) | -26.5 ±12.4 (LOS 0%) |\n";
        assert_eq!(
            augur_figure(grid).as_deref(),
            Some("pooled over the grid: -26.5 ±12.4 (LOS 0%) Elo")
        );
        assert_eq!(augur_figure("# augur-lab fit\nTable 1 ...\n"), None);
        let gauntlet = "Played 240 games\n\
                        Maximum-likelihood ratings (Elo, toga = 0), points and crosstable (row's points vs column):\n\
                        \x20 # engine      Elo       points         1        2        3\n\
                        \x20 1 base      +88.0     75.0/120         -        . 75.0/120\n\
                        \x20 2 mpc       +46.2     68.0/120         .        - 68.0/120\n\
                        \x20 3 toga       +0.0     97.0/240  45.0/120 52.0/120        -\n\
                        Faults: none\n";
        assert_eq!(
            augur_figure(gauntlet).as_deref(),
            Some("Elo against toga: base +88.0 (75.0/120), mpc +46.2 (68.0/120)")
        );
        let with_intervals = gauntlet.replace(
            "Faults: none\n",
            "Against toga alone (each engine's own games with it; Elo logistic, 95% interval):\n\
             \x20 base       75.0/120   62.5%  W/D/L 60/30/30  Elo +88.7 [+38.5, +142.9]  LOS 100.0%  (pentanomial)\n\
             \x20 mpc        68.0/120   56.7%  W/D/L 50/36/34  Elo +46.6 [-2.4, +97.5]  LOS 96.9%  (pentanomial)\n\
             \x20 mpc - base: -5.8 ± 10.1 points of score per 100 games (95%), Elo -42.1\n\
             Faults: none\n",
        );
        assert_eq!(
            augur_figure(&with_intervals).as_deref(),
            Some(
                "Elo against toga [95%]: base +88.7 [+38.5, +142.9] (75.0/120), \
                 mpc +46.6 [-2.4, +97.5] (68.0/120), mpc - base: -5.8 ± 10.1 pp of score"
            )
        );
        let mpd = "## Self-play\n\n| eval | MPD found (largest quiet-sibling spread) | at |\n\
                   |---|---:|---|\n| classic | 56 | `fen` |\n| default | 269 | `fen` |\n\n## Next\n";
        assert_eq!(
            augur_figure(mpd).as_deref(),
            Some("MPD found by self-play: classic 56, default 269")
        );
        let compare = "| SPP/AB | 7 | 16 | 78.4 | 68.4 |\n\
                       | SPP/AB | odd (5,7) | 32 | 78.4 | 67.6 ± 8.8 |\n\
                       | SPP/AB | even (4,6) | 32 | 56.0 | 46.6 ± 9.1 |\n";
        assert_eq!(
            augur_figure(compare).as_deref(),
            Some("SPP/AB fewer leaves, pooled: odd (5,7) depths 78.4 %; even (4,6) depths 56.0 %")
        );
        let depth = "20 positions\n\
                     variant        pos      avg depth    gain (paired)   avg nodes\n\
                     baseline        20    9.30 ± 0.40                -       15095\n\
                     mpc             20   10.00 ± 0.70     +0.70 ± 0.48       14522\n\
                     avg depth and gain with 95% confidence intervals\n";
        assert_eq!(
            augur_figure(depth).as_deref(),
            Some("average depth: baseline 9.30, mpc 10.00 (+0.70 ± 0.48) plies")
        );
        let solve = "wac.epd: 30 positions\n\
                     variant       solved    of    share (95% CI) vs first (paired)\n\
                     baseline          28    30      93% [79, 98]                 -\n\
                     mpc               26    30      87% [70, 95]         -7 ± 9 pp\n\
                     share: solved with its 95% Wilson interval\n";
        assert_eq!(
            augur_figure(solve).as_deref(),
            Some("solved: baseline 28/30, mpc 26/30")
        );
        let sfpc = "| rule | positions | mean nodes | vs fixed | verifications | extended | reduced |\n\
                    | fixed | 30 | 23024 | – | 11211 | 0.0% [0.0, 0.0] | 0.0% [0.0, 0.0] |\n\
                    | dynamic | 30 | 23003 | -0.13 | 11209 | 1.7% [1.4, 1.9] | 3.2% [2.9, 3.5] |\n\
                    | dynamic-clamped | 30 | 23000 | -0.14 | 11209 | 0.0% [0.0, 0.0] | 3.2% [2.9, 3.6] |\n";
        assert_eq!(
            augur_figure(sfpc).as_deref(),
            Some(
                "dynamic extends 1.7% and reduces 3.2% of verifications; dynamic-clamped \
                 extends 0.0% and reduces 3.2% of verifications"
            )
        );
        let step = Step {
            name: "nonmp-mpc",
            what: "",
            args: vec![],
        };
        let text = seeds_section(&[&step, &step], &[Some(sprt.into()), None]);
        assert!(
            text.contains("| nonmp-mpc | not run by the paper"),
            "{text}"
        );
        assert!(
            text.contains("H0 accepted |") && text.contains("not run yet |"),
            "{text}"
        );
    }

    #[test]
    fn table4_matches_only_for_installed_opponents() {
        // Cargo.toml stands in for an installed engine: only its existence is checked here.
        let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        let args = full_args(Path::new("no/such/glaurung"), &here);
        let steps = full_steps(&args);
        let names: Vec<&str> = steps.iter().map(|s| s.name).collect();
        assert!(names.contains(&"table4-toga-stc") && names.contains(&"table4-toga-ltc"));
        assert!(!names.iter().any(|n| n.contains("glaurung")), "{names:?}");
        let ltc = steps.iter().find(|s| s.name == "table4-toga-ltc").unwrap();
        let line = ltc.args.join(" ");
        assert!(
            line.contains("8+0.08")
                && line.contains("option.Mpc=true")
                && line.contains("--games 64"),
            "{line}"
        );
        assert!(
            line.contains("--concurrency 2"),
            "timed games two at a time, one a core: {line}"
        );
        // Seed 004 as Stockfish tested it: a gainer test, then two non-regression tests.
        let sprt_of = |name: &str| {
            let step = steps.iter().find(|s| s.name == name).unwrap();
            step.args.iter().find(|a| a.starts_with("--sprt=")).cloned()
        };
        assert_eq!(sprt_of("seed004-dynamic").as_deref(), Some("--sprt=0,10"));
        assert_eq!(sprt_of("seed004-clamp").as_deref(), Some("--sprt=-10,0"));
        assert_eq!(sprt_of("seed004-removal").as_deref(), Some("--sprt=-10,0"));

        let refs: Vec<&Step> = steps.iter().collect();
        let outcomes: Vec<Outcome> = refs.iter().map(|_| Outcome::Earlier(None)).collect();
        let index = index_text(
            &args,
            &refs,
            &outcomes,
            &Provenance::capture(&args, None),
            0.0,
        );
        assert!(index.contains("against glaurung were skipped"), "{index}");
        assert!(!index.contains("against toga were skipped"), "{index}");
    }

    #[test]
    fn total_wall_time_counts_earlier_runs() {
        let all_known = [
            Outcome::Earlier(Some(3600.0)),
            Outcome::Ran(1800.0),
            Outcome::Failed(0.5, 1),
        ];
        let text = total_text(&all_known);
        assert!(
            text.contains("5400.5 s (1.50 h) of wall time in total"),
            "{text}"
        );
        let one_unknown = [Outcome::Earlier(None), Outcome::Ran(60.0)];
        let text = total_text(&one_unknown);
        assert!(
            text.contains("at least 60.0 s") && text.contains("1 done before"),
            "{text}"
        );
    }

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
