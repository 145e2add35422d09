//! One training position: the side to move's active features, its search score and the game
//! result, both from the side to move's view. Everything the trainer reads becomes this.

use augur::eval::nnue::{feature, INPUTS};
use cozy_chess::{Board, Color, Piece, Square};

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
pub struct TrainingPosition {
    /// Input indices from the side to move's perspective; the other perspective's are
    /// [`augur::eval::nnue::flip_feature`] of these.
    pub features: [u16; 32],
    pub count: u8,
    /// Search score, centipawns, side to move.
    pub score: i16,
    pub result: Wdl,
}

impl TrainingPosition {
    /// The sample of `board` with a side-to-move score and result. `None` for a board with
    /// more than 32 pieces (impossible in chess, possible in a hand-made FEN).
    pub fn from_board(board: &Board, score: i16, result: Wdl) -> Option<TrainingPosition> {
        let stm = board.side_to_move();
        let mut s = TrainingPosition {
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

    /// [train-mirror] The same position mirrored left to right (file a <-> h): square ^ 7 in
    /// every input index, same score and result.
    pub fn mirrored(&self) -> TrainingPosition {
        let mut m = *self;
        for f in &mut m.features[..m.count as usize] {
            *f ^= 7;
        }
        m
    }

    #[inline]
    pub fn active(&self) -> &[u16] {
        &self.features[..self.count as usize]
    }

    /// [nnue-kings] The side to move's king and the other king, as squares of the side to
    /// move's view (the features' squares); a1 where a hand-made sample has none.
    pub fn king_squares(&self) -> [Square; 2] {
        let mut kings = [Square::A1; 2];
        for &f in self.active() {
            let f = f as usize;
            if f % 384 / 64 == Piece::King as usize {
                kings[f / 384] = Square::index(f % 64);
            }
        }
        kings
    }
}

/// Positions with a known target for tests: random legal games from the start position,
/// labelled with the material balance (P1 N3 B3 R5 Q9, ×100 cp) for the side to move, the
/// result being the sign of it. A network can fit this exactly in principle.
pub fn material_samples(n: usize, seed: u64) -> Vec<TrainingPosition> {
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
        let material = |c: Color| augur::search::wdl::side_material(&board, c) as i32;
        let cp = 100 * (material(stm) - material(!stm));
        let result = match cp.signum() {
            1 => Wdl::Win,
            -1 => Wdl::Loss,
            _ => Wdl::Draw,
        };
        out.extend(TrainingPosition::from_board(
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
        let a = TrainingPosition::from_board(&white, 50, Wdl::Win).unwrap();
        let b = TrainingPosition::from_board(&black, 50, Wdl::Win).unwrap();
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

    /// [train-mirror] A sample mirrored has the features of the board mirrored left to right
    /// (the FEN's ranks reversed), for either side to move.
    #[test]
    fn a_mirrored_sample_is_the_mirrored_board() {
        let fens = [
            "r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R2QKB1R w KQkq - 0 8",
            "4k3/1p4p1/8/3P4/8/6N1/P4K2/8 b - - 0 40",
        ];
        for fen in fens {
            let (board, rest) = fen.split_once(' ').unwrap();
            let flipped: Vec<String> = board
                .split('/')
                .map(|rank| rank.chars().rev().collect())
                .collect();
            let side = rest.split(' ').next().unwrap();
            let mirror_fen = format!("{} {side} - - 0 1", flipped.join("/"));
            let a = TrainingPosition::from_board(&fen.parse().unwrap(), 33, Wdl::Loss).unwrap();
            let b =
                TrainingPosition::from_board(&mirror_fen.parse().unwrap(), 33, Wdl::Loss).unwrap();
            let mut fa = a.mirrored().active().to_vec();
            let mut fb = b.active().to_vec();
            fa.sort();
            fb.sort();
            assert_eq!(fa, fb, "{fen}");
            assert_ne!(a.active(), a.mirrored().active());
            assert_eq!((a.mirrored().score, a.mirrored().result), (33, Wdl::Loss));
            assert_eq!(a.mirrored().mirrored(), a);
        }
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
