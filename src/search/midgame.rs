//! The depth-limited search: a principal-variation negamax (PVS) over the evaluation, in
//! centi-discs, with the shared transposition table.
//!
//! A pass costs no depth, so a search of depth d looks d discs ahead; at depth 0 the evaluation
//! scores the position, and finished games are scored exactly. Each node:
//!
//! - probes the table: an entry at least as deep as the node (or an exact solve, whose disc
//!   bounds become centi-disc bounds through the value of a draw) ends a null-window node at once
//!   when its bounds fall outside the window; its move is tried first in any case;
//! - orders its moves by what they leave the opponent ([`super::ordering`]) from
//!   [`ORDERING_DEPTH`] up, and in a selective search with the pattern evaluation also by the
//!   evaluation of the position they lead to; below, by square class;
//! - searches the first move with the full window and the others with a null window, searching
//!   again those that beat alpha;
//! - stores its bounds and best move.

use super::eval_cache::EvalCache;
use super::ordering::{FIRST, MoveList, move_value_and_replies, value_moves};
use super::split::SplitKind;
use super::tt::{NO_MOVE, TtEntry};
use super::worker::{PASS, Worker, to_centi_discs};
use super::{INFINITY, MAX_PLY, SearchControl};
use crate::board::movegen::{flips, legal_moves};
use crate::board::{Position, Square};
use crate::eval::WIPEOUT;

/// From this depth up, moves are ordered by mobility (and evaluation); below, by square class only.
pub const ORDERING_DEPTH: i32 = 3;

/// The weight of the pattern evaluation (centi-discs, from the opponent's side) in the ordering
/// value of a move in a selective search, beside what the move leaves the opponent
/// ([`super::ordering::move_value`]: 4096 per reply). On 40 self-play positions with 26-46
/// empties searched to depth 16 at selectivity 4, it searches 34% fewer nodes in 32% less time;
/// ordering the nodes of depth 8 up by a search of each child rather than its evaluation gains
/// nothing more. Without Multi-ProbCut it costs more than it saves (depth 13, 20 positions: 18%
/// more nodes and 48% more time), so that search keeps the mobility ordering. The solver has its
/// own weight ([`super::endgame::EVAL_ORDER_EMPTIES`]).
const W_EVAL: i32 = 30;

/// From this depth up, a null-window node may be split between threads.
pub const SPLIT_DEPTH: i32 = 5;

/// From this depth up, null-window nodes try Multi-ProbCut (when the weights have a fit).
pub const PROBCUT_DEPTH: i32 = 3;

/// A ProbCut node tries the cut above the window only where its static evaluation is at least
/// beta less this many of the cut's margins (t·σ), and the cut below only where it is under alpha
/// plus as many, as Edax gates its cuts by the evaluation's error. The shallow searches that could
/// hardly cut are saved: `bench --depth 18` searches 8.79M nodes against 10.93M without the gate,
/// in 12-15% less time (alternating runs).
pub const PROBCUT_GATE: f32 = 1.25;

/// From this depth up, a null-window node cuts by Multi-ProbCut with at least the confidence of
/// selectivity 3 ([`DEEP_PROBCUT_T`]), whatever the selectivity: a wrong cut there drops a large
/// subtree, and only searches of seconds reach such nodes, so the searches of a short clock keep
/// their cuts. At 700 ms a move (46, 42 and 38 empties, 240 positions judged by NTest at depth
/// 20) the moves were worth 0.10 ± 0.045 discs more than with t = 0.8 at every depth; see
/// docs/experiments.md for the matches.
pub const DEEP_PROBCUT_DEPTH: i32 = 16;

/// The least t of Multi-ProbCut from [`DEEP_PROBCUT_DEPTH`] up: selectivity 3's.
pub const DEEP_PROBCUT_T: f32 = 2.0;

/// From this depth up, nodes use the table. Below, a probe (a cache miss, most of a node's
/// time) costs more than it saves: with both this and [`ORDERING_DEPTH`] at 3 rather than 2,
/// `bench --depth 12` searches 22% more nodes in 23% less time (median of 5 runs).
pub const TABLE_DEPTH: i32 = 3;

/// How many ProbCut shallow searches may enclose a node that tries ProbCut itself: a shallow
/// search cuts by ProbCut too, the shallow searches inside it do not (Edax's limit). Without a
/// limit the cuts of shallow searches inside shallow searches compound their errors; with none
/// inside any shallow search (1, as Egaroucid), `bench --depth 24` searched 10.7 times the
/// nodes, with 2 1.24 times (see docs/experiments.md).
pub const PROBCUT_NESTING: u8 = 2;

/// The pattern evaluation's values at the leaves of the depth-limited search are rounded to
/// multiples of this many centi-discs (whole discs), as Edax and Egaroucid search in whole discs:
/// more of the leaves tie, so a null window fails on the same side more often and a table bound
/// answers more windows. `bench --depth 12 --selectivity 0` searches 20% fewer nodes, `bench
/// --depth 24` 3% fewer; the evaluation's error (3.4 discs on held-out positions) dwarfs the
/// rounding's (half a disc at most). The evaluation itself (`eval`, the ordering, ProbCut's gate)
/// keeps its centi-discs.
pub const LEAF_GRAIN: i32 = 100;

/// `value` rounded to the nearest multiple of [`LEAF_GRAIN`] (halves up).
#[inline]
pub(crate) fn to_grain(value: i32) -> i32 {
    (value + LEAF_GRAIN / 2).div_euclid(LEAF_GRAIN) * LEAF_GRAIN
}

/// The t of Multi-ProbCut at a node of `depth` when the selectivity's is `t`.
#[inline]
fn probcut_t_at(t: f32, depth: i32) -> f32 {
    if depth >= DEEP_PROBCUT_DEPTH { t.max(DEEP_PROBCUT_T) } else { t }
}

impl Worker {
    /// The value of `pos` searched `depth` discs ahead, within (alpha, beta), fail-soft.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pvs(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        control: &mut dyn SearchControl,
    ) -> i32 {
        self.nodes += 1;
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes >= self.next_check {
            self.check(control);
        }
        if self.halted() {
            return 0;
        }
        let moves = pos.legal_moves().0;
        if moves == 0 {
            if pos.opponent_moves().is_empty() {
                return self.final_score(pos);
            }
            if self.patterns {
                self.features.pass(ply, pos);
            }
            let score = -self.pvs(&pos.pass(), depth, -beta, -alpha, ply + 1, control);
            self.update_pv(ply, PASS);
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY - 2 {
            let value = self.evaluate(pos, ply, moves);
            return if self.patterns { to_grain(value) } else { value };
        }
        let pv_node = beta > alpha + 1;
        if depth < TABLE_DEPTH && !pv_node {
            return self.shallow(pos, moves, depth, alpha, ply, control);
        }
        let key = self.midgame_key(pos);
        let mut hint = NO_MOVE;
        if depth >= TABLE_DEPTH
            && let Some(entry) = self.tt.probe(key)
        {
            hint = entry.best;
            if !pv_node && let Some((lower, upper)) = self.usable_bounds(pos, depth, &entry) {
                if lower >= beta {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
            }
        }
        if !pv_node
            && depth >= PROBCUT_DEPTH
            && self.probcut_level < PROBCUT_NESTING
            && let Some(t) = self.setup.probcut
            && let Some(cut) = self.probcut(pos, moves, depth, (alpha, beta), ply, probcut_t_at(t, depth), control)
        {
            return cut;
        }
        let (player, opponent) = (pos.player(), pos.opponent());
        let mut list = if depth >= ORDERING_DEPTH {
            let mut list = MoveList::generate(player, opponent, moves);
            if depth > TABLE_DEPTH {
                // The children will probe the table: their buckets are requested now, so that
                // the loads overlap the ordering below.
                for m in list.as_slice() {
                    let child = pos.play_with_flips(Square::from_index_unchecked(m.square.into()), m.flips);
                    self.tt.prefetch(self.midgame_key(&child));
                }
            }
            if self.patterns && self.setup.probcut.is_some() {
                self.value_by_evaluation(pos, ply, &mut list, hint, W_EVAL);
            } else {
                value_moves(&mut list, player, opponent, self.layout, hint);
            }
            list
        } else {
            let mut list = MoveList::generate(player, opponent, moves);
            for m in list.as_mut_slice() {
                m.value = if m.square == hint { FIRST } else { self.layout.square_value(m.square) };
            }
            list
        };
        let start_alpha = alpha;
        let start_nodes = self.nodes;
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        for i in 0..list.len() {
            let m = list.pick(i);
            let child = pos.play_with_flips(Square::from_index_unchecked(m.square.into()), m.flips);
            if self.patterns {
                self.features.play(ply, pos, m.square, m.flips, &child);
            }
            let score = if i == 0 {
                -self.pvs(&child, depth - 1, -beta, -alpha, ply + 1, control)
            } else {
                let probe = -self.pvs(&child, depth - 1, -alpha - 1, -alpha, ply + 1, control);
                if probe > alpha && probe < beta && !self.halted() {
                    -self.pvs(&child, depth - 1, -beta, -alpha, ply + 1, control)
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
            if i == 0 && !pv_node && list.len() > 1 && depth >= SPLIT_DEPTH && self.can_split() {
                (best, best_move) = self.split(
                    pos,
                    alpha,
                    ply,
                    SplitKind::Midgame(depth, self.probcut_level),
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
        if depth >= TABLE_DEPTH {
            let (lower, upper) = if best >= beta {
                (best, INFINITY)
            } else if best > start_alpha {
                (best, best)
            } else {
                (-INFINITY, best)
            };
            let spent = self.nodes - start_nodes + 1;
            let cost = (64 - spent.leading_zeros()) as u8;
            self.tt.store(key, TtEntry { lower, upper, best: best_move, depth: depth as u8, cost, cut: 0 });
        }
        best
    }

    /// A null-window node below [`TABLE_DEPTH`]: no table, moves by square class (corners first),
    /// each move's flips computed only when it is tried. One disc above the leaves with the
    /// pattern evaluation, a child is scored from this node's features without a node of its own
    /// (only the half of the features its side to move reads is brought up to date); it is still
    /// counted as a node, and one whose side must pass, or that ends the game, goes through
    /// [`Worker::pvs`]. Together 1.55 times as fast in the midgame as ordered nodes here, for the same
    /// values and about the same nodes.
    fn shallow(
        &mut self,
        pos: &Position,
        moves: u64,
        depth: i32,
        alpha: i32,
        ply: usize,
        control: &mut dyn SearchControl,
    ) -> i32 {
        let (player, opponent) = (pos.player(), pos.opponent());
        let frontier = (depth == 1 && self.patterns).then(|| *self.features.at(ply, pos));
        let mut best = -INFINITY;
        for class in self.layout.classes {
            let mut set = moves & class;
            while set != 0 {
                let square = set.trailing_zeros();
                set &= set - 1;
                let flips = flips(square as usize, player, opponent);
                let (next_player, next_opponent) = (opponent ^ flips, player ^ flips ^ (1u64 << square));
                // The child's moves: whether it must pass, and its mobility for the evaluation.
                let replies = if frontier.is_some() { legal_moves(next_player, next_opponent) } else { 0 };
                let score = if let Some(features) = &frontier
                    && replies != 0
                {
                    self.nodes += 1;
                    self.seldepth = self.seldepth.max(ply + 1);
                    if self.nodes >= self.next_check {
                        self.check(control);
                    }
                    self.pv_len[ply + 1] = ply + 1;
                    let key = EvalCache::key(next_player, next_opponent);
                    let value = self.eval_cache.probe(key).unwrap_or_else(|| {
                        let indices = features.play_to_evaluate(square, flips);
                        let value = self.setup.eval.evaluate_lanes(&indices, next_player, next_opponent, replies);
                        self.eval_cache.store(key, value);
                        value
                    });
                    -to_grain(value)
                } else {
                    let child = pos.play_with_flips(Square::from_index_unchecked(square), flips);
                    if self.patterns {
                        self.features.play(ply, pos, square as u8, flips, &child);
                    }
                    -self.pvs(&child, depth - 1, -alpha - 1, -alpha, ply + 1, control)
                };
                if self.halted() {
                    return 0;
                }
                if score > best {
                    best = score;
                    if score > alpha {
                        self.update_pv(ply, square as u8);
                        return best;
                    }
                }
            }
        }
        best
    }

    /// The evaluation of `pos`, at `ply` of the path, whose side to move has the legal `moves`:
    /// from the features kept along the path when it reads patterns.
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize, moves: u64) -> i32 {
        if self.patterns {
            let (player, opponent) = (pos.player(), pos.opponent());
            let key = EvalCache::key(player, opponent);
            if let Some(value) = self.eval_cache.probe(key) {
                return value;
            }
            let features = self.features.at(ply, pos);
            let value = self.setup.eval.evaluate_lanes(&features.player, player, opponent, moves);
            self.eval_cache.store(key, value);
            value
        } else {
            self.setup.eval.evaluate(pos)
        }
    }

    /// The value of `pos` at `ply` searched one disc ahead with the full window, for move
    /// ordering: the best of its children's evaluations, each read from this node's features
    /// as the frontier of [`Self::shallow`] reads them, and counted as a node. A position whose
    /// side to move must pass, or that ends the game, goes through [`Self::pvs`]. The features
    /// are slot `ply`'s, made afresh there if it holds another position (the caller plays them
    /// into it from the parent's).
    pub(super) fn value_one_ahead(&mut self, pos: &Position, ply: usize, control: &mut dyn SearchControl) -> i32 {
        let (player, opponent) = (pos.player(), pos.opponent());
        let mut moves = legal_moves(player, opponent) & self.layout.playable;
        if moves == 0 {
            return self.pvs(pos, 1, -INFINITY, INFINITY, ply, control);
        }
        let features = *self.features.at(ply, pos);
        let weights = self.setup.eval.weights();
        let mut best = -INFINITY;
        let children = u64::from(moves.count_ones());
        while moves != 0 {
            let square = moves.trailing_zeros();
            moves &= moves - 1;
            let flips = flips(square as usize, player, opponent);
            let (next_player, next_opponent) = (opponent ^ flips, player ^ flips ^ (1u64 << square));
            let replies = legal_moves(next_player, next_opponent);
            let indices = features.play_to_evaluate(square, flips);
            let score = -weights.evaluate_indices_with_moves(&indices, next_player, next_opponent, replies);
            best = best.max(score);
        }
        self.nodes += children;
        best
    }

    /// Values the moves of `list` (every legal move of `pos` at `ply`) as
    /// [`super::ordering::value_moves`] does, less the pattern evaluation of the position each
    /// leads to (for the side that plays it) times `weight`; the table's move `hint` first. The
    /// opponent's replies are generated once for both terms.
    pub(super) fn value_by_evaluation(
        &mut self,
        pos: &Position,
        ply: usize,
        list: &mut MoveList,
        hint: u8,
        weight: i32,
    ) {
        let parent = *self.features.at(ply, pos);
        let weights = self.setup.eval.weights();
        let (player, opponent) = (pos.player(), pos.opponent());
        let parity = self.layout.parity(!(player | opponent) & self.layout.playable);
        for m in list.as_mut_slice() {
            m.value = if m.square == hint {
                FIRST
            } else {
                let (value, replies) = move_value_and_replies(player, opponent, m.square, m.flips, self.layout, parity);
                let indices = parent.play_to_evaluate(u32::from(m.square), m.flips);
                let (next_player, next_opponent) = (opponent ^ m.flips, player ^ m.flips ^ (1u64 << m.square));
                value - weight * weights.evaluate_indices_with_moves(&indices, next_player, next_opponent, replies)
            };
        }
    }

    /// Multi-ProbCut: whether a shallow search predicts, with confidence factor `t`, that a search
    /// of `depth` would fail high (then `Some(beta)`) or low (`Some(alpha)`) from the window
    /// (alpha, beta). Only where the search stays short of the end of the game, so that no exact
    /// score depends on it, and only with the fits made for the weights in use. `moves` are the
    /// legal moves of `pos`.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        pos: &Position,
        moves: u64,
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
        t: f32,
        control: &mut dyn SearchControl,
    ) -> Option<i32> {
        let empties = pos.empty_count();
        if depth as u32 >= empties || pos.size() != crate::board::BoardSize::Eight {
            return None;
        }
        let fit = *self.setup.eval.weights().probcut_fit(empties, depth as u32)?;
        let margin = t * fit.sigma;
        let shallow = i32::from(fit.shallow);
        // The static evaluation (where the search reads patterns) says which cut is worth a
        // shallow search: a side whose bound it misses by more than PROBCUT_GATE margins is not
        // tried.
        let gate = PROBCUT_GATE * margin;
        let eval = self.patterns.then(|| self.evaluate(pos, ply, moves) as f32);
        // deep ≈ slope · shallow + intercept: a deep score of at least beta + margin needs a
        // shallow one of at least this.
        let high = ((beta as f32 + margin - fit.intercept) / fit.slope).ceil() as i32;
        if high < WIPEOUT && eval.is_none_or(|e| e >= beta as f32 - gate) {
            let v = self.probcut_search(pos, shallow, high - 1, high, ply, control);
            if self.halted() {
                return Some(0);
            }
            if v >= high {
                return Some(beta);
            }
        }
        let low = ((alpha as f32 - margin - fit.intercept) / fit.slope).floor() as i32;
        if low > -WIPEOUT && eval.is_none_or(|e| e < alpha as f32 + gate) {
            let v = self.probcut_search(pos, shallow, low, low + 1, ply, control);
            if self.halted() {
                return Some(0);
            }
            if v <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// ProbCut's shallow search of `pos` to `depth` with the window (alpha, beta): one level of
    /// nesting deeper (see [`PROBCUT_NESTING`]) while it runs, the level given back however it
    /// ends.
    fn probcut_search(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        control: &mut dyn SearchControl,
    ) -> i32 {
        self.probcut_level += 1;
        let v = self.pvs(pos, depth, alpha, beta, ply, control);
        self.probcut_level -= 1;
        v
    }

    /// The bounds in centi-discs that `entry` gives a search of `pos` to `depth`, if it is deep
    /// enough: an exact solve (its depth reaches the empties; disc units) always is.
    #[inline]
    pub(super) fn usable_bounds(&self, pos: &Position, depth: i32, entry: &TtEntry) -> Option<(i32, i32)> {
        if u32::from(entry.depth) >= pos.empty_count() {
            let draw = self.draw_score(pos.side_to_move());
            Some((to_centi_discs(entry.lower, draw), to_centi_discs(entry.upper, draw)))
        } else if i32::from(entry.depth) >= depth {
            Some((entry.lower, entry.upper))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::probcut_t;

    #[test]
    fn deep_nodes_cut_at_least_as_surely_as_selectivity_3() {
        let t5 = probcut_t(5).unwrap();
        assert_eq!(probcut_t_at(t5, DEEP_PROBCUT_DEPTH - 1), t5, "shallower nodes keep their level");
        assert_eq!(probcut_t_at(t5, DEEP_PROBCUT_DEPTH), probcut_t(3).unwrap());
        assert_eq!(probcut_t_at(t5, 40), probcut_t(3).unwrap());
        for level in 1..=3 {
            let t = probcut_t(level).unwrap();
            assert_eq!(probcut_t_at(t, 30), t, "level {level} is already as sure");
        }
    }
}
