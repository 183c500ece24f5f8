//! `magpie openings`' options.

use super::shared::output_file;
use super::{CliError, EngineArgs, Request};
use crate::tools::fit_eval;
use crate::tools::openings::OpeningsRequest;
use std::path::PathBuf;

/// Write opening lines for `magpie match --openings`, taken from WTHOR tournament games.
#[derive(clap::Args, Debug)]
pub struct OpeningsArgs {
    /// A WTHOR folder (its WTH_*.wtb files) or one .wtb file.
    #[arg(long)]
    wthor: PathBuf,
    /// The file to write: one move list a line.
    #[arg(long)]
    out: PathBuf,
    /// Moves in an opening.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=40))]
    plies: u32,
    /// Only openings played in at least this many games.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    min_games: u64,
    /// Openings to write (each is played twice in a match, colours swapped).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    count: u64,
    /// Openings of the shuffled list to pass over first: with the same --seed, another --skip gives
    /// a disjoint set (one to tune on, one to test on).
    #[arg(long, default_value_t = 0)]
    skip: u64,
    /// Seed of the shuffle.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

impl OpeningsArgs {
    pub(super) fn request(self, _engine: &EngineArgs) -> Result<Request, CliError> {
        let out = output_file("--out", self.out)?;
        let games = fit_eval::read_wthor(&self.wthor).map_err(|e| CliError(format!("--wthor {e}")))?;
        Ok(Request::Openings(Box::new(OpeningsRequest {
            games,
            plies: self.plies as usize,
            min_games: self.min_games as usize,
            count: self.count as usize,
            skip: self.skip as usize,
            seed: self.seed,
            out,
        })))
    }
}
