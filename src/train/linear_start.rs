//! A network that starts where the pattern weights are (`magpie train-network --from-weights`):
//! the linear model made into the network's shape, so that a fit begins from the weights' error
//! and learns what they miss, in one evaluation at the network's cost, rather than from random
//! rows that the data on hand cannot fill (docs/evaluation.md).
//!
//! The weights give every row of the transformer (a class of a pattern's configurations, or a
//! cell of the mobility table) one value for each number of empties, 0 to 60: a matrix of 61
//! columns. Its best approximation of rank [`HIDDEN`], weighted by how often the samples read
//! each row (the error a position sees is the sum of its rows'), comes from the eigenvectors of
//! the 61 × 61 matrix of the rows' weighted products: the readout of `e` empties is the
//! eigenvectors' `e`-th entries, and each row's lanes are its values projected on them. Each lane
//! is then scaled and shifted so that the samples' accumulators lie inside the clip (from 0.05 to
//! 0.95 between their 0.1st and 99.9th percentiles): there the network is linear and scores as
//! the weights do, less what the rank leaves out, and the constants (one for each number of
//! empties, which carries the parity) go to the readouts' biases.
//!
//! Fewer lanes may be given the weights (`--linear-lanes K`): the first K eigenvectors then, and
//! the other lanes start as a random network's, their readouts a tenth as large, free to learn
//! what a linear model cannot.

use crate::eval::network::{HIDDEN, INPUTS, MOBILITY_ROWS, Network, STAGES, rows};
use crate::eval::pattern::{BIAS, MOBILITY, constant_index};
use crate::eval::weights::Weights;
use crate::formats::samples::Sample;

/// The samples read at most to weight the rows and to place the lanes: every n-th, n chosen so.
const SAMPLES_READ: usize = 1 << 20;

/// How the start went: the share of the weights' (weighted) sum of squares that the rank kept.
#[derive(Clone, Copy, Debug)]
pub struct LinearStart {
    /// The share of the weighted sum of squares the lanes given the weights hold, 0 to 1.
    pub kept: f64,
}

/// The network whose first `linear` lanes (1 to [`HIDDEN`]) score as `weights` do, to within
/// the approximation of that rank and the clip, placed on `samples` (with the mobility input if
/// `mobility`); the others as [`Network::initial`] of `seed` draws them, their readouts a tenth.
pub fn from_weights(
    weights: &Weights,
    samples: &[Sample],
    mobility: bool,
    linear: usize,
    seed: u64,
) -> (Network, LinearStart) {
    let linear = linear.clamp(1, HIDDEN);
    let rows = rows();
    let count = rows.count();
    // The weights' value of each row at each number of empties, in discs; a class's indices
    // have the same weight in symmetric weights, and their mean in any.
    let mut values = vec![0.0f64; count * STAGES];
    let mut members = vec![0u32; count];
    for index in 0..BIAS {
        let row = rows.row(index);
        members[row] += 1;
        for e in 0..STAGES {
            values[row * STAGES + e] += f64::from(weights.weight_at(e as u32, index)) / 100.0;
        }
    }
    if mobility {
        for cell in 0..MOBILITY_ROWS {
            let row = rows.mobility_row(cell);
            members[row] = 1;
            for e in 0..STAGES {
                values[row * STAGES + e] = f64::from(weights.weight_at(e as u32, MOBILITY + cell)) / 100.0;
            }
        }
    }
    for (row, &m) in members.iter().enumerate() {
        if m > 1 {
            values[row * STAGES..(row + 1) * STAGES].iter_mut().for_each(|v| *v /= f64::from(m));
        }
    }
    let constants: Vec<f64> =
        (0..STAGES).map(|e| f64::from(weights.weight_at(e as u32, constant_index(e as u32))) / 100.0).collect();

    let stride = samples.len().div_ceil(SAMPLES_READ).max(1);
    let read: Vec<[u32; INPUTS]> = samples.iter().step_by(stride).map(|s| rows.of(s.player, s.opponent)).collect();
    let inputs = if mobility { INPUTS } else { INPUTS - 1 };
    let mut weight = vec![0.0f64; count];
    for r in &read {
        for &row in &r[..inputs] {
            weight[row as usize] += 1.0;
        }
    }
    if read.is_empty() {
        weight.iter_mut().for_each(|w| *w = 1.0);
    }

    let mut gram = vec![0.0f64; STAGES * STAGES];
    for (row, &w) in weight.iter().enumerate() {
        if w == 0.0 {
            continue;
        }
        let v = &values[row * STAGES..(row + 1) * STAGES];
        for i in 0..STAGES {
            let wi = w * v[i];
            for j in i..STAGES {
                gram[i * STAGES + j] += wi * v[j];
            }
        }
    }
    for i in 0..STAGES {
        for j in 0..i {
            gram[i * STAGES + j] = gram[j * STAGES + i];
        }
    }
    let (eigenvalues, vectors) = symmetric_eigen(&gram, STAGES);
    let mut order: Vec<usize> = (0..STAGES).collect();
    order.sort_by(|&a, &b| eigenvalues[b].total_cmp(&eigenvalues[a]));
    let total: f64 = eigenvalues.iter().map(|v| v.max(0.0)).sum();
    let kept_sum: f64 = order[..linear].iter().map(|&k| eigenvalues[k].max(0.0)).sum();
    // The readout of each lane: eigenvector `order[j]`, by numbers of empties.
    let basis = |j: usize, e: usize| vectors[e * STAGES + order[j]];

    // Each row's lanes, unscaled.
    let mut lanes = vec![0.0f64; count * HIDDEN];
    for row in 0..count {
        let v = &values[row * STAGES..(row + 1) * STAGES];
        for j in 0..linear {
            lanes[row * HIDDEN + j] = (0..STAGES).map(|e| v[e] * basis(j, e)).sum();
        }
    }
    // Where the samples' accumulators lie, lane by lane.
    let mut scale = [1.0f64; HIDDEN];
    let mut shift = [0.5f64; HIDDEN];
    if !read.is_empty() {
        for j in 0..linear {
            let mut sums: Vec<f64> =
                read.iter().map(|r| r[..inputs].iter().map(|&row| lanes[row as usize * HIDDEN + j]).sum()).collect();
            sums.sort_by(f64::total_cmp);
            let at = |q: f64| sums[((sums.len() - 1) as f64 * q).round() as usize];
            let (low, high) = (at(0.001), at(0.999));
            let spread = (high - low).max(1e-3);
            scale[j] = 0.9 / spread;
            shift[j] = 0.05 - scale[j] * low;
        }
    }

    let mut net = Network::initial(seed, mobility);
    net.readout.iter_mut().for_each(|w| *w *= 0.1);
    for row in 0..count {
        for j in 0..linear {
            net.transformer[row * HIDDEN + j] = (lanes[row * HIDDEN + j] * scale[j]) as f32;
        }
    }
    for (bias, &shift) in net.bias.iter_mut().zip(&shift).take(linear) {
        *bias = shift as f32;
    }
    for (e, &constant) in constants.iter().enumerate() {
        let mut bias = constant;
        for j in 0..HIDDEN {
            let readout = if j < linear { basis(j, e) / scale[j] } else { f64::from(net.readout[e * HIDDEN + j]) };
            net.readout[e * HIDDEN + j] = readout as f32;
            // A random lane starts near half the clip.
            bias -= readout * if j < linear { shift[j] } else { f64::from(net.bias[j]) };
        }
        net.readout_bias[e] = bias as f32;
    }
    let kept = if total > 0.0 { kept_sum / total } else { 1.0 };
    (net, LinearStart { kept })
}

/// The eigenvalues and eigenvectors (by columns: entry `i * n + k` is vector k's `i`-th) of the
/// symmetric `n` × `n` matrix `a` (by rows), by cyclic Jacobi rotations.
fn symmetric_eigen(a: &[f64], n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut a = a.to_vec();
    let mut v = vec![0.0f64; n * n];
    for i in 0..n {
        v[i * n + i] = 1.0;
    }
    let norm: f64 = a.iter().map(|x| x * x).sum::<f64>().sqrt();
    for _ in 0..100 {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i * n + j].powi(2))
            .sum();
        if off.sqrt() <= 1e-15 * norm.max(f64::MIN_POSITIVE) {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                if apq == 0.0 {
                    continue;
                }
                let theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let (akp, akq) = (a[k * n + p], a[k * n + q]);
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for k in 0..n {
                    let (apk, aqk) = (a[p * n + k], a[q * n + k]);
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
                for k in 0..n {
                    let (vkp, vkq) = (v[k * n + p], v[k * n + q]);
                    v[k * n + p] = c * vkp - s * vkq;
                    v[k * n + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    ((0..n).map(|i| a[i * n + i]).collect(), v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::formats::samples::Source;
    use crate::rng::Rng;

    #[test]
    fn jacobi_finds_the_eigenvectors_of_a_symmetric_matrix() {
        // A = Q diag(5, 2, -1, 0.5) Qᵀ for a rotation Q: the solver must give back the values
        // and vectors with A v = λ v.
        let n = 4;
        let mut rng = Rng::new(7);
        let a: Vec<f64> = {
            let m: Vec<f64> = (0..n * n).map(|_| (rng.next_u64() % 1000) as f64 / 100.0 - 5.0).collect();
            // A symmetric matrix: M + Mᵀ.
            (0..n * n).map(|k| m[k] + m[(k % n) * n + k / n]).collect()
        };
        let (values, vectors) = symmetric_eigen(&a, n);
        for k in 0..n {
            for i in 0..n {
                let av: f64 = (0..n).map(|j| a[i * n + j] * vectors[j * n + k]).sum();
                assert!((av - values[k] * vectors[i * n + k]).abs() < 1e-9, "column {k}, entry {i}");
            }
            let len: f64 = (0..n).map(|i| vectors[i * n + k].powi(2)).sum();
            assert!((len - 1.0).abs() < 1e-9);
        }
        let trace: f64 = (0..n).map(|i| a[i * n + i]).sum();
        assert!((values.iter().sum::<f64>() - trace).abs() < 1e-9);
    }

    /// Positions of random games, 4 to 56 empties.
    fn positions(seed: u64, games: usize) -> Vec<Sample> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = Position::initial();
            for _ in 0..56 {
                let moves: Vec<_> = pos.legal_moves().iter().collect();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[rng.below(moves.len())]);
                let empties = 64 - (pos.player() | pos.opponent()).count_ones();
                if (4..=56).contains(&empties) {
                    out.push(Sample {
                        player: pos.player(),
                        opponent: pos.opponent(),
                        score: 0,
                        depth: 1,
                        source: Source::SelfPlay,
                    });
                }
            }
        }
        out
    }

    #[test]
    fn the_network_made_from_the_weights_scores_as_they_do() {
        let weights = Weights::embedded();
        let fitted = positions(1, 200);
        let (net, start) = from_weights(&weights, &fitted, true, HIDDEN, 1);
        assert!(start.kept > 0.99, "the rank keeps {:.4} of the weights", start.kept);
        // On positions it was not placed on, the float network and the weights differ by a
        // fraction of the weights' own spread.
        let (mut diff, mut spread) = (0.0f64, 0.0f64);
        let others = positions(2, 50);
        for s in &others {
            let w = f64::from(weights.evaluate(s.player, s.opponent)) / 100.0;
            let n = f64::from(net.evaluate(s.player, s.opponent));
            diff += (n - w).powi(2);
            spread += w * w;
        }
        let (rms, size) = ((diff / others.len() as f64).sqrt(), (spread / others.len() as f64).sqrt());
        assert!(
            rms < 0.05 * size,
            "the network is {rms:.3} discs from the weights, whose values are {size:.3} in size"
        );
    }
}
