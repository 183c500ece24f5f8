//! `magpie perft`'s options.

use super::numbers::count;
use super::shared::{parse_size, start_position};
use super::{CliError, EngineArgs, Request};
use crate::board::{BoardSize, Convention};
use crate::tools::perft::PerftRequest;

/// Count the leaves of the game tree to a fixed depth (move-generator test and benchmark).
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Plies to count (0 to 64).
    #[arg(value_parser = count::<u32>(0..=64))]
    depth: u32,
    /// Board size: 4, 6 or 8 (the start position of that size).
    #[arg(long, value_parser = parse_size)]
    size: Option<BoardSize>,
    /// Count from this position instead: the squares (16, 36 or 64 of X, O, -) then X or O.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// How passes and games ending early count: standard, edax or free-pass.
    #[arg(long, default_value = "standard")]
    convention: Convention,
    /// Print the count under each root move.
    #[arg(long)]
    divide: bool,
    /// Also time the masked (small-board) code path on the same position and print the ratio.
    #[arg(long)]
    mask_overhead: bool,
}

impl PerftArgs {
    pub(super) fn request(self, _engine: &EngineArgs) -> Result<Request, CliError> {
        let position = start_position(self.position.as_deref(), self.size, "--position")?;
        Ok(Request::Perft(PerftRequest {
            position,
            depth: self.depth,
            convention: self.convention,
            divide: self.divide,
            mask_overhead: self.mask_overhead,
        }))
    }
}
