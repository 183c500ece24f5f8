//! Opening names as a user sees them, over pipes: the board display `d` and `eval` of Magpie's own
//! protocol, and the NBoard status line after `set game` and `move`.

mod common;

use common::Engine;

/// NBoard's `set game` for the standard start and `moves` (as `F5d6C3`).
fn set_game(moves: &str) -> String {
    let board = "---------------------------O*------*O---------------------------";
    let mut text = format!("set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 {board} *]");
    for (i, mv) in moves.as_bytes().chunks(2).enumerate() {
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        text.push_str(&format!("{colour}[{}//0.01]", String::from_utf8_lossy(mv).to_uppercase()));
    }
    text + ";)"
}

/// The lines of `d`, up to `moves played`.
fn board(e: &mut Engine) -> Vec<String> {
    e.send("d");
    e.until("moves played")
}

#[test]
fn the_board_and_eval_name_the_opening() {
    let mut e = Engine::start(&["--protocol", "ugi"]);
    // The start position and a lone first move have no name: no opening line.
    e.send("position startpos moves f5");
    assert!(board(&mut e).iter().all(|l| !l.starts_with("opening")));
    // F5 d6 C3 d3 C4 is the Tiger: its name comes after the board, before the position text.
    e.send("position startpos moves f5 d6 c3 d3 c4");
    let lines = board(&mut e);
    let at = lines.iter().position(|l| l == "opening: Tiger").unwrap_or_else(|| panic!("{lines:?}"));
    assert!(lines[at - 1].starts_with("O to move"), "{lines:?}");
    assert!(lines[at + 1].starts_with("fen "), "{lines:?}");
    e.send("eval");
    let lines = e.until("eval total");
    assert_eq!(lines[0], "info string opening: Tiger", "{lines:?}");
    assert!(lines[1].starts_with("info string eval: "), "{lines:?}");
    // The same line as the list writes it (C4 first) and as its mirror image (E6 first).
    for moves in ["c4 e3 f6 e6 f5", "e6 f4 c3 c4 d3"] {
        e.send(&format!("position startpos moves {moves}"));
        assert!(board(&mut e).contains(&"opening: Tiger".to_string()), "{moves}");
    }
    // Past the named line the game keeps the last name it passed; F6 then makes it a Stephenson.
    e.send("position startpos moves f5 d6 c3 d3 c4 f4");
    assert!(board(&mut e).contains(&"opening: Tiger".to_string()));
    e.send("position startpos moves f5 d6 c3 d3 c4 f4 f6");
    assert!(board(&mut e).contains(&"opening: Stephenson".to_string()));
    e.send("isready");
    assert_eq!(e.recv(), "readyok", "no other line on the way");
}

#[test]
fn the_nboard_status_names_the_opening() {
    // The book off, so that `go` searches (and shows its status).
    let mut e = Engine::start(&["--own-book", "false"]);
    e.send("nboard 2");
    assert_eq!(e.recv(), "set myname Magpie12");
    e.send("set depth 2");
    assert_eq!(e.recv(), "set myname Magpie2");
    // F5 alone has no name: nothing is sent.
    e.send(&set_game("F5"));
    e.send("ping 1");
    assert_eq!(e.recv(), "pong 1");
    // F5 d6 is the Perpendicular Opening.
    e.send("move D6");
    assert_eq!(e.recv(), "status Perpendicular Opening");
    // C3 leaves the list: the game is still the Perpendicular Opening, which the bar shows.
    e.send("move C3");
    e.send("ping 2");
    assert_eq!(e.recv(), "pong 2");
    // A search replaces the status; the next move shows the opening again.
    e.send("go");
    let lines = e.until("===");
    assert_eq!(lines[0], "status Magpie is thinking", "{lines:?}");
    assert_eq!(e.recv(), "status");
    e.send("move D3");
    assert_eq!(e.recv(), "status Perpendicular Opening");
    e.send("move C4");
    assert_eq!(e.recv(), "status Tiger");
    // The whole game at once, the Tiger under another symmetry (C4 e3 F6 e6 F5): the bar already
    // shows it.
    e.send(&set_game("C4e3F6e6F5"));
    e.send("ping 3");
    assert_eq!(e.recv(), "pong 3");
    // Back to the start (an undo, as the GUI sends it): the name is cleared.
    e.send(&set_game(""));
    assert_eq!(e.recv(), "status");
    e.send(&set_game("F5f6"));
    assert_eq!(e.recv(), "status Diagonal Opening");
    let (rest, status, _) = e.finish();
    assert!(rest.is_empty(), "{rest:?}");
    assert!(status.success());
}
