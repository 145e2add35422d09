//! [qsearch] Quiescence search: at the horizon, resolve captures and promotions (all evasions
//! when in check) so that leaves are quiet; stand pat on the static eval.

use super::moves::{captured_piece, see_ge, SEE_VALUE};
use super::ordering::{MovePicker, PickerOptions};
use super::score::{mated_in, INF, MATE, MAX_PLY};
use super::stats::Technique;
use super::thread::Searcher;
use super::tt::Bound;
use crate::position::Position;
use cozy_chess::Move;

impl Searcher<'_> {
    /// The quiescence search alone from `pos` (full window, no limits): its score for the side
    /// to move and its principal variation, the captures (evasions in check) that lead to the
    /// quiet position it stands pat on. `augur-lab tune` evaluates that leaf.
    pub fn quiescence(&mut self, pos: &Position) -> (i32, Vec<Move>) {
        self.begin(pos);
        let score = self.qsearch::<true>(0, -INF, INF);
        (score, self.td.stack.root_pv())
    }

    pub(crate) fn qsearch<const PV: bool>(&mut self, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        // Step 1. Count the node; stop when a limit is hit.
        self.td.stack[ply].pv_len = 0;
        self.td.stats.nodes += 1;
        self.td.stats.qnodes += 1;
        if self.should_stop() {
            return 0;
        }
        self.td.seldepth = self.td.seldepth.max(ply);

        // Step 2. Draws by rule and the ply limit.
        let in_check = self.td.pos.in_check();
        if self.td.pos.is_fifty_moves()
            || self.td.pos.is_insufficient_material()
            || self.td.pos.is_repetition(self.td.root_ply)
        {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate() };
        }

        // Step 3. [tt] Probe for the eval and the move to try first.
        let key = self.td.pos.hash();
        let entry = if self.cfg.tt.enabled {
            self.shared.tt.probe(key, ply)
        } else {
            None
        };
        // [qstt] A stored bound that settles the window ends the node (not in PV nodes, whose
        // exact scores and lines the PV needs): quiescence trees repeat the same exchanges
        // in many orders, and an earlier search of this position already answered.
        if let Some(e) = entry.filter(|_| !PV && self.cfg.qstt.enabled) {
            self.td.stats.tried(Technique::QsTt);
            if let Some(s) = e.cutoff(alpha, beta) {
                self.td.stats.cut(Technique::QsTt);
                return s;
            }
        }

        // Step 4. Stand pat: the side to move may decline every capture (not in check).
        let static_eval;
        let mut best_score;
        if in_check {
            static_eval = -INF;
            best_score = -INF;
        } else {
            static_eval = match entry {
                Some(e) => e.eval,
                None => self.evaluate(),
            };
            // [corrhist] Stand pat on the corrected eval; the TT keeps the raw one.
            best_score = self.corrected_eval(static_eval);
            // [tteval] Stand pat on the TT's bound where it says more than the eval.
            best_score = self.tt_refined(best_score, entry);
            if best_score >= beta {
                self.td.stats.cut(Technique::Qsearch);
                return best_score;
            }
            alpha = alpha.max(best_score);
        }

        // Step 5. The move loop: captures and promotions, all evasions in check.
        let mut picker = MovePicker::new(
            entry.and_then(|e| e.mv),
            [None; 2],
            PickerOptions {
                noisy_only: true,
                use_see: false,
                staged: false,
            },
            self.td.stack.take_moves(ply),
        );
        let board = self.td.pos.board().clone();
        let mut best_move = None;
        let mut any = false;
        while let Some(mv) = picker.next(&board, None) {
            any = true;
            // Step 6. [qsee] SEE pruning in quiescence: a capture that loses material by
            // exchange cannot raise a stand-pat score, so skip it.
            if !in_check && self.cfg.qsee.enabled {
                self.td.stats.tried(Technique::Qsee);
                if !see_ge(&board, mv, self.cfg.qsee.margin) {
                    self.td.stats.cut(Technique::Qsee);
                    continue;
                }
            }
            // [qdelta] Delta pruning: even winning the victim outright, plus a margin for what
            // else the position may gain, leaves the stand pat below alpha. Promotions are
            // kept (they gain more than the victim).
            if !in_check && self.cfg.qdelta.enabled && mv.promotion.is_none() {
                self.td.stats.tried(Technique::QDelta);
                let victim = captured_piece(&board, mv).map_or(0, |p| SEE_VALUE[p as usize]);
                if best_score + victim + self.cfg.qdelta.margin <= alpha {
                    self.td.stats.cut(Technique::QDelta);
                    continue;
                }
            }
            // Step 7. Make, search, take back.
            self.td.make(&self.shared.tt, ply, mv, None);
            let score = -self.qsearch::<PV>(ply + 1, -beta, -alpha);
            self.td.unmake();
            if self.stopped {
                return 0;
            }
            // Step 8. Update the best move and the PV.
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    if PV {
                        self.td.stack.update_pv(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.td.stack.give_back_moves(ply, picker.into_buffer());

        // Step 9. In check without a move: mated.
        if in_check && !any {
            return mated_in(ply);
        }

        // Step 10. [tt] Store the result.
        if self.cfg.tt.enabled {
            let bound = if best_score >= beta {
                Bound::Lower
            } else {
                Bound::Upper
            };
            self.shared.tt.store(
                key,
                ply,
                best_move,
                best_score,
                static_eval.max(-MATE),
                0,
                bound,
            );
        }
        best_score
    }
}
