//! The exact endgame solver: the perfect-play disc difference (empties to the winner), in discs.
//!
//! It is entered when the depth to search reaches the number of empty squares. Almost all of its
//! nodes are null-window nodes ("is the score above alpha?"); only the principal variation is
//! searched with a wider window (`pvs_end`). By number of empties:
//!
//! - more than [`SHALLOW_EMPTIES`]: a table, a stability cutoff, moves ordered by what they leave
//!   the opponent ([`super::ordering::value_solver_moves`]), from [`EVAL_ORDER_EMPTIES`] up also
//!   by the evaluation of the positions they lead to, and from [`SEARCH_ORDER_EMPTIES`] up by a
//!   search one or two discs deep of them; the table is the shared one (exact entries only:
//!   their depth is the number of empties) above [`LOCAL_EMPTIES`], the thread's own small cache
//!   ([`super::end_cache`]) up to it;
//! - down to 5: the thread's cache and its move first, then the legal moves by quadrant parity and
//!   square class (the move mask generated once: on FFO #40-#49, 0.978 of the time of trying each
//!   empty square for flips);
//! - 4, 3, 2 and 1: dedicated code on the list of empty squares, odd quadrants first; with one
//!   empty square the move is never played, only its flips counted.
//!
//! A pass costs no empty square: the same node is searched for the opponent; when neither side
//! can move the game is over and the empties go to the winner.
//!
//! A selective solve (the worker's `solve_cut` above 0) also tries Multi-ProbCut at its
//! null-window nodes from [`PROBCUT_EMPTIES`] up: a shallow depth-limited search predicts the
//! exact score through the weights' solve fit for that many empties, and the node is cut when the
//! prediction lies above the window by t·σ (only above: see `solve_probcut`). Its table entries
//! record their selectivity, so an exact solve never trusts them (it still tries their moves
//! first).

use super::ordering::{Layout, MAX_MOVES, MoveList, value_moves, value_solver_moves};
use super::split::SplitKind;
use super::tt::{NO_MOVE, TtEntry};
use super::worker::{PASS, Worker};
use super::{INFINITY, SearchControl};
use crate::board::movegen::{flips, last_flip_count, legal_moves};
use crate::board::stability::stable_discs_up_to;
use crate::board::{Position, Square, hash_discs};
use crate::eval::features::neighbours;
use crate::eval::{EvalKind, WIPEOUT};

/// At or below this many empty squares the solver orders its moves by parity and square class
/// rather than by mobility. With the cache from 5 empties up, 6 rather than 7 searches 20% fewer
/// nodes on FFO #40-#44 in 2.6% less time (5: 7% fewer again, 2% slower).
pub const SHALLOW_EMPTIES: u32 = 6;

/// From this many empty squares up, a node looks its children up in the table or the cache before
/// searching any (enhanced transposition cutoff). FFO #40-#47: 15% fewer nodes (with the table
/// from 8 empties up; from one empty square fewer or more, the same with the cache).
pub const ETC_EMPTIES: u32 = SHALLOW_EMPTIES + 2;

/// Up to this many empty squares, the null-window solver keeps its results in the thread's own
/// cache rather than in the shared table, whose probes there cost a cache miss each (from
/// [`PROBCUT_EMPTIES`] up under keys marked by the solve's selectivity, since a selective solve may
/// cut there). FFO #40-#49, with the cache from 5 empties: up to 9 (and [`SHALLOW_EMPTIES`] at 7),
/// 10% fewer nodes in 13.5% less time than the shared table from 8; up to 11 (and
/// [`SHALLOW_EMPTIES`] at 6), 0.96 of the time of up to 9 (10: 0.97; 12: 1.02); the 6x6 solve
/// from the start takes the same time either way.
pub const LOCAL_EMPTIES: u32 = 11;

/// From this many empty squares up, the solver orders a node's moves by the pattern evaluation
/// of the positions they lead to as well, with [`W_EVAL_SOLVE`] per centi-disc beside the 4096
/// per opponent reply of the mobility ordering. FFO #40-#49 at selectivity 5 (the selective
/// solves, then the exact one): 566M nodes in 24.7 s against 970M in 34.2 s; at selectivity 0
/// (exact only) 950M nodes in 39.1 s against 1131M in 42.5 s. From 12 or 16 empties up, or at
/// twice the weight, it is slower; from 13 to 15 and at half the weight, the same.
pub const EVAL_ORDER_EMPTIES: u32 = 14;

/// The weight of the evaluation in the solver's ordering (see [`EVAL_ORDER_EMPTIES`]).
pub const W_EVAL_SOLVE: i32 = 15;

/// From this many empty squares up, a node without a table move orders its moves by a search one
/// disc deep of the positions they lead to (the opponent's best reply by the evaluation), at the
/// same weight, rather than by their evaluation (from [`SEARCH2_ORDER_EMPTIES`] up, two discs
/// deep). A node with a table move tries it first and most often cuts on it: there the evaluation
/// orders the rest. FFO #53: 1.27G nodes rather than 1.41G, in 0.94 of the time; FFO #40-#59:
/// 11.7G nodes in 407 s against 13.5G in 436 s. From 16 or 17 empties up about the same nodes in
/// more time, from 19, 20 or 22 more nodes.
pub const SEARCH_ORDER_EMPTIES: u32 = 18;

/// From this many empty squares up, the searches that order the solver's moves (see
/// [`SEARCH_ORDER_EMPTIES`]) are two discs deep.
pub const SEARCH2_ORDER_EMPTIES: u32 = 22;

/// On the 6x6 and 4x4 boards, from this many empty squares up, the solver orders a node's moves by
/// the value of a [`SMALL_ORDER_DEPTH`] search of the positions they lead to (with the hand-made
/// evaluation, theirs) as well, at the same weight. The 6x6 start on two threads: 2.60G nodes in
/// 58 s, against 3.29G in 67-70 s with the evaluation of the child alone and 7.7G with neither;
/// from 14 empties up the same, from 18 or 20 up, or searching 3 deep, slower.
pub const SMALL_EVAL_ORDER_EMPTIES: u32 = 16;

/// The depth of the searches that order the small boards' solver (see
/// [`SMALL_EVAL_ORDER_EMPTIES`]).
pub const SMALL_ORDER_DEPTH: i32 = 2;

/// From this many empty squares up, a node may be split between threads.
pub const SPLIT_EMPTIES: u32 = 12;

/// From this many empty squares up, the null-window nodes of a selective solve try ProbCut.
pub const PROBCUT_EMPTIES: u32 = 10;

/// Lower than any score in discs.
const NO_SCORE: i32 = -100;

/// The smallest alpha, by number of empty squares, at which the stability cutoff is worth trying:
/// below it the opponent's stable discs are too few to bound the score under alpha.
static STABILITY_THRESHOLD: [i32; 65] = {
    let mut table = [99; 65];
    let mut n = 4;
    while n <= 64 {
        let t = 2 * n as i32 - 2;
        table[n] = if t < 64 { t } else { 64 };
        n += 1;
    }
    table
};

/// The final score of a finished game, for the side to move: the disc difference with the
/// `empties` counted for the winner.
#[inline]
fn final_score(player: u64, opponent: u64, empties: u32) -> i32 {
    let diff = player.count_ones() as i32 - opponent.count_ones() as i32;
    match diff {
        d if d > 0 => d + empties as i32,
        d if d < 0 => d - empties as i32,
        _ => 0,
    }
}

/// The empty squares of `empties` (at most 4), odd quadrants first.
#[inline]
fn parity_sorted(empties: u64, layout: &Layout) -> [usize; 4] {
    let odd = layout.odd_squares(layout.parity(empties));
    let mut squares = [0usize; 4];
    let mut n = 0;
    for set in [empties & odd, empties & !odd] {
        let mut s = set;
        while s != 0 {
            squares[n] = s.trailing_zeros() as usize;
            s &= s - 1;
            n += 1;
        }
    }
    squares
}

/// The discs `player` flips by playing `x`: none, without computing them, when no opponent disc
/// is next to the square (often so near the end).
#[inline]
fn move_flips(x: usize, player: u64, opponent: u64) -> u64 {
    if ADJACENT[x] & opponent == 0 { 0 } else { flips(x, player, opponent) }
}

/// The squares next to each square.
static ADJACENT: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = neighbours(1u64 << sq);
        sq += 1;
    }
    table
};

impl Worker {
    /// The exact score of `pos`, searched with the window (alpha, beta) at a node of the principal
    /// variation at `ply` (fail-soft; the line is recorded).
    pub(super) fn pvs_end(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        control: &mut dyn SearchControl,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if beta <= alpha + 1 || ply >= super::MAX_PLY - 2 {
            return self.solve_nws(pos, alpha, ply, control);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes >= self.next_check {
            self.check(control);
        }
        if self.halted() {
            return 0;
        }
        let (player, opponent) = (pos.player(), pos.opponent());
        let n = pos.empty_count();
        let moves = legal_moves(player, opponent) & self.layout.playable;
        if moves == 0 {
            if legal_moves(opponent, player) & self.layout.playable == 0 {
                return final_score(player, opponent, n);
            }
            let score = -self.pvs_end(&pos.pass(), -beta, -alpha, ply + 1, control);
            self.update_pv(ply, PASS);
            return score;
        }
        let key = hash_discs(player, opponent, self.setup.size);
        let hint = self.tt.probe(key).map_or(NO_MOVE, |e| e.best);
        let mut list = MoveList::generate(player, opponent, moves);
        self.order_solver_moves(pos, ply, &mut list, hint, control);
        let start_alpha = alpha;
        let start_nodes = self.nodes;
        let mut best = NO_SCORE;
        let mut best_move = NO_MOVE;
        for i in 0..list.len() {
            let m = list.pick(i);
            let child = pos.play_with_flips(Square::from_index_unchecked(m.square.into()), m.flips);
            let score = if i == 0 {
                -self.pvs_end(&child, -beta, -alpha, ply + 1, control)
            } else {
                let probe = -self.solve_nws(&child, -alpha - 1, ply + 1, control);
                if probe > alpha && probe < beta && !self.halted() {
                    -self.pvs_end(&child, -beta, -alpha, ply + 1, control)
                } else {
                    probe
                }
            };
            if self.halted() {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m.square;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m.square);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let (lower, upper) = if best >= beta {
            (best, self.squares)
        } else if best > start_alpha {
            (best, best)
        } else {
            (-self.squares, best)
        };
        self.store_exact(key, n, lower, upper, best_move, start_nodes);
        best
    }

    /// Whether the score of `pos` is above `alpha`: a null-window search, fail-soft (the result is
    /// a bound on the same side of alpha as the score).
    pub(super) fn solve_nws(&mut self, pos: &Position, alpha: i32, ply: usize, control: &mut dyn SearchControl) -> i32 {
        let empties = pos.empties().0;
        if empties.count_ones() <= SHALLOW_EMPTIES {
            self.nws_shallow(pos.player(), pos.opponent(), alpha, empties, self.layout.parity(empties))
        } else {
            self.nws_deep(pos, alpha, ply, control)
        }
    }

    /// The upper bound that the opponent's stable discs put on the score, when it is at most
    /// `alpha` (8x8 only).
    #[inline]
    fn stability_cutoff(&self, player: u64, opponent: u64, alpha: i32, n: u32) -> Option<i32> {
        if self.squares != 64 || alpha < STABILITY_THRESHOLD[n as usize] {
            return None;
        }
        // A bound at most alpha needs at least (64 - alpha) / 2 stable discs of the opponent,
        // rounded up.
        let enough = ((65 - alpha) / 2) as u32;
        if opponent.count_ones() < enough {
            return None;
        }
        let bound = 64 - 2 * stable_discs_up_to(opponent, player, enough).count_ones() as i32;
        (bound <= alpha).then_some(bound)
    }

    fn nws_deep(&mut self, pos: &Position, alpha: i32, ply: usize, control: &mut dyn SearchControl) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check(control);
        }
        if self.halted() {
            return 0;
        }
        let (player, opponent) = (pos.player(), pos.opponent());
        let empties = pos.empties().0;
        let n = empties.count_ones();
        if let Some(bound) = self.stability_cutoff(player, opponent, alpha, n) {
            return bound;
        }
        let mut hint = NO_MOVE;
        let local = n <= LOCAL_EMPTIES;
        // The shared table's key (the thread's cache reads the discs themselves).
        let key = if local { 0 } else { hash_discs(player, opponent, self.setup.size) };
        if local {
            if let Some(entry) = self.cache.probe(player, opponent, self.cache_cut(n)) {
                if let Some(bound) = entry.cut(alpha) {
                    return bound;
                }
                hint = entry.best;
            }
        } else if let Some(entry) = self.tt.probe(key) {
            if u32::from(entry.depth) >= n && entry.trusted_at(self.solve_cut) {
                if entry.lower > alpha {
                    return entry.lower;
                }
                if entry.upper <= alpha {
                    return entry.upper;
                }
            }
            hint = entry.best;
        }
        let moves = legal_moves(player, opponent) & self.layout.playable;
        if moves == 0 {
            if legal_moves(opponent, player) & self.layout.playable == 0 {
                return final_score(player, opponent, n);
            }
            return -self.nws_deep(&pos.pass(), -alpha - 1, ply + 1, control);
        }
        if self.solve_cut != 0
            && n >= PROBCUT_EMPTIES
            && self.patterns
            && let Some(score) = self.solve_probcut(pos, n, alpha, ply, control)
        {
            return score;
        }
        let mut list = MoveList::generate(player, opponent, moves);
        // Enhanced transposition cutoff: a child already known to be bad enough for the opponent
        // cuts at once, before any move is searched. Children in the shared table have their
        // buckets all requested from memory before the moves are ordered, so that the loads
        // overlap that work; the thread's cache, in the core's own, is read after.
        let mut keys = [0u64; MAX_MOVES];
        let local_children = n - 1 <= LOCAL_EMPTIES;
        if n >= ETC_EMPTIES && !local_children {
            for (key, m) in keys.iter_mut().zip(list.as_slice()) {
                *key = hash_discs(opponent ^ m.flips, player ^ m.flips ^ (1u64 << m.square), self.setup.size);
                self.tt.prefetch(*key);
            }
        }
        self.order_solver_moves(pos, ply, &mut list, hint, control);
        if n >= ETC_EMPTIES && local_children {
            let cut = self.cache_cut(n - 1);
            for m in list.as_slice() {
                let (next_player, next_opponent) = (opponent ^ m.flips, player ^ m.flips ^ (1u64 << m.square));
                if let Some(entry) = self.cache.probe(next_player, next_opponent, cut)
                    && -i32::from(entry.upper) > alpha
                {
                    return -i32::from(entry.upper);
                }
            }
        } else if n >= ETC_EMPTIES {
            for &key in &keys[..list.len()] {
                if let Some(entry) = self.tt.probe(key)
                    && u32::from(entry.depth) + 1 >= n
                    && entry.trusted_at(self.solve_cut)
                    && -entry.upper > alpha
                {
                    return -entry.upper;
                }
            }
        }
        let start_nodes = self.nodes;
        let mut best = NO_SCORE;
        let mut best_move = NO_MOVE;
        for i in 0..list.len() {
            let m = list.pick(i);
            let child = pos.play_with_flips(Square::from_index_unchecked(m.square.into()), m.flips);
            let score = -self.solve_nws(&child, -alpha - 1, ply + 1, control);
            if self.halted() {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m.square;
                if score > alpha {
                    break;
                }
            }
            if i == 0 && list.len() > 1 && n >= SPLIT_EMPTIES && self.can_split() {
                (best, best_move) = self.split(
                    pos,
                    alpha,
                    ply,
                    SplitKind::Endgame(self.solve_cut),
                    list,
                    1,
                    (best, best_move),
                    control,
                );
                if self.halted() {
                    return 0;
                }
                break;
            }
        }
        let (lower, upper) = if best > alpha { (best, self.squares) } else { (-self.squares, best) };
        if local {
            self.cache.store(player, opponent, self.cache_cut(n), lower, upper, best_move);
        } else {
            self.store_exact(key, n, lower, upper, best_move, start_nodes);
        }
        best
    }

    /// The selectivity under which a position of `n` empties is kept in the thread's cache: from
    /// [`PROBCUT_EMPTIES`] up, where a selective solve may cut, the solve's own, so that an exact
    /// solve finds none of the results of a selective one; below, 0 for all.
    #[inline]
    fn cache_cut(&self, n: u32) -> u8 {
        if n >= PROBCUT_EMPTIES { self.solve_cut } else { 0 }
    }

    /// Values the moves of `list` (every legal move of `pos` at `ply`) in the solver's order: the
    /// table's move `hint` first, then by mobility ([`value_solver_moves`]) and, from
    /// [`EVAL_ORDER_EMPTIES`] up, by evaluation (on the smaller boards from
    /// [`SMALL_EVAL_ORDER_EMPTIES`] up, by a shallow search with the hand-made one).
    fn order_solver_moves(
        &mut self,
        pos: &Position,
        ply: usize,
        list: &mut MoveList,
        hint: u8,
        control: &mut dyn SearchControl,
    ) {
        let n = pos.empty_count();
        if self.patterns && n >= EVAL_ORDER_EMPTIES {
            if n >= SEARCH_ORDER_EMPTIES && !list.as_slice().iter().any(|m| m.square == hint) {
                self.value_by_search(pos, ply, list, control);
            } else {
                self.value_by_evaluation(pos, ply, list, hint, W_EVAL_SOLVE);
            }
            return;
        }
        value_solver_moves(list, pos.player(), pos.opponent(), self.layout, hint);
        if n >= SMALL_EVAL_ORDER_EMPTIES
            && self.squares < 64
            && matches!(self.setup.eval.kind(), EvalKind::Pattern | EvalKind::Heuristic)
        {
            let mut values = [0i32; MAX_MOVES];
            for (value, m) in values.iter_mut().zip(list.as_slice()) {
                if m.square != hint {
                    let child = pos.play_with_flips(Square::from_index_unchecked(m.square.into()), m.flips);
                    *value = -self.pvs(&child, SMALL_ORDER_DEPTH, -INFINITY, INFINITY, ply + 1, control);
                }
            }
            for (m, value) in list.as_mut_slice().iter_mut().zip(values) {
                m.value += W_EVAL_SOLVE * value;
            }
        }
    }

    /// Values the moves of `list` (every legal move of `pos` at `ply`) by the
    /// middle game's mobility ordering plus [`W_EVAL_SOLVE`] times a shallow search of the position
    /// each leads to: one disc deep (the opponent's best reply by the evaluation), from
    /// [`SEARCH2_ORDER_EMPTIES`] up two.
    fn value_by_search(&mut self, pos: &Position, ply: usize, list: &mut MoveList, control: &mut dyn SearchControl) {
        let n = pos.empty_count();
        value_moves(list, pos.player(), pos.opponent(), self.layout, NO_MOVE);
        for m in list.as_mut_slice() {
            let child = pos.play_with_flips(Square::from_index_unchecked(m.square.into()), m.flips);
            self.features.play(ply, pos, m.square, m.flips, &child);
            let value = if n >= SEARCH2_ORDER_EMPTIES {
                -self.pvs(&child, 2, -INFINITY, INFINITY, ply + 1, control)
            } else {
                -self.value_one_ahead(&child, ply + 1, control)
            };
            m.value += W_EVAL_SOLVE * value;
        }
    }

    #[inline]
    fn store_exact(&self, key: u64, n: u32, lower: i32, upper: i32, best: u8, start_nodes: u64) {
        let spent = self.nodes - start_nodes + 1;
        let cost = (64 - spent.leading_zeros()) as u8;
        self.tt.store(key, TtEntry { lower, upper, best, depth: n as u8, cost, cut: self.solve_cut });
    }

    /// ProbCut in a selective solve: whether a shallow search predicts, with the confidence of
    /// the solve's selectivity, that the exact score of `pos` (`n` empties, the side to move having
    /// a move) is above `alpha` (then `Some(alpha + 1)`).
    ///
    /// Only the cut above the window is tried. The one below (a shallow search under alpha less
    /// the margin) cut 9,000 of the 480,000 nodes where it was tried on FFO #40-#49, and its
    /// searches cost more than they saved: without it, 390.0M nodes against 416.9M (#50-#52 and
    /// #56: 1.138G against 1.143G).
    fn solve_probcut(
        &mut self,
        pos: &Position,
        n: u32,
        alpha: i32,
        ply: usize,
        control: &mut dyn SearchControl,
    ) -> Option<i32> {
        let t = super::probcut_t(self.solve_cut)?;
        let fit = *self.setup.eval.weights().solve_fit(n)?;
        // exact × 100 ≈ slope · shallow + intercept, both in centi-discs.
        let high = ((((alpha + 1) * 100) as f32 + t * fit.sigma - fit.intercept) / fit.slope).ceil() as i32;
        if high >= WIPEOUT {
            return None;
        }
        let v = self.pvs(pos, i32::from(fit.shallow), high - 1, high, ply, control);
        if self.halted() {
            return Some(0);
        }
        (v >= high).then_some(alpha + 1)
    }

    /// The null-window solver near the end: the thread's own cache (its move first), then parity
    /// and square order.
    fn nws_shallow(&mut self, player: u64, opponent: u64, alpha: i32, empties: u64, parity: u8) -> i32 {
        let n = empties.count_ones();
        if n <= 4 {
            return self.solve_few(player, opponent, alpha, empties);
        }
        self.nodes += 1;
        if let Some(bound) = self.stability_cutoff(player, opponent, alpha, n) {
            return bound;
        }
        let mut hint = NO_MOVE;
        if let Some(entry) = self.cache.probe(player, opponent, 0) {
            if let Some(bound) = entry.cut(alpha) {
                return bound;
            }
            hint = entry.best;
        }
        let layout = self.layout;
        let moves = legal_moves(player, opponent) & empties;
        if moves == 0 {
            if legal_moves(opponent, player) & empties == 0 {
                return final_score(player, opponent, n);
            }
            return -self.nws_shallow(opponent, player, -alpha - 1, empties, parity);
        }
        let mut best = NO_SCORE;
        let mut best_move = NO_MOVE;
        let mut rest = moves;
        if hint < 64 && moves & (1u64 << hint) != 0 {
            let x = usize::from(hint);
            let f = flips(x, player, opponent);
            let bit = 1u64 << x;
            rest ^= bit;
            best = -self.nws_shallow(
                opponent ^ f,
                player ^ f ^ bit,
                -alpha - 1,
                empties ^ bit,
                parity ^ layout.quadrant_bit[x],
            );
            best_move = hint;
        }
        let odd = rest & layout.odd_squares(parity);
        'moves: for set in [odd, rest & !odd] {
            if best > alpha {
                break;
            }
            for class in layout.classes {
                let mut squares = set & class;
                while squares != 0 {
                    let x = squares.trailing_zeros() as usize;
                    squares &= squares - 1;
                    let f = flips(x, player, opponent);
                    let bit = 1u64 << x;
                    let score = -self.nws_shallow(
                        opponent ^ f,
                        player ^ f ^ bit,
                        -alpha - 1,
                        empties ^ bit,
                        parity ^ layout.quadrant_bit[x],
                    );
                    if score > best {
                        best = score;
                        best_move = x as u8;
                        if score > alpha {
                            break 'moves;
                        }
                    }
                }
            }
        }
        let (lower, upper) = if best > alpha { (best, self.squares) } else { (-self.squares, best) };
        self.cache.store(player, opponent, 0, lower, upper, best_move);
        best
    }

    /// Four empty squares or fewer.
    #[inline]
    fn solve_few(&mut self, player: u64, opponent: u64, alpha: i32, empties: u64) -> i32 {
        let [a, b, c, d] = parity_sorted(empties, self.layout);
        match empties.count_ones() {
            4 => self.solve4(player, opponent, alpha, [a, b, c, d]),
            3 => self.solve3(player, opponent, alpha, [a, b, c]),
            2 => self.solve2(player, opponent, alpha, a, b),
            1 => self.solve1(player, opponent, a),
            _ => final_score(player, opponent, 0),
        }
    }

    fn solve4(&mut self, player: u64, opponent: u64, alpha: i32, squares: [usize; 4]) -> i32 {
        self.nodes += 1;
        if let Some(bound) = self.stability_cutoff(player, opponent, alpha, 4) {
            return bound;
        }
        if let Some(score) = self.solve4_turn(player, opponent, alpha, squares) {
            return score;
        }
        match self.solve4_turn(opponent, player, -alpha - 1, squares) {
            Some(score) => -score,
            None => final_score(player, opponent, 4),
        }
    }

    /// The best score of `player` playing one of the four squares, or `None` if it cannot move.
    /// The move mask is generated once and flips found only for legal moves (FFO #40-#49: 0.978
    /// of the time of trying each square; at 3 empties the same time either way).
    #[inline]
    fn solve4_turn(&mut self, player: u64, opponent: u64, alpha: i32, squares: [usize; 4]) -> Option<i32> {
        let [a, b, c, d] = squares;
        let moves = legal_moves(player, opponent);
        let mut best = NO_SCORE;
        for (x, rest) in [(a, [b, c, d]), (b, [a, c, d]), (c, [a, b, d]), (d, [a, b, c])] {
            if moves & (1u64 << x) != 0 {
                let f = flips(x, player, opponent);
                let bit = 1u64 << x;
                let score = -self.solve3(opponent ^ f, player ^ f ^ bit, -alpha - 1, rest);
                if score > best {
                    best = score;
                    if score > alpha {
                        return Some(best);
                    }
                }
            }
        }
        (best != NO_SCORE).then_some(best)
    }

    fn solve3(&mut self, player: u64, opponent: u64, alpha: i32, squares: [usize; 3]) -> i32 {
        self.nodes += 1;
        if let Some(score) = self.solve3_turn(player, opponent, alpha, squares) {
            return score;
        }
        match self.solve3_turn(opponent, player, -alpha - 1, squares) {
            Some(score) => -score,
            None => final_score(player, opponent, 3),
        }
    }

    /// The moves of three empty squares, then of two, and the last square's count are inlined
    /// whatever the compiler's estimate of their size (FFO #40-#49 in 0.98 of the time; so
    /// inlined, the four-empty turn and the move generation gain nothing).
    #[inline(always)]
    fn solve3_turn(&mut self, player: u64, opponent: u64, alpha: i32, squares: [usize; 3]) -> Option<i32> {
        let [a, b, c] = squares;
        let mut best = NO_SCORE;
        for (x, y, z) in [(a, b, c), (b, a, c), (c, a, b)] {
            let f = move_flips(x, player, opponent);
            if f != 0 {
                let bit = 1u64 << x;
                let score = -self.solve2(opponent ^ f, player ^ f ^ bit, -alpha - 1, y, z);
                if score > best {
                    best = score;
                    if score > alpha {
                        return Some(best);
                    }
                }
            }
        }
        (best != NO_SCORE).then_some(best)
    }

    fn solve2(&mut self, player: u64, opponent: u64, alpha: i32, a: usize, b: usize) -> i32 {
        self.nodes += 1;
        if let Some(score) = self.solve2_turn(player, opponent, alpha, a, b) {
            return score;
        }
        match self.solve2_turn(opponent, player, -alpha - 1, a, b) {
            Some(score) => -score,
            None => final_score(player, opponent, 2),
        }
    }

    #[inline(always)]
    fn solve2_turn(&mut self, player: u64, opponent: u64, alpha: i32, a: usize, b: usize) -> Option<i32> {
        let mut best = NO_SCORE;
        let f = move_flips(a, player, opponent);
        if f != 0 {
            best = -self.solve1(opponent ^ f, player ^ f ^ (1u64 << a), b);
            if best > alpha {
                return Some(best);
            }
        }
        let f = move_flips(b, player, opponent);
        if f != 0 {
            best = best.max(-self.solve1(opponent ^ f, player ^ f ^ (1u64 << b), a));
        }
        (best != NO_SCORE).then_some(best)
    }

    /// The last empty square: only the flips are counted.
    #[inline(always)]
    fn solve1(&mut self, player: u64, opponent: u64, x: usize) -> i32 {
        self.nodes += 1;
        let diff = player.count_ones() as i32 - opponent.count_ones() as i32;
        let f = last_flip_count(x, player) as i32;
        if f > 0 {
            return diff + 2 * f + 1;
        }
        let f = last_flip_count(x, opponent) as i32;
        if f > 0 {
            return diff - 2 * f - 1;
        }
        final_score(player, opponent, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;
    use crate::board::testing::{minimax, random_position};
    use crate::rng::Rng;
    use crate::search::NoControl;
    use crate::search::tt::TranspositionTable;
    use crate::search::worker::{Setup, Shared};
    use std::sync::Arc;

    fn worker(size: BoardSize) -> Worker {
        let tt = Arc::new(TranspositionTable::new(1).unwrap());
        let mut w = Worker::new(0, Arc::clone(&tt));
        let setup = Setup {
            size,
            eval: crate::eval::EvalKind::default().into(),
            probcut: None,
            draw_for_black: 0,
            node_limit: u64::MAX,
            hard_deadline: None,
        };
        w.prepare(&tt, &Arc::new(Shared::new(1)), setup);
        w
    }

    /// A selective solve (the embedded weights have solve fits) cuts by ProbCut: fewer nodes than the
    /// exact solve, and its table entries are not trusted by the exact solve that follows.
    #[test]
    fn selective_solves_cut_and_stay_apart() {
        let mut rng = Rng::new(12);
        let (mut selective_nodes, mut exact_nodes) = (0, 0);
        for _ in 0..12 {
            let pos = random_position(&mut rng, BoardSize::Eight, 18);
            if pos.legal_moves().is_empty() {
                continue;
            }
            let mut w = worker(BoardSize::Eight);
            w.setup.eval = crate::eval::EvalKind::Pattern.into();
            w.patterns = true;
            let exact = w.pvs_end(&pos, -65, 65, 0, &mut NoControl);
            exact_nodes += w.nodes;
            w.tt.clear();
            w.nodes = 0;
            w.solve_cut = crate::search::MAX_SELECTIVITY;
            w.pvs_end(&pos, -65, 65, 0, &mut NoControl);
            selective_nodes += w.nodes;
            // Now exact again over the selective entries: the exact score.
            w.solve_cut = 0;
            assert_eq!(w.pvs_end(&pos, -65, 65, 0, &mut NoControl), exact, "{pos}");
        }
        assert!(selective_nodes * 2 < exact_nodes, "{selective_nodes} against {exact_nodes}");
    }

    /// Where a selective solve may cut, its results in the thread's cache are under keys of its
    /// own selectivity, which an exact solve does not look up; below, the levels share them.
    #[test]
    fn the_cache_keeps_selective_results_apart() {
        let mut w = worker(BoardSize::Eight);
        let (player, opponent) = (0x5555_aaaa_1234_5678, 0x0000_5555_4000_0001);
        for n in [PROBCUT_EMPTIES, LOCAL_EMPTIES] {
            w.solve_cut = 3;
            let selective = w.cache_cut(n);
            w.cache.store(player, opponent, selective, 10, 10, 19);
            w.solve_cut = 0;
            assert!(w.cache.probe(player, opponent, w.cache_cut(n)).is_none(), "{n} empties");
        }
        w.solve_cut = 3;
        let selective = w.cache_cut(PROBCUT_EMPTIES - 1);
        w.solve_cut = 0;
        assert_eq!(w.cache_cut(PROBCUT_EMPTIES - 1), selective);
    }

    /// The small boards' ordering by shallow searches with the hand-made evaluation (from 16
    /// empties) finds the same exact scores as the solver ordered by mobility alone (with the
    /// disc-count evaluation, which the solver does not order by).
    #[test]
    fn small_board_evaluation_ordering_keeps_the_exact_scores() {
        let mut rng = Rng::new(13);
        let size = BoardSize::Six;
        for round in 0..12 {
            let pos = random_position(&mut rng, size, 16 + round % 3);
            let mut scores = Vec::new();
            for kind in [crate::eval::EvalKind::Heuristic, crate::eval::EvalKind::Discs] {
                let mut w = worker(size);
                w.setup.eval = kind.into();
                scores.push(w.pvs_end(&pos, -65, 65, 0, &mut NoControl));
            }
            assert_eq!(scores[0], scores[1], "{pos}");
        }
    }

    /// The one-disc search that orders the solver from [`SEARCH_ORDER_EMPTIES`] up is the best of
    /// the children's evaluations read afresh (within a wipeout, where the search's bound and the
    /// evaluation's differ), and counts each child as a node.
    #[test]
    fn the_one_disc_ordering_search_is_the_best_child_evaluation() {
        let mut rng = Rng::new(14);
        let mut w = worker(BoardSize::Eight);
        w.setup.eval = crate::eval::EvalKind::Pattern.into();
        w.patterns = true;
        let weights = w.setup.eval.weights().clone();
        for round in 0..400 {
            let pos = random_position(&mut rng, BoardSize::Eight, 8 + round % 40);
            let moves = pos.legal_moves().0;
            if moves == 0 {
                continue;
            }
            let mut expected = -INFINITY;
            let mut set = moves;
            while set != 0 {
                let square = Square::from_index_unchecked(set.trailing_zeros());
                set &= set - 1;
                let child = pos.play(square);
                expected = expected.max(-weights.evaluate(child.player(), child.opponent()));
            }
            let nodes = w.nodes;
            let value = w.value_one_ahead(&pos, 3, &mut NoControl);
            assert_eq!(value.clamp(-WIPEOUT, WIPEOUT), expected, "{pos}");
            assert_eq!(w.nodes - nodes, u64::from(moves.count_ones()));
        }
    }

    /// The solver ordered by the evaluation and by searches (the pattern evaluation, from 14 and
    /// 18 empties up) finds the exact scores of the solver ordered by mobility alone (the
    /// disc-count evaluation, which the solver does not order by). (The FFO tests solve positions
    /// of more than 22 empties, which the searches two discs deep order.)
    #[test]
    fn search_ordering_keeps_the_exact_scores() {
        let mut rng = Rng::new(15);
        for empties in [18, 19, 20, 18] {
            let pos = random_position(&mut rng, BoardSize::Eight, empties);
            let mut scores = Vec::new();
            for kind in [crate::eval::EvalKind::Pattern, crate::eval::EvalKind::Discs] {
                let mut w = worker(BoardSize::Eight);
                w.setup.eval = kind.into();
                w.patterns = kind == crate::eval::EvalKind::Pattern;
                scores.push(w.pvs_end(&pos, -65, 65, 0, &mut NoControl));
            }
            assert_eq!(scores[0], scores[1], "{pos}");
        }
    }

    #[test]
    fn null_window_answers_agree_with_minimax() {
        let mut rng = Rng::new(11);
        for round in 0..300 {
            let size = [BoardSize::Eight, BoardSize::Eight, BoardSize::Six, BoardSize::Four][round % 4];
            let empties = 1 + (round as u32 % 11);
            let pos = random_position(&mut rng, size, empties);
            let exact = minimax(&pos);
            let mut w = worker(size);
            for alpha in [exact - 3, exact - 2, exact - 1, exact, exact + 1] {
                let score = w.solve_nws(&pos, alpha, 0, &mut NoControl);
                assert_eq!(score > alpha, exact > alpha, "{pos} alpha {alpha}: {score} vs {exact}");
                // Fail-soft: a bound on the right side.
                if score > alpha {
                    assert!(score <= exact, "{pos}: lower bound {score} above {exact}");
                } else {
                    assert!(score >= exact, "{pos}: upper bound {score} below {exact}");
                }
            }
            let score = w.pvs_end(&pos, -65, 65, 0, &mut NoControl);
            assert_eq!(score, exact, "{pos}");
        }
    }
}
