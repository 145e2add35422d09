//! Augur's own evaluation: every term has a middle-game and an endgame weight, blended by the
//! remaining non-pawn material (the phase). Numbers are hand-set and untuned.

use super::passed_span;
use cozy_chess::{BitBoard, Board, Color, File, Piece, Square};

/// A (middle game, endgame) pair.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Score(pub i32, pub i32);

impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::SubAssign for Score {
    fn sub_assign(&mut self, o: Score) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}
impl std::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        Score(self.0 * k, self.1 * k)
    }
}

pub const MATERIAL: [Score; 6] = [
    Score(90, 115),
    Score(325, 305),
    Score(340, 325),
    Score(470, 540),
    Score(990, 1010),
    Score(0, 0),
];
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_MAX: i32 = 24;

const MOBILITY: [Score; 4] = [Score(4, 4), Score(5, 5), Score(2, 4), Score(1, 2)];
const MOBILITY_PIVOT: [i32; 4] = [4, 6, 6, 12];
const DOUBLED: Score = Score(-10, -20);
const ISOLATED: Score = Score(-12, -10);
const PASSED_MG: [i32; 8] = [0, 5, 8, 14, 28, 50, 80, 0];
const PASSED_EG: [i32; 8] = [0, 10, 16, 30, 55, 95, 150, 0];
const BISHOP_PAIR: Score = Score(30, 50);
const ROOK_OPEN: Score = Score(22, 8);
const ROOK_SEMI_OPEN: Score = Score(10, 6);
const SHIELD_PAWN: i32 = 10;
const KING_ATTACK_UNIT: [i32; 6] = [0, 2, 2, 3, 5, 0];
const TEMPO: i32 = 10;

/// Piece-square tables from each side's own point of view, built once from `psq_formula`.
fn psq_table() -> &'static [[Score; 64]; 6] {
    static TABLE: std::sync::OnceLock<[[Score; 64]; 6]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[Score::default(); 64]; 6];
        for p in Piece::ALL {
            for sq in Square::ALL {
                t[p as usize][sq as usize] = psq_formula(p, sq);
            }
        }
        t
    })
}

/// Piece-square bonus from the side's own point of view (rank 0 is its back rank).
fn psq_formula(piece: Piece, sq: Square) -> Score {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    // Distance to the four centre squares, 0 (centre) to 6 (corner).
    let cd = (2 * f - 7).abs() / 2 + (2 * r - 7).abs() / 2;
    let centre = 6 - cd;
    match piece {
        Piece::Pawn => {
            let file_bonus = if (3..=4).contains(&f) { 6 } else { 0 };
            Score(
                3 * (r - 1) + file_bonus * (r.clamp(1, 4) - 1) / 2,
                8 * (r - 1),
            )
        }
        Piece::Knight => Score(6 * centre - 18, 5 * centre - 15),
        Piece::Bishop => Score(3 * centre - 8 + if r == 0 { -8 } else { 0 }, 3 * centre - 9),
        Piece::Rook => Score(
            if r == 6 { 15 } else { 0 } + if (2..=5).contains(&f) { 4 } else { 0 },
            0,
        ),
        Piece::Queen => Score(centre - 3, 3 * centre - 9),
        Piece::King => {
            let mg = match (r, f) {
                (0, 0..=2) | (0, 6..=7) => 20,
                (0, _) => 0,
                (1, _) => -10,
                _ => -25 - 5 * r,
            };
            Score(mg, 8 * centre - 24)
        }
    }
}

pub fn evaluate_white(board: &Board) -> i32 {
    let occ = board.occupied();
    let att = [
        attacks_by_pawns(board, Color::White),
        attacks_by_pawns(board, Color::Black),
    ];
    let mut s = side(board, Color::White, occ, &att);
    s -= side(board, Color::Black, occ, &att);

    let mut phase = 0;
    for p in Piece::ALL {
        phase += PHASE_WEIGHT[p as usize] * board.pieces(p).len() as i32;
    }
    let phase = phase.min(PHASE_MAX);
    let blended = (s.0 * phase + s.1 * (PHASE_MAX - phase)) / PHASE_MAX;
    let tempo = if board.side_to_move() == Color::White {
        TEMPO
    } else {
        -TEMPO
    };
    scale_for_drawishness(board, blended + tempo)
}

fn attacks_by_pawns(board: &Board, c: Color) -> BitBoard {
    let mut a = BitBoard::EMPTY;
    for sq in board.colored_pieces(c, Piece::Pawn) {
        a |= cozy_chess::get_pawn_attacks(sq, c);
    }
    a
}

fn side(board: &Board, us: Color, occ: BitBoard, pawn_att: &[BitBoard; 2]) -> Score {
    let them = !us;
    let mut s = Score::default();
    let own = board.colors(us);
    let safe = !own & !pawn_att[them as usize];
    let enemy_king = board.king(them);
    let king_zone = cozy_chess::get_king_moves(enemy_king) | enemy_king.bitboard();
    let mut attack_units = 0;
    let mut attackers = 0;

    let psq = psq_table();
    for p in Piece::ALL {
        for sq in board.colored_pieces(us, p) {
            s += MATERIAL[p as usize];
            s += psq[p as usize][sq.relative_to(us) as usize];
            let reach = match p {
                Piece::Knight => cozy_chess::get_knight_moves(sq),
                Piece::Bishop => cozy_chess::get_bishop_moves(sq, occ),
                Piece::Rook => cozy_chess::get_rook_moves(sq, occ),
                Piece::Queen => {
                    cozy_chess::get_bishop_moves(sq, occ) | cozy_chess::get_rook_moves(sq, occ)
                }
                _ => continue,
            };
            let i = p as usize - 1;
            s += MOBILITY[i] * ((reach & safe).len() as i32 - MOBILITY_PIVOT[i]);
            let hits = (reach & king_zone).len() as i32;
            if hits > 0 {
                attackers += 1;
                attack_units += hits * KING_ATTACK_UNIT[p as usize];
            }
        }
    }

    // King safety: attacks on the enemy king zone count only with two or more attackers,
    // and grow faster than linearly because coordinated attacks are what break a king.
    if attackers >= 2 {
        let u = attack_units.min(40);
        s += Score(u * u / 4, u / 2);
    }

    let pawns = board.colored_pieces(us, Piece::Pawn);
    let their_pawns = board.colored_pieces(them, Piece::Pawn);
    for f in File::ALL {
        let on_file = (pawns & f.bitboard()).len() as i32;
        if on_file == 0 {
            continue;
        }
        if on_file > 1 {
            s += DOUBLED * (on_file - 1);
        }
        if (pawns & f.adjacent()).is_empty() {
            s += ISOLATED * on_file;
        }
    }
    for sq in pawns {
        if (passed_span(sq, us) & their_pawns).is_empty() {
            let r = sq.relative_to(us).rank() as usize;
            let mut eg = PASSED_EG[r];
            // A passer the enemy king cannot catch is worth more; one it blocks, less.
            let front = sq.file().bitboard() & passed_span(sq, us);
            if (front & occ).is_empty() {
                eg += eg / 4;
            }
            s += Score(PASSED_MG[r], eg);
        }
    }

    if board.colored_pieces(us, Piece::Bishop).len() >= 2 {
        s += BISHOP_PAIR;
    }
    for sq in board.colored_pieces(us, Piece::Rook) {
        let file = sq.file().bitboard();
        if (file & pawns).is_empty() {
            s += if (file & their_pawns).is_empty() {
                ROOK_OPEN
            } else {
                ROOK_SEMI_OPEN
            };
        }
    }

    // Pawn shield in front of a king on its first two ranks.
    let king = board.king(us);
    let kr = king.relative_to(us).rank() as i32;
    if kr <= 1 {
        let files = king.file().bitboard() | king.file().adjacent();
        let shield = files & passed_span(king, us) & pawns;
        let close = shield
            .iter()
            .filter(|p| (p.rank() as i32 - king.rank() as i32).abs() <= 2)
            .count();
        s += Score(SHIELD_PAWN * close.min(3) as i32, 0);
    }
    s
}

/// Endings without pawns where the stronger side has at most a minor piece more cannot be
/// won; scale them down so the search prefers real winning chances.
fn scale_for_drawishness(board: &Board, score: i32) -> i32 {
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    if !board.colored_pieces(strong, Piece::Pawn).is_empty() {
        return score;
    }
    let mat = |c: Color| {
        [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
            .iter()
            .map(|&p| MATERIAL[p as usize].1 * board.colored_pieces(c, p).len() as i32)
            .sum::<i32>()
    };
    if mat(strong) - mat(!strong) <= MATERIAL[Piece::Bishop as usize].1
        && mat(strong) < 2 * MATERIAL[Piece::Rook as usize].1
    {
        score / 8
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_material_is_good_and_start_is_near_zero() {
        let start = evaluate_white(&Board::default());
        assert!(start.abs() <= 20, "{start}");
        let up_knight: Board = "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            .parse()
            .unwrap();
        assert!(evaluate_white(&up_knight) > 200);
        // Bare minor piece advantage is scaled down as a likely draw.
        let kbk: Board = "8/8/4k3/8/8/2B5/8/K7 w - - 0 1".parse().unwrap();
        assert!(evaluate_white(&kbk) < 60);
    }
}
