//! `augur-lab match`: the arena's match runner, plus the summary of its result
//! (`--summary FILE`): each pairing's Elo with its interval and the SPRT's verdict, or in a
//! gauntlet each engine against the anchor.

use anyhow::Result;
use augur_arena::matchmaking::elo::{self, Estimate};
use augur_arena::matchmaking::results::score_difference;
use augur_arena::matchmaking::tournament::{self, MatchArgs, MatchSummary};
use serde::{Deserialize, Serialize};

use crate::kit::summary::SummaryArgs;

#[derive(clap::Args, Debug)]
pub struct LabMatchArgs {
    #[command(flatten)]
    pub args: MatchArgs,
    #[command(flatten)]
    pub summary: SummaryArgs,
}

/// A logistic Elo estimate with its 95% interval and LOS, from one side's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloFigures {
    pub games: u64,
    /// The mean score per game.
    pub score: f64,
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    pub los: f64,
}

impl EloFigures {
    pub fn of(games: u64, e: &Estimate) -> EloFigures {
        EloFigures {
            games,
            score: e.score,
            elo: e.elo,
            elo_low: e.elo_low,
            elo_high: e.elo_high,
            los: e.los,
        }
    }
}

/// The headline figures of a match (its `--summary`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// Two engines: the first's result against the second, and the SPRT's verdict if one ran.
    pub pairing: Option<Pairing>,
    /// More engines: the anchor, each engine's result against it alone, and each engine's
    /// score against it minus the first engine's.
    pub anchor: Option<String>,
    pub against_anchor: Vec<Against>,
    pub differences: Vec<Difference>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pairing {
    pub engine: String,
    pub opponent: String,
    pub elo: Option<EloFigures>,
    pub sprt: Option<Sprt>,
    /// A fixed-length match that an interim look stopped short of its planned games.
    #[serde(default)]
    pub interim_stop: Option<InterimStop>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InterimStop {
    /// The games the stopping look read, and the games the match had planned.
    pub games: u64,
    pub planned: u64,
    /// The score's z against 1/2 at that look (infinite is written as a string by TOML's
    /// rules, so it is kept finite here: a sample without variance is capped at 99).
    pub z: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub llr: f64,
    /// `H0 accepted`, `H1 accepted` or `no decision yet`.
    pub verdict: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Against {
    pub engine: String,
    /// Points and games against the anchor.
    pub points: f64,
    pub elo: EloFigures,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    pub engine: String,
    pub reference: String,
    /// Score per game against the anchor minus the reference's, and half its 95% interval.
    pub score: f64,
    pub half: f64,
}

/// The figures of a finished match.
pub fn figures(summary: &MatchSummary) -> Figures {
    let table = &summary.table;
    let names = &table.names;
    if names.len() == 2 {
        let counts = table.row(0, 1);
        let (wdl, estimate) = (counts.wdl, elo::estimate(&counts.sample()));
        return Figures {
            pairing: Some(Pairing {
                engine: names[0].clone(),
                opponent: names[1].clone(),
                elo: estimate.map(|e| EloFigures::of(wdl.games(), &e)),
                sprt: summary.sprt.map(|(llr, state)| Sprt {
                    llr,
                    verdict: state.verdict().to_string(),
                }),
                interim_stop: summary.interim_stop.map(|l| InterimStop {
                    games: l.games as u64,
                    planned: summary.games_total as u64,
                    z: l.z.clamp(-99.0, 99.0),
                }),
            }),
            anchor: None,
            against_anchor: Vec::new(),
            differences: Vec::new(),
        };
    }
    let measured = table.measured_against(summary.anchor);
    let differences = match measured.split_first() {
        Some((first, rest)) => rest
            .iter()
            .map(|m| {
                let (score, half) = score_difference(&m.estimate, &first.estimate);
                Difference {
                    engine: names[m.engine].clone(),
                    reference: names[first.engine].clone(),
                    score,
                    half,
                }
            })
            .collect(),
        None => Vec::new(),
    };
    Figures {
        pairing: None,
        anchor: Some(names[summary.anchor].clone()),
        against_anchor: measured
            .iter()
            .map(|m| Against {
                engine: names[m.engine].clone(),
                points: m.wdl.points(),
                elo: EloFigures::of(m.wdl.games(), &m.estimate),
            })
            .collect(),
        differences,
    }
}

/// Plays the match and writes its summary when one is asked for.
pub fn run(args: &LabMatchArgs) -> Result<()> {
    let summary = tournament::run(&args.args)?;
    args.summary.write("match", &figures(&summary))
}
