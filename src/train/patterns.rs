//! `magpie train`: fits the pattern evaluation's weights to training samples (see
//! [`crate::formats::samples`]) and writes a weight file.
//!
//! The fit is regularised least squares: it minimises Σ (prediction − score)² + λ Σ w² over the
//! weights, one weight per class of symmetric pattern configurations and stage plus four constants
//! per stage, by conjugate gradients on the normal equations with a diagonal preconditioner (each
//! weight's number of occurrences). Plain gradient descent was tried first and needed hundreds of
//! passes to reach what conjugate gradients reach in tens. Every pass over the samples is split
//! over the threads.
//!
//! The model is [`StageModel::Interpolated`]: a stage's weights are its values at its centre
//! (4s + 1.5 empties), and a sample between two centres is predicted by the blend of the two
//! nearest stages in proportion to its distance from each, so each sample's row reaches into both.
//! Against 15 steps on the same data (7.4M positions of round 14's depth-10 labels) its held-out
//! error was 3.39 discs rather than 3.44, and at depth 8 it scored +21 Elo.
//!
//! With `--prior FILE` the fit is of the change from those weights: the scores less their
//! prediction are fitted, the penalties apply to the change, and the change is added back, so a
//! round keeps what the data of earlier rounds taught where its own data says little. The prior's
//! stages are taken as the model's values at the centres whatever its file's model (a file of 15
//! steps, such as round 14's, is a starting point as good as any).
//!
//! The last `--holdout` percent of each file's records are kept out of the fit: files are written
//! game after game, so these are whole games that the fit never sees. The error on them is
//! reported per stage, next to the errors on the same positions of the weights in use (`--weights`,
//! or the embedded ones: the previous round) and of the hand-made evaluation.

use crate::board::{BoardSize, Color, Position};
use crate::eval::heuristic;
use crate::eval::pattern::{
    BIAS, FEATURE_PATTERN, FEATURES, OFFSETS, PATTERNS, STAGE_LEN, STAGES, canonical_indices, constant_index,
    feature_indices, knots, mobility_index, stage,
};
use crate::eval::weights::{StageModel, Weights};
use crate::formats::samples::Sample;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

/// One weight per feature plus the constant.
const ROW: usize = FEATURES + 2;

/// What `magpie train` is asked.
#[derive(Clone, Debug)]
pub struct TrainRequest {
    /// Sample files.
    pub data: Vec<PathBuf>,
    /// Where to write the weight file.
    pub out: PathBuf,
    /// Conjugate-gradient iterations.
    pub iterations: u32,
    /// Percent of each file's records (its last ones) kept out of the fit.
    pub holdout_percent: u32,
    /// The ridge penalty λ per weight.
    pub l2: f64,
    /// The penalty μ on the squared difference of a weight between neighbouring stages.
    pub smooth: f64,
    /// The weights the fit starts from: it fits the change from them, the ridge and smoothing
    /// penalties applying to the change (none: the change from zero).
    pub prior: Option<std::sync::Arc<Weights>>,
    /// Threads.
    pub threads: usize,
    /// Whether to show a progress bar.
    pub progress: bool,
    /// The weights the new ones are compared with.
    pub previous: std::sync::Arc<Weights>,
}

/// The fitted weights and their errors.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// Samples fitted.
    pub fitted: usize,
    /// Samples held out.
    pub held_out: usize,
    /// The held-out errors per stage.
    pub stages: Vec<HeldOutError>,
    /// The held-out errors over all stages.
    pub total: HeldOutError,
}

/// Errors on held-out samples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HeldOutError {
    /// Samples.
    pub positions: usize,
    /// Mean absolute error of the pattern weights, in discs.
    pub pattern: f64,
    /// Mean absolute error of the previous pattern weights, in discs.
    pub previous: f64,
    /// Mean absolute error of the hand-made evaluation, in discs.
    pub heuristic: f64,
}

/// The samples in a form the fit passes over quickly.
struct Rows {
    /// Each sample's weights (indices into the parameter vector).
    params: Vec<[u32; ROW]>,
    /// Each sample's score in centi-discs.
    scores: Vec<f64>,
    /// Each sample's share of the next stage (see [`knots`]); its parameters
    /// there are its parameters in its stage plus `STAGE_LEN`.
    frac: Vec<f64>,
}

impl Rows {
    /// The prediction of parameters `v` for sample `i`.
    #[inline]
    fn predict(&self, i: usize, v: &[f64]) -> f64 {
        let row = &self.params[i];
        let f = self.frac[i];
        let a: f64 = row.iter().map(|&j| v[j as usize]).sum();
        if f == 0.0 {
            return a;
        }
        let b: f64 = row.iter().map(|&j| v[j as usize + STAGE_LEN]).sum();
        (1.0 - f) * a + f * b
    }
}

/// The index into the parameter vector of each feature of `sample` (canonical configurations),
/// then the stage's constant and the mobility table's entry.
fn sample_params(sample: &Sample, canonical: &[Vec<u32>]) -> [u32; ROW] {
    let base = knots(sample.empties()).0 * STAGE_LEN;
    let mut out = [0u32; ROW];
    for (i, &index) in feature_indices(sample.player, sample.opponent).iter().enumerate() {
        let p = FEATURE_PATTERN[i];
        let local = index as usize - OFFSETS[p];
        out[i] = (base + OFFSETS[p] + canonical[p][local] as usize) as u32;
    }
    out[FEATURES] = (base + constant_index(sample.empties())) as u32;
    out[FEATURES + 1] = (base + mobility_index(sample.player, sample.opponent)) as u32;
    out
}

fn build_rows(samples: &[Sample], canonical: &[Vec<u32>], threads: usize) -> Rows {
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    let params: Vec<[u32; ROW]> = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(|s| sample_params(s, canonical)).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    Rows {
        params,
        scores: samples.iter().map(|s| f64::from(s.score)).collect(),
        frac: samples.iter().map(|s| knots(s.empties()).1).collect(),
    }
}

/// `Xᵀ (X v)`, split over threads: each thread sums its samples' contributions into its own
/// vector, and the vectors are added.
fn normal_product(rows: &Rows, v: &[f64], threads: usize) -> Vec<f64> {
    let chunk = rows.params.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<Vec<f64>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..rows.params.len())
            .step_by(chunk)
            .map(|start| {
                scope.spawn(move || {
                    let mut out = vec![0.0; v.len()];
                    for i in start..(start + chunk).min(rows.params.len()) {
                        let xv = rows.predict(i, v);
                        let f = rows.frac[i];
                        let row = &rows.params[i];
                        if f == 0.0 {
                            for &j in row {
                                out[j as usize] += xv;
                            }
                        } else {
                            for &j in row {
                                out[j as usize] += (1.0 - f) * xv;
                                out[j as usize + STAGE_LEN] += f * xv;
                            }
                        }
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    sum_vectors(parts, v.len())
}

fn sum_vectors(parts: Vec<Vec<f64>>, len: usize) -> Vec<f64> {
    let mut parts = parts.into_iter();
    let mut total = parts.next().unwrap_or_else(|| vec![0.0; len]);
    for part in parts {
        for (t, p) in total.iter_mut().zip(part) {
            *t += p;
        }
    }
    total
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Adds μ L v to `out`, L the Laplacian of the chain of stages: the gradient of μ/2 Σ over
/// neighbouring stages of the squared differences of the same weight.
fn add_smoothing(out: &mut [f64], v: &[f64], mu: f64) {
    if mu == 0.0 {
        return;
    }
    for s in 0..STAGES - 1 {
        let (a, b) = (s * STAGE_LEN, (s + 1) * STAGE_LEN);
        for j in 0..STAGE_LEN {
            let d = mu * (v[a + j] - v[b + j]);
            out[a + j] += d;
            out[b + j] -= d;
        }
    }
}

/// Minimises ‖X w − y‖² + λ‖w‖² + μ Σ ‖w_s − w_{s+1}‖² (w_s the weights of stage s) by
/// preconditioned conjugate gradients; `after(iteration, w)` is called after each iteration.
fn fit(
    rows: &Rows,
    l2: f64,
    smooth: f64,
    iterations: u32,
    threads: usize,
    mut after: impl FnMut(u32, &[f64]),
) -> Vec<f64> {
    let n = STAGES * STAGE_LEN;
    let mut counts = vec![0.0f64; n];
    let mut b = vec![0.0f64; n];
    for ((row, &y), &f) in rows.params.iter().zip(&rows.scores).zip(&rows.frac) {
        for &j in row {
            counts[j as usize] += (1.0 - f) * (1.0 - f);
            b[j as usize] += (1.0 - f) * y;
            if f != 0.0 {
                counts[j as usize + STAGE_LEN] += f * f;
                b[j as usize + STAGE_LEN] += f * y;
            }
        }
    }
    // The diagonal of the operator: occurrences, the ridge and each stage's neighbours.
    let diagonal: Vec<f64> = (0..n)
        .map(|j| {
            let s = j / STAGE_LEN;
            let neighbours = usize::from(s > 0) + usize::from(s + 1 < STAGES);
            counts[j] + l2 + smooth * neighbours as f64
        })
        .collect();
    let precondition =
        |r: &[f64]| -> Vec<f64> { r.iter().zip(&diagonal).map(|(&r, &d)| if d > 0.0 { r / d } else { 0.0 }).collect() };
    let mut w = vec![0.0f64; n];
    let mut r = b;
    let mut z = precondition(&r);
    let mut p = z.clone();
    let mut rz = dot(&r, &z);
    for iteration in 1..=iterations {
        let mut ap = normal_product(rows, &p, threads);
        for (a, &pj) in ap.iter_mut().zip(&p) {
            *a += l2 * pj;
        }
        add_smoothing(&mut ap, &p, smooth);
        let pap = dot(&p, &ap);
        if pap <= 0.0 || rz <= 0.0 {
            break;
        }
        let alpha = rz / pap;
        for j in 0..n {
            w[j] += alpha * p[j];
            r[j] -= alpha * ap[j];
        }
        z = precondition(&r);
        let rz_next = dot(&r, &z);
        let beta = rz_next / rz;
        rz = rz_next;
        for j in 0..n {
            p[j] = z[j] + beta * p[j];
        }
        after(iteration, &w);
    }
    w
}

/// The weight tables from the fitted parameters: every configuration takes its class's weight.
fn expand(params: &[f64], canonical: &[Vec<u32>]) -> Vec<i16> {
    let quantise = |v: f64| v.round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
    let mut values = vec![0i16; STAGES * STAGE_LEN];
    for s in 0..STAGES {
        let base = s * STAGE_LEN;
        for (p, pattern) in PATTERNS.iter().enumerate() {
            for index in 0..pattern.size() {
                let class = canonical[p][index] as usize;
                values[base + OFFSETS[p] + index] = quantise(params[base + OFFSETS[p] + class]);
            }
        }
        for i in BIAS..STAGE_LEN {
            values[base + i] = quantise(params[base + i]);
        }
    }
    values
}

/// Takes from each score the prediction of `prior` (weights as stored, which give every
/// configuration of a class its class's weight, so that they read as parameters).
fn subtract_prior(rows: &mut Rows, prior: &[f64]) {
    for i in 0..rows.params.len() {
        let p = rows.predict(i, prior);
        rows.scores[i] -= p;
    }
}

/// Root mean square of the residuals of `params` on `rows`, in discs.
fn mean_abs_error(rows: &Rows, params: &[f64]) -> f64 {
    let sum: f64 = (0..rows.params.len()).map(|i| (rows.predict(i, params) - rows.scores[i]).abs()).sum();
    sum / rows.params.len().max(1) as f64 / 100.0
}

/// The held-out errors of `weights`, of `previous` and of the hand-made evaluation, per stage and
/// in all.
pub fn held_out_errors(
    weights: &Weights,
    previous: &Weights,
    held_out: &[Sample],
) -> (Vec<HeldOutError>, HeldOutError) {
    // Sums of absolute errors in centi-discs, turned into means in discs at the end.
    let mut stages = vec![HeldOutError::default(); STAGES];
    let mut total = HeldOutError::default();
    for s in held_out {
        let pos = Position::from_player_opponent(s.player, s.opponent, Color::Black, BoardSize::Eight);
        let y = f64::from(s.score);
        let pattern = (f64::from(weights.evaluate(s.player, s.opponent)) - y).abs();
        let before = (f64::from(previous.evaluate(s.player, s.opponent)) - y).abs();
        let hand_made = (f64::from(heuristic::evaluate(&pos)) - y).abs();
        for entry in [&mut stages[stage(s.empties())], &mut total] {
            entry.positions += 1;
            entry.pattern += pattern;
            entry.previous += before;
            entry.heuristic += hand_made;
        }
    }
    let mean = |e: HeldOutError| HeldOutError {
        positions: e.positions,
        pattern: e.pattern / e.positions.max(1) as f64 / 100.0,
        previous: e.previous / e.positions.max(1) as f64 / 100.0,
        heuristic: e.heuristic / e.positions.max(1) as f64 / 100.0,
    };
    (stages.into_iter().map(mean).collect(), mean(total))
}

/// Splits each file's records: the first ones fitted, the last `holdout_percent` held out.
pub fn read_samples(paths: &[PathBuf], holdout_percent: u32) -> io::Result<(Vec<Sample>, Vec<Sample>)> {
    let (mut fitted, mut held_out) = (Vec::new(), Vec::new());
    for path in paths {
        let samples = crate::formats::samples::read_file(path)?;
        let keep = samples.len() - samples.len() * holdout_percent.min(100) as usize / 100;
        fitted.extend_from_slice(&samples[..keep]);
        held_out.extend_from_slice(&samples[keep..]);
    }
    Ok((fitted, held_out))
}

/// Runs the fit and writes the weight file.
pub fn run(request: &TrainRequest, out: &mut impl Write) -> io::Result<TrainReport> {
    let started = Instant::now();
    let (fitted, held_out) = read_samples(&request.data, request.holdout_percent)?;
    if fitted.is_empty() {
        let names: Vec<String> = request.data.iter().map(|p| p.display().to_string()).collect();
        let why = if held_out.is_empty() { "no record in them" } else { "every record held out: lower --holdout" };
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: no sample to fit ({why})", names.join(", ")),
        ));
    }
    let canonical = canonical_indices();
    let mut rows = build_rows(&fitted, &canonical, request.threads);
    let mut held_rows = build_rows(&held_out, &canonical, request.threads);
    // With a prior, the fit is of the change from it: each score less the prior's prediction.
    let prior: Option<Vec<f64>> = request.prior.as_ref().map(|w| w.values().iter().map(|&v| f64::from(v)).collect());
    if let Some(prior) = &prior {
        subtract_prior(&mut rows, prior);
        subtract_prior(&mut held_rows, prior);
    }
    writeln!(
        out,
        "read: {} samples fitted, {} held out, {} weights per stage, {:.1} s",
        fitted.len(),
        held_out.len(),
        STAGE_LEN,
        started.elapsed().as_secs_f64()
    )?;
    let bar = crate::progress::progress_bar(request.progress, u64::from(request.iterations), "iterations");
    let fit_started = Instant::now();
    let mut params = fit(&rows, request.l2, request.smooth, request.iterations, request.threads, |iteration, w| {
        if iteration % 10 == 0 || iteration == request.iterations {
            bar.set_message(format!("held-out error {:.2} discs", mean_abs_error(&held_rows, w)));
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    writeln!(
        out,
        "fit: {} iterations, {:.1} s; mean absolute error {:.2} discs on the fitted samples (held out: below)",
        request.iterations,
        fit_started.elapsed().as_secs_f64(),
        mean_abs_error(&rows, &params),
    )?;
    if let Some(prior) = &prior {
        for (p, &w) in params.iter_mut().zip(prior) {
            *p += w;
        }
    }
    let weights = Weights::with_model(expand(&params, &canonical), Vec::new(), StageModel::Interpolated)
        .ok_or_else(|| io::Error::other("the fitted tables have the wrong shape"))?;
    std::fs::write(&request.out, weights.to_bytes())
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", request.out.display())))?;
    let (stages, total) = held_out_errors(&weights, &request.previous, &held_out);
    writeln!(
        out,
        "held-out mean absolute error, discs (stage: empties, positions, new pattern, previous pattern, hand-made):"
    )?;
    for (s, e) in stages.iter().enumerate() {
        if e.positions > 0 {
            let (first, last) = (s * 4, s * 4 + 3);
            writeln!(
                out,
                "  stage {s:>2}: {first:>2}-{last:<2} {:>9} {:>7.2} {:>7.2} {:>7.2}",
                e.positions, e.pattern, e.previous, e.heuristic
            )?;
        }
    }
    writeln!(
        out,
        "  all:            {:>9} {:>7.2} {:>7.2} {:>7.2}",
        total.positions, total.pattern, total.previous, total.heuristic
    )?;
    writeln!(
        out,
        "wrote {} (hash {:016x}), {:.1} s in all",
        request.out.display(),
        weights.hash(),
        started.elapsed().as_secs_f64()
    )?;
    Ok(TrainReport { fitted: fitted.len(), held_out: held_out.len(), stages, total })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::samples::Source;

    /// Samples scored by a known linear function of the patterns fit back to it.
    #[test]
    fn conjugate_gradients_recover_a_linear_target() {
        let canonical = canonical_indices();
        let mut rng = crate::rng::Rng::new(5);
        let target = |s: &Sample| -> f64 {
            // Disc difference on the edge pattern's squares plus a constant.
            let edge = 0xffu64;
            f64::from((s.player & edge).count_ones() as i32 - (s.opponent & edge).count_ones() as i32) * 100.0 + 50.0
        };
        let samples: Vec<Sample> = (0..3000)
            .map(|_| {
                let occupied = rng.next_u64() | rng.next_u64() | rng.next_u64();
                let player = occupied & rng.next_u64();
                let mut s =
                    Sample { player, opponent: occupied & !player, score: 0, depth: 0, source: Source::SelfPlay };
                s.score = target(&s) as i16;
                s
            })
            .collect();
        let rows = build_rows(&samples, &canonical, 2);
        let before = mean_abs_error(&rows, &vec![0.0; STAGES * STAGE_LEN]);
        let params = fit(&rows, 0.01, 0.0, 60, 2, |_, _| {});
        let after = mean_abs_error(&rows, &params);
        assert!(after < before / 10.0, "{before} -> {after}");
        // Expanded tables give every symmetric configuration the same weight.
        let values = expand(&params, &canonical);
        let weights = Weights::new(values, Vec::new()).unwrap();
        let s = &samples[0];
        let mirrored = (s.player.swap_bytes(), s.opponent.swap_bytes());
        assert_eq!(weights.evaluate(s.player, s.opponent), weights.evaluate(mirrored.0, mirrored.1));

        // Smoothing lends a stage with no sample its neighbours' weights; without it they stay 0.
        // A sample reads the stage below its number of empties and, between two centres, the
        // next one.
        let fitted_stages: Vec<usize> = samples
            .iter()
            .flat_map(|s| {
                let (below, share) = knots(s.empties());
                [Some(below), (share > 0.0).then_some(below + 1)].into_iter().flatten()
            })
            .collect();
        let empty_stage = (1..STAGES).find(|s| !fitted_stages.contains(s) && fitted_stages.contains(&(s - 1)));
        let empty_stage = empty_stage.expect("a stage without samples next to one with");
        let stage_norm = |params: &[f64], s: usize| -> f64 {
            params[s * STAGE_LEN..(s + 1) * STAGE_LEN].iter().map(|v| v.abs()).sum()
        };
        assert_eq!(stage_norm(&params, empty_stage), 0.0);
        let smoothed = fit(&rows, 0.01, 50.0, 60, 2, |_, _| {});
        let (lent, own) = (stage_norm(&smoothed, empty_stage), stage_norm(&smoothed, empty_stage - 1));
        assert!(lent > 0.2 * own, "{lent} against {own}");
    }

    /// A prior's predictions come off the scores exactly, and a fit that may hardly move (a huge
    /// ridge) returns the prior.
    #[test]
    fn a_prior_is_fitted_from() {
        let canonical = canonical_indices();
        let mut rng = crate::rng::Rng::new(9);
        let random: Vec<f64> = (0..STAGES * STAGE_LEN).map(|_| (rng.next_u64() % 21) as f64 - 10.0).collect();
        let prior_values = expand(&random, &canonical);
        let samples: Vec<Sample> = (0..2000)
            .map(|_| {
                let occupied = rng.next_u64() | rng.next_u64();
                let player = occupied & rng.next_u64();
                Sample { player, opponent: occupied & !player, score: 0, depth: 0, source: Source::SelfPlay }
            })
            .collect();
        let mut rows = build_rows(&samples, &canonical, 2);
        let prior_params: Vec<f64> = prior_values.iter().map(|&v| f64::from(v)).collect();
        // Each sample scored by the prior, read between the stages as the fit reads them.
        for i in 0..rows.scores.len() {
            rows.scores[i] = rows.predict(i, &prior_params);
        }
        assert!(mean_abs_error(&rows, &vec![0.0; prior_params.len()]) > 0.1);
        subtract_prior(&mut rows, &prior_params);
        assert_eq!(mean_abs_error(&rows, &vec![0.0; prior_params.len()]), 0.0);
        let change = fit(&rows, 1e6, 50.0, 10, 2, |_, _| {});
        let params: Vec<f64> = change.iter().zip(&prior_params).map(|(d, w)| d + w).collect();
        assert_eq!(expand(&params, &canonical), prior_values);
    }

    #[test]
    fn smoothing_is_the_gradient_of_the_penalty() {
        // μ/2 Σ (a - b)² for a pair of neighbouring stages: the gradient is μ (a - b) on a.
        let mut v = vec![0.0; STAGES * STAGE_LEN];
        v[3] = 2.0;
        v[STAGE_LEN + 3] = -1.0;
        let mut out = vec![0.0; v.len()];
        add_smoothing(&mut out, &v, 10.0);
        // Stage 1 also pulls towards stage 2 (0): 10 · (-1 - 0) more.
        assert_eq!((out[3], out[STAGE_LEN + 3]), (30.0, -40.0));
        assert_eq!(out.iter().filter(|x| **x != 0.0).count(), 3, "stage 2 gets the pull of stage 1");
    }
}
