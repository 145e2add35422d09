//! The search's settings, declared once. Each technique is one block of the table at the end
//! of this file: its tag, its on/off switch and one row per parameter (field, type, default,
//! UCI option name, range, SPSA step, one line of why). From the table follow the
//! `SearchConfig` struct and its defaults, the UCI options with their ranges, the `setoption`
//! setter, the per-technique counters (`Technique`) and their tags.
//!
//! One name family per technique: tag `nmp` → options `Nmp`, `NmpReduction` → fields
//! `config.nmp.enabled`, `config.nmp.reduction` → counter `Technique::Nmp`, printed `nmp=`.
//!
//! Beside the table, the settings' derived types: `Mode` (the `Algorithm` option: the engine
//! or a textbook algorithm) and `LmrTable` (the `[lmr]` reductions of the `Lmr` parameters).
//!
//! Adding a technique is one block here, one `// [tag]` block in the search and one test;
//! the table also gives each technique its generated tests (`search::tests::every_technique`).

use super::probcut::model::{DepthRule, ProbCutParams};
use super::score::MAX_DEPTH;
use super::strength::{ELO_MAX, ELO_MIN};
use super::textbook::Algorithm;
use crate::eval::nnue::{self, Network};
use crate::eval::EvalKind;
use crate::options::types::{
    parse_choice, Choice, OptionError, OptionSpec, OptionType, UnknownChoice, ValueError,
};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

crate::options::types::choice! {
    /// [sppf] What predicts a frontier quiet move's score (`SppfMode`).
    #[derive(Default)]
    pub enum SppfMode("sppf mode") {
        /// The best quiet sibling searched so far plus a fixed MPD: the thesis's rule.
        #[default]
        Mpd = "mpd",
        /// The node's classic evaluation plus the most any quiet move can raise it.
        Exact = "exact",
    }
}

/// Expands the table below. Rows of `settings` become fields of `SearchConfig`; each block of
/// `techniques` becomes a struct (`enabled` plus its parameters), a field of `SearchConfig`
/// named by the tag, and a `Technique` counter (plus any extra `counter` rows).
macro_rules! search_config {
    (
        settings {
            $(
                $s:ident : $sty:ty = $sdef:expr => $sopt:literal $([$smin:tt, $smax:tt])?;
                $swhy:literal
            )*
        }
        techniques {
            $(
                [$tag:ident] $T:ident => $switch:literal = $on:literal; $twhy:literal {
                    $(
                        $f:ident : $fty:ty = $fdef:expr => $fopt:literal
                            $([$fmin:literal, $fmax:literal] $(step $fstep:literal)?)?;
                        $fwhy:literal
                    )*
                }
                $(counter [$xtag:ident] $X:ident; $xwhy:literal)*
            )*
        }
    ) => {
        #[derive(Clone, Debug, PartialEq)]
        pub struct SearchConfig {
            $( #[doc = $swhy] pub $s: $sty, )*
            $( #[doc = $twhy] pub $tag: $T, )*
            /// [nnue] The network `Eval nnue` evaluates with: the embedded one, or the file
            /// `EvalFile` loaded. Each engine holds its own, so engines with different
            /// networks live side by side in one process.
            pub network: Arc<Network>,
        }

        impl Default for SearchConfig {
            fn default() -> Self {
                SearchConfig {
                    $( $s: $sdef, )*
                    $( $tag: $T::default(), )*
                    network: nnue::default_network(),
                }
            }
        }

        $(
            #[doc = $twhy]
            #[derive(Clone, Debug, PartialEq)]
            pub struct $T {
                /// The technique's switch.
                pub enabled: bool,
                $( #[doc = $fwhy] pub $f: $fty, )*
            }

            impl Default for $T {
                fn default() -> Self {
                    $T {
                        enabled: $on,
                        $( $f: $fdef, )*
                    }
                }
            }
        )*

        /// A technique's counters (how often it was tried, how often it cut), named by its tag.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Technique {
            $( #[doc = $twhy] $T, $( #[doc = $xwhy] $X, )* )*
        }

        impl Technique {
            pub const ALL: &'static [Technique] = &[$( Technique::$T, $( Technique::$X, )* )*];
            pub const COUNT: usize = Self::ALL.len();

            /// The tag: `// [tag]` in the code, `tag=tried/cut` in `info string stats`.
            pub fn tag(self) -> &'static str {
                match self {
                    $( Technique::$T => stringify!($tag), $( Technique::$X => stringify!($xtag), )* )*
                }
            }
        }

        impl SearchConfig {
            /// The UCI options of the search, in table order.
            pub fn option_specs() -> Vec<OptionSpec> {
                let d = SearchConfig::default();
                vec![
                    $(
                        OptionSpec {
                            name: $sopt,
                            kind: <$sty as OptionType>::kind(&d.$s, None $(.or(Some(($smin, $smax))))?),
                            tag: None,
                            step: None,
                            why: $swhy,
                        },
                    )*
                    $(
                        OptionSpec {
                            name: $switch,
                            kind: <bool as OptionType>::kind(&$on, None),
                            tag: Some(stringify!($tag)),
                            step: None,
                            why: $twhy,
                        },
                        $(
                            OptionSpec {
                                name: $fopt,
                                kind: <$fty as OptionType>::kind(
                                    &d.$tag.$f,
                                    None $(.or(Some(($fmin, $fmax))))?,
                                ),
                                tag: Some(stringify!($tag)),
                                step: None $($(.or(Some($fstep as f64)))?)?,
                                why: $fwhy,
                            },
                        )*
                    )*
                ]
            }

            /// `setoption`: sets the search option `name` (any case) from its text. Returns
            /// `Ok(false)` if `name` is not a search option; on a bad value nothing changes.
            pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<bool, OptionError> {
                let refused =
                    |name: &'static str| move |error: ValueError| OptionError::Value { name, error };
                $(
                    if name.eq_ignore_ascii_case($sopt) {
                        self.$s = <$sty as OptionType>::parse(value, None $(.or(Some(($smin, $smax))))?)
                            .map_err(refused($sopt))?;
                        return Ok(true);
                    }
                )*
                $(
                    if name.eq_ignore_ascii_case($switch) {
                        self.$tag.enabled = <bool as OptionType>::parse(value, None)
                            .map_err(refused($switch))?;
                        return Ok(true);
                    }
                    $(
                        if name.eq_ignore_ascii_case($fopt) {
                            self.$tag.$f = <$fty as OptionType>::parse(
                                value,
                                None $(.or(Some(($fmin, $fmax))))?,
                            )
                            .map_err(refused($fopt))?;
                            return Ok(true);
                        }
                    )*
                )*
                Ok(false)
            }
        }

        /// Calls back `$callback! { tag, ... }` with the tag of every technique, in table
        /// order: the tests generate one test per technique from it (search/tests.rs).
        #[cfg(test)]
        macro_rules! technique_tags {
            ($callback:ident) => {
                $callback! { $($tag),* }
            };
        }
        #[cfg(test)]
        pub(crate) use technique_tags;
    };
}

search_config! {
    settings {
        multipv: i32 = 1 => "MultiPV" [1, 256];
            "number of principal variations reported"
        move_overhead: i32 = 30 => "MoveOverhead" [0, 5000];
            "milliseconds kept back from the clock for a move, for GUI and network lag; more when the lag measured from the clock is larger"
        eval: EvalKind = EvalKind::Nnue => "Eval";
            "`nnue`: the network (the embedded one, or `EvalFile`'s); `hce` (also `default`): Augur's hand-written tapered evaluation; `classic`: the SPP thesis's feature table"
        king_safety: i32 = 100 => "KingSafety" [0, 200];
            "[kingsafety] percent of the hand-written evaluation's king-safety terms (shelter and attack, `eval::tapered::layout::is_king_safety`); 100 is the weights as tuned, 125 Jiang & Buro's Crafty setting for MPC; the other evaluations ignore it"
        algorithm: Mode = Mode::Engine => "Algorithm";
            "`engine`, or a textbook algorithm searched to a fixed depth (`go depth N`, default 5)"
        spp_mpd: i32 = 70 => "SppMpd" [0, 10000];
            "[spp] maximum positional difference of the `spp` and `sppt` algorithms"
        textbook_qsearch: bool = false => "TextbookQsearch";
            "quiescence at the textbook algorithms' leaves (off: static evaluation, as the thesis)"
        limit_strength: bool = false => "UCI_LimitStrength";
            "[strength] play weaker, at the strength `UCI_Elo` asks for: fewer nodes a move and a move drawn among the best few root moves (docs/strength.md); the clock and `go` limits still bound each search"
        elo: i32 = ELO_MAX as i32 => "UCI_Elo" [ELO_MIN, ELO_MAX];
            "[strength] the Elo `UCI_LimitStrength` plays at, on the scale of Stockfish 15.1's `UCI_Elo`: the range is what was measured against it (docs/strength.md); full strength is far above the top, so to play at full strength switch `UCI_LimitStrength` off"
        strength_seed: i32 = 0 => "StrengthSeed" [0, 1000000];
            "[strength] 0: each engine process draws the weak mode's moves its own way; another value: they follow from it, the position and the `go`s since `ucinewgame` alone (reproducible games)"
    }
    techniques {
        [tt] Tt => "Tt" = true;
            "Transposition table: reuse what an equal position searched at least as deep proved" {}
        [aspiration] Aspiration => "Aspiration" = true;
            "Aspiration windows: iterations mostly land near the last score, so search a narrow window around it" {
            window: i32 = 25 => "AspirationWindow" [1, 1000] step 5;
                "first window half-width (cp)"
            min_depth: i32 = 4 => "AspirationMinDepth" [1, 64] step 1;
                "first iteration with a window; earlier scores swing too much to aim at"
            growth: i32 = 200 => "AspirationGrowth" [110, 1000] step 20;
                "half-width after a failed window, percent of the last one"
            max_window: i32 = 1000 => "AspirationMaxWindow" [1, 32000] step 50;
                "a half-width beyond this searches the full window (cp)"
        }
        [timeman] TimeMan => "TimeMan" = true;
            "Time management: in sudden death the clock is shared over a shorter horizon and the increment spent whole (the old plan ended games with a quarter of the clock unused); on the clock (not movetime) the soft limit shrinks while the best move stays and most nodes go to it, and grows when it changes or the score drops" {
            min_depth: i32 = 5 => "TimeManMinDepth" [1, 32] step 1;
                "first iteration that rescales the soft limit; shallower ones change their minds too often to mean anything"
            stable_base: i32 = 150 => "TimeManStableBase" [50, 400] step 10;
                "stability factor (percent of the soft limit) in the iteration where the best move changed"
            stable_step: i32 = 20 => "TimeManStableStep" [0, 100] step 2;
                "percent less for each further iteration that kept the best move"
            stable_floor: i32 = 70 => "TimeManStableFloor" [10, 100] step 5;
                "the stability factor's least value (percent)"
            node_pivot: i32 = 70 => "TimeManNodePivot" [0, 100] step 2;
                "share of the root's nodes (percent) under the best move at which the node factor is 1; 70 is Augur's median for a best move kept 3+ iterations (others use ~87: their LMR starves the rivals more)"
            node_scale: i32 = 135 => "TimeManNodeScale" [0, 400] step 10;
                "node factor = 1 + scale · (pivot − share), both in hundredths: less time when the best move took most of the tree"
            score_lag: i32 = 2 => "TimeManScoreLag" [1, 8] step 1;
                "the score drop is measured against the iteration this many before the last (even: same side moves last, no odd-even swing)"
            score_drop: i32 = 15 => "TimeManScoreDrop" [0, 100] step 2;
                "per mille more time per cp the score fell"
            score_cap: i32 = 160 => "TimeManScoreCap" [100, 400] step 10;
                "the score factor's largest value (percent)"
            scale_min: i32 = 40 => "TimeManScaleMin" [10, 100] step 5;
                "the scaled soft limit is at least this percent of the plan's"
            scale_max: i32 = 250 => "TimeManScaleMax" [100, 1000] step 10;
                "and at most this percent of it (and never beyond the hard limit)"
            horizon: i32 = 24 => "TimeManHorizon" [10, 60] step 2;
                "sudden death: the clock (less the latency reserve) is shared over this many moves; the plan without TimeMan shares clock and increments over 28"
            horizon_late: i32 = 24 => "TimeManHorizonLate" [6, 60] step 2;
                "sudden death: the horizon from move TimeManLateMove on, reached linearly from TimeManHorizon at move 10; shorter spends late in the game what the early moves banked (as Stockfish's share of the clock grows with the ply)"
            late_move: i32 = 50 => "TimeManLateMove" [11, 200] step 5;
                "the move number from which TimeManHorizonLate holds"
            inc_share: i32 = 150 => "TimeManIncShare" [0, 300] step 10;
                "sudden death: percent of the increment added to each move's soft limit; deepening stops at 60% of it, so about 150 spends the increment whole instead of banking it"
        }
        counter [timeman_extend] TimeManExtend;
            "[timeman] iterations whose scaled soft limit is above the plan's (tried), and of those the ones after which deepening went on only because of it (cut)"
        [pvs] Pvs => "Pvs" = true;
            "Principal variation search: after the first move prove each move worse with a null window; re-search only if not" {}
        [checkext] CheckExt => "CheckExt" = true;
            "Check extension: a side in check has few replies and the line is forcing; search it a ply deeper" {}
        [iir] Iir => "Iir" = true;
            "Internal iterative reduction: without a TT move the ordering is poor and the node likely unimportant; search it a ply shallower" {
            min_depth: i32 = 4 => "IirMinDepth" [1, 64] step 1;
                "shallowest node reduced"
        }
        [qsearch] Qsearch => "Qsearch" = true;
            "Quiescence search: resolve captures and promotions at the horizon so that leaves are quiet" {}
        [qstt] QsTt => "QsTt" = true;
            "TT cutoffs in quiescence: a stored bound that settles the window ends a non-PV quiescence node at once (the entry's eval and move are used either way)" {}
        [qsee] Qsee => "Qsee" = true;
            "SEE pruning in quiescence: a capture that loses material by exchange cannot raise a stand-pat score" {
            margin: i32 = 0 => "QseeMargin" [-1000, 1000] step 10;
                "a capture is searched only if its exchange gains at least this (cp)"
        }
        [qdelta] QDelta => "QDelta" = false;
            "Delta pruning in quiescence: a capture whose victim, with a margin, cannot lift the stand-pat score to alpha is not searched" {
            margin: i32 = 200 => "QDeltaMargin" [0, 2000] step 10;
                "what the position may gain beyond the victim's value (cp)"
        }
        [killers] Killers => "Killers" = true;
            "Killer moves: a quiet move that cut at this ply likely cuts in its siblings too" {}
        [stagedquiets] StagedQuiets => "StagedQuiets" = true;
            "Staged quiet generation: outside check the quiets are generated and scored only once the good captures and the killers are spent, since a third of the nodes cut before any quiet (tried: nodes that deferred; cut: nodes that never generated them)" {}
        [history] History => "History" = true;
            "History heuristic: order quiet moves by how often they caused cutoffs" {
            bonus_scale: i32 = 16 => "HistoryBonusScale" [1, 256] step 2;
                "a cutoff at depth d rewards its move scale·d² (and punishes the quiets tried before it)"
            bonus_max: i32 = 4000 => "HistoryBonusMax" [64, 16384] step 200;
                "the largest reward of one cutoff"
        }
        [conthist] ContHist => "ContHist" = true;
            "Continuation history: order and reduce quiet moves by how well they did after the same previous move (1 and 2 plies back)" {
            plies: i32 = 2 => "ContHistPlies" [1, 2];
                "1: the opponent's last move only; 2: also our own move before it"
            lmr_weight: i32 = 100 => "ContHistLmrWeight" [0, 400] step 10;
                "percent of the continuation scores added to the history that adjusts LMR"
        }
        [countermove] CounterMove => "CounterMove" = false;
            "Counter moves: the quiet move that last refuted the opponent's previous move (same piece, same square) likely refutes it again; ordered after the killers" {}
        [capthist] CaptHist => "CaptHist" = false;
            "Capture history: order captures by how often this piece taking this victim on this square caused a cutoff, besides MVV-LVA" {
            divisor: i32 = 8 => "CaptHistDivisor" [1, 256] step 1;
                "the history is divided by this before it joins 10 × the victim's value"
        }
        [corrhist] CorrHist => "CorrHist" = false;
            "Correction history: add to the static eval the average error the search found for this pawn structure and side" {
            weight_per_ply: i32 = 4 => "CorrHistWeightPerPly" [1, 64] step 1;
                "a new measurement at depth d weighs (d + 1) times this, of 256"
            weight_max: i32 = 64 => "CorrHistWeightMax" [1, 256] step 8;
                "the largest weight of one measurement, of 256"
            limit: i32 = 128 => "CorrHistLimit" [1, 1000] step 10;
                "the largest correction (cp)"
        }
        [se] Se => "Se" = true;
            "Singular extensions: a TT move that alone holds near its stored score is searched a ply deeper; if others hold too, cut (multi-cut) or search it shallower" {
            min_depth: i32 = 6 => "SeMinDepth" [2, 32] step 1;
                "shallowest node that tests its TT move"
            tt_depth: i32 = 3 => "SeTtDepth" [0, 16] step 1;
                "the TT entry (lower bound or exact) must be at least depth − this deep"
            margin: i32 = 2 => "SeMargin" [0, 50] step 1;
                "singular beta = TT score − this × depth (cp)"
            double_margin: i32 = 25 => "SeDoubleMargin" [0, 1000] step 5;
                "off the PV, a TT move whose rivals fail this far below singular beta is extended two plies (cp)"
            double_max: i32 = 6 => "SeDoubleMax" [0, 64] step 1;
                "double extensions along one line at most, so that the tree stays finite"
        }
        counter [se_multicut] SeMulticut;
            "[se] singular searches whose rivals also reach singular beta (tried), and of those the nodes cut because it is at least beta (cut)"
        counter [se_double] SeDouble;
            "[se] TT moves extended two plies (tried)"
        counter [se_negative] SeNegative;
            "[se] TT moves searched a ply shallower because a rival holds too (tried)"
        [ttpv] TtPv => "TtPv" = false;
            "TT PV flag: a position once searched as a PV node is remembered as such; off the PV its late moves are reduced less, since the line may come back" {
            reduction: i32 = 1 => "TtPvReduction" [0, 4] step 1;
                "plies less late-move reduction in a non-PV node with the flag"
        }
        [tteval] TtEval => "TtEval" = true;
            "TT score as eval: a stored bound on the right side of the static eval is a better guess of the node's value, for stand pat and the pruning margins" {}
        [improving] Improving => "Improving" = true;
            "Improving flag: a static eval above the one two plies back (same side to move) says the position is getting better, so reverse futility prunes sooner, late move pruning waits longer, LMR reduces less and Stockfish-style ProbCut's margin shrinks; off, no node counts as improving" {}
        [rfp] Rfp => "Rfp" = true;
            "Reverse futility pruning: at shallow depth a static eval far above beta will almost surely hold" {
            max_depth: i32 = 7 => "RfpMaxDepth" [1, 20] step 1;
                "deepest node pruned"
            margin: i32 = 75 => "RfpMargin" [0, 1000] step 5;
                "margin per ply of depth (one ply less when improving, cp)"
            base: i32 = 0 => "RfpBase" [-500, 1000] step 10;
                "margin at depth 0 (cp): with RfpMargin a line, the form a margin fitted per depth takes (augur-lab margins)"
        }
        [razor] Razor => "Razor" = false;
            "Razoring: at the lowest depths a static eval far below alpha is checked by quiescence alone; if that fails low too, the node does" {
            max_depth: i32 = 3 => "RazorMaxDepth" [1, 8] step 1;
                "deepest node razored"
            base: i32 = 250 => "RazorBase" [0, 2000] step 10;
                "margin at depth 0 (cp)"
            margin: i32 = 200 => "RazorMargin" [0, 1000] step 10;
                "margin per ply of depth (cp)"
        }
        [nmp] Nmp => "Nmp" = true;
            "Null-move pruning: if a reduced search after passing still fails high, a real move would too" {
            min_depth: i32 = 3 => "NmpMinDepth" [1, 20] step 1;
                "shallowest node that tries a null move"
            reduction: i32 = 3 => "NmpReduction" [1, 10] step 0.5;
                "R = reduction + depth / NmpDepthDivisor + min((eval − beta) / NmpEvalDivisor, NmpEvalMax)"
            depth_divisor: i32 = 4 => "NmpDepthDivisor" [1, 20] step 0.5;
                "deeper nodes reduce more: one ply per this many plies of depth"
            eval_divisor: i32 = 200 => "NmpEvalDivisor" [1, 2000] step 10;
                "an eval further above beta reduces more: one ply per this many cp"
            eval_max: i32 = 3 => "NmpEvalMax" [0, 10] step 0.5;
                "the most plies the eval term adds"
            verify_depth: i32 = 12 => "NmpVerifyDepth" [1, 101] step 1;
                "from this depth a null-move cutoff is verified by a reduced normal search (zugzwang)"
            max_depth: i32 = 101 => "NmpMaxDepth" [1, 101] step 1;
                "deepest node that tries a null move: with Mpc, a lower value lets Multi-ProbCut replace null move at large heights (Jiang & Buro's open question of how the two should combine)"
        }
        [futility] Futility => "Futility" = true;
            "Futility pruning: a quiet move cannot lift a static eval this far below alpha within the remaining depth" {
            max_depth: i32 = 6 => "FutilityMaxDepth" [1, 20] step 1;
                "deepest node whose quiet moves are pruned"
            base: i32 = 100 => "FutilityBase" [0, 1000] step 10;
                "margin at depth 0 (cp)"
            margin: i32 = 90 => "FutilityMargin" [0, 1000] step 5;
                "margin added per ply of depth (cp)"
        }
        [sppf] Sppf => "Sppf" = false;
            "Sibling prediction pruning at the frontier (the SPP thesis): at depth 1, a quiet move is pruned when a searched quiet sibling plus the maximum positional difference cannot reach alpha" {
            mpd: i32 = 160 => "SppfMpd" [0, 1000] step 10;
                "`mpd` mode: how much two quiet siblings may differ (cp); 160 is about the hand-written evaluation's 99th-percentile sibling spread (docs/compare.md)"
            mode: SppfMode = SppfMode::Mpd => "SppfMode";
                "`mpd`: the best searched quiet sibling + SppfMpd; `exact`: the classic evaluation's sound per-node bound (spp-exact's; needs `Eval classic`, prunes nothing with another evaluation)"
        }
        [seeprune] SeePrune => "SeePrune" = true;
            "SEE pruning: at low depth a move that loses material by static exchange (beyond a margin growing with depth) is skipped; the search would only confirm the loss" {
            max_depth: i32 = 8 => "SeePruneMaxDepth" [1, 20] step 1;
                "deepest node pruned"
            quiet_margin: i32 = 50 => "SeePruneQuiet" [0, 500] step 5;
                "a quiet move may lose this much per ply of depth by exchange before it is pruned (cp)"
            noisy_margin: i32 = 20 => "SeePruneNoisy" [0, 200] step 2;
                "a capture may lose this much per ply of depth squared by exchange before it is pruned (cp)"
        }
        [histprune] HistPrune => "HistPrune" = true;
            "History pruning: at low depth a quiet move whose history (butterfly plus continuation) is far below zero is skipped; it has failed in this context again and again" {
            max_depth: i32 = 3 => "HistPruneMaxDepth" [1, 20] step 1;
                "deepest node pruned"
            margin: i32 = 500 => "HistPruneMargin" [0, 49152] step 50;
                "a quiet move is pruned when its history is below −margin · depth"
        }
        [lmp] Lmp => "Lmp" = true;
            "Late move pruning: at low depth, quiet moves this late in a well-ordered list almost never matter" {
            max_depth: i32 = 8 => "LmpMaxDepth" [1, 20] step 1;
                "deepest node pruned"
            base: i32 = 3 => "LmpBase" [0, 64] step 1;
                "moves searched before pruning: (base + depth²), halved when not improving"
        }
        [lmr] Lmr => "Lmr" = true;
            "Late move reductions: quiet moves late in the ordering are searched shallower first, fully only if they beat alpha" {
            min_depth: i32 = 3 => "LmrMinDepth" [1, 20] step 1;
                "shallowest node that reduces"
            min_moves: i32 = 2 => "LmrMinMoves" [1, 64] step 1;
                "moves searched in full before reducing (one more in PV nodes)"
            base: i32 = 75 => "LmrBase" [0, 300] step 5;
                "r = (base + ln depth · ln moves · 100 / divisor) / 100"
            divisor: i32 = 225 => "LmrDivisor" [50, 1000] step 10;
                "larger divisors reduce less (hundredths)"
        }
        [lmrhistory] LmrHistory => "LmrHistory" = true;
            "History-based LMR: a late quiet move with a good butterfly and continuation history is reduced less, one with a bad one more" {
            divisor: i32 = 6000 => "LmrHistoryDivisor" [100, 100000] step 250;
                "a quiet move's history changes its reduction by one ply per this much"
        }
        [lmrnoisy] LmrNoisy => "LmrNoisy" = false;
            "LMR for bad captures: a late capture or promotion that loses material by exchange is searched shallower first, like a late quiet move" {
            offset: i32 = 0 => "LmrNoisyOffset" [-3, 3] step 1;
                "plies added to the quiet move's base reduction for such a capture"
        }
        [lmrttcapture] LmrTtCapture => "LmrTtCapture" = false;
            "LMR after a capturing TT move: when the node's best known move is a capture, its quiet moves are less likely to matter and are reduced more" {
            reduction: i32 = 1 => "LmrTtCaptureReduction" [0, 3] step 1;
                "plies added to a late quiet move's reduction when the TT move is a capture or promotion"
        }
        [allchild] AllChild => "AllChild" = false;
            "Node types of unreduced children: a later move of an expected cut node that is searched with a null window but not reduced is expected to fail low (an all node), as in Stockfish; off, every null-window child is treated as a cut node" {}
        [probcut] ProbCut => "ProbCut" = false;
            "ProbCut (Buro; Figure 2 of Jiang & Buro): a shallow search predicts the deep one through the fitted model v = a·v' + b + e" {
            height: i32 = 8 => "ProbCutHeight" [2, 64];
                "the depth at which ProbCut is tried"
            shallow: i32 = 4 => "ProbCutShallow" [1, 63];
                "the depth of its shallow search"
            threshold: i32 = 100 => "ProbCutThreshold" [0, 1000];
                "confidence T in hundredths: cut when the shallow result is T·σ beyond the bound"
            params: Arc<ProbCutParams> = Arc::new(ProbCutParams::builtin()) => "ProbCutParams";
                "the fitted models of ProbCut and Multi-ProbCut: a file written by `augur-lab fit`; a bad file is reported and the previous models stay"
        }
        [mpc] Mpc => "Mpc" = false;
            "Multi-ProbCut (Figure 3 of Jiang & Buro): every fitted depth pair for the node's height and stage, stage-specific thresholds" {
            tries: i32 = 2 => "MpcTries" [1, 8];
                "depth pairs tried per node"
            max_height: i32 = 10 => "MpcMaxHeight" [2, 64];
                "deepest node tried"
            threshold_mid: i32 = 120 => "MpcThresholdMid" [0, 1000];
                "confidence T in the middle game (hundredths)"
            threshold_end: i32 = 100 => "MpcThresholdEnd" [0, 1000];
                "confidence T in the endgame (hundredths)"
        }
        [sfpc] Sfpc => "Sfpc" = true;
            "Stockfish-style ProbCut: a good capture that beats beta by a margin in qsearch and then in a reduced search cuts the node" {
            margin: i32 = 215 => "SfpcMargin" [0, 2000];
                "how far above beta the capture must score (cp)"
            improving: i32 = 60 => "SfpcImproving" [0, 1000];
                "margin taken off when the static eval is improving (cp)"
            depth_margin: i32 = 0 => "SfpcDepthMargin" [-100, 100];
                "margin added per ply of the node's depth (cp): a margin fitted per depth may grow or shrink with it (augur-lab margins)"
            min_depth: i32 = 3 => "SfpcMinDepth" [1, 64];
                "shallowest node tried"
            tt_depth: i32 = 3 => "SfpcTtDepth" [0, 64];
                "skipped when a TT score at least depth − this deep is below the raised beta"
            reduction: i32 = 5 => "SfpcReduction" [1, 64];
                "the verification search is this many plies shallower (before the depth rule's term)"
            eval_divisor: i32 = 300 => "SfpcEvalDivisor" [1, 10000];
                "the dynamic depth rules change the verification depth by one ply per this many cp of eval − beta"
            depth_rule: DepthRule = DepthRule::Fixed => "SfpcDepthRule";
                "verification depth: `fixed` (depth − reduction), `dynamic` (the seed patch, also extends), `dynamic-clamped` (only reduces)"
        }
        counter [sfpc_extend] SfpcExtend;
            "[sfpc] verification depths computed (tried) and those deeper than depth − reduction (cut)"
        counter [sfpc_reduce] SfpcReduce;
            "[sfpc] verification depths computed (tried) and those shallower than depth − reduction (cut): with `sfpc_extend`, the share of verifications a dynamic rule changes"
    }
}

/// What the team runs for a `go` (the `Algorithm` option): the engine's own search, or a
/// textbook algorithm to a fixed depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    #[default]
    Engine,
    Textbook(Algorithm),
}

impl Mode {
    /// `engine`, then the textbook algorithms' names.
    pub const NAMES: &'static [&'static str] = &MODE_NAMES;
    pub const ALL: &'static [Mode] = &MODES;

    pub fn name(self) -> &'static str {
        match self {
            Mode::Engine => "engine",
            Mode::Textbook(a) => a.name(),
        }
    }
}

static MODE_NAMES: [&str; Algorithm::NAMES.len() + 1] = {
    let mut names = ["engine"; Algorithm::NAMES.len() + 1];
    let mut i = 0;
    while i < Algorithm::NAMES.len() {
        names[i + 1] = Algorithm::NAMES[i];
        i += 1;
    }
    names
};

static MODES: [Mode; Algorithm::ALL.len() + 1] = {
    let mut modes = [Mode::Engine; Algorithm::ALL.len() + 1];
    let mut i = 0;
    while i < Algorithm::ALL.len() {
        modes[i + 1] = Mode::Textbook(Algorithm::ALL[i]);
        i += 1;
    }
    modes
};

impl Choice for Mode {
    const WHAT: &'static str = "algorithm";
    const NAMES: &'static [&'static str] = &MODE_NAMES;
    fn name(self) -> &'static str {
        Mode::name(self)
    }
}

impl FromStr for Mode {
    type Err = UnknownChoice;
    fn from_str(s: &str) -> Result<Self, UnknownChoice> {
        parse_choice(s, Self::WHAT, Self::NAMES, Self::ALL)
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// [lmr] Base reductions by depth and move number: (base + ln d · ln m / divisor), from the
/// `Lmr` parameters (hundredths), computed once per setting rather than per node.
pub struct LmrTable(Vec<[i32; 64]>);

impl LmrTable {
    pub fn new(lmr: &Lmr) -> Self {
        let base = lmr.base as f64 / 100.0;
        let div = (lmr.divisor as f64 / 100.0).max(0.1);
        LmrTable(
            (0..=MAX_DEPTH as usize)
                .map(|d| {
                    let mut row = [0i32; 64];
                    for (m, r) in row.iter_mut().enumerate() {
                        if d > 0 && m > 0 {
                            *r = (base + (d as f64).ln() * (m as f64).ln() / div) as i32;
                        }
                    }
                    row
                })
                .collect(),
        )
    }

    #[inline]
    pub fn get(&self, depth: i32, searched: i32) -> i32 {
        self.0[depth.min(MAX_DEPTH) as usize][(searched as usize).min(63)]
    }
}

impl SearchConfig {
    /// Every selective technique off: with this the search is a plain full-width alpha-beta
    /// (still with TT, ordering and qsearch unless those are switched off too).
    pub fn without_selectivity(mut self) -> Self {
        self.nmp.enabled = false;
        self.rfp.enabled = false;
        self.futility.enabled = false;
        self.lmp.enabled = false;
        self.lmr.enabled = false;
        self.qsee.enabled = false;
        self.se.enabled = false;
        self.sppf.enabled = false;
        self.seeprune.enabled = false;
        // History pruning and the ProbCut family are on by default or in the lab's
        // variants; at the small depths of the minimax test they rarely fire, which is not
        // the same as being off.
        self.histprune.enabled = false;
        self.sfpc.enabled = false;
        self.probcut.enabled = false;
        self.mpc.enabled = false;
        self.razor.enabled = false;
        self.qdelta.enabled = false;
        // Not selective, but it changes the leaves' values away from the evaluation's.
        self.corrhist.enabled = false;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::types::Kind;

    /// Setting every option to its declared default leaves the defaults as they were: the
    /// declaration and the setter read the same fields and scales.
    #[test]
    fn declared_defaults_are_the_config_defaults() {
        let mut cfg = SearchConfig::default();
        for s in SearchConfig::option_specs() {
            let text = match s.kind {
                Kind::Check(d) => d.to_string(),
                Kind::Spin { default, .. } => default.to_string(),
                Kind::Combo { default, .. } | Kind::Text(default) => default.to_string(),
                Kind::Button => continue,
            };
            assert_eq!(cfg.set_option(s.name, Some(&text)), Ok(true), "{}", s.name);
        }
        assert_eq!(cfg, SearchConfig::default());
    }

    #[test]
    fn the_setter_reaches_each_field_and_refuses_bad_values() {
        let mut cfg = SearchConfig::default();
        assert_eq!(cfg.set_option("nmpreduction", Some("5")), Ok(true));
        assert_eq!(cfg.nmp.reduction, 5);
        assert_eq!(cfg.set_option("NMP", Some("false")), Ok(true));
        assert!(!cfg.nmp.enabled);
        assert_eq!(cfg.set_option("SfpcDepthRule", Some("dynamic")), Ok(true));
        assert_eq!(cfg.sfpc.depth_rule, DepthRule::Dynamic);
        assert_eq!(cfg.set_option("Hash", Some("5")), Ok(false));
        let before = cfg.clone();
        for (name, value) in [
            ("NmpReduction", Some("11")),
            ("Nmp", Some("perhaps")),
            ("SfpcDepthRule", Some("sideways")),
            ("LmrBase", None),
            ("ProbCutParams", Some("/nonexistent/params.toml")),
        ] {
            let e = cfg.set_option(name, value).unwrap_err();
            assert!(e.to_string().ends_with("previous value kept"), "{e}");
        }
        assert_eq!(cfg, before);
    }

    /// [timeman] Its options round-trip through the setter and refuse values outside their
    /// ranges, keeping the previous value.
    #[test]
    fn timeman_options_round_trip_and_refuse_out_of_range_values() {
        let mut cfg = SearchConfig::default();
        assert!(cfg.timeman.enabled, "on since its timed SPRT passed");
        assert_eq!(cfg.set_option("timeman", Some("false")), Ok(true));
        assert!(!cfg.timeman.enabled);
        for (name, value) in [
            ("TimeMan", "true"),
            ("TimeManStableFloor", "55"),
            ("timemanscaleMAX", "300"),
            ("TimeManNodePivot", "0"),
            ("TimeManScoreLag", "8"),
        ] {
            assert_eq!(cfg.set_option(name, Some(value)), Ok(true), "{name}");
        }
        let tm = &cfg.timeman;
        assert!(tm.enabled);
        assert_eq!(
            (tm.stable_floor, tm.scale_max, tm.node_pivot, tm.score_lag),
            (55, 300, 0, 8)
        );
        let before = cfg.clone();
        for (name, value) in [
            ("TimeManStableFloor", "5"),
            ("TimeManScaleMax", "99"),
            ("TimeManScaleMin", "101"),
            ("TimeManScoreLag", "0"),
            ("TimeManNodePivot", "-1"),
            ("TimeMan", "maybe"),
        ] {
            let e = cfg.set_option(name, Some(value)).unwrap_err();
            assert!(e.to_string().ends_with("previous value kept"), "{e}");
        }
        assert_eq!(cfg, before);
    }

    #[test]
    fn every_technique_has_a_distinct_tag() {
        let mut tags: Vec<&str> = Technique::ALL.iter().map(|t| t.tag()).collect();
        tags.sort_unstable();
        tags.dedup();
        assert_eq!(tags.len(), Technique::COUNT);
    }

    #[test]
    fn mode_names_are_engine_then_the_textbook_algorithms() {
        assert_eq!(Mode::NAMES[0], "engine");
        assert_eq!(&Mode::NAMES[1..], Algorithm::NAMES);
        for &m in Mode::ALL {
            assert_eq!(m.name().parse::<Mode>(), Ok(m));
        }
        assert_eq!("MTDF".parse::<Mode>(), Ok(Mode::Textbook(Algorithm::Mtdf)));
        let e = "mtd(f)".parse::<Mode>().unwrap_err();
        assert!(e.to_string().contains("unknown algorithm 'mtd(f)'"), "{e}");
    }
}
