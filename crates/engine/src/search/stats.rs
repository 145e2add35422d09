//! Per-thread counters: nodes, and for each technique how often it was tried and how often it
//! cut (pruned, produced a cutoff, or for re-search techniques: had to re-search).

pub use crate::search::config::Technique;
use crate::search::probcut::Stage;
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
    /// [sfpc] Verification depths by how far the static eval is below beta (bucket 0: not
    /// below; bucket i: [−STEP·i, −STEP·(i−1)) cp; the last is open): computed, and deeper than
    /// the fixed rule's. The seed-004 question is how often the dynamic rule extends, and where.
    pub sfpc_gaps: [(u64, u64); SFPC_GAP_BUCKETS],
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
            sfpc_gaps: [(0, 0); SFPC_GAP_BUCKETS],
        }
    }
}

/// Buckets and their width (cp) of [`SearchStats::sfpc_gaps`].
pub const SFPC_GAP_BUCKETS: usize = 8;
pub const SFPC_GAP_STEP: i32 = 150;

/// The bucket of a static eval `gap` = staticEval − beta.
pub fn sfpc_gap_bucket(gap: i32) -> usize {
    if gap >= 0 {
        0
    } else {
        (1 + ((-gap - 1) / SFPC_GAP_STEP) as usize).min(SFPC_GAP_BUCKETS - 1)
    }
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
        for ((stage, shallow, deep), tried, cut) in &self.pairs {
            write!(f, " pc_{}_{shallow}_{deep}={tried}/{cut}", stage.short())?;
        }
        // Only when Sfpc ran, so the line stays short otherwise.
        if self.sfpc_gaps.iter().any(|&(t, _)| t > 0) {
            for (i, &(tried, extended)) in self.sfpc_gaps.iter().enumerate() {
                let lo = SFPC_GAP_STEP * (i as i32 - 1);
                match i {
                    0 => write!(f, " sfpc_gap_above={tried}/{extended}")?,
                    _ if i == SFPC_GAP_BUCKETS - 1 => {
                        write!(f, " sfpc_gap_below_{lo}_inf={tried}/{extended}")?
                    }
                    _ => write!(
                        f,
                        " sfpc_gap_below_{lo}_{}={tried}/{extended}",
                        lo + SFPC_GAP_STEP
                    )?,
                }
            }
        }
        Ok(())
    }
}
