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

#[cfg(test)]
mod tests {
    use super::*;

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
