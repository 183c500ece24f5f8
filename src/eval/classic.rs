//! The evaluations of the classic course engines, selectable for play and for comparison:
//! disc difference, GNOME Iagno's static weights, Sannidhanam & Annamalai's static weights and
//! John Fish's corner/edge heuristic (the Flippy tutorial). Tables are given for 8x8 and carried to
//! 4x4 and 6x6 by the role of each square (corner, next to a corner, edge, centre).
//!
//! Each returns centi-discs for the side to move. The weighted sums have no unit of their own, so
//! they are scaled to at most ±64 discs (the largest possible sum maps to 6400), which keeps them
//! comparable with the exact scores of finished games inside the search.

use super::EvalPart;
use super::features::Geometry;
use crate::board::{BoardSize, Position};

/// Iagno's weights for rows 1-4 of 8x8 (rows 5-8 mirror them).
const IAGNO: [[i32; 8]; 4] = [
    [410, 23, 13, 8, 8, 13, 23, 410],
    [23, -75, -22, -51, -51, -22, -75, 23],
    [13, -22, 41, 3, 3, 41, -22, 13],
    [8, -51, 3, -87, -87, 3, -51, 8],
];

/// Sannidhanam & Annamalai's weights for rows 1-4 of 8x8 (rows 5-8 mirror them).
const SANNIDHANAM: [[i32; 8]; 4] = [
    [4, -3, 2, 2, 2, 2, -3, 4],
    [-3, -4, -1, -1, -1, -1, -4, -3],
    [2, -1, 1, 0, 0, 1, -1, 2],
    [2, -1, 0, 1, 1, 0, -1, 2],
];

/// The 8x8 row or column (0..4, mirrored) that plays the role of line `i` on an `n`-line board:
/// the edge, the line next to it, the centre, and the lines between.
const fn role(i: usize, n: usize) -> usize {
    let i = if i >= n / 2 { n - 1 - i } else { i };
    if i <= 1 {
        i
    } else if i == n / 2 - 1 {
        3
    } else {
        2
    }
}

/// A quarter table of 8x8 spread over every square of an n x n board.
const fn spread(quarter: &[[i32; 8]; 4], n: usize) -> [i32; 64] {
    let mut table = [0i32; 64];
    let mut r = 0;
    while r < n {
        let mut c = 0;
        while c < n {
            table[r * 8 + c] = quarter[role(r, n)][role(c, n)];
            c += 1;
        }
        r += 1;
    }
    table
}

/// A square-weight table with its scale: the sum of the absolute weights.
pub struct WeightTable {
    weights: [i32; 64],
    total: i32,
}

impl WeightTable {
    const fn new(quarter: &[[i32; 8]; 4], n: usize) -> WeightTable {
        let weights = spread(quarter, n);
        let mut total = 0;
        let mut i = 0;
        while i < 64 {
            total += weights[i].abs();
            i += 1;
        }
        WeightTable { weights, total }
    }

    /// The weight of square `index`.
    pub fn weight(&self, index: usize) -> i32 {
        self.weights[index]
    }

    /// Σ weight × (+1 mine, −1 theirs).
    pub fn raw(&self, player: u64, opponent: u64) -> i32 {
        let mut sum = 0;
        let mut bits = player | opponent;
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let w = self.weights[sq];
            sum += if player >> sq & 1 != 0 { w } else { -w };
        }
        sum
    }

    /// The raw sum scaled to centi-discs.
    pub fn scaled(&self, raw: i32) -> i32 {
        raw * 6400 / self.total.max(1)
    }
}

static IAGNO_TABLES: [WeightTable; 3] =
    [WeightTable::new(&IAGNO, 4), WeightTable::new(&IAGNO, 6), WeightTable::new(&IAGNO, 8)];
static SANNIDHANAM_TABLES: [WeightTable; 3] =
    [WeightTable::new(&SANNIDHANAM, 4), WeightTable::new(&SANNIDHANAM, 6), WeightTable::new(&SANNIDHANAM, 8)];

fn table_index(size: BoardSize) -> usize {
    match size {
        BoardSize::Four => 0,
        BoardSize::Six => 1,
        BoardSize::Eight => 2,
    }
}

/// Iagno's table for a board size.
pub fn iagno_table(size: BoardSize) -> &'static WeightTable {
    &IAGNO_TABLES[table_index(size)]
}

/// Sannidhanam & Annamalai's table for a board size.
pub fn sannidhanam_table(size: BoardSize) -> &'static WeightTable {
    &SANNIDHANAM_TABLES[table_index(size)]
}

/// Disc difference, in centi-discs.
pub fn discs(pos: &Position) -> i32 {
    pos.disc_difference() * 100
}

/// A weight table's sum, scaled.
pub fn weighted(table: &WeightTable, pos: &Position) -> i32 {
    table.scaled(table.raw(pos.player(), pos.opponent()))
}

/// The parts of a weight-table evaluation: the raw sum and its scaled value.
pub fn weighted_parts(table: &WeightTable, pos: &Position) -> Vec<EvalPart> {
    let raw = table.raw(pos.player(), pos.opponent());
    vec![EvalPart { name: "weights", raw, score: table.scaled(raw) }]
}

/// The corner/edge heuristic for one side: corners 25, edges 3, other squares 1, and the three
/// squares next to a corner −5 while the corner is not the side's own, +3 once it is.
fn corner_edge_raw(g: &Geometry, mine: u64) -> i32 {
    let mut score = 0;
    let corner_zone: u64 = (0..4).fold(0, |z, i| z | g.x_squares[i] | g.c_squares[i]);
    for i in 0..4 {
        let near = g.x_squares[i] | g.c_squares[i];
        let weight = if mine & g.corner_list[i] != 0 { 3 } else { -5 };
        score += weight * (mine & near).count_ones() as i32;
    }
    score += 25 * (mine & g.corners).count_ones() as i32;
    score += 3 * (mine & g.edges & !g.corners & !corner_zone).count_ones() as i32;
    score += (mine & !g.edges & !corner_zone).count_ones() as i32;
    score
}

/// The largest possible corner/edge sum on a board: every square at its largest weight.
fn corner_edge_bound(g: &Geometry) -> i32 {
    corner_edge_raw(g, g.playable).max(1)
}

/// The corner/edge heuristic, mine minus theirs, scaled to centi-discs.
pub fn corner_edge(pos: &Position) -> i32 {
    corner_edge_parts(pos)[0].score
}

/// The parts of the corner/edge heuristic.
pub fn corner_edge_parts(pos: &Position) -> Vec<EvalPart> {
    let g = Geometry::of(pos.size());
    let raw = corner_edge_raw(g, pos.player()) - corner_edge_raw(g, pos.opponent());
    vec![EvalPart { name: "corner-edge", raw, score: raw * 6400 / corner_edge_bound(g) }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_by_eight_tables_are_the_published_ones() {
        let t = iagno_table(BoardSize::Eight);
        assert_eq!(t.weight(0), 410);
        assert_eq!(t.weight(9), -75);
        assert_eq!(t.weight(27), -87);
        assert_eq!(t.weight(63), 410);
        assert_eq!(t.weight(7 * 8 + 1), 23); // b8 mirrors b1
        let s = sannidhanam_table(BoardSize::Eight);
        assert_eq!((0..8).map(|c| s.weight(c)).collect::<Vec<_>>(), [4, -3, 2, 2, 2, 2, -3, 4]);
        assert_eq!(s.weight(27), 1);
    }

    #[test]
    fn small_tables_keep_the_shape() {
        for size in [BoardSize::Four, BoardSize::Six] {
            let n = size.side();
            let t = iagno_table(size);
            let at = |c: usize, r: usize| t.weight(r * 8 + c);
            assert_eq!(at(0, 0), 410, "{size} corner");
            assert_eq!(at(n - 1, n - 1), 410, "{size} corner");
            assert_eq!(at(1, 1), -75, "{size} X-square");
            assert_eq!(at(1, 0), 23, "{size} C-square");
            assert_eq!(at(n, 0), 0, "{size}: nothing off the board");
        }
        assert_eq!(iagno_table(BoardSize::Six).weight(2 * 8 + 2), -87, "6x6 centre");
    }

    #[test]
    fn evaluations_are_antisymmetric_and_bounded() {
        let pos = Position::initial().play("f5".parse().unwrap());
        for f in [discs, corner_edge, |p: &Position| weighted(iagno_table(p.size()), p)] {
            assert_eq!(f(&pos), -f(&pos.pass()));
            assert!(f(&pos).abs() <= 6400);
        }
        assert_eq!(discs(&pos), -300);
    }

    #[test]
    fn corner_edge_counts_corner_ownership() {
        let g = Geometry::of(BoardSize::Eight);
        // a1 corner alone: 25. b1 alone (C-square, corner not mine): -5. Both: 25 + 3.
        assert_eq!(corner_edge_raw(g, 1), 25);
        assert_eq!(corner_edge_raw(g, 2), -5);
        assert_eq!(corner_edge_raw(g, 3), 28);
        assert_eq!(corner_edge_raw(g, 1 << 3), 3, "d1 is an edge");
        assert_eq!(corner_edge_raw(g, 1 << 27), 1, "d4 is a normal square");
    }
}
