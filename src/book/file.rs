//! The book's files: the binary book, the journal of a growth run, and the text form.
//!
//! The binary book (all numbers little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 8 | `MAGPIEBK` |
//! | 4 | format version, 1 |
//! | 8 | the number of positions n |
//! | 26 × n | the positions in increasing order of key: the side to move's discs (8), the other side's (8), value (2, i16 centi-discs), leaf (1, a square of the canonical board or 255), leaf value (2), depth (1), games (4) |
//! | 8 | FNV-1a 64 hash of every byte before it |
//!
//! A file that is not a book, of another version, cut short, longer than its count says, damaged
//! (hash) or holding an impossible position (overlapping discs, a leaf on a full square,
//! positions out of order) is refused with a one-line error; nothing is changed.
//!
//! The journal (`<book>.journal`) is what a growth run has scored since the book was last written:
//! `MAGPIEJR`, the version (4), then records of one position each (26 bytes as above and a 4-byte
//! check, the low half of the FNV-1a hash of the 26). A run appends a record as soon as a position
//! is scored, so a run killed at any moment loses at most the position being searched; the next
//! run replays the journal (a record cut short by the kill, at the end, is dropped) and writes the
//! whole book, then removes the journal. The book itself is written to a temporary file beside it
//! that replaces it in one rename, so a kill while writing leaves the old file whole.
//!
//! The text form has one position a line: its 64 squares from a1 (`X` the side to move, `O` the
//! other side, `-` empty), then `X`, the value, the depth, the leaf (a square, or `--`), the leaf's
//! value and the games, separated by spaces; lines starting with `#` are comments.

use super::{Book, BookKey, Entry, NO_LEAF, canonical_position};
use crate::board::Square;
use crate::board::symmetry::canonical;
use crate::eval::weights::fnv1a;
use crate::formats::position_text::squares_text;
use crate::quote::io_text;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"MAGPIEBK";
const JOURNAL_MAGIC: &[u8; 8] = b"MAGPIEJR";
/// The format version this Magpie reads and writes.
pub const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 8;
const RECORD: usize = 26;
const JOURNAL_RECORD: usize = RECORD + 4;

/// Why a book could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookError {
    /// The file could not be read or written.
    Io(String),
    /// It does not start as a book does.
    NotABook,
    /// It is a book of another format version.
    Version(u32),
    /// It is shorter or longer than its header says.
    Length { expected: u64, found: u64 },
    /// Its hash does not match its contents.
    Checksum,
    /// A record holds an impossible position or leaf (the record's number, from 1).
    BadRecord(u64),
    /// A line of the text form is wrong (its number, from 1, and why).
    Text(usize, String),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "{e}"),
            BookError::NotABook => write!(f, "not a Magpie book (it does not start with MAGPIEBK)"),
            BookError::Version(v) => write!(f, "book format version {v}; this Magpie reads version {VERSION}"),
            BookError::Length { expected, found } => {
                write!(f, "the book is {found} bytes where its header says {expected}: cut short or damaged")
            }
            BookError::Checksum => write!(f, "the book is damaged (its checksum does not match)"),
            BookError::BadRecord(n) => write!(f, "position {n} of the book is impossible (damaged file)"),
            BookError::Text(line, why) => write!(f, "line {line}: {why}"),
        }
    }
}

impl std::error::Error for BookError {}

/// The 26 bytes of one position.
fn encode(key: &BookKey, e: &Entry, out: &mut Vec<u8>) {
    out.extend_from_slice(&key.0.to_le_bytes());
    out.extend_from_slice(&key.1.to_le_bytes());
    out.extend_from_slice(&e.value.to_le_bytes());
    out.push(e.leaf);
    out.extend_from_slice(&e.leaf_value.to_le_bytes());
    out.push(e.depth);
    out.extend_from_slice(&e.games.to_le_bytes());
}

/// One position from its 26 bytes, if it is possible: disjoint discs, not the canonical form of
/// another image (so no two records can be one position), a leaf on an empty square.
fn decode(bytes: &[u8]) -> Option<(BookKey, Entry)> {
    let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or([0; 8]));
    let (player, opponent) = (word(0), word(8));
    let entry = Entry {
        value: i16::from_le_bytes([bytes[16], bytes[17]]),
        leaf: bytes[18],
        leaf_value: i16::from_le_bytes([bytes[19], bytes[20]]),
        depth: bytes[21],
        games: u32::from_le_bytes([bytes[22], bytes[23], bytes[24], bytes[25]]),
    };
    let empty = !(player | opponent);
    let leaf_ok = entry.leaf == NO_LEAF || (entry.leaf < 64 && empty >> entry.leaf & 1 == 1);
    let canonical_ok = {
        let (p, o, _) = canonical(player, opponent);
        (p, o) == (player, opponent)
    };
    let values_ok = entry.value.abs() <= 6400 && entry.leaf_value.abs() <= 6400;
    (player & opponent == 0 && leaf_ok && canonical_ok && values_ok).then_some(((player, opponent), entry))
}

impl Book {
    /// The book as the bytes of its file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut keys: Vec<&BookKey> = self.entries.keys().collect();
        keys.sort_unstable();
        let mut out = Vec::with_capacity(HEADER + RECORD * keys.len() + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(keys.len() as u64).to_le_bytes());
        for key in keys {
            encode(key, &self.entries[key], &mut out);
        }
        let hash = fnv1a(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// A book from the bytes of its file, checked whole.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(BookError::NotABook);
        }
        if bytes.len() < HEADER {
            return Err(BookError::Length { expected: HEADER as u64 + 8, found: bytes.len() as u64 });
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap_or([0; 4]));
        if version != VERSION {
            return Err(BookError::Version(version));
        }
        let count = u64::from_le_bytes(bytes[12..20].try_into().unwrap_or([0; 8]));
        let expected = count.checked_mul(RECORD as u64).and_then(|n| n.checked_add(HEADER as u64 + 8));
        if expected != Some(bytes.len() as u64) {
            return Err(BookError::Length { expected: expected.unwrap_or(u64::MAX), found: bytes.len() as u64 });
        }
        let body = bytes.len() - 8;
        if fnv1a(&bytes[..body]).to_le_bytes() != bytes[body..] {
            return Err(BookError::Checksum);
        }
        let mut book = Book::new();
        book.entries.reserve(count as usize);
        let mut last: Option<BookKey> = None;
        for (i, record) in bytes[HEADER..body].chunks_exact(RECORD).enumerate() {
            let (key, entry) = decode(record).ok_or(BookError::BadRecord(i as u64 + 1))?;
            if last.is_some_and(|l| l >= key) {
                return Err(BookError::BadRecord(i as u64 + 1));
            }
            last = Some(key);
            book.entries.insert(key, entry);
        }
        Ok(book)
    }

    /// Reads a book file. Only a regular file is read: a folder, a device or a pipe
    /// (`/dev/zero`, a FIFO nobody writes) could never end or never be a book.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let bytes = crate::quote::read_file(path).map_err(BookError::Io)?;
        Book::from_bytes(&bytes)
    }

    /// Writes the book to `path` safely: to a temporary file beside it, flushed to the disk,
    /// then renamed over it, so that a kill at any moment leaves either the old file or the new.
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        let io = |e: io::Error| BookError::Io(format!("cannot write {}: {e}", path.display()));
        let tmp = temporary_path(path);
        {
            let mut file = File::create(&tmp).map_err(io)?;
            file.write_all(&self.to_bytes()).map_err(io)?;
            file.sync_all().map_err(io)?;
        }
        fs::rename(&tmp, path).map_err(io)
    }

    /// The text form: a comment line, then one position a line in key order.
    pub fn to_text(&self) -> String {
        let mut keys: Vec<&BookKey> = self.entries.keys().collect();
        keys.sort_unstable();
        let mut out = String::from("# magpie book: squares (X to move) X value depth leaf leaf-value games\n");
        for key in keys {
            let e = &self.entries[key];
            let leaf = if e.leaf == NO_LEAF {
                "--".to_string()
            } else {
                Square::from_index_unchecked(u32::from(e.leaf)).to_string()
            };
            let squares = squares_text(&canonical_position(*key));
            out.push_str(&format!("{squares} X {} {} {leaf} {} {}\n", e.value, e.depth, e.leaf_value, e.games));
        }
        out
    }

    /// A book from its text form. The positions may be in any order and any of their 8 images;
    /// each is stored under its canonical form (its leaf moved with it).
    pub fn from_text(text: &str) -> Result<Book, BookError> {
        let mut book = Book::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, entry) = parse_line(line).map_err(|why| BookError::Text(i + 1, why))?;
            if book.entries.insert(key, entry).is_some() {
                return Err(BookError::Text(i + 1, "a position given twice (perhaps as another image)".into()));
            }
        }
        Ok(book)
    }
}

/// One line of the text form.
fn parse_line(line: &str) -> Result<(BookKey, Entry), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [squares, side, value, depth, leaf, leaf_value, games] = words[..] else {
        return Err(format!("expected 7 fields (squares X value depth leaf leaf-value games), found {}", words.len()));
    };
    if side != "X" {
        return Err(format!("the side to move must be written X (its discs are the X squares), found {side:?}"));
    }
    if squares.chars().count() != 64 {
        return Err(format!("expected 64 squares, found {}", squares.chars().count()));
    }
    let (mut player, mut opponent) = (0u64, 0u64);
    for (i, c) in squares.chars().enumerate() {
        match c {
            'X' => player |= 1 << i,
            'O' => opponent |= 1 << i,
            '-' => {}
            _ => return Err(format!("square {} is {c:?}: expected X, O or -", i + 1)),
        }
    }
    let number = |name: &str, text: &str| -> Result<i16, String> {
        text.parse::<i16>()
            .ok()
            .filter(|v| v.abs() <= 6400)
            .ok_or_else(|| format!("{name} {text:?} is not a value in centi-discs (-6400 to 6400)"))
    };
    let value = number("value", value)?;
    let leaf_value = number("leaf value", leaf_value)?;
    let depth = depth.parse::<u8>().map_err(|_| format!("depth {depth:?} is not a number from 0 to 255"))?;
    let games = games.parse::<u32>().map_err(|_| format!("games {games:?} is not a count"))?;
    let leaf_square = if leaf == "--" {
        None
    } else {
        let square = leaf.parse::<Square>().map_err(|_| format!("leaf {leaf:?} is not a square or --"))?;
        if (player | opponent) >> square.index() & 1 == 1 {
            return Err(format!("leaf {leaf} is not an empty square"));
        }
        Some(square)
    };
    let (p, o, _) = canonical(player, opponent);
    let pos = crate::board::Position::from_player_opponent(
        player,
        opponent,
        crate::board::Color::Black,
        crate::board::BoardSize::Eight,
    );
    let leaf = leaf_square.map_or(NO_LEAF, |sq| super::canonical_square(&pos, sq));
    Ok(((p, o), Entry { value, leaf, leaf_value, depth, games }))
}

/// The temporary file a book is written to before it replaces `path`.
fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".tmp");
    path.with_file_name(name)
}

/// The journal of a growth run on the book at `path`.
pub fn journal_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".journal");
    path.with_file_name(name)
}

/// The journal a growth run appends each scored position to.
pub struct Journal {
    file: File,
}

impl Journal {
    /// Opens the journal of the book at `path` for appending, starting it if it is new.
    pub fn open(path: &Path) -> Result<Journal, BookError> {
        let journal = journal_path(path);
        let io = |e: io::Error| BookError::Io(format!("cannot write {}: {e}", journal.display()));
        let mut file = OpenOptions::new().create(true).append(true).open(&journal).map_err(io)?;
        if file.metadata().map_err(io)?.len() == 0 {
            file.write_all(JOURNAL_MAGIC).map_err(io)?;
            file.write_all(&VERSION.to_le_bytes()).map_err(io)?;
            file.flush().map_err(io)?;
        }
        Ok(Journal { file })
    }

    /// Starts the journal of the book at `path` afresh, once the book holds what it held.
    pub fn open_fresh(path: &Path) -> Result<Journal, BookError> {
        let journal = journal_path(path);
        let io = |e: io::Error| BookError::Io(format!("cannot write {}: {e}", journal.display()));
        let mut file = File::create(&journal).map_err(io)?;
        file.write_all(JOURNAL_MAGIC).map_err(io)?;
        file.write_all(&VERSION.to_le_bytes()).map_err(io)?;
        file.flush().map_err(io)?;
        drop(file);
        Journal::open(path)
    }

    /// Appends one position, written through to the file before this returns.
    pub fn append(&mut self, key: &BookKey, entry: &Entry) -> Result<(), BookError> {
        let mut record = Vec::with_capacity(JOURNAL_RECORD);
        encode(key, entry, &mut record);
        let check = fnv1a(&record) as u32;
        record.extend_from_slice(&check.to_le_bytes());
        self.file.write_all(&record).map_err(|e| BookError::Io(format!("cannot write the journal: {e}")))
    }
}

/// Replays the journal of the book at `path` into `book`, if there is one: returns how many
/// positions it held. A record cut short at the end (a run killed while writing it) is dropped;
/// a damaged record elsewhere is an error.
pub fn replay_journal(path: &Path, book: &mut Book) -> Result<usize, BookError> {
    let journal = journal_path(path);
    let mut bytes = Vec::new();
    match File::open(&journal) {
        Ok(mut f) => {
            f.read_to_end(&mut bytes).map_err(|e| BookError::Io(format!("{}: {}", journal.display(), io_text(&e))))?
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(BookError::Io(format!("{}: {}", journal.display(), io_text(&e)))),
    };
    if bytes.len() < 12 {
        // A journal cut short before its header was whole holds nothing.
        return if JOURNAL_MAGIC.starts_with(&bytes[..bytes.len().min(8)]) { Ok(0) } else { Err(BookError::NotABook) };
    }
    if &bytes[..8] != JOURNAL_MAGIC {
        return Err(BookError::Io(format!("{} is not a Magpie book journal", journal.display())));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap_or([0; 4]));
    if version != VERSION {
        return Err(BookError::Version(version));
    }
    let records: Vec<&[u8]> = bytes[12..].chunks(JOURNAL_RECORD).collect();
    let mut replayed = 0;
    for (i, record) in records.iter().enumerate() {
        let last = i + 1 == records.len();
        let whole = record.len() == JOURNAL_RECORD
            && fnv1a(&record[..RECORD]) as u32 == u32::from_le_bytes(record[RECORD..].try_into().unwrap_or([0; 4]));
        if !whole {
            if last {
                break;
            }
            return Err(BookError::Io(format!("{}: record {} is damaged", journal.display(), i + 1)));
        }
        let (key, entry) = decode(&record[..RECORD]).ok_or(BookError::BadRecord(i as u64 + 1))?;
        book.entries.insert(key, entry);
        replayed += 1;
    }
    Ok(replayed)
}

/// Removes the journal of the book at `path` once the book holds everything in it.
pub fn remove_journal(path: &Path) -> Result<(), BookError> {
    match fs::remove_file(journal_path(path)) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => {
            Err(BookError::Io(format!("cannot remove {}: {e}", journal_path(path).display())))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Game, Position};
    use crate::book::book_key;
    use crate::formats::move_list::parse_moves;

    fn sample() -> Book {
        let mut book = Book::new();
        for (i, line) in ["", "f5", "f5d6", "f5f6", "f5d6c3"].iter().enumerate() {
            let mut game = Game::new(Position::initial());
            game.play_all(&parse_moves(line).unwrap()).unwrap();
            let pos = *game.position();
            let (key, _) = book_key(&pos);
            let leaf = pos.legal_moves().iter().next().unwrap();
            let entry = Entry {
                value: 10 * i as i16 - 20,
                leaf: crate::book::canonical_square(&pos, leaf),
                leaf_value: -(i as i16),
                depth: 12 + i as u8,
                games: 3 * i as u32,
            };
            book.insert(key, entry);
        }
        book
    }

    #[test]
    fn bytes_and_text_round_trip() {
        let book = sample();
        let bytes = book.to_bytes();
        assert_eq!(bytes.len(), HEADER + RECORD * 5 + 8);
        assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
        let text = book.to_text();
        assert_eq!(text.lines().count(), 6);
        assert_eq!(Book::from_text(&text).unwrap(), book);
    }

    #[test]
    fn text_in_another_image_lands_on_the_same_entry() {
        let book = sample();
        // Mirror every line's squares (a1..h8 read backwards is the 180-degree turn) and its leaf.
        let turned: String = book
            .to_text()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                let w: Vec<&str> = l.split(' ').collect();
                let squares: String = w[0].chars().rev().collect();
                let leaf = if w[4] == "--" {
                    "--".to_string()
                } else {
                    let sq = w[4].parse::<Square>().unwrap();
                    Square::from_index_unchecked(63 - sq.index() as u32).to_string()
                };
                format!("{squares} X {} {} {leaf} {} {}\n", w[2], w[3], w[5], w[6])
            })
            .collect();
        assert_eq!(Book::from_text(&turned).unwrap(), book);
    }

    #[test]
    fn damaged_books_are_refused() {
        let bytes = sample().to_bytes();
        assert_eq!(Book::from_bytes(b"hello world, not a book"), Err(BookError::NotABook));
        let mut version = bytes.clone();
        version[8] = 2;
        assert_eq!(Book::from_bytes(&version), Err(BookError::Version(2)));
        let cut = &bytes[..bytes.len() - 10];
        assert!(matches!(Book::from_bytes(cut), Err(BookError::Length { .. })));
        let mut flipped = bytes.clone();
        flipped[HEADER + 17] ^= 1;
        assert_eq!(Book::from_bytes(&flipped), Err(BookError::Checksum));
        // A record that is not the canonical image of its position, with a valid hash: refused.
        let mut book = sample();
        let mut game = Game::new(Position::initial());
        game.play_all(&parse_moves("f5d6c3").unwrap()).unwrap();
        let (key, _) = book_key(game.position());
        let entry = book.entries.remove(&key).unwrap();
        let turned = (key.0.swap_bytes(), key.1.swap_bytes());
        assert_ne!(turned, key);
        book.entries.insert(turned, Entry { leaf: NO_LEAF, ..entry });
        let bad = book.to_bytes();
        assert!(matches!(Book::from_bytes(&bad), Err(BookError::BadRecord(_))));
        for (line, want) in [
            ("XO X 1 2 -- 3 4", "expected 64 squares"),
            ("a b c", "expected 7 fields"),
            (&format!("{} X 99999 1 -- 0 0", "-".repeat(64)), "not a value"),
            (&format!("{} O 0 1 -- 0 0", "-".repeat(64)), "must be written X"),
        ] {
            let err = Book::from_text(line).unwrap_err().to_string();
            assert!(err.starts_with("line 1: ") && err.contains(want), "{line}: {err}");
        }
    }

    #[test]
    fn the_journal_replays_and_drops_a_torn_tail() {
        let dir = std::env::temp_dir().join(format!("magpie-journal-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("b.book");
        let book = sample();
        {
            let mut journal = Journal::open(&path).unwrap();
            for (key, entry) in book.entries() {
                journal.append(key, entry).unwrap();
            }
        }
        // A kill in the middle of the next record.
        let mut f = OpenOptions::new().append(true).open(journal_path(&path)).unwrap();
        f.write_all(&[1, 2, 3, 4, 5]).unwrap();
        drop(f);
        let mut back = Book::new();
        assert_eq!(replay_journal(&path, &mut back).unwrap(), 5);
        assert_eq!(back, book);
        book.save(&path).unwrap();
        remove_journal(&path).unwrap();
        assert_eq!(replay_journal(&path, &mut Book::new()).unwrap(), 0);
        assert_eq!(Book::load(&path).unwrap(), book);
        assert!(!temporary_path(&path).exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
