//! A match's compact per-game record, `games.csv`: one line per finished game
//! (`game,pair,white,black,opening,result,termination,plies`), enough to recompute every
//! statistic of the match (W/D/L, the pentanomial of its pairs, Elo, the SPRT, faults)
//! without its PGN. The runner writes it beside the PGN (`X.pgn` -> `X.games.csv`) as each
//! game finishes; on resuming it is rebuilt from the PGN's complete games, so a kill between
//! the two writes never leaves them out of step.
//!
//! [`read_games`] reads any of a match's evidence files into these rows: a PGN, a
//! `games.csv`, or either compressed with xz (`.pgn.xz`, `.csv.xz`), the form evidence is
//! committed in. A PGN's games are paired as [`pair_rows`] says, so the three kinds give
//! the same rows and the same statistics.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use shakmaty::{Color, KnownOutcome};

use crate::game::pgn::{self, GameSummary};
use crate::game::GameRecord;
use crate::matchmaking::csv_rows;

/// The column line of `games.csv`.
pub const COLUMNS: &str = "game,pair,white,black,opening,result,termination,plies";

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    /// 1-based game number: the schedule's (the PGN `Round`).
    pub game: usize,
    /// 1-based opening pair: the games of one pair share an opening, colours swapped.
    pub pair: usize,
    pub white: String,
    pub black: String,
    /// The start FEN.
    pub opening: String,
    #[serde(with = "result_text")]
    pub result: KnownOutcome,
    /// The arena's word for how it ended (`checkmate`, `fifty-move rule`, `resign
    /// adjudication`, `White: time` for a fault, ...): the PGN's `TerminationDetail`.
    pub termination: String,
    /// Half-moves played.
    pub plies: usize,
}

/// `1-0`, `0-1`, `1/2-1/2` in and out.
mod result_text {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};
    use shakmaty::KnownOutcome;

    pub fn serialize<S: Serializer>(value: &KnownOutcome, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(value.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<KnownOutcome, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map_err(|_| D::Error::custom(format!("result '{text}' is not 1-0, 0-1 or 1/2-1/2")))
    }
}

impl GameRow {
    /// The row of a game the runner has just played (`pair` 1-based).
    pub fn of_record(rec: &GameRecord, pair: usize) -> GameRow {
        GameRow {
            game: rec.round,
            pair,
            white: rec.white.clone(),
            black: rec.black.clone(),
            opening: rec.start_fen.clone(),
            result: rec.outcome,
            termination: pgn::termination(&rec.end).1,
            plies: rec.moves.len(),
        }
    }

    /// The faulting side and the fault's keyword (`White: crash` -> White, `crash`).
    pub fn fault(&self) -> Option<(Color, String)> {
        pgn::fault_of(&self.termination)
    }
}

/// The path of the record beside a PGN: `X.pgn` (or `X.pgn.xz`) -> `X.games.csv`.
pub fn beside(pgn: &Path) -> PathBuf {
    let name = pgn
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name
        .strip_suffix(".xz")
        .unwrap_or(&name)
        .strip_suffix(".pgn")
        .unwrap_or(name.strip_suffix(".xz").unwrap_or(&name));
    pgn.with_file_name(format!("{stem}.games.csv"))
}

/// The rows of a PGN's finished games (a game without a result is left out). `game` is the
/// `Round` tag where there is one, else the game's place among the finished ones. Pairs
/// are formed greedily: a game pairs with the earliest unpaired game from the same start
/// position with the colours swapped; a game left alone has a pair of its own.
pub fn pair_rows(games: &[GameSummary]) -> Vec<GameRow> {
    let mut rows: Vec<GameRow> = Vec::new();
    let mut waiting: HashMap<(String, String, String), Vec<usize>> = HashMap::new();
    let mut pairs = 0;
    for g in games {
        let Some(result) = g.result else { continue };
        let opening = g.fen.clone().unwrap_or_default();
        let partner = waiting
            .get_mut(&(opening.clone(), g.black.clone(), g.white.clone()))
            .filter(|w| !w.is_empty())
            .map(|w| w.remove(0));
        let pair = match partner {
            Some(k) => rows[k].pair,
            None => {
                pairs += 1;
                waiting
                    .entry((opening.clone(), g.white.clone(), g.black.clone()))
                    .or_default()
                    .push(rows.len());
                pairs
            }
        };
        rows.push(GameRow {
            game: g.round.unwrap_or(rows.len() + 1),
            pair,
            white: g.white.clone(),
            black: g.black.clone(),
            opening,
            result,
            termination: g.ending(),
            plies: g.plies,
        });
    }
    rows
}

/// Parses a `games.csv` text (`name` for errors): the column line must be [`COLUMNS`].
pub fn parse(text: &str, name: &str) -> Result<Vec<GameRow>> {
    csv_rows::parse(text, name, COLUMNS)
}

/// The bytes of a file, decompressed if its name ends in `.xz`.
pub fn read_maybe_xz(path: &Path) -> Result<Vec<u8>> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut bytes = Vec::new();
    if path.extension().is_some_and(|e| e == "xz") {
        liblzma::read::XzDecoder::new(file)
            .read_to_end(&mut bytes)
            .with_context(|| format!("{}: not a whole xz stream", path.display()))?;
    } else {
        std::io::BufReader::new(file)
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {}", path.display()))?;
    }
    Ok(bytes)
}

/// A match's evidence as read from one file: its games, and the `TimeControl` of a PGN.
pub struct Evidence {
    pub rows: Vec<GameRow>,
    pub time_control: Option<String>,
    /// [arena-others] The games' `OtherLoad` tags (a PGN of a timed match; none in a CSV).
    pub others: Vec<f64>,
}

/// Reads a PGN, a `games.csv`, or either as `.xz`. A PGN is read up to its last whole game
/// (a torn record left by a kill is not a game; a last game whose result line ends the file
/// is one).
pub fn read_games(path: &Path) -> Result<Evidence> {
    let bytes = read_maybe_xz(path)?;
    let name = path.display().to_string();
    let plain = name.strip_suffix(".xz").unwrap_or(&name);
    if plain.ends_with(".csv") {
        let text = String::from_utf8(bytes).with_context(|| format!("{name}: not UTF-8"))?;
        return Ok(Evidence {
            rows: parse(&text, &name)?,
            time_control: None,
            others: Vec::new(),
        });
    }
    let whole = pgn::finished_prefix_len(&bytes);
    if !bytes[whole..].trim_ascii().is_empty() {
        // A torn last record of a live match, or a game this reader cannot finish: said, so
        // that a count one short is never silent.
        eprintln!(
            "{name}: {} bytes after the last complete game are not read",
            bytes.len() - whole
        );
    }
    let games = pgn::read_summaries_from(&bytes[..whole], &name)?;
    Ok(Evidence {
        time_control: games.iter().find_map(|g| g.time_control.clone()),
        others: games.iter().filter_map(|g| g.others).collect(),
        rows: pair_rows(&games),
    })
}

/// The rows as CSV text, the column line first.
pub fn to_text(rows: &[GameRow]) -> Result<String> {
    let mut text = format!("{COLUMNS}\n");
    for row in rows {
        text.push_str(&csv_rows::line(row)?);
    }
    Ok(text)
}

/// The record beside a running match's PGN, appended one game at a time.
pub struct Writer {
    path: PathBuf,
    file: File,
}

impl Writer {
    /// Writes the file anew with `rows` (the games already in the PGN) through a temporary
    /// file renamed into place, then opens it for appending.
    pub fn create(path: &Path, rows: &[GameRow]) -> Result<Writer> {
        let tmp = path.with_extension("csv.tmp");
        std::fs::write(&tmp, to_text(rows)?)
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        std::fs::rename(&tmp, path)
            .with_context(|| format!("cannot replace {}", path.display()))?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open {} for writing", path.display()))?;
        Ok(Writer {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Appends one game's line in one write.
    pub fn append(&mut self, row: &GameRow) -> Result<()> {
        let line = csv_rows::line(row)?;
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.flush())
            .with_context(|| format!("cannot write {}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(round: usize, w: &str, b: &str, r: &str, fen: &str) -> GameSummary {
        GameSummary {
            round: Some(round),
            white: w.to_string(),
            black: b.to_string(),
            result: r.parse().ok(),
            fen: Some(fen.to_string()),
            detail: Some("checkmate".to_string()),
            plies: 10,
            ..GameSummary::default()
        }
    }

    #[test]
    fn pairs_are_same_opening_colours_swapped_and_rows_read_back() {
        let games = vec![
            summary(1, "a", "b", "1-0", "f1"),
            summary(3, "a", "b", "1/2-1/2", "f2"),
            summary(2, "b", "a", "0-1", "f1"),
            summary(4, "a", "b", "*", "f2"),
            summary(5, "a", "b", "0-1", "f2"),
        ];
        let rows = pair_rows(&games);
        let pairs: Vec<(usize, usize)> = rows.iter().map(|r| (r.game, r.pair)).collect();
        // f1 pairs 1 and 2; game 3 waits for a b-a game from f2 and game 5 (a-b) is not one.
        assert_eq!(pairs, [(1, 1), (3, 2), (2, 1), (5, 3)]);
        let text = to_text(&rows).unwrap();
        assert!(text.starts_with(&format!("{COLUMNS}\n1,1,a,b,f1,1-0,checkmate,10\n")));
        assert_eq!(parse(&text, "t").unwrap(), rows);
        let bad = text.replace("1/2-1/2", "draw");
        let err = format!("{:#}", parse(&bad, "t").unwrap_err());
        assert!(err.contains("t:3") && err.contains("'draw'"), "{err}");
        let err = format!("{:#}", parse("game,pair\n", "t").unwrap_err());
        assert!(err.contains("expected the column line"), "{err}");
    }

    #[test]
    fn the_record_lies_beside_the_pgn() {
        assert_eq!(
            beside(Path::new("d/x.pgn")),
            Path::new("d/x.games.csv").to_path_buf()
        );
        assert_eq!(
            beside(Path::new("x.pgn.xz")),
            Path::new("x.games.csv").to_path_buf()
        );
        assert_eq!(
            beside(Path::new("games")),
            Path::new("games.games.csv").to_path_buf()
        );
        let mut row = pair_rows(&[summary(1, "a", "b", "0-1", "f")]).remove(0);
        assert_eq!(row.fault(), None);
        row.termination = "White: stall".to_string();
        assert_eq!(row.fault(), Some((Color::White, "stall".into())));
    }
}
