//! Parallel search by young brothers wait (YBWC), as Edax does it: a null-window node searches its
//! first move alone; if that does not cut and a thread is idle, the node becomes a split point
//! whose other moves any thread may take, each searched with the node's null window.
//!
//! - The thread that owns the split point takes moves too. Once none is left it waits for the
//!   helpers still searching there, and meanwhile helps at split points opened below its own (the
//!   "helpful master"), so that with two threads neither stays idle for long.
//! - A move that beats alpha cuts the split point: the threads searching its other moves, and
//!   every split point below them, see it at their next poll and drop their work.
//! - Helpers that have nothing to do wait on a condition variable; the search's end wakes them.
//!
//! Measured on FFO #40-#47 against lazy SMP (every thread searching the same tree, sharing the
//! table), which gave no speed-up at all on exact solves: see docs/search.md.

use super::SearchControl;
use super::ordering::MoveList;
use super::worker::Worker;
use crate::board::{Position, Square};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// Which search a split point's moves are searched with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitKind {
    /// The solver (scores in discs), at this selectivity level (0: exact).
    Endgame(u8),
    /// The depth-limited search, the node having this depth.
    Midgame(i32),
}

/// What the threads at a split point share under its lock.
#[derive(Clone, Copy)]
struct SplitMoves {
    list: MoveList,
    next: usize,
    best: i32,
    best_move: u8,
}

/// A node whose remaining moves several threads search.
pub struct SplitPoint {
    position: Position,
    alpha: i32,
    ply: usize,
    kind: SplitKind,
    moves: Mutex<SplitMoves>,
    cut: AtomicBool,
    /// Helpers (not the owner) searching here now.
    workers: AtomicUsize,
    /// The split point the owner was working under, whose cut ends this one too.
    parent: Option<Arc<SplitPoint>>,
}

impl SplitPoint {
    /// Whether this split point or one above it has been cut.
    pub fn is_cut(&self) -> bool {
        let mut sp = Some(self);
        while let Some(s) = sp {
            if s.cut.load(Relaxed) {
                return true;
            }
            sp = s.parent.as_deref();
        }
        false
    }

    /// Whether `ancestor` is this split point or one above it.
    fn descends_from(&self, ancestor: &SplitPoint) -> bool {
        let mut sp = Some(self);
        while let Some(s) = sp {
            if std::ptr::eq(s, ancestor) {
                return true;
            }
            sp = s.parent.as_deref();
        }
        false
    }

    fn lock(&self) -> MutexGuard<'_, SplitMoves> {
        // A thread that panicked while holding the lock leaves consistent data (plain values).
        self.moves.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn has_moves(&self) -> bool {
        !self.is_cut() && {
            let moves = self.lock();
            moves.next < moves.list.len()
        }
    }
}

/// The split points open to helpers, and the helpers waiting for one.
#[derive(Default)]
pub struct SplitPool {
    open: Mutex<Vec<Arc<SplitPoint>>>,
    wake: Condvar,
    /// Threads waiting for work: helpers, and owners waiting for their helpers.
    idle: AtomicUsize,
    /// More than one thread searches.
    parallel: bool,
}

impl SplitPool {
    /// The pool of a search with `threads` threads.
    pub fn new(threads: usize) -> SplitPool {
        SplitPool { parallel: threads > 1, ..SplitPool::default() }
    }

    /// Whether a node could be split now: some thread is idle.
    #[inline]
    pub fn has_idle(&self) -> bool {
        self.parallel && self.idle.load(Relaxed) > 0
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Arc<SplitPoint>>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn publish(&self, sp: &Arc<SplitPoint>) {
        self.lock().push(Arc::clone(sp));
        self.wake.notify_all();
    }

    fn withdraw(&self, sp: &Arc<SplitPoint>) {
        self.lock().retain(|s| !Arc::ptr_eq(s, sp));
    }

    /// Joins an open split point with moves left that `accept` accepts, counting this thread as
    /// one of its workers.
    fn join(&self, accept: impl Fn(&SplitPoint) -> bool) -> Option<Arc<SplitPoint>> {
        let open = self.lock();
        let sp = open.iter().find(|sp| accept(sp) && sp.has_moves())?;
        sp.workers.fetch_add(1, Relaxed);
        Some(Arc::clone(sp))
    }

    /// Wakes every waiting helper (the search is over).
    pub fn wake_all(&self) {
        let _guard = self.lock();
        self.wake.notify_all();
    }
}

impl Worker {
    /// Whether this worker must give up what it searches: the search stopped, or a split point it
    /// works under was cut.
    #[inline]
    pub(super) fn halted(&self) -> bool {
        self.stopped.is_some() || self.aborted || self.over_budget
    }

    /// Whether a node could be split now: another thread is idle.
    #[inline]
    pub(super) fn can_split(&self) -> bool {
        self.shared.pool.has_idle()
    }

    /// Searches the moves `list[next..]` of `pos` with the null window at `alpha`, with whatever
    /// threads are idle; `best` and `best_move` are what the moves before `next` gave. Returns the
    /// best score and move (meaningless if the worker halted).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn split(
        &mut self,
        pos: &Position,
        alpha: i32,
        ply: usize,
        kind: SplitKind,
        list: MoveList,
        next: usize,
        best: (i32, u8),
        control: &mut dyn SearchControl,
    ) -> (i32, u8) {
        let sp = Arc::new(SplitPoint {
            position: *pos,
            alpha,
            ply,
            kind,
            moves: Mutex::new(SplitMoves { list, next, best: best.0, best_move: best.1 }),
            cut: AtomicBool::new(false),
            workers: AtomicUsize::new(0),
            parent: self.split_chain.clone(),
        });
        let shared = Arc::clone(&self.shared);
        let pool = &shared.pool;
        pool.publish(&sp);
        self.work_at(&sp, control);
        pool.withdraw(&sp);
        if !self.halted() {
            // Until its helpers are done (or one cuts it), help at the split points below it.
            pool.idle.fetch_add(1, Relaxed);
            while sp.workers.load(Relaxed) > 0 && !sp.cut.load(Relaxed) {
                self.check(control);
                if self.halted() {
                    break;
                }
                match pool.join(|other| other.descends_from(&sp)) {
                    Some(below) => {
                        pool.idle.fetch_sub(1, Relaxed);
                        self.work_at(&below, control);
                        below.workers.fetch_sub(1, Relaxed);
                        pool.idle.fetch_add(1, Relaxed);
                        // A cut below only ended that work; a cut above is seen at the next check.
                        self.aborted = false;
                    }
                    None => std::thread::yield_now(),
                }
            }
            pool.idle.fetch_sub(1, Relaxed);
        }
        if self.over_budget {
            // The owner gives this node up: so must its helpers.
            sp.cut.store(true, Relaxed);
        }
        // The owner's search goes on unless a split point above this one was cut.
        self.aborted = sp.parent.as_deref().is_some_and(SplitPoint::is_cut);
        let moves = sp.lock();
        (moves.best, moves.best_move)
    }

    /// Takes moves from `sp` and searches them until none is left or it is cut.
    fn work_at(&mut self, sp: &Arc<SplitPoint>, control: &mut dyn SearchControl) {
        let outer = self.split_chain.replace(Arc::clone(sp));
        loop {
            let m = {
                let mut moves = sp.lock();
                if sp.cut.load(Relaxed) || moves.next >= moves.list.len() {
                    break;
                }
                let i = moves.next;
                moves.next += 1;
                moves.list.pick(i)
            };
            let child = sp.position.play_with_flips(Square::from_index_unchecked(m.square.into()), m.flips);
            let score = match sp.kind {
                SplitKind::Endgame(cut) => {
                    let outer_cut = std::mem::replace(&mut self.solve_cut, cut);
                    let score = -self.solve_nws(&child, -sp.alpha - 1, sp.ply + 1, control);
                    self.solve_cut = outer_cut;
                    score
                }
                SplitKind::Midgame(depth) => {
                    -self.pvs(&child, depth - 1, -sp.alpha - 1, -sp.alpha, sp.ply + 1, control)
                }
            };
            if self.stopped.is_some() {
                break;
            }
            if self.aborted {
                // Cut here: this split point is over, the search above goes on. Cut above: give up.
                if !sp.parent.as_deref().is_some_and(SplitPoint::is_cut) {
                    self.aborted = false;
                }
                break;
            }
            let mut moves = sp.lock();
            if score > moves.best {
                moves.best = score;
                moves.best_move = m.square;
            }
            if score > sp.alpha {
                sp.cut.store(true, Relaxed);
                break;
            }
        }
        self.split_chain = outer;
    }

    /// A helper thread's life: wait for a split point, help there, until the search stops.
    pub(super) fn help(&mut self, control: &mut dyn SearchControl) {
        let shared = Arc::clone(&self.shared);
        let pool = &shared.pool;
        pool.idle.fetch_add(1, Relaxed);
        loop {
            if shared.stop.load(Relaxed) {
                break;
            }
            let joined = {
                let mut open = pool.lock();
                loop {
                    if shared.stop.load(Relaxed) {
                        break None;
                    }
                    if let Some(sp) = open.iter().find(|sp| sp.has_moves()) {
                        sp.workers.fetch_add(1, Relaxed);
                        break Some(Arc::clone(sp));
                    }
                    open = pool
                        .wake
                        .wait_timeout(open, Duration::from_millis(1))
                        .map_or_else(|e| e.into_inner().0, |r| r.0);
                }
            };
            let Some(sp) = joined else { break };
            pool.idle.fetch_sub(1, Relaxed);
            self.work_at(&sp, control);
            self.aborted = false;
            sp.workers.fetch_sub(1, Relaxed);
            pool.idle.fetch_add(1, Relaxed);
        }
        pool.idle.fetch_sub(1, Relaxed);
        self.shared.nodes[self.id].store(self.nodes, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use crate::board::BoardSize;
    use crate::board::testing::random_position;
    use crate::eval::EvalKind;
    use crate::rng::Rng;
    use crate::search::{NoControl, SearchRequest, Searcher};

    fn searcher(threads: usize) -> Searcher {
        let mut searcher = Searcher::with_hash(4).unwrap();
        searcher.set_threads(threads);
        searcher
    }

    #[test]
    fn two_threads_solve_like_one() {
        let mut rng = Rng::new(21);
        let mut two = searcher(2);
        for round in 0..30 {
            let pos = random_position(&mut rng, BoardSize::Eight, 14 + round % 5);
            if pos.legal_moves().is_empty() {
                continue;
            }
            let request = SearchRequest::new(pos, EvalKind::Heuristic);
            let one = searcher(1).search(&request, &mut NoControl, &mut |_| {});
            let both = two.search(&request, &mut NoControl, &mut |_| {});
            assert!(one.info.exact && both.info.exact);
            assert_eq!(one.info.score, both.info.score, "{pos}");
            assert!(pos.is_legal(both.best));
        }
    }

    #[test]
    fn two_threads_find_the_same_value_at_a_fixed_depth() {
        // A fresh table and one iteration deeper than the last: no entry is deep enough to cut, so
        // the value is the plain minimax value at that depth whatever the threads' order.
        let mut rng = Rng::new(22);
        for round in 0..12 {
            let pos = random_position(&mut rng, BoardSize::Eight, 36 + round % 8);
            if pos.legal_moves().is_empty() {
                continue;
            }
            let mut request = SearchRequest::new(pos, EvalKind::Heuristic);
            request.max_depth = 7;
            let one = searcher(1).search(&request, &mut NoControl, &mut |_| {});
            let two = searcher(2).search(&request, &mut NoControl, &mut |_| {});
            assert_eq!(one.info.depth, 7);
            assert_eq!(one.info.score, two.info.score, "{pos}");
            assert!(pos.is_legal(two.best));
        }
    }
}
