//! `campaign status`: where each stage stands, in one screen, read from the stages' files
//! alone (summaries, journals, PGNs, loss tables): it needs no runner and changes nothing.

use std::fmt::Write as _;

use anyhow::Result;

use super::plan::{Stage, Step};
use super::runner::live_pid;
use super::stages::{Campaign, Choice, Frozen, Promotion, Skipped};
use crate::corpus::manifest::Line;
use crate::kit::summary;
use augur_arena::matchmaking::outcomes::Counts;
use augur_arena::matchmaking::results::ResultTable;
use augur_arena::matchmaking::sprt::{EloModel, Sprt};

/// The state word of a stage.
fn state(campaign: &Campaign, s: &Stage) -> String {
    let l = &campaign.layout;
    if l.is_done(&s.id) {
        match summary::read(&l.summary(&s.id)) {
            Ok(sum) if sum.command == "campaign-skip" => sum
                .figures::<Skipped>()
                .map_or("skipped".into(), |k| format!("skipped ({})", k.because)),
            _ => "done".into(),
        }
    } else if let Some(pid) = live_pid(l, &s.id) {
        format!("running (pid {pid})")
    } else if l.failed(&s.id).exists() {
        "FAILED".into()
    } else {
        let waiting: Vec<&str> = s
            .after
            .iter()
            .filter(|a| !l.is_done(a))
            .map(String::as_str)
            .collect();
        if waiting.is_empty() && campaign.alone(s) {
            "ready, needs --alone".into()
        } else if waiting.is_empty() {
            "ready".into()
        } else {
            format!("waits for {}", waiting.join(", "))
        }
    }
}

/// Games, score and LLR of a match's PGN so far (the first engine's view).
fn match_progress(pgn: &std::path::Path, sprt: Option<Sprt>) -> Option<String> {
    let games = augur_arena::game::pgn::read_summaries(pgn).ok()?;
    let table = ResultTable::from_summaries(&games);
    if table.names.len() != 2 {
        return Some(format!("{} games", table.games.len()));
    }
    let (wdl, penta) = table.head_to_head(0, 1);
    let mut text = format!(
        "{} games, {} {}",
        wdl.games(),
        table.names[0],
        wdl.points_of_games()
    );
    if let Some(sprt) = sprt {
        let llr = sprt.llr(&Counts::choose(&wdl, &penta));
        let (lo, hi) = sprt.bounds();
        let _ = write!(text, ", LLR {llr:.2} ({lo:.2}, {hi:.2})");
    }
    Some(text)
}

fn progress(campaign: &Campaign, s: &Stage) -> Result<String> {
    let l = &campaign.layout;
    let done = l.is_done(&s.id);
    let read = || summary::read(&l.summary(&s.id));
    Ok(match &s.step {
        Step::HeldOut | Step::Datagen { .. } | Step::Convert { .. } => {
            if done {
                let line: Line = read()?.figures()?;
                format!(
                    "{} positions, games {}..={}",
                    line.positions, line.first_game, line.last_game
                )
            } else {
                match crate::datagen::journal::read(&l.data(&s.id)) {
                    Ok(j) => {
                        let target = campaign.file.network.as_ref().map(|n| match s.step {
                            Step::HeldOut => n.held_out.positions,
                            _ => n.datagen.positions,
                        });
                        format!(
                            "{} / {} positions, {} games",
                            j.records,
                            target.map_or("?".into(), |t| t.to_string()),
                            j.games
                        )
                    }
                    Err(_) => String::new(),
                }
            }
        }
        Step::Train { .. } => {
            if done {
                let f: super::stages::TrainFigures = read()?.figures()?;
                format!(
                    "held-out loss {:.6} (best epoch {:.6})",
                    f.final_held_out_loss, f.best_held_out_loss
                )
            } else {
                let loss = l.stage_dir(&s.id).join("out").join("loss.csv");
                match std::fs::read_to_string(loss) {
                    Ok(t) => format!("{} epochs written", t.lines().count().saturating_sub(1)),
                    Err(_) => String::new(),
                }
            }
        }
        Step::Choose { .. } if done => {
            let c: Choice = read()?.figures()?;
            format!("{} (held-out loss {:.6})", c.run, c.held_out_loss)
        }
        Step::Promote { .. } if done => {
            let p: Promotion = read()?.figures()?;
            format!(
                "{:?} after {} games (LLR {:.2}): {}",
                p.verdict,
                p.games,
                p.llr,
                if p.promoted {
                    "promoted"
                } else {
                    "the best network stays"
                }
            )
        }
        Step::Choose { .. } | Step::Promote { .. } => String::new(),
        Step::Gate { .. } => {
            let n = campaign.file.network.as_ref();
            let sprt = n.map(|n| Sprt {
                elo0: n.gate.bounds[0],
                elo1: n.gate.bounds[1],
                alpha: 0.05,
                beta: 0.05,
                model: if n.gate.elo_model == "logistic" {
                    EloModel::Logistic
                } else {
                    EloModel::Normalized
                },
            });
            match_progress(&l.pgn(&s.id), sprt).unwrap_or_default()
        }
        Step::Command { .. } => {
            // A match's progress, when the command writes a PGN. Before the stage's first
            // start, or after a lost machine when `restore` has put its games back but not its
            // frozen command, the command as the file declares it names the PGN.
            let frozen = std::fs::read_to_string(l.frozen(&s.id))
                .ok()
                .and_then(|t| toml::from_str::<Frozen>(&t).ok())
                .or_else(|| campaign.resolve(s).ok());
            let pgn = frozen.and_then(|f| {
                let i = f.args.iter().position(|a| a == "--pgn")?;
                f.args.get(i + 1).cloned()
            });
            // Otherwise the command's own last progress line, shown, never parsed.
            pgn.and_then(|p| match_progress(std::path::Path::new(&p), None))
                .or_else(|| last_line(&l.log(&s.id)))
                .unwrap_or_default()
        }
    })
}

/// The last line a stage's command printed, cut to fit the screen, without a progress bar's
/// drawing (`[###>....]`): the counts, the rate and the ETA after it are what is read.
fn last_line(log: &std::path::Path) -> Option<String> {
    let text = std::fs::read_to_string(log).ok()?;
    let line = text
        .rsplit(['\n', '\r'])
        .find(|l| !l.trim().is_empty())?
        .trim();
    Some(
        augur_arena::progress::without_bar(line)
            .chars()
            .take(110)
            .collect(),
    )
}

/// The status screen.
pub fn render(campaign: &Campaign) -> Result<String> {
    let mut out = String::new();
    let l = &campaign.layout;
    let done = campaign.stages.iter().filter(|s| l.is_done(&s.id)).count();
    writeln!(
        out,
        "campaign {} in {}: {done} of {} stages done, {} cores",
        campaign.file.name,
        l.dir.display(),
        campaign.stages.len(),
        campaign.file.cores
    )?;
    if campaign.file.network.is_some() {
        writeln!(out, "best network: {}", campaign.best_now()?.display())?;
    }
    let width = campaign
        .stages
        .iter()
        .map(|s| s.id.len())
        .max()
        .unwrap_or(5);
    for s in &campaign.stages {
        let p = progress(campaign, s).unwrap_or_else(|e| format!("(unreadable: {e:#})"));
        writeln!(out, "{:width$}  {:28}  {p}", s.id, state(campaign, s))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use augur_arena::progress::without_bar;

    #[test]
    fn a_log_line_shows_its_counts_and_eta_without_the_bar() {
        let dir = std::env::temp_dir().join(format!("augur-status-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("log.txt");
        let bar = "[#############...........] 624/1000 W 320 D 246 L 58  71.0%  Elo +155.5 ±18.7  \
                   faults 0 (1h01m 11.5 s/game ETA 1h12m)";
        std::fs::write(&log, format!("started\n{bar}\r\n\n")).unwrap();
        let shown = last_line(&log).unwrap();
        assert!(
            shown.starts_with("624/1000 W 320") && shown.ends_with("ETA 1h12m)"),
            "{shown}"
        );
        // Brackets that are not a bar stay; a long line is cut.
        assert_eq!(without_bar("[warn] disk"), "[warn] disk");
        assert_eq!(without_bar("[] x"), "[] x");
        std::fs::write(&log, "x".repeat(500)).unwrap();
        assert_eq!(last_line(&log).unwrap().len(), 110);
        assert!(last_line(&dir.join("none.txt")).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
