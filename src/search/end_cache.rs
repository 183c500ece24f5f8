//! A small table of each search thread's own for the solver's last empties, where the shared
//! table ([`super::tt`]) would cost a cache miss a node: it stays in the core's own cache, so that
//! a probe costs a few cycles. Each entry holds the bounds of one position's score (exact, or
//! found by a selective solve, whose keys the solver marks with its selectivity) and the move that
//! last proved one; a new position takes its slot, the same position tightens its bounds. Each
//! search starts with an empty cache, so that what it finds does not depend on which searches the
//! thread ran before (`magpie analyze` hands positions to threads as they come free).

use super::tt::NO_MOVE;

/// log2 of the number of entries: 2^14 entries of 16 bytes, 256 KiB.
const BITS: u32 = 14;

/// One position's bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheEntry {
    key: u64,
    /// The score is at least this…
    pub lower: i8,
    /// …and at most this (discs).
    pub upper: i8,
    /// The move that last proved a bound, or [`NO_MOVE`].
    pub best: u8,
}

impl CacheEntry {
    /// The bound that answers a null-window search at `alpha`, if the entry holds one.
    #[inline]
    pub fn cut(&self, alpha: i32) -> Option<i32> {
        if i32::from(self.lower) > alpha {
            Some(self.lower.into())
        } else if i32::from(self.upper) <= alpha {
            Some(self.upper.into())
        } else {
            None
        }
    }
}

/// An entry that matches no search: no bounds.
const EMPTY: CacheEntry = CacheEntry { key: 0, lower: i8::MIN, upper: i8::MAX, best: NO_MOVE };

/// The table: one entry a slot, the slot chosen by the low bits of the key mixed with the
/// generation's salt.
pub struct EndCache {
    entries: Box<[CacheEntry]>,
    /// Changed by [`EndCache::clear`]: the entries stored before match no key after.
    salt: u64,
}

impl Default for EndCache {
    fn default() -> EndCache {
        EndCache { entries: vec![EMPTY; 1 << BITS].into_boxed_slice(), salt: 0 }
    }
}

impl EndCache {
    #[inline]
    fn slot(key: u64) -> usize {
        (key & ((1 << BITS) - 1)) as usize
    }

    /// Forgets every entry, without touching them: keys are salted anew.
    pub fn clear(&mut self) {
        self.salt = self.salt.wrapping_add(0x9e37_79b9_7f4a_7c15);
    }

    /// The entry of the position whose hash is `key`, if it is there.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<CacheEntry> {
        let key = key ^ self.salt;
        let entry = self.entries[Self::slot(key)];
        (entry.key == key).then_some(entry)
    }

    /// Records that the score of the position whose hash is `key` lies in `lower..=upper` (discs),
    /// `best` the move that showed it.
    #[inline]
    pub fn store(&mut self, key: u64, lower: i32, upper: i32, best: u8) {
        let key = key ^ self.salt;
        let entry = &mut self.entries[Self::slot(key)];
        let (lower, upper) = (lower.clamp(-64, 64) as i8, upper.clamp(-64, 64) as i8);
        if entry.key == key {
            entry.lower = entry.lower.max(lower);
            entry.upper = entry.upper.min(upper);
            if best != NO_MOVE {
                entry.best = best;
            }
        } else {
            *entry = CacheEntry { key, lower, upper, best };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_tighten_and_new_keys_replace() {
        let mut cache = EndCache::default();
        let key = 0x1234_5678_9abc_def1;
        assert_eq!(cache.probe(key), None);
        cache.store(key, 2, 64, 19);
        cache.store(key, -64, 6, NO_MOVE);
        let entry = cache.probe(key).unwrap();
        assert_eq!((entry.lower, entry.upper, entry.best), (2, 6, 19));
        assert_eq!((entry.cut(1), entry.cut(2), entry.cut(5), entry.cut(6)), (Some(2), None, None, Some(6)));
        // A key of the same slot takes it.
        let other = key ^ (1 << 40);
        cache.store(other, -10, -10, 3);
        assert_eq!(cache.probe(key), None);
        assert_eq!(cache.probe(other).map(|e| (e.lower, e.upper)), Some((-10, -10)));
        // An empty slot bounds nothing, even for the key 0.
        assert!(EndCache::default().probe(0).is_none_or(|e| e.lower < -64 && e.upper > 64));
        // Cleared: nothing stored before is found.
        cache.clear();
        assert_eq!(cache.probe(other), None);
        cache.store(key, 0, 0, 1);
        assert_eq!(cache.probe(key).map(|e| (e.lower, e.upper)), Some((0, 0)));
    }
}
