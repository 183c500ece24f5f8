//! `magpie train`'s options.

use super::numbers::count;
use super::shared::{output_file, threads_parser};
use super::{CliError, EngineArgs, Request};
use crate::eval::weights::Weights;
use crate::train::patterns::TrainRequest;
use std::path::PathBuf;
use std::sync::Arc;

/// Fit the pattern evaluation's weights to training samples and write a weight file.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Sample files (from `magpie datagen` or `magpie wthor-samples`).
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// The weight file to write.
    #[arg(long)]
    out: PathBuf,
    /// Conjugate-gradient iterations.
    #[arg(long, default_value_t = 60, value_parser = count::<u32>(1..=10_000))]
    iterations: u32,
    /// Percent of each file's records, its last ones, kept out of the fit to measure the error.
    #[arg(long, default_value_t = 10, value_parser = count::<u32>(0..=90))]
    holdout: u32,
    /// Ridge penalty per weight (in units of one sample).
    #[arg(long, default_value_t = 2.0)]
    l2: f64,
    /// Penalty on the squared difference of a weight between neighbouring stages (in units of one
    /// sample): stages lend each other what they saw.
    #[arg(long, default_value_t = 50.0)]
    smooth: f64,
    /// Weight file to fit from: the fit learns the change from these weights, and --l2 pulls
    /// towards them rather than towards zero (so a round keeps what earlier rounds' data taught).
    #[arg(long, value_name = "FILE")]
    prior: Option<PathBuf>,
    /// The weight file the new fit's held-out error is compared with [default: the weights built
    /// into the binary].
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Threads [default: 1].
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    threads: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

impl TrainArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        if !(self.l2.is_finite() && self.l2 >= 0.0) {
            return Err(CliError(format!("--l2 {}: expected a number at least 0", self.l2)));
        }
        if !(self.smooth.is_finite() && self.smooth >= 0.0) {
            return Err(CliError(format!("--smooth {}: expected a number at least 0", self.smooth)));
        }
        let out = output_file("--out", self.out)?;
        let prior = match &self.prior {
            Some(path) => Some(Arc::new(Weights::read(path).map_err(|e| CliError(format!("--prior {e}")))?)),
            None => None,
        };
        Ok(Request::Train(TrainRequest {
            data: self.data,
            prior,
            out,
            iterations: self.iterations,
            holdout_percent: self.holdout,
            l2: self.l2,
            smooth: self.smooth,
            threads: engine.threads(self.threads, 1),
            progress: !self.no_progress,
            previous: engine.weights(self.weights.as_deref(), "--weights")?,
        }))
    }
}
