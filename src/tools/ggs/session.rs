//! The client's state between the network and the search: it reads the server's messages and
//! answers with [`Action`]s (lines to send, boards to search, games to record), and it never
//! touches a socket or a clock, so that every rule here is tested without either.
//!
//! - Login: the login at its prompt, the password at its; then the `/os` set-up ([`setup_lines`]),
//!   the tournaments to join and the games to ask for.
//! - Requests: accepted when the [`Policy`] allows them and a game is free under `open`; a
//!   request for an adjourned game of ours (`S`) is always accepted, since it resumes it; the
//!   others addressed to us are declined.
//! - Boards: the server's board is the truth. Each update's move is played on our record; when
//!   the result differs from the server's board (or a board arrives that we never saw start), the
//!   disagreement is logged and the record starts again from the server's position. A board where
//!   we are to move gives one [`Turn`] per move number, so that a repeated update never makes two
//!   moves.
//! - Ends: a synchro board ends with its own `end`, a match with `- match`; each finished board is
//!   recorded as GGF with its result made Black's. Adjourned and aborted games are not recorded
//!   (an adjourned one comes back as an `S` request).

use crate::board::{Color, Move, Position};
use crate::formats::ggf::{Clock as GgfClock, GameEnd, GgfGame, GgfResult};
use crate::protocol::ggs::{
    Board, GameId, GameType, GgsClock, MatchEnd, MatchOutcome, Message, Request, RequestKind, command,
};
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

/// Which requests to accept.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    /// The game types accepted (`s8r20`; `r*` for any number of random discs): empty for every
    /// type Magpie plays.
    pub types: Vec<String>,
    /// The least main time accepted on our clock.
    pub min_main: Duration,
    /// The most main time accepted on our clock.
    pub max_main: Duration,
    /// `Some(true)`: rated games only; `Some(false)`: unrated only; `None`: both.
    pub rated: Option<bool>,
    /// Only these opponents (empty: anyone).
    pub opponents: Vec<String>,
    /// Never these opponents.
    pub avoid: Vec<String>,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            types: Vec::new(),
            min_main: Duration::from_secs(60),
            max_main: Duration::from_secs(3_600),
            rated: None,
            opponents: Vec::new(),
            avoid: Vec::new(),
        }
    }
}

/// Whether `pattern` (`s8r20`, `s8r*`, `8`) names `game_type`.
pub fn type_matches(pattern: &str, game_type: &GameType) -> bool {
    let text = game_type.to_string();
    let pattern = pattern.to_ascii_lowercase();
    if pattern == text {
        return true;
    }
    match (pattern.split_once("r*"), game_type.random) {
        (Some((before, after)), Some(n)) => text == format!("{before}r{n}{after}"),
        _ => false,
    }
}

impl Policy {
    /// Why `request` is refused, or `None` to accept it.
    pub fn refusal(&self, request: &Request) -> Option<String> {
        let Some(game_type) = request.game_type.filter(GameType::playable) else {
            return Some(format!("Magpie does not play {}", request.type_text));
        };
        if !self.types.is_empty() && !self.types.iter().any(|p| type_matches(p, &game_type)) {
            return Some(format!("{game_type} is not among the types accepted"));
        }
        // Our clock is the opponent's clock of the request when it has two.
        let ours = request.opponent_clock.unwrap_or(request.clock);
        if ours.left < self.min_main || ours.left > self.max_main {
            return Some(format!("a main time of {} s is outside the range accepted", ours.left.as_secs()));
        }
        let rated = matches!(request.kind, RequestKind::Rated | RequestKind::Tournament);
        if self.rated.is_some_and(|want| want != rated) {
            return Some(format!("{} games are not accepted", if rated { "rated" } else { "unrated" }));
        }
        let named = |list: &[String]| list.iter().any(|n| n.eq_ignore_ascii_case(&request.asker));
        if named(&self.avoid) || (!self.opponents.is_empty() && !named(&self.opponents)) {
            return Some(format!("{} is not an opponent accepted", request.asker));
        }
        None
    }
}

/// A game to ask for after login and after each match: `tell /os ask TYPE CLOCK USER`.
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    /// The game type.
    pub game_type: GameType,
    /// The clock, as set (`05:00//02:00`).
    pub clock: String,
    /// The opponent.
    pub opponent: String,
}

impl Ask {
    /// The line that asks for it.
    pub fn line(&self) -> String {
        format!("tell /os ask {} {} {}", self.game_type, self.clock, self.opponent)
    }
}

/// The session's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The login.
    pub login: String,
    /// Its password.
    pub password: String,
    /// Which requests to accept.
    pub policy: Policy,
    /// Games played at once (the server's `open`; a synchro match is one).
    pub open: u32,
    /// Whether to take rated games (the server's `rated`).
    pub rated: bool,
    /// Games to ask for.
    pub asks: Vec<Ask>,
    /// Tournaments to join through `/td`.
    pub tournaments: Vec<String>,
    /// The boards to play before logging out (`None`: play on); no game is asked for once they
    /// are played.
    pub boards: Option<u64>,
}

/// The lines that set up the `/os` service after login: no terminal codes, bells, news, help or
/// acknowledgements in the stream, moves always sent with their time (`trust +`), the requests
/// shown, no client-side clock (`client -`), how many games at once, and the list of our adjourned
/// games (whose ids are then asked for, to resume them).
pub fn setup_lines(config: &Config) -> Vec<String> {
    vec![
        "vt100 -".to_string(),
        "bell -t -tc -tg -n -nc -ng -ni -nn".to_string(),
        "verbose -news -faq -help -ack".to_string(),
        "tell /os trust +".to_string(),
        format!("tell /os rated {}", if config.rated { '+' } else { '-' }),
        "tell /os request +".to_string(),
        "tell /os client -".to_string(),
        format!("tell /os open {}", config.open),
        "tell /os stored".to_string(),
    ]
}

/// The line sent when the connection has been quiet for a while: our `open` again, which the
/// server answers, so that neither side drops an idle connection.
pub fn keepalive_line(config: &Config) -> String {
    format!("tell /os open {}", config.open)
}

/// A board where we are to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    /// The board.
    pub id: GameId,
    /// Its position.
    pub position: Position,
    /// Our clock as the server showed it with the board.
    pub clock: GgsClock,
    /// The server's move count: the move to send is for this one.
    pub ply: u32,
    /// Our boards still being played, this one included (2 in a synchro match until one ends).
    pub boards_on: u32,
}

/// What the client does in answer to the server.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Send this line.
    Send(String),
    /// Search this board and call [`Session::moved`] with the move.
    Search(Box<Turn>),
    /// The board is gone or its turn has passed: drop its search, queued or running.
    Forget(GameId),
    /// A game is over: write it.
    Record(Box<GgfGame>),
    /// The server refused the login: stop, since trying again would be refused again.
    Fatal(String),
}

/// Where the login stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Connected; the login not yet sent.
    Connected,
    /// The login sent; waiting for the password prompt.
    LoginSent,
    /// The password sent; waiting for the server to take it (its first `READY`).
    PasswordSent,
    /// Logged in and set up.
    Ready,
}

/// A match of ours, as `+ match` announced it.
#[derive(Clone, Debug)]
struct MatchInfo {
    players: [String; 2],
}

/// One board of ours.
#[derive(Clone, Debug)]
struct Game {
    /// The moves played since the start, or since the server's board last disagreed with ours.
    record: GgfGame,
    /// Our colour.
    me: Color,
    /// The server's move count at the last board.
    ply: u32,
    /// The move count a [`Turn`] was last given for.
    turn_given: Option<u32>,
    /// The move count a move was last sent for.
    sent: Option<u32>,
    /// Moves the server refused.
    refusals: u32,
    /// Our clock at the last board.
    clock: GgsClock,
}

/// The client's state.
#[derive(Debug)]
pub struct Session {
    config: Config,
    phase: Phase,
    matches: HashMap<GameId, MatchInfo>,
    games: BTreeMap<GameId, Game>,
    /// Whether the asks wait to be sent when no match of ours is on.
    asks_due: bool,
    /// Stored games asked for and not yet resumed: they count against `open` until they start
    /// or [`Session::expire_resumes`] gives up on them.
    resumes: Vec<String>,
    /// Boards finished and recorded (for the log's tally).
    pub recorded: u64,
}

impl Session {
    /// A session with these settings, not yet connected.
    pub fn new(config: Config) -> Session {
        Session {
            config,
            phase: Phase::Connected,
            matches: HashMap::new(),
            games: BTreeMap::new(),
            asks_due: false,
            resumes: Vec::new(),
            recorded: 0,
        }
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Whether the login went through.
    pub fn logged_in(&self) -> bool {
        self.phase == Phase::Ready
    }

    /// Whether the password was sent and not yet taken: a connection lost now is a login refused
    /// (the server drops a wrong password without a word).
    pub fn awaiting_login(&self) -> bool {
        self.phase == Phase::PasswordSent
    }

    /// Matches of ours going on.
    pub fn matches_on(&self) -> usize {
        self.matches.len()
    }

    /// Stops waiting for the stored games asked for (their opponents may be away): requests are
    /// taken again up to `open`.
    pub fn expire_resumes(&mut self) {
        if !self.resumes.is_empty() {
            log::info!("ggs: no longer waiting to resume {}", self.resumes.join(" "));
            self.resumes.clear();
        }
    }

    /// A new connection: whatever was going on is the server's to adjourn, and every search is
    /// dropped.
    pub fn connected(&mut self) -> Vec<Action> {
        self.phase = Phase::Connected;
        self.resumes.clear();
        self.matches.clear();
        std::mem::take(&mut self.games).into_keys().map(Action::Forget).collect()
    }

    /// Answers one message.
    pub fn message(&mut self, message: &Message) -> Vec<Action> {
        match message {
            Message::LoginPrompt => {
                self.phase = Phase::LoginSent;
                vec![Action::Send(self.config.login.clone())]
            }
            Message::Ready if self.phase == Phase::PasswordSent => {
                log::info!("ggs: logged in as {}", self.config.login);
                self.phase = Phase::Ready;
                self.asks()
            }
            Message::Ready => Vec::new(),
            Message::PasswordPrompt if self.phase == Phase::LoginSent => {
                self.phase = Phase::PasswordSent;
                self.asks_due = true;
                let mut actions = vec![Action::Send(self.config.password.clone())];
                actions.extend(setup_lines(&self.config).into_iter().map(Action::Send));
                actions.extend(self.config.tournaments.iter().map(|t| Action::Send(format!("tell /td join {t}"))));
                actions
            }
            Message::PasswordPrompt => {
                log::warn!("ggs: a password prompt before the login was sent: ignored");
                Vec::new()
            }
            Message::LoginError(text) if self.phase != Phase::Ready => {
                self.phase = Phase::Connected;
                vec![Action::Fatal(format!("the server refused the login {}: {text}", self.config.login))]
            }
            Message::LoginError(text) | Message::CommandError(text) => {
                log::warn!("ggs: the server refused a command: {text}");
                Vec::new()
            }
            Message::Request(request) => self.request(request),
            Message::RequestGone(_) => Vec::new(),
            Message::MatchStart(start) => {
                let names = [start.players[0].0.clone(), start.players[1].0.clone()];
                if names.iter().any(|n| self.is_me(n)) {
                    log::info!(
                        "ggs: match {} starts: {} against {} ({}, {})",
                        start.id,
                        names[0],
                        names[1],
                        start.game_type.map_or("?".to_string(), |t| t.to_string()),
                        if start.rated { "rated" } else { "unrated" }
                    );
                    self.matches.insert(start.id, MatchInfo { players: names });
                    self.resumes.pop();
                }
                Vec::new()
            }
            Message::Join(board) => self.board(board, true),
            Message::Update(board) => self.board(board, false),
            Message::BoardEnd { id, first, score, text } => {
                // The first player named is the one the score is for; with no names, the score
                // cannot be placed and the final position tells.
                let black_net = match (first, score) {
                    (Some(first), Some(score)) => self.games.get(id).map(|g| {
                        let first_is_black =
                            if self.is_me(first) { g.me == Color::Black } else { g.me == Color::White };
                        if first_is_black { *score } else { -*score }
                    }),
                    _ => None,
                };
                log::info!("ggs: board {id} ends: {text}");
                self.finish(*id, black_net).into_iter().collect()
            }
            Message::MatchEnd(end) => self.match_end(end),
            Message::GameError { id, text } => self.refused(*id, text),
            Message::Timeout { id, login, fatal } => {
                let whose = if self.is_me(login) { "our" } else { "the opponent's" };
                let what = if *fatal { "out of time, extension included" } else { "into the extension" };
                if self.is_me(login) {
                    log::warn!("ggs: {id}: {whose} clock ran {what}");
                } else {
                    log::info!("ggs: {id}: {whose} clock ran {what}");
                }
                Vec::new()
            }
            Message::Stored(ids) => {
                if !ids.is_empty() {
                    log::info!("ggs: adjourned games stored: {}; asking to resume them", ids.join(" "));
                }
                self.resumes = ids.clone();
                ids.iter().map(|id| Action::Send(format!("tell /os ask {id}"))).collect()
            }
            Message::Director(text) => {
                log::info!("ggs: /td: {text}");
                Vec::new()
            }
            Message::Other(text) => {
                log::debug!("ggs: skipped: {text}");
                Vec::new()
            }
        }
    }

    /// The search of `turn` found `mv`: the line that plays it, unless the board has moved on.
    /// `eval` is in discs for us, `time` what the move took.
    pub fn moved(&mut self, turn: &Turn, mv: Move, eval: f64, time: Duration) -> Vec<Action> {
        let Some(game) = self.games.get_mut(&turn.id) else { return Vec::new() };
        if game.ply != turn.ply || game.sent == Some(turn.ply) || game.record.position() != turn.position {
            return Vec::new();
        }
        game.sent = Some(turn.ply);
        vec![Action::Send(command::play(turn.id, mv, eval, time))]
    }

    /// Our boards not yet over, `id` among them: they share the search's wall time.
    fn boards_on(&self, id: GameId) -> u32 {
        let on = self.games.iter().filter(|(k, g)| **k != id && !g.record.position().is_game_over()).count();
        on as u32 + 1
    }

    fn is_me(&self, login: &str) -> bool {
        login.eq_ignore_ascii_case(&self.config.login)
    }

    /// The asks, if they are due and no match of ours is on.
    fn asks(&mut self) -> Vec<Action> {
        let done = self.config.boards.is_some_and(|n| self.recorded >= n);
        if !self.asks_due || !self.matches.is_empty() || self.phase != Phase::Ready || done {
            return Vec::new();
        }
        self.asks_due = false;
        self.config.asks.iter().map(|a| Action::Send(a.line())).collect()
    }

    fn request(&mut self, request: &Request) -> Vec<Action> {
        if self.is_me(&request.asker) {
            return Vec::new();
        }
        let for_us = request.opponent.as_deref().is_some_and(|o| self.is_me(o));
        if (request.kind == RequestKind::Stored || request.stored.is_some()) && for_us {
            log::info!("ggs: {} asks to resume {}: accepted", request.asker, request.stored.as_deref().unwrap_or("?"));
            return vec![Action::Send(command::accept(&request.id))];
        }
        if !for_us && request.opponent.is_some() {
            return Vec::new();
        }
        let busy = self.matches.len() + self.resumes.len();
        let refusal = if busy >= self.config.open as usize {
            Some(format!("{busy} game(s) already on or being resumed"))
        } else {
            self.config.policy.refusal(request)
        };
        match refusal {
            None => {
                log::info!("ggs: {} {} from {}: accepted", request.type_text, request.id, request.asker);
                vec![Action::Send(command::accept(&request.id))]
            }
            Some(why) if for_us => {
                log::info!("ggs: {} {} from {}: declined ({why})", request.type_text, request.id, request.asker);
                vec![Action::Send(command::decline(&request.id))]
            }
            Some(_) => Vec::new(),
        }
    }

    fn board(&mut self, board: &Board, join: bool) -> Vec<Action> {
        let Some(me) = board.color_of(&self.config.login) else { return Vec::new() };
        let mut actions = Vec::new();
        let game = match self.games.get_mut(&board.id) {
            // An update, or a join of the board as we have it (shown again): the same game.
            Some(game) if !join || (game.ply == board.move_count && game.record.position() == board.position) => {
                for record in board.moves.iter().filter(|_| !join) {
                    if record.number != game.ply + 1 {
                        continue;
                    }
                    if game.record.push_move(record.text.mv, record.text.eval, record.text.time).is_err() {
                        log::warn!("ggs: {}: move {} {} is illegal on our board", board.id, record.number, record.text);
                        break;
                    }
                    game.ply = record.number;
                }
                game
            }
            _ => {
                let game = Game {
                    record: record_of(board),
                    me,
                    ply: board.move_count,
                    turn_given: None,
                    sent: None,
                    refusals: 0,
                    clock: GgsClock::default(),
                };
                if join {
                    log::info!("ggs: {}: we play {} ({} moves made)", board.id, color_name(me), board.move_count);
                } else {
                    log::warn!("ggs: {}: an update for a board we did not see start: taken as it is", board.id);
                }
                self.games.insert(board.id, game);
                self.games.get_mut(&board.id).expect("just inserted")
            }
        };
        if game.record.position() != board.position || game.ply != board.move_count {
            log::warn!(
                "ggs: {}: the server's board (move {}) differs from ours (move {}): taking the server's",
                board.id,
                board.move_count,
                game.ply
            );
            game.record = record_of(board);
            game.ply = board.move_count;
        }
        for player in &board.players {
            if let Some(color) = player.color {
                game.record.set_player(color, player.name.clone());
                game.record.set_rating(color, format!("{:.1}", player.rating));
            }
        }
        let position = board.position;
        if let Some(player) = board.player(me) {
            game.clock = player.clock;
        }
        let ours = position.side_to_move() == me && !position.is_game_over();
        if ours && game.turn_given != Some(board.move_count) {
            game.turn_given = Some(board.move_count);
            let clock = game.clock;
            let boards_on = self.boards_on(board.id);
            actions.push(Action::Search(Box::new(Turn {
                id: board.id,
                position,
                clock,
                ply: board.move_count,
                boards_on,
            })));
        } else if !ours {
            actions.push(Action::Forget(board.id));
        }
        actions
    }

    /// A board is over: its record, with `black_net` or the final position's score.
    fn finish(&mut self, id: GameId, black_net: Option<f64>) -> Option<Action> {
        let mut game = self.games.remove(&id)?;
        let position = game.record.position();
        let black_net =
            black_net.or_else(|| position.is_game_over().then(|| f64::from(position.final_score_for_black())));
        let end = if position.is_game_over() { GameEnd::Normal } else { GameEnd::Timeout };
        game.record.set_result(black_net.map_or(GgfResult::Unknown, |black_net| GgfResult::Score { black_net, end }));
        self.recorded += 1;
        Some(Action::Record(Box::new(game.record)))
    }

    fn match_end(&mut self, end: &MatchEnd) -> Vec<Action> {
        let Some(info) = self.matches.remove(&end.id) else { return Vec::new() };
        let boards: Vec<GameId> = self.games.keys().filter(|g| g.match_id() == end.id).copied().collect();
        let mut actions: Vec<Action> = boards.iter().map(|&b| Action::Forget(b)).collect();
        match &end.outcome {
            MatchOutcome::Score(score) => {
                log::info!("ggs: match {} ends: {} {score:+.2} against {}", end.id, info.players[0], info.players[1]);
                for board in boards {
                    // A match of one board: the score is the first player's.
                    let black_net = (board.board.is_none())
                        .then(|| self.games.get(&board))
                        .flatten()
                        .map(|g| if self.is_me(&info.players[0]) == (g.me == Color::Black) { *score } else { -*score });
                    actions.extend(self.finish(board, black_net));
                }
            }
            MatchOutcome::Left(who) => {
                log::warn!(
                    "ggs: match {} adjourned: {who} left{}",
                    end.id,
                    end.archive.as_ref().map_or(String::new(), |a| format!(" (stored as {a})"))
                );
                boards.iter().for_each(|b| drop(self.games.remove(b)));
            }
            MatchOutcome::Aborted | MatchOutcome::Other(_) => {
                log::warn!("ggs: match {} ends without a score: {:?}", end.id, end.outcome);
                boards.iter().for_each(|b| drop(self.games.remove(b)));
            }
        }
        self.asks_due = true;
        actions.extend(self.asks());
        actions
    }

    /// The server refused something on board `id`: if it was our move, search it again (twice at
    /// most: a move refused three times is left to the clock, rather than sent forever).
    fn refused(&mut self, id: GameId, text: &str) -> Vec<Action> {
        log::warn!("ggs: {id}: the server refused: {text}");
        let Some(game) = self.games.get_mut(&id) else { return Vec::new() };
        if game.sent != Some(game.ply) || game.refusals >= 2 {
            return Vec::new();
        }
        game.refusals += 1;
        game.sent = None;
        let (position, clock, ply) = (game.record.position(), game.clock, game.ply);
        let boards_on = self.boards_on(id);
        vec![Action::Search(Box::new(Turn { id, position, clock, ply, boards_on }))]
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// A record of `board`: from its start with its moves when the board lists them all and they
/// replay to its position, else from its position.
fn record_of(board: &Board) -> GgfGame {
    let replayed = board.start.and_then(|start| {
        let mut record = GgfGame::new(start);
        for m in &board.moves {
            record.push_move(m.text.mv, m.text.eval, m.text.time).ok()?;
        }
        (record.position() == board.position && record.moves().len() == board.move_count as usize).then_some(record)
    });
    let mut record = replayed.unwrap_or_else(|| GgfGame::new(board.position));
    record.set_place("GGS/os");
    record.set_date(crate::formats::ggf::utc_now());
    if let Some(t) = board.game_type {
        record.set_board_type(t.to_string());
    }
    for player in &board.players {
        if let Some(color) = player.color {
            let clock = player.clock;
            // The clock as set: what is left at the start of a board with no move yet.
            if board.move_count == 0 {
                record.set_player_clock(
                    color,
                    GgfClock { main: clock.left, increment: clock.increment, grace: clock.extension },
                );
            }
        }
    }
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ggs::{Framer, parse_message};

    fn config() -> Config {
        Config {
            login: "magpie".into(),
            password: "pw".into(),
            policy: Policy { min_main: Duration::from_secs(1), ..Policy::default() },
            open: 1,
            rated: true,
            asks: vec![Ask {
                game_type: "s8r20".parse().unwrap(),
                clock: "05:00//02:00".into(),
                opponent: "bob".into(),
            }],
            tournaments: vec![".1".into()],
            boards: None,
        }
    }

    fn read(text: &str) -> Vec<Message> {
        let mut framer = Framer::new();
        let mut out: Vec<Message> = text.lines().flat_map(|l| framer.push(l)).map(|m| parse_message(&m)).collect();
        out.extend(framer.flush().map(|m| parse_message(&m)));
        out
    }

    fn answer(session: &mut Session, text: &str) -> Vec<Action> {
        read(text).iter().flat_map(|m| session.message(m)).collect()
    }

    fn sent(actions: &[Action]) -> Vec<&str> {
        actions.iter().filter_map(|a| if let Action::Send(l) = a { Some(l.as_str()) } else { None }).collect()
    }

    fn logged_in() -> Session {
        let mut s = Session::new(config());
        answer(&mut s, ": Enter login (yours, or one you'd like to use).\n: Enter your password.\nREADY\n");
        assert!(s.logged_in());
        s
    }

    /// A board of `id` with the standard start and `moves` played, `magpie` playing `color`.
    fn board(kind: &str, id: &str, moves: &[&str], color: char, count_only_last: bool) -> String {
        let mut p = Position::initial();
        for m in moves {
            p = p.play(m.parse().unwrap());
        }
        let (b, w) = if color == '*' { ("magpie", "bob") } else { ("bob", "magpie") };
        let mut text = format!("/os: {kind} {id} s8 K?\n|{} move(s)\n", moves.len());
        let shown: Vec<(usize, &&str)> = if count_only_last {
            moves.iter().enumerate().skip(moves.len().saturating_sub(1)).collect()
        } else {
            moves.iter().enumerate().collect()
        };
        for (i, m) in shown {
            text.push_str(&format!("|{:>3}: {m}//1.00\n", i + 1));
        }
        text.push_str(&format!(
            "|{b:<8} (1720.0 *) 04:00,0:0//02:00,0:0\n|{w:<8} (1500.0 O) 04:00,0:0//02:00,0:0\n|\n"
        ));
        for r in 0..8 {
            let mut row = format!("| {} ", r + 1);
            for c in 0..8 {
                let bit = 1u64 << (r * 8 + c);
                row.push_str(if p.black().0 & bit != 0 {
                    "* "
                } else if p.white().0 & bit != 0 {
                    "O "
                } else {
                    "- "
                });
            }
            text.push_str(&format!("{row}{}\n", r + 1));
        }
        let side = if p.side_to_move() == Color::Black { '*' } else { 'O' };
        text.push_str(&format!("|\n|{side} to move\nREADY\n"));
        text
    }

    #[test]
    fn login_sends_the_setup_then_the_asks_once_the_server_takes_it() {
        let mut s = Session::new(config());
        let actions = answer(&mut s, ": Enter login (yours, or one you'd like to use).");
        assert_eq!(sent(&actions), ["magpie"]);
        let actions = answer(&mut s, ": Enter your password.");
        let lines = sent(&actions);
        assert_eq!(lines[0], "pw");
        assert!(lines.contains(&"tell /os trust +") && lines.contains(&"tell /td join .1"));
        assert!(!lines.iter().any(|l| l.contains("ask")), "asks wait for the login to go through");
        assert!(s.awaiting_login());
        assert_eq!(sent(&answer(&mut s, "READY")), ["tell /os ask s8r20 05:00//02:00 bob"]);
        let mut refused = Session::new(config());
        answer(&mut refused, ": Enter login\n: Enter your password.");
        let actions = answer(&mut refused, ": ERR Password is incorrect.\nREADY");
        assert!(matches!(&actions[..], [Action::Fatal(t)] if t.contains("refused the login magpie")));
    }

    #[test]
    fn requests_follow_the_policy_and_the_free_games() {
        let mut s = logged_in();
        let request = |id: &str, kind: &str, t: &str, to: &str| {
            format!("/os: +  {id} 1500.0 bob 05:00//02:00 {t} {kind} 1720.0 {to}\nREADY")
        };
        assert_eq!(sent(&answer(&mut s, &request(".1", "U", "8k", "magpie"))), ["tell /os decline .1"]);
        assert_eq!(sent(&answer(&mut s, &request(".2", "R", "s8r20", "magpie"))), ["tell /os accept .2"]);
        assert!(sent(&answer(&mut s, &request(".3", "R", "8k", "alice"))).is_empty(), "not ours to answer");
        assert_eq!(sent(&answer(&mut s, &request(".4", "U", "8", "*"))), ["tell /os accept .4"]);
        answer(&mut s, "/os: + match .5 1500.0 bob 1720.0 magpie s8r20 R\nREADY");
        assert_eq!(sent(&answer(&mut s, &request(".6", "R", "8", "magpie"))), ["tell /os decline .6"], "open 1");
        assert_eq!(sent(&answer(&mut s, &request(".7", "S", "8", "magpie"))), ["tell /os accept .7"], "a resume");
        // A stored game being resumed takes the one game open until it starts or is given up.
        let mut s = logged_in();
        assert_eq!(
            sent(&answer(&mut s, "/os: stored 1\n|.80001 02 Dec 2026 magpie bob s8r20:l\nREADY")),
            ["tell /os ask .80001"]
        );
        assert_eq!(sent(&answer(&mut s, &request(".8", "U", "8", "magpie"))), ["tell /os decline .8"]);
        s.expire_resumes();
        assert_eq!(sent(&answer(&mut s, &request(".9", "U", "8", "magpie"))), ["tell /os accept .9"]);
        let policy = Policy {
            types: vec!["s8r*".into()],
            min_main: Duration::from_secs(120),
            max_main: Duration::from_secs(900),
            rated: Some(true),
            opponents: vec![],
            avoid: vec!["Bob".into()],
        };
        let req = |t: &str, clock: &str, kind: &str, who: &str| {
            let text = format!("/os: +  .1 1500.0 {who} {clock} {t} {kind} 1720.0 magpie\nREADY");
            let Message::Request(r) = &read(&text)[0] else { panic!() };
            policy.refusal(r)
        };
        assert_eq!(req("s8r16", "05:00//02:00", "R", "carol"), None);
        assert!(req("8", "05:00//02:00", "R", "carol").unwrap().contains("types"));
        assert!(req("s8r16", "01:00//02:00", "R", "carol").unwrap().contains("main time"));
        assert!(req("s8r16", "05:00//02:00", "U", "carol").unwrap().contains("unrated"));
        assert!(req("s8r16", "05:00//02:00", "R", "bob").unwrap().contains("bob"));
        assert!(type_matches("8", &"8".parse().unwrap()) && !type_matches("s8r*", &"s8".parse().unwrap()));
    }

    #[test]
    fn one_turn_per_move_and_one_move_sent_for_it() {
        let mut s = logged_in();
        answer(&mut s, "/os: + match .5 1720.0 magpie 1500.0 bob s8 U\nREADY");
        let actions = answer(&mut s, &board("join", ".5.0", &[], '*', false));
        let [Action::Search(turn)] = &actions[..] else { panic!("{actions:?}") };
        assert_eq!((turn.ply, turn.boards_on, turn.clock.left), (0, 1, Duration::from_secs(240)));
        assert!(
            answer(&mut s, &board("join", ".5.0", &[], '*', false)).iter().all(|a| !matches!(a, Action::Search(_)))
        );
        let f5 = Move::Play("f5".parse().unwrap());
        assert_eq!(sent(&s.moved(turn, f5, 1.5, Duration::from_millis(1200))), ["tell /os play .5.0 f5/1.50/1.20"]);
        assert!(s.moved(turn, f5, 1.5, Duration::ZERO).is_empty(), "sent once");
        // The opponent's reply: our turn again, on the record.
        let actions = answer(&mut s, &board("update", ".5.0", &["f5"], '*', true));
        assert!(matches!(&actions[..], [Action::Forget(_)]), "{actions:?}");
        let actions = answer(&mut s, &board("update", ".5.0", &["f5", "d6"], '*', true));
        let [Action::Search(turn)] = &actions[..] else { panic!("{actions:?}") };
        assert_eq!(turn.ply, 2);
        // A stale search result for an older turn is dropped.
        let stale = Turn { ply: 0, position: Position::initial(), ..(**turn).clone() };
        assert!(s.moved(&stale, f5, 0.0, Duration::ZERO).is_empty());
    }

    #[test]
    fn a_board_that_disagrees_is_taken_from_the_server_and_results_are_made_blacks() {
        let mut s = logged_in();
        answer(&mut s, "/os: + match .5 1500.0 bob 1720.0 magpie s8 U\nREADY");
        answer(&mut s, &board("join", ".5.1", &[], 'O', false));
        // An update whose move is not what our record holds after f5 (d3 played instead).
        let actions = answer(&mut s, &board("update", ".5.1", &["f5", "d6", "c3"], 'O', true));
        assert!(matches!(&actions[..], [Action::Search(t)] if t.ply == 3), "{actions:?}");
        // bob (first named) +10 on our White board: Black is bob, so Black's score is +10.
        let actions = answer(&mut s, "/os: end .5.1 ( bob vs. magpie ) +10.00\nREADY");
        let [Action::Record(game)] = &actions[..] else { panic!("{actions:?}") };
        assert_eq!(game.result(), Some(GgfResult::Score { black_net: 10.0, end: GameEnd::Timeout }));
        assert_eq!(game.start().empty_count(), 57, "the record starts again from the server's board");
        assert_eq!(game.player(Color::White), Some("magpie"));
        let actions = answer(&mut s, "/os: - match .5 1500.0 bob 1720.0 magpie s8 U +10.00\nREADY");
        assert_eq!(sent(&actions), ["tell /os ask s8r20 05:00//02:00 bob"], "asks again once the match is over");
    }
}
