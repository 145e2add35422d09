//! The registry of verdicts (`docs/evidence/verdicts.csv`): one row per match, SPRT or
//! study point, with its counts, Elo in both models, LLR and verdict, and the path of the
//! evidence it was computed from (or `lost`). [`Verdict::compute`] makes a row from a match's
//! games, and [`verify`] recomputes every row that names evidence and names each one whose
//! figures differ from what its evidence computes.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::matchmaking::csv_rows;
use crate::matchmaking::elo;
use crate::matchmaking::games_csv;
use crate::matchmaking::outcomes::PentaRow;
use crate::matchmaking::results::ResultTable;
use crate::matchmaking::sprt::{EloModel, Sprt, SprtState};
use crate::matchmaking::tournament::make_sprt;

/// The registry's column line.
pub const COLUMNS: &str = "id,kind,control,tested,base,bounds,elo_model,games,wins,draws,losses,\
penta,elo,elo_lo,elo_hi,nelo,nelo_lo,nelo_hi,llr,verdict,evidence,note";

/// What `evidence` says of a verdict whose games are gone.
pub const LOST: &str = "lost";

/// One verdict. The figures are kept as the registry prints them (Elo to 1 decimal, the LLR
/// to 2), so that a recomputed row compares with the committed one as text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    pub id: String,
    /// `sprt`, `match`, `gauntlet`, `scaling`, ...
    pub kind: String,
    /// The time control, e.g. `nodes=10000` or `10+0.1`.
    pub control: String,
    /// The engine whose side the figures take, and its opponent.
    pub tested: String,
    pub base: String,
    /// SPRT bounds `ELO0,ELO1`; empty for a fixed-length match.
    pub bounds: String,
    /// The model of the bounds (`normalized` or `logistic`).
    pub elo_model: String,
    pub games: String,
    pub wins: String,
    pub draws: String,
    pub losses: String,
    /// Pair counts `LL/LD/DD+WL/WD/WW`.
    pub penta: String,
    /// Logistic Elo and its 95% interval.
    pub elo: String,
    pub elo_lo: String,
    pub elo_hi: String,
    /// Normalized Elo and its 95% interval.
    pub nelo: String,
    pub nelo_lo: String,
    pub nelo_hi: String,
    pub llr: String,
    /// `H1`, `H0` or `undecided` for an SPRT, `fixed` for a fixed-length match.
    pub verdict: String,
    /// A path under `docs/evidence`, or `lost`.
    pub evidence: String,
    pub note: String,
}

/// The figures a row's evidence decides, by column name.
const COMPUTED: [&str; 13] = [
    "games", "wins", "draws", "losses", "penta", "elo", "elo_lo", "elo_hi", "nelo", "nelo_lo",
    "nelo_hi", "llr", "verdict",
];

/// One decimal, without a negative zero (`inf` for an unbounded interval's end).
fn one_decimal(x: f64) -> String {
    format!("{:.1}", (x * 10.0).round() / 10.0 + 0.0)
}

impl Verdict {
    /// The SPRT the row's `bounds` and `elo_model` describe (alpha = beta = 0.05), if any.
    pub fn sprt(&self) -> Result<Option<Sprt>> {
        if self.bounds.is_empty() {
            return Ok(None);
        }
        let model = match self.elo_model.as_str() {
            "normalized" => EloModel::Normalized,
            "logistic" => EloModel::Logistic,
            other => bail!("elo_model '{other}' is not normalized or logistic"),
        };
        make_sprt(&self.bounds, 0.05, 0.05, model).map(Some)
    }

    /// The row's figures computed from a match's table: `tested` against `base` (the labels
    /// of `self` are kept, its figures replaced).
    pub fn compute(&self, table: &ResultTable) -> Result<Verdict> {
        let engine = |name: &str| {
            table.index_of(name).with_context(|| {
                format!(
                    "engine '{name}' does not play in the games (they have {})",
                    table.names.join(", ")
                )
            })
        };
        let (a, b) = (engine(&self.tested)?, engine(&self.base)?);
        let row = table.row(a, b);
        if row.wdl.games() == 0 {
            bail!("{} and {} play no game together", self.tested, self.base);
        }
        self.with_counts(&row)
    }

    /// The row with its figures computed from a match's counts.
    pub fn with_counts(&self, counts: &PentaRow) -> Result<Verdict> {
        let (wdl, penta) = (&counts.wdl, &counts.penta);
        let sample = counts.sample();
        let e = elo::estimate(&sample)
            .ok_or_else(|| anyhow!("no Elo estimate from {} games", wdl.games()))?;
        let p = penta.0;
        let (llr, verdict) = match self.sprt()? {
            Some(t) => {
                let llr = t.llr(&sample);
                let word = match t.state(llr) {
                    SprtState::AcceptH1 => "H1",
                    SprtState::AcceptH0 => "H0",
                    SprtState::Continue => "undecided",
                };
                (format!("{llr:.2}"), word.to_string())
            }
            None => (String::new(), "fixed".to_string()),
        };
        Ok(Verdict {
            games: wdl.games().to_string(),
            wins: wdl.wins.to_string(),
            draws: wdl.draws.to_string(),
            losses: wdl.losses.to_string(),
            penta: format!("{}/{}/{}/{}/{}", p[0], p[1], p[2], p[3], p[4]),
            elo: one_decimal(e.elo),
            elo_lo: one_decimal(e.elo_low),
            elo_hi: one_decimal(e.elo_high),
            nelo: one_decimal(e.nelo),
            nelo_lo: one_decimal(e.nelo - e.nelo_half),
            nelo_hi: one_decimal(e.nelo + e.nelo_half),
            llr,
            verdict,
            ..self.clone()
        })
    }

    fn field(&self, column: &str) -> &str {
        match column {
            "games" => &self.games,
            "wins" => &self.wins,
            "draws" => &self.draws,
            "losses" => &self.losses,
            "penta" => &self.penta,
            "elo" => &self.elo,
            "elo_lo" => &self.elo_lo,
            "elo_hi" => &self.elo_hi,
            "nelo" => &self.nelo,
            "nelo_lo" => &self.nelo_lo,
            "nelo_hi" => &self.nelo_hi,
            "llr" => &self.llr,
            "verdict" => &self.verdict,
            _ => "",
        }
    }

    /// `column: registry X, evidence Y` for each computed figure that differs.
    pub fn differences(&self, computed: &Verdict) -> Vec<String> {
        COMPUTED
            .iter()
            .filter(|c| self.field(c) != computed.field(c))
            .map(|c| {
                format!(
                    "{c}: registry '{}', evidence '{}'",
                    self.field(c),
                    computed.field(c)
                )
            })
            .collect()
    }

    /// The row as one CSV line (no newline).
    pub fn to_line(&self) -> Result<String> {
        Ok(csv_rows::line(self)?.trim_end().to_string())
    }
}

/// Reads a registry; the column line must be [`COLUMNS`].
pub fn read(path: &Path) -> Result<Vec<Verdict>> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
    csv_rows::parse(&text, &name, COLUMNS)
}

/// Adds `row` at the end of the registry at `path`; an id it holds already is refused and
/// the file is left as it was.
pub fn append(path: &Path, row: &Verdict) -> Result<()> {
    let rows = read(path)?;
    if rows.iter().any(|r| r.id == row.id) {
        bail!("{}: id '{}' is there already", path.display(), row.id);
    }
    let mut text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&row.to_line()?);
    text.push('\n');
    let tmp = path.with_extension("csv.tmp");
    std::fs::write(&tmp, &text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))
}

/// Where a row's evidence path points: as given from the working directory, else from the
/// first directory above the registry where it exists (the registry names paths from the
/// repository's root).
fn locate(registry: &Path, evidence: &str) -> PathBuf {
    let given = PathBuf::from(evidence);
    if given.exists() {
        return given;
    }
    let registry = registry
        .canonicalize()
        .unwrap_or_else(|_| registry.to_path_buf());
    registry
        .ancestors()
        .skip(1)
        .map(|dir| dir.join(evidence))
        .find(|p| p.exists())
        .unwrap_or(given)
}

/// What [`verify`] found: one line per row, and the ids of the rows that failed.
pub struct Checked {
    pub report: String,
    pub failed: Vec<String>,
    pub recomputed: usize,
    pub lost: usize,
}

/// Recomputes every row of the registry that names evidence; a row fails when its evidence
/// cannot be read or computes other figures. Ids must be unique, and a lost row says why in
/// its note.
pub fn verify(registry: &Path) -> Result<Checked> {
    let rows = read(registry)?;
    let mut checked = Checked {
        report: String::new(),
        failed: Vec::new(),
        recomputed: 0,
        lost: 0,
    };
    let mut seen = std::collections::HashSet::new();
    for row in &rows {
        let mut problems = Vec::new();
        if row.id.is_empty() || !seen.insert(row.id.clone()) {
            problems.push(format!("id '{}' is empty or not unique", row.id));
        }
        if row.evidence == LOST {
            checked.lost += 1;
            if row.note.is_empty() {
                problems.push(
                    "evidence is lost and the note does not say where the figures come from".into(),
                );
            }
        } else {
            checked.recomputed += 1;
            let path = locate(registry, &row.evidence);
            let computed = games_csv::read_games(&path)
                .and_then(|e| row.compute(&ResultTable::from_rows(&e.rows)));
            match computed {
                Ok(c) => problems.extend(row.differences(&c)),
                Err(e) => problems.push(format!("{e:#}")),
            }
        }
        if problems.is_empty() {
            checked
                .report
                .push_str(&format!("ok {} ({})\n", row.id, row.evidence));
        } else {
            checked
                .report
                .push_str(&format!("FAIL {}: {}\n", row.id, problems.join("; ")));
            checked.failed.push(row.id.clone());
        }
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchmaking::outcomes::{Penta, Wdl};

    #[test]
    fn a_row_computes_its_figures_and_names_what_differs() {
        let labels = Verdict {
            id: "t".into(),
            tested: "a".into(),
            base: "b".into(),
            bounds: "0,10".into(),
            elo_model: "normalized".into(),
            ..Verdict::default()
        };
        let wdl = Wdl {
            wins: 30,
            draws: 50,
            losses: 20,
        };
        let penta = Penta([3, 10, 20, 12, 5]);
        let counts = PentaRow { wdl, penta };
        let row = labels.with_counts(&counts).unwrap();
        assert_eq!(
            (row.games.as_str(), row.penta.as_str()),
            ("100", "3/10/20/12/5")
        );
        assert_eq!(row.verdict, "undecided");
        assert!(row.differences(&row).is_empty());
        let mut changed = row.clone();
        changed.elo = format!("{}1", changed.elo);
        let diff = changed.differences(&row);
        assert_eq!(diff.len(), 1, "{diff:?}");
        assert!(diff[0].starts_with("elo: registry"), "{diff:?}");
        let fixed = Verdict {
            bounds: String::new(),
            ..labels
        }
        .with_counts(&counts)
        .unwrap();
        assert_eq!((fixed.llr.as_str(), fixed.verdict.as_str()), ("", "fixed"));
        assert_eq!(one_decimal(-0.04), "0.0");
    }
}
