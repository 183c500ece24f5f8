//! Magpie's own protocol: UCI-shaped, compatible with UGI clients such as the cutegames match
//! runner, and natural for a person typing. The contract is written in `protocol.md`.
//!
//! The parser turns a line into a [`Command`]; [`Reply`] formats each kind of answer; [`Ugi`] is the
//! front end that keeps the game and drives the search through the engine loop.

use super::{clock_reading, end_of_args, first_word, keyword, offending, split_command, whole_number, word};
use crate::board::{BoardSize, Color, Game, Move, Position};
use crate::engine::search_thread::Report;
use crate::engine::settings::{MAX_LEVEL, MovePlan};
use crate::engine::{Context, Flow, Frontend, Latency};
use crate::eval::EvalKind;
use crate::formats::{ascii_board, parse_moves, parse_position, spaced_moves};
use crate::quote::{MAX_ERROR_CHARS, Quoted, clipped, one_line};
use crate::search::{Clock, Limits, SearchInfo, SearchResult};
use nom::Parser;
use nom::branch::alt;
use nom::character::complete::{space0, space1, u64 as number};
use nom::combinator::{consumed, eof, map, opt, value};
use nom::multi::{many_till, many0};
use nom::sequence::{pair, preceded};
use std::collections::VecDeque;
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
    /// `help`: the commands, one line each.
    Help,
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
    ));
    let mut parser = many0(preceded(space0, param));
    let (rest, params) = parser.parse(args).map_err(|e| format!("go: unexpected {}", Quoted(&offending(&e))))?;
    let mut go = GoParams::default();
    for param in params {
        let Param::Number(name, key, text) = param else {
            go.infinite = true;
            continue;
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
        /// The lines of the last complete iteration, best first (several with MultiPV).
        lines: Vec<SearchInfo>,
    },
    /// An answer decided without search, held until `stop` because the `go` was infinite.
    Held(Option<Move>),
    /// A perft count.
    Perft { id: u64, depth: u32 },
}

/// A command that arrived while a job ran, waiting its turn (or the error of a line that did not
/// parse, which also waits, so that answers keep the order of the lines).
#[derive(Debug)]
struct Queued {
    command: Result<Command, String>,
    /// Whether a `stop` arrived after it: a `go` or `perft` is then stopped as soon as it starts.
    stopped: bool,
}

/// The commands `help` lists, one line each.
const HELP: [&str; 18] = [
    "Magpie speaks a UCI-shaped protocol (UGI); see protocol.md. Commands:",
    "  ugi | uci                       identify, list the options, answer ugiok (uciok)",
    "  isready                         answer readyok (at once, even while searching)",
    "  setoption name N value V        Eval, Level (0-10), MoveOverhead (ms), BoardSize (4, 6, 8), MultiPV",
    "  uginewgame                      start a new game (forget earlier searches)",
    "  position startpos [moves ...]   the start position, then moves (f5 d6, or pass)",
    "  position fen <64 squares> <X|O> [moves ...]   a position as text (X black, O white, - empty)",
    "  go [movetime ms] [depth n] [nodes n] [p1time ms p2time ms p1inc ms p2inc ms movestogo n] [infinite]",
    "                                  search and answer bestmove (no limit for the mover: 1 s)",
    "  stop                            stop the search and answer bestmove now",
    "  query p1turn|gameover|result    answer response ...",
    "  d                               show the board",
    "  moves                           list the legal moves",
    "  eval                            the static evaluation and its parts",
    "  perft <depth>                   count the leaves of the game tree",
    "  help                            this list",
    "  quit                            exit",
    "Commands sent during a search wait until it has answered; stop, isready and quit act at once.",
];

/// The mover's clock as a `go` gave it, and when its answer was written.
#[derive(Debug)]
struct ClockReading {
    mover: Color,
    time: Duration,
    increment: Duration,
    received: Instant,
    answered: Option<Instant>,
}

/// The UGI front end: the game, the board size for `startpos`, the job in progress and the
/// commands waiting behind it.
pub struct Ugi {
    game: Game,
    board_size: BoardSize,
    active: Option<Active>,
    /// Commands that arrived while a job ran, handled in order once it has answered.
    queue: VecDeque<Queued>,
    /// Whether the input has ended: an infinite search started from then on is stopped at once.
    eof: bool,
    /// The clock of the last `go` that gave one, to measure the client's latency.
    last_clock: Option<ClockReading>,
}

impl Default for Ugi {
    fn default() -> Ugi {
        Ugi {
            game: Game::default(),
            board_size: BoardSize::Eight,
            active: None,
            queue: VecDeque::new(),
            eof: false,
            last_clock: None,
        }
    }
}

impl Ugi {
    fn send(ctx: &mut Context, reply: Reply) {
        ctx.line(&reply.to_string());
    }

    fn error(ctx: &mut Context, message: impl Into<String>) {
        Ugi::send(ctx, Reply::Error(one_line(&message.into(), MAX_ERROR_CHARS)));
    }

    fn set_option(&mut self, name: &str, value: &str, ctx: &mut Context) {
        let bad = |what: &str| format!("setoption {}: {} is not {what}", clipped(name), Quoted(value));
        match name.to_ascii_lowercase().replace(' ', "").as_str() {
            "eval" => match value.parse::<EvalKind>() {
                Ok(kind) => ctx.settings.eval = kind,
                Err(e) => Ugi::error(ctx, format!("setoption Eval: {e}")),
            },
            "level" => match value.parse::<u8>() {
                Ok(level) if level <= MAX_LEVEL => ctx.settings.level = level,
                _ => Ugi::error(ctx, bad(&format!("a level (0 to {MAX_LEVEL})"))),
            },
            "moveoverhead" => match value.parse::<u64>() {
                Ok(ms) if ms <= 5000 => ctx.settings.move_overhead = Duration::from_millis(ms),
                _ => Ugi::error(ctx, bad("a number of milliseconds (0 to 5000)")),
            },
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=64).contains(&n) => ctx.settings.multi_pv = n,
                _ => Ugi::error(ctx, bad("a number of lines (1 to 64)")),
            },
            "boardsize" => match value.parse::<usize>().ok().and_then(BoardSize::from_side) {
                Some(size) => self.board_size = size,
                None => Ugi::error(ctx, bad("a board size (4, 6 or 8)")),
            },
            _ => Ugi::error(ctx, format!("unknown option {}", Quoted(name))),
        }
    }

    fn set_position(&mut self, start: Option<Position>, moves: &[Move], ctx: &mut Context) {
        let mut game = Game::new(start.unwrap_or(Position::start(self.board_size)));
        match game.play_all(moves) {
            Ok(()) => self.game = game,
            Err((index, e)) => Ugi::error(ctx, format!("position: move {} ({}): {e}", index + 1, moves[index])),
        }
    }

    /// The limits of `go` for the side to move. Only the mover's clock counts; a `go` that sets no
    /// limit for the mover (none at all, or only the opponent's clock, or only `movestogo`) thinks
    /// for the default time rather than forever.
    fn limits(&self, go: &GoParams, default_movetime: Duration) -> Limits {
        let ms = Duration::from_millis;
        let (time, inc) = match self.game.position().side_to_move() {
            Color::Black => (go.p1time, go.p1inc),
            Color::White => (go.p2time, go.p2inc),
        };
        let bounded =
            go.infinite || go.movetime.is_some() || go.depth.is_some() || go.nodes.is_some() || time.is_some();
        Limits {
            depth: go.depth.map(|d| d.clamp(1, 60) as u32),
            nodes: go.nodes,
            movetime: go.movetime.map(ms).or((!bounded).then_some(default_movetime)),
            clock: time.map(|t| Clock {
                time: ms(t),
                increment: ms(inc.unwrap_or(0)),
                moves_to_go: go.movestogo.map(|m| m.min(1000) as u32),
            }),
            infinite: go.infinite,
        }
    }

    /// Starts a `go`; `stopped` when a `stop` already came after it (it then answers at once with
    /// what the search has, as does an infinite `go` after the end of input).
    fn go(&mut self, go: &GoParams, received: Instant, stopped: bool, ctx: &mut Context) {
        let limits = self.limits(go, ctx.settings.default_movetime);
        if limits.movetime == Some(ctx.settings.default_movetime) && go.movetime.is_none() {
            let side = self.game.position().side_to_move().symbol();
            let ms = ctx.settings.default_movetime.as_millis();
            Ugi::send(ctx, Reply::InfoString(format!("go: no limit for {side} to move: thinking {ms} ms")));
        }
        if let Some(clock) = &limits.clock {
            self.read_clock(clock, received, ctx);
        }
        let stop_now = stopped || (limits.infinite && self.eof);
        let pos = *self.game.position();
        match ctx.plan(&pos, &limits, received) {
            MovePlan::Search(request) => {
                let id = ctx.start_search(request);
                if stop_now {
                    ctx.stop_search();
                }
                self.active = Some(Active::Search {
                    id,
                    infinite: limits.infinite,
                    stop_requested: stop_now,
                    held: None,
                    lines: Vec::new(),
                });
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
                if limits.infinite && !stop_now {
                    self.active = Some(Active::Held(answer));
                } else {
                    self.best_move(answer, ctx);
                }
            }
        }
    }

    fn perft(&mut self, depth: u32, stopped: bool, ctx: &mut Context) {
        let id = ctx.start_perft(*self.game.position(), depth);
        if stopped {
            ctx.stop_search();
        }
        self.active = Some(Active::Perft { id, depth });
    }

    /// `stop`: the running job answers now, and so does every `go` or `perft` waiting behind it
    /// (each is stopped as soon as it starts).
    fn stop(&mut self, ctx: &mut Context) {
        for queued in &mut self.queue {
            queued.stopped = true;
        }
        match self.active.take() {
            Some(Active::Held(answer)) | Some(Active::Search { held: Some(answer), .. }) => {
                self.best_move(answer, ctx);
            }
            Some(Active::Search { id, infinite, held: None, lines, .. }) => {
                ctx.stop_search();
                self.active = Some(Active::Search { id, infinite, stop_requested: true, held: None, lines });
            }
            Some(perft @ Active::Perft { .. }) => {
                ctx.stop_search();
                self.active = Some(perft);
            }
            None => {}
        }
    }

    fn iteration(&mut self, id: u64, info: SearchInfo, ctx: &mut Context) {
        let Some(Active::Search { id: active, lines, .. }) = &mut self.active else { return };
        if *active != id {
            return;
        }
        if info.multipv.unwrap_or(1) == 1 {
            lines.clear();
        }
        lines.push(info.clone());
        Ugi::send(ctx, Reply::Info(info));
    }

    fn finish(&mut self, id: u64, result: SearchResult, ctx: &mut Context) {
        let Some(Active::Search { id: active_id, infinite, stop_requested, lines, .. }) = self.active.take() else {
            return;
        };
        if id != active_id {
            self.active = Some(Active::Search { id: active_id, infinite, stop_requested, held: None, lines });
            return;
        }
        for line in final_lines(&result, &lines) {
            Ugi::send(ctx, Reply::Info(line));
        }
        if infinite && !stop_requested {
            // An infinite search answers only after `stop`.
            let held = Some(Some(result.best));
            self.active = Some(Active::Search { id, infinite, stop_requested, held, lines: Vec::new() });
            return;
        }
        self.best_move(Some(result.best), ctx);
    }

    /// Writes `bestmove`, and notes when for the clock's lag.
    fn best_move(&mut self, answer: Option<Move>, ctx: &mut Context) {
        Ugi::send(ctx, Reply::BestMove(answer));
        if let Some(reading) = &mut self.last_clock {
            reading.answered.get_or_insert_with(Instant::now);
        }
    }

    /// A `go` gives the mover's clock: compared with the reading of its previous move, it reveals
    /// how much more the client charged than Magpie measured (the latency Magpie keeps in hand).
    fn read_clock(&mut self, clock: &Clock, received: Instant, ctx: &mut Context) {
        let mover = self.game.position().side_to_move();
        if let Some(last) = self.last_clock.take_if(|last| last.mover == mover)
            && let Some(answered) = last.answered
        {
            let used = answered.saturating_duration_since(last.received);
            if let Some(lag) = Latency::clock_lag(last.time, last.increment, used, clock.time) {
                ctx.latency.observe_lag(lag);
            }
        }
        self.last_clock =
            Some(ClockReading { mover, time: clock.time, increment: clock.increment, received, answered: None });
    }

    fn perft_done(&mut self, id: u64, leaves: Option<u64>, time: Duration, ctx: &mut Context) {
        let Some(Active::Perft { id: active, depth }) = self.active else { return };
        if active != id {
            return;
        }
        self.active = None;
        match leaves {
            Some(leaves) => {
                let speed = (leaves as f64 / time.as_secs_f64().max(1e-9)) as u64;
                ctx.line(&format!("perft {depth} leaves {leaves} time {} leaves/s {speed}", time.as_millis()));
            }
            None => Ugi::send(ctx, Reply::InfoString(format!("perft {depth} stopped"))),
        }
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

    /// The evaluation and its parts; for a finished game, the final score instead.
    fn eval(&self, ctx: &mut Context) {
        let pos = self.game.position();
        let side = pos.side_to_move().symbol();
        if pos.is_game_over() {
            let (black, white) = pos.disc_counts();
            let cp = pos.final_score() * 100;
            ctx.line(&format!(
                "eval total cp {cp} ({} for {side}, exact: the game is over, X {black} O {white}, empties to the winner)",
                discs_text(cp)
            ));
            return;
        }
        let kind = ctx.settings.eval;
        for part in kind.parts(pos) {
            ctx.line(&format!("eval {} raw {} cp {}", part.name, part.raw, part.score));
        }
        let cp = kind.evaluate(pos);
        ctx.line(&format!("eval total cp {cp} ({} for {side}, evaluation {kind})", discs_text(cp)));
    }

    /// Handles a command in its turn: nothing runs, or it waited until the job ahead answered.
    fn handle(&mut self, command: Command, received: Instant, stopped: bool, ctx: &mut Context) -> Flow {
        match command {
            Command::Hello { uci } => Ugi::send(ctx, Reply::Hello { uci }),
            Command::IsReady => Ugi::send(ctx, Reply::ReadyOk),
            Command::SetOption { name, value } => self.set_option(&name, &value, ctx),
            Command::NewGame => {
                self.game = Game::new(Position::start(self.board_size));
                self.last_clock = None;
                ctx.new_game();
            }
            Command::Position { start, moves } => self.set_position(start, &moves, ctx),
            Command::Go(go) => self.go(&go, received, stopped, ctx),
            Command::Stop => self.stop(ctx),
            Command::Quit => return Flow::Quit,
            Command::Query(query) => self.query(query, ctx),
            Command::Display => self.display(ctx),
            Command::Moves => self.legal_moves(ctx),
            Command::Eval => self.eval(ctx),
            Command::Perft(depth) => self.perft(depth, stopped, ctx),
            Command::Help => HELP.iter().for_each(|line| ctx.line(line)),
        }
        Flow::Continue
    }

    /// Handles waiting commands in order until one starts a job.
    fn drain(&mut self, ctx: &mut Context) -> Flow {
        while self.active.is_none() {
            let Some(Queued { command, stopped }) = self.queue.pop_front() else { break };
            match command {
                // A command that waited starts its clock now, not when it was read.
                Ok(command) => {
                    if self.handle(command, Instant::now(), stopped, ctx) == Flow::Quit {
                        return Flow::Quit;
                    }
                }
                Err(message) => Ugi::error(ctx, message),
            }
        }
        Flow::Continue
    }
}

/// The lines repeated before `bestmove`, in rank order: the result's line first (it may come from
/// an iteration that was stopped part-way), then the other lines of the last complete iteration
/// (with MultiPV), without the result's move, ranked after it.
fn final_lines(result: &SearchResult, last: &[SearchInfo]) -> Vec<SearchInfo> {
    let mut best = result.info.clone();
    if last.len() <= 1 {
        best.multipv = last.first().and_then(|l| l.multipv);
        return vec![best];
    }
    best.multipv = Some(1);
    let mut lines = vec![best];
    for line in last.iter().skip(1) {
        if line.pv.first() == Some(&result.best) {
            continue;
        }
        let mut line = line.clone();
        line.multipv = Some(lines.len() as u32 + 1);
        lines.push(line);
    }
    lines
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
            // These act at once, even while a job runs.
            Command::Stop => self.stop(ctx),
            Command::IsReady => Ugi::send(ctx, Reply::ReadyOk),
            Command::Quit => return Flow::Quit,
            command if self.busy() => self.queue.push_back(Queued { command: Ok(command), stopped: false }),
            command => return self.handle(command, received, false, ctx),
        }
        Flow::Continue
    }

    fn on_parse_error(&mut self, message: String, ctx: &mut Context) -> Flow {
        if self.busy() {
            self.queue.push_back(Queued { command: Err(message), stopped: false });
        } else {
            Ugi::error(ctx, message);
        }
        Flow::Continue
    }

    fn on_report(&mut self, report: Report, ctx: &mut Context) -> Flow {
        match report {
            Report::Iteration { id, info } => self.iteration(id, info, ctx),
            Report::Finished { id, result } => self.finish(id, result, ctx),
            Report::Perft { id, leaves, time } => self.perft_done(id, leaves, time, ctx),
            // Iterations are the progress UGI shows.
            Report::Progress { .. } => {}
        }
        self.drain(ctx)
    }

    fn on_eof(&mut self, ctx: &mut Context) -> Flow {
        // A finite search finishes and answers, and the commands behind it are handled; an infinite
        // one (or a held answer) is stopped and answered now, and so is any later infinite `go`.
        self.eof = true;
        if matches!(self.active, Some(Active::Held(_)) | Some(Active::Search { infinite: true, .. })) {
            let queue = std::mem::take(&mut self.queue);
            self.stop(ctx);
            self.queue = queue;
        }
        self.drain(ctx)
    }

    fn busy(&self) -> bool {
        self.active.is_some() || !self.queue.is_empty()
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
