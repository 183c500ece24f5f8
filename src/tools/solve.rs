//! `magpie solve FILE.obf`: solves every position of a test suite (the FFO endgames, say) exactly,
//! or for win/draw/loss only, with the engine's own search, and checks each answer against the
//! scores the file lists.
//!
//! One line per position as soon as it is solved (its number in the suite and its line in the
//! file, empties, best move, score, nodes, time, speed, and whether the file agrees), a progress
//! bar on stderr meanwhile,
//! and the totals at the end. The table is cleared before each position, so that each time
//! stands alone. With `--json`, one JSON object a line instead: each position, then the totals.
//! With a time limit, a position not solved within it is stopped and reported as cut (with the
//! move and score of the search so far), neither agreeing nor disagreeing with the file.

use crate::board::{Move, Position};
use crate::eval::Evaluator;
use crate::formats::{ObfLine, json_line, wld_word};
use crate::search::{Deadlines, NoControl, SearchRequest, Searcher, SolveSteps, TranspositionTable};
use serde::Serialize;
use std::io::{self, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What to solve and how.
#[derive(Clone, Debug)]
pub struct SolveRequest {
    /// The positions, each with its line number in the file.
    pub positions: Vec<(usize, ObfLine)>,
    /// The number of the first position in its suite (FFO #40 for fforum-40-59.obf), when known:
    /// the positions are numbered from it, else from 1.
    pub first: Option<usize>,
    /// The evaluation that orders the moves (its weights' ProbCut fits drive the selective solves).
    pub eval: Evaluator,
    /// Search threads.
    pub threads: usize,
    /// Table size in MiB.
    pub hash_mib: usize,
    /// Win/draw/loss only.
    pub wld: bool,
    /// Multi-ProbCut's selectivity: the depth-limited iterations cut at this level, and the one
    /// selective solve before the exact one at this level or 3, the lower (0: straight to the
    /// exact solve).
    pub selectivity: u8,
    /// Each position's time limit: a search still running then is stopped and the position
    /// reported as cut.
    pub time_limit: Option<Duration>,
    /// Write JSON lines rather than the table.
    pub json: bool,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// The totals of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveSummary {
    /// Positions solved (those cut at the time limit are not).
    pub solved: usize,
    /// Answers that agree with the file.
    pub agreed: usize,
    /// Answers that do not.
    pub disagreed: usize,
    /// Positions the file gives no score for.
    pub unchecked: usize,
    /// Positions stopped at the time limit, not solved (not counted in `solved`).
    pub cut: usize,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Time spent searching in all.
    pub time: Duration,
}

/// One solved position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best move (a pass when the side to move must pass; `None` when the game is over).
    pub best: Option<Move>,
    /// The score in discs for the side to move: exact, or in WLD mode a bound (+2 or more for a
    /// win, 0 for a draw, −2 or less for a loss).
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether the search ran to its end; `false` when it was stopped at the time limit, and
    /// `best` and `score` are then those of the search so far.
    pub complete: bool,
}

/// What a check of a solution against the file says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The file agrees.
    Agrees,
    /// The file disagrees.
    Disagrees,
    /// The file lists no score.
    Unknown,
}

/// Solves `position` with `searcher` (exactly, or WLD) and the evaluation `eval`: the
/// depth-limited iterations cut at `selectivity`, then one selective solve
/// ([`SolveSteps::Fast`]) and the exact one; stopped after `time_limit`, if given.
pub fn solve(
    searcher: &mut Searcher,
    eval: &Evaluator,
    position: &Position,
    wld: bool,
    selectivity: u8,
    time_limit: Option<Duration>,
) -> Solution {
    if position.is_game_over() {
        return Solution { best: None, score: position.final_score(), nodes: 0, complete: true };
    }
    let (searched, sign) = if position.must_pass() { (position.pass(), -1) } else { (*position, 1) };
    let mut request = SearchRequest::new(searched, eval.clone());
    request.wld = wld;
    request.selectivity = selectivity;
    request.solve_steps = SolveSteps::Fast;
    request.deadlines = Deadlines { soft: None, hard: time_limit.map(|limit| request.start + limit) };
    let result = searcher.search(&request, &mut NoControl, &mut |_| {});
    let best = if sign < 0 { Move::Pass } else { result.best };
    Solution {
        best: Some(best),
        score: sign * result.info.score / 100,
        nodes: result.info.nodes,
        complete: result.stopped.is_none(),
    }
}

/// Checks `solution` against the scores `line` lists: the score must be the best listed (in WLD
/// mode, of the same sign), and the move, if the file lists it, must reach it.
pub fn check(line: &ObfLine, solution: &Solution, wld: bool) -> Check {
    let Some(best) = line.best_score() else { return Check::Unknown };
    let same = |a: i32, b: i32| if wld { a.signum() == b.signum() } else { a == b };
    let move_ok = match solution.best.and_then(|mv| line.scores.iter().find(|s| s.0 == mv)) {
        Some(&(_, listed)) => same(listed, best),
        None => true,
    };
    if same(solution.score, best) && move_ok { Check::Agrees } else { Check::Disagrees }
}

/// The score column: signed discs, or win/draw/loss.
fn score_text(score: i32, wld: bool) -> String {
    if wld { wld_word(score).to_string() } else { format!("{score:+}") }
}

/// One position's JSON line.
#[derive(Serialize)]
struct PositionJson {
    #[serde(rename = "type")]
    kind: &'static str,
    number: usize,
    line: usize,
    position: String,
    empties: u32,
    #[serde(rename = "move")]
    best: Option<String>,
    score: i32,
    result: Option<&'static str>,
    nodes: u64,
    time: f64,
    nps: u64,
    check: &'static str,
    expected_score: Option<i32>,
    expected_moves: Vec<String>,
}

/// The totals' JSON line.
#[derive(Serialize)]
struct TotalJson {
    #[serde(rename = "type")]
    kind: &'static str,
    positions: usize,
    agree: usize,
    disagree: usize,
    unchecked: usize,
    cut: usize,
    nodes: u64,
    time: f64,
    nps: u64,
    wld: bool,
    selectivity: u8,
    threads: usize,
    hash_mib: usize,
}

/// Solves every position of `request`, writing a line for each and the totals.
pub fn run(request: &SolveRequest, out: &mut impl Write) -> io::Result<SolveSummary> {
    let table = TranspositionTable::new(request.hash_mib).map_err(io::Error::other)?;
    let mut searcher = Searcher::with_table(Arc::new(table));
    searcher.set_threads(request.threads);
    let bar = crate::progress::progress_bar(request.progress, request.positions.len() as u64, "positions");
    let first = request.first.unwrap_or(1);
    if !request.json {
        let count = request.positions.len();
        writeln!(
            out,
            "solving {count} position{}{} ({}, selectivity {}, {} thread{}, {} MiB table{})",
            if count == 1 { "" } else { "s" },
            request.first.map_or(String::new(), |n| format!(" #{n}-#{}", n + count - 1)),
            if request.wld { "win/draw/loss" } else { "exact" },
            request.selectivity,
            searcher.threads(),
            if searcher.threads() == 1 { "" } else { "s" },
            searcher.table().mib(),
            request.time_limit.map_or(String::new(), |limit| format!(", at most {} s a position", limit.as_secs()))
        )?;
        writeln!(
            out,
            "{:>4} {:>5} {:>7} {:>5} {:>6} {:>14} {:>9} {:>11}  check",
            "#", "line", "empties", "move", "score", "nodes", "time", "nps"
        )?;
    }
    let mut summary = SolveSummary::default();
    for (index, (line_number, line)) in request.positions.iter().enumerate() {
        let number = first + index;
        bar.set_message(format!("solving #{number}"));
        searcher.clear();
        let started = Instant::now();
        let solution =
            solve(&mut searcher, &request.eval, &line.position, request.wld, request.selectivity, request.time_limit);
        let time = started.elapsed();
        let verdict = if solution.complete { Some(check(line, &solution, request.wld)) } else { None };
        summary.nodes += solution.nodes;
        summary.time += time;
        match verdict {
            Some(Check::Agrees) => summary.agreed += 1,
            Some(Check::Disagrees) => summary.disagreed += 1,
            Some(Check::Unknown) => summary.unchecked += 1,
            None => summary.cut += 1,
        }
        if verdict.is_some() {
            summary.solved += 1;
        }
        let best = solution.best.map(|m| m.to_string());
        let expected_moves: Vec<String> = line.best_moves().iter().map(|m| m.to_string()).collect();
        bar.suspend(|| {
            if request.json {
                return json_line(
                    out,
                    &PositionJson {
                        kind: "position",
                        number,
                        line: *line_number,
                        position: line.position.to_string(),
                        empties: line.position.empty_count(),
                        best: best.clone(),
                        score: solution.score,
                        result: request.wld.then(|| wld_word(solution.score)),
                        nodes: solution.nodes,
                        time: time.as_secs_f64(),
                        nps: nps(solution.nodes, time),
                        check: match verdict {
                            Some(Check::Agrees) => "ok",
                            Some(Check::Disagrees) => "wrong",
                            Some(Check::Unknown) => "unchecked",
                            None => "cut",
                        },
                        expected_score: line.best_score(),
                        expected_moves: expected_moves.clone(),
                    },
                );
            }
            let verdict = match verdict {
                Some(Check::Agrees) => "ok".to_string(),
                Some(Check::Disagrees) => format!(
                    "WRONG (file: {} by {})",
                    score_text(line.best_score().unwrap_or(0), request.wld),
                    expected_moves.join(" ")
                ),
                Some(Check::Unknown) => "?".to_string(),
                None => "cut at the time limit (move and score of the search so far)".to_string(),
            };
            writeln!(
                out,
                "{number:>4} {line_number:>5} {:>7} {:>5} {:>6} {:>14} {:>8.3}s {:>11}  {verdict}",
                line.position.empty_count(),
                best.as_deref().unwrap_or("none"),
                score_text(solution.score, request.wld),
                solution.nodes,
                time.as_secs_f64(),
                nps(solution.nodes, time),
            )
        })?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    if request.json {
        json_line(
            out,
            &TotalJson {
                kind: "total",
                positions: summary.solved + summary.cut,
                agree: summary.agreed,
                disagree: summary.disagreed,
                unchecked: summary.unchecked,
                cut: summary.cut,
                nodes: summary.nodes,
                time: summary.time.as_secs_f64(),
                nps: nps(summary.nodes, summary.time),
                wld: request.wld,
                selectivity: request.selectivity,
                threads: searcher.threads(),
                hash_mib: searcher.table().mib(),
            },
        )?;
    } else {
        writeln!(
            out,
            "total: {} positions, {} agree, {} disagree, {} unchecked, {} cut; nodes {}, time {:.3} s, nps {}",
            summary.solved + summary.cut,
            summary.agreed,
            summary.disagreed,
            summary.unchecked,
            summary.cut,
            summary.nodes,
            summary.time.as_secs_f64(),
            nps(summary.nodes, summary.time)
        )?;
    }
    Ok(summary)
}

fn nps(nodes: u64, time: Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

    #[test]
    fn solves_and_checks_a_line() {
        let line: ObfLine = FFO_1.parse().unwrap();
        let mut searcher = Searcher::with_hash(4).unwrap();
        let solution =
            solve(&mut searcher, &Evaluator::new(crate::eval::EvalKind::Pattern), &line.position, false, 4, None);
        assert_eq!(solution.score, 18);
        assert_eq!(solution.best, Some("g8".parse().unwrap()));
        assert_eq!(check(&line, &solution, false), Check::Agrees);
        let wrong = Solution { score: 12, ..solution };
        assert_eq!(check(&line, &wrong, false), Check::Disagrees);
        let other_move = Solution { best: Some("h1".parse().unwrap()), ..solution };
        assert_eq!(check(&line, &other_move, false), Check::Disagrees);
        let wld = solve(&mut searcher, &Evaluator::new(crate::eval::EvalKind::Pattern), &line.position, true, 4, None);
        assert!(wld.score >= 2, "a win: {wld:?}");
        assert_eq!(check(&line, &wld, true), Check::Agrees);
        assert_eq!(check(&line, &Solution { score: 0, ..wld }, true), Check::Disagrees);
    }

    #[test]
    fn passes_and_finished_games() {
        // White's only disc is b1 next to the empty a1: White must pass, Black takes a1 and all.
        let pos: Position = format!("-O{} O", "X".repeat(62)).parse().unwrap();
        assert!(pos.must_pass());
        let mut searcher = Searcher::with_hash(1).unwrap();
        let solution = solve(&mut searcher, &Evaluator::new(crate::eval::EvalKind::Pattern), &pos, false, 4, None);
        assert_eq!((solution.best, solution.score), (Some(Move::Pass), -64));
        let over: Position = format!("{} O", "X".repeat(64)).parse().unwrap();
        let solution = solve(&mut searcher, &Evaluator::new(crate::eval::EvalKind::Pattern), &over, false, 4, None);
        assert_eq!(solution, Solution { best: None, score: -64, nodes: 0, complete: true });
    }
}
