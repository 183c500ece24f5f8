//! The structures that threads share in a parallel search by young brothers wait (see
//! [`super::parallel`] for the search itself): split points, nodes whose remaining moves any
//! thread may take, and the pool of the open ones with the threads waiting for work.
//!
//! This module knows nothing of the threads' own state: a split point hands out moves and
//! collects their scores under its lock, and says whether it (or one above it) was cut.

use super::ordering::{MoveList, ScoredMove};
use crate::board::Position;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// Which search a split point's moves are searched with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitKind {
    /// The solver (scores in discs), at this selectivity level (0: exact).
    Endgame(u8),
    /// The depth-limited search, the node having this depth, under this many ProbCut shallow
    /// searches (the owner's `probcut_level`, which the helpers take on).
    Midgame(i32, u8),
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
    /// The node.
    pub position: Position,
    /// The null window's alpha: a move scoring above it cuts the node.
    pub alpha: i32,
    /// The node's ply from the root.
    pub ply: usize,
    /// The search its moves are searched with.
    pub kind: SplitKind,
    moves: Mutex<SplitMoves>,
    cut: AtomicBool,
    /// Helpers (not the owner) searching here now.
    workers: AtomicUsize,
    /// The split point the owner was working under, whose cut ends this one too.
    parent: Option<Arc<SplitPoint>>,
}

impl SplitPoint {
    /// The split point of `position`'s moves `list[next..]` with the null window at `alpha`,
    /// `best` being what the moves before `next` gave, under `parent`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        position: Position,
        alpha: i32,
        ply: usize,
        kind: SplitKind,
        list: MoveList,
        next: usize,
        best: (i32, u8),
        parent: Option<Arc<SplitPoint>>,
    ) -> SplitPoint {
        SplitPoint {
            position,
            alpha,
            ply,
            kind,
            moves: Mutex::new(SplitMoves { list, next, best: best.0, best_move: best.1 }),
            cut: AtomicBool::new(false),
            workers: AtomicUsize::new(0),
            parent,
        }
    }

    /// The split point above this one.
    pub fn parent(&self) -> Option<&SplitPoint> {
        self.parent.as_deref()
    }

    /// Whether a split point above this one has been cut.
    pub fn is_cut_above(&self) -> bool {
        self.parent().is_some_and(SplitPoint::is_cut)
    }

    /// Whether this split point itself has been cut.
    pub fn is_cut_here(&self) -> bool {
        self.cut.load(Relaxed)
    }

    /// Cuts this split point: the threads under it give up their work.
    pub fn cut(&self) {
        self.cut.store(true, Relaxed);
    }

    /// The next move to search, unless the split point is cut or has none left.
    pub fn take_move(&self) -> Option<ScoredMove> {
        let mut moves = self.lock();
        if self.is_cut_here() || moves.next >= moves.list.len() {
            return None;
        }
        let i = moves.next;
        moves.next += 1;
        Some(moves.list.pick(i))
    }

    /// Records a searched move's score; a score above alpha cuts the split point (and returns
    /// true).
    pub fn record(&self, score: i32, square: u8) -> bool {
        let mut moves = self.lock();
        if score > moves.best {
            moves.best = score;
            moves.best_move = square;
        }
        if score > self.alpha {
            self.cut();
            return true;
        }
        false
    }

    /// The best score and move recorded.
    pub fn best(&self) -> (i32, u8) {
        let moves = self.lock();
        (moves.best, moves.best_move)
    }

    /// Helpers (not the owner) searching here now.
    pub fn helpers(&self) -> usize {
        self.workers.load(Relaxed)
    }

    /// A helper leaves.
    pub fn leave(&self) {
        self.workers.fetch_sub(1, Relaxed);
    }

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
    pub fn descends_from(&self, ancestor: &SplitPoint) -> bool {
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

    /// Opens `sp` to the helpers.
    pub fn publish(&self, sp: &Arc<SplitPoint>) {
        self.lock().push(Arc::clone(sp));
        self.wake.notify_all();
    }

    /// Closes `sp`: no helper joins it any more.
    pub fn withdraw(&self, sp: &Arc<SplitPoint>) {
        self.lock().retain(|s| !Arc::ptr_eq(s, sp));
    }

    /// Joins an open split point with moves left that `accept` accepts, counting this thread as
    /// one of its workers.
    pub fn join(&self, accept: impl Fn(&SplitPoint) -> bool) -> Option<Arc<SplitPoint>> {
        let open = self.lock();
        let sp = open.iter().find(|sp| accept(sp) && sp.has_moves())?;
        sp.workers.fetch_add(1, Relaxed);
        Some(Arc::clone(sp))
    }

    /// Counts a thread as idle (waiting for work) or no longer.
    pub fn set_idle(&self, idle: bool) {
        if idle {
            self.idle.fetch_add(1, Relaxed);
        } else {
            self.idle.fetch_sub(1, Relaxed);
        }
    }

    /// Waits for an open split point with moves left and joins it, or returns `None` once `stop`
    /// is set.
    pub fn wait_for_work(&self, stop: &AtomicBool) -> Option<Arc<SplitPoint>> {
        let mut open = self.lock();
        loop {
            if stop.load(Relaxed) {
                return None;
            }
            if let Some(sp) = open.iter().find(|sp| sp.has_moves()) {
                sp.workers.fetch_add(1, Relaxed);
                return Some(Arc::clone(sp));
            }
            open = self.wake.wait_timeout(open, Duration::from_millis(1)).map_or_else(|e| e.into_inner().0, |r| r.0);
        }
    }

    /// Wakes every waiting helper (the search is over).
    pub fn wake_all(&self) {
        let _guard = self.lock();
        self.wake.notify_all();
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
