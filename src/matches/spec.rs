//! What a match is made of: the engines (name, command, protocol, options) and the time control,
//! read from the command line or from a small configuration file.
//!
//! An engine is a list of `key=value` words, as cutechess-cli takes them: `name=…`, `cmd=…` (the
//! program and its arguments, split at blanks; default: this Magpie), `arg=…` (one more argument,
//! kept whole, repeatable), `dir=…` (the working directory; a relative `cmd` with a `/` is found
//! there), `proto=ugi|nboard|gtp` (default `ugi`), `option.<Name>=<value>` for each UGI option to
//! set, its own time control (`movetime=MS`, `depth=N` or `tc=SECONDS[+INC]`, overriding the
//! match's) and `stderr=FILE` (where its stderr is appended). In a file, each engine is a section:
//!
//! ```text
//! # Magpie against NTest, which only obeys a depth
//! [engine]
//! name = magpie
//!
//! [engine]
//! name = ntest
//! dir = /opt/ntest
//! cmd = ./ntest
//! proto = nboard
//! depth = 8
//! ```

use crate::protocol::Protocol;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One engine of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name shown in results (unique within a match).
    pub name: String,
    /// The program to run.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// The working directory it runs in (the runner's own when `None`).
    pub dir: Option<PathBuf>,
    /// The protocol it speaks.
    pub protocol: Protocol,
    /// UGI options to set after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Its own time control, overriding the match's.
    pub tc: Option<TimeControl>,
    /// The file its stderr is appended to (read and dropped when `None`, but for its last line).
    pub stderr: Option<PathBuf>,
}

impl EngineSpec {
    /// The program as it is started: a relative path with a directory part (`./edax`) is taken
    /// from the engine's working directory, as a shell started there would; a bare name is
    /// looked up in `PATH`.
    pub fn program_path(&self) -> PathBuf {
        match &self.dir {
            Some(dir) if self.program.is_relative() && self.program.components().count() > 1 => {
                dir.join(self.program.components().filter(|c| *c != std::path::Component::CurDir).collect::<PathBuf>())
            }
            _ => self.program.clone(),
        }
    }
}

/// How long the engines may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed depth per move (no time limit but the runner's hang timeout).
    Depth(u32),
    /// A clock per side: main time and an increment after each move, kept by the runner.
    Clock {
        /// Time at the start.
        main: Duration,
        /// Added after each move.
        increment: Duration,
    },
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::MoveTime(t) => write!(f, "{} ms per move", t.as_millis()),
            TimeControl::Depth(d) => write!(f, "depth {d}"),
            TimeControl::Clock { main, increment } => {
                write!(f, "{}+{} s", main.as_secs_f64(), increment.as_secs_f64())
            }
        }
    }
}

impl TimeControl {
    /// Parses `MAIN[+INC]` in seconds, e.g. `60+0.5`.
    pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
        let bad = || format!("'{text}' is not a clock (expected seconds[+increment], e.g. 60+0.5)");
        let (main, inc) = text.split_once('+').unwrap_or((text, "0"));
        let seconds = |s: &str| {
            s.trim().parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e7).map(Duration::from_secs_f64)
        };
        let main = seconds(main).filter(|m| !m.is_zero()).ok_or_else(bad)?;
        let increment = seconds(inc).ok_or_else(bad)?;
        Ok(TimeControl::Clock { main, increment })
    }

    /// Whether an engine speaking `protocol` can be given this time control.
    pub fn check(&self, protocol: Protocol) -> Result<(), String> {
        match (self, protocol) {
            (TimeControl::Depth(_), Protocol::Gtp) => {
                Err("a depth time control cannot be given over GTP (it has no depth command)".to_string())
            }
            _ => Ok(()),
        }
    }
}

/// Parses one engine from its `key=value` words. `magpie` is the program used when no `cmd` is
/// given (the running executable).
pub fn parse_engine(words: &[String], magpie: &Path) -> Result<EngineSpec, String> {
    let mut name = None;
    let mut command: Option<Vec<String>> = None;
    let mut extra_args = Vec::new();
    let mut dir = None;
    let mut protocol = Protocol::Ugi;
    let mut options = Vec::new();
    let mut tc: Option<(String, TimeControl)> = None;
    let mut stderr = None;
    for word in words {
        let (key, value) = word.split_once('=').ok_or_else(|| format!("engine: '{word}' is not key=value ({KEYS})"))?;
        let key = key.trim();
        let own_tc = match key {
            "name" => {
                name = Some(value.trim().to_string());
                None
            }
            "cmd" => {
                command = Some(value.split_whitespace().map(str::to_string).collect());
                None
            }
            // Kept whole: an argument may hold blanks.
            "arg" => {
                extra_args.push(value.to_string());
                None
            }
            "dir" => {
                dir = Some(PathBuf::from(value.trim())).filter(|d| !d.as_os_str().is_empty());
                None
            }
            "stderr" => {
                stderr = Some(PathBuf::from(value.trim())).filter(|f| !f.as_os_str().is_empty());
                None
            }
            "proto" | "protocol" => {
                protocol = value.trim().parse().map_err(|e| format!("engine: {e}"))?;
                None
            }
            "movetime" => Some(parse_movetime(value.trim()).map_err(|e| format!("engine: movetime: {e}"))?),
            "depth" => Some(parse_depth(value.trim()).map_err(|e| format!("engine: depth: {e}"))?),
            "tc" => Some(TimeControl::parse_clock(value.trim()).map_err(|e| format!("engine: tc: {e}"))?),
            other => match other.strip_prefix("option.") {
                Some(option) if !option.is_empty() => {
                    options.push((option.to_string(), value.trim().to_string()));
                    None
                }
                _ => return Err(format!("engine: unknown key '{other}' (expected {KEYS})")),
            },
        };
        if let Some(own) = own_tc {
            if let Some((first, _)) = &tc {
                return Err(format!("engine: '{first}' and '{key}' both set its time control: give one"));
            }
            tc = Some((key.to_string(), own));
        }
    }
    let (program, mut args) = match command {
        Some(words) if !words.is_empty() => (PathBuf::from(&words[0]), words[1..].to_vec()),
        Some(_) => return Err("engine: 'cmd=' is empty".to_string()),
        None => (magpie.to_path_buf(), Vec::new()),
    };
    args.extend(extra_args);
    if !options.is_empty() && protocol != Protocol::Ugi {
        return Err(format!("engine: options are set over UGI only; give {protocol} engines their options as arg="));
    }
    let tc = tc.map(|(_, tc)| tc);
    if let Some(tc) = &tc {
        tc.check(protocol).map_err(|e| format!("engine: {e}"))?;
    }
    let name = match name.filter(|n| !n.is_empty()) {
        Some(n) => n,
        None => default_name(&program, &args, &options),
    };
    if name.chars().any(|c| c == ']' || c.is_control()) {
        return Err(format!("engine: the name '{}' may not contain ']' or control characters", name.escape_debug()));
    }
    Ok(EngineSpec { name, program, args, dir, protocol, options, tc, stderr })
}

/// The keys an engine takes, for messages.
const KEYS: &str = "name, cmd, arg, dir, proto, option.<Name>, movetime, depth, tc, stderr";

/// A time per move in milliseconds, as `--movetime` takes it.
pub fn parse_movetime(text: &str) -> Result<TimeControl, String> {
    text.parse::<u64>()
        .ok()
        .filter(|ms| (1..=86_400_000).contains(ms))
        .map(|ms| TimeControl::MoveTime(Duration::from_millis(ms)))
        .ok_or_else(|| format!("'{text}' is not a number of milliseconds from 1 to 86400000"))
}

/// A depth per move, as `--depth` takes it.
pub fn parse_depth(text: &str) -> Result<TimeControl, String> {
    text.parse::<u32>()
        .ok()
        .filter(|d| (1..=60).contains(d))
        .map(TimeControl::Depth)
        .ok_or_else(|| format!("'{text}' is not a depth from 1 to 60"))
}

/// A readable name from the command and options: `magpie`, `magpie Eval=iagno`.
fn default_name(program: &std::path::Path, args: &[String], options: &[(String, String)]) -> String {
    let base = program.file_name().map_or_else(|| "engine".to_string(), |f| f.to_string_lossy().into_owned());
    let mut parts = vec![base];
    parts.extend(args.iter().cloned());
    parts.extend(options.iter().map(|(k, v)| format!("{k}={v}")));
    parts.join(" ")
}

/// Parses an engines file: `[engine]` sections of `key = value` lines; `#` starts a comment.
pub fn parse_engines_file(text: &str, magpie: &Path) -> Result<Vec<EngineSpec>, String> {
    let mut sections: Vec<Vec<String>> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if line.eq_ignore_ascii_case("[engine]") {
            sections.push(Vec::new());
            continue;
        }
        let Some(section) = sections.last_mut() else {
            return Err(format!("line {}: '{line}' comes before any [engine] section", number + 1));
        };
        let Some((key, value)) = line.split_once('=') else {
            return Err(format!("line {}: '{line}' is not key = value", number + 1));
        };
        section.push(format!("{}={}", key.trim(), value.trim()));
    }
    sections
        .iter()
        .enumerate()
        .map(|(i, words)| parse_engine(words, magpie).map_err(|e| format!("engine {}: {e}", i + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn engines_from_words() {
        let magpie = PathBuf::from("/bin/magpie");
        let e = parse_engine(&words("name=iagno option.Eval=iagno"), &magpie).unwrap();
        assert_eq!(e.name, "iagno");
        assert_eq!(e.program, magpie);
        assert_eq!(e.protocol, Protocol::Ugi);
        assert_eq!(e.options, [("Eval".to_string(), "iagno".to_string())]);
        let e = parse_engine(&["cmd=/usr/bin/edax -q".to_string(), "proto=nboard".to_string()], &magpie).unwrap();
        assert_eq!(e.program, PathBuf::from("/usr/bin/edax"));
        assert_eq!(e.args, ["-q"]);
        assert_eq!(e.name, "edax -q");
        let e = parse_engine(&words("option.Level=3"), &magpie).unwrap();
        assert_eq!(e.name, "magpie Level=3");
    }

    #[test]
    fn engine_errors_name_the_word() {
        let magpie = PathBuf::from("magpie");
        assert!(parse_engine(&words("colour=red"), &magpie).unwrap_err().contains("'colour'"));
        assert!(parse_engine(&words("nokey"), &magpie).unwrap_err().contains("'nokey'"));
        assert!(parse_engine(&words("proto=xboard"), &magpie).unwrap_err().contains("xboard"));
        assert!(parse_engine(&words("proto=gtp option.Eval=x"), &magpie).is_err());
        assert!(parse_engine(&["cmd=".to_string()], &magpie).is_err());
        assert!(parse_engine(&words("movetime=0"), &magpie).unwrap_err().contains("'0'"));
        assert!(parse_engine(&words("depth=61"), &magpie).unwrap_err().contains("'61'"));
        assert!(parse_engine(&words("tc=fast"), &magpie).unwrap_err().contains("'fast'"));
        assert!(parse_engine(&words("depth=3 movetime=50"), &magpie).unwrap_err().contains("'depth' and 'movetime'"));
        assert!(parse_engine(&words("proto=gtp depth=3"), &magpie).unwrap_err().contains("GTP"));
    }

    #[test]
    fn engines_as_cutechess_takes_them() {
        let magpie = PathBuf::from("/bin/magpie");
        let given = ["dir=/opt/edax", "cmd=./lEdax-x64 -q", "arg=-nboard", "arg=a b ", "proto=nboard", "depth=8"];
        let e = parse_engine(&given.map(str::to_string), &magpie).unwrap();
        assert_eq!(e.args, ["-q", "-nboard", "a b "], "arg= is one argument, blanks kept");
        assert_eq!(e.dir, Some(PathBuf::from("/opt/edax")));
        assert_eq!(e.program_path(), PathBuf::from("/opt/edax/lEdax-x64"));
        assert_eq!(e.tc, Some(TimeControl::Depth(8)));
        assert_eq!(e.stderr, None);
        // arg= alone gives this Magpie its arguments; a bare program name is left to PATH.
        let e = parse_engine(&words("arg=--level arg=3 movetime=40 stderr=m.log"), &magpie).unwrap();
        assert_eq!((e.program.clone(), e.args.clone()), (magpie.clone(), vec!["--level".into(), "3".into()]));
        assert_eq!(e.tc, Some(TimeControl::MoveTime(Duration::from_millis(40))));
        assert_eq!(e.stderr, Some(PathBuf::from("m.log")));
        let e = parse_engine(&words("dir=/tmp cmd=ntest tc=10+0.5"), &magpie).unwrap();
        assert_eq!(e.program_path(), PathBuf::from("ntest"));
        assert!(matches!(e.tc, Some(TimeControl::Clock { .. })));
    }

    #[test]
    fn engines_file() {
        let magpie = PathBuf::from("magpie");
        let text = "# a match\n[engine]\nname = a\n\n[engine]\nname = b  # the other\noption.Eval = discs\n";
        let engines = parse_engines_file(text, &magpie).unwrap();
        assert_eq!(engines.len(), 2);
        assert_eq!(engines[1].options, [("Eval".to_string(), "discs".to_string())]);
        let text = "[engine]\nname = ntest\ndir = /opt/ntest\ncmd = ./ntest\narg = x y\nproto = nboard\ndepth = 8\n\
                    stderr = ntest.log\n";
        let ntest = &parse_engines_file(text, &magpie).unwrap()[0];
        assert_eq!(ntest.program_path(), PathBuf::from("/opt/ntest/ntest"));
        assert_eq!(ntest.args, ["x y"]);
        assert_eq!(ntest.tc, Some(TimeControl::Depth(8)));
        assert_eq!(ntest.stderr, Some(PathBuf::from("ntest.log")));
        assert!(parse_engines_file("name = a\n", &magpie).unwrap_err().contains("line 1"));
        assert!(parse_engines_file("[engine]\nname a\n", &magpie).unwrap_err().contains("line 2"));
    }

    #[test]
    fn clocks() {
        assert_eq!(
            TimeControl::parse_clock("60+0.5"),
            Ok(TimeControl::Clock { main: Duration::from_secs(60), increment: Duration::from_millis(500) })
        );
        assert_eq!(
            TimeControl::parse_clock("10"),
            Ok(TimeControl::Clock { main: Duration::from_secs(10), increment: Duration::ZERO })
        );
        for bad in ["", "x", "0", "-5", "5+x", "inf"] {
            assert!(TimeControl::parse_clock(bad).is_err(), "{bad}");
        }
        assert!(TimeControl::Depth(3).check(Protocol::Gtp).is_err());
        assert!(TimeControl::Depth(3).check(Protocol::Nboard).is_ok());
    }
}
