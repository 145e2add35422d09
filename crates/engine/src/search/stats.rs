//! Per-thread counters: nodes, and for each technique how often it was tried and how often it
//! cut (pruned, produced a cutoff, or for re-search techniques: had to re-search).

pub use crate::search::config::Technique;
use crate::search::probcut::model::Stage;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchStats {
    pub nodes: u64,
    pub qnodes: u64,
    /// Static evaluations made (the thesis's NBP when leaves are evaluated statically).
    pub evals: u64,
    pub tried: [u64; Technique::COUNT],
    pub cut: [u64; Technique::COUNT],
    /// ProbCut/MPC shallow searches per (stage, shallow, deep): tried, cut.
    pub pairs: Vec<((Stage, i32, i32), u64, u64)>,
    /// [sfpc] Verification depths by how far the static eval lies from beta, in buckets of
    /// [`SFPC_GAP_STEP`] cp on both sides (see [`sfpc_gap_range`]): how many were computed, and
    /// how many came out deeper or shallower than the fixed rule's. The seed-004 question is
    /// how often the dynamic rule extends (far below beta) and reduces (far above), and where.
    pub sfpc_gaps: [SfpcGap; SFPC_GAP_BUCKETS],
    /// [syzygy] Interior tablebase probes answered (tried), and of those the nodes that
    /// returned the tables' result at once (cut). Not a technique of the table: the tables
    /// are the engine's (`SyzygyPath`), and without them nothing is probed.
    pub syzygy: (u64, u64),
}

// Written out because `Default` is derived only for arrays of up to 32 counters.
impl Default for SearchStats {
    fn default() -> Self {
        SearchStats {
            nodes: 0,
            qnodes: 0,
            evals: 0,
            tried: [0; Technique::COUNT],
            cut: [0; Technique::COUNT],
            pairs: Vec::new(),
            sfpc_gaps: [SfpcGap::default(); SFPC_GAP_BUCKETS],
            syzygy: (0, 0),
        }
    }
}

/// [sfpc] One static-eval gap bucket of [`SearchStats::sfpc_gaps`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SfpcGap {
    /// Verification depths computed.
    pub computed: u64,
    /// Deeper than the fixed rule's (the dynamic rule below beta).
    pub extended: u64,
    /// Shallower than the fixed rule's (the dynamic rules above beta).
    pub reduced: u64,
}

/// Buckets and their width (cp) of [`SearchStats::sfpc_gaps`]: half of them below beta, the
/// outermost on each side open.
pub const SFPC_GAP_BUCKETS: usize = 14;
pub const SFPC_GAP_STEP: i32 = 150;
const SFPC_GAP_HALF: i32 = SFPC_GAP_BUCKETS as i32 / 2;

/// The bucket of a static eval `gap` = staticEval − beta: bucket i holds
/// [STEP·(i − 7), STEP·(i − 6)) cp, the first and last open-ended.
pub fn sfpc_gap_bucket(gap: i32) -> usize {
    (gap.div_euclid(SFPC_GAP_STEP)
        .clamp(-SFPC_GAP_HALF, SFPC_GAP_HALF - 1)
        + SFPC_GAP_HALF) as usize
}

/// The gap range (cp) of bucket `i`, lower bound inclusive, upper exclusive; `None` is
/// unbounded.
pub fn sfpc_gap_range(i: usize) -> (Option<i32>, Option<i32>) {
    let k = i as i32 - SFPC_GAP_HALF;
    (
        (i > 0).then_some(k * SFPC_GAP_STEP),
        (i + 1 < SFPC_GAP_BUCKETS).then_some((k + 1) * SFPC_GAP_STEP),
    )
}

impl SearchStats {
    #[inline]
    pub fn tried(&mut self, t: Technique) {
        self.tried[t as usize] += 1;
    }
    #[inline]
    pub fn cut(&mut self, t: Technique) {
        self.cut[t as usize] += 1;
    }

    pub fn pair(&mut self, key: (Stage, i32, i32), cut: bool) {
        let i = match self.pairs.iter().position(|p| p.0 == key) {
            Some(i) => i,
            None => {
                self.pairs.push((key, 0, 0));
                self.pairs.sort_by_key(|p| p.0);
                self.pairs
                    .iter()
                    .position(|p| p.0 == key)
                    .expect("just added")
            }
        };
        self.pairs[i].1 += 1;
        self.pairs[i].2 += cut as u64;
    }
}

impl fmt::Display for SearchStats {
    /// `nodes=N qnodes=N evals=N tt=tried/cut nmp=tried/cut ...`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nodes={} qnodes={} evals={}",
            self.nodes, self.qnodes, self.evals
        )?;
        for &t in Technique::ALL {
            write!(
                f,
                " {}={}/{}",
                t.tag(),
                self.tried[t as usize],
                self.cut[t as usize]
            )?;
        }
        write!(f, " syzygy={}/{}", self.syzygy.0, self.syzygy.1)?;
        for ((stage, shallow, deep), tried, cut) in &self.pairs {
            write!(f, " pc_{}_{shallow}_{deep}={tried}/{cut}", stage.short())?;
        }
        // Only when Sfpc ran, so the line stays short otherwise.
        if self.sfpc_gaps.iter().any(|g| g.computed > 0) {
            for (i, g) in self.sfpc_gaps.iter().enumerate() {
                let (lo, hi) = sfpc_gap_range(i);
                let lo = lo.map_or("-inf".to_string(), |v| v.to_string());
                let hi = hi.map_or("inf".to_string(), |v| v.to_string());
                write!(
                    f,
                    " sfpc_gap_{lo}_{hi}={}/{}/{}",
                    g.computed, g.extended, g.reduced
                )?;
            }
        }
        Ok(())
    }
}
