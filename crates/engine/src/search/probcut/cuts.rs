//! The ProbCut family's cuts, called from `negamax`: `[probcut]` and `[mpc]` (step 7) with
//! the fitted models of `model`, `[sfpc]` (step 10) with its depth rule; and `unfitted`, the
//! switches that are on but have no fitted pair to cut with.

use super::model::{Pair, Stage};
use crate::search::config::SearchConfig;
use crate::search::history::PieceTo;
use crate::search::margins::MarginRule;
use crate::search::moves::{is_noisy, see_ge};
use crate::search::ordering::{MovePicker, PickerOptions};
use crate::search::score::MATE_BOUND;
use crate::search::stats::{sfpc_gap_bucket, Technique};
use crate::search::thread::Searcher;
use crate::search::tt::Bound;
use cozy_chess::{Move, Piece};

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
pub fn unfitted(cfg: &SearchConfig) -> Vec<Unfitted> {
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
        // [sfpc] SfpcDepthMargin per ply of depth on top of the constant margin: the lab's
        // fitted margins may grow with depth (0 by default: Stockfish's constant margin).
        let pc_beta =
            beta + cfg.margin + cfg.depth_margin * depth - improving as i32 * cfg.improving;
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
        self.td.stats.tried(Technique::SfpcReduce);
        if pc_depth < fixed_depth {
            self.td.stats.cut(Technique::SfpcReduce);
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
                staged: false,
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
            self.td
                .make(&self.shared.tt, ply, mv, PieceTo::of(&board, mv));
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
            // [margins] The lab's record of the capture the rule verified (off: one test).
            if self.td.margin_log.is_some() && !self.stopped {
                self.td.log_margin(
                    MarginRule::Sfpc,
                    depth,
                    beta,
                    v,
                    improving,
                    Some(mv),
                    pc_depth,
                );
            }
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
    use super::super::model::DepthRule;
    use super::*;

    #[test]
    fn unfitted_switches_are_found() {
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
            assert_eq!(tried, stats.tried[Technique::SfpcReduce as usize]);
            assert_eq!(reduced, stats.cut[Technique::SfpcReduce as usize]);
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
