//! The command line: subcommands parsed by clap into typed requests, and the one-line error form.
//!
//! Every failure prints one line `error: …` on stderr naming the offending token and exits with
//! status 2; nothing here panics on bad input.

use crate::board::{BoardSize, Convention, Game, Position};
use crate::engine::settings::{DEFAULT_HASH_MIB, MAX_HASH_MIB, MAX_LEVEL, MAX_THREADS, MIN_HASH_MIB, Settings};
use crate::eval::weights::Weights;
use crate::eval::{EvalKind, Evaluator};
use crate::formats::wthor::WthorGame;
use crate::formats::{parse_moves, parse_obf_file, parse_position};
use crate::protocol::Protocol;
use crate::search::Limits;
use crate::search::tt::AllocError;
use crate::tools::bench;
use crate::tools::bestmove::{self, BestMoveRequest};
use crate::tools::datagen::{self, DatagenRequest, Shard};
use crate::tools::fit_eval;
use crate::tools::matches::openings::{Generator, parse_openings};
use crate::tools::matches::spec::{TimeControl, parse_engine, parse_engines_file};
use crate::tools::matches::stats::Sprt;
use crate::tools::matches::{MatchConfig, MatchError, Mode};
use crate::tools::perft::{self, PerftRequest};
use crate::tools::probcut::{self, ProbCutRequest};
use crate::tools::review::{self, ReviewRequest};
use crate::tools::solve::{self, SolveRequest};
use crate::tools::train::{self, TrainRequest};
use crate::tools::wthor_samples::{self, WthorSamplesRequest};
use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Magpie, an Othello engine.
#[derive(Parser, Debug)]
#[command(
    name = "magpie",
    version,
    about = "Magpie, an Othello (Reversi) engine",
    long_about = "Magpie, an Othello (Reversi) engine.\n\nWith no subcommand, Magpie runs as an engine: it reads \
                  commands on stdin and answers on stdout (see protocol.md)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Engine: the protocol to speak (ugi, nboard or gtp); by default recognised from the first line.
    #[arg(long)]
    protocol: Option<Protocol>,
    /// Engine: the evaluation (pattern, heuristic, discs, iagno, sannidhanam, corner-edge).
    #[arg(long, default_value = "pattern")]
    eval: EvalKind,
    /// The pattern evaluation's weight file (engine, bestmove, bench, solve, datagen, probcut; train
    /// reports its held-out error beside the new fit's); by default the weights built into the
    /// binary.
    #[arg(long, global = true, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Multi-ProbCut's selectivity, 0 (off) to 5 (most cuts): engine, bestmove, bench, solve, datagen.
    #[arg(long, global = true, default_value_t = crate::search::DEFAULT_SELECTIVITY,
          value_parser = clap::value_parser!(u8).range(0..=crate::search::MAX_SELECTIVITY as i64))]
    selectivity: u8,
    /// Engine: difficulty level, 0 (random mover) to 10 (full strength).
    #[arg(long, default_value_t = MAX_LEVEL, value_parser = clap::value_parser!(u8).range(0..=MAX_LEVEL as i64))]
    level: u8,
    /// Engine: milliseconds kept in hand on every timed search.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=5000))]
    move_overhead: u64,
    /// Engine: thinking time in milliseconds when a client sets no limit (UGI `go`, GTP `genmove`
    /// without time settings).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: u64,
    #[command(flatten)]
    search: SearchArgs,
}

/// The search's resources, shared by the engine, `bestmove` and `solve`.
#[derive(clap::Args, Debug, Clone, Copy)]
struct SearchArgs {
    /// Transposition table size in MiB (1 to 65536).
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_HASH_MIB as u64,
          value_parser = clap::value_parser!(u64).range(MIN_HASH_MIB as u64..=MAX_HASH_MIB as u64))]
    hash: u64,
    /// Search threads (1 to 256).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
    threads: u64,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the game tree to a fixed depth (move-generator test and benchmark).
    Perft(PerftArgs),
    /// Print the best move and its score for one position, then exit.
    Bestmove(BestMoveArgs),
    /// Search fixed positions to a fixed depth: node-count signature and speed of the search.
    Bench(BenchArgs),
    /// Solve every position of an OBF test suite (e.g. the FFO endgames) and check the scores.
    Solve(SolveArgs),
    /// What each player's endgame moves lost to perfect play in GGF games (a match's, say).
    Review(ReviewArgs),
    /// Play engine-vs-engine matches over UGI, NBoard and GTP.
    Match(MatchArgs),
    /// Fit the weights of Magpie's hand-made evaluation to WTHOR tournament games.
    FitEval {
        /// A WTHOR directory (its WTH_*.wtb files) or one .wtb file.
        #[arg(long)]
        wthor: PathBuf,
    },
    /// Turn WTHOR games into training samples, scored by perfect play (for `magpie train`).
    WthorSamples(WthorSamplesArgs),
    /// Fit the pattern evaluation's weights to training samples and write a weight file.
    Train(TrainArgs),
    /// Fit Multi-ProbCut for a weight set (--weights, or the built-in one) and write them together.
    Probcut(ProbCutArgs),
    /// Play self-play games and write their positions, scored by search or solved, as training
    /// samples (for `magpie train`).
    Datagen(DatagenArgs),
}

#[derive(clap::Args, Debug)]
struct DatagenArgs {
    /// Games in all shards together, numbered from 0.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    games: u64,
    /// The samples file to write.
    #[arg(long)]
    out: PathBuf,
    /// Random seed: game j of a seed is the same game in any shard and with any threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only the games j with j % N == I (shards' files merge by concatenation).
    #[arg(long, value_name = "I/N", default_value = "0/1")]
    shard: Shard,
    /// Worker threads, each playing whole games (the file is the same for any number).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
    threads: u64,
    /// Depth of the search that scores and plays positions above --exact-empties.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Positions with this many empty squares or fewer are solved exactly.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=30))]
    exact_empties: u32,
    /// Random plies from the start (drawn again while a depth-4 search scores them beyond ±4 discs).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=40))]
    random_plies: u32,
    /// Percent of the moves above --exact-empties played at random instead of the best.
    #[arg(long, value_name = "PERCENT", default_value_t = 5, value_parser = clap::value_parser!(u32).range(0..=100))]
    random_rate: u32,
    /// Each thread's transposition table size in MiB [default: 16].
    #[arg(long, value_name = "MIB",
          value_parser = clap::value_parser!(u64).range(MIN_HASH_MIB as u64..=MAX_HASH_MIB as u64))]
    hash: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

#[derive(clap::Args, Debug)]
struct WthorSamplesArgs {
    /// A WTHOR directory (its WTH_*.wtb files) or one .wtb file.
    #[arg(long)]
    wthor: PathBuf,
    /// The samples file to write.
    #[arg(long)]
    out: PathBuf,
    /// Positions with this many empty squares or fewer are solved exactly (the others are scored
    /// with the game's perfect-play result from 24 empties).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(0..=24))]
    exact_empties: u32,
    /// Write only the positions solved exactly: the game's result is a noisy label far from the
    /// end (the embedded weights are fitted without those positions).
    #[arg(long)]
    solved_only: bool,
    /// Score the positions not solved by a search of this depth (with Multi-ProbCut at
    /// --selectivity and the --weights evaluation) instead of the game's result.
    #[arg(long, conflicts_with = "solved_only", value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: Option<u32>,
    /// Take only the games j with j % N == I, numbered in the order read (shards' files merge by
    /// concatenation).
    #[arg(long, value_name = "I/N", default_value = "0/1")]
    shard: Shard,
    /// Threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
    threads: u64,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

#[derive(clap::Args, Debug)]
struct ProbCutArgs {
    /// A samples file to draw the positions from.
    data: PathBuf,
    /// The weight file to write (the weights and the fits).
    #[arg(long)]
    out: PathBuf,
    /// Positions to search.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    positions: u64,
    /// The deepest search fitted.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(3..=24))]
    max_depth: u32,
    /// Positions solved exactly for the solve fits (the selective solves' ProbCut); 0 for none.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(0..=10_000_000))]
    solve_positions: u64,
    /// The most empty squares a solve fit is made for.
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(10..=30))]
    solve_max_empties: u32,
    /// Threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
    threads: u64,
    /// Seed of the draw.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

#[derive(clap::Args, Debug)]
struct TrainArgs {
    /// Sample files (from `magpie datagen` or `magpie wthor-samples`).
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// The weight file to write.
    #[arg(long)]
    out: PathBuf,
    /// Conjugate-gradient iterations.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    iterations: u32,
    /// Percent of each file's records, its last ones, kept out of the fit to measure the error.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=90))]
    holdout: u32,
    /// Ridge penalty per weight (in units of one sample).
    #[arg(long, default_value_t = 2.0)]
    l2: f64,
    /// Penalty on the squared difference of a weight between neighbouring stages (in units of one
    /// sample): stages lend each other what they saw.
    #[arg(long, default_value_t = 50.0)]
    smooth: f64,
    /// Weight file to fit from: the fit learns the change from these weights, and --l2 pulls
    /// towards them rather than towards zero (so a round keeps what earlier rounds' data taught).
    #[arg(long, value_name = "FILE")]
    prior: Option<PathBuf>,
    /// Threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
    threads: u64,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

#[derive(clap::Args, Debug)]
struct MatchArgs {
    /// An engine, as key=value words: name=…, cmd=… (program and arguments, quoted as one word;
    /// default this Magpie), arg=… (one more argument, repeatable), dir=… (working directory),
    /// proto=ugi|nboard|gtp, option.<Name>=… (UGI options), movetime=MS, depth=N or
    /// tc=SECONDS[+INC] (its own time control), stderr=FILE. Repeat for each engine.
    #[arg(long = "engine", action = clap::ArgAction::Append, value_name = "KEY=VALUE...")]
    engines: Vec<String>,
    /// A file of [engine] sections with the same keys, one per line (key = value).
    #[arg(long)]
    engines_file: Option<PathBuf>,
    /// gauntlet (the first engine against each other one) or round-robin.
    #[arg(long, default_value = "gauntlet", value_parser = parse_mode)]
    mode: Mode,
    /// Games per pairing (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    games: u64,
    /// Openings file: one move sequence (f5d6c3) or position (<squares> <side> [moves]) per line.
    #[arg(long, conflicts_with_all = ["opening_plies", "opening_depth", "opening_max_discs", "size"])]
    openings: Option<PathBuf>,
    /// Generated openings: random plies from the start.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(0..=40))]
    opening_plies: u64,
    /// Generated openings: depth of the search that checks their balance.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=20))]
    opening_depth: u32,
    /// Generated openings: largest absolute score kept, in discs.
    #[arg(long, default_value_t = 2.0)]
    opening_max_discs: f64,
    /// Generated openings: board size (4, 6 or 8).
    #[arg(long, value_parser = parse_size)]
    size: Option<BoardSize>,
    /// Random seed of the generated openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Time control: milliseconds per move (the default is 100 when no time control is given).
    #[arg(long, conflicts_with_all = ["depth", "tc"], value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    movetime: Option<u64>,
    /// Time control: fixed depth per move.
    #[arg(long, conflicts_with = "tc", value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    /// Time control: a clock per side, seconds[+increment], e.g. 60+0.5.
    #[arg(long)]
    tc: Option<String>,
    /// Milliseconds an engine may overrun its time, besides the latency measured, before losing on
    /// time.
    #[arg(long, default_value_t = DEFAULT_MARGIN_MS, value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    margin: u64,
    /// Seconds a depth-limited move may take before the engine counts as hung.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    timeout: u64,
    /// Games played at once (default: half the cores, at least one).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    concurrency: Option<u64>,
    /// Append every finished game to this GGF file.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Carry on from the games already in --out.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Stop a pairing once decided: elo0,elo1[,alpha,beta] (alpha and beta default to 0.05).
    #[arg(long)]
    sprt: Option<String>,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

/// The default `--margin`: on a shared 2-core machine under load, moves at 50 ms overran by up to
/// 22 ms with two games at once and 2 ms with one; 100 ms leaves room for the scheduler's rarer
/// stalls while an engine that ignores its time still loses.
const DEFAULT_MARGIN_MS: u64 = 100;

/// The default `--concurrency`: half the cores, at least one. A game keeps one engine thinking at
/// a time, so this leaves half the machine to the runner, the waiting engines and whatever else
/// runs there; with every core busy, moves overran their time far more often (see README).
fn default_concurrency() -> usize {
    std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
}

fn parse_mode(text: &str) -> Result<Mode, String> {
    match text {
        "gauntlet" => Ok(Mode::Gauntlet),
        "round-robin" => Ok(Mode::RoundRobin),
        _ => Err("expected gauntlet or round-robin".to_string()),
    }
}

fn parse_sprt(text: &str) -> Result<Sprt, CliError> {
    let bad = || CliError(format!("--sprt: '{text}' is not elo0,elo1[,alpha,beta]"));
    let values: Vec<f64> =
        text.split(',').map(|v| v.trim().parse::<f64>()).collect::<Result<_, _>>().map_err(|_| bad())?;
    let (elo0, elo1, alpha, beta) = match values[..] {
        [a, b] => (a, b, 0.05, 0.05),
        [a, b, c, d] => (a, b, c, d),
        _ => return Err(bad()),
    };
    let unit = |p: f64| p > 0.0 && p < 0.5;
    if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1 && unit(alpha) && unit(beta)) {
        return Err(CliError(format!("--sprt: need elo0 < elo1 and alpha, beta in (0, 0.5), got '{text}'")));
    }
    Ok(Sprt { elo0, elo1, alpha, beta })
}

fn match_request(args: MatchArgs) -> Result<MatchConfig, CliError> {
    let magpie = std::env::current_exe().map_err(|e| CliError(format!("cannot find this program's path: {e}")))?;
    let mut engines = Vec::new();
    if let Some(path) = &args.engines_file {
        let text =
            std::fs::read_to_string(path).map_err(|e| CliError(format!("--engines-file {}: {e}", path.display())))?;
        engines.extend(parse_engines_file(&text, &magpie).map_err(|e| CliError(format!("--engines-file: {e}")))?);
    }
    for group in &args.engines {
        let words: Vec<String> = group.split(ENGINE_WORD_SEPARATOR).map(str::to_string).collect();
        engines.push(parse_engine(&words, &magpie).map_err(CliError)?);
    }
    if engines.len() < 2 {
        return Err(CliError(format!("a match needs at least two engines, got {}", engines.len())));
    }
    for (i, e) in engines.iter().enumerate() {
        if engines[..i].iter().any(|other| other.name == e.name) {
            return Err(CliError(format!("two engines are named '{}': give them name=…", e.name)));
        }
    }
    let tc = match (args.movetime, args.depth, &args.tc) {
        (_, Some(d), _) => TimeControl::Depth(d),
        (_, _, Some(text)) => TimeControl::parse_clock(text).map_err(|e| CliError(format!("--tc: {e}")))?,
        (movetime, None, None) => TimeControl::MoveTime(Duration::from_millis(movetime.unwrap_or(100).max(1))),
    };
    for e in &engines {
        let tc = e.tc.unwrap_or(tc);
        tc.check(e.protocol).map_err(|m| CliError(format!("engine '{}': {m}", e.name)))?;
    }
    let rounds = args.games.div_ceil(2) as usize;
    let openings = match &args.openings {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| CliError(format!("--openings {}: {e}", path.display())))?;
            parse_openings(&text).map_err(|e| CliError(format!("--openings: {e}")))?
        }
        None => {
            let generator = Generator {
                plies: args.opening_plies as usize,
                depth: args.opening_depth,
                max_score: (args.opening_max_discs * 100.0).clamp(0.0, 6400.0) as i32,
                size: args.size.unwrap_or_default(),
                seed: args.seed,
            };
            let openings = generator.generate(rounds);
            if openings.is_empty() {
                return Err(CliError(
                    "no balanced opening found: raise --opening-max-discs or lower --opening-plies".into(),
                ));
            }
            openings
        }
    };
    let concurrency = args.concurrency.map_or_else(default_concurrency, |c| c as usize);
    Ok(MatchConfig {
        engines,
        mode: args.mode,
        games: args.games as usize,
        openings,
        tc,
        margin: Duration::from_millis(args.margin),
        hang_timeout: Duration::from_secs(args.timeout),
        concurrency,
        output: args.out,
        resume: args.resume,
        sprt: args.sprt.as_deref().map(parse_sprt).transpose()?,
        progress: !args.no_progress,
    })
}

#[derive(clap::Args, Debug)]
struct BestMoveArgs {
    /// The position: the squares (16, 36 or 64 of X, O, -) then X or O. Default: the start.
    #[arg(long, alias = "position", allow_hyphen_values = true)]
    fen: Option<String>,
    /// Moves to play from the position first, e.g. f5d6c3 or "f5 d6 c3".
    #[arg(long, default_value = "")]
    moves: String,
    /// Board size of the start position when no --fen is given: 4, 6 or 8.
    #[arg(long, value_parser = parse_size)]
    size: Option<BoardSize>,
    /// Time to think, in milliseconds (the default when no other limit is given is 1000).
    #[arg(long)]
    movetime: Option<u64>,
    /// Deepest search, in plies.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    /// Node budget.
    #[arg(long)]
    nodes: Option<u64>,
    /// Evaluation: pattern, heuristic, discs, iagno, sannidhanam or corner-edge.
    #[arg(long, default_value = "pattern")]
    eval: EvalKind,
    /// Difficulty level, 0 (random mover) to 10 (full strength).
    #[arg(long, default_value_t = MAX_LEVEL, value_parser = clap::value_parser!(u8).range(0..=MAX_LEVEL as i64))]
    level: u8,
    /// Once the search reaches the end of the game, solve for win, draw or loss only.
    #[arg(long)]
    wld: bool,
    #[command(flatten)]
    search: SearchArgs,
}

#[derive(clap::Args, Debug)]
struct BenchArgs {
    /// Depth of every search.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Evaluation.
    #[arg(long, default_value = "pattern")]
    eval: EvalKind,
}

#[derive(clap::Args, Debug)]
struct SolveArgs {
    /// The OBF file: one position a line, optionally followed by the exact score of each move
    /// (`<squares> <side>; G8:+18; H1:+12;`).
    file: PathBuf,
    #[command(flatten)]
    search: SearchArgs,
    /// Solve for win, draw or loss only.
    #[arg(long)]
    wld: bool,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

#[derive(clap::Args, Debug)]
struct ReviewArgs {
    /// GGF files, one game a line (as `magpie match --out` writes them).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Judge the moves from this many empty squares down (1 to 30), each position solved exactly.
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(1..=review::MAX_FROM as i64))]
    from: u32,
    #[command(flatten)]
    search: SearchArgs,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

#[derive(clap::Args, Debug)]
struct PerftArgs {
    /// Plies to count (0 to 64).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=64))]
    depth: u32,
    /// Board size: 4, 6 or 8 (the start position of that size).
    #[arg(long, value_parser = parse_size)]
    size: Option<BoardSize>,
    /// Count from this position instead: the squares (16, 36 or 64 of X, O, -) then X or O.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// How passes and games ending early count: standard, edax or free-pass.
    #[arg(long, default_value = "standard")]
    convention: Convention,
    /// Print the count under each root move.
    #[arg(long)]
    divide: bool,
    /// Also time the masked (small-board) code path on the same position and print the ratio.
    #[arg(long)]
    mask_overhead: bool,
}

fn parse_size(text: &str) -> Result<BoardSize, String> {
    text.parse::<usize>().ok().and_then(BoardSize::from_side).ok_or_else(|| "expected 4, 6 or 8".to_string())
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
    /// Fit the evaluation's weights to these games (read from `--wthor`).
    FitEval(Vec<WthorGame>),
    /// Write training samples from WTHOR games.
    WthorSamples(Box<WthorSamplesRequest>),
    /// Fit the pattern weights.
    Train(TrainRequest),
    /// Fit Multi-ProbCut.
    ProbCut(Box<ProbCutRequest>),
    /// Write training samples from self-play.
    Datagen(Box<DatagenRequest>),
    /// Solve a test suite.
    Solve(SolveRequest),
    /// Review the endgames of recorded games.
    Review(ReviewRequest),
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

/// Joins the words of one `--engine` inside a single argument for clap.
const ENGINE_WORD_SEPARATOR: char = '\u{1f}';

/// `--engine` takes several words (`--engine name=a option.Eval=iagno --engine name=b`), up to the
/// next option: they are joined into one argument here, since clap gives each occurrence one value.
fn group_engine_words(args: Vec<OsString>) -> Vec<OsString> {
    let mut grouped: Vec<OsString> = Vec::with_capacity(args.len());
    let mut iter = args.into_iter().peekable();
    while let Some(arg) = iter.next() {
        let is_engine = arg == "--engine";
        grouped.push(arg);
        if !is_engine {
            continue;
        }
        let mut words: Vec<String> = Vec::new();
        while let Some(next) = iter.peek() {
            match next.to_str() {
                Some(word) if !word.starts_with("--") => {
                    words.push(word.to_string());
                    iter.next();
                }
                _ => break,
            }
        }
        if !words.is_empty() {
            grouped.push(words.join(&ENGINE_WORD_SEPARATOR.to_string()).into());
        }
    }
    grouped
}

/// Parses and checks a command line (the program name first).
pub fn parse_args<I, T>(args: I) -> Result<Request, CliError>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args = group_engine_words(args.into_iter().map(Into::into).collect());
    let cli = match Cli::try_parse_from(args) {
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
    let weights = match &cli.weights {
        Some(path) => Arc::new(Weights::read(path).map_err(|e| CliError(format!("--weights {e}")))?),
        None => Weights::embedded(),
    };
    match cli.command {
        None => Ok(Request::Engine {
            protocol: cli.protocol,
            settings: Settings {
                eval: cli.eval,
                level: cli.level,
                move_overhead: Duration::from_millis(cli.move_overhead),
                default_movetime: Duration::from_millis(cli.movetime),
                hash_mib: cli.search.hash as usize,
                threads: cli.search.threads as usize,
                weights,
                selectivity: cli.selectivity,
                ..Settings::default()
            },
        }),
        Some(Command::Perft(args)) => perft_request(args).map(Request::Perft),
        Some(Command::Bestmove(args)) => bestmove_request(args, weights, cli.selectivity).map(Request::BestMove),
        Some(Command::Bench(args)) => Ok(Request::Bench {
            depth: args.depth,
            eval: Evaluator::with_weights(args.eval, weights),
            selectivity: cli.selectivity,
        }),
        Some(Command::Solve(args)) => solve_request(args, cli.selectivity).map(Request::Solve),
        Some(Command::Review(args)) => review_request(args, cli.selectivity).map(Request::Review),
        Some(Command::Match(args)) => match_request(args).map(|c| Request::Match(Box::new(c))),
        Some(Command::FitEval { wthor }) => {
            fit_eval::read_wthor(&wthor).map(Request::FitEval).map_err(|e| CliError(format!("--wthor {e}")))
        }
        Some(Command::WthorSamples(args)) => {
            let games = fit_eval::read_wthor(&args.wthor).map_err(|e| CliError(format!("--wthor {e}")))?;
            let games =
                games.into_iter().enumerate().filter(|(j, _)| args.shard.contains(*j as u64)).map(|(_, g)| g).collect();
            Ok(Request::WthorSamples(Box::new(WthorSamplesRequest {
                games,
                out: args.out,
                exact_empties: args.exact_empties,
                solved_only: args.solved_only,
                depth: args.depth,
                eval: Evaluator::with_weights(EvalKind::default(), weights),
                selectivity: cli.selectivity,
                threads: args.threads as usize,
                progress: !args.no_progress,
            })))
        }
        Some(Command::Probcut(args)) => Ok(Request::ProbCut(Box::new(ProbCutRequest {
            data: args.data,
            weights,
            out: args.out,
            positions: args.positions as usize,
            max_depth: args.max_depth,
            solve_positions: args.solve_positions as usize,
            solve_max_empties: args.solve_max_empties,
            threads: args.threads as usize,
            seed: args.seed,
            progress: !args.no_progress,
        }))),
        Some(Command::Train(args)) => {
            if !(args.l2.is_finite() && args.l2 >= 0.0) {
                return Err(CliError(format!("--l2 {}: expected a number at least 0", args.l2)));
            }
            if !(args.smooth.is_finite() && args.smooth >= 0.0) {
                return Err(CliError(format!("--smooth {}: expected a number at least 0", args.smooth)));
            }
            let prior = match &args.prior {
                Some(path) => Some(Arc::new(Weights::read(path).map_err(|e| CliError(format!("--prior {e}")))?)),
                None => None,
            };
            Ok(Request::Train(TrainRequest {
                data: args.data,
                prior,
                out: args.out,
                iterations: args.iterations,
                holdout_percent: args.holdout,
                l2: args.l2,
                smooth: args.smooth,
                threads: args.threads as usize,
                progress: !args.no_progress,
                previous: weights,
            }))
        }
        Some(Command::Datagen(args)) => Ok(Request::Datagen(Box::new(DatagenRequest {
            games: args.games,
            out: args.out,
            seed: args.seed,
            shard: args.shard,
            threads: args.threads as usize,
            depth: args.depth,
            exact_empties: args.exact_empties,
            random_plies: args.random_plies,
            random_percent: args.random_rate,
            selectivity: cli.selectivity,
            hash_mib: args.hash.map_or(datagen::DEFAULT_HASH_MIB, |mib| mib as usize),
            eval: Evaluator::with_weights(EvalKind::default(), weights),
            progress: !args.no_progress,
        }))),
    }
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

/// The position given by `flag` (checked against `--size` when both are given), or the start
/// position of the size.
fn start_position(text: Option<&str>, size: Option<BoardSize>, flag: &str) -> Result<Position, CliError> {
    let Some(text) = text else { return Ok(Position::start(size.unwrap_or_default())) };
    let pos = parse_position(text).map_err(|e| CliError(format!("{flag}: {e}")))?;
    if let Some(size) = size.filter(|s| *s != pos.size()) {
        return Err(CliError(format!("{flag} is a {} board but --size says {size}", pos.size())));
    }
    Ok(pos)
}

fn perft_request(args: PerftArgs) -> Result<PerftRequest, CliError> {
    let position = start_position(args.position.as_deref(), args.size, "--position")?;
    Ok(PerftRequest {
        position,
        depth: args.depth,
        convention: args.convention,
        divide: args.divide,
        mask_overhead: args.mask_overhead,
    })
}

fn solve_request(args: SolveArgs, selectivity: u8) -> Result<SolveRequest, CliError> {
    let name = args.file.display();
    let text = std::fs::read_to_string(&args.file).map_err(|e| CliError(format!("{name}: {e}")))?;
    let positions = parse_obf_file(&text).map_err(|(line, e)| CliError(format!("{name} line {line}: {e}")))?;
    Ok(SolveRequest {
        positions,
        threads: args.search.threads as usize,
        hash_mib: args.search.hash as usize,
        wld: args.wld,
        selectivity,
        progress: !args.no_progress,
    })
}

fn review_request(args: ReviewArgs, selectivity: u8) -> Result<ReviewRequest, CliError> {
    let mut games = Vec::new();
    for file in &args.files {
        let name = file.display();
        let text = std::fs::read_to_string(file).map_err(|e| CliError(format!("{name}: {e}")))?;
        for (i, game) in crate::formats::ggf::parse_ggf_games(&text).into_iter().enumerate() {
            games.push(game.map_err(|e| CliError(format!("{name}: game {}: {e}", i + 1)))?);
        }
    }
    Ok(ReviewRequest {
        games,
        from: args.from,
        threads: args.search.threads as usize,
        hash_mib: args.search.hash as usize,
        selectivity,
        progress: !args.no_progress,
    })
}

fn bestmove_request(args: BestMoveArgs, weights: Arc<Weights>, selectivity: u8) -> Result<BestMoveRequest, CliError> {
    let start = start_position(args.fen.as_deref(), args.size, "--fen")?;
    let moves = parse_moves(&args.moves).map_err(|e| CliError(format!("--moves: {e}")))?;
    let mut game = Game::new(start);
    game.play_all(&moves).map_err(|(i, e)| CliError(format!("--moves: move {} ({}): {e}", i + 1, moves[i])))?;
    let no_limit = args.movetime.is_none() && args.depth.is_none() && args.nodes.is_none();
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: Some(Duration::from_millis(args.movetime.unwrap_or(1000)))
            .filter(|_| args.movetime.is_some() || no_limit),
        clock: None,
        infinite: false,
        wld: args.wld,
    };
    let settings = Settings {
        eval: args.eval,
        level: args.level,
        hash_mib: args.search.hash as usize,
        threads: args.search.threads as usize,
        weights,
        selectivity,
        ..Settings::default()
    };
    Ok(BestMoveRequest { position: *game.position(), limits, settings })
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
    let mut stdout = std::io::stdout().lock();
    let result = match request {
        Request::Info(text) => {
            print!("{text}");
            Ok(())
        }
        Request::Engine { protocol, settings } => {
            drop(stdout);
            if let Err(e) = crate::protocol::run_stdio(protocol, settings) {
                // A table the machine cannot give is a bad argument: nothing was read.
                eprintln!("error: --hash: {e}");
                return ExitCode::from(2);
            }
            Ok(())
        }
        Request::Perft(request) => perft::run(&request, &mut stdout),
        Request::BestMove(request) => bestmove::run(&request, started, &mut stdout),
        Request::Bench { depth, eval, selectivity } => bench::run(depth, &eval, selectivity, &mut stdout).map(|_| ()),
        Request::Solve(request) => match solve::run(&request, &mut stdout) {
            Ok(summary) if summary.disagreed > 0 => return ExitCode::FAILURE,
            Ok(_) => Ok(()),
            Err(e) => Err(e),
        },
        Request::Review(request) => review::run(&request, &mut stdout).map(|_| ()),
        Request::Match(config) => match crate::tools::matches::run_match(*config, &mut stdout) {
            Ok(_) => Ok(()),
            // An engine that cannot start is a bad argument: nothing was played.
            Err(e @ MatchError::CannotStart { .. }) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
            Err(MatchError::Io(e)) => Err(e),
        },
        Request::FitEval(games) => fit_eval::run(&games, &mut stdout),
        Request::WthorSamples(request) => wthor_samples::run(&request, &mut stdout),
        Request::Train(request) => train::run(&request, &mut stdout).map(|_| ()),
        Request::ProbCut(request) => probcut::run(&request, &mut stdout).map(|_| ()),
        Request::Datagen(request) => datagen::run(&request, &mut stdout).map(|_| ()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed stdout (e.g. piped into `head`) is not worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => match e.get_ref().and_then(|inner| inner.downcast_ref::<AllocError>()) {
            // A table the machine cannot give is a bad argument, as for the engine.
            Some(alloc) => {
                eprintln!("error: --hash: {alloc}");
                ExitCode::from(2)
            }
            None => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
