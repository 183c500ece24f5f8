//! The transposition table: what earlier searches learnt about positions, shared by every search
//! thread and kept from one search to the next.
//!
//! The table is an array of 64-byte buckets (one cache line) of four slots. A slot is two atomic
//! words: the entry packed in one, and the position's 64-bit key XOR-ed with the entry in the
//! other. A reader accepts a slot only when the XOR gives back its key, so an entry torn by two
//! threads writing at once reads as a miss, never as a wrong entry; no lock is taken (the
//! lockless scheme of Hyatt and Mann, as Stockfish and Edax use in spirit).
//!
//! An entry holds a lower and an upper bound on the position's value at its depth, so that the
//! null-window searches of the solver, asked again with other windows, keep both sides; the best
//! move; the depth; a coarse cost (log₂ of the nodes the search took), which the replacement
//! policy protects; and the generation of the search that wrote it, so that entries of old
//! searches give way first.
//!
//! Units: an entry whose depth reaches the position's empty squares is a solve, in discs; any
//! other is a depth-limited value in centi-discs. The search keeps that rule. A solve made with
//! Multi-ProbCut's cuts (a selective solve) records their selectivity level: its bounds hold only
//! for searches at least as selective, and an exact solve reads only exact entries.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// What a probe finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// The best move found (a square index, or [`NO_MOVE`]).
    pub best: u8,
    /// The depth of the search that found the bounds.
    pub depth: u8,
    /// log₂ of the nodes that search took (0 to 63).
    pub cost: u8,
    /// The selectivity level of the ProbCut cuts in a selective solve (1 to 7), 0 for a search
    /// that cut nothing by ProbCut below the end of the game (an exact solve, or any
    /// depth-limited search).
    pub cut: u8,
}

impl TtEntry {
    /// Whether the bounds of this entry hold for a search of selectivity `cut` (0: exact): an
    /// exact entry holds for all, a selective one only for searches at least as selective.
    #[inline]
    pub fn trusted_at(&self, cut: u8) -> bool {
        self.cut == 0 || (cut != 0 && self.cut <= cut)
    }
}

/// No best move recorded.
pub const NO_MOVE: u8 = 0xff;

/// Smallest and largest table sizes, in MiB.
pub const MIN_MIB: usize = 1;
/// The largest table, in MiB (64 GiB).
pub const MAX_MIB: usize = 65_536;
/// The default size, in MiB.
pub const DEFAULT_MIB: usize = 64;
/// Tables from this size up to [`MAP_AHEAD_MAX_MIB`] have their memory mapped by a helper thread
/// as soon as they are made ([`TranspositionTable::shared`]); a smaller one costs next to nothing
/// to map as the search goes.
pub const MAP_AHEAD_MIN_MIB: usize = 8;
/// Larger tables are mapped page by page as the searches first touch them, as before, so that a
/// table larger than the free memory is not committed all at once.
pub const MAP_AHEAD_MAX_MIB: usize = 1024;

const BUCKET_SLOTS: usize = 4;
const GENERATIONS: u8 = 64;

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The bytes of a bucket: one cache line.
const BUCKET_BYTES: usize = BUCKET_SLOTS * std::mem::size_of::<Slot>();

/// A table that could not be allocated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllocError {
    /// The size asked for.
    pub mib: usize,
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot allocate a {} MiB hash table", self.mib)
    }
}

impl std::error::Error for AllocError {}

/// The shared table.
pub struct TranspositionTable {
    /// The slots, a few more than the buckets need: bucket i is `slots[first + 4i..first + 4i + 4]`,
    /// `first` chosen so that every bucket fills one cache line.
    slots: Box<[Slot]>,
    first: usize,
    buckets: usize,
    generation: AtomicU8,
    mib: usize,
}

// Packing of an entry into 64 bits.
const VALID: u64 = 1 << 63;

fn pack(entry: &TtEntry, generation: u8) -> u64 {
    u64::from(entry.lower as i16 as u16)
        | u64::from(entry.upper as i16 as u16) << 16
        | u64::from(entry.best) << 32
        | u64::from(entry.depth) << 40
        | u64::from(entry.cost.min(63)) << 48
        | u64::from(generation % GENERATIONS) << 54
        | u64::from(entry.cut & 7) << 60
        | VALID
}

fn unpack(data: u64) -> (TtEntry, u8) {
    let entry = TtEntry {
        lower: i32::from(data as u16 as i16),
        upper: i32::from((data >> 16) as u16 as i16),
        best: (data >> 32) as u8,
        depth: (data >> 40) as u8,
        cost: ((data >> 48) & 63) as u8,
        cut: ((data >> 60) & 7) as u8,
    };
    (entry, ((data >> 54) & 63) as u8)
}

impl TranspositionTable {
    /// A table of `mib` MiB (clamped to [`MIN_MIB`]..=[`MAX_MIB`]), or an error if the memory
    /// cannot be had. The memory comes zeroed from the system and is only touched as the search
    /// fills it, so a large table costs nothing to create.
    pub fn new(mib: usize) -> Result<TranspositionTable, AllocError> {
        let mib = mib.clamp(MIN_MIB, MAX_MIB);
        TranspositionTable::with_buckets((mib << 20) / BUCKET_BYTES).map_err(|_| AllocError { mib })
    }

    /// A table of `mib` MiB for threads to share, as [`TranspositionTable::new`], whose memory a
    /// helper thread maps at once (from [`MAP_AHEAD_MIN_MIB`] to [`MAP_AHEAD_MAX_MIB`]). The kernel
    /// maps a fresh page, and zeroes it, when it is first touched; left to the first searches, that
    /// took their time: mapping 64 MiB took 6 to 62 ms with huge pages on the development machine
    /// (256 MiB: 0.45 s; 1 GiB: 1.8 s), so that an engine's first `go movetime 30` reached depth
    /// 9.8 on average (once 5), and its second, after `uginewgame` cleared the half-mapped table,
    /// once answered 89 ms late. With the helper: depths 14.0 and 15.2, never late (8 sessions).
    /// It works on another core while the program starts; a search that starts first maps what
    /// it touches itself, as before.
    pub fn shared(mib: usize) -> Result<Arc<TranspositionTable>, AllocError> {
        let table = Arc::new(TranspositionTable::new(mib)?);
        if (MAP_AHEAD_MIN_MIB..=MAP_AHEAD_MAX_MIB).contains(&table.mib) {
            let helper = Arc::clone(&table);
            // Without a thread the searches map the pages themselves, as they would anyway.
            let _ = std::thread::Builder::new().name("map-table".to_string()).spawn(move || helper.map_pages());
        }
        Ok(table)
    }

    /// Touches every 4 KiB page of the table, so that the kernel maps it now: an atomic OR of
    /// zero into one slot a page, which changes nothing, even in a slot a search writes at the
    /// same moment.
    fn map_pages(&self) {
        const PAGE: usize = 4096;
        for slot in self.slots.iter().step_by(PAGE / std::mem::size_of::<Slot>()) {
            slot.check.fetch_or(0, Relaxed);
        }
    }

    /// A table of exactly `buckets` buckets of four entries (at least one). One bucket is a table
    /// that in effect remembers nothing, for comparing a search with and without one.
    pub fn with_buckets(buckets: usize) -> Result<TranspositionTable, AllocError> {
        let buckets = buckets.max(1);
        let mib = (buckets * BUCKET_BYTES) >> 20;
        let slots = zeroed_slots((buckets + 1) * BUCKET_SLOTS).ok_or(AllocError { mib })?;
        let misalignment = slots.as_ptr() as usize % BUCKET_BYTES;
        let first = (BUCKET_BYTES - misalignment) % BUCKET_BYTES / std::mem::size_of::<Slot>();
        Ok(TranspositionTable { slots, first, buckets, generation: AtomicU8::new(0), mib })
    }

    /// The size in MiB.
    pub fn mib(&self) -> usize {
        self.mib
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for slot in self.slots.iter() {
            slot.check.store(0, Relaxed);
            slot.data.store(0, Relaxed);
        }
        self.generation.store(0, Relaxed);
    }

    /// Marks the start of a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.generation.store(self.generation.load(Relaxed).wrapping_add(1) % GENERATIONS, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot] {
        // The high bits of the key pick the bucket (a multiply, so any number of buckets works);
        // the whole key is checked in the slot.
        let index = ((u128::from(key) * self.buckets as u128) >> 64) as usize;
        let start = self.first + index * BUCKET_SLOTS;
        &self.slots[start..start + BUCKET_SLOTS]
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that a probe soon after does
    /// not wait for memory (several prefetched buckets load at once).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket = self.bucket(key);
            // SAFETY: a prefetch only hints the cache; the address is that of a live bucket.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.as_ptr().cast::<i8>()) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if the table holds one.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Relaxed);
            if data & VALID != 0 && slot.check.load(Relaxed) ^ data == key {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Records what a search of depth `entry.depth` found for `key`. An entry for the same key
    /// is replaced by a deeper one and merged with one of equal depth (both bounds kept); a
    /// shallower result only refreshes its age. Otherwise the new entry takes the slot that is
    /// empty, or else the one of the oldest search, or else the one that cost least to find.
    pub fn store(&self, key: u64, entry: TtEntry) {
        let generation = self.generation.load(Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_worth = i32::MAX;
        for slot in bucket {
            let data = slot.data.load(Relaxed);
            if data & VALID == 0 {
                if victim_worth > i32::MIN {
                    victim = slot;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            if slot.check.load(Relaxed) ^ data == key {
                let (old, _) = unpack(data);
                let new = merge(old, entry);
                write(slot, key, pack(&new, generation));
                return;
            }
            let (old, old_generation) = unpack(data);
            let age = i32::from(generation.wrapping_sub(old_generation) % GENERATIONS);
            let worth = i32::from(old.cost) - 64 * age;
            if worth < victim_worth {
                victim = slot;
                victim_worth = worth;
            }
        }
        write(victim, key, pack(&entry, generation));
    }

    /// Permille of the slots sampled (the first thousand) that hold an entry of the current
    /// search: UCI's `hashfull`.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed) % GENERATIONS;
        let sample = self.slots.iter().skip(self.first).take(1000.min(self.buckets * BUCKET_SLOTS));
        let mut total = 0u32;
        let mut used = 0u32;
        for slot in sample {
            total += 1;
            let data = slot.data.load(Relaxed);
            if data & VALID != 0 && unpack(data).1 == generation {
                used += 1;
            }
        }
        (used * 1000).checked_div(total).unwrap_or(0)
    }
}

/// `count` (at least one) empty slots in memory the allocator gives zeroed: large blocks come as
/// fresh pages from the system, which the kernel maps on first touch, so nothing is written now.
/// `None` if there is no such memory. Filling a `Vec` instead writes every page at once: 65 ms for
/// the default 64 MiB, before the first search. (The slots' own alignment, 8, keeps the
/// allocator's fast zeroed path; a cache-line alignment would make it write the zeros itself.)
fn zeroed_slots(count: usize) -> Option<Box<[Slot]>> {
    let count = count.max(1);
    let layout = std::alloc::Layout::array::<Slot>(count).ok()?;
    // SAFETY: the layout has a non-zero size (at least one slot of 16 bytes). A slot is two
    // `AtomicU64`s, which have the in-memory representation of `u64`, for which all-zero bytes
    // are a valid value (an empty slot), so the zeroed memory holds `count` valid slots. The
    // pointer is checked for null, and the box takes ownership of exactly that allocation: it
    // frees it with `Layout::array::<Slot>(count)`, the layout it was allocated with.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<Slot>();
        if ptr.is_null() {
            return None;
        }
        advise_huge_pages(ptr.cast::<u8>(), layout.size());
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, count)))
    }
}

/// Asks Linux to back the 2 MiB-aligned part of the `len` bytes at `ptr` with huge pages, so that a
/// probe of a large table costs one TLB entry per 2 MiB rather than per 4 KiB. A hint only: where
/// the kernel has no transparent huge pages, or refuses, nothing changes. (`MADV_HUGEPAGE` is 14 on
/// these two architectures; a few others number it differently.)
#[cfg(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64")))]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    const HUGE: usize = 2 << 20;
    const MADV_HUGEPAGE: i32 = 14;
    unsafe extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    let start = (ptr as usize).next_multiple_of(HUGE);
    let end = (ptr as usize + len) / HUGE * HUGE;
    if end > start {
        // SAFETY: [start, end) lies inside the allocation of `len` bytes at `ptr`, which this
        // process owns; the advice changes how its pages are backed, not what they hold.
        unsafe {
            madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64"))))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}

#[inline]
fn write(slot: &Slot, key: u64, data: u64) {
    slot.data.store(data, Relaxed);
    slot.check.store(key ^ data, Relaxed);
}

/// The entry to keep when `new` is stored over `old` for the same position: the deeper, then the
/// less selective; bounds of the same depth and selectivity merge.
#[inline]
fn merge(old: TtEntry, new: TtEntry) -> TtEntry {
    let best = if new.best == NO_MOVE { old.best } else { new.best };
    let (new_worth, old_worth) = ((new.depth, 7 - new.cut), (old.depth, 7 - old.cut));
    if new_worth > old_worth {
        return TtEntry { best, ..new };
    }
    if new_worth < old_worth {
        return TtEntry { cost: old.cost.max(new.cost), ..old };
    }
    let lower = old.lower.max(new.lower);
    let upper = old.upper.min(new.upper);
    if lower > upper {
        // The two searches disagree (their trees differed): trust the newer one.
        return TtEntry { best, ..new };
    }
    TtEntry { lower, upper, best, depth: new.depth, cost: old.cost.max(new.cost), cut: new.cut }
}

impl fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TranspositionTable({} MiB, {} buckets)", self.mib, self.buckets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapping_the_pages_changes_no_entry() {
        let tt = TranspositionTable::new(MAP_AHEAD_MIN_MIB).unwrap();
        let keys: Vec<u64> = (1..2000u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15)).collect();
        for (i, &key) in keys.iter().enumerate() {
            tt.store(key, entry(i as i32 % 50, 60, 5));
        }
        let before: Vec<_> = keys.iter().map(|&k| tt.probe(k)).collect();
        assert!(before.iter().filter(|e| e.is_some()).count() > 1900);
        tt.map_pages();
        let after: Vec<_> = keys.iter().map(|&k| tt.probe(k)).collect();
        assert_eq!(before, after);
    }

    #[test]
    fn a_shared_table_has_the_size_asked_for_and_starts_empty() {
        for mib in [1, MAP_AHEAD_MIN_MIB, 16] {
            let tt = TranspositionTable::shared(mib).unwrap();
            assert_eq!(tt.mib(), mib);
            assert_eq!(tt.probe(0x1234_5678), None);
        }
    }

    fn entry(lower: i32, upper: i32, depth: u8) -> TtEntry {
        TtEntry { lower, upper, best: 19, depth, cost: 3, cut: 0 }
    }

    #[test]
    fn packing_round_trips_the_extremes() {
        for e in [
            entry(-30000, 30000, 60),
            entry(-64, 64, 0),
            TtEntry { best: NO_MOVE, cost: 63, ..entry(0, 0, 1) },
            TtEntry { cut: 7, ..entry(-3, 5, 20) },
        ] {
            for generation in [0, 1, 63] {
                assert_eq!(unpack(pack(&e, generation)), (e, generation));
            }
        }
    }

    #[test]
    fn stores_probes_and_merges() {
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.probe(12345), None);
        tt.store(12345, entry(-100, 200, 5));
        assert_eq!(tt.probe(12345), Some(entry(-100, 200, 5)));
        // Same depth: bounds merge.
        tt.store(12345, TtEntry { best: NO_MOVE, ..entry(0, 500, 5) });
        assert_eq!(tt.probe(12345), Some(entry(0, 200, 5)));
        // Deeper replaces; shallower keeps the deeper bounds.
        tt.store(12345, entry(50, 50, 7));
        tt.store(12345, entry(-500, -400, 2));
        assert_eq!(tt.probe(12345), Some(entry(50, 50, 7)));
        // A key that differs in its low bits only (same bucket) is a miss.
        assert_eq!(tt.probe(12344), None);
        tt.clear();
        assert_eq!(tt.probe(12345), None);
    }

    #[test]
    fn an_exact_solve_outranks_a_selective_one() {
        let tt = TranspositionTable::new(1).unwrap();
        let selective = TtEntry { cut: 4, ..entry(10, 10, 20) };
        tt.store(7, selective);
        assert_eq!(tt.probe(7), Some(selective));
        // Bounds of one selectivity merge.
        tt.store(7, TtEntry { cut: 4, ..entry(-64, 12, 20) });
        assert_eq!(tt.probe(7), Some(selective));
        // The exact solve replaces it, and a later selective one does not replace the exact.
        tt.store(7, entry(8, 8, 20));
        tt.store(7, TtEntry { cut: 2, ..entry(30, 30, 20) });
        assert_eq!(tt.probe(7), Some(entry(8, 8, 20)));
        // Who may trust what.
        assert!(entry(8, 8, 20).trusted_at(0) && entry(8, 8, 20).trusted_at(5));
        assert!(selective.trusted_at(4) && selective.trusted_at(5));
        assert!(!selective.trusted_at(3) && !selective.trusted_at(0));
    }

    #[test]
    fn a_full_bucket_drops_the_oldest_then_the_cheapest() {
        let tt = TranspositionTable::new(1).unwrap();
        // Keys in the same bucket: same high bits.
        let keys: Vec<u64> = (0..6).map(|i| 0xabcd_0000_0000_0000 | i).collect();
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(k, TtEntry { cost: 10 + i as u8, ..entry(0, 0, 3) });
        }
        tt.store(keys[4], TtEntry { cost: 20, ..entry(0, 0, 3) });
        assert_eq!(tt.probe(keys[0]), None, "the cheapest entry went");
        assert!(keys[1..5].iter().all(|&k| tt.probe(k).is_some()));
        tt.new_search();
        tt.store(keys[1], TtEntry { cost: 1, ..entry(0, 0, 3) });
        tt.store(keys[5], entry(0, 0, 3));
        assert!(tt.probe(keys[1]).is_some(), "refreshed by this search");
        assert_eq!(tt.probe(keys[2]), None, "the cheapest of the old search went");
    }

    #[test]
    fn hashfull_counts_this_search() {
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.hashfull(), 0);
        for k in 0..200_000u64 {
            tt.store(k.wrapping_mul(0x9e37_79b9_7f4a_7c15), entry(0, 0, 1));
        }
        assert!(tt.hashfull() > 500, "{}", tt.hashfull());
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }

    /// The zeroed allocation against its safe twin: the same empty slots.
    #[test]
    fn zeroed_slots_are_empty_slots() {
        let zeroed = zeroed_slots(100_000).unwrap();
        let safe: Vec<Slot> = std::iter::repeat_with(Slot::default).take(100_000).collect();
        assert_eq!(zeroed.len(), safe.len());
        for (x, y) in zeroed.iter().zip(&safe) {
            assert_eq!(x.check.load(Relaxed), y.check.load(Relaxed));
            assert_eq!(x.data.load(Relaxed), y.data.load(Relaxed));
        }
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!((tt.slots.as_ptr() as usize + tt.first * 16) % 64, 0, "buckets fill cache lines");
        assert!(tt.first + tt.buckets * BUCKET_SLOTS <= tt.slots.len());
        for k in 0..1000u64 {
            assert_eq!(tt.probe(k.wrapping_mul(0x9e37_79b9_7f4a_7c15)), None);
        }
    }

    #[test]
    fn sizes_are_clamped() {
        let tt = TranspositionTable::new(0).unwrap();
        assert_eq!(tt.mib(), MIN_MIB);
        assert_eq!(BUCKET_BYTES, 64);
    }
}
