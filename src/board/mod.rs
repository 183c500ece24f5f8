//! The rules of Othello on bitboards: squares, moves, positions, move generation, board sizes,
//! perft and the board's symmetries.
//!
//! ```
//! use magpie::board::{Position, Move};
//!
//! let start = Position::initial();
//! assert_eq!(start.legal_moves().len(), 4);
//! let next = start.try_play("f5".parse::<Move>().unwrap()).unwrap();
//! assert_eq!(next.disc_counts(), (4, 1));
//! ```

pub mod bitboard;
pub mod game;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod size;
pub mod square;
pub mod stability;
pub mod symmetry;

pub use bitboard::Bitboard;
pub use game::Game;
pub use perft::{Convention, perft, perft_divide};
pub use position::{IllegalMove, IllegalReason, Position, PositionError, hash_discs};
pub use size::BoardSize;
pub use square::{Color, Move, ParseMoveError, ParseSquareError, Square};

/// Helpers for the unit tests of every module.
#[cfg(test)]
pub(crate) mod testing {
    use super::{BoardSize, Position, Square};
    use crate::rng::Rng;

    /// The position after random legal moves (forced passes included) from the start of `size`,
    /// stopped once at most `empties` squares are empty or the game is over.
    pub(crate) fn random_position(rng: &mut Rng, size: BoardSize, empties: u32) -> Position {
        random_line(rng, size, empties).0
    }

    /// As [`random_position`], with the moves played (passes not listed).
    pub(crate) fn random_line(rng: &mut Rng, size: BoardSize, empties: u32) -> (Position, Vec<Square>) {
        let (mut pos, mut line) = (Position::start(size), Vec::new());
        while pos.empty_count() > empties && !pos.is_game_over() {
            if pos.must_pass() {
                pos = pos.pass();
                continue;
            }
            let moves: Vec<_> = pos.legal_moves().iter().collect();
            let square = moves[rng.below(moves.len())];
            line.push(square);
            pos = pos.play(square);
        }
        (pos, line)
    }

    /// Plain minimax to the end of the game: the exact score (empties to the winner), for
    /// checking the search on small trees.
    pub(crate) fn minimax(pos: &Position) -> i32 {
        if pos.is_game_over() {
            return pos.final_score();
        }
        if pos.must_pass() {
            return -minimax(&pos.pass());
        }
        pos.legal_moves().iter().map(|sq| -minimax(&pos.play(sq))).max().unwrap_or(0)
    }

    /// Whether some legal continuation of the game from `pos` flips one of `discs` (a mask of
    /// squares, whichever side holds them): the slow reference the stable-disc tests check against.
    pub(crate) fn some_line_flips(pos: &Position, discs: u64) -> bool {
        if pos.is_game_over() {
            return false;
        }
        if pos.must_pass() {
            return some_line_flips(&pos.pass(), discs);
        }
        pos.legal_moves().iter().any(|sq| pos.flips(sq).0 & discs != 0 || some_line_flips(&pos.play(sq), discs))
    }
}
