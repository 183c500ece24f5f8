//! `magpie train-network`'s options.

use super::numbers::count;
use super::shared::{cores, output_file, threads_parser};
use super::{CliError, EngineArgs, Request};
use crate::engine::settings::MAX_THREADS;
use crate::eval::network::{HIDDEN, MAX_BUCKETS, Network};
use crate::train::network::NetworkTrainRequest;
use std::path::PathBuf;

/// Fit the network evaluation to training samples and write a network file.
#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("base").args(["residual", "from_weights"]).multiple(false))]
pub struct TrainNetworkArgs {
    /// Sample files (from `magpie datagen`, `magpie wthor-samples` or `magpie relabel`).
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// The network file to write (the best network on the held-out records).
    #[arg(long)]
    out: PathBuf,
    /// The fit's state, written after each epoch; a fit that finds it resumes from it.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// A network file to start from [default: a random network drawn from --seed].
    #[arg(long, value_name = "FILE")]
    start: Option<PathBuf>,
    /// Epochs at most; 0 only measures the network of --start (or the checkpoint's) on the
    /// held-out records, by empties, and writes it unchanged.
    #[arg(long, default_value_t = 30, value_parser = count::<u32>(0..=10_000))]
    epochs: u32,
    /// Samples a minibatch.
    #[arg(long, default_value_t = 2048, value_parser = count::<usize>(8..=16_777_216))]
    batch: usize,
    /// Adam's step size at the first epoch.
    #[arg(long, default_value_t = 0.01)]
    learning_rate: f32,
    /// The step size's factor from one epoch to the next.
    #[arg(long, default_value_t = 0.9)]
    decay: f32,
    /// Epochs without a better held-out error before the fit stops.
    #[arg(long, default_value_t = 3, value_parser = count::<u32>(1..=10_000))]
    patience: u32,
    /// Percent of each file's records, its last ones, kept out of the fit to measure the error.
    #[arg(long, default_value_t = 10, value_parser = count::<u32>(1..=90))]
    holdout: u32,
    /// Sample files held out whole to measure the error, instead of a part of each data file
    /// (every record of those is then fitted): positions the pattern weights were not fitted to.
    #[arg(long = "held-out", value_name = "FILE", conflicts_with = "holdout")]
    held_out: Vec<PathBuf>,
    /// Fit the network as a correction to the pattern weights (--weights, or the built-in ones):
    /// to each sample's score less their value; the search adds the two.
    #[arg(long)]
    residual: bool,
    /// Start from the pattern weights (--weights, or the built-in ones): a network that scores
    /// as they do, their values at each number of empties made into its lanes (the best
    /// approximation of that rank) and its readouts, so that the fit learns what they miss.
    #[arg(long, conflicts_with_all = ["start", "residual"])]
    from_weights: bool,
    /// With --from-weights, the lanes given the weights (the first eigenvectors); the others start
    /// random, free to learn what a linear model cannot.
    #[arg(long, value_name = "K", default_value_t = HIDDEN, requires = "from_weights", value_parser = count::<usize>(1..=HIDDEN as u64))]
    linear_lanes: usize,
    /// With --residual, the pattern weights corrected; with --from-weights, those started from
    /// [default: the weights built into the binary].
    #[arg(long, value_name = "FILE", requires = "base")]
    weights: Option<PathBuf>,
    /// The decoupled weight decay (as AdamW's) of the transformer rows a batch reads: each step
    /// shrinks them by the step size times this.
    #[arg(long, default_value_t = 3.0)]
    weight_decay: f32,
    /// A new network reads only the patterns, not the position's mobility as well (a network
    /// from --start or the checkpoint keeps its own inputs).
    #[arg(long)]
    no_mobility: bool,
    /// Stage buckets: with N above 1, each of N equal ranges of empties (0 to 60) has a table of
    /// its own added to the shared one, at 0 to start with (the search reads one table a bucket,
    /// the two summed); a --start network of one bucket is extended [default: 1, or the --start
    /// network's, or the checkpoint's].
    #[arg(long, value_name = "N", value_parser = count::<usize>(1..=MAX_BUCKETS as u64))]
    buckets: Option<usize>,
    /// The step size of the stage buckets' rows, as a factor of --learning-rate's: a sample moves
    /// its shared row and its bucket's row alike, so at 1 their sum moves twice as far as one
    /// table's (0.25 fitted best: of 0.25 and 1 at 2.86M positions, of 0.25 and 0.5 at 4.8M;
    /// docs/experiments.md).
    #[arg(long, value_name = "F", default_value_t = 0.25)]
    bucket_rate: f32,
    /// Give the network a second layer (a layer stack by numbers of empties: 8 units reading the
    /// first 8, their readout at 0 to start with, so that a network to start from scores as
    /// before); a --start network without one is extended [default: none, or the --start
    /// network's, or the checkpoint's].
    #[arg(long)]
    layer: bool,
    /// The step size of the transformer's rows (the stage buckets' too), as a factor of
    /// --learning-rate's, which the readouts and biases take whole.
    #[arg(long, value_name = "F", default_value_t = 1.0)]
    row_rate: f32,
    /// Seeds the initial network and the order of the samples.
    #[arg(long, default_value_t = 1, value_parser = count::<u64>(0..))]
    seed: u64,
    /// Threads (the fit is the same for any number) [default: every core].
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    threads: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

impl TrainNetworkArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        if !(self.learning_rate.is_finite() && self.learning_rate > 0.0 && self.learning_rate <= 1.0) {
            return Err(CliError(format!(
                "--learning-rate {}: expected a number above 0, at most 1",
                self.learning_rate
            )));
        }
        if !(self.decay.is_finite() && self.decay > 0.0 && self.decay <= 1.0) {
            return Err(CliError(format!("--decay {}: expected a number above 0, at most 1", self.decay)));
        }
        if !(self.weight_decay.is_finite() && (0.0..=100.0).contains(&self.weight_decay)) {
            return Err(CliError(format!("--weight-decay {}: expected a number from 0 to 100", self.weight_decay)));
        }
        if !(self.bucket_rate.is_finite() && (0.0..=1.0).contains(&self.bucket_rate)) {
            return Err(CliError(format!("--bucket-rate {}: expected a number from 0 to 1", self.bucket_rate)));
        }
        if !(self.row_rate.is_finite() && (0.0..=1.0).contains(&self.row_rate)) {
            return Err(CliError(format!("--row-rate {}: expected a number from 0 to 1", self.row_rate)));
        }
        let weights = if self.residual || self.from_weights {
            Some(engine.weights(self.weights.as_deref(), "--weights")?)
        } else {
            None
        };
        let (residual, from_weights) = if self.residual { (weights, None) } else { (None, weights) };
        let out = output_file("--out", self.out)?;
        if self.epochs == 0
            && self.start.is_none()
            && from_weights.is_none()
            && !self.checkpoint.as_ref().is_some_and(|c| c.exists())
        {
            return Err(CliError(
                "--epochs 0 measures a network: give it with --start, --from-weights or an existing --checkpoint"
                    .to_string(),
            ));
        }
        let checkpoint = self.checkpoint.map(|c| output_file("--checkpoint", c)).transpose()?;
        let start = match &self.start {
            Some(path) => Some(Network::read(path).map_err(|e| CliError(format!("--start: {e}")))?),
            None => None,
        };
        Ok(Request::TrainNetwork(Box::new(NetworkTrainRequest {
            data: self.data,
            holdout_percent: self.holdout,
            held_out: self.held_out,
            out,
            checkpoint,
            start,
            epochs: self.epochs,
            batch: self.batch,
            learning_rate: self.learning_rate,
            decay: self.decay,
            patience: self.patience,
            seed: self.seed,
            residual,
            from_weights,
            linear_lanes: self.linear_lanes,
            weight_decay: self.weight_decay,
            mobility: !self.no_mobility,
            buckets: self.buckets,
            bucket_rate: self.bucket_rate,
            layer: self.layer,
            row_rate: self.row_rate,
            threads: engine.threads(self.threads, cores().min(MAX_THREADS)),
            progress: !self.no_progress,
        })))
    }
}
