//! Building one level by propagation: each board's moves are generated
//! once, and a board is revisited only when one of its children is settled,
//! found by the game's unmove generator ([`Rules::quiet_parents`]). For the
//! games that have one (single-lap sowing: Awari, Kalah); the others are
//! built by the sweeps of [`super::build`], which is also the reference
//! this build is tested against (byte-identical level files).
//!
//! # The values, by thresholds
//!
//! As in [`super::build`], a board's moves either leave the level (their
//! exact worth is known from the lower levels) or are *quiet*: nothing
//! leaves the board, the turn passes (checked for every such game by
//! `tests/unmoves.rs`), and the move is worth `-v(c)` for the child `c`.
//! Write `e(b)` for the best worth of `b`'s moves that leave the level (or
//! its final gain when the game is over; none when every move is quiet).
//!
//! For a threshold `t >= 1`, let `W_t` be the boards whose true value is
//! at least `t` and `L_t` those whose value is at most `-t`. The module
//! doc of [`super::build`] shows that `v >= t` holds exactly in the game
//! where endless play is the worst outcome for the side to move (the `lo`
//! game), and `v <= -t` exactly in the game where it is the best (the `hi`
//! game: `v <= -t` is `v < -t + 1` with `-t + 1 <= 0`). In both, endless
//! play fails the aim (to reach `t`, to hold the opponent to `-t`), so
//! these are *reachability* games and `W_t`, `L_t` are the **least**
//! sets closed under
//!
//! - `b` in `W_t` when `e(b) >= t` or some quiet child is in `L_t`;
//! - `b` in `L_t` when `e(b) <= -t` (or `b` has no exit) and every quiet
//!   child is in `W_t` (a finished game: no child, `e(b)` its gain),
//!
//! the *attractors* of Lincke (2002) and Romein and Bal (2002). The least
//! closed sets are what a worklist computes from the boards that qualify on
//! their own, adding a board when it qualifies: a counter of the quiet
//! children not yet known in `W_t` tells when the second rule applies.
//!
//! # All thresholds in one pass each way
//!
//! `W_t` and `L_t` only grow as `t` falls, so the thresholds are taken
//! from `k` down to 1, each continuing from the sets of the one before
//! (the least closed sets for `t` contain those for `t + 1`, so starting
//! the worklist from them reaches the same least sets). A board entering
//! `W_t` or `L_t` at threshold `t` and not before has the value `t` or
//! `-t` exactly: it is **settled**, and stays so; a child settled in `W`
//! lowers its parents' counters once, for good. After `t = 1` every board
//! with a value other than 0 is settled; the others are worth 0. So:
//!
//! - one forward pass generates every board's moves once, for `e(b)` and
//!   the count of quiet moves;
//! - each settled board generates its unmoves once, to tell its parents.
//!
//! At threshold `t` a board qualifies on its own when `e(b) >= t`, or when
//! its counter is 0 and `e(b) <= -t`; a scan of the level finds those (a
//! memory scan, no move is generated), and each such board's consequences
//! are followed at once, depth first, by the thread that settled it.
//!
//! # One word per board, shared
//!
//! A board's state is one 16-bit word: `e(b)` (then its value, once
//! settled) in the low byte, the counter in bits 8..14, "settled" in bit
//! 15 and "settled, parents not told yet" in bit 14. Threads update words
//! with compare-and-swap only, so each change (a counter lowered, a board
//! settled) happens exactly once whoever makes it, and the order of the
//! changes within a threshold does not matter: the sets reached are the
//! least closed ones whatever the order (each rule only ever adds). A
//! thread's stack of boards to follow is bounded; a board settled when the
//! stack is full is marked "not told yet" and found by another scan of the
//! level, repeated until a scan finds none: every threshold is closed
//! before the next begins.

use super::build::{Progress, Solved};
use super::{canonical_rank, Level};
use crate::games::{final_gain, through, MoveList, Rules};
use crate::index::Indexer;
use crate::mem::Atomics;
use crate::position::{Position, MAX_PITS};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering};

/// Boards per parallel chunk of a scan.
const CHUNK: u64 = 1 << 14;

/// Bytes all threads' stacks of boards to follow may take together.
const STACK_BYTES: u64 = 4 << 20;

/// Settled: the low byte is the board's exact value.
const SETTLED: u16 = 1 << 15;
/// Settled, but its parents are not told yet (a stack was full).
const UNTOLD: u16 = 1 << 14;
/// The counter of quiet children not yet known to be in `W_t`.
const COUNT_SHIFT: u32 = 8;
const COUNT_MASK: u16 = 0x3F << COUNT_SHIFT;
/// `e(b)` of a board whose every move is quiet.
const NO_EXIT: i8 = i8::MIN;

const _: () = assert!(
    crate::games::MAX_MOVES <= (COUNT_MASK >> COUNT_SHIFT) as usize,
    "the counter holds every move"
);

#[inline]
fn value(w: u16) -> i8 {
    w as u8 as i8
}

#[inline]
fn count(w: u16) -> u16 {
    (w & COUNT_MASK) >> COUNT_SHIFT
}

#[inline]
fn open_word(e: i8, count: u16) -> u16 {
    u16::from(e as u8) | count << COUNT_SHIFT
}

#[inline]
fn settled(v: i8, untold: bool) -> u16 {
    u16::from(v as u8) | SETTLED | if untold { UNTOLD } else { 0 }
}

/// A board's exact gain from its final word: its value once settled, 0
/// when it never was.
fn decode(w: u16) -> i8 {
    if w & SETTLED != 0 {
        value(w)
    } else {
        0
    }
}

/// Bytes of working memory the propagation build of a level of `entries`
/// boards needs beyond the lower levels: one word per board, the stacks,
/// and the write buffer ([`super::file::WRITE_PIECE`]).
pub fn working_bytes(entries: u64) -> u64 {
    2 * entries + STACK_BYTES + super::file::WRITE_PIECE as u64
}

/// The exact future gains of every board of `n` pits a row with `k` seeds,
/// South to move, by rank, as [`super::build::build_level`] gives them, by
/// propagation (see the module docs); `R` must have an unmove generator
/// ([`Rules::HAS_UNMOVES`]). `progress.generated` and `progress.unmoved`
/// count the boards whose moves, and unmoves, were generated.
pub fn build_level<R: Rules>(
    n: usize,
    k: usize,
    lower: &[Level<'_>],
    progress: &Progress,
    stop: &AtomicBool,
) -> Option<Solved> {
    let stack_cap = (STACK_BYTES as usize / 8 / rayon::current_num_threads().max(1)).max(64);
    build_with_stacks::<R>(n, k, lower, progress, stop, stack_cap)
}

/// [`build_level`] with stacks of `stack_cap` boards per task (the tests
/// make them tiny, to exercise the rescans of boards left untold).
fn build_with_stacks<R: Rules>(
    n: usize,
    k: usize,
    lower: &[Level<'_>],
    progress: &Progress,
    stop: &AtomicBool,
    stack_cap: usize,
) -> Option<Solved> {
    assert!(R::HAS_UNMOVES, "{} has no unmove generator", R::NAME);
    assert!(k <= super::file::MAX_LEVEL_SEEDS && lower.len() >= k);
    let ix = Indexer::new(2 * n, k).expect("levels are below 2^64 boards");
    let count_all = ix.count();
    let memory = Atomics::<AtomicU16>::zeroed(usize::try_from(count_all).ok()?).ok()?;
    memory.use_huge_pages();
    let words = &memory[..];
    let chunks = count_all.div_ceil(CHUNK);

    // The forward pass: every board's exits and quiet moves, once.
    progress.sweep.store(1, Ordering::Relaxed);
    progress.done.store(0, Ordering::Relaxed);
    progress.open.store(count_all, Ordering::Relaxed);
    (0..chunks).into_par_iter().for_each(|c| {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let range = c * CHUNK..((c + 1) * CHUNK).min(count_all);
        let len = range.end - range.start;
        let mut board = [0u8; MAX_PITS];
        let board = &mut board[..2 * n];
        let mut moves = MoveList::new();
        ix.unrank(range.start, board);
        for r in range {
            if r > c * CHUNK {
                ix.next(board);
            }
            let pos = Position::from_board(n, board);
            let w = match R::generate(&pos, &mut moves) {
                Some(score) => open_word(final_gain(&pos, score) as i8, 0),
                None => {
                    let mut e = i32::from(NO_EXIT);
                    let mut quiet = 0;
                    for (_, child) in &moves {
                        let ck = child.board_seeds();
                        if ck < k {
                            e = e.max(through(&pos, child, lower[ck].gain(child)));
                        } else {
                            debug_assert_ne!(child.to_move(), pos.to_move(), "quiet moves pass");
                            quiet += 1;
                        }
                    }
                    open_word(e as i8, quiet)
                }
            };
            words[r as usize].store(w, Ordering::Relaxed);
        }
        progress.done.fetch_add(len, Ordering::Relaxed);
        progress.generated.fetch_add(len, Ordering::Relaxed);
    });
    if stop.load(Ordering::Relaxed) {
        return None;
    }

    // The thresholds, from k down: scans until no board is left untold.
    let unsettled = AtomicU64::new(count_all);
    for t in (1..=k as i8).rev() {
        loop {
            progress.sweep.fetch_add(1, Ordering::Relaxed);
            progress.done.store(0, Ordering::Relaxed);
            progress
                .open
                .store(unsettled.load(Ordering::Relaxed), Ordering::Relaxed);
            let again = AtomicBool::new(false);
            (0..chunks).into_par_iter().for_each(|c| {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let range = c * CHUNK..((c + 1) * CHUNK).min(count_all);
                let len = range.end - range.start;
                let mut follow = Follow {
                    n,
                    t,
                    ix: &ix,
                    words,
                    stack: Vec::new(),
                    cap: stack_cap,
                    parents: Vec::new(),
                    again: &again,
                    settled: 0,
                    unmoved: 0,
                };
                for r in range {
                    if follow.claim(r) {
                        follow.stack.push(r);
                        follow.drain::<R>();
                    }
                }
                unsettled.fetch_sub(follow.settled, Ordering::Relaxed);
                progress
                    .unmoved
                    .fetch_add(follow.unmoved, Ordering::Relaxed);
                progress.done.fetch_add(len, Ordering::Relaxed);
            });
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            if !again.load(Ordering::Relaxed) {
                break;
            }
        }
    }
    progress
        .open
        .store(unsettled.load(Ordering::Relaxed), Ordering::Relaxed);
    Some(Solved::new(memory, decode))
}

/// One scanning task's state at threshold `t`: its stack of settled boards
/// whose parents it must tell.
struct Follow<'a> {
    n: usize,
    t: i8,
    ix: &'a Indexer,
    words: &'a [AtomicU16],
    stack: Vec<u64>,
    cap: usize,
    parents: Vec<u64>,
    again: &'a AtomicBool,
    /// Boards this task settled.
    settled: u64,
    /// Boards whose unmoves this task generated.
    unmoved: u64,
}

impl Follow<'_> {
    /// Whether the scan should follow board `r` now: it qualifies on its
    /// own at this threshold (and this task settles it), or it is settled
    /// but untold (and this task takes the telling over).
    fn claim(&mut self, r: u64) -> bool {
        let t = self.t;
        let word = &self.words[r as usize];
        let mut settles = false;
        let ok = word
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |w| {
                settles = false;
                if w & SETTLED != 0 {
                    return (w & UNTOLD != 0).then_some(w & !UNTOLD);
                }
                let e = value(w);
                if e >= t {
                    settles = true;
                    Some(settled(t, false))
                } else if count(w) == 0 && e <= -t {
                    settles = true;
                    Some(settled(-t, false))
                } else {
                    None
                }
            })
            .is_ok();
        if ok && settles {
            self.settled += 1;
        }
        ok
    }

    /// Tells the parents of every board on the stack, settling those that
    /// now qualify and following them in turn.
    fn drain<R: Rules>(&mut self) {
        let t = self.t;
        let mut board = [0u8; MAX_PITS];
        while let Some(r) = self.stack.pop() {
            let v = value(self.words[r as usize].load(Ordering::Relaxed));
            debug_assert!(v == t || v == -t);
            self.ix.unrank(r, &mut board[..2 * self.n]);
            let pos = Position::from_board(self.n, &board[..2 * self.n]);
            self.parents.clear();
            let (ix, parents) = (self.ix, &mut self.parents);
            R::quiet_parents(&pos, |_, p| parents.push(canonical_rank(ix, p)));
            self.unmoved += 1;
            for i in 0..self.parents.len() {
                let p = self.parents[i];
                self.tell(p, v);
            }
        }
    }

    /// Tells board `p` that one of its quiet children settled at `v`
    /// (`t`: in `W_t`; `-t`: in `L_t`).
    fn tell(&mut self, p: u64, v: i8) {
        let t = self.t;
        let full = self.stack.len() >= self.cap;
        let mut settles = false;
        let ok = self.words[p as usize]
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |w| {
                settles = false;
                if w & SETTLED != 0 {
                    return None;
                }
                if v < 0 {
                    // A move into L_t: the parent reaches t.
                    settles = true;
                    return Some(settled(t, full));
                }
                let c = count(w);
                debug_assert!(c > 0, "a parent counts its quiet child");
                let e = value(w);
                if c == 1 && e <= -t {
                    settles = true;
                    Some(settled(-t, full))
                } else {
                    Some(open_word(e, c - 1))
                }
            })
            .is_ok();
        if ok && settles {
            self.settled += 1;
            if full {
                self.again.store(true, Ordering::Relaxed);
            } else {
                self.stack.push(p);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Awari, Kalah};

    /// The first levels of 2-pit Awari and Kalah (Awari's with cycles) by
    /// propagation equal the sweep build's, with stacks of every size down
    /// to 1 board (every settled board then left untold and found again by
    /// a rescan). Small enough for Miri, which checks the shared words.
    fn same_as_sweeps<R: Rules>() {
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
            let want = super::super::build::build_level::<R>(n, k, &lower, &progress, &stop)
                .unwrap()
                .gains();
            for cap in [1, 2, 1 << 16] {
                let got = build_with_stacks::<R>(n, k, &lower, &progress, &stop, cap)
                    .unwrap()
                    .gains();
                assert_eq!(got, want, "{} level {k}, stacks of {cap}", R::NAME);
            }
            values.push(want.iter().map(|&v| v as u8).collect());
        }
    }

    #[test]
    fn small_levels_equal_the_sweep_build() {
        same_as_sweeps::<Awari>();
        same_as_sweeps::<Kalah>();
    }
}
