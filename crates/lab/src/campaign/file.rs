//! The campaign file: what a campaign is, declared in TOML and checked before anything runs.
//! Unknown keys are refused (a misspelt key would otherwise silently take its default and
//! spend hours on the wrong run).
//!
//! ```toml
//! name = "network"
//! dir = "/work/campaign/network"     # the campaign's files; never in git
//! cores = 2
//! priority = "idle"                  # optional: its processes run only on cycles nothing else needs
//!
//! [engine]                           # pinned into DIR/bin at the first start
//! augur = "target/release/augur"
//! lab = "target/release/augur-lab"
//! # or: commit = "284ef9d"           # both built from this commit in DIR/src
//! #     lab_commit = "..."           # optional: the lab from another commit (DIR/src-lab)
//!
//! [network]                          # the network loop
//! generations = 3
//! start = "embedded"                 # the first best network: "embedded" or a .nnue file
//!
//! [network.held_out]                 # a datagen file never trained on
//! seed = 5000
//! positions = 60000
//!
//! [network.datagen]                  # each generation adds a file of the best network's games
//! seed = 5100                        # generation g plays seed + g
//! positions = 1000000
//! nodes = 5000
//! threads = 1
//!
//! [[network.train]]                  # one or more recipes; the lowest held-out loss is the candidate
//! name = "h256"
//! threads = 2
//! recipe = { hidden = 256, epochs = 16, lr = 0.001 }   # `augur-lab train --config` keys
//!
//! [network.gate]                     # the candidate against the best network
//! control = "nodes=10000"
//! bounds = [0.0, 5.0]
//! games = 12000                      # the cap
//!
//! [[stage]]                          # any lab command that writes --summary
//! id = "sprt-se-40k"
//! command = ["match", "--engine", "...", "--sprt", "0,10"]
//! cores = 1
//! after = ["gen1/promote"]
//! alone = true                       # a timed match: only under `campaign run --alone`
//! if_h1 = "sprt-se-40k"              # runs only if that stage's SPRT accepted H1, else skipped
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CampaignFile {
    pub name: String,
    /// The campaign's folder (relative paths are taken from the working directory).
    pub dir: Option<PathBuf>,
    /// Cores the campaign may keep busy at once.
    #[serde(default = "default_cores")]
    pub cores: usize,
    /// How the campaign's processes share the machine with other work.
    #[serde(default)]
    pub priority: Priority,
    #[serde(default)]
    pub engine: EngineFiles,
    pub network: Option<NetworkLoop>,
    #[serde(default)]
    pub stage: Vec<CommandStage>,
}

/// [campaign-priority] A long background job (datagen toward a 30 M corpus) should take every
/// cycle that nothing else needs and none that something needs: `idle` starts its processes
/// under Linux's SCHED_IDLE, which their engines inherit, so studies and matches beside it run
/// as if it were not there while the cores still never sit empty.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    /// The scheduler's ordinary share (the runner's own nice level).
    #[default]
    Normal,
    /// SCHED_IDLE: only cycles no other process wants.
    Idle,
}

fn default_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The binaries a campaign plays and trains with; copied into the campaign's folder at its
/// first start, so that a rebuild of the checkout never changes a campaign half-way.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EngineFiles {
    /// The engine (default: `augur` beside the running `augur-lab`).
    pub augur: Option<PathBuf>,
    /// The lab (default: the running `augur-lab`).
    pub lab: Option<PathBuf>,
    /// [campaign-commit] The commit whose build the campaign runs: at the first start both
    /// binaries are built from it in `DIR/src` (a git worktree of the checkout), so that any
    /// machine, a new one after a lost one included, plays the same engine.
    pub commit: Option<String>,
    /// [campaign-lab-commit] With `commit`, the lab built from this other commit (in
    /// `DIR/src-lab`): an old engine judged by a later lab (its `--summary`, statistics and
    /// evidence), the games the old engine's own lab played coming back move for move.
    pub lab_commit: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NetworkLoop {
    pub generations: u32,
    /// `embedded` (the engine's compiled-in network) or a network file.
    #[serde(default = "embedded")]
    pub start: String,
    pub held_out: Datagen,
    pub datagen: Datagen,
    pub train: Vec<TrainRun>,
    pub gate: Gate,
    /// Whether each gate's games join the next generation's data (converted whole).
    #[serde(default = "yes")]
    pub convert_gates: bool,
    /// Data made outside the loop with the loop's own datagen settings and a seed of its own
    /// (a burst on a lent machine with the campaign's bin/): manifest files (`corpus manifest`;
    /// a relative path is in the campaign's folder) whose lines join every generation's
    /// training set, each file checked by its SHA-256 when a training stage starts.
    #[serde(default)]
    pub extra: Vec<PathBuf>,
}

fn embedded() -> String {
    "embedded".to_string()
}

fn yes() -> bool {
    true
}

/// A datagen run of the loop: the held-out file (its seed as given) or each generation's file
/// (generation g plays seed + g; the held-out seed must not be among them).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Datagen {
    pub seed: u64,
    /// Positions of the held-out file, or that each generation adds.
    pub positions: u64,
    #[serde(default = "default_nodes")]
    pub nodes: u64,
    #[serde(default = "one")]
    pub threads: usize,
    /// Further `augur-lab datagen` flags, as `--name value` pairs (e.g. `hash = "2"`).
    #[serde(default)]
    pub flags: BTreeMap<String, toml::Value>,
}

fn default_nodes() -> u64 {
    5000
}

fn one() -> usize {
    1
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TrainRun {
    pub name: String,
    #[serde(default = "one")]
    pub threads: usize,
    /// `augur-lab train` configuration keys (the campaign adds data, held_out and out).
    #[serde(default)]
    pub recipe: toml::Table,
}

impl TrainRun {
    /// The `train --config` file of this run: the recipe with `{best}` (`init = "{best}"`:
    /// fine-tune the best network) replaced and the keys that are the campaign's set.
    pub fn config(
        &self,
        data: &[String],
        held_out: &str,
        out: &str,
        threads: usize,
        best: &str,
    ) -> toml::Table {
        let mut config = self.recipe.clone();
        for (_, value) in config.iter_mut() {
            if let toml::Value::String(s) = value {
                *s = s.replace("{best}", best);
            }
        }
        let strings = |v: &[String]| v.iter().cloned().map(toml::Value::String).collect();
        config.insert("data".into(), toml::Value::Array(strings(data)));
        config.insert(
            "held_out".into(),
            toml::Value::Array(strings(&[held_out.to_string()])),
        );
        config.insert("out".into(), toml::Value::String(out.into()));
        config.insert("threads".into(), toml::Value::Integer(threads as i64));
        config
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Gate {
    /// `augur-lab match --tc`.
    #[serde(default = "default_control")]
    pub control: String,
    /// SPRT bounds (Elo0, Elo1).
    pub bounds: [f64; 2],
    #[serde(default = "normalized")]
    pub elo_model: String,
    /// The cap: games before the SPRT gives up undecided (the best network stays).
    pub games: u64,
    #[serde(default = "one")]
    pub concurrency: usize,
    /// Openings file (default: the match's bundled book).
    pub openings: Option<PathBuf>,
    /// Seed of the opening order; generation g plays seed + g.
    #[serde(default = "one_u64")]
    pub seed: u64,
}

fn default_control() -> String {
    "nodes=10000".to_string()
}

fn normalized() -> String {
    "normalized".to_string()
}

fn one_u64() -> u64 {
    1
}

/// Any lab command that writes `--summary` (a scaling study, a list of SPRTs, ...).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CommandStage {
    /// The stage's name and its folder under the campaign's (letters, digits, `-`, `_`).
    pub id: String,
    /// The lab's arguments: `["match", "--engine", ...]`. `{dir}` is the stage's folder,
    /// `{augur}` the pinned engine, `{best}` the best network so far (a file path).
    pub command: Vec<String>,
    #[serde(default = "one")]
    pub cores: usize,
    /// Stages that must be done first (ids, or the network loop's `genN/<step>`).
    #[serde(default)]
    pub after: Vec<String>,
    /// [campaign-alone] A timed match measures the clock, so any other load changes its
    /// result: such a stage runs only under `campaign run --alone` (one file, no other lab
    /// process on the machine); a plain `run` leaves it and says so.
    #[serde(default)]
    pub alone: bool,
    /// [campaign-if-h1] A stage that judges further only what an SPRT passed (a timed gate
    /// after a fixed-node SPRT): it waits for that stage and runs only if its verdict is H1;
    /// otherwise it is marked skipped, with the verdict, and nothing is played.
    pub if_h1: Option<String>,
}

impl CampaignFile {
    /// Reads and checks a campaign file.
    pub fn read(path: &Path) -> Result<CampaignFile> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the campaign file {}", path.display()))?;
        let file: CampaignFile = toml::from_str(&text)
            .with_context(|| format!("{} is not a campaign file", path.display()))?;
        file.check()
            .with_context(|| format!("{}: the campaign is refused", path.display()))?;
        Ok(file)
    }

    fn check(&self) -> Result<()> {
        if !is_name(&self.name) {
            bail!(
                "name '{}': use letters, digits, '-', '_' and '.', beginning with a letter or digit",
                self.name
            );
        }
        if self.cores == 0 {
            bail!("cores = 0: a campaign needs at least one core");
        }
        for (key, c) in [
            ("commit", &self.engine.commit),
            ("lab_commit", &self.engine.lab_commit),
        ] {
            if let Some(c) = c {
                if !(7..=40).contains(&c.len()) || !c.chars().all(|ch| ch.is_ascii_hexdigit()) {
                    bail!("engine.{key} '{c}': a commit is 7 to 40 hex digits");
                }
            }
        }
        if self.engine.commit.is_some()
            && (self.engine.augur.is_some() || self.engine.lab.is_some())
        {
            bail!("engine.commit builds both binaries: leave out engine.augur and engine.lab");
        }
        if self.engine.lab_commit.is_some() && self.engine.commit.is_none() {
            bail!("engine.lab_commit needs engine.commit: it replaces that commit's lab");
        }
        if let Some(n) = &self.network {
            if n.generations == 0 {
                bail!("network.generations = 0: nothing to do");
            }
            if n.train.is_empty() {
                bail!("network: at least one [[network.train]] run is needed");
            }
            let mut names = std::collections::HashSet::new();
            for t in &n.train {
                if !is_name(&t.name) || !names.insert(&t.name) {
                    bail!("network.train name '{}' is not a unique name", t.name);
                }
                for key in [
                    "data",
                    "held_out",
                    "held_out_positions",
                    "validation",
                    "out",
                    "resume",
                    "config",
                ] {
                    if t.recipe.contains_key(key) {
                        bail!(
                            "network.train '{}': recipe key '{key}' is the campaign's to set",
                            t.name
                        );
                    }
                }
                // The recipe as `train --config` will read it when its stage starts (the
                // campaign's data standing in), so a misspelt key is found now, not hours later.
                let config = t.config(&["data.bin".into()], "held-out.bin", "out", 1, "best.nnue");
                let run: crate::train::config::RunConfig = toml::Value::Table(config)
                    .try_into()
                    .with_context(|| format!("network.train '{}': the recipe", t.name))?;
                run.validate()
                    .with_context(|| format!("network.train '{}': the recipe", t.name))?;
            }
            let seeds = n.datagen.seed + 1..=n.datagen.seed + u64::from(n.generations);
            if seeds.contains(&n.held_out.seed) {
                bail!(
                    "network.held_out.seed {} is also a generation's datagen seed ({}..={}): \
                     the held-out games would be trained on",
                    n.held_out.seed,
                    seeds.start(),
                    seeds.end()
                );
            }
            if n.held_out.positions == 0 || n.datagen.positions == 0 {
                bail!("network: held_out.positions and datagen.positions must be above 0");
            }
            let [e0, e1] = n.gate.bounds;
            if e0.partial_cmp(&e1) != Some(std::cmp::Ordering::Less) {
                bail!("network.gate.bounds [{e0}, {e1}]: Elo0 must be below Elo1");
            }
            if !["normalized", "logistic"].contains(&n.gate.elo_model.as_str()) {
                bail!(
                    "network.gate.elo_model '{}': normalized or logistic",
                    n.gate.elo_model
                );
            }
            if n.gate.games < 2 {
                bail!("network.gate.games must be at least 2 (one opening, both colours)");
            }
            // The gate's match is built only after datagen and training: its keys are read
            // now, as the match will read them, so a typo costs no hours.
            n.gate
                .control
                .parse::<augur_arena::game::time_control::TimeControl>()
                .context("network.gate.control")?;
            if n.gate.concurrency == 0 {
                bail!("network.gate.concurrency must be at least 1");
            }
            for (what, run) in [("held_out", &n.held_out), ("datagen", &n.datagen)] {
                if run.nodes == 0 || run.threads == 0 {
                    bail!("network.{what}: nodes and threads must be at least 1");
                }
            }
        }
        let mut ids = std::collections::HashSet::new();
        for s in &self.stage {
            if !is_name(&s.id) || s.id.starts_with("gen") || s.id == "held-out" {
                bail!(
                    "stage id '{}': letters, digits, '-', '_' and '.', beginning with a letter \
                     or digit, not 'bin', 'nets' or 'extra' (the campaign's own folders), not \
                     starting with 'gen' nor 'held-out' (the network loop's names)",
                    s.id
                );
            }
            if !ids.insert(s.id.clone()) {
                bail!("stage id '{}' is declared twice", s.id);
            }
            if s.command.is_empty() {
                bail!("stage '{}': an empty command", s.id);
            }
            if s.command.iter().any(|a| a == "--summary") {
                bail!(
                    "stage '{}': the campaign adds --summary itself (a stage is done when its \
                     summary exists)",
                    s.id
                );
            }
        }
        for s in &self.stage {
            let Some(on) = &s.if_h1 else { continue };
            let is_sprt = |c: &CommandStage| {
                c.command.first().is_some_and(|a| a == "match")
                    && c.command.iter().any(|a| a == "--sprt")
            };
            let gate = on.starts_with("gen") && on.ends_with("/gate") && self.network.is_some();
            if !gate && !self.stage.iter().any(|c| &c.id == on && is_sprt(c)) {
                bail!(
                    "stage '{}': if_h1 = '{on}' names no SPRT (a `match ... --sprt` stage of \
                     this file, or a network gate genN/gate)",
                    s.id
                );
            }
        }
        if self.network.is_none() && self.stage.is_empty() {
            bail!("nothing declared: add [network] or [[stage]]");
        }
        Ok(())
    }
}

/// A name that is also a folder: it starts with a letter or digit (so never `.`, `..` or a
/// hidden folder) and is not one of the folders the campaign keeps for itself.
fn is_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphanumeric())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
        && !RESERVED.contains(&s)
}

/// The campaign folder's own entries (pinned binaries, networks, extra data).
const RESERVED: [&str; 3] = ["bin", "nets", "extra"];

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: &str = r#"
name = "tiny"
cores = 2
[network]
generations = 1
[network.held_out]
seed = 9
positions = 100
[network.datagen]
seed = 10
positions = 500
[[network.train]]
name = "a"
recipe = { hidden = 16, epochs = 1 }
[network.gate]
bounds = [0.0, 5.0]
games = 10
"#;

    fn parse(text: &str) -> Result<CampaignFile> {
        let f: CampaignFile = toml::from_str(text)?;
        f.check()?;
        Ok(f)
    }

    #[test]
    fn a_tiny_campaign_reads() {
        let f = parse(TINY).unwrap();
        assert_eq!(
            f.network.unwrap().train[0].recipe["hidden"].as_integer(),
            Some(16)
        );
    }

    #[test]
    fn if_h1_reads_for_an_sprt_stage_and_a_gate() {
        let sprt = "\n[[stage]]\nid = \"s\"\ncommand = [\"match\", \"--sprt\", \"0,5\"]\n";
        for on in ["s", "gen1/gate"] {
            let text = format!(
                "{TINY}{sprt}[[stage]]\nid = \"t\"\nalone = true\nif_h1 = \"{on}\"\ncommand = [\"match\"]\n"
            );
            let f = parse(&text).unwrap();
            assert_eq!(f.stage[1].if_h1.as_deref(), Some(on));
            assert!(f.stage[1].alone);
        }
    }

    #[test]
    fn an_engine_commit_reads_and_a_bad_one_is_refused() {
        let with =
            |engine: &str| TINY.replace("cores = 2", &format!("cores = 2\n[engine]\n{engine}"));
        let f = parse(&with("commit = \"284ef9d\"")).unwrap();
        assert_eq!(f.engine.commit.as_deref(), Some("284ef9d"));
        let f = parse(&with("commit = \"e3809f7\"\nlab_commit = \"0553fc4\"")).unwrap();
        assert_eq!(f.engine.lab_commit.as_deref(), Some("0553fc4"));
        for bad in [
            "commit = \"284ef9\"",
            "commit = \"main\"",
            "commit = \"284ef9d\"\naugur = \"x\"",
            "commit = \"284ef9d\"\nlab_commit = \"HEAD\"",
            "lab_commit = \"0553fc4\"",
        ] {
            assert!(parse(&with(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_priority_reads_and_a_bad_one_is_refused() {
        assert_eq!(parse(TINY).unwrap().priority, Priority::Normal);
        let idle = TINY.replace("cores = 2", "cores = 2\npriority = \"idle\"");
        assert_eq!(parse(&idle).unwrap().priority, Priority::Idle);
        let bad = TINY.replace("cores = 2", "cores = 2\npriority = \"low\"");
        assert!(parse(&bad).is_err());
    }

    #[test]
    fn mistakes_are_refused_with_their_reason() {
        let cases = [
            (TINY.replace("games = 10", "gamez = 10"), "unknown field"),
            (TINY.replace("seed = 9", "seed = 11"), "trained on"),
            (TINY.replace("[0.0, 5.0]", "[5.0, 0.0]"), "Elo0"),
            (
                TINY.replace("hidden = 16", "out = \"x\""),
                "campaign's to set",
            ),
            // The recipe is read as the trainer will read it.
            (TINY.replace("hidden = 16", "hiden = 16"), "hiden"),
            (
                TINY.replace("games = 10", "games = 10\ncontrol = \"garbage\""),
                "network.gate.control",
            ),
            (
                TINY.replace("games = 10", "games = 10\nconcurrency = 0"),
                "gate.concurrency",
            ),
            (TINY.replace("hidden = 16", "hidden = 100"), "hidden = 100"),
            (
                TINY.replace("hidden = 16", "hidden = 16, bucket_decay = 3.0"),
                "bucket_decay needs factoriser",
            ),
            (
                TINY.replace("generations = 1", "generations = 0"),
                "nothing to do",
            ),
            (
                format!("{TINY}\n[[stage]]\nid = \"gen2\"\ncommand = [\"match\"]\n"),
                "not starting with 'gen'",
            ),
            // A stage id is a folder in the campaign's: never above it, nor one of its own.
            (
                format!("{TINY}\n[[stage]]\nid = \"..\"\ncommand = [\"match\"]\n"),
                "beginning with a letter",
            ),
            (
                format!("{TINY}\n[[stage]]\nid = \"bin\"\ncommand = [\"match\"]\n"),
                "the campaign's own folders",
            ),
            (
                TINY.replace("name = \"tiny\"", "name = \".hidden\""),
                "beginning with",
            ),
            (
                format!(
                    "{TINY}\n[[stage]]\nid = \"s\"\ncommand = [\"match\", \"--summary\", \"x\"]\n"
                ),
                "adds --summary",
            ),
            (
                format!(
                    "{TINY}\n[[stage]]\nid = \"d\"\ncommand = [\"datagen\"]\n\
                     [[stage]]\nid = \"t\"\nif_h1 = \"d\"\ncommand = [\"match\"]\n"
                ),
                "names no SPRT",
            ),
        ];
        for (text, why) in cases {
            let e = format!("{:#}", parse(&text).unwrap_err());
            assert!(e.contains(why), "expected '{why}' in: {e}");
        }
    }

    /// Every campaign file of the repository is one the runner accepts: a pre-registration
    /// that the runner would refuse on the day it is run is no plan.
    #[test]
    fn the_repository_campaigns_are_accepted() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../campaigns");
        let mut read = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                CampaignFile::read(&path).unwrap_or_else(|e| panic!("{e:#}"));
                read += 1;
            }
        }
        assert!(read >= 1, "no campaign in {}", dir.display());
    }
}
