//! Magpie's own protocol: UCI-shaped, compatible with UGI clients such as the cutegames match
//! runner, and natural for a person typing. The contract is written in `protocol.md`.
//!
//! [`command`] parses a line into a [`Command`]; [`reply`] formats each kind of answer; [`Ugi`],
//! here, is the front end that keeps the game, queues what arrives during a search and drives the
//! search through the engine loop.

pub mod command;
pub mod reply;

pub use command::{Command, ConsoleCommand, GoParams, MAX_PERFT, Query, parse};
pub use reply::Reply;

use crate::board::{BoardSize, Color, Game, Move, Position};
use crate::book::default_book;
use crate::book::names::opening_name;
use crate::engine::book::{BookPlay, read_book};
use crate::engine::search_thread::Report;
use crate::engine::settings::{
    MAX_BOOK_RANDOMNESS, MAX_BOOK_SEED, MAX_HASH_MIB, MAX_LEVEL, MAX_THREADS, MIN_HASH_MIB, MovePlan,
};
use crate::engine::{Context, Flow, Frontend, Latency};
use crate::eval::EvalKind;
use crate::eval::network::{Network, Quantized};
use crate::eval::weights::Weights;
use crate::formats::{ascii_board, discs_text, spaced_moves};
use crate::quote::{MAX_ERROR_CHARS, Quoted, clipped, one_line};
use crate::search::{Clock, Limits, MAX_SELECTIVITY, SearchInfo, SearchResult, search_depth, unsearched};
use std::collections::VecDeque;
use std::ops::RangeInclusive;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The job whose answer is owed to the client.
#[derive(Debug)]
enum Active {
    /// A search; `infinite` ones hold their answer until `stop`.
    Search {
        id: u64,
        infinite: bool,
        /// A `go wld`: its solved scores are win/draw/loss bounds.
        wld: bool,
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
const HELP: [&str; 24] = [
    "Magpie speaks a UCI-shaped protocol (UGI); see protocol.md. Commands:",
    "  ugi | uci                       identify, list the options, answer ugiok (uciok)",
    "  isready                         answer readyok (at once, even while searching)",
    "  setoption name N value V        Eval, Weights (a file, or <embedded>), Network (a file, or <none>),",
    "                                  Level (0-10), MoveOverhead (ms),",
    "                                  BoardSize (4, 6, 8), MultiPV, Selectivity (0 off to 5, ProbCut),",
    "                                  Hash (table size in MiB, 1-65536), Threads (1-256), Book (a file,",
    "                                  <default> or <none>), OwnBook (true, false), BookRandomness (discs),",
    "                                  BookSeed (0: from the clock)",
    "  uginewgame                      start a new game (forget earlier searches)",
    "  position startpos [moves ...]   the start position, then moves (f5 d6, or pass)",
    "  position fen <64 squares> <X|O> [moves ...]   a position as text (X black, O white, - empty)",
    "  go [movetime ms] [depth n] [nodes n] [p1time ms p2time ms p1inc ms p2inc ms movestogo n] [infinite]",
    "                                  answer bestmove: from the book, or by a search (no limit: 1 s)",
    "     [wld]                        solve the end for win, draw or loss only",
    "  stop                            stop the search and answer bestmove now",
    "  query p1turn|gameover|result    answer response ...",
    "  d                               show the board (and the opening's name, if the game has one)",
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
    /// Whether a person at a terminal is playing ([`crate::protocol::console`]): `go` then plays
    /// its answer on the board, and `play`, `undo`, `redo` and `new` are understood.
    console: bool,
    /// The moves taken back by `undo`, last taken back last; each entry one move with the passes
    /// that came before it.
    redo: Vec<Vec<Move>>,
    /// Whether the answer now owed is to be played on the board (a console's `go`).
    play_answer: bool,
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
            console: false,
            redo: Vec::new(),
            play_answer: false,
        }
    }
}

impl Ugi {
    /// The front end of the console: the protocol as a person plays it at a terminal.
    pub fn console() -> Ugi {
        Ugi { console: true, ..Ugi::default() }
    }

    fn send(ctx: &mut Context, reply: Reply) {
        ctx.line(&reply.to_string());
    }

    fn error(ctx: &mut Context, message: impl Into<String>) {
        Ugi::send(ctx, Reply::Error(one_line(&message.into(), MAX_ERROR_CHARS)));
    }

    fn set_option(&mut self, name: &str, value: &str, ctx: &mut Context) {
        let bad = |what: &str| format!("setoption {}: {} is not {what}", clipped(name), Quoted(value));
        let spin = |range: RangeInclusive<usize>, what: &str| spin_value(name, value, range, what);
        match name.to_ascii_lowercase().replace(' ', "").as_str() {
            "eval" => match value.parse::<EvalKind>() {
                Ok(kind) => ctx.settings.eval = kind,
                Err(e) => Ugi::error(ctx, format!("setoption Eval: {e}")),
            },
            "weights" => {
                let weights = match value.trim() {
                    "" | "<embedded>" => Ok(Weights::embedded()),
                    path => Weights::read(Path::new(path)).map(Arc::new),
                };
                let checked = weights.and_then(|weights| {
                    let network = ctx.settings.network.as_ref();
                    let check = network.map_or(Ok(()), |net| net.check_base(&weights));
                    check.map(|()| weights).map_err(|e| format!("{}: {e}", Quoted(value)))
                });
                match checked {
                    Ok(weights) => ctx.settings.weights = weights,
                    Err(e) => Ugi::error(ctx, format!("setoption Weights: {e}")),
                }
            }
            "network" => match value.trim() {
                "" | "<none>" => ctx.settings.network = None,
                path => {
                    let read = Network::read(Path::new(path)).and_then(|net| {
                        let quantized = Quantized::new(&net);
                        quantized.check_base(&ctx.settings.weights).map_err(|e| format!("{path}: {e}"))?;
                        Ok(Arc::new(quantized))
                    });
                    match read {
                        Ok(net) => ctx.settings.network = Some(net),
                        Err(e) => Ugi::error(ctx, format!("setoption Network: {e}")),
                    }
                }
            },
            "level" => match spin(0..=usize::from(MAX_LEVEL), "a level") {
                Ok(level) => ctx.settings.level = level as u8,
                Err(e) => Ugi::error(ctx, e),
            },
            "moveoverhead" => match spin(0..=5000, "a number of milliseconds") {
                Ok(ms) => ctx.settings.move_overhead = Duration::from_millis(ms as u64),
                Err(e) => Ugi::error(ctx, e),
            },
            "selectivity" => match spin(0..=usize::from(MAX_SELECTIVITY), "a selectivity level") {
                Ok(level) => ctx.settings.selectivity = level as u8,
                Err(e) => Ugi::error(ctx, e),
            },
            "multipv" => match spin(1..=64, "a number of lines") {
                Ok(n) => ctx.settings.multi_pv = n,
                Err(e) => Ugi::error(ctx, e),
            },
            "boardsize" => match value.parse::<usize>().ok().and_then(BoardSize::from_side) {
                Some(size) => self.board_size = size,
                None => Ugi::error(ctx, bad("a board size (4, 6 or 8)")),
            },
            "hash" => match spin(MIN_HASH_MIB..=MAX_HASH_MIB, "a table size in MiB") {
                Ok(mib) => {
                    if let Err(e) = ctx.set_hash(mib) {
                        Ugi::error(ctx, format!("setoption {}: {e}", clipped(name)));
                    }
                }
                Err(e) => Ugi::error(ctx, e),
            },
            "threads" => match spin(1..=MAX_THREADS, "a number of threads") {
                Ok(threads) => ctx.set_threads(threads),
                Err(e) => Ugi::error(ctx, e),
            },
            "book" => match book_value(value) {
                BookValue::Default => (ctx.settings.book, ctx.settings.book_file) = (Some(default_book()), None),
                BookValue::None => (ctx.settings.book, ctx.settings.book_file) = (None, None),
                BookValue::File(path) => match read_book(Path::new(path)) {
                    Ok(book) => {
                        ctx.settings.book = Some(Arc::new(book));
                        ctx.settings.book_file = Some(path.into());
                    }
                    Err(e) => Ugi::error(ctx, format!("setoption {}: {e}", clipped(name))),
                },
            },
            "ownbook" => match check_value(value) {
                Some(on) => ctx.settings.own_book = on,
                None => Ugi::error(ctx, bad("true or false")),
            },
            "bookrandomness" => match spin(0..=MAX_BOOK_RANDOMNESS as usize, "a number of discs") {
                Ok(discs) => ctx.settings.book_randomness = discs as u32 * 100,
                Err(e) => Ugi::error(ctx, e),
            },
            "bookseed" => match value.trim() {
                "" => ctx.set_book_seed(None),
                _ => match spin(0..=MAX_BOOK_SEED as usize, "a seed") {
                    Ok(seed) => ctx.set_book_seed(Some(seed as u64).filter(|&s| s != 0)),
                    Err(e) => Ugi::error(ctx, e),
                },
            },
            _ => Ugi::error(ctx, format!("unknown option {}", Quoted(name))),
        }
    }

    fn set_position(&mut self, start: Option<Position>, moves: &[Move], ctx: &mut Context) {
        let mut game = Game::new(start.unwrap_or(Position::start(self.board_size)));
        match game.play_all(moves) {
            Ok(()) => {
                self.game = game;
                self.redo.clear();
            }
            Err((index, e)) => Ugi::error(ctx, format!("position: move {} ({}): {e}", index + 1, moves[index])),
        }
    }

    /// The limits of `go` for the side to move. Only the mover's clock counts; a `go` that sets no
    /// limit for the mover (none at all, or only the opponent's clock, or only `movestogo`) thinks
    /// for the default time rather than forever.
    fn limits(&self, go: &GoParams, default_movetime: Duration) -> Limits {
        let ms = Duration::from_millis;
        let (time, inc) = self.mover_clock(go);
        Limits {
            depth: go.depth.map(search_depth),
            nodes: go.nodes,
            movetime: go.movetime.map(ms).or((!self.bounds_the_mover(go)).then_some(default_movetime)),
            clock: time.map(|t| Clock {
                time: ms(t),
                increment: ms(inc.unwrap_or(0)),
                moves_to_go: go.movestogo.map(|m| m.min(1000) as u32),
            }),
            infinite: go.infinite,
            wld: go.wld,
        }
    }

    /// The mover's clock and increment in `go`.
    fn mover_clock(&self, go: &GoParams) -> (Option<u64>, Option<u64>) {
        match self.game.position().side_to_move() {
            Color::Black => (go.p1time, go.p1inc),
            Color::White => (go.p2time, go.p2inc),
        }
    }

    /// Whether `go` sets any limit for the side to move.
    fn bounds_the_mover(&self, go: &GoParams) -> bool {
        go.infinite
            || go.movetime.is_some()
            || go.depth.is_some()
            || go.nodes.is_some()
            || self.mover_clock(go).0.is_some()
    }

    /// Starts a `go`; `stopped` when a `stop` already came after it (it then answers at once with
    /// what the search has, as does an infinite `go` after the end of input).
    fn go(&mut self, go: &GoParams, received: Instant, stopped: bool, ctx: &mut Context) {
        let limits = self.limits(go, ctx.settings.default_movetime);
        if let Some(clock) = &limits.clock {
            self.read_clock(clock, received, ctx);
        }
        let stop_now = stopped || (limits.infinite && self.eof);
        let pos = *self.game.position();
        match ctx.plan(&pos, &limits, received) {
            MovePlan::Book(play) => {
                // A book move is played at once, with the book's line in place of a search's.
                Ugi::send(ctx, Reply::BookMove(play.clone()));
                Ugi::send(ctx, Reply::Info { info: book_info(&play, received), wld: false });
                self.best_move(Some(play.mv), ctx);
            }
            MovePlan::Search(request) => {
                if !self.bounds_the_mover(go) {
                    let side = pos.side_to_move().symbol();
                    let ms = ctx.settings.default_movetime.as_millis();
                    Ugi::send(ctx, Reply::InfoString(format!("go: no limit for {side} to move: thinking {ms} ms")));
                }
                let id = ctx.start_search(request);
                if stop_now {
                    ctx.stop_search();
                }
                self.active = Some(Active::Search {
                    id,
                    infinite: limits.infinite,
                    wld: limits.wld,
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
            Some(Active::Search { id, infinite, wld, held: None, lines, .. }) => {
                ctx.stop_search();
                self.active = Some(Active::Search { id, infinite, wld, stop_requested: true, held: None, lines });
            }
            Some(perft @ Active::Perft { .. }) => {
                ctx.stop_search();
                self.active = Some(perft);
            }
            None => {}
        }
    }

    fn iteration(&mut self, id: u64, info: SearchInfo, ctx: &mut Context) {
        let Some(Active::Search { id: active, wld, lines, .. }) = &mut self.active else { return };
        if *active != id {
            return;
        }
        let wld = *wld;
        if info.multipv.unwrap_or(1) == 1 {
            lines.clear();
        }
        lines.push(info.clone());
        Ugi::send(ctx, Reply::Info { info, wld });
    }

    fn finish(&mut self, id: u64, result: SearchResult, ctx: &mut Context) {
        let Some(Active::Search { id: active_id, infinite, wld, stop_requested, held, lines }) = &mut self.active
        else {
            return;
        };
        if *active_id != id {
            return;
        }
        for info in final_lines(&result, lines) {
            Ugi::send(ctx, Reply::Info { info, wld: *wld });
        }
        if *infinite && !*stop_requested {
            // An infinite search answers only after `stop`.
            *held = Some(Some(result.best));
            lines.clear();
            return;
        }
        self.active = None;
        self.best_move(Some(result.best), ctx);
    }

    /// Writes `bestmove`, and notes when for the clock's lag. A console's `go` then plays the
    /// move on the board and shows it.
    fn best_move(&mut self, answer: Option<Move>, ctx: &mut Context) {
        Ugi::send(ctx, Reply::BestMove(answer));
        if let Some(reading) = &mut self.last_clock {
            reading.answered.get_or_insert_with(Instant::now);
        }
        if std::mem::take(&mut self.play_answer)
            && let Some(mv) = answer
        {
            match self.game.play(mv) {
                Ok(()) => {
                    self.redo.clear();
                    self.display(ctx);
                }
                Err(e) => Ugi::error(ctx, format!("go: {e}")),
            }
        }
    }

    /// A console command: the board changed by a person, then shown.
    fn console_command(&mut self, command: ConsoleCommand, ctx: &mut Context) {
        match command {
            ConsoleCommand::Play(moves) => {
                let mut game = self.game.clone();
                if let Err((i, e)) = game.play_all(&moves) {
                    return Ugi::error(ctx, format!("play: move {} ({}): {e}", i + 1, moves[i]));
                }
                self.game = game;
                self.redo.clear();
            }
            ConsoleCommand::Undo(n) => {
                let mut undone = 0;
                while undone < n {
                    // One move, and the passes played after it.
                    let mut taken = Vec::new();
                    while let Some(mv) = self.game.undo() {
                        taken.insert(0, mv);
                        if mv != Move::Pass {
                            break;
                        }
                    }
                    if taken.is_empty() {
                        break;
                    }
                    self.redo.push(taken);
                    undone += 1;
                }
                if undone == 0 {
                    return Ugi::error(ctx, "undo: no move to take back");
                }
            }
            ConsoleCommand::Redo(n) => {
                if self.redo.is_empty() {
                    return Ugi::error(ctx, "redo: no move taken back to play again");
                }
                for _ in 0..n {
                    let Some(moves) = self.redo.pop() else { break };
                    if let Err((i, e)) = self.game.play_all(&moves) {
                        self.redo.clear();
                        return Ugi::error(ctx, format!("redo: move {} ({}): {e}", i + 1, moves[i]));
                    }
                }
            }
            ConsoleCommand::New => {
                self.game = Game::new(Position::start(self.board_size));
                self.last_clock = None;
                self.redo.clear();
                ctx.new_game();
            }
        }
        self.display(ctx);
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
        if let Some(name) = opening_name(self.game.positions()) {
            ctx.line(&format!("opening: {name}"));
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

    /// The evaluation and its parts; for a finished game, the final score instead. The game's
    /// opening comes first when it has passed a named one.
    fn eval(&self, ctx: &mut Context) {
        if let Some(name) = opening_name(self.game.positions()) {
            Ugi::send(ctx, Reply::InfoString(format!("opening: {name}")));
        }
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
        let evaluator = ctx.settings.evaluator();
        let kind = evaluator.kind();
        ctx.line(&format!(
            "info string eval: raw is {}; cp is the term's share of the score, in centi-discs for the side to move",
            evaluator.raw_meaning(pos)
        ));
        for part in evaluator.parts(pos) {
            ctx.line(&format!("eval {} raw {} cp {}", part.name, part.raw, part.score));
        }
        let cp = evaluator.evaluate(pos);
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
                self.redo.clear();
                ctx.new_game();
            }
            Command::Position { start, moves } => self.set_position(start, &moves, ctx),
            Command::Go(go) => {
                self.play_answer = self.console && !go.infinite;
                self.go(&go, received, stopped, ctx);
            }
            Command::Stop => self.stop(ctx),
            Command::Quit => return Flow::Quit,
            Command::Query(query) => self.query(query, ctx),
            Command::Display => self.display(ctx),
            Command::Moves => self.legal_moves(ctx),
            Command::Eval => self.eval(ctx),
            Command::Perft(depth) => self.perft(depth, stopped, ctx),
            Command::Help => {
                HELP.iter().for_each(|line| ctx.line(line));
                if self.console {
                    crate::protocol::console::HELP.iter().for_each(|line| ctx.line(line));
                }
            }
            Command::Console(command) => self.console_command(command, ctx),
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

/// What the `Book` option's value asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BookValue<'a> {
    /// The book built into the binary: `<default>` or an empty value.
    Default,
    /// No book: `<none>`.
    None,
    /// A book file.
    File(&'a str),
}

/// The `Book` option's value.
fn book_value(value: &str) -> BookValue<'_> {
    match value.trim() {
        "" | "<default>" => BookValue::Default,
        "<none>" => BookValue::None,
        path => BookValue::File(path),
    }
}

/// The value of a check option: `true` or `false`, in any case.
fn check_value(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// The `info` line of a book move: no search (depth, nodes and time 0 but the time taken), the
/// book's value and its line.
fn book_info(play: &BookPlay, received: Instant) -> SearchInfo {
    let mut info = unsearched(play.mv, play.value, received.elapsed()).info;
    info.pv = play.line.clone();
    info
}

/// The value of a spin option named `name`: a whole number within `range`, or the error that names
/// the value and the range: `setoption Threads: '0' is not a number of threads (1 to 256)`.
fn spin_value(name: &str, value: &str, range: RangeInclusive<usize>, what: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(format!(
            "setoption {}: {} is not {what} ({} to {})",
            clipped(name),
            Quoted(value),
            range.start(),
            range.end()
        )),
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

impl Frontend for Ugi {
    type Command = Command;

    fn parse(line: &str) -> Option<Result<Command, String>> {
        parse(line)
    }

    fn on_command(&mut self, command: Command, received: Instant, ctx: &mut Context) -> Flow {
        match command {
            // These act at once, even while a job runs. A stop that answers a held answer frees
            // the commands waiting behind it.
            Command::Stop => {
                self.stop(ctx);
                return self.drain(ctx);
            }
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
            // Iterations are the progress UGI shows; UGI does not learn.
            Report::Progress { .. } | Report::Learned { .. } => {}
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

    #[test]
    fn book_options_read_their_values() {
        assert_eq!(book_value(""), BookValue::Default);
        assert_eq!(book_value(" <default> "), BookValue::Default);
        assert_eq!(book_value("<none>"), BookValue::None);
        assert_eq!(book_value("books/my book.book"), BookValue::File("books/my book.book"));
        assert_eq!(check_value("true"), Some(true));
        assert_eq!(check_value("FALSE"), Some(false));
        assert_eq!(check_value("yes"), None);
        assert_eq!(check_value(""), None);
        assert_eq!(spin_value("BookRandomness", "2", 0..=64, "a number of discs"), Ok(2));
        assert_eq!(
            spin_value("BookRandomness", "1.5", 0..=64, "a number of discs"),
            Err("setoption BookRandomness: '1.5' is not a number of discs (0 to 64)".to_string())
        );
        assert!(spin_value("BookSeed", "2147483648", 0..=MAX_BOOK_SEED as usize, "a seed").is_err());
    }

    #[test]
    fn spin_values_are_whole_numbers_in_range() {
        assert_eq!(spin_value("Hash", "128", 1..=65536, "a table size in MiB"), Ok(128));
        assert_eq!(spin_value("Hash", "+1", 1..=65536, "a table size in MiB"), Ok(1));
        assert_eq!(
            spin_value("Hash", "0", 1..=65536, "a table size in MiB"),
            Err("setoption Hash: '0' is not a table size in MiB (1 to 65536)".to_string())
        );
        assert_eq!(
            spin_value("threads", "999", 1..=256, "a number of threads"),
            Err("setoption threads: '999' is not a number of threads (1 to 256)".to_string())
        );
        assert_eq!(
            spin_value("Threads", "two", 1..=256, "a number of threads"),
            Err("setoption Threads: 'two' is not a number of threads (1 to 256)".to_string())
        );
        assert_eq!(
            spin_value("Threads", "", 1..=256, "a number of threads"),
            Err("setoption Threads: '' is not a number of threads (1 to 256)".to_string())
        );
        assert!(spin_value("Hash", "-5", 1..=65536, "a table size in MiB").unwrap_err().contains("'-5'"));
        assert!(
            spin_value("Hash", "99999999999999999999999", 1..=65536, "a table size in MiB")
                .unwrap_err()
                .contains("'99999999999999999999999'")
        );
    }
}
