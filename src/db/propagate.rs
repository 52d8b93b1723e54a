//! Building one level by propagation: each board's moves are generated
//! once, and a board is revisited only when one of its children is settled,
//! found by the game's unmove generator ([`Rules::quiet_parents`]). For the
//! games that have one (single-lap sowing: Awari, Kalah); the others are
//! built by [`super::edges`], which runs the same thresholds
//! over quiet moves recorded by a forward pass, or by the sweeps of
//! [`super::build`], which is also the reference both builds are tested
//! against (byte-identical level files).
//!
//! # The values, by thresholds
//!
//! As in [`super::build`], a board's moves either leave the level (their
//! exact worth is known from the lower levels) or are *quiet*: nothing
//! leaves the board, the turn passes (checked for every such game by
//! `tests/it/unmoves.rs`), and the move is worth `-v(c)` for the child `c`.
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
//! memory scan: no move is generated).
//!
//! # Shards that exchange news
//!
//! A board's state is one 16-bit word: `e(b)` (then its value, once
//! settled) in the low byte, the counter in bits 8..14, "settled" in bit
//! 15 and "settled, parents not told yet" (*untold*) in bit 14.
//!
//! The level is cut into **shards**, ranges of ranks; within a round, a
//! shard alone reads and writes its words. A threshold runs in rounds: in
//! each, every shard (a rayon task) applies the news it received, scans its
//! range for the boards that qualify on their own (in the first round), and
//! follows every board it settles, depth first: the board's unmoves give
//! its parents, and each parent gets the news `(rank, child in L_t or in
//! W_t)`: at once when it is in the same shard, else in a batch for its
//! shard, delivered at the end of the round. Rounds go on until a round
//! sends no news and leaves no board untold; then the threshold is closed
//! and the next begins. So shards share nothing but batches of `(rank,
//! news)`, and could as well be processes or machines.
//!
//! The shards need not share a process either: on several ranks
//! ([`super::ranks`]), each rank holds the words of its own shards only
//! (its share of the level, [`super::ranks::share`]), runs the forward
//! pass over them, and at the end of each round sends the batches for
//! other ranks' shards in one all-to-all exchange; the rounds of a
//! threshold end when no rank has news left ([`Ranks::or`]).
//!
//! The order in which news is applied does not matter: each piece of news
//! only adds to `W_t` or `L_t` or lowers a counter, once, and the least
//! closed sets are reached whatever the order. Memory stays bounded: a
//! shard's stack and its news of a round have fixed budgets; a board
//! settled beyond them is marked untold, and its shard rescans its range
//! for untold boards in the next round.

use super::build::{Progress, Solved};
use super::ranks::{self, Alone, Ranks};
use super::{canonical_rank, Level};
use crate::games::{final_gain, through, MoveList, Rules};
use crate::index::Indexer;
use crate::mem::Atomics;
use crate::position::{Position, MAX_PITS};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering};

/// Boards per parallel chunk of the forward pass.
const CHUNK: u64 = 1 << 14;

/// Bytes of the shards' stacks and news of a level of `entries` boards,
/// together: half a byte a board, at least 64 KiB (a fifth for the stacks
/// of boards to follow, the rest for the news of a round). Smaller budgets
/// only mean more rounds, and more rescans of the shards for the boards
/// left untold when a budget ran out: with the 20 MiB these buffers had
/// at most before, Awari's level 22 took 115 s (3,042 shard rescans),
/// with half a byte a board 64 s (357), on 2 idle cores.
fn buffer_bytes(entries: u64) -> u64 {
    (entries / 2).max(64 << 10)
}

/// News applied ahead of whose boards' words are fetched into the cache:
/// the words of a shard are read at random, and the fetch of a word from
/// memory is much longer than the application of a piece of news.
const PREFETCH_AHEAD: usize = 16;

/// Shards per thread: enough for rayon to balance the rounds.
const SHARDS_PER_THREAD: usize = 8;

/// Settled: the low byte is the board's exact value.
const SETTLED: u16 = 1 << 15;
/// Settled, but its parents are not told yet (a stack was full).
const UNTOLD: u16 = 1 << 14;
/// The counter of quiet children not yet known to be in `W_t`.
pub(super) const COUNT_SHIFT: u32 = 8;
pub(super) const COUNT_MASK: u16 = 0x3F << COUNT_SHIFT;
/// `e(b)` of a board whose every move is quiet.
pub(super) const NO_EXIT: i8 = i8::MIN;

const _: () = assert!(
    crate::games::MAX_MOVES <= (COUNT_MASK >> COUNT_SHIFT) as usize,
    "the counter holds every move"
);

#[inline]
pub(super) fn value(w: u16) -> i8 {
    w as u8 as i8
}

#[inline]
pub(super) fn count(w: u16) -> u16 {
    (w & COUNT_MASK) >> COUNT_SHIFT
}

#[inline]
pub(super) fn open_word(e: i8, count: u16) -> u16 {
    u16::from(e as u8) | count << COUNT_SHIFT
}

#[inline]
fn settled(v: i8, untold: bool) -> u16 {
    u16::from(v as u8) | SETTLED | if untold { UNTOLD } else { 0 }
}

/// A board's exact gain from its final word: its value once settled, 0
/// when it never was.
pub(super) fn decode(w: u16) -> i8 {
    if w & SETTLED != 0 {
        value(w)
    } else {
        0
    }
}

/// Bytes of working memory the propagation build of a level of `entries`
/// boards needs beyond the lower levels: one word per board, the stacks
/// and news (half a byte a board, counted twice), and the write buffer
/// ([`super::file::WRITE_PIECE`]). Twice, because a round's news received
/// (moved, not copied) are alive while its news sent are gathered, and a
/// growing vector may hold up to twice what it needs: Awari 0..24 measured
/// a maximum resident set 89 MiB above the announcement when the buffers
/// were counted once (1,614 MiB against 1,525; level 24's buffers are 199
/// MiB).
pub fn working_bytes(entries: u64) -> u64 {
    2 * entries + 2 * buffer_bytes(entries) + super::file::WRITE_PIECE as u64
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
    build_level_on::<R>(n, k, lower, progress, stop, &Alone)
}

/// [`build_level`] on several ranks: this rank computes its share of the
/// level ([`super::ranks::share`]) with the others, and the returned
/// [`Solved`] holds that share only ([`Solved::part`]). Every rank must
/// call it with the same arguments; `None` on every rank when one was
/// stopped (or, in this rank only, when its memory cannot be had).
pub fn build_level_on<R: Rules>(
    n: usize,
    k: usize,
    lower: &[Level<'_>],
    progress: &Progress,
    stop: &AtomicBool,
    ranks: &dyn Ranks,
) -> Option<Solved> {
    let entries = Indexer::new(2 * n, k).map_or(0, |ix| ix.count());
    let share = entries.div_ceil(ranks.size() as u64);
    let mut limits = Limits::of(share);
    if ranks.size() > 1 {
        // Every rank must cut the level alike, whatever threads it has:
        // the most shards any rank wants.
        let most = ranks.gather(limits.shards as u64).into_iter().max();
        limits.shards = most.map_or(limits.shards, |s| s as usize);
    }
    build_with::<R>(n, k, lower, progress, stop, limits, ranks)
}

/// [`build_level`] with these shards and buffers (the tests make them tiny,
/// to exercise every path).
fn build_with<R: Rules>(
    n: usize,
    k: usize,
    lower: &[Level<'_>],
    progress: &Progress,
    stop: &AtomicBool,
    limits: Limits,
    ranks: &dyn Ranks,
) -> Option<Solved> {
    assert!(R::HAS_UNMOVES, "{} has no unmove generator", R::NAME);
    assert!(k <= super::file::MAX_LEVEL_SEEDS && lower.len() >= k);
    let ix = Indexer::new(2 * n, k).expect("levels are below 2^64 boards");
    let count_all = ix.count();
    // This rank's share of the level: all of it in one process.
    let part = ranks::share(count_all, limits.shards, ranks.size(), ranks.rank());
    let base = part.start;
    let memory = Atomics::<AtomicU16>::zeroed(usize::try_from(part.end - base).ok()?).ok()?;
    memory.use_huge_pages();
    let words = &memory[..];
    let chunks = (part.end - base).div_ceil(CHUNK);

    // The forward pass: every board's exits and quiet moves, once.
    progress.sweep.store(1, Ordering::Relaxed);
    progress.done.store(0, Ordering::Relaxed);
    progress.open.store(part.end - base, Ordering::Relaxed);
    (0..chunks).into_par_iter().for_each(|c| {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let range = base + c * CHUNK..(base + (c + 1) * CHUNK).min(part.end);
        let len = range.end - range.start;
        let mut moves = MoveList::new();
        ix.walk(range, |r, board| {
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
            words[(r - base) as usize].store(w, Ordering::Relaxed);
        });
        progress.done.fetch_add(len, Ordering::Relaxed);
        progress.generated.fetch_add(len, Ordering::Relaxed);
    });
    if ranks.or(u32::from(stop.load(Ordering::Relaxed))) != 0 {
        return None;
    }

    let unmoves = Unmoves::<R> {
        n,
        ix: &ix,
        rules: std::marker::PhantomData,
    };
    settle(k, count_all, words, &unmoves, limits, progress, stop, ranks)?;
    Some(Solved::new(memory, decode).at(part))
}

/// Where a propagation finds the parents of a settled board: its quiet
/// moves reversed, by the game's unmove generator ([`Unmoves`]) or from the
/// edges recorded by a forward pass ([`super::relay`]).
pub(super) trait Parents: Sync {
    /// Whether finding them generates unmoves (counted in
    /// [`Progress::unmoved`]).
    const GENERATES: bool;
    /// Pushes on `out` one [`edge`] for every quiet move of a board of the
    /// level into the board of rank `r` (a parent with two such moves
    /// twice).
    fn parents(&self, r: u64, out: &mut Vec<u64>);
}

/// A quiet move from the board of rank `parent`, as [`Parents`] give it:
/// `parent << 1`, plus 1 when the move keeps the mover (the worth of the
/// move is then the child's value, not its opposite).
#[inline]
pub(super) fn edge(parent: u64, same_mover: bool) -> u64 {
    parent << 1 | u64::from(same_mover)
}

/// The parents by the unmove generator of `R`: their quiet moves all pass
/// the turn (`tests/it/unmoves.rs`).
struct Unmoves<'a, R> {
    n: usize,
    ix: &'a Indexer,
    rules: std::marker::PhantomData<R>,
}

impl<R: Rules> Parents for Unmoves<'_, R> {
    const GENERATES: bool = true;
    fn parents(&self, r: u64, out: &mut Vec<u64>) {
        let mut board = [0u8; MAX_PITS];
        self.ix.unrank(r, &mut board[..2 * self.n]);
        let pos = Position::from_board(self.n, &board[..2 * self.n]);
        let ix = self.ix;
        R::quiet_parents(&pos, |_, p| out.push(edge(canonical_rank(ix, p), false)));
    }
}

/// The thresholds of a level of `count_all` boards whose `words` hold the
/// `e(b)` and counter ([`open_word`]) of every board of this rank's share
/// ([`super::ranks::share`] with `limits.shards` shards a rank; the whole
/// level in one process), from `k` down, each in rounds of the shards
/// exchanging their news until no news is left and no board untold, in
/// any rank (see the module docs). Leaves every board's final word;
/// `None` (on every rank) when stopped (on any).
#[allow(clippy::too_many_arguments)]
pub(super) fn settle<P: Parents>(
    k: usize,
    count_all: u64,
    words: &[AtomicU16],
    parents: &P,
    limits: Limits,
    progress: &Progress,
    stop: &AtomicBool,
    ranks: &dyn Ranks,
) -> Option<()> {
    // The thresholds, from k down, each in rounds of the shards exchanging
    // their news, until no news is left and no board untold.
    let (me, size) = (ranks.rank(), ranks.size());
    let shard_len = ranks::shard_len(count_all, limits.shards, size);
    let part = ranks::share(count_all, limits.shards, size, me);
    let base = part.start;
    debug_assert_eq!(words.len() as u64, part.end - base);
    // This rank's shards are `first..first + shards` of `all_shards`.
    let first = me * limits.shards;
    let shards = (part.end - base).div_ceil(shard_len) as usize;
    let all_shards = count_all.div_ceil(shard_len) as usize;
    let unsettled = AtomicU64::new(part.end - base);
    for t in (1..=k as i8).rev() {
        let mut inboxes: Vec<Vec<Vec<u64>>> = vec![Vec::new(); shards];
        let mut rescan = vec![true; shards];
        loop {
            progress.sweep.fetch_add(1, Ordering::Relaxed);
            progress.done.store(0, Ordering::Relaxed);
            progress
                .open
                .store(unsettled.load(Ordering::Relaxed), Ordering::Relaxed);
            let outcomes: Vec<(Vec<Vec<u64>>, bool)> = inboxes
                .into_par_iter()
                .zip(rescan.into_par_iter())
                .enumerate()
                .map(|(i, (inbox, scan))| {
                    let start = base + i as u64 * shard_len;
                    let mut shard = Shard {
                        t,
                        source: parents,
                        words,
                        base,
                        range: start..(start + shard_len).min(part.end),
                        shard_len,
                        stack: Vec::new(),
                        stack_cap: limits.stack_cap,
                        parents: Vec::new(),
                        outboxes: vec![Vec::new(); all_shards],
                        sent: 0,
                        budget: limits.messages,
                        untold: false,
                        settled: 0,
                        unmoved: 0,
                    };
                    if !stop.load(Ordering::Relaxed) {
                        shard.round(inbox, scan);
                    }
                    unsettled.fetch_sub(shard.settled, Ordering::Relaxed);
                    progress.unmoved.fetch_add(shard.unmoved, Ordering::Relaxed);
                    progress
                        .done
                        .fetch_add(shard.range.end - shard.range.start, Ordering::Relaxed);
                    (shard.outboxes, shard.untold)
                })
                .collect();
            // The exchange: shard `d`'s inbox is every shard's batch for
            // `d` (moved, not copied, within this rank; the batches for
            // another rank's shards go to it in one piece).
            inboxes = vec![Vec::new(); shards];
            rescan = vec![false; shards];
            let mut news = false;
            let mut away: Vec<Vec<u64>> = vec![Vec::new(); size];
            for (from, (outboxes, untold)) in outcomes.into_iter().enumerate() {
                rescan[from] = untold;
                news |= untold;
                for (d, batch) in outboxes.into_iter().enumerate() {
                    if batch.is_empty() {
                        continue;
                    }
                    news = true;
                    match (d / limits.shards, d.checked_sub(first)) {
                        (owner, Some(local)) if owner == me => inboxes[local].push(batch),
                        (owner, _) => away[owner].extend_from_slice(&batch),
                    }
                }
            }
            if size > 1 {
                let sent: usize = away.iter().map(Vec::len).sum();
                progress.sent.fetch_add(8 * sent as u64, Ordering::Relaxed);
                let mut batches: Vec<Vec<u64>> = vec![Vec::new(); shards];
                for m in ranks.exchange(&away) {
                    batches[(m >> 1) as usize / shard_len as usize - first].push(m);
                }
                for (inbox, batch) in inboxes.iter_mut().zip(batches) {
                    if !batch.is_empty() {
                        inbox.push(batch);
                    }
                }
            }
            // Every rank goes on while one has news, and stops when one
            // is stopped.
            let stopped = stop.load(Ordering::Relaxed);
            let flags = ranks.or(u32::from(news) | u32::from(stopped) << 1);
            if flags & 2 != 0 {
                return None;
            }
            if flags & 1 == 0 {
                break;
            }
        }
    }
    progress
        .open
        .store(unsettled.load(Ordering::Relaxed), Ordering::Relaxed);
    Some(())
}

/// The sizes of a propagation build's shards and buffers.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    /// Shards (index ranges) of a level.
    pub(super) shards: usize,
    /// Boards a shard's stack of boards to follow holds.
    pub(super) stack_cap: usize,
    /// News a shard may send in one round.
    pub(super) messages: usize,
}

impl Limits {
    /// The shards and buffers of a level of `entries` boards: a few shards
    /// a thread, and [`buffer_bytes`] for their stacks and news.
    pub(super) fn of(entries: u64) -> Limits {
        Limits::with_buffer(buffer_bytes(entries))
    }

    /// A few shards a thread, and `buffer` bytes for their stacks and news
    /// (a fifth for the stacks, the rest for the news of a round).
    pub(super) fn with_buffer(buffer: u64) -> Limits {
        let shards = SHARDS_PER_THREAD * rayon::current_num_threads().max(1);
        // Eight bytes a board on a stack or a piece of news.
        let per_shard = (buffer / 8 / shards as u64).max(1) as usize;
        Limits {
            shards,
            stack_cap: (per_shard / 5).max(1),
            messages: (per_shard - per_shard / 5).max(1),
        }
    }

    /// Boards per shard of a level of `count` boards in one process (the
    /// last shard may have fewer).
    pub(super) fn shard_len(&self, count: u64) -> u64 {
        ranks::shard_len(count, self.shards, 1)
    }
}

/// A piece of news for the board of rank `r`: `r << 1`, plus 1 when the
/// quiet move to the child that settled is *good* for the board's mover (the
/// child is in `L_t` and its mover is the opponent, or in `W_t` and its
/// mover is the same: the board reaches `t`); 0 when it is bad (one fewer
/// move to wait for).
#[inline]
fn news(r: u64, good: bool) -> u64 {
    r << 1 | u64::from(good)
}

/// One shard's round at threshold `t`: it owns the words of `range` (no
/// other shard reads or writes them during the round), applies the news it
/// received, settles the boards that qualify, and sends news of them to
/// the shards of their parents.
struct Shard<'a, P> {
    t: i8,
    source: &'a P,
    /// This rank's words: the board of rank `r` is at `r - base`.
    words: &'a [AtomicU16],
    base: u64,
    range: std::ops::Range<u64>,
    shard_len: u64,
    stack: Vec<u64>,
    stack_cap: usize,
    parents: Vec<u64>,
    /// News for each shard (this one's own news is applied at once).
    outboxes: Vec<Vec<u64>>,
    sent: usize,
    budget: usize,
    /// Whether a board of the shard was left settled but untold.
    untold: bool,
    /// Boards this shard settled.
    settled: u64,
    /// Boards whose unmoves this shard generated.
    unmoved: u64,
}

impl<P: Parents> Shard<'_, P> {
    /// The round: the news received, then (in the first round of a
    /// threshold, or when boards were left untold) a scan of the range for
    /// the boards that qualify on their own or are untold.
    fn round(&mut self, inbox: Vec<Vec<u64>>, scan: bool) {
        for batch in inbox {
            for (i, &m) in batch.iter().enumerate() {
                if let Some(&ahead) = batch.get(i + PREFETCH_AHEAD) {
                    crate::mem::prefetch(self.word(ahead >> 1));
                }
                self.apply(m >> 1, m & 1 == 1);
                self.drain();
            }
        }
        if scan {
            for r in self.range.clone() {
                if self.claim(r) {
                    self.stack.push(r);
                    self.drain();
                }
            }
        }
    }

    #[inline]
    fn word(&self, r: u64) -> &AtomicU16 {
        debug_assert!(self.range.contains(&r));
        &self.words[(r - self.base) as usize]
    }

    /// Whether board `r` should be followed now: it qualifies on its own at
    /// this threshold (and is settled here), or it is settled but untold.
    fn claim(&mut self, r: u64) -> bool {
        let t = self.t;
        let w = self.word(r).load(Ordering::Relaxed);
        let new = if w & SETTLED != 0 {
            if w & UNTOLD == 0 {
                return false;
            }
            w & !UNTOLD
        } else if value(w) >= t {
            self.settled += 1;
            settled(t, false)
        } else if count(w) == 0 && value(w) <= -t {
            self.settled += 1;
            settled(-t, false)
        } else {
            return false;
        };
        self.word(r).store(new, Ordering::Relaxed);
        true
    }

    /// Applies to board `p` (of this shard) the news that one of its quiet
    /// children settled, the move to it good for `p`'s mover (`good`: see
    /// [`news`]) or bad; a board that
    /// settles goes on the stack (or is marked untold when it is full).
    fn apply(&mut self, p: u64, good: bool) {
        let t = self.t;
        let w = self.word(p).load(Ordering::Relaxed);
        if w & SETTLED != 0 {
            return;
        }
        let full = self.stack.len() >= self.stack_cap;
        let new = if good {
            // A move into L_t: the parent reaches t.
            settled(t, full)
        } else {
            let c = count(w);
            debug_assert!(c > 0, "a parent counts its quiet child");
            if c == 1 && value(w) <= -t {
                settled(-t, full)
            } else {
                self.word(p)
                    .store(open_word(value(w), c - 1), Ordering::Relaxed);
                return;
            }
        };
        self.word(p).store(new, Ordering::Relaxed);
        self.settled += 1;
        if full {
            self.untold = true;
        } else {
            self.stack.push(p);
        }
    }

    /// Tells the parents of every board on the stack: those of this shard
    /// at once (following the ones that settle), the others by news. When
    /// the round's budget of news is spent, the boards left are marked
    /// untold for a later round.
    fn drain(&mut self) {
        let t = self.t;
        while let Some(r) = self.stack.pop() {
            let w = self.word(r).load(Ordering::Relaxed);
            if self.sent >= self.budget {
                self.word(r).store(w | UNTOLD, Ordering::Relaxed);
                self.untold = true;
                continue;
            }
            let v = value(w);
            debug_assert!(v == t || v == -t);
            self.parents.clear();
            self.source.parents(r, &mut self.parents);
            if P::GENERATES {
                self.unmoved += 1;
            }
            for &e in &self.parents {
                if self.range.contains(&(e >> 1)) {
                    crate::mem::prefetch(self.word(e >> 1));
                }
            }
            for i in 0..self.parents.len() {
                let (p, same) = (self.parents[i] >> 1, self.parents[i] & 1 == 1);
                // Good news for the parent: a move to a child lost for its
                // mover (who is the parent's opponent), or won for the
                // parent's own mover.
                let good = (v < 0) != same;
                if self.range.contains(&p) {
                    self.apply(p, good);
                } else {
                    self.outboxes[(p / self.shard_len) as usize].push(news(p, good));
                    self.sent += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Awari, Kalah};

    /// The first levels of 2-pit Awari and Kalah (Awari's with cycles) by
    /// propagation equal the sweep build's, with 1 to 16 shards, stacks and
    /// news budgets down to 1 (boards then left untold and found again by
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
            for (shards, stack_cap, messages) in [
                (1, 1 << 16, 1 << 16),
                (1, 1, 1),
                (3, 2, 1),
                (7, 1, 3),
                (16, 1 << 16, 1 << 16),
            ] {
                let limits = Limits {
                    shards,
                    stack_cap,
                    messages,
                };
                let got = build_with::<R>(n, k, &lower, &progress, &stop, limits, &Alone)
                    .unwrap()
                    .gains();
                assert_eq!(got, want, "{} level {k}, {limits:?}", R::NAME);
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
