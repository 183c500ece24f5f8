//! One move as GGF writes it: [`MoveText`], the `mv[/eval[/time]]` inside a `B[...]` or `W[...]`
//! tag (and NBoard's `move` command and `===` reply), and [`GgfMove`], a move with its colour.

use super::text::{Quoted, format_decimal, parse_decimal};
use crate::board::{Color, Move, Square};
use std::fmt;
use std::str::FromStr;

/// Whether `word` is a GGF pass: any prefix of `PASS` (`P`, `PA`, …) in either case, or `--`.
fn is_ggf_pass(word: &str) -> bool {
    word == "--" || (!word.is_empty() && "pass".starts_with(&word.to_ascii_lowercase()))
}

/// The text of one GGF move, `mv[/eval[/time]]`: the contents of a `B[...]` or `W[...]` tag, and
/// also of NBoard's `move F5//2.449` command and `=== F5/1.50/0.2` reply.
///
/// The evaluation is in discs from the mover's side, the time in seconds; either may be empty
/// (`F5//2.449` has a time and no evaluation). Printing writes the square in upper case, a pass
/// as `PA`, and the numbers only when present, with two decimals when that is exact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveText {
    /// The move.
    pub mv: Move,
    /// The mover's evaluation in discs, if given.
    pub eval: Option<f64>,
    /// The time the move took, in seconds, if given.
    pub time: Option<f64>,
}

/// Why a move text `mv[/eval[/time]]` could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveTextError {
    /// The move part is neither a square nor a pass.
    Move(String),
    /// The evaluation part is not a decimal number.
    Eval(String),
    /// The time part is not a non-negative decimal number.
    Time(String),
    /// More than three `/`-separated parts.
    TooManyParts(String),
}

impl fmt::Display for ParseMoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveTextError::Move(token) => write!(f, "{} is not a move", Quoted(token)),
            ParseMoveTextError::Eval(token) => write!(f, "{} is not an evaluation", Quoted(token)),
            ParseMoveTextError::Time(token) => write!(f, "{} is not a time in seconds", Quoted(token)),
            ParseMoveTextError::TooManyParts(token) => {
                write!(f, "{} has more parts than move/eval/time", Quoted(token))
            }
        }
    }
}

impl std::error::Error for ParseMoveTextError {}

impl FromStr for MoveText {
    type Err = ParseMoveTextError;

    /// Reads `mv[/eval[/time]]`; the square in either case, a pass as any prefix of `PASS` or
    /// `--`; blanks around each part are ignored.
    fn from_str(text: &str) -> Result<MoveText, ParseMoveTextError> {
        let mut parts = text.split('/').map(str::trim);
        let word = parts.next().unwrap_or_default();
        let eval = parts.next();
        let time = parts.next();
        if parts.next().is_some() {
            return Err(ParseMoveTextError::TooManyParts(text.to_string()));
        }
        let mv = if is_ggf_pass(word) {
            Move::Pass
        } else {
            Move::Play(word.parse::<Square>().map_err(|_| ParseMoveTextError::Move(word.to_string()))?)
        };
        let eval = match eval {
            None | Some("") => None,
            Some(e) => Some(parse_decimal(e).ok_or_else(|| ParseMoveTextError::Eval(e.to_string()))?),
        };
        let time = match time {
            None | Some("") => None,
            Some(t) => {
                Some(parse_decimal(t).filter(|t| *t >= 0.0).ok_or_else(|| ParseMoveTextError::Time(t.to_string()))?)
            }
        };
        Ok(MoveText { mv, eval, time })
    }
}

impl fmt::Display for MoveText {
    /// `F5`, `F5/1.50`, `F5//2.449`, `F5/1.50/2.45`, `PA`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mv {
            Move::Play(sq) => f.write_str(&sq.to_uppercase())?,
            Move::Pass => f.write_str("PA")?,
        }
        if self.eval.is_some() || self.time.is_some() {
            f.write_str("/")?;
            if let Some(eval) = self.eval {
                f.write_str(&format_decimal(eval, 2, false))?;
            }
        }
        if let Some(time) = self.time {
            write!(f, "/{}", format_decimal(time, 2, false))?;
        }
        Ok(())
    }
}

/// One move of a GGF game: who played it, what, and the evaluation and time written with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfMove {
    /// The player who moved.
    pub color: Color,
    /// The move (passes included: GGF writes them out).
    pub mv: Move,
    /// The mover's evaluation in discs, if written.
    pub eval: Option<f64>,
    /// The time the move took, in seconds, if written.
    pub time: Option<f64>,
}

impl GgfMove {
    /// The move's `mv[/eval[/time]]` text.
    pub fn text(&self) -> MoveText {
        MoveText { mv: self.mv, eval: self.eval, time: self.time }
    }
}

impl fmt::Display for GgfMove {
    /// The tag: `B[F5//2.45]`, `W[PA]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = match self.color {
            Color::Black => 'B',
            Color::White => 'W',
        };
        write!(f, "{key}[{}]", self.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ggf::testing::mv;
    use proptest::prelude::*;

    #[test]
    fn move_texts() {
        let text = |mv: Move, eval, time| MoveText { mv, eval, time }.to_string();
        assert_eq!(text(mv("f5"), None, None), "F5");
        assert_eq!(text(mv("f5"), Some(1.5), None), "F5/1.50");
        assert_eq!(text(mv("f5"), None, Some(2.45)), "F5//2.45");
        assert_eq!(text(mv("f5"), Some(1.5), Some(2.45)), "F5/1.50/2.45");
        assert_eq!(text(mv("f5"), None, Some(2.449)), "F5//2.449");
        assert_eq!(text(Move::Pass, Some(-0.125), None), "PA/-0.125");
        assert_eq!("f5//2.449".parse(), Ok(MoveText { mv: mv("f5"), eval: None, time: Some(2.449) }));
        assert_eq!("D6/0.00".parse(), Ok(MoveText { mv: mv("d6"), eval: Some(0.0), time: None }));
        assert_eq!("PA".parse(), Ok(MoveText { mv: Move::Pass, eval: None, time: None }));
        assert_eq!("e3/+2./.5".parse(), Ok(MoveText { mv: mv("e3"), eval: Some(2.0), time: Some(0.5) }));
        for x in [0.1, 1.0 / 3.0, -1e-300, 1e300, 123_456.789, f64::MIN_POSITIVE, -0.0] {
            let t = MoveText { mv: mv("a1"), eval: Some(x), time: Some(x.abs()) };
            assert_eq!(t.to_string().parse(), Ok(t), "{t}");
        }
    }

    proptest! {
        #[test]
        fn move_text_reads_back_what_it_writes(text in "[0-9:./+-]{0,16}") {
            if let Ok(m) = text.parse::<MoveText>() {
                prop_assert_eq!(m.to_string().parse::<MoveText>(), Ok(m));
            }
        }
    }
}
