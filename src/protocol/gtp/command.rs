//! The commands of GTP as Othello clients send them, and their nom parser: one line to one typed
//! [`Command`] (its optional id and a [`Kind`]); a line that is not a valid command is a
//! [`Kind::Invalid`] command, so that its answer carries the line's id.

use crate::board::{BoardSize, Color, Move};
use crate::protocol::{end_of_args, first_word, keyword, word};
use crate::quote::Quoted;
use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::character::complete::{space1, u32 as number};
use nom::combinator::{eof, map_res, opt, peek, value};
use nom::sequence::terminated;
use std::time::Duration;

/// Every command Magpie knows, in the order `list_commands` gives them.
pub const COMMANDS: [&str; 25] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "list_games",
    "set_game",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_side_to_move",
    "gogui-rules_legal_moves",
    "gogui-rules_final_result",
];

/// Seconds above this are read as this (about eleven days): a clock that large means "no hurry",
/// and deadlines must stay representable.
pub const MAX_SECONDS: f64 = 1_000_000.0;

/// One command: the client's optional id and what it asks.
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    /// The numeric id the line began with, repeated in the answer.
    pub id: Option<u32>,
    /// What the command asks.
    pub kind: Kind,
}

/// What a command asks.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// `protocol_version`.
    ProtocolVersion,
    /// `name`.
    Name,
    /// `version`.
    Version,
    /// `known_command <name>`.
    KnownCommand(String),
    /// `list_commands`.
    ListCommands,
    /// `quit`.
    Quit,
    /// `boardsize <n>` with n = 4, 6 or 8.
    BoardSize(BoardSize),
    /// `clear_board`.
    ClearBoard,
    /// `komi <float>`.
    Komi(f64),
    /// `play <colour> <move>`.
    Play(Color, Move),
    /// `genmove <colour>`: generate a move and play it.
    GenMove(Color),
    /// `reg_genmove <colour>`: generate a move without playing it.
    RegGenMove(Color),
    /// `undo`.
    Undo,
    /// `showboard`.
    ShowBoard,
    /// `final_score`.
    FinalScore,
    /// `time_settings <main> <byo_yomi_time> <byo_yomi_stones>`.
    TimeSettings(TimeSettings),
    /// `time_left <colour> <seconds> <stones>`.
    TimeLeft {
        /// Whose clock.
        color: Color,
        /// Time left in the current period (main time or byo-yomi).
        time: Duration,
        /// Stones left in the byo-yomi period; 0 while in main time.
        stones: u32,
    },
    /// `list_games`.
    ListGames,
    /// `set_game Othello` (or `Reversi`).
    SetGame,
    /// `gogui-rules_game_id`.
    RulesGameId,
    /// `gogui-rules_board_size`.
    RulesBoardSize,
    /// `gogui-rules_board`.
    RulesBoard,
    /// `gogui-rules_side_to_move`.
    RulesSideToMove,
    /// `gogui-rules_legal_moves`.
    RulesLegalMoves,
    /// `gogui-rules_final_result`.
    RulesFinalResult,
    /// A line that is not a valid command, with the message of its answer.
    Invalid(String),
}

/// The time control of `time_settings`: Canadian byo-yomi (main time, then `stones` moves in every
/// `byo_yomi` period), absolute time (no byo-yomi), or no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeSettings {
    /// Main time.
    pub main: Duration,
    /// Length of a byo-yomi period.
    pub byo_yomi: Duration,
    /// Moves to play in each byo-yomi period.
    pub stones: u32,
}

/// Parses one line. `None` for a line to ignore: empty once control characters and the comment
/// are removed. A line that is not a valid command is a [`Kind::Invalid`] command, so that its
/// answer carries the line's id.
pub fn parse(line: &str) -> Option<Command> {
    let line = clean(line);
    if line.is_empty() {
        return None;
    }
    let (rest, id) = command_id(&line).unwrap_or((&line, None));
    let kind = match word(rest) {
        Ok((args, name)) => parse_kind(name, args).unwrap_or_else(Kind::Invalid),
        Err(_) => Kind::Invalid("missing command".to_string()),
    };
    Some(Command { id, kind })
}

/// The line as GTP reads it: control characters other than HT and LF removed, blanks made spaces
/// (so that any blank separates words), everything from `#` on dropped, and trimmed.
fn clean(line: &str) -> String {
    let kept: String = line
        .chars()
        .filter_map(|c| {
            if c.is_whitespace() {
                Some(' ')
            } else if c.is_control() {
                None
            } else {
                Some(c)
            }
        })
        .collect();
    kept.split('#').next().unwrap_or("").trim().to_string()
}

/// An id: digits followed by a blank or the end of the line.
fn command_id(input: &str) -> IResult<&str, Option<u32>> {
    opt(terminated(number, peek(alt((space1, eof))))).parse(input)
}

/// One argument of `command`, described as `what` in the error when it is missing or malformed.
fn arg<'a, T>(
    input: &'a str,
    command: &str,
    what: &str,
    mut parser: impl Parser<&'a str, Output = T, Error = nom::error::Error<&'a str>>,
) -> Result<(&'a str, T), String> {
    let input = input.trim_start();
    if input.is_empty() {
        return Err(format!("{command}: missing {what}"));
    }
    // Each argument is one word, so the word the parser stopped at is the offending one.
    parser.parse(input).map_err(|_| format!("{command}: {} is not {what}", Quoted(first_word(input))))
}

fn colour(input: &str) -> IResult<&str, Color> {
    alt((
        value(Color::Black, alt((keyword("black"), keyword("b")))),
        value(Color::White, alt((keyword("white"), keyword("w")))),
    ))
    .parse(input)
}

fn game_move(input: &str) -> IResult<&str, Move> {
    map_res(word, str::parse::<Move>).parse(input)
}

/// A whole word that is a number (integer or decimal).
fn float(input: &str) -> IResult<&str, f64> {
    map_res(word, |w: &str| w.parse::<f64>().map_err(|_| ()).and_then(|x| if x.is_finite() { Ok(x) } else { Err(()) }))
        .parse(input)
}

fn count(input: &str) -> IResult<&str, u32> {
    terminated(number, peek(alt((space1, eof)))).parse(input)
}

/// Seconds as a duration, negative ones (a clock that ran out) read as 0.
fn seconds(x: f64) -> Duration {
    Duration::from_secs_f64(x.clamp(0.0, MAX_SECONDS))
}

const COLOUR: &str = "a colour (black or white)";
const SECONDS: &str = "a number of seconds";
const STONES: &str = "a number of stones";

fn parse_kind(name: &str, args: &str) -> Result<Kind, String> {
    let command = name.to_ascii_lowercase();
    let c = command.as_str();
    let simple = |kind: Kind| end_of_args(args, c).map(|()| kind);
    match c {
        "protocol_version" => simple(Kind::ProtocolVersion),
        "name" => simple(Kind::Name),
        "version" => simple(Kind::Version),
        "list_commands" => simple(Kind::ListCommands),
        "quit" => simple(Kind::Quit),
        "clear_board" => simple(Kind::ClearBoard),
        "undo" => simple(Kind::Undo),
        "showboard" => simple(Kind::ShowBoard),
        "final_score" => simple(Kind::FinalScore),
        "list_games" => simple(Kind::ListGames),
        "gogui-rules_game_id" => simple(Kind::RulesGameId),
        "gogui-rules_board_size" => simple(Kind::RulesBoardSize),
        "gogui-rules_board" => simple(Kind::RulesBoard),
        "gogui-rules_side_to_move" => simple(Kind::RulesSideToMove),
        "gogui-rules_legal_moves" => simple(Kind::RulesLegalMoves),
        "gogui-rules_final_result" => simple(Kind::RulesFinalResult),
        "known_command" => {
            let (rest, name) = arg(args, c, "a command name", word)?;
            end_of_args(rest, c)?;
            Ok(Kind::KnownCommand(name.to_string()))
        }
        "boardsize" => {
            let (rest, n) = arg(args, c, "a board size (4, 6 or 8)", count)?;
            end_of_args(rest, c)?;
            // The message is GTP's standard one, which clients show as is.
            usize::try_from(n)
                .ok()
                .and_then(BoardSize::from_side)
                .map(Kind::BoardSize)
                .ok_or_else(|| "unacceptable size".to_string())
        }
        "komi" => {
            let (rest, komi) = arg(args, c, "a number", float)?;
            end_of_args(rest, c)?;
            Ok(Kind::Komi(komi))
        }
        "play" => {
            let (rest, color) = arg(args, c, COLOUR, colour)?;
            let (rest, mv) = arg(rest, c, "a move (a1..h8 or pass)", game_move)?;
            end_of_args(rest, c)?;
            Ok(Kind::Play(color, mv))
        }
        "genmove" | "reg_genmove" => {
            let (rest, color) = arg(args, c, COLOUR, colour)?;
            end_of_args(rest, c)?;
            Ok(if c == "genmove" { Kind::GenMove(color) } else { Kind::RegGenMove(color) })
        }
        "time_settings" => {
            let (rest, main) = arg(args, c, SECONDS, float)?;
            let (rest, byo_yomi) = arg(rest, c, SECONDS, float)?;
            let (rest, stones) = arg(rest, c, STONES, count)?;
            end_of_args(rest, c)?;
            if main < 0.0 || byo_yomi < 0.0 {
                let negative = if main < 0.0 { main } else { byo_yomi };
                return Err(format!("time_settings: '{negative}' is not a number of seconds"));
            }
            Ok(Kind::TimeSettings(TimeSettings { main: seconds(main), byo_yomi: seconds(byo_yomi), stones }))
        }
        "time_left" => {
            let (rest, color) = arg(args, c, COLOUR, colour)?;
            let (rest, time) = arg(rest, c, SECONDS, float)?;
            let (rest, stones) = arg(rest, c, STONES, count)?;
            end_of_args(rest, c)?;
            Ok(Kind::TimeLeft { color, time: seconds(time), stones })
        }
        "set_game" => {
            let (rest, game) = arg(args, c, "a game name", word)?;
            end_of_args(rest, c)?;
            if game.eq_ignore_ascii_case("othello") || game.eq_ignore_ascii_case("reversi") {
                Ok(Kind::SetGame)
            } else {
                Err("unsupported game".to_string())
            }
        }
        _ => Err("unknown command".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(line: &str) -> Kind {
        parse(line).unwrap_or_else(|| panic!("{line:?} ignored")).kind
    }

    fn err(line: &str) -> String {
        match kind(line) {
            Kind::Invalid(message) => message,
            other => panic!("{line:?} parsed as {other:?}"),
        }
    }

    fn sq(name: &str) -> Move {
        name.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn ids_come_first_and_are_kept_on_errors() {
        assert_eq!(parse("1 name"), Some(Command { id: Some(1), kind: Kind::Name }));
        assert_eq!(parse("  42   protocol_version  "), Some(Command { id: Some(42), kind: Kind::ProtocolVersion }));
        assert_eq!(parse("0 quit"), Some(Command { id: Some(0), kind: Kind::Quit }));
        assert_eq!(parse("name"), Some(Command { id: None, kind: Kind::Name }));
        assert_eq!(parse("7 frobnicate"), Some(Command { id: Some(7), kind: Kind::Invalid("unknown command".into()) }));
        assert_eq!(parse("7"), Some(Command { id: Some(7), kind: Kind::Invalid("missing command".into()) }));
        assert_eq!(parse("3 play b z9").map(|c| c.id), Some(Some(3)));
        // Digits glued to a word are not an id; an id too large is not one either.
        assert_eq!(parse("12name"), Some(Command { id: None, kind: Kind::Invalid("unknown command".into()) }));
        assert_eq!(parse("99999999999 name").map(|c| c.id), Some(None));
    }

    #[test]
    fn comments_blanks_and_control_characters() {
        assert_eq!(parse(""), None);
        assert_eq!(parse("   "), None);
        assert_eq!(parse("# a comment"), None);
        assert_eq!(parse("  \t # indented comment"), None);
        assert_eq!(kind("name # who are you"), Kind::Name);
        assert_eq!(kind("play\tblack\tf5"), Kind::Play(Color::Black, sq("f5")));
        assert_eq!(kind("na\u{1}me\r"), Kind::Name);
        assert_eq!(kind("\u{7f}list_games\u{0}"), Kind::ListGames);
        assert_eq!(parse("\u{1}\u{2}"), None);
        assert_eq!(
            parse("5 # only an id"),
            Some(Command { id: Some(5), kind: Kind::Invalid("missing command".into()) })
        );
    }

    #[test]
    fn commands_and_their_arguments() {
        assert_eq!(kind("PROTOCOL_VERSION"), Kind::ProtocolVersion);
        assert_eq!(kind("known_command genmove"), Kind::KnownCommand("genmove".into()));
        assert_eq!(kind("boardsize 6"), Kind::BoardSize(BoardSize::Six));
        assert_eq!(kind("komi 6.5"), Kind::Komi(6.5));
        assert_eq!(kind("komi -3"), Kind::Komi(-3.0));
        assert_eq!(kind("play B F5"), Kind::Play(Color::Black, sq("f5")));
        assert_eq!(kind("play white PASS"), Kind::Play(Color::White, Move::Pass));
        assert_eq!(kind("play W d6"), Kind::Play(Color::White, sq("d6")));
        assert_eq!(kind("genmove w"), Kind::GenMove(Color::White));
        assert_eq!(kind("genmove BLACK"), Kind::GenMove(Color::Black));
        assert_eq!(kind("reg_genmove b"), Kind::RegGenMove(Color::Black));
        assert_eq!(
            kind("time_settings 300 10.5 5"),
            Kind::TimeSettings(TimeSettings {
                main: Duration::from_secs(300),
                byo_yomi: Duration::from_millis(10_500),
                stones: 5
            })
        );
        assert_eq!(
            kind("time_left white 12.25 0"),
            Kind::TimeLeft { color: Color::White, time: Duration::from_millis(12_250), stones: 0 }
        );
        // A clock that ran out may be reported negative.
        assert_eq!(kind("time_left b -1 0"), Kind::TimeLeft { color: Color::Black, time: Duration::ZERO, stones: 0 });
        assert_eq!(
            kind("time_left b 1e300 0"),
            Kind::TimeLeft { color: Color::Black, time: Duration::from_secs_f64(MAX_SECONDS), stones: 0 }
        );
        assert_eq!(kind("set_game Othello"), Kind::SetGame);
        assert_eq!(kind("set_game reversi"), Kind::SetGame);
        assert_eq!(kind("gogui-rules_legal_moves"), Kind::RulesLegalMoves);
        for name in COMMANDS {
            assert!(!matches!(kind(name), Kind::Invalid(ref m) if m == "unknown command"), "{name}");
        }
    }

    #[test]
    fn argument_errors_name_the_offending_word() {
        assert_eq!(err("frobnicate"), "unknown command");
        assert_eq!(err("name please"), "name: unexpected 'please'");
        assert_eq!(err("protocol_version 2"), "protocol_version: unexpected '2'");
        assert_eq!(err("quit now"), "quit: unexpected 'now'");
        assert_eq!(err("known_command"), "known_command: missing a command name");
        assert_eq!(err("known_command a b"), "known_command: unexpected 'b'");
        assert_eq!(err("boardsize 10"), "unacceptable size");
        assert_eq!(err("boardsize 0"), "unacceptable size");
        assert_eq!(err("boardsize eight"), "boardsize: 'eight' is not a board size (4, 6 or 8)");
        assert_eq!(err("boardsize 8x"), "boardsize: '8x' is not a board size (4, 6 or 8)");
        assert_eq!(err("boardsize"), "boardsize: missing a board size (4, 6 or 8)");
        assert_eq!(err("komi"), "komi: missing a number");
        assert_eq!(err("komi six"), "komi: 'six' is not a number");
        assert_eq!(err("komi nan"), "komi: 'nan' is not a number");
        assert_eq!(err("play"), "play: missing a colour (black or white)");
        assert_eq!(err("play red f5"), "play: 'red' is not a colour (black or white)");
        assert_eq!(err("play bl f5"), "play: 'bl' is not a colour (black or white)");
        assert_eq!(err("play b"), "play: missing a move (a1..h8 or pass)");
        assert_eq!(err("play b z9"), "play: 'z9' is not a move (a1..h8 or pass)");
        assert_eq!(err("play b f55"), "play: 'f55' is not a move (a1..h8 or pass)");
        assert_eq!(err("play b f5 d6"), "play: unexpected 'd6'");
        assert_eq!(err("genmove"), "genmove: missing a colour (black or white)");
        assert_eq!(err("genmove x"), "genmove: 'x' is not a colour (black or white)");
        assert_eq!(err("genmove b now"), "genmove: unexpected 'now'");
        assert_eq!(err("reg_genmove purple"), "reg_genmove: 'purple' is not a colour (black or white)");
        assert_eq!(err("undo 2"), "undo: unexpected '2'");
        assert_eq!(err("time_settings 300"), "time_settings: missing a number of seconds");
        assert_eq!(err("time_settings 300 x 1"), "time_settings: 'x' is not a number of seconds");
        assert_eq!(err("time_settings 300 0 -1"), "time_settings: '-1' is not a number of stones");
        assert_eq!(err("time_settings -5 0 0"), "time_settings: '-5' is not a number of seconds");
        assert_eq!(err("time_settings 1 2 3 4"), "time_settings: unexpected '4'");
        assert_eq!(err("time_left"), "time_left: missing a colour (black or white)");
        assert_eq!(err("time_left b"), "time_left: missing a number of seconds");
        assert_eq!(err("time_left b 10"), "time_left: missing a number of stones");
        assert_eq!(err("time_left green 10 0"), "time_left: 'green' is not a colour (black or white)");
        assert_eq!(err("time_left b 10 many"), "time_left: 'many' is not a number of stones");
        assert_eq!(err("set_game Go"), "unsupported game");
        assert_eq!(err("set_game"), "set_game: missing a game name");
        assert_eq!(err("list_games all"), "list_games: unexpected 'all'");
        assert_eq!(err("gogui-rules_board x"), "gogui-rules_board: unexpected 'x'");
        assert_eq!(err("gogui-frobnicate"), "unknown command");
    }
}
