//! Engine variants compared position by position: the same engine with different UCI options,
//! written `name:Opt=Val,Opt=Val`.
//!
//! - [`depth`]: the paper's speed test, the depth each variant reaches in a fixed budget.
//! - [`solve`]: the tactical cost, test-suite positions solved per variant.
//! - [`accuracy`]: each variant's move judged by a deeper search of the first variant.
//!
//! `depth` and `solve` drive the `augur` binary over UCI ([`uci`]); `accuracy` searches in this
//! process, with the configuration the options give ([`search_config`]).

pub mod accuracy;
pub mod depth;
pub mod solve;
pub mod uci;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Result};

use augur::search::config::SearchConfig;
use augur::search::probcut;
use augur_arena::engine::spec::EngineSpec;

pub const DEFAULT_VARIANTS: [&str; 3] = [
    "baseline:Sfpc=false",
    "probcut:Sfpc=false,ProbCut=true",
    "mpc:Sfpc=false,Mpc=true",
];

/// `Opt=Val,Opt=Val` (empty allowed) into pairs; `what` names the text in errors (`variant
/// 'mpc:Mpc'`, `--baseline 'Mpc'`).
pub fn parse_options(text: &str, what: &str) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((k, v)) = part.split_once('=') else {
            bail!("bad {what}: '{part}' is not Opt=Val");
        };
        let (k, v) = (k.trim(), v.trim());
        if k.is_empty() || k.contains(char::is_whitespace) {
            bail!("bad {what}: '{part}' has no option name");
        }
        out.push((k.to_string(), v.to_string()));
    }
    Ok(out)
}

/// The pairs back as `Opt=Val,Opt=Val`, as [`parse_options`] reads them.
pub fn options_text(options: &[(String, String)]) -> String {
    let parts: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    parts.join(",")
}

#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    pub name: String,
    pub options: Vec<(String, String)>,
}

impl Variant {
    /// `name` or `name:Opt=Val,Opt=Val`.
    pub fn parse(text: &str) -> Result<Variant> {
        let (name, rest) = text.split_once(':').unwrap_or((text, ""));
        let name = name.trim();
        if name.is_empty() {
            bail!("bad variant '{text}': empty name (expected name:Opt=Val,Opt=Val)");
        }
        Ok(Variant {
            name: name.to_string(),
            options: parse_options(rest, &format!("variant '{text}'"))?,
        })
    }

    pub fn parse_all(texts: &[String]) -> Result<Vec<Variant>> {
        let list: Vec<String> = if texts.is_empty() {
            DEFAULT_VARIANTS.iter().map(|s| s.to_string()).collect()
        } else {
            texts.to_vec()
        };
        let vs: Vec<Variant> = list
            .iter()
            .map(|t| Variant::parse(t))
            .collect::<Result<_>>()?;
        for (i, v) in vs.iter().enumerate() {
            if vs[..i].iter().any(|w| w.name == v.name) {
                bail!("variant name '{}' is used twice", v.name);
            }
        }
        Ok(vs)
    }

    /// The same engine as [`Variant::spec`], as the `--engine` text the match runner takes
    /// (`name=..,cmd=..,option.Threads=1,option.Hash=..,option.X=Y`).
    pub fn spec_text(&self, engine: &Path, hash: usize) -> String {
        let mut s = format!(
            "name={},cmd={},option.Threads=1,option.Hash={hash}",
            self.name,
            engine.display()
        );
        for (k, v) in &self.options {
            s.push_str(&format!(",option.{k}={v}"));
        }
        s
    }

    pub fn spec(&self, engine: &Path, hash: usize) -> EngineSpec {
        let mut spec = EngineSpec::new(&self.name, engine);
        spec.set_option("Hash", &hash.to_string());
        spec.set_option("Threads", "1");
        for (k, v) in &self.options {
            spec.set_option(k, v);
        }
        spec
    }
}

/// The engine's search configuration for UCI options `Name=Value`, checked and applied by the
/// engine's own option table (so renamed or mistyped options are errors here too). Options the
/// search does not hold (`Hash`, `Threads`, ...) are returned for the caller to judge.
pub fn search_config(options: &[(String, String)]) -> Result<(SearchConfig, Vec<String>)> {
    let mut cfg = SearchConfig::default();
    let mut others = Vec::new();
    for (name, value) in options {
        if !cfg
            .set_option(name, Some(value))
            .map_err(|e| anyhow!("{e}"))?
        {
            others.push(name.clone());
        }
    }
    Ok((cfg, others))
}

/// [probcut] [mpc] A ProbCut-family switch whose depth pairs have no fitted parameters never
/// cuts, silently (`augur::search::probcut::unfitted`). Errors when a variant's switch has no
/// pair at all; warnings (returned) when only one game stage has one.
pub fn check_fitted_pairs(name: &str, cfg: &SearchConfig) -> Result<Vec<String>> {
    let mut warnings = Vec::new();
    for u in probcut::unfitted(cfg) {
        if u.stages.is_empty() {
            bail!(
                "variant '{name}': {} ({} pairs in the file); fit it (augur-lab fit \
                 --file-pairs SHALLOW:HEIGHT) or choose a fitted one",
                u.message(),
                cfg.probcut.params.pairs.len()
            );
        }
        warnings.push(format!("variant '{name}': {}", u.message()));
    }
    Ok(warnings)
}

/// The `augur` binary next to this executable, else `augur` from PATH.
pub fn default_engine() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join("augur")))
        .filter(|p| p.exists())
        .unwrap_or_else(|| PathBuf::from("augur"))
}

/// `tried/cut` counters from the engine's `info string stats k=v ...` line.
pub fn parse_stats(line: &str) -> BTreeMap<String, (u64, u64)> {
    let mut out = BTreeMap::new();
    for word in line.split_whitespace() {
        let Some((k, v)) = word.split_once('=') else {
            continue;
        };
        let parsed = match v.split_once('/') {
            Some((t, c)) => t.parse().ok().zip(c.parse().ok()),
            None => v.parse().ok().map(|n| (n, 0)),
        };
        if let Some(tc) = parsed {
            out.insert(k.to_string(), tc);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_and_stats() {
        let v = Variant::parse("mpc:Mpc=true, MpcThresholdMid=100").unwrap();
        assert_eq!(v.name, "mpc");
        assert_eq!(v.options[1], ("MpcThresholdMid".into(), "100".into()));
        assert!(Variant::parse(":ProbCut=true").is_err());
        assert!(Variant::parse("x:ProbCut").is_err());
        assert!(Variant::parse_all(&["a".into(), "a:ProbCut=true".into()]).is_err());
        let s = parse_stats("stats nodes=84424 mpc=5317/4572 pc_mid_4_8=1292/1001 junk");
        assert_eq!(s["nodes"], (84424, 0));
        assert_eq!(s["mpc"], (5317, 4572));
        assert_eq!(s["pc_mid_4_8"], (1292, 1001));
    }

    #[test]
    fn a_probcut_pair_without_fitted_parameters_is_an_error() {
        let v = Variant::parse("pc64:ProbCut=true,ProbCutHeight=6,ProbCutShallow=4").unwrap();
        let (cfg, _) = search_config(&v.options).unwrap();
        let e = check_fitted_pairs(&v.name, &cfg).unwrap_err().to_string();
        assert!(e.contains("(shallow 4, height 6)"), "{e}");
        let ok = Variant::parse("pc48:ProbCut=true,ProbCutHeight=8,ProbCutShallow=4").unwrap();
        let (cfg, _) = search_config(&ok.options).unwrap();
        assert!(check_fitted_pairs(&ok.name, &cfg).unwrap().is_empty());
        let mpc = Variant::parse("mpc:Mpc=true,MpcMaxHeight=4").unwrap();
        let (cfg, _) = search_config(&mpc.options).unwrap();
        assert!(check_fitted_pairs(&mpc.name, &cfg).is_err());
        let (_, others) = search_config(&[("Hash".into(), "8".into())]).unwrap();
        assert_eq!(others, ["Hash"]);
        assert!(search_config(&[("ProbCutHeight".into(), "x".into())]).is_err());
    }
}
