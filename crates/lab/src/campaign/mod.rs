//! `augur-lab campaign`: a declared, resumable campaign from one file. The network loop
//! (datagen with the best network, the gates' games converted, training runs, the candidate's
//! choice, its gate SPRT, promotion on H1, the next generation) and any list of lab commands
//! (a scaling study, SPRTs) are stages; each stage is a lab command that writes `--summary`,
//! and a stage is done when its summary exists. Verdicts are read from the typed summaries.
//!
//! - [`file`]: the campaign file, checked before anything runs.
//! - [`plan`]: the stages it declares and what each waits for.
//! - [`stages`]: what each stage runs, frozen at its first start; the runner's own stages.
//! - [`runner`]: keeps the campaign's cores busy, survives `kill -9`.
//! - [`status`]: one screen of where each stage stands.
//! - [`pin`]: newer binaries for a running campaign, checked and recorded.
//! - [`restore`]: a lost machine's finished stages back from the committed evidence.
//!
//! docs/campaign.md has the file's keys, the folder's layout and how the stages map onto
//! OpenBench.

pub mod file;
pub mod in_flight;
pub mod pin;
pub mod plan;
pub mod restore;
pub mod runner;
pub mod stages;
pub mod status;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use augur_arena::matchmaking::kept;

use crate::kit::provenance::{sha256_file, sha256_hex, source_commit};
use file::CampaignFile;
use stages::{Campaign, Layout};

#[derive(clap::Args, Debug)]
pub struct CampaignArgs {
    #[command(subcommand)]
    pub command: CampaignCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum CampaignCommand {
    /// Run the campaigns until every stage is done (again: resume where their files end);
    /// several files run side by side in one process, each with its own runner.
    Run(RunTargets),
    /// Where each stage stands: progress, LLR, positions; several files one after another.
    Status(StatusTargets),
    /// Start one stage now, beside a runner and outside its cores (the runner adopts it).
    Start(StartTarget),
    /// Check campaign files without running anything: the file, the stages' order, and every
    /// declared command parsed as `augur-lab` would parse it (a misspelt flag found now, not
    /// when its stage starts hours later).
    Check(CheckTargets),
    /// Re-pin a campaign's binaries (bin/) to the running lab and the augur beside it (or the
    /// file's [engine]), with the reason kept in bin/pinned.toml; where the campaign declares
    /// datagen, both labs first write the same positions with its datagen command and the pin
    /// is refused unless the records are identical.
    Pin(PinTarget),
    /// After a lost machine: put every file that the committed evidence keeps for these
    /// campaigns (each evidence folder's restore.toml) back into their folders where it is
    /// missing, each checked by its SHA-256; nothing that exists is touched. A finished stage
    /// then ends at once when the runner reaches it (`status` counts its games back) and a
    /// study resumes after its finished points.
    Restore(RestoreTargets),
    /// Record in an evidence folder's restore.toml that a kept file (`.xz` decompressed)
    /// restores to a campaign's path, with its SHA-256 as it is now: for what `stats --keep`
    /// does not record itself (a study's table of finished points, a fit's input), and again
    /// after such a file is appended to.
    Keep(KeepTarget),
    /// Keep the games of every stage in flight (each PGN of the campaign's folder that no
    /// evidence keeps whole) as a new part in the evidence (docs/evidence/in-flight/), only
    /// the games since the last part, with restore entries; the parts of a PGN kept whole
    /// since are removed. Run before a machine may be lost, then commit the parts.
    KeepInFlight(KeepInFlightTargets),
}

#[derive(clap::Args, Debug)]
pub struct KeepTarget {
    /// The kept file, inside its evidence folder (docs/evidence/ID/FILE).
    pub kept: PathBuf,
    /// The absolute path it restores to, inside a campaign's folder.
    #[arg(long)]
    pub to: PathBuf,
}

/// Where the committed evidence lies, from the repository's root (where campaigns run).
const DEFAULT_EVIDENCE: &str = "docs/evidence";

#[derive(clap::Args, Debug)]
pub struct RestoreTargets {
    #[command(flatten)]
    pub files: Files,
    /// The evidence folder searched for restore.toml files (three levels down).
    #[arg(long, default_value = DEFAULT_EVIDENCE)]
    pub evidence: PathBuf,
    /// Say what would be written, write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(clap::Args, Debug)]
pub struct KeepInFlightTargets {
    #[command(flatten)]
    pub files: Files,
    /// The evidence folder: parts go to its in-flight/ folder; every restore.toml three
    /// levels down says what is kept already.
    #[arg(long, default_value = DEFAULT_EVIDENCE)]
    pub evidence: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct PinTarget {
    #[command(flatten)]
    pub target: Target,
    /// Why the campaign moves to these binaries (kept in bin/pinned.toml).
    #[arg(long)]
    pub reason: String,
    /// Positions each lab writes for the datagen check (0: no check).
    #[arg(long, default_value_t = 2000)]
    pub check_positions: u64,
}

#[derive(clap::Args, Debug)]
pub struct CheckTargets {
    /// The campaign files (TOML).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// Parses one `augur-lab` command line (without the program's name); the binary owns its
/// command-line grammar, so it hands this in.
pub type ParseCommand<'a> = &'a dyn Fn(&[String]) -> Result<()>;

/// Several campaign files, or one with `--dir` (what `run` and `status` take).
#[derive(clap::Args, Debug)]
pub struct Files {
    /// The campaign files (TOML).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The campaign's folder (default: the file's `dir`); with one file only.
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

impl Files {
    fn targets(&self) -> Result<Vec<Target>> {
        if self.dir.is_some() && self.files.len() > 1 {
            bail!("--dir names one campaign's folder: give one file with it");
        }
        Ok(self
            .files
            .iter()
            .map(|file| Target {
                file: file.clone(),
                dir: self.dir.clone(),
            })
            .collect())
    }
}

#[derive(clap::Args, Debug)]
pub struct StatusTargets {
    #[command(flatten)]
    pub files: Files,
}

#[derive(clap::Args, Debug)]
pub struct StartTarget {
    #[command(flatten)]
    pub target: Target,
    /// The stage's id.
    pub stage: String,
    /// Start a stage that needs the machine alone (a timed match), after checking that no
    /// other lab or engine process runs.
    #[arg(long)]
    pub alone: bool,
}

#[derive(clap::Args, Debug)]
pub struct Target {
    /// The campaign file (TOML).
    pub file: PathBuf,
    /// The campaign's folder (default: the file's `dir`).
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct RunTargets {
    #[command(flatten)]
    pub files: Files,
    /// Also run the stages that need the machine alone (timed matches): one file only, and
    /// refused while any other lab or engine process runs.
    #[arg(long)]
    pub alone: bool,
}

impl Target {
    fn open(&self) -> Result<Campaign> {
        let file = CampaignFile::read(&self.file)?;
        let dir = self
            .dir
            .clone()
            .or_else(|| file.dir.clone())
            .with_context(|| {
                format!(
                    "{} names no dir and no --dir was given",
                    self.file.display()
                )
            })?;
        let dir = std::path::absolute(&dir)
            .with_context(|| format!("the campaign folder {}", dir.display()))?;
        let stages = plan::stages(&file);
        plan::check(&stages).with_context(|| format!("{}", self.file.display()))?;
        Ok(Campaign {
            file,
            layout: Layout { dir },
            stages,
        })
    }
}

/// The declared stage commands of a campaign, as its runner would run them now, parsed:
/// errors name the stage. With `begun` false, stages begun are skipped (they run their frozen
/// commands). Of the network loop's own stages, the held-out and first datagen commands are
/// parsed too (their `flags` are passed through as given); the others are built from keys
/// the file's reading checks.
fn check_commands(campaign: &Campaign, parse: ParseCommand, begun: bool) -> Result<usize> {
    let mut checked = 0;
    for stage in &campaign.stages {
        let declared = matches!(stage.step, plan::Step::Command { .. });
        let loop_datagen = matches!(
            stage.step,
            plan::Step::HeldOut | plan::Step::Datagen { gen: 1 }
        );
        if !(declared || loop_datagen) || (!begun && campaign.layout.frozen(&stage.id).exists()) {
            continue;
        }
        let args = campaign.resolve(stage)?.args;
        parse(&args).with_context(|| format!("stage '{}' does not parse", stage.id))?;
        checked += 1;
    }
    Ok(checked)
}

pub fn run(args: &CampaignArgs, parse: ParseCommand) -> Result<()> {
    match &args.command {
        CampaignCommand::Check(c) => {
            for file in &c.files {
                let campaign = Target {
                    file: file.clone(),
                    dir: None,
                }
                .open()?;
                let n = check_commands(&campaign, parse, true)
                    .with_context(|| format!("{}", file.display()))?;
                println!(
                    "{}: {} stages; its {n} commands parse (declared, held-out and first datagen)",
                    file.display(),
                    campaign.stages.len()
                );
            }
            Ok(())
        }
        CampaignCommand::Run(r) => {
            let targets = r.files.targets()?;
            if r.alone && targets.len() > 1 {
                bail!("--alone gives one campaign the machine: give one file with it");
            }
            // Every file is checked before any campaign starts: a typo stops nothing that runs.
            let campaigns = targets
                .iter()
                .map(|t| {
                    let c = t.open()?;
                    check_commands(&c, parse, false)
                        .with_context(|| format!("{}", t.file.display()))?;
                    Ok((t, c))
                })
                .collect::<Result<Vec<_>>>()?;
            let failed: Vec<String> = std::thread::scope(|scope| {
                let runs: Vec<_> = campaigns
                    .iter()
                    .map(|(t, c)| (t, scope.spawn(move || run_one(c, &t.file, r.alone))))
                    .collect();
                runs.into_iter()
                    .filter_map(|(t, h)| match h.join() {
                        Ok(Ok(())) => None,
                        Ok(Err(e)) => Some(format!("{}: {e:#}", t.file.display())),
                        Err(_) => Some(format!("{}: the runner panicked", t.file.display())),
                    })
                    .collect()
            });
            if !failed.is_empty() {
                bail!("{}", failed.join("\n"));
            }
            Ok(())
        }
        CampaignCommand::Restore(r) => {
            for target in r.files.targets()? {
                let campaign = target.open()?;
                let entries = restore::restore(&campaign, &r.evidence, r.dry_run)
                    .with_context(|| format!("{}", target.file.display()))?;
                let (each, verb) = if r.dry_run {
                    ("would restore", "to restore")
                } else {
                    ("restored", "restored")
                };
                for e in entries
                    .iter()
                    .filter(|e| e.outcome == restore::Outcome::Restored)
                {
                    println!(
                        "{each} {} from {}",
                        e.origin.to.display(),
                        e.evidence.join(&e.origin.kept).display()
                    );
                }
                let restored = restore::restored(&entries);
                println!(
                    "{}: {restored} {verb}, {} already there ({} kept files belong to {})",
                    target.file.display(),
                    entries.len() - restored,
                    entries.len(),
                    campaign.layout.dir.display()
                );
            }
            Ok(())
        }
        CampaignCommand::KeepInFlight(r) => {
            for target in r.files.targets()? {
                let campaign = target.open()?;
                let done = in_flight::keep(&campaign, &r.evidence)
                    .with_context(|| format!("{}", target.file.display()))?;
                for d in &done {
                    match d {
                        in_flight::Kept::Part {
                            pgn,
                            folder,
                            kept,
                            games,
                        } => println!(
                            "kept {games} games of {} as {}",
                            pgn.display(),
                            folder.join(kept).display()
                        ),
                        in_flight::Kept::Unchanged { pgn } => {
                            println!("no new complete game in {}", pgn.display())
                        }
                        in_flight::Kept::Superseded { folder } => {
                            println!("removed {}: its games are kept whole", folder.display())
                        }
                        in_flight::Kept::Whole { .. } => {}
                    }
                }
                let whole = done
                    .iter()
                    .filter(|d| matches!(d, in_flight::Kept::Whole { .. }))
                    .count();
                let pgns = done
                    .iter()
                    .filter(|d| {
                        matches!(
                            d,
                            in_flight::Kept::Part { .. } | in_flight::Kept::Unchanged { .. }
                        )
                    })
                    .count();
                println!(
                    "{}: {pgns} PGN files in flight, {whole} kept whole",
                    target.file.display()
                );
            }
            Ok(())
        }
        CampaignCommand::Keep(k) => {
            let (dir, name) = match (k.kept.parent(), k.kept.file_name()) {
                (Some(d), Some(n)) => (d, n.to_string_lossy().into_owned()),
                _ => bail!(
                    "{}: name a kept file inside its evidence folder",
                    k.kept.display()
                ),
            };
            if !k.to.is_absolute() {
                bail!(
                    "--to {}: give the absolute path inside the campaign's folder",
                    k.to.display()
                );
            }
            let origin = kept::Origin::of(dir, name, k.to.clone())?;
            kept::Origins::add(dir, origin.clone())?;
            println!(
                "{}: {} restores to {} (sha256 {})",
                dir.join(kept::FILE_NAME).display(),
                origin.kept,
                origin.to.display(),
                &origin.sha256[..16]
            );
            Ok(())
        }
        CampaignCommand::Status(t) => {
            for (i, target) in t.files.targets()?.iter().enumerate() {
                if i > 0 {
                    println!();
                }
                print!("{}", status::render(&target.open()?)?);
            }
            Ok(())
        }
        CampaignCommand::Pin(p) => {
            let campaign = p.target.open()?;
            let (lab, augur) = binaries(&campaign)?;
            match pin::pin(
                &campaign,
                &pin::PinRequest {
                    lab: &lab,
                    augur: &augur,
                    reason: &p.reason,
                    check_positions: p.check_positions,
                },
            )? {
                pin::Pinned::Already => println!(
                    "{}: already runs these binaries; nothing changed",
                    campaign.layout.dir.display()
                ),
                pin::Pinned::Repinned { checked } => println!(
                    "{}: re-pinned to {} and {}{} (bin/pinned.toml)",
                    campaign.layout.dir.display(),
                    lab.display(),
                    augur.display(),
                    if checked > 0 {
                        format!("; datagen identical on {checked} positions")
                    } else {
                        String::new()
                    }
                ),
            }
            Ok(())
        }
        CampaignCommand::Start(s) => {
            let campaign = s.target.open()?;
            check_commands(&campaign, parse, false)
                .with_context(|| format!("{}", s.target.file.display()))?;
            std::fs::create_dir_all(&campaign.layout.dir)
                .with_context(|| format!("cannot create {}", campaign.layout.dir.display()))?;
            prepare(&campaign, &s.target.file)?;
            let pid = runner::start_one(&campaign, &s.stage, s.alone)?;
            println!("started {} (pid {pid}); a runner adopts it", s.stage);
            Ok(())
        }
    }
}

/// One campaign: its folder, its pinned binaries, then its runner to the end.
fn run_one(campaign: &Campaign, file: &Path, alone: bool) -> Result<()> {
    // A first start on this machine (no copy of the file yet) of a campaign that finished
    // stages elsewhere: their kept files come back first, so a lost machine's campaign
    // resumes where its committed evidence ends with the same command that starts it.
    let evidence = Path::new(DEFAULT_EVIDENCE);
    if !campaign.layout.dir.join("campaign.toml").exists() && evidence.is_dir() {
        let restored = restore::restored(&restore::restore(campaign, evidence, false)?);
        if restored > 0 {
            println!(
                "{}: first start here: {restored} finished files restored from {}",
                campaign.file.name,
                evidence.display()
            );
        }
    }
    std::fs::create_dir_all(&campaign.layout.dir)
        .with_context(|| format!("cannot create {}", campaign.layout.dir.display()))?;
    prepare(campaign, file)?;
    runner::run(campaign, alone)
}

/// The binaries a campaign pins: built from its [engine] commit, else its [engine]'s files,
/// else the running lab and the augur beside it.
fn binaries(campaign: &Campaign) -> Result<(PathBuf, PathBuf)> {
    let exe = std::env::current_exe().context("the running augur-lab's path")?;
    if let Some(commit) = &campaign.file.engine.commit {
        // The running lab built from that very commit (clean) is its build: no second one.
        let running = source_commit();
        let is_running = |c: &str| running.len() == 40 && running.starts_with(c);
        let beside = exe.with_file_name(format!("augur{}", std::env::consts::EXE_SUFFIX));
        let (lab, augur) = if is_running(commit) && beside.exists() {
            (exe.clone(), beside)
        } else {
            pin::build_commit(&campaign.layout.src(), commit)?
        };
        // [campaign-lab-commit] The engine of one commit, the lab of another.
        return Ok(match &campaign.file.engine.lab_commit {
            None => (lab, augur),
            Some(c) if is_running(c) => (exe, augur),
            Some(c) => (pin::build_commit(&campaign.layout.src_lab(), c)?.0, augur),
        });
    }
    let augur = match &campaign.file.engine.augur {
        Some(p) => p.clone(),
        None => exe.with_file_name(format!("augur{}", std::env::consts::EXE_SUFFIX)),
    };
    Ok((campaign.file.engine.lab.clone().unwrap_or(exe), augur))
}

/// The first start pins the binaries and the start network into the folder and keeps a copy
/// of the campaign file; a later start keeps what is there.
fn prepare(campaign: &Campaign, file: &Path) -> Result<()> {
    let l = &campaign.layout;
    let mut pinned = String::new();
    if !(l.lab().exists() && l.augur().exists()) {
        let (lab_src, augur_src) = binaries(campaign)?;
        for (src, dst) in [(&lab_src, l.lab()), (&augur_src, l.augur())] {
            if dst.exists() {
                continue;
            }
            if !src.exists() {
                bail!(
                    "{} does not exist: build it (cargo build --release -p augur -p augur-lab) \
                     or name it in the campaign's [engine]",
                    src.display()
                );
            }
            std::fs::create_dir_all(dst.parent().expect("bin/ has a parent"))?;
            pin::install(src, &dst)?;
            pinned += &pin::binary_line(src, &dst, &sha256_file(&dst)?);
            pinned.push('\n');
        }
    }
    if !pinned.is_empty() {
        let engine = &campaign.file.engine;
        let from = match (&engine.commit, &engine.lab_commit) {
            (Some(c), Some(_)) => format!("# augur built from {c}, augur-lab from lab_commit\n"),
            _ => String::new(),
        };
        pinned = format!(
            "# the binaries this campaign runs\n{from}lab_commit = {:?}\n{pinned}",
            pin::pinned_commit(campaign)
        );
        crate::kit::atomic::write(&l.pinned(), pinned.as_bytes())?;
    }
    if let Some(n) = &campaign.file.network {
        let start = l.start_net();
        if !start.exists() {
            let bytes = if n.start == "embedded" {
                augur::eval::nnue::DEFAULT_NETWORK.to_vec()
            } else {
                std::fs::read(&n.start)
                    .with_context(|| format!("network.start: cannot read {}", n.start))?
            };
            augur::eval::nnue::Network::from_bytes(&bytes)
                .with_context(|| format!("network.start {} is not a network", n.start))?;
            crate::kit::atomic::write(&start, &bytes)?;
            println!(
                "start network {} (sha256 {})",
                n.start,
                &sha256_hex(&bytes)[..16]
            );
        }
    }
    let copy = l.dir.join("campaign.toml");
    let text = std::fs::read(file)?;
    match std::fs::read(&copy) {
        Ok(old) if old != text => println!(
            "note: {} differs from the copy kept at the first start ({}); stages begun keep \
             their frozen commands",
            file.display(),
            copy.display()
        ),
        Ok(_) => {}
        Err(_) => crate::kit::atomic::write(&copy, &text)?,
    }
    Ok(())
}
