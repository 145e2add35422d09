//! The thesis's own measurement: the quiet siblings met in an alpha-beta search (every depth-1
//! node's, logged by the textbook search), where draw rules score some of them.

use std::fmt::Write as _;

use anyhow::{anyhow, Result};
use augur::eval::EvalKind;
use augur::position::Position;
use augur::search::textbook::{self, Algorithm, SiblingLog, TextbookConfig};

use super::distribution::distribution;

/// Alpha-beta (fixed depth, classic eval) over `set`, logging every depth-1 node's quiet
/// siblings; one log per position, in order.
pub fn search_siblings(
    set: &[(Position, Option<u32>)],
    depth: i32,
    threads: usize,
) -> Result<Vec<Vec<SiblingLog>>> {
    let cfg = TextbookConfig {
        eval: EvalKind::Classic,
        log_siblings: true,
        ..TextbookConfig::default()
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<Vec<SiblingLog>> = vec![Vec::new(); set.len()];
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.min(set.len()).max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((pos, _)) = set.get(i) else { break };
                let r = if pos.has_legal_move() {
                    textbook::run(pos, Algorithm::AlphaBeta, depth, &cfg)
                } else {
                    Ok(Default::default())
                };
                results.lock().expect("no panics").push((i, r));
            });
        }
    });
    for (i, r) in results.into_inner().expect("no panics") {
        out[i] = r.map_err(|e| anyhow!(e))?.siblings;
    }
    Ok(out)
}

/// The report on the siblings met in the search: spreads as the search scored them and as the
/// evaluation alone would, and how many exceed the MPD because a rule scored a sibling.
pub fn siblings_section(
    md: &mut String,
    logs: &[Vec<SiblingLog>],
    name: &str,
    depth: i32,
    mpd: i32,
) {
    let all: Vec<&SiblingLog> = logs.iter().flatten().collect();
    let _ = writeln!(
        md,
        "## Siblings met in the search (the thesis's measurement)\n\n\
         Alpha-beta to depth {depth} (classic eval, fail-hard, no quiescence) over {} positions \
         of {name}: every depth-1 node with two or more quiet siblings searched ({} nodes). \
         \"search\" is the spread of the values the search gave them (draws by rule score 0); \
         \"eval\" leaves out the siblings a rule scored.\n",
        logs.len(),
        all.len()
    );
    let _ = writeln!(
        md,
        "| spread | nodes | max | 99.9% | 99% | median | > {mpd} |"
    );
    let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|---:|");
    let search: Vec<i32> = all.iter().map(|l| l.spread).collect();
    let evals: Vec<i32> = all.iter().filter_map(|l| l.eval_spread).collect();
    for (label, v) in [("search", &search), ("eval", &evals)] {
        if let Some(d) = distribution(v, mpd) {
            let _ = writeln!(
                md,
                "| {label} | {} | {} | {} | {} | {} | {} ({:.3}%) |",
                d.n,
                d.max,
                d.p999,
                d.p99,
                d.median,
                d.over,
                100.0 * d.over as f64 / d.n.max(1) as f64
            );
        }
    }
    let over: Vec<&&SiblingLog> = all.iter().filter(|l| l.spread > mpd).collect();
    let by_rule = over.iter().filter(|l| l.rule_scored > 0).count();
    let positions_over = logs
        .iter()
        .filter(|l| l.iter().any(|x| x.spread > mpd))
        .count();
    let positions_rule = logs
        .iter()
        .filter(|l| l.iter().any(|x| x.spread > mpd && x.rule_scored > 0))
        .count();
    let _ = writeln!(
        md,
        "\nDepth-1 nodes whose search spread exceeds {mpd}: {} ({by_rule} with a sibling scored \
         by a draw rule); positions with such a node: {positions_over} of {} ({positions_rule} \
         through a rule-scored sibling).\n",
        over.len(),
        logs.len()
    );
    if let Some(x) = over
        .iter()
        .filter(|l| l.rule_scored > 0)
        .max_by_key(|l| l.spread)
    {
        let (rm, rv) = x.rule_move.clone().unwrap_or_default();
        let _ = writeln!(
            md,
            "Widest such node: `{}`, {} quiet siblings searched, spread {} (evaluations alone: \
             {}): best {} {}, worst {} {}; {rm} is scored {rv} by a draw rule.\n",
            x.fen,
            x.count,
            x.spread,
            x.eval_spread.map_or("-".into(), |v| v.to_string()),
            x.best.0,
            x.best.1,
            x.worst.0,
            x.worst.1
        );
    }
}
