//! The network evaluation: the pattern features of [`super::pattern`] through a small neural
//! network, as the strongest engines evaluate (KUROOBI's NNUE over Egaroucid's patterns,
//! neural-reversi's network over its own).
//!
//! Each of the 76 pattern placements reads a row of [`HIDDEN`] numbers from its pattern's table (a
//! feature transformer: one row per class of configurations that the pattern's own symmetries
//! make alike, so that a position and its mirror images score the same); the rows and a bias are
//! summed into an accumulator, clipped to [0, 1] (a clipped ReLU), and read out by a linear layer
//! of the position's number of empties (61 of them, 0 to 60), whose bias also carries the side to
//! move's parity. The value is in discs for the side to move.
//!
//! A network may be fitted as a correction to a set of pattern weights (`magpie train-network
//! --residual`): its value is then added to theirs, so that it starts from the linear model and
//! learns only what that misses. Such a network names the weights by their hash and is read only
//! beside them.
//!
//! [`Network`] is the float model that `magpie train-network` fits, the reference. [`Quantized`]
//! is what the search reads: the transformer in 16-bit integers ([`ACTIVATION_SCALE`] to a unit),
//! one row per base-3 index so that a placement's lane indexes it directly, summed with saturating
//! adds and clipped, then read out in 32 bits; an SSE2 path (every x86-64 has it) and a portable
//! one give the same numbers, and both stay within a few centi-discs of the float model.
//!
//! A network may also read the position's mobility (`magpie train-network` fits one that does
//! unless told `--no-mobility`): one more row, of the pair (the side to move's legal moves, the
//! other side's), as the pattern weights' mobility table reads it.
//!
//! With stage buckets ([`Network::buckets`]), each range of empties adds a table of its own to
//! the shared one; the search reads one table a bucket, the two summed, so that it costs nothing
//! in speed.
//!
//! A network may also have a second layer ([`Stack`], `train-network --layer`), a layer stack per
//! number of empties as neural-reversi has: the [`HIDDEN`] clipped units feed [`LAYER`] more
//! (their weights and biases that stage's own), clipped in turn, and the readout reads both the
//! first units and these. Its readout of the second units starts at 0, so that a network given a
//! layer scores as before and the fit finds what the layer adds: what a sum of rows cannot say.
//!
//! The file (`MAGPIENN`, version 5): the magic, the version, the hidden width, the rows, the
//! stages, the inputs (0 the patterns, 1 the patterns and mobility), the stage buckets, the second
//! layer's width (0 for none), a hash of the pattern layout and the hash of the pattern weights it
//! corrects, 0 for none (u32 and u64, little-endian), then the float weights (the transformer by
//! rows, table by table, its bias, the readouts by empties, their biases, then the layer's
//! weights, biases and readouts by empties), then an FNV-1a checksum of everything before it.
//! Version 4 is the same without the layer's word (none), version 3 without the buckets' either
//! (one). A file of another layout, cut short or damaged is refused.

use super::pattern::{
    FEATURE_OFFSET, FEATURES, LANES, MOBILITY, MOBILITY_MAX, OFFSETS, PATTERNS, canonical_indices, mobility_index_of,
};
use super::weights::Weights;
use crate::board::movegen::legal_moves;
use crate::rng::Rng;
use std::sync::LazyLock;

/// The width of the accumulator: 8, as measured against 4 and 16 (docs/experiments.md,
/// 2026-12-07): as accurate as 16 held out with half the table, and so a faster search. The
/// quantized network's storage and its vector path take 4 or 8.
pub const HIDDEN: usize = 8;
const _: () = assert!(HIDDEN == 4 || HIDDEN == 8);

/// The width of the second layer ([`Stack`]), when a network has one.
pub const LAYER: usize = 8;
// The vector path sums the layer's units four at a time and packs them into one register.
const _: () = assert!(LAYER == 8);

/// What 1.0 of a second-layer weight is in the quantized network: its sum over the [`HIDDEN`]
/// clipped units (at most [`ACTIVATION_SCALE`] each) fits i32.
pub const LAYER_SCALE: i32 = 1024;
// The second readout's sum of LAYER clipped units times i16 weights fits i32 too.
const _: () = assert!(LAYER as i64 * ACTIVATION_SCALE as i64 * 32767 <= i32::MAX as i64);

/// Readouts: one for each number of empties, 0 to 60.
pub const STAGES: usize = 61;

/// The most stage buckets a network may have (see [`Network::buckets`]).
pub const MAX_BUCKETS: usize = 15;

/// The stage bucket of a position with `empties` empty squares among `buckets`: equal ranges of
/// the numbers of empties 0 to 60, the first bucket the fewest.
#[inline]
pub fn bucket(empties: u32, buckets: usize) -> usize {
    (empties as usize).min(STAGES - 1) * buckets / STAGES
}

/// What 1.0 of the accumulator is in the quantized transformer: a row or a sum of rows holds up
/// to ±8 (the clip needs only 0 to 1), in steps of 1/4096. At 256 the rows of a network started
/// from the pattern weights (`train-network --from-weights`), whose lanes span the linear model's
/// values inside the clip, rounded to about 5 discs² more held-out error than the float model's
/// from 30 empties up; at 4096, within 0.05 (docs/experiments.md).
pub const ACTIVATION_SCALE: i32 = 4096;

// The readout's sum of HIDDEN clipped units (at most ACTIVATION_SCALE) times i16 weights fits i32.
const _: () = assert!(HIDDEN as i64 * ACTIVATION_SCALE as i64 * 32767 <= i32::MAX as i64);

/// What 1.0 of a readout weight is in the quantized readout.
pub const READOUT_SCALE: i32 = 64;

/// The largest readout weight the quantized network holds, in float units.
pub const READOUT_BOUND: f32 = 32767.0 / READOUT_SCALE as f32;

/// The mobility input's rows, one for each pair (the side to move's legal moves, the other
/// side's), each counted up to [`MOBILITY_MAX`], as the pattern weights' mobility table has.
pub const MOBILITY_ROWS: usize = ((MOBILITY_MAX + 1) * (MOBILITY_MAX + 1)) as usize;

/// The inputs a position reads at most: its 76 pattern placements and its mobility.
pub const INPUTS: usize = FEATURES + 1;

const MAGIC: &[u8; 8] = b"MAGPIENN";
const VERSION: u32 = 5;

/// For every feature index (a pattern's offset plus a base-3 index, as [`FEATURE_OFFSET`] and the
/// lanes of [`super::pattern::Features`] make them), the row of the transformer it reads; the
/// mobility rows after the patterns'; and the number of rows.
pub struct Rows {
    row_of: Vec<u32>,
    patterns: usize,
    count: usize,
}

impl Rows {
    fn new() -> Rows {
        let canonical = canonical_indices();
        let total = OFFSETS[PATTERNS.len() - 1] + PATTERNS[PATTERNS.len() - 1].size();
        let mut row_of = vec![0u32; total];
        let mut count = 0u32;
        for (p, classes) in canonical.iter().enumerate() {
            // Each class's row, numbered in the order of its smallest index.
            let mut first_row = vec![u32::MAX; classes.len()];
            for (index, &class) in classes.iter().enumerate() {
                let class = class as usize;
                if first_row[class] == u32::MAX {
                    first_row[class] = count;
                    count += 1;
                }
                row_of[OFFSETS[p] + index] = first_row[class];
            }
        }
        Rows { row_of, patterns: count as usize, count: count as usize + MOBILITY_ROWS }
    }

    /// The row of feature index `index`.
    #[inline]
    pub fn row(&self, index: usize) -> usize {
        self.row_of[index] as usize
    }

    /// The row of the mobility table's cell `cell` ([`mobility_cell`]).
    #[inline]
    pub fn mobility_row(&self, cell: usize) -> usize {
        self.patterns + cell
    }

    /// The number of rows.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The rows of a position's inputs, from the lanes of its [`super::pattern::Features`] and
    /// its cell of the mobility table ([`mobility_cell`]).
    #[inline]
    pub fn of_lanes(&self, lanes: &[u16; LANES], mobility: usize) -> [u32; INPUTS] {
        std::array::from_fn(|n| match n {
            FEATURES => (self.patterns + mobility) as u32,
            _ => self.row_of[FEATURE_OFFSET[n] as usize + lanes[n] as usize],
        })
    }

    /// The rows of the side to move's discs `player` against `opponent`.
    pub fn of(&self, player: u64, opponent: u64) -> [u32; INPUTS] {
        let mobility = mobility_cell(legal_moves(player, opponent), legal_moves(opponent, player));
        self.of_lanes(&super::pattern::Features::new(player, opponent).player, mobility)
    }
}

/// The cell of the mobility table of a position whose side to move has the legal moves `mine`
/// and the other side `theirs`: 0 to [`MOBILITY_ROWS`] - 1.
#[inline]
pub fn mobility_cell(mine: u64, theirs: u64) -> usize {
    mobility_index_of(mine, theirs) - MOBILITY
}

/// The rows of the pattern layout, built once.
pub fn rows() -> &'static Rows {
    static ROWS: LazyLock<Rows> = LazyLock::new(Rows::new);
    &ROWS
}

/// A hash of the pattern layout (the patterns' squares and placements): a network file fitted to
/// other patterns is refused.
pub fn layout_hash() -> u64 {
    let mut hash = Fnv::new();
    for pattern in &PATTERNS {
        hash.write(pattern.squares);
        hash.write(&[0xff]);
        hash.write(pattern.symmetries);
        hash.write(&[0xfe]);
    }
    hash.write(&(rows().count() as u64).to_le_bytes());
    hash.finish()
}

/// FNV-1a, for the layout hash and the file's checksum.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The tables of a transformer of `buckets` stage buckets: the shared one, and one a bucket if
/// there are several.
#[inline]
pub fn blocks(buckets: usize) -> usize {
    if buckets > 1 { 1 + buckets } else { 1 }
}

/// Where the rows of bucket `b`'s own table start among a transformer's rows, if it has stage
/// buckets.
#[inline]
fn bucket_offset(b: usize, buckets: usize) -> Option<usize> {
    (buckets > 1).then(|| (1 + b) * rows().count())
}

/// Where the rows of the bucket of a position with `empties` start among a transformer's rows,
/// if it has stage buckets.
#[inline]
pub fn phase_offset(empties: u32, buckets: usize) -> Option<usize> {
    bucket_offset(bucket(empties, buckets), buckets)
}

/// The float network: the model that is fitted, and the reference the quantized one is checked
/// against.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// The transformer: [`HIDDEN`] numbers a row, rows in the order of [`Rows`]; with more than
    /// one stage bucket, the shared table and then each bucket's own, one after the other.
    pub transformer: Vec<f32>,
    /// The stage buckets: with more than one, a position reads its rows from the shared table
    /// and from its bucket's ([`bucket`]), summed; the search reads one table a bucket, the two
    /// added. Each bucket's rows start at 0 and shrink back toward the shared ones under the
    /// weight decay, so that a configuration seen rarely in a bucket keeps the shared value.
    pub buckets: usize,
    /// The accumulator's bias.
    pub bias: [f32; HIDDEN],
    /// The readout of each number of empties: [`HIDDEN`] weights each.
    pub readout: Vec<f32>,
    /// The readouts' biases, in discs.
    pub readout_bias: Vec<f32>,
    /// The hash of the pattern weights whose value this network's is added to, 0 if it stands
    /// alone.
    pub base: u64,
    /// Whether the position's mobility is an input (its rows stay unread, and at 0, if not).
    pub mobility: bool,
    /// The second layer, if it has one.
    pub stack: Option<Stack>,
}

/// The second layer of a network: for each number of empties, [`LAYER`] units, each a weighted
/// sum of the [`HIDDEN`] clipped first units plus a bias, clipped, and their readout.
#[derive(Clone, Debug, PartialEq)]
pub struct Stack {
    /// `weights[(stage * LAYER + j) * HIDDEN + k]`: unit `j`'s weight of first unit `k`.
    pub weights: Vec<f32>,
    /// `bias[stage * LAYER + j]`.
    pub bias: Vec<f32>,
    /// `readout[stage * LAYER + j]`, in discs.
    pub readout: Vec<f32>,
}

impl Stack {
    /// A layer of zeros.
    pub fn zeros() -> Stack {
        Stack {
            weights: vec![0.0; STAGES * LAYER * HIDDEN],
            bias: vec![0.0; STAGES * LAYER],
            readout: vec![0.0; STAGES * LAYER],
        }
    }

    /// The number of floats it holds.
    fn len() -> usize {
        STAGES * LAYER * (HIDDEN + 2)
    }

    /// Its floats in the file's order.
    fn parts(&self) -> [&[f32]; 3] {
        [&self.weights, &self.bias, &self.readout]
    }
}

/// What a forward pass keeps for the backward one.
#[derive(Clone, Copy, Debug)]
pub struct Forward {
    /// The accumulator before the clip.
    pub accumulator: [f32; HIDDEN],
    /// The second layer's units before their clip (0 without one).
    pub layer: [f32; LAYER],
    /// The value, in discs.
    pub value: f32,
}

/// The clipped ReLU.
#[inline]
pub fn activation(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

impl Network {
    /// A network of zeros: it scores every position 0.
    pub fn zeros() -> Network {
        Network {
            transformer: vec![0.0; rows().count() * HIDDEN],
            buckets: 1,
            bias: [0.0; HIDDEN],
            readout: vec![0.0; STAGES * HIDDEN],
            readout_bias: vec![0.0; STAGES],
            base: 0,
            mobility: true,
            stack: None,
        }
    }

    /// The network with a second layer: itself if it has one, or the same network with one whose
    /// weights are drawn from `seed`, its biases at half the clip and its readouts at 0 (so that it
    /// scores every position the same).
    pub fn with_layer(&self, seed: u64) -> Network {
        let mut net = self.clone();
        if net.stack.is_none() {
            let mut rng = Rng::new(seed ^ 0x004c_4159_4552);
            let mut stack = Stack::zeros();
            for w in &mut stack.weights {
                // Uniform in [-0.5, 0.5).
                *w = (rng.next_u64() >> 11) as f32 / (1u64 << 53) as f32 - 0.5;
            }
            stack.bias.fill(0.5);
            net.stack = Some(stack);
        }
        net
    }

    /// The tables of the transformer: the shared one, and each bucket's if there are several.
    #[inline]
    pub fn blocks(&self) -> usize {
        blocks(self.buckets)
    }

    /// The network with `buckets` stage buckets: itself if it has them, or, from a network of
    /// one, the same network with each bucket's table at 0 (it scores every position the same).
    pub fn with_buckets(&self, buckets: usize) -> Result<Network, String> {
        if buckets == self.buckets {
            return Ok(self.clone());
        }
        if self.buckets != 1 || !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(format!(
                "a network of {} stage bucket{} cannot be made one of {buckets} (only one of 1 can, to at most {MAX_BUCKETS})",
                self.buckets,
                if self.buckets == 1 { "" } else { "s" }
            ));
        }
        let mut net = self.clone();
        net.buckets = buckets;
        net.transformer.resize(blocks(buckets) * rows().count() * HIDDEN, 0.0);
        Ok(net)
    }

    /// The inputs it reads: the pattern placements, and the mobility if it is one.
    #[inline]
    pub fn inputs(&self) -> usize {
        FEATURES + usize::from(self.mobility)
    }

    /// A network to start a fit from: small random transformer rows (seeded; the mobility rows at
    /// 0 if it does not read them), the bias at half the clip so that every unit starts alive, and
    /// readouts of both signs.
    pub fn initial(seed: u64, mobility: bool) -> Network {
        let mut rng = Rng::new(seed);
        let mut uniform = |scale: f32| (rng.next_u64() >> 11) as f32 / (1u64 << 53) as f32 * 2.0 * scale - scale;
        let mut net = Network::zeros();
        net.mobility = mobility;
        let filled = if mobility { rows().count() } else { rows().patterns } * HIDDEN;
        for w in &mut net.transformer[..filled] {
            *w = uniform(0.02);
        }
        net.bias = [0.5; HIDDEN];
        for w in &mut net.readout {
            *w = uniform(1.0);
        }
        net
    }

    /// A network to start a correction of the pattern weights of hash `base` from: as
    /// [`Network::initial`], with readouts a tenth as large, so that it starts near 0.
    pub fn initial_correction(seed: u64, base: u64, mobility: bool) -> Network {
        let mut net = Network::initial(seed, mobility);
        net.readout.iter_mut().for_each(|w| *w *= 0.1);
        net.base = base;
        net
    }

    /// The forward pass over a position's input rows (the mobility's read only if it is an
    /// input), for a position with `empties` empty squares.
    #[inline]
    pub fn forward(&self, rows: &[u32; INPUTS], empties: u32) -> Forward {
        let mut accumulator = self.bias;
        let mut add = |row: usize| {
            let start = row * HIDDEN;
            for (a, w) in accumulator.iter_mut().zip(&self.transformer[start..start + HIDDEN]) {
                *a += w;
            }
        };
        let phase = phase_offset(empties, self.buckets);
        for &row in &rows[..self.inputs()] {
            add(row as usize);
            if let Some(offset) = phase {
                add(offset + row as usize);
            }
        }
        let stage = (empties as usize).min(STAGES - 1);
        let readout = &self.readout[stage * HIDDEN..(stage + 1) * HIDDEN];
        let mut value =
            self.readout_bias[stage] + accumulator.iter().zip(readout).map(|(&a, &w)| activation(a) * w).sum::<f32>();
        let mut layer = [0f32; LAYER];
        if let Some(stack) = &self.stack {
            for (j, unit) in layer.iter_mut().enumerate() {
                let at = stage * LAYER + j;
                let weights = &stack.weights[at * HIDDEN..(at + 1) * HIDDEN];
                *unit = stack.bias[at] + accumulator.iter().zip(weights).map(|(&a, &w)| activation(a) * w).sum::<f32>();
                value += activation(*unit) * stack.readout[at];
            }
        }
        Forward { accumulator, layer, value }
    }

    /// The value of the side to move's discs `player` against `opponent`, in discs.
    pub fn evaluate(&self, player: u64, opponent: u64) -> f32 {
        let empties = 64 - (player | opponent).count_ones();
        self.forward(&rows().of(player, opponent), empties).value
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(48 + 4 * (self.transformer.len() + self.readout.len() + 2 * STAGES));
        out.extend_from_slice(MAGIC);
        let words = [
            VERSION,
            HIDDEN as u32,
            rows().count() as u32,
            STAGES as u32,
            u32::from(self.mobility),
            self.buckets as u32,
            if self.stack.is_some() { LAYER as u32 } else { 0 },
        ];
        for n in words {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&layout_hash().to_le_bytes());
        out.extend_from_slice(&self.base.to_le_bytes());
        let stack = self.stack.as_ref().map_or([&[][..]; 3], Stack::parts);
        for parts in
            [&self.transformer[..], &self.bias[..], &self.readout[..], &self.readout_bias[..]].iter().chain(&stack)
        {
            for w in *parts {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        let mut hash = Fnv::new();
        hash.write(&out);
        out.extend_from_slice(&hash.finish().to_le_bytes());
        out
    }

    /// The network of a file's bytes, or what is wrong with them.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err("not a Magpie network file (it does not start with MAGPIENN)".to_string());
        }
        let word = |at: usize| bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        // Version 4 is version 5 without the layer's word (none), version 3 without the buckets'
        // either (one).
        let (buckets, layer, hashes) = match word(8) {
            Some(VERSION) => (word(28).map(|b| b as usize), word(32), 36),
            Some(4) => (word(28).map(|b| b as usize), Some(0), 32),
            Some(3) => (Some(1), Some(0), 28),
            Some(v) => return Err(format!("network file version {v}; this build reads versions 3 to {VERSION}")),
            None => return Err("cut short: no version".to_string()),
        };
        let header = hashes + 16;
        let (Some(hidden), Some(count), Some(stages)) = (word(12), word(16), word(20)) else {
            return Err("cut short: no shape".to_string());
        };
        if (hidden, count, stages) != (HIDDEN as u32, rows().count() as u32, STAGES as u32) {
            return Err(format!(
                "a network of another shape (hidden {hidden}, rows {count}, stages {stages}; this build has {HIDDEN}, {}, \
                 {STAGES})",
                rows().count()
            ));
        }
        let buckets = match buckets {
            Some(b) if (1..=MAX_BUCKETS).contains(&b) => b,
            Some(b) => return Err(format!("{b} stage buckets; this build reads 1 to {MAX_BUCKETS}")),
            None => return Err("cut short: no stage buckets".to_string()),
        };
        let layered = match layer {
            Some(0) => false,
            Some(w) if w as usize == LAYER => true,
            Some(w) => return Err(format!("a second layer of {w} units; this build's has {LAYER}")),
            None => return Err("cut short: no second layer's width".to_string()),
        };
        let table = blocks(buckets) * rows().count() * HIDDEN;
        let floats = table + HIDDEN + STAGES * HIDDEN + STAGES + if layered { Stack::len() } else { 0 };
        let expected = header + 4 * floats + 8;
        if bytes.len() != expected {
            return Err(format!("{} bytes where a network file has {expected}: cut short or padded", bytes.len()));
        }
        let mobility = match word(24) {
            Some(0) => false,
            Some(1) => true,
            other => return Err(format!("an unknown set of inputs ({other:?}; this build reads 0 and 1)")),
        };
        let layout = u64::from_le_bytes(bytes[hashes..hashes + 8].try_into().unwrap_or_default());
        if layout != layout_hash() {
            return Err("fitted to other patterns than this build's".to_string());
        }
        let mut hash = Fnv::new();
        hash.write(&bytes[..expected - 8]);
        if hash.finish().to_le_bytes() != bytes[expected - 8..] {
            return Err("the network is damaged (its checksum does not match)".to_string());
        }
        let mut values =
            bytes[header..expected - 8].chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<f32>>();
        let transformer = take(table);
        let bias: [f32; HIDDEN] = take(HIDDEN).try_into().map_err(|_| "cut short".to_string())?;
        let readout = take(STAGES * HIDDEN);
        let readout_bias = take(STAGES);
        let stack = layered.then(|| Stack {
            weights: take(STAGES * LAYER * HIDDEN),
            bias: take(STAGES * LAYER),
            readout: take(STAGES * LAYER),
        });
        let base = u64::from_le_bytes(bytes[hashes + 8..hashes + 16].try_into().unwrap_or_default());
        let net = Network { transformer, buckets, bias, readout, readout_bias, base, mobility, stack };
        let stack = net.stack.as_ref().map_or([&[][..]; 3], Stack::parts);
        if [&net.transformer[..], &net.bias[..], &net.readout[..], &net.readout_bias[..]]
            .iter()
            .chain(&stack)
            .any(|part| part.iter().any(|w| !w.is_finite()))
        {
            return Err("the network holds a weight that is not a number".to_string());
        }
        Ok(net)
    }

    /// Reads a network file, naming it in the error.
    pub fn read(path: &std::path::Path) -> Result<Network, String> {
        let bytes = crate::quote::read_file(path)?;
        Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The network as the search reads it (see the module's doc). Two are equal when their float
/// networks' files are.
pub struct Quantized {
    /// One row a feature index, [`HIDDEN`] 16-bit numbers each, [`ACTIVATION_SCALE`] to a unit,
    /// then the mobility rows; a table of those a stage bucket, each the shared rows and the
    /// bucket's added.
    transformer: Vec<Line>,
    /// The stage buckets.
    buckets: usize,
    /// The rows of a bucket's table.
    bucket_len: usize,
    bias: [i16; HIDDEN],
    /// The readouts, [`READOUT_SCALE`] to a unit.
    readout: Vec<[i16; HIDDEN]>,
    /// The readouts' biases, in centi-discs.
    readout_bias: Vec<i32>,
    /// The checksum of the float network's file: two quantized networks of one hash are one.
    hash: u64,
    /// The hash of the pattern weights it corrects, 0 if none.
    base: u64,
    /// Whether it reads the mobility: its rows are the transformer's last [`MOBILITY_ROWS`].
    mobility: bool,
    /// The second layer, if any.
    stack: Option<QuantizedStack>,
}

/// The quantized second layer, by numbers of empties.
struct QuantizedStack {
    /// `weights[stage * LAYER + j]`: unit `j`'s weights, [`LAYER_SCALE`] to a unit.
    weights: Vec<Row>,
    /// The units' biases, [`ACTIVATION_SCALE`] to a unit.
    bias: Vec<[i32; LAYER]>,
    /// The readouts, [`READOUT_SCALE`] to a unit.
    readout: Vec<[i16; LAYER]>,
}

/// The quantized transformer's storage: 64-byte cache lines, each holding whole rows, so that
/// reading a row touches one line, not two, whatever the allocator returns (a vector of rows
/// would be sure only of the 2-byte alignment of i16).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Line([i16; LINE]);

/// The 16-bit numbers of a [`Line`].
const LINE: usize = 32;
const _: () = assert!(LINE.is_multiple_of(HIDDEN));

/// A row of the quantized transformer.
type Row = [i16; HIDDEN];

fn quantize(w: f32, scale: i32) -> i16 {
    (w * scale as f32).round().clamp(-32767.0, 32767.0) as i16
}

impl Quantized {
    /// The quantized form of `net`.
    pub fn new(net: &Network) -> Quantized {
        let rows = rows();
        let mut table: Vec<Row> = Vec::new();
        for b in 0..net.buckets {
            // The bucket's value of a row: the shared one, plus the bucket's own.
            let phase = bucket_offset(b, net.buckets);
            let value = |row: usize, h: usize| {
                net.transformer[row * HIDDEN + h] + phase.map_or(0.0, |p| net.transformer[(p + row) * HIDDEN + h])
            };
            let row = |row: usize| -> Row { std::array::from_fn(|h| quantize(value(row, h), ACTIVATION_SCALE)) };
            table.extend((0..rows.row_of.len()).map(|index| row(rows.row(index))));
            table.extend((0..MOBILITY_ROWS).map(|cell| row(rows.patterns + cell)));
        }
        let transformer = table
            .chunks(LINE / HIDDEN)
            .map(|rows| {
                let mut line = Line([0; LINE]);
                for (cells, row) in line.0.chunks_exact_mut(HIDDEN).zip(rows) {
                    cells.copy_from_slice(row);
                }
                line
            })
            .collect();
        Quantized {
            transformer,
            buckets: net.buckets,
            bucket_len: rows.row_of.len() + MOBILITY_ROWS,
            bias: std::array::from_fn(|h| quantize(net.bias[h], ACTIVATION_SCALE)),
            readout: (0..STAGES)
                .map(|s| std::array::from_fn(|h| quantize(net.readout[s * HIDDEN + h], READOUT_SCALE)))
                .collect(),
            readout_bias: net.readout_bias.iter().map(|b| (b * 100.0).round() as i32).collect(),
            hash: {
                let mut hash = Fnv::new();
                hash.write(&net.to_bytes());
                hash.finish()
            },
            base: net.base,
            mobility: net.mobility,
            stack: net.stack.as_ref().map(|stack| QuantizedStack {
                weights: (0..STAGES * LAYER)
                    .map(|at| std::array::from_fn(|k| quantize(stack.weights[at * HIDDEN + k], LAYER_SCALE)))
                    .collect(),
                bias: (0..STAGES)
                    .map(|s| {
                        std::array::from_fn(|j| {
                            // Past ±4096 units a bias only saturates its unit: kept well inside i32.
                            let bias = (stack.bias[s * LAYER + j] * ACTIVATION_SCALE as f32).round();
                            bias.clamp(-16_777_216.0, 16_777_216.0) as i32
                        })
                    })
                    .collect(),
                readout: (0..STAGES)
                    .map(|s| std::array::from_fn(|j| quantize(stack.readout[s * LAYER + j], READOUT_SCALE)))
                    .collect(),
            }),
        }
    }

    /// The hash of the pattern weights whose value this network's is added to, 0 if it stands
    /// alone.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// Whether the network can be read beside `weights`: one fitted as a correction only beside
    /// the weights it corrects.
    pub fn check_base(&self, weights: &Weights) -> Result<(), String> {
        if self.base != 0 && self.base != weights.hash() {
            return Err(format!(
                "the network corrects other pattern weights (hash {:016x}) than these ({:016x})",
                self.base,
                weights.hash()
            ));
        }
        Ok(())
    }

    /// A hash of the network: the search's table is cleared when the evaluation changes.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The index in its bucket's table of the mobility row of the side to move's discs `player`
    /// with legal `moves` against `opponent`, if the network reads mobility.
    #[inline]
    fn mobility_row(&self, player: u64, opponent: u64, moves: u64) -> Option<usize> {
        let first = self.bucket_len - MOBILITY_ROWS;
        self.mobility.then(|| first + mobility_cell(moves, legal_moves(opponent, player)))
    }

    /// The rows of the table of the bucket of a position with `empties` empty squares.
    #[inline]
    fn table(&self, empties: u32) -> &[Row] {
        // SAFETY: a line is LINE / HIDDEN rows, laid out one after another with no padding (both
        // are arrays of i16), and a row's alignment (2) divides a line's.
        let rows: &[Row] = unsafe {
            std::slice::from_raw_parts(self.transformer.as_ptr().cast(), self.transformer.len() * (LINE / HIDDEN))
        };
        let start = bucket(empties, self.buckets) * self.bucket_len;
        &rows[start..start + self.bucket_len]
    }

    /// The value in centi-discs of the position whose features' lanes are `lanes`, the side to
    /// move's discs `player` with legal `moves` against `opponent`.
    #[inline]
    pub fn evaluate(&self, lanes: &[u16; LANES], player: u64, opponent: u64, moves: u64) -> i32 {
        let empties = 64 - (player | opponent).count_ones();
        let mobility = self.mobility_row(player, opponent, moves);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of x86-64.
        unsafe {
            self.evaluate_sse2(lanes, mobility, empties)
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.sum_portable(lanes, mobility, empties)
    }

    /// [`Quantized::evaluate`] without vector instructions: the reference of the fast paths.
    pub fn evaluate_portable(&self, lanes: &[u16; LANES], player: u64, opponent: u64, moves: u64) -> i32 {
        let empties = 64 - (player | opponent).count_ones();
        self.sum_portable(lanes, self.mobility_row(player, opponent, moves), empties)
    }

    fn sum_portable(&self, lanes: &[u16; LANES], mobility: Option<usize>, empties: u32) -> i32 {
        let mut accumulator = self.bias;
        let table = self.table(empties);
        let indices = (0..FEATURES).map(|n| FEATURE_OFFSET[n] as usize + lanes[n] as usize);
        for index in indices.chain(mobility) {
            for (a, &w) in accumulator.iter_mut().zip(&table[index]) {
                *a = a.saturating_add(w);
            }
        }
        let stage = (empties as usize).min(STAGES - 1);
        let clipped = accumulator.map(|a| a.clamp(0, ACTIVATION_SCALE as i16));
        let sum: i32 = clipped.iter().zip(&self.readout[stage]).map(|(&a, &w)| i32::from(a) * i32::from(w)).sum();
        let layer_sum = self.stack.as_ref().map_or(0, |stack| {
            (0..LAYER)
                .map(|j| {
                    let weights = &stack.weights[stage * LAYER + j];
                    let pre: i32 = clipped.iter().zip(weights).map(|(&a, &w)| i32::from(a) * i32::from(w)).sum();
                    let unit =
                        ((pre >> LAYER_SCALE.trailing_zeros()) + stack.bias[stage][j]).clamp(0, ACTIVATION_SCALE);
                    unit * i32::from(stack.readout[stage][j])
                })
                .sum()
        });
        self.readout_bias[stage] + scale_down(i64::from(sum) + i64::from(layer_sum))
    }

    /// [`Quantized::evaluate`] with SSE2, which every x86-64 processor has: one 128-bit register
    /// holds the accumulator. (Wider registers, AVX2's or AVX-512's, would hold two or four
    /// accumulators, and one position has one: they would not be faster.)
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "sse2")]
    #[inline]
    fn evaluate_sse2(&self, lanes: &[u16; LANES], mobility: Option<usize>, empties: u32) -> i32 {
        use std::arch::x86_64::*;
        let load = |row: &Row| {
            // SAFETY: SSE2 is part of x86-64; the loads are unaligned and read the row's 16 (8
            // lanes) or 8 bytes (4 lanes, the register's upper half set to 0).
            unsafe {
                if HIDDEN == 8 { _mm_loadu_si128(row.as_ptr().cast()) } else { _mm_loadl_epi64(row.as_ptr().cast()) }
            }
        };
        let mut accumulator = load(&self.bias);
        let table = self.table(empties);
        for n in 0..FEATURES {
            let row = &table[FEATURE_OFFSET[n] as usize + lanes[n] as usize];
            accumulator = _mm_adds_epi16(accumulator, load(row));
        }
        if let Some(index) = mobility {
            accumulator = _mm_adds_epi16(accumulator, load(&table[index]));
        }
        let clipped =
            _mm_min_epi16(_mm_max_epi16(accumulator, _mm_setzero_si128()), _mm_set1_epi16(ACTIVATION_SCALE as i16));
        let stage = (empties as usize).min(STAGES - 1);
        // Pairs multiplied and added into 4 i32 lanes (the upper two 0 with 4 lanes), then
        // summed: at most HIDDEN × 4096 × 32767, below 2³¹ (checked where ACTIVATION_SCALE is).
        let horizontal = |v: __m128i| {
            let pairs = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0b01_00_11_10));
            _mm_cvtsi128_si32(_mm_add_epi32(pairs, _mm_shuffle_epi32(pairs, 0b10_11_00_01)))
        };
        let sum = horizontal(_mm_madd_epi16(clipped, load(&self.readout[stage])));
        let layer_sum = self.stack.as_ref().map_or(0, |stack| {
            // Each unit's products in four i32 lanes, then four units' summed at once: two
            // interleaves and adds make [u0, u1, u2, u3] of four units' lanes.
            let unit = |j: usize| _mm_madd_epi16(clipped, load(&stack.weights[stage * LAYER + j]));
            let four = |j: usize| {
                let (a, b, c, d) = (unit(j), unit(j + 1), unit(j + 2), unit(j + 3));
                let ab = _mm_add_epi32(_mm_unpacklo_epi32(a, b), _mm_unpackhi_epi32(a, b));
                let cd = _mm_add_epi32(_mm_unpacklo_epi32(c, d), _mm_unpackhi_epi32(c, d));
                _mm_add_epi32(_mm_unpacklo_epi64(ab, cd), _mm_unpackhi_epi64(ab, cd))
            };
            // SAFETY: the biases are 8 i32, read as two unaligned loads of 4.
            let (low, high) = unsafe {
                let bias = stack.bias[stage].as_ptr().cast::<__m128i>();
                (_mm_loadu_si128(bias), _mm_loadu_si128(bias.add(1)))
            };
            let shift = _mm_cvtsi32_si128(LAYER_SCALE.trailing_zeros() as i32);
            let low = _mm_add_epi32(_mm_sra_epi32(four(0), shift), low);
            let high = _mm_add_epi32(_mm_sra_epi32(four(4), shift), high);
            // Packed to i16 with saturation, then clipped: the same as clipping the i32 sums.
            let units = _mm_min_epi16(
                _mm_max_epi16(_mm_packs_epi32(low, high), _mm_setzero_si128()),
                _mm_set1_epi16(ACTIVATION_SCALE as i16),
            );
            // SAFETY: the readout is 8 i16, an unaligned load.
            let readout = unsafe { _mm_loadu_si128(stack.readout[stage].as_ptr().cast()) };
            horizontal(_mm_madd_epi16(units, readout))
        });
        self.readout_bias[stage] + scale_down(i64::from(sum) + i64::from(layer_sum))
    }
}

impl PartialEq for Quantized {
    fn eq(&self, other: &Quantized) -> bool {
        self.hash == other.hash
    }
}

impl std::fmt::Debug for Quantized {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Quantized {{ hash: {:016x}, base: {:016x} }}", self.hash, self.base)
    }
}

/// A readout's sum (accumulator units times readout units) in centi-discs, rounded toward zero.
#[inline]
fn scale_down(sum: i64) -> i32 {
    (sum * 100 / i64::from(ACTIVATION_SCALE * READOUT_SCALE)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::board::symmetry::image;
    use crate::eval::pattern::Features;

    fn random_positions(seed: u64, count: usize) -> Vec<Position> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut pos = Position::initial();
            let plies = rng.below(58);
            for _ in 0..plies {
                let moves: Vec<_> = pos.legal_moves().iter().collect();
                if moves.is_empty() {
                    if pos.is_game_over() {
                        break;
                    }
                    pos = pos.pass();
                    continue;
                }
                pos = pos.play(moves[rng.below(moves.len())]);
            }
            out.push(pos);
        }
        out
    }

    /// A network with every weight random and sizeable, so that every unit is exercised.
    fn busy_network(seed: u64) -> Network {
        busy_network_of(seed, 1)
    }

    /// [`busy_network`] with `buckets` stage buckets, each table random.
    fn busy_network_of(seed: u64, buckets: usize) -> Network {
        let mut net = Network::initial(seed, true).with_buckets(buckets).unwrap();
        let mut rng = Rng::new(seed ^ 0x55);
        for w in &mut net.transformer {
            *w = (rng.below(2001) as f32 - 1000.0) / 4000.0;
        }
        for (s, b) in net.readout_bias.iter_mut().enumerate() {
            *b = s as f32 / 10.0 - 3.0;
        }
        net
    }

    /// [`busy_network_of`] with a second layer whose readouts and biases are sizeable too.
    fn busy_layered_network(seed: u64, buckets: usize) -> Network {
        let mut net = busy_network_of(seed, buckets).with_layer(seed);
        let mut rng = Rng::new(seed ^ 0x77);
        let stack = net.stack.as_mut().unwrap();
        for w in &mut stack.readout {
            *w = (rng.below(2001) as f32 - 1000.0) / 250.0;
        }
        for b in &mut stack.bias {
            *b = (rng.below(2001) as f32 - 1000.0) / 1000.0;
        }
        net
    }

    #[test]
    fn a_second_layer_starts_silent_and_then_counts() {
        let net = busy_network(41);
        let layered = net.with_layer(3);
        assert!(layered.with_layer(4) == layered, "a network with a layer keeps it");
        let busy = busy_layered_network(41, 1);
        let (q, q_layered, q_busy) = (Quantized::new(&net), Quantized::new(&layered), Quantized::new(&busy));
        let mut changed = 0;
        for pos in random_positions(43, 60) {
            let (player, opponent) = (pos.player(), pos.opponent());
            assert_eq!(net.evaluate(player, opponent), layered.evaluate(player, opponent), "{pos}");
            assert_eq!(quantized_value(&q, player, opponent), quantized_value(&q_layered, player, opponent));
            changed += usize::from(quantized_value(&q_busy, player, opponent) != quantized_value(&q, player, opponent));
        }
        assert!(changed > 50, "a layer with readouts changes the values ({changed} of 60)");
    }

    #[test]
    fn every_index_has_a_row_and_mirror_configurations_share_it() {
        let rows = rows();
        assert!(rows.count() > 100_000 && rows.count() < rows.row_of.len(), "{}", rows.count());
        assert!(rows.row_of.iter().all(|&r| (r as usize) < rows.count()));
        let canonical = canonical_indices();
        for (p, classes) in canonical.iter().enumerate() {
            for (index, &class) in classes.iter().enumerate() {
                assert_eq!(rows.row(OFFSETS[p] + index), rows.row(OFFSETS[p] + class as usize));
            }
        }
    }

    /// The quantized network's value of `player` to move against `opponent`.
    fn quantized_value(quantized: &Quantized, player: u64, opponent: u64) -> i32 {
        quantized.evaluate(&Features::new(player, opponent).player, player, opponent, legal_moves(player, opponent))
    }

    #[test]
    fn a_position_and_its_mirror_images_score_the_same() {
        for (mobility, buckets, layer) in [(true, 1, false), (false, 1, false), (true, 3, false), (true, 2, true)] {
            let mut net = if layer { busy_layered_network(3, buckets) } else { busy_network_of(3, buckets) };
            net.mobility = mobility;
            let quantized = Quantized::new(&net);
            for pos in random_positions(5, 40) {
                let (player, opponent) = (pos.player(), pos.opponent());
                let value = net.evaluate(player, opponent);
                let q = quantized_value(&quantized, player, opponent);
                for s in 1..8 {
                    let (p, o) = (image(s, player), image(s, opponent));
                    assert!((net.evaluate(p, o) - value).abs() < 1e-4, "{pos} under symmetry {s}");
                    assert_eq!(quantized_value(&quantized, p, o), q, "{pos}, {s}");
                }
            }
        }
    }

    #[test]
    fn the_fast_and_portable_paths_agree_and_stay_near_the_float_model() {
        for (mobility, buckets, layer) in [(true, 1, false), (false, 1, false), (true, 4, false), (true, 1, true)] {
            let mut net = if layer { busy_layered_network(7, buckets) } else { busy_network_of(7, buckets) };
            net.mobility = mobility;
            let quantized = Quantized::new(&net);
            let (mut worst, mut total) = (0f32, 0f32);
            let positions = random_positions(9, 300);
            for pos in &positions {
                let (player, opponent) = (pos.player(), pos.opponent());
                let lanes = Features::new(player, opponent).player;
                let moves = legal_moves(player, opponent);
                let fast = quantized.evaluate(&lanes, player, opponent, moves);
                assert_eq!(fast, quantized.evaluate_portable(&lanes, player, opponent, moves), "{pos}");
                let float = net.evaluate(player, opponent) * 100.0;
                worst = worst.max((float - fast as f32).abs());
                total += (float - fast as f32).abs();
            }
            // Each of 77 rows rounds by up to half of 1/ACTIVATION_SCALE and each readout weight
            // by half of 1/64, mostly cancelling; the last division truncates. A second layer
            // rounds its weights to 1/1024 and its units down to 1/4096 as well.
            let mean = total / positions.len() as f32;
            assert!(
                worst < if layer { 20.0 } else { 12.0 } && mean < 2.0,
                "the quantized network is {mean} (at worst {worst}) cp from the float one"
            );
        }
    }

    #[test]
    fn the_mobility_row_is_read_only_by_a_network_that_takes_mobility() {
        let mut net = Network::zeros();
        let pos = Position::initial().play("f5".parse().unwrap());
        // Black has 3 moves after f5, White 3: the cell (3, 3).
        let (player, opponent) = (pos.player(), pos.opponent());
        assert_eq!(rows().of(player, opponent)[FEATURES] as usize, rows().patterns + 3 * 25 + 3);
        let row = (rows().patterns + 3 * 25 + 3) * HIDDEN;
        net.transformer[row] = 0.5;
        net.readout[pos.empty_count() as usize * HIDDEN] = 4.0;
        assert_eq!(net.evaluate(player, opponent), 2.0);
        assert_eq!(quantized_value(&Quantized::new(&net), player, opponent), 200);
        net.mobility = false;
        assert_eq!(net.evaluate(player, opponent), 0.0);
        assert_eq!(quantized_value(&Quantized::new(&net), player, opponent), 0);
        let back = Network::from_bytes(&net.to_bytes()).unwrap();
        assert!(!back.mobility && back == net, "the inputs round-trip through the file");
    }

    #[test]
    fn stage_buckets_split_the_empties_evenly_and_start_as_the_shared_table() {
        assert!((0..=60).all(|e| bucket(e, 1) == 0));
        let of_four: Vec<usize> = [0, 15, 16, 30, 31, 45, 46, 60, 64].iter().map(|&e| bucket(e, 4)).collect();
        assert_eq!(of_four, [0, 0, 1, 1, 2, 2, 3, 3, 3]);
        assert_eq!((0..=60).map(|e| bucket(e, MAX_BUCKETS)).max(), Some(MAX_BUCKETS - 1));
        // A network of one bucket made one of three scores every position as before, in both
        // models; a bucket's own rows then change the positions of that bucket only.
        let net = busy_network(23);
        let three = net.with_buckets(3).unwrap();
        assert_eq!(three.transformer.len(), 4 * rows().count() * HIDDEN);
        let (q, q3) = (Quantized::new(&net), Quantized::new(&three));
        let positions = random_positions(29, 80);
        for pos in &positions {
            let (player, opponent) = (pos.player(), pos.opponent());
            assert_eq!(net.evaluate(player, opponent), three.evaluate(player, opponent), "{pos}");
            assert_eq!(quantized_value(&q, player, opponent), quantized_value(&q3, player, opponent), "{pos}");
        }
        // Bucket 2's rows shifted up, then down: a position of that bucket changes under one
        // of the two at least (its units cannot all be clipped at both ends), no other does.
        let last = 3 * rows().count() * HIDDEN;
        let shifted = |by: f32| {
            let mut moved = three.clone();
            moved.transformer[last..].iter_mut().for_each(|w| *w += by);
            Quantized::new(&moved)
        };
        let (up, down) = (shifted(0.25), shifted(-0.25));
        for pos in &positions {
            let (player, opponent) = (pos.player(), pos.opponent());
            let before = quantized_value(&q, player, opponent);
            let moved = [&up, &down].iter().any(|q| quantized_value(q, player, opponent) != before);
            assert_eq!(moved, bucket(pos.empty_count(), 3) == 2, "{pos}");
        }
        assert!(positions.iter().any(|p| bucket(p.empty_count(), 3) == 2));
        assert!(three.with_buckets(2).unwrap_err().contains("cannot be made one of 2"));
        assert!(net.with_buckets(MAX_BUCKETS + 1).is_err());
    }

    #[test]
    fn files_of_stage_buckets_and_layers_round_trip_and_older_versions_read_without_them() {
        let net = busy_network_of(31, 4);
        assert!(Network::from_bytes(&net.to_bytes()) == Ok(net.clone()));
        let layered = busy_layered_network(33, 2);
        assert!(Network::from_bytes(&layered.to_bytes()) == Ok(layered.clone()));
        // A version 4 file: version 5's without the layer's word; version 3, without the
        // buckets' word either.
        let older = |net: &Network, version: u32| {
            let bytes = net.to_bytes();
            let mut old = bytes[..if version == 3 { 28 } else { 32 }].to_vec();
            old[8..12].copy_from_slice(&version.to_le_bytes());
            old.extend_from_slice(&bytes[36..bytes.len() - 8]);
            let mut hash = Fnv::new();
            hash.write(&old);
            old.extend_from_slice(&hash.finish().to_le_bytes());
            old
        };
        let one = busy_network(37);
        let v3 = older(&one, 3);
        assert!(Network::from_bytes(&v3) == Ok(one), "{:?}", Network::from_bytes(&v3).err());
        let v4 = older(&net, 4);
        assert!(Network::from_bytes(&v4) == Ok(net.clone()), "{:?}", Network::from_bytes(&v4).err());
        let mut other_layer = layered.to_bytes();
        other_layer[32..36].copy_from_slice(&5u32.to_le_bytes());
        let err = Network::from_bytes(&other_layer).unwrap_err();
        assert!(err.contains("a second layer of 5 units; this build's has 8"), "{err}");
        let mut too_many = net.to_bytes();
        too_many[28..32].copy_from_slice(&99u32.to_le_bytes());
        let err = Network::from_bytes(&too_many).unwrap_err();
        assert!(err.contains("99 stage buckets") && !err.contains('\n'), "{err}");
    }

    #[test]
    fn files_round_trip_and_damaged_ones_are_refused() {
        let net = busy_network(11);
        let bytes = net.to_bytes();
        assert!(Network::from_bytes(&bytes) == Ok(net.clone()), "a file round-trips");
        assert!(Network::from_bytes(b"MAGPIEPW1234").unwrap_err().contains("not a Magpie network file"));
        let cut = &bytes[..bytes.len() - 100];
        assert!(Network::from_bytes(cut).unwrap_err().contains("cut short"), "{:?}", Network::from_bytes(cut));
        let mut damaged = bytes.clone();
        damaged[5000] ^= 1;
        assert!(Network::from_bytes(&damaged).unwrap_err().contains("damaged"));
        let mut other_version = bytes.clone();
        other_version[8] = 9;
        assert!(Network::from_bytes(&other_version).unwrap_err().contains("version 9"));
        let mut other_inputs = bytes.clone();
        other_inputs[24] = 7;
        assert!(Network::from_bytes(&other_inputs).unwrap_err().contains("unknown set of inputs"));
        // A network of another width (as the 16-lane builds before wrote) names both, plainly.
        let mut other_width = bytes.clone();
        other_width[12] = 16;
        let err = Network::from_bytes(&other_width).unwrap_err();
        assert!(
            err.contains(&format!("hidden 16, rows {}, stages 61; this build has {HIDDEN}", rows().count())),
            "{err}"
        );
        assert!(Network::from_bytes(&bytes[..18]).unwrap_err().contains("cut short"));
        let mut not_a_number = net;
        not_a_number.bias[3] = f32::NAN;
        assert!(Network::from_bytes(&not_a_number.to_bytes()).unwrap_err().contains("not a number"));
        // Every message is one line.
        for bad in [&b"x"[..], cut, &damaged] {
            assert!(!Network::from_bytes(bad).unwrap_err().contains('\n'));
        }
    }

    #[test]
    fn the_accumulator_saturates_rather_than_wraps() {
        let mut net = Network::zeros();
        net.transformer.iter_mut().for_each(|w| *w = 100.0);
        net.readout.iter_mut().for_each(|w| *w = 1.0);
        let quantized = Quantized::new(&net);
        let pos = Position::initial();
        let (player, opponent) = (pos.player(), pos.opponent());
        let lanes = Features::new(player, opponent).player;
        let moves = legal_moves(player, opponent);
        // Every unit clipped at 1: HIDDEN units of 1 disc.
        assert_eq!(quantized.evaluate(&lanes, player, opponent, moves), HIDDEN as i32 * 100);
        assert_eq!(quantized.evaluate_portable(&lanes, player, opponent, moves), HIDDEN as i32 * 100);
    }
}
