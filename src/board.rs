//! `Board`: the few operations a sowing needs (read a pit, drop a seed,
//! lift a pit, add to a store), so that a game's sowing is written once and
//! runs on every board type: the engine's [`Position`] (byte counts, at
//! most [`crate::MAX_N`] pits a row: the fast path) and the wide
//! [`crate::wide::WidePosition`] (16-bit counts, boards a person can lay
//! out). Dakon's sowing ([`crate::games::dakon`]) is generic over it. The
//! trait is the crate's own: its users see the boards, not the trait.
//!
//! **Guarantees relied on:** indices are absolute board indices (`0..n`
//! South's pits 1..n, `n..2n` North's, as in [`Position`]); an
//! implementation never checks them beyond debug assertions, so a caller
//! keeps them below `2n`; counts never overflow because every
//! implementation bounds the seeds of a position so that all of them fit
//! in one pit.

use crate::games::relay::LapGuard;
use crate::position::Position;
use crate::side::Side;

/// A board a sowing can run on.
pub(crate) trait Board {
    /// What detects a relay sowing that repeats itself (see
    /// [`Board::repeats`]).
    type Guard;
    /// Pits per row.
    fn n(&self) -> usize;
    /// The player to move.
    fn to_move(&self) -> Side;
    /// Gives the move to `side`.
    fn set_to_move(&mut self, side: Side);
    /// Seeds in the pit at board index `i`.
    fn get(&self, i: usize) -> u32;
    /// Drops one seed into the pit at `i`.
    fn add_one(&mut self, i: usize);
    /// Lifts every seed of the pit at `i`, leaving it empty.
    fn take(&mut self, i: usize) -> u32;
    /// Adds `seeds` (taken off the board) to what `side` has captured.
    fn capture_seeds(&mut self, side: Side, seeds: u32);
    /// Whether `side`'s row holds no seed.
    fn row_empty(&self, side: Side) -> bool;
    /// A guard for a new move.
    fn guard() -> Self::Guard;
    /// Records the end of a lap at ring place `place` and says whether
    /// this lap-end state was seen before in the move: the sowing would
    /// go on forever.
    fn repeats(&self, guard: &mut Self::Guard, place: usize) -> bool;
}

impl Board for Position {
    type Guard = LapGuard;

    #[inline(always)]
    fn n(&self) -> usize {
        Position::n(self)
    }
    #[inline(always)]
    fn to_move(&self) -> Side {
        self.to_move
    }
    #[inline(always)]
    fn set_to_move(&mut self, side: Side) {
        self.to_move = side;
    }
    #[inline(always)]
    fn get(&self, i: usize) -> u32 {
        u32::from(self.pits[i])
    }
    #[inline(always)]
    fn add_one(&mut self, i: usize) {
        self.pits[i] += 1;
    }
    #[inline(always)]
    fn take(&mut self, i: usize) -> u32 {
        let c = self.pits[i];
        self.pits[i] = 0;
        u32::from(c)
    }
    #[inline(always)]
    fn capture_seeds(&mut self, side: Side, seeds: u32) {
        // At most MAX_SEEDS = 255 in all: the cast is exact.
        self.captured[side.index()] += seeds as u8;
    }
    #[inline(always)]
    fn row_empty(&self, side: Side) -> bool {
        self.row_is_empty(side)
    }
    #[inline(always)]
    fn guard() -> LapGuard {
        LapGuard::new()
    }
    #[inline(always)]
    fn repeats(&self, guard: &mut LapGuard, place: usize) -> bool {
        guard.repeats(&self.pits, place)
    }
}
