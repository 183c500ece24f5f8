//! The tools a user runs on positions and games, each a subcommand over the same library: the
//! best move of a position (`bestmove`), test suites solved and checked (`solve`), the accuracy of
//! depth-limited searches against exact scores (`accuracy`), one game judged
//! move by move (`analyze`), many games' endgames reviewed (`review`), the opening book's verbs
//! (`book`), openings for matches from tournament games (`openings`), a client of the Generic Game
//! Server (`ggs`), and the search's and move
//! generator's signatures (`bench`, `perft`).

pub mod accuracy;
pub mod analyze;
pub mod bench;
pub mod bestmove;
pub mod book;
pub mod ggs;
pub mod openings;
pub mod perft;
pub mod review;
pub mod solve;
