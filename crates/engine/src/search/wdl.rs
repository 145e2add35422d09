//! What a score means as a game result: win, draw and loss probabilities from the search score
//! and the material on the board, for `UCI_ShowWDL` (`info ... wdl W D L`, per mille).
//!
//! The model is Stockfish's form, fitted on Augur's own games (`augur-lab wdl`, docs/wdl.md):
//! with `a` and `b` cubic polynomials in the material m (pawn 1, minor 3, rook 5, queen 9; both
//! sides, clamped to 17..=78) over 58,
//! `win = 1 / (1 + exp((a - s) / b))`, `loss = 1 / (1 + exp((a + s) / b))`, `draw` the rest,
//! for a score `s` in centipawns from the side to move. `a` is the score at which a win is as
//! likely as not; `b` how quickly the odds move with the score.

use super::score::is_mate;
use cozy_chess::{Board, Color, Piece};

mod fitted {
    include!("wdl_params.rs");
}

/// The fitted polynomials' coefficients, highest power first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    pub a: [f64; 4],
    pub b: [f64; 4],
}

/// The model fitted on Augur's games (`wdl_params.rs`, written by `augur-lab wdl`).
pub const FITTED: WdlModel = WdlModel {
    a: fitted::A,
    b: fitted::B,
};

/// The conventional material count of one side: pawn 1, knight and bishop 3, rook 5, queen 9.
pub fn side_material(board: &Board, side: Color) -> u32 {
    [
        (Piece::Pawn, 1),
        (Piece::Knight, 3),
        (Piece::Bishop, 3),
        (Piece::Rook, 5),
        (Piece::Queen, 9),
    ]
    .iter()
    .map(|&(p, v)| board.colored_pieces(side, p).len() * v)
    .sum()
}

/// The material the model counts: both sides'.
pub fn material(board: &Board) -> u32 {
    side_material(board, Color::White) + side_material(board, Color::Black)
}

impl WdlModel {
    /// `a` and `b` at a material count.
    pub fn params(&self, material: u32) -> (f64, f64) {
        let x = f64::from(material.clamp(17, 78)) / 58.0;
        let poly = |c: &[f64; 4]| ((c[0] * x + c[1]) * x + c[2]) * x + c[3];
        (poly(&self.a), poly(&self.b).max(1.0))
    }

    /// Win, draw and loss per mille for `score` (side to move), summing to 1000.
    pub fn wdl(&self, score: i32, material: u32) -> (u32, u32, u32) {
        if is_mate(score) {
            return if score > 0 {
                (1000, 0, 0)
            } else {
                (0, 0, 1000)
            };
        }
        let (a, b) = self.params(material);
        let s = f64::from(score);
        let win = 1000.0 / (1.0 + ((a - s) / b).exp());
        let loss = 1000.0 / (1.0 + ((a + s) / b).exp());
        // Rounded, and the loss kept within what the win leaves, so the three sum to 1000.
        let w = (win.round() as u32).min(1000);
        let l = (loss.round() as u32).min(1000 - w);
        (w, 1000 - w - l, l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn per_mille_that_sum_to_a_thousand_and_move_with_the_score() {
        let m = FITTED;
        let mut last_win = 0;
        for score in (-1500..=1500).step_by(25) {
            for material in [4, 17, 40, 58, 78, 90] {
                let (w, d, l) = m.wdl(score, material);
                assert_eq!(w + d + l, 1000, "{score} {material}");
            }
            let (w, _, _) = m.wdl(score, 58);
            assert!(w >= last_win, "win falls at {score}");
            last_win = w;
        }
        let (w, d, l) = m.wdl(0, 58);
        assert_eq!(w, l, "a level score is symmetric");
        assert!(d > 0);
        assert_eq!(m.wdl(MATE - 3, 30), (1000, 0, 0));
        assert_eq!(m.wdl(-MATE + 4, 30), (0, 0, 1000));
    }

    #[test]
    fn material_counts_both_sides() {
        assert_eq!(material(&Board::default()), 78);
        let kqk: Board = "8/8/8/4k3/8/8/3QK3/8 w - - 0 1".parse().unwrap();
        assert_eq!(material(&kqk), 9);
    }
}
