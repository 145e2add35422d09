//! Search scores: centipawns from the side to move's point of view, with mates encoded as
//! `MATE - plies` (we mate) and `-MATE + plies` (we are mated), counted from the root.

/// The deepest ply a search line may reach (stack size, mate encoding).
pub const MAX_PLY: usize = 128;
/// The deepest iteration `go` can ask for.
pub const MAX_DEPTH: i32 = 100;
/// Beyond every score: the initial window.
pub const INF: i32 = 32001;
/// Mate at the root; a mate `n` plies away scores `MATE - n`.
pub const MATE: i32 = 32000;
/// Scores beyond this are mates (in at most MAX_PLY plies).
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// [syzygy] A tablebase win at the root: just below every mate, so a real mate found by the
/// search always outranks it; a win the tables see `n` plies away scores `TB_WIN - n`.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores beyond this (and below `MATE_BOUND`) are tablebase wins; no evaluation reaches it.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// The score of being mated at `ply`.
#[inline]
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Whether `score` is a mate score (for either side).
#[inline]
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Whether `score` is decided: a mate or a tablebase win (for either side).
#[inline]
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_WIN_BOUND
}

/// UCI score text: `cp N` or `mate N` (moves, negative when we are mated). A tablebase win
/// `n` plies away is `cp 20000 - n`, as Stockfish prints it: no mate distance is known.
pub fn score_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else if score >= TB_WIN_BOUND {
        format!("cp {}", 20000 - (TB_WIN - score))
    } else if score <= -TB_WIN_BOUND {
        format!("cp {}", -20000 + (TB_WIN + score))
    } else {
        format!("cp {score}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_text_counts_moves() {
        assert_eq!(score_text(MATE - 1), "mate 1");
        assert_eq!(score_text(MATE - 3), "mate 2");
        assert_eq!(score_text(mated_in(2)), "mate -1");
        assert_eq!(score_text(-35), "cp -35");
        assert!(is_mate(MATE_BOUND) && !is_mate(MATE_BOUND - 1));
        // [syzygy] Tablebase wins print as centipawns below mates.
        assert_eq!(score_text(TB_WIN - 3), "cp 19997");
        assert_eq!(score_text(-TB_WIN + 3), "cp -19997");
        assert!(is_decisive(TB_WIN_BOUND) && !is_decisive(TB_WIN_BOUND - 1));
        assert!(!is_mate(TB_WIN));
    }
}
