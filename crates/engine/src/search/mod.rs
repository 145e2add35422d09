//! The engine's search: iterative deepening with aspiration windows around a PVS negamax with
//! a transposition table, quiescence search and the selective techniques of `SearchConfig`.
//! Each technique block starts with its `// [tag]` comment; `stats::Technique` has its counter.

pub mod config;
pub mod history;
pub mod limits;
pub mod ordering;
pub mod probcut;
pub mod stats;
pub mod textbook;
pub mod threads;
pub mod tt;

use crate::eval::{self, EvalKind};
use crate::position::Position;
use config::SearchConfig;
use cozy_chess::{Move, Piece};
use history::{
    pawn_key, CaptureHistory, ContinuationHistory, CorrectionHistory, PieceTo, QuietScore,
};
use limits::{Limits, TimePlan};
use ordering::{is_noisy, see_ge, History, Killers, MoveBuffers, MovePicker, PickerOptions};
use probcut::{Pair, Stage};
use stats::{SearchStats, Technique};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tt::{Bound, TranspositionTable};

pub const MAX_PLY: usize = 128;
pub const MAX_DEPTH: i32 = 100;
/// Depth for a textbook algorithm when `go` names none.
pub const TEXTBOOK_DEFAULT_DEPTH: i32 = 5;
pub const INF: i32 = 32001;
pub const MATE: i32 = 32000;
/// Scores beyond this are mates (in at most MAX_PLY plies).
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// Flags shared between the UCI thread and the search thread.
#[derive(Default)]
pub struct Control {
    pub stop: AtomicBool,
    /// While set, time limits do not apply (a `go ponder` waiting for `ponderhit`).
    pub pondering: AtomicBool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub pv: Vec<Move>,
    /// One entry per completed iteration: what the search knew after each depth.
    pub iterations: Vec<Iteration>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    pub depth: i32,
    pub score: i32,
    pub best: Move,
    /// Nodes searched so far in this `go`, and milliseconds elapsed.
    pub nodes: u64,
    pub ms: u64,
}

/// UCI score text: `cp N` or `mate N` (moves, negative when we are mated).
pub fn score_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

/// Mate scores are stored relative to the node (distance to mate from here), so a TT entry
/// is right at whatever ply the position recurs.
#[inline]
pub(crate) fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
pub(crate) fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

pub struct Searcher {
    pub config: SearchConfig,
    pub tt: Arc<TranspositionTable>,
    pub stats: SearchStats,
    pub control: Arc<Control>,
    /// Print UCI `info` lines while searching.
    pub verbose: bool,
    pos: Position,
    root_ply: usize,
    killers: Killers,
    history: History,
    buffers: MoveBuffers,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    eval_stack: [i32; MAX_PLY + 2],
    /// The move that led to each ply; `None` for a null move.
    move_stack: [Option<Move>; MAX_PLY + 2],
    /// [conthist] The moved piece and target of the move that led to each ply (`None` for a
    /// null move and at the root).
    piece_to_stack: [Option<PieceTo>; MAX_PLY + 2],
    /// [corrhist] The uncorrected static eval of each ply, which is what the TT keeps.
    raw_eval_stack: [i32; MAX_PLY + 2],
    cont_history: ContinuationHistory,
    corr_history: CorrectionHistory,
    capture_history: CaptureHistory,
    lmr_table: Vec<[i32; 64]>,
    start: Instant,
    plan: Option<TimePlan>,
    node_limit: Option<u64>,
    was_pondering: bool,
    stopped: bool,
    seldepth: usize,
    root_skip: Vec<Move>,
    root_only: Vec<Move>,
    /// Inside a ProbCut/MPC shallow search, where those are not applied again.
    probcut_nesting: u32,
    /// A Lazy SMP helper: silent, and does not age the shared table.
    pub helper: bool,
    /// Node total of all threads of a team, added to every 1024 nodes.
    pub shared_nodes: Option<Arc<std::sync::atomic::AtomicU64>>,
}

impl Searcher {
    pub fn new(config: SearchConfig, tt: Arc<TranspositionTable>, control: Arc<Control>) -> Self {
        let mut s = Searcher {
            config,
            tt,
            stats: SearchStats::default(),
            control,
            verbose: false,
            pos: Position::startpos(),
            root_ply: 0,
            killers: Killers::new(MAX_PLY),
            history: History::default(),
            buffers: MoveBuffers::new(MAX_PLY + 2),
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 2],
            eval_stack: [0; MAX_PLY + 2],
            move_stack: [None; MAX_PLY + 2],
            piece_to_stack: [None; MAX_PLY + 2],
            raw_eval_stack: [0; MAX_PLY + 2],
            cont_history: ContinuationHistory::default(),
            corr_history: CorrectionHistory::default(),
            capture_history: CaptureHistory::default(),
            lmr_table: Vec::new(),
            start: Instant::now(),
            plan: None,
            node_limit: None,
            was_pondering: false,
            stopped: false,
            seldepth: 0,
            root_skip: Vec::new(),
            root_only: Vec::new(),
            probcut_nesting: 0,
            helper: false,
            shared_nodes: None,
        };
        s.rebuild_lmr_table();
        s
    }

    /// Recomputes the reduction table after the LMR parameters change.
    pub fn rebuild_lmr_table(&mut self) {
        let (base, div) = (
            self.config.lmr.base as f64 / 100.0,
            (self.config.lmr.divisor as f64 / 100.0).max(0.1),
        );
        self.lmr_table = (0..=MAX_DEPTH as usize)
            .map(|d| {
                let mut row = [0i32; 64];
                for (m, r) in row.iter_mut().enumerate() {
                    if d > 0 && m > 0 {
                        *r = (base + (d as f64).ln() * (m as f64).ln() / div) as i32;
                    }
                }
                row
            })
            .collect();
    }

    /// Forget everything learned in earlier games (`ucinewgame`).
    pub fn new_game(&mut self) {
        self.killers.clear();
        self.history.clear();
        self.cont_history.clear();
        self.corr_history.clear();
        self.capture_history.clear();
        self.tt.clear();
    }

    pub fn eval_kind(&self) -> EvalKind {
        self.config.eval
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    #[inline]
    fn evaluate(&mut self) -> i32 {
        self.stats.evals += 1;
        eval::evaluate(&self.pos, self.config.eval)
    }

    /// [qsearch] The quiescence search alone from `pos` (full window, no limits): its score for
    /// the side to move and its principal variation, the captures (evasions in check) that
    /// lead to the quiet position it stands pat on. `augur-lab tune` evaluates that leaf.
    pub fn quiescence(&mut self, pos: &Position) -> (i32, Vec<Move>) {
        self.stats = SearchStats::default();
        self.stopped = false;
        self.pos = pos.clone();
        self.root_ply = self.pos.ply_count();
        self.plan = None;
        self.node_limit = None;
        self.was_pondering = false;
        let score = self.qsearch::<true>(0, -INF, INF);
        let pv = self.pv[0][..self.pv_len[0]]
            .iter()
            .flatten()
            .copied()
            .collect();
        (score, pv)
    }

    /// Runs a whole `go`: iterative deepening until a limit, printing `info` lines if verbose.
    /// With a textbook `Algorithm` selected, runs that algorithm to the requested depth instead.
    pub fn search(&mut self, pos: &Position, limits: &Limits) -> SearchResult {
        if self.config.algorithm != textbook::Algorithm::Engine {
            return self.search_textbook(pos, limits);
        }
        self.start = Instant::now();
        self.stats = SearchStats::default();
        self.stopped = false;
        self.pos = pos.clone();
        self.root_ply = self.pos.ply_count();
        self.plan = limits.plan(
            pos.side() == cozy_chess::Color::White,
            self.config.move_overhead.max(0) as u64,
        );
        self.node_limit = limits.nodes;
        self.was_pondering = self.control.pondering.load(Ordering::Relaxed);
        if !self.helper {
            self.tt.new_search();
        }
        self.killers.clear();

        let legal = pos.legal_moves();
        self.root_only = limits
            .searchmoves
            .iter()
            .filter_map(|t| pos.parse_uci(t).ok())
            .collect();
        let candidates = if self.root_only.is_empty() {
            legal.len()
        } else {
            self.root_only.len()
        };
        let mut result = SearchResult {
            best: legal.first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            pv: Vec::new(),
            iterations: Vec::new(),
        };
        self.seldepth = 0;
        if candidates == 0 {
            result.best = None;
            result.score = if pos.in_check() { -MATE } else { 0 };
            return result;
        }
        let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        if candidates == 1 && self.plan.is_some() && !limits.infinite && !limits.ponder {
            // A forced move on the clock: play it after a short look (for a ponder move),
            // keeping the time for later.
            max_depth = max_depth.min(4);
        }
        let multipv = (self.config.multipv.max(1) as usize).min(candidates);
        let mut prev_score = 0;

        'deepening: for depth in 1..=max_depth {
            self.root_skip.clear();
            let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
            for pv_index in 0..multipv {
                let score = self.aspiration(
                    depth,
                    if pv_index == 0 { prev_score } else { -INF },
                    pv_index,
                );
                if self.stopped {
                    break 'deepening;
                }
                let line: Vec<Move> = self.pv[0][..self.pv_len[0]]
                    .iter()
                    .flatten()
                    .copied()
                    .collect();
                let Some(&first) = line.first() else { break };
                self.root_skip.push(first);
                if self.verbose {
                    self.print_info(depth, pv_index + 1, score, None, &line);
                }
                lines.push((score, line));
            }
            let Some((score, line)) = lines.first().cloned() else {
                break;
            };
            prev_score = score;
            let mut iterations = std::mem::take(&mut result.iterations);
            iterations.push(Iteration {
                depth,
                score,
                best: line[0],
                nodes: self.stats.nodes,
                ms: self.start.elapsed().as_millis() as u64,
            });
            result = SearchResult {
                best: line.first().copied(),
                ponder: line.get(1).copied(),
                score,
                depth,
                pv: line,
                iterations,
            };
            // A proven mate does not change with more depth (the shortest one is inside the
            // horizon by now); stop unless a depth was asked for.
            if limits.depth.is_none()
                && score.abs() >= MATE_BOUND
                && depth >= MATE - score.abs() + 6
            {
                break;
            }
            if let Some(n) = limits.mate {
                if score >= MATE_BOUND && (MATE - score + 1) / 2 <= n {
                    break;
                }
            }
            if limits.soft_nodes.is_some_and(|n| self.stats.nodes >= n) {
                break;
            }
            if let Some(plan) = self.plan {
                let pondering = self.control.pondering.load(Ordering::Relaxed);
                // An iteration takes longer than the last, so stop well before the soft limit.
                if !pondering
                    && !limits.infinite
                    && !plan.exact
                    && self.start.elapsed() >= plan.soft * 6 / 10
                {
                    break;
                }
            }
        }
        if self.verbose {
            println!("info string stats {}", self.stats);
        }
        result
    }

    fn search_textbook(&mut self, pos: &Position, limits: &Limits) -> SearchResult {
        self.start = Instant::now();
        self.stats = SearchStats::default();
        let depth = limits.depth.unwrap_or(TEXTBOOK_DEFAULT_DEPTH);
        let cfg = textbook::TextbookConfig {
            eval: self.config.eval,
            qsearch: self.config.textbook_qsearch,
            mpd: self.config.spp_mpd,
            ..Default::default()
        };
        let algorithm = self.config.algorithm;
        let r = match textbook::run_with_stop(pos, algorithm, depth, &cfg, Some(&self.control.stop))
        {
            Ok(r) => r,
            Err(e) => {
                if self.verbose {
                    println!("info string error: {e}");
                }
                textbook::TextbookResult::default()
            }
        };
        self.stats.nodes = r.nodes;
        self.stats.evals = r.leaves;
        let best = r.best.or_else(|| pos.legal_moves().first().copied());
        if self.verbose {
            let ms = self.start.elapsed().as_millis();
            let nps = r.nodes as u128 * 1000 / ms.max(1);
            let pv = best.map(|m| pos.uci(m)).unwrap_or_default();
            if !r.aborted {
                println!(
                    "info depth {depth} score {} nodes {} nps {nps} time {ms} pv {pv}",
                    score_text(r.score),
                    r.nodes
                );
            }
            println!(
                "info string stats algorithm={algorithm} leaves={} nodes={} spp_cuts={} spp_pruned={} aborted={}",
                r.leaves, r.nodes, r.spp_cuts, r.spp_pruned, r.aborted
            );
        }
        SearchResult {
            best,
            ponder: None,
            score: r.score,
            depth,
            pv: best.into_iter().collect(),
            iterations: Vec::new(),
        }
    }

    /// [aspiration] Aspiration windows: search a narrow window around the previous score
    /// and widen on failure, since most iterations land close to the last one.
    fn aspiration(&mut self, depth: i32, guess: i32, pv_index: usize) -> i32 {
        let use_window = self.config.aspiration.enabled
            && depth >= self.config.aspiration.min_depth
            && pv_index == 0
            && guess.abs() < MATE_BOUND;
        let mut delta = self.config.aspiration.window.max(1);
        let (mut alpha, mut beta) = if use_window {
            self.stats.tried(Technique::Aspiration);
            ((guess - delta).max(-INF), (guess + delta).min(INF))
        } else {
            (-INF, INF)
        };
        loop {
            let score = self.negamax::<true>(depth, 0, alpha, beta, false);
            if self.stopped {
                return score;
            }
            if score <= alpha && alpha > -INF {
                self.stats.cut(Technique::Aspiration);
                if self.verbose && self.start.elapsed() > Duration::from_secs(1) {
                    self.report_bound(depth, score, "upperbound");
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
            } else if score >= beta && beta < INF {
                self.stats.cut(Technique::Aspiration);
                if self.verbose && self.start.elapsed() > Duration::from_secs(1) {
                    self.report_bound(depth, score, "lowerbound");
                }
                beta = (score + delta).min(INF);
            } else {
                return score;
            }
            delta = delta.saturating_mul(self.config.aspiration.growth) / 100;
            if delta > self.config.aspiration.max_window {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    fn report_bound(&self, depth: i32, score: i32, kind: &str) {
        let line: Vec<Move> = self.pv[0][..self.pv_len[0]]
            .iter()
            .flatten()
            .copied()
            .collect();
        self.print_info(depth, 1, score, Some(kind), &line);
    }

    fn print_info(
        &self,
        depth: i32,
        multipv: usize,
        score: i32,
        bound: Option<&str>,
        line: &[Move],
    ) {
        let elapsed = self.start.elapsed();
        let ms = elapsed.as_millis() as u64;
        // With helper threads, report the team's nodes (counted in chunks of 1024).
        let nodes = match &self.shared_nodes {
            Some(t) => t.load(Ordering::Relaxed).max(self.stats.nodes),
            None => self.stats.nodes,
        };
        let nps = (nodes as u128 * 1000 / (elapsed.as_millis().max(1))) as u64;
        let mut text = format!(
            "info depth {depth} seldepth {} multipv {multipv} score {}",
            self.seldepth.max(depth as usize),
            score_text(score)
        );
        if let Some(b) = bound {
            text.push(' ');
            text.push_str(b);
        }
        text.push_str(&format!(
            " nodes {nodes} nps {nps} hashfull {} time {ms} pv",
            self.tt.hashfull()
        ));
        let mut p = self.pos.clone();
        for &mv in line {
            if !p.board().is_legal(mv) {
                break;
            }
            text.push(' ');
            text.push_str(&p.uci(mv));
            p.make(mv);
        }
        println!("{text}");
    }

    /// Node-count and clock check; time is looked at every 1024 nodes.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(n) = self.node_limit {
            if self.stats.nodes >= n {
                self.stopped = true;
                return true;
            }
        }
        if self.stats.nodes & 1023 == 0 {
            if let Some(total) = &self.shared_nodes {
                total.fetch_add(1024, Ordering::Relaxed);
            }
            if self.control.stop.load(Ordering::Relaxed) {
                self.stopped = true;
                return true;
            }
            let pondering = self.control.pondering.load(Ordering::Relaxed);
            if self.was_pondering && !pondering {
                // ponderhit: our clock starts now.
                self.start = Instant::now();
                self.was_pondering = false;
            }
            if let Some(plan) = self.plan {
                if !pondering && self.start.elapsed() >= plan.hard {
                    self.stopped = true;
                    return true;
                }
            }
        }
        false
    }

    fn has_non_pawn_material(&self) -> bool {
        let b = self.pos.board();
        let side = b.colors(b.side_to_move());
        let pawns_and_king = b.pieces(Piece::Pawn) | b.pieces(Piece::King);
        !(side & !pawns_and_king).is_empty()
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = Some(mv);
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    fn negamax<const PV: bool>(
        &mut self,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        cut_node: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        let in_check = self.pos.in_check();

        // [checkext] Check extension: a side in check has few replies and the position is
        // forcing, so search it one ply deeper rather than risk a horizon blunder.
        if in_check && self.config.checkext.enabled && ply > 0 {
            self.stats.tried(Technique::CheckExt);
            depth += 1;
        }
        if depth <= 0 {
            if self.config.qsearch.enabled {
                return self.qsearch::<PV>(ply, alpha, beta);
            }
            // Without quiescence a leaf is scored as the textbook algorithms score it:
            // draw by rule, mate or stalemate, else the static evaluation.
            self.stats.nodes += 1;
            if ply > 0 && self.pos.is_draw(self.root_ply) {
                return 0;
            }
            if !self.pos.has_legal_move() {
                return if in_check { -MATE + ply as i32 } else { 0 };
            }
            return self.evaluate();
        }
        self.stats.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        if ply > 0 {
            if self.pos.is_draw(self.root_ply) {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { 0 } else { self.evaluate() };
            }
            // Mate-distance pruning: no line from here can beat a mate already found closer
            // to the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // [tt] Transposition table probe: reuse a result from an equal position searched at
        // least as deep, and its best move for ordering.
        let key = self.pos.hash();
        let entry = if self.config.tt.enabled {
            self.stats.tried(Technique::Tt);
            self.tt.probe(key)
        } else {
            None
        };
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(s) = entry
            .filter(|e| !PV && e.depth >= depth)
            .and_then(|e| e.cutoff(ply, alpha, beta))
        {
            self.stats.cut(Technique::Tt);
            return s;
        }

        let raw_eval = if in_check {
            -INF
        } else if let Some(e) = entry {
            e.eval
        } else {
            self.evaluate()
        };
        let static_eval = if in_check {
            -INF
        } else {
            self.corrected_eval(raw_eval)
        };
        self.raw_eval_stack[ply] = raw_eval;
        self.eval_stack[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.eval_stack[ply - 2];

        if !PV && !in_check && ply > 0 {
            if let Some(score) = self.probcut(depth, ply, alpha, beta, cut_node) {
                return score;
            }

            // [rfp] Reverse futility pruning: at shallow depth a static eval far above beta
            // will almost surely hold, so return it without searching.
            if self.config.rfp.enabled
                && depth <= self.config.rfp.max_depth
                && static_eval.abs() < MATE_BOUND
            {
                self.stats.tried(Technique::Rfp);
                let margin = self.config.rfp.margin * (depth - improving as i32);
                if static_eval - margin >= beta {
                    self.stats.cut(Technique::Rfp);
                    return static_eval;
                }
            }

            // [nmp] Null-move pruning: give the opponent a free move; if a reduced search still
            // fails high, a real move would too. Off in check, in pawn-only endings (zugzwang)
            // and after another null move; verified by a normal search at high depth.
            if self.config.nmp.enabled
                && depth >= self.config.nmp.min_depth
                && static_eval >= beta
                && self.move_stack[ply].is_some()
                && self.has_non_pawn_material()
            {
                self.stats.tried(Technique::Nmp);
                let nmp = &self.config.nmp;
                let r = nmp.reduction
                    + depth / nmp.depth_divisor.max(1)
                    + ((static_eval - beta) / nmp.eval_divisor.max(1)).min(nmp.eval_max);
                self.move_stack[ply + 1] = None;
                self.piece_to_stack[ply + 1] = None;
                self.pos.make_null();
                let score =
                    -self.negamax::<false>(depth - 1 - r, ply + 1, -beta, -beta + 1, !cut_node);
                self.pos.unmake();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    let score = if score >= MATE_BOUND { beta } else { score };
                    if depth < self.config.nmp.verify_depth {
                        self.stats.cut(Technique::Nmp);
                        return score;
                    }
                    self.config.nmp.enabled = false;
                    let verified = self.negamax::<false>(depth - 1 - r, ply, beta - 1, beta, false);
                    self.config.nmp.enabled = true;
                    if verified >= beta {
                        self.stats.cut(Technique::Nmp);
                        return score;
                    }
                }
            }

            if self.config.sfpc.enabled {
                let tt_score = entry.map(|e| (e.depth, score_from_tt(e.score, ply)));
                if let Some(score) = self.stockfish_probcut(
                    depth,
                    ply,
                    beta,
                    static_eval,
                    improving,
                    cut_node,
                    tt_move,
                    tt_score,
                ) {
                    return score;
                }
            }
        }

        // [iir] Internal iterative reduction: without a TT move the ordering is poor and the
        // node probably unimportant; search it a ply shallower.
        if self.config.iir.enabled
            && depth >= self.config.iir.min_depth
            && tt_move.is_none()
            && (PV || cut_node)
        {
            self.stats.tried(Technique::Iir);
            depth -= 1;
        }

        let killers = if self.config.killers.enabled {
            self.killers.get(ply)
        } else {
            [None; 2]
        };
        let mut picker = MovePicker::new(
            tt_move,
            killers,
            PickerOptions {
                noisy_only: false,
                use_see: true,
            },
            self.buffers.take(ply),
        );
        let mut best_score = -INF;
        let mut best_move = None;
        let mut legal = 0;
        let mut searched = 0;
        let mut quiets: [Option<Move>; 64] = [None; 64];
        let mut quiet_count = 0;
        let mut noisies: [Option<Move>; 32] = [None; 32];
        let mut noisy_count = 0;
        let original_alpha = alpha;
        let board = self.pos.board().clone();
        let prev_moves = self.cont_prev(ply);

        while let Some(mv) = picker.next(
            &board,
            Some(&QuietScore {
                main: self.config.history.enabled.then_some(&self.history),
                cont: &self.cont_history,
                prev: prev_moves,
                capture: self
                    .config
                    .capthist
                    .enabled
                    .then_some((&self.capture_history, self.config.capthist.divisor)),
            }),
        ) {
            if ply == 0
                && (self.root_skip.contains(&mv)
                    || (!self.root_only.is_empty() && !self.root_only.contains(&mv)))
            {
                continue;
            }
            legal += 1;
            let noisy = is_noisy(&board, mv);

            if ply > 0 && !in_check && !noisy && best_score > -MATE_BOUND {
                // [lmp] Late move pruning: at low depth, quiet moves this late in a well-ordered
                // list almost never matter.
                let mut prune = None;
                if self.config.lmp.enabled && !PV && depth <= self.config.lmp.max_depth {
                    self.stats.tried(Technique::Lmp);
                    let limit = (self.config.lmp.base + depth * depth) / (2 - improving as i32);
                    if searched >= limit {
                        prune = Some(Technique::Lmp);
                    }
                }
                // [futility] Futility pruning: a quiet move cannot lift a static eval this far
                // below alpha within the remaining depth.
                if prune.is_none()
                    && self.config.futility.enabled
                    && depth <= self.config.futility.max_depth
                    && searched > 0
                {
                    self.stats.tried(Technique::Futility);
                    if static_eval + self.config.futility.base + self.config.futility.margin * depth
                        <= alpha
                    {
                        prune = Some(Technique::Futility);
                    }
                }
                // Neither applies to a checking move: a quiet check can be a mate (WAC.001's
                // Qh7#), which no static margin foresees.
                if let Some(t) = prune {
                    let mut after = board.clone();
                    after.play_unchecked(mv);
                    if after.checkers().is_empty() {
                        self.stats.cut(t);
                        continue;
                    }
                }
            }

            let piece_to = PieceTo::of(&board, mv);
            self.move_stack[ply + 1] = Some(mv);
            self.piece_to_stack[ply + 1] = piece_to;
            self.pos.make(mv);
            let gives_check = self.pos.in_check();
            let new_depth = depth - 1;
            let score = if searched == 0 {
                -self.negamax::<PV>(new_depth, ply + 1, -beta, -alpha, false)
            } else {
                // [lmr] Late move reductions: quiet moves late in the ordering are searched
                // shallower first and re-searched at full depth only if they beat alpha.
                let mut r = 0;
                if self.config.lmr.enabled
                    && depth >= self.config.lmr.min_depth
                    && searched >= self.config.lmr.min_moves + PV as i32
                    && !noisy
                    && !in_check
                {
                    self.stats.tried(Technique::Lmr);
                    r = self.lmr_table[depth.min(MAX_DEPTH) as usize][(searched as usize).min(63)];
                    r -= PV as i32;
                    r -= gives_check as i32;
                    r -= killers.contains(&Some(mv)) as i32;
                    r += !improving as i32;
                    r += cut_node as i32;
                    if self.config.history.enabled || self.config.conthist.enabled {
                        let mut h = 0;
                        if self.config.history.enabled {
                            h += self.history.get(board.side_to_move(), mv);
                        }
                        // [conthist] The follow-up scores join the butterfly score, scaled.
                        if self.config.conthist.enabled {
                            let cont = QuietScore {
                                main: None,
                                cont: &self.cont_history,
                                prev: prev_moves,
                                capture: None,
                            };
                            h += cont.total(&board, mv, piece_to) * self.config.conthist.lmr_weight
                                / 100;
                        }
                        r -= h / self.config.lmr.history_divisor.max(1);
                    }
                    r = r.clamp(0, new_depth - 1).max(0);
                }
                if self.config.pvs.enabled {
                    // [pvs] Principal variation search: after the first move, prove each move
                    // worse with a null window; re-search with the full window only if it is not.
                    let mut s =
                        -self.negamax::<false>(new_depth - r, ply + 1, -alpha - 1, -alpha, true);
                    if r > 0 && s > alpha && !self.stopped {
                        self.stats.cut(Technique::Lmr);
                        s = -self.negamax::<false>(
                            new_depth,
                            ply + 1,
                            -alpha - 1,
                            -alpha,
                            !cut_node,
                        );
                    }
                    if PV && s > alpha && s < beta && !self.stopped {
                        self.stats.tried(Technique::Pvs);
                        self.stats.cut(Technique::Pvs);
                        s = -self.negamax::<true>(new_depth, ply + 1, -beta, -alpha, false);
                    } else if PV {
                        self.stats.tried(Technique::Pvs);
                    }
                    s
                } else {
                    let mut s = alpha + 1;
                    if r > 0 {
                        s = -self.negamax::<false>(
                            new_depth - r,
                            ply + 1,
                            -alpha - 1,
                            -alpha,
                            true,
                        );
                        if s > alpha {
                            self.stats.cut(Technique::Lmr);
                        }
                    }
                    if s > alpha && !self.stopped {
                        s = -self.negamax::<PV>(new_depth, ply + 1, -beta, -alpha, false);
                    }
                    s
                }
            };
            self.pos.unmake();
            searched += 1;
            if self.stopped {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if PV {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if !noisy {
                            self.reward_quiet(ply, mv, depth, &quiets[..quiet_count], killers);
                        }
                        self.reward_capture(mv, noisy, depth, &noisies[..noisy_count]);
                        break;
                    }
                }
            }
            if !noisy && quiet_count < quiets.len() {
                quiets[quiet_count] = Some(mv);
                quiet_count += 1;
            }
            if noisy && noisy_count < noisies.len() {
                noisies[noisy_count] = Some(mv);
                noisy_count += 1;
            }
        }

        self.buffers.give_back(ply, picker.into_buffer());
        if legal == 0 {
            if ply == 0 {
                return alpha;
            }
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if searched == 0 {
            // Every move was pruned: nothing here beats alpha.
            return alpha;
        }

        let bound = Bound::classify(best_score, original_alpha, beta);
        // [corrhist] Learn the eval's error from this node's result, unless the result is
        // only a bound on the wrong side of the eval (it says nothing about the error) or
        // comes from a capture (the eval of a position with hanging material is not at fault).
        if self.config.corrhist.enabled
            && !in_check
            && best_move.is_none_or(|m| !is_noisy(&board, m))
            && best_score.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.stats.cut(Technique::CorrHist);
            let c = &self.config.corrhist;
            let weight = ((depth + 1) * c.weight_per_ply).min(c.weight_max);
            self.corr_history.update(
                board.side_to_move(),
                pawn_key(&board),
                best_score - raw_eval,
                weight,
                c.limit,
            );
        }
        if self.config.tt.enabled {
            self.tt.store(
                key,
                best_move,
                score_to_tt(best_score, ply),
                raw_eval,
                depth,
                bound,
            );
        }
        best_score
    }

    /// [corrhist] The static eval plus what the correction history learned for this pawn
    /// structure; the raw eval unchanged when switched off.
    #[inline]
    fn corrected_eval(&mut self, raw_eval: i32) -> i32 {
        if !self.config.corrhist.enabled || raw_eval.abs() >= MATE_BOUND {
            return raw_eval;
        }
        self.stats.tried(Technique::CorrHist);
        let board = self.pos.board();
        let c = self.corr_history.get(board.side_to_move(), pawn_key(board));
        (raw_eval + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// [conthist] The previous moves whose continuation histories apply at `ply`: the
    /// opponent's last move and (with `ContHistPlies` 2) our own move before it.
    #[inline]
    fn cont_prev(&self, ply: usize) -> [Option<PieceTo>; 2] {
        let c = &self.config.conthist;
        if !c.enabled {
            return [None; 2];
        }
        let one = self.piece_to_stack[ply];
        let two = if c.plies >= 2 && ply >= 1 {
            self.piece_to_stack[ply - 1]
        } else {
            None
        };
        [one, two]
    }

    /// [probcut] ProbCut (Buro; Jiang & Buro in Crafty, Figure 2): at the check height, a shallow
    /// null-window search at a bound from the fitted model v = a·v' + b + e predicts whether the
    /// deep search would fail high (or low) with confidence T·σ, and cuts if so.
    /// [mpc] Multi-ProbCut (Figure 3): several depth pairs, stage-specific thresholds, never
    /// applied inside its own shallow searches. Both run before null move, as in Crafty.
    fn probcut(
        &mut self,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        cut_node: bool,
    ) -> Option<i32> {
        let cfg = &self.config;
        if !(cfg.probcut.enabled || cfg.mpc.enabled)
            || self.probcut_nesting > 0
            || beta.abs() >= MATE_BOUND
            || alpha.abs() >= MATE_BOUND
        {
            return None;
        }
        let stage = if eval::is_endgame_stage(self.pos.board()) {
            Stage::Endgame
        } else {
            Stage::Middlegame
        };
        let params = cfg.probcut.params.clone();
        let (technique, threshold, pairs): (Technique, f64, Vec<&Pair>) = if cfg.mpc.enabled {
            if depth > cfg.mpc.max_height {
                return None;
            }
            let t = if stage == Stage::Endgame {
                cfg.mpc.threshold_end
            } else {
                cfg.mpc.threshold_mid
            };
            (
                Technique::Mpc,
                t as f64 / 100.0,
                params
                    .for_height(stage, depth)
                    .take(cfg.mpc.tries.max(0) as usize)
                    .collect(),
            )
        } else {
            if depth != cfg.probcut.height {
                return None;
            }
            let pair = params.find(stage, cfg.probcut.shallow, cfg.probcut.height);
            (
                Technique::ProbCut,
                cfg.probcut.threshold as f64 / 100.0,
                pair.into_iter().collect(),
            )
        };
        for pair in pairs {
            let key = (stage, pair.shallow, pair.deep);
            // Is v >= beta likely?
            let bound = pair.high_bound(threshold, beta);
            if pair.in_range(bound) {
                self.stats.tried(technique);
                self.probcut_nesting += 1;
                let v = self.negamax::<false>(pair.shallow, ply, bound - 1, bound, cut_node);
                self.probcut_nesting -= 1;
                if self.stopped {
                    return Some(0);
                }
                self.stats.pair(key, v >= bound);
                if v >= bound {
                    self.stats.cut(technique);
                    return Some(beta);
                }
            }
            // Is v <= alpha likely?
            let bound = pair.low_bound(threshold, alpha);
            if pair.in_range(bound) {
                self.stats.tried(technique);
                self.probcut_nesting += 1;
                let v = self.negamax::<false>(pair.shallow, ply, bound, bound + 1, !cut_node);
                self.probcut_nesting -= 1;
                if self.stopped {
                    return Some(0);
                }
                self.stats.pair(key, v <= bound);
                if v <= bound {
                    self.stats.cut(technique);
                    return Some(alpha);
                }
            }
        }
        None
    }

    /// [sfpc] Stockfish-style ProbCut: if a good capture beats beta by a margin in qsearch and
    /// then in a reduced null-window search, the node will almost surely fail high. The
    /// verification depth follows `SfpcDepthRule` (fixed, the seed patch, or clamped).
    #[allow(clippy::too_many_arguments)]
    fn stockfish_probcut(
        &mut self,
        depth: i32,
        ply: usize,
        beta: i32,
        static_eval: i32,
        improving: bool,
        cut_node: bool,
        tt_move: Option<Move>,
        tt_score: Option<(i32, i32)>,
    ) -> Option<i32> {
        let cfg = &self.config.sfpc;
        if depth < cfg.min_depth || beta.abs() >= MATE_BOUND {
            return None;
        }
        let pc_beta = beta + cfg.margin - improving as i32 * cfg.improving;
        if tt_score.is_some_and(|(d, s)| d >= depth - cfg.tt_depth && s < pc_beta) {
            return None;
        }
        let pc_depth = cfg.depth_rule.verification_depth(
            depth,
            static_eval,
            beta,
            cfg.reduction,
            cfg.eval_divisor,
        );
        self.stats.tried(Technique::SfpcExtend);
        if pc_depth > (depth - cfg.reduction).max(0) {
            self.stats.cut(Technique::SfpcExtend);
        }
        self.stats.tried(Technique::Sfpc);
        let board = self.pos.board().clone();
        let tt_capture = tt_move.filter(|&m| is_noisy(&board, m));
        let mut picker = MovePicker::new(
            tt_capture,
            [None; 2],
            PickerOptions {
                noisy_only: true,
                use_see: false,
            },
            self.buffers.take(ply),
        );
        let key = self.pos.hash();
        let mut result = None;
        while let Some(mv) = picker.next(&board, None) {
            if mv.promotion.is_some_and(|p| p != Piece::Queen)
                || !see_ge(&board, mv, pc_beta - static_eval)
            {
                continue;
            }
            self.move_stack[ply + 1] = Some(mv);
            self.piece_to_stack[ply + 1] = PieceTo::of(&board, mv);
            self.pos.make(mv);
            let mut v = -self.qsearch::<false>(ply + 1, -pc_beta, -pc_beta + 1);
            if v >= pc_beta && pc_depth > 0 && !self.stopped {
                v = -self.negamax::<false>(pc_depth, ply + 1, -pc_beta, -pc_beta + 1, !cut_node);
            }
            self.pos.unmake();
            if self.stopped {
                return Some(0);
            }
            if v >= pc_beta {
                if self.config.tt.enabled {
                    self.tt.store(
                        key,
                        Some(mv),
                        score_to_tt(v, ply),
                        self.raw_eval_stack[ply],
                        pc_depth + 1,
                        Bound::Lower,
                    );
                }
                if v.abs() < MATE_BOUND {
                    self.stats.cut(Technique::Sfpc);
                    result = Some(v - (pc_beta - beta));
                    break;
                }
            }
        }
        self.buffers.give_back(ply, picker.into_buffer());
        result
    }

    /// [killers] [history] A quiet move that caused a cutoff becomes a killer for this ply and
    /// gains history; the quiet moves tried before it lose history.
    fn reward_quiet(
        &mut self,
        ply: usize,
        mv: Move,
        depth: i32,
        tried: &[Option<Move>],
        killers: [Option<Move>; 2],
    ) {
        if self.config.killers.enabled {
            self.stats.tried(Technique::Killers);
            if killers.contains(&Some(mv)) {
                self.stats.cut(Technique::Killers);
            }
            self.killers.add(ply, mv);
        }
        if self.config.history.enabled {
            let side = self.pos.side();
            let h = &self.config.history;
            let bonus = (depth * depth * h.bonus_scale).min(h.bonus_max);
            self.history.update(side, mv, bonus);
            for q in tried.iter().flatten() {
                self.history.update(side, *q, -bonus);
            }
        }
        // [conthist] The same reward and penalties in the rows of the previous moves.
        let prev = self.cont_prev(ply);
        if prev.iter().any(Option::is_some) {
            let h = &self.config.history;
            let bonus = (depth * depth * h.bonus_scale).min(h.bonus_max);
            let board = self.pos.board();
            let Some(pt) = PieceTo::of(board, mv) else {
                return;
            };
            self.stats.tried(Technique::ContHist);
            let before: i32 = prev
                .iter()
                .flatten()
                .map(|&p| self.cont_history.get(p, pt))
                .sum();
            if before > 0 {
                self.stats.cut(Technique::ContHist);
            }
            for &p in prev.iter().flatten() {
                self.cont_history.update(p, pt, bonus);
                for q in tried.iter().flatten() {
                    if let Some(qt) = PieceTo::of(board, *q) {
                        self.cont_history.update(p, qt, -bonus);
                    }
                }
            }
        }
    }

    /// [capthist] A capture that cut gains capture history; the captures tried before the
    /// cutting move (capture or quiet) lose it: they were ordered first and did not refute.
    fn reward_capture(&mut self, mv: Move, noisy: bool, depth: i32, tried: &[Option<Move>]) {
        if !self.config.capthist.enabled {
            return;
        }
        let h = &self.config.history;
        let bonus = (depth * depth * h.bonus_scale).min(h.bonus_max);
        let board = self.pos.board();
        if noisy {
            self.stats.tried(Technique::CaptHist);
            if self.capture_history.get(board, mv) > 0 {
                self.stats.cut(Technique::CaptHist);
            }
            self.capture_history.update(board, mv, bonus);
        }
        for q in tried.iter().flatten() {
            self.capture_history.update(board, *q, -bonus);
        }
    }

    /// [qsearch] Quiescence search: at the horizon, resolve captures and promotions (all
    /// evasions when in check) so that leaves are quiet; stand pat on the static eval.
    fn qsearch<const PV: bool>(&mut self, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv_len[ply] = 0;
        self.stats.nodes += 1;
        self.stats.qnodes += 1;
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        if self.pos.is_fifty_moves()
            || self.pos.is_insufficient_material()
            || self.pos.is_repetition(self.root_ply)
        {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate() };
        }

        let key = self.pos.hash();
        let entry = if self.config.tt.enabled {
            self.tt.probe(key)
        } else {
            None
        };
        if let Some(s) = entry
            .filter(|_| !PV)
            .and_then(|e| e.cutoff(ply, alpha, beta))
        {
            return s;
        }

        let static_eval;
        let mut best_score;
        if in_check {
            static_eval = -INF;
            best_score = -INF;
        } else {
            static_eval = match entry {
                Some(e) => e.eval,
                None => self.evaluate(),
            };
            // [corrhist] Stand pat on the corrected eval; the TT keeps the raw one.
            best_score = self.corrected_eval(static_eval);
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }

        let mut picker = MovePicker::new(
            entry.and_then(|e| e.mv),
            [None; 2],
            PickerOptions {
                noisy_only: true,
                use_see: false,
            },
            self.buffers.take(ply),
        );
        let board = self.pos.board().clone();
        let mut best_move = None;
        let mut any = false;
        while let Some(mv) = picker.next(&board, None) {
            any = true;
            // [qsee] SEE pruning in quiescence: a capture that loses material by exchange
            // cannot raise a stand-pat score, so skip it.
            if !in_check && self.config.qsee.enabled {
                self.stats.tried(Technique::Qsee);
                if !see_ge(&board, mv, self.config.qsee.margin) {
                    self.stats.cut(Technique::Qsee);
                    continue;
                }
            }
            self.pos.make(mv);
            let score = -self.qsearch::<PV>(ply + 1, -beta, -alpha);
            self.pos.unmake();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    if PV {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers.give_back(ply, picker.into_buffer());
        if in_check && !any {
            return -MATE + ply as i32;
        }
        if self.config.tt.enabled {
            let bound = if best_score >= beta {
                Bound::Lower
            } else {
                Bound::Upper
            };
            self.tt.store(
                key,
                best_move,
                score_to_tt(best_score, ply),
                static_eval.max(-MATE),
                0,
                bound,
            );
        }
        best_score
    }
}

#[cfg(test)]
mod tests {
    use super::textbook::{self, Algorithm, TextbookConfig};
    use super::*;

    const FENS: [&str; 6] = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/8/4k3/8/3K4/3P4/8/8 w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    ];

    fn searcher(cfg: SearchConfig) -> Searcher {
        Searcher::new(
            cfg,
            Arc::new(TranspositionTable::new(4)),
            Arc::new(Control::default()),
        )
    }

    fn search_fen(fen: &str, depth: i32) -> SearchResult {
        let pos = Position::from_fen(fen, false).unwrap();
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        searcher(SearchConfig::default()).search(&pos, &limits)
    }

    /// With every selective technique off (and the TT, whose deeper entries would mix depths,
    /// and quiescence, which the textbook leaves do not have), the engine's PVS with aspiration
    /// windows must return exactly the minimax value.
    #[test]
    fn without_selectivity_the_search_is_minimax() {
        for kind in [EvalKind::Classic, EvalKind::Default] {
            let mut cfg = SearchConfig::default().without_selectivity();
            cfg.eval = kind;
            cfg.tt.enabled = false;
            cfg.qsearch.enabled = false;
            cfg.checkext.enabled = false;
            cfg.iir.enabled = false;
            let tb = TextbookConfig {
                eval: kind,
                ..Default::default()
            };
            for fen in FENS {
                let pos = Position::from_fen(fen, false).unwrap();
                // Depth 4 minimax on the wide middle-game positions would take too long here.
                let max_depth = if pos.legal_moves().len() > 30 { 3 } else { 4 };
                for depth in 1..=max_depth {
                    let mm = textbook::run(&pos, Algorithm::Minimax, depth, &tb).unwrap();
                    let r = searcher(cfg.clone()).search(
                        &pos,
                        &Limits {
                            depth: Some(depth),
                            ..Default::default()
                        },
                    );
                    assert_eq!(r.score, mm.score, "{kind} depth {depth} {fen}");
                }
            }
        }
    }

    #[test]
    fn repeated_node_limited_searches_are_identical() {
        let pos = Position::from_fen(FENS[2], false).unwrap();
        let limits = Limits {
            nodes: Some(20_000),
            ..Default::default()
        };
        let mut a = searcher(SearchConfig::default());
        let ra = a.search(&pos, &limits);
        let mut b = searcher(SearchConfig::default());
        let rb = b.search(&pos, &limits);
        assert_eq!(a.stats, b.stats);
        assert_eq!(
            (ra.best, ra.score, ra.depth, &ra.pv),
            (rb.best, rb.score, rb.depth, &rb.pv)
        );
        let nodes = |r: &SearchResult| r.iterations.iter().map(|i| i.nodes).collect::<Vec<_>>();
        assert_eq!(nodes(&ra), nodes(&rb));
        assert_eq!(a.stats.nodes, 20_000);
    }

    /// A soft node limit ends the search after the iteration that crosses it, below the hard cap.
    #[test]
    fn soft_node_limit_stops_after_the_crossing_iteration() {
        let pos = Position::from_fen(FENS[2], false).unwrap();
        let limits = Limits {
            soft_nodes: Some(5_000),
            nodes: Some(10_000_000),
            ..Default::default()
        };
        let r = searcher(SearchConfig::default()).search(&pos, &limits);
        let n = r.iterations.len();
        assert!(n >= 2, "{:?}", r.iterations);
        assert!(r.iterations[n - 1].nodes >= 5_000);
        assert!(r.iterations[n - 2].nodes < 5_000);
        assert!(r.iterations[n - 1].nodes < 10_000_000);
    }

    #[test]
    fn finds_mates_with_the_right_distance() {
        // Mate in 1 (back rank, rook ladder, smothered-style knight), and mated in 1.
        let cases = [
            ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", MATE - 1),
            ("k7/8/1K6/8/8/8/8/6R1 w - - 0 1", MATE - 1),
            ("7k/8/8/8/8/1r6/r7/7K w - - 0 1", -MATE + 2),
            ("6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", MATE - 1),
        ];
        for (fen, want) in cases {
            let r = search_fen(fen, 6);
            assert_eq!(r.score, want, "{fen}: {}", score_text(r.score));
        }
        assert_eq!(score_text(MATE - 1), "mate 1");
        assert_eq!(score_text(MATE - 3), "mate 2");
        assert_eq!(score_text(-MATE + 2), "mate -1");
    }

    #[test]
    fn draws_by_repetition_and_fifty_moves_are_seen() {
        // White is two rooks down and facing Rb1 mate, but has perpetual check:
        // Qe8+ Kh7 Qh5+ Kg8 Qe8+ ... (each reply forced).
        let r = search_fen("6k1/6p1/8/7Q/8/8/rr6/7K w - - 0 1", 10);
        assert_eq!(r.score, 0, "perpetual: {}", score_text(r.score));
        // Fifty-move rule: a won KRK with the clock at 99 half-moves is a draw if no mate now.
        let r = search_fen("8/8/8/4k3/8/8/8/R3K3 w - - 99 80", 5);
        assert_eq!(r.score, 0, "{}", score_text(r.score));
    }

    /// Switched off, each history heuristic leaves the search node-for-node as it was, whatever
    /// its parameters, and its counter at 0; switched on, it is tried and changes the tree.
    #[test]
    fn history_heuristics_off_are_the_baseline() {
        let pos = Position::from_fen(FENS[2], false).unwrap();
        let limits = Limits {
            depth: Some(8),
            ..Default::default()
        };
        let run = |cfg: SearchConfig| {
            let mut s = searcher(cfg);
            s.search(&pos, &limits);
            s.stats
        };
        let mut plain = SearchConfig::default();
        plain.conthist.enabled = false;
        plain.capthist.enabled = false;
        plain.corrhist.enabled = false;
        let base = run(plain.clone());
        type Switch = fn(&mut SearchConfig, bool);
        let cases: [(Technique, Switch); 3] = [
            (Technique::CaptHist, |c, on| {
                c.capthist.enabled = on;
                c.capthist.divisor = 1;
            }),
            (Technique::ContHist, |c, on| {
                c.conthist.enabled = on;
                c.conthist.plies = 1;
                c.conthist.lmr_weight = 300;
            }),
            (Technique::CorrHist, |c, on| {
                c.corrhist.enabled = on;
                c.corrhist.limit = 7;
                c.corrhist.weight_max = 200;
            }),
        ];
        for (t, switch) in cases {
            let mut off = plain.clone();
            switch(&mut off, false);
            let stats = run(off);
            assert_eq!(stats.nodes, base.nodes, "{}", t.tag());
            assert_eq!((stats.tried[t as usize], stats.cut[t as usize]), (0, 0));
            let mut on = plain.clone();
            switch(&mut on, true);
            let stats = run(on);
            assert!(stats.tried[t as usize] > 0, "{stats}");
            assert!(stats.cut[t as usize] > 0, "{stats}");
            assert_ne!(stats.nodes, base.nodes, "{}", t.tag());
        }
    }

    /// Switched off, the ProbCut family leaves the search node-for-node as it was, whatever
    /// its parameters; switched on, each one changes the tree.
    #[test]
    fn probcut_family_off_is_the_baseline() {
        let pos = Position::from_fen(FENS[5], false).unwrap();
        let limits = Limits {
            depth: Some(9),
            ..Default::default()
        };
        let run = |cfg: SearchConfig| {
            let mut s = searcher(cfg);
            s.search(&pos, &limits);
            s.stats
        };
        let base = run(SearchConfig::default());
        let mut tweaked = SearchConfig::default();
        tweaked.probcut.threshold = 30;
        tweaked.probcut.params = Arc::new(probcut::ProbCutParams::default());
        tweaked.mpc.threshold_mid = 10;
        tweaked.sfpc.margin = 10;
        assert_eq!(run(tweaked).nodes, base.nodes);
        for enable in [
            |c: &mut SearchConfig| c.probcut.enabled = true,
            |c: &mut SearchConfig| {
                c.mpc.enabled = true;
                c.probcut.height = 5;
            },
            |c: &mut SearchConfig| c.sfpc.enabled = true,
        ] {
            let mut cfg = SearchConfig::default();
            cfg.probcut.height = 5;
            cfg.probcut.shallow = 3;
            enable(&mut cfg);
            let stats = run(cfg);
            assert_ne!(stats.nodes, base.nodes);
            let tried: u64 = [Technique::ProbCut, Technique::Mpc, Technique::Sfpc]
                .iter()
                .map(|&t| stats.tried[t as usize])
                .sum();
            assert!(tried > 0, "{stats}");
        }
    }
}
