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
//! board (`dakon:6x6` has 7.7 million, `dakon:7x7` tens of billions), so
//! [`Explorer::summary`] counts over the DAG of positions: the summary of a
//! position (how many first turns continue from it, how many win, the
//! shortest and longest winning ones) is the sum over its moves. In every
//! game an extra move captures or stores at least one seed for the mover,
//! so South's captured seeds grow along a chain and a first turn always
//! ends. Counts are exact integers of any size ([`Count`]).
//!
//! **Jobs.** A long count is cut into jobs ([`Explorer::split`]): the chains
//! are followed breadth first, merging the chains that meet in one position
//! and counting how many reach it, until a layer holds enough positions;
//! each position of that layer is a job, and the whole is the sum of the
//! jobs' summaries, each times its number of chains ([`Split::combine`]).
//! Jobs run side by side on rayon's threads, can be done in any order, and
//! can be saved as they finish ([`Checkpoint`]), so a count can stop and
//! resume. Done in a fixed random order ([`Split::order`]), the jobs
//! finished so far are a random sample, from which the time left and the
//! totals extrapolate.
//!
//! **Below the cut** chains rarely meet again, and a walk is cheaper than
//! a lookup: the explorer keeps summaries (in a concurrent map,
//! [`dashmap`], keyed by the board and the captured seeds) only when given
//! memory for them, and then only of positions with large subtrees. On
//! `dakon:6x6`, 2.2 million distinct positions carry 7.7 million first
//! turns; on `dakon:7x7` a walk without the map did 1.5 times the jobs of
//! one with 4 GiB of it in the same two minutes.
//!
//! **Listing** ([`Explorer::for_each_winning`]) walks every first turn in
//! order on one thread, and finds the same summary on the way.

use crate::games::{Move, MoveList, Rules};
use crate::position::{Position, MAX_PITS};
use crate::side::Side;
use dashmap::DashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

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

    /// The product of `self` and `other`.
    pub fn mul(&self, other: &Count) -> Count {
        if let (Count::Small(a), Count::Small(b)) = (self, other) {
            if let Some(p) = a.checked_mul(*b) {
                return Count::Small(p);
            }
        }
        let (a, b) = (self.limbs(), other.limbs());
        let mut p = vec![0u64; a.len() + b.len()];
        for (i, &x) in a.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &y) in b.iter().enumerate() {
                let cur = u128::from(x) * u128::from(y) + u128::from(p[i + j]) + carry;
                p[i + j] = cur as u64;
                carry = cur >> 64;
            }
            p[i + b.len()] = carry as u64;
        }
        while p.len() > 2 && p.last() == Some(&0) {
            p.pop();
        }
        if p.len() <= 2 {
            Count::Small(u128::from(p[0]) | u128::from(p[1]) << 64)
        } else {
            Count::Big(p)
        }
    }

    /// The value as a float (rounded), for estimates.
    pub fn to_f64(&self) -> f64 {
        match self {
            Count::Small(x) => *x as f64,
            Count::Big(l) => l
                .iter()
                .rev()
                .fold(0.0, |acc, &x| acc * 2f64.powi(64) + x as f64),
        }
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
    fn add_sibling(&mut self, other: &Summary) {
        self.turns.add(&other.turns);
        for (w, c) in self.wins.iter_mut().zip(&other.wins) {
            w.add(c, 0);
        }
    }
}

/// The first turns from a position cut into independent jobs
/// ([`Explorer::split`]): the positions South reaches after `depth` moves
/// of a first turn still going on, each with the number of chains that
/// reach it, and the first turns that ended sooner.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    /// Moves made before every job.
    pub depth: u32,
    /// The first turns of at most `depth` moves.
    pub ended: Summary,
    /// The jobs: positions with South to move after `depth` moves, in
    /// increasing order of their boards, with the chains reaching each.
    pub jobs: Vec<(Position, Count)>,
}

impl Split {
    /// The summary of the first turns that ended before the jobs and of
    /// the jobs done (summaries by job index): with every job done, the
    /// summary of every first turn; else a lower bound of it.
    pub fn combine(&self, done: &std::collections::BTreeMap<usize, Summary>) -> Summary {
        let mut total = self.ended.clone();
        for (&j, s) in done {
            total.add_scaled(s, &self.jobs[j].1, self.depth);
        }
        total
    }

    /// A fingerprint of the jobs (their positions and chain counts), to
    /// recognise the same split again.
    pub fn fingerprint(&self) -> u64 {
        let mut text = format!("{} {}\n", self.depth, self.jobs.len());
        for (p, times) in &self.jobs {
            text.push_str(&format!("{p} {times}\n"));
        }
        crate::db::file::checksum(text.as_bytes())
    }

    /// The jobs' indices in a fixed shuffled order (Fisher–Yates with a
    /// fixed seed): done in this order, the jobs finished so far are a
    /// random sample of all, so their share of the time and of the count
    /// extrapolates to the whole.
    pub fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.jobs.len()).collect();
        let mut rng = SplitMix(0x006d_616e_6361_6c61);
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        order
    }
}

/// Plies from the start up to which the moves of a position are explored
/// in parallel.
const PARALLEL_DEPTH: usize = 6;

/// Plies of a job explored in parallel: the jobs run side by side, and
/// the last big ones still share the threads.
const JOB_PARALLEL_PLIES: usize = 2;

/// The memo's key: the board and the captured seeds.
fn key(pos: &Position) -> [u8; MAX_PITS + 2] {
    let mut key = [0u8; MAX_PITS + 2];
    key[..MAX_PITS].copy_from_slice(&pos.pits);
    key[MAX_PITS..].copy_from_slice(&pos.captured);
    key
}

/// Positions expanded below a position from which its summary is kept
/// (when the explorer keeps any): smaller subtrees are cheaper to walk
/// again than to store.
const KEEP_MIN_WORK: u64 = 64;

/// Bytes a kept summary costs in the map, for the memory ceiling: key and
/// value take 176, and the map's tables, kept at most 7/8 full and doubled
/// when they grow, about as much again. (Measured with one criterion a
/// summary, 128 bytes of key and value: 67 million summaries held 16.9 GB
/// resident on `dakon:7x7`, 256 bytes each; a summary now holds two
/// criteria, 48 bytes more, so twice 176.)
pub const KEPT_BYTES: usize = 352;

/// SplitMix64 (Steele, Lea and Flood 2014): a small, fast generator,
/// plenty for choosing moves at random.
struct SplitMix(u64);

impl SplitMix {
    /// The next number.
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

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
    cancelled: AtomicBool,
    _rules: std::marker::PhantomData<R>,
}

impl<R: Rules> Explorer<R> {
    /// An explorer for first turns that win when South has captured at
    /// least `need` seeds after them, keeping at most `memory_bytes` of
    /// summaries (none with 0; counts stay exact whatever the memory: a summary not
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
            cancelled: AtomicBool::new(false),
            _rules: std::marker::PhantomData,
        }
    }

    /// Positions expanded so far (while a count runs, updated every few
    /// thousand positions; exact once it is done).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Stops every job under way ([`Explorer::job_summary`] returns
    /// `None` from now on): for a count that must stop before its jobs
    /// end.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
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
        let won = |south: u8| self.needs.map(|need| usize::from(south) >= need);
        if child.to_move() != Side::South {
            // The turn has passed: only whether the game ended matters, not
            // North's moves.
            return Err(won(
                R::outcome(child).map_or(child.captured(Side::South), |score| score[Side::South])
            ));
        }
        let mut moves = MoveList::new();
        match R::generate(child, &mut moves) {
            Some(score) => Err(won(score[Side::South])),
            None => {
                debug_assert!(child.captured(Side::South) > 0, "an extra move captures");
                Ok(moves)
            }
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

    /// Cuts the first turns from `pos` (South to move) into at least
    /// `min_jobs` jobs where there are that many: the chains are followed
    /// move by move, breadth first, merging the chains that meet in one
    /// position, until a layer holds `min_jobs` positions or none.
    pub fn split(&self, pos: &Position, min_jobs: usize) -> Split {
        self.split_by(pos, |_, jobs| jobs >= min_jobs)
    }

    /// The split of [`Explorer::split`] after exactly `depth` moves (or
    /// fewer when no chain is that long): the split a checkpoint was made
    /// with, whatever `min_jobs` was then.
    pub fn split_at(&self, pos: &Position, depth: u32) -> Split {
        self.split_by(pos, |d, _| d >= depth)
    }

    fn split_by(&self, pos: &Position, done: impl Fn(u32, usize) -> bool) -> Split {
        let mut split = Split::default();
        let Ok(_) = self.step(pos) else {
            return split;
        };
        let mut layer: Vec<(Position, Count)> = vec![(*pos, Count::from(1))];
        while !layer.is_empty() && !done(split.depth, layer.len()) {
            let mut next: std::collections::BTreeMap<[u8; MAX_PITS + 2], (Position, Count)> =
                std::collections::BTreeMap::new();
            let mut moves = MoveList::new();
            for (p, times) in &layer {
                self.count_node();
                let _ = R::generate(p, &mut moves);
                for (_, child) in &moves {
                    match self.step(child) {
                        Ok(_) => {
                            next.entry(key(child))
                                .or_insert_with(|| (*child, Count::zero()))
                                .1
                                .add(times);
                        }
                        Err(won) => {
                            split.ended.turns.add(times);
                            for (w, won) in split.ended.wins.iter_mut().zip(won) {
                                if won {
                                    w.winning.add(times);
                                    w.add_lengths(Some(split.depth + 1), Some(split.depth + 1));
                                }
                            }
                        }
                    }
                }
            }
            split.depth += 1;
            layer = next.into_values().collect();
        }
        split.jobs = layer;
        self.flush_count();
        split
    }

    /// The summary of one job of a [`Split`]: of the first turns going on
    /// from `pos`, counted from there. Explores in parallel, like
    /// [`Explorer::summary`], but only the first plies of the job, since
    /// the jobs themselves run side by side.
    /// `None` when the explorer was cancelled ([`Explorer::cancel`]) before
    /// the job ended.
    pub fn job_summary(&self, pos: &Position) -> Option<Summary> {
        let s = match self.step(pos) {
            Ok(moves) => {
                self.summary_at(pos, &moves, PARALLEL_DEPTH - JOB_PARALLEL_PLIES)
                    .0
            }
            Err(_) => Summary::default(),
        };
        (!self.cancelled.load(Ordering::Relaxed)).then_some(s)
    }

    /// The summary of `pos` (whose moves are `moves`) and the positions
    /// expanded to find it.
    fn summary_at(&self, pos: &Position, moves: &MoveList, depth: usize) -> (Summary, u64) {
        if self.cancelled.load(Ordering::Relaxed) {
            // The result is thrown away: return at once.
            return (Summary::default(), 0);
        }
        let key = (self.capacity > 0).then(|| key(pos));
        if let Some(s) = key.as_ref().and_then(|k| self.memo.get(k)) {
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
        if let Some(key) = key {
            if work >= KEEP_MIN_WORK
                && self.memo.len() < self.capacity
                && !self.cancelled.load(Ordering::Relaxed)
            {
                self.memo.insert(key, total.clone());
            }
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

/// The first line of a checkpoint file, with its format version.
const CHECKPOINT_MAGIC: &str = "mancala-openings-checkpoint 1";

/// What a count has finished: the summaries of the jobs of a [`Split`]
/// done so far, so that an interrupted count resumes where it stopped.
///
/// The file is text, one field a line, so that it can be read:
///
/// ```text
/// mancala-openings-checkpoint 1
/// game dakon:7x7
/// position S 7,7,7,7,7,7,7/7,7,7,7,7,7,7 0-0
/// needs 50 91
/// split 5 21413 9f2c41d07be3a655        (depth, jobs, fingerprint)
/// seconds 1234.5                        (spent on the count in all)
/// done 17 120 100 6 9 0 - -             (job, turns, then per threshold:
/// ...                                     winning, shortest, longest)
/// checksum 0b6e1c5a9d3f2e47             (of every byte above)
/// ```
///
/// A job's lengths count from the job's position. A file whose first line,
/// checksum or fields are wrong is refused ([`CheckpointError`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Checkpoint {
    /// The variant, as written by `Variant`'s `Display`.
    pub game: String,
    /// The position counted from, in the notation.
    pub position: String,
    /// The two thresholds counted.
    pub needs: [usize; 2],
    /// [`Split::depth`].
    pub depth: u32,
    /// How many jobs the split has.
    pub jobs: usize,
    /// [`Split::fingerprint`].
    pub fingerprint: u64,
    /// Seconds spent on the count so far, over every run.
    pub seconds: f64,
    /// The summaries of the jobs done, by job index.
    pub done: std::collections::BTreeMap<usize, Summary>,
}

/// Why a checkpoint file is refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CheckpointError {
    /// The first line is not the magic line of this version.
    #[error("not a checkpoint of this version (the first line is not {CHECKPOINT_MAGIC:?})")]
    Magic,
    /// The last line's checksum does not match the text above it.
    #[error("its checksum does not match (truncated or changed)")]
    Checksum,
    /// A line cannot be read.
    #[error("line {0}: {1}")]
    Malformed(usize, String),
}

impl Checkpoint {
    /// The file's text.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut t = String::new();
        let _ = writeln!(t, "{CHECKPOINT_MAGIC}");
        let _ = writeln!(t, "game {}", self.game);
        let _ = writeln!(t, "position {}", self.position);
        let _ = writeln!(t, "needs {} {}", self.needs[0], self.needs[1]);
        let _ = writeln!(
            t,
            "split {} {} {:016x}",
            self.depth, self.jobs, self.fingerprint
        );
        let _ = writeln!(t, "seconds {:.1}", self.seconds);
        let len = |l: Option<u32>| l.map_or("-".to_string(), |l| l.to_string());
        for (job, s) in &self.done {
            let _ = write!(t, "done {job} {}", s.turns);
            for w in &s.wins {
                let _ = write!(t, " {} {} {}", w.winning, len(w.shortest), len(w.longest));
            }
            t.push('\n');
        }
        let sum = crate::db::file::checksum(t.as_bytes());
        let _ = writeln!(t, "checksum {sum:016x}");
        t
    }

    /// Reads a checkpoint from its text.
    pub fn parse(text: &str) -> Result<Checkpoint, CheckpointError> {
        if text.lines().next() != Some(CHECKPOINT_MAGIC) {
            return Err(CheckpointError::Magic);
        }
        let body = text.trim_end_matches('\n');
        let (above, last) = body.rsplit_once('\n').ok_or(CheckpointError::Checksum)?;
        let sum = last
            .strip_prefix("checksum ")
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .ok_or(CheckpointError::Checksum)?;
        if crate::db::file::checksum(format!("{above}\n").as_bytes()) != sum {
            return Err(CheckpointError::Checksum);
        }
        let mut c = Checkpoint::default();
        for (i, line) in above.lines().enumerate().skip(1) {
            let bad = |why: &str| CheckpointError::Malformed(i + 1, why.to_string());
            let (field, rest) = line.split_once(' ').ok_or_else(|| bad("no value"))?;
            let words: Vec<&str> = rest.split(' ').collect();
            let num = |w: &str| w.parse::<usize>().map_err(|_| bad("not a number"));
            match (field, words.as_slice()) {
                ("game", _) => c.game = rest.to_string(),
                ("position", _) => c.position = rest.to_string(),
                ("seconds", [x]) => {
                    c.seconds = x
                        .parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite() && *x >= 0.0)
                        .ok_or_else(|| bad("not a number of seconds"))?;
                }
                ("needs", [a, b]) => c.needs = [num(a)?, num(b)?],
                ("split", [d, j, f]) => {
                    c.depth = num(d)? as u32;
                    c.jobs = num(j)?;
                    c.fingerprint =
                        u64::from_str_radix(f, 16).map_err(|_| bad("not a fingerprint"))?;
                }
                ("done", [job, turns, w @ ..]) if w.len() == 6 => {
                    let count = |w: &str| w.parse::<Count>().map_err(|_| bad("not a count"));
                    let len = |w: &str| match w {
                        "-" => Ok(None),
                        w => w.parse::<u32>().map(Some).map_err(|_| bad("not a length")),
                    };
                    let mut s = Summary {
                        turns: count(turns)?,
                        ..Summary::default()
                    };
                    for (k, wins) in s.wins.iter_mut().enumerate() {
                        *wins = Wins {
                            winning: count(w[3 * k])?,
                            shortest: len(w[3 * k + 1])?,
                            longest: len(w[3 * k + 2])?,
                        };
                    }
                    if c.done.insert(num(job)?, s).is_some() {
                        return Err(bad("a job done twice"));
                    }
                }
                _ => return Err(bad("unknown field or wrong number of values")),
            }
        }
        if let Some((&job, _)) = c.done.iter().next_back().filter(|(&j, _)| j >= c.jobs) {
            return Err(CheckpointError::Malformed(
                0,
                format!("job {job} is beyond the split's {}", c.jobs),
            ));
        }
        Ok(c)
    }
}

/// A decimal integer that is not a count.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("not a decimal count")]
pub struct CountParseError;

impl std::str::FromStr for Count {
    type Err = CountParseError;

    fn from_str(s: &str) -> Result<Count, CountParseError> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(CountParseError);
        }
        if let Ok(x) = s.parse::<u128>() {
            return Ok(Count::Small(x));
        }
        // Nineteen digits at a time: c = c * 10^k + chunk.
        let mut c = Count::zero();
        for chunk in s.as_bytes().chunks(19) {
            let digits = std::str::from_utf8(chunk).expect("ascii");
            let scale = Count::Small(10u128.pow(chunk.len() as u32));
            c = c.mul(&scale);
            c.add(&Count::from(digits.parse::<u64>().expect("19 digits fit")));
        }
        Ok(c)
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
    fn counts_multiply_and_parse() {
        let c = |s: &str| s.parse::<Count>().unwrap();
        // Products computed with Python's integers.
        assert_eq!(
            c("12345678901234567890123")
                .mul(&c("98765432109876543210987654321"))
                .to_string(),
            "1219326311370217952261805212373261194926077834171483"
        );
        let max = Count::Small(u128::MAX);
        assert_eq!(
            max.mul(&max).to_string(),
            "115792089237316195423570985008687907852589419931798687112530834793049593217025"
        );
        assert_eq!(max.mul(&Count::zero()), Count::zero());
        assert_eq!(c("6").mul(&c("7")), Count::Small(42));
        let big = "10000000000000000000000000000000000000007";
        assert_eq!(c(big).to_string(), big);
        assert!(matches!(c(big), Count::Big(_)));
        assert_eq!(c("0"), Count::zero());
        for bad in ["", "-1", "1e5", "12 3", "+4"] {
            assert!(bad.parse::<Count>().is_err(), "{bad:?}");
        }
        assert_eq!(c(big).to_f64(), 1e40);
    }

    #[test]
    fn checkpoints_round_trip_and_refuse_damage() {
        let mut done = std::collections::BTreeMap::new();
        let mut s = Summary {
            turns: "123456789012345678901234567890123456789012"
                .parse()
                .unwrap(),
            ..Summary::default()
        };
        s.wins[0] = Wins {
            winning: Count::from(17),
            shortest: Some(3),
            longest: Some(40),
        };
        done.insert(0, s);
        done.insert(5, Summary::default());
        let c = Checkpoint {
            game: "dakon:7x7".into(),
            position: "S 7,7,7,7,7,7,7/7,7,7,7,7,7,7 0-0".into(),
            needs: [50, 91],
            depth: 5,
            jobs: 6,
            fingerprint: 0x0123_4567_89ab_cdef,
            seconds: 12.5,
            done,
        };
        let text = c.to_text();
        assert_eq!(Checkpoint::parse(&text), Ok(c.clone()));
        // A changed digit, a lost line, a foreign first line.
        let changed = text.replacen("done 5 0", "done 4 0", 1);
        assert_eq!(Checkpoint::parse(&changed), Err(CheckpointError::Checksum));
        let lines: Vec<&str> = text.lines().collect();
        let cut = lines[..lines.len() - 1].join("\n");
        assert_eq!(Checkpoint::parse(&cut), Err(CheckpointError::Checksum));
        assert_eq!(
            Checkpoint::parse(&text.replacen("checkpoint 1", "checkpoint 2", 1)),
            Err(CheckpointError::Magic)
        );
        // A job beyond the split, with a valid checksum.
        let beyond = Checkpoint { jobs: 5, ..c };
        assert!(matches!(
            Checkpoint::parse(&beyond.to_text()),
            Err(CheckpointError::Malformed(..))
        ));
    }

    #[test]
    fn thresholds() {
        assert_eq!(Criterion::Majority.threshold(98, 7), 50);
        assert_eq!(Criterion::Strong.threshold(98, 7), 91);
        assert_eq!(Criterion::Majority.threshold(18, 3), 10);
    }
}
