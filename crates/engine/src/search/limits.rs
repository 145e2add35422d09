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

/// Longest latency sample believed (a GUI paused for a minute says nothing about the next move).
const MAX_LATENCY_MS: u64 = 2000;

/// The time a move costs that the search cannot see: from the GUI starting our clock to us
/// reading `go`, and from our `bestmove` to the GUI stopping it. On a loaded machine it is
/// tens of milliseconds a move (measured at 1+0.01 with two games on two busy cores: the
/// search stopped within its plan yet the clock ran out, and only the runner's margin saved
/// it). Measured from the clock itself: what the GUI charged for our last move (the clock
/// then plus the increment, minus the clock now) less what the search timed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Latency {
    /// (own clock, increment, milliseconds the search timed) of the last timed move.
    last: Option<(u64, u64, u64)>,
    /// Exponentially weighted mean of the samples, ms.
    pub mean: f64,
    /// The largest recent sample, decaying by 1/16 a move, ms.
    pub peak: u64,
}

impl Latency {
    /// At a timed `go`: a sample from the last move, if the clock allows one.
    pub fn observe(&mut self, clock: Option<(u64, u64)>) {
        let (Some((then, inc, timed)), Some((now, _))) = (self.last.take(), clock) else {
            return;
        };
        // A clock that grew by more than the increment started a new period (movestogo).
        if now > then + inc {
            return;
        }
        let sample = (then + inc - now).saturating_sub(timed).min(MAX_LATENCY_MS);
        self.mean += (sample as f64 - self.mean) / 8.0;
        self.peak = sample.max(self.peak - self.peak / 16);
    }

    /// After a timed search of `timed_ms`; `None` (untimed, pondering) leaves no sample.
    pub fn searched(&mut self, clock: Option<(u64, u64)>, timed_ms: u64) {
        self.last = clock.map(|(c, i)| (c, i, timed_ms));
    }
}

impl Limits {
    /// The side to move's clock and increment (ms), when the search runs on a clock.
    pub fn own_clock(&self, white_to_move: bool) -> Option<(u64, u64)> {
        let (time, inc) = if white_to_move {
            (self.wtime?, self.winc.unwrap_or(0))
        } else {
            (self.btime?, self.binc.unwrap_or(0))
        };
        (self.movetime.is_none()).then_some((time.max(0) as u64, inc.max(0) as u64))
    }

    /// The time plan for the side to move, or `None` when the search is not timed.
    /// `overhead_ms` (MoveOverhead) is the least latency assumed per move.
    pub fn plan(
        &self,
        white_to_move: bool,
        overhead_ms: u64,
        latency: &Latency,
    ) -> Option<TimePlan> {
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
        let moves_left = self.movestogo.map_or(28, |m| m.clamp(1, 50)) as u64;
        // Every move still to play costs the latency again, so MoveOverhead, or the measured
        // mean latency when larger, is reserved for each of them (as Stockfish keeps back
        // MoveOverhead per move to go). With an increment below the overhead the clock then
        // settles near the reserve instead of draining to the increment, where one spike of
        // the machine loses on time. What is left, with the increments to come, is shared
        // out. This move keeps back the recent peak, and at least MoveOverhead.
        let per_move = overhead_ms.max(latency.mean.round() as u64);
        let reserve = (per_move * (moves_left + 1)).max(2 * latency.peak);
        let budget = (time + inc * (moves_left - 1)).saturating_sub(reserve);
        let available = time.saturating_sub(overhead_ms.max(latency.peak)).max(1);
        // Never plan to use more than 40% of the clock in one move (80% with one move to
        // the time control).
        let cap_share = if moves_left == 1 { 80 } else { 40 };
        let cap = available * cap_share / 100;
        let soft = (budget / moves_left).min(cap).max(1);
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

    fn clock(ms: i64, inc: i64) -> Limits {
        Limits {
            wtime: Some(ms),
            btime: Some(ms),
            winc: Some(inc),
            binc: Some(inc),
            ..Default::default()
        }
    }

    #[test]
    fn the_reserve_grows_with_the_moves_left_and_the_measured_latency() {
        let none = Latency::default();
        // At a long control the reserve hardly matters; at bullet it does.
        let long = clock(60_000, 600).plan(true, 30, &none).unwrap();
        assert!((2000..2800).contains(&long.soft.as_millis()), "{long:?}");
        let bullet = clock(1000, 10).plan(true, 30, &none).unwrap();
        let with_two_moves_to_go = Limits {
            movestogo: Some(2),
            ..clock(1000, 10)
        }
        .plan(true, 30, &none)
        .unwrap();
        assert!(bullet.soft < with_two_moves_to_go.soft);

        // The GUI charges 60 ms more than the search timed, move after move.
        let mut lat = Latency::default();
        let mut ms = 10_000;
        for _ in 0..12 {
            let l = clock(ms, 100);
            lat.observe(l.own_clock(true));
            let p = l.plan(true, 30, &lat).unwrap();
            let timed = p.soft.as_millis() as i64;
            lat.searched(l.own_clock(true), timed as u64);
            ms = ms - timed - 60 + 100;
        }
        assert!((40.0..60.0).contains(&lat.mean), "{lat:?}");
        assert_eq!(lat.peak, 60);
        let p = clock(ms, 100).plan(true, 30, &lat).unwrap();
        let unaware = clock(ms, 100).plan(true, 30, &none).unwrap();
        assert!(
            p.soft < unaware.soft && p.hard < unaware.hard,
            "{p:?} {unaware:?}"
        );
        // This move keeps the peak back.
        assert!(p.hard.as_millis() as i64 <= (ms - 60) * 4 / 10);

        // A clock that grew (a new period), or a missing sample, changes nothing.
        let before = lat.clone();
        lat.searched(Some((100, 0)), 5);
        lat.observe(Some((5000, 0)));
        lat.observe(Some((10, 0)));
        assert_eq!((lat.mean, lat.peak), (before.mean, before.peak));
    }

    #[test]
    fn tiny_clock_leaves_a_margin() {
        let l = Limits {
            wtime: Some(1000),
            winc: Some(10),
            ..Default::default()
        };
        let p = l.plan(true, 30, &Latency::default()).unwrap();
        assert!(p.hard.as_millis() <= 388, "{p:?}");
        assert!(p.soft <= p.hard);
        let l = Limits {
            btime: Some(5),
            ..Default::default()
        };
        let p = l.plan(false, 30, &Latency::default()).unwrap();
        assert_eq!(p.hard.as_millis(), 1);
        assert!(Limits {
            depth: Some(3),
            ..Default::default()
        }
        .plan(true, 30, &Latency::default())
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
            let p = l.plan(true, 30, &Latency::default()).unwrap();
            assert!(p.hard.as_millis() <= 75, "{l:?}: {p:?}");
        }
        let l = Limits {
            movetime: Some(500),
            ..Default::default()
        };
        assert_eq!(
            l.plan(true, 30, &Latency::default())
                .unwrap()
                .hard
                .as_millis(),
            470
        );
    }
}
