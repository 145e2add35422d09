//! Lazy SMP: helper threads run the same iterative deepening on the same position and share
//! only the transposition table; their different timing fills it with different parts of the
//! tree, which the main thread profits from. Only the main thread reports and decides.

use super::config::SearchConfig;
use super::limits::Limits;
use super::tt::TranspositionTable;
use super::{Control, SearchResult, Searcher};
use crate::position::Position;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

pub struct SearchTeam {
    pub main: Searcher,
    helpers: Vec<Searcher>,
    helper_control: Arc<Control>,
    /// Nodes of all threads, added in chunks, for `info nodes/nps`.
    total_nodes: Arc<AtomicU64>,
}

impl SearchTeam {
    pub fn new(config: SearchConfig, tt: Arc<TranspositionTable>, control: Arc<Control>) -> Self {
        let mut main = Searcher::new(config, tt, control);
        let total_nodes = Arc::new(AtomicU64::new(0));
        main.shared_nodes = Some(total_nodes.clone());
        SearchTeam {
            main,
            helpers: Vec::new(),
            helper_control: Arc::new(Control::default()),
            total_nodes,
        }
    }

    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    /// Resizes the team; new helpers copy the main thread's settings.
    pub fn set_threads(&mut self, n: usize) {
        let n = n.max(1);
        self.helpers.truncate(n - 1);
        while self.helpers.len() < n - 1 {
            let mut h = Searcher::new(
                self.main.config.clone(),
                self.main.tt.clone(),
                self.helper_control.clone(),
            );
            h.helper = true;
            h.shared_nodes = Some(self.total_nodes.clone());
            self.helpers.push(h);
        }
    }

    /// Applies a change to every thread's searcher.
    pub fn for_each(&mut self, mut f: impl FnMut(&mut Searcher)) {
        f(&mut self.main);
        self.helpers.iter_mut().for_each(f);
    }

    /// Searches with all threads. `hold` runs on the main thread after its own search ends
    /// and before the helpers are stopped (used to wait for `stop` in infinite mode).
    pub fn search(&mut self, pos: &Position, limits: &Limits, hold: impl FnOnce()) -> SearchResult {
        self.total_nodes.store(0, Ordering::Relaxed);
        if self.helpers.is_empty()
            || self.main.config.algorithm != super::textbook::Algorithm::Engine
        {
            let r = self.main.search(pos, limits);
            hold();
            return r;
        }
        // Helpers have no clock: the main thread stops them when it is done.
        let helper_limits = Limits {
            depth: limits.depth,
            searchmoves: limits.searchmoves.clone(),
            ..Default::default()
        };
        self.helper_control.stop.store(false, Ordering::SeqCst);
        let control = self.helper_control.clone();
        let main = &mut self.main;
        let result = std::thread::scope(|scope| {
            for h in self.helpers.iter_mut() {
                let l = &helper_limits;
                // A thread the OS refuses (a process or memory limit) is a missing helper,
                // not a lost search: the others go on.
                let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                    h.search(pos, l);
                });
                if let Err(e) = spawned {
                    if main.verbose {
                        println!("info string error: cannot start a helper thread: {e}");
                    }
                    break;
                }
            }
            let r = main.search(pos, limits);
            hold();
            control.stop.store(true, Ordering::SeqCst);
            r
        });
        self.helper_control.stop.store(false, Ordering::SeqCst);
        result
    }
}
