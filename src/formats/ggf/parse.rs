//! Reading GGF: a game's `KEY[value]` tags split off the text, each read into its type, and the
//! moves replayed; [`ParseGgfError`] names the offending tag or token in one line.

use super::text::{MAX_TOKEN_CHARS, Quoted, clipped};
use super::{Clock, GgfGame, MoveText, ParseClockError, ParseMoveTextError, ParseResultError};
use crate::board::{BoardSize, Color, Game, IllegalMove, Move, Position};
use crate::formats::position_text::{ParsePositionError, parse_squares, side_char};
use std::fmt;
use std::str::FromStr;

/// Why a GGF game could not be read. Each message is one line naming the offending tag or token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseGgfError {
    /// The text does not start with `(;` (after an optional count such as `1 `).
    MissingStart {
        /// The start of the text.
        found: String,
    },
    /// The text ends before `;)`.
    MissingEnd,
    /// Something other than a `KEY[value]` tag or `;)`.
    ExpectedTag {
        /// The text from there on.
        found: String,
    },
    /// A tag's value has no closing `]`.
    UnclosedTag {
        /// The tag's key.
        key: String,
    },
    /// Text after the game's `;)`.
    TrailingText {
        /// The text after the game.
        found: String,
    },
    /// A tag that may appear once appears again.
    DuplicateTag {
        /// The tag's key.
        key: String,
    },
    /// `GM` names another game than Othello.
    NotOthello {
        /// The value of `GM`.
        game: String,
    },
    /// A tag's value is malformed.
    BadValue {
        /// The tag's key.
        key: String,
        /// The offending value or part of it.
        value: String,
        /// What was expected, as "is not …" completes it.
        expected: &'static str,
    },
    /// A `TI`, `TB` or `TW` clock is malformed.
    Clock {
        /// The tag's key.
        key: String,
        /// What is wrong.
        error: ParseClockError,
    },
    /// `RE` is malformed.
    Result(ParseResultError),
    /// A board size other than 4, 6 and 8 in `BO` or `TY`.
    UnsupportedSize {
        /// The tag's key.
        key: String,
        /// The size written.
        size: usize,
    },
    /// `TY` and `BO` give different board sizes.
    SizeMismatch {
        /// The size in `TY`.
        board_type: usize,
        /// The size in `BO`.
        board: usize,
    },
    /// `BO` does not hold size² squares and a side to move.
    BoardLength {
        /// The board's side, as written in `BO`.
        side: usize,
        /// The number of non-blank characters after the size.
        found: usize,
    },
    /// A square or the side to move in `BO` is not a board character.
    Board(ParsePositionError),
    /// A `B` or `W` tag is not a move text.
    BadMove {
        /// The move's number, counting the `B` and `W` tags from 1.
        number: usize,
        /// The whole tag, e.g. `B[Z9]`.
        item: String,
        /// What is wrong.
        error: ParseMoveTextError,
    },
    /// A move by the side not to move, when the side to move could play.
    WrongColor {
        /// The move's number, counting the `B` and `W` tags from 1.
        number: usize,
        /// The whole tag.
        item: String,
        /// The side that was to move.
        to_move: Color,
    },
    /// A move the rules do not allow.
    Illegal {
        /// The move's number, counting the `B` and `W` tags from 1.
        number: usize,
        /// The whole tag.
        item: String,
        /// Why it is illegal.
        error: IllegalMove,
    },
}

impl fmt::Display for ParseGgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseGgfError::MissingStart { found } if found.is_empty() => f.write_str("missing '(;' at the start"),
            ParseGgfError::MissingStart { found } => {
                write!(f, "missing '(;' at the start (found {})", Quoted(found))
            }
            ParseGgfError::MissingEnd => f.write_str("missing ';)' at the end of the game"),
            ParseGgfError::ExpectedTag { found } => {
                write!(f, "expected a tag KEY[value] or the end ';)', found {}", Quoted(found))
            }
            ParseGgfError::UnclosedTag { key } => {
                write!(f, "unclosed tag {} (no ']' follows)", Quoted(&format!("{key}[")))
            }
            ParseGgfError::TrailingText { found } => write!(f, "text after the game's end ';)': {}", Quoted(found)),
            ParseGgfError::DuplicateTag { key } => write!(f, "tag {key} appears twice"),
            ParseGgfError::NotOthello { game } => write!(f, "GM: {} is not Othello", Quoted(game)),
            ParseGgfError::BadValue { key, value, expected } => write!(f, "{key}: {} is not {expected}", Quoted(value)),
            ParseGgfError::Clock { key, error } => write!(f, "{key}: {error}"),
            ParseGgfError::Result(error) => write!(f, "RE: {error}"),
            ParseGgfError::UnsupportedSize { key, size } => {
                write!(f, "{key}: board size {size} is not supported (only 4, 6 and 8)")
            }
            ParseGgfError::SizeMismatch { board_type, board } => {
                write!(f, "TY says board size {board_type} but BO is size {board}")
            }
            ParseGgfError::BoardLength { side, found } => write!(
                f,
                "BO: size {side} needs {} squares then the side to move, found {found} characters",
                side * side
            ),
            ParseGgfError::Board(error) => write!(f, "BO: {error}"),
            ParseGgfError::BadMove { number, item, error } => write!(f, "move {number} ({item}): {error}"),
            ParseGgfError::WrongColor { number, item, to_move } => {
                write!(f, "move {number} ({item}): {to_move} is to move")
            }
            ParseGgfError::Illegal { number, item, error } => write!(f, "move {number} ({item}): {error}"),
        }
    }
}

impl std::error::Error for ParseGgfError {}

/// One `KEY[value]` tag as found in the text.
struct Tag<'a> {
    key: &'a str,
    value: &'a str,
}

/// The start of `text`, for error messages.
fn snippet(text: &str) -> String {
    text.chars().take(MAX_TOKEN_CHARS + 1).collect()
}

/// A tag as written, for error messages, its value [`clipped`].
fn tag_for_message(tag: &Tag<'_>) -> String {
    format!("{}[{}]", tag.key, clipped(tag.value))
}

/// Splits the first game off `text`: its tags, and the text after its `;)`.
fn scan_game(text: &str) -> Result<(Vec<Tag<'_>>, &str), ParseGgfError> {
    let text = text.trim_start();
    // GGS writes how many games follow (1, or 2 for a synchro pair) in front of them.
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let text =
        if digits > 0 && text[digits..].starts_with(char::is_whitespace) { text[digits..].trim_start() } else { text };
    let Some(mut rest) = text.strip_prefix("(;") else {
        return Err(ParseGgfError::MissingStart { found: snippet(text) });
    };
    let mut tags = Vec::new();
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix(";)") {
            return Ok((tags, after));
        }
        if rest.is_empty() {
            return Err(ParseGgfError::MissingEnd);
        }
        let key_len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
        let (key, after_key) = rest.split_at(key_len);
        let Some(body) = after_key.strip_prefix('[').filter(|_| !key.is_empty()) else {
            return Err(if after_key.is_empty() {
                ParseGgfError::MissingEnd
            } else {
                ParseGgfError::ExpectedTag { found: snippet(rest) }
            });
        };
        let Some(close) = body.find(']') else {
            return Err(ParseGgfError::UnclosedTag { key: key.to_string() });
        };
        tags.push(Tag { key, value: &body[..close] });
        rest = &body[close + 1..];
    }
}

/// Reads a board size, `key` naming the tag for errors.
fn parse_size(key: &str, text: &str) -> Result<BoardSize, ParseGgfError> {
    let side: usize = Some(text)
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| ParseGgfError::BadValue {
            key: key.to_string(),
            value: text.to_string(),
            expected: "a board size",
        })?;
    BoardSize::from_side(side).ok_or(ParseGgfError::UnsupportedSize { key: key.to_string(), size: side })
}

/// Reads `BO[<size> <squares> <side>]`.
fn parse_board(value: &str) -> Result<Position, ParseGgfError> {
    let value = value.trim_start();
    let size_end = value.find(char::is_whitespace).unwrap_or(value.len());
    let (size_text, rest) = value.split_at(size_end);
    let size = parse_size("BO", size_text)?;
    let chars: Vec<char> = rest.chars().filter(|c| !c.is_whitespace()).collect();
    let Some((&side, squares)) = chars.split_last().filter(|_| chars.len() == size.squares() as usize + 1) else {
        return Err(ParseGgfError::BoardLength { side: size.side(), found: chars.len() });
    };
    let side_to_move = side_char(side).ok_or(ParseGgfError::Board(ParsePositionError::BadSide(side)))?;
    parse_squares(squares, side_to_move).map_err(ParseGgfError::Board)
}

/// Reads `TY`: one board size with the GGS match-type letters around it (`s` synchro, `k` komi,
/// `a` anti, `b`/`w` colours, `r` and a number of random discs), e.g. `8`, `s8r20`, `8k`.
fn parse_board_type(value: &str) -> Result<BoardSize, ParseGgfError> {
    let text = value.trim();
    let bad = || ParseGgfError::BadValue {
        key: "TY".to_string(),
        value: value.to_string(),
        expected: "a board type (a size such as 8, with the letters s, k, a, b, w or rN)",
    };
    let bytes = text.as_bytes();
    let digits_end = |from: usize| from + bytes[from..].iter().take_while(|b| b.is_ascii_digit()).count();
    let mut size = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i].to_ascii_lowercase();
        if b.is_ascii_digit() {
            let end = digits_end(i);
            if size.replace(&text[i..end]).is_some() {
                return Err(bad());
            }
            i = end;
        } else if b == b'r' {
            let end = digits_end(i + 1);
            if end == i + 1 {
                return Err(bad());
            }
            i = end;
        } else if b"skabw".contains(&b) {
            i += 1;
        } else {
            return Err(bad());
        }
    }
    parse_size("TY", size.ok_or_else(bad)?)
}

/// Fills an empty slot, refusing a second value for the same tag.
fn set_once<T>(slot: &mut Option<T>, key: &str, value: T) -> Result<(), ParseGgfError> {
    if slot.replace(value).is_some() {
        return Err(ParseGgfError::DuplicateTag { key: key.to_ascii_uppercase() });
    }
    Ok(())
}

impl GgfGame {
    /// Reads one game, with an optional `1 ` in front; nothing but blanks may follow its `;)`.
    pub fn parse(text: &str) -> Result<GgfGame, ParseGgfError> {
        let (tags, rest) = scan_game(text)?;
        if !rest.trim().is_empty() {
            return Err(ParseGgfError::TrailingText { found: snippet(rest.trim_start()) });
        }
        GgfGame::from_tags(&tags)
    }

    /// Builds the game from its tags: the header first (`BO` may come anywhere), then the moves.
    fn from_tags(tags: &[Tag<'_>]) -> Result<GgfGame, ParseGgfError> {
        let mut game_name = None;
        let mut board = None;
        let mut board_type = None;
        let mut game = GgfGame::new(Position::initial());
        game.board_type = None;
        let mut items = Vec::new();
        for tag in tags {
            let (key, value) = (tag.key, tag.value);
            let clock = || value.parse::<Clock>().map_err(|error| ParseGgfError::Clock { key: key.to_string(), error });
            match key.to_ascii_uppercase().as_str() {
                "B" => items.push((Color::Black, tag)),
                "W" => items.push((Color::White, tag)),
                "GM" => {
                    set_once(&mut game_name, key, ())?;
                    if !value.trim().eq_ignore_ascii_case("othello") {
                        return Err(ParseGgfError::NotOthello { game: value.to_string() });
                    }
                }
                "PC" => set_once(&mut game.place, key, value.to_string())?,
                "DT" => set_once(&mut game.date, key, value.to_string())?,
                "PB" => set_once(&mut game.black_name, key, value.to_string())?,
                "PW" => set_once(&mut game.white_name, key, value.to_string())?,
                "RB" => set_once(&mut game.black_rating, key, value.to_string())?,
                "RW" => set_once(&mut game.white_rating, key, value.to_string())?,
                "TI" => set_once(&mut game.clock, key, clock()?)?,
                "TB" => set_once(&mut game.black_clock, key, clock()?)?,
                "TW" => set_once(&mut game.white_clock, key, clock()?)?,
                "RE" => set_once(&mut game.result, key, value.parse().map_err(ParseGgfError::Result)?)?,
                "TY" => {
                    set_once(&mut board_type, key, parse_board_type(value)?)?;
                    game.board_type = Some(value.to_string());
                }
                "BO" => set_once(&mut board, key, parse_board(value)?)?,
                _ => game.extra_tags.push((key.to_string(), value.to_string())),
            }
        }
        if let (Some(ty), Some(bo)) = (board_type, board)
            && ty != bo.size()
        {
            return Err(ParseGgfError::SizeMismatch { board_type: ty.side(), board: bo.size().side() });
        }
        let start = board.unwrap_or_else(|| Position::start(board_type.unwrap_or_default()));
        game.game = Game::new(start);
        for (i, &(color, tag)) in items.iter().enumerate() {
            let number = i + 1;
            let item = || tag_for_message(tag);
            let text: MoveText =
                tag.value.parse().map_err(|error| ParseGgfError::BadMove { number, item: item(), error })?;
            let to_move = game.game.position().side_to_move();
            if color != to_move {
                if !game.game.position().must_pass() {
                    return Err(ParseGgfError::WrongColor { number, item: item(), to_move });
                }
                // The writer left out a forced pass: put it back so that colours alternate.
                game.play(Move::Pass, None, None).map_err(|error| ParseGgfError::Illegal {
                    number,
                    item: item(),
                    error,
                })?;
            }
            game.play(text.mv, text.eval, text.time).map_err(|error| ParseGgfError::Illegal {
                number,
                item: item(),
                error,
            })?;
        }
        Ok(game)
    }
}

impl FromStr for GgfGame {
    type Err = ParseGgfError;

    /// See [`GgfGame::parse`].
    fn from_str(text: &str) -> Result<GgfGame, ParseGgfError> {
        GgfGame::parse(text)
    }
}

/// Reads a file of games, one a line (as GGS archives and NTest's test games are written): one
/// result per game, in order. Blank lines are skipped; a line may start with a count (`1 `, or
/// `2 ` before a synchro pair of games, both of which are read). After an error the rest of that
/// line is skipped.
pub fn parse_ggf_games(text: &str) -> Vec<Result<GgfGame, ParseGgfError>> {
    let mut games = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut rest = line;
        while !rest.trim().is_empty() {
            match scan_game(rest) {
                Ok((tags, after)) => {
                    games.push(GgfGame::from_tags(&tags));
                    rest = after;
                }
                Err(error) => {
                    games.push(Err(error));
                    break;
                }
            }
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ggf::testing::{BLACK_MUST_PASS, START_BO, error, game, mv, secs};
    use crate::formats::ggf::{Clock, GgfMove, GgfResult};
    use proptest::prelude::*;

    #[test]
    fn nboard_example() {
        let text = format!(
            "(;GM[Othello]PC[NBoard]DT[2014-02-08 17:58:38 GMT]PB[Human]PW[Edax]RE[?]TI[15:00]TY[8]{START_BO}B[F5//2.449]W[F6/-1.00/0.01];)"
        );
        let g = game(&text);
        assert_eq!(g.place(), Some("NBoard"));
        assert_eq!(g.date(), Some("2014-02-08 17:58:38 GMT"));
        assert_eq!(g.player(Color::Black), Some("Human"));
        assert_eq!(g.player(Color::White), Some("Edax"));
        assert_eq!(g.result(), Some(GgfResult::Unknown));
        assert_eq!(g.clock(Color::Black), Some(Clock::new(secs(900))));
        assert_eq!(g.board_type(), Some("8"));
        assert_eq!(g.start(), Position::initial());
        assert_eq!(
            g.moves(),
            &[
                GgfMove { color: Color::Black, mv: mv("f5"), eval: None, time: Some(2.449) },
                GgfMove { color: Color::White, mv: mv("f6"), eval: Some(-1.0), time: Some(0.01) },
            ]
        );
        assert_eq!(g.position().side_to_move(), Color::Black);
        assert_eq!(
            g.to_string(),
            format!(
                "(;GM[Othello]PC[NBoard]DT[2014-02-08 17:58:38 GMT]PB[Human]PW[Edax]RE[?]TI[15:00]TY[8]{START_BO}B[F5//2.449]W[F6/-1.00/0.01];)"
            )
        );
        assert_eq!(format!("1 {text}").parse::<GgfGame>(), Ok(g));
        // The example as first given ends with B[PA], but Black can play there.
        assert_eq!(error(&text.replace(";)", "B[PA];)")), "move 3 (B[PA]): illegal move pass: a legal move exists");
    }

    #[test]
    fn ggs_board_with_rows_apart() {
        let g = game(
            "1 (;GM[Othello]PC[GGS/os]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[d3//0.01]W[c5//0.01];)",
        );
        assert_eq!(g.start(), Position::initial());
        assert_eq!(g.moves().len(), 2);
        // Other square characters, and the side written x.
        let g2 = game(
            "(;BO[8 ........ ........ ........ ...ox... ...xo... ........ ________ ________ x]B[d3//0.01]W[c5//0.01];)",
        );
        assert_eq!(g2.start(), Position::initial());
        assert_eq!(g2.position(), g.position());
    }

    #[test]
    fn every_pass_spelling() {
        for pass in ["PA", "pa", "Pa", "P", "p", "PAS", "pass", "PASS", "--", " PA "] {
            let g = game(&format!("(;{BLACK_MUST_PASS}B[{pass}]W[d1];)"));
            assert_eq!(g.moves()[0].mv, Move::Pass, "{pass}");
            assert_eq!(g.moves()[1].mv, mv("d1"));
            assert!(g.position().is_game_over());
            assert!(g.to_string().ends_with("B[PA]W[D1];)"));
        }
        assert!(error(&format!("(;{BLACK_MUST_PASS}B[passe];)")).contains("'passe' is not a move"));
    }

    #[test]
    fn a_trailing_pass_is_kept() {
        let g = game(&format!("(;{BLACK_MUST_PASS}B[PA//1.5];)"));
        assert_eq!(g.moves(), &[GgfMove { color: Color::Black, mv: Move::Pass, eval: None, time: Some(1.5) }]);
        assert_eq!(g.position().side_to_move(), Color::White);
        assert_eq!(g.game().moves(), &[Move::Pass]);
        let written = g.to_string();
        assert!(written.ends_with("B[PA//1.50];)"), "{written}");
        assert_eq!(game(&written), g);
    }

    #[test]
    fn a_missing_forced_pass_is_inserted() {
        let g = game(&format!("(;{BLACK_MUST_PASS}W[d1/3/4];)"));
        assert_eq!(
            g.moves(),
            &[
                GgfMove { color: Color::Black, mv: Move::Pass, eval: None, time: None },
                GgfMove { color: Color::White, mv: mv("d1"), eval: Some(3.0), time: Some(4.0) },
            ]
        );
        assert!(g.to_string().ends_with("B[PA]W[D1/3.00/4.00];)"));
    }

    #[test]
    fn moves_by_the_wrong_colour_are_refused() {
        assert_eq!(error(&format!("(;{START_BO}W[f5];)")), "move 1 (W[f5]): black is to move");
        assert_eq!(error(&format!("(;{START_BO}B[f5]B[d6];)")), "move 2 (B[d6]): white is to move");
        // After the game's end nobody may move, not even by a pass.
        let over = format!("(;{BLACK_MUST_PASS}B[PA]W[d1]");
        assert!(error(&format!("{over}B[e1];)")).starts_with("move 3 (B[e1]): illegal move e1"));
        assert_eq!(error(&format!("{over}W[e1];)")), "move 3 (W[e1]): black is to move");
        assert_eq!(error(&format!("{over}B[PA];)")), "move 3 (B[PA]): illegal move pass: the game is over");
    }

    #[test]
    fn illegal_and_malformed_moves_are_refused() {
        assert_eq!(error(&format!("(;{START_BO}B[a1];)")), "move 1 (B[a1]): illegal move a1: it flips no disc");
        assert_eq!(error(&format!("(;{START_BO}B[f5]W[Z9];)")), "move 2 (W[Z9]): 'Z9' is not a move");
        assert_eq!(error(&format!("(;{START_BO}B[f5/x];)")), "move 1 (B[f5/x]): 'x' is not an evaluation");
        assert_eq!(error(&format!("(;{START_BO}B[f5//-1];)")), "move 1 (B[f5//-1]): '-1' is not a time in seconds");
        assert!(error(&format!("(;{START_BO}B[f5/1/2/3];)")).contains("has more parts"));
        assert!(error(&format!("(;{START_BO}B[f5/1e5];)")).contains("'1e5' is not an evaluation"));
        assert!(error(&format!("(;{START_BO}B[f5/inf];)")).contains("'inf' is not an evaluation"));
        assert!(error(&format!("(;{START_BO}B[];)")).contains("'' is not a move"));
        // A 6x6 board has no g1.
        assert!(error("(;TY[6]B[g1];)").starts_with("move 1 (B[g1]): illegal move g1"));
    }

    #[test]
    fn small_boards() {
        // 4x4: the standard start, two moves, written back.
        let g = game("(;GM[Othello]TY[4]BO[4 ---- -O*- -*O- ---- *]B[a2]W[a1];)");
        assert_eq!(g.start(), Position::start(BoardSize::Four));
        assert_eq!(g.game().moves(), &[mv("a2"), mv("a1")]);
        assert_eq!(g.to_string(), "(;GM[Othello]TY[4]BO[4 -----O*--*O----- *]B[A2]W[A1];)");
        // 6x6 from TY alone.
        let g = game("(;TY[6]B[c2]W[b2];)");
        assert_eq!(g.start(), Position::start(BoardSize::Six));
        assert_eq!(g.moves().len(), 2);
        assert_eq!(game(&g.to_string()), g);
        assert!(g.to_string().contains("BO[6 --------------O*----*O-------------- *]"));
        // GGS match types around the size.
        assert_eq!(game("(;TY[s8r20];)").start(), Position::initial());
        assert_eq!(game("(;TY[6ka];)").start().size(), BoardSize::Six);
        assert_eq!(game("(;GM[othello];)").start(), Position::initial());
    }

    #[test]
    fn unsupported_and_inconsistent_boards() {
        let ten = format!("(;BO[10 {} *];)", "-".repeat(100));
        assert_eq!(error(&ten), "BO: board size 10 is not supported (only 4, 6 and 8)");
        assert_eq!(error("(;TY[10];)"), "TY: board size 10 is not supported (only 4, 6 and 8)");
        assert_eq!(error(&format!("(;TY[6]{START_BO};)")), "TY says board size 6 but BO is size 8");
        assert!(error("(;TY[8x];)").starts_with("TY: '8x' is not a board type"));
        assert!(error("(;TY[r];)").starts_with("TY: 'r' is not a board type"));
        assert!(error("(;TY[8r4r];)").contains("is not a board type"));
        assert!(error("(;TY[s];)").contains("is not a board type"));
        assert!(error("(;TY[8 8];)").contains("is not a board type"));
        assert_eq!(error("(;BO[8 ---- *];)"), "BO: size 8 needs 64 squares then the side to move, found 5 characters");
        assert!(error("(;BO[x -----O*--*O----- *];)").starts_with("BO: 'x' is not a board size"));
        assert!(error("(;BO[4 -----O*--*Oq---- *];)").starts_with("BO: 'q' at d3 is not a square"));
        assert!(error("(;BO[4 -----O*--*O----- Z];)").starts_with("BO: 'Z' is not a side to move"));
        assert!(error("(;BO[99999999999999999999999 *];)").contains("is not a board size"));
    }

    #[test]
    fn unknown_tags_are_kept_and_written_back() {
        let g = game(&format!("(;GM[Othello]XX[hello]{START_BO}C[a comment]B[f5]XX[again];)"));
        let tags: Vec<(&str, &str)> = g.extra_tags().iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(tags, [("XX", "hello"), ("C", "a comment"), ("XX", "again")]);
        let written = g.to_string();
        assert!(written.contains("XX[hello]C[a comment]XX[again]BO["), "{written}");
        assert_eq!(game(&written), g);
    }

    #[test]
    fn structure_errors() {
        assert_eq!(error(""), "missing '(;' at the start");
        assert_eq!(error("GM[Othello]"), "missing '(;' at the start (found 'GM[Othello]')");
        assert_eq!(error("(;GM[Othello]"), "missing ';)' at the end of the game");
        assert_eq!(error("(;GM[Othello]PB"), "missing ';)' at the end of the game");
        assert_eq!(error("(;GM[Othello]PB[Saio;)"), "unclosed tag 'PB[' (no ']' follows)");
        assert_eq!(error("(;GM[Othello] 12[x];)"), "expected a tag KEY[value] or the end ';)', found '12[x];)'");
        assert_eq!(error("(;GM[Othello]PB x;)"), "expected a tag KEY[value] or the end ';)', found 'PB x;)'");
        assert_eq!(error("(;GM[Othello];) x"), "text after the game's end ';)': 'x'");
        assert_eq!(error("(;PB[a]PB[b];)"), "tag PB appears twice");
        assert_eq!(error(&format!("(;{START_BO}{START_BO};)")), "tag BO appears twice");
        assert_eq!(error("(;GM[Chess];)"), "GM: 'Chess' is not Othello");
        // Long or multi-line tokens stay one short line.
        let long = error(&format!("(;GM[{}\n];)", "x".repeat(100)));
        assert!(!long.contains('\n') && long.chars().count() < 110, "{long}");
        let long = error(&format!("(;B[{}\n];)", "x".repeat(100)));
        assert!(!long.contains('\n') && long.chars().count() < 200, "{long}");
        assert!(long.starts_with("move 1 (B[xxxx") && long.contains("…]):"), "{long}");
    }

    #[test]
    fn whitespace_between_tags_and_prefixes() {
        let g = game(&format!("  2 (; GM[Othello]\t{START_BO}\n B[f5] ;)  \n"));
        assert_eq!(g.moves().len(), 1);
        assert!(GgfGame::parse("1(;GM[Othello];)").is_err());
    }

    #[test]
    fn files_of_games() {
        let one = format!("(;{START_BO}B[f5];)");
        let two = format!("(;{START_BO}B[d3];)");
        let text = format!("1 {one}\n\n2 {one} {two}\n(;B[a1];)\n1 {two}\n");
        let games = parse_ggf_games(&text);
        assert_eq!(games.len(), 5);
        assert_eq!(games[0], Ok(game(&one)));
        assert_eq!(games[1], Ok(game(&one)));
        assert_eq!(games[2], Ok(game(&two)));
        assert!(games[3].is_err());
        assert_eq!(games[4], Ok(game(&two)));
    }

    proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC*") {
            let _ = GgfGame::parse(&text);
            let _ = parse_ggf_games(&text);
        }

        #[test]
        fn tag_soup_never_panics(text in "(1 )?\\(;([A-Z]{1,2}\\[[-*Oo0-9a-hpPA/:. ]{0,12}\\]){0,12};?\\)?") {
            if let Ok(g) = GgfGame::parse(&text) {
                prop_assert_eq!(GgfGame::parse(&g.to_string()), Ok(g));
            }
        }

    }
}
