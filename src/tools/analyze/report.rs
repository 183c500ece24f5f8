//! `magpie analyze`'s table and JSON lines (fields in docs/tools.md).

use super::{Analysis, Class, MoveAnalysis, PlayerSummary, color_name};
use crate::board::Color;
use crate::formats::discs_text;
use crate::formats::json_line;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// A final score for Black in words: `Black won by 8`, `draw`, or `unfinished`.
pub fn result_text(result: Option<i32>) -> String {
    match result {
        None => "unfinished".to_string(),
        Some(0) => "draw".to_string(),
        Some(s) if s > 0 => format!("Black won by {s}"),
        Some(s) => format!("White won by {}", -s),
    }
}

/// Centi-discs as discs with two decimals and no sign: `1.25`.
fn loss_text(loss: i32) -> String {
    format!("{}.{:02}", loss / 100, loss % 100)
}

/// How a move's values were found: `exact` or `d18`.
fn search_text(m: &MoveAnalysis) -> String {
    if m.judgement.exact { "exact".to_string() } else { format!("d{}", m.judgement.depth) }
}

/// The game's lines, a line per move, the totals per player and the time.
pub fn write_table(analysis: &Analysis, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "game: {}", analysis.source)?;
    writeln!(
        out,
        "{} vs {}; opening: {}; result: {}",
        analysis.who(Color::Black),
        analysis.who(Color::White),
        analysis.opening.unwrap_or("(none)"),
        result_text(analysis.result)
    )?;
    writeln!(out, "judged at {}; values in discs for the player to move", analysis.method())?;
    writeln!(
        out,
        "{:>3}  {:<6} {:<5} {:>7}  {:<5} {:>7} {:>6}  {:<10} search",
        "no", "player", "move", "value", "best", "value", "loss", "class"
    )?;
    for m in &analysis.moves {
        let j = &m.judgement;
        let (best, best_value) = if m.loss() == 0 {
            ("=".to_string(), String::new())
        } else {
            (j.best.to_string(), discs_text(j.best_value))
        };
        let class = match m.class() {
            _ if m.given => "given".to_string(),
            Class::Best => String::new(),
            class => class.name().to_string(),
        };
        writeln!(
            out,
            "{:>3}  {:<6} {:<5} {:>7}  {:<5} {:>7} {:>6}  {:<10} {}",
            m.number,
            color_name(m.color),
            m.played.to_string(),
            discs_text(j.played_value),
            best,
            best_value,
            loss_text(m.loss()),
            class,
            search_text(m)
        )?;
    }
    writeln!(
        out,
        "{:<24} {:>5} {:>8} {:>5} {:>5} {:>12} {:>8} {:>8} {:>8}",
        "player", "moves", "avg loss", "best", "good", "inaccuracies", "mistakes", "blunders", "accuracy"
    )?;
    for color in [Color::Black, Color::White] {
        let p = analysis.player(color);
        let accuracy = p.accuracy().map_or_else(|| "-".to_string(), |a| format!("{a:.1}%"));
        writeln!(
            out,
            "{:<24} {:>5} {:>8.2} {:>5} {:>5} {:>12} {:>8} {:>8} {:>8}",
            analysis.who(color),
            p.moves,
            p.average_loss(),
            p.count(Class::Best),
            p.count(Class::Good),
            p.count(Class::Inaccuracy),
            p.count(Class::Mistake),
            p.count(Class::Blunder),
            accuracy
        )?;
    }
    writeln!(
        out,
        "classes by discs lost: good under 2, inaccuracy 2 to 4, mistake 4 to 8, blunder 8 or more; \
         accuracy: the moves that lost under 2 discs"
    )?;
    let given = analysis.moves.iter().filter(|m| m.given).count();
    if given > 0 {
        writeln!(out, "moves 1 to {given}: the opening both players were given (untimed), not counted")?;
    }
    writeln!(out, "time {:.1} s, {} nodes", analysis.time.as_secs_f64(), analysis.nodes())
}

/// The game's JSON line.
#[derive(Serialize)]
struct GameJson<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    source: &'a str,
    black: &'a str,
    white: &'a str,
    opening: Option<&'a str>,
    start: String,
    result: Option<i32>,
    depth: Option<u32>,
    movetime_ms: Option<u64>,
    exact_from: u32,
    selectivity: u8,
}

/// One move's JSON line.
#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "type")]
    kind: &'static str,
    number: usize,
    color: &'static str,
    #[serde(rename = "move")]
    played: String,
    empties: u32,
    value: f64,
    best: String,
    best_value: f64,
    loss: f64,
    class: Class,
    given: bool,
    black_value: f64,
    exact: bool,
    depth: u32,
    nodes: u64,
    time: f64,
}

/// One player's JSON line.
#[derive(Serialize)]
struct PlayerJson<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    color: &'static str,
    name: &'a str,
    moves: usize,
    lost: f64,
    average_loss: f64,
    classes: BTreeMap<&'static str, usize>,
    accuracy: Option<f64>,
}

/// The totals' JSON line.
#[derive(Serialize)]
struct TotalJson {
    #[serde(rename = "type")]
    kind: &'static str,
    moves: usize,
    nodes: u64,
    time: f64,
}

/// Centi-discs as discs.
fn discs(cp: impl Into<f64>) -> f64 {
    cp.into() / 100.0
}

/// The game's line, a line per move, a line per player, then the totals.
pub fn write_json(analysis: &Analysis, out: &mut impl Write) -> io::Result<()> {
    let judge = &analysis.judge;
    json_line(
        out,
        &GameJson {
            kind: "game",
            source: &analysis.source,
            black: &analysis.black,
            white: &analysis.white,
            opening: analysis.opening,
            start: analysis.start.to_string(),
            result: analysis.result,
            depth: judge.movetime.is_none().then_some(judge.depth),
            movetime_ms: judge.movetime.map(|t| t.as_millis() as u64),
            exact_from: judge.exact,
            selectivity: judge.selectivity,
        },
    )?;
    for m in &analysis.moves {
        let j = &m.judgement;
        json_line(
            out,
            &MoveJson {
                kind: "move",
                number: m.number,
                color: if m.color == Color::Black { "black" } else { "white" },
                played: m.played.to_string(),
                empties: m.empties,
                value: discs(j.played_value),
                best: j.best.to_string(),
                best_value: discs(j.best_value),
                loss: discs(m.loss()),
                class: m.class(),
                given: m.given,
                black_value: discs(m.black_value),
                exact: j.exact,
                depth: j.depth,
                nodes: j.nodes,
                time: j.time.as_secs_f64(),
            },
        )?;
    }
    for color in [Color::Black, Color::White] {
        let p: PlayerSummary = analysis.player(color);
        json_line(
            out,
            &PlayerJson {
                kind: "player",
                color: if color == Color::Black { "black" } else { "white" },
                name: analysis.name(color),
                moves: p.moves,
                lost: discs(p.lost as f64),
                average_loss: p.average_loss(),
                classes: Class::ALL.iter().map(|&c| (c.name(), p.count(c))).collect(),
                accuracy: p.accuracy(),
            },
        )?;
    }
    json_line(
        out,
        &TotalJson {
            kind: "total",
            moves: analysis.moves.len(),
            nodes: analysis.nodes(),
            time: analysis.time.as_secs_f64(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_and_losses_read_as_words_and_discs() {
        assert_eq!(result_text(Some(8)), "Black won by 8");
        assert_eq!(result_text(Some(-64)), "White won by 64");
        assert_eq!(result_text(Some(0)), "draw");
        assert_eq!(result_text(None), "unfinished");
        assert_eq!(loss_text(0), "0.00");
        assert_eq!(loss_text(1207), "12.07");
    }
}
