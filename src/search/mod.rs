//! The search: iterative deepening over a principal-variation search with a shared transposition
//! table, Multi-ProbCut, an exact endgame solver, and young-brothers-wait parallel search over
//! several threads.
//!
//! The search never prints. It reports each finished iteration through a callback and returns a
//! [`SearchResult`]; the engine's protocol layer turns those into lines. It polls a
//! [`SearchControl`] every thousand nodes or so, next to its deadline and node checks, so that a
//! client's `stop` ends it within a fraction of a millisecond.
//!
//! Scores are centi-discs for the side to move: an estimate of the final disc difference from the
//! evaluation, or the exact final score (empties to the winner) × 100 once solved.
//!
//! Modules: [`limits`] (what bounds a search, time plans), [`tt`] (the transposition table),
//! [`ordering`] (move ordering), [`worker`] (one thread's state), [`midgame`] (the depth-limited
//! search), [`endgame`] (the exact solver), [`root`] (iterative deepening and the root),
//! [`split`] (the split points threads share) and [`parallel`] (the threads' side of them).
//!
//! Parallel search is young brothers wait ([`parallel`]): the main thread runs the iterative
//! deepening, reports, keeps the clock and decides when all stop; the other threads help at the
//! nodes it (or they) open to them once a node's first move has been searched. Lazy SMP (every
//! thread searching the same tree, sharing the table) was measured first and gave no speed-up on
//! exact solves.

pub mod end_cache;
pub mod endgame;
pub mod eval_cache;
pub mod eval_stack;
pub mod limits;
pub mod midgame;
pub mod ordering;
pub mod parallel;
pub mod root;
pub mod split;
pub mod tt;
pub mod worker;

use crate::board::{Move, Position};
use crate::eval::{EvalKind, Evaluator};
pub use limits::{Clock, Deadlines, Limits, MAX_SEARCH_DEPTH, StopReason, search_depth};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};
pub use tt::TranspositionTable;
use worker::{MAX_DRAW_SCORE, Setup, Shared, Worker};

/// The deepest ply the search can reach: 60 moves plus passes, with room to spare.
pub const MAX_PLY: usize = 128;

/// Larger than any score.
pub const INFINITY: i32 = 30_000;

/// One search to run.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// The root position; it must have a legal move.
    pub position: Position,
    /// Deepest iteration.
    pub max_depth: u32,
    /// Node budget.
    pub node_limit: Option<u64>,
    /// When to stop iterating and when to abort.
    pub deadlines: Deadlines,
    /// When the clock started (the moment the command was read).
    pub start: Instant,
    /// The evaluation at the leaves.
    pub eval: Evaluator,
    /// How many best moves to score exactly and report (1 for a plain search).
    pub multi_pv: usize,
    /// The value of a drawn game for Black, in centi-discs (NBoard's contempt); White's is its
    /// negation. The search uses it within ±99, so that a draw stays between a loss and a win.
    pub draw_score_for_black: i32,
    /// Solve for win, draw or loss only, not the exact score (once the search reaches the end).
    pub wld: bool,
    /// Multi-ProbCut's selectivity, 0 (none, the default of [`SearchRequest::new`]) to
    /// [`MAX_SELECTIVITY`]: see [`probcut_t`].
    pub selectivity: u8,
    /// Root moves not to search (bits of their squares): the opening book asks for the best move
    /// it does not hold yet. Ignored where it would leave no legal move.
    pub excluded: u64,
    /// Which selective solves come before the exact one (see [`root::solve_ladder`]).
    pub solve_steps: SolveSteps,
}

/// The steps of the ladder of selective solves that ends a search with the exact solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SolveSteps {
    /// Every level from the request's selectivity down: a search that may be stopped at any
    /// moment (a clock, a client's `stop`) answers with the last step it finished, and small steps
    /// finish often. The engine's searches.
    #[default]
    Every,
    /// One selective solve at [`root::FAST_SOLVE_LEVEL`] (the request's selectivity, if lower),
    /// then the exact one: the exact score soonest, for a search that is not expected to be
    /// stopped (`magpie solve`, `magpie review`).
    Fast,
}

/// The most selective Multi-ProbCut level.
pub const MAX_SELECTIVITY: u8 = 5;

/// Multi-ProbCut's confidence factor t at each selectivity level: a cut needs the shallow search
/// to predict the deep one beyond the window by t standard deviations (t = 3.3 is wrong about
/// once in 2000 cuts if the errors are normal, t = 0.8 about once in 5). Level 0 turns it off.
/// Level 5 was t = 1.1 until round 11's weights: 0.8 scored +18.7 ± 16.3 Elo against it in
/// self-play (800 games at a 1 s clock), and a little better against NTest too.
pub fn probcut_t(selectivity: u8) -> Option<f32> {
    match selectivity {
        0 => None,
        1 => Some(3.3),
        2 => Some(2.6),
        3 => Some(2.0),
        4 => Some(1.5),
        _ => Some(0.8),
    }
}

/// How sure a selectivity level's cuts are, in percent, as Edax writes it after a selective
/// solve's depth (`22@87%`): about the chance that the error of a cut's prediction stays within
/// t standard deviations either way.
pub fn selectivity_percent(selectivity: u8) -> u32 {
    match selectivity {
        0 => 100,
        1 => 99,
        2 => 98,
        3 => 95,
        4 => 87,
        _ => 58,
    }
}

/// The engine's selectivity unless told otherwise (the `Selectivity` option, `--selectivity`).
pub const DEFAULT_SELECTIVITY: u8 = 5;

impl SearchRequest {
    /// A request with no limit but `max_depth`, starting now.
    pub fn new(position: Position, eval: impl Into<Evaluator>) -> SearchRequest {
        SearchRequest {
            position,
            max_depth: 60,
            node_limit: None,
            deadlines: Deadlines::default(),
            start: Instant::now(),
            eval: eval.into(),
            multi_pv: 1,
            draw_score_for_black: 0,
            wld: false,
            selectivity: 0,
            excluded: 0,
            solve_steps: SolveSteps::Every,
        }
    }
}

/// The state of a search after an iteration: what `info` lines show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached (passes included).
    pub seldepth: u32,
    /// Score in centi-discs for the side to move.
    pub score: i32,
    /// Whether the score comes from a search to the end of the game: the perfect-play result, or
    /// a bound on it (see `bound`).
    pub exact: bool,
    /// Whether every line was searched to the end of the game: with `exact`, the perfect-play
    /// result; without, a selective solve's (cut by ProbCut at `selectivity`).
    pub solve: bool,
    /// Whether `score` is the value or a bound on it (a WLD search's win or loss, a root move
    /// that did not beat the best).
    pub bound: Bound,
    /// Nodes searched since the start.
    pub nodes: u64,
    /// Time since the clock started.
    pub time: Duration,
    /// The principal variation, from the root.
    pub pv: Vec<Move>,
    /// In a multi-PV search, the rank of this line (1 = best); `None` in a plain search.
    pub multipv: Option<u32>,
    /// Permille of the transposition table filled by this search.
    pub hashfull: u32,
    /// The Multi-ProbCut selectivity level behind a score that is not exact; `None` when the
    /// search cut nothing by ProbCut.
    pub selectivity: Option<u8>,
}

/// What a score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    /// The value itself.
    #[default]
    Exact,
    /// The value is at least the score.
    Lower,
    /// The value is at most the score.
    Upper,
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-6)) as u64
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play: always legal in the root position.
    pub best: Move,
    /// What the last (complete or usable partial) iteration found.
    pub info: SearchInfo,
    /// Why the search ended early, if it did.
    pub stopped: Option<StopReason>,
}

/// What the search polls every few thousand nodes to learn whether it must stop.
pub trait SearchControl {
    /// `Some(reason)` to abort the search now. `nodes` is the number of nodes searched so far, for
    /// progress reports.
    fn poll(&mut self, nodes: u64) -> Option<StopReason>;
}

/// A search result with no search behind it: `best` at depth 0 with the given score.
pub fn unsearched(best: Move, score: i32, time: Duration) -> SearchResult {
    SearchResult {
        best,
        info: SearchInfo {
            depth: 0,
            seldepth: 0,
            score,
            exact: false,
            solve: false,
            bound: Bound::Exact,
            nodes: 0,
            time,
            pv: vec![best],
            multipv: None,
            hashfull: 0,
            selectivity: None,
        },
        stopped: None,
    }
}

/// A control that never stops the search (limits and deadlines still apply).
pub struct NoControl;

impl SearchControl for NoControl {
    fn poll(&mut self, _nodes: u64) -> Option<StopReason> {
        None
    }
}

/// The search, kept from one search to the next: the transposition table, the threads' states
/// and the number of threads.
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    workers: Vec<Worker>,
    threads: usize,
    /// The evaluation and value of a draw that the table's depth-limited entries were computed
    /// with: they mean nothing under others.
    table_context: Option<(EvalKind, u64, i32, u8)>,
    /// Whether a search wrote to the table since it was last cleared (clearing touches every
    /// page: 9 ms for 64 MiB, 65 ms the first time).
    table_used: bool,
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new()
    }
}

impl Searcher {
    /// A one-thread searcher with a table of the default size (or the smallest, if even that
    /// cannot be had).
    pub fn new() -> Searcher {
        let tt = TranspositionTable::shared(tt::DEFAULT_MIB).or_else(|_| TranspositionTable::shared(tt::MIN_MIB));
        match tt {
            Ok(tt) => Searcher::with_table(tt),
            Err(e) => panic!("{e}"),
        }
    }

    /// A one-thread searcher over `tt`.
    pub fn with_table(tt: Arc<TranspositionTable>) -> Searcher {
        crate::board::stability::init();
        Searcher {
            workers: vec![Worker::new(0, Arc::clone(&tt))],
            tt,
            threads: 1,
            table_context: None,
            table_used: false,
        }
    }

    /// A one-thread searcher with a table of `mib` MiB.
    pub fn with_hash(mib: usize) -> Result<Searcher, tt::AllocError> {
        Ok(Searcher::with_table(TranspositionTable::shared(mib)?))
    }

    /// The table.
    pub fn table(&self) -> &Arc<TranspositionTable> {
        &self.tt
    }

    /// The number of threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Searches with `threads` threads (at least one) from the next search on: the main thread and
    /// `threads - 1` helpers.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        while self.workers.len() < self.threads {
            self.workers.push(Worker::new(self.workers.len(), Arc::clone(&self.tt)));
        }
    }

    /// Forgets everything learnt from earlier searches (a new game).
    pub fn clear(&mut self) {
        if self.table_used {
            self.tt.clear();
            self.table_used = false;
        }
    }

    /// Searches `request.position`, calling `on_iteration` after each completed iteration (once
    /// per line, best first, in a multi-PV search), and returns the move to play. The position must
    /// not be over; if the side to move must pass, the answer is a pass.
    pub fn search(
        &mut self,
        request: &SearchRequest,
        control: &mut dyn SearchControl,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let root = request.position;
        if root.legal_moves().is_empty() {
            return unsearched(Move::Pass, 0, request.start.elapsed());
        }
        let draw_for_black = request.draw_score_for_black.clamp(-MAX_DRAW_SCORE, MAX_DRAW_SCORE);
        let context = (request.eval.kind(), request.eval.identity(), draw_for_black, request.selectivity);
        if self.table_context != Some(context) {
            self.clear();
            self.table_context = Some(context);
        }
        self.table_used = true;
        self.tt.new_search();
        let threads = self.threads;
        let shared = Arc::new(Shared::new(threads));
        let setup = Setup {
            size: root.size(),
            eval: request.eval.clone(),
            draw_for_black,
            node_limit: request.node_limit.unwrap_or(u64::MAX).max(1),
            hard_deadline: request.deadlines.hard,
            probcut: probcut_t(request.selectivity)
                .filter(|_| request.eval.kind() == EvalKind::Pattern && !request.eval.weights().probcut().is_empty()),
        };
        for worker in &mut self.workers[..threads] {
            worker.prepare(&self.tt, &shared, setup.clone());
        }
        let tt = &self.tt;
        let (main, helpers) = self.workers.split_at_mut(1);
        let main = &mut main[0];
        let helper_nodes = |shared: &Shared| shared.nodes[1..].iter().map(|n| n.load(Relaxed)).sum::<u64>();
        let mut report = |info: &SearchInfo| {
            let mut info = info.clone();
            info.nodes += helper_nodes(&shared);
            info.hashfull = tt.hashfull();
            on_iteration(&info);
        };
        let mut result = std::thread::scope(|scope| {
            for helper in helpers[..threads - 1].iter_mut() {
                scope.spawn(move || helper.help(&mut NoControl));
            }
            let result = main.iterate(request, control, &mut report);
            shared.stop.store(true, Relaxed);
            shared.pool.wake_all();
            result
        });
        let helper_total: u64 = helpers[..threads - 1].iter().map(|w| w.nodes).sum();
        result.info.nodes += helper_total;
        result.info.hashfull = self.tt.hashfull();
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chance that a normal error stays within `t` standard deviations either way, by
    /// integrating the density (Simpson's rule): a slow reference for the table of percents.
    fn normal_coverage(t: f64) -> f64 {
        let steps = 10_000;
        let h = 2.0 * t / steps as f64;
        let density = |x: f64| (-x * x / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
        let inner: f64 = (1..steps).map(|i| density(-t + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 }).sum();
        (density(-t) + inner + density(t)) * h / 3.0
    }

    #[test]
    fn the_percent_shown_for_a_level_is_the_coverage_of_its_t() {
        assert_eq!((probcut_t(0), selectivity_percent(0)), (None, 100));
        for level in 1..=MAX_SELECTIVITY {
            let t = probcut_t(level).unwrap();
            let coverage = 100.0 * normal_coverage(f64::from(t));
            let shown = f64::from(selectivity_percent(level));
            // Edax's figures, which levels 1 to 4 keep, round within about a point.
            assert!((coverage - shown).abs() <= 1.5, "level {level}: t {t} covers {coverage:.1}%, shown {shown}%");
            assert!(shown < 100.0, "level {level}: a selective solve is never shown as exact");
        }
    }
}
