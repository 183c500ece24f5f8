//! WTHOR game databases (the Fédération Française d'Othello's `WTH_<year>.wtb` files).
//!
//! A 16-byte header (dates, the number of games, the year, the board size, the depth from which the
//! "theoretical" score is perfect play), then a 68-byte record per game: tournament, black and
//! white player ids (u16 little-endian), Black's final disc count, Black's theoretical disc count,
//! and 60 moves as `10 × row + column` (a1 = 11, h8 = 88), 0 after the last one. Passes are not
//! recorded: when the side to move cannot play, the next move is the other side's.

use crate::board::{Game, IllegalMove, Move, Square};
use std::fmt;
use std::path::{Path, PathBuf};

/// Bytes of the file header.
pub const HEADER_LEN: usize = 16;
/// Bytes of a game record.
pub const RECORD_LEN: usize = 68;

/// The file header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WthorHeader {
    /// Games in the file.
    pub games: u32,
    /// The year of the games.
    pub year: u16,
    /// Empty squares from which the theoretical score is perfect play.
    pub depth: u8,
}

/// One game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    /// Tournament id (an index into `WTHOR.TRN`).
    pub tournament: u16,
    /// Black player id (an index into `WTHOR.JOU`).
    pub black: u16,
    /// White player id.
    pub white: u16,
    /// Black's final disc count as played.
    pub black_discs: u8,
    /// Black's disc count under perfect play from the header's depth on.
    pub theoretical_black_discs: u8,
    /// The moves played, passes not included.
    pub moves: Vec<Square>,
}

impl WthorGame {
    /// The final disc difference for Black as played (the count gives the empties to the winner).
    pub fn score_for_black(&self) -> i32 {
        2 * i32::from(self.black_discs) - 64
    }

    /// The perfect-play disc difference for Black from the header's depth on.
    pub fn theoretical_score_for_black(&self) -> i32 {
        2 * i32::from(self.theoretical_black_discs) - 64
    }

    /// The game replayed from the standard start, forced passes inserted.
    pub fn replay(&self) -> Result<Game, (usize, IllegalMove)> {
        let moves: Vec<Move> = self.moves.iter().copied().map(Move::Play).collect();
        let mut game = Game::default();
        game.play_all(&moves)?;
        Ok(game)
    }
}

/// Why a WTHOR file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseWthorError {
    /// Shorter than its header says.
    Length {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// A board size other than 8x8.
    BoardSize(u8),
    /// A move byte that is not a square.
    Move {
        /// The game's index in the file.
        game: usize,
        /// The move's index in the game.
        index: usize,
        /// The byte.
        byte: u8,
    },
}

impl fmt::Display for ParseWthorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseWthorError::Length { expected, found } => {
                write!(f, "the file has {found} bytes where its header announces {expected}")
            }
            ParseWthorError::BoardSize(size) => write!(f, "board size {size} is not 8x8"),
            ParseWthorError::Move { game, index, byte } => {
                write!(f, "game {}: move {} is byte {byte}, not a square", game + 1, index + 1)
            }
        }
    }
}

impl std::error::Error for ParseWthorError {}

/// Reads a `.wtb` file's bytes.
pub fn parse_wtb(bytes: &[u8]) -> Result<(WthorHeader, Vec<WthorGame>), ParseWthorError> {
    let short = |expected| ParseWthorError::Length { expected, found: bytes.len() };
    let header = bytes.get(..HEADER_LEN).ok_or(short(HEADER_LEN))?;
    let u16_at = |b: &[u8], i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    let games = u32::from_le_bytes([header[4], header[5], header[6], header[7]]);
    let header = WthorHeader { games, year: u16_at(header, 10), depth: header[14] };
    let size = bytes[12];
    if size != 0 && size != 8 {
        return Err(ParseWthorError::BoardSize(size));
    }
    let expected = HEADER_LEN + games as usize * RECORD_LEN;
    if bytes.len() < expected {
        return Err(short(expected));
    }
    let mut list = Vec::with_capacity(games as usize);
    for (game, record) in bytes[HEADER_LEN..expected].chunks_exact(RECORD_LEN).enumerate() {
        let mut moves = Vec::with_capacity(60);
        for (index, &byte) in record[8..].iter().enumerate() {
            if byte == 0 {
                break;
            }
            let (row, col) = (byte / 10, byte % 10);
            let square = (1..=8)
                .contains(&row)
                .then_some(())
                .filter(|()| (1..=8).contains(&col))
                .and_then(|()| Square::from_coords(col - 1, row - 1))
                .ok_or(ParseWthorError::Move { game, index, byte })?;
            moves.push(square);
        }
        list.push(WthorGame {
            tournament: u16_at(record, 0),
            black: u16_at(record, 2),
            white: u16_at(record, 4),
            black_discs: record[6],
            theoretical_black_discs: record[7],
            moves,
        });
    }
    Ok((header, list))
}

/// A `.wtb` file's bytes: the header (dated 1 January of `header.year`, its game count that of
/// `games`), then each game's record. [`parse_wtb`] reads them back.
pub fn write_wtb(header: &WthorHeader, games: &[WthorGame]) -> Vec<u8> {
    let century = (header.year / 100).min(255) as u8;
    let mut bytes = vec![century, (header.year % 100) as u8, 1, 1];
    bytes.extend_from_slice(&(games.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&[0, 0]);
    bytes.extend_from_slice(&header.year.to_le_bytes());
    bytes.extend_from_slice(&[8, 0, header.depth, 0]);
    for game in games {
        for id in [game.tournament, game.black, game.white] {
            bytes.extend_from_slice(&id.to_le_bytes());
        }
        bytes.extend_from_slice(&[game.black_discs, game.theoretical_black_discs]);
        let mut moves: Vec<u8> = game.moves.iter().take(60).map(|s| 10 * (s.row() + 1) + s.col() + 1).collect();
        moves.resize(60, 0);
        bytes.extend_from_slice(&moves);
    }
    bytes
}

/// Bytes of a record of `WTHOR.JOU`, the players' names.
pub const NAME_RECORD_LEN: usize = 20;

/// The players' names of a `WTHOR.JOU` file's bytes, by id: a 16-byte header, then a 20-byte
/// record per player, the name in Latin-1 ended by a zero byte. Names not given by the header's
/// count are not read; a file shorter than its count gives the names it has.
pub fn parse_player_names(bytes: &[u8]) -> Vec<String> {
    let Some(header) = bytes.get(..HEADER_LEN) else { return Vec::new() };
    let count = usize::from(u16::from_le_bytes([header[8], header[9]]));
    bytes[HEADER_LEN..]
        .chunks_exact(NAME_RECORD_LEN)
        .take(count)
        .map(|record| {
            let name = record.split(|&b| b == 0).next().unwrap_or_default();
            // Latin-1 maps each byte to the character of that code.
            name.iter().map(|&b| char::from(b)).collect::<String>().trim().to_string()
        })
        .collect()
}

/// The `.wtb` files of a directory (or the file itself), in name order.
pub fn wtb_files(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb")))
        .collect();
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file with the given games, each (black discs, theoretical, move bytes).
    fn file(games: &[(u8, u8, &[u8])]) -> Vec<u8> {
        let mut bytes = vec![20, 19, 7, 27];
        bytes.extend_from_slice(&(games.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&[0, 0]);
        bytes.extend_from_slice(&2019u16.to_le_bytes());
        bytes.extend_from_slice(&[8, 0, 24, 0]);
        for (black, theoretical, moves) in games {
            bytes.extend_from_slice(&[22, 0, 100, 9, 22, 0, *black, *theoretical]);
            let mut m = moves.to_vec();
            m.resize(60, 0);
            bytes.extend_from_slice(&m);
        }
        bytes
    }

    #[test]
    fn written_files_read_back() {
        let bytes = file(&[(22, 30, &[56, 64, 33, 34, 43]), (64, 64, &[56])]);
        let (header, games) = parse_wtb(&bytes).unwrap();
        let written = write_wtb(&header, &games);
        assert_eq!(parse_wtb(&written).unwrap(), (header, games));
        assert_eq!(written[HEADER_LEN..], bytes[HEADER_LEN..], "the records, byte for byte");
    }

    #[test]
    fn reads_header_and_games() {
        // The first game of WTH_2019.wtb starts 56 64 33 34 43 = f5 d6 c3 d3 c4.
        let bytes = file(&[(22, 30, &[56, 64, 33, 34, 43])]);
        let (header, games) = parse_wtb(&bytes).unwrap();
        assert_eq!(header, WthorHeader { games: 1, year: 2019, depth: 24 });
        let g = &games[0];
        assert_eq!((g.tournament, g.black, g.white), (22, 2404, 22));
        assert_eq!(g.score_for_black(), -20);
        assert_eq!(g.theoretical_score_for_black(), -4);
        let names: Vec<String> = g.moves.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["f5", "d6", "c3", "d3", "c4"]);
        assert_eq!(g.replay().unwrap().moves().len(), 5);
    }

    #[test]
    fn player_names_are_latin_1_records() {
        let mut bytes = vec![0u8; HEADER_LEN];
        bytes[8] = 2;
        for name in [&b"Tastet Marc"[..], b"M\xe9ril Ann"] {
            let mut record = name.to_vec();
            record.resize(NAME_RECORD_LEN, 0);
            bytes.extend_from_slice(&record);
        }
        // A record beyond the header's count is not a name.
        bytes.extend_from_slice(&[b'x'; NAME_RECORD_LEN]);
        assert_eq!(parse_player_names(&bytes), ["Tastet Marc", "M\u{e9}ril Ann"]);
        assert_eq!(parse_player_names(&bytes[..HEADER_LEN + 25]), ["Tastet Marc"]);
        assert!(parse_player_names(&bytes[..3]).is_empty());
    }

    #[test]
    fn broken_files_are_errors() {
        let bytes = file(&[(22, 30, &[56, 64])]);
        assert_eq!(
            parse_wtb(&bytes[..50]),
            Err(ParseWthorError::Length { expected: HEADER_LEN + RECORD_LEN, found: 50 })
        );
        assert!(parse_wtb(&bytes[..3]).is_err());
        let bad_move = file(&[(22, 30, &[56, 99])]);
        assert_eq!(parse_wtb(&bad_move), Err(ParseWthorError::Move { game: 0, index: 1, byte: 99 }));
        let mut ten = file(&[]);
        ten[12] = 10;
        assert_eq!(parse_wtb(&ten), Err(ParseWthorError::BoardSize(10)));
        // An illegal move replays as an error naming it.
        let illegal = file(&[(22, 30, &[56, 11])]);
        let (_, games) = parse_wtb(&illegal).unwrap();
        assert_eq!(games[0].replay().unwrap_err().0, 1);
    }
}
