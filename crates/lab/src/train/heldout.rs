//! `augur-lab heldout`: networks compared on positions none of them trained on (issue 67 §2:
//! "compare sizes by held-out loss with a bootstrap interval"). Each network file is evaluated
//! as the engine plays it (the quantised integer inference of `augur::eval::nnue`, not the
//! trainer's float model), on every record of the held-out files; the loss of a position is the
//! trainer's, (sigmoid(eval / K) − target)² with target = λ·result + (1 − λ)·sigmoid(score / K),
//! at one K and λ for all networks so that the yardstick is shared.
//!
//! The records of one game are neighbours in a datagen file and their losses are correlated,
//! so the intervals come from a block bootstrap: the file is cut into blocks of consecutive
//! positions about a game long, and each resample draws blocks with replacement. The same
//! blocks are drawn for every network, so each difference to the first network is paired.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use augur::eval::nnue::accumulator::evaluate_board;
use augur::eval::nnue::network::Network;
use augur_arena::outputs::refuse_inputs;
use clap::Args;
use cozy_chess::Board;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use statrs::statistics::{Data, OrderStatistics};

use crate::data::records::RecordReader;
use crate::tune::model::sigmoid;

#[derive(Args, Debug, Clone)]
pub struct HeldOutArgs {
    /// A network, `NAME=FILE` (`NAME=embedded`: the network built into the engine); repeatable,
    /// the first is the one the others are compared with.
    #[arg(long = "net", value_name = "NAME=FILE", required = true)]
    pub nets: Vec<String>,
    /// Held-out datagen files (bullet 32-byte records), read in order.
    #[arg(long = "data", value_name = "FILE", required = true)]
    pub data: Vec<PathBuf>,
    /// At most this many positions (the first ones).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Sigmoid scale K in centipawns (default: fitted to the held-out positions' scores and
    /// results, as the trainer fits its own).
    #[arg(long)]
    pub k: Option<f64>,
    /// λ: the weight of the game result in the target.
    #[arg(long, default_value_t = 0.3)]
    pub wdl: f64,
    /// Positions a bootstrap block (about a game of datagen: 60,000 held-out positions come
    /// from 559 games).
    #[arg(long, default_value_t = 100)]
    pub block: usize,
    /// Bootstrap resamples.
    #[arg(long, default_value_t = 2000)]
    pub resamples: usize,
    /// Seed of the resampling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also write the table as CSV.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    #[command(flatten)]
    pub summary: crate::kit::summary::SummaryArgs,
}

/// Resamples beyond this add nothing to a 95% interval and would only fill memory.
const MAX_RESAMPLES: usize = 1_000_000;

/// What `--summary` keeps (a campaign stage reads it): the positions, K and every row.
#[derive(Serialize)]
struct Figures<'a> {
    positions: usize,
    k: f64,
    wdl: f64,
    rows: &'a [Row],
}

/// A held-out position: the board and its record's score (cp, side to move) and result (1, ½,
/// 0 for the side to move).
pub struct Position {
    pub board: Board,
    pub score: f64,
    pub result: f64,
}

/// Every record of `paths`, at most `limit`.
pub fn load(paths: &[PathBuf], limit: Option<usize>) -> Result<Vec<Position>> {
    let mut out = Vec::new();
    for path in paths {
        for (i, r) in RecordReader::open(path)?.enumerate() {
            if limit.is_some_and(|l| out.len() >= l) {
                return Ok(out);
            }
            let r = r.with_context(|| format!("{}: record {}", path.display(), i + 1))?;
            let fen = r.to_fen();
            let board = Board::from_fen(&fen, false).map_err(|e| {
                anyhow::anyhow!("{}: record {}: {fen}: {e:?}", path.display(), i + 1)
            })?;
            out.push(Position {
                board,
                score: f64::from(r.score()),
                result: f64::from(r.result().value()),
            });
        }
    }
    if out.is_empty() {
        bail!("no held-out position in {:?}", paths);
    }
    Ok(out)
}

/// The K at which the positions' scores best predict their results (the trainer's fit).
pub fn fitted_k(positions: &[Position]) -> f64 {
    let points: Vec<(f64, f64)> = positions.iter().map(|p| (p.score, p.result)).collect();
    super::prepare::k_of(&points)
}

/// Each position's loss for an evaluation (cp, side to move) at K and λ.
pub fn losses(positions: &[Position], eval: &[i32], k: f64, lambda: f64) -> Vec<f64> {
    positions
        .iter()
        .zip(eval)
        .map(|(p, &e)| {
            let target = lambda * p.result + (1.0 - lambda) * sigmoid(p.score / k);
            (sigmoid(f64::from(e) / k) - target).powi(2)
        })
        .collect()
}

/// A network named on the command line.
fn network(spec: &str) -> Result<(String, Arc<Network>)> {
    let (name, file) = spec
        .split_once('=')
        .filter(|(n, f)| !n.trim().is_empty() && !f.trim().is_empty())
        .with_context(|| format!("--net {spec}: expected NAME=FILE (or NAME=embedded)"))?;
    let net = if file.trim() == "embedded" {
        augur::eval::nnue::default_network()
    } else {
        let path = Path::new(file.trim());
        Arc::new(Network::load(path).with_context(|| format!("loading {}", path.display()))?)
    };
    Ok((name.trim().to_string(), net))
}

/// The block bootstrap: per resample, the mean of each loss series over the same blocks drawn
/// with replacement (blocks of `block` consecutive positions; the last may be shorter).
pub fn bootstrap_means(
    series: &[Vec<f64>],
    block: usize,
    resamples: usize,
    seed: u64,
) -> Vec<Vec<f64>> {
    let n = series.first().map_or(0, Vec::len);
    let block = block.max(1);
    let blocks = n.div_ceil(block);
    // Per series, each block's sum and length.
    let sums: Vec<Vec<f64>> = series
        .iter()
        .map(|s| s.chunks(block).map(|c| c.iter().sum()).collect())
        .collect();
    let lens: Vec<f64> = (0..blocks)
        .map(|b| ((b + 1) * block).min(n).saturating_sub(b * block) as f64)
        .collect();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = vec![Vec::with_capacity(resamples); series.len()];
    for _ in 0..resamples {
        let mut total = vec![0.0; series.len()];
        let mut count = 0.0;
        for _ in 0..blocks {
            let b = rng.random_range(0..blocks);
            for (t, s) in total.iter_mut().zip(&sums) {
                *t += s[b];
            }
            count += lens[b];
        }
        for (o, t) in out.iter_mut().zip(total) {
            o.push(t / count);
        }
    }
    out
}

/// The 2.5% and 97.5% quantiles of a sample.
fn percentile_interval(values: &[f64]) -> (f64, f64) {
    let mut d = Data::new(values.to_vec());
    (d.quantile(0.025), d.quantile(0.975))
}

/// One network's row: its mean loss with the interval, and its difference to the first.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub network: String,
    pub positions: usize,
    pub loss: f64,
    pub loss_low: f64,
    pub loss_high: f64,
    pub difference: f64,
    pub difference_low: f64,
    pub difference_high: f64,
}

/// The rows of the comparison from each network's losses (the first is the reference).
pub fn compare(
    names: &[String],
    series: &[Vec<f64>],
    block: usize,
    resamples: usize,
    seed: u64,
) -> Vec<Row> {
    let boot = bootstrap_means(series, block, resamples, seed);
    let mean = |s: &[f64]| s.iter().sum::<f64>() / s.len() as f64;
    names
        .iter()
        .zip(series)
        .zip(&boot)
        .map(|((name, s), b)| {
            let (lo, hi) = percentile_interval(b);
            let diffs: Vec<f64> = b.iter().zip(&boot[0]).map(|(x, y)| x - y).collect();
            let (dlo, dhi) = percentile_interval(&diffs);
            Row {
                network: name.clone(),
                positions: s.len(),
                loss: mean(s),
                loss_low: lo,
                loss_high: hi,
                difference: mean(s) - mean(&series[0]),
                difference_low: dlo,
                difference_high: dhi,
            }
        })
        .collect()
}

pub fn run(args: &HeldOutArgs) -> Result<()> {
    if !(0.0..=1.0).contains(&args.wdl) {
        bail!("--wdl {}: expected λ between 0 and 1", args.wdl);
    }
    if args.k.is_some_and(|k| !(k.is_finite() && k > 0.0)) {
        bail!("--k: expected a positive scale in centipawns");
    }
    if !(100..=MAX_RESAMPLES).contains(&args.resamples) {
        bail!(
            "--resamples {}: from 100 (for a 95% interval) to {MAX_RESAMPLES}",
            args.resamples
        );
    }
    if args.limit == Some(0) || args.block == 0 {
        bail!("--limit and --block must be positive");
    }
    let read: Vec<&Path> = args.data.iter().map(|p| p.as_path()).collect();
    for (flag, out) in [("--csv", &args.csv), ("--summary", &args.summary.summary)] {
        if let Some(out) = out {
            refuse_inputs(flag, out, &read)?;
        }
    }
    let nets = args
        .nets
        .iter()
        .map(|s| network(s))
        .collect::<Result<Vec<_>>>()?;
    let positions = load(&args.data, args.limit)?;
    let k = args.k.unwrap_or_else(|| fitted_k(&positions));
    let series: Vec<Vec<f64>> = nets
        .iter()
        .map(|(_, net)| {
            let eval: Vec<i32> = positions
                .iter()
                .map(|p| evaluate_board(net, &p.board))
                .collect();
            losses(&positions, &eval, k, args.wdl)
        })
        .collect();
    let names: Vec<String> = nets.iter().map(|(n, _)| n.clone()).collect();
    let rows = compare(&names, &series, args.block, args.resamples, args.seed);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} held-out positions, K {k:.1}, λ {}; 95% block-bootstrap intervals ({} resamples of \
         {}-position blocks), differences paired against {}\n\n\
         | network | loss [95%] | − {} [95%] |\n| --- | --- | --- |",
        positions.len(),
        args.wdl,
        args.resamples,
        args.block,
        names[0],
        names[0]
    );
    for r in &rows {
        let _ = writeln!(
            s,
            "| {} | {:.5} [{:.5}, {:.5}] | {:+.5} [{:+.5}, {:+.5}] |",
            r.network,
            r.loss,
            r.loss_low,
            r.loss_high,
            r.difference,
            r.difference_low,
            r.difference_high
        );
    }
    print!("{s}");
    if let Some(path) = &args.csv {
        let mut w =
            csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
        for r in &rows {
            w.serialize(r)?;
        }
        w.flush()?;
    }
    args.summary.write(
        "heldout",
        &Figures {
            positions: positions.len(),
            k,
            wdl: args.wdl,
            rows: &rows,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loss_is_the_trainers() {
        let p = Position {
            board: Board::default(),
            score: 0.0,
            result: 0.5,
        };
        // At the target the loss is 0; 160 cp off at K 160 it is (sigmoid(1) − ½)².
        assert_eq!(
            losses(std::slice::from_ref(&p), &[0], 160.0, 0.3),
            vec![0.0]
        );
        let l = losses(std::slice::from_ref(&p), &[160], 160.0, 0.3)[0];
        assert!((l - (sigmoid(1.0) - 0.5).powi(2)).abs() < 1e-12);
    }

    #[test]
    fn the_bootstrap_is_paired_and_reproducible() {
        // B = A + 0.01 everywhere: every resample's difference is exactly 0.01, so the paired
        // interval has no width, while each loss's own interval does.
        let a: Vec<f64> = (0..1000)
            .map(|i| ((i * 37) % 101) as f64 / 1000.0)
            .collect();
        let b: Vec<f64> = a.iter().map(|x| x + 0.01).collect();
        let names = vec!["a".to_string(), "b".to_string()];
        let rows = compare(&names, &[a.clone(), b], 50, 500, 7);
        assert!((rows[1].difference - 0.01).abs() < 1e-12);
        assert!((rows[1].difference_low - 0.01).abs() < 1e-9);
        assert!((rows[1].difference_high - 0.01).abs() < 1e-9);
        assert!(rows[0].loss_low < rows[0].loss && rows[0].loss < rows[0].loss_high);
        let again = compare(
            &names,
            &[a.clone(), a.iter().map(|x| x + 0.01).collect()],
            50,
            500,
            7,
        );
        assert_eq!(rows[0].loss_low, again[0].loss_low);
        // Blocks of correlated values widen the interval against single positions.
        let clustered: Vec<f64> = (0..1000).map(|i| ((i / 100) % 2) as f64).collect();
        let wide = compare(&names[..1], std::slice::from_ref(&clustered), 100, 500, 3);
        let narrow = compare(&names[..1], &[clustered], 1, 500, 3);
        assert!(
            wide[0].loss_high - wide[0].loss_low > 2.0 * (narrow[0].loss_high - narrow[0].loss_low)
        );
    }

    #[test]
    fn the_embedded_network_evaluates_held_out_records() {
        let dir = std::env::temp_dir().join(format!("augur-heldout-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("held.bin");
        let mut w = crate::data::records::RecordWriter::new(std::fs::File::create(&file).unwrap());
        let pos = augur::position::Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        )
        .unwrap();
        for (score, result) in [
            (30, crate::data::records::Outcome::Win),
            (-10, crate::data::records::Outcome::Draw),
        ] {
            let r = crate::data::records::Record::from_position(&pos, score, result);
            w.write(&r).unwrap();
        }
        w.flush().unwrap();
        drop(w);
        let positions = load(std::slice::from_ref(&file), None).unwrap();
        assert_eq!(positions.len(), 2);
        assert_eq!(positions[0].board, Board::default());
        let (_, net) = network("today=embedded").unwrap();
        let e = evaluate_board(&net, &positions[0].board);
        assert!(e.abs() < 200, "the start position is about level: {e}");
        assert!(network("x").is_err() && network("x=/no/such.nnue").is_err());
        std::fs::write(&file, [1u8; 31]).unwrap();
        assert!(
            load(std::slice::from_ref(&file), None).is_err(),
            "a torn file is refused"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
