//! Match statistics: wins, draws and losses, the Elo difference with its 95% interval computed from
//! game pairs (each opening played with both colours), and the sequential probability ratio test
//! (SPRT) that stops a match once it has decided between two Elo hypotheses.
//!
//! Pairs rather than single games: the two games of an opening are correlated (a lopsided opening
//! wins for whoever has the good side), so treating them as independent would understate the error.
//! The pair score (0, ½, 1, 1½ or 2 points out of 2) is the unit; its mean and variance give the
//! score, the Elo and the log-likelihood ratio (the pentanomial model, as in Fishtest).

/// Wins, draws and losses of one engine against another, and the disc differences.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Sum of the final disc differences of games played to the end (forfeits excluded).
    pub disc_sum: i64,
    /// Number of games played to the end.
    pub disc_games: u32,
    /// Completed pairs by points out of 4 half-points: index 0 = both lost … 4 = both won.
    pub pairs: [u32; 5],
}

/// The outcome of one game for the engine whose tally it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

impl Outcome {
    /// Half-points: 2 for a win, 1 for a draw, 0 for a loss.
    pub fn half_points(self) -> u32 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }

    /// The same game seen from the other engine.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

impl Tally {
    /// Counts one game; `discs` is the final disc difference for this engine when the game was
    /// played to its end.
    pub fn add_game(&mut self, outcome: Outcome, discs: Option<i32>) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
        if let Some(d) = discs {
            self.disc_sum += i64::from(d);
            self.disc_games += 1;
        }
    }

    /// Counts a completed pair of games on one opening.
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        self.pairs[(first.half_points() + second.half_points()) as usize] += 1;
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points scored per game, 0 to 1 (draws count half).
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n))
    }

    /// Mean final disc difference over the games played to the end.
    pub fn mean_discs(&self) -> Option<f64> {
        (self.disc_games > 0).then(|| self.disc_sum as f64 / f64::from(self.disc_games))
    }

    /// Count, mean and variance of the pair score (points per game, 0 to 1) over completed pairs,
    /// with `prior` pseudo-pairs added to each of the five outcomes.
    fn pair_moments(&self, prior: f64) -> Option<(f64, f64, f64)> {
        if self.pairs.iter().all(|&c| c == 0) {
            return None;
        }
        let counts: Vec<f64> = self.pairs.iter().map(|&c| f64::from(c) + prior).collect();
        let n: f64 = counts.iter().sum();
        let value = |i: usize| i as f64 / 4.0;
        let mean = counts.iter().enumerate().map(|(i, c)| value(i) * c).sum::<f64>() / n;
        let var = counts.iter().enumerate().map(|(i, c)| (value(i) - mean).powi(2) * c).sum::<f64>() / n;
        Some((n, mean, var))
    }

    /// The Elo difference and the half-width of its 95% interval, from the completed pairs.
    /// `None` until there is at least one pair; the interval is infinite when every pair has the
    /// same score (no variance to estimate) or the score is 0 or 1.
    pub fn elo(&self) -> Option<Elo> {
        let (n, mean, var) = self.pair_moments(0.0)?;
        let elo = score_to_elo(mean);
        let sigma = (var / n).sqrt();
        let (low, high) = (score_to_elo(mean - 1.96 * sigma), score_to_elo(mean + 1.96 * sigma));
        let margin =
            if var == 0.0 || !low.is_finite() || !high.is_finite() { f64::INFINITY } else { (high - low) / 2.0 };
        Some(Elo { elo, margin, low, high, flat: var == 0.0 })
    }

    /// The log-likelihood ratio of H1 (Elo = `elo1`) against H0 (Elo = `elo0`) from the completed
    /// pairs, by the normal approximation of the generalised SPRT. A weak prior, a quarter of a pair
    /// on each of the five outcomes, keeps the variance positive when every pair so far scored
    /// alike (an engine winning every game must still be accepted), and weighs nothing once there
    /// are a few dozen pairs.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let Some((n, mean, var)) = self.pair_moments(0.25) else { return 0.0 };
        let (s0, s1) = (elo_to_score(elo0), elo_to_score(elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

/// An Elo difference with the half-width of its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// The estimate (±infinity for a 0 or 1 score).
    pub elo: f64,
    /// Half-width of the 95% interval (infinity when one of its ends is).
    pub margin: f64,
    /// Lower end of the 95% interval (−infinity when the score interval reaches 0).
    pub low: f64,
    /// Upper end of the 95% interval (+infinity when the score interval reaches 1).
    pub high: f64,
    /// Every pair scored the same, so the data say nothing of the spread yet.
    pub flat: bool,
}

/// The Elo difference of an expected score (0 to 1).
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of an Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The parameters of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtState {
    /// Keep playing.
    Continue,
    /// H1 accepted: the first engine is stronger by about `elo1`.
    AcceptH1,
    /// H0 accepted: it is not.
    AcceptH0,
}

impl Sprt {
    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The decision for a tally.
    pub fn state(&self, tally: &Tally) -> SprtState {
        let llr = tally.llr(self.elo0, self.elo1);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-400.0, -100.0, 0.0, 35.5, 200.0] {
            assert!((score_to_elo(elo_to_score(elo)) - elo).abs() < 1e-9);
        }
        assert!((elo_to_score(0.0) - 0.5).abs() < 1e-12);
        assert!((score_to_elo(0.75) - 190.848).abs() < 1e-3);
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
    }

    #[test]
    fn tally_counts_and_scores() {
        let mut t = Tally::default();
        t.add_game(Outcome::Win, Some(10));
        t.add_game(Outcome::Draw, Some(0));
        t.add_game(Outcome::Loss, None);
        assert_eq!(t.games(), 3);
        assert_eq!(t.score(), Some(0.5));
        assert_eq!(t.mean_discs(), Some(5.0));
        t.add_pair(Outcome::Win, Outcome::Draw);
        assert_eq!(t.pairs, [0, 0, 0, 1, 0]);
    }

    #[test]
    fn elo_interval_from_pairs() {
        // 100 pairs: 30 won twice, 40 split, 30 lost twice: score 0.5, Elo 0.
        let t = Tally { pairs: [30, 0, 40, 0, 30], ..Tally::default() };
        let e = t.elo().unwrap();
        assert!(e.elo.abs() < 1e-9);
        // Pair variance 0.15 → σ of the mean sqrt(0.15/100) ≈ 0.0387; the score interval
        // 0.5 ± 0.0759 is ±53.2 Elo.
        assert!((e.margin - 53.2).abs() < 0.5, "{e:?}");
        // Identical pairs give no variance: the interval is unknown.
        let flat = Tally { pairs: [0, 0, 10, 0, 0], ..Tally::default() };
        assert_eq!(flat.elo().unwrap().margin, f64::INFINITY);
        assert!(flat.elo().unwrap().flat);
        // Near a perfect score the interval is one-sided: its upper end is infinite.
        let lopsided = Tally { pairs: [0, 0, 3, 0, 47], ..Tally::default() };
        let e = lopsided.elo().unwrap();
        assert!(!e.flat && e.low.is_finite() && e.high == f64::INFINITY && e.low < e.elo, "{e:?}");
        assert!(Tally::default().elo().is_none());
    }

    #[test]
    fn sprt_accepts_a_clearly_stronger_engine_and_rejects_an_equal_one() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let (lower, upper) = sprt.bounds();
        assert!((upper - 2.944).abs() < 1e-3 && (lower + 2.944).abs() < 1e-3);
        let strong = Tally { pairs: [10, 40, 200, 300, 150], ..Tally::default() };
        assert_eq!(sprt.state(&strong), SprtState::AcceptH1);
        let equal = Tally { pairs: [400, 800, 1600, 800, 400], ..Tally::default() };
        assert_eq!(sprt.state(&equal), SprtState::AcceptH0);
        let few = Tally { pairs: [1, 2, 3, 2, 1], ..Tally::default() };
        assert_eq!(sprt.state(&few), SprtState::Continue);
    }

    #[test]
    fn sprt_decides_when_every_pair_is_won() {
        // No variance at all in the data: the prior still lets the test conclude, but not at once.
        let sprt = Sprt { elo0: 0.0, elo1: 100.0, alpha: 0.05, beta: 0.05 };
        let won = |n| Tally { pairs: [0, 0, 0, 0, n], ..Tally::default() };
        assert_eq!(sprt.state(&won(1)), SprtState::Continue);
        assert_eq!(sprt.state(&won(20)), SprtState::AcceptH1);
        let lost = Tally { pairs: [20, 0, 0, 0, 0], ..Tally::default() };
        assert_eq!(sprt.state(&lost), SprtState::AcceptH0);
    }
}
