//! `magpie relabel`: scores the positions of sample files again by a search of another depth or
//! with other weights, so that a round's data can be labelled better without replaying its games.
//!
//! Exact records are kept as they are; every other record is searched to `--depth` (Multi-ProbCut
//! at `--selectivity`, the `--weights` evaluation), as `datagen` and `wthor-samples --depth` score
//! theirs, and keeps its position, its place in the file and its source (a WTHOR record scored by
//! the game's result becomes a searched one). The records of one game lie together in a file, with
//! fewer empties each: a run of records whose empties fall is searched in order with one table,
//! cleared at the run's start, so the file written is the same for any number of threads.

use crate::board::{BoardSize, Color, Position};
use crate::eval::Evaluator;
use crate::formats::samples::{self, EXACT_DEPTH, Sample, Source};
use crate::search::Searcher;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// What `magpie relabel` is asked.
#[derive(Clone, Debug)]
pub struct RelabelRequest {
    /// The sample files, read in this order.
    pub data: Vec<PathBuf>,
    /// Where to write the samples.
    pub out: PathBuf,
    /// The depth of the search that scores the records not exact.
    pub depth: u32,
    /// The evaluation of those searches.
    pub eval: Evaluator,
    /// Multi-ProbCut's selectivity in those searches (0 for none).
    pub selectivity: u8,
    /// Threads.
    pub threads: usize,
    /// Whether to show a progress bar.
    pub progress: bool,
}

/// What a run did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RelabelReport {
    /// Records read and written.
    pub records: usize,
    /// Records searched again.
    pub searched: usize,
    /// The mean of the new score less the old over the records searched, in discs.
    pub mean_change: f64,
}

/// The ranges of `samples` that are runs of falling empties: one game each in a file written
/// game after game.
fn runs(samples: &[Sample]) -> Vec<std::ops::Range<usize>> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=samples.len() {
        if i == samples.len() || samples[i].empties() >= samples[i - 1].empties() {
            runs.push(start..i);
            start = i;
        }
    }
    runs
}

/// The record `sample` scored again; an exact one is kept.
fn relabel_one(sample: &Sample, request: &RelabelRequest, searcher: &mut Searcher) -> Sample {
    if sample.depth == EXACT_DEPTH {
        return *sample;
    }
    let pos = Position::from_player_opponent(sample.player, sample.opponent, Color::Black, BoardSize::Eight);
    let score = super::wthor_samples::score(searcher, &pos, request.depth, request.selectivity, &request.eval);
    let source = match sample.source {
        Source::WthorTheoretical => Source::WthorSearched,
        other => other,
    };
    Sample { score, depth: request.depth.min(u32::from(EXACT_DEPTH) - 1) as u8, source, ..*sample }
}

/// `samples` scored again, in their order.
pub fn relabel(samples: &[Sample], request: &RelabelRequest, bar: &indicatif::ProgressBar) -> Vec<Sample> {
    let runs = runs(samples);
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, Vec<Sample>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..request.threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut searcher =
                        Searcher::with_hash(super::datagen::DEFAULT_HASH_MIB).unwrap_or_else(|_| Searcher::new());
                    let mut mine = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(run) = runs.get(index) else { break };
                        searcher.clear();
                        let scored: Vec<Sample> =
                            samples[run.clone()].iter().map(|s| relabel_one(s, request, &mut searcher)).collect();
                        bar.inc(scored.len() as u64);
                        mine.push((index, scored));
                    }
                    mine
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    done.sort_unstable_by_key(|(index, _)| *index);
    done.into_iter().flat_map(|(_, scored)| scored).collect()
}

/// Reads the files, scores their records again, writes them and a line of statistics.
pub fn run(request: &RelabelRequest, out: &mut impl Write) -> io::Result<RelabelReport> {
    let started = Instant::now();
    let mut samples = Vec::new();
    for path in &request.data {
        let read = samples::read_file(path)?;
        if read.is_empty() {
            return Err(io::Error::new(io::ErrorKind::InvalidData, format!("{}: no sample record", path.display())));
        }
        samples.extend(read);
    }
    let bar = crate::progress::progress_bar(request.progress, samples.len() as u64, "positions");
    let scored = relabel(&samples, request, &bar);
    bar.finish_and_clear();
    let bytes: Vec<u8> = scored.iter().flat_map(Sample::to_bytes).collect();
    std::fs::write(&request.out, &bytes)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", request.out.display())))?;
    let searched = samples.iter().filter(|s| s.depth != EXACT_DEPTH).count();
    let change: i64 = samples.iter().zip(&scored).map(|(old, new)| i64::from(new.score) - i64::from(old.score)).sum();
    let report =
        RelabelReport { records: scored.len(), searched, mean_change: change as f64 / searched.max(1) as f64 / 100.0 };
    writeln!(
        out,
        "relabel: {} positions ({} searched at depth {}, {} exact kept), mean change {:+.2} discs, {:.1} s, wrote {}",
        report.records,
        report.searched,
        request.depth,
        report.records - report.searched,
        report.mean_change,
        started.elapsed().as_secs_f64(),
        request.out.display()
    )?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalKind;
    use crate::rng::Rng;

    /// The positions of two random games, as a file records them: exact from 10 empties, the
    /// others with a made-up score and depth.
    fn two_games() -> Vec<Sample> {
        let mut samples = Vec::new();
        for seed in [3, 4] {
            let mut rng = Rng::new(seed);
            let mut pos = Position::start(BoardSize::Eight);
            while !pos.is_game_over() {
                if pos.must_pass() {
                    pos = pos.pass();
                    continue;
                }
                let exact = pos.empty_count() <= 10;
                samples.push(Sample {
                    player: pos.player(),
                    opponent: pos.opponent(),
                    score: if exact { 200 } else { -700 },
                    depth: if exact { EXACT_DEPTH } else { 4 },
                    source: if seed == 3 { Source::SelfPlay } else { Source::WthorTheoretical },
                });
                let moves: Vec<_> = pos.legal_moves().iter().collect();
                pos = pos.play(moves[rng.below(moves.len())]);
            }
        }
        samples
    }

    fn request(threads: usize) -> RelabelRequest {
        RelabelRequest {
            data: Vec::new(),
            out: PathBuf::new(),
            depth: 3,
            eval: Evaluator::new(EvalKind::default()),
            selectivity: 0,
            threads,
            progress: false,
        }
    }

    #[test]
    fn runs_split_where_the_empties_stop_falling() {
        let samples = two_games();
        let games = runs(&samples);
        assert_eq!(games.len(), 2, "{games:?}");
        assert_eq!((games[0].start, games[1].end), (0, samples.len()));
        assert_eq!(games[0].end, games[1].start);
        assert!(runs(&[]).is_empty());
    }

    #[test]
    fn searched_records_are_scored_again_and_exact_ones_kept() {
        let samples = two_games();
        let bar = indicatif::ProgressBar::hidden();
        let scored = relabel(&samples, &request(1), &bar);
        assert_eq!(scored.len(), samples.len());
        for (old, new) in samples.iter().zip(&scored) {
            assert_eq!((new.player, new.opponent), (old.player, old.opponent));
            if old.depth == EXACT_DEPTH {
                assert_eq!(new, old);
                continue;
            }
            assert_eq!(new.depth, 3);
            let expected = if old.source == Source::SelfPlay { Source::SelfPlay } else { Source::WthorSearched };
            assert_eq!(new.source, expected);
            let pos = Position::from_player_opponent(old.player, old.opponent, Color::Black, BoardSize::Eight);
            let mut fresh = Searcher::with_hash(1).unwrap();
            let score = super::super::wthor_samples::score(&mut fresh, &pos, 3, 0, &request(1).eval);
            assert_eq!(new.score, score, "{pos}");
        }
        assert!(scored.iter().any(|s| s.depth == 3 && s.score != -700));
        // The same records for any number of threads.
        assert_eq!(relabel(&samples, &request(3), &bar), scored);
    }
}
