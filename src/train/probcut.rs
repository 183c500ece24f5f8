//! `magpie probcut`: fits Multi-ProbCut's regressions for a weight set and writes them into its
//! weight file.
//!
//! Positions are drawn (seeded) from a samples file. Each is searched by iterative deepening with
//! ProbCut off, and the score of every iteration is kept, the evaluation itself standing for depth
//! 0. For each stage and each depth d from 3 up, the score at d is regressed on the score at the
//! shallow depth d' = 2⌊d/4⌋ + (d mod 2) (about a quarter to a half of d, of the same parity, as
//! Edax does): slope, intercept and the standard deviation σ of the residuals. The search cuts
//! where the shallow score predicts the deep one beyond the window by t·σ.
//!
//! Then the solve fits, for the selective solves: positions with [`PROBCUT_EMPTIES`] to
//! `--solve-max-empties` empty squares are solved exactly and searched to
//! [`solve_shallow_depth`] (with the depth-limited fits just made, at the engine's default
//! selectivity, as the solver's ProbCut searches them); per number of empties, the exact score is
//! regressed on the shallow one. Beyond the most empties fitted, the weights carry the last fit
//! on ([`crate::eval::weights::Weights::solve_fit`]).

use crate::board::{BoardSize, Color, Position};
use crate::eval::network::Quantized;
use crate::eval::pattern::{STAGES, stage};
use crate::eval::weights::{PROBCUT_MAX_DEPTH, ProbCutFit, Weights, shallow_depth, solve_shallow_depth};
use crate::eval::{EvalKind, Evaluator};
use crate::formats::samples::parse_samples;
use crate::rng::Rng;
use crate::search::endgame::PROBCUT_EMPTIES;
use crate::search::{DEFAULT_SELECTIVITY, NoControl, SearchRequest, Searcher};
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// The shallowest depth cut by ProbCut.
pub const MIN_DEPTH: u32 = 3;

/// The fewest (shallow, deep) score pairs a regression is made from: a stage and depth, or a
/// number of empties, with fewer gets no fit.
pub const MIN_PAIRS: usize = 30;

/// Refuses a draw in which no class (a stage, or a number of empties) has [`MIN_PAIRS`]
/// positions, before any is searched: no fit could come of it.
fn check_draw(drawn: &[Position], class: impl Fn(&Position) -> usize, what: &str, data: &str) -> io::Result<()> {
    let mut counts = std::collections::HashMap::new();
    for pos in drawn {
        *counts.entry(class(pos)).or_insert(0usize) += 1;
    }
    let most = counts.values().copied().max().unwrap_or(0);
    if most < MIN_PAIRS {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{data}: the {} positions drawn hold at most {most} of any {what}, and a fit needs {MIN_PAIRS} of one: \
                 draw more",
                drawn.len()
            ),
        ));
    }
    Ok(())
}

/// What `magpie probcut` is asked.
#[derive(Clone, Debug)]
pub struct ProbCutRequest {
    /// The samples file positions are drawn from.
    pub data: PathBuf,
    /// The weights to fit for.
    pub weights: Arc<Weights>,
    /// The network whose searches the cuts are fitted for, if not the weights'.
    pub network: Option<Arc<Quantized>>,
    /// Where to write the weights with their fits.
    pub out: PathBuf,
    /// Positions to search.
    pub positions: usize,
    /// The deepest search fitted.
    pub max_depth: u32,
    /// Positions solved for the solve fits (0: none).
    pub solve_positions: usize,
    /// The most empty squares a solve fit is made for.
    pub solve_max_empties: u32,
    /// Threads.
    pub threads: usize,
    /// Seed of the draw.
    pub seed: u64,
    /// Whether to show a progress bar.
    pub progress: bool,
}

/// The score of each depth's iteration (index 0: the evaluation), for one position.
fn depth_scores(searcher: &mut Searcher, pos: &Position, evaluator: &Evaluator, max_depth: u32) -> Vec<Option<i32>> {
    let mut scores = vec![None; max_depth as usize + 1];
    scores[0] = Some(evaluator.evaluate(pos));
    let mut request = SearchRequest::new(*pos, evaluator.clone());
    request.max_depth = max_depth;
    request.selectivity = 0;
    searcher.clear();
    searcher.search(&request, &mut NoControl, &mut |info| {
        if !info.exact && (info.depth as usize) < scores.len() {
            scores[info.depth as usize] = Some(info.score);
        }
    });
    scores
}

/// The exact score of `pos` and its score searched to the shallow depth of its empties at the
/// engine's default selectivity, both in centi-discs.
fn solve_scores(searcher: &mut Searcher, pos: &Position, evaluator: &Evaluator) -> (i32, i32) {
    let mut request = SearchRequest::new(*pos, evaluator.clone());
    searcher.clear();
    let exact = searcher.search(&request, &mut NoControl, &mut |_| {}).info.score;
    request.max_depth = solve_shallow_depth(pos.empty_count());
    request.selectivity = DEFAULT_SELECTIVITY;
    searcher.clear();
    let shallow = searcher.search(&request, &mut NoControl, &mut |_| {}).info.score;
    (exact, shallow)
}

/// `f` of each position on `threads` threads, in order, with a progress bar.
fn map_positions<T: Send>(
    positions: &[Position],
    threads: usize,
    progress: bool,
    f: impl Fn(&mut Searcher, &Position) -> T + Sync,
) -> Vec<T> {
    let bar = crate::progress::progress_bar(progress, positions.len() as u64, "positions");
    let chunk = positions.len().div_ceil(threads.max(1)).max(1);
    let results = std::thread::scope(|scope| {
        let handles: Vec<_> = positions
            .chunks(chunk)
            .map(|part| {
                let (bar, f) = (bar.clone(), &f);
                scope.spawn(move || {
                    let mut searcher = Searcher::with_hash(16).unwrap_or_else(|_| Searcher::new());
                    part.iter()
                        .map(|pos| {
                            let v = f(&mut searcher, pos);
                            bar.inc(1);
                            v
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    bar.finish_and_clear();
    results
}

/// The solve fits from (empties, exact, shallow) triples.
pub fn fit_solves(scores: &[(u32, i32, i32)]) -> Vec<ProbCutFit> {
    let mut fits = Vec::new();
    for n in PROBCUT_EMPTIES..=60 {
        let pairs: Vec<(f64, f64)> = scores
            .iter()
            .filter(|(empties, _, _)| *empties == n)
            .map(|&(_, exact, shallow)| (f64::from(shallow), f64::from(exact)))
            .collect();
        if pairs.len() < MIN_PAIRS {
            continue;
        }
        let Some((slope, intercept, sigma)) = regress(&pairs) else { continue };
        if slope < 0.2 {
            continue;
        }
        fits.push(ProbCutFit {
            solve: true,
            stage: stage(n) as u8,
            depth: n as u8,
            shallow: solve_shallow_depth(n) as u8,
            slope: slope as f32,
            intercept: intercept as f32,
            sigma: sigma as f32,
        });
    }
    fits
}

/// Least squares of `y` on `x`: slope, intercept, standard deviation of the residuals.
fn regress(pairs: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n = pairs.len() as f64;
    let (sx, sy) = pairs.iter().fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
    let (mx, my) = (sx / n, sy / n);
    let sxx: f64 = pairs.iter().map(|&(x, _)| (x - mx).powi(2)).sum();
    let sxy: f64 = pairs.iter().map(|&(x, y)| (x - mx) * (y - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let var = pairs.iter().map(|&(x, y)| (y - slope * x - intercept).powi(2)).sum::<f64>() / n;
    Some((slope, intercept, var.sqrt()))
}

/// The bound of a reported score ([`crate::eval::WIPEOUT`]): every disc on the board, a wipeout
/// found by the search (or an evaluation at the clamp). Such a score is outside the regression's
/// linear range: a single pair with one among the 254 of a stage (a side of 3 discs at 45 empties,
/// evaluated at -32 and wiped out three plies on) tripled that stage's sigma, so pairs with one are
/// left out of the depth-limited fits.
const WIPEOUT: f64 = crate::eval::WIPEOUT as f64;

/// The fits from the scores of each position (by stage).
pub fn fit(scores: &[(usize, Vec<Option<i32>>)], max_depth: u32) -> Vec<ProbCutFit> {
    let mut fits = Vec::new();
    for s in 0..STAGES {
        for depth in MIN_DEPTH..=max_depth.min(PROBCUT_MAX_DEPTH as u32) {
            let shallow = shallow_depth(depth);
            let pairs: Vec<(f64, f64)> = scores
                .iter()
                .filter(|(stage, _)| *stage == s)
                .filter_map(|(_, v)| Some((f64::from(v[shallow as usize]?), f64::from(v[depth as usize]?))))
                .filter(|&(x, y)| x.abs() < WIPEOUT && y.abs() < WIPEOUT)
                .collect();
            if pairs.len() < MIN_PAIRS {
                continue;
            }
            let Some((slope, intercept, sigma)) = regress(&pairs) else { continue };
            // A fit this flat predicts nothing: leave the depth uncut.
            if slope < 0.2 {
                continue;
            }
            fits.push(ProbCutFit {
                solve: false,
                stage: s as u8,
                depth: depth as u8,
                shallow: shallow as u8,
                slope: slope as f32,
                intercept: intercept as f32,
                sigma: sigma as f32,
            });
        }
    }
    fits
}

/// Draws the positions, searches them, fits and writes the weight file.
pub fn run(request: &ProbCutRequest, out: &mut impl Write) -> io::Result<Vec<ProbCutFit>> {
    let started = Instant::now();
    let bytes = std::fs::read(&request.data)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", request.data.display())))?;
    let samples = parse_samples(&bytes)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {e}", request.data.display())))?;
    let usable: Vec<Position> = samples
        .iter()
        .filter(|s| s.empties() > MIN_DEPTH + 4)
        .map(|s| Position::from_player_opponent(s.player, s.opponent, Color::Black, BoardSize::Eight))
        .collect();
    let data = request.data.display().to_string();
    if usable.is_empty() {
        let least = MIN_DEPTH + 5;
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{data}: no position with {least} empty squares or more to fit"),
        ));
    }
    let mut rng = Rng::new(request.seed);
    let drawn: Vec<Position> = (0..request.positions).map(|_| usable[rng.below(usable.len())]).collect();
    check_draw(&drawn, |pos| stage(pos.empty_count()), "stage (4 empties)", &format!("{data} --positions"))?;
    // The solve positions are drawn now too, so that a draw that cannot be fitted is refused
    // before the long searches.
    let endgame: Vec<Position> = samples
        .iter()
        .filter(|s| (PROBCUT_EMPTIES..=request.solve_max_empties).contains(&s.empties()))
        .map(|s| Position::from_player_opponent(s.player, s.opponent, Color::Black, BoardSize::Eight))
        .filter(|pos| !pos.legal_moves().is_empty())
        .collect();
    let solve_drawn: Vec<Position> = if request.solve_positions > 0 && !endgame.is_empty() {
        (0..request.solve_positions).map(|_| endgame[rng.below(endgame.len())]).collect()
    } else {
        Vec::new()
    };
    if !solve_drawn.is_empty() {
        let what = "number of empties";
        check_draw(&solve_drawn, |pos| pos.empty_count() as usize, what, &format!("{data} --solve-positions"))?;
    }
    let evaluate_with = |weights: Arc<Weights>| match &request.network {
        Some(net) => Evaluator::with_network(weights, Arc::clone(net)).map_err(io::Error::other),
        None => Ok(Evaluator::with_weights(EvalKind::Pattern, weights)),
    };
    let evaluator = evaluate_with(Arc::clone(&request.weights))?;
    let scores: Vec<(usize, Vec<Option<i32>>)> = map_positions(&drawn, request.threads, request.progress, |s, pos| {
        (stage(pos.empty_count()), depth_scores(s, pos, &evaluator, request.max_depth))
    });
    let mut fits = fit(&scores, request.max_depth);
    if fits.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{data}: no stage gave a fit (each needs {MIN_PAIRS} positions whose scores follow each other)"),
        ));
    }
    for depth in MIN_DEPTH..=request.max_depth {
        let sigmas: Vec<String> = (0..STAGES)
            .map(|s| {
                fits.iter()
                    .find(|f| f.stage as usize == s && u32::from(f.depth) == depth)
                    .map_or_else(|| "    -".to_string(), |f| format!("{:5.0}", f.sigma))
            })
            .collect();
        writeln!(out, "depth {depth:>2} from {:>2}: sigma by stage (cp) {}", shallow_depth(depth), sigmas.join(""))?;
    }

    // The solve fits, searched with the depth-limited fits just made.
    if !solve_drawn.is_empty() {
        let with_fits =
            request.weights.with_probcut(fits.clone()).ok_or_else(|| io::Error::other("a fit is out of range"))?;
        let evaluator = evaluate_with(Arc::new(with_fits))?;
        let triples = map_positions(&solve_drawn, request.threads, request.progress, |s, pos| {
            let (exact, shallow) = solve_scores(s, pos, &evaluator);
            (pos.empty_count(), exact, shallow)
        });
        let solves = fit_solves(&triples);
        let sigmas: Vec<String> = solves.iter().map(|f| format!("{}:{:.0}", f.depth, f.sigma)).collect();
        writeln!(out, "solve fits: sigma by empties (cp) {}", sigmas.join(" "))?;
        fits.extend(solves);
    }
    let weights =
        request.weights.with_probcut(fits.clone()).ok_or_else(|| io::Error::other("a fit is out of range"))?;
    std::fs::write(&request.out, weights.to_bytes())
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", request.out.display())))?;
    writeln!(
        out,
        "probcut: {} positions, {} solved, {} fits, {:.1} s, wrote {} (hash {:016x})",
        request.positions,
        solve_drawn.len(),
        fits.len(),
        started.elapsed().as_secs_f64(),
        request.out.display(),
        weights.hash()
    )?;
    Ok(fits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_depths_keep_parity_and_stay_below() {
        for d in MIN_DEPTH..=24 {
            let s = shallow_depth(d);
            assert!(s < d && (d - s).is_multiple_of(2), "{d} -> {s}");
        }
    }

    #[test]
    fn regression_finds_a_line() {
        let pairs: Vec<(f64, f64)> =
            (0..50).map(|i| (f64::from(i), 2.0 * f64::from(i) + 3.0 + if i % 2 == 0 { 1.0 } else { -1.0 })).collect();
        let (slope, intercept, sigma) = regress(&pairs).unwrap();
        assert!((slope - 2.0).abs() < 0.01 && (intercept - 3.0).abs() < 0.5 && (sigma - 1.0).abs() < 0.05);
        assert!(regress(&[(1.0, 2.0), (1.0, 3.0)]).is_none());
    }

    /// A wipeout found by the deeper search does not enter the fit.
    #[test]
    fn wipeouts_are_left_out_of_the_fits() {
        let scores: Vec<(usize, Vec<Option<i32>>)> =
            (0..40).map(|i| (11, vec![Some(i * 10), Some(i * 10 + 5), Some(i * 10 - 5), Some(i * 10 + 7)])).collect();
        let mut with_wipeout = scores.clone();
        with_wipeout.push((11, vec![Some(-3245), Some(-3389), Some(-3301), Some(6400)]));
        let (clean, polluted) = (fit(&scores, 3), fit(&with_wipeout, 3));
        assert_eq!(clean.len(), 1);
        assert_eq!(polluted, clean);
        assert!(clean[0].sigma < 10.0, "{}", clean[0].sigma);
    }
}
