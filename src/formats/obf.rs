//! OBF lines, the format of the FFO endgame test suite as kept by Edax:
//! `<position> <side>; G8:+18; H1:+12;` — the position text, then the exact score of each move
//! (best first) for the side to move. Anything after a `%` is a comment.
//!
//! Every form Edax and the tools built on it write is read: moves in either case; a pass as `PA`,
//! `pass` or `--` where the side to move must pass (`--:+12;`); the entry `--:-127;` that Edax's
//! problem files (hard-20, hard-25) end each line with, the pass with −127 standing for "not a
//! legal move", which says nothing and is skipped; and a bare score (`<position>; +18;`), the
//! position's value when no move is listed.

use super::position_text::{ParsePositionError, parse_position};
use crate::board::{IllegalMove, Move, Position};
use crate::quote::Quoted;
use std::fmt;
use std::str::FromStr;

/// One OBF line: a position and the known scores of (some of) its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfLine {
    /// The position.
    pub position: Position,
    /// Each listed move with its exact score for the side to move, in file order (best first).
    pub scores: Vec<(Move, i32)>,
    /// The position's score given without a move (`<position>; +18;`), if any.
    pub score: Option<i32>,
}

/// The score Edax writes for a move that is not legal (`--:-127;`, the pass of a position that
/// need not pass).
pub const NOT_A_MOVE_SCORE: i32 = -127;

impl ObfLine {
    /// The best score listed (of the moves, else the bare score), if any.
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|s| s.1).max().or(self.score)
    }

    /// The moves that reach the best score.
    pub fn best_moves(&self) -> Vec<Move> {
        let best = self.best_score();
        self.scores.iter().filter(|s| Some(s.1) == best).map(|s| s.0).collect()
    }
}

/// Why an OBF line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseObfError {
    /// The position part is wrong.
    Position(ParsePositionError),
    /// A `move:score` item is malformed.
    Item(String),
    /// A listed move is illegal in the position.
    Illegal(IllegalMove),
}

impl fmt::Display for ParseObfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseObfError::Position(e) => e.fmt(f),
            ParseObfError::Item(item) => write!(f, "{} is not a move and score (expected e.g. G8:+18)", Quoted(item)),
            ParseObfError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ParseObfError {}

impl FromStr for ObfLine {
    type Err = ParseObfError;

    fn from_str(line: &str) -> Result<ObfLine, ParseObfError> {
        let line = line.split('%').next().unwrap_or_default();
        let mut parts = line.split(';');
        let position = parse_position(parts.next().unwrap_or_default()).map_err(ParseObfError::Position)?;
        let mut scores = Vec::new();
        let mut score = None;
        for item in parts.map(str::trim).filter(|p| !p.is_empty()) {
            let bad = || ParseObfError::Item(item.to_string());
            let disc_score = |text: &str| text.trim().parse::<i32>().ok().filter(|s| (-64..=64).contains(s));
            let Some((mv, value)) = item.split_once(':') else {
                // A bare score: the position's value, once, before or without moves.
                score = Some(disc_score(item).filter(|_| score.is_none()).ok_or_else(bad)?);
                continue;
            };
            let mv: Move = mv.trim().parse().map_err(|_| bad())?;
            if mv == Move::Pass && value.trim().parse() == Ok(NOT_A_MOVE_SCORE) {
                continue;
            }
            let value = disc_score(value).ok_or_else(bad)?;
            position.try_play(mv).map_err(ParseObfError::Illegal)?;
            scores.push((mv, value));
        }
        Ok(ObfLine { position, scores, score })
    }
}

/// The positions of an OBF file with their line numbers (1-based), skipping blank lines and lines
/// that hold only a comment; the first bad line stops the reading, with its number.
pub fn parse_obf_file(text: &str) -> Result<Vec<(usize, ObfLine)>, (usize, ParseObfError)> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.split('%').next().unwrap_or_default().trim().is_empty())
        .map(|(i, line)| line.parse::<ObfLine>().map(|obf| (i + 1, obf)).map_err(|e| (i + 1, e)))
        .collect()
}

impl fmt::Display for ObfLine {
    /// `<position> <side>; G8:+18; H1:+12;`, moves in upper case and scores signed, as Edax writes
    /// (a bare score, `<position> <side>; +18;`, when no move is listed).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};", self.position)?;
        for (mv, score) in &self.scores {
            let mv = match mv {
                Move::Play(sq) => sq.to_uppercase(),
                Move::Pass => "PA".to_string(),
            };
            write!(f, " {mv}:{score:+};")?;
        }
        match self.score {
            Some(score) if self.scores.is_empty() => write!(f, " {score:+};"),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

    #[test]
    fn ffo_line_round_trips() {
        let line: ObfLine = FFO_1.parse().unwrap();
        assert_eq!(line.position.empty_count(), 14);
        assert_eq!(line.scores.len(), 8);
        assert_eq!(line.best_score(), Some(18));
        assert_eq!(line.best_moves(), vec!["g8".parse().unwrap()]);
        assert_eq!(line.to_string(), FFO_1);
        assert_eq!(line.to_string().parse::<ObfLine>(), Ok(line));
    }

    #[test]
    fn comments_and_bare_positions() {
        let bare = &FFO_1[..66];
        let line: ObfLine = format!("{bare} % a comment; A1:+3;").parse().unwrap();
        assert!(line.scores.is_empty());
    }

    #[test]
    fn files_skip_blank_and_comment_lines_and_name_the_bad_one() {
        let text = format!("% FFO\n\n{FFO_1}\n  \n{FFO_1}\n");
        let lines = parse_obf_file(&text).unwrap();
        assert_eq!(lines.iter().map(|l| l.0).collect::<Vec<_>>(), [3, 5]);
        let broken = format!("{FFO_1}\nXO; A1:+1;\n");
        assert!(matches!(parse_obf_file(&broken), Err((2, ParseObfError::Position(_)))));
    }

    #[test]
    fn bad_items_are_named() {
        let bad = format!("{}; G8:+eighteen;", &FFO_1[..66]);
        assert_eq!(bad.parse::<ObfLine>(), Err(ParseObfError::Item("G8:+eighteen".to_string())));
        let illegal = format!("{}; A1:+18;", &FFO_1[..66]);
        assert!(matches!(illegal.parse::<ObfLine>(), Err(ParseObfError::Illegal(_))));
        let out_of_range = format!("{}; G8:+99;", &FFO_1[..66]);
        assert!(out_of_range.parse::<ObfLine>().is_err());
        for bad in ["G8:+18; +3; +4;", "G8:-127;", "--:+5;", "+x;", "--:-128;"] {
            let line = format!("{}; {bad}", &FFO_1[..66]);
            assert!(line.parse::<ObfLine>().is_err(), "{line}");
        }
    }

    /// A line of Edax's hard-20 set, as its problem files write it.
    const HARD_20_1: &str = "-OOO------OOOO--XXXOOXXX-XOOOXX-XXXXOOOOOXXOOOO---OXOO---OOOO--- X; E1:+0; F8:-2; H6:-6; F1:-6; G8:-6; A7:-6; G1:-8; B7:-10; G7:-20; --:-127;";

    #[test]
    fn edax_forms_are_read() {
        let line: ObfLine = HARD_20_1.parse().unwrap();
        assert_eq!(line.scores.len(), 9, "the --:-127 entry is no move");
        assert_eq!((line.best_score(), line.best_moves()), (Some(0), vec!["e1".parse().unwrap()]));
        assert_eq!(line.to_string(), HARD_20_1.trim_end_matches(" --:-127;"));
        // Lower-case moves, and a bare score.
        let lower: ObfLine = format!("{}; g8:+18; h1:+12;", &FFO_1[..66]).parse().unwrap();
        assert_eq!(lower.scores, FFO_1.parse::<ObfLine>().unwrap().scores[..2]);
        let bare: ObfLine = format!("{}; +18;", &FFO_1[..66]).parse().unwrap();
        assert_eq!((bare.scores.len(), bare.best_score()), (0, Some(18)));
        assert_eq!(bare.to_string(), format!("{}; +18;", &FFO_1[..66]));
        // A position that must pass, its pass written the three ways.
        let must_pass = format!("-O{} O", "X".repeat(62));
        for pass in ["--", "PA", "pass"] {
            let line: ObfLine = format!("{must_pass}; {pass}:-64;").parse().unwrap();
            assert_eq!(line.scores, [(Move::Pass, -64)], "{pass}");
        }
    }
}
