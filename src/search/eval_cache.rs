//! The evaluation cache: each search thread's own table of the values the depth-limited search
//! read at its leaves, one slot a hash, as neural-reversi keeps one. The same leaf comes back
//! often (transpositions, the re-searches of PVS and of the aspiration window, Multi-ProbCut's
//! shallow searches over the same ground, the next move's search): in a table of 2^18 slots, 40%
//! of the leaves one disc above the horizon in Edax's hard-25 set at depth 11 were there. A
//! network evaluation reads 77 rows of 32 bytes scattered over a 22 MB table, the pattern weights
//! 77 numbers of 16 bits; a hit reads one slot. The table is small enough to stay in the core's
//! second-level cache (128 KiB; 1 MiB was 1.2 times as slow as 256 KiB).
//!
//! A slot holds the top 48 bits of the position's 64-bit hash ([`hash_discs`]) and its value
//! (16 bits, centi-discs); its index is the hash's low bits, so that a probe compares all 64 bits:
//! a false match is as unlikely as in the shared table, which keeps no discs either. The values
//! are the evaluation's own, so the cache changes the search's speed, never its result; it holds
//! one evaluation's values, and is emptied when the search's evaluation changes.

use crate::board::BoardSize;
use crate::board::position::hash_discs;

/// log2 of the number of slots: 2^14 slots of 8 bytes, 128 KiB.
const BITS: u32 = 14;

/// The low bits of a slot: the value.
const VALUE_BITS: u32 = 16;

/// The cache.
pub struct EvalCache {
    slots: Box<[u64]>,
    /// The evaluation whose values it holds ([`crate::eval::Evaluator::identity`]).
    evaluation: u64,
}

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache { slots: vec![0; 1 << BITS].into_boxed_slice(), evaluation: 0 }
    }
}

impl EvalCache {
    /// Makes it the cache of `evaluation`'s values: emptied if it held another's.
    pub fn hold(&mut self, evaluation: u64) {
        if self.evaluation != evaluation {
            self.slots.fill(0);
            self.evaluation = evaluation;
        }
    }

    /// The hash a position (`player` to move, on the 8x8 board) is looked up by.
    #[inline]
    pub fn key(player: u64, opponent: u64) -> u64 {
        hash_discs(player, opponent, BoardSize::Eight)
    }

    #[inline]
    fn slot(key: u64) -> usize {
        (key & ((1 << BITS) - 1)) as usize
    }

    /// The value stored under `key`, if there is one.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<i32> {
        let slot = self.slots[Self::slot(key)];
        (slot >> VALUE_BITS == key >> VALUE_BITS).then_some(i32::from(slot as u16 as i16))
    }

    /// Stores `value` (within the range of 16 bits) under `key`, in place of what its slot held.
    #[inline]
    pub fn store(&mut self, key: u64, value: i32) {
        debug_assert!(i16::try_from(value).is_ok(), "{value}");
        self.slots[Self::slot(key)] = (key >> VALUE_BITS << VALUE_BITS) | u64::from(value as i16 as u16);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_comes_back_under_its_key_only_and_a_new_evaluation_empties_the_cache() {
        let mut cache = EvalCache::default();
        cache.hold(7);
        let (a, b) = (EvalCache::key(0x10_0000_0000, 0x0800_0000), EvalCache::key(0x0800_0000, 0x10_0000_0000));
        assert_eq!(cache.probe(a), None);
        cache.store(a, -6400);
        cache.store(b, 123);
        assert_eq!((cache.probe(a), cache.probe(b)), (Some(-6400), Some(123)));
        // A key of the same slot and other high bits misses, and takes the slot.
        let same_slot = a ^ (1 << 40);
        assert_eq!(cache.probe(same_slot), None);
        cache.store(same_slot, 5);
        assert_eq!((cache.probe(same_slot), cache.probe(a)), (Some(5), None));
        // The same evaluation keeps its values; another's empties it.
        cache.hold(7);
        assert_eq!(cache.probe(b), Some(123));
        cache.hold(8);
        assert_eq!(cache.probe(b), None);
    }
}
