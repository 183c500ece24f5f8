//! `magpie bestmove`: the best move for one position, without a session. Prints one line,
//! `<move> <score>[ exact]`, the score in discs for the side to move (e.g. `f5 +1.25`); with `--wld`,
//! once solved, `<move> win|draw|loss`; `<move> <score> book` for a move from the opening book
//! (unless `--no-book`); `pass …` when the side to move must pass; `none <final score> exact` when
//! the game is over. With `--multipv N` (or `all`), a line for each of the N best moves, best first,
//! each scored by the same search (the book is not used then: every move is searched). With
//! `--json`, one JSON object with the search behind the answer (depth, nodes, time, principal
//! variation, whether it came from the book) and its lines.

use crate::board::{Move, Position};
use crate::engine::settings::{ImmediateReason, MovePlan, Settings};
use crate::formats::{discs_text, json_line, wld_word};
use crate::rng::Rng;
use crate::search::tt::AllocError;
use crate::search::{Bound, Limits, NoControl, SearchInfo, SearchResult, Searcher, unsearched};
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

/// The largest number of lines `--multipv` asks for: more than any position has legal moves, so
/// `all` is this.
pub const ALL_LINES: usize = 64;

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
    /// The scored moves, best first: the lines of the deepest iteration that finished (one for a
    /// plain search, several with MultiPV; for a pass, a book move or a finished game, the one
    /// line of `result`). Empty when the level gives no score.
    pub lines: Vec<SearchInfo>,
}

impl Answer {
    /// The answer's lines of text: the move and the score of each line, best first (see the
    /// module's doc).
    pub fn text(&self, wld: bool) -> Vec<String> {
        let mv = self.mv.map_or_else(|| "none".to_string(), |m| m.to_string());
        match &self.result {
            Some(r) if self.book => vec![format!("{mv} {} book", discs_text(r.info.score))],
            Some(_) if !self.lines.is_empty() => self
                .lines
                .iter()
                .map(|line| {
                    let mv = line.pv.first().map_or_else(|| mv.clone(), |m| m.to_string());
                    format!("{mv} {}", score_text(line.score, line.exact, wld))
                })
                .collect(),
            Some(r) => vec![format!("{mv} {}", score_text(r.info.score, r.info.exact, wld))],
            None => vec![mv],
        }
    }

    /// The first line of [`Answer::text`]: the move and its score.
    pub fn line(&self, wld: bool) -> String {
        self.text(wld).swap_remove(0)
    }

    /// The JSON object (fields in docs/tools.md).
    fn json(&self, position: &Position, wld: bool) -> AnswerJson {
        let info = self.result.as_ref().map(|r| &r.info);
        AnswerJson {
            position: position.to_string(),
            best: self.mv.map(|m| m.to_string()),
            score: info.map(|i| f64::from(i.score) / 100.0),
            score_kind: info.map(|i| score_kind(i.bound)),
            solved: info.is_some_and(|i| i.exact),
            result: info.filter(|i| i.exact).map(|i| wld_word(i.score)),
            wld,
            depth: info.map_or(0, |i| i.depth),
            selectivity: info.and_then(|i| i.selectivity),
            nodes: info.map_or(0, |i| i.nodes),
            time: info.map_or(0.0, |i| i.time.as_secs_f64()),
            pv: info.map_or_else(Vec::new, |i| moves_text(&i.pv)),
            book: self.book,
            lines: self
                .lines
                .iter()
                .map(|line| LineJson {
                    best: line.pv.first().map(|m| m.to_string()),
                    score: f64::from(line.score) / 100.0,
                    score_kind: score_kind(line.bound),
                    solved: line.exact,
                    result: line.exact.then(|| wld_word(line.score)),
                    depth: line.depth,
                    selectivity: line.selectivity,
                    pv: moves_text(&line.pv),
                })
                .collect(),
        }
    }
}

/// What a score is, in the JSON's words: the value itself, or a bound on it.
fn score_kind(bound: Bound) -> &'static str {
    match bound {
        Bound::Exact => "value",
        Bound::Lower => "lower_bound",
        Bound::Upper => "upper_bound",
    }
}

fn moves_text(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// `magpie bestmove --json`'s object.
#[derive(Serialize)]
struct AnswerJson {
    position: String,
    #[serde(rename = "move")]
    best: Option<String>,
    score: Option<f64>,
    score_kind: Option<&'static str>,
    solved: bool,
    result: Option<&'static str>,
    wld: bool,
    depth: u32,
    selectivity: Option<u8>,
    nodes: u64,
    time: f64,
    pv: Vec<String>,
    book: bool,
    lines: Vec<LineJson>,
}

/// One scored move of `magpie bestmove --json`'s `lines`.
#[derive(Serialize)]
struct LineJson {
    #[serde(rename = "move")]
    best: Option<String>,
    score: f64,
    score_kind: &'static str,
    solved: bool,
    result: Option<&'static str>,
    depth: u32,
    selectivity: Option<u8>,
    pv: Vec<String>,
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
        let lines = vec![result.info.clone()];
        return Ok(Answer { mv: None, result: Some(result), book: false, lines });
    }
    let mut searcher = Searcher::with_hash(request.settings.hash_mib)?;
    searcher.set_threads(request.settings.threads);
    let mut book = false;
    if pos.must_pass() {
        // Search the position after the pass and give its score back to the side that passes.
        let after = pos.pass();
        let settings = Settings { multi_pv: 1, ..request.settings.clone() };
        let result = search(&mut searcher, &settings, &after, &request.limits, started, &mut book).map(|(mut r, _)| {
            r.info.score = -r.info.score;
            r.info.bound = match r.info.bound {
                Bound::Lower => Bound::Upper,
                Bound::Upper => Bound::Lower,
                Bound::Exact => Bound::Exact,
            };
            r.info.pv.insert(0, Move::Pass);
            r
        });
        let lines = result.iter().map(|r| r.info.clone()).collect();
        return Ok(Answer { mv: Some(Move::Pass), result, book, lines });
    }
    let Some((result, lines)) = search(&mut searcher, &request.settings, &pos, &request.limits, started, &mut book)
    else {
        return Ok(Answer { mv: None, result: None, book, lines: Vec::new() });
    };
    // A plain search's line is its result. Several lines are those of the deepest iteration that
    // finished, whose first move is the answer's: a search stopped part way through an iteration
    // that found a better move than the last finished one answers that move alone.
    let several = request.settings.multi_pv > 1 && lines.first().and_then(|l| l.pv.first()) == Some(&result.best);
    let lines = if several { lines } else { vec![result.info.clone()] };
    Ok(Answer { mv: Some(result.best), result: Some(result), book, lines })
}

/// Searches `pos`; a lone move is searched too, so that its score is known. Level 0 plays a random
/// move, scored by the evaluation of the position it leads to. A position the book holds is
/// answered from it (and `book` set) unless the settings turn the book off or ask for several
/// lines. Returns the result and the lines of its deepest finished iteration, best first.
fn search(
    searcher: &mut Searcher,
    settings: &Settings,
    pos: &Position,
    limits: &Limits,
    started: Instant,
    book: &mut bool,
) -> Option<(SearchResult, Vec<SearchInfo>)> {
    let settings = &if settings.multi_pv > 1 { Settings { book: None, ..settings.clone() } } else { settings.clone() };
    let request = match settings.plan(pos, limits, started, &mut Rng::from_time(), &mut settings.book_rng()) {
        MovePlan::Book(play) => {
            *book = true;
            let mut result = unsearched(play.mv, play.value, started.elapsed());
            result.info.pv = play.line;
            let lines = vec![result.info.clone()];
            return Some((result, lines));
        }
        MovePlan::Search(request) => request,
        MovePlan::Immediate { reason: ImmediateReason::OnlyMove, .. } => settings.search_request(pos, limits, started),
        MovePlan::Immediate { mv: Move::Play(sq), .. } => {
            let score = -settings.evaluator().evaluate(&pos.play(sq));
            let result = unsearched(Move::Play(sq), score, started.elapsed());
            let lines = vec![result.info.clone()];
            return Some((result, lines));
        }
        MovePlan::Immediate { .. } | MovePlan::GameOver => return None,
    };
    let mut lines: Vec<SearchInfo> = Vec::new();
    let result = searcher.search(&request, &mut NoControl, &mut |info| {
        if info.multipv.is_none_or(|rank| rank == 1) {
            lines.clear();
        }
        lines.push(info.clone());
    });
    if lines.is_empty() {
        lines.push(result.info.clone());
    }
    Some((result, lines))
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
        answer.text(wld).iter().try_for_each(|line| writeln!(out, "{line}"))
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
