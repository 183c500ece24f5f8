//! `magpie match`: engine-vs-engine matches over UGI, NBoard and GTP.
//!
//! The runner plays every opening twice with colours swapped, for each pairing (head to head, a
//! gauntlet of the first engine against the others, or a round robin), on several games at once.
//! It keeps the rules and the clocks itself ([`referee`]), appends every finished game to a GGF file
//! at once (so `--resume` can carry on after an interruption), shows a progress bar with the running
//! score, and reports per pairing the score, the mean disc difference, the Elo difference with its
//! 95% interval from game pairs, the forfeits with their reasons, and an optional SPRT that stops
//! the match once decided ([`stats`]); then per engine its time losses and how close its moves
//! came to their time ([`report`]).
//!
//! Before any game, each engine is started once and its handshake completed: one that cannot
//! start stops the match with [`MatchError::CannotStart`], as cutechess-cli does.

pub mod engine;
pub mod openings;
pub mod referee;
pub mod report;
pub mod spec;
pub mod stats;

use crate::board::Color;
use crate::formats::ggf::{GameEnd, GgfGame, GgfResult, parse_ggf_games};
use crate::protocol::Protocol;
use crossbeam_channel::unbounded;
use engine::{Engine, EngineError, set_ggf_clocks};
use openings::Opening;
use referee::{Ending, Forfeit, GameRecord, Timing, play_game, side};
use report::count;
use spec::{EngineSpec, TimeControl};
use stats::{Outcome, Sprt, SprtState, Tally};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Which engines play which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The first engine against each of the others (head to head with two engines).
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines (at least two, names unique).
    pub engines: Vec<EngineSpec>,
    /// Which pairs play.
    pub mode: Mode,
    /// Games per pairing (even: each opening twice).
    pub games: usize,
    /// The openings, used in turn.
    pub openings: Vec<Opening>,
    /// The time control of the engines that have none of their own.
    pub tc: TimeControl,
    /// Time an engine may overrun its time (besides its latency allowance) before it loses on
    /// time.
    pub margin: Duration,
    /// How long a depth-limited move may take before the engine counts as hung.
    pub hang_timeout: Duration,
    /// Games played at once.
    pub concurrency: usize,
    /// Where finished games are appended (GGF, one a line).
    pub output: Option<PathBuf>,
    /// Carry on from the games already in `output`.
    pub resume: bool,
    /// Stop each pairing's match once this test decides (head-to-head and gauntlet).
    pub sprt: Option<Sprt>,
    /// Write the report as JSON lines rather than text.
    pub json: bool,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

impl MatchConfig {
    /// The time control of engine `index`: its own, or the match's.
    pub fn tc_of(&self, index: usize) -> TimeControl {
        self.engines[index].tc.unwrap_or(self.tc)
    }
}

/// Why a match could not be played.
#[derive(Debug)]
pub enum MatchError {
    /// An engine could not be started and set up before the first game.
    CannotStart {
        /// Its name.
        name: String,
        /// What went wrong.
        error: EngineError,
    },
    /// Reading or writing the results file, or writing the report.
    Io(io::Error),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::CannotStart { name, error: EngineError::Spawn(e) } => {
                write!(f, "engine '{name}' cannot start: {e}")
            }
            MatchError::CannotStart { name, error } => write!(f, "engine '{name}' cannot start: {error}"),
            MatchError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<io::Error> for MatchError {
    fn from(e: io::Error) -> MatchError {
        MatchError::Io(e)
    }
}

/// Starts every engine once with its handshake, all at once, and quits it: the first that fails
/// is the error.
fn check_engines(config: &MatchConfig) -> Result<(), MatchError> {
    let size = config.openings.first().map(|o| o.start.size()).unwrap_or_default();
    let results: Vec<Result<(), EngineError>> = std::thread::scope(|scope| {
        let checks: Vec<_> = (0..config.engines.len())
            .map(|i| scope.spawn(move || Engine::start(&config.engines[i], config.tc_of(i), size).map(Engine::quit)))
            .collect();
        checks
            .into_iter()
            .map(|c| c.join().unwrap_or_else(|_| Err(EngineError::Spawn("the start-up check failed".into()))))
            .collect()
    });
    for (spec, result) in config.engines.iter().zip(results) {
        if let Err(error) = result {
            return Err(MatchError::CannotStart { name: spec.name.clone(), error });
        }
    }
    Ok(())
}

/// Warns of time controls an engine's protocol can only approximate (after the start-up check,
/// so that an engine that cannot start gets its one error line alone).
fn warn_about_time(config: &MatchConfig) {
    for (i, e) in config.engines.iter().enumerate() {
        match (config.tc_of(i), e.protocol) {
            (TimeControl::MoveTime(t), Protocol::Gtp) if t.subsec_nanos() > 0 => {
                log::warn!("GTP knows whole seconds only: engine '{}' is given {}s per move", e.name, t.as_secs() + 1)
            }
            (TimeControl::MoveTime(_) | TimeControl::Clock { .. }, Protocol::Nboard) => log::warn!(
                "NBoard has no time per move: engine '{}' is sent 'set depth 60' and a clock in each game \
                 (NTest and Edax ignore clocks: give them depth=N)",
                e.name
            ),
            _ => {}
        }
    }
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Scheduled {
    /// Its number, from 0, stored in the GGF as `MI`.
    number: usize,
    /// Index of the pairing.
    pairing: usize,
    /// Engine playing Black.
    black: usize,
    /// Engine playing White.
    white: usize,
    /// Index of the opening.
    opening: usize,
}

/// The pairings of a match: (first engine, second engine), results counted for the first.
fn pairings(engines: usize, mode: Mode) -> Vec<(usize, usize)> {
    match mode {
        Mode::Gauntlet => (1..engines).map(|i| (0, i)).collect(),
        Mode::RoundRobin => (0..engines).flat_map(|a| (a + 1..engines).map(move |b| (a, b))).collect(),
    }
}

/// The games in the order they are played: opening by opening, each pairing playing it with both
/// colours, so that partial results stay balanced.
fn schedule(config: &MatchConfig) -> Vec<Scheduled> {
    let pairs = pairings(config.engines.len(), config.mode);
    let rounds = config.games.div_ceil(2);
    let mut games = Vec::new();
    for round in 0..rounds {
        let opening = round % config.openings.len().max(1);
        for (p, &(a, b)) in pairs.iter().enumerate() {
            for (black, white) in [(a, b), (b, a)] {
                games.push(Scheduled { number: games.len(), pairing: p, black, white, opening });
            }
        }
    }
    games
}

/// The result of a pairing, counted for its first engine.
#[derive(Clone, Debug, Default)]
pub struct PairingResult {
    /// Wins, draws, losses, discs, pairs.
    pub tally: Tally,
    /// Forfeits by each engine of the pairing, by kind.
    pub forfeits: [BTreeMap<String, u32>; 2],
    /// Forfeits by each engine of the pairing, by what happened (the referee's words).
    pub reasons: [BTreeMap<String, u32>; 2],
    /// What the SPRT says, when one runs.
    pub sprt: Option<SprtState>,
}

/// The outcome of a game for Black, and the disc difference for Black when played to the end.
fn black_outcome(ending: &Ending) -> (Outcome, Option<i32>) {
    match ending {
        Ending::Finished(d) => {
            let outcome = match d.signum() {
                1 => Outcome::Win,
                -1 => Outcome::Loss,
                _ => Outcome::Draw,
            };
            (outcome, Some(*d))
        }
        Ending::Forfeit { loser: Color::Black, .. } => (Outcome::Loss, None),
        Ending::Forfeit { loser: Color::White, .. } => (Outcome::Win, None),
    }
}

/// One engine's games and time over the whole match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineTime {
    /// Games it played (those read back from the results file included).
    pub games: u32,
    /// Games it lost on time.
    pub time_losses: u32,
    /// Games whose times are counted in `timing`: those this run played and those read back from
    /// the results file.
    pub timed_games: u32,
    /// How it used its time: its moves, their time and the longest over every game, the games read
    /// back from the results file included (their times as the file holds them); the moves over
    /// their time and the latency allowance over the games this run played.
    pub timing: Timing,
}

impl EngineTime {
    /// The time it took a game, on average over the games its times were counted for.
    pub fn per_game(&self) -> Option<Duration> {
        (self.timed_games > 0).then(|| self.timing.total / self.timed_games)
    }
}

/// The book-keeping of a running match.
struct Standings {
    pairings: Vec<(usize, usize)>,
    results: Vec<PairingResult>,
    /// Per engine.
    engines: Vec<EngineTime>,
    /// First game of each (pairing, opening round) seen, waiting for its partner.
    half_pairs: HashMap<(usize, usize), Outcome>,
}

impl Standings {
    fn new(pairings: Vec<(usize, usize)>, engines: usize) -> Standings {
        let results = vec![PairingResult::default(); pairings.len()];
        Standings { pairings, results, engines: vec![EngineTime::default(); engines], half_pairs: HashMap::new() }
    }

    /// Counts how both engines of a game played by this run used their time.
    fn add_timing(&mut self, game: &Scheduled, timing: &[Timing; 2]) {
        for (engine, color) in [(game.black, Color::Black), (game.white, Color::White)] {
            self.engines[engine].timing.merge(&timing[side(color)]);
            self.engines[engine].timed_games += 1;
        }
    }

    /// Counts a game; `round` identifies its opening pair.
    fn add(&mut self, game: &Scheduled, round: usize, ending: &Ending) {
        let (first, _) = self.pairings[game.pairing];
        let (black_result, discs) = black_outcome(ending);
        let first_is_black = game.black == first;
        let (outcome, discs) =
            if first_is_black { (black_result, discs) } else { (black_result.reversed(), discs.map(|d| -d)) };
        let result = &mut self.results[game.pairing];
        result.tally.add_game(outcome, discs);
        self.engines[game.black].games += 1;
        self.engines[game.white].games += 1;
        if let Ending::Forfeit { loser, reason } = ending {
            let loser_engine = if *loser == Color::Black { game.black } else { game.white };
            let side = usize::from(loser_engine != first);
            *result.forfeits[side].entry(reason.kind().to_string()).or_default() += 1;
            *result.reasons[side].entry(reason.to_string()).or_default() += 1;
            if let Forfeit::Time(_) = reason {
                self.engines[loser_engine].time_losses += 1;
            }
        }
        match self.half_pairs.remove(&(game.pairing, round)) {
            Some(other) => result.tally.add_pair(other, outcome),
            None => {
                self.half_pairs.insert((game.pairing, round), outcome);
            }
        }
    }
}

/// The GGF record of a finished game.
fn to_ggf(config: &MatchConfig, game: &Scheduled, record: &GameRecord) -> GgfGame {
    let mut ggf = GgfGame::new(record.opening.start);
    ggf.set_place("magpie match");
    ggf.set_date(crate::formats::ggf::utc_now());
    ggf.set_player(Color::Black, config.engines[game.black].name.clone());
    ggf.set_player(Color::White, config.engines[game.white].name.clone());
    set_ggf_clocks(&mut ggf, config.tc_of(game.black), config.tc_of(game.white));
    for m in &record.moves {
        // The referee only records legal moves.
        let _ = ggf.push_move(m.mv, m.eval, m.time);
    }
    let result = match &record.ending {
        Ending::Finished(d) => GgfResult::Score { black_net: f64::from(*d), end: GameEnd::Normal },
        Ending::Forfeit { loser, reason } => {
            let end = if let Forfeit::Time(_) = reason { GameEnd::Timeout } else { GameEnd::Resigned };
            let black_net = if *loser == Color::Black { -64.0 } else { 64.0 };
            GgfResult::Score { black_net, end }
        }
    };
    ggf.set_result(result);
    ggf.set_extra_tag("MI", game.number.to_string());
    if let Ending::Forfeit { loser, reason } = &record.ending {
        let name = &config.engines[if *loser == Color::Black { game.black } else { game.white }].name;
        let details = if reason.details().is_empty() { String::new() } else { format!(": {}", reason.details()) };
        // The tag ends at the first ']', so none may be in it.
        let tag = format!("{}: {name}{details}", reason.kind()).replace(']', ")");
        ggf.set_extra_tag("RS", tag);
    }
    ggf
}

/// The forfeit recorded in a results file's `RS` tag (`<kind>: <engine>: <details>`).
fn forfeit_of(text: &str) -> Forfeit {
    let mut parts = text.splitn(3, ": ");
    let kind = parts.next().unwrap_or("");
    let details = parts.nth(1).unwrap_or("").to_string();
    Forfeit::from_kind(kind, details)
}

/// The ending of a game read back from the results file.
fn ending_of(ggf: &GgfGame) -> Option<Ending> {
    let GgfResult::Score { black_net, end } = ggf.result()? else { return None };
    match end {
        GameEnd::Normal => Some(Ending::Finished(black_net as i32)),
        GameEnd::Timeout | GameEnd::Resigned | GameEnd::Agreement => {
            let loser = if black_net < 0.0 { Color::Black } else { Color::White };
            let reason = match (end, ggf.extra_tag("RS")) {
                (_, Some(text)) => forfeit_of(text),
                (GameEnd::Timeout, None) => Forfeit::Time(String::new()),
                (_, None) => Forfeit::Illegal("forfeit".to_string()),
            };
            Some(Ending::Forfeit { loser, reason })
        }
    }
}

/// Reads the games already in the results file: their numbers and endings. Lines that do not
/// parse (a game cut off by an interruption) are skipped and counted.
/// A game of the results file: how it ended, and the time its moves took (Black's, White's).
struct Recorded {
    ending: Ending,
    timing: [Timing; 2],
}

/// The time each side's moves of `game` took, as its GGF records them (to the millisecond); what
/// the file does not hold (moves over their time, latency) stays at zero.
fn recorded_timing(game: &GgfGame) -> [Timing; 2] {
    let mut timing = [Timing::default(), Timing::default()];
    for played in game.moves() {
        let Some(seconds) = played.time else { continue };
        let spent = Duration::from_secs_f64(seconds);
        let t = &mut timing[side(played.color)];
        t.moves += 1;
        t.total += spent;
        t.longest = t.longest.max(spent);
    }
    timing
}

fn read_results(config: &MatchConfig, schedule: &[Scheduled]) -> io::Result<(BTreeMap<usize, Recorded>, usize)> {
    let Some(path) = &config.output else { return Ok((BTreeMap::new(), 0)) };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((BTreeMap::new(), 0)),
        Err(e) => return Err(e),
    };
    let mut done = BTreeMap::new();
    let mut broken = 0;
    for game in parse_ggf_games(&text) {
        let Ok(game) = game else {
            broken += 1;
            continue;
        };
        let number = game.extra_tag("MI").and_then(|n| n.parse::<usize>().ok());
        let (Some(number), Some(ending)) = (number, ending_of(&game)) else {
            broken += 1;
            continue;
        };
        let Some(scheduled) = schedule.get(number) else {
            return Err(io::Error::other(format!("game {number} of the results file is not in this match's schedule")));
        };
        let names = (game.player(Color::Black), game.player(Color::White));
        let expected =
            (Some(config.engines[scheduled.black].name.as_str()), Some(config.engines[scheduled.white].name.as_str()));
        if names != expected {
            return Err(io::Error::other(format!(
                "game {number} of the results file was played by {:?} and {:?}, not by this match's engines",
                names.0.unwrap_or("?"),
                names.1.unwrap_or("?")
            )));
        }
        done.insert(number, Recorded { ending, timing: recorded_timing(&game) });
    }
    Ok((done, broken))
}

/// A worker: plays scheduled games with its own engine processes, restarting broken ones.
fn worker(
    config: Arc<MatchConfig>,
    jobs: crossbeam_channel::Receiver<Scheduled>,
    results: crossbeam_channel::Sender<(Scheduled, GameRecord)>,
    decided: Arc<Vec<AtomicBool>>,
) {
    let size = config.openings.first().map(|o| o.start.size()).unwrap_or_default();
    let mut engines: Vec<Option<Engine>> = (0..config.engines.len()).map(|_| None).collect();
    while let Ok(game) = jobs.recv() {
        // A pairing whose SPRT has decided plays no more games.
        if decided[game.pairing].load(Ordering::Relaxed) {
            continue;
        }
        let opening = &config.openings[game.opening];
        let mut setup_failure = None;
        for (color, index) in [(Color::Black, game.black), (Color::White, game.white)] {
            if engines[index].is_none() {
                match Engine::start(&config.engines[index], config.tc_of(index), size) {
                    Ok(engine) => engines[index] = Some(engine),
                    Err(e) => {
                        setup_failure.get_or_insert((color, Forfeit::Setup(e.to_string())));
                    }
                }
            }
        }
        let record = match setup_failure {
            Some((loser, reason)) => GameRecord {
                opening: opening.clone(),
                moves: Vec::new(),
                ending: Ending::Forfeit { loser, reason },
                timing: Default::default(),
            },
            None => {
                let (mut black, mut white) = (engines[game.black].take(), engines[game.white].take());
                let record = match (&mut black, &mut white) {
                    (Some(b), Some(w)) => play_game(b, w, opening, config.margin, config.hang_timeout),
                    _ => unreachable!("both engines were started above"),
                };
                engines[game.black] = black;
                engines[game.white] = white;
                record
            }
        };
        if let Ending::Forfeit { loser, reason } = &record.ending
            && reason.needs_restart()
        {
            let index = if *loser == Color::Black { game.black } else { game.white };
            if let Some(engine) = engines[index].take() {
                engine.quit();
            }
        }
        if results.send((game, record)).is_err() {
            break;
        }
    }
    for engine in engines.into_iter().flatten() {
        engine.quit();
    }
}

/// Plays the match and writes the final report to `out`.
pub fn run_match(config: MatchConfig, out: &mut impl Write) -> Result<Vec<PairingResult>, MatchError> {
    let schedule = schedule(&config);
    let pairs = pairings(config.engines.len(), config.mode);
    let mut standings = Standings::new(pairs.clone(), config.engines.len());
    let (done, broken) = if config.resume {
        read_results(&config, &schedule)?
    } else {
        if let Some(path) = &config.output
            && path.exists()
            && std::fs::metadata(path)?.len() > 0
        {
            return Err(io::Error::other(format!(
                "{} already holds games: use --resume to carry on, or another file",
                path.display()
            ))
            .into());
        }
        (BTreeMap::new(), 0)
    };
    let rounds_per = 2 * pairs.len();
    for (&number, recorded) in &done {
        let game = schedule[number];
        standings.add(&game, number / rounds_per, &recorded.ending);
        standings.add_timing(&game, &recorded.timing);
    }
    check_engines(&config)?;
    warn_about_time(&config);
    // With --json, stdout holds only the report's JSON lines.
    if config.resume && !config.json {
        writeln!(
            out,
            "resuming: {} already played{}",
            count(done.len() as u64, "game", "games"),
            if broken > 0 {
                format!(", {} skipped", count(broken as u64, "unreadable line", "unreadable lines"))
            } else {
                String::new()
            }
        )?;
    }
    let mut file = match &config.output {
        Some(path) => {
            let mut file = OpenOptions::new().create(true).append(true).open(path)?;
            // A game cut off by an interruption must not run into the next one.
            let text = std::fs::read(path)?;
            if text.last().is_some_and(|&b| b != b'\n') {
                file.write_all(b"\n")?;
            }
            Some(file)
        }
        None => None,
    };

    let config = Arc::new(config);
    let decided: Arc<Vec<AtomicBool>> = Arc::new(pairs.iter().map(|_| AtomicBool::new(false)).collect());
    let (job_tx, job_rx) = unbounded();
    let (result_tx, result_rx) = unbounded();
    let todo: Vec<Scheduled> = schedule.iter().copied().filter(|g| !done.contains_key(&g.number)).collect();
    let total = schedule.len() as u64;
    for game in &todo {
        let _ = job_tx.send(*game);
    }
    drop(job_tx);
    let workers: Vec<_> = (0..config.concurrency.clamp(1, todo.len().max(1)))
        .map(|_| {
            let (config, jobs, results, decided) = (config.clone(), job_rx.clone(), result_tx.clone(), decided.clone());
            std::thread::spawn(move || worker(config, jobs, results, decided))
        })
        .collect();
    drop(result_tx);

    let bar = crate::progress::progress_bar(config.progress, total, "games");
    bar.set_position(done.len() as u64);
    for (game, record) in result_rx {
        if let Some(file) = &mut file {
            // One write per game, so that an interruption leaves at most one cut line.
            file.write_all(format!("{}\n", to_ggf(&config, &game, &record)).as_bytes())?;
            file.flush()?;
        }
        standings.add(&game, game.number / rounds_per, &record.ending);
        standings.add_timing(&game, &record.timing);
        bar.inc(1);
        bar.set_message(running_score(&config, &standings));
        if let Some(sprt) = &config.sprt {
            let result = &mut standings.results[game.pairing];
            let state = sprt.state(&result.tally);
            result.sprt = Some(state);
            if state != SprtState::Continue {
                decided[game.pairing].store(true, Ordering::Relaxed);
            }
        }
    }
    bar.finish_and_clear();
    for worker in workers {
        let _ = worker.join();
    }
    report::report(&config, &standings, out)?;
    Ok(standings.results)
}

/// The score of each pairing so far, for the progress bar.
fn running_score(config: &MatchConfig, standings: &Standings) -> String {
    standings
        .pairings
        .iter()
        .zip(&standings.results)
        .map(|(&(a, b), r)| {
            let t = &r.tally;
            format!("{} {}-{}-{} {}", config.engines[a].name, t.wins, t.draws, t.losses, config.engines[b].name)
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn spec(name: &str) -> EngineSpec {
        EngineSpec {
            name: name.into(),
            program: "magpie".into(),
            args: vec![],
            dir: None,
            protocol: crate::protocol::Protocol::Ugi,
            options: vec![],
            tc: None,
            stderr: None,
        }
    }

    pub(super) fn config(engines: usize, mode: Mode, games: usize) -> MatchConfig {
        MatchConfig {
            engines: (0..engines).map(|i| spec(&format!("e{i}"))).collect(),
            mode,
            games,
            openings: vec![Opening { start: Position::initial(), moves: vec![] }; 3],
            tc: TimeControl::Depth(1),
            margin: Duration::from_millis(50),
            hang_timeout: Duration::from_secs(5),
            concurrency: 1,
            output: None,
            resume: false,
            sprt: None,
            json: false,
            progress: false,
        }
    }

    #[test]
    fn schedules_pair_colours_and_cover_pairings() {
        let s = schedule(&config(2, Mode::Gauntlet, 4));
        assert_eq!(s.len(), 4);
        assert_eq!((s[0].black, s[0].white, s[0].opening), (0, 1, 0));
        assert_eq!((s[1].black, s[1].white, s[1].opening), (1, 0, 0));
        assert_eq!(s[2].opening, 1);
        assert!(s.iter().enumerate().all(|(i, g)| g.number == i));
        assert_eq!(pairings(3, Mode::Gauntlet), [(0, 1), (0, 2)]);
        assert_eq!(pairings(3, Mode::RoundRobin), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(schedule(&config(3, Mode::RoundRobin, 2)).len(), 6);
        // An odd count is rounded up to whole pairs.
        assert_eq!(schedule(&config(2, Mode::Gauntlet, 3)).len(), 4);
    }

    #[test]
    fn standings_count_for_the_first_engine() {
        let mut st = Standings::new(vec![(0, 1)], 2);
        let g0 = Scheduled { number: 0, pairing: 0, black: 0, white: 1, opening: 0 };
        let g1 = Scheduled { number: 1, pairing: 0, black: 1, white: 0, opening: 0 };
        st.add(&g0, 0, &Ending::Finished(10));
        st.add(&g1, 0, &Ending::Forfeit { loser: Color::Black, reason: Forfeit::Time("took 2 s".into()) });
        let r = &st.results[0];
        assert_eq!((r.tally.wins, r.tally.losses), (2, 0));
        assert_eq!(r.tally.pairs, [0, 0, 0, 0, 1]);
        assert_eq!(r.tally.mean_discs(), Some(10.0));
        assert_eq!(r.forfeits[1].get("time"), Some(&1));
        assert_eq!(r.reasons[1].get("lost on time: took 2 s"), Some(&1));
        assert_eq!(st.engines[1].time_losses, 1);
        assert_eq!((st.engines[0].games, st.engines[1].games), (2, 2));
    }
}
