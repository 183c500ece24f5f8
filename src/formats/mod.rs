//! Text forms of the board's types: position strings, move lists, OBF test-suite lines, GGF games
//! (the format of GGS, NBoard's `set game` and game archives), the ASCII diagram, scores, and the
//! tools' JSON lines. Text ↔ types,
//! nothing else: parsing at the edge, once.

pub mod ascii;
pub mod ggf;
pub mod json;
pub mod move_list;
pub mod obf;
pub mod position_text;
pub mod samples;
pub mod score;
pub mod wthor;

pub use ascii::{ascii_board, parse_ascii_board};
pub use ggf::{
    Clock, GameEnd, GgfGame, GgfMove, GgfResult, MoveText, ParseClockError, ParseGgfError, ParseMoveTextError,
    ParseResultError, parse_ggf_games,
};
pub use json::json_line;
pub use move_list::{ParseMovesError, compact_moves, parse_moves, spaced_moves};
pub use obf::{ObfLine, ParseObfError, parse_obf_file};
pub use position_text::{ParsePositionError, parse_position};
pub use score::{discs_text, wld_word};
