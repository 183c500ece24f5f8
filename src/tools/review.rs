//! `magpie review FILE.ggf…`: what each player's moves lost in recorded games (the GGF of a
//! match, say), to perfect play in the endgame and to a deeper search before it.
//!
//! Every position of every game from `--from` empty squares down is judged: from `--exact` empty
//! squares down it is solved exactly, and a move loses the value of the position before it less
//! the value of the position after it, both for the mover; it turns the result when a won game
//! becomes drawn or lost, or a drawn one lost. Above `--exact`, a move is judged as `magpie
//! analyze` judges it ([`Judge`]): the best move's value less the move played's, both from
//! searches of `--depth` (results turned are counted only where the values are exact). The
//! opening a match's players were given (its untimed first moves, see
//! [`super::analyze::given_moves`]) is not judged. Per
//! player (the GGF's `PB` and `PW` names): the moves judged, the discs lost a game, the moves
//! that lost discs, the results turned, and the discs lost a game at each number of empties. Each
//! game is listed first with its players and its opening (the last named opening it passed, see
//! [`crate::book::names`]). With `--json`, one JSON object a line instead: each game, each player,
//! then the totals.

use super::analyze::{Judge, given_moves, player_name};
use super::solve::solve;
use crate::board::{Color, Move};
use crate::book::names::opening_name;
use crate::formats::ggf::GgfGame;
use crate::formats::json_line;
use crate::search::{Searcher, TranspositionTable};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::Arc;
use std::time::Instant;

/// The most empty squares the exact part of a review starts from: beyond, a solve takes minutes.
pub const MAX_EXACT: u32 = 30;

/// What to review and how.
#[derive(Clone, Debug)]
pub struct ReviewRequest {
    /// The games.
    pub games: Vec<GgfGame>,
    /// Moves are judged from this many empty squares down.
    pub from: u32,
    /// How positions are searched: exactly from `judge.exact` empty squares down, to
    /// `judge.depth` above.
    pub judge: Judge,
    /// Search threads.
    pub threads: usize,
    /// Table size in MiB.
    pub hash_mib: usize,
    /// Write JSON lines rather than the table.
    pub json: bool,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// One judged move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveReview {
    /// Who played it.
    pub color: Color,
    /// The empty squares before it.
    pub empties: u32,
    /// Centi-discs lost to perfect play, or to the best move of a search (0 for a best move).
    pub loss: i32,
    /// Whether it made a won game drawn or lost, or a drawn one lost (judged only where the
    /// values are exact).
    pub turned: bool,
}

/// The judged moves of `game`: every move (passes aside) from a position with at most `from`
/// empty squares, each position with at most `judge.exact` solved exactly by `searcher`, the
/// others judged by searches of `judge.depth`.
pub fn review_game(searcher: &mut Searcher, judge: &Judge, game: &GgfGame, from: u32) -> Vec<MoveReview> {
    let (eval, selectivity) = (&judge.eval, judge.selectivity);
    let given = given_moves(game);
    let mut reviews = Vec::new();
    let mut pos = game.start();
    // The exact value of `pos` for its side to move, once solved.
    let mut value: Option<i32> = None;
    for (i, played) in game.moves().iter().enumerate() {
        let Ok(next) = pos.try_play(played.mv) else {
            // The parser checked every move; a game that does not replay is left there.
            break;
        };
        if i < given {
            // The opening the players were given is not theirs to judge.
            value = None;
        } else if let Move::Play(square) = played.mv
            && pos.empty_count() <= from
            && pos.empty_count() > judge.exact
        {
            let judgement = judge.judge(searcher, &pos, square);
            reviews.push(MoveReview {
                color: played.color,
                empties: pos.empty_count(),
                loss: judgement.loss(),
                turned: false,
            });
            value = None;
        } else if played.mv != Move::Pass && pos.empty_count() <= from {
            let before = value.unwrap_or_else(|| solve(searcher, eval, &pos, false, selectivity, None).score);
            let after_for_next = solve(searcher, eval, &next, false, selectivity, None).score;
            // After a move the other side is to move (it may have to pass: `solve` counts that).
            let after = -after_for_next;
            reviews.push(MoveReview {
                color: played.color,
                empties: pos.empty_count(),
                loss: 100 * (before - after),
                turned: after.signum() < before.signum(),
            });
            value = Some(after_for_next);
        } else {
            value = None;
        }
        pos = next;
    }
    reviews
}

/// One player's totals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerSummary {
    /// Games played.
    pub games: usize,
    /// Moves judged.
    pub moves: usize,
    /// Moves that lost discs.
    pub errors: usize,
    /// Results turned.
    pub turned: usize,
    /// Centi-discs lost in all, by empty squares before the move.
    pub lost_by_empties: BTreeMap<u32, i64>,
}

impl PlayerSummary {
    /// Centi-discs lost in all.
    pub fn lost(&self) -> i64 {
        self.lost_by_empties.values().sum()
    }
}

/// A game as the review lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// Black's player.
    pub black: String,
    /// White's player.
    pub white: String,
    /// The name of the last named opening the game passed.
    pub opening: Option<&'static str>,
}

impl GameSummary {
    /// The players and the opening of `game`.
    pub fn of(game: &GgfGame) -> GameSummary {
        GameSummary {
            black: player_name(game, Color::Black),
            white: player_name(game, Color::White),
            opening: opening_name(game.game().positions()),
        }
    }
}

/// Reviews every game of `request`, writing the totals per player; returns them by name.
pub fn run(request: &ReviewRequest, out: &mut impl Write) -> io::Result<BTreeMap<String, PlayerSummary>> {
    let table = TranspositionTable::new(request.hash_mib).map_err(io::Error::other)?;
    let mut searcher = Searcher::with_table(Arc::new(table));
    searcher.set_threads(request.threads);
    if !request.json {
        let method = if request.from <= request.judge.exact {
            "exact".to_string()
        } else {
            format!("depth {} above {} empties, exact below", request.judge.depth, request.judge.exact)
        };
        writeln!(
            out,
            "reviewing {} games from {} empties ({method}, selectivity {}, {} thread{}, {} MiB table)",
            request.games.len(),
            request.from,
            request.judge.selectivity,
            searcher.threads(),
            if searcher.threads() == 1 { "" } else { "s" },
            searcher.table().mib()
        )?;
    }
    let bar = crate::progress::progress_bar(request.progress, request.games.len() as u64, "games");
    let started = Instant::now();
    let mut players: BTreeMap<String, PlayerSummary> = BTreeMap::new();
    let games: Vec<GameSummary> = request.games.iter().map(GameSummary::of).collect();
    for game in &request.games {
        searcher.clear();
        for color in [Color::Black, Color::White] {
            players.entry(player_name(game, color)).or_default().games += 1;
        }
        for review in review_game(&mut searcher, &request.judge, game, request.from) {
            let player = players.entry(player_name(game, review.color)).or_default();
            player.moves += 1;
            player.errors += usize::from(review.loss > 0);
            player.turned += usize::from(review.turned);
            *player.lost_by_empties.entry(review.empties).or_default() += i64::from(review.loss);
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if request.json {
        write_json(request, &games, &players, started.elapsed().as_secs_f64(), out)?;
    } else {
        write_table(&games, &players, started.elapsed().as_secs_f64(), out)?;
    }
    Ok(players)
}

/// Discs lost a game, from centi-discs in all.
fn per_game(lost: i64, games: usize) -> f64 {
    lost as f64 / 100.0 / games.max(1) as f64
}

/// A line per game (`game 1: Saio1200 vs Saio3000, opening: Tiger`), the table per player, then
/// the discs lost by empties of each player who lost any.
fn write_table(
    games: &[GameSummary],
    players: &BTreeMap<String, PlayerSummary>,
    seconds: f64,
    out: &mut impl Write,
) -> io::Result<()> {
    for (i, game) in games.iter().enumerate() {
        let opening = game.opening.unwrap_or("(none)");
        writeln!(out, "game {}: {} vs {}, opening: {opening}", i + 1, game.black, game.white)?;
    }
    writeln!(
        out,
        "{:<16} {:>6} {:>7} {:>7} {:>11} {:>7}",
        "player", "games", "moves", "errors", "lost a game", "turned"
    )?;
    for (name, p) in players {
        writeln!(
            out,
            "{name:<16} {:>6} {:>7} {:>7} {:>11.3} {:>7}",
            p.games,
            p.moves,
            p.errors,
            per_game(p.lost(), p.games),
            p.turned
        )?;
    }
    for (name, p) in players {
        let by_empties: Vec<String> = p
            .lost_by_empties
            .iter()
            .rev()
            .filter(|&(_, &lost)| lost != 0)
            .map(|(e, &lost)| format!("{e}:{:.3}", per_game(lost, p.games)))
            .collect();
        if !by_empties.is_empty() {
            writeln!(out, "{name} lost a game at empties {}", by_empties.join(" "))?;
        }
    }
    writeln!(out, "time {seconds:.1} s")
}

/// One game's JSON line.
#[derive(Serialize)]
struct GameJson<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    number: usize,
    black: &'a str,
    white: &'a str,
    opening: Option<&'a str>,
}

/// One player's JSON line.
#[derive(Serialize)]
struct PlayerJson<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    name: &'a str,
    games: usize,
    moves: usize,
    errors: usize,
    lost: f64,
    lost_per_game: f64,
    turned: usize,
    lost_by_empties: BTreeMap<u32, f64>,
}

/// The totals' JSON line.
#[derive(Serialize)]
struct TotalJson {
    #[serde(rename = "type")]
    kind: &'static str,
    games: usize,
    from: u32,
    exact_from: u32,
    depth: u32,
    selectivity: u8,
    time: f64,
}

/// A line per game, a line per player, then the totals.
fn write_json(
    request: &ReviewRequest,
    games: &[GameSummary],
    players: &BTreeMap<String, PlayerSummary>,
    seconds: f64,
    out: &mut impl Write,
) -> io::Result<()> {
    for (i, game) in games.iter().enumerate() {
        let line =
            GameJson { kind: "game", number: i + 1, black: &game.black, white: &game.white, opening: game.opening };
        json_line(out, &line)?;
    }
    for (name, p) in players {
        let player = PlayerJson {
            kind: "player",
            name,
            games: p.games,
            moves: p.moves,
            errors: p.errors,
            lost: per_game(p.lost(), 1),
            lost_per_game: per_game(p.lost(), p.games),
            turned: p.turned,
            lost_by_empties: p
                .lost_by_empties
                .iter()
                .filter(|&(_, &lost)| lost != 0)
                .map(|(&e, &l)| (e, per_game(l, 1)))
                .collect(),
        };
        json_line(out, &player)?;
    }
    let total = TotalJson {
        kind: "total",
        games: request.games.len(),
        from: request.from,
        exact_from: request.judge.exact.min(request.from),
        depth: request.judge.depth,
        selectivity: request.judge.selectivity,
        time: seconds,
    };
    json_line(out, &total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testing::{minimax, random_line};
    use crate::board::{BoardSize, Position};
    use crate::eval::Evaluator;
    use crate::rng::Rng;

    /// A judge that solves from `exact` empties down at `selectivity`.
    fn exact_judge(exact: u32, selectivity: u8) -> Judge {
        Judge { eval: Evaluator::new(crate::eval::EvalKind::Pattern), depth: 1, movetime: None, exact, selectivity }
    }

    /// A game from `start` through `moves` (passes written out where forced).
    fn game_of(start: Position, moves: &[Move]) -> GgfGame {
        let mut game = GgfGame::new(start);
        for &mv in moves {
            game.push_move(mv, None, None).unwrap();
        }
        game
    }

    #[test]
    fn losses_are_those_of_a_slow_minimax() {
        let mut rng = Rng::new(11);
        let mut searcher = Searcher::with_hash(4).unwrap();
        let (mut lost, mut turned) = (0, 0);
        for _ in 0..12 {
            // A random position of 10 empties, then random moves to the end.
            let (start, _) = random_line(&mut rng, BoardSize::Eight, 10);
            let mut pos = start;
            let mut moves = Vec::new();
            let mut expected = Vec::new();
            while !pos.is_game_over() {
                if pos.must_pass() {
                    moves.push(Move::Pass);
                    pos = pos.pass();
                    continue;
                }
                let legal: Vec<_> = pos.legal_moves().iter().collect();
                let sq = legal[rng.below(legal.len())];
                let next = pos.play(sq);
                let (before, after) = (minimax(&pos), -minimax(&next));
                expected.push((
                    pos.side_to_move(),
                    pos.empty_count(),
                    100 * (before - after),
                    after.signum() < before.signum(),
                ));
                moves.push(Move::Play(sq));
                pos = next;
            }
            let reviews = review_game(&mut searcher, &exact_judge(10, 4), &game_of(start, &moves), 10);
            let got: Vec<_> = reviews.iter().map(|r| (r.color, r.empties, r.loss, r.turned)).collect();
            assert_eq!(got, expected, "{start}");
            lost += expected.iter().map(|e| e.2).sum::<i32>();
            turned += expected.iter().filter(|e| e.3).count();
        }
        // Random moves lose discs and turn results: the comparison above had something to check.
        assert!(lost > 0 && turned > 0, "{lost} {turned}");
    }

    #[test]
    fn only_moves_from_the_threshold_down_are_judged() {
        let mut rng = Rng::new(3);
        let (start, _) = random_line(&mut rng, BoardSize::Eight, 14);
        let (mut pos, mut moves, mut judged) = (start, Vec::new(), 0);
        while !pos.is_game_over() {
            let mv = if pos.must_pass() { Move::Pass } else { Move::Play(pos.legal_moves().iter().next().unwrap()) };
            judged += usize::from(mv != Move::Pass && pos.empty_count() <= 9);
            moves.push(mv);
            pos = pos.try_play(mv).unwrap();
        }
        let mut searcher = Searcher::with_hash(4).unwrap();
        let reviews = review_game(&mut searcher, &exact_judge(9, 4), &game_of(start, &moves), 9);
        assert!(judged > 0);
        assert_eq!(reviews.len(), judged);
        assert!(reviews.iter().all(|r| r.empties <= 9 && r.loss >= 0));
    }
}
