//! A table of game results between named engines: head-to-head W/D/L and
//! pentanomial counts, crosstables, ratings and fault counts. Built either by
//! the match runner as games finish or from any PGN file.

use std::collections::HashMap;
use std::fmt::Write as _;

use shakmaty::{Color, KnownOutcome};

use crate::game::pgn::GameSummary;
use crate::matchmaking::elo::{self, fmt_elo};
use crate::matchmaking::games_csv::{self, GameRow};
use crate::matchmaking::outcomes::{Counts, Penta, PentaRow, Wdl};
use crate::matchmaking::ratings;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub white: usize,
    pub black: usize,
    /// White's score: 1, 1/2 or 0.
    pub white_score: f64,
    /// Games with the same pair id form a game pair (same opening, colours reversed).
    pub pair: Option<usize>,
}

#[derive(Clone, Debug, Default)]
pub struct ResultTable {
    pub names: Vec<String>,
    pub games: Vec<Outcome>,
    /// Faults per engine, by kind ("time", "illegal", "crash", "stall").
    pub faults: Vec<HashMap<String, u64>>,
}

pub fn white_score(outcome: KnownOutcome) -> f64 {
    match outcome {
        KnownOutcome::Decisive {
            winner: Color::White,
        } => 1.0,
        KnownOutcome::Decisive {
            winner: Color::Black,
        } => 0.0,
        KnownOutcome::Draw => 0.5,
    }
}

/// One engine's games against the anchor of a gauntlet.
#[derive(Clone, Copy, Debug)]
pub struct AgainstAnchor {
    pub engine: usize,
    pub wdl: Wdl,
    pub sample: Counts,
    pub estimate: elo::Estimate,
}

/// One engine's score against the anchor minus another's, per game, with half its 95%
/// interval: the two come from different games, so their variances add (games of the same
/// opening correlate positively, which makes this interval conservative).
pub fn score_difference(e: &elo::Estimate, f: &elo::Estimate) -> (f64, f64) {
    let z = elo::phi_inv(0.975);
    (
        e.score - f.score,
        z * (e.std_error.powi(2) + f.std_error.powi(2)).sqrt(),
    )
}

impl ResultTable {
    pub fn new(names: Vec<String>) -> Self {
        let faults = vec![HashMap::new(); names.len()];
        ResultTable {
            names,
            games: Vec::new(),
            faults,
        }
    }

    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    fn index_or_add(&mut self, name: &str) -> usize {
        if let Some(i) = self.index_of(name) {
            return i;
        }
        self.names.push(name.to_string());
        self.faults.push(HashMap::new());
        self.names.len() - 1
    }

    pub fn add_fault(&mut self, engine: usize, kind: &str) {
        *self.faults[engine].entry(kind.to_string()).or_insert(0) += 1;
    }

    pub fn total_faults(&self) -> u64 {
        self.faults.iter().flat_map(|f| f.values()).sum()
    }

    /// Builds a table from PGN summaries: the rows [`games_csv::pair_rows`] makes of them
    /// (games without a result are left out; pairs by opening with colours swapped).
    pub fn from_summaries(games: &[GameSummary]) -> Self {
        Self::from_rows(&games_csv::pair_rows(games))
    }

    /// Builds a table from a match's per-game rows (`games.csv`), engines in the order
    /// they first appear.
    pub fn from_rows(rows: &[GameRow]) -> Self {
        let mut table = ResultTable::default();
        for row in rows {
            let white = table.index_or_add(&row.white);
            let black = table.index_or_add(&row.black);
            if let Some((side, kind)) = row.fault() {
                table.add_fault(if side == Color::White { white } else { black }, &kind);
            }
            table.games.push(Outcome {
                white,
                black,
                white_score: white_score(row.result),
                pair: Some(row.pair),
            });
        }
        table
    }

    /// W/D/L and pentanomial counts of `a` against `b`, from `a`'s side.
    pub fn head_to_head(&self, a: usize, b: usize) -> (Wdl, Penta) {
        let mut wdl = Wdl::default();
        let mut by_pair: HashMap<usize, Vec<f64>> = HashMap::new();
        for g in &self.games {
            let score = if g.white == a && g.black == b {
                g.white_score
            } else if g.white == b && g.black == a {
                1.0 - g.white_score
            } else {
                continue;
            };
            wdl.add(score);
            if let Some(p) = g.pair {
                by_pair.entry(p).or_default().push(score);
            }
        }
        let mut penta = Penta::default();
        for scores in by_pair.values() {
            if let [x, y] = scores[..] {
                penta.add_pair(x, y);
            }
        }
        (wdl, penta)
    }

    /// The pentanomial row of `a` against `b`, from `a`'s side.
    pub fn row(&self, a: usize, b: usize) -> PentaRow {
        let (wdl, penta) = self.head_to_head(a, b);
        PentaRow { wdl, penta }
    }

    /// The sample an SPRT or an Elo estimate of `a` against `b` uses:
    /// pentanomial when the games are paired, trinomial otherwise.
    pub fn sample(&self, a: usize, b: usize) -> Counts {
        let (wdl, penta) = self.head_to_head(a, b);
        Counts::choose(&wdl, &penta)
    }

    /// Points and games of each engine.
    pub fn totals(&self) -> Vec<(f64, u64)> {
        let mut t = vec![(0.0, 0u64); self.names.len()];
        for g in &self.games {
            t[g.white].0 += g.white_score;
            t[g.white].1 += 1;
            t[g.black].0 += 1.0 - g.white_score;
            t[g.black].1 += 1;
        }
        t
    }

    pub fn ratings(&self, anchor: usize) -> Vec<f64> {
        let games: Vec<ratings::Result> = self
            .games
            .iter()
            .map(|g| ratings::Result {
                a: g.white,
                b: g.black,
                score_a: g.white_score,
            })
            .collect();
        ratings::fit(self.names.len(), &games, anchor)
    }

    pub fn fault_summary(&self) -> String {
        let mut out = String::new();
        for (i, f) in self.faults.iter().enumerate() {
            if f.is_empty() {
                continue;
            }
            let mut kinds: Vec<_> = f.iter().collect();
            kinds.sort();
            let parts: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
            let _ = writeln!(out, "Faults of {}: {}", self.names[i], parts.join(", "));
        }
        if out.is_empty() {
            out.push_str("Faults: none\n");
        }
        out
    }

    /// Ratings (anchored), points and a crosstable of points scored by the row
    /// engine against the column engine.
    pub fn crosstable(&self, anchor: usize) -> String {
        let ratings = self.ratings(anchor);
        let totals = self.totals();
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| ratings[b].total_cmp(&ratings[a]));
        let w = self.names.iter().map(|n| n.len()).max().unwrap_or(4).max(6);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Maximum-likelihood ratings (Elo, {} = 0), points and crosstable (row's points vs column):",
            self.names[anchor]
        );
        let _ = write!(
            out,
            "{:>3} {:<w$} {:>8} {:>12} ",
            "#", "engine", "Elo", "points"
        );
        for (k, _) in order.iter().enumerate() {
            let _ = write!(out, " {:>9}", k + 1);
        }
        out.push('\n');
        for (rank, &i) in order.iter().enumerate() {
            let (pts, n) = totals[i];
            let _ = write!(
                out,
                "{:>3} {:<w$} {:>8} {:>12} ",
                rank + 1,
                self.names[i],
                fmt_elo(ratings[i]),
                format!("{pts:.1}/{n}")
            );
            for &j in &order {
                if i == j {
                    let _ = write!(out, " {:>9}", "-");
                    continue;
                }
                let (wdl, _) = self.head_to_head(i, j);
                if wdl.games() == 0 {
                    let _ = write!(out, " {:>9}", ".");
                } else {
                    let _ = write!(out, " {:>9}", wdl.points_of_games());
                }
            }
            out.push('\n');
        }
        out
    }

    /// Each engine's games against the anchor alone, from its own side, with
    /// their Elo estimate (pentanomial when its games pair up, else trinomial);
    /// engines without games against the anchor are left out.
    pub fn measured_against(&self, anchor: usize) -> Vec<AgainstAnchor> {
        (0..self.names.len())
            .filter(|&i| i != anchor)
            .filter_map(|i| {
                let (wdl, penta) = self.head_to_head(i, anchor);
                let sample = Counts::choose(&wdl, &penta);
                elo::estimate(&sample).map(|estimate| AgainstAnchor {
                    engine: i,
                    wdl,
                    sample,
                    estimate,
                })
            })
            .collect()
    }

    /// Each engine's result against the anchor alone ([`ResultTable::measured_against`]),
    /// with a 95% Elo interval. The joint ratings above carry no interval, and a gauntlet's
    /// question (Table 4: does each of our engines beat the opponent, by how much?) is
    /// answered by these per-pairing intervals.
    pub fn against_anchor(&self, anchor: usize) -> String {
        let measured: Vec<(usize, Wdl, Counts, elo::Estimate)> = self
            .measured_against(anchor)
            .into_iter()
            .map(|m| (m.engine, m.wdl, m.sample, m.estimate))
            .collect();
        let Some((first, _, _, f)) = measured.first() else {
            return String::new();
        };
        let w = self.names.iter().map(|n| n.len()).max().unwrap_or(4).max(6);
        let mut out = format!(
            "Against {} alone (each engine's own games with it; Elo logistic, 95% interval):\n",
            self.names[anchor]
        );
        for (i, wdl, sample, e) in &measured {
            let _ = writeln!(
                out,
                "  {:<w$} {:>12} {:>6.1}%  W/D/L {}/{}/{}  Elo {} [{}, {}]  LOS {:.1}%  ({})",
                self.names[*i],
                wdl.points_of_games(),
                100.0 * e.score,
                wdl.wins,
                wdl.draws,
                wdl.losses,
                fmt_elo(e.elo),
                fmt_elo(e.elo_low),
                fmt_elo(e.elo_high),
                100.0 * e.los,
                sample.name()
            );
        }
        for (i, _, _, e) in &measured[1..] {
            let (difference, half) = score_difference(e, f);
            let _ = writeln!(
                out,
                "  {} - {}: {:+.1} ± {:.1} points of score per 100 games (95%), Elo {}",
                self.names[*i],
                self.names[*first],
                100.0 * difference,
                100.0 * half,
                fmt_elo(e.elo - f.elo)
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(w: &str, b: &str, r: &str, fen: &str) -> GameSummary {
        GameSummary {
            white: w.to_string(),
            black: b.to_string(),
            result: r.parse().ok(),
            fen: Some(fen.to_string()),
            ..GameSummary::default()
        }
    }

    #[test]
    fn pairs_from_pgn_summaries() {
        let games = vec![
            summary("a", "b", "1-0", "f1"),
            summary("a", "b", "1/2-1/2", "f2"),
            summary("b", "a", "1/2-1/2", "f1"),
            summary("b", "a", "1-0", "f2"),
            summary("a", "b", "0-1", "f3"),
            summary("b", "a", "*", "f3"),
        ];
        let t = ResultTable::from_summaries(&games);
        let (wdl, penta) = t.head_to_head(0, 1);
        assert_eq!(
            wdl,
            Wdl {
                wins: 1,
                draws: 2,
                losses: 2
            }
        );
        // Pair f1: 1 + 0.5 = 1.5 -> index 3; pair f2: 0.5 + 0 -> index 1; f3 unpaired.
        assert_eq!(penta.0, [0, 1, 0, 1, 0]);
        let text = t.crosstable(1);
        assert!(text.contains("2.0/5"), "{text}");
    }

    #[test]
    fn each_engine_is_measured_against_the_anchor_alone() {
        // a beats c 3-1 in two pairs, b loses to c 0.5-1.5 in one pair; a-b games
        // must not enter either line.
        let games = vec![
            summary("a", "c", "1-0", "f1"),
            summary("c", "a", "0-1", "f1"),
            summary("a", "c", "1-0", "f2"),
            summary("c", "a", "1-0", "f2"),
            summary("b", "c", "1/2-1/2", "f1"),
            summary("c", "b", "1-0", "f1"),
            summary("a", "b", "1-0", "f3"),
            summary("b", "a", "1-0", "f3"),
        ];
        let t = ResultTable::from_summaries(&games);
        let c = t.names.iter().position(|n| n == "c").unwrap();
        let text = t.against_anchor(c);
        assert!(text.starts_with("Against c alone"), "{text}");
        let line = |name: &str| {
            text.lines()
                .find(|l| l.trim_start().starts_with(name))
                .unwrap_or_else(|| panic!("{name} missing: {text}"))
                .to_string()
        };
        let a = line("a ");
        assert!(a.contains("3.0/4") && a.contains("75.0%"), "{a}");
        assert!(a.contains("W/D/L 3/0/1") && a.contains("Elo +190.8"), "{a}");
        assert!(a.contains("(pentanomial)"), "{a}");
        let b = line("b ");
        assert!(b.contains("0.5/2") && b.contains("W/D/L 0/1/1"), "{b}");
        assert!(!text.contains("\n  c "), "the anchor gets no line: {text}");
        // b's score 25% minus a's 75%, Elo -190.8 - 190.8.
        let diff = line("b - a:");
        assert!(
            diff.contains("-50.0 ±") && diff.contains("Elo -381.7"),
            "{diff}"
        );
    }
}
