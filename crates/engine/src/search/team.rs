//! The thread team: the search's one entry point. It owns the settings, the shared context
//! (transposition table, stop flags, node total) and each thread's data, and runs a `go`
//! either as the engine's search on all threads (Lazy SMP) or, in textbook mode, as one of
//! the thesis's fixed-depth algorithms on the same table.
//!
//! Lazy SMP: helper threads run the same iterative deepening on the same position and share
//! only the transposition table; their different timing fills it with different parts of the
//! tree, which the main thread profits from. Only the main thread reports and decides.

use super::config::{LmrTable, Mode, SearchConfig};
use super::limits::{Latency, Limits, TimePlan};
use super::margins::{MarginLog, MarginSample};
use super::report::{Reporter, Silent, Summary};
use super::result::{Control, SearchResult};
use super::stats::SearchStats;
use super::strength::Strength;
use super::textbook::{self, Algorithm, TextbookConfig};
use super::thread::{SearchShared, Searcher, ThreadData};
use super::tt::{ResizeError, TranspositionTable, TtError};
use crate::options::types::OptionError;
use crate::position::Position;
use crate::tablebase::Syzygy;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Depth for a textbook algorithm when `go` names none.
pub const TEXTBOOK_DEFAULT_DEPTH: i32 = 5;

pub struct SearchTeam {
    shared: SearchShared,
    config: SearchConfig,
    /// [lmr] Derived from `config.lmr`, rebuilt when it changes.
    lmr: LmrTable,
    /// The main thread's data first, then the helpers'.
    threads: Vec<ThreadData>,
    /// What the GUI's clock charges beyond the search's own time, learnt over a game.
    latency: Latency,
    /// [strength] The weak mode's seed when `StrengthSeed` is 0 (this process's own, so that
    /// games vary), and the `go`s since `ucinewgame` (so that a position met twice need not
    /// get the same move).
    own_seed: u64,
    goes: u64,
}

impl SearchTeam {
    /// One thread, a `hash_mib` table, its own control (see `with_control`).
    pub fn new(config: SearchConfig, hash_mib: usize) -> Result<Self, TtError> {
        Ok(SearchTeam {
            shared: SearchShared {
                tt: TranspositionTable::new(hash_mib)?,
                control: Arc::new(Control::default()),
                helpers_stop: AtomicBool::new(false),
                nodes: AtomicU64::new(0),
                syzygy: Syzygy::default(),
                tbhits: AtomicU64::new(0),
            },
            lmr: LmrTable::new(&config.lmr),
            config,
            threads: vec![ThreadData::default()],
            latency: Latency::default(),
            own_seed: process_seed(),
            goes: 0,
        })
    }

    /// Shares `control` with others (one `stop` for many teams).
    pub fn with_control(mut self, control: Arc<Control>) -> Self {
        self.shared.control = control;
        self
    }

    /// The flags through which another thread stops this team's search or ends a ponder.
    pub fn control(&self) -> &Arc<Control> {
        &self.shared.control
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    pub fn set_config(&mut self, config: SearchConfig) {
        self.lmr = LmrTable::new(&config.lmr);
        self.config = config;
    }

    /// [nnue] The network this team's searches evaluate with from the next search on.
    pub fn set_network(&mut self, network: Arc<crate::eval::nnue::Network>) {
        self.config.network = network;
    }

    /// `setoption` for the search's options; `Ok(false)` if `name` is not one of them.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<bool, OptionError> {
        let before = self.config.lmr.clone();
        let known = self.config.set_option(name, value)?;
        // [lmr] The table follows its parameters; a tuner sends every option before each
        // game, and most of them leave it as it is.
        if self.config.lmr != before {
            self.lmr = LmrTable::new(&self.config.lmr);
        }
        Ok(known)
    }

    /// [syzygy] The tables and their settings (`SyzygyPath` and the other engine options).
    pub fn syzygy(&self) -> &Syzygy {
        &self.shared.syzygy
    }

    pub fn syzygy_mut(&mut self) -> &mut Syzygy {
        &mut self.shared.syzygy
    }

    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Resizes the team; new helpers start with empty histories.
    pub fn set_threads(&mut self, n: usize) {
        self.threads.resize_with(n.max(1), ThreadData::default);
    }

    pub fn hash_mib(&self) -> usize {
        self.shared.tt.mib()
    }

    /// Resizes the table in place (emptied); on failure the error says which size was kept.
    pub fn resize_hash(&mut self, mib: usize) -> Result<(), ResizeError> {
        self.shared.tt.resize(mib)
    }

    /// Permille of the table written by the last search.
    pub fn hashfull(&self) -> u32 {
        self.shared.tt.hashfull()
    }

    pub fn clear_hash(&self) {
        self.shared.tt.clear();
    }

    /// Forget everything learned in earlier games (`ucinewgame`).
    pub fn new_game(&mut self) {
        self.latency = Latency::default();
        self.goes = 0;
        self.shared.tt.clear();
        self.threads.iter_mut().for_each(ThreadData::new_game);
    }

    /// [margins] From the next search on, the main thread records where reverse futility,
    /// futility and Stockfish-style ProbCut are tried (`window`: see `MarginLog`), until
    /// switched off with `None`. The lab's `margins collect` only; records accumulate over
    /// searches until taken.
    pub fn log_margins(&mut self, window: Option<i32>) {
        self.threads[0].margin_log = window.map(MarginLog::new);
    }

    /// [margins] The samples recorded since the last call (none when not logging).
    pub fn take_margin_samples(&mut self) -> Vec<MarginSample> {
        self.threads[0]
            .margin_log
            .as_mut()
            .map(|log| std::mem::take(&mut log.samples))
            .unwrap_or_default()
    }

    /// A silent search (bench, the lab, data generation).
    pub fn search(&mut self, pos: &Position, limits: &Limits) -> SearchResult {
        self.search_with(pos, limits, &mut Silent, || {})
    }

    /// Searches, telling `reporter` what it finds. `hold` runs on the main thread after its
    /// own search ends and before the helpers are stopped (the UCI loop waits there for
    /// `stop` in infinite and ponder mode).
    pub fn search_with(
        &mut self,
        pos: &Position,
        limits: &Limits,
        reporter: &mut dyn Reporter,
        hold: impl FnOnce(),
    ) -> SearchResult {
        self.shared.nodes.store(0, Ordering::Relaxed);
        self.shared.tbhits.store(0, Ordering::Relaxed);
        if let Mode::Textbook(algorithm) = self.config.algorithm {
            let r = self.textbook(algorithm, pos, limits, reporter);
            hold();
            return r;
        }
        let strength = self.strength(pos);
        let white = pos.side() == cozy_chess::Color::White;
        // Pondering time is not charged by the GUI: no latency sample across it.
        let clock = limits.own_clock(white).filter(|_| !limits.ponder);
        self.latency.observe(clock);
        let overhead = self.config.move_overhead.max(0) as u64;
        let plan = limits.plan(
            white,
            pos.board().fullmove_number() as u32,
            overhead,
            &self.latency,
            &self.config.timeman,
        );
        // Timed from here to the answer (helpers joined): the rest of what the GUI charges
        // is the latency.
        let started = Instant::now();
        let result = self.engine(pos, limits, plan, strength, reporter, hold);
        self.latency
            .searched(clock, started.elapsed().as_millis() as u64);
        result
    }

    /// The engine's search on all threads (Lazy SMP), the main thread on `plan`.
    fn engine(
        &mut self,
        pos: &Position,
        limits: &Limits,
        plan: Option<TimePlan>,
        strength: Option<Strength>,
        reporter: &mut dyn Reporter,
        hold: impl FnOnce(),
    ) -> SearchResult {
        let (shared, cfg, lmr) = (&self.shared, &self.config, &self.lmr);
        let mut tds = std::mem::take(&mut self.threads).into_iter();
        let main_td = tds.next().expect("a team has a main thread");
        let mut main = Searcher::new(main_td, shared, cfg, lmr, true);
        main.clock.plan = plan;
        main.strength = strength;
        if tds.len() == 0 {
            let r = main.iterate(pos, limits, reporter);
            hold();
            self.threads.push(main.finish());
            return r;
        }
        // Helpers have no clock: the main thread stops them when it is done.
        let helper_limits = Limits {
            depth: limits.depth,
            searchmoves: limits.searchmoves.clone(),
            ..Default::default()
        };
        shared.helpers_stop.store(false, Ordering::SeqCst);
        let (result, threads) = std::thread::scope(|scope| {
            let mut helpers = Vec::new();
            let mut idle = Vec::new();
            for td in tds.by_ref() {
                let l = &helper_limits;
                // A thread the OS refuses (a process or memory limit) is a missing helper,
                // not a lost search: the others go on (its data went with it).
                let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                    let mut h = Searcher::new(td, shared, cfg, lmr, false);
                    h.iterate(pos, l, &mut Silent);
                    h.finish()
                });
                match spawned {
                    Ok(handle) => helpers.push(handle),
                    Err(e) => {
                        reporter.error(&format!("cannot start a helper thread: {e}"));
                        idle.push(ThreadData::default());
                        break;
                    }
                }
            }
            let r = main.iterate(pos, limits, reporter);
            hold();
            shared.helpers_stop.store(true, Ordering::SeqCst);
            let mut threads = vec![main.finish()];
            // A helper that panicked leaves fresh data behind.
            threads.extend(helpers.into_iter().map(|h| h.join().unwrap_or_default()));
            threads.extend(idle);
            threads.extend(tds);
            (r, threads)
        });
        self.threads = threads;
        shared.helpers_stop.store(false, Ordering::SeqCst);
        result
    }

    /// [strength] The weak mode for this `go` when `UCI_LimitStrength` is on: its draw follows
    /// from the seed (`StrengthSeed`, or this process's own when 0), the position and the `go`s
    /// since `ucinewgame`.
    fn strength(&mut self, pos: &Position) -> Option<Strength> {
        if !self.config.limit_strength {
            return None;
        }
        self.goes += 1;
        let seed = match self.config.strength_seed {
            0 => self.own_seed,
            s => s as u64,
        };
        Some(Strength::new(self.config.elo, seed, pos.hash(), self.goes))
    }

    /// [qsearch] The quiescence search alone from `pos` on the main thread (full window, no
    /// limits): its score and principal variation (`Searcher::quiescence`).
    pub fn quiescence(&mut self, pos: &Position) -> (i32, Vec<cozy_chess::Move>) {
        // Moved out and back without building a placeholder (the tuner calls this per position).
        let main = self.threads.swap_remove(0);
        let mut s = Searcher::new(main, &self.shared, &self.config, &self.lmr, true);
        let r = s.quiescence(pos);
        self.threads.push(s.finish());
        let last = self.threads.len() - 1;
        self.threads.swap(0, last);
        r
    }

    /// [mtdf] [sss] [spp] A textbook algorithm to `go depth N` (default 5) on the team's
    /// table (cleared first, so trees are those of a fresh search, as in the lab) with the
    /// team's `AspirationWindow`.
    fn textbook(
        &mut self,
        algorithm: Algorithm,
        pos: &Position,
        limits: &Limits,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        let start = Instant::now();
        let depth = limits.depth.unwrap_or(TEXTBOOK_DEFAULT_DEPTH);
        let cfg = TextbookConfig {
            eval: self.config.eval,
            network: self.config.network.clone(),
            king_safety: self.config.king_safety,
            qsearch: self.config.textbook_qsearch,
            mpd: self.config.spp_mpd,
            aspiration_window: self.config.aspiration.window,
            tt_mib: self.shared.tt.mib(),
            log_siblings: false,
            // spp-dyn and sppt-auto run with their default rules in the engine.
            ..TextbookConfig::default()
        };
        self.shared.tt.clear();
        let stop = &self.shared.control.stop;
        let r = textbook::run_on(pos, algorithm, depth, &cfg, &self.shared.tt, Some(stop))
            .unwrap_or_else(|e| {
                reporter.error(&e);
                textbook::TextbookResult::default()
            });
        let best = r.best.or_else(|| pos.legal_moves().first().copied());
        let pv: Vec<_> = best.into_iter().collect();
        if !r.aborted {
            reporter.line(&super::report::Line {
                depth,
                seldepth: depth as usize,
                multipv: 1,
                score: r.score,
                bound: None,
                nodes: r.nodes,
                time: start.elapsed(),
                hashfull: self.shared.tt.hashfull(),
                tbhits: 0,
                pv: &pv,
                root: pos,
            });
        }
        reporter.summary(Summary::Textbook {
            algorithm,
            result: &r,
        });
        let stats = SearchStats {
            nodes: r.nodes,
            evals: r.leaves,
            ..Default::default()
        };
        SearchResult {
            best,
            ponder: None,
            score: r.score,
            depth,
            pv,
            iterations: Vec::new(),
            stats,
        }
    }
}

/// [strength] A seed of this process's own: the standard library's per-process random hash keys.
fn process_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}
