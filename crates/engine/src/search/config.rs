//! `SearchConfig`: one plain field per technique switch and parameter, owned by each search
//! thread and set through UCI options. The option table in `uci::options` maps names to fields.

use crate::eval::EvalKind;
use crate::search::textbook::Algorithm;

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
