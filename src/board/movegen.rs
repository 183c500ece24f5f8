//! Move generation kernels on raw bitboards: the legal-move mask and the discs a move flips.
//!
//! These are the hottest functions of the engine. Each has a portable version (plain 64-bit
//! shifts and bit scans, any CPU) and, when the build targets a CPU with AVX2, a vector version that
//! handles four directions per instruction (the flips, with AVX-512, by a leading-zero count per
//! direction). The choice is made at compile time: the default build
//! (`.cargo/config.toml`) targets the building machine's CPU; `RUSTFLAGS=` builds the portable one.
//! Both versions are always compiled on x86-64 with AVX2 so that tests compare them.
//!
//! All functions work on the full 8x8 grid; smaller boards mask the result with their playable
//! squares (a disc can never lie outside them, so runs of discs stop at the board's edge by
//! themselves).

/// The squares of each of the 8 rays leaving each square, nearest first not included: the ray only
/// holds the squares strictly beyond `sq`. Directions 0..4 go towards higher bit indexes (east,
/// south, south-west, south-east), directions 4..8 towards lower ones (west, north, north-east,
/// north-west).
pub(crate) static RAYS: [[u64; 8]; 64] = build_rays();

/// Column/row steps of the 8 directions, in the order of [`RAYS`].
const DIRECTIONS: [(i8, i8); 8] = [(1, 0), (0, 1), (-1, 1), (1, 1), (-1, 0), (0, -1), (1, -1), (-1, -1)];

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut dir = 0;
        while dir < 8 {
            let (dc, dr) = DIRECTIONS[dir];
            let mut col = (sq % 8) as i8 + dc;
            let mut row = (sq / 8) as i8 + dr;
            let mut ray = 0u64;
            while col >= 0 && col < 8 && row >= 0 && row < 8 {
                ray |= 1u64 << (row * 8 + col);
                col += dc;
                row += dr;
            }
            rays[sq][dir] = ray;
            dir += 1;
        }
        sq += 1;
    }
    rays
}

/// The squares where `player` (the side to move) may play against `opponent` on the 8x8 grid.
#[inline]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: this build targets CPUs with AVX2 (the cfg above), so the instructions exist.
        unsafe { avx2::legal_moves(player, opponent) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        portable::legal_moves(player, opponent)
    }
}

/// The opponent discs flipped when `player` plays on square index `sq` (0 when the move is illegal
/// because it flips nothing). `sq` must be empty and below 64.
#[inline]
pub fn flips(sq: usize, player: u64, opponent: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512cd", target_feature = "avx512vl"))]
    {
        // SAFETY: this build targets CPUs with AVX-512 CD and VL (the cfg above).
        unsafe { avx512::flips(sq, player, opponent) }
    }
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        not(all(target_feature = "avx512cd", target_feature = "avx512vl"))
    ))]
    {
        // SAFETY: this build targets CPUs with AVX2 (the cfg above), so the instructions exist.
        unsafe { avx2::flips(sq, player, opponent) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        portable::flips(sq, player, opponent)
    }
}

/// The number of discs `player` flips by playing `sq`, the last empty square of a full board (every
/// other square holds a disc of one side or the other). Faster than counting [`flips`]: the four
/// lines through `sq` are read as bytes of the player's discs (a multiply gathers a column or a
/// diagonal into one byte) and each byte indexes a table of flips by the square's place in the
/// line. Squares off the line read as 0, an opponent disc that nothing outflanks, so short
/// diagonals need no table of their own (nor the smaller boards, whose squares outside the board
/// lie at the ends of the lines).
#[inline]
pub fn last_flip_count(sq: usize, player: u64) -> u32 {
    let (row, col) = (sq / 8, sq % 8);
    let row_byte = (player >> (8 * row)) as u8;
    let col_byte = (((player >> col) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    let diag_byte = ((player & LAST_FLIP_DIAGONALS[sq][0]).wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8;
    let anti_byte = ((player & LAST_FLIP_DIAGONALS[sq][1]).wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8;
    u32::from(LINE_FLIPS[col][usize::from(row_byte)])
        + u32::from(LINE_FLIPS[row][usize::from(col_byte)])
        + u32::from(LINE_FLIPS[col][usize::from(diag_byte)])
        + u32::from(LINE_FLIPS[col][usize::from(anti_byte)])
}

/// The two diagonals through each square (south-east and south-west), the square included.
static LAST_FLIP_DIAGONALS: [[u64; 2]; 64] = {
    let mut table = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let bit = 1u64 << sq;
        // Directions 3 and 7 make the a1-h8 diagonal, 2 and 6 the h1-a8 one.
        table[sq][0] = RAYS[sq][3] | RAYS[sq][7] | bit;
        table[sq][1] = RAYS[sq][2] | RAYS[sq][6] | bit;
        sq += 1;
    }
    table
};

/// `LINE_FLIPS[p][line]`: the discs flipped along a line of 8 by a move on its square `p`, the
/// line's other squares all occupied, `line`'s bits marking the mover's discs.
static LINE_FLIPS: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut p = 0;
    while p < 8 {
        let mut line = 0;
        while line < 256 {
            let mut count = 0;
            // Towards higher bits, then lower: a run of opponent discs closed by the mover's.
            let mut run = 0;
            let mut q = p + 1;
            while q < 8 && line & (1 << q) == 0 {
                run += 1;
                q += 1;
            }
            if q < 8 {
                count += run;
            }
            run = 0;
            let mut q = p as i32 - 1;
            while q >= 0 && line & (1 << q) == 0 {
                run += 1;
                q -= 1;
            }
            if q >= 0 {
                count += run;
            }
            table[p][line] = count;
            line += 1;
        }
        p += 1;
    }
    table
};

/// Plain 64-bit versions: run on any CPU.
pub mod portable {
    use super::RAYS;

    /// Columns b..g: a run of discs going east or west may not leave through the board's side.
    const INNER_COLUMNS: u64 = 0x7e7e_7e7e_7e7e_7e7e;

    /// Legal moves by directional shifts: in each direction, grow runs of opponent discs that start
    /// next to a player disc (the run length doubles in the last two steps), then step once more
    /// onto an empty square.
    #[inline]
    pub fn legal_moves(player: u64, opponent: u64) -> u64 {
        let empty = !(player | opponent);
        let inner = opponent & INNER_COLUMNS;
        let moves = direction_moves(player, inner, 1)
            | direction_moves(player, opponent, 8)
            | direction_moves(player, inner, 7)
            | direction_moves(player, inner, 9);
        moves & empty
    }

    #[inline(always)]
    fn direction_moves(player: u64, runs: u64, shift: u32) -> u64 {
        // Towards higher bit indexes.
        let mut up = runs & (player << shift);
        up |= runs & (up << shift);
        let pairs_up = runs & (runs << shift);
        up |= pairs_up & (up << (2 * shift));
        up |= pairs_up & (up << (2 * shift));
        // Towards lower bit indexes.
        let mut down = runs & (player >> shift);
        down |= runs & (down >> shift);
        let pairs_down = runs & (runs >> shift);
        down |= pairs_down & (down >> (2 * shift));
        down |= pairs_down & (down >> (2 * shift));
        (up << shift) | (down >> shift)
    }

    /// Flips by scanning each ray for the first square that is not an opponent disc: if it holds a
    /// player disc, the opponent discs before it flip.
    #[inline]
    pub fn flips(sq: usize, player: u64, opponent: u64) -> u64 {
        let rays = &RAYS[sq];
        let mut flipped = 0;
        for &ray in &rays[..4] {
            // The nearest square is the lowest bit of the ray.
            let blockers = ray & !opponent;
            let outflank = blockers & blockers.wrapping_neg() & player;
            flipped |= outflank.wrapping_sub((outflank != 0) as u64) & ray;
        }
        for &ray in &rays[4..] {
            // The nearest square is the highest bit of the ray.
            let blockers = ray & !opponent;
            let outflank = (0x8000_0000_0000_0000u64 >> (blockers | 1).leading_zeros()) & player & ray;
            flipped |= (outflank << 1).wrapping_neg() & ray;
        }
        flipped
    }
}

/// AVX2 versions: four directions per vector.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
pub mod avx2 {
    use super::RAYS;
    use std::arch::x86_64::*;

    /// Shift of each lane: east/west, south/north, south-west/north-east, south-east/north-west.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn shifts() -> __m256i {
        _mm256_set_epi64x(9, 7, 8, 1)
    }

    /// Which opponent discs may be inside a run in each lane's direction: the side columns can
    /// only end a run that goes east or west, never be part of it.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn run_masks(opponent: u64) -> __m256i {
        let inner = (opponent & 0x7e7e_7e7e_7e7e_7e7e) as i64;
        _mm256_set_epi64x(inner, inner, opponent as i64, inner)
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn or_lanes(v: __m256i) -> u64 {
        let halves = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let folded = _mm_or_si128(halves, _mm_unpackhi_epi64(halves, halves));
        _mm_cvtsi128_si64(folded) as u64
    }

    /// Same algorithm as [`super::portable::legal_moves`], four directions at once.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn legal_moves(player: u64, opponent: u64) -> u64 {
        let shift = shifts();
        let shift2 = _mm256_add_epi64(shift, shift);
        let p = _mm256_set1_epi64x(player as i64);
        let runs = run_masks(opponent);

        let mut up = _mm256_and_si256(runs, _mm256_sllv_epi64(p, shift));
        let mut down = _mm256_and_si256(runs, _mm256_srlv_epi64(p, shift));
        up = _mm256_or_si256(up, _mm256_and_si256(runs, _mm256_sllv_epi64(up, shift)));
        down = _mm256_or_si256(down, _mm256_and_si256(runs, _mm256_srlv_epi64(down, shift)));
        let pairs_up = _mm256_and_si256(runs, _mm256_sllv_epi64(runs, shift));
        let pairs_down = _mm256_and_si256(runs, _mm256_srlv_epi64(runs, shift));
        up = _mm256_or_si256(up, _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, shift2)));
        down = _mm256_or_si256(down, _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, shift2)));
        up = _mm256_or_si256(up, _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, shift2)));
        down = _mm256_or_si256(down, _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, shift2)));

        let moves = _mm256_or_si256(_mm256_sllv_epi64(up, shift), _mm256_srlv_epi64(down, shift));
        or_lanes(moves) & !(player | opponent)
    }

    /// Flips: the four rays towards higher indexes use the lowest-bit trick on the ray masks; the
    /// four towards lower indexes grow the run of opponent discs from the square by shifts and check
    /// that a player disc closes it.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn flips(sq: usize, player: u64, opponent: u64) -> u64 {
        let zero = _mm256_setzero_si256();
        let p = _mm256_set1_epi64x(player as i64);
        let up = flips_up(&RAYS[sq], player, opponent);

        // Towards lower indexes: west, north, north-east, north-west, i.e. right shifts by the same
        // lane shifts as the move generator.
        let shift = shifts();
        let shift2 = _mm256_add_epi64(shift, shift);
        let runs = run_masks(opponent);
        let start = _mm256_set1_epi64x((1u64 << sq) as i64);
        let mut run = _mm256_and_si256(runs, _mm256_srlv_epi64(start, shift));
        run = _mm256_or_si256(run, _mm256_and_si256(runs, _mm256_srlv_epi64(run, shift)));
        let pairs = _mm256_and_si256(runs, _mm256_srlv_epi64(runs, shift));
        run = _mm256_or_si256(run, _mm256_and_si256(pairs, _mm256_srlv_epi64(run, shift2)));
        run = _mm256_or_si256(run, _mm256_and_si256(pairs, _mm256_srlv_epi64(run, shift2)));
        let closed = _mm256_and_si256(_mm256_srlv_epi64(run, shift), p);
        let down = _mm256_andnot_si256(_mm256_cmpeq_epi64(closed, zero), run);

        or_lanes(_mm256_or_si256(up, down))
    }

    /// The flips of the four rays `r[0..4]` (towards higher indexes), one lane each: the first
    /// square of a ray that is not an opponent disc is its lowest such bit; when it holds a player
    /// disc, the ray's squares below it flip.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn flips_up(r: &[u64; 8], player: u64, opponent: u64) -> __m256i {
        let zero = _mm256_setzero_si256();
        let p = _mm256_set1_epi64x(player as i64);
        let o = _mm256_set1_epi64x(opponent as i64);
        let rays = _mm256_set_epi64x(r[3] as i64, r[2] as i64, r[1] as i64, r[0] as i64);
        let blockers = _mm256_andnot_si256(o, rays);
        let first = _mm256_and_si256(blockers, _mm256_sub_epi64(zero, blockers));
        let outflank = _mm256_and_si256(first, p);
        let before = _mm256_and_si256(_mm256_add_epi64(outflank, _mm256_set1_epi64x(-1)), rays);
        _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero), before)
    }
}

/// AVX-512 versions (the F, CD and VL extensions on 256-bit vectors): a leading-zero count per lane
/// finds the nearest blocker of the rays towards lower indexes as the lowest-bit trick finds it
/// towards higher ones, so no run has to be grown by shifts, and three-input logic instructions
/// (`vpternlogq`) do two or three operations in one.
#[cfg(all(target_arch = "x86_64", target_feature = "avx512cd", target_feature = "avx512vl"))]
pub mod avx512 {
    use super::{RAYS, avx2};
    use std::arch::x86_64::*;

    /// Flips: towards higher indexes the nearest square that is not an opponent disc by the
    /// lowest-bit trick, towards lower indexes by a leading-zero count; when it holds a player
    /// disc, the ray's squares before it flip. The outflanking discs kept and the flips masked by
    /// three-input logic, and the flips towards higher indexes taken as the ray outside an
    /// all-ones-or-above mask: FFO #40-#49 in 0.963 of the time of the kernel before, which
    /// shared those rays with [`avx2::flips`] (`farm-bench -n 7`).
    ///
    /// # Safety
    /// The CPU must support AVX-512 F, CD and VL.
    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512cd,avx512vl")]
    pub fn flips(sq: usize, player: u64, opponent: u64) -> u64 {
        let r = &RAYS[sq];
        let zero = _mm256_setzero_si256();
        let p = _mm256_set1_epi64x(player as i64);
        let not_o = _mm256_set1_epi64x(!opponent as i64);
        let up_rays = _mm256_set_epi64x(r[3] as i64, r[2] as i64, r[1] as i64, r[0] as i64);
        let down_rays = _mm256_set_epi64x(r[7] as i64, r[6] as i64, r[5] as i64, r[4] as i64);

        // Towards lower indexes (started first: the leading-zero count is the longest chain): the
        // nearest square that is not an opponent disc is the highest bit (a shift by 64 gives 0
        // when the ray holds no blocker); when it holds a player disc, the ray's squares above it
        // flip: -outflank ^ outflank is every bit above it (0 when there is none).
        let down_first = _mm256_lzcnt_epi64(_mm256_and_si256(not_o, down_rays));
        // Towards higher indexes: the lowest such bit, kept when it holds a player disc (a & b & c).
        let up_blockers = _mm256_and_si256(not_o, up_rays);
        let up_outflank = _mm256_ternarylogic_epi64::<0x80>(up_blockers, _mm256_sub_epi64(zero, up_blockers), p);
        // All ones when nothing outflanks, else every bit from the outflanking disc up: the
        // flips are the ray's squares outside it.
        let up_kept = _mm256_sub_epi64(_mm256_cmpeq_epi64(up_outflank, zero), up_outflank);
        let down_outflank = _mm256_and_si256(_mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), down_first), p);
        // (a ^ b) & c.
        let down = _mm256_ternarylogic_epi64::<0x28>(_mm256_sub_epi64(zero, down_outflank), down_outflank, down_rays);
        // a | (c & !b).
        avx2::or_lanes(_mm256_ternarylogic_epi64::<0xf2>(down, up_kept, up_rays))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flips by walking each direction square by square: obviously correct, slow.
    fn reference_flips(sq: usize, player: u64, opponent: u64) -> u64 {
        let mut flipped = 0;
        for &(dc, dr) in &DIRECTIONS {
            let (mut col, mut row) = ((sq % 8) as i8 + dc, (sq / 8) as i8 + dr);
            let mut run = 0u64;
            while (0..8).contains(&col) && (0..8).contains(&row) {
                let bit = 1u64 << (row * 8 + col);
                if opponent & bit != 0 {
                    run |= bit;
                } else {
                    if player & bit != 0 {
                        flipped |= run;
                    }
                    break;
                }
                col += dc;
                row += dr;
            }
        }
        flipped
    }

    fn reference_moves(player: u64, opponent: u64) -> u64 {
        (0..64)
            .filter(|&sq| (player | opponent) & (1u64 << sq) == 0)
            .filter(|&sq| reference_flips(sq, player, opponent) != 0)
            .fold(0, |m, sq| m | 1u64 << sq)
    }

    /// A small deterministic generator of dense random boards.
    fn random_boards(count: usize) -> Vec<(u64, u64)> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..count)
            .map(|_| {
                let occupied = next() | next();
                let black = next() & occupied;
                (black, occupied & !black)
            })
            .collect()
    }

    #[test]
    fn last_flip_count_matches_the_flips_on_full_boards() {
        for (i, (black, white)) in random_boards(20_000).into_iter().enumerate() {
            // Fill the board but for one square, then count each side's flips there.
            let sq = i % 64;
            let bit = 1u64 << sq;
            let black = (black | !(black | white)) & !bit;
            let white = white & !bit;
            for (player, opponent) in [(black, white), (white, black)] {
                let expected = reference_flips(sq, player, opponent).count_ones();
                assert_eq!(last_flip_count(sq, player), expected, "square {sq}, {player:#x} {opponent:#x}");
            }
        }
    }

    #[test]
    fn rays_have_the_right_lengths() {
        // From a1: east 7, south 7, south-west 0, south-east 7, the rest 0.
        let a1 = RAYS[0];
        let lens: Vec<u32> = a1.iter().map(|r| r.count_ones()).collect();
        assert_eq!(lens, [7, 7, 0, 7, 0, 0, 0, 0]);
        // From d4 (index 27) the 8 rays cover 27 squares.
        assert_eq!(RAYS[27].iter().map(|r| r.count_ones()).sum::<u32>(), 27);
    }

    #[test]
    fn kernels_agree_with_the_square_walk() {
        for (p, o) in random_boards(4000) {
            let expected = reference_moves(p, o);
            assert_eq!(portable::legal_moves(p, o), expected, "moves p={p:#x} o={o:#x}");
            assert_eq!(legal_moves(p, o), expected, "moves p={p:#x} o={o:#x}");
            for sq in 0..64 {
                if (p | o) & (1u64 << sq) != 0 {
                    continue;
                }
                let expected = reference_flips(sq, p, o);
                assert_eq!(portable::flips(sq, p, o), expected, "flips sq={sq} p={p:#x} o={o:#x}");
                // SAFETY: compiled only where the build targets AVX2.
                #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
                assert_eq!(unsafe { avx2::flips(sq, p, o) }, expected, "avx2 flips sq={sq} p={p:#x} o={o:#x}");
                assert_eq!(flips(sq, p, o), expected, "flips sq={sq} p={p:#x} o={o:#x}");
            }
        }
    }

    #[test]
    fn start_position_moves() {
        // d5 (35) and e4 (28) black; d4 (27) and e5 (36) white.
        let black = (1 << 35) | (1 << 28);
        let white = (1 << 27) | (1 << 36);
        // Black's moves: d3 (19), c4 (26), f5 (37), e6 (44).
        assert_eq!(legal_moves(black, white), (1 << 19) | (1 << 26) | (1 << 37) | (1 << 44));
        assert_eq!(flips(37, black, white), 1 << 36);
    }
}
