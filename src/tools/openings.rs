//! `magpie openings`: opening lines for matches, taken from tournament games.
//!
//! The first `--plies` moves of every WTHOR game are one line; lines that reach the same position
//! are one opening, counted once per game that played it. The openings played in at least
//! `--min-games` games are shuffled by `--seed`, and `--count` of them are written after the
//! first `--skip`, one move list a line (`f5d6c3d3c4f4c5b3c2e6`), as `magpie match --openings`
//! reads them. The same seed with another `--skip` gives openings disjoint from the first set: one
//! set to tune on, another to test on.
//!
//! With `--balanced D` only balanced openings are written: each line of the shuffled list (from
//! `--skip` on) is searched to `--balance-depth` by the pattern evaluation at the engine's default
//! selectivity, and kept if its value is within D discs of a draw, until `--count` are kept. Many
//! tournament lines leave one side far ahead after 10 moves: between engines of about equal
//! strength both games of such an opening go to the side it favours, whichever engine has it, and
//! a match on them says little (see docs/matches.md). The summary says how many lines were
//! examined, so that the next disjoint set starts that many further on.

use crate::board::{Move, Position};
use crate::eval::weights::Weights;
use crate::eval::{EvalKind, Evaluator};
use crate::formats::wthor::WthorGame;
use crate::rng::Rng;
use crate::search::{DEFAULT_SELECTIVITY, NoControl, SearchRequest, Searcher};
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// `--balanced`: which openings count as balanced, and how they are valued.
#[derive(Clone)]
pub struct Balance {
    /// The most discs an opening's value may lie from a draw.
    pub discs: u32,
    /// The depth of the search that values an opening.
    pub depth: u32,
    /// The pattern evaluation's weights.
    pub weights: Arc<Weights>,
    /// Threads: lines valued at once, one search each.
    pub threads: usize,
}

impl std::fmt::Debug for Balance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Balance")
            .field("discs", &self.discs)
            .field("depth", &self.depth)
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

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
    /// Only balanced openings (`--balanced`), if set.
    pub balance: Option<Balance>,
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

/// The value of the position after `moves` for the side to move, in centi-discs, searched to
/// `balance.depth` (a finished game: its final score; a line that cannot be replayed: `i32::MAX`).
fn opening_value(searcher: &mut Searcher, moves: &[Move], balance: &Balance) -> i32 {
    let mut pos = Position::initial();
    for &mv in moves {
        match pos.try_play(mv) {
            Ok(next) => pos = next,
            Err(_) => return i32::MAX,
        }
    }
    if pos.legal_moves().is_empty() {
        if pos.opponent_moves().is_empty() {
            return pos.final_score() * 100;
        }
        pos = pos.pass();
    }
    let evaluator = Evaluator::with_weights(EvalKind::Pattern, Arc::clone(&balance.weights));
    let mut request = SearchRequest::new(pos, evaluator);
    request.max_depth = balance.depth;
    request.selectivity = DEFAULT_SELECTIVITY;
    searcher.clear();
    searcher.search(&request, &mut NoControl, &mut |_| {}).info.score
}

/// The first `count` openings of `candidates` that `balance` keeps, and how many candidates were
/// examined to find them. The candidates are valued a batch at a time, one search a thread, and
/// taken in order, so the result does not depend on the threads.
fn balanced<'a>(candidates: &[&'a Opening], count: usize, balance: &Balance) -> (Vec<&'a Opening>, usize) {
    let threads = balance.threads.max(1);
    let mut searchers: Vec<Searcher> =
        (0..threads).map(|_| Searcher::with_hash(16).unwrap_or_else(|_| Searcher::new())).collect();
    let limit = i32::try_from(balance.discs).unwrap_or(64) * 100;
    let mut kept = Vec::new();
    let mut examined = 0;
    for batch in candidates.chunks(4 * threads) {
        let per = batch.len().div_ceil(threads);
        let values: Vec<i32> = std::thread::scope(|scope| {
            let handles: Vec<_> = batch
                .chunks(per)
                .zip(searchers.iter_mut())
                .map(|(part, searcher)| {
                    scope.spawn(move || {
                        part.iter().map(|o| opening_value(searcher, &o.moves, balance)).collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                .collect()
        });
        for (opening, value) in batch.iter().zip(values) {
            examined += 1;
            if value.abs() <= limit {
                kept.push(*opening);
                if kept.len() == count {
                    return (kept, examined);
                }
            }
        }
    }
    (kept, examined)
}

/// Picks the openings and writes them; returns how many were written.
pub fn run(request: &OpeningsRequest, out: &mut impl Write) -> io::Result<usize> {
    let all = distinct_openings(&request.games, request.plies);
    let mut kept: Vec<&Opening> = all.iter().filter(|o| o.games >= request.min_games).collect();
    let mut rng = Rng::new(request.seed);
    for i in (1..kept.len()).rev() {
        kept.swap(i, rng.below(i + 1));
    }
    let rest: Vec<&Opening> = kept.iter().skip(request.skip).copied().collect();
    let (chosen, examined) = match &request.balance {
        Some(balance) => balanced(&rest, request.count, balance),
        None => {
            let chosen: Vec<&Opening> = rest.iter().take(request.count).copied().collect();
            let n = chosen.len();
            (chosen, n)
        }
    };
    if chosen.is_empty() {
        let balance = request
            .balance
            .as_ref()
            .map_or_else(String::new, |b| format!(", none of the {examined} examined within {} discs", b.discs));
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "no opening to write: {} openings of {} plies played in at least {} games, --skip {}{balance}",
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
    let balance = request.balance.as_ref().map_or_else(String::new, |b| {
        format!(
            "; {examined} examined, {} within {} discs at depth {} (the next disjoint set: --skip {})",
            chosen.len(),
            b.discs,
            b.depth,
            request.skip + examined
        )
    });
    writeln!(
        out,
        "openings: {} games, {} distinct openings of {} plies, {} played in at least {} games; wrote {} (from {} on) to {}{balance}",
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
