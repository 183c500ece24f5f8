//! `magpie wthor-samples`' options.

use super::numbers::count;
use super::shared::{output_file, selectivity_parser, threads_parser};
use super::{CliError, EngineArgs, Request};
use crate::eval::{EvalKind, Evaluator};
use crate::shard::Shard;
use crate::train::fit_eval;
use crate::train::wthor_samples::WthorSamplesRequest;
use std::path::PathBuf;

/// Turn WTHOR tournament games into training samples for `magpie train`: solved near the end,
/// scored by the game's result or by a search before.
#[derive(clap::Args, Debug)]
pub struct WthorSamplesArgs {
    /// A WTHOR folder (its WTH_*.wtb files) or one .wtb file.
    #[arg(long)]
    wthor: PathBuf,
    /// The samples file to write.
    #[arg(long)]
    out: PathBuf,
    /// Positions with this many empty squares or fewer are solved exactly (the others are scored
    /// with the game's perfect-play result from 24 empties, or by --depth).
    #[arg(long, default_value_t = 12, value_parser = count::<u32>(0..=24))]
    exact_empties: u32,
    /// Write only the positions solved exactly: the game's result is a noisy label far from the
    /// end (the embedded weights are fitted without those positions).
    #[arg(long)]
    solved_only: bool,
    /// Score the positions not solved by a search of this depth (with Multi-ProbCut at
    /// --selectivity and the --weights evaluation) instead of the game's result.
    #[arg(long, conflicts_with = "solved_only", value_parser = count::<u32>(1..=30))]
    depth: Option<u32>,
    /// With --depth: Multi-ProbCut's selectivity, 0 (off) to 5 (most cuts) [default: 5].
    #[arg(long, value_name = "0-5", value_parser = selectivity_parser())]
    selectivity: Option<u8>,
    /// The weight file whose evaluation orders the solves and scores the --depth searches
    /// [default: the weights built into the binary].
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Take only the games j with j % N == I, numbered in the order read (shards' files merge by
    /// concatenation).
    #[arg(long, value_name = "I/N", default_value = "0/1")]
    shard: Shard,
    /// Worker threads [default: 1].
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    threads: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

impl WthorSamplesArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        let out = output_file("--out", self.out)?;
        if self.depth.is_none() && self.selectivity.or(engine.selectivity).is_some() {
            return Err(CliError("--selectivity applies to the --depth searches: give --depth too".into()));
        }
        let weights = engine.weights(self.weights.as_deref(), "--weights")?;
        let games = fit_eval::read_wthor(&self.wthor).map_err(|e| CliError(format!("--wthor {e}")))?;
        let games =
            games.into_iter().enumerate().filter(|(j, _)| self.shard.contains(*j as u64)).map(|(_, g)| g).collect();
        Ok(Request::WthorSamples(Box::new(WthorSamplesRequest {
            games,
            out,
            exact_empties: self.exact_empties,
            solved_only: self.solved_only,
            depth: self.depth,
            eval: Evaluator::with_weights(EvalKind::default(), weights),
            selectivity: engine.selectivity(self.selectivity),
            threads: engine.threads(self.threads, 1),
            progress: !self.no_progress,
        })))
    }
}
