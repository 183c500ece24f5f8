//! `magpie solve`'s options.

use super::numbers::count;
use super::shared::{Solver, SolverArgs, read_input_or_stdin};
use super::{CliError, EngineArgs, Request};
use crate::formats::{ObfLine, parse_obf_file};
use crate::tools::solve::SolveRequest;
use std::path::{Path, PathBuf};

/// Solve every position of an OBF test suite (e.g. the FFO endgames) and check the scores.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The OBF file, or - for standard input: one position a line, optionally followed by the
    /// exact score of each move (`<squares> <side>; G8:+18; H1:+12;`, Edax's forms too).
    file: PathBuf,
    /// The number of the file's first position in its suite, for the `#` column [default: the
    /// first number of a file named like fforum-40-59.obf when it holds that many positions, else
    /// 1].
    #[arg(long, value_name = "N", value_parser = count::<u64>(1..=1_000_000_000))]
    first: Option<u64>,
    /// Solve for win, draw or loss only.
    #[arg(long)]
    wld: bool,
    #[command(flatten)]
    solver: SolverArgs,
    /// Stop each position's search after this many seconds: a position not solved by then is
    /// reported as cut, with the move and score of the search so far [default: no limit].
    #[arg(long, value_name = "SECONDS", value_parser = count::<u64>(1..=31_536_000))]
    time_limit: Option<u64>,
    /// Print one JSON object a line (each position, then the totals; see docs/tools.md) instead
    /// of the table.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

/// A test suite: its positions, each with its line in the file, and the number of its first
/// position in the suite, when known.
pub(super) type Suite = (Vec<(usize, ObfLine)>, Option<usize>);

/// The suite of `file` (`-`: standard input), its first number `first` or else from the file's
/// name. A file that cannot be read, a bad line (named) or a file with no position is refused.
pub(super) fn read_suite(file: &Path, first: Option<u64>) -> Result<Suite, CliError> {
    let (name, bytes) = read_input_or_stdin(file)?;
    let text = String::from_utf8(bytes).map_err(|_| CliError(format!("{name}: not an OBF text file")))?;
    let positions = parse_obf_file(&text).map_err(|(line, e)| CliError(format!("{name} line {line}: {e}")))?;
    if positions.is_empty() {
        return Err(CliError(format!("{name}: no position in it (an OBF file has one position a line)")));
    }
    let first = first.map(|n| n as usize).or_else(|| suite_first_number(file, positions.len()));
    Ok((positions, first))
}

impl SolveArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        let (positions, first) = read_suite(&self.file, self.first)?;
        let Solver { eval, selectivity, hash_mib, threads } = self.solver.resolve(engine)?;
        Ok(Request::Solve(SolveRequest {
            positions,
            first,
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

/// The number of the first position of a file named after the range of its suite it holds
/// (`fforum-40-59.obf`: 40), when it holds as many positions as the range says.
fn suite_first_number(path: &Path, positions: usize) -> Option<usize> {
    let stem = path.file_stem()?.to_str()?;
    let mut numbers = stem.rsplit('-').take(2).map(|w| w.parse::<usize>().ok());
    let (last, first) = (numbers.next()??, numbers.next()??);
    (first >= 1 && last >= first && last - first + 1 == positions).then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suites_first_number_comes_from_its_name() {
        let first = |name: &str, n| suite_first_number(Path::new(name), n);
        assert_eq!(first("tests/data/fforum-40-59.obf", 20), Some(40));
        assert_eq!(first("fforum-1-19.obf", 19), Some(1));
        assert_eq!(first("fforum-40-59.obf", 19), None, "the name does not say what the file holds");
        assert_eq!(first("hard-20.obf", 276), None);
        assert_eq!(first("-", 5), None);
        assert_eq!(first("set-59-40.obf", 20), None);
        assert_eq!(first("x-0-9.obf", 10), None);
    }
}
