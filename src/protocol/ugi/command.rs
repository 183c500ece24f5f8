//! The commands of Magpie's UGI protocol and their nom parser: one line to one typed
//! [`Command`], or an error naming the offending value.

use crate::board::{Move, Position};
use crate::formats::{parse_moves, parse_position};
use crate::protocol::{clock_reading, end_of_args, first_word, keyword, offending, split_command, whole_number, word};
use crate::quote::Quoted;
use nom::Parser;
use nom::branch::alt;
use nom::character::complete::{space0, space1, u64 as number};
use nom::combinator::{consumed, eof, map, opt, value};
use nom::multi::{many_till, many0};
use nom::sequence::{pair, preceded};

/// A command of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ugi` or `uci`: identify and list the options.
    Hello {
        /// Whether the client said `uci` (answered with `uciok`).
        uci: bool,
    },
    /// `isready`.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name as given.
        name: String,
        /// The value, empty if none.
        value: String,
    },
    /// `uginewgame` / `ucinewgame`.
    NewGame,
    /// `position startpos|fen … [moves …]`.
    Position {
        /// The start: `None` for `startpos` (the board size option decides its size).
        start: Option<Position>,
        /// The moves after it.
        moves: Vec<Move>,
    },
    /// `go …`.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// `query p1turn|gameover|result`.
    Query(Query),
    /// `d`: show the board.
    Display,
    /// `moves`: list the legal moves.
    Moves,
    /// `eval`: the static evaluation and its parts.
    Eval,
    /// `perft <depth>`.
    Perft(u32),
    /// `help`: the commands, one line each.
    Help,
    /// A command of the console, the protocol as a person at a terminal types it
    /// ([`crate::protocol::console`]); never parsed from a pipe.
    Console(ConsoleCommand),
}

/// The console's own commands, for a person playing a game at the terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConsoleCommand {
    /// `play <moves>`: play these moves on the board (`play f5`, `play f5d6c3`).
    Play(Vec<Move>),
    /// `undo [n]`: take back the last n moves (1 by default).
    Undo(u32),
    /// `redo [n]`: play again the last n moves taken back.
    Redo(u32),
    /// `new`: a new game from the start position.
    New,
}

/// The parameters of `go`, in milliseconds where they are times.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `movetime`.
    pub movetime: Option<u64>,
    /// `depth`.
    pub depth: Option<u64>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// Black's clock (`p1time`, or UCI `btime`).
    pub p1time: Option<u64>,
    /// White's clock (`p2time`, or UCI `wtime`).
    pub p2time: Option<u64>,
    /// Black's increment (`p1inc` / `binc`).
    pub p1inc: Option<u64>,
    /// White's increment (`p2inc` / `winc`).
    pub p2inc: Option<u64>,
    /// `movestogo`.
    pub movestogo: Option<u64>,
    /// `infinite`.
    pub infinite: bool,
    /// `wld`: once the search reaches the end of the game, solve for win, draw or loss only.
    pub wld: bool,
}

/// What `query` asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// Is it the first player's (Black's) turn?
    P1Turn,
    /// Is the game over?
    GameOver,
    /// Who won?
    Result,
}

/// The deepest `perft` the protocol runs (`stop` ends a count that takes too long).
pub const MAX_PERFT: u32 = 20;

/// Parses one line. Blank lines are ignored.
pub fn parse(line: &str) -> Option<Result<Command, String>> {
    let (name, args) = split_command(line)?;
    Some(parse_command(name, args))
}

fn parse_command(name: &str, args: &str) -> Result<Command, String> {
    let lower = name.to_ascii_lowercase();
    let simple = |command: Command| end_of_args(args, &lower).map(|()| command);
    match lower.as_str() {
        "ugi" => simple(Command::Hello { uci: false }),
        "uci" => simple(Command::Hello { uci: true }),
        "isready" => simple(Command::IsReady),
        "uginewgame" | "ucinewgame" => simple(Command::NewGame),
        "stop" => simple(Command::Stop),
        "quit" => simple(Command::Quit),
        "d" => simple(Command::Display),
        "moves" => simple(Command::Moves),
        "eval" => simple(Command::Eval),
        "help" => simple(Command::Help),
        "setoption" => parse_setoption(args),
        "position" => parse_position_command(args),
        "go" => parse_go(args).map(Command::Go),
        "query" => parse_query(args),
        "perft" => parse_perft(args),
        _ => Err(format!("unknown command {} (help lists the commands)", Quoted(name))),
    }
}

/// `name <words> [value <words>]`.
fn parse_setoption(args: &str) -> Result<Command, String> {
    let mut parser = preceded(
        keyword("name"),
        many_till(
            word,
            alt((map(preceded(space1, keyword("value")), |_| true), map(preceded(space0, eof), |_| false))),
        ),
    );
    let (rest, (name_words, has_value)) =
        parser.parse(args).map_err(|_| "setoption: expected 'name <option> [value <value>]'".to_string())?;
    if name_words.is_empty() {
        return Err("setoption: missing the option name".to_string());
    }
    let value = if has_value { rest.trim().to_string() } else { String::new() };
    Ok(Command::SetOption { name: name_words.join(" "), value })
}

/// `startpos [moves …]` or `fen <position text> [moves …]`.
fn parse_position_command(args: &str) -> Result<Command, String> {
    let until_moves =
        || alt((map(preceded(space1, keyword("moves")), |_| true), map(preceded(space0, eof), |_| false)));
    let mut parser = alt((
        map(pair(keyword("startpos"), until_moves()), |(_, more)| (None, more)),
        map(preceded(keyword("fen"), many_till(word, until_moves())), |(words, more)| (Some(words), more)),
    ));
    let (rest, (fen, has_moves)) = parser
        .parse(args)
        .map_err(|e| format!("position: unexpected {} (expected startpos or fen)", Quoted(&offending(&e))))?;
    let start = match fen {
        None => None,
        Some(words) => Some(parse_position(&words.join(" ")).map_err(|e| format!("position fen: {e}"))?),
    };
    let moves = if has_moves { parse_moves(rest).map_err(|e| format!("position: {e}"))? } else { Vec::new() };
    Ok(Command::Position { start, moves })
}

/// A `go` parameter that takes a number.
#[derive(Clone, Copy, Debug)]
enum GoKey {
    MoveTime,
    Depth,
    Nodes,
    P1Time,
    P2Time,
    P1Inc,
    P2Inc,
    MovesToGo,
}

impl GoKey {
    /// What its number is, as errors name it.
    fn what(self) -> &'static str {
        match self {
            GoKey::MoveTime | GoKey::P1Time | GoKey::P2Time | GoKey::P1Inc | GoKey::P2Inc => "a number of milliseconds",
            GoKey::Depth => "a depth in plies",
            GoKey::Nodes => "a number of nodes",
            GoKey::MovesToGo => "a number of moves",
        }
    }

    /// Whether the number is a clock reading, which a client may send negative once the clock has
    /// run out (read as 0). Every other negative number is an error.
    fn is_clock_reading(self) -> bool {
        matches!(self, GoKey::P1Time | GoKey::P2Time)
    }
}

/// `go` parameters in any order. Each number is checked on its own, so an error names the value
/// and the parameter it was given to.
fn parse_go(args: &str) -> Result<GoParams, String> {
    enum Param<'a> {
        Number(&'a str, GoKey, Option<&'a str>),
        Infinite,
        Wld,
    }
    let key = alt((
        value(GoKey::MoveTime, keyword("movetime")),
        value(GoKey::Depth, keyword("depth")),
        value(GoKey::Nodes, keyword("nodes")),
        value(GoKey::P1Time, alt((keyword("p1time"), keyword("btime")))),
        value(GoKey::P2Time, alt((keyword("p2time"), keyword("wtime")))),
        value(GoKey::P1Inc, alt((keyword("p1inc"), keyword("binc")))),
        value(GoKey::P2Inc, alt((keyword("p2inc"), keyword("winc")))),
        value(GoKey::MovesToGo, keyword("movestogo")),
    ));
    let param = alt((
        map((consumed(key), opt(preceded(space1, word))), |((name, key), text)| Param::Number(name, key, text)),
        map(keyword("infinite"), |_| Param::Infinite),
        map(keyword("wld"), |_| Param::Wld),
    ));
    let mut parser = many0(preceded(space0, param));
    let (rest, params) = parser.parse(args).map_err(|e| format!("go: unexpected {}", Quoted(&offending(&e))))?;
    let mut go = GoParams::default();
    for param in params {
        let (name, key, text) = match param {
            Param::Number(name, key, text) => (name, key, text),
            Param::Infinite => {
                go.infinite = true;
                continue;
            }
            Param::Wld => {
                go.wld = true;
                continue;
            }
        };
        let name = name.to_ascii_lowercase();
        let text = text.ok_or_else(|| format!("go: {name}: missing {}", key.what()))?;
        let n = if key.is_clock_reading() { clock_reading(text, key.what()) } else { whole_number(text, key.what()) }
            .map_err(|e| format!("go: {name}: {e}"))?;
        let slot = match key {
            GoKey::MoveTime => &mut go.movetime,
            GoKey::Depth => &mut go.depth,
            GoKey::Nodes => &mut go.nodes,
            GoKey::P1Time => &mut go.p1time,
            GoKey::P2Time => &mut go.p2time,
            GoKey::P1Inc => &mut go.p1inc,
            GoKey::P2Inc => &mut go.p2inc,
            GoKey::MovesToGo => &mut go.movestogo,
        };
        *slot = Some(n);
    }
    if !rest.trim().is_empty() {
        return Err(format!("go: unexpected {}", Quoted(first_word(rest))));
    }
    Ok(go)
}

fn parse_query(args: &str) -> Result<Command, String> {
    let mut parser = alt((
        value(Query::P1Turn, keyword("p1turn")),
        value(Query::GameOver, keyword("gameover")),
        value(Query::Result, keyword("result")),
    ));
    match parser.parse(args) {
        Ok((rest, q)) if rest.trim().is_empty() => Ok(Command::Query(q)),
        Ok((rest, _)) => Err(format!("query: unexpected {}", Quoted(first_word(rest)))),
        Err(_) if args.is_empty() => Err("query: expected p1turn, gameover or result".to_string()),
        Err(_) => {
            Err(format!("query: unknown query {} (expected p1turn, gameover or result)", Quoted(first_word(args))))
        }
    }
}

fn parse_perft(args: &str) -> Result<Command, String> {
    let result: nom::IResult<&str, u64> = preceded(space0, number).parse(args);
    match result {
        Ok((rest, n)) if rest.trim().is_empty() && n <= u64::from(MAX_PERFT) => Ok(Command::Perft(n as u32)),
        Ok((rest, _)) if !rest.trim().is_empty() => Err(format!("perft: unexpected {}", Quoted(first_word(rest)))),
        _ if args.is_empty() => Err(format!("perft: missing a depth (0 to {MAX_PERFT})")),
        _ => Err(format!("perft: {} is not a depth (0 to {MAX_PERFT})", Quoted(first_word(args)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::spaced_moves;

    fn ok(line: &str) -> Command {
        parse(line).unwrap_or_else(|| panic!("{line} ignored")).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    fn err(line: &str) -> String {
        parse(line).unwrap_or_else(|| panic!("{line} ignored")).unwrap_err()
    }

    #[test]
    fn simple_commands() {
        assert_eq!(ok("ugi"), Command::Hello { uci: false });
        assert_eq!(ok("  UCI "), Command::Hello { uci: true });
        assert_eq!(ok("isready"), Command::IsReady);
        assert_eq!(ok("uginewgame"), Command::NewGame);
        assert_eq!(ok("stop"), Command::Stop);
        assert_eq!(ok("quit"), Command::Quit);
        assert_eq!(ok("query p1turn"), Command::Query(Query::P1Turn));
        assert_eq!(ok("query gameover"), Command::Query(Query::GameOver));
        assert_eq!(ok("query result"), Command::Query(Query::Result));
        assert_eq!(ok("perft 5"), Command::Perft(5));
        assert!(parse("   ").is_none());
    }

    #[test]
    fn positions() {
        assert_eq!(ok("position startpos"), Command::Position { start: None, moves: vec![] });
        let Command::Position { start: None, moves } = ok("position startpos moves F5 d6 pass c3") else { panic!() };
        assert_eq!(spaced_moves(&moves), "f5 d6 pass c3");
        let fen = "---------------------------OX------XO--------------------------- X";
        let Command::Position { start: Some(pos), moves } = ok(&format!("position fen {fen} moves f5d6")) else {
            panic!()
        };
        assert_eq!(pos, Position::initial());
        assert_eq!(moves.len(), 2);
        // GGS rows written apart are one position.
        let rows = "-------- -------- -------- ---OX--- ---XO--- -------- -------- -------- X";
        assert!(matches!(ok(&format!("position fen {rows}")), Command::Position { start: Some(_), .. }));
    }

    #[test]
    fn go_parameters() {
        let Command::Go(go) = ok("go p1time 1000 p2time 2000 p1inc 10 p2inc 20") else { panic!() };
        assert_eq!((go.p1time, go.p2time, go.p1inc, go.p2inc), (Some(1000), Some(2000), Some(10), Some(20)));
        let Command::Go(go) = ok("go movetime 500 depth 4 nodes 1000") else { panic!() };
        assert_eq!((go.movetime, go.depth, go.nodes), (Some(500), Some(4), Some(1000)));
        let Command::Go(go) = ok("go infinite") else { panic!() };
        assert!(go.infinite);
        let Command::Go(go) = ok("go WLD movetime 100") else { panic!() };
        assert!(go.wld && !go.infinite);
        assert_eq!(go.movetime, Some(100));
        let Command::Go(go) = ok("go depth 3 wld") else { panic!() };
        assert_eq!((go.depth, go.wld), (Some(3), true));
        // A clock that has run out may be sent negative: read as 0.
        let Command::Go(go) = ok("go wtime -5 btime 100") else { panic!() };
        assert_eq!((go.p2time, go.p1time), (Some(0), Some(100)));
        let Command::Go(go) = ok("go depth 0 movetime 18446744073709551615") else { panic!() };
        assert_eq!((go.depth, go.movetime), (Some(0), Some(u64::MAX)));
        assert_eq!(ok("go"), Command::Go(GoParams::default()));
    }

    #[test]
    fn errors_name_the_token() {
        assert!(err("frobnicate").contains("'frobnicate'"));
        assert_eq!(err("go movetime fast"), "go: movetime: 'fast' is not a number of milliseconds");
        assert_eq!(err("go movetime -5"), "go: movetime: '-5' is not a number of milliseconds");
        assert_eq!(err("go depth -3"), "go: depth: '-3' is not a depth in plies");
        assert_eq!(err("go movetime"), "go: movetime: missing a number of milliseconds");
        assert_eq!(
            err("go movetime 99999999999999999999999"),
            "go: movetime: '99999999999999999999999' is not a number of milliseconds"
        );
        assert_eq!(err("go BINC -1"), "go: binc: '-1' is not a number of milliseconds");
        assert_eq!(err("go nodes 1e6"), "go: nodes: '1e6' is not a number of nodes");
        assert_eq!(err("go movestogo depth 3"), "go: movestogo: 'depth' is not a number of moves");
        assert_eq!(err("go infinite 5"), "go: unexpected '5'");
        assert_eq!(err("go wld 5"), "go: unexpected '5'");
        assert_eq!(err("go wldx"), "go: unexpected 'wldx'");
        assert_eq!(err(&format!("go {}", "x".repeat(500_000))), format!("go: unexpected '{}…'", "x".repeat(80)));
        assert!(err("go sideways 5").contains("'sideways'"));
        assert!(err("position startpos moves f5 z9").contains("z9"));
        assert!(err("position fen XXXX X").contains("position fen"));
        assert!(err("position sideways").contains("'sideways'"));
        assert!(err("query p3turn").contains("'p3turn'"));
        assert!(err("isready now").contains("'now'"));
        assert!(err("perft 99").contains("99"));
        assert!(err("perft x").contains("'x'"));
        assert!(err("setoption value 3").contains("setoption"));
        assert!(err("goo").contains("'goo'"));
    }

    #[test]
    fn setoption_names_and_values() {
        assert_eq!(
            ok("setoption name Eval value iagno"),
            Command::SetOption { name: "Eval".into(), value: "iagno".into() }
        );
        assert_eq!(
            ok("setoption name Move Overhead value 30"),
            Command::SetOption { name: "Move Overhead".into(), value: "30".into() }
        );
        assert_eq!(ok("setoption name Clear"), Command::SetOption { name: "Clear".into(), value: String::new() });
        assert_eq!(
            ok("setoption name Hash value 128"),
            Command::SetOption { name: "Hash".into(), value: "128".into() }
        );
        assert_eq!(
            ok("setoption name threads value 2"),
            Command::SetOption { name: "threads".into(), value: "2".into() }
        );
    }
}
