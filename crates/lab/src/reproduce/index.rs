//! The index of a `reproduce` run (`README.md`): every step with its command, status and wall
//! time, and the seeds' numbers beside Augur's. Augur's numbers come from each step's summary
//! (`<step>.summary.toml`, written by the step's own command): typed figures, never the prose
//! of a report.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use augur_arena::matchmaking::elo::{fmt_elo_interval, fmt_elo_range};

use super::steps::{seed_figure, summary_path, table4_opponents, Step};
use super::ReproduceArgs;
use crate::kit::confidence::Interval;
use crate::kit::provenance::Provenance;
use crate::kit::summary::{self, Summary};
use crate::probcut::{collect, fit, grid, sfpc_depths};
use crate::spp::{compare, mpd};
use crate::tournament::{self, EloFigures};
use crate::variants::{accuracy, depth, solve};

/// How a step ended in this run.
pub enum Outcome {
    Ran(f64),
    /// Done by an earlier run, with the wall time that run recorded for it (`None` for a
    /// report written before step times were kept).
    Earlier(Option<f64>),
    Failed(f64, i32),
}

pub fn index_text(
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
            "**Quick mode**: small sizes chosen to finish in under a minute; the numbers show the \
             method works end to end and roughly where the results lie, not the papers' \
             precision. `--full` runs larger sizes, each beside the paper's in docs/reproduce.md.\n"
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

/// The seeds' numbers beside Augur's, one row a step: Augur's from the step's summary in
/// `out`, where the step has one.
pub fn seeds_section(out: &Path, steps: &[&Step]) -> String {
    let mut s = String::from(
        "\n## The seeds' numbers beside Augur's\n\n| step | the seed reported | Augur (this run) |\n\
         |---|---|---|\n",
    );
    for step in steps {
        let tables = format!("the tables of [{0}.md]({0}.md)", step.name);
        let path = summary_path(out, step.name);
        let ours = if !out.join(format!("{}.md", step.name)).exists() {
            "not run yet".to_string()
        } else if !path.exists() {
            // A step finished before its command wrote summaries.
            tables
        } else {
            match summary::read(&path).and_then(|s| augur_figure(&s)) {
                Ok(Some(figure)) => figure,
                Ok(None) => tables,
                Err(e) => format!("unreadable summary ({e:#})"),
            }
        };
        let _ = writeln!(s, "| {} | {} | {ours} |", step.name, seed_figure(step.name));
    }
    s
}

/// Elo with its 95% interval: `+12.3 ±25.1`, or the ends when one is infinite.
fn elo_interval(e: &EloFigures) -> String {
    fmt_elo_interval(e.elo, e.elo_low, e.elo_high)
}

/// Elo with the ends of its interval: `-15.0 [-28.8, -1.3]`.
fn elo_ends(e: &EloFigures) -> String {
    fmt_elo_range(e.elo, e.elo_low, e.elo_high)
}

/// `m ± h`, or `m` alone without a spread.
fn interval(i: &Interval, decimals: usize) -> String {
    i.text(decimals)
}

/// Augur's headline figure of a step from its summary; `None` for a summary whose figures are
/// tables to read in the report.
pub fn augur_figure(s: &Summary) -> Result<Option<String>> {
    let joined = |parts: Vec<String>| (!parts.is_empty()).then(|| parts.join(", "));
    Ok(match s.command.as_str() {
        "compare" => {
            let f: compare::report::Figures = s.figures()?;
            let pooled: Vec<String> = f
                .extra_pruning
                .iter()
                .filter(|p| p.pair == "SPP/AB")
                .filter(|p| p.depths.starts_with("odd") || p.depths.starts_with("even"))
                .map(|p| format!("{} depths {:.1} %", p.depths, p.pooled))
                .collect();
            (!pooled.is_empty())
                .then(|| format!("SPP/AB fewer leaves, pooled: {}", pooled.join("; ")))
        }
        "mpd" => {
            let f: mpd::Figures = s.figures()?;
            joined(
                f.mpd_found
                    .iter()
                    .map(|m| format!("{} {}", m.eval, m.spread))
                    .collect(),
            )
            .map(|found| format!("MPD found by self-play: {found}"))
        }
        "collect" => {
            let f: collect::Figures = s.figures()?;
            Some(format!(
                "{} positions to every depth 1..{}: {} records ({} middle-game, {} endgame \
                 positions)",
                f.positions, f.depth, f.records, f.middlegame, f.endgame
            ))
        }
        "fit" => {
            let f: fit::Figures = s.figures()?;
            let pairs: Vec<String> = f
                .pairs
                .iter()
                .map(|p| {
                    let (a, b, sigma) = (p.a, p.b, p.sigma);
                    format!(
                        "{} {}: a {a:.2}, b {b:.1}, sigma {sigma:.1}",
                        p.pair, p.stage
                    )
                })
                .collect();
            (!pairs.is_empty()).then(|| format!("the parameter file's pairs: {}", pairs.join("; ")))
        }
        "depth" => {
            let f: depth::Figures = s.figures()?;
            joined(
                f.variants
                    .iter()
                    .map(|v| {
                        let avg = v.avg_depth.map_or("-".into(), |i| format!("{:.2}", i.mean));
                        let gain = v.gain.map_or(String::new(), |g| {
                            format!(
                                " ({}{})",
                                if g.mean >= 0.0 { "+" } else { "" },
                                interval(&g, 2)
                            )
                        });
                        format!("{} {avg}{gain}", v.name)
                    })
                    .collect(),
            )
            .map(|rows| format!("average depth: {rows} plies"))
        }
        "solve" => {
            let f: solve::Figures = s.figures()?;
            joined(
                f.variants
                    .iter()
                    .map(|v| format!("{} {}/{}", v.name, v.solved, v.positions))
                    .collect(),
            )
            .map(|rows| format!("solved: {rows}"))
        }
        "accuracy" => {
            let f: accuracy::Figures = s.figures()?;
            joined(
                f.variants
                    .iter()
                    .map(|v| {
                        let loss = v.mean_loss.map_or("-".into(), |i| interval(&i, 1));
                        format!("{} {}/{} (loss {loss} cp)", v.name, v.differs, v.positions)
                    })
                    .collect(),
            )
            .map(|rows| format!("moves unlike the oracle's: {rows}"))
        }
        "sfpc-depths" => {
            let f: sfpc_depths::Figures = s.figures()?;
            let pct = |k: u64, n: u64| 100.0 * k as f64 / n.max(1) as f64;
            let rules: Vec<String> = f
                .rules
                .iter()
                .skip(1)
                .map(|r| {
                    format!(
                        "{} extends {:.1}% and reduces {:.1}% of verifications",
                        r.rule,
                        pct(r.extended, r.verifications),
                        pct(r.reduced, r.verifications)
                    )
                })
                .collect();
            (!rules.is_empty()).then(|| rules.join("; "))
        }
        "scaling" => {
            let f: crate::scaling::ScalingFigures = s.figures()?;
            let points: Vec<String> = f
                .points
                .iter()
                .filter_map(|p| {
                    let e = p.elo?;
                    Some(match (p.elo_low, p.elo_high) {
                        (Some(l), Some(h)) => {
                            format!("{} at {}: {e:+.1} [{l:+.1}, {h:+.1}]", p.technique, p.nodes)
                        }
                        _ => format!("{} at {}: {e:+.1}", p.technique, p.nodes),
                    })
                })
                .collect();
            joined(points).map(|p| format!("Elo by nodes a move: {p}"))
        }
        "grid" => {
            let f: grid::Figures = s.figures()?;
            f.pooled.map(|p| {
                format!(
                    "pooled over the grid: {} (LOS {:.0}%) Elo",
                    elo_interval(&p),
                    100.0 * p.los
                )
            })
        }
        "match" => {
            let f: tournament::Figures = s.figures()?;
            match (&f.pairing, &f.anchor) {
                (Some(p), _) => p.elo.as_ref().map(|e| {
                    let sprt = p
                        .sprt
                        .as_ref()
                        .map_or(String::new(), |t| format!(", SPRT: {}", t.verdict));
                    format!("{} games, Elo {}{sprt}", e.games, elo_ends(e))
                }),
                (None, Some(anchor)) => {
                    let mut rows: Vec<String> = f
                        .against_anchor
                        .iter()
                        .map(|a| {
                            format!(
                                "{} {} ({:.1}/{})",
                                a.engine,
                                elo_ends(&a.elo),
                                a.points,
                                a.elo.games
                            )
                        })
                        .collect();
                    rows.extend(f.differences.iter().map(|d| {
                        format!(
                            "{} - {}: {:+.1} ± {:.1} pp of score",
                            d.engine,
                            d.reference,
                            100.0 * d.score,
                            100.0 * d.half
                        )
                    }));
                    joined(rows).map(|rows| format!("Elo against {anchor} [95%]: {rows}"))
                }
                (None, None) => None,
            }
        }
        _ => None,
    })
}

/// The wall time of every step listed, this run's and earlier runs' together: the figure the
/// issue asks for, which one run of a resumed `--full` cannot see by itself.
pub fn total_text(outcomes: &[Outcome]) -> String {
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
    use crate::reproduce::steps::full_steps;
    use crate::reproduce::steps::tests::full_args;

    #[test]
    fn skipped_table4_opponents_are_named() {
        let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        let args = full_args(Path::new("no/such/glaurung"), &here);
        let steps = full_steps(&args);
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

    /// Writes `figures` as the summary of `command`, reads it back as the index does, and
    /// returns the index's figure.
    fn through_a_summary<F: serde::Serialize>(command: &str, figures: &F) -> Option<String> {
        let dir = std::env::temp_dir().join(format!("augur-index-{}", std::process::id()));
        let path = dir.join(format!("{command}.summary.toml"));
        summary::write(&path, command, figures).unwrap();
        let text = augur_figure(&summary::read(&path).unwrap()).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        text
    }

    fn elo(games: u64, elo: f64, low: f64, high: f64, los: f64) -> EloFigures {
        EloFigures {
            games,
            score: 0.5,
            elo,
            elo_low: low,
            elo_high: high,
            los,
        }
    }

    fn ci(mean: f64, half: f64, n: usize) -> Interval {
        Interval {
            n,
            mean,
            lo: mean - half,
            hi: mean + half,
        }
    }

    #[test]
    fn augur_figures_come_from_the_steps_summaries() {
        let sprt = tournament::Figures {
            pairing: Some(tournament::Pairing {
                engine: "dev".into(),
                opponent: "base".into(),
                elo: Some(elo(1482, -15.0, -28.8, -1.3, 0.02)),
                sprt: Some(tournament::Sprt {
                    llr: -2.979,
                    verdict: "H0 accepted".into(),
                }),
                interim_stop: None,
            }),
            anchor: None,
            against_anchor: vec![],
            differences: vec![],
        };
        assert_eq!(
            through_a_summary("match", &sprt).as_deref(),
            Some("1482 games, Elo -15.0 [-28.8, -1.3], SPRT: H0 accepted")
        );
        let gauntlet = tournament::Figures {
            pairing: None,
            anchor: Some("toga".into()),
            against_anchor: vec![
                tournament::Against {
                    engine: "base".into(),
                    points: 75.0,
                    elo: elo(120, 88.7, 38.5, 142.9, 1.0),
                },
                tournament::Against {
                    engine: "mpc".into(),
                    points: 68.0,
                    elo: elo(120, 46.6, -2.4, 97.5, 0.969),
                },
            ],
            differences: vec![tournament::Difference {
                engine: "mpc".into(),
                reference: "base".into(),
                score: -0.058,
                half: 0.101,
            }],
        };
        assert_eq!(
            through_a_summary("match", &gauntlet).as_deref(),
            Some(
                "Elo against toga [95%]: base +88.7 [+38.5, +142.9] (75.0/120), \
                 mpc +46.6 [-2.4, +97.5] (68.0/120), mpc - base: -5.8 ± 10.1 pp of score"
            )
        );
        let grid = grid::Figures {
            x: "MpcThresholdEnd=60,140".into(),
            y: "MpcThresholdMid=80,160".into(),
            pooled: Some(elo(32, -26.5, -38.9, -14.1, 0.001)),
            cells: vec![],
        };
        assert_eq!(
            through_a_summary("grid", &grid).as_deref(),
            Some("pooled over the grid: -26.5 ±12.4 (LOS 0%) Elo")
        );
        let mpd = mpd::Figures {
            games: 2,
            self_play_positions: 120,
            sampled_positions: 300,
            mpd_found: ["classic", "default"]
                .iter()
                .zip([56, 269])
                .map(|(eval, spread)| mpd::selfplay::MpdFound {
                    eval: eval.to_string(),
                    spread,
                    fen: "8/8/8/8/8/8/8/K1k5 w - - 0 1".into(),
                })
                .collect(),
        };
        assert_eq!(
            through_a_summary("mpd", &mpd).as_deref(),
            Some("MPD found by self-play: classic 56, default 269")
        );
        let pruning = |depths: &str, pooled: f64| compare::report::PruningFigures {
            pair: "SPP/AB".into(),
            depths: depths.into(),
            n: 32,
            pooled,
            mean: pooled - 5.0,
            median: pooled - 4.0,
        };
        let compare = compare::report::Figures {
            extra_pruning: vec![
                pruning("7", 78.4),
                pruning("odd (5,7)", 78.4),
                pruning("even (4,6)", 56.0),
            ],
            comparisons: 96,
            mismatches: 0,
        };
        assert_eq!(
            through_a_summary("compare", &compare).as_deref(),
            Some("SPP/AB fewer leaves, pooled: odd (5,7) depths 78.4 %; even (4,6) depths 56.0 %")
        );
        let variant = |name: &str, avg: f64, gain: Option<Interval>| depth::VariantFigures {
            name: name.into(),
            avg_depth: Some(ci(avg, 0.4, 20)),
            gain,
            avg_nodes: 15000.0,
        };
        let depth = depth::Figures {
            budget: "20000 nodes".into(),
            positions: 20,
            variants: vec![
                variant("baseline", 9.3, None),
                variant("mpc", 10.0, Some(ci(0.7, 0.48, 20))),
            ],
        };
        assert_eq!(
            through_a_summary("depth", &depth).as_deref(),
            Some("average depth: baseline 9.30, mpc 10.00 (+0.70 ± 0.48) plies")
        );
        let solve = solve::Figures {
            budget: "50000 nodes".into(),
            variants: [("baseline", 28), ("mpc", 26)]
                .into_iter()
                .map(|(name, solved)| solve::VariantFigures {
                    name: name.into(),
                    solved,
                    positions: 30,
                    vs_first: None,
                })
                .collect(),
        };
        assert_eq!(
            through_a_summary("solve", &solve).as_deref(),
            Some("solved: baseline 28/30, mpc 26/30")
        );
        let rule = |rule: &str, extended, reduced| sfpc_depths::RuleFigures {
            rule: rule.into(),
            verifications: 1000,
            extended,
            reduced,
        };
        let sfpc = sfpc_depths::Figures {
            positions: 30,
            depth: 10,
            rules: vec![rule("fixed", 0, 0), rule("dynamic", 17, 32)],
        };
        assert_eq!(
            through_a_summary("sfpc-depths", &sfpc).as_deref(),
            Some("dynamic extends 1.7% and reduces 3.2% of verifications")
        );
        let fit = fit::Figures {
            positions: 100,
            pairs: vec![fit::FittedPair {
                pair: "3:5".into(),
                stage: "mid".into(),
                n: 84,
                a: 0.974,
                b: -2.14,
                sigma: 23.46,
                r: 0.98,
            }],
        };
        assert_eq!(
            through_a_summary("fit", &fit).as_deref(),
            Some("the parameter file's pairs: 3:5 mid: a 0.97, b -2.1, sigma 23.5")
        );
        // A command whose figures are tables to read has no headline; a wrong shape is an error.
        assert_eq!(through_a_summary("timing", &sfpc), None);
        let dir = std::env::temp_dir().join(format!("augur-index-bad-{}", std::process::id()));
        let path = dir.join("depth.summary.toml");
        summary::write(&path, "depth", &sfpc).unwrap();
        assert!(augur_figure(&summary::read(&path).unwrap()).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_seeds_section_reads_each_steps_summary() {
        let dir = std::env::temp_dir().join(format!("augur-seeds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let step = |name: &'static str| Step {
            name,
            what: "",
            args: vec![],
        };
        let (done, old, pending) = (step("solve"), step("fit"), step("nonmp-mpc"));
        std::fs::write(dir.join("solve.md"), "# solve\n").unwrap();
        let figures = solve::Figures {
            budget: "1 ms".into(),
            variants: vec![solve::VariantFigures {
                name: "baseline".into(),
                solved: 3,
                positions: 4,
                vs_first: None,
            }],
        };
        summary::write(&summary_path(&dir, "solve"), "solve", &figures).unwrap();
        // A report from before summaries existed.
        std::fs::write(dir.join("fit.md"), "# fit\n").unwrap();
        let text = seeds_section(&dir, &[&done, &old, &pending]);
        assert!(text.contains("| solved: baseline 3/4 |"), "{text}");
        assert!(
            text.contains("| the tables of [fit.md](fit.md) |"),
            "{text}"
        );
        assert!(
            text.contains("| nonmp-mpc | not run by the paper") && text.contains("not run yet |"),
            "{text}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
