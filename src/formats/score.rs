//! Scores as text, as every tool and protocol writes them: centi-discs as signed discs with two
//! decimals (`+1.25`), and the words of a win/draw/loss solve.

/// A centi-disc score as signed discs with two decimals: `+1.25`.
pub fn discs_text(cp: i32) -> String {
    let sign = if cp < 0 { '-' } else { '+' };
    format!("{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
}

/// `win`, `draw` or `loss` for a score of that sign.
pub fn wld_word(score: i32) -> &'static str {
    match score.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_as_discs_and_words() {
        assert_eq!(discs_text(125), "+1.25");
        assert_eq!(discs_text(0), "+0.00");
        assert_eq!(discs_text(-5), "-0.05");
        assert_eq!(discs_text(-6400), "-64.00");
        assert_eq!([wld_word(200), wld_word(0), wld_word(-1)], ["win", "draw", "loss"]);
    }
}
