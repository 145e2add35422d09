//! Move-generation verification: perft, divide, and EPD perft suites.

use crate::position::{FenError, Position};
use cozy_chess::Board;
use thiserror::Error;

/// Leaf count at `depth`, counting the last ply in bulk from the generator's move sets.
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|pm| {
            nodes += pm.len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|pm| {
        for mv in pm {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += perft(&child, depth - 1);
        }
        false
    });
    nodes
}

/// Per-root-move counts in UCI text, in generation order. Root moves are shared out over
/// `threads` workers (each takes the next unclaimed move), so the counts are the same for
/// any thread count.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(String, u64)> {
    let never = std::sync::atomic::AtomicBool::new(false);
    divide_until(pos, depth, threads, &never).unwrap_or_default()
}

/// [`divide`] that gives up when `stop` is set (the UCI `stop` or `quit` during `go perft`):
/// `None` then, since a partial count is no count at all.
pub fn divide_until(
    pos: &Position,
    depth: u32,
    threads: usize,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<Vec<(String, u64)>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let board = pos.board();
    let moves = pos.legal_moves();
    let counts: Vec<std::sync::atomic::AtomicU64> =
        moves.iter().map(|_| Default::default()).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, moves.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&mv) = moves.get(i) else { break };
                let mut child = board.clone();
                child.play_unchecked(mv);
                let n = if depth == 0 {
                    1
                } else {
                    perft_until(&child, depth - 1, stop)
                };
                counts[i].store(n, Ordering::Relaxed);
            });
        }
    });
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    Some(
        moves
            .iter()
            .zip(&counts)
            .map(|(&mv, n)| (pos.uci(mv), n.load(Ordering::Relaxed)))
            .collect(),
    )
}

/// [`perft`] that returns early (with a count of no use) once `stop` is set; the flag is read
/// only above the last two plies, where the subtrees are large enough to hide its cost.
fn perft_until(board: &Board, depth: u32, stop: &std::sync::atomic::AtomicBool) -> u64 {
    if depth < 3 {
        return perft(board, depth);
    }
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return 0;
    }
    let mut nodes = 0;
    board.generate_moves(|pm| {
        for mv in pm {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += perft_until(&child, depth - 1, stop);
        }
        false
    });
    nodes
}

/// Worker threads for perft: all cores unless the caller says otherwise.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteCase {
    pub line: usize,
    pub fen: String,
    pub expected: Vec<(u32, u64)>,
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum SuiteError {
    #[error("line {line}: {source}")]
    Fen { line: usize, source: FenError },
    #[error("line {line}: bad depth entry '{entry}' (expected 'D<depth> <count>')")]
    Entry { line: usize, entry: String },
}

/// Parses `FEN ;D1 20 ;D2 400 ...`; blank lines and `#` comments are skipped.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteCase>, SuiteError> {
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let mut parts = raw.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        Position::from_fen(&fen, true).map_err(|source| SuiteError::Fen { line, source })?;
        let mut expected = Vec::new();
        for entry in parts {
            let entry = entry.trim();
            if entry.is_empty() {
                continue;
            }
            let bad = || SuiteError::Entry {
                line,
                entry: entry.to_string(),
            };
            let mut it = entry.split_whitespace();
            let d = it.next().ok_or_else(bad)?;
            let n = it.next().ok_or_else(bad)?;
            let depth = d
                .strip_prefix(['D', 'd'])
                .and_then(|d| d.parse().ok())
                .ok_or_else(bad)?;
            let count = n.parse().map_err(|_| bad())?;
            expected.push((depth, count));
        }
        cases.push(SuiteCase {
            line,
            fen,
            expected,
        });
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_counts() {
        let b = Board::default();
        let want = [1, 20, 400, 8902, 197_281];
        for (d, &n) in want.iter().enumerate() {
            assert_eq!(perft(&b, d as u32), n);
        }
    }

    #[test]
    fn divide_sums_to_perft_for_any_thread_count() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        for threads in [1, 3] {
            let d = divide(&pos, 3, threads);
            assert_eq!(d.len(), 48);
            assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 97_862);
        }
        assert!(divide(&pos, 3, 2).iter().any(|(m, _)| m == "e1g1"));
    }

    #[test]
    fn suite_parse_errors_name_the_line() {
        let text = "# c\n8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1 3\nnonsense ;D1 3\n";
        assert!(matches!(
            parse_suite(text),
            Err(SuiteError::Fen { line: 3, .. })
        ));
        let text = "8/8/8/8/8/8/8/K1k5 w - - 0 1 ;X1 3\n";
        assert!(matches!(
            parse_suite(text),
            Err(SuiteError::Entry { line: 1, .. })
        ));
        let ok = parse_suite("8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1 3 ;D2 9").unwrap();
        assert_eq!(ok[0].expected, vec![(1, 3), (2, 9)]);
    }
}
