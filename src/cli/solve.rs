//! `magpie solve`'s options.

use super::shared::{Solver, SolverArgs};
use super::{CliError, EngineArgs, Request};
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
    #[command(flatten)]
    solver: SolverArgs,
    /// Stop each position's search after this many seconds: a position not solved by then is
    /// reported as cut, with the move and score of the search so far [default: no limit].
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
    time_limit: Option<u64>,
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
        let Solver { eval, selectivity, hash_mib, threads } = self.solver.resolve(engine)?;
        Ok(Request::Solve(SolveRequest {
            positions,
            eval,
            threads,
            hash_mib,
            wld: self.wld,
            selectivity,
            time_limit: self.time_limit.map(std::time::Duration::from_secs),
            json: self.json,
            progress: !self.no_progress,
        }))
    }
}
