//! The thesis's method: self-play games with a fixed-depth engine search per move, every
//! position visited measured. With `--out` the games are a result file (`selfplay.csv`) of the
//! lab's job runner: each game's line is appended as it finishes and a restart resumes.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Context, Result};
use augur::eval::EvalKind;
use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::limits::Limits;
use augur::search::SearchTeam;
use serde::{Deserialize, Serialize};

use super::distribution;
use super::measure::{measure_position, read_positions, SiblingSpread, KINDS};
use super::{MpdArgs, OPENINGS};
use crate::kit::jobs::{self, Job, Options};
use crate::kit::provenance::{in_process_engine, sha256_hex, Provenance};
use crate::kit::result_log::{Header, Row};

/// Plays one self-play game with a fixed-depth engine search per move, measuring every
/// position visited (the thesis's automatic MPD search).
pub fn self_play(
    start: &Position,
    start_move: u32,
    depth: i32,
    play_eval: EvalKind,
    max_plies: usize,
) -> Vec<SiblingSpread> {
    let config = SearchConfig {
        eval: play_eval,
        ..SearchConfig::default()
    };
    let mut s = SearchTeam::new(config, 8).expect("8 MiB for the hash table");
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let mut pos = start.clone();
    let root = pos.ply_count();
    let mut out = Vec::new();
    for ply in 0..max_plies {
        if !pos.has_legal_move() || pos.is_draw(root) {
            break;
        }
        out.push(measure_position(&pos, Some(start_move + ply as u32 / 2)));
        let Some(mv) = s.search(&pos, &limits).best else {
            break;
        };
        pos.make(mv);
    }
    out
}

/// The columns of `selfplay.csv`, mpd's result file for the self-play games: one line per
/// game, its samples in one field, each `phase;classic_spread;default_spread;nnue_spread;
/// classic_gain;bound;fen` (an empty field for none) and ended by `|`, the last one excepted.
pub const GAME_COLUMNS: &str = "game,samples,data";

/// A game's line of `selfplay.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub game: usize,
    /// How many samples `data` holds: a check on the line.
    pub samples: usize,
    #[serde(with = "sample_list")]
    pub data: Vec<SiblingSpread>,
}

impl Row for GameRecord {
    const COLUMNS: &'static str = GAME_COLUMNS;
}

impl GameRecord {
    pub fn new(game: usize, samples: &[SiblingSpread]) -> GameRecord {
        GameRecord {
            game,
            samples: samples.len(),
            data: samples.to_vec(),
        }
    }
}

/// A game's samples in one field: a CSV text of its own, `;` between fields and `|` between
/// samples, written and read by the `csv` crate.
mod sample_list {
    use super::super::measure::{SiblingSpread, SiblingSpreadFields};
    use serde::{de::Error as _, ser::Error as _, Deserialize, Deserializer, Serializer};

    fn builder_write() -> csv::WriterBuilder {
        let mut b = csv::WriterBuilder::new();
        b.has_headers(false)
            .delimiter(b';')
            .terminator(csv::Terminator::Any(b'|'));
        b
    }

    pub fn serialize<S: Serializer>(samples: &[SiblingSpread], s: S) -> Result<S::Ok, S::Error> {
        let mut out = builder_write().from_writer(Vec::new());
        for sample in samples {
            out.serialize(SiblingSpreadFields::from(sample))
                .map_err(S::Error::custom)?;
        }
        let bytes = out.into_inner().map_err(S::Error::custom)?;
        let text = String::from_utf8(bytes).map_err(S::Error::custom)?;
        s.serialize_str(text.strip_suffix('|').unwrap_or(&text))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<SiblingSpread>, D::Error> {
        let text = String::deserialize(d)?;
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .delimiter(b';')
            .terminator(csv::Terminator::Any(b'|'))
            .from_reader(text.as_bytes());
        let mut out = Vec::new();
        for (i, record) in reader.records().enumerate() {
            let record = record.map_err(D::Error::custom)?;
            if record.len() != SiblingSpreadFields::COUNT {
                return Err(D::Error::custom(format!(
                    "data: sample {} has {} fields, not the {} fields {}",
                    i + 1,
                    record.len(),
                    SiblingSpreadFields::COUNT,
                    SiblingSpreadFields::NAMES
                )));
            }
            let fields: SiblingSpreadFields = record
                .deserialize(None)
                .map_err(|e| D::Error::custom(format!("data: sample {}: {e}", i + 1)))?;
            out.push(fields.into());
        }
        Ok(out)
    }
}

/// The self-play games as a job of the runner: an item is a game, its row the game's line.
struct Games<'a> {
    args: &'a MpdArgs,
    play_eval: EvalKind,
    openings: &'a [(Position, Option<u32>)],
}

impl Job for Games<'_> {
    type Output = Vec<SiblingSpread>;
    type Row = GameRecord;
    type Worker = ();

    fn items(&self) -> usize {
        self.args.games
    }

    fn worker(&self) -> Result<()> {
        Ok(())
    }

    fn run(
        &self,
        _: &mut (),
        game: usize,
        _: Option<&Vec<SiblingSpread>>,
    ) -> Result<Vec<SiblingSpread>> {
        // Game i starts from opening i * 7 mod count: spread over the set and repeatable.
        let (pos, mv) = &self.openings[(game * 7) % self.openings.len()];
        let a = self.args;
        Ok(self_play(
            pos,
            mv.unwrap_or(9),
            a.play_depth,
            self.play_eval,
            a.max_plies,
        ))
    }

    fn rows(&self, game: usize, samples: &Vec<SiblingSpread>) -> Vec<GameRecord> {
        vec![GameRecord::new(game, samples)]
    }

    fn item_of(&self, r: &GameRecord) -> Result<usize> {
        if r.game >= self.args.games {
            bail!("game {} is not of this run", r.game);
        }
        Ok(r.game)
    }

    fn output(&self, _: usize, mut rows: Vec<GameRecord>) -> Result<Vec<SiblingSpread>> {
        let r = rows.remove(0);
        if r.data.len() != r.samples {
            bail!(
                "game {}: {} samples, the count says {}",
                r.game,
                r.data.len(),
                r.samples
            );
        }
        Ok(r.data)
    }
}

/// The MPD self-play found for one evaluation: the largest quiet-sibling spread, and where.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MpdFound {
    pub eval: String,
    pub spread: i32,
    pub fen: String,
}

/// Per evaluation with a spread, the largest one among `played`.
pub fn mpd_found(played: &[SiblingSpread]) -> Vec<MpdFound> {
    KINDS
        .iter()
        .enumerate()
        .filter_map(|(k, kind)| {
            let best = played
                .iter()
                .filter(|s| s.spread[k].is_some())
                .max_by_key(|s| s.spread[k])?;
            Some(MpdFound {
                eval: kind.to_string(),
                spread: best.spread[k].unwrap_or(0),
                fen: best.fen.clone(),
            })
        })
        .collect()
}

/// Plays (or resumes, with `--out`) the games and writes their section of the report; the
/// positions visited, game by game.
pub fn section(
    args: &MpdArgs,
    play_eval: EvalKind,
    threads: usize,
    provenance: &Provenance,
    md: &mut String,
) -> Result<Vec<SiblingSpread>> {
    let openings_text = match &args.openings {
        Some(p) => std::fs::read_to_string(p)
            .with_context(|| format!("reading the openings {}", p.display()))?,
        None => OPENINGS.to_string(),
    };
    let openings = read_positions(&openings_text, "openings")?;
    let path = args
        .run
        .output
        .out
        .as_ref()
        .map(|dir| dir.join("selfplay.csv"));
    let file = path.as_deref().map(|p: &Path| {
        let header = Header {
            kind: "mpd self-play".into(),
            settings: vec![
                ("games".into(), args.games.to_string()),
                ("play_depth".into(), args.play_depth.to_string()),
                ("play_eval".into(), play_eval.to_string()),
                ("max_plies".into(), args.max_plies.to_string()),
                (
                    "openings".into(),
                    args.openings
                        .as_ref()
                        .map_or("bundled".into(), |p| p.display().to_string()),
                ),
                (
                    "openings_sha256".into(),
                    sha256_hex(openings_text.as_bytes()),
                ),
                ("engine".into(), in_process_engine()),
            ],
            provenance: provenance.clone(),
            columns: GAME_COLUMNS.into(),
        };
        (p, header)
    });
    let job = Games {
        args,
        play_eval,
        openings: &openings,
    };
    let options = Options {
        workers: threads,
        progress: !args.run.output.quiet,
        unit: "games",
        file,
    };
    let played: Vec<SiblingSpread> = jobs::run(&job, options)?
        .outputs
        .into_iter()
        .flatten()
        .collect();
    let _ = writeln!(
        md,
        "## Self-play (the thesis's method)\n\n{} games from the openings, {} plies at most, \
         each move a depth-{} engine search with the {} evaluation; {} positions visited.\n",
        args.games,
        args.max_plies,
        args.play_depth,
        play_eval,
        played.len()
    );
    let _ = writeln!(
        md,
        "| eval | MPD found (largest quiet-sibling spread) | at |"
    );
    let _ = writeln!(md, "|---|---:|---|");
    for found in mpd_found(&played) {
        let _ = writeln!(
            md,
            "| {} | {} | `{}` |",
            found.eval, found.spread, found.fen
        );
    }
    let _ = writeln!(md);
    distribution::table(
        md,
        "Self-play positions: quiet-sibling spread",
        &played,
        args.mpd,
    );
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::result_log;
    use crate::spp::mpd::Phase;

    /// [nnue] A game line with all three spreads (and a missing one) reads back as written; a
    /// line of the older two-spread format is refused with the expected fields named.
    #[test]
    fn game_lines_round_trip_with_three_evaluations() {
        let samples = vec![
            SiblingSpread {
                phase: Phase::ALL[0],
                spread: [Some(40), Some(55), Some(120)],
                gain: Some(12),
                bound: 30,
                fen: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into(),
            },
            SiblingSpread {
                phase: Phase::ALL[2],
                spread: [None, Some(3), None],
                gain: None,
                bound: 0,
                fen: "4k3/8/8/8/8/8/8/4K3 b - - 0 60".into(),
            },
        ];
        let line = result_log::to_line(&GameRecord::new(7, &samples)).unwrap();
        assert_eq!(
            line,
            "7,2,opening;40;55;120;12;30;4k3/8/8/8/8/8/4P3/4K3 w - - 0 1|\
             endgame;;3;;;0;4k3/8/8/8/8/8/8/4K3 b - - 0 60"
        );
        let back: GameRecord = result_log::from_line(&line).unwrap();
        assert_eq!((back.game, back.samples, back.data), (7, 2, samples));
        let old = "3,1,opening;40;55;12;30;4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        let err = format!(
            "{:#}",
            result_log::from_line::<GameRecord>(old).unwrap_err()
        );
        assert!(err.contains("7 fields"), "{err}");
    }
}
