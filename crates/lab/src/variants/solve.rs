//! `augur-lab solve`: the tactical cost of forward pruning. Each variant searches every
//! test-suite position for a fixed time; a position is solved when the final best move is one
//! of the `bm` moves (and none of the `am` moves). SAN is read with shakmaty, independently of
//! the engine's move code.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess};

use super::uci::{run_grid_to, Budget, Measurement, VariantRunArgs};
use super::Variant;
use crate::data::epd::{parse_epd, EpdLine};
use crate::kit::confidence::{paired_interval, wilson, Interval};
use crate::kit::provenance::{sha256_hex, Provenance};
use crate::kit::summary::SummaryArgs;

#[derive(Args, Debug, Clone)]
pub struct SolveArgs {
    /// Test suite (EPD with `bm`/`am` in SAN).
    #[arg(long, default_value = "../shared/data/suites/wac.epd")]
    pub suite: PathBuf,
    /// Use only the first N positions.
    #[arg(long)]
    pub positions: Option<usize>,
    #[command(flatten)]
    pub run: VariantRunArgs,
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub summary: SummaryArgs,
}

/// A suite position with its best/avoid moves in UCI notation.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub id: String,
    pub line: usize,
    pub fen: String,
    pub best: Vec<String>,
    pub avoid: Vec<String>,
}

impl Problem {
    pub fn solved_by(&self, uci: &str) -> bool {
        (self.best.is_empty() || self.best.iter().any(|m| m == uci))
            && !self.avoid.iter().any(|m| m == uci)
    }
}

fn san_list_to_uci(pos: &Chess, list: &str) -> Result<Vec<String>> {
    list.split_whitespace()
        .map(|san| {
            let parsed = SanPlus::from_ascii(san.as_bytes())
                .map_err(|e| anyhow::anyhow!("'{san}' is not SAN: {e}"))?;
            let m = parsed
                .san
                .to_move(pos)
                .map_err(|e| anyhow::anyhow!("'{san}' is not a legal move here: {e}"))?;
            Ok(m.to_uci(CastlingMode::Standard).to_string())
        })
        .collect()
}

pub fn problem(epd: &EpdLine) -> Result<Problem> {
    let pos: Chess = Fen::from_ascii(epd.fen.as_bytes())
        .map_err(|e| anyhow::anyhow!("bad FEN: {e}"))?
        .into_position(CastlingMode::Standard)
        .map_err(|e| anyhow::anyhow!("illegal position: {e}"))?;
    let best = san_list_to_uci(&pos, epd.op("bm").unwrap_or(""))?;
    let avoid = san_list_to_uci(&pos, epd.op("am").unwrap_or(""))?;
    if best.is_empty() && avoid.is_empty() {
        bail!("neither bm nor am");
    }
    Ok(Problem {
        id: epd
            .op("id")
            .map_or_else(|| format!("line {}", epd.line), str::to_string),
        line: epd.line,
        fen: epd.fen.clone(),
        best,
        avoid,
    })
}

/// Reads a suite; the error names the line of a bad position or move.
pub fn parse_suite(text: &str, name: &str) -> Result<Vec<Problem>> {
    parse_epd(text, name)?
        .iter()
        .map(|e| problem(e).with_context(|| format!("{name}:{}: bad test position", e.line)))
        .collect()
}

/// The headline figures of a solve run (its `--summary`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// The budget of every search (`50000 nodes`, `1000 ms`).
    pub budget: String,
    pub variants: Vec<VariantFigures>,
}

/// One variant's positions solved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantFigures {
    pub name: String,
    pub solved: usize,
    pub positions: usize,
    /// Its solved share minus the first variant's, paired per position; none for the first.
    pub vs_first: Option<Interval>,
}

/// Whether each variant solved each problem: `solved[variant][problem]`.
fn solved(variants: usize, problems: &[Problem], results: &[Vec<Measurement>]) -> Vec<Vec<bool>> {
    (0..variants)
        .map(|v| {
            problems
                .iter()
                .zip(results)
                .map(|(p, r)| p.solved_by(&r[v].bestmove))
                .collect()
        })
        .collect()
}

/// Each variant's solved count and its paired difference from the first.
pub fn figures(
    variants: &[Variant],
    problems: &[Problem],
    results: &[Vec<Measurement>],
    budget: Budget,
) -> Figures {
    let flags: Vec<Vec<f64>> = solved(variants.len(), problems, results)
        .into_iter()
        .map(|s| s.into_iter().map(|x| f64::from(u8::from(x))).collect())
        .collect();
    Figures {
        budget: budget.label(),
        variants: variants
            .iter()
            .zip(&flags)
            .enumerate()
            .map(|(v, (variant, mine))| VariantFigures {
                name: variant.name.clone(),
                solved: mine.iter().filter(|&&x| x > 0.0).count(),
                positions: problems.len(),
                vs_first: (v > 0).then(|| paired_interval(mine, &flags[0])).flatten(),
            })
            .collect(),
    }
}

pub fn report(figures: &Figures, problems: &[Problem], results: &[Vec<Measurement>]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<12} {:>7} {:>5} {:>17} {:>17} {:>9} {:>11}  lost vs {} / gained",
        "variant",
        "solved",
        "of",
        "share (95% CI)",
        "vs first (paired)",
        "avg depth",
        "avg nodes",
        figures.variants[0].name
    );
    let table = solved(figures.variants.len(), problems, results);
    let solved = |v: usize, p: usize| table[v][p];
    for (v, variant) in figures.variants.iter().enumerate() {
        let n = variant.solved;
        let share = wilson(n, problems.len()).map_or("-".into(), |(lo, hi)| {
            format!(
                "{:.0}% [{:.0}, {:.0}]",
                100.0 * n as f64 / problems.len() as f64,
                100.0 * lo,
                100.0 * hi
            )
        });
        let diff = variant.vs_first.map_or("-".into(), |c| {
            format!("{:+.0} ± {:.0} pp", 100.0 * c.mean, 100.0 * c.half_width())
        });
        let depth: f64 = results.iter().map(|r| f64::from(r[v].depth)).sum::<f64>()
            / results.len().max(1) as f64;
        let nodes: f64 =
            results.iter().map(|r| r[v].nodes as f64).sum::<f64>() / results.len().max(1) as f64;
        let lost: Vec<&str> = (0..problems.len())
            .filter(|&p| solved(0, p) && !solved(v, p))
            .map(|p| problems[p].id.as_str())
            .collect();
        let gained: Vec<&str> = (0..problems.len())
            .filter(|&p| !solved(0, p) && solved(v, p))
            .map(|p| problems[p].id.as_str())
            .collect();
        let _ = writeln!(
            out,
            "{:<12} {:>7} {:>5} {:>17} {:>17} {:>9.2} {:>11.0}  {} [{}] / {} [{}]",
            variant.name,
            n,
            problems.len(),
            share,
            diff,
            depth,
            nodes,
            lost.len(),
            lost.join(" "),
            gained.len(),
            gained.join(" ")
        );
    }
    out
}

pub fn run(args: &SolveArgs) -> Result<()> {
    let variants = Variant::parse_all(&args.run.variants)?;
    let text = std::fs::read_to_string(&args.suite)
        .with_context(|| format!("cannot read suite {}", args.suite.display()))?;
    let mut problems = parse_suite(&text, &args.suite.display().to_string())?;
    if let Some(n) = args.positions {
        problems.truncate(n);
    }
    if problems.is_empty() {
        bail!("no positions in {}", args.suite.display());
    }
    let provenance = Provenance::capture(args, None);
    let fens: Vec<String> = problems.iter().map(|p| p.fen.clone()).collect();
    let engine = args.run.engine_path();
    let budget = args.run.budget();
    let grid = args.run.grid(&fens, &variants, &engine, budget, args.quiet);
    let settings = vec![
        ("suite".to_string(), args.suite.display().to_string()),
        ("suite_sha256".to_string(), sha256_hex(text.as_bytes())),
        ("positions".to_string(), problems.len().to_string()),
    ];
    let lines: Vec<(usize, String)> = problems.iter().map(|p| (p.line, p.fen.clone())).collect();
    let results = run_grid_to(
        &grid,
        args.run.csv.as_deref(),
        "solve",
        settings,
        &provenance,
        &lines,
    )?;
    print!("{}", provenance.markdown());
    println!(
        "{}: {} positions, {} per position and variant, engine {}",
        args.suite.display(),
        problems.len(),
        budget.label(),
        engine.display()
    );
    let figures = figures(&variants, &problems, &results, budget);
    print!("{}", report(&figures, &problems, &results));
    println!(
        "share: solved with its 95% Wilson interval; vs first: the difference in solved share \
         from the first variant, percentage points with a 95% interval paired per position"
    );
    args.summary.write("solve", &figures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_moves_become_uci() {
        let p = parse_suite(
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n\
             r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - bm Nxc6 O-O-O?; am Qd2;",
            "t",
        );
        // O-O-O is illegal there: the error must name the line.
        let msg = format!("{:#}", p.unwrap_err());
        assert!(msg.contains("t:2"), "{msg}");
        let p = parse_suite(
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";",
            "t",
        )
        .unwrap();
        assert_eq!(p[0].id, "WAC.001");
        assert_eq!(p[0].best, vec!["g3g6"]);
        assert!(p[0].solved_by("g3g6") && !p[0].solved_by("f1e1"));
    }
}
