//! The NBoard protocol (version 2), as the NBoard GUI, Edax `-nboard` and NTest speak it.
//!
//! The GUI sends state (`set game <GGF>`, `move`, `set depth`, `set contempt`), then `ping k`, then
//! a request (`go`, `hint n`, `learn`, `analyze`). Replies to a request are only meaningful after the
//! `pong k` that precedes them: the GUI drops results tagged with an older ping. So a `ping` stops
//! the running search, and everything that arrives after it waits until the `pong` is written.
//!
//! Evaluations are in discs from the mover's point of view (`===`, `search`), except `analysis`,
//! which is Black's, as the GUI plots it; a pass is `PA`.
//!
//! The status line says what Magpie is doing while a request runs, and names the game's opening
//! ([`crate::book::names`]) when `set game` or `move` changes the game.
//!
//! In a position its opening book holds, `go` answers the book's move at once and `hint` sends
//! `book` lines (the moves the book can value; the other moves are searched when more are asked
//! for). `learn` adds the game to the book file given by `--book`, on the search thread.

use super::{end_of_args, keyword, offending, split_command, whole_number, word};
use crate::board::{Color, Game, Move, Position};
use crate::book::grow::ScoreSettings;
use crate::book::names::opening_name;
use crate::engine::book::{
    BookPlay, LEARN_DEPTH, LEARN_PLIES, LEARN_SELECTIVITY, LearnTask, Learnt, book_moves, unlearnable,
};
use crate::engine::search_thread::Report;
use crate::engine::settings::MovePlan;
use crate::engine::{Context, Flow, Frontend};
use crate::eval::{EvalKind, Evaluator};
use crate::formats::ggf::{GgfGame, MoveText};
use crate::quote::{MAX_ERROR_CHARS, Quoted, one_line};
use crate::search::{Clock, Limits, SearchInfo, SearchRequest, SearchResult, search_depth, selectivity_percent};
use nom::Parser;
use nom::branch::alt;
use nom::character::complete::space0;
use nom::sequence::preceded;
use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The depth used until the GUI sends `set depth`.
pub const DEFAULT_DEPTH: u32 = 12;

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `nboard <version>`.
    Hello(u32),
    /// `set depth <n>`: the deepest search, in plies.
    SetDepth(u32),
    /// `set game <GGF>`: the whole game.
    SetGame(Box<GgfGame>),
    /// `set contempt <n>`: the value of a draw for Black, in centi-discs.
    SetContempt(i32),
    /// `move <mv>[/<eval>[/<time>]]`: a move played, with the mover's time in seconds.
    Move {
        /// The move.
        mv: Move,
        /// Its time in seconds, if given.
        time: Option<f64>,
    },
    /// `hint <n>`: analyse and report about n best moves.
    Hint(usize),
    /// `go`: choose a move (and do not play it).
    Go,
    /// `ping <n>`.
    Ping(String),
    /// `learn`.
    Learn,
    /// `analyze`: evaluate every position of the game.
    Analyze,
    /// `quit`.
    Quit,
}

/// Parses one line. Blank lines are ignored.
pub fn parse(line: &str) -> Option<Result<Command, String>> {
    let (name, args) = split_command(line)?;
    Some(parse_command(name, args))
}

fn parse_command(name: &str, args: &str) -> Result<Command, String> {
    let lower = name.to_ascii_lowercase();
    let no_args = |command: Command| end_of_args(args, &lower).map(|()| command);
    match lower.as_str() {
        "nboard" => {
            one_number(args, "nboard", "a protocol version").map(|n| Command::Hello(n.min(u32::MAX.into()) as u32))
        }
        "set" => parse_set(args),
        "move" => parse_move(args),
        "hint" => one_number(args, "hint", "a number of moves").map(|n| Command::Hint(n.clamp(1, MAX_HINTS) as usize)),
        "go" => no_args(Command::Go),
        "ping" => Ok(Command::Ping(args.to_string())),
        "learn" => no_args(Command::Learn),
        "analyze" => no_args(Command::Analyze),
        "quit" => no_args(Command::Quit),
        _ => Err(format!("unknown command {}", Quoted(name))),
    }
}

/// The most moves a hint reports (there are never more legal moves than this).
const MAX_HINTS: u64 = 64;

/// The one argument of `command`, a [`whole_number`] described as `what` in errors.
fn one_number(args: &str, command: &str, what: &str) -> Result<u64, String> {
    let (rest, text) = arg_word(args, command, what)?;
    let n = whole_number(text, what).map_err(|e| format!("{command}: {e}"))?;
    end_of_args(rest, command)?;
    Ok(n)
}

/// The next word of the arguments of `command`, which must be there: `what` names it.
fn arg_word<'a>(args: &'a str, command: &str, what: &str) -> Result<(&'a str, &'a str), String> {
    word(args).map_err(|_: nom::Err<nom::error::Error<&str>>| format!("{command}: missing {what}"))
}

/// `set depth <n>` (clamped to 1..60), `set game <GGF>`, `set contempt <n>` (clamped to ±6400).
fn parse_set(args: &str) -> Result<Command, String> {
    let what: nom::IResult<&str, &str> =
        preceded(space0, alt((keyword("depth"), keyword("contempt"), keyword("game")))).parse(args);
    let (rest, what) = what.map_err(|e| match args.trim() {
        "" => "set: missing what to set (depth, game or contempt)".to_string(),
        _ => format!("set: unexpected {} (expected depth, game or contempt with a value)", Quoted(&offending(&e))),
    })?;
    match what.to_ascii_lowercase().as_str() {
        "depth" => one_number(rest, "set depth", "a depth in plies").map(|d| Command::SetDepth(search_depth(d))),
        "contempt" => {
            let what = "a number of centi-discs";
            let (rest, text) = arg_word(rest, "set contempt", what)?;
            let n = text.parse::<i64>().map_err(|_| format!("set contempt: {} is not {what}", Quoted(text)))?;
            end_of_args(rest, "set contempt")?;
            Ok(Command::SetContempt(n.clamp(-6400, 6400) as i32))
        }
        _ => GgfGame::parse(rest.trim()).map(|g| Command::SetGame(Box::new(g))).map_err(|e| format!("set game: {e}")),
    }
}

/// `move <mv>[/<eval>[/<time>]]`; blanks may stand for the slashes, as Edax writes them.
fn parse_move(args: &str) -> Result<Command, String> {
    let text = args.split_whitespace().collect::<Vec<_>>().join("/");
    let parsed: MoveText = text.parse().map_err(|e| format!("move: {e}"))?;
    Ok(Command::Move { mv: parsed.mv, time: parsed.time })
}

/// A line to the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// `set myname <name>`.
    MyName(String),
    /// `pong <n>`.
    Pong(String),
    /// `=== <move>[/<eval>[/<time>]]`.
    Move {
        /// The move.
        mv: Move,
        /// Its evaluation, in centi-discs for the mover.
        eval: Option<i32>,
        /// Seconds spent.
        time: f64,
    },
    /// `search <pv> <eval> 0 <depth>` for one analysed move.
    Search {
        /// The line, its first move played by `mover`.
        pv: Vec<Move>,
        /// Who plays the first move of the line.
        mover: Color,
        /// Centi-discs for the mover.
        eval: i32,
        /// Nominal depth.
        depth: u32,
        /// Whether the evaluation is the exact result.
        exact: bool,
        /// The selectivity of a selective solve (the game searched to its end with ProbCut).
        selective_solve: Option<u8>,
    },
    /// `book <pv> <eval> <games> <depth>` for one move the opening book values.
    Book {
        /// The line, its first move played by `mover`.
        pv: Vec<Move>,
        /// Who plays the first move of the line.
        mover: Color,
        /// Centi-discs for the mover.
        eval: i32,
        /// The games of the book that reached the position the move leads to.
        games: u32,
        /// The depth of the search behind the value.
        depth: u8,
        /// Whether the value is exact (a search to the end of the game).
        exact: bool,
    },
    /// `status <text>` (empty text clears the status bar).
    Status(String),
    /// `nodestats <nodes> <seconds>`.
    NodeStats {
        /// Nodes searched.
        nodes: u64,
        /// Seconds.
        seconds: f64,
    },
    /// `analysis <movesMade> <eval>`.
    Analysis {
        /// Moves (passes included) made before the position.
        moves_made: usize,
        /// Centi-discs for the side to move there.
        eval: i32,
    },
    /// `learned`.
    Learned,
}

/// Centi-discs as NBoard's decimal discs: `1.50`, `-3.00`.
fn discs(cp: i32) -> String {
    format!("{:.2}", f64::from(cp) / 100.0)
}

/// A move of a line, upper case for Black and lower case for White, as in Othello transcripts.
fn line_move(mv: Move, color: Color) -> String {
    let text = match mv {
        Move::Play(sq) => sq.to_string(),
        Move::Pass => "pa".to_string(),
    };
    if color == Color::Black { text.to_uppercase() } else { text }
}

/// A line as NBoard writes it, with no blanks: `F5d6C3`, its first move `mover`'s.
fn line_text(pv: &[Move], mover: Color) -> String {
    let mut color = mover;
    let mut line = String::new();
    for mv in pv {
        line.push_str(&line_move(*mv, color));
        color = color.opposite();
    }
    line
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::MyName(name) => write!(f, "set myname {name}"),
            Reply::Pong(n) => write!(f, "pong {n}"),
            Reply::Move { mv, eval, time } => {
                let mv = match mv {
                    Move::Play(sq) => sq.to_uppercase(),
                    Move::Pass => "PA".to_string(),
                };
                match eval {
                    Some(eval) => write!(f, "=== {mv}/{}/{time:.2}", discs(*eval)),
                    None => write!(f, "=== {mv}//{time:.2}"),
                }
            }
            Reply::Search { pv, mover, eval, depth, exact, selective_solve } => {
                let depth = match (exact, selective_solve) {
                    (true, _) => "100%".to_string(),
                    (false, Some(level)) => format!("{depth}@{}%", selectivity_percent(*level)),
                    (false, None) => depth.to_string(),
                };
                write!(f, "search {} {} 0 {depth}", line_text(pv, *mover), discs(*eval))
            }
            Reply::Book { pv, mover, eval, games, depth, exact } => {
                let depth = if *exact { "100%".to_string() } else { depth.to_string() };
                write!(f, "book {} {} {games} {depth}", line_text(pv, *mover), discs(*eval))
            }
            Reply::Status(text) if text.is_empty() => f.write_str("status"),
            Reply::Status(text) => write!(f, "status {text}"),
            Reply::NodeStats { nodes, seconds } => write!(f, "nodestats {nodes} {seconds:.2}"),
            Reply::Analysis { moves_made, eval } => write!(f, "analysis {moves_made} {}", discs(*eval)),
            Reply::Learned => f.write_str("learned"),
        }
    }
}

/// A request whose answer is owed.
#[derive(Debug)]
enum Job {
    /// `go`: answer `===` unless a ping interrupted it.
    Go { id: u64, interrupted: bool },
    /// `hint n`: the search lines are written as they come.
    Hint { id: u64, mover: Color, passed: bool },
    /// `analyze`: the positions still to evaluate, last first, and the one being searched (made
    /// after `moves_made` moves, `mover` to move there, searched after its pass if `passed`).
    Analyze { id: u64, moves_made: usize, mover: Color, passed: bool, remaining: Vec<(usize, Position)> },
    /// `learn`: answer `learned` unless a ping interrupted it.
    Learn { id: u64, interrupted: bool },
}

impl Job {
    fn id(&self) -> u64 {
        match self {
            Job::Go { id, .. } | Job::Hint { id, .. } | Job::Analyze { id, .. } | Job::Learn { id, .. } => *id,
        }
    }
}

/// A command waiting its turn behind a running request.
#[derive(Debug)]
struct Queued {
    command: Command,
    received: Instant,
    /// A `ping` came after this request (`go`, `hint`, `analyze`): the GUI no longer wants its
    /// answer, so it is dropped unanswered.
    stale: bool,
}

/// The NBoard front end.
pub struct Nboard {
    /// The game as the GUI described it (start, moves with times, clocks).
    ggf: GgfGame,
    /// Deepest search.
    depth: u32,
    /// Value of a draw for Black, centi-discs.
    contempt: i32,
    /// The opening the status bar shows, if the last status line named one.
    opening_shown: Option<&'static str>,
    /// The running request.
    job: Option<Job>,
    /// Commands that arrived while a request was running, in order.
    queue: VecDeque<Queued>,
}

impl Default for Nboard {
    fn default() -> Nboard {
        Nboard {
            ggf: GgfGame::new(Position::initial()),
            depth: DEFAULT_DEPTH,
            contempt: 0,
            opening_shown: None,
            job: None,
            queue: VecDeque::new(),
        }
    }
}

/// Whether a command asks for work whose answer the GUI waits for.
fn is_request(command: &Command) -> bool {
    matches!(command, Command::Go | Command::Hint(_) | Command::Analyze | Command::Learn)
}

impl Nboard {
    fn send(ctx: &mut Context, reply: Reply) {
        ctx.line(&reply.to_string());
    }

    /// `status <text>`: the status bar no longer shows the opening.
    fn status(&mut self, ctx: &mut Context, text: String) {
        self.opening_shown = None;
        Nboard::send(ctx, Reply::Status(text));
    }

    fn error(&mut self, ctx: &mut Context, message: &str) {
        self.status(ctx, format!("Magpie error: {}", one_line(message, MAX_ERROR_CHARS)));
    }

    /// After the game has changed: the status bar shows the game's opening (the name of the last
    /// named position it passed) if that is not what it shows, and is cleared when it showed an
    /// opening the game no longer has.
    fn show_opening(&mut self, ctx: &mut Context) {
        let name = opening_name(self.game().positions());
        if name != self.opening_shown {
            Nboard::send(ctx, Reply::Status(name.unwrap_or_default().to_string()));
            self.opening_shown = name;
        }
    }

    fn game(&self) -> Game {
        self.ggf.game()
    }

    fn position(&self) -> Position {
        self.ggf.position()
    }

    /// The clock of the side to move: what the GGF's clock leaves it.
    fn clock(&self) -> Option<Clock> {
        let color = self.position().side_to_move();
        let time = self.ggf.time_left(color)?;
        let increment = self.ggf.clock(color).map_or(Duration::ZERO, |c| c.increment);
        Some(Clock { time, increment, moves_to_go: None })
    }

    fn request(&self, pos: &Position, limits: &Limits, received: Instant, ctx: &Context) -> Box<SearchRequest> {
        let mut request = ctx.search_request(pos, limits, received);
        request.draw_score_for_black = self.contempt;
        request
    }

    /// Handles a command now (nothing is running or queued ahead of it).
    fn handle(&mut self, command: Command, received: Instant, ctx: &mut Context) -> Flow {
        match command {
            Command::Hello(_) => Nboard::send(ctx, Reply::MyName(format!("Magpie{}", self.depth))),
            Command::SetDepth(depth) => {
                self.depth = depth;
                Nboard::send(ctx, Reply::MyName(format!("Magpie{depth}")));
            }
            Command::SetGame(game) => {
                self.ggf = *game;
                ctx.new_game();
                self.show_opening(ctx);
            }
            Command::SetContempt(contempt) => self.contempt = contempt,
            Command::Move { mv, time } => match self.ggf.push_move(mv, None, time) {
                Ok(()) => self.show_opening(ctx),
                Err(e) => self.error(ctx, &format!("move: {e}")),
            },
            Command::Ping(n) => Nboard::send(ctx, Reply::Pong(n)),
            Command::Learn => self.learn(ctx),
            Command::Go => self.go(received, ctx),
            Command::Hint(n) => self.hint(n, received, ctx),
            Command::Analyze => self.analyze(received, ctx),
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    fn go(&mut self, received: Instant, ctx: &mut Context) {
        let pos = self.position();
        let limits = Limits { depth: Some(self.depth), clock: self.clock(), ..Limits::default() };
        let plan = ctx.plan(&pos, &limits, received);
        match plan {
            MovePlan::GameOver => self.error(ctx, "go: the game is over"),
            MovePlan::Immediate { mv, .. } => {
                Nboard::send(ctx, Reply::Move { mv, eval: None, time: received.elapsed().as_secs_f64() })
            }
            MovePlan::Book(play) => {
                let time = received.elapsed().as_secs_f64();
                Nboard::send(ctx, Reply::Move { mv: play.mv, eval: Some(play.value), time });
            }
            MovePlan::Search(mut request) => {
                request.draw_score_for_black = self.contempt;
                self.status(ctx, "Magpie is thinking".to_string());
                let id = ctx.start_search(request);
                self.job = Some(Job::Go { id, interrupted: false });
            }
        }
    }

    /// Searches the position (or, when the side to move must pass, the position after the pass)
    /// with no clock, to the set depth, reporting `n` lines at every depth. In a position the book
    /// holds, the book's moves come first, best first, as `book` lines; the other moves are
    /// searched only when fewer than `n` came from the book.
    fn hint(&mut self, n: usize, received: Instant, ctx: &mut Context) {
        let pos = self.position();
        if pos.is_game_over() {
            return self.error(ctx, "hint: the game is over");
        }
        let passed = pos.must_pass();
        let searched = if passed { pos.pass() } else { pos };
        let wanted = if passed { 1 } else { n };
        let plays = ctx.settings.playing_book().map_or_else(Vec::new, |book| book_moves(book, &searched));
        let mut excluded = 0u64;
        for play in plays.iter().take(wanted) {
            Nboard::send(ctx, book_line(play, pos.side_to_move(), passed));
            if let Move::Play(square) = play.mv {
                excluded |= 1 << square.index();
            }
        }
        let shown = plays.len().min(wanted);
        if shown > 0 && (shown == wanted || searched.legal_moves().0 & !excluded == 0) {
            return;
        }
        let mut request =
            self.request(&searched, &Limits { depth: Some(self.depth), ..Limits::default() }, received, ctx);
        request.multi_pv = wanted - shown;
        request.excluded = excluded;
        self.status(ctx, "Magpie is thinking".to_string());
        let id = ctx.start_search(request);
        self.job = Some(Job::Hint { id, mover: pos.side_to_move(), passed });
    }

    /// Adds the game to the book file given by `--book`, on the search thread; `learned` follows.
    /// Without a book file, or for a game the book cannot hold, the status bar says why and
    /// `learned` follows at once.
    fn learn(&mut self, ctx: &mut Context) {
        let game = self.game();
        let Some(path) = ctx.settings.book_file.clone() else {
            return self.decline_to_learn(ctx, "has no book file to learn into (start it with --book FILE)".into());
        };
        if let Some(why) = unlearnable(&game) {
            return self.decline_to_learn(ctx, format!("did not learn the game: {why}"));
        }
        let task = LearnTask {
            book: ctx.settings.book.clone().unwrap_or_default(),
            path,
            game,
            settings: ScoreSettings {
                depth: LEARN_DEPTH,
                selectivity: LEARN_SELECTIVITY,
                eval: Evaluator::with_weights(EvalKind::Pattern, Arc::clone(&ctx.settings.weights)),
            },
            max_ply: LEARN_PLIES,
        };
        self.status(ctx, "Magpie is learning the game".to_string());
        let id = ctx.start_learning(task);
        self.job = Some(Job::Learn { id, interrupted: false });
    }

    /// Answers a `learn` that learns nothing: the status bar says why, then `learned`.
    fn decline_to_learn(&mut self, ctx: &mut Context, why: String) {
        log::info!("not learning: Magpie {why}");
        self.status(ctx, format!("Magpie {why}"));
        Nboard::send(ctx, Reply::Learned);
    }

    /// A `learn` has ended: the grown book is the one in use from now on; the status bar says
    /// what was learnt, and `learned` follows unless a ping gave the request up.
    fn learned(&mut self, id: u64, learnt: Learnt, ctx: &mut Context) {
        let Some(Job::Learn { interrupted, .. }) = self.job.take_if(|job| job.id() == id) else { return };
        let file = learnt.path.display().to_string();
        if let Some(book) = learnt.book {
            ctx.settings.book = Some(Arc::new(book));
        }
        let summary = match &learnt.error {
            Some(e) => format!("Magpie error: learn: {}", one_line(e, MAX_ERROR_CHARS)),
            None => {
                let part = if learnt.stopped { " (stopped part-way)" } else { "" };
                format!("Magpie learnt the game{part}: {} new positions in {file}", learnt.added)
            }
        };
        log::info!("{summary}");
        if interrupted {
            self.status(ctx, String::new());
        } else {
            self.status(ctx, summary);
            Nboard::send(ctx, Reply::Learned);
        }
    }

    /// Starts the analysis of every position of the game, from the last one back.
    fn analyze(&mut self, received: Instant, ctx: &mut Context) {
        let game = self.game();
        let remaining: Vec<(usize, Position)> = game.positions().iter().copied().enumerate().collect();
        self.status(ctx, "Magpie is analysing the game".to_string());
        self.next_analysis(remaining, received, ctx);
    }

    /// Evaluates positions from the end of `remaining` until one needs a search (which is started)
    /// or none is left. Every evaluation is sent from Black's point of view, as NBoard plots it.
    fn next_analysis(&mut self, mut remaining: Vec<(usize, Position)>, received: Instant, ctx: &mut Context) {
        while let Some((moves_made, pos)) = remaining.pop() {
            if pos.is_game_over() {
                Nboard::send(ctx, Reply::Analysis { moves_made, eval: pos.final_score_for_black() * 100 });
                continue;
            }
            let passed = pos.must_pass();
            let searched = if passed { pos.pass() } else { pos };
            let request =
                self.request(&searched, &Limits { depth: Some(self.depth), ..Limits::default() }, received, ctx);
            let id = ctx.start_search(request);
            self.job = Some(Job::Analyze { id, moves_made, mover: pos.side_to_move(), passed, remaining });
            return;
        }
        self.job = None;
        self.status(ctx, String::new());
    }

    fn finished(&mut self, id: u64, result: SearchResult, ctx: &mut Context) {
        let Some(job) = self.job.take() else { return };
        if job.id() != id {
            self.job = Some(job);
            return;
        }
        match job {
            Job::Go { interrupted, .. } => {
                if !interrupted {
                    let eval = (result.info.depth > 0).then_some(result.info.score);
                    let time = result.info.time.as_secs_f64();
                    Nboard::send(ctx, Reply::Move { mv: result.best, eval, time });
                }
                self.status(ctx, String::new());
            }
            Job::Hint { .. } => self.status(ctx, String::new()),
            Job::Learn { .. } => self.job = Some(job),
            Job::Analyze { moves_made, mover, passed, remaining, .. } => {
                let interrupted = result.stopped.is_some();
                // The searched side's score, made the mover's (after a pass), then Black's.
                let for_mover = if passed { -result.info.score } else { result.info.score };
                let eval = if mover == Color::Black { for_mover } else { -for_mover };
                if !interrupted {
                    Nboard::send(ctx, Reply::Analysis { moves_made, eval });
                    self.next_analysis(remaining, Instant::now(), ctx);
                } else {
                    self.status(ctx, String::new());
                }
            }
        }
    }

    fn iteration(&mut self, id: u64, info: &SearchInfo, ctx: &mut Context) {
        match self.job {
            Some(Job::Hint { id: job_id, mover, passed }) if job_id == id => {
                let (pv, eval) = if passed {
                    (std::iter::once(Move::Pass).chain(info.pv.iter().copied()).collect(), -info.score)
                } else {
                    (info.pv.clone(), info.score)
                };
                let selective_solve = if info.solve && !info.exact { info.selectivity } else { None };
                Nboard::send(
                    ctx,
                    Reply::Search { pv, mover, eval, depth: info.depth, exact: info.exact, selective_solve },
                );
                if info.multipv.unwrap_or(1) == 1 {
                    Nboard::send(ctx, Reply::NodeStats { nodes: info.nodes, seconds: info.time.as_secs_f64() });
                }
            }
            Some(Job::Go { id: job_id, .. }) if job_id == id => {
                Nboard::send(ctx, Reply::NodeStats { nodes: info.nodes, seconds: info.time.as_secs_f64() });
            }
            _ => {}
        }
    }

    /// A search still running: its node count, so that the GUI's counter moves.
    fn progress(&mut self, id: u64, nodes: u64, time: Duration, ctx: &mut Context) {
        if self.job.as_ref().is_some_and(|job| job.id() == id) {
            Nboard::send(ctx, Reply::NodeStats { nodes, seconds: time.as_secs_f64() });
        }
    }

    /// A `ping` has arrived while a request runs or commands wait: every request older than it is
    /// given up. The running one is stopped (a `go` then answers nothing, an analysis stops); the
    /// waiting ones will be dropped unanswered. The state commands between them are still applied
    /// in order, so the `pong` follows as soon as the running search has stopped.
    fn ping_arrived(&mut self, ctx: &mut Context) {
        for queued in &mut self.queue {
            queued.stale |= is_request(&queued.command);
        }
        if let Some(job) = &mut self.job {
            match job {
                Job::Go { interrupted, .. } | Job::Learn { interrupted, .. } => *interrupted = true,
                Job::Analyze { remaining, .. } => remaining.clear(),
                Job::Hint { .. } => {}
            }
            ctx.stop_search();
        }
    }

    /// Handles queued commands in order until one starts a job.
    fn drain(&mut self, ctx: &mut Context) -> Flow {
        while self.job.is_none() {
            let Some(Queued { command, received, stale }) = self.queue.pop_front() else { break };
            if stale {
                log::debug!("dropping {command:?}: a later ping gave it up");
                continue;
            }
            // A request that waited starts its clock now, not when it was read.
            if self.handle(command, received.max(Instant::now()), ctx) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }
}

/// The `book` line of a book move of the position `mover` is to move in (after its pass when
/// `passed`: the line then starts with the pass, and the value is the mover's).
fn book_line(play: &BookPlay, mover: Color, passed: bool) -> Reply {
    let (pv, eval) = if passed {
        (std::iter::once(Move::Pass).chain(play.line.iter().copied()).collect(), -play.value)
    } else {
        (play.line.clone(), play.value)
    };
    Reply::Book { pv, mover, eval, games: play.games, depth: play.depth, exact: play.exact() }
}

impl Frontend for Nboard {
    type Command = Command;

    fn parse(line: &str) -> Option<Result<Command, String>> {
        parse(line)
    }

    fn on_command(&mut self, command: Command, received: Instant, ctx: &mut Context) -> Flow {
        if self.job.is_none() && self.queue.is_empty() {
            return self.handle(command, received, ctx);
        }
        // Something runs: the command waits its turn, so that no stale output follows a pong.
        if let Command::Ping(_) = command {
            self.ping_arrived(ctx);
        }
        self.queue.push_back(Queued { command, received, stale: false });
        self.drain(ctx)
    }

    fn on_parse_error(&mut self, message: String, ctx: &mut Context) -> Flow {
        self.error(ctx, &message);
        Flow::Continue
    }

    fn on_report(&mut self, report: Report, ctx: &mut Context) -> Flow {
        match report {
            Report::Iteration { id, info } => self.iteration(id, &info, ctx),
            Report::Progress { id, nodes, time } => self.progress(id, nodes, time, ctx),
            Report::Finished { id, result } => {
                self.finished(id, result, ctx);
                return self.drain(ctx);
            }
            Report::Learned { id, learnt } => {
                self.learned(id, *learnt, ctx);
                return self.drain(ctx);
            }
            Report::Perft { .. } => {}
        }
        Flow::Continue
    }

    fn on_eof(&mut self, ctx: &mut Context) -> Flow {
        // A `go` is bounded by its depth and clock and is answered, and a `learn` by the game's
        // opening; a hint or an analysis may run for long, so it is stopped, and so are the ones
        // still waiting.
        for queued in &mut self.queue {
            queued.stale |= matches!(queued.command, Command::Hint(_) | Command::Analyze);
        }
        if matches!(self.job, Some(Job::Hint { .. } | Job::Analyze { .. })) {
            if let Some(Job::Analyze { remaining, .. }) = &mut self.job {
                remaining.clear();
            }
            ctx.stop_search();
        }
        Flow::Continue
    }

    fn busy(&self) -> bool {
        self.job.is_some() || !self.queue.is_empty()
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
    fn commands_parse() {
        assert_eq!(ok("nboard 2"), Command::Hello(2));
        assert_eq!(ok("set depth 14"), Command::SetDepth(14));
        assert_eq!(ok("set contempt -100"), Command::SetContempt(-100));
        assert_eq!(ok("move F5//2.449"), Command::Move { mv: "f5".parse().unwrap(), time: Some(2.449) });
        assert_eq!(ok("move D6/0.00"), Command::Move { mv: "d6".parse().unwrap(), time: None });
        assert_eq!(ok("move PA"), Command::Move { mv: Move::Pass, time: None });
        assert_eq!(ok("move d3 -1.00 0.5"), Command::Move { mv: "d3".parse().unwrap(), time: Some(0.5) });
        assert_eq!(ok("hint 4"), Command::Hint(4));
        assert_eq!(ok("go"), Command::Go);
        assert_eq!(ok("ping 7"), Command::Ping("7".into()));
        assert_eq!(ok("learn"), Command::Learn);
        assert_eq!(ok("analyze"), Command::Analyze);
        assert_eq!(ok("quit"), Command::Quit);
        let Command::SetGame(game) = ok(
            "set game (;GM[Othello]PC[NBoard]DT[2014-02-08]PB[Human]PW[Magpie]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//2.449]W[F6/-1.00/0.01];)",
        ) else {
            panic!("set game")
        };
        assert_eq!(game.moves().len(), 2);
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(err("frobnicate").contains("'frobnicate'"));
        assert!(err("set depth x").contains("set"));
        assert!(err("set colour red").contains("'colour'"));
        assert!(err("move Z9").contains("Z9"));
        assert!(err("hint many").contains("'many'"));
        assert!(err("set game (;GM[Othello]BO[8 XX *]B[F5];)").starts_with("set game: "));
        assert!(err("go now").contains("'now'"));
    }

    #[test]
    fn replies_format() {
        let f5: Move = "f5".parse().unwrap();
        let d6: Move = "d6".parse().unwrap();
        assert_eq!(Reply::Move { mv: f5, eval: Some(150), time: 2.0 }.to_string(), "=== F5/1.50/2.00");
        assert_eq!(Reply::Move { mv: Move::Pass, eval: None, time: 0.0 }.to_string(), "=== PA//0.00");
        assert_eq!(
            Reply::Search {
                pv: vec![f5, d6, Move::Pass],
                mover: Color::Black,
                eval: -300,
                depth: 7,
                exact: false,
                selective_solve: None
            }
            .to_string(),
            "search F5d6PA -3.00 0 7"
        );
        let solved = Reply::Search {
            pv: vec![d6],
            mover: Color::White,
            eval: 400,
            depth: 12,
            exact: true,
            selective_solve: None,
        };
        assert_eq!(solved.to_string(), "search d6 4.00 0 100%");
        let Reply::Search { pv, mover, eval, depth, .. } = solved else { unreachable!() };
        let selective = Reply::Search { pv, mover, eval, depth, exact: false, selective_solve: Some(4) };
        assert_eq!(selective.to_string(), "search d6 4.00 0 12@87%");
        assert_eq!(Reply::Status(String::new()).to_string(), "status");
        let book =
            Reply::Book { pv: vec![f5, d6], mover: Color::Black, eval: -25, games: 120, depth: 18, exact: false };
        assert_eq!(book.to_string(), "book F5d6 -0.25 120 18");
        let play = BookPlay { mv: d6, value: 300, depth: 60, games: 2, line: vec![d6, f5] };
        assert_eq!(book_line(&play, Color::White, false).to_string(), "book d6F5 3.00 2 100%");
        assert_eq!(book_line(&play, Color::Black, true).to_string(), "book PAd6F5 -3.00 2 100%");
        assert_eq!(Reply::Learned.to_string(), "learned");
        assert_eq!(Reply::Analysis { moves_made: 12, eval: -25 }.to_string(), "analysis 12 -0.25");
        assert_eq!(Reply::NodeStats { nodes: 1000, seconds: 0.5 }.to_string(), "nodestats 1000 0.50");
    }
}
