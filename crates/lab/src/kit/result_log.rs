//! Result files that survive `kill -9`: a header that names the run's settings, then one
//! record per line, appended and flushed one block at a time as the work finishes.
//!
//! ```text
//! # augur-lab collect: records appended as they finish; the same command resumes
//! # settings: { depth = "8", engine = "in-process, source 1a2b...", epd = "...", ... }
//! # commit = "1a2b..."                       <- the provenance of the run that began the file
//! # ...
//! id,depth,score,mate,stage,nodes,depths,fen   <- the column line
//! 17,1,35,0,middlegame,41,8,r1b2rk1/...
//! ```
//!
//! A restart opens the file, checks the settings line against its own (another line is a
//! refusal naming the differing settings: results of two setups are never mixed), cuts a torn
//! last line (a kill during a write), and hands back the complete records so the command skips
//! what is done. When a run completes, the command rewrites the records in their canonical
//! order, so the finished file does not depend on thread timing or on where the kills fell.
//! The file is created whole (a temporary file renamed into place), so a kill never leaves a
//! half header.

use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::kit::provenance::Provenance;

/// What a result file is: its kind, its settings and its columns.
#[derive(Clone, Debug)]
pub struct Header {
    /// The subcommand, e.g. `collect`.
    pub kind: String,
    /// Everything that decides the records (parameters, data file hashes, engine): a restart
    /// resumes only when these are equal.
    pub settings: Vec<(String, String)>,
    /// Where the first run came from (commit, bench, command line, date, seed); informative,
    /// not compared.
    pub provenance: Provenance,
    /// The CSV column line.
    pub columns: String,
}

fn magic(kind: &str) -> String {
    format!("# augur-lab {kind}: records appended as they finish; the same command resumes")
}

const SETTINGS: &str = "# settings: ";

impl Header {
    /// The settings as one line: a TOML inline table of strings (quoted and escaped by the
    /// TOML writer, so any path or option text fits on the line).
    pub fn settings_line(&self) -> String {
        let fields: Vec<String> = self
            .settings
            .iter()
            .map(|(k, v)| format!("{k} = {}", toml::Value::String(v.clone())))
            .collect();
        format!("{SETTINGS}{{ {} }}", fields.join(", "))
    }

    fn text(&self) -> String {
        let mut s = magic(&self.kind);
        s.push('\n');
        s.push_str(&self.settings_line());
        s.push('\n');
        for line in self.provenance.toml().lines().skip(1) {
            s.push_str("# ");
            s.push_str(line);
            s.push('\n');
        }
        s.push_str(&self.columns);
        s.push('\n');
        s
    }
}

/// Parses a settings line back into pairs (for naming the differences).
fn parse_settings(line: &str) -> Option<Vec<(String, String)>> {
    let table: toml::Table = format!("s = {}", line.strip_prefix(SETTINGS)?)
        .parse()
        .ok()?;
    let s = table.get("s")?.as_table()?;
    Some(
        s.iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
            .collect(),
    )
}

fn differences(found: &str, ours: &Header) -> String {
    let Some(theirs) = parse_settings(found) else {
        return format!("  file: {found}\n  this run: {}", ours.settings_line());
    };
    let mut out = Vec::new();
    let get = |list: &[(String, String)], k: &str| {
        list.iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    let mut keys: Vec<&String> = theirs.iter().map(|(k, _)| k).collect();
    for (k, _) in &ours.settings {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    for k in keys {
        let (a, b) = (get(&theirs, k), get(&ours.settings, k));
        if a != b {
            out.push(format!(
                "  {k}: file has {}, this run has {}",
                a.map_or("nothing".into(), |v| format!("'{v}'")),
                b.map_or("nothing".into(), |v| format!("'{v}'"))
            ));
        }
    }
    out.join("\n")
}

/// An open result file, positioned at its end.
pub struct ResultLog {
    path: PathBuf,
    file: File,
    header: String,
    /// Byte offset of the end of each record line, in file order.
    ends: Vec<u64>,
}

/// What an earlier run left.
pub struct Resumed {
    pub log: ResultLog,
    /// The complete record lines in file order (without their newline).
    pub records: Vec<String>,
    /// Bytes of a torn last line that were cut.
    pub torn_bytes: u64,
}

/// Opens `path` for a run with `header`: creates it, or resumes what an earlier run with the
/// same settings left.
pub fn open(path: &Path, header: &Header) -> Result<Resumed> {
    let shown = path.display();
    let bytes = match std::fs::read(path) {
        Ok(b) if !b.is_empty() => b,
        Ok(_) => Vec::new(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {shown}")),
    };
    let text = header.text();
    if bytes.is_empty() {
        write_whole(path, &text, &[])?;
        let file = append_handle(path)?;
        return Ok(Resumed {
            log: ResultLog {
                path: path.to_path_buf(),
                file,
                header: text,
                ends: Vec::new(),
            },
            records: Vec::new(),
            torn_bytes: 0,
        });
    }
    // Only complete lines count: a kill during a write leaves at most a torn last line.
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let found = std::str::from_utf8(&bytes[..complete]).with_context(|| {
        format!(
            "{shown} is not an augur-lab {} file (not text)",
            header.kind
        )
    })?;
    let mut lines = found.split_inclusive('\n');
    let first = lines.next().unwrap_or("").trim_end();
    if first != magic(&header.kind) {
        bail!(
            "{shown} is not an augur-lab {} result file (its first line is not the run header), \
             so it cannot be resumed: move it away or choose another output",
            header.kind
        );
    }
    let settings = lines.next().unwrap_or("").trim_end();
    if settings != header.settings_line() {
        bail!(
            "{shown} was begun with other settings; resume it with the same ones, or choose \
             another output:\n{}",
            differences(settings, header)
        );
    }
    let mut offset = (first.len() + settings.len() + 2) as u64;
    let mut header_len = 0;
    let mut columns_seen = false;
    let mut records = Vec::new();
    let mut ends = Vec::new();
    for (n, line) in lines.enumerate() {
        offset += line.len() as u64;
        let body = line.trim_end_matches(['\n', '\r']);
        if !columns_seen {
            if body.starts_with('#') {
                continue;
            }
            if body != header.columns {
                bail!(
                    "{shown}:{}: expected the column line '{}', found '{body}' (a file of \
                     another augur-lab version?)",
                    n + 3,
                    header.columns
                );
            }
            columns_seen = true;
            header_len = offset as usize;
            continue;
        }
        records.push(body.to_string());
        ends.push(offset);
    }
    if !columns_seen {
        bail!("{shown}: the header has no column line; move the file away");
    }
    let torn_bytes = (bytes.len() - complete) as u64;
    let mut file = OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {shown}"))?;
    if torn_bytes > 0 {
        file.set_len(complete as u64)
            .with_context(|| format!("cannot cut the torn line of {shown}"))?;
    }
    file.seek(SeekFrom::End(0))?;
    Ok(Resumed {
        log: ResultLog {
            path: path.to_path_buf(),
            file,
            header: found[..header_len].to_string(),
            ends,
        },
        records,
        torn_bytes,
    })
}

fn append_handle(path: &Path) -> Result<File> {
    let mut f = OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    f.seek(SeekFrom::End(0))?;
    Ok(f)
}

/// Writes `header` and `records` to a temporary file and renames it over `path`: a kill at
/// any moment leaves either the old file or the new one.
fn write_whole(path: &Path, header: &str, records: &[String]) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    let tmp = path.with_file_name(name);
    let mut text =
        String::with_capacity(header.len() + records.iter().map(|r| r.len() + 1).sum::<usize>());
    text.push_str(header);
    for r in records {
        text.push_str(r);
        text.push('\n');
    }
    let mut f = File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
    f.write_all(text.as_bytes())
        .and_then(|_| f.sync_all())
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))
}

impl ResultLog {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends a block of records (each without its newline) in one write and flushes it, so a
    /// kill leaves the block whole, or torn in its last line. The test hook
    /// `AUGUR_ARENA_WRITE_PAUSE_MS` (the match runner's) splits the write in two with a pause
    /// between, so the kill tests can tear a record for certain.
    pub fn append(&mut self, records: &[String]) -> Result<()> {
        if records.is_empty() {
            return Ok(());
        }
        let mut block = String::new();
        let mut ends = Vec::with_capacity(records.len());
        for r in records {
            block.push_str(r);
            block.push('\n');
            ends.push(block.len() as u64);
        }
        let start = self.file.stream_position()?;
        augur_arena::game::pgn::append_record(&mut self.file, &block)
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        self.ends.extend(ends.into_iter().map(|e| start + e));
        Ok(())
    }

    /// Keeps only the first `n` records (cuts an unfinished block left by a kill).
    pub fn keep(&mut self, n: usize) -> Result<()> {
        if n >= self.ends.len() {
            return Ok(());
        }
        let len = if n == 0 {
            self.header.len() as u64
        } else {
            self.ends[n - 1]
        };
        self.file
            .set_len(len)
            .with_context(|| format!("cannot cut {}", self.path.display()))?;
        self.file.seek(SeekFrom::End(0))?;
        self.ends.truncate(n);
        Ok(())
    }

    /// Replaces the records by `records` (the canonical order at the end of a run), keeping
    /// the header; atomic.
    pub fn rewrite(&mut self, records: &[String]) -> Result<()> {
        write_whole(&self.path, &self.header, records)?;
        self.file = append_handle(&self.path)?;
        let mut end = self.header.len() as u64;
        self.ends = records
            .iter()
            .map(|r| {
                end += r.len() as u64 + 1;
                end
            })
            .collect();
        Ok(())
    }
}

/// The number of leading records that form complete blocks, given each record's block key and
/// its block's size. A block is a run of consecutive records with the same key. Blocks are
/// appended whole, so only the last one can be short (a kill during its write); a short block
/// anywhere else, or one too long, means the file was edited and is an error.
pub fn complete_blocks<K: PartialEq + std::fmt::Debug>(blocks: &[(K, usize)]) -> Result<usize> {
    let mut kept = 0;
    let mut i = 0;
    while i < blocks.len() {
        let (key, size) = &blocks[i];
        let len = blocks[i..].iter().take_while(|(k, _)| k == key).count();
        let j = i + len;
        if len == *size {
            kept = j;
        } else if j < blocks.len() || len > *size {
            bail!(
                "record {}: the block {key:?} has {len} records, expected {size} (an edited file?)",
                i + 1
            );
        }
        i = j;
    }
    Ok(kept)
}

/// Per position of a run (1-based index − 1), the block an earlier run finished.
pub type Done<T> = Vec<Option<Vec<T>>>;

/// A result file of per-position blocks, opened for a run that may resume an earlier one.
pub struct Blocks<T> {
    /// Cut back to the complete blocks, positioned at its end.
    pub log: ResultLog,
    /// Per position of the run (1-based index − 1), the block an earlier run finished.
    pub done: Done<T>,
}

/// Opens `path` for a run over `positions` positions whose block for each position is one
/// record per member (`members`, in order: variants, rules). `parse` reads a record into its
/// position's 1-based index and value, `member` names a value's member. A kill leaves at most an
/// unfinished last block, which is dropped; a record that does not parse, a position outside
/// the run or twice in the file, or members out of order is an error.
pub fn open_blocks<T: Clone>(
    path: &Path,
    header: &Header,
    positions: usize,
    members: &[&str],
    parse: impl Fn(&str) -> Result<(usize, T)>,
    member: impl Fn(&T) -> &str,
) -> Result<Blocks<T>> {
    let resumed = open(path, header)?;
    let name = path.display();
    let parsed: Vec<(usize, T)> = resumed
        .records
        .iter()
        .enumerate()
        .map(|(i, l)| parse(l).with_context(|| format!("{name}: record {}: '{l}'", i + 1)))
        .collect::<Result<_>>()?;
    let keys: Vec<(usize, usize)> = parsed.iter().map(|p| (p.0, members.len())).collect();
    let kept = complete_blocks(&keys).with_context(|| name.to_string())?;
    let mut log = resumed.log;
    log.keep(kept)?;
    let mut done: Done<T> = vec![None; positions];
    for block in parsed[..kept].chunks(members.len()) {
        let index = block[0].0;
        let Some(slot) = index.checked_sub(1).and_then(|i| done.get_mut(i)) else {
            bail!("{name}: position {index} is not one of this run's {positions}");
        };
        if slot.is_some() {
            bail!("{name}: position {index} is in the file twice");
        }
        for ((_, v), want) in block.iter().zip(members) {
            if member(v) != *want {
                bail!(
                    "{name}: position {index} has '{}' where '{want}' was expected",
                    member(v)
                );
            }
        }
        *slot = Some(block.iter().map(|(_, v)| v.clone()).collect());
    }
    Ok(Blocks { log, done })
}

/// [`open_blocks`] for a run whose result file is optional: without one, nothing is done yet
/// and there is no log to write.
pub fn open_optional_blocks<T: Clone>(
    path: Option<&Path>,
    header: &Header,
    positions: usize,
    members: &[&str],
    parse: impl Fn(&str) -> Result<(usize, T)>,
    member: impl Fn(&T) -> &str,
) -> Result<(Option<ResultLog>, Done<T>)> {
    match path {
        None => Ok((None, vec![None; positions])),
        Some(path) => {
            let blocks = open_blocks(path, header, positions, members, parse, member)?;
            Ok((Some(blocks.log), blocks.done))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("augur-result-log-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn header(depth: &str) -> Header {
        Header {
            kind: "test".into(),
            settings: vec![
                ("depth".into(), depth.into()),
                ("path".into(), "a dir/with \"quotes\", commas".into()),
            ],
            provenance: Provenance::capture(&"opts", Some(3)),
            columns: "key,value".into(),
        }
    }

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn resumes_complete_records_and_cuts_a_torn_line() {
        let d = scratch("resume");
        let path = d.join("r.csv");
        let r = open(&path, &header("5")).unwrap();
        assert!(r.records.is_empty());
        let mut log = r.log;
        log.append(&lines(&["a,1", "a,2"])).unwrap();
        log.append(&lines(&["b,1"])).unwrap();
        drop(log);
        // A kill in the middle of the next write.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"c,1\nc,").unwrap();
        drop(f);
        let r = open(&path, &header("5")).unwrap();
        assert_eq!(r.records, lines(&["a,1", "a,2", "b,1", "c,1"]));
        assert_eq!(r.torn_bytes, 2);
        // Blocks of two: "b" and "c" are short; only "c", the last, may be.
        let key = |l: &String| l.split(',').next().unwrap().to_string();
        let twos: Vec<_> = r.records.iter().map(|l| (key(l), 2)).collect();
        assert!(complete_blocks(&twos).is_err());
        let sizes: Vec<_> = r
            .records
            .iter()
            .map(|l| (key(l), if l.starts_with('a') { 2 } else { 1 }))
            .collect();
        assert_eq!(complete_blocks(&sizes).unwrap(), 4);
        // Only the last block may be short.
        assert_eq!(
            complete_blocks(&[("a", 2), ("a", 2), ("b", 3), ("b", 3)]).unwrap(),
            2
        );
        let mut log = r.log;
        log.keep(2).unwrap();
        log.append(&lines(&["z,9"])).unwrap();
        drop(log);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.ends_with("key,value\na,1\na,2\nz,9\n"), "{text}");
        assert!(text.contains("# seed = \"3\""), "{text}");
        // The canonical rewrite keeps the header of the first run.
        let mut r = open(&path, &header("5")).unwrap();
        r.log.rewrite(&lines(&["z,9", "a,1"])).unwrap();
        r.log.append(&lines(&["y,0"])).unwrap();
        let again = std::fs::read_to_string(&path).unwrap();
        assert_eq!(again, text.replace("a,1\na,2\nz,9\n", "z,9\na,1\ny,0\n"));
        let r = open(&path, &header("5")).unwrap();
        assert_eq!(r.records, lines(&["z,9", "a,1", "y,0"]));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn refuses_other_settings_and_foreign_files() {
        let d = scratch("refuse");
        let path = d.join("r.csv");
        drop(open(&path, &header("5")).unwrap());
        let e = open(&path, &header("6")).err().unwrap().to_string();
        assert!(e.contains("other settings"), "{e}");
        assert!(e.contains("depth: file has '5', this run has '6'"), "{e}");
        assert!(!e.contains("path:"), "{e}");
        let mut other = header("5");
        other.kind = "other".into();
        let e = open(&path, &other).err().unwrap().to_string();
        assert!(e.contains("not an augur-lab other result file"), "{e}");
        let mut cols = header("5");
        cols.columns = "key,value,extra".into();
        let e = open(&path, &cols).err().unwrap().to_string();
        assert!(e.contains("column line"), "{e}");
        let foreign = d.join("old.csv");
        std::fs::write(&foreign, "key,value\na,1\n").unwrap();
        let e = open(&foreign, &header("5")).err().unwrap().to_string();
        assert!(e.contains("cannot be resumed"), "{e}");
        // An empty file (created, never written) starts afresh.
        std::fs::write(&foreign, "").unwrap();
        assert!(open(&foreign, &header("5")).unwrap().records.is_empty());
        let _ = std::fs::remove_dir_all(&d);
    }
}
