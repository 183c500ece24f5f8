//! `magpie accuracy FILE.obf --depth D`: how well the evaluation and the search judge positions
//! whose exact scores are known. Every position of an OBF file (Edax's hard-20 and hard-25 sets,
//! the FFO suite, a set of one's own) is searched to depth D, and its score and move are compared
//! with the file's: the mean absolute and signed error of the score, the share of positions whose
//! move is one of the best, whose score is within 3 and within 6 discs of the exact one, and the
//! discs the move loses to the best (where the file scores every move). With nodes and time.
//!
//! It is the quick signal for a change to the evaluation, and load-independent: each position is
//! searched on one thread with a table cleared before it, so the nodes, scores and moves are the
//! same on any machine and at any `--threads` (threads search different positions at once). The
//! lines are written in the file's order.

use crate::board::{Move, Position};
use crate::eval::Evaluator;
use crate::formats::{ObfLine, discs_text, json_line};
use crate::search::{NoControl, SearchRequest, Searcher};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What to search and how.
#[derive(Clone, Debug)]
pub struct AccuracyRequest {
    /// The positions, each with its line number in the file.
    pub positions: Vec<(usize, ObfLine)>,
    /// The number of the first position in its suite, when known.
    pub first: Option<usize>,
    /// The depth of every search.
    pub depth: u32,
    /// Multi-ProbCut's selectivity.
    pub selectivity: u8,
    /// The evaluation.
    pub eval: Evaluator,
    /// Positions searched at once, each on one thread.
    pub threads: usize,
    /// Each search's table, in MiB.
    pub hash_mib: usize,
    /// Write JSON lines rather than the table.
    pub json: bool,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// One position searched.
#[derive(Clone, Debug, PartialEq)]
pub struct Searched {
    /// The move chosen (a pass when the side must pass; `None` when the game is over).
    pub best: Option<Move>,
    /// Its score for the side to move, in centi-discs.
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// The search's time.
    pub time: Duration,
}

/// A position judged against its file line.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The search.
    pub searched: Searched,
    /// The file's best score, if it gives one.
    pub expected: Option<i32>,
    /// The score's error in discs (the search's less the file's).
    pub error: Option<f64>,
    /// Whether the move is one of the best; `None` when the file lists no moves.
    pub best_move: Option<bool>,
    /// The discs the move loses to the best, when the file scores it.
    pub loss: Option<i32>,
}

/// The totals of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Positions searched.
    pub positions: usize,
    /// Positions with a score in the file.
    pub scored: usize,
    /// Sum of the absolute errors, in discs.
    pub absolute_error: f64,
    /// Sum of the errors, in discs.
    pub signed_error: f64,
    /// Scores within 3 discs.
    pub within_3: usize,
    /// Scores within 6 discs.
    pub within_6: usize,
    /// Positions whose file lists moves.
    pub with_moves: usize,
    /// Of those, the positions whose move is one of the best.
    pub best_moves: usize,
    /// Positions whose move's score the file gives.
    pub with_loss: usize,
    /// Sum of their losses, in discs.
    pub loss: i64,
    /// Nodes in all.
    pub nodes: u64,
    /// Search time in all (the sum over positions, whatever the threads).
    pub time: Duration,
}

impl Summary {
    fn add(&mut self, judged: &Judged) {
        self.positions += 1;
        self.nodes += judged.searched.nodes;
        self.time += judged.searched.time;
        if let Some(error) = judged.error {
            self.scored += 1;
            self.absolute_error += error.abs();
            self.signed_error += error;
            self.within_3 += usize::from(error.abs() <= 3.0);
            self.within_6 += usize::from(error.abs() <= 6.0);
        }
        if let Some(best) = judged.best_move {
            self.with_moves += 1;
            self.best_moves += usize::from(best);
        }
        if let Some(loss) = judged.loss {
            self.with_loss += 1;
            self.loss += i64::from(loss);
        }
    }

    /// The mean absolute error, in discs.
    pub fn mean_absolute_error(&self) -> Option<f64> {
        (self.scored > 0).then(|| self.absolute_error / self.scored as f64)
    }

    /// The mean signed error, in discs (positive: the search thinks too well of the positions).
    pub fn mean_error(&self) -> Option<f64> {
        (self.scored > 0).then(|| self.signed_error / self.scored as f64)
    }

    /// The share of positions whose move is one of the best, in percent.
    pub fn best_move_percent(&self) -> Option<f64> {
        percent(self.best_moves, self.with_moves)
    }

    /// The mean loss of the moves, in discs.
    pub fn mean_loss(&self) -> Option<f64> {
        (self.with_loss > 0).then(|| self.loss as f64 / self.with_loss as f64)
    }
}

fn percent(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| 100.0 * part as f64 / whole as f64)
}

/// Searches `pos` to `depth` with `searcher` (its table cleared first): a position whose side
/// must pass is searched after the pass, its score given back; a finished game is its result.
pub fn search(searcher: &mut Searcher, eval: &Evaluator, pos: &Position, depth: u32, selectivity: u8) -> Searched {
    if pos.is_game_over() {
        return Searched { best: None, score: pos.final_score() * 100, nodes: 0, time: Duration::ZERO };
    }
    searcher.clear();
    let (searched, sign) = if pos.must_pass() { (pos.pass(), -1) } else { (*pos, 1) };
    let mut request = SearchRequest::new(searched, eval.clone());
    request.max_depth = depth;
    request.selectivity = selectivity;
    let started = Instant::now();
    let result = searcher.search(&request, &mut NoControl, &mut |_| {});
    Searched {
        best: Some(if sign < 0 { Move::Pass } else { result.best }),
        score: sign * result.info.score,
        nodes: result.info.nodes,
        time: started.elapsed(),
    }
}

/// Judges `searched` against the file's `line`.
pub fn judge(line: &ObfLine, searched: Searched) -> Judged {
    let expected = line.best_score();
    let error = expected.map(|best| f64::from(searched.score) / 100.0 - f64::from(best));
    let best_move = (!line.scores.is_empty()).then(|| searched.best.is_some_and(|m| line.best_moves().contains(&m)));
    let loss = match (expected, searched.best.and_then(|m| line.scores.iter().find(|s| s.0 == m))) {
        (Some(best), Some(&(_, score))) => Some(best - score),
        _ => None,
    };
    Judged { searched, expected, error, best_move, loss }
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
    score: f64,
    expected_score: Option<i32>,
    expected_moves: Vec<String>,
    error: Option<f64>,
    best_move: Option<bool>,
    loss: Option<i32>,
    nodes: u64,
    time: f64,
}

/// The totals' JSON line.
#[derive(Serialize)]
struct TotalJson {
    #[serde(rename = "type")]
    kind: &'static str,
    positions: usize,
    depth: u32,
    selectivity: u8,
    eval: String,
    mean_absolute_error: Option<f64>,
    mean_error: Option<f64>,
    best_move_percent: Option<f64>,
    within_3_percent: Option<f64>,
    within_6_percent: Option<f64>,
    mean_loss: Option<f64>,
    scored: usize,
    with_moves: usize,
    nodes: u64,
    time: f64,
    nps: u64,
    threads: usize,
}

/// Searches every position of `request`, writing a line for each in the file's order, and the
/// totals. An error if a table cannot be allocated, or on a write error.
pub fn run(request: &AccuracyRequest, out: &mut impl Write) -> io::Result<Summary> {
    let count = request.positions.len();
    let threads = request.threads.clamp(1, count.max(1));
    // Allocate every table first, so that a size too large is refused before any work.
    let mut searchers = Vec::with_capacity(threads);
    for _ in 0..threads {
        searchers.push(Searcher::with_hash(request.hash_mib).map_err(io::Error::other)?);
    }
    let first = request.first.unwrap_or(1);
    if !request.json {
        writeln!(
            out,
            "searching {count} position{} to depth {} (selectivity {}, evaluation {}, {threads} thread{})",
            if count == 1 { "" } else { "s" },
            request.depth,
            request.selectivity,
            request.eval.name(),
            if threads == 1 { "" } else { "s" },
        )?;
        writeln!(
            out,
            "{:>4} {:>5} {:>7} {:>5} {:>7} {:>5} {:>7} {:>5} {:>14} {:>9}",
            "#", "line", "empties", "move", "score", "file", "error", "loss", "nodes", "time"
        )?;
    }
    let bar = crate::progress::progress_bar(request.progress, count as u64, "positions");
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Judged)>();
    let mut summary = Summary::default();
    let written: io::Result<()> = std::thread::scope(|scope| {
        for mut searcher in searchers {
            let (tx, next) = (tx.clone(), &next);
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some((_, line)) = request.positions.get(index) else { break };
                    let searched =
                        search(&mut searcher, &request.eval, &line.position, request.depth, request.selectivity);
                    if tx.send((index, judge(line, searched))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Lines in the file's order: a position that finishes early waits for those before it.
        let mut waiting = BTreeMap::new();
        let mut due = 0;
        for (index, judged) in rx {
            waiting.insert(index, judged);
            while let Some(judged) = waiting.remove(&due) {
                let (line_number, line) = &request.positions[due];
                summary.add(&judged);
                bar.inc(1);
                bar.suspend(|| write_position(out, request, first + due, *line_number, line, &judged))?;
                due += 1;
            }
        }
        Ok(())
    });
    written?;
    bar.finish_and_clear();
    write_total(out, request, threads, &summary)?;
    Ok(summary)
}

fn write_position(
    out: &mut impl Write,
    request: &AccuracyRequest,
    number: usize,
    line_number: usize,
    line: &ObfLine,
    judged: &Judged,
) -> io::Result<()> {
    let searched = &judged.searched;
    let best = searched.best.map(|m| m.to_string());
    if request.json {
        return json_line(
            out,
            &PositionJson {
                kind: "position",
                number,
                line: line_number,
                position: line.position.to_string(),
                empties: line.position.empty_count(),
                best,
                score: f64::from(searched.score) / 100.0,
                expected_score: judged.expected,
                expected_moves: line.best_moves().iter().map(|m| m.to_string()).collect(),
                error: judged.error,
                best_move: judged.best_move,
                loss: judged.loss,
                nodes: searched.nodes,
                time: searched.time.as_secs_f64(),
            },
        );
    }
    let or_dash = |text: Option<String>| text.unwrap_or_else(|| "-".to_string());
    writeln!(
        out,
        "{number:>4} {line_number:>5} {:>7} {:>5} {:>7} {:>5} {:>7} {:>5} {:>14} {:>8.3}s",
        line.position.empty_count(),
        best.as_deref().unwrap_or("none"),
        discs_text(searched.score),
        or_dash(judged.expected.map(|s| format!("{s:+}"))),
        or_dash(judged.error.map(|e| format!("{e:+.2}"))),
        or_dash(judged.loss.map(|l| l.to_string())),
        searched.nodes,
        searched.time.as_secs_f64(),
    )
}

fn write_total(out: &mut impl Write, request: &AccuracyRequest, threads: usize, s: &Summary) -> io::Result<()> {
    let nps = (s.nodes as f64 / s.time.as_secs_f64().max(1e-6)) as u64;
    if request.json {
        return json_line(
            out,
            &TotalJson {
                kind: "total",
                positions: s.positions,
                depth: request.depth,
                selectivity: request.selectivity,
                eval: request.eval.name().to_string(),
                mean_absolute_error: s.mean_absolute_error(),
                mean_error: s.mean_error(),
                best_move_percent: s.best_move_percent(),
                within_3_percent: percent(s.within_3, s.scored),
                within_6_percent: percent(s.within_6, s.scored),
                mean_loss: s.mean_loss(),
                scored: s.scored,
                with_moves: s.with_moves,
                nodes: s.nodes,
                time: s.time.as_secs_f64(),
                nps,
                threads,
            },
        );
    }
    writeln!(
        out,
        "total: {} positions at depth {}, selectivity {}; nodes {}, time {:.3} s, nps {nps}",
        s.positions,
        request.depth,
        request.selectivity,
        s.nodes,
        s.time.as_secs_f64()
    )?;
    let share = |part: usize, whole: usize| {
        percent(part, whole).map_or_else(|| "-".to_string(), |p| format!("{p:.1}% ({part}/{whole})"))
    };
    let discs = |value: Option<f64>, signed: bool| match value {
        Some(v) if signed => format!("{v:+.2}"),
        Some(v) => format!("{v:.2}"),
        None => "-".to_string(),
    };
    writeln!(
        out,
        "mean absolute error {} discs, mean error {}; best move {}; within 3 discs {}, within 6 {}; mean loss of the move {} discs",
        discs(s.mean_absolute_error(), false),
        discs(s.mean_error(), true),
        share(s.best_moves, s.with_moves),
        share(s.within_3, s.scored),
        share(s.within_6, s.scored),
        discs(s.mean_loss(), false),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalKind;

    const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

    fn searched(best: &str, score: i32) -> Searched {
        Searched { best: Some(best.parse().unwrap()), score, nodes: 10, time: Duration::from_millis(1) }
    }

    #[test]
    fn a_position_is_judged_against_its_line() {
        let line: ObfLine = FFO_1.parse().unwrap();
        let right = judge(&line, searched("g8", 1750));
        assert_eq!((right.error, right.best_move, right.loss), (Some(-0.5), Some(true), Some(0)));
        let wrong = judge(&line, searched("a2", 2200));
        assert_eq!((wrong.error, wrong.best_move, wrong.loss), (Some(4.0), Some(false), Some(12)));
        let bare: ObfLine = format!("{}; +18;", &FFO_1[..66]).parse().unwrap();
        let unlisted = judge(&bare, searched("a2", 1700));
        assert_eq!((unlisted.error, unlisted.best_move, unlisted.loss), (Some(-1.0), None, None));
        let mut summary = Summary::default();
        for judged in [&right, &wrong, &unlisted] {
            summary.add(judged);
        }
        assert_eq!(summary.mean_absolute_error(), Some(5.5 / 3.0));
        assert_eq!(summary.mean_error(), Some(2.5 / 3.0));
        assert_eq!(summary.best_move_percent(), Some(50.0));
        assert_eq!((summary.within_3, summary.within_6), (2, 3));
        assert_eq!(summary.mean_loss(), Some(6.0));
        assert_eq!(summary.nodes, 30);
    }

    #[test]
    fn a_deep_enough_search_is_exact_and_threads_change_nothing() {
        let lines: Vec<(usize, ObfLine)> = include_str!("../../tests/data/fforum-1-19.obf")
            .lines()
            .take(4)
            .enumerate()
            .map(|(i, l)| (i + 1, l.parse().unwrap()))
            .collect();
        let request = |threads| AccuracyRequest {
            positions: lines.clone(),
            first: None,
            depth: 20,
            selectivity: 0,
            eval: Evaluator::new(EvalKind::Pattern),
            threads,
            hash_mib: 4,
            json: true,
            progress: false,
        };
        let mut one = Vec::new();
        let summary = run(&request(1), &mut one).unwrap();
        assert_eq!((summary.positions, summary.scored), (4, 4));
        assert_eq!(summary.mean_absolute_error(), Some(0.0), "a solve has no error");
        assert_eq!(summary.best_move_percent(), Some(100.0));
        let mut two = Vec::new();
        assert_eq!(run(&request(2), &mut two).unwrap().nodes, summary.nodes);
        let strip_times = |text: &[u8]| -> Vec<String> {
            String::from_utf8_lossy(text)
                .lines()
                .map(|l| {
                    let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                    v["time"] = 0.into();
                    v["nps"] = 0.into();
                    v["threads"] = 0.into();
                    v.to_string()
                })
                .collect()
        };
        assert_eq!(strip_times(&one), strip_times(&two), "the same lines in the same order");
    }
}
