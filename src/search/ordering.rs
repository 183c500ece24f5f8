//! Move ordering: which moves to try first so that alpha-beta cuts early.
//!
//! - Near the leaves of the solver, a fixed order: squares in quadrants with an odd number of
//!   empties first (parity: the side that plays last in a region gains), then by square class
//!   (corners, edges, inner squares, the squares next to an empty corner last).
//! - Higher in the tree each move gets a value from what it leaves the opponent: its replies
//!   (corners counted twice: "fastest first"), its potential mobility (empty squares next to our
//!   discs), and our discs made safe around the corners, plus small parity and square terms.
//!   The move from the transposition table comes before all.
//!
//! A [`MoveList`] lives on the stack of each node; [`MoveList::pick`] brings the best remaining
//! move forward one at a time, so a node that cuts on its first move sorts nothing else.

use crate::board::movegen::{flips, legal_moves};
use crate::eval::features::neighbours;

/// More moves than any Othello position has (33 is the most known).
pub const MAX_MOVES: usize = 40;

/// Square classes, best first: corners; edge squares away from the corners; inner squares;
/// C-squares (edge squares next to a corner); X-squares (diagonal neighbours of a corner).
pub const SQUARE_CLASSES: [u64; 5] =
    [0x8100_0000_0000_0081, 0x3c00_8181_8181_003c, 0x003c_7e7e_7e7e_3c00, 0x4281_0000_0000_8142, 0x0042_0000_0000_4200];

/// The four corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// A small bonus per square class, for ties.
static SQUARE_VALUE: [i32; 64] = {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut class = 0;
        while class < SQUARE_CLASSES.len() {
            if SQUARE_CLASSES[class] & (1u64 << sq) != 0 {
                table[sq] = 4 - class as i32;
            }
            class += 1;
        }
        sq += 1;
    }
    table
};

/// The square-class value of a square (corners highest), for ordering by square alone.
#[inline]
pub fn square_value(square: u8) -> i32 {
    SQUARE_VALUE[usize::from(square & 63)]
}

/// The four quadrants of the 8x8 grid (the smaller boards use the same split).
const QUADRANTS: [u64; 4] =
    [0x0000_0000_0f0f_0f0f, 0x0000_0000_f0f0_f0f0, 0x0f0f_0f0f_0000_0000, 0xf0f0_f0f0_0000_0000];

/// The quadrant bit of each square.
pub static QUADRANT_BIT: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut q = 0;
        while q < 4 {
            if QUADRANTS[q] & (1u64 << sq) != 0 {
                table[sq] = 1 << q;
            }
            q += 1;
        }
        sq += 1;
    }
    table
};

/// The squares of the quadrants whose bit is set, for each of the 16 parity patterns.
static PARITY_SQUARES: [u64; 16] = {
    let mut table = [0u64; 16];
    let mut parity = 0;
    while parity < 16 {
        let mut q = 0;
        while q < 4 {
            if parity & (1 << q) != 0 {
                table[parity] |= QUADRANTS[q];
            }
            q += 1;
        }
        parity += 1;
    }
    table
};

/// Bit q set when quadrant q holds an odd number of the `empties`.
#[inline]
pub fn parity(empties: u64) -> u8 {
    let mut p = 0;
    for (q, quadrant) in QUADRANTS.iter().enumerate() {
        p |= ((empties & quadrant).count_ones() as u8 & 1) << q;
    }
    p
}

/// The squares lying in the quadrants marked odd in `parity`.
#[inline]
pub fn odd_squares(parity: u8) -> u64 {
    PARITY_SQUARES[usize::from(parity & 15)]
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
        let mut best = i;
        for j in i + 1..self.len {
            if self.moves[j].value > self.moves[best].value {
                best = j;
            }
        }
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

/// Our discs on a corner or on an edge square next to a corner we hold: discs that will not be
/// flipped soon.
#[inline]
fn corner_stability(discs: u64) -> u32 {
    let corners = discs & CORNERS;
    let next = ((corners & 0x0100_0000_0000_0001) << 1)
        | ((corners & 0x8000_0000_0000_0080) >> 1)
        | ((corners & 0x0000_0000_0000_0081) << 8)
        | ((corners & 0x8100_0000_0000_0000) >> 8);
    (corners | (next & discs)).count_ones()
}

/// The ordering value of `player` playing `square` (flipping `flips`) against `opponent`: few
/// replies for the opponent, few empty squares next to our discs, safe discs near the corners,
/// the quadrant parity and the square class.
#[inline]
pub fn move_value(player: u64, opponent: u64, square: u8, flips: u64, playable: u64, parity: u8) -> i32 {
    move_value_and_replies(player, opponent, square, flips, playable, parity).0
}

/// [`move_value`], with the opponent's replies after the move (all of them, before `playable`
/// masks them), which the caller may reuse rather than generate them again.
#[inline]
pub fn move_value_and_replies(
    player: u64,
    opponent: u64,
    square: u8,
    flips: u64,
    playable: u64,
    parity: u8,
) -> (i32, u64) {
    let bit = 1u64 << square;
    let next_player = opponent ^ flips;
    let next_opponent = player ^ flips ^ bit;
    let empty = !(next_player | next_opponent) & playable;
    let all_replies = legal_moves(next_player, next_opponent);
    let replies = all_replies & playable;
    let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
    let potential = (neighbours(next_opponent) & empty).count_ones() as i32;
    let parity_bonus = if QUADRANT_BIT[usize::from(square)] & parity != 0 { W_PARITY } else { 0 };
    let value = -mobility * W_MOBILITY - potential * W_POTENTIAL
        + corner_stability(next_opponent) as i32 * W_CORNER_STABILITY
        + parity_bonus
        + SQUARE_VALUE[usize::from(square)];
    (value, all_replies)
}

/// The legal moves of `player` with their ordering values, `first` (the table's move, if legal)
/// valued above all.
#[inline]
pub fn ordered_moves(player: u64, opponent: u64, moves: u64, playable: u64, first: u8) -> MoveList {
    let mut list = MoveList::generate(player, opponent, moves);
    let parity = parity(!(player | opponent) & playable);
    for m in list.as_mut_slice() {
        m.value =
            if m.square == first { FIRST } else { move_value(player, opponent, m.square, m.flips, playable, parity) };
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_classes_cover_the_board_once() {
        let mut all = 0u64;
        for class in SQUARE_CLASSES {
            assert_eq!(all & class, 0);
            all |= class;
        }
        assert_eq!(all, !0);
        assert_eq!(SQUARE_VALUE[0], 4);
        assert_eq!(SQUARE_VALUE[9], 0, "b2 is an X-square");
    }

    #[test]
    fn parity_marks_odd_quadrants() {
        // a1 alone in its quadrant, h8 and g8 together in theirs.
        let empties = 1u64 | 1 << 63 | 1 << 62;
        assert_eq!(parity(empties), 0b0001);
        assert_eq!(odd_squares(0b0001) & empties, 1);
        assert_eq!(QUADRANT_BIT[63], 0b1000);
    }

    #[test]
    fn pick_brings_the_best_forward_and_keeps_every_move() {
        let black = (1u64 << 35) | (1 << 28);
        let white = (1u64 << 27) | (1 << 36);
        let moves = legal_moves(black, white);
        let mut list = ordered_moves(black, white, moves, !0, 44);
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

    #[test]
    fn corner_stability_counts_corners_and_their_edge_neighbours() {
        assert_eq!(corner_stability(1), 1);
        assert_eq!(corner_stability(0b11 | 1 << 8), 3);
        assert_eq!(corner_stability(0b10), 0, "b1 without a1 is not safe");
    }
}
