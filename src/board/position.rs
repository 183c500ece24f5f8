//! `Position`: the discs of the side to move and of its opponent, whose turn it is, and the board
//! size. The rules of Othello live here: legal moves, flips, play, pass, game end and score.

use super::bitboard::Bitboard;
use super::movegen;
use super::size::BoardSize;
use super::square::{Color, Move, Square};
use std::fmt;

/// A position: two bitboards relative to the side to move (as in Edax and every strong engine),
/// plus the colour of the side to move and the board size.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    player: u64,
    opponent: u64,
    side_to_move: Color,
    size: BoardSize,
}

/// Why a set of discs is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A square holds both a black and a white disc.
    Overlap(Square),
    /// A disc lies outside the playable squares of the board size.
    OffBoard(Square, BoardSize),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Overlap(sq) => write!(f, "square {sq} holds both a black and a white disc"),
            PositionError::OffBoard(sq, size) => write!(f, "square {sq} is not on the {size} board"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A move that the rules do not allow in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move that was refused.
    pub mv: Move,
    /// Why it was refused.
    pub reason: IllegalReason,
}

/// Why a move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// The square is not on the board of this size.
    OffBoard,
    /// The square already holds a disc.
    Occupied,
    /// The disc would flip nothing.
    NoFlips,
    /// A pass while a disc can be played.
    PassWithMoves,
    /// The game is over: neither side can move.
    GameOver,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.reason {
            IllegalReason::OffBoard => "the square is not on the board",
            IllegalReason::Occupied => "the square is occupied",
            IllegalReason::NoFlips => "it flips no disc",
            IllegalReason::PassWithMoves => "a legal move exists",
            IllegalReason::GameOver => "the game is over",
        };
        write!(f, "illegal move {}: {why}", self.mv)
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// The standard start position of the given size, Black to move.
    pub const fn start(size: BoardSize) -> Position {
        let (white, black) = size.start_discs();
        Position { player: black, opponent: white, side_to_move: Color::Black, size }
    }

    /// The standard 8x8 start position.
    pub const fn initial() -> Position {
        Position::start(BoardSize::Eight)
    }

    /// A position from the black and white discs, checking that they do not overlap and lie on
    /// the board.
    pub fn from_discs(black: u64, white: u64, side_to_move: Color, size: BoardSize) -> Result<Position, PositionError> {
        if let Some(sq) = Bitboard(black & white).first() {
            return Err(PositionError::Overlap(sq));
        }
        if let Some(sq) = Bitboard((black | white) & !size.playable()).first() {
            return Err(PositionError::OffBoard(sq, size));
        }
        let (player, opponent) = match side_to_move {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        Ok(Position { player, opponent, side_to_move, size })
    }

    /// A position from the discs of the side to move and its opponent, without checks: for the
    /// search, which only builds positions from legal ones. The caller guarantees the discs are
    /// disjoint and on the board.
    #[inline]
    pub const fn from_player_opponent(player: u64, opponent: u64, side_to_move: Color, size: BoardSize) -> Position {
        Position { player, opponent, side_to_move, size }
    }

    /// The discs of the side to move.
    #[inline]
    pub const fn player(&self) -> u64 {
        self.player
    }

    /// The discs of the side not to move.
    #[inline]
    pub const fn opponent(&self) -> u64 {
        self.opponent
    }

    /// The colour to move.
    #[inline]
    pub const fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The board size.
    #[inline]
    pub const fn size(&self) -> BoardSize {
        self.size
    }

    /// The discs of `color`.
    #[inline]
    pub const fn discs(&self, color: Color) -> Bitboard {
        if matches!((color, self.side_to_move), (Color::Black, Color::Black) | (Color::White, Color::White)) {
            Bitboard(self.player)
        } else {
            Bitboard(self.opponent)
        }
    }

    /// Black's discs.
    pub const fn black(&self) -> Bitboard {
        self.discs(Color::Black)
    }

    /// White's discs.
    pub const fn white(&self) -> Bitboard {
        self.discs(Color::White)
    }

    /// The empty playable squares.
    #[inline]
    pub const fn empties(&self) -> Bitboard {
        Bitboard(!(self.player | self.opponent) & self.size.playable())
    }

    /// The number of empty playable squares.
    #[inline]
    pub const fn empty_count(&self) -> u32 {
        self.size.squares() - (self.player | self.opponent).count_ones()
    }

    /// The squares where the side to move may play.
    #[inline]
    pub fn legal_moves(&self) -> Bitboard {
        Bitboard(movegen::legal_moves(self.player, self.opponent) & self.size.playable())
    }

    /// The squares where the opponent could play if it were its turn.
    #[inline]
    pub fn opponent_moves(&self) -> Bitboard {
        Bitboard(movegen::legal_moves(self.opponent, self.player) & self.size.playable())
    }

    /// The opponent discs that playing on `sq` would flip (empty when the move is illegal).
    #[inline]
    pub fn flips(&self, sq: Square) -> Bitboard {
        if (self.player | self.opponent | !self.size.playable()) & sq.bit() != 0 {
            return Bitboard::EMPTY;
        }
        Bitboard(movegen::flips(sq.index(), self.player, self.opponent))
    }

    /// Whether the side to move has no legal move but the game goes on (the opponent can move).
    pub fn must_pass(&self) -> bool {
        self.legal_moves().is_empty() && !self.opponent_moves().is_empty()
    }

    /// Whether neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.legal_moves().is_empty() && self.opponent_moves().is_empty()
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    fn check(&self, mv: Move) -> Result<(), IllegalReason> {
        match mv {
            Move::Pass => {
                if !self.legal_moves().is_empty() {
                    Err(IllegalReason::PassWithMoves)
                } else if self.opponent_moves().is_empty() {
                    Err(IllegalReason::GameOver)
                } else {
                    Ok(())
                }
            }
            Move::Play(sq) => {
                if self.size.playable() & sq.bit() == 0 {
                    Err(IllegalReason::OffBoard)
                } else if (self.player | self.opponent) & sq.bit() != 0 {
                    Err(IllegalReason::Occupied)
                } else if self.flips(sq).is_empty() {
                    Err(IllegalReason::NoFlips)
                } else {
                    Ok(())
                }
            }
        }
    }

    /// The position after `mv`, or why the move is illegal.
    pub fn try_play(&self, mv: Move) -> Result<Position, IllegalMove> {
        self.check(mv).map_err(|reason| IllegalMove { mv, reason })?;
        Ok(match mv {
            Move::Pass => self.pass(),
            Move::Play(sq) => self.play_with_flips(sq, self.flips(sq).0),
        })
    }

    /// The position after the side to move plays on `sq`, which must be a legal move.
    #[inline]
    pub fn play(&self, sq: Square) -> Position {
        debug_assert!(self.is_legal(Move::Play(sq)), "illegal move {sq}");
        self.play_with_flips(sq, movegen::flips(sq.index(), self.player, self.opponent))
    }

    /// The position after playing on `sq` with the given flips already computed.
    #[inline]
    pub const fn play_with_flips(&self, sq: Square, flips: u64) -> Position {
        Position {
            player: self.opponent ^ flips,
            opponent: self.player ^ flips ^ sq.bit(),
            side_to_move: self.side_to_move.opposite(),
            size: self.size,
        }
    }

    /// The position with the turn handed to the opponent (no legality check).
    #[inline]
    pub const fn pass(&self) -> Position {
        Position {
            player: self.opponent,
            opponent: self.player,
            side_to_move: self.side_to_move.opposite(),
            size: self.size,
        }
    }

    /// Black's and White's disc counts.
    pub const fn disc_counts(&self) -> (u32, u32) {
        (self.black().len(), self.white().len())
    }

    /// Discs of the side to move minus the opponent's.
    #[inline]
    pub const fn disc_difference(&self) -> i32 {
        self.player.count_ones() as i32 - self.opponent.count_ones() as i32
    }

    /// The final score from the side to move's point of view, under the rule of every engine and
    /// of the FFO files: the disc difference, with the empty squares counted for the winner (none
    /// to either side in a draw). Meant for finished games, but defined everywhere.
    #[inline]
    pub const fn final_score(&self) -> i32 {
        let diff = self.disc_difference();
        let empties = self.empty_count() as i32;
        if diff > 0 {
            diff + empties
        } else if diff < 0 {
            diff - empties
        } else {
            0
        }
    }

    /// The final score from Black's point of view.
    pub const fn final_score_for_black(&self) -> i32 {
        match self.side_to_move {
            Color::Black => self.final_score(),
            Color::White => -self.final_score(),
        }
    }

    /// A 64-bit hash of the discs of the side to move and of its opponent and of the board size,
    /// for transposition tables. The colour to move is not in it: the same discs with the other
    /// colour to move have the same value for the side to move.
    #[inline]
    pub const fn hash_key(&self) -> u64 {
        hash_discs(self.player, self.opponent, self.size)
    }
}

/// The hash of [`Position::hash_key`] from raw bitboards, for the search's inner loops.
///
/// The player's discs go through the murmur3 finaliser before the opponent's are mixed in, so
/// that no pattern of differences between two positions cancels out. (Multiplying each side by a
/// constant and XOR-ing, as before, made positions that differ by a disc of one side on h8 and
/// one of the other on h4 collide: each difference changed only the top bit. The solver then
/// read another position's bound and played wrong endgame moves.)
#[inline]
pub const fn hash_discs(player: u64, opponent: u64, size: BoardSize) -> u64 {
    let size_salt = match size {
        BoardSize::Eight => 0,
        BoardSize::Six => 0x6a09_e667_f3bc_c908,
        BoardSize::Four => 0xbb67_ae85_84ca_a73b,
    };
    fmix64(fmix64(player ^ size_salt) ^ opponent.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// The murmur3 finaliser: every input bit changes about half of the output bits.
#[inline]
const fn fmix64(x: u64) -> u64 {
    let mut h = x ^ (x >> 33);
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

impl Default for Position {
    fn default() -> Position {
        Position::initial()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn start_position() {
        let pos = Position::initial();
        assert_eq!(pos.side_to_move(), Color::Black);
        assert_eq!(pos.disc_counts(), (2, 2));
        assert_eq!(pos.empty_count(), 60);
        let moves: Vec<String> = pos.legal_moves().iter().map(|s| s.to_string()).collect();
        assert_eq!(moves, ["d3", "c4", "f5", "e6"]);
        let small = Position::start(BoardSize::Four);
        assert_eq!(small.empty_count(), 12);
        let moves: Vec<String> = small.legal_moves().iter().map(|s| s.to_string()).collect();
        assert_eq!(moves, ["b1", "a2", "d3", "c4"]);
    }

    #[test]
    fn play_flips_and_swaps_sides() {
        let pos = Position::initial().play(sq("f5"));
        assert_eq!(pos.side_to_move(), Color::White);
        assert_eq!(pos.disc_counts(), (4, 1));
        assert!(pos.black().contains(sq("e5")));
        assert!(pos.white().contains(sq("d4")));
    }

    #[test]
    fn illegal_moves_say_why() {
        let pos = Position::initial();
        let reason = |mv: Move| pos.try_play(mv).unwrap_err().reason;
        assert_eq!(reason(Move::Play(sq("d4"))), IllegalReason::Occupied);
        assert_eq!(reason(Move::Play(sq("a1"))), IllegalReason::NoFlips);
        assert_eq!(reason(Move::Pass), IllegalReason::PassWithMoves);
        let small = Position::start(BoardSize::Four);
        assert_eq!(small.try_play(Move::Play(sq("e5"))).unwrap_err().reason, IllegalReason::OffBoard);
    }

    #[test]
    fn final_score_gives_empties_to_the_winner() {
        // 3 black discs, 1 white, 60 empties: the 60 empties go to Black.
        let pos = Position::from_discs(0b111, 0b1000, Color::Black, BoardSize::Eight).unwrap();
        assert_eq!(pos.disc_difference(), 2);
        assert_eq!(pos.final_score(), 62);
        assert_eq!(pos.pass().final_score(), -62);
        assert_eq!(pos.pass().final_score_for_black(), 62);
        let draw = Position::from_discs(0b1, 0b10, Color::White, BoardSize::Four).unwrap();
        assert_eq!(draw.final_score(), 0);
    }

    #[test]
    fn from_discs_checks_overlap_and_board() {
        assert_eq!(Position::from_discs(1, 1, Color::Black, BoardSize::Eight), Err(PositionError::Overlap(sq("a1"))));
        assert_eq!(
            Position::from_discs(1 << 4, 0, Color::Black, BoardSize::Four),
            Err(PositionError::OffBoard(sq("e1"), BoardSize::Four))
        );
    }

    #[test]
    fn hash_keys_differ_for_near_positions() {
        let pos = Position::initial();
        let mut keys: Vec<u64> = pos.legal_moves().iter().map(|s| pos.play(s).hash_key()).collect();
        keys.push(pos.hash_key());
        keys.push(pos.pass().hash_key());
        keys.push(Position::start(BoardSize::Six).hash_key());
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n);
    }

    #[test]
    fn no_change_of_a_disc_on_each_side_leaves_the_key() {
        // Two positions that once had the same key: a disc of the mover on h8 against one of the
        // opponent on h4.
        let a: Position = "OOOOOO--OOOOOO-OOOOOXXO-OOOXXOO-OXXXXXOXOXXOXXXXOXXXXXXX-XXX-O-X X".parse().unwrap();
        let b: Position = "OOOOOO--OOOOOO-OOOOOXXO-OOOXXOOOOXXXXXOXOXXOXXXXOXXXXXXX-XXX-O-- X".parse().unwrap();
        assert_ne!(a.hash_key(), b.hash_key());
        let mut rng = crate::rng::Rng::new(5);
        for _ in 0..8 {
            let (player, opponent) = (rng.next_u64(), rng.next_u64());
            let key = hash_discs(player, opponent, BoardSize::Eight);
            for i in 0..64 {
                assert_ne!(hash_discs(player ^ 1 << i, opponent, BoardSize::Eight), key);
                for j in 0..64 {
                    let other = hash_discs(player ^ 1 << i, opponent ^ 1 << j, BoardSize::Eight);
                    assert_ne!(other, key, "bits {i} and {j}");
                }
            }
        }
    }
}
