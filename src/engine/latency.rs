//! The engine's safety margin on time: what it keeps in hand so that its answer reaches the client
//! before the client's clock runs out, grown from what it observes on the machine it runs on.
//!
//! Two delays are observed:
//! - *lateness*: how long after the search's hard deadline the answer was actually written (the
//!   search thread noticing the deadline, the report crossing to the engine loop, the write): on a
//!   loaded machine a thread may wait tens of milliseconds for a core;
//! - *lag*: what a client's clock charged beyond the time Magpie measured itself (the command
//!   waiting in the pipe before the reader thread read it, and the answer before the client read
//!   it). UGI clocks reveal it: the next `go` gives the time left, which can be compared with the
//!   time left before, the increment and the time Magpie used.
//!
//! Each estimate jumps up to a larger observation at once and decays slowly, so one slow moment
//! protects the next moves while an old one is forgotten; the margin is the configured move
//! overhead plus both estimates, capped.

use std::time::Duration;

/// The largest margin the observations can add (a client's own pauses must not make Magpie think
/// for nothing).
pub const MAX_OBSERVED: Duration = Duration::from_millis(1000);

/// The two observed delays, as decaying high-water marks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Latency {
    lateness: Duration,
    lag: Duration,
}

/// A high-water mark that decays by an eighth of the gap at each smaller observation.
fn mark(current: Duration, observed: Duration) -> Duration {
    let observed = observed.min(MAX_OBSERVED);
    if observed >= current { observed } else { current - (current - observed) / 8 }
}

impl Latency {
    /// An answer was written `late` after the search's hard deadline (zero when in time).
    pub fn observe_lateness(&mut self, late: Duration) {
        self.lateness = mark(self.lateness, late);
    }

    /// A client's clock charged `lag` more than Magpie measured for one move.
    pub fn observe_lag(&mut self, lag: Duration) {
        self.lag = mark(self.lag, lag);
    }

    /// The time to keep in hand: the configured `overhead` plus what was observed.
    pub fn margin(&self, overhead: Duration) -> Duration {
        overhead + (self.lateness + self.lag).min(MAX_OBSERVED)
    }

    /// The lag a clock reveals. Before a move the side had `before` (plus `increment` after it), it
    /// used `used` by Magpie's measure, and the client now says `after` is left: whatever the
    /// client charged beyond `used` is lag. `None` when the readings do not follow each other (a
    /// new game, a changed clock), which shows as more time left than expected.
    pub fn clock_lag(before: Duration, increment: Duration, used: Duration, after: Duration) -> Option<Duration> {
        let expected = (before + increment).checked_sub(used)?;
        let lag = expected.checked_sub(after)?;
        (lag <= MAX_OBSERVED * 5).then_some(lag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_margin_jumps_up_and_decays_slowly() {
        let mut latency = Latency::default();
        assert_eq!(latency.margin(ms(10)), ms(10));
        latency.observe_lateness(ms(40));
        assert_eq!(latency.margin(ms(10)), ms(50));
        latency.observe_lateness(ms(0));
        assert_eq!(latency.margin(ms(10)), ms(45));
        for _ in 0..100 {
            latency.observe_lateness(ms(0));
        }
        assert!(latency.margin(ms(10)) < ms(11));
        latency.observe_lag(ms(25));
        latency.observe_lateness(ms(5));
        assert_eq!(latency.margin(ms(10)), ms(40));
        // Absurd observations are capped.
        latency.observe_lag(Duration::from_secs(3600));
        assert_eq!(latency.margin(ms(10)), ms(10) + MAX_OBSERVED);
    }

    #[test]
    fn clock_readings_reveal_the_lag() {
        // 10 s left, 100 ms increment, 500 ms used, the client says 9.55 s: 50 ms of lag.
        assert_eq!(Latency::clock_lag(ms(10_000), ms(100), ms(500), ms(9_550)), Some(ms(50)));
        assert_eq!(Latency::clock_lag(ms(10_000), ms(100), ms(500), ms(9_600)), Some(ms(0)));
        // More left than expected: not a continuation (a new game).
        assert_eq!(Latency::clock_lag(ms(10_000), ms(0), ms(500), ms(60_000)), None);
        // Far less left than expected: not the same clock either.
        assert_eq!(Latency::clock_lag(ms(60_000), ms(0), ms(500), ms(1_000)), None);
    }
}
