//! The NBoard protocol over pipes, replaying what the NBoard GUI sends (PROTOCOLS.md §2): the
//! start-up, `set game … ping k go` with a trailing pass, `hint` then `ping` during the search,
//! stale pongs, clocks, `analyze`, `learn`, and garbage.

mod common;

use common::{Engine, Rng};
use magpie::board::{Color, Game, Move, Position};

/// A GGF game as NBoard writes it: 64 board characters in a row, moves with `//time`.
fn nboard_ggf(game: &Game, clock: &str) -> String {
    let start = game.start();
    let board: String = magpie::formats::position_text::squares_text(start)
        .chars()
        .map(|c| match c {
            'X' => '*',
            other => other,
        })
        .collect();
    let side = if start.side_to_move() == Color::Black { '*' } else { 'O' };
    let mut text = format!(
        "(;GM[Othello]PC[NBoard]DT[2014-02-08 17:58:38 GMT]PB[Human]PW[Magpie]RE[?]TI[{clock}]TY[8]BO[8 {board} {side}]"
    );
    for (i, (mv, pos)) in game.moves().iter().zip(game.positions()).enumerate() {
        let colour = if pos.side_to_move() == Color::Black { 'B' } else { 'W' };
        let mv = match mv {
            Move::Play(sq) => sq.to_uppercase(),
            Move::Pass => "PA".to_string(),
        };
        text.push_str(&format!("{colour}[{mv}//{}.{:02}]", i % 3, i % 100));
    }
    text.push_str(";)");
    text
}

/// A random game that ends with a pass (the side to move after it is the one that did not pass).
fn game_ending_in_a_pass(seed: u64) -> Game {
    let mut rng = Rng::new(seed);
    loop {
        let mut game = Game::default();
        loop {
            let pos = *game.position();
            if pos.is_game_over() {
                break;
            }
            if pos.must_pass() {
                game.play_strict(Move::Pass).unwrap();
                return game;
            }
            let moves: Vec<_> = pos.legal_moves().iter().collect();
            game.play_strict(Move::Play(moves[rng.below(moves.len())])).unwrap();
        }
    }
}

/// An NBoard session at `depth` whose requests search: the book is off (the tests of the book
/// start their own engine).
fn start_nboard(depth: u32) -> Engine {
    let mut e = Engine::start(&["--own-book", "false"]);
    e.send("nboard 2");
    assert_eq!(e.recv(), format!("set myname Magpie{}", 12));
    e.send(&format!("set depth {depth}"));
    assert_eq!(e.recv(), format!("set myname Magpie{depth}"));
    e
}

/// Reads up to `pong <n>`; what comes before it may only be output of the previous request (search
/// lines, node counts, status lines). Returns those lines.
fn pong(e: &mut Engine, n: u32) -> Vec<String> {
    let mut lines = e.until(&format!("pong {n}"));
    assert_eq!(lines.pop(), Some(format!("pong {n}")));
    for line in &lines {
        let earlier = ["search ", "nodestats ", "status"].iter().any(|p| line.starts_with(p));
        assert!(earlier, "unexpected line before pong {n}: {line}");
    }
    lines
}

/// Reads lines until `=== …` and returns (the other lines, the move).
fn until_move(e: &mut Engine) -> (Vec<String>, Move) {
    let lines = e.until("===");
    let last = lines.last().unwrap().clone();
    let mv_text = last.trim_start_matches("=== ").split(['/', ' ']).next().unwrap().to_string();
    let mv = if mv_text == "PA" { Move::Pass } else { mv_text.parse().unwrap() };
    (lines, mv)
}

#[test]
fn set_game_with_a_trailing_pass_then_go() {
    let game = game_ending_in_a_pass(11);
    let pos = *game.position();
    assert_eq!(game.moves().last(), Some(&Move::Pass));
    let mut e = start_nboard(4);
    e.send(&format!("set game {}", nboard_ggf(&game, "15:00")));
    e.send("ping 1");
    e.send("go");
    pong(&mut e, 1);
    let (lines, mv) = until_move(&mut e);
    assert!(pos.is_legal(mv), "{mv} is not legal for {:?} in {pos} ({lines:?})", pos.side_to_move());
    // The answer has an eval and a time: === F5/1.50/0.12
    let last = lines.last().unwrap();
    assert_eq!(last.split('/').count(), 3, "{last}");
    // The move is not played: asking again gives a legal move in the same position.
    e.send("ping 2");
    e.send("go");
    pong(&mut e, 2);
    let (_, again) = until_move(&mut e);
    assert!(pos.is_legal(again));
}

#[test]
fn moves_are_appended_and_passes_answered() {
    let mut e = start_nboard(3);
    let game = Game::default();
    e.send(&format!("set game {}", nboard_ggf(&game, "15:00")));
    e.send("move F5//1.20");
    e.send("move d6/0.50/0.8");
    e.send("ping 5");
    e.send("go");
    pong(&mut e, 5);
    let (_, mv) = until_move(&mut e);
    let mut g = Game::default();
    g.play_all(&magpie::formats::parse_moves("f5d6").unwrap()).unwrap();
    assert!(g.position().is_legal(mv));

    // A position where the side to move must pass: `go` answers PA.
    let mut passing = game_ending_in_a_pass(5);
    passing.undo();
    assert!(passing.position().must_pass());
    e.send(&format!("set game {}", nboard_ggf(&passing, "15:00")));
    e.send("ping 6");
    e.send("go");
    pong(&mut e, 6);
    let (_, mv) = until_move(&mut e);
    assert_eq!(mv, Move::Pass);
    // hint is also sent when the side to move must pass: its line starts with PA.
    e.send("ping 7");
    e.send("hint 1");
    pong(&mut e, 7);
    let line = e.until("search ").pop().unwrap();
    assert!(line.to_ascii_uppercase().starts_with("SEARCH PA"), "{line}");
}

#[test]
fn hint_reports_lines_at_every_depth_and_ping_stops_it() {
    let mut e = start_nboard(30);
    e.send(&format!("set game {}", nboard_ggf(&Game::default(), "15:00")));
    e.send("ping 1");
    e.send("hint 3");
    pong(&mut e, 1);
    // Lines for depth 1, 2, 3 arrive (three moves each, at most four legal moves at the start).
    let mut searches = Vec::new();
    while searches.len() < 9 {
        let line = e.recv();
        if line.starts_with("search ") {
            searches.push(line);
        }
    }
    for line in &searches {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields.len(), 5, "{line}");
        assert_eq!(fields[3], "0");
        assert!(fields[2].parse::<f64>().is_ok(), "{line}");
        let first = &fields[1][..2];
        let mv: Move = first.parse().unwrap();
        assert!(Position::initial().is_legal(mv), "{line}");
    }
    // The search would go on to depth 30: a ping stops it, and nothing follows the pong.
    e.send("ping 2");
    pong(&mut e, 2);
    e.send("ping 3");
    assert_eq!(e.recv(), "pong 3", "no stale output after the pong");
}

#[test]
fn pings_during_go_are_answered_in_order_without_stale_moves() {
    let mut e = start_nboard(40);
    e.send(&format!("set game {}", nboard_ggf(&Game::default(), "2:00:00")));
    e.send("ping 1");
    e.send("go");
    pong(&mut e, 1);
    std::thread::sleep(std::time::Duration::from_millis(100));
    e.send("ping 2");
    e.send("ping 3");
    let lines = e.until("pong 3");
    assert!(lines.iter().all(|l| !l.starts_with("===")), "the interrupted go is not answered: {lines:?}");
    let pongs: Vec<&String> = lines.iter().filter(|l| l.starts_with("pong")).collect();
    assert_eq!(pongs, ["pong 2", "pong 3"]);
}

#[test]
fn go_respects_the_clock_left_in_the_game() {
    // One second on the clock in all: Magpie must answer well inside it despite depth 40.
    let mut e = start_nboard(40);
    e.send(&format!("set game {}", nboard_ggf(&Game::default(), "00:01")));
    e.send("ping 1");
    e.send("go");
    pong(&mut e, 1);
    // Depth 40 would take hours: the answer comes from the clock's budget.
    let (lines, mv) = until_move(&mut e);
    assert!(Position::initial().is_legal(mv));
    let time: f64 = lines.last().unwrap().rsplit('/').next().unwrap().parse().unwrap();
    assert!(time < 1.0, "the reported time fits the clock: {lines:?}");
}

#[test]
fn exact_solves_are_marked_100_percent() {
    // FFO #1 (14 empties) with depth 20: the hint is an exact solve.
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--";
    let board: String = ffo1.chars().map(|c| if c == 'X' { '*' } else { c }).collect();
    let mut e = start_nboard(20);
    e.send(&format!("set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 {board} *];)"));
    e.send("ping 1");
    e.send("hint 1");
    pong(&mut e, 1);
    let line = loop {
        let line = e.recv();
        if line.starts_with("search ") && line.ends_with(" 100%") {
            break line;
        }
    };
    assert!(line.starts_with("search G8"), "{line}");
    assert!(line.contains(" 18.00 0 100%"), "{line}");
}

#[test]
fn selective_solves_show_their_probability() {
    // FFO #1 again: before the exact solve, the selective solves at the default selectivity 5,
    // then at each more confident level, shown as Edax shows them (14@58%, 14@87%, … 14@99%).
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--";
    let board: String = ffo1.chars().map(|c| if c == 'X' { '*' } else { c }).collect();
    let mut e = start_nboard(20);
    e.send(&format!("set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 {board} *];)"));
    e.send("ping 1");
    e.send("hint 1");
    pong(&mut e, 1);
    let mut depths = Vec::new();
    loop {
        let line = e.recv();
        if let Some(rest) = line.strip_prefix("search ") {
            let depth = rest.rsplit(' ').next().unwrap().to_string();
            if depths.last() != Some(&depth) {
                depths.push(depth.clone());
            }
            if depth == "100%" {
                break;
            }
        }
    }
    let solves: Vec<&str> = depths.iter().map(String::as_str).filter(|d| d.contains('%')).collect();
    assert_eq!(solves, ["14@58%", "14@87%", "14@95%", "14@98%", "14@99%", "100%"], "{depths:?}");
}

#[test]
fn learn_analyze_and_contempt() {
    let mut e = start_nboard(2);
    let mut game = Game::default();
    game.play_all(&magpie::formats::parse_moves("f5d6c3d3c4").unwrap()).unwrap();
    e.send(&format!("set game {}", nboard_ggf(&game, "15:00")));
    e.send("set contempt 100");
    e.send("ping 1");
    e.send("learn");
    pong(&mut e, 1);
    // Without --book there is no file to learn into: the status bar says so, and learned follows.
    assert_eq!(e.recv(), "status Magpie has no book file to learn into (start it with --book FILE)");
    assert_eq!(e.recv(), "learned");
    e.send("ping 2");
    e.send("analyze");
    pong(&mut e, 2);
    let mut analysed = Vec::new();
    while analysed.len() < 6 {
        let line = e.recv();
        if let Some(rest) = line.strip_prefix("analysis ") {
            let fields: Vec<&str> = rest.split_whitespace().collect();
            assert!(fields[1].parse::<f64>().is_ok(), "{line}");
            analysed.push(fields[0].parse::<usize>().unwrap());
        }
    }
    assert_eq!(analysed, [5, 4, 3, 2, 1, 0], "from the last position back to the start");
}

#[test]
fn garbage_gets_a_status_error_and_the_engine_goes_on() {
    let mut e = start_nboard(2);
    for line in ["frobnicate", "set depth many", "move Z9", "set game (;GM[Othello]BO[8 XX *];)", "hint", "\u{1}\u{2}"]
    {
        e.send(line);
        let reply = e.recv();
        assert!(reply.starts_with("status Magpie error: "), "{line:?} → {reply}");
    }
    // An illegal move keeps the game as it was.
    e.send(&format!("set game {}", nboard_ggf(&Game::default(), "15:00")));
    e.send("move A1");
    assert!(e.recv().starts_with("status Magpie error: move: "));
    e.send("ping 9");
    pong(&mut e, 9);
    e.send("quit");
    let (rest, status, stderr) = e.finish();
    assert!(rest.is_empty());
    assert!(status.success());
    assert!(!stderr.contains("panicked"));
}

#[test]
fn end_of_input_exits_and_answers_a_running_go() {
    let mut e = start_nboard(6);
    e.send(&format!("set game {}", nboard_ggf(&Game::default(), "15:00")));
    e.send("ping 1");
    e.send("go");
    let (lines, status, _) = e.finish();
    assert!(status.success());
    assert!(lines.iter().any(|l| l.starts_with("=== ")), "{lines:?}");
    // A hint that would run long is stopped at end of input.
    let mut e = start_nboard(60);
    e.send(&format!("set game {}", nboard_ggf(&Game::default(), "15:00")));
    e.send("hint 2");
    let started = std::time::Instant::now();
    let (_, status, _) = e.finish();
    assert!(status.success());
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, max_shrink_iters: 64, ..proptest::prelude::ProptestConfig::default() })]

    /// Arbitrary lines: errors come as status lines, nothing panics, and a ping is still answered.
    #[test]
    fn arbitrary_lines_never_break_the_engine(lines in proptest::collection::vec("\\PC{0,60}", 1..25)) {
        let mut e = Engine::start(&["--protocol", "nboard"]);
        for line in &lines {
            let first = line.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
            // Requests that start long searches and quit are not garbage.
            if ["quit", "go", "hint", "analyze"].contains(&first.as_str()) || line.contains(['\n', '\r']) {
                continue;
            }
            e.send(line);
        }
        e.send("ping 4242");
        let replies = e.until("pong 4242");
        for reply in &replies {
            let known = ["status", "set myname ", "pong ", "learned"].iter().any(|p| reply.starts_with(p));
            proptest::prop_assert!(known, "unexpected line {:?}", reply);
        }
        let (_, status, stderr) = e.finish();
        proptest::prop_assert!(status.success());
        proptest::prop_assert!(!stderr.contains("panicked"), "{}", stderr);
    }
}

/// A `ping` stops every request older than it, running or waiting: with a depth-60 hint running
/// and two depth-60 `go`s waiting, the pong still comes at once, the stale requests stay silent, and
/// the state commands between them are applied.
#[test]
fn a_ping_gives_up_every_older_request() {
    let mut e = start_nboard(12);
    e.send(&format!("set game {}", nboard_ggf(&Game::default(), "15:00")));
    e.send("set depth 60");
    e.send("hint 1");
    e.send("go");
    e.send("move F5");
    e.send("go");
    e.send("ping 5");
    // Without the rule this pong would wait for three searches to depth 60 (hours).
    let lines = e.until("pong 5");
    assert!(lines.iter().all(|l| !l.starts_with("===")), "stale requests answer nothing: {lines:?}");
    assert!(lines.iter().any(|l| l == "set myname Magpie60"), "{lines:?}");
    e.send("ping 6");
    assert_eq!(e.recv_within(10.0), "pong 6", "nothing stale after the pong");
    // The move queued between the stale requests was played: the next go is for White after f5.
    e.send("set depth 2");
    assert_eq!(e.recv(), "set myname Magpie2");
    e.send("ping 7");
    e.send("go");
    pong(&mut e, 7);
    let (_, mv) = until_move(&mut e);
    assert!(Position::initial().play("f5".parse().unwrap()).is_legal(mv));
}

/// While `go` thinks, `nodestats` lines show the node counter moving.
#[test]
fn go_reports_node_counts_while_it_thinks() {
    let mut e = start_nboard(8);
    e.send(&format!("set game {}", nboard_ggf(&Game::default(), "15:00")));
    e.send("ping 1");
    e.send("go");
    pong(&mut e, 1);
    let (lines, _) = until_move(&mut e);
    let counts: Vec<u64> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("nodestats "))
        .map(|rest| rest.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert!(counts.len() >= 2, "{lines:?}");
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "the count only grows: {counts:?}");
}

/// `analysis` is from Black's point of view: near the end of a game, where every search is an
/// exact solve, the values equal an exact solve seen from Black, whoever is to move.
#[test]
fn analysis_is_from_blacks_point_of_view() {
    use magpie::search::{NoControl, SearchRequest, Searcher};
    let mut rng = Rng::new(77);
    let mut game = Game::default();
    while !game.position().is_game_over() {
        let pos = *game.position();
        let mv = if pos.must_pass() {
            Move::Pass
        } else {
            let moves: Vec<_> = pos.legal_moves().iter().collect();
            Move::Play(moves[rng.below(moves.len())])
        };
        game.play_strict(mv).unwrap();
    }
    let mut e = start_nboard(10);
    e.send(&format!("set game {}", nboard_ggf(&game, "15:00")));
    e.send("ping 1");
    e.send("analyze");
    pong(&mut e, 1);
    let mut values = std::collections::HashMap::new();
    loop {
        let line = e.recv();
        if let Some(rest) = line.strip_prefix("analysis ") {
            let (n, v) = rest.split_once(' ').unwrap();
            values.insert(n.parse::<usize>().unwrap(), v.parse::<f64>().unwrap());
        }
        if line == "status" {
            break;
        }
    }
    assert_eq!(values.len(), game.positions().len());
    let mut searcher = Searcher::new();
    for (n, pos) in game.positions().iter().enumerate() {
        if pos.empty_count() > 10 {
            continue;
        }
        let for_black = if pos.is_game_over() {
            pos.final_score_for_black()
        } else {
            let searched = if pos.must_pass() { pos.pass() } else { *pos };
            let result = searcher.search(
                &SearchRequest::new(searched, magpie::eval::EvalKind::default()),
                &mut NoControl,
                &mut |_| {},
            );
            assert!(result.info.exact);
            let for_searched = result.info.score / 100;
            if searched.side_to_move() == Color::Black { for_searched } else { -for_searched }
        };
        assert_eq!(values[&n], f64::from(for_black), "analysis {n} of {pos}");
    }
}

/// Numbers: errors name the value; depths are clamped to 1..60, contempt to ±64 discs.
#[test]
fn bad_numbers_are_named() {
    let mut e = start_nboard(4);
    for (line, error) in [
        ("set depth abc", "set depth: 'abc' is not a depth in plies"),
        ("set depth -3", "set depth: '-3' is not a depth in plies"),
        ("set depth", "set depth: missing a depth in plies"),
        ("set contempt x", "set contempt: 'x' is not a number of centi-discs"),
        ("hint many", "hint: 'many' is not a number of moves"),
        ("nboard two", "nboard: 'two' is not a protocol version"),
        ("set depth 99999999999999999999999", "set depth: '99999999999999999999999' is not a depth in plies"),
    ] {
        e.send(line);
        assert_eq!(e.recv(), format!("status Magpie error: {error}"), "{line}");
    }
    e.send("set depth 0");
    assert_eq!(e.recv(), "set myname Magpie1");
    e.send("set depth 99");
    assert_eq!(e.recv(), "set myname Magpie60");
    e.send("ping 1");
    pong(&mut e, 1);
}

/// `set game` starts afresh: the table is cleared, so a hint after it takes the nodes of the
/// first, while the same hint repeated without it is shorter, the table remembering the first.
#[test]
fn set_game_forgets_what_the_table_learnt() {
    let mut game = Game::default();
    game.play_all(&magpie::formats::parse_moves("f5d6c3d3c4").unwrap()).unwrap();
    let set_game = format!("set game {}", nboard_ggf(&game, "15:00"));
    let mut e = start_nboard(9);
    let mut ping = 0;
    let mut hint = |e: &mut Engine| -> u64 {
        ping += 1;
        e.send(&format!("ping {ping}"));
        e.send("hint 1");
        pong(e, ping);
        let mut last = None;
        loop {
            let line = e.recv();
            if line == "status" {
                break;
            }
            if let Some(rest) = line.strip_prefix("nodestats ") {
                last = rest.split_whitespace().next().map(|n| n.parse::<u64>().unwrap());
            }
        }
        last.expect("nodestats lines")
    };
    e.send(&set_game);
    let first = hint(&mut e);
    let again = hint(&mut e);
    e.send(&set_game);
    let after_set_game = hint(&mut e);
    assert!(again < first, "the table shortens a repeated search: {again} vs {first}");
    assert_eq!(after_set_game, first);
}

/// `--hash` and `--threads` on the command line, for GUIs that set no options: the engine plays
/// legal moves with a small table and two threads.
#[test]
fn hash_and_threads_from_the_command_line() {
    let mut e = Engine::start(&["--hash", "1", "--threads", "2"]);
    e.send("nboard 2");
    assert_eq!(e.recv(), "set myname Magpie12");
    e.send("set depth 8");
    assert_eq!(e.recv(), "set myname Magpie8");
    let mut game = Game::default();
    game.play_all(&magpie::formats::parse_moves("f5d6").unwrap()).unwrap();
    e.send(&format!("set game {}", nboard_ggf(&game, "15:00")));
    e.send("ping 1");
    e.send("go");
    pong(&mut e, 1);
    let (_, mv) = until_move(&mut e);
    assert!(game.position().is_legal(mv), "{mv}");
}
