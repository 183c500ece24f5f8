//! Move lists: `f5d6c3` (run together, as in opening books and Edax) or `f5 d6 c3` (one token a
//! move, as in UGI `position … moves`), in either case, with passes written `pass`, `PA` or `--`.

use crate::board::{Move, Square};
use crate::quote::Quoted;
use std::fmt;

/// A move list token that is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMovesError {
    /// The offending text.
    pub token: String,
}

impl fmt::Display for ParseMovesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a move (expected a1..h8, pass or PA)", Quoted(&self.token))
    }
}

impl std::error::Error for ParseMovesError {}

/// Parses a move list. Tokens are separated by blanks or commas; inside a token, moves may follow
/// each other without separators (`f5d6PAc3`).
pub fn parse_moves(text: &str) -> Result<Vec<Move>, ParseMovesError> {
    let mut moves = Vec::new();
    for token in text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
        let chars: Vec<char> = token.chars().collect();
        let mut rest = &chars[..];
        while !rest.is_empty() {
            let starts = |word: &str| {
                rest.len() >= word.len() && rest.iter().zip(word.chars()).all(|(a, b)| a.eq_ignore_ascii_case(&b))
            };
            let taken = if starts("pass") {
                4
            } else if starts("pa") || starts("--") {
                2
            } else {
                let piece: String = rest.iter().take(2).collect();
                let sq = piece.parse::<Square>().map_err(|_| ParseMovesError { token: piece })?;
                moves.push(Move::Play(sq));
                rest = &rest[2..];
                continue;
            };
            moves.push(Move::Pass);
            rest = &rest[taken..];
        }
    }
    Ok(moves)
}

/// The moves run together, passes as `PA`: `f5d6PAc3`.
pub fn compact_moves(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| match m {
            Move::Play(sq) => sq.to_string(),
            Move::Pass => "PA".to_string(),
        })
        .collect()
}

/// The moves separated by spaces, passes as `pass`: `f5 d6 pass c3`.
pub fn spaced_moves(moves: &[Move]) -> String {
    moves.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn both_forms_parse() {
        let expected = vec![mv("f5"), mv("d6"), mv("c3")];
        assert_eq!(parse_moves("f5d6c3"), Ok(expected.clone()));
        assert_eq!(parse_moves("F5 D6 c3"), Ok(expected.clone()));
        assert_eq!(parse_moves(" f5, d6c3 "), Ok(expected));
        assert_eq!(parse_moves("f5PAd6 pass --"), Ok(vec![mv("f5"), Move::Pass, mv("d6"), Move::Pass, Move::Pass]));
        assert_eq!(parse_moves(""), Ok(vec![]));
    }

    #[test]
    fn errors_name_the_token() {
        assert_eq!(parse_moves("f5d9c3").unwrap_err().token, "d9");
        assert_eq!(parse_moves("f5 x").unwrap_err().token, "x");
        assert_eq!(parse_moves("f5é1").unwrap_err().token, "é1");
        assert_eq!(parse_moves("f5d").unwrap_err().token, "d");
    }

    #[test]
    fn printing_round_trips() {
        let moves = vec![mv("f5"), Move::Pass, mv("a1"), mv("h8")];
        assert_eq!(compact_moves(&moves), "f5PAa1h8");
        assert_eq!(spaced_moves(&moves), "f5 pass a1 h8");
        assert_eq!(parse_moves(&compact_moves(&moves)), Ok(moves.clone()));
        assert_eq!(parse_moves(&spaced_moves(&moves)), Ok(moves));
    }
}
