//! Where a lab result came from: the source commit, the command line, the parsed options, the
//! random seed (if the run has one) and the date. Every lab command puts this at the head of
//! its report and writes it next to its data files, so a number in the docs can be traced to
//! the exact run that produced it and rebuilt.

use crate::kit::git_commit::{git, head_commit};
use anyhow::{Context, Result};
use std::fmt::Debug;
use std::path::Path;
use std::time::SystemTime;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provenance {
    /// The commit the program was built from (`git rev-parse HEAD` at build time), `+dirty`
    /// with uncommitted changes to tracked files; see [`source_commit`].
    pub commit: String,
    /// The program version (the workspace's).
    pub version: String,
    /// The engine's bench signature as the commit log states it (see [`logged_bench`]).
    pub bench: String,
    pub command_line: String,
    /// The parsed options, as the program saw them.
    pub options: String,
    /// The run's random seed; `None` for deterministic runs.
    pub seed: Option<u64>,
    /// UTC, RFC 3339, to the second.
    pub date: String,
}

/// `<file>.provenance.toml`: where a data file's provenance is written beside it.
pub fn beside(file: &Path) -> std::path::PathBuf {
    let mut name = file.file_name().unwrap_or_default().to_os_string();
    name.push(".provenance.toml");
    file.with_file_name(name)
}

/// The source commit of this binary: the one its build recorded (build.rs), so a run that
/// outlives later commits in its checkout still names the code that produced it. A build from
/// outside a checkout falls back to the working directory's HEAD at run time.
pub fn source_commit() -> String {
    let built = env!("AUGUR_LAB_BUILD_COMMIT");
    if !built.is_empty() {
        return built.to_string();
    }
    head_commit().unwrap_or_else(|| "unknown (not run inside a git checkout)".to_string())
}

/// The SHA-256 of some bytes, lower-case hex: the identity of a data file or engine binary
/// (the arena's, which checks kept evidence with it).
pub use augur_arena::matchmaking::kept::sha256_hex;

/// The SHA-256 of a file's contents, read in pieces (training data runs to gigabytes).
pub fn sha256_file(path: &Path) -> Result<String> {
    use sha2::{Digest, Sha256};
    let mut file =
        std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher).with_context(|| format!("reading {}", path.display()))?;
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The engine's bench signature as the commit log states it: the newest `Bench: <N>` line up
/// to the build's commit (HEAD when that is unknown), with its commit (`augur bench` itself
/// takes seconds, too long for every run; with a dirty build this is the bench of the last
/// commit, not necessarily of the binary).
pub fn logged_bench() -> Option<String> {
    let built = source_commit();
    let upto = built
        .split('+')
        .next()
        .filter(|c| c.len() == 40 && c.bytes().all(|b| b.is_ascii_hexdigit()))
        .unwrap_or("HEAD");
    let log = git(&[
        "log",
        "-1",
        "--format=%h%x00%B",
        "--grep=^Bench: [0-9]",
        upto,
    ])?;
    let (hash, body) = log.split_once('\0')?;
    let n = body
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("Bench: "))?;
    Some(format!("{} (commit {hash})", n.trim()))
}

/// The identity of the engine that searches inside this program (collect, compare, mpd): its
/// source commit. A restart on another commit is refused, since the results could differ.
pub fn in_process_engine() -> String {
    format!(
        "in-process augur {} at {}",
        env!("CARGO_PKG_VERSION"),
        source_commit()
    )
}

impl Provenance {
    /// Captures the provenance of the running command with its parsed `options`.
    pub fn capture(options: &impl Debug, seed: Option<u64>) -> Provenance {
        let command_line = std::env::args()
            .map(|a| {
                if a.contains(char::is_whitespace) {
                    format!("'{a}'")
                } else {
                    a
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
        Provenance {
            commit: source_commit(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            bench: logged_bench().unwrap_or_else(|| "unknown (no Bench: line in the log)".into()),
            command_line,
            options: format!("{options:?}"),
            seed,
            date: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
        }
    }

    fn seed_text(&self) -> String {
        self.seed
            .map_or_else(|| "none (deterministic)".to_string(), |s| s.to_string())
    }

    /// A markdown block for the head of a report.
    pub fn markdown(&self) -> String {
        format!(
            "Provenance: commit `{}` (augur-lab {}, engine bench {}), {} UTC; seed {}.\n\
             Command: `{}`\n\
             Options: `{}`\n\n",
            self.commit,
            self.version,
            self.bench,
            self.date,
            self.seed_text(),
            self.command_line,
            self.options
        )
    }

    /// The same as TOML, for a file next to the data.
    pub fn toml(&self) -> String {
        let q = |s: &str| toml::Value::String(s.to_string()).to_string();
        format!(
            "# Provenance of the files in this directory (augur-lab)\n\
             commit = {}\nversion = {}\nbench = {}\ndate = {}\ncommand_line = {}\noptions = {}\nseed = {}\n",
            q(&self.commit),
            q(&self.version),
            q(&self.bench),
            q(&self.date),
            q(&self.command_line),
            q(&self.options),
            q(&self.seed_text())
        )
    }

    /// Writes `provenance.toml` into `dir`.
    pub fn write_into(&self, dir: &Path) -> Result<()> {
        let path = dir.join("provenance.toml");
        std::fs::write(&path, self.toml()).with_context(|| format!("writing {}", path.display()))
    }

    /// Writes `<file>.provenance.toml` next to a data file ([`beside`]).
    pub fn write_beside(&self, file: &Path) -> Result<()> {
        let path = beside(file);
        std::fs::write(&path, self.toml()).with_context(|| format!("writing {}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provenance_names_commit_options_seed_and_date() {
        #[derive(Debug)]
        #[allow(dead_code)]
        struct Opts {
            depth: i32,
        }
        let p = Provenance::capture(&Opts { depth: 7 }, Some(42));
        let md = p.markdown();
        assert!(md.contains("depth: 7"), "{md}");
        assert!(md.contains("seed 42"), "{md}");
        assert!(!p.commit.is_empty());
        // Built inside a checkout, the binary names its build's commit: 40 hex digits, maybe
        // `+dirty` (a copy of the sources without git names "unknown" instead).
        if git(&["rev-parse", "HEAD"]).is_some() {
            let hash = p.commit.split('+').next().unwrap();
            assert!(
                hash.len() == 40 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
                "{}",
                p.commit
            );
        }
        // RFC 3339 in UTC: 2026-11-23T04:00:00Z
        assert_eq!(p.date.len(), 20, "{}", p.date);
        assert!(p.date.ends_with('Z'));
        let t: toml::Table = p.toml().parse().expect("valid TOML");
        assert_eq!(t["seed"].as_str(), Some("42"));
        assert!(t["options"].as_str().unwrap().contains("depth: 7"));
        assert!(t.contains_key("bench"));
    }

    #[test]
    fn sha256_matches_the_standard_vector() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
