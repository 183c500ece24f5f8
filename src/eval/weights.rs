//! The pattern evaluation's weights, its Multi-ProbCut fit, and the versioned file they are stored
//! in. The default file is embedded in the binary; `--weights FILE` and `setoption name Weights`
//! load another.
//!
//! File format (version 5, little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `MAGPIEPW` |
//! | 4 | version (5; version 4, still read, had no model field and its model is 0; version 3 had 11 patterns, version 2 no solve fits, version 1 no mobility table) |
//! | 4 | the stage model: 0, a stage's weights score its 4 numbers of empties; 1, they are values at the stage's centre, read in between linearly (see [`StageModel`]) |
//! | 4 | stages (15) |
//! | 4 | weights per stage (the pattern tables, 4 constants and the 25 × 25 mobility table: 672,119) |
//! | 4 | K, the number of ProbCut entries |
//! | 16 × K | each: stage, deep depth, shallow depth, kind (one byte each), then slope, intercept and σ (f32); kind 0 is a depth-limited fit, kind 1 a solve fit (its deep depth is the empties, its stage theirs) |
//! | 4 | L, the length of the weight stream |
//! | L | the weights, stage by stage, in centi-discs: LEB128 tokens; an even token 2z is one weight whose zigzag code is z, an odd token 2n + 1 is n zero weights |
//! | 8 | FNV-1a 64 hash of every byte before it |
//!
//! A file is checked completely before it replaces the weights in use: a wrong magic, version or
//! shape, a damaged stream or a hash that does not match is refused with a one-line error.
//!
//! The evaluation does not read the stages themselves: at load time the weights are made into one
//! table per number of empties (0 to 60) by the file's stage model, the pattern weights of each
//! stored as one byte in units of [`READ_UNIT`] centi-discs (a fourth of the memory of the
//! stages' 16 bits for four times as many tables), the constants and the mobility table in 16
//! bits.

use super::WIPEOUT;
use super::pattern::{
    BIAS, FEATURE_OFFSET, FEATURES, LANES, STAGE_LEN, STAGES, constant_index, feature_indices, knots, mobility_index,
    mobility_index_of, stage,
};
use crate::board::movegen::legal_moves;
use std::fmt;
use std::sync::{Arc, LazyLock};

/// The zeros after the last stage's weights: any `u16` index read from any feature's offset in
/// any stage stays inside the table, so that the evaluation's loop reads the table without a
/// bounds check on each of its 76 reads.
const FEATURE_SLACK: usize = 1 << 16;

const _: () = {
    let mut f = 0;
    while f < FEATURES {
        assert!((FEATURE_OFFSET[f] as usize) < STAGE_LEN, "a feature's table lies inside its stage");
        f += 1;
    }
};

/// The first bytes of a weight file.
pub const MAGIC: &[u8; 8] = b"MAGPIEPW";

/// The version this build writes (it reads this one and the one before).
pub const VERSION: u32 = 5;

/// How the stages' weights score a position with a given number of empty squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageModel {
    /// Stage s scores the positions of 4s to 4s + 3 empties (15 steps, version 4's files).
    Steps,
    /// Stage s holds the values at 4s + 1.5 empties; a position between two centres is scored by
    /// the linear blend of the two nearest stages ([`knots`]), so that the evaluation changes a
    /// little with each move rather than by a step every four. `magpie train` fits this model.
    Interpolated,
}

impl StageModel {
    fn code(self) -> u32 {
        match self {
            StageModel::Steps => 0,
            StageModel::Interpolated => 1,
        }
    }

    /// The stage read below `empties` and the next stage's share.
    fn knots(self, empties: u32) -> (usize, f64) {
        match self {
            StageModel::Steps => (stage(empties), 0.0),
            StageModel::Interpolated => knots(empties),
        }
    }
}

/// The unit, in centi-discs, of the pattern weights as the evaluation reads them: each is stored
/// in one byte (±127 units, ±10.16 discs; a weight beyond is read as the bound). Of round 18's
/// 5.79M non-zero weights 2,416 (0.04%) lie beyond it, the largest at 30.4 discs.
pub const READ_UNIT: i32 = 8;

/// The numbers of empty squares the evaluation has a table for: 0 to 60.
const READINGS: usize = 61;

/// The weights of a stage after its pattern tables: the constants and the mobility table.
const EXTRA_LEN: usize = STAGE_LEN - BIAS;

/// The bound of the pattern evaluation inside the search (twice [`WIPEOUT`]): a position the
/// patterns rate beyond a wipeout is still told from one they rate further beyond, which orders
/// the moves of a won endgame (FFO #59, won by a wipeout, took over 5 minutes to solve with the
/// evaluation clamped at a wipeout, 0.05 s without). Such a score is a heuristic, never a proven
/// result; the search clamps what it reports to ±[`WIPEOUT`]. Well inside the search's infinity
/// and the transposition table's 16-bit bounds.
pub const SEARCH_BOUND: i32 = 2 * WIPEOUT;

/// Multi-ProbCut's prediction of a deep search's score from a shallow one, for one stage and one
/// depth: `deep ≈ slope × shallow + intercept`, with error σ (centi-discs). A solve fit predicts
/// the exact score (× 100) of a position with `depth` empty squares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCutFit {
    /// Whether the deep search is a solve to the end of the game (`depth` is then the empties).
    pub solve: bool,
    /// The stage (see [`stage`]).
    pub stage: u8,
    /// The depth of the search predicted.
    pub depth: u8,
    /// The depth of the shallow search that predicts it.
    pub shallow: u8,
    /// Slope of the regression.
    pub slope: f32,
    /// Intercept of the regression, in centi-discs.
    pub intercept: f32,
    /// Standard deviation of the prediction's error, in centi-discs.
    pub sigma: f32,
}

/// The depth of the shallow search that predicts a search of `depth`.
pub const fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + depth % 2
}

/// The depth of the shallow search that predicts the solve of a position with `empties` empty
/// squares: two plies below [`shallow_depth`]. At 100 ms a move (480 positions of 21-29 empties
/// from games, moves judged by a 4 s search), the moves lost 0.69 discs to perfect play with
/// this, 0.72 with [`shallow_depth`] and with four plies below it.
pub const fn solve_shallow_depth(empties: u32) -> u32 {
    let d = shallow_depth(empties);
    if d > 2 { d - 2 } else { 1 }
}

/// The deepest search ProbCut fits are stored or carried for: every depth short of the end of the
/// game.
pub const PROBCUT_MAX_DEPTH: usize = 60;

/// The weights of the pattern evaluation and the ProbCut fits made with them.
#[derive(Clone)]
pub struct Weights {
    /// `STAGES × STAGE_LEN` weights in centi-discs, as stored.
    values: Box<[i16]>,
    /// The ProbCut fits, as stored.
    probcut: Vec<ProbCutFit>,
    /// `probcut_table[stage][depth]`: the fit for that stage and depth.
    probcut_table: Box<[[Option<ProbCutFit>; PROBCUT_MAX_DEPTH + 1]; STAGES]>,
    /// `solve_table[empties]`: the solve fit for that many empty squares.
    solve_table: Box<[Option<ProbCutFit>; 65]>,
    /// The hash of the file's contents, to tell weight sets apart.
    hash: u64,
    /// How the stages are read between them.
    model: StageModel,
    /// For each number of empties (`READINGS`), `STAGE_LEN` pattern weights in units of
    /// [`READ_UNIT`] (the constants' and mobility table's places unused), then
    /// [`FEATURE_SLACK`] zeros.
    reading: Box<[i8]>,
    /// For each number of empties, the constants and the mobility table in centi-discs.
    extra: Box<[i16]>,
}

/// `n / d` rounded to the nearest integer, halves up (`d` > 0).
const fn div_round(n: i32, d: i32) -> i32 {
    (2 * n + d).div_euclid(2 * d)
}

/// The tables the evaluation reads (see [`Weights::reading`]), made from the stages' `values`. A
/// number of empties lies between two stages' centres at a multiple of an eighth of the way, so
/// the blends are exact in integers: eighths of centi-discs.
fn reading_tables(values: &[i16], model: StageModel) -> (Box<[i8]>, Box<[i16]>) {
    let mut reading = vec![0i8; READINGS * STAGE_LEN + FEATURE_SLACK];
    let mut extra = vec![0i16; READINGS * EXTRA_LEN];
    for empties in 0..READINGS {
        let (s, share) = model.knots(empties as u32);
        let eighths = (share * 8.0) as i32;
        debug_assert_eq!(f64::from(eighths), share * 8.0, "a share is a whole number of eighths");
        let below = &values[s * STAGE_LEN..(s + 1) * STAGE_LEN];
        let above = if eighths == 0 { below } else { &values[(s + 1) * STAGE_LEN..(s + 2) * STAGE_LEN] };
        let blend = |i: usize| (8 - eighths) * i32::from(below[i]) + eighths * i32::from(above[i]);
        let out = &mut reading[empties * STAGE_LEN..empties * STAGE_LEN + BIAS];
        for (i, w) in out.iter_mut().enumerate() {
            *w = div_round(blend(i), 8 * READ_UNIT).clamp(-127, 127) as i8;
        }
        for (i, w) in extra[empties * EXTRA_LEN..(empties + 1) * EXTRA_LEN].iter_mut().enumerate() {
            *w = div_round(blend(BIAS + i), 8) as i16;
        }
    }
    (reading.into_boxed_slice(), extra.into_boxed_slice())
}

/// Two weight sets are the same when their files are.
impl PartialEq for Weights {
    fn eq(&self, other: &Weights) -> bool {
        self.hash == other.hash && self.model == other.model && self.values == other.values
    }
}

impl Eq for Weights {}

impl fmt::Debug for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Weights({:016x}, {} ProbCut fits)", self.hash, self.probcut.len())
    }
}

/// Why a weight file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseWeightsError {
    /// It does not start with [`MAGIC`].
    Magic,
    /// It is another version of the format.
    Version(u32),
    /// Its stages or table sizes are not this build's.
    Shape {
        /// Stages in the file.
        stages: u32,
        /// Weights per stage in the file.
        stage_len: u32,
    },
    /// It ends too soon.
    Truncated,
    /// Its hash does not match its contents.
    Checksum,
    /// The weight stream is malformed or has the wrong number of weights.
    Stream(String),
    /// A ProbCut entry is out of range.
    ProbCut(usize),
    /// The stage model is not one this build knows.
    Model(u32),
    /// Bytes follow the hash.
    Trailing(usize),
}

impl fmt::Display for ParseWeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseWeightsError::Magic => write!(f, "not a Magpie weight file (it does not start with MAGPIEPW)"),
            ParseWeightsError::Version(v) => {
                write!(f, "weight file version {v}, this Magpie reads versions 4 and {VERSION}")
            }
            ParseWeightsError::Shape { stages, stage_len } => write!(
                f,
                "weight file has {stages} stages of {stage_len} weights, this Magpie's patterns need {STAGES} of {STAGE_LEN}"
            ),
            ParseWeightsError::Truncated => write!(f, "weight file is truncated"),
            ParseWeightsError::Checksum => write!(f, "weight file is damaged (its checksum does not match)"),
            ParseWeightsError::Stream(why) => write!(f, "weight file's weights are malformed: {why}"),
            ParseWeightsError::ProbCut(i) => write!(f, "weight file's ProbCut entry {i} is out of range"),
            ParseWeightsError::Model(code) => write!(f, "weight file's stage model {code} is unknown (0 or 1)"),
            ParseWeightsError::Trailing(n) => write!(f, "weight file has {n} bytes after its end"),
        }
    }
}

impl std::error::Error for ParseWeightsError {}

/// Whether [`Weights::parse`] hashes the file to check its checksum, or takes the stored one (the
/// embedded file only, which the tests check).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Checksum {
    Verify,
    Trusted,
}

/// FNV-1a, 64 bits.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn push_leb128(out: &mut Vec<u8>, mut v: u32) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// A little reader over the file's bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], ParseWeightsError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or(ParseWeightsError::Truncated)?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }
    fn u32(&mut self) -> Result<u32, ParseWeightsError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn f32(&mut self) -> Result<f32, ParseWeightsError> {
        Ok(f32::from_bits(self.u32()?))
    }
}

/// Decodes a weight stream of `len` weights: LEB128 tokens, an odd one a run of `token >> 1`
/// zeros, an even one a weight zigzag-coded in `token >> 1`. The weights start as zeros, so a run
/// only moves on; a one-byte token is read without the general loop.
fn decode_stream(stream: &[u8], len: usize) -> Result<Box<[i16]>, ParseWeightsError> {
    let bad = |why: String| ParseWeightsError::Stream(why);
    let mut values = vec![0i16; len];
    let mut n = 0;
    let mut at = 0;
    while at < stream.len() {
        let first = stream[at];
        at += 1;
        let token = if first & 0x80 == 0 {
            u32::from(first)
        } else {
            let mut token = u32::from(first & 0x7f);
            let mut shift = 7;
            loop {
                let byte = *stream.get(at).ok_or_else(|| bad("a token is cut short".to_string()))?;
                at += 1;
                if shift > 28 {
                    return Err(bad("a token is too long".to_string()));
                }
                token |= u32::from(byte & 0x7f) << shift;
                shift += 7;
                if byte & 0x80 == 0 {
                    break token;
                }
            }
        };
        if token & 1 == 1 {
            n += (token >> 1) as usize;
            if n > len {
                return Err(bad(format!("more than {len} weights")));
            }
        } else {
            let z = token >> 1;
            let v = ((z >> 1) as i32) ^ -((z & 1) as i32);
            let v = i16::try_from(v).map_err(|_| bad(format!("weight {v} is out of range")))?;
            *values.get_mut(n).ok_or_else(|| bad(format!("more than {len} weights")))? = v;
            n += 1;
        }
    }
    if n != len {
        return Err(bad(format!("{n} weights, expected {len}")));
    }
    Ok(values.into_boxed_slice())
}

/// The weight file of `values` (stage by stage), `probcut` and `model`.
fn file_bytes(values: &[i16], probcut: &[ProbCutFit], model: StageModel) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    for v in [VERSION, model.code(), STAGES as u32, STAGE_LEN as u32, probcut.len() as u32] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for fit in probcut {
        out.extend_from_slice(&[fit.stage, fit.depth, fit.shallow, u8::from(fit.solve)]);
        for v in [fit.slope, fit.intercept, fit.sigma] {
            out.extend_from_slice(&v.to_bits().to_le_bytes());
        }
    }
    let stream = encode_stream(values);
    out.extend_from_slice(&(stream.len() as u32).to_le_bytes());
    out.extend_from_slice(&stream);
    let hash = fnv1a(&out);
    out.extend_from_slice(&hash.to_le_bytes());
    out
}

fn encode_stream(values: &[i16]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut zeros = 0u32;
    for &v in values {
        if v == 0 {
            zeros += 1;
            continue;
        }
        if zeros > 0 {
            push_leb128(&mut out, zeros << 1 | 1);
            zeros = 0;
        }
        let v = i32::from(v);
        let z = ((v << 1) ^ (v >> 31)) as u32;
        push_leb128(&mut out, z << 1);
    }
    if zeros > 0 {
        push_leb128(&mut out, zeros << 1 | 1);
    }
    out
}

impl Weights {
    /// Weights from a stage-by-stage table of `STAGES × STAGE_LEN` centi-discs read in steps
    /// ([`StageModel::Steps`]), and ProbCut fits. `None` if the table has another length or a fit
    /// is out of range.
    pub fn new(values: Vec<i16>, probcut: Vec<ProbCutFit>) -> Option<Weights> {
        Weights::with_model(values, probcut, StageModel::Steps)
    }

    /// [`Weights::new`] with the stages read by `model`.
    pub fn with_model(values: Vec<i16>, probcut: Vec<ProbCutFit>, model: StageModel) -> Option<Weights> {
        if values.len() != STAGES * STAGE_LEN {
            return None;
        }
        // The hash is the file's: made by writing it.
        Weights::from_bytes(&file_bytes(&values, &probcut, model)).ok()
    }

    fn assemble(
        values: Box<[i16]>,
        probcut: Vec<ProbCutFit>,
        hash: u64,
        model: StageModel,
    ) -> Result<Weights, ParseWeightsError> {
        let mut probcut_table = Box::new([[None; PROBCUT_MAX_DEPTH + 1]; STAGES]);
        let mut solve_table = Box::new([None; 65]);
        for (i, fit) in probcut.iter().enumerate() {
            let in_range = if fit.solve {
                fit.depth <= 60 && usize::from(fit.stage) == stage(u32::from(fit.depth))
            } else {
                (fit.stage as usize) < STAGES && (fit.depth as usize) <= PROBCUT_MAX_DEPTH
            };
            let ok = in_range
                && fit.shallow < fit.depth
                && fit.slope.is_finite()
                && fit.slope > 0.1
                && fit.intercept.is_finite()
                && fit.sigma.is_finite()
                && fit.sigma >= 0.0;
            if !ok {
                return Err(ParseWeightsError::ProbCut(i));
            }
            if fit.solve {
                solve_table[fit.depth as usize] = Some(*fit);
            } else {
                probcut_table[fit.stage as usize][fit.depth as usize] = Some(*fit);
            }
        }
        // Solves of more empties than fitted (exact solves to fit them would take too long) carry
        // the deepest fit on, with their own shallow depth.
        if let Some(deepest) = solve_table.iter().rev().find_map(|fit| *fit) {
            for n in u32::from(deepest.depth) + 1..=60 {
                let shallow = solve_shallow_depth(n) as u8;
                solve_table[n as usize] =
                    Some(ProbCutFit { depth: n as u8, stage: stage(n) as u8, shallow, ..deepest });
            }
        }
        // Searches deeper than fitted carry the deepest fit of their parity on, with their own
        // shallow depth: the fits stop at `probcut --max-depth` (10 by default) and the engine
        // searches 14 to 20 plies deep in a game. Without them nodes of depth 11 and more were
        // never cut: `bench --depth 18` searched 60.7M nodes, against 29.4M with them.
        for table in probcut_table.iter_mut() {
            let Some(deepest) = table.iter().rposition(Option::is_some) else { continue };
            for d in deepest + 1..=PROBCUT_MAX_DEPTH {
                if let Some(below) = table[d - 2] {
                    table[d] = Some(ProbCutFit { depth: d as u8, shallow: shallow_depth(d as u32) as u8, ..below });
                }
            }
        }
        let (reading, extra) = reading_tables(&values, model);
        Ok(Weights { values, probcut, probcut_table, solve_table, hash, model, reading, extra })
    }

    /// All weights zero: every position scores 0.
    pub fn zero() -> Weights {
        Weights::new(vec![0; STAGES * STAGE_LEN], Vec::new()).unwrap_or_else(|| unreachable!("the shape is right"))
    }

    /// The weights embedded in the binary.
    pub fn embedded() -> Arc<Weights> {
        static EMBEDDED: LazyLock<Arc<Weights>> = LazyLock::new(|| {
            // The file is checked by the tests (`the_embedded_file_loads`), checksum included, so
            // it always loads, and its stored checksum is taken as read: hashing its 9 MB took a
            // fifth of the time that loading it cost at every start.
            let weights = Weights::parse(include_bytes!("pattern.weights"), Checksum::Trusted);
            Arc::new(weights.unwrap_or_else(|_| Weights::zero()))
        });
        Arc::clone(&EMBEDDED)
    }

    /// Reads a weight file, checking all of it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, ParseWeightsError> {
        Weights::parse(bytes, Checksum::Verify)
    }

    /// Reads a weight file, checking all of it but, for `Checksum::Trusted`, its checksum.
    fn parse(bytes: &[u8], checksum: Checksum) -> Result<Weights, ParseWeightsError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8).map_err(|_| ParseWeightsError::Magic)? != MAGIC {
            return Err(ParseWeightsError::Magic);
        }
        let version = r.u32()?;
        let model = match version {
            4 => StageModel::Steps,
            VERSION => match r.u32()? {
                0 => StageModel::Steps,
                1 => StageModel::Interpolated,
                code => return Err(ParseWeightsError::Model(code)),
            },
            _ => return Err(ParseWeightsError::Version(version)),
        };
        let (stages, stage_len) = (r.u32()?, r.u32()?);
        if stages as usize != STAGES || stage_len as usize != STAGE_LEN {
            return Err(ParseWeightsError::Shape { stages, stage_len });
        }
        let count = r.u32()? as usize;
        if count > STAGES * (PROBCUT_MAX_DEPTH + 1) + 65 {
            return Err(ParseWeightsError::Stream(format!(
                "{count} ProbCut entries, more than one per stage and depth and one per number of empties"
            )));
        }
        let mut probcut = Vec::with_capacity(count);
        for i in 0..count {
            let head = r.take(4)?;
            let (stage, depth, shallow) = (head[0], head[1], head[2]);
            let solve = match head[3] {
                0 => false,
                1 => true,
                _ => return Err(ParseWeightsError::ProbCut(i)),
            };
            let (slope, intercept, sigma) = (r.f32()?, r.f32()?, r.f32()?);
            probcut.push(ProbCutFit { solve, stage, depth, shallow, slope, intercept, sigma });
        }
        let len = r.u32()? as usize;
        let stream_start = r.at;
        r.take(len)?;
        let body_end = r.at;
        let stored = r.take(8)?;
        let hash = match checksum {
            Checksum::Verify => fnv1a(&bytes[..body_end]),
            Checksum::Trusted => u64::from_le_bytes(stored.try_into().map_err(|_| ParseWeightsError::Truncated)?),
        };
        if stored != hash.to_le_bytes() {
            return Err(ParseWeightsError::Checksum);
        }
        if r.at != bytes.len() {
            return Err(ParseWeightsError::Trailing(bytes.len() - r.at));
        }
        let values = decode_stream(&bytes[stream_start..body_end], STAGES * STAGE_LEN)?;
        Weights::assemble(values, probcut, hash, model)
    }

    /// Reads the weight file at `path`; the error names the path.
    pub fn read(path: &std::path::Path) -> Result<Weights, String> {
        let bytes = crate::quote::read_file(path)?;
        Weights::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The weight file (of the current version: a version-4 file is written as version 5).
    pub fn to_bytes(&self) -> Vec<u8> {
        file_bytes(self.values(), &self.probcut, self.model)
    }

    /// The same weights with other ProbCut fits.
    pub fn with_probcut(&self, probcut: Vec<ProbCutFit>) -> Option<Weights> {
        Weights::with_model(self.values().to_vec(), probcut, self.model)
    }

    /// How the stages are read between them.
    pub fn model(&self) -> StageModel {
        self.model
    }

    /// The hash of the weight file: two weight sets with the same hash are the same.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// All weights, stage by stage.
    pub fn values(&self) -> &[i16] {
        &self.values
    }

    /// The ProbCut fits, as stored.
    pub fn probcut(&self) -> &[ProbCutFit] {
        &self.probcut
    }

    /// The ProbCut fit for a search of `depth` at a position with `empties` empty squares.
    #[inline]
    pub fn probcut_fit(&self, empties: u32, depth: u32) -> Option<&ProbCutFit> {
        self.probcut_table[stage(empties)].get(depth as usize)?.as_ref()
    }

    /// The ProbCut fit for solving a position with `empties` empty squares: the fit made for that
    /// many empties, or above the most empties fitted, that fit carried on.
    #[inline]
    pub fn solve_fit(&self, empties: u32) -> Option<&ProbCutFit> {
        self.solve_table.get(empties as usize)?.as_ref()
    }

    /// The table of pattern weights read at `empties` (in units of [`READ_UNIT`]), with the
    /// slack after it, and the table of its constants and mobility weights.
    #[inline]
    fn reading(&self, empties: u32) -> (&[i8], &[i16]) {
        let e = (empties as usize).min(READINGS - 1);
        let start = e * STAGE_LEN;
        (&self.reading[start..start + STAGE_LEN + FEATURE_SLACK], &self.extra[e * EXTRA_LEN..(e + 1) * EXTRA_LEN])
    }

    /// The weight the evaluation reads, in centi-discs, at `index` of a stage's weights for a
    /// position with `empties` empty squares: a pattern's in units of [`READ_UNIT`], the
    /// constants' and the mobility table's as blended.
    pub fn weight_at(&self, empties: u32, index: usize) -> i32 {
        let (patterns, extra) = self.reading(empties);
        if index < BIAS { i32::from(patterns[index]) * READ_UNIT } else { i32::from(extra[index - BIAS]) }
    }

    /// The score in centi-discs for the side to move (discs `player`) against `opponent`, on the
    /// 8x8 board, within ±[`WIPEOUT`].
    #[inline]
    pub fn evaluate(&self, player: u64, opponent: u64) -> i32 {
        let empties = 64 - (player | opponent).count_ones();
        let (patterns, extra) = self.reading(empties);
        let units: i32 = feature_indices(player, opponent).iter().map(|&i| i32::from(patterns[i as usize])).sum();
        let sum = units * READ_UNIT
            + i32::from(extra[constant_index(empties) - BIAS])
            + i32::from(extra[mobility_index(player, opponent) - BIAS]);
        sum.clamp(-WIPEOUT, WIPEOUT)
    }

    /// [`Weights::evaluate`] from the indices of [`Features::player`] (or
    /// [`Features::play_to_evaluate`]), kept up to date by the search, but within
    /// ±[`SEARCH_BOUND`] rather than ±[`WIPEOUT`].
    ///
    /// [`Features::player`]: super::pattern::Features::player
    /// [`Features::play_to_evaluate`]: super::pattern::Features::play_to_evaluate
    #[inline]
    pub fn evaluate_indices(&self, indices: &[u16; LANES], player: u64, opponent: u64) -> i32 {
        self.evaluate_indices_with_moves(indices, player, opponent, legal_moves(player, opponent))
    }

    /// [`Weights::evaluate_indices`] given the legal moves of `player` (`moves`), which the caller
    /// has at hand.
    #[inline]
    pub fn evaluate_indices_with_moves(&self, indices: &[u16; LANES], player: u64, opponent: u64, moves: u64) -> i32 {
        let empties = 64 - (player | opponent).count_ones();
        let (patterns, extra) = self.reading(empties);
        let mobility = mobility_index_of(moves, legal_moves(opponent, player));
        let mut units = 0i32;
        for (&offset, &index) in FEATURE_OFFSET.iter().zip(&indices[..FEATURES]) {
            // SAFETY: `offset` is below `STAGE_LEN` (checked at compile time above) and `index`
            // below `FEATURE_SLACK` (a u16), so the read lies inside `patterns`, whose length was
            // checked when it was sliced. Without the bounds checks a search runs about 8% faster
            // (`bench --depth 24`, the same nodes).
            units += i32::from(unsafe { *patterns.get_unchecked(offset as usize + usize::from(index)) });
        }
        let sum =
            units * READ_UNIT + i32::from(extra[constant_index(empties) - BIAS]) + i32::from(extra[mobility - BIAS]);
        sum.clamp(-SEARCH_BOUND, SEARCH_BOUND)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pattern::{FEATURE_PATTERN, Features, OFFSETS, PATTERNS};

    fn sample_weights() -> Weights {
        let mut rng = crate::rng::Rng::new(3);
        let values: Vec<i16> = (0..STAGES * STAGE_LEN)
            .map(|_| if rng.below(3) == 0 { 0 } else { rng.below(2001) as i16 - 1000 })
            .collect();
        let fit =
            ProbCutFit { solve: false, stage: 7, depth: 8, shallow: 3, slope: 0.97, intercept: -12.5, sigma: 321.0 };
        let solve =
            ProbCutFit { solve: true, stage: 5, depth: 22, shallow: 10, slope: 1.01, intercept: 3.0, sigma: 250.0 };
        Weights::new(values, vec![fit, solve]).unwrap()
    }

    #[test]
    fn a_weight_file_round_trips() {
        let w = sample_weights();
        let bytes = w.to_bytes();
        let back = Weights::from_bytes(&bytes).unwrap();
        assert_eq!(back.values(), w.values());
        assert_eq!(back.probcut(), w.probcut());
        assert_eq!(back.hash(), w.hash());
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.probcut_fit(30, 8).map(|f| f.shallow), Some(3));
        assert!(back.probcut_fit(30, 9).is_none() && back.probcut_fit(12, 8).is_none());
        // Deeper searches of the stage carry the deepest fit of their parity on, not shallower.
        let deeper = back.probcut_fit(30, 12).unwrap();
        assert_eq!((deeper.depth, deeper.shallow, deeper.sigma), (12, shallow_depth(12) as u8, 321.0));
        assert!(back.probcut_fit(30, 40).is_some() && back.probcut_fit(30, 6).is_none());
        assert!(back.probcut_fit(30, 11).is_none() && back.probcut_fit(30, 13).is_none());
        assert_eq!(back.solve_fit(22).map(|f| f.shallow), Some(10));
        assert!(back.solve_fit(21).is_none() && back.probcut_fit(22, 22).is_none());
        // Above the most empties fitted, the last fit goes on with the shallow depth of each.
        let carried = back.solve_fit(30).unwrap();
        assert_eq!((carried.depth, carried.shallow, carried.sigma), (30, solve_shallow_depth(30) as u8, 250.0));
        assert_eq!(back.probcut().len(), 2, "carried fits are not written to the file");
        let zero = Weights::zero();
        assert!(zero.to_bytes().len() < 64, "runs of zeros are short");
        assert_ne!(zero.hash(), w.hash());
    }

    #[test]
    fn damaged_or_foreign_files_are_refused() {
        let bytes = sample_weights().to_bytes();
        assert_eq!(Weights::from_bytes(b"hello").unwrap_err(), ParseWeightsError::Magic);
        assert_eq!(Weights::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err(), ParseWeightsError::Truncated);
        let mut flipped = bytes.clone();
        flipped[100] ^= 4;
        assert_eq!(Weights::from_bytes(&flipped).unwrap_err(), ParseWeightsError::Checksum);
        let mut version = bytes.clone();
        version[8] = 1;
        assert_eq!(Weights::from_bytes(&version).unwrap_err(), ParseWeightsError::Version(1));
        let mut model = bytes.clone();
        model[12] = 7;
        assert_eq!(Weights::from_bytes(&model).unwrap_err(), ParseWeightsError::Model(7));
        let mut shape = bytes.clone();
        shape[16] = 30;
        assert_eq!(
            Weights::from_bytes(&shape).unwrap_err(),
            ParseWeightsError::Shape { stages: 30, stage_len: STAGE_LEN as u32 }
        );
        let mut trailing = bytes.clone();
        trailing.push(0);
        assert_eq!(Weights::from_bytes(&trailing).unwrap_err(), ParseWeightsError::Trailing(1));
        for e in [
            ParseWeightsError::Magic,
            ParseWeightsError::Checksum,
            ParseWeightsError::Version(2),
            ParseWeightsError::Model(7),
        ] {
            assert!(!e.to_string().contains('\n'));
        }
        assert!(decode_stream(&[0x80], 1).is_err());
        assert!(decode_stream(&[5], 1).is_err(), "two zeros for one weight");
    }

    #[test]
    fn evaluation_sums_the_features() {
        let w = sample_weights();
        let pos = crate::board::Position::initial().play(crate::board::Square::from_coords(5, 4).unwrap());
        let (p, o) = (pos.player(), pos.opponent());
        let empties = pos.empty_count();
        // Black has 3 moves after f5, White 3 (d6, f4, f6): the mobility table's cell (3, 3).
        let mobility = crate::eval::pattern::MOBILITY + 3 * 25 + 3;
        assert_eq!(crate::eval::pattern::mobility_index(p, o), mobility);
        let expected: i32 = feature_indices(p, o).iter().map(|&i| w.weight_at(empties, i as usize)).sum::<i32>()
            + w.weight_at(empties, constant_index(empties))
            + w.weight_at(empties, mobility);
        assert_eq!(w.evaluate(p, o), expected.clamp(-WIPEOUT, WIPEOUT));
        assert_eq!(w.evaluate_indices(&Features::new(p, o).player, p, o), expected.clamp(-SEARCH_BOUND, SEARCH_BOUND));
        assert_eq!(FEATURE_PATTERN.len(), 76);
        assert_eq!(OFFSETS.len(), PATTERNS.len());
    }

    #[test]
    fn the_search_evaluation_reads_the_same_weights_at_every_stage() {
        // The search's evaluation reads the table without bounds checks: its sums must be those
        // of the checked evaluation, and the slack after the table no weight of the file.
        let steps = sample_weights();
        let interpolated = Weights::with_model(steps.values().to_vec(), Vec::new(), StageModel::Interpolated).unwrap();
        for w in [steps, interpolated] {
            assert_eq!(w.values().len(), STAGES * STAGE_LEN);
            assert_eq!(w.reading.len(), READINGS * STAGE_LEN + FEATURE_SLACK);
            assert!(w.reading[READINGS * STAGE_LEN..].iter().all(|&v| v == 0));
            let mut rng = crate::rng::Rng::new(5);
            for empties in 1..=60 {
                for _ in 0..20 {
                    let pos = crate::board::testing::random_position(&mut rng, crate::board::BoardSize::Eight, empties);
                    let (p, o) = (pos.player(), pos.opponent());
                    let from_scratch = w.evaluate(p, o);
                    let searched = w.evaluate_indices(&Features::new(p, o).player, p, o);
                    assert_eq!(searched.clamp(-WIPEOUT, WIPEOUT), from_scratch, "{pos:?}");
                }
            }
        }
    }

    #[test]
    fn the_tables_read_the_stages_by_the_model() {
        let steps = sample_weights();
        let values = steps.values().to_vec();
        let interpolated = Weights::with_model(values.clone(), Vec::new(), StageModel::Interpolated).unwrap();
        // Rounded to the nearest, halves up.
        let nearest = |v: f64| (v + 0.5).floor() as i32;
        let unit = |v: f64| nearest(v / f64::from(READ_UNIT)).clamp(-127, 127) * READ_UNIT;
        let mut rng = crate::rng::Rng::new(8);
        for _ in 0..2000 {
            let empties = rng.below(61) as u32;
            let index = rng.below(STAGE_LEN);
            let stored = |s: usize| f64::from(values[s * STAGE_LEN + index]);
            let exact = |v: f64| if index < BIAS { unit(v) } else { nearest(v) };
            // In steps a number of empties reads its stage's weight.
            assert_eq!(steps.weight_at(empties, index), exact(stored(stage(empties))), "{empties} {index}");
            // Interpolated, the blend of the stages whose centres surround it.
            let (below, share) = knots(empties);
            let blend = (1.0 - share) * stored(below) + share * stored(below + 1);
            assert_eq!(interpolated.weight_at(empties, index), exact(blend), "{empties} {index}");
        }
        // The centres: stage s at 4s + 1.5 empties, read half and half between them, the ends held.
        assert_eq!(knots(5), (0, 0.875));
        assert_eq!(knots(6), (1, 0.125));
        assert_eq!(knots(7).1, 0.375);
        assert_eq!(knots(0), (0, 0.0));
        assert_eq!(knots(60), (STAGES - 2, 1.0));
        // A weight beyond the byte's reach is read at its bound.
        let mut big = vec![0i16; STAGES * STAGE_LEN];
        big[7] = 3000;
        big[8] = -3000;
        let big = Weights::new(big, Vec::new()).unwrap();
        assert_eq!((big.weight_at(0, 7), big.weight_at(0, 8)), (127 * READ_UNIT, -127 * READ_UNIT));
    }

    #[test]
    fn a_version_4_file_loads_as_steps() {
        let w = Weights::with_model(sample_weights().values().to_vec(), Vec::new(), StageModel::Interpolated).unwrap();
        let bytes = w.to_bytes();
        // Version 4: the same file without the model field.
        let mut old = bytes[..8].to_vec();
        old.extend_from_slice(&4u32.to_le_bytes());
        old.extend_from_slice(&bytes[16..bytes.len() - 8]);
        let hash = fnv1a(&old);
        old.extend_from_slice(&hash.to_le_bytes());
        let back = Weights::from_bytes(&old).unwrap();
        assert_eq!(back.model(), StageModel::Steps);
        assert_eq!(back.values(), w.values());
        let again = Weights::from_bytes(&back.to_bytes()).unwrap();
        assert_eq!((again.model(), again.values()), (StageModel::Steps, back.values()), "written again as version 5");
        assert_eq!(Weights::from_bytes(&bytes).unwrap().model(), StageModel::Interpolated);
        assert_ne!(back, w);
    }

    #[test]
    fn the_embedded_file_loads() {
        let bytes = include_bytes!("pattern.weights");
        let w = Weights::from_bytes(bytes).unwrap();
        let embedded = Weights::embedded();
        assert_eq!(w.hash(), embedded.hash(), "the stored checksum is the file's");
        assert_eq!(w.values(), embedded.values());
        assert_eq!(w.probcut(), embedded.probcut());
    }
}
