//! `magpie analyze`: one game judged move by move. Every position of the game is searched (to
//! `--depth`, for `--movetime`, or exactly from `--exact` empty squares down) for its best move
//! and value; where the move played was not that move, a second search of the same kind scores
//! the move played alone, so that both values come from searches of the same depth. A move's
//! loss is the best value less the played move's (never below 0), in discs for the mover, and
//! its class follows from the loss ([`Class`]).
//!
//! Each position is searched by a searcher of one thread with a cleared table, so that a value
//! is the one `magpie bestmove` gives for that position with the same options, whatever the game
//! or the number of threads; threads take positions in turn.
//!
//! A match's GGF gives the moves of the opening both engines were handed without a time, and
//! every move the engines chose with one: the moves before the first timed one (when a move has a
//! time) are the given opening ([`given_moves`]). They are judged and shown, but not counted to
//! either player and not marked in the picture.
//!
//! Outputs: a table for people ([`report`]), one JSON object a line for programs, and a picture
//! of the score through the game ([`svg`]).

pub mod report;
pub mod svg;

use crate::board::{Color, Move, Position, Square};
use crate::book::names::opening_name;
use crate::eval::Evaluator;
use crate::formats::ggf::GgfGame;
use crate::search::{Deadlines, Limits, NoControl, SearchRequest, Searcher};
use serde::Serialize;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The depth of each position's search unless told otherwise.
pub const DEFAULT_DEPTH: u32 = 18;
/// Positions with this many empty squares or fewer are solved exactly unless told otherwise.
pub const DEFAULT_EXACT: u32 = 20;
/// The most empty squares an exact solve may start from: beyond, a solve takes minutes.
pub const MAX_EXACT: u32 = 30;

/// A move losing at least this much (centi-discs) is an inaccuracy.
pub const INACCURACY: i32 = 200;
/// A move losing at least this much is a mistake.
pub const MISTAKE: i32 = 400;
/// A move losing at least this much is a blunder.
pub const BLUNDER: i32 = 800;

/// A move's class, by the discs it lost to the best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// No loss: the best move, or one as good.
    Best,
    /// Less than 2 discs lost.
    Good,
    /// 2 discs or more, less than 4.
    Inaccuracy,
    /// 4 discs or more, less than 8.
    Mistake,
    /// 8 discs or more.
    Blunder,
}

impl Class {
    /// Every class, from no loss to the largest.
    pub const ALL: [Class; 5] = [Class::Best, Class::Good, Class::Inaccuracy, Class::Mistake, Class::Blunder];

    /// The class of a loss of `loss` centi-discs.
    pub fn of(loss: i32) -> Class {
        match loss {
            ..=0 => Class::Best,
            l if l < INACCURACY => Class::Good,
            l if l < MISTAKE => Class::Inaccuracy,
            l if l < BLUNDER => Class::Mistake,
            _ => Class::Blunder,
        }
    }

    /// Its name, as the table and the JSON write it.
    pub fn name(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    /// Whether the picture marks and labels moves of this class: those the table counts,
    /// inaccuracies and worse.
    pub fn is_marked(self) -> bool {
        self >= Class::Inaccuracy
    }
}

/// How each position is searched.
#[derive(Clone, Debug)]
pub struct Judge {
    /// The evaluation at the leaves.
    pub eval: Evaluator,
    /// The depth of the search of a position with more than `exact` empty squares.
    pub depth: u32,
    /// Search each such position for this long instead of to `depth`.
    pub movetime: Option<Duration>,
    /// Positions with this many empty squares or fewer are solved exactly.
    pub exact: u32,
    /// Multi-ProbCut's selectivity (the solves end exact at any level).
    pub selectivity: u8,
}

/// The judgement of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The best move found.
    pub best: Square,
    /// Its value for the mover, in centi-discs.
    pub best_value: i32,
    /// The value of the move played for the mover, in centi-discs.
    pub played_value: i32,
    /// Whether both values are exact (perfect play).
    pub exact: bool,
    /// The depth the searches reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

impl Judgement {
    /// Centi-discs lost to the best move (0 when the move played scored as well or better).
    pub fn loss(&self) -> i32 {
        (self.best_value - self.played_value).max(0)
    }
}

impl Judge {
    /// The search of `pos` this judge runs.
    fn request(&self, pos: &Position) -> SearchRequest {
        let mut request = SearchRequest::new(*pos, self.eval.clone());
        request.selectivity = self.selectivity;
        if pos.empty_count() > self.exact {
            match self.movetime {
                Some(movetime) => {
                    let limits = Limits { movetime: Some(movetime), ..Limits::default() };
                    request.deadlines = Deadlines::plan(&limits, pos.empty_count(), request.start, Duration::ZERO);
                }
                None => request.max_depth = self.depth,
            }
        }
        request
    }

    /// Judges `played`, a legal move of `pos`: the best move and its value, and the value of
    /// `played`, each from a search of the same kind.
    pub fn judge(&self, searcher: &mut Searcher, pos: &Position, played: Square) -> Judgement {
        let started = Instant::now();
        let full = searcher.search(&self.request(pos), &mut NoControl, &mut |_| {});
        let best = match full.best {
            Move::Play(square) => square,
            Move::Pass => played,
        };
        let mut judgement = Judgement {
            best,
            best_value: full.info.score,
            played_value: full.info.score,
            exact: full.info.exact,
            depth: full.info.depth,
            nodes: full.info.nodes,
            time: Duration::ZERO,
        };
        if best != played {
            let mut only = self.request(pos);
            only.excluded = pos.legal_moves().0 & !(1u64 << played.index());
            let alone = searcher.search(&only, &mut NoControl, &mut |_| {});
            judgement.played_value = alone.info.score;
            judgement.exact &= alone.info.exact;
            judgement.nodes += alone.info.nodes;
        }
        judgement.time = started.elapsed();
        judgement
    }
}

/// One analysed move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveAnalysis {
    /// Its number in the game, 1 for the first disc played (passes are not counted).
    pub number: usize,
    /// Who played it.
    pub color: Color,
    /// The square played.
    pub played: Square,
    /// Empty squares before it.
    pub empties: u32,
    /// What the searches found.
    pub judgement: Judgement,
    /// Whether the move belongs to the opening the players were given (see [`given_moves`]).
    pub given: bool,
    /// The value of the position after the move for Black, in centi-discs: the graph's point.
    /// The searches of depth d that judge a move score the position after it at depth d - 1,
    /// and those of the next move at depth d; an even depth favours one side and an odd depth
    /// the other (by two discs and more at depth 12), so the point is the mean of the two,
    /// which a line through the game shows without a zigzag. After the last move, and where
    /// both are exact, it is the value of the move played.
    pub black_value: i32,
}

impl MoveAnalysis {
    /// Centi-discs lost.
    pub fn loss(&self) -> i32 {
        self.judgement.loss()
    }

    /// The class of the loss.
    pub fn class(&self) -> Class {
        Class::of(self.loss())
    }

    /// Whether the picture marks the move: an inaccuracy or worse that a player chose.
    pub fn is_marked(&self) -> bool {
        !self.given && self.class().is_marked()
    }
}

/// A value for `color` seen from Black.
fn for_black(color: Color, value: i32) -> i32 {
    if color == Color::Black { value } else { -value }
}

/// One player's totals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerSummary {
    /// Moves judged.
    pub moves: usize,
    /// Centi-discs lost in all.
    pub lost: i64,
    /// Moves of each class, in the order of [`Class::ALL`].
    pub classes: [usize; 5],
}

impl PlayerSummary {
    /// The totals of the moves `color` chose (the given opening left out).
    pub fn of(moves: &[MoveAnalysis], color: Color) -> PlayerSummary {
        let mut summary = PlayerSummary::default();
        for m in moves.iter().filter(|m| m.color == color && !m.given) {
            summary.moves += 1;
            summary.lost += i64::from(m.loss());
            summary.classes[m.class() as usize] += 1;
        }
        summary
    }

    /// Discs lost a move on average.
    pub fn average_loss(&self) -> f64 {
        self.lost as f64 / 100.0 / self.moves.max(1) as f64
    }

    /// The moves of `class`.
    pub fn count(&self, class: Class) -> usize {
        self.classes[class as usize]
    }

    /// The share of moves, in percent, that lost less than [`INACCURACY`] (the best and the good
    /// ones); `None` with no move judged.
    pub fn accuracy(&self) -> Option<f64> {
        let accurate = self.count(Class::Best) + self.count(Class::Good);
        (self.moves > 0).then(|| 100.0 * accurate as f64 / self.moves as f64)
    }
}

/// A game's analysis: its moves judged, with what is shown around them.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Where the game came from (a file and a game number, or the move list).
    pub source: String,
    /// Black's player.
    pub black: String,
    /// White's player.
    pub white: String,
    /// The last named opening the game passed.
    pub opening: Option<&'static str>,
    /// The start position.
    pub start: Position,
    /// The final score for Black (empties to the winner) when the game was played to its end.
    pub result: Option<i32>,
    /// The moves, in order, passes left out.
    pub moves: Vec<MoveAnalysis>,
    /// How the positions were searched.
    pub judge: Judge,
    /// Time taken.
    pub time: Duration,
}

impl Analysis {
    /// The totals of `color`'s moves.
    pub fn player(&self, color: Color) -> PlayerSummary {
        PlayerSummary::of(&self.moves, color)
    }

    /// The name of `color`'s player.
    pub fn name(&self, color: Color) -> &str {
        if color == Color::Black { &self.black } else { &self.white }
    }

    /// `color`'s player as the outputs name them: `Black (Tamenori)`, or `Black` when the game
    /// names no one.
    pub fn who(&self, color: Color) -> String {
        let side = color_name(color);
        let name = self.name(color);
        if name == side { side.to_string() } else { format!("{side} ({name})") }
    }

    /// Nodes searched in all.
    pub fn nodes(&self) -> u64 {
        self.moves.iter().map(|m| m.judgement.nodes).sum()
    }

    /// How the positions were searched, in words: `depth 18, exact from 20 empties`.
    pub fn method(&self) -> String {
        let midgame = match self.judge.movetime {
            Some(t) => format!("{} ms a position", t.as_millis()),
            None => format!("depth {}", self.judge.depth),
        };
        let exact = if self.judge.exact == 0 {
            "nothing exact".to_string()
        } else {
            format!("exact from {} empties", self.judge.exact)
        };
        format!("{midgame}, {exact}, selectivity {}", self.judge.selectivity)
    }
}

/// What to analyse and how.
#[derive(Clone, Debug)]
pub struct AnalyzeRequest {
    /// The game (its players' names, if any, in its tags).
    pub game: GgfGame,
    /// Where it came from, as the report names it.
    pub source: String,
    /// How each position is searched.
    pub judge: Judge,
    /// Positions searched at once (one thread each).
    pub threads: usize,
    /// Each thread's table size in MiB.
    pub hash_mib: usize,
    /// Write the picture of the score there.
    pub svg: Option<PathBuf>,
    /// Write JSON lines rather than the table.
    pub json: bool,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// `Black` or `White`.
pub fn color_name(color: Color) -> &'static str {
    if color == Color::Black { "Black" } else { "White" }
}

/// The name a game gives `color`'s player, or the colour's.
pub fn player_name(game: &GgfGame, color: Color) -> String {
    match game.player(color) {
        Some(name) if !name.trim().is_empty() => name.trim().to_string(),
        _ => color_name(color).to_string(),
    }
}

/// How many of `game`'s moves (passes included) were given to the players rather than chosen:
/// when some move carries a time, the moves before the first that does (a match's opening);
/// otherwise none.
pub fn given_moves(game: &GgfGame) -> usize {
    let moves = game.moves();
    moves.iter().position(|m| m.time.is_some()).unwrap_or(0)
}

/// Analyses every move of `game` (passes aside) with `threads` searchers of `hash_mib` MiB each,
/// advancing `bar` by one a move. An error if a table cannot be allocated.
pub fn analyze_game(
    game: &GgfGame,
    judge: &Judge,
    threads: usize,
    hash_mib: usize,
    bar: &indicatif::ProgressBar,
) -> io::Result<Vec<MoveAnalysis>> {
    // The moves to judge with the positions they were played from.
    let mut tasks: Vec<(usize, Color, Position, Square, bool)> = Vec::new();
    let mut pos = game.start();
    let given = given_moves(game);
    for (i, played) in game.moves().iter().enumerate() {
        if let Move::Play(square) = played.mv {
            tasks.push((tasks.len() + 1, played.color, pos, square, i < given));
        }
        match pos.try_play(played.mv) {
            Ok(next) => pos = next,
            // The parser checked every move: a game that does not replay stops there.
            Err(_) => break,
        }
    }
    let mut searchers = Vec::new();
    for _ in 0..threads.clamp(1, tasks.len().max(1)) {
        searchers.push(Searcher::with_hash(hash_mib).map_err(io::Error::other)?);
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<MoveAnalysis>>> = Mutex::new(vec![None; tasks.len()]);
    std::thread::scope(|scope| {
        for searcher in &mut searchers {
            let (tasks, next, results) = (&tasks, &next, &results);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(number, color, pos, played, given)) = tasks.get(i) else { break };
                    searcher.clear();
                    let judgement = judge.judge(searcher, &pos, played);
                    let empties = pos.empty_count();
                    let black_value = for_black(color, judgement.played_value);
                    let analysis = MoveAnalysis { number, color, played, empties, judgement, given, black_value };
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(analysis);
                    bar.inc(1);
                }
            });
        }
    });
    let mut moves: Vec<MoveAnalysis> =
        results.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().flatten().collect();
    // The position after a move (and any pass) is the one the next move is played from.
    for i in 1..moves.len() {
        let next = moves[i];
        let m = &mut moves[i - 1];
        m.black_value = (m.black_value + for_black(next.color, next.judgement.best_value)) / 2;
    }
    Ok(moves)
}

/// Analyses the game of `request` and writes the table (or the JSON lines) to `out`, and the
/// picture to its file; returns the analysis.
pub fn run(request: &AnalyzeRequest, out: &mut impl Write) -> io::Result<Analysis> {
    let game = &request.game;
    let placed = game.moves().iter().filter(|m| m.mv != Move::Pass).count();
    let bar = crate::progress::progress_bar(request.progress, placed as u64, "moves");
    let started = Instant::now();
    let moves = analyze_game(game, &request.judge, request.threads, request.hash_mib, &bar)?;
    bar.finish_and_clear();
    let end = game.position();
    let analysis = Analysis {
        source: request.source.clone(),
        black: player_name(game, Color::Black),
        white: player_name(game, Color::White),
        opening: opening_name(game.game().positions()),
        start: game.start(),
        result: end.is_game_over().then(|| end.final_score_for_black()),
        moves,
        judge: request.judge.clone(),
        time: started.elapsed(),
    };
    if let Some(path) = &request.svg {
        svg::write(path, &analysis)?;
    }
    if request.json {
        report::write_json(&analysis, out)?;
    } else {
        report::write_table(&analysis, out)?;
    }
    Ok(analysis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testing::{minimax, random_line};
    use crate::board::{BoardSize, Position};
    use crate::eval::EvalKind;
    use crate::rng::Rng;

    fn exact_judge() -> Judge {
        Judge { eval: Evaluator::new(EvalKind::Pattern), depth: 4, movetime: None, exact: 12, selectivity: 3 }
    }

    #[test]
    fn classes_follow_the_loss_in_discs() {
        let classes: Vec<Class> = [0, 1, 199, 200, 399, 400, 799, 800, 6400].into_iter().map(Class::of).collect();
        use Class::*;
        assert_eq!(classes, [Best, Good, Good, Inaccuracy, Inaccuracy, Mistake, Mistake, Blunder, Blunder]);
        assert!(Class::ALL.iter().enumerate().all(|(i, c)| *c as usize == i));
        assert_eq!(Class::ALL.iter().filter(|c| c.is_marked()).count(), 3);
    }

    #[test]
    fn exact_losses_are_those_of_a_slow_minimax() {
        let mut rng = Rng::new(5);
        let mut searcher = Searcher::with_hash(4).unwrap();
        let judge = exact_judge();
        let mut lossy = 0;
        for _ in 0..30 {
            let (pos, _) = random_line(&mut rng, BoardSize::Eight, 9);
            if pos.must_pass() || pos.is_game_over() {
                continue;
            }
            let legal: Vec<_> = pos.legal_moves().iter().collect();
            let played = legal[rng.below(legal.len())];
            let judgement = judge.judge(&mut searcher, &pos, played);
            let best = minimax(&pos);
            let after = -minimax(&pos.play(played));
            assert!(judgement.exact, "{pos}");
            assert_eq!((judgement.best_value, judgement.played_value), (100 * best, 100 * after), "{pos} {played}");
            assert_eq!(-minimax(&pos.play(judgement.best)), best, "{pos}: the best move reaches the value");
            assert_eq!(judgement.loss(), 100 * (best - after));
            lossy += usize::from(best > after);
        }
        assert!(lossy > 0, "random moves lose discs: the comparison had something to check");
    }

    #[test]
    fn threads_do_not_change_the_analysis() {
        let mut rng = Rng::new(8);
        let (_, line) = random_line(&mut rng, BoardSize::Eight, 26);
        let mut game = GgfGame::new(Position::initial());
        let mut line = line.into_iter();
        loop {
            let pos = game.position();
            if pos.is_game_over() {
                break;
            }
            // The random line to 26 empties, then the first legal move each time.
            let mv = if pos.must_pass() {
                Move::Pass
            } else {
                Move::Play(line.next().unwrap_or_else(|| pos.legal_moves().iter().next().unwrap()))
            };
            game.push_move(mv, None, None).unwrap();
        }
        let judge = Judge { depth: 3, ..exact_judge() };
        let bar = indicatif::ProgressBar::hidden();
        let one = analyze_game(&game, &judge, 1, 2, &bar).unwrap();
        let two = analyze_game(&game, &judge, 2, 2, &bar).unwrap();
        let strip = |moves: &[MoveAnalysis]| {
            moves
                .iter()
                .map(|m| (m.number, m.played, m.judgement.best, m.loss(), m.judgement.exact))
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&one), strip(&two));
        assert_eq!(one.len(), game.moves().iter().filter(|m| m.mv != Move::Pass).count());
        assert_eq!(one.iter().map(|m| m.number).collect::<Vec<_>>(), (1..=one.len()).collect::<Vec<_>>());
        assert!(one.iter().all(|m| m.judgement.exact == (m.empties <= 12)));
    }
}
