//! `magpie solve`'s options.

use super::shared::{SearchArgs, selectivity_parser};
use super::{CliError, EngineArgs, Request};
use crate::eval::{EvalKind, Evaluator};
use crate::formats::parse_obf_file;
use crate::tools::solve::SolveRequest;
use std::path::PathBuf;

/// Solve every position of an OBF test suite (e.g. the FFO endgames) and check the scores.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The OBF file: one position a line, optionally followed by the exact score of each move
    /// (`<squares> <side>; G8:+18; H1:+12;`).
    file: PathBuf,
    /// Solve for win, draw or loss only.
    #[arg(long)]
    wld: bool,
    /// Where the ladder of selective solves before each exact one starts, 0 (none) to 5; the
    /// answers are exact at any level [default: 5].
    #[arg(long, value_name = "0-5", value_parser = selectivity_parser())]
    selectivity: Option<u8>,
    /// The weight file whose evaluation orders the moves and whose fits drive the selective solves
    /// [default: the weights built into the binary].
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    #[command(flatten)]
    search: SearchArgs,
    /// Print one JSON object a line (each position, then the totals; see docs/tools.md) instead
    /// of the table.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

impl SolveArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        let name = self.file.display();
        let text = std::fs::read_to_string(&self.file).map_err(|e| CliError(format!("{name}: {e}")))?;
        let positions = parse_obf_file(&text).map_err(|(line, e)| CliError(format!("{name} line {line}: {e}")))?;
        if positions.is_empty() {
            return Err(CliError(format!("{name}: no position to solve (an OBF file has one position a line)")));
        }
        let (hash_mib, threads) = self.search.resolve(engine);
        let weights = engine.weights(self.weights.as_deref(), "--weights")?;
        Ok(Request::Solve(SolveRequest {
            positions,
            eval: Evaluator::with_weights(EvalKind::Pattern, weights),
            threads,
            hash_mib,
            wld: self.wld,
            selectivity: engine.selectivity(self.selectivity),
            json: self.json,
            progress: !self.no_progress,
        }))
    }
}
