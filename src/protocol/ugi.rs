//! Magpie's own protocol: UCI-shaped, compatible with UGI clients such as the cutegames match
//! runner, and natural for a person typing. The contract is written in `protocol.md`.
//!
//! The parser turns a line into a [`Command`]; [`Reply`] formats each kind of answer; [`Ugi`] is the
//! front end that keeps the game and drives the search through the engine loop.

use super::{end_of_args, first_word, keyword, offending, split_command, word};
use crate::board::{BoardSize, Color, Game, Move, Position};
use crate::engine::search_thread::Report;
use crate::engine::settings::{MAX_LEVEL, MovePlan};
use crate::engine::{Context, Flow, Frontend};
use crate::eval::EvalKind;
use crate::formats::{ascii_board, parse_moves, parse_position, spaced_moves};
use crate::search::{Clock, Limits, SearchInfo, SearchResult};
use nom::Parser;
use nom::branch::alt;
use nom::character::complete::{space0, space1, u64 as number};
use nom::combinator::{eof, map, recognize, value};
use nom::multi::{many_till, many0};
use nom::sequence::{pair, preceded};
use std::fmt;
use std::time::{Duration, Instant};

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
        "setoption" => parse_setoption(args),
        "position" => parse_position_command(args),
        "go" => parse_go(args).map(Command::Go),
        "query" => parse_query(args),
        "perft" => parse_perft(args),
        _ => Err(format!("unknown command '{name}'")),
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
        .map_err(|e| format!("position: unexpected '{}' (expected startpos or fen)", offending(&e)))?;
    let start = match fen {
        None => None,
        Some(words) => Some(parse_position(&words.join(" ")).map_err(|e| format!("position fen: {e}"))?),
    };
    let moves = if has_moves { parse_moves(rest).map_err(|e| format!("position: {e}"))? } else { Vec::new() };
    Ok(Command::Position { start, moves })
}

/// `go` parameters in any order.
fn parse_go(args: &str) -> Result<GoParams, String> {
    #[derive(Clone, Copy)]
    enum Key {
        MoveTime,
        Depth,
        Nodes,
        P1Time,
        P2Time,
        P1Inc,
        P2Inc,
        MovesToGo,
    }
    let key = alt((
        value(Key::MoveTime, keyword("movetime")),
        value(Key::Depth, keyword("depth")),
        value(Key::Nodes, keyword("nodes")),
        value(Key::P1Time, alt((keyword("p1time"), keyword("btime")))),
        value(Key::P2Time, alt((keyword("p2time"), keyword("wtime")))),
        value(Key::P1Inc, alt((keyword("p1inc"), keyword("binc")))),
        value(Key::P2Inc, alt((keyword("p2inc"), keyword("winc")))),
        value(Key::MovesToGo, keyword("movestogo")),
    ));
    // Some GUIs send a negative time when a clock has run out: read it as 0.
    let amount = alt((number, map(recognize(pair(nom::character::complete::char('-'), number)), |_| 0)));
    let param =
        alt((map(pair(key, preceded(space1, amount)), |(k, n)| Some((k, n))), map(keyword("infinite"), |_| None)));
    let mut parser = many0(preceded(space0, param));
    let (rest, params) = parser.parse(args).map_err(|e| format!("go: unexpected '{}'", offending(&e)))?;
    if !rest.trim().is_empty() {
        return Err(format!("go: unexpected '{}'", first_word(rest)));
    }
    let mut go = GoParams::default();
    for param in params {
        let Some((key, n)) = param else {
            go.infinite = true;
            continue;
        };
        let slot = match key {
            Key::MoveTime => &mut go.movetime,
            Key::Depth => &mut go.depth,
            Key::Nodes => &mut go.nodes,
            Key::P1Time => &mut go.p1time,
            Key::P2Time => &mut go.p2time,
            Key::P1Inc => &mut go.p1inc,
            Key::P2Inc => &mut go.p2inc,
            Key::MovesToGo => &mut go.movestogo,
        };
        *slot = Some(n);
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
        Ok((rest, _)) => Err(format!("query: unexpected '{}'", first_word(rest))),
        Err(_) if args.is_empty() => Err("query: expected p1turn, gameover or result".to_string()),
        Err(_) => Err(format!("query: unknown query '{}' (expected p1turn, gameover or result)", first_word(args))),
    }
}

fn parse_perft(args: &str) -> Result<Command, String> {
    let result: nom::IResult<&str, u64> = preceded(space0, number).parse(args);
    match result {
        Ok((rest, n)) if rest.trim().is_empty() && n <= u64::from(MAX_PERFT) => Ok(Command::Perft(n as u32)),
        Ok((rest, _)) if !rest.trim().is_empty() => Err(format!("perft: unexpected '{}'", first_word(rest))),
        _ => Err(format!("perft: expected a depth from 0 to {MAX_PERFT}, got '{}'", first_word(args))),
    }
}

/// An answer of the protocol, formatted by its `Display`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name …` and `id author …`, the option lines, then `ugiok`/`uciok`.
    Hello {
        /// Answer `uciok` rather than `ugiok`.
        uci: bool,
    },
    /// `readyok`.
    ReadyOk,
    /// An `info` line for a search state.
    Info(SearchInfo),
    /// `info string …`.
    InfoString(String),
    /// `info string error: …`.
    Error(String),
    /// `bestmove <move>`, or `bestmove none` when the game is over.
    BestMove(Option<Move>),
    /// `response …`.
    Response(String),
}

const OPTION_LINES: [&str; 5] = [
    "option name Eval type combo default magpie var magpie var discs var iagno var sannidhanam var corner-edge",
    "option name Level type spin default 10 min 0 max 10",
    "option name MoveOverhead type spin default 10 min 0 max 5000",
    "option name BoardSize type combo default 8 var 4 var 6 var 8",
    "option name MultiPV type spin default 1 min 1 max 64",
];

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Hello { uci } => {
                writeln!(f, "id name Magpie {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(f, "id author the Magpie developers")?;
                for line in OPTION_LINES {
                    writeln!(f, "{line}")?;
                }
                f.write_str(if *uci { "uciok" } else { "ugiok" })
            }
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Info(info) => {
                write!(f, "info depth {} seldepth {}", info.depth, info.seldepth)?;
                if let Some(rank) = info.multipv {
                    write!(f, " multipv {rank}")?;
                }
                write!(f, " score cp {}", info.score)?;
                if info.exact {
                    f.write_str(" exact")?;
                }
                write!(f, " nodes {} nps {} time {}", info.nodes, info.nps(), info.time.as_millis())?;
                if !info.pv.is_empty() {
                    write!(f, " pv {}", spaced_moves(&info.pv))?;
                }
                Ok(())
            }
            Reply::InfoString(text) => write!(f, "info string {text}"),
            Reply::Error(text) => write!(f, "info string error: {text}"),
            Reply::BestMove(Some(mv)) => write!(f, "bestmove {mv}"),
            Reply::BestMove(None) => f.write_str("bestmove none"),
            Reply::Response(text) => write!(f, "response {text}"),
        }
    }
}

/// The job whose answer is owed to the client.
#[derive(Debug)]
enum Active {
    /// A search; `infinite` ones hold their answer until `stop`.
    Search {
        id: u64,
        infinite: bool,
        stop_requested: bool,
        /// The answer of an infinite search that ended before `stop`.
        held: Option<Option<Move>>,
    },
    /// An answer decided without search, held until `stop` because the `go` was infinite.
    Held(Option<Move>),
    /// A perft count.
    Perft { id: u64, depth: u32 },
}

/// The UGI front end: the game, the board size for `startpos`, and the job in progress.
pub struct Ugi {
    game: Game,
    board_size: BoardSize,
    active: Option<Active>,
}

impl Default for Ugi {
    fn default() -> Ugi {
        Ugi { game: Game::default(), board_size: BoardSize::Eight, active: None }
    }
}

impl Ugi {
    fn send(ctx: &mut Context, reply: Reply) {
        ctx.line(&reply.to_string());
    }

    fn error(ctx: &mut Context, message: impl Into<String>) {
        Ugi::send(ctx, Reply::Error(message.into()));
    }

    fn set_option(&mut self, name: &str, value: &str, ctx: &mut Context) {
        let bad = |what: &str| format!("setoption {name}: {what} '{value}'");
        match name.to_ascii_lowercase().replace(' ', "").as_str() {
            "eval" => match value.parse::<EvalKind>() {
                Ok(kind) => ctx.settings.eval = kind,
                Err(e) => Ugi::error(ctx, format!("setoption Eval: {e}")),
            },
            "level" => match value.parse::<u8>() {
                Ok(level) if level <= MAX_LEVEL => ctx.settings.level = level,
                _ => Ugi::error(ctx, bad(&format!("expected 0 to {MAX_LEVEL}, got"))),
            },
            "moveoverhead" => match value.parse::<u64>() {
                Ok(ms) if ms <= 5000 => ctx.settings.move_overhead = Duration::from_millis(ms),
                _ => Ugi::error(ctx, bad("expected 0 to 5000 ms, got")),
            },
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=64).contains(&n) => ctx.settings.multi_pv = n,
                _ => Ugi::error(ctx, bad("expected 1 to 64, got")),
            },
            "boardsize" => match value.parse::<usize>().ok().and_then(BoardSize::from_side) {
                Some(size) => self.board_size = size,
                None => Ugi::error(ctx, bad("expected 4, 6 or 8, got")),
            },
            _ => Ugi::error(ctx, format!("unknown option '{name}'")),
        }
    }

    fn set_position(&mut self, start: Option<Position>, moves: &[Move], ctx: &mut Context) {
        let mut game = Game::new(start.unwrap_or(Position::start(self.board_size)));
        match game.play_all(moves) {
            Ok(()) => self.game = game,
            Err((index, e)) => Ugi::error(ctx, format!("position: move {} ({}): {e}", index + 1, moves[index])),
        }
    }

    fn limits(&self, go: &GoParams, default_movetime: Duration) -> Limits {
        let ms = Duration::from_millis;
        let (time, inc) = match self.game.position().side_to_move() {
            Color::Black => (go.p1time, go.p1inc),
            Color::White => (go.p2time, go.p2inc),
        };
        let no_limit = *go == GoParams::default();
        Limits {
            depth: go.depth.map(|d| d.min(60) as u32),
            nodes: go.nodes,
            movetime: go.movetime.map(ms).or(no_limit.then_some(default_movetime)),
            clock: time.map(|t| Clock {
                time: ms(t),
                increment: ms(inc.unwrap_or(0)),
                moves_to_go: go.movestogo.map(|m| m.min(1000) as u32),
            }),
            infinite: go.infinite,
        }
    }

    fn go(&mut self, go: &GoParams, received: Instant, ctx: &mut Context) {
        if self.active.is_some() {
            return Ugi::error(ctx, "go: already searching (send stop first)");
        }
        let limits = self.limits(go, ctx.settings.default_movetime);
        let pos = *self.game.position();
        let rng = &mut ctx.rng;
        match ctx.settings.plan(&pos, &limits, received, rng) {
            MovePlan::Search(request) => {
                let id = ctx.start_search(request);
                self.active = Some(Active::Search { id, infinite: limits.infinite, stop_requested: false, held: None });
            }
            plan => {
                let answer = match plan {
                    MovePlan::Immediate { mv, reason } => {
                        Ugi::send(ctx, Reply::InfoString(reason.to_string()));
                        Some(mv)
                    }
                    _ => {
                        Ugi::send(ctx, Reply::InfoString("game over: no move to play".to_string()));
                        None
                    }
                };
                if limits.infinite {
                    self.active = Some(Active::Held(answer));
                } else {
                    Ugi::send(ctx, Reply::BestMove(answer));
                }
            }
        }
    }

    fn stop(&mut self, ctx: &mut Context) {
        match self.active.take() {
            Some(Active::Held(answer)) | Some(Active::Search { held: Some(answer), .. }) => {
                Ugi::send(ctx, Reply::BestMove(answer));
            }
            Some(Active::Search { id, infinite, held: None, .. }) => {
                ctx.stop_search();
                self.active = Some(Active::Search { id, infinite, stop_requested: true, held: None });
            }
            Some(perft @ Active::Perft { .. }) => {
                ctx.stop_search();
                self.active = Some(perft);
            }
            other => self.active = other,
        }
    }

    fn finish(&mut self, id: u64, result: SearchResult, ctx: &mut Context) {
        let Some(Active::Search { id: active_id, infinite, stop_requested, .. }) = self.active else {
            return;
        };
        if id != active_id {
            return;
        }
        Ugi::send(ctx, Reply::Info(result.info.clone()));
        if infinite && !stop_requested {
            // An infinite search answers only after `stop`.
            self.active = Some(Active::Search { id, infinite, stop_requested, held: Some(Some(result.best)) });
            return;
        }
        self.active = None;
        Ugi::send(ctx, Reply::BestMove(Some(result.best)));
    }

    fn query(&self, query: Query, ctx: &mut Context) {
        let pos = self.game.position();
        let answer = match query {
            Query::P1Turn => (pos.side_to_move() == Color::Black).to_string(),
            Query::GameOver => pos.is_game_over().to_string(),
            Query::Result if !pos.is_game_over() => "none".to_string(),
            Query::Result => match pos.final_score_for_black().signum() {
                1 => "p1win".to_string(),
                -1 => "p2win".to_string(),
                _ => "draw".to_string(),
            },
        };
        Ugi::send(ctx, Reply::Response(answer));
    }

    fn display(&self, ctx: &mut Context) {
        let pos = self.game.position();
        for line in ascii_board(pos).lines() {
            ctx.line(line);
        }
        ctx.line(&format!("fen {pos}"));
        let moves = if self.game.moves().is_empty() { "(none)".to_string() } else { spaced_moves(self.game.moves()) };
        ctx.line(&format!("moves played: {moves}"));
    }

    fn legal_moves(&self, ctx: &mut Context) {
        let pos = self.game.position();
        let list = if pos.is_game_over() {
            "none".to_string()
        } else if pos.must_pass() {
            "pass".to_string()
        } else {
            pos.legal_moves().iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
        };
        ctx.line(&format!("moves {list}"));
    }

    fn eval(&self, ctx: &mut Context) {
        let pos = self.game.position();
        let kind = ctx.settings.eval;
        for part in kind.parts(pos) {
            ctx.line(&format!("eval {} raw {} cp {}", part.name, part.raw, part.score));
        }
        ctx.line(&format!(
            "eval total cp {} ({} for {}, evaluation {kind})",
            kind.evaluate(pos),
            discs_text(kind.evaluate(pos)),
            pos.side_to_move().symbol()
        ));
    }
}

/// A centi-disc score as signed discs with two decimals: `+1.25`.
pub fn discs_text(cp: i32) -> String {
    let sign = if cp < 0 { '-' } else { '+' };
    format!("{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
}

impl Frontend for Ugi {
    type Command = Command;

    fn parse(line: &str) -> Option<Result<Command, String>> {
        parse(line)
    }

    fn on_command(&mut self, command: Command, received: Instant, ctx: &mut Context) -> Flow {
        match command {
            Command::Hello { uci } => Ugi::send(ctx, Reply::Hello { uci }),
            Command::IsReady => Ugi::send(ctx, Reply::ReadyOk),
            Command::SetOption { name, value } => self.set_option(&name, &value, ctx),
            Command::NewGame => {
                self.game = Game::new(Position::start(self.board_size));
                ctx.new_game();
            }
            Command::Position { start, moves } => self.set_position(start, &moves, ctx),
            Command::Go(go) => self.go(&go, received, ctx),
            Command::Stop => self.stop(ctx),
            Command::Quit => return Flow::Quit,
            Command::Query(query) => self.query(query, ctx),
            Command::Display => self.display(ctx),
            Command::Moves => self.legal_moves(ctx),
            Command::Eval => self.eval(ctx),
            Command::Perft(depth) => {
                if self.active.is_some() {
                    Ugi::error(ctx, "perft: busy searching (send stop first)");
                } else {
                    let id = ctx.start_perft(*self.game.position(), depth);
                    self.active = Some(Active::Perft { id, depth });
                }
            }
        }
        Flow::Continue
    }

    fn on_parse_error(&mut self, message: String, ctx: &mut Context) -> Flow {
        Ugi::error(ctx, message);
        Flow::Continue
    }

    fn on_report(&mut self, report: Report, ctx: &mut Context) -> Flow {
        match report {
            Report::Iteration { id, info } => {
                if matches!(self.active, Some(Active::Search { id: active, .. }) if active == id) {
                    Ugi::send(ctx, Reply::Info(info));
                }
            }
            Report::Finished { id, result } => self.finish(id, result, ctx),
            Report::Perft { id, leaves, time } => {
                if let Some(Active::Perft { id: active, depth }) = self.active
                    && active == id
                {
                    self.active = None;
                    match leaves {
                        Some(leaves) => {
                            let speed = (leaves as f64 / time.as_secs_f64().max(1e-9)) as u64;
                            ctx.line(&format!(
                                "perft {depth} leaves {leaves} time {} leaves/s {speed}",
                                time.as_millis()
                            ));
                        }
                        None => Ugi::send(ctx, Reply::InfoString(format!("perft {depth} stopped"))),
                    }
                }
            }
        }
        Flow::Continue
    }

    fn on_eof(&mut self, ctx: &mut Context) -> Flow {
        // A finite search finishes and answers; an infinite one (or a held answer) is stopped and
        // answered now.
        match self.active {
            Some(Active::Held(_)) | Some(Active::Search { infinite: true, .. }) => self.stop(ctx),
            _ => {}
        }
        Flow::Continue
    }

    fn busy(&self) -> bool {
        self.active.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let Command::Go(go) = ok("go wtime -5 btime 100") else { panic!() };
        assert_eq!((go.p2time, go.p1time), (Some(0), Some(100)));
        assert_eq!(ok("go"), Command::Go(GoParams::default()));
    }

    #[test]
    fn errors_name_the_token() {
        assert!(err("frobnicate").contains("'frobnicate'"));
        assert!(err("go movetime fast").contains("'movetime'"), "{}", err("go movetime fast"));
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
    }

    #[test]
    fn replies_format() {
        let info = SearchInfo {
            depth: 3,
            seldepth: 4,
            score: -150,
            exact: false,
            nodes: 1000,
            time: Duration::from_millis(10),
            pv: vec!["f5".parse().unwrap(), Move::Pass],
            multipv: None,
        };
        assert_eq!(
            Reply::Info(info).to_string(),
            "info depth 3 seldepth 4 score cp -150 nodes 1000 nps 100000 time 10 pv f5 pass"
        );
        assert_eq!(Reply::BestMove(Some(Move::Pass)).to_string(), "bestmove pass");
        assert_eq!(Reply::BestMove(None).to_string(), "bestmove none");
        assert!(Reply::Hello { uci: false }.to_string().ends_with("\nugiok"));
        assert_eq!(discs_text(-150), "-1.50");
        assert_eq!(discs_text(5), "+0.05");
    }
}
