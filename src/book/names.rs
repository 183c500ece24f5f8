//! The named openings: Zebra's list of 76 (`opening-names.txt`, from lk16/zebra's `openings.txt`),
//! recognised under the 8 symmetries of the board.
//!
//! The file's first line is the number of openings; then each line is a move string, Black's moves
//! in upper case and White's in lower case (`C4c3D3c5B2`), and the opening's name (`X-square
//! Opening`). Each line is played from the standard start and the position it reaches is stored
//! under its [`canonical`] form (the side to move's and the other side's discs, least of the 8
//! images), so `F5f6` is the Diagonal Opening as `C4c3` is. Four of the symmetries keep the start
//! position; the other four swap the colours, which the side-to-move form absorbs.
//!
//! ```
//! use magpie::board::{Game, Move};
//! use magpie::book::names::{name_of, opening_name};
//!
//! let mut game = Game::default();
//! for mv in ["f5", "d6", "c3", "d3", "c4", "f4"] {
//!     game.play(mv.parse::<Move>().unwrap()).unwrap();
//! }
//! // The last move left the Tiger: the position has no name, the game keeps the Tiger's.
//! assert_eq!(name_of(game.position()), None);
//! assert_eq!(opening_name(game.positions()), Some("Tiger"));
//! ```

use crate::board::symmetry::canonical;
use crate::board::{BoardSize, Color, Game, IllegalMove, Move, Position, Square};
use crate::quote::Quoted;
use std::collections::HashMap;
use std::fmt;
use std::sync::LazyLock;

/// The list, as published (first line the count, then `<moves> <name>` a line).
const OPENINGS_TEXT: &str = include_str!("opening-names.txt");

/// The name of the latest position of a game's history (its positions from the start, as
/// [`Game::positions`] gives them) that is a named opening: a game that has left a named line keeps
/// the name of the last named position it passed. `None` when no position is named.
pub fn opening_name(positions: &[Position]) -> Option<&'static str> {
    positions.iter().rev().find_map(name_of)
}

/// The name of `pos` when it is a named opening (under any of the 8 symmetries), on the 8x8 board.
pub fn name_of(pos: &Position) -> Option<&'static str> {
    if pos.size() != BoardSize::Eight {
        return None;
    }
    let table = &*TABLE;
    // Most positions of a game are past every named line: the disc count rules them out cheaply.
    if (pos.player() | pos.opponent()).count_ones() > table.max_discs {
        return None;
    }
    let (player, opponent, _) = canonical(pos.player(), pos.opponent());
    table.names.get(&(player, opponent)).copied()
}

/// The named positions, by canonical (side to move, other side) discs.
struct Table {
    names: HashMap<(u64, u64), &'static str>,
    /// The most discs on a named position.
    max_discs: u32,
}

static TABLE: LazyLock<Table> = LazyLock::new(|| {
    // The embedded file is checked by the tests; were it broken, no position would have a name.
    let openings = parse_openings(OPENINGS_TEXT).unwrap_or_else(|e| {
        log::error!("the embedded opening names do not parse: {e}");
        Vec::new()
    });
    let mut names = HashMap::new();
    let mut max_discs = 0;
    for opening in &openings {
        let (player, opponent, _) = canonical(opening.position.player(), opening.position.opponent());
        // Of two lines that reach the same position, the first in the list names it.
        names.entry((player, opponent)).or_insert(opening.name);
        max_discs = max_discs.max((player | opponent).count_ones());
    }
    Table { names, max_discs }
});

/// One line of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
struct NamedOpening<'a> {
    /// The moves from the start.
    moves: Vec<Move>,
    /// The position they reach.
    position: Position,
    /// The opening's name.
    name: &'a str,
}

/// Why the list does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
enum ParseOpeningsError {
    /// The first line is not a number of openings.
    Count(String),
    /// The first line announces a number of openings other than the lines that follow.
    CountMismatch { announced: usize, found: usize },
    /// A line has moves but no name.
    MissingName { line: usize },
    /// A token of the move string is not a square.
    BadSquare { line: usize, token: String },
    /// A move is written in the other colour's case.
    WrongCase { line: usize, token: String, mover: Color },
    /// A move is not legal where it is played.
    Illegal { line: usize, error: IllegalMove },
}

impl fmt::Display for ParseOpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseOpeningsError::Count(text) => write!(f, "line 1: {} is not a number of openings", Quoted(text)),
            ParseOpeningsError::CountMismatch { announced, found } => {
                write!(f, "line 1 announces {announced} openings, {found} follow")
            }
            ParseOpeningsError::MissingName { line } => write!(f, "line {line}: no name after the moves"),
            ParseOpeningsError::BadSquare { line, token } => {
                write!(f, "line {line}: {} is not a square", Quoted(token))
            }
            ParseOpeningsError::WrongCase { line, token, mover } => {
                write!(f, "line {line}: {token} is written in the other colour's case ({mover} is to move)")
            }
            ParseOpeningsError::Illegal { line, error } => write!(f, "line {line}: {error}"),
        }
    }
}

impl std::error::Error for ParseOpeningsError {}

/// Parses the list: the count, then one opening a line, each move checked for legality and for
/// the case of its colour (upper case Black, lower case White).
fn parse_openings(text: &str) -> Result<Vec<NamedOpening<'_>>, ParseOpeningsError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty());
    let count = lines.next().map_or("", |(_, l)| l);
    let announced = count.parse::<usize>().map_err(|_| ParseOpeningsError::Count(count.to_string()))?;
    let mut openings = Vec::with_capacity(announced);
    for (line, text) in lines {
        let (moves_text, name) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let name = name.trim();
        if name.is_empty() {
            return Err(ParseOpeningsError::MissingName { line });
        }
        let mut game = Game::new(Position::initial());
        let chars: Vec<char> = moves_text.chars().collect();
        for pair in chars.chunks(2) {
            let token: String = pair.iter().collect();
            let square =
                token.parse::<Square>().map_err(|_| ParseOpeningsError::BadSquare { line, token: token.clone() })?;
            let mover = game.position().side_to_move();
            let black = pair[0].is_ascii_uppercase();
            if black != (mover == Color::Black) {
                return Err(ParseOpeningsError::WrongCase { line, token, mover });
            }
            game.play_strict(Move::Play(square)).map_err(|error| ParseOpeningsError::Illegal { line, error })?;
        }
        openings.push(NamedOpening { moves: game.moves().to_vec(), position: *game.position(), name });
    }
    if openings.len() != announced {
        return Err(ParseOpeningsError::CountMismatch { announced, found: openings.len() });
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::symmetry::symmetric_square;
    use crate::formats::parse_moves;

    /// The game after `moves` (as `f5d6c3`) from the standard start.
    fn game(moves: &str) -> Game {
        let mut game = Game::default();
        game.play_all(&parse_moves(moves).unwrap()).unwrap();
        game
    }

    /// `game` continued by `n` moves, each the first legal one (a1 first).
    fn past(mut game: Game, n: usize) -> Game {
        for _ in 0..n {
            let sq = game.position().legal_moves().first().unwrap();
            game.play(Move::Play(sq)).unwrap();
        }
        game
    }

    #[test]
    fn the_embedded_list_parses_whole() {
        let openings = parse_openings(OPENINGS_TEXT).unwrap();
        assert_eq!(openings.len(), 76);
        assert_eq!(openings[0].name, "Diagonal Opening");
        assert_eq!(openings[0].moves, parse_moves("c4c3").unwrap());
        assert_eq!(openings[75].name, "Aubrey (Feldborg continuation)");
        let fat = openings.iter().find(|o| o.name == "F.A.T. draw").unwrap();
        assert_eq!(fat.moves.len(), 21);
        // Every line reaches a position of its own, which carries its name.
        assert_eq!(TABLE.names.len(), 76);
        for opening in &openings {
            assert_eq!(name_of(&opening.position), Some(opening.name), "{:?}", opening.moves);
        }
    }

    #[test]
    fn a_broken_list_is_refused_with_its_line() {
        let err = |text: &str| parse_openings(text).unwrap_err();
        assert_eq!(err("many\nC4c3 Diagonal"), ParseOpeningsError::Count("many".into()));
        assert_eq!(err("2\nC4c3 Diagonal"), ParseOpeningsError::CountMismatch { announced: 2, found: 1 });
        assert_eq!(err("1\nC4c3"), ParseOpeningsError::MissingName { line: 2 });
        assert!(matches!(err("1\nC4z9 Nowhere"), ParseOpeningsError::BadSquare { line: 2, .. }));
        assert!(matches!(err("1\nC4C3 Shouting"), ParseOpeningsError::WrongCase { line: 2, .. }));
        assert!(matches!(err("1\nC4a1 Corner"), ParseOpeningsError::Illegal { line: 2, .. }));
        assert_eq!(
            err("1\nC4C3 Shouting").to_string(),
            "line 2: C3 is written in the other colour's case (white is to move)"
        );
    }

    #[test]
    fn the_diagonal_opening_is_recognised() {
        assert_eq!(name_of(game("c4c3").position()), Some("Diagonal Opening"));
        assert_eq!(opening_name(game("c4c3").positions()), Some("Diagonal Opening"));
    }

    #[test]
    fn a_line_is_recognised_under_every_symmetry() {
        // The usual first move F5 is C4 turned half a turn: F5f6 is the Diagonal Opening, F5d6 the
        // Perpendicular, F5f4 the Parallel, and F5d6C3d3C4 the Tiger.
        assert_eq!(name_of(game("f5f6").position()), Some("Diagonal Opening"));
        assert_eq!(name_of(game("f5d6").position()), Some("Perpendicular Opening"));
        assert_eq!(name_of(game("f5f4").position()), Some("Parallel Opening"));
        assert_eq!(name_of(game("f5d6c3d3c4").position()), Some("Tiger"));
        // All 8 images of every line. The four symmetries that swap d4 and e4 turn the start
        // position into its colour-swapped twin, from which the image is played.
        let start = Position::initial();
        let swapped = Position::from_discs(start.white().0, start.black().0, Color::Black, BoardSize::Eight).unwrap();
        for opening in parse_openings(OPENINGS_TEXT).unwrap() {
            for s in 0..8u8 {
                let image = |sq: Square| Square::new(symmetric_square(s, sq.index() as u8)).unwrap();
                let keeps_start = ["d4", "e5"].iter().all(|sq| {
                    let sq: Square = sq.parse().unwrap();
                    start.white().contains(image(sq))
                });
                let mut game = Game::new(if keeps_start { start } else { swapped });
                for mv in &opening.moves {
                    game.play_strict(Move::Play(image(mv.square().unwrap()))).unwrap();
                }
                assert_eq!(name_of(game.position()), Some(opening.name), "{} under symmetry {s}", opening.name);
            }
        }
    }

    #[test]
    fn a_game_past_a_named_line_keeps_the_last_name() {
        // F5d6C3d3C4 is the Tiger; f4 leaves the list, and F6 then reaches the Stephenson.
        let tiger_and_on = game("f5d6c3d3c4f4");
        assert_eq!(name_of(tiger_and_on.position()), None);
        assert_eq!(opening_name(tiger_and_on.positions()), Some("Tiger"));
        let stephenson = game("f5d6c3d3c4f4f6");
        assert_eq!(opening_name(stephenson.positions()), Some("Stephenson"));
        let later = past(stephenson, 10);
        assert_eq!(name_of(later.position()), None);
        assert_eq!(opening_name(later.positions()), Some("Stephenson"));
    }

    #[test]
    fn unnamed_positions_have_no_name() {
        assert_eq!(name_of(&Position::initial()), None);
        assert_eq!(opening_name(Game::default().positions()), None);
        // One move is not an opening yet.
        assert_eq!(opening_name(game("f5").positions()), None);
        // C4c3D3 is on the way to named lines but is not one itself: the game is still Diagonal.
        assert_eq!(name_of(game("c4c3d3").position()), None);
        assert_eq!(opening_name(game("c4c3d3").positions()), Some("Diagonal Opening"));
        // Other board sizes have no named openings.
        let small = Position::start(BoardSize::Six);
        let small_game = Game::new(small);
        assert_eq!(opening_name(small_game.positions()), None);
        // A game begun in the middle game, past every named line.
        let pos = *past(game("f5d6"), 20).position();
        assert_eq!(opening_name(&[pos]), None);
    }
}
