//! The resume journal: a text file beside the data file (`FILE.journal`) with the run's
//! settings on its first line and one line `<game index> <records>` per finished game, written
//! after the game's records reached the data file. The data file stays pure bullet records.
//!
//! After an interruption (Ctrl-C, kill -9, a crash) at any moment, the journal's complete lines
//! say exactly which games are in the data file: a torn last journal line is dropped, data
//! beyond the journalled games (a game written but not yet journalled, or half written) is cut,
//! and the run goes on with the next game index. Games are deterministic, so the games replayed
//! are the same ones.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::data::records::{Record, RecordWriter, RECORD_SIZE};

const MAGIC: &str = "augur-lab datagen journal 1;";

pub fn journal_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".journal");
    PathBuf::from(name)
}

/// Where an opened run stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resumed {
    /// Finished games in the file (the next game index).
    pub games: u64,
    pub records: u64,
    /// Bytes of data past the last journalled game that were cut.
    pub cut_bytes: u64,
}

/// The open data file and journal, positioned at their ends.
pub struct Run {
    data: File,
    journal: File,
}

impl Run {
    /// Appends game `index`: its records to the data file in one write, then its journal line.
    pub fn write_game(&mut self, index: u64, records: &[Record]) -> Result<()> {
        RecordWriter::new(&mut self.data)
            .write_game(records)
            .context("writing the data file")?;
        self.finish_game(index, records.len())
    }

    /// Records game `index` as finished; called after its records are in the data file.
    fn finish_game(&mut self, index: u64, records: usize) -> Result<()> {
        self.journal
            .write_all(format!("{index} {records}\n").as_bytes())
            .context("writing the journal")
    }
}

/// Opens `out` and its journal for a run with these `settings` (one line of text), creating
/// them, or resuming what an earlier run with the same settings left.
pub fn open(out: &Path, settings: &str) -> Result<(Run, Resumed)> {
    let jpath = journal_path(out);
    let header = format!("{MAGIC} {settings}\n");
    let data_len = match std::fs::metadata(out) {
        Ok(m) => m.len(),
        Err(_) => 0,
    };
    let (keep_journal, resumed) = if jpath.exists() {
        recover(&jpath, &header, data_len)?
    } else {
        if data_len > 0 {
            bail!(
                "{} exists but {} does not, so it is not a datagen run to resume; \
                 move it away or choose another --out",
                out.display(),
                jpath.display()
            );
        }
        std::fs::write(&jpath, &header)
            .with_context(|| format!("cannot write {}", jpath.display()))?;
        (header.len() as u64, Resumed::default())
    };
    let journal = OpenOptions::new()
        .write(true)
        .open(&jpath)
        .with_context(|| format!("cannot open {}", jpath.display()))?;
    journal.set_len(keep_journal)?;
    let data = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(out)
        .with_context(|| format!("cannot open {}", out.display()))?;
    data.set_len(resumed.records * RECORD_SIZE as u64)?;
    let mut run = Run { data, journal };
    use std::io::{Seek, SeekFrom};
    run.data.seek(SeekFrom::End(0))?;
    run.journal.seek(SeekFrom::End(0))?;
    Ok((run, resumed))
}

/// What a datagen file holds as its journal vouches for it, read without changing either
/// file: the run's settings line and its whole games (a live run's file may hold part of a
/// game more, which a cut leaves out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Journalled {
    pub settings: String,
    pub games: u64,
    pub records: u64,
    /// Games the journal lists after those whose data the file holds (data lost with the
    /// page cache of a crashed machine, or a file cut short since): a run replays them, a
    /// finished file is missing them.
    pub unbacked: u64,
}

/// Reads `out`'s journal as it stands (a run may be writing it).
pub fn read(out: &Path) -> Result<Journalled> {
    let jpath = journal_path(out);
    let bytes =
        std::fs::read(&jpath).with_context(|| format!("cannot read {}", jpath.display()))?;
    let first = match bytes.iter().position(|&b| b == b'\n') {
        Some(i) => std::str::from_utf8(&bytes[..=i]).ok(),
        None => None,
    };
    let Some(header) = first.filter(|h| h.starts_with(MAGIC)) else {
        bail!("{} is not a datagen journal", jpath.display());
    };
    let data_len = std::fs::metadata(out)
        .with_context(|| format!("cannot read {}", out.display()))?
        .len();
    let (valid, r) = recover(&jpath, header, data_len)?;
    let listed = bytes.get(valid as usize..).map_or(0, |rest| {
        rest.iter().filter(|&&b| b == b'\n').count() as u64
    });
    Ok(Journalled {
        settings: header[MAGIC.len()..].trim().to_string(),
        games: r.games,
        records: r.records,
        unbacked: listed,
    })
}

/// Reads the journal: the length of its valid part and the games it vouches for.
fn recover(jpath: &Path, header: &str, data_len: u64) -> Result<(u64, Resumed)> {
    let bytes = std::fs::read(jpath).with_context(|| format!("cannot read {}", jpath.display()))?;
    let shown = jpath.display();
    // Only complete lines count: a kill during a write leaves at most a torn last line.
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let text = std::str::from_utf8(&bytes[..complete])
        .with_context(|| format!("{shown} is not a datagen journal (not text)"))?;
    let mut lines = text.split_inclusive('\n');
    match lines.next() {
        None if data_len == 0 => {
            std::fs::write(jpath, header)?;
            return Ok((header.len() as u64, Resumed::default()));
        }
        None => bail!("{shown}: the settings line is missing, so the data cannot be resumed"),
        Some(first) if first == header => {}
        Some(first) if first.starts_with(MAGIC) => bail!(
            "{shown} was written with other settings:\n  journal: {}\n  this run: {}\n\
             resume with the same settings, or choose another --out",
            first[MAGIC.len()..].trim(),
            header[MAGIC.len()..].trim()
        ),
        Some(_) => bail!("{shown} is not a datagen journal"),
    }
    let mut valid = header.len() as u64;
    let mut r = Resumed::default();
    for (n, line) in lines.enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let parsed = match fields.as_slice() {
            [i, c] => i.parse::<u64>().ok().zip(c.parse::<u64>().ok()),
            _ => None,
        };
        let Some((index, count)) = parsed else {
            bail!(
                "{shown}: line {} is not '<game> <records>': {line:?}",
                n + 2
            );
        };
        if index != r.games {
            bail!(
                "{shown}: line {} is game {index}, expected game {}",
                n + 2,
                r.games
            );
        }
        // The data of a journalled game can only be missing after a crash of the machine
        // (page cache lost); then that game and the rest are replayed.
        // (A count no file could hold, from a damaged journal, overflows: treated the same.)
        let end = r
            .records
            .checked_add(count)
            .and_then(|n| n.checked_mul(RECORD_SIZE as u64));
        if end.is_none_or(|end| end > data_len) {
            break;
        }
        r.games += 1;
        r.records += count;
        valid += line.len() as u64;
    }
    r.cut_bytes = data_len - r.records * RECORD_SIZE as u64;
    Ok((valid, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("augur-journal-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn write_game(run: &mut Run, index: u64, records: usize) {
        run.data
            .write_all(&vec![7u8; records * RECORD_SIZE])
            .unwrap();
        run.finish_game(index, records).unwrap();
    }

    #[test]
    fn resumes_after_the_last_journalled_game_and_cuts_torn_tails() {
        let d = dir("resume");
        let out = d.join("data.bin");
        let (mut run, r) = open(&out, "seed=1").unwrap();
        assert_eq!(r, Resumed::default());
        write_game(&mut run, 0, 3);
        write_game(&mut run, 1, 0);
        write_game(&mut run, 2, 2);
        // A game written but not journalled, and half a record more.
        run.data.write_all(&[1u8; 4 * RECORD_SIZE + 5]).unwrap();
        drop(run);
        // A torn journal line.
        let mut j = OpenOptions::new()
            .append(true)
            .open(journal_path(&out))
            .unwrap();
        j.write_all(b"3 4").unwrap();
        drop(j);

        let (mut run, r) = open(&out, "seed=1").unwrap();
        assert_eq!(
            r,
            Resumed {
                games: 3,
                records: 5,
                cut_bytes: (4 * RECORD_SIZE + 5) as u64
            }
        );
        assert_eq!(
            std::fs::metadata(&out).unwrap().len(),
            5 * RECORD_SIZE as u64
        );
        write_game(&mut run, 3, 1);
        drop(run);
        let text = std::fs::read_to_string(journal_path(&out)).unwrap();
        assert!(text.ends_with("\n0 3\n1 0\n2 2\n3 1\n"), "{text}");
        let (_, r) = open(&out, "seed=1").unwrap();
        assert_eq!((r.games, r.records, r.cut_bytes), (4, 6, 0));
        assert_eq!(read(&out).unwrap().unbacked, 0);
        // Data lost under journalled games (a file cut short): read says how many (the
        // manifest of a finished file then refuses, corpus's tests).
        let data = std::fs::read(&out).unwrap();
        std::fs::write(&out, &data[..3 * RECORD_SIZE]).unwrap();
        let j = read(&out).unwrap();
        assert_eq!((j.games, j.records, j.unbacked), (2, 3, 2));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn refuses_other_settings_foreign_files_and_a_corrupt_journal() {
        let d = dir("refuse");
        let out = d.join("data.bin");
        drop(open(&out, "seed=1").unwrap());
        let err = open(&out, "seed=2").err().unwrap().to_string();
        assert!(
            err.contains("other settings") && err.contains("seed=2"),
            "{err}"
        );

        let foreign = d.join("foreign.bin");
        std::fs::write(&foreign, [0u8; 64]).unwrap();
        let err = open(&foreign, "seed=1").err().unwrap().to_string();
        assert!(err.contains("not a datagen run to resume"), "{err}");

        std::fs::write(journal_path(&out), format!("{MAGIC} seed=1\n0 1\n5 1\n")).unwrap();
        std::fs::write(&out, [0u8; 64]).unwrap();
        let err = open(&out, "seed=1").err().unwrap().to_string();
        assert!(err.contains("is game 5, expected game 1"), "{err}");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
