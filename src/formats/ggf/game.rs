//! The game model: [`GgfGame`], a start position and moves that replay legally, with the tags
//! that describe the game (players, ratings, place, date, result, clocks, other tags) and the time
//! each player has left.

use super::{Clock, GgfMove, GgfResult};
use crate::board::{Color, Game, IllegalMove, Move, Position};
use std::time::Duration;

/// Tag values cannot hold `]` (GGF has no escape) and a game is one line: setters replace `]` by
/// `)` and control characters by spaces, so that anything set can be written and read back.
fn tag_value(text: impl Into<String>) -> String {
    text.into()
        .chars()
        .map(|c| match c {
            ']' => ')',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

/// A game in GGF: its start position, its moves with their evaluations and times, and its tags.
///
/// Every `GgfGame` replays legally (parsing checks it and [`GgfGame::push_move`] refuses illegal
/// moves) and writes to a text that parses back to an equal game.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    pub(super) game: Game,
    pub(super) moves: Vec<GgfMove>,
    pub(super) place: Option<String>,
    pub(super) date: Option<String>,
    pub(super) black_name: Option<String>,
    pub(super) white_name: Option<String>,
    pub(super) black_rating: Option<String>,
    pub(super) white_rating: Option<String>,
    pub(super) board_type: Option<String>,
    pub(super) result: Option<GgfResult>,
    pub(super) clock: Option<Clock>,
    pub(super) black_clock: Option<Clock>,
    pub(super) white_clock: Option<Clock>,
    pub(super) extra_tags: Vec<(String, String)>,
}

impl GgfGame {
    /// A game from `start` with no move and no tag but `TY`, the start's board size.
    pub fn new(start: Position) -> GgfGame {
        GgfGame {
            game: Game::new(start),
            moves: Vec::new(),
            place: None,
            date: None,
            black_name: None,
            white_name: None,
            black_rating: None,
            white_rating: None,
            board_type: Some(start.size().side().to_string()),
            result: None,
            clock: None,
            black_clock: None,
            white_clock: None,
            extra_tags: Vec::new(),
        }
    }

    /// Plays a move for the side to move, exactly as given.
    pub(super) fn play(&mut self, mv: Move, eval: Option<f64>, time: Option<f64>) -> Result<(), IllegalMove> {
        let color = self.game.position().side_to_move();
        self.game.play_strict(mv)?;
        self.moves.push(GgfMove { color, mv, eval, time });
        Ok(())
    }

    /// The start position (`BO`).
    pub fn start(&self) -> Position {
        *self.game.start()
    }

    /// The moves, every pass included.
    pub fn moves(&self) -> &[GgfMove] {
        &self.moves
    }

    /// The game replayed: the start, the moves (passes explicit) and the positions along the way.
    pub fn game(&self) -> Game {
        self.game.clone()
    }

    /// The position after the last move.
    pub fn position(&self) -> Position {
        *self.game.position()
    }

    /// Appends a move for the side to move with its evaluation (discs, mover's view) and time
    /// (seconds). A pass must be pushed explicitly, and only when the side to move has no legal
    /// move. An evaluation that is not finite, or a time that is negative or not finite, is
    /// dropped: GGF has no way to write it. On error the game is unchanged.
    pub fn push_move(&mut self, mv: Move, eval: Option<f64>, time: Option<f64>) -> Result<(), IllegalMove> {
        let eval = eval.filter(|e| e.is_finite());
        let time = time.filter(|t| t.is_finite() && *t >= 0.0);
        self.play(mv, eval, time)
    }

    /// The place (`PC`), e.g. `GGS/os` or `NBoard`.
    pub fn place(&self) -> Option<&str> {
        self.place.as_deref()
    }

    /// Sets the place (`PC`); `]` and control characters are replaced (see [`GgfGame::set_player`]).
    pub fn set_place(&mut self, place: impl Into<String>) {
        self.place = Some(tag_value(place));
    }

    /// The date (`DT`), as written (GGS and NBoard use different forms).
    pub fn date(&self) -> Option<&str> {
        self.date.as_deref()
    }

    /// Sets the date (`DT`); `]` and control characters are replaced (see [`GgfGame::set_player`]).
    pub fn set_date(&mut self, date: impl Into<String>) {
        self.date = Some(tag_value(date));
    }

    /// The name of the player of `color` (`PB`, `PW`).
    pub fn player(&self, color: Color) -> Option<&str> {
        match color {
            Color::Black => self.black_name.as_deref(),
            Color::White => self.white_name.as_deref(),
        }
    }

    /// Sets the name of the player of `color` (`PB`, `PW`). A tag value cannot hold `]` and a
    /// game is one line, so `]` becomes `)` and control characters become spaces.
    pub fn set_player(&mut self, color: Color, name: impl Into<String>) {
        let name = Some(tag_value(name));
        match color {
            Color::Black => self.black_name = name,
            Color::White => self.white_name = name,
        }
    }

    /// The rating of the player of `color` (`RB`, `RW`), as written (GGS writes e.g. `2196.37`).
    pub fn rating(&self, color: Color) -> Option<&str> {
        match color {
            Color::Black => self.black_rating.as_deref(),
            Color::White => self.white_rating.as_deref(),
        }
    }

    /// Sets the rating of the player of `color` (`RB`, `RW`); `]` and control characters are
    /// replaced (see [`GgfGame::set_player`]).
    pub fn set_rating(&mut self, color: Color, rating: impl Into<String>) {
        let rating = Some(tag_value(rating));
        match color {
            Color::Black => self.black_rating = rating,
            Color::White => self.white_rating = rating,
        }
    }

    /// The result (`RE`).
    pub fn result(&self) -> Option<GgfResult> {
        self.result
    }

    /// Sets the result (`RE`).
    pub fn set_result(&mut self, result: GgfResult) {
        self.result = Some(result);
    }

    /// The board type (`TY`) as written, e.g. `8` or `s8r20`.
    pub fn board_type(&self) -> Option<&str> {
        self.board_type.as_deref()
    }

    /// The clock of both players (`TI`).
    pub fn shared_clock(&self) -> Option<Clock> {
        self.clock
    }

    /// Sets the clock of both players (`TI`).
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = Some(clock);
    }

    /// The clock given to the player of `color` alone (`TB`, `TW`).
    pub fn player_clock(&self, color: Color) -> Option<Clock> {
        match color {
            Color::Black => self.black_clock,
            Color::White => self.white_clock,
        }
    }

    /// Sets the game type (`TY`): the board side, with a server's letters (`8`, `s8r20`).
    pub fn set_board_type(&mut self, board_type: impl Into<String>) {
        self.board_type = Some(board_type.into());
    }

    /// Gives the player of `color` a clock of their own (`TB`, `TW`), which overrides `TI`.
    pub fn set_player_clock(&mut self, color: Color, clock: Clock) {
        match color {
            Color::Black => self.black_clock = Some(clock),
            Color::White => self.white_clock = Some(clock),
        }
    }

    /// The clock of the player of `color`: `TB` or `TW` if written, else `TI`.
    pub fn clock(&self, color: Color) -> Option<Clock> {
        self.player_clock(color).or(self.clock)
    }

    /// The main time the player of `color` has left after the moves of the game: the clock's main
    /// time, plus one increment per move of theirs (passes included), minus the times written on
    /// their moves (a move without a time counts as none), and zero at the least. The grace is
    /// not included. `None` when the game has no clock for that player.
    pub fn time_left(&self, color: Color) -> Option<Duration> {
        let clock = self.clock(color)?;
        let (count, used) = self
            .moves
            .iter()
            .filter(|m| m.color == color)
            .fold((0u32, 0.0f64), |(n, used), m| (n.saturating_add(1), used + m.time.unwrap_or(0.0)));
        let total = clock.main.saturating_add(clock.increment.saturating_mul(count));
        let used = Duration::try_from_secs_f64(used).unwrap_or(Duration::MAX);
        Some(total.saturating_sub(used))
    }

    /// The tags that have no meaning here, in the order read, kept to be written back.
    pub fn extra_tags(&self) -> &[(String, String)] {
        &self.extra_tags
    }

    /// The value of the extra tag `key`, if the game has it.
    pub fn extra_tag(&self, key: &str) -> Option<&str> {
        self.extra_tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Sets an extra tag (replacing one of the same key), for information of Magpie's own such as
    /// the match runner's game number. `key` must be upper-case letters and not a tag with a
    /// meaning here (`PB`, `RE`, `B`, …), or the call is refused with `false`; the value is cleaned
    /// as by [`GgfGame::set_player`].
    pub fn set_extra_tag(&mut self, key: &str, value: impl Into<String>) -> bool {
        const TYPED: [&str; 15] =
            ["GM", "PC", "DT", "PB", "PW", "RB", "RW", "RE", "TI", "TB", "TW", "TY", "BO", "B", "W"];
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_uppercase()) || TYPED.contains(&key) {
            return false;
        }
        let value = tag_value(value);
        match self.extra_tags.iter_mut().find(|(k, _)| k == key) {
            Some(tag) => tag.1 = value,
            None => self.extra_tags.push((key.to_string(), value)),
        }
        true
    }
}

/// The current UTC time as `YYYY-MM-DD hh:mm:ss UTC`, for a game's date (`DT`).
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC", rest / 3600, rest / 60 % 60, rest % 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ggf::testing::{START_BO, game, secs};

    #[test]
    fn extra_tags_are_set_and_read_back() {
        let mut game = GgfGame::new(Position::initial());
        assert!(game.set_extra_tag("MI", "12"));
        assert!(game.set_extra_tag("RS", "timeout: x]y"));
        assert!(game.set_extra_tag("MI", "13"));
        assert!(!game.set_extra_tag("PB", "no"));
        assert!(!game.set_extra_tag("mi", "no"));
        let back: GgfGame = game.to_string().parse().unwrap();
        assert_eq!(back.extra_tag("MI"), Some("13"));
        assert_eq!(back.extra_tag("RS"), game.extra_tag("RS"));
        assert_eq!(back, game);
    }

    #[test]
    fn player_clocks_and_time_left() {
        let g = game(&format!("(;TI[10:00]TB[05:00/10]{START_BO}B[f5//2.5]W[d6//100]B[c3]W[d3/1/1000];)"));
        assert_eq!(g.clock(Color::Black), Some(Clock { increment: secs(10), ..Clock::new(secs(300)) }));
        assert_eq!(g.clock(Color::White), Some(Clock::new(secs(600))));
        assert_eq!(g.shared_clock(), Some(Clock::new(secs(600))));
        assert_eq!(g.player_clock(Color::White), None);
        // Black: 300 + 2 x 10 - 2.5; White: 600 - 1100, at least zero.
        assert_eq!(g.time_left(Color::Black), Some(Duration::from_millis(317_500)));
        assert_eq!(g.time_left(Color::White), Some(Duration::ZERO));
        assert_eq!(game(&format!("(;{START_BO};)")).time_left(Color::Black), None);
        assert!(g.to_string().contains("TI[10:00]TB[05:00/00:10]"));
    }

    #[test]
    fn utc_dates() {
        let now = utc_now();
        assert_eq!(now.len(), "2026-11-22 10:00:00 UTC".len());
        assert!(now.starts_with("20"));
    }
}
