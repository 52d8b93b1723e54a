//! Positions: a raw [`Setup`] read from text and the validated [`Position`]
//! the rules work on.
//!
//! Unchecked data in, checked data out: text becomes a [`Setup`] (any
//! numbers, any row lengths), and only [`Position::from_setup`] turns a setup
//! into a playable [`Position`], returning a [`PositionError`] that says what
//! is wrong.

use crate::side::{ByPlayer, Side};
use thiserror::Error;

/// Largest number of pits per row the engine supports.
pub const MAX_N: usize = 16;
/// Largest number of pits per row of any board: the wide boards of
/// [`crate::wide`] go this far (and move numbers with them).
pub const WIDE_MAX_N: usize = 32;
/// Size of the fixed pit array: both rows of the largest board.
pub const MAX_PITS: usize = 2 * MAX_N;
/// Largest number of seeds in a position (board and captured together):
/// every count fits in a byte.
pub const MAX_SEEDS: usize = 255;

// Row sums are taken a word at a time (see `Position::row_seeds`): a row
// must fit in 16 bytes and every count and sum in one byte.
const _: () = assert!(MAX_N <= 16 && MAX_SEEDS <= 255 && MAX_PITS == 32);

/// Why a [`Setup`] is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The two rows have different lengths.
    #[error("rows of unequal length: South has {south} pits, North has {north}")]
    UnequalRows {
        /// Pits in South's row.
        south: usize,
        /// Pits in North's row.
        north: usize,
    },
    /// The rows are empty or longer than [`MAX_N`].
    #[error("{0} pits per row is outside the supported range 1..={MAX_N}")]
    RowLength(usize),
    /// The rows do not have the length the game variant asks for.
    #[error("rows have {got} pits but the game has {expected} pits per row")]
    WrongRowLength {
        /// Pits per row of the variant.
        expected: usize,
        /// Pits per row of the position.
        got: usize,
    },
    /// More seeds than [`MAX_SEEDS`].
    #[error("the position holds {0} seeds, more than the supported {MAX_SEEDS}")]
    TooManySeeds(u64),
    /// The seeds do not add up to the variant's total.
    #[error(
        "the position holds {got} seeds (pits and captured) but the game is played with {expected}"
    )]
    WrongTotal {
        /// `2 * n * s` of the variant.
        expected: usize,
        /// Seeds in the position.
        got: u64,
    },
}

/// Raw, unchecked position data, as read from the notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The player to move.
    pub to_move: Side,
    /// South's pits 1..n.
    pub south: Vec<u32>,
    /// North's pits 1..n.
    pub north: Vec<u32>,
    /// Seeds captured (stored or set aside) by South and North.
    pub captured: ByPlayer<u32>,
}

/// What [`Setup::check`] finds wrong; each position type reports it as its
/// own error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SetupError {
    /// The two rows have different lengths.
    UnequalRows { south: usize, north: usize },
    /// The rows are empty or longer than allowed.
    RowLength(usize),
    /// More seeds in all (pits and captured) than allowed.
    Seeds(u64),
}

impl Setup {
    /// The pits a row, if the rows are of equal length `1..=max_n` and the
    /// seeds (pits and captured) at most `max_seeds`: then every count fits
    /// a type that holds `max_seeds`.
    pub(crate) fn check(&self, max_n: usize, max_seeds: usize) -> Result<usize, SetupError> {
        let (ls, ln) = (self.south.len(), self.north.len());
        if ls != ln {
            return Err(SetupError::UnequalRows {
                south: ls,
                north: ln,
            });
        }
        if ls == 0 || ls > max_n {
            return Err(SetupError::RowLength(ls));
        }
        let total: u64 = self
            .south
            .iter()
            .chain(&self.north)
            .map(|&c| u64::from(c))
            .sum::<u64>()
            + u64::from(self.captured.south)
            + u64::from(self.captured.north);
        if total > max_seeds as u64 {
            return Err(SetupError::Seeds(total));
        }
        Ok(ls)
    }
}

/// A validated position: `n` pits per row (`1..=MAX_N`), at most
/// [`MAX_SEEDS`] seeds in all.
///
/// Board indices: `0..n` are South's pits 1..n, `n..2n` North's pits 1..n;
/// the pit opposite index `i` is `2n - 1 - i`. Entries at `2n..MAX_PITS` are
/// always zero, so equality and hashing see only the real board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) pits: [u8; MAX_PITS],
    pub(crate) captured: [u8; 2],
    pub(crate) to_move: Side,
    pub(crate) n: u8,
}

impl Position {
    /// Validates a setup. The only way from raw data to a [`Position`].
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let ls = setup.check(MAX_N, MAX_SEEDS).map_err(|e| match e {
            SetupError::UnequalRows { south, north } => PositionError::UnequalRows { south, north },
            SetupError::RowLength(n) => PositionError::RowLength(n),
            SetupError::Seeds(total) => PositionError::TooManySeeds(total),
        })?;
        // Every count is at most the total, so the casts below are exact.
        let mut pits = [0u8; MAX_PITS];
        for (dst, &c) in pits.iter_mut().zip(setup.south.iter().chain(&setup.north)) {
            *dst = c as u8;
        }
        Ok(Position {
            pits,
            captured: [setup.captured.south as u8, setup.captured.north as u8],
            to_move: setup.to_move,
            n: ls as u8,
        })
    }

    /// The raw setup of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            to_move: self.to_move,
            south: self
                .row(Side::South)
                .iter()
                .map(|&c| u32::from(c))
                .collect(),
            north: self
                .row(Side::North)
                .iter()
                .map(|&c| u32::from(c))
                .collect(),
            captured: ByPlayer::new(u32::from(self.captured[0]), u32::from(self.captured[1])),
        }
    }

    /// The start position: `n` pits a row, `s` seeds a pit, South to move.
    ///
    /// # Panics
    /// If `n` is outside `1..=MAX_N` or `2 * n * s > MAX_SEEDS`; game variants
    /// ([`crate::Variant`]) check this when they are parsed.
    pub fn start(n: usize, s: usize) -> Position {
        assert!(
            (1..=MAX_N).contains(&n) && s.checked_mul(2 * n).is_some_and(|t| t <= MAX_SEEDS),
            "{n} pits a row with {s} seeds a pit is outside the engine's limits"
        );
        let mut pits = [0u8; MAX_PITS];
        pits[..2 * n].fill(s as u8);
        Position {
            pits,
            captured: [0, 0],
            to_move: Side::South,
            n: n as u8,
        }
    }

    /// Pits per row.
    #[inline]
    pub fn n(&self) -> usize {
        usize::from(self.n)
    }

    /// The player to move.
    #[inline]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The whole board, `2n` counts: South's pits 1..n then North's.
    #[inline]
    pub fn board(&self) -> &[u8] {
        &self.pits[..2 * self.n()]
    }

    /// One side's row, pit 1 first.
    #[inline]
    pub fn row(&self, side: Side) -> &[u8] {
        let n = self.n();
        &self.pits[side.base(n)..side.base(n) + n]
    }

    /// Seeds in pit `k` (1-based) of `side`'s row.
    ///
    /// # Panics
    /// If `k` is not in `1..=n`.
    pub fn pit(&self, side: Side, k: usize) -> u8 {
        self.row(side)[k - 1]
    }

    /// Seeds captured by `side` (its store, or the seeds it set aside).
    #[inline]
    pub fn captured(&self, side: Side) -> u8 {
        self.captured[side.index()]
    }

    /// `side`'s lead in captured seeds: its own less its opponent's. A
    /// game value is this lead plus the future gain (rules.md, *Game
    /// value*).
    #[inline]
    pub fn lead(&self, side: Side) -> i32 {
        i32::from(self.captured(side)) - i32::from(self.captured(side.other()))
    }

    /// `side`'s row as the little-endian bytes of one word (pit 1 lowest).
    #[inline]
    fn row_word(&self, side: Side) -> u128 {
        let n = self.n();
        let base = side.base(n);
        // base + 16 <= 2 * MAX_N since base <= MAX_N = 16.
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(&self.pits[base..base + 16]);
        let mask = if n >= 16 {
            u128::MAX
        } else {
            (1u128 << (8 * n)) - 1
        };
        u128::from_le_bytes(bytes) & mask
    }

    /// Whether `side`'s row holds no seed.
    #[inline]
    pub fn row_is_empty(&self, side: Side) -> bool {
        self.row_word(side) == 0
    }

    /// Seeds in `side`'s row.
    #[inline]
    pub fn row_seeds(&self, side: Side) -> usize {
        // Multiplying by 0x0101...01 adds every byte into the top byte. No
        // partial sum exceeds the position's total (at most MAX_SEEDS =
        // 255), so no carry crosses a byte and the top byte is exact.
        const ONES: u128 = u128::MAX / 255;
        (self.row_word(side).wrapping_mul(ONES) >> 120) as usize
    }

    /// Seeds on the board (not captured).
    #[inline]
    pub fn board_seeds(&self) -> usize {
        self.row_seeds(Side::South) + self.row_seeds(Side::North)
    }

    /// Seeds on the board and captured together.
    pub fn total_seeds(&self) -> usize {
        self.board_seeds() + usize::from(self.captured[0]) + usize::from(self.captured[1])
    }

    /// Adds one seed to each of the `len` pits that follow `from` round
    /// the board ring (South's pits 1..n, North's pits 1..n, South's pit 1
    /// again), the way a single lap sows, and returns the last pit sown
    /// (`from` itself when `len` is 0). `from < 2n`, `len <= 2n`.
    #[inline(always)]
    pub(crate) fn sow_ring(&mut self, from: usize, len: usize) -> usize {
        let size = 2 * self.n();
        debug_assert!(from < size && len <= size);
        // A plain loop measured faster than two straight runs or a
        // word-at-a-time add for the short laps that dominate play.
        let mut place = from;
        for _ in 0..len {
            place += 1;
            if place == size {
                place = 0;
            }
            self.pits[place] += 1;
        }
        place
    }

    /// South to move, nothing captured, `board` (`2n` pits, South's row
    /// first) on the board: the positions of the endgame databases.
    /// `n` must be in `1..=MAX_N` and the seeds at most [`MAX_SEEDS`]
    /// (checked in debug builds).
    #[inline]
    pub(crate) fn from_board(n: usize, board: &[u8]) -> Position {
        debug_assert!((1..=MAX_N).contains(&n) && board.len() == 2 * n);
        debug_assert!(board.iter().map(|&c| usize::from(c)).sum::<usize>() <= MAX_SEEDS);
        let mut pits = [0u8; MAX_PITS];
        pits[..2 * n].copy_from_slice(board);
        Position {
            pits,
            captured: [0, 0],
            to_move: Side::South,
            n: n as u8,
        }
    }

    /// The same position with `side` to move.
    pub fn with_to_move(mut self, side: Side) -> Position {
        self.to_move = side;
        self
    }

    /// The `2n` pits (South's row first), to change in place: for
    /// implementations of [`crate::Rules::sow`] (a game defined outside
    /// this crate included). A sowing must conserve the seeds: what it
    /// takes off the board it adds to the captures ([`Position::capture`]).
    #[inline]
    pub fn board_mut(&mut self) -> &mut [u8] {
        let n = self.n();
        &mut self.pits[..2 * n]
    }

    /// Adds `seeds` to what `side` has captured: for implementations of
    /// [`crate::Rules::sow`], after taking the seeds off the board.
    #[inline]
    pub fn capture(&mut self, side: Side, seeds: u8) {
        self.captured[side.index()] += seeds;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(south: &[u32], north: &[u32], cap: (u32, u32)) -> Setup {
        Setup {
            to_move: Side::South,
            south: south.to_vec(),
            north: north.to_vec(),
            captured: ByPlayer::new(cap.0, cap.1),
        }
    }

    #[test]
    fn validation_names_the_problem() {
        assert_eq!(
            Position::from_setup(&setup(&[1, 2], &[3], (0, 0))),
            Err(PositionError::UnequalRows { south: 2, north: 1 })
        );
        assert_eq!(
            Position::from_setup(&setup(&[], &[], (0, 0))),
            Err(PositionError::RowLength(0))
        );
        assert_eq!(
            Position::from_setup(&setup(&[200, 50], &[5, 1], (0, 0))),
            Err(PositionError::TooManySeeds(256))
        );
        let big = vec![1; MAX_N + 1];
        assert_eq!(
            Position::from_setup(&setup(&big, &big, (0, 0))),
            Err(PositionError::RowLength(MAX_N + 1))
        );
        assert_eq!(
            Position::from_setup(&setup(&[u32::MAX], &[u32::MAX], (0, 0))),
            Err(PositionError::TooManySeeds(2 * u64::from(u32::MAX)))
        );
    }

    #[test]
    fn setup_round_trips() {
        let s = setup(&[1, 0, 3], &[0, 5, 2], (7, 9));
        let p = Position::from_setup(&s).unwrap();
        assert_eq!(p.to_setup(), s);
        assert_eq!(p.board_seeds(), 11);
        assert_eq!(p.total_seeds(), 27);
        assert_eq!(p.pit(Side::North, 2), 5);
        assert_eq!(p.row_seeds(Side::South), 4);
        assert_eq!(p.lead(Side::South), -2);
        assert_eq!(p.lead(Side::North), 2);
    }
}
