//! `magpie accuracy`'s options.

use super::numbers::{count, parse_search_depth};
use super::shared::{cores, hash_parser, selectivity_parser, threads_parser};
use super::solve::read_suite;
use super::{CliError, EngineArgs, Request};
use crate::engine::settings::MAX_THREADS;
use crate::eval::EvalKind;
use crate::tools::accuracy::AccuracyRequest;
use std::path::PathBuf;

/// The table of each search when none is given, in MiB: the table is cleared for every position,
/// and searches of 15 plies need no more.
const DEFAULT_HASH_MIB: u64 = 16;

/// Search every position of an OBF file to a depth and measure the scores and moves against the
/// file's exact ones.
#[derive(clap::Args, Debug)]
pub struct AccuracyArgs {
    /// The OBF file, or - for standard input (Edax's hard-20.obf and hard-25.obf, the FFO suite):
    /// positions with the exact score of their moves.
    file: PathBuf,
    /// The depth of every search, in plies (beyond 60: to the end of the game).
    #[arg(long, default_value_t = 15, value_parser = parse_search_depth)]
    depth: u32,
    /// Multi-ProbCut's selectivity, 0 (off) to 5 (most cuts) [default: 5].
    #[arg(long, value_name = "0-5", value_parser = selectivity_parser())]
    selectivity: Option<u8>,
    /// The evaluation: pattern, heuristic, discs, iagno, sannidhanam or corner-edge [default: pattern].
    #[arg(long, value_name = "NAME")]
    eval: Option<EvalKind>,
    /// The pattern evaluation's weight file [default: the weights built into the binary].
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// A network file (from `magpie train-network`) whose values replace the pattern weights' at
    /// the leaves (the weights still order the moves and give Multi-ProbCut its fits).
    #[arg(long, value_name = "FILE")]
    network: Option<PathBuf>,
    /// Positions searched at once, each on one thread (the figures are the same for any number)
    /// [default: every core].
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    threads: Option<u64>,
    /// Each search's transposition table in MiB, 1 to 65536 [default: 16].
    #[arg(long, value_name = "MIB", value_parser = hash_parser())]
    hash: Option<u64>,
    /// The number of the file's first position in its suite, for the `#` column.
    #[arg(long, value_name = "N", value_parser = count::<u64>(1..=1_000_000_000))]
    first: Option<u64>,
    /// Print one JSON object a line (each position, then the totals) instead of the table.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

impl AccuracyArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        let (positions, first) = read_suite(&self.file, self.first)?;
        let eval = engine.evaluator(self.eval, self.weights.as_deref(), self.network.as_deref())?;
        Ok(Request::Accuracy(Box::new(AccuracyRequest {
            positions,
            first,
            depth: self.depth,
            selectivity: engine.selectivity(self.selectivity),
            eval,
            threads: engine.threads(self.threads, cores().min(MAX_THREADS)),
            hash_mib: engine.hash_mib(self.hash, DEFAULT_HASH_MIB as usize),
            json: self.json,
            progress: !self.no_progress,
        })))
    }
}
