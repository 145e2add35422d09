//! Each position's features, extracted once: the quiescence search's leaf (the position the
//! search would stand pat on, so captures in flight do not teach the weights), its sparse
//! coefficient trace (`eval::tapered::Trace`), and the targets. Positions are extracted in
//! chunks on all tuner threads, in input order, so the dataset does not depend on `--threads`.

use anyhow::Result;
use augur::eval::tapered::{Trace, PHASE_MAX};
use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::{SearchTeam, MATE_BOUND};

use crate::data::labelled::LabelledBoard;

/// One position's targets and evaluation modifiers; its coefficients are in
/// `Dataset::coeffs` from `start`, `len` of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    start: u64,
    len: u16,
    /// Middle-game share of the blend: phase / 24.
    pub mg: f32,
    /// Scaled down as a drawish ending when white (0) or black (1) is the stronger side.
    pub drawish: [bool; 2],
    /// Game result for white.
    pub result: f32,
    /// Search score for white, centipawns, when the data has one.
    pub score: Option<f32>,
}

#[derive(Default)]
pub struct Dataset {
    pub entries: Vec<Entry>,
    coeffs: Vec<(u16, i16)>,
    /// Positions the quiescence search changed (a capture sequence was resolved).
    pub resolved: u64,
    /// Positions dropped: the quiescence search found a mate or a draw by rule.
    pub dropped: u64,
}

impl Dataset {
    /// `(weight index, white − black count)` of an entry.
    #[inline]
    pub fn coeffs(&self, e: &Entry) -> &[(u16, i16)] {
        &self.coeffs[e.start as usize..e.start as usize + e.len as usize]
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Extracts `samples` on `threads` threads and appends them in order.
    pub fn extend(&mut self, samples: &[LabelledBoard], threads: usize) {
        let threads = threads.max(1);
        let per = samples.len().div_ceil(threads).max(1);
        let parts: Vec<Part> = std::thread::scope(|s| {
            let handles: Vec<_> = samples
                .chunks(per)
                .map(|chunk| s.spawn(move || extract(chunk)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("extraction thread panicked"))
                .collect()
        });
        for part in parts {
            let base = self.coeffs.len() as u64;
            self.entries.extend(part.entries.into_iter().map(|mut e| {
                e.start += base;
                e
            }));
            self.coeffs.extend(part.coeffs);
            self.resolved += part.resolved;
            self.dropped += part.dropped;
        }
    }
}

/// What one thread extracted from its chunk.
#[derive(Default)]
struct Part {
    entries: Vec<Entry>,
    coeffs: Vec<(u16, i16)>,
    resolved: u64,
    dropped: u64,
}

fn extract(samples: &[LabelledBoard]) -> Part {
    let mut q = Quiescence::new();
    let mut part = Part::default();
    for s in samples {
        let Some(leaf) = q.leaf(&s.board) else {
            part.dropped += 1;
            continue;
        };
        if leaf.1 {
            part.resolved += 1;
        }
        let t = Trace::of(leaf.0.board());
        part.entries.push(Entry {
            start: part.coeffs.len() as u64,
            len: t.coeffs.len() as u16,
            mg: t.phase as f32 / PHASE_MAX as f32,
            drawish: t.drawish,
            result: s.result,
            score: s.score.map(|v| v as f32),
        });
        part.coeffs.extend_from_slice(&t.coeffs);
    }
    part
}

/// The engine's quiescence search, without a transposition table so that a position's leaf
/// depends on nothing but the position.
pub struct Quiescence {
    searcher: SearchTeam,
}

impl Default for Quiescence {
    fn default() -> Self {
        Self::new()
    }
}

impl Quiescence {
    pub fn new() -> Self {
        let mut config = SearchConfig::default();
        config.tt.enabled = false;
        Quiescence {
            searcher: SearchTeam::new(config, 1).expect("1 MiB for the (unused) hash table"),
        }
    }

    /// The end of the quiescence search's principal variation and whether it differs from
    /// the position; `None` when the search ends in a mate or a draw by rule, which the
    /// evaluation does not score.
    pub fn leaf(&mut self, board: &cozy_chess::Board) -> Option<(Position, bool)> {
        let mut pos = Position::from_board(board.clone(), false);
        let (score, pv) = self.searcher.quiescence(&pos);
        if score.abs() >= MATE_BOUND {
            return None;
        }
        for &mv in &pv {
            pos.make(mv);
        }
        if pos.in_check() || pos.is_insufficient_material() || pos.is_fifty_moves() {
            return None;
        }
        Some((pos, !pv.is_empty()))
    }
}

/// Splits entry indices into training and held-out sets: consecutive positions in blocks of
/// `BLOCK` (a datagen game's positions are consecutive, so a game rarely straddles the two
/// sets), each block held out with probability `fraction`, decided by the seed.
pub fn split(len: usize, fraction: f64, seed: u64) -> (Vec<usize>, Vec<usize>) {
    const BLOCK: usize = 256;
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (b, start) in (0..len).step_by(BLOCK).enumerate() {
        let mut rng = augur_arena::matchmaking::schedule::SplitMix64::new(
            seed ^ (b as u64).wrapping_mul(0x9E37),
        );
        let draw = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let to = if draw < fraction {
            &mut held
        } else {
            &mut train
        };
        to.extend(start..(start + BLOCK).min(len));
    }
    (train, held)
}

/// Reads at most `limit` samples from the iterator, `chunk` at a time, extracting each chunk
/// as it comes so that only the sparse features stay in memory.
pub fn build(
    samples: impl Iterator<Item = Result<LabelledBoard>>,
    limit: Option<u64>,
    threads: usize,
    mut on_chunk: impl FnMut(&Dataset, u64),
) -> Result<(Dataset, u64)> {
    const CHUNK: usize = 1 << 16;
    let mut ds = Dataset::default();
    let mut read = 0u64;
    let mut buf = Vec::with_capacity(CHUNK);
    let mut samples = samples.take(limit.map_or(usize::MAX, |l| l as usize));
    loop {
        buf.clear();
        for s in samples.by_ref().take(CHUNK) {
            buf.push(s?);
        }
        if buf.is_empty() {
            break;
        }
        read += buf.len() as u64;
        ds.extend(&buf, threads);
        on_chunk(&ds, read);
        if buf.len() < CHUNK {
            break;
        }
    }
    Ok((ds, read))
}

#[cfg(test)]
mod tests {
    use super::*;
    use augur::eval::tapered::{evaluate_white, WEIGHTS};

    #[test]
    fn quiescence_resolves_a_hanging_piece_and_keeps_a_quiet_position() {
        let mut q = Quiescence::new();
        // White's queen takes the undefended rook on d5: the leaf is after Qxd5.
        let b: cozy_chess::Board = "4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1".parse().unwrap();
        let (leaf, resolved) = q.leaf(&b).unwrap();
        assert!(resolved);
        assert!(leaf.board().pieces(cozy_chess::Piece::Rook).is_empty());
        let start = cozy_chess::Board::default();
        let (leaf, resolved) = q.leaf(&start).unwrap();
        assert!(!resolved);
        assert_eq!(leaf.board(), &start);
        // Mate in the quiescence search (in check, no evasion) is dropped.
        let mated: cozy_chess::Board = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1".parse().unwrap();
        assert!(q.leaf(&mated).is_none());
    }

    #[test]
    fn extracted_features_give_back_the_engine_evaluation_of_the_leaf() {
        let samples: Vec<LabelledBoard> = augur::bench::positions()
            .map(|f| LabelledBoard {
                board: f.parse().unwrap(),
                result: 0.5,
                score: None,
            })
            .collect();
        let mut one = Dataset::default();
        one.extend(&samples, 1);
        let mut two = Dataset::default();
        two.extend(&samples, 3);
        assert_eq!(one.entries, two.entries, "extraction depends on threads");
        assert!(one.resolved > 0 && one.len() + one.dropped as usize == samples.len());
        let mut q = Quiescence::new();
        let mut i = 0;
        for s in &samples {
            let Some((leaf, _)) = q.leaf(&s.board) else {
                continue;
            };
            let e = &one.entries[i];
            i += 1;
            let t = Trace {
                coeffs: one.coeffs(e).to_vec(),
                phase: (e.mg * PHASE_MAX as f32).round() as i32,
                drawish: e.drawish,
            };
            assert_eq!(t.evaluate(&WEIGHTS), evaluate_white(leaf.board()));
        }
        assert_eq!(i, one.len());
    }

    #[test]
    fn split_is_by_blocks_and_seeded() {
        let (train, held) = split(10_240, 0.25, 7);
        assert_eq!(train.len() + held.len(), 10_240);
        assert!(held.len() > 256 && held.len() < 5000, "{}", held.len());
        assert_eq!(held.len() % 256, 0, "whole blocks: {}", held.len());
        assert_eq!(split(10_240, 0.25, 7), (train.clone(), held));
        assert_ne!(split(10_240, 0.25, 8).0, train);
        assert!(split(1000, 0.0, 1).1.is_empty());
    }
}
