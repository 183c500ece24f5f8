//! Board features shared by the evaluations: mobility, frontier, corners and their neighbours,
//! stable discs. All take raw bitboards and the board's playable mask, so they work on every size.

use crate::board::movegen::legal_moves;

const COL_A: u64 = 0x0101_0101_0101_0101;
const COL_H: u64 = 0x8080_8080_8080_8080;
const ROW_1: u64 = 0x0000_0000_0000_00ff;
const ROW_8: u64 = 0xff00_0000_0000_0000;

/// The squares next to at least one square of `b` (in the 8 directions), on the 64-bit grid.
#[inline]
pub const fn neighbours(b: u64) -> u64 {
    let sideways = ((b << 1) & !COL_A) | ((b >> 1) & !COL_H);
    let row = b | sideways;
    sideways | (row << 8) | (row >> 8)
}

/// The one-bit mask of column `c`, row `r`.
const fn bit(c: u32, r: u32) -> u64 {
    1u64 << (r * 8 + c)
}

/// The geometry of a board size: corners and the squares around them.
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    /// Playable squares.
    pub playable: u64,
    /// The four corners.
    pub corners: u64,
    /// For each corner, in the order of `corner_list`: its X-square (diagonal neighbour) and its two
    /// C-squares (edge neighbours).
    pub corner_list: [u64; 4],
    /// The X-square next to each corner.
    pub x_squares: [u64; 4],
    /// The two C-squares next to each corner.
    pub c_squares: [u64; 4],
    /// The squares on the edge of the board.
    pub edges: u64,
}

impl Geometry {
    /// The geometry of the n x n board in the top-left corner of the grid.
    pub const fn new(n: u32) -> Geometry {
        let last = n - 1;
        let corner_list = [bit(0, 0), bit(last, 0), bit(0, last), bit(last, last)];
        let x_squares = [bit(1, 1), bit(last - 1, 1), bit(1, last - 1), bit(last - 1, last - 1)];
        let c_squares = [
            bit(1, 0) | bit(0, 1),
            bit(last - 1, 0) | bit(last, 1),
            bit(0, last - 1) | bit(1, last),
            bit(last - 1, last) | bit(last, last - 1),
        ];
        let mut playable = 0u64;
        let mut edges = 0u64;
        let mut r = 0;
        while r < n {
            let mut c = 0;
            while c < n {
                playable |= bit(c, r);
                if r == 0 || c == 0 || r == last || c == last {
                    edges |= bit(c, r);
                }
                c += 1;
            }
            r += 1;
        }
        Geometry {
            playable,
            corners: corner_list[0] | corner_list[1] | corner_list[2] | corner_list[3],
            corner_list,
            x_squares,
            c_squares,
            edges,
        }
    }

    /// The geometry of the given board size.
    pub fn of(size: crate::board::BoardSize) -> &'static Geometry {
        use crate::board::BoardSize;
        static FOUR: Geometry = Geometry::new(4);
        static SIX: Geometry = Geometry::new(6);
        static EIGHT: Geometry = Geometry::new(8);
        match size {
            BoardSize::Four => &FOUR,
            BoardSize::Six => &SIX,
            BoardSize::Eight => &EIGHT,
        }
    }

    /// For each of the four axes (rows, columns, the a1-h8 and the h1-a8 diagonal directions), the
    /// squares whose line along that axis is completely filled: the 8x8 board's test, with the
    /// squares off this board counted as filled (a line of the 8x8 grid is then full exactly where
    /// its part on this board is).
    fn full_lines(&self, occupied: u64) -> [u64; 4] {
        crate::board::stability::full_lines(occupied | !self.playable)
    }

    /// The discs of `player` that can never be flipped, found as a fixed point: a disc is stable
    /// when, on each of its four lines, the line is full or one of its two neighbours is the edge
    /// or a stable disc of the same colour.
    pub fn stable_discs(&self, player: u64, opponent: u64) -> u64 {
        let wall = !self.playable;
        let [full_h, full_v, full_d1, full_d2] = self.full_lines(player | opponent);
        let mut stable = 0u64;
        loop {
            let s = stable | wall;
            let west = ((s << 1) & !COL_A) | COL_A;
            let east = ((s >> 1) & !COL_H) | COL_H;
            let north = (s << 8) | ROW_1;
            let south = (s >> 8) | ROW_8;
            let nw = ((s << 9) & !COL_A) | COL_A | ROW_1;
            let se = ((s >> 9) & !COL_H) | COL_H | ROW_8;
            let ne = ((s << 7) & !COL_H) | COL_H | ROW_1;
            let sw = ((s >> 7) & !COL_A) | COL_A | ROW_8;
            let next =
                player & (full_h | west | east) & (full_v | north | south) & (full_d1 | nw | se) & (full_d2 | ne | sw);
            if next == stable {
                return stable;
            }
            stable = next;
        }
    }
}

/// Legal-move counts of both sides on the given board.
#[inline]
pub fn mobility(player: u64, opponent: u64, playable: u64) -> (u64, u64) {
    (legal_moves(player, opponent) & playable, legal_moves(opponent, player) & playable)
}

/// The discs of `discs` that touch an empty square: the frontier.
#[inline]
pub fn frontier(discs: u64, empties: u64) -> u64 {
    discs & neighbours(empties)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testing::some_line_flips;
    use crate::board::{BoardSize, Position};

    /// Stability by brute force: a disc is stable if no sequence of moves... too slow in general, so
    /// check the cases that matter: corners are stable, and a full board is all stable.
    #[test]
    fn stability_basics() {
        let g = Geometry::of(BoardSize::Eight);
        // A lone corner disc is stable, a lone centre disc is not.
        assert_eq!(g.stable_discs(1, 0), 1);
        assert_eq!(g.stable_discs(1 << 27, 1 << 28), 0);
        // A full row 1 of mine with row 2 of theirs: all of row 1 is stable.
        assert_eq!(g.stable_discs(0xff, 0xff00) & 0xff, 0xff);
        // A full board: everything is stable.
        let p = 0x5555_5555_5555_5555u64;
        assert_eq!(g.stable_discs(p, !p), p);
        // The start position has no stable disc.
        let start = Position::initial();
        assert_eq!(g.stable_discs(start.player(), start.opponent()), 0);
        // On 4x4 the corner a1 and the edge behind it are walls.
        let g4 = Geometry::of(BoardSize::Four);
        assert_eq!(g4.stable_discs(0b1000, 0), 0b1000, "d1 is a corner of 4x4");
    }

    /// The full lines of the squares of each board, against a walk along each line on that board.
    #[test]
    fn full_lines_agree_with_a_walk_on_each_board() {
        let mut rng = crate::rng::Rng::new(5);
        for (size, n) in [(BoardSize::Four, 4i32), (BoardSize::Six, 6), (BoardSize::Eight, 8)] {
            let g = Geometry::of(size);
            for round in 0..2000 {
                // Mostly full boards, so that full lines occur.
                let holes = round % 6;
                let mut occupied = g.playable;
                for _ in 0..holes {
                    occupied &= !(1u64 << (rng.next_u64() % 64));
                }
                let lines = g.full_lines(occupied);
                for sq in 0..64 {
                    if g.playable & (1u64 << sq) == 0 {
                        continue;
                    }
                    let (r, c) = (sq / 8, sq % 8);
                    for (axis, (dr, dc)) in [(0, 1), (1, 0), (1, 1), (1, -1)].into_iter().enumerate() {
                        let mut full = true;
                        for sign in [-1, 1] {
                            let (mut rr, mut cc) = (r, c);
                            while (0..n).contains(&rr) && (0..n).contains(&cc) {
                                full &= occupied & (1u64 << (rr * 8 + cc)) != 0;
                                rr += sign * dr;
                                cc += sign * dc;
                            }
                        }
                        assert_eq!(
                            lines[axis] & (1u64 << sq) != 0,
                            full,
                            "{size} {occupied:#x} square {sq} axis {axis}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn geometry_of_each_size() {
        let g = Geometry::of(BoardSize::Six);
        assert_eq!(g.corners, 1 | (1 << 5) | (1 << 40) | (1 << 45));
        assert_eq!(g.x_squares[0], 1 << 9);
        assert_eq!(g.c_squares[3], (1 << 44) | (1 << 37));
        assert_eq!(g.edges.count_ones(), 20);
        assert_eq!(Geometry::of(BoardSize::Eight).edges.count_ones(), 28);
    }

    #[test]
    fn one_colour_everywhere_is_stable() {
        let g = Geometry::of(BoardSize::Eight);
        let black = !1u64;
        assert_eq!(g.stable_discs(black, 0), black);
        // b1 white between an empty a1 and a black c1 can be flipped by Black at a1.
        let white = 1u64 << 1;
        assert_eq!(g.stable_discs(white, !1 & !white), 0);
    }

    #[test]
    fn stable_discs_never_flip_in_any_continuation() {
        // Random games played to a few empties; every disc called stable must survive every line.
        let mut rng = crate::rng::Rng::new(1);
        let mut checked = 0;
        for game in 0..300 {
            let size = BoardSize::ALL[game % 3];
            let pos = crate::board::testing::random_position(&mut rng, size, 4 + (game % 5) as u32);
            let g = Geometry::of(size);
            let stable = g.stable_discs(pos.player(), pos.opponent()) | g.stable_discs(pos.opponent(), pos.player());
            assert_eq!(stable & !(pos.player() | pos.opponent()), 0);
            assert!(!some_line_flips(&pos, stable), "a 'stable' disc flips in {pos}");
            checked += stable.count_ones();
        }
        assert!(checked > 1000, "the test should see many stable discs, saw {checked}");
    }
}
