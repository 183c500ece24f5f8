//! `magpie datagen`'s options.

use super::numbers::count;
use super::shared::{hash_parser, output_file, selectivity_parser, threads_parser};
use super::{CliError, EngineArgs, Request};
use crate::eval::{EvalKind, Evaluator};
use crate::shard::Shard;
use crate::train::datagen::{self, DatagenRequest};
use std::path::PathBuf;

/// Play self-play games and write their positions, scored by search or solved, as training
/// samples for `magpie train`.
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// Games in all shards together, numbered from 0.
    #[arg(long, value_parser = count::<u64>(1..=1_000_000_000))]
    games: u64,
    /// The samples file to write.
    #[arg(long)]
    out: PathBuf,
    /// Random seed: game j of a seed is the same game in any shard and with any threads.
    #[arg(long, default_value_t = 1, value_parser = count::<u64>(0..))]
    seed: u64,
    /// Play only the games j with j % N == I (shards' files merge by concatenation).
    #[arg(long, value_name = "I/N", default_value = "0/1")]
    shard: Shard,
    /// Worker threads, each playing whole games (the file is the same for any number) [default: 1].
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    threads: Option<u64>,
    /// Depth of the search that scores and plays positions above --exact-empties.
    #[arg(long, default_value_t = 8, value_parser = count::<u32>(1..=30))]
    depth: u32,
    /// Positions with this many empty squares or fewer are solved exactly.
    #[arg(long, default_value_t = 20, value_parser = count::<u32>(0..=30))]
    exact_empties: u32,
    /// Random plies from the start (drawn again while a depth-4 search scores them beyond ±4 discs).
    #[arg(long, default_value_t = 10, value_parser = count::<u32>(0..=40))]
    random_plies: u32,
    /// Percent of the moves above --exact-empties played at random instead of the best.
    #[arg(long, value_name = "PERCENT", default_value_t = 5, value_parser = count::<u32>(0..=100))]
    random_rate: u32,
    /// Multi-ProbCut's selectivity in the searches, 0 (off) to 5 (most cuts) [default: 5].
    #[arg(long, value_name = "0-5", value_parser = selectivity_parser())]
    selectivity: Option<u8>,
    /// The weight file whose evaluation plays and scores the games [default: the weights built
    /// into the binary].
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Each thread's transposition table size in MiB [default: 16].
    #[arg(long, value_name = "MIB", value_parser = hash_parser())]
    hash: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

impl DatagenArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        let weights = engine.weights(self.weights.as_deref(), "--weights")?;
        Ok(Request::Datagen(Box::new(DatagenRequest {
            games: self.games,
            out: output_file("--out", self.out)?,
            seed: self.seed,
            shard: self.shard,
            threads: engine.threads(self.threads, 1),
            depth: self.depth,
            exact_empties: self.exact_empties,
            random_plies: self.random_plies,
            random_percent: self.random_rate,
            selectivity: engine.selectivity(self.selectivity),
            hash_mib: engine.hash_mib(self.hash, datagen::DEFAULT_HASH_MIB),
            eval: Evaluator::with_weights(EvalKind::default(), weights),
            progress: !self.no_progress,
        })))
    }
}
