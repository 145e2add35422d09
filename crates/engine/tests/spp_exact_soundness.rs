//! [spp] Property tests for `spp-exact`'s soundness: on positions where the draw rules score
//! quiet siblings (fifty moves, repetitions, stalemate tricks) and where mates are near,
//! `spp-exact` must return alpha-beta's move and score (and `sppt-exact` ABT's) at every depth.
//!
//! The positions are generated from a fixed seed, so a failure names a FEN (and move list) that
//! reproduces it.

use augur::position::Position;
use augur::search::textbook::{run, Algorithm, TextbookConfig};
use cozy_chess::{Board, Color, Move, Piece};

/// SplitMix64: a small seeded generator, enough to vary positions reproducibly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const SEEDS: [&str; 8] = [
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "3r2k1/p2q4/1p4p1/3rRp1p/5P1P/6PK/P3R3/3Q4 w - - 0 1",
    "8/8/4k3/8/3K4/3P4/8/8 w - - 0 1",
    "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "7k/2p1b1pp/8/1p2P3/1P3r2/2P3Q1/1P5P/R4qBK b - - 0 1",
];

/// One position with its history (the moves matter for repetitions).
#[derive(Clone)]
struct Case {
    fen: String,
    moves: Vec<String>,
}

impl Case {
    fn position(&self) -> Position {
        let mut pos = Position::from_fen(&self.fen, false).expect("generated FEN");
        for m in &self.moves {
            pos.play_uci(m).expect("generated move");
        }
        pos
    }
}

fn with_halfmove(board: &Board, clock: u32) -> String {
    let fen = format!("{board}");
    let mut f: Vec<&str> = fen.split_whitespace().collect();
    let clock = clock.to_string();
    f[4] = &clock;
    f.join(" ")
}

/// Random playout from a seed position, `plies` moves, avoiding finished games.
fn playout(rng: &mut Rng, fen: &str, plies: usize) -> Board {
    let mut b: Board = fen.parse().unwrap();
    for _ in 0..plies {
        let mut moves = Vec::new();
        b.generate_moves(|pm| {
            moves.extend(pm);
            false
        });
        if moves.is_empty() {
            break;
        }
        let mut next = b.clone();
        next.play_unchecked(moves[rng.below(moves.len())]);
        let mut any = false;
        next.generate_moves(|_| {
            any = true;
            true
        });
        if !any {
            break;
        }
        b = next;
    }
    b
}

/// Positions one to five plies from the fifty-move limit.
fn fifty_move_cases(rng: &mut Rng, n: usize) -> Vec<Case> {
    (0..n)
        .map(|_| {
            let seed = SEEDS[rng.below(SEEDS.len())];
            let plies = rng.below(12);
            let b = playout(rng, seed, plies);
            let clock = 95 + rng.below(5) as u32;
            Case {
                fen: with_halfmove(&b, clock),
                moves: Vec::new(),
            }
        })
        .collect()
}

/// A quiet, non-pawn move and its reverse (a "shuffle"), if the side to move has one.
fn shuffle(rng: &mut Rng, b: &Board) -> Option<Move> {
    let mut quiet = Vec::new();
    b.generate_moves(|pm| {
        if pm.piece != Piece::Pawn {
            for mv in pm {
                if !b.occupied().has(mv.to) {
                    quiet.push(mv);
                }
            }
        }
        false
    });
    (!quiet.is_empty()).then(|| quiet[rng.below(quiet.len())])
}

/// Positions whose history holds the current position (and its neighbours) twice already:
/// two shuffles back and forth by each side, so a quiet move can complete a threefold.
fn repetition_cases(rng: &mut Rng, n: usize) -> Vec<Case> {
    let mut out = Vec::new();
    while out.len() < n {
        let seed = SEEDS[rng.below(SEEDS.len())];
        let plies = rng.below(10);
        let start = playout(rng, seed, plies);
        let Some(a) = shuffle(rng, &start) else {
            continue;
        };
        let mut b1 = start.clone();
        b1.play_unchecked(a);
        let Some(c) = shuffle(rng, &b1) else { continue };
        let back_a = Move {
            from: a.to,
            to: a.from,
            promotion: None,
        };
        let back_c = Move {
            from: c.to,
            to: c.from,
            promotion: None,
        };
        let cycle = [a, c, back_a, back_c];
        let mut b = start.clone();
        let mut moves = Vec::new();
        let mut ok = true;
        'cycles: for _ in 0..2 {
            for &mv in &cycle {
                if !b.is_legal(mv) {
                    ok = false;
                    break 'cycles;
                }
                b.play_unchecked(mv);
                moves.push(mv.to_string());
            }
        }
        // Optionally stop one ply into a third cycle, so the repeating move is the opponent's.
        if ok && rng.below(2) == 0 && b.is_legal(a) {
            b.play_unchecked(a);
            moves.push(a.to_string());
        }
        if ok {
            out.push(Case {
                fen: format!("{start}"),
                moves,
            });
        }
    }
    out
}

/// Sparse positions, one side far ahead: a few men each, kings often cornered, so one side's
/// quiet move can stalemate the other.
fn stalemate_cases(rng: &mut Rng, n: usize) -> Vec<Case> {
    let strong = [
        Piece::Queen,
        Piece::Rook,
        Piece::Rook,
        Piece::Bishop,
        Piece::Knight,
    ];
    let weak = [Piece::Pawn, Piece::Pawn, Piece::Knight, Piece::Bishop];
    let mut out = Vec::new();
    while out.len() < n {
        let mut board = [None::<(Piece, Color)>; 64];
        let corners = [0usize, 7, 56, 63, 1, 8, 6, 15, 48, 57, 55, 62];
        let (s, w) = if rng.below(2) == 0 {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        let weak_king = corners[rng.below(corners.len())];
        board[weak_king] = Some((Piece::King, w));
        let mut place = |rng: &mut Rng, p: Piece, c: Color| loop {
            let sq = rng.below(64);
            let rank = sq / 8;
            if board[sq].is_some() || (p == Piece::Pawn && (rank == 0 || rank == 7)) {
                continue;
            }
            board[sq] = Some((p, c));
            break;
        };
        place(rng, Piece::King, s);
        for _ in 0..1 + rng.below(2) {
            let p = strong[rng.below(strong.len())];
            place(rng, p, s);
        }
        for _ in 0..rng.below(3) {
            let p = weak[rng.below(weak.len())];
            place(rng, p, w);
        }
        if rng.below(2) == 0 {
            place(rng, Piece::Pawn, s);
        }
        let side = if rng.below(2) == 0 { "w" } else { "b" };
        let clock = if rng.below(3) == 0 { 97 } else { 0 };
        if let Some(b) = legal_board(&board, side, clock) {
            out.push(Case {
                fen: format!("{b}"),
                moves: Vec::new(),
            });
        }
    }
    out
}

/// The board for a placement, side and clock if it is a legal position with a move to play:
/// kings apart, the side not to move not in check (seen with the sides swapped).
fn legal_board(board: &[Option<(Piece, Color)>; 64], side: &str, clock: u32) -> Option<Board> {
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                None => empty += 1,
                Some((p, c)) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let ch: char = p.into();
                    fen.push(if c == Color::White {
                        ch.to_ascii_uppercase()
                    } else {
                        ch
                    });
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let other = if side == "w" { "b" } else { "w" };
    let b: Board = format!("{fen} {side} - - {clock} 60").parse().ok()?;
    let swapped: Board = format!("{fen} {other} - - {clock} 60").parse().ok()?;
    let mut any = false;
    b.generate_moves(|_| {
        any = true;
        true
    });
    let kings_apart = !cozy_chess::get_king_moves(b.king(Color::White)).has(b.king(Color::Black));
    (any && swapped.checkers().is_empty() && kings_apart).then_some(b)
}

/// Positions where the side behind on the evaluation can stalemate the side ahead with a quiet
/// move: the side ahead has a cornered king and only blocked pawns (each with a man of the
/// side to move in front of it), so a draw score there beats every evaluation of the mover's
/// quiet moves.
fn stalemate_trick_cases(rng: &mut Rng, n: usize) -> Vec<Case> {
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < n && tries < 200_000 {
        tries += 1;
        let mut board = [None::<(Piece, Color)>; 64];
        let (s, w) = if rng.below(2) == 0 {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        let forward: i32 = if s == Color::White { 8 } else { -8 };
        let corner = [0usize, 7, 56, 63][rng.below(4)];
        board[corner] = Some((Piece::King, s));
        // Columns of one to three pawns of the side ahead, one man of the side to move in front
        // of each column: more material for the side ahead, none of it can move.
        for _ in 0..1 + rng.below(3) {
            let file = rng.below(8) as i32;
            let height = 1 + rng.below(3) as i32;
            let base_rank = if s == Color::White {
                1 + rng.below(3) as i32
            } else {
                6 - rng.below(3) as i32
            };
            let squares: Vec<i32> = (0..=height)
                .map(|k| base_rank * 8 + file + k * forward)
                .collect();
            if squares
                .iter()
                .any(|&q| !(0..64).contains(&q) || board[q as usize].is_some())
            {
                continue;
            }
            let top = *squares.last().unwrap();
            let top_rank = top / 8;
            for &q in &squares[..squares.len() - 1] {
                board[q as usize] = Some((Piece::Pawn, s));
            }
            let blocker = if top_rank == 0 || top_rank == 7 || rng.below(2) == 0 {
                Piece::Knight
            } else {
                Piece::Pawn
            };
            board[top as usize] = Some((blocker, w));
        }
        let mut place = |rng: &mut Rng, p: Piece, c: Color| loop {
            let sq = rng.below(64);
            if board[sq].is_none() {
                board[sq] = Some((p, c));
                break;
            }
        };
        place(rng, Piece::King, w);
        if rng.below(3) == 0 {
            let p = [Piece::Rook, Piece::Knight, Piece::Bishop][rng.below(3)];
            place(rng, p, w);
        }
        let side = if w == Color::White { "w" } else { "b" };
        let Some(b) = legal_board(&board, side, 0) else {
            continue;
        };
        if losing_mover_can_stalemate(&b) {
            out.push(Case {
                fen: format!("{b}"),
                moves: Vec::new(),
            });
        }
    }
    out
}

/// Every case at depths 1..=max: spp-exact against alpha-beta, sppt-exact against ABT.
fn check(cases: &[Case], max_depth: i32) -> Vec<String> {
    let cfg = TextbookConfig::default();
    let mut failures = Vec::new();
    for case in cases {
        let pos = case.position();
        for d in 1..=max_depth {
            for (exact, base) in [
                (Algorithm::SppExact, Algorithm::AlphaBeta),
                (Algorithm::SpptExact, Algorithm::Abt),
            ] {
                let a = run(&pos, base, d, &cfg).unwrap();
                let e = run(&pos, exact, d, &cfg).unwrap();
                if (a.best, a.score) != (e.best, e.score) {
                    failures.push(format!(
                        "{exact} vs {base} depth {d}: {:?} {} vs {:?} {} | {} moves {}",
                        e.best.map(|m| m.to_string()),
                        e.score,
                        a.best.map(|m| m.to_string()),
                        a.score,
                        case.fen,
                        case.moves.join(" ")
                    ));
                }
                if exact == Algorithm::SppExact && e.leaves > a.leaves {
                    failures.push(format!(
                        "{exact} evaluated more leaves than {base} at depth {d}: {} > {} | {} moves {}",
                        e.leaves,
                        a.leaves,
                        case.fen,
                        case.moves.join(" ")
                    ));
                }
            }
        }
    }
    failures
}

#[test]
fn spp_exact_matches_alphabeta_near_the_fifty_move_limit() {
    let mut rng = Rng(0x5150_0001);
    let f = check(&fifty_move_cases(&mut rng, 150), 3);
    assert!(f.is_empty(), "{} failures:\n{}", f.len(), f.join("\n"));
}

#[test]
fn spp_exact_matches_alphabeta_with_repetitions_available() {
    let mut rng = Rng(0x5150_0002);
    let f = check(&repetition_cases(&mut rng, 150), 3);
    assert!(f.is_empty(), "{} failures:\n{}", f.len(), f.join("\n"));
}

/// Whether some move of the side to move, or some reply to one, leaves the other side
/// stalemated: the generator's purpose, checked so that it cannot silently drift.
fn stalemate_within_two_plies(b: &Board) -> bool {
    let mut moves = Vec::new();
    b.generate_moves(|pm| {
        moves.extend(pm);
        false
    });
    let stalemated = |c: &Board| {
        let mut any = false;
        c.generate_moves(|_| {
            any = true;
            true
        });
        !any && c.checkers().is_empty()
    };
    moves.iter().any(|&mv| {
        let mut c = b.clone();
        c.play_unchecked(mv);
        if stalemated(&c) {
            return true;
        }
        let mut replies = Vec::new();
        c.generate_moves(|pm| {
            replies.extend(pm);
            false
        });
        replies.iter().any(|&r| {
            let mut d = c.clone();
            d.play_unchecked(r);
            stalemated(&d)
        })
    })
}

#[test]
fn spp_exact_matches_alphabeta_with_stalemate_tricks() {
    let mut rng = Rng(0x5150_0003);
    // Keep the sparse positions that have a stalemate within two plies (about one in 15).
    let mut cases = Vec::new();
    for _ in 0..20 {
        cases.extend(
            stalemate_cases(&mut rng, 200)
                .into_iter()
                .filter(|c| stalemate_within_two_plies(&c.fen.parse().unwrap())),
        );
    }
    assert!(cases.len() >= 150, "only {} stalemate cases", cases.len());
    let tricks = stalemate_trick_cases(&mut rng, 100);
    assert_eq!(tricks.len(), 100, "the stalemate-trick generator ran dry");
    cases.extend(tricks);
    let f = check(&cases, 3);
    assert!(f.is_empty(), "{} failures:\n{}", f.len(), f.join("\n"));
}

/// The side to move is behind on the classic evaluation and has a move that stalemates the
/// other side: the draw score then beats the evaluation bound of every quiet sibling.
fn losing_mover_can_stalemate(b: &Board) -> bool {
    let e = augur::eval::evaluate_board(
        b,
        augur::eval::EvalKind::Classic,
        &augur::eval::nnue::default_network(),
        augur::eval::tapered::KING_SAFETY_AS_TUNED,
    );
    let mut moves = Vec::new();
    b.generate_moves(|pm| {
        moves.extend(pm);
        false
    });
    e < -30
        && moves.iter().any(|&mv| {
            let mut c = b.clone();
            c.play_unchecked(mv);
            let mut any = false;
            c.generate_moves(|_| {
                any = true;
                true
            });
            !any && c.checkers().is_empty()
        })
}
