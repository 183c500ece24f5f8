//! The picture of a game's score (`magpie analyze --svg FILE`): the value after each move from
//! Black's side, as NBoard draws it, one point per move (filled for Black's moves, open for
//! White's; hover one for its numbers), the exactly solved part of the game shaded, and every
//! inaccuracy, mistake and blunder the table counts ringed and labelled with its move and loss
//! (where there is room for the label, the worst first). The score axis has four ticks each side
//! of 0, every 2 discs for a game that stays within 8. SVG is text: written here without a
//! library.

use super::{Analysis, Class, MoveAnalysis, report::result_text};
use crate::board::Color;
use crate::formats::discs_text;
use std::fmt::Write as _;
use std::io;
use std::path::Path;

/// The picture's size and margins, in pixels.
const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 456.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 64.0;
const BOTTOM: f64 = 72.0;

/// `text` with XML's special characters escaped.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            // Characters XML 1.0 does not allow (controls other than tab and newlines).
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => escaped.push(' '),
            c => escaped.push(c),
        }
    }
    escaped
}

/// Where the plot puts a move number and a score in discs.
struct Scale {
    /// The last move number on the axis.
    moves: f64,
    /// The largest score on the axis either way, in discs.
    discs: f64,
}

impl Scale {
    fn x(&self, number: f64) -> f64 {
        LEFT + (WIDTH - LEFT - RIGHT) * number / self.moves
    }

    fn y(&self, discs: f64) -> f64 {
        let middle = TOP + (HEIGHT - TOP - BOTTOM) / 2.0;
        middle - (HEIGHT - TOP - BOTTOM) / 2.0 * discs / self.discs
    }
}

/// A label's box, in pixels.
struct Box {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
}

impl Box {
    /// A square of half-side `r` around a point.
    fn around(x: f64, y: f64, r: f64) -> Box {
        Box { left: x - r, right: x + r, top: y - r, bottom: y + r }
    }

    fn overlaps(&self, other: &Box) -> bool {
        self.left < other.right && other.left < self.right && self.top < other.bottom && other.top < self.bottom
    }
}

/// The score axis for scores up to `largest` discs either way: its bound and the step of its
/// ticks, four ticks each side of 0 (every 2 discs for a close game, every 16 for a wipeout).
fn score_axis(largest: f64) -> (f64, f64) {
    const BOUNDS: [f64; 7] = [4.0, 8.0, 16.0, 24.0, 32.0, 48.0, 64.0];
    let bound = BOUNDS.iter().copied().find(|&b| largest <= b).unwrap_or(64.0);
    (bound, bound / 4.0)
}

/// The colour of a marked move's ring and label: blue, orange and red, as analysis boards show
/// inaccuracies, mistakes and blunders (and told apart by colour-blind readers too).
fn ring_colour(class: Class) -> &'static str {
    match class {
        Class::Blunder => "#d62728",
        Class::Mistake => "#ff8c00",
        _ => "#3b8fd0",
    }
}

/// The label of a marked move: `23. c4 -7.3`.
fn label(m: &MoveAnalysis) -> String {
    format!("{}. {} \u{2212}{:.1}", m.number, m.played, f64::from(m.loss()) / 100.0)
}

/// The SVG text of `analysis`'s score graph.
pub fn render(analysis: &Analysis) -> String {
    let moves = &analysis.moves;
    let last = moves.last().map_or(0, |m| m.number);
    let scale_moves = (analysis.start.empty_count() as usize).max(last).max(1) as f64;
    let largest = moves.iter().map(|m| (f64::from(m.black_value) / 100.0).abs()).fold(0.0, f64::max);
    let (discs, step) = score_axis(largest);
    let scale = Scale { moves: scale_moves, discs };
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let title =
        format!("{} vs {}: {}", analysis.who(Color::Black), analysis.who(Color::White), result_text(analysis.result));
    let _ = writeln!(svg, "<title>{}</title>", escape(&title));
    let _ = writeln!(svg, r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#);
    let _ = writeln!(svg, r#"<text x="{LEFT}" y="22" font-size="16" font-weight="bold">{}</text>"#, escape(&title));
    let subtitle = format!(
        "{}opening: {}; Magpie, {}",
        if analysis.source.is_empty() { String::new() } else { format!("{}; ", analysis.source) },
        analysis.opening.unwrap_or("(none)"),
        analysis.method()
    );
    let _ = writeln!(svg, r##"<text x="{LEFT}" y="42" fill="#444">{}</text>"##, escape(&subtitle));
    let (plot_top, plot_bottom) = (scale.y(discs), scale.y(-discs));
    // The opening the players were given.
    if let Some(last) = moves.iter().take_while(|m| m.given).last() {
        let x = scale.x(0.0);
        let _ = writeln!(
            svg,
            r##"<rect class="given" x="{x:.1}" y="{plot_top:.1}" width="{:.1}" height="{:.1}" fill="#f3f3f3"/>"##,
            scale.x(last.number as f64 + 0.5) - x,
            plot_bottom - plot_top
        );
        let _ = writeln!(svg, r##"<text x="{:.1}" y="{:.1}" fill="#888">given</text>"##, x + 4.0, plot_top + 14.0);
    }
    // The part of the game solved exactly.
    if let Some(first) = moves.iter().find(|m| m.judgement.exact) {
        let x = scale.x(first.number as f64 - 0.5);
        let _ = writeln!(
            svg,
            r##"<rect class="exact" x="{x:.1}" y="{plot_top:.1}" width="{:.1}" height="{:.1}" fill="#eef3fb"/>"##,
            scale.x(scale_moves) - x,
            plot_bottom - plot_top
        );
        let _ = writeln!(svg, r##"<text x="{:.1}" y="{:.1}" fill="#6a7fa8">exact</text>"##, x + 4.0, plot_top + 14.0);
    }
    // The grid: every `step` discs and every 10 moves.
    let mut d = -discs;
    while d <= discs + 1e-9 {
        let y = scale.y(d);
        let (stroke, width) = if d == 0.0 { ("#888", 1.5) } else { ("#ddd", 1.0) };
        let _ = writeln!(
            svg,
            r#"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{stroke}" stroke-width="{width}"/>"#,
            scale.x(scale_moves)
        );
        let text = if d == 0.0 { "0".to_string() } else { format!("{d:+}") };
        let _ = writeln!(
            svg,
            r#"<text class="tick" x="{:.1}" y="{:.1}" text-anchor="end">{text}</text>"#,
            LEFT - 6.0,
            y + 4.0
        );
        d += step;
    }
    for n in (0..=scale_moves as usize).step_by(10) {
        let x = scale.x(n as f64);
        let _ = writeln!(
            svg,
            r##"<line x1="{x:.1}" y1="{plot_top:.1}" x2="{x:.1}" y2="{plot_bottom:.1}" stroke="#eee"/>"##
        );
        let _ = writeln!(svg, r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{n}</text>"#, plot_bottom + 16.0);
    }
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">move</text>"#,
        (LEFT + scale.x(scale_moves)) / 2.0,
        plot_bottom + 32.0
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle">Black's score (discs)</text>"#,
        (plot_top + plot_bottom) / 2.0
    );
    // The score line, then a point per move.
    let points: Vec<String> = moves
        .iter()
        .map(|m| format!("{:.1},{:.1}", scale.x(m.number as f64), scale.y(f64::from(m.black_value) / 100.0)))
        .collect();
    if !points.is_empty() {
        let _ = writeln!(
            svg,
            r##"<polyline points="{}" fill="none" stroke="#333" stroke-width="1.5"/>"##,
            points.join(" ")
        );
    }
    for m in moves {
        let (x, y) = (scale.x(m.number as f64), scale.y(f64::from(m.black_value) / 100.0));
        let (fill, color) = if m.color == Color::Black { ("#000", "Black") } else { ("#fff", "White") };
        let j = &m.judgement;
        let tip = format!(
            "{}. {color} {}: {} for {color} ({}), best {} {}, loss {:.2}, {}",
            m.number,
            m.played,
            discs_text(j.played_value),
            if j.exact { "exact".to_string() } else { format!("depth {}", j.depth) },
            j.best,
            discs_text(j.best_value),
            f64::from(m.loss()) / 100.0,
            m.class().name()
        );
        let _ = writeln!(
            svg,
            r##"<circle class="move" cx="{x:.1}" cy="{y:.1}" r="3.5" fill="{fill}" stroke="#000"><title>{}</title></circle>"##,
            escape(&tip)
        );
    }
    // The mistakes: ringed and labelled, each label where it overlaps no earlier one.
    // What a label must not cover: the points and the line between them.
    let xy: Vec<(f64, f64)> =
        moves.iter().map(|m| (scale.x(m.number as f64), scale.y(f64::from(m.black_value) / 100.0))).collect();
    let mut placed: Vec<Box> = xy.iter().map(|&(x, y)| Box::around(x, y, 8.0)).collect();
    for pair in xy.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        for k in 1..8 {
            let t = f64::from(k) / 8.0;
            placed.push(Box::around(x0 + t * (x1 - x0), y0 + t * (y1 - y0), 1.5));
        }
    }
    // The worst first, so that they have the first choice of place for their labels.
    let mut marked: Vec<&MoveAnalysis> = moves.iter().filter(|m| m.is_marked()).collect();
    marked.sort_by_key(|m| std::cmp::Reverse(m.class()));
    for m in marked {
        let (x, y) = (scale.x(m.number as f64), scale.y(f64::from(m.black_value) / 100.0));
        let ring = ring_colour(m.class());
        let (r, width) = if m.class() == Class::Inaccuracy { (6.5, 1.5) } else { (8.0, 2.0) };
        let _ = writeln!(
            svg,
            r#"<circle class="{}" cx="{x:.1}" cy="{y:.1}" r="{r}" fill="none" stroke="{ring}" stroke-width="{width}"/>"#,
            m.class().name()
        );
        let text = label(m);
        let width = 7.0 * text.chars().count() as f64;
        // Baselines tried in turn: just below or above the point (the roomier side first), then
        // further out.
        let below_first = y < (plot_top + plot_bottom) / 2.0;
        let spot = [16.0, 24.0, 32.0, 40.0, 48.0, 56.0, 64.0, 72.0]
            .iter()
            .flat_map(|&d| if below_first { [y + d + 4.0, y - d + 8.0] } else { [y - d + 8.0, y + d + 4.0] })
            .map(|baseline| Box {
                left: x - width / 2.0,
                right: x + width / 2.0,
                top: baseline - 12.0,
                bottom: baseline + 2.0,
            })
            .find(|b| b.top >= plot_top && b.bottom <= plot_bottom && !placed.iter().any(|p| p.overlaps(b)));
        let Some(spot) = spot else { continue };
        let _ = writeln!(
            svg,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="{ring}" font-weight="{}">{}</text>"#,
            spot.bottom - 2.0,
            if m.class() == Class::Inaccuracy { "normal" } else { "bold" },
            escape(&text)
        );
        placed.push(spot);
    }
    // The legend.
    let ly = HEIGHT - 8.0;
    let mut lx = WIDTH - RIGHT - 650.0;
    let mut legend = String::from(r#"<g class="legend">"#);
    for (fill, text) in [("#000", "Black's move"), ("#fff", "White's move")] {
        let _ = write!(
            legend,
            r##"<circle cx="{lx:.1}" cy="{:.1}" r="3.5" fill="{fill}" stroke="#000"/><text x="{:.1}" y="{ly}">{text}</text>"##,
            ly - 4.0,
            lx + 8.0
        );
        lx += 100.0;
    }
    for (class, text, room) in [
        (Class::Inaccuracy, "inaccuracy (2 to 4 discs)", 170.0),
        (Class::Mistake, "mistake (4 to 8)", 125.0),
        (Class::Blunder, "blunder (8 or more)", 0.0),
    ] {
        let _ = write!(
            legend,
            r#"<circle cx="{:.1}" cy="{:.1}" r="7" fill="none" stroke="{}" stroke-width="2"/><text x="{:.1}" y="{ly}">{text}</text>"#,
            lx + 5.0,
            ly - 4.0,
            ring_colour(class),
            lx + 16.0
        );
        lx += room;
    }
    legend.push_str("</g>");
    let _ = writeln!(svg, "{legend}");
    svg.push_str("</svg>\n");
    svg
}

/// Writes the picture of `analysis` to `path`.
pub fn write(path: &Path, analysis: &Analysis) -> io::Result<()> {
    std::fs::write(path, render(analysis)).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_score_axis_has_four_ticks_each_side() {
        assert_eq!(score_axis(0.0), (4.0, 1.0));
        assert_eq!(score_axis(3.5), (4.0, 1.0));
        assert_eq!(score_axis(6.0), (8.0, 2.0));
        assert_eq!(score_axis(8.0), (8.0, 2.0));
        assert_eq!(score_axis(20.0), (24.0, 6.0));
        assert_eq!(score_axis(64.0), (64.0, 16.0));
    }

    #[test]
    fn text_is_escaped_for_xml() {
        assert_eq!(escape(r#"Tom & "Jerry" <x> 'y'"#), "Tom &amp; &quot;Jerry&quot; &lt;x&gt; &apos;y&apos;");
        assert_eq!(escape("a\u{1}b"), "a b");
    }
}
