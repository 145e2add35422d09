//! What a `go` asks for, and the time plan derived from it.

use std::time::Duration;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Soft node limit: no new iteration starts once this many nodes are searched (the
    /// iteration that crosses it still finishes, up to the hard `nodes` cap). Not a UCI
    /// `go` token: self-play data generation sets it, as Stormphrax and Viridithas do.
    pub soft_nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub mate: Option<i32>,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
}

/// Soft limit: do not start another iteration after it. Hard limit: abort mid-iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    pub soft: Duration,
    pub hard: Duration,
    /// `movetime`: use all of it (no early stop between iterations).
    pub exact: bool,
}

impl Limits {
    /// The time plan for the side to move, or `None` when the search is not timed.
    pub fn plan(&self, white_to_move: bool, overhead_ms: u64) -> Option<TimePlan> {
        if let Some(mt) = self.movetime {
            let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(1));
            return Some(TimePlan {
                soft: t,
                hard: t,
                exact: true,
            });
        }
        // Any clock field makes the search timed; a missing clock of the side to move counts
        // as an empty one. (Untimed, `go btime 100` with White to move would never end.)
        let clock = [self.wtime, self.btime, self.winc, self.binc];
        if clock.iter().all(Option::is_none) && self.movestogo.is_none() {
            return None;
        }
        let (time, inc) = if white_to_move {
            (self.wtime.unwrap_or(0), self.winc.unwrap_or(0))
        } else {
            (self.btime.unwrap_or(0), self.binc.unwrap_or(0))
        };
        let time = time.max(0) as u64;
        let inc = inc.max(0) as u64;
        let available = time.saturating_sub(overhead_ms).max(1);
        let moves_left = self.movestogo.map_or(28, |m| m.clamp(1, 50)) as u64;
        // Spend a share of the remaining time plus most of the increment; never plan to use
        // more than 40% of the clock in one move (80% with one move to the time control).
        let cap_share = if moves_left == 1 { 80 } else { 40 };
        let cap = available * cap_share / 100;
        let soft = (available / moves_left + inc * 3 / 4).min(cap).max(1);
        let hard = (soft * 3).min(cap).max(soft);
        Some(TimePlan {
            soft: Duration::from_millis(soft),
            hard: Duration::from_millis(hard),
            exact: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_clock_leaves_a_margin() {
        let l = Limits {
            wtime: Some(1000),
            winc: Some(10),
            ..Default::default()
        };
        let p = l.plan(true, 30).unwrap();
        assert!(p.hard.as_millis() <= 388, "{p:?}");
        assert!(p.soft <= p.hard);
        let l = Limits {
            btime: Some(5),
            ..Default::default()
        };
        let p = l.plan(false, 30).unwrap();
        assert_eq!(p.hard.as_millis(), 1);
        assert!(Limits {
            depth: Some(3),
            ..Default::default()
        }
        .plan(true, 30)
        .is_none());
        // Only the opponent's clock (or only increments) given: still timed, not infinite.
        for l in [
            Limits {
                btime: Some(100),
                ..Default::default()
            },
            Limits {
                winc: Some(100),
                ..Default::default()
            },
            Limits {
                movestogo: Some(3),
                ..Default::default()
            },
        ] {
            let p = l.plan(true, 30).unwrap();
            assert!(p.hard.as_millis() <= 75, "{l:?}: {p:?}");
        }
        let l = Limits {
            movetime: Some(500),
            ..Default::default()
        };
        assert_eq!(l.plan(true, 30).unwrap().hard.as_millis(), 470);
    }
}
