//! The node search: a principal variation search (negamax, alpha-beta, null windows after the
//! first move) with the selective techniques of `SearchConfig`. `negamax` reads as a table of
//! contents, one numbered step per block; each technique's block carries its `[tag]`.

use super::config::{History as HistoryConfig, SppfMode};
use super::history::{pawn_key, PieceTo, QuietScore};
use super::margins::MarginRule;
use super::moves::{is_noisy, see_ge, CheckInfo};
use super::ordering::{MovePicker, PickerOptions};
use super::score::{mated_in, INF, MATE_BOUND, MAX_PLY, TB_WIN};
use super::stats::Technique;
use super::thread::{Searcher, ThreadData};
use super::tt::Bound;
use crate::eval::{classic, EvalKind};
use cozy_chess::{Move, Piece};
use std::sync::atomic::Ordering;

impl Searcher<'_> {
    pub(crate) fn negamax<const PV: bool>(
        &mut self,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        cut_node: bool,
    ) -> i32 {
        // Step 1. [checkext] Check extension: a side in check has few replies and the position
        // is forcing, so search it one ply deeper rather than risk a horizon blunder.
        self.td.stack[ply].pv_len = 0;
        let in_check = self.td.pos.in_check();
        // [se] A singular search re-searches this node without its TT move: it was extended
        // already by the node's own call.
        let excluded = self.td.stack[ply].excluded;
        if in_check && self.cfg.checkext.enabled && ply > 0 && excluded.is_none() {
            self.td.stats.tried(Technique::CheckExt);
            depth += 1;
        }

        // Step 2. [qsearch] The horizon: quiescence search, or without it a leaf scored as the
        // textbook algorithms score it (draw by rule, mate or stalemate, static evaluation).
        if depth <= 0 {
            if self.cfg.qsearch.enabled {
                self.td.stats.tried(Technique::Qsearch);
                return self.qsearch::<PV>(ply, alpha, beta);
            }
            self.td.stats.nodes += 1;
            if ply > 0 && self.td.pos.is_draw(self.td.root_ply) {
                return 0;
            }
            if !self.td.pos.has_legal_move() {
                return if in_check { mated_in(ply) } else { 0 };
            }
            return self.evaluate();
        }

        // Step 3. Count the node; stop when a limit is hit.
        self.td.stats.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        self.td.seldepth = self.td.seldepth.max(ply);

        // Step 4. Draws by rule, the ply limit, and mate-distance pruning: no line from here can
        // beat a mate already found closer to the root.
        if ply > 0 {
            if self.td.pos.is_draw(self.td.root_ply) {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { 0 } else { self.evaluate() };
            }
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(-mated_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 5. [tt] Transposition table probe: reuse a result from an equal position
        // searched at least as deep, and its best move for ordering. Not in an [se] singular
        // search: the entry is this node's with every move, not without the excluded one.
        let key = self.td.pos.hash();
        let entry = if self.cfg.tt.enabled {
            self.td.stats.tried(Technique::Tt);
            self.shared.tt.probe(key, ply)
        } else {
            None
        };
        let tt_move = entry.and_then(|e| e.mv);
        // [ttpv] A PV node, or one that was: remembered in the table, used by LMR.
        let tt_pv = self.cfg.ttpv.enabled && (PV || entry.is_some_and(|e| e.pv));
        if tt_pv && !PV {
            self.td.stats.tried(Technique::TtPv);
        }
        if let Some(s) = entry
            .filter(|e| !PV && excluded.is_none() && e.depth >= depth)
            .and_then(|e| e.cutoff(alpha, beta))
        {
            self.td.stats.cut(Technique::Tt);
            return s;
        }

        // Step 5b. [syzygy] Tablebase probe: right after a capture or pawn move, within the
        // piece limit, the tables know the result; where it settles the window (a win is a
        // lower bound, a loss an upper one, a draw exact) the node returns it, and the table
        // keeps it as that bound. PV nodes too (without Stockfish's narrowing of their window).
        if self.tb_cardinality > 0 && ply > 0 && excluded.is_none() {
            if let Some(score) = self.probe_tablebase(depth, ply, alpha, beta, in_check, tt_pv) {
                return score;
            }
        }

        // Step 6. Static evaluation (the table's if it has one), [corrhist] corrected, and
        // whether it improved on our last move's.
        let raw_eval = if in_check {
            -INF
        } else if let Some(e) = entry {
            e.eval
        } else {
            self.evaluate()
        };
        let static_eval = if in_check {
            -INF
        } else {
            self.corrected_eval(raw_eval)
        };
        self.td.stack[ply].raw_eval = raw_eval;
        self.td.stack[ply].static_eval = static_eval;
        // [improving] The side to move is doing better than two plies ago, so its eval is
        // trusted more (reverse futility cuts sooner) and its moves are cut less (late move
        // pruning waits, LMR reduces less). Off, no node counts as improving.
        let improving = self.cfg.improving.enabled && !in_check && ply >= 2 && {
            self.td.stats.tried(Technique::Improving);
            let better = static_eval > self.td.stack[ply - 2].static_eval;
            if better {
                self.td.stats.cut(Technique::Improving);
            }
            better
        };
        // [tteval] The pruning steps below compare with the TT's bound where it says more.
        let eval = if in_check {
            static_eval
        } else {
            self.tt_refined(static_eval, entry)
        };

        // [se] A singular search asks about the other moves only; it does not prune the node.
        if !PV && !in_check && ply > 0 && excluded.is_none() {
            // Step 7. [probcut] [mpc] A shallow search predicts the deep one (probcut.rs).
            if let Some(score) = self.probcut(depth, ply, alpha, beta, cut_node) {
                return score;
            }

            // Step 8. [rfp] Reverse futility pruning: at shallow depth a static eval far above
            // beta will almost surely hold, so return it without searching.
            let rfp = &self.cfg.rfp;
            if rfp.enabled && depth <= rfp.max_depth && eval.abs() < MATE_BOUND {
                self.td.stats.tried(Technique::Rfp);
                // [margins] The lab's record of what the rule compared (off: one test).
                if self.td.margin_log.is_some() {
                    self.td
                        .log_margin(MarginRule::Rfp, depth, beta, eval, improving, None, 0);
                }
                // [rfp] The margin is RfpBase + RfpMargin per ply: the fitted margins of the
                // lab need the constant term (0 by default, the SPSA-tuned slope alone).
                if eval - rfp.base - rfp.margin * (depth - improving as i32) >= beta {
                    self.td.stats.cut(Technique::Rfp);
                    return eval;
                }
            }

            // [razor] Razoring: at the lowest depths a static eval this far below alpha rarely
            // recovers by a quiet move; if the captures alone (quiescence) cannot reach alpha
            // either, the node fails low without its move loop.
            let razor = &self.cfg.razor;
            if razor.enabled && depth <= razor.max_depth && alpha.abs() < MATE_BOUND {
                self.td.stats.tried(Technique::Razor);
                if eval + razor.base + razor.margin * depth <= alpha {
                    let score = self.qsearch::<false>(ply, alpha, alpha + 1);
                    if self.stopped {
                        return 0;
                    }
                    if score <= alpha {
                        self.td.stats.cut(Technique::Razor);
                        return score;
                    }
                }
            }

            // Step 9. [nmp] Null-move pruning.
            if let Some(score) = self.null_move(depth, ply, beta, eval, cut_node) {
                return score;
            }

            // Step 10. [sfpc] Stockfish-style ProbCut: a good capture that holds in a reduced
            // search (probcut.rs).
            if self.cfg.sfpc.enabled {
                let tt_score = entry.map(|e| (e.depth, e.score));
                if let Some(score) = self.stockfish_probcut(
                    depth, ply, beta, eval, improving, cut_node, tt_move, tt_score,
                ) {
                    return score;
                }
            }
        }

        // Step 11. [iir] Internal iterative reduction: without a TT move the ordering is poor
        // and the node probably unimportant; search it a ply shallower.
        if self.cfg.iir.enabled
            && depth >= self.cfg.iir.min_depth
            && tt_move.is_none()
            && (PV || cut_node)
        {
            self.td.stats.tried(Technique::Iir);
            depth -= 1;
        }

        // Step 12. The move loop: TT move, good captures (by [capthist] too), [killers], quiets
        // by [history] and [conthist], bad captures.
        let killers = if self.cfg.killers.enabled {
            self.td.stack[ply].killers
        } else {
            [None; 2]
        };
        // [countermove] The move that last refuted the opponent's last move.
        let counter = if self.cfg.countermove.enabled {
            let c = self.td.stack[ply]
                .piece_to
                .and_then(|pt| self.td.counter_moves.get(pt));
            if c.is_some() {
                self.td.stats.tried(Technique::CounterMove);
            }
            c
        } else {
            None
        };
        let mut picker = MovePicker::new(
            tt_move,
            killers,
            PickerOptions {
                noisy_only: false,
                use_see: true,
                staged: self.cfg.stagedquiets.enabled,
            },
            self.td.stack.take_moves(ply),
        )
        .with_counter(counter);
        let mut best_score = -INF;
        let mut best_move = None;
        let mut legal = 0;
        let mut searched = 0;
        let mut quiets: [Option<Move>; 64] = [None; 64];
        let mut quiet_count = 0;
        let mut noisies: [Option<Move>; 32] = [None; 32];
        let mut noisy_count = 0;
        let original_alpha = alpha;
        // [sppf] The best quiet sibling's score, the node's quiet ceiling (exact mode, computed
        // once when first needed) and the most a pruned quiet move could have scored.
        let mut best_quiet = -INF;
        let mut sppf_ceiling = None;
        let mut sppf_pruned = -INF;
        let board = self.td.pos.board().clone();
        // What the pruning rules need to spare checking moves, computed when first asked.
        let mut checks: Option<CheckInfo> = None;
        // Step 13's guard: no move is skipped unsearched at the root, where every move is
        // searched and reported, nor in check, where the few evasions are forced and no
        // margin or history speaks for them.
        let shallow_pruning = ply > 0 && !in_check;
        let prev_moves = self.cont_prev(ply);
        // [lmrttcapture] The table's best move here is a capture: the quiets rarely beat it.
        let tt_capture = self.cfg.lmrttcapture.enabled
            && tt_move.is_some_and(|m| {
                self.td.stats.tried(Technique::LmrTtCapture);
                is_noisy(&board, m)
            });

        while let Some(mv) = picker.next(
            &board,
            Some(&QuietScore {
                main: self.cfg.history.enabled.then_some(&self.td.history),
                cont: &self.td.cont_history,
                prev: prev_moves,
                capture: self
                    .cfg
                    .capthist
                    .enabled
                    .then_some((&self.td.capture_history, self.cfg.capthist.divisor)),
            }),
        ) {
            if ply == 0
                && (self.td.root_skip.contains(&mv)
                    || (!self.td.root_only.is_empty() && !self.td.root_only.contains(&mv)))
            {
                continue;
            }
            if Some(mv) == excluded {
                continue;
            }
            legal += 1;
            let noisy = is_noisy(&board, mv);

            // Step 13. Shallow pruning: a move skipped unsearched, each technique by its own
            // test, all under the node's guard.
            if shallow_pruning {
                // Until a searched move scores above a mate loss, the node keeps searching for
                // a way out: the margins and histories below cannot see a mate coming. ([sppf]
                // keeps its own mate guards.)
                let has_safe_move = best_score > -MATE_BOUND;
                // [lmp] [futility] Prune late and hopeless quiet moves.
                if has_safe_move
                    && !noisy
                    && self.prune_quiet(
                        &board,
                        mv,
                        depth,
                        searched,
                        eval,
                        alpha,
                        improving,
                        PV,
                        &mut checks,
                    )
                {
                    continue;
                }
                // [histprune] History pruning: a quiet move whose histories say it failed in
                // this context again and again is skipped at low depth; LMR would still spend a
                // reduced search on each such move, and they are many at the frontier.
                if has_safe_move
                    && searched > 0
                    && !noisy
                    && self.history_prunes(&board, mv, depth, prev_moves, &mut checks)
                {
                    continue;
                }
                // [seeprune] SEE pruning: a move whose static exchange loses more than a margin
                // growing with depth is skipped; at low depth the search would only confirm the
                // loss. Never the first move, so a node keeps at least its best-ordered one.
                if has_safe_move && searched > 0 && self.see_prunes(&board, mv, depth, noisy) {
                    continue;
                }
                // [sppf] Sibling prediction pruning at the frontier: a quiet move's score differs
                // from its siblings' (or, exact, from the node's eval) by a bounded positional
                // change, so when that bound cannot reach alpha the move need not be searched.
                if !PV && depth == 1 && !noisy && self.cfg.sppf.enabled {
                    if let Some(ceiling) = self.sppf_ceiling(
                        &board,
                        mv,
                        alpha,
                        raw_eval,
                        best_quiet,
                        &mut sppf_ceiling,
                        &mut checks,
                    ) {
                        sppf_pruned = sppf_pruned.max(ceiling);
                        continue;
                    }
                }
            }

            // Step 14. [se] Singular extensions: is the TT move the only one that holds?
            let mut extension = 0;
            if let Some(e) = entry.filter(|e| {
                let se = &self.cfg.se;
                se.enabled
                    && ply > 0
                    && Some(mv) == tt_move
                    && excluded.is_none()
                    && depth >= se.min_depth
                    && (ply as i32) < 2 * self.td.root_depth
                    && e.depth >= depth - se.tt_depth
                    && e.bound != Bound::Upper
                    && e.score.abs() < MATE_BOUND
            }) {
                match self.singular(e.score, depth, ply, beta, cut_node, mv, PV) {
                    Ok(ext) => extension = ext,
                    Err(score) => {
                        self.td.stack.give_back_moves(ply, picker.into_buffer());
                        return score;
                    }
                }
            }

            // Step 15. Make the move.
            self.td.stack[ply + 1].double_exts =
                self.td.stack[ply].double_exts + (extension >= 2) as i32;
            let nodes_before = self.td.stats.nodes;
            self.td
                .make(&self.shared.tt, ply, mv, PieceTo::of(&board, mv));
            let gives_check = self.td.pos.in_check();
            let new_depth = depth - 1 + extension;

            // Step 16. [lmr] Late move reductions: quiet moves late in the ordering are searched
            // shallower first and at full depth only if they beat alpha.
            let mut r = 0;
            let mut reduced = false;
            if self.cfg.lmr.enabled
                && searched > 0
                && depth >= self.cfg.lmr.min_depth
                && searched >= self.cfg.lmr.min_moves + PV as i32
                && !in_check
            {
                // [lmrnoisy] A late capture that loses material by exchange is ordered with
                // the bad captures after the quiets and rarely the best move, yet SEE pruning
                // keeps those that lose little or sit deep; reduce them as a late quiet move.
                let reduce = if noisy {
                    self.cfg.lmrnoisy.enabled && {
                        self.td.stats.tried(Technique::LmrNoisy);
                        let losing = !see_ge(&board, mv, 0);
                        if losing {
                            self.td.stats.cut(Technique::LmrNoisy);
                        }
                        losing
                    }
                } else {
                    self.td.stats.tried(Technique::Lmr);
                    true
                };
                if reduce {
                    reduced = true;
                    r = self.lmr.get(depth, searched) - PV as i32 - gives_check as i32
                        + !improving as i32
                        + cut_node as i32;
                    if noisy {
                        r += self.cfg.lmrnoisy.offset;
                    } else {
                        // [ttpv] Off the PV but once on it: the line may return, reduce it less.
                        if tt_pv && !PV && self.cfg.ttpv.reduction > 0 {
                            self.td.stats.cut(Technique::TtPv);
                            r -= self.cfg.ttpv.reduction;
                        }
                        r -= killers.contains(&Some(mv)) as i32;
                        // [lmrttcapture] A quiet move after a capturing TT move: one ply more.
                        if tt_capture {
                            self.td.stats.cut(Technique::LmrTtCapture);
                            r += self.cfg.lmrttcapture.reduction;
                        }
                        // [lmrhistory] The move's history, butterfly and continuation, moves
                        // its reduction: the histories know which quiet moves tend to matter
                        // here better than their place in the list does.
                        if self.cfg.lmrhistory.enabled
                            && (self.cfg.history.enabled || self.cfg.conthist.enabled)
                        {
                            self.td.stats.tried(Technique::LmrHistory);
                            let mut h = 0;
                            if self.cfg.history.enabled {
                                h += self.td.history.get(board.side_to_move(), mv);
                            }
                            // [conthist] The follow-up scores join the butterfly score, scaled.
                            if self.cfg.conthist.enabled {
                                let cont = QuietScore {
                                    main: None,
                                    cont: &self.td.cont_history,
                                    prev: prev_moves,
                                    capture: None,
                                };
                                let piece_to = self.td.stack[ply + 1].piece_to;
                                h += cont.total(&board, mv, piece_to)
                                    * self.cfg.conthist.lmr_weight
                                    / 100;
                            }
                            let shift = h / self.cfg.lmrhistory.divisor.max(1);
                            if shift != 0 {
                                self.td.stats.cut(Technique::LmrHistory);
                            }
                            r -= shift;
                        }
                    }
                    // The reduced search keeps at least one ply; at a frontier node
                    // (new_depth <= 0, possible when LmrMinDepth is 1) there is nothing left
                    // to reduce. `clamp(0, new_depth - 1)` panicked there: its bounds cross.
                    r = r.min(new_depth - 1).max(0);
                }
            }

            // Step 17. [pvs] Null-window search (reduced by r): after the first move, prove
            // each move worse than alpha. Without PVS only a reduced move gets one.
            let pvs = self.cfg.pvs.enabled;
            let mut score = alpha + 1; // not refuted yet: the full search below decides
            if searched > 0 && (pvs || r > 0) {
                // [allchild] Only a move LMR considered is expected to fail high below a cut
                // node whose first move did not cut; the others there are all nodes.
                let mut child_cut = true;
                if self.cfg.allchild.enabled {
                    self.td.stats.tried(Technique::AllChild);
                    if cut_node && !reduced {
                        self.td.stats.cut(Technique::AllChild);
                        child_cut = false;
                    }
                }
                score =
                    -self.negamax::<false>(new_depth - r, ply + 1, -alpha - 1, -alpha, child_cut);
                // Step 18. Re-searches. [lmr] A reduced move that beats alpha is searched
                // again at full depth (with PVS still with a null window)...
                if r > 0 && score > alpha && (!pvs || !self.stopped) {
                    self.td.stats.cut(Technique::Lmr);
                    if pvs {
                        score = -self.negamax::<false>(
                            new_depth,
                            ply + 1,
                            -alpha - 1,
                            -alpha,
                            !cut_node,
                        );
                    }
                }
            }
            // ... and [pvs] a move inside the window gets the full window: always the first
            // move, in PV nodes one that beat alpha, without PVS every move not refuted.
            let full_window = if searched == 0 {
                true
            } else if pvs {
                PV && score > alpha && score < beta && !self.stopped
            } else {
                score > alpha && !self.stopped
            };
            if PV && pvs && searched > 0 {
                self.td.stats.tried(Technique::Pvs);
                if full_window {
                    self.td.stats.cut(Technique::Pvs);
                }
            }
            if full_window {
                score = -self.negamax::<PV>(new_depth, ply + 1, -beta, -alpha, false);
            }

            // Step 19. Take the move back.
            self.td.unmake();
            searched += 1;
            if ply == 0 {
                // [timeman] How much of the tree each root move took, for time management.
                self.td
                    .add_root_nodes(mv, self.td.stats.nodes - nodes_before);
            }
            if self.stopped {
                return 0;
            }

            if !noisy {
                best_quiet = best_quiet.max(score);
            }

            // Step 20. Update the best move, the PV, and on a cutoff [killers], [history],
            // [conthist] and [capthist].
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if PV {
                        self.td.stack.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if !noisy {
                            self.reward_quiet(ply, mv, depth, &quiets[..quiet_count], killers);
                            // [countermove] Remember this refutation of the last move.
                            if let Some(pt) = self.td.stack[ply].piece_to {
                                if self.cfg.countermove.enabled {
                                    if counter == Some(mv) {
                                        self.td.stats.cut(Technique::CounterMove);
                                    }
                                    self.td.counter_moves.set(pt, mv);
                                }
                            }
                        }
                        self.reward_capture(mv, noisy, depth, &noisies[..noisy_count]);
                        break;
                    }
                }
            }
            if !noisy && quiet_count < quiets.len() {
                quiets[quiet_count] = Some(mv);
                quiet_count += 1;
            }
            if noisy && noisy_count < noisies.len() {
                noisies[noisy_count] = Some(mv);
                noisy_count += 1;
            }
        }
        // [stagedquiets] Nodes that deferred their quiets, and those that never made them.
        if let Some(saved) = picker.staging() {
            self.td.stats.tried(Technique::StagedQuiets);
            if saved {
                self.td.stats.cut(Technique::StagedQuiets);
            }
        }
        self.td.stack.give_back_moves(ply, picker.into_buffer());

        // Step 21. No legal move: mate or stalemate. Every move pruned: nothing beats alpha.
        if legal == 0 {
            // [se] Without its TT move a node may have no move: the singular search's answer
            // is then "nothing else holds".
            if ply == 0 || excluded.is_some() {
                return alpha;
            }
            return if in_check { mated_in(ply) } else { 0 };
        }
        if searched == 0 {
            return alpha;
        }
        // [sppf] A pruned quiet move may have scored up to its ceiling (at most alpha): the
        // honest upper bound of a node that failed low includes it.
        best_score = best_score.max(sppf_pruned);

        // Step 22. [corrhist] Learn the eval's error from this node's result, unless the result
        // is only a bound on the wrong side of the eval (it says nothing about the error) or
        // comes from a capture (the eval of a position with hanging material is not at fault).
        let bound = Bound::classify(best_score, original_alpha, beta);
        if self.cfg.corrhist.enabled
            && excluded.is_none()
            && !in_check
            && best_move.is_none_or(|m| !is_noisy(&board, m))
            && best_score.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.td.stats.cut(Technique::CorrHist);
            let c = &self.cfg.corrhist;
            let weight = ((depth + 1) * c.weight_per_ply).min(c.weight_max);
            self.td.corr_history.update(
                board.side_to_move(),
                pawn_key(&board),
                best_score - raw_eval,
                weight,
                c.limit,
            );
        }

        // Step 23. [tt] Store the result, with the raw eval (not an [se] singular search's,
        // which is about a node with a move left out).
        if self.cfg.tt.enabled && excluded.is_none() {
            self.shared.tt.store_pv(
                key, ply, best_move, best_score, raw_eval, depth, bound, tt_pv,
            );
        }
        best_score
    }

    /// [syzygy] Step 5b: the tables' result of a position just reached by a capture or pawn
    /// move (fifty-move counter 0, which the WDL tables assume), with at most
    /// `tb_cardinality` pieces (that many only at `SyzygyProbeDepth` or deeper). A win scores
    /// `TB_WIN - ply`, below every mate; with `Syzygy50MoveRule` a win or loss that the rule
    /// spoils is a draw (±2). `Some(score)` when the node is settled.
    fn probe_tablebase(
        &mut self,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        in_check: bool,
        tt_pv: bool,
    ) -> Option<i32> {
        let board = self.td.pos.board();
        let pieces = board.occupied().len() as usize;
        if board.halfmove_clock() != 0
            || pieces > self.tb_cardinality
            || (pieces == self.tb_cardinality && depth < self.shared.syzygy.probe_depth)
        {
            return None;
        }
        let wdl = self.shared.syzygy.tables.as_ref()?.probe_wdl(board)?;
        self.td.stats.syzygy.0 += 1;
        self.shared.tbhits.fetch_add(1, Ordering::Relaxed);
        let draw_score = self.shared.syzygy.fifty_move_rule as i32;
        let wdl = wdl as i32;
        let win = TB_WIN - ply as i32;
        let (score, bound) = if wdl < -draw_score {
            (-win, Bound::Upper)
        } else if wdl > draw_score {
            (win, Bound::Lower)
        } else {
            (2 * wdl * draw_score, Bound::Exact)
        };
        let settled = match bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        if !settled {
            return None;
        }
        self.td.stats.syzygy.1 += 1;
        if self.cfg.tt.enabled {
            // Deeper than any search from here would store: the tables' answer is final.
            let eval = if in_check { -INF } else { self.evaluate() };
            let key = self.td.pos.hash();
            let depth = (depth + 6).min(MAX_PLY as i32 - 1);
            self.shared
                .tt
                .store_pv(key, ply, None, score, eval, depth, bound, tt_pv);
        }
        Some(score)
    }

    /// [se] Singular extensions (Anantharaman et al.; the form of Stockfish and its heirs):
    /// search the node without its TT move, at half depth, with a null window just below the
    /// TT score. If nothing else holds, the TT move is singular and gets a ply more (two off
    /// the PV when the rest fall far short, bounded per line). If another move holds too and
    /// even the lowered bound beats beta, two moves refute this node: cut it (multi-cut).
    /// Otherwise the TT move is not alone, so search it a ply shallower when it was expected
    /// to cut anyway. `Err` carries a cut node's score (or 0 when the search stopped).
    #[allow(clippy::too_many_arguments)]
    fn singular(
        &mut self,
        tt_score: i32,
        depth: i32,
        ply: usize,
        beta: i32,
        cut_node: bool,
        mv: Move,
        pv: bool,
    ) -> Result<i32, i32> {
        let se = self.cfg.se.clone();
        self.td.stats.tried(Technique::Se);
        let singular_beta = (tt_score - se.margin * depth).max(-MATE_BOUND + 1);
        self.td.stack[ply].excluded = Some(mv);
        let score = self.negamax::<false>(
            (depth - 1) / 2,
            ply,
            singular_beta - 1,
            singular_beta,
            cut_node,
        );
        self.td.stack[ply].excluded = None;
        if self.stopped {
            return Err(0);
        }
        if score < singular_beta {
            self.td.stats.cut(Technique::Se);
            if !pv
                && score < singular_beta - se.double_margin
                && self.td.stack[ply].double_exts < se.double_max
            {
                self.td.stats.tried(Technique::SeDouble);
                return Ok(2);
            }
            return Ok(1);
        }
        self.td.stats.tried(Technique::SeMulticut);
        if singular_beta >= beta {
            self.td.stats.cut(Technique::SeMulticut);
            return Err(singular_beta);
        }
        if tt_score >= beta || cut_node {
            self.td.stats.tried(Technique::SeNegative);
            return Ok(-1);
        }
        Ok(0)
    }

    /// [tteval] The static eval, or the TT score where its bound says the node is worth more
    /// (a lower bound above the eval) or less (an upper bound below it): a searched result
    /// is a better guess than the static one. Mate scores are left to the search.
    #[inline]
    pub(crate) fn tt_refined(&mut self, eval: i32, entry: Option<super::tt::Entry>) -> i32 {
        if !self.cfg.tteval.enabled || eval.abs() >= MATE_BOUND {
            return eval;
        }
        let Some(e) = entry else { return eval };
        self.td.stats.tried(Technique::TtEval);
        if e.score.abs() >= MATE_BOUND {
            return eval;
        }
        let better = match e.bound {
            Bound::Exact => e.score != eval,
            Bound::Lower => e.score > eval,
            Bound::Upper => e.score < eval,
        };
        if better {
            self.td.stats.cut(Technique::TtEval);
            e.score
        } else {
            eval
        }
    }

    /// [corrhist] The static eval plus what the correction history learned for this pawn
    /// structure; the raw eval unchanged when switched off.
    #[inline]
    pub(crate) fn corrected_eval(&mut self, raw_eval: i32) -> i32 {
        if !self.cfg.corrhist.enabled || raw_eval.abs() >= MATE_BOUND {
            return raw_eval;
        }
        self.td.stats.tried(Technique::CorrHist);
        let board = self.td.pos.board();
        let c = self
            .td
            .corr_history
            .get(board.side_to_move(), pawn_key(board));
        (raw_eval + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// [conthist] The previous moves whose continuation histories apply at `ply`: the
    /// opponent's last move and (with `ContHistPlies` 2) our own move before it.
    #[inline]
    fn cont_prev(&self, ply: usize) -> [Option<PieceTo>; 2] {
        let c = &self.cfg.conthist;
        if !c.enabled {
            return [None; 2];
        }
        let one = self.td.stack[ply].piece_to;
        let two = if c.plies >= 2 && ply >= 1 {
            self.td.stack[ply - 1].piece_to
        } else {
            None
        };
        [one, two]
    }

    /// [nmp] Null-move pruning: give the opponent a free move; if a reduced search still fails
    /// high, a real move would too. Off in check, in pawn-only endings (zugzwang) and after
    /// another null move; verified by a normal search at high depth.
    fn null_move(
        &mut self,
        depth: i32,
        ply: usize,
        beta: i32,
        static_eval: i32,
        cut_node: bool,
    ) -> Option<i32> {
        let nmp = &self.cfg.nmp;
        if !(nmp.enabled
            && ply >= self.td.nmp_min_ply
            && depth >= nmp.min_depth
            && depth <= nmp.max_depth
            && static_eval >= beta
            && self.td.stack[ply].mv.is_some()
            && self.has_non_pawn_material())
        {
            return None;
        }
        self.td.stats.tried(Technique::Nmp);
        let r = nmp.reduction
            + depth / nmp.depth_divisor.max(1)
            + ((static_eval - beta) / nmp.eval_divisor.max(1)).min(nmp.eval_max);
        let verify_depth = nmp.verify_depth;
        self.td.stack[ply + 1].double_exts = self.td.stack[ply].double_exts;
        self.td.make_null(&self.shared.tt, ply);
        let score = -self.negamax::<false>(depth - 1 - r, ply + 1, -beta, -beta + 1, !cut_node);
        self.td.unmake();
        if self.stopped {
            return Some(0);
        }
        if score < beta {
            return None;
        }
        let score = if score >= MATE_BOUND { beta } else { score };
        if depth < verify_depth {
            self.td.stats.cut(Technique::Nmp);
            return Some(score);
        }
        // The verification search may not lean on null moves itself.
        let saved = self.td.nmp_min_ply;
        self.td.nmp_min_ply = usize::MAX;
        let verified = self.negamax::<false>(depth - 1 - r, ply, beta - 1, beta, false);
        self.td.nmp_min_ply = saved;
        if verified >= beta {
            self.td.stats.cut(Technique::Nmp);
            return Some(score);
        }
        None
    }

    /// [lmp] [futility] Whether a quiet move can be skipped. Neither applies to a checking
    /// move: a quiet check can be a mate (WAC.001's Qh7#), which no static margin foresees.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn prune_quiet(
        &mut self,
        board: &cozy_chess::Board,
        mv: Move,
        depth: i32,
        searched: i32,
        static_eval: i32,
        alpha: i32,
        improving: bool,
        pv: bool,
        checks: &mut Option<CheckInfo>,
    ) -> bool {
        // [lmp] Late move pruning: at low depth, quiet moves this late in a well-ordered list
        // almost never matter.
        let mut prune = None;
        let lmp = &self.cfg.lmp;
        if lmp.enabled && !pv && depth <= lmp.max_depth {
            self.td.stats.tried(Technique::Lmp);
            if searched >= (lmp.base + depth * depth) / (2 - improving as i32) {
                prune = Some(Technique::Lmp);
            }
        }
        // [futility] Futility pruning: a quiet move cannot lift a static eval this far below
        // alpha within the remaining depth.
        let fut = &self.cfg.futility;
        if prune.is_none() && fut.enabled && depth <= fut.max_depth && searched > 0 {
            self.td.stats.tried(Technique::Futility);
            // [margins] The lab's record of the rule's estimate for this move; a checking
            // move is never pruned by it, so it is no sample of the rule.
            if self.td.margin_log.is_some() {
                log_futility(
                    &mut self.td,
                    board,
                    mv,
                    depth,
                    alpha,
                    static_eval,
                    improving,
                    checks,
                );
            }
            if static_eval + fut.base + fut.margin * depth <= alpha {
                prune = Some(Technique::Futility);
            }
        }
        let Some(t) = prune else { return false };
        if gives_check(board, mv, checks) {
            return false;
        }
        self.td.stats.cut(t);
        true
    }

    /// [histprune] Whether the quiet move `mv` has a history (butterfly plus the continuation
    /// histories in use) below −HistPruneMargin · depth at a node no deeper than
    /// HistPruneMaxDepth. A move that gives check is kept: its history says little about it.
    fn history_prunes(
        &mut self,
        board: &cozy_chess::Board,
        mv: Move,
        depth: i32,
        prev_moves: [Option<PieceTo>; 2],
        checks: &mut Option<CheckInfo>,
    ) -> bool {
        let hp = &self.cfg.histprune;
        if !hp.enabled || depth > hp.max_depth {
            return false;
        }
        self.td.stats.tried(Technique::HistPrune);
        let limit = -hp.margin * depth;
        let score = QuietScore {
            main: self.cfg.history.enabled.then_some(&self.td.history),
            cont: &self.td.cont_history,
            prev: prev_moves,
            capture: None,
        };
        if score.total(board, mv, PieceTo::of(board, mv)) >= limit {
            return false;
        }
        if gives_check(board, mv, checks) {
            return false;
        }
        self.td.stats.cut(Technique::HistPrune);
        true
    }

    /// [seeprune] Whether `mv` loses too much by static exchange to be searched at `depth`:
    /// quiet moves by `SeePruneQuiet` per ply, captures and promotions by `SeePruneNoisy`
    /// per ply squared (a capture that loses a little can still open a line).
    #[inline]
    fn see_prunes(&mut self, board: &cozy_chess::Board, mv: Move, depth: i32, noisy: bool) -> bool {
        let sp = &self.cfg.seeprune;
        if !sp.enabled || depth > sp.max_depth {
            return false;
        }
        self.td.stats.tried(Technique::SeePrune);
        let threshold = if noisy {
            -sp.noisy_margin * depth * depth
        } else {
            -sp.quiet_margin * depth
        };
        if see_ge(board, mv, threshold) {
            return false;
        }
        self.td.stats.cut(Technique::SeePrune);
        true
    }

    /// [sppf] Whether the frontier quiet move `mv` may be skipped, and if so the most it could
    /// have scored. `mpd`: the best quiet sibling searched plus SppfMpd (the thesis's rule, a
    /// guess). `exact`: the classic evaluation plus `quiet_gain_bound`, which no quiet move's
    /// evaluation can exceed; its qsearch score cannot either (the opponent may stand pat), so
    /// this prunes only moves alpha-beta would fail low on. Not covered by either bound: moves
    /// that give check (no stand pat), castling (two men move) and, when alpha < 0, moves
    /// after which a repetition or the fifty-move rule could score the child 0.
    #[allow(clippy::too_many_arguments)]
    fn sppf_ceiling(
        &mut self,
        board: &cozy_chess::Board,
        mv: Move,
        alpha: i32,
        raw_eval: i32,
        best_quiet: i32,
        node_ceiling: &mut Option<i32>,
        checks: &mut Option<CheckInfo>,
    ) -> Option<i32> {
        if alpha.abs() >= MATE_BOUND || board.colors(board.side_to_move()).has(mv.to) {
            return None;
        }
        let s = &self.cfg.sppf;
        let ceiling = match s.mode {
            SppfMode::Mpd if best_quiet > -MATE_BOUND => best_quiet + s.mpd,
            SppfMode::Mpd => return None,
            SppfMode::Exact if self.cfg.eval == EvalKind::Classic => {
                *node_ceiling.get_or_insert_with(|| raw_eval + classic::quiet_gain_bound(board))
            }
            SppfMode::Exact => return None,
        };
        self.td.stats.tried(Technique::Sppf);
        if ceiling > alpha {
            return None;
        }
        let pawn_move = board.pieces(Piece::Pawn).has(mv.from);
        if alpha < 0 && !pawn_move && board.halfmove_clock() + 1 >= 4 {
            return None;
        }
        if gives_check(board, mv, checks) {
            return None;
        }
        self.td.stats.cut(Technique::Sppf);
        Some(ceiling)
    }

    /// [killers] [history] A quiet move that caused a cutoff becomes a killer for this ply and
    /// gains history; the quiet moves tried before it lose history.
    fn reward_quiet(
        &mut self,
        ply: usize,
        mv: Move,
        depth: i32,
        tried: &[Option<Move>],
        killers: [Option<Move>; 2],
    ) {
        if self.cfg.killers.enabled {
            self.td.stats.tried(Technique::Killers);
            if killers.contains(&Some(mv)) {
                self.td.stats.cut(Technique::Killers);
            }
            self.td.stack.add_killer(ply, mv);
        }
        let h = &self.cfg.history;
        if h.enabled {
            // Tried: a history update; cut: the cutoff came from the first quiet searched.
            self.td.stats.tried(Technique::History);
            if tried.is_empty() {
                self.td.stats.cut(Technique::History);
            }
            let side = self.td.pos.side();
            let bonus = self.history_bonus(depth);
            self.td.history.update(side, mv, bonus);
            for q in tried.iter().flatten() {
                self.td.history.update(side, *q, -bonus);
            }
        }
        // [conthist] The same reward and penalties in the rows of the previous moves.
        let prev = self.cont_prev(ply);
        if prev.iter().any(Option::is_some) {
            let bonus = self.history_bonus(depth);
            let board = self.td.pos.board();
            let Some(pt) = PieceTo::of(board, mv) else {
                return;
            };
            self.td.stats.tried(Technique::ContHist);
            let before: i32 = prev
                .iter()
                .flatten()
                .map(|&p| self.td.cont_history.get(p, pt))
                .sum();
            if before > 0 {
                self.td.stats.cut(Technique::ContHist);
            }
            for &p in prev.iter().flatten() {
                self.td.cont_history.update(p, pt, bonus);
                for q in tried.iter().flatten() {
                    if let Some(qt) = PieceTo::of(board, *q) {
                        self.td.cont_history.update(p, qt, -bonus);
                    }
                }
            }
        }
    }

    /// [capthist] A capture that cut gains capture history; the captures tried before the
    /// cutting move (capture or quiet) lose it: they were ordered first and did not refute.
    fn reward_capture(&mut self, mv: Move, noisy: bool, depth: i32, tried: &[Option<Move>]) {
        if !self.cfg.capthist.enabled {
            return;
        }
        let bonus = self.history_bonus(depth);
        let board = self.td.pos.board();
        if noisy {
            self.td.stats.tried(Technique::CaptHist);
            if self.td.capture_history.get(board, mv) > 0 {
                self.td.stats.cut(Technique::CaptHist);
            }
            self.td.capture_history.update(board, mv, bonus);
        }
        for q in tried.iter().flatten() {
            self.td.capture_history.update(board, *q, -bonus);
        }
    }

    /// [history] The reward of a cutoff at `depth`, shared by the butterfly, continuation and
    /// capture histories. With `History` off its parameters are inert, as every technique's
    /// are when it is off; the other two histories then reward by the built-in defaults.
    fn history_bonus(&self, depth: i32) -> i32 {
        let defaults;
        let h = if self.cfg.history.enabled {
            &self.cfg.history
        } else {
            defaults = HistoryConfig::default();
            &defaults
        };
        (depth * depth * h.bonus_scale).min(h.bonus_max)
    }

    fn has_non_pawn_material(&self) -> bool {
        let b = self.td.pos.board();
        let side = b.colors(b.side_to_move());
        let pawns_and_king = b.pieces(Piece::Pawn) | b.pieces(Piece::King);
        !(side & !pawns_and_king).is_empty()
    }
}

/// [margins] Records a futility sample (only while the lab logs), out of line so that the
/// hot `prune_quiet` stays as small as without the log: a checking move is never pruned by
/// the rule, so it is no sample of it.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn log_futility(
    td: &mut ThreadData,
    board: &cozy_chess::Board,
    mv: Move,
    depth: i32,
    alpha: i32,
    static_eval: i32,
    improving: bool,
    checks: &mut Option<CheckInfo>,
) {
    if !gives_check(board, mv, checks) {
        td.log_margin(
            MarginRule::Futility,
            depth,
            alpha,
            static_eval,
            improving,
            Some(mv),
            0,
        );
    }
}

/// Whether `mv` gives check, from the node's `CheckInfo` (made on the first question).
#[inline]
fn gives_check(board: &cozy_chess::Board, mv: Move, checks: &mut Option<CheckInfo>) -> bool {
    checks
        .get_or_insert_with(|| CheckInfo::new(board))
        .gives_check(board, mv)
}
