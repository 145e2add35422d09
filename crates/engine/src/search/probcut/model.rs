//! The ProbCut family's models: the game stages, the fitted linear models v = a·v' + b + e per
//! depth pair and stage with their cut bounds, the parameter file they are read from (a small
//! TOML written by `augur-lab fit`; the compiled-in one), and the Stockfish-style depth rules.

use crate::eval;
use crate::options::types::{Kind, OptionType, ValueError};
use cozy_chess::Board;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use thiserror::Error;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    Middlegame,
    Endgame,
}

impl Stage {
    pub const ALL: [Stage; 2] = [Stage::Middlegame, Stage::Endgame];

    /// The name in the parameter file (and in the lab's data).
    pub fn name(self) -> &'static str {
        match self {
            Stage::Middlegame => "middlegame",
            Stage::Endgame => "endgame",
        }
    }

    pub fn short(self) -> &'static str {
        match self {
            Stage::Middlegame => "mid",
            Stage::Endgame => "end",
        }
    }

    /// The stage of a position as Crafty defines it (`eval::is_endgame_stage`): the search
    /// picks its models by it and `augur-lab collect` labels its data by it.
    pub fn of(board: &Board) -> Stage {
        if eval::is_endgame_stage(board) {
            Stage::Endgame
        } else {
            Stage::Middlegame
        }
    }
}

/// The stage's name, as the parameter file and the lab's data write it.
impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A stage read from text that names neither stage.
#[derive(Debug, Error)]
#[error("stage must be middlegame or endgame, found '{0}'")]
pub struct UnknownStage(pub String);

/// A stage by its name or its short form (`middlegame` or `mid`).
impl FromStr for Stage {
    type Err = UnknownStage;

    fn from_str(text: &str) -> Result<Stage, UnknownStage> {
        Stage::ALL
            .into_iter()
            .find(|s| s.name() == text || s.short() == text)
            .ok_or_else(|| UnknownStage(text.to_string()))
    }
}

/// One fitted depth pair: the deep search of depth `deep` predicted from a shallow one.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    pub stage: Stage,
    pub shallow: i32,
    pub deep: i32,
    pub a: f64,
    pub b: f64,
    pub sigma: f64,
    pub r: f64,
    pub n: u64,
    /// The range of v' the model was fitted on; a bound outside it is not trusted.
    pub min: i32,
    pub max: i32,
}

impl Pair {
    /// Shallow-search bound above which v ≥ beta holds with the threshold's confidence:
    /// round((t·σ + β − b) / a), as in Figure 2.
    pub fn high_bound(&self, t: f64, beta: i32) -> i32 {
        ((t * self.sigma + beta as f64 - self.b) / self.a).round() as i32
    }

    /// Shallow-search bound below which v ≤ alpha is likely: round((−t·σ + α − b) / a).
    pub fn low_bound(&self, t: f64, alpha: i32) -> i32 {
        ((-t * self.sigma + alpha as f64 - self.b) / self.a).round() as i32
    }

    pub fn in_range(&self, bound: i32) -> bool {
        (self.min..=self.max).contains(&bound)
    }
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct ProbCutParams {
    pub pairs: Vec<Pair>,
}

#[derive(Debug, Error, PartialEq)]
pub enum ParamsError {
    #[error("line {line}: {what}")]
    Syntax { line: usize, what: String },
    #[error("pair {index} (ending line {line}): {what}")]
    Pair {
        index: usize,
        line: usize,
        what: String,
    },
    #[error("cannot read {path}: {error}")]
    Io { path: String, error: String },
}

// Beside the search's files, where the lab's tests read it too.
const BUILTIN: &str = include_str!("../probcut_params.toml");

impl ProbCutParams {
    pub fn builtin() -> Self {
        BUILTIN
            .parse()
            .expect("the compiled-in parameter file is valid")
    }

    /// Reads a parameter file. Only a regular file of at most `MAX_FILE` bytes is read: a
    /// GUI user may point the option at `/dev/zero` or a directory by mistake.
    pub fn load(path: &str) -> Result<Self, ParamsError> {
        const MAX_FILE: u64 = 1 << 20;
        let io = |error: String| ParamsError::Io {
            path: path.to_string(),
            error,
        };
        let meta = std::fs::metadata(path).map_err(|e| io(e.to_string()))?;
        if !meta.is_file() {
            return Err(io("not a regular file".into()));
        }
        if meta.len() > MAX_FILE {
            return Err(io(format!(
                "{} bytes is too large for a parameter file",
                meta.len()
            )));
        }
        let text = std::fs::read_to_string(path).map_err(|e| io(e.to_string()))?;
        text.parse()
    }

    /// Pairs for this stage and deep depth, in file order.
    pub fn for_height(&self, stage: Stage, deep: i32) -> impl Iterator<Item = &Pair> {
        self.pairs
            .iter()
            .filter(move |p| p.stage == stage && p.deep == deep)
    }

    pub fn find(&self, stage: Stage, shallow: i32, deep: i32) -> Option<&Pair> {
        self.pairs
            .iter()
            .find(|p| p.stage == stage && p.shallow == shallow && p.deep == deep)
    }
}

/// The value that selects the compiled-in parameters (the `ProbCutParams` option).
pub const BUILTIN_PARAMS: &str = "<builtin>";

/// The fitted ProbCut models: a file written by `augur-lab fit`, or the compiled-in one. A bad
/// file is refused with the reason, and the models in force stay.
impl OptionType for Arc<ProbCutParams> {
    fn kind(_: &Self, _: Option<(i64, i64)>) -> Kind {
        Kind::Text(BUILTIN_PARAMS)
    }
    fn parse(value: Option<&str>, _: Option<(i64, i64)>) -> Result<Self, ValueError> {
        Ok(Arc::new(match value.map(str::trim) {
            None | Some("" | "<empty>" | BUILTIN_PARAMS) => ProbCutParams::builtin(),
            Some(path) => {
                ProbCutParams::load(path).map_err(|e| ValueError::Params(e.to_string()))?
            }
        }))
    }
}

impl FromStr for ProbCutParams {
    type Err = ParamsError;

    /// Reads the subset of TOML the lab writes: `#` comments, `[[pair]]` headers and
    /// `key = number` / `key = "text"` lines.
    fn from_str(text: &str) -> Result<Self, ParamsError> {
        let mut raw: Vec<(usize, Vec<(String, String)>)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let line = match line.find('#') {
                Some(h) if !line[..h].contains('"') => &line[..h],
                _ => line,
            }
            .trim();
            if line.is_empty() {
                continue;
            }
            if line == "[[pair]]" {
                raw.push((n, Vec::new()));
                continue;
            }
            if line.starts_with('[') {
                return Err(ParamsError::Syntax {
                    line: n,
                    what: format!("unknown table '{line}' (expected [[pair]])"),
                });
            }
            let Some((k, v)) = line.split_once('=') else {
                return Err(ParamsError::Syntax {
                    line: n,
                    what: format!("expected 'key = value', got '{line}'"),
                });
            };
            let Some(current) = raw.last_mut() else {
                return Err(ParamsError::Syntax {
                    line: n,
                    what: "a key before the first [[pair]]".into(),
                });
            };
            current.0 = n;
            current
                .1
                .push((k.trim().to_string(), v.trim().trim_matches('"').to_string()));
        }
        let mut pairs = Vec::new();
        for (index, (line, keys)) in raw.into_iter().enumerate() {
            let err = |what: String| ParamsError::Pair {
                index: index + 1,
                line,
                what,
            };
            // A misspelt key ("sigme") would otherwise fall back silently to a default or
            // to "missing"; name it instead.
            const KEYS: [&str; 10] = [
                "stage", "shallow", "deep", "a", "b", "sigma", "r", "n", "min", "max",
            ];
            if let Some((k, _)) = keys.iter().find(|(k, _)| !KEYS.contains(&k.as_str())) {
                return Err(err(format!("unknown key '{k}'")));
            }
            let get = |k: &str| {
                keys.iter()
                    .rev()
                    .find(|(key, _)| key == k)
                    .map(|(_, v)| v.as_str())
                    .ok_or_else(|| err(format!("missing '{k}'")))
            };
            let num = |k: &str| -> Result<f64, ParamsError> {
                let v = get(k)?;
                v.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| err(format!("'{k}' = '{v}' is not a number")))
            };
            let int = |k: &str| -> Result<i32, ParamsError> {
                let v = get(k)?;
                v.parse::<i32>()
                    .map_err(|_| err(format!("'{k}' = '{v}' is not an integer")))
            };
            let stage: Stage = get("stage")?.parse().map_err(|e| err(format!("{e}")))?;
            let p = Pair {
                stage,
                shallow: int("shallow")?,
                deep: int("deep")?,
                a: num("a")?,
                b: num("b")?,
                sigma: num("sigma")?,
                r: num("r").unwrap_or(0.0),
                n: int("n").unwrap_or(0).max(0) as u64,
                min: int("min").unwrap_or(-300),
                max: int("max").unwrap_or(300),
            };
            if p.shallow < 1 || p.deep <= p.shallow || p.deep > 64 {
                return Err(err(format!(
                    "depths ({}, {}) must satisfy 1 <= shallow < deep <= 64",
                    p.shallow, p.deep
                )));
            }
            if p.a <= 0.0 || p.sigma < 0.0 {
                return Err(err("a must be positive and sigma non-negative".into()));
            }
            if p.min > p.max {
                return Err(err("min is above max".into()));
            }
            pairs.push(p);
        }
        Ok(ProbCutParams { pairs })
    }
}

crate::options::types::choice! {
    /// How the Stockfish-style ProbCut chooses its verification depth (`SfpcDepthRule`).
    #[derive(Default)]
    pub enum DepthRule("depth rule") {
        /// depth − reduction (Stockfish: depth − 5).
        #[default]
        Fixed = "fixed",
        /// depth − reduction − (staticEval − beta)/divisor, the seed patch: extends when
        /// staticEval < beta.
        Dynamic = "dynamic",
        /// The patch's term clamped to [0, depth], so it can only reduce.
        DynamicClamped = "dynamic-clamped",
    }
}

impl DepthRule {
    /// Verification depth (before the `> 0` check) for a node of `depth`: `reduction` plies
    /// shallower, and for the dynamic rules one ply per `divisor` cp of staticEval − beta.
    /// Never deeper than the node's own children (`depth − 1`): the dynamic rule extends when
    /// staticEval is far below beta, and with a small divisor (SfpcEvalDivisor 1) an uncapped
    /// verification could be hundreds of plies deeper than its node, each of its nodes
    /// extending again, so that `go depth 1` never ended. At the default divisor the cap acts
    /// only when staticEval is about 1,200 cp or more below beta.
    pub fn verification_depth(
        self,
        depth: i32,
        static_eval: i32,
        beta: i32,
        reduction: i32,
        divisor: i32,
    ) -> i32 {
        let term = (static_eval - beta) / divisor.max(1);
        let d = match self {
            DepthRule::Fixed => depth - reduction,
            DepthRule::Dynamic => depth - reduction - term,
            DepthRule::DynamicClamped => depth - reduction - term.max(0),
        };
        d.min(depth - 1).max(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_parses_and_bounds_follow_the_formula() {
        let p = ProbCutParams::builtin();
        let mid = p
            .find(Stage::Middlegame, 4, 8)
            .expect("(4,8) middle game present");
        // round((T·σ + β − b)/a) with T=1: (82 + 50 - 2.36)/1.02 = 127.1 -> 127
        let crafty = Pair {
            a: 1.02,
            b: 2.36,
            sigma: 82.0,
            ..mid.clone()
        };
        assert_eq!(crafty.high_bound(1.0, 50), 127);
        // (−82 + 49 − 2.36)/1.02 = −34.67 -> −35
        assert_eq!(crafty.low_bound(1.0, 49), -35);
        assert_eq!(
            crafty.high_bound(1.5, 0),
            ((1.5 * 82.0 - 2.36) / 1.02_f64).round() as i32
        );
        assert!(crafty.in_range(300) && !crafty.in_range(301));
    }

    #[test]
    fn stages_read_back_by_name_or_short_form() {
        for stage in Stage::ALL {
            assert_eq!(stage.to_string().parse::<Stage>().unwrap(), stage);
            assert_eq!(stage.short().parse::<Stage>().unwrap(), stage);
        }
        let e = "Middlegame".parse::<Stage>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "stage must be middlegame or endgame, found 'Middlegame'"
        );
    }

    #[test]
    fn bad_files_say_where() {
        let e = "a = 1".parse::<ProbCutParams>().unwrap_err();
        assert!(matches!(e, ParamsError::Syntax { line: 1, .. }), "{e}");
        let e = "[[pair]]\nstage = \"middlegame\"\nshallow = 4\ndeep = 8\na = x\nb = 0\nsigma = 1"
            .parse::<ProbCutParams>()
            .unwrap_err();
        assert!(e.to_string().contains("'a' = 'x' is not a number"), "{e}");
        let e = "[[pair]]\nstage = \"opening\""
            .parse::<ProbCutParams>()
            .unwrap_err();
        assert!(e.to_string().contains("found 'opening'"), "{e}");
        let e = "[[pair]]\nstage = \"endgame\"\nshallow = 8\ndeep = 4\na = 1\nb = 0\nsigma = 1"
            .parse::<ProbCutParams>()
            .unwrap_err();
        assert!(e.to_string().contains("shallow < deep"), "{e}");
        let e = "[[pair]]\nstage = \"endgame\"\nshallow = 4\ndeep = 8\na = 1\nb = 0\nsigme = 1"
            .parse::<ProbCutParams>()
            .unwrap_err();
        assert!(e.to_string().contains("unknown key 'sigme'"), "{e}");
        assert!(matches!(
            ProbCutParams::load("/nonexistent/x.toml"),
            Err(ParamsError::Io { .. })
        ));
    }

    #[test]
    fn depth_rules() {
        // staticEval 600 above beta: the patch reduces 2 more plies.
        assert_eq!(DepthRule::Fixed.verification_depth(10, 700, 100, 5, 300), 5);
        assert_eq!(
            DepthRule::Dynamic.verification_depth(10, 700, 100, 5, 300),
            3
        );
        assert_eq!(
            DepthRule::DynamicClamped.verification_depth(10, 700, 100, 5, 300),
            3
        );
        // staticEval 900 below beta: the unclamped patch extends by 3, the clamped one does not.
        assert_eq!(
            DepthRule::Dynamic.verification_depth(10, -800, 100, 5, 300),
            8
        );
        assert_eq!(
            DepthRule::DynamicClamped.verification_depth(10, -800, 100, 5, 300),
            5
        );
        // Far below beta with the smallest divisor: the patch would verify 895 plies deeper
        // than the node; it stops at the node's children. No rule goes below 0 either.
        for rule in [
            DepthRule::Fixed,
            DepthRule::Dynamic,
            DepthRule::DynamicClamped,
        ] {
            for (depth, eval, reduction, divisor) in [
                (10, -800, 5, 1),
                (3, -30000, 1, 1),
                (1, 30000, 64, 1),
                (64, 0, 1, 10000),
            ] {
                let d = rule.verification_depth(depth, eval, 100, reduction, divisor);
                assert!((0..depth).contains(&d), "{rule:?} {depth} {eval}: {d}");
            }
        }
        assert_eq!(
            DepthRule::Dynamic.verification_depth(10, -800, 100, 5, 1),
            9
        );
    }
}
