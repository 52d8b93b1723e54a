//! What a count finds: the [`Criterion`] that makes a first turn winning,
//! and the [`Summary`] of the first turns from a position, with their
//! [`Wins`] under each threshold.

use super::Count;

/// What makes a first turn winning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Criterion {
    /// South's captured seeds are more than half of all seeds.
    Majority,
    /// South's captured seeds are at least `2ns - s`: all but one pit's
    /// worth (Donkers, de Voogt and Uiterwijk, 2000).
    Strong,
}

impl Criterion {
    /// The seeds South must have captured, for `total` seeds in all and
    /// `s` seeds a pit at the start.
    pub fn threshold(self, total: usize, s: usize) -> usize {
        match self {
            Criterion::Majority => total / 2 + 1,
            Criterion::Strong => total.saturating_sub(s),
        }
    }
}

/// The winning first turns under one criterion.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wins {
    /// How many win.
    pub winning: Count,
    /// Moves of the shortest winning one (`None` without any).
    pub shortest: Option<u32>,
    /// Moves of the longest winning one.
    pub longest: Option<u32>,
}

impl Wins {
    pub(super) fn add_lengths(&mut self, shortest: Option<u32>, longest: Option<u32>) {
        self.shortest = match (self.shortest, shortest) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.longest = self.longest.max(longest);
    }

    /// Adds `other`'s winning turns, each `extra` moves longer.
    fn add(&mut self, other: &Wins, extra: u32) {
        self.winning.add(&other.winning);
        self.add_lengths(
            other.shortest.map(|l| l + extra),
            other.longest.map(|l| l + extra),
        );
    }

    /// One winning turn of `len` moves.
    pub(super) fn one(&mut self, len: u32) {
        self.winning.add(&Count::from(1));
        self.add_lengths(Some(len), Some(len));
    }
}

/// The first turns that continue from a position: how many, and the
/// winning ones under each of the explorer's two thresholds (the same one
/// twice when only one criterion is asked).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Every first turn (maximal chain of moves) from here.
    pub turns: Count,
    /// The winning ones, by threshold, in the order given to
    /// [`Explorer::with_thresholds`](super::Explorer::with_thresholds).
    pub wins: [Wins; 2],
}

impl Summary {
    /// Adds the first turns of a move to a position summarised by `child`
    /// (one move longer than the child's).
    pub(super) fn add_child(&mut self, child: &Summary) {
        self.turns.add(&child.turns);
        for (w, c) in self.wins.iter_mut().zip(&child.wins) {
            w.add(c, 1);
        }
    }

    /// Adds `times` copies of `other`'s first turns, each `extra` moves
    /// longer (a position met by `times` chains of `extra` moves).
    pub fn add_scaled(&mut self, other: &Summary, times: &Count, extra: u32) {
        if times.is_zero() {
            return;
        }
        self.turns.add(&other.turns.mul(times));
        for (w, o) in self.wins.iter_mut().zip(&other.wins) {
            if !o.winning.is_zero() {
                w.winning.add(&o.winning.mul(times));
                w.add_lengths(o.shortest.map(|l| l + extra), o.longest.map(|l| l + extra));
            }
        }
    }

    /// Adds the summary of a sibling (turns of the same length).
    pub(super) fn add_sibling(&mut self, other: &Summary) {
        self.turns.add(&other.turns);
        for (w, c) in self.wins.iter_mut().zip(&other.wins) {
            w.add(c, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds() {
        assert_eq!(Criterion::Majority.threshold(98, 7), 50);
        assert_eq!(Criterion::Strong.threshold(98, 7), 91);
        assert_eq!(Criterion::Majority.threshold(18, 3), 10);
    }
}
