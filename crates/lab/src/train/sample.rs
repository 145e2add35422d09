//! One training position: the side to move's active features, its search score and the game
//! result, both from the side to move's view. Everything the trainer reads becomes this.

use augur::eval::nnue::{feature, INPUTS};
use cozy_chess::{Board, Color, Piece};

/// Game result from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wdl {
    Loss,
    Draw,
    Win,
}

impl Wdl {
    pub fn value(self) -> f32 {
        match self {
            Wdl::Loss => 0.0,
            Wdl::Draw => 0.5,
            Wdl::Win => 1.0,
        }
    }
}

/// At most 32 pieces; unused feature slots are left at 0 and not read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Input indices from the side to move's perspective; the other perspective's are
    /// [`augur::eval::nnue::flip_feature`] of these.
    pub features: [u16; 32],
    pub count: u8,
    /// Search score, centipawns, side to move.
    pub score: i16,
    pub result: Wdl,
}

impl Sample {
    /// The sample of `board` with a side-to-move score and result. `None` for a board with
    /// more than 32 pieces (impossible in chess, possible in a hand-made FEN).
    pub fn from_board(board: &Board, score: i16, result: Wdl) -> Option<Sample> {
        let stm = board.side_to_move();
        let mut s = Sample {
            features: [0; 32],
            count: 0,
            score,
            result,
        };
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                for sq in board.colored_pieces(color, piece) {
                    if s.count as usize == s.features.len() {
                        return None;
                    }
                    let f = feature(stm, color, piece, sq);
                    debug_assert!(f < INPUTS);
                    s.features[s.count as usize] = f as u16;
                    s.count += 1;
                }
            }
        }
        Some(s)
    }

    #[inline]
    pub fn active(&self) -> &[u16] {
        &self.features[..self.count as usize]
    }
}

/// Positions with a known target for tests: random legal games from the start position,
/// labelled with the material balance (P1 N3 B3 R5 Q9, ×100 cp) for the side to move, the
/// result being the sign of it. A network can fit this exactly in principle.
pub fn material_samples(n: usize, seed: u64) -> Vec<Sample> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n);
    let mut board = Board::default();
    let mut ply = 0;
    while out.len() < n {
        let mut moves = Vec::new();
        board.generate_moves(|pm| {
            moves.extend(pm);
            false
        });
        if moves.is_empty() || ply > 160 {
            board = Board::default();
            ply = 0;
            continue;
        }
        board.play_unchecked(moves[rng.random_range(0..moves.len())]);
        ply += 1;
        // Skip the opening plies, where material hardly differs.
        if ply < 6 {
            continue;
        }
        let stm = board.side_to_move();
        let material = |c: Color| -> i32 {
            [
                (Piece::Pawn, 1),
                (Piece::Knight, 3),
                (Piece::Bishop, 3),
                (Piece::Rook, 5),
                (Piece::Queen, 9),
            ]
            .iter()
            .map(|&(p, v)| v * board.colored_pieces(c, p).len() as i32)
            .sum()
        };
        let cp = 100 * (material(stm) - material(!stm));
        let result = match cp.signum() {
            1 => Wdl::Win,
            -1 => Wdl::Loss,
            _ => Wdl::Draw,
        };
        out.extend(Sample::from_board(
            &board,
            cp.clamp(-3000, 3000) as i16,
            result,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use augur::eval::nnue::flip_feature;

    #[test]
    fn features_are_the_side_to_moves_view() {
        let white: Board = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".parse().unwrap();
        let black: Board = "4k3/4p3/8/8/8/8/8/4K3 b - - 0 1".parse().unwrap();
        let a = Sample::from_board(&white, 50, Wdl::Win).unwrap();
        let b = Sample::from_board(&black, 50, Wdl::Win).unwrap();
        let mut fa: Vec<u16> = a.active().to_vec();
        let mut fb: Vec<u16> = b.active().to_vec();
        fa.sort();
        fb.sort();
        // The mirrored position from the other side's view has the same features.
        assert_eq!(fa, fb);
        assert_eq!(a.count, 3);
        let other: Vec<usize> = a
            .active()
            .iter()
            .map(|&f| flip_feature(f as usize))
            .collect();
        assert!(other.iter().all(|&f| f < INPUTS));
    }

    #[test]
    fn material_samples_are_labelled_by_material() {
        let s = material_samples(500, 3);
        assert_eq!(s.len(), 500);
        assert!(s.iter().any(|s| s.score != 0));
        for x in &s {
            assert_eq!(x.result == Wdl::Win, x.score > 0);
        }
    }
}
