//! The training pipeline end to end, as the real binary runs it on a small scale: self-play data
//! (`magpie datagen`), a fit (`magpie train`) whose held-out error is below that of knowing
//! nothing, Multi-ProbCut fitted for the new weights (`magpie probcut`), and the engine playing
//! with the result.

mod common;

use common::{Engine, TempDir};
use magpie::eval::weights::Weights;
use magpie::formats::samples::parse_samples;
use std::process::Command;

fn magpie(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_magpie")).args(args).output().expect("magpie runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{args:?}: {stdout}{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

#[test]
fn a_small_training_run_learns_and_the_engine_uses_it() {
    let dir = TempDir::new("training");
    let data = dir.join("data.bin");
    let data_text = data.display().to_string();
    magpie(&[
        "datagen",
        "--games",
        "60",
        "--depth",
        "2",
        "--exact-empties",
        "10",
        "--random-plies",
        "8",
        "--random-rate",
        "10",
        "--threads",
        "2",
        "--no-progress",
        "--out",
        &data_text,
    ]);
    let samples = parse_samples(&std::fs::read(&data).unwrap()).unwrap();
    assert!(samples.len() > 2000, "{} samples", samples.len());

    // Knowing nothing (a score of 0 everywhere) errs by the mean absolute score of the held-out
    // samples: the last 20% of the file.
    let held_out = &samples[samples.len() - samples.len() * 20 / 100..];
    let know_nothing = held_out.iter().map(|s| f64::from(s.score).abs()).sum::<f64>() / held_out.len() as f64 / 100.0;

    let weights = dir.join("w.bin");
    let weights_text = weights.display().to_string();
    let report = magpie(&[
        "train",
        &data_text,
        "--out",
        &weights_text,
        "--iterations",
        "30",
        "--holdout",
        "20",
        "--l2",
        "20",
        "--threads",
        "2",
        "--no-progress",
    ]);
    // One measure of error throughout: mean absolute error, the fit's and the held-out table's.
    assert!(report.contains("mean absolute error") && !report.contains("root mean square"), "{report}");
    let all = report.lines().find(|l| l.trim_start().starts_with("all:")).unwrap_or_else(|| panic!("{report}"));
    let words: Vec<&str> = all.split_whitespace().collect();
    assert_eq!(words[1].parse::<usize>().unwrap(), held_out.len(), "{all}");
    let error: f64 = words[2].parse().unwrap();
    assert!(error < know_nothing * 0.9, "held-out error {error} against {know_nothing} for knowing nothing\n{report}");

    // A fit from those weights (`--prior`) starts where they are: on the same data it errs no more.
    let again = dir.join("w2.bin");
    let again_text = again.display().to_string();
    let fit_from = |out: &str, prior: &str| {
        let args = ["train", &data_text, "--out", out, "--prior", prior, "--iterations", "30", "--holdout", "20"];
        Command::new(env!("CARGO_BIN_EXE_magpie"))
            .args(args)
            .args(["--l2", "20", "--threads", "2", "--no-progress"])
            .output()
            .expect("magpie runs")
    };
    let out = fit_from(&again_text, &weights_text);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}{}", String::from_utf8_lossy(&out.stderr));
    let all = report.lines().find(|l| l.trim_start().starts_with("all:")).unwrap_or_else(|| panic!("{report}"));
    let from_prior: f64 = all.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(from_prior <= error * 1.02, "from the prior {from_prior} against {error}\n{report}");
    // A prior that is not a weight file is refused in one line naming it, and nothing is written.
    let refused = dir.join("w3.bin");
    let out = fit_from(&refused.display().to_string(), &data_text);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("--prior") && stderr.trim().lines().count() == 1, "{stderr}");
    assert!(!refused.exists());

    // Multi-ProbCut for the new weights, written into a second file beside them.
    let fitted = dir.join("w-probcut.bin");
    let fitted_text = fitted.display().to_string();
    let report = magpie(&[
        "probcut",
        &data_text,
        "--weights",
        &weights_text,
        "--out",
        &fitted_text,
        "--positions",
        "900",
        "--max-depth",
        "5",
        "--solve-positions",
        "300",
        "--solve-max-empties",
        "13",
        "--threads",
        "2",
        "--no-progress",
    ]);
    let loaded = Weights::read(&fitted).unwrap();
    assert!(!loaded.probcut().is_empty(), "{report}");
    assert!(report.contains("solve fits: sigma by empties"), "{report}");
    assert!(loaded.probcut().iter().any(|f| f.solve), "{report}");
    // From 10 empties (the solver's first ProbCut node) up, carried on past the 13 fitted.
    assert!(loaded.solve_fit(10).is_some() && loaded.solve_fit(30).is_some(), "{report}");
    assert_eq!(loaded.values(), Weights::read(&weights).unwrap().values(), "the weights are kept as they were");

    // The engine plays with them, selectively.
    let mut e = Engine::start(&["--weights", &fitted_text, "--own-book", "false"]);
    e.send("position startpos moves f5 d6 c3 d3 c4");
    e.send("go depth 7");
    let lines = e.until("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth 7 ") && l.contains(" selectivity 5 ")), "{lines:?}");
}

/// `magpie train-network` on a small self-play file: a network file the evaluation reads, a fit
/// resumed from its checkpoint that ends where one run ends, and bad arguments refused.
#[test]
fn a_network_is_fitted_resumed_and_read() {
    use magpie::eval::network::Network;
    let dir = TempDir::new("train-network");
    let data = dir.join("data.bin").display().to_string();
    let args = ["--games", "40", "--depth", "2", "--exact-empties", "10", "--threads", "2", "--no-progress"];
    magpie(&[&["datagen", "--out", &data][..], &args[..]].concat());
    let fit = |out: &str, epochs: &str, checkpoint: Option<&str>| {
        let mut args = vec!["train-network", &data, "--out", out, "--epochs", epochs, "--batch", "512"];
        args.extend(["--threads", "2", "--no-progress"]);
        if let Some(path) = checkpoint {
            args.extend(["--checkpoint", path]);
        }
        magpie(&args)
    };
    let fit_residual = |out: &str| {
        magpie(&[
            "train-network",
            &data,
            "--out",
            out,
            "--epochs",
            "1",
            "--residual",
            "--threads",
            "2",
            "--no-progress",
        ])
    };
    let straight = dir.join("straight.bin").display().to_string();
    let report = fit(&straight, "3", None);
    assert!(report.contains("held out by the pattern weights: "), "{report}");
    assert!(report.contains("epoch   3: ") && report.contains("wrote "), "{report}");
    let net = Network::read(std::path::Path::new(&straight)).expect("the network file reads");
    assert!(net.evaluate(0x0000_0008_1000_0000, 0x0000_0010_0800_0000).is_finite());
    // The search reads it: `accuracy --network` names the evaluation, and its searches differ
    // from the pattern weights' (the same positions, the same depth).
    let suite = dir.join("hard.obf");
    let hard: String = include_str!("data/hard-20.obf").lines().take(8).map(|l| format!("{l}\n")).collect();
    std::fs::write(&suite, hard).unwrap();
    let suite = suite.display().to_string();
    let accuracy = |extra: &[&str]| {
        let args = [&["accuracy", &suite, "--depth", "4", "--threads", "1", "--no-progress"][..], extra].concat();
        magpie(&args)
    };
    let with_network = accuracy(&["--network", &straight]);
    assert!(with_network.contains("evaluation network,"), "{with_network}");
    // Each position's score and move, from the JSON lines.
    let searched = |extra: &[&str]| -> Vec<(String, String)> {
        let out = accuracy(&[extra, &["--json"][..]].concat());
        let lines = out.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap());
        lines.filter(|l| l["type"] == "position").map(|l| (l["score"].to_string(), l["move"].to_string())).collect()
    };
    let (network, patterns) = (searched(&["--network", &straight]), searched(&[]));
    assert_eq!(network.len(), 8, "{network:?}");
    assert_ne!(network, patterns, "the network's searches are the pattern weights'");
    // Multi-ProbCut fitted for the network's searches: the weights with other fits, which play
    // beside it; a correcting network is refused (its weights would change under it).
    let cuts = dir.join("w-cuts.bin").display().to_string();
    let probcut = |network: &str| {
        let args = ["probcut", &data, "--network", network, "--out", &cuts, "--positions", "600", "--max-depth", "5"];
        Command::new(env!("CARGO_BIN_EXE_magpie"))
            .args([&args[..], &["--solve-positions", "0", "--threads", "2", "--no-progress"]].concat())
            .output()
            .unwrap()
    };
    let out = probcut(&straight);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let fits = Weights::read(std::path::Path::new(&cuts)).unwrap();
    assert!(!fits.probcut().is_empty() && fits.probcut() != Weights::embedded().probcut());
    assert_eq!(fits.values(), Weights::embedded().values(), "the same weights, other fits");
    let report = accuracy(&["--weights", &cuts, "--network", &straight]);
    assert!(report.contains("evaluation network,"), "{report}");
    let correction = dir.join("correction.bin").display().to_string();
    fit_residual(&correction);
    let out = probcut(&correction);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--network: a correction of the weights") && err.lines().count() == 1, "{err}");
    // While a correction is in use, other weights are refused and its own stay.
    let mut e = Engine::start(&["--network", &correction, "--own-book", "false", "--protocol", "ugi"]);
    e.send(&format!("setoption name Weights value {cuts}"));
    e.send("isready");
    let lines = e.until("readyok");
    let refusal = lines.iter().filter(|l| l.starts_with("info string error: setoption Weights: ")).collect::<Vec<_>>();
    assert!(refusal.len() == 1 && refusal[0].contains("corrects other pattern weights"), "{lines:?}");
    e.send("setoption name Weights value <embedded>");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(!lines.iter().any(|l| l.contains("error")), "its own weights are taken: {lines:?}");
    // The engine, bench and bestmove read it too.
    let bench = magpie(&["bench", "--depth", "5", "--network", &straight]);
    assert!(bench.contains(" eval network selectivity 5: 16 positions"), "{bench}");
    let best = magpie(&["--network", &straight, "bestmove", "--moves", "f5d6", "--depth", "5", "--no-book"]);
    assert!(best.split_whitespace().next().is_some_and(|m| m.len() == 2), "{best}");
    let mut e = Engine::start(&["--network", &straight, "--own-book", "false", "--protocol", "ugi"]);
    e.send("position startpos moves f5 d6 c3");
    e.send("go depth 5");
    let lines = e.until("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth 5 ")), "{lines:?}");
    // And the Network option: a file that is no network is refused in one line, the one in use
    // stays (the same search, the same nodes), and <none> goes back to the weights alone.
    let nodes = |lines: &[String]| lines.iter().rev().find(|l| l.starts_with("info depth 5 ")).cloned();
    let with_network = nodes(&lines);
    e.send(&format!("setoption name Network value {data}"));
    e.send("isready");
    let lines = e.until("readyok");
    assert!(lines.iter().any(|l| l.starts_with("info string error: setoption Network: ") && l.contains("not a Magpie network file")), "{lines:?}");
    let search = |e: &mut Engine| {
        e.send("uginewgame");
        e.send("position startpos moves f5 d6 c3");
        e.send("go depth 5");
        nodes(&e.until("bestmove")).map(|l| l.split(" nps ").next().unwrap_or("").to_string())
    };
    let strip = |l: Option<String>| l.map(|l| l.split(" nps ").next().unwrap_or("").to_string());
    let with_network = strip(with_network);
    assert_eq!(search(&mut e), with_network, "the network stayed");
    e.send("setoption name Network value <none>");
    assert_ne!(search(&mut e), with_network, "the weights alone search otherwise");
    e.send(&format!("setoption name Network value {straight}"));
    assert_eq!(search(&mut e), with_network, "the network is read again");
    let out = Command::new(env!("CARGO_BIN_EXE_magpie"))
        .args(["bench", "--eval", "heuristic", "--network", &straight])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--network: the heuristic evaluation reads no network"), "{err}");
    let out =
        Command::new(env!("CARGO_BIN_EXE_magpie")).args(["accuracy", &suite, "--network", &data]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: --network: ") && err.contains("not a Magpie network file") && err.lines().count() == 1,
        "{err}"
    );
    // Two epochs, then the same command resumed to three, through the checkpoint.
    let checkpoint = dir.join("fit.ckpt").display().to_string();
    let resumed = dir.join("resumed.bin").display().to_string();
    fit(&resumed, "2", Some(&checkpoint));
    let report = fit(&resumed, "3", Some(&checkpoint));
    assert!(report.contains("resuming from ") && report.contains("after epoch 2"), "{report}");
    assert_eq!(std::fs::read(&resumed).unwrap(), std::fs::read(&straight).unwrap(), "one fit either way");
    // Stage buckets: the network of one extended to two for an epoch, read by the search; a
    // checkpoint of one bucket and a network of two are not made others.
    let bucketed = dir.join("bucketed.bin").display().to_string();
    let args = ["--epochs", "1", "--start", &straight, "--buckets", "2", "--threads", "2", "--no-progress"];
    let report = magpie(&[&["train-network", &data, "--out", &bucketed][..], &args[..]].concat());
    assert!(report.contains(" shared and 2 stage buckets of as many,"), "{report}");
    assert_eq!(Network::read(std::path::Path::new(&bucketed)).unwrap().buckets, 2);
    let bench = magpie(&["bench", "--depth", "5", "--network", &bucketed]);
    assert!(bench.contains(" eval network selectivity 5: 16 positions"), "{bench}");
    let measured = dir.join("measured.bin").display().to_string();
    let refused = |args: &[&str], words: &str| {
        let all = [&["train-network", &data, "--out", &measured, "--no-progress"][..], args].concat();
        let out = Command::new(env!("CARGO_BIN_EXE_magpie")).args(&all).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(err.contains(words) && err.lines().count() == 1, "{all:?}: {err}");
    };
    refused(
        &["--epochs", "4", "--checkpoint", &checkpoint, "--buckets", "3"],
        "--buckets 3: the checkpoint's network has 1",
    );
    refused(&["--epochs", "1", "--start", &bucketed, "--buckets", "3"], "cannot be made one of 3");
    refused(&["--epochs", "1", "--buckets", "0"], "--buckets");
    // `--epochs 0` measures a network on files held out whole, by empties, and writes it as it was.
    let measure = |start: &[&str]| {
        let args = ["--epochs", "0", "--out", &measured, "--threads", "1", "--no-progress"];
        magpie(&[&["train-network", &data, "--held-out", &data][..], start, &args[..]].concat())
    };
    let report = measure(&["--start", &straight]);
    assert!(report.contains("held-out mean squared error by empties") && report.contains("after 0 epochs"), "{report}");
    let bands: Vec<&str> =
        report.lines().filter(|l| l.trim_start().chars().next().is_some_and(|c| c.is_ascii_digit())).collect();
    assert!(!bands.is_empty() && bands.iter().all(|l| l.split_whitespace().count() == 5), "{report}");
    assert_eq!(std::fs::read(&measured).unwrap(), std::fs::read(&straight).unwrap());
    // A network made from the pattern weights scores the held-out records about as they do.
    let report = measure(&["--from-weights"]);
    assert!(report.contains("started from pattern weights ") && report.contains(" lanes hold 99."), "{report}");
    let number_after = |words: &str| -> f64 {
        let rest = &report[report.find(words).unwrap_or_else(|| panic!("{words}: {report}")) + words.len()..];
        rest.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{report}"))
    };
    let (net, weights) = (number_after("held-out error "), number_after("held out by the pattern weights: "));
    assert!((net - weights).abs() < 0.05 * weights, "network {net} against the weights' {weights}: {report}");
    for (args, words) in [
        (vec!["--epochs", "1", "--from-weights", "--start", &straight], "--start"),
        (vec!["--epochs", "1", "--from-weights", "--residual"], "--residual"),
        (vec!["--epochs", "1", "--row-rate", "2"], "--row-rate 2"),
        (vec!["--epochs", "0"], "--epochs 0 measures a network"),
        (vec!["--epochs", "1", "--held-out", &data, "--holdout", "20"], "--holdout"),
        (vec!["--epochs", "1", "--held-out", &resumed], "no record in the --held-out files"),
    ] {
        std::fs::write(&resumed, b"").unwrap();
        let mut all = vec!["train-network", &data, "--out", &measured, "--no-progress"];
        all.extend(args.iter().copied());
        let out = Command::new(env!("CARGO_BIN_EXE_magpie")).args(&all).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(err.contains(words) && err.lines().count() == 1, "{all:?}: {err}");
    }
    // Bad arguments and files, one line each.
    for (bad, words) in [
        (vec!["--learning-rate", "0"], "--learning-rate 0"),
        (vec!["--decay", "1.5"], "--decay 1.5"),
        (vec!["--start", &data], "not a Magpie network file"),
        (vec!["--checkpoint", &data], "not a Magpie network checkpoint"),
    ] {
        let mut args = vec!["train-network", &data, "--out", &resumed, "--epochs", "1", "--no-progress"];
        args.extend(bad.iter().copied());
        let out = Command::new(env!("CARGO_BIN_EXE_magpie")).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(err.contains(words) && err.lines().count() == 1, "{args:?}: {err}");
    }
}
