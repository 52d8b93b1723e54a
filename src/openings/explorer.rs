//! [`Explorer`]: the walk over South's first turns from a position, counting
//! them over the DAG of positions (with a bounded memo of large subtrees)
//! or listing the winning ones in order.

use super::{Count, Summary};
use crate::games::{Move, MoveList, Rules};
use crate::position::{Position, MAX_PITS};
use crate::side::Side;
use dashmap::DashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Plies from the start up to which the moves of a position are explored
/// in parallel.
const PARALLEL_DEPTH: usize = 6;

/// Plies of a job explored in parallel: the jobs run side by side, and
/// the last big ones still share the threads.
const JOB_PARALLEL_PLIES: usize = 2;

/// The memo's key: the board and the captured seeds.
pub(super) fn key(pos: &Position) -> [u8; MAX_PITS + 2] {
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

    /// The two thresholds, in the order of [`Summary::wins`].
    pub fn needs(&self) -> [usize; 2] {
        self.needs
    }

    /// Summaries kept so far.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    pub(super) fn count_node(&self) {
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
    pub(super) fn flush_count(&self) {
        let n = UNCOUNTED.with(|c| c.replace(0));
        self.nodes.fetch_add(n, Ordering::Relaxed);
    }

    /// Where the move to `child` leaves the first turn: `Ok(moves)` when
    /// South moves again (the moves of `child`), else `Err(won)`, whether
    /// the turn wins under each threshold.
    pub(super) fn step(&self, child: &Position) -> Result<MoveList, [bool; 2]> {
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

    /// The summary of one job of a [`Split`](super::Split): of the first turns going on
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
