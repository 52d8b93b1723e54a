//! Building one level over recorded edges on several ranks: the relay
//! games (Dakon, Anywoli, Akon, Djenon-abe) of [`super::edges`] with the
//! recorded graph distributed, so that a rank holds its share of the level
//! only: its boards' words, the bounds of its boards' parents, the slots of
//! the edges into its boards, and buffers.
//!
//! # Who records what
//!
//! The level is cut into shards and shares as for [`super::propagate`]
//! ([`super::ranks`]). An edge is stored with its **child** (the rows of
//! the slots of [`super::edges`] are the children), so the rank that
//! owns the child stores it, while the rank that owns the parent is the
//! one that generates the move. Hence two forward passes over each rank's
//! share, each in **rounds** in which every rank passes a fixed number of
//! its boards (`round_boards`) and then sends the messages for the other
//! ranks in one all-to-all ([`Ranks::exchange`]):
//!
//! 1. **Counting.** Every board's moves: its exits give `e(b)` (from the
//!    lower levels, which every rank maps) and its quiet moves their number,
//!    as in the forward pass of [`super::propagate`]; for each quiet move
//!    the child's bound (its parents to come) is raised by one, by the
//!    rank that owns it: at once when that is this rank, else by a message
//!    `child` to its owner. A board whose exits give `k` (the most a board
//!    of the level can gain) or that has no quiet move is exact: its
//!    quiet moves are neither counted nor recorded.
//! 2. **The slots** of every rank's children are laid out from the bounds
//!    (`edges::layout`), and it is checked, on every rank, that
//!    they fit the budget of edges (else the level is built otherwise: see
//!    below).
//! 3. **Recording.** The moves of the boards with quiet moves once more:
//!    each quiet move is an edge `(parent, same mover)` (`edge`), placed
//!    in a free slot of its child when this rank owns it, else sent as
//!    `child << 32 | edge` to the owner, which places it when it receives
//!    it.
//! 4. The thresholds of `propagate::settle` run over each rank's
//!    shards, the parents of a settled board read off its own slots; the
//!    news for parents of other ranks goes through the same exchange, at
//!    the end of each round, as for Awari.
//!
//! # What this relies on
//!
//! - **The bounds are exact.** Both passes skip the same boards (those
//!   exact after the first pass: its word says so, `count` 0) and
//!   generate the same moves, so the edges recorded into a child are
//!   exactly those counted for it: every edge finds a free slot (a
//!   compare-and-swap from 0, as in [`super::edges`]), and none is left
//!   empty. Unlike the single process, no sweep comes first: the counts are
//!   not bounds of a shrinking graph, they are the graph.
//! - **Ranks below `2^31 - 1`** ([`super::edges::fits`]): an edge fits a
//!   slot and `child << 32 | edge` a message.
//! - **Every rank runs the same rounds**: their number is that of the
//!   longest share over the same number of boards a round (which every
//!   rank computes from the level's size), a rank with fewer boards passing
//!   none in its last rounds, so that every rank calls each exchange.
//! - **The values do not depend on the order** in which edges are placed or
//!   news applied (the module docs of [`super::edges`] and
//!   [`super::propagate`]), nor on which boards are exact before the
//!   thresholds (an exact board's value is its true value: its exits give
//!   the most, or it has no quiet move, and the thresholds settle it on
//!   its own): so the files are those of one process, byte for byte.
//!
//! # Memory and messages
//!
//! A rank holds three bytes a board of its share (the words and the
//! bounds), four bytes an edge into its boards ([`super::edges::SLOT_BYTES`],
//! eight when the child overflowed), the block offsets of the slots, and
//! buffers: the news of the thresholds (half a byte a board, counted twice
//! as in [`super::propagate`]) or the messages of a round of the passes
//! (`round_bytes`, counted three times: the batches of the threads, the
//! batch for each rank, and the copy the exchange makes to send it; what it
//! receives is at most as much). The edges take at most the budget
//! announced ([`edge_budget`], [`working_bytes`]): when the counting finds
//! more on any rank, the level is built by the sweeps on ranks of
//! [`super::build::build_level_on`] if the whole level's bounds take no
//! more than was announced, and not at all (no memory) otherwise.
//!
//! Messages: eight bytes for every quiet move into another rank's board in
//! each pass, then the news of [`super::propagate`] (eight bytes a parent
//! told on another rank).

use super::build::{self, Progress, Solved};
use super::edges::{
    self, bump, index_bytes, layout, news_bytes, Batch, Recorded, CAP, MAX_EDGE_BYTES_PER_BOARD,
    OVERFLOW_BYTES, SLOT_BYTES,
};
use super::propagate::{self, count, edge, open_word, Limits, Parents, NO_EXIT};
use super::ranks::{self, Ranks};
use super::{canonical_rank, Level};
use crate::games::{final_gain, through, MoveList, Rules, MAX_MOVES};
use crate::index::Indexer;
use crate::mem::{prefetch, Atomics};
use crate::position::Position;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;

/// Bytes of the messages a rank sends in one round of a pass, to all
/// ranks together, at most: an eighth of a byte a board of its share of
/// `share` boards, at least 1 MiB.
fn round_bytes(share: u64) -> u64 {
    (share / 8).max(1 << 20)
}

/// Boards every rank passes in one round of a pass over a level of
/// `count_all` boards on `size` ranks: each sends at most
/// [`MAX_MOVES`] messages of eight bytes a board, so at most
/// `round_bytes / size` bytes a round, and receives at most `size - 1`
/// times as much.
fn round_boards(count_all: u64, size: usize) -> u64 {
    let share = count_all.div_ceil(size as u64);
    (round_bytes(share) / (8 * MAX_MOVES as u64 * size as u64)).max(1)
}

/// Bytes of working memory a rank needs, beside the lower levels and the
/// edges, to build its share of `share` boards of a level by recorded
/// edges: the words and the bounds (three bytes a board), the block
/// offsets of the slots, the buffers of the threshold's news or of a
/// round's messages (whichever is larger: they are not alive together),
/// the write buffer (see the module docs), and one byte a board for the
/// MPI library's own copies of the exchanges: without it, the largest
/// rank of Anywoli 2x12 on 2 ranks went 6.8 MiB past the announcement at
/// level 9 (14 M boards a share) and 29 MiB at level 10 (46 M), about half
/// and two thirds of a byte a board of the share.
pub fn base_bytes(share: u64) -> u64 {
    4 * share
        + index_bytes(share)
        + (2 * news_bytes(share)).max(3 * round_bytes(share))
        + super::file::WRITE_PIECE as u64
}

/// The bytes of edges a rank with a share of `share` boards may record when
/// its build may take `memory` bytes beside the lower levels: what is left
/// beside [`base_bytes`], at most [`MAX_EDGE_BYTES_PER_BOARD`] a board.
pub fn edge_budget(share: u64, memory: u64) -> u64 {
    memory
        .saturating_sub(base_bytes(share))
        .min(MAX_EDGE_BYTES_PER_BOARD.saturating_mul(share))
}

/// Bytes of working memory a rank with a share of `share` boards needs,
/// beside the lower levels, with `budget` bytes of edges: never more (see
/// the module docs).
pub fn working_bytes(share: u64, budget: u64) -> u64 {
    base_bytes(share) + budget
}

/// The exact future gains of the boards of this rank's share of the level
/// of `n` pits a row with `k` seeds ([`super::ranks::share`]), by
/// recorded edges distributed over the ranks (see the module docs), the
/// edges of a rank taking at most `budget_bytes` ([`edge_budget`]). When
/// they take more on some rank, the level is built by
/// [`super::build::build_level_on`] if `sweeps_fit` (the whole level's
/// bounds take no more memory than this build announced), and `None` is
/// returned otherwise. Every rank must call it with the same arguments
/// (the level must fit [`super::edges::fits`]); `None` on every rank when
/// one was stopped (or, in this rank only, when its memory cannot be had).
/// `progress` as for [`super::edges::build_level`]; `first_open` and
/// `edges` are those of every rank.
#[allow(clippy::too_many_arguments)]
pub fn build_level_on<R: Rules>(
    n: usize,
    k: usize,
    lower: &[Level<'_>],
    progress: &Progress,
    stop: &AtomicBool,
    budget_bytes: u64,
    sweeps_fit: bool,
    ranks: &dyn Ranks,
) -> Option<Solved> {
    let entries = Indexer::new(2 * n, k).map_or(0, |ix| ix.count());
    let size = ranks.size();
    let mut limits = Limits::with_buffer(news_bytes(entries.div_ceil(size as u64)));
    if size > 1 {
        // Every rank must cut the level alike, whatever threads it has.
        let most = ranks.gather(limits.shards as u64).into_iter().max();
        limits.shards = most.map_or(limits.shards, |s| s as usize);
    }
    let plan = Plan {
        limits,
        budget_bytes,
        cap: CAP,
        round: round_boards(entries, size),
        sweeps_fit,
    };
    build_with::<R>(n, k, lower, progress, stop, plan, ranks)
}

/// The sizes of a build on ranks (the tests make them tiny, to exercise
/// every path).
#[derive(Clone, Copy, Debug)]
struct Plan {
    /// The shards of a rank and the buffers of the thresholds.
    limits: Limits,
    /// Bytes of edges a rank may hold.
    budget_bytes: u64,
    /// The bound that marks a child overflowed ([`CAP`]).
    cap: u8,
    /// Boards a rank passes in a round of a pass ([`round_boards`]).
    round: u64,
    /// Whether the sweeps on ranks may build the level when the edges do
    /// not fit.
    sweeps_fit: bool,
}

/// [`build_level_on`] with this plan.
fn build_with<R: Rules>(
    n: usize,
    k: usize,
    lower: &[Level<'_>],
    progress: &Progress,
    stop: &AtomicBool,
    plan: Plan,
    ranks: &dyn Ranks,
) -> Option<Solved> {
    assert!(k <= super::file::MAX_LEVEL_SEEDS && lower.len() >= k);
    assert!(plan.cap >= 1 && plan.round >= 1);
    let ix = Indexer::new(2 * n, k).expect("levels are below 2^64 boards");
    let count_all = ix.count();
    assert!(edges::fits(count_all), "ranks fit a slot");
    let (size, spr) = (ranks.size(), plan.limits.shards);
    let shard_len = ranks::shard_len(count_all, spr, size);
    let part = ranks::share(count_all, spr, size, ranks.rank());
    let len = usize::try_from(part.end - part.start).ok()?;
    let memory = Atomics::<AtomicU16>::zeroed(len).ok()?;
    memory.use_huge_pages();
    let bounds = Atomics::<AtomicU8>::zeroed(len).ok()?;
    bounds.use_huge_pages();
    let cx = Share {
        n,
        k,
        ix: &ix,
        lower,
        words: &memory[..],
        bounds: &bounds[..],
        part: part.clone(),
        shard_len,
        shards_per_rank: spr,
        plan,
        progress,
        stop,
    };
    let counted = cx.count::<R>(ranks)?;
    let bytes = SLOT_BYTES * (counted.edges - counted.overflow) + OVERFLOW_BYTES * counted.overflow;
    let stopped = stop.load(Ordering::Relaxed);
    let flags = ranks.or(u32::from(stopped) << 1 | u32::from(bytes > plan.budget_bytes));
    if flags & 2 != 0 {
        return None;
    }
    if flags & 1 != 0 {
        // The edges do not fit on some rank: the sweeps on ranks, when
        // they fit what was announced.
        drop(bounds);
        drop(memory);
        if !plan.sweeps_fit {
            return None;
        }
        progress.fallback.store(true, Ordering::Relaxed);
        return build::build_level_on::<R>(n, k, lower, progress, stop, ranks);
    }
    let graph = cx.record::<R>(counted.overflow, ranks)?;
    let parents = Local {
        graph,
        base: part.start,
    };
    propagate::settle(
        k,
        count_all,
        &memory,
        &parents,
        plan.limits,
        progress,
        stop,
        ranks,
    )?;
    drop(parents);
    drop(bounds);
    Some(Solved::new(memory, propagate::decode).at(part))
}

/// The recorded graph of this rank's children, which it indexes from its
/// share's first board, `base`; the parents' ranks in the edges are the
/// level's.
struct Local<'a> {
    graph: Recorded<'a>,
    base: u64,
}

impl Parents for Local<'_> {
    const GENERATES: bool = false;
    fn parents(&self, r: u64, out: &mut Vec<u64>) {
        self.graph.parents(r - self.base, out);
    }
}

/// The edges into this rank's boards that the counting found.
struct Counted {
    /// All of them.
    edges: u64,
    /// Those of the children that overflowed.
    overflow: u64,
}

/// What the passes over this rank's share have in common.
struct Share<'a> {
    n: usize,
    k: usize,
    ix: &'a Indexer,
    lower: &'a [Level<'a>],
    /// The words of this rank's boards: the board of rank `r` at `r -
    /// part.start`.
    words: &'a [AtomicU16],
    /// The bounds of this rank's boards' parents, as `words`.
    bounds: &'a [AtomicU8],
    part: Range<u64>,
    shard_len: u64,
    shards_per_rank: usize,
    plan: Plan,
    progress: &'a Progress,
    stop: &'a AtomicBool,
}

impl Share<'_> {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The rank that owns the board of rank `c`.
    #[inline]
    fn owner(&self, c: u64) -> usize {
        (c / self.shard_len) as usize / self.shards_per_rank
    }

    /// Passes this rank's boards in rounds of `plan.round` boards (as many
    /// rounds on every rank: see the module docs), `visit` going over a
    /// range of them and leaving in `out[d]` the messages for rank `d`;
    /// at the end of each round, the messages are exchanged between `ranks`
    /// and every rank `receive`s those for it, in pieces, in parallel.
    fn rounds(
        &self,
        ranks: &dyn Ranks,
        visit: impl Fn(Range<u64>, &mut [Vec<u64>]) + Sync,
        receive: impl Fn(&[u64]) + Sync,
    ) {
        let size = ranks.size();
        let round = self.plan.round;
        // The longest share, which every rank computes alike.
        let longest = self.shard_len * self.shards_per_rank as u64;
        let pieces_a_round = 4 * rayon::current_num_threads().max(1) as u64;
        self.progress.done.store(0, Ordering::Relaxed);
        for i in 0..longest.div_ceil(round) {
            let from = (self.part.start + i * round).min(self.part.end);
            let to = (from + round).min(self.part.end);
            let piece = (to - from).div_ceil(pieces_a_round).max(1);
            let outs: Vec<Vec<Vec<u64>>> = (0..(to - from).div_ceil(piece))
                .into_par_iter()
                .map(|p| {
                    let mut out = vec![Vec::new(); size];
                    if !self.stopped() {
                        let start = from + p * piece;
                        visit(start..(start + piece).min(to), &mut out);
                    }
                    out
                })
                .collect();
            self.progress.done.fetch_add(to - from, Ordering::Relaxed);
            let mut away: Vec<Vec<u64>> = vec![Vec::new(); size];
            for out in outs {
                for (d, batch) in out.into_iter().enumerate() {
                    away[d].extend_from_slice(&batch);
                }
            }
            if size > 1 {
                let sent: usize = away.iter().map(Vec::len).sum();
                self.progress
                    .sent
                    .fetch_add(8 * sent as u64, Ordering::Relaxed);
                let got = ranks.exchange(&away);
                drop(away);
                got.par_chunks(1 << 12).for_each(&receive);
            }
        }
    }

    /// Finds every child of `moves` first, `at[i]` for the `i`-th: its
    /// index in its lower level, or its rank in this one; and prefetches
    /// the lower level's byte, or the bound of a child of this rank, so
    /// that the children's cache misses overlap.
    #[inline]
    fn locate(&self, moves: &MoveList, at: &mut [u64]) {
        for (i, (_, child)) in moves.iter().enumerate() {
            let ck = child.board_seeds();
            if ck < self.k {
                let x = self.lower[ck].index_of(child);
                prefetch(&self.lower[ck].bytes[x]);
                at[i] = x as u64;
            } else {
                let c = canonical_rank(self.ix, child);
                if self.part.contains(&c) {
                    prefetch(&self.bounds[(c - self.part.start) as usize]);
                }
                at[i] = c;
            }
        }
    }

    /// Step 1: every board's word (`e(b)` and its quiet moves, or exact),
    /// and the bounds of the parents of this rank's boards (see the module
    /// docs); `None` (on every rank) when stopped.
    fn count<R: Rules>(&self, ranks: &dyn Ranks) -> Option<Counted> {
        let (k, kk, cap, base) = (self.k, self.k as i8, self.plan.cap, self.part.start);
        let (open, edges, overflow, recorded) = (
            AtomicU64::new(0),
            AtomicU64::new(0),
            AtomicU64::new(0),
            AtomicU64::new(0),
        );
        self.progress.sweep.store(1, Ordering::Relaxed);
        self.progress
            .open
            .store(self.part.end - base, Ordering::Relaxed);
        self.rounds(
            ranks,
            |range, out| {
                let mut moves = MoveList::new();
                let mut at = [0u64; MAX_MOVES];
                let (mut gen, mut op, mut here, mut over, mut rec) = (0, 0, 0, 0, 0);
                self.ix.walk(range, |r, board| {
                    let pos = Position::from_board(self.n, board);
                    moves.clear();
                    gen += 1;
                    let w = match R::generate(&pos, &mut moves) {
                        Some(score) => open_word(final_gain(&pos, score) as i8, 0),
                        None => {
                            self.locate(&moves, &mut at);
                            let mut e = i32::from(NO_EXIT);
                            let mut q = 0;
                            for (i, (_, child)) in moves.iter().enumerate() {
                                let ck = child.board_seeds();
                                if ck < k {
                                    let g = i32::from(self.lower[ck].bytes[at[i] as usize] as i8);
                                    e = e.max(through(&pos, child, g));
                                } else {
                                    // `q <= i`: `at[i]` is read before
                                    // any later entry is overwritten.
                                    at[q] = at[i];
                                    q += 1;
                                }
                            }
                            if q == 0 || e == i32::from(kk) {
                                // Exact: no edge counted nor recorded.
                                open_word(e as i8, 0)
                            } else {
                                op += 1;
                                rec += q as u64;
                                for &c in &at[..q] {
                                    if self.part.contains(&c) {
                                        here += 1;
                                        over += bump(&self.bounds[(c - base) as usize], cap);
                                    } else {
                                        out[self.owner(c)].push(c);
                                    }
                                }
                                open_word(e as i8, q as u16)
                            }
                        }
                    };
                    self.words[(r - base) as usize].store(w, Ordering::Relaxed);
                });
                open.fetch_add(op, Ordering::Relaxed);
                edges.fetch_add(here, Ordering::Relaxed);
                overflow.fetch_add(over, Ordering::Relaxed);
                recorded.fetch_add(rec, Ordering::Relaxed);
                self.progress.generated.fetch_add(gen, Ordering::Relaxed);
            },
            |cs| {
                let mut over = 0;
                for &c in cs {
                    over += bump(&self.bounds[(c - base) as usize], cap);
                }
                edges.fetch_add(cs.len() as u64, Ordering::Relaxed);
                overflow.fetch_add(over, Ordering::Relaxed);
            },
        );
        if ranks.or(u32::from(self.stopped())) != 0 {
            return None;
        }
        // What every rank found, for the log.
        let (open, recorded) = (open.into_inner(), recorded.into_inner());
        self.progress
            .first_open
            .store(ranks.sum(open), Ordering::Relaxed);
        self.progress
            .edges
            .store(ranks.sum(recorded), Ordering::Relaxed);
        Some(Counted {
            edges: edges.into_inner(),
            overflow: overflow.into_inner(),
        })
    }

    /// Step 3: the moves of the boards with quiet moves once more, each
    /// quiet move recorded as an edge in a slot of its child (or among the
    /// overflowed edges, `overflow` of them) by the rank that owns it;
    /// `None` when stopped or when the memory of the edges cannot be had.
    fn record<R: Rules>(&self, overflow: u64, ranks: &dyn Ranks) -> Option<Recorded<'_>> {
        let (k, base) = (self.k, self.part.start);
        self.progress.sweep.store(2, Ordering::Relaxed);
        let mut graph = Recorded {
            shard_len: self.shard_len,
            cap: self.plan.cap,
            bounds: self.bounds,
            shards: layout(self.bounds, self.shard_len, self.plan.cap)?,
            overflow: Vec::new(),
        };
        let mut spill = Vec::new();
        spill
            .try_reserve_exact(usize::try_from(overflow).ok()?)
            .ok()?;
        let spill = Mutex::new(spill);
        let keep = |local: &[u64]| {
            if !local.is_empty() {
                let mut spill = spill.lock().expect("no panic while held");
                assert!(
                    spill.len() + local.len() <= spill.capacity(),
                    "the counting bounds the overflowed edges"
                );
                spill.extend_from_slice(local);
            }
        };
        let g = &graph;
        self.rounds(
            ranks,
            |range, out| {
                let mut moves = MoveList::new();
                let mut batch = Batch::default();
                let mut local = Vec::new();
                let mut gen = 0;
                self.ix.walk(range, |r, board| {
                    if count(self.words[(r - base) as usize].load(Ordering::Relaxed)) == 0 {
                        return;
                    }
                    let pos = Position::from_board(self.n, board);
                    moves.clear();
                    let over = R::generate(&pos, &mut moves);
                    debug_assert!(over.is_none(), "a finished game is exact");
                    gen += 1;
                    for (_, child) in moves.iter() {
                        if child.board_seeds() < k {
                            continue;
                        }
                        let c = canonical_rank(self.ix, child);
                        let e = edge(r, child.to_move() == pos.to_move());
                        if self.part.contains(&c) {
                            batch.push(g, c - base, e);
                        } else {
                            out[self.owner(c)].push(c << 32 | e);
                        }
                    }
                    if batch.is_full() {
                        batch.place(g, &mut local);
                    }
                });
                batch.place(g, &mut local);
                keep(&local);
                self.progress.generated.fetch_add(gen, Ordering::Relaxed);
            },
            |ms| {
                let mut batch = Batch::default();
                let mut local = Vec::new();
                for &m in ms {
                    batch.push(g, (m >> 32) - base, m & 0xFFFF_FFFF);
                    if batch.is_full() {
                        batch.place(g, &mut local);
                    }
                }
                batch.place(g, &mut local);
                keep(&local);
            },
        );
        if ranks.or(u32::from(self.stopped())) != 0 {
            return None;
        }
        let mut spill = spill.into_inner().expect("no panic while held");
        spill.sort_unstable();
        graph.overflow = spill;
        Some(graph)
    }
}

#[cfg(test)]
mod tests {
    use super::super::threads::Board;
    use super::*;
    use crate::games::{Akon, Anywoli, Dakon, DjenonAbe, Kalah};

    /// The first levels of small boards of the relay games, built on 1 to
    /// 3 ranks (threads: [`super::super::threads`]) with many shards,
    /// rounds of a few boards, stacks and news budgets down to 1, caps of 1
    /// and 2 (most children overflowed) as well as [`CAP`], and a budget
    /// of 0 (the sweeps on ranks then build the level), equal the sweep
    /// build's in one process, share by share; with a budget of 0 and the
    /// sweeps not allowed, every rank gives up.
    fn same_as_sweeps<R: Rules>(n: usize, top: usize) {
        let progress = Progress::default();
        let stop = AtomicBool::new(false);
        let mut indexes = Vec::new();
        let mut values: Vec<Vec<u8>> = Vec::new();
        let mut gave_up = 0;
        for k in 0..=top {
            indexes.push(Indexer::new(2 * n, k).unwrap());
            let count = indexes[k].count();
            let lower: Vec<Level<'_>> = (0..k)
                .map(|j| Level {
                    index: &indexes[j],
                    bytes: &values[j],
                })
                .collect();
            let want = build::build_level::<R>(n, k, &lower, &progress, &stop)
                .unwrap()
                .gains();
            for size in 1..=3 {
                for (shards, stack_cap, messages, round, cap, budget, sweeps_fit) in [
                    (1, 1 << 16, 1 << 16, 1 << 16, CAP, u64::MAX, true),
                    (3, 1, 1, 1, 1, u64::MAX, false),
                    (2, 2, 3, 5, 2, u64::MAX, false),
                    (4, 4, 4, 7, CAP, 0, true),
                ] {
                    let plan = Plan {
                        limits: Limits {
                            shards,
                            stack_cap,
                            messages,
                        },
                        budget_bytes: budget,
                        cap,
                        round,
                        sweeps_fit,
                    };
                    let shares = Board::run(size, |rank| {
                        let p = Progress::default();
                        let solved = build_with::<R>(n, k, &lower, &p, &stop, plan, rank)?;
                        let gains = solved.gains();
                        let part = solved.part();
                        // The sweeps hold the whole level, the edges a share.
                        let at = if gains.len() as u64 == count {
                            0
                        } else {
                            part.start
                        };
                        let (from, to) = ((part.start - at) as usize, (part.end - at) as usize);
                        Some((part, gains[from..to].to_vec()))
                    });
                    let mut got = Vec::new();
                    for share in shares {
                        let (part, gains) = share.expect("built");
                        assert_eq!(part.start, got.len() as u64);
                        got.extend(gains);
                    }
                    assert_eq!(got, want, "{} level {k}, {size} ranks, {plan:?}", R::NAME);
                }
            }
            if k > 0 {
                let plan = Plan {
                    limits: Limits::with_buffer(1 << 10),
                    budget_bytes: 0,
                    cap: CAP,
                    round: 3,
                    sweeps_fit: false,
                };
                let none = Board::run(2, |rank| {
                    let p = Progress::default();
                    build_with::<R>(n, k, &lower, &p, &stop, plan, rank).is_none()
                });
                // Every rank gives up, or none (every board exact at once).
                assert!(none[0] == none[1], "{} level {k}", R::NAME);
                gave_up += usize::from(none[0]);
            }
            values.push(want.iter().map(|&v| v as u8).collect());
        }
        assert!(gave_up > 0, "{}: no level had edges", R::NAME);
    }

    #[test]
    fn small_levels_on_ranks_equal_the_sweep_build() {
        let top = if cfg!(miri) { 3 } else { 9 };
        same_as_sweeps::<Anywoli>(2, top);
        same_as_sweeps::<Dakon>(2, top);
        same_as_sweeps::<DjenonAbe>(2, top);
        same_as_sweeps::<Akon>(2, top);
        // Kalah has no cycles; on ranks it is built over these edges when
        // the whole level's bounds of its sweeps do not fit.
        same_as_sweeps::<Kalah>(2, top);
        if !cfg!(miri) {
            same_as_sweeps::<Anywoli>(3, 6);
            same_as_sweeps::<Dakon>(3, 6);
        }
    }
}
