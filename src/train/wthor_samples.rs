//! `magpie wthor-samples`: turns WTHOR tournament games into training samples (see
//! [`crate::formats::samples`]), the second source of the training pipeline beside self-play.
//!
//! Every position of every game where the side to move can play becomes a sample. Those with at
//! most `--exact-empties` empty squares are solved exactly by Magpie's solver; the others are
//! scored with the database's perfect-play result (the game's score under perfect play from 24
//! empties on), for the side to move, unless `--solved-only` leaves them out or `--depth` scores
//! them by a depth-limited search instead (with Multi-ProbCut at the global `--selectivity`, as
//! `datagen` scores its positions). Records are written in the games' order, so that the last ones
//! of the file are whole games (`magpie train` holds them out).

use crate::board::Position;
use crate::eval::Evaluator;
use crate::formats::samples::{EXACT_DEPTH, Sample, Source};
use crate::formats::wthor::WthorGame;
use crate::search::{NoControl, SearchRequest, Searcher};
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

/// What `magpie wthor-samples` is asked.
#[derive(Clone, Debug)]
pub struct WthorSamplesRequest {
    /// The games.
    pub games: Vec<WthorGame>,
    /// Where to write the samples.
    pub out: PathBuf,
    /// Positions with this many empties or fewer are solved exactly.
    pub exact_empties: u32,
    /// Whether to leave out the positions not solved (scored by the game's result).
    pub solved_only: bool,
    /// The depth of the search that scores the positions not solved, instead of the game's
    /// result.
    pub depth: Option<u32>,
    /// The evaluation of those searches.
    pub eval: Evaluator,
    /// Multi-ProbCut's selectivity in those searches (0 for none).
    pub selectivity: u8,
    /// Threads.
    pub threads: usize,
    /// Whether to show a progress bar.
    pub progress: bool,
}

/// The samples of one game; `None` if it does not replay.
fn game_samples(game: &WthorGame, request: &WthorSamplesRequest, searcher: &mut Searcher) -> Option<Vec<Sample>> {
    let replayed = game.replay().ok()?;
    let result = game.theoretical_score_for_black() * 100;
    searcher.clear();
    let mut samples = Vec::new();
    for pos in replayed.positions() {
        let solved = pos.empty_count() <= request.exact_empties;
        if pos.legal_moves().is_empty() || (request.solved_only && !solved) {
            continue;
        }
        let for_black = pos.side_to_move() == crate::board::Color::Black;
        let sample = if solved {
            Sample {
                player: pos.player(),
                opponent: pos.opponent(),
                score: score(searcher, pos, u32::from(EXACT_DEPTH), 0, &request.eval),
                depth: EXACT_DEPTH,
                source: Source::WthorSolved,
            }
        } else if let Some(depth) = request.depth {
            Sample {
                player: pos.player(),
                opponent: pos.opponent(),
                score: score(searcher, pos, depth, request.selectivity, &request.eval),
                depth: depth.min(u32::from(EXACT_DEPTH) - 1) as u8,
                source: Source::WthorSearched,
            }
        } else {
            let score = if for_black { result } else { -result };
            Sample {
                player: pos.player(),
                opponent: pos.opponent(),
                score: score as i16,
                depth: 0,
                source: Source::WthorTheoretical,
            }
        };
        samples.push(sample);
    }
    Some(samples)
}

/// The score of `pos` in centi-discs for the side to move by a search to `depth` with `eval`,
/// at `selectivity`: exact from a depth that reaches the end of the game.
/// The solves pass 0: at 14 empties or fewer the ladder of selective solves before the exact one
/// (which the selectivity would start) doubles the time for the same scores.
pub(crate) fn score(searcher: &mut Searcher, pos: &Position, depth: u32, selectivity: u8, eval: &Evaluator) -> i16 {
    let mut search = SearchRequest::new(*pos, eval.clone());
    search.max_depth = depth;
    search.selectivity = selectivity;
    searcher.search(&search, &mut NoControl, &mut |_| {}).info.score.clamp(-6400, 6400) as i16
}

/// Writes the samples of `request.games` and a line of statistics.
pub fn run(request: &WthorSamplesRequest, out: &mut impl Write) -> io::Result<()> {
    let started = Instant::now();
    let bar = crate::progress::progress_bar(request.progress, request.games.len() as u64, "games");
    let threads = request.threads.max(1);
    let chunk = request.games.len().div_ceil(threads).max(1);
    let results: Vec<Vec<Option<Vec<Sample>>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = request
            .games
            .chunks(chunk)
            .map(|part| {
                let bar = bar.clone();
                scope.spawn(move || {
                    // A small table: it is cleared for every game, and endgames of a few
                    // empties need no more; depth-limited searches get as much as datagen's.
                    let mib = if request.depth.is_some() { super::datagen::DEFAULT_HASH_MIB } else { 4 };
                    let mut searcher = Searcher::with_hash(mib).unwrap_or_else(|_| Searcher::new());
                    part.iter()
                        .map(|game| {
                            let samples = game_samples(game, request, &mut searcher);
                            bar.inc(1);
                            samples
                        })
                        .collect()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    bar.finish_and_clear();
    let (mut bytes, mut skipped, mut exact, mut count) = (Vec::new(), 0, 0, 0);
    for game in results.iter().flatten() {
        let Some(samples) = game else {
            skipped += 1;
            continue;
        };
        for s in samples {
            bytes.extend_from_slice(&s.to_bytes());
            exact += usize::from(s.depth == EXACT_DEPTH);
            count += 1;
        }
    }
    std::fs::write(&request.out, &bytes)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", request.out.display())))?;
    writeln!(
        out,
        "wthor-samples: {} games ({skipped} skipped as illegal), {count} positions ({exact} solved exactly), {:.1} s, wrote {}",
        request.games.len(),
        started.elapsed().as_secs_f64(),
        request.out.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;
    use crate::board::testing::random_line;
    use crate::eval::EvalKind;
    use crate::rng::Rng;

    /// A game of random legal moves to its end, as a WTHOR record.
    fn random_game(seed: u64) -> WthorGame {
        let (_, moves) = random_line(&mut Rng::new(seed), BoardSize::Eight, 0);
        WthorGame { tournament: 0, black: 0, white: 0, black_discs: 40, theoretical_black_discs: 36, moves }
    }

    #[test]
    fn solved_only_keeps_exactly_the_solved_positions() {
        let game = random_game(7);
        let request = |solved_only| WthorSamplesRequest {
            games: vec![game.clone()],
            out: PathBuf::new(),
            exact_empties: 10,
            solved_only,
            depth: None,
            eval: Evaluator::new(EvalKind::default()),
            selectivity: 0,
            threads: 1,
            progress: false,
        };
        let mut searcher = Searcher::with_hash(1).unwrap();
        let all = game_samples(&game, &request(false), &mut searcher).unwrap();
        let solved = game_samples(&game, &request(true), &mut searcher).unwrap();
        let expected: Vec<Sample> = all.iter().copied().filter(|s| s.depth == EXACT_DEPTH).collect();
        assert!(!solved.is_empty() && solved.len() < all.len());
        assert_eq!(solved, expected);
        assert!(solved.iter().all(|s| s.empties() <= 10 && s.source == Source::WthorSolved));
        // The others are scored with the game's perfect-play result, for the side to move.
        assert!(all.iter().filter(|s| s.depth != EXACT_DEPTH).all(|s| s.score.abs() == 800));
    }

    #[test]
    fn depth_scores_the_unsolved_positions_by_search() {
        let game = random_game(11);
        let request = WthorSamplesRequest {
            games: vec![game.clone()],
            out: PathBuf::new(),
            exact_empties: 10,
            solved_only: false,
            depth: Some(2),
            eval: Evaluator::new(EvalKind::default()),
            selectivity: 0,
            threads: 1,
            progress: false,
        };
        let mut searcher = Searcher::with_hash(1).unwrap();
        let samples = game_samples(&game, &request, &mut searcher).unwrap();
        let searched: Vec<&Sample> = samples.iter().filter(|s| s.depth != EXACT_DEPTH).collect();
        assert!(searched.len() > 30, "{}", searched.len());
        for s in searched {
            assert_eq!((s.source, s.depth), (Source::WthorSearched, 2));
            assert!(s.empties() > 10);
            // The score is a depth-2 search's, not the game's result.
            let pos = Position::from_discs(s.player, s.opponent, crate::board::Color::Black, BoardSize::Eight).unwrap();
            let mut fresh = Searcher::with_hash(1).unwrap();
            assert_eq!(s.score, score(&mut fresh, &pos, 2, request.selectivity, &request.eval), "{s:?}");
        }
    }
}
