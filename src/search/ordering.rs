//! Move ordering: which moves to try first so that alpha-beta cuts early.
//!
//! Near the leaves a fixed square order is enough (corners, then edges, then the centre, the
//! squares next to an empty corner last). Higher in the tree each move is scored by the
//! opponent's mobility after it ("fastest first") with the square order as a tie-break.

use crate::board::movegen::{flips, legal_moves};

/// Squares in priority groups, best first: corners; edge squares away from the corners; (every
/// other square: the inner squares); C-squares; X-squares. Smaller boards reuse the 8x8 groups,
/// which only makes their ordering a little less sharp.
const GROUPS: [(u64, u8); 4] = [
    (0x8100_0000_0000_0081, 0), // corners
    (0x3c00_8181_8181_003c, 1), // edges, away from corners
    (0x4281_0000_0000_8142, 3), // C-squares
    (0x0042_0000_0000_4200, 4), // X-squares
];

/// A priority per square (lower first), from `GROUPS`.
static SQUARE_PRIORITY: [u8; 64] = build_priority();

const fn build_priority() -> [u8; 64] {
    let mut prio = [2u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let bit = 1u64 << sq;
        let mut g = 0;
        while g < GROUPS.len() {
            if GROUPS[g].0 & bit != 0 {
                prio[sq] = GROUPS[g].1;
            }
            g += 1;
        }
        sq += 1;
    }
    prio
}

/// The static priority of square `index` (0 best).
#[inline]
pub fn square_priority(index: usize) -> u8 {
    SQUARE_PRIORITY[index]
}

/// A move with its ordering key (lower is tried first).
#[derive(Clone, Copy, Debug)]
pub struct ScoredMove {
    /// Square index.
    pub square: u8,
    /// Opponent discs flipped.
    pub flips: u64,
    /// Ordering key.
    pub key: i32,
}

/// Scores and sorts `moves` of `player` against `opponent`, `first` (if among them) leading.
/// With `fastest_first`, the key is the opponent's mobility after the move; otherwise only the
/// square priority counts.
pub fn order_moves(
    player: u64,
    opponent: u64,
    moves: u64,
    playable: u64,
    first: Option<u8>,
    fastest_first: bool,
    out: &mut Vec<ScoredMove>,
) {
    out.clear();
    let mut bits = moves;
    while bits != 0 {
        let sq = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let f = flips(sq, player, opponent);
        let mut key = i32::from(SQUARE_PRIORITY[sq]);
        if fastest_first {
            let next_player = opponent ^ f;
            let next_opponent = player ^ f ^ (1u64 << sq);
            let replies = (legal_moves(next_player, next_opponent) & playable).count_ones() as i32;
            key += replies * 8;
        }
        if first == Some(sq as u8) {
            key = i32::MIN;
        }
        out.push(ScoredMove { square: sq as u8, flips: f, key });
    }
    // Insertion sort: the lists are short and often nearly sorted.
    for i in 1..out.len() {
        let m = out[i];
        let mut j = i;
        while j > 0 && out[j - 1].key > m.key {
            out[j] = out[j - 1];
            j -= 1;
        }
        out[j] = m;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_first_x_squares_last() {
        assert_eq!(square_priority(0), 0);
        assert_eq!(square_priority(63), 0);
        assert_eq!(square_priority(9), 4, "b2 is an X-square");
        assert_eq!(square_priority(1), 3, "b1 is a C-square");
        assert_eq!(square_priority(2), 1, "c1 is an edge square");
        assert_eq!(square_priority(27), 2, "d4 is an inner square");
        let counts: Vec<usize> = (0..5).map(|p| SQUARE_PRIORITY.iter().filter(|&&q| q == p).count()).collect();
        assert_eq!(counts, [4, 16, 32, 8, 4]);
    }

    #[test]
    fn ordering_keeps_every_move_and_puts_the_hint_first() {
        let black = (1u64 << 35) | (1 << 28);
        let white = (1u64 << 27) | (1 << 36);
        let moves = legal_moves(black, white);
        let mut out = Vec::new();
        order_moves(black, white, moves, !0, Some(44), true, &mut out);
        assert_eq!(out.len(), 4);
        assert_eq!(out[0].square, 44);
        assert_eq!(out.iter().fold(0u64, |m, s| m | 1 << s.square), moves);
        assert!(out.windows(2).all(|w| w[0].key <= w[1].key));
    }
}
