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
//!
//! The records are CSV rows of a serde type ([`Row`]), written and read by the `csv` crate
//! ([`to_line`], [`from_line`], [`read_rows`]); the column line is the type's field names, so
//! a file keeps its columns as long as the type keeps its fields.

use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::kit::provenance::Provenance;

/// A record of a result file: one CSV row of a serde type. `COLUMNS` is its column line, the
/// serialized field names in order (a debug build checks every row it writes against it).
pub trait Row: Serialize + DeserializeOwned {
    const COLUMNS: &'static str;
}

/// The row as one CSV line (no newline), quoted where a field needs it.
pub fn to_line<R: Row>(row: &R) -> Result<String> {
    let mut out = csv::WriterBuilder::new()
        .has_headers(cfg!(debug_assertions))
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    out.serialize(row)?;
    let bytes = out.into_inner().map_err(|e| anyhow!("{e}"))?;
    let text = String::from_utf8(bytes)?;
    let mut lines = text.lines();
    if cfg!(debug_assertions) {
        let columns = lines.next().unwrap_or_default();
        assert_eq!(
            columns,
            R::COLUMNS,
            "the row type's fields are not its columns"
        );
    }
    Ok(lines.next().unwrap_or_default().to_string())
}

/// Reads one CSV line (a record of a result file) into its row type; an error names the
/// column that did not parse.
pub fn from_line<R: Row>(line: &str) -> Result<R> {
    let columns = csv::StringRecord::from(R::COLUMNS.split(',').collect::<Vec<_>>());
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line.as_bytes());
    let record = reader
        .records()
        .next()
        .unwrap_or_else(|| Ok(csv::StringRecord::new()))?;
    if record.len() != columns.len() {
        bail!(
            "expected {} fields ({}), found {}",
            columns.len(),
            R::COLUMNS,
            record.len()
        );
    }
    record
        .deserialize(Some(&columns))
        .map_err(|e| named_error(&e, &columns))
}

/// A csv error with the column's name in place of its number (a field's own serde names its
/// field in its message, which csv gives no number).
fn named_error(e: &csv::Error, columns: &csv::StringRecord) -> anyhow::Error {
    match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => {
            match err.field().and_then(|i| columns.get(i as usize)) {
                Some(name) => anyhow!("column {name}: {}", err.kind()),
                None => anyhow!("{}", err.kind()),
            }
        }
        _ => anyhow!("{e}"),
    }
}

/// The settings line of a result file's header (what decided its records), or a note that
/// the file has none; a fit names its data's origin with it.
pub fn settings_line(path: &std::path::Path) -> String {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| {
            t.lines()
                .take_while(|l| l.starts_with('#'))
                .find_map(|l| l.strip_prefix("# settings: ").map(str::to_string))
        })
        .unwrap_or_else(|| "unknown (a CSV without the collect header)".into())
}

/// Reads a result file's records strictly: every line must parse and pass `check` (the error
/// names the record).
pub fn read_checked<R: Row>(
    path: &std::path::Path,
    check: impl Fn(&R) -> Result<()>,
) -> Result<Vec<R>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let name = path.display().to_string();
    let records: Vec<R> = read_rows(&text, &name)?;
    for (i, r) in records.iter().enumerate() {
        check(r).with_context(|| format!("{name}: record {}", i + 1))?;
    }
    Ok(records)
}

/// Reads a whole CSV text of `R` rows: `#` lines (a result file's header) are skipped, the
/// column line must be `R`'s, and an error names the line (`name:line`).
pub fn read_rows<R: Row>(text: &str, name: &str) -> Result<Vec<R>> {
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let headers = reader.headers()?.clone();
    let columns = csv::StringRecord::from(R::COLUMNS.split(',').collect::<Vec<_>>());
    if headers != columns {
        bail!(
            "{name}: expected the column line '{}', found '{}'",
            R::COLUMNS,
            headers.iter().collect::<Vec<_>>().join(",")
        );
    }
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.with_context(|| format!("{name}: bad CSV"))?;
        let line = record.position().map_or(0, |p| p.line());
        let row = record
            .deserialize(Some(&columns))
            .map_err(|e| named_error(&e, &columns))
            .with_context(|| {
                let text: Vec<&str> = record.iter().collect();
                format!("{name}:{line}: bad CSV line '{}'", text.join(","))
            })?;
        out.push(row);
    }
    Ok(out)
}

/// Serde for a field kept as its text: `Display` out, `FromStr` in (engine types such as the
/// search mode, which have no serde of their own).
pub mod as_text {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};
    use std::fmt::Display;
    use std::str::FromStr;

    pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        let text = String::deserialize(d)?;
        text.parse().map_err(D::Error::custom)
    }
}

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

/// One setting of a result file's settings line (`engine_sha256`, `seed`, ...), if it has it.
pub fn setting(path: &std::path::Path, key: &str) -> Option<String> {
    let pairs = parse_settings(&format!("{SETTINGS}{}", settings_line(path)))?;
    pairs.into_iter().find(|(k, _)| k == key).map(|(_, v)| v)
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

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Named {
        id: String,
        n: Option<u32>,
    }

    impl Row for Named {
        const COLUMNS: &'static str = "id,n";
    }

    #[test]
    fn rows_are_quoted_where_they_need_it_and_read_back() {
        let odd = Named {
            id: "a \"b\", c".into(),
            n: None,
        };
        let line = to_line(&odd).unwrap();
        assert_eq!(line, "\"a \"\"b\"\", c\",");
        assert_eq!(from_line::<Named>(&line).unwrap(), odd);
        let e = from_line::<Named>("x,-1").unwrap_err().to_string();
        assert!(e.starts_with("column n: "), "{e}");
        let e = from_line::<Named>("x").unwrap_err().to_string();
        assert!(e.contains("expected 2 fields (id,n), found 1"), "{e}");
        let text = "# a header\nid,n\nx,1\ny,\nz,q\n";
        let e = format!("{:#}", read_rows::<Named>(text, "f.csv").unwrap_err());
        assert!(e.contains("f.csv:5: bad CSV line 'z,q'"), "{e}");
        let rows = read_rows::<Named>(&text[..text.len() - 4], "f.csv").unwrap();
        assert_eq!(
            rows[1],
            Named {
                id: "y".into(),
                n: None
            }
        );
        assert!(read_rows::<Named>("id,m\n", "f.csv").is_err());
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
