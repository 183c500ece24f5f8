//! The pattern evaluation's features: which squares each pattern covers, where its symmetric
//! placements lie, and how a position's 76 feature indices are computed.
//!
//! A pattern is a set of squares read as a base-3 number, one digit a square (0 empty, 1 the side
//! to move's disc, 2 the opponent's). Each of the 18 patterns (lines, corner and edge shapes of up
//! to 10 squares: see [`PATTERNS`]) lies on the board in each of its distinct images under the
//! board's 8 symmetries, and every placement of a pattern reads the same weight table, so a
//! position and its mirror images get the same evaluation. Beside the patterns, each stage has a
//! constant for each number of empties and a table over the two sides' numbers of legal moves
//! ([`mobility_index`]).
//!
//! [`feature_indices`] reads a position's features from scratch: it computes the 8 symmetric views
//! of the two bitboards once, and reads every placement as the pattern's canonical placement in
//! one view, gathering its squares (with shifts and masks where the shape allows) and turning the
//! two bit sets into one base-3 number with [`TERNARY`]. The search keeps them up to date move by
//! move instead ([`Features`]). The tests compare both with a square-by-square reading of each
//! placement.

use crate::board::movegen::legal_moves;
use crate::board::symmetry::{symmetric_square, views};

/// How many stages the weights have: positions are grouped by their number of empty squares.
pub const STAGES: usize = 15;

/// The stage of a position with `empties` empty squares: 0 (0 to 3 empties) to 14 (56 to 60).
#[inline]
pub const fn stage(empties: u32) -> usize {
    let s = (empties / 4) as usize;
    if s < STAGES { s } else { STAGES - 1 }
}

/// Where a position with `empties` empty squares lies between the stages' centres, for weights
/// read by [`StageModel::Interpolated`](super::weights::StageModel::Interpolated): stage s is
/// centred at 4s + 1.5 empties, and the position is read as stage `s` and stage `s + 1` in the
/// shares `1 − f` and `f`. Below the first centre and above the last, `f` stays 0 or 1.
pub fn knots(empties: u32) -> (usize, f64) {
    let x = (f64::from(empties) - 1.5) / 4.0;
    let s = (x.floor().max(0.0) as usize).min(STAGES - 2);
    (s, (x - s as f64).clamp(0.0, 1.0))
}

/// One pattern: its name and the squares of its canonical placement, in the order of its digits
/// (the least significant first).
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// The name shown by tools.
    pub name: &'static str,
    /// Square indices (a1 = 0, h1 = 7, a2 = 8, …) of the canonical placement.
    pub squares: &'static [u8],
    /// The symmetries (see [`symmetric_square`]) whose images of the canonical placement are its
    /// placements on the board.
    pub symmetries: &'static [u8],
}

impl Pattern {
    /// The number of weights of the pattern: 3 to the power of its squares.
    pub const fn size(&self) -> usize {
        3usize.pow(self.squares.len() as u32)
    }
}

/// The patterns, in the order of their tables: the edge with its X-squares, the 3x3 and 2x5 corner
/// blocks, rows 2 to 4, the diagonals of length 5 to 8 with corner, C- or X-squares at their ends,
/// the diagonal of length 4, then corner and edge shapes of 10 squares. The longer diagonals and
/// the 10-square shapes are those of Egaroucid's evaluation; version 3 of the weight file had the
/// first eleven with plain diagonals.
pub const PATTERNS: [Pattern; 18] = [
    Pattern { name: "edge+2x", squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14], symmetries: &[0, 2, 4, 5] },
    Pattern { name: "corner-3x3", squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18], symmetries: &[0, 1, 2, 3] },
    Pattern { name: "corner-2x5", squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12], symmetries: &[0, 1, 2, 3, 4, 5, 6, 7] },
    Pattern { name: "row-2", squares: &[8, 9, 10, 11, 12, 13, 14, 15], symmetries: &[0, 2, 4, 5] },
    Pattern { name: "row-3", squares: &[16, 17, 18, 19, 20, 21, 22, 23], symmetries: &[0, 2, 4, 5] },
    Pattern { name: "row-4", squares: &[24, 25, 26, 27, 28, 29, 30, 31], symmetries: &[0, 2, 4, 5] },
    Pattern { name: "diagonal-8+2c", squares: &[0, 9, 18, 27, 36, 45, 54, 63, 8, 1], symmetries: &[0, 1, 2, 3] },
    Pattern { name: "diagonal-7+2corners", squares: &[0, 1, 10, 19, 28, 37, 46, 55, 63], symmetries: &[0, 1, 2, 3] },
    Pattern { name: "diagonal-6+2c+x", squares: &[1, 2, 11, 20, 14, 29, 38, 47, 55], symmetries: &[0, 1, 2, 3] },
    Pattern { name: "diagonal-5+2x", squares: &[9, 3, 12, 21, 30, 39, 54], symmetries: &[0, 1, 2, 3] },
    Pattern { name: "diagonal-4", squares: &[4, 13, 22, 31], symmetries: &[0, 1, 2, 3] },
    Pattern { name: "corner-triangle", squares: &[0, 1, 2, 3, 8, 9, 10, 16, 17, 24], symmetries: &[0, 1, 2, 3] },
    Pattern { name: "edge-block", squares: &[0, 2, 3, 4, 5, 7, 10, 11, 12, 13], symmetries: &[0, 2, 4, 5] },
    Pattern { name: "narrow-triangle", squares: &[0, 1, 2, 3, 4, 8, 9, 16, 24, 32], symmetries: &[0, 1, 2, 3] },
    Pattern { name: "cross", squares: &[0, 9, 18, 27, 1, 10, 19, 8, 17, 26], symmetries: &[0, 1, 2, 3] },
    Pattern { name: "edge+2c", squares: &[10, 0, 1, 2, 3, 4, 5, 6, 7, 13], symmetries: &[0, 2, 4, 5] },
    Pattern { name: "fish", squares: &[0, 1, 8, 9, 10, 11, 17, 18, 25, 27], symmetries: &[0, 1, 2, 3] },
    Pattern { name: "anvil", squares: &[18, 19, 11, 3, 2, 5, 4, 12, 20, 21], symmetries: &[0, 2, 4, 5] },
];

/// The number of features (pattern placements) of a position.
pub const FEATURES: usize = 76;

/// Where each pattern's table starts in a stage's weights.
pub const OFFSETS: [usize; PATTERNS.len()] = {
    let mut offsets = [0; PATTERNS.len()];
    let mut i = 1;
    while i < PATTERNS.len() {
        offsets[i] = offsets[i - 1] + PATTERNS[i - 1].size();
        i += 1;
    }
    offsets
};

/// The index of the stage's constant terms, after the pattern tables: one for each number of
/// empties in the stage, so that the side to move's parity (who plays last) has its own value.
pub const BIAS: usize = OFFSETS[PATTERNS.len() - 1] + PATTERNS[PATTERNS.len() - 1].size();

/// The constant term's index in a stage's weights for a position with `empties` empty squares.
#[inline]
pub const fn constant_index(empties: u32) -> usize {
    BIAS + (empties % 4) as usize
}

/// Legal move counts above this share the last row or column of the mobility table.
pub const MOBILITY_MAX: u32 = 24;

/// Where the mobility table starts in a stage's weights, after the constants: one weight for each
/// pair (the side to move's legal moves, the other side's), each counted up to [`MOBILITY_MAX`].
pub const MOBILITY: usize = BIAS + 4;

/// The number of weights of one stage: every pattern's table, the 4 constants, the mobility table.
pub const STAGE_LEN: usize = MOBILITY + ((MOBILITY_MAX + 1) * (MOBILITY_MAX + 1)) as usize;

/// The mobility table's index in a stage's weights for `player` (to move) against `opponent`.
#[inline]
pub fn mobility_index(player: u64, opponent: u64) -> usize {
    mobility_index_of(legal_moves(player, opponent), legal_moves(opponent, player))
}

/// [`mobility_index`] from the legal moves of the side to move (`mine`) and of the other side.
#[inline]
pub fn mobility_index_of(mine: u64, theirs: u64) -> usize {
    let mine = mine.count_ones().min(MOBILITY_MAX);
    let theirs = theirs.count_ones().min(MOBILITY_MAX);
    MOBILITY + (mine * (MOBILITY_MAX + 1) + theirs) as usize
}

/// The pattern of each feature, in the order [`feature_indices`] returns them.
pub const FEATURE_PATTERN: [usize; FEATURES] = {
    let mut out = [0; FEATURES];
    let mut n = 0;
    let mut p = 0;
    while p < PATTERNS.len() {
        let mut s = 0;
        while s < PATTERNS[p].symmetries.len() {
            out[n] = p;
            n += 1;
            s += 1;
        }
        p += 1;
    }
    out
};

/// `TERNARY[b]`: the bits of `b` read as base-3 digits (bit i worth 3^i), for up to 10 bits.
pub const TERNARY: [u16; 1024] = {
    let mut table = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut value = 0u32;
        let mut weight = 1u32;
        let mut i = 0;
        while i < 10 {
            if b >> i & 1 == 1 {
                value += weight;
            }
            weight *= 3;
            i += 1;
        }
        table[b] = value as u16;
        b += 1;
    }
    table
};

/// The canonical placement of pattern `p` read from one view, as a bit set in digit order: the
/// edge, the corner blocks and the rows with shifts and masks, the other patterns square by square
/// (the search does not read features from scratch, see [`Features`]).
#[inline(always)]
fn pattern_bits(p: usize, b: u64) -> usize {
    match p {
        0 => (b & 0xff) as usize | ((b >> 1) & 0x100) as usize | ((b >> 5) & 0x200) as usize,
        1 => (b & 7) as usize | ((b >> 5) & 0x38) as usize | ((b >> 10) & 0x1c0) as usize,
        2 => (b & 0x1f) as usize | ((b >> 3) & 0x3e0) as usize,
        3 => ((b >> 8) & 0xff) as usize,
        4 => ((b >> 16) & 0xff) as usize,
        5 => ((b >> 24) & 0xff) as usize,
        _ => {
            PATTERNS[p].squares.iter().enumerate().fold(0, |bits, (digit, &q)| bits | ((b >> q & 1) as usize) << digit)
        }
    }
}

/// The position of each feature in its stage's weights (its pattern's offset plus the base-3
/// index of its squares), for the side to move's discs `player` and the other side's `opponent`
/// on the 8x8 board.
#[inline]
pub fn feature_indices(player: u64, opponent: u64) -> [u32; FEATURES] {
    let pv = views(player);
    let ov = views(opponent);
    let mut out = [0u32; FEATURES];
    let mut n = 0;
    for (p, pattern) in PATTERNS.iter().enumerate() {
        for &s in pattern.symmetries {
            let s = s as usize;
            let index = TERNARY[pattern_bits(p, pv[s])] + 2 * TERNARY[pattern_bits(p, ov[s])];
            out[n] = (OFFSETS[p] + index as usize) as u32;
            n += 1;
        }
    }
    out
}

/// Lanes of a [`Features`] vector: the [`FEATURES`] padded to a multiple of 8, for vector code.
pub const LANES: usize = 80;

/// Where each feature's pattern table starts in a stage's weights.
pub const FEATURE_OFFSET: [u32; FEATURES] = {
    let mut out = [0u32; FEATURES];
    let mut n = 0;
    while n < FEATURES {
        out[n] = OFFSETS[FEATURE_PATTERN[n]] as u32;
        n += 1;
    }
    out
};

/// `POWERS[q][f]`: what a disc of digit 1 on square q adds to feature f's base-3 index (3 to the
/// power of q's digit in that placement), 0 where f does not cover q.
static POWERS: [[u16; LANES]; 64] = {
    let mut table = [[0u16; LANES]; 64];
    let mut n = 0;
    let mut p = 0;
    while p < PATTERNS.len() {
        let mut s = 0;
        while s < PATTERNS[p].symmetries.len() {
            let mut i = 0;
            let mut power = 1u16;
            while i < PATTERNS[p].squares.len() {
                let q = symmetric_square(PATTERNS[p].symmetries[s], PATTERNS[p].squares[i]);
                table[q as usize][n] = power;
                power *= 3;
                i += 1;
            }
            n += 1;
            s += 1;
        }
        p += 1;
    }
    table
};

/// The base-3 index of every feature (without its pattern's offset) read from both sides: kept up
/// to date move by move, so that the search never reads a position's patterns from scratch.
/// Playing a move changes only the lanes of the squares it fills and flips: one vector addition
/// per square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Digits 1 for the side to move's discs, 2 for the other side's: the indices to evaluate.
    pub player: [u16; LANES],
    /// The same features read from the other side (digits 1 and 2 swapped).
    opponent: [u16; LANES],
}

impl Features {
    /// The features of `player` (to move) against `opponent`, on the 8x8 board.
    pub fn new(player: u64, opponent: u64) -> Features {
        let mut features = Features { player: [0; LANES], opponent: [0; LANES] };
        for (discs, own, other) in [(player, 1, 2), (opponent, 2, 1)] {
            let mut rest = discs;
            while rest != 0 {
                let powers = &POWERS[rest.trailing_zeros() as usize];
                rest &= rest - 1;
                for ((mine, theirs), &power) in features.player.iter_mut().zip(&mut features.opponent).zip(powers) {
                    *mine += own * power;
                    *theirs += other * power;
                }
            }
        }
        features
    }

    /// The features after the side to move plays on `square`, flipping `flips`, read from the
    /// side that then moves.
    #[inline]
    pub fn play(&self, square: u32, flips: u64) -> Features {
        let mut flipped = [0u16; LANES];
        let mut rest = flips;
        while rest != 0 {
            let powers = &POWERS[rest.trailing_zeros() as usize];
            rest &= rest - 1;
            for (sum, &power) in flipped.iter_mut().zip(powers) {
                *sum = sum.wrapping_add(power);
            }
        }
        let placed = &POWERS[square as usize & 63];
        // For the side that moves next, the new disc is the opponent's (2) and the flipped ones
        // turn from 1 to 2; for the mover they were 2 and become 1.
        Features {
            player: std::array::from_fn(|lane| {
                self.opponent[lane].wrapping_add(placed[lane].wrapping_mul(2)).wrapping_add(flipped[lane])
            }),
            opponent: std::array::from_fn(|lane| {
                self.player[lane].wrapping_add(placed[lane]).wrapping_sub(flipped[lane])
            }),
        }
    }

    /// The indices to evaluate after the side to move plays on `square`, flipping `flips`: the
    /// `player` half of [`Features::play`] alone, for a position that is evaluated and not
    /// searched further. (The flips are added to the opponent's half in place rather than summed
    /// apart as `play` does: sharing that sum made the midgame search 2-5% slower.)
    #[inline]
    pub fn play_to_evaluate(&self, square: u32, flips: u64) -> [u16; LANES] {
        let mut lanes = self.opponent;
        let mut rest = flips;
        while rest != 0 {
            let powers = &POWERS[rest.trailing_zeros() as usize];
            rest &= rest - 1;
            for (sum, &power) in lanes.iter_mut().zip(powers) {
                *sum = sum.wrapping_add(power);
            }
        }
        let placed = &POWERS[square as usize & 63];
        for (sum, &power) in lanes.iter_mut().zip(placed) {
            *sum = sum.wrapping_add(power.wrapping_mul(2));
        }
        lanes
    }

    /// The features after a pass.
    #[inline]
    pub fn pass(&self) -> Features {
        Features { player: self.opponent, opponent: self.player }
    }
}

/// For each pattern, the index each configuration shares its weight with: the smallest index among
/// its images under the symmetries that map the pattern's squares onto themselves (a row read
/// backwards, a corner block reflected along its diagonal). Training fits one weight per class.
pub fn canonical_indices() -> Vec<Vec<u32>> {
    PATTERNS
        .iter()
        .map(|pattern| {
            let squares = pattern.squares;
            // Each self-symmetry as a permutation of digit positions.
            let mut permutations = Vec::new();
            for s in 0..8u8 {
                let image: Vec<u8> = squares.iter().map(|&q| symmetric_square(s, q)).collect();
                let positions: Option<Vec<usize>> = image.iter().map(|q| squares.iter().position(|x| x == q)).collect();
                if let Some(positions) = positions {
                    permutations.push(positions);
                }
            }
            (0..pattern.size())
                .map(|index| {
                    let digits = to_digits(index, squares.len());
                    permutations
                        .iter()
                        .map(|perm| {
                            let mut permuted = vec![0; digits.len()];
                            for (i, &d) in digits.iter().enumerate() {
                                permuted[perm[i]] = d;
                            }
                            from_digits(&permuted)
                        })
                        .min()
                        .unwrap_or(index) as u32
                })
                .collect()
        })
        .collect()
}

/// The base-3 digits of `index`, least significant first.
pub fn to_digits(mut index: usize, len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| {
            let d = (index % 3) as u8;
            index /= 3;
            d
        })
        .collect()
}

/// The number with base-3 digits `digits`, least significant first.
pub fn from_digits(digits: &[u8]) -> usize {
    digits.iter().rev().fold(0, |acc, &d| acc * 3 + d as usize)
}

#[cfg(test)]
pub(crate) mod reference {
    //! The slow reading of the features: every placement's squares looked up one by one.
    use super::*;

    /// The feature indices of `player`/`opponent`, square by square.
    pub fn feature_indices(player: u64, opponent: u64) -> [u32; FEATURES] {
        let mut out = [0u32; FEATURES];
        let mut n = 0;
        for (p, pattern) in PATTERNS.iter().enumerate() {
            for &s in pattern.symmetries {
                let digits: Vec<u8> = pattern
                    .squares
                    .iter()
                    .map(|&q| {
                        let bit = 1u64 << symmetric_square(s, q);
                        if player & bit != 0 {
                            1
                        } else if opponent & bit != 0 {
                            2
                        } else {
                            0
                        }
                    })
                    .collect();
                out[n] = (OFFSETS[p] + from_digits(&digits)) as u32;
                n += 1;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn random_discs(seed: u64) -> (u64, u64) {
        let mut rng = crate::rng::Rng::new(seed);
        let occupied = rng.next_u64() | rng.next_u64();
        let player = occupied & rng.next_u64();
        (player, occupied & !player)
    }

    fn transform(s: u8, b: u64) -> u64 {
        (0..64u8).filter(|&q| b >> q & 1 == 1).fold(0, |acc, q| acc | 1 << symmetric_square(s, q))
    }

    #[test]
    fn sizes_add_up() {
        assert_eq!(FEATURE_PATTERN.len(), PATTERNS.iter().map(|p| p.symmetries.len()).sum::<usize>());
        assert_eq!(BIAS, 10 * 59049 + 3 * 19683 + 3 * 6561 + 2187 + 81);
        assert!(PATTERNS.iter().all(|p| p.squares.len() <= 10));
    }

    /// Each pattern's placements are its distinct images under the 8 symmetries, all of them.
    #[test]
    fn placements_are_the_distinct_images() {
        for pattern in PATTERNS {
            let image = |s: u8| -> Vec<u8> {
                let mut v: Vec<u8> = pattern.squares.iter().map(|&q| symmetric_square(s, q)).collect();
                v.sort_unstable();
                v
            };
            let all: HashSet<Vec<u8>> = (0..8).map(image).collect();
            let used: HashSet<Vec<u8>> = pattern.symmetries.iter().map(|&s| image(s)).collect();
            assert_eq!(used.len(), pattern.symmetries.len(), "{}", pattern.name);
            assert_eq!(used, all, "{}", pattern.name);
        }
    }

    #[test]
    fn fast_indices_match_the_reference() {
        for seed in 0..2000 {
            let (p, o) = random_discs(seed);
            assert_eq!(feature_indices(p, o), reference::feature_indices(p, o), "seed {seed}");
        }
        assert_eq!(feature_indices(!0, 0), reference::feature_indices(!0, 0));
        assert_eq!(feature_indices(0, !0), reference::feature_indices(0, !0));
    }

    #[test]
    fn features_read_both_sides_as_the_reference_does() {
        for seed in 0..500 {
            let (p, o) = random_discs(seed);
            let features = Features::new(p, o);
            let (mine, theirs) = (reference::feature_indices(p, o), reference::feature_indices(o, p));
            for f in 0..FEATURES {
                assert_eq!(u32::from(features.player[f]) + FEATURE_OFFSET[f], mine[f], "seed {seed} feature {f}");
                assert_eq!(u32::from(features.pass().player[f]) + FEATURE_OFFSET[f], theirs[f], "seed {seed}");
            }
            assert_eq!(features.player[FEATURES..], [0; LANES - FEATURES]);
        }
    }

    /// Random games from the start: the features kept move by move (and pass by pass) are those
    /// read from scratch at every position.
    #[test]
    fn features_kept_up_to_date_equal_features_read_afresh() {
        use crate::board::movegen::{flips, legal_moves};
        let mut rng = crate::rng::Rng::new(7);
        for _ in 0..200 {
            let (mut player, mut opponent) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let mut features = Features::new(player, opponent);
            loop {
                let moves = legal_moves(player, opponent);
                if moves == 0 {
                    if legal_moves(opponent, player) == 0 {
                        break;
                    }
                    (player, opponent) = (opponent, player);
                    features = features.pass();
                } else {
                    let mut pick = rng.below(moves.count_ones() as usize);
                    let mut rest = moves;
                    while pick > 0 {
                        rest &= rest - 1;
                        pick -= 1;
                    }
                    let square = rest.trailing_zeros();
                    let flipped = flips(square as usize, player, opponent);
                    let to_evaluate = features.play_to_evaluate(square, flipped);
                    features = features.play(square, flipped);
                    assert_eq!(to_evaluate, features.player, "the half the evaluation reads");
                    (player, opponent) = (opponent ^ flipped, player ^ flipped ^ (1 << square));
                }
                assert_eq!(features, Features::new(player, opponent));
            }
        }
    }

    /// A position's mirror images have the same features, in another order, once each index is
    /// replaced by its pattern's canonical one.
    #[test]
    fn symmetric_positions_have_the_same_canonical_features() {
        let canonical = canonical_indices();
        let canonical_features = |p: u64, o: u64| {
            let mut v: Vec<(usize, u32)> = feature_indices(p, o)
                .iter()
                .zip(FEATURE_PATTERN)
                .map(|(&i, pat)| (pat, canonical[pat][i as usize - OFFSETS[pat]]))
                .collect();
            v.sort_unstable();
            v
        };
        for seed in 0..300 {
            let (p, o) = random_discs(seed);
            let base = canonical_features(p, o);
            for s in 1..8 {
                assert_eq!(canonical_features(transform(s, p), transform(s, o)), base, "seed {seed} symmetry {s}");
            }
        }
    }

    #[test]
    fn canonical_index_is_the_smallest_of_its_class() {
        let canonical = canonical_indices();
        // A row read backwards: digits of an 8-square line reversed.
        let row = &canonical[3];
        for index in [0usize, 1, 5, 100, 6560] {
            let mut digits = to_digits(index, 8);
            let forward = from_digits(&digits);
            digits.reverse();
            let backward = from_digits(&digits);
            assert_eq!(row[index] as usize, forward.min(backward));
        }
        // The 2x5 block has no symmetry of its own.
        assert!(canonical[2].iter().enumerate().all(|(i, &c)| c as usize == i));
        assert!(TERNARY[0b11] == 4 && TERNARY[0b1000000000] == 19683);
    }
}
