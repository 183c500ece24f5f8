//! The referee: plays one game between two engines, keeping the rules and the clocks itself. An
//! engine that answers an illegal move, crashes, hangs, prints garbage or overruns its time loses
//! the game, and the reason is recorded.

use super::engine::{Clocks, Engine, EngineError, SideTime, allowance, gtp_seconds, secs};
use super::openings::Opening;
use super::spec::TimeControl;
use crate::board::{Color, Game, Move};
use crate::protocol::Protocol;
use std::fmt;
use std::time::Duration;

/// Why a game ended before its natural end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// The engine answered a move the rules do not allow (a pass while it could move included):
    /// the referee's message.
    Illegal(String),
    /// The engine exited or closed its output: how it ended.
    Crash(String),
    /// The engine did not answer within its time, the margin and its latency allowance: the
    /// time taken and the time allowed.
    Time(String),
    /// The engine answered something that is not a move.
    Garbage(String),
    /// The engine could not be started or set up.
    Setup(String),
}

impl Forfeit {
    /// Whether the engine should be restarted before its next game.
    pub fn needs_restart(&self) -> bool {
        !matches!(self, Forfeit::Illegal(_))
    }

    /// The kind of forfeit, as counted in the report and written first in the GGF's `RS` tag.
    pub fn kind(&self) -> &'static str {
        match self {
            Forfeit::Illegal(_) => "illegal move",
            Forfeit::Crash(_) => "crash",
            Forfeit::Time(_) => "time",
            Forfeit::Garbage(_) => "garbage",
            Forfeit::Setup(_) => "setup",
        }
    }

    /// What happened, in the referee's words (may be empty for games read from older files).
    pub fn details(&self) -> &str {
        match self {
            Forfeit::Illegal(text)
            | Forfeit::Crash(text)
            | Forfeit::Time(text)
            | Forfeit::Garbage(text)
            | Forfeit::Setup(text) => text,
        }
    }

    /// The forfeit of `kind` (as [`Forfeit::kind`] names it) with `details`.
    pub fn from_kind(kind: &str, details: String) -> Forfeit {
        match kind {
            "time" => Forfeit::Time(details),
            "crash" => Forfeit::Crash(details),
            "garbage" => Forfeit::Garbage(details),
            "setup" => Forfeit::Setup(details),
            _ => Forfeit::Illegal(details),
        }
    }

    fn from_error(error: EngineError) -> Forfeit {
        match error {
            EngineError::Spawn(e) => Forfeit::Setup(e),
            EngineError::Crashed(how) => Forfeit::Crash(how),
            EngineError::Timeout(what) => Forfeit::Time(what),
            EngineError::Garbage(line) => Forfeit::Garbage(line),
        }
    }
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, details) = match self {
            Forfeit::Illegal(what) => return f.write_str(what),
            Forfeit::Crash(how) => ("crashed", how),
            Forfeit::Time(what) => ("lost on time", what),
            Forfeit::Garbage(line) => ("garbage", line),
            Forfeit::Setup(e) => ("setup failed", e),
        };
        if details.is_empty() { f.write_str(what) } else { write!(f, "{what}: {details}") }
    }
}

/// A move of the record: the move, the engine's evaluation (discs for the mover), its time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// The mover's evaluation in discs, when given.
    pub eval: Option<f64>,
    /// Seconds taken (none for opening moves and forced passes).
    pub time: Option<f64>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Played to the end: Black's final disc difference, empties to the winner.
    Finished(i32),
    /// The engine playing `loser` forfeited.
    Forfeit {
        /// Who lost.
        loser: Color,
        /// Why.
        reason: Forfeit,
    },
}

/// How one side used its time: the moves it was asked for and answered in its allowance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timing {
    /// Moves answered in time.
    pub moves: u32,
    /// Of those, the moves that took longer than the time control itself (let through by the
    /// margin and the latency allowance).
    pub over: u32,
    /// The largest of those overruns.
    pub max_over: Duration,
    /// The longest move.
    pub longest: Duration,
    /// The largest latency allowance a move was given.
    pub max_latency: Duration,
    /// The time of all those moves together.
    pub total: Duration,
}

impl Timing {
    /// Adds another game's timing.
    pub fn merge(&mut self, other: &Timing) {
        self.moves += other.moves;
        self.over += other.over;
        self.max_over = self.max_over.max(other.max_over);
        self.longest = self.longest.max(other.longest);
        self.max_latency = self.max_latency.max(other.max_latency);
        self.total += other.total;
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The game's start (before the opening moves).
    pub opening: Opening,
    /// Every move after the start, opening moves included.
    pub moves: Vec<PlayedMove>,
    /// How it ended.
    pub ending: Ending,
    /// How Black and White used their time.
    pub timing: [Timing; 2],
}

/// The index of `color` in [`GameRecord::timing`].
pub fn side(color: Color) -> usize {
    usize::from(color == Color::White)
}

/// Time an engine is allowed for a move before the margin and the latency allowance: its time
/// control's share, or its clock.
fn allowed(time: SideTime, protocol: Protocol, hang_timeout: Duration) -> Duration {
    match time.tc {
        // GTP only knows whole seconds; the engine was told the rounded-up time.
        TimeControl::MoveTime(t) if protocol == Protocol::Gtp => Duration::from_secs(gtp_seconds(t)),
        TimeControl::MoveTime(t) => t,
        TimeControl::Clock { .. } => time.left,
        TimeControl::Depth(_) => hang_timeout,
    }
}

/// The clock increment of a time control (zero but for clocks).
fn increment(tc: TimeControl) -> Duration {
    match tc {
        TimeControl::Clock { increment, .. } => increment,
        _ => Duration::ZERO,
    }
}

/// Plays a game from `opening` between `black` and `white`, each on its own time control. A move
/// is lost on time when it takes longer than its time (the time per move, or the clock) +
/// `margin` + the engine's latency allowance; with a depth, the time is `hang_timeout`.
pub fn play_game(
    black: &mut Engine,
    white: &mut Engine,
    opening: &Opening,
    margin: Duration,
    hang_timeout: Duration,
) -> GameRecord {
    let mut game: Game = opening.game();
    let mut moves: Vec<PlayedMove> = game.moves().iter().map(|&mv| PlayedMove { mv, eval: None, time: None }).collect();
    let mut timing = [Timing::default(); 2];
    let size = opening.start.size();
    let forfeit = |loser: Color, reason: Forfeit, moves: Vec<PlayedMove>, timing: [Timing; 2]| GameRecord {
        opening: opening.clone(),
        moves,
        ending: Ending::Forfeit { loser, reason },
        timing,
    };
    for (color, engine) in [(Color::Black, &mut *black), (Color::White, &mut *white)] {
        if let Err(e) = engine.new_game(size) {
            return forfeit(color, Forfeit::from_error(e), moves, timing);
        }
    }
    // The clocks follow GGF's rule (which NBoard engines apply to the game they are sent): every
    // move of a side, opening moves and passes included, adds the increment.
    let start_time = |tc: TimeControl| SideTime {
        tc,
        left: match tc {
            TimeControl::Clock { main, .. } => main,
            _ => Duration::ZERO,
        },
    };
    let mut clocks = Clocks { black: start_time(black.tc), white: start_time(white.tc) };
    for pos in &game.positions()[..game.moves().len()] {
        let time = clocks.of_mut(pos.side_to_move());
        time.left += increment(time.tc);
    }
    loop {
        let pos = *game.position();
        if pos.is_game_over() {
            return GameRecord {
                opening: opening.clone(),
                moves,
                ending: Ending::Finished(pos.final_score_for_black()),
                timing,
            };
        }
        let color = pos.side_to_move();
        if pos.must_pass() {
            // The referee knows the rules: a forced pass is played without asking.
            let _ = game.play_strict(Move::Pass);
            let time = clocks.of_mut(color);
            time.left += increment(time.tc);
            moves.push(PlayedMove { mv: Move::Pass, eval: None, time: None });
            continue;
        }
        let engine = if color == Color::Black { &mut *black } else { &mut *white };
        let limit = allowed(clocks.of(color), engine.spec.protocol, hang_timeout);
        let times: Vec<Option<f64>> = moves.iter().map(|m| m.time).collect();
        let answer = match engine.request_move(&game, &times, &clocks, limit, margin) {
            Ok(answer) => answer,
            Err(e) => return forfeit(color, Forfeit::from_error(e), moves, timing),
        };
        let spent = answer.spent;
        if spent > limit + margin + answer.latency {
            let what = format!("took {} > {}", secs(spent), allowance(limit, margin, answer.latency));
            return forfeit(color, Forfeit::Time(what), moves, timing);
        }
        if let Err(e) = game.play_strict(answer.mv) {
            return forfeit(color, Forfeit::Illegal(e.to_string()), moves, timing);
        }
        let t = &mut timing[side(color)];
        t.moves += 1;
        if spent > limit {
            t.over += 1;
            t.max_over = t.max_over.max(spent - limit);
        }
        t.longest = t.longest.max(spent);
        t.total += spent;
        t.max_latency = t.max_latency.max(answer.latency);
        let time = clocks.of_mut(color);
        time.left = time.left.saturating_sub(spent) + increment(time.tc);
        // Milliseconds are all a record needs.
        let seconds = (spent.as_secs_f64() * 1000.0).round() / 1000.0;
        moves.push(PlayedMove { mv: answer.mv, eval: answer.eval, time: Some(seconds) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forfeits_read_back_from_their_kind_and_details() {
        for f in [
            Forfeit::Illegal("illegal move d4".into()),
            Forfeit::Crash("exited with status 3".into()),
            Forfeit::Time("took 2.000 s".into()),
            Forfeit::Garbage("bestmove xyzzy".into()),
            Forfeit::Setup("cannot start".into()),
        ] {
            assert_eq!(Forfeit::from_kind(f.kind(), f.details().to_string()), f);
        }
        assert_eq!(Forfeit::Crash("exited with status 3".into()).to_string(), "crashed: exited with status 3");
        assert_eq!(Forfeit::Crash(String::new()).to_string(), "crashed");
    }

    #[test]
    fn allowances() {
        let ms = Duration::from_millis;
        let movetime = SideTime { tc: TimeControl::MoveTime(ms(50)), left: Duration::ZERO };
        assert_eq!(allowed(movetime, Protocol::Ugi, ms(9000)), ms(50));
        assert_eq!(allowed(movetime, Protocol::Gtp, ms(9000)), ms(1000), "GTP counts whole seconds");
        let clock = SideTime { tc: TimeControl::Clock { main: ms(5000), increment: ms(10) }, left: ms(1234) };
        assert_eq!(allowed(clock, Protocol::Nboard, ms(9000)), ms(1234));
        let depth = SideTime { tc: TimeControl::Depth(3), left: Duration::ZERO };
        assert_eq!(allowed(depth, Protocol::Ugi, ms(9000)), ms(9000));
    }
}
