//! The Go Text Protocol as Othello programs speak it: the Quarry GUI, GoGui in its rules-engine
//! mode, and the GTP match runners of Egaroucid and neural-reversi. The contract is the GTP section
//! of `protocol.md`.
//!
//! [`parse`] turns a line into a [`Command`] (its optional numeric id and a [`Kind`]) on the reader
//! thread; [`Reply`] formats an answer (`=[id] result` or `?[id] message`); [`Gtp`] is the front end
//! that keeps the game, the clocks and the genmove in progress.
//!
//! GTP is strictly sequential: every command gets exactly one answer, in the order the commands
//! came. Clients pipeline (Quarry sends `play` and `genmove` together), so while a `genmove` searches,
//! later commands wait in a queue and are handled once its answer is written.

use super::{end_of_args, first_word, keyword, word};
use crate::board::{BoardSize, Color, Game, IllegalMove, IllegalReason, Move, Position};
use crate::engine::search_thread::Report;
use crate::engine::settings::MovePlan;
use crate::engine::{Context, Flow, Frontend};
use crate::formats::ascii_board;
use crate::quote::{MAX_ERROR_CHARS, Quoted, one_line};
use crate::search::{Clock, Limits};
use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::character::complete::{space1, u32 as number};
use nom::combinator::{eof, map_res, opt, peek, value};
use nom::sequence::terminated;
use std::collections::VecDeque;
use std::fmt;
use std::time::{Duration, Instant};

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

impl TimeSettings {
    /// A fresh byo-yomi period, if the control has byo-yomi.
    fn period(&self) -> Option<ClockState> {
        (!self.byo_yomi.is_zero() && self.stones > 0).then_some(ClockState { time: self.byo_yomi, stones: self.stones })
    }

    /// The clock at the start of a game, or `None` when the control sets no limit: main and byo-yomi
    /// time both 0, or (as the GTP specification says) byo-yomi time with 0 stones.
    fn start(&self) -> Option<ClockState> {
        if self.main.is_zero() { self.period() } else { Some(ClockState { time: self.main, stones: 0 }) }
    }
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

/// An answer: `=[id] result` on success, `?[id] message` on failure. Its `Display` is the answer
/// without the empty line that ends it; a multi-line result puts its first line after the `=`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The id of the command answered.
    pub id: Option<u32>,
    /// The result, or the error message.
    pub result: Result<String, String>,
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mark, text) = match &self.result {
            Ok(text) => ('=', text),
            Err(text) => ('?', text),
        };
        write!(f, "{mark}")?;
        if let Some(id) = self.id {
            write!(f, "{id}")?;
        }
        // An empty result is a bare `=`; a result that starts on its own line (showboard) needs no
        // space either.
        if !text.is_empty() && !text.starts_with('\n') {
            f.write_str(" ")?;
        }
        f.write_str(text)
    }
}

/// A move as GTP clients print it: `F5`, or `pass`.
pub fn move_text(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_uppercase(),
        Move::Pass => "pass".to_string(),
    }
}

/// A score from Black's side as GTP writes results: `B+n`, `W+n`, or `0` for a draw.
pub fn score_text(score_for_black: i32) -> String {
    match score_for_black {
        0 => "0".to_string(),
        s if s > 0 => format!("B+{s}"),
        s => format!("W+{}", -s),
    }
}

/// The board for GoGui: rows from the highest number down to row 1, cells `X`, `O`, `.` separated
/// by spaces. GoGui puts its first row at the bottom, so it draws an Othello board upside down; the
/// coordinates stay Othello's, so that moves mean the same squares to both.
pub fn rules_board(pos: &Position) -> String {
    let n = pos.size().side() as u8;
    let cell = |col: u8, row: u8| match crate::board::Square::from_coords(col, row) {
        Some(sq) if pos.black().contains(sq) => "X",
        Some(sq) if pos.white().contains(sq) => "O",
        _ => ".",
    };
    (0..n)
        .rev()
        .map(|row| (0..n).map(|col| cell(col, row)).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The legal moves for GoGui: upper-case squares, `pass` when passing is the only move, nothing
/// when the game is over.
pub fn rules_legal_moves(pos: &Position) -> String {
    if pos.is_game_over() {
        String::new()
    } else if pos.must_pass() {
        "pass".to_string()
    } else {
        pos.legal_moves().iter().map(|sq| sq.to_uppercase()).collect::<Vec<_>>().join(" ")
    }
}

/// The answer to an illegal move, naming it.
fn illegal_text(err: &IllegalMove, pos: &Position) -> String {
    let mv = move_text(err.mv);
    match err.reason {
        IllegalReason::OffBoard => format!("illegal move: {mv} is not on the {} board", pos.size()),
        IllegalReason::Occupied => format!("illegal move: {mv} is occupied"),
        IllegalReason::NoFlips => format!("illegal move: {mv} flips no disc"),
        IllegalReason::PassWithMoves => "illegal move: a legal move exists".to_string(),
        IllegalReason::GameOver => "illegal move: the game is over".to_string(),
    }
}

/// One side's clock as Magpie keeps it: time left in the current period, and the stones left in
/// the byo-yomi period (0 while in main time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ClockState {
    time: Duration,
    stones: u32,
}

/// The genmove whose answer is owed.
#[derive(Debug)]
struct Active {
    /// The search's id on the search thread.
    search: u64,
    /// The command's id.
    id: Option<u32>,
    color: Color,
    /// `genmove` (play the move) rather than `reg_genmove`.
    play: bool,
    /// The game the move is for: the current one, with the opponent's forced pass inserted when
    /// the colour asked for was not to move.
    base: Game,
    /// When the clock started.
    start: Instant,
}

/// The GTP front end: the game, the board size for `clear_board`, the undo stack, the clocks, and
/// the genmove in progress with the commands waiting behind it.
pub struct Gtp {
    game: Game,
    size: BoardSize,
    /// The game's length (moves, passes included) before each `play` and `genmove`, so that `undo`
    /// also takes back a pass that was inserted.
    history: Vec<usize>,
    /// Stored for the client's sake; Othello has no komi and scores do not use it.
    komi: f64,
    time_settings: Option<TimeSettings>,
    /// Black's and White's clocks; `None` when there is no limit (the default movetime applies).
    clocks: [Option<ClockState>; 2],
    active: Option<Active>,
    /// Commands read while a genmove searches, with the instant each was read.
    queue: VecDeque<(Command, Instant)>,
}

impl Default for Gtp {
    fn default() -> Gtp {
        Gtp {
            game: Game::default(),
            size: BoardSize::Eight,
            history: Vec::new(),
            komi: 0.0,
            time_settings: None,
            clocks: [None; 2],
            active: None,
            queue: VecDeque::new(),
        }
    }
}

fn side_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Gtp {
    /// The komi last given (GoGui sends one for every game; Othello scores ignore it).
    pub fn komi(&self) -> f64 {
        self.komi
    }

    fn send(ctx: &mut Context, reply: &Reply) {
        let reply = match &reply.result {
            Err(message) => &Reply { id: reply.id, result: Err(one_line(message, MAX_ERROR_CHARS)) },
            Ok(_) => reply,
        };
        for line in reply.to_string().split('\n') {
            ctx.line(line);
        }
        ctx.line("");
    }

    fn new_game(&mut self, ctx: &mut Context) {
        self.game = Game::new(Position::start(self.size));
        self.history.clear();
        self.reset_clocks();
        ctx.new_game();
    }

    fn reset_clocks(&mut self) {
        let start = self.time_settings.and_then(|t| t.start());
        self.clocks = [start; 2];
    }

    /// The clock of `color` for its next move: a clock whose main time is spent enters byo-yomi.
    fn clock(&self, color: Color) -> Option<ClockState> {
        let state = self.clocks[side_index(color)]?;
        let period = self.time_settings.and_then(|t| t.period());
        match period {
            Some(period) if state.stones == 0 && state.time.is_zero() => Some(period),
            _ => Some(state),
        }
    }

    /// Takes `spent` off the clock of `color` after one of its moves.
    fn charge(&mut self, color: Color, spent: Duration) {
        let Some(mut state) = self.clock(color) else { return };
        let period = self.time_settings.and_then(|t| t.period());
        state.time = state.time.saturating_sub(spent);
        if state.stones > 0 {
            state.stones -= 1;
            if state.stones == 0 {
                // The period's moves are played: a new period starts (if its length is known).
                state = period.unwrap_or(state);
            }
        } else if state.time.is_zero() {
            state = period.unwrap_or(state);
        }
        self.clocks[side_index(color)] = Some(state);
    }

    fn time_left(&mut self, color: Color, time: Duration, stones: u32) {
        let limited = self.time_settings.and_then(|t| t.start()).is_some();
        // `time_left … 0 0` without a time limit says nothing about the clock: keep the default.
        if !limited && time.is_zero() && stones == 0 {
            return;
        }
        self.clocks[side_index(color)] = Some(ClockState { time, stones });
    }

    fn limits(&self, color: Color, default_movetime: Duration) -> Limits {
        match self.clock(color) {
            None => Limits { movetime: Some(default_movetime), ..Limits::default() },
            Some(state) => Limits {
                clock: Some(Clock {
                    time: state.time,
                    increment: Duration::ZERO,
                    moves_to_go: (state.stones > 0).then_some(state.stones),
                }),
                ..Limits::default()
            },
        }
    }

    fn play(&mut self, color: Color, mv: Move) -> Result<(), String> {
        let pos = *self.game.position();
        if pos.is_game_over() {
            if mv == Move::Pass {
                // gogui-twogtp ends a game on two passes in a row, so it sends the last pass to a
                // finished game: accepted, changing nothing, and taken back by `undo`.
                self.history.push(self.game.moves().len());
                return Ok(());
            }
            return Err(format!("illegal move: {}: the game is over", move_text(mv)));
        }
        let mut next = self.game.clone();
        if color != pos.side_to_move() {
            if !pos.must_pass() {
                return Err(format!("illegal move: not {color}'s turn"));
            }
            // A runner that never sends passes: the side to move passes first (Edax's convention).
            next.play_strict(Move::Pass).map_err(|e| illegal_text(&e, &pos))?;
        }
        let before = *next.position();
        next.play_strict(mv).map_err(|e| illegal_text(&e, &before))?;
        self.history.push(self.game.moves().len());
        self.game = next;
        Ok(())
    }

    /// Starts a genmove: returns its answer if it is decided at once, or `None` when a search runs.
    fn genmove(
        &mut self,
        id: Option<u32>,
        color: Color,
        play: bool,
        start: Instant,
        ctx: &mut Context,
    ) -> Option<Result<String, String>> {
        let pos = *self.game.position();
        if pos.is_game_over() {
            // A runner that stops after two passes ends the game this way; the board stays, and the
            // pass counts as a move for `undo`.
            if play {
                self.history.push(self.game.moves().len());
            }
            return Some(Ok(move_text(Move::Pass)));
        }
        let mut base = self.game.clone();
        if color != pos.side_to_move() {
            if !pos.must_pass() {
                return Some(Err(format!("illegal move: not {color}'s turn")));
            }
            if let Err(e) = base.play_strict(Move::Pass) {
                return Some(Err(illegal_text(&e, &pos)));
            }
        }
        let limits = self.limits(color, ctx.settings.default_movetime);
        let root = *base.position();
        match ctx.plan(&root, &limits, start) {
            MovePlan::Search(request) => {
                let search = ctx.start_search(request);
                self.active = Some(Active { search, id, color, play, base, start });
                None
            }
            MovePlan::Immediate { mv, .. } => Some(Ok(self.conclude(base, color, play, mv, start))),
            MovePlan::GameOver => Some(Ok(move_text(Move::Pass))),
        }
    }

    /// Finishes a genmove with `mv` for the position of `base`: plays it (genmove) and charges the
    /// clock, and returns the answer's text.
    fn conclude(&mut self, mut base: Game, color: Color, play: bool, mv: Move, start: Instant) -> String {
        let pos = *base.position();
        let mv = if pos.is_legal(mv) {
            mv
        } else {
            // Never expected; a client must still get a legal move.
            log::error!("the search answered the illegal move {mv} in {pos}; answering the first legal move");
            pos.legal_moves().first().map_or(Move::Pass, Move::Play)
        };
        if play && base.play_strict(mv).is_ok() {
            self.history.push(self.game.moves().len());
            self.game = base;
            self.charge(color, start.elapsed());
        }
        move_text(mv)
    }

    fn undo(&mut self) -> Result<String, String> {
        let length = self.history.pop().ok_or_else(|| "cannot undo".to_string())?;
        while self.game.moves().len() > length {
            self.game.undo();
        }
        Ok(String::new())
    }

    fn final_score(&self) -> String {
        let pos = self.game.position();
        if pos.is_game_over() {
            score_text(pos.final_score_for_black())
        } else {
            let (black, white) = pos.disc_counts();
            score_text(black as i32 - white as i32)
        }
    }

    /// Handles one command, writing its answer unless a search now runs for it.
    fn execute(&mut self, command: Command, start: Instant, ctx: &mut Context) -> Flow {
        let Command { id, kind } = command;
        let ok = |text: &str| Ok(text.to_string());
        let pos = *self.game.position();
        let result = match kind {
            Kind::ProtocolVersion => ok("2"),
            Kind::Name => ok("Magpie"),
            Kind::Version => ok(env!("CARGO_PKG_VERSION")),
            Kind::KnownCommand(name) => Ok(COMMANDS.contains(&name.to_ascii_lowercase().as_str()).to_string()),
            Kind::ListCommands => Ok(COMMANDS.join("\n")),
            Kind::Quit => {
                Gtp::send(ctx, &Reply { id, result: ok("") });
                return Flow::Quit;
            }
            Kind::BoardSize(size) => {
                self.size = size;
                self.new_game(ctx);
                ok("")
            }
            Kind::ClearBoard => {
                self.new_game(ctx);
                ok("")
            }
            Kind::Komi(komi) => {
                self.komi = komi;
                ok("")
            }
            Kind::Play(color, mv) => self.play(color, mv).map(|()| String::new()),
            Kind::GenMove(color) | Kind::RegGenMove(color) => {
                let play = matches!(kind, Kind::GenMove(_));
                match self.genmove(id, color, play, start, ctx) {
                    Some(result) => result,
                    None => return Flow::Continue,
                }
            }
            Kind::Undo => self.undo(),
            Kind::ShowBoard => Ok(format!("\n{}", ascii_board(&pos).trim_end())),
            Kind::FinalScore => Ok(self.final_score()),
            Kind::TimeSettings(settings) => {
                self.time_settings = Some(settings);
                self.reset_clocks();
                ok("")
            }
            Kind::TimeLeft { color, time, stones } => {
                self.time_left(color, time, stones);
                ok("")
            }
            Kind::ListGames | Kind::RulesGameId => ok("Othello"),
            Kind::SetGame => ok(""),
            Kind::RulesBoardSize => Ok(pos.size().side().to_string()),
            Kind::RulesBoard => Ok(rules_board(&pos)),
            Kind::RulesSideToMove => ok(pos.side_to_move().name()),
            Kind::RulesLegalMoves => Ok(rules_legal_moves(&pos)),
            Kind::RulesFinalResult => {
                Ok(if pos.is_game_over() { score_text(pos.final_score_for_black()) } else { "unknown".to_string() })
            }
            Kind::Invalid(message) => Err(message),
        };
        Gtp::send(ctx, &Reply { id, result });
        Flow::Continue
    }

    /// Handles the queued commands in order until one starts a search or asks to quit.
    fn drain(&mut self, ctx: &mut Context) -> Flow {
        while self.active.is_none() {
            let Some((command, received)) = self.queue.pop_front() else { break };
            // A command that waited behind a genmove starts its clock now, not when it was read.
            let start = received.max(Instant::now());
            if self.execute(command, start, ctx) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }
}

impl Frontend for Gtp {
    type Command = Command;

    fn parse(line: &str) -> Option<Result<Command, String>> {
        parse(line).map(Ok)
    }

    fn on_command(&mut self, command: Command, received: Instant, ctx: &mut Context) -> Flow {
        if self.active.is_some() {
            if command.kind == Kind::Quit {
                // The client is leaving: the genmove is answered (in order) with the best move so
                // far rather than after its full time.
                ctx.stop_search();
            }
            self.queue.push_back((command, received));
            return Flow::Continue;
        }
        self.execute(command, received, ctx)
    }

    fn on_parse_error(&mut self, message: String, ctx: &mut Context) -> Flow {
        // A line the reader could not take (too long): answered like any invalid command, in order.
        self.on_command(Command { id: None, kind: Kind::Invalid(message) }, Instant::now(), ctx)
    }

    fn on_report(&mut self, report: Report, ctx: &mut Context) -> Flow {
        let (search, result) = match report {
            Report::Finished { id, result } => (id, result),
            // GTP has no progress lines.
            Report::Iteration { .. } => return Flow::Continue,
            Report::Perft { .. } | Report::Progress { .. } => return Flow::Continue,
        };
        let Some(active) = self.active.take_if(|a| a.search == search) else {
            return Flow::Continue;
        };
        let text = self.conclude(active.base, active.color, active.play, result.best, active.start);
        Gtp::send(ctx, &Reply { id: active.id, result: Ok(text) });
        self.drain(ctx)
    }

    fn on_eof(&mut self, _ctx: &mut Context) -> Flow {
        // The running genmove finishes in its time and the queue is handled after it; the loop
        // exits once nothing is owed.
        Flow::Continue
    }

    fn busy(&self) -> bool {
        self.active.is_some() || !self.queue.is_empty()
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

    #[test]
    fn replies_format() {
        let reply = |id, result| Reply { id, result }.to_string();
        assert_eq!(reply(None, Ok(String::new())), "=");
        assert_eq!(reply(Some(3), Ok(String::new())), "=3");
        assert_eq!(reply(Some(3), Ok("Magpie".into())), "=3 Magpie");
        assert_eq!(reply(None, Err("unknown command".into())), "? unknown command");
        assert_eq!(reply(Some(12), Err("cannot undo".into())), "?12 cannot undo");
        assert_eq!(reply(Some(1), Ok("a\nb".into())), "=1 a\nb");
        assert_eq!(reply(None, Ok("\nboard".into())), "=\nboard");
        assert_eq!(move_text(sq("f5")), "F5");
        assert_eq!(move_text(Move::Pass), "pass");
        assert_eq!((score_text(5), score_text(-64), score_text(0)), ("B+5".into(), "W+64".into(), "0".into()));
    }

    #[test]
    fn gogui_board_rows_run_from_the_highest_row_down() {
        let start = Position::initial();
        let rows: Vec<String> = rules_board(&start).lines().map(str::to_string).collect();
        assert_eq!(rows.len(), 8);
        assert_eq!(rows[0], ". . . . . . . .");
        assert_eq!(rows[3], ". . . X O . . ."); // row 5: d5 black, e5 white
        assert_eq!(rows[4], ". . . O X . . ."); // row 4: d4 white, e4 black
        assert_eq!(rules_legal_moves(&start), "D3 C4 F5 E6");
        let four = Position::start(BoardSize::Four);
        assert_eq!(rules_board(&four), ". . . .\n. X O .\n. O X .\n. . . .");
    }

    #[test]
    fn clocks_enter_byo_yomi_and_start_new_periods() {
        let mut gtp = Gtp::default();
        assert_eq!(gtp.clock(Color::Black), None);
        gtp.time_settings =
            Some(TimeSettings { main: Duration::from_secs(2), byo_yomi: Duration::from_secs(10), stones: 2 });
        gtp.reset_clocks();
        assert_eq!(gtp.clock(Color::White), Some(ClockState { time: Duration::from_secs(2), stones: 0 }));
        gtp.charge(Color::White, Duration::from_secs(3));
        assert_eq!(gtp.clock(Color::White), Some(ClockState { time: Duration::from_secs(10), stones: 2 }));
        gtp.charge(Color::White, Duration::from_secs(4));
        assert_eq!(gtp.clock(Color::White), Some(ClockState { time: Duration::from_secs(6), stones: 1 }));
        gtp.charge(Color::White, Duration::from_secs(1));
        assert_eq!(gtp.clock(Color::White), Some(ClockState { time: Duration::from_secs(10), stones: 2 }));
        // Black's clock is its own.
        assert_eq!(gtp.clock(Color::Black), Some(ClockState { time: Duration::from_secs(2), stones: 0 }));
        let limits = gtp.limits(Color::White, Duration::from_secs(1));
        assert_eq!(limits.clock.map(|c| c.moves_to_go), Some(Some(2)));
        assert_eq!(limits.movetime, None);
        // Byo-yomi time with no stones means no limit, as the GTP specification says.
        gtp.time_settings = Some(TimeSettings { main: Duration::ZERO, byo_yomi: Duration::from_secs(5), stones: 0 });
        gtp.reset_clocks();
        assert_eq!(gtp.limits(Color::Black, Duration::from_millis(70)).movetime, Some(Duration::from_millis(70)));
        // time_left 0 0 without limits says nothing; with a real clock it is used.
        gtp.time_left(Color::Black, Duration::ZERO, 0);
        assert_eq!(gtp.clock(Color::Black), None);
        gtp.time_left(Color::Black, Duration::from_secs(30), 3);
        assert_eq!(gtp.clock(Color::Black), Some(ClockState { time: Duration::from_secs(30), stones: 3 }));
    }
}
