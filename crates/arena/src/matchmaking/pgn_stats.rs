//! `augur-lab stats`: the match statistics, SPRT, crosstable and ratings of any PGN file or
//! per-game record (compressed or not), the registry row of its games, and the check of a
//! whole verdict registry against its evidence.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::machine::others_line;
use crate::matchmaking::games_csv;
use crate::matchmaking::kept;
use crate::matchmaking::results::ResultTable;
use crate::matchmaking::tournament::{final_report, strength_row, RowLabels, SprtArgs};
use crate::matchmaking::verdicts::{self, Verdict};

#[derive(Args, Debug, Clone)]
pub struct StatsArgs {
    /// The match's games: a PGN, a per-game record (games.csv), or either compressed (.xz).
    #[arg(required_unless_present = "verify")]
    pub games: Option<PathBuf>,
    /// With two engines: the engine whose side the statistics take (default: White of the first game).
    #[arg(long)]
    pub engine: Option<String>,
    #[command(flatten)]
    pub sprt: SprtArgs,
    /// Engine rated 0 in the rating list (default: the last engine seen).
    #[arg(long)]
    pub anchor: Option<String>,
    /// One-sided level of the significance test.
    #[arg(long, default_value_t = 0.05, value_parser = crate::matchmaking::elo::parse_significance)]
    pub significance: f64,
    /// Draw ratio assumed by the significance test (the ProbCut papers assumed 30%).
    #[arg(long, default_value_t = 0.30, value_parser = crate::matchmaking::elo::parse_draw_ratio)]
    pub assumed_draws: f64,
    /// Print the games' row of the verdict registry (docs/evidence/verdicts.csv) with this id:
    /// --engine against the other engine (or --base), bounds and model from --sprt/--elo-model.
    #[arg(long, value_name = "ID")]
    pub row: Option<String>,
    /// For --row: the opponent (default: the one other engine).
    #[arg(long, value_name = "ENGINE")]
    pub base: Option<String>,
    /// For --row: the kind of verdict (default: sprt with --sprt, else match).
    #[arg(long)]
    pub kind: Option<String>,
    /// For --row: the time control (default: the PGN's TimeControl tag).
    #[arg(long)]
    pub control: Option<String>,
    /// For --row: the evidence path (default: the games file as given).
    #[arg(long, value_name = "PATH")]
    pub evidence: Option<String>,
    /// For --row: the note.
    #[arg(long, default_value = "")]
    pub note: String,
    /// Write the games' per-game record (games.csv) to FILE.
    #[arg(long, value_name = "FILE")]
    pub write_games: Option<PathBuf>,
    /// With --row: keep the games as evidence in DIR (games.csv.xz, and games.pgn.xz when the
    /// games are a PGN); the row's evidence path becomes DIR/games.csv.xz unless --evidence
    /// names one. An existing DIR/games.csv.xz is refused (evidence is written once). A plain
    /// PGN's path goes into DIR/restore.toml, for `augur-lab campaign restore`.
    #[arg(long, value_name = "DIR", requires = "row")]
    pub keep: Option<PathBuf>,
    /// With --keep: leave the move comments (scores, depths, times) out of games.pgn.xz.
    #[arg(long, requires = "keep")]
    pub strip_comments: bool,
    /// With --row: append the row to this registry (docs/evidence/verdicts.csv); an id the
    /// registry holds already is refused.
    #[arg(long, value_name = "REGISTRY", requires = "row")]
    pub registry: Option<PathBuf>,
    /// Recompute every row of a verdict registry that names evidence; fails naming each row
    /// whose figures differ from what its evidence computes.
    #[arg(long, value_name = "REGISTRY", conflicts_with = "games")]
    pub verify: Option<PathBuf>,
}

/// Computes the report text (for --verify, an error names the rows that failed).
pub fn report(args: &StatsArgs) -> Result<String> {
    if let Some(registry) = &args.verify {
        let checked = verdicts::verify(registry)?;
        if !checked.failed.is_empty() {
            bail!(
                "{}{}: {} of {} rows fail the check: {}",
                checked.report,
                registry.display(),
                checked.failed.len(),
                checked.recomputed + checked.lost,
                checked.failed.join(", ")
            );
        }
        return Ok(format!(
            "{}{}: {} rows recomputed from their evidence, {} with evidence lost\n",
            checked.report,
            registry.display(),
            checked.recomputed,
            checked.lost
        ));
    }
    let path = args
        .games
        .as_deref()
        .context("no games file given (or --verify REGISTRY)")?;
    let evidence = games_csv::read_games(path)?;
    if let Some(out) = &args.write_games {
        crate::outputs::refuse_inputs("--write-games", out, &[path])?;
        std::fs::write(out, games_csv::to_text(&evidence.rows)?)
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    let mut table = ResultTable::from_rows(&evidence.rows);
    if table.games.is_empty() {
        bail!("{}: no finished games", path.display());
    }
    if let Some(first) = &args.engine {
        let i = table
            .index_of(first)
            .with_context(|| format!("--engine '{first}' does not play in {}", path.display()))?;
        // Reorder so that the chosen engine is engine 0.
        let mut order: Vec<usize> = (0..table.names.len()).collect();
        order.swap(0, i);
        table = reindex(&table, &order);
    }
    if let Some(id) = &args.row {
        if let Some(registry) = &args.registry {
            // Refused before any evidence is written, so that a rerun starts clean.
            if verdicts::read(registry)?.iter().any(|r| &r.id == id) {
                bail!("{}: id '{id}' is there already", registry.display());
            }
        }
        let kept = match &args.keep {
            Some(dir) => Some(keep_games(dir, path, &evidence.rows, args.strip_comments)?),
            None => None,
        };
        let row = registry_row(
            args,
            id,
            &table,
            evidence.time_control.as_deref(),
            path,
            kept.as_deref(),
        )?;
        let mut out = format!("{}\n{}\n", verdicts::COLUMNS, row.to_line()?);
        if let Some(dir) = &args.keep {
            out.push_str(&format!("kept the games in {}\n", dir.display()));
        }
        if let Some(registry) = &args.registry {
            verdicts::append(registry, &row)?;
            out.push_str(&format!("appended '{id}' to {}\n", registry.display()));
        }
        return Ok(out);
    }
    let sprt = args
        .sprt
        .build(table.names.len(), "games of exactly two engines")?;
    let anchor = match &args.anchor {
        Some(a) => table
            .index_of(a)
            .with_context(|| format!("--anchor '{a}' does not play in {}", path.display()))?,
        None => table.names.len() - 1,
    };
    let mut out = final_report(
        &table,
        sprt.as_ref(),
        anchor,
        args.significance,
        args.assumed_draws,
    );
    out.extend(others_line(&evidence.others));
    if let Some(t) = &sprt {
        let tc = evidence.time_control.as_deref().unwrap_or("?");
        let row = strength_row(
            &table,
            t,
            &RowLabels {
                change: args.sprt.change.as_deref(),
                commit: args.sprt.commit.as_deref(),
                time_control: tc,
            },
        );
        out.push_str(&format!("Row for docs/strength.md:\n{row}\n"));
    }
    Ok(out)
}

/// Writes the evidence of `--keep` (and of a campaign's gate): the per-game record, and the PGN
/// when the games are one; returns the record's path as the registry names it.
pub fn keep_games(
    dir: &Path,
    games: &Path,
    rows: &[games_csv::GameRow],
    strip: bool,
) -> Result<String> {
    let record = dir.join("games.csv.xz");
    if record.exists() {
        bail!(
            "{} exists: evidence is written once (remove it to write it again)",
            record.display()
        );
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let name = games.display().to_string();
    let plain = name.strip_suffix(".xz").unwrap_or(&name);
    if !plain.ends_with(".csv") {
        let text = String::from_utf8_lossy(&games_csv::read_maybe_xz(games)?).into_owned();
        let whole = &text[..crate::game::pgn::finished_prefix_len(text.as_bytes())];
        let pgn = if strip {
            without_comments(whole)
        } else {
            whole.to_string()
        };
        kept::write_xz(&dir.join("games.pgn.xz"), pgn.as_bytes())?;
        // A campaign's PGN (plain, where the match runner writes it) can be put back after a
        // lost machine: its stage then resumes with these games played.
        if !name.ends_with(".xz") {
            let to = std::path::absolute(games)
                .with_context(|| format!("the absolute path of {}", games.display()))?;
            kept::Origins::add(
                dir,
                kept::Origin {
                    kept: "games.pgn.xz".into(),
                    to,
                    sha256: kept::sha256_hex(pgn.as_bytes()),
                    offset: None,
                },
            )?;
        }
    }
    kept::write_xz(&record, games_csv::to_text(rows)?.as_bytes())?;
    Ok(record.display().to_string())
}

/// The PGN without its movetext comments: the games, their tags and results stay, a third of
/// the size goes. Tag lines are copied whole (a brace there is part of a value).
fn without_comments(pgn: &str) -> String {
    let mut out = String::with_capacity(pgn.len() / 2);
    let mut in_comment = false;
    for line in pgn.split_inclusive('\n') {
        if !in_comment && line.starts_with('[') {
            out.push_str(line);
            continue;
        }
        for c in line.chars() {
            match c {
                '{' if !in_comment => {
                    in_comment = true;
                    if out.ends_with(' ') {
                        out.pop();
                    }
                }
                '}' if in_comment => in_comment = false,
                _ if in_comment => {}
                _ => out.push(c),
            }
        }
    }
    out
}

/// The registry row of engine 0 against `--base` or the other.
fn registry_row(
    args: &StatsArgs,
    id: &str,
    table: &ResultTable,
    time_control: Option<&str>,
    path: &Path,
    kept: Option<&str>,
) -> Result<Verdict> {
    let base = match &args.base {
        Some(b) => b.clone(),
        None if table.names.len() == 2 => table.names[1].clone(),
        None => bail!(
            "--row with {} engines needs --base (one of {})",
            table.names.len(),
            table.names[1..].join(", ")
        ),
    };
    let labels = Verdict {
        id: id.to_string(),
        kind: args.kind.clone().unwrap_or_else(|| {
            if args.sprt.sprt.is_some() {
                "sprt"
            } else {
                "match"
            }
            .to_string()
        }),
        control: args
            .control
            .clone()
            .or_else(|| time_control.map(str::to_string))
            .unwrap_or_default(),
        tested: table.names[0].clone(),
        base,
        bounds: args.sprt.sprt.clone().unwrap_or_default().replace(' ', ""),
        elo_model: args.sprt.elo_model.name().to_string(),
        evidence: args
            .evidence
            .clone()
            .or_else(|| kept.map(str::to_string))
            .unwrap_or_else(|| path.display().to_string()),
        note: args.note.clone(),
        ..Verdict::default()
    };
    if (args.sprt.alpha, args.sprt.beta) != (0.05, 0.05) {
        bail!("--row: the registry's SPRTs have alpha = beta = 0.05");
    }
    labels.compute(table)
}

pub fn run(args: &StatsArgs) -> Result<()> {
    print!("{}", report(args)?);
    Ok(())
}

/// The same table with engine `order[k]` renamed to index `k`.
fn reindex(t: &ResultTable, order: &[usize]) -> ResultTable {
    let mut inverse = vec![0; order.len()];
    for (k, &old) in order.iter().enumerate() {
        inverse[old] = k;
    }
    let mut out = ResultTable::new(order.iter().map(|&o| t.names[o].clone()).collect());
    out.faults = order.iter().map(|&o| t.faults[o].clone()).collect();
    out.games = t
        .games
        .iter()
        .map(|g| crate::matchmaking::results::Outcome {
            white: inverse[g.white],
            black: inverse[g.black],
            ..*g
        })
        .collect();
    out
}

#[cfg(test)]
mod tests {
    use super::without_comments;

    #[test]
    fn comments_go_and_tags_and_moves_stay() {
        let pgn = "[Event \"a {b}\"]\n\n1. e4 {+0.30/9\n0.010s} e5 {-0.2/9 0.01s} 1-0\n";
        assert_eq!(without_comments(pgn), "[Event \"a {b}\"]\n\n1. e4 e5 1-0\n");
    }
}
