//! The ProbCut parameter file: one `[[pair]]` table per depth pair and stage, in the TOML
//! subset the engine reads (`augur::search::probcut`). The lab writes it and reads it back
//! with a real TOML parser, so a file that parses here is plain TOML, not just "whatever the
//! engine happens to accept".

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::Deserialize;

use super::collect::Stage;

/// One fitted model `v = a*v' + b + e`, `e ~ N(0, sigma)`.
#[derive(Clone, Debug, PartialEq)]
pub struct PairParams {
    pub stage: Stage,
    pub shallow: i32,
    pub deep: i32,
    pub a: f64,
    pub b: f64,
    pub sigma: f64,
    pub r: f64,
    pub n: usize,
    /// The fitted range of v'.
    pub min: i32,
    pub max: i32,
}

/// The file text. Numbers are rounded for reading (a to 4 decimals, b and sigma to 2, r to
/// 3): far below the sampling error of the fit itself.
pub fn to_toml(pairs: &[PairParams], comment: &str) -> String {
    let mut s = String::from(
        "# Augur ProbCut parameters: v = a*v' + b + e, e ~ N(0, sigma), fitted by augur-lab fit\n",
    );
    for line in comment.lines() {
        let _ = writeln!(s, "# {line}");
    }
    for p in pairs {
        let _ = write!(
            s,
            "\n[[pair]]\nstage = \"{}\"\nshallow = {}\ndeep = {}\na = {:.4}\nb = {:.2}\nsigma = {:.2}\nr = {:.3}\nn = {}\nmin = {}\nmax = {}\n",
            p.stage.name(),
            p.shallow,
            p.deep,
            p.a,
            p.b,
            p.sigma,
            p.r,
            p.n,
            p.min,
            p.max
        );
    }
    s
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDoc {
    #[serde(default)]
    pair: Vec<FilePair>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FilePair {
    stage: String,
    shallow: i32,
    deep: i32,
    a: f64,
    b: f64,
    sigma: f64,
    #[serde(default)]
    r: f64,
    #[serde(default)]
    n: usize,
    #[serde(default = "default_min")]
    min: i32,
    #[serde(default = "default_max")]
    max: i32,
}

fn default_min() -> i32 {
    -300
}
fn default_max() -> i32 {
    300
}

/// Parses a parameter file and checks what the engine checks (stage names, depth order,
/// a > 0, sigma >= 0, min <= max).
pub fn parse(text: &str, name: &str) -> Result<Vec<PairParams>> {
    let doc: FileDoc =
        toml::from_str(text).with_context(|| format!("{name}: not a ProbCut parameter file"))?;
    let mut out = Vec::new();
    for (i, p) in doc.pair.into_iter().enumerate() {
        let at = || format!("{name}: pair {}", i + 1);
        let Some(stage) = Stage::parse(&p.stage).filter(|_| p.stage.len() > 3) else {
            bail!("{}: stage '{}' is not middlegame or endgame", at(), p.stage);
        };
        if p.shallow < 1 || p.deep <= p.shallow {
            bail!(
                "{}: depths ({}, {}) need 1 <= shallow < deep",
                at(),
                p.shallow,
                p.deep
            );
        }
        if !(p.a > 0.0 && p.sigma >= 0.0 && p.a.is_finite() && p.sigma.is_finite()) {
            bail!("{}: a must be positive and sigma non-negative", at());
        }
        if p.min > p.max {
            bail!("{}: min {} is above max {}", at(), p.min, p.max);
        }
        out.push(PairParams {
            stage,
            shallow: p.shallow,
            deep: p.deep,
            a: p.a,
            b: p.b,
            sigma: p.sigma,
            r: p.r,
            n: p.n,
            min: p.min,
            max: p.max,
        });
    }
    Ok(out)
}

pub fn load(path: &Path) -> Result<Vec<PairParams>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    parse(&text, &path.display().to_string())
}
