//! GGF, the Generic Game Format of the GGS server, NBoard and NTest: a whole game in one line of
//! `KEY[value]` tags between `(;` and `;)`.
//!
//! ```text
//! 1 (;GM[Othello]PC[NBoard]DT[2014-02-08 17:58:38 GMT]PB[Human]PW[Edax]RE[?]TI[15:00]TY[8]
//!    BO[8 ---------------------------O*------*O--------------------------- *]B[F5//2.449]W[F6/-1.00/0.01];)
//! ```
//! (one line in a file; split here to fit). The tags read into types:
//!
//! - `BO[<size> <squares> <side>]`: the start position. Whitespace may stand anywhere among the
//!   squares (GGS writes the rows apart, NBoard writes them run together); the square characters
//!   are those of [`position_text`](super::position_text) (`*`/`x` black, `O`/`o`/`0` white,
//!   `-`/`.`/`_` empty). Without `BO` the game starts from the standard position of `TY`'s size.
//! - `TY[8]`: the board size with the GGS match-type letters around it (`s8r20`, `8k`, `8a`); kept
//!   as written, and its size must agree with `BO`'s.
//! - `B[...]`, `W[...]`: the moves, each [`MoveText`] (`F5`, `F5/1.50`, `F5//2.449`, `PA`).
//!   They must replay legally with every pass written out, with one leniency: a move by the side
//!   not to move, when the side to move has no legal move, stands for a pass the writer left out
//!   and the pass is inserted.
//! - `TI`, `TB`, `TW`: the [`Clock`]s (both players, Black's, White's).
//! - `RE`: the [`GgfResult`].
//! - `PC`, `DT`, `PB`, `PW`, `RB`, `RW`: place, date, player names and ratings, kept as text.
//! - `GM` must be `Othello` when present. Any other tag is kept, in order, and written back.
//!
//! Writing ([`GgfGame`]'s `Display`) gives the canonical form: `GM[Othello]` first, the known
//! tags in a fixed order, the other tags, `BO` with `*`/`O`/`-`, then the moves in upper case with
//! passes as `PA`. Numbers are printed so that they read back to the same `f64`, and clocks in
//! the form NBoard writes (see [`Clock`]), so reading what was written always gives back an equal
//! game.

use super::position_text::{ParsePositionError, parse_squares, side_char, squares_text};
use crate::board::{BoardSize, Color, Game, IllegalMove, Move, Position, Square};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Offending tokens longer than this are cut in error messages, which must stay one short line.
const MAX_TOKEN_CHARS: usize = 40;

/// `text` made fit for a one-line error message: control characters escaped, and cut after
/// [`MAX_TOKEN_CHARS`] characters.
fn clipped(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().take(MAX_TOKEN_CHARS) {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    if text.chars().nth(MAX_TOKEN_CHARS).is_some() {
        out.push('…');
    }
    out
}

/// A token quoted for an error message, [`clipped`].
struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}'", clipped(self.0))
    }
}

/// Reads a plain decimal number (`12`, `-1.50`, `+0.000`, `.5`): no exponent, no `inf` or `NaN`,
/// which `f64::from_str` would accept but GGF never writes.
fn parse_decimal(text: &str) -> Option<f64> {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    // 400 digits still parse, to infinity, which could not be written back.
    text.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// `x` with `places` decimals when that reads back to exactly `x` (the usual `2.39`, `+0.000`),
/// else with as many as it takes (`2.449`).
fn format_decimal(x: f64, places: usize, signed: bool) -> String {
    let fixed = if signed { format!("{x:+.places$}") } else { format!("{x:.places$}") };
    if fixed.parse::<f64>() == Ok(x) {
        fixed
    } else if signed {
        format!("{x:+}")
    } else {
        format!("{x}")
    }
}

/// Tag values cannot hold `]` (GGF has no escape) and a game is one line: setters replace `]` by
/// `)` and control characters by spaces, so that anything set can be written and read back.
fn tag_value(text: impl Into<String>) -> String {
    text.into()
        .chars()
        .map(|c| match c {
            ']' => ')',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

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

/// A GGS clock, the value of `TI`, `TB` and `TW`: `main[/increment[/grace]]`.
///
/// Each time is `[d.]h:m:s` with the leading parts optional (`15:00` is fifteen minutes,
/// `1.00:00:00` one day, `30` thirty seconds); the seconds may carry a fraction (`00:30.5`). The
/// increment is added after each move; the grace is extra time once the main time has run out
/// (120 seconds when not written).
///
/// Printing follows NBoard: each time as `mm:ss`, `h:mm:ss` or `d.hh:mm:ss` (the shortest that
/// holds it, minutes always two digits), the increment only when not zero and the grace only when
/// not 120 s, an empty increment standing for zero: `05:00//02:00` prints as `05:00`, a 5-minute
/// clock with 10 s increment and 1 minute grace as `05:00/00:10/01:00`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    /// The time at the start of the game.
    pub main: Duration,
    /// The time added after each move.
    pub increment: Duration,
    /// The extra time allowed once the main time has run out.
    pub grace: Duration,
}

impl Clock {
    /// The grace when none is written: two minutes.
    pub const DEFAULT_GRACE: Duration = Duration::from_secs(120);

    /// A clock with `main` time, no increment and the default grace.
    pub const fn new(main: Duration) -> Clock {
        Clock { main, increment: Duration::ZERO, grace: Clock::DEFAULT_GRACE }
    }
}

impl Default for Clock {
    /// The 15-minute clock NBoard gives a new game.
    fn default() -> Clock {
        Clock::new(Duration::from_secs(15 * 60))
    }
}

/// A clock value that is not `[d.]h:m:s[/[d.]h:m:s[/[d.]h:m:s]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseClockError {
    /// The offending part (the whole value when it has too many parts).
    pub token: String,
}

impl fmt::Display for ParseClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a time (expected [d.]h:m:s, e.g. 15:00, optionally /increment/grace)", Quoted(&self.token))
    }
}

impl std::error::Error for ParseClockError {}

/// Reads one `[d.]h:m:s[.fraction]` time.
fn parse_duration(text: &str) -> Option<Duration> {
    let parts: Vec<&str> = text.trim().split(':').collect();
    let count = parts.len();
    if count > 3 {
        return None;
    }
    let number = |s: &str| -> Option<u64> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    // Horner's rule over the parts: days * 24 + hours, * 60 + minutes, * 60 + seconds.
    let mut total: u64 = 0;
    let mut nanos: u32 = 0;
    for (i, &part) in parts.iter().enumerate() {
        let mut part = part;
        // Days stand only in front of the hours, so only with all three parts.
        if i == 0
            && count == 3
            && let Some((days, hours)) = part.split_once('.')
        {
            total = number(days)?.checked_mul(24)?;
            part = hours;
        }
        if i + 1 == count
            && let Some((whole, fraction)) = part.split_once('.')
        {
            if fraction.is_empty() || fraction.len() > 9 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            nanos = format!("{fraction:0<9}").parse().ok()?;
            part = whole;
        }
        let scale = if i == 0 { 1 } else { 60 };
        total = total.checked_mul(scale)?.checked_add(number(part)?)?;
    }
    Some(Duration::new(total, nanos))
}

/// Writes a time as `mm:ss`, `h:mm:ss` or `d.hh:mm:ss`, with the fraction of a second if any.
fn format_duration(d: Duration) -> String {
    let total = d.as_secs();
    let (days, hours, minutes, seconds) = (total / 86_400, total / 3600 % 24, total / 60 % 60, total % 60);
    let mut text = if days > 0 {
        format!("{days}.{hours:02}:{minutes:02}:{seconds:02}")
    } else if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes:02}:{seconds:02}")
    };
    if d.subsec_nanos() != 0 {
        let fraction = format!("{:09}", d.subsec_nanos());
        text.push('.');
        text.push_str(fraction.trim_end_matches('0'));
    }
    text
}

impl FromStr for Clock {
    type Err = ParseClockError;

    /// Reads `main[/increment[/grace]]`; an empty increment is zero, an empty or missing grace
    /// is [`Clock::DEFAULT_GRACE`].
    fn from_str(text: &str) -> Result<Clock, ParseClockError> {
        let mut parts = text.split('/');
        let time = |part: &str| parse_duration(part).ok_or_else(|| ParseClockError { token: part.to_string() });
        let main = time(parts.next().unwrap_or_default())?;
        let increment = match parts.next() {
            Some(part) if !part.trim().is_empty() => time(part)?,
            _ => Duration::ZERO,
        };
        let grace = match parts.next() {
            Some(part) if !part.trim().is_empty() => time(part)?,
            _ => Clock::DEFAULT_GRACE,
        };
        if parts.next().is_some() {
            return Err(ParseClockError { token: text.to_string() });
        }
        Ok(Clock { main, increment, grace })
    }
}

impl fmt::Display for Clock {
    /// `15:00`, `05:00/00:10`, `05:00//01:00` (see the type's documentation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_duration(self.main))?;
        let default_grace = self.grace == Clock::DEFAULT_GRACE;
        if !self.increment.is_zero() || !default_grace {
            f.write_str("/")?;
            if !self.increment.is_zero() {
                f.write_str(&format_duration(self.increment))?;
            }
        }
        if !default_grace {
            write!(f, "/{}", format_duration(self.grace))?;
        }
        Ok(())
    }
}

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

/// Why a GGF game could not be read. Each message is one line naming the offending tag or token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseGgfError {
    /// The text does not start with `(;` (after an optional count such as `1 `).
    MissingStart {
        /// The start of the text.
        found: String,
    },
    /// The text ends before `;)`.
    MissingEnd,
    /// Something other than a `KEY[value]` tag or `;)`.
    ExpectedTag {
        /// The text from there on.
        found: String,
    },
    /// A tag's value has no closing `]`.
    UnclosedTag {
        /// The tag's key.
        key: String,
    },
    /// Text after the game's `;)`.
    TrailingText {
        /// The text after the game.
        found: String,
    },
    /// A tag that may appear once appears again.
    DuplicateTag {
        /// The tag's key.
        key: String,
    },
    /// `GM` names another game than Othello.
    NotOthello {
        /// The value of `GM`.
        game: String,
    },
    /// A tag's value is malformed.
    BadValue {
        /// The tag's key.
        key: String,
        /// The offending value or part of it.
        value: String,
        /// What was expected, as "is not …" completes it.
        expected: &'static str,
    },
    /// A `TI`, `TB` or `TW` clock is malformed.
    Clock {
        /// The tag's key.
        key: String,
        /// What is wrong.
        error: ParseClockError,
    },
    /// `RE` is malformed.
    Result(ParseResultError),
    /// A board size other than 4, 6 and 8 in `BO` or `TY`.
    UnsupportedSize {
        /// The tag's key.
        key: String,
        /// The size written.
        size: usize,
    },
    /// `TY` and `BO` give different board sizes.
    SizeMismatch {
        /// The size in `TY`.
        board_type: usize,
        /// The size in `BO`.
        board: usize,
    },
    /// `BO` does not hold size² squares and a side to move.
    BoardLength {
        /// The board's side, as written in `BO`.
        side: usize,
        /// The number of non-blank characters after the size.
        found: usize,
    },
    /// A square or the side to move in `BO` is not a board character.
    Board(ParsePositionError),
    /// A `B` or `W` tag is not a move text.
    BadMove {
        /// The move's number, counting the `B` and `W` tags from 1.
        number: usize,
        /// The whole tag, e.g. `B[Z9]`.
        item: String,
        /// What is wrong.
        error: ParseMoveTextError,
    },
    /// A move by the side not to move, when the side to move could play.
    WrongColor {
        /// The move's number, counting the `B` and `W` tags from 1.
        number: usize,
        /// The whole tag.
        item: String,
        /// The side that was to move.
        to_move: Color,
    },
    /// A move the rules do not allow.
    Illegal {
        /// The move's number, counting the `B` and `W` tags from 1.
        number: usize,
        /// The whole tag.
        item: String,
        /// Why it is illegal.
        error: IllegalMove,
    },
}

impl fmt::Display for ParseGgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseGgfError::MissingStart { found } if found.is_empty() => f.write_str("missing '(;' at the start"),
            ParseGgfError::MissingStart { found } => {
                write!(f, "missing '(;' at the start (found {})", Quoted(found))
            }
            ParseGgfError::MissingEnd => f.write_str("missing ';)' at the end of the game"),
            ParseGgfError::ExpectedTag { found } => {
                write!(f, "expected a tag KEY[value] or the end ';)', found {}", Quoted(found))
            }
            ParseGgfError::UnclosedTag { key } => {
                write!(f, "unclosed tag {} (no ']' follows)", Quoted(&format!("{key}[")))
            }
            ParseGgfError::TrailingText { found } => write!(f, "text after the game's end ';)': {}", Quoted(found)),
            ParseGgfError::DuplicateTag { key } => write!(f, "tag {key} appears twice"),
            ParseGgfError::NotOthello { game } => write!(f, "GM: {} is not Othello", Quoted(game)),
            ParseGgfError::BadValue { key, value, expected } => write!(f, "{key}: {} is not {expected}", Quoted(value)),
            ParseGgfError::Clock { key, error } => write!(f, "{key}: {error}"),
            ParseGgfError::Result(error) => write!(f, "RE: {error}"),
            ParseGgfError::UnsupportedSize { key, size } => {
                write!(f, "{key}: board size {size} is not supported (only 4, 6 and 8)")
            }
            ParseGgfError::SizeMismatch { board_type, board } => {
                write!(f, "TY says board size {board_type} but BO is size {board}")
            }
            ParseGgfError::BoardLength { side, found } => write!(
                f,
                "BO: size {side} needs {} squares then the side to move, found {found} characters",
                side * side
            ),
            ParseGgfError::Board(error) => write!(f, "BO: {error}"),
            ParseGgfError::BadMove { number, item, error } => write!(f, "move {number} ({item}): {error}"),
            ParseGgfError::WrongColor { number, item, to_move } => {
                write!(f, "move {number} ({item}): {to_move} is to move")
            }
            ParseGgfError::Illegal { number, item, error } => write!(f, "move {number} ({item}): {error}"),
        }
    }
}

impl std::error::Error for ParseGgfError {}

/// One `KEY[value]` tag as found in the text.
struct Tag<'a> {
    key: &'a str,
    value: &'a str,
}

/// The start of `text`, for error messages.
fn snippet(text: &str) -> String {
    text.chars().take(MAX_TOKEN_CHARS + 1).collect()
}

/// A tag as written, for error messages, its value [`clipped`].
fn tag_for_message(tag: &Tag<'_>) -> String {
    format!("{}[{}]", tag.key, clipped(tag.value))
}

/// Splits the first game off `text`: its tags, and the text after its `;)`.
fn scan_game(text: &str) -> Result<(Vec<Tag<'_>>, &str), ParseGgfError> {
    let text = text.trim_start();
    // GGS writes how many games follow (1, or 2 for a synchro pair) in front of them.
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let text =
        if digits > 0 && text[digits..].starts_with(char::is_whitespace) { text[digits..].trim_start() } else { text };
    let Some(mut rest) = text.strip_prefix("(;") else {
        return Err(ParseGgfError::MissingStart { found: snippet(text) });
    };
    let mut tags = Vec::new();
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix(";)") {
            return Ok((tags, after));
        }
        if rest.is_empty() {
            return Err(ParseGgfError::MissingEnd);
        }
        let key_len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
        let (key, after_key) = rest.split_at(key_len);
        let Some(body) = after_key.strip_prefix('[').filter(|_| !key.is_empty()) else {
            return Err(if after_key.is_empty() {
                ParseGgfError::MissingEnd
            } else {
                ParseGgfError::ExpectedTag { found: snippet(rest) }
            });
        };
        let Some(close) = body.find(']') else {
            return Err(ParseGgfError::UnclosedTag { key: key.to_string() });
        };
        tags.push(Tag { key, value: &body[..close] });
        rest = &body[close + 1..];
    }
}

/// Reads a board size, `key` naming the tag for errors.
fn parse_size(key: &str, text: &str) -> Result<BoardSize, ParseGgfError> {
    let side: usize = Some(text)
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| ParseGgfError::BadValue {
            key: key.to_string(),
            value: text.to_string(),
            expected: "a board size",
        })?;
    BoardSize::from_side(side).ok_or(ParseGgfError::UnsupportedSize { key: key.to_string(), size: side })
}

/// Reads `BO[<size> <squares> <side>]`.
fn parse_board(value: &str) -> Result<Position, ParseGgfError> {
    let value = value.trim_start();
    let size_end = value.find(char::is_whitespace).unwrap_or(value.len());
    let (size_text, rest) = value.split_at(size_end);
    let size = parse_size("BO", size_text)?;
    let chars: Vec<char> = rest.chars().filter(|c| !c.is_whitespace()).collect();
    let Some((&side, squares)) = chars.split_last().filter(|_| chars.len() == size.squares() as usize + 1) else {
        return Err(ParseGgfError::BoardLength { side: size.side(), found: chars.len() });
    };
    let side_to_move = side_char(side).ok_or(ParseGgfError::Board(ParsePositionError::BadSide(side)))?;
    parse_squares(squares, side_to_move).map_err(ParseGgfError::Board)
}

/// Reads `TY`: one board size with the GGS match-type letters around it (`s` synchro, `k` komi,
/// `a` anti, `b`/`w` colours, `r` and a number of random discs), e.g. `8`, `s8r20`, `8k`.
fn parse_board_type(value: &str) -> Result<BoardSize, ParseGgfError> {
    let text = value.trim();
    let bad = || ParseGgfError::BadValue {
        key: "TY".to_string(),
        value: value.to_string(),
        expected: "a board type (a size such as 8, with the letters s, k, a, b, w or rN)",
    };
    let bytes = text.as_bytes();
    let digits_end = |from: usize| from + bytes[from..].iter().take_while(|b| b.is_ascii_digit()).count();
    let mut size = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i].to_ascii_lowercase();
        if b.is_ascii_digit() {
            let end = digits_end(i);
            if size.replace(&text[i..end]).is_some() {
                return Err(bad());
            }
            i = end;
        } else if b == b'r' {
            let end = digits_end(i + 1);
            if end == i + 1 {
                return Err(bad());
            }
            i = end;
        } else if b"skabw".contains(&b) {
            i += 1;
        } else {
            return Err(bad());
        }
    }
    parse_size("TY", size.ok_or_else(bad)?)
}

/// Fills an empty slot, refusing a second value for the same tag.
fn set_once<T>(slot: &mut Option<T>, key: &str, value: T) -> Result<(), ParseGgfError> {
    if slot.replace(value).is_some() {
        return Err(ParseGgfError::DuplicateTag { key: key.to_ascii_uppercase() });
    }
    Ok(())
}

/// A game in GGF: its start position, its moves with their evaluations and times, and its tags.
///
/// Every `GgfGame` replays legally (parsing checks it and [`GgfGame::push_move`] refuses illegal
/// moves) and writes to a text that parses back to an equal game.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    game: Game,
    moves: Vec<GgfMove>,
    place: Option<String>,
    date: Option<String>,
    black_name: Option<String>,
    white_name: Option<String>,
    black_rating: Option<String>,
    white_rating: Option<String>,
    board_type: Option<String>,
    result: Option<GgfResult>,
    clock: Option<Clock>,
    black_clock: Option<Clock>,
    white_clock: Option<Clock>,
    extra_tags: Vec<(String, String)>,
}

impl GgfGame {
    /// A game from `start` with no move and no tag but `TY`, the start's board size.
    pub fn new(start: Position) -> GgfGame {
        GgfGame {
            game: Game::new(start),
            moves: Vec::new(),
            place: None,
            date: None,
            black_name: None,
            white_name: None,
            black_rating: None,
            white_rating: None,
            board_type: Some(start.size().side().to_string()),
            result: None,
            clock: None,
            black_clock: None,
            white_clock: None,
            extra_tags: Vec::new(),
        }
    }

    /// Reads one game, with an optional `1 ` in front; nothing but blanks may follow its `;)`.
    pub fn parse(text: &str) -> Result<GgfGame, ParseGgfError> {
        let (tags, rest) = scan_game(text)?;
        if !rest.trim().is_empty() {
            return Err(ParseGgfError::TrailingText { found: snippet(rest.trim_start()) });
        }
        GgfGame::from_tags(&tags)
    }

    /// Builds the game from its tags: the header first (`BO` may come anywhere), then the moves.
    fn from_tags(tags: &[Tag<'_>]) -> Result<GgfGame, ParseGgfError> {
        let mut game_name = None;
        let mut board = None;
        let mut board_type = None;
        let mut game = GgfGame::new(Position::initial());
        game.board_type = None;
        let mut items = Vec::new();
        for tag in tags {
            let (key, value) = (tag.key, tag.value);
            let clock = || value.parse::<Clock>().map_err(|error| ParseGgfError::Clock { key: key.to_string(), error });
            match key.to_ascii_uppercase().as_str() {
                "B" => items.push((Color::Black, tag)),
                "W" => items.push((Color::White, tag)),
                "GM" => {
                    set_once(&mut game_name, key, ())?;
                    if !value.trim().eq_ignore_ascii_case("othello") {
                        return Err(ParseGgfError::NotOthello { game: value.to_string() });
                    }
                }
                "PC" => set_once(&mut game.place, key, value.to_string())?,
                "DT" => set_once(&mut game.date, key, value.to_string())?,
                "PB" => set_once(&mut game.black_name, key, value.to_string())?,
                "PW" => set_once(&mut game.white_name, key, value.to_string())?,
                "RB" => set_once(&mut game.black_rating, key, value.to_string())?,
                "RW" => set_once(&mut game.white_rating, key, value.to_string())?,
                "TI" => set_once(&mut game.clock, key, clock()?)?,
                "TB" => set_once(&mut game.black_clock, key, clock()?)?,
                "TW" => set_once(&mut game.white_clock, key, clock()?)?,
                "RE" => set_once(&mut game.result, key, value.parse().map_err(ParseGgfError::Result)?)?,
                "TY" => {
                    set_once(&mut board_type, key, parse_board_type(value)?)?;
                    game.board_type = Some(value.to_string());
                }
                "BO" => set_once(&mut board, key, parse_board(value)?)?,
                _ => game.extra_tags.push((key.to_string(), value.to_string())),
            }
        }
        if let (Some(ty), Some(bo)) = (board_type, board)
            && ty != bo.size()
        {
            return Err(ParseGgfError::SizeMismatch { board_type: ty.side(), board: bo.size().side() });
        }
        let start = board.unwrap_or_else(|| Position::start(board_type.unwrap_or_default()));
        game.game = Game::new(start);
        for (i, &(color, tag)) in items.iter().enumerate() {
            let number = i + 1;
            let item = || tag_for_message(tag);
            let text: MoveText =
                tag.value.parse().map_err(|error| ParseGgfError::BadMove { number, item: item(), error })?;
            let to_move = game.game.position().side_to_move();
            if color != to_move {
                if !game.game.position().must_pass() {
                    return Err(ParseGgfError::WrongColor { number, item: item(), to_move });
                }
                // The writer left out a forced pass: put it back so that colours alternate.
                game.play(Move::Pass, None, None).map_err(|error| ParseGgfError::Illegal {
                    number,
                    item: item(),
                    error,
                })?;
            }
            game.play(text.mv, text.eval, text.time).map_err(|error| ParseGgfError::Illegal {
                number,
                item: item(),
                error,
            })?;
        }
        Ok(game)
    }

    /// Plays a move for the side to move, exactly as given.
    fn play(&mut self, mv: Move, eval: Option<f64>, time: Option<f64>) -> Result<(), IllegalMove> {
        let color = self.game.position().side_to_move();
        self.game.play_strict(mv)?;
        self.moves.push(GgfMove { color, mv, eval, time });
        Ok(())
    }

    /// The start position (`BO`).
    pub fn start(&self) -> Position {
        *self.game.start()
    }

    /// The moves, every pass included.
    pub fn moves(&self) -> &[GgfMove] {
        &self.moves
    }

    /// The game replayed: the start, the moves (passes explicit) and the positions along the way.
    pub fn game(&self) -> Game {
        self.game.clone()
    }

    /// The position after the last move.
    pub fn position(&self) -> Position {
        *self.game.position()
    }

    /// Appends a move for the side to move with its evaluation (discs, mover's view) and time
    /// (seconds). A pass must be pushed explicitly, and only when the side to move has no legal
    /// move. An evaluation that is not finite, or a time that is negative or not finite, is
    /// dropped: GGF has no way to write it. On error the game is unchanged.
    pub fn push_move(&mut self, mv: Move, eval: Option<f64>, time: Option<f64>) -> Result<(), IllegalMove> {
        let eval = eval.filter(|e| e.is_finite());
        let time = time.filter(|t| t.is_finite() && *t >= 0.0);
        self.play(mv, eval, time)
    }

    /// The place (`PC`), e.g. `GGS/os` or `NBoard`.
    pub fn place(&self) -> Option<&str> {
        self.place.as_deref()
    }

    /// Sets the place (`PC`); `]` and control characters are replaced (see [`GgfGame::set_player`]).
    pub fn set_place(&mut self, place: impl Into<String>) {
        self.place = Some(tag_value(place));
    }

    /// The date (`DT`), as written (GGS and NBoard use different forms).
    pub fn date(&self) -> Option<&str> {
        self.date.as_deref()
    }

    /// Sets the date (`DT`); `]` and control characters are replaced (see [`GgfGame::set_player`]).
    pub fn set_date(&mut self, date: impl Into<String>) {
        self.date = Some(tag_value(date));
    }

    /// The name of the player of `color` (`PB`, `PW`).
    pub fn player(&self, color: Color) -> Option<&str> {
        match color {
            Color::Black => self.black_name.as_deref(),
            Color::White => self.white_name.as_deref(),
        }
    }

    /// Sets the name of the player of `color` (`PB`, `PW`). A tag value cannot hold `]` and a
    /// game is one line, so `]` becomes `)` and control characters become spaces.
    pub fn set_player(&mut self, color: Color, name: impl Into<String>) {
        let name = Some(tag_value(name));
        match color {
            Color::Black => self.black_name = name,
            Color::White => self.white_name = name,
        }
    }

    /// The rating of the player of `color` (`RB`, `RW`), as written (GGS writes e.g. `2196.37`).
    pub fn rating(&self, color: Color) -> Option<&str> {
        match color {
            Color::Black => self.black_rating.as_deref(),
            Color::White => self.white_rating.as_deref(),
        }
    }

    /// Sets the rating of the player of `color` (`RB`, `RW`); `]` and control characters are
    /// replaced (see [`GgfGame::set_player`]).
    pub fn set_rating(&mut self, color: Color, rating: impl Into<String>) {
        let rating = Some(tag_value(rating));
        match color {
            Color::Black => self.black_rating = rating,
            Color::White => self.white_rating = rating,
        }
    }

    /// The result (`RE`).
    pub fn result(&self) -> Option<GgfResult> {
        self.result
    }

    /// Sets the result (`RE`).
    pub fn set_result(&mut self, result: GgfResult) {
        self.result = Some(result);
    }

    /// The board type (`TY`) as written, e.g. `8` or `s8r20`.
    pub fn board_type(&self) -> Option<&str> {
        self.board_type.as_deref()
    }

    /// The clock of both players (`TI`).
    pub fn shared_clock(&self) -> Option<Clock> {
        self.clock
    }

    /// Sets the clock of both players (`TI`).
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = Some(clock);
    }

    /// The clock given to the player of `color` alone (`TB`, `TW`).
    pub fn player_clock(&self, color: Color) -> Option<Clock> {
        match color {
            Color::Black => self.black_clock,
            Color::White => self.white_clock,
        }
    }

    /// Gives the player of `color` a clock of their own (`TB`, `TW`), which overrides `TI`.
    pub fn set_player_clock(&mut self, color: Color, clock: Clock) {
        match color {
            Color::Black => self.black_clock = Some(clock),
            Color::White => self.white_clock = Some(clock),
        }
    }

    /// The clock of the player of `color`: `TB` or `TW` if written, else `TI`.
    pub fn clock(&self, color: Color) -> Option<Clock> {
        self.player_clock(color).or(self.clock)
    }

    /// The main time the player of `color` has left after the moves of the game: the clock's main
    /// time, plus one increment per move of theirs (passes included), minus the times written on
    /// their moves (a move without a time counts as none), and zero at the least. The grace is
    /// not included. `None` when the game has no clock for that player.
    pub fn time_left(&self, color: Color) -> Option<Duration> {
        let clock = self.clock(color)?;
        let (count, used) = self
            .moves
            .iter()
            .filter(|m| m.color == color)
            .fold((0u32, 0.0f64), |(n, used), m| (n.saturating_add(1), used + m.time.unwrap_or(0.0)));
        let total = clock.main.saturating_add(clock.increment.saturating_mul(count));
        let used = Duration::try_from_secs_f64(used).unwrap_or(Duration::MAX);
        Some(total.saturating_sub(used))
    }

    /// The tags that have no meaning here, in the order read, kept to be written back.
    pub fn extra_tags(&self) -> &[(String, String)] {
        &self.extra_tags
    }

    /// The value of the extra tag `key`, if the game has it.
    pub fn extra_tag(&self, key: &str) -> Option<&str> {
        self.extra_tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Sets an extra tag (replacing one of the same key), for information of Magpie's own such as
    /// the match runner's game number. `key` must be upper-case letters and not a tag with a
    /// meaning here (`PB`, `RE`, `B`, …), or the call is refused with `false`; the value is cleaned
    /// as by [`GgfGame::set_player`].
    pub fn set_extra_tag(&mut self, key: &str, value: impl Into<String>) -> bool {
        const TYPED: [&str; 15] =
            ["GM", "PC", "DT", "PB", "PW", "RB", "RW", "RE", "TI", "TB", "TW", "TY", "BO", "B", "W"];
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_uppercase()) || TYPED.contains(&key) {
            return false;
        }
        let value = tag_value(value);
        match self.extra_tags.iter_mut().find(|(k, _)| k == key) {
            Some(tag) => tag.1 = value,
            None => self.extra_tags.push((key.to_string(), value)),
        }
        true
    }
}

impl FromStr for GgfGame {
    type Err = ParseGgfError;

    /// See [`GgfGame::parse`].
    fn from_str(text: &str) -> Result<GgfGame, ParseGgfError> {
        GgfGame::parse(text)
    }
}

impl fmt::Display for GgfGame {
    /// The canonical GGF line, without a count in front and without a newline:
    /// `(;GM[Othello]PC[..]DT[..]PB[..]PW[..]RB[..]RW[..]RE[..]TI[..]TB[..]TW[..]TY[..]<other
    /// tags>BO[8 <squares> *]B[F5//2.45]W[PA];)`, each tag only when set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(;GM[Othello]")?;
        let texts = [
            ("PC", &self.place),
            ("DT", &self.date),
            ("PB", &self.black_name),
            ("PW", &self.white_name),
            ("RB", &self.black_rating),
            ("RW", &self.white_rating),
        ];
        for (key, value) in texts {
            if let Some(value) = value {
                write!(f, "{key}[{value}]")?;
            }
        }
        if let Some(result) = self.result {
            write!(f, "RE[{result}]")?;
        }
        for (key, clock) in [("TI", self.clock), ("TB", self.black_clock), ("TW", self.white_clock)] {
            if let Some(clock) = clock {
                write!(f, "{key}[{clock}]")?;
            }
        }
        if let Some(board_type) = &self.board_type {
            write!(f, "TY[{board_type}]")?;
        }
        for (key, value) in &self.extra_tags {
            write!(f, "{key}[{value}]")?;
        }
        let start = self.start();
        let side = match start.side_to_move() {
            Color::Black => '*',
            Color::White => 'O',
        };
        write!(f, "BO[{} {} {side}]", start.size().side(), squares_text(&start).replace('X', "*"))?;
        for mv in &self.moves {
            write!(f, "{mv}")?;
        }
        f.write_str(";)")
    }
}

/// Reads a file of games, one a line (as GGS archives and NTest's test games are written): one
/// result per game, in order. Blank lines are skipped; a line may start with a count (`1 `, or
/// `2 ` before a synchro pair of games, both of which are read). After an error the rest of that
/// line is skipped.
pub fn parse_ggf_games(text: &str) -> Vec<Result<GgfGame, ParseGgfError>> {
    let mut games = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut rest = line;
        while !rest.trim().is_empty() {
            match scan_game(rest) {
                Ok((tags, after)) => {
                    games.push(GgfGame::from_tags(&tags));
                    rest = after;
                }
                Err(error) => {
                    games.push(Err(error));
                    break;
                }
            }
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const START_BO: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    fn game(text: &str) -> GgfGame {
        GgfGame::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn error(text: &str) -> String {
        match GgfGame::parse(text) {
            Ok(g) => panic!("{text} parsed: {g}"),
            Err(e) => e.to_string(),
        }
    }

    /// Black to move with no legal move (white a1 b1, black c1) while White can play d1.
    const BLACK_MUST_PASS: &str = "BO[8 O O * ----- -------- -------- -------- -------- -------- -------- -------- *]";

    #[test]
    fn extra_tags_are_set_and_read_back() {
        let mut game = GgfGame::new(Position::initial());
        assert!(game.set_extra_tag("MI", "12"));
        assert!(game.set_extra_tag("RS", "timeout: x]y"));
        assert!(game.set_extra_tag("MI", "13"));
        assert!(!game.set_extra_tag("PB", "no"));
        assert!(!game.set_extra_tag("mi", "no"));
        let back: GgfGame = game.to_string().parse().unwrap();
        assert_eq!(back.extra_tag("MI"), Some("13"));
        assert_eq!(back.extra_tag("RS"), game.extra_tag("RS"));
        assert_eq!(back, game);
    }

    #[test]
    fn nboard_example() {
        let text = format!(
            "(;GM[Othello]PC[NBoard]DT[2014-02-08 17:58:38 GMT]PB[Human]PW[Edax]RE[?]TI[15:00]TY[8]{START_BO}B[F5//2.449]W[F6/-1.00/0.01];)"
        );
        let g = game(&text);
        assert_eq!(g.place(), Some("NBoard"));
        assert_eq!(g.date(), Some("2014-02-08 17:58:38 GMT"));
        assert_eq!(g.player(Color::Black), Some("Human"));
        assert_eq!(g.player(Color::White), Some("Edax"));
        assert_eq!(g.result(), Some(GgfResult::Unknown));
        assert_eq!(g.clock(Color::Black), Some(Clock::new(secs(900))));
        assert_eq!(g.board_type(), Some("8"));
        assert_eq!(g.start(), Position::initial());
        assert_eq!(
            g.moves(),
            &[
                GgfMove { color: Color::Black, mv: mv("f5"), eval: None, time: Some(2.449) },
                GgfMove { color: Color::White, mv: mv("f6"), eval: Some(-1.0), time: Some(0.01) },
            ]
        );
        assert_eq!(g.position().side_to_move(), Color::Black);
        assert_eq!(
            g.to_string(),
            format!(
                "(;GM[Othello]PC[NBoard]DT[2014-02-08 17:58:38 GMT]PB[Human]PW[Edax]RE[?]TI[15:00]TY[8]{START_BO}B[F5//2.449]W[F6/-1.00/0.01];)"
            )
        );
        assert_eq!(format!("1 {text}").parse::<GgfGame>(), Ok(g));
        // The example as first given ends with B[PA], but Black can play there.
        assert_eq!(error(&text.replace(";)", "B[PA];)")), "move 3 (B[PA]): illegal move pass: a legal move exists");
    }

    #[test]
    fn ggs_board_with_rows_apart() {
        let g = game(
            "1 (;GM[Othello]PC[GGS/os]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[d3//0.01]W[c5//0.01];)",
        );
        assert_eq!(g.start(), Position::initial());
        assert_eq!(g.moves().len(), 2);
        // Other square characters, and the side written x.
        let g2 = game(
            "(;BO[8 ........ ........ ........ ...ox... ...xo... ........ ________ ________ x]B[d3//0.01]W[c5//0.01];)",
        );
        assert_eq!(g2.start(), Position::initial());
        assert_eq!(g2.position(), g.position());
    }

    #[test]
    fn every_pass_spelling() {
        for pass in ["PA", "pa", "Pa", "P", "p", "PAS", "pass", "PASS", "--", " PA "] {
            let g = game(&format!("(;{BLACK_MUST_PASS}B[{pass}]W[d1];)"));
            assert_eq!(g.moves()[0].mv, Move::Pass, "{pass}");
            assert_eq!(g.moves()[1].mv, mv("d1"));
            assert!(g.position().is_game_over());
            assert!(g.to_string().ends_with("B[PA]W[D1];)"));
        }
        assert!(error(&format!("(;{BLACK_MUST_PASS}B[passe];)")).contains("'passe' is not a move"));
    }

    #[test]
    fn a_trailing_pass_is_kept() {
        let g = game(&format!("(;{BLACK_MUST_PASS}B[PA//1.5];)"));
        assert_eq!(g.moves(), &[GgfMove { color: Color::Black, mv: Move::Pass, eval: None, time: Some(1.5) }]);
        assert_eq!(g.position().side_to_move(), Color::White);
        assert_eq!(g.game().moves(), &[Move::Pass]);
        let written = g.to_string();
        assert!(written.ends_with("B[PA//1.50];)"), "{written}");
        assert_eq!(game(&written), g);
    }

    #[test]
    fn a_missing_forced_pass_is_inserted() {
        let g = game(&format!("(;{BLACK_MUST_PASS}W[d1/3/4];)"));
        assert_eq!(
            g.moves(),
            &[
                GgfMove { color: Color::Black, mv: Move::Pass, eval: None, time: None },
                GgfMove { color: Color::White, mv: mv("d1"), eval: Some(3.0), time: Some(4.0) },
            ]
        );
        assert!(g.to_string().ends_with("B[PA]W[D1/3.00/4.00];)"));
    }

    #[test]
    fn moves_by_the_wrong_colour_are_refused() {
        assert_eq!(error(&format!("(;{START_BO}W[f5];)")), "move 1 (W[f5]): black is to move");
        assert_eq!(error(&format!("(;{START_BO}B[f5]B[d6];)")), "move 2 (B[d6]): white is to move");
        // After the game's end nobody may move, not even by a pass.
        let over = format!("(;{BLACK_MUST_PASS}B[PA]W[d1]");
        assert!(error(&format!("{over}B[e1];)")).starts_with("move 3 (B[e1]): illegal move e1"));
        assert_eq!(error(&format!("{over}W[e1];)")), "move 3 (W[e1]): black is to move");
        assert_eq!(error(&format!("{over}B[PA];)")), "move 3 (B[PA]): illegal move pass: the game is over");
    }

    #[test]
    fn illegal_and_malformed_moves_are_refused() {
        assert_eq!(error(&format!("(;{START_BO}B[a1];)")), "move 1 (B[a1]): illegal move a1: it flips no disc");
        assert_eq!(error(&format!("(;{START_BO}B[f5]W[Z9];)")), "move 2 (W[Z9]): 'Z9' is not a move");
        assert_eq!(error(&format!("(;{START_BO}B[f5/x];)")), "move 1 (B[f5/x]): 'x' is not an evaluation");
        assert_eq!(error(&format!("(;{START_BO}B[f5//-1];)")), "move 1 (B[f5//-1]): '-1' is not a time in seconds");
        assert!(error(&format!("(;{START_BO}B[f5/1/2/3];)")).contains("has more parts"));
        assert!(error(&format!("(;{START_BO}B[f5/1e5];)")).contains("'1e5' is not an evaluation"));
        assert!(error(&format!("(;{START_BO}B[f5/inf];)")).contains("'inf' is not an evaluation"));
        assert!(error(&format!("(;{START_BO}B[];)")).contains("'' is not a move"));
        // A 6x6 board has no g1.
        assert!(error("(;TY[6]B[g1];)").starts_with("move 1 (B[g1]): illegal move g1"));
    }

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

    #[test]
    fn clocks_in_all_forms() {
        let clock = |s: &str| s.parse::<Clock>().unwrap_or_else(|e| panic!("{s}: {e}"));
        let full = |main, increment, grace| Clock { main: secs(main), increment: secs(increment), grace: secs(grace) };
        assert_eq!(clock("15:00"), Clock::new(secs(900)));
        assert_eq!(clock("05:00//02:00"), full(300, 0, 120));
        assert_eq!(clock("1.00:00:00"), Clock::new(secs(86_400)));
        assert_eq!(clock("2.03:04:05"), Clock::new(secs(2 * 86_400 + 3 * 3600 + 4 * 60 + 5)));
        assert_eq!(clock("1:00:00"), Clock::new(secs(3600)));
        assert_eq!(clock("30"), Clock::new(secs(30)));
        assert_eq!(clock("10:00/5/1:00"), full(600, 5, 60));
        assert_eq!(clock("10:00/00:05"), full(600, 5, 120));
        assert_eq!(clock("10:00//"), full(600, 0, 120));
        assert_eq!(clock(" 90:00 "), Clock::new(secs(5400)));
        assert_eq!(clock("00:30.25").main, Duration::from_millis(30_250));
        assert_eq!(clock("1.5").main, Duration::from_millis(1500));

        assert_eq!(full(900, 0, 120).to_string(), "15:00");
        assert_eq!(full(300, 0, 120).to_string(), "05:00");
        assert_eq!(full(30, 0, 120).to_string(), "00:30");
        assert_eq!(full(3661, 0, 120).to_string(), "1:01:01");
        assert_eq!(full(86_400, 0, 120).to_string(), "1.00:00:00");
        assert_eq!(full(300, 10, 120).to_string(), "05:00/00:10");
        assert_eq!(full(300, 0, 60).to_string(), "05:00//01:00");
        assert_eq!(full(300, 10, 0).to_string(), "05:00/00:10/00:00");
        assert_eq!(Clock::new(Duration::from_millis(30_250)).to_string(), "00:30.25");

        for bad in ["1x:00", "", "1:2:3:4", "1.5:00", ":30", "1:", "-5", "00:30.", "0.1234567891", "1/2/3/4"] {
            assert!(bad.parse::<Clock>().is_err(), "{bad}");
        }
        assert_eq!("1x:00".parse::<Clock>(), Err(ParseClockError { token: "1x:00".to_string() }));
        assert!(error("(;TI[1x:00];)").starts_with("TI: '1x:00' is not a time"));
        assert!(error("(;TB[5:00/x];)").starts_with("TB: 'x' is not a time"));
        assert!("99999999999999999999:00".parse::<Clock>().is_err());
    }

    #[test]
    fn clocks_round_trip() {
        for main in [0, 1, 59, 60, 61, 3599, 3600, 86_399, 86_400, 1_000_000] {
            for (increment, grace) in [(0, 120), (5, 120), (0, 0), (7, 300)] {
                let c = Clock { main: secs(main), increment: secs(increment), grace: secs(grace) };
                assert_eq!(c.to_string().parse(), Ok(c), "{c}");
            }
        }
        let c = Clock { main: Duration::new(5, 1), increment: Duration::new(0, 500_000_000), grace: secs(120) };
        assert_eq!(c.to_string().parse(), Ok(c), "{c}");
    }

    #[test]
    fn player_clocks_and_time_left() {
        let g = game(&format!("(;TI[10:00]TB[05:00/10]{START_BO}B[f5//2.5]W[d6//100]B[c3]W[d3/1/1000];)"));
        assert_eq!(g.clock(Color::Black), Some(Clock { increment: secs(10), ..Clock::new(secs(300)) }));
        assert_eq!(g.clock(Color::White), Some(Clock::new(secs(600))));
        assert_eq!(g.shared_clock(), Some(Clock::new(secs(600))));
        assert_eq!(g.player_clock(Color::White), None);
        // Black: 300 + 2 x 10 - 2.5; White: 600 - 1100, at least zero.
        assert_eq!(g.time_left(Color::Black), Some(Duration::from_millis(317_500)));
        assert_eq!(g.time_left(Color::White), Some(Duration::ZERO));
        assert_eq!(game(&format!("(;{START_BO};)")).time_left(Color::Black), None);
        assert!(g.to_string().contains("TI[10:00]TB[05:00/00:10]"));
    }

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

    #[test]
    fn small_boards() {
        // 4x4: the standard start, two moves, written back.
        let g = game("(;GM[Othello]TY[4]BO[4 ---- -O*- -*O- ---- *]B[a2]W[a1];)");
        assert_eq!(g.start(), Position::start(BoardSize::Four));
        assert_eq!(g.game().moves(), &[mv("a2"), mv("a1")]);
        assert_eq!(g.to_string(), "(;GM[Othello]TY[4]BO[4 -----O*--*O----- *]B[A2]W[A1];)");
        // 6x6 from TY alone.
        let g = game("(;TY[6]B[c2]W[b2];)");
        assert_eq!(g.start(), Position::start(BoardSize::Six));
        assert_eq!(g.moves().len(), 2);
        assert_eq!(game(&g.to_string()), g);
        assert!(g.to_string().contains("BO[6 --------------O*----*O-------------- *]"));
        // GGS match types around the size.
        assert_eq!(game("(;TY[s8r20];)").start(), Position::initial());
        assert_eq!(game("(;TY[6ka];)").start().size(), BoardSize::Six);
        assert_eq!(game("(;GM[othello];)").start(), Position::initial());
    }

    #[test]
    fn unsupported_and_inconsistent_boards() {
        let ten = format!("(;BO[10 {} *];)", "-".repeat(100));
        assert_eq!(error(&ten), "BO: board size 10 is not supported (only 4, 6 and 8)");
        assert_eq!(error("(;TY[10];)"), "TY: board size 10 is not supported (only 4, 6 and 8)");
        assert_eq!(error(&format!("(;TY[6]{START_BO};)")), "TY says board size 6 but BO is size 8");
        assert!(error("(;TY[8x];)").starts_with("TY: '8x' is not a board type"));
        assert!(error("(;TY[r];)").starts_with("TY: 'r' is not a board type"));
        assert!(error("(;TY[8r4r];)").contains("is not a board type"));
        assert!(error("(;TY[s];)").contains("is not a board type"));
        assert!(error("(;TY[8 8];)").contains("is not a board type"));
        assert_eq!(error("(;BO[8 ---- *];)"), "BO: size 8 needs 64 squares then the side to move, found 5 characters");
        assert!(error("(;BO[x -----O*--*O----- *];)").starts_with("BO: 'x' is not a board size"));
        assert!(error("(;BO[4 -----O*--*Oq---- *];)").starts_with("BO: 'q' at d3 is not a square"));
        assert!(error("(;BO[4 -----O*--*O----- Z];)").starts_with("BO: 'Z' is not a side to move"));
        assert!(error("(;BO[99999999999999999999999 *];)").contains("is not a board size"));
    }

    #[test]
    fn unknown_tags_are_kept_and_written_back() {
        let g = game(&format!("(;GM[Othello]XX[hello]{START_BO}C[a comment]B[f5]XX[again];)"));
        let tags: Vec<(&str, &str)> = g.extra_tags().iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(tags, [("XX", "hello"), ("C", "a comment"), ("XX", "again")]);
        let written = g.to_string();
        assert!(written.contains("XX[hello]C[a comment]XX[again]BO["), "{written}");
        assert_eq!(game(&written), g);
    }

    #[test]
    fn structure_errors() {
        assert_eq!(error(""), "missing '(;' at the start");
        assert_eq!(error("GM[Othello]"), "missing '(;' at the start (found 'GM[Othello]')");
        assert_eq!(error("(;GM[Othello]"), "missing ';)' at the end of the game");
        assert_eq!(error("(;GM[Othello]PB"), "missing ';)' at the end of the game");
        assert_eq!(error("(;GM[Othello]PB[Saio;)"), "unclosed tag 'PB[' (no ']' follows)");
        assert_eq!(error("(;GM[Othello] 12[x];)"), "expected a tag KEY[value] or the end ';)', found '12[x];)'");
        assert_eq!(error("(;GM[Othello]PB x;)"), "expected a tag KEY[value] or the end ';)', found 'PB x;)'");
        assert_eq!(error("(;GM[Othello];) x"), "text after the game's end ';)': 'x'");
        assert_eq!(error("(;PB[a]PB[b];)"), "tag PB appears twice");
        assert_eq!(error(&format!("(;{START_BO}{START_BO};)")), "tag BO appears twice");
        assert_eq!(error("(;GM[Chess];)"), "GM: 'Chess' is not Othello");
        // Long or multi-line tokens stay one short line.
        let long = error(&format!("(;GM[{}\n];)", "x".repeat(100)));
        assert!(!long.contains('\n') && long.len() < 100, "{long}");
        let long = error(&format!("(;B[{}\n];)", "x".repeat(100)));
        assert!(!long.contains('\n') && long.len() < 150, "{long}");
        assert!(long.starts_with("move 1 (B[xxxx") && long.contains("…]):"), "{long}");
    }

    #[test]
    fn whitespace_between_tags_and_prefixes() {
        let g = game(&format!("  2 (; GM[Othello]\t{START_BO}\n B[f5] ;)  \n"));
        assert_eq!(g.moves().len(), 1);
        assert!(GgfGame::parse("1(;GM[Othello];)").is_err());
    }

    #[test]
    fn files_of_games() {
        let one = format!("(;{START_BO}B[f5];)");
        let two = format!("(;{START_BO}B[d3];)");
        let text = format!("1 {one}\n\n2 {one} {two}\n(;B[a1];)\n1 {two}\n");
        let games = parse_ggf_games(&text);
        assert_eq!(games.len(), 5);
        assert_eq!(games[0], Ok(game(&one)));
        assert_eq!(games[1], Ok(game(&one)));
        assert_eq!(games[2], Ok(game(&two)));
        assert!(games[3].is_err());
        assert_eq!(games[4], Ok(game(&two)));
    }

    #[test]
    fn the_builder_writes_what_parses_back() {
        let mut g = GgfGame::new(Position::initial());
        g.set_place("Magpie match");
        g.set_date("2025-01-01 12:00:00 UTC");
        g.set_player(Color::Black, "magpie]\nv1");
        g.set_player(Color::White, "edax");
        g.set_rating(Color::Black, "1500");
        g.set_clock(Clock::new(secs(300)));
        g.set_player_clock(Color::White, Clock { increment: secs(2), ..Clock::new(secs(60)) });
        g.push_move(mv("f5"), Some(0.5), Some(1.25)).unwrap();
        g.push_move(mv("d6"), Some(f64::NAN), Some(-3.0)).unwrap();
        assert!(g.push_move(mv("a1"), None, None).is_err());
        assert!(g.push_move(Move::Pass, None, None).is_err());
        g.set_result(GgfResult::Score { black_net: 4.0, end: GameEnd::Resigned });
        assert_eq!(g.player(Color::Black), Some("magpie) v1"));
        assert_eq!(g.moves()[1], GgfMove { color: Color::White, mv: mv("d6"), eval: None, time: None });
        let written = g.to_string();
        assert_eq!(
            written,
            format!(
                "(;GM[Othello]PC[Magpie match]DT[2025-01-01 12:00:00 UTC]PB[magpie) v1]PW[edax]RB[1500]RE[+4.000:r]TI[05:00]TW[01:00/00:02]TY[8]{START_BO}B[F5/0.50/1.25]W[D6];)"
            )
        );
        assert_eq!(game(&written), g);
    }

    proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC*") {
            let _ = GgfGame::parse(&text);
            let _ = parse_ggf_games(&text);
        }

        #[test]
        fn tag_soup_never_panics(text in "(1 )?\\(;([A-Z]{1,2}\\[[-*Oo0-9a-hpPA/:. ]{0,12}\\]){0,12};?\\)?") {
            if let Ok(g) = GgfGame::parse(&text) {
                prop_assert_eq!(GgfGame::parse(&g.to_string()), Ok(g));
            }
        }

        #[test]
        fn clock_and_result_text_never_panics(text in "[0-9:./+-]{0,16}") {
            if let Ok(c) = text.parse::<Clock>() {
                prop_assert_eq!(c.to_string().parse::<Clock>(), Ok(c));
            }
            if let Ok(r) = text.parse::<GgfResult>() {
                prop_assert_eq!(r.to_string().parse::<GgfResult>(), Ok(r));
            }
            if let Ok(m) = text.parse::<MoveText>() {
                prop_assert_eq!(m.to_string().parse::<MoveText>(), Ok(m));
            }
        }
    }
}
