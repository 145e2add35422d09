//! The accumulator stack: one pair of accumulators (white's and black's perspective) per ply
//! of the search line, updated from the parent by the few features a move changes.
//!
//! [nnue] Updates are lazy: `push_move` only records which features the move adds and removes
//! (castling moves two pieces, en passant removes a pawn beside the target, a promotion adds a
//! different piece); `evaluate` applies the pending deltas from the nearest computed ancestor.
//! Nodes cut before their static evaluation (TT cutoffs, draws, mate distance) then cost nothing.

use super::network::Network;
use super::{feature, flip_feature, INPUTS};
use cozy_chess::{Board, Color, File, Move, Piece, Square};

/// The features one move removes and adds, as white-perspective indices (black's are
/// [`flip_feature`] of them). At most two of each: castling moves king and rook; a capture
/// removes the mover's origin and the victim.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    adds: [u16; 2],
    subs: [u16; 2],
    n_add: u8,
    n_sub: u8,
}

impl Delta {
    fn add(&mut self, c: Color, p: Piece, sq: Square) {
        self.adds[self.n_add as usize] = feature(Color::White, c, p, sq) as u16;
        self.n_add += 1;
    }

    fn sub(&mut self, c: Color, p: Piece, sq: Square) {
        self.subs[self.n_sub as usize] = feature(Color::White, c, p, sq) as u16;
        self.n_sub += 1;
    }

    /// The change `mv` makes on `board` (the position before the move). `mv` must be legal.
    pub fn of_move(board: &Board, mv: Move) -> Delta {
        let mut d = Delta::default();
        let us = board.side_to_move();
        let Some(piece) = board.piece_on(mv.from) else {
            return d;
        };
        if piece == Piece::King && board.colors(us).has(mv.to) {
            // Castling is written king-takes-rook; both land on the usual files.
            let rank = mv.from.rank();
            let (king, rook) = if mv.from.file() < mv.to.file() {
                (File::G, File::F)
            } else {
                (File::C, File::D)
            };
            d.sub(us, Piece::King, mv.from);
            d.sub(us, Piece::Rook, mv.to);
            d.add(us, Piece::King, Square::new(king, rank));
            d.add(us, Piece::Rook, Square::new(rook, rank));
            return d;
        }
        d.sub(us, piece, mv.from);
        d.add(us, mv.promotion.unwrap_or(piece), mv.to);
        if let Some(victim) = board.piece_on(mv.to) {
            d.sub(!us, victim, mv.to);
        } else if piece == Piece::Pawn && mv.from.file() != mv.to.file() {
            // A diagonal pawn move to an empty square is en passant.
            d.sub(!us, Piece::Pawn, Square::new(mv.to.file(), mv.from.rank()));
        }
        d
    }
}

/// Accumulators for the positions of one search line, root first.
#[derive(Clone, Debug)]
pub struct NnueState {
    hidden: usize,
    /// Per ply: `hidden` values for white's perspective, then `hidden` for black's.
    accs: Vec<i16>,
    computed: Vec<bool>,
    deltas: Vec<Delta>,
    top: usize,
}

impl NnueState {
    pub fn new(net: &Network) -> Self {
        let plies = 128;
        NnueState {
            hidden: net.hidden(),
            accs: vec![0; plies * 2 * net.hidden()],
            computed: vec![false; plies],
            deltas: vec![Delta::default(); plies],
            top: 0,
        }
    }

    /// Number of plies above the root.
    pub fn depth(&self) -> usize {
        self.top
    }

    /// Starts a new line at `board`: a full refresh of both perspectives. A network of another
    /// size (a new `EvalFile`) resizes the stack.
    pub fn reset(&mut self, net: &Network, board: &Board) {
        if net.hidden() != self.hidden {
            *self = NnueState::new(net);
        }
        self.top = 0;
        let h = self.hidden;
        let (white, black) = self.accs[..2 * h].split_at_mut(h);
        refresh(net, board, Color::White, white);
        refresh(net, board, Color::Black, black);
        self.computed[0] = true;
    }

    fn grow(&mut self) {
        let plies = self.computed.len() * 2;
        self.accs.resize(plies * 2 * self.hidden, 0);
        self.computed.resize(plies, false);
        self.deltas.resize(plies, Delta::default());
    }

    /// Before `board` (the position before the move) plays `mv`.
    #[inline]
    pub fn push_move(&mut self, board: &Board, mv: Move) {
        self.push(Delta::of_move(board, mv));
    }

    /// A null move changes no feature.
    #[inline]
    pub fn push_null(&mut self) {
        self.push(Delta::default());
    }

    #[inline]
    fn push(&mut self, delta: Delta) {
        self.top += 1;
        if self.top == self.computed.len() {
            self.grow();
        }
        self.deltas[self.top] = delta;
        self.computed[self.top] = false;
    }

    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop below the root");
        self.top = self.top.saturating_sub(1);
    }

    /// Brings the top accumulators up to date from the nearest computed ancestor.
    pub fn apply(&mut self, net: &Network) {
        let mut from = self.top;
        while !self.computed[from] {
            from -= 1;
        }
        let h = self.hidden;
        for ply in from + 1..=self.top {
            let d = self.deltas[ply];
            let (done, rest) = self.accs.split_at_mut(ply * 2 * h);
            let parent = &done[(ply - 1) * 2 * h..];
            let child = &mut rest[..2 * h];
            let (na, ns) = (d.n_add as usize, d.n_sub as usize);
            for side in 0..2 {
                // Rows by offset into the feature weights; black's perspective reads the
                // vertically mirrored feature of the same piece.
                let row = |f: u16| {
                    let f = f as usize;
                    h * if side == 0 { f } else { flip_feature(f) }
                };
                let adds = [row(d.adds[0]), row(d.adds[1])];
                let subs = [row(d.subs[0]), row(d.subs[1])];
                net.kernel.add_sub(
                    &mut child[side * h..(side + 1) * h],
                    &parent[side * h..(side + 1) * h],
                    net.ft_weights(),
                    &adds[..na],
                    &subs[..ns],
                );
            }
            self.computed[ply] = true;
        }
    }

    /// The network's evaluation of the top position, centipawns for `side_to_move`.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, board: &Board) -> i32 {
        self.apply(net);
        self.evaluate_current(net, board)
    }

    /// Whether the top position's accumulators are up to date.
    #[inline]
    pub fn is_current(&self) -> bool {
        self.computed[self.top]
    }

    /// The evaluation of the top position, which must be up to date ([`NnueState::apply`]).
    #[inline]
    pub fn evaluate_current(&self, net: &Network, board: &Board) -> i32 {
        debug_assert!(self.computed[self.top], "evaluate_current before apply");
        let h = self.hidden;
        let top = &self.accs[self.top * 2 * h..(self.top + 1) * 2 * h];
        let (white, black) = top.split_at(h);
        let pieces = board.occupied().len();
        match board.side_to_move() {
            Color::White => net.output(white, black, pieces),
            Color::Black => net.output(black, white, pieces),
        }
    }

    /// The top accumulators (white's, black's), brought up to date: for tests.
    pub fn accumulators(&mut self, net: &Network) -> (&[i16], &[i16]) {
        self.apply(net);
        let h = self.hidden;
        self.accs[self.top * 2 * h..(self.top + 1) * 2 * h].split_at(h)
    }
}

/// The accumulator of `perspective` computed from nothing: bias plus one row per piece.
pub fn refresh(net: &Network, board: &Board, perspective: Color, out: &mut [i16]) {
    out.copy_from_slice(net.ft_bias());
    for color in [Color::White, Color::Black] {
        for piece in Piece::ALL {
            for sq in board.colored_pieces(color, piece) {
                let f = feature(perspective, color, piece, sq);
                debug_assert!(f < INPUTS);
                for (o, w) in out.iter_mut().zip(net.ft_row(f)) {
                    *o = o.wrapping_add(*w);
                }
            }
        }
    }
}

/// The evaluation of `board` from scratch, centipawns for the side to move.
pub fn evaluate_board(net: &Network, board: &Board) -> i32 {
    let h = net.hidden();
    let mut acc = vec![0i16; 2 * h];
    let (us, them) = acc.split_at_mut(h);
    let stm = board.side_to_move();
    refresh(net, board, stm, us);
    refresh(net, board, !stm, them);
    net.output(us, them, board.occupied().len())
}

#[cfg(test)]
mod tests {
    use super::super::simd::Kernel;
    use super::super::test_support::{random_bucketed_network, Rng};
    use super::*;

    /// Random games from positions rich in castling (both kinds, Chess960 too), en passant and
    /// promotions; after every make, unmake and null move the incremental accumulators must
    /// equal a full refresh exactly, with both kernels.
    #[test]
    fn incremental_updates_equal_a_full_refresh_over_random_games() {
        let start = Board::default().to_string();
        let fens = [
            (start.as_str(), false),
            // Kiwipete: castling both ways, en passant, promotions soon.
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            // Pawns about to promote, with captures onto the back rank.
            ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false),
            // En passant available at once.
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                false,
            ),
            // Chess960: king on g1, rooks on b1 and h1 (castling short, the king stays on g1).
            ("1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1", true),
        ];
        let mut rng = Rng(2024);
        // Eight output buckets with SCReLU: captures move the evaluation between them.
        for (activation, buckets) in [
            (super::super::Activation::SCReLU, 1),
            (super::super::Activation::CReLU, 1),
            (super::super::Activation::SCReLU, 8),
        ] {
            let net = random_bucketed_network(&mut rng, 32, activation, buckets);
            for kernel in [Kernel::Scalar, Kernel::detect()] {
                let net = net.clone().with_kernel(kernel);
                for &(fen, frc) in &fens {
                    for game in 0..6 {
                        random_walk(&net, fen, frc, &mut rng, 120 + game);
                    }
                }
            }
        }
    }

    /// Plays a random game on a board with a stack of the boards before it, as the search's
    /// `Position` does (which carries these accumulators itself, so it is not used here).
    fn random_walk(net: &Network, fen: &str, frc: bool, rng: &mut Rng, steps: usize) {
        let mut board = Board::from_fen(fen, frc).unwrap();
        let mut before: Vec<Board> = Vec::new();
        let mut state = NnueState::new(net);
        state.reset(net, &board);
        let h = net.hidden();
        let (mut white, mut black) = (vec![0; h], vec![0; h]);
        for step in 0..steps {
            let mut moves = Vec::new();
            board.generate_moves(|pm| {
                moves.extend(pm);
                false
            });
            let r = rng.next() % 10;
            if (moves.is_empty() || r == 0) && !before.is_empty() && state.depth() > 0 {
                board = before.pop().expect("a board before");
                state.pop();
            } else if r == 1 && board.checkers().is_empty() {
                let next = board.null_move().expect("not in check");
                before.push(std::mem::replace(&mut board, next));
                state.push_null();
            } else if !moves.is_empty() {
                let mv = moves[(rng.next() % moves.len() as u64) as usize];
                state.push_move(&board, mv);
                before.push(board.clone());
                board.play_unchecked(mv);
            } else {
                continue;
            }
            // Skip some evaluations so that several deltas are applied at once.
            if rng.next().is_multiple_of(3) {
                continue;
            }
            refresh(net, &board, Color::White, &mut white);
            refresh(net, &board, Color::Black, &mut black);
            let (w, b) = state.accumulators(net);
            assert_eq!((w, b), (&white[..], &black[..]), "step {step} {board}");
            assert_eq!(
                state.evaluate(net, &board),
                evaluate_board(net, &board),
                "{board}"
            );
        }
    }

    #[test]
    fn deltas_of_special_moves() {
        // White castles short (e1h1 in cozy-chess's king-takes-rook form).
        let b: Board = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        let d = Delta::of_move(&b, "e1h1".parse().unwrap());
        assert_eq!((d.n_add, d.n_sub), (2, 2));
        // En passant removes the pawn beside the target square.
        let b: Board = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1".parse().unwrap();
        let d = Delta::of_move(&b, "e5d6".parse().unwrap());
        assert_eq!((d.n_add, d.n_sub), (1, 2));
        let d5 = feature(Color::White, Color::Black, Piece::Pawn, Square::D5) as u16;
        assert!(d.subs.contains(&d5));
        // A capturing promotion adds the new piece, removes the pawn and the victim.
        let b: Board = "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
        let d = Delta::of_move(&b, "a7b8q".parse().unwrap());
        let q = feature(Color::White, Color::White, Piece::Queen, Square::B8) as u16;
        assert_eq!((d.n_add, d.n_sub, d.adds[0]), (1, 2, q));
    }
}
