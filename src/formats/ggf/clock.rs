//! Clocks, the values of the `TI`, `TB` and `TW` tags: [`Clock`] and the `[d.]h:m:s` times it is
//! written in.

use super::text::Quoted;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A GGS clock, the value of `TI`, `TB` and `TW`: `main[/increment[/grace]]`.
///
/// Each time is `[d.]h:m:s` with the leading parts optional (`15:00` is fifteen minutes,
/// `1.00:00:00` one day, `30` thirty seconds); the seconds may carry a fraction (`00:30.5`). The
/// increment is added after each move; the grace is extra time once the main time has run out
/// (120 seconds when not written).
///
/// Printing follows NBoard: each time as `mm:ss`, `h:mm:ss` or `d.hh:mm:ss` (the shortest that
/// holds it, minutes always two digits), the increment only when not zero and the grace only when
/// not 120 s, an empty increment standing for zero: `05:00//02:00` prints as `05:00`, a 5-minute
/// clock with 10 s increment and 1 minute grace as `05:00/00:10/01:00`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    /// The time at the start of the game.
    pub main: Duration,
    /// The time added after each move.
    pub increment: Duration,
    /// The extra time allowed once the main time has run out.
    pub grace: Duration,
}

impl Clock {
    /// The grace when none is written: two minutes.
    pub const DEFAULT_GRACE: Duration = Duration::from_secs(120);

    /// A clock with `main` time, no increment and the default grace.
    pub const fn new(main: Duration) -> Clock {
        Clock { main, increment: Duration::ZERO, grace: Clock::DEFAULT_GRACE }
    }
}

impl Default for Clock {
    /// The 15-minute clock NBoard gives a new game.
    fn default() -> Clock {
        Clock::new(Duration::from_secs(15 * 60))
    }
}

/// A clock value that is not `[d.]h:m:s[/[d.]h:m:s[/[d.]h:m:s]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseClockError {
    /// The offending part (the whole value when it has too many parts).
    pub token: String,
}

impl fmt::Display for ParseClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a time (expected [d.]h:m:s, e.g. 15:00, optionally /increment/grace)", Quoted(&self.token))
    }
}

impl std::error::Error for ParseClockError {}

/// Reads one `[d.]h:m:s[.fraction]` time.
fn parse_duration(text: &str) -> Option<Duration> {
    let parts: Vec<&str> = text.trim().split(':').collect();
    let count = parts.len();
    if count > 3 {
        return None;
    }
    let number = |s: &str| -> Option<u64> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    // Horner's rule over the parts: days * 24 + hours, * 60 + minutes, * 60 + seconds.
    let mut total: u64 = 0;
    let mut nanos: u32 = 0;
    for (i, &part) in parts.iter().enumerate() {
        let mut part = part;
        // Days stand only in front of the hours, so only with all three parts.
        if i == 0
            && count == 3
            && let Some((days, hours)) = part.split_once('.')
        {
            total = number(days)?.checked_mul(24)?;
            part = hours;
        }
        if i + 1 == count
            && let Some((whole, fraction)) = part.split_once('.')
        {
            if fraction.is_empty() || fraction.len() > 9 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            nanos = format!("{fraction:0<9}").parse().ok()?;
            part = whole;
        }
        let scale = if i == 0 { 1 } else { 60 };
        total = total.checked_mul(scale)?.checked_add(number(part)?)?;
    }
    Some(Duration::new(total, nanos))
}

/// Writes a time as `mm:ss`, `h:mm:ss` or `d.hh:mm:ss`, with the fraction of a second if any.
fn format_duration(d: Duration) -> String {
    let total = d.as_secs();
    let (days, hours, minutes, seconds) = (total / 86_400, total / 3600 % 24, total / 60 % 60, total % 60);
    let mut text = if days > 0 {
        format!("{days}.{hours:02}:{minutes:02}:{seconds:02}")
    } else if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes:02}:{seconds:02}")
    };
    if d.subsec_nanos() != 0 {
        let fraction = format!("{:09}", d.subsec_nanos());
        text.push('.');
        text.push_str(fraction.trim_end_matches('0'));
    }
    text
}

impl FromStr for Clock {
    type Err = ParseClockError;

    /// Reads `main[/increment[/grace]]`; an empty increment is zero, an empty or missing grace
    /// is [`Clock::DEFAULT_GRACE`].
    fn from_str(text: &str) -> Result<Clock, ParseClockError> {
        let mut parts = text.split('/');
        let time = |part: &str| parse_duration(part).ok_or_else(|| ParseClockError { token: part.to_string() });
        let main = time(parts.next().unwrap_or_default())?;
        let increment = match parts.next() {
            Some(part) if !part.trim().is_empty() => time(part)?,
            _ => Duration::ZERO,
        };
        let grace = match parts.next() {
            Some(part) if !part.trim().is_empty() => time(part)?,
            _ => Clock::DEFAULT_GRACE,
        };
        if parts.next().is_some() {
            return Err(ParseClockError { token: text.to_string() });
        }
        Ok(Clock { main, increment, grace })
    }
}

impl fmt::Display for Clock {
    /// `15:00`, `05:00/00:10`, `05:00//01:00` (see the type's documentation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_duration(self.main))?;
        let default_grace = self.grace == Clock::DEFAULT_GRACE;
        if !self.increment.is_zero() || !default_grace {
            f.write_str("/")?;
            if !self.increment.is_zero() {
                f.write_str(&format_duration(self.increment))?;
            }
        }
        if !default_grace {
            write!(f, "/{}", format_duration(self.grace))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ggf::testing::{error, secs};
    use proptest::prelude::*;

    #[test]
    fn clocks_in_all_forms() {
        let clock = |s: &str| s.parse::<Clock>().unwrap_or_else(|e| panic!("{s}: {e}"));
        let full = |main, increment, grace| Clock { main: secs(main), increment: secs(increment), grace: secs(grace) };
        assert_eq!(clock("15:00"), Clock::new(secs(900)));
        assert_eq!(clock("05:00//02:00"), full(300, 0, 120));
        assert_eq!(clock("1.00:00:00"), Clock::new(secs(86_400)));
        assert_eq!(clock("2.03:04:05"), Clock::new(secs(2 * 86_400 + 3 * 3600 + 4 * 60 + 5)));
        assert_eq!(clock("1:00:00"), Clock::new(secs(3600)));
        assert_eq!(clock("30"), Clock::new(secs(30)));
        assert_eq!(clock("10:00/5/1:00"), full(600, 5, 60));
        assert_eq!(clock("10:00/00:05"), full(600, 5, 120));
        assert_eq!(clock("10:00//"), full(600, 0, 120));
        assert_eq!(clock(" 90:00 "), Clock::new(secs(5400)));
        assert_eq!(clock("00:30.25").main, Duration::from_millis(30_250));
        assert_eq!(clock("1.5").main, Duration::from_millis(1500));

        assert_eq!(full(900, 0, 120).to_string(), "15:00");
        assert_eq!(full(300, 0, 120).to_string(), "05:00");
        assert_eq!(full(30, 0, 120).to_string(), "00:30");
        assert_eq!(full(3661, 0, 120).to_string(), "1:01:01");
        assert_eq!(full(86_400, 0, 120).to_string(), "1.00:00:00");
        assert_eq!(full(300, 10, 120).to_string(), "05:00/00:10");
        assert_eq!(full(300, 0, 60).to_string(), "05:00//01:00");
        assert_eq!(full(300, 10, 0).to_string(), "05:00/00:10/00:00");
        assert_eq!(Clock::new(Duration::from_millis(30_250)).to_string(), "00:30.25");

        for bad in ["1x:00", "", "1:2:3:4", "1.5:00", ":30", "1:", "-5", "00:30.", "0.1234567891", "1/2/3/4"] {
            assert!(bad.parse::<Clock>().is_err(), "{bad}");
        }
        assert_eq!("1x:00".parse::<Clock>(), Err(ParseClockError { token: "1x:00".to_string() }));
        assert!(error("(;TI[1x:00];)").starts_with("TI: '1x:00' is not a time"));
        assert!(error("(;TB[5:00/x];)").starts_with("TB: 'x' is not a time"));
        assert!("99999999999999999999:00".parse::<Clock>().is_err());
    }

    #[test]
    fn clocks_round_trip() {
        for main in [0, 1, 59, 60, 61, 3599, 3600, 86_399, 86_400, 1_000_000] {
            for (increment, grace) in [(0, 120), (5, 120), (0, 0), (7, 300)] {
                let c = Clock { main: secs(main), increment: secs(increment), grace: secs(grace) };
                assert_eq!(c.to_string().parse(), Ok(c), "{c}");
            }
        }
        let c = Clock { main: Duration::new(5, 1), increment: Duration::new(0, 500_000_000), grace: secs(120) };
        assert_eq!(c.to_string().parse(), Ok(c), "{c}");
    }

    proptest! {
        #[test]
        fn clock_reads_back_what_it_writes(text in "[0-9:./+-]{0,16}") {
            if let Ok(c) = text.parse::<Clock>() {
                prop_assert_eq!(c.to_string().parse::<Clock>(), Ok(c));
            }
        }
    }
}
