//! The protocols Magpie speaks, one module each, over the same engine loop ([`crate::engine`]):
//! a nom parser from a line to a typed command, a formatter from a typed reply to a line, and the
//! [`crate::engine::Frontend`] that connects them to the engine.
//!
//! - [`ugi`]: Magpie's own UCI-shaped protocol, compatible with UGI clients (cutegames);
//! - [`nboard`]: the NBoard protocol (the NBoard GUI, the Edax and NTest world);
//! - [`gtp`]: the Go Text Protocol as Othello GUIs and match runners use it (Quarry, GoGui).
//!
//! The protocol is recognised from the first line ([`Protocol::detect`]) or forced on the command
//! line.

pub mod gtp;
pub mod nboard;
pub mod ugi;

use std::fmt;
use std::str::FromStr;

/// A protocol Magpie speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Magpie's own, UCI-shaped (UGI).
    Ugi,
    /// NBoard.
    Nboard,
    /// GTP.
    Gtp,
}

/// The GTP commands a GTP client may open a session with.
const GTP_OPENERS: [&str; 16] = [
    "protocol_version",
    "name",
    "version",
    "list_commands",
    "known_command",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "list_games",
    "set_game",
    "showboard",
    "time_settings",
    "time_left",
    "undo",
];

impl Protocol {
    /// The protocol a session opening with `line` speaks: `nboard …` is NBoard; a GTP command
    /// (possibly after a numeric id, or a `#` comment) is GTP; anything else is Magpie's own.
    pub fn detect(line: &str) -> Protocol {
        let line = line.trim_start();
        if line.starts_with('#') {
            return Protocol::Gtp;
        }
        let mut words = line.split_whitespace();
        let mut first = words.next().unwrap_or("").to_ascii_lowercase();
        if first.chars().all(|c| c.is_ascii_digit()) && !first.is_empty() {
            first = words.next().unwrap_or("").to_ascii_lowercase();
        }
        if first == "nboard" {
            Protocol::Nboard
        } else if GTP_OPENERS.contains(&first.as_str()) || first.starts_with("gogui-") {
            Protocol::Gtp
        } else {
            Protocol::Ugi
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Ugi => "ugi",
            Protocol::Nboard => "nboard",
            Protocol::Gtp => "gtp",
        })
    }
}

impl FromStr for Protocol {
    type Err = String;
    fn from_str(s: &str) -> Result<Protocol, String> {
        match s.to_ascii_lowercase().as_str() {
            "ugi" | "uci" => Ok(Protocol::Ugi),
            "nboard" => Ok(Protocol::Nboard),
            "gtp" => Ok(Protocol::Gtp),
            _ => Err(format!("unknown protocol '{s}' (expected ugi, nboard or gtp)")),
        }
    }
}

use nom::IResult;
use nom::Parser;
use nom::bytes::complete::{tag_no_case, take_till1};
use nom::character::complete::{space0, space1};
use nom::combinator::{eof, peek};
use nom::sequence::terminated;

/// A command line split into its name and its arguments, both trimmed; `None` for a blank line.
pub(crate) fn split_command(line: &str) -> Option<(&str, &str)> {
    let line = line.trim();
    if line.is_empty() {
        return None;
    }
    Some(line.split_once(char::is_whitespace).map_or((line, ""), |(name, args)| (name, args.trim())))
}

/// The first blank-separated word of `text` (empty if none): the offending word of an error.
pub(crate) fn first_word(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

/// Nothing but blanks must be left after the arguments of `command`.
pub(crate) fn end_of_args(rest: &str, command: &str) -> Result<(), String> {
    if rest.trim().is_empty() { Ok(()) } else { Err(format!("{command}: unexpected '{}'", first_word(rest))) }
}

/// One blank-separated word.
pub(crate) fn word(input: &str) -> IResult<&str, &str> {
    let (input, _) = space0(input)?;
    take_till1(char::is_whitespace)(input)
}

/// A keyword, matched whole and in either case.
pub(crate) fn keyword<'a>(
    word: &'static str,
) -> impl Parser<&'a str, Output = &'a str, Error = nom::error::Error<&'a str>> {
    terminated(tag_no_case(word), peek(nom::branch::alt((space1, eof))))
}

/// The first word of the text that a nom error stopped at, for error messages.
pub(crate) fn offending(err: &nom::Err<nom::error::Error<&str>>) -> String {
    match err {
        nom::Err::Error(e) | nom::Err::Failure(e) => {
            e.input.split_whitespace().next().unwrap_or("end of line").to_string()
        }
        nom::Err::Incomplete(_) => "end of line".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_lines_pick_the_protocol() {
        assert_eq!(Protocol::detect("nboard 2"), Protocol::Nboard);
        assert_eq!(Protocol::detect("NBOARD 1"), Protocol::Nboard);
        assert_eq!(Protocol::detect("protocol_version"), Protocol::Gtp);
        assert_eq!(Protocol::detect("1 name"), Protocol::Gtp);
        assert_eq!(Protocol::detect("# a comment"), Protocol::Gtp);
        assert_eq!(Protocol::detect("boardsize 8"), Protocol::Gtp);
        assert_eq!(Protocol::detect("gogui-rules_game_id"), Protocol::Gtp);
        assert_eq!(Protocol::detect("ugi"), Protocol::Ugi);
        assert_eq!(Protocol::detect("uci"), Protocol::Ugi);
        assert_eq!(Protocol::detect("position startpos"), Protocol::Ugi);
        assert_eq!(Protocol::detect("isready"), Protocol::Ugi);
        assert_eq!(Protocol::detect("garbage"), Protocol::Ugi);
        assert_eq!(Protocol::detect("42"), Protocol::Ugi);
        for p in [Protocol::Ugi, Protocol::Nboard, Protocol::Gtp] {
            assert_eq!(p.to_string().parse::<Protocol>(), Ok(p));
        }
    }
}
