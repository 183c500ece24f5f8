//! The search: iterative deepening over a negamax principal-variation search, with passes inside
//! the tree and finished games scored exactly.
//!
//! The search never prints. It reports each finished iteration through a callback and returns a
//! [`SearchResult`]; the engine's protocol layer turns those into lines. It polls a
//! [`SearchControl`] every few thousand nodes, next to its deadline and node checks, so that a
//! client's `stop` ends it within a fraction of a millisecond.
//!
//! Scores are centi-discs for the side to move: an estimate of the final disc difference from the
//! evaluation, or the exact final score (empties to the winner) × 100 from finished games.

pub mod limits;
pub mod midgame;
pub mod ordering;

use crate::board::{Move, Position};
use crate::eval::EvalKind;
pub use limits::{Clock, Deadlines, Limits, StopReason};
use std::time::{Duration, Instant};

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
    pub eval: EvalKind,
    /// How many best moves to score exactly and report (1 for a plain search).
    pub multi_pv: usize,
    /// The value of a drawn game for Black, in centi-discs (NBoard's contempt); White's is its
    /// negation.
    pub draw_score_for_black: i32,
}

impl SearchRequest {
    /// A request with no limit but `max_depth`, starting now.
    pub fn new(position: Position, eval: EvalKind) -> SearchRequest {
        SearchRequest {
            position,
            max_depth: 60,
            node_limit: None,
            deadlines: Deadlines::default(),
            start: Instant::now(),
            eval,
            multi_pv: 1,
            draw_score_for_black: 0,
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
    /// Whether the score is the exact perfect-play result.
    pub exact: bool,
    /// Nodes searched since the start.
    pub nodes: u64,
    /// Time since the clock started.
    pub time: Duration,
    /// The principal variation, from the root.
    pub pv: Vec<Move>,
    /// In a multi-PV search, the rank of this line (1 = best); `None` in a plain search.
    pub multipv: Option<u32>,
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
        info: SearchInfo { depth: 0, seldepth: 0, score, exact: false, nodes: 0, time, pv: vec![best], multipv: None },
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

pub use midgame::Searcher;
