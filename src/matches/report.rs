//! The match report: per pairing the games, the score, the mean disc difference, the Elo with its
//! interval, the forfeits with their reasons and the SPRT; then per engine its time losses and how
//! close its moves came to their time. Counts read as English: `1 win`, `2 wins`. With `--json`,
//! the same as one JSON object a line: each pairing, then each engine.

use super::engine::secs;
use super::spec::TimeControl;
use super::stats::SprtState;
use super::{EngineTime, MatchConfig, PairingResult, Standings};
use crate::formats::json_line;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// `1 game`, `2 games`: a count with its noun.
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// How many distinct forfeit reasons the report lists per engine and pairing.
const REASONS_SHOWN: usize = 3;

/// The time control of a pairing: one when both engines share it, else each engine's.
fn pairing_tc(config: &MatchConfig, a: usize, b: usize) -> String {
    let (ta, tb) = (config.tc_of(a), config.tc_of(b));
    if ta == tb { ta.to_string() } else { format!("{} {ta}, {} {tb}", config.engines[a].name, config.engines[b].name) }
}

pub(super) fn report(config: &MatchConfig, standings: &Standings, out: &mut impl Write) -> io::Result<()> {
    if config.json {
        return json_report(config, standings, out);
    }
    for (&(a, b), result) in standings.pairings.iter().zip(&standings.results) {
        let t = &result.tally;
        let (na, nb) = (&config.engines[a].name, &config.engines[b].name);
        writeln!(out, "{na} vs {nb}: {}, {}", count(t.games(), "game", "games"), pairing_tc(config, a, b))?;
        let score = t.score().map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s));
        writeln!(
            out,
            "  {na}: {}, {}, {}, score {score}",
            count(t.wins, "win", "wins"),
            count(t.draws, "draw", "draws"),
            count(t.losses, "loss", "losses")
        )?;
        if let Some(mean) = t.mean_discs() {
            let played = count(t.disc_games, "game", "games");
            writeln!(out, "  mean disc difference {mean:+.2} ({played} played to the end)")?;
        }
        let pairs = count(t.pairs.iter().sum::<u32>(), "game pair", "game pairs");
        match t.elo() {
            // Adding 0.0 turns -0.0 into 0.0, which prints as +0.0.
            Some(e) if e.margin.is_finite() => {
                writeln!(out, "  Elo {:+.1} ± {:.1} (95%, from {pairs})", e.elo + 0.0, e.margin)?
            }
            Some(e) if !e.elo.is_finite() => {
                let all = if e.elo > 0.0 { "won" } else { "lost" };
                writeln!(out, "  Elo {:+} (every game {all}: no finite estimate, from {pairs})", e.elo)?
            }
            Some(e) if e.flat => writeln!(
                out,
                "  Elo {:+.1} (every game pair scored the same: no interval yet, from {pairs})",
                e.elo + 0.0
            )?,
            Some(e) if e.low.is_finite() => {
                writeln!(out, "  Elo {:+.1} (95%: at least {:+.1}, from {pairs})", e.elo + 0.0, e.low + 0.0)?
            }
            Some(e) => writeln!(out, "  Elo {:+.1} (95%: at most {:+.1}, from {pairs})", e.elo + 0.0, e.high + 0.0)?,
            None => writeln!(out, "  Elo: no complete game pair yet")?,
        }
        for (side, name) in [(0, na), (1, nb)] {
            let forfeits = &result.forfeits[side];
            if forfeits.is_empty() {
                continue;
            }
            let list: Vec<String> = forfeits.iter().map(|(k, n)| format!("{k} {n}")).collect();
            writeln!(out, "  forfeits by {name}: {}", list.join(", "))?;
            let reasons = &result.reasons[side];
            for (reason, n) in reasons.iter().take(REASONS_SHOWN) {
                writeln!(out, "    {reason} ({})", count(*n, "game", "games"))?;
            }
            if reasons.len() > REASONS_SHOWN {
                let more = count((reasons.len() - REASONS_SHOWN) as u64, "other reason", "other reasons");
                let whence = if config.output.is_some() { " (see the RS tags of the results file)" } else { "" };
                writeln!(out, "    and {more}{whence}")?;
            }
        }
        if let Some(sprt) = &config.sprt {
            let llr = t.llr(sprt.elo0, sprt.elo1);
            let (lower, upper) = sprt.bounds();
            let verdict = match sprt.state(t) {
                SprtState::AcceptH1 => "H1 accepted",
                SprtState::AcceptH0 => "H0 accepted",
                SprtState::Continue => "undecided",
            };
            writeln!(
                out,
                "  SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.2} (bounds {lower:.2}, {upper:.2}), {verdict}",
                sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
            )?;
        }
    }
    writeln!(
        out,
        "time per engine (a move is lost past its time + margin {} + latency allowance):",
        secs(config.margin)
    )?;
    for (i, engine) in standings.engines.iter().enumerate() {
        writeln!(out, "  {}: {}", config.engines[i].name, engine_time(engine, config.tc_of(i)))?;
    }
    Ok(())
}

/// One engine's line of the time section: `1 time loss in 20 games; 537 moves, longest 0.061 s,
/// 92 over their time by up to 0.011 s; latency allowance up to 0.002 s`.
fn engine_time(engine: &EngineTime, tc: TimeControl) -> String {
    let losses = count(engine.time_losses, "time loss", "time losses");
    let t = &engine.timing;
    let mut line = format!("{losses} in {}", count(engine.games, "game", "games"));
    if t.moves > 0 {
        line.push_str(&format!("; {}", count(t.moves, "move", "moves")));
        if let Some(per_game) = engine.per_game() {
            line.push_str(&format!(", {} a game", secs(per_game)));
        }
        line.push_str(&format!(", longest {}", secs(t.longest)));
        if !matches!(tc, TimeControl::Depth(_)) {
            if t.over == 0 {
                line.push_str(", none over its time");
            } else {
                line.push_str(&format!(
                    ", {} over its time by up to {}",
                    count(t.over, "move", "moves"),
                    secs(t.max_over)
                ));
            }
        }
        line.push_str(&format!("; latency allowance up to {}", secs(t.max_latency)));
    }
    line
}

/// A pairing's JSON line.
#[derive(Serialize)]
struct PairingJson<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    engines: [&'a str; 2],
    tc: String,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    score: Option<f64>,
    mean_discs: Option<f64>,
    disc_games: u32,
    pairs: u32,
    elo: Option<f64>,
    elo_low: Option<f64>,
    elo_high: Option<f64>,
    forfeits: BTreeMap<&'a str, &'a BTreeMap<String, u32>>,
    reasons: BTreeMap<&'a str, &'a BTreeMap<String, u32>>,
    sprt: Option<SprtJson>,
}

/// The SPRT of a pairing.
#[derive(Serialize)]
struct SprtJson {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    llr: f64,
    lower: f64,
    upper: f64,
    verdict: &'static str,
}

/// An engine's JSON line.
#[derive(Serialize)]
struct EngineJson<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    name: &'a str,
    games: u32,
    time_losses: u32,
    moves: u32,
    time_per_game: Option<f64>,
    longest: f64,
    over: u32,
    max_over: f64,
    max_latency: f64,
}

/// A finite number, or `None` (JSON has no infinities).
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x + 0.0)
}

fn pairing_json<'a>(config: &'a MatchConfig, (a, b): (usize, usize), result: &'a PairingResult) -> PairingJson<'a> {
    let t = &result.tally;
    let names = [config.engines[a].name.as_str(), config.engines[b].name.as_str()];
    let elo = t.elo();
    let sprt = config.sprt.as_ref().map(|sprt| {
        let (lower, upper) = sprt.bounds();
        SprtJson {
            elo0: sprt.elo0,
            elo1: sprt.elo1,
            alpha: sprt.alpha,
            beta: sprt.beta,
            llr: t.llr(sprt.elo0, sprt.elo1),
            lower,
            upper,
            verdict: match sprt.state(t) {
                SprtState::AcceptH1 => "H1",
                SprtState::AcceptH0 => "H0",
                SprtState::Continue => "undecided",
            },
        }
    });
    PairingJson {
        kind: "pairing",
        engines: names,
        tc: pairing_tc(config, a, b),
        games: t.games(),
        wins: t.wins,
        draws: t.draws,
        losses: t.losses,
        score: t.score(),
        mean_discs: t.mean_discs(),
        disc_games: t.disc_games,
        pairs: t.pairs.iter().sum(),
        elo: elo.as_ref().and_then(|e| finite(e.elo)),
        elo_low: elo.as_ref().filter(|e| !e.flat).and_then(|e| finite(e.low)),
        elo_high: elo.as_ref().filter(|e| !e.flat).and_then(|e| finite(e.high)),
        forfeits: names.into_iter().zip(&result.forfeits).filter(|(_, f)| !f.is_empty()).collect(),
        reasons: names.into_iter().zip(&result.reasons).filter(|(_, r)| !r.is_empty()).collect(),
        sprt,
    }
}

fn json_report(config: &MatchConfig, standings: &Standings, out: &mut impl Write) -> io::Result<()> {
    for (&pairing, result) in standings.pairings.iter().zip(&standings.results) {
        json_line(out, &pairing_json(config, pairing, result))?;
    }
    for (spec, engine) in config.engines.iter().zip(&standings.engines) {
        let t = &engine.timing;
        let line = EngineJson {
            kind: "engine",
            name: &spec.name,
            games: engine.games,
            time_losses: engine.time_losses,
            moves: t.moves,
            time_per_game: engine.per_game().map(|d| d.as_secs_f64()),
            longest: t.longest.as_secs_f64(),
            over: t.over,
            max_over: t.max_over.as_secs_f64(),
            max_latency: t.max_latency.as_secs_f64(),
        };
        json_line(out, &line)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::referee::{Ending, Forfeit, Timing};
    use super::super::tests::config;
    use super::super::{Mode, Scheduled};
    use super::*;
    use crate::board::Color;
    use std::time::Duration;

    #[test]
    fn the_report_counts_in_the_singular_and_plural() {
        let mut config = config(2, Mode::Gauntlet, 4);
        config.engines[1].tc = Some(TimeControl::MoveTime(Duration::from_millis(40)));
        let mut st = Standings::new(vec![(0, 1)], 2);
        let game = |number, black, white, opening| Scheduled { number, pairing: 0, black, white, opening };
        st.add(&game(0, 0, 1, 0), 0, &Ending::Finished(10));
        st.add(&game(1, 1, 0, 0), 0, &Ending::Finished(0));
        st.add(&game(2, 0, 1, 1), 1, &Ending::Forfeit { loser: Color::Black, reason: Forfeit::Crash("exited".into()) });
        let timing = Timing {
            moves: 1,
            over: 1,
            max_over: Duration::from_millis(3),
            total: Duration::from_millis(250),
            ..Timing::default()
        };
        st.add_timing(&game(0, 0, 1, 0), &[timing, Timing::default()]);
        let mut out = Vec::new();
        report(&config, &st, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        for expected in [
            "e0 vs e1: 3 games, e0 depth 1, e1 40 ms per move\n",
            "  e0: 1 win, 1 draw, 1 loss, score 50.0%\n",
            "(2 games played to the end)",
            "from 1 game pair)",
            "  forfeits by e0: crash 1\n    crashed: exited (1 game)\n",
            "  e0: 0 time losses in 3 games; 1 move, 0.250 s a game, longest 0.000 s; latency",
            "  e1: 0 time losses in 3 games\n",
        ] {
            assert!(text.contains(expected), "{expected:?} in:\n{text}");
        }
        let mut st = Standings::new(vec![(0, 1)], 2);
        st.add(&game(0, 0, 1, 0), 0, &Ending::Forfeit { loser: Color::White, reason: Forfeit::Time("t".into()) });
        let mut out = Vec::new();
        report(&config, &st, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("e0 vs e1: 1 game,") && text.contains("e1: 1 time loss in 1 game\n"), "{text}");
    }

    #[test]
    fn the_json_report_is_one_object_a_line() {
        let mut config = config(2, Mode::Gauntlet, 4);
        config.json = true;
        let mut st = Standings::new(vec![(0, 1)], 2);
        let game = |number, black, white, opening| Scheduled { number, pairing: 0, black, white, opening };
        st.add(&game(0, 0, 1, 0), 0, &Ending::Finished(10));
        st.add(&game(1, 1, 0, 0), 0, &Ending::Finished(-4));
        st.add(&game(2, 0, 1, 1), 1, &Ending::Forfeit { loser: Color::Black, reason: Forfeit::Crash("exited".into()) });
        let timing = Timing { moves: 30, total: Duration::from_millis(1500), ..Timing::default() };
        st.add_timing(&game(0, 0, 1, 0), &[timing, timing]);
        let mut out = Vec::new();
        report(&config, &st, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 3, "{text}");
        let pairing = &lines[0];
        assert_eq!(pairing["type"], "pairing");
        assert_eq!(pairing["engines"], serde_json::json!(["e0", "e1"]));
        assert_eq!(
            (pairing["wins"].as_u64(), pairing["draws"].as_u64(), pairing["losses"].as_u64()),
            (Some(2), Some(0), Some(1))
        );
        assert_eq!(pairing["score"].as_f64(), Some(2.0 / 3.0));
        assert_eq!(pairing["mean_discs"].as_f64(), Some(7.0));
        assert_eq!(pairing["forfeits"]["e0"]["crash"], 1);
        assert_eq!(lines[1]["type"], "engine");
        assert_eq!(lines[1]["name"], "e0");
        assert_eq!(lines[1]["time_per_game"].as_f64(), Some(1.5));
        assert_eq!(lines[2]["name"], "e1");
    }
}
