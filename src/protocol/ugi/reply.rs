//! The answers of Magpie's UGI protocol, formatted one kind a variant: the handshake, `info`
//! lines, `bestmove`, `response`, errors.

use crate::board::Move;
use crate::engine::book::BookPlay;
use crate::engine::settings::{
    DEFAULT_HASH_MIB, MAX_BOOK_RANDOMNESS, MAX_BOOK_SEED, MAX_HASH_MIB, MAX_THREADS, MIN_HASH_MIB,
};
use crate::formats::{discs_text, spaced_moves};
use crate::search::{Bound, DEFAULT_SELECTIVITY, MAX_SELECTIVITY, SearchInfo};
use std::fmt;

/// An answer of the protocol, formatted by its `Display`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name …` and `id author …`, the option lines, then `ugiok`/`uciok`.
    Hello {
        /// Answer `uciok` rather than `ugiok`.
        uci: bool,
    },
    /// `readyok`.
    ReadyOk,
    /// An `info` line for a search state.
    Info {
        /// The state.
        info: SearchInfo,
        /// Whether the search solves for win/draw/loss only (`go wld`): a solved score then says
        /// `wld` where an exact one says `exact`.
        wld: bool,
    },
    /// `info string book move <move>: <value> discs, depth <d>, <games> games`: the move played
    /// comes from the book (its `info` line and `bestmove` follow).
    BookMove(BookPlay),
    /// `info string …`.
    InfoString(String),
    /// `info string error: …`.
    Error(String),
    /// `bestmove <move>`, or `bestmove none` when the game is over.
    BestMove(Option<Move>),
    /// `response …`.
    Response(String),
}

/// The option lines but those of the search's resources, which come from their constants.
const OPTION_LINES: [&str; 7] = [
    "option name Eval type combo default pattern var pattern var heuristic var discs var iagno var sannidhanam var corner-edge",
    "option name Weights type string default <embedded>",
    "option name Network type string default <none>",
    "option name Level type spin default 10 min 0 max 10",
    "option name MoveOverhead type spin default 10 min 0 max 5000",
    "option name BoardSize type combo default 8 var 4 var 6 var 8",
    "option name MultiPV type spin default 1 min 1 max 64",
];

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Hello { uci } => {
                writeln!(f, "id name Magpie {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(f, "id author the Magpie developers")?;
                for line in OPTION_LINES {
                    writeln!(f, "{line}")?;
                }
                writeln!(
                    f,
                    "option name Selectivity type spin default {DEFAULT_SELECTIVITY} min 0 max {MAX_SELECTIVITY}"
                )?;
                writeln!(
                    f,
                    "option name Hash type spin default {DEFAULT_HASH_MIB} min {MIN_HASH_MIB} max {MAX_HASH_MIB}"
                )?;
                writeln!(f, "option name Threads type spin default 1 min 1 max {MAX_THREADS}")?;
                writeln!(f, "option name Book type string default <default>")?;
                writeln!(f, "option name OwnBook type check default true")?;
                writeln!(f, "option name BookRandomness type spin default 0 min 0 max {MAX_BOOK_RANDOMNESS}")?;
                writeln!(f, "option name BookSeed type spin default 0 min 0 max {MAX_BOOK_SEED}")?;
                f.write_str(if *uci { "uciok" } else { "ugiok" })
            }
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Info { info, wld } => {
                write!(f, "info depth {} seldepth {}", info.depth, info.seldepth)?;
                if let Some(rank) = info.multipv {
                    write!(f, " multipv {rank}")?;
                }
                write!(f, " score cp {}", info.score)?;
                match info.bound {
                    Bound::Exact => {}
                    Bound::Lower => f.write_str(" lowerbound")?,
                    Bound::Upper => f.write_str(" upperbound")?,
                }
                if info.exact {
                    f.write_str(if *wld { " wld" } else { " exact" })?;
                }
                if let Some(level) = info.selectivity {
                    write!(f, " selectivity {level}")?;
                }
                write!(
                    f,
                    " nodes {} nps {} hashfull {} time {}",
                    info.nodes,
                    info.nps(),
                    info.hashfull,
                    info.time.as_millis()
                )?;
                if !info.pv.is_empty() {
                    write!(f, " pv {}", spaced_moves(&info.pv))?;
                }
                Ok(())
            }
            Reply::BookMove(play) => {
                let depth = if play.exact() { "exact".to_string() } else { format!("depth {}", play.depth) };
                write!(
                    f,
                    "info string book move {}: {} discs, {depth}, {} games",
                    play.mv,
                    discs_text(play.value),
                    play.games
                )
            }
            Reply::InfoString(text) => write!(f, "info string {text}"),
            Reply::Error(text) => write!(f, "info string error: {text}"),
            Reply::BestMove(Some(mv)) => write!(f, "bestmove {mv}"),
            Reply::BestMove(None) => f.write_str("bestmove none"),
            Reply::Response(text) => write!(f, "response {text}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn replies_format() {
        let info = SearchInfo {
            depth: 3,
            seldepth: 4,
            score: -150,
            exact: false,
            solve: false,
            bound: Bound::Exact,
            nodes: 1000,
            time: Duration::from_millis(10),
            pv: vec!["f5".parse().unwrap(), Move::Pass],
            multipv: None,
            hashfull: 7,
            selectivity: None,
        };
        assert_eq!(
            Reply::Info { info: info.clone(), wld: false }.to_string(),
            "info depth 3 seldepth 4 score cp -150 nodes 1000 nps 100000 hashfull 7 time 10 pv f5 pass"
        );
        assert_eq!(
            Reply::Info { info: SearchInfo { selectivity: Some(3), ..info.clone() }, wld: false }.to_string(),
            "info depth 3 seldepth 4 score cp -150 selectivity 3 nodes 1000 nps 100000 hashfull 7 time 10 pv f5 pass"
        );
        // A depth-limited score is never wld, whatever the go asked.
        assert_eq!(
            Reply::Info { info: info.clone(), wld: true }.to_string(),
            "info depth 3 seldepth 4 score cp -150 nodes 1000 nps 100000 hashfull 7 time 10 pv f5 pass"
        );
        let solved = SearchInfo { depth: 14, score: 1800, exact: true, solve: true, multipv: Some(2), ..info };
        assert_eq!(
            Reply::Info { info: solved.clone(), wld: false }.to_string(),
            "info depth 14 seldepth 4 multipv 2 score cp 1800 exact nodes 1000 nps 100000 hashfull 7 time 10 pv f5 pass"
        );
        let won = SearchInfo { score: 200, bound: Bound::Lower, multipv: None, ..solved.clone() };
        assert!(Reply::Info { info: won, wld: true }.to_string().contains(" score cp 200 lowerbound wld nodes "));
        let drawn = SearchInfo { score: 0, multipv: None, ..solved.clone() };
        assert!(Reply::Info { info: drawn, wld: true }.to_string().contains(" score cp 0 wld nodes "));
        let lost = SearchInfo { score: -200, bound: Bound::Upper, multipv: None, ..solved };
        assert!(
            Reply::Info { info: lost.clone(), wld: true }.to_string().contains(" score cp -200 upperbound wld nodes ")
        );
        assert!(Reply::Info { info: lost, wld: false }.to_string().contains(" score cp -200 upperbound exact nodes "));
        assert_eq!(Reply::BestMove(Some(Move::Pass)).to_string(), "bestmove pass");
        assert_eq!(Reply::BestMove(None).to_string(), "bestmove none");
        let hello = Reply::Hello { uci: false }.to_string();
        assert!(hello.ends_with("\nugiok"));
        assert!(hello.contains("\noption name Hash type spin default 64 min 1 max 65536\n"), "{hello}");
        assert!(hello.contains("\noption name Threads type spin default 1 min 1 max 256\n"), "{hello}");
        assert_eq!(discs_text(-150), "-1.50");
        let book = BookPlay { mv: "d3".parse().unwrap(), value: -12, depth: 18, games: 1200, line: vec![] };
        assert_eq!(
            Reply::BookMove(book.clone()).to_string(),
            "info string book move d3: -0.12 discs, depth 18, 1200 games"
        );
        let solved = BookPlay { value: 200, depth: 60, games: 0, ..book };
        assert_eq!(Reply::BookMove(solved).to_string(), "info string book move d3: +2.00 discs, exact, 0 games");
        assert!(hello.contains("\noption name OwnBook type check default true\n"), "{hello}");
        assert_eq!(discs_text(5), "+0.05");
    }
}
