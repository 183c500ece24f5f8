//! Perft: the number of leaves of the game tree to a fixed depth, the standard test and benchmark of
//! move generation.
//!
//! Conventions (see `OTHELLO-FACTS.md`): a pass is always a ply under [`Convention::Standard`] and
//! [`Convention::Edax`]; they differ on a game that ends before the target depth, which counts one
//! leaf under the standard convention and none under Edax's `count`. [`Convention::FreePass`] does
//! not spend depth on a pass. The last ply is counted in bulk: the leaves under a node one ply from
//! the end are the popcount of its legal moves.

use super::movegen::{flips, legal_moves};
use super::position::Position;
use super::square::{Move, Square};
use crate::quote::Quoted;
use std::fmt;
use std::str::FromStr;

/// How passes and games that end early are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Convention {
    /// A pass is a ply; a game over before the target depth is one leaf (Aart Bik's table,
    /// Egaroucid).
    #[default]
    Standard,
    /// A pass is a ply; a game over before the target depth counts nothing (Edax's `count`).
    Edax,
    /// A pass does not use up depth; a game over before the target depth is one leaf.
    FreePass,
}

impl Convention {
    /// The names accepted on the command line.
    pub const NAMES: [&'static str; 3] = ["standard", "edax", "free-pass"];

    fn name(self) -> &'static str {
        match self {
            Convention::Standard => Self::NAMES[0],
            Convention::Edax => Self::NAMES[1],
            Convention::FreePass => Self::NAMES[2],
        }
    }

    /// The count for a finished game reached with `depth` plies still to go (`depth >= 1`).
    #[inline]
    fn early_game_over(self) -> u64 {
        match self {
            Convention::Standard | Convention::FreePass => 1,
            Convention::Edax => 0,
        }
    }
}

impl fmt::Display for Convention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown perft convention name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseConventionError(pub String);

impl fmt::Display for ParseConventionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown perft convention {} (expected {})", Quoted(&self.0), Convention::NAMES.join(", "))
    }
}

impl std::error::Error for ParseConventionError {}

impl FromStr for Convention {
    type Err = ParseConventionError;
    fn from_str(s: &str) -> Result<Convention, ParseConventionError> {
        match s.to_ascii_lowercase().as_str() {
            "standard" => Ok(Convention::Standard),
            "edax" => Ok(Convention::Edax),
            "free-pass" => Ok(Convention::FreePass),
            _ => Err(ParseConventionError(s.to_string())),
        }
    }
}

/// The playable squares, as a type so that the 8x8 path compiles with no mask at all.
trait Playable: Copy {
    fn mask(self) -> u64;
}

#[derive(Clone, Copy)]
struct FullBoard;

impl Playable for FullBoard {
    #[inline(always)]
    fn mask(self) -> u64 {
        !0
    }
}

#[derive(Clone, Copy)]
struct Masked(u64);

impl Playable for Masked {
    #[inline(always)]
    fn mask(self) -> u64 {
        self.0
    }
}

/// The number of leaves `depth` plies below `pos`.
pub fn perft(pos: &Position, depth: u32, convention: Convention) -> u64 {
    let mask = pos.size().playable();
    if mask == !0 {
        count(pos.player(), pos.opponent(), depth, convention, FullBoard)
    } else {
        count(pos.player(), pos.opponent(), depth, convention, Masked(mask))
    }
}

/// [`perft`] through the masked code path that the smaller boards use, even on 8x8: comparing the
/// two on the same 8x8 position measures what board-size support costs the 8x8 board.
pub fn perft_masked(pos: &Position, depth: u32, convention: Convention) -> u64 {
    count(pos.player(), pos.opponent(), depth, convention, Masked(pos.size().playable()))
}

/// Depth from which [`perft_interruptible`] asks whether to stop before each subtree: a subtree
/// this deep has millions of leaves, so asking costs nothing measurable.
const CHECK_DEPTH: u32 = 7;

/// [`perft`] that asks `stop` before each subtree of depth 7 or more (`CHECK_DEPTH`) and gives up
/// (`None`) as soon as it answers true: deep counts take hours, and a client must be able to stop
/// them.
pub fn perft_interruptible(
    pos: &Position,
    depth: u32,
    convention: Convention,
    stop: &mut dyn FnMut() -> bool,
) -> Option<u64> {
    if depth < CHECK_DEPTH {
        return Some(perft(pos, depth, convention));
    }
    if stop() {
        return None;
    }
    if pos.is_game_over() {
        return Some(convention.early_game_over());
    }
    if pos.must_pass() {
        let below = if convention == Convention::FreePass { depth } else { depth - 1 };
        return perft_interruptible(&pos.pass(), below, convention, stop);
    }
    let mut leaves = 0;
    for sq in pos.legal_moves() {
        leaves += perft_interruptible(&pos.play(sq), depth - 1, convention, stop)?;
    }
    Some(leaves)
}

/// The perft count under each legal move of `pos` (one entry `pass` when the side to move must
/// pass; none when the game is over). The counts add up to [`perft`] of `depth`, except when the
/// game is over at the root.
pub fn perft_divide(pos: &Position, depth: u32, convention: Convention) -> Vec<(Move, u64)> {
    if depth == 0 || pos.is_game_over() {
        return Vec::new();
    }
    if pos.must_pass() {
        let below = if convention == Convention::FreePass { depth } else { depth - 1 };
        return vec![(Move::Pass, perft(&pos.pass(), below, convention))];
    }
    pos.legal_moves().iter().map(|sq| (Move::Play(sq), perft(&pos.play(sq), depth - 1, convention))).collect()
}

fn count<G: Playable>(player: u64, opponent: u64, depth: u32, convention: Convention, board: G) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = legal_moves(player, opponent) & board.mask();
    if moves == 0 {
        if legal_moves(opponent, player) & board.mask() == 0 {
            return convention.early_game_over();
        }
        return match convention {
            Convention::FreePass => count(opponent, player, depth, convention, board),
            _ => count(opponent, player, depth - 1, convention, board),
        };
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut leaves = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let flipped = flips(sq, player, opponent);
        leaves += count(
            opponent ^ flipped,
            player ^ flipped ^ Square::from_index_unchecked(sq as u32).bit(),
            depth - 1,
            convention,
            board,
        );
    }
    leaves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;

    #[test]
    fn shallow_counts_from_the_start() {
        let start = Position::initial();
        let expected = [1, 4, 12, 56, 244, 1396, 8200, 55092];
        for (depth, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&start, depth as u32, Convention::Standard), n, "depth {depth}");
            assert_eq!(perft_masked(&start, depth as u32, Convention::Standard), n, "depth {depth}");
        }
    }

    #[test]
    fn divide_adds_up() {
        let start = Position::initial();
        let parts = perft_divide(&start, 5, Convention::Standard);
        assert_eq!(parts.len(), 4);
        assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), 1396);
        // By symmetry every opening move has the same subtree.
        assert!(parts.iter().all(|p| p.1 == 349));
    }

    #[test]
    fn interruptible_perft_counts_the_same_and_stops() {
        let start = Position::initial();
        for convention in [Convention::Standard, Convention::Edax, Convention::FreePass] {
            assert_eq!(perft_interruptible(&start, 9, convention, &mut || false), Some(perft(&start, 9, convention)));
        }
        let mut asked = 0;
        assert_eq!(
            perft_interruptible(&start, 20, Convention::Standard, &mut || {
                asked += 1;
                asked > 3
            }),
            None
        );
        assert_eq!(asked, 4);
    }

    #[test]
    fn conventions_parse_and_print() {
        for name in Convention::NAMES {
            assert_eq!(name.parse::<Convention>().map(|c| c.to_string()), Ok(name.to_string()));
        }
        assert!("bik".parse::<Convention>().is_err());
    }

    #[test]
    fn four_by_four_game_tree_ends() {
        // The whole 4x4 tree is finite: deep perft stops growing once every game has ended.
        let start = Position::start(BoardSize::Four);
        let deep = perft(&start, 30, Convention::Standard);
        assert_eq!(perft(&start, 40, Convention::Standard), deep);
        assert_eq!(perft(&start, 40, Convention::Edax), 0);
    }
}
