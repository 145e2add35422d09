//! `augur-lab margins`: the collection on a few positions (records, resume, refusals), and
//! the fit on synthetic data (σ found back, the margin at a known threshold, the engine's
//! forms with their bounds).

use std::path::Path;

use augur::eval::EvalKind;
use augur::search::margins::MarginRule;
use augur::search::probcut::Stage;
use augur_lab::kit::regression::LinearFit;
use augur_lab::kit::run_args::{OutputArgs, RunArgs};
use augur_lab::margins::collect::{self, CollectArgs, Record};
use augur_lab::margins::fit::{self, engine_form, fit_cells, margin, past_and_failed, Cell};

mod common;
use common::{scratch, Rng};

fn collect_args(out: &Path, positions: usize, samples: usize) -> CollectArgs {
    CollectArgs {
        epd: None,
        positions: Some(positions),
        depth: 6,
        samples,
        window: 600,
        hash: 2,
        eval: EvalKind::Nnue,
        run: RunArgs {
            threads: Some(2),
            output: OutputArgs {
                out: Some(out.to_path_buf()),
                quiet: true,
                ..OutputArgs::default()
            },
        },
    }
}

/// The records of a CSV, without its `#` header.
fn records_text(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Three positions searched to depth 6: every rule is sampled, at most `--samples` nodes per
/// rule and depth and position, each record whole (its block's count, the estimate as the
/// shallow value where the rule's estimate is a static eval, a move where the rule has one,
/// scores that are scores).
#[test]
fn collect_writes_a_block_of_samples_per_position() {
    let dir = scratch("margins", "collect");
    let out = dir.join("m.csv");
    collect::run(&collect_args(&out, 3, 2)).unwrap();
    let records = collect::read_csv(&out).unwrap();
    assert!(!records.is_empty());
    for rule in MarginRule::ALL {
        assert!(
            records.iter().any(|r| r.rule == rule),
            "{rule:?}: no sample"
        );
    }
    let mut per_cell = std::collections::BTreeMap::new();
    for r in &records {
        *per_cell.entry((r.id, r.rule, r.depth)).or_insert(0) += 1;
        let block = records.iter().filter(|o| o.id == r.id).count();
        assert_eq!(r.count, block, "{r:?}");
        // Extensions take nodes beyond the root's depth; the rules' own limits hold.
        let cfg = augur::search::config::SearchConfig::default();
        let deepest = match r.rule {
            MarginRule::Rfp => cfg.rfp.max_depth,
            MarginRule::Futility => cfg.futility.max_depth,
            MarginRule::Sfpc => augur::search::MAX_DEPTH,
        };
        assert!(r.depth >= 1 && r.depth <= deepest, "{r:?}");
        assert!(r.deep.abs() < augur::search::MATE + 1, "{r:?}");
        match r.rule {
            MarginRule::Rfp => assert!(r.mv == "-" && r.shallow == r.estimate),
            MarginRule::Futility => assert!(r.mv != "-" && r.shallow == r.estimate),
            MarginRule::Sfpc => assert!(r.mv != "-" && r.reduced < r.depth),
        }
        if r.rule != MarginRule::Sfpc {
            assert!((r.estimate - r.bound).abs() <= 600, "{r:?}");
        }
    }
    assert!(per_cell.values().all(|&n| n <= 2), "{per_cell:?}");
}

/// Resumed after its last block was cut mid-line, the collection ends with the records of an
/// uninterrupted run; a finished file is left as it is; a larger `--positions` extends it and
/// keeps its lines; other settings are refused.
#[test]
fn collect_resumes_and_refuses_other_settings() {
    let dir = scratch("margins", "resume");
    let out = dir.join("m.csv");
    let args = collect_args(&out, 3, 1);
    collect::run(&args).unwrap();
    let full = std::fs::read_to_string(&out).unwrap();
    let records = records_text(&out);
    collect::run(&args).unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), full);

    // Cut into the last block: its records are searched again, the same values come back.
    let cut = full.len() - full.lines().last().unwrap().len() / 2 - 1;
    std::fs::write(&out, &full[..cut]).unwrap();
    collect::run(&args).unwrap();
    assert_eq!(records_text(&out), records);

    let more = collect_args(&out, 4, 1);
    collect::run(&more).unwrap();
    let extended = records_text(&out);
    assert!(extended.len() > records.len());
    assert!(
        extended.starts_with(&records),
        "the first positions' lines are kept"
    );

    let other = collect_args(&out, 4, 2);
    let e = collect::run(&other).unwrap_err();
    assert!(format!("{e:#}").contains("samples"), "{e:#}");
}

/// Synthetic records of `rule` at `depth`: x = shallow − bound uniform on [−400, 400],
/// y = deep − bound = a·x + b + N(0, σ).
fn synthetic(rule: MarginRule, depth: i32, a: f64, b: f64, sigma: f64, n: usize) -> Vec<Record> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ depth as u64);
    (0..n)
        .map(|i| {
            let bound = 50 - (i % 100) as i32;
            let x = -400.0 + 800.0 * rng.next_f64();
            let y = a * x + b + sigma * rng.normal();
            Record {
                id: i + 1,
                count: 1,
                rule,
                depth,
                improving: i % 2 == 0,
                bound,
                estimate: bound + x.round() as i32,
                shallow: bound + x.round() as i32,
                deep: bound + y.round() as i32,
                reduced: 0,
                stage: Stage::Middlegame,
                mv: if rule == MarginRule::Rfp { "-" } else { "e2e4" }.into(),
                fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
            }
        })
        .collect()
}

/// The fit finds σ back from 20,000 synthetic points, its interval covers it, and the margin
/// at T = 1.5 is (T·σ − b) / a for reverse futility (b + T·σ) / a for futility; the points
/// past the fitted margin fail about as often as the normal model says (at most 1 − Φ(1.5) =
/// 6.7%, less since most lie further out).
#[test]
fn fit_recovers_sigma_and_the_margin_at_a_known_threshold() {
    let (a, b, sigma, t) = (0.95, -20.0, 80.0, 1.5);
    for rule in [MarginRule::Rfp, MarginRule::Futility] {
        let records = synthetic(rule, 4, a, b, sigma, 20_000);
        let cells = fit_cells(&records, (-400, 400), t);
        let all = cells
            .iter()
            .find(|c| c.depth == 4 && c.improving.is_none())
            .unwrap();
        let f = all.fit.unwrap();
        // se(σ) = σ / sqrt(2n) = 0.4; se(a) = σ / (sqrt(n) · 231) = 0.0025; se(b) = 0.57.
        assert!((f.sigma - sigma).abs() < 2.0, "{rule:?} sigma {}", f.sigma);
        assert!((f.slope - a).abs() < 0.0125 && (f.intercept - b).abs() < 3.0);
        let (lo, hi) = all.sigma_ci.unwrap();
        assert!(lo < sigma && sigma < hi, "{lo} {hi}");
        let want = match rule {
            MarginRule::Futility => (b + t * sigma) / a,
            _ => (t * sigma - b) / a,
        };
        let (m, m_lo, m_hi) = all.margin.unwrap();
        assert!((m - want).abs() < 4.0, "{rule:?}: {m} against {want}");
        assert!(m_lo < m && m < m_hi);
        assert!(all.past > 1000 && all.failed > 0, "{all:?}");
        let share = all.failed as f64 / all.past as f64;
        assert!(share < 0.067, "{rule:?}: {share}");
    }
    // The formula itself, and no margin where the estimate does not predict the truth.
    assert_eq!(margin(MarginRule::Sfpc, 2.0, 10.0, 50.0, 1.0), Some(20.0));
    assert_eq!(
        margin(MarginRule::Futility, 2.0, 10.0, 50.0, 1.0),
        Some(30.0)
    );
    assert_eq!(margin(MarginRule::Rfp, 0.0, 10.0, 50.0, 1.0), None);
    let pts = [(100.0, -1.0), (100.0, 5.0), (10.0, -3.0), (-100.0, 2.0)];
    assert_eq!(past_and_failed(MarginRule::Rfp, &pts, 50.0), (2, 1));
    assert_eq!(past_and_failed(MarginRule::Futility, &pts, 50.0), (1, 1));
}

/// A cell with a given margin and sample size, as `fit_cells` makes them.
fn cell(rule: MarginRule, depth: i32, improving: Option<bool>, m: f64, n: usize) -> Cell {
    Cell {
        rule,
        depth,
        improving,
        fit: Some(LinearFit {
            slope: 1.0,
            intercept: 0.0,
            r: 0.9,
            sigma: 50.0,
            n,
            se_slope: 0.0,
            se_intercept: 0.0,
        }),
        sigma_ci: Some((45.0, 55.0)),
        margin: Some((m, m - 5.0, m + 5.0)),
        today: 0.0,
        past: 0,
        failed: 0,
    }
}

/// The engine's forms: per-depth margins on an exact line in depth − improving give back
/// RfpBase and RfpMargin; a Stockfish-style ProbCut margin that grows when improving (an
/// SfpcImproving below its range) holds it at 0 and fits the others around it; cells of one
/// depth cannot decide a slope, which keeps today's value; small cells are left out.
#[test]
fn engine_forms_fit_the_per_depth_margins_within_the_option_ranges() {
    let mut cells = Vec::new();
    for d in 1..=7 {
        for imp in [false, true] {
            let m = 30.0 + 60.0 * (d - imp as i32) as f64;
            cells.push(cell(MarginRule::Rfp, d, Some(imp), m, 100 + d as usize));
        }
    }
    cells.push(cell(MarginRule::Rfp, 8, Some(false), 5000.0, 5));
    let form = engine_form(MarginRule::Rfp, &cells, 30).unwrap();
    assert_eq!(
        form.options,
        vec![("RfpMargin", 60, 75), ("RfpBase", 30, 0)],
        "{form:?}"
    );

    let mut cells = Vec::new();
    for d in 3..=9 {
        for imp in [false, true] {
            let m = 150.0 + 10.0 * d as f64 + 20.0 * imp as u8 as f64;
            cells.push(cell(MarginRule::Sfpc, d, Some(imp), m, 100));
        }
    }
    let form = engine_form(MarginRule::Sfpc, &cells, 30).unwrap();
    let value = |name: &str| form.options.iter().find(|o| o.0 == name).unwrap().1;
    assert_eq!(value("SfpcImproving"), 0, "{form:?}");
    assert_eq!(value("SfpcDepthMargin"), 10, "{form:?}");
    // Held at 0, the constant takes the improving nodes' half of the 20: 150 + 10.
    assert_eq!(value("SfpcMargin"), 160, "{form:?}");

    let one_depth: Vec<Cell> = [false, true]
        .into_iter()
        .map(|imp| {
            cell(
                MarginRule::Sfpc,
                6,
                Some(imp),
                200.0 - 40.0 * imp as u8 as f64,
                100,
            )
        })
        .collect();
    let form = engine_form(MarginRule::Sfpc, &one_depth, 30).unwrap();
    assert_eq!(form.raw[2], None, "no slope from one depth: {form:?}");
    assert_eq!(
        form.options,
        vec![
            ("SfpcMargin", 200, 215),
            ("SfpcImproving", 40, 60),
            ("SfpcDepthMargin", 0, 0)
        ]
    );
    assert!(engine_form(MarginRule::Futility, &one_depth, 30).is_none());
}

/// The engines file the fit writes reads back as the match's two engines, the fitted one
/// with its options.
#[test]
fn the_engines_file_is_the_matchs() {
    let dir = scratch("margins", "engines");
    let text = fit::engines_toml(
        "target/release/augur",
        &[("RfpMargin", 60), ("RfpBase", 30)],
    )
    .unwrap();
    let path = dir.join("engines.toml");
    std::fs::write(&path, text).unwrap();
    let specs = augur_arena::engine::spec::load_engines_file(&path).unwrap();
    let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["fitted", "today"]);
    let opt = |i: usize, k: &str| specs[i].option(k).map(str::to_string);
    assert_eq!(opt(0, "RfpBase").as_deref(), Some("30"));
    assert_eq!(opt(1, "RfpBase"), None);
    assert_eq!(opt(1, "Threads").as_deref(), Some("1"));
}
