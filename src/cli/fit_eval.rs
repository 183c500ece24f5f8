//! `magpie fit-eval`'s options.

use super::{CliError, EngineArgs, Request};
use crate::train::fit_eval;
use std::path::PathBuf;

/// Fit the weights of Magpie's hand-made evaluation to WTHOR tournament games.
#[derive(clap::Args, Debug)]
pub struct FitEvalArgs {
    /// A WTHOR folder (its WTH_*.wtb files) or one .wtb file.
    #[arg(long)]
    wthor: PathBuf,
}

impl FitEvalArgs {
    pub(super) fn request(self, _engine: &EngineArgs) -> Result<Request, CliError> {
        fit_eval::read_wthor(&self.wthor).map(Request::FitEval).map_err(|e| CliError(format!("--wthor {e}")))
    }
}
