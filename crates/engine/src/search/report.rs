//! What a search tells the outside while it runs: lines of the principal variation, a summary
//! of the counters at the end, errors. The search never prints; the UCI loop's reporter
//! writes `info` lines, bench and the lab use `Silent`.

use super::stats::SearchStats;
use super::textbook::{Algorithm, TextbookResult};
use super::tt::Bound;
use crate::position::Position;
use cozy_chess::Move;
use std::fmt::Display;
use std::time::Duration;

/// One principal variation at the end of an iteration (or a failed aspiration window).
pub struct Line<'a> {
    pub depth: i32,
    pub seldepth: usize,
    /// 1 for the best line; MultiPV numbers the others.
    pub multipv: usize,
    pub score: i32,
    /// `Some` when the score is only a bound (the aspiration window failed).
    pub bound: Option<Bound>,
    /// Nodes of all threads so far.
    pub nodes: u64,
    pub time: Duration,
    /// Permille of the transposition table written by this search.
    pub hashfull: u32,
    /// [syzygy] Tablebase probes answered so far by all threads.
    pub tbhits: u64,
    pub pv: &'a [Move],
    /// The position the moves are played from.
    pub root: &'a Position,
}

impl Line<'_> {
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1000 / self.time.as_millis().max(1)) as u64
    }
}

/// The end of a search.
pub enum Summary<'a> {
    /// The engine's per-technique counters.
    Engine(&'a SearchStats),
    /// A textbook algorithm's leaf and node counts.
    Textbook {
        algorithm: Algorithm,
        result: &'a TextbookResult,
    },
}

pub trait Reporter {
    fn line(&mut self, _line: &Line<'_>) {}
    fn summary(&mut self, _summary: Summary<'_>) {}
    /// Something went wrong that does not stop the search (a helper thread refused, ...).
    fn error(&mut self, _error: &dyn Display) {}
}

/// Tells nothing: bench, the lab, data generation, helper threads.
pub struct Silent;

impl Reporter for Silent {}

/// Collects what it is told (tests).
#[derive(Default)]
pub struct Recorder {
    pub lines: Vec<(i32, usize, i32, Vec<Move>)>,
    pub summaries: usize,
    pub errors: Vec<String>,
}

impl Reporter for Recorder {
    fn line(&mut self, line: &Line<'_>) {
        self.lines
            .push((line.depth, line.multipv, line.score, line.pv.to_vec()));
    }
    fn summary(&mut self, _summary: Summary<'_>) {
        self.summaries += 1;
    }
    fn error(&mut self, error: &dyn Display) {
        self.errors.push(error.to_string());
    }
}
