//! Training samples: positions with a score, in the compact binary format that `magpie datagen`
//! writes and `magpie train` reads.
//!
//! A file is a sequence of 20-byte records with no header, so that shards made on many machines
//! merge by concatenating their files. Each record, little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | the side to move's discs (bit 0 = a1, bit 7 = h1, bit 63 = h8) |
//! | 8..16 | the other side's discs |
//! | 16..18 | the score for the side to move, i16, in centi-discs (an exact score is discs × 100) |
//! | 18 | the depth of the search that gave the score; 60 means solved exactly |
//! | 19 | the format version (1) in the high four bits, the source in the low four |
//!
//! Only 8x8 positions are stored. A record is checked when read: discs on both sides of one
//! square, a score beyond ±6400, an unknown version or source, or a file whose length is not a
//! multiple of 20 is refused with the record's number.

use std::fmt;

/// The length of one record in bytes.
pub const RECORD_LEN: usize = 20;

/// The version written in each record.
pub const VERSION: u8 = 1;

/// The depth recorded for an exact score.
pub const EXACT_DEPTH: u8 = 60;

/// Where a sample's score comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Magpie's self-play, scored by a search or the exact solver (`magpie datagen`).
    SelfPlay = 1,
    /// A WTHOR game, scored by the exact solver.
    WthorSolved = 2,
    /// A WTHOR game, scored by the database's perfect-play result from 24 empties.
    WthorTheoretical = 3,
    /// A WTHOR game, scored by a depth-limited search (`wthor-samples --depth`).
    WthorSearched = 4,
}

impl Source {
    fn from_bits(bits: u8) -> Option<Source> {
        match bits {
            1 => Some(Source::SelfPlay),
            2 => Some(Source::WthorSolved),
            3 => Some(Source::WthorTheoretical),
            4 => Some(Source::WthorSearched),
            _ => None,
        }
    }
}

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sample {
    /// The side to move's discs.
    pub player: u64,
    /// The other side's discs.
    pub opponent: u64,
    /// The score for the side to move, in centi-discs.
    pub score: i16,
    /// The search depth behind the score ([`EXACT_DEPTH`] if exact).
    pub depth: u8,
    /// Where the score comes from.
    pub source: Source,
}

impl Sample {
    /// The number of empty squares.
    pub fn empties(&self) -> u32 {
        64 - (self.player | self.opponent).count_ones()
    }

    /// The record's 20 bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_LEN] {
        let mut out = [0u8; RECORD_LEN];
        out[0..8].copy_from_slice(&self.player.to_le_bytes());
        out[8..16].copy_from_slice(&self.opponent.to_le_bytes());
        out[16..18].copy_from_slice(&self.score.to_le_bytes());
        out[18] = self.depth;
        out[19] = VERSION << 4 | self.source as u8;
        out
    }
}

/// Why a samples file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseSamplesError {
    /// The length is not a whole number of records.
    Length(usize),
    /// A record is not valid.
    Record {
        /// Its number, from 0.
        index: usize,
        /// What is wrong with it.
        problem: &'static str,
    },
}

impl fmt::Display for ParseSamplesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSamplesError::Length(len) => {
                write!(f, "{len} bytes is not a whole number of {RECORD_LEN}-byte sample records")
            }
            ParseSamplesError::Record { index, problem } => write!(f, "sample record {index}: {problem}"),
        }
    }
}

impl std::error::Error for ParseSamplesError {}

/// Reads one record.
pub fn parse_record(bytes: &[u8; RECORD_LEN]) -> Result<Sample, &'static str> {
    let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or([0; 8]));
    let (player, opponent) = (word(0), word(8));
    let score = i16::from_le_bytes([bytes[16], bytes[17]]);
    let depth = bytes[18];
    if bytes[19] >> 4 != VERSION {
        return Err("unknown format version");
    }
    let source = Source::from_bits(bytes[19] & 15).ok_or("unknown source")?;
    if player & opponent != 0 {
        return Err("a square holds discs of both sides");
    }
    if score.unsigned_abs() > 6400 {
        return Err("score beyond ±6400 centi-discs");
    }
    if depth > EXACT_DEPTH {
        return Err("depth above 60");
    }
    Ok(Sample { player, opponent, score, depth, source })
}

/// Reads a whole file's records.
pub fn parse_samples(bytes: &[u8]) -> Result<Vec<Sample>, ParseSamplesError> {
    if !bytes.len().is_multiple_of(RECORD_LEN) {
        return Err(ParseSamplesError::Length(bytes.len()));
    }
    bytes
        .chunks_exact(RECORD_LEN)
        .enumerate()
        .map(|(index, chunk)| {
            let record: &[u8; RECORD_LEN] = chunk.try_into().map_err(|_| ParseSamplesError::Length(bytes.len()))?;
            parse_record(record).map_err(|problem| ParseSamplesError::Record { index, problem })
        })
        .collect()
}

/// Reads a whole samples file; an unreadable or broken one is an error naming the file.
pub fn read_file(path: &std::path::Path) -> std::io::Result<Vec<Sample>> {
    use std::io::{Error, ErrorKind};
    let bytes = std::fs::read(path).map_err(|e| Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    parse_samples(&bytes).map_err(|e| Error::new(ErrorKind::InvalidData, format!("{}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_concatenate() {
        let a = Sample {
            player: 0x0000_0008_1000_0000,
            opponent: 0x0000_0010_0800_0000,
            score: -250,
            depth: 8,
            source: Source::SelfPlay,
        };
        let b = Sample { score: 6400, depth: EXACT_DEPTH, source: Source::WthorSolved, ..a };
        let mut bytes = a.to_bytes().to_vec();
        bytes.extend(b.to_bytes());
        assert_eq!(parse_samples(&bytes), Ok(vec![a, b]));
        assert_eq!(a.empties(), 60);
    }

    #[test]
    fn broken_records_are_refused_with_their_number() {
        let a = Sample { player: 1, opponent: 2, score: 0, depth: 4, source: Source::SelfPlay };
        let mut bytes = a.to_bytes().to_vec();
        assert_eq!(parse_samples(&bytes[..19]), Err(ParseSamplesError::Length(19)));
        let mut both = a.to_bytes();
        both[8] = 1;
        bytes.extend(both);
        assert_eq!(
            parse_samples(&bytes),
            Err(ParseSamplesError::Record { index: 1, problem: "a square holds discs of both sides" })
        );
        let mut version = a.to_bytes();
        version[19] = 0x21;
        assert!(parse_record(&version).unwrap_err().contains("version"));
        let mut score = a.to_bytes();
        score[16..18].copy_from_slice(&7000i16.to_le_bytes());
        assert!(parse_record(&score).is_err());
        assert!(ParseSamplesError::Length(19).to_string().contains("19 bytes"));
    }
}
