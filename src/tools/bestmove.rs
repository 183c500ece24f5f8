//! `magpie bestmove`: the best move for one position, without a session. Prints one line,
//! `<move> <score>[ exact]`, the score in discs for the side to move (e.g. `f5 +1.25`); with `--wld`,
//! once solved, `<move> win|draw|loss`; `pass …` when the side to move must pass; `none <final
//! score> exact` when the game is over.

use crate::board::{Move, Position};
use crate::engine::settings::{ImmediateReason, MovePlan, Settings};
use crate::protocol::ugi::discs_text;
use crate::rng::Rng;
use crate::search::tt::AllocError;
use crate::search::{Limits, NoControl, SearchResult, Searcher, unsearched};
use std::io::{self, Write};
use std::time::Instant;

/// What to search and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMoveRequest {
    /// The position (moves already applied).
    pub position: Position,
    /// Depth, nodes, time.
    pub limits: Limits,
    /// Evaluation, level, table size and threads.
    pub settings: Settings,
}

/// The answer line for `request`, searching as needed; an error if the table of
/// `request.settings.hash_mib` cannot be allocated.
pub fn answer(request: &BestMoveRequest, started: Instant) -> Result<String, AllocError> {
    let pos = request.position;
    if pos.is_game_over() {
        return Ok(format!("none {} exact", discs_text(pos.final_score() * 100)));
    }
    let mut searcher = Searcher::with_hash(request.settings.hash_mib)?;
    searcher.set_threads(request.settings.threads);
    let wld = request.limits.wld;
    if pos.must_pass() {
        // Search the position after the pass and give its score back to the side that passes.
        let after = pos.pass();
        let result = search(&mut searcher, &request.settings, &after, &request.limits, started);
        return Ok(match result {
            Some(r) => format!("pass {}", score_text(-r.info.score, r.info.exact, wld)),
            None => "pass".to_string(),
        });
    }
    Ok(match search(&mut searcher, &request.settings, &pos, &request.limits, started) {
        Some(result) => format!("{} {}", result.best, score_text(result.info.score, result.info.exact, wld)),
        None => "none".to_string(),
    })
}

/// Searches `pos`; a lone move is searched too, so that its score is known. Level 0 plays a random
/// move, scored by the evaluation of the position it leads to.
fn search(
    searcher: &mut Searcher,
    settings: &Settings,
    pos: &Position,
    limits: &Limits,
    started: Instant,
) -> Option<SearchResult> {
    let request = match settings.plan(pos, limits, started, &mut Rng::from_time()) {
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

/// `win`, `draw` or `loss` for a score of that sign.
pub fn wld_word(cp: i32) -> &'static str {
    match cp.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

/// Runs the request and writes the answer line. A table that cannot be allocated is an error
/// ([`io::ErrorKind::OutOfMemory`], carrying the [`AllocError`]).
pub fn run(request: &BestMoveRequest, started: Instant, out: &mut impl Write) -> io::Result<()> {
    let line = answer(request, started).map_err(|e| io::Error::new(io::ErrorKind::OutOfMemory, e))?;
    writeln!(out, "{line}")
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
        let request = BestMoveRequest { position: ffo1.parse().unwrap(), limits, settings };
        let line = answer(&request, Instant::now()).unwrap();
        // G8 wins by 18 and H1, H7, A2, A3 win too: any of them is a right answer.
        let (mv, verdict) = line.split_once(' ').unwrap();
        assert!(["g8", "h1", "h7", "a2", "a3"].contains(&mv), "{line}");
        assert_eq!(verdict, "win");
    }
}
