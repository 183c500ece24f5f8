//! `magpie ggs`'s options.

use super::numbers::count;
use super::shared::{
    book_seed_parser, hash_parser, level_parser, parse_book_randomness, selectivity_parser, threads_parser,
};
use super::{CliError, EngineArgs, Request};
use crate::engine::settings::{DEFAULT_HASH_MIB, Settings};
use crate::eval::EvalKind;
use crate::protocol::ggs::{GameType, GgsClock, format_clock_setting};
use crate::tools::ggs::{Ask, Config, DEFAULT_HOST, DEFAULT_PORT, GgsRequest, Policy};
use std::path::PathBuf;
use std::time::Duration;

/// The environment variable that may hold the password.
pub const PASSWORD_VARIABLE: &str = "MAGPIE_GGS_PASSWORD";

/// Play on the Generic Game Server (GGS, the Othello service /os): log in, accept or ask for
/// games by the rules given, play them with the engine, and write them as GGF. The password is
/// read from --password-file or the environment variable MAGPIE_GGS_PASSWORD, never from the
/// command line.
#[derive(clap::Args, Debug)]
pub struct GgsArgs {
    /// The login (2 to 8 characters; ask the server's admins to register it).
    #[arg(long, value_name = "NAME", value_parser = parse_login)]
    login: String,
    /// A file whose first line is the password [default: the environment variable
    /// MAGPIE_GGS_PASSWORD].
    #[arg(long, value_name = "FILE")]
    password_file: Option<PathBuf>,
    /// The server [default: skatgame.net].
    #[arg(long, default_value = DEFAULT_HOST)]
    host: String,
    /// Its port [default: 5000].
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// Append every finished game to this file, one GGF game a line.
    #[arg(long, value_name = "FILE")]
    ggf: Option<PathBuf>,
    /// Ask for a game after login and after each match: "TYPE CLOCK USER", e.g. "s8r20 05:00//02:00
    /// bob" (the clock as main/increment/extension, MM:SS); may be given more than once.
    #[arg(long, value_name = "TYPE CLOCK USER", value_parser = parse_ask)]
    ask: Vec<Ask>,
    /// Join this tournament of the director /td after login (its id, e.g. .1); may be repeated.
    #[arg(long, value_name = "ID")]
    td: Vec<String>,
    /// The game types accepted, comma-separated (s8r20, 8, s8r* for any number of random discs)
    /// [default: every type Magpie plays: 8x8, synchro, random starts; not komi or anti].
    #[arg(long, value_name = "TYPES", value_delimiter = ',', value_parser = parse_type_pattern)]
    types: Vec<String>,
    /// The least main time accepted, in seconds [default: 60].
    #[arg(long, value_name = "SECS", value_parser = count::<u64>(0..=86_400))]
    min_time: Option<u64>,
    /// The most main time accepted, in seconds [default: 3600].
    #[arg(long, value_name = "SECS", value_parser = count::<u64>(1..=864_000))]
    max_time: Option<u64>,
    /// Which games to take: rated, unrated or both [default: both].
    #[arg(long, value_name = "KIND", value_parser = ["rated", "unrated", "both"])]
    rated: Option<String>,
    /// Only these opponents, comma-separated [default: anyone].
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    opponents: Vec<String>,
    /// Never these opponents, comma-separated.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    avoid: Vec<String>,
    /// Games played at once (a synchro match is one) [default: 1].
    #[arg(long, value_name = "N", value_parser = count::<u32>(0..=8))]
    open: Option<u32>,
    /// Log out after this many boards are finished (a synchro match has two) [default: play on].
    #[arg(long, value_name = "N", value_parser = count::<u64>(1..=10_000_000))]
    games: Option<u64>,
    /// Seconds of quiet before a keepalive line is sent [default: 60].
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    keepalive: Option<Duration>,
    /// Seconds before connecting again after a lost connection; the delay doubles up to
    /// --retry-max [default: 2].
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    retry_delay: Option<Duration>,
    /// The longest delay between two attempts to connect, in seconds [default: 300].
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    retry_max: Option<Duration>,
    /// Give up after this many failed attempts in a row [default: never].
    #[arg(long, value_name = "N", value_parser = count::<u32>(1..=1_000_000))]
    retries: Option<u32>,
    /// The evaluation: pattern, heuristic, discs, iagno, sannidhanam or corner-edge [default: pattern].
    #[arg(long, value_name = "NAME")]
    eval: Option<EvalKind>,
    /// The pattern evaluation's weight file [default: the weights built into the binary].
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// A network file whose values replace the pattern weights' at the leaves [default: none].
    #[arg(long, value_name = "FILE")]
    network: Option<PathBuf>,
    /// Multi-ProbCut's selectivity, 0 (off) to 5 (most cuts) [default: 5].
    #[arg(long, value_name = "0-5", value_parser = selectivity_parser())]
    selectivity: Option<u8>,
    /// Difficulty level, 0 (random mover) to 10 (full strength) [default: 10].
    #[arg(long, value_name = "0-10", value_parser = level_parser())]
    level: Option<u8>,
    /// Milliseconds kept in hand on every move for the network [default: 200].
    #[arg(long, value_name = "MS", value_parser = count::<u64>(0..=5000))]
    move_overhead: Option<u64>,
    /// Transposition table size in MiB, 1 to 65536 [default: 64].
    #[arg(long, value_name = "MIB", value_parser = hash_parser())]
    hash: Option<u64>,
    /// Search threads, 1 to 256 [default: 1].
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    threads: Option<u64>,
    /// The opening book file, or `<none>` [default: the book built into the binary].
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Play moves from the book while it holds the position: true or false [default: true].
    #[arg(long, value_name = "BOOL", value_parser = clap::value_parser!(bool))]
    own_book: Option<bool>,
    /// Play any book move within this many discs of the best, drawn at random [default: 0].
    #[arg(long, value_name = "DISCS", value_parser = parse_book_randomness)]
    book_randomness: Option<u32>,
    /// The seed of the book's random draws; 0 seeds from the clock [default: 0].
    #[arg(long, value_name = "N", value_parser = book_seed_parser())]
    book_seed: Option<u64>,
}

/// The default move overhead on the server: a round trip over the internet.
const DEFAULT_OVERHEAD_MS: u64 = 200;

fn parse_login(text: &str) -> Result<String, String> {
    let ok = (2..=8).contains(&text.chars().count())
        && !text.starts_with(['.', '_'])
        && text.chars().all(|c| c.is_ascii_graphic() && c != ',' && c != '\\');
    if ok { Ok(text.to_string()) } else { Err("expected 2 to 8 characters, not starting with . or _".to_string()) }
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.01..=86_400.0).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => Err("expected a number of seconds from 0.01 to 86400".to_string()),
    }
}

fn parse_type_pattern(text: &str) -> Result<String, String> {
    let concrete = text.to_ascii_lowercase().replace("r*", "r20");
    match concrete.parse::<GameType>() {
        Ok(t) if t.playable() => Ok(text.to_ascii_lowercase()),
        Ok(t) => Err(format!("Magpie does not play {t} (komi, anti and boards other than 8x8)")),
        Err(e) => Err(e.to_string()),
    }
}

fn parse_ask(text: &str) -> Result<Ask, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let [game_type, clock, opponent] = words.as_slice() else {
        return Err("expected three words: TYPE CLOCK USER, e.g. \"s8r20 05:00//02:00 bob\"".to_string());
    };
    let game_type: GameType = game_type.parse().map_err(|e: crate::protocol::ggs::ParseGgsError| e.to_string())?;
    if !game_type.playable() {
        return Err(format!("Magpie does not play {game_type}"));
    }
    let clock: GgsClock = clock.parse().map_err(|e: crate::protocol::ggs::ParseGgsError| e.to_string())?;
    if clock.left.is_zero() {
        return Err("the clock has no main time".to_string());
    }
    let opponent = parse_login(opponent).map_err(|e| format!("the opponent {opponent}: {e}"))?;
    Ok(Ask { game_type, clock: format_clock_setting(clock.left, clock.increment, clock.extension), opponent })
}

/// The password: the file's first line, else the environment variable.
fn password(file: Option<&PathBuf>) -> Result<String, CliError> {
    let password = match file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError(format!("--password-file: cannot read {}: {e}", path.display())))?;
            text.lines().next().unwrap_or_default().trim().to_string()
        }
        None => std::env::var(PASSWORD_VARIABLE)
            .map_err(|_| CliError(format!("no password: give --password-file FILE or set {PASSWORD_VARIABLE}")))?,
    };
    if password.is_empty() || password.contains(char::is_whitespace) {
        return Err(CliError("the password is empty or holds blanks".to_string()));
    }
    Ok(password)
}

impl GgsArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        let password = password(self.password_file.as_ref())?;
        let defaults = Settings::default();
        let (book, book_file) = engine.book(self.book.as_deref())?;
        let weights = engine.weights(self.weights.as_deref(), "--weights")?;
        let overhead = self.move_overhead.or(engine.move_overhead).unwrap_or(DEFAULT_OVERHEAD_MS);
        let settings = Settings {
            eval: engine.eval(self.eval),
            level: engine.level(self.level),
            move_overhead: Duration::from_millis(overhead),
            hash_mib: engine.hash_mib(self.hash, DEFAULT_HASH_MIB),
            threads: engine.threads(self.threads, 1),
            network: engine.network(self.network.as_deref(), &weights)?,
            weights,
            selectivity: engine.selectivity(self.selectivity),
            book,
            book_file,
            own_book: self.own_book.or(engine.own_book).unwrap_or(defaults.own_book),
            book_randomness: engine.book_randomness(self.book_randomness),
            book_seed: engine.book_seed(self.book_seed),
            ..defaults
        };
        let defaults = Policy::default();
        let min_main = self.min_time.map_or(defaults.min_main, Duration::from_secs);
        let max_main = self.max_time.map_or(defaults.max_main, Duration::from_secs);
        if min_main > max_main {
            return Err(CliError(format!(
                "--min-time {} is more than --max-time {}",
                min_main.as_secs(),
                max_main.as_secs()
            )));
        }
        let rated = match self.rated.as_deref() {
            Some("rated") => Some(true),
            Some("unrated") => Some(false),
            _ => None,
        };
        if let Some(path) = &self.ggf {
            super::shared::output_file("--ggf", path.clone())?;
        }
        let policy =
            Policy { types: self.types, min_main, max_main, rated, opponents: self.opponents, avoid: self.avoid };
        Ok(Request::Ggs(Box::new(GgsRequest {
            host: self.host,
            port: self.port,
            session: Config {
                login: self.login,
                password,
                policy,
                open: self.open.unwrap_or(1),
                rated: rated != Some(false),
                asks: self.ask,
                tournaments: self.td,
                boards: self.games,
            },
            settings,
            ggf: self.ggf,
            keepalive: self.keepalive.unwrap_or(Duration::from_secs(60)),
            retry_delay: self.retry_delay.unwrap_or(Duration::from_secs(2)),
            retry_max: self.retry_max.unwrap_or(Duration::from_secs(300)),
            retries: self.retries,
            games: self.games,
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asks_logins_and_types_are_checked() {
        let ask = parse_ask("s8r20 5:00//2:00 bob").unwrap();
        assert_eq!(ask.line(), "tell /os ask s8r20 05:00//02:00 bob");
        for bad in ["s8r20 05:00//02:00", "8k 05:00//02:00 bob", "8 x bob", "8 05:00//02:00 .bob", "8 //02:00 bob"] {
            assert!(parse_ask(bad).is_err(), "{bad}");
        }
        assert!(parse_login("magpie").is_ok());
        for bad in ["m", "toolonglogin", ".dot", "_x", "a,b"] {
            assert!(parse_login(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_type_pattern("S8R*").unwrap(), "s8r*");
        assert!(parse_type_pattern("8a").is_err());
        assert!(parse_type_pattern("9").is_err());
    }
}
