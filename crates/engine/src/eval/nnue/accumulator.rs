//! The accumulator stack: one pair of accumulators (white's and black's perspective) per ply
//! of the search line, updated from the parent by the few features a move changes.
//!
//! [nnue] Updates are lazy: `push_move` only records which features the move adds and removes
//! (castling moves two pieces, en passant removes a pawn beside the target, a promotion adds a
//! different piece); `evaluate` applies the pending deltas from the nearest computed ancestor.
//! Nodes cut before their static evaluation (TT cutoffs, draws, mate distance) then cost nothing.
//!
//! [nnue-kings] The deltas name pieces, not weight rows: each perspective turns them into rows
//! of its own king's bucket and mirror half. A king move that changes its side's bucket or half
//! changes every row of that side, so that perspective is rebuilt from the accumulator cache
//! ([`AccumulatorCache`]) at that ply, and the other perspective is updated as usual.

use super::network::{KingBuckets, KingKey, Network};
use super::{feature, flip_feature, INPUTS};
use cozy_chess::{Board, Color, File, Move, Piece, Square};

/// The pieces one move removes and adds, as white-perspective feature indices without king
/// buckets (colour · 384 + piece · 64 + square; black's are [`flip_feature`] of them). At most two of each: castling moves king and rook; a capture
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
            let (king, rook) = castled(mv.from, mv.to);
            d.sub(us, Piece::King, mv.from);
            d.sub(us, Piece::Rook, mv.to);
            d.add(us, Piece::King, king);
            d.add(us, Piece::Rook, rook);
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

/// Where castling puts the king and the rook (cozy-chess writes it king-takes-rook).
fn castled(king_from: Square, rook_from: Square) -> (Square, Square) {
    let rank = king_from.rank();
    let (king, rook) = if king_from.file() < rook_from.file() {
        (File::G, File::F)
    } else {
        (File::C, File::D)
    };
    (Square::new(king, rank), Square::new(rook, rank))
}

/// The pieces of a position by colour and kind: what a cached accumulator was computed for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pieces([[u64; 6]; 2]);

impl Pieces {
    pub fn of(board: &Board) -> Pieces {
        let mut p = Pieces::default();
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                p.0[color as usize][piece as usize] = board.colored_pieces(color, piece).0;
            }
        }
        p
    }

    /// Where `color`'s king stands.
    fn king(&self, color: Color) -> Square {
        let bits = self.0[color as usize][Piece::King as usize];
        Square::index((bits.trailing_zeros() as usize).min(63))
    }

    /// The pieces after a move: `board`'s with the delta's pieces taken off and put on.
    fn after(board: &Board, delta: &Delta) -> Pieces {
        let mut p = Pieces::of(board);
        let adds = delta.adds[..delta.n_add as usize].iter();
        for &f in delta.subs[..delta.n_sub as usize].iter().chain(adds) {
            let f = f as usize;
            p.0[f / 384][f % 384 / 64] ^= 1u64 << (f % 64);
        }
        p
    }
}

/// One ply of the line: the move's delta, each perspective's king key after it, and which
/// perspective's king crossed into another bucket or mirror half (that perspective is rebuilt
/// from the cache).
#[derive(Clone, Copy, Debug, Default)]
struct Ply {
    delta: Delta,
    keys: [KingKey; 2],
    refresh: [bool; 2],
}

/// [nnue-finny] The accumulator cache ("Finny table"): per perspective and king key (bucket
/// and mirror half) the last accumulator computed there and the pieces it was computed for.
/// A king move into another key rebuilds that perspective from its entry by the pieces that
/// differ (typically a handful) instead of from the bias by all of them, then stores it back.
#[derive(Clone, Debug)]
pub struct AccumulatorCache {
    hidden: usize,
    slots: usize,
    accs: Vec<i16>,
    pieces: Vec<Pieces>,
}

/// Rows applied per kernel call while a cache entry catches up.
const BATCH: usize = 16;

impl AccumulatorCache {
    /// Every entry starts as the bias with no pieces.
    pub fn new(net: &Network) -> AccumulatorCache {
        let slots = 2 * net.king_buckets().count();
        let entries = 2 * slots;
        AccumulatorCache {
            hidden: net.hidden(),
            slots,
            accs: net.ft_bias().repeat(entries),
            pieces: vec![Pieces::default(); entries],
        }
    }

    /// `out` = the accumulator of `perspective` with its king on `king` and `pieces` on the
    /// board, from the entry of that key, which is brought up to date too.
    pub fn refresh(
        &mut self,
        net: &Network,
        perspective: Color,
        king: Square,
        pieces: &Pieces,
        out: &mut [i16],
    ) {
        let h = self.hidden;
        let key = net.king_buckets().key(perspective, king);
        let entry = perspective as usize * self.slots + key.slot();
        let acc = &mut self.accs[entry * h..(entry + 1) * h];
        let was = &mut self.pieces[entry];
        let (mut adds, mut subs) = ([0usize; BATCH], [0usize; BATCH]);
        let (mut na, mut ns) = (0, 0);
        for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
            for (p, piece) in Piece::ALL.into_iter().enumerate() {
                let (now, old) = (pieces.0[c][p], was.0[c][p]);
                for (mut bits, is_add) in [(now & !old, true), (old & !now, false)] {
                    while bits != 0 {
                        let sq = Square::index(bits.trailing_zeros() as usize);
                        bits &= bits - 1;
                        let row = h * key.input(feature(perspective, color, piece, sq));
                        if is_add {
                            adds[na] = row;
                            na += 1;
                        } else {
                            subs[ns] = row;
                            ns += 1;
                        }
                        if na == BATCH || ns == BATCH {
                            net.kernel.add_sub_in_place(
                                acc,
                                net.ft_weights(),
                                &adds[..na],
                                &subs[..ns],
                            );
                            (na, ns) = (0, 0);
                        }
                    }
                }
            }
        }
        if na + ns > 0 {
            net.kernel
                .add_sub_in_place(acc, net.ft_weights(), &adds[..na], &subs[..ns]);
        }
        *was = *pieces;
        out.copy_from_slice(acc);
    }
}

/// Accumulators for the positions of one search line, root first.
#[derive(Clone, Debug)]
pub struct NnueState {
    hidden: usize,
    /// The network's king buckets, so that `push_move` sees a bucket change without it.
    kings: KingBuckets,
    /// Whether the network has king buckets or a mirror at all (else no move refreshes).
    keyed: bool,
    /// Which network the cache holds accumulators of.
    checksum: u64,
    /// Per ply: `hidden` values for white's perspective, then `hidden` for black's.
    accs: Vec<i16>,
    /// Per ply and perspective (white, black): whether that accumulator is up to date.
    computed: Vec<[bool; 2]>,
    plies: Vec<Ply>,
    /// Per ply, the pieces after its move; written only where a perspective refreshes.
    pieces: Vec<Pieces>,
    cache: AccumulatorCache,
    top: usize,
}

impl NnueState {
    pub fn new(net: &Network) -> Self {
        let plies = 128;
        NnueState {
            hidden: net.hidden(),
            kings: *net.king_buckets(),
            keyed: *net.king_buckets() != KingBuckets::NONE,
            checksum: net.checksum(),
            accs: vec![0; plies * 2 * net.hidden()],
            computed: vec![[false; 2]; plies],
            plies: vec![Ply::default(); plies],
            pieces: vec![Pieces::default(); plies],
            cache: AccumulatorCache::new(net),
            top: 0,
        }
    }

    /// Number of plies above the root.
    pub fn depth(&self) -> usize {
        self.top
    }

    /// Starts a new line at `board`: both perspectives rebuilt (from the cache). Another
    /// network (a new `EvalFile`) starts a new state.
    pub fn reset(&mut self, net: &Network, board: &Board) {
        if net.hidden() != self.hidden
            || net.checksum() != self.checksum
            || net.king_buckets() != &self.kings
        {
            *self = NnueState::new(net);
        }
        self.top = 0;
        let h = self.hidden;
        let kings = [board.king(Color::White), board.king(Color::Black)];
        self.plies[0] = Ply {
            keys: [
                self.kings.key(Color::White, kings[0]),
                self.kings.key(Color::Black, kings[1]),
            ],
            ..Ply::default()
        };
        let pieces = Pieces::of(board);
        let (white, black) = self.accs[..2 * h].split_at_mut(h);
        self.cache
            .refresh(net, Color::White, kings[0], &pieces, white);
        self.cache
            .refresh(net, Color::Black, kings[1], &pieces, black);
        self.computed[0] = [true; 2];
    }

    fn grow(&mut self) {
        let plies = self.computed.len() * 2;
        self.accs.resize(plies * 2 * self.hidden, 0);
        self.computed.resize(plies, [false; 2]);
        self.plies.resize(plies, Ply::default());
        self.pieces.resize(plies, Pieces::default());
    }

    /// Before `board` (the position before the move) plays `mv`.
    #[inline]
    pub fn push_move(&mut self, board: &Board, mv: Move) {
        let delta = Delta::of_move(board, mv);
        let mut ply = Ply {
            delta,
            keys: self.plies[self.top].keys,
            refresh: [false; 2],
        };
        // The mover is the first piece taken off and put on (the king when castling).
        let king = |f: u16| f as usize % 384 / 64 == Piece::King as usize;
        if self.keyed && delta.n_sub > 0 && king(delta.subs[0]) {
            let us = board.side_to_move();
            let key = self
                .kings
                .key(us, Square::index(delta.adds[0] as usize % 64));
            let u = us as usize;
            if key != ply.keys[u] {
                ply.keys[u] = key;
                ply.refresh[u] = true;
                self.push(ply);
                self.pieces[self.top] = Pieces::after(board, &delta);
                return;
            }
        }
        self.push(ply);
    }

    /// A null move changes no feature.
    #[inline]
    pub fn push_null(&mut self) {
        let ply = Ply {
            keys: self.plies[self.top].keys,
            ..Ply::default()
        };
        self.push(ply);
    }

    #[inline]
    fn push(&mut self, ply: Ply) {
        self.top += 1;
        if self.top == self.computed.len() {
            self.grow();
        }
        self.plies[self.top] = ply;
        self.computed[self.top] = [false; 2];
    }

    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop below the root");
        self.top = self.top.saturating_sub(1);
    }

    /// Brings the top accumulators up to date.
    #[inline]
    pub fn apply(&mut self, net: &Network) {
        if self.keyed {
            self.apply_keyed(net);
        } else {
            self.apply_plain(net);
        }
    }

    /// Without king buckets both perspectives are always computed together, from the
    /// nearest computed ancestor, one row per piece as in versions 1 and 2.
    fn apply_plain(&mut self, net: &Network) {
        let mut from = self.top;
        while !self.computed[from][0] {
            from -= 1;
        }
        let h = self.hidden;
        for ply in from + 1..=self.top {
            let d = self.plies[ply].delta;
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
            self.computed[ply] = [true; 2];
        }
    }

    /// With king buckets each perspective comes from its own nearest computed ancestor, or
    /// from the cache at the last ply where its king changed key.
    fn apply_keyed(&mut self, net: &Network) {
        let h = self.hidden;
        for side in [Color::White, Color::Black] {
            let s = side as usize;
            let mut from = self.top;
            while !self.computed[from][s] {
                from -= 1;
            }
            if from == self.top {
                continue;
            }
            if let Some(r) = (from + 1..=self.top)
                .rev()
                .find(|&p| self.plies[p].refresh[s])
            {
                let acc = &mut self.accs[(r * 2 + s) * h..(r * 2 + s + 1) * h];
                let pieces = &self.pieces[r];
                self.cache
                    .refresh(net, side, pieces.king(side), pieces, acc);
                self.computed[r][s] = true;
                from = r;
            }
            for ply in from + 1..=self.top {
                let Ply { delta: d, keys, .. } = self.plies[ply];
                let key = keys[s];
                // Rows by offset into the feature weights; black's perspective reads the
                // vertically mirrored feature of the same piece.
                let row = |f: u16| {
                    let f = f as usize;
                    h * key.input(if s == 0 { f } else { flip_feature(f) })
                };
                let adds = [row(d.adds[0]), row(d.adds[1])];
                let subs = [row(d.subs[0]), row(d.subs[1])];
                let (done, rest) = self.accs.split_at_mut((ply * 2 + s) * h);
                net.kernel.add_sub(
                    &mut rest[..h],
                    &done[((ply - 1) * 2 + s) * h..((ply - 1) * 2 + s + 1) * h],
                    net.ft_weights(),
                    &adds[..d.n_add as usize],
                    &subs[..d.n_sub as usize],
                );
                self.computed[ply][s] = true;
            }
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
        self.computed[self.top] == [true; 2]
    }

    /// The evaluation of the top position, which must be up to date ([`NnueState::apply`]).
    #[inline]
    pub fn evaluate_current(&self, net: &Network, board: &Board) -> i32 {
        debug_assert!(self.is_current(), "evaluate_current before apply");
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
    let king = board.king(perspective);
    for color in [Color::White, Color::Black] {
        for piece in Piece::ALL {
            for sq in board.colored_pieces(color, piece) {
                let f = net.input(perspective, king, color, piece, sq);
                debug_assert!(f < INPUTS * net.king_buckets().count());
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
    use super::super::test_support::{random_king_network, Rng};
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
            // Endgames: kings walk across buckets and mirror halves, captures and
            // promotions on the way.
            ("8/2k2p2/8/3P4/8/8/2K1p3/8 w - - 0 1", false),
            ("4k3/1p4p1/8/2KN4/8/5b2/6P1/8 b - - 0 1", false),
        ];
        let mut rng = Rng(2024);
        let kings = |name| KingBuckets::layout(name).unwrap();
        // Eight output buckets with SCReLU: captures move the evaluation between them; king
        // buckets: king moves rebuild a perspective from the cache.
        for (activation, buckets, kings) in [
            (super::super::Activation::SCReLU, 1, KingBuckets::NONE),
            (super::super::Activation::CReLU, 1, KingBuckets::NONE),
            (super::super::Activation::SCReLU, 8, KingBuckets::NONE),
            (super::super::Activation::SCReLU, 8, kings("mirror4")),
            (super::super::Activation::CReLU, 1, kings("mirror8")),
            (super::super::Activation::SCReLU, 4, kings("mirror16")),
            (super::super::Activation::SCReLU, 1, kings("mirror1")),
        ] {
            let net = random_king_network(&mut rng, 32, activation, buckets, kings);
            for kernel in [Kernel::Scalar, Kernel::detect()] {
                let net = net.clone().with_kernel(kernel);
                for &(fen, frc) in &fens {
                    for game in 0..6 {
                        random_walk(&net, fen, frc, &mut rng, 160 + game);
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

    /// [nnue-finny] One cache entry used for many positions in turn (random positions of
    /// random games, the king kept in one bucket and half or not): every refresh equals the
    /// accumulator from nothing, and a perspective's refreshes count only in their own key.
    #[test]
    fn the_accumulator_cache_equals_a_full_refresh_after_many_refreshes() {
        let mut rng = Rng(99);
        for name in ["none", "mirror8", "mirror16"] {
            let kings = KingBuckets::layout(name).unwrap();
            let net = random_king_network(&mut rng, 48, super::super::Activation::SCReLU, 1, kings);
            for kernel in [Kernel::Scalar, Kernel::detect()] {
                let net = net.clone().with_kernel(kernel);
                let mut cache = AccumulatorCache::new(&net);
                let (mut got, mut want) = (vec![0; 48], vec![0; 48]);
                let mut board = Board::default();
                let mut refreshes = 0;
                for ply in 0..600 {
                    let mut moves = Vec::new();
                    board.generate_moves(|pm| {
                        moves.extend(pm);
                        false
                    });
                    if moves.is_empty() || ply % 150 == 0 {
                        board = Board::default();
                        continue;
                    }
                    board.play_unchecked(moves[(rng.next() % moves.len() as u64) as usize]);
                    for side in [Color::White, Color::Black] {
                        cache.refresh(&net, side, board.king(side), &Pieces::of(&board), &mut got);
                        refresh(&net, &board, side, &mut want);
                        assert_eq!(got, want, "{name} {board}");
                        refreshes += 1;
                    }
                }
                assert!(refreshes > 1000);
            }
        }
    }

    /// [nnue-kings] Which king moves rebuild a perspective: across a bucket or mirror half
    /// (castling short from e1 to g1 stays in mirror8's bucket 3... and half), not within.
    #[test]
    fn only_king_moves_across_keys_refresh() {
        let mut rng = Rng(8);
        let kings = KingBuckets::layout("mirror8").unwrap();
        let net = random_king_network(&mut rng, 16, super::super::Activation::SCReLU, 1, kings);
        let mut state = NnueState::new(&net);
        let cases = [
            // e1 -> d1: same bucket (3), other half.
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1d1", true),
            // e1 -> f1: bucket 3 to bucket 2, same half.
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1f1", true),
            // e3 -> f4: bucket 6 both, half e-h both.
            ("4k3/8/8/8/8/4K3/8/8 w - - 0 1", "e3f4", false),
            // Castling short: e1 (bucket 3) to g1 (bucket 1).
            ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1h1", true),
            // Black king e8 -> e7: bucket 3 to 5 from black's side.
            ("4k3/8/8/8/8/8/8/4K3 b - - 0 1", "e8e7", true),
            // A rook move refreshes nothing.
            ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "h1h5", false),
        ];
        for (fen, mv, want) in cases {
            let board: Board = fen.parse().unwrap();
            state.reset(&net, &board);
            let us = board.side_to_move() as usize;
            state.push_move(&board, mv.parse().unwrap());
            assert_eq!(state.plies[1].refresh[us], want, "{fen} {mv}");
            assert_eq!(state.plies[1].keys[us] != state.plies[0].keys[us], want);
            assert!(!state.plies[1].refresh[1 - us]);
            let mut after = board.clone();
            after.play(mv.parse().unwrap());
            assert_eq!(state.evaluate(&net, &after), evaluate_board(&net, &after));
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
