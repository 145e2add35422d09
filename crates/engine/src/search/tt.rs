//! [tt] Transposition table: lock-free, shared by reference between threads.
//! Each slot is two atomics, the key stored xor-ed with the data so that a torn write
//! (key from one store, data from another) fails verification instead of returning garbage.

use cozy_chess::{Move, Piece, Square};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

impl Entry {
    /// The stored score, seen from `ply`, if its bound settles a search with this window.
    #[inline]
    pub fn cutoff(&self, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let s = super::score_from_tt(self.score, ply);
        let settles = match self.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        settles.then_some(s)
    }
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

pub struct TranspositionTable {
    slots: Vec<Slot>,
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

/// `n` empty slots from zeroed memory. Large zeroed allocations come straight from the OS as
/// untouched pages, so a big table costs nothing until it is used (no memset of the whole
/// table on every `Hash` change or bench position).
fn zeroed_slots(n: usize) -> Option<Vec<Slot>> {
    let n = n.max(1);
    let layout = std::alloc::Layout::array::<Slot>(n).ok()?;
    // SAFETY: the layout is non-zero-sized; a null result is handled.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) } as *mut Slot;
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` was allocated with the layout of `n` Slots, which is exactly what a Vec of
    // capacity `n` deallocates with; all-zero bytes are a valid Slot (two AtomicU64 zeros).
    Some(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

/// Memory the OS could give this process without swapping (Linux: `MemAvailable`), in MiB.
/// Elsewhere `None`: only a failed allocation refuses a size there.
fn available_mib() -> Option<u64> {
    if cfg!(miri) || !cfg!(target_os = "linux") {
        return None;
    }
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

impl TranspositionTable {
    pub fn new(mib: usize) -> Self {
        Self::try_new(mib).expect("memory for the transposition table")
    }

    /// Like `new`, but reports a failed allocation (a `Hash` value larger than the machine's
    /// memory) instead of aborting.
    pub fn try_new(mib: usize) -> Result<Self, String> {
        let bytes = mib.max(1).saturating_mul(1024 * 1024);
        // With memory overcommit the allocation itself succeeds and the process is killed
        // later, when the search touches the pages; so a size beyond what the system reports
        // as available is refused up front.
        if let Some(free) = available_mib() {
            if mib as u64 > free {
                return Err(format!(
                    "{mib} MiB is more than the {free} MiB of memory available"
                ));
            }
        }
        let n = bytes / std::mem::size_of::<Slot>();
        let slots = zeroed_slots(n)
            .ok_or_else(|| format!("cannot allocate {mib} MiB for the hash table"))?;
        Ok(TranspositionTable {
            slots,
            age: AtomicU8::new(0),
        })
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

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
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
            mv: unpack_move(data as u16),
            score: (data >> 16) as u16 as i16 as i32,
            eval: (data >> 32) as u16 as i16 as i32,
            depth: ((data >> 48) & 0xff) as i32,
            bound,
        })
    }

    /// Stores unless the slot holds a deeper result for the same position from this search.
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
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
                mv_bits = old as u16;
            }
        }
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

    #[test]
    fn store_probe_round_trip_and_replacement() {
        let tt = TranspositionTable::new(1);
        let mv: Move = "e7e8q".parse().unwrap();
        tt.store(0xdead_beef, Some(mv), -31000, 25, 7, Bound::Lower);
        let e = tt.probe(0xdead_beef).unwrap();
        assert_eq!(
            e,
            Entry {
                mv: Some(mv),
                score: -31000,
                eval: 25,
                depth: 7,
                bound: Bound::Lower
            }
        );
        assert!(tt.probe(0xdead_bef0).is_none());
        // A much shallower non-exact result does not overwrite, but keeps the slot usable.
        tt.store(0xdead_beef, None, 5, 25, 1, Bound::Upper);
        assert_eq!(tt.probe(0xdead_beef).unwrap().depth, 7);
        tt.new_search();
        tt.store(0xdead_beef, None, 5, 25, 1, Bound::Upper);
        let e = tt.probe(0xdead_beef).unwrap();
        assert_eq!((e.depth, e.mv), (1, Some(mv)));
        for m in ["a1h8", "h7h8n", "b2b1r", "g7g8b"] {
            let mv: Move = m.parse().unwrap();
            assert_eq!(unpack_move(pack_move(Some(mv))), Some(mv));
        }
    }
}
