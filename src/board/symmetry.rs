//! The 8 symmetries of the square board (the dihedral group: rotations and reflections), on
//! squares and on bitboards, and the canonical form of a position under them.
//!
//! Symmetry `s` (0..8) is a map of squares ([`symmetric_square`]); [`views`] reads a bitboard
//! through each. The pattern evaluation reads its features through them, and the opening book and
//! the opening names store one entry for a position and its 7 images, under its [`canonical`]
//! form.

/// The square that symmetry `s` (0..8) maps `square` to: bit 2 of `s` transposes (a1-h8
/// diagonal), then bit 1 flips the rows, then bit 0 mirrors the columns.
pub const fn symmetric_square(s: u8, square: u8) -> u8 {
    let (mut col, mut row) = (square % 8, square / 8);
    if s & 4 != 0 {
        (col, row) = (row, col);
    }
    if s & 2 != 0 {
        row = 7 - row;
    }
    if s & 1 != 0 {
        col = 7 - col;
    }
    row * 8 + col
}

/// Reverses the columns (a ↔ h).
#[inline]
pub const fn mirror(mut x: u64) -> u64 {
    x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1);
    x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2);
    ((x >> 4) & 0x0f0f_0f0f_0f0f_0f0f) | ((x & 0x0f0f_0f0f_0f0f_0f0f) << 4)
}

/// Reverses the rows (1 ↔ 8).
#[inline]
pub const fn flip(x: u64) -> u64 {
    x.swap_bytes()
}

/// Swaps columns and rows (b1 ↔ a2).
#[inline]
pub const fn transpose(mut x: u64) -> u64 {
    let t = 0x0f0f_0f0f_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// The 8 views of a bitboard: `views(b)[s]` has at square q what `b` has at
/// `symmetric_square(s, q)`, so the canonical placement read in view s is placement s on `b`.
#[inline]
pub fn views(b: u64) -> [u64; 8] {
    let m = mirror(b);
    let f = flip(b);
    let fm = flip(m);
    [b, m, f, fm, transpose(b), transpose(m), transpose(f), transpose(fm)]
}

/// The symmetry that undoes `s`: `symmetric_square(inverse(s), symmetric_square(s, q)) == q`.
/// Without the transpose each map is its own inverse; with it, undoing swaps which of the row
/// flip and the column mirror comes first.
pub const fn inverse(s: u8) -> u8 {
    if s & 4 == 0 { s } else { 4 | (s & 1) << 1 | (s & 2) >> 1 }
}

/// The view of `b` through symmetry `s`: `image(s, b)` has at square q what `b` has at
/// `symmetric_square(s, q)` (one entry of [`views`]).
#[inline]
pub fn image(s: u8, b: u64) -> u64 {
    views(b)[usize::from(s & 7)]
}

/// The canonical form of a position (the side to move's discs `player`, the other side's
/// `opponent`): the least (player, opponent) pair among its 8 views, with the symmetry `s` that
/// gives it. A square q of the canonical board is square `symmetric_square(s, q)` of the
/// position; a square m of the position is `symmetric_square(inverse(s), m)` there.
#[inline]
pub fn canonical(player: u64, opponent: u64) -> (u64, u64, u8) {
    let (pv, ov) = (views(player), views(opponent));
    let mut best = (pv[0], ov[0], 0u8);
    for s in 1..8 {
        if (pv[s], ov[s]) < (best.0, best.1) {
            best = (pv[s], ov[s], s as u8);
        }
    }
    best
}

/// The symmetries other than the identity that map the position (the side to move's discs
/// `player`, the other side's `opponent`) onto itself, as a set: bit `s` for symmetry `s`. Empty
/// for most positions; the start position has three (the two diagonals and the half turn).
pub fn self_symmetries(player: u64, opponent: u64) -> u8 {
    let (pv, ov) = (views(player), views(opponent));
    (1..8).filter(|&s| pv[s] == player && ov[s] == opponent).fold(0, |set, s| set | 1 << s)
}

/// The move of a class of moves that a position's symmetries make equivalent that Magpie plays
/// and shows: the conventional image, the one furthest right (the highest column), then lowest
/// (the highest row). Of the start's d3, c4, f5 and e6 it is f5, as players, books and GUIs
/// write the first move.
pub fn conventional_square(symmetries: u8, square: u8) -> u8 {
    let key = |q: u8| (q % 8, q / 8);
    (1..8u8)
        .filter(|s| symmetries & 1 << s != 0)
        .map(|s| symmetric_square(s, square))
        .fold(square, |best, q| if key(q) > key(best) { q } else { best })
}

/// Of the squares of `moves`, one of each class that a position's `symmetries` (as
/// [`self_symmetries`] gives them) make equivalent: the conventional image of the class's squares
/// in `moves` (see [`conventional_square`]); every move when the position has no symmetry.
pub fn conventional_moves(symmetries: u8, moves: u64) -> u64 {
    if symmetries == 0 {
        return moves;
    }
    let key = |q: u8| (q % 8, q / 8);
    let mut kept = 0;
    let mut rest = moves;
    while rest != 0 {
        let square = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let beaten = (1..8u8)
            .filter(|s| symmetries & 1 << s != 0)
            .map(|s| symmetric_square(s, square))
            .any(|q| moves & 1 << q != 0 && key(q) > key(square));
        if !beaten {
            kept |= 1 << square;
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_has_three_symmetries_and_f5_is_its_conventional_move() {
        let (black, white) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        let symmetries = self_symmetries(black, white);
        assert_eq!(symmetries.count_ones(), 3, "{symmetries:b}");
        let square = |name: &str| {
            let b = name.as_bytes();
            (b[1] - b'1') * 8 + (b[0] - b'a')
        };
        let moves = ["d3", "c4", "f5", "e6"].iter().fold(0u64, |m, s| m | 1 << square(s));
        assert_eq!(conventional_moves(symmetries, moves), 1 << square("f5"));
        for first in ["d3", "c4", "e6", "f5"] {
            assert_eq!(conventional_square(symmetries, square(first)), square("f5"), "{first}");
        }
        // Without f5 (a book that asks for the best move it does not hold), e6 stands for the rest.
        assert_eq!(conventional_moves(symmetries, moves & !(1 << square("f5"))), 1 << square("e6"));
        // After f5 no symmetry is left: every move is its own class.
        let (after_white, after_black) = (0x0000_0000_0800_0000u64, 0x0000_0030_1000_0000u64);
        assert_eq!(self_symmetries(after_white, after_black), 0);
        assert_eq!(conventional_moves(0, 0xff), 0xff);
    }

    #[test]
    fn a_class_keeps_one_move_whatever_its_symmetries() {
        let mut rng = crate::rng::Rng::new(12);
        for _ in 0..200 {
            // A position symmetric under a random symmetry: random boards closed under it.
            let s = 1 + rng.below(7) as u8;
            let closed = |mut x: u64| {
                for _ in 0..4 {
                    x |= image(s, x);
                }
                x
            };
            let player = closed(rng.next_u64() & rng.next_u64() & rng.next_u64());
            let opponent = closed(rng.next_u64() & rng.next_u64() & rng.next_u64()) & !player;
            let symmetries = self_symmetries(player, opponent);
            assert!(symmetries & 1 << s != 0);
            let empty = !(player | opponent);
            let kept = conventional_moves(symmetries, empty);
            for q in (0..64u8).filter(|q| empty & 1 << q != 0) {
                let mut class: Vec<u8> =
                    (0..8u8).filter(|t| *t == 0 || symmetries & 1 << t != 0).map(|t| symmetric_square(t, q)).collect();
                class.sort_unstable();
                class.dedup();
                let in_class = class.iter().filter(|c| kept & 1 << **c != 0).count();
                assert_eq!(in_class, 1, "one kept of {class:?}");
            }
        }
    }

    #[test]
    fn views_match_the_square_map() {
        let mut rng = crate::rng::Rng::new(11);
        for _ in 0..50 {
            let b = rng.next_u64();
            let v = views(b);
            for s in 0..8u8 {
                for q in 0..64u8 {
                    assert_eq!(v[s as usize] >> q & 1, b >> symmetric_square(s, q) & 1, "view {s} square {q}");
                }
            }
        }
    }

    #[test]
    fn inverse_undoes_each_symmetry() {
        for s in 0..8u8 {
            for q in 0..64u8 {
                assert_eq!(symmetric_square(inverse(s), symmetric_square(s, q)), q, "symmetry {s}");
            }
        }
    }

    #[test]
    fn the_eight_images_share_one_canonical_form() {
        let mut rng = crate::rng::Rng::new(5);
        for _ in 0..200 {
            let player = rng.next_u64() & rng.next_u64();
            let opponent = rng.next_u64() & !player & rng.next_u64();
            let (cp, co, s) = canonical(player, opponent);
            assert_eq!((image(s, player), image(s, opponent)), (cp, co));
            for t in 0..8 {
                let (ip, io) = (image(t, player), image(t, opponent));
                let (ccp, cco, _) = canonical(ip, io);
                assert_eq!((ccp, cco), (cp, co), "image {t}");
            }
            // A square of the canonical board maps back to the position's square.
            for q in 0..64u8 {
                assert_eq!(cp >> q & 1, player >> symmetric_square(s, q) & 1);
            }
        }
    }
}
