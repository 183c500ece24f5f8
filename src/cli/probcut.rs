//! `magpie probcut`'s options.

use super::numbers::count;
use super::shared::{output_file, threads_parser};
use super::{CliError, EngineArgs, Request};
use crate::train::probcut::ProbCutRequest;
use std::path::PathBuf;

/// Fit Multi-ProbCut for a weight set and write the weights with their fits.
#[derive(clap::Args, Debug)]
pub struct ProbCutArgs {
    /// A samples file to draw the positions from.
    data: PathBuf,
    /// The weight file to write (the weights and the fits).
    #[arg(long)]
    out: PathBuf,
    /// The weight file to fit for [default: the weights built into the binary].
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// A network (fitted alone, not as a correction) to fit the cuts for: its searches give the
    /// fits, written with the weights, to be used as `--weights OUT --network FILE`.
    #[arg(long, value_name = "FILE")]
    network: Option<PathBuf>,
    /// Positions to search (a fit needs 30 of a stage: about 450 for all 15 stages, more in
    /// practice since they are drawn at random).
    #[arg(long, default_value_t = 2000, value_parser = count::<u64>(1..=10_000_000))]
    positions: u64,
    /// The deepest search fitted.
    #[arg(long, default_value_t = 10, value_parser = count::<u32>(3..=24))]
    max_depth: u32,
    /// Positions solved exactly for the solve fits (the selective solves' ProbCut); 0 for none.
    #[arg(long, default_value_t = 1000, value_parser = count::<u64>(0..=10_000_000))]
    solve_positions: u64,
    /// The most empty squares a solve fit is made for.
    #[arg(long, default_value_t = 22, value_parser = count::<u32>(10..=30))]
    solve_max_empties: u32,
    /// Threads [default: 1].
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    threads: Option<u64>,
    /// Seed of the draw.
    #[arg(long, default_value_t = 1, value_parser = count::<u64>(0..))]
    seed: u64,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

impl ProbCutArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        let weights = engine.weights(self.weights.as_deref(), "--weights")?;
        let network = engine.network(self.network.as_deref(), &weights)?;
        if network.as_ref().is_some_and(|n| n.base() != 0) {
            return Err(CliError(
                "--network: a correction of the weights: its cuts cannot be written with other weights".to_string(),
            ));
        }
        Ok(Request::ProbCut(Box::new(ProbCutRequest {
            data: self.data,
            weights,
            network,
            out: output_file("--out", self.out)?,
            positions: self.positions as usize,
            max_depth: self.max_depth,
            solve_positions: self.solve_positions as usize,
            solve_max_empties: self.solve_max_empties,
            threads: engine.threads(self.threads, 1),
            seed: self.seed,
            progress: !self.no_progress,
        })))
    }
}
