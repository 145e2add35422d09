//! The learned tables: the butterfly history (`history`), continuation history (`conthist`),
//! counter moves (`countermove`), capture history (`capthist`), and the correction history of
//! the static evaluation (`corrhist`); the `MoveOrder` the picker scores quiet and noisy
//! moves by. Each table is indexed by a small key and updated with a bounded rule, so recent
//! results outweigh old ones and no entry runs away.

use super::moves::captured_piece;
use cozy_chess::{BitBoard, Board, Color, Move, Piece};

/// Bound of a butterfly-history entry.
const MAX_HISTORY: i32 = 16384;
/// Bound of a continuation-history entry (the same gravity as the butterfly history).
const CONT_MAX: i32 = 16384;
/// 12 coloured pieces × 64 target squares.
const PIECE_TO: usize = 12 * 64;

/// Butterfly history `[side][from][to]`, updated with a gravity formula that keeps values
/// in ±MAX_HISTORY so recent results outweigh old ones.
#[derive(Clone)]
pub struct History(Vec<i32>);

impl Default for History {
    fn default() -> Self {
        History(vec![0; 2 * 64 * 64])
    }
}

impl History {
    #[inline]
    fn idx(side: Color, mv: Move) -> usize {
        (side as usize * 64 + mv.from as usize) * 64 + mv.to as usize
    }
    #[inline]
    pub fn get(&self, side: Color, mv: Move) -> i32 {
        self.0[Self::idx(side, mv)]
    }
    #[inline]
    pub fn update(&mut self, side: Color, mv: Move, bonus: i32) {
        let h = &mut self.0[Self::idx(side, mv)];
        let b = bonus.clamp(-MAX_HISTORY, MAX_HISTORY);
        *h += b - *h * b.abs() / MAX_HISTORY;
    }
    pub fn clear(&mut self) {
        self.0.iter_mut().for_each(|h| *h = 0);
    }
}

/// The coloured piece a move moves (before promotion) and where it goes: the key of a
/// continuation-history row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    /// `None` if `mv` does not start on a piece of the side to move (not a legal move).
    #[inline]
    pub fn of(board: &Board, mv: Move) -> Option<PieceTo> {
        let piece = board.piece_on(mv.from)?;
        Some(PieceTo::moving(board, piece, mv))
    }
    /// The same when the caller knows the moving piece (the move generator does), which saves
    /// the board lookup on every move the picker scores.
    #[inline]
    pub fn moving(board: &Board, piece: Piece, mv: Move) -> PieceTo {
        let color = board.side_to_move();
        PieceTo(((color as usize * 6 + piece as usize) * 64 + mv.to as usize) as u16)
    }
    #[inline]
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// [conthist] Continuation history: how good a quiet move was *after* a given previous move
/// (piece and target square of the move one ply ago, and of our own move two plies ago).
/// It catches follow-ups and replies the butterfly table, blind to context, averages away.
#[derive(Clone)]
pub struct ContinuationHistory(Vec<i32>);

impl Default for ContinuationHistory {
    fn default() -> Self {
        ContinuationHistory(vec![0; PIECE_TO * PIECE_TO])
    }
}

impl ContinuationHistory {
    #[inline]
    pub fn get(&self, prev: PieceTo, mv: PieceTo) -> i32 {
        self.0[prev.index() * PIECE_TO + mv.index()]
    }
    #[inline]
    pub fn update(&mut self, prev: PieceTo, mv: PieceTo, bonus: i32) {
        let h = &mut self.0[prev.index() * PIECE_TO + mv.index()];
        let b = bonus.clamp(-CONT_MAX, CONT_MAX);
        *h += b - *h * b.abs() / CONT_MAX;
    }
    pub fn clear(&mut self) {
        self.0.iter_mut().for_each(|h| *h = 0);
    }
}

/// What the move picker orders moves by besides the TT move, killers and MVV-LVA.
pub trait MoveOrder {
    fn quiet(&self, board: &Board, mv: Move) -> i32;
    /// Added to a capture's or promotion's MVV-LVA score.
    fn noisy(&self, _board: &Board, _mv: Move) -> i32 {
        0
    }
    /// `quiet` when the moving `piece` is known (the picker's generator knows it).
    #[inline]
    fn quiet_of(&self, board: &Board, _piece: Piece, mv: Move) -> i32 {
        self.quiet(board, mv)
    }
    /// `noisy` when the moving `piece` is known.
    #[inline]
    fn noisy_of(&self, board: &Board, _piece: Piece, mv: Move) -> i32 {
        self.noisy(board, mv)
    }
}

impl MoveOrder for History {
    #[inline]
    fn quiet(&self, board: &Board, mv: Move) -> i32 {
        self.get(board.side_to_move(), mv)
    }
}

/// [countermove] Counter moves: per previous move (its piece and target), the quiet move that
/// last refuted it. A reply to a threat (a knight fork, a discovered attack) tends to work
/// wherever that threat is made, which the ply-bound killers miss.
#[derive(Clone)]
pub struct CounterMoves(Vec<Option<Move>>);

impl Default for CounterMoves {
    fn default() -> Self {
        CounterMoves(vec![None; PIECE_TO])
    }
}

impl CounterMoves {
    #[inline]
    pub fn get(&self, prev: PieceTo) -> Option<Move> {
        self.0[prev.index()]
    }
    #[inline]
    pub fn set(&mut self, prev: PieceTo, mv: Move) {
        self.0[prev.index()] = Some(mv);
    }
    pub fn clear(&mut self) {
        self.0.iter_mut().for_each(|m| *m = None);
    }
}

/// [capthist] Capture history `[piece][to][victim]`: MVV-LVA knows material only; this learns
/// which captures actually refute (a defended victim, a recapture that opens the king).
#[derive(Clone)]
pub struct CaptureHistory(Vec<i32>);

impl Default for CaptureHistory {
    fn default() -> Self {
        CaptureHistory(vec![0; PIECE_TO * 6])
    }
}

impl CaptureHistory {
    /// A promotion without capture uses the king's slot, which no capture can.
    #[inline]
    fn index(board: &Board, mv: Move) -> Option<usize> {
        let pt = PieceTo::of(board, mv)?;
        Some(Self::index_of(board, pt, mv))
    }
    #[inline]
    fn index_of(board: &Board, pt: PieceTo, mv: Move) -> usize {
        let victim = captured_piece(board, mv).unwrap_or(Piece::King);
        pt.index() * 6 + victim as usize
    }
    #[inline]
    pub fn get(&self, board: &Board, mv: Move) -> i32 {
        Self::index(board, mv).map_or(0, |i| self.0[i])
    }
    /// `get` for a move of a known `piece`.
    #[inline]
    pub fn get_of(&self, board: &Board, piece: Piece, mv: Move) -> i32 {
        self.0[Self::index_of(board, PieceTo::moving(board, piece, mv), mv)]
    }
    #[inline]
    pub fn update(&mut self, board: &Board, mv: Move, bonus: i32) {
        if let Some(i) = Self::index(board, mv) {
            let h = &mut self.0[i];
            let b = bonus.clamp(-CONT_MAX, CONT_MAX);
            *h += b - *h * b.abs() / CONT_MAX;
        }
    }
    pub fn clear(&mut self) {
        self.0.iter_mut().for_each(|h| *h = 0);
    }
}

/// The butterfly history plus the continuation histories of the previous one and two plies
/// (each `None` when switched off or when that ply was a null move or the root), and the
/// capture history scaled down by its divisor.
pub struct QuietScore<'a> {
    pub main: Option<&'a History>,
    pub cont: &'a ContinuationHistory,
    pub prev: [Option<PieceTo>; 2],
    pub capture: Option<(&'a CaptureHistory, i32)>,
}

impl QuietScore<'_> {
    /// The sum used for ordering and LMR; `piece_to` must be `mv`'s.
    #[inline]
    pub fn total(&self, board: &Board, mv: Move, piece_to: Option<PieceTo>) -> i32 {
        let mut s = self.main.map_or(0, |h| h.get(board.side_to_move(), mv));
        if let Some(pt) = piece_to {
            for prev in self.prev.iter().flatten() {
                s += self.cont.get(*prev, pt);
            }
        }
        s
    }
}

impl MoveOrder for QuietScore<'_> {
    #[inline]
    fn quiet(&self, board: &Board, mv: Move) -> i32 {
        self.total(board, mv, PieceTo::of(board, mv))
    }
    #[inline]
    fn noisy(&self, board: &Board, mv: Move) -> i32 {
        self.capture
            .map_or(0, |(h, divisor)| h.get(board, mv) / divisor.max(1))
    }
    #[inline]
    fn quiet_of(&self, board: &Board, piece: Piece, mv: Move) -> i32 {
        self.total(board, mv, Some(PieceTo::moving(board, piece, mv)))
    }
    #[inline]
    fn noisy_of(&self, board: &Board, piece: Piece, mv: Move) -> i32 {
        self.capture.map_or(0, |(h, divisor)| {
            h.get_of(board, piece, mv) / divisor.max(1)
        })
    }
}

/// Fixed-point scale of a correction entry: entries hold centipawns × GRAIN.
const CORR_GRAIN: i32 = 256;
/// Pawn-structure buckets per side (a power of two).
const CORR_SIZE: usize = 16384;

/// [corrhist] Correction history: the static evaluation is wrong in ways that repeat for a
/// pawn structure (a blocked centre, a weak king shelter the terms miss). Remember, per side
/// to move and pawn-structure key, the average of (search result − raw eval) and add it.
#[derive(Clone)]
pub struct CorrectionHistory(Vec<i32>);

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory(vec![0; 2 * CORR_SIZE])
    }
}

/// A hash of the pawns of both sides alone (cozy-chess keeps no pawn key of its own).
#[inline]
pub fn pawn_key(board: &Board) -> u64 {
    let white: BitBoard = board.colored_pieces(Color::White, Piece::Pawn);
    let black: BitBoard = board.colored_pieces(Color::Black, Piece::Pawn);
    mix(white.0 ^ mix(black.0 ^ 0x9E37_79B9_7F4A_7C15))
}

/// splitmix64's finaliser: every input bit flips about half the output bits.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl CorrectionHistory {
    #[inline]
    fn index(side: Color, key: u64) -> usize {
        side as usize * CORR_SIZE + (key as usize & (CORR_SIZE - 1))
    }

    /// The correction to add to a raw evaluation (centipawns).
    #[inline]
    pub fn get(&self, side: Color, key: u64) -> i32 {
        self.0[Self::index(side, key)] / CORR_GRAIN
    }

    /// Moves the entry towards `error` (search result − raw eval, cp) with a weight that grows
    /// with the depth of the search that measured it (`weight` of 256), bounded to ±`limit` cp.
    #[inline]
    pub fn update(&mut self, side: Color, key: u64, error: i32, weight: i32, limit: i32) {
        let e = &mut self.0[Self::index(side, key)];
        let w = weight.clamp(0, 256);
        let target = error.clamp(-limit, limit) * CORR_GRAIN;
        *e = ((*e as i64 * (256 - w) as i64 + target as i64 * w as i64) / 256) as i32;
        *e = (*e).clamp(-limit * CORR_GRAIN, limit * CORR_GRAIN);
    }

    pub fn clear(&mut self) {
        self.0.iter_mut().for_each(|h| *h = 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn correction_moves_towards_the_error_and_stays_bounded() {
        let mut c = CorrectionHistory::default();
        let key = pawn_key(&Board::default());
        for _ in 0..200 {
            c.update(Color::White, key, 500, 64, 100);
        }
        // The weighted average stops within one step of the (clamped) target.
        assert!((99..=100).contains(&c.get(Color::White, key)));
        assert_eq!(c.get(Color::Black, key), 0);
        for _ in 0..200 {
            c.update(Color::White, key, -40, 64, 100);
        }
        assert!((-40..=-38).contains(&c.get(Color::White, key)));
    }

    #[test]
    fn pawn_key_sees_only_pawns() {
        let a: Board = "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1".parse().unwrap();
        let b: Board = "3qk3/pp6/8/8/8/8/PP6/R3K3 b - - 0 1".parse().unwrap();
        let c: Board = "4k3/pp6/8/8/8/P7/1P6/4K3 w - - 0 1".parse().unwrap();
        assert_eq!(pawn_key(&a), pawn_key(&b));
        assert_ne!(pawn_key(&a), pawn_key(&c));
    }

    #[test]
    fn scoring_with_the_known_piece_agrees_with_looking_it_up() {
        // The picker scores with the generator's piece; the rest of the search (LMR, pruning)
        // looks the piece up. Both must give every move the same score.
        let board: Board = "r1bqk2r/pp1p1ppp/2n1pn2/2b5/2BNP3/2N5/PPP2PPP/R1BQK2R w KQkq - 4 7"
            .parse()
            .unwrap();
        let (mut main, mut cont, mut capture) = (
            History::default(),
            ContinuationHistory::default(),
            CaptureHistory::default(),
        );
        let prev = [
            PieceTo::of(&board, "c6d4".parse().unwrap()).or(Some(PieceTo(5))),
            Some(PieceTo(700)),
        ];
        let mut moves = Vec::new();
        board.generate_moves(|pm| {
            moves.extend(pm.into_iter().map(|mv| (pm.piece, mv)));
            false
        });
        for (i, &(_, mv)) in moves.iter().enumerate() {
            let bonus = 37 * i as i32 - 400;
            main.update(board.side_to_move(), mv, bonus);
            capture.update(&board, mv, -bonus);
            for p in prev.iter().flatten() {
                cont.update(*p, PieceTo::of(&board, mv).unwrap(), bonus / 2);
            }
        }
        let score = QuietScore {
            main: Some(&main),
            cont: &cont,
            prev,
            capture: Some((&capture, 3)),
        };
        let mut nonzero = 0;
        for &(piece, mv) in &moves {
            assert_eq!(
                score.quiet_of(&board, piece, mv),
                score.quiet(&board, mv),
                "{mv}"
            );
            assert_eq!(
                score.noisy_of(&board, piece, mv),
                score.noisy(&board, mv),
                "{mv}"
            );
            nonzero += usize::from(score.quiet(&board, mv) != 0);
        }
        assert!(nonzero > 20, "the tables were filled: {nonzero}");
        assert!(moves
            .iter()
            .any(|&(_, mv)| captured_piece(&board, mv).is_some()));
    }

    #[test]
    fn continuation_rows_are_separate() {
        let board = Board::default();
        let e4: Move = "e2e4".parse().unwrap();
        let d4: Move = "d2d4".parse().unwrap();
        let nf3: Move = "g1f3".parse().unwrap();
        let (e4, d4, nf3) = (
            PieceTo::of(&board, e4).unwrap(),
            PieceTo::of(&board, d4).unwrap(),
            PieceTo::of(&board, nf3).unwrap(),
        );
        let mut h = ContinuationHistory::default();
        h.update(e4, nf3, 1000);
        assert_eq!(h.get(e4, nf3), 1000);
        assert_eq!(h.get(d4, nf3), 0);
        for _ in 0..1000 {
            h.update(e4, nf3, 16384);
        }
        assert!(h.get(e4, nf3) <= CONT_MAX);
    }
}
