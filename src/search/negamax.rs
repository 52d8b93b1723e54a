//! The exact alpha-beta (negamax) search over future gains.
//!
//! **What is searched.** Play from a position depends only on its board and
//! the side to move, never on the seeds captured before, so the search works
//! with the *future gain* `g` of the side to move: what it will still
//! capture minus what the opponent will still capture. The game value is
//! `captured[me] - captured[opp] + g`. A move that captures `c` (net, for
//! the mover) and passes the turn is worth `c - g(child)`; an extra move is
//! worth `c + g(child)`. Terminal positions score their final allocation.
//! `|g|` never exceeds the seeds on the board, an exact bound used to cut.
//!
//! **Cycles and the graph-history interaction.** In every game but Kalah a
//! position can repeat. The rules value endless play as capturing nothing
//! more. A search that scored a repetition of a position on its path as 0
//! would get values that depend on the path, not only on the position (the
//! graph-history interaction): they could not be stored, and on boards with
//! many cycles the search would re-search the same positions along
//! exponentially many paths. So a repetition is never scored: a null-window
//! test is a reachability game whose answer belongs to the position alone,
//! and the search meets a position still *open* above it by returning
//! [`PENDING`] instead of a value; the open positions are settled together,
//! exactly, when the search leaves the last of them that others wait on
//! ([`super::cycles`] holds the method and its proof). Every value the
//! search returns (other than `PENDING`) or stores is then a true bound of
//! the position, whatever the path. The tests compare every reachable
//! position of small boards of every game with an independent exhaustive
//! retrograde analysis, with a large table and with a tiny one.
//!
//! **Contract of `Searcher::search`** (fail-soft): with `alpha < beta`, the
//! returned `v` satisfies: `v <= alpha` means `g <= v`; `v >= beta` means
//! `g >= v`; otherwise `v == g`. In the games whose positions can repeat,
//! `v` may also be [`PENDING`]: the node's result waits on an open node
//! above it (numbered `child_index`, with the search's `child_low`), and it
//! is never stored. Every test is a null window (`alpha + 1 == beta`).
//! With a horizon (`Searcher::horizon`), a result that leaned on it
//! (`child_tainted`) holds only where it favours the side the horizon
//! fails; only such results, and those that did not lean on it, are
//! stored ([`super::cycles`], "Horizons").

use super::cycles::PENDING;
use super::cycles::{favours, Cycles, Entered, NO_LOW};
use super::drafts::{Draft, Drafts};
use super::tt::{Stored, Table, NO_MOVE, PASS_CODE};
use crate::db::probe::Tablebase;
use crate::games::{final_gain, move_gain, Move, MoveList, Rules, MAX_MOVES};
use crate::packed::PackedBoard;
use crate::position::Position;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicU64, Ordering};

/// Seeds on the board from which a node of a game whose positions can
/// repeat looks up its children in the table before searching them
/// (enhanced transposition cutoff).
const ETC_MIN_SEEDS: usize = 8;

/// The same in Kalah, without databases. A child's lookup is a cache miss,
/// worth it only where the search it may save is large: on Kalah(6,4), 1
/// thread, from 8 seeds 55.3 M interior nodes and 46.6 s, from 24 seeds
/// 56.3 M and 39.8 s; (5,4) 0.80 -> 0.55 s, (4,6) the same within noise.
/// (In Awari 4x3 the lookups from 8 seeds paid: 7.1 s against 8.0 s.)
const ETC_MIN_SEEDS_KALAH: usize = 24;

/// In Kalah with databases, lookups start this many seeds above the
/// databases' (the boards just above them are cheap to search: their
/// children are all database probes). Kalah(6,4), 20-seed databases, 1
/// thread: from 8 seeds (every board above the databases) 10.07 M interior
/// nodes, 8.7 s; from 24: 10.25 M, 6.8 s; from 28: 10.53 M, 6.1 s; from
/// 36: 10.67 M, 6.8 s. Kalah(5,5): 16.2 s -> 12.9 s from 28.
const ETC_ABOVE_DB: usize = 8;

/// In Kalah with databases, the nodes with at most this many seeds more
/// than the databases neither probe nor store the table (Irving, Donkers
/// and Uiterwijk store only subtrees deeper than a minimum). Most nodes
/// lie just above the databases (Kalah(6,4), 20-seed databases: 27 % of
/// the interior nodes of the last test at 21 seeds, 20 % at 22, 16 % at
/// 23, each seed above about three quarters of the one below), their
/// subtrees are small (most children are database probes, settled
/// before any move is searched), and their probe is a miss to memory
/// that costs more than the search it may save. Kalah(6,4), 20-seed
/// databases, 2 threads, interleaved runs: with the table everywhere
/// 11.0–11.3 M interior nodes, 2.66–3.14 s; without it within 2 seeds
/// above, 12.5 M, 2.50–2.52 s; within 3, 13.7–13.9 M, 2.43–2.50 s;
/// within 4, 14.9–15.0 M, 2.39–2.46 s; and in another series within 1,
/// 11.6–11.8 M, 2.85–3.37 s, against 2.52–2.77 s within 3. Kalah(5,5):
/// 21.7 M, 5.17–5.22 s; within 3, 25.7–26.0 M, 4.26–4.70 s. A table of
/// their own instead (4 MiB, within the caches): fewer nodes (12.5 M),
/// no faster (2.60 s). Above levels built in memory, of 14 seeds
/// (Kalah(6,4) without databases): no change (13.9 s either way).
/// Not in the games whose positions can repeat: there the table also
/// keeps the searches of a component from repeating each other (not
/// measured).
const UNTABLED_ABOVE_DB: usize = 3;

/// In the games whose positions can repeat, with databases, lookups start
/// this many seeds above the databases' (as in Kalah, the boards just above
/// them are cheap to search). The Akon position of issue 20 (`akon:7x5`,
/// 21 seeds, databases to 8, 2 threads, whole solve, with the first
/// guess's budget of 20 K nodes it had then): from 8 seeds (every board
/// above the databases) 160.9 M interior nodes, 64.1 s; from 12 (4
/// above) 157.2 M, 61.2 and 60.2 s; from 14, 146.1 M, 62.8 s; from 20,
/// 170.3 M, 65.8 s.
const ETC_ABOVE_DB_CYCLIC: usize = 4;

/// Plies from the root up to which a node may search its moves in
/// parallel.
const SPLIT_MAX_PLY: usize = 6;

/// Seeds on the board from which a node may search its moves in parallel
/// (below, subtrees are too small to be worth a task).
pub const SPLIT_MIN_SEEDS: usize = 12;

/// Deeper than [`SPLIT_MAX_PLY`], a node also searches its moves in
/// parallel when its last search (an earlier MTD(f) test's, by the table)
/// took at least `2^SPLIT_MIN_WORK` nodes. Without it the splits end at
/// ply 6, and the second thread waits while the first searches the big
/// subtrees below: on Kalah(6,4), 2 threads took 40 s against 44 s for
/// one; with it (and [`CUTOFF_CHECK_EVERY`]) 18.5 to 20 s, for 54.4 M
/// nodes against 54.3 M (splitting at every node to ply 16 instead: 145
/// M nodes, 66 s; at 12 to 14 here, the same within noise). Only in the
/// games without cycles: a split search starts with no open node
/// ([`super::cycles`]), so deep in a cyclic game it would search again
/// the positions open above it (true bounds all the same, but not
/// measured there).
const SPLIT_MIN_WORK: u8 = 12;

/// Nodes between a split search's checks of its siblings' cutoff: a
/// sibling that cut makes the others' work useless, and the subtrees of
/// deep splits are often smaller than [`CHECK_EVERY`].
const CUTOFF_CHECK_EVERY: u64 = 64;

/// Nodes between checks of the stop flag and updates of shared counters.
const CHECK_EVERY: u64 = 4096;

/// Encodes a move for the table.
#[inline]
pub(crate) fn move_code(m: Move) -> u8 {
    match m {
        Move::Pit(k) => k,
        Move::Pass => PASS_CODE,
    }
}

/// Move ordering: the weight of each seed a move captures (net).
const ORDER_PER_SEED: i32 = 4;
/// Move ordering: the bonus of a move after which the mover moves again,
/// above the capture of any move on a board of at most 250 seeds.
const ORDER_EXTRA_MOVE: i32 = 1_000;
/// Move ordering: the bonus of the table's best move, above everything
/// else.
const ORDER_TABLE_MOVE: i32 = 10_000;

/// A move's place in the ordering of both searches (the exact one here and
/// the first guess's): higher first. The table's move, then moves after
/// which the mover moves again, then by the seeds the move captures (net,
/// `gain`); ties are broken by [`sort_moves`].
#[inline]
pub(crate) fn order_score(gain: i32, extra_move: bool, table_move: bool) -> i32 {
    ORDER_PER_SEED * gain
        + if extra_move { ORDER_EXTRA_MOVE } else { 0 }
        + if table_move { ORDER_TABLE_MOVE } else { 0 }
}

/// Sorts `(score, move index)` pairs into search order: by score, and on a
/// tie, in the games that sow into the stores, the pit nearest the mover's
/// store first (Irving, Donkers and Uiterwijk's "right-to-left" default:
/// Kalah(6,3) 20.3 M -> 1.24 M nodes, Dakon 7x7 4.24 M -> 1.76 M),
/// elsewhere pit 1 first (the other order costs Anywoli 7x4 three times the
/// nodes and changes Awari, Akon and Djenon-abe by under 6 %).
#[inline]
pub(crate) fn sort_moves<R: Rules>(order: &mut [(i32, u8)]) {
    if R::SOWS_INTO_STORES {
        order.sort_unstable_by_key(|o| std::cmp::Reverse(*o));
    } else {
        order.sort_unstable_by_key(|o| (std::cmp::Reverse(o.0), o.1));
    }
}

/// Starts the loads of the children `moves` of a node before any is read,
/// so that their misses to memory overlap: each child's database byte
/// where the databases `db` (with the most seeds they cover) cover its
/// board, into `entries`, else, where `looks_up(child)`, its table bucket,
/// whose key goes into `keys` (both by move; `None` for the others). The
/// exact search and the first guess both read their children so.
#[inline(always)]
pub(crate) fn start_loads<'d>(
    db: Option<(&'d dyn Tablebase, usize)>,
    table: &Table,
    moves: &MoveList,
    keys: &mut [Option<PackedBoard>],
    entries: &mut [Option<&'d u8>],
    looks_up: impl Fn(&Position) -> bool,
) {
    for (i, (_, child)) in moves.iter().enumerate() {
        (keys[i], entries[i]) = (None, None);
        match db {
            Some((db, max)) if child.board_seeds() <= max => {
                let e = db.entry(child).expect("the database covers this board");
                crate::mem::prefetch(e);
                entries[i] = Some(e);
            }
            _ if looks_up(child) => {
                keys[i] = PackedBoard::seen_by_mover(child);
                if let Some(k) = keys[i] {
                    table.prefetch(k);
                }
            }
            _ => {}
        }
    }
}

/// Counters shared by the threads of one solve.
#[derive(Debug)]
pub struct Shared {
    /// Nodes searched so far (updated every few thousand nodes).
    pub nodes: AtomicU64,
    /// Of those, interior nodes: not terminal, not cut by the seed bound,
    /// the table or the databases on entry, so their moves were generated
    /// and weighed (the nodes Irving, Donkers and Uiterwijk's solver
    /// counts; it examines a child's end, database, bounds and table
    /// entry before it calls it a node).
    pub interior: AtomicU64,
    /// Nodes whose board needs more bits than a table key holds
    /// ([`crate::packed::fits`]): searched without the table, so found
    /// again and again rather than remembered. Exact all the same.
    pub untabled: AtomicU64,
    /// Nodes with enough seeds on the board to use the table (at least
    /// `Searcher::table_min`): the table grows with these
    /// ([`Table::grow_for`]), not with all nodes. With databases most
    /// nodes lie just above them and never touch the table
    /// (`UNTABLED_ABOVE_DB`); a table grown for them was twice the size
    /// it needed, and the kernel's zeroing of its fresh pages took 10 %
    /// of a 1-thread profile (Kalah(6,4), 20-seed databases, 2 threads,
    /// 4 interleaved runs each: 2.79–3.28 s and 489 MB resident growing
    /// with every node, 2.37–2.68 s and 292 MB with these, 2 % more
    /// interior nodes).
    pub tabled: AtomicU64,
    /// Set to make every searcher return as soon as it can.
    pub stop: AtomicBool,
    /// Set (with `stop`) when more positions were open at once in a cycle
    /// search than `region_limit`: the solve fails, and nothing found after
    /// it is stored.
    pub overflow: AtomicBool,
    /// Set (with `stop`) when a search thread's stack ran low
    /// (`search::stack`): the solve fails, and nothing found after it is
    /// stored.
    pub too_deep: AtomicBool,
    /// Positions a cycle search may hold open at once (see
    /// [`super::REGION_LIMIT`]).
    pub region_limit: usize,
    /// Endgame databases: exact gains of every board with few seeds.
    pub db: Option<std::sync::Arc<dyn Tablebase>>,
    /// The searchers of this solve at work on its threads, less one: the
    /// searcher of a test's root is not counted, the moves of a split
    /// search are counted each while its searcher runs, and the searcher
    /// that split leaves the count meanwhile (it only waits for them, or
    /// runs one of them, counted as that move's). So the count is below
    /// the threads less one exactly when a thread of the solve has no
    /// search to run (`Searcher::helps`). One solve at a time uses a
    /// `Shared`, on its solver's own pool (`super::Solver`), so the count
    /// is that pool's.
    pub(crate) working: AtomicIsize,
    /// Nodes that split their moves because a thread had nothing to do
    /// (`Searcher::helps`).
    pub(crate) helped: AtomicU64,
}

impl Shared {
    /// The exact future gain of `pos` from the databases, if they cover its
    /// board.
    #[inline]
    pub fn db_gain(&self, pos: &Position) -> Option<i32> {
        self.db.as_deref().and_then(|db| db.gain(pos))
    }
}

impl Default for Shared {
    fn default() -> Self {
        Shared {
            nodes: AtomicU64::new(0),
            interior: AtomicU64::new(0),
            untabled: AtomicU64::new(0),
            tabled: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            overflow: AtomicBool::new(false),
            too_deep: AtomicBool::new(false),
            region_limit: super::REGION_LIMIT,
            working: AtomicIsize::new(0),
            helped: AtomicU64::new(0),
            db: None,
        }
    }
}

/// What a node of [`Searcher::search`] keeps about its moves while it
/// searches them: the children, their captures, and the order to search
/// them in.
///
/// **Why off the call stack.** The search recurses once per ply, and in
/// the games whose positions can repeat a path without a capture can be
/// millions of plies long ([`super::stack`]). Held in the recursive
/// function's frame, these arrays made it 1.7 KB a ply, and the start of
/// `anywoli:7x4` (15.6 s, value 8 with an 8 GiB stack) ran out of the
/// default 1 GiB stack. Each searcher keeps a pool of them, one per level
/// of its deepest path, allocated once and reused. What a node needs only
/// before it searches its first move (its children's table keys, database
/// bytes and upper bounds) is in [`Scratch`], one per searcher, not here:
/// a frame is 800 bytes instead of 1,500, which is most of the memory a
/// long path holds.
struct Frame {
    moves: MoveList,
    gain: [i32; MAX_MOVES],
    order: [(i32, u8); MAX_MOVES],
}

impl Frame {
    fn new() -> Box<Self> {
        Box::new(Frame {
            moves: MoveList::new(),
            gain: [0; MAX_MOVES],
            order: [(0, 0); MAX_MOVES],
        })
    }
}

/// What a node needs of its children before it searches any of them:
/// their table keys and database bytes (looked up together, so that the
/// loads overlap) and the upper bounds those give, which order the moves.
/// One per searcher: a node fills it and is done with it before its first
/// recursive call, so the nodes of a path can share it.
struct Scratch<'a> {
    keys: [Option<PackedBoard>; MAX_MOVES],
    entries: [Option<&'a u8>; MAX_MOVES],
    upper: [i32; MAX_MOVES],
}

impl Scratch<'_> {
    fn new() -> Box<Self> {
        Box::new(Scratch {
            keys: [None; MAX_MOVES],
            entries: [None; MAX_MOVES],
            upper: [0; MAX_MOVES],
        })
    }
}

/// One thread's search state.
pub(crate) struct Searcher<'a, R: Rules> {
    table: &'a Table,
    shared: &'a Shared,
    /// The databases, and the most seeds they cover (`None`: no database).
    db: Option<(&'a dyn Tablebase, usize)>,
    /// Seeds on the board from which a node looks up its children before
    /// searching them ([`ETC_MIN_SEEDS`] and the constants after it).
    etc_min: usize,
    /// Seeds on the board from which a node probes and stores the table
    /// ([`UNTABLED_ABOVE_DB`]; 0: every node).
    table_min: usize,
    /// Extra stop flags (sibling cutoffs in parallel searches).
    pub(crate) flags: Vec<&'a AtomicBool>,
    /// Frames of the nodes not on the path now ([`Frame`]). Boxed: a node
    /// takes one out and holds only the pointer while it recurses (a
    /// frame moved out of the vector would sit on the stack again).
    #[allow(clippy::vec_box)]
    frames: Vec<Box<Frame>>,
    /// The children's keys, bytes and bounds of the node being entered
    /// ([`Scratch`]).
    scratch: Box<Scratch<'a>>,
    /// Plies from the root of the test.
    depth: usize,
    /// Changes of the side to move from the root of the test (0: still
    /// the root's own turn; see [`Searcher::may_split`]).
    turns: usize,
    /// The open positions of positions that can repeat (cyclic games).
    cycles: Cycles,
    /// Set by every search that returns: the least number of an open node
    /// its subtree waits on ([`NO_LOW`]: none).
    child_low: u32,
    /// Set with a [`PENDING`] result: the open node the result waits on
    /// (the node itself, or the open node met again).
    child_index: u32,
    /// Plies from the root of the test at which a node of a cyclic game is
    /// not searched but given the result its side loses or wins by
    /// [`Self::fails`] (`usize::MAX`: no horizon; see
    /// [`super::cycles`], "Horizons").
    pub(crate) horizon: usize,
    /// The side (`Side as u8`) that fails at the horizon; the other
    /// succeeds there.
    pub(crate) fails: Option<u8>,
    /// Set by every search that returns: its result leaned on a horizon,
    /// so it is a true bound only where it favours [`Self::fails`].
    pub(crate) child_tainted: bool,
    /// Results that leaned on a horizon and do not favour
    /// [`Self::fails`]: not true bounds, but what a search with the same
    /// horizon would find again (keyed by the board and whether its mover
    /// is the side the horizons fail; a cache that may lose any of them,
    /// [`super::drafts`]).
    drafts: Drafts,
    /// Nodes searched by this searcher.
    pub(crate) nodes: u64,
    unflushed: u64,
    /// Interior nodes not yet added to the shared count.
    interior: u64,
    /// Nodes without a table key, not yet added to the shared count.
    untabled: u64,
    /// Nodes that use the table ([`Shared::tabled`]), not yet added to the
    /// shared count.
    tabled: u64,
    /// Set once a stop flag was seen: every later result is meaningless.
    pub(crate) aborted: bool,
    _rules: std::marker::PhantomData<R>,
}

impl<'a, R: Rules> Searcher<'a, R> {
    pub(crate) fn new(table: &'a Table, shared: &'a Shared) -> Self {
        let db = shared.db.as_deref().map(|d| (d, d.max_seeds()));
        let etc_min = match db {
            Some((_, max)) if R::CYCLIC => ETC_MIN_SEEDS.max(max + ETC_ABOVE_DB_CYCLIC),
            _ if R::CYCLIC => ETC_MIN_SEEDS,
            Some((_, max)) => ETC_MIN_SEEDS_KALAH.max(max + ETC_ABOVE_DB),
            None => ETC_MIN_SEEDS_KALAH,
        };
        let table_min = match db {
            Some((_, max)) if !R::CYCLIC => max + UNTABLED_ABOVE_DB + 1,
            _ => 0,
        };
        Searcher {
            table,
            shared,
            db,
            etc_min,
            table_min,
            flags: Vec::new(),
            frames: Vec::new(),
            scratch: Scratch::new(),
            depth: 0,
            turns: 0,
            cycles: Cycles::new(shared.region_limit),
            child_low: NO_LOW,
            child_index: NO_LOW,
            horizon: usize::MAX,
            fails: None,
            child_tainted: false,
            drafts: Default::default(),
            nodes: 0,
            unflushed: 0,
            tabled: 0,
            interior: 0,
            untabled: 0,
            aborted: false,
            _rules: std::marker::PhantomData,
        }
    }

    /// The table's bounds for `key`.
    #[inline]
    fn probe(&self, key: PackedBoard) -> Option<Stored> {
        self.table.probe(key)
    }

    /// Stores `stored`, merged with what the table already knows.
    #[inline]
    fn store(&mut self, key: PackedBoard, stored: Stored) {
        self.table.update(key, |old| merge(old, stored));
    }

    /// Adds this searcher's unreported nodes to the shared count.
    pub(crate) fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
        let before = self.shared.tabled.fetch_add(self.tabled, Ordering::Relaxed);
        self.table.grow_for(before + self.tabled);
        self.tabled = 0;
        self.shared
            .interior
            .fetch_add(self.interior, Ordering::Relaxed);
        self.interior = 0;
        if self.untabled > 0 {
            self.shared
                .untabled
                .fetch_add(self.untabled, Ordering::Relaxed);
            self.untabled = 0;
        }
    }

    #[cold]
    fn check_stop(&mut self) {
        self.flush();
        if self.shared.stop.load(Ordering::Relaxed)
            || self.flags.iter().any(|f| f.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
    }

    /// Fail-soft null-window search of the future gain of `pos` (see the
    /// module docs for the contract).
    pub(crate) fn search(&mut self, pos: &Position, alpha: i32, beta: i32) -> i32 {
        let mut frame = self.frames.pop().unwrap_or_else(Frame::new);
        let v = self.search_in(pos, alpha, beta, &mut frame);
        self.frames.push(frame);
        v
    }

    /// [`Self::search`], with `f` for the node's moves.
    #[inline(always)]
    fn search_in(&mut self, pos: &Position, alpha: i32, beta: i32, f: &mut Frame) -> i32 {
        debug_assert_eq!(alpha + 1, beta);
        self.child_low = NO_LOW;
        self.child_tainted = false;
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= CHECK_EVERY {
            self.check_stop();
        } else if self.unflushed.is_multiple_of(CUTOFF_CHECK_EVERY)
            && self.flags.iter().any(|f| f.load(Ordering::Relaxed))
        {
            // A sibling's cutoff (or a stop) above this split search.
            self.aborted = true;
        }
        if super::stack::low() {
            // Deeper would overflow the stack: fail the solve instead.
            self.shared.too_deep.store(true, Ordering::Relaxed);
            self.shared.stop.store(true, Ordering::Relaxed);
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        // The seed bound and the table come first: a cut there needs no
        // move generated. (A terminal position's final gain also lies within
        // the seed bound, and terminal positions are never stored.)
        let board = pos.board_seeds();
        self.tabled += u64::from(board >= self.table_min);
        let (floor, ceiling) = R::gain_bounds(pos);
        if ceiling <= alpha {
            return ceiling;
        }
        if floor >= beta {
            return floor;
        }
        if let Some((db, max)) = self.db {
            if board <= max {
                return db.gain(pos).expect("the database covers this board");
            }
        }
        let key = if board < self.table_min {
            None
        } else {
            let key = PackedBoard::seen_by_mover(pos);
            if key.is_none() {
                self.untabled += 1;
            }
            key
        };
        // Whether the side the horizon fails moves here.
        let fails_here = Some(pos.to_move() as u8) == self.fails;
        if let (true, Some(k)) = (R::CYCLIC, key) {
            // Its miss to memory overlaps the table's.
            self.drafts.prefetch(k, fails_here);
        }
        let mut best_code = NO_MOVE;
        let mut known_work = 0u8;
        // The table holds true values (never path-dependent ones), so it
        // is consulted before the repetition check. Its bounds only cut;
        // they do not narrow the window, so a result always keeps the
        // contract for the window it was asked for.
        if let Some(stored) = key.and_then(|k| self.probe(k)) {
            let (lo, hi) = (i32::from(stored.lower), i32::from(stored.upper));
            if lo >= beta || lo == hi {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            best_code = stored.best;
            known_work = stored.work;
        }
        let moves = &mut f.moves;
        moves.clear();
        if let Some(score) = R::generate(pos, moves) {
            return final_gain(pos, score);
        }
        let moves = &f.moves;
        if R::CYCLIC {
            if let Some(k) = key {
                if let Some(d) = self.drafts.get(k, fails_here) {
                    if d.remaining as usize >= self.horizon.saturating_sub(self.depth)
                        && ((d.v < d.beta && d.v < beta) || (d.v >= d.beta && d.v >= beta))
                    {
                        self.child_tainted = true;
                        return d.v;
                    }
                }
            }
        }
        if R::CYCLIC && self.depth >= self.horizon {
            // A horizon: the side it fails fails, the other succeeds
            // (`super::cycles`, "Horizons").
            self.child_tainted = true;
            return if fails_here { alpha } else { beta };
        }
        // Cyclic games: number the node, or meet it open (module docs).
        let me = if R::CYCLIC {
            match self.cycles.enter(pos, key, beta, (floor, ceiling)) {
                Entered::New(i) => i,
                Entered::Open(j) => {
                    self.child_low = j;
                    self.child_index = j;
                    return PENDING;
                }
                Entered::Decided(v, tainted) => {
                    self.child_tainted = tainted;
                    return v;
                }
                Entered::Full => {
                    self.shared.overflow.store(true, Ordering::Relaxed);
                    self.shared.stop.store(true, Ordering::Relaxed);
                    self.aborted = true;
                    return 0;
                }
            }
        } else {
            NO_LOW
        };
        let (alpha0, beta0) = (alpha, beta);
        self.interior += 1;

        // Bounds on every move's value before any is searched: from the
        // child's seeds, from the databases at every node (a child they
        // cover has its exact value, which under a null window either
        // cuts or needs no search: every such child is settled here), and
        // away from the leaves also from the table (enhanced transposition
        // cutoff). The loads are started together and overlap (see
        // `Table::prefetch`). One move proven at least `beta` cuts without
        // a search; a move that cannot exceed `alpha` need not be searched
        // (its upper bound stands in for its value, which keeps the
        // fail-soft contract); and the bounds order the other moves.
        // Probing the databases' children here rather than when each is
        // searched: Kalah(6,4), 20-seed databases, 1 thread, 10.48 M ->
        // 10.16 M interior nodes (16.3 M -> 11.7 M nodes in all), (5,5)
        // 19.90 M -> 19.38 M.
        let etc = board >= self.etc_min;
        // The scratch is this node's until its moves are ordered: nothing
        // in between recurses ([`Scratch`]).
        let sc = &mut *self.scratch;
        let (keys, entries, upper) = (&mut sc.keys, &mut sc.entries, &mut sc.upper);
        let table_min = self.table_min;
        start_loads(self.db, self.table, moves, keys, entries, |child| {
            etc && child.board_seeds() >= table_min
        });
        // Each move's net capture, computed once for the bounds, the
        // ordering and the search below.
        let gain = &mut f.gain;
        for (i, (m, child)) in moves.iter().enumerate() {
            let (mut lo, mut hi) = R::gain_bounds(child);
            if let Some(&e) = entries[i] {
                let g = i32::from(e as i8);
                (lo, hi) = (g, g);
            } else if let Some(st) = keys[i].and_then(|k| self.table.probe(k)) {
                lo = lo.max(i32::from(st.lower));
                hi = hi.min(i32::from(st.upper));
            }
            let c = move_gain(pos, child);
            gain[i] = c;
            let (vlo, vhi) = if child.to_move() == pos.to_move() {
                (c + lo, c + hi)
            } else {
                (c - hi, c - lo)
            };
            if vlo >= beta {
                if let Some(k) = key {
                    let stored = Stored {
                        lower: vlo as i16,
                        upper: ceiling as i16,
                        best: move_code(*m),
                        work: 0,
                    };
                    self.store(k, stored);
                }
                self.leave_untouched(me);
                return vlo;
            }
            upper[i] = vhi;
        }

        // Move ordering ([`order_score`], [`sort_moves`]). Moves that
        // cannot exceed `alpha` are left out; the best of their upper
        // bounds is where `best` starts.
        let order = &mut f.order;
        let mut searched = 0;
        let mut best = i32::MIN;
        for (i, (m, child)) in moves.iter().enumerate() {
            if upper[i] <= alpha {
                best = best.max(upper[i]);
                continue;
            }
            let score = order_score(
                gain[i],
                child.to_move() == pos.to_move(),
                move_code(*m) == best_code,
            );
            order[searched] = (score, i as u8);
            searched += 1;
        }
        if searched == 0 {
            // No move can exceed `alpha`: fail low with the best bound.
            self.leave_untouched(me);
            return best;
        }
        let order = &mut order[..searched];
        sort_moves::<R>(order);

        self.depth += 1;
        let nodes_before = self.nodes;
        let mut best_move = moves[usize::from(order[0].1)].0;
        // The node's low (module docs) and whether a move waits on an open
        // node.
        let mut low = me;
        let mut pending = false;
        // Whether a searched move's result leaned on a horizon, and
        // whether the best one's did.
        let (mut tainted_any, mut tainted_best) = (false, false);
        // Where the moves may go in parallel: after the first (young
        // brothers wait), or from the first at the root of a test
        // ([`Searcher::races`]).
        let first_split = if order.len() > 1 && self.races() {
            0
        } else {
            1
        };
        for (nth, &(_, i)) in order.iter().enumerate() {
            // Not once this search was stopped: the split's searchers
            // would start afresh, search a while before they see the stop,
            // and split again, without end when every node of a turn may
            // split (a Dakon solve ran on for minutes past `--stop-after`).
            let planned = nth == first_split && self.may_split(board, known_work);
            let helps = !planned && nth >= 1 && self.helps(board, order.len() - nth);
            if (planned || helps) && !self.aborted {
                if helps {
                    self.shared.helped.fetch_add(1, Ordering::Relaxed);
                }
                // Young brothers wait: the first move was searched alone
                // and did not cut, so the others are searched in parallel
                // (each by a searcher of its own: their results are
                // settled); a racing root searches them all so; and a
                // node whose moves would not be split otherwise splits
                // those it has left when a thread has nothing to do.
                if let Some((v, m, t)) =
                    self.split(pos, moves, &order[nth..], alpha.max(best), beta)
                {
                    tainted_any |= t.any;
                    if v > best {
                        best = v;
                        best_move = m;
                        tainted_best = t.best;
                    }
                }
                break;
            }
            let (m, child) = &moves[usize::from(i)];
            let c = gain[usize::from(i)];
            let (lo, hi) = if child.to_move() == pos.to_move() {
                (alpha.max(best) - c, beta - c)
            } else {
                (c - beta, c - alpha.max(best))
            };
            // Still a null window: `best < beta` here, and `best` is
            // `alpha` or less until it reaches `beta`.
            let turn = usize::from(child.to_move() != pos.to_move());
            self.turns += turn;
            let r = self.search(child, lo, hi);
            self.turns -= turn;
            let t = self.child_tainted;
            if R::CYCLIC {
                low = low.min(self.child_low);
                if r == PENDING {
                    // The child waits on an open node (it captured
                    // nothing: a capture leads to fewer seeds, never back).
                    debug_assert_eq!(c, 0);
                    pending = true;
                    self.cycles.edge(me, self.child_index);
                    continue;
                }
            }
            tainted_any |= t;
            let v = if child.to_move() == pos.to_move() {
                c + r
            } else {
                c - r
            };
            if v > best {
                best = v;
                best_move = *m;
                tainted_best = t;
                if best >= beta {
                    break;
                }
            }
        }
        self.depth -= 1;
        if self.aborted {
            self.child_low = NO_LOW;
            return 0;
        }
        // A cut rests on its one move; a failure on every move.
        let tainted = if best >= beta {
            tainted_best
        } else {
            tainted_any
        };
        if R::CYCLIC && pending && best < beta {
            // Unsettled: wait for the component, or close it here.
            self.cycles.unsettled(me, best, tainted);
            if low == me {
                self.child_low = NO_LOW;
                return self.close(me);
            }
            self.child_low = low;
            self.child_index = me;
            // Its taint is its member's, counted when the component
            // closes.
            self.child_tainted = false;
            return PENDING;
        }
        // A result that leaned on a horizon is stored only where it
        // favours the side the horizons fail (`super::cycles`,
        // "Horizons").
        let true_bound = !tainted
            || self
                .fails
                .is_some_and(|p| favours(pos.to_move() as u8, best >= beta, p));
        if let (Some(k), true) = (key, true_bound) {
            let work = (64 - (self.nodes - nodes_before).leading_zeros()) as u8;
            let stored = Stored {
                lower: if best > alpha0 {
                    best as i16
                } else {
                    floor as i16
                },
                upper: if best < beta0 {
                    best as i16
                } else {
                    ceiling as i16
                },
                best: move_code(best_move),
                work,
            };
            self.store(k, stored);
        } else if let (Some(k), true) = (key, self.horizon != usize::MAX) {
            self.drafts.insert(
                k,
                fails_here,
                Draft {
                    beta,
                    remaining: self.horizon.saturating_sub(self.depth) as u32,
                    v: best,
                },
            );
        }
        if R::CYCLIC {
            // Decided. Nodes above may still wait on it: it stays open
            // until its component closes.
            self.cycles.decide(me, best, tainted);
            if low == me {
                self.child_low = NO_LOW;
                return self.close(me);
            }
            self.child_low = low;
        }
        self.child_tainted = tainted;
        best
    }

    /// Forgets the node `me` of a cyclic game, open but decided before it
    /// searched a move (the last node opened, waited on by none).
    #[inline]
    fn leave_untouched(&mut self, me: u32) {
        if R::CYCLIC {
            self.cycles.forget_last(me);
        }
    }

    /// Closes the component of the open node `me` (module docs of
    /// [`super::cycles`]), storing every bound it settles; `me`'s result.
    fn close(&mut self, me: u32) -> i32 {
        let table = self.table;
        let (v, tainted) = self.cycles.close(me, self.fails, |k, stored| {
            table.update(k, |old| merge(old, stored))
        });
        self.child_tainted = tainted;
        v
    }
}

impl<R: Rules> Searcher<'_, R> {
    /// Whether a node with `board` seeds on the board, at the current
    /// depth, whose last search took about `2^work` nodes (the table's
    /// `work`; 0 when unknown), searches its younger moves in parallel:
    /// only where subtrees are large (near the root, within the root's own
    /// turn, or where the table says so) and only when there is a second
    /// thread.
    ///
    /// *Within the root's own turn*: a node reached from the root by
    /// extra moves only, at any ply. In Dakon a turn is a chain of dozens
    /// of extra moves, so the first [`SPLIT_MAX_PLY`] plies are all the
    /// root's side, and in a test that succeeds every one of them cuts
    /// with its first move: no node ever split, and the second thread
    /// sat idle (Dakon 8x8 on 2 threads: one core busy, 52 s). Splitting
    /// within the whole first turn: 15.5 s; within the first two turns,
    /// 19.0 s; three, 36.9 s; four, 39.1 s (more splits, more nodes).
    #[inline]
    fn may_split(&self, board: usize, work: u8) -> bool {
        (self.depth <= SPLIT_MAX_PLY || self.turns == 0 || (!R::CYCLIC && work >= SPLIT_MIN_WORK))
            && board >= SPLIT_MIN_SEEDS
            && rayon::current_num_threads() > 1
    }

    /// Whether a node with `board` seeds on the board and `left` moves
    /// still to search, at least one of its moves searched (young brothers
    /// wait), searches those in parallel because a thread of the solve has
    /// no search to run ([`Shared::working`]), wherever it is in the tree.
    /// [`Self::may_split`] splits where subtrees are known to be large;
    /// without this, a thread that finished its part of a split waited
    /// while the other searched on below the last split: on Kalah(6,4), 2
    /// threads, the search used 1.83 cores of 2. Checked at every move
    /// after the first, so a node that began its moves with the other
    /// thread busy still hands on the rest when it falls idle. Kalah(6,4)
    /// over levels to 14 on disk, 2 threads, 8 interleaved runs each: 13.4
    /// to 16.7 s, median 15.0, 1.83 cores, against 12.1 to 17.7 s, median
    /// 13.7, 1.93 cores; the same interior nodes (59 to 61 M); (5,5) over
    /// levels to 17, median 10.3 s against 10.1 s; (6,4) with the 20-seed
    /// databases, 3 runs, median 3.64 s against 3.28 s
    /// (`data/solve-table.md`, "Stop 54"). In the games whose positions
    /// can repeat as well, although a split's searchers start with no open
    /// node and may search again positions open above (their results are
    /// true bounds all the same, as at every split): `akon:7x5` `N
    /// 2,2,1,2,4,1,1/0,3,0,0,0,4,1`, 21 seeds, over levels to 14 on disk,
    /// 40.4 and 35.5 s, 1.78 and 1.85 cores, against 34.6 and 29.4 s, 1.93
    /// cores, the same nodes; `S 2,1,0,0,2,0,2/2,2,4,0,1,2,3` 17.8 and 17.2
    /// s against 12.6 and 14.5 s; issue 20's Awari position of 18 seeds
    /// over databases to 12, 1.57 and 1.52 s against 0.88 and 0.87 s; the
    /// starts of `akon:4x3`, `anywoli:7x4`, `djenon-abe:6x4`, `dakon:8x8`
    /// and `awari:4x3` within the noise.
    #[inline]
    fn helps(&self, board: usize, left: usize) -> bool {
        left >= 2
            && board >= SPLIT_MIN_SEEDS
            && self.shared.working.load(Ordering::Relaxed) + 1
                < rayon::current_num_threads() as isize
    }

    /// Whether the node being searched is the root of a test, which
    /// searches all its moves in parallel at once instead of its first
    /// move alone (young brothers wait, as every other node). There one
    /// move's subtree may cost a hundred times another's that proves the
    /// same cut, and which comes first is the table's move, set by
    /// whichever thread stored last: `awari` `N
    /// 0,1,0,0,10,0/0,1,0,0,6,0 14-16` over databases to 12 (2 threads,
    /// `solve --extend-mb 0`) took 0.8 M nodes and 0.35 s in 7 of 8 runs,
    /// and 13.2 M nodes and 4.8 s in the eighth, whose test at horizon 36
    /// began with the move that proves `g >= -14` in 14.6 M nodes
    /// (another proves it in 0.2 M). With the race, 0.8 to 1.0 M nodes
    /// and 0.22 to 0.34 s in 8 of 8: the cheaper proof ends the other
    /// move's search (a split's cutoff), and a test that fails searches
    /// every move anyway. The price is the second move's nodes where the
    /// first cuts at once: the starts of `akon:4x3` 1.01 M -> 1.34 to
    /// 1.43 M nodes (0.39 to 0.44 s -> 0.49 to 0.51 s) and
    /// `djenon-abe:6x4` 1.46 to 1.57 M -> 1.96 to 2.05 M (8.8 s both ways,
    /// mostly its build), against `anywoli:7x4` 1.9 M -> 0.48 M; Dakon 8x8
    /// and 7x7 unchanged; the Akon and Awari positions of
    /// `data/cycles.md`, "Stop 51", within the noise. In Kalah (2
    /// threads, interleaved runs, stop 51's slow machine): (6,4) with the
    /// 20-seed databases 3.43 to 4.46 s, median 3.62, against 3.07 to
    /// 4.60 s, median 3.33 (six runs each; 13.5 to 14.1 M interior nodes
    /// against 13.0 to 15.0 M); without databases 21.9 and 20.5 s against
    /// 21.3 and 17.4 s (63.3 M against 57.6 to 59.7 M); (6,3), (5,4),
    /// (4,6) without and (4,6), (5,4) with databases the same or faster
    /// (`data/solve-table.md`, "Stop 51"). One thread never splits.
    #[inline]
    fn races(&self) -> bool {
        self.depth == 1 && self.flags.is_empty()
    }

    /// Searches the moves `order` of `pos` in parallel, each with the
    /// window `(alpha, beta)`, its own searcher (no open node: its result
    /// is settled) and the shared table; a cutoff stops the siblings still
    /// running. The best value and its move, or `None` if no move finished
    /// (this search was stopped: `self.aborted` is then set).
    fn split(
        &mut self,
        pos: &Position,
        moves: &MoveList,
        order: &[(i32, u8)],
        alpha: i32,
        beta: i32,
    ) -> Option<(i32, Move, Taint)> {
        use rayon::prelude::*;
        let cutoff = AtomicBool::new(false);
        // Each move's nodes, and its result, move and taint.
        type Done = (u64, Option<(i32, Move, bool)>);
        // This searcher leaves the count of those at work while its moves'
        // searchers are in it ([`Shared::working`]).
        let working = &self.shared.working;
        let _away = AtWork::change(working, -1);
        let results: Vec<Done> = order
            .par_iter()
            .map(|&(_, i)| {
                let _at_work = AtWork::change(working, 1);
                let (m, child) = &moves[usize::from(i)];
                let mut s = Searcher::<R>::new(self.table, self.shared);
                s.flags.extend(self.flags.iter().copied());
                s.flags.push(&cutoff);
                s.depth = self.depth;
                s.horizon = self.horizon;
                s.fails = self.fails;
                s.turns = self.turns + usize::from(child.to_move() != pos.to_move());
                let c = move_gain(pos, child);
                let v = if child.to_move() == pos.to_move() {
                    c + s.search(child, alpha - c, beta - c)
                } else {
                    c - s.search(child, c - beta, c - alpha)
                };
                s.flush();
                if s.aborted {
                    return (s.nodes, None);
                }
                if v >= beta {
                    cutoff.store(true, Ordering::Relaxed);
                }
                (s.nodes, Some((v, *m, s.child_tainted)))
            })
            .collect();
        let mut best: Option<(i32, Move, bool)> = None;
        let mut any = false;
        let mut all = true;
        for (nodes, r) in results {
            self.nodes += nodes;
            match r {
                Some((v, m, t)) => {
                    any |= t;
                    if best.is_none_or(|(b, _, _)| v > b) {
                        best = Some((v, m, t));
                    }
                }
                None => all = false,
            }
        }
        // A move stopped by a sibling's cutoff is harmless: that sibling's
        // value already reaches `beta`. Otherwise an unfinished move means
        // this search itself was stopped from above.
        if (!all && best.is_none_or(|(b, _, _)| b < beta))
            || self.shared.stop.load(Ordering::Relaxed)
            || self.flags.iter().any(|f| f.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        best.map(|(v, m, t)| (v, m, Taint { any, best: t }))
    }
}

/// A change to the count of searchers at work ([`Shared::working`]): a
/// searcher that enters it (`+1`) or leaves it while its split's moves run
/// (`-1`), undone when this is dropped, however the search ends.
struct AtWork<'a>(&'a AtomicIsize, isize);

impl<'a> AtWork<'a> {
    fn change(working: &'a AtomicIsize, by: isize) -> AtWork<'a> {
        working.fetch_add(by, Ordering::Relaxed);
        AtWork(working, by)
    }
}

impl Drop for AtWork<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(self.1, Ordering::Relaxed);
    }
}

/// Whether the results of a split search's moves leaned on a horizon: any
/// of them, and the best.
#[derive(Clone, Copy)]
struct Taint {
    any: bool,
    best: bool,
}

/// Combines new bounds with those already stored for the same board (both
/// are true bounds of the same value, so their intersection is too).
pub(crate) fn merge(old: Option<Stored>, new: Stored) -> Stored {
    match old {
        Some(o) if o.lower <= new.upper && new.lower <= o.upper => Stored {
            lower: o.lower.max(new.lower),
            upper: o.upper.min(new.upper),
            best: new.best,
            work: new.work.max(o.work),
        },
        _ => new,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memory a long path holds is mostly its frames ([`Frame`]): the
    /// figures in `super::DEFAULT_STACK_BYTES` and `--stack-mb`'s help
    /// count on a frame of about 800 bytes, with what a node needs only
    /// before its first move in the searcher's one [`Scratch`].
    #[test]
    fn a_frame_holds_only_what_lives_across_the_recursion() {
        let frame = std::mem::size_of::<Frame>();
        assert!(frame <= 832, "a frame takes {frame} bytes");
        assert!(std::mem::size_of::<Scratch>() > 500);
    }
}
