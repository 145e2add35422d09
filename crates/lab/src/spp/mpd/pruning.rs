//! How much each prunes: alpha-beta, spp with the fixed MPD and spp-exact with its per-node
//! bound, searched by `compare`'s machinery over the first positions of the sample. With
//! `--out` the searches are a result file (`pruning.csv`) that a restart resumes.

use std::fmt::Write as _;

use anyhow::Result;
use augur::eval::EvalKind;
use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::textbook::TextbookConfig;

use super::MpdArgs;
use crate::kit::provenance::{in_process_engine, sha256_hex, Provenance};
use crate::kit::result_log::Header;
use crate::spp::compare::{self, analysis, suite};

/// The sampled positions (`epd_name`, whose text is `epd_text`) whose first
/// `--prune-positions` are searched.
pub struct Sampled<'a> {
    pub positions: &'a [(Position, Option<u32>)],
    pub epd_name: &'a str,
    pub epd_text: &'a str,
}

/// Searches the positions and writes the section of the report.
pub fn section(
    args: &MpdArgs,
    sampled: &Sampled,
    threads: usize,
    provenance: &Provenance,
    md: &mut String,
) -> Result<()> {
    let Sampled {
        positions,
        epd_name,
        epd_text,
    } = *sampled;
    let n = args.prune_positions.min(positions.len());
    let suite_positions: Vec<suite::SuitePosition> = positions[..n]
        .iter()
        .enumerate()
        .filter(|(_, (p, _))| p.has_legal_move())
        .map(|(i, (p, _))| suite::SuitePosition {
            id: format!("s{}", i + 1),
            fen: p.fen(),
            pos: p.clone(),
            line: i + 1,
        })
        .collect();
    let algorithms = vec![analysis::AB, analysis::SPP, analysis::SPP_EXACT];
    let plan = compare::Plan {
        positions: suite_positions,
        depths: vec![args.prune_depth],
        algorithms: algorithms.clone(),
        config: TextbookConfig {
            eval: EvalKind::Classic,
            mpd: args.mpd,
            ..TextbookConfig::default()
        },
        engine: SearchConfig::default(),
        threads,
        suite_name: format!("first {n} of {epd_name}"),
    };
    let rows = match &args.run.output.out {
        Some(dir) => {
            let header = Header {
                kind: "mpd pruning".into(),
                settings: vec![
                    ("epd".into(), epd_name.to_string()),
                    ("epd_sha256".into(), sha256_hex(epd_text.as_bytes())),
                    ("limit".into(), format!("{:?}", args.limit)),
                    ("positions".into(), plan.positions.len().to_string()),
                    ("depth".into(), args.prune_depth.to_string()),
                    ("mpd".into(), args.mpd.to_string()),
                    ("engine".into(), in_process_engine()),
                ],
                provenance: provenance.clone(),
                columns: compare::COLUMNS.into(),
            };
            compare::run_into(
                &plan,
                &header,
                &dir.join("pruning.csv"),
                args.run.output.quiet,
            )?
        }
        None => compare::run_jobs(&plan, !args.run.output.quiet)?,
    };
    let idx = analysis::leaf_index(&rows);
    let bad = analysis::mismatches(&rows, &algorithms);
    let _ = writeln!(
        md,
        "## Pruning: spp (fixed MPD {}) and spp-exact (per-node bound) against alpha-beta\n\n\
             {} positions of {epd_name}, depth {}, classic eval, no quiescence.\n",
        args.mpd,
        plan.positions.len(),
        args.prune_depth
    );
    let _ = writeln!(
            md,
            "| A1/A2 | pooled % | mean % ± 95% CI (paired) | median % | min % | max % | A1>A2 | move-score differs from AB |"
        );
    let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|---:|---:|");
    for (a1, a2) in [
        (analysis::SPP, analysis::AB),
        (analysis::SPP_EXACT, analysis::AB),
        (analysis::SPP_EXACT, analysis::SPP),
    ] {
        if let Some(sm) =
            analysis::summarize(&idx, plan.positions.len(), &[args.prune_depth], a1, a2)
        {
            let differs = if a2 == analysis::AB {
                bad.iter().filter(|m| m.algorithm == a1).count().to_string()
            } else {
                String::new()
            };
            let _ = writeln!(
                md,
                "| {} | {:.1} | {} | {:.1} | {:.1} | {:.1} | {} | {differs} |",
                analysis::pair_name(a1, a2),
                sm.pooled,
                sm.mean_ci
                    .map_or_else(|| format!("{:.1}", sm.mean), |ci| ci.text(1)),
                sm.median,
                sm.min,
                sm.max,
                sm.worse
            );
        }
    }
    let _ = writeln!(md);
    for m in &bad {
        let _ = writeln!(
            md,
            "- **{} differs** at `{}`: {} {} vs alphabeta {} {}",
            m.algorithm,
            plan.positions[m.position].fen,
            m.got.0,
            m.got.1,
            m.expected.0,
            m.expected.1
        );
    }
    if !bad.is_empty() {
        let _ = writeln!(md);
    }
    Ok(())
}
