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
//! adds and clipped, then read out in 32 bits; an AVX2 path and a portable one give the same
//! numbers, and both stay within a few centi-discs of the float model.
//!
//! A network may also read the position's mobility (`magpie train-network` fits one that does
//! unless told `--no-mobility`): one more row, of the pair (the side to move's legal moves, the
//! other side's), as the pattern weights' mobility table reads it.
//!
//! The file (`MAGPIENN`, version 3): the magic, the version, the hidden width, the rows, the
//! stages, the inputs (0 the patterns, 1 the patterns and mobility), a hash of the pattern layout
//! and the hash of the pattern weights it corrects, 0 for none (u32 and u64, little-endian), then
//! the float weights
//! (the transformer by rows, its bias, the readouts by empties, their biases), then an FNV-1a
//! checksum of everything before it. A file of another layout, cut short or damaged is refused.

use super::pattern::{
    FEATURE_OFFSET, FEATURES, LANES, MOBILITY, MOBILITY_MAX, OFFSETS, PATTERNS, canonical_indices, mobility_index_of,
};
use super::weights::Weights;
use crate::board::movegen::legal_moves;
use crate::rng::Rng;
use std::sync::LazyLock;

/// The width of the accumulator.
pub const HIDDEN: usize = 16;

/// Readouts: one for each number of empties, 0 to 60.
pub const STAGES: usize = 61;

/// What 1.0 of the accumulator is in the quantized transformer.
pub const ACTIVATION_SCALE: i32 = 256;

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
const VERSION: u32 = 3;

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

/// The float network: the model that is fitted, and the reference the quantized one is checked
/// against.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// The transformer: [`HIDDEN`] numbers a row, rows in the order of [`Rows`].
    pub transformer: Vec<f32>,
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
}

/// What a forward pass keeps for the backward one.
#[derive(Clone, Copy, Debug)]
pub struct Forward {
    /// The accumulator before the clip.
    pub accumulator: [f32; HIDDEN],
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
            bias: [0.0; HIDDEN],
            readout: vec![0.0; STAGES * HIDDEN],
            readout_bias: vec![0.0; STAGES],
            base: 0,
            mobility: true,
        }
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
        for &row in &rows[..self.inputs()] {
            let start = row as usize * HIDDEN;
            for (a, w) in accumulator.iter_mut().zip(&self.transformer[start..start + HIDDEN]) {
                *a += w;
            }
        }
        let stage = (empties as usize).min(STAGES - 1);
        let readout = &self.readout[stage * HIDDEN..(stage + 1) * HIDDEN];
        let value =
            self.readout_bias[stage] + accumulator.iter().zip(readout).map(|(&a, &w)| activation(a) * w).sum::<f32>();
        Forward { accumulator, value }
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
        for n in [VERSION, HIDDEN as u32, rows().count() as u32, STAGES as u32, u32::from(self.mobility)] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&layout_hash().to_le_bytes());
        out.extend_from_slice(&self.base.to_le_bytes());
        for parts in [&self.transformer[..], &self.bias[..], &self.readout[..], &self.readout_bias[..]] {
            for w in parts {
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
        let header = 8 + 20 + 16;
        let floats = rows().count() * HIDDEN + HIDDEN + STAGES * HIDDEN + STAGES;
        let expected = header + 4 * floats + 8;
        let word = |at: usize| bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        match word(8) {
            Some(VERSION) => {}
            Some(v) => return Err(format!("network file version {v}; this build reads version {VERSION}")),
            None => return Err(format!("cut short: {} bytes, expected {expected}", bytes.len())),
        }
        let shape = (word(12), word(16), word(20));
        if shape != (Some(HIDDEN as u32), Some(rows().count() as u32), Some(STAGES as u32)) {
            return Err(format!(
                "a network of another shape (hidden {:?}, rows {:?}, stages {:?}; this build has {HIDDEN}, {}, {STAGES})",
                shape.0,
                shape.1,
                shape.2,
                rows().count()
            ));
        }
        if bytes.len() != expected {
            return Err(format!("{} bytes where a network file has {expected}: cut short or padded", bytes.len()));
        }
        let mobility = match word(24) {
            Some(0) => false,
            Some(1) => true,
            other => return Err(format!("an unknown set of inputs ({other:?}; this build reads 0 and 1)")),
        };
        let layout = u64::from_le_bytes(bytes[28..36].try_into().unwrap_or_default());
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
        let transformer = take(rows().count() * HIDDEN);
        let bias: [f32; HIDDEN] = take(HIDDEN).try_into().map_err(|_| "cut short".to_string())?;
        let readout = take(STAGES * HIDDEN);
        let readout_bias = take(STAGES);
        let base = u64::from_le_bytes(bytes[36..44].try_into().unwrap_or_default());
        let net = Network { transformer, bias, readout, readout_bias, base, mobility };
        if [&net.transformer[..], &net.bias[..], &net.readout[..], &net.readout_bias[..]]
            .iter()
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
    /// One row a feature index, [`HIDDEN`] 16-bit numbers each, [`ACTIVATION_SCALE`] to a unit.
    transformer: Vec<[i16; HIDDEN]>,
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
}

fn quantize(w: f32, scale: i32) -> i16 {
    (w * scale as f32).round().clamp(-32767.0, 32767.0) as i16
}

impl Quantized {
    /// The quantized form of `net`.
    pub fn new(net: &Network) -> Quantized {
        let rows = rows();
        let row = |row: usize| std::array::from_fn(|h| quantize(net.transformer[row * HIDDEN + h], ACTIVATION_SCALE));
        let transformer = (0..rows.row_of.len())
            .map(|index| row(rows.row(index)))
            .chain((0..MOBILITY_ROWS).map(|cell| row(rows.patterns + cell)))
            .collect();
        Quantized {
            transformer,
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

    /// The index of the mobility row of the side to move's discs `player` with legal `moves`
    /// against `opponent` (the last pattern row if the network does not read mobility, whose
    /// entry is then skipped).
    #[inline]
    fn mobility_row(&self, player: u64, opponent: u64, moves: u64) -> Option<usize> {
        let first = self.transformer.len() - MOBILITY_ROWS;
        self.mobility.then(|| first + mobility_cell(moves, legal_moves(opponent, player)))
    }

    /// The value in centi-discs of the position whose features' lanes are `lanes`, the side to
    /// move's discs `player` with legal `moves` against `opponent`.
    #[inline]
    pub fn evaluate(&self, lanes: &[u16; LANES], player: u64, opponent: u64, moves: u64) -> i32 {
        let empties = 64 - (player | opponent).count_ones();
        let mobility = self.mobility_row(player, opponent, moves);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is present.
            return unsafe { self.evaluate_avx2(lanes, mobility, empties) };
        }
        self.sum_portable(lanes, mobility, empties)
    }

    /// [`Quantized::evaluate`] without vector instructions: the reference of the fast paths.
    pub fn evaluate_portable(&self, lanes: &[u16; LANES], player: u64, opponent: u64, moves: u64) -> i32 {
        let empties = 64 - (player | opponent).count_ones();
        self.sum_portable(lanes, self.mobility_row(player, opponent, moves), empties)
    }

    fn sum_portable(&self, lanes: &[u16; LANES], mobility: Option<usize>, empties: u32) -> i32 {
        let mut accumulator = self.bias;
        let indices = (0..FEATURES).map(|n| FEATURE_OFFSET[n] as usize + lanes[n] as usize);
        for index in indices.chain(mobility) {
            for (a, &w) in accumulator.iter_mut().zip(&self.transformer[index]) {
                *a = a.saturating_add(w);
            }
        }
        let stage = (empties as usize).min(STAGES - 1);
        let sum: i32 = accumulator
            .iter()
            .zip(&self.readout[stage])
            .map(|(&a, &w)| i32::from(a.clamp(0, ACTIVATION_SCALE as i16)) * i32::from(w))
            .sum();
        self.readout_bias[stage] + scale_down(sum)
    }

    /// [`Quantized::evaluate`] with AVX2: one 256-bit register holds the accumulator.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn evaluate_avx2(&self, lanes: &[u16; LANES], mobility: Option<usize>, empties: u32) -> i32 {
        use std::arch::x86_64::*;
        let load = |row: &[i16; HIDDEN]| {
            // SAFETY: a row is 16 i16, 32 bytes; the load is unaligned.
            unsafe { _mm256_loadu_si256(row.as_ptr().cast()) }
        };
        let mut accumulator = load(&self.bias);
        for n in 0..FEATURES {
            let row = &self.transformer[FEATURE_OFFSET[n] as usize + lanes[n] as usize];
            accumulator = _mm256_adds_epi16(accumulator, load(row));
        }
        if let Some(index) = mobility {
            accumulator = _mm256_adds_epi16(accumulator, load(&self.transformer[index]));
        }
        let clipped = _mm256_min_epi16(
            _mm256_max_epi16(accumulator, _mm256_setzero_si256()),
            _mm256_set1_epi16(ACTIVATION_SCALE as i16),
        );
        let stage = (empties as usize).min(STAGES - 1);
        // Pairs multiplied and added into 8 i32 lanes (at most 2 × 256 × 32767: no overflow).
        let products = _mm256_madd_epi16(clipped, load(&self.readout[stage]));
        let halves = _mm_add_epi32(_mm256_castsi256_si128(products), _mm256_extracti128_si256(products, 1));
        let pairs = _mm_add_epi32(halves, _mm_shuffle_epi32(halves, 0b01_00_11_10));
        let sum = _mm_cvtsi128_si32(_mm_add_epi32(pairs, _mm_shuffle_epi32(pairs, 0b10_11_00_01)));
        self.readout_bias[stage] + scale_down(sum)
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
fn scale_down(sum: i32) -> i32 {
    (i64::from(sum) * 100 / i64::from(ACTIVATION_SCALE * READOUT_SCALE)) as i32
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
        let mut net = Network::initial(seed, true);
        let mut rng = Rng::new(seed ^ 0x55);
        for w in &mut net.transformer {
            *w = (rng.below(2001) as f32 - 1000.0) / 4000.0;
        }
        for (s, b) in net.readout_bias.iter_mut().enumerate() {
            *b = s as f32 / 10.0 - 3.0;
        }
        net
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
        for mobility in [true, false] {
            let mut net = busy_network(3);
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
        for mobility in [true, false] {
            let mut net = busy_network(7);
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
            // Each of 77 rows rounds by up to half of 1/256 and each readout weight by half of
            // 1/64, mostly cancelling; the last division truncates.
            let mean = total / positions.len() as f32;
            assert!(
                worst < 12.0 && mean < 2.0,
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
        // Every unit clipped at 1: 16 units of 1 disc.
        assert_eq!(quantized.evaluate(&lanes, player, opponent, moves), 1600);
        assert_eq!(quantized.evaluate_portable(&lanes, player, opponent, moves), 1600);
    }
}
