//! The manifest of a training set: one line per data file with its SHA-256, its size in
//! positions and games, and where its games came from, so that a network's record can say
//! exactly what it learned from and a set that counts a game twice is refused before training.
//!
//! A line's *origin* is what decides its games: for a datagen file the journal's settings line
//! (seed, nodes, adjudication, the network's SHA-256, options); for converted match games the
//! match (its PGN's name). Games are numbered from 1 within an origin, so two lines of one
//! origin must cover disjoint game ranges: a snapshot of a live datagen file and the whole file
//! later, or one PGN converted twice from game 1, overlap and are refused.

use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::str::FromStr;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

/// Where a file's games came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Self-play of `augur-lab datagen`.
    Datagen,
    /// The scored positions of a match's games (`augur-lab convert`).
    Pgn,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Source::Datagen => "datagen",
            Source::Pgn => "pgn",
        })
    }
}

impl FromStr for Source {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "datagen" => Ok(Source::Datagen),
            "pgn" => Ok(Source::Pgn),
            _ => bail!("source '{s}' is neither 'datagen' nor 'pgn'"),
        }
    }
}

/// One data file of a training set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// The file as the set names it (relative to the manifest's folder, or absolute).
    pub file: String,
    pub sha256: String,
    pub positions: u64,
    pub games: u64,
    pub source: Source,
    /// What decides the games: the datagen settings line, or the match PGN's name.
    pub origin: String,
    /// The games of the origin this file holds, 1-based and inclusive.
    pub first_game: u64,
    pub last_game: u64,
    /// The source commit of the program that wrote the file.
    pub engine: String,
}

impl Line {
    fn games_overlap(&self, other: &Line) -> bool {
        self.source == other.source
            && self.origin == other.origin
            && self.first_game <= other.last_game
            && other.first_game <= self.last_game
            && self.games > 0
            && other.games > 0
    }
}

/// A training set: its lines in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    pub lines: Vec<Line>,
}

impl Manifest {
    /// Reads a manifest CSV (the header as [`Manifest::write`] writes it).
    pub fn read(path: &Path) -> Result<Manifest> {
        let mut reader = csv::Reader::from_path(path)
            .with_context(|| format!("cannot read the manifest {}", path.display()))?;
        let mut lines = Vec::new();
        for (i, row) in reader.deserialize::<Line>().enumerate() {
            let line = row.with_context(|| {
                format!(
                    "{}: line {} is not a manifest line ({})",
                    path.display(),
                    i + 2,
                    HEADER
                )
            })?;
            if line.games > 0 && line.last_game + 1 != line.first_game + line.games {
                bail!(
                    "{}: line {}: games {}..={} are not {} games",
                    path.display(),
                    i + 2,
                    line.first_game,
                    line.last_game,
                    line.games
                );
            }
            lines.push(line);
        }
        Ok(Manifest { lines })
    }

    /// The manifest as CSV text.
    pub fn to_csv(&self) -> Result<Vec<u8>> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        for line in &self.lines {
            writer.serialize(line)?;
        }
        if self.lines.is_empty() {
            writer.write_record(HEADER.split(','))?;
        }
        writer.into_inner().context("writing the manifest")
    }

    /// Writes the manifest as CSV, whole (a temporary file renamed into place).
    pub fn write(&self, path: &Path) -> Result<()> {
        crate::kit::atomic::write(path, &self.to_csv()?)
    }

    /// Refuses a set that counts a game twice: two lines of one origin whose game ranges meet,
    /// or one file (by SHA-256) listed twice.
    pub fn check_no_game_twice(&self) -> Result<()> {
        let mut by_hash: HashMap<&str, &Line> = HashMap::new();
        for line in &self.lines {
            if let Some(first) = by_hash.insert(&line.sha256, line) {
                bail!(
                    "{} and {} are the same file (SHA-256 {}): its games would count twice",
                    first.file,
                    line.file,
                    line.sha256
                );
            }
        }
        for (i, a) in self.lines.iter().enumerate() {
            for b in &self.lines[i + 1..] {
                if a.games_overlap(b) {
                    bail!(
                        "{} (games {}..={}) and {} (games {}..={}) hold the same games of one \
                         {} origin ({}): a set counts each game once",
                        a.file,
                        a.first_game,
                        a.last_game,
                        b.file,
                        b.first_game,
                        b.last_game,
                        a.source,
                        a.origin
                    );
                }
            }
        }
        Ok(())
    }

    pub fn positions(&self) -> u64 {
        self.lines.iter().map(|l| l.positions).sum()
    }
}

/// The CSV header of a manifest.
pub const HEADER: &str = "file,sha256,positions,games,source,origin,first_game,last_game,engine";

#[cfg(test)]
mod tests {
    use super::*;

    fn line(file: &str, sha: &str, origin: &str, first: u64, last: u64) -> Line {
        Line {
            file: file.into(),
            sha256: sha.into(),
            positions: 100,
            games: last + 1 - first,
            source: Source::Datagen,
            origin: origin.into(),
            first_game: first,
            last_game: last,
            engine: "abc".into(),
        }
    }

    /// The check on a set of (file, sha256, origin, first game, last game) lines.
    fn check(lines: &[(&str, &str, &str, u64, u64)]) -> Result<()> {
        let lines = lines
            .iter()
            .map(|&(f, sha, origin, first, last)| line(f, sha, origin, first, last))
            .collect();
        Manifest { lines }.check_no_game_twice()
    }

    #[test]
    fn disjoint_ranges_of_one_origin_pass() {
        check(&[
            ("a", "1", "seed=1", 1, 10),
            ("b", "2", "seed=1", 11, 20),
            ("c", "3", "seed=2", 1, 20),
        ])
        .unwrap();
    }

    #[test]
    fn a_snapshot_and_its_whole_file_are_refused() {
        let e = check(&[
            ("snap", "1", "seed=1", 1, 10),
            ("whole", "2", "seed=1", 1, 20),
        ])
        .unwrap_err()
        .to_string();
        assert!(e.contains("snap") && e.contains("whole"), "{e}");
    }

    #[test]
    fn one_file_twice_is_refused() {
        assert!(check(&[("a", "1", "seed=1", 1, 10), ("a2", "1", "seed=9", 1, 10)]).is_err());
    }

    #[test]
    fn the_same_range_of_a_pgn_and_a_datagen_origin_do_not_meet() {
        let mut p = line("p", "2", "seed=1", 1, 10);
        p.source = Source::Pgn;
        let m = Manifest {
            lines: vec![line("a", "1", "seed=1", 1, 10), p],
        };
        m.check_no_game_twice().unwrap();
    }

    #[test]
    fn round_trip_through_csv() {
        let dir = std::env::temp_dir().join(format!("augur-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("set.csv");
        let m = Manifest {
            lines: vec![line("a,b", "1", "seed=1 net=ff", 1, 10)],
        };
        m.write(&path).unwrap();
        assert_eq!(Manifest::read(&path).unwrap(), m);
        std::fs::write(&path, "file,sha256\nx,y\n").unwrap();
        assert!(Manifest::read(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
