//! Move ordering: the staged move picker (TT move, good captures, killers, quiets by
//! history, bad captures). What it knows of a move is in `moves` (noisy or quiet, the victim,
//! SEE), what it orders by is a `MoveOrder` of `history`; killers live in the search stack.

use super::history::MoveOrder;
use super::moves::{captured_piece, see_ge, SEE_VALUE};
use cozy_chess::{Board, Color, Move, Piece};

/// Re-exported where the lab has always found it; its home is `moves`.
pub use super::moves::is_noisy;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    Generate,
    Rest,
    /// The killers, then the countermove, by index (0, 1: killers; 2: counter).
    Refutation(u8),
    Sorted,
}

/// [stagedquiets] Where a node's quiet moves are: generated with the rest (no staging: the
/// switch off, in check, quiescence), still to come, or generated after the refutations.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Quiets {
    WithTheRest,
    Pending,
    Generated,
}

/// Which moves one generation pass makes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Part {
    All,
    Noisy,
    Quiet,
}

/// Score bands: the picker returns moves in descending score, so bands give the stages.
const GOOD_NOISY: i32 = 2_000_000;
const KILLER: i32 = 1_000_000;
const BAD_NOISY: i32 = -2_000_000;

/// Returns moves one at a time: the TT move before any generation (a cutoff from it saves
/// generating at all), then the rest by a selection sort over score bands.
///
/// [stagedquiets] Outside check the quiets are generated only once the good captures and the
/// killers are spent: about 30% of full generations never hand out a quiet move (a capture
/// or a killer cuts first), and each would have scored every quiet for nothing. The quiets
/// are then scored with the history as it stands after the captures' subtrees.
pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    /// [countermove] Ordered right after the killers.
    counter: Option<Move>,
    noisy_only: bool,
    use_see: bool,
    /// [stagedquiets] The switch, and where this node's quiets are.
    staged: bool,
    quiets: Quiets,
    moves: Vec<(Move, i32)>,
    next: usize,
}

pub struct PickerOptions {
    pub noisy_only: bool,
    pub use_see: bool,
    /// [stagedquiets] Generate the quiets only after the good captures and the refutations.
    pub staged: bool,
}

impl MovePicker {
    pub fn new(
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        opts: PickerOptions,
        buffer: Vec<(Move, i32)>,
    ) -> Self {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            counter: None,
            noisy_only: opts.noisy_only,
            use_see: opts.use_see,
            staged: opts.staged,
            quiets: Quiets::WithTheRest,
            moves: buffer,
            next: 0,
        }
    }

    /// [countermove] Orders `counter` (if a quiet move) after the killers, before the history.
    pub fn with_counter(mut self, counter: Option<Move>) -> Self {
        self.counter = counter;
        self
    }

    /// [stagedquiets] `None` if this node generated its moves at once (or never); else whether
    /// its quiets were never generated, the work staging saved.
    pub fn staging(&self) -> Option<bool> {
        match self.quiets {
            Quiets::WithTheRest => None,
            Quiets::Pending => Some(true),
            Quiets::Generated => Some(false),
        }
    }

    /// Returns the buffer for reuse by the next node at this ply.
    pub fn into_buffer(self) -> Vec<(Move, i32)> {
        self.moves
    }

    /// The next move, best first. Once the rest is sorted (most calls at all-nodes) a move is
    /// one read, inlined into the caller; the stages before take the call.
    #[inline]
    pub fn next(&mut self, board: &Board, history: Option<&dyn MoveOrder>) -> Option<Move> {
        if self.stage == Stage::Sorted {
            let mv = self.moves.get(self.next)?.0;
            self.next += 1;
            return Some(mv);
        }
        self.next_staged(board, history)
    }

    #[inline(never)]
    fn next_staged(&mut self, board: &Board, history: Option<&dyn MoveOrder>) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::Generate;
                    if let Some(mv) = self.tt_move {
                        if board.is_legal(mv)
                            && (!self.noisy_only
                                || is_noisy(board, mv)
                                || !board.checkers().is_empty())
                        {
                            return Some(mv);
                        }
                        self.tt_move = None;
                    }
                }
                Stage::Generate => {
                    let in_check = !board.checkers().is_empty();
                    let part = if in_check {
                        Part::All
                    } else if self.noisy_only {
                        Part::Noisy
                    } else if self.staged {
                        // [stagedquiets] The quiets wait for the refutations.
                        self.quiets = Quiets::Pending;
                        Part::Noisy
                    } else {
                        Part::All
                    };
                    self.generate(board, history, part);
                    self.stage = Stage::Rest;
                }
                Stage::Sorted => {
                    let mv = self.moves.get(self.next)?.0;
                    self.next += 1;
                    return Some(mv);
                }
                Stage::Rest => {
                    let mut best = self.next;
                    for i in self.next + 1..self.moves.len() {
                        if self.moves[i].1 > self.moves[best].1 {
                            best = i;
                        }
                    }
                    if best < self.moves.len() && self.moves[best].1 >= KILLER {
                        self.moves.swap(self.next, best);
                        let mv = self.moves[self.next].0;
                        self.next += 1;
                        return Some(mv);
                    }
                    if self.quiets == Quiets::Pending {
                        self.stage = Stage::Refutation(0);
                        continue;
                    }
                    // Only quiets and bad captures remain: most of them will be searched
                    // (or pruned in order), so one sort beats a selection per move.
                    self.sort_rest();
                }
                Stage::Refutation(i) => {
                    if i == 3 {
                        // [stagedquiets] Now the quiets, behind the bad captures' band.
                        self.quiets = Quiets::Generated;
                        self.generate(board, history, Part::Quiet);
                        self.sort_rest();
                        continue;
                    }
                    self.stage = Stage::Refutation(i + 1);
                    let candidate = match i {
                        0 => self.killers[0],
                        1 => self.killers[1].filter(|&k| Some(k) != self.killers[0]),
                        _ => self.counter.filter(|&c| !self.killers.contains(&Some(c))),
                    };
                    // A refutation comes from another position: here it may be a capture
                    // (already in the noisy band), the TT move, or not even legal.
                    if let Some(mv) = candidate {
                        if Some(mv) != self.tt_move && !is_noisy(board, mv) && board.is_legal(mv) {
                            return Some(mv);
                        }
                    }
                }
            }
        }
    }

    /// Sorts what is left, best first, and hands it out from then on by the inlined read.
    fn sort_rest(&mut self) {
        self.moves[self.next..].sort_unstable_by_key(|m| std::cmp::Reverse(m.1));
        self.stage = Stage::Sorted;
    }

    /// Generates and scores in one pass: the generator knows each move's piece, so scoring
    /// needs no board lookup for it (that lookup was most of a quiet move's scoring cost).
    /// `Part::Quiet` leaves out the moves the refutation stage already handed out.
    fn generate(&mut self, board: &Board, history: Option<&dyn MoveOrder>, part: Part) {
        let side = board.side_to_move();
        let enemies = board.colors(!side);
        let tt = self.tt_move;
        let (killers, counter, use_see) = (self.killers, self.counter, self.use_see);
        let moves = &mut self.moves;
        // Keep just the target squares the part's moves can have before iterating, instead of
        // building the other part's moves to throw them away. A pawn's move is noisy when it
        // changes file (a capture, en passant too) or reaches the last rank.
        let last_rank = match side {
            Color::White => cozy_chess::Rank::Eighth,
            Color::Black => cozy_chess::Rank::First,
        }
        .bitboard();
        board.generate_moves(|mut pm| {
            let piece = pm.piece;
            let noisy_targets = if piece == Piece::Pawn {
                !pm.from.file().bitboard() | last_rank
            } else {
                enemies
            };
            match part {
                Part::All => {}
                Part::Noisy => pm.to &= noisy_targets,
                Part::Quiet => pm.to &= !noisy_targets,
            }
            for mv in pm {
                if Some(mv) == tt {
                    continue;
                }
                let noisy = mv.promotion.is_some()
                    || enemies.has(mv.to)
                    || (piece == Piece::Pawn && mv.from.file() != mv.to.file());
                let score = if noisy {
                    let victim = captured_piece(board, mv).map_or(0, |p| SEE_VALUE[p as usize]);
                    let promo = mv.promotion.map_or(0, |p| SEE_VALUE[p as usize]);
                    let mvv_lva = 10 * (victim + promo) - piece as i32
                        + history.map_or(0, |h| h.noisy_of(board, piece, mv));
                    // Under-promotions are almost never right: order them with the bad captures.
                    let bad_promo = matches!(mv.promotion, Some(p) if p != Piece::Queen);
                    if bad_promo || (use_see && !see_ge(board, mv, 0)) {
                        BAD_NOISY + mvv_lva
                    } else {
                        GOOD_NOISY + mvv_lva
                    }
                } else if Some(mv) == killers[0] || Some(mv) == killers[1] {
                    if part == Part::Quiet {
                        continue; // handed out by the refutation stage
                    }
                    KILLER + (Some(mv) == killers[0]) as i32
                } else if Some(mv) == counter {
                    if part == Part::Quiet {
                        continue;
                    }
                    // Below the killers, above any history score (bounded far below KILLER).
                    KILLER - 1
                } else {
                    history.map_or(0, |h| h.quiet_of(board, piece, mv))
                };
                moves.push((mv, score));
            }
            false
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picker_orders_tt_then_good_captures_then_killers_then_bad() {
        let b: Board = "4k3/8/2p5/3p4/4n3/5P2/3Q4/4K3 w - - 0 1".parse().unwrap();
        let tt: Move = "e1e2".parse().unwrap();
        let killer: Move = "d2a5".parse().unwrap();
        let opts = |staged| PickerOptions {
            noisy_only: false,
            use_see: true,
            staged,
        };
        for staged in [false, true] {
            let mut p = MovePicker::new(Some(tt), [Some(killer), None], opts(staged), Vec::new());
            let order: Vec<String> = std::iter::from_fn(|| p.next(&b, None))
                .map(|m| m.to_string())
                .collect();
            let mut all = 0;
            b.generate_moves(|pm| {
                all += pm.len();
                false
            });
            assert_eq!(order.len(), all, "every legal move exactly once");
            assert_eq!(order[0], "e1e2");
            assert_eq!(order[1], "f3e4", "the good capture next");
            assert_eq!(order[2], "d2a5", "then the killer");
            assert_eq!(order.last().unwrap(), "d2d5", "the losing capture last");
        }
    }

    /// [stagedquiets] Whatever the refutations are (a quiet legal move, a capture here, the TT
    /// move, an illegal move, each other), the picker hands out every legal move exactly once:
    /// over the bench positions and random games from them, in check and not.
    #[test]
    fn staged_picker_hands_out_every_legal_move_once() {
        let mut rng = crate::eval::nnue::test_support::Rng(0x2545_f491_4f6c_dd1d);
        let mut rand = move |n: usize| (rng.next() % n as u64) as usize;
        let (mut nodes, mut in_check, mut refuted) = (0, 0, 0);
        // Moves from other positions, to serve as killers and countermoves.
        let mut elsewhere: Vec<Move> = vec!["e2e4".parse().unwrap(), "g8f6".parse().unwrap()];
        for fen in crate::bench::positions() {
            let mut board: Board = fen.parse().unwrap();
            for _ in 0..30 {
                let mut legal = Vec::new();
                board.generate_moves(|pm| {
                    legal.extend(pm);
                    false
                });
                if legal.is_empty() {
                    break;
                }
                let pick = |r: &mut dyn FnMut(usize) -> usize| match r(4) {
                    0 => None,
                    1 => Some(legal[r(legal.len())]),
                    _ => Some(elsewhere[r(elsewhere.len())]),
                };
                let tt = pick(&mut rand);
                let killers = [pick(&mut rand), pick(&mut rand)];
                let counter = pick(&mut rand);
                let opts = PickerOptions {
                    noisy_only: false,
                    use_see: true,
                    staged: true,
                };
                let mut p = MovePicker::new(tt, killers, opts, Vec::new()).with_counter(counter);
                let mut order: Vec<Move> = std::iter::from_fn(|| p.next(&board, None)).collect();
                // A legal quiet killer comes right after the good captures, before any
                // history-ordered quiet.
                if let Some(k) = killers[0]
                    .filter(|&k| Some(k) != tt && legal.contains(&k) && !is_noisy(&board, k))
                {
                    let at = order.iter().position(|&m| m == k).unwrap();
                    assert!(
                        order[..at]
                            .iter()
                            .all(|&m| Some(m) == tt || is_noisy(&board, m)),
                        "{board} {k}"
                    );
                    refuted += 1;
                }
                order.sort_by_key(|m| m.to_string());
                legal.sort_by_key(|m| m.to_string());
                assert_eq!(
                    order, legal,
                    "{board} tt {tt:?} killers {killers:?} {counter:?}"
                );
                nodes += 1;
                in_check += !board.checkers().is_empty() as usize;
                let mv = legal[rand(legal.len())];
                elsewhere.push(mv);
                board.play_unchecked(mv);
            }
        }
        assert!(
            nodes > 1_000 && in_check > 10 && refuted > 100,
            "{nodes} {in_check} {refuted}"
        );
    }

    #[test]
    fn noisy_only_generation_is_the_noisy_part_of_the_full_one_in_order() {
        // Promotions (also capturing and under-), en passant, castling (a king move onto its
        // own rook in cozy-chess, not a capture), pawn pushes beside captures, for both sides.
        let fens = [
            "r3k2r/1P4P1/8/3pP3/8/8/p5p1/R3K2R w KQkq d6 0 1",
            "r3k2r/1P4P1/8/8/3pP3/8/p5p1/R3K2R b KQkq e3 0 1",
            "rnbqkb1r/pp3ppp/4pn2/2pp4/3P4/2N1PN2/PPP2PPP/R1BQKB1R w KQkq - 0 5",
            "4k3/8/2p5/3p4/4n3/5P2/3Q4/4K3 w - - 0 1",
            "1r2k3/P7/8/8/8/8/7p/4K1N1 b - - 0 1",
        ];
        for fen in fens {
            let b: Board = fen.parse().unwrap();
            let mut full = Vec::new();
            b.generate_moves(|pm| {
                full.extend(pm.into_iter().filter(|&mv| is_noisy(&b, mv)));
                false
            });
            let opts = PickerOptions {
                noisy_only: true,
                use_see: false,
                staged: false,
            };
            let mut p = MovePicker::new(None, [None, None], opts, Vec::new());
            p.generate(&b, None, Part::Noisy);
            let noisy: Vec<Move> = p.moves.iter().map(|m| m.0).collect();
            assert_eq!(noisy, full, "{fen}");
            assert!(!noisy.is_empty(), "{fen}");
        }
    }
}
