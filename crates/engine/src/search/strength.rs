//! [strength] The weaker mode of `UCI_LimitStrength` and `UCI_Elo`: a strength asked for in Elo
//! becomes a `Level` (a node budget per move, the number of root moves scored and a temperature),
//! and the move played is drawn among the scored root moves, the best the likeliest.
//!
//! Two handicaps, as people are weak in two ways: they see less (a node budget that grows with
//! the Elo, so the search is shallow and misses tactics) and they choose less well among what
//! they see (a Boltzmann draw over the top root moves of a MultiPV search: a move `d` cp worse
//! than the best is played `exp(-d / temperature)` times as often, so a weak level sometimes
//! plays a move a little worse and almost never one that loses at once). Stockfish's skill level
//! (search.cpp `Skill::pick_best`) adds a random push to each root score instead; the draw
//! here has one parameter whose meaning (cp) can be read off a game.
//!
//! The draw is reproducible on request: it depends only on a seed (`StrengthSeed`, or one drawn
//! per process when it is 0), the root position and how many `go`s came since `ucinewgame`.
//! The time manager and the GUI's `go nodes`/`depth`/`movetime` still bound every search; the
//! weak mode only adds a node cap from the second iteration on (the smaller one wins) and
//! chooses among what was searched.

use super::strength_levels::LEVELS;
use cozy_chess::Move;

/// The range of `UCI_Elo`: the table's first and last Elo (a calibrated table spans what was
/// measured).
pub const ELO_MIN: i64 = LEVELS[0].0 as i64;
pub const ELO_MAX: i64 = LEVELS[LEVELS.len() - 1].0 as i64;

/// What a strength in Elo plays with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// The Elo this level plays at (measured for a row, interpolated between rows).
    pub elo: i32,
    /// Nodes a move at most (the main thread's; a GUI's smaller `go nodes` wins).
    pub nodes: u64,
    /// Root moves scored (the search's MultiPV, at least the `MultiPV` option).
    pub candidates: u32,
    /// Centipawns by which a move's chance falls e-fold against the best's; 0 plays the best.
    pub temperature: f64,
}

impl Level {
    /// The table's rows: each row's Elo is the one its settings measured against Stockfish
    /// 15.1's own calibrated `UCI_Elo` (200 games a row; `augur-lab strength` wrote
    /// `strength_levels.rs` from docs/evidence/strength/calibration.csv, which keeps the
    /// intervals).
    pub fn table() -> impl ExactSizeIterator<Item = Level> + Clone {
        LEVELS
            .iter()
            .map(|&(elo, nodes, candidates, temperature)| Level {
                elo,
                nodes,
                candidates,
                temperature: f64::from(temperature),
            })
    }

    /// The level that plays at `elo`: between two rows, nodes are interpolated geometrically (a
    /// doubling of the search is worth about the same Elo at every level), the temperature and
    /// the candidates linearly; below the first row the first, above the last the last.
    pub fn at(elo: i32) -> Level {
        let rows: Vec<Level> = Level::table().collect();
        let (first, last) = (rows[0], rows[rows.len() - 1]);
        if elo <= first.elo {
            return Level { elo, ..first };
        }
        if elo >= last.elo {
            return Level { elo, ..last };
        }
        let i = rows.iter().rposition(|r| r.elo <= elo).unwrap_or(0);
        Level::between(rows[i], rows[i + 1], elo)
    }

    /// The level at `elo` between the rows `lo` and `hi` (`lo.elo <= elo <= hi.elo`, the Elos
    /// distinct), by `at`'s rule; also what a check of a table (`augur-lab strength --judge`)
    /// expects a point to have played.
    pub fn between(lo: Level, hi: Level, elo: i32) -> Level {
        let t = f64::from(elo - lo.elo) / f64::from(hi.elo - lo.elo);
        let between = |a: f64, b: f64| a + t * (b - a);
        let nodes = between((lo.nodes as f64).ln(), (hi.nodes as f64).ln()).exp();
        Level {
            elo,
            nodes: nodes.round().max(1.0) as u64,
            candidates: between(f64::from(lo.candidates), f64::from(hi.candidates)).round() as u32,
            temperature: between(lo.temperature, hi.temperature),
        }
    }
}

/// The weak mode for one `go`: its level and the random draw of the move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    pub level: Level,
    /// The draw's uniform number in [0, 1).
    draw: f64,
}

impl Strength {
    /// The weak mode at `elo` for the `go` numbered `go` (since `ucinewgame`) from the position
    /// with hash `key`, with `seed`: equal inputs, equal draw.
    pub fn new(elo: i32, seed: u64, key: u64, go: u64) -> Strength {
        let bits = mix(mix(seed ^ key) ^ go.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        Strength {
            level: Level::at(elo),
            draw: (bits >> 11) as f64 / (1u64 << 53) as f64,
        }
    }

    /// Root moves to score: at least the `MultiPV` the GUI asked for.
    pub fn multipv(&self, asked: usize) -> usize {
        asked.max(self.level.candidates as usize)
    }

    /// The node limit from the second iteration on: the level's cap, or the GUI's `go nodes`
    /// when smaller. The first iteration runs to the GUI's limits alone, so that there are
    /// always root moves to choose among (at the lowest levels a position with many moves
    /// needs more than the cap for it).
    pub fn node_limit(&self, gui: Option<u64>) -> u64 {
        gui.map_or(self.level.nodes, |n| n.min(self.level.nodes))
    }

    /// Which of the scored root `lines` (score, pv; best first, as the search ordered them)
    /// to play: the Boltzmann draw over the first `candidates`; `None` without lines.
    pub fn pick(&self, lines: &[(i32, Vec<Move>)]) -> Option<usize> {
        let top = lines.first()?.0;
        let n = lines.len().min(self.level.candidates.max(1) as usize);
        if self.level.temperature <= 0.0 || n == 1 {
            return Some(0);
        }
        let weights: Vec<f64> = lines[..n]
            .iter()
            .map(|(score, _)| {
                (-f64::from(top.saturating_sub(*score).max(0)) / self.level.temperature).exp()
            })
            .collect();
        let mut target = self.draw * weights.iter().sum::<f64>();
        for (i, w) in weights.iter().enumerate() {
            if target < *w {
                return Some(i);
            }
            target -= w;
        }
        Some(0)
    }
}

/// splitmix64's finaliser: every input bit flips about half the output bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_rises_with_elo() {
        let rows: Vec<Level> = Level::table().collect();
        assert!(rows.len() >= 2);
        for pair in rows.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert!(a.elo < b.elo, "{a:?} {b:?}");
            assert!(a.nodes < b.nodes, "{a:?} {b:?}");
            assert!(a.temperature >= b.temperature, "{a:?} {b:?}");
        }
        assert!(rows.iter().all(|r| r.candidates >= 1 && r.nodes >= 1));
    }

    #[test]
    fn levels_between_rows_are_interpolated_and_clamped_outside() {
        let rows: Vec<Level> = Level::table().collect();
        let (a, b) = (rows[1], rows[2]);
        let mid = Level::at((a.elo + b.elo) / 2);
        assert!(a.nodes < mid.nodes && mid.nodes < b.nodes, "{mid:?}");
        assert!(mid.temperature <= a.temperature && mid.temperature >= b.temperature);
        assert_eq!(Level::at(a.elo), a);
        assert_eq!(Level::at(0).nodes, rows[0].nodes);
        assert_eq!(Level::at(9999).nodes, rows[rows.len() - 1].nodes);
        let mut last = 0;
        for elo in (rows[0].elo..=rows[rows.len() - 1].elo).step_by(10) {
            let n = Level::at(elo).nodes;
            assert!(n >= last, "{elo}: {n} < {last}");
            last = n;
        }
    }

    fn lines(scores: &[i32]) -> Vec<(i32, Vec<Move>)> {
        let moves = crate::position::Position::startpos().legal_moves();
        scores
            .iter()
            .zip(moves)
            .map(|(&s, m)| (s, vec![m]))
            .collect()
    }

    /// The draw is a function of its inputs and plays each move as often as its Boltzmann
    /// weight says: the best most, a close second often, a move that loses a piece rarely; at
    /// temperature 0 it is always the best.
    #[test]
    fn the_pick_is_reproducible_and_prefers_the_best() {
        let scores = [50, 40, 0, -300];
        let lines = lines(&scores);
        let weak = |go| Strength::new(ELO_MIN as i32, 7, 42, go);
        assert_eq!(weak(3), weak(3));
        let draws = 4000;
        let mut counts = [0usize; 4];
        for go in 0..draws {
            counts[weak(go).pick(&lines).unwrap()] += 1;
        }
        let t = Level::at(ELO_MIN as i32).temperature;
        let w: Vec<f64> = scores
            .iter()
            .map(|&s| (f64::from(s - 50) / t).exp())
            .collect();
        for (i, &c) in counts.iter().enumerate() {
            let expected = w[i] / w.iter().sum::<f64>();
            let seen = c as f64 / draws as f64;
            assert!(
                (seen - expected).abs() < 0.03,
                "{i}: {seen} against {expected}, {counts:?}"
            );
        }
        assert!(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > 4 * counts[3]);
        let cold = |go| Strength {
            level: Level {
                temperature: 0.0,
                ..Level::at(ELO_MAX as i32)
            },
            ..weak(go)
        };
        assert!((0..50).all(|go| cold(go).pick(&lines) == Some(0)));
        assert_eq!(weak(1).pick(&[]), None);
    }

    #[test]
    fn the_node_cap_keeps_a_smaller_one_of_the_gui() {
        let s = Strength::new(1500, 1, 2, 3);
        let cap = s.level.nodes;
        assert_eq!(s.node_limit(None), cap);
        assert_eq!(s.node_limit(Some(cap / 2)), cap / 2);
        assert_eq!(s.node_limit(Some(cap * 2)), cap);
        assert_eq!(s.multipv(1), 4);
        assert_eq!(s.multipv(6), 6);
    }
}
