//! Interim looks at a fixed-length match (Haybittle–Peto): at counts of games fixed in advance
//! the two-sided z of the score against 1/2 is read, and the match stops once it passes a
//! boundary so strict (3.29 by default, p = 0.001) that the final analysis keeps its nominal
//! level. It spares the rest of a pre-registered match whose verdict is already beyond doubt.

use anyhow::{bail, Result};

use crate::matchmaking::elo;
use crate::matchmaking::outcomes::Counts;

/// The boundary of Haybittle and Peto: |z| of at least 3.29, a two-sided p of 0.001.
pub const HAYBITTLE_PETO_Z: f64 = 3.29;

/// One look taken: the games it read and the z it found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Look {
    pub games: usize,
    pub z: f64,
    /// Whether |z| reached the boundary, so that the match stopped here.
    pub stopped: bool,
}

/// The looks a match was given, in rising order, and those taken so far.
#[derive(Clone, Debug)]
pub struct InterimLooks {
    at: Vec<usize>,
    boundary: f64,
    /// The index in `at` of the first look not yet taken.
    next: usize,
    taken: Vec<Look>,
}

impl InterimLooks {
    /// Looks at `at` games (any order, repeats merged) with a |z| boundary; each must fall
    /// before the match's `total` games, and the rule needs a two-engine match without an SPRT.
    pub fn new(
        at: &[usize],
        boundary: f64,
        total: usize,
        engines: usize,
        sprt: bool,
    ) -> Result<InterimLooks> {
        let mut at = at.to_vec();
        at.sort_unstable();
        at.dedup();
        if !at.is_empty() {
            if engines != 2 {
                bail!("--interim needs exactly two engines, got {engines}");
            }
            if sprt {
                bail!("--interim is for a fixed-length match; an --sprt stops by its own bounds");
            }
            if at[0] == 0 {
                bail!("--interim: a look at 0 games reads nothing");
            }
            if let Some(&last) = at.last() {
                if last >= total {
                    bail!("--interim: a look at {last} games is not before the match's {total}");
                }
            }
        }
        if !(boundary.is_finite() && boundary > 0.0) {
            bail!("--interim-z must be a positive number, got {boundary}");
        }
        Ok(InterimLooks {
            at,
            boundary,
            next: 0,
            taken: Vec::new(),
        })
    }

    pub fn boundary(&self) -> f64 {
        self.boundary
    }

    /// Every look taken so far, the stopping one last.
    pub fn taken(&self) -> &[Look] {
        &self.taken
    }

    /// The look that stopped the match, if one did.
    pub fn stop(&self) -> Option<Look> {
        self.taken.last().copied().filter(|l| l.stopped)
    }

    /// With `finished` games played, takes the look that is due (the first one not yet taken
    /// whose count has been reached; a resumed match past several counts takes one look, on all
    /// its games) and says whether the match stops. A look that stopped stays the verdict: games
    /// still in flight count in the figures but take no new look.
    pub fn look(&mut self, finished: usize, sample: &Counts) -> bool {
        if self.stop().is_some() {
            return true;
        }
        if self.next >= self.at.len() || self.at[self.next] > finished {
            return false;
        }
        while self.next < self.at.len() && self.at[self.next] <= finished {
            self.next += 1;
        }
        let z = z_of(sample);
        let stopped = z.abs() >= self.boundary;
        self.taken.push(Look {
            games: finished,
            z,
            stopped,
        });
        stopped
    }

    /// The report's line: each look's count and z, and whether it stopped the match.
    pub fn describe(&self, total: usize) -> Option<String> {
        if self.at.is_empty() {
            return None;
        }
        let looks: Vec<String> = self
            .taken
            .iter()
            .map(|l| format!("{} games z {:+.2}", l.games, l.z))
            .collect();
        let plan: Vec<String> = self.at.iter().map(|n| n.to_string()).collect();
        let end = match self.stop() {
            Some(l) => format!(
                "stopped at the look at {} games of the {total} planned",
                l.games
            ),
            None => "no look stopped the match".to_string(),
        };
        Some(format!(
            "Interim looks (Haybittle-Peto, |z| >= {:.2}) planned at {}: {}; {end}\n",
            self.boundary,
            plan.join(", "),
            if looks.is_empty() {
                "none taken".to_string()
            } else {
                looks.join(", ")
            },
        ))
    }
}

/// The score's z against 1/2: its distance in standard errors (pairs where the games pair up).
/// A sample without variance and off 1/2 is infinitely far; an empty one is at 0.
pub fn z_of(sample: &Counts) -> f64 {
    match elo::estimate(sample) {
        None => 0.0,
        Some(e) if e.std_error > 0.0 => (e.score - 0.5) / e.std_error,
        Some(e) if e.score > 0.5 => f64::INFINITY,
        Some(e) if e.score < 0.5 => f64::NEG_INFINITY,
        Some(_) => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_look_stops_only_past_its_boundary_and_once_per_count() {
        let mut looks = InterimLooks::new(&[40, 20], HAYBITTLE_PETO_Z, 100, 2, false).unwrap();
        let even = Counts::Penta([2, 2, 6, 2, 2]);
        let lopsided = Counts::Penta([15, 4, 1, 0, 0]);
        assert!(!looks.look(10, &lopsided), "no look is due before 20 games");
        assert!(!looks.look(20, &even));
        assert!(!looks.look(21, &lopsided), "the look at 20 is taken");
        assert!(looks.look(40, &lopsided));
        assert_eq!(looks.stop().map(|l| l.games), Some(40));
        assert!(looks.stop().unwrap().z < -HAYBITTLE_PETO_Z);
        let text = looks.describe(100).unwrap();
        assert!(text.contains("planned at 20, 40"), "{text}");
        assert!(
            text.contains("stopped at the look at 40 games of the 100"),
            "{text}"
        );
    }

    #[test]
    fn a_resumed_match_past_several_counts_takes_one_look() {
        let mut looks = InterimLooks::new(&[20, 40, 60], 3.0, 100, 2, false).unwrap();
        assert!(!looks.look(50, &Counts::Penta([3, 4, 10, 4, 4])));
        assert_eq!(
            looks.taken().len(),
            1,
            "the looks at 20 and 40 are one, at 50"
        );
        assert!(!looks.look(55, &Counts::Penta([3, 4, 10, 4, 4])));
        assert!(!looks.look(60, &Counts::Penta([3, 4, 10, 4, 4])));
        assert_eq!(looks.taken().len(), 2);
    }

    #[test]
    fn bad_plans_are_refused() {
        assert!(InterimLooks::new(&[100], 3.29, 100, 2, false).is_err());
        assert!(InterimLooks::new(&[0], 3.29, 100, 2, false).is_err());
        assert!(InterimLooks::new(&[10], 3.29, 100, 3, false).is_err());
        assert!(InterimLooks::new(&[10], 3.29, 100, 2, true).is_err());
        assert!(InterimLooks::new(&[10], 0.0, 100, 2, false).is_err());
        assert!(InterimLooks::new(&[10], f64::NAN, 100, 2, false).is_err());
        assert!(InterimLooks::new(&[], 3.29, 100, 5, true).is_ok());
    }
}
