//! The server's messages: lines gathered into messages ([`Framer`]) and each read into a
//! [`Message`] ([`parse_message`]).

use super::{GameId, GameType, GgsClock};
use crate::board::{BoardSize, Color, Position};
use crate::formats::ggf::MoveText;

/// A player's rating as the server prints it.
pub type Rating = f64;

/// Gathers the server's lines into messages: a message is a first line and the lines after it
/// that start with `|`; `READY`, `ALERT` or the next first line ends it. The login and password
/// prompts, which no `READY` follows, are messages of their own, and so is every `READY` (the
/// server's answer to a command, which tells a client that its login went through).
#[derive(Debug, Default)]
pub struct Framer {
    current: Vec<String>,
}

impl Framer {
    /// A framer with nothing gathered.
    pub fn new() -> Framer {
        Framer::default()
    }

    /// Takes one line (without its line ending); returns the messages it completes.
    pub fn push(&mut self, line: &str) -> Vec<Vec<String>> {
        let line: String = line.chars().filter(|&c| c != '\u{7}' && c != '\r').collect();
        let mut done = Vec::new();
        let trimmed = line.trim();
        if trimmed == "READY" || trimmed == "ALERT" {
            done.extend(self.flush());
            done.push(vec!["READY".to_string()]);
        } else if let Some(rest) = line.strip_prefix('|') {
            if !self.current.is_empty() {
                self.current.push(rest.to_string());
            }
        } else if !trimmed.is_empty() {
            done.extend(self.flush());
            self.current.push(line.trim_end().to_string());
            if is_prompt(trimmed) {
                done.extend(self.flush());
            }
        }
        done
    }

    /// The message gathered so far, if any (at the end of input, or when the server goes quiet
    /// after a prompt written without its line ending).
    pub fn flush(&mut self) -> Option<Vec<String>> {
        (!self.current.is_empty()).then(|| std::mem::take(&mut self.current))
    }
}

/// Whether `line` is the login or the password prompt.
pub fn is_prompt(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.contains("enter login") || lower.contains("enter your password")
}

/// A match request (an "ask"), to or from this client.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// Its id (`.8`), to accept or decline it by.
    pub id: String,
    /// Who asks, and their rating.
    pub asker: String,
    /// The asker's rating.
    pub asker_rating: Rating,
    /// The asker's clock as set.
    pub clock: GgsClock,
    /// The opponent's clock, when it differs.
    pub opponent_clock: Option<GgsClock>,
    /// The game type (`None` if the server wrote one this client does not know).
    pub game_type: Option<GameType>,
    /// The game type as written.
    pub type_text: String,
    /// Rated, unrated, a tournament game, or an adjourned game to resume.
    pub kind: RequestKind,
    /// Whom it is for (`None`: anyone).
    pub opponent: Option<String>,
    /// For a game to resume, its stored id.
    pub stored: Option<String>,
}

/// What a request is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestKind {
    /// A rated game (`R`).
    Rated,
    /// An unrated one (`U`).
    Unrated,
    /// A tournament game (`T`).
    Tournament,
    /// An adjourned game to resume (`S`).
    Stored,
}

/// A match that starts.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchStart {
    /// The match (`.5`).
    pub id: GameId,
    /// The two players in the server's order (not by colour), with their ratings.
    pub players: [(String, Rating); 2],
    /// Its type.
    pub game_type: Option<GameType>,
    /// Whether it is rated (or a tournament game).
    pub rated: bool,
}

/// How a match ended.
#[derive(Clone, Debug, PartialEq)]
pub enum MatchOutcome {
    /// A score, from the first player's side (the average of the boards in synchro).
    Score(f64),
    /// Adjourned: this player left; the stored id if the game was kept.
    Left(String),
    /// Aborted by both players.
    Aborted,
    /// Something else.
    Other(String),
}

/// A match that ends.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchEnd {
    /// The match.
    pub id: GameId,
    /// The two players in the server's order.
    pub players: [(String, Rating); 2],
    /// The result.
    pub outcome: MatchOutcome,
    /// The archive id of a rated game kept (`.82720`).
    pub archive: Option<String>,
}

/// A player's line of a board: name, rating, colour and clock.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerLine {
    /// The login.
    pub name: String,
    /// The rating.
    pub rating: Rating,
    /// The colour (`None` before a komi game's bids are in).
    pub color: Option<Color>,
    /// The clock.
    pub clock: GgsClock,
}

/// One move of a board's list: its number, the move with eval and time as the mover sent them.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    /// From 1.
    pub number: u32,
    /// The move.
    pub text: MoveText,
}

/// A board as `join` or `update` shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    /// The game.
    pub id: GameId,
    /// Its type.
    pub game_type: Option<GameType>,
    /// Moves played so far.
    pub move_count: u32,
    /// The moves the message lists (all of them in a `join` with moves, the last in an
    /// `update`).
    pub moves: Vec<MoveRecord>,
    /// The start position, when the message shows it (a `join` with moves, or with none).
    pub start: Option<Position>,
    /// The current position.
    pub position: Position,
    /// Black's line, then White's (`None` for a colour not yet known in komi).
    pub players: Vec<PlayerLine>,
}

impl Board {
    /// The line of the player of `color`.
    pub fn player(&self, color: Color) -> Option<&PlayerLine> {
        self.players.iter().find(|p| p.color == Some(color))
    }

    /// The colour `login` plays, if they play.
    pub fn color_of(&self, login: &str) -> Option<Color> {
        self.players.iter().find(|p| p.name.eq_ignore_ascii_case(login)).and_then(|p| p.color)
    }
}

/// A message of the server, typed.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// `READY` (or `ALERT`): the server is done answering.
    Ready,
    /// `Enter login`.
    LoginPrompt,
    /// `Enter your password`.
    PasswordPrompt,
    /// The server refused the login or the password (`: ERR ...`).
    LoginError(String),
    /// A request appears.
    Request(Box<Request>),
    /// A request is gone (accepted, declined, withdrawn).
    RequestGone(String),
    /// A match starts.
    MatchStart(Box<MatchStart>),
    /// A match ends.
    MatchEnd(Box<MatchEnd>),
    /// A board, in full (`join`: at the start, on watching, after a resume).
    Join(Box<Board>),
    /// A board after a move.
    Update(Box<Board>),
    /// A synchro board is over: the score from the first player's side, or why it ended.
    BoardEnd {
        /// The board.
        id: GameId,
        /// The player the score is for (the first one named).
        first: Option<String>,
        /// The score, if it has one.
        score: Option<f64>,
        /// The text after the players.
        text: String,
    },
    /// A game refused a move or a command (`/os: error .5 illegal move`).
    GameError {
        /// The game.
        id: GameId,
        /// Why.
        text: String,
    },
    /// A command was refused (`/os: ERR ...`).
    CommandError(String),
    /// A player ran out of main time (`fatal`: out of the extension as well).
    Timeout {
        /// The game.
        id: GameId,
        /// Who.
        login: String,
        /// Whether it is the second, losing, timeout.
        fatal: bool,
    },
    /// The list of our adjourned games (`tell /os stored`): their ids.
    Stored(Vec<String>),
    /// A message from the tournament director `/td`.
    Director(String),
    /// Anything else, or a message that could not be read: the client logs it.
    Other(String),
}

/// Reads one message (its first line, then its `|` lines without the `|`).
pub fn parse_message(lines: &[String]) -> Message {
    let Some(first) = lines.first() else { return Message::Other(String::new()) };
    let head = first.trim();
    if lines.len() == 1 && head == "READY" {
        return Message::Ready;
    }
    if is_prompt(head) {
        return if head.to_ascii_lowercase().contains("password") {
            Message::PasswordPrompt
        } else {
            Message::LoginPrompt
        };
    }
    if let Some(rest) = head.strip_prefix(": ERR") {
        return Message::LoginError(rest.trim().to_string());
    }
    if let Some(rest) = head.strip_prefix("/td:") {
        return Message::Director(rest.trim().to_string());
    }
    let Some(body) = head.strip_prefix("/os:") else { return Message::Other(head.to_string()) };
    let body = body.trim();
    let tokens: Vec<&str> = body.split_whitespace().collect();
    let parsed = match tokens.as_slice() {
        ["+", "match", rest @ ..] => match_start(rest).map(|m| Message::MatchStart(Box::new(m))),
        ["-", "match", rest @ ..] => match_end(rest).map(|m| Message::MatchEnd(Box::new(m))),
        ["+", id, rest @ ..] if id.starts_with('.') => request(id, rest).map(|r| Message::Request(Box::new(r))),
        ["-", id, ..] if id.starts_with('.') => Some(Message::RequestGone(id.to_string())),
        ["join", id, kind, ..] => board(id, kind, &lines[1..]).map(|b| Message::Join(Box::new(b))),
        ["update", id, kind, ..] => board(id, kind, &lines[1..]).map(|b| Message::Update(Box::new(b))),
        ["end", id, rest @ ..] => board_end(id, rest),
        ["stored", ..] => Some(Message::Stored(
            lines[1..]
                .iter()
                .filter_map(|l| l.split_whitespace().next())
                .filter(|t| t.len() > 1 && t.starts_with('.') && t[1..].bytes().all(|b| b.is_ascii_digit()))
                .map(str::to_string)
                .collect(),
        )),
        ["error", id, rest @ ..] => id.parse().ok().map(|id| Message::GameError { id, text: rest.join(" ") }),
        ["ERR", ..] => Some(Message::CommandError(body["ERR".len()..].trim().to_string())),
        [kind @ ("timeout" | "fatal-timeout"), id, login, ..] => {
            id.parse().ok().map(|id| Message::Timeout { id, login: login.to_string(), fatal: *kind == "fatal-timeout" })
        }
        _ => None,
    };
    parsed.unwrap_or_else(|| Message::Other(lines.join(" | ")))
}

fn rating(token: &str) -> Option<Rating> {
    token.parse::<f64>().ok().filter(|r| r.is_finite())
}

fn match_players(tokens: &[&str]) -> Option<(GameId, [(String, Rating); 2])> {
    let [id, r0, n0, r1, n1, ..] = tokens else { return None };
    Some((id.parse().ok()?, [(n0.to_string(), rating(r0)?), (n1.to_string(), rating(r1)?)]))
}

fn match_start(tokens: &[&str]) -> Option<MatchStart> {
    let (id, players) = match_players(tokens)?;
    let game_type = tokens.get(5).and_then(|t| t.parse().ok());
    let rated = matches!(tokens.get(6), Some(&"R") | Some(&"T"));
    Some(MatchStart { id, players, game_type, rated })
}

fn match_end(tokens: &[&str]) -> Option<MatchEnd> {
    let (id, players) = match_players(tokens)?;
    let rest = tokens.get(7..).unwrap_or_default();
    let archive = rest.last().filter(|t| t.starts_with('.')).map(|t| t.to_string());
    let outcome = match rest {
        [score, ..] if score.parse::<f64>().is_ok() => MatchOutcome::Score(score.parse().unwrap_or(0.0)),
        [who, "left", ..] => MatchOutcome::Left(who.to_string()),
        ["aborted", ..] => MatchOutcome::Aborted,
        other => MatchOutcome::Other(other.join(" ")),
    };
    Some(MatchEnd { id, players, outcome, archive })
}

fn request(id: &str, tokens: &[&str]) -> Option<Request> {
    let [asker_rating, asker, clock, type_text, kind, _opponent_rating, opponent, rest @ ..] = tokens else {
        return None;
    };
    let kind = match *kind {
        "R" => RequestKind::Rated,
        "U" => RequestKind::Unrated,
        "T" => RequestKind::Tournament,
        "S" => RequestKind::Stored,
        _ => return None,
    };
    let opponent_clock = rest.first().and_then(|c| c.parse().ok());
    let stored = rest.iter().find(|t| t.starts_with('.')).map(|t| t.to_string());
    Some(Request {
        id: id.to_string(),
        asker: asker.to_string(),
        asker_rating: rating(asker_rating)?,
        clock: clock.parse().ok()?,
        opponent_clock,
        game_type: type_text.parse().ok(),
        type_text: type_text.to_string(),
        kind,
        opponent: (*opponent != "*").then(|| opponent.to_string()),
        stored,
    })
}

fn board_end(id: &str, tokens: &[&str]) -> Option<Message> {
    let id: GameId = id.parse().ok()?;
    // `( alice vs. bob ) +12.00`, or the score alone.
    if tokens.first() != Some(&"(") {
        let score = tokens.first().and_then(|t| t.parse::<f64>().ok());
        return Some(Message::BoardEnd { id, first: None, score, text: tokens.join(" ") });
    }
    let close = tokens.iter().position(|t| *t == ")")?;
    let text = tokens[close + 1..].join(" ");
    let score = tokens.get(close + 1).and_then(|t| t.parse::<f64>().ok());
    let first = match tokens {
        ["(", name, ..] if close > 1 => Some(name.to_string()),
        _ => None,
    };
    Some(Message::BoardEnd { id, first, score, text })
}

/// A player's line: `alice    (1720.0 *) 00:56,1:0//02:00,1:0` (a rating below 1000 is written
/// `( 999.5 *)`).
fn player_line(line: &str) -> Option<PlayerLine> {
    let open = line.find('(')?;
    let close = line[open..].find(')')? + open;
    let name = line[..open].trim();
    let inside: Vec<&str> = line[open + 1..close].split_whitespace().collect();
    let [rating_text, color] = inside.as_slice() else { return None };
    let color = match *color {
        "*" => Some(Color::Black),
        "O" => Some(Color::White),
        "?" => None,
        _ => return None,
    };
    let clock = line[close + 1..].trim().parse().ok()?;
    if name.is_empty() || name.contains(char::is_whitespace) {
        return None;
    }
    Some(PlayerLine { name: name.to_string(), rating: rating(rating_text)?, color, clock })
}

/// A board row: ` 4 - - - O * - - - 4`.
fn board_row(line: &str) -> Option<(usize, [Option<Color>; 8])> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let [first, cells @ .., last] = tokens.as_slice() else { return None };
    let row: usize = first.parse().ok()?;
    if cells.len() != 8 || first != last || !(1..=8).contains(&row) {
        return None;
    }
    let mut out = [None; 8];
    for (cell, token) in out.iter_mut().zip(cells) {
        *cell = match *token {
            "*" => Some(Color::Black),
            "O" => Some(Color::White),
            "-" => None,
            _ => return None,
        };
    }
    Some((row, out))
}

/// A move line: `  1: f5//3.47` (`  0: PASS` stands for no move yet and is skipped).
fn move_line(line: &str) -> Option<Option<MoveRecord>> {
    let (number, text) = line.trim().split_once(':')?;
    let number: u32 = number.trim().parse().ok()?;
    let text = text.trim();
    if number == 0 {
        return Some(None);
    }
    let text: MoveText = text.parse().ok()?;
    Some(Some(MoveRecord { number, text }))
}

/// The board block of a `join` or an `update`: every line is classified; of the boards it shows,
/// the last is the current one and, if there are two, the first is the start.
fn board(id: &str, kind: &str, lines: &[String]) -> Option<Board> {
    let id: GameId = id.parse().ok()?;
    let mut move_count = None;
    let mut moves = Vec::new();
    let mut players: Vec<PlayerLine> = Vec::new();
    let mut boards: Vec<Position> = Vec::new();
    let mut rows: Vec<[Option<Color>; 8]> = Vec::new();
    for line in lines {
        let text = line.trim();
        if let Some(n) = text.strip_suffix("move(s)") {
            move_count = n.trim().parse::<u32>().ok();
        } else if let Some((row, cells)) = board_row(line) {
            if row == 1 {
                rows.clear();
            }
            if row == rows.len() + 1 {
                rows.push(cells);
            }
        } else if let Some(side) = text.strip_suffix("to move") {
            let side = match side.trim() {
                "*" => Color::Black,
                "O" => Color::White,
                _ => return None,
            };
            if rows.len() != 8 {
                return None;
            }
            let (mut black, mut white) = (0u64, 0u64);
            for (r, cells) in rows.iter().enumerate() {
                for (c, cell) in cells.iter().enumerate() {
                    let bit = 1u64 << (r * 8 + c);
                    match cell {
                        Some(Color::Black) => black |= bit,
                        Some(Color::White) => white |= bit,
                        None => {}
                    }
                }
            }
            boards.push(Position::from_discs(black, white, side, BoardSize::Eight).ok()?);
            rows.clear();
        } else if let Some(record) = move_line(line) {
            moves.extend(record);
        } else if let Some(player) = player_line(line) {
            players.push(player);
        }
    }
    let position = *boards.last()?;
    // The current players' lines are the last two (a join with moves shows them as set first).
    let players = players.split_off(players.len().saturating_sub(2));
    let move_count = move_count.or_else(|| moves.last().map(|m| m.number)).unwrap_or(0);
    let start = match boards.len() {
        2.. => Some(boards[0]),
        _ if move_count == 0 => Some(position),
        _ => None,
    };
    Some(Board { id, game_type: kind.parse().ok(), move_count, moves, start, position, players })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use std::time::Duration;

    fn messages(text: &str) -> Vec<Message> {
        let mut framer = Framer::new();
        let mut out: Vec<Message> = text.lines().flat_map(|l| framer.push(l)).map(|m| parse_message(&m)).collect();
        out.extend(framer.flush().map(|m| parse_message(&m)));
        out.retain(|m| *m != Message::Ready);
        out
    }

    /// A session as the server writes it (the shapes of a capture of a real server's session).
    const SESSION: &str = "\
: Enter login (yours, or one you'd like to use).\r
: Enter your password.\r
READY\r
\r
/os: +   .8 1720.0 alice    01:00//02:00       8b U 1720.0 bob\r
READY\r
\r
/os: + match .5 1720 alice 1720 bob 8b U \r
READY\r
\r
/os: join .5 8b K?\r
|0 move(s)\r
|  0: PASS\r
|alice    (1720.0 *) 00:59,0:0//02:00,0:0\r
|bob      (1720.0 O) 01:00,0:0//02:00,0:0\r
|\r
|   A B C D E F G H\r
| 1 - - - - - - - - 1 \r
| 2 - - - - - - - - 2 \r
| 3 - - - - - - - - 3 \r
| 4 - - - O * - - - 4 \r
| 5 - - - * O - - - 5 \r
| 6 - - - - - - - - 6 \r
| 7 - - - - - - - - 7 \r
| 8 - - - - - - - - 8 \r
|   A B C D E F G H\r
|\r
|* to move\r
READY\r
\r
/os: -   .8 1720.0 alice    01:00//02:00       8b U 1720.0 bob\r
READY\r
\r
/os: update .5 8b K?\r
|  1: f5//3.47\r
|alice    (1720.0 *) 00:56,1:0//02:00,1:0\r
|bob      (1720.0 O) 01:00,0:0//02:00,0:0\r
|\r
|   A B C D E F G H\r
| 1 - - - - - - - - 1 \r
| 2 - - - - - - - - 2 \r
| 3 - - - - - - - - 3 \r
| 4 - - - O * - - - 4 \r
| 5 - - - * * * - - 5 \r
| 6 - - - - - - - - 6 \r
| 7 - - - - - - - - 7 \r
| 8 - - - - - - - - 8 \r
|   A B C D E F G H\r
|\r
|O to move\r
READY\r
\r
/os: .5 A 1720 bob: good game\r
READY\r
\r
/os: \u{7}- match .5 1720 alice 1720 bob 8b U -64.00\r
READY\r
";

    #[test]
    fn a_session_reads_into_its_messages() {
        let m = messages(SESSION);
        assert_eq!(m[0], Message::LoginPrompt);
        assert_eq!(m[1], Message::PasswordPrompt);
        let Message::Request(r) = &m[2] else { panic!("{:?}", m[2]) };
        assert_eq!((r.id.as_str(), r.asker.as_str(), r.opponent.as_deref()), (".8", "alice", Some("bob")));
        assert_eq!(
            (r.kind, r.clock.left, r.game_type.map(|t| t.to_string())),
            (RequestKind::Unrated, Duration::from_secs(60), Some("8b".into()))
        );
        let Message::MatchStart(s) = &m[3] else { panic!("{:?}", m[3]) };
        assert_eq!((s.id.to_string(), s.players[0].0.as_str(), s.rated), (".5".into(), "alice", false));
        let Message::Join(j) = &m[4] else { panic!("{:?}", m[4]) };
        assert_eq!((j.move_count, j.moves.len()), (0, 0));
        assert_eq!(j.position, Position::initial());
        assert_eq!(j.start, Some(Position::initial()));
        assert_eq!(j.color_of("alice"), Some(Color::Black));
        assert_eq!(j.player(Color::Black).unwrap().clock.left, Duration::from_secs(59));
        assert_eq!(m[5], Message::RequestGone(".8".into()));
        let Message::Update(u) = &m[6] else { panic!("{:?}", m[6]) };
        assert_eq!(u.move_count, 1);
        assert_eq!(u.moves[0].text.mv, Move::Play("f5".parse().unwrap()));
        assert_eq!(u.moves[0].text.time, Some(3.47));
        assert_eq!(u.position, Position::initial().play("f5".parse().unwrap()));
        assert!(matches!(&m[7], Message::Other(t) if t.contains("good game")));
        let Message::MatchEnd(e) = &m[8] else { panic!("{:?}", m[8]) };
        assert_eq!((e.outcome.clone(), e.archive.clone()), (MatchOutcome::Score(-64.0), None));
        assert_eq!(m.len(), 9);
    }

    #[test]
    fn a_join_with_moves_gives_the_start_and_the_current_board() {
        let text = "\
/os: join .45.0 s8r14 K?
|2 move(s)
|nyanyan  (2658.9 *) 01:00//00:30
|egrcd    ( 985.8 O) 01:00//00:30
|
| 1 - - - - - - - - 1
| 2 - - - - - - - - 2
| 3 - - - - - - - - 3
| 4 - - - O * - - - 4
| 5 - - - * O - - - 5
| 6 - - - - - - - - 6
| 7 - - - - - - - - 7
| 8 - - - - - - - - 8
|
|* to move
|  1: F5/8.00/3.71
|  2: d6/-9.00/9.08
|nyanyan  (2658.9 *) 00:07,12:0//00:30,12:0
|egrcd    ( 985.8 O) 00:16,12:0//00:30,12:0
|
| 1 - - - - - - - - 1
| 2 - - - - - - - - 2
| 3 - - - - - - - - 3
| 4 - - - O * - - - 4
| 5 - - - O * * - - 5
| 6 - - - O - - - - 6
| 7 - - - - - - - - 7
| 8 - - - - - - - - 8
|
|* to move
READY";
        let m = messages(text);
        let Message::Join(j) = &m[0] else { panic!("{m:?}") };
        assert_eq!(j.id.to_string(), ".45.0");
        assert_eq!(j.start, Some(Position::initial()));
        let after = Position::initial().play("f5".parse().unwrap()).play("d6".parse().unwrap());
        assert_eq!(j.position, after);
        assert_eq!(j.moves.iter().map(|m| m.number).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(j.players.len(), 2);
        assert_eq!(j.player(Color::White).unwrap().rating, 985.8);
        assert_eq!(j.player(Color::Black).unwrap().clock.left, Duration::from_secs(7));
    }

    #[test]
    fn ends_errors_timeouts_and_requests_of_every_kind() {
        let m = messages(
            "/os: end .5.0 ( alice vs. bob ) +12.00 \nREADY\n\
             /os: end .5.1 ( alice vs. bob ) player alice left\nREADY\n\
             /os: error .25 corrupt move\nREADY\n\
             /os: ERR match '.24' not found.\nREADY\n\
             /os: timeout .5 alice (*)\nREADY\n\
             /os: fatal-timeout .5.1 bob (O)\nREADY\n\
             /os: - match .52 2326 kuroobi 2447 piglet s8r16 R piglet left .84058\nREADY\n\
             /os: - match .13 1866 kuroobi 1411 fly 8 R +54.00  .82720\nREADY\n\
             /os: +  .31 1438.6 fly      15:00//02:00   s8r16 R 1720.0 kuroobi  10:00//02:00\nREADY\n\
             /os: +  .40 1438.6 fly      15:00//02:00   s8r16 S 1720.0 kuroobi  .82740\nREADY\n\
             /os: +  .41 1438.6 fly      15:00//02:00       8 U      *     *\nREADY\n\
             /td: join: alice joins tournament 1\nREADY\n\
             /os: stored 2\n|.82740  30 Jul 2026 22:30:00 kuroobi  Rhapsody s8r16:l\n|.9 x\n|junk .1\nREADY\n\
             /os: end .5.1 -4.00\nREADY\n\
             : ERR Password is incorrect.\nREADY\n",
        );
        assert_eq!(
            m[0],
            Message::BoardEnd {
                id: ".5.0".parse().unwrap(),
                first: Some("alice".into()),
                score: Some(12.0),
                text: "+12.00".into()
            }
        );
        assert!(matches!(&m[1], Message::BoardEnd { score: None, text, .. } if text == "player alice left"));
        assert_eq!(m[2], Message::GameError { id: ".25".parse().unwrap(), text: "corrupt move".into() });
        assert_eq!(m[3], Message::CommandError("match '.24' not found.".into()));
        assert!(matches!(&m[4], Message::Timeout { fatal: false, login, .. } if login == "alice"));
        assert!(matches!(&m[5], Message::Timeout { fatal: true, .. }));
        let Message::MatchEnd(e) = &m[6] else { panic!("{:?}", m[6]) };
        assert_eq!((e.outcome.clone(), e.archive.as_deref()), (MatchOutcome::Left("piglet".into()), Some(".84058")));
        let Message::MatchEnd(e) = &m[7] else { panic!("{:?}", m[7]) };
        assert_eq!((e.outcome.clone(), e.archive.as_deref()), (MatchOutcome::Score(54.0), Some(".82720")));
        let Message::Request(r) = &m[8] else { panic!("{:?}", m[8]) };
        assert_eq!(r.opponent_clock.map(|c| c.left), Some(Duration::from_secs(600)));
        let Message::Request(r) = &m[9] else { panic!("{:?}", m[9]) };
        assert_eq!((r.kind, r.stored.as_deref()), (RequestKind::Stored, Some(".82740")));
        let Message::Request(r) = &m[10] else { panic!("{:?}", m[10]) };
        assert_eq!(r.opponent, None);
        assert!(matches!(&m[11], Message::Director(t) if t.contains("joins tournament 1")));
        assert_eq!(m[12], Message::Stored(vec![".82740".into(), ".9".into()]));
        assert!(matches!(&m[13], Message::BoardEnd { first: None, score: Some(-4.0), .. }));
        assert!(matches!(&m[14], Message::LoginError(t) if t.contains("Password")));
    }

    #[test]
    fn broken_messages_are_other_and_never_panic() {
        for text in [
            "/os: join .5 8 K?\n|  1: zz\n| 1 - - 1\n|* to move\nREADY",
            "/os: update .x 8\nREADY",
            "/os: + match .5 x alice\nREADY",
            "/os: - match\nREADY",
            "/os: end .5.0 ( a vs b\nREADY",
            "/os: end .x 1\nREADY",
            "/os: + .8 1720.0 alice 01:00//02:00 8b Q 1720.0 bob\nREADY",
            "|orphan line\nREADY",
            "/os: join .5 8 K?\n| 1 * * * * * * * * 1\n| 2 * * * * * * * * 2\n| 3 * * * * * * * * 3\n| 4 * * * * * * * * 4\n| 5 * * * * * * * * 5\n| 6 * * * * * * * * 6\n| 7 * * * * * * * * 7\n| 8 * * * * * * * * 8\n|? to move\nREADY",
        ] {
            for m in messages(text) {
                assert!(matches!(m, Message::Other(_)), "{text:?} gave {m:?}");
            }
        }
    }

    #[test]
    fn random_lines_never_panic() {
        let mut rng = crate::rng::Rng::new(5);
        let pieces = [
            "/os:",
            "join",
            "update",
            ".5.0",
            "s8r20",
            "|",
            "*",
            "O",
            "-",
            "(",
            ")",
            "1720.0",
            "move(s)",
            "to",
            "move",
            ":",
            "READY",
            "+",
            "match",
            "end",
            "12:00,0:0//",
            "1",
            "8",
            "f5//1.0",
            "stored",
            ".9",
            "8é",
            "\u{fffd}",
        ];
        let mut framer = Framer::new();
        for _ in 0..20_000 {
            let n = rng.below(12);
            let line: Vec<&str> = (0..n).map(|_| pieces[rng.below(pieces.len())]).collect();
            let sep = if rng.below(3) == 0 { "" } else { " " };
            for message in framer.push(&line.join(sep)) {
                let _ = parse_message(&message);
            }
        }
    }
}
