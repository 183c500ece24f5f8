//! Openings for matches: read from a file (one move sequence or position a line), or generated —
//! random openings of a few plies, kept only when a search scores them close to even, so that
//! neither colour starts with a decided game. Generation is seeded and reproducible.

use crate::board::{BoardSize, Game, Move, Position};
use crate::eval::EvalKind;
use crate::formats::{compact_moves, parse_moves, parse_position};
use crate::rng::Rng;
use crate::search::{NoControl, SearchRequest, Searcher};
use std::collections::HashSet;

/// Where a game starts: a position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position the opening starts from.
    pub start: Position,
    /// The opening moves (passes written out).
    pub moves: Vec<Move>,
}

impl Opening {
    /// The game after the opening.
    pub fn game(&self) -> Game {
        let mut game = Game::new(self.start);
        // Openings are checked when they are read or generated.
        let _ = game.play_all(&self.moves);
        game
    }

    /// A short description: the moves, or the position.
    pub fn label(&self) -> String {
        if self.start == Position::start(self.start.size()) {
            compact_moves(&self.moves)
        } else {
            format!("{} {}", self.start, compact_moves(&self.moves))
        }
    }
}

/// Reads openings, one a line: a move list from the standard 8x8 start (`f5d6c3` or `f5 d6 c3`), a
/// position (`<squares> <side>`), or a position then moves. Blank lines and `#` comments are
/// skipped; `startpos` alone is the start position. Games that are over are refused.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let opening = parse_line(line).map_err(|e| format!("openings line {}: {e}", number + 1))?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err("the openings file has no opening".to_string());
    }
    Ok(openings)
}

fn parse_line(line: &str) -> Result<Opening, String> {
    let (start, moves_text) = if line.eq_ignore_ascii_case("startpos") {
        (Position::initial(), "")
    } else if let Ok(moves) = parse_moves(line) {
        return check(Opening { start: Position::initial(), moves });
    } else {
        // A position: its squares and side are the first words; moves may follow.
        let words: Vec<&str> = line.split_whitespace().collect();
        let split = (1..=words.len())
            .find(|&n| parse_position(&words[..n].join(" ")).is_ok())
            .ok_or_else(|| format!("'{line}' is neither a move list nor a position"))?;
        let start = parse_position(&words[..split].join(" ")).map_err(|e| e.to_string())?;
        let rest = line.splitn(split + 1, char::is_whitespace).nth(split).unwrap_or("");
        (start, rest)
    };
    let moves = parse_moves(moves_text).map_err(|e| e.to_string())?;
    check(Opening { start, moves })
}

/// Checks that the moves are legal and the game is not over after them.
fn check(opening: Opening) -> Result<Opening, String> {
    let mut game = Game::new(opening.start);
    game.play_all(&opening.moves).map_err(|(i, e)| format!("move {} ({}): {e}", i + 1, opening.moves[i]))?;
    if game.position().is_game_over() {
        return Err("the game is over after this opening".to_string());
    }
    Ok(Opening { start: opening.start, moves: game.moves().to_vec() })
}

/// How to generate openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generator {
    /// Random plies from the start.
    pub plies: usize,
    /// Depth of the balance check.
    pub depth: u32,
    /// Largest absolute score kept, in centi-discs.
    pub max_score: i32,
    /// Board size.
    pub size: BoardSize,
    /// Random seed.
    pub seed: u64,
}

impl Generator {
    /// `count` distinct balanced openings. Gives up after many tries if the board is too small to
    /// have that many, returning what it found.
    pub fn generate(&self, count: usize) -> Vec<Opening> {
        let mut rng = Rng::new(self.seed);
        let mut searcher = Searcher::new();
        let mut seen = HashSet::new();
        let mut openings = Vec::new();
        let mut tries = 0;
        while openings.len() < count && tries < count * 200 + 1000 {
            tries += 1;
            let start = Position::start(self.size);
            let mut game = Game::new(start);
            for _ in 0..self.plies {
                let pos = *game.position();
                if pos.is_game_over() {
                    break;
                }
                let mv = if pos.must_pass() {
                    Move::Pass
                } else {
                    let moves: Vec<_> = pos.legal_moves().iter().collect();
                    Move::Play(moves[rng.below(moves.len())])
                };
                let _ = game.play_strict(mv);
            }
            let pos = *game.position();
            if pos.is_game_over() || pos.legal_moves().is_empty() || !seen.insert(pos.hash_key()) {
                continue;
            }
            let mut request = SearchRequest::new(pos, EvalKind::Heuristic);
            request.max_depth = self.depth;
            let score = searcher.search(&request, &mut NoControl, &mut |_| {}).info.score;
            if score.abs() <= self.max_score {
                openings.push(Opening { start, moves: game.moves().to_vec() });
            }
        }
        openings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_lines() {
        let text = "# openings\nf5d6c3\n\nf5 d6 c5 # tiger-ish\nstartpos\n---------------------------OX------XO--------------------------- X f5 d6\n-----OX--XO----- X\n";
        let openings = parse_openings(text).unwrap();
        assert_eq!(openings.len(), 5);
        assert_eq!(openings[0].moves.len(), 3);
        assert_eq!(openings[2], Opening { start: Position::initial(), moves: vec![] });
        assert_eq!(openings[3].moves.len(), 2);
        assert_eq!(openings[4].start, Position::start(BoardSize::Four));
        assert_eq!(openings[0].label(), "f5d6c3");
    }

    #[test]
    fn bad_lines_are_named() {
        assert!(parse_openings("f5d6\nf5a1\n").unwrap_err().starts_with("openings line 2: move 2"));
        assert!(parse_openings("hello\n").unwrap_err().contains("'hello'"));
        assert!(parse_openings("# nothing\n").is_err());
        let full = "XXXXXXXXXXXXXXXX X";
        assert!(parse_openings(full).unwrap_err().contains("over"));
    }

    #[test]
    fn generation_is_reproducible_distinct_and_balanced() {
        let generator = Generator { plies: 6, depth: 4, max_score: 300, size: BoardSize::Eight, seed: 42 };
        let a = generator.generate(10);
        let b = generator.generate(10);
        assert_eq!(a, b);
        assert_eq!(a.len(), 10);
        let mut positions: Vec<u64> = a.iter().map(|o| o.game().position().hash_key()).collect();
        positions.sort_unstable();
        positions.dedup();
        assert_eq!(positions.len(), 10);
        assert!(a.iter().all(|o| o.moves.len() == 6));
        let other = Generator { seed: 43, ..generator }.generate(10);
        assert_ne!(a, other);
    }
}
