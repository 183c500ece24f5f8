//! Parallel search by young brothers wait (YBWC), as Edax does it: a null-window node searches its
//! first move alone; if that does not cut and a thread is idle, the node becomes a split point
//! ([`super::split`]) whose other moves any thread may take, each searched with the node's null
//! window.
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
use super::split::{SplitKind, SplitPoint};
use super::worker::Worker;
use crate::board::{Position, Square};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;

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
        let sp = Arc::new(SplitPoint::new(*pos, alpha, ply, kind, list, next, best, self.split_chain.clone()));
        let shared = Arc::clone(&self.shared);
        let pool = &shared.pool;
        pool.publish(&sp);
        self.work_at(&sp, control);
        pool.withdraw(&sp);
        if !self.halted() {
            // Until its helpers are done (or one cuts it), help at the split points below it.
            pool.set_idle(true);
            while sp.helpers() > 0 && !sp.is_cut_here() {
                self.check(control);
                if self.halted() {
                    break;
                }
                match pool.join(|other| other.descends_from(&sp)) {
                    Some(below) => {
                        pool.set_idle(false);
                        self.work_at(&below, control);
                        below.leave();
                        pool.set_idle(true);
                        // A cut below only ended that work; a cut above is seen at the next check.
                        self.aborted = false;
                    }
                    None => std::thread::yield_now(),
                }
            }
            pool.set_idle(false);
        }
        if self.over_budget {
            // The owner gives this node up: so must its helpers.
            sp.cut();
        }
        // The owner's search goes on unless a split point above this one was cut.
        self.aborted = sp.is_cut_above();
        sp.best()
    }

    /// Takes moves from `sp` and searches them until none is left or it is cut.
    fn work_at(&mut self, sp: &Arc<SplitPoint>, control: &mut dyn SearchControl) {
        let outer = self.split_chain.replace(Arc::clone(sp));
        while let Some(m) = sp.take_move() {
            let child = sp.position.play_with_flips(Square::from_index_unchecked(m.square.into()), m.flips);
            let score = match sp.kind {
                SplitKind::Endgame(cut) => {
                    let outer_cut = std::mem::replace(&mut self.solve_cut, cut);
                    let score = -self.solve_nws(&child, -sp.alpha - 1, sp.ply + 1, control);
                    self.solve_cut = outer_cut;
                    score
                }
                SplitKind::Midgame(depth, level) => {
                    let outer_level = std::mem::replace(&mut self.probcut_level, level);
                    let score = -self.pvs(&child, depth - 1, -sp.alpha - 1, -sp.alpha, sp.ply + 1, control);
                    self.probcut_level = outer_level;
                    score
                }
            };
            if self.stopped.is_some() {
                break;
            }
            if self.aborted {
                // Cut here: this split point is over, the search above goes on. Cut above: give up.
                if !sp.is_cut_above() {
                    self.aborted = false;
                }
                break;
            }
            if sp.record(score, m.square) {
                break;
            }
        }
        self.split_chain = outer;
    }

    /// A helper thread's life: wait for a split point, help there, until the search stops.
    pub(super) fn help(&mut self, control: &mut dyn SearchControl) {
        let shared = Arc::clone(&self.shared);
        let pool = &shared.pool;
        pool.set_idle(true);
        while let Some(sp) = pool.wait_for_work(&shared.stop) {
            pool.set_idle(false);
            self.work_at(&sp, control);
            self.aborted = false;
            sp.leave();
            pool.set_idle(true);
        }
        pool.set_idle(false);
        self.shared.nodes[self.id].store(self.nodes, Relaxed);
    }
}
