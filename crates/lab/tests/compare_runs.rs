//! `augur-lab compare` end to end on a few positions at a shallow depth: the thesis's pruning
//! formula, clear errors for bad input, agreement of SPP with alpha-beta, and the files.

use augur_lab::data::bundled::SPP_THESIS_16;
use augur_lab::kit::run_args::{OutputArgs, RunArgs};
use augur_lab::spp::compare::{self, analysis, parse_algorithms, suite, CompareArgs};
use std::path::PathBuf;

fn args(suite: Option<PathBuf>, out: Option<PathBuf>) -> CompareArgs {
    CompareArgs {
        suite,
        limit: None,
        depths: "3".into(),
        algorithms: "alphabeta,spp".into(),
        eval: "classic".into(),
        mpd: 70,
        mpd_rule: "fixed".into(),
        switch_off_below: 10.0,
        switch_window: 256,
        qsearch: false,
        tt_mib: 4,
        strict: true,
        brief: true,
        engine_options: Vec::new(),
        run: RunArgs {
            threads: Some(2),
            output: OutputArgs {
                out,
                quiet: true,
                ..OutputArgs::default()
            },
        },
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("augur-compare-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn pruning_formula_is_the_thesis_one() {
    // 100 - 100 * NBP(A1) / NBP(A2)
    assert_eq!(analysis::extra_pruning(30, 120), Some(75.0));
    assert_eq!(analysis::extra_pruning(120, 120), Some(0.0));
    assert_eq!(analysis::extra_pruning(180, 120), Some(-50.0));
    assert_eq!(analysis::extra_pruning(1, 0), None);
}

#[test]
fn bad_epd_line_is_named() {
    let dir = temp_dir("bad-epd");
    let file = dir.join("bad.epd");
    std::fs::write(
        &file,
        "8/8/8/8/8/4k3/4P3/4K3 w - - id \"fine\";\n\n8/8/8/9/8/8/8/8 w - - id \"broken\";\n",
    )
    .unwrap();
    let e = compare::Plan::from_args(&args(Some(file), None))
        .unwrap_err()
        .to_string();
    assert!(e.contains("bad.epd:3"), "error should name the line: {e}");
    assert!(
        e.contains("8/8/8/9/8/8/8/8"),
        "error should show the FEN: {e}"
    );
}

#[test]
fn unknown_algorithm_is_named() {
    let e = parse_algorithms("alphabeta,spp,alfabeta")
        .unwrap_err()
        .to_string();
    assert!(e.contains("'alfabeta'"), "{e}");
    assert!(e.contains("alphabeta"), "the known names are listed: {e}");
    let mut a = args(None, None);
    a.algorithms = "nosuch".into();
    assert!(compare::Plan::from_args(&a).is_err());
}

#[test]
fn spp_agrees_with_alphabeta_and_writes_results() {
    let dir = temp_dir("run");
    let file = dir.join("three.epd");
    // Three positions of the bundled thesis set: a middlegame, bishops and pawns, KPK.
    let set = suite::parse_epd(SPP_THESIS_16, "bundled").unwrap();
    let text: String = [2usize, 13, 14]
        .iter()
        .map(|&i| format!("{} id \"{}\";\n", set[i].fen, set[i].id))
        .collect();
    std::fs::write(&file, text).unwrap();
    let out = dir.join("out");
    let a = args(Some(file), Some(out.clone()));
    let plan = compare::Plan::from_args(&a).unwrap();
    let rows = compare::run_jobs(&plan, false).unwrap();
    assert_eq!(rows.len(), 6);
    assert!(analysis::mismatches(&rows, &plan.algorithms).is_empty());
    for pair in rows.chunks(2) {
        assert_eq!(pair[0].algorithm.name(), "alphabeta");
        assert_eq!(pair[1].algorithm.name(), "spp");
        assert!(pair[1].leaves <= pair[0].leaves);
    }
    // The whole subcommand, --strict included, succeeds and writes its files.
    compare::run(&a).unwrap();
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(csv.starts_with("# augur-lab compare"), "{csv}");
    let mut lines = csv.lines().filter(|l| !l.starts_with('#'));
    assert_eq!(lines.next(), Some(compare::COLUMNS));
    let body: Vec<&str> = lines.collect();
    assert_eq!(body.len(), 6);
    for l in &body {
        assert_eq!(l.split(',').count(), 12, "{l}");
    }
    assert!(
        body[0].starts_with(&format!("1,{},3,alphabeta,", set[2].id)),
        "{}",
        body[0]
    );
    // The rows read back as they were measured (the file is what a restart resumes from).
    for (line, row) in body.iter().zip(&rows) {
        let back: compare::Row = augur_lab::kit::result_log::from_line(line).unwrap();
        back.check(&plan).unwrap();
        assert_eq!(
            (back.position, back.depth, back.algorithm),
            (row.position, row.depth, row.algorithm)
        );
        assert_eq!(
            (back.leaves, back.nodes, back.score),
            (row.leaves, row.nodes, row.score)
        );
    }
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains("All 3 move-score pairs identical"),
        "{summary}"
    );
    // Provenance: at the head of the report and beside the files.
    assert!(summary.contains("Provenance: commit `"), "{summary}");
    let prov = std::fs::read_to_string(out.join("provenance.toml")).unwrap();
    let prov: toml::Table = prov.parse().unwrap();
    assert!(prov["options"].as_str().unwrap().contains("depths: \"3\""));
    assert!(prov.contains_key("commit") && prov.contains_key("date"));
    for stem in ["nbp_depth3", "pruning_spp_over_alphabeta_odd"] {
        let svg = std::fs::read_to_string(out.join(format!("{stem}.svg"))).unwrap();
        assert!(roxmltree::Document::parse(&svg).is_ok(), "{stem}.svg");
        let png = std::fs::read(out.join(format!("{stem}.png"))).unwrap();
        assert_eq!(&png[..4], b"\x89PNG", "{stem}.png");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn counts_are_deterministic_across_thread_counts() {
    let set = suite::parse_epd(SPP_THESIS_16, "bundled").unwrap();
    let mut a = args(None, None);
    a.limit = Some(3);
    a.algorithms = "abt,sppt".into();
    let mut plan = compare::Plan::from_args(&a).unwrap();
    assert_eq!(plan.positions[0].id, set[0].id);
    let key = |rows: &[compare::Row]| {
        rows.iter()
            .map(|r| {
                (
                    r.position,
                    r.algorithm.name(),
                    r.mv.clone(),
                    r.score,
                    r.leaves,
                    r.nodes,
                )
            })
            .collect::<Vec<_>>()
    };
    plan.threads = 1;
    let one = compare::run_jobs(&plan, false).unwrap();
    plan.threads = 2;
    let two = compare::run_jobs(&plan, false).unwrap();
    assert_eq!(key(&one), key(&two));
}

#[test]
fn strict_fails_on_a_difference() {
    // An absurd MPD makes SPP unsound, so some move-score pair must differ at depth 2.
    let mut a = args(None, None);
    a.depths = "2".into();
    a.mpd = -300;
    let plan = compare::Plan::from_args(&a).unwrap();
    let rows = compare::run_jobs(&plan, false).unwrap();
    assert!(!analysis::mismatches(&rows, &plan.algorithms).is_empty());
    let e = compare::run(&a).unwrap_err().to_string();
    assert!(e.contains("--strict"), "{e}");
    a.strict = false;
    assert!(compare::run(&a).is_ok());
}
