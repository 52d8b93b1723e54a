//! The two players and per-side pairs.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// One of the two players. South moves first from every start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Side {
    /// The player whose row is drawn at the bottom; pits `0..n` of the board.
    #[default]
    South = 0,
    /// The player whose row is drawn on top; pits `n..2n` of the board.
    North = 1,
}

impl Side {
    /// Both sides, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// The other player.
    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// `0` for South, `1` for North.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Index on the board of this side's pit 1 when each row holds `n` pits.
    #[inline]
    pub const fn base(self, n: usize) -> usize {
        self.index() * n
    }

    /// The letter of the position notation: `S` or `N`.
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }

    /// The side's name in words.
    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "South",
            Side::North => "North",
        }
    }
}

impl Not for Side {
    type Output = Side;
    #[inline]
    fn not(self) -> Side {
        self.other()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value for each side, indexed by [`Side`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ByPlayer<T> {
    /// South's value.
    pub south: T,
    /// North's value.
    pub north: T,
}

impl<T> ByPlayer<T> {
    /// A pair from South's and North's values.
    pub const fn new(south: T, north: T) -> Self {
        ByPlayer { south, north }
    }
}

impl<T> Index<Side> for ByPlayer<T> {
    type Output = T;
    #[inline]
    fn index(&self, side: Side) -> &T {
        match side {
            Side::South => &self.south,
            Side::North => &self.north,
        }
    }
}

impl<T> IndexMut<Side> for ByPlayer<T> {
    #[inline]
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::South => &mut self.south,
            Side::North => &mut self.north,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_is_an_involution() {
        for s in Side::BOTH {
            assert_eq!(s.other().other(), s);
            assert_ne!(s.other(), s);
            assert_eq!(!s, s.other());
        }
        assert_eq!(Side::North.base(6), 6);
        assert_eq!(Side::South.base(6), 0);
    }
}
