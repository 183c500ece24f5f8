//! `magpie openings`: opening lines for matches, taken from tournament games.
//!
//! The first `--plies` moves of every WTHOR game are one line; lines that reach the same position
//! are one opening, counted once per game that played it. The openings played in at least
//! `--min-games` games are shuffled by `--seed`, and `--count` of them are written after the
//! first `--skip`, one move list a line (`f5d6c3d3c4f4c5b3c2e6`), as `magpie match --openings`
//! reads them. The same seed with another `--skip` gives openings disjoint from the first set: one
//! set to tune on, another to test on.

use crate::board::{Move, Position};
use crate::formats::wthor::WthorGame;
use crate::rng::Rng;
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;

/// What `magpie openings` is asked.
#[derive(Clone, Debug)]
pub struct OpeningsRequest {
    /// The tournament games.
    pub games: Vec<WthorGame>,
    /// Moves in a line.
    pub plies: usize,
    /// The fewest games an opening must have been played in.
    pub min_games: usize,
    /// Openings to write.
    pub count: usize,
    /// Openings of the shuffled list passed over before those written.
    pub skip: usize,
    /// Seed of the shuffle.
    pub seed: u64,
    /// The file to write.
    pub out: PathBuf,
}

/// One opening: the first line that reached it, and how many games did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The moves, passes included where forced.
    pub moves: Vec<Move>,
    /// Games that reached its position after these plies.
    pub games: usize,
}

/// The distinct openings of `games`, `plies` moves long, in the order first played.
pub fn distinct_openings(games: &[WthorGame], plies: usize) -> Vec<Opening> {
    let mut index: HashMap<Position, usize> = HashMap::new();
    let mut openings: Vec<Opening> = Vec::new();
    for game in games {
        let Ok(replayed) = game.replay() else { continue };
        let moves: Vec<Move> = replayed.moves().iter().copied().take(plies).collect();
        if moves.len() < plies {
            continue;
        }
        let mut pos = Position::initial();
        for &mv in &moves {
            match pos.try_play(mv) {
                Ok(next) => pos = next,
                Err(_) => break,
            }
        }
        match index.get(&pos) {
            Some(&i) => openings[i].games += 1,
            None => {
                index.insert(pos, openings.len());
                openings.push(Opening { moves, games: 1 });
            }
        }
    }
    openings
}

/// The move list text of `moves`: `f5d6c3`, `pass` where a side passed.
fn line(moves: &[Move]) -> String {
    moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join("")
}

/// Picks the openings and writes them; returns how many were written.
pub fn run(request: &OpeningsRequest, out: &mut impl Write) -> io::Result<usize> {
    let all = distinct_openings(&request.games, request.plies);
    let mut kept: Vec<&Opening> = all.iter().filter(|o| o.games >= request.min_games).collect();
    let mut rng = Rng::new(request.seed);
    for i in (1..kept.len()).rev() {
        kept.swap(i, rng.below(i + 1));
    }
    let chosen: Vec<&Opening> = kept.iter().skip(request.skip).take(request.count).copied().collect();
    if chosen.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "no opening to write: {} openings of {} plies played in at least {} games, --skip {}",
                kept.len(),
                request.plies,
                request.min_games,
                request.skip
            ),
        ));
    }
    let text: String = chosen.iter().map(|o| line(&o.moves) + "\n").collect();
    std::fs::write(&request.out, text)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", request.out.display())))?;
    writeln!(
        out,
        "openings: {} games, {} distinct openings of {} plies, {} played in at least {} games; wrote {} (from {} on) to {}",
        request.games.len(),
        all.len(),
        request.plies,
        kept.len(),
        request.min_games,
        chosen.len(),
        request.skip,
        request.out.display()
    )?;
    Ok(chosen.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    fn game(moves: &str) -> WthorGame {
        let moves: Vec<Square> = crate::formats::parse_moves(moves)
            .unwrap()
            .into_iter()
            .filter_map(|m| match m {
                Move::Play(s) => Some(s),
                _ => None,
            })
            .collect();
        WthorGame { tournament: 0, black: 0, white: 0, black_discs: 32, theoretical_black_discs: 32, moves }
    }

    #[test]
    fn openings_are_counted_by_the_position_they_reach() {
        // Two games through f5 d6 c3 and one through f5 f6 e6: two openings of three plies.
        let games = [game("f5d6c3d3c4"), game("f5d6c3f4"), game("f5f6e6f4")];
        let openings = distinct_openings(&games, 3);
        assert_eq!(openings.len(), 2);
        assert_eq!((line(&openings[0].moves), openings[0].games), ("f5d6c3".to_string(), 2));
        assert_eq!((line(&openings[1].moves), openings[1].games), ("f5f6e6".to_string(), 1));
        // Games shorter than the plies give no opening.
        assert!(distinct_openings(&[game("f5d6")], 3).is_empty());
    }
}
