//! The tuner's view of one position: how many times each weight counts for white minus
//! black, plus what the evaluation does after the weighted sum (phase blend, tempo, the
//! drawish-ending scale). `Trace::evaluate` with the engine's weights equals
//! `evaluate_white` exactly; with other weights it is what the engine would say with them.

use super::layout::{COUNT, TEMPO};
use super::{blend, is_drawish, scale_drawish, stronger_side, terms, Score, Sink};
use cozy_chess::{Board, Color};

/// The tuner's sink: a dense count per weight, white minus black.
struct Counts([i32; COUNT]);

impl Sink for Counts {
    #[inline]
    fn add(&mut self, us: Color, index: usize, count: i32) {
        self.0[index] += if us == Color::White { count } else { -count };
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// `(flat index, white − black count)` of every weight that does not cancel out, in
    /// index order; the tempo is among them (+1 white to move, −1 black).
    pub coeffs: Vec<(u16, i16)>,
    /// 0 (pawns and kings only) to `PHASE_MAX`.
    pub phase: i32,
    /// Whether the score is scaled down as a drawish ending when white (index 0) or black
    /// (index 1) is the stronger side.
    pub drawish: [bool; 2],
}

impl Trace {
    pub fn of(board: &Board) -> Trace {
        let mut counts = Counts([0; COUNT]);
        let phase = terms(board, &mut counts);
        counts.add(board.side_to_move(), TEMPO, 1);
        let coeffs = counts
            .0
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0)
            .map(|(i, &c)| (i as u16, c as i16))
            .collect();
        Trace {
            coeffs,
            phase,
            drawish: [
                is_drawish(board, Color::White),
                is_drawish(board, Color::Black),
            ],
        }
    }

    /// The evaluation (white's view) with `weights`, with the engine's integer arithmetic.
    pub fn evaluate(&self, weights: &[Score; COUNT]) -> i32 {
        let mut sum = Score::default();
        let mut tempo = Score::default();
        for &(i, c) in &self.coeffs {
            let term = weights[i as usize] * c as i32;
            if i as usize == TEMPO {
                tempo += term;
            } else {
                sum += term;
            }
        }
        let score = blend(sum, self.phase) + blend(tempo, self.phase);
        if self.drawish[stronger_side(score) as usize] {
            scale_drawish(score)
        } else {
            score
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{evaluate_white, layout::WEIGHTS};
    use super::*;
    use crate::position::Position;

    /// The bench positions and positions reached from them by seeded random play: openings,
    /// middle games, endings, positions in check, promotions.
    fn positions() -> Vec<Board> {
        let mut out = Vec::new();
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for fen in crate::bench::positions() {
            let mut pos = Position::from_fen(fen, false).unwrap();
            out.push(pos.board().clone());
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                pos.make(moves[(rng % moves.len() as u64) as usize]);
                out.push(pos.board().clone());
            }
        }
        out.push("8/8/4k3/8/8/2B5/8/K7 w - - 0 1".parse().unwrap());
        out.push("8/8/4k3/8/8/2B5/8/K7 b - - 0 1".parse().unwrap());
        out.push("8/8/4k3/8/8/2b5/8/K7 w - - 0 1".parse().unwrap());
        out
    }

    #[test]
    fn trace_times_weights_is_the_engine_evaluation() {
        let boards = positions();
        assert!(boards.len() > 2000, "{}", boards.len());
        let mut drawish = 0;
        for b in &boards {
            let t = Trace::of(b);
            assert_eq!(t.evaluate(&WEIGHTS), evaluate_white(b), "{b}");
            drawish += t.drawish.iter().filter(|&&d| d).count();
        }
        assert!(drawish > 0, "no position exercised the drawish scale");
    }

    /// The same decomposition with arbitrary weights: a sink that adds these weights
    /// directly must agree with trace × weights, so the trace is linear in every weight
    /// (counts net of both sides, nothing folded in from the compiled-in values).
    #[test]
    fn trace_is_linear_in_arbitrary_weights() {
        struct Direct<'a>(&'a [Score; COUNT], [Score; 2]);
        impl Sink for Direct<'_> {
            fn add(&mut self, us: Color, index: usize, count: i32) {
                self.1[us as usize] += self.0[index] * count;
            }
        }
        let mut rng = 12345u64;
        let mut weights = [Score::default(); COUNT];
        for w in weights.iter_mut() {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *w = Score(
                (rng >> 33) as i32 % 301 - 150,
                (rng >> 45) as i32 % 301 - 150,
            );
        }
        for b in positions() {
            let mut direct = Direct(&weights, [Score::default(); 2]);
            let phase = terms(&b, &mut direct);
            let tempo = if b.side_to_move() == Color::White {
                weights[TEMPO]
            } else {
                weights[TEMPO] * -1
            };
            let score = blend(direct.1[0] - direct.1[1], phase) + blend(tempo, phase);
            let strong = stronger_side(score);
            let expect = if is_drawish(&b, strong) {
                scale_drawish(score)
            } else {
                score
            };
            assert_eq!(Trace::of(&b).evaluate(&weights), expect, "{b}");
        }
    }
}
