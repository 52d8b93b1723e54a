//! The shortest winning first turn: an anytime search for a winning
//! opening of the fewest moves.
//!
//! **What it relies on** (see the module doc of [`crate::openings`]): a
//! first turn is a chain of South's moves joined by extra moves, every
//! extra move captures or stores at least one seed, so every chain ends;
//! and whether a turn wins depends only on South's final score. The search
//! sees a game only through [`TurnGame`], so it runs on any board type
//! that can list South's moves: the engine's [`Position`] under any
//! [`Rules`] ([`Engine`]), or Dakon's wide boards ([`Wide`]).
//! [`for_each_winning`] lists every winning turn through the same trait.
//!
//! **Method.** Two phases share one deadline and one stop flag:
//!
//! 1. *Depth-first, anytime.* A depth-first walk over the chains, trying
//!    first the moves that leave South the most seeds captured, remembers
//!    for every board the fewest moves it was reached with and skips a
//!    board met again with as many moves or more. Each winning turn it
//!    finds becomes the best, and from then on only shorter turns are
//!    followed (branch and bound). It stops at its first winning turn, or
//!    after an eighth of the time (when there is a deadline) or
//!    `DFS_FIRST_NODES` positions, or when it has seen every chain: then
//!    its best is proved shortest (or no turn wins), since a board is
//!    skipped only when it was already explored with at least as many
//!    moves left. Without a winning turn yet, *beams* follow: layer by
//!    layer, only the `w` boards of best rank go on, for `w` = 16, 32,
//!    64, ... until one finds a winning turn or an eighth of the time
//!    has passed, the depth-first walk's share included (on large boards the depth-first walk loses itself in
//!    early mistakes; a beam keeps the most promising chains). The rank
//!    of a board is South's captured seeds, plus 4 for each *ready* pit
//!    (its first lap ends in South's store, so the move surely goes on),
//!    minus 1 for each seed on North's row (those come back only by a
//!    relay ending exactly on their pit, and a strong opening leaves at
//!    most `s` seeds uncaptured). Every board of a layer that is *near
//!    the goal* (at most 4 times as many seeds on the board as the
//!    criterion may leave: `4s` for the strong criterion) has its endings
//!    searched exhaustively, depth-first, within `ENDGAME_NODES`
//!    positions; a board whose endings were all seen without a win is
//!    remembered as lost for the later beams. The beams only find
//!    openings, they prove nothing. (Measured on `dakon:15x15` to
//!    `dakon:24x24`, strong, against the rank of captured seeds plus 2 a
//!    pit holding exactly its distance to the store: the penalty for
//!    North's seeds brings the beams from about 775 to 1,126 of the 1,128
//!    seeds needed on `dakon:24x24`, and the exhaustive endings turn such
//!    near misses into openings on `dakon:17x17` and `dakon:19x19`.)
//!    Still without a winning turn, *sweeps* take the rest of the time
//!    (widths 16, 32, ..., each followed by the local search below, while their waiting boards fit in
//!    `SWEEP_BYTES`): every move that keeps the turn stores at least one
//!    seed, so the boards can be taken level by level of South's captured
//!    seeds, each level once, and of each level only the `w` distinct
//!    boards of best rank (ready pits and North's seeds, as above) are
//!    expanded, whatever the number of moves that led to them; a beam
//!    instead compares boards of the same number of moves, whose captured
//!    seeds differ widely. Near-goal boards get the same exhaustive
//!    endings. Like the beams, a sweep only finds openings: a turn it
//!    prints is a path of moves it played from the root, each but the
//!    last keeping the turn, the last ending it with the needed score.
//!    (Measured on an idle machine, 60 s, `dakon:21x21` strong: the beams
//!    alone came within 3 seeds of the 861 needed, sweeps alone within 1;
//!    on `dakon:24x24` both within 5; on `dakon:32x32` the search with
//!    the sweeps came within 68 seeds of the 2,016 needed with 10 to 20 %
//!    of a core, the search without them within 195 on the idle machine.
//!    They replace, for the boards where
//!    no turn was found, the breadth-first layers of phase 2, which never
//!    end in time from `dakon:15x15` on; without a deadline phase 2 still
//!    follows.) [`Found::closest`] reports how close the search came.
//!
//!    *Local search from the best near miss* (`Search::restarts`). The
//!    sweeps and their endings remember the best turn they saw end short
//!    of the goal, with its moves. From the board `k` moves before its
//!    end, for `k` = 2, 4, 8, ..., a sweep runs again with the moves
//!    before the cut as a fixed prefix: it has few levels left, so it can
//!    be wide (`RESTART_BUDGET` times the boards of the main sweep,
//!    spread over the levels left), and it searches no endings (its width
//!    covers them). Each of these sweeps adds a pseudo-random 0 to
//!    `RESTART_NOISE - 1` to the rank, drawn anew per sweep, and a near
//!    miss as good as the best replaces it (a walk on the plateau): two
//!    sweeps from the same cut keep different boards. A better near miss
//!    restarts the cuts from 2; a pass of cuts without one doubles the
//!    budget (up to `RESTART_DOUBLINGS` times, then the next main sweep).
//!    A turn it finds is the prefix and the sweep's path, every move
//!    played from the root. (Measured with 60 s a board, strong, two
//!    searches at a time on the shared 2-core machine, niced: the sweeps
//!    alone came within 3 seeds on `dakon:21x21` (858 of 861) and 2 on
//!    `dakon:24x24`; the cuts without noise found openings of
//!    `dakon:21x21` in 13.6 s and `dakon:24x24` in 17.8 s, came within
//!    1 seed on `dakon:28x28` (stuck there from 12 s on: the same cut
//!    swept again keeps the same boards) and 39 on `dakon:32x32`; with
//!    the noise, the plateau and the doubling, `dakon:28x28` in 23.7 s
//!    and `dakon:26x26` in 46.6 s, and `dakon:32x32` within 16 to 31
//!    seeds. Tried without gain on `dakon:21x21`: the exhaustive endings
//!    ordered by rank, or with 50,000 positions instead of 5,000 (853 to
//!    858). The beams, which used to run until two thirds of the time,
//!    now stop at an eighth: on boards of 21 pits and more they never
//!    found an opening, and their time went to the local search: with
//!    beams until a quarter, `dakon:21x21` took 24.3 s and `dakon:28x28`
//!    came within 27. Without beams at all, `dakon:15x15`, `17x17`,
//!    `19x19` and `20x20` (30 s) were found in 6.0, 4.5, 5.1 and 14.2 s,
//!    but the sweeps' openings are long: 221 moves on `dakon:15x15`,
//!    against 80 from the beams. In `data/dakon-openings.md`, one search
//!    at a time: openings of 21 to 27 and 30 pits in 12.1 to 33.3 s, 420
//!    to 907 moves; 28, 29, 31 and 32 short by 1, 4, 1 and 11 seeds.)
//!
//!    *Nested searches beside the local search* (`Search::restarts_pair`,
//!    `Search::nest_loop`). With two cores or more, the second thread
//!    does not run the local search again: it takes the best near miss
//!    (the local search publishes each one as it finds it), cuts it
//!    `k` moves before its end (`NESTED_CUTS`: 128, 256, 192, 96, 320,
//!    64, round after round) and searches the board there afresh with
//!    the whole of phase 1 (its own depth-first walk, beams with
//!    exhaustive endings, sweeps and local search, on that thread only)
//!    for a tenth of the time (twice as long in each further round from
//!    the same near miss: the same board searched again for as long finds
//!    much the same). A winning turn found there, after the moves to the
//!    cut, wins from the root; a better near miss becomes the next one
//!    cut. From a board a few hundred moves before the end, with a
//!    hundred to three hundred seeds left, the beams and sweeps see
//!    turns the local search's narrow cuts do not: from `dakon:29x29`'s
//!    near miss of 1,652 (one seed short), every turn of the last 40
//!    moves was proved short (469,382 boards, 1.1 s), but the whole
//!    search from 128 moves before the end found a win in 5.2 s and from
//!    80 before in 14.1 s (none within 30 s from 70 or 100 before). Until
//!    stop 42 the second thread ran a second local search with other
//!    salts (measured then: it did not pay on `dakon:28x28` and
//!    `dakon:31x31`); with the nested searches instead, 60 s, strong,
//!    one board at a time on the idle machine, `dakon:24x24`,
//!    `29x29`, `30x30` and `31x31` were found in 16.1, 27.3, 55.6 and
//!    48.2 s, `dakon:32x32` came within 4 seeds (2,012 of 2,016), where
//!    the second local search found 30 and 31 only. (Cutting the local
//!    search off at a third of the time and nesting after it, instead of
//!    beside it: 24, 29 and 31 found, 30 lost.)
//!
//!    *North's seeds weigh double in the sweeps* (`SWEEP_AWAY` 2, the
//!    beams keep `BEAM_AWAY` 1). Measured, 60 s, strong, one search at a
//!    time on the idle 2-core machine, boards 21 to 32: with weight 1,
//!    openings of 21 to 27 and 30; with 2 in the sweeps, of 21 to 23, 25
//!    to 28, 30 and 31 (ten of twelve; `dakon:24x24` lost, 1,127 of
//!    1,128); 29 and 32 short either way. Tried on 28, 29, 31, 32 (one
//!    search a core, `taskset`, or one at a time): weight 3 (an opening of
//!    32 in 35.5 s in one run, none with other salts), noise 8 or 16 with
//!    either weight (28 once with 16, else none), ready pits worth 8 with
//!    weight 2, other salts: none found 29. The pair's second local
//!    search ranking with weight 1 while the first ranks with 2 (a
//!    portfolio), all twelve boards: 21 to 28 and 30 (24 in 27.5 s, 31
//!    lost), nine. The local search is a random walk on a plateau: which
//!    boards it finds depends on the salts as much as on the weights.
//! 2. *Breadth-first, exact.* Layer `k` holds the distinct boards reached
//!    by `k` extra moves. The first layer with a winning move gives a
//!    shortest turn; when the layers reach the best length of phase 1
//!    without a win, that best is proved. A board met in an earlier layer
//!    is not kept again: the same board with South to move has the same
//!    continuations, and reaching it later only makes them longer. If the
//!    layers outgrow `max_boards`, the branch and bound of phase 1 goes
//!    on from the best found until the deadline.
//!
//! A board is keyed by the whole position (pits and captured seeds), so no
//! two different positions are ever merged. Memory: phase 1 keeps one
//! entry per board it reaches, up to `max_boards` (boards reached beyond
//! that are not remembered: met again, they are searched again, so the
//! proof stands), phase 2 one per board of its layers; when phase 2 passes
//! `max_boards`, it stops (the result is then not proved).
//!
//! **Deadline.** Every phase, the exhaustive endings included, looks at
//! the clock and the stop flag every `CHECK_EVERY` positions expanded
//! (a position of the endings on the wide boards can take a
//! millisecond), and the endings run by the beams stop at the beams'
//! eighth of the time. The boards remembered (by the depth-first walks,
//! the endings and phase 2) are kept in `SHARDS` hash maps, not one: a map
//! grows by rehashing all it holds at once, which for 7 million wide
//! boards took 6.5 s, past the deadline; a shard grows alone.

use super::{Count, Wins};
use crate::games::{Move, MoveList, Rules};
use crate::position::{Position, MAX_PITS};
use crate::side::Side;
use crate::wide::{WideDakon, WidePosition};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the shortest search needs of a game: South's moves and where a
/// turn ends.
pub trait TurnGame {
    /// A position (sent to the local search's second thread).
    type Board: Clone + Send + Sync;
    /// What identifies a position (the whole of it: two positions with the
    /// same key must be equal).
    type Key: Eq + Hash + Send;
    /// The key of `b`.
    fn key(b: &Self::Board) -> Self::Key;
    /// South's legal moves in `b` (South to move, game not over) with the
    /// positions they lead to, written to `out` (cleared first).
    fn moves(b: &Self::Board, out: &mut Vec<(Move, Self::Board)>);
    /// After a move of South's first turn: `None` when South moves again
    /// and has a move, else South's final score for the turn (its captured
    /// seeds, or its final score when the game is over).
    fn turn_over(b: &Self::Board) -> Option<u32>;
    /// South's captured seeds in `b` (the move order tries the best first).
    fn south_captured(b: &Self::Board) -> u32;
    /// South's pits whose first lap ends in South's store, on a ring of
    /// `2n + 1` places (own pits, own store, the other row): pit `k` of `n`
    /// holding `n - k + 1` seeds, or that plus a multiple of `2n + 1`.
    /// In a game that sows into stores such a move gives another move
    /// (without relays when it holds exactly `n - k + 1`). Only a guide
    /// for the beams.
    fn ready(b: &Self::Board) -> u32;
    /// Seeds on North's row. Only a guide for the beams.
    fn away(b: &Self::Board) -> u32;
    /// Seeds on the board (both rows).
    fn on_board(b: &Self::Board) -> u32;
}

/// The pits of South's `row` (pit 1 first) whose first lap ends in the
/// store at the row's end (see [`TurnGame::ready`]).
fn ready_pits(row: impl ExactSizeIterator<Item = u32>) -> u32 {
    let n = row.len() as u32;
    let ring = 2 * n + 1;
    row.enumerate()
        .filter(|&(k, c)| c > 0 && (k as u32 + c) % ring == n)
        .count() as u32
}

/// The engine's positions under the rules `R`.
#[derive(Debug)]
pub struct Engine<R>(std::marker::PhantomData<R>);

impl<R: Rules> TurnGame for Engine<R> {
    type Board = Position;
    type Key = [u8; MAX_PITS + 2];

    fn key(b: &Position) -> Self::Key {
        super::explorer::key(b)
    }

    fn moves(b: &Position, out: &mut Vec<(Move, Position)>) {
        let mut moves = MoveList::new();
        out.clear();
        if R::generate(b, &mut moves).is_none() {
            out.extend(moves);
        }
    }

    fn turn_over(b: &Position) -> Option<u32> {
        let score = R::outcome(b);
        if b.to_move() != Side::South || score.is_some() {
            return Some(u32::from(
                score.map_or(b.captured(Side::South), |s| s[Side::South]),
            ));
        }
        None
    }

    fn south_captured(b: &Position) -> u32 {
        u32::from(b.captured(Side::South))
    }

    fn ready(b: &Position) -> u32 {
        ready_pits(b.row(Side::South).iter().map(|&c| u32::from(c)))
    }

    fn away(b: &Position) -> u32 {
        b.row_seeds(Side::North) as u32
    }

    fn on_board(b: &Position) -> u32 {
        b.board_seeds() as u32
    }
}

/// Dakon on the wide boards of [`crate::wide`].
#[derive(Debug)]
pub struct Wide;

impl TurnGame for Wide {
    type Board = WidePosition;
    type Key = WidePosition;

    fn key(b: &WidePosition) -> WidePosition {
        *b
    }

    fn moves(b: &WidePosition, out: &mut Vec<(Move, WidePosition)>) {
        // A finished game leaves `out` empty.
        let _ = WideDakon::moves_into(b, out);
    }

    fn turn_over(b: &WidePosition) -> Option<u32> {
        let score = WideDakon::outcome(b);
        if b.to_move() != Side::South || score.is_some() {
            return Some(score.map_or(b.captured(Side::South), |s| s[Side::South]));
        }
        None
    }

    fn south_captured(b: &WidePosition) -> u32 {
        b.captured(Side::South)
    }

    fn ready(b: &WidePosition) -> u32 {
        ready_pits(b.row(Side::South).iter().map(|&c| u32::from(c)))
    }

    fn away(b: &WidePosition) -> u32 {
        b.row(Side::North).iter().map(|&c| u32::from(c)).sum()
    }

    fn on_board(b: &WidePosition) -> u32 {
        b.board_seeds()
    }
}

/// Calls `visit(moves, position after)` for every first turn from `root`
/// (South to move, game not over) whose final score for South is at least
/// `need`, in increasing order of the move sequences, and returns how many
/// first turns there are and the winning ones: the listing of
/// [`super::Explorer::for_each_winning`] for any [`TurnGame`] (one walk,
/// no memo: for boards whose turns can be listed at all).
pub fn for_each_winning<G: TurnGame>(
    root: &G::Board,
    need: u32,
    visit: &mut dyn FnMut(&[Move], &G::Board),
) -> (Count, Wins) {
    fn walk<G: TurnGame>(
        b: &G::Board,
        need: u32,
        path: &mut Vec<Move>,
        out: &mut (Count, Wins),
        visit: &mut dyn FnMut(&[Move], &G::Board),
    ) {
        let mut moves = Vec::new();
        G::moves(b, &mut moves);
        for (m, c) in moves {
            path.push(m);
            match G::turn_over(&c) {
                None => walk::<G>(&c, need, path, out, visit),
                Some(score) => {
                    out.0.add(&Count::from(1));
                    if score >= need {
                        out.1.one(path.len() as u32);
                        visit(path, &c);
                    }
                }
            }
            path.pop();
        }
    }
    let mut out = (Count::from(0), Wins::default());
    if G::turn_over(root).is_none() {
        walk::<G>(root, need, &mut Vec::new(), &mut out, visit);
    }
    out
}

/// Positions the first depth-first walk expands before the beams take
/// over (when it has found no winning turn).
const DFS_FIRST_NODES: u64 = 2_000_000;

/// What a ready pit (see [`TurnGame::ready`]) is worth to the beams, in
/// seeds captured.
const BEAM_READY: i64 = 4;

/// What a seed on North's row costs the beams, in seeds captured.
const BEAM_AWAY: i64 = 1;

/// What a seed on North's row costs the sweeps and the local search, in
/// seeds captured (module doc: twice the beams' weight found strong
/// openings of `dakon:28x28` and `dakon:31x31` within 60 s).
const SWEEP_AWAY: i64 = 2;

/// A board is near the goal when it holds at most this many times the
/// seeds the criterion may leave uncaptured (`2ns - need`): `4s` seeds
/// for the strong criterion.
const ENDGAME_SLACK: u32 = 4;

/// Positions one exhaustive endgame search may expand.
const ENDGAME_NODES: u64 = 5_000;

/// What the local search ([`Search::restarts`]) may expand per sweep
/// of the main loop, in boards: this many times the sweep's own (its width
/// times the levels of captured seeds).
const RESTART_BUDGET: usize = 4;

/// How many times the local search doubles its budget when a whole pass
/// of cuts found nothing better (only without a deadline does it come to
/// that many: with one, the clock stops it first).
const RESTART_DOUBLINGS: u32 = 16;

/// The noise of the local search's rank: a board's rank gains a
/// pseudo-random 0 to `RESTART_NOISE - 1` (in seeds captured), drawn
/// anew for each sweep, so two sweeps from the same board keep different
/// boards among those of (nearly) equal rank.
const RESTART_NOISE: u64 = 3;

/// The nested searches beside the local search ([`Search::nest_loop`])
/// cut the near miss this many moves before its end, in this order,
/// round after round. (Measured, 60 s, strong, one board at a time on
/// the idle 2-core machine, in trial versions that repeated each round
/// with the same time: with cuts 128, 256, 64, 192, 96 and 8 s searches
/// `dakon:24x24`, `29x29` and `31x31` found, `30x30` not; with these and
/// 6 s searches, 24, 29, 30 and 31 found, `32x32` within 4 seeds. As
/// committed, in `data/dakon-openings.md`: every board from 15 to 32
/// found, `dakon:32x32` in two runs of three.)
const NESTED_CUTS: [usize; 6] = [128, 256, 192, 96, 320, 64];

/// A nested search gets this share of the whole search's time.
const NESTED_SLICES: u32 = 10;

/// A nested search's time when the whole search has no deadline.
const NESTED_SLICE_UNTIMED: Duration = Duration::from_secs(6);

/// The best near miss the local search has published: its moves from
/// the root and its score ([`Search::restarts_pair`]).
type NearSlot = std::sync::Mutex<Option<(Vec<Move>, u32)>>;

/// Nodes between two looks at the clock and the stop flag. A node of the
/// exhaustive endings on the wide boards can take a millisecond (a move
/// relays its seeds round the board lap after lap): 1,024 nodes between
/// looks let the endings run a second or more past the deadline, 16 cost
/// one reading of the clock (some 25 ns) per 16 expansions.
const CHECK_EVERY: u64 = 16;

/// Widest beam tried.
const MAX_BEAM: usize = 1 << 18;

/// Most bytes the waiting boards of a sweep may take (see
/// [`Search::max_sweep`]).
const SWEEP_BYTES: usize = 1 << 30;

/// How to search.
#[derive(Clone, Debug)]
pub struct Options {
    /// South's final score that wins.
    pub need: u32,
    /// Stop after this long (`None`: when the search ends).
    pub time: Option<Duration>,
    /// Most boards phase 2 may keep before it gives up, and most boards
    /// the depth-first walks remember.
    pub max_boards: usize,
    /// Stop at the first winning turn found, whatever its length (by
    /// setting [`Progress::stop`]).
    pub first_only: bool,
}

/// Live counters, readable while the search runs (for a progress display)
/// and a flag that stops it.
#[derive(Debug, Default)]
pub struct Progress {
    /// Positions expanded.
    pub nodes: AtomicU64,
    /// Moves of the best winning turn found so far (0: none yet).
    pub best: AtomicU64,
    /// Turns of fewer moves than this are known not to win (phase 2's
    /// layers done, plus one).
    pub lower: AtomicU64,
    /// Set to stop the search: it returns what it has found.
    pub stop: AtomicBool,
}

/// A winning first turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening<B> {
    /// South's moves.
    pub moves: Vec<Move>,
    /// The position after them.
    pub after: B,
    /// South's final score for the turn.
    pub score: u32,
}

/// What the search found.
#[derive(Clone, Debug)]
pub struct Found<B> {
    /// The shortest winning turn found (`None`: none found).
    pub best: Option<Opening<B>>,
    /// Whether it is proved: no shorter turn wins (with `best` `None`: no
    /// turn wins).
    pub proved: bool,
    /// Every turn of fewer moves than this is known not to win.
    pub lower: u32,
    /// Positions expanded.
    pub nodes: u64,
    /// Seconds the search took.
    pub seconds: f64,
    /// Seconds until the first winning turn was found (`None`: none).
    pub first: Option<f64>,
    /// South's best final score among the turns the search saw end, the
    /// winning ones included: how close it came when it found none.
    pub closest: u32,
}

impl<B> Found<B> {
    /// The same result with the position after the opening mapped by `f`
    /// (e.g. to its notation).
    pub fn map<C>(self, f: impl FnOnce(&B) -> C) -> Found<C> {
        Found {
            best: self.best.map(|o| Opening {
                after: f(&o.after),
                moves: o.moves,
                score: o.score,
            }),
            proved: self.proved,
            lower: self.lower,
            nodes: self.nodes,
            seconds: self.seconds,
            first: self.first,
            closest: self.closest,
        }
    }
}

/// Shards of a [`Shards`] table.
const SHARDS: usize = 64;

/// The hash of a key that picks its shard (FxHash's mixing: a multiply
/// per 8 bytes, far cheaper than the shard's own hash of the key).
#[derive(Default)]
struct ShardHasher(u64);

impl ShardHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for ShardHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.add(u64::from_le_bytes(w.try_into().expect("8 bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut w = [0; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A hash map of the boards a search remembers, cut into [`SHARDS`] maps
/// by a hash of the key: a map grows by rehashing all of its entries at
/// once, and one map of 7 million wide boards took 6.5 s to grow, past
/// the deadline (`dakon:22x22` strong, `--stop-after 60`: 68.8 s); a
/// shard holds a [`SHARDS`]th of the boards, so growing it takes a
/// [`SHARDS`]th of that. Only lookups and insertions: its order is never
/// seen, so the search does what one map would.
struct Shards<K, V> {
    maps: Vec<HashMap<K, V>>,
    len: usize,
}

impl<K: Eq + Hash, V> Shards<K, V> {
    fn new() -> Self {
        Shards {
            maps: (0..SHARDS).map(|_| HashMap::new()).collect(),
            len: 0,
        }
    }

    fn shard(&mut self, key: &K) -> &mut HashMap<K, V> {
        let h = BuildHasherDefault::<ShardHasher>::default().hash_one(key);
        // By the high bits: the multiply mixes every word into them.
        &mut self.maps[((u128::from(h) * SHARDS as u128) >> 64) as usize]
    }

    /// Entries held.
    fn len(&self) -> usize {
        self.len
    }

    fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        self.shard(key).get_mut(key)
    }

    fn contains(&mut self, key: &K) -> bool {
        self.shard(key).contains_key(key)
    }

    /// Inserts `key` (with `value`); true when it was not there.
    fn insert(&mut self, key: K, value: V) -> bool {
        let new = self.shard(&key).insert(key, value).is_none();
        self.len += usize::from(new);
        new
    }
}

/// The boards the exhaustive endings proved lost (see [`Search::endgame`]).
type Lost<K> = Shards<K, ()>;

/// The search's shared state.
struct Search<'a, G: TurnGame> {
    options: &'a Options,
    progress: &'a Progress,
    start: Instant,
    best: Option<Opening<G::Board>>,
    first: Option<f64>,
    stopped: bool,
    closest: u32,
    /// Moves from the root of the whole search to the root of the running
    /// sweep (empty but in [`Self::restarts`]).
    prefix: Vec<Move>,
    /// Moves from the running sweep's root to the root of the running
    /// endings ([`Self::endgame`]), then the endings' own moves so far.
    tail_path: Option<Vec<Move>>,
    /// The best turn that ended without winning, seen by the sweeps and
    /// their endings: its moves from the root and its score.
    near: Option<(Vec<Move>, u32)>,
    /// Whether the sweeps search the endings of near-goal boards (not in
    /// the local search: it sweeps them wide instead).
    endings: bool,
    /// Salt of the noise added to the sweeps' rank (0: none).
    salt: u64,
    /// Whether a near miss as good as [`Self::near`] replaces it.
    plateau: bool,
    /// Set when the other local search of a pair found a winning turn
    /// ([`Self::restarts_pair`]): this one stops.
    halt: Option<Arc<AtomicBool>>,
    /// A final score South is sure of at a turn's end, where the caller
    /// knows one ([`shortest_judged`]).
    judge: Option<Judge<'a, G::Board>>,
    /// The stop flag of the search this one is nested in
    /// ([`Self::nest_loop`]): set, this one stops too. A nested search
    /// runs on one thread (the other is the local search's).
    outer: Option<&'a AtomicBool>,
    /// Where the local search publishes its near misses for the nested
    /// searches running beside it.
    share: Option<Arc<NearSlot>>,
}

impl<'a, G: TurnGame> Search<'a, G> {
    /// A search that starts now, with nothing found yet.
    fn new(options: &'a Options, progress: &'a Progress) -> Self {
        Search {
            options,
            progress,
            start: Instant::now(),
            best: None,
            first: None,
            stopped: false,
            closest: 0,
            prefix: Vec::new(),
            tail_path: None,
            near: None,
            endings: true,
            salt: 0,
            plateau: false,
            halt: None,
            judge: None,
            outer: None,
            share: None,
        }
    }
}

impl<G: TurnGame> Search<'_, G> {
    /// Counts a node, and every [`CHECK_EVERY`] nodes checks the deadline
    /// and the stop flag; true when the search must stop.
    fn tick(&mut self) -> bool {
        let n = self.progress.nodes.fetch_add(1, Ordering::Relaxed);
        if n.is_multiple_of(CHECK_EVERY) {
            let late = self.options.time.is_some_and(|t| self.start.elapsed() >= t);
            if late
                || self.progress.stop.load(Ordering::Relaxed)
                || self
                    .halt
                    .as_ref()
                    .is_some_and(|h| h.load(Ordering::Relaxed))
                || self.outer.is_some_and(|o| o.load(Ordering::Relaxed))
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Whether `until` (a phase's own limit) has passed.
    fn late(&self, until: Option<Duration>) -> bool {
        until.is_some_and(|t| self.start.elapsed() >= t)
    }

    /// [`TurnGame::turn_over`], with the judge's score where it knows
    /// better (South's final score is never less than its captured seeds).
    fn turn_over(&self, b: &G::Board) -> Option<u32> {
        let score = G::turn_over(b)?;
        Some(
            self.judge
                .and_then(|j| j(b))
                .map_or(score, |s| s.max(score)),
        )
    }

    fn best_len(&self) -> usize {
        self.best.as_ref().map_or(usize::MAX, |b| b.moves.len())
    }

    fn record(&mut self, moves: Vec<Move>, after: G::Board, score: u32) {
        let moves = if self.prefix.is_empty() {
            moves
        } else {
            let mut p = self.prefix.clone();
            p.extend(moves);
            p
        };
        self.closest = self.closest.max(score);
        self.first
            .get_or_insert_with(|| self.start.elapsed().as_secs_f64());
        self.progress
            .best
            .store(moves.len() as u64, Ordering::Relaxed);
        self.best = Some(Opening {
            moves,
            after,
            score,
        });
        if self.options.first_only {
            self.progress.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        }
    }

    /// Notes a turn that ended with `score` after the moves `prefix`,
    /// `path` and `last`, when it is the best non-winning one yet.
    fn near_miss(&mut self, path: &[Move], last: Move, score: u32) {
        self.closest = self.closest.max(score);
        if self
            .near
            .as_ref()
            .is_none_or(|n| score > n.1 || (self.plateau && score == n.1))
        {
            let mut p = self.prefix.clone();
            p.extend_from_slice(path);
            p.push(last);
            if let Some(slot) = &self.share {
                let mut g = slot.lock().expect("near-miss slot");
                if g.as_ref().is_none_or(|n| score > n.1) {
                    *g = Some((p.clone(), score));
                }
            }
            self.near = Some((p, score));
        }
    }

    /// Phase 1; true when it explored every chain (its best is proved).
    fn depth_first(
        &mut self,
        root: &G::Board,
        until: Option<Duration>,
        first_only: bool,
        max_nodes: u64,
    ) -> bool {
        let nodes_at_start = self.progress.nodes.load(Ordering::Relaxed);
        struct Frame<B> {
            children: Vec<(Move, B)>,
        }
        let mut seen: Shards<G::Key, usize> = Shards::new();
        seen.insert(G::key(root), 0);
        let mut path: Vec<Move> = Vec::new();
        let mut stack: Vec<Frame<G::Board>> = Vec::new();
        let mut moves = Vec::new();
        // Expands `b` at `depth` moves: records wins, returns the chains to
        // follow, best last (the stack pops from the end).
        let expand = |s: &mut Self,
                      b: &G::Board,
                      path: &[Move],
                      seen: &mut Shards<G::Key, usize>,
                      moves: &mut Vec<(Move, G::Board)>| {
            G::moves(b, moves);
            let depth = path.len();
            let mut next = Vec::new();
            for (m, c) in moves.drain(..) {
                match s.turn_over(&c) {
                    Some(score) => {
                        s.closest = s.closest.max(score);
                        if score >= s.options.need && depth + 1 < s.best_len() {
                            let mut p = path.to_vec();
                            p.push(m);
                            s.record(p, c, score);
                        }
                    }
                    None => {
                        // A continuation needs at least one more move.
                        if depth + 2 >= s.best_len() {
                            continue;
                        }
                        let key = G::key(&c);
                        if let Some(d) = seen.get_mut(&key) {
                            if *d <= depth + 1 {
                                continue;
                            }
                            *d = depth + 1;
                        } else if seen.len() < s.options.max_boards {
                            seen.insert(key, depth + 1);
                        }
                        next.push((m, c));
                    }
                }
            }
            next.sort_by_key(|(m, c)| (G::south_captured(c), *m));
            next
        };
        let first = expand(self, root, &path, &mut seen, &mut moves);
        stack.push(Frame { children: first });
        while let Some(top) = stack.last_mut() {
            let Some((m, c)) = top.children.pop() else {
                stack.pop();
                path.pop();
                continue;
            };
            if self.tick() || self.late(until) {
                return false;
            }
            if first_only
                && (self.best.is_some()
                    || self.progress.nodes.load(Ordering::Relaxed) - nodes_at_start >= max_nodes)
            {
                return false;
            }
            // Boards met again with fewer moves since they were queued.
            if path.len() + 2 >= self.best_len() {
                continue;
            }
            path.push(m);
            let children = expand(self, &c, &path, &mut seen, &mut moves);
            stack.push(Frame { children });
        }
        true
    }

    /// Beam search of width `width`: layer by layer, only the `width`
    /// boards of best rank go on (distinct boards; ties broken by the move
    /// order). The rank is South's captured seeds, plus [`BEAM_READY`] a
    /// ready pit, minus [`BEAM_AWAY`] a seed on North's row (a winning
    /// turn must bring nearly every seed round to South's store; seeds on
    /// North's row come back only by a relay that ends on their pit).
    /// The boards of each layer that are near the goal are searched
    /// exhaustively ([`Self::endgame`]; the boards it
    /// proves lost are kept in `lost` across beams). Records every
    /// improvement it meets; true when it found a winning turn.
    fn beam(
        &mut self,
        root: &G::Board,
        width: usize,
        until: Option<Duration>,
        lost: &mut Lost<G::Key>,
    ) -> bool {
        let mut layers: Vec<Vec<(u32, Move)>> = Vec::new();
        let mut layer: Vec<G::Board> = vec![root.clone()];
        let mut moves = Vec::new();
        let mut found = false;
        let total = G::south_captured(root) + G::on_board(root);
        let near = ENDGAME_SLACK.saturating_mul(total.saturating_sub(self.options.need));
        while !layer.is_empty() && layers.len() + 1 < self.best_len() {
            let mut seen: HashSet<G::Key> = HashSet::new();
            let mut next: Vec<(i64, u32, Move, G::Board)> = Vec::new();
            for (i, b) in layer.iter().enumerate() {
                if self.tick() || self.late(until) {
                    return found;
                }
                G::moves(b, &mut moves);
                for (m, c) in moves.drain(..) {
                    match self.turn_over(&c) {
                        Some(score) if score >= self.options.need => {
                            if layers.len() + 1 < self.best_len() {
                                let mut p = Self::path(&layers, i);
                                p.push(m);
                                self.record(p, c, score);
                                found = true;
                            }
                        }
                        Some(score) => self.closest = self.closest.max(score),
                        None => {
                            if seen.insert(G::key(&c)) {
                                let rank =
                                    i64::from(G::south_captured(&c)) + Self::lead(&c, BEAM_AWAY);
                                next.push((rank, i as u32, m, c));
                            }
                        }
                    }
                }
            }
            next.sort_by_key(|a| std::cmp::Reverse(a.0));
            next.truncate(width);
            layers.push(next.iter().map(|(_, i, m, _)| (*i, *m)).collect());
            layer = next.into_iter().map(|(_, _, _, c)| c).collect();
            if found {
                continue;
            }
            for (i, b) in layer.iter().enumerate() {
                if G::on_board(b) > near || self.late(until) {
                    continue;
                }
                let mut tail = Vec::new();
                let mut budget = ENDGAME_NODES;
                if let Some(Some((after, score))) =
                    self.endgame(b, &mut tail, &mut budget, until, lost)
                {
                    let mut p = Self::path(&layers, i);
                    tail.reverse();
                    p.extend(tail);
                    if p.len() < self.best_len() {
                        self.record(p, after, score);
                        found = true;
                    }
                    break;
                }
            }
        }
        found
    }

    /// The rank of a board beyond its captured seeds: [`BEAM_READY`] a
    /// ready pit, minus `away` a seed on North's row ([`BEAM_AWAY`] for
    /// the beams, [`SWEEP_AWAY`] for the sweeps).
    fn lead(b: &G::Board, away: i64) -> i64 {
        BEAM_READY * i64::from(G::ready(b)) - away * i64::from(G::away(b))
    }

    /// The board after `moves` played from `root` (`None`: one of them
    /// is not a legal move there).
    fn replay(root: &G::Board, moves: &[Move]) -> Option<G::Board> {
        let mut children = Vec::new();
        let mut b = root.clone();
        for &m in moves {
            G::moves(&b, &mut children);
            b = children.drain(..).find(|(x, _)| *x == m)?.1;
        }
        Some(b)
    }

    /// The widest sweep whose levels fit in [`SWEEP_BYTES`] from `root`.
    fn max_sweep(root: &G::Board) -> usize {
        let levels = G::on_board(root) as usize + 1;
        let entry = std::mem::size_of::<(i64, u32, Move, u32, G::Board)>();
        (SWEEP_BYTES / (levels * 2 * entry)).max(1)
    }

    /// Sweep of width `width` over the levels of South's captured seeds:
    /// every move that keeps the turn stores at least one seed, so a
    /// board's children all lie on higher levels, and the levels can be
    /// taken in increasing order, each once. Of each level only the
    /// `width` distinct boards of best [`Self::lead`] are expanded (the
    /// boards of a level have captured the same seeds, whatever the number
    /// of moves that led there); a level holds at most `2 * width`
    /// waiting boards (those of worst lead dropped when it reaches `4 *
    /// width`). Boards near the goal have their endings searched
    /// exhaustively as in [`Self::beam`]. Records every improvement it
    /// meets; true when it found a winning turn.
    fn sweep(
        &mut self,
        root: &G::Board,
        width: usize,
        until: Option<Duration>,
        lost: &mut Lost<G::Key>,
    ) -> bool {
        let base = G::south_captured(root);
        let total = base + G::on_board(root);
        let near = ENDGAME_SLACK.saturating_mul(total.saturating_sub(self.options.need));
        // A waiting board: its lead, its parent in `tree`, the move from
        // it, its number of moves, the board.
        type Waiting<B> = (i64, u32, Move, u32, B);
        let mut levels: Vec<Vec<Waiting<G::Board>>> =
            (0..=G::on_board(root)).map(|_| Vec::new()).collect();
        // The expanded boards: parent and move (the root first).
        let mut tree: Vec<(u32, Move)> = vec![(0, Move::Pass)];
        let path = |tree: &[(u32, Move)], mut at: u32| {
            let mut p = Vec::new();
            while at != 0 {
                let (parent, mv) = tree[at as usize];
                p.push(mv);
                at = parent;
            }
            p.reverse();
            p
        };
        let mut moves = Vec::new();
        let mut found = false;
        let mut waiting: Vec<Waiting<G::Board>> =
            vec![(0, 0, Move::Pass, self.prefix.len() as u32, root.clone())];
        for level in 0..levels.len() {
            if level > 0 {
                waiting = std::mem::take(&mut levels[level]);
            }
            waiting.sort_by_key(|w| std::cmp::Reverse(w.0));
            let mut seen: HashSet<G::Key> = HashSet::new();
            for (_, parent, m, depth, b) in waiting.drain(..) {
                if seen.len() >= width {
                    break;
                }
                if !seen.insert(G::key(&b)) || depth as usize + 1 >= self.best_len() {
                    continue;
                }
                if self.tick() || self.late(until) {
                    return found;
                }
                let at = if level == 0 {
                    0
                } else {
                    tree.push((parent, m));
                    tree.len() as u32 - 1
                };
                if self.endings && G::on_board(&b) <= near {
                    let mut tail = Vec::new();
                    let mut budget = ENDGAME_NODES;
                    self.tail_path = Some(path(&tree, at));
                    let got = self.endgame(&b, &mut tail, &mut budget, until, lost);
                    self.tail_path = None;
                    if let Some(Some((after, score))) = got {
                        let mut p = path(&tree, at);
                        tail.reverse();
                        p.extend(tail);
                        if self.prefix.len() + p.len() < self.best_len() {
                            self.record(p, after, score);
                            found = true;
                        }
                        continue;
                    }
                }
                G::moves(&b, &mut moves);
                for (m, c) in moves.drain(..) {
                    match self.turn_over(&c) {
                        Some(score) if score >= self.options.need => {
                            if depth as usize + 1 < self.best_len() {
                                let mut p = path(&tree, at);
                                p.push(m);
                                self.record(p, c, score);
                                found = true;
                            }
                        }
                        Some(score) => {
                            if self.near.as_ref().is_none_or(|n| score >= n.1) {
                                self.near_miss(&path(&tree, at), m, score);
                            }
                            self.closest = self.closest.max(score);
                        }
                        None => {
                            let to = &mut levels[(G::south_captured(&c) - base) as usize];
                            let mut lead = Self::lead(&c, SWEEP_AWAY);
                            if self.salt != 0 {
                                let h = BuildHasherDefault::<ShardHasher>::default()
                                    .hash_one((G::key(&c), self.salt));
                                lead += ((h >> 32) % RESTART_NOISE) as i64;
                            }
                            to.push((lead, at, m, depth + 1, c));
                            if to.len() >= 4 * width {
                                to.select_nth_unstable_by_key(2 * width, |w| {
                                    std::cmp::Reverse(w.0)
                                });
                                to.truncate(2 * width);
                            }
                        }
                    }
                }
            }
            if found {
                return true;
            }
        }
        found
    }

    /// Local search from the best near miss ([`Self::near`]): the board
    /// `back` moves before its end, for `back` = 2, 4, 8, ..., is swept
    /// again, wider (its levels are few: `budget` boards expanded in all,
    /// spread over them), with the moves that led there as the prefix;
    /// when a sweep sees a better near miss, the cuts start again from it.
    /// True when it found a winning turn.
    fn restarts(
        &mut self,
        root: &G::Board,
        budget: usize,
        until: Option<Duration>,
        lost: &mut Lost<G::Key>,
    ) -> bool {
        let mut back = 2;
        let mut budget = budget;
        let mut stalls = 0;
        let mut salts: u64 = 0;
        while let Some((near, score)) = self.near.clone() {
            if back > near.len() && stalls < RESTART_DOUBLINGS {
                stalls += 1;
                budget = budget.saturating_mul(2);
                back = 2;
            }
            if back > near.len() || self.stopped || self.late(until) {
                return false;
            }
            let cut = near.len() - back;
            let Some(b) = Self::replay(root, &near[..cut]) else {
                return false;
            };
            let levels = G::on_board(&b) as usize + 1;
            let width = (budget / levels).clamp(16, Self::max_sweep(&b));
            self.prefix = near[..cut].to_vec();
            self.endings = false;
            salts = salts.wrapping_add(0x9e37_79b9_7f4a_7c15);
            self.salt = salts | 1;
            self.plateau = true;
            let won = self.sweep(&b, width, until, lost);
            self.endings = true;
            self.plateau = false;
            self.salt = 0;
            self.prefix.clear();
            if won {
                return true;
            }
            if self.near.as_ref().is_some_and(|n| n.1 > score) {
                back = 2;
            } else {
                back *= 2;
            }
        }
        false
    }

    /// The local search ([`Self::restarts`]) and, on a second thread,
    /// nested searches from its near misses ([`Self::nest_loop`]), which
    /// it publishes as it finds them; the first to find a winning turn
    /// stops the other, and the nested searches stop when the local
    /// search does. The state of both is merged: the shorter winning
    /// turn, the better near miss, the best score. With one core, or
    /// `pair` false, the local search alone. True when one found a
    /// winning turn.
    fn restarts_pair(
        &mut self,
        root: &G::Board,
        budget: usize,
        until: Option<Duration>,
        lost: &mut Lost<G::Key>,
        pair: bool,
    ) -> bool {
        if !pair {
            return self.restarts(root, budget, until, lost);
        }
        let halt = Arc::new(AtomicBool::new(false));
        // A fresh search that knows what this one found, on this one's
        // clock, stopped by the pair's flag.
        let mut other = Search::<G> {
            start: self.start,
            best: self.best.clone(),
            first: self.first,
            stopped: self.stopped,
            closest: self.closest,
            near: self.near.clone(),
            halt: Some(halt.clone()),
            judge: self.judge,
            ..Search::new(self.options, self.progress)
        };
        let own_halt = self.halt.replace(halt.clone());
        let slot: Arc<NearSlot> = Arc::new(std::sync::Mutex::new(self.near.clone()));
        self.share = Some(slot.clone());
        let slice = self
            .options
            .time
            .map_or(NESTED_SLICE_UNTIMED, |t| t / NESTED_SLICES);
        let (won, other_won) = std::thread::scope(|scope| {
            let h = halt.clone();
            let o = &mut other;
            let t = scope.spawn(move || {
                let won = o.nest_loop(root, until, slice, &slot);
                if won {
                    h.store(true, Ordering::Relaxed);
                }
                won
            });
            let won = self.restarts(root, budget, until, lost);
            // Won or spent: the nested searches stop too.
            halt.store(true, Ordering::Relaxed);
            (won, t.join().expect("nested search thread"))
        });
        self.halt = own_halt;
        self.share = None;
        if other_won && (!won || other.best_len() < self.best_len()) {
            self.best = other.best.take();
        }
        self.first = match (self.first, other.first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.closest = self.closest.max(other.closest);
        if other
            .near
            .as_ref()
            .is_some_and(|o| self.near.as_ref().is_none_or(|n| o.1 > n.1))
        {
            self.near = other.near.take();
        }
        // Stopped by the pair's own flag only: not the whole search.
        self.stopped = self.progress.stop.load(Ordering::Relaxed)
            || self.options.time.is_some_and(|t| self.start.elapsed() >= t);
        won || other_won
    }

    /// Phase 1 (module doc): the depth-first walk, then beams, sweeps and
    /// the local search until a first winning turn or the deadline. True
    /// when the depth-first walk saw every chain (its best is proved).
    fn phase_one(&mut self, root: &G::Board) -> bool {
        // Phase 1: depth-first, then beams of growing width, until a first
        // winning turn (or an eighth, then a third, of the time).
        let proved = self.depth_first(
            root,
            self.options.time.map(|t| t / 8),
            true,
            DFS_FIRST_NODES,
        );
        if !proved && !self.stopped && self.best.is_none() {
            let until = self.options.time.map(|t| t / 8);
            let mut width = 16;
            let mut lost = Lost::new();
            while width <= MAX_BEAM
                && !self.stopped
                && until.is_none_or(|t| self.start.elapsed() < t)
            {
                if self.beam(root, width, until, &mut lost) {
                    break;
                }
                width *= 2;
            }
            // Then sweeps over the captured seeds, until the deadline.
            let pair =
                // A nested search runs on one thread (the local search's
                // other one).
                self.outer.is_none() && std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2);
            let mut width = 16;
            let widest = Search::<G>::max_sweep(root);
            while self.best.is_none()
                && width <= widest
                && !self.stopped
                && self.options.time.is_none_or(|t| self.start.elapsed() < t)
            {
                if self.sweep(root, width, self.options.time, &mut lost) {
                    break;
                }
                // Then the local search from the best near miss, until the
                // deadline (or its budget, doubled 16 times, is spent).
                let levels = G::on_board(root) as usize + 1;
                if self.restarts_pair(
                    root,
                    RESTART_BUDGET * width * levels,
                    self.options.time,
                    &mut lost,
                    pair,
                ) {
                    break;
                }
                width *= 2;
            }
            self.stopped = self.progress.stop.load(Ordering::Relaxed)
                || self.options.time.is_some_and(|t| self.start.elapsed() >= t);
        }
        proved
    }

    /// The whole of phase 1 on `root`, for a nested search: the winning
    /// turn it found, if any.
    fn run(&mut self, root: &G::Board) -> Option<Opening<G::Board>> {
        self.phase_one(root);
        self.best.take()
    }

    /// Nested searches beside the local search (module doc): from the
    /// best near miss, the one `slot` holds (the local search publishes
    /// there) or a better one found here, the board `k` moves before its
    /// end, for each `k` of [`NESTED_CUTS`] in turn, is searched afresh by
    /// the whole of phase 1 ([`Self::run`]: its own depth-first walk,
    /// beams with endings, sweeps and local search, on this thread only)
    /// for `slice` at most, twice that in the next round from the same
    /// near miss, and so on (a new near miss starts again at `slice`). A winning turn it finds, after the moves that
    /// led to its root, is a winning turn of this search (every move
    /// played from the root); a better near miss it sees becomes this
    /// one's. Until a win, `until`, or the halt flag. True when it found
    /// a winning turn.
    fn nest_loop(
        &mut self,
        root: &G::Board,
        until: Option<Duration>,
        slice: Duration,
        slot: &NearSlot,
    ) -> bool {
        // The cuts taken from the current near miss, and the time each
        // gets: a nested search from the same board finds much the same
        // again, so after every cut the next round's searches are longer.
        let mut round = 0;
        let base = slice;
        let mut slice = slice;
        while !self.stopped && !self.late(until) {
            if self
                .halt
                .as_ref()
                .is_some_and(|h| h.load(Ordering::Relaxed))
            {
                return false;
            }
            let published = slot.lock().expect("near-miss slot").clone();
            if let Some((p, score)) = published {
                if self.near.as_ref().is_none_or(|n| score > n.1) {
                    self.near = Some((p, score));
                    (round, slice) = (0, base);
                }
            }
            let Some((near, score)) = self.near.clone() else {
                return false;
            };
            if round == NESTED_CUTS.len() {
                (round, slice) = (0, slice * 2);
            }
            // A cut as deep as the near miss is long cuts it halfway.
            let k = NESTED_CUTS[round].min(near.len() / 2);
            round += 1;
            if k == 0 {
                return false;
            }
            if NESTED_CUTS[..round - 1]
                .iter()
                .any(|&c| c.min(near.len() / 2) == k)
            {
                continue;
            }
            let cut = near.len() - k;
            let Some(b) = Self::replay(root, &near[..cut]) else {
                return false;
            };
            let left = until.map_or(slice, |t| t.saturating_sub(self.start.elapsed()));
            let options = Options {
                time: Some(slice.min(left)),
                first_only: true,
                ..self.options.clone()
            };
            let progress = Progress::default();
            let mut sub = Search::<G>::new(&options, &progress);
            sub.judge = self.judge;
            sub.halt = self.halt.clone();
            sub.outer = Some(&self.progress.stop);
            let found = sub.run(&b);
            self.progress
                .nodes
                .fetch_add(progress.nodes.load(Ordering::Relaxed), Ordering::Relaxed);
            self.closest = self.closest.max(sub.closest);
            if let Some(o) = found {
                let mut p = near[..cut].to_vec();
                p.extend(o.moves);
                if p.len() < self.best_len() {
                    self.record(p, o.after, o.score);
                }
                return true;
            }
            if let Some((p, sub_score)) = sub.near.take() {
                if sub_score > score {
                    let mut full = near[..cut].to_vec();
                    full.extend(p);
                    self.near = Some((full, sub_score));
                    (round, slice) = (0, base);
                }
            }
        }
        false
    }

    /// The moves that lead to board `i` of the last of `layers`.
    fn path(layers: &[Vec<(u32, Move)>], mut at: usize) -> Vec<Move> {
        let mut p = Vec::with_capacity(layers.len() + 1);
        for l in layers.iter().rev() {
            let (parent, mv) = l[at];
            p.push(mv);
            at = parent as usize;
        }
        p.reverse();
        p
    }

    /// Exhaustive search of the turn's endings from `b` (South to move),
    /// depth-first, within `budget` positions: `Some(Some((after,
    /// score)))` when some continuation wins (its moves pushed on `tail`,
    /// last move first), `Some(None)` when none does (then `b` is added to
    /// `lost`, and the boards of `lost` are not searched again), `None`
    /// when the budget ran out, `until` (the calling phase's limit)
    /// passed, or the search must stop.
    #[allow(clippy::type_complexity)]
    fn endgame(
        &mut self,
        b: &G::Board,
        tail: &mut Vec<Move>,
        budget: &mut u64,
        until: Option<Duration>,
        lost: &mut Lost<G::Key>,
    ) -> Option<Option<(G::Board, u32)>> {
        let key = G::key(b);
        if lost.contains(&key) {
            return Some(None);
        }
        if *budget == 0 || self.tick() || (budget.is_multiple_of(CHECK_EVERY) && self.late(until)) {
            return None;
        }
        *budget -= 1;
        let mut moves = Vec::new();
        G::moves(b, &mut moves);
        let mut next = Vec::new();
        for (m, c) in moves {
            match self.turn_over(&c) {
                Some(score) if score >= self.options.need => {
                    tail.push(m);
                    return Some(Some((c, score)));
                }
                Some(score) => {
                    if self.tail_path.is_some() && self.near.as_ref().is_none_or(|n| score >= n.1) {
                        let tp = self.tail_path.take().unwrap_or_default();
                        self.near_miss(&tp, m, score);
                        self.tail_path = Some(tp);
                    }
                    self.closest = self.closest.max(score);
                }
                None => next.push((m, c)),
            }
        }
        let mut complete = true;
        for (m, c) in next {
            if let Some(tp) = &mut self.tail_path {
                tp.push(m);
            }
            let got = self.endgame(&c, tail, budget, until, lost);
            if let Some(tp) = &mut self.tail_path {
                tp.pop();
            }
            match got {
                Some(Some(win)) => {
                    tail.push(m);
                    return Some(Some(win));
                }
                Some(None) => {}
                None => complete = false,
            }
        }
        if complete {
            lost.insert(key, ());
            Some(None)
        } else {
            None
        }
    }

    /// Phase 2; true when it proved its result.
    fn breadth_first(&mut self, root: &G::Board) -> bool {
        // Per layer: the boards, and for each its parent's index in the
        // layer before and the move from it.
        let mut layers: Vec<Vec<(u32, Move)>> = Vec::new();
        let mut layer: Vec<G::Board> = vec![root.clone()];
        let mut seen: Shards<G::Key, ()> = Shards::new();
        seen.insert(G::key(root), ());
        let mut moves = Vec::new();
        let mut depth = 0;
        loop {
            self.progress
                .lower
                .store(depth as u64 + 1, Ordering::Relaxed);
            if depth + 1 >= self.best_len() {
                return true;
            }
            let mut next = Vec::new();
            let mut links = Vec::new();
            for (i, b) in layer.iter().enumerate() {
                if self.tick() || seen.len() > self.options.max_boards {
                    return false;
                }
                G::moves(b, &mut moves);
                for (m, c) in moves.drain(..) {
                    match self.turn_over(&c) {
                        Some(score) if score >= self.options.need => {
                            // The first win of the first layer with one.
                            let mut p = vec![m];
                            let mut at = i;
                            for l in layers.iter().rev() {
                                let (parent, mv) = l[at];
                                p.push(mv);
                                at = parent as usize;
                            }
                            p.reverse();
                            self.record(p, c, score);
                            return true;
                        }
                        Some(_) => {}
                        None => {
                            if seen.insert(G::key(&c), ()) {
                                next.push(c);
                                links.push((i as u32, m));
                            }
                        }
                    }
                }
            }
            if seen.len() > self.options.max_boards {
                return false;
            }
            if next.is_empty() {
                // Every chain ended: nothing (shorter than the best) wins.
                return true;
            }
            layers.push(links);
            layer = next;
            depth += 1;
        }
    }
}

/// What a caller may know of the end of a first turn (a board with North
/// to move, the game not over): a final score South is sure of under
/// perfect play from there, counting the seeds already captured (from
/// databases, say; at most South's exact final score), or `None`. A
/// function of the board alone, as the search's memory of boards
/// requires.
pub type Judge<'a, B> = &'a (dyn Fn(&B) -> Option<u32> + Sync);

/// Searches for a winning first turn of the fewest moves from `root`
/// (South to move, game not over), anytime: see the module doc.
pub fn shortest<G: TurnGame>(
    root: &G::Board,
    options: &Options,
    progress: &Progress,
) -> Found<G::Board> {
    shortest_judged::<G>(root, options, progress, None)
}

/// [`shortest`], with a turn that ends where `judge` knows a final score
/// South is sure of counted at that score (when it is more than the
/// captured seeds) instead of South's captured seeds: `options.need` is then a final score
/// South is sure of, and [`Opening::score`] that score. Every phase
/// works unchanged on the judged scores (they are a function of the
/// board, as the captured seeds are), proofs of the shortest included.
pub fn shortest_judged<G: TurnGame>(
    root: &G::Board,
    options: &Options,
    progress: &Progress,
    judge: Option<Judge<'_, G::Board>>,
) -> Found<G::Board> {
    let mut s = Search::<G>::new(options, progress);
    s.judge = judge;
    let mut proved = s.phase_one(root);
    if !proved && !s.stopped {
        proved = s.breadth_first(root);
        if !proved && !s.stopped {
            // Phase 2 ran out of room: back to branch and bound, improving
            // the best until the deadline (proved if it sees every chain).
            proved = s.depth_first(root, options.time, false, u64::MAX);
        }
    }
    let lower = if proved {
        s.best.as_ref().map_or(u32::MAX, |b| b.moves.len() as u32)
    } else {
        progress.lower.load(Ordering::Relaxed) as u32
    };
    Found {
        best: s.best,
        proved,
        lower,
        nodes: progress.nodes.load(Ordering::Relaxed),
        seconds: s.start.elapsed().as_secs_f64(),
        first: s.first,
        closest: s.closest,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Dakon;

    fn run(n: usize, need: u32) -> Found<Position> {
        let options = Options {
            need,
            time: None,
            max_boards: 1 << 24,
            first_only: false,
        };
        shortest::<Engine<Dakon>>(&Position::start(n, n), &options, &Progress::default())
    }

    #[test]
    fn dakon_3_has_no_strong_opening() {
        // 18 seeds, strong: 15 (rules.md; Donkers et al.: none for Dakon-3).
        let f = run(3, 15);
        assert!(f.proved && f.best.is_none());
    }

    #[test]
    fn wide_boards_give_the_same_lengths() {
        // data/openings.md: dakon:5x5 strong 24, majority 7.
        let options = |need| Options {
            need,
            time: None,
            max_boards: 1 << 24,
            first_only: false,
        };
        let start = WideDakon::new(5, 5).unwrap().start();
        for (need, len) in [(45, 24), (26, 7)] {
            let f = shortest::<Wide>(&start, &options(need), &Progress::default());
            assert!(f.proved);
            assert_eq!(f.best.unwrap().moves.len(), len);
        }
    }

    #[test]
    fn a_ready_pit_gives_another_move() {
        // Every pit counted ready (first lap ends in the store, also after
        // whole rounds) keeps South to move when played, on the boards
        // along a first turn of dakon:6x6 and on wide dakon:20x20.
        let mut b = Position::start(6, 6);
        let mut checked = 0;
        while Engine::<Dakon>::turn_over(&b).is_none() {
            let mut moves = Vec::new();
            Engine::<Dakon>::moves(&b, &mut moves);
            let n = b.n();
            for (k, &c) in b.row(Side::South).iter().enumerate() {
                if c > 0 && (k + usize::from(c)) % (2 * n + 1) == n {
                    let (_, after) = moves[..]
                        .iter()
                        .find(|(m, _)| *m == Move::Pit(k as u8 + 1))
                        .unwrap();
                    assert_eq!(after.to_move(), Side::South, "{b}: pit {}", k + 1);
                    checked += 1;
                }
            }
            b = moves.last().unwrap().1;
        }
        let w = WideDakon::new(20, 20).unwrap().start();
        let mut moves = Vec::new();
        Wide::moves(&w, &mut moves);
        // Pit 1 holds 20: its lap ends in the store.
        assert_eq!(Wide::ready(&w), 1);
        assert_eq!(moves[0].1.to_move(), Side::South);
        assert!(checked > 0);
    }

    #[test]
    fn endgame_agrees_with_the_listing() {
        // From the boards along the first strong opening of dakon:5x5
        // (data/openings.md: two strong openings), the exhaustive endings
        // find a win exactly where the listing of every turn has one, and
        // the win they give replays and meets the criterion.
        let need = 45;
        let start = Position::start(5, 5);
        let mut opening = Vec::new();
        for_each_winning::<Engine<Dakon>>(&start, need, &mut |moves, _| {
            if opening.is_empty() {
                opening = moves.to_vec();
            }
        });
        assert!(!opening.is_empty());
        let options = Options {
            need,
            time: None,
            max_boards: 1 << 20,
            first_only: false,
        };
        let progress = Progress::default();
        let mut s = Search::<Engine<Dakon>>::new(&options, &progress);
        let mut lost = Lost::new();
        // Boards checked without and with a win.
        let mut checked = [0; 2];
        let mut b = start;
        for (i, &m) in opening.iter().enumerate() {
            // A board off the opening, one move aside, too.
            let mut moves = Vec::new();
            Engine::<Dakon>::moves(&b, &mut moves);
            let aside = moves
                .iter()
                .map(|(_, c)| *c)
                .find(|c| *c != b && Engine::<Dakon>::turn_over(c).is_none());
            for board in std::iter::once(b).chain(aside) {
                let wins = for_each_winning::<Engine<Dakon>>(&board, need, &mut |_, _| {}).1;
                let mut tail = Vec::new();
                let mut budget = u64::MAX;
                let got = s
                    .endgame(&board, &mut tail, &mut budget, None, &mut lost)
                    .unwrap();
                assert_eq!(
                    got.is_some(),
                    wins.shortest.is_some(),
                    "move {}: {board}",
                    i + 1
                );
                checked[usize::from(got.is_some())] += 1;
                if let Some((after, score)) = got {
                    tail.reverse();
                    let mut p = board;
                    for mv in tail {
                        p = crate::games::play::<Dakon>(&p, mv).unwrap();
                    }
                    assert_eq!(p, after);
                    assert_eq!(Engine::<Dakon>::turn_over(&after), Some(score));
                    assert!(score >= need);
                }
            }
            b = crate::games::play::<Dakon>(&b, m).unwrap();
        }
        assert!(checked[0] > 0 && checked[1] > 0, "{checked:?}");
    }

    #[test]
    fn restarts_turn_a_near_miss_into_a_win() {
        // dakon:6x6 and dakon:7x7, strong: a sweep of width 1 ends short
        // of the goal; its best near miss replays to its score, and the
        // local search from it finds a winning turn that replays from the
        // start (the moves before the cut included).
        for (n, need) in [(6, 66), (7, 91)] {
            let options = Options {
                need,
                time: None,
                max_boards: 1 << 20,
                first_only: false,
            };
            let progress = Progress::default();
            let mut s = Search::<Engine<Dakon>>::new(&options, &progress);
            let start = Position::start(n, n);
            let mut lost = Lost::new();
            assert!(!s.sweep(&start, 1, None, &mut lost), "dakon:{n}x{n}");
            let (near, score) = s.near.clone().unwrap();
            assert!(score < need && score == s.closest);
            let mut p = start;
            for (i, &m) in near.iter().enumerate() {
                assert_eq!(Engine::<Dakon>::turn_over(&p), None, "move {}", i + 1);
                p = crate::games::play::<Dakon>(&p, m).unwrap();
            }
            assert_eq!(Engine::<Dakon>::turn_over(&p), Some(score));
            let levels = Engine::<Dakon>::on_board(&start) as usize + 1;
            assert!(s.restarts(&start, levels, None, &mut lost), "dakon:{n}x{n}");
            assert!(s.prefix.is_empty() && s.salt == 0);
            assert_replays_and_wins(&start, s.best.unwrap(), need);
        }
    }

    /// Checks that `best` is a first turn from `start`: every move but the
    /// last keeps the turn, the last ends it at `best.after` with
    /// `best.score`, at least `need`.
    fn assert_replays_and_wins(start: &Position, best: Opening<Position>, need: u32) {
        let mut p = *start;
        for (i, &m) in best.moves.iter().enumerate() {
            assert_eq!(Engine::<Dakon>::turn_over(&p), None, "move {}", i + 1);
            p = crate::games::play::<Dakon>(&p, m).unwrap();
        }
        assert_eq!(p, best.after);
        assert_eq!(Engine::<Dakon>::turn_over(&p), Some(best.score));
        assert!(best.score >= need);
    }

    #[test]
    fn a_pair_of_restarts_finds_a_win_and_halts() {
        // dakon:6x6 and dakon:7x7, strong, from a sweep of width 1's near
        // miss: the local search with nested searches beside it finds a
        // winning turn that replays from the start and leaves no halt flag
        // or published slot behind; the nested searches alone, from the
        // same near miss, find one too; a search whose halt flag is set
        // stops at once.
        for (n, need) in [(6, 66), (7, 91)] {
            let options = Options {
                need,
                time: None,
                max_boards: 1 << 20,
                first_only: false,
            };
            let progress = Progress::default();
            let mut s = Search::<Engine<Dakon>>::new(&options, &progress);
            let start = Position::start(n, n);
            let mut lost = Lost::new();
            assert!(!s.sweep(&start, 1, None, &mut lost));
            let near = s.near.clone();
            assert!(near.as_ref().is_some_and(|n| n.1 < need));
            let levels = Engine::<Dakon>::on_board(&start) as usize + 1;
            let fresh = Progress::default();
            let mut halted = Search::<Engine<Dakon>>::new(&options, &fresh);
            halted.near = near.clone();
            halted.halt = Some(Arc::new(AtomicBool::new(true)));
            assert!(!halted.restarts(&start, levels, None, &mut Lost::new()));
            assert!(halted.best.is_none() && halted.stopped);
            let fresh = Progress::default();
            let mut nested = Search::<Engine<Dakon>>::new(&options, &fresh);
            nested.near = near.clone();
            let slot = std::sync::Mutex::new(None);
            let limit = Some(Duration::from_secs(60));
            assert!(nested.nest_loop(&start, limit, Duration::from_secs(20), &slot));
            assert_replays_and_wins(&start, nested.best.unwrap(), need);
            assert!(s.restarts_pair(&start, levels, None, &mut lost, true));
            assert!(s.halt.is_none() && s.share.is_none() && !s.stopped && s.prefix.is_empty());
            assert!(s.first.is_some() && s.closest >= need);
            assert_replays_and_wins(&start, s.best.unwrap(), need);
        }
    }

    #[test]
    fn nested_searches_take_the_published_near_miss() {
        // A near miss published in the slot, better than the nested
        // search's own, is the one it cuts: from dakon:7x7's start with
        // no near miss of its own, the published one (a sweep's) leads it
        // to a winning turn that replays.
        let (n, need) = (7, 91);
        let options = Options {
            need,
            time: None,
            max_boards: 1 << 20,
            first_only: false,
        };
        let start = Position::start(n, n);
        let progress = Progress::default();
        let mut s = Search::<Engine<Dakon>>::new(&options, &progress);
        assert!(!s.sweep(&start, 1, None, &mut Lost::new()));
        let slot = std::sync::Mutex::new(s.near.clone());
        let fresh = Progress::default();
        let mut nested = Search::<Engine<Dakon>>::new(&options, &fresh);
        assert!(nested.near.is_none());
        let limit = Some(Duration::from_secs(60));
        assert!(nested.nest_loop(&start, limit, Duration::from_secs(20), &slot));
        assert_replays_and_wins(&start, nested.best.unwrap(), need);
        // Without any near miss there is nothing to cut.
        let empty = std::sync::Mutex::new(None);
        let mut idle = Search::<Engine<Dakon>>::new(&options, &fresh);
        assert!(!idle.nest_loop(&start, limit, Duration::from_secs(1), &empty));
    }

    #[test]
    fn a_sweep_finds_turns_that_replay_and_win() {
        // dakon:4x4 and dakon:6x6, strong: every turn a sweep records is
        // a legal first turn from the start reaching its score.
        for (n, need) in [(4, 28), (6, 66)] {
            let options = Options {
                need,
                time: None,
                max_boards: 1 << 20,
                first_only: false,
            };
            let progress = Progress::default();
            let mut s = Search::<Engine<Dakon>>::new(&options, &progress);
            let start = Position::start(n, n);
            let mut lost = Lost::new();
            let mut width = 16;
            while !s.sweep(&start, width, None, &mut lost) {
                width *= 2;
                assert!(width <= 1 << 12, "dakon:{n}x{n}: no strong turn");
            }
            assert_replays_and_wins(&start, s.best.unwrap(), need);
            assert!(s.closest >= need);
        }
    }

    /// A game whose every expansion takes [`Slow::COST`], like the
    /// endings of the wide boards, where a move relays its seeds lap after
    /// lap: boards are the chains of moves 1 and 2 (a bit each, after a
    /// leading 1), each move stores a seed, and the turn ends after
    /// [`Slow::DEPTH`] moves with a score of `DEPTH` (every chain wins)
    /// or 0 (none does).
    struct Slow<const WINS: bool>;

    impl<const WINS: bool> Slow<WINS> {
        const COST: Duration = Duration::from_millis(5);
        const DEPTH: u32 = 20;

        fn depth(b: &u64) -> u32 {
            63 - b.leading_zeros()
        }
    }

    impl<const WINS: bool> TurnGame for Slow<WINS> {
        type Board = u64;
        type Key = u64;

        fn key(b: &u64) -> u64 {
            *b
        }

        fn moves(b: &u64, out: &mut Vec<(Move, u64)>) {
            std::thread::sleep(Self::COST);
            out.clear();
            out.extend([(Move::Pit(1), 2 * b), (Move::Pit(2), 2 * b + 1)]);
        }

        fn turn_over(b: &u64) -> Option<u32> {
            (Self::depth(b) == Self::DEPTH).then_some(if WINS { Self::DEPTH } else { 0 })
        }

        fn south_captured(b: &u64) -> u32 {
            Self::depth(b)
        }

        fn ready(_: &u64) -> u32 {
            0
        }

        fn away(_: &u64) -> u32 {
            0
        }

        fn on_board(b: &u64) -> u32 {
            Self::DEPTH - Self::depth(b)
        }
    }

    #[test]
    fn slow_expansions_stop_at_the_deadline() {
        // 5 ms a node: with 1,024 nodes between looks at the clock, the
        // endings (no chain wins: depth-first, beams and sweeps, every
        // board near the goal) and the breadth-first layers (every chain
        // wins: the first found is 20 moves, the layers would take 2^20
        // nodes to prove it) ran until the 1,024th node, 5 s, past a 2 s
        // deadline.
        let budget = Duration::from_secs(2);
        let options = Options {
            need: 10,
            time: Some(budget),
            max_boards: 1 << 20,
            first_only: false,
        };
        let limit = budget + Duration::from_millis(1500);
        let start = Instant::now();
        let f = shortest::<Slow<false>>(&1, &options, &Progress::default());
        let took = start.elapsed();
        assert!(took < limit, "no win: {took:?}");
        assert!(f.best.is_none() && !f.proved && f.seconds < limit.as_secs_f64());
        let start = Instant::now();
        let f = shortest::<Slow<true>>(&1, &options, &Progress::default());
        let took = start.elapsed();
        assert!(took < limit, "wins: {took:?}");
        assert!(!f.proved && f.seconds < limit.as_secs_f64());
        assert_eq!(f.best.map(|b| b.moves.len()), Some(20));
    }

    #[test]
    fn a_shard_grows_alone() {
        // No insertion rehashes more than an eighth of the entries (one
        // map rehashes all of them when it grows: seconds for millions of
        // wide boards), and the keys spread over the shards.
        let mut lost: Lost<u64> = Lost::new();
        let capacity = |l: &Lost<u64>| l.maps.iter().map(|m| m.capacity()).sum::<usize>();
        let n = 1 << 18;
        let mut before = capacity(&lost);
        let mut most = 0;
        for k in 0..n {
            assert!(lost.insert(k * 0x9e37_79b9, ()));
            let after = capacity(&lost);
            most = most.max(after - before);
            before = after;
        }
        assert!(!lost.insert(0, ()) && lost.contains(&(5 * 0x9e37_79b9)));
        assert_eq!(lost.len(), n as usize);
        assert!(most <= n as usize / 8, "{most}");
        assert!(lost.maps.iter().all(|m| m.len() < 2 * n as usize / SHARDS));
    }

    #[test]
    fn dakon_4_majority_is_six_moves() {
        // data/openings.md: shortest majority opening of dakon:4x4 is 6.
        let f = run(4, 17);
        assert!(f.proved);
        assert_eq!(f.best.unwrap().moves.len(), 6);
    }
}
