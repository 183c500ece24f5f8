//! The answers of GTP and the texts inside them: `=[id] result` / `?[id] message`, moves, scores,
//! GoGui's board and legal moves, illegal-move messages.

use crate::board::{IllegalMove, IllegalReason, Move, Position};
use std::fmt;

/// An answer: `=[id] result` on success, `?[id] message` on failure. Its `Display` is the answer
/// without the empty line that ends it; a multi-line result puts its first line after the `=`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The id of the command answered.
    pub id: Option<u32>,
    /// The result, or the error message.
    pub result: Result<String, String>,
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mark, text) = match &self.result {
            Ok(text) => ('=', text),
            Err(text) => ('?', text),
        };
        write!(f, "{mark}")?;
        if let Some(id) = self.id {
            write!(f, "{id}")?;
        }
        // An empty result is a bare `=`; a result that starts on its own line (showboard) needs no
        // space either.
        if !text.is_empty() && !text.starts_with('\n') {
            f.write_str(" ")?;
        }
        f.write_str(text)
    }
}

/// A move as GTP clients print it: `F5`, or `pass`.
pub fn move_text(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_uppercase(),
        Move::Pass => "pass".to_string(),
    }
}

/// A score from Black's side as GTP writes results: `B+n`, `W+n`, or `0` for a draw.
pub fn score_text(score_for_black: i32) -> String {
    match score_for_black {
        0 => "0".to_string(),
        s if s > 0 => format!("B+{s}"),
        s => format!("W+{}", -s),
    }
}

/// The board for GoGui: rows from the highest number down to row 1, cells `X`, `O`, `.` separated
/// by spaces. GoGui puts its first row at the bottom, so it draws an Othello board upside down; the
/// coordinates stay Othello's, so that moves mean the same squares to both.
pub fn rules_board(pos: &Position) -> String {
    let n = pos.size().side() as u8;
    let cell = |col: u8, row: u8| match crate::board::Square::from_coords(col, row) {
        Some(sq) if pos.black().contains(sq) => "X",
        Some(sq) if pos.white().contains(sq) => "O",
        _ => ".",
    };
    (0..n)
        .rev()
        .map(|row| (0..n).map(|col| cell(col, row)).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The legal moves for GoGui: upper-case squares, `pass` when passing is the only move, nothing
/// when the game is over.
pub fn rules_legal_moves(pos: &Position) -> String {
    if pos.is_game_over() {
        String::new()
    } else if pos.must_pass() {
        "pass".to_string()
    } else {
        pos.legal_moves().iter().map(|sq| sq.to_uppercase()).collect::<Vec<_>>().join(" ")
    }
}

/// The answer to an illegal move, naming it.
pub(super) fn illegal_text(err: &IllegalMove, pos: &Position) -> String {
    let mv = move_text(err.mv);
    match err.reason {
        IllegalReason::OffBoard => format!("illegal move: {mv} is not on the {} board", pos.size()),
        IllegalReason::Occupied => format!("illegal move: {mv} is occupied"),
        IllegalReason::NoFlips => format!("illegal move: {mv} flips no disc"),
        IllegalReason::PassWithMoves => "illegal move: a legal move exists".to_string(),
        IllegalReason::GameOver => "illegal move: the game is over".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;

    fn sq(name: &str) -> Move {
        name.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn replies_format() {
        let reply = |id, result| Reply { id, result }.to_string();
        assert_eq!(reply(None, Ok(String::new())), "=");
        assert_eq!(reply(Some(3), Ok(String::new())), "=3");
        assert_eq!(reply(Some(3), Ok("Magpie".into())), "=3 Magpie");
        assert_eq!(reply(None, Err("unknown command".into())), "? unknown command");
        assert_eq!(reply(Some(12), Err("cannot undo".into())), "?12 cannot undo");
        assert_eq!(reply(Some(1), Ok("a\nb".into())), "=1 a\nb");
        assert_eq!(reply(None, Ok("\nboard".into())), "=\nboard");
        assert_eq!(move_text(sq("f5")), "F5");
        assert_eq!(move_text(Move::Pass), "pass");
        assert_eq!((score_text(5), score_text(-64), score_text(0)), ("B+5".into(), "W+64".into(), "0".into()));
    }

    #[test]
    fn gogui_board_rows_run_from_the_highest_row_down() {
        let start = Position::initial();
        let rows: Vec<String> = rules_board(&start).lines().map(str::to_string).collect();
        assert_eq!(rows.len(), 8);
        assert_eq!(rows[0], ". . . . . . . .");
        assert_eq!(rows[3], ". . . X O . . ."); // row 5: d5 black, e5 white
        assert_eq!(rows[4], ". . . O X . . ."); // row 4: d4 white, e4 black
        assert_eq!(rules_legal_moves(&start), "D3 C4 F5 E6");
        let four = Position::start(BoardSize::Four);
        assert_eq!(rules_board(&four), ". . . .\n. X O .\n. O X .\n. . . .");
    }
}
