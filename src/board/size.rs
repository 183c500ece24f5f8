//! Board sizes: 4x4, 6x6 and 8x8, all on the same 64-bit grid.
//!
//! A smaller board is the top-left corner of the 8x8 grid (a1..d4, a1..f6) and is described only by
//! its mask of playable squares. The move kernels never need to know: no disc lies outside the mask,
//! so a run of discs stops at the board's edge, and masking the legal moves is all it takes.

use std::fmt;

/// The size of the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum BoardSize {
    /// 4x4, squares a1..d4.
    Four,
    /// 6x6, squares a1..f6.
    Six,
    /// The standard 8x8 board.
    #[default]
    Eight,
}

impl BoardSize {
    /// Every supported size, smallest first.
    pub const ALL: [BoardSize; 3] = [BoardSize::Four, BoardSize::Six, BoardSize::Eight];

    /// The size with `side` squares per side (4, 6 or 8).
    pub const fn from_side(side: usize) -> Option<BoardSize> {
        match side {
            4 => Some(BoardSize::Four),
            6 => Some(BoardSize::Six),
            8 => Some(BoardSize::Eight),
            _ => None,
        }
    }

    /// Squares per side.
    #[inline]
    pub const fn side(self) -> usize {
        match self {
            BoardSize::Four => 4,
            BoardSize::Six => 6,
            BoardSize::Eight => 8,
        }
    }

    /// The number of squares on the board.
    #[inline]
    pub const fn squares(self) -> u32 {
        (self.side() * self.side()) as u32
    }

    /// The mask of playable squares.
    #[inline]
    pub const fn playable(self) -> u64 {
        match self {
            BoardSize::Four => 0x0000_0000_0f0f_0f0f,
            BoardSize::Six => 0x0000_3f3f_3f3f_3f3f,
            BoardSize::Eight => !0,
        }
    }

    /// The four centre squares of the standard start: (white, black) discs. White holds the
    /// top-left and bottom-right centre squares (d4 and e5 on 8x8), Black the other two.
    pub const fn start_discs(self) -> (u64, u64) {
        let c = (self.side() / 2 - 1) as u32; // the top-left centre square's column and row
        let top_left = 1u64 << (c * 8 + c);
        let white = top_left | (top_left << 9);
        let black = (top_left << 1) | (top_left << 8);
        (white, black)
    }
}

impl fmt::Display for BoardSize {
    /// `8x8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0}", self.side())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_cover_the_top_left_corner() {
        for size in BoardSize::ALL {
            let n = size.side();
            let expected = (0..64).filter(|i| i % 8 < n && i / 8 < n).fold(0u64, |m, i| m | 1 << i);
            assert_eq!(size.playable(), expected, "{size}");
            assert_eq!(size.playable().count_ones(), size.squares());
        }
    }

    #[test]
    fn start_discs_are_centred() {
        // 8x8: white d4 (27) e5 (36), black e4 (28) d5 (35).
        assert_eq!(BoardSize::Eight.start_discs(), ((1 << 27) | (1 << 36), (1 << 28) | (1 << 35)));
        // 4x4: white b2 (9) c3 (18), black c2 (10) b3 (17).
        assert_eq!(BoardSize::Four.start_discs(), ((1 << 9) | (1 << 18), (1 << 10) | (1 << 17)));
        for size in BoardSize::ALL {
            let (w, b) = size.start_discs();
            assert_eq!((w | b) & !size.playable(), 0);
        }
    }
}
