//! [tt] Transposition table: lock-free, shared by reference between threads.
//! Each slot is two atomics, the key stored xor-ed with the data so that a torn write
//! (key from one store, data from another) fails verification instead of returning garbage.
//!
//! The table owns its contract with the search: scores go in and come out as seen from the
//! node's ply, the table itself keeps mates as distances from the stored position (so an
//! entry is right at whatever ply the position recurs).

use super::score::TB_WIN_BOUND;
use cozy_chess::{Move, Piece, Square};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use thiserror::Error;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// What a search result means for the window it was searched with.
    #[inline]
    pub fn classify(best: i32, original_alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// A probed entry; `score` is already seen from the probing ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    /// [ttpv] The position was searched as a PV node (or inherited that from its entry).
    pub pv: bool,
}

impl Entry {
    /// The stored score, if its bound settles a search with this window.
    #[inline]
    pub fn cutoff(&self, alpha: i32, beta: i32) -> Option<i32> {
        let settles = match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        };
        settles.then_some(self.score)
    }
}

/// Why a table of the asked size could not be had.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum TtError {
    /// With memory overcommit an allocation succeeds and the process is killed later, when
    /// the search touches the pages; so a size beyond what the system reports is refused.
    #[error("{mib} MiB is more than the {available} MiB of memory available")]
    Unavailable { mib: usize, available: u64 },
    #[error("cannot allocate {mib} MiB for the hash table")]
    Allocation { mib: usize },
}

/// A refused resize, and the size the table kept instead.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("{error}; keeping {kept_mib} MiB")]
pub struct ResizeError {
    pub error: TtError,
    pub kept_mib: usize,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

pub struct TranspositionTable {
    slots: Vec<Slot>,
    mib: usize,
    age: AtomicU8,
}

pub fn pack_move(mv: Option<Move>) -> u16 {
    match mv {
        None => 0,
        Some(m) => {
            let promo = m.promotion.map_or(0, |p| p as u16);
            m.from as u16 | (m.to as u16) << 6 | promo << 12
        }
    }
}

pub fn unpack_move(bits: u16) -> Option<Move> {
    if bits == 0 {
        return None;
    }
    let promo = match bits >> 12 {
        0 => None,
        p => Piece::try_index(p as usize),
    };
    Some(Move {
        from: Square::index((bits & 63) as usize),
        to: Square::index(((bits >> 6) & 63) as usize),
        promotion: promo,
    })
}

/// [ttpv] The PV flag rides in the move field's top bit, which no packed move uses.
const PV_BIT: u16 = 1 << 15;

/// Mates and [syzygy] tablebase wins are stored as distances from the stored position, not
/// from the root.
#[inline]
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// `mib` MiB of empty slots from zeroed memory. Large zeroed allocations come straight from
/// the OS as untouched pages, so a big table costs nothing until it is used (no memset of the
/// whole table on every `Hash` change or bench position).
fn zeroed_slots(mib: usize) -> Result<Vec<Slot>, TtError> {
    if let Some(available) = available_mib() {
        if mib as u64 > available {
            return Err(TtError::Unavailable { mib, available });
        }
    }
    let n = (mib.max(1).saturating_mul(1024 * 1024) / std::mem::size_of::<Slot>()).max(1);
    let refused = TtError::Allocation { mib };
    let layout = std::alloc::Layout::array::<Slot>(n).map_err(|_| refused.clone())?;
    // SAFETY: the layout is non-zero-sized; a null result is handled.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) } as *mut Slot;
    if ptr.is_null() {
        return Err(refused);
    }
    // SAFETY: `ptr` was allocated with the layout of `n` Slots, which is exactly what a Vec of
    // capacity `n` deallocates with; all-zero bytes are a valid Slot (two AtomicU64 zeros).
    Ok(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

/// Memory the OS could give this process without swapping (Linux: `MemAvailable`), in MiB.
/// Elsewhere `None`: only a failed allocation refuses a size there. Under Miri, which stops
/// at an allocation it cannot make instead of failing it, a fixed 1 GiB stands for the
/// machine, so that the refusal is checked there too.
fn available_mib() -> Option<u64> {
    if cfg!(miri) {
        return Some(1024);
    }
    if !cfg!(target_os = "linux") {
        return None;
    }
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

impl TranspositionTable {
    /// An empty table of `mib` MiB, or why the machine cannot give it.
    pub fn new(mib: usize) -> Result<Self, TtError> {
        Ok(TranspositionTable {
            slots: zeroed_slots(mib)?,
            mib: mib.max(1),
            age: AtomicU8::new(0),
        })
    }

    pub fn mib(&self) -> usize {
        self.mib
    }

    /// Resizes in place to an empty table of `mib` MiB. The old table is freed first, so the
    /// two are never both held; if the new size cannot be had, the old size is taken again
    /// (or 1 MiB, should memory have gone meanwhile) and the error says which.
    pub fn resize(&mut self, mib: usize) -> Result<(), ResizeError> {
        let old = self.mib;
        self.slots = Vec::new();
        self.age.store(0, Ordering::Relaxed);
        let error = match zeroed_slots(mib) {
            Ok(slots) => {
                (self.slots, self.mib) = (slots, mib.max(1));
                return Ok(());
            }
            Err(e) => e,
        };
        let (slots, kept_mib) = match zeroed_slots(old) {
            Ok(slots) => (slots, old),
            Err(_) => (zeroed_slots(1).expect("1 MiB for the hash table"), 1),
        };
        (self.slots, self.mib) = (slots, kept_mib);
        Err(ResizeError { error, kept_mib })
    }

    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Called once per `go`, so entries from earlier searches are replaced first.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// [ttprefetch] Starts loading `key`'s slot into the cache. The search calls it as soon
    /// as a move's key is known, so the child's `probe` finds the slot there instead of
    /// waiting on memory (a probe was 11% of datagen's profile). Nothing is read or written.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let slot: *const Slot = &self.slots[self.index(key)];
            // SAFETY: SSE is part of every x86-64 target, and a prefetch only hints the cache:
            // it never faults and reads nothing the program sees (the address is a live slot).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, its score seen from `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let slot = &self.slots[self.index(key)];
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        let bound = match (data >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Entry {
            mv: unpack_move(data as u16 & !PV_BIT),
            score: score_from_tt((data >> 16) as u16 as i16 as i32, ply),
            eval: (data >> 32) as u16 as i16 as i32,
            depth: ((data >> 48) & 0xff) as i32,
            bound,
            pv: data as u16 & PV_BIT != 0,
        })
    }

    /// Stores a result found at `ply` unless the slot holds a deeper result for the same
    /// position from this search.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        self.store_pv(key, ply, mv, score, eval, depth, bound, false);
    }

    /// `store` with the [ttpv] flag: whether the position is (or was) on a principal variation.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store_pv(
        &self,
        key: u64,
        ply: usize,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let slot = &self.slots[self.index(key)];
        let age = self.age.load(Ordering::Relaxed) as u64;
        let old = slot.data.load(Ordering::Relaxed);
        let old_key = slot.check.load(Ordering::Relaxed) ^ old;
        let depth = depth.clamp(0, 255);
        let mut mv_bits = pack_move(mv);
        if old != 0 && old_key == key {
            let old_depth = ((old >> 48) & 0xff) as i32;
            let old_age = old >> 58;
            if bound != Bound::Exact && old_age == age && depth + 2 < old_depth {
                return;
            }
            if mv_bits == 0 {
                mv_bits = old as u16 & !PV_BIT;
            }
        }
        if pv {
            mv_bits |= PV_BIT;
        }
        let score = score_to_tt(score, ply);
        let data = mv_bits as u64
            | (score as i16 as u16 as u64) << 16
            | (eval as i16 as u16 as u64) << 32
            | (depth as u64) << 48
            | (bound as u64) << 56
            | age << 58;
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of sampled slots written by the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) as u64;
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && d >> 58 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    /// The allocation's `unsafe` blocks: Miri (`cargo +nightly miri test -p augur --lib search::tt`)
    /// checks that the zeroed allocation is valid `Slot`s and is freed with its own layout.
    #[test]
    fn zeroed_slots_are_empty_and_freed_cleanly() {
        let sizes: &[usize] = if cfg!(miri) { &[0, 1] } else { &[0, 1, 3] };
        for &mib in sizes {
            let slots = zeroed_slots(mib).unwrap();
            let n = mib.max(1) * 1024 * 1024 / std::mem::size_of::<Slot>();
            assert_eq!(slots.len(), n);
            assert_eq!(slots.capacity(), n);
            assert!(slots.iter().all(
                |s| s.check.load(Ordering::Relaxed) == 0 && s.data.load(Ordering::Relaxed) == 0
            ));
            slots[slots.len() - 1].data.store(7, Ordering::Relaxed);
        }
        // An impossible size is refused, not a crash.
        assert!(zeroed_slots(usize::MAX / 8).is_err());
    }

    #[test]
    fn store_probe_round_trip_and_replacement() {
        let tt = TranspositionTable::new(1).unwrap();
        let mv: Move = "e7e8q".parse().unwrap();
        tt.store(0xdead_beef, 0, Some(mv), -31000, 25, 7, Bound::Lower);
        let e = tt.probe(0xdead_beef, 0).unwrap();
        assert_eq!(
            e,
            Entry {
                mv: Some(mv),
                score: -31000,
                eval: 25,
                depth: 7,
                bound: Bound::Lower,
                pv: false,
            }
        );
        tt.store_pv(0xdead_beef, 0, Some(mv), 40, 25, 8, Bound::Exact, true);
        let e = tt.probe(0xdead_beef, 0).unwrap();
        assert_eq!((e.mv, e.pv, e.score), (Some(mv), true, 40));
        tt.store(0xdead_beef, 0, None, -31000, 25, 7, Bound::Lower);
        let e = tt.probe(0xdead_beef, 0).unwrap();
        assert_eq!(
            (e.mv, e.pv),
            (Some(mv), false),
            "the flag is not inherited by the move"
        );
        assert!(tt.probe(0xdead_bef0, 0).is_none());
        // A much shallower non-exact result does not overwrite, but keeps the slot usable.
        tt.store(0xdead_beef, 0, None, 5, 25, 1, Bound::Upper);
        assert_eq!(tt.probe(0xdead_beef, 0).unwrap().depth, 7);
        tt.new_search();
        tt.store(0xdead_beef, 0, None, 5, 25, 1, Bound::Upper);
        let e = tt.probe(0xdead_beef, 0).unwrap();
        assert_eq!((e.depth, e.mv), (1, Some(mv)));
        for m in ["a1h8", "h7h8n", "b2b1r", "g7g8b"] {
            let mv: Move = m.parse().unwrap();
            assert_eq!(unpack_move(pack_move(Some(mv))), Some(mv));
        }
    }

    /// A mate found 3 plies below a node at ply 5 (mate in 8 from the root) is a mate in 3
    /// from that position, wherever it recurs: at ply 2 it reads as mate in 5 from the root.
    #[test]
    fn mates_are_stored_as_distances_from_the_position() {
        // Keys spread over the table (the index is the key's high bits).
        const K1: u64 = 0x9E37_79B9_7F4A_7C15;
        const K2: u64 = 0x3C6E_F372_FE94_F82A;
        const K3: u64 = 0xDAA6_6D2C_7DDF_743F;
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(K1, 5, None, MATE - 8, 0, 4, Bound::Exact);
        assert_eq!(tt.probe(K1, 5).unwrap().score, MATE - 8);
        assert_eq!(tt.probe(K1, 2).unwrap().score, MATE - 5);
        tt.store(K2, 4, None, -MATE + 6, 0, 4, Bound::Upper);
        assert_eq!(tt.probe(K2, 1).unwrap().score, -MATE + 3);
        tt.store(K3, 9, None, 250, 0, 4, Bound::Lower);
        assert_eq!(tt.probe(K3, 1).unwrap().score, 250);
        let e = tt.probe(K2, 1).unwrap();
        assert_eq!(e.cutoff(-100, 100), Some(-MATE + 3));
        assert_eq!(tt.probe(K3, 1).unwrap().cutoff(300, 301), None);
    }

    #[test]
    fn resize_in_place_and_refuse_the_unaffordable() {
        let mut tt = TranspositionTable::new(1).unwrap();
        tt.store(3, 0, None, 10, 0, 4, Bound::Exact);
        tt.resize(2).unwrap();
        assert_eq!(tt.mib(), 2);
        assert!(tt.probe(3, 0).is_none(), "a resized table starts empty");
        let e = tt.resize(usize::MAX / (1 << 21)).unwrap_err();
        assert_eq!(e.kept_mib, 2);
        assert_eq!(tt.mib(), 2);
        assert!(e.to_string().ends_with("keeping 2 MiB"), "{e}");
        tt.store(3, 0, None, 10, 0, 4, Bound::Exact);
        assert!(tt.probe(3, 0).is_some());
    }
}
