//! The search stack: one entry per ply of the current line, holding what a node learns for
//! its children and siblings (static eval, the move that led here, killers, the principal
//! variation, the move list). Per-ply state belongs here rather than in parallel arrays;
//! a new technique that keeps something per ply (an excluded move for singular extensions,
//! a continuation-history pointer) adds a field.

use super::history::PieceTo;
use super::score::MAX_PLY;
use cozy_chess::Move;
use std::ops::{Index, IndexMut};

/// Entries beyond `MAX_PLY`: a node at the last ply still writes its child's entry.
const LEN: usize = MAX_PLY + 2;

#[derive(Clone)]
pub struct StackEntry {
    /// The static evaluation at this ply (`-INF` in check), `[corrhist]` corrected.
    pub static_eval: i32,
    /// [corrhist] The uncorrected static evaluation, which is what the TT keeps.
    pub raw_eval: i32,
    /// The move that led to this ply; `None` for a null move (and at the root).
    pub mv: Option<Move>,
    /// [conthist] The moved piece and target of that move: the key of its continuation rows.
    pub piece_to: Option<PieceTo>,
    /// [se] The move a singular search at this ply leaves out (the TT move under test).
    pub excluded: Option<Move>,
    /// [se] Double extensions on the line from the root to this ply.
    pub double_exts: i32,
    /// [killers] Two quiet moves that caused a beta cutoff at this ply.
    pub killers: [Option<Move>; 2],
    /// The principal variation from this ply: `pv[..pv_len]`.
    pub pv: [Option<Move>; MAX_PLY + 1],
    pub pv_len: usize,
    /// The move list of this ply's node, lent to its move picker so that no node allocates.
    pub moves: Vec<(Move, i32)>,
}

impl Default for StackEntry {
    fn default() -> Self {
        StackEntry {
            static_eval: 0,
            raw_eval: 0,
            mv: None,
            piece_to: None,
            excluded: None,
            double_exts: 0,
            killers: [None; 2],
            pv: [None; MAX_PLY + 1],
            pv_len: 0,
            moves: Vec::with_capacity(256),
        }
    }
}

/// A fixed-size array, so that indexing is checked against a constant.
pub struct Stack(Box<[StackEntry; LEN]>);

impl Default for Stack {
    fn default() -> Self {
        let entries: Vec<StackEntry> = (0..LEN).map(|_| StackEntry::default()).collect();
        Stack(
            entries
                .try_into()
                .unwrap_or_else(|_| unreachable!("LEN entries")),
        )
    }
}

impl Stack {
    /// Forgets the last search's line and killers (the move buffers are kept for reuse).
    pub fn clear(&mut self) {
        for e in self.0.iter_mut() {
            e.static_eval = 0;
            e.raw_eval = 0;
            e.mv = None;
            e.piece_to = None;
            e.excluded = None;
            e.double_exts = 0;
            e.killers = [None; 2];
            e.pv_len = 0;
        }
    }

    /// [killers] Remembers a quiet move that cut at `ply`, keeping the previous first one.
    #[inline]
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.0[ply].killers;
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }

    /// The principal variation at `ply` becomes `mv` followed by the child's.
    #[inline]
    pub fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.0.split_at_mut(ply + 1);
        let (node, child) = (&mut head[ply], &tail[0]);
        node.pv[0] = Some(mv);
        node.pv[1..=child.pv_len].copy_from_slice(&child.pv[..child.pv_len]);
        node.pv_len = child.pv_len + 1;
    }

    /// The root's principal variation.
    pub fn root_pv(&self) -> Vec<Move> {
        self.0[0].pv[..self.0[0].pv_len]
            .iter()
            .flatten()
            .copied()
            .collect()
    }

    /// Borrows the move list of `ply`, emptied; give it back with `give_back_moves`.
    #[inline]
    pub fn take_moves(&mut self, ply: usize) -> Vec<(Move, i32)> {
        let mut v = std::mem::take(&mut self.0[ply].moves);
        v.clear();
        v
    }

    #[inline]
    pub fn give_back_moves(&mut self, ply: usize, moves: Vec<(Move, i32)>) {
        self.0[ply].moves = moves;
    }
}

impl Index<usize> for Stack {
    type Output = StackEntry;
    #[inline]
    fn index(&self, ply: usize) -> &StackEntry {
        &self.0[ply]
    }
}

impl IndexMut<usize> for Stack {
    #[inline]
    fn index_mut(&mut self, ply: usize) -> &mut StackEntry {
        &mut self.0[ply]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pv_and_killers() {
        let mut s = Stack::default();
        let (a, b, c): (Move, Move, Move) = (
            "e2e4".parse().unwrap(),
            "e7e5".parse().unwrap(),
            "g1f3".parse().unwrap(),
        );
        s[3].pv_len = 0;
        s.update_pv(2, c);
        s.update_pv(1, b);
        s.update_pv(0, a);
        assert_eq!(s.root_pv(), vec![a, b, c]);
        s.add_killer(4, a);
        s.add_killer(4, a);
        s.add_killer(4, b);
        assert_eq!(s[4].killers, [Some(b), Some(a)]);
        s.clear();
        assert_eq!((s[4].killers, s[0].pv_len), ([None, None], 0));
    }
}
