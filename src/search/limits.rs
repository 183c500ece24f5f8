//! What bounds a search (depth, nodes, time, clock) and why a search ended early.

use std::fmt;
use std::time::{Duration, Instant};

/// The deepest a search can go, in plies: the end of any game.
pub const MAX_SEARCH_DEPTH: u32 = 60;

/// The depth a requested one comes to, the one rule of every protocol and of the command line: any
/// whole number is taken, 0 searching one ply and anything beyond [`MAX_SEARCH_DEPTH`] (99, say)
/// searching to the end.
pub fn search_depth(requested: u64) -> u32 {
    requested.clamp(1, u64::from(MAX_SEARCH_DEPTH)) as u32
}

/// The limits a client puts on one search. Several may be given; the first reached ends it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies (a pass is free).
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// The side to move's clock, from which the engine budgets its own time.
    pub clock: Option<Clock>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Once the search reaches the end of the game, solve for win, draw or loss only.
    pub wld: bool,
}

/// A game clock seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the side to move's clock.
    pub time: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// Why a search stopped before finishing its last iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The client asked (`stop`, NBoard `ping`, end of input).
    Stopped,
    /// The time budget ran out.
    Time,
    /// The node budget ran out.
    Nodes,
    /// The engine is quitting: the result will not be reported.
    Quit,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::Stopped => "stopped",
            StopReason::Time => "time",
            StopReason::Nodes => "nodes",
            StopReason::Quit => "quit",
        })
    }
}

/// The most of a hard limit kept in hand besides the move overhead (2% of the limit up to this).
pub const MAX_RESERVE: Duration = Duration::from_millis(100);

/// From this many empty squares down, a search has no deadline: the exact solve takes a fraction
/// of a millisecond, so the last moves are solved rather than guessed however little time is left.
/// On a clock of 0.72 s a game against NTest (600 games), Magpie's clock was down to the time
/// it keeps in hand by the last moves, which then came from a depth-1 search (with a floor of 2
/// ms from the moment the command was read, the thread waiting for a core on a loaded machine
/// could still start after it) and lost discs at 12 to 3 empties in 7 games (`magpie review`).
pub const QUICK_SOLVE_EMPTIES: u32 = 10;

/// The time plan of one search: when to stop starting new iterations (`soft`) and when to abort
/// (`hard`). Both count from the moment the command was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Deadlines {
    /// Do not start an iteration after this.
    pub soft: Option<Instant>,
    /// Abort the search at this instant.
    pub hard: Option<Instant>,
}

impl Deadlines {
    /// The plan for `limits`, for a position with `empties` empty squares, counted from `start`,
    /// keeping `overhead` in hand for the reply to reach the client.
    pub fn plan(limits: &Limits, empties: u32, start: Instant, overhead: Duration) -> Deadlines {
        if limits.infinite || empties <= QUICK_SOLVE_EMPTIES {
            return Deadlines::default();
        }
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        if let Some(movetime) = limits.movetime {
            let t = movetime.saturating_sub(overhead);
            soft = Some(t);
            hard = Some(t);
        }
        if let Some(clock) = limits.clock {
            let (s, h) = clock_budget(&clock, empties, overhead);
            soft = Some(soft.map_or(s, |x| x.min(s)));
            hard = Some(hard.map_or(h, |x| x.min(h)));
        }
        // A share of the time is kept in hand besides the overhead: a thread that waits for a core
        // on a loaded machine loses a fixed part of a second, and GTP's whole-second periods leave
        // no other room.
        let hard = hard.map(|h| h - (h / 50).min(MAX_RESERVE));
        let soft = match (soft, hard) {
            (Some(s), Some(h)) => Some(s.min(h)),
            (s, _) => s,
        };
        // A limit too far away to be represented (a client's absurd movetime) is no limit.
        Deadlines { soft: soft.and_then(|d| start.checked_add(d)), hard: hard.and_then(|d| start.checked_add(d)) }
    }
}

/// The share of a sudden-death clock a move gets, by the empty squares at the root, in tenths of
/// an early move's, for a plan whose exact solve is expected `shift` empties earlier than at a
/// second a game (see [`solve_shift`]). Time pays most just before the exact solve comes within
/// reach: on 480 positions of 21 to 29 empties from games against NTest, 300 ms a move rather
/// than 100 lost 0.39 discs less a move at 21-23 empties, 0.16 at 24-26 and 0.07 at 27-29, where
/// twice the time a move for the whole game gained about 12 Elo against NTest. Moves from
/// [`LATE_EMPTIES`] (plus the shift) down are mostly solved already, so the plan counts little for
/// them (3, or 1 once the solve is expected early: what they are planned goes unused); the one
/// that is not solved gets a large share of what is left all the same (see `clock_budget`). The
/// smaller boards, which start with 12 or 32 empties, use the same table.
pub fn move_weight(empties: u32, shift: u32) -> u32 {
    match empties.saturating_sub(shift) {
        0..=LATE_EMPTIES if shift > 0 => 1,
        0..=LATE_EMPTIES => 3,
        20..=23 => 6 * EARLY_WEIGHT,
        24..=26 => 25,
        27..=29 => 15,
        _ => EARLY_WEIGHT,
    }
}

/// The time a move at which the plan expects the solve where [`move_weight`]'s table puts it.
const SHIFT_FROM: Duration = Duration::from_millis(60);

/// How many empties earlier than [`move_weight`]'s table the exact solve is expected with
/// `per_move` a move: none up to 0.06 s, then about one and a half empties for each
/// doubling of the time, at most 8. With more time a move the solve fits in earlier, the moves
/// after it cost nothing, and the time the table keeps for them went unused: in games against
/// NTest, Magpie's solves came at 20-22 empties at 0.04 s a move, 22-23 at 0.25 s, 24-25 at 0.7 s
/// and 26 at 1.5 s (its time by empties, read from the GGF), and with the table unshifted it left
/// 13% of a 22 s clock and 16% of a 45 s one unused. With the faster solver of version 0.12 the
/// solves came at 24 empties at 3.9 s a game and 26 at 24 s, and shifting from 0.25 s a move
/// still left 14% and 13% of those clocks unused; from 0.06 s (with the smaller late weights and
/// reserve of a shifted plan) 8% and 6% (`magpie match` against the plan shifted from 0.25 s, 60
/// and 20 games: 3.60 s a game against 3.34, 22.7 s against 20.9, no time lost).
pub fn solve_shift(per_move: Duration) -> u32 {
    let ratio = per_move.as_secs_f64() / SHIFT_FROM.as_secs_f64();
    if ratio <= 1.0 { 0 } else { (1.5 * ratio.log2()).round().min(8.0) as u32 }
}

/// The [`move_weight`] of a move from 30 empties up; one such share is kept in reserve (a smaller
/// one, [`SHIFTED_RESERVE`], once the solve is expected early).
const EARLY_WEIGHT: u32 = 10;

/// The weight kept in reserve by a plan that expects the solve early (a shift above 0): the moves
/// after the solve cost nothing, and at these clocks a reserve of a whole early share was left
/// unused at the end of the game.
const SHIFTED_RESERVE: u32 = 4;

/// From this many empty squares down, a move may take a third of the time left (the hard limit
/// half of it), whatever its planned share. A position the earlier solves left solved costs
/// nothing, as the search ends with the exact solve; one they did not (the opponent left the
/// solved line where only a bound was proved, or the solve at 20-23 empties did not finish) needs
/// a solve of a few milliseconds to a few hundred. With its planned share alone, at a clock of
/// 1.3 s a game against NTest, such a move got 3 to 8 ms and lost 2 to 10 discs in 8 of 60 games
/// (0.33 discs a game from 11 to 16 empties, where the exact solve takes 10 to 20 ms).
pub const LATE_EMPTIES: u32 = 19;

/// The share of the time left a move from [`LATE_EMPTIES`] down may take: one part in this many.
const LATE_SHARE: u32 = 3;

/// Soft and hard budgets from a clock.
///
/// Sudden death (no `moves_to_go`): the side to move plays every other move from `empties` down;
/// the time left (plus most of the increments to come) is shared over those moves in proportion
/// to their [`move_weight`], with one early move more kept in reserve ([`SHIFTED_RESERVE`] once
/// the solve is expected early); the hard limit allows four times that, but never more than half
/// of what is left (the moves after a solve cost nothing).
/// From [`LATE_EMPTIES`] down, the soft budget is at least a third of what is left.
///
/// A period (`moves_to_go`, as in byo-yomi): the time is for the next few moves only, then the
/// clock is refilled, so it is shared over those moves with no reserve; the last move of a period
/// may use all of it.
fn clock_budget(clock: &Clock, empties: u32, overhead: Duration) -> (Duration, Duration) {
    let available = clock.time.saturating_sub(overhead);
    let my_moves = (empties.div_ceil(2)).max(1);
    // Saturating arithmetic: the clock comes from the client, and absurd values must not overflow.
    let increment = clock.increment.saturating_mul(3) / 4;
    let (soft, hard) = match clock.moves_to_go {
        Some(period) => {
            let moves = period.clamp(1, my_moves);
            let soft = (available / moves).saturating_add(increment);
            let hard = if moves == 1 { available } else { soft.saturating_mul(3).min(available / 2) };
            (soft, hard)
        }
        None => {
            let shift = solve_shift(available / my_moves);
            let mine = move_weight(empties, shift);
            let reserve = if shift > 0 { SHIFTED_RESERVE } else { EARLY_WEIGHT };
            let total: u32 =
                (0..my_moves).map(|i| move_weight(empties.saturating_sub(2 * i), shift)).sum::<u32>() + reserve;
            let mut soft = (available / total).saturating_mul(mine).saturating_add(increment);
            if empties <= LATE_EMPTIES {
                soft = soft.max(available / LATE_SHARE);
            }
            let hard = soft.saturating_mul(4).min((available / 2).saturating_add(clock.increment / 2));
            (soft, hard)
        }
    };
    let hard = hard.max(soft.min(available)).min(available);
    (soft.min(hard), hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_both_limits() {
        let start = Instant::now();
        let limits = Limits { movetime: Some(Duration::from_millis(100)), ..Limits::default() };
        let d = Deadlines::plan(&limits, 40, start, Duration::from_millis(5));
        // 95 ms after the overhead, less 2% kept in hand.
        assert_eq!(d.hard, Some(start + Duration::from_micros(93_100)));
        assert_eq!(d.soft, d.hard);
        // The share kept in hand stops growing at MAX_RESERVE.
        let limits = Limits { movetime: Some(Duration::from_secs(60)), ..Limits::default() };
        let d = Deadlines::plan(&limits, 40, start, Duration::ZERO);
        assert_eq!(d.hard, Some(start + Duration::from_secs(60) - MAX_RESERVE));
    }

    #[test]
    fn the_last_moves_have_no_deadline() {
        let start = Instant::now();
        let overhead = Duration::from_millis(10);
        let clock = Limits {
            clock: Some(Clock { time: Duration::from_millis(8), increment: Duration::ZERO, moves_to_go: None }),
            ..Limits::default()
        };
        // 8 ms left, all of it kept in hand: nothing for a move at 30 empties, no limit near the end.
        assert_eq!(Deadlines::plan(&clock, 30, start, overhead).hard, Some(start));
        assert_eq!(Deadlines::plan(&clock, QUICK_SOLVE_EMPTIES + 1, start, overhead).hard, Some(start));
        assert_eq!(Deadlines::plan(&clock, QUICK_SOLVE_EMPTIES, start, overhead), Deadlines::default());
        let movetime = Limits { movetime: Some(Duration::from_millis(3)), ..Limits::default() };
        assert_eq!(Deadlines::plan(&movetime, 4, start, overhead), Deadlines::default());
    }

    #[test]
    fn clock_budget_stays_inside_the_clock() {
        for ms in [1u64, 10, 100, 1000, 10_000, 300_000] {
            for empties in [1, 10, 30, 60] {
                for (inc, moves_to_go) in [(0u64, None), (100, None), (2000, None), (0, Some(1)), (500, Some(7))] {
                    let clock =
                        Clock { time: Duration::from_millis(ms), increment: Duration::from_millis(inc), moves_to_go };
                    let (soft, hard) = clock_budget(&clock, empties, Duration::from_millis(10));
                    assert!(soft <= hard, "{ms} {empties} {inc}");
                    assert!(hard <= clock.time, "{ms} {empties} {inc}: {hard:?}");
                }
            }
        }
        let clock = Clock { time: Duration::from_secs(60), increment: Duration::ZERO, moves_to_go: None };
        let (soft, _) = clock_budget(&clock, 40, Duration::ZERO);
        assert!(soft > Duration::from_secs(1) && soft < Duration::from_secs(5), "{soft:?}");
    }

    #[test]
    fn a_sudden_death_clock_goes_to_the_moves_before_the_solve() {
        // One side's moves of a game from the start to 20 empties, each taking its soft budget.
        let mut left = Duration::from_millis(1300);
        let mut used = Vec::new();
        for empties in (20..=60).rev().step_by(2) {
            let clock = Clock { time: left, increment: Duration::ZERO, moves_to_go: None };
            let (soft, hard) = clock_budget(&clock, empties, Duration::ZERO);
            assert!(soft <= hard && hard <= left, "{empties}: {soft:?} {hard:?} {left:?}");
            used.push((empties, soft));
            left -= soft;
        }
        let at = |e: u32| used.iter().find(|(empties, _)| *empties == e).unwrap().1;
        assert!(at(22) > 4 * at(50), "{:?} {:?}", at(22), at(50));
        assert!(at(26) > at(40));
        // What the plan keeps for the moves after is left over.
        assert!(left > Duration::from_millis(30), "{left:?}");
        // Those moves are planned at a small share, but one that comes unsolved may take a
        // third of what is left, and half at the hard limit.
        let clock = Clock { time: left, increment: Duration::ZERO, moves_to_go: None };
        let (soft, hard) = clock_budget(&clock, 18, Duration::ZERO);
        assert_eq!(soft, left / 3);
        assert_eq!(hard, left / 2);
        assert!(soft > at(40), "{soft:?} {:?}", at(40));
    }

    /// One side's time a game by empties when every move takes its soft budget.
    fn spent_by_empties(game: Duration) -> (Vec<(u32, Duration)>, Duration) {
        let mut left = game;
        let mut used = Vec::new();
        for empties in (1..=60).rev().step_by(2) {
            let clock = Clock { time: left, increment: Duration::ZERO, moves_to_go: None };
            let (soft, _) = clock_budget(&clock, empties, Duration::ZERO);
            used.push((empties, soft));
            left -= soft;
        }
        (used, left)
    }

    #[test]
    fn a_longer_clock_expects_the_solve_earlier() {
        assert_eq!(solve_shift(Duration::from_millis(40)), 0);
        assert_eq!(solve_shift(SHIFT_FROM), 0);
        assert_eq!(solve_shift(Duration::from_millis(130)), 2);
        assert_eq!(solve_shift(Duration::from_millis(800)), 6);
        assert_eq!(solve_shift(Duration::from_secs(3600)), 8);
        // At a second a game the plan is the table's; at a minute its heaviest moves come earlier.
        let at = |used: &[(u32, Duration)], e: u32| used.iter().find(|(empties, _)| *empties == e).unwrap().1;
        let (fast, _) = spent_by_empties(Duration::from_secs(1));
        assert!(at(&fast, 22) > at(&fast, 26) && at(&fast, 26) > at(&fast, 42), "{fast:?}");
        let (slow, _) = spent_by_empties(Duration::from_secs(60));
        assert!(at(&slow, 26) > at(&slow, 22) && at(&slow, 26) > at(&slow, 42), "{slow:?}");
        // Before 20 empties a minute's plan has spent more of its clock than a second's.
        let share = |used: &[(u32, Duration)], game: Duration| {
            used.iter().filter(|(e, _)| *e > 19).map(|(_, d)| d.as_secs_f64()).sum::<f64>() / game.as_secs_f64()
        };
        assert!(share(&slow, Duration::from_secs(60)) > share(&fast, Duration::from_secs(1)) + 0.05);
    }

    #[test]
    fn a_plan_that_expects_the_solve_early_keeps_little_for_after_it() {
        // One side's moves of a 24 s game, each taking its soft budget, until the solve at 26
        // empties; the moves after it take nothing, so what is left then goes unused. With the
        // late weights of 3 and a reserve of 10 it was 29% of the clock.
        let game = Duration::from_secs(24);
        let mut left = game;
        for empties in (26..=60).rev().step_by(2) {
            let clock = Clock { time: left, increment: Duration::ZERO, moves_to_go: None };
            left -= clock_budget(&clock, empties, Duration::ZERO).0;
        }
        assert!(left < game / 5, "{left:?}");
        // The late moves of a shifted plan weigh less than an unshifted plan's.
        assert_eq!(move_weight(18, 0), 3);
        assert_eq!(move_weight(20, 2), 1);
    }

    #[test]
    fn a_period_for_one_move_may_all_be_used() {
        // Byo-yomi of 3 s for 1 move (Quarry's per-move time): use it all but the overhead.
        let clock = Clock { time: Duration::from_secs(3), increment: Duration::ZERO, moves_to_go: Some(1) };
        let (soft, hard) = clock_budget(&clock, 40, Duration::from_millis(10));
        assert_eq!(hard, Duration::from_millis(2990));
        assert_eq!(soft, hard);
        // 10 s for 5 moves: about 2 s each, at most half the period on one move.
        let clock = Clock { time: Duration::from_secs(10), increment: Duration::ZERO, moves_to_go: Some(5) };
        let (soft, hard) = clock_budget(&clock, 40, Duration::ZERO);
        assert_eq!(soft, Duration::from_secs(2));
        assert_eq!(hard, Duration::from_secs(5));
        // A period longer than the game: shared over the moves left.
        let clock = Clock { time: Duration::from_secs(10), increment: Duration::ZERO, moves_to_go: Some(40) };
        let (soft, _) = clock_budget(&clock, 4, Duration::ZERO);
        assert_eq!(soft, Duration::from_secs(5));
    }

    #[test]
    fn absurd_limits_do_not_overflow() {
        let limits = Limits { movetime: Some(Duration::from_millis(u64::MAX)), ..Limits::default() };
        let d = Deadlines::plan(&limits, 30, Instant::now(), Duration::ZERO);
        assert!(d.hard.is_none() || d.hard > Some(Instant::now()));
        let clock = Clock { time: Duration::MAX, increment: Duration::MAX, moves_to_go: Some(u32::MAX) };
        let limits = Limits { clock: Some(clock), ..Limits::default() };
        let _ = Deadlines::plan(&limits, 30, Instant::now(), Duration::ZERO);
    }

    #[test]
    fn infinite_has_no_deadline() {
        let limits = Limits { infinite: true, movetime: Some(Duration::from_millis(1)), ..Limits::default() };
        assert_eq!(Deadlines::plan(&limits, 10, Instant::now(), Duration::ZERO), Deadlines::default());
    }
}
