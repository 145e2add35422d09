//! Augur's own evaluation: every term has a middle-game and an endgame weight, blended by the
//! remaining non-pawn material (the phase). The evaluation is weights × features: `terms`
//! names each feature it finds by the flat index of its weight (`layout`) and hands it to a
//! `Sink`. The engine's sink adds the weights at once (`evaluate_white`, no feature vector is
//! built at search time); the tuner's sink (`Trace`) records the counts instead. The weights
//! live in the generated `weights.rs`, written by `augur-lab tune`.

pub mod layout;
pub mod trace;
#[rustfmt::skip]
pub mod weights;

pub use layout::WEIGHTS;
pub use trace::Trace;

use super::passed_span;
use cozy_chess::{BitBoard, Board, Color, File, Piece};

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
impl std::ops::Sub for Score {
    type Output = Score;
    fn sub(self, o: Score) -> Score {
        Score(self.0 - o.0, self.1 - o.1)
    }
}
impl std::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        Score(self.0 * k, self.1 * k)
    }
}

const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_MAX: i32 = 24;
/// King-zone attack units per attacked square: knight, bishop, rook, queen. Not a weight:
/// the units index the `KING_ATTACK` table, whose entries are the weights.
const KING_ATTACK_UNIT: [i32; 6] = [0, 2, 2, 3, 5, 0];
/// Piece values that decide which pawnless endings are scaled down as drawish. Fixed (the
/// hand-set endgame values), so that tuning the material weights does not move the rule.
const DRAWISH_VALUE: [i32; 6] = [0, 305, 325, 540, 1010, 0];

/// Receives the evaluation's features: `count` times the weight at flat index `index`
/// (`layout`), for side `us`. The evaluation is generic over it, so each sink gets its own
/// monomorphised copy: a score accumulator in the engine, a coefficient trace in the tuner.
pub trait Sink {
    fn add(&mut self, us: Color, index: usize, count: i32);

    /// A king-safety term (`layout::is_king_safety`): `add`, unless the sink keeps them apart.
    #[inline(always)]
    fn king(&mut self, us: Color, index: usize, count: i32) {
        self.add(us, index, count);
    }

    /// A piece of `us` on `sq` (seen from its own side): its material and piece-square weights.
    #[inline(always)]
    fn piece(&mut self, us: Color, piece: Piece, sq: usize) {
        self.add(us, layout::MATERIAL + piece as usize, 1);
        self.add(us, layout::PSQ + 64 * piece as usize + sq, 1);
    }
}

/// The engine's sink: each side's (mg, eg) sum of weights, the king-safety terms
/// (`layout::is_king_safety`) apart so that `KingSafety` can scale them.
#[derive(Default)]
struct Accumulator {
    rest: [Score; 2],
    king: [Score; 2],
}

impl Sink for Accumulator {
    #[inline(always)]
    fn add(&mut self, us: Color, index: usize, count: i32) {
        self.rest[us as usize] += WEIGHTS[index] * count;
    }

    #[inline(always)]
    fn king(&mut self, us: Color, index: usize, count: i32) {
        self.king[us as usize] += WEIGHTS[index] * count;
    }

    #[inline(always)]
    fn piece(&mut self, us: Color, piece: Piece, sq: usize) {
        self.rest[us as usize] += PIECE_SQUARE[piece as usize][sq];
    }
}

/// The `KingSafety` percent at which the evaluation is its weights as tuned.
pub const KING_SAFETY_AS_TUNED: i32 = 100;

/// Material plus piece-square weight of each piece on each square, folded at compile time
/// so the engine adds one number a piece.
static PIECE_SQUARE: [[Score; 64]; 6] = {
    let mut t = [[Score(0, 0); 64]; 6];
    let mut p = 0;
    while p < 6 {
        let mut sq = 0;
        while sq < 64 {
            let m = WEIGHTS[layout::MATERIAL + p];
            let q = WEIGHTS[layout::PSQ + 64 * p + sq];
            t[p][sq] = Score(m.0 + q.0, m.1 + q.1);
            sq += 1;
        }
        p += 1;
    }
    t
};

/// Evaluation from white's point of view, in centipawns.
pub fn evaluate_white(board: &Board) -> i32 {
    evaluate_white_scaled(board, KING_SAFETY_AS_TUNED)
}

/// `evaluate_white` with the king-safety terms at `king_safety` percent ([kingsafety]).
pub fn evaluate_white_scaled(board: &Board, king_safety: i32) -> i32 {
    let mut acc = Accumulator::default();
    let phase = terms(board, &mut acc);
    finish(board, acc, phase, king_safety)
}

/// `evaluate_white_scaled`, with the pawn-and-king terms from `cache` when it has this
/// structure.
pub fn evaluate_white_cached(board: &Board, cache: &mut PawnCache, king_safety: i32) -> i32 {
    let entry = cache.probe(board);
    // The cache keeps the king-safety part unscaled, so a changed `KingSafety` finds no
    // stale entry.
    let mut acc = Accumulator {
        rest: entry.score,
        king: entry.king,
    };
    let phase = piece_terms(board, &entry.info, &mut acc);
    finish(board, acc, phase, king_safety)
}

/// The weighted sum blended by the phase, the tempo, and the drawish-ending scale.
#[inline(always)]
fn finish(board: &Board, acc: Accumulator, phase: i32, king_safety: i32) -> i32 {
    // The tempo is blended on its own, after the rest, as `Trace::evaluate` does: one
    // rounding per part keeps the trace's sum equal to this evaluation.
    let tempo = if board.side_to_move() == Color::White {
        WEIGHTS[layout::TEMPO]
    } else {
        WEIGHTS[layout::TEMPO] * -1
    };
    // [kingsafety] White's king safety minus black's, scaled as one: at 100% it is the
    // tuned sum exactly, and scaling the difference keeps the evaluation colour-symmetric
    // (integer division truncates towards zero on both sides).
    let king = acc.king[0] - acc.king[1];
    let mut sum = acc.rest[0] - acc.rest[1];
    sum += Score(
        king.0 * king_safety / KING_SAFETY_AS_TUNED,
        king.1 * king_safety / KING_SAFETY_AS_TUNED,
    );
    let score = blend(sum, phase) + blend(tempo, phase);
    let strong = stronger_side(score);
    if is_drawish(board, strong) {
        scale_drawish(score)
    } else {
        score
    }
}

/// The phase: 24 with all pieces on the board, 0 with pawns and kings only.
pub fn phase(board: &Board) -> i32 {
    let mut phase = 0;
    for p in Piece::ALL {
        phase += PHASE_WEIGHT[p as usize] * board.pieces(p).len() as i32;
    }
    phase.min(PHASE_MAX)
}

/// Middle-game and endgame parts mixed by the phase.
#[inline]
pub fn blend(s: Score, phase: i32) -> i32 {
    (s.0 * phase + s.1 * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The side a blended score favours (black on zero), for the drawish-ending rule.
#[inline]
pub fn stronger_side(score: i32) -> Color {
    if score > 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// Endings without pawns where the stronger side has at most a minor piece more cannot be
/// won; their score is scaled down (`scale_drawish`) so the search prefers real winning
/// chances.
pub fn is_drawish(board: &Board, strong: Color) -> bool {
    if !board.colored_pieces(strong, Piece::Pawn).is_empty() {
        return false;
    }
    let mat = |c: Color| {
        [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
            .iter()
            .map(|&p| DRAWISH_VALUE[p as usize] * board.colored_pieces(c, p).len() as i32)
            .sum::<i32>()
    };
    mat(strong) - mat(!strong) <= DRAWISH_VALUE[Piece::Bishop as usize]
        && mat(strong) < 2 * DRAWISH_VALUE[Piece::Rook as usize]
}

#[inline]
pub fn scale_drawish(score: i32) -> i32 {
    score / 8
}

/// Every weighted feature of both sides except the tempo, handed to `sink`; returns the phase.
#[inline(always)]
pub fn terms<S: Sink>(board: &Board, sink: &mut S) -> i32 {
    let info = pawn_king_terms(board, sink);
    piece_terms(board, &info, sink)
}

/// What the pieces' terms need to know of the pawn structure: each side's pawn attacks and
/// passed pawns. A function of the pawns alone, so the pawn cache keeps it with the score.
#[derive(Clone, Copy, Default)]
pub struct PawnInfo {
    attacks: [BitBoard; 2],
    passers: [BitBoard; 2],
}

/// The terms that depend on nothing but the pawns and the kings, for both sides.
#[inline(always)]
fn pawn_king_terms<S: Sink>(board: &Board, sink: &mut S) -> PawnInfo {
    let attacks = [Color::White, Color::Black]
        .map(|c| pawn_attacks_of(board.colored_pieces(c, Piece::Pawn), c));
    let passers = [
        pawn_king_side(board, Color::White, &attacks, sink),
        pawn_king_side(board, Color::Black, &attacks, sink),
    ];
    PawnInfo { attacks, passers }
}

/// The terms that involve pieces, for both sides; returns the phase.
#[inline(always)]
fn piece_terms<S: Sink>(board: &Board, info: &PawnInfo, sink: &mut S) -> i32 {
    let occ = board.occupied();
    let maps = [
        side(board, Color::White, occ, info, sink),
        side(board, Color::Black, occ, info, sink),
    ];
    threats(board, Color::White, &maps, sink);
    threats(board, Color::Black, &maps, sink);
    phase(board)
}

/// The squares one side attacks, by the kind of attacker: what the threat terms need,
/// gathered by `side` from the reaches its mobility terms compute anyway.
struct AttackMaps {
    pawns: BitBoard,
    minors: BitBoard,
    rooks: BitBoard,
    all: BitBoard,
    /// Knight, bishop, rook, queen reaches, for the safe checks.
    by_piece: [BitBoard; 4],
}

/// Threats: what a quiet position's static score misses most, a piece that must move next
/// (attacked by a lesser piece, or undefended). Weights start at zero and are learned by the
/// tuner.
#[inline(always)]
fn threats<S: Sink>(board: &Board, us: Color, maps: &[AttackMaps; 2], sink: &mut S) {
    use layout::*;
    let them = !us;
    let ours = &maps[us as usize];
    let theirs = &maps[them as usize];
    for p in Piece::ALL {
        let victims = board.colored_pieces(them, p);
        if victims.is_empty() {
            continue;
        }
        let i = p as usize;
        let by_pawn = (victims & ours.pawns).len() as i32;
        if by_pawn > 0 {
            sink.add(us, THREAT_BY_PAWN + i, by_pawn);
        }
        let by_minor = (victims & ours.minors).len() as i32;
        if by_minor > 0 {
            sink.add(us, THREAT_BY_MINOR + i, by_minor);
        }
        let by_rook = (victims & ours.rooks).len() as i32;
        if by_rook > 0 {
            sink.add(us, THREAT_BY_ROOK + i, by_rook);
        }
    }
    let pieces = board.colors(them) & !board.pieces(Piece::Pawn) & !board.pieces(Piece::King);
    let hanging = (pieces & ours.all & !theirs.all).len() as i32;
    if hanging > 0 {
        sink.add(us, HANGING, hanging);
    }

    // Safe checks: a square from which a piece of ours can check the king, that it reaches
    // and nothing of theirs defends. The king-zone count sees pressure; this sees the blow.
    let king = board.king(them);
    let occ = board.occupied();
    let safe = !theirs.all & !board.colors(us);
    let diagonal = cozy_chess::get_bishop_moves(king, occ);
    let straight = cozy_chess::get_rook_moves(king, occ);
    let from = [
        cozy_chess::get_knight_moves(king),
        diagonal,
        straight,
        diagonal | straight,
    ];
    for (i, f) in from.into_iter().enumerate() {
        let n = (f & ours.by_piece[i] & safe).len() as i32;
        if n > 0 {
            sink.king(us, SAFE_CHECK + i, n);
        }
    }

    // Weak squares next to their king: ours to use, and only the king or queen to defend.
    let zone = cozy_chess::get_king_moves(king) | king.bitboard();
    let weak = (zone & ours.all & !(theirs.pawns | theirs.minors | theirs.rooks)).len() as i32;
    if weak > 0 {
        sink.king(us, KING_WEAK, weak);
    }

    // A pawn push that will attack a piece: a threat one quiet move away.
    let pawns = board.colored_pieces(us, Piece::Pawn);
    let pushed = forward(pawns, us) & !occ & !theirs.pawns;
    let targets = board.colors(them) & !board.pieces(Piece::Pawn) & !board.pieces(Piece::King);
    let n = (pawn_attacks_of(pushed, us) & targets).len() as i32;
    if n > 0 {
        sink.add(us, PUSH_THREAT, n);
    }

    // What our king attacks: in the endgame, pawns it is about to eat.
    let n = (cozy_chess::get_king_moves(board.king(us)) & board.colors(them)).len() as i32;
    if n > 0 {
        sink.add(us, THREAT_BY_KING, n);
    }
}

/// The squares one rank further towards `c`'s promotion rank than those of `b`.
#[inline(always)]
fn forward(b: BitBoard, c: Color) -> BitBoard {
    match c {
        Color::White => BitBoard(b.0 << 8),
        Color::Black => BitBoard(b.0 >> 8),
    }
}

/// The square in front of `c`'s pawn on `sq` (never off the board: pawns stand on ranks 2–7).
#[inline(always)]
fn stop_square(sq: cozy_chess::Square, c: Color) -> cozy_chess::Square {
    forward(sq.bitboard(), c)
        .next_square()
        .expect("a pawn's square has one in front")
}

/// The squares the pawns of `c` on `pawns` attack, all at once.
#[inline(always)]
fn pawn_attacks_of(pawns: BitBoard, c: Color) -> BitBoard {
    let west = (pawns & !File::A.bitboard()).0;
    let east = (pawns & !File::H.bitboard()).0;
    match c {
        Color::White => BitBoard((west << 7) | (east << 9)),
        Color::Black => BitBoard((west >> 9) | (east >> 7)),
    }
}

/// Chebyshev distance: king moves from `a` to `b`.
#[inline(always)]
fn distance(a: cozy_chess::Square, b: cozy_chess::Square) -> usize {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr) as usize
}

#[inline(always)]
fn side<S: Sink>(
    board: &Board,
    us: Color,
    occ: BitBoard,
    info: &PawnInfo,
    sink: &mut S,
) -> AttackMaps {
    use layout::*;
    let pawn_att = &info.attacks;
    let them = !us;
    let own = board.colors(us);
    let safe = !own & !pawn_att[them as usize];
    let enemy_king = board.king(them);
    let king_zone = cozy_chess::get_king_moves(enemy_king) | enemy_king.bitboard();
    let mut attack_units = 0;
    let mut attackers = 0;
    let mut maps = AttackMaps {
        pawns: pawn_att[us as usize],
        minors: BitBoard::EMPTY,
        rooks: BitBoard::EMPTY,
        all: pawn_att[us as usize] | cozy_chess::get_king_moves(board.king(us)),
        by_piece: [BitBoard::EMPTY; 4],
    };

    for p in Piece::ALL {
        for sq in board.colored_pieces(us, p) {
            sink.piece(us, p, sq.relative_to(us) as usize);
            let reach = match p {
                Piece::Knight => cozy_chess::get_knight_moves(sq),
                Piece::Bishop => cozy_chess::get_bishop_moves(sq, occ),
                Piece::Rook => cozy_chess::get_rook_moves(sq, occ),
                Piece::Queen => {
                    cozy_chess::get_bishop_moves(sq, occ) | cozy_chess::get_rook_moves(sq, occ)
                }
                _ => continue,
            };
            match p {
                Piece::Knight | Piece::Bishop => maps.minors |= reach,
                Piece::Rook => maps.rooks |= reach,
                _ => {}
            }
            maps.all |= reach;
            maps.by_piece[p as usize - 1] |= reach;
            sink.add(
                us,
                MOBILITY[p as usize - 1] + (reach & safe).len() as usize,
                1,
            );
            let hits = (reach & king_zone).len() as i32;
            if hits > 0 {
                attackers += 1;
                attack_units += hits * KING_ATTACK_UNIT[p as usize];
            }
        }
    }

    // King safety: attacks on the enemy king zone count only with two or more attackers; the
    // weight is a table by attack units, so it can grow faster than linearly, because
    // coordinated attacks are what break a king.
    if attackers >= 2 {
        let u = attack_units.min(KING_ATTACK_MAX as i32) as usize;
        sink.king(us, KING_ATTACK + u, 1);
    }

    let pawns = board.colored_pieces(us, Piece::Pawn);
    let their_pawns = board.colored_pieces(them, Piece::Pawn);
    for sq in info.passers[us as usize] {
        // A passer with a free path is worth more: nothing blocks it yet.
        let front = sq.file().bitboard() & passed_span(sq, us);
        if (front & occ).is_empty() {
            sink.add(us, PASSED_FREE + sq.relative_to(us).rank() as usize, 1);
        }
    }

    if board.colored_pieces(us, Piece::Bishop).len() >= 2 {
        sink.add(us, BISHOP_PAIR, 1);
    }
    // A bishop hemmed in by its own pawns on its colour; a minor shielded by a pawn in front.
    for sq in board.colored_pieces(us, Piece::Bishop) {
        let colour = if BitBoard::LIGHT_SQUARES.has(sq) {
            BitBoard::LIGHT_SQUARES
        } else {
            BitBoard::DARK_SQUARES
        };
        let n = (pawns & colour).len() as i32;
        if n > 0 {
            sink.add(us, BISHOP_PAWNS, n);
        }
    }
    let minors = board.colored_pieces(us, Piece::Knight) | board.colored_pieces(us, Piece::Bishop);
    let pawns_ahead = forward(board.pieces(Piece::Pawn), !us);
    let behind = (minors & pawns_ahead).len() as i32;
    if behind > 0 {
        sink.add(us, MINOR_BEHIND_PAWN, behind);
    }
    for (i, p) in [Piece::Knight, Piece::Bishop].into_iter().enumerate() {
        for sq in board.colored_pieces(us, p) {
            let rank = sq.relative_to(us).rank() as usize;
            if (3..=5).contains(&rank)
                && pawn_att[us as usize].has(sq)
                && (passed_span(sq, us) & sq.file().adjacent() & their_pawns).is_empty()
            {
                sink.add(us, OUTPOST + i, 1);
            }
        }
    }
    for sq in board.colored_pieces(us, Piece::Rook) {
        if sq.relative_to(us).rank() as usize == 6 {
            sink.add(us, ROOK_SEVENTH, 1);
        }
        let file = sq.file().bitboard();
        if (file & pawns).is_empty() {
            if (file & their_pawns).is_empty() {
                sink.add(us, ROOK_OPEN, 1);
            } else {
                sink.add(us, ROOK_SEMI_OPEN, 1);
            }
        }
    }
    maps
}

/// One side's pawn structure and its kings' place in it: doubled, isolated, connected and
/// passed pawns, each passer's race against both kings, and the king's shelter. Returns the
/// side's passed pawns.
#[inline(always)]
fn pawn_king_side<S: Sink>(
    board: &Board,
    us: Color,
    pawn_att: &[BitBoard; 2],
    sink: &mut S,
) -> BitBoard {
    use layout::*;
    let them = !us;
    let pawns = board.colored_pieces(us, Piece::Pawn);
    let their_pawns = board.colored_pieces(them, Piece::Pawn);
    for f in File::ALL {
        let on_file = (pawns & f.bitboard()).len() as i32;
        if on_file == 0 {
            continue;
        }
        if on_file > 1 {
            sink.add(us, DOUBLED, on_file - 1);
        }
        if (pawns & f.adjacent()).is_empty() {
            sink.add(us, ISOLATED, on_file);
        }
    }
    let mut passers = BitBoard::EMPTY;
    for sq in pawns {
        let r = sq.relative_to(us).rank() as usize;
        let beside = sq.file().adjacent() & sq.rank().bitboard();
        if pawn_att[us as usize].has(sq) || !(pawns & beside).is_empty() {
            sink.add(us, CONNECTED + r, 1);
        }
        // Backward: its stop square is held by an enemy pawn, and no neighbour level with it
        // or behind can ever come up to support it.
        let neighbours = pawns & sq.file().adjacent();
        if !neighbours.is_empty()
            && (neighbours & !passed_span(sq, us)).is_empty()
            && pawn_att[them as usize].has(stop_square(sq, us))
        {
            sink.add(us, BACKWARD, 1);
        }
        if (passed_span(sq, us) & their_pawns).is_empty() {
            passers |= sq.bitboard();
            sink.add(us, PASSED + r, 1);
            // The passer's race: the king that escorts it, the king that stops it.
            let stop = stop_square(sq, us);
            sink.add(us, PASSED_KING_OWN + distance(board.king(us), stop), 1);
            sink.add(us, PASSED_KING_THEIR + distance(board.king(them), stop), 1);
        }
    }

    // Pawn shield in front of a king on its first two ranks.
    let king = board.king(us);
    let near = king.file().bitboard() | king.file().adjacent();
    let open = File::ALL
        .into_iter()
        .filter(|f| {
            let b = f.bitboard();
            !(b & near).is_empty() && (b & pawns).is_empty()
        })
        .count();
    sink.king(us, KING_OPEN_FILES + open, 1);
    // The king's way to the pawns, for the endgame: the nearest pawn of either side.
    let nearest = (pawns | their_pawns)
        .iter()
        .map(|p| distance(king, p))
        .min()
        .unwrap_or(0);
    sink.add(us, KING_PAWN_DISTANCE + nearest, 1);
    // Space: safe central squares behind our pawns, where pieces can manoeuvre.
    let mut behind = pawns.0;
    for shift in [8, 16, 32] {
        behind |= match us {
            Color::White => behind >> shift,
            Color::Black => behind << shift,
        };
    }
    let centre = File::C.bitboard() | File::D.bitboard() | File::E.bitboard() | File::F.bitboard();
    let ranks = match us {
        Color::White => BitBoard(0x0000_0000_FFFF_FF00),
        Color::Black => BitBoard(0x00FF_FFFF_0000_0000),
    };
    let space =
        (BitBoard(behind) & centre & ranks & !pawns & !pawn_att[them as usize]).len() as i32;
    if space > 0 {
        sink.add(us, SPACE, space);
    }
    // Pawn storm: on each file of the king and its neighbours, how far the nearest enemy pawn
    // has come towards the king's side (0 when the file has none).
    for f in File::ALL {
        if !(f.bitboard() & near).is_empty() {
            let stormers = their_pawns & f.bitboard();
            let nearest = match us {
                Color::White => stormers.iter().map(|p| p.rank() as usize).min(),
                Color::Black => stormers.iter().map(|p| 7 - p.rank() as usize).min(),
            };
            sink.king(us, PAWN_STORM + nearest.unwrap_or(0), 1);
        }
    }
    if king.relative_to(us).rank() as i32 <= 1 {
        let files = king.file().bitboard() | king.file().adjacent();
        let shield = files & passed_span(king, us) & pawns;
        let close = shield
            .iter()
            .filter(|p| (p.rank() as i32 - king.rank() as i32).abs() <= 2)
            .count();
        sink.king(us, PAWN_SHIELD + close.min(SHIELD_MAX), 1);
    }
    passers
}

/// [pawncache] The pawn-and-king terms of recently seen structures, per search thread.
/// Pawns and kings move in few of the search's moves, so most evaluations find their
/// structure here and skip a third of the work. Each entry keeps its whole key (both
/// sides' pawns, both kings), so a hit is exact: the cache changes speed, never a score.
pub struct PawnCache(Box<[PawnEntry]>);

/// One cached structure. The all-zero entry (two kings on a1) matches no legal board.
#[derive(Clone, Copy, Default)]
pub struct PawnEntry {
    pawns: [u64; 2],
    kings: u16,
    score: [Score; 2],
    /// The king-safety part of the pawn-and-king terms (shield, open files, storm), unscaled.
    king: [Score; 2],
    info: PawnInfo,
}

/// 2^14 entries of 88 bytes: about 1.4 MiB a thread.
const PAWN_CACHE_BITS: u32 = 14;

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache(vec![PawnEntry::default(); 1 << PAWN_CACHE_BITS].into_boxed_slice())
    }
}

impl PawnCache {
    /// The entry of `board`'s pawns and kings, computed and stored if it is not there.
    #[inline]
    pub fn probe(&mut self, board: &Board) -> PawnEntry {
        let (pawns, kings, index) = Self::key(board);
        let slot = &mut self.0[index];
        if slot.pawns != pawns || slot.kings != kings {
            let mut acc = Accumulator::default();
            let info = pawn_king_terms(board, &mut acc);
            *slot = PawnEntry {
                pawns,
                kings,
                score: acc.rest,
                king: acc.king,
                info,
            };
        }
        *slot
    }

    /// The entry's key (both sides' pawns, both kings) and its slot.
    #[inline]
    fn key(board: &Board) -> ([u64; 2], u16, usize) {
        let pawns = [
            board.colored_pieces(Color::White, Piece::Pawn).0,
            board.colored_pieces(Color::Black, Piece::Pawn).0,
        ];
        let kings = board.king(Color::White) as u16 | (board.king(Color::Black) as u16) << 6;
        // A multiplicative hash of the key; its top bits pick the slot.
        let h = (pawns[0] ^ pawns[1].rotate_left(29) ^ (kings as u64) << 3)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (pawns, kings, (h >> (64 - PAWN_CACHE_BITS)) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_material_is_good_and_start_is_the_tempo() {
        // The start position is symmetric: everything cancels but the side to move's tempo.
        let start = evaluate_white(&Board::default());
        assert_eq!(start, blend(WEIGHTS[layout::TEMPO], PHASE_MAX));
        let black: Board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"
            .parse()
            .unwrap();
        assert_eq!(evaluate_white(&black), -start);
        assert!(start.abs() <= 50, "{start}");
        let up_knight: Board = "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            .parse()
            .unwrap();
        assert!(evaluate_white(&up_knight) > 200);
        // Bare minor piece advantage is scaled down as a likely draw.
        let kbk: Board = "8/8/4k3/8/8/2B5/8/K7 w - - 0 1".parse().unwrap();
        assert!(evaluate_white(&kbk) < 60);
    }

    /// White's count minus black's of the weight at flat index `index` in `fen`.
    fn net_count(fen: &str, index: usize) -> i32 {
        let board: Board = fen.parse().unwrap();
        Trace::of(&board)
            .coeffs
            .iter()
            .find(|&&(i, _)| i as usize == index)
            .map_or(0, |&(_, c)| c as i32)
    }

    /// The session-14 terms count what their `weights.rs` comments name, on positions built
    /// so that only white has the feature (or black cancels a known part).
    #[test]
    fn new_terms_count_what_they_name() {
        use layout::*;
        // c3 is backward: b4 is ahead of it, and d5 holds c4. b4 has c3 behind it; d5 is
        // isolated, which is another term.
        let backward = "4k3/8/8/3p4/1P6/2P5/8/4K3 w - - 0 1";
        assert_eq!(net_count(backward, BACKWARD), 1);
        assert_eq!(net_count("4k3/8/8/3p4/1PP5/8/8/4K3 w - - 0 1", BACKWARD), 0);
        // The knight on e4 reaches f6, a checking square nothing of black's defends; d6 and
        // g5 do not check, and the king's own squares (f7, g7, h7) are defended.
        assert_eq!(net_count("6k1/8/8/8/4N3/8/8/K7 w - - 0 1", SAFE_CHECK), 1);
        // With a black pawn on g7 defending f6 the check is no longer safe.
        assert_eq!(net_count("6k1/6p1/8/8/4N3/8/8/K7 w - - 0 1", SAFE_CHECK), 0);
        // A black pawn on g4 storms the white king's g-file from white's fourth rank (index 3).
        let storm = "4k3/8/8/8/6p1/8/8/6K1 w - - 0 1";
        assert_eq!(net_count(storm, PAWN_STORM + 3), 1);
        // The dark-squared bishop on c1 sees two own pawns on dark squares (b2, d2), not e2.
        assert_eq!(
            net_count("4k3/8/8/8/8/8/1P1PP3/2B1K3 w - - 0 1", BISHOP_PAWNS),
            2
        );
        // A knight right behind a pawn, own or enemy.
        assert_eq!(
            net_count("4k3/8/8/8/3P4/3N4/8/4K3 w - - 0 1", MINOR_BEHIND_PAWN),
            1
        );
        assert_eq!(
            net_count("4k3/8/8/8/3p4/3N4/8/4K3 w - - 0 1", MINOR_BEHIND_PAWN),
            1
        );
        assert_eq!(
            net_count("4k3/8/8/8/3N4/3P4/8/4K3 w - - 0 1", MINOR_BEHIND_PAWN),
            0
        );

        // The rook on a7 takes f7, g7 and h7 from the black king, who alone defends them.
        assert_eq!(net_count("6k1/R7/8/8/8/8/8/K7 w - - 0 1", KING_WEAK), 3);
        // A pawn on f7 stops the rook there: f7 itself is attacked, g7 and h7 no longer.
        assert_eq!(net_count("6k1/R4p2/8/8/8/8/8/K7 w - - 0 1", KING_WEAK), 1);
        // d4-d5 would attack the knight on c6; with a black pawn on e6 guarding d5 it is no
        // threat.
        assert_eq!(
            net_count("4k3/8/2n5/8/3P4/8/8/4K3 w - - 0 1", PUSH_THREAT),
            1
        );
        assert_eq!(
            net_count("4k3/8/2n1p3/8/3P4/8/8/4K3 w - - 0 1", PUSH_THREAT),
            0
        );
        // The white king attacks the pawn on e5.
        assert_eq!(
            net_count("4k3/8/8/4p3/4K3/8/8/8 w - - 0 1", THREAT_BY_KING),
            1
        );
        // The only pawn, h2, is 7 king moves from a1 and 6 from e8.
        let far = "4k3/8/8/8/8/8/7P/K7 w - - 0 1";
        assert_eq!(net_count(far, KING_PAWN_DISTANCE + 7), 1);
        assert_eq!(net_count(far, KING_PAWN_DISTANCE + 6), -1);
        // Behind d4 and e4: d2, d3, e2, e3.
        assert_eq!(net_count("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", SPACE), 4);
    }

    /// [pawncache] Along random games, the cached evaluation equals the direct one, on a
    /// first visit (a miss or an evicted slot) and on a second (a hit); and hits happen.
    #[test]
    fn pawn_cache_changes_no_score() {
        let mut cache = PawnCache::default();
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut hits = 0;
        let mut evals = 0;
        for _game in 0..40 {
            let mut board = Board::default();
            for ply in 0..120 {
                // A KingSafety that changes between a structure's visits: the cache keeps
                // the king-safety part unscaled, so no visit sees another's scale.
                let ks = [100, 125, 0, 75, 200][ply % 5];
                let direct = evaluate_white_scaled(&board, ks);
                let (pawns, kings, index) = PawnCache::key(&board);
                let slot = &cache.0[index];
                hits += usize::from(slot.pawns == pawns && slot.kings == kings);
                assert_eq!(evaluate_white_cached(&board, &mut cache, ks), direct);
                let slot = &cache.0[index];
                assert!(slot.pawns == pawns && slot.kings == kings);
                let other = [100, 50][ply % 2];
                assert_eq!(
                    evaluate_white_cached(&board, &mut cache, other),
                    evaluate_white_scaled(&board, other)
                );
                evals += 1;
                let mut moves = Vec::new();
                board.generate_moves(|ms| {
                    moves.extend(ms);
                    false
                });
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                board.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
            }
        }
        assert!(evals > 1000, "{evals}");
        assert!(hits > 0 && hits < evals, "{hits} of {evals}");
    }

    /// A sink that checks every term arrives through the right door: `king` for exactly the
    /// weights `layout::is_king_safety` names, so the scaled set is the documented one.
    struct Doors(usize);

    impl Sink for Doors {
        fn add(&mut self, _: Color, index: usize, _: i32) {
            assert!(!layout::is_king_safety(index), "{index} came through add");
        }

        fn king(&mut self, _: Color, index: usize, _: i32) {
            assert!(layout::is_king_safety(index), "{index} came through king");
            self.0 += 1;
        }
    }

    #[test]
    fn king_safety_terms_are_the_ones_the_layout_names() {
        let mut doors = Doors(0);
        for fen in [
            "r4rk1/ppp2p2/2n4Q/3pN3/3P4/5R2/PPP2PPP/6K1 w - - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ] {
            terms(&fen.parse::<Board>().unwrap(), &mut doors);
        }
        assert!(doors.0 > 10, "{}", doors.0);
    }

    /// [kingsafety] At 100% the evaluation is the tuned one; at 0% it is the tuned weights
    /// with every king-safety weight zeroed (the trace's sum), so the terms vanish; in a
    /// king attack 125% moves the score further from 0 than 100%, and 75% less far.
    #[test]
    fn king_safety_scales_the_king_safety_terms() {
        // White's queen, rook and knight bear on a king whose shield has gone; white's own
        // king sits behind its pawns.
        let attack = "r4rk1/ppp2p2/2n4Q/3pN3/3P4/5R2/PPP2PPP/6K1 w - - 0 1";
        let quiet = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
        let mut without_king = WEIGHTS;
        for (i, w) in without_king.iter_mut().enumerate() {
            if layout::is_king_safety(i) {
                *w = Score(0, 0);
            }
        }
        for fen in [
            attack,
            quiet,
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        ] {
            let board: Board = fen.parse().unwrap();
            assert_eq!(evaluate_white_scaled(&board, 100), evaluate_white(&board));
            assert_eq!(evaluate_white(&board), Trace::of(&board).evaluate(&WEIGHTS));
            assert_eq!(
                evaluate_white_scaled(&board, 0),
                Trace::of(&board).evaluate(&without_king),
                "{fen}"
            );
        }
        let board: Board = attack.parse().unwrap();
        let at = |ks| evaluate_white_scaled(&board, ks);
        assert!(at(100) > 0, "{}", at(100));
        assert!(at(0) < at(75) && at(75) < at(100) && at(100) < at(125) && at(125) < at(200));
        // Two bare kings have no king safety to scale.
        let board: Board = quiet.parse().unwrap();
        assert_eq!(evaluate_white_scaled(&board, 200), evaluate_white(&board));
    }
}
