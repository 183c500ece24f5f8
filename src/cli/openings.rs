//! `magpie openings`' options.

use super::numbers::count;
use super::shared::{output_file, threads_parser};
use super::{CliError, EngineArgs, Request};
use crate::tools::openings::{Balance, OpeningsRequest};
use crate::train::fit_eval;
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
    #[arg(long, default_value_t = 10, value_parser = count::<u32>(1..=40))]
    plies: u32,
    /// Only openings played in at least this many games.
    #[arg(long, default_value_t = 1, value_parser = count::<u64>(1..=1_000_000))]
    min_games: u64,
    /// Openings to write (each is played twice in a match, colours swapped).
    #[arg(long, default_value_t = 100, value_parser = count::<u64>(1..=10_000_000))]
    count: u64,
    /// Openings of the shuffled list to pass over first: with the same --seed, another --skip gives
    /// a disjoint set (one to tune on, one to test on).
    #[arg(long, default_value_t = 0, value_parser = count::<u64>(0..))]
    skip: u64,
    /// Seed of the shuffle.
    #[arg(long, default_value_t = 1, value_parser = count::<u64>(0..))]
    seed: u64,
    /// Only balanced openings: those whose value, searched to --balance-depth by the pattern
    /// evaluation, is within this many discs of a draw (the others are passed over, and --count
    /// counts the openings written).
    #[arg(long, value_name = "DISCS", value_parser = count::<u32>(0..=64))]
    balanced: Option<u32>,
    /// The depth of the searches that value the openings for --balanced.
    #[arg(long, default_value_t = 20, value_parser = count::<u32>(1..=40))]
    balance_depth: u32,
    /// Threads for --balanced's searches (the file written is the same for any number) [default: 1].
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    threads: Option<u64>,
}

impl OpeningsArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        let out = output_file("--out", self.out)?;
        let balance = match self.balanced {
            Some(discs) => Some(Balance {
                discs,
                depth: self.balance_depth,
                weights: engine.weights(None, "--weights")?,
                threads: engine.threads(self.threads, 1),
            }),
            None => None,
        };
        let games = fit_eval::read_wthor(&self.wthor).map_err(|e| CliError(format!("--wthor {e}")))?;
        Ok(Request::Openings(Box::new(OpeningsRequest {
            games,
            plies: self.plies as usize,
            min_games: self.min_games as usize,
            count: self.count as usize,
            skip: self.skip as usize,
            seed: self.seed,
            balance,
            out,
        })))
    }
}
