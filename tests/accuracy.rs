//! `magpie accuracy` over the built binary: Edax's hard-20 positions searched to a depth and
//! measured against their exact scores; the same figures at any number of threads; a search to
//! the end without error.

mod common;

use common::run_with_input;

fn json_lines(args: &[&str], input: &str) -> Vec<serde_json::Value> {
    let out = run_with_input(args, input);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The first `n` positions of Edax's hard-20 set.
fn hard_20(n: usize) -> String {
    include_str!("data/hard-20.obf").lines().take(n).map(|l| format!("{l}\n")).collect()
}

#[test]
fn depth_limited_searches_are_measured_against_the_exact_scores() {
    let input = hard_20(24);
    let args = ["accuracy", "-", "--depth", "6", "--json", "--no-progress"];
    let lines = json_lines(&[&args[..], &["--threads", "1"]].concat(), &input);
    let (positions, total) = lines.split_at(24);
    let total = &total[0];
    assert_eq!((total["type"].as_str(), total["positions"].as_u64()), (Some("total"), Some(24)));
    // The totals are the positions' own figures, summed.
    let errors: Vec<f64> = positions.iter().map(|p| p["error"].as_f64().unwrap()).collect();
    let mae = errors.iter().map(|e| e.abs()).sum::<f64>() / 24.0;
    assert!((total["mean_absolute_error"].as_f64().unwrap() - mae).abs() < 1e-9);
    let best = positions.iter().filter(|p| p["best_move"] == true).count();
    assert!((total["best_move_percent"].as_f64().unwrap() - 100.0 * best as f64 / 24.0).abs() < 1e-9);
    let within = errors.iter().filter(|e| e.abs() <= 3.0).count();
    assert!((total["within_3_percent"].as_f64().unwrap() - 100.0 * within as f64 / 24.0).abs() < 1e-9);
    for p in positions {
        let error = p["score"].as_f64().unwrap() - p["expected_score"].as_f64().unwrap();
        assert_eq!(p["error"].as_f64(), Some(error), "{p}");
        assert_eq!(p["best_move"] == true, p["loss"] == 0, "a best move loses nothing: {p}");
    }
    assert!(mae > 0.0, "a search of 6 plies is not exact on 20 empties");
    // Threads search different positions at once: the same figures, line for line.
    let two = json_lines(&[&args[..], &["--threads", "2"]].concat(), &input);
    let without_times = |lines: &[serde_json::Value]| -> Vec<serde_json::Value> {
        lines
            .iter()
            .map(|l| {
                let mut l = l.clone();
                for key in ["time", "nps", "threads"] {
                    if l.get(key).is_some() {
                        l[key] = 0.into();
                    }
                }
                l
            })
            .collect()
    };
    assert_eq!(without_times(&lines), without_times(&two));
}

#[test]
fn a_search_to_the_end_has_no_error() {
    let lines = json_lines(&["accuracy", "-", "--depth", "60", "--json", "--no-progress"], &hard_20(6));
    let total = lines.last().unwrap();
    assert_eq!(total["mean_absolute_error"].as_f64(), Some(0.0), "{total}");
    assert_eq!(total["best_move_percent"].as_f64(), Some(100.0));
    assert_eq!(total["mean_loss"].as_f64(), Some(0.0));
    // The table says the same.
    let out = run_with_input(&["accuracy", "-", "--depth", "99", "--no-progress"], &hard_20(6));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(text.starts_with("searching 6 positions to depth 60 "), "{text}");
    assert!(text.contains("mean absolute error 0.00 discs, mean error +0.00; best move 100.0% (6/6)"), "{text}");
}

#[test]
fn bad_input_is_refused_in_one_line() {
    for (args, input, words) in [
        (vec!["accuracy", "-"], "XO X\n", vec!["<stdin> line 1", "position 'XO X'"]),
        (vec!["accuracy", "-"], "", vec!["<stdin>: no position in it"]),
        (vec!["accuracy", "-", "--depth", "-1"], "", vec!["'-1' for '--depth <DEPTH>'"]),
        (vec!["accuracy", "no-such.obf"], "", vec!["no-such.obf: No such file or directory"]),
    ] {
        let out = run_with_input(&args, input);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(words.iter().all(|w| err.contains(w)), "{args:?}: {err}");
    }
}
