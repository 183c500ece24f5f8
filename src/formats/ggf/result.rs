//! The result of a game, the value of the `RE` tag: [`GgfResult`] and how the game ended,
//! [`GameEnd`].

use super::text::{Quoted, format_decimal, parse_decimal};
use std::fmt;
use std::str::FromStr;

/// How a scored game ended, the letter after the score in `RE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// Played out (no letter).
    Normal,
    /// A player resigned (`:r`).
    Resigned,
    /// A player ran out of time (`:t`).
    Timeout,
    /// Scored by agreement (`:s`).
    Agreement,
}

/// The result of a game, the value of `RE`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GgfResult {
    /// Not known or not finished: `?`.
    Unknown,
    /// A final score.
    Score {
        /// Black's discs minus White's (`+2.000`, `-12`, `64.00`).
        black_net: f64,
        /// How the game ended.
        end: GameEnd,
    },
}

/// A result that is not `?` or a disc difference with an optional `:r`, `:t` or `:s`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseResultError {
    /// The offending text.
    pub token: String,
}

impl fmt::Display for ParseResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not a result (expected ?, or Black's disc difference such as +2.000, then :r, :t or :s)",
            Quoted(&self.token)
        )
    }
}

impl std::error::Error for ParseResultError {}

impl FromStr for GgfResult {
    type Err = ParseResultError;

    /// Reads `?`, `+0.000`, `-12`, `64.00:r`, …; the letter in either case.
    fn from_str(text: &str) -> Result<GgfResult, ParseResultError> {
        let text = text.trim();
        if text == "?" {
            return Ok(GgfResult::Unknown);
        }
        let bad = || ParseResultError { token: text.to_string() };
        let (number, end) = match text.split_once(':') {
            None => (text, GameEnd::Normal),
            Some((number, letter)) => {
                let end = match letter.trim().to_ascii_lowercase().as_str() {
                    "r" => GameEnd::Resigned,
                    "t" => GameEnd::Timeout,
                    "s" => GameEnd::Agreement,
                    _ => return Err(bad()),
                };
                (number, end)
            }
        };
        let black_net = parse_decimal(number.trim()).ok_or_else(bad)?;
        Ok(GgfResult::Score { black_net, end })
    }
}

impl fmt::Display for GgfResult {
    /// `?`, or the signed score with three decimals as GGS writes it (more if needed to be
    /// exact) and the ending's letter: `+2.000`, `-64.000:r`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GgfResult::Unknown => f.write_str("?"),
            GgfResult::Score { black_net, end } => {
                f.write_str(&format_decimal(black_net, 3, true))?;
                f.write_str(match end {
                    GameEnd::Normal => "",
                    GameEnd::Resigned => ":r",
                    GameEnd::Timeout => ":t",
                    GameEnd::Agreement => ":s",
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ggf::testing::error;
    use proptest::prelude::*;

    #[test]
    fn results() {
        let score = |black_net, end| Ok(GgfResult::Score { black_net, end });
        assert_eq!("?".parse(), Ok(GgfResult::Unknown));
        assert_eq!("+0.000".parse(), score(0.0, GameEnd::Normal));
        assert_eq!("-12".parse(), score(-12.0, GameEnd::Normal));
        assert_eq!("64.00".parse(), score(64.0, GameEnd::Normal));
        assert_eq!("+3.000:r".parse(), score(3.0, GameEnd::Resigned));
        assert_eq!("-64:t".parse(), score(-64.0, GameEnd::Timeout));
        assert_eq!("+0.5:S".parse(), score(0.5, GameEnd::Agreement));
        for bad in ["", "x", "+1:q", "1e5", "inf", "NaN", "+", "1:", "??"] {
            assert!(bad.parse::<GgfResult>().is_err(), "{bad}");
        }
        assert!(error("(;RE[+1:q];)").starts_with("RE: '+1:q' is not a result"));
        assert_eq!(GgfResult::Unknown.to_string(), "?");
        assert_eq!(GgfResult::Score { black_net: 2.0, end: GameEnd::Normal }.to_string(), "+2.000");
        assert_eq!(GgfResult::Score { black_net: -64.0, end: GameEnd::Resigned }.to_string(), "-64.000:r");
        assert_eq!(GgfResult::Score { black_net: 0.0625, end: GameEnd::Timeout }.to_string(), "+0.0625:t");
        assert_eq!(GgfResult::Score { black_net: 0.0, end: GameEnd::Agreement }.to_string(), "+0.000:s");
    }

    proptest! {
        #[test]
        fn result_reads_back_what_it_writes(text in "[0-9:./+-]{0,16}") {
            if let Ok(r) = text.parse::<GgfResult>() {
                prop_assert_eq!(r.to_string().parse::<GgfResult>(), Ok(r));
            }
        }
    }
}
