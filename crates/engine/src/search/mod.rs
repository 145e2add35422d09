//! The search. `SearchTeam` (team.rs) is the entry point: it owns the settings (`config`),
//! the shared context (transposition table, stop flags, node count) and one `ThreadData` per
//! thread (thread.rs, with the per-ply `Stack` of stack.rs), runs a `go` in engine mode
//! (Lazy SMP) or textbook mode (textbook.rs) and returns a `SearchResult` (result.rs).
//!
//! One thread's search, by concept: deepening.rs (iterative deepening, aspiration windows,
//! time, reporting), negamax.rs (the node search, as numbered steps), qsearch.rs, probcut/
//! (the ProbCut family's models and cuts), moves.rs (what a move is: noisy, its victim,
//! check, SEE), ordering.rs (the move picker), history.rs (every learned table: butterfly,
//! continuation, counter-move, capture and correction histories).
//! Each technique block starts with its `// [tag]` comment; config.rs declares its switch,
//! parameters and counter. The tests across techniques are tests.rs.

pub mod config;
mod deepening;
pub mod history;
pub mod limits;
pub mod margins;
pub mod moves;
mod negamax;
pub mod ordering;
pub mod probcut;
mod qsearch;
pub mod report;
pub mod result;
pub mod score;
pub mod stack;
pub mod stats;
pub mod strength;
mod strength_levels;
pub mod team;
pub mod textbook;
pub mod thread;
pub mod tt;
pub mod wdl;

#[cfg(test)]
mod tests;

pub use config::Mode;
pub use result::{Control, Iteration, SearchResult};
pub use score::{score_text, INF, MATE, MATE_BOUND, MAX_DEPTH, MAX_PLY};
pub use team::{SearchTeam, TEXTBOOK_DEFAULT_DEPTH};
