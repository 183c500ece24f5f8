//! A small table of each search thread's own for the solver's last empties, where the shared
//! table ([`super::tt`]) would cost a cache miss a node: it stays in the core's own cache, so that
//! a probe costs a few cycles. Each entry holds one position (both sides' discs, so that a probe
//! never mistakes one position for another), the selectivity of the solve that found it, the
//! bounds of its score and the move that last proved one; a new position takes its slot, the same
//! one tightens its bounds. Its slot comes from one multiplication of the discs, cheaper than the
//! shared table's hash (which must be a good 64-bit key, as that table keeps no discs). Each search
//! starts with an empty cache, so that what it finds does not depend on which searches the thread
//! ran before (`magpie analyze` hands positions to threads as they come free).

use super::tt::NO_MOVE;

/// log2 of the number of entries: 2^14 entries of 24 bytes, 384 KiB.
const BITS: u32 = 14;

/// One position's bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheEntry {
    player: u64,
    opponent: u64,
    /// The search that stored it ([`EndCache::clear`] starts a new one).
    generation: u16,
    /// The selectivity of the solve that found the bounds (0: exact).
    selectivity: u8,
    /// The score is at least this…
    pub lower: i8,
    /// …and at most this (discs).
    pub upper: i8,
    /// The move that last proved a bound, or [`NO_MOVE`].
    pub best: u8,
}

impl CacheEntry {
    /// Whether the entry is that of the position, stored in the search of `generation` by a solve
    /// of selectivity `cut`.
    #[inline]
    fn holds(&self, player: u64, opponent: u64, generation: u16, cut: u8) -> bool {
        self.player == player && self.opponent == opponent && self.generation == generation && self.selectivity == cut
    }

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

/// An entry that matches no search: generation 0 is never a search's.
const EMPTY: CacheEntry =
    CacheEntry { player: 0, opponent: 0, generation: 0, selectivity: 0, lower: i8::MIN, upper: i8::MAX, best: NO_MOVE };

/// The table: one entry a slot.
pub struct EndCache {
    entries: Box<[CacheEntry]>,
    /// The current search's generation, from 1: entries of another one match nothing.
    generation: u16,
}

impl Default for EndCache {
    fn default() -> EndCache {
        EndCache { entries: vec![EMPTY; 1 << BITS].into_boxed_slice(), generation: 1 }
    }
}

impl EndCache {
    /// The slot of a position: the two halves of a 128-bit product of the (salted) discs, folded.
    /// A poor hash would only crowd slots, never confuse positions.
    #[inline]
    fn slot(player: u64, opponent: u64) -> usize {
        let m = u128::from(player ^ 0x243f_6a88_85a3_08d3).wrapping_mul(u128::from(opponent ^ 0x1319_8a2e_0370_7344));
        (((m as u64) ^ ((m >> 64) as u64)) & ((1 << BITS) - 1)) as usize
    }

    /// Forgets every entry: a new generation, the table wiped only when the count wraps.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.entries.fill(EMPTY);
            self.generation = 1;
        }
    }

    /// The entry of the position (`player` to move) stored by a solve of selectivity `cut`, if it is
    /// there.
    #[inline]
    pub fn probe(&self, player: u64, opponent: u64, cut: u8) -> Option<CacheEntry> {
        let entry = self.entries[Self::slot(player, opponent)];
        entry.holds(player, opponent, self.generation, cut).then_some(entry)
    }

    /// Records that the score of the position (`player` to move), found by a solve of selectivity
    /// `cut`, lies in `lower..=upper` (discs), `best` the move that showed it.
    #[inline]
    pub fn store(&mut self, player: u64, opponent: u64, cut: u8, lower: i32, upper: i32, best: u8) {
        let generation = self.generation;
        let entry = &mut self.entries[Self::slot(player, opponent)];
        let (lower, upper) = (lower.clamp(-64, 64) as i8, upper.clamp(-64, 64) as i8);
        if entry.holds(player, opponent, generation, cut) {
            entry.lower = entry.lower.max(lower);
            entry.upper = entry.upper.min(upper);
            if best != NO_MOVE {
                entry.best = best;
            }
        } else {
            *entry = CacheEntry { player, opponent, generation, selectivity: cut, lower, upper, best };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_tighten_and_new_positions_replace() {
        let mut cache = EndCache::default();
        let (player, opponent) = (0x0000_0010_0800_0000, 0x0000_0008_1000_0000);
        assert_eq!(cache.probe(player, opponent, 0), None);
        cache.store(player, opponent, 0, 2, 64, 19);
        cache.store(player, opponent, 0, -64, 6, NO_MOVE);
        let entry = cache.probe(player, opponent, 0).unwrap();
        assert_eq!((entry.lower, entry.upper, entry.best), (2, 6, 19));
        assert_eq!((entry.cut(1), entry.cut(2), entry.cut(5), entry.cut(6)), (Some(2), None, None, Some(6)));
        // Another solve's selectivity, or the sides swapped, is another entry.
        assert_eq!(cache.probe(player, opponent, 3), None);
        assert_eq!(cache.probe(opponent, player, 0), None);
        // A position of the same slot takes it.
        let slot = EndCache::slot(player, opponent);
        let other = (1u64..).map(|p| (p << 20, opponent)).find(|&(p, o)| EndCache::slot(p, o) == slot).unwrap();
        cache.store(other.0, other.1, 0, -10, -10, 3);
        assert_eq!(cache.probe(player, opponent, 0), None);
        assert_eq!(cache.probe(other.0, other.1, 0).map(|e| (e.lower, e.upper)), Some((-10, -10)));
        // An empty slot matches nothing, even the empty board.
        assert_eq!(EndCache::default().probe(0, 0, 0), None);
        // Cleared: nothing stored before is found.
        cache.clear();
        assert_eq!(cache.probe(other.0, other.1, 0), None);
        cache.store(player, opponent, 0, 0, 0, 1);
        assert_eq!(cache.probe(player, opponent, 0).map(|e| (e.lower, e.upper)), Some((0, 0)));
    }

    #[test]
    fn the_generation_wraps_to_an_empty_table() {
        let mut cache = EndCache::default();
        cache.store(5, 10, 0, 1, 1, NO_MOVE);
        for _ in 0..u16::MAX {
            cache.clear();
        }
        // Back at the first generation: the table was wiped on the way.
        assert_eq!(cache.generation, 1);
        assert_eq!(cache.probe(5, 10, 0), None);
    }
}
