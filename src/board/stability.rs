//! Stable discs on the 8x8 board, fast enough for the endgame solver's stability cutoff.
//!
//! A stable disc can never be flipped, so the discs of the opponent that are stable bound the
//! final score of the side to move from above. The set found here is a safe under-estimate,
//! built the way the strong engines build it:
//!
//! - the discs on each edge that no sequence of moves along that edge can flip, read from a table
//!   of every edge configuration (an edge disc can only be flipped along its edge);
//! - the discs whose four lines (row, column, two diagonals) are completely filled;
//! - then, until nothing changes, every disc that on each of its four lines has a full line, the
//!   board's edge or a stable disc of its colour as a neighbour.
//!
//! [`crate::eval::features::Geometry::stable_discs`] is the plainer version for every board size
//! (no edge table, slower full-line test); the tests check that this one finds at least as much
//! and never calls a disc stable that some line of play flips.

use std::sync::OnceLock;

const COL_A: u64 = 0x0101_0101_0101_0101;
const COL_H: u64 = 0x8080_8080_8080_8080;
const ROW_1: u64 = 0x0000_0000_0000_00ff;
const ROW_8: u64 = 0xff00_0000_0000_0000;

/// Columns 0..c (a mask for the diagonal borders).
const fn columns_below(c: u32) -> u64 {
    let mut mask = 0;
    let mut col = 0;
    while col < c {
        mask |= COL_A << col;
        col += 1;
    }
    mask
}

/// Rows 0..r (a mask for the diagonal borders).
const fn rows_below(r: u32) -> u64 {
    if r == 0 { 0 } else { !0u64 >> (64 - 8 * r) }
}

/// Squares whose neighbour `k` steps away (k = 1, 2, 4) along direction +9 (towards h8) is off the
/// board, then along -9, +7 (towards a8) and -7.
const fn borders(k: u32) -> [u64; 4] {
    let high_cols = !columns_below(8 - k); // col >= 8 - k
    let low_cols = columns_below(k); // col < k
    let high_rows = !rows_below(8 - k); // row >= 8 - k
    let low_rows = rows_below(k); // row < k
    [high_cols | high_rows, low_cols | low_rows, low_cols | high_rows, high_cols | low_rows]
}

const BORDERS: [[u64; 4]; 3] = [borders(1), borders(2), borders(4)];

/// Squares whose line along one diagonal direction is full: grown by doubling from each square
/// towards both ends, a step being allowed to leave the board.
#[inline]
fn full_diagonal(filled: u64, shift: u32, forward: usize, backward: usize) -> u64 {
    let mut fwd = filled;
    let mut bwd = filled;
    for (step, border) in BORDERS.iter().enumerate() {
        let s = shift << step;
        fwd &= (fwd >> s) | border[forward];
        bwd &= (bwd << s) | border[backward];
    }
    fwd & bwd
}

/// For each of the four axes (rows, columns, the a1-h8 and the h1-a8 diagonal directions), the
/// squares whose line along that axis is completely filled.
#[inline]
pub fn full_lines(filled: u64) -> [u64; 4] {
    let mut t = filled;
    t &= t >> 4;
    t &= t >> 2;
    t &= t >> 1;
    let rows = (t & COL_A).wrapping_mul(0xff);
    let mut c = filled;
    c &= c.rotate_right(8);
    c &= c.rotate_right(16);
    c &= c.rotate_right(32);
    [rows, c, full_diagonal(filled, 9, 0, 1), full_diagonal(filled, 7, 2, 3)]
}

/// The 8 bits of column a (a1 = bit 0 … a8 = bit 7).
#[inline]
fn column_a_bits(b: u64) -> usize {
    // Each disc of column a lands on its own bit of the top byte: no two partial products overlap.
    ((b & COL_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// Column a from its 8 bits: the inverse of [`column_a_bits`].
static COLUMN_A_FROM_BITS: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut bits = 0;
    while bits < 256 {
        let mut k = 0;
        while k < 8 {
            if bits & (1 << k) != 0 {
                table[bits] |= 1u64 << (8 * k);
            }
            k += 1;
        }
        bits += 1;
    }
    table
};

/// The discs of the first colour that can never be flipped on a line of 8 squares holding
/// `player` and `opponent` (bit i = square i), for every pair: index `player << 8 | opponent`.
fn edge_table() -> &'static [u8; 65536] {
    static TABLE: OnceLock<Box<[u8; 65536]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([0u8; 65536]);
        let mut known = vec![false; 65536];
        for player in 0..256u32 {
            for opponent in 0..256u32 {
                if player & opponent == 0 {
                    edge_stable_line(player as u8, opponent as u8, &mut table, &mut known);
                }
            }
        }
        table
    })
}

/// The discs of `line` that `mover` flips by playing on `x` of an 8-square line.
fn line_flips(x: u32, mover: u8, other: u8) -> u8 {
    let mut flips = 0u8;
    for step in [-1i32, 1] {
        let mut run = 0u8;
        let mut i = x as i32 + step;
        while (0..8).contains(&i) && other & (1 << i) != 0 {
            run |= 1 << i;
            i += step;
        }
        if (0..8).contains(&i) && mover & (1 << i) != 0 {
            flips |= run;
        }
    }
    flips
}

/// Memoised search over every continuation of the line: a disc of `player` is stable when no
/// disc placed on an empty square, by either colour (a move on an edge square may be legal through
/// the board's inner lines even when it flips nothing along the edge), ever flips it.
fn edge_stable_line(player: u8, opponent: u8, table: &mut [u8; 65536], known: &mut [bool]) -> u8 {
    let index = usize::from(player) << 8 | usize::from(opponent);
    if known[index] {
        return table[index];
    }
    let mut stable = player;
    let empty = !(player | opponent);
    for x in 0..8 {
        if empty & (1 << x) == 0 {
            continue;
        }
        let bit = 1u8 << x;
        let f = line_flips(x, player, opponent);
        stable &= edge_stable_line(player | bit | f, opponent & !f, table, known);
        let f = line_flips(x, opponent, player);
        stable &= edge_stable_line(player & !f, opponent | bit | f, table, known);
        if stable == 0 {
            break;
        }
    }
    table[index] = stable;
    known[index] = true;
    stable
}

/// The discs of `player` on the four edges that no line of play can flip.
#[inline]
fn edge_stable(player: u64, opponent: u64) -> u64 {
    let table = edge_table();
    let edge = |p: usize, o: usize| u64::from(table[p << 8 | o]);
    let top = edge((player & ROW_1) as usize, (opponent & ROW_1) as usize);
    let bottom = edge((player >> 56) as usize, (opponent >> 56) as usize) << 56;
    let left = COLUMN_A_FROM_BITS[edge(column_a_bits(player), column_a_bits(opponent)) as usize];
    let right = COLUMN_A_FROM_BITS[edge(column_a_bits(player >> 7), column_a_bits(opponent >> 7)) as usize] << 7;
    top | bottom | left | right
}

/// The discs of `player` that can never be flipped (an under-estimate), on the 8x8 board.
#[inline]
pub fn stable_discs(player: u64, opponent: u64) -> u64 {
    stable_discs_up_to(player, opponent, 64)
}

/// [`stable_discs`], but the search for more stops once `enough` are found (the stability
/// cutoff needs only so many).
#[inline]
pub fn stable_discs_up_to(player: u64, opponent: u64, enough: u32) -> u64 {
    let [full_h, full_v, full_d9, full_d7] = full_lines(player | opponent);
    let mut stable = edge_stable(player, opponent) | (player & full_h & full_v & full_d9 & full_d7);
    if stable == 0 || stable.count_ones() >= enough {
        // Nothing to grow from (no disc can lean on a stable neighbour), or enough already.
        return stable;
    }
    loop {
        let s = stable;
        let horizontal = full_h | ((s << 1) & !COL_A) | ((s >> 1) & !COL_H) | COL_A | COL_H;
        let vertical = full_v | (s << 8) | (s >> 8) | ROW_1 | ROW_8;
        let diag9 = full_d9 | ((s << 9) & !COL_A) | ((s >> 9) & !COL_H) | COL_A | COL_H | ROW_1 | ROW_8;
        let diag7 = full_d7 | ((s << 7) & !COL_H) | ((s >> 7) & !COL_A) | COL_A | COL_H | ROW_1 | ROW_8;
        let next = stable | (player & horizontal & vertical & diag9 & diag7);
        if next == stable || next.count_ones() >= enough {
            return next;
        }
        stable = next;
    }
}

/// Builds the edge table now rather than in the first search that needs it.
pub fn init() {
    edge_table();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testing::{random_position, some_line_flips};
    use crate::board::{BoardSize, Position};
    use crate::eval::features::Geometry;
    use crate::rng::Rng;

    /// Full lines square by square: obviously correct, slow.
    fn reference_full_lines(filled: u64) -> [u64; 4] {
        let mut out = [0u64; 4];
        for (axis, (dc, dr)) in [(1i32, 0i32), (0, 1), (1, 1), (-1, 1)].into_iter().enumerate() {
            for sq in 0..64i32 {
                let (c, r) = (sq % 8, sq / 8);
                let mut full = true;
                for dir in [-1, 1] {
                    let (mut cc, mut rr) = (c, r);
                    while (0..8).contains(&cc) && (0..8).contains(&rr) {
                        if filled & (1u64 << (rr * 8 + cc)) == 0 {
                            full = false;
                        }
                        cc += dc * dir;
                        rr += dr * dir;
                    }
                }
                if full {
                    out[axis] |= 1u64 << sq;
                }
            }
        }
        out
    }

    #[test]
    fn full_lines_agree_with_the_square_walk() {
        let mut rng = Rng::new(9);
        for _ in 0..20_000 {
            // Dense boards, so that many lines are full.
            let filled = rng.next_u64() | rng.next_u64() | rng.next_u64();
            assert_eq!(full_lines(filled), reference_full_lines(filled), "{filled:#x}");
        }
        assert_eq!(full_lines(!0), [!0; 4]);
        assert_eq!(full_lines(0)[0], 0);
    }

    #[test]
    fn column_a_round_trips() {
        for (bits, &column) in COLUMN_A_FROM_BITS.iter().enumerate() {
            assert_eq!(column & !COL_A, 0);
            assert_eq!(column_a_bits(column), bits);
        }
    }

    #[test]
    fn edge_table_basics() {
        let table = edge_table();
        // A corner disc is stable; a lone inner edge disc is not.
        assert_eq!(table[0b1 << 8], 1);
        assert_eq!(table[0b1000 << 8], 0);
        // A full edge is all stable.
        assert_eq!(table[0x0f << 8 | 0xf0], 0x0f);
        // Corner and the disc next to it, the rest empty: both stable.
        assert_eq!(table[0b11 << 8], 0b11);
        // Mine at a1 and b1, theirs at c1, d1 empty: mine stay stable.
        assert_eq!(table[0b011 << 8 | 0b100], 0b011);
        // Theirs at a1, mine at b1 and c1: d1 by theirs flips them.
        assert_eq!(table[0b110 << 8 | 0b001], 0);
    }

    #[test]
    fn stable_discs_never_flip_and_include_the_plain_ones() {
        let mut rng = Rng::new(5);
        let plain = Geometry::of(BoardSize::Eight);
        let mut found = 0;
        for game in 0..400 {
            let pos = random_position(&mut rng, BoardSize::Eight, 4 + game % 6);
            let (p, o) = (pos.player(), pos.opponent());
            let mine = stable_discs(p, o);
            let theirs = stable_discs(o, p);
            assert_eq!(mine & !p, 0);
            assert_eq!(theirs & !o, 0);
            assert_eq!(plain.stable_discs(p, o) & !mine, 0, "the plain set is included: {pos}");
            assert_eq!(plain.stable_discs(o, p) & !theirs, 0, "the plain set is included: {pos}");
            assert!(!some_line_flips(&pos, mine | theirs), "a 'stable' disc flips in {pos}");
            found += (mine | theirs).count_ones();
        }
        assert!(found > 2000, "the test should see many stable discs, saw {found}");
    }

    /// The search cut short at `enough` discs finds some of the full set: all of it, or at least
    /// `enough`.
    #[test]
    fn stable_discs_up_to_stops_at_enough() {
        let mut rng = Rng::new(6);
        let mut short = 0;
        for game in 0..2000 {
            let pos = random_position(&mut rng, BoardSize::Eight, 1 + game % 20);
            let (p, o) = (pos.player(), pos.opponent());
            let all = stable_discs(p, o);
            for enough in [0, 1, 5, 10, 20, 30, 40, 64] {
                let some = stable_discs_up_to(p, o, enough);
                assert_eq!(some & !all, 0, "{pos}: {enough}");
                assert!(some == all || some.count_ones() >= enough, "{pos}: {enough}");
                short += usize::from(some != all);
            }
        }
        assert!(short > 100, "the test should see searches cut short, saw {short}");
    }

    #[test]
    fn full_board_is_stable() {
        let p = 0x5555_5555_5555_5555u64;
        assert_eq!(stable_discs(p, !p), p);
        let start = Position::initial();
        assert_eq!(stable_discs(start.player(), start.opponent()), 0);
    }
}
