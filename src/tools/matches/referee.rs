//! The referee: plays one game between two engines, keeping the rules and the clocks itself. An
//! engine that answers an illegal move, crashes, hangs, prints garbage or overruns its time loses
//! the game, and the reason is recorded.

use super::engine::{Clocks, Engine, EngineError, gtp_seconds};
use super::openings::Opening;
use super::spec::TimeControl;
use crate::board::{Color, Game, Move};
use crate::protocol::Protocol;
use std::fmt;
use std::time::{Duration, Instant};

/// Why a game ended before its natural end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// The engine answered a move the rules do not allow (a pass while it could move included):
    /// the referee's message.
    Illegal(String),
    /// The engine exited.
    Crash,
    /// The engine did not answer within its time and the margin.
    Time,
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

    fn from_error(error: EngineError) -> Forfeit {
        match error {
            EngineError::Spawn(e) => Forfeit::Setup(e),
            EngineError::Crashed => Forfeit::Crash,
            EngineError::Timeout => Forfeit::Time,
            EngineError::Garbage(line) => Forfeit::Garbage(line),
        }
    }
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forfeit::Illegal(what) => f.write_str(what),
            Forfeit::Crash => f.write_str("crashed"),
            Forfeit::Time => f.write_str("lost on time"),
            Forfeit::Garbage(line) => write!(f, "garbage: {line}"),
            Forfeit::Setup(e) => write!(f, "setup failed: {e}"),
        }
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

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The game's start (before the opening moves).
    pub opening: Opening,
    /// Every move after the start, opening moves included.
    pub moves: Vec<PlayedMove>,
    /// How it ended.
    pub ending: Ending,
}

/// Time an engine is allowed for a move: its time control's share, or its clock.
fn allowed(tc: &TimeControl, protocol: Protocol, clock: Duration, hang_timeout: Duration) -> Duration {
    match tc {
        // GTP only knows whole seconds; the engine was told the rounded-up time.
        TimeControl::MoveTime(t) if protocol == Protocol::Gtp => Duration::from_secs(gtp_seconds(*t)),
        TimeControl::MoveTime(t) => *t,
        TimeControl::Clock { .. } => clock,
        TimeControl::Depth(_) => hang_timeout,
    }
}

/// Plays a game from `opening` between `black` and `white`.
pub fn play_game(
    black: &mut Engine,
    white: &mut Engine,
    opening: &Opening,
    tc: &TimeControl,
    margin: Duration,
    hang_timeout: Duration,
) -> GameRecord {
    let mut game: Game = opening.game();
    let mut moves: Vec<PlayedMove> = game.moves().iter().map(|&mv| PlayedMove { mv, eval: None, time: None }).collect();
    let size = opening.start.size();
    let forfeit = |loser: Color, reason: Forfeit, moves: Vec<PlayedMove>| GameRecord {
        opening: opening.clone(),
        moves,
        ending: Ending::Forfeit { loser, reason },
    };
    for (color, engine) in [(Color::Black, &mut *black), (Color::White, &mut *white)] {
        if let Err(e) = engine.new_game(tc, size) {
            return forfeit(color, Forfeit::from_error(e), moves);
        }
    }
    // The clocks follow GGF's rule (which NBoard engines apply to the game they are sent): every
    // move of a side, opening moves and passes included, adds the increment.
    let increment = match tc {
        TimeControl::Clock { increment, .. } => *increment,
        _ => Duration::ZERO,
    };
    let mut clocks = match tc {
        TimeControl::Clock { main, .. } => Clocks { black: *main, white: *main },
        _ => Clocks { black: Duration::ZERO, white: Duration::ZERO },
    };
    for pos in &game.positions()[..game.moves().len()] {
        *clocks.of_mut(pos.side_to_move()) += increment;
    }
    loop {
        let pos = *game.position();
        if pos.is_game_over() {
            return GameRecord {
                opening: opening.clone(),
                moves,
                ending: Ending::Finished(pos.final_score_for_black()),
            };
        }
        let color = pos.side_to_move();
        if pos.must_pass() {
            // The referee knows the rules: a forced pass is played without asking.
            let _ = game.play_strict(Move::Pass);
            *clocks.of_mut(color) += increment;
            moves.push(PlayedMove { mv: Move::Pass, eval: None, time: None });
            continue;
        }
        let engine = if color == Color::Black { &mut *black } else { &mut *white };
        let limit = allowed(tc, engine.spec.protocol, clocks.of(color), hang_timeout);
        let started = Instant::now();
        let deadline = started + limit + margin;
        let times: Vec<Option<f64>> = moves.iter().map(|m| m.time).collect();
        let answer = engine.request_move(&game, &times, tc, &clocks, deadline);
        let spent = started.elapsed();
        let answer = match answer {
            Ok(answer) => answer,
            Err(e) => return forfeit(color, Forfeit::from_error(e), moves),
        };
        if spent > limit + margin {
            return forfeit(color, Forfeit::Time, moves);
        }
        if let Err(e) = game.play_strict(answer.mv) {
            return forfeit(color, Forfeit::Illegal(e.to_string()), moves);
        }
        let clock = clocks.of_mut(color);
        *clock = clock.saturating_sub(spent) + increment;
        // Milliseconds are all a record needs.
        let time = (spent.as_secs_f64() * 1000.0).round() / 1000.0;
        moves.push(PlayedMove { mv: answer.mv, eval: answer.eval, time: Some(time) });
    }
}
