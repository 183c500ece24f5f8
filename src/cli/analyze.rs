//! `magpie analyze`'s options and the reading of the game.

use super::numbers::{count, parse_search_depth};
use super::shared::{cores, hash_parser, output_file, read_input, selectivity_parser, start_position, threads_parser};
use super::{CliError, EngineArgs, Request};
use crate::board::{Color, Move};
use crate::engine::settings::{DEFAULT_HASH_MIB, MAX_THREADS};
use crate::eval::{EvalKind, Evaluator};
use crate::formats::ggf::{GgfGame, parse_ggf_games};
use crate::formats::parse_moves;
use crate::formats::wthor::{parse_player_names, parse_wtb};
use crate::tools::analyze::{self, AnalyzeRequest, Judge};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Judge every move of one game: the best move and its value, the loss of the move played and
/// its class, a summary per player; a picture of the score with --svg.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// A GGF file (one game a line) or a WTHOR file (.wtb); or give the game with --moves.
    file: Option<PathBuf>,
    /// Which game of the file, counting from 1 [default: 1].
    #[arg(long, value_name = "N", value_parser = count::<u64>(1..))]
    game: Option<u64>,
    /// The game as a move list, e.g. f5d6c3d3c4 or "f5 d6 c3" (passes may be left out).
    #[arg(long, conflicts_with = "file")]
    moves: Option<String>,
    /// The position the --moves start from: the squares (16, 36 or 64 of X, O, -) then X or O
    /// [default: the start].
    #[arg(long, alias = "position", allow_hyphen_values = true, requires = "moves")]
    fen: Option<String>,
    /// The depth of the search of each position with more empty squares than --exact (beyond 60:
    /// to the end of the game).
    #[arg(long, default_value_t = analyze::DEFAULT_DEPTH, value_parser = parse_search_depth)]
    depth: u32,
    /// Search each such position for this many milliseconds instead of to --depth.
    #[arg(long, value_name = "MS", conflicts_with = "depth", value_parser = count::<u64>(1..=3_600_000))]
    movetime: Option<u64>,
    /// Solve the positions with this many empty squares or fewer exactly (0 to 30; 0: none).
    #[arg(long, default_value_t = analyze::DEFAULT_EXACT, value_parser = count::<u32>(0..=analyze::MAX_EXACT as u64))]
    exact: u32,
    /// Multi-ProbCut's selectivity, 0 (off) to 5 (most cuts); exact solves end exact at any
    /// level [default: 3].
    #[arg(long, value_name = "0-5", value_parser = selectivity_parser())]
    selectivity: Option<u8>,
    /// The pattern evaluation's weight file [default: the weights built into the binary].
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Each thread's transposition table size in MiB, 1 to 65536 [default: 64].
    #[arg(long, value_name = "MIB", value_parser = hash_parser())]
    hash: Option<u64>,
    /// Positions searched at once, one thread each, 1 to 256 [default: the machine's cores].
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    threads: Option<u64>,
    /// Write a picture of the score through the game (SVG) to this file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Print one JSON object a line (the game, each move, each player, the totals; see
    /// docs/tools.md) instead of the table.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

/// The selectivity of an analysis unless told otherwise: the book's, steadier than the engine's.
pub const DEFAULT_SELECTIVITY: u8 = 3;

impl AnalyzeArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        let (game, source) = match (&self.file, &self.moves) {
            (Some(file), _) => read_game(file, self.game.unwrap_or(1))?,
            (None, Some(moves)) => {
                if self.game.is_some() {
                    return Err(CliError("--game picks a game of a file: give the file".to_string()));
                }
                (game_of_moves(self.fen.as_deref(), moves)?, "moves given".to_string())
            }
            (None, None) => return Err(CliError("give a game: a GGF or WTHOR file, or --moves".to_string())),
        };
        if game.moves().iter().all(|m| m.mv == Move::Pass) {
            return Err(CliError(format!("{source}: no move to analyze")));
        }
        let svg = self.svg.map(|path| output_file("--svg", path)).transpose()?;
        let weights = engine.weights(self.weights.as_deref(), "--weights")?;
        let threads = engine.threads(self.threads, cores().min(MAX_THREADS));
        let hash_mib = engine.hash_mib(self.hash, DEFAULT_HASH_MIB);
        let selectivity = self.selectivity.or(engine.selectivity).unwrap_or(DEFAULT_SELECTIVITY);
        Ok(Request::Analyze(Box::new(AnalyzeRequest {
            game,
            source,
            judge: Judge {
                eval: Evaluator::with_weights(EvalKind::Pattern, weights),
                depth: self.depth,
                movetime: self.movetime.map(Duration::from_millis),
                exact: self.exact,
                selectivity,
            },
            threads,
            hash_mib,
            svg,
            json: self.json,
            progress: !self.no_progress,
        })))
    }
}

/// Whether `path` names a WTHOR file (by its `.wtb` extension).
fn is_wthor(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
}

/// Game `number` (from 1) of a GGF or WTHOR file, with the words that name it.
fn read_game(path: &Path, number: u64) -> Result<(GgfGame, String), CliError> {
    let name = path.display();
    let bytes = read_input(path)?;
    let index = usize::try_from(number - 1).unwrap_or(usize::MAX);
    let source = format!("{name}, game {number}");
    if is_wthor(path) {
        let (_, games) = parse_wtb(&bytes).map_err(|e| CliError(format!("{name}: {e}")))?;
        let Some(wthor) = games.get(index) else {
            return Err(CliError(format!("{name}: no game {number}: the file has {}", games.len())));
        };
        let replayed =
            wthor.replay().map_err(|(i, e)| CliError(format!("{name}: game {number}: move {}: {e}", i + 1)))?;
        let mut game = GgfGame::new(*replayed.start());
        for &mv in replayed.moves() {
            game.push_move(mv, None, None).map_err(|e| CliError(format!("{name}: game {number}: {e}")))?;
        }
        // The players' names are in WTHOR.JOU beside the file, when it is there.
        let names = path
            .parent()
            .map(|folder| folder.join("WTHOR.JOU"))
            .filter(|jou| jou.is_file())
            .and_then(|jou| std::fs::read(jou).ok())
            .map(|bytes| parse_player_names(&bytes))
            .unwrap_or_default();
        for (color, id) in [(Color::Black, wthor.black), (Color::White, wthor.white)] {
            if let Some(player) = names.get(usize::from(id)).filter(|n| !n.is_empty()) {
                game.set_player(color, player.clone());
            }
        }
        return Ok((game, source));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| CliError(format!("{name}: not a GGF text file (a WTHOR file's name ends in .wtb)")))?;
    let games = parse_ggf_games(&text);
    if games.is_empty() {
        return Err(CliError(format!("{name}: no game (a GGF file has one game a line)")));
    }
    let count = games.len();
    match games.into_iter().nth(index) {
        Some(Ok(game)) => Ok((game, source)),
        Some(Err(e)) => Err(CliError(format!("{name}: game {number}: {e}"))),
        None => Err(CliError(format!("{name}: no game {number}: the file has {count}"))),
    }
}

/// The game of a move list from `fen` (or the start), forced passes put in.
fn game_of_moves(fen: Option<&str>, moves: &str) -> Result<GgfGame, CliError> {
    let start = start_position(fen, None, "--fen")?;
    let list = parse_moves(moves).map_err(|e| CliError(format!("--moves: {e}")))?;
    let mut game = GgfGame::new(start);
    for (i, &mv) in list.iter().enumerate() {
        let pos = game.position();
        if pos.must_pass() && mv != Move::Pass {
            game.push_move(Move::Pass, None, None).map_err(|e| CliError(format!("--moves: {e}")))?;
        }
        game.push_move(mv, None, None).map_err(|e| CliError(format!("--moves: move {} ({mv}): {e}", i + 1)))?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_lists_get_their_forced_passes() {
        let game = game_of_moves(None, "f5d6c3").unwrap();
        assert_eq!(game.moves().len(), 3);
        let e = game_of_moves(None, "f5 a1").unwrap_err().0;
        assert!(e.contains("move 2 (a1)"), "{e}");
        assert!(game_of_moves(None, "f5 zz").unwrap_err().0.contains("zz"));
        // Black (to move) has no move; White's d1 takes Black's last disc.
        let fen = format!("OOX{} X", "-".repeat(61));
        let passed = game_of_moves(Some(&fen), "d1").unwrap();
        assert_eq!(passed.moves().iter().map(|m| m.mv.to_string()).collect::<Vec<_>>(), ["pass", "d1"]);
        assert!(passed.position().is_game_over());
    }
}
