//! `SearchConfig`: one plain field per technique switch and parameter, owned by each search
//! thread and set through UCI options. The option table in `uci::options` maps names to fields.

use crate::eval::EvalKind;
use crate::search::probcut::{DepthRule, ProbCutParams};
use crate::search::textbook::Algorithm;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    pub eval: EvalKind,
    pub multipv: usize,
    /// `engine` is the full search below; the others are the fixed-depth textbook algorithms.
    pub algorithm: Algorithm,
    /// [spp] Maximum positional difference for `spp`/`sppt`.
    pub spp_mpd: i32,
    /// Quiescence at the textbook algorithms' leaves (off: static evaluation, as the thesis).
    pub textbook_qsearch: bool,

    pub tt_enabled: bool,
    pub qsearch_enabled: bool,
    pub qsearch_see_enabled: bool,
    pub aspiration_enabled: bool,
    pub aspiration_window: i32,
    pub pvs_enabled: bool,
    pub killers_enabled: bool,
    pub history_enabled: bool,
    pub check_extension_enabled: bool,

    pub nmp_enabled: bool,
    pub nmp_min_depth: i32,
    pub nmp_reduction: i32,
    pub nmp_depth_divisor: i32,
    pub nmp_verify_depth: i32,

    pub rfp_enabled: bool,
    pub rfp_max_depth: i32,
    pub rfp_margin: i32,

    pub futility_enabled: bool,
    pub futility_max_depth: i32,
    pub futility_margin: i32,

    pub lmp_enabled: bool,
    pub lmp_max_depth: i32,

    pub lmr_enabled: bool,
    pub lmr_base: f64,
    pub lmr_divisor: f64,

    pub iir_enabled: bool,

    /// [probcut] Buro's ProbCut: one depth pair (shallow, height) per stage.
    pub probcut_enabled: bool,
    pub probcut_height: i32,
    pub probcut_shallow: i32,
    pub probcut_threshold: f64,
    /// [mpc] Multi-ProbCut: every fitted pair whose deep depth is the node's depth.
    pub mpc_enabled: bool,
    pub mpc_tries: usize,
    pub mpc_max_height: i32,
    pub mpc_threshold_mid: f64,
    pub mpc_threshold_end: f64,
    /// The fitted models both use (`ProbCutParams` option).
    pub probcut_params: Arc<ProbCutParams>,
    /// [sfpc] Stockfish-style ProbCut: captures verified by qsearch, then a reduced search.
    pub sfpc_enabled: bool,
    pub sfpc_margin: i32,
    pub sfpc_improving: i32,
    pub sfpc_min_depth: i32,
    pub sfpc_depth_rule: DepthRule,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            eval: EvalKind::Default,
            multipv: 1,
            algorithm: Algorithm::Engine,
            spp_mpd: 70,
            textbook_qsearch: false,
            tt_enabled: true,
            qsearch_enabled: true,
            qsearch_see_enabled: true,
            aspiration_enabled: true,
            aspiration_window: 25,
            pvs_enabled: true,
            killers_enabled: true,
            history_enabled: true,
            check_extension_enabled: true,
            nmp_enabled: true,
            nmp_min_depth: 3,
            nmp_reduction: 3,
            nmp_depth_divisor: 4,
            nmp_verify_depth: 12,
            rfp_enabled: true,
            rfp_max_depth: 7,
            rfp_margin: 75,
            futility_enabled: true,
            futility_max_depth: 6,
            futility_margin: 90,
            lmp_enabled: true,
            lmp_max_depth: 8,
            lmr_enabled: true,
            lmr_base: 0.75,
            lmr_divisor: 2.25,
            iir_enabled: true,
            probcut_enabled: false,
            probcut_height: 8,
            probcut_shallow: 4,
            probcut_threshold: 1.0,
            mpc_enabled: false,
            mpc_tries: 2,
            mpc_max_height: 10,
            mpc_threshold_mid: 1.2,
            mpc_threshold_end: 1.0,
            probcut_params: Arc::new(ProbCutParams::builtin()),
            sfpc_enabled: false,
            sfpc_margin: 215,
            sfpc_improving: 60,
            sfpc_min_depth: 3,
            sfpc_depth_rule: DepthRule::Fixed,
        }
    }
}

impl SearchConfig {
    /// Every selective technique off: with this the search is a plain full-width alpha-beta
    /// (still with TT, ordering and qsearch unless those are switched off too).
    pub fn without_selectivity(mut self) -> Self {
        self.nmp_enabled = false;
        self.rfp_enabled = false;
        self.futility_enabled = false;
        self.lmp_enabled = false;
        self.lmr_enabled = false;
        self.qsearch_see_enabled = false;
        self
    }
}
