//! Per-thread counters: nodes, and for each technique how often it was tried and how often it
//! cut (pruned, produced a cutoff, or for re-search techniques: had to re-search).

pub use crate::search::config::Technique;
use crate::search::probcut::Stage;
use std::fmt;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    pub nodes: u64,
    pub qnodes: u64,
    /// Static evaluations made (the thesis's NBP when leaves are evaluated statically).
    pub evals: u64,
    pub tried: [u64; Technique::COUNT],
    pub cut: [u64; Technique::COUNT],
    /// ProbCut/MPC shallow searches per (stage, shallow, deep): tried, cut.
    pub pairs: Vec<((Stage, i32, i32), u64, u64)>,
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
        Ok(())
    }
}
