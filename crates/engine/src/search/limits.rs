//! What a `go` asks for, and the time plan derived from it.

use super::config::TimeMan;
use super::result::Iteration;
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

/// [timeman] What the completed iterations say about how settled the root decision is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trend {
    /// Iterations in a row, before the last, that had the last one's best move.
    pub stable: u32,
    /// Share (0..=1) of the search's nodes spent under the best root move; `None` when
    /// unknown (MultiPV searches several lines on purpose).
    pub best_share: Option<f64>,
    /// How far (cp) the score fell against the iteration `TimeManScoreLag` before the last;
    /// negative when it rose.
    pub drop: i32,
}

impl Trend {
    /// The trend after `iterations` (at least one), `best_nodes` of whose nodes went under
    /// the last best move; the score drop is taken over `lag` iterations.
    pub fn of(iterations: &[Iteration], best_nodes: Option<u64>, lag: i32) -> Option<Trend> {
        let (last, before) = iterations.split_last()?;
        let stable = before
            .iter()
            .rev()
            .take_while(|it| it.best == last.best)
            .count() as u32;
        let lag = lag.max(1) as usize;
        let drop = before
            .len()
            .checked_sub(lag)
            .map_or(0, |i| before[i].score.saturating_sub(last.score));
        let best_share = best_nodes
            .filter(|_| last.nodes > 0)
            .map(|n| (n as f64 / last.nodes as f64).min(1.0));
        Some(Trend {
            stable,
            best_share,
            drop,
        })
    }
}

impl TimePlan {
    /// [timeman] The soft limit after an iteration with this `trend`: a best move that keeps
    /// winning the iterations and takes most of the nodes needs little more time; one that
    /// just changed, shares the tree with rivals, or whose score is falling needs more (the
    /// old move was refuted, the new one is not yet proven). The plan's own soft limit when
    /// `TimeMan` is off or the search is on `movetime`; otherwise always within
    /// [soft · TimeManScaleMin, min(soft · TimeManScaleMax, hard)] and at least 1 ms.
    pub fn soft_for(&self, tm: &TimeMan, trend: &Trend) -> Duration {
        if !tm.enabled || self.exact {
            return self.soft;
        }
        let percent = |p: i32| f64::from(p) / 100.0;
        let stability = tm
            .stable_base
            .saturating_sub(tm.stable_step.saturating_mul(trend.stable as i32))
            .max(tm.stable_floor);
        let nodes = trend.best_share.map_or(1.0, |share| {
            (1.0 + percent(tm.node_scale) * (percent(tm.node_pivot) - share)).max(0.0)
        });
        let score = (1.0 + f64::from(trend.drop.max(0)) * f64::from(tm.score_drop) / 1000.0)
            .min(percent(tm.score_cap));
        let scale = (percent(stability) * nodes * score)
            .min(percent(tm.scale_max))
            .max(percent(tm.scale_min))
            .max(0.0);
        self.soft
            .mul_f64(scale)
            .min(self.hard)
            .max(Duration::from_millis(1))
    }
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
    /// Whether only `stop` (or the next command) ends a search with these limits: `go
    /// infinite`, `go ponder`, and a `go` that bounds neither depth, nodes nor time (some GUIs
    /// analyse with a bare `go`; `go mate N` searches on while no mate is found). Any clock
    /// field bounds the search, as in [`Self::plan`].
    pub fn until_stopped(&self) -> bool {
        self.infinite
            || self.ponder
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.soft_nodes.is_none()
                && self.movetime.is_none()
                && self.wtime.is_none()
                && self.btime.is_none()
                && self.winc.is_none()
                && self.binc.is_none()
                && self.movestogo.is_none())
    }

    /// The side to move's clock and increment (ms), when the search runs on a clock.
    pub fn own_clock(&self, white_to_move: bool) -> Option<(u64, u64)> {
        let (time, inc) = if white_to_move {
            (self.wtime?, self.winc.unwrap_or(0))
        } else {
            (self.btime?, self.binc.unwrap_or(0))
        };
        (self.movetime.is_none()).then_some((clock_ms(time), clock_ms(inc)))
    }

    /// The time plan for the side to move at move `move_number` (the position's fullmove
    /// number), or `None` when the search is not timed. `overhead_ms` (MoveOverhead) is the
    /// least latency assumed per move.
    pub fn plan(
        &self,
        white_to_move: bool,
        move_number: u32,
        overhead_ms: u64,
        latency: &Latency,
        tm: &TimeMan,
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
        let (time, inc) = (clock_ms(time), clock_ms(inc));
        // [timeman] Sudden death (no movestogo) is planned over TimeManHorizon moves.
        let sudden_death = tm.enabled && self.movestogo.is_none();
        let moves_left = match self.movestogo {
            Some(m) => m.clamp(1, 50) as u64,
            None if sudden_death => horizon_at(tm, move_number),
            None => 28,
        };
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
        let soft = if sudden_death {
            // [timeman] The clock over the horizon plus a share of this move's increment.
            // Spreading the increments to come over the horizon (the old plan) lets the
            // search bank most of each one: deepening stops at 60% of the soft limit, so the
            // clock settled near 20 increments and games ended with 2.5 s of 10 unused.
            // Below the reserve the increment's share shrinks with the clock (to nothing at
            // an empty one), so a clock that latency has drained refills towards the reserve
            // instead of settling where only the 40% cap holds it (45 ms at 1+0.01). With no
            // reserve (MoveOverhead 0, no latency measured) the clock is never below it.
            let inc_part = inc * tm.inc_share.max(0) as u64 / 100;
            let inc_part = if time < reserve {
                (u128::from(inc_part) * u128::from(time) / u128::from(reserve)) as u64
            } else {
                inc_part
            };
            time.saturating_sub(reserve) / moves_left + inc_part
        } else {
            budget / moves_left
        };
        let soft = soft.min(cap).max(1);
        let hard = (soft * 3).min(cap).max(soft);
        Some(TimePlan {
            soft: Duration::from_millis(soft),
            hard: Duration::from_millis(hard),
            exact: false,
        })
    }
}

/// A clock field as milliseconds the plan can do arithmetic on: a negative one is empty, and
/// one beyond 2^40 ms (35 years) is taken as 2^40, so that no sum or product of the plan
/// wraps (`go wtime 461168601842738821` made the engine move at once).
fn clock_ms(ms: i64) -> u64 {
    (ms.max(0) as u64).min(1 << 40)
}

/// [timeman] The sudden-death horizon at `move_number`: TimeManHorizon up to move 10, then
/// linearly to TimeManHorizonLate at TimeManLateMove and after. A game that lasts banks what
/// a fixed horizon saves for moves that never come; a shorter late horizon spends it.
fn horizon_at(tm: &TimeMan, move_number: u32) -> u64 {
    let early = tm.horizon.clamp(1, 60) as i64;
    let late = tm.horizon_late.clamp(1, 60) as i64;
    let (from, to) = (10i64, (tm.late_move as i64).max(11));
    let m = (move_number as i64).clamp(from, to);
    (early + (late - early) * (m - from) / (to - from)).max(1) as u64
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

    /// A clock of any size, with any increment, plans a positive time that no product wraps.
    #[test]
    fn a_huge_clock_plans_a_long_search() {
        for tm in [timeman_on(), off()] {
            huge_clocks(&tm);
        }
    }

    fn huge_clocks(tm: &TimeMan) {
        for (ms, inc) in [
            (i64::MAX, i64::MAX),
            (461_168_601_842_738_821, 0),
            (i64::MAX, 0),
        ] {
            let mut lat = Latency::default();
            let plan = clock(ms, inc).plan(true, 1, 10, &lat, tm).unwrap();
            assert!(
                plan.soft >= Duration::from_secs(3600),
                "{ms} {inc}: {plan:?}"
            );
            // A short clock with a huge increment, below a large overhead's reserve.
            let plan = clock(100, inc).plan(true, 1, 5000, &lat, tm).unwrap();
            assert!(plan.soft <= Duration::from_millis(100), "{inc}: {plan:?}");
            lat.searched(clock(ms, inc).own_clock(true), 5);
            lat.observe(clock(ms, inc).own_clock(true));
        }
    }

    #[test]
    fn the_reserve_grows_with_the_moves_left_and_the_measured_latency() {
        let none = Latency::default();
        // At a long control the reserve hardly matters; at bullet it does.
        let long = clock(60_000, 600).plan(true, 1, 30, &none, &off()).unwrap();
        assert!((2000..2800).contains(&long.soft.as_millis()), "{long:?}");
        let bullet = clock(1000, 10).plan(true, 1, 30, &none, &off()).unwrap();
        let with_two_moves_to_go = Limits {
            movestogo: Some(2),
            ..clock(1000, 10)
        }
        .plan(true, 1, 30, &none, &off())
        .unwrap();
        assert!(bullet.soft < with_two_moves_to_go.soft);

        // The GUI charges 60 ms more than the search timed, move after move.
        let mut lat = Latency::default();
        let mut ms = 10_000;
        for _ in 0..12 {
            let l = clock(ms, 100);
            lat.observe(l.own_clock(true));
            let p = l.plan(true, 1, 30, &lat, &off()).unwrap();
            let timed = p.soft.as_millis() as i64;
            lat.searched(l.own_clock(true), timed as u64);
            ms = ms - timed - 60 + 100;
        }
        assert!((40.0..60.0).contains(&lat.mean), "{lat:?}");
        assert_eq!(lat.peak, 60);
        let p = clock(ms, 100).plan(true, 1, 30, &lat, &off()).unwrap();
        let unaware = clock(ms, 100).plan(true, 1, 30, &none, &off()).unwrap();
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

    /// `TimeMan` with these UCI options set on the defaults.
    fn timeman_with(options: &[(&str, &str)]) -> TimeMan {
        let mut cfg = crate::search::config::SearchConfig::default();
        for &(name, value) in options {
            assert_eq!(cfg.set_option(name, Some(value)), Ok(true), "{name}");
        }
        cfg.timeman
    }

    /// The plan without `TimeMan` (the default until its timed SPRT passed, 27 November 2026).
    fn off() -> TimeMan {
        timeman_with(&[("TimeMan", "false")])
    }

    /// Plays `moves` moves of a sudden-death game on `plan`'s clock where each move takes
    /// `share` of its soft limit (at most the hard one) and the GUI charges `lag` ms more;
    /// returns the clock before each move (the last entry: after the last move).
    fn simulate(tm: &TimeMan, ms: i64, inc: i64, moves: usize, share: f64, lag: i64) -> Vec<i64> {
        let mut clocks = vec![ms];
        let mut ms = ms;
        for _ in 0..moves {
            let p = clock(ms, inc)
                .plan(true, 1, 30, &Latency::default(), tm)
                .unwrap();
            let used = (p.soft.as_millis() as f64 * share).min(p.hard.as_millis() as f64);
            ms = ms - used as i64 - lag + inc;
            clocks.push(ms);
        }
        clocks
    }

    /// [timeman] In sudden death the new plan spends more of the clock early and ends the
    /// game near the latency reserve instead of banking increments; with `movestogo` it is
    /// the old plan.
    #[test]
    fn timeman_spends_the_clock_and_the_increment() {
        let on = timeman_on();
        // Deepening stops at 60% of the soft limit; a move takes about 65% of it.
        let old = simulate(&off(), 10_000, 100, 200, 0.65, 0);
        let new = simulate(&on, 10_000, 100, 200, 0.65, 0);
        assert!(new[1] < old[1], "first move: {} vs {}", new[1], old[1]);
        // After 60 moves (a long game) the new plan has spent much more of the clock...
        assert!(new[60] * 10 < old[60] * 7, "{} vs {}", new[60], old[60]);
        // ...and in the end settles near the reserve where the old one banks ~20 increments.
        let (old_end, new_end) = (old[200], new[200]);
        assert!(old_end > 1_800, "the old plan banks increments: {old_end}");
        assert!((600..1_200).contains(&new_end), "{new_end} ms left");
        // Never below the reserve the plan keeps (MoveOverhead per move to go).
        assert!(new.iter().all(|&c| c >= 600), "{new:?}");
        // At bullet below the reserve, with 5 ms of lag a move, the clock refills towards
        // the reserve rather than draining to where only the cap holds it.
        let bullet = simulate(&on, 1_000, 10, 200, 0.65, 5);
        let low = bullet[100..].iter().min().unwrap();
        assert!(*low >= 300, "{low} ms at 1+0.01: {bullet:?}");
        // With no reserve at all (MoveOverhead 0, nothing measured) the increment still counts.
        let soft = |inc| clock(1_000, inc).plan(true, 1, 0, &Latency::default(), &on);
        assert!(soft(100).unwrap().soft > soft(0).unwrap().soft);

        // At the parameters' extremes, moves that take the whole hard limit never flag, at
        // 10+0.1 or at bullet (latency is the reserve's business, tested above).
        for (h, i) in [("10", "300"), ("60", "0"), ("10", "0"), ("60", "300")] {
            let tm = timeman_with(&[
                ("TimeMan", "true"),
                ("TimeManHorizon", h),
                ("TimeManIncShare", i),
            ]);
            for (ms, inc) in [(10_000, 100), (1_000, 10), (300, 5)] {
                let c = simulate(&tm, ms, inc, 120, 100.0, 0);
                assert!(c.iter().all(|&c| c > 0), "{h}/{i} at {ms}+{inc}: {c:?}");
            }
        }

        // With moves to go, TimeMan plans as before.
        let mtg = Limits {
            movestogo: Some(20),
            ..clock(30_000, 0)
        };
        assert_eq!(
            mtg.plan(true, 1, 30, &Latency::default(), &on),
            mtg.plan(true, 1, 30, &Latency::default(), &off())
        );
    }

    /// [timeman] The late horizon: equal horizons plan alike at every move; a shorter late one
    /// gives a late move of the same clock a longer soft limit, reaching exactly the plan of
    /// that horizon from TimeManLateMove on, and never past the 40% cap, at the extremes too.
    #[test]
    fn the_late_horizon_spends_the_clock_late_in_the_game() {
        let on = timeman_on();
        let plan = |tm: &TimeMan, mv: u32| {
            clock(6_000, 100)
                .plan(true, mv, 30, &Latency::default(), tm)
                .unwrap()
                .soft
        };
        for mv in [1, 10, 30, 50, 200] {
            assert_eq!(plan(&on, mv), plan(&on, 1), "move {mv}");
        }
        let late = timeman_with(&[("TimeManHorizonLate", "12"), ("TimeManLateMove", "50")]);
        let short = timeman_with(&[("TimeManHorizon", "12"), ("TimeManHorizonLate", "12")]);
        assert_eq!(plan(&late, 10), plan(&on, 10));
        assert!(plan(&late, 30) > plan(&late, 10));
        assert!(plan(&late, 30) < plan(&late, 50));
        assert_eq!(plan(&late, 50), plan(&short, 50));
        assert_eq!(plan(&late, 120), plan(&short, 1));
        for (h, l, m) in [
            ("10", "6", "11"),
            ("60", "60", "200"),
            ("60", "6", "11"),
            ("10", "60", "200"),
        ] {
            let tm = timeman_with(&[
                ("TimeManHorizon", h),
                ("TimeManHorizonLate", l),
                ("TimeManLateMove", m),
            ]);
            for mv in [1, 11, 100, 100_000] {
                let p = clock(6_000, 100)
                    .plan(true, mv, 30, &Latency::default(), &tm)
                    .unwrap();
                assert!(
                    p.soft >= Duration::from_millis(1) && p.hard <= Duration::from_millis(2_400)
                );
            }
        }
    }

    fn timeman_on() -> TimeMan {
        timeman_with(&[("TimeMan", "true")])
    }

    const PLAN: TimePlan = TimePlan {
        soft: Duration::from_millis(1000),
        hard: Duration::from_millis(3000),
        exact: false,
    };

    fn trend(stable: u32, best_share: f64, drop: i32) -> Trend {
        Trend {
            stable,
            best_share: Some(best_share),
            drop,
        }
    }

    /// [timeman] A stable best move that takes most of the nodes shortens the soft limit, a
    /// new best move, one sharing the tree, or a falling score lengthens it.
    #[test]
    fn timeman_follows_stability_node_share_and_score_drop() {
        let tm = timeman_on();
        let soft = |t: Trend| PLAN.soft_for(&tm, &t);
        let settled = soft(trend(6, 0.95, 0));
        assert!(settled < PLAN.soft, "{settled:?}");
        assert!(soft(trend(0, 0.6, 0)) > PLAN.soft);
        // Each signal on its own, the others held.
        assert!(soft(trend(1, 0.6, 0)) > soft(trend(4, 0.6, 0)));
        assert!(soft(trend(3, 0.4, 0)) > soft(trend(3, 0.9, 0)));
        assert!(soft(trend(3, 0.6, 40)) > soft(trend(3, 0.6, 0)));
        // A rising score is no reason for more time, nor for less.
        assert_eq!(soft(trend(3, 0.6, -40)), soft(trend(3, 0.6, 0)));
        // Without a node share (MultiPV) that factor is neutral.
        let no_share = Trend {
            best_share: None,
            ..trend(3, 0.0, 0)
        };
        assert!(soft(no_share) < soft(trend(3, 0.0, 0)));
    }

    /// [timeman] Whatever the trend and the parameters (anywhere in their declared ranges),
    /// the scaled soft limit stays within [soft · min, min(soft · max, hard)] and is at least
    /// 1 ms; switched off or on `movetime` it is the plan's, exactly.
    #[test]
    fn timeman_stays_within_its_bounds_and_off_is_the_plan() {
        let specs: Vec<_> = crate::options::all()
            .into_iter()
            .filter(|s| s.tag == Some("timeman"))
            .filter_map(|s| match s.kind {
                crate::options::Kind::Spin { min, max, .. } => Some((s.name, min, max)),
                _ => None,
            })
            .collect();
        assert!(specs.len() >= 10);
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |lo: i64, hi: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            lo + (seed % (hi - lo + 1) as u64) as i64
        };
        let plans = [
            PLAN,
            TimePlan {
                soft: Duration::from_millis(7),
                hard: Duration::from_millis(9),
                exact: false,
            },
            TimePlan {
                soft: Duration::from_millis(1),
                hard: Duration::from_millis(1),
                exact: false,
            },
        ];
        for round in 0..3000 {
            let mut cfg = crate::search::config::SearchConfig::default();
            cfg.timeman.enabled = true;
            for &(name, min, max) in &specs {
                // The extremes often, anything between otherwise.
                let v = match next(0, 3) {
                    0 => min,
                    1 => max,
                    _ => next(min, max),
                };
                assert_eq!(cfg.set_option(name, Some(&v.to_string())), Ok(true));
            }
            let tm = cfg.timeman.clone();
            let t = Trend {
                stable: next(0, 40) as u32,
                best_share: (round % 5 != 0).then(|| next(0, 1000) as f64 / 1000.0),
                drop: next(-3000, 3000) as i32 * if round % 7 == 0 { 20 } else { 1 },
            };
            for plan in plans {
                let got = plan.soft_for(&tm, &t);
                let lo = plan.soft.mul_f64(f64::from(tm.scale_min) / 100.0);
                let hi = plan.soft.mul_f64(f64::from(tm.scale_max) / 100.0);
                let ms = Duration::from_millis(1);
                assert!(got <= plan.hard, "{tm:?} {t:?} {plan:?}: {got:?}");
                assert!(got >= lo.min(plan.hard).max(ms), "{tm:?} {t:?}: {got:?}");
                assert!(got <= hi.max(ms), "{tm:?} {t:?}: {got:?}");
                let mut off = tm.clone();
                off.enabled = false;
                assert_eq!(plan.soft_for(&off, &t), plan.soft);
                let exact = TimePlan {
                    exact: true,
                    ..plan
                };
                assert_eq!(exact.soft_for(&tm, &t), exact.soft);
            }
        }
    }

    /// [timeman] The trend read from the iterations: the best move's run, the drop over
    /// `lag` iterations, the node share.
    #[test]
    fn the_trend_is_read_from_the_iterations() {
        let (a, b): (cozy_chess::Move, cozy_chess::Move) =
            ("e2e4".parse().unwrap(), "d2d4".parse().unwrap());
        let its: Vec<Iteration> = [(a, 10), (a, 20), (b, 30), (b, 0), (b, -20)]
            .into_iter()
            .enumerate()
            .map(|(i, (best, score))| Iteration {
                depth: i as i32 + 1,
                score,
                best,
                nodes: 1000 * (i as u64 + 1),
                ms: 0,
            })
            .collect();
        let t = Trend::of(&its, Some(4000), 3).unwrap();
        assert_eq!(t, trend(2, 0.8, 40));
        assert_eq!(Trend::of(&its, None, 1).unwrap().drop, 20);
        // Fewer iterations than the lag: no drop known.
        assert_eq!(Trend::of(&its, None, 5).unwrap().drop, 0);
        assert_eq!(Trend::of(&its[..1], None, 1).unwrap().stable, 0);
        assert!(Trend::of(&[], None, 3).is_none());
    }

    #[test]
    fn tiny_clock_leaves_a_margin() {
        let l = Limits {
            wtime: Some(1000),
            winc: Some(10),
            ..Default::default()
        };
        let p = l.plan(true, 1, 30, &Latency::default(), &off()).unwrap();
        assert!(p.hard.as_millis() <= 388, "{p:?}");
        assert!(p.soft <= p.hard);
        let l = Limits {
            btime: Some(5),
            ..Default::default()
        };
        let p = l.plan(false, 1, 30, &Latency::default(), &off()).unwrap();
        assert_eq!(p.hard.as_millis(), 1);
        assert!(Limits {
            depth: Some(3),
            ..Default::default()
        }
        .plan(true, 1, 30, &Latency::default(), &off())
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
            let p = l.plan(true, 1, 30, &Latency::default(), &off()).unwrap();
            assert!(p.hard.as_millis() <= 75, "{l:?}: {p:?}");
        }
        let l = Limits {
            movetime: Some(500),
            ..Default::default()
        };
        assert_eq!(
            l.plan(true, 1, 30, &Latency::default(), &off())
                .unwrap()
                .hard
                .as_millis(),
            470
        );
    }
}
