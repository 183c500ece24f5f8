//! Move ordering: which moves to try first so that alpha-beta cuts early.
//!
//! - Near the leaves of the solver, a fixed order: squares in quadrants with an odd number of
//!   empties first (parity: the side that plays last in a region gains), then by square class
//!   (corners, edges, inner squares, the squares next to an empty corner last).
//! - Higher in the tree each move gets a value from what it leaves the opponent: its replies
//!   (corners counted twice: "fastest first"), its potential mobility (empty squares next to our
//!   discs; the solver leaves it out), and our discs made safe around the corners, plus small
//!   parity and square terms. The move from the transposition table comes before all.
//!
//! A [`MoveList`] lives on the stack of each node; [`MoveList::pick`] brings the best remaining
//! move forward one at a time, so a node that cuts on its first move sorts nothing else.

use crate::board::BoardSize;
use crate::board::movegen::{flips, legal_moves};
use crate::eval::features::{Geometry, neighbours};

/// More moves than any Othello position has (33 is the most known).
pub const MAX_MOVES: usize = 40;

/// Column a and row 1.
const COL_A: u64 = 0x0101_0101_0101_0101;
const ROW_1: u64 = 0xff;

/// The board's regions and square classes for move ordering, one per board size (the smaller
/// boards sit in the top-left corner of the 8x8 grid, so their corners, edges and quadrants are
/// their own, not the 8x8 board's).
pub struct Layout {
    /// The playable squares.
    pub playable: u64,
    /// Square classes, best first: corners; edge squares away from the corners; inner squares;
    /// C-squares (edge squares next to a corner); X-squares (diagonal neighbours of a corner).
    pub classes: [u64; 5],
    /// A small bonus per square class, for ties (corners 4 … X-squares 0).
    square_value: [i32; 64],
    /// The four quadrants (halves of the rows by halves of the columns).
    quadrants: [u64; 4],
    /// The quadrant bit of each square.
    pub quadrant_bit: [u8; 64],
    /// The squares of the quadrants whose bit is set, for each of the 16 parity patterns.
    odd_squares: [u64; 16],
    /// The four corners.
    pub corners: u64,
    /// The corners whose edge neighbours lie one step right, left, up and down.
    corner_steps: [u64; 4],
}

impl Layout {
    /// The layout of the `n` x `n` board in the top-left corner of the grid: its square classes
    /// from the board's [`Geometry`], its quadrants the halves of its rows by the halves of its
    /// columns.
    const fn new(n: u32) -> Layout {
        let g = Geometry::new(n);
        let [c0, c1, c2, c3] = g.c_squares;
        let c_squares = c0 | c1 | c2 | c3;
        let [x0, x1, x2, x3] = g.x_squares;
        let x_squares = x0 | x1 | x2 | x3;
        let classes =
            [g.corners, g.edges & !g.corners & !c_squares, g.playable & !g.edges & !x_squares, c_squares, x_squares];
        let mut layout = Layout {
            playable: g.playable,
            classes,
            square_value: [0; 64],
            quadrants: [0; 4],
            quadrant_bit: [0; 64],
            odd_squares: [0; 16],
            corners: g.corners,
            // The corners of column a step right, the others left; those of row 1 step up, the
            // others down.
            corner_steps: [g.corners & COL_A, g.corners & !COL_A, g.corners & ROW_1, g.corners & !ROW_1],
        };
        let mut sq = 0;
        while sq < 64 {
            let (r, c) = (sq as u32 / 8, sq as u32 % 8);
            if r < n && c < n {
                let mut class = 0;
                while classes[class] & (1u64 << sq) == 0 {
                    class += 1;
                }
                layout.square_value[sq] = 4 - class as i32;
                let q = (r >= n / 2) as usize * 2 + (c >= n / 2) as usize;
                layout.quadrants[q] |= 1u64 << sq;
                layout.quadrant_bit[sq] = 1 << q;
            }
            sq += 1;
        }
        let mut parity = 0;
        while parity < 16 {
            let mut q = 0;
            while q < 4 {
                if parity & (1 << q) != 0 {
                    layout.odd_squares[parity] |= layout.quadrants[q];
                }
                q += 1;
            }
            parity += 1;
        }
        layout
    }

    /// The layout of a board size.
    pub fn of(size: BoardSize) -> &'static Layout {
        static FOUR: Layout = Layout::new(4);
        static SIX: Layout = Layout::new(6);
        static EIGHT: Layout = Layout::new(8);
        match size {
            BoardSize::Four => &FOUR,
            BoardSize::Six => &SIX,
            BoardSize::Eight => &EIGHT,
        }
    }

    /// The square-class value of a square (corners highest), for ordering by square alone.
    #[inline]
    pub fn square_value(&self, square: u8) -> i32 {
        self.square_value[usize::from(square & 63)]
    }

    /// Bit q set when quadrant q holds an odd number of the `empties`.
    #[inline]
    pub fn parity(&self, empties: u64) -> u8 {
        let mut p = 0;
        for (q, quadrant) in self.quadrants.iter().enumerate() {
            p |= ((empties & quadrant).count_ones() as u8 & 1) << q;
        }
        p
    }

    /// The squares lying in the quadrants marked odd in `parity`.
    #[inline]
    pub fn odd_squares(&self, parity: u8) -> u64 {
        self.odd_squares[usize::from(parity & 15)]
    }

    /// Our discs on a corner or on an edge square next to a corner we hold: discs that will not
    /// be flipped soon.
    #[inline]
    fn corner_stability(&self, discs: u64) -> u32 {
        let corners = discs & self.corners;
        let [right, left, up, down] = self.corner_steps;
        let next = ((corners & right) << 1) | ((corners & left) >> 1) | ((corners & up) << 8) | ((corners & down) >> 8);
        (corners | (next & discs)).count_ones()
    }
}

/// A move with the discs it flips and its ordering value (higher is tried first).
#[derive(Clone, Copy, Debug, Default)]
pub struct ScoredMove {
    /// Square index.
    pub square: u8,
    /// Opponent discs flipped.
    pub flips: u64,
    /// Ordering value.
    pub value: i32,
}

/// The moves of one node, on the stack.
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [ScoredMove; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList { moves: [ScoredMove::default(); MAX_MOVES], len: 0 }
    }

    /// Every legal move of `player` in `moves` with its flips and a zero value.
    #[inline]
    pub fn generate(player: u64, opponent: u64, mut moves: u64) -> MoveList {
        let mut list = MoveList::new();
        while moves != 0 {
            let sq = moves.trailing_zeros();
            moves &= moves - 1;
            list.moves[list.len] =
                ScoredMove { square: sq as u8, flips: flips(sq as usize, player, opponent), value: 0 };
            list.len += 1;
        }
        list
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves, in their current order.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [ScoredMove] {
        &mut self.moves[..self.len]
    }

    /// The moves, in their current order.
    #[inline]
    pub fn as_slice(&self) -> &[ScoredMove] {
        &self.moves[..self.len]
    }

    /// Brings the best of the moves from `i` on to place `i` and returns it.
    #[inline]
    pub fn pick(&mut self, i: usize) -> ScoredMove {
        // The highest value, the first of equal ones: each move's value and place folded into one
        // key whose maximum the compiler finds without branches (a branch on each comparison
        // mispredicts often, the values being in no order).
        const _: () = assert!(MAX_MOVES <= 256, "a move's place must fit the key's low byte");
        let key = |j: usize, m: &ScoredMove| (i64::from(m.value) << 8) | (255 - j as i64);
        let mut best_key = key(i, &self.moves[i]);
        for (j, m) in self.moves[..self.len].iter().enumerate().skip(i + 1) {
            best_key = best_key.max(key(j, m));
        }
        let best = 255 - (best_key & 255) as usize;
        self.moves.swap(i, best);
        self.moves[i]
    }
}

/// The value that puts a move first of all (the table's move).
pub const FIRST: i32 = 1 << 30;

/// Weights of the ordering value (found by measuring the solver's node counts on FFO #40-#49).
const W_MOBILITY: i32 = 1 << 12;
const W_POTENTIAL: i32 = 1 << 8;
const W_CORNER_STABILITY: i32 = 1 << 10;
const W_PARITY: i32 = 1 << 6;

/// The ordering value of `player` playing `square` (flipping `flips`) against `opponent` on the
/// board of `layout`: few replies for the opponent, few empty squares next to our discs, safe
/// discs near the corners, the quadrant parity and the square class.
#[inline]
pub fn move_value(player: u64, opponent: u64, square: u8, flips: u64, layout: &Layout, parity: u8) -> i32 {
    move_value_and_replies(player, opponent, square, flips, layout, parity).0
}

/// [`move_value`], with the opponent's replies after the move (all of them, before the playable
/// squares mask them), which the caller may reuse rather than generate them again.
#[inline]
pub fn move_value_and_replies(
    player: u64,
    opponent: u64,
    square: u8,
    flips: u64,
    layout: &Layout,
    parity: u8,
) -> (i32, u64) {
    value_and_replies::<true>(player, opponent, square, flips, layout, parity)
}

/// Gives the moves of `list` (generated for `player`) the solver's ordering values: those of
/// [`move_value`] without the potential mobility, which in the solver (up to 13 empties) orders
/// hardly better (FFO #40-#59: 13.70G nodes against 13.63G; #40-#49: 416.9M against 417.7M) and
/// costs a neighbour sweep a move (#40-#49 in 0.987 of the time).
#[inline]
pub fn value_solver_moves(list: &mut MoveList, player: u64, opponent: u64, layout: &Layout, first: u8) {
    value_list::<false>(list, player, opponent, layout, first);
}

/// The ordering value of a move and the opponent's replies after it, with the potential mobility
/// term or without it.
#[inline(always)]
fn value_and_replies<const POTENTIAL: bool>(
    player: u64,
    opponent: u64,
    square: u8,
    flips: u64,
    layout: &Layout,
    parity: u8,
) -> (i32, u64) {
    let bit = 1u64 << square;
    let next_player = opponent ^ flips;
    let next_opponent = player ^ flips ^ bit;
    let all_replies = legal_moves(next_player, next_opponent);
    let replies = all_replies & layout.playable;
    let mobility = (replies.count_ones() + (replies & layout.corners).count_ones()) as i32;
    let potential = if POTENTIAL {
        let empty = !(next_player | next_opponent) & layout.playable;
        (neighbours(next_opponent) & empty).count_ones() as i32
    } else {
        0
    };
    let parity_bonus = if layout.quadrant_bit[usize::from(square)] & parity != 0 { W_PARITY } else { 0 };
    let value = -mobility * W_MOBILITY - potential * W_POTENTIAL
        + layout.corner_stability(next_opponent) as i32 * W_CORNER_STABILITY
        + parity_bonus
        + layout.square_value(square);
    (value, all_replies)
}

/// The legal moves of `player` with their ordering values, `first` (the table's move, if legal)
/// valued above all.
#[inline]
pub fn ordered_moves(player: u64, opponent: u64, moves: u64, layout: &Layout, first: u8) -> MoveList {
    let mut list = MoveList::generate(player, opponent, moves);
    value_moves(&mut list, player, opponent, layout, first);
    list
}

/// Gives the moves of `list` (generated for `player`) their ordering values, as
/// [`ordered_moves`] does.
#[inline]
pub fn value_moves(list: &mut MoveList, player: u64, opponent: u64, layout: &Layout, first: u8) {
    value_list::<true>(list, player, opponent, layout, first);
}

/// The moves of `list` valued, `first` above all, with the potential mobility term or without it.
#[inline(always)]
fn value_list<const POTENTIAL: bool>(list: &mut MoveList, player: u64, opponent: u64, layout: &Layout, first: u8) {
    let parity = layout.parity(!(player | opponent) & layout.playable);
    for m in list.as_mut_slice() {
        m.value = if m.square == first {
            FIRST
        } else {
            value_and_replies::<POTENTIAL>(player, opponent, m.square, m.flips, layout, parity).0
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EIGHT: &Layout = &Layout::new(8);

    #[test]
    fn square_classes_cover_the_board_once() {
        for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
            let layout = Layout::of(size);
            let mut all = 0u64;
            for class in layout.classes {
                assert_eq!(all & class, 0);
                all |= class;
            }
            assert_eq!(all, size.playable(), "{size}");
            assert_eq!(layout.corners.count_ones(), 4);
            let quadrants: u64 = layout.quadrants.iter().fold(0, |acc, q| {
                assert_eq!(acc & q, 0);
                acc | q
            });
            assert_eq!(quadrants, size.playable());
        }
        assert_eq!(
            EIGHT.classes,
            [
                0x8100_0000_0000_0081,
                0x3c00_8181_8181_003c,
                0x003c_7e7e_7e7e_3c00,
                0x4281_0000_0000_8142,
                0x0042_0000_0000_4200
            ]
        );
        assert_eq!(EIGHT.square_value(0), 4);
        assert_eq!(EIGHT.square_value(9), 0, "b2 is an X-square");
        // 6x6: f1, a6 and f6 are corners, e1 a C-square, e5 an X-square, c1 an edge square.
        let six = Layout::of(BoardSize::Six);
        assert_eq!(six.corners, 1 | 1 << 5 | 1 << 40 | 1 << 45);
        assert_eq!(six.square_value(4), 1, "e1 is a C-square");
        assert_eq!(six.square_value(36), 0, "e5 is an X-square");
        assert_eq!(six.square_value(2), 3, "c1 is an edge square");
        assert_eq!(six.quadrants[0], 0x07_0707);
    }

    #[test]
    fn parity_marks_odd_quadrants() {
        // a1 alone in its quadrant, h8 and g8 together in theirs.
        let empties = 1u64 | 1 << 63 | 1 << 62;
        assert_eq!(EIGHT.parity(empties), 0b0001);
        assert_eq!(EIGHT.odd_squares(0b0001) & empties, 1);
        assert_eq!(EIGHT.quadrant_bit[63], 0b1000);
        // On 6x6, f6 is in the last quadrant and c3 in the first.
        let six = Layout::of(BoardSize::Six);
        assert_eq!(six.quadrant_bit[45], 0b1000);
        assert_eq!(six.parity(1 << 45 | 1 << 18), 0b1001);
    }

    #[test]
    fn pick_brings_the_best_forward_and_keeps_every_move() {
        let black = (1u64 << 35) | (1 << 28);
        let white = (1u64 << 27) | (1 << 36);
        let moves = legal_moves(black, white);
        let mut list = ordered_moves(black, white, moves, EIGHT, 44);
        assert_eq!(list.len(), 4);
        assert_eq!(list.pick(0).square, 44, "the table's move comes first");
        let mut seen = 1u64 << 44;
        let mut last = i32::MAX;
        for i in 1..list.len() {
            let m = list.pick(i);
            assert!(m.value <= last);
            last = m.value;
            seen |= 1 << m.square;
            assert_eq!(m.flips, flips(m.square.into(), black, white));
        }
        assert_eq!(seen, moves);
    }

    proptest::proptest! {
        /// The branch-free pick against a plain selection (the first of the highest values, then
        /// swapped into place), over whole lists picked in turn: ties and extreme values included.
        #[test]
        fn pick_is_the_plain_selection(
            values in proptest::collection::vec(proptest::prop_oneof![-3i32..3, proptest::num::i32::ANY], 1..=MAX_MOVES)
        ) {
            let mut list = MoveList::new();
            for (j, &value) in values.iter().enumerate() {
                list.moves[j] = ScoredMove { square: j as u8, flips: 0, value };
            }
            list.len = values.len();
            let mut reference = list.moves;
            for i in 0..values.len() {
                let mut best = i;
                for j in i + 1..values.len() {
                    if reference[j].value > reference[best].value {
                        best = j;
                    }
                }
                reference.swap(i, best);
                proptest::prop_assert_eq!(list.pick(i).square, reference[i].square);
            }
        }
    }

    #[test]
    fn corner_stability_counts_corners_and_their_edge_neighbours() {
        assert_eq!(EIGHT.corner_stability(1), 1);
        assert_eq!(EIGHT.corner_stability(0b11 | 1 << 8), 3);
        assert_eq!(EIGHT.corner_stability(0b10), 0, "b1 without a1 is not safe");
        assert_eq!(EIGHT.corner_stability(1 << 63 | 1 << 62 | 1 << 55), 3);
        // 6x6: f6 with e6 and f5.
        let six = Layout::of(BoardSize::Six);
        assert_eq!(six.corner_stability(1 << 45 | 1 << 44 | 1 << 37), 3);
        assert_eq!(six.corner_stability(1 << 5 | 1 << 4 | 1 << 13), 3);
        assert_eq!(six.corner_stability(1 << 44), 0);
    }
}
