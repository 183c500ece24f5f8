//! `magpie train-network`: fits the network evaluation ([`crate::eval::network`]) to training
//! samples, on the CPU.
//!
//! The loss is the mean squared error in discs. Minibatches of `--batch` samples, drawn in an
//! order shuffled anew each epoch from `--seed`, are each split into [`PARTS`] fixed parts whose
//! gradients the threads compute apart (each a run of whole parts) and which are summed in the
//! parts' order, the threads each summing and moving a range of the transformer's rows: the fit
//! is the same for any number of threads. Adam moves the weights, lazily for the transformer (only the rows
//! a batch read, with the moments of those rows), with the learning rate multiplied by `--decay`
//! after each epoch. The last `--holdout` percent of each file (whole games, as the files are
//! written) are kept out of the fit; their error after each epoch decides the network kept, the
//! best, and stops the fit after `--patience` epochs without a better one. With `--checkpoint
//! FILE` the state (the network, the best one, Adam's moments, the epoch) is written after each
//! epoch and a fit that finds the file resumes from it, to the same result as one run.
//!
//! With `--residual` the network is fitted to what the pattern weights miss (each sample's score
//! less their value) and adds to them in the search. `--weight-decay` shrinks the weights of the
//! transformer rows a batch reads by the step size times its value each step
//! (decoupled from the gradient, as AdamW does): the rows of rare configurations otherwise learn
//! their few samples by heart.

use crate::board::movegen::legal_moves;
use crate::eval::network::{
    Forward, HIDDEN, INPUTS, LAYER, Network, Quantized, STAGES, Stack, activation, phase_offset, rows,
};
use crate::eval::pattern::Features;
use crate::eval::weights::Weights;
use crate::formats::samples::Sample;
use crate::rng::Rng;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The parts a minibatch is split into; each has its own gradient, summed in order.
pub const PARTS: usize = 8;

/// What `magpie train-network` is asked.
#[derive(Clone, Debug)]
pub struct NetworkTrainRequest {
    /// The sample files.
    pub data: Vec<PathBuf>,
    /// Percent of each file's last records held out, when `held_out` is empty.
    pub holdout_percent: u32,
    /// Files held out whole instead (every record of `data` is then fitted).
    pub held_out: Vec<PathBuf>,
    /// Where to write the network.
    pub out: PathBuf,
    /// The state to resume from and to write after each epoch.
    pub checkpoint: Option<PathBuf>,
    /// The network to start from, rather than a random one.
    pub start: Option<Network>,
    /// Epochs at most.
    pub epochs: u32,
    /// Samples a minibatch.
    pub batch: usize,
    /// Adam's step size at the first epoch.
    pub learning_rate: f32,
    /// The step size's factor from one epoch to the next.
    pub decay: f32,
    /// Epochs without a better held-out error before the fit stops.
    pub patience: u32,
    /// Seeds the initial network and the order of the samples.
    pub seed: u64,
    /// The pattern weights the network corrects, if it is fitted as their correction.
    pub residual: Option<Arc<Weights>>,
    /// The pattern weights to start from, made into a network ([`super::linear_start`]), rather
    /// than a random network.
    pub from_weights: Option<Arc<Weights>>,
    /// The lanes given the pattern weights with `from_weights`, 1 to [`HIDDEN`]; the others start
    /// random.
    pub linear_lanes: usize,
    /// The decoupled weight decay of the transformer rows read, per unit of step.
    pub weight_decay: f32,
    /// Whether a new network reads the position's mobility as well as its patterns.
    pub mobility: bool,
    /// The stage buckets of the network fitted, if asked: a new network gets them, and a network
    /// of one to start from is extended to them.
    pub buckets: Option<usize>,
    /// The factor of the step size for the stage buckets' rows: a sample moves its shared row
    /// and its bucket's row by the same gradient, so at the full step their sum moves twice as
    /// far as a network of one table's.
    pub bucket_rate: f32,
    /// Whether the network fitted has a second layer: a new network gets one, and a network
    /// without one to start from is given one.
    pub layer: bool,
    /// The factor of the step size for the transformer's rows (the stage buckets' too), against
    /// the readouts' and biases': a fit from the pattern weights moves the rows, each read by a
    /// few samples, more slowly than the readouts, each read by thousands.
    pub row_rate: f32,
    /// Threads.
    pub threads: usize,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// Adam's constants.
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// A transformer row's place among a part's rows read, for a row it did not read.
const UNREAD: u32 = u32::MAX;

/// The gradient of one part of a minibatch: the transformer's rows read, each one's gradient
/// packed in the order first read (a few thousand rows, not the whole table's 24 MB to scatter
/// into and clear).
struct Gradient {
    /// The rows read, in the order first read.
    touched: Vec<u32>,
    /// Row `touched[k]`'s gradient: `transformer[k * HIDDEN..(k + 1) * HIDDEN]`.
    transformer: Vec<f32>,
    /// Each row of the table's place in `touched`, or [`UNREAD`].
    slots: Vec<u32>,
    bias: [f32; HIDDEN],
    readout: Vec<f32>,
    readout_bias: Vec<f32>,
    /// The second layer's, if the network has one.
    stack: Option<Stack>,
    /// Sum of the squared errors of the part's samples.
    loss: f64,
}

impl Gradient {
    /// A gradient of zeros for `net`'s shape.
    fn new(net: &Network) -> Gradient {
        let rows = rows().count() * net.blocks();
        Gradient {
            touched: Vec::new(),
            transformer: Vec::new(),
            slots: vec![UNREAD; rows],
            bias: [0.0; HIDDEN],
            readout: vec![0.0; STAGES * HIDDEN],
            readout_bias: vec![0.0; STAGES],
            stack: net.stack.as_ref().map(|_| Stack::zeros()),
            loss: 0.0,
        }
    }

    /// Adds the gradient of the squared error of one sample, scaled by `scale` (2 / batch size).
    fn add_sample(&mut self, net: &Network, rows: &[u32; INPUTS], empties: u32, target: f32, scale: f32) {
        let Forward { accumulator, layer, value } = net.forward(rows, empties);
        let error = value - target;
        self.loss += f64::from(error) * f64::from(error);
        let d_value = scale * error;
        let stage = (empties as usize).min(STAGES - 1);
        self.readout_bias[stage] += d_value;
        let readout = &net.readout[stage * HIDDEN..(stage + 1) * HIDDEN];
        let clipped = accumulator.map(activation);
        // The gradient of each clipped first unit: from the readout, and from the second layer.
        let mut d_clipped = [0f32; HIDDEN];
        for h in 0..HIDDEN {
            self.readout[stage * HIDDEN + h] += d_value * clipped[h];
            d_clipped[h] = d_value * readout[h];
        }
        if let (Some(stack), Some(gradient)) = (&net.stack, &mut self.stack) {
            for (j, &unit) in layer.iter().enumerate() {
                let at = stage * LAYER + j;
                gradient.readout[at] += d_value * activation(unit);
                // The clipped ReLU passes the gradient only inside its range.
                if unit > 0.0 && unit < 1.0 {
                    let d_unit = d_value * stack.readout[at];
                    gradient.bias[at] += d_unit;
                    let weights = &stack.weights[at * HIDDEN..(at + 1) * HIDDEN];
                    let d_weights = &mut gradient.weights[at * HIDDEN..(at + 1) * HIDDEN];
                    for h in 0..HIDDEN {
                        d_weights[h] += d_unit * clipped[h];
                        d_clipped[h] += d_unit * weights[h];
                    }
                }
            }
        }
        let mut d_accumulator = [0f32; HIDDEN];
        for h in 0..HIDDEN {
            if accumulator[h] > 0.0 && accumulator[h] < 1.0 {
                d_accumulator[h] = d_clipped[h];
            }
        }
        if d_accumulator.iter().all(|&d| d == 0.0) {
            return;
        }
        for (b, d) in self.bias.iter_mut().zip(&d_accumulator) {
            *b += d;
        }
        let phase = phase_offset(empties, net.buckets);
        for &row in &rows[..net.inputs()] {
            for row in std::iter::once(row).chain(phase.map(|offset| offset as u32 + row)) {
                let mut slot = self.slots[row as usize];
                if slot == UNREAD {
                    slot = self.touched.len() as u32;
                    self.slots[row as usize] = slot;
                    self.touched.push(row);
                    self.transformer.extend_from_slice(&[0.0; HIDDEN]);
                }
                let start = slot as usize * HIDDEN;
                for (g, d) in self.transformer[start..start + HIDDEN].iter_mut().zip(&d_accumulator) {
                    *g += d;
                }
            }
        }
    }

    /// The gradient of transformer row `row` (zeros if the part did not read it).
    #[cfg(test)]
    fn row(&self, row: u32) -> [f32; HIDDEN] {
        let mut out = [0.0; HIDDEN];
        if let Some(&slot) = self.slots.get(row as usize).filter(|&&s| s != UNREAD) {
            out.copy_from_slice(&self.transformer[slot as usize * HIDDEN..(slot as usize + 1) * HIDDEN]);
        }
        out
    }
}

/// Adam's moments: a network's shape for each.
#[derive(Clone, Debug, PartialEq)]
pub struct Moments {
    /// The first moment.
    pub mean: Network,
    /// The second moment.
    pub variance: Network,
}

/// One Adam step on the weights a parameter and its gradient give.
#[inline]
fn adam(w: &mut f32, m: &mut f32, v: &mut f32, g: f32, rate: f32) {
    *m = BETA1 * *m + (1.0 - BETA1) * g;
    *v = BETA2 * *v + (1.0 - BETA2) * g * g;
    *w -= rate * *m / (v.sqrt() + EPSILON);
}

impl Moments {
    /// Moments of zeros for `net`'s shape.
    fn zeros(net: &Network) -> Moments {
        let zeros = Network {
            transformer: vec![0.0; net.transformer.len()],
            buckets: net.buckets,
            stack: net.stack.as_ref().map(|_| Stack::zeros()),
            ..Network::zeros()
        };
        Moments { mean: zeros.clone(), variance: zeros }
    }
}

/// What one Adam step is given: its number `step` (from 1), the step size `rate`, the decoupled
/// weight decay `decay` (the transformer rows read shrink by `rate × decay`) and the factor
/// `bucket_rate` of both for the stage buckets' rows, the transformer's rows all at `row_rate`
/// of the step.
#[derive(Clone, Copy, Debug)]
struct StepSize {
    step: u64,
    rate: f32,
    decay: f32,
    bucket_rate: f32,
    row_rate: f32,
}

/// One Adam step from the gradients of a minibatch's parts, summed in the parts' order, as
/// `size` says; the parts are cleared for the next batch. The rows are split into `threads` ranges, each
/// summed and moved by a thread of its own (their sums are the same for any split), the small
/// layers serially. Returns the parts' summed squared errors.
fn step(net: &mut Network, moments: &mut Moments, parts: &mut [Gradient], size: StepSize, threads: usize) -> f64 {
    let StepSize { step, rate, decay, bucket_rate, row_rate } = size;
    // The bias corrections folded into the step size.
    let t = step as i32;
    let corrected = rate * (1.0 - BETA2.powi(t)).sqrt() / (1.0 - BETA1.powi(t));
    // The shared table's rows, then the buckets' (moved at `bucket_rate` of the step).
    let (row, row_step) = (corrected * row_rate, rate * row_rate);
    let shared = Moves { rate: row, shrink: 1.0 - row_step * decay };
    let bucket = Moves { rate: row * bucket_rate, shrink: 1.0 - row_step * bucket_rate * decay };
    let mut loss = 0.0;
    let mut bias = [0f32; HIDDEN];
    let mut readout = vec![0f32; net.readout.len()];
    let mut readout_bias = vec![0f32; net.readout_bias.len()];
    let mut stack = net.stack.as_ref().map(|_| Stack::zeros());
    for part in parts.iter_mut() {
        if let (Some(sum), Some(theirs)) = (&mut stack, &mut part.stack) {
            for (mine, theirs) in [
                (&mut sum.weights, &mut theirs.weights),
                (&mut sum.bias, &mut theirs.bias),
                (&mut sum.readout, &mut theirs.readout),
            ] {
                mine.iter_mut().zip(theirs.iter()).for_each(|(a, b)| *a += b);
                theirs.fill(0.0);
            }
        }
        loss += part.loss;
        bias.iter_mut().zip(&part.bias).for_each(|(a, b)| *a += b);
        readout.iter_mut().zip(&part.readout).for_each(|(a, b)| *a += b);
        readout_bias.iter_mut().zip(&part.readout_bias).for_each(|(a, b)| *a += b);
        part.bias = [0.0; HIDDEN];
        part.readout.fill(0.0);
        part.readout_bias.fill(0.0);
        part.loss = 0.0;
    }
    for (h, &g) in bias.iter().enumerate() {
        adam(&mut net.bias[h], &mut moments.mean.bias[h], &mut moments.variance.bias[h], g, corrected);
    }
    for (i, &g) in readout.iter().enumerate() {
        adam(&mut net.readout[i], &mut moments.mean.readout[i], &mut moments.variance.readout[i], g, corrected);
    }
    for (i, &g) in readout_bias.iter().enumerate() {
        let (m, v) = (&mut moments.mean.readout_bias[i], &mut moments.variance.readout_bias[i]);
        adam(&mut net.readout_bias[i], m, v, g, corrected);
    }
    if let (Some(g), Some(w), Some(m), Some(v)) =
        (&stack, &mut net.stack, &mut moments.mean.stack, &mut moments.variance.stack)
    {
        let parts = [
            (&g.weights, &mut w.weights, &mut m.weights, &mut v.weights),
            (&g.bias, &mut w.bias, &mut m.bias, &mut v.bias),
            (&g.readout, &mut w.readout, &mut m.readout, &mut v.readout),
        ];
        for (g, w, m, v) in parts {
            for i in 0..g.len() {
                adam(&mut w[i], &mut m[i], &mut v[i], g[i], corrected);
            }
        }
    }
    // The transformer, by ranges of rows: each range's weights and moments, a thread each.
    let buckets_from = rows().count();
    let rows = net.transformer.len() / HIDDEN;
    let per = rows.div_ceil(threads.max(1)).max(1);
    let mut ranges: Vec<Range<'_>> = Vec::new();
    let chunks = net
        .transformer
        .chunks_mut(per * HIDDEN)
        .zip(moments.mean.transformer.chunks_mut(per * HIDDEN))
        .zip(moments.variance.transformer.chunks_mut(per * HIDDEN));
    for (r, ((w, m), v)) in chunks.enumerate() {
        ranges.push(Range { first: r * per, w, m, v });
    }
    let read: &[Gradient] = parts;
    std::thread::scope(|scope| {
        for range in ranges {
            scope.spawn(move || range.step(read, buckets_from, [shared, bucket]));
        }
    });
    for part in parts.iter_mut() {
        for &row in &part.touched {
            part.slots[row as usize] = UNREAD;
        }
        part.touched.clear();
        part.transformer.clear();
    }
    loss
}

/// How far [`Range::step`] moves a row: Adam's step size with its bias corrections, and the
/// factor the row is shrunk by first.
#[derive(Clone, Copy, Debug)]
struct Moves {
    rate: f32,
    shrink: f32,
}

/// What one thread of [`step`] moves: the rows from `first` on, their weights and moments.
struct Range<'a> {
    first: usize,
    w: &'a mut [f32],
    m: &'a mut [f32],
    v: &'a mut [f32],
}

impl Range<'_> {
    /// Sums the parts' gradients of each row of the range that a part read (in the parts'
    /// order, only those that read it) and moves the row (by `moves[0]` below `buckets_from`, by
    /// `moves[1]` from there on).
    fn step(self, parts: &[Gradient], buckets_from: usize, moves: [Moves; 2]) {
        let end = self.first + self.w.len() / HIDDEN;
        for (p, part) in parts.iter().enumerate() {
            for (k, &row) in part.touched.iter().enumerate() {
                let row = row as usize;
                if row < self.first || row >= end {
                    continue;
                }
                // The row's first part moves it; later parts that read it are summed then.
                if parts[..p].iter().any(|q| q.slots[row] != UNREAD) {
                    continue;
                }
                let mut g = [0f32; HIDDEN];
                g.copy_from_slice(&part.transformer[k * HIDDEN..(k + 1) * HIDDEN]);
                for q in &parts[p + 1..] {
                    let slot = q.slots[row];
                    if slot != UNREAD {
                        let theirs = &q.transformer[slot as usize * HIDDEN..(slot as usize + 1) * HIDDEN];
                        g.iter_mut().zip(theirs).for_each(|(a, b)| *a += b);
                    }
                }
                let Moves { rate, shrink } = moves[usize::from(row >= buckets_from)];
                let cells = (row - self.first) * HIDDEN..(row - self.first + 1) * HIDDEN;
                let (w, m) = (&mut self.w[cells.clone()], &mut self.m[cells.clone()]);
                let v = &mut self.v[cells];
                for h in 0..HIDDEN {
                    w[h] *= shrink;
                    adam(&mut w[h], &mut m[h], &mut v[h], g[h], rate);
                }
            }
        }
    }
}

/// A fit's state between epochs, as the checkpoint keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The network being fitted.
    pub net: Network,
    /// The network of the best held-out error so far.
    pub best: Network,
    /// Adam's moments.
    pub moments: Moments,
    /// Epochs done.
    pub epochs: u32,
    /// Adam steps done.
    pub steps: u64,
    /// The best held-out mean squared error so far (infinite before the first epoch).
    pub best_error: f64,
    /// Epochs since the best one.
    pub stale: u32,
}

const CHECKPOINT_MAGIC: &[u8; 8] = b"MAGPIENC";

impl State {
    fn start(net: Network) -> State {
        State {
            best: net.clone(),
            moments: Moments::zeros(&net),
            net,
            epochs: 0,
            steps: 0,
            best_error: f64::INFINITY,
            stale: 0,
        }
    }

    /// The checkpoint's bytes: the magic, then the four networks as network files, each after its
    /// length, then the counters.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = CHECKPOINT_MAGIC.to_vec();
        for net in [&self.net, &self.best, &self.moments.mean, &self.moments.variance] {
            let bytes = net.to_bytes();
            out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
            out.extend_from_slice(&bytes);
        }
        out.extend_from_slice(&self.epochs.to_le_bytes());
        out.extend_from_slice(&self.steps.to_le_bytes());
        out.extend_from_slice(&self.best_error.to_le_bytes());
        out.extend_from_slice(&self.stale.to_le_bytes());
        out
    }

    /// The state of a checkpoint's bytes, or what is wrong with them.
    pub fn from_bytes(bytes: &[u8]) -> Result<State, String> {
        if bytes.len() < 8 || &bytes[..8] != CHECKPOINT_MAGIC {
            return Err("not a Magpie network checkpoint (it does not start with MAGPIENC)".to_string());
        }
        let mut at = 8;
        let mut take = |n: usize| -> Result<&[u8], String> {
            let part = bytes.get(at..at + n).ok_or_else(|| "the checkpoint is cut short".to_string())?;
            at += n;
            Ok(part)
        };
        let mut nets = Vec::new();
        for _ in 0..4 {
            let len = u64::from_le_bytes(take(8)?.try_into().unwrap_or_default()) as usize;
            nets.push(Network::from_bytes(take(len)?)?);
        }
        let epochs = u32::from_le_bytes(take(4)?.try_into().unwrap_or_default());
        let steps = u64::from_le_bytes(take(8)?.try_into().unwrap_or_default());
        let best_error = f64::from_le_bytes(take(8)?.try_into().unwrap_or_default());
        let stale = u32::from_le_bytes(take(4)?.try_into().unwrap_or_default());
        if at != bytes.len() {
            return Err("the checkpoint has bytes after its end".to_string());
        }
        if nets.iter().any(|n| n.buckets != nets[0].buckets || n.stack.is_some() != nets[0].stack.is_some()) {
            return Err("the checkpoint's networks have different stage buckets or layers".to_string());
        }
        let variance = nets.pop().unwrap_or_else(Network::zeros);
        let mean = nets.pop().unwrap_or_else(Network::zeros);
        let best = nets.pop().unwrap_or_else(Network::zeros);
        let net = nets.pop().unwrap_or_else(Network::zeros);
        Ok(State { net, best, moments: Moments { mean, variance }, epochs, steps, best_error, stale })
    }
}

/// Writes `bytes` to `path` through a temporary file beside it, so that a kill leaves the old file
/// or the new one.
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
    }
    fs::rename(&tmp, path)
}

/// Samples and the values the network is fitted to: their scores in discs, less the pattern
/// weights' values for a residual fit.
pub struct Set {
    /// The samples.
    pub samples: Vec<Sample>,
    /// Each one's target, in discs.
    pub targets: Vec<f32>,
}

impl Set {
    /// `samples` with their scores as targets, less `base`'s values if given.
    pub fn new(samples: Vec<Sample>, base: Option<&Weights>) -> Set {
        let targets = samples
            .iter()
            .map(|s| {
                let base = base.map_or(0, |w| w.evaluate(s.player, s.opponent));
                (i32::from(s.score) - base) as f32 / 100.0
            })
            .collect();
        Set { samples, targets }
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }
}

/// The mean squared and absolute errors of `net` on `set`, in discs, on `threads` threads:
/// summed in [`PARTS`] parts in order, so the same for any number of threads.
pub fn errors(net: &Network, set: &Set, threads: usize) -> (f64, f64) {
    let samples = &set.samples;
    if samples.is_empty() {
        return (0.0, 0.0);
    }
    let part_len = samples.len().div_ceil(PARTS);
    let sums: Vec<Mutex<(f64, f64)>> = (0..PARTS).map(|_| Mutex::new((0.0, 0.0))).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, PARTS) {
            scope.spawn(|| {
                loop {
                    let p = next.fetch_add(1, Ordering::Relaxed);
                    let Some(sum) = sums.get(p) else { break };
                    let range = (p * part_len).min(samples.len())..((p + 1) * part_len).min(samples.len());
                    let total = range.fold((0.0, 0.0), |(sq, abs), i| {
                        let s = &samples[i];
                        let value = net.forward(&rows().of(s.player, s.opponent), s.empties()).value;
                        let e = f64::from(value) - f64::from(set.targets[i]);
                        (sq + e * e, abs + e.abs())
                    });
                    if let Ok(mut sum) = sum.lock() {
                        *sum = total;
                    }
                }
            });
        }
    });
    let n = samples.len() as f64;
    let (squares, absolutes) = sums
        .into_iter()
        .map(|sum| sum.into_inner().unwrap_or((0.0, 0.0)))
        .fold((0.0, 0.0), |(a, b), (sq, abs)| (a + sq, b + abs));
    (squares / n, absolutes / n)
}

/// The mean squared and absolute errors of `weights` on `samples`, in discs: the linear model the
/// network is to beat.
pub fn pattern_errors(weights: &Weights, samples: &[Sample]) -> (f64, f64) {
    let (squares, absolutes) = samples.iter().fold((0.0, 0.0), |(sq, abs), s| {
        let e = f64::from(weights.evaluate(s.player, s.opponent) - i32::from(s.score)) / 100.0;
        (sq + e * e, abs + e.abs())
    });
    let n = samples.len().max(1) as f64;
    (squares / n, absolutes / n)
}

/// The bands of empties that [`errors_by_empties`] reports: 0 to 9, 10 to 19, ... 50 to 60.
pub const EMPTIES_BANDS: usize = 6;

/// One band's figures: its positions, and the network's and the pattern weights' mean squared
/// errors on them, in discs².
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Band {
    /// The band's positions.
    pub positions: usize,
    /// The network's mean squared error (with `base` added, for a correction).
    pub network: f64,
    /// The quantized network's, as the search reads it.
    pub quantized: f64,
    /// The pattern weights'.
    pub weights: f64,
}

/// `net`'s and `weights`' errors on `set` by bands of ten empties (the last, 50 to 60): where the
/// network gains or loses against the linear model. For a correction, `set`'s targets are the
/// scores less `weights`' values, so the network's error is that of the two added.
pub fn errors_by_empties(net: &Network, weights: &Weights, set: &Set) -> [Band; EMPTIES_BANDS] {
    let mut bands = [Band::default(); EMPTIES_BANDS];
    let quantized = Quantized::new(net);
    for (s, &target) in set.samples.iter().zip(&set.targets) {
        let band = &mut bands[(s.empties() as usize / 10).min(EMPTIES_BANDS - 1)];
        let value = net.forward(&rows().of(s.player, s.opponent), s.empties()).value;
        let e = f64::from(value) - f64::from(target);
        let lanes = Features::new(s.player, s.opponent).player;
        let q = quantized.evaluate(&lanes, s.player, s.opponent, legal_moves(s.player, s.opponent));
        let q = f64::from(q) / 100.0 - f64::from(target);
        let w = f64::from(weights.evaluate(s.player, s.opponent) - i32::from(s.score)) / 100.0;
        band.positions += 1;
        band.network += e * e;
        band.quantized += q * q;
        band.weights += w * w;
    }
    for band in &mut bands {
        let n = band.positions.max(1) as f64;
        band.network /= n;
        band.quantized /= n;
        band.weights /= n;
    }
    bands
}

/// One epoch's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Epoch {
    /// Its number, from 1.
    pub number: u32,
    /// The fitted samples' mean squared error during the epoch, in discs².
    pub train_error: f64,
    /// The held-out samples' mean squared error after it.
    pub held_out_error: f64,
    /// Their mean absolute error.
    pub held_out_abs: f64,
    /// Whether it is the best so far.
    pub best: bool,
}

/// Runs epochs on `fitted` from `state`, until `request.epochs` or the patience runs out; calls
/// `after` after each epoch (to report and to write the checkpoint).
pub fn fit(
    request: &NetworkTrainRequest,
    state: &mut State,
    fitted: &Set,
    held_out: &Set,
    after: &mut dyn FnMut(&State, &Epoch) -> io::Result<()>,
    tick: &dyn Fn(u64),
) -> io::Result<()> {
    let threads = request.threads.clamp(1, PARTS);
    let mut parts: Vec<Gradient> = (0..PARTS).map(|_| Gradient::new(&state.net)).collect();
    let batch = request.batch.max(PARTS);
    while state.epochs < request.epochs && state.stale < request.patience {
        let epoch = state.epochs + 1;
        let rate = request.learning_rate * request.decay.powi(state.epochs as i32);
        let mut order: Vec<u32> = (0..fitted.len() as u32).collect();
        let mut rng = Rng::new(request.seed ^ (u64::from(epoch) << 32));
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut train_loss = 0.0;
        for samples in order.chunks(batch) {
            let scale = 2.0 / samples.len() as f32;
            let part_len = samples.len().div_ceil(PARTS);
            let net = &state.net;
            // Each thread computes whole parts, a contiguous run of them.
            std::thread::scope(|scope| {
                for (c, chunk) in parts.chunks_mut(PARTS.div_ceil(threads)).enumerate() {
                    let first = c * PARTS.div_ceil(threads);
                    scope.spawn(move || {
                        for (k, gradient) in chunk.iter_mut().enumerate() {
                            let p = first + k;
                            let start = (p * part_len).min(samples.len());
                            let end = ((p + 1) * part_len).min(samples.len());
                            for &i in &samples[start..end] {
                                let s = &fitted.samples[i as usize];
                                let rows = rows().of(s.player, s.opponent);
                                gradient.add_sample(net, &rows, s.empties(), fitted.targets[i as usize], scale);
                            }
                        }
                    });
                }
            });
            state.steps += 1;
            let size = StepSize {
                step: state.steps,
                rate,
                decay: request.weight_decay,
                bucket_rate: request.bucket_rate,
                row_rate: request.row_rate,
            };
            train_loss += step(&mut state.net, &mut state.moments, &mut parts, size, threads);
            tick(samples.len() as u64);
        }
        let (held_out_error, held_out_abs) = errors(&state.net, held_out, request.threads);
        let better = held_out_error < state.best_error;
        if better {
            state.best = state.net.clone();
            state.best_error = held_out_error;
            state.stale = 0;
        } else {
            state.stale += 1;
        }
        state.epochs = epoch;
        let report = Epoch {
            number: epoch,
            train_error: train_loss / fitted.len().max(1) as f64,
            held_out_error,
            held_out_abs,
            best: better,
        };
        after(state, &report)?;
    }
    Ok(())
}

/// Runs the fit: reads the samples, resumes from the checkpoint if there is one, writes a line
/// per epoch and the best network.
pub fn run(request: &NetworkTrainRequest, out: &mut impl Write) -> io::Result<State> {
    let started = Instant::now();
    let (fitted, held_out) = if request.held_out.is_empty() {
        super::patterns::read_samples(&request.data, request.holdout_percent)?
    } else {
        (super::patterns::read_samples(&request.data, 0)?.0, super::patterns::read_samples(&request.held_out, 0)?.0)
    };
    if fitted.is_empty() || held_out.is_empty() {
        let why = if fitted.is_empty() {
            "no record to fit"
        } else if request.held_out.is_empty() {
            "no record held out: raise --holdout"
        } else {
            "no record in the --held-out files"
        };
        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("the sample files hold {why}")));
    }
    let base = request.residual.as_deref();
    let embedded = Weights::embedded();
    let (pattern_error, pattern_abs) = pattern_errors(base.unwrap_or(&embedded), &held_out);
    let (fitted, held_out) = (Set::new(fitted, base), Set::new(held_out, base));
    let base_hash = base.map_or(0, Weights::hash);
    let mut state = match request.checkpoint.as_deref().filter(|p| p.exists()) {
        Some(path) => {
            let bytes = fs::read(path).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            let state = State::from_bytes(&bytes)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {e}", path.display())))?;
            writeln!(out, "resuming from {} after epoch {}", path.display(), state.epochs)?;
            state
        }
        None => {
            let net = match &request.start {
                Some(net) => net.clone(),
                None if base.is_some() => Network::initial_correction(request.seed, base_hash, request.mobility),
                None if request.from_weights.is_some() => {
                    let weights = request.from_weights.as_deref().unwrap_or(&embedded);
                    let (net, start) = super::linear_start::from_weights(
                        weights,
                        &fitted.samples,
                        request.mobility,
                        request.linear_lanes,
                        request.seed,
                    );
                    writeln!(
                        out,
                        "started from pattern weights {:016x}: {} lanes hold {:.4}% of their sum of squares",
                        weights.hash(),
                        request.linear_lanes,
                        100.0 * start.kept
                    )?;
                    net
                }
                None => Network::initial(request.seed, request.mobility),
            };
            let net = match request.buckets {
                Some(buckets) => net
                    .with_buckets(buckets)
                    .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("--buckets {buckets}: {e}")))?,
                None => net,
            };
            State::start(if request.layer { net.with_layer(request.seed) } else { net })
        }
    };
    if let Some(buckets) = request.buckets.filter(|&b| b != state.net.buckets) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("--buckets {buckets}: the checkpoint's network has {}", state.net.buckets),
        ));
    }
    if request.layer && state.net.stack.is_none() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--layer: the checkpoint's network has no second layer (fit it in a new checkpoint)",
        ));
    }
    if state.net.base != base_hash {
        let what =
            |hash: u64| if hash == 0 { "stands alone".to_string() } else { format!("corrects weights {hash:016x}") };
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("the network to start from {}, the fit's {}", what(state.net.base), what(base_hash)),
        ));
    }
    writeln!(
        out,
        "fitting a network of {} rows x {HIDDEN}{}{}, reading the patterns{}, to {} positions ({} held out), batches of {}, {} thread{}",
        rows().count(),
        match state.net.buckets {
            1 => String::new(),
            b => format!(" shared and {b} stage buckets of as many"),
        },
        if state.net.stack.is_some() { format!(", a second layer of {LAYER}") } else { String::new() },
        if state.net.mobility { " and mobility" } else { "" },
        fitted.len(),
        held_out.len(),
        request.batch,
        request.threads,
        if request.threads == 1 { "" } else { "s" }
    )?;
    writeln!(out, "held out by the pattern weights: {pattern_error:.3} discs² ({pattern_abs:.3} mean abs.)")?;
    if base.is_some() {
        writeln!(out, "fitting the network as their correction")?;
    }
    let left = u64::from(request.epochs.saturating_sub(state.epochs)) * fitted.len() as u64;
    let bar = crate::progress::progress_bar(request.progress, left, "positions");
    let mut after = |state: &State, epoch: &Epoch| -> io::Result<()> {
        if let Some(path) = &request.checkpoint {
            write_atomically(path, &state.to_bytes())?;
        }
        bar.suspend(|| {
            writeln!(
                out,
                "epoch {:>3}: train {:.3} discs², held out {:.3} discs² ({:.3} mean abs.){}",
                epoch.number,
                epoch.train_error,
                epoch.held_out_error,
                epoch.held_out_abs,
                if epoch.best { ", best" } else { "" }
            )
        })
    };
    fit(request, &mut state, &fitted, &held_out, &mut after, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    if !state.best_error.is_finite() {
        // Nothing fitted (--epochs 0): the network measured is the one started from.
        state.best_error = errors(&state.best, &held_out, request.threads).0;
    }
    writeln!(
        out,
        "held-out mean squared error by empties, discs² (empties, positions, network, quantized, pattern weights):"
    )?;
    for (b, band) in errors_by_empties(&state.best, base.unwrap_or(&embedded), &held_out).iter().enumerate() {
        if band.positions > 0 {
            let last = if b + 1 == EMPTIES_BANDS { 60 } else { b * 10 + 9 };
            writeln!(
                out,
                "  {:>2}-{last:<2} {:>9} {:>8.3} {:>8.3} {:>8.3}",
                b * 10,
                band.positions,
                band.network,
                band.quantized,
                band.weights
            )?;
        }
    }
    write_atomically(&request.out, &state.best.to_bytes())?;
    writeln!(
        out,
        "wrote {}: held-out error {:.3} discs² after {} epochs, {:.0} s",
        request.out.display(),
        state.best_error,
        state.epochs,
        started.elapsed().as_secs_f64()
    )?;
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::eval::pattern::FEATURES;
    use crate::formats::samples::Source;

    fn random_samples(seed: u64, count: usize, teacher: &Network) -> Vec<Sample> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut pos = Position::initial();
            for _ in 0..rng.below(56) {
                let moves: Vec<_> = pos.legal_moves().iter().collect();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[rng.below(moves.len())]);
            }
            let score = (teacher.evaluate(pos.player(), pos.opponent()) * 100.0).round().clamp(-6400.0, 6400.0);
            out.push(Sample {
                player: pos.player(),
                opponent: pos.opponent(),
                score: score as i16,
                depth: 1,
                source: Source::SelfPlay,
            });
        }
        out
    }

    fn loss(net: &Network, samples: &[(Vec<u32>, u32, f32)]) -> f64 {
        samples
            .iter()
            .map(|(rows, empties, target)| {
                let rows: [u32; INPUTS] = rows.clone().try_into().unwrap();
                let e = f64::from(net.forward(&rows, *empties).value - target);
                e * e
            })
            .sum::<f64>()
            / samples.len() as f64
    }

    #[test]
    fn gradients_match_finite_differences() {
        gradients_match_finite_differences_with(1, false);
    }

    #[test]
    fn gradients_match_finite_differences_with_stage_buckets() {
        gradients_match_finite_differences_with(3, false);
    }

    #[test]
    fn gradients_match_finite_differences_with_a_second_layer() {
        gradients_match_finite_differences_with(1, true);
    }

    fn gradients_match_finite_differences_with(buckets: usize, layer: bool) {
        let mut net = Network::initial(5, true).with_buckets(buckets).unwrap();
        if layer {
            // Readouts of the second layer away from 0, so that its gradients flow back.
            net = net.with_layer(8);
            let stack = net.stack.as_mut().unwrap();
            stack.readout.iter_mut().enumerate().for_each(|(i, w)| *w = ((i % 5) as f32 - 2.0) / 2.0);
        }
        // Each bucket's rows away from 0, so that they count.
        let shared = rows().count() * HIDDEN;
        let mut rng = Rng::new(55);
        net.transformer[shared..].iter_mut().for_each(|w| *w = (rng.below(201) as f32 - 100.0) / 5000.0);
        // Readouts and biases that keep the units inside the clip's range, where it has a slope.
        net.readout.iter_mut().enumerate().for_each(|(i, w)| *w = ((i % 7) as f32 - 3.0) / 3.0);
        let teacher = Network::initial(6, true);
        let samples: Vec<(Vec<u32>, u32, f32)> = random_samples(7, 6, &teacher)
            .iter()
            .map(|s| (rows().of(s.player, s.opponent).to_vec(), s.empties(), f32::from(s.score) / 100.0 + 1.5))
            .collect();
        let mut gradient = Gradient::new(&net);
        for (r, empties, target) in &samples {
            let r: [u32; INPUTS] = r.clone().try_into().unwrap();
            gradient.add_sample(&net, &r, *empties, *target, 2.0 / samples.len() as f32);
        }
        let numeric = |net: &Network, set: &dyn Fn(&mut Network, f32)| {
            let h = 2e-3;
            let (mut up, mut down) = (net.clone(), net.clone());
            set(&mut up, h);
            set(&mut down, -h);
            (loss(&up, &samples) - loss(&down, &samples)) / (2.0 * f64::from(h))
        };
        let close = |analytic: f32, numeric: f64, what: &str| {
            let tolerance = 1e-3 + 1e-2 * numeric.abs();
            assert!((f64::from(analytic) - numeric).abs() < tolerance, "{what}: {analytic} against {numeric}");
        };
        // Some rows of the transformer that the samples read, each unit, and a mobility row.
        let mobility_row = samples[0].0[FEATURES];
        assert!(gradient.touched.contains(&mobility_row));
        for &row in gradient.touched.iter().take(5).chain([&mobility_row]) {
            for h in [0, HIDDEN / 2 - 1, HIDDEN - 1] {
                let i = row as usize * HIDDEN + h;
                let n = numeric(&net, &|n: &mut Network, d| n.transformer[i] += d);
                close(gradient.row(row)[h], n, &format!("transformer row {row} unit {h}"));
            }
        }
        for h in [0, HIDDEN / 3, HIDDEN - 1] {
            let n = numeric(&net, &|n: &mut Network, d| n.bias[h] += d);
            close(gradient.bias[h], n, &format!("bias {h}"));
        }
        let stage = samples[0].1 as usize;
        if layer {
            let gradient = gradient.stack.as_ref().unwrap();
            for j in [0, 3, LAYER - 1] {
                let at = stage * LAYER + j;
                let n = numeric(&net, &|n: &mut Network, d| n.stack.as_mut().unwrap().readout[at] += d);
                close(gradient.readout[at], n, &format!("layer readout {j}"));
                let n = numeric(&net, &|n: &mut Network, d| n.stack.as_mut().unwrap().bias[at] += d);
                close(gradient.bias[at], n, &format!("layer bias {j}"));
                for k in [0, HIDDEN - 1] {
                    let i = at * HIDDEN + k;
                    let n = numeric(&net, &|n: &mut Network, d| n.stack.as_mut().unwrap().weights[i] += d);
                    close(gradient.weights[i], n, &format!("layer weight {j}, {k}"));
                }
            }
            assert!(gradient.weights.iter().filter(|&&g| g != 0.0).count() > 20, "the layer's weights learn");
        }
        for h in [1, HIDDEN - 1] {
            let i = stage * HIDDEN + h;
            close(gradient.readout[i], numeric(&net, &|n: &mut Network, d| n.readout[i] += d), "readout");
        }
        close(
            gradient.readout_bias[stage],
            numeric(&net, &|n: &mut Network, d| n.readout_bias[stage] += d),
            "readout bias",
        );
        assert!(gradient.touched.len() > 50, "the samples read many rows");
        if buckets > 1 {
            // The bucket rows the first sample read: its rows past the shared table.
            let phase = phase_offset(samples[0].1, buckets).unwrap() as u32;
            for &row in samples[0].0[..FEATURES].iter().take(3) {
                let row = phase + row;
                assert!(gradient.touched.contains(&row));
                let i = row as usize * HIDDEN + 3;
                let n = numeric(&net, &|n: &mut Network, d| n.transformer[i] += d);
                close(gradient.row(row)[3], n, &format!("bucket row {row}"));
            }
        }
    }

    #[test]
    fn the_bands_of_empties_add_up_to_the_whole() {
        let teacher = Network::initial(6, true);
        let set = Set::new(random_samples(8, 3000, &teacher), None);
        let net = Network::initial(9, true);
        let weights = Weights::embedded();
        let bands = errors_by_empties(&net, &weights, &set);
        assert_eq!(bands.iter().map(|b| b.positions).sum::<usize>(), set.len());
        assert!(bands.iter().filter(|b| b.positions > 0).count() >= 4, "{bands:?}");
        let mean =
            |f: &dyn Fn(&Band) -> f64| bands.iter().map(|b| f(b) * b.positions as f64).sum::<f64>() / set.len() as f64;
        let (network, _) = errors(&net, &set, 2);
        let (pattern, _) = pattern_errors(&weights, &set.samples);
        assert!((mean(&|b| b.network) - network).abs() < 1e-6 * network.max(1.0), "{bands:?} against {network}");
        // The quantized network is within a few hundredths of a disc of the float one.
        assert!((mean(&|b| b.quantized).sqrt() - network.sqrt()).abs() < 0.05, "{bands:?} against {network}");
        assert!((mean(&|b| b.weights) - pattern).abs() < 1e-6 * pattern.max(1.0), "{bands:?} against {pattern}");
    }

    fn request(threads: usize, epochs: u32) -> NetworkTrainRequest {
        NetworkTrainRequest {
            data: Vec::new(),
            holdout_percent: 10,
            held_out: Vec::new(),
            out: PathBuf::new(),
            checkpoint: None,
            start: None,
            epochs,
            batch: 256,
            learning_rate: 0.01,
            decay: 0.9,
            patience: 100,
            seed: 3,
            residual: None,
            from_weights: None,
            linear_lanes: HIDDEN,
            weight_decay: 0.0,
            mobility: true,
            buckets: None,
            bucket_rate: 1.0,
            layer: false,
            row_rate: 1.0,
            threads,
            progress: false,
        }
    }

    #[test]
    fn a_small_network_learns_a_known_one_and_threads_change_nothing() {
        // The teacher: a network whose readouts are sizeable, so that its values spread.
        let mut teacher = Network::initial(11, true);
        teacher.readout.iter_mut().for_each(|w| *w *= 8.0);
        let samples = random_samples(12, 3000, &teacher);
        let (fitted, held_out) = (&Set::new(samples[..2700].to_vec(), None), &Set::new(samples[2700..].to_vec(), None));
        let baseline = errors(&Network::zeros(), held_out, 1).0;
        let run = |threads| {
            let mut state = State::start(Network::initial(request(threads, 10).seed, true));
            fit(&request(threads, 10), &mut state, fitted, held_out, &mut |_, _| Ok(()), &|_| {}).unwrap();
            state
        };
        let one = run(1);
        assert!(one.best_error < baseline * 0.5, "held-out error {} against {baseline} for zeros", one.best_error);
        let two = run(2);
        assert!(one == two, "the fit is the same on two threads");
    }

    #[test]
    fn a_correction_learns_what_the_pattern_weights_miss_and_decay_shrinks_the_rows() {
        // Scores that are the built-in weights' values plus a teacher network's: a correction
        // fitted over the weights finds the teacher's part.
        let weights = Weights::embedded();
        let mut teacher = Network::initial(31, true);
        teacher.readout.iter_mut().for_each(|w| *w *= 4.0);
        let mut samples = random_samples(32, 3000, &teacher);
        for s in &mut samples {
            let value = weights.evaluate(s.player, s.opponent) + i32::from(s.score);
            s.score = value.clamp(-6400, 6400) as i16;
        }
        let (fitted, held_out) =
            (Set::new(samples[..2700].to_vec(), Some(&weights)), Set::new(samples[2700..].to_vec(), Some(&weights)));
        let before = errors(&Network::zeros(), &held_out, 1).0;
        let fit_with = |decay: f32| {
            let mut request = request(2, 6);
            request.weight_decay = decay;
            let mut state = State::start(Network::initial_correction(3, weights.hash(), true));
            fit(&request, &mut state, &fitted, &held_out, &mut |_, _| Ok(()), &|_| {}).unwrap();
            state
        };
        let plain = fit_with(0.0);
        assert!(
            plain.best_error < before * 0.5,
            "held-out error {} against {before} for no correction",
            plain.best_error
        );
        assert_eq!(plain.best.base, weights.hash());
        // The size of the rows the samples read (the others are never touched).
        let read: std::collections::BTreeSet<u32> =
            fitted.samples.iter().flat_map(|s| rows().of(s.player, s.opponent)).collect();
        let size = |net: &Network| {
            read.iter()
                .flat_map(|&r| &net.transformer[r as usize * HIDDEN..(r as usize + 1) * HIDDEN])
                .map(|w| w.abs())
                .sum::<f32>()
        };
        let decayed = fit_with(20.0);
        assert!(size(&decayed.net) < 0.8 * size(&plain.net), "{} against {}", size(&decayed.net), size(&plain.net));
    }

    #[test]
    fn the_buckets_rows_move_at_their_share_of_the_step() {
        // Samples of one bucket only, so that a row read and its bucket's copy have the same
        // gradient: after one step (one batch, no decay) the copy, from 0, has moved
        // `bucket_rate` times as far as the shared row.
        let teacher = Network::initial(31, true);
        let buckets = 2;
        let all = random_samples(32, 600, &teacher);
        let first = phase_offset(all[0].empties(), buckets);
        let one_bucket: Vec<Sample> =
            all.iter().filter(|s| phase_offset(s.empties(), buckets) == first).copied().collect();
        let (fitted, held_out) =
            (Set::new(one_bucket[..64].to_vec(), None), Set::new(one_bucket[64..80].to_vec(), None));
        let start = Network::initial(3, true).with_buckets(buckets).unwrap();
        let offset = first.unwrap();
        for bucket_rate in [0.0, 0.25, 1.0] {
            let mut request = request(2, 1);
            request.bucket_rate = bucket_rate;
            let mut state = State::start(start.clone());
            fit(&request, &mut state, &fitted, &held_out, &mut |_, _| Ok(()), &|_| {}).unwrap();
            let mut moved = 0;
            for i in 0..offset * HIDDEN {
                let shared = state.net.transformer[i] - start.transformer[i];
                let copy = state.net.transformer[offset * HIDDEN + i];
                assert!(
                    (copy - bucket_rate * shared).abs() <= 1e-6,
                    "rate {bucket_rate}, weight {i}: {copy} against {shared}"
                );
                moved += usize::from(shared != 0.0);
            }
            assert!(moved > 0, "the shared rows moved");
        }
    }

    #[test]
    fn a_fit_resumed_from_its_checkpoint_ends_as_one_run() {
        let teacher = Network::initial(21, true);
        let samples = random_samples(22, 800, &teacher);
        let (fitted, held_out) = (&Set::new(samples[..700].to_vec(), None), &Set::new(samples[700..].to_vec(), None));
        // A network of stage buckets and a second layer, so that their tables and moments are
        // in the checkpoint.
        let start = || Network::initial(3, true).with_buckets(2).unwrap().with_layer(3);
        let mut straight = State::start(start());
        fit(&request(2, 4), &mut straight, fitted, held_out, &mut |_, _| Ok(()), &|_| {}).unwrap();
        assert!(straight.net.transformer[rows().count() * HIDDEN..].iter().any(|&w| w != 0.0), "the buckets moved");
        assert!(straight.net.stack.as_ref().unwrap().readout.iter().any(|&w| w != 0.0), "the layer learnt");
        let mut first = State::start(start());
        fit(&request(2, 2), &mut first, fitted, held_out, &mut |_, _| Ok(()), &|_| {}).unwrap();
        let mut resumed = State::from_bytes(&first.to_bytes()).unwrap();
        assert!(resumed == first, "a checkpoint round-trips");
        fit(&request(2, 4), &mut resumed, fitted, held_out, &mut |_, _| Ok(()), &|_| {}).unwrap();
        assert!(resumed == straight, "the resumed fit ends where one run does");
        // A damaged checkpoint is refused in one line.
        let mut bytes = first.to_bytes();
        bytes.truncate(bytes.len() - 3);
        let err = State::from_bytes(&bytes).unwrap_err();
        assert!(err.contains("cut short") && !err.contains('\n'), "{err}");
        assert!(State::from_bytes(b"MAGPIENN").unwrap_err().contains("not a Magpie network checkpoint"));
    }
}
