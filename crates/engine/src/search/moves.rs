//! What the search knows of a move before it plays it: noisy or quiet, the piece it takes
//! (en passant too), castling, whether it gives check (`gives_check`, and `CheckInfo` for the
//! many moves of one node), and static exchange evaluation (`see_ge`). The picker, the
//! pruning rules, quiescence and the textbook algorithms all ask here.

use cozy_chess::{BitBoard, Board, Color, Move, Piece, Square};

/// Piece values of static exchange evaluation (and MVV-LVA): pawn, knight, bishop, rook,
/// queen, king.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20000];

/// Castling: cozy-chess writes it as the king taking its own rook.
#[inline]
pub fn is_castle(board: &Board, mv: Move) -> bool {
    board.colors(board.side_to_move()).has(mv.to)
}

/// The piece `mv` takes, the pawn beside it for en passant.
#[inline]
pub fn captured_piece(board: &Board, mv: Move) -> Option<Piece> {
    if board.colors(!board.side_to_move()).has(mv.to) {
        return board.piece_on(mv.to);
    }
    if board.piece_on(mv.from) == Some(Piece::Pawn) && mv.from.file() != mv.to.file() {
        return Some(Piece::Pawn); // en passant
    }
    None
}

/// A pawn moving diagonally to an empty square: it takes the pawn beside it.
#[inline]
pub fn is_en_passant(board: &Board, mv: Move) -> bool {
    mv.from.file() != mv.to.file()
        && !board.occupied().has(mv.to)
        && board.pieces(Piece::Pawn).has(mv.from)
}

/// Captures and promotions are "noisy"; everything else is quiet.
#[inline]
pub fn is_noisy(board: &Board, mv: Move) -> bool {
    mv.promotion.is_some() || captured_piece(board, mv).is_some()
}

fn attackers_to(board: &Board, sq: Square, occ: BitBoard) -> BitBoard {
    let rooks = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let bishops = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    (cozy_chess::get_pawn_attacks(sq, Color::White)
        & board.colored_pieces(Color::Black, Piece::Pawn))
        | (cozy_chess::get_pawn_attacks(sq, Color::Black)
            & board.colored_pieces(Color::White, Piece::Pawn))
        | (cozy_chess::get_knight_moves(sq) & board.pieces(Piece::Knight))
        | (cozy_chess::get_king_moves(sq) & board.pieces(Piece::King))
        | (cozy_chess::get_rook_moves(sq, occ) & rooks)
        | (cozy_chess::get_bishop_moves(sq, occ) & bishops)
}

/// Whether the legal move `mv` checks the opponent: the pruning rules keep such moves, whose
/// value their estimates (eval margins, histories, sibling scores) do not see, and the
/// textbook algorithms extend them at the last ply.
///
/// Asked for every pruned move, so it reads the attacks from the board instead of playing the
/// move on a copy (that copy was 5% of the search's instructions); castling and en passant,
/// where a second man moves or a third square empties, are played out.
pub fn gives_check(board: &Board, mv: Move) -> bool {
    let us = board.side_to_move();
    let Some(piece) = board.piece_on(mv.from) else {
        return false;
    };
    if is_castle(board, mv) || is_en_passant(board, mv) {
        return checks_when_played(board, mv);
    }
    let king = board.king(!us);
    let occ = (board.occupied() ^ mv.from.bitboard()) | mv.to.bitboard();
    // Direct: the moved (or promoted) piece attacks the king from its new square.
    let direct = match mv.promotion.unwrap_or(piece) {
        Piece::Pawn => cozy_chess::get_pawn_attacks(mv.to, us).has(king),
        Piece::Knight => cozy_chess::get_knight_moves(mv.to).has(king),
        Piece::Bishop => cozy_chess::get_bishop_moves(mv.to, occ).has(king),
        Piece::Rook => cozy_chess::get_rook_moves(mv.to, occ).has(king),
        Piece::Queen => (cozy_chess::get_bishop_moves(mv.to, occ)
            | cozy_chess::get_rook_moves(mv.to, occ))
        .has(king),
        Piece::King => false,
    };
    // Discovered: one of our other sliders now sees the king through the emptied square.
    let others = board.colors(us) ^ mv.from.bitboard();
    let diagonal = (board.pieces(Piece::Bishop) | board.pieces(Piece::Queen)) & others;
    let straight = (board.pieces(Piece::Rook) | board.pieces(Piece::Queen)) & others;
    direct
        || !(cozy_chess::get_bishop_moves(king, occ) & diagonal).is_empty()
        || !(cozy_chess::get_rook_moves(king, occ) & straight).is_empty()
}

/// What `gives_check` needs to know of a node, computed once for all its moves: the squares
/// from which each of our piece kinds would attack the enemy king, and our men that stand
/// alone between one of our sliders and that king (moving off the line discovers check).
/// The pruning rules ask about many moves of one node; this answers each with a few bit tests.
pub struct CheckInfo {
    king: Square,
    squares: [BitBoard; 6],
    discoverers: BitBoard,
}

impl CheckInfo {
    pub fn new(board: &Board) -> CheckInfo {
        let us = board.side_to_move();
        let king = board.king(!us);
        let occ = board.occupied();
        let ours = board.colors(us);
        let bishop = cozy_chess::get_bishop_moves(king, occ);
        let rook = cozy_chess::get_rook_moves(king, occ);
        let diagonal = (board.pieces(Piece::Bishop) | board.pieces(Piece::Queen)) & ours;
        let straight = (board.pieces(Piece::Rook) | board.pieces(Piece::Queen)) & ours;
        let snipers = (cozy_chess::get_bishop_rays(king) & diagonal)
            | (cozy_chess::get_rook_rays(king) & straight);
        let mut discoverers = BitBoard::EMPTY;
        for sniper in snipers {
            let between = cozy_chess::get_between_rays(king, sniper) & occ;
            if between.len() == 1 && !(between & ours).is_empty() {
                discoverers |= between;
            }
        }
        CheckInfo {
            king,
            squares: [
                cozy_chess::get_pawn_attacks(king, !us),
                cozy_chess::get_knight_moves(king),
                bishop,
                rook,
                bishop | rook,
                BitBoard::EMPTY,
            ],
            discoverers,
        }
    }

    /// `gives_check(board, mv)` for the board this was computed for.
    #[inline]
    pub fn gives_check(&self, board: &Board, mv: Move) -> bool {
        let Some(piece) = board.piece_on(mv.from) else {
            return false;
        };
        // A promotion's new piece sees through the square its pawn left, and castling and en
        // passant move or remove a second man: the exact test, rare enough.
        if mv.promotion.is_some() || is_castle(board, mv) || is_en_passant(board, mv) {
            return gives_check(board, mv);
        }
        // A piece moving along the line from the king cannot have been checking already, so
        // the squares seen with today's occupancy are the ones it checks from.
        self.squares[piece as usize].has(mv.to)
            || (self.discoverers.has(mv.from)
                && !cozy_chess::get_line_rays(self.king, mv.from).has(mv.to))
    }
}

/// `gives_check` the slow and obvious way: play the move on a copy and look.
fn checks_when_played(board: &Board, mv: Move) -> bool {
    let mut after = board.clone();
    after.play_unchecked(mv);
    !after.checkers().is_empty()
}

/// Static exchange evaluation: does the exchange sequence started by `mv` on its target
/// square gain at least `threshold` for the mover, both sides always recapturing with their
/// least valuable piece and either side free to stop?
pub fn see_ge(board: &Board, mv: Move, threshold: i32) -> bool {
    if is_castle(board, mv) {
        return threshold <= 0;
    }
    let mover = board
        .piece_on(mv.from)
        .expect("move from an occupied square");
    let mut gain = captured_piece(board, mv).map_or(0, |p| SEE_VALUE[p as usize]) - threshold;
    let mut on_square = mover;
    if let Some(p) = mv.promotion {
        gain += SEE_VALUE[p as usize] - SEE_VALUE[0];
        on_square = p;
    }
    if gain < 0 {
        return false;
    }
    // Even if the opponent wins our piece back we still reach the threshold: done.
    let mut balance = SEE_VALUE[on_square as usize] - gain;
    if balance <= 0 {
        return true;
    }

    let mut occ = board.occupied() ^ mv.from.bitboard() ^ mv.to.bitboard();
    if is_en_passant(board, mv) {
        occ ^= Square::new(mv.to.file(), mv.from.rank()).bitboard();
    }
    let rooks = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let bishops = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let mut attackers = attackers_to(board, mv.to, occ);
    let mut side = board.side_to_move();
    // `success` is the answer if the sequence stopped now; each recapture flips it, and
    // `balance` is what the side about to recapture must win back for the flip to hold.
    let mut success = true;
    loop {
        side = !side;
        attackers &= occ;
        let ours = attackers & board.colors(side);
        if ours.is_empty() {
            break;
        }
        success = !success;
        let piece = Piece::ALL
            .into_iter()
            .find(|&p| !(ours & board.pieces(p)).is_empty())
            .expect("some attacker");
        if piece == Piece::King {
            // The king may only take if nothing defends the square any more.
            return if (attackers & board.colors(!side)).is_empty() {
                success
            } else {
                !success
            };
        }
        balance = SEE_VALUE[piece as usize] - balance;
        if balance < success as i32 {
            break;
        }
        let sq = (ours & board.pieces(piece))
            .next_square()
            .expect("attacker square");
        occ ^= sq.bitboard();
        if matches!(piece, Piece::Pawn | Piece::Bishop | Piece::Queen) {
            attackers |= cozy_chess::get_bishop_moves(mv.to, occ) & bishops;
        }
        if matches!(piece, Piece::Rook | Piece::Queen) {
            attackers |= cozy_chess::get_rook_moves(mv.to, occ) & rooks;
        }
    }
    success
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, t: i32) -> bool {
        let b: Board = fen.parse().unwrap();
        let m = cozy_chess::util::parse_uci_move(&b, mv).unwrap();
        see_ge(&b, m, t)
    }

    #[test]
    fn static_exchange() {
        // Pawn takes undefended knight.
        let f = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
        assert!(see(f, "e4d5", 320));
        assert!(!see(f, "e4d5", 321));
        // Queen takes pawn defended by pawn: loses 800.
        let f = "4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1";
        assert!(!see(f, "d2d5", 0));
        assert!(see(f, "d2d5", -800));
        assert!(!see(f, "d2d5", -799));
        // Rook takes rook defended by rook, backed by our second rook (x-ray): R for R.
        let f = "3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(f, "d2d7", 0));
        assert!(!see(f, "d2d7", 1));
        // Quiet move to a square attacked by a pawn loses the piece.
        let f = "4k3/8/4p3/8/2N5/8/8/4K3 w - - 0 1";
        assert!(!see(f, "c4d5", 0));
        assert!(see(f, "c4b6", 0));
    }

    /// The attack-reading `gives_check` agrees with playing the move out, for every legal move
    /// of the bench positions, of positions with castling, en passant, promotions and
    /// discovered checks, and of seeded random games from them.
    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        let mut fens: Vec<String> = crate::bench::positions().map(String::from).collect();
        fens.extend(
            [
                "r3k2r/8/8/8/8/8/8/R3K1r1 w Qkq - 0 1",
                "4k3/8/8/2pP4/8/8/8/4K2B w - c6 0 1",
                "3k4/8/8/K2pP2r/8/8/8/8 w - d6 0 1",
                "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
                "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1",
                "4k3/8/8/8/8/8/4P3/4Q1K1 w - - 0 1",
                "8/8/8/8/k2P3R/8/8/4K3 w - - 0 1",
                "4k3/4P3/8/8/8/8/8/4K2R w K - 0 1",
                "2k5/8/8/8/8/8/3N4/B2RK3 w - - 0 1",
                "4K3/8/8/8/1b6/8/3P1n2/r3k3 b - - 0 1",
                "8/4P3/8/8/8/8/8/k3K3 w - - 0 1",
                "8/4P3/8/8/8/8/4k3/K7 w - - 0 1",
            ]
            .map(String::from),
        );
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0;
        for fen in &fens {
            let mut board: Board = fen.parse().unwrap();
            for _ in 0..40 {
                let mut moves = Vec::new();
                board.generate_moves(|pm| {
                    moves.extend(pm);
                    false
                });
                if moves.is_empty() {
                    break;
                }
                let info = CheckInfo::new(&board);
                for &mv in &moves {
                    let played = checks_when_played(&board, mv);
                    assert_eq!(gives_check(&board, mv), played, "{board} {mv}");
                    assert_eq!(info.gives_check(&board, mv), played, "{board} {mv}");
                    checked += 1;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                board.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
