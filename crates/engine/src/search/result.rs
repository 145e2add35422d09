//! What a search returns (`SearchResult`, with one `Iteration` per completed depth) and the
//! flags through which another thread stops it or ends a ponder (`Control`).

use super::stats::SearchStats;
use cozy_chess::Move;
use std::sync::atomic::AtomicBool;

/// Flags shared between the UCI thread and the search thread.
#[derive(Default)]
pub struct Control {
    pub stop: AtomicBool,
    /// While set, time limits do not apply (a `go ponder` waiting for `ponderhit`).
    pub pondering: AtomicBool,
    /// The job's answer (a search's `bestmove`, a perft's count) is going out: a command
    /// that waits for the job joins it instead of answering `isready` ahead of its own output.
    pub answered: AtomicBool,
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
    /// The main thread's counters (a textbook search: its nodes and leaf evaluations).
    pub stats: SearchStats,
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
