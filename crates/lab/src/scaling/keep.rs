//! `augur-lab scaling-keep`: a study's finished points into the committed evidence, one command
//! for what each point needs: its games kept and its row added to the verdict registry (as
//! `stats --row --keep --registry` does), the study's table copied to its committed place and
//! recorded in that folder's `restore.toml`, so a lost machine gets the table back and the study
//! resumes after its finished points. Points already in the committed table are left alone.
//! With `--model` the study's ProbCut-family model goes beside the table too (its parameters,
//! the stamp of the engine it was fitted on, the collected data xz-compressed), so that a reader
//! can refit it and a lost machine's study does not collect again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use augur_arena::matchmaking::kept;
use augur_arena::matchmaking::pgn_stats::{self, StatsArgs};
use clap::{Args, Parser};

use super::{read_points, sides_of, Point};

#[derive(Args, Debug, Clone)]
pub struct ScalingKeepArgs {
    /// The study's output folder (`scaling --out`): scaling.csv and TECHNIQUE/nodes-N.pgn.
    #[arg(long, value_name = "DIR")]
    pub study: PathBuf,
    /// The committed copy of its scaling.csv (e.g. docs/evidence/scaling-nnue/scaling.csv);
    /// it must be the start of the study's own, which replaces it.
    #[arg(long, value_name = "CSV")]
    pub table: PathBuf,
    /// Row ids are PREFIX-TECHNIQUE-Nk (PREFIX-calibration-40k); each point's games go to the
    /// registry's folder under that id.
    #[arg(long)]
    pub prefix: String,
    /// Each row's note; `{what}` in it is the technique's description from --what.
    #[arg(long)]
    pub note: String,
    /// `TECHNIQUE=TEXT`: what a technique is, for its rows' notes (default: its name).
    #[arg(long, value_name = "TECHNIQUE=TEXT")]
    pub what: Vec<String>,
    /// The verdict registry the rows are appended to.
    #[arg(long, default_value = "docs/evidence/verdicts.csv")]
    pub registry: PathBuf,
    /// Keep the move comments (scores, depths, times) in the kept PGN.
    #[arg(long)]
    pub with_comments: bool,
    /// Also keep the study's model (`DIR/model`: probcut_params.toml, engine.bench and the
    /// collect-d*.csv data as .xz) beside the table, each with its restore entry.
    #[arg(long)]
    pub model: bool,
}

/// [`ScalingKeepArgs::model`]: the model's files into `dir`, each recorded in its restore.toml.
/// A file whose kept copy already restores to the same bytes is left as it is.
fn keep_model(study: &Path, dir: &Path) -> Result<()> {
    let model = study.join("model");
    let mut names: Vec<String> = std::fs::read_dir(&model)
        .with_context(|| format!("--model: cannot read {}", model.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n == "probcut_params.toml"
                || n == "engine.bench"
                || (n.starts_with("collect-d") && n.ends_with(".csv"))
        })
        .collect();
    names.sort();
    if !names.iter().any(|n| n == "probcut_params.toml") {
        bail!(
            "--model: {} holds no probcut_params.toml (the study fitted no model)",
            model.display()
        );
    }
    let before = kept::Origins::read(dir)?;
    for name in names {
        let from = model.join(&name);
        let bytes =
            std::fs::read(&from).with_context(|| format!("cannot read {}", from.display()))?;
        // The collected data is large and compresses well; the rest is kept as it is.
        let compress = name.ends_with(".csv");
        let kept_name = if compress {
            format!("{name}.xz")
        } else {
            name.clone()
        };
        let sha = kept::sha256_hex(&bytes);
        if before
            .files
            .iter()
            .any(|o| o.kept == kept_name && o.sha256 == sha && dir.join(&kept_name).exists())
        {
            continue;
        }
        if compress {
            kept::write_xz(&dir.join(&kept_name), &bytes)?;
        } else {
            crate::kit::atomic::write(&dir.join(&kept_name), &bytes)?;
        }
        let to = std::path::absolute(&from)?;
        kept::Origins::add(dir, kept::Origin::of(dir, kept_name.clone(), to)?)?;
        println!(
            "{}: kept, restores to {}",
            dir.join(&kept_name).display(),
            from.display()
        );
    }
    Ok(())
}

/// A point's registry id: `PREFIX-TECHNIQUE-Nk` (nodes in thousands where they divide).
pub fn point_id(prefix: &str, p: &Point) -> String {
    let nodes = if p.nodes.is_multiple_of(1000) {
        format!("{}k", p.nodes / 1000)
    } else {
        p.nodes.to_string()
    };
    format!("{prefix}-{}-{nodes}", p.technique)
}

#[derive(Parser)]
struct StatsCommand {
    #[command(flatten)]
    args: StatsArgs,
}

pub fn run(args: &ScalingKeepArgs) -> Result<()> {
    let mut what = BTreeMap::new();
    for w in &args.what {
        let (t, text) = w
            .split_once('=')
            .filter(|(t, x)| !t.trim().is_empty() && !x.trim().is_empty())
            .with_context(|| format!("--what {w}: expected TECHNIQUE=TEXT"))?;
        what.insert(t.trim().to_string(), text.trim().to_string());
    }
    // The table's folder holds its restore record (and with --model the model).
    let (table_dir, table_name) = match (args.table.parent(), args.table.file_name()) {
        (Some(d), Some(n)) => (d, n.to_string_lossy().into_owned()),
        _ => bail!("--table {}: name a file", args.table.display()),
    };
    let study_csv = args.study.join("scaling.csv");
    let study_bytes = std::fs::read(&study_csv)
        .with_context(|| format!("cannot read the study's table {}", study_csv.display()))?;
    let table_bytes = match std::fs::read(&args.table) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", args.table.display())),
    };
    if !study_bytes.starts_with(&table_bytes) {
        bail!(
            "{} is not the start of {}: the committed table holds rows the study does not (a \
             different study, or a rerun); nothing is kept",
            args.table.display(),
            study_csv.display()
        );
    }
    let done: Vec<Point> = if table_bytes.is_empty() {
        Vec::new()
    } else {
        read_points(std::slice::from_ref(&args.table))?
    };
    let new: Vec<Point> = read_points(std::slice::from_ref(&study_csv))?
        .into_iter()
        .filter(|p| {
            !done
                .iter()
                .any(|d| d.technique == p.technique && d.nodes == p.nodes && d.games == p.games)
        })
        .collect();
    let evidence_root = args.registry.parent().unwrap_or(Path::new("."));
    for p in &new {
        let id = point_id(&args.prefix, p);
        let pgn = args
            .study
            .join(&p.technique)
            .join(format!("nodes-{}.pgn", p.nodes));
        let description = what.get(&p.technique).unwrap_or(&p.technique);
        let note = args.note.replace("{what}", description);
        let dir = evidence_root.join(&id);
        let control = format!("nodes={}", p.nodes);
        let (tested, base) = sides_of(&p.technique);
        let mut argv: Vec<String> = [
            "stats",
            &pgn.display().to_string(),
            "--row",
            &id,
            "--engine",
            tested,
            "--base",
            base,
            "--kind",
            "scaling",
            "--control",
            &control,
            "--note",
            &note,
            "--keep",
            &dir.display().to_string(),
            "--registry",
            &args.registry.display().to_string(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        if !args.with_comments {
            argv.push("--strip-comments".into());
        }
        let stats = StatsCommand::try_parse_from(&argv)
            .map_err(|e| anyhow::anyhow!("{}", e.render().to_string().trim_end()))?;
        pgn_stats::report(&stats.args).with_context(|| format!("keeping the point {id}"))?;
        println!(
            "{id}: {} games kept in {}, its row in {}",
            p.games,
            dir.display(),
            args.registry.display()
        );
    }
    std::fs::create_dir_all(table_dir)?;
    if args.model {
        keep_model(&args.study, table_dir)?;
    }
    if new.is_empty() && table_bytes == study_bytes {
        println!(
            "{}: every finished point is kept already",
            args.table.display()
        );
        return Ok(());
    }
    crate::kit::atomic::write(&args.table, &study_bytes)?;
    let to = std::path::absolute(&study_csv)?;
    kept::Origins::add(table_dir, kept::Origin::of(table_dir, table_name, to)?)?;
    println!(
        "{}: {} points, {} new; restores to {}",
        args.table.display(),
        done.len() + new.len(),
        new.len(),
        study_csv.display()
    );
    Ok(())
}
