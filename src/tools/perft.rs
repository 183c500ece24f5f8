//! The `perft` command: count the leaves of the game tree, time it, and optionally split the count
//! by root move or measure what board-size support costs the 8x8 board.

use crate::board::perft::perft_masked;
use crate::board::{Convention, Position, perft, perft_divide};
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// What to count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftRequest {
    /// The root position.
    pub position: Position,
    /// Plies to count.
    pub depth: u32,
    /// How passes and early game ends count.
    pub convention: Convention,
    /// Print the count under each root move.
    pub divide: bool,
    /// Also time the masked code path on the same position and print the ratio.
    pub mask_overhead: bool,
}

/// Runs the request and writes the report to `out`.
pub fn run(request: &PerftRequest, out: &mut impl Write) -> io::Result<()> {
    let PerftRequest { position, depth, convention, .. } = *request;
    writeln!(out, "perft {depth} from {} ({}, {convention} convention)", position, position.size())?;
    let started = Instant::now();
    let leaves = if request.divide {
        let parts = perft_divide(&position, depth, convention);
        for (mv, n) in &parts {
            writeln!(out, "{mv}: {n}")?;
        }
        if parts.is_empty() { perft(&position, depth, convention) } else { parts.iter().map(|p| p.1).sum() }
    } else {
        perft(&position, depth, convention)
    };
    let elapsed = started.elapsed();
    writeln!(out, "leaves: {leaves}")?;
    writeln!(out, "time: {:.3} s", elapsed.as_secs_f64())?;
    writeln!(out, "leaves/s: {}", per_second(leaves, elapsed))?;
    if request.mask_overhead {
        mask_overhead(request, out)?;
    }
    Ok(())
}

fn per_second(leaves: u64, elapsed: Duration) -> u64 {
    (leaves as f64 / elapsed.as_secs_f64().max(1e-9)) as u64
}

/// Times the direct path and the masked path alternately, three rounds each, and reports the best
/// time of each: alternating spreads the machine's noise over both.
fn mask_overhead(request: &PerftRequest, out: &mut impl Write) -> io::Result<()> {
    let PerftRequest { position, depth, convention, .. } = *request;
    let time = |f: &dyn Fn() -> u64| {
        let started = Instant::now();
        let n = f();
        (n, started.elapsed())
    };
    let (mut best_direct, mut best_masked) = (Duration::MAX, Duration::MAX);
    for _ in 0..3 {
        let (a, direct) = time(&|| perft(&position, depth, convention));
        let (b, masked) = time(&|| perft_masked(&position, depth, convention));
        if a != b {
            writeln!(out, "error: the masked path counted {b} leaves, the direct path {a}")?;
        }
        best_direct = best_direct.min(direct);
        best_masked = best_masked.min(masked);
    }
    writeln!(
        out,
        "mask overhead: direct {:.3} s, masked {:.3} s, masked/direct {:.3}",
        best_direct.as_secs_f64(),
        best_masked.as_secs_f64(),
        best_masked.as_secs_f64() / best_direct.as_secs_f64().max(1e-9)
    )
}
