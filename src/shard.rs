//! Shards: the share `I/N` of a long job's games or positions that one run takes, so that
//! several processes or machines split the work and their outputs, concatenated, equal one
//! unsharded run's (`datagen`, `wthor-samples`, `book grow`).

use std::fmt;
use std::str::FromStr;

/// Which share of the games one run plays: the games `j` with `j % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// This shard's number, below `count`.
    pub index: u64,
    /// How many shards the games are split into.
    pub count: u64,
}

impl Shard {
    /// All the games in one shard.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether game `game` belongs to this shard.
    pub fn contains(self, game: u64) -> bool {
        game % self.count.max(1) == self.index
    }

    /// This shard's games among `0..total`, in order.
    pub fn games(self, total: u64) -> impl Iterator<Item = u64> {
        (self.index..total).step_by(self.count.clamp(1, usize::MAX as u64) as usize)
    }

    /// How many of the games `0..total` are this shard's.
    pub fn len(self, total: u64) -> u64 {
        if total <= self.index { 0 } else { (total - self.index - 1) / self.count.max(1) + 1 }
    }

    /// Whether this shard has none of the games `0..total`.
    pub fn is_empty(self, total: u64) -> bool {
        self.len(total) == 0
    }

    /// The `k`th game of this shard.
    pub fn game(self, k: u64) -> u64 {
        self.index + k * self.count
    }
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::ALL
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Why a shard `I/N` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseShardError {
    /// Not two whole numbers around a slash.
    Syntax(String),
    /// `N` is zero.
    NoShards(String),
    /// `I` is not below `N`.
    IndexTooLarge(String),
}

impl fmt::Display for ParseShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseShardError::Syntax(text) => write!(f, "'{text}' is not a shard I/N, such as 0/4"),
            ParseShardError::NoShards(text) => write!(f, "'{text}': the number of shards must be at least 1"),
            ParseShardError::IndexTooLarge(text) => {
                write!(f, "'{text}': the shard's number must be below the number of shards")
            }
        }
    }
}

impl std::error::Error for ParseShardError {}

impl FromStr for Shard {
    type Err = ParseShardError;

    fn from_str(text: &str) -> Result<Shard, ParseShardError> {
        let syntax = || ParseShardError::Syntax(text.to_string());
        let (index, count) = text.split_once('/').ok_or_else(syntax)?;
        let number = |word: &str| {
            let word = word.trim();
            if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            word.parse::<u64>().ok()
        };
        let (Some(index), Some(count)) = (number(index), number(count)) else { return Err(syntax()) };
        if count == 0 {
            return Err(ParseShardError::NoShards(text.to_string()));
        }
        if index >= count {
            return Err(ParseShardError::IndexTooLarge(text.to_string()));
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_refuse_with_the_text() {
        assert_eq!("0/1".parse(), Ok(Shard::ALL));
        assert_eq!("3/8".parse(), Ok(Shard { index: 3, count: 8 }));
        assert_eq!(Shard { index: 3, count: 8 }.to_string(), "3/8");
        for bad in
            ["3/2", "2/2", "1/0", "x", "", "1/", "/2", "-1/2", "+1/2", "1/2/3", "1.0/2", "99999999999999999999/1"]
        {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.to_string().contains(&format!("'{bad}'")), "{bad}: {e}");
        }
        assert!(matches!("1/0".parse::<Shard>(), Err(ParseShardError::NoShards(_))));
        assert!(matches!("3/2".parse::<Shard>(), Err(ParseShardError::IndexTooLarge(_))));
    }

    #[test]
    fn shards_split_the_games() {
        for total in 0..12 {
            for count in 1..5 {
                let mut all: Vec<u64> = Vec::new();
                for index in 0..count {
                    let shard = Shard { index, count };
                    let games: Vec<u64> = shard.games(total).collect();
                    assert_eq!(games.len() as u64, shard.len(total));
                    assert!(games.iter().all(|&j| shard.contains(j)));
                    assert!((0..shard.len(total)).all(|k| games[k as usize] == shard.game(k)));
                    all.extend(games);
                }
                all.sort_unstable();
                assert_eq!(all, (0..total).collect::<Vec<_>>());
            }
        }
        assert!(Shard { index: 5, count: 8 }.is_empty(3));
    }
}
