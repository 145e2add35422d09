//! The ProbCut parameter file: one `[[pair]]` table per depth pair and stage, in the TOML
//! subset the engine reads. The lab writes the engine's own `Pair`s and reads them back with
//! the engine's reader (`augur::search::probcut`), after a real TOML parser has accepted the
//! text, so a file that passes here is plain TOML, not just "whatever the engine happens to
//! accept".

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use augur::search::probcut::{Pair, ProbCutParams};

/// The file text. Numbers are rounded for reading (a to 4 decimals, b and sigma to 2, r to
/// 3): far below the sampling error of the fit itself.
pub fn to_toml(pairs: &[Pair], comment: &str) -> String {
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

/// Parses a parameter file as the engine does (stage names, depth order, a > 0, sigma >= 0,
/// min <= max), once a TOML parser has accepted it.
pub fn parse(text: &str, name: &str) -> Result<Vec<Pair>> {
    toml::from_str::<toml::Table>(text)
        .with_context(|| format!("{name}: not a ProbCut parameter file"))?;
    let params: ProbCutParams = text.parse().with_context(|| name.to_string())?;
    Ok(params.pairs)
}

pub fn load(path: &Path) -> Result<Vec<Pair>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    parse(&text, &path.display().to_string())
}
