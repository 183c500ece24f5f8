//! `magpie datagen`: self-play games that become training samples (see
//! [`crate::formats::samples`]) for `magpie train`.
//!
//! Each game starts from the 8x8 start with `--random-plies` random legal plies; an opening that a
//! depth-4 search scores beyond ±4 discs, or that ends the game, is drawn again from the same
//! generator, so that the games start close to even. The engine then plays the game out against
//! itself. Every position where the side to move has a legal move becomes a sample (a position
//! that must pass gives none): with more than `--exact-empties` empty squares it is searched to
//! `--depth` (with Multi-ProbCut at `--selectivity`, as the engine searches) and recorded with
//! that depth and the root score; with fewer it is solved exactly and
//! recorded with [`EXACT_DEPTH`]. The best move found is played, except that while the position
//! is above the exact threshold a uniformly random legal move is played instead with probability
//! `--random-rate` percent, so that the games spread out (the position is still recorded with its
//! search score).
//!
//! Reproducibility is the point of the design. Games are numbered `0..games`; game `j` draws all
//! its randomness from [`game_rng`]`(seed, j)` and its searcher's table is cleared before it
//! starts, so its records depend only on the seed, `j` and the settings. A shard `I/N` plays the
//! games `j` with `j % N == I`: the shards' files, concatenated (`cat shard*.bin > all.bin`), hold
//! the same records as one unsharded run. Worker threads take game numbers from a shared counter,
//! each with its own one-thread [`Searcher`]; finished games are written in game order (those that
//! finish early wait for the ones before them), so the file's bytes do not depend on the number
//! of threads.

use crate::board::{Move, Position, Square};
use crate::eval::Evaluator;
use crate::formats::samples::{EXACT_DEPTH, Sample, Source};
use crate::rng::Rng;
use crate::search::{NoControl, SearchRequest, Searcher};
use crate::shard::Shard;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The table size of each worker's searcher when none is given, in MiB: the table is cleared for
/// every game, and searches of a few plies need no more.
pub const DEFAULT_HASH_MIB: usize = 16;

/// Depth of the search that checks an opening's balance.
pub const OPENING_CHECK_DEPTH: u32 = 4;

/// The largest absolute score of an opening kept, in centi-discs.
pub const OPENING_MAX_SCORE: i32 = 400;

/// Openings drawn before the balance check is given up (the next opening that does not end the
/// game is kept), so that odd settings cannot loop for ever.
const OPENING_TRIES: usize = 1000;

/// The largest absolute score stored, in centi-discs.
const MAX_SCORE: i32 = 6400;

/// What `magpie datagen` is asked.
#[derive(Clone, Debug)]
pub struct DatagenRequest {
    /// Games in all shards together, numbered from 0.
    pub games: u64,
    /// Where to write the samples.
    pub out: PathBuf,
    /// The seed every game's generator is drawn from (with the game's number).
    pub seed: u64,
    /// The share of the games this run plays.
    pub shard: Shard,
    /// Worker threads, each playing whole games with its own one-thread searcher.
    pub threads: usize,
    /// Depth of the search of positions above the exact threshold.
    pub depth: u32,
    /// Positions with this many empty squares or fewer are solved exactly.
    pub exact_empties: u32,
    /// Random plies from the start before the engine plays.
    pub random_plies: u32,
    /// Percent of the moves above the exact threshold played at random instead of the best.
    pub random_percent: u32,
    /// Each worker's table size in MiB.
    pub hash_mib: usize,
    /// The evaluation of the searches.
    pub eval: Evaluator,
    /// Multi-ProbCut's selectivity in the depth-limited searches (0 for none).
    pub selectivity: u8,
    /// Whether to show a progress bar on stderr.
    pub progress: bool,
}

/// The totals of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DatagenSummary {
    /// Games played.
    pub games: u64,
    /// Samples written.
    pub positions: u64,
    /// Of those, the ones solved exactly.
    pub exact: u64,
    /// Time from start to the last record written.
    pub time: Duration,
}

/// The generator of game `game` under `seed`: distinct games of one seed get distinct
/// generators, whichever shard or thread plays them.
pub fn game_rng(seed: u64, game: u64) -> Rng {
    // Rng::new is a bijection of its seed, so distinct game numbers give distinct states.
    Rng::new(Rng::new(seed).next_u64().wrapping_add(game))
}

/// A uniformly random legal move of `pos`, which must have one.
fn random_move(rng: &mut Rng, pos: &Position) -> Option<Square> {
    let moves: Vec<Square> = pos.legal_moves().iter().collect();
    if moves.is_empty() { None } else { Some(moves[rng.below(moves.len())]) }
}

/// `request.random_plies` random plies from the 8x8 start (passes count as plies), drawn again
/// while the game ends or a shallow search finds them unbalanced.
fn random_opening(request: &DatagenRequest, rng: &mut Rng, searcher: &mut Searcher) -> Position {
    let mut tries = 0;
    loop {
        tries += 1;
        let mut pos = Position::initial();
        for _ in 0..request.random_plies {
            if pos.is_game_over() {
                break;
            }
            pos = match random_move(rng, &pos) {
                Some(sq) => pos.play(sq),
                None => pos.pass(),
            };
        }
        if pos.is_game_over() {
            continue;
        }
        if tries > OPENING_TRIES {
            return pos;
        }
        // A position that must pass is scored from the opponent's side: the size is what counts.
        let searched = if pos.must_pass() { pos.pass() } else { pos };
        let mut check = SearchRequest::new(searched, request.eval.clone());
        check.max_depth = OPENING_CHECK_DEPTH;
        let score = searcher.search(&check, &mut NoControl, &mut |_| {}).info.score;
        if score.abs() <= OPENING_MAX_SCORE {
            return pos;
        }
    }
}

/// Plays game `game` of `request` with `searcher` (whose table is cleared first) and returns its
/// samples in the order of the game.
pub fn play_game(request: &DatagenRequest, game: u64, searcher: &mut Searcher) -> Vec<Sample> {
    searcher.clear();
    let mut rng = game_rng(request.seed, game);
    let mut pos = random_opening(request, &mut rng, searcher);
    let mut samples = Vec::new();
    while !pos.is_game_over() {
        if pos.must_pass() {
            pos = pos.pass();
            continue;
        }
        let exact = pos.empty_count() <= request.exact_empties;
        let mut search = SearchRequest::new(pos, request.eval.clone());
        search.max_depth = if exact { 60 } else { request.depth };
        search.selectivity = request.selectivity;
        let result = searcher.search(&search, &mut NoControl, &mut |_| {});
        // Without limits the solver always ends exact; should it not, the depth says what it is.
        let depth = if exact && result.info.exact {
            EXACT_DEPTH
        } else if exact {
            result.info.depth.min(u32::from(EXACT_DEPTH) - 1) as u8
        } else {
            request.depth.min(u32::from(EXACT_DEPTH)) as u8
        };
        let score = result.info.score.clamp(-MAX_SCORE, MAX_SCORE) as i16;
        samples.push(Sample { player: pos.player(), opponent: pos.opponent(), score, depth, source: Source::SelfPlay });
        let explore = !exact && (rng.below(100) as u32) < request.random_percent;
        let best = match result.best {
            Move::Play(sq) if !explore && pos.legal_moves().contains(sq) => Some(sq),
            _ => random_move(&mut rng, &pos),
        };
        pos = match best {
            Some(sq) => pos.play(sq),
            None => pos.pass(),
        };
    }
    samples
}

/// Wraps an error on the output file so that it names the file.
fn file_error(request: &DatagenRequest, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", request.out.display()))
}

/// Plays this shard's games of `request`, writes their samples to `request.out` in game order,
/// and writes one line of statistics to `out`.
pub fn run(request: &DatagenRequest, out: &mut impl Write) -> io::Result<DatagenSummary> {
    let started = Instant::now();
    let total = request.shard.len(request.games);
    // The file first, so that a bad path is reported before any game is played.
    let mut file = BufWriter::new(File::create(&request.out).map_err(|e| file_error(request, e))?);
    let threads = request.threads.max(1).min(total.max(1).try_into().unwrap_or(usize::MAX));
    let mut searchers = Vec::with_capacity(threads);
    for _ in 0..threads {
        searchers.push(Searcher::with_hash(request.hash_mib).map_err(io::Error::other)?);
    }
    let bar = crate::progress::progress_bar(request.progress, total, "games");
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let mut summary = DatagenSummary::default();
    let written: io::Result<()> = std::thread::scope(|scope| {
        let (sender, results) = mpsc::channel::<(u64, Vec<Sample>)>();
        for mut searcher in searchers {
            let sender = sender.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= total {
                        break;
                    }
                    let samples = play_game(request, request.shard.game(k), &mut searcher);
                    if sender.send((k, samples)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Games that finish before an earlier one wait here for their turn.
        let mut pending = BTreeMap::new();
        let mut to_write = 0;
        for (k, samples) in results {
            bar.inc(1);
            pending.insert(k, samples);
            while let Some(samples) = pending.remove(&to_write) {
                let mut bytes = Vec::with_capacity(samples.len() * crate::formats::samples::RECORD_LEN);
                for sample in &samples {
                    bytes.extend_from_slice(&sample.to_bytes());
                }
                if let Err(e) = file.write_all(&bytes) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                summary.games += 1;
                summary.positions += samples.len() as u64;
                summary.exact += samples.iter().filter(|s| s.depth == EXACT_DEPTH).count() as u64;
                to_write += 1;
            }
        }
        Ok(())
    });
    bar.finish_and_clear();
    written.and_then(|()| file.flush()).map_err(|e| file_error(request, e))?;
    summary.time = started.elapsed();
    let seconds = summary.time.as_secs_f64();
    writeln!(
        out,
        "datagen: {} games, {} positions ({} exact), {seconds:.1} s, {} positions/s, shard {}, seed {}",
        summary.games,
        summary.positions,
        summary.exact,
        (summary.positions as f64 / seconds.max(1e-6)).round() as u64,
        request.shard,
        request.seed
    )?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalKind;

    fn request(seed: u64) -> DatagenRequest {
        DatagenRequest {
            games: 4,
            out: PathBuf::new(),
            seed,
            shard: Shard::ALL,
            threads: 1,
            depth: 1,
            exact_empties: 6,
            random_plies: 4,
            random_percent: 20,
            hash_mib: 1,
            eval: Evaluator::new(EvalKind::default()),
            selectivity: 0,
            progress: false,
        }
    }

    #[test]
    fn a_game_depends_only_on_its_seed_and_number() {
        let request = request(7);
        let mut used = Searcher::with_hash(1).unwrap();
        let other = play_game(&request, 1, &mut used);
        let a = play_game(&request, 0, &mut used);
        let b = play_game(&request, 0, &mut Searcher::with_hash(1).unwrap());
        assert_eq!(a, b);
        assert_ne!(a, other);
        assert!(a.iter().all(|s| s.source == Source::SelfPlay && s.score.unsigned_abs() <= 6400));
        for s in &a {
            let exact = s.empties() <= request.exact_empties;
            assert_eq!(s.depth, if exact { EXACT_DEPTH } else { 1 }, "{s:?}");
        }
        // The last positions of a game are solved, the first are not.
        assert_eq!(a.last().map(|s| s.depth), Some(EXACT_DEPTH));
        assert_eq!(a.first().map(|s| s.empties()), Some(60 - request.random_plies));
        assert_ne!(play_game(&DatagenRequest { seed: 8, ..request.clone() }, 0, &mut used), a);
    }
}
