//! `magpie bestmove`'s options.

use super::numbers::{count, parse_search_depth};
use super::shared::{
    SearchArgs, book_seed_parser, level_parser, parse_book_randomness, parse_size, selectivity_parser, start_position,
};
use super::{CliError, EngineArgs, Request};
use crate::board::{BoardSize, Game};
use crate::engine::settings::Settings;
use crate::eval::EvalKind;
use crate::formats::parse_moves;
use crate::search::Limits;
use crate::tools::bestmove::{ALL_LINES, BestMoveRequest};
use std::path::PathBuf;
use std::time::Duration;

/// Print the best move and its score for one position, then exit.
#[derive(clap::Args, Debug)]
pub struct BestMoveArgs {
    /// The position: the squares (16, 36 or 64 of X, O, -) then X or O [default: the start].
    #[arg(long, alias = "position", allow_hyphen_values = true)]
    fen: Option<String>,
    /// Moves to play from the position first, e.g. f5d6c3 or "f5 d6 c3".
    #[arg(long, default_value = "")]
    moves: String,
    /// Board size of the start position when no --fen is given: 4, 6 or 8.
    #[arg(long, value_parser = parse_size)]
    size: Option<BoardSize>,
    /// Time to think, in milliseconds (1000 when no other limit is given).
    #[arg(long, value_name = "MS", value_parser = count::<u64>(1..=3_600_000))]
    movetime: Option<u64>,
    /// Deepest search, in plies (0 searches one ply; beyond 60, to the end of the game).
    #[arg(long, value_parser = parse_search_depth)]
    depth: Option<u32>,
    /// Node budget.
    #[arg(long, value_parser = count::<u64>(1..))]
    nodes: Option<u64>,
    /// Once the search reaches the end of the game, solve for win, draw or loss only.
    #[arg(long)]
    wld: bool,
    /// The evaluation: pattern, heuristic, discs, iagno, sannidhanam or corner-edge [default: pattern].
    #[arg(long, value_name = "NAME")]
    eval: Option<EvalKind>,
    /// The pattern evaluation's weight file [default: the weights built into the binary].
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// A network file whose values replace the pattern weights' at the leaves [default: none].
    #[arg(long, value_name = "FILE")]
    network: Option<PathBuf>,
    /// Difficulty level, 0 (random mover) to 10 (full strength) [default: 10].
    #[arg(long, value_name = "0-10", value_parser = level_parser())]
    level: Option<u8>,
    /// Multi-ProbCut's selectivity, 0 (off) to 5 (most cuts) [default: 5].
    #[arg(long, value_name = "0-5", value_parser = selectivity_parser())]
    selectivity: Option<u8>,
    #[command(flatten)]
    search: SearchArgs,
    /// The opening book: a book file, or <none> [default: the book built into the binary].
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Search even where the book holds the position.
    #[arg(long, conflicts_with = "book")]
    no_book: bool,
    /// Play any book move within this many discs of the best (0 to 64), drawn at random [default: 0].
    #[arg(long, value_name = "DISCS", value_parser = parse_book_randomness)]
    book_randomness: Option<u32>,
    /// The seed of the book's random draws, 1 to 2147483647; 0 seeds from the clock [default: 0].
    #[arg(long, value_name = "N", value_parser = book_seed_parser())]
    book_seed: Option<u64>,
    /// Score the N best moves (1 to 64), or all of them, and print a line for each, best first;
    /// every move is searched (the book is not used).
    #[arg(long, value_name = "N|all", value_parser = parse_multipv)]
    multipv: Option<usize>,
    /// Print one JSON object (see docs/tools.md) instead of the line.
    #[arg(long)]
    json: bool,
}

/// `--multipv`: a number of lines, 1 to 64, or `all`.
fn parse_multipv(text: &str) -> Result<usize, String> {
    if text.eq_ignore_ascii_case("all") {
        return Ok(ALL_LINES);
    }
    match text.parse::<usize>() {
        Ok(n) if (1..=ALL_LINES).contains(&n) => Ok(n),
        _ => Err(format!("expected a number of moves from 1 to {ALL_LINES}, or all")),
    }
}

impl BestMoveArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        let start = start_position(self.fen.as_deref(), self.size, "--fen")?;
        let moves = parse_moves(&self.moves).map_err(|e| CliError(format!("--moves: {e}")))?;
        let mut game = Game::new(start);
        game.play_all(&moves).map_err(|(i, e)| CliError(format!("--moves: move {} ({}): {e}", i + 1, moves[i])))?;
        let movetime = self.movetime.or(engine.movetime);
        let no_limit = movetime.is_none() && self.depth.is_none() && self.nodes.is_none();
        let limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: Some(Duration::from_millis(movetime.unwrap_or(1000))).filter(|_| movetime.is_some() || no_limit),
            clock: None,
            infinite: false,
            wld: self.wld,
        };
        let (hash_mib, threads) = self.search.resolve(engine);
        let (book, book_file) = if self.no_book { (None, None) } else { engine.book(self.book.as_deref())? };
        let weights = engine.weights(self.weights.as_deref(), "--weights")?;
        let settings = Settings {
            eval: engine.eval(self.eval),
            level: engine.level(self.level),
            hash_mib,
            threads,
            network: engine.network(self.network.as_deref(), &weights)?,
            weights,
            selectivity: engine.selectivity(self.selectivity),
            book,
            book_file,
            book_randomness: engine.book_randomness(self.book_randomness),
            book_seed: engine.book_seed(self.book_seed),
            multi_pv: self.multipv.unwrap_or(1),
            ..Settings::default()
        };
        Ok(Request::BestMove(BestMoveRequest { position: *game.position(), limits, settings, json: self.json }))
    }
}
