//! `magpie bench`'s options.

use super::numbers::count;
use super::shared::selectivity_parser;
use super::{CliError, EngineArgs, Request};
use crate::eval::EvalKind;
use crate::tools::bench;
use std::path::PathBuf;

/// Search 16 fixed positions to a fixed depth: the node count is the search's signature.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Depth of every search.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH, value_parser = count::<u32>(1..=30))]
    depth: u32,
    /// The evaluation: pattern, heuristic, discs, iagno, sannidhanam or corner-edge [default: pattern].
    #[arg(long, value_name = "NAME")]
    eval: Option<EvalKind>,
    /// The pattern evaluation's weight file [default: the weights built into the binary].
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// A network file whose values replace the pattern weights' at the leaves [default: none].
    #[arg(long, value_name = "FILE")]
    network: Option<PathBuf>,
    /// Multi-ProbCut's selectivity, 0 (off) to 5 (most cuts) [default: 5].
    #[arg(long, value_name = "0-5", value_parser = selectivity_parser())]
    selectivity: Option<u8>,
}

impl BenchArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        Ok(Request::Bench {
            depth: self.depth,
            eval: engine.evaluator(self.eval, self.weights.as_deref(), self.network.as_deref())?,
            selectivity: engine.selectivity(self.selectivity),
        })
    }
}
