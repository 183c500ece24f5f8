//! The scripts of `scripts/` that drive the training pipeline, run as a user runs them: the small
//! training run on a WTHOR file the test writes itself, and sharded steps through GNU parallel and
//! through the Slurm array script, merged and compared with one unsharded run; and the match
//! tools' `movequal.py` (Python 3), with Magpie as the variants and as the judge, `pairs.py`
//! on runs of games built here and `tally.py` on one run in two files.

mod common;

use common::TempDir;
use magpie::board::{Color, Move, Position, Square};
use magpie::eval::weights::Weights;
use magpie::formats::wthor::{WthorGame, WthorHeader, parse_wtb, write_wtb};
use magpie::formats::{GameEnd, GgfGame, GgfResult};
use magpie::rng::Rng;
use std::path::Path;
use std::process::{Command, Output};

fn script(name: &str) -> String {
    format!("{}/scripts/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn check(what: &str, out: &Output) {
    assert!(
        out.status.success(),
        "{what}: {:?}\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `games` random games played to the end, as WTHOR records.
fn random_games(games: usize, seed: u64) -> Vec<WthorGame> {
    let mut rng = Rng::new(seed);
    (0..games)
        .map(|i| {
            let mut pos = Position::initial();
            let mut moves: Vec<Square> = Vec::new();
            while !pos.is_game_over() {
                if pos.must_pass() {
                    pos = pos.pass();
                    continue;
                }
                let legal: Vec<Square> = pos.legal_moves().iter().collect();
                let square = legal[rng.below(legal.len())];
                moves.push(square);
                pos = pos.play(square);
            }
            let (black, _) = pos.disc_counts();
            let black = black as u8;
            WthorGame {
                tournament: 1,
                black: i as u16,
                white: i as u16 + 1,
                black_discs: black,
                theoretical_black_discs: black,
                moves,
            }
        })
        .collect()
}

/// The records of a samples file, sorted: two files hold the same records in any order when
/// these are equal.
fn sorted_records(path: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(bytes.len() % 20, 0, "{}", path.display());
    let mut records: Vec<Vec<u8>> = bytes.chunks(20).map(<[u8]>::to_vec).collect();
    records.sort();
    records
}

/// The sorted records of the step `args` run once, unsharded, into `whole.bin` in `dir`.
fn unsharded(dir: &TempDir, args: &[&str]) -> Vec<Vec<u8>> {
    let whole = Command::new(env!("CARGO_BIN_EXE_magpie"))
        .args(args)
        .args(["--out", "whole.bin", "--no-progress"])
        .current_dir(dir.path())
        .output()
        .expect("magpie runs");
    check("the unsharded run", &whole);
    sorted_records(&dir.join("whole.bin"))
}

/// `scripts/train-small.sh` runs every step of the pipeline (here at a tiny scale) and its weights
/// are used for a move.
#[test]
fn the_small_training_run_goes_through_every_step() {
    let dir = TempDir::new("train-small");
    let wthor = dir.join("WTH_2001.wtb");
    let games = random_games(120, 5);
    let bytes = write_wtb(&WthorHeader { games: 0, year: 2001, depth: 24 }, &games);
    assert_eq!(parse_wtb(&bytes).unwrap().1, games, "the file reads back");
    std::fs::write(&wthor, bytes).unwrap();
    let out_dir = dir.join("out");
    let out = Command::new(script("train-small.sh"))
        .arg(&wthor)
        .arg(&out_dir)
        .envs([
            ("MAGPIE", env!("CARGO_BIN_EXE_magpie")),
            ("EXACT_EMPTIES", "8"),
            ("DEPTH", "2"),
            ("SELFPLAY_GAMES", "60"),
            ("ITERATIONS", "10"),
            ("PROBCUT_POSITIONS", "600"),
            ("SOLVE_POSITIONS", "400"),
        ])
        .output()
        .expect("the script runs");
    check("train-small.sh", &out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    for step in ["1/5", "2/5", "3/5", "4/5", "5/5"] {
        assert!(stderr.contains(&format!("== {step} ")), "{step}: {stderr}");
    }
    assert!(stdout.contains("wthor-samples: 120 games"), "{stdout}");
    assert!(stdout.contains("held-out mean absolute error"), "{stdout}");
    let weights = Weights::read(&out_dir.join("weights-probcut.bin")).expect("the weights with their fits");
    assert!(weights.probcut().iter().any(|f| !f.solve) && weights.probcut().iter().any(|f| f.solve), "{stdout}");
    // The last line is the move chosen with them: a legal first reply to f5 d6 c3.
    let last = stdout.lines().last().unwrap_or_default();
    let mut after = Position::initial();
    for square in ["f5", "d6", "c3"] {
        after = after.play(square.parse().unwrap());
    }
    let mv: Square = last.split_whitespace().next().and_then(|m| m.parse().ok()).unwrap_or_else(|| panic!("{last}"));
    assert!(after.legal_moves().iter().any(|s| s == mv), "{last}");
    let bad = Command::new(script("train-small.sh")).arg(dir.join("missing.wtb")).arg(&out_dir).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// `scripts/train-network-small.sh` runs every step of the network's pipeline (here at a tiny
/// scale): a network file, its measure against the weights on the held-out self-play, cuts fitted
/// for it, and the two accuracy reports.
#[test]
fn the_small_network_run_goes_through_every_step() {
    use magpie::eval::network::Network;
    let dir = TempDir::new("train-network-small");
    let wthor = dir.join("WTH_2002.wtb");
    std::fs::write(&wthor, write_wtb(&WthorHeader { games: 0, year: 2002, depth: 24 }, &random_games(60, 9))).unwrap();
    let out_dir = dir.join("out");
    let out = Command::new(script("train-network-small.sh"))
        .arg(&wthor)
        .arg(&out_dir)
        .envs([
            ("MAGPIE", env!("CARGO_BIN_EXE_magpie")),
            ("EXACT_EMPTIES", "8"),
            ("DEPTH", "2"),
            ("SELFPLAY_GAMES", "60"),
            ("HELDOUT_GAMES", "20"),
            ("EPOCHS", "2"),
            ("PROBCUT_POSITIONS", "600"),
            ("SOLVE_POSITIONS", "0"),
            ("ACCURACY_DEPTH", "3"),
        ])
        .output()
        .expect("the script runs");
    check("train-network-small.sh", &out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    for step in ["1/6", "2/6", "3/6", "4/6", "5/6", "6/6"] {
        assert!(stderr.contains(&format!("== {step} ")), "{step}: {stderr}");
    }
    assert!(stdout.contains("held-out mean squared error by empties"), "{stdout}");
    assert_eq!(stdout.matches("total: 276 positions at depth 3,").count(), 2, "{stdout}");
    Network::read(&out_dir.join("net.bin")).expect("the network file reads");
    let weights = Weights::read(&out_dir.join("weights-net.bin")).expect("the weights with the network's fits");
    assert!(!weights.probcut().is_empty() && weights.probcut() != Weights::embedded().probcut());
    let totals: Vec<&str> = stdout.lines().filter(|l| l.starts_with("mean absolute error ")).collect();
    assert_eq!(totals.len(), 2, "the weights' accuracy and the network's: {stdout}");
    let bad =
        Command::new(script("train-network-small.sh")).arg(dir.join("missing.wtb")).arg(&out_dir).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// A sharded datagen run through `scripts/shards.sh` (GNU parallel, local jobs) holds the records
/// of one unsharded run. Skipped, with a message on the terminal, where GNU parallel is not
/// installed.
#[test]
fn shards_through_gnu_parallel_merge_to_one_run() {
    if Command::new("parallel").arg("--version").output().is_err() {
        common::skip(
            "shards_through_gnu_parallel_merge_to_one_run",
            "GNU parallel is not installed (Debian package parallel)",
        );
        return;
    }
    let dir = TempDir::new("shards");
    let args = ["datagen", "--games", "24", "--depth", "2", "--exact-empties", "8", "--seed", "4"];
    let out = Command::new(script("shards.sh"))
        .args(["-j", "2", "-m", env!("CARGO_BIN_EXE_magpie"), "2", "merged.bin", "--"])
        .args(args)
        .current_dir(dir.path())
        .output()
        .expect("the script runs");
    check("shards.sh", &out);
    let merged = sorted_records(&dir.join("merged.bin"));
    assert!(!merged.is_empty());
    assert_eq!(merged, unsharded(&dir, &args));
    assert_eq!(dir.entries(), ["merged.bin", "whole.bin"], "the shards' files are removed once merged");
}

/// The Slurm array script, run as Slurm runs each task (its environment set by hand), then the
/// documented merge: the same records as one unsharded run.
#[test]
fn the_slurm_array_script_shards_and_merges() {
    let dir = TempDir::new("slurm");
    std::fs::create_dir(dir.join("out")).unwrap();
    let args = ["datagen", "--games", "18", "--depth", "2", "--exact-empties", "8", "--seed", "9"];
    for task in ["0", "1", "2"] {
        let out = Command::new(script("slurm-shards.sbatch"))
            .arg("out")
            .args(args)
            .envs([
                ("SLURM_ARRAY_TASK_ID", task),
                ("SLURM_ARRAY_TASK_COUNT", "3"),
                ("SLURM_CPUS_PER_TASK", "1"),
                ("MAGPIE", env!("CARGO_BIN_EXE_magpie")),
            ])
            .current_dir(dir.path())
            .output()
            .expect("the script runs");
        check("slurm-shards.sbatch", &out);
    }
    let merge = Command::new("sh")
        .arg("-c")
        .arg("cat $(ls out/shard-*.bin | sort -V) > merged.bin")
        .current_dir(dir.path())
        .output()
        .unwrap();
    check("merge", &merge);
    assert_eq!(sorted_records(&dir.join("merged.bin")), unsharded(&dir, &args));
}

/// Whether Python 3 is missing, said on the terminal: the test `test` is skipped then.
fn python3_missing(test: &str) -> bool {
    let missing = Command::new("python3").arg("--version").output().is_err();
    if missing {
        common::skip(test, "python3 is not installed");
    }
    missing
}

/// A skipped test says so in a plain run, where the harness keeps what a passing test prints: this
/// test runs the shards test again in this test binary with no GNU parallel on the PATH.
#[test]
fn a_skipped_test_says_so_on_the_terminal() {
    let empty = TempDir::new("no-parallel");
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "shards_through_gnu_parallel_merge_to_one_run", "--test-threads", "1"])
        .env("PATH", empty.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("test shards_through_gnu_parallel_merge_to_one_run: SKIPPED: GNU parallel is not installed"),
        "{said}"
    );
}

/// `movequal.py` judges two settings' moves, saves them, and judges the saved moves again with the
/// same judge (`--moves-from`) to the same values: the judge at a fixed depth, the variants at fixed
/// levels, the judge seeing each position's moves in a fixed order. Skipped, with a message, where
/// Python 3 is not installed.
#[test]
fn movequal_judges_saved_moves_again_to_the_same_values() {
    if python3_missing("movequal_judges_saved_moves_again_to_the_same_values") {
        return;
    }
    let dir = TempDir::new("movequal");
    let magpie = env!("CARGO_BIN_EXE_magpie");
    let games = format!("{}/tests/data/ntest-TestGames.ggf", env!("CARGO_MANIFEST_DIR"));
    let judge = format!("{magpie} --protocol nboard --own-book false");
    let run = |args: &[&str]| {
        Command::new("python3")
            .arg(script("movequal.py"))
            .args(args)
            .args(["--judge", &judge, "--depth", "6"])
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .current_dir(dir.path())
            .output()
            .expect("the script runs")
    };
    let level3 = format!("l3={magpie} --own-book false --level 3");
    let level5 = format!("l5={magpie} --own-book false --level 5");
    let first = [games.as_str(), "--games", "4", "--points", "40,30", "--movetime", "20", "--variant", &level3];
    let out = run(&[&first[..], &["--variant", &level5, "--save", "first.json"]].concat());
    check("movequal.py", &out);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.starts_with("8 positions (8 judged for every variant)"), "{report}");
    assert!(report.lines().any(|l| l.trim_start().starts_with("l5 ")), "{report}");
    let out = run(&["--moves-from", "first.json", "--save", "again.json"]);
    check("movequal.py --moves-from", &out);
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    assert_eq!(read("first.json"), read("again.json"));
    // A run with neither games nor saved moves is refused with exit status 2.
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A random 10-ply opening (no pass comes in the first moves of a game).
fn random_opening(rng: &mut Rng) -> Vec<Move> {
    let mut pos = Position::initial();
    let mut opening = Vec::new();
    for _ in 0..10 {
        let legal: Vec<Square> = pos.legal_moves().iter().collect();
        let square = legal[rng.below(legal.len())];
        opening.push(Move::Play(square));
        pos = pos.play(square);
    }
    opening
}

/// A game's points for a player from its disc difference.
fn points(discs: f64) -> f64 {
    if discs > 0.0 {
        1.0
    } else if discs == 0.0 {
        0.5
    } else {
        0.0
    }
}

/// A random game from `opening` played to the end with `rng`'s moves, Magpie on `colour`.
fn finished_game(opening: &[Move], rng: &mut Rng, magpie: Color) -> (GgfGame, f64) {
    let (game, discs, _) = finished_game_timed(opening, rng, magpie, (0.01, 0.01));
    (game, discs)
}

/// As [`finished_game`], each of Magpie's moves after the opening taking `seconds.0` and each of
/// its opponent's `seconds.1`; also each of those moves as (empties before it, whether Magpie made
/// it, its seconds).
fn finished_game_timed(
    opening: &[Move],
    rng: &mut Rng,
    magpie: Color,
    seconds: (f64, f64),
) -> (GgfGame, f64, Vec<(u32, bool, f64)>) {
    let mut timed = Vec::new();
    let mut game = GgfGame::new(Position::initial());
    game.set_player(magpie, "magpie");
    game.set_player(magpie.opposite(), "ntest");
    for &mv in opening {
        game.push_move(mv, None, None).expect("a legal opening move");
    }
    while !game.position().is_game_over() {
        let pos = game.position();
        let moves: Vec<Move> =
            if pos.must_pass() { vec![Move::Pass] } else { pos.legal_moves().iter().map(Move::Play).collect() };
        let mine = pos.side_to_move() == magpie;
        let time = if mine { seconds.0 } else { seconds.1 };
        timed.push((pos.empty_count(), mine, time));
        game.push_move(moves[rng.below(moves.len())], Some(0.0), Some(time)).expect("a legal move");
    }
    let (black, white) = game.position().disc_counts();
    let black_net = black as f64 - white as f64;
    game.set_result(GgfResult::Score { black_net, end: GameEnd::Normal });
    (game, if magpie == Color::Black { black_net } else { -black_net }, timed)
}

/// `pairs.py` pairs two runs' games by opening and colour: on runs built here with known results
/// (some games the same in both, the others played on differently) it finds every pair and the
/// identical ones, and prints each run's score and the paired difference the test works out from
/// the results; a game of other players is left out; no common game, or an unreadable result,
/// exits with status 2. Skipped, with a message, where Python 3 is not installed.
#[test]
fn pairs_compares_two_runs_opening_by_opening() {
    if python3_missing("pairs_compares_two_runs_opening_by_opening") {
        return;
    }
    let dir = TempDir::new("pairs");
    let mut rng = Rng::new(41);
    let (mut run_a, mut run_b) = (String::new(), String::new());
    let (mut score_a, mut score_b, mut same) = (0.0, 0.0, 0);
    let mut diffs = Vec::new();
    let openings = 5;
    for o in 0..openings {
        let opening = random_opening(&mut rng);
        let mut diff = 0.0;
        for colour in [Color::Black, Color::White] {
            let (game_a, discs_a) = finished_game(&opening, &mut rng, colour);
            // The first opening's games are the same in both runs; the others go on differently.
            let (game_b, discs_b) =
                if o == 0 { (game_a.clone(), discs_a) } else { finished_game(&opening, &mut rng, colour) };
            same += usize::from(game_a.to_string() == game_b.to_string());
            run_a.push_str(&format!("{game_a}\n"));
            run_b.push_str(&format!("{game_b}\n"));
            score_a += points(discs_a);
            score_b += points(discs_b);
            diff += (points(discs_b) - points(discs_a)) / 2.0;
        }
        diffs.push(diff);
    }
    // Another pairing's game in run A only: left out.
    let (mut other, _) = finished_game(&[], &mut rng, Color::Black);
    other.set_player(Color::Black, "edax");
    run_a.push_str(&format!("{other}\n"));
    std::fs::write(dir.join("a.ggf"), &run_a).unwrap();
    std::fs::write(dir.join("b.ggf"), &run_b).unwrap();
    let run = |a: &str, b: &str| {
        Command::new("python3")
            .arg(script("pairs.py"))
            .args(["--a", a, "--b", b, "--player", "magpie"])
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .current_dir(dir.path())
            .output()
            .expect("the script runs")
    };
    let out = run("a.ggf", "b.ggf");
    check("pairs.py", &out);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(same >= 2, "the first opening's two games are the same in both runs");
    let head = format!("magpie: run A 10 games, run B 10; 10 paired (5 openings), {same} the same move for move");
    assert!(report.starts_with(&head), "{report}");
    let number_after = |prefix: &str| -> f64 {
        let line = report.lines().find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("{prefix}\n{report}"));
        let rest = &line[prefix.len()..];
        rest.split(['%', ' ', ',']).next().unwrap().parse().unwrap()
    };
    assert!((number_after("run A: score ") - 100.0 * score_a / 10.0).abs() < 0.051, "{report}");
    assert!((number_after("run B: score ") - 100.0 * score_b / 10.0).abs() < 0.051, "{report}");
    let mean = diffs.iter().sum::<f64>() / openings as f64;
    assert!((number_after("B - A, paired by opening: ") - 100.0 * mean).abs() < 0.051, "{report}");
    // Run A against the other pairing's game alone: nothing in common.
    std::fs::write(dir.join("other.ggf"), format!("{other}\n")).unwrap();
    let out = run("other.ggf", "b.ggf");
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: no game of magpie"));
    // A result that is not a disc difference is named.
    let broken = run_b.lines().next().unwrap().to_string();
    let start = broken.find("RE[").unwrap();
    let end = start + broken[start..].find(']').unwrap();
    let broken = format!("{}RE[?{}\n", &broken[..start], &broken[end..]);
    std::fs::write(dir.join("unknown.ggf"), broken).unwrap();
    let out = run("a.ggf", "unknown.ggf");
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown.ggf: game 1: result RE[?]"));
}

/// `tally.py` tallies GGF files as one run as `magpie match` does: on games built here with known
/// results and move times, split over two files, it prints the wins, draws and losses, the score,
/// the Elo interval from the pairs' scores (worked out here), and each side's time a game with
/// their ratio and by empties; an opening played with one colour only counts in the score, not in
/// the pairs; no game of the player, an unreadable result, or a bin of 0 empties exits with status
/// 2. Skipped, with a message, where Python 3 is not installed.
#[test]
fn tally_counts_a_run_in_parts_as_the_match_runner_does() {
    if python3_missing("tally_counts_a_run_in_parts_as_the_match_runner_does") {
        return;
    }
    let dir = TempDir::new("tally");
    let mut rng = Rng::new(43);
    let (mut parts, mut results, mut pair_scores) = ([String::new(), String::new()], Vec::new(), Vec::new());
    let (mut mine, mut theirs) = (0.0, 0.0);
    // Each side's seconds by bins of 10 empties (0-9, ..., 50-59, 60), Magpie's first.
    let mut binned = [[0.0; 7]; 2];
    for o in 0..7 {
        let opening = random_opening(&mut rng);
        // The last opening is played with Black only: a game without its pair.
        let colours: &[Color] = if o == 6 { &[Color::Black] } else { &[Color::Black, Color::White] };
        let mut pair = 0.0;
        for &colour in colours {
            let (game, discs, timed) = finished_game_timed(&opening, &mut rng, colour, (0.5, 0.25));
            for (empties, by_magpie, time) in timed {
                *if by_magpie { &mut mine } else { &mut theirs } += time;
                binned[usize::from(!by_magpie)][empties as usize / 10] += time;
            }
            // The first three openings' games go to one file, the others to the other.
            parts[usize::from(o >= 3)].push_str(&format!("{game}\n"));
            results.push(discs);
            pair += points(discs) / 2.0;
        }
        if colours.len() == 2 {
            pair_scores.push(pair);
        }
    }
    std::fs::write(dir.join("one.ggf"), &parts[0]).unwrap();
    std::fs::write(dir.join("two.ggf"), &parts[1]).unwrap();
    let run = |files: &[&str], player: &str, bin: &str| {
        Command::new("python3")
            .arg(script("tally.py"))
            .args(files)
            .args(["--player", player, "--by-empties", bin])
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .current_dir(dir.path())
            .output()
            .expect("the script runs")
    };
    let out = run(&["one.ggf", "two.ggf"], "magpie", "10");
    check("tally.py", &out);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.starts_with("magpie: 13 games in 2 file(s) against ntest; 6 pairs"), "{report}");
    let wins = results.iter().filter(|&&d| d > 0.0).count();
    let draws = results.iter().filter(|&&d| d == 0.0).count();
    let score = results.iter().map(|&d| points(d)).sum::<f64>() / 13.0;
    let line = format!("W-D-L {wins}-{draws}-{}, score {:.1}%", 13 - wins - draws, 100.0 * score);
    assert!(report.contains(&line), "{line}\n{report}");
    let elo = |s: f64| -400.0 * (1.0 / s - 1.0).log10();
    let mean = pair_scores.iter().sum::<f64>() / 6.0;
    let var = pair_scores.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / 6.0;
    let sigma = (var / 6.0).sqrt();
    // These games' pairs differ, and their interval lies inside (0, 1): it has finite Elo ends.
    assert!(var > 0.0 && mean - 1.96 * sigma > 0.0 && mean + 1.96 * sigma < 1.0, "{pair_scores:?}");
    let line = format!("Elo {:+.0} [{:+.0}, {:+.0}]", elo(mean), elo(mean - 1.96 * sigma), elo(mean + 1.96 * sigma));
    assert!(report.contains(&line), "{line}\n{report}");
    let line =
        format!("seconds a game: magpie {:.2}, ntest {:.2}; ratio {:.2}", mine / 13.0, theirs / 13.0, mine / theirs);
    assert!(report.contains(&line), "{line}\n{report}");
    // The time by empties: the opening's moves (the first at 60 empties) took none.
    assert!(report.contains("empties   magpie    ntest\n     60    0.000    0.000\n"), "{report}");
    for bin in (0..6).filter(|&b| binned[0][b] + binned[1][b] > 0.0) {
        let span = format!("{}-{}", 10 * bin, 10 * bin + 9);
        let line = format!("{span:>7}  {:>7.3}  {:>7.3}\n", binned[0][bin] / 13.0, binned[1][bin] / 13.0);
        assert!(report.contains(&line), "{line}\n{report}");
    }
    let out = run(&["one.ggf"], "magpie", "0");
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--by-empties 0: must be 1 to 60"));
    // Another player's games only: nothing to tally.
    let out = run(&["one.ggf"], "edax", "10");
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    // A result that is not a disc difference is named.
    let first = parts[0].lines().next().unwrap().to_string();
    let start = first.find("RE[").unwrap();
    let end = start + first[start..].find(']').unwrap();
    std::fs::write(dir.join("unknown.ggf"), format!("{}RE[?{}\n", &first[..start], &first[end..])).unwrap();
    let out = run(&["unknown.ggf"], "magpie", "10");
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown.ggf: game 1: result RE[?]"));
}
