//! `Searcher`: iterative deepening at the root over a principal-variation negamax search.
//!
//! A pass costs no depth, so an iteration of depth d looks d discs ahead, and an iteration whose
//! depth reaches the number of empty squares sees every game to its end: its score is exact.
//! More generally an iteration that never called the evaluation is exact, and deepening stops.

use super::ordering::{ScoredMove, order_moves};
use super::{INFINITY, MAX_PLY, SearchControl, SearchInfo, SearchRequest, SearchResult, StopReason, unsearched};
use crate::board::Color;
use crate::board::{Move, Position, Square};
use crate::eval::EvalKind;
use std::time::Instant;

/// Nodes between two polls of the clock and of the control channel.
const POLL_INTERVAL: u64 = 1024;

/// The code of a pass in the PV arrays (squares are 0..64).
const PASS: u8 = 64;

/// Depth from which moves are ordered by the opponent's mobility after them.
const FASTEST_FIRST_DEPTH: i32 = 3;

/// A root move with the score and line of its last search. The score orders the next iteration;
/// for the moves a multi-PV search scores exactly it is also what is reported.
#[derive(Clone, Debug)]
struct RootMove {
    square: u8,
    score: i32,
    /// Whether `score` is exact at the iteration's depth (not just a bound).
    exact: bool,
    /// The line from this move (the move first).
    pv: Vec<u8>,
}

/// The search state. It lives as long as the search thread, so that later additions (the
/// transposition table, history) persist from one search to the next.
pub struct Searcher {
    nodes: u64,
    seldepth: usize,
    eval_calls: u64,
    stopped: Option<StopReason>,
    next_check: u64,
    node_limit: u64,
    hard_deadline: Option<Instant>,
    eval: EvalKind,
    draw_score_for_black: i32,
    /// Triangular PV table: `pv[ply][ply..pv_len[ply]]` is the best line from `ply`.
    pv: Vec<[u8; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// The previous iteration's PV, tried first along its path.
    prev_pv: Vec<u8>,
    /// One reusable move list per ply.
    lists: Vec<Vec<ScoredMove>>,
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new()
    }
}

impl Searcher {
    /// A fresh searcher.
    pub fn new() -> Searcher {
        Searcher {
            nodes: 0,
            seldepth: 0,
            eval_calls: 0,
            stopped: None,
            next_check: 0,
            node_limit: u64::MAX,
            hard_deadline: None,
            eval: EvalKind::default(),
            draw_score_for_black: 0,
            pv: vec![[0; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            prev_pv: Vec::new(),
            lists: (0..MAX_PLY).map(|_| Vec::with_capacity(32)).collect(),
        }
    }

    /// Forgets everything learnt from earlier searches (a new game).
    pub fn clear(&mut self) {
        self.prev_pv.clear();
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
        self.nodes = 0;
        self.stopped = None;
        self.eval = request.eval;
        self.draw_score_for_black = request.draw_score_for_black;
        self.node_limit = request.node_limit.unwrap_or(u64::MAX).max(1);
        self.hard_deadline = request.deadlines.hard;
        self.next_check = POLL_INTERVAL.min(self.node_limit);
        self.prev_pv.clear();

        let moves = root.legal_moves();
        if moves.is_empty() {
            return unsearched(Move::Pass, 0, request.start.elapsed());
        }
        let mut ordered = Vec::new();
        order_moves(root.player(), root.opponent(), moves.0, root.size().playable(), None, true, &mut ordered);
        let mut root_moves: Vec<RootMove> = ordered
            .iter()
            .map(|m| RootMove { square: m.square, score: -INFINITY, exact: false, pv: vec![m.square] })
            .collect();
        let lines = request.multi_pv.clamp(1, root_moves.len());

        // Until an iteration finishes, the best guess is the first move of the ordering.
        let mut result = unsearched(decode(root_moves[0].square), 0, request.start.elapsed());
        let empties = root.empty_count();
        for depth in 1..=request.max_depth.max(1) {
            if depth > 1 && request.deadlines.soft.is_some_and(|soft| Instant::now() >= soft) {
                break;
            }
            self.seldepth = 0;
            self.eval_calls = 0;
            let Some(best_index) = self.search_root(&root, depth as i32, &mut root_moves, lines, control) else {
                // Stopped before the first move was searched: keep the last iteration.
                break;
            };
            let exact = self.stopped.is_none() && self.eval_calls == 0;
            let info = |m: &RootMove, rank: usize, nodes: u64| SearchInfo {
                depth,
                seldepth: self.seldepth as u32,
                score: m.score,
                exact,
                nodes,
                time: request.start.elapsed(),
                pv: m.pv.iter().map(|&c| decode(c)).collect(),
                multipv: (lines > 1).then_some(rank as u32),
            };
            result.best = decode(root_moves[best_index].square);
            result.info = info(&root_moves[best_index], 1, self.nodes);
            if self.stopped.is_some() {
                break;
            }
            // Best first, then the others by their scores (bounds below exact scores, so the lines
            // a multi-PV search reports come first).
            let best_move = root_moves.remove(best_index);
            root_moves.sort_by_key(|m| (-m.score, !m.exact));
            root_moves.insert(0, best_move);
            for (rank, m) in root_moves.iter().take(lines).enumerate() {
                on_iteration(&info(m, rank + 1, self.nodes));
            }
            self.prev_pv = root_moves[0].pv.clone();
            if exact || depth >= empties.max(1) {
                break;
            }
        }
        result.info.nodes = self.nodes;
        result.info.time = request.start.elapsed();
        result.stopped = self.stopped;
        result
    }

    /// One iteration at the root. The first `lines` moves are searched with an open window, so
    /// their scores are exact; each later move is first tried with a null window at the score of
    /// the `lines`-th best so far, and searched again with an open window above it when it beats
    /// it (with `lines` = 1 this is plain principal-variation search). Returns the index of the best
    /// move, or `None` if stopped before the first move was fully searched; when stopped later, the
    /// best of the moves whose search finished.
    fn search_root(
        &mut self,
        root: &Position,
        depth: i32,
        root_moves: &mut [RootMove],
        lines: usize,
        control: &mut dyn SearchControl,
    ) -> Option<usize> {
        let mut best: Option<(usize, i32)> = None;
        // The exact scores found so far in this iteration, best first, at most `lines` of them.
        let mut top: Vec<i32> = Vec::with_capacity(lines);
        for m in root_moves.iter_mut() {
            m.exact = false;
        }
        self.pv_len[0] = 0;
        for (i, root_move) in root_moves.iter_mut().enumerate() {
            let sq = root_move.square;
            let child = root.play(Square::from_index_unchecked(sq.into()));
            let on_pv = i == 0 && self.prev_pv.first() == Some(&sq);
            let floor = if top.len() < lines { -INFINITY } else { top[lines - 1] };
            let mut score = -INFINITY;
            let mut searched_open = false;
            if floor > -INFINITY {
                score = -self.negamax(&child, depth - 1, -floor - 1, -floor, 1, false, control);
            }
            if floor == -INFINITY || (score > floor && self.stopped.is_none()) {
                score = -self.negamax(&child, depth - 1, -INFINITY, -floor, 1, on_pv, control);
                searched_open = true;
            }
            if self.stopped.is_some() {
                break;
            }
            root_move.score = score;
            if searched_open && score > floor {
                root_move.exact = true;
                root_move.pv.clear();
                root_move.pv.push(sq);
                root_move.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
                let at = top.partition_point(|&s| s >= score);
                top.insert(at, score);
                top.truncate(lines);
            }
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
            }
        }
        best.map(|(i, _)| i)
    }

    /// The exact score of a finished game, a draw valued at the contempt.
    #[inline]
    fn final_score(&self, pos: &Position) -> i32 {
        match pos.final_score() {
            0 if pos.side_to_move() == Color::Black => self.draw_score_for_black,
            0 => -self.draw_score_for_black,
            score => score * 100,
        }
    }

    /// Records `code` as the best move at `ply`, followed by the child's line.
    #[inline]
    fn update_pv(&mut self, ply: usize, code: u8) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = code;
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }

    /// Checks the node budget, the deadline and the control channel.
    #[cold]
    fn check(&mut self, control: &mut dyn SearchControl) {
        self.next_check = (self.nodes + POLL_INTERVAL).min(self.node_limit);
        if self.nodes >= self.node_limit {
            self.stopped = Some(StopReason::Nodes);
        } else if self.hard_deadline.is_some_and(|hard| Instant::now() >= hard) {
            self.stopped = Some(StopReason::Time);
        } else if let Some(reason) = control.poll(self.nodes) {
            self.stopped = Some(reason);
        }
    }

    /// Negamax with principal-variation search: the first move with the full window, the others
    /// with a null window, searched again with the full window when they beat alpha.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        on_pv: bool,
        control: &mut dyn SearchControl,
    ) -> i32 {
        self.nodes += 1;
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes >= self.next_check {
            self.check(control);
        }
        if self.stopped.is_some() {
            return 0;
        }

        let moves = pos.legal_moves();
        if moves.is_empty() {
            if pos.opponent_moves().is_empty() {
                return self.final_score(pos);
            }
            // A pass costs no depth.
            let follow = on_pv && self.prev_pv.get(ply) == Some(&PASS);
            let score = -self.negamax(&pos.pass(), depth, -beta, -alpha, ply + 1, follow, control);
            self.update_pv(ply, PASS);
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY - 2 {
            self.eval_calls += 1;
            return self.eval.evaluate(pos);
        }

        let hint = if on_pv { self.prev_pv.get(ply).copied() } else { None };
        let mut list = std::mem::take(&mut self.lists[ply]);
        order_moves(
            pos.player(),
            pos.opponent(),
            moves.0,
            pos.size().playable(),
            hint,
            depth >= FASTEST_FIRST_DEPTH,
            &mut list,
        );
        let mut best = -INFINITY;
        for (i, m) in list.iter().enumerate() {
            let child = pos.play_with_flips(Square::from_index_unchecked(m.square.into()), m.flips);
            let follow = hint == Some(m.square);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, follow, control)
            } else {
                let probe = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, false, control);
                if probe > alpha && probe < beta && self.stopped.is_none() {
                    -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, false, control)
                } else {
                    probe
                }
            };
            if self.stopped.is_some() {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m.square);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        best
    }
}

fn decode(code: u8) -> Move {
    if code == PASS { Move::Pass } else { Move::Play(Square::from_index_unchecked(code.into())) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;
    use crate::board::testing::random_position;
    use crate::rng::Rng;
    use crate::search::{Deadlines, NoControl};

    fn search(pos: Position, depth: u32) -> SearchResult {
        let mut request = SearchRequest::new(pos, EvalKind::Magpie);
        request.max_depth = depth;
        Searcher::new().search(&request, &mut NoControl, &mut |_| {})
    }

    /// Plain minimax with exact scores, for checking the search on small trees.
    fn minimax(pos: &Position) -> i32 {
        if pos.is_game_over() {
            return pos.final_score();
        }
        if pos.must_pass() {
            return -minimax(&pos.pass());
        }
        pos.legal_moves().iter().map(|sq| -minimax(&pos.play(sq))).max().unwrap_or(0)
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

    #[test]
    fn depth_limited_search_reports_each_iteration() {
        let mut request = SearchRequest::new(Position::initial(), EvalKind::Magpie);
        request.max_depth = 5;
        let mut depths = Vec::new();
        let result = Searcher::new().search(&request, &mut NoControl, &mut |info| depths.push(info.depth));
        assert_eq!(depths, [1, 2, 3, 4, 5]);
        assert_eq!(result.info.depth, 5);
        assert!(!result.info.exact);
        assert_eq!(result.info.pv.len(), 5);
        assert!(Position::initial().is_legal(result.best));
    }

    #[test]
    fn node_limit_and_immediate_stop_still_give_a_legal_move() {
        let mut request = SearchRequest::new(Position::initial(), EvalKind::Magpie);
        request.node_limit = Some(1);
        let result = Searcher::new().search(&request, &mut NoControl, &mut |_| {});
        assert_eq!(result.stopped, Some(StopReason::Nodes));
        assert!(Position::initial().is_legal(result.best));

        struct StopNow;
        impl SearchControl for StopNow {
            fn poll(&mut self, _nodes: u64) -> Option<StopReason> {
                Some(StopReason::Stopped)
            }
        }
        let request = SearchRequest::new(Position::initial(), EvalKind::Magpie);
        let result = Searcher::new().search(&request, &mut StopNow, &mut |_| {});
        assert_eq!(result.stopped, Some(StopReason::Stopped));
        assert!(Position::initial().is_legal(result.best));

        let mut request = SearchRequest::new(Position::initial(), EvalKind::Magpie);
        request.deadlines = Deadlines { soft: Some(Instant::now()), hard: Some(Instant::now()) };
        let result = Searcher::new().search(&request, &mut NoControl, &mut |_| {});
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
            let mut request = SearchRequest::new(pos, EvalKind::Magpie);
            request.multi_pv = 3;
            let mut last = Vec::new();
            Searcher::new().search(&request, &mut NoControl, &mut |info| {
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
        for contempt in [-100, 0, 100] {
            let mut request = SearchRequest::new(pos, EvalKind::Magpie);
            request.draw_score_for_black = contempt;
            let result = Searcher::new().search(&request, &mut NoControl, &mut |_| {});
            assert!(result.info.exact);
            let for_mover = if pos.side_to_move() == crate::board::Color::Black { contempt } else { -contempt };
            // Perfect play draws, so neither side can force a win: the value is the draw's.
            assert_eq!(result.info.score, for_mover, "{pos}");
        }
    }

    #[test]
    fn node_counts_are_deterministic() {
        let a = search(Position::initial(), 6).info.nodes;
        let b = search(Position::initial(), 6).info.nodes;
        assert_eq!(a, b);
    }
}
