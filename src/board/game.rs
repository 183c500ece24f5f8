//! `Game`: a start position and the moves played from it, with every position along the way.
//!
//! This is the state the protocols keep. It applies the pass rule the way clients expect: a pass is
//! accepted only when the side to move has no legal move, and a move list may leave a forced pass
//! out (the pass is then inserted, so the history always alternates colours).

use super::position::{IllegalMove, Position};
use super::square::Move;

/// A game: the start position, the moves played (forced passes written out) and the positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game starting at `start` with no move played.
    pub fn new(start: Position) -> Game {
        Game { positions: vec![start], moves: Vec::new() }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or_else(|| unreachable!("a game always has its start position"))
    }

    /// The moves played, passes included.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game, the start first and the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Plays `mv`. When the side to move has no legal move and `mv` is a square, the forced pass is
    /// inserted first (the square must then be legal for the other side). On error the game is
    /// unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let pos = *self.position();
        if let Move::Play(_) = mv
            && pos.must_pass()
        {
            let after_pass = pos.pass();
            let next = after_pass.try_play(mv)?;
            self.push(Move::Pass, after_pass);
            self.push(mv, next);
            return Ok(());
        }
        let next = pos.try_play(mv)?;
        self.push(mv, next);
        Ok(())
    }

    /// Plays `mv` exactly as given, with no pass inserted.
    pub fn play_strict(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let next = self.position().try_play(mv)?;
        self.push(mv, next);
        Ok(())
    }

    /// Plays a sequence of moves with [`Game::play`]; on error the game is unchanged and the error
    /// says which move (by index in `moves`) failed.
    pub fn play_all(&mut self, moves: &[Move]) -> Result<(), (usize, IllegalMove)> {
        let mut next = self.clone();
        for (i, &mv) in moves.iter().enumerate() {
            next.play(mv).map_err(|e| (i, e))?;
        }
        *self = next;
        Ok(())
    }

    /// Takes back the last move (a forced pass before it stays). Returns the move, or `None` at
    /// the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }

    /// The number of discs played so far (passes not counted).
    pub fn discs_played(&self) -> usize {
        self.moves.iter().filter(|m| **m != Move::Pass).count()
    }

    fn push(&mut self, mv: Move, next: Position) {
        self.moves.push(mv);
        self.positions.push(next);
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Position::initial())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BoardSize, Color};

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn play_and_undo() {
        let mut game = Game::default();
        game.play(mv("f5")).unwrap();
        game.play(mv("d6")).unwrap();
        assert_eq!(game.moves(), &[mv("f5"), mv("d6")]);
        assert_eq!(game.position().side_to_move(), Color::Black);
        assert_eq!(game.undo(), Some(mv("d6")));
        assert_eq!(game.position().side_to_move(), Color::White);
        assert_eq!(game.undo(), Some(mv("f5")));
        assert_eq!(game.undo(), None);
        assert_eq!(game.position(), &Position::initial());
    }

    #[test]
    fn illegal_moves_leave_the_game_unchanged() {
        let mut game = Game::default();
        assert!(game.play(mv("a1")).is_err());
        assert!(game.play(Move::Pass).is_err());
        assert!(game.play_all(&[mv("f5"), mv("a1")]).is_err());
        assert_eq!(game, Game::default());
    }

    #[test]
    fn forced_passes_may_be_left_out() {
        // A 4x4 game: find a line where someone must pass, then replay it without the pass.
        let start = Position::start(BoardSize::Four);
        let mut stack = vec![Game::new(start)];
        let mut found = None;
        while let Some(game) = stack.pop() {
            let pos = *game.position();
            if pos.must_pass() {
                found = Some(game);
                break;
            }
            for sq in pos.legal_moves() {
                let mut next = game.clone();
                next.play_strict(Move::Play(sq)).unwrap();
                stack.push(next);
            }
        }
        let game = found.expect("some 4x4 line has a pass");
        let after_pass = game.position().pass();
        let reply = after_pass.legal_moves().first().unwrap();

        let mut implicit = Game::new(start);
        implicit.play_all(game.moves()).unwrap();
        implicit.play(Move::Play(reply)).unwrap();
        let n = implicit.moves().len();
        assert_eq!(&implicit.moves()[n - 2..], &[Move::Pass, Move::Play(reply)]);

        let mut strict = Game::new(start);
        strict.play_all(game.moves()).unwrap();
        assert!(strict.play_strict(Move::Play(reply)).is_err());
    }
}
