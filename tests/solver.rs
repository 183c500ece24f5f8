//! The search against slow, obviously correct references: the FFO endgames #1-#39 (exact scores
//! and best moves), plain minimax on random endgames, plain alpha-beta without a table at fixed
//! depths, and the same exact scores with one thread or two, with a table or (in effect) none, and
//! with Multi-ProbCut at any selectivity.
//! Run in release mode (`cargo test --release`): the FFO solves take a few seconds there.

mod common;

use common::{Rng, random_step};
use magpie::board::{BoardSize, Move, Position};
use magpie::eval::EvalKind;
use magpie::formats::{ObfLine, parse_moves, parse_obf_file};
use magpie::search::{
    Deadlines, MAX_SELECTIVITY, NoControl, SearchRequest, SearchResult, Searcher, TranspositionTable,
};
use std::sync::Arc;

fn searcher(threads: usize) -> Searcher {
    let mut searcher = Searcher::with_hash(16).expect("a 16 MiB table");
    searcher.set_threads(threads);
    searcher
}

fn solve(searcher: &mut Searcher, pos: Position) -> SearchResult {
    let result = searcher.search(&SearchRequest::new(pos, EvalKind::Heuristic), &mut NoControl, &mut |_| {});
    assert!(result.info.exact, "{pos}: not solved");
    result
}

/// The position after random moves from the start until `empties` squares are empty (or the game
/// is over).
fn random_position(rng: &mut Rng, size: BoardSize, empties: u32) -> Position {
    let mut pos = Position::start(size);
    while pos.empty_count() > empties && !pos.is_game_over() {
        pos = random_step(rng, &pos);
    }
    pos
}

/// Random positions with a legal move.
fn playable_positions(seed: u64, size: BoardSize, empties: impl Fn(usize) -> u32, count: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut i = 0;
    while out.len() < count {
        let pos = random_position(&mut rng, size, empties(i));
        i += 1;
        if !pos.legal_moves().is_empty() {
            out.push(pos);
        }
    }
    out
}

/// Plain minimax to the end of the game: exact scores, empties to the winner.
fn minimax(pos: &Position) -> i32 {
    if pos.is_game_over() {
        return pos.final_score();
    }
    if pos.must_pass() {
        return -minimax(&pos.pass());
    }
    pos.legal_moves().iter().map(|sq| -minimax(&pos.play(sq))).max().unwrap_or(0)
}

/// Plain alpha-beta without a table, `depth` discs ahead (a pass is free), the evaluation at the
/// leaves and finished games scored exactly: the value the search must find at that depth.
fn alpha_beta(pos: &Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if pos.legal_moves().is_empty() {
        if pos.opponent_moves().is_empty() {
            return pos.final_score() * 100;
        }
        return -alpha_beta(&pos.pass(), depth, -beta, -alpha);
    }
    if depth == 0 {
        return EvalKind::Heuristic.evaluate(pos);
    }
    let mut best = i32::MIN + 1;
    for sq in pos.legal_moves().iter() {
        let score = -alpha_beta(&pos.play(sq), depth - 1, -beta, -alpha);
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn ffo_file(name: &str) -> Vec<(usize, ObfLine)> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_obf_file(&text).unwrap_or_else(|(line, e)| panic!("{path} line {line}: {e}"))
}

#[test]
fn ffo_1_to_39_exact_scores_and_best_moves() {
    let mut searcher = searcher(1);
    let lines: Vec<ObfLine> = ["fforum-1-19.obf", "fforum-20-39.obf"]
        .iter()
        .flat_map(|name| ffo_file(name).into_iter().map(|(_, line)| line))
        .collect();
    assert_eq!(lines.len(), 39);
    for (i, line) in lines.iter().enumerate() {
        searcher.clear();
        let result = solve(&mut searcher, line.position);
        let number = i + 1;
        assert_eq!(Some(result.info.score / 100), line.best_score(), "FFO #{number}");
        assert!(line.best_moves().contains(&result.best), "FFO #{number}: {} is not a best move", result.best);
    }
}

#[test]
fn the_small_boards_solved() {
    // 4x4 from the start: White wins by 10 (empties counted for the winner).
    let mut searcher = searcher(1);
    assert_eq!(solve(&mut searcher, Position::start(BoardSize::Four)).info.score, -1000);
    // 6x6: White wins 20-16 with perfect play (Feinstein, 1993). Solving the start takes about ten
    // minutes here, so the test solves the position after ten plies of a perfect line (the line of
    // Magpie's own solve of the start, -4 all along): 22 empties, still -4 for Black to move.
    let mut pos = Position::start(BoardSize::Six);
    for mv in parse_moves("d5 e3 d2 c5 b3 b4 c6 d6 e6 c2").expect("a move list") {
        pos = pos.try_play(mv).expect("a legal move");
    }
    assert_eq!(pos.empty_count(), 22);
    searcher.clear();
    let result = solve(&mut searcher, pos);
    assert_eq!(result.info.score, -400, "{pos}");
}

#[test]
fn the_solver_agrees_with_minimax() {
    let mut searcher = searcher(1);
    let mut checked = 0;
    for size in BoardSize::ALL {
        let empties = |i: usize| if size == BoardSize::Eight { 8 + (i % 4) as u32 } else { 6 + (i % 5) as u32 };
        for pos in playable_positions(31 + size.side() as u64, size, empties, 24) {
            let result = solve(&mut searcher, pos);
            let exact = minimax(&pos);
            assert_eq!(result.info.score, exact * 100, "{pos}");
            // The move played reaches the score.
            let after = pos.try_play(result.best).expect("a legal move");
            assert_eq!(-minimax(&after), exact, "{pos}: {}", result.best);
            checked += 1;
        }
    }
    assert_eq!(checked, 72);
}

#[test]
fn the_search_with_its_table_finds_the_alpha_beta_value_at_fixed_depths() {
    // A fresh table: no entry from a shallower iteration is deep enough to cut, so the value at
    // the last depth is the plain alpha-beta value whatever the move order.
    for (i, pos) in playable_positions(32, BoardSize::Eight, |i| 30 + (i % 24) as u32, 16).into_iter().enumerate() {
        let depth = 3 + (i % 4) as u32;
        let mut request = SearchRequest::new(pos, EvalKind::Heuristic);
        request.max_depth = depth;
        let result = searcher(1).search(&request, &mut NoControl, &mut |_| {});
        assert_eq!(result.info.depth, depth);
        let expected = alpha_beta(&pos, depth, -30_000, 30_000);
        assert_eq!(result.info.score, expected, "{pos} depth {depth}");
        let after = pos.try_play(result.best).expect("a legal move");
        assert_eq!(-alpha_beta(&after, depth - 1, -30_000, 30_000), expected, "{pos}: {}", result.best);
    }
}

#[test]
fn threads_and_table_change_no_exact_score() {
    let one_bucket = || Searcher::with_table(Arc::new(TranspositionTable::with_buckets(1).expect("one bucket")));
    let mut with_table = searcher(1);
    let mut without_table = one_bucket();
    let mut two_threads = searcher(2);
    for pos in playable_positions(33, BoardSize::Eight, |i| 12 + (i % 6) as u32, 16) {
        let reference = solve(&mut with_table, pos).info.score;
        assert_eq!(solve(&mut without_table, pos).info.score, reference, "{pos}: without a table");
        let parallel = solve(&mut two_threads, pos);
        assert_eq!(parallel.info.score, reference, "{pos}: two threads");
        assert!(pos.is_legal(parallel.best));
    }
}

/// Multi-ProbCut prunes the depth-limited search, never the exact solve: at every selectivity the
/// pattern evaluation's solves give the perfect-play scores, and a selective score says so.
#[test]
fn multi_probcut_changes_no_exact_score() {
    let solve_at = |searcher: &mut Searcher, pos: Position, selectivity: u8| {
        let mut request = SearchRequest::new(pos, EvalKind::Pattern);
        request.selectivity = selectivity;
        searcher.clear();
        let result = searcher.search(&request, &mut NoControl, &mut |_| {});
        assert!(result.info.exact && result.info.selectivity.is_none(), "{pos}: {:?}", result.info);
        result
    };
    let mut searcher = searcher(1);
    for (_, line) in ffo_file("fforum-1-19.obf") {
        for selectivity in [0, 2, MAX_SELECTIVITY] {
            let result = solve_at(&mut searcher, line.position, selectivity);
            assert_eq!(
                Some(result.info.score / 100),
                line.best_score(),
                "{} at selectivity {selectivity}",
                line.position
            );
        }
    }
    for pos in playable_positions(34, BoardSize::Eight, |i| 14 + (i % 6) as u32, 12) {
        let reference = solve_at(&mut searcher, pos, 0).info.score;
        assert_eq!(solve_at(&mut searcher, pos, MAX_SELECTIVITY).info.score, reference, "{pos}");
    }
    // It does prune the depth-limited search, and says so.
    let pos = playable_positions(35, BoardSize::Eight, |_| 40, 1)[0];
    let nodes = |selectivity: u8| {
        let mut request = SearchRequest::new(pos, EvalKind::Pattern);
        request.max_depth = 10;
        request.selectivity = selectivity;
        let result = Searcher::with_hash(16).expect("a table").search(&request, &mut NoControl, &mut |_| {});
        assert_eq!(result.info.selectivity, (selectivity > 0).then_some(selectivity));
        result.info.nodes
    };
    assert!(nodes(MAX_SELECTIVITY) < nodes(0), "{pos}");
}

/// With Multi-ProbCut the solve is a ladder of selective solves, the last exact: each selective
/// one is reported as such (`selectivity`, not exact), and a search stopped on the way claims no
/// exact score.
#[test]
fn selective_solves_lead_to_the_exact_one() {
    let positions = playable_positions(36, BoardSize::Eight, |i| 16 + (i % 5) as u32, 8);
    for pos in &positions {
        let mut request = SearchRequest::new(*pos, EvalKind::Pattern);
        request.selectivity = 4;
        let mut solves = Vec::new();
        let result = searcher(1).search(&request, &mut NoControl, &mut |info| {
            if info.depth == pos.empty_count() {
                solves.push((info.exact, info.selectivity));
            }
        });
        assert_eq!(
            solves,
            [(false, Some(4)), (false, Some(3)), (false, Some(2)), (false, Some(1)), (true, None)],
            "{pos}"
        );
        assert!(result.info.exact, "{pos}");
        let reference = solve(&mut searcher(1), *pos).info.score;
        assert_eq!(result.info.score, reference, "{pos}");
        // Stopped by a node budget before the exact solve ends: a selective or depth-limited score.
        request.node_limit = Some(result.info.nodes / 2);
        let stopped = searcher(1).search(&request, &mut NoControl, &mut |_| {});
        assert!(!stopped.info.exact, "{pos}: {:?}", stopped.info);
        assert!(pos.is_legal(stopped.best));
    }
}

#[test]
fn the_move_is_always_legal() {
    // Every kind of limit, on every board size, from the start to the end of random games.
    let mut rng = Rng::new(34);
    let mut searcher = searcher(2);
    for game in 0..24 {
        let size = BoardSize::ALL[game % 3];
        let mut pos = Position::start(size);
        while !pos.is_game_over() {
            let mut request = SearchRequest::new(pos, EvalKind::Heuristic);
            match rng.below(4) {
                0 => request.max_depth = 1 + rng.below(8) as u32,
                1 => request.node_limit = Some(1 + rng.below(5000) as u64),
                2 => request.deadlines = Deadlines { soft: None, hard: Some(std::time::Instant::now()) },
                _ => {
                    // A win/loss/draw search, cut short where the game is far from its end.
                    request.wld = true;
                    request.node_limit = Some(20_000);
                }
            }
            let result = searcher.search(&request, &mut NoControl, &mut |_| {});
            if pos.must_pass() {
                assert_eq!(result.best, Move::Pass);
            } else {
                assert!(pos.is_legal(result.best), "{pos}: {}", result.best);
            }
            // Go on with a random move, so that the games differ.
            pos = random_step(&mut rng, &pos);
        }
    }
}
