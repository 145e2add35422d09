//! `augur bench`: a fixed search over compiled-in positions. The node total is a fingerprint
//! of the search's behaviour; any change to it means the search changed.

mod positions;

pub use positions::positions;

use crate::position::Position;
use crate::search::config::SearchConfig;
use crate::search::limits::Limits;
use crate::search::SearchTeam;
use std::time::Instant;

pub const DEFAULT_DEPTH: i32 = 11;

pub struct BenchResult {
    pub nodes: u64,
    pub nps: u64,
}

/// Searches every position from a fresh state (cleared table and history), so the total is
/// the same run to run and machine to machine.
pub fn run(depth: i32, config: &SearchConfig, verbose: bool) -> BenchResult {
    let mut nodes = 0;
    // Only the searches are timed: clearing a table between positions is set-up, not search.
    let mut searching = std::time::Duration::ZERO;
    let mut team = SearchTeam::new(config.clone(), 16).expect("16 MiB for the hash table");
    for (i, fen) in positions().enumerate() {
        let pos = Position::from_fen(fen, false).expect("bench positions are valid");
        team.new_game();
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        let start = Instant::now();
        let r = team.search(&pos, &limits);
        searching += start.elapsed();
        nodes += r.stats.nodes;
        if verbose {
            let best = r.best.map_or("0000".to_string(), |m| pos.uci(m));
            println!(
                "{:>2} {:>10} nodes  best {best:<6} score {:>6}  {fen}",
                i + 1,
                r.stats.nodes,
                crate::search::score_text(r.score)
            );
        }
    }
    let ms = searching.as_millis().max(1) as u64;
    BenchResult {
        nodes,
        nps: nodes * 1000 / ms,
    }
}
