//! Winning openings: South's first turns that win the game outright.
//!
//! A **first turn** is a chain of South's moves from a position with South
//! to move, joined by extra moves: every move but the last gives South the
//! move again, and the last passes the turn or ends the game. A first turn
//! is **winning** when South's captured seeds after it reach a threshold
//! (`rules.md`, Dakon): more than half of all seeds ([`Criterion::Majority`])
//! or all but one pit's worth, `2ns - s` ([`Criterion::Strong`]). Captured
//! seeds are never lost, so either way South has won whatever North does.
//! When the turn ends the game, the final scores count (the end-of-game
//! allocation is part of the outcome South has secured).
//!
//! **Counting.** The number of first turns grows exponentially with the
//! board, so [`Explorer::summary`] counts over the DAG of positions: the
//! summary of a position (how many first turns continue from it, how many
//! win, the shortest and longest winning ones) is the sum over its moves.
//! Summaries of positions with large subtrees are kept in a concurrent map
//! ([`dashmap`]) shared by rayon's threads, keyed by the board and the
//! captured seeds (South to move), within a memory ceiling; the others are
//! walked again when met again. In every game an extra move captures or
//! stores at least one seed for the mover, so South's captured seeds grow
//! along a chain and a first turn always ends. Counts are exact integers of
//! any size ([`Count`]).
//!
//! **Listing** ([`Explorer::for_each_winning`]) walks every first turn in
//! order on one thread, and finds the same summary on the way.

use crate::games::{Move, MoveList, Rules};
use crate::position::{Position, MAX_PITS};
use crate::side::Side;
use dashmap::DashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

/// A non-negative integer of any size (sums of path counts): a `u128`
/// while it fits, little-endian 64-bit limbs beyond.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Count {
    /// A value below 2^128.
    Small(u128),
    /// A larger value, as limbs (at least three, the top one non-zero).
    Big(Vec<u64>),
}

impl Default for Count {
    fn default() -> Self {
        Count::Small(0)
    }
}

impl Count {
    /// Zero.
    pub fn zero() -> Count {
        Count::Small(0)
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        *self == Count::Small(0)
    }

    fn limbs(&self) -> Vec<u64> {
        match self {
            Count::Small(x) => vec![*x as u64, (*x >> 64) as u64],
            Count::Big(l) => l.clone(),
        }
    }

    /// Adds `other` to `self`.
    pub fn add(&mut self, other: &Count) {
        if let (Count::Small(a), Count::Small(b)) = (&*self, other) {
            if let Some(sum) = a.checked_add(*b) {
                *self = Count::Small(sum);
                return;
            }
        }
        let (mut a, b) = (self.limbs(), other.limbs());
        if a.len() < b.len() {
            a.resize(b.len(), 0);
        }
        let mut carry = 0u64;
        for (i, x) in a.iter_mut().enumerate() {
            let (s1, c1) = x.overflowing_add(b.get(i).copied().unwrap_or(0));
            let (s2, c2) = s1.overflowing_add(carry);
            *x = s2;
            carry = u64::from(c1 || c2);
        }
        if carry > 0 {
            a.push(carry);
        }
        while a.len() > 2 && a.last() == Some(&0) {
            a.pop();
        }
        *self = if a.len() <= 2 {
            Count::Small(u128::from(a[0]) | u128::from(a[1]) << 64)
        } else {
            Count::Big(a)
        };
    }

    /// The value, if it fits in a `u128`.
    pub fn to_u128(&self) -> Option<u128> {
        match self {
            Count::Small(x) => Some(*x),
            Count::Big(_) => None,
        }
    }
}

impl From<u64> for Count {
    fn from(x: u64) -> Count {
        Count::Small(u128::from(x))
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Count::Small(x) = self {
            return write!(f, "{x}");
        }
        // Repeated division by 10^19, the largest power of ten in a u64.
        const CHUNK: u64 = 10_000_000_000_000_000_000;
        let mut limbs = self.limbs();
        let mut chunks = Vec::new();
        while !limbs.is_empty() {
            let mut rem: u128 = 0;
            for limb in limbs.iter_mut().rev() {
                let cur = rem << 64 | u128::from(*limb);
                *limb = (cur / u128::from(CHUNK)) as u64;
                rem = cur % u128::from(CHUNK);
            }
            chunks.push(rem as u64);
            while limbs.last() == Some(&0) {
                limbs.pop();
            }
        }
        let mut chunks = chunks.iter().rev();
        write!(f, "{}", chunks.next().expect("non-zero"))?;
        for c in chunks {
            write!(f, "{c:019}")?;
        }
        Ok(())
    }
}

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
    fn add_lengths(&mut self, shortest: Option<u32>, longest: Option<u32>) {
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
    fn one(&mut self, len: u32) {
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
    /// [`Explorer::with_thresholds`].
    pub wins: [Wins; 2],
}

impl Summary {
    /// Adds the first turns of a move to a position summarised by `child`
    /// (one move longer than the child's).
    fn add_child(&mut self, child: &Summary) {
        self.turns.add(&child.turns);
        for (w, c) in self.wins.iter_mut().zip(&child.wins) {
            w.add(c, 1);
        }
    }

    /// Adds the summary of a sibling (turns of the same length).
    fn add_sibling(&mut self, other: &Summary) {
        self.turns.add(&other.turns);
        for (w, c) in self.wins.iter_mut().zip(&other.wins) {
            w.add(c, 0);
        }
    }
}

/// Plies from the start up to which the moves of a position are explored
/// in parallel.
const PARALLEL_DEPTH: usize = 6;

/// Positions expanded below a position from which its summary is kept:
/// smaller subtrees are cheaper to walk again than to store (different
/// chains share few positions: on `dakon:6x6` 2.2 million distinct
/// positions carry 7.7 million first turns).
const KEEP_MIN_WORK: u64 = 64;

/// Bytes a kept summary costs in the map, for the memory ceiling: key and
/// value take 176, and the map's tables, kept at most 7/8 full and doubled
/// when they grow, about as much again. (Measured with one criterion a
/// summary, 128 bytes of key and value: 67 million summaries held 16.9 GB
/// resident on `dakon:7x7`, 256 bytes each; a summary now holds two
/// criteria, 48 bytes more, so twice 176.)
pub const KEPT_BYTES: usize = 352;

thread_local! {
    /// Positions expanded by this thread and not yet added to the shared
    /// count.
    static UNCOUNTED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Explores the first turns from one position with South to move, under
/// the rules `R`, keeping the summaries of the positions with large
/// subtrees in a bounded concurrent map.
pub struct Explorer<R: Rules> {
    needs: [usize; 2],
    memo: DashMap<[u8; MAX_PITS + 2], Summary>,
    capacity: usize,
    nodes: AtomicU64,
    _rules: std::marker::PhantomData<R>,
}

impl<R: Rules> Explorer<R> {
    /// An explorer for first turns that win when South has captured at
    /// least `need` seeds after them, keeping at most `memory_bytes` of
    /// summaries (counts stay exact whatever the memory: a summary not
    /// kept is computed again).
    pub fn new(need: usize, memory_bytes: usize) -> Self {
        Self::with_thresholds([need, need], memory_bytes)
    }

    /// An explorer that counts the winning first turns under two
    /// thresholds at once (e.g. the majority and the strong criterion), in
    /// one walk: [`Summary::wins`] holds them in this order.
    pub fn with_thresholds(needs: [usize; 2], memory_bytes: usize) -> Self {
        Explorer {
            needs,
            memo: DashMap::new(),
            capacity: memory_bytes / KEPT_BYTES,
            nodes: AtomicU64::new(0),
            _rules: std::marker::PhantomData,
        }
    }

    /// Positions expanded so far (while a count runs, updated every few
    /// thousand positions; exact once it is done).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Summaries kept so far.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    fn count_node(&self) {
        UNCOUNTED.with(|c| {
            let n = c.get() + 1;
            if n >= 4096 {
                self.nodes.fetch_add(n, Ordering::Relaxed);
                c.set(0);
            } else {
                c.set(n);
            }
        });
    }

    /// Adds this thread's uncounted positions to the shared count.
    fn flush_count(&self) {
        let n = UNCOUNTED.with(|c| c.replace(0));
        self.nodes.fetch_add(n, Ordering::Relaxed);
    }

    /// Where the move to `child` leaves the first turn: `Ok(moves)` when
    /// South moves again (the moves of `child`), else `Err(won)`, whether
    /// the turn wins under each threshold.
    fn step(&self, child: &Position) -> Result<MoveList, [bool; 2]> {
        let mut moves = MoveList::new();
        let won = |south: u8| self.needs.map(|need| usize::from(south) >= need);
        match R::generate(child, &mut moves) {
            Some(score) => Err(won(score[Side::South])),
            None if child.to_move() == Side::South => {
                debug_assert!(child.captured(Side::South) > 0, "an extra move captures");
                Ok(moves)
            }
            None => Err(won(child.captured(Side::South))),
        }
    }

    /// The first turns from `pos`: South to move, game not over (else the
    /// summary is empty).
    pub fn summary(&self, pos: &Position) -> Summary {
        match self.step(pos) {
            Ok(moves) => self.summary_at(pos, &moves, 0).0,
            Err(_) => Summary::default(),
        }
    }

    /// The summary of `pos` (whose moves are `moves`) and the positions
    /// expanded to find it.
    fn summary_at(&self, pos: &Position, moves: &MoveList, depth: usize) -> (Summary, u64) {
        let mut key = [0u8; MAX_PITS + 2];
        key[..MAX_PITS].copy_from_slice(&pos.pits);
        key[MAX_PITS..].copy_from_slice(&pos.captured);
        if let Some(s) = self.memo.get(&key) {
            return (s.clone(), 0);
        }
        self.count_node();
        let one = |child: &Position| -> (Summary, u64) {
            match self.step(child) {
                Ok(next) => {
                    let (below, work) = self.summary_at(child, &next, depth + 1);
                    let mut s = Summary::default();
                    s.add_child(&below);
                    (s, work)
                }
                Err(won) => {
                    let mut s = Summary {
                        turns: Count::from(1),
                        ..Summary::default()
                    };
                    for (w, won) in s.wins.iter_mut().zip(won) {
                        if won {
                            w.one(1);
                        }
                    }
                    (s, 0)
                }
            }
        };
        let mut total = Summary::default();
        let mut work = 1;
        let mut add = |(p, w): (Summary, u64)| {
            total.add_sibling(&p);
            work += w;
        };
        if depth < PARALLEL_DEPTH && rayon::current_num_threads() > 1 {
            use rayon::prelude::*;
            let children: Vec<Position> = moves.iter().map(|(_, c)| *c).collect();
            let parts: Vec<(Summary, u64)> = children.par_iter().map(one).collect();
            parts.into_iter().for_each(&mut add);
        } else {
            moves.iter().for_each(|(_, c)| add(one(c)));
        }
        if depth < PARALLEL_DEPTH {
            // Everything below ran on this thread or was flushed by its
            // own task: after the root, the count is complete.
            self.flush_count();
        }
        if work >= KEEP_MIN_WORK && self.memo.len() < self.capacity {
            self.memo.insert(key, total.clone());
        }
        (total, work)
    }

    /// Calls `visit(moves, position after)` for every first turn from
    /// `pos` that wins under the first threshold, in increasing order of the move sequences (pit order,
    /// move by move), and returns the summary of every first turn. One
    /// walk over every first turn, on the calling thread.
    pub fn for_each_winning(
        &self,
        pos: &Position,
        visit: &mut dyn FnMut(&[Move], &Position),
    ) -> Summary {
        let mut total = Summary::default();
        if let Ok(moves) = self.step(pos) {
            let mut path = Vec::new();
            self.walk(&moves, &mut path, &mut total, visit);
        }
        self.flush_count();
        total
    }

    fn walk(
        &self,
        moves: &MoveList,
        path: &mut Vec<Move>,
        total: &mut Summary,
        visit: &mut dyn FnMut(&[Move], &Position),
    ) {
        self.count_node();
        for (m, child) in moves {
            path.push(*m);
            match self.step(child) {
                Ok(next) => self.walk(&next, path, total, visit),
                Err(won) => {
                    total.turns.add(&Count::from(1));
                    let len = path.len() as u32;
                    for (w, won) in total.wins.iter_mut().zip(won) {
                        if won {
                            w.one(len);
                        }
                    }
                    if won[0] {
                        visit(path, child);
                    }
                }
            }
            path.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_with_carries_and_print_in_decimal() {
        let mut c = Count::from(u64::MAX);
        c.add(&Count::from(1));
        assert_eq!(c.to_u128(), Some(1u128 << 64));
        assert_eq!(c.to_string(), "18446744073709551616");
        // 2^200 by doubling, against its known decimal expansion.
        let mut p = Count::from(1);
        for _ in 0..200 {
            let q = p.clone();
            p.add(&q);
        }
        assert_eq!(
            p.to_string(),
            "1606938044258990275541962092341162602522202993782792835301376"
        );
        assert_eq!(p.to_u128(), None);
        assert_eq!(Count::zero().to_string(), "0");
        let mut m = Count::from(1);
        m.add(&Count::Small(u128::MAX));
        assert_eq!(m, Count::Big(vec![0, 0, 1]));
        assert_eq!(m.to_string(), "340282366920938463463374607431768211456");
        let mut z = Count::zero();
        z.add(&Count::zero());
        assert!(z.is_zero());
    }

    #[test]
    fn thresholds() {
        assert_eq!(Criterion::Majority.threshold(98, 7), 50);
        assert_eq!(Criterion::Strong.threshold(98, 7), 91);
        assert_eq!(Criterion::Majority.threshold(18, 3), 10);
    }
}
