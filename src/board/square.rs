//! Squares, colours and moves: the vocabulary every other module speaks.
//!
//! A square is a bit index 0..64 laid out row by row: a1 = 0, b1 = 1, …, h1 = 7, a2 = 8, …, h8 = 63,
//! with row 1 at the top of the board as Othello players write it. Smaller boards use the top-left
//! corner of the same grid (a1..d4 on 4x4, a1..f6 on 6x6).

use crate::quote::Quoted;
use std::fmt;
use std::str::FromStr;

/// One of the 64 squares of the 8x8 grid.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with bit index `index` (0..64), or `None` outside the grid.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 { Some(Square(index)) } else { None }
    }

    /// The square with bit index `index`; the caller guarantees `index < 64`.
    #[inline]
    pub const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < 64);
        Square(index as u8)
    }

    /// The square in column `col` (0 = a) and row `row` (0 = row 1), if both are below 8.
    pub const fn from_coords(col: u8, row: u8) -> Option<Square> {
        if col < 8 && row < 8 { Some(Square(row * 8 + col)) } else { None }
    }

    /// Bit index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column 0..8 (0 = a).
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 & 7
    }

    /// Row 0..8 (0 = row 1, the top row).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }

    /// The one-bit mask of this square.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// The name in upper case (`F5`), as NBoard and GTP clients print it.
    pub fn to_uppercase(self) -> String {
        self.to_string().to_uppercase()
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = [b'a' + self.col(), b'1' + self.row()];
        f.write_str(std::str::from_utf8(&name).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A square name that is not `a1`..`h8`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError {
    /// The offending text.
    pub token: String,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a square (expected a1..h8)", Quoted(&self.token))
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `a1`..`h8`, in either case.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError { token: s.to_string() };
        let bytes = s.as_bytes();
        if bytes.len() != 2 {
            return Err(err());
        }
        let col = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = bytes[1].wrapping_sub(b'1');
        Square::from_coords(col, row).ok_or_else(err)
    }
}

/// The colour of a disc or of a player. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// The first player (`X`, `*` in GGF).
    Black,
    /// The second player (`O`).
    White,
}

impl Color {
    /// The other colour.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The board character of this colour's discs in the Edax/FFO text form: `X` or `O`.
    pub const fn symbol(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// The colour's name in lower case.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A move: a disc played on a square, or a pass (only legal when no disc can be played).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Play a disc on this square.
    Play(Square),
    /// Pass the turn.
    Pass,
}

impl Move {
    /// The square played, or `None` for a pass.
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Play(sq) => Some(sq),
            Move::Pass => None,
        }
    }

    /// The move in upper case (`F5`, `PASS`), as GTP and GoGui print it.
    pub fn to_uppercase(self) -> String {
        self.to_string().to_uppercase()
    }
}

impl From<Square> for Move {
    fn from(sq: Square) -> Move {
        Move::Play(sq)
    }
}

impl fmt::Display for Move {
    /// `f5`, or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => fmt::Display::fmt(sq, f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A move that is neither a square nor a pass word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    /// The offending text.
    pub token: String,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a move (expected a1..h8 or pass)", Quoted(&self.token))
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses a square in either case, or a pass written `pass`, `PA` or `--` (the forms used
    /// by UGI, GTP and GGF), in either case.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        if is_pass_word(s) {
            return Ok(Move::Pass);
        }
        s.parse::<Square>().map(Move::Play).map_err(|_| ParseMoveError { token: s.to_string() })
    }
}

/// Whether `s` is one of the accepted spellings of a pass.
pub fn is_pass_word(s: &str) -> bool {
    ["pass", "pa", "--"].iter().any(|w| s.eq_ignore_ascii_case(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>(), Ok(sq));
            assert_eq!(name.to_uppercase().parse::<Square>(), Ok(sq));
        }
        assert_eq!("a1".parse::<Square>().map(Square::index), Ok(0));
        assert_eq!("h1".parse::<Square>().map(Square::index), Ok(7));
        assert_eq!("a2".parse::<Square>().map(Square::index), Ok(8));
        assert_eq!("h8".parse::<Square>().map(Square::index), Ok(63));
    }

    #[test]
    fn bad_squares_are_rejected_with_the_token() {
        for bad in ["", "a", "a0", "i1", "a9", "11", "aa", "a10", "é1"] {
            let err = bad.parse::<Square>().unwrap_err();
            assert_eq!(err.token, bad);
        }
    }

    #[test]
    fn moves_parse_squares_and_pass_words() {
        assert_eq!("F5".parse::<Move>(), Ok(Move::Play("f5".parse().unwrap())));
        for pass in ["pass", "PASS", "PA", "pa", "--"] {
            assert_eq!(pass.parse::<Move>(), Ok(Move::Pass));
        }
        assert!("p".parse::<Move>().is_err());
        assert_eq!(Move::Pass.to_string(), "pass");
        assert_eq!(Move::Pass.to_uppercase(), "PASS");
    }
}
