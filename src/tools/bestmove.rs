//! `magpie bestmove`: the best move for one position, without a session. Prints one line,
//! `<move> <score>[ exact]`, the score in discs for the side to move (e.g. `f5 +1.25`); with `--wld`,
//! once solved, `<move> win|draw|loss`; `<move> <score> book` for a move from the opening book
//! (unless `--no-book`); `pass …` when the side to move must pass; `none <final score> exact` when
//! the game is over. With `--json`, one JSON object with the search behind the answer (depth,
//! nodes, time, principal variation, whether it came from the book).

use crate::board::{Move, Position};
use crate::engine::settings::{ImmediateReason, MovePlan, Settings};
use crate::formats::{discs_text, json_line, wld_word};
use crate::rng::Rng;
use crate::search::tt::AllocError;
use crate::search::{Bound, Limits, NoControl, SearchResult, Searcher, unsearched};
use serde::Serialize;
use std::io::{self, Write};
use std::time::Instant;

/// What to search and how.
#[derive(Clone, Debug, PartialEq)]
pub struct BestMoveRequest {
    /// The position (moves already applied).
    pub position: Position,
    /// Depth, nodes, time.
    pub limits: Limits,
    /// Evaluation, level, table size, threads and the book.
    pub settings: Settings,
    /// Print a JSON object rather than the line.
    pub json: bool,
}

/// The answer for one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move (a pass when the side to move must pass); `None` when the game is over.
    pub mv: Option<Move>,
    /// The search behind it: for a pass, the search after the pass with its score given back to
    /// the side that passes; for a finished game, the final score (exact); `None` when the level
    /// gives no score. For a book move, its value and the book's line, with no search (depth
    /// and nodes 0).
    pub result: Option<SearchResult>,
    /// Whether the move comes from the opening book.
    pub book: bool,
}

impl Answer {
    /// The answer line: the move and the score (see the module's doc).
    pub fn line(&self, wld: bool) -> String {
        let mv = self.mv.map_or_else(|| "none".to_string(), |m| m.to_string());
        match &self.result {
            Some(r) if self.book => format!("{mv} {} book", discs_text(r.info.score)),
            Some(r) => format!("{mv} {}", score_text(r.info.score, r.info.exact, wld)),
            None => mv,
        }
    }

    /// The JSON object (fields in docs/tools.md).
    fn json(&self, position: &Position, wld: bool) -> AnswerJson {
        let info = self.result.as_ref().map(|r| &r.info);
        AnswerJson {
            position: position.to_string(),
            best: self.mv.map(|m| m.to_string()),
            score: info.map(|i| f64::from(i.score) / 100.0),
            bound: info.map(|i| match i.bound {
                Bound::Exact => "exact",
                Bound::Lower => "lower",
                Bound::Upper => "upper",
            }),
            exact: info.is_some_and(|i| i.exact),
            result: info.filter(|i| i.exact).map(|i| wld_word(i.score)),
            wld,
            depth: info.map_or(0, |i| i.depth),
            selectivity: info.and_then(|i| i.selectivity),
            nodes: info.map_or(0, |i| i.nodes),
            time: info.map_or(0.0, |i| i.time.as_secs_f64()),
            pv: info.map_or_else(Vec::new, |i| i.pv.iter().map(|m| m.to_string()).collect()),
            book: self.book,
        }
    }
}

/// `magpie bestmove --json`'s object.
#[derive(Serialize)]
struct AnswerJson {
    position: String,
    #[serde(rename = "move")]
    best: Option<String>,
    score: Option<f64>,
    bound: Option<&'static str>,
    exact: bool,
    result: Option<&'static str>,
    wld: bool,
    depth: u32,
    selectivity: Option<u8>,
    nodes: u64,
    time: f64,
    pv: Vec<String>,
    book: bool,
}

/// The answer for `request`, searching as needed; an error if the table of
/// `request.settings.hash_mib` cannot be allocated.
pub fn answer(request: &BestMoveRequest, started: Instant) -> Result<Answer, AllocError> {
    let pos = request.position;
    if pos.is_game_over() {
        let mut result = unsearched(Move::Pass, pos.final_score() * 100, started.elapsed());
        result.info.exact = true;
        result.info.solve = true;
        result.info.pv.clear();
        return Ok(Answer { mv: None, result: Some(result), book: false });
    }
    let mut searcher = Searcher::with_hash(request.settings.hash_mib)?;
    searcher.set_threads(request.settings.threads);
    let mut book = false;
    if pos.must_pass() {
        // Search the position after the pass and give its score back to the side that passes.
        let after = pos.pass();
        let result =
            search(&mut searcher, &request.settings, &after, &request.limits, started, &mut book).map(|mut r| {
                r.info.score = -r.info.score;
                r.info.bound = match r.info.bound {
                    Bound::Lower => Bound::Upper,
                    Bound::Upper => Bound::Lower,
                    Bound::Exact => Bound::Exact,
                };
                r.info.pv.insert(0, Move::Pass);
                r
            });
        return Ok(Answer { mv: Some(Move::Pass), result, book });
    }
    let result = search(&mut searcher, &request.settings, &pos, &request.limits, started, &mut book);
    Ok(Answer { mv: result.as_ref().map(|r| r.best), result, book })
}

/// Searches `pos`; a lone move is searched too, so that its score is known. Level 0 plays a random
/// move, scored by the evaluation of the position it leads to. A position the book holds is
/// answered from it (and `book` set) unless the settings turn the book off.
fn search(
    searcher: &mut Searcher,
    settings: &Settings,
    pos: &Position,
    limits: &Limits,
    started: Instant,
    book: &mut bool,
) -> Option<SearchResult> {
    let request = match settings.plan(pos, limits, started, &mut Rng::from_time(), &mut settings.book_rng()) {
        MovePlan::Book(play) => {
            *book = true;
            let mut result = unsearched(play.mv, play.value, started.elapsed());
            result.info.pv = play.line;
            return Some(result);
        }
        MovePlan::Search(request) => request,
        MovePlan::Immediate { reason: ImmediateReason::OnlyMove, .. } => settings.search_request(pos, limits, started),
        MovePlan::Immediate { mv: Move::Play(sq), .. } => {
            let score = -settings.evaluator().evaluate(&pos.play(sq));
            return Some(unsearched(Move::Play(sq), score, started.elapsed()));
        }
        MovePlan::Immediate { .. } | MovePlan::GameOver => return None,
    };
    Some(searcher.search(&request, &mut NoControl, &mut |_| {}))
}

/// The score for the side to move: signed discs, `exact` after them once solved; a WLD solve says
/// only `win`, `draw` or `loss` (its score is a bound: the search proved no more).
fn score_text(cp: i32, exact: bool, wld: bool) -> String {
    match (exact, wld) {
        (true, true) => wld_word(cp).to_string(),
        (true, false) => format!("{} exact", discs_text(cp)),
        (false, _) => discs_text(cp),
    }
}

/// Runs the request and writes the answer line. A table that cannot be allocated is an error
/// ([`io::ErrorKind::OutOfMemory`], carrying the [`AllocError`]).
pub fn run(request: &BestMoveRequest, started: Instant, out: &mut impl Write) -> io::Result<()> {
    let answer = answer(request, started).map_err(|e| io::Error::new(io::ErrorKind::OutOfMemory, e))?;
    let wld = request.limits.wld;
    if request.json {
        json_line(out, &answer.json(&request.position, wld))
    } else {
        writeln!(out, "{}", answer.line(wld))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_discs_exact_or_win_draw_loss() {
        assert_eq!(score_text(125, false, false), "+1.25");
        assert_eq!(score_text(-1800, true, false), "-18.00 exact");
        assert_eq!(score_text(300, false, true), "+3.00", "not solved: the usual score");
        assert_eq!(score_text(1800, true, true), "win");
        assert_eq!(score_text(0, true, true), "draw");
        assert_eq!(score_text(-200, true, true), "loss");
    }

    #[test]
    fn a_wld_solve_says_win() {
        let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
        let settings = Settings { hash_mib: 1, ..Settings::default() };
        let limits = Limits { wld: true, ..Limits::default() };
        let request = BestMoveRequest { position: ffo1.parse().unwrap(), limits, settings, json: false };
        let line = answer(&request, Instant::now()).unwrap().line(true);
        // G8 wins by 18 and H1, H7, A2, A3 win too: any of them is a right answer.
        let (mv, verdict) = line.split_once(' ').unwrap();
        assert!(["g8", "h1", "h7", "a2", "a3"].contains(&mv), "{line}");
        assert_eq!(verdict, "win");
    }
}
