//! The UCI option table: every option's name, type and range, and how it lands in the
//! engine's state. Names compare case-insensitively, as the UCI spec says.

use crate::eval::EvalKind;
use crate::search::config::SearchConfig;
use crate::search::probcut::DepthRule;
use crate::search::textbook::Algorithm;
use thiserror::Error;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Check(bool),
    Spin { default: i64, min: i64, max: i64 },
    Combo(&'static str, &'static [&'static str]),
    Button,
    Text(&'static str),
}

pub struct Spec {
    pub name: &'static str,
    pub kind: Kind,
}

const fn check(name: &'static str, default: bool) -> Spec {
    Spec {
        name,
        kind: Kind::Check(default),
    }
}

const fn spin(name: &'static str, default: i64, min: i64, max: i64) -> Spec {
    Spec {
        name,
        kind: Kind::Spin { default, min, max },
    }
}

/// All options, in the order `uci` lists them. Technique switches and parameters carry the
/// technique's tag in their doc line in `SearchConfig`.
pub const SPECS: &[Spec] = &[
    // As large as a 64-bit GUI may ask for (Stockfish's bound); what the machine can really
    // give is checked when the table is allocated, and a refused size keeps the old table.
    spin("Hash", 16, 1, 1 << 25),
    Spec {
        name: "Clear Hash",
        kind: Kind::Button,
    },
    spin("Threads", 1, 1, 256),
    spin("MultiPV", 1, 1, 256),
    check("Ponder", false),
    check("UCI_Chess960", false),
    spin("MoveOverhead", 30, 0, 5000),
    Spec {
        name: "Eval",
        kind: Kind::Combo("default", &EvalKind::NAMES),
    },
    Spec {
        name: "Algorithm",
        kind: Kind::Combo("engine", &Algorithm::NAMES),
    },
    spin("SppMpd", 70, 0, 10000),
    check("TextbookQsearch", false),
    check("TT", true),
    check("Qsearch", true),
    check("QsearchSEE", true),
    check("Aspiration", true),
    spin("AspirationWindow", 25, 1, 1000),
    check("PVS", true),
    check("Killers", true),
    check("History", true),
    check("CheckExtension", true),
    check("NullMove", true),
    spin("NmpMinDepth", 3, 1, 20),
    spin("NmpReduction", 3, 1, 10),
    spin("NmpDepthDivisor", 4, 1, 20),
    spin("NmpVerifyDepth", 12, 1, 101),
    check("RFP", true),
    spin("RfpMaxDepth", 7, 1, 20),
    spin("RfpMargin", 75, 0, 1000),
    check("Futility", true),
    spin("FutilityMaxDepth", 6, 1, 20),
    spin("FutilityMargin", 90, 0, 1000),
    check("LMP", true),
    spin("LmpMaxDepth", 8, 1, 20),
    check("LMR", true),
    spin("LmrBase", 75, 0, 300),
    spin("LmrDivisor", 225, 50, 1000),
    check("IIR", true),
    check("ProbCut", false),
    spin("ProbCutHeight", 8, 2, 64),
    spin("ProbCutShallow", 4, 1, 63),
    spin("ProbCutThreshold", 100, 0, 1000),
    check("MultiProbCut", false),
    spin("MpcTries", 2, 1, 8),
    spin("MpcMaxHeight", 10, 2, 64),
    spin("MpcThresholdMid", 120, 0, 1000),
    spin("MpcThresholdEnd", 100, 0, 1000),
    Spec {
        name: "ProbCutParams",
        kind: Kind::Text(BUILTIN_PARAMS),
    },
    check("StockfishProbCut", false),
    spin("SfProbCutMargin", 215, 0, 2000),
    spin("SfProbCutImproving", 60, 0, 1000),
    spin("SfProbCutMinDepth", 3, 1, 64),
    Spec {
        name: "ProbCutDepthRule",
        kind: Kind::Combo("fixed", &DepthRule::NAMES),
    },
];

/// The `ProbCutParams` value that selects the compiled-in parameter file.
pub const BUILTIN_PARAMS: &str = "<builtin>";

#[derive(Debug, Error, PartialEq, Eq)]
pub enum OptionError {
    #[error("unknown option '{0}'")]
    Unknown(String),
    #[error("option '{name}' needs a value")]
    Missing { name: &'static str },
    #[error("option '{name}': '{value}' is not {expected}")]
    BadValue {
        name: &'static str,
        value: String,
        expected: String,
    },
}

/// A validated option value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Text(String),
    Pressed,
}

pub fn find(name: &str) -> Option<&'static Spec> {
    SPECS.iter().find(|s| s.name.eq_ignore_ascii_case(name))
}

/// Checks `value` against the option's type and range.
pub fn parse(name: &str, value: Option<&str>) -> Result<(&'static Spec, Value), OptionError> {
    let spec = find(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
    let bad = |expected: String| OptionError::BadValue {
        name: spec.name,
        value: value.unwrap_or("").to_string(),
        expected,
    };
    let v = match spec.kind {
        Kind::Button => Value::Pressed,
        Kind::Check(_) => match value.map(str::to_ascii_lowercase).as_deref() {
            Some("true") => Value::Bool(true),
            Some("false") => Value::Bool(false),
            None => return Err(OptionError::Missing { name: spec.name }),
            _ => return Err(bad("true or false".into())),
        },
        Kind::Spin { min, max, .. } => {
            let text = value.ok_or(OptionError::Missing { name: spec.name })?;
            match text.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Value::Int(n),
                _ => return Err(bad(format!("an integer from {min} to {max}"))),
            }
        }
        Kind::Text(default) => Value::Text(match value.map(str::trim) {
            None | Some("") | Some("<empty>") => default.to_string(),
            Some(v) => v.to_string(),
        }),
        Kind::Combo(_, vars) => {
            let text = value.ok_or(OptionError::Missing { name: spec.name })?;
            match vars.iter().find(|v| v.eq_ignore_ascii_case(text)) {
                Some(v) => Value::Text(v.to_string()),
                None => return Err(bad(format!("one of {}", vars.join(", ")))),
            }
        }
    };
    Ok((spec, v))
}

/// The `option name ...` lines printed for `uci`.
pub fn declarations() -> Vec<String> {
    SPECS
        .iter()
        .map(|s| match s.kind {
            Kind::Check(d) => format!("option name {} type check default {d}", s.name),
            Kind::Spin { default, min, max } => {
                format!(
                    "option name {} type spin default {default} min {min} max {max}",
                    s.name
                )
            }
            Kind::Combo(d, vars) => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {} type combo default {d}{vars}", s.name)
            }
            Kind::Button => format!("option name {} type button", s.name),
            Kind::Text(d) => format!("option name {} type string default {d}", s.name),
        })
        .collect()
}

/// Applies a search option to the config; returns false if `name` is not a search option.
pub fn apply_to_config(cfg: &mut SearchConfig, name: &str, v: &Value) -> bool {
    let b = matches!(v, Value::Bool(true));
    let i = match v {
        Value::Int(n) => *n as i32,
        _ => 0,
    };
    match name {
        "MultiPV" => cfg.multipv = i as usize,
        "Eval" => {
            if let Value::Text(t) = v {
                cfg.eval = t.parse().unwrap_or_default();
            }
        }
        "Algorithm" => {
            if let Value::Text(t) = v {
                cfg.algorithm = t.parse().unwrap_or(Algorithm::Engine);
            }
        }
        "SppMpd" => cfg.spp_mpd = i,
        "TextbookQsearch" => cfg.textbook_qsearch = b,
        "TT" => cfg.tt_enabled = b,
        "Qsearch" => cfg.qsearch_enabled = b,
        "QsearchSEE" => cfg.qsearch_see_enabled = b,
        "Aspiration" => cfg.aspiration_enabled = b,
        "AspirationWindow" => cfg.aspiration_window = i,
        "PVS" => cfg.pvs_enabled = b,
        "Killers" => cfg.killers_enabled = b,
        "History" => cfg.history_enabled = b,
        "CheckExtension" => cfg.check_extension_enabled = b,
        "NullMove" => cfg.nmp_enabled = b,
        "NmpMinDepth" => cfg.nmp_min_depth = i,
        "NmpReduction" => cfg.nmp_reduction = i,
        "NmpDepthDivisor" => cfg.nmp_depth_divisor = i,
        "NmpVerifyDepth" => cfg.nmp_verify_depth = i,
        "RFP" => cfg.rfp_enabled = b,
        "RfpMaxDepth" => cfg.rfp_max_depth = i,
        "RfpMargin" => cfg.rfp_margin = i,
        "Futility" => cfg.futility_enabled = b,
        "FutilityMaxDepth" => cfg.futility_max_depth = i,
        "FutilityMargin" => cfg.futility_margin = i,
        "LMP" => cfg.lmp_enabled = b,
        "LmpMaxDepth" => cfg.lmp_max_depth = i,
        "LMR" => cfg.lmr_enabled = b,
        "LmrBase" => cfg.lmr_base = i as f64 / 100.0,
        "LmrDivisor" => cfg.lmr_divisor = i as f64 / 100.0,
        "IIR" => cfg.iir_enabled = b,
        "ProbCut" => cfg.probcut_enabled = b,
        "ProbCutHeight" => cfg.probcut_height = i,
        "ProbCutShallow" => cfg.probcut_shallow = i,
        "ProbCutThreshold" => cfg.probcut_threshold = i as f64 / 100.0,
        "MultiProbCut" => cfg.mpc_enabled = b,
        "MpcTries" => cfg.mpc_tries = i as usize,
        "MpcMaxHeight" => cfg.mpc_max_height = i,
        "MpcThresholdMid" => cfg.mpc_threshold_mid = i as f64 / 100.0,
        "MpcThresholdEnd" => cfg.mpc_threshold_end = i as f64 / 100.0,
        "StockfishProbCut" => cfg.sfpc_enabled = b,
        "SfProbCutMargin" => cfg.sfpc_margin = i,
        "SfProbCutImproving" => cfg.sfpc_improving = i,
        "SfProbCutMinDepth" => cfg.sfpc_min_depth = i,
        "ProbCutDepthRule" => {
            if let Value::Text(t) = v {
                cfg.sfpc_depth_rule = t.parse().unwrap_or_default();
            }
        }
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_declared_match_the_config_defaults() {
        // Applying every declared default to a default config must change nothing.
        let mut cfg = SearchConfig::default();
        for s in SPECS {
            let v = match s.kind {
                Kind::Check(d) => Value::Bool(d),
                Kind::Spin { default, .. } => Value::Int(default),
                Kind::Combo(d, _) => Value::Text(d.into()),
                Kind::Button | Kind::Text(_) => continue,
            };
            apply_to_config(&mut cfg, s.name, &v);
        }
        assert_eq!(cfg, SearchConfig::default());
    }

    #[test]
    fn values_are_checked() {
        assert!(matches!(parse("hash", Some("64")), Ok((_, Value::Int(64)))));
        assert!(matches!(
            parse("Hash", Some("0")),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            parse("NullMove", Some("maybe")),
            Err(OptionError::BadValue { .. })
        ));
        assert!(
            matches!(parse("Eval", Some("CLASSIC")), Ok((_, Value::Text(t))) if t == "classic")
        );
        assert!(matches!(
            parse("Nope", Some("1")),
            Err(OptionError::Unknown(_))
        ));
        assert!(matches!(
            parse("Hash", None),
            Err(OptionError::Missing { .. })
        ));
    }
}
