//! The protocols Magpie speaks, one module each, over the same engine loop ([`crate::engine`]):
//! a nom parser from a line to a typed command, a formatter from a typed reply to a line, and the
//! [`crate::engine::Frontend`] that connects them to the engine.
//!
//! - [`ugi`]: Magpie's own UCI-shaped protocol, compatible with UGI clients (cutegames);
//! - [`nboard`]: the NBoard protocol (the NBoard GUI, the Edax and NTest world);
//! - [`gtp`]: the Go Text Protocol as Othello GUIs and match runners use it (Quarry, GoGui);
//! - [`ggs`]: the Generic Game Server's Othello service, whose client (`magpie ggs`) is a tool
//!   over the same engine rather than an engine loop on stdin.
//!
//! The protocol is recognised from the first line ([`Protocol::detect`]) or forced on the command
//! line; [`run_stdio`] makes that choice and runs the engine loop with the chosen front end.

pub mod console;
pub mod ggs;
pub mod gtp;
pub mod nboard;
pub mod ugi;

use crate::engine::{LineSource, Output, Settings, allocate_table, run};
use crate::quote::Quoted;
use crate::search::tt::AllocError;
use gtp::Gtp;
use nboard::Nboard;
use std::fmt;
use std::io::IsTerminal;
use std::str::FromStr;
use ugi::Ugi;

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
    /// The protocol a session at a terminal opening with `line` speaks: as [`Protocol::detect`],
    /// but `play` and `undo`, which are also the console's commands, are Magpie's own.
    pub fn detect_at_terminal(line: &str) -> Protocol {
        let first = first_word(line).to_ascii_lowercase();
        if ["play", "undo"].contains(&first.as_str()) { Protocol::Ugi } else { Protocol::detect(line) }
    }

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

/// Runs the engine on stdin and stdout until `quit` or the end of input, speaking `protocol`
/// (recognised from the first line that is not blank when `None`). A person at a terminal is
/// greeted on stderr and, unless a protocol was given, plays in the console ([`console`]); where
/// both streams are the terminal, lines are read with editing and history. The transposition
/// table is allocated first: if it cannot be, nothing is read and the error is returned.
pub fn run_stdio(protocol: Option<Protocol>, settings: Settings) -> Result<(), AllocError> {
    let table = allocate_table(&settings)?;
    let terminal = std::io::stdin().is_terminal();
    if terminal {
        eprintln!(
            "Magpie {}, an Othello engine. Type help for the commands: play f5, go, undo, d, quit \
             (or start with nboard, or a GTP command).",
            env!("CARGO_PKG_VERSION")
        );
    }
    let edited = (terminal && std::io::stdout().is_terminal()).then(console::terminal).flatten();
    let (mut lines, out) = edited.unwrap_or_else(|| {
        (LineSource::new(Box::new(std::io::BufReader::new(std::io::stdin()))), Output::new(Box::new(std::io::stdout())))
    });
    let first = loop {
        match lines.next_line() {
            Some(Ok(line)) if line.trim().is_empty() => continue,
            other => break other,
        }
    };
    // A first line too long to read tells nothing about the protocol, but still gets its error.
    let detected = match &first {
        Some(Ok(line)) if terminal => Protocol::detect_at_terminal(line),
        Some(Ok(line)) => Protocol::detect(line),
        _ => Protocol::Ugi,
    };
    let console = terminal && protocol.is_none() && detected == Protocol::Ugi;
    let protocol = protocol.unwrap_or(detected);
    log::info!("speaking {protocol}{}", if console { " in the console" } else { "" });
    match protocol {
        Protocol::Ugi if console => run(console::Console::default(), first, lines, out, settings, table),
        Protocol::Ugi => run(Ugi::default(), first, lines, out, settings, table),
        Protocol::Nboard => run(Nboard::default(), first, lines, out, settings, table),
        Protocol::Gtp => run(Gtp::default(), first, lines, out, settings, table),
    }
    Ok(())
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
    if rest.trim().is_empty() { Ok(()) } else { Err(format!("{command}: unexpected {}", Quoted(first_word(rest)))) }
}

/// A whole number as commands write it: decimal digits (an optional `+`) that fit in 64 bits.
/// `what` names the kind of number in the error, which quotes the value:
/// `'-5' is not a number of milliseconds`.
pub(crate) fn whole_number(text: &str, what: &str) -> Result<u64, String> {
    text.parse::<u64>().map_err(|_| format!("{} is not {what}", Quoted(text)))
}

/// A clock reading in whole units: a [`whole_number`], or a negative whole number (a clock that has
/// run out, as some clients report it), read as 0.
pub(crate) fn clock_reading(text: &str, what: &str) -> Result<u64, String> {
    match text.strip_prefix('-') {
        Some(digits) if digits.bytes().all(|b| b.is_ascii_digit()) && digits.parse::<u64>().is_ok() => Ok(0),
        _ => whole_number(text, what),
    }
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
    fn numbers_are_whole_and_errors_quote_them() {
        assert_eq!(whole_number("250", "a number of milliseconds"), Ok(250));
        assert_eq!(whole_number("+7", "a depth"), Ok(7));
        assert_eq!(whole_number("18446744073709551615", "a depth"), Ok(u64::MAX));
        assert_eq!(whole_number("-5", "a number of milliseconds"), Err("'-5' is not a number of milliseconds".into()));
        assert_eq!(whole_number("1.5", "a depth"), Err("'1.5' is not a depth".into()));
        assert_eq!(
            whole_number("99999999999999999999999", "a depth"),
            Err("'99999999999999999999999' is not a depth".into())
        );
        assert_eq!(clock_reading("-5", "a time"), Ok(0));
        assert_eq!(clock_reading("300", "a time"), Ok(300));
        assert_eq!(clock_reading("-x", "a time"), Err("'-x' is not a time".into()));
        assert_eq!(clock_reading("--5", "a time"), Err("'--5' is not a time".into()));
    }

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
        assert_eq!(Protocol::detect(""), Protocol::Ugi);
        for p in [Protocol::Ugi, Protocol::Nboard, Protocol::Gtp] {
            assert_eq!(p.to_string().parse::<Protocol>(), Ok(p));
        }
    }
}
