//! `magpie bench`: searches a fixed list of positions to a fixed depth and prints the total node
//! count, a signature of the search that any change to search behaviour moves (commits that change
//! the search quote it), and the speed.

use crate::board::{Game, Position};
use crate::eval::Evaluator;
use crate::formats::{parse_moves, parse_position};
use crate::search::{NoControl, SearchRequest, Searcher};
use std::io::{self, Write};
use std::time::Instant;

/// The default depth of `magpie bench`.
pub const DEFAULT_DEPTH: u32 = 9;

/// Openings (named in Zebra's list) played from the start, then FFO positions #20-#27.
const OPENINGS: [&str; 8] = [
    "",
    "c4e3f6e6f5",                   // Tiger
    "c4c3d3c5b4d2c2f4d6c6f5e6f7",   // Mimura
    "c4e3f4c5d6f3e6c3d3e2b5f5b3",   // Murakami
    "c4c3d3c5d6f4b4b6b5c6b3",       // Bat
    "c4e3f6e6f5c5c3c6d3d2e2b3c1c2", // F.A.T., first moves
    "c4c3e6c5",                     // Wing
    "c4e3f5b4f3f4e2e6g5f6d6c6",     // No-Cat
];

const FFO_20_TO_27: [&str; 8] = [
    "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X",
    "OOOOOOOOXOOXXX--XXOOXOO-XOXOOO--XOOOOX--XOOXOO--XOOOOO--XXXX---- O",
    "--OOOO--X-OOOOO-XXOOXOXXXOXOXXXXXXXOXXXX-XXOXOXX--OXXX-X----X--- O",
    "--O-------OOX---OOOXXXO-OOOOXOXXXXXOOXOXXXXXXOOXX-XXXXOX--XXXX-- X",
    "--O--O-----OOOX--X-XOXOO--XXXOOOXXXXOOOOXXXOXXOOXXXXXX--XOXX-O-- O",
    "----X------XXXO--OOOXXXXXOOOOXXO-XXOOXXOOOXOXXXXOOOXX---X-XXXX-- O",
    "-OOOOO----OXXO---OOOOXXO-OOOXOXX-OOXOOXX-XOXXOXX--O-XXXX--O----O X",
    "--XO-O----OOOO--OOXOXXO-OOOOXXOOOOOXXOX-OXOXXXXX--XXXX----X-O-X- X",
];

/// The bench positions.
pub fn positions() -> Vec<Position> {
    let mut list: Vec<Position> = OPENINGS
        .iter()
        .map(|line| {
            let mut game = Game::default();
            let moves = parse_moves(line).unwrap_or_default();
            // The openings are fixed and legal; a typo would only shorten the list.
            let _ = game.play_all(&moves);
            *game.position()
        })
        .collect();
    list.extend(FFO_20_TO_27.iter().filter_map(|text| parse_position(text).ok()));
    list
}

/// Runs the bench at `depth` with evaluation `eval` and writes one line per position and a total.
pub fn run(depth: u32, eval: &Evaluator, selectivity: u8, out: &mut impl Write) -> io::Result<u64> {
    let mut searcher = Searcher::new();
    let mut total_nodes = 0;
    let started = Instant::now();
    for (i, pos) in positions().iter().enumerate() {
        let mut request = SearchRequest::new(*pos, eval.clone());
        request.selectivity = selectivity;
        request.max_depth = depth;
        searcher.clear();
        let result = searcher.search(&request, &mut NoControl, &mut |_| {});
        total_nodes += result.info.nodes;
        writeln!(
            out,
            "position {:2} nodes {:10} score {:6} best {}",
            i + 1,
            result.info.nodes,
            result.info.score,
            result.best
        )?;
    }
    let time = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "bench depth {depth} eval {} selectivity {selectivity}: {} positions, nodes {total_nodes}, time {time:.3} s, nps {}",
        eval.name(),
        positions().len(),
        (total_nodes as f64 / time.max(1e-9)) as u64
    )?;
    Ok(total_nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_playable() {
        let list = positions();
        assert_eq!(list.len(), 16);
        assert_eq!(list[0], Position::initial());
        for pos in &list {
            assert!(!pos.legal_moves().is_empty(), "{pos}");
        }
        // The openings were played to their end (no typo cut them short).
        assert_eq!(list[2].empty_count(), 60 - 13);
    }
}
