//! The ProbCut family: the fitted linear models v = a·v' + b + e per depth pair and game
//! stage, read from a small TOML file (written by `augur-lab fit`), their cut bounds, and the
//! cuts themselves, `[probcut]`, `[mpc]` and `[sfpc]`, called from `negamax` (steps 7 and 10).

use super::history::PieceTo;
use super::moves::{is_noisy, see_ge};
use super::ordering::{MovePicker, PickerOptions};
use super::score::MATE_BOUND;
use super::stats::{sfpc_gap_bucket, Technique};
use super::thread::Searcher;
use super::tt::Bound;
use crate::eval;
use crate::options::types::{Kind, OptionType, ValueError};
use cozy_chess::{Board, Move, Piece};
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

const BUILTIN: &str = include_str!("probcut_params.toml");

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

/// A ProbCut-family switch that is on but can use fitted pairs in fewer than both game stages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfitted {
    /// The UCI switch: `ProbCut` or `Mpc`.
    pub switch: &'static str,
    /// The stages it can cut in (empty: it never cuts).
    pub stages: Vec<Stage>,
    /// What it lacks, for the message: "pair (shallow 4, height 6)" or "pair with height <= 5".
    pub wanted: String,
}

impl Unfitted {
    pub fn message(&self) -> String {
        if self.stages.is_empty() {
            format!(
                "{} has no fitted {} in the ProbCutParams file, so it never cuts",
                self.switch, self.wanted
            )
        } else {
            let names: Vec<&str> = self.stages.iter().map(|s| s.name()).collect();
            format!(
                "{}'s {} is fitted only for the {}; the other stage never cuts",
                self.switch,
                self.wanted,
                names.join(", ")
            )
        }
    }
}

/// [probcut] [mpc] A switch whose depth pairs have no fitted parameters never cuts, and says
/// nothing while it does not; this finds such switches so that the UCI front end warns and the
/// lab refuses the variant.
pub fn unfitted(cfg: &crate::search::config::SearchConfig) -> Vec<Unfitted> {
    let params = &cfg.probcut.params;
    let mut out = Vec::new();
    if cfg.probcut.enabled {
        let (sh, h) = (cfg.probcut.shallow, cfg.probcut.height);
        let stages: Vec<Stage> = Stage::ALL
            .into_iter()
            .filter(|&st| params.find(st, sh, h).is_some())
            .collect();
        if stages.len() < Stage::ALL.len() {
            out.push(Unfitted {
                switch: "ProbCut",
                stages,
                wanted: format!("pair (shallow {sh}, height {h})"),
            });
        }
    }
    if cfg.mpc.enabled {
        let max = cfg.mpc.max_height;
        let stages: Vec<Stage> = Stage::ALL
            .into_iter()
            .filter(|&st| params.pairs.iter().any(|p| p.stage == st && p.deep <= max))
            .collect();
        if stages.len() < Stage::ALL.len() {
            out.push(Unfitted {
                switch: "Mpc",
                stages,
                wanted: format!("pair with height <= MpcMaxHeight {max}"),
            });
        }
    }
    out
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
            let name = get("stage")?;
            let Some(stage) = Stage::ALL.into_iter().find(|s| s.name() == name) else {
                return Err(err(format!("stage '{name}' is not middlegame or endgame")));
            };
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

impl Searcher<'_> {
    /// [probcut] ProbCut (Buro; Jiang & Buro in Crafty, Figure 2): at the check height, a shallow
    /// null-window search at a bound from the fitted model v = a·v' + b + e predicts whether the
    /// deep search would fail high (or low) with confidence T·σ, and cuts if so.
    /// [mpc] Multi-ProbCut (Figure 3): several depth pairs, stage-specific thresholds, never
    /// applied inside its own shallow searches. Both run before null move, as in Crafty.
    pub(crate) fn probcut(
        &mut self,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        cut_node: bool,
    ) -> Option<i32> {
        let cfg = &self.cfg;
        if !(cfg.probcut.enabled || cfg.mpc.enabled)
            || self.td.probcut_nesting > 0
            || beta.abs() >= MATE_BOUND
            || alpha.abs() >= MATE_BOUND
        {
            return None;
        }
        let stage = Stage::of(self.td.pos.board());
        let params = cfg.probcut.params.clone();
        let (technique, threshold, pairs): (Technique, f64, Vec<&Pair>) = if cfg.mpc.enabled {
            if depth > cfg.mpc.max_height {
                return None;
            }
            let t = if stage == Stage::Endgame {
                cfg.mpc.threshold_end
            } else {
                cfg.mpc.threshold_mid
            };
            (
                Technique::Mpc,
                t as f64 / 100.0,
                params
                    .for_height(stage, depth)
                    .take(cfg.mpc.tries.max(0) as usize)
                    .collect(),
            )
        } else {
            if depth != cfg.probcut.height {
                return None;
            }
            let pair = params.find(stage, cfg.probcut.shallow, cfg.probcut.height);
            (
                Technique::ProbCut,
                cfg.probcut.threshold as f64 / 100.0,
                pair.into_iter().collect(),
            )
        };
        for pair in pairs {
            let key = (stage, pair.shallow, pair.deep);
            // Is v >= beta likely?
            let bound = pair.high_bound(threshold, beta);
            if pair.in_range(bound) {
                self.td.stats.tried(technique);
                self.td.probcut_nesting += 1;
                let v = self.negamax::<false>(pair.shallow, ply, bound - 1, bound, cut_node);
                self.td.probcut_nesting -= 1;
                if self.stopped {
                    return Some(0);
                }
                self.td.stats.pair(key, v >= bound);
                if v >= bound {
                    self.td.stats.cut(technique);
                    return Some(beta);
                }
            }
            // Is v <= alpha likely?
            let bound = pair.low_bound(threshold, alpha);
            if pair.in_range(bound) {
                self.td.stats.tried(technique);
                self.td.probcut_nesting += 1;
                let v = self.negamax::<false>(pair.shallow, ply, bound, bound + 1, !cut_node);
                self.td.probcut_nesting -= 1;
                if self.stopped {
                    return Some(0);
                }
                self.td.stats.pair(key, v <= bound);
                if v <= bound {
                    self.td.stats.cut(technique);
                    return Some(alpha);
                }
            }
        }
        None
    }

    /// [sfpc] Stockfish-style ProbCut: if a good capture beats beta by a margin in qsearch and
    /// then in a reduced null-window search, the node will almost surely fail high. The
    /// verification depth follows `SfpcDepthRule` (fixed, the seed patch, or clamped).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn stockfish_probcut(
        &mut self,
        depth: i32,
        ply: usize,
        beta: i32,
        static_eval: i32,
        improving: bool,
        cut_node: bool,
        tt_move: Option<Move>,
        tt_score: Option<(i32, i32)>,
    ) -> Option<i32> {
        let cfg = &self.cfg.sfpc;
        if depth < cfg.min_depth || beta.abs() >= MATE_BOUND {
            return None;
        }
        let pc_beta = beta + cfg.margin - improving as i32 * cfg.improving;
        if tt_score.is_some_and(|(d, s)| d >= depth - cfg.tt_depth && s < pc_beta) {
            return None;
        }
        let pc_depth = cfg.depth_rule.verification_depth(
            depth,
            static_eval,
            beta,
            cfg.reduction,
            cfg.eval_divisor,
        );
        self.td.stats.tried(Technique::SfpcExtend);
        let fixed_depth = (depth - cfg.reduction).max(0);
        let extended = pc_depth > fixed_depth;
        if extended {
            self.td.stats.cut(Technique::SfpcExtend);
        }
        let gap = &mut self.td.stats.sfpc_gaps[sfpc_gap_bucket(static_eval - beta)];
        gap.computed += 1;
        gap.extended += extended as u64;
        gap.reduced += (pc_depth < fixed_depth) as u64;
        self.td.stats.tried(Technique::Sfpc);
        let board = self.td.pos.board().clone();
        let tt_capture = tt_move.filter(|&m| is_noisy(&board, m));
        let mut picker = MovePicker::new(
            tt_capture,
            [None; 2],
            PickerOptions {
                noisy_only: true,
                use_see: false,
            },
            self.td.stack.take_moves(ply),
        );
        let key = self.td.pos.hash();
        let mut result = None;
        while let Some(mv) = picker.next(&board, None) {
            if mv.promotion.is_some_and(|p| p != Piece::Queen)
                || !see_ge(&board, mv, pc_beta - static_eval)
            {
                continue;
            }
            self.td.make(ply, mv, PieceTo::of(&board, mv));
            // With `Qsearch` off the horizon is the static evaluation, so there is no
            // quiescence pre-check: the verification search alone decides.
            let mut v = if self.cfg.qsearch.enabled {
                -self.qsearch::<false>(ply + 1, -pc_beta, -pc_beta + 1)
            } else {
                pc_beta
            };
            if v >= pc_beta && pc_depth > 0 && !self.stopped {
                v = -self.negamax::<false>(pc_depth, ply + 1, -pc_beta, -pc_beta + 1, !cut_node);
            }
            self.td.unmake();
            if self.stopped {
                return Some(0);
            }
            if v >= pc_beta {
                if self.cfg.tt.enabled {
                    self.shared.tt.store(
                        key,
                        ply,
                        Some(mv),
                        v,
                        self.td.stack[ply].raw_eval,
                        pc_depth + 1,
                        Bound::Lower,
                    );
                }
                if v.abs() < MATE_BOUND {
                    self.td.stats.cut(Technique::Sfpc);
                    result = Some(v - (pc_beta - beta));
                    break;
                }
            }
        }
        self.td.stack.give_back_moves(ply, picker.into_buffer());
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unfitted_switches_are_found() {
        use crate::search::config::SearchConfig;
        let mut cfg = SearchConfig::default();
        assert!(
            unfitted(&cfg).is_empty(),
            "everything off: nothing to report"
        );
        cfg.set_option("ProbCut", Some("true")).unwrap();
        assert!(
            unfitted(&cfg).is_empty(),
            "the default pair is fitted for both stages"
        );
        cfg.set_option("ProbCutHeight", Some("6")).unwrap();
        cfg.set_option("ProbCutShallow", Some("4")).unwrap();
        let u = unfitted(&cfg);
        assert_eq!(u.len(), 1);
        assert_eq!(u[0].switch, "ProbCut");
        assert!(u[0].stages.is_empty());
        assert!(u[0].message().contains("never cuts"), "{}", u[0].message());

        let mut cfg = SearchConfig::default();
        cfg.set_option("Mpc", Some("true")).unwrap();
        assert!(unfitted(&cfg).is_empty());
        cfg.set_option("MpcMaxHeight", Some("2")).unwrap();
        let u = unfitted(&cfg);
        assert_eq!(u.len(), 1);
        assert_eq!(u[0].switch, "Mpc");
        assert!(u[0].stages.is_empty());
    }

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
        assert!(e.to_string().contains("stage 'opening'"), "{e}");
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

    /// [sfpc] The seed-004 measurement: every verification depth lands in exactly one static-eval
    /// gap bucket; the dynamic rule extends only where staticEval is at least `SfpcEvalDivisor`
    /// below beta, the clamped rule never; both reduce only where it is that far above beta.
    #[test]
    fn sfpc_gap_buckets_count_every_verification_and_only_far_below_beta_extends() {
        use crate::position::Position;
        use crate::search::config::SearchConfig;
        use crate::search::limits::Limits;
        use crate::search::stats::{sfpc_gap_bucket, SFPC_GAP_BUCKETS};
        use crate::search::SearchTeam;

        use crate::search::stats::sfpc_gap_range;
        assert_eq!(sfpc_gap_bucket(0), 7);
        assert_eq!(sfpc_gap_bucket(149), 7);
        assert_eq!(sfpc_gap_bucket(150), 8);
        assert_eq!(sfpc_gap_bucket(-1), 6);
        assert_eq!(sfpc_gap_bucket(-150), 6);
        assert_eq!(sfpc_gap_bucket(-151), 5);
        assert_eq!(sfpc_gap_bucket(-300), 5);
        assert_eq!(sfpc_gap_bucket(-301), 4);
        assert_eq!(sfpc_gap_bucket(-100_000), 0);
        assert_eq!(sfpc_gap_bucket(100_000), SFPC_GAP_BUCKETS - 1);
        assert_eq!(sfpc_gap_range(0), (None, Some(-900)));
        assert_eq!(sfpc_gap_range(6), (Some(-150), Some(0)));
        assert_eq!(sfpc_gap_range(9), (Some(300), Some(450)));
        assert_eq!(sfpc_gap_range(SFPC_GAP_BUCKETS - 1), (Some(900), None));
        // Every gap lies in its bucket's range.
        for gap in (-2000..2000).step_by(7) {
            let (lo, hi) = sfpc_gap_range(sfpc_gap_bucket(gap));
            assert!(
                lo.is_none_or(|l| l <= gap) && hi.is_none_or(|h| gap < h),
                "{gap}"
            );
        }

        let pos = Position::from_fen(
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
            false,
        )
        .unwrap();
        let limits = Limits {
            depth: Some(9),
            ..Default::default()
        };
        for (rule, may_extend) in [
            (DepthRule::Dynamic, true),
            (DepthRule::DynamicClamped, false),
        ] {
            let mut cfg = SearchConfig::default();
            cfg.sfpc.enabled = true;
            cfg.sfpc.depth_rule = rule;
            let stats = SearchTeam::new(cfg, 4).unwrap().search(&pos, &limits).stats;
            let tried: u64 = stats.sfpc_gaps.iter().map(|g| g.computed).sum();
            let extended: u64 = stats.sfpc_gaps.iter().map(|g| g.extended).sum();
            let reduced: u64 = stats.sfpc_gaps.iter().map(|g| g.reduced).sum();
            assert!(tried > 0, "{rule:?}: no verification depth computed");
            assert_eq!(tried, stats.tried[Technique::SfpcExtend as usize]);
            assert_eq!(extended, stats.cut[Technique::SfpcExtend as usize]);
            // (Reductions are rare: far above beta, reverse futility and null move usually
            // return before ProbCut is reached.)
            assert!(reduced <= tried, "{rule:?}");
            for (i, g) in stats.sfpc_gaps.iter().enumerate() {
                assert!(g.extended + g.reduced <= g.computed, "{rule:?} {i}");
                let (lo, hi) = sfpc_gap_range(i);
                // Less than 300 cp below beta the term is 0 or negative: never deeper; less
                // than 300 cp above it, 0 or positive: never shallower.
                if lo.is_some_and(|l| l > -300) {
                    assert_eq!(g.extended, 0, "{rule:?} bucket {i}");
                }
                if hi.is_some_and(|h| h <= 300) {
                    assert_eq!(g.reduced, 0, "{rule:?} bucket {i}");
                }
            }
            if !may_extend {
                assert_eq!(extended, 0, "{rule:?}");
            }
            assert!(stats.to_string().contains(" sfpc_gap_300_450="));
            assert!(stats.to_string().contains(" sfpc_gap_-inf_-900="));
        }
    }
}
