//! `magpie review`'s options.

use super::numbers::{count, parse_search_depth};
use super::shared::{Solver, SolverArgs, read_input};
use super::{CliError, EngineArgs, Request};
use crate::formats::ggf::parse_ggf_games;
use crate::tools::analyze::{self, Judge};
use crate::tools::review::{self, ReviewRequest};
use std::path::PathBuf;

/// What each player's moves lost in GGF games (a match's, say): to perfect play from --exact
/// empties down, to searches of --depth before.
#[derive(clap::Args, Debug)]
pub struct ReviewArgs {
    /// GGF files, one game a line (as `magpie match --out` writes them).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Judge the moves from this many empty squares down (1 to 60).
    #[arg(long, default_value_t = 22, value_parser = count::<u32>(1..=60))]
    from: u32,
    /// Solve the positions with this many empty squares or fewer exactly (1 to 30).
    #[arg(long, default_value_t = 22, value_parser = count::<u32>(1..=review::MAX_EXACT as u64))]
    exact: u32,
    /// The depth of the search of the positions with more empty squares than --exact (beyond 60:
    /// to the end of the game).
    #[arg(long, default_value_t = analyze::DEFAULT_DEPTH, value_parser = parse_search_depth)]
    depth: u32,
    #[command(flatten)]
    solver: SolverArgs,
    /// Print one JSON object a line (each player, then the totals; see docs/tools.md) instead of
    /// the table.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

impl ReviewArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        let mut games = Vec::new();
        for file in &self.files {
            let name = file.display();
            let text =
                String::from_utf8(read_input(file)?).map_err(|_| CliError(format!("{name}: not a GGF text file")))?;
            let before = games.len();
            for (i, game) in parse_ggf_games(&text).into_iter().enumerate() {
                games.push(game.map_err(|e| CliError(format!("{name}: game {}: {e}", i + 1)))?);
            }
            if games.len() == before {
                return Err(CliError(format!("{name}: no game to review (a GGF file has one game a line)")));
            }
        }
        let Solver { eval, selectivity, hash_mib, threads } = self.solver.resolve(engine)?;
        Ok(Request::Review(ReviewRequest {
            games,
            from: self.from,
            judge: Judge { eval, depth: self.depth, movetime: None, exact: self.exact, selectivity },
            threads,
            hash_mib,
            json: self.json,
            progress: !self.no_progress,
        }))
    }
}
