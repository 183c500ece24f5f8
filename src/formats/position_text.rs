//! The one-line position text of Edax, Egaroucid and the FFO files: the squares a1, b1, …, h8
//! (`X` black, `O` white, `-` empty), a space, and the side to move (`X` or `O`).
//!
//! Parsing is lenient the way users paste boards: `*`, `b` and `x` are black, `0`, `w` and `o`
//! white, `.` and `_` empty, in either case, and whitespace anywhere (GGS writes the rows apart) is
//! skipped. 16 or 36 squares select the 4x4 or 6x6 board. Printing always writes the canonical
//! `X`/`O`/`-` form, which every tool reads.

use crate::board::{BoardSize, Color, Position, PositionError, Square};
use crate::quote::Quoted;
use std::fmt;
use std::str::FromStr;

/// Why a position text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePositionError {
    /// The text holds nothing but blanks.
    Empty,
    /// The text has the wrong number of squares.
    Length {
        /// The text, quoted in the message (`None` for a diagram, which is not one line).
        text: Option<String>,
        /// The squares found (the non-blank characters, the side to move aside).
        squares: usize,
        /// Whether the text ends with a side to move, apart from the squares.
        side: bool,
    },
    /// A whole position, then more text.
    Stray {
        /// The whole text.
        text: String,
        /// What follows the position.
        after: String,
    },
    /// A character that is neither a disc nor an empty square.
    BadSquare {
        /// The character.
        found: char,
        /// Where it stands on the board.
        square: Square,
    },
    /// The side-to-move character is not X or O.
    BadSide(char),
    /// The discs do not make a position.
    Invalid(PositionError),
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const EXPECTED: &str = "expected 16, 36 or 64 squares then X or O";
        match self {
            ParsePositionError::Empty => f.write_str("the position is empty"),
            ParsePositionError::Length { text, squares, side } => {
                let what = text.as_deref().map_or_else(|| "the diagram".to_string(), |t| Quoted(t).to_string());
                match (side, squares) {
                    (true, n) => write!(f, "position {what} has {n} squares then a side to move; {EXPECTED}"),
                    (false, 16 | 36 | 64) => {
                        write!(f, "position {what} has {squares} squares but no side to move (add X or O)")
                    }
                    (false, n) => write!(f, "position {what} has {n} squares and no side to move; {EXPECTED}"),
                }
            }
            ParsePositionError::Stray { text, after } => write!(
                f,
                "unexpected {} after the position in {} (a position is 16, 36 or 64 squares then X or O)",
                Quoted(after),
                Quoted(text)
            ),
            ParsePositionError::BadSquare { found, square } => {
                write!(
                    f,
                    "{} at {square} is not a square (expected X, O or - ; also *, b, w, .)",
                    Quoted(&found.to_string())
                )
            }
            ParsePositionError::BadSide(c) => {
                write!(f, "{} is not a side to move (expected X or O)", Quoted(&c.to_string()))
            }
            ParsePositionError::Invalid(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ParsePositionError {}

/// The colour of a board character, `Some(None)` for an empty square, `None` if not a square.
pub fn square_char(c: char) -> Option<Option<Color>> {
    match c.to_ascii_lowercase() {
        'x' | '*' | 'b' => Some(Some(Color::Black)),
        'o' | '0' | 'w' => Some(Some(Color::White)),
        '-' | '.' | '_' => Some(None),
        _ => None,
    }
}

/// The colour named by a side-to-move character.
pub fn side_char(c: char) -> Option<Color> {
    square_char(c).flatten()
}

/// Reads the board squares from `chars` (exactly 16, 36 or 64 of them, a1 first).
pub fn parse_squares(chars: &[char], side_to_move: Color) -> Result<Position, ParsePositionError> {
    let size = BoardSize::from_side(chars.len().isqrt())
        .filter(|s| s.squares() as usize == chars.len())
        .ok_or(ParsePositionError::Length { text: None, squares: chars.len(), side: false })?;
    let n = size.side();
    let (mut black, mut white) = (0u64, 0u64);
    for (i, &c) in chars.iter().enumerate() {
        let square =
            Square::from_coords((i % n) as u8, (i / n) as u8).unwrap_or_else(|| unreachable!("index below 64"));
        match square_char(c) {
            Some(Some(Color::Black)) => black |= square.bit(),
            Some(Some(Color::White)) => white |= square.bit(),
            Some(None) => {}
            None => return Err(ParsePositionError::BadSquare { found: c, square }),
        }
    }
    Position::from_discs(black, white, side_to_move, size).map_err(ParsePositionError::Invalid)
}

/// Parses a position text: the squares then the side to move.
pub fn parse_position(text: &str) -> Result<Position, ParsePositionError> {
    // The non-blank characters, each with where the next character of the text starts.
    let chars: Vec<(char, usize)> =
        text.char_indices().filter(|(_, c)| !c.is_whitespace()).map(|(i, c)| (c, i + c.len_utf8())).collect();
    let Some(&(side, _)) = chars.last() else { return Err(ParsePositionError::Empty) };
    let squares: Vec<char> = chars[..chars.len() - 1].iter().map(|&(c, _)| c).collect();
    if [16, 36, 64].contains(&squares.len()) {
        let side_to_move = side_char(side).ok_or(ParsePositionError::BadSide(side))?;
        return parse_squares(&squares, side_to_move);
    }
    // A whole position, its side to move a word's end, then more text: name what follows.
    for n in [64, 36, 16] {
        let whole = chars.len() > n + 1
            && chars[..n].iter().all(|&(c, _)| square_char(c).is_some())
            && side_char(chars[n].0).is_some()
            && text[chars[n].1..].starts_with(char::is_whitespace);
        if whole {
            let after = text[chars[n].1..].trim().to_string();
            return Err(ParsePositionError::Stray { text: text.trim().to_string(), after });
        }
    }
    // A lone last word of one character that can be a side to move is one.
    let lone_side = side_char(side).is_some() && text.trim_end().len() > 1 && {
        let before = text.trim_end()[..text.trim_end().len() - side.len_utf8()].chars().last();
        before.is_some_and(char::is_whitespace)
    };
    let squares = if lone_side { chars.len() - 1 } else { chars.len() };
    Err(ParsePositionError::Length { text: Some(text.trim().to_string()), squares, side: lone_side })
}

/// The squares of `pos` in the canonical `X`/`O`/`-` form, a1 first, without the side to move.
pub fn squares_text(pos: &Position) -> String {
    let n = pos.size().side();
    let (black, white) = (pos.black(), pos.white());
    (0..n * n)
        .map(|i| {
            let square =
                Square::from_coords((i % n) as u8, (i / n) as u8).unwrap_or_else(|| unreachable!("index below 64"));
            if black.contains(square) {
                'X'
            } else if white.contains(square) {
                'O'
            } else {
                '-'
            }
        })
        .collect()
}

impl fmt::Display for Position {
    /// The canonical text: squares, a space, `X` or `O`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", squares_text(self), self.side_to_move().symbol())
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        parse_position(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn start_position_text() {
        assert_eq!(Position::initial().to_string(), START);
        assert_eq!(parse_position(START), Ok(Position::initial()));
        assert_eq!(Position::start(BoardSize::Four).to_string(), "-----OX--XO----- X");
        assert_eq!(parse_position("-----OX--XO----- X"), Ok(Position::start(BoardSize::Four)));
    }

    #[test]
    fn lenient_characters_and_whitespace() {
        let ggs = "-------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *";
        assert_eq!(parse_position(ggs), Ok(Position::initial()));
        let dots = START.replace('-', ".").replace('X', "b").replace('O', "w");
        assert_eq!(parse_position(&dots), Ok(Position::initial()));
        let white = START.replace(" X", "O");
        assert_eq!(parse_position(&white).map(|p| p.side_to_move()), Ok(Color::White));
    }

    #[test]
    fn errors_name_the_problem() {
        let length = |text: &str| match parse_position(text) {
            Err(ParsePositionError::Length { squares, side, .. }) => Some((squares, side)),
            _ => None,
        };
        assert_eq!(parse_position(""), Err(ParsePositionError::Empty));
        assert_eq!(parse_position("   "), Err(ParsePositionError::Empty));
        assert_eq!(length(&START[..64]), Some((64, false)));
        assert!(parse_position(&START[..64]).unwrap_err().to_string().contains("64 squares but no side to move"));
        // 63 squares then the side: not "64 squares and no side to move".
        assert_eq!(length(&START[1..]), Some((63, true)));
        let msg = parse_position(&START[1..]).unwrap_err().to_string();
        assert!(msg.contains("has 63 squares then a side to move") && msg.contains(&START[1..20]), "{msg}");
        let bad = START.replacen('-', "q", 3);
        assert_eq!(
            parse_position(&bad),
            Err(ParsePositionError::BadSquare { found: 'q', square: "a1".parse().unwrap() })
        );
        assert_eq!(parse_position(&START.replace(" X", " Z")), Err(ParsePositionError::BadSide('Z')));
        let msg = parse_position(&START.replace(" X", " Z")).unwrap_err().to_string();
        assert!(msg.contains("'Z'"), "{msg}");
        // 25 squares (5x5) is not a supported board.
        assert_eq!(length(&"-".repeat(26)), Some((26, false)));
        assert_eq!(length(&format!("{} X", "-".repeat(25))), Some((25, true)));
    }

    #[test]
    fn a_stray_word_after_a_position_is_named() {
        let err = parse_position(&format!("{START} moves")).unwrap_err();
        assert_eq!(err, ParsePositionError::Stray { text: format!("{START} moves"), after: "moves".to_string() });
        let msg = err.to_string();
        assert!(msg.starts_with("unexpected 'moves' after the position in '-----"), "{msg}");
        let four = "-----OX--XO----- X f5 d6";
        assert!(matches!(parse_position(four), Err(ParsePositionError::Stray { after, .. }) if after == "f5 d6"));
        // Squares that run on are not a position then more text.
        assert_eq!(length_error(&format!("{}{START}", "-")), Some((65, true)));
    }

    fn length_error(text: &str) -> Option<(usize, bool)> {
        match parse_position(text) {
            Err(ParsePositionError::Length { squares, side, .. }) => Some((squares, side)),
            _ => None,
        }
    }
}
