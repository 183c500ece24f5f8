//! The command line's numbers, read by one rule, the protocols' (protocol.md, "Numbers, in every
//! protocol"): decimal digits with an optional `+`. A value outside an option's range, a negative
//! one among them, is refused naming the range (`'-1' … expected a whole number from 1 to 256`);
//! search depths are the exception, taken as the protocols take them ([`search_depth`]).

use crate::search::{MAX_SEARCH_DEPTH, search_depth};
use std::ops::{Bound, RangeBounds};

/// The parser of a whole number in `range`, as the type `T` of the option (which must hold the
/// whole range).
pub fn count<T>(range: impl RangeBounds<u64>) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    let low = match range.start_bound() {
        Bound::Included(&n) => n,
        Bound::Excluded(&n) => n + 1,
        Bound::Unbounded => 0,
    };
    let high = match range.end_bound() {
        Bound::Included(&n) => Some(n),
        Bound::Excluded(&n) => Some(n - 1),
        Bound::Unbounded => None,
    };
    move |text: &str| {
        let expected = || match high {
            Some(high) => format!("expected a whole number from {low} to {high}"),
            None => format!("expected a whole number, {low} or more"),
        };
        let n = text.parse::<u64>().map_err(|_| expected())?;
        if n < low || high.is_some_and(|high| n > high) {
            return Err(expected());
        }
        T::try_from(n).map_err(|_| expected())
    }
}

/// A search depth in plies: any whole number, 0 searching one ply and anything beyond 60 searching
/// to the end, as `go depth` and NBoard's `set depth` take it.
pub fn parse_search_depth(text: &str) -> Result<u32, String> {
    text.parse::<u64>().map(search_depth).map_err(|_| {
        format!("expected a depth in plies, a whole number (0 is 1; beyond {MAX_SEARCH_DEPTH}, to the end)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_read_as_the_protocols_read_them_and_refused_with_their_range() {
        let threads = count::<u64>(1..=256);
        assert_eq!(threads("8"), Ok(8));
        assert_eq!(threads("+8"), Ok(8));
        for bad in ["-1", "0", "257", "1.5", "two", "", " 8", "99999999999999999999"] {
            assert_eq!(threads(bad), Err("expected a whole number from 1 to 256".to_string()), "{bad:?}");
        }
        let games = count::<u32>(1..);
        assert_eq!(games("-3"), Err("expected a whole number, 1 or more".to_string()));
        assert_eq!(games("4294967296"), Err("expected a whole number, 1 or more".to_string()), "beyond u32");
        assert_eq!(count::<u8>(0..=5)("5"), Ok(5));
    }

    #[test]
    fn depths_follow_the_protocols_rule() {
        assert_eq!(parse_search_depth("0"), Ok(1));
        assert_eq!(parse_search_depth("12"), Ok(12));
        assert_eq!(parse_search_depth("99"), Ok(60));
        assert_eq!(parse_search_depth("1000"), Ok(60));
        assert!(parse_search_depth("-3").unwrap_err().contains("a depth in plies"));
    }
}
