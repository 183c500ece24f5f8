//! `Worker`: the state of one search thread (its node count, its principal-variation table, its
//! view of the shared table and of the stop flag), and what every part of the search shares: how
//! it polls for a stop, how it scores finished games, how it turns disc scores into centi-discs.
//!
//! The search proper is written as `impl Worker` blocks: the depth-limited search in
//! [`super::midgame`], the exact solver in [`super::endgame`], iterative deepening and the root in
//! [`super::root`].

use super::end_cache::EndCache;
use super::eval_cache::EvalCache;
use super::eval_stack::EvalStack;
use super::ordering::Layout;
use super::split::{SplitPoint, SplitPool};
use super::tt::TranspositionTable;
use super::{MAX_PLY, SearchControl, StopReason};
use crate::board::{BoardSize, Color, Position};
use crate::eval::{EvalKind, Evaluator};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// Nodes between two polls of the clock, of the control channel and of the stop flag.
pub const POLL_INTERVAL: u64 = 1024;

/// The largest contempt the search uses, in centi-discs: a draw stays between a loss and a win by
/// one disc, so that exact disc scores and the value of a draw order the same way.
pub const MAX_DRAW_SCORE: i32 = 99;

/// What the threads of one search share besides the table.
pub struct Shared {
    /// Set when every thread must stop.
    pub stop: AtomicBool,
    /// The node count of each thread, published at its polls.
    pub nodes: Vec<AtomicU64>,
    /// The split points open to the threads.
    pub pool: SplitPool,
}

impl Shared {
    /// For `threads` threads.
    pub fn new(threads: usize) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            pool: SplitPool::new(threads),
        }
    }

    /// The nodes of every thread, as last published.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Relaxed)).sum()
    }
}

/// What a search is asked, as the worker needs it.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The board size.
    pub size: BoardSize,
    /// The evaluation at the leaves.
    pub eval: Evaluator,
    /// The value of a draw for Black (clamped to ±[`MAX_DRAW_SCORE`]).
    pub draw_for_black: i32,
    /// The node budget of the whole search (all threads).
    pub node_limit: u64,
    /// Multi-ProbCut's confidence factor t (cut when the shallow search is t·σ beyond the
    /// window), or `None` for no ProbCut.
    pub probcut: Option<f32>,
    /// When to abort.
    pub hard_deadline: Option<Instant>,
}

/// One search thread's state. It lives as long as the [`super::Searcher`], so that its buffers are
/// reused from search to search.
pub struct Worker {
    /// 0 for the main thread, which reports and decides when to stop.
    pub id: usize,
    /// Nodes searched in this search.
    pub nodes: u64,
    /// Deepest ply reached in this iteration.
    pub seldepth: usize,
    /// Why this worker stopped, if it did.
    pub stopped: Option<StopReason>,
    /// A split point this worker works under was cut: what it searches is no longer needed.
    pub(super) aborted: bool,
    /// The innermost split point this worker works under.
    pub(super) split_chain: Option<Arc<SplitPoint>>,
    /// How many ProbCut shallow searches enclose the node being searched (see
    /// [`super::midgame::PROBCUT_NESTING`]).
    pub(super) probcut_level: u8,
    /// The node count at which a trial solve gives up (main thread only).
    pub(super) budget: Option<u64>,
    /// The trial solve ran out of nodes: everything searched since it started is given up.
    pub(super) over_budget: bool,
    pub(super) next_check: u64,
    pub(super) tt: Arc<TranspositionTable>,
    pub(super) shared: Arc<Shared>,
    pub(super) setup: Setup,
    /// The board's playable squares, corners, edges and quadrants, for move generation and
    /// ordering.
    pub(super) layout: &'static Layout,
    /// Squares on the board: the disc total of a full board.
    pub(super) squares: i32,
    /// Triangular PV table: `pv[ply][ply..pv_len[ply]]` is the best line from `ply`.
    pub(super) pv: Vec<[u8; MAX_PLY]>,
    pub(super) pv_len: [usize; MAX_PLY],
    /// Whether the evaluation reads patterns, kept up to date along the path in `features`.
    pub(super) patterns: bool,
    pub(super) features: EvalStack,
    /// The selectivity level of the solve in progress (0: exact): the solver's ProbCut cuts at
    /// this level, and its table entries record it.
    pub(super) solve_cut: u8,
    /// The solver's own table for its last empties.
    pub(super) cache: EndCache,
    /// The values of the leaves the depth-limited search scored with the pattern evaluation.
    pub(super) eval_cache: EvalCache,
}

/// The code of a pass in PV arrays (squares are 0..64).
pub const PASS: u8 = 64;

impl Worker {
    /// A worker for thread `id`.
    pub fn new(id: usize, tt: Arc<TranspositionTable>) -> Worker {
        Worker {
            id,
            nodes: 0,
            seldepth: 0,
            stopped: None,
            aborted: false,
            split_chain: None,
            budget: None,
            over_budget: false,
            probcut_level: 0,
            next_check: POLL_INTERVAL,
            tt,
            shared: Arc::new(Shared::new(1)),
            setup: Setup {
                size: BoardSize::Eight,
                eval: Evaluator::new(EvalKind::default()),
                probcut: None,
                draw_for_black: 0,
                node_limit: u64::MAX,
                hard_deadline: None,
            },
            layout: Layout::of(BoardSize::Eight),
            squares: 64,
            pv: vec![[0; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            patterns: false,
            features: EvalStack::new(),
            solve_cut: 0,
            cache: EndCache::default(),
            eval_cache: EvalCache::default(),
        }
    }

    /// Gets ready for a new search.
    pub fn prepare(&mut self, tt: &Arc<TranspositionTable>, shared: &Arc<Shared>, setup: Setup) {
        self.tt = Arc::clone(tt);
        self.shared = Arc::clone(shared);
        self.layout = Layout::of(setup.size);
        self.squares = setup.size.squares() as i32;
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = None;
        self.aborted = false;
        self.split_chain = None;
        self.budget = None;
        self.over_budget = false;
        self.solve_cut = 0;
        self.cache.clear();
        self.next_check = POLL_INTERVAL.min(setup.node_limit);
        self.patterns = setup.eval.kind() == EvalKind::Pattern && setup.size == BoardSize::Eight;
        if self.patterns {
            self.eval_cache.hold(setup.eval.identity());
        }
        self.setup = setup;
    }

    /// Checks the stop flag; the main thread also checks the node budget, the deadline and the
    /// control channel, and raises the flag for the others.
    #[cold]
    pub(super) fn check(&mut self, control: &mut dyn SearchControl) {
        self.next_check = self.nodes + POLL_INTERVAL;
        self.shared.nodes[self.id].store(self.nodes, Relaxed);
        if self.split_chain.as_deref().is_some_and(SplitPoint::is_cut) {
            self.aborted = true;
        }
        if self.id != 0 {
            if self.shared.stop.load(Relaxed) {
                self.stopped = Some(StopReason::Stopped);
            }
            return;
        }
        if let Some(budget) = self.budget {
            if self.nodes >= budget {
                self.over_budget = true;
            }
            self.next_check = self.next_check.min(budget.max(self.nodes + 1));
        }
        let total = self.shared.total_nodes();
        let reason = if total >= self.setup.node_limit {
            Some(StopReason::Nodes)
        } else if self.setup.hard_deadline.is_some_and(|hard| Instant::now() >= hard) {
            Some(StopReason::Time)
        } else if self.shared.stop.load(Relaxed) {
            // A helper finished the search.
            Some(StopReason::Stopped)
        } else {
            control.poll(total)
        };
        if let Some(reason) = reason {
            self.stopped = Some(reason);
            self.shared.stop.store(true, Relaxed);
        }
        // With one thread the budget is exact: the next check falls on it.
        if self.shared.nodes.len() == 1 {
            self.next_check = self.next_check.min(self.setup.node_limit);
        }
    }

    /// The value of a draw for the side to move in a position where `side` moves.
    #[inline]
    pub(super) fn draw_score(&self, side: Color) -> i32 {
        match side {
            Color::Black => self.setup.draw_for_black,
            Color::White => -self.setup.draw_for_black,
        }
    }

    /// The exact score of a finished game in centi-discs, a draw valued at the contempt.
    #[inline]
    pub(super) fn final_score(&self, pos: &Position) -> i32 {
        to_centi_discs(pos.final_score(), self.draw_score(pos.side_to_move()))
    }

    /// The table key of `pos` for the depth-limited search: its discs, and its colour when draws
    /// are not worth zero (the same discs are then worth something else for the other colour).
    #[inline]
    pub(super) fn midgame_key(&self, pos: &Position) -> u64 {
        let key = pos.hash_key();
        if self.setup.draw_for_black != 0 && pos.side_to_move() == Color::White { !key } else { key }
    }

    /// Records `code` as the best move at `ply`, followed by the child's line.
    #[inline]
    pub(super) fn update_pv(&mut self, ply: usize, code: u8) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = code;
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }
}

/// An exact disc score in centi-discs, a draw worth `draw`.
#[inline]
pub fn to_centi_discs(discs: i32, draw: i32) -> i32 {
    if discs == 0 { draw } else { discs * 100 }
}

/// The disc window `(a, b)` that answers the centi-disc window `(alpha, beta)` when draws are worth
/// `draw` (|draw| ≤ [`MAX_DRAW_SCORE`]): for every disc score v, v ≤ a exactly when its value is
/// at most alpha, and v ≥ b exactly when it is at least beta. The value map is increasing, so a
/// fail-soft disc bound maps to a centi-disc bound on the same side.
#[inline]
pub fn disc_window(alpha: i32, beta: i32, draw: i32) -> (i32, i32) {
    let mut a = alpha.div_euclid(100);
    if a >= 0 && draw > alpha {
        a = -1;
    } else if a < 0 && draw <= alpha {
        a = 0;
    }
    let mut b = -((-beta).div_euclid(100));
    if b <= 0 && draw < beta {
        b = 1;
    } else if b > 0 && draw >= beta {
        b = 0;
    }
    (a.clamp(-65, 64), b.clamp(-64, 65))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disc_windows_answer_centi_disc_windows() {
        for draw in [-99, -50, 0, 1, 99] {
            for alpha in -700..700 {
                for beta in [alpha + 1, alpha + 50, alpha + 100, alpha + 333] {
                    let (a, b) = disc_window(alpha, beta, draw);
                    assert!(a < b);
                    for v in -64..=64 {
                        let value = to_centi_discs(v, draw);
                        assert_eq!(v <= a, value <= alpha, "v {v} draw {draw} window {alpha} {beta}");
                        assert_eq!(v >= b, value >= beta, "v {v} draw {draw} window {alpha} {beta}");
                    }
                }
            }
        }
    }
}
