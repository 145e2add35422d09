//! What each stage runs. A stage that runs a process gets its command line resolved once, at
//! its first start, and frozen in its folder (`command.toml`): a datagen stage begun with one
//! network resumes with that network even after a promotion, and a restart after a kill runs
//! exactly what was running. The runner's own stages (choose, promote) read the typed
//! summaries of the stages before them and write their own.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::file::{CampaignFile, CommandStage};
use super::plan::{gen_id, Stage, Step};
use crate::corpus::manifest::{Line, Manifest, Source};
use crate::kit::summary;
use crate::tournament::{Pairing, Sprt};

/// Where a campaign keeps its files.
#[derive(Clone, Debug)]
pub struct Layout {
    pub dir: PathBuf,
}

/// The worktree folders of a campaign that names its commits.
const SRC: &str = "src";
const SRC_LAB: &str = "src-lab";

impl Layout {
    pub fn stage_dir(&self, id: &str) -> PathBuf {
        self.dir.join(id)
    }
    pub fn summary(&self, id: &str) -> PathBuf {
        self.stage_dir(id).join("summary.toml")
    }
    pub fn frozen(&self, id: &str) -> PathBuf {
        self.stage_dir(id).join("command.toml")
    }
    pub fn pid(&self, id: &str) -> PathBuf {
        self.stage_dir(id).join("pid")
    }
    pub fn log(&self, id: &str) -> PathBuf {
        self.stage_dir(id).join("log.txt")
    }
    pub fn failed(&self, id: &str) -> PathBuf {
        self.stage_dir(id).join("failed")
    }
    /// A datagen or convert stage's records.
    pub fn data(&self, id: &str) -> PathBuf {
        self.stage_dir(id).join("data.bin")
    }
    /// A match stage's games.
    pub fn pgn(&self, id: &str) -> PathBuf {
        self.stage_dir(id).join("games.pgn")
    }
    pub fn augur(&self) -> PathBuf {
        self.dir.join("bin").join("augur")
    }
    pub fn lab(&self) -> PathBuf {
        self.dir.join("bin").join("augur-lab")
    }
    /// What the pinned binaries are: commit, sources, SHA-256, and every re-pin.
    pub fn pinned(&self) -> PathBuf {
        self.dir.join("bin").join("pinned.toml")
    }
    /// [campaign-commit] The worktree the engine (and, without `lab_commit`, the lab) is
    /// built in.
    pub fn src(&self) -> PathBuf {
        self.dir.join(SRC)
    }
    /// [campaign-lab-commit] The worktree the lab is built in when it has a commit of its own.
    pub fn src_lab(&self) -> PathBuf {
        self.dir.join(SRC_LAB)
    }
    /// Whether a top-level folder of the campaign's is its binaries or a source worktree,
    /// not a stage's output.
    pub fn holds_no_stage(name: &str) -> bool {
        matches!(name, "bin" | SRC | SRC_LAB)
    }
    /// The network the loop starts from.
    pub fn start_net(&self) -> PathBuf {
        self.dir.join("nets").join("start.nnue")
    }
    pub fn is_done(&self, id: &str) -> bool {
        self.summary(id).exists()
    }
}

/// A process stage's command, frozen at its first start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Frozen {
    /// The lab's arguments (the pinned `augur-lab` runs them).
    pub args: Vec<String>,
}

/// `{name}` left in an argument after the runner's substitutions: a misspelt placeholder.
fn unknown_placeholder(arg: &str) -> bool {
    arg.split('{').skip(1).any(|rest| {
        rest.split_once('}').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        })
    })
}

/// What `augur-lab train --summary` writes that the campaign reads (the trainer's figures
/// hold more; serde takes these).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainFigures {
    /// The last epoch's held-out loss, and the lowest epoch's.
    pub final_held_out_loss: f64,
    pub best_held_out_loss: f64,
    /// The quantised network file the run wrote.
    pub network: PathBuf,
}

impl TrainFigures {
    /// The held-out loss of the network file: the best epoch's when the recipe keeps it.
    pub fn loss_of_network(&self, recipe: &toml::Table) -> f64 {
        let keeps_best = recipe
            .get("keep_best")
            .and_then(toml::Value::as_bool)
            .unwrap_or(false);
        if keeps_best {
            self.best_held_out_loss
        } else {
            self.final_held_out_loss
        }
    }
}

/// `genG/choose`: the candidate of a generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    pub run: String,
    pub network: PathBuf,
    pub sha256: String,
    pub held_out_loss: f64,
    /// Every run's held-out loss, as (run, loss).
    pub losses: Vec<(String, f64)>,
}

/// The SPRT's verdict, parsed from the match summary's text at the boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    H1,
    H0,
    /// The cap was reached first.
    Undecided,
}

impl Verdict {
    fn parse(text: &str) -> Result<Verdict> {
        match text {
            "H1 accepted" => Ok(Verdict::H1),
            "H0 accepted" => Ok(Verdict::H0),
            "no decision yet" => Ok(Verdict::Undecided),
            _ => bail!("an SPRT verdict '{text}' the campaign does not know"),
        }
    }
}

/// [campaign-if-h1] The summary of a stage that did not run because the SPRT it follows
/// ended without H1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skipped {
    /// The SPRT stage and its verdict, e.g. `sprt: H0 accepted`.
    pub because: String,
}

/// `genG/promote`: what the gate decided.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Promotion {
    pub verdict: Verdict,
    pub llr: f64,
    pub games: u64,
    pub candidate: PathBuf,
    /// The best network after this generation (the candidate on H1, else the one before).
    pub best: PathBuf,
    pub promoted: bool,
}

/// A campaign, resolved: its file, its folder and its stages.
pub struct Campaign {
    pub file: CampaignFile,
    pub layout: Layout,
    pub stages: Vec<Stage>,
}

impl Campaign {
    pub fn stage(&self, id: &str) -> Option<&Stage> {
        self.stages.iter().find(|s| s.id == id)
    }

    /// The best network once the promotions of the generations before `gen` that are done
    /// have been applied.
    pub fn best_before(&self, gen: u32) -> Result<PathBuf> {
        for g in (1..gen).rev() {
            let path = self.layout.summary(&gen_id(g, "promote"));
            if path.exists() {
                let p: Promotion = summary::read(&path)?.figures()?;
                return Ok(p.best);
            }
        }
        Ok(self.layout.start_net())
    }

    /// [campaign-if-h1] Why a stage is skipped (its `if_h1` SPRT ended H0 or undecided), or
    /// `None` when it runs. Read when the stage is ready, so that SPRT is done.
    pub fn skip_reason(&self, stage: &Stage) -> Result<Option<String>> {
        let Some(id) = self.command_stage(stage).and_then(|c| c.if_h1.as_deref()) else {
            return Ok(None);
        };
        let (_, sprt, verdict) = self.sprt_of(id)?;
        Ok((verdict != Verdict::H1).then(|| format!("{id}: {}", sprt.verdict)))
    }

    /// The SPRT a match stage ended with (a network gate, or the stage an `if_h1` names): its
    /// pairing, the SPRT's figures and its verdict, read from the match summary.
    fn sprt_of(&self, id: &str) -> Result<(Pairing, Sprt, Verdict)> {
        let figures: crate::tournament::Figures = summary::read(&self.layout.summary(id))?
            .figures()
            .with_context(|| format!("{id}'s summary is not a match's"))?;
        let pairing = figures
            .pairing
            .with_context(|| format!("{id}: the summary has no pairing"))?;
        let sprt = pairing
            .sprt
            .clone()
            .with_context(|| format!("{id}: the summary has no SPRT"))?;
        let verdict = Verdict::parse(&sprt.verdict)?;
        Ok((pairing, sprt, verdict))
    }

    /// The file's declaration of a `[[stage]]` (none for the network loop's own stages).
    pub fn command_stage(&self, stage: &Stage) -> Option<&CommandStage> {
        match stage.step {
            Step::Command { index } => self.file.stage.get(index),
            _ => None,
        }
    }

    /// Whether a stage needs the machine alone (`[[stage]] alone`).
    pub fn alone(&self, stage: &Stage) -> bool {
        self.command_stage(stage).is_some_and(|c| c.alone)
    }

    /// Marks a stage skipped: its summary says why, and it counts as done.
    pub fn write_skip(&self, stage: &Stage, because: &str) -> Result<()> {
        std::fs::create_dir_all(self.layout.stage_dir(&stage.id))?;
        let skipped = Skipped {
            because: because.to_string(),
        };
        summary::write(&self.layout.summary(&stage.id), "campaign-skip", &skipped)
    }

    /// The best network now: after every promotion done.
    pub fn best_now(&self) -> Result<PathBuf> {
        let gens = self.file.network.as_ref().map_or(0, |n| n.generations);
        self.best_before(gens + 1)
    }

    /// The lab arguments of a process stage, resolved now.
    pub fn resolve(&self, stage: &Stage) -> Result<Frozen> {
        let l = &self.layout;
        let sd = l.stage_dir(&stage.id);
        let summary = l.summary(&stage.id);
        let path = |p: &Path| p.display().to_string();
        let mut args: Vec<String> = Vec::new();
        let mut push = |xs: &[&str]| args.extend(xs.iter().map(|s| s.to_string()));
        match &stage.step {
            Step::HeldOut | Step::Datagen { .. } => {
                let n = self.network()?;
                let (run, seed, net) = match stage.step {
                    Step::HeldOut => (&n.held_out, n.held_out.seed, l.start_net()),
                    Step::Datagen { gen } => (
                        &n.datagen,
                        n.datagen.seed + u64::from(gen),
                        self.best_before(gen)?,
                    ),
                    _ => unreachable!("matched above"),
                };
                push(&[
                    "datagen",
                    "--out",
                    &path(&l.data(&stage.id)),
                    "--positions",
                    &run.positions.to_string(),
                    "--seed",
                    &seed.to_string(),
                    "--nodes",
                    &run.nodes.to_string(),
                    "--threads",
                    &run.threads.min(stage.cores).max(1).to_string(),
                    "--eval-file",
                    &path(&net),
                    "--quiet",
                ]);
                for (k, v) in &run.flags {
                    let value = match v {
                        toml::Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    push(&[&format!("--{k}"), &value]);
                }
            }
            Step::Convert { gen } => {
                let gate = gen_id(gen - 1, "gate");
                push(&[
                    "convert",
                    &path(&l.pgn(&gate)),
                    "--out",
                    &path(&l.data(&stage.id)),
                    "--first-game",
                    "1",
                ]);
            }
            Step::Train { gen, run } => {
                let n = self.network()?;
                let t = &n.train[*run];
                let set = self.data_set(*gen)?;
                std::fs::create_dir_all(&sd)?;
                set.write(&sd.join("data.csv"))?;
                // `{best}` is the best network the generation's gate will play against.
                let files: Vec<String> = set.lines.iter().map(|x| x.file.clone()).collect();
                let config = t.config(
                    &files,
                    &path(&l.data("held-out")),
                    &path(&sd.join("out")),
                    t.threads.min(stage.cores).max(1),
                    &path(&self.best_before(*gen)?),
                );
                let run_toml = sd.join("train.toml");
                crate::kit::atomic::write(&run_toml, toml::to_string(&config)?.as_bytes())?;
                // `--resume`: a run that a kill or a lost sitting interrupted goes on from its
                // last epoch's checkpoint (a fresh folder starts from the beginning), so a
                // training of several hours can span sittings like datagen does.
                push(&["train", "--config", &path(&run_toml), "--resume"]);
            }
            Step::Gate { gen } => {
                let n = self.network()?;
                let g = &n.gate;
                let choice: Choice =
                    summary::read(&l.summary(&gen_id(*gen, "choose")))?.figures()?;
                let best = self.best_before(*gen)?;
                let augur = path(&l.augur());
                push(&[
                    "match",
                    "--engine",
                    &format!(
                        "name=candidate,cmd={augur},option.EvalFile={}",
                        path(&choice.network)
                    ),
                    "--engine",
                    &format!("name=best,cmd={augur},option.EvalFile={}", path(&best)),
                    "--each",
                    "option.Threads=1",
                    "--tc",
                    &g.control,
                    "--games",
                    &g.games.to_string(),
                    "--sprt",
                    &format!("{},{}", g.bounds[0], g.bounds[1]),
                    "--elo-model",
                    &g.elo_model,
                    "--concurrency",
                    &g.concurrency.min(stage.cores).max(1).to_string(),
                    "--seed",
                    &(g.seed + u64::from(*gen)).to_string(),
                    "--pgn",
                    &path(&l.pgn(&stage.id)),
                    "--quiet",
                ]);
                if let Some(o) = &g.openings {
                    push(&["--openings", &path(o)]);
                }
            }
            Step::Command { index } => {
                let s = &self.file.stage[*index];
                let best = path(&self.best_now()?);
                for a in &s.command {
                    let arg = a
                        .replace("{dir}", &path(&sd))
                        .replace("{augur}", &path(&l.augur()))
                        .replace("{lab}", &path(&l.lab()))
                        .replace("{best}", &best);
                    if unknown_placeholder(&arg) {
                        bail!(
                            "stage '{}': '{a}' holds a placeholder the runner does not know \
                             ({{dir}}, {{augur}}, {{lab}}, {{best}})",
                            stage.id
                        );
                    }
                    args.push(arg);
                }
            }
            Step::Choose { .. } | Step::Promote { .. } => {
                bail!("stage '{}' is the runner's own", stage.id)
            }
        }
        args.push("--summary".into());
        args.push(path(&summary));
        Ok(Frozen { args })
    }

    fn network(&self) -> Result<&super::file::NetworkLoop> {
        self.file
            .network
            .as_ref()
            .context("the campaign declares no [network]")
    }

    /// Generation `gen`'s training set: every datagen file of generations 1..=gen and every
    /// converted gate, from their summaries (their manifest lines); refused when a game would
    /// count twice, the held-out games included.
    pub fn data_set(&self, gen: u32) -> Result<Manifest> {
        let n = self.network()?;
        let mut lines = Vec::new();
        for g in 1..=gen {
            let mut ids = vec![gen_id(g, "datagen")];
            if n.convert_gates && g > 1 {
                ids.push(gen_id(g, "convert"));
            }
            for id in ids {
                let line: Line = summary::read(&self.layout.summary(&id))?.figures()?;
                lines.push(line);
            }
        }
        let own = lines.first().cloned();
        for manifest in &n.extra {
            let path = self.layout.dir.join(manifest);
            let extra = Manifest::read(&path).context("a [network] extra data set")?;
            let base = path.parent().unwrap_or(Path::new("."));
            for mut line in extra.lines {
                if let Some(own) = own.as_ref().filter(|_| line.source == Source::Datagen) {
                    if settings_but_seed(&line.origin) != settings_but_seed(&own.origin) {
                        bail!(
                            "{}: {} was made with other settings than the loop's datagen \
                             ({} against {}): only a seed of its own may differ",
                            path.display(),
                            line.file,
                            line.origin,
                            own.origin
                        );
                    }
                }
                crate::corpus::check_file(base, &line)
                    .with_context(|| format!("{}: a listed file", path.display()))?;
                line.file = crate::corpus::file_of(base, &line).display().to_string();
                lines.push(line);
            }
        }
        let set = Manifest { lines };
        let held: Line = summary::read(&self.layout.summary("held-out"))?.figures()?;
        let mut with_held = set.clone();
        with_held.lines.push(held);
        with_held
            .check_no_game_twice()
            .context("the training set against the held-out set")?;
        Ok(set)
    }

    /// A gate's evidence as the registry keeps it (docs/evidence/README.md): the games as a
    /// compact record and the PGN without comments (both xz, the PGN with its restore entry),
    /// and the registry row they compute, in `genG/promote/evidence/`, ready to be committed
    /// under `docs/evidence/<id>/` with the row added to verdicts.csv.
    fn write_evidence(&self, gen: u32) -> Result<()> {
        use augur_arena::matchmaking::games_csv;
        use augur_arena::matchmaking::results::ResultTable;
        use augur_arena::matchmaking::verdicts::Verdict as Row;
        let n = self.network()?;
        let l = &self.layout;
        let pgn = l.pgn(&gen_id(gen, "gate"));
        let id = format!("gate-{}-gen{gen}", self.file.name);
        let dir = l
            .stage_dir(&gen_id(gen, "promote"))
            .join("evidence")
            .join(&id);
        // A promote retried after a kill writes its evidence anew.
        if dir.exists() {
            std::fs::remove_dir_all(&dir)
                .with_context(|| format!("cannot remove {}", dir.display()))?;
        }
        let games = games_csv::read_games(&pgn)?;
        augur_arena::matchmaking::pgn_stats::keep_games(&dir, &pgn, &games.rows, true)?;
        let template = Row {
            id: id.clone(),
            kind: "sprt".into(),
            control: n.gate.control.clone(),
            tested: "candidate".into(),
            base: "best".into(),
            bounds: format!("{},{}", n.gate.bounds[0], n.gate.bounds[1]),
            elo_model: n.gate.elo_model.clone(),
            evidence: format!("docs/evidence/{id}/games.csv.xz"),
            note: format!("campaign {} generation {gen}", self.file.name),
            ..Default::default()
        };
        let row = template.compute(&ResultTable::from_rows(&games.rows))?;
        crate::kit::atomic::write(&dir.join("verdict.csv"), row.to_line()?.as_bytes())?;
        self.write_network_record(gen, &id, &row.verdict)
    }

    /// The candidate's record as docs/evidence/networks.toml keeps one: parent, data (the
    /// training set's manifest, copied beside it), recipe, held-out loss, gate and file.
    fn write_network_record(&self, gen: u32, gate: &str, verdict: &str) -> Result<()> {
        let n = self.network()?;
        let l = &self.layout;
        let choice: Choice = summary::read(&l.summary(&gen_id(gen, "choose")))?.figures()?;
        let run = n
            .train
            .iter()
            .find(|t| t.name == choice.run)
            .with_context(|| format!("the chosen run '{}' is not declared", choice.run))?;
        let train_dir = l.stage_dir(&gen_id(gen, &format!("train-{}", run.name)));
        let dir = l.stage_dir(&gen_id(gen, "promote")).join("evidence");
        let name = format!("{}-gen{gen}", self.file.name);
        std::fs::copy(
            train_dir.join("data.csv"),
            dir.join(format!("data-{name}.csv")),
        )?;
        let set = crate::corpus::manifest::Manifest::read(&train_dir.join("data.csv"))?;
        let mut record = toml::Table::new();
        let mut put = |k: &str, v: toml::Value| {
            record.insert(k.to_string(), v);
        };
        let text = |s: String| toml::Value::String(s);
        put("name", text(name.clone()));
        put("parent", text(self.best_before(gen)?.display().to_string()));
        put("positions", toml::Value::Integer(set.positions() as i64));
        put(
            "data",
            text(format!("docs/evidence/data-{name}.csv (manifest)")),
        );
        put("recipe", toml::Value::Table(run.recipe.clone()));
        put("held_out_loss", toml::Value::Float(choice.held_out_loss));
        put(
            "gates",
            toml::Value::Array(vec![text(format!("{gate} ({verdict})"))]),
        );
        put("sha256", text(choice.sha256.clone()));
        put("file", text(choice.network.display().to_string()));
        let mut doc = toml::Table::new();
        doc.insert(name.replace('-', "_"), toml::Value::Table(record));
        crate::kit::atomic::write(&dir.join("network.toml"), toml::to_string(&doc)?.as_bytes())
    }

    /// Runs one of the runner's own stages and writes its summary.
    pub fn run_internal(&self, stage: &Stage) -> Result<()> {
        let l = &self.layout;
        match stage.step {
            Step::Choose { gen } => {
                let n = self.network()?;
                let mut losses = Vec::new();
                let mut best: Option<(String, f64, PathBuf)> = None;
                for t in &n.train {
                    let id = gen_id(gen, &format!("train-{}", t.name));
                    let f: TrainFigures = summary::read(&l.summary(&id))?
                        .figures()
                        .with_context(|| format!("{id}'s summary"))?;
                    let loss = f.loss_of_network(&t.recipe);
                    if !loss.is_finite() {
                        bail!("{id}: held-out loss {loss} is not a number");
                    }
                    losses.push((t.name.clone(), loss));
                    if best.as_ref().is_none_or(|(_, b, _)| loss < *b) {
                        best = Some((t.name.clone(), loss, f.network));
                    }
                }
                let (run, held_out_loss, network) = best.context("no training run")?;
                let choice = Choice {
                    run,
                    sha256: crate::kit::provenance::sha256_file(&network)?,
                    network,
                    held_out_loss,
                    losses,
                };
                summary::write(&l.summary(&stage.id), "campaign-choose", &choice)
            }
            Step::Promote { gen } => {
                let (pairing, sprt, verdict) = self.sprt_of(&gen_id(gen, "gate"))?;
                let choice: Choice =
                    summary::read(&l.summary(&gen_id(gen, "choose")))?.figures()?;
                let before = self.best_before(gen)?;
                let promoted = verdict == Verdict::H1;
                let promotion = Promotion {
                    verdict,
                    llr: sprt.llr,
                    games: pairing.elo.as_ref().map_or(0, |e| e.games),
                    best: if promoted {
                        choice.network.clone()
                    } else {
                        before
                    },
                    candidate: choice.network,
                    promoted,
                };
                self.write_evidence(gen)?;
                summary::write(&l.summary(&stage.id), "campaign-promote", &promotion)
            }
            _ => bail!("stage '{}' runs as a process", stage.id),
        }
    }
}

/// A datagen origin (its journal's settings line) without its seed: two files of one loop
/// differ by the seed alone.
fn settings_but_seed(origin: &str) -> String {
    origin
        .split(' ')
        .filter(|w| !w.starts_with("seed="))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::settings_but_seed;

    #[test]
    fn two_files_of_one_loop_differ_by_their_seed_alone() {
        let a = "augur-lab datagen journal 1; seed=5001 nodes=5000 net=163434ca";
        let b = "augur-lab datagen journal 1; seed=6001 nodes=5000 net=163434ca";
        let c = "augur-lab datagen journal 1; seed=6001 nodes=4000 net=163434ca";
        let d = "augur-lab datagen journal 1; seed=6001 nodes=5000 net=00000000";
        assert_eq!(settings_but_seed(a), settings_but_seed(b));
        assert_ne!(settings_but_seed(a), settings_but_seed(c));
        assert_ne!(settings_but_seed(a), settings_but_seed(d));
    }
}
