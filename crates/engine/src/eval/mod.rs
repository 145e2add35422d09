//! Static evaluation. Three functions, chosen with the UCI option `Eval`:
//! `nnue` (the default) is the network (`eval::nnue`, the embedded one unless `EvalFile` names
//! another), `hce` (or `default`, its name before the network passed its gate) is Augur's own
//! tapered, hand-written evaluation, `classic` the SPP thesis's feature table (section 4.2).
//! All return centipawns from the side to move's point of view.

pub mod classic;
pub mod nnue;
pub mod tapered;

use crate::position::Position;
use cozy_chess::{BitBoard, Board, Color, Piece, Square};
use nnue::Network;

crate::options::types::choice! {
    /// The evaluation function, chosen with the UCI option `Eval`; its default is the search
    /// table's (`search::config`), the one home of every option's default.
    pub enum EvalKind("evaluation") {
        /// The hand-written evaluation. `default` stays an alias: it was this one's name while
        /// it was the default, and the lab's older scripts and records say it.
        Hce = "hce" | "default",
        Classic = "classic",
        Nnue = "nnue",
    }
}

/// Evaluation of `pos` for the side to move. With `nnue`, the position's own accumulators if
/// a network rides on it (`Position::attach_nnue`), else a full computation with `network`
/// (the engine's own: each engine holds its network in its settings). `king_safety` is the
/// `KingSafety` percent of the hand-written evaluation's king-safety terms; the other
/// evaluations ignore it.
#[inline]
pub fn evaluate(pos: &Position, kind: EvalKind, network: &Network, king_safety: i32) -> i32 {
    if kind == EvalKind::Nnue {
        if let Some(v) = pos.nnue_eval() {
            return v;
        }
    }
    evaluate_board(pos.board(), kind, network, king_safety)
}

/// `evaluate`, with the hand-written evaluation's pawn-and-king terms taken from a search
/// thread's `cache` ([pawncache]); the same score, sooner.
#[inline]
pub fn evaluate_cached(
    pos: &Position,
    kind: EvalKind,
    network: &Network,
    king_safety: i32,
    cache: &mut tapered::PawnCache,
) -> i32 {
    if kind != EvalKind::Hce {
        return evaluate(pos, kind, network, king_safety);
    }
    let board = pos.board();
    let white = tapered::evaluate_white_cached(board, cache, king_safety);
    if board.side_to_move() == Color::White {
        white
    } else {
        -white
    }
}

#[inline]
pub fn evaluate_board(board: &Board, kind: EvalKind, network: &Network, king_safety: i32) -> i32 {
    let white = match kind {
        EvalKind::Classic => classic::evaluate_white(board),
        EvalKind::Hce => tapered::evaluate_white_scaled(board, king_safety),
        EvalKind::Nnue => return nnue::evaluate_board(network, board),
    };
    if board.side_to_move() == Color::White {
        white
    } else {
        -white
    }
}

/// Every square attacked by `color`'s pieces, with `occupied` as the blockers.
pub fn attacks_by(board: &Board, color: Color, occupied: BitBoard) -> BitBoard {
    let mut att = BitBoard::EMPTY;
    for sq in board.colored_pieces(color, Piece::Pawn) {
        att |= cozy_chess::get_pawn_attacks(sq, color);
    }
    for sq in board.colored_pieces(color, Piece::Knight) {
        att |= cozy_chess::get_knight_moves(sq);
    }
    let diag =
        board.colored_pieces(color, Piece::Bishop) | board.colored_pieces(color, Piece::Queen);
    for sq in diag {
        att |= cozy_chess::get_bishop_moves(sq, occupied);
    }
    let orth = board.colored_pieces(color, Piece::Rook) | board.colored_pieces(color, Piece::Queen);
    for sq in orth {
        att |= cozy_chess::get_rook_moves(sq, occupied);
    }
    att |= cozy_chess::get_king_moves(board.king(color));
    att
}

/// Squares in front of a pawn on its own and the adjacent files: if no enemy pawn stands
/// there, the pawn is passed.
pub fn passed_span(sq: Square, color: Color) -> BitBoard {
    let files = sq.file().bitboard() | sq.file().adjacent();
    let rank = sq.rank() as u32;
    let ahead: u64 = match color {
        Color::White => {
            if rank >= 7 {
                0
            } else {
                !0u64 << ((rank + 1) * 8)
            }
        }
        Color::Black => (1u64 << (rank * 8)) - 1,
    };
    files & BitBoard(ahead)
}

/// Crafty's game stage: the endgame starts when both sides' weighted non-pawn material
/// (Q=9, R=5, B=N=3) is below 15.
pub fn is_endgame_stage(board: &Board) -> bool {
    [Color::White, Color::Black]
        .iter()
        .all(|&c| non_pawn_weight(board, c) < 15)
}

pub fn non_pawn_weight(board: &Board, color: Color) -> u32 {
    let n = |p| board.colored_pieces(color, p).len();
    9 * n(Piece::Queen) + 5 * n(Piece::Rook) + 3 * (n(Piece::Bishop) + n(Piece::Knight))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mirror(fen: &str) -> Position {
        // Flip ranks, swap colours and side to move; castling and en passant dropped.
        let mut parts = fen.split_whitespace();
        let board = parts.next().unwrap();
        let side = parts.next().unwrap();
        let rows: Vec<String> = board
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if side == "w" { "b" } else { "w" };
        Position::from_fen(&format!("{} {} - - 0 1", rows.join("/"), side), false).unwrap()
    }

    #[test]
    fn both_evaluations_are_colour_symmetric() {
        let fens = [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w - - 2 3",
            "2r3k1/pp3ppp/2n5/3p4/3P4/2P2N2/PP3PPP/4R1K1 b - - 0 20",
            "8/8/4k3/8/8/2B5/1N6/K7 w - - 0 1",
            "8/5pk1/6p1/8/3P4/8/5K2/8 w - - 0 40",
        ];
        let net = nnue::default_network();
        for fen in fens {
            let p = Position::from_fen(fen, false).unwrap();
            let m = mirror(fen);
            for kind in [EvalKind::Classic, EvalKind::Hce, EvalKind::Nnue] {
                for ks in [0, 75, 100, 125, 200] {
                    assert_eq!(
                        evaluate(&p, kind, &net, ks),
                        evaluate(&m, kind, &net, ks),
                        "{kind} {fen} KingSafety {ks}"
                    );
                }
            }
        }
    }

    #[test]
    fn crafty_stage_boundary() {
        let b: Board = "4k3/8/8/8/8/8/8/R2QK3 w - - 0 1".parse().unwrap();
        assert!(is_endgame_stage(&b)); // 14 vs 0
        let b: Board = "4k3/8/8/8/8/8/8/R1RQK3 w - - 0 1".parse().unwrap();
        assert!(!is_endgame_stage(&b));
        assert_eq!(non_pawn_weight(&b, Color::White), 19);
    }
}
