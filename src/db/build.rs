//! Building one level by parallel retrograde analysis.
//!
//! # The values
//!
//! Level `k` holds every board with `k` seeds, South to move (North to move
//! is the same board turned round: see [`super`]). From a board, a move
//! either
//!
//! - **leaves the level**: it captured or stored seeds, so the child has
//!   fewer seeds on the board and its exact gain `g` is in a lower level,
//!   built before; the move is worth `c + g` (the mover moves again) or
//!   `c - g` (the turn passes), `c` being the seeds it captured, net; or
//! - **stays in the level**: no seed left the board, `c = 0`, and the child
//!   is another board of the same level, whose value is not known yet.
//!
//! A board whose game is over is worth its final allocation. Moves inside a
//! level can go round in cycles, and endless play is worth 0 more.
//!
//! # The method: two fixed points and a median
//!
//! Write `T` for the operator that recomputes every board's value as the
//! best over its moves from the current values of the other boards (the
//! minimax step, with the exits' exact values). `T` is monotone once values
//! are read from one fixed player's point of view, so Kleene iteration from
//! the bottom and from the top of the finite lattice reaches its least and
//! greatest fixed points. Both are computed at once, in the mover's point of
//! view, as a pair of bounds per board:
//!
//! - `lo` starts at `-k` and can only rise: it is the value of the game in
//!   which endless play is the *worst* outcome for the side to move;
//! - `hi` starts at `k` and can only fall: the value when endless play is the
//!   *best* outcome for the side to move.
//!
//! (For a move that passes the turn, the child's `hi` bounds the parent's
//! `lo` and vice versa, which is what keeps the two games consistent: what is
//! worst for one player is best for the other.) For a threshold `t >= 1`
//! the mover reaches a gain of at least `t` in the true game exactly when he
//! does in the `lo` game, since endless play fails `t` in both; for `t <= 0`
//! exactly when he does in the `hi` game, since endless play meets `t` in
//! both. Hence the true value is `lo` when `lo >= 1`, `hi` when `hi <= 0`,
//! and 0 otherwise: the **median of `lo`, 0 and `hi`**. This is the
//! forward-sweep counterpart of the threshold attractors of Lincke (2002)
//! and Romein and Bal (2002): it needs no unmove generator, which for
//! relay and multi-lap sowing would be a second, error-prone rules engine.
//! Where one is practical (single-lap sowing), [`super::propagate`]
//! computes those attractors directly, generating each board's moves once;
//! this build remains for the other games and as its reference.
//!
//! # Sweeps, in parallel
//!
//! The boards are swept in rank order in chunks, the chunks in parallel
//! with rayon. A board already exact (`lo == hi`) is skipped, so later
//! sweeps only expand the boards still open (those on or near cycles).
//! Bounds are atomics updated in place while other threads read them:
//! because every update moves a bound monotonically towards its fixed
//! point, reading a fresher or staler bound never overshoots, it only
//! changes how soon the fixed point is reached (chaotic iteration). The
//! build stops after a sweep in which no bound changed: every board was then
//! recomputed from final bounds, so both are fixed points.

use super::ranks::{self, Alone, Ranks};
use super::{canonical_rank, Level};
use crate::games::{final_gain, move_gain, MoveList, Rules};
use crate::index::Indexer;
use crate::mem::{prefetch, Atomics};
use crate::position::Position;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering};

/// Boards per parallel chunk of a sweep.
const CHUNK: u64 = 1 << 14;

/// What a running build reports.
#[derive(Debug, Default)]
pub struct Progress {
    /// The level being built.
    pub level: AtomicU64,
    /// Boards of that level (about this rank's share of them, on several
    /// ranks: what its passes go over).
    pub entries: AtomicU64,
    /// The sweep (or, in a propagation build, the scan) under way, from 1.
    pub sweep: AtomicU64,
    /// Boards of the level passed in this sweep.
    pub done: AtomicU64,
    /// Boards whose value was still open at the start of this sweep.
    pub open: AtomicU64,
    /// Boards whose moves were generated, in all (a board counts once for
    /// every time its moves are generated).
    pub generated: AtomicU64,
    /// Boards whose unmoves were generated, in all (propagation builds).
    pub unmoved: AtomicU64,
    /// Sweeps run before the edges were recorded (propagation over
    /// recorded edges, [`super::edges`]).
    pub sweeps_before: AtomicU64,
    /// Boards still open when the edges were recorded ([`super::edges`]).
    pub first_open: AtomicU64,
    /// Edges recorded after the sweeps ([`super::edges`]).
    pub edges: AtomicU64,
    /// Bytes this rank sent to the others (builds on several ranks: news
    /// of [`super::propagate`], bounds of the sweeps).
    pub sent: AtomicU64,
    /// Whether the edges were recorded from the last sweep's moves rather
    /// than by generating them again ([`super::edges`], "Recording from
    /// the last sweep").
    pub forward: AtomicBool,
    /// Whether the level was built by sweeps alone, the sweeps reaching
    /// their fixed point before the edges fit their budget
    /// ([`super::edges`]).
    pub fallback: AtomicBool,
}

/// A board's bounds `lo` and `hi` in one word, so that a child's two bounds
/// cost one memory access (and are read together, never torn).
#[inline]
pub(super) fn pack(lo: i8, hi: i8) -> u16 {
    u16::from(lo as u8) | u16::from(hi as u8) << 8
}

/// The bounds `(lo, hi)` of a [`pack`]ed word.
#[inline]
pub(super) fn unpack(w: u16) -> (i8, i8) {
    (w as u8 as i8, (w >> 8) as u8 as i8)
}

/// Bytes of working memory the build of a level of `entries` boards needs
/// beyond the lower levels: two bounds per board, written to the file
/// straight from there ([`Solved::fill`]) through one buffer of
/// [`super::file::WRITE_PIECE`] bytes.
pub fn working_bytes(entries: u64) -> u64 {
    2 * entries + super::file::WRITE_PIECE as u64
}

/// A level built: one 16-bit word per board, by rank, from which its exact
/// gain is decoded. The level file is written from it directly
/// ([`Solved::fill`]), with no copy of the level in memory.
pub struct Solved {
    words: Atomics<AtomicU16>,
    decode: fn(u16) -> i8,
    /// The boards whose words these are (all of the level in one process;
    /// a rank's share on several, [`super::ranks`]).
    part: std::ops::Range<u64>,
    /// The first board of `words`.
    offset: u64,
}

impl Solved {
    /// The working memory of a build and the rule that reads a board's gain
    /// off its word.
    pub(super) fn new(words: Atomics<AtomicU16>, decode: fn(u16) -> i8) -> Solved {
        let len = words.len() as u64;
        Solved {
            words,
            decode,
            part: 0..len,
            offset: 0,
        }
    }

    /// The same words, which are those of the boards of `part` (a rank's
    /// share of the level).
    pub(super) fn at(self, part: std::ops::Range<u64>) -> Solved {
        debug_assert_eq!(part.end - part.start, self.words.len() as u64);
        Solved {
            offset: part.start,
            part,
            ..self
        }
    }

    /// The same words, of the whole level, of which this process computed
    /// and writes the boards of `part` (a sweep build on several ranks).
    pub(super) fn owning(self, part: std::ops::Range<u64>) -> Solved {
        Solved { part, ..self }
    }

    /// The boards this process computed and writes (the whole level in
    /// one process, its share on several ranks).
    pub fn part(&self) -> std::ops::Range<u64> {
        self.part.clone()
    }

    /// Number of boards held.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the level has no board (never: a level has one board at
    /// least).
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The gains of the boards of ranks `start..start + out.len()` (held
    /// here), each as its two's-complement byte (the level file's payload).
    pub fn fill(&self, start: u64, out: &mut [u8]) {
        let at = (start - self.offset) as usize;
        let words = &self.words[at..at + out.len()];
        out.par_chunks_mut(1 << 14)
            .zip(words.par_chunks(1 << 14))
            .for_each(|(o, w)| {
                for (o, w) in o.iter_mut().zip(w) {
                    *o = (self.decode)(w.load(Ordering::Relaxed)) as u8;
                }
            });
    }

    /// Every gain held, by rank (a copy: for tests and small levels).
    pub fn gains(&self) -> Vec<i8> {
        let mut out = vec![0u8; self.len()];
        self.fill(self.offset, &mut out);
        out.into_iter().map(|b| b as i8).collect()
    }
}

/// The exact gain of a board whose sweep bounds are the [`pack`]ed `w`: the
/// median of `lo`, 0 and `hi` (see the module docs).
pub(super) fn median(w: u16) -> i8 {
    let (l, h) = unpack(w);
    debug_assert!(l <= h);
    0.clamp(l, h)
}

/// The exact future gains of every board of `n` pits a row with `k` seeds,
/// South to move, by rank; `lower[j]` must be level `j` for every `j < k`.
/// `stop` makes the build return `None` as soon as it can; `None` is also
/// the answer when the working memory cannot be had. The gains are read
/// from the returned working memory ([`Solved`]), not copied out of it.
pub fn build_level<R: Rules>(
    n: usize,
    k: usize,
    lower: &[Level<'_>],
    progress: &Progress,
    stop: &AtomicBool,
) -> Option<Solved> {
    build_level_on::<R>(n, k, lower, progress, stop, &Alone)
}

/// [`build_level`] on several ranks: each rank sweeps its share of the
/// level ([`super::ranks::share`], one shard a rank) and, after each sweep,
/// every rank's share of the bounds is broadcast to all, so every rank
/// holds the whole level's bounds (the chaotic iteration of the module
/// docs, with the other ranks' bounds a sweep stale). The sweeps end when
/// none changed a bound in any rank. The returned [`Solved`] holds the
/// whole level; [`Solved::part`] is this rank's share. Every rank must call
/// it with the same arguments; `None` on every rank when one was stopped
/// (or, in this rank only, when its memory cannot be had).
pub fn build_level_on<R: Rules>(
    n: usize,
    k: usize,
    lower: &[Level<'_>],
    progress: &Progress,
    stop: &AtomicBool,
    ranks: &dyn Ranks,
) -> Option<Solved> {
    assert!(k <= super::file::MAX_LEVEL_SEEDS && lower.len() >= k);
    let ix = Indexer::new(2 * n, k).expect("levels are below 2^64 boards");
    let count = ix.count();
    let kk = k as i8;
    // The bounds of every board, one [`pack`]ed word each: the children of a
    // board sit anywhere in the level, hence memory advised to use huge
    // pages (see `crate::mem`).
    let memory = Atomics::<AtomicU16>::zeroed(usize::try_from(count).ok()?).ok()?;
    // Every board's bounds are written at once below: huge pages pay.
    memory.use_huge_pages();
    let bounds = &memory[..];
    bounds
        .par_iter()
        .for_each(|b| b.store(pack(-kk, kk), Ordering::Relaxed));
    let size = ranks.size();
    let part = ranks::share(count, 1, size, ranks.rank());
    let chunks = (part.end - part.start).div_ceil(CHUNK);
    let mut open = count;
    for sweep in 1.. {
        progress.sweep.store(sweep, Ordering::Relaxed);
        progress.done.store(0, Ordering::Relaxed);
        progress.open.store(open, Ordering::Relaxed);
        let changed = AtomicU64::new(0);
        let still_open = AtomicU64::new(0);
        (0..chunks).into_par_iter().for_each(|c| {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let range = part.start + c * CHUNK..(part.start + (c + 1) * CHUNK).min(part.end);
            let len = range.end - range.start;
            let mut moves = MoveList::new();
            let (mut ch, mut op, mut gen) = (0, 0, 0);
            ix.walk(range, |r, board| {
                let (l, h) = unpack(bounds[r as usize].load(Ordering::Relaxed));
                if l == h {
                    return;
                }
                let pos = Position::from_board(n, board);
                gen += 1;
                moves.clear();
                let (mut nl, mut nh) = match R::generate(&pos, &mut moves) {
                    Some(score) => {
                        let g = final_gain(&pos, score);
                        (g, g)
                    }
                    None => bounds_over_moves(&pos, &moves, k, &ix, bounds, lower),
                };
                nl = nl.max(i32::from(l));
                nh = nh.min(i32::from(h));
                if nl != i32::from(l) || nh != i32::from(h) {
                    // Only this chunk's thread writes this board's bounds.
                    bounds[r as usize].store(pack(nl as i8, nh as i8), Ordering::Relaxed);
                    ch += 1;
                }
                if nl != nh {
                    op += 1;
                }
            });
            changed.fetch_add(ch, Ordering::Relaxed);
            still_open.fetch_add(op, Ordering::Relaxed);
            progress.generated.fetch_add(gen, Ordering::Relaxed);
            progress.done.fetch_add(len, Ordering::Relaxed);
        });
        if size > 1 {
            share_bounds(bounds, count, ranks, progress);
        }
        if ranks.or(u32::from(stop.load(Ordering::Relaxed))) != 0 {
            return None;
        }
        open = ranks.sum(still_open.into_inner());
        if ranks.sum(changed.into_inner()) == 0 {
            break;
        }
    }
    // The true value is the median of lo, 0 and hi (see the module docs).
    Some(Solved::new(memory, median).owning(part))
}

/// Words broadcast at a time by [`share_bounds`].
const BROADCAST_PIECE: usize = 1 << 20;

/// Makes every rank's share of `bounds` (a level of `count` boards) what
/// that rank has, on every rank, a piece at a time.
fn share_bounds(bounds: &[AtomicU16], count: u64, ranks: &dyn Ranks, progress: &Progress) {
    let me = ranks.rank();
    let mut piece = vec![0u16; BROADCAST_PIECE];
    for root in 0..ranks.size() {
        let part = ranks::share(count, 1, ranks.size(), root);
        let words = &bounds[part.start as usize..part.end as usize];
        for chunk in words.chunks(BROADCAST_PIECE) {
            let buf = &mut piece[..chunk.len()];
            if root == me {
                for (b, w) in buf.iter_mut().zip(chunk) {
                    *b = w.load(Ordering::Relaxed);
                }
                progress
                    .sent
                    .fetch_add(2 * chunk.len() as u64, Ordering::Relaxed);
            }
            ranks.broadcast(root, buf);
            if root != me {
                for (b, w) in buf.iter().zip(chunk) {
                    w.store(*b, Ordering::Relaxed);
                }
            }
        }
    }
}

/// The bounds a board's moves give it: the best lower and best upper bound
/// over the moves (mover's view).
#[inline]
fn bounds_over_moves(
    pos: &Position,
    moves: &MoveList,
    k: usize,
    ix: &Indexer,
    bounds: &[AtomicU16],
    lower: &[Level<'_>],
) -> (i32, i32) {
    // The children's entries are anywhere in memory: find them all first
    // and prefetch them, so that their cache misses overlap.
    let mut at = [0usize; crate::games::MAX_MOVES];
    for (i, (_, child)) in moves.iter().enumerate() {
        let ck = child.board_seeds();
        if ck < k {
            at[i] = lower[ck].index_of(child);
            prefetch(&lower[ck].bytes[at[i]]);
        } else {
            at[i] = canonical_rank(ix, child) as usize;
            prefetch(&bounds[at[i]]);
        }
    }
    let (mut nl, mut nh) = (i32::MIN, i32::MIN);
    for (i, (_, child)) in moves.iter().enumerate() {
        let c = move_gain(pos, child);
        let ck = child.board_seeds();
        let (cl, chi) = if ck < k {
            let g = i32::from(lower[ck].bytes[at[i]] as i8);
            (g, g)
        } else {
            let (l, h) = unpack(bounds[at[i]].load(Ordering::Relaxed));
            (i32::from(l), i32::from(h))
        };
        let (vl, vh) = if child.to_move() == pos.to_move() {
            (c + cl, c + chi)
        } else {
            (c - chi, c - cl)
        };
        nl = nl.max(vl);
        nh = nh.max(vh);
    }
    (nl, nh)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Awari;

    /// Builds the first levels of 2-pit Awari (cycles included) and checks
    /// that every board's value is the best over its moves: the minimax
    /// equation that the true values satisfy. Small enough for Miri, which
    /// checks the bounds' shared memory here.
    #[test]
    fn small_levels_satisfy_the_minimax_equation() {
        let n = 2;
        let top = if cfg!(miri) { 3 } else { 10 };
        let progress = Progress::default();
        let stop = AtomicBool::new(false);
        let mut indexes = Vec::new();
        let mut values: Vec<Vec<u8>> = Vec::new();
        for k in 0..=top {
            indexes.push(Indexer::new(2 * n, k).unwrap());
            let lower: Vec<Level<'_>> = (0..k)
                .map(|j| Level {
                    index: &indexes[j],
                    bytes: &values[j],
                })
                .collect();
            let got = build_level::<Awari>(n, k, &lower, &progress, &stop)
                .unwrap()
                .gains();
            values.push(got.iter().map(|&v| v as u8).collect());
        }
        for k in 0..=top {
            let ix = &indexes[k];
            let mut board = [0u8; 4];
            for r in 0..ix.count() {
                ix.unrank(r, &mut board);
                let pos = Position::from_board(n, &board);
                let mut moves = MoveList::new();
                let want = match Awari::generate(&pos, &mut moves) {
                    Some(score) => final_gain(&pos, score),
                    None => moves
                        .iter()
                        .map(|(_, child)| {
                            let ck = child.board_seeds();
                            let g = i32::from(
                                values[ck][canonical_rank(&indexes[ck], child) as usize] as i8,
                            );
                            if child.to_move() == pos.to_move() {
                                move_gain(&pos, child) + g
                            } else {
                                move_gain(&pos, child) - g
                            }
                        })
                        .max()
                        .unwrap(),
                };
                assert_eq!(i32::from(values[k][r as usize] as i8), want, "{pos}");
            }
        }
    }
}
