//! The catalogue of `reproduce`: every step's command line at the quick and the full size,
//! and what the seeds reported for the experiment each step repeats.

use std::path::{Path, PathBuf};

use super::ReproduceArgs;

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

/// The steps of the chosen size, each writing its summary beside its report
/// (`<step>.summary.toml`, which the index reads).
pub fn steps(args: &ReproduceArgs) -> Vec<Step> {
    let mut steps = if args.full {
        full_steps(args)
    } else {
        quick_steps(args)
    };
    let out = args.out_dir();
    for step in &mut steps {
        step.args.push("--summary".into());
        step.args.push(shown(&summary_path(&out, step.name)));
    }
    steps
}

/// Where a step's summary goes.
pub fn summary_path(out: &Path, step: &str) -> PathBuf {
    out.join(format!("{step}.summary.toml"))
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
        Step {
            name: "scaling",
            what: "Forward pruning across depth (issue 28): seed 004's dynamic rule against the \
                   fixed depth, and the calibration (N against N/2 nodes), at two fixed-node \
                   controls with depth, identical pairs and activity per point (4 games a \
                   point at 1,000 and 2,000 nodes here: the method, not a verdict)",
            args: strings(&[
                "scaling",
                "-t",
                "seed004",
                "-t",
                "calibration",
                "--nodes",
                "1000,2000",
                "--games",
                "4",
                "--activity-positions",
                "5",
                "--quiet",
                "--out",
                &shown(&probcut.join("scaling")),
            ]),
        },
    ];
    steps.push(Step {
        name: "solve",
        what: "the tactical cost of forward pruning: WAC positions solved per variant",
        args: with(
            strings(&["solve", "--suite"]),
            &[
                shown(&args.suite_file()),
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
        Step {
            name: "scaling",
            what: "Forward pruning across depth (issue 28, docs/scaling.md): MPC and ProbCut on a \
                   model fitted on this engine, seed 004's dynamic rule and singular extensions \
                   against the engine without them, and the calibration (N against N/2), at \
                   10k, 40k and 160k nodes a move, 2,000/2,000/1,100 games a point (about 25 \
                   CPU-hours)",
            args: strings(&[
                "scaling",
                "--concurrency",
                "2",
                "--quiet",
                "--out",
                &shown(&matches.join("scaling")),
            ]),
        },
    ];
    steps.extend(table4_steps(args, &engine, &matches));
    steps.push(Step {
        name: "solve",
        what: "the tactical cost of forward pruning: all WAC positions solved per variant at \
               1 s (needs the machine to itself)",
        args: with(
            strings(&["solve", "--suite"]),
            &[
                shown(&args.suite_file()),
                "--movetime".into(),
                "1000".into(),
                "--quiet".into(),
                "--csv".into(),
                shown(&probcut.join("solve.csv")),
            ],
        ),
    });
    steps
}

/// The Table 4 opponents: step name stem, UCI spec without the path, path.
pub(super) fn table4_opponents(args: &ReproduceArgs) -> [(&'static str, &'static str, &Path); 2] {
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

/// What the seeds reported for the experiment a step repeats, typed in from the texts in
/// `../shared/seeds/` (and, for seed 004's story, from the Stockfish pull requests it led to).
pub(super) fn seed_figure(step: &str) -> &'static str {
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
        "scaling" => {
            "No seed measured across depth: seed 004 calls its rule \"a true scaler\" (Stockfish: \
             +1.0 Elo at STC, +2.2 at LTC, as issue 28 quotes them); Jiang & Buro judged MPC at \
             2 min + 10 s and 8 min + 20 s (Table 4)"
        }
        s if s.starts_with("table4-") => {
            "Jiang & Buro, Table 4 (64 games against Yace, 2 min + 10 s and 8 min + 20 s): \
             Crafty 42.0 % and 50.8 %, MPC-Crafty (1.0, 1.0) 57.0 % and 55.5 %"
        }
        "solve" => "none (the seeds ran no tactical suite)",
        _ => "-",
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::reproduce) fn full_args(glaurung: &Path, toga: &Path) -> ReproduceArgs {
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
    }
}
