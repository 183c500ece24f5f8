//! The Generic Game Server's Othello service (`/os`), as a client reads and writes it: the
//! server's text split into messages ([`Framer`]), each message parsed into a typed
//! [`Message`], and the commands a client sends ([`command`]).
//!
//! The server is a telnet-style text service (skatgame.net, port 5000). Every chunk it sends ends
//! with a line `READY` (or `ALERT`), except the login and password prompts; a message is a first
//! line (`/os: update .5.0 s8r20 K?`) followed by lines that start with `|`. The parsing follows
//! the server's help files (`cmds`, `format`, `clock`, `types`) and what its source writes; the
//! client built on it is [`crate::tools::ggs`], and docs/clients.md tells how to run it.
//!
//! What is parsed, and the server's conventions kept:
//!
//! - game ids `.N` (a match) and `.N.0` / `.N.1` (the two boards of a synchro match): [`GameId`];
//! - game types `[s]8{k|r<n>|a|b|w}`: [`GameType`];
//! - clocks as the server shows them, `14:59,0:0//02:00,0:0` (time left, moves made in main
//!   time, increment, extension) or as set, `15:00//02:00`: [`GgsClock`];
//! - requests, match starts and ends, boards (`join`, `update`), a synchro board's `end`, errors,
//!   timeouts: [`Message`].
//!
//! A line that cannot be read is a [`Message::Other`] (logged by the client and skipped), never an
//! error that ends the session.

mod message;

pub use message::{
    Board, Framer, MatchEnd, MatchOutcome, MatchStart, Message, MoveRecord, PlayerLine, Rating, Request, RequestKind,
    is_prompt, parse_message,
};

use crate::board::Color;
use crate::quote::Quoted;
use nom::IResult;
use nom::Parser;
use nom::character::complete::{char, digit1, u32 as number};
use nom::combinator::{all_consuming, map_res, opt, recognize};
use nom::sequence::preceded;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A game on the server: a match `.N`, or board `g` (0 or 1) of synchro match `.N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId {
    /// The match's number (small, and reused by the server once the match is over).
    pub match_number: u32,
    /// The board of a synchro match, `None` for a match of one board.
    pub board: Option<u8>,
}

impl GameId {
    /// The match this game belongs to (itself for a match of one board).
    pub fn match_id(self) -> GameId {
        GameId { board: None, ..self }
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.board {
            Some(b) => write!(f, ".{}.{b}", self.match_number),
            None => write!(f, ".{}", self.match_number),
        }
    }
}

/// A token that is not a game id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseGgsError {
    /// What was being read.
    pub what: &'static str,
    /// The offending text.
    pub token: String,
}

impl fmt::Display for ParseGgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not {}", Quoted(&self.token), self.what)
    }
}

impl std::error::Error for ParseGgsError {}

fn game_id(input: &str) -> IResult<&str, GameId> {
    let board = map_res(preceded(char('.'), digit1), |d: &str| d.parse::<u8>().map_err(|_| ()));
    (preceded(char('.'), number), opt(board)).map(|(match_number, board)| GameId { match_number, board }).parse(input)
}

impl FromStr for GameId {
    type Err = ParseGgsError;

    /// Reads `.12` or `.12.0`.
    fn from_str(s: &str) -> Result<GameId, ParseGgsError> {
        let error = || ParseGgsError { what: "a game id (.N or .N.0)", token: s.to_string() };
        let (_, id) = all_consuming(game_id).parse(s).map_err(|_| error())?;
        match id.board {
            Some(b) if b > 1 => Err(error()),
            _ => Ok(id),
        }
    }
}

/// A game type: the board, and the letters around it (`s8r20`, `8k`, `8b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameType {
    /// Synchro: two boards from the same start, colours swapped (`s`).
    pub synchro: bool,
    /// The board's side (`8`; the server also has 4, 6, 10, 12, 14 and the octagon `88`).
    pub size: u8,
    /// Komi: both players bid their first move with an estimate (`k`).
    pub komi: bool,
    /// A random start of this many discs (`r<n>`).
    pub random: Option<u8>,
    /// Anti: fewer discs win (`a`).
    pub anti: bool,
    /// The colour the asker wants (`b`, `w`).
    pub color: Option<Color>,
}

impl GameType {
    /// Whether Magpie can play it: 8x8, not anti, not komi (whose first move is a bid).
    pub fn playable(&self) -> bool {
        self.size == 8 && !self.anti && !self.komi
    }
}

impl fmt::Display for GameType {
    /// The server's own order: `s`, the board, `k`, `r<n>`, `b`/`w`, `a`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.synchro {
            f.write_str("s")?;
        }
        write!(f, "{}", self.size)?;
        if self.komi {
            f.write_str("k")?;
        }
        if let Some(n) = self.random {
            write!(f, "r{n}")?;
        }
        match self.color {
            Some(Color::Black) => f.write_str("b")?,
            Some(Color::White) => f.write_str("w")?,
            None => {}
        }
        if self.anti {
            f.write_str("a")?;
        }
        Ok(())
    }
}

impl FromStr for GameType {
    type Err = ParseGgsError;

    /// Reads `[s]<board>{k|r<n>|a|b|w}`, in either case.
    fn from_str(s: &str) -> Result<GameType, ParseGgsError> {
        let error = || ParseGgsError { what: "a game type (such as 8, s8r20, 8b)", token: s.to_string() };
        let lower = s.to_ascii_lowercase();
        let (mut rest, synchro) = match lower.strip_prefix('s') {
            Some(rest) => (rest, true),
            None => (lower.as_str(), false),
        };
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let size: u8 = rest[..digits].parse().map_err(|_| error())?;
        if ![4, 6, 8, 10, 12, 14, 88].contains(&size) {
            return Err(error());
        }
        rest = &rest[digits..];
        let mut t = GameType { synchro, size, komi: false, random: None, anti: false, color: None };
        while let Some(c) = rest.chars().next() {
            rest = &rest[c.len_utf8()..];
            match c {
                'k' if !t.komi => t.komi = true,
                'a' if !t.anti => t.anti = true,
                'b' | 'w' if t.color.is_none() => t.color = Some(if c == 'b' { Color::Black } else { Color::White }),
                'r' if t.random.is_none() => {
                    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                    let n: u8 = rest[..digits].parse().map_err(|_| error())?;
                    if !(4..=64).contains(&n) {
                        return Err(error());
                    }
                    t.random = Some(n);
                    rest = &rest[digits..];
                }
                _ => return Err(error()),
            }
        }
        Ok(t)
    }
}

/// A player's clock as the server shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct GgsClock {
    /// Time left (0 when the clock shows a negative time).
    pub left: Duration,
    /// Whether the clock shows a negative time (the player has run out).
    pub overdrawn: bool,
    /// Moves made in main time (`None` where the clock is shown as set, without counters).
    pub main_moves: Option<u32>,
    /// Added after each move.
    pub increment: Duration,
    /// The extension, added once to the same clock when main time runs out (the game's result is
    /// then capped at a narrow loss).
    pub extension: Duration,
}

/// `[-][[D.]HH:]MM:SS` or a bare number of seconds, as the server writes a time.
fn time_value(input: &str) -> IResult<&str, (bool, Duration)> {
    let (rest, negative) = opt(char('-')).parse(input)?;
    let (rest, text) =
        recognize((digit1, nom::multi::many0((nom::branch::alt((char(':'), char('.'))), digit1)))).parse(rest)?;
    let mut seconds = 0u64;
    let mut parts = text.split([':', '.']).map(|p| p.parse::<u64>().unwrap_or(0)).collect::<Vec<_>>();
    // D.HH:MM:SS: the day is the first part when there are four.
    if parts.len() == 4 {
        seconds = parts.remove(0).saturating_mul(86_400);
    }
    for (i, p) in parts.iter().rev().enumerate() {
        seconds = seconds.saturating_add(p.saturating_mul([1, 60, 3_600][i.min(2)]));
    }
    Ok((rest, (negative.is_some(), Duration::from_secs(seconds))))
}

/// One of a clock's three fields: a time, then optionally `,[N]<a>:<b>` or `,[N]<n>`.
fn clock_field(input: &str) -> IResult<&str, ((bool, Duration), Option<u32>)> {
    let counter = preceded((char(','), opt(char('N'))), (number, opt(preceded(char(':'), number))));
    (time_value, opt(counter)).map(|(t, c)| (t, c.map(|(a, _)| a))).parse(input)
}

impl FromStr for GgsClock {
    type Err = ParseGgsError;

    /// Reads `14:59,0:0//02:00,0:0` (shown) or `15:00//02:00` (set).
    fn from_str(s: &str) -> Result<GgsClock, ParseGgsError> {
        let error = || ParseGgsError { what: "a clock (such as 14:59,0:0//02:00,0:0)", token: s.to_string() };
        let mut fields = s.split('/');
        let (Some(main), Some(inc), Some(ext), None) = (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(error());
        };
        let read = |field: &str| -> Result<((bool, Duration), Option<u32>), ParseGgsError> {
            if field.is_empty() {
                return Ok(((false, Duration::ZERO), None));
            }
            all_consuming(clock_field).parse(field).map(|(_, v)| v).map_err(|_| error())
        };
        let ((overdrawn, left), main_moves) = read(main)?;
        let ((_, increment), _) = read(inc)?;
        let ((_, extension), _) = read(ext)?;
        Ok(GgsClock {
            left: if overdrawn { Duration::ZERO } else { left },
            overdrawn: overdrawn && !left.is_zero(),
            main_moves,
            increment,
            extension,
        })
    }
}

/// A clock to ask for, as `MM:SS` fields (a bare number would be read as minutes by the server).
pub fn format_clock_setting(main: Duration, increment: Duration, extension: Duration) -> String {
    let field = |d: Duration| {
        if d.is_zero() {
            return String::new();
        }
        let s = d.as_secs();
        if s >= 3_600 {
            format!("{}:{:02}:{:02}", s / 3_600, s / 60 % 60, s % 60)
        } else {
            format!("{:02}:{:02}", s / 60, s % 60)
        }
    };
    format!("{}/{}/{}", field(main), field(increment), field(extension))
}

/// The commands a client sends, as lines.
pub mod command {
    use super::GameId;
    use crate::board::Move;
    use std::time::Duration;

    /// `tell /os play <id> <move>/<eval>/<seconds>`: the eval in discs for the mover, the time
    /// the move took (with `trust +` the server charges it, so it is always sent).
    pub fn play(id: GameId, mv: Move, eval_discs: f64, time: Duration) -> String {
        let mv = match mv {
            Move::Play(sq) => sq.to_string(),
            Move::Pass => "pa".to_string(),
        };
        // The server refuses evaluations of 1000 or more.
        let eval = eval_discs.clamp(-999.0, 999.0);
        format!("tell /os play {id} {mv}/{eval:.2}/{:.2}", time.as_secs_f64())
    }

    /// `tell /os accept <request>`.
    pub fn accept(request: &str) -> String {
        format!("tell /os accept {request}")
    }

    /// `tell /os decline <request>`.
    pub fn decline(request: &str) -> String {
        format!("tell /os decline {request}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids_round_trip_and_bad_ones_are_refused() {
        for text in [".5", ".5.0", ".123.1"] {
            assert_eq!(text.parse::<GameId>().unwrap().to_string(), text);
        }
        assert_eq!(".5.1".parse::<GameId>().unwrap().match_id(), ".5".parse().unwrap());
        for bad in ["5", ".", ".5.", ".5.2", ".x", ".5.0.1", ""] {
            assert!(bad.parse::<GameId>().is_err(), "{bad}");
        }
    }

    #[test]
    fn game_types_read_in_any_case_and_write_in_the_servers_order() {
        for (text, canonical) in [("8", "8"), ("s8r20", "s8r20"), ("8B", "8b"), ("S8R16", "s8r16"), ("8ak", "8ka")] {
            assert_eq!(text.parse::<GameType>().unwrap().to_string(), canonical, "{text}");
        }
        let t: GameType = "s8r20".parse().unwrap();
        assert!(t.synchro && t.random == Some(20) && t.playable());
        assert!(!"8k".parse::<GameType>().unwrap().playable());
        assert!(!"8a".parse::<GameType>().unwrap().playable());
        assert!(!"10".parse::<GameType>().unwrap().playable());
        for bad in ["", "s", "9", "8x", "8r", "8bb", "8r99", "abc", "8é", "s8r2é", "é"] {
            assert!(bad.parse::<GameType>().is_err(), "{bad}");
        }
    }

    #[test]
    fn clocks_read_as_shown_and_as_set() {
        let c: GgsClock = "00:56,1:0//02:00,1:0".parse().unwrap();
        assert_eq!(
            (c.left, c.main_moves, c.increment, c.extension),
            (Duration::from_secs(56), Some(1), Duration::ZERO, Duration::from_secs(120))
        );
        let c: GgsClock = "15:00//02:00".parse().unwrap();
        assert_eq!((c.left, c.main_moves, c.extension), (Duration::from_secs(900), None, Duration::from_secs(120)));
        let c: GgsClock = "01:00:00,3:0/00:05,3:1/00:00,3:0".parse().unwrap();
        assert_eq!((c.left, c.increment), (Duration::from_secs(3600), Duration::from_secs(5)));
        let c: GgsClock = "1.02:00:00//".parse().unwrap();
        assert_eq!(c.left, Duration::from_secs(86_400 + 7_200));
        // Numbers too large for any clock saturate rather than overflow.
        let c: GgsClock = "999999999999999999:00//".parse().unwrap();
        assert_eq!(c.left, Duration::from_secs(u64::MAX));
        let c: GgsClock = "-0:03,12:0//00:30,12:0".parse().unwrap();
        assert!(c.overdrawn && c.left.is_zero());
        for bad in ["", "15:00", "a//b", "15:00/x/", "1/2/3/4"] {
            assert!(bad.parse::<GgsClock>().is_err(), "{bad}");
        }
        assert_eq!(
            format_clock_setting(Duration::from_secs(300), Duration::ZERO, Duration::from_secs(120)),
            "05:00//02:00"
        );
        assert_eq!(
            format_clock_setting(Duration::from_secs(3_661), Duration::from_secs(2), Duration::ZERO),
            "1:01:01/00:02/"
        );
    }

    #[test]
    fn moves_are_sent_with_their_eval_and_time() {
        let id: GameId = ".7.1".parse().unwrap();
        let mv = crate::board::Move::Play("f5".parse().unwrap());
        assert_eq!(command::play(id, mv, 2.0, Duration::from_millis(3_514)), "tell /os play .7.1 f5/2.00/3.51");
        assert_eq!(
            command::play(id, crate::board::Move::Pass, -64.0, Duration::ZERO),
            "tell /os play .7.1 pa/-64.00/0.00"
        );
    }
}
