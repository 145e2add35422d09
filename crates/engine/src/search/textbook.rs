//! The textbook algorithms of the SPP thesis (sections 2-3), each selectable by name, run to a
//! fixed depth with the thesis's conventions so their trees are comparable: leaves evaluated
//! statically (quiescence switchable), one static move ordering shared by all (captures,
//! promotions, and at the last ply checks, first), terminal positions scored as mate/draw.
//! NBP counts leaf evaluations, NC every node entered.

use crate::eval::{self, classic, EvalKind};
use crate::position::Position;
use crate::search::moves::{captured_piece, gives_check, is_castle, SEE_VALUE};
use crate::search::score::{INF, MATE};
use crate::search::tt::{Bound, TranspositionTable, TtError};
use cozy_chess::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use thiserror::Error;

crate::options::types::choice! {
    /// The fixed-depth textbook algorithms (the team runs them in textbook mode, `Mode`).
    pub enum Algorithm("algorithm") {
        Minimax = "minimax",
        AlphaBeta = "alphabeta",
        AlphaBetaSoft = "alphabeta-soft",
        Abt = "abt",
        Pvs = "pvs",
        Aspiration = "aspiration",
        Mtdf = "mtdf",
        Sss = "sss",
        Spp = "spp",
        Sppt = "sppt",
        SppExact = "spp-exact",
        SpptExact = "sppt-exact",
        SppDyn = "spp-dyn",
        SpptAuto = "sppt-auto",
    }
}

impl Algorithm {
    fn uses_tt(self) -> bool {
        matches!(
            self,
            Algorithm::Abt
                | Algorithm::Aspiration
                | Algorithm::Mtdf
                | Algorithm::Sss
                | Algorithm::Sppt
                | Algorithm::SpptExact
                | Algorithm::SpptAuto
        )
    }

    fn spp(self) -> Option<SppBound> {
        match self {
            Algorithm::Spp | Algorithm::Sppt | Algorithm::SpptAuto => Some(SppBound::FixedMpd),
            Algorithm::SppDyn => Some(SppBound::Dynamic),
            Algorithm::SppExact | Algorithm::SpptExact => Some(SppBound::Exact),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SppBound {
    /// The thesis: a fixed maximum positional difference between quiet siblings.
    FixedMpd,
    /// Sound: per node, the most one quiet move can raise the classic evaluation.
    Exact,
    /// [spp] `spp-dyn`: a per-node MPD from `TextbookConfig::mpd_rule`.
    Dynamic,
}

/// [spp] How `spp-dyn` sets a depth-1 node's MPD. The thesis's future work asks whether the MPD
/// depends on the material (MPD = a·material + b) and whether it can be estimated per node by a
/// shallow measurement, as ProbCut estimates its cut bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MpdRule {
    /// The fixed `mpd` of the configuration (spp-dyn is then exactly spp).
    Fixed,
    /// `a · material + b`, the material of both sides (kings excluded) in pawns by the classic
    /// table (`classic::material_total / 100`); never below 0.
    Material { a: f64, b: f64 },
    /// From the node's own siblings: once `k` quiet siblings are searched, `factor` times the
    /// spread (max - min) of the quiet siblings searched so far, at least `floor`. Before `k`
    /// siblings nothing is pruned. A draw-scored sibling widens the spread, so it stops the
    /// pruning that the fixed MPD gets wrong there.
    Siblings { k: u32, factor: f64, floor: i32 },
}

#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error(
    "bad MPD rule '{0}': use fixed, material:A,B (MPD = A*pawns of material + B) or \
     siblings:K,FACTOR,FLOOR (K >= 1 siblings searched, FACTOR >= 0, FLOOR >= 0)"
)]
pub struct MpdRuleError(pub String);

impl std::str::FromStr for MpdRule {
    type Err = MpdRuleError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || MpdRuleError(text.to_string());
        let (name, args) = text.trim().split_once(':').unwrap_or((text.trim(), ""));
        let nums: Vec<&str> = args.split(',').map(str::trim).collect();
        let f = |i: usize| -> Result<f64, MpdRuleError> {
            let v: f64 = nums.get(i).ok_or_else(bad)?.parse().map_err(|_| bad())?;
            v.is_finite().then_some(v).ok_or_else(bad)
        };
        match (name.to_ascii_lowercase().as_str(), nums.len()) {
            ("fixed", 1) if args.is_empty() => Ok(MpdRule::Fixed),
            ("material", 2) => Ok(MpdRule::Material { a: f(0)?, b: f(1)? }),
            ("siblings", 3) => {
                let (k, factor, floor) = (f(0)?, f(1)?, f(2)?);
                if k < 1.0 || k.fract() != 0.0 || k > 1000.0 || factor < 0.0 || floor < 0.0 {
                    return Err(bad());
                }
                Ok(MpdRule::Siblings {
                    k: k as u32,
                    factor,
                    floor: floor.min(100_000.0) as i32,
                })
            }
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for MpdRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MpdRule::Fixed => write!(f, "fixed"),
            MpdRule::Material { a, b } => write!(f, "material:{a},{b}"),
            MpdRule::Siblings { k, factor, floor } => write!(f, "siblings:{k},{factor},{floor}"),
        }
    }
}

/// [spp] When `sppt-auto` stops trying SPP: after each `window` depth-1 nodes that met quiet
/// siblings, if under `below_pct` percent of those siblings were pruned, SPP is off for the
/// rest of the search (it is then ABT). 0 never switches off.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwitchOff {
    pub below_pct: f64,
    pub window: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TextbookConfig {
    pub eval: EvalKind,
    /// The network `eval` = `nnue` evaluates with.
    pub network: std::sync::Arc<crate::eval::nnue::Network>,
    /// [kingsafety] The `KingSafety` percent `eval` = `hce` scales its king-safety terms by.
    pub king_safety: i32,
    pub qsearch: bool,
    /// [spp] The maximum positional difference used by `spp`/`sppt`.
    pub mpd: i32,
    /// [spp] `spp-dyn`'s per-node MPD.
    pub mpd_rule: MpdRule,
    /// [spp] `sppt-auto`'s switch-off rule.
    pub switch_off: SwitchOff,
    pub aspiration_window: i32,
    pub tt_mib: usize,
    /// [spp] Record every depth-1 node's quiet siblings (`TextbookResult::siblings`): the SPP
    /// thesis measured the MPD on the siblings met in the search, not only in game positions.
    pub log_siblings: bool,
}

impl Default for TextbookConfig {
    fn default() -> Self {
        TextbookConfig {
            eval: EvalKind::Classic,
            network: crate::eval::nnue::default_network(),
            king_safety: crate::eval::tapered::KING_SAFETY_AS_TUNED,
            qsearch: false,
            mpd: 70,
            mpd_rule: MpdRule::Fixed,
            switch_off: SwitchOff {
                below_pct: 10.0,
                window: 256,
            },
            aspiration_window: 50,
            tt_mib: 32,
            log_siblings: false,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextbookResult {
    pub best: Option<Move>,
    pub score: i32,
    /// NBP: leaf evaluations (the thesis's node bottom positions).
    pub leaves: u64,
    /// NC: nodes entered, interior and leaf.
    pub nodes: u64,
    /// [spp] Depth-1 nodes where SPP cut the remaining siblings, and siblings so pruned.
    pub spp_cuts: u64,
    pub spp_pruned: u64,
    /// [spp] `sppt-auto`: the depth-1 nodes measured before SPP switched itself off (None: it
    /// stayed on).
    pub spp_off_after: Option<u64>,
    /// Stopped before completing; score and move are then not the algorithm's answer.
    pub aborted: bool,
    /// [spp] With `log_siblings`: one record per depth-1 node with two or more quiet
    /// siblings searched.
    pub siblings: Vec<SiblingLog>,
}

/// [spp] The quiet siblings (no capture, promotion, check or castling) a depth-1 node searched,
/// with the values the search gave them, from the mover's point of view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SiblingLog {
    /// Siblings searched.
    pub count: u32,
    /// max - min of their values: what SPP's MPD must bound.
    pub spread: i32,
    /// The same over the siblings the draw rules did not score (their evaluations only).
    pub eval_spread: Option<i32>,
    /// Siblings scored by a rule (fifty moves, repetition, stalemate) rather than evaluated.
    pub rule_scored: u32,
    /// The node (FEN), and the first rule-scored sibling's move (UCI) and value, to show.
    pub fen: String,
    pub rule_move: Option<(String, i32)>,
    /// The best and worst sibling (UCI move, value).
    pub best: (String, i32),
    pub worst: (String, i32),
}

#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum TextbookError {
    #[error(
        "{0} needs the classic evaluation (its bound is derived from that evaluation's terms)"
    )]
    NeedsClassicEval(Algorithm),
    #[error(transparent)]
    Table(#[from] TtError),
}

/// Runs `algorithm` to `depth` plies from `pos`, on a fresh table of `cfg.tt_mib` MiB for the
/// algorithms that use one.
pub fn run(
    pos: &Position,
    algorithm: Algorithm,
    depth: i32,
    cfg: &TextbookConfig,
) -> Result<TextbookResult, TextbookError> {
    let table = match algorithm.uses_tt() {
        true => Some(TranspositionTable::new(cfg.tt_mib)?),
        false => None,
    };
    search(pos, algorithm, depth, cfg, table.as_ref(), None)
}

/// As `run`, on `table` (the caller clears it), abandoning the search when `stop` is raised
/// (the result is then marked aborted).
pub fn run_on(
    pos: &Position,
    algorithm: Algorithm,
    depth: i32,
    cfg: &TextbookConfig,
    table: &TranspositionTable,
    stop: Option<&AtomicBool>,
) -> Result<TextbookResult, TextbookError> {
    let table = algorithm.uses_tt().then_some(table);
    search(pos, algorithm, depth, cfg, table, stop)
}

fn search(
    pos: &Position,
    algorithm: Algorithm,
    depth: i32,
    cfg: &TextbookConfig,
    tt: Option<&TranspositionTable>,
    stop: Option<&AtomicBool>,
) -> Result<TextbookResult, TextbookError> {
    if algorithm.spp() == Some(SppBound::Exact) && cfg.eval != EvalKind::Classic {
        return Err(TextbookError::NeedsClassicEval(algorithm));
    }
    let depth = depth.max(1);
    let mut t = Tree {
        pos: pos.clone(),
        root_ply: pos.ply_count(),
        cfg: cfg.clone(),
        tt,
        spp: algorithm.spp(),
        auto: (algorithm == Algorithm::SpptAuto).then_some(cfg.switch_off),
        watch: SppWatch::default(),
        result: TextbookResult::default(),
        root_best: None,
        stop,
    };
    // [nnue] As in the engine search: incremental accumulators on the tree's position.
    if cfg.eval == EvalKind::Nnue {
        t.pos.attach_nnue(cfg.network.clone());
    }
    let score = match algorithm {
        Algorithm::Minimax => t.root(depth, -INF, INF, Kind::Minimax),
        // SPP runs on the same fail-hard alpha-beta as its baseline: while the MPD holds, each
        // depth-1 node then returns exactly what alpha-beta returns, so SPP's tree is a subtree
        // of alpha-beta's. (The thesis's fail-soft `return best` passes looser bounds up, which
        // can cost cutoffs elsewhere.) SPPT keeps ABT's fail-soft search, its baseline.
        Algorithm::AlphaBeta | Algorithm::Spp | Algorithm::SppExact | Algorithm::SppDyn => {
            t.root(depth, -INF, INF, Kind::FailHard)
        }
        Algorithm::AlphaBetaSoft
        | Algorithm::Abt
        | Algorithm::Sppt
        | Algorithm::SpptExact
        | Algorithm::SpptAuto => t.root(depth, -INF, INF, Kind::FailSoft),
        Algorithm::Pvs => t.root(depth, -INF, INF, Kind::Pvs),
        Algorithm::Aspiration => {
            let mut guess = 0;
            for d in 1..=depth {
                guess = t.aspiration(d, guess);
            }
            guess
        }
        Algorithm::Mtdf => {
            let mut guess = 0;
            for d in 1..=depth {
                guess = t.mtdf(d, guess);
            }
            guess
        }
        Algorithm::Sss => t.sss(depth),
    };
    t.result.score = score;
    t.result.best = t.root_best;
    Ok(t.result)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Minimax,
    FailHard,
    FailSoft,
    Pvs,
}

struct Tree<'a> {
    stop: Option<&'a AtomicBool>,
    pos: Position,
    root_ply: usize,
    cfg: TextbookConfig,
    tt: Option<&'a TranspositionTable>,
    spp: Option<SppBound>,
    /// [spp] `sppt-auto`'s rule and what it has seen.
    auto: Option<SwitchOff>,
    watch: SppWatch,
    result: TextbookResult,
    root_best: Option<Move>,
}

/// [spp] `sppt-auto`'s running window: depth-1 nodes that met quiet siblings, the quiet
/// siblings they met (searched or pruned), and how many of those were pruned.
#[derive(Default)]
struct SppWatch {
    off: bool,
    measured: u64,
    nodes: u32,
    quiets: u64,
    pruned: u64,
}

/// [spp] The values of a depth-1 node's quiet siblings searched so far (for `siblings:`).
#[derive(Clone, Copy)]
struct QuietSpread {
    count: u32,
    min: i32,
    max: i32,
}

/// MVV-LVA value of a capture or promotion, for the static ordering.
fn noisy_rank(pos: &Position, mv: Move) -> Option<i32> {
    let b = pos.board();
    let victim = captured_piece(b, mv).map(|p| SEE_VALUE[p as usize]);
    let promo = mv.promotion.map(|p| SEE_VALUE[p as usize]);
    if victim.is_none() && promo.is_none() {
        return None;
    }
    let attacker = b.piece_on(mv.from).map_or(0, |p| p as i32);
    Some(10 * (victim.unwrap_or(0) + promo.unwrap_or(0)) - attacker)
}

impl Tree<'_> {
    /// The shared static ordering: captures and promotions by MVV-LVA, then (at the last ply)
    /// checking moves, then the rest in generation order. A TT move, if any, goes first.
    /// Each entry says whether the move is active (capture, promotion or check at the last ply).
    fn ordered(&mut self, last_ply: bool, tt_move: Option<Move>) -> Vec<(Move, bool)> {
        let moves = self.pos.legal_moves();
        let mut noisy: Vec<(Move, i32)> = Vec::new();
        let mut checks = Vec::new();
        let mut quiet = Vec::new();
        for mv in moves {
            if let Some(r) = noisy_rank(&self.pos, mv) {
                noisy.push((mv, r));
            } else if last_ply && gives_check(self.pos.board(), mv) {
                checks.push(mv);
            } else {
                quiet.push(mv);
            }
        }
        noisy.sort_by_key(|&(_, r)| -r); // stable: ties keep generation order
        let mut out: Vec<(Move, bool)> =
            Vec::with_capacity(noisy.len() + checks.len() + quiet.len());
        out.extend(noisy.into_iter().map(|(m, _)| (m, true)));
        out.extend(checks.into_iter().map(|m| (m, true)));
        out.extend(quiet.into_iter().map(|m| (m, false)));
        if let Some(t) = tt_move {
            if let Some(i) = out.iter().position(|&(m, _)| m == t) {
                let e = out.remove(i);
                out.insert(0, e);
            }
        }
        out
    }

    fn ply(&self) -> usize {
        self.pos.ply_count() - self.root_ply
    }

    /// Score of a terminal position (mate, stalemate, draw by rule) or None.
    fn terminal(&self) -> Option<i32> {
        let ply = self.ply();
        if ply > 0 && self.pos.is_draw(self.root_ply) {
            return Some(0);
        }
        if !self.pos.has_legal_move() {
            return Some(if self.pos.in_check() {
                -MATE + ply as i32
            } else {
                0
            });
        }
        None
    }

    /// A leaf: terminal score or static evaluation (or quiescence if enabled). Counted as NBP.
    fn leaf(&mut self, alpha: i32, beta: i32) -> i32 {
        if let Some(t) = self.terminal() {
            self.result.leaves += 1;
            return t;
        }
        if self.cfg.qsearch {
            return self.quiesce(alpha, beta);
        }
        self.result.leaves += 1;
        eval::evaluate(
            &self.pos,
            self.cfg.eval,
            &self.cfg.network,
            self.cfg.king_safety,
        )
    }

    /// Captures-only quiescence, stand pat on the static evaluation; every stand pat is a leaf.
    fn quiesce(&mut self, mut alpha: i32, beta: i32) -> i32 {
        self.result.leaves += 1;
        let stand = eval::evaluate(
            &self.pos,
            self.cfg.eval,
            &self.cfg.network,
            self.cfg.king_safety,
        );
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut caps: Vec<(Move, i32)> = self
            .pos
            .legal_moves()
            .into_iter()
            .filter_map(|m| noisy_rank(&self.pos, m).map(|r| (m, r)))
            .collect();
        caps.sort_by_key(|&(_, r)| -r);
        for (mv, _) in caps {
            self.result.nodes += 1;
            self.pos.make(mv);
            let v = -self.quiesce(-beta, -alpha);
            self.pos.unmake();
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    fn probe(&self, depth: i32, alpha: i32, beta: i32) -> (Option<i32>, Option<Move>) {
        let Some(tt) = self.tt else {
            return (None, None);
        };
        let Some(e) = tt.probe(self.pos.hash(), self.ply()) else {
            return (None, None);
        };
        let hit = (e.depth >= depth).then(|| e.cutoff(alpha, beta)).flatten();
        (hit, e.mv)
    }

    fn store(&self, depth: i32, best: i32, alpha0: i32, beta: i32, mv: Option<Move>) {
        let Some(tt) = self.tt else { return };
        tt.store(
            self.pos.hash(),
            self.ply(),
            mv,
            best,
            0,
            depth,
            Bound::classify(best, alpha0, beta),
        );
    }

    /// The root: like an interior node but remembers the best move.
    fn root(&mut self, depth: i32, alpha: i32, beta: i32, kind: Kind) -> i32 {
        self.node(depth, alpha, beta, kind, true)
    }

    /// One negamax node of the chosen kind. Minimax ignores the window; fail-hard returns
    /// values clamped to it; fail-soft and PVS return the best value found.
    fn node(&mut self, depth: i32, mut alpha: i32, beta: i32, kind: Kind, is_root: bool) -> i32 {
        self.result.nodes += 1;
        if self.result.aborted
            || (self.result.nodes & 4095 == 0
                && self.stop.is_some_and(|s| s.load(Ordering::Relaxed)))
        {
            self.result.aborted = true;
            return 0;
        }
        if depth <= 0 {
            return self.leaf(alpha, beta);
        }
        if !is_root {
            if let Some(t) = self.terminal() {
                self.result.leaves += 1;
                return t;
            }
        }
        let alpha0 = alpha;
        let (hit, tt_move) = self.probe(depth, alpha, beta);
        if let (Some(s), false) = (hit, is_root) {
            return s;
        }
        let moves = self.ordered(depth == 1, tt_move);
        if moves.is_empty() {
            // Only reachable at the root (interior terminals return above).
            self.result.leaves += 1;
            return if self.pos.in_check() { -MATE } else { 0 };
        }
        // [spp] SPP works at depth-1 nodes (`sppt-auto` stops once it has switched itself off).
        let spp_live = depth == 1 && self.spp.is_some() && !self.watch.off;
        let spp_ceiling = if spp_live { self.spp_ceiling() } else { None };
        let material_mpd = if spp_live { self.material_mpd() } else { None };
        let mut spread = QuietSpread {
            count: 0,
            min: INF,
            max: -INF,
        };
        let pruned_before = self.result.spp_pruned;
        let mut best = -INF;
        let mut best_move = None;
        let mut skipping_quiets = false;
        // The most a pruned sibling could have scored: part of this node's (upper) bound.
        let mut pruned_below = -INF;
        // [spp] (value, scored by a rule) of each quiet sibling searched, when logging.
        let mut log: Vec<(Move, i32, bool)> = Vec::new();
        for (i, &(mv, active)) in moves.iter().enumerate() {
            if skipping_quiets
                && !active
                && !is_castle(self.pos.board(), mv)
                && !self.child_is_terminal(mv)
            {
                self.result.spp_pruned += 1;
                continue;
            }
            let logged =
                self.cfg.log_siblings && depth == 1 && !active && !is_castle(self.pos.board(), mv);
            self.pos.make(mv);
            let rule_scored = logged && self.terminal().is_some();
            let value = match kind {
                Kind::Minimax => -self.node(depth - 1, -INF, INF, kind, false),
                Kind::Pvs if i > 0 => {
                    let v = -self.node(depth - 1, -alpha - 1, -alpha, kind, false);
                    if v > alpha && v < beta {
                        -self.node(depth - 1, -beta, -alpha, kind, false)
                    } else {
                        v
                    }
                }
                _ => -self.node(depth - 1, -beta, -alpha, kind, false),
            };
            self.pos.unmake();
            if self.result.aborted {
                return 0;
            }
            if logged {
                log.push((mv, value, rule_scored));
            }
            if spp_live && !active {
                spread.count += 1;
                spread.min = spread.min.min(value);
                spread.max = spread.max.max(value);
            }
            if value > best {
                best = value;
                best_move = Some(mv);
            } else if depth == 1 && !active {
                // [spp] Sibling prediction pruning: a quiet sibling that did not improve best
                // predicts its remaining quiet siblings, which differ from it by at most the MPD.
                let prune = if skipping_quiets || !spp_live {
                    None
                } else {
                    let mpd = self.node_mpd(material_mpd, &spread);
                    self.spp_prune(best, alpha, value, spp_ceiling, mpd)
                };
                if let Some(ceiling) = prune {
                    self.result.spp_cuts += 1;
                    pruned_below = pruned_below.max(ceiling);
                    if self.spp == Some(SppBound::Exact) {
                        // The exact bound does not cover castling (two men move): keep those.
                        skipping_quiets = true;
                    } else {
                        self.result.spp_pruned += (moves.len() - i - 1) as u64;
                        break;
                    }
                }
            }
            if kind == Kind::Minimax {
                continue;
            }
            if best > alpha {
                alpha = best;
            }
            if best >= beta {
                break;
            }
        }
        // The thesis returns `best`; after a prune through `alpha > value + MPD` that is a
        // fail-low whose pruned siblings may reach value + MPD, so the honest upper bound is
        // the larger of the two (it matters for fail-soft parents and for the TT).
        best = best.max(pruned_below);
        if spp_live && self.auto.is_some() {
            let pruned = self.result.spp_pruned - pruned_before;
            self.watch_node(u64::from(spread.count) + pruned, pruned);
        }
        if log.len() >= 2 {
            self.log_siblings(&log);
        }
        if is_root && !self.result.aborted {
            self.root_best = best_move;
        }
        let result = if kind == Kind::FailHard {
            best.clamp(alpha0, beta)
        } else {
            best
        };
        if kind != Kind::Minimax {
            self.store(depth, best, alpha0, beta, best_move);
        }
        result
    }

    fn log_siblings(&mut self, log: &[(Move, i32, bool)]) {
        let spread = |v: &[i32]| Some(v.iter().max()? - v.iter().min()?);
        let values: Vec<i32> = log.iter().map(|e| e.1).collect();
        let evaluated: Vec<i32> = log.iter().filter(|e| !e.2).map(|e| e.1).collect();
        let uci = |e: &(Move, i32, bool)| (self.pos.uci(e.0), e.1);
        let best = log.iter().max_by_key(|e| e.1).map(uci).unwrap_or_default();
        let worst = log.iter().min_by_key(|e| e.1).map(uci).unwrap_or_default();
        let entry = SiblingLog {
            count: log.len() as u32,
            spread: spread(&values).unwrap_or(0),
            eval_spread: (evaluated.len() >= 2).then(|| spread(&evaluated)).flatten(),
            rule_scored: log.iter().filter(|e| e.2).count() as u32,
            fen: self.pos.fen(),
            rule_move: log.iter().find(|e| e.2).map(uci),
            best,
            worst,
        };
        self.result.siblings.push(entry);
    }

    /// [spp] For `spp-exact`: whether `mv` leads to a position the draw rules score (fifty
    /// moves, repetition, stalemate, or mate). Such a sibling's value is not the evaluation plus
    /// a bounded positional change (a draw is 0 however far behind the mover is), so the exact
    /// bound does not cover it and it is searched, never pruned. Only the rules are checked
    /// here; nothing is evaluated, so this costs no NBP.
    fn child_is_terminal(&mut self, mv: Move) -> bool {
        self.pos.make(mv);
        let terminal = self.terminal().is_some();
        self.pos.unmake();
        terminal
    }

    /// For `spp-exact`: the highest value any quiet move can reach at this depth-1 node.
    fn spp_ceiling(&mut self) -> Option<i32> {
        if self.spp != Some(SppBound::Exact) {
            return None;
        }
        let here = classic::evaluate_white(self.pos.board());
        let mover = if self.pos.side() == cozy_chess::Color::White {
            here
        } else {
            -here
        };
        Some(mover + classic::quiet_gain_bound(self.pos.board()))
    }

    /// [spp] `spp-dyn` with `material:`: this node's MPD from the material on the board.
    fn material_mpd(&self) -> Option<i32> {
        if self.spp != Some(SppBound::Dynamic) {
            return None;
        }
        let MpdRule::Material { a, b } = self.cfg.mpd_rule else {
            return None;
        };
        let pawns = f64::from(classic::material_total(self.pos.board())) / 100.0;
        Some((a * pawns + b).round().clamp(0.0, 1e7) as i32)
    }

    /// [spp] The MPD at this depth-1 node: fixed, from the material, or from the spread of the
    /// quiet siblings searched so far (`None`: not enough of them yet, prune nothing).
    fn node_mpd(&self, material: Option<i32>, spread: &QuietSpread) -> Option<i32> {
        match (self.spp?, self.cfg.mpd_rule) {
            (SppBound::FixedMpd, _) | (SppBound::Dynamic, MpdRule::Fixed) => Some(self.cfg.mpd),
            (SppBound::Dynamic, MpdRule::Material { .. }) => material,
            (SppBound::Dynamic, MpdRule::Siblings { k, factor, floor }) => {
                if spread.count < k.max(1) {
                    return None;
                }
                let est = (factor * f64::from(spread.max - spread.min)).ceil();
                Some((est.min(1e7) as i32).max(floor))
            }
            (SppBound::Exact, _) => None,
        }
    }

    /// [spp] `sppt-auto`: one depth-1 node met `quiets` quiet siblings and pruned `pruned` of
    /// them. At the end of each window, SPP switches off for good if it pruned too few.
    fn watch_node(&mut self, quiets: u64, pruned: u64) {
        let Some(rule) = self.auto else { return };
        if quiets == 0 {
            return;
        }
        let w = &mut self.watch;
        w.measured += 1;
        w.nodes += 1;
        w.quiets += quiets;
        w.pruned += pruned;
        if w.nodes >= rule.window.max(1) {
            if 100.0 * (w.pruned as f64) < rule.below_pct * (w.quiets as f64) {
                w.off = true;
                self.result.spp_off_after = Some(w.measured);
            }
            w.nodes = 0;
            w.quiets = 0;
            w.pruned = 0;
        }
    }

    /// If the remaining quiet siblings can be skipped, the most any of them can score;
    /// `None` when they cannot (or SPP is off).
    fn spp_prune(
        &self,
        best: i32,
        alpha: i32,
        value: i32,
        ceiling: Option<i32>,
        mpd: Option<i32>,
    ) -> Option<i32> {
        let c = match self.spp? {
            SppBound::FixedMpd | SppBound::Dynamic => value.saturating_add(mpd?),
            SppBound::Exact => ceiling?,
        };
        let prune = match self.spp? {
            SppBound::FixedMpd | SppBound::Dynamic => best > c || alpha > c,
            SppBound::Exact => best >= c || alpha >= c,
        };
        prune.then_some(c)
    }

    /// [aspiration] One iteration with a window around the previous score (fail-soft + TT).
    fn aspiration(&mut self, depth: i32, guess: i32) -> i32 {
        let w = self.cfg.aspiration_window.max(1);
        let (alpha, beta) = (guess - w, guess + w);
        let v = self.root(depth, alpha, beta, Kind::FailSoft);
        if v <= alpha {
            self.root(depth, -INF, v + 1, Kind::FailSoft).min(v)
        } else if v >= beta {
            self.root(depth, v - 1, INF, Kind::FailSoft).max(v)
        } else {
            v
        }
    }

    /// [mtdf] MTD(f): a sequence of null-window searches converging on the minimax value,
    /// starting from a first guess; the TT makes the repeated searches cheap.
    fn mtdf(&mut self, depth: i32, first: i32) -> i32 {
        let (mut lower, mut upper) = (-INF, INF);
        let mut g = first;
        let mut proven = None;
        while lower < upper {
            let beta = g.max(lower + 1);
            g = self.root(depth, beta - 1, beta, Kind::FailSoft);
            if g < beta {
                upper = g;
            } else {
                lower = g;
                proven = self.root_best;
            }
        }
        self.root_best = proven.or(self.root_best);
        g
    }

    /// [sss] SSS* as alpha-beta + TT: null-window searches from +infinity downwards, each
    /// returning a tighter upper bound, until a search proves its bound.
    fn sss(&mut self, depth: i32) -> i32 {
        let mut g = INF;
        loop {
            let gamma = g;
            g = self.root(depth, gamma - 1, gamma, Kind::FailSoft);
            if g >= gamma || g <= -INF {
                return g;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POSITIONS: [&str; 5] = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/8/4k3/8/3K4/3P4/8/8 w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    ];

    fn score(fen: &str, a: Algorithm, d: i32) -> TextbookResult {
        let pos = Position::from_fen(fen, false).unwrap();
        run(&pos, a, d, &TextbookConfig::default()).unwrap()
    }

    #[test]
    fn all_exact_algorithms_agree_with_minimax() {
        for fen in POSITIONS {
            for d in 1..=3 {
                let mm = score(fen, Algorithm::Minimax, d);
                for a in [
                    Algorithm::AlphaBeta,
                    Algorithm::AlphaBetaSoft,
                    Algorithm::Abt,
                    Algorithm::Pvs,
                    Algorithm::Aspiration,
                    Algorithm::Mtdf,
                    Algorithm::Sss,
                    Algorithm::SppExact,
                    Algorithm::SpptExact,
                ] {
                    let r = score(fen, a, d);
                    assert_eq!(r.score, mm.score, "{a} depth {d} {fen}");
                }
                let ab = score(fen, Algorithm::AlphaBeta, d);
                assert!(ab.leaves <= mm.leaves);
            }
        }
    }

    #[test]
    fn spp_matches_alphabeta_move_and_score_with_fewer_leaves() {
        for fen in POSITIONS {
            for d in 3..=4 {
                let ab = score(fen, Algorithm::AlphaBeta, d);
                let spp = score(fen, Algorithm::Spp, d);
                assert_eq!(
                    (spp.best, spp.score),
                    (ab.best, ab.score),
                    "depth {d} {fen}"
                );
                assert!(spp.leaves <= ab.leaves, "depth {d} {fen}");
                let exact = score(fen, Algorithm::SppExact, d);
                assert_eq!(
                    (exact.best, exact.score),
                    (ab.best, ab.score),
                    "exact depth {d} {fen}"
                );
            }
        }
    }

    /// [spp] Regressions: positions where `spp-exact` returned another move and score than
    /// alpha-beta at depth 1 before draw-scored siblings were exempt from its bound. Each side
    /// to move is far behind; alpha-beta finds the draw (a threefold repetition, a stalemate).
    #[test]
    fn spp_exact_never_prunes_a_draw_scored_sibling() {
        let cases: [(&str, &str, &str); 2] = [
            (
                "3q4/2p1b1kp/8/Rp2P3/1PP2r2/8/1P5P/6BK w - - 3 5",
                "g1b6 f4e4 b6g1 e4f4 g1b6 f4e4 b6g1 e4f4",
                "g1b6", // repeats the position a third time; spp-exact played a5b5 (-713)
            ),
            (
                "8/8/5p2/5P2/5P2/5k1p/7P/7K b - - 0 60",
                "",
                "f3f2", // stalemates White; spp-exact played f3f4 (-2)
            ),
        ];
        for (fen, moves, best) in cases {
            let mut pos = Position::from_fen(fen, false).unwrap();
            for m in moves.split_whitespace() {
                pos.play_uci(m).unwrap();
            }
            let cfg = TextbookConfig::default();
            for (exact, base) in [
                (Algorithm::SppExact, Algorithm::AlphaBeta),
                (Algorithm::SpptExact, Algorithm::Abt),
            ] {
                let a = run(&pos, base, 1, &cfg).unwrap();
                let e = run(&pos, exact, 1, &cfg).unwrap();
                assert_eq!(
                    (a.best.unwrap().to_string(), a.score),
                    (best.to_string(), 0)
                );
                assert_eq!((e.best, e.score), (a.best, a.score), "{exact} {fen}");
                assert!(e.spp_cuts > 0, "the case must exercise the pruning: {fen}");
            }
        }
    }

    fn run_with(fen: &str, a: Algorithm, d: i32, cfg: &TextbookConfig) -> TextbookResult {
        let pos = Position::from_fen(fen, false).unwrap();
        run(&pos, a, d, cfg).unwrap()
    }

    /// [spp] spp-dyn with a rule that is a constant 70 is the fixed-MPD spp, count for count;
    /// an MPD too large to ever prune is alpha-beta; a smaller one prunes more.
    #[test]
    fn spp_dyn_with_a_constant_rule_is_spp() {
        let mut pruned_more = false;
        for fen in POSITIONS {
            for d in 2..=4 {
                let spp = score(fen, Algorithm::Spp, d);
                for rule in [
                    MpdRule::Fixed,
                    MpdRule::Material { a: 0.0, b: 70.0 },
                    MpdRule::Siblings {
                        k: 1,
                        factor: 0.0,
                        floor: 70,
                    },
                ] {
                    let cfg = TextbookConfig {
                        mpd_rule: rule,
                        ..TextbookConfig::default()
                    };
                    let dynamic = run_with(fen, Algorithm::SppDyn, d, &cfg);
                    assert_eq!(dynamic, spp, "{rule} depth {d} {fen}");
                }
                let never = TextbookConfig {
                    mpd_rule: MpdRule::Material { a: 0.0, b: 1e6 },
                    ..TextbookConfig::default()
                };
                let ab = score(fen, Algorithm::AlphaBeta, d);
                let r = run_with(fen, Algorithm::SppDyn, d, &never);
                assert_eq!((r.leaves, r.nodes, r.spp_cuts), (ab.leaves, ab.nodes, 0));
                let tight = TextbookConfig {
                    mpd_rule: MpdRule::Siblings {
                        k: 2,
                        factor: 0.5,
                        floor: 0,
                    },
                    ..TextbookConfig::default()
                };
                let r = run_with(fen, Algorithm::SppDyn, d, &tight);
                assert!(r.leaves <= ab.leaves, "depth {d} {fen}");
                pruned_more |= r.leaves < spp.leaves;
            }
        }
        assert!(pruned_more, "a tighter MPD must prune more somewhere");
    }

    /// [spp] sppt-auto with threshold 0 never switches off and is sppt; with 100% and a window
    /// of one node it switches off after the first depth-1 node that kept a quiet sibling, and
    /// then searches as ABT does (same move and score, at least sppt's leaves).
    #[test]
    fn sppt_auto_switches_off_by_its_threshold() {
        for fen in POSITIONS {
            for d in 2..=4 {
                let sppt = score(fen, Algorithm::Sppt, d);
                let abt = score(fen, Algorithm::Abt, d);
                let never = TextbookConfig {
                    switch_off: SwitchOff {
                        below_pct: 0.0,
                        window: 1,
                    },
                    ..TextbookConfig::default()
                };
                assert_eq!(run_with(fen, Algorithm::SpptAuto, d, &never), sppt);
                let at_once = TextbookConfig {
                    switch_off: SwitchOff {
                        below_pct: 100.0,
                        window: 1,
                    },
                    ..TextbookConfig::default()
                };
                let r = run_with(fen, Algorithm::SpptAuto, d, &at_once);
                assert_eq!((r.best, r.score), (abt.best, abt.score), "depth {d} {fen}");
                assert!(r.spp_cuts <= 1, "depth {d} {fen}");
                assert!(r.leaves >= sppt.leaves && r.leaves <= abt.leaves);
                if sppt.spp_pruned > 0 {
                    assert!(r.spp_off_after.is_some(), "depth {d} {fen}");
                }
            }
        }
    }

    #[test]
    fn mpd_rules_parse_and_bad_ones_are_reported() {
        for text in ["fixed", "material:0.5,40", "siblings:3,1.5,20"] {
            let rule: MpdRule = text.parse().unwrap();
            assert_eq!(rule.to_string(), text);
        }
        for bad in [
            "",
            "fixd",
            "fixed:1",
            "material:1",
            "material:a,b",
            "siblings:0,1,1",
            "siblings:2,-1,0",
            "siblings:2.5,1,0",
            "material:NaN,1",
        ] {
            let e = bad.parse::<MpdRule>().unwrap_err().to_string();
            assert!(e.contains("bad MPD rule"), "{bad}: {e}");
        }
    }

    #[test]
    fn mate_in_one_is_found_by_all() {
        let fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
        for a in [
            Algorithm::Minimax,
            Algorithm::AlphaBeta,
            Algorithm::Spp,
            Algorithm::Mtdf,
            Algorithm::Sss,
        ] {
            let r = score(fen, a, 3);
            assert_eq!(r.score, MATE - 1, "{a}");
            assert_eq!(r.best.unwrap().to_string(), "d1d8", "{a}");
        }
    }

    #[test]
    fn names_round_trip_and_unknown_names_are_reported() {
        for &a in Algorithm::ALL {
            assert_eq!(a.name().parse::<Algorithm>().unwrap(), a);
            assert_eq!(a.name().to_uppercase().parse::<Algorithm>().unwrap(), a);
        }
        let e = "alphabet".parse::<Algorithm>().unwrap_err();
        assert!(
            e.to_string().contains("unknown algorithm 'alphabet'"),
            "{e}"
        );
    }
}
