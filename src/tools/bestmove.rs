//! `magpie bestmove`: the best move for one position, without a session. Prints one line,
//! `<move> <score>[ exact]`, the score in discs for the side to move (e.g. `f5 +1.25`); `pass …` when
//! the side to move must pass; `none <final score> exact` when the game is over.

use crate::board::{Move, Position};
use crate::engine::settings::{ImmediateReason, MovePlan, Settings};
use crate::protocol::ugi::discs_text;
use crate::rng::Rng;
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
    /// Evaluation and level.
    pub settings: Settings,
}

/// The answer line for `request`, searching as needed.
pub fn answer(request: &BestMoveRequest, started: Instant) -> String {
    let pos = request.position;
    if pos.is_game_over() {
        return format!("none {} exact", discs_text(pos.final_score() * 100));
    }
    if pos.must_pass() {
        // Search the position after the pass and give its score back to the side that passes.
        let after = pos.pass();
        let result = search(&request.settings, &after, &request.limits, started);
        return match result {
            Some(r) => format!("pass {}", score_text(-r.info.score, r.info.exact)),
            None => "pass".to_string(),
        };
    }
    match search(&request.settings, &pos, &request.limits, started) {
        Some(result) => format!("{} {}", result.best, score_text(result.info.score, result.info.exact)),
        None => "none".to_string(),
    }
}

/// Searches `pos`; a lone move is searched too, so that its score is known. Level 0 plays a random
/// move, scored by the evaluation of the position it leads to.
fn search(settings: &Settings, pos: &Position, limits: &Limits, started: Instant) -> Option<SearchResult> {
    let request = match settings.plan(pos, limits, started, &mut Rng::from_time()) {
        MovePlan::Search(request) => request,
        MovePlan::Immediate { reason: ImmediateReason::OnlyMove, .. } => settings.search_request(pos, limits, started),
        MovePlan::Immediate { mv: Move::Play(sq), .. } => {
            let score = -settings.eval.evaluate(&pos.play(sq));
            return Some(unsearched(Move::Play(sq), score, started.elapsed()));
        }
        MovePlan::Immediate { .. } | MovePlan::GameOver => return None,
    };
    Some(Searcher::new().search(&request, &mut NoControl, &mut |_| {}))
}

fn score_text(cp: i32, exact: bool) -> String {
    if exact { format!("{} exact", discs_text(cp)) } else { discs_text(cp) }
}

/// Runs the request and writes the answer line.
pub fn run(request: &BestMoveRequest, started: Instant, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "{}", answer(request, started))
}
