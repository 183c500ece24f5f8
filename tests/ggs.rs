//! `magpie ggs` against a Generic Game Server simulated on 127.0.0.1 (`ggs_sim`): login, requests
//! accepted and declined, asks, tournaments, synchro games from random openings played to the
//! end on the clock, passes, a dropped connection with the adjourned match resumed, junk from the
//! server, a refused login and bad arguments. Each test ends by itself: the client logs out after
//! the boards it is told to play (`--games`), and a time limit kills it if it does not.

mod ggs_sim;

use ggs_sim::{Script, Server, Tally};
use magpie::board::{BoardSize, Color, Position};
use magpie::formats::ggf::{GgfGame, GgfResult};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const LOGIN: &str = "magpie";
const PASSWORD: &str = "s3cret";

/// A folder for the test's files, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("magpie-ggs-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the client against `server` with `args`, killed after `limit`.
fn client(server: &Server, args: &[&str], limit: Duration) -> Output {
    let port = server.port.to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_magpie"))
        .args(["ggs", "--login", LOGIN, "--host", "127.0.0.1", "--port", &port, "--retry-delay", "0.1"])
        .args(["--retries", "20", "--min-time", "1"])
        .args(args)
        .env("MAGPIE_GGS_PASSWORD", PASSWORD)
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!("the client did not end within {limit:?}; its log:\n{}", String::from_utf8_lossy(&out.stderr));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn games(path: &Path) -> Vec<GgfGame> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines().map(|l| GgfGame::parse(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

/// The checks every played run passes: the client ended well, nothing refused, nothing late.
fn played_cleanly(out: &Output, tally: &Tally, boards: u64) {
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit {:?}; log:\n{log}", out.status);
    assert_eq!(tally.boards, boards, "{tally:?}\n{log}");
    assert_eq!((tally.refused, tally.time_losses), (0, 0), "{tally:?}\n{log}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(&format!("{boards} boards finished")), "{stdout}");
}

/// A synchro match from a random opening on a clock of a few seconds a board, searched with
/// `threads` threads (one: the boards one after another; two: both at once).
fn synchro_on_the_clock(threads: &str) {
    let scratch = Scratch::new(&format!("synchro{threads}"));
    let ggf = scratch.path("games.ggf");
    let mut script = Script::new(LOGIN, PASSWORD);
    script.decline_first = true;
    script.main = Duration::from_secs(6);
    script.extension = Duration::from_secs(5);
    let server = Server::start(script);
    let args = ["--games", "2", "--td", ".1", "--threads", threads, "--ggf", ggf.to_str().unwrap()];
    let out = client(&server, &args, Duration::from_secs(60));
    let tally = server.tally();
    played_cleanly(&out, &tally, 2);
    assert_eq!(tally.losses, 0, "against a random mover: {tally:?}");
    assert_eq!((tally.declined, tally.accepted, tally.logins), (1, 1, 1));
    assert_eq!(tally.td_joins, [".1"]);
    for line in ["tell /os trust +", "tell /os open 1", "tell /os request +", "tell /os stored", "quit"] {
        assert!(tally.received.iter().any(|l| l == line), "{line} not sent: {:?}", tally.received);
    }
    let games = games(&ggf);
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(game.board_type(), Some("s8r20"));
        assert_eq!(64 - game.start().empty_count(), 20, "a start of 20 discs");
        assert!(game.position().is_game_over());
        let Some(GgfResult::Score { black_net, .. }) = game.result() else { panic!("{:?}", game.result()) };
        assert_eq!(black_net, f64::from(game.position().final_score_for_black()));
        // Every move of ours carries its evaluation and time.
        let me = if game.player(Color::Black) == Some(LOGIN) { Color::Black } else { Color::White };
        assert!(game.moves().iter().filter(|m| m.color == me).all(|m| m.eval.is_some() && m.time.is_some()));
    }
    assert_ne!(games[0].player(Color::Black), games[1].player(Color::Black), "colours swap between the boards");
}

#[test]
fn a_synchro_match_from_a_random_opening_is_played_on_the_clock_after_a_request_is_declined() {
    synchro_on_the_clock("1");
}

#[test]
fn both_boards_of_a_synchro_match_are_searched_at_once_with_two_threads() {
    synchro_on_the_clock("2");
}

#[test]
fn passes_are_sent_and_read() {
    let scratch = Scratch::new("pass");
    let ggf = scratch.path("games.ggf");
    let mut script = Script::new(LOGIN, PASSWORD);
    script.game_type = "s8".to_string();
    // Black (a1, c1) has no move against White's b1; White has d1.
    let start = Position::from_discs(0b101, 0b10, Color::Black, BoardSize::Eight).unwrap();
    assert!(start.must_pass());
    script.start = Some(start);
    let server = Server::start(script);
    let out =
        client(&server, &["--games", "2", "--level", "3", "--ggf", ggf.to_str().unwrap()], Duration::from_secs(60));
    let tally = server.tally();
    played_cleanly(&out, &tally, 2);
    assert!(tally.passes >= 1, "{tally:?}");
    let games = games(&ggf);
    assert!(games.iter().all(|g| g.moves()[0].mv == magpie::board::Move::Pass), "both boards open with a pass");
}

#[test]
fn an_adjourned_match_is_resumed_after_the_connection_drops() {
    let scratch = Scratch::new("resume");
    let ggf = scratch.path("games.ggf");
    let mut script = Script::new(LOGIN, PASSWORD);
    script.drops = vec![3, 9];
    script.main = Duration::from_secs(30);
    let server = Server::start(script);
    let out =
        client(&server, &["--games", "2", "--level", "4", "--ggf", ggf.to_str().unwrap()], Duration::from_secs(60));
    let tally = server.tally();
    played_cleanly(&out, &tally, 2);
    assert_eq!(tally.losses, 0, "against a random mover: {tally:?}");
    assert_eq!((tally.drops, tally.logins, tally.resumed), (2, 3, 2), "{tally:?}");
    assert!(tally.received.iter().any(|l| l.starts_with("tell /os ask .8")), "{:?}", tally.received);
    // The records run from the start: the resumed board's join lists every move.
    for game in games(&ggf) {
        assert_eq!(64 - game.start().empty_count(), 20);
        assert!(game.position().is_game_over());
    }
}

#[test]
fn asks_start_the_matches_and_junk_from_the_server_is_skipped() {
    let mut script = Script::new(LOGIN, PASSWORD);
    script.offer = false;
    script.matches = 2;
    script.junk = 2;
    script.bare_prompt = false;
    let server = Server::start(script);
    let out =
        client(&server, &["--games", "4", "--level", "2", "--ask", "s8r20 01:00//00:10 bot"], Duration::from_secs(60));
    let tally = server.tally();
    played_cleanly(&out, &tally, 4);
    assert_eq!(tally.losses, 0, "against a random mover: {tally:?}");
    assert_eq!(tally.asks, 2, "asked after login and after the first match: {tally:?}");
    assert!(tally.received.iter().any(|l| l == "tell /os ask s8r20 01:00//00:10 bot"));
}

#[test]
fn a_refused_login_ends_the_client_with_one_line() {
    let server = Server::start(Script::new(LOGIN, "another"));
    let out = client(&server, &[], Duration::from_secs(30));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let last = err.lines().last().unwrap_or_default();
    assert!(last.starts_with("error: ") && last.contains("refused the login magpie"), "{err}");
    assert!(!err.contains(PASSWORD), "the password is never logged");
}

#[test]
fn bad_arguments_exit_2_naming_the_value() {
    let run = |args: &[&str], password: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_magpie"));
        command.arg("ggs").args(args).env_remove("MAGPIE_GGS_PASSWORD");
        if let Some(p) = password {
            command.env("MAGPIE_GGS_PASSWORD", p);
        }
        command.output().unwrap()
    };
    for (args, password, needle) in [
        (&["--login", "magpie"][..], None, "no password"),
        (&["--login", "m"][..], Some("x"), "2 to 8 characters"),
        (&["--login", "magpie", "--ask", "s8r20 bob"][..], Some("x"), "TYPE CLOCK USER"),
        (&["--login", "magpie", "--ask", "8k 05:00//02:00 bob"][..], Some("x"), "does not play"),
        (&["--login", "magpie", "--types", "8a"][..], Some("x"), "does not play"),
        (&["--login", "magpie", "--password-file", "/nonexistent/pw"][..], None, "/nonexistent/pw"),
        (&["--login", "magpie", "--min-time", "600", "--max-time", "60"][..], Some("x"), "--min-time"),
        (&["--login", "magpie", "--ggf", "/nonexistent/dir/g.ggf"][..], Some("x"), "/nonexistent/dir"),
    ] {
        let out = run(args, password);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// The long run: `MAGPIE_GGS_MATCHES` synchro matches (200 by default) from random openings at
/// `MAGPIE_GGS_CLOCK` seconds a board, the connection dropped at random about once in
/// `MAGPIE_GGS_DROP_EVERY` moves, the client searching with `MAGPIE_GGS_THREADS` threads (1); its
/// memory and threads sampled as it plays.
/// `cargo test --release --test ggs -- --ignored --nocapture long_run`
#[test]
#[ignore]
fn long_run() {
    let var = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let matches = var("MAGPIE_GGS_MATCHES", 200);
    let mut script = Script::new(LOGIN, PASSWORD);
    script.matches = matches as usize;
    script.main = Duration::from_secs(var("MAGPIE_GGS_CLOCK", 10));
    script.extension = Duration::from_secs(10);
    script.random_drops = var("MAGPIE_GGS_DROP_EVERY", 400);
    script.junk = 50;
    script.seed = var("MAGPIE_GGS_SEED", 7);
    let server = Server::start(script);
    let scratch = Scratch::new("long");
    let ggf = scratch.path("games.ggf");
    let port = server.port.to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_magpie"))
        .args([
            "ggs",
            "--login",
            LOGIN,
            "--host",
            "127.0.0.1",
            "--port",
            &port,
            "--retry-delay",
            "0.2",
            "--min-time",
            "1",
        ])
        .args(["--games", &(2 * matches).to_string(), "--ggf", ggf.to_str().unwrap()])
        .args(["--threads", &var("MAGPIE_GGS_THREADS", 1).to_string()])
        .env("MAGPIE_GGS_PASSWORD", PASSWORD)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut samples = Vec::new();
    while child.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_secs(1));
        if samples.len() as u64 <= start.elapsed().as_secs() / 30 {
            let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
            let field = |name: &str| {
                status
                    .lines()
                    .find(|l| l.starts_with(name))
                    .and_then(|l| l.split_whitespace().nth(1))
                    .unwrap_or("?")
                    .to_string()
            };
            let tally = server.tally();
            let sample = (start.elapsed().as_secs(), tally.boards, field("VmRSS:"), field("Threads:"));
            eprintln!("{sample:?}");
            samples.push(sample);
        }
    }
    let out = child.wait_with_output().unwrap();
    let tally = server.tally();
    eprintln!("{tally:#?}");
    eprintln!("{} s; samples (s, boards, VmRSS kB, threads): {samples:?}", start.elapsed().as_secs());
    played_cleanly(&out, &tally, 2 * matches);
    assert_eq!(tally.losses, 0, "against a random mover: {tally:?}");
}
