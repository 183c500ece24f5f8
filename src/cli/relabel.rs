//! `magpie relabel`'s options.

use super::numbers::count;
use super::shared::{output_file, selectivity_parser, threads_parser};
use super::{CliError, EngineArgs, Request};
use crate::eval::{EvalKind, Evaluator};
use crate::train::relabel::RelabelRequest;
use std::path::PathBuf;

/// Score the positions of sample files again by a search of --depth (exact records are kept), and
/// write them in the same order.
#[derive(clap::Args, Debug)]
pub struct RelabelArgs {
    /// Sample files (from `magpie datagen` or `magpie wthor-samples`), read in this order.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// The samples file to write (it may be one of the files read).
    #[arg(long)]
    out: PathBuf,
    /// The depth of the search that scores every record not exact.
    #[arg(long, value_parser = count::<u32>(1..=30))]
    depth: u32,
    /// Multi-ProbCut's selectivity in the searches, 0 (off) to 5 (most cuts) [default: 5].
    #[arg(long, value_name = "0-5", value_parser = selectivity_parser())]
    selectivity: Option<u8>,
    /// The weight file whose evaluation scores the positions [default: the weights built into the
    /// binary].
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Worker threads (the file written is the same for any number) [default: 1].
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    threads: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

impl RelabelArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        let weights = engine.weights(self.weights.as_deref(), "--weights")?;
        Ok(Request::Relabel(Box::new(RelabelRequest {
            data: self.data,
            out: output_file("--out", self.out)?,
            depth: self.depth,
            eval: Evaluator::with_weights(EvalKind::default(), weights),
            selectivity: engine.selectivity(self.selectivity),
            threads: engine.threads(self.threads, 1),
            progress: !self.no_progress,
        })))
    }
}
