//! The ProbCut lab commands without external engines: the regression on synthetic data, the
//! parameter file round trip (lab and engine parsers), collect's resume, and clear errors.

use std::path::PathBuf;

use augur::eval::EvalKind;
use augur::search::probcut::{Pair, Stage};
use augur_lab::kit::run_args::{OutputArgs, RunArgs};
use augur_lab::probcut::collect::{self, CollectArgs, Record};
use augur_lab::probcut::fit::{pair_points, regress, samples};
use augur_lab::probcut::params;

mod common;
use common::{scratch, Rng};

#[test]
fn fit_recovers_a_b_sigma_from_synthetic_data() {
    // v = 1.05 v' + 3 + N(0, 50), v' uniform on [-300, 300], n = 20000.
    let (a, b, sigma, n) = (1.05, 3.0, 50.0, 20_000);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let points: Vec<(f64, f64)> = (0..n)
        .map(|_| {
            let x = -300.0 + 600.0 * rng.next_f64();
            (x, a * x + b + sigma * rng.normal())
        })
        .collect();
    let f = regress(&points).unwrap();
    assert_eq!(f.n, n);
    // Standard errors: se(a) = sigma / (sqrt(n) sd(v')) = 50 / (141 * 173) = 0.0020,
    // se(b) = sigma / sqrt(n) = 0.35, se(sigma) = sigma / sqrt(2n) = 0.25. The tolerances are
    // five or more standard errors, so a correct fit fails with probability < 1e-6 -- and the
    // seed is fixed anyway.
    assert!((f.slope - a).abs() < 0.01, "a = {}", f.slope);
    assert!((f.intercept - b).abs() < 2.0, "b = {}", f.intercept);
    assert!((f.sigma - sigma).abs() < 1.5, "sigma = {}", f.sigma);
    // r = a sd(v') / sqrt(a^2 var(v') + sigma^2) = 181.9 / 188.6 = 0.9644; se(r) ~ (1-r^2)/sqrt(n).
    assert!((f.r - 0.9644).abs() < 0.005, "r = {}", f.r);
    // The 95% intervals: about 1.96 standard errors each side of the estimate (the values
    // above), and the true value within reach of them.
    let ci = f.intervals().unwrap();
    let half = |(lo, hi): (f64, f64)| (hi - lo) / 2.0;
    assert!((half(ci.slope) - 1.96 * 0.002_04).abs() < 0.000_2, "{ci:?}");
    assert!((half(ci.intercept) - 1.96 * 0.3536).abs() < 0.02, "{ci:?}");
    assert!((half(ci.sigma) - 1.96 * 0.25).abs() < 0.02, "{ci:?}");
    assert!(
        ci.slope.0 < f.slope
            && f.slope < ci.slope.1
            && ci.sigma.0 < f.sigma
            && f.sigma < ci.sigma.1
    );
    assert!(
        (f.slope - a).abs() < 2.0 * half(ci.slope)
            && (f.intercept - b).abs() < 2.0 * half(ci.intercept)
    );

    // Exact data: exact parameters, zero residual.
    let exact: Vec<(f64, f64)> = (-5..=5).map(|x| (x as f64, 2.0 * x as f64 - 1.0)).collect();
    let e = regress(&exact).unwrap();
    assert!((e.slope - 2.0).abs() < 1e-12 && (e.intercept + 1.0).abs() < 1e-12 && e.sigma < 1e-9);
    assert!(regress(&[(1.0, 1.0), (1.0, 2.0), (1.0, 3.0)]).is_none());
}

fn rec(id: usize, depth: i32, score: i32, mate: bool, stage: Stage) -> Record {
    Record {
        id,
        depth,
        score,
        mate,
        stage,
        nodes: 1,
        depths: 8,
        fen: "8/8/8/8/8/8/8/K1k5 w - -".into(),
    }
}

#[test]
fn pair_points_exclude_mates_range_and_other_stages() {
    let mid = Stage::Middlegame;
    let records = vec![
        rec(1, 4, 10, false, mid),
        rec(1, 8, 20, false, mid),
        // v' out of range: plotted, not fitted.
        rec(2, 4, 500, false, mid),
        rec(2, 8, 600, false, mid),
        // The deep search finds a mate the shallow one missed.
        rec(3, 4, 50, false, mid),
        rec(3, 8, 31990, true, mid),
        // Another stage.
        rec(4, 4, 0, false, Stage::Endgame),
        rec(4, 8, 5, false, Stage::Endgame),
        // Depth 8 missing.
        rec(5, 4, 0, false, mid),
    ];
    let s = samples(&records);
    let p = pair_points(&s, Some(mid), 4, 8, (-300, 300));
    assert_eq!(p.fit, vec![(10.0, 20.0)]);
    assert_eq!(p.all, vec![(10.0, 20.0), (500.0, 600.0)]);
    assert_eq!(p.missed_mates, 1);
    assert_eq!(p.total, 3);
    assert_eq!(pair_points(&s, None, 4, 8, (-300, 300)).fit.len(), 2);
}

fn sample_params() -> Vec<Pair> {
    vec![
        Pair {
            stage: Stage::Middlegame,
            shallow: 4,
            deep: 8,
            a: 0.887_123,
            b: -1.5149,
            sigma: 37.4449,
            r: 0.8751,
            n: 4898,
            min: -300,
            max: 300,
        },
        Pair {
            stage: Stage::Endgame,
            shallow: 3,
            deep: 5,
            a: 1.0,
            b: 2.0,
            sigma: 25.0,
            r: 0.97,
            n: 887,
            min: -250,
            max: 250,
        },
    ]
}

#[test]
fn parameter_file_parses_back_in_the_lab_and_in_the_engine() {
    let pairs = sample_params();
    let text = params::to_toml(&pairs, "test data\nsecond comment line");
    let back = params::parse(&text, "t").unwrap();
    assert_eq!(back.len(), 2);
    for (w, r) in pairs.iter().zip(&back) {
        assert_eq!(
            (w.stage, w.shallow, w.deep, w.n, w.min, w.max),
            (r.stage, r.shallow, r.deep, r.n, r.min, r.max)
        );
        // Written with 4 decimals for a, 2 for b and sigma.
        assert!(
            (w.a - r.a).abs() <= 5e-5
                && (w.b - r.b).abs() <= 5e-3
                && (w.sigma - r.sigma).abs() <= 5e-3
        );
    }
    // The engine's own reader accepts the same text and sees the same numbers.
    let engine: augur::search::probcut::ProbCutParams = text.parse().unwrap();
    assert_eq!(engine.pairs.len(), 2);
    let e = engine.find(Stage::Middlegame, 4, 8).unwrap();
    assert_eq!(
        (e.a, e.b, e.sigma, e.n, e.min),
        (back[0].a, back[0].b, back[0].sigma, 4898, -300)
    );
    let e = engine.find(Stage::Endgame, 3, 5).unwrap();
    assert_eq!((e.min, e.max), (-250, 250));
}

#[test]
fn shipped_engine_parameter_file_is_ours_and_parses() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../engine/src/search/probcut_params.toml");
    let pairs = params::load(&path).unwrap();
    for (s, d) in [(3, 5), (4, 8)] {
        for stage in [Stage::Middlegame, Stage::Endgame] {
            let p = pairs
                .iter()
                .find(|p| p.shallow == s && p.deep == d && p.stage == stage)
                .unwrap_or_else(|| panic!("({s},{d}) {stage:?} missing"));
            // Fitted from data, not the paper's placeholder (which has n = 0).
            assert!(p.n >= 100, "({s},{d}) {stage:?} n = {}", p.n);
            assert!(p.sigma > 0.0 && p.a > 0.5 && p.a < 1.5);
        }
    }
}

#[test]
fn bad_parameter_files_are_rejected_with_the_pair() {
    let e = params::parse(
        "[[pair]]\nstage = \"opening\"\nshallow = 4\ndeep = 8\na = 1\nb = 0\nsigma = 1\n",
        "p.toml",
    )
    .unwrap_err();
    assert!(format!("{e:#}").contains("p.toml: pair 1"), "{e:#}");
    let e = params::parse(
        "[[pair]]\nstage = \"endgame\"\nshallow = 8\ndeep = 4\na = 1\nb = 0\nsigma = 1\n",
        "p.toml",
    )
    .unwrap_err();
    assert!(format!("{e:#}").contains("shallow < deep"), "{e:#}");
    assert!(params::parse("[[pair]]\nstage = \"endgame\"\nbogus = 1\n", "p.toml").is_err());
}

const THREE: &str = "\
r1b2rk1/4b1pp/p1pppn2/4q3/3BP3/1RN5/P1PQB1PP/5RK1 b - - hmvc 13; fmvn 19; c0 \"TCEC\";
1k5r/p4pp1/4q1p1/3N2P1/1b5P/5P2/1P4Q1/1K1R4 b - - hmvc 0; fmvn 29;
5k2/3B1p2/4p3/2p4p/4P2P/5P2/1K4R1/5r2 w - - hmvc 3; fmvn 41;
";

fn collect_args(dir: &std::path::Path, threads: usize) -> CollectArgs {
    CollectArgs {
        epd: Some(dir.join("three.epd")),
        depth: 3,
        positions: None,
        hash: 1,
        eval: EvalKind::Hce,
        set: Vec::new(),
        run: RunArgs {
            threads: Some(threads),
            output: OutputArgs {
                out: Some(dir.join("out.csv")),
                quiet: true,
                ..OutputArgs::default()
            },
        },
    }
}

/// The column line and records, sorted (the `#` run header left out).
fn sorted_lines(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

#[test]
fn collect_resumes_without_duplicating_lines() {
    let dir = scratch("probcut", "resume");
    std::fs::write(dir.join("three.epd"), THREE).unwrap();
    let args = collect_args(&dir, 2);
    collect::run(&args).unwrap();
    let full = std::fs::read_to_string(args.run.out().unwrap()).unwrap();
    let lines = sorted_lines(&full);
    assert_eq!(lines.len(), 1 + 3 * 3, "{full}");
    assert!(full.starts_with("# augur-lab collect"), "{full}");
    assert!(full.contains(&format!("\n{}\n", collect::HEADER)), "{full}");

    // Run again on a finished file: nothing is added.
    collect::run(&args).unwrap();
    assert_eq!(
        std::fs::read_to_string(args.run.out().unwrap()).unwrap(),
        full
    );

    // A torn last line (the process killed mid-write), then resume: same lines, no duplicates,
    // identical values (fresh searcher per position, and one thread this time).
    let cut = full.len() - 7;
    std::fs::write(args.run.out().unwrap(), &full[..cut]).unwrap();
    collect::run(&collect_args(&dir, 1)).unwrap();
    assert_eq!(
        sorted_lines(&std::fs::read_to_string(args.run.out().unwrap()).unwrap()),
        lines
    );

    // A block cut at a line boundary (two of three depths left): the partial block is redone.
    let keep: Vec<&str> = full.lines().collect();
    std::fs::write(
        args.run.out().unwrap(),
        keep[..keep.len() - 1].join("\n") + "\n",
    )
    .unwrap();
    collect::run(&args).unwrap();
    assert_eq!(
        sorted_lines(&std::fs::read_to_string(args.run.out().unwrap()).unwrap()),
        lines
    );

    // Every line parses back.
    let records = collect::read_csv(args.run.out().unwrap()).unwrap();
    assert_eq!(records.len(), 9);
    assert!(records.iter().all(|r| r.depths == 3 && !r.fen.is_empty()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn collect_searches_with_the_chosen_evaluation_and_keeps_files_apart() {
    let dir = scratch("probcut", "eval");
    std::fs::write(dir.join("three.epd"), THREE).unwrap();
    let default = collect_args(&dir, 1);
    collect::run(&default).unwrap();
    let mut classic = CollectArgs {
        eval: EvalKind::Classic,
        ..collect_args(&dir, 1)
    };
    classic.run.output.out = Some(dir.join("classic.csv"));
    collect::run(&classic).unwrap();
    let text = std::fs::read_to_string(classic.run.out().unwrap()).unwrap();
    assert!(text.contains("eval = \"classic\""), "{text}");
    let scores = |p: &std::path::Path| -> Vec<i32> {
        collect::read_csv(p)
            .unwrap()
            .iter()
            .map(|r| r.score)
            .collect()
    };
    // The thesis's table and Augur's evaluation disagree on these positions.
    assert_ne!(
        scores(default.run.out().unwrap()),
        scores(classic.run.out().unwrap())
    );

    // Resuming a classic file with another evaluation is refused, not mixed.
    let mixed = CollectArgs {
        eval: EvalKind::Hce,
        ..classic.clone()
    };
    let err = format!("{:#}", collect::run(&mixed).unwrap_err());
    assert!(err.contains("eval"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// [kingsafety] `--set` reaches the searches (the hand-written evaluation with its king
/// safety scaled scores these positions otherwise), is a setting of the file (a resume with
/// another value is refused), and a bad option is refused before any file is written.
#[test]
fn collect_searches_with_the_engine_options_given() {
    let dir = scratch("probcut", "set");
    std::fs::write(dir.join("three.epd"), THREE).unwrap();
    let plain = collect_args(&dir, 1);
    collect::run(&plain).unwrap();
    let mut scaled = collect_args(&dir, 1);
    scaled.set = vec!["KingSafety=200".into()];
    scaled.run.output.out = Some(dir.join("scaled.csv"));
    collect::run(&scaled).unwrap();
    let text = std::fs::read_to_string(scaled.run.out().unwrap()).unwrap();
    assert!(text.contains("KingSafety=200"), "{text}");
    let scores = |p: &std::path::Path| -> Vec<i32> {
        collect::read_csv(p)
            .unwrap()
            .iter()
            .map(|r| r.score)
            .collect()
    };
    assert_ne!(
        scores(plain.run.out().unwrap()),
        scores(scaled.run.out().unwrap())
    );
    let mut other = scaled.clone();
    other.set = vec!["KingSafety=50".into()];
    let err = format!("{:#}", collect::run(&other).unwrap_err());
    assert!(err.contains("options"), "{err}");
    for (bad, why) in [
        ("KingSafety=300", "KingSafety"),
        ("NoSuchOption=1", "NoSuchOption"),
        ("Eval=classic", "--eval"),
        ("Hash=4", "not a search option"),
        ("KingSafety", "Opt=Val"),
    ] {
        let mut args = collect_args(&dir, 1);
        args.set = vec![bad.into()];
        args.run.output.out = Some(dir.join("never.csv"));
        let err = format!("{:#}", collect::run(&args).unwrap_err());
        assert!(err.contains(why), "{bad}: {err}");
        assert!(!dir.join("never.csv").exists(), "{bad}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_epd_and_csv_lines_are_named() {
    let dir = scratch("probcut", "bad");
    let epd = dir.join("bad.epd");
    std::fs::write(
        &epd,
        format!(
            "{}\nrnbqkbnr/pppppppp/8 w KQkq -\n",
            THREE.lines().next().unwrap()
        ),
    )
    .unwrap();
    let mut args = collect_args(&dir, 1);
    args.epd = Some(epd.clone());
    let e = format!("{:#}", collect::run(&args).unwrap_err());
    assert!(e.contains(&format!("{}:2", epd.display())), "{e}");
    assert!(e.contains("bad EPD line"), "{e}");

    let csv = dir.join("bad.csv");
    std::fs::write(
        &csv,
        format!(
            "{}\n1,1,10,0,middlegame,5,2,8/8/8/8/8/8/8/K1k5 w - -\n1,2,x,0,middlegame,9,2,8/8/8/8/8/8/8/K1k5 w - -\n",
            collect::HEADER
        ),
    )
    .unwrap();
    let e = format!("{:#}", collect::read_csv(&csv).unwrap_err());
    assert!(e.contains(&format!("{}:3", csv.display())), "{e}");
    assert!(e.contains("score"), "{e}");
    // Resuming onto such a file refuses rather than silently dropping data: a file without
    // the run header, or a malformed record before the last block.
    let mut args = collect_args(&dir, 1);
    std::fs::write(dir.join("three.epd"), THREE).unwrap();
    args.run.output.out = Some(csv.clone());
    let e = format!("{:#}", collect::run(&args).unwrap_err());
    assert!(e.contains("not an augur-lab collect result file"), "{e}");
    args.run.output.out = Some(dir.join("good.csv"));
    collect::run(&args).unwrap();
    let text = std::fs::read_to_string(args.run.out().unwrap()).unwrap();
    let first = text.lines().find(|l| l.starts_with("1,1,")).unwrap();
    let broken = first.replacen("1,1,", "1,1,x", 1);
    std::fs::write(args.run.out().unwrap(), text.replacen(first, &broken, 1)).unwrap();
    let e = format!("{:#}", collect::run(&args).unwrap_err());
    assert!(e.contains("record 1: bad CSV line"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
