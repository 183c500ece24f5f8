//! `magpie match`'s options, and the grouping of each `--engine`'s words.

use super::numbers::count;
use super::shared::{output_file, parse_size};
use super::{CliError, EngineArgs, Request};
use crate::board::BoardSize;
use crate::matches::openings::{Generator, parse_openings};
use crate::matches::spec::{TimeControl, parse_engine, parse_engines_file};
use crate::matches::stats::Sprt;
use crate::matches::{MatchConfig, Mode};
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

/// Play engine-vs-engine matches over UGI, NBoard and GTP.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
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
    #[arg(long, default_value_t = 100, value_parser = count::<u64>(1..=10_000_000))]
    games: u64,
    /// Openings file: one move sequence (f5d6c3) or position (<squares> <side> [moves]) per line.
    #[arg(long, conflicts_with_all = ["opening_plies", "opening_depth", "opening_max_discs", "size"])]
    openings: Option<PathBuf>,
    /// Generated openings: random plies from the start.
    #[arg(long, default_value_t = 8, value_parser = count::<u64>(0..=40))]
    opening_plies: u64,
    /// Generated openings: depth of the search that checks their balance.
    #[arg(long, default_value_t = 8, value_parser = count::<u32>(1..=20))]
    opening_depth: u32,
    /// Generated openings: largest absolute score kept, in discs.
    #[arg(long, default_value_t = 2.0)]
    opening_max_discs: f64,
    /// Generated openings: board size (4, 6 or 8).
    #[arg(long, value_parser = parse_size)]
    size: Option<BoardSize>,
    /// Random seed of the generated openings.
    #[arg(long, default_value_t = 1, value_parser = count::<u64>(0..))]
    seed: u64,
    /// Time control: milliseconds per move (the default is 100 when no time control is given).
    #[arg(long, conflicts_with_all = ["depth", "tc"], value_parser = count::<u64>(1..=86_400_000))]
    movetime: Option<u64>,
    /// Time control: fixed depth per move.
    #[arg(long, conflicts_with = "tc", value_parser = count::<u32>(1..=60))]
    depth: Option<u32>,
    /// Time control: a clock per side, seconds[+increment], e.g. 60+0.5.
    #[arg(long)]
    tc: Option<String>,
    /// Milliseconds an engine may overrun its time, besides the latency measured, before losing on
    /// time.
    #[arg(long, default_value_t = DEFAULT_MARGIN_MS, value_parser = count::<u64>(0..=3_600_000))]
    margin: u64,
    /// Seconds a depth-limited move may take before the engine counts as hung.
    #[arg(long, default_value_t = 60, value_parser = count::<u64>(1..=86_400))]
    timeout: u64,
    /// Games played at once (default: half the cores, at least one).
    #[arg(long, value_parser = count::<u64>(1..=256))]
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
    /// Print the report as JSON, one object a line (each pairing, then each engine; see
    /// docs/matches.md).
    #[arg(long)]
    json: bool,
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
/// runs there; with every core busy, moves overran their time far more often (see docs/matches.md).
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

impl MatchArgs {
    pub(super) fn request(mut self, engine: &EngineArgs) -> Result<Request, CliError> {
        // `magpie --movetime 50 match …`: the engine's thinking time is the match's time per move.
        if self.depth.is_none() && self.tc.is_none() {
            self.movetime = self.movetime.or(engine.movetime);
        }
        match_config(self).map(|config| Request::Match(Box::new(config)))
    }
}

fn match_config(args: MatchArgs) -> Result<MatchConfig, CliError> {
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
        output: args.out.map(|path| output_file("--out", path)).transpose()?,
        resume: args.resume,
        sprt: args.sprt.as_deref().map(parse_sprt).transpose()?,
        json: args.json,
        progress: !args.no_progress,
    })
}

/// Joins the words of one `--engine` inside a single argument for clap.
const ENGINE_WORD_SEPARATOR: char = '\u{1f}';

/// `--engine` takes several words (`--engine name=a option.Eval=iagno --engine name=b`), up to the
/// next option: they are joined into one argument here, since clap gives each occurrence one value.
pub(super) fn group_engine_words(args: Vec<OsString>) -> Vec<OsString> {
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
