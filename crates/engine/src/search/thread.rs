//! One search thread: its own data, kept from search to search (`ThreadData`: the position,
//! histories, the per-ply stack, counters), and `Searcher`, which runs one search with it
//! against the team's shared context and settings.

use super::config::{LmrTable, SearchConfig};
use super::history::{
    CaptureHistory, ContinuationHistory, CorrectionHistory, CounterMoves, History, PieceTo,
};
use super::limits::TimePlan;
use super::margins::{MarginLog, MarginRule, MarginSample};
use super::result::Control;
use super::stack::Stack;
use super::stats::SearchStats;
use super::strength::Strength;
use super::tt::TranspositionTable;
use crate::eval::tapered::PawnCache;
use crate::eval::{self, EvalKind};
use crate::position::Position;
use crate::tablebase::Syzygy;
use cozy_chess::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What all threads of a team share during a search.
pub struct SearchShared {
    pub tt: TranspositionTable,
    /// The GUI's side: `stop` and `ponderhit` reach the main thread through it.
    pub control: Arc<Control>,
    /// Raised by the main thread when it is done, to stop the helpers.
    pub helpers_stop: AtomicBool,
    /// Nodes of all threads, added in chunks of 1024, for `info nodes/nps`.
    pub nodes: AtomicU64,
    /// [syzygy] The tables and how to use them (engine-wide options).
    pub syzygy: Syzygy,
    /// [syzygy] Tablebase probes answered by all threads in this search, for `info tbhits`.
    pub tbhits: AtomicU64,
}

/// What a search thread keeps. Histories persist across the searches of a game; the stack,
/// counters and root lists are reset by each search.
#[derive(Default)]
pub struct ThreadData {
    pub(crate) pos: Position,
    pub(crate) stack: Stack,
    pub(crate) history: History,
    /// [conthist] Quiet moves' scores after a given previous move.
    pub(crate) cont_history: ContinuationHistory,
    /// [countermove] The quiet move that last refuted each previous move.
    pub(crate) counter_moves: CounterMoves,
    /// [capthist] Captures' scores by piece, target and victim.
    pub(crate) capture_history: CaptureHistory,
    /// [corrhist] The static eval's average error per pawn structure.
    pub(crate) corr_history: CorrectionHistory,
    /// [pawncache] The evaluation's pawn-and-king terms of recent structures.
    pub(crate) pawn_cache: PawnCache,
    pub stats: SearchStats,
    /// Ply count of the root position, for repetition detection inside the tree.
    pub(crate) root_ply: usize,
    pub(crate) seldepth: usize,
    /// The depth of the current iteration: [se] extensions stop at twice it.
    pub(crate) root_depth: i32,
    /// [nmp] Null moves are tried only from this ply on; a verification search moves it
    /// beyond its subtree so that the verification cannot itself rely on null moves.
    pub(crate) nmp_min_ply: usize,
    /// [probcut] [mpc] Inside a shallow search of theirs, where they are not applied again.
    pub(crate) probcut_nesting: u32,
    /// MultiPV: root moves already reported in this iteration.
    pub(crate) root_skip: Vec<Move>,
    /// `go searchmoves`: the only root moves searched (empty: all).
    pub(crate) root_only: Vec<Move>,
    /// [timeman] Nodes searched under each root move in this search.
    pub(crate) root_nodes: Vec<(Move, u64)>,
    /// [margins] Where the margin rules were tried, for the lab; `None` (the default) records
    /// nothing.
    pub(crate) margin_log: Option<MarginLog>,
}

impl ThreadData {
    /// Forget everything learned in earlier games (`ucinewgame`).
    pub fn new_game(&mut self) {
        self.stack.clear();
        self.history.clear();
        self.cont_history.clear();
        self.capture_history.clear();
        self.counter_moves.clear();
        self.corr_history.clear();
    }

    /// Plays `mv` at `ply`. Every move of the search is made here and taken back by
    /// `unmake`: the one place where state kept incrementally along the line (an
    /// evaluator's accumulators) is pushed and popped. `piece_to` is `mv`'s continuation
    /// key, recorded for the child where continuation history is read (quiescence passes
    /// `None`: nothing below it reads one, and it saves the lookup in the hottest loop).
    #[inline]
    pub(crate) fn make(
        &mut self,
        tt: &TranspositionTable,
        ply: usize,
        mv: Move,
        piece_to: Option<PieceTo>,
    ) {
        let child = &mut self.stack[ply + 1];
        child.mv = Some(mv);
        child.piece_to = piece_to;
        self.pos.make_then(mv, |key| tt.prefetch(key));
    }

    /// [nmp] Passes at `ply`.
    #[inline]
    pub(crate) fn make_null(&mut self, tt: &TranspositionTable, ply: usize) {
        self.stack[ply + 1].mv = None;
        self.stack[ply + 1].piece_to = None;
        self.pos.make_null_then(|key| tt.prefetch(key));
    }

    #[inline]
    pub(crate) fn unmake(&mut self) {
        self.pos.unmake();
    }

    /// [margins] Records a node where a margin rule was tried (only while the lab logs).
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn log_margin(
        &mut self,
        rule: MarginRule,
        depth: i32,
        bound: i32,
        estimate: i32,
        improving: bool,
        mv: Option<Move>,
        reduced_depth: i32,
    ) {
        let board = self.pos.board().clone();
        if let Some(log) = self.margin_log.as_mut() {
            log.record(MarginSample {
                rule,
                board,
                depth,
                bound,
                estimate,
                improving,
                mv,
                reduced_depth,
            });
        }
    }

    /// [timeman] Counts `nodes` more under the root move `mv`.
    pub(crate) fn add_root_nodes(&mut self, mv: Move, nodes: u64) {
        match self.root_nodes.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, n)) => *n += nodes,
            None => self.root_nodes.push((mv, nodes)),
        }
    }

    /// [timeman] The nodes searched under the root move `mv` so far.
    pub(crate) fn root_nodes_of(&self, mv: Move) -> u64 {
        self.root_nodes
            .iter()
            .find(|(m, _)| *m == mv)
            .map_or(0, |&(_, n)| n)
    }
}

/// The main thread's clock and limits.
pub(crate) struct Clock {
    pub start: Instant,
    pub plan: Option<TimePlan>,
    pub node_limit: Option<u64>,
    /// A `go ponder` whose `ponderhit` has not come yet.
    pub was_pondering: bool,
}

/// One search by one thread. It holds the thread's data and a copy of the settings by value
/// for the length of the search (the hot path reads them with one load less than through a
/// reference); `finish` hands the data back.
pub(crate) struct Searcher<'a> {
    pub td: ThreadData,
    pub cfg: SearchConfig,
    pub shared: &'a SearchShared,
    pub lmr: &'a LmrTable,
    /// The main thread reports, keeps the clock and ages the table; helpers do none of it.
    pub main: bool,
    /// What stops this thread: the GUI's `stop` for the main thread, the main thread's end
    /// for a helper.
    stop: &'a AtomicBool,
    pub clock: Clock,
    /// Set once a limit or `stop` is hit; every node then returns at once.
    pub stopped: bool,
    /// [syzygy] The most pieces an interior node may have to be probed in this search (0: no
    /// probes: no tables, or the root was ranked by DTZ and the search needs no more).
    pub tb_cardinality: usize,
    /// [syzygy] The root's result by the tables, reported instead of a search score that is
    /// no mate.
    pub tb_root_score: Option<i32>,
    /// [strength] The weak mode of this `go` (the main thread's; helpers search as ever).
    pub strength: Option<Strength>,
}

impl<'a> Searcher<'a> {
    pub fn new(
        td: ThreadData,
        shared: &'a SearchShared,
        cfg: &SearchConfig,
        lmr: &'a LmrTable,
        main: bool,
    ) -> Self {
        let stop = if main {
            &shared.control.stop
        } else {
            &shared.helpers_stop
        };
        Searcher {
            td,
            cfg: cfg.clone(),
            shared,
            lmr,
            main,
            stop,
            clock: Clock {
                start: Instant::now(),
                plan: None,
                node_limit: None,
                was_pondering: false,
            },
            stopped: false,
            tb_cardinality: 0,
            tb_root_score: None,
            strength: None,
        }
    }

    /// Starts a search of `pos`: resets what lasts one search (histories stay).
    pub fn begin(&mut self, pos: &Position) {
        let td = &mut self.td;
        td.stats = SearchStats::default();
        td.pos = pos.clone();
        // [nnue] The network's accumulators ride on the search's own position and follow its
        // make/unmake; the network is this engine's own (its settings').
        if self.cfg.eval == EvalKind::Nnue {
            td.pos.attach_nnue(self.cfg.network.clone());
        } else {
            td.pos.detach_nnue();
        }
        td.root_ply = pos.ply_count();
        td.seldepth = 0;
        td.nmp_min_ply = 0;
        td.probcut_nesting = 0;
        td.root_nodes.clear();
        td.stack.clear();
        self.stopped = false;
        self.clock.start = Instant::now();
    }

    /// The thread's data, for the next search.
    pub fn finish(self) -> ThreadData {
        self.td
    }

    #[inline]
    pub fn evaluate(&mut self) -> i32 {
        self.td.stats.evals += 1;
        // [lazynnue] The search's makes leave the network's update to the evaluation.
        self.td.pos.refresh_nnue();
        eval::evaluate_cached(
            &self.td.pos,
            self.cfg.eval,
            &self.cfg.network,
            self.cfg.king_safety,
            &mut self.td.pawn_cache,
        )
    }

    /// Node-count and clock check; time is looked at every 1024 nodes.
    #[inline]
    pub fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let nodes = self.td.stats.nodes;
        if self.clock.node_limit.is_some_and(|n| nodes >= n) {
            self.stopped = true;
            return true;
        }
        if nodes & 1023 == 0 {
            self.shared.nodes.fetch_add(1024, Ordering::Relaxed);
            if self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
                return true;
            }
            let pondering = self.shared.control.pondering.load(Ordering::Relaxed);
            if self.clock.was_pondering && !pondering {
                // ponderhit: our clock starts now.
                self.clock.start = Instant::now();
                self.clock.was_pondering = false;
            }
            if let Some(plan) = self.clock.plan {
                if !pondering && self.clock.start.elapsed() >= plan.hard {
                    self.stopped = true;
                    return true;
                }
            }
        }
        false
    }
}
