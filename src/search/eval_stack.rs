//! The pattern features of the positions on the search path, one slot per ply: a child's are
//! derived from its parent's by the squares its move fills and flips ([`Features::play`]), so the
//! depth-limited search never reads a position's patterns from scratch, except where it enters a
//! path in the middle (the root, a helper thread at a split point).

use super::MAX_PLY;
use crate::board::Position;
use crate::eval::pattern::Features;

/// One ply's features and the position they belong to.
#[derive(Clone, Copy)]
struct Slot {
    player: u64,
    opponent: u64,
    features: Features,
}

/// The features of the path, by ply. Each slot names its position, so that a slot left by
/// another path is never taken for the current one.
pub struct EvalStack {
    slots: Vec<Slot>,
}

impl Default for EvalStack {
    fn default() -> EvalStack {
        EvalStack::new()
    }
}

impl EvalStack {
    /// Empty slots (no position has no disc at all).
    pub fn new() -> EvalStack {
        let empty = Slot { player: 0, opponent: 0, features: Features::new(0, 0) };
        EvalStack { slots: vec![empty; MAX_PLY + 1] }
    }

    /// The features of `pos` at `ply`: those of the slot if it holds `pos`, else read afresh and
    /// kept there.
    #[inline]
    pub fn at(&mut self, ply: usize, pos: &Position) -> &Features {
        let (player, opponent) = (pos.player(), pos.opponent());
        let slot = &mut self.slots[ply];
        if slot.player != player || slot.opponent != opponent {
            *slot = Slot { player, opponent, features: Features::new(player, opponent) };
        }
        &slot.features
    }

    /// Fills slot `ply + 1` for `child`, reached from `pos` at `ply` by a move on `square`
    /// flipping `flips`.
    #[inline]
    pub fn play(&mut self, ply: usize, pos: &Position, square: u8, flips: u64, child: &Position) {
        let features = self.at(ply, pos).play(u32::from(square), flips);
        self.slots[ply + 1] = Slot { player: child.player(), opponent: child.opponent(), features };
    }

    /// Fills slot `ply + 1` for `pos` passed.
    #[inline]
    pub fn pass(&mut self, ply: usize, pos: &Position) {
        let features = self.at(ply, pos).pass();
        self.slots[ply + 1] = Slot { player: pos.opponent(), opponent: pos.player(), features };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn slots_follow_the_path_and_never_serve_another_position() {
        let mut stack = EvalStack::new();
        let root = Position::default();
        let mut pos = root;
        for (ply, name) in ["f5", "d6", "c3", "d3", "c4"].iter().enumerate() {
            let square: Square = name.parse().unwrap();
            let flips = pos.flips(square).0;
            let child = pos.play(square);
            stack.play(ply, &pos, square.index() as u8, flips, &child);
            pos = child;
            assert_eq!(*stack.at(ply + 1, &pos), Features::new(pos.player(), pos.opponent()));
        }
        // Another position at a filled ply is read afresh.
        let other = root.play("e6".parse().unwrap());
        assert_eq!(*stack.at(1, &other), Features::new(other.player(), other.opponent()));
        stack.pass(1, &other);
        assert_eq!(*stack.at(2, &other.pass()), Features::new(other.opponent(), other.player()));
    }
}
