//! The ASCII board for people: coordinates around the board, `X` black, `O` white, `-` empty,
//! `.` on the empty squares where the side to move may play, then the side to move and the disc
//! counts. The diagram parses back, so a board copied from a terminal can be pasted in.
//!
//! ```text
//!   a b c d e f g h
//! 1 - - - - - - - - 1
//! 2 - - - - - - - - 2
//! 3 - - - . - - - - 3
//! 4 - - . O X - - - 4
//! 5 - - - X O . - - 5
//! 6 - - - - . - - - 6
//! 7 - - - - - - - - 7
//! 8 - - - - - - - - 8
//!   a b c d e f g h
//! X to move   X: 2  O: 2  empty: 60
//! ```

use super::position_text::{ParsePositionError, parse_squares, side_char};
use crate::board::{Color, Position, Square};
use std::fmt::Write;

/// The diagram of `pos`, ending with a newline.
pub fn ascii_board(pos: &Position) -> String {
    let n = pos.size().side();
    let legal = pos.legal_moves();
    let letters: String = (0..n).map(|c| format!(" {}", (b'a' + c as u8) as char)).collect();
    let mut out = format!(" {letters}\n");
    for row in 0..n {
        let _ = write!(out, "{}", row + 1);
        for col in 0..n {
            let sq = Square::from_coords(col as u8, row as u8).unwrap_or_else(|| unreachable!("on the grid"));
            let c = if pos.black().contains(sq) {
                'X'
            } else if pos.white().contains(sq) {
                'O'
            } else if legal.contains(sq) {
                '.'
            } else {
                '-'
            };
            let _ = write!(out, " {c}");
        }
        let _ = writeln!(out, " {}", row + 1);
    }
    let (black, white) = pos.disc_counts();
    let state = if pos.is_game_over() {
        let score = pos.final_score_for_black();
        match score.signum() {
            1 => format!(" (game over: X wins by {score})"),
            -1 => format!(" (game over: O wins by {})", -score),
            _ => " (game over: draw)".to_string(),
        }
    } else if pos.must_pass() {
        " (must pass)".to_string()
    } else {
        String::new()
    };
    let _ = writeln!(out, " {letters}");
    let _ = writeln!(
        out,
        "{} to move{state}   X: {black}  O: {white}  empty: {}",
        pos.side_to_move().symbol(),
        pos.empty_count()
    );
    out
}

/// Reads a diagram written by [`ascii_board`] (or typed in its layout): the rows that start with
/// their number, and the line `X to move` or `O to move`. `.` reads as an empty square.
pub fn parse_ascii_board(text: &str) -> Result<Position, ParsePositionError> {
    let mut squares = Vec::new();
    let mut side = None;
    for line in text.lines() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if line.contains("to move") {
            let c = line.trim_start().chars().next().unwrap_or(' ');
            side = Some(side_char(c).ok_or(ParsePositionError::BadSide(c))?);
            continue;
        }
        let is_row = tokens.first().and_then(|t| t.parse::<usize>().ok()).is_some_and(|r| (1..=8).contains(&r));
        if !is_row {
            continue;
        }
        for token in &tokens[1..] {
            if token.parse::<usize>().is_ok() {
                break;
            }
            let mut chars = token.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => squares.push(c),
                _ => squares.extend(token.chars()),
            }
        }
    }
    let side = side.unwrap_or(Color::Black);
    match squares.len() {
        16 | 36 | 64 => parse_squares(&squares, side),
        found => Err(ParsePositionError::Length { text: None, squares: found, side: true }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;

    #[test]
    fn start_diagram() {
        let text = ascii_board(&Position::initial());
        let expected = "  a b c d e f g h
1 - - - - - - - - 1
2 - - - - - - - - 2
3 - - - . - - - - 3
4 - - . O X - - - 4
5 - - - X O . - - 5
6 - - - - . - - - 6
7 - - - - - - - - 7
8 - - - - - - - - 8
  a b c d e f g h
X to move   X: 2  O: 2  empty: 60
";
        assert_eq!(text, expected);
        assert_eq!(parse_ascii_board(&text), Ok(Position::initial()));
    }

    #[test]
    fn small_boards_and_white_to_move() {
        let start = Position::start(BoardSize::Six);
        let pos = start.play(start.legal_moves().first().unwrap());
        let text = ascii_board(&pos);
        assert!(text.contains("O to move"));
        assert_eq!(parse_ascii_board(&text), Ok(pos));
    }

    #[test]
    fn broken_diagrams_are_errors() {
        let text = ascii_board(&Position::initial()).replacen("4 - - .", "4 - - ?", 1);
        assert!(matches!(parse_ascii_board(&text), Err(ParsePositionError::BadSquare { found: '?', .. })));
        let missing_row: String = ascii_board(&Position::initial())
            .lines()
            .filter(|l| !l.starts_with('3'))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(matches!(parse_ascii_board(&missing_row), Err(ParsePositionError::Length { .. })));
        assert!(parse_ascii_board("").is_err());
    }
}
