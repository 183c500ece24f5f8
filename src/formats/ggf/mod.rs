//! GGF, the Generic Game Format of the GGS server, NBoard and NTest: a whole game in one line of
//! `KEY[value]` tags between `(;` and `;)`.
//!
//! ```text
//! 1 (;GM[Othello]PC[NBoard]DT[2014-02-08 17:58:38 GMT]PB[Human]PW[Edax]RE[?]TI[15:00]TY[8]
//!    BO[8 ---------------------------O*------*O--------------------------- *]B[F5//2.449]W[F6/-1.00/0.01];)
//! ```
//! (one line in a file; split here to fit). The tags read into types:
//!
//! - `BO[<size> <squares> <side>]`: the start position. Whitespace may stand anywhere among the
//!   squares (GGS writes the rows apart, NBoard writes them run together); the square characters
//!   are those of [`position_text`](super::position_text) (`*`/`x` black, `O`/`o`/`0` white,
//!   `-`/`.`/`_` empty). Without `BO` the game starts from the standard position of `TY`'s size.
//! - `TY[8]`: the board size with the GGS match-type letters around it (`s8r20`, `8k`, `8a`); kept
//!   as written, and its size must agree with `BO`'s.
//! - `B[...]`, `W[...]`: the moves, each [`MoveText`] (`F5`, `F5/1.50`, `F5//2.449`, `PA`).
//!   They must replay legally with every pass written out, with one leniency: a move by the side
//!   not to move, when the side to move has no legal move, stands for a pass the writer left out
//!   and the pass is inserted.
//! - `TI`, `TB`, `TW`: the [`Clock`]s (both players, Black's, White's).
//! - `RE`: the [`GgfResult`].
//! - `PC`, `DT`, `PB`, `PW`, `RB`, `RW`: place, date, player names and ratings, kept as text.
//! - `GM` must be `Othello` when present. Any other tag is kept, in order, and written back.
//!
//! Writing ([`GgfGame`]'s `Display`) gives the canonical form: `GM[Othello]` first, the known
//! tags in a fixed order, the other tags, `BO` with `*`/`O`/`-`, then the moves in upper case with
//! passes as `PA`. Numbers are printed so that they read back to the same `f64`, and clocks in
//! the form NBoard writes (see [`Clock`]), so reading what was written always gives back an equal
//! game.
//!
//! The code is split by subject: `move_text` (one move: [`MoveText`], [`GgfMove`]), `clock`
//! ([`Clock`]), `result` ([`GgfResult`]), `game` (the model, [`GgfGame`]), `parse` (reading:
//! [`ParseGgfError`], [`parse_ggf_games`]), `write` (the canonical form) and `text` (the numbers
//! and quoted tokens they share). Everything public is re-exported here.

mod clock;
mod game;
mod move_text;
mod parse;
mod result;
#[cfg(test)]
mod testing;
mod text;
mod write;

pub use clock::{Clock, ParseClockError};
pub use game::{GgfGame, utc_now};
pub use move_text::{GgfMove, MoveText, ParseMoveTextError};
pub use parse::{ParseGgfError, parse_ggf_games};
pub use result::{GameEnd, GgfResult, ParseResultError};
