//! The command line: subcommands parsed by clap into typed requests, run, and turned into an exit
//! status.
//!
//! With no subcommand Magpie is an engine, and the options are the engine's ([`EngineArgs`]). Each
//! subcommand has its own options in a file of its own here. An engine option written before a
//! subcommand's name (`magpie --selectivity 0 solve …`) is taken as the subcommand's own when it has
//! one, and refused when it has none.
//!
//! Exit status: 0 on success; 2 on a bad argument or bad input (a file that cannot be read, a
//! broken or empty file, a folder to write in that does not exist), with one line `error: …` on
//! stderr naming the bad value or file; 1 when a run fails in another way (a write error) or a check
//! fails (`solve`: an answer disagrees with the file). Nothing here panics on bad input.

mod accuracy;
mod analyze;
mod bench;
mod bestmove;
mod book;
mod datagen;
mod fit_eval;
mod ggs;
mod matches;
mod numbers;
mod openings;
mod perft;
mod probcut;
mod relabel;
mod review;
mod shared;
mod solve;
mod train;
mod train_network;
mod wthor_samples;

pub use shared::EngineArgs;

use crate::engine::settings::{DEFAULT_HASH_MIB, Settings};
use crate::eval::Evaluator;
use crate::formats::wthor::WthorGame;
use crate::matches::{MatchConfig, MatchError};
use crate::protocol::Protocol;
use crate::search::tt::AllocError;
use crate::tools;
use crate::tools::analyze::AnalyzeRequest;
use crate::tools::bestmove::BestMoveRequest;
use crate::tools::openings::OpeningsRequest;
use crate::tools::perft::PerftRequest;
use crate::tools::review::ReviewRequest;
use crate::tools::solve::SolveRequest;
use crate::train::datagen::DatagenRequest;
use crate::train::patterns::TrainRequest;
use crate::train::probcut::ProbCutRequest;
use crate::train::relabel::RelabelRequest;
use crate::train::wthor_samples::WthorSamplesRequest;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::ffi::OsString;
use std::fmt;
use std::io;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Magpie, an Othello engine.
#[derive(Parser, Debug)]
#[command(
    name = "magpie",
    version,
    about = "Magpie, an Othello (Reversi) engine",
    long_about = "Magpie, an Othello (Reversi) engine.\n\nWith no subcommand, Magpie runs as an engine: it reads \
                  commands on stdin and answers on stdout in the UGI, NBoard or GTP protocol (see protocol.md). \
                  The options below are the engine's; each subcommand has its own (magpie help <subcommand>)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    engine: EngineArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    Perft(perft::PerftArgs),
    Bestmove(bestmove::BestMoveArgs),
    Bench(bench::BenchArgs),
    Solve(solve::SolveArgs),
    Accuracy(accuracy::AccuracyArgs),
    Review(review::ReviewArgs),
    Analyze(analyze::AnalyzeArgs),
    Match(matches::MatchArgs),
    Ggs(Box<ggs::GgsArgs>),
    Openings(openings::OpeningsArgs),
    FitEval(fit_eval::FitEvalArgs),
    WthorSamples(wthor_samples::WthorSamplesArgs),
    Train(train::TrainArgs),
    TrainNetwork(train_network::TrainNetworkArgs),
    Probcut(probcut::ProbCutArgs),
    Datagen(datagen::DatagenArgs),
    Relabel(relabel::RelabelArgs),
    Book(book::BookArgs),
}

/// A command line that names a valid command but cannot be carried out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CliError {}

/// What the command line asks for, checked and typed.
#[derive(Debug, Clone)]
pub enum Request {
    /// Run the engine on stdin and stdout.
    Engine {
        /// The protocol, or `None` to recognise it from the first line.
        protocol: Option<Protocol>,
        /// Evaluation, level and timing.
        settings: Settings,
    },
    /// Run perft.
    Perft(PerftRequest),
    /// Answer one position.
    BestMove(BestMoveRequest),
    /// Play a match.
    Match(Box<MatchConfig>),
    /// Play on the Generic Game Server.
    Ggs(Box<tools::ggs::GgsRequest>),
    /// Write openings from tournament games.
    Openings(Box<OpeningsRequest>),
    /// Fit the evaluation's weights to these games (read from `--wthor`).
    FitEval(Vec<WthorGame>),
    /// Write training samples from WTHOR games.
    WthorSamples(Box<WthorSamplesRequest>),
    /// Fit the pattern weights.
    Train(TrainRequest),
    /// Fit the network evaluation.
    TrainNetwork(Box<crate::train::network::NetworkTrainRequest>),
    /// Fit Multi-ProbCut.
    ProbCut(Box<ProbCutRequest>),
    /// Write training samples from self-play.
    Datagen(Box<DatagenRequest>),
    /// Score training samples again.
    Relabel(Box<RelabelRequest>),
    /// One `magpie book` verb.
    Book(Box<tools::book::BookRequest>),
    /// Solve a test suite.
    Solve(SolveRequest),
    /// Measure depth-limited searches against exact scores.
    Accuracy(Box<tools::accuracy::AccuracyRequest>),
    /// Review the endgames of recorded games.
    Review(ReviewRequest),
    /// Judge every move of one game.
    Analyze(Box<AnalyzeRequest>),
    /// Run the bench.
    Bench {
        /// Depth of every search.
        depth: u32,
        /// Evaluation.
        eval: Evaluator,
        /// Multi-ProbCut's selectivity.
        selectivity: u8,
    },
    /// Print this text (help or version) and exit successfully.
    Info(String),
}

/// The subcommand's name, as typed.
fn command_name(command: &Command) -> &'static str {
    match command {
        Command::Perft(_) => "perft",
        Command::Bestmove(_) => "bestmove",
        Command::Bench(_) => "bench",
        Command::Solve(_) => "solve",
        Command::Accuracy(_) => "accuracy",
        Command::Review(_) => "review",
        Command::Analyze(_) => "analyze",
        Command::Match(_) => "match",
        Command::Openings(_) => "openings",
        Command::FitEval(_) => "fit-eval",
        Command::WthorSamples(_) => "wthor-samples",
        Command::Train(_) => "train",
        Command::TrainNetwork(_) => "train-network",
        Command::Probcut(_) => "probcut",
        Command::Datagen(_) => "datagen",
        Command::Relabel(_) => "relabel",
        Command::Book(_) => "book",
        Command::Ggs(_) => "ggs",
    }
}

/// The command line's grammar: [`Cli`]'s, with a negative number taken as an option's value (so
/// that `--depth -1` is refused for its range, not as an unknown option `-1`).
fn cli_command() -> clap::Command {
    fn negatives(command: clap::Command) -> clap::Command {
        command
            .mut_args(|arg| if arg.get_action().takes_values() { arg.allow_negative_numbers(true) } else { arg })
            .mut_subcommands(negatives)
    }
    negatives(Cli::command())
}

/// Refuses an engine option given before a subcommand that has no such option.
fn check_engine_options(engine: &EngineArgs, command: &Command) -> Result<(), CliError> {
    let cli = cli_command();
    let name = command_name(command);
    let Some(sub) = cli.find_subcommand(name) else { return Ok(()) };
    for id in engine.given() {
        if !sub.get_arguments().any(|a| a.get_id() == id) {
            let flag = cli
                .get_arguments()
                .find(|a| a.get_id() == id)
                .and_then(|a| a.get_long())
                .map_or_else(|| id.to_string(), |long| format!("--{long}"));
            return Err(CliError(format!("{flag} is an engine option: '{name}' does not take it")));
        }
    }
    Ok(())
}

/// Parses and checks a command line (the program name first).
pub fn parse_args<I, T>(args: I) -> Result<Request, CliError>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args = matches::group_engine_words(args.into_iter().map(Into::into).collect());
    let parsed = cli_command().try_get_matches_from(args).and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            let text = e.render().to_string();
            return match e.kind() {
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => Ok(Request::Info(text)),
                _ => Err(CliError(one_line(&text))),
            };
        }
    };
    let engine = cli.engine;
    let Some(command) = cli.command else { return engine_request(&engine) };
    check_engine_options(&engine, &command)?;
    match command {
        Command::Perft(args) => args.request(&engine),
        Command::Bestmove(args) => args.request(&engine),
        Command::Bench(args) => args.request(&engine),
        Command::Solve(args) => args.request(&engine),
        Command::Accuracy(args) => args.request(&engine),
        Command::Review(args) => args.request(&engine),
        Command::Analyze(args) => args.request(&engine),
        Command::Match(args) => args.request(&engine),
        Command::Openings(args) => args.request(&engine),
        Command::FitEval(args) => args.request(&engine),
        Command::WthorSamples(args) => args.request(&engine),
        Command::Train(args) => args.request(&engine),
        Command::TrainNetwork(args) => args.request(&engine),
        Command::Probcut(args) => args.request(&engine),
        Command::Datagen(args) => args.request(&engine),
        Command::Relabel(args) => args.request(&engine),
        Command::Book(args) => args.request(&engine),
        Command::Ggs(args) => args.request(&engine),
    }
}

/// The engine's settings from its options.
fn engine_request(engine: &EngineArgs) -> Result<Request, CliError> {
    let defaults = Settings::default();
    let (book, book_file) = engine.book(None)?;
    let weights = engine.weights(None, "--weights")?;
    Ok(Request::Engine {
        protocol: engine.protocol,
        settings: Settings {
            eval: engine.eval(None),
            level: engine.level(None),
            move_overhead: engine.move_overhead.map_or(defaults.move_overhead, Duration::from_millis),
            default_movetime: engine.movetime.map_or(defaults.default_movetime, Duration::from_millis),
            hash_mib: engine.hash_mib(None, DEFAULT_HASH_MIB),
            threads: engine.threads(None, 1),
            network: engine.network(None, &weights)?,
            weights,
            selectivity: engine.selectivity(None),
            book,
            book_file,
            own_book: engine.own_book.unwrap_or(defaults.own_book),
            book_randomness: engine.book_randomness(None),
            book_seed: engine.book_seed(None),
            ..defaults
        },
    })
}

/// clap's message on one line: the lines before its usage section, joined.
fn one_line(text: &str) -> String {
    let message: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty() && !l.starts_with("tip:"))
        .collect();
    let line = message.join(" ");
    let line = line.trim_start_matches("error: ");
    if line.is_empty() { "invalid command line".to_string() } else { line.to_string() }
}

/// Why a run did not succeed, and so its exit status.
#[derive(Debug)]
enum Failure {
    /// Bad input found while running (a file that cannot be read or is broken): status 2.
    Input(String),
    /// A check failed and the output says which: status 1, no message.
    Check,
    /// Anything else (a write error, say): status 1.
    Run(String),
    /// Stdout was closed (piped into `head`, say): not worth a message, status 0.
    Closed,
}

impl From<io::Error> for Failure {
    /// An error on what the user gave (a missing, unreadable or broken file, a folder where a file
    /// was expected, a table the machine cannot give) is bad input; the rest is a failure to run.
    fn from(e: io::Error) -> Failure {
        use io::ErrorKind::*;
        if let Some(alloc) = e.get_ref().and_then(|inner| inner.downcast_ref::<AllocError>()) {
            return Failure::Input(format!("--hash: {alloc}"));
        }
        match e.kind() {
            BrokenPipe => Failure::Closed,
            NotFound | PermissionDenied | InvalidData | InvalidInput | IsADirectory | NotADirectory => {
                Failure::Input(e.to_string())
            }
            _ => Failure::Run(e.to_string()),
        }
    }
}

/// Runs a checked request, writing its output to stdout.
fn run(request: Request, started: Instant) -> Result<(), Failure> {
    let mut stdout = io::stdout().lock();
    match request {
        Request::Info(text) => {
            use io::Write;
            write!(stdout, "{text}")?;
        }
        Request::Engine { protocol, settings } => {
            drop(stdout);
            // A table the machine cannot give is a bad argument: nothing was read.
            crate::protocol::run_stdio(protocol, settings).map_err(|e| Failure::Input(format!("--hash: {e}")))?;
        }
        Request::Perft(request) => tools::perft::run(&request, &mut stdout)?,
        Request::BestMove(request) => tools::bestmove::run(&request, started, &mut stdout)?,
        Request::Bench { depth, eval, selectivity } => {
            tools::bench::run(depth, &eval, selectivity, &mut stdout)?;
        }
        Request::Solve(request) => {
            if tools::solve::run(&request, &mut stdout)?.disagreed > 0 {
                return Err(Failure::Check);
            }
        }
        Request::Accuracy(request) => {
            tools::accuracy::run(&request, &mut stdout)?;
        }
        Request::Review(request) => {
            tools::review::run(&request, &mut stdout)?;
        }
        Request::Analyze(request) => {
            tools::analyze::run(&request, &mut stdout)?;
        }
        Request::Match(config) => match crate::matches::run_match(*config, &mut stdout) {
            Ok(_) => {}
            // An engine that cannot start is a bad argument: nothing was played.
            Err(e @ MatchError::CannotStart { .. }) => return Err(Failure::Input(e.to_string())),
            Err(MatchError::Io(e)) => return Err(Failure::Run(e.to_string())),
        },
        Request::Ggs(request) => {
            use crate::tools::ggs::GgsError;
            use io::Write;
            match tools::ggs::run(*request) {
                Ok(summary) => writeln!(
                    stdout,
                    "{} boards finished, {} moves sent, {} connection(s)",
                    summary.boards, summary.moves, summary.connections
                )?,
                // A refused login, a table too large: bad arguments.
                Err(e @ (GgsError::Refused(_) | GgsError::Hash(_))) => return Err(Failure::Input(e.to_string())),
                Err(e) => return Err(Failure::Run(e.to_string())),
            }
        }
        Request::Openings(request) => {
            tools::openings::run(&request, &mut stdout)?;
        }
        Request::FitEval(games) => crate::train::fit_eval::run(&games, &mut stdout)?,
        Request::WthorSamples(request) => crate::train::wthor_samples::run(&request, &mut stdout)?,
        Request::Train(request) => {
            crate::train::patterns::run(&request, &mut stdout)?;
        }
        Request::TrainNetwork(request) => {
            crate::train::network::run(&request, &mut stdout)?;
        }
        Request::ProbCut(request) => {
            crate::train::probcut::run(&request, &mut stdout)?;
        }
        Request::Datagen(request) => {
            crate::train::datagen::run(&request, &mut stdout)?;
        }
        Request::Relabel(request) => {
            crate::train::relabel::run(&request, &mut stdout)?;
        }
        Request::Book(request) => tools::book::run(*request, &mut stdout)?,
    }
    Ok(())
}

/// Runs the program on `args` and returns its exit status.
pub fn main<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let started = Instant::now();
    let request = match parse_args(args) {
        Ok(request) => request,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match run(request, started) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Check) => ExitCode::FAILURE,
        Err(Failure::Closed) => ExitCode::SUCCESS,
        Err(Failure::Run(message)) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BoardSize, Convention, Position};

    fn err(args: &[&str]) -> String {
        let mut full = vec!["magpie"];
        full.extend_from_slice(args);
        parse_args(full).unwrap_err().0
    }

    #[test]
    fn perft_arguments() {
        let Ok(Request::Perft(req)) = parse_args(["magpie", "perft", "3", "--size", "6", "--convention", "edax"])
        else {
            panic!("perft request expected");
        };
        assert_eq!(req.depth, 3);
        assert_eq!(req.position, Position::start(BoardSize::Six));
        assert_eq!(req.convention, Convention::Edax);
        let start = Position::initial().to_string();
        let Ok(Request::Perft(req)) = parse_args(["magpie", "perft", "1", "--position", &start]) else {
            panic!("perft request expected");
        };
        assert_eq!(req.position, Position::initial());
    }

    #[test]
    fn engine_book_options() {
        let Ok(Request::Engine { settings, .. }) = parse_args([
            "magpie",
            "--own-book",
            "false",
            "--book-randomness",
            "1.5",
            "--book-seed",
            "42",
            "--book",
            "<none>",
        ]) else {
            panic!("an engine request");
        };
        assert_eq!((settings.own_book, settings.book_randomness, settings.book_seed), (false, 150, Some(42)));
        assert_eq!((settings.book.is_none(), settings.book_file), (true, None));
        let Ok(Request::Engine { settings, .. }) = parse_args(["magpie"]) else { panic!("an engine request") };
        assert!(settings.own_book && settings.book.is_some() && settings.book_seed.is_none());
        assert!(err(&["--own-book", "maybe"]).contains("maybe"));
        assert!(err(&["--book-randomness", "65"]).contains("65"));
        assert!(err(&["--book-seed", "2147483648"]).contains("2147483648"));
        assert!(err(&["--book", "no-such.book"]).contains("no-such.book"));
        assert!(err(&["--own-book", "false", "perft", "3"]).contains("--own-book is an engine option"));
        // Learning scores as `magpie book` does by default.
        assert_eq!(crate::engine::book::LEARN_DEPTH, book::DEFAULT_DEPTH);
        assert_eq!(crate::engine::book::LEARN_SELECTIVITY, book::DEFAULT_SELECTIVITY);
    }

    #[test]
    fn bad_arguments_name_the_token() {
        assert!(err(&["perft", "abc"]).contains("'abc'"));
        assert!(err(&["perft", "-3"]).contains("-3"));
        assert!(err(&["perft", "99"]).contains("99"));
        assert!(err(&["perft", "3", "--size", "5"]).contains("'5'"));
        assert!(err(&["perft", "3", "--convention", "bik"]).contains("bik"));
        assert!(err(&["perft", "3", "--position", "XO"]).contains("--position"));
        assert!(err(&["perft", "3", "--bogus"]).contains("--bogus"));
        assert!(err(&["frobnicate"]).contains("frobnicate"));
        let start = Position::initial().to_string();
        assert!(err(&["perft", "3", "--size", "4", "--position", &start]).contains("8x8"));
        for args in [&["perft", "abc"][..], &["frobnicate"], &["perft", "3", "--position", "XO"]] {
            assert!(!err(args).contains('\n'));
        }
    }
}
