//! Small pieces of GGF text shared by the values and the reader: decimal numbers as GGF writes
//! them, and offending tokens quoted for one-line error messages.

pub(super) use crate::quote::{MAX_QUOTED_CHARS as MAX_TOKEN_CHARS, Quoted, clipped};

/// Reads a plain decimal number (`12`, `-1.50`, `+0.000`, `.5`): no exponent, no `inf` or `NaN`,
/// which `f64::from_str` would accept but GGF never writes.
pub(super) fn parse_decimal(text: &str) -> Option<f64> {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    // 400 digits still parse, to infinity, which could not be written back.
    text.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// `x` with `places` decimals when that reads back to exactly `x` (the usual `2.39`, `+0.000`),
/// else with as many as it takes (`2.449`).
pub(super) fn format_decimal(x: f64, places: usize, signed: bool) -> String {
    let fixed = if signed { format!("{x:+.places$}") } else { format!("{x:.places$}") };
    if fixed.parse::<f64>() == Ok(x) {
        fixed
    } else if signed {
        format!("{x:+}")
    } else {
        format!("{x}")
    }
}
