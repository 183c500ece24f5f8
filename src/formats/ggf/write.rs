//! Writing GGF: the canonical one-line form of a [`GgfGame`], which reads back to an equal game.

use super::GgfGame;
use crate::board::Color;
use crate::formats::position_text::squares_text;
use std::fmt;

impl fmt::Display for GgfGame {
    /// The canonical GGF line, without a count in front and without a newline:
    /// `(;GM[Othello]PC[..]DT[..]PB[..]PW[..]RB[..]RW[..]RE[..]TI[..]TB[..]TW[..]TY[..]<other
    /// tags>BO[8 <squares> *]B[F5//2.45]W[PA];)`, each tag only when set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(;GM[Othello]")?;
        let texts = [
            ("PC", &self.place),
            ("DT", &self.date),
            ("PB", &self.black_name),
            ("PW", &self.white_name),
            ("RB", &self.black_rating),
            ("RW", &self.white_rating),
        ];
        for (key, value) in texts {
            if let Some(value) = value {
                write!(f, "{key}[{value}]")?;
            }
        }
        if let Some(result) = self.result {
            write!(f, "RE[{result}]")?;
        }
        for (key, clock) in [("TI", self.clock), ("TB", self.black_clock), ("TW", self.white_clock)] {
            if let Some(clock) = clock {
                write!(f, "{key}[{clock}]")?;
            }
        }
        if let Some(board_type) = &self.board_type {
            write!(f, "TY[{board_type}]")?;
        }
        for (key, value) in &self.extra_tags {
            write!(f, "{key}[{value}]")?;
        }
        let start = self.start();
        let side = match start.side_to_move() {
            Color::Black => '*',
            Color::White => 'O',
        };
        write!(f, "BO[{} {} {side}]", start.size().side(), squares_text(&start).replace('X', "*"))?;
        for mv in &self.moves {
            write!(f, "{mv}")?;
        }
        f.write_str(";)")
    }
}

#[cfg(test)]
mod tests {
    use crate::board::{Color, Move, Position};
    use crate::formats::ggf::testing::{START_BO, game, mv, secs};
    use crate::formats::ggf::{Clock, GameEnd, GgfGame, GgfMove, GgfResult};

    #[test]
    fn the_builder_writes_what_parses_back() {
        let mut g = GgfGame::new(Position::initial());
        g.set_place("Magpie match");
        g.set_date("2025-01-01 12:00:00 UTC");
        g.set_player(Color::Black, "magpie]\nv1");
        g.set_player(Color::White, "edax");
        g.set_rating(Color::Black, "1500");
        g.set_clock(Clock::new(secs(300)));
        g.set_player_clock(Color::White, Clock { increment: secs(2), ..Clock::new(secs(60)) });
        g.push_move(mv("f5"), Some(0.5), Some(1.25)).unwrap();
        g.push_move(mv("d6"), Some(f64::NAN), Some(-3.0)).unwrap();
        assert!(g.push_move(mv("a1"), None, None).is_err());
        assert!(g.push_move(Move::Pass, None, None).is_err());
        g.set_result(GgfResult::Score { black_net: 4.0, end: GameEnd::Resigned });
        assert_eq!(g.player(Color::Black), Some("magpie) v1"));
        assert_eq!(g.moves()[1], GgfMove { color: Color::White, mv: mv("d6"), eval: None, time: None });
        let written = g.to_string();
        assert_eq!(
            written,
            format!(
                "(;GM[Othello]PC[Magpie match]DT[2025-01-01 12:00:00 UTC]PB[magpie) v1]PW[edax]RB[1500]RE[+4.000:r]TI[05:00]TW[01:00/00:02]TY[8]{START_BO}B[F5/0.50/1.25]W[D6];)"
            )
        );
        assert_eq!(game(&written), g);
    }
}
