//! `magpie fit-eval`: fits the weights of Magpie's hand-made evaluation to tournament games.
//!
//! Every position of the WTHOR games is labelled with the game's perfect-play result (the
//! database's theoretical score) for the side to move. The evaluation is linear in its features,
//! each weight interpolated between its values at the two stages around the position's phase, so
//! the weights are the least-squares solution of one linear system. One game in ten is kept out of
//! the fit to measure the error of the fitted weights and of the current ones.
//!
//! The games are read first, by [`read_wthor`], whose errors name the file at fault: the command
//! line reports them as bad arguments before any work starts.

use crate::board::{Color, Position};
use crate::eval::heuristic::{FEATURE_NAMES, STAGES, WEIGHTS, features, phase, weights_at};
use crate::formats::wthor::{ParseWthorError, WthorGame, parse_wtb, wtb_files};
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

const FEATURES: usize = FEATURE_NAMES.len();

/// Weight of the smoothness penalty, per position fitted.
const SMOOTHNESS: f64 = 1e-3;
const N: usize = STAGES * FEATURES;

/// The regression row of a position: each feature times its share in the two stages around the
/// position's phase, exactly as [`weights_at`] interpolates.
fn row(pos: &Position) -> [f64; N] {
    let span = 64 / (STAGES as i32 - 1);
    let phase = phase(pos);
    let stage = ((phase / span) as usize).min(STAGES - 2);
    let into = f64::from(phase - stage as i32 * span) / f64::from(span);
    let mut x = [0.0; N];
    for (i, &v) in features(pos).iter().enumerate() {
        x[stage * FEATURES + i] = f64::from(v) * (1.0 - into);
        x[(stage + 1) * FEATURES + i] = f64::from(v) * into;
    }
    x
}

/// Sums for least squares and for measuring errors.
struct Fit {
    xtx: [[f64; N]; N],
    xty: [f64; N],
    samples: u64,
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` if singular.
fn solve(mut a: [[f64; N]; N], mut b: [f64; N]) -> Option<[f64; N]> {
    for col in 0..N {
        let pivot = (col..N).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        for r in col + 1..N {
            let k = a[r][col] / pivot_row[col];
            for (x, p) in a[r][col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= k * p;
            }
            b[r] -= k * b[col];
        }
    }
    let mut x = [0.0; N];
    for r in (0..N).rev() {
        let sum: f64 = (r + 1..N).map(|c| a[r][c] * x[c]).sum();
        x[r] = (b[r] - sum) / a[r][r];
    }
    Some(x)
}

/// Why the WTHOR games under a path could not be read. Each message starts with the path of the
/// file or directory at fault.
#[derive(Debug)]
pub enum ReadWthorError {
    /// The path, or a file under it, cannot be read.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// A file is not a WTHOR database.
    Broken {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: ParseWthorError,
    },
    /// The path holds no game: no `.wtb` file, or only empty ones.
    NoGames {
        /// The path given.
        path: PathBuf,
    },
}

impl fmt::Display for ReadWthorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadWthorError::Io { path, error } => write!(f, "{}: {}", path.display(), crate::quote::io_text(error)),
            ReadWthorError::Broken { path, error } => write!(f, "{}: not a WTHOR file: {error}", path.display()),
            ReadWthorError::NoGames { path } => {
                write!(f, "{}: no WTHOR game there (expected WTH_*.wtb files)", path.display())
            }
        }
    }
}

impl std::error::Error for ReadWthorError {}

/// Reads every game of a WTHOR directory (its `.wtb` files, in name order) or of one `.wtb` file.
pub fn read_wthor(path: &Path) -> Result<Vec<WthorGame>, ReadWthorError> {
    let io_error = |path: &Path, error| ReadWthorError::Io { path: path.to_path_buf(), error };
    let mut games = Vec::new();
    for file in wtb_files(path).map_err(|e| io_error(path, e))? {
        let bytes = std::fs::read(&file).map_err(|e| io_error(&file, e))?;
        let (_, list) = parse_wtb(&bytes).map_err(|error| ReadWthorError::Broken { path: file.clone(), error })?;
        games.extend(list);
    }
    if games.is_empty() {
        return Err(ReadWthorError::NoGames { path: path.to_path_buf() });
    }
    Ok(games)
}

/// Calls `visit(position, label in centi-discs for the side to move, held out)` for every
/// position of `games` where the side to move can play; returns the games replayed and those
/// skipped as illegal.
fn for_each_position(games: &[WthorGame], mut visit: impl FnMut(&Position, f64, bool)) -> (usize, usize) {
    let (mut replayed_games, mut skipped) = (0, 0);
    for game in games {
        let Ok(replayed) = game.replay() else {
            skipped += 1;
            continue;
        };
        let held_out = replayed_games % 10 == 9;
        replayed_games += 1;
        let result = f64::from(game.theoretical_score_for_black() * 100);
        for pos in replayed.positions() {
            if pos.legal_moves().is_empty() {
                continue;
            }
            let label = if pos.side_to_move() == Color::Black { result } else { -result };
            visit(pos, label, held_out);
        }
    }
    (replayed_games, skipped)
}

/// Fits the weights to `games` (see [`read_wthor`]) and writes the comparison and the new table.
pub fn run(games: &[WthorGame], out: &mut impl Write) -> io::Result<()> {
    let mut fit = Fit { xtx: [[0.0; N]; N], xty: [0.0; N], samples: 0 };
    let (replayed, skipped) = for_each_position(games, |pos, y, held_out| {
        if held_out {
            return;
        }
        let x = row(pos);
        for i in 0..N {
            for j in 0..N {
                fit.xtx[i][j] += x[i] * x[j];
            }
            fit.xty[i] += x[i] * y;
        }
        fit.samples += 1;
    });
    if fit.samples == 0 {
        return Err(io::Error::other("no game replays legally: nothing to fit"));
    }
    // Smoothness: a penalty on the change of each weight from one stage to the next. It costs
    // nothing where the data pins a weight down, and carries the values of the middle game to the
    // early stages where corners and stable discs are too rare to be fitted on their own.
    let lambda = SMOOTHNESS * fit.samples as f64;
    for stage in 0..STAGES - 1 {
        for i in 0..FEATURES {
            let (a, b) = (stage * FEATURES + i, (stage + 1) * FEATURES + i);
            fit.xtx[a][a] += lambda;
            fit.xtx[b][b] += lambda;
            fit.xtx[a][b] -= lambda;
            fit.xtx[b][a] -= lambda;
        }
    }
    // And a touch of ridge, so that a feature that never varies in a small sample stays finite.
    for (i, row) in fit.xtx.iter_mut().enumerate() {
        row[i] += 1e-6 * fit.samples as f64;
    }
    let weights = solve(fit.xtx, fit.xty).ok_or_else(|| io::Error::other("the fit is singular"))?;
    let mut fitted = [[0i32; FEATURES]; STAGES];
    for (k, stage) in fitted.iter_mut().enumerate() {
        for (i, w) in stage.iter_mut().enumerate() {
            *w = weights[k * FEATURES + i].round() as i32;
        }
    }

    // Errors on the held-out games, in discs.
    let predict = |table: &[[i32; FEATURES]; STAGES], pos: &Position| -> f64 {
        let w = weights_at(table, phase(pos));
        let total: i32 = w.iter().zip(features(pos)).map(|(w, v)| w * v).sum();
        f64::from(total.clamp(-6400, 6400))
    };
    let (mut now, mut new, mut count) = (0.0, 0.0, 0u64);
    for_each_position(games, |pos, y, held_out| {
        if held_out {
            now += (predict(&WEIGHTS, pos) - y).powi(2);
            new += (predict(&fitted, pos) - y).powi(2);
            count += 1;
        }
    });
    let rmse = |sum: f64| (sum / count.max(1) as f64).sqrt() / 100.0;
    writeln!(
        out,
        "{replayed} games ({skipped} skipped as illegal), {} positions fitted, {count} held out",
        fit.samples
    )?;
    writeln!(
        out,
        "held-out error (discs, root mean square): current weights {:.2}, fitted {:.2}",
        rmse(now),
        rmse(new)
    )?;
    writeln!(out, "fitted weights, centi-discs per unit, one row per stage ({}):", FEATURE_NAMES.join(", "))?;
    writeln!(out, "pub const WEIGHTS: [[i32; 8]; STAGES] = [")?;
    for stage in &fitted {
        let row: Vec<String> = stage.iter().map(i32::to_string).collect();
        writeln!(out, "    [{}],", row.join(", "))?;
    }
    writeln!(out, "];")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_small_system() {
        let mut a = [[0.0; N]; N];
        let mut b = [0.0; N];
        for i in 0..N {
            a[i][i] = 2.0;
            if i + 1 < N {
                a[i][i + 1] = 1.0;
            }
            b[i] = 3.0;
        }
        b[N - 1] = 2.0;
        // x = 1 everywhere solves it.
        let x = solve(a, b).unwrap();
        assert!(x.iter().all(|v| (v - 1.0).abs() < 1e-9), "{x:?}");
        assert!(solve([[0.0; N]; N], b).is_none());
    }
}
