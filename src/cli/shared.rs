//! What several subcommands share: the engine's options, which a subcommand may also be given
//! before its name (`magpie --selectivity 0 solve …`), the search's resources, and the checks of
//! positions, sizes and output paths.

use super::CliError;
use super::numbers::count;
use crate::board::{BoardSize, Position};
use crate::book::{Book, default_book};
use crate::engine::book::read_book;
use crate::engine::settings::{
    DEFAULT_HASH_MIB, MAX_BOOK_RANDOMNESS, MAX_BOOK_SEED, MAX_HASH_MIB, MAX_LEVEL, MAX_THREADS, MIN_HASH_MIB,
};
use crate::eval::network::{Network, Quantized};
use crate::eval::weights::Weights;
use crate::eval::{EvalKind, Evaluator};
use crate::formats::parse_position;
use crate::protocol::Protocol;
use crate::search::{DEFAULT_SELECTIVITY, MAX_SELECTIVITY};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The engine's options (with no subcommand). Each is optional so that one given before a
/// subcommand's name can be told from its default: the subcommand takes it as its own, or refuses
/// it if it has no such option.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct EngineArgs {
    /// The protocol to speak: ugi, nboard or gtp [default: recognised from the first line].
    #[arg(long)]
    pub protocol: Option<Protocol>,
    /// The evaluation: pattern, heuristic, discs, iagno, sannidhanam or corner-edge [default: pattern].
    #[arg(long, value_name = "NAME")]
    pub eval: Option<EvalKind>,
    /// The pattern evaluation's weight file [default: the weights built into the binary].
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// A network file (from `magpie train-network`) whose values replace the pattern weights' at
    /// the search's leaves [default: none].
    #[arg(long, value_name = "FILE")]
    pub network: Option<PathBuf>,
    /// Multi-ProbCut's selectivity, 0 (off) to 5 (most cuts) [default: 5].
    #[arg(long, value_name = "0-5", value_parser = selectivity_parser())]
    pub selectivity: Option<u8>,
    /// Difficulty level, 0 (random mover) to 10 (full strength) [default: 10].
    #[arg(long, value_name = "0-10", value_parser = level_parser())]
    pub level: Option<u8>,
    /// Milliseconds kept in hand on every timed search [default: 10].
    #[arg(long, value_name = "MS", value_parser = count::<u64>(0..=5000))]
    pub move_overhead: Option<u64>,
    /// Thinking time in milliseconds when a client sets no limit (UGI `go`, GTP `genmove` without
    /// time settings) [default: 1000].
    #[arg(long, value_name = "MS", value_parser = count::<u64>(1..=3_600_000))]
    pub movetime: Option<u64>,
    /// Transposition table size in MiB, 1 to 65536 [default: 64].
    #[arg(long, value_name = "MIB", value_parser = hash_parser())]
    pub hash: Option<u64>,
    /// Search threads, 1 to 256 [default: 1].
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    pub threads: Option<u64>,
    /// The opening book: a book file (made by `magpie book`; NBoard's `learn` adds games to it), or
    /// `<none>` to play without one [default: the book built into the binary].
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Play moves from the book while it holds the position: true or false [default: true].
    #[arg(long, value_name = "BOOL", value_parser = clap::value_parser!(bool))]
    pub own_book: Option<bool>,
    /// Play any book move within this many discs of the best (0 to 64, e.g. 1.5), drawn at
    /// random [default: 0, the best].
    #[arg(long, value_name = "DISCS", value_parser = parse_book_randomness)]
    pub book_randomness: Option<u32>,
    /// The seed of the book's random draws, 1 to 2147483647, to repeat them; 0 seeds from the
    /// clock [default: 0].
    #[arg(long, value_name = "N", value_parser = book_seed_parser())]
    pub book_seed: Option<u64>,
}

/// The book an engine plays from, and the file it came from (`None` for the built-in book or
/// none).
pub type BookChoice = (Option<Arc<Book>>, Option<PathBuf>);

impl EngineArgs {
    /// The options given, by clap id (the field's name).
    pub fn given(&self) -> Vec<&'static str> {
        let EngineArgs {
            protocol,
            eval,
            weights,
            network,
            selectivity,
            level,
            move_overhead,
            movetime,
            hash,
            threads,
            book,
            own_book,
            book_randomness,
            book_seed,
        } = self;
        [
            ("protocol", protocol.is_some()),
            ("eval", eval.is_some()),
            ("weights", weights.is_some()),
            ("network", network.is_some()),
            ("selectivity", selectivity.is_some()),
            ("level", level.is_some()),
            ("move_overhead", move_overhead.is_some()),
            ("movetime", movetime.is_some()),
            ("hash", hash.is_some()),
            ("threads", threads.is_some()),
            ("book", book.is_some()),
            ("own_book", own_book.is_some()),
            ("book_randomness", book_randomness.is_some()),
            ("book_seed", book_seed.is_some()),
        ]
        .into_iter()
        .filter_map(|(id, given)| given.then_some(id))
        .collect()
    }

    /// The evaluation: `own`, else the one given before the subcommand, else the default.
    pub fn eval(&self, own: Option<EvalKind>) -> EvalKind {
        own.or(self.eval).unwrap_or_default()
    }

    /// The difficulty level, as [`EngineArgs::eval`].
    pub fn level(&self, own: Option<u8>) -> u8 {
        own.or(self.level).unwrap_or(MAX_LEVEL)
    }

    /// Multi-ProbCut's selectivity, as [`EngineArgs::eval`].
    pub fn selectivity(&self, own: Option<u8>) -> u8 {
        own.or(self.selectivity).unwrap_or(DEFAULT_SELECTIVITY)
    }

    /// The weights of the file `own` names, else of the one given before the subcommand, else the
    /// embedded ones. A file that cannot be read is refused, naming `flag` and the file.
    pub fn weights(&self, own: Option<&Path>, flag: &str) -> Result<Arc<Weights>, CliError> {
        match own.or(self.weights.as_deref()) {
            Some(path) => Ok(Arc::new(Weights::read(path).map_err(|e| CliError(format!("{flag}: {e}")))?)),
            None => Ok(Weights::embedded()),
        }
    }

    /// The network of the file `own` names, else of the one given before the subcommand, else
    /// none; one fitted as a correction of other weights than `weights` is refused.
    pub fn network(&self, own: Option<&Path>, weights: &Arc<Weights>) -> Result<Option<Arc<Quantized>>, CliError> {
        let Some(path) = own.or(self.network.as_deref()) else { return Ok(None) };
        let net = Network::read(path).map_err(|e| CliError(format!("--network: {e}")))?;
        let quantized = Quantized::new(&net);
        quantized.check_base(weights).map_err(|e| CliError(format!("--network: {}: {e}", path.display())))?;
        Ok(Some(Arc::new(quantized)))
    }

    /// The evaluation `own` (else the one given before the subcommand, else the pattern one)
    /// with the weights of `weights` (as [`EngineArgs::weights`]) and the network of `network`
    /// (as [`EngineArgs::network`]), which only the pattern evaluation reads.
    pub fn evaluator(
        &self,
        own: Option<EvalKind>,
        weights: Option<&Path>,
        network: Option<&Path>,
    ) -> Result<Evaluator, CliError> {
        let kind = self.eval(own);
        let weights = self.weights(weights, "--weights")?;
        match self.network(network, &weights)? {
            Some(net) if kind == EvalKind::Pattern => {
                Evaluator::with_network(weights, net).map_err(|e| CliError(format!("--network: {e}")))
            }
            Some(_) => Err(CliError(format!("--network: the {kind} evaluation reads no network (only pattern does)"))),
            None => Ok(Evaluator::with_weights(kind, weights)),
        }
    }

    /// The threads: `own`, else those given before the subcommand, else `default`.
    pub fn threads(&self, own: Option<u64>, default: usize) -> usize {
        own.or(self.threads).map_or(default, |n| n as usize)
    }

    /// The table size in MiB: `own`, else the one given before the subcommand, else `default`.
    pub fn hash_mib(&self, own: Option<u64>, default: usize) -> usize {
        own.or(self.hash).map_or(default, |n| n as usize)
    }

    /// The book of the file `own` names, else of the one given before the subcommand, else the
    /// built-in one; `<none>` is no book, `<default>` the built-in one. A file that cannot be read
    /// or is not a whole book is refused, naming it.
    pub fn book(&self, own: Option<&Path>) -> Result<BookChoice, CliError> {
        match own.or(self.book.as_deref()) {
            None => Ok((Some(default_book()), None)),
            Some(path) if path.as_os_str() == "<default>" => Ok((Some(default_book()), None)),
            Some(path) if path.as_os_str() == "<none>" => Ok((None, None)),
            Some(path) => {
                let book = read_book(path).map_err(|e| CliError(format!("--book: {e}")))?;
                Ok((Some(Arc::new(book)), Some(path.to_path_buf())))
            }
        }
    }

    /// The book's randomness in centi-discs, as [`EngineArgs::eval`].
    pub fn book_randomness(&self, own: Option<u32>) -> u32 {
        own.or(self.book_randomness).unwrap_or(0)
    }

    /// The book's seed (`None`: from the clock; 0 is that too), as [`EngineArgs::eval`].
    pub fn book_seed(&self, own: Option<u64>) -> Option<u64> {
        own.or(self.book_seed).filter(|&seed| seed != 0)
    }
}

/// `--book-randomness`: discs, 0 to 64 (a decimal), as centi-discs.
pub fn parse_book_randomness(text: &str) -> Result<u32, String> {
    match text.parse::<f64>() {
        Ok(discs) if (0.0..=f64::from(MAX_BOOK_RANDOMNESS)).contains(&discs) => Ok((discs * 100.0).round() as u32),
        _ => Err(format!("expected a number of discs from 0 to {MAX_BOOK_RANDOMNESS}")),
    }
}

/// `--book-seed`'s values.
pub fn book_seed_parser() -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    count(0..=MAX_BOOK_SEED)
}

/// The search's resources, for the subcommands that search one position at a time.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct SearchArgs {
    /// Transposition table size in MiB, 1 to 65536 [default: 64].
    #[arg(long, value_name = "MIB", value_parser = hash_parser())]
    pub hash: Option<u64>,
    /// Search threads, 1 to 256 [default: 1].
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    pub threads: Option<u64>,
}

impl SearchArgs {
    /// The table size in MiB and the threads, these or those given before the subcommand.
    pub fn resolve(&self, engine: &EngineArgs) -> (usize, usize) {
        (engine.hash_mib(self.hash, DEFAULT_HASH_MIB), engine.threads(self.threads, 1))
    }
}

/// The options of the subcommands that solve positions exactly (`solve`, `review`).
#[derive(clap::Args, Debug, Clone)]
pub struct SolverArgs {
    /// Multi-ProbCut's selectivity, 0 (none) to 5: one selective solve at this level (3 at most)
    /// before each exact one; the answers are exact at any level [default: 5].
    #[arg(long, value_name = "0-5", value_parser = selectivity_parser())]
    pub selectivity: Option<u8>,
    /// The weight file whose evaluation orders the solver's moves and whose fits drive the
    /// selective solves [default: the weights built into the binary].
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Transposition table size in MiB, 1 to 65536 [default: 64].
    #[arg(long, value_name = "MIB", value_parser = hash_parser())]
    pub hash: Option<u64>,
    /// Search threads, 1 to 256 [default: every core].
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    pub threads: Option<u64>,
}

/// The cores of this machine (1 when it cannot be told): the threads of the tools that search
/// many positions when none are given.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// What [`SolverArgs`] come to.
pub struct Solver {
    /// The evaluation that orders the moves.
    pub eval: Evaluator,
    /// Where the selective solves start.
    pub selectivity: u8,
    /// The table size in MiB.
    pub hash_mib: usize,
    /// Search threads.
    pub threads: usize,
}

impl SolverArgs {
    /// These options, else those given before the subcommand, else the defaults (every core).
    pub fn resolve(&self, engine: &EngineArgs) -> Result<Solver, CliError> {
        let hash_mib = engine.hash_mib(self.hash, DEFAULT_HASH_MIB);
        let threads = engine.threads(self.threads, cores().min(MAX_THREADS));
        let weights = engine.weights(self.weights.as_deref(), "--weights")?;
        Ok(Solver {
            eval: Evaluator::with_weights(EvalKind::Pattern, weights),
            selectivity: engine.selectivity(self.selectivity),
            hash_mib,
            threads,
        })
    }
}

/// `--selectivity`'s values.
pub fn selectivity_parser() -> impl Fn(&str) -> Result<u8, String> + Clone + Send + Sync + 'static {
    count(0..=u64::from(MAX_SELECTIVITY))
}

/// `--level`'s values.
pub fn level_parser() -> impl Fn(&str) -> Result<u8, String> + Clone + Send + Sync + 'static {
    count(0..=u64::from(MAX_LEVEL))
}

/// `--hash`'s values, in MiB.
pub fn hash_parser() -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    count(MIN_HASH_MIB as u64..=MAX_HASH_MIB as u64)
}

/// `--threads`' values.
pub fn threads_parser() -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    count(1..=MAX_THREADS as u64)
}

/// A board size: 4, 6 or 8.
pub fn parse_size(text: &str) -> Result<BoardSize, String> {
    text.parse::<usize>().ok().and_then(BoardSize::from_side).ok_or_else(|| "expected 4, 6 or 8".to_string())
}

/// The position given by `flag` (checked against `--size` when both are given), or the start
/// position of the size.
pub fn start_position(text: Option<&str>, size: Option<BoardSize>, flag: &str) -> Result<Position, CliError> {
    let Some(text) = text else { return Ok(Position::start(size.unwrap_or_default())) };
    let pos = parse_position(text).map_err(|e| CliError(format!("{flag}: {e}")))?;
    if let Some(size) = size.filter(|s| *s != pos.size()) {
        return Err(CliError(format!("{flag} is a {} board but --size says {size}", pos.size())));
    }
    Ok(pos)
}

/// The bytes of the input file `path`. Only a regular file is read: a device such as /dev/zero
/// (which never ends) or a folder is refused with one line naming it.
pub fn read_input(path: &Path) -> Result<Vec<u8>, CliError> {
    crate::quote::read_file(path).map_err(CliError)
}

/// The bytes of the input file `path`, as [`read_input`], or of standard input for `-`; with the
/// name to give it in messages (`<stdin>` for standard input).
pub fn read_input_or_stdin(path: &Path) -> Result<(String, Vec<u8>), CliError> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
            .map_err(|e| CliError(format!("<stdin>: {e}")))?;
        return Ok(("<stdin>".to_string(), bytes));
    }
    Ok((path.display().to_string(), read_input(path)?))
}

/// `path`, checked as a file to write: its folder must exist and it must not be a folder itself,
/// so that a long run does not fail at its end for want of a place to write.
pub fn output_file(flag: &str, path: PathBuf) -> Result<PathBuf, CliError> {
    let shown = path.display();
    if path.is_dir() {
        return Err(CliError(format!("{flag} {shown}: is a folder, not a file")));
    }
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(CliError(format!("{flag} {shown}: no folder {}", folder.display())));
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_files_need_an_existing_folder() {
        assert!(output_file("--out", PathBuf::from("w.bin")).is_ok());
        let dir = std::env::temp_dir();
        assert!(output_file("--out", dir.join("magpie-test-w.bin")).is_ok());
        let err = output_file("--out", dir.join("magpie-no-such-folder/w.bin")).unwrap_err().0;
        assert!(
            err.starts_with("--out ") && err.contains("no folder") && err.contains("magpie-no-such-folder"),
            "{err}"
        );
        let err = output_file("--out", dir.clone()).unwrap_err().0;
        assert!(err.contains("is a folder"), "{err}");
    }

    #[test]
    fn book_options_read_discs_seeds_and_files() {
        assert_eq!(parse_book_randomness("0"), Ok(0));
        assert_eq!(parse_book_randomness("1.5"), Ok(150));
        assert_eq!(parse_book_randomness("64"), Ok(6400));
        for bad in ["-1", "65", "NaN", "inf", "two", ""] {
            assert!(parse_book_randomness(bad).is_err(), "{bad}");
        }
        let engine = EngineArgs { book_seed: Some(0), book_randomness: Some(200), ..EngineArgs::default() };
        assert_eq!(engine.book_seed(None), None, "0 seeds from the clock");
        assert_eq!(engine.book_seed(Some(7)), Some(7));
        assert_eq!(engine.book_randomness(None), 200);
        let (book, file) = EngineArgs::default().book(None).unwrap();
        assert!(book.is_some() && file.is_none(), "the built-in book");
        let none = EngineArgs { book: Some("<none>".into()), ..EngineArgs::default() };
        assert_eq!(none.book(None).unwrap(), (None, None));
        assert!(none.book(Some(Path::new("<default>"))).unwrap().0.is_some());
        let err = none.book(Some(Path::new("no-such-dir/missing.book"))).unwrap_err().0;
        assert!(
            err.starts_with("--book: ") && err.contains("no-such-dir/missing.book") && !err.contains('\n'),
            "{err}"
        );
    }

    #[test]
    fn options_given_before_a_subcommand_are_listed_and_taken_last() {
        let engine = EngineArgs { selectivity: Some(2), hash: Some(8), ..EngineArgs::default() };
        assert_eq!(engine.given(), ["selectivity", "hash"]);
        assert_eq!(engine.selectivity(None), 2);
        assert_eq!(engine.selectivity(Some(4)), 4, "the subcommand's own comes first");
        assert_eq!(EngineArgs::default().selectivity(None), DEFAULT_SELECTIVITY);
        assert_eq!(engine.hash_mib(None, 16), 8);
        assert_eq!(EngineArgs::default().hash_mib(None, 16), 16);
    }
}
