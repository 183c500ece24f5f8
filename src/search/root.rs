//! Iterative deepening and the root of each iteration.
//!
//! Iterations deepen one disc at a time; once the next depth comes within [`endgame_gap`] of the
//! number of empty squares (and the request allows that deep), the next iteration is the exact
//! solve, whose depth is the number of empties. The iterations before it fill the table with the
//! moves that order the solve.
//!
//! With Multi-ProbCut and weights that have solve fits, the solve is a ladder of selective solves
//! ([`solve_ladder`]): the game searched to its end, but cut by ProbCut at a confidence that rises
//! from one solve to the next, the last being exact. Each finds the likely result far sooner than
//! the exact solve, and leaves the moves that order the next.
//!
//! At the root every move keeps its score and line from the last iteration, which orders the
//! next. The first `lines` moves (1, or the multi-PV count) are searched with the open window, so
//! their scores are exact; each later move is first tried with a null window at the score of the
//! `lines`-th best so far and searched again with an open window when it beats it. A WLD search
//! solves with the window of one disc around a draw, so that it only learns win, draw or loss.

use super::ordering::ordered_moves;
use super::tt::NO_MOVE;
use super::worker::{PASS, Worker, disc_window, to_centi_discs};
use super::{
    Bound, Deadlines, INFINITY, SearchControl, SearchInfo, SearchRequest, SearchResult, SolveSteps, unsearched,
};
use crate::board::symmetry::{conventional_moves, self_symmetries, symmetric_square};
use crate::board::{Move, Position, Square, hash_discs};
use crate::eval::WIPEOUT;
use std::time::Instant;

/// The exact solve starts once the next depth would be at least the empties minus this.
pub const ENDGAME_GAP: u32 = 8;

/// The gap from [`TRIAL_MAX_EMPTIES`] empties down, where the solves are cheap enough that the
/// depth-limited iterations they replace are worth less. On 480 positions of 21-29 empties from
/// games against NTest, at 100 ms a move (judged by a 4 s search), the moves at 21-23 empties lose
/// 0.42 discs to perfect play with a gap of 10 against 0.51-0.57 with 8 (12: 0.45, 14: 0.64); from
/// 24 empties up a gap of 10 loses more (0.50 against 0.39 at 24-26; 9: 0.44, 7: 0.50).
pub const NEAR_ENDGAME_GAP: u32 = 10;

/// The solve's gap for a root with `empties` empty squares.
pub const fn endgame_gap(empties: u32) -> u32 {
    if empties <= TRIAL_MAX_EMPTIES { NEAR_ENDGAME_GAP } else { ENDGAME_GAP }
}

/// The selectivity levels of the solves at the end of a search whose depth-limited iterations
/// cut at `selectivity`: that level first, then each more confident one in turn, the last solve
/// exact (level 0).
///
/// Every level rather than every other one (5, 3, 1, 0): a search on a clock that runs out during
/// a step answers with the last step it finished, and the smaller steps finish more often (on a
/// position of 30 empties, level 5 took 0.16 s, 4 0.68 s, and 3 then finished at 1.12 s where it
/// had needed 1.73 s straight after 5). At 1 and 1.5 s a move, on 750 positions of 26-31 empties
/// from games against NTest, judged exactly: 31 moves differed, 18 better by 2-4 discs, 3 worse,
/// +0.043 discs a move. The exact solve costs the same: FFO #50-#54 in 133.0 s against 133.3 s.
///
/// With [`SolveSteps::Fast`], one selective solve at [`FAST_SOLVE_LEVEL`] (or `selectivity`, if
/// lower), then the exact one.
pub fn solve_ladder(selectivity: u8, steps: SolveSteps) -> Vec<u8> {
    match steps {
        SolveSteps::Every => (0..=selectivity).rev().collect(),
        SolveSteps::Fast if selectivity == 0 => vec![0],
        SolveSteps::Fast => vec![selectivity.min(FAST_SOLVE_LEVEL), 0],
    }
}

/// The level of the one selective solve of a [`SolveSteps::Fast`] ladder. The steps of the
/// ladder cost more than they save in the exact solve when only that is wanted: on one thread,
/// FFO #40-#49 in 10.2 s (381M nodes) with levels 3 and 0, against 12.9 s (447M) with every level
/// from 5, 10.4 s with 4 and 0, 10.2 s with 4, 2 and 0, 11.4 s with 2 and 0, 12.4 s exact at
/// once; FFO #53-#54 in 70.5 s against 76.2 s (4, 2, 0: 72.5 s), #55 137.4 s against 141.5 s.
pub const FAST_SOLVE_LEVEL: u8 = 3;

/// From this depth up, each depth-limited iteration before the solve is followed by a trial
/// solve with a budget of twice as many nodes as searched so far. Where the depth-limited search
/// is slow and the solve easy (FFO #39, a wipeout: 96 s before, 0.24 s with trials) the trial ends
/// the search; elsewhere it costs little (FFO #40-#47: 774M nodes without trials, 788M with),
/// the exact entries it leaves ordering the iterations after it.
pub const TRIAL_DEPTH: u32 = 4;

/// Trial solves are tried only from this many empty squares down. With more, a solve within the
/// budget is rare, and the trials take two thirds of the time of the depth-limited search: at
/// 100 ms a move, on 480 positions of 21-29 empties from games against NTest, the moves lost 0.81
/// discs on average to perfect play with trials from 29 empties down, 0.72 from 23 down (at
/// 24-26 empties: 0.77 and 0.55). Without any trial, 21-23 empties lose 0.9 rather than 0.6.
pub const TRIAL_MAX_EMPTIES: u32 = 23;

/// From this many empty squares up, a solve (the exact one or a step of the ladder of selective
/// solves, not a trial) is started only in the first half of the move's soft budget when the
/// search has a clock. A solve takes several times the iterations before it, so one started
/// later runs on to the hard limit (up to four times the soft budget) and takes its time from
/// the moves after it, which then cannot solve. On a clock of 0.72 s a game against NTest at
/// depth 15 (600 games), Magpie's moves from 22 empties down lost 0.68 discs a game to perfect
/// play before, and turned 24 won or drawn results; 0.47 discs and 17 with this rule.
pub const SOLVE_START_MIN_EMPTIES: u32 = 20;

/// A root move with the score and line of its last search.
#[derive(Clone, Debug)]
struct RootMove {
    square: u8,
    score: i32,
    /// What `score` is: exact, or a bound, at the iteration's depth.
    bound: Bound,
    /// Whether the last iteration searched this move to the end.
    searched: bool,
    /// The line from this move (the move first).
    pv: Vec<u8>,
}

/// The root moves as their lines are reported: each followed by its twins among `twins`, the
/// moves the root's `symmetries` map it to, each with its score and its line seen through the
/// symmetry.
fn with_twins(root_moves: &[RootMove], twins: u64, symmetries: u8) -> Vec<RootMove> {
    let mut lines = Vec::with_capacity(root_moves.len() + twins.count_ones() as usize);
    let mut left = twins;
    for m in root_moves {
        lines.push(m.clone());
        for s in (1..8u8).filter(|s| symmetries & 1 << s != 0) {
            let twin = symmetric_square(s, m.square);
            if left & 1 << twin != 0 {
                left &= !(1 << twin);
                let pv = m.pv.iter().map(|&c| if c == PASS { c } else { symmetric_square(s, c) }).collect();
                lines.push(RootMove { square: twin, pv, ..m.clone() });
            }
        }
    }
    lines
}

/// The depth of the iteration after `depth`, for a root with `empties` empty squares, up to
/// `max_depth`.
pub fn next_depth(depth: u32, empties: u32, max_depth: u32) -> u32 {
    let next = depth + 1;
    if max_depth >= empties && next + endgame_gap(empties) >= empties { empties } else { next.min(max_depth) }
}

impl Worker {
    /// Iterative deepening from `request.position`, which must have a legal move. The main worker
    /// (id 0) calls `on_iteration` after each finished iteration (once per line, best first) and
    /// stops at the soft deadline; helpers search until the stop flag. Returns the result of the
    /// deepest finished iteration (or of the part of an unfinished one that can be trusted).
    pub(super) fn iterate(
        &mut self,
        request: &SearchRequest,
        control: &mut dyn SearchControl,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let root = request.position;
        let (player, opponent) = (root.player(), root.opponent());
        let hint = self.tt.probe(hash_discs(player, opponent, root.size())).map_or(NO_MOVE, |e| e.best);
        let legal = root.legal_moves().0;
        let moves = if legal & !request.excluded != 0 { legal & !request.excluded } else { legal };
        // A move that the root's symmetries make an image of another is worth the same: only the
        // conventional image of each class is searched (f5 of the start's four), and the others
        // are reported beside it.
        let symmetries = self_symmetries(player, opponent);
        let searched = conventional_moves(symmetries, moves);
        let twins = moves & !searched;
        let mut ordered = ordered_moves(player, opponent, searched, self.layout, hint);
        let mut root_moves: Vec<RootMove> = (0..ordered.len())
            .map(|i| {
                let square = ordered.pick(i).square;
                RootMove { square, score: -INFINITY, bound: Bound::Upper, searched: false, pv: vec![square] }
            })
            .collect();
        let lines = request.multi_pv.clamp(1, root_moves.len());
        // The lines reported, the searched moves' twins among them.
        let wanted = request.multi_pv.clamp(1, moves.count_ones() as usize);
        let empties = root.empty_count();
        let max_depth = request.max_depth.max(1);
        // The selectivity levels of the solves still to come, the exact one last.
        let selective =
            self.patterns && self.setup.probcut.is_some() && self.setup.eval.weights().solve_fit(empties).is_some();
        let mut ladder = if selective { solve_ladder(request.selectivity, request.solve_steps) } else { vec![0] };

        // Until an iteration finishes, the best guess is the first move of the ordering.
        let mut result = unsearched(decode(root_moves[0].square), 0, request.start.elapsed());
        let mut depth = 1;
        // The depth of the last depth-limited iteration, while the next one is a trial solve.
        let mut trial_after: Option<u32> = None;
        loop {
            let trial = trial_after.is_some();
            if self.id == 0
                && depth > 1
                && start_limit(request, depth, empties, trial).is_some_and(|t| Instant::now() >= t)
            {
                break;
            }
            let solving = depth >= empties;
            // A trial solve is exact; the solves of the ladder take its levels in turn.
            let cut = if solving && trial_after.is_none() { ladder[0] } else { 0 };
            let exact = solving && cut == 0;
            let window = if solving && request.wld { (-100, 100) } else { (-INFINITY, INFINITY) };
            self.seldepth = 0;
            self.solve_cut = cut;
            let outcome = if let Some(last) = trial_after.take() {
                // A trial solve within a node budget: given up if it runs out, its exact table
                // entries staying for the iterations to come.
                let mut trial = root_moves.clone();
                self.budget = Some(2 * self.nodes);
                self.next_check = self.next_check.min(self.budget.unwrap_or(u64::MAX));
                let outcome = self.search_root(&root, depth, &mut trial, lines, window, control);
                self.budget = None;
                if self.over_budget {
                    self.over_budget = false;
                    depth = next_depth(last, empties, max_depth);
                    continue;
                }
                root_moves = trial;
                outcome
            } else {
                self.search_root(&root, depth, &mut root_moves, lines, window, control)
            };
            let Some(best_index) = outcome else {
                // Stopped before the first move was searched: keep the last iteration.
                break;
            };
            let reported_depth = if solving { empties.max(1) } else { depth };
            // A solve stopped part way has solved only some of the moves: its best is not the exact value.
            let exact = exact && self.stopped.is_none();
            let info = |m: &RootMove, rank: usize, nodes: u64| SearchInfo {
                depth: reported_depth,
                seldepth: self.seldepth as u32,
                // The patterns may rate a position beyond a wipeout inside the search
                // (`SEARCH_BOUND`); no score says more than one.
                score: m.score.clamp(-WIPEOUT, WIPEOUT),
                exact,
                solve: solving,
                bound: m.bound,
                nodes,
                time: request.start.elapsed(),
                pv: m.pv.iter().map(|&c| decode(c)).collect(),
                multipv: (wanted > 1).then_some(rank as u32),
                hashfull: 0,
                selectivity: if solving {
                    (cut != 0).then_some(cut)
                } else {
                    self.setup.probcut.is_some().then_some(request.selectivity)
                },
            };
            result.best = decode(root_moves[best_index].square);
            result.info = info(&root_moves[best_index], 1, self.nodes);
            if self.stopped.is_some() {
                break;
            }
            // Best first, then the others by their scores (bounds below exact scores, so the lines
            // a multi-PV search reports come first).
            let best_move = root_moves.remove(best_index);
            root_moves.sort_by_key(|m| (-m.score, m.bound != Bound::Exact));
            root_moves.insert(0, best_move);
            if self.id == 0 {
                for (rank, m) in with_twins(&root_moves, twins, symmetries).iter().take(wanted).enumerate() {
                    on_iteration(&info(m, rank + 1, self.nodes));
                }
            }
            if exact || (!solving && depth >= max_depth) {
                break;
            }
            if solving {
                // The next solve of the ladder: a more confident one.
                ladder.remove(0);
                continue;
            }
            let next = next_depth(depth, empties, max_depth);
            if next < empties && max_depth >= empties && depth >= TRIAL_DEPTH && empties <= TRIAL_MAX_EMPTIES {
                trial_after = Some(depth);
                depth = empties;
            } else {
                depth = next;
            }
        }
        result.info.nodes = self.nodes;
        result.info.time = request.start.elapsed();
        result.stopped = self.stopped;
        result
    }

    /// One iteration at the root, within `window`. Returns the index of the best move, or `None`
    /// if stopped before the first move was fully searched; when stopped later, the best of the
    /// moves whose search finished.
    fn search_root(
        &mut self,
        root: &Position,
        depth: u32,
        root_moves: &mut [RootMove],
        lines: usize,
        window: (i32, i32),
        control: &mut dyn SearchControl,
    ) -> Option<usize> {
        let (low, high) = window;
        let mut best: Option<(usize, i32)> = None;
        // The exact scores found so far in this iteration, best first, at most `lines` of them.
        let mut top: Vec<i32> = Vec::with_capacity(lines);
        // The moves that reached the top of the window.
        let mut at_top = 0;
        for m in root_moves.iter_mut() {
            m.searched = false;
        }
        self.pv_len[0] = 0;
        for (i, root_move) in root_moves.iter_mut().enumerate() {
            let sq = root_move.square;
            let child = root.play(Square::from_index_unchecked(sq.into()));
            let floor = if top.len() < lines { low } else { top[lines - 1].max(low) };
            let mut score = -INFINITY;
            let mut searched_open = false;
            if floor > low {
                score = -self.search_child(&child, depth, -floor - 1, -floor, control);
            }
            if floor == low || (score > floor && score < high && self.stopped.is_none()) {
                score = -self.search_child(&child, depth, -high, -floor, control);
                searched_open = true;
            }
            if self.stopped.is_some() {
                break;
            }
            root_move.score = score;
            root_move.searched = true;
            root_move.bound = if score >= high {
                Bound::Lower
            } else if searched_open && score > floor {
                Bound::Exact
            } else {
                Bound::Upper
            };
            if root_move.bound != Bound::Upper {
                root_move.pv.clear();
                root_move.pv.push(sq);
                root_move.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
            }
            if root_move.bound == Bound::Exact {
                let at = top.partition_point(|&s| s >= score);
                top.insert(at, score);
                top.truncate(lines);
            }
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
            }
            if score >= high {
                // Nothing can do better than the top of the window (a won WLD search); a multi-PV
                // search still scores the other moves until it has its lines.
                at_top += 1;
                if at_top >= lines {
                    break;
                }
            }
        }
        for m in root_moves.iter_mut().filter(|m| !m.searched) {
            // Not searched in this iteration: below every searched move in the next ordering.
            m.score = -INFINITY;
            m.bound = Bound::Upper;
        }
        best.map(|(i, _)| i)
    }

    /// The value of `child`, the position after a root move, for its side to move (the caller
    /// negates it): searched `depth - 1` discs ahead, or solved exactly when the root's depth
    /// reaches the root's empties.
    fn search_child(
        &mut self,
        child: &Position,
        depth: u32,
        alpha: i32,
        beta: i32,
        control: &mut dyn SearchControl,
    ) -> i32 {
        if depth > child.empty_count() {
            let draw = self.draw_score(child.side_to_move());
            let (a, b) = disc_window(alpha, beta, draw);
            let score = self.pvs_end(child, a, b, 1, control);
            to_centi_discs(score, draw)
        } else {
            self.pvs(child, depth as i32 - 1, alpha, beta, 1, control)
        }
    }
}

/// The instant after which the root iteration of `depth` is not started (none without a soft
/// deadline): the soft deadline, or for a solve from [`SOLVE_START_MIN_EMPTIES`] up on a clock,
/// half-way to it. `trial` says the iteration is a trial solve.
fn start_limit(request: &SearchRequest, depth: u32, empties: u32, trial: bool) -> Option<Instant> {
    let Deadlines { soft, hard } = request.deadlines;
    let soft = soft?;
    // Only where the hard limit lies beyond the soft one does a late start take time from the
    // moves to come; with a time a move (`movetime`) what is not used is lost.
    let solve = depth >= empties && !trial && empties >= SOLVE_START_MIN_EMPTIES;
    if solve && hard.is_some_and(|hard| hard > soft) {
        Some(request.start + soft.saturating_duration_since(request.start) / 2)
    } else {
        Some(soft)
    }
}

/// The move of a PV code.
pub fn decode(code: u8) -> Move {
    if code == super::worker::PASS { Move::Pass } else { Move::Play(Square::from_index_unchecked(code.into())) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;
    use crate::board::testing::{minimax, random_position};
    use crate::eval::EvalKind;
    use crate::rng::Rng;
    use crate::search::Deadlines;
    use crate::search::{NoControl, SearchControl, SearchResult, Searcher, StopReason};

    fn searcher() -> Searcher {
        Searcher::with_hash(1).unwrap()
    }

    fn search(pos: Position, depth: u32) -> SearchResult {
        let mut request = SearchRequest::new(pos, EvalKind::Heuristic);
        request.max_depth = depth;
        searcher().search(&request, &mut NoControl, &mut |_| {})
    }

    #[test]
    fn solves_four_by_four_exactly() {
        let result = search(Position::start(BoardSize::Four), 60);
        assert!(result.info.exact);
        assert_eq!(result.info.score, -1000);
        assert!(Position::start(BoardSize::Four).is_legal(result.best));
    }

    #[test]
    fn exact_scores_match_minimax_near_the_end() {
        // Random 8x8 games played to 8 empties; the search must find the minimax value.
        let mut rng = Rng::new(2);
        for _ in 0..40 {
            let pos = random_position(&mut rng, BoardSize::Eight, 8);
            if pos.legal_moves().is_empty() {
                continue;
            }
            let result = search(pos, 60);
            assert!(result.info.exact, "{pos}");
            assert_eq!(result.info.score, minimax(&pos) * 100, "{pos}");
            // The move must achieve the score.
            let after = pos.try_play(result.best).unwrap();
            assert_eq!(-minimax(&after) * 100, result.info.score, "{pos}");
            // The PV starts with the move and replays legally.
            assert_eq!(result.info.pv.first(), Some(&result.best));
            let mut p = pos;
            for mv in &result.info.pv {
                p = p.try_play(*mv).unwrap_or_else(|e| panic!("pv {:?} in {pos}: {e}", result.info.pv));
            }
        }
    }

    /// The value of `pos` searched `depth` discs ahead by plain negamax over `evaluator` (a pass
    /// costs no depth; a finished game scores its discs, a draw 0; the patterns' values rounded
    /// to the leaves' grain).
    fn negamax(pos: &Position, depth: u32, evaluator: &crate::eval::Evaluator) -> i32 {
        if pos.legal_moves().is_empty() {
            if pos.opponent_moves().is_empty() {
                return pos.final_score() * 100;
            }
            return -negamax(&pos.pass(), depth, evaluator);
        }
        if depth == 0 {
            let value = evaluator.evaluate(pos);
            return if evaluator.uses_patterns(pos) { crate::search::midgame::to_grain(value) } else { value };
        }
        pos.legal_moves().iter().map(|sq| -negamax(&pos.play(sq), depth - 1, evaluator)).max().unwrap()
    }

    #[test]
    fn depth_limited_values_match_negamax() {
        // Without ProbCut the value of each iteration is the negamax value, whatever the ordering,
        // the table and the shallow nodes' shortcuts (the leaves' parents score their children
        // from their own features).
        let mut rng = Rng::new(5);
        for kind in [EvalKind::Pattern, EvalKind::Heuristic] {
            let evaluator = crate::eval::Evaluator::new(kind);
            for _ in 0..50 {
                let empties = 14 + rng.below(40) as u32;
                let pos = random_position(&mut rng, BoardSize::Eight, empties);
                if pos.legal_moves().is_empty() {
                    continue;
                }
                let mut request = SearchRequest::new(pos, kind);
                request.max_depth = 5;
                request.selectivity = 0;
                let mut values = Vec::new();
                searcher().search(&request, &mut NoControl, &mut |info| values.push(info.score));
                let expected: Vec<i32> = (1..=5).map(|d| negamax(&pos, d, &evaluator)).collect();
                assert_eq!(values, expected, "{kind:?} {pos}");
            }
        }
    }

    #[test]
    fn reported_scores_stay_within_a_wipeout() {
        // Games where Black takes the most discs it can and White the fewest: the patterns rate
        // some of their positions beyond a wipeout inside the search, whose depth-1 score is then
        // the best of those ratings; the reported score stops at a wipeout.
        use crate::board::Color;
        use crate::eval::pattern::Features;
        use crate::eval::weights::Weights;
        let weights = Weights::embedded();
        let beyond = |p: &Position| {
            let e = weights.evaluate_indices(&Features::new(p.player(), p.opponent()).player, p.player(), p.opponent());
            assert!(e.abs() <= crate::eval::weights::SEARCH_BOUND);
            e
        };
        let mut rng = Rng::new(9);
        let mut checked = 0;
        for _ in 0..20 {
            let mut pos = Position::initial();
            while !pos.is_game_over() {
                let moves: Vec<Square> = pos.legal_moves().iter().collect();
                if moves.is_empty() {
                    pos = pos.pass();
                    continue;
                }
                // A child's value for its side to move, as the depth-1 search's leaves give it.
                let value = |c: &Position| match (c.legal_moves().is_empty(), c.opponent_moves().is_empty()) {
                    (true, true) => c.final_score() * 100,
                    (true, false) => -beyond(&c.pass()),
                    _ => beyond(c),
                };
                let best_child = moves.iter().map(|&sq| -value(&pos.play(sq))).max().unwrap();
                if best_child.abs() > WIPEOUT && pos.empty_count() > 1 {
                    let mut request = SearchRequest::new(pos, EvalKind::Pattern);
                    request.max_depth = 1;
                    request.selectivity = 0;
                    let result = searcher().search(&request, &mut NoControl, &mut |_| {});
                    assert_eq!(result.info.score, best_child.clamp(-WIPEOUT, WIPEOUT), "{pos}");
                    checked += 1;
                }
                let black = pos.side_to_move() == Color::Black;
                // The mover's discs after each move, ties broken at random.
                let keyed: Vec<(u32, Square)> = moves
                    .iter()
                    .map(|&sq| (pos.play(sq).opponent().count_ones() * 64 + rng.below(64) as u32, sq))
                    .collect();
                let pick = if black { keyed.iter().max() } else { keyed.iter().min() };
                pos = pos.play(pick.unwrap().1);
            }
        }
        assert!(checked > 0, "no position rated beyond a wipeout");
    }

    #[test]
    fn depth_limited_search_reports_each_iteration() {
        let mut request = SearchRequest::new(Position::initial(), EvalKind::Heuristic);
        request.max_depth = 5;
        let mut depths = Vec::new();
        let result = searcher().search(&request, &mut NoControl, &mut |info| depths.push(info.depth));
        assert_eq!(depths, [1, 2, 3, 4, 5]);
        assert_eq!(result.info.depth, 5);
        assert!(!result.info.exact);
        assert_eq!(result.info.pv.len(), 5);
        assert!(Position::initial().is_legal(result.best));
    }

    #[test]
    fn node_limit_and_immediate_stop_still_give_a_legal_move() {
        let mut request = SearchRequest::new(Position::initial(), EvalKind::Heuristic);
        request.node_limit = Some(1);
        let result = searcher().search(&request, &mut NoControl, &mut |_| {});
        assert_eq!(result.stopped, Some(StopReason::Nodes));
        assert!(Position::initial().is_legal(result.best));

        struct StopNow;
        impl SearchControl for StopNow {
            fn poll(&mut self, _nodes: u64) -> Option<StopReason> {
                Some(StopReason::Stopped)
            }
        }
        let request = SearchRequest::new(Position::initial(), EvalKind::Heuristic);
        let result = searcher().search(&request, &mut StopNow, &mut |_| {});
        assert_eq!(result.stopped, Some(StopReason::Stopped));
        assert!(Position::initial().is_legal(result.best));

        let mut request = SearchRequest::new(Position::initial(), EvalKind::Heuristic);
        request.deadlines = Deadlines { soft: Some(Instant::now()), hard: Some(Instant::now()) };
        let result = searcher().search(&request, &mut NoControl, &mut |_| {});
        assert!(Position::initial().is_legal(result.best));
    }

    #[test]
    fn multi_pv_scores_every_reported_move_exactly() {
        let mut rng = Rng::new(3);
        for _ in 0..20 {
            let pos = random_position(&mut rng, BoardSize::Eight, 9);
            if pos.legal_moves().len() < 2 {
                continue;
            }
            let mut request = SearchRequest::new(pos, EvalKind::Heuristic);
            request.multi_pv = 3;
            let mut last = Vec::new();
            searcher().search(&request, &mut NoControl, &mut |info| {
                if info.multipv == Some(1) {
                    last.clear();
                }
                last.push(info.clone());
            });
            let expected_lines = pos.legal_moves().len().min(3) as usize;
            assert_eq!(last.len(), expected_lines, "{pos}");
            let mut exact: Vec<i32> = pos.legal_moves().iter().map(|sq| -minimax(&pos.play(sq)) * 100).collect();
            exact.sort_unstable_by(|a, b| b.cmp(a));
            for (rank, info) in last.iter().enumerate() {
                assert!(info.exact);
                assert_eq!(info.multipv, Some(rank as u32 + 1));
                let first = info.pv[0];
                assert_eq!(-minimax(&pos.try_play(first).unwrap()) * 100, info.score, "{pos} line {rank}");
                assert_eq!(info.score, exact[rank], "{pos}: the reported lines are the best ones");
            }
        }
    }

    #[test]
    fn a_wld_multi_pv_search_scores_every_move_win_draw_or_loss() {
        let mut rng = Rng::new(5);
        let mut won_twice = 0;
        for _ in 0..30 {
            let pos = random_position(&mut rng, BoardSize::Eight, 9);
            if pos.legal_moves().len() < 2 {
                continue;
            }
            let mut request = SearchRequest::new(pos, EvalKind::Heuristic);
            request.multi_pv = 64;
            request.wld = true;
            let mut last = Vec::new();
            searcher().search(&request, &mut NoControl, &mut |info| {
                if info.multipv == Some(1) {
                    last.clear();
                }
                last.push(info.clone());
            });
            assert_eq!(last.len(), pos.legal_moves().len() as usize, "{pos}: every move is a line");
            let wins = last.iter().filter(|info| info.score > 0).count();
            won_twice += usize::from(wins >= 2);
            for info in &last {
                let exact = -minimax(&pos.try_play(info.pv[0]).unwrap());
                assert_eq!(info.score.signum(), exact.signum(), "{pos}: {} is worth {exact}", info.pv[0]);
            }
        }
        assert!(won_twice > 0, "some position has two winning moves, each scored a win");
    }

    #[test]
    fn contempt_values_draws() {
        // 4x4 is lost for Black, so look for a drawn position: play random 4x4 games and keep the
        // first position whose exact value is a draw.
        let mut rng = Rng::new(4);
        let pos = loop {
            let empties = 7 + rng.below(5) as u32;
            let pos = random_position(&mut rng, BoardSize::Four, empties);
            if !pos.legal_moves().is_empty() && minimax(&pos) == 0 {
                break pos;
            }
        };
        // Beyond ±99 a draw would rank above a win or below a loss: the search keeps it within.
        for (contempt, used) in [(-6400, -99), (-99, -99), (0, 0), (50, 50), (100, 99)] {
            let mut request = SearchRequest::new(pos, EvalKind::Heuristic);
            request.draw_score_for_black = contempt;
            let result = searcher().search(&request, &mut NoControl, &mut |_| {});
            assert!(result.info.exact);
            let for_mover = if pos.side_to_move() == crate::board::Color::Black { used } else { -used };
            // Perfect play draws, so neither side can force a win: the value is the draw's.
            assert_eq!(result.info.score, for_mover, "{pos}");
        }
    }

    #[test]
    fn the_ladder_climbs_every_level_to_exact() {
        let ladder = |s: u8| solve_ladder(s, SolveSteps::Every);
        assert_eq!(ladder(0), [0]);
        assert_eq!(ladder(1), [1, 0]);
        assert_eq!(ladder(4), [4, 3, 2, 1, 0]);
        assert_eq!(ladder(5), [5, 4, 3, 2, 1, 0]);
        let fast = |s: u8| solve_ladder(s, SolveSteps::Fast);
        assert_eq!(fast(0), [0]);
        assert_eq!(fast(2), [2, 0]);
        assert_eq!(fast(3), [3, 0]);
        assert_eq!(fast(5), [FAST_SOLVE_LEVEL, 0]);
    }

    #[test]
    fn node_counts_are_deterministic() {
        let a = search(Position::initial(), 6).info.nodes;
        let b = search(Position::initial(), 6).info.nodes;
        assert_eq!(a, b);
    }

    #[test]
    fn probcut_nesting_is_undone_however_the_search_stops() {
        // Stopped by node limits that fall inside ProbCut's shallow searches and outside them,
        // and searched to the end, the main worker is left under no shallow search.
        let mut pos = Position::initial();
        for m in crate::formats::move_list::parse_moves("f5f6e6f4e3c5c4e7f7d3").unwrap() {
            let Move::Play(sq) = m else { unreachable!("the line has no pass") };
            pos = pos.play(sq);
        }
        let mut searcher = searcher();
        for limit in [None, Some(2_000), Some(7_919), Some(31_337), Some(100_003)] {
            let mut request = SearchRequest::new(pos, EvalKind::Pattern);
            request.selectivity = crate::search::DEFAULT_SELECTIVITY;
            request.max_depth = 14;
            request.node_limit = limit;
            let result = searcher.search(&request, &mut NoControl, &mut |_| {});
            assert!(pos.is_legal(result.best));
            assert_eq!(searcher.workers[0].probcut_level, 0, "node limit {limit:?}");
        }
    }

    #[test]
    fn a_solve_on_a_clock_starts_only_in_the_first_half_of_the_soft_budget() {
        use std::time::Duration;
        let mut request = SearchRequest::new(Position::initial(), EvalKind::Pattern);
        let (soft, hard) = (Duration::from_millis(80), Duration::from_millis(320));
        request.deadlines = Deadlines { soft: Some(request.start + soft), hard: Some(request.start + hard) };
        let halfway = Some(request.start + soft / 2);
        assert_eq!(start_limit(&request, 22, 22, false), halfway, "the solve");
        assert_eq!(start_limit(&request, 12, 22, false), request.deadlines.soft, "a depth-limited iteration");
        assert_eq!(start_limit(&request, 22, 22, true), request.deadlines.soft, "a trial solve");
        let e = SOLVE_START_MIN_EMPTIES - 1;
        assert_eq!(start_limit(&request, e, e, false), request.deadlines.soft, "below the threshold");
        // A time a move: soft and hard are the same instant.
        request.deadlines.hard = request.deadlines.soft;
        assert_eq!(start_limit(&request, 22, 22, false), request.deadlines.soft, "movetime");
        request.deadlines = Deadlines::default();
        assert_eq!(start_limit(&request, 22, 22, false), None, "no deadline");
    }
}
