//! The driver of one thread's search: iterative deepening to the limits of a `go`, each
//! iteration an aspiration window around the last score (per MultiPV line), the time checks
//! between iterations, and the reports of the main thread.

use super::limits::{Limits, TimePlan, Trend};
use super::report::{Line, Reporter, Summary};
use super::result::{Iteration, SearchResult};
use super::score::{is_mate, INF, MATE, MATE_BOUND, MAX_DEPTH, TB_WIN};
use super::stats::{SearchStats, Technique};
use super::thread::Searcher;
use super::tt::Bound;
use crate::tablebase::TbScore;
use cozy_chess::Move;
use std::sync::atomic::Ordering;
use std::time::Duration;

impl Searcher<'_> {
    /// Runs a whole `go`: iterative deepening until a limit (the main thread's time plan is
    /// the team's, set in `clock.plan` beforehand).
    pub fn iterate(
        &mut self,
        pos: &crate::position::Position,
        limits: &Limits,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        self.begin(pos);
        if self.main {
            self.clock.node_limit = limits.nodes;
            self.clock.was_pondering = self.shared.control.pondering.load(Ordering::Relaxed);
            self.shared.tt.new_search();
        }

        let legal = pos.legal_moves();
        self.td.root_only = limits
            .searchmoves
            .iter()
            .filter_map(|t| pos.parse_uci(t).ok())
            .collect();
        self.rank_root_by_tables(pos, &legal);
        let candidates = if self.td.root_only.is_empty() {
            legal.len()
        } else {
            self.td.root_only.len()
        };
        let mut result = SearchResult {
            best: legal.first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            pv: Vec::new(),
            iterations: Vec::new(),
            stats: SearchStats::default(),
        };
        if candidates == 0 {
            result.best = None;
            result.score = if pos.in_check() { -MATE } else { 0 };
            return result;
        }
        let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        if candidates == 1 && self.clock.plan.is_some() && !limits.infinite && !limits.ponder {
            // A forced move on the clock: play it after a short look (for a ponder move),
            // keeping the time for later.
            max_depth = max_depth.min(4);
        }
        let asked = self.cfg.multipv.max(1) as usize;
        // [strength] The weak mode scores several root moves to choose among.
        let multipv = self
            .strength
            .map_or(asked, |s| s.multipv(asked))
            .min(candidates);
        let mut prev_score = 0;
        let mut completed: Vec<(i32, Vec<Move>)> = Vec::new();

        'deepening: for depth in 1..=max_depth {
            // [strength] The level's node cap binds once there are moves to choose among.
            if let Some(s) = self.strength.filter(|_| depth == 2) {
                self.clock.node_limit = Some(s.node_limit(limits.nodes));
            }
            self.td.root_skip.clear();
            self.td.root_depth = depth;
            let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
            for pv_index in 0..multipv {
                let guess = if pv_index == 0 { prev_score } else { -INF };
                let score = self.aspiration(depth, guess, pv_index, reporter);
                if self.stopped {
                    break 'deepening;
                }
                let line = self.td.stack.root_pv();
                let Some(&first) = line.first() else { break };
                self.td.root_skip.push(first);
                self.report(reporter, depth, pv_index + 1, score, None, &line);
                lines.push((score, line));
            }
            let Some((score, line)) = lines.first().cloned() else {
                break;
            };
            prev_score = score;
            result.iterations.push(Iteration {
                depth,
                score,
                best: line[0],
                nodes: self.td.stats.nodes,
                ms: self.clock.start.elapsed().as_millis() as u64,
            });
            result.best = line.first().copied();
            result.ponder = line.get(1).copied();
            (result.score, result.depth, result.pv) = (self.reported(score), depth, line);
            completed = lines;
            if self.enough(limits, &result.iterations, multipv > 1) {
                break;
            }
        }
        // [strength] UCI_LimitStrength: the move played is drawn among the root moves the last
        // completed iteration scored, the best the likeliest (strength.rs).
        if let Some(pick) = self.strength.and_then(|s| s.pick(&completed)) {
            let (score, line) = completed.swap_remove(pick);
            result.best = line.first().copied();
            result.ponder = line.get(1).copied();
            (result.score, result.pv) = (self.reported(score), line);
        }
        if self.main {
            reporter.summary(Summary::Engine(&self.td.stats));
        }
        result.stats = self.td.stats.clone();
        result
    }

    /// [syzygy] At the root within the tables, only the moves that keep the best result the
    /// tables promise are searched (Stockfish's ranks: with `Syzygy50MoveRule` a win must stay
    /// a win under the rule, and a slower one ranks lower once the counter runs short). With
    /// DTZ ranks the root's result is secured, so the search probes no further; with WDL
    /// ranks only, interior probes go on while the root is won, to find the way.
    fn rank_root_by_tables(&mut self, pos: &crate::position::Position, legal: &[Move]) {
        let syzygy = &self.shared.syzygy;
        self.tb_cardinality = syzygy.cardinality();
        self.tb_root_score = None;
        let Some(tables) = syzygy.tables.as_ref() else {
            return;
        };
        if pos.board().occupied().len() as usize > self.tb_cardinality {
            return;
        }
        let candidates = if self.td.root_only.is_empty() {
            legal
        } else {
            &self.td.root_only[..]
        };
        let Some(ranking) = tables.rank_root(pos, candidates, syzygy.fifty_move_rule) else {
            return;
        };
        if self.main {
            self.shared
                .tbhits
                .fetch_add(candidates.len() as u64, Ordering::Relaxed);
        }
        let top = ranking.best_rank();
        let score = ranking
            .moves
            .iter()
            .find(|m| m.rank == top)
            .map_or(0, |m| match m.score {
                TbScore::Win => TB_WIN,
                TbScore::Loss => -TB_WIN,
                TbScore::Cp(cp) => cp,
            });
        self.td.root_only = ranking.best();
        self.tb_root_score = Some(score);
        if ranking.by_dtz || score <= 0 {
            self.tb_cardinality = 0;
        }
    }

    /// [syzygy] The score to tell: the tables' for a root they rank, unless the search found
    /// a mate.
    fn reported(&self, score: i32) -> i32 {
        match self.tb_root_score {
            Some(tb) if !is_mate(score) => tb,
            _ => score,
        }
    }

    /// Whether to stop deepening after a completed iteration (the last of `iterations`).
    fn enough(&mut self, limits: &Limits, iterations: &[Iteration], multipv: bool) -> bool {
        let Some(&Iteration { depth, score, .. }) = iterations.last() else {
            return false;
        };
        // A proven mate does not change with more depth (the shortest one is inside the
        // horizon by now); stop unless a depth was asked for.
        if limits.depth.is_none() && score.abs() >= MATE_BOUND && depth >= MATE - score.abs() + 6 {
            return true;
        }
        if limits
            .mate
            .is_some_and(|n| score >= MATE_BOUND && (MATE - score + 1) / 2 <= n)
        {
            return true;
        }
        if limits.soft_nodes.is_some_and(|n| self.td.stats.nodes >= n) {
            return true;
        }
        let Some(plan) = self.clock.plan else {
            return false;
        };
        let pondering = self.shared.control.pondering.load(Ordering::Relaxed);
        if pondering || limits.infinite || plan.exact {
            return false;
        }
        // An iteration takes longer than the last, so stop well before the soft limit.
        let elapsed = self.clock.start.elapsed();
        let planned = elapsed >= plan.soft * 6 / 10;
        let soft = self.scaled_soft(plan, iterations, multipv);
        let stop = elapsed >= soft * 6 / 10;
        if self.cfg.timeman.enabled && depth >= self.cfg.timeman.min_depth {
            self.td.stats.tried(Technique::TimeMan);
            if stop && !planned {
                self.td.stats.cut(Technique::TimeMan);
            }
            if soft > plan.soft {
                self.td.stats.tried(Technique::TimeManExtend);
                if planned && !stop {
                    self.td.stats.cut(Technique::TimeManExtend);
                }
            }
        }
        stop
    }

    /// [timeman] The clock's soft limit rescaled by how the search is going: less while the
    /// best move stays and takes most of the nodes, more when it changes or the score falls.
    /// Iterations shallower than `TimeManMinDepth` keep the plan's.
    fn scaled_soft(&self, plan: TimePlan, iterations: &[Iteration], multipv: bool) -> Duration {
        let tm = &self.cfg.timeman;
        let deep_enough = iterations.last().is_some_and(|it| it.depth >= tm.min_depth);
        if !tm.enabled || !deep_enough {
            return plan.soft;
        }
        let best_nodes = iterations
            .last()
            .filter(|_| !multipv)
            .map(|it| self.td.root_nodes_of(it.best));
        match Trend::of(iterations, best_nodes, tm.score_lag) {
            Some(trend) => plan.soft_for(tm, &trend),
            None => plan.soft,
        }
    }

    /// [aspiration] Aspiration windows: search a narrow window around the previous score
    /// and widen on failure, since most iterations land close to the last one.
    fn aspiration(
        &mut self,
        depth: i32,
        guess: i32,
        pv_index: usize,
        reporter: &mut dyn Reporter,
    ) -> i32 {
        let asp = &self.cfg.aspiration;
        let use_window =
            asp.enabled && depth >= asp.min_depth && pv_index == 0 && guess.abs() < MATE_BOUND;
        let mut delta = asp.window.max(1);
        let (mut alpha, mut beta) = if use_window {
            self.td.stats.tried(Technique::Aspiration);
            ((guess - delta).max(-INF), (guess + delta).min(INF))
        } else {
            (-INF, INF)
        };
        loop {
            let score = self.negamax::<true>(depth, 0, alpha, beta, false);
            if self.stopped {
                return score;
            }
            let bound = if score <= alpha && alpha > -INF {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
                Bound::Upper
            } else if score >= beta && beta < INF {
                beta = (score + delta).min(INF);
                Bound::Lower
            } else {
                return score;
            };
            self.td.stats.cut(Technique::Aspiration);
            // A failed window is news only when the search is slow enough to be watched.
            if self.clock.start.elapsed() > Duration::from_secs(1) {
                let line = self.td.stack.root_pv();
                self.report(reporter, depth, 1, score, Some(bound), &line);
            }
            let asp = &self.cfg.aspiration;
            delta = delta.saturating_mul(asp.growth) / 100;
            if delta > asp.max_window {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    fn report(
        &self,
        reporter: &mut dyn Reporter,
        depth: i32,
        multipv: usize,
        score: i32,
        bound: Option<Bound>,
        pv: &[Move],
    ) {
        if !self.main {
            return;
        }
        // With helper threads, report the team's nodes (counted in chunks of 1024).
        let nodes = self
            .shared
            .nodes
            .load(Ordering::Relaxed)
            .max(self.td.stats.nodes);
        reporter.line(&Line {
            depth,
            seldepth: self.td.seldepth.max(depth as usize),
            multipv,
            score: self.reported(score),
            bound,
            nodes,
            time: self.clock.start.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            tbhits: self.shared.tbhits.load(Ordering::Relaxed),
            pv,
            root: &self.td.pos,
        });
    }
}
