//! The Go Text Protocol as Othello programs speak it: the Quarry GUI, GoGui in its rules-engine
//! mode, and the GTP match runners of Egaroucid and neural-reversi. The contract is the GTP section
//! of `protocol.md`.
//!
//! [`command`] parses a line into a [`Command`] (its optional numeric id and a [`Kind`]) on the
//! reader thread; [`reply`] formats an answer (`=[id] result` or `?[id] message`); [`Gtp`], here, is
//! the front end that keeps the game, the clocks and the genmove in progress.
//!
//! GTP is strictly sequential: every command gets exactly one answer, in the order the commands
//! came. Clients pipeline (Quarry sends `play` and `genmove` together), so while a `genmove` searches,
//! later commands wait in a queue and are handled once its answer is written.

pub mod command;
pub mod reply;

pub use command::{COMMANDS, Command, Kind, MAX_SECONDS, TimeSettings, parse};
pub use reply::{Reply, move_text, rules_board, rules_legal_moves, score_text};

use crate::board::{BoardSize, Color, Game, Move, Position};
use crate::engine::search_thread::Report;
use crate::engine::settings::MovePlan;
use crate::engine::{Context, Flow, Frontend};
use crate::formats::ascii_board;
use crate::quote::{MAX_ERROR_CHARS, one_line};
use crate::search::{Clock, Limits};
use reply::illegal_text;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

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
            MovePlan::Book(book) => {
                log::info!(
                    "playing {} from the book ({} centi-discs, depth {}, {} games)",
                    book.mv,
                    book.value,
                    book.depth,
                    book.games
                );
                Some(Ok(self.conclude(base, color, play, book.mv, start)))
            }
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
            Report::Perft { .. } | Report::Progress { .. } | Report::Learned { .. } => return Flow::Continue,
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
