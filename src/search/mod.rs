//! The exact solver: MTD(f) over null-window alpha-beta searches of the
//! future gain ([`negamax`]), a shared lock-free transposition table
//! ([`tt`]), and parallel search with rayon.
//!
//! ```
//! use mancala::search::{Options, Solver};
//! use mancala::{games::Kalah, Variant};
//!
//! let v: Variant = "kalah:3x2".parse().unwrap();
//! let mut solver = Solver::new(Options { threads: 1, tt_bytes: 1 << 20, ..Options::default() });
//! let s = solver.solve::<Kalah>(&v.start()).unwrap();
//! assert!(s.value >= -12 && s.value <= 12);
//! assert!(s.best.is_some());
//! ```

pub mod cycles;
mod drafts;
mod estimate;
pub mod negamax;
mod stack;
pub mod tt;

use crate::db::probe::Tablebase;
use crate::games::{final_gain, through};
use crate::games::{Move, MoveList, Rules};
use crate::position::Position;
use crate::side::Side;
use negamax::Searcher;
pub use negamax::Shared;
use std::sync::atomic::{AtomicI32, Ordering};
pub use tt::Table;

/// Default size of the transposition table: 2 GiB, a twelfth of a 24 GiB
/// machine.
pub const DEFAULT_TT_BYTES: usize = 2 << 30;

/// Default stack of every search thread: cyclic games can have long paths
/// (the search goes as deep as the positions it holds open; the memory is
/// reserved, and only the pages used are touched). A ply takes about 270
/// bytes of it, and about 1.1 KB of memory besides: 800 bytes for its
/// node's moves (`negamax::Frame`), the rest for its open position
/// (`cycles`). 1 GiB holds some 4 million plies, which take 4.5 GB more
/// (the Anywoli position of `data/cycles.md` that fails at this depth:
/// 6.0 GB resident at its peak, 8.4 GB when a frame was 1.5 KB).
/// `anywoli:7x4`'s start goes deeper than 600,000.
pub const DEFAULT_STACK_BYTES: usize = 1 << 30;

/// The first horizon of a test in the games whose positions can repeat, in
/// plies, by default ([`Options::horizon`]). Chosen on issue 20's random
/// Akon positions of 21 seeds (databases to 8): see `data/cycles.md`,
/// "Stop 43".
pub const DEFAULT_HORIZON: usize = 16;

/// Each further round of a test's horizons looks this many plies
/// farther, up to [`HORIZON_STEPS_END`]; then a quarter farther
/// ([`next_horizon`]).
const HORIZON_STEP: usize = 4;

/// The horizon up to which the rounds take [`HORIZON_STEP`]s: 48 plies.
const HORIZON_STEPS_END: usize = 12 * HORIZON_STEP;

/// The horizon of a test's round after one at `horizon` plies: 16, 20,
/// ..., 44, 48, 60, 74, 92, ... by default, even.
///
/// Short steps first, because a round's cost grows about exponentially
/// with its horizon where the positions repeat rarely: each round
/// searches again what the last one did, and a round that looks much
/// farther than a result needs is the solve's largest. On issue 20's
/// Akon positions of 21 seeds (databases to 8), a round cost 2 to 8 times
/// the one 4 plies nearer, from 16 to 36 plies; the two positions answered
/// within 60 s by either schedule took 50.2 M and 51.8 M interior nodes
/// (38.9 and 40.0 s) with steps of 4, 64.2 M and 65.7 M (44.8 and 48.6 s)
/// doubling, 70.6 M and 96.8 M (46.6 and 58.5 s) a quarter farther from
/// the start (`data/cycles.md`, "Stop 44"). Geometric steps later, so
/// that a test whose answer lies hundreds of plies deep takes a few
/// dozen rounds, not a hundred.
///
/// The short steps go on to 48 plies: the hardest Akon positions of 21
/// seeds are answered by rounds 34 to 40 plies deep, and a round straight
/// at 40 after one at 32 costs up to ten times that at 32, where one at
/// 36 between them makes the one at 40 cheaper (its table holds the
/// bounds the closer round proved). Over the 10 positions of
/// `scripts/cycles.sh --above 13 akon` and two more, searched alone over
/// levels to 14 or 15 on one thread, 396 M nodes in all against 490 M
/// with the quarter steps from 32 (`N 2,1,3,4,1,1,2/0,2,2,0,1,0,2`: 48.8 M
/// against 112.8 M; one of the 12, `S 2,0,3,0,0,0,1/2,5,2,1,0,2,3`, 64.7
/// M against 57.7 M; `data/cycles.md`, "Stop 48").
fn next_horizon(horizon: usize) -> usize {
    let step = if horizon < HORIZON_STEPS_END {
        HORIZON_STEP
    } else {
        horizon / 4
    };
    horizon.saturating_add(step) & !1
}

/// Positions a test may hold open at once in the games whose positions can
/// repeat, by default (about 3 GB of bookkeeping at most); see
/// [`Options::region_limit`].
pub const REGION_LIMIT: usize = 20_000_000;

/// How to solve.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Search threads (1: deterministic single-thread search).
    pub threads: usize,
    /// Bytes for the transposition table.
    pub tt_bytes: usize,
    /// Positions that can repeat a test may hold open at once (each about
    /// 150 bytes until its component is settled) before the solve fails
    /// with [`SolveError::TooLarge`].
    pub region_limit: usize,
    /// Stack of each search thread; a search that would need more fails
    /// with [`SolveError::TooDeep`] instead of overflowing it.
    pub stack_bytes: usize,
    /// Games whose positions can repeat: a null-window test searches
    /// first to this many plies, a horizon beyond which a position counts
    /// as lost for one side and then for the other, and looks
    /// farther each round (`next_horizon`) until a result does not
    /// depend on the horizon (`cycles`, "Horizons"). 0: no horizon, one
    /// search as deep as the paths go.
    pub horizon: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            tt_bytes: DEFAULT_TT_BYTES,
            region_limit: REGION_LIMIT,
            stack_bytes: DEFAULT_STACK_BYTES,
            horizon: DEFAULT_HORIZON,
        }
    }
}

/// The exact value of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Game value: the side to move's final score minus the opponent's
    /// under perfect play, captured seeds included.
    pub value: i32,
    /// The future gain: `value` less what is already captured.
    pub gain: i32,
    /// A move that keeps the value; `None` on a terminal position.
    pub best: Option<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Of those, interior nodes: their moves were generated and weighed
    /// (see [`Shared::interior`]).
    pub interior: u64,
    /// Of those, nodes whose board was too large for a table key (more
    /// than [`crate::packed::KEY_BITS`] bits): searched without the table.
    /// Zero unless the board holds more than about `128 - 2n` seeds.
    pub untabled: u64,
}

/// Why a solve failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// A test held more positions open at once (positions that can repeat,
    /// waiting on each other) than the region limit.
    #[error("the position leads to more positions that can repeat without a capture, open at once, than the solver's region limit (--region-limit, each costs about 150 bytes): too large for the exact solver with this limit")]
    TooLarge,
    /// The solve was stopped on request ([`Progress::stop`]) before it
    /// finished.
    #[error("stopped before the end{}", match .bounds {
        Some((lo, hi)) => format!(": the value is proven to lie in {lo}..={hi}"),
        None => String::new(),
    })]
    Stopped {
        /// The bounds on the game value proven before the stop (a solve's
        /// only; `None` for the other searches).
        bounds: Option<(i32, i32)>,
    },
    /// The search went deeper than its threads' stacks hold.
    #[error("the search went deeper than the {mib} MiB stack of a search thread holds (long paths without a capture): a larger stack (`--stack-mb`) may let it finish")]
    TooDeep {
        /// Stack of a search thread, in MiB.
        mib: usize,
    },
    /// The solver's endgame databases belong to another game or row length.
    #[error(
        "the databases are of {db_game} with {db_n} pits a row, the position of {game} with {n}"
    )]
    WrongDatabase {
        /// The databases' game.
        db_game: &'static str,
        /// Their row length.
        db_n: usize,
        /// The position's game.
        game: &'static str,
        /// Its row length.
        n: usize,
    },
}

/// A line of play: the moves with the position after each, and how it
/// ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Each move and the position it leads to.
    pub steps: Vec<(Move, Position)>,
    /// Why the line stops.
    pub end: LineEnd,
}

/// How a [`Line`] ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// The game is over, with these final scores.
    Over(crate::games::Score),
    /// The last position repeats an earlier one: play goes round for ever
    /// and the seeds on the board go to nobody.
    Repetition,
    /// The line reached its length limit.
    Limit,
}

/// One null-window search of a solve, as [`Progress::take_tests`] gives
/// it: what it asked, where it looked, what it found and what it cost.
/// Only the exact searches are reported, not the depth-limited ones of
/// the first guess (`estimate.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestReport {
    /// The threshold: the search asked whether the future gain of the
    /// side to move is at least `beta`.
    pub beta: i32,
    /// The side to move in the position searched (the solve's root, or
    /// one of its children when the best move is sought).
    pub to_move: Side,
    /// Games whose positions can repeat: the horizon in plies and the side
    /// a position beyond it fails ([`cycles`], "Horizons"); `None`: no
    /// horizon.
    pub horizon: Option<(usize, Side)>,
    /// The search's fail-soft result: `result >= beta` says the future
    /// gain is at least `result`, `result < beta` that it is at most
    /// `result`, when [`Self::answers`].
    pub result: i32,
    /// Whether the result answers the test. When it does not, it leaned on
    /// the horizon against the side it fails, and the test goes on: with
    /// the horizon failing the other side, or farther.
    pub answers: bool,
    /// Nodes searched (those of every thread).
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Bounds on the root value while a solve runs, for progress displays,
/// and the reports of its searches when asked ([`Self::record_tests`]).
#[derive(Debug)]
pub struct Progress {
    /// Counters shared with the searchers.
    pub shared: Shared,
    /// Lower bound on the game value found so far.
    pub lower: AtomicI32,
    /// Upper bound on the game value found so far.
    pub upper: AtomicI32,
    /// Set by [`Progress::stop`]: the solve was stopped on request.
    interrupted: std::sync::atomic::AtomicBool,
    /// The searches' reports not yet taken, once [`Progress::record_tests`]
    /// asked for them (`None`: not kept).
    tests: std::sync::Mutex<Option<Vec<TestReport>>>,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            shared: Shared::default(),
            lower: AtomicI32::new(i32::MIN),
            upper: AtomicI32::new(i32::MAX),
            interrupted: std::sync::atomic::AtomicBool::new(false),
            tests: std::sync::Mutex::new(None),
        }
    }
}

impl Progress {
    /// Keeps a [`TestReport`] of every null-window search from now on,
    /// until [`Self::take_tests`] takes them (a trace of the solve: one
    /// report of a few dozen bytes a search, kept until taken).
    pub fn record_tests(&self) {
        let mut tests = self.tests.lock().unwrap_or_else(|e| e.into_inner());
        tests.get_or_insert_with(Vec::new);
    }

    /// The reports kept since the last call, oldest first (none unless
    /// [`Self::record_tests`] asked for them).
    pub fn take_tests(&self) -> Vec<TestReport> {
        let mut tests = self.tests.lock().unwrap_or_else(|e| e.into_inner());
        tests.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Keeps `report` if reports are asked for.
    fn report(&self, report: TestReport) {
        let mut tests = self.tests.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tests) = tests.as_mut() {
            tests.push(report);
        }
    }

    /// Stops the running solve as soon as it can (from another thread: a
    /// time limit, Ctrl-C). The solve then fails with
    /// [`SolveError::Stopped`], carrying the bounds on the value it had
    /// proven.
    pub fn stop(&self) {
        self.interrupted.store(true, Ordering::Relaxed);
        self.shared.stop.store(true, Ordering::Relaxed);
    }
}

/// MTD(f): the exact future gain of `pos` from null-window tests.
/// `test(beta, high)` must return a fail-soft bound for the window
/// `(beta - 1, beta)`, where `high` says which way the test is expected
/// to fail (high: `>= beta`; [`expects_high`]); `bounds(lo, hi)` hears
/// the bounds as they narrow. The search starts from the table's bounds,
/// within the exact `|g| <= board`, and from the table's lower bound as
/// its first guess; when the table knows nothing, from a shallow search's
/// estimate. A board the databases of `shared` cover needs no search at
/// all.
pub(crate) fn mtdf<R: Rules>(
    table: &Table,
    shared: &Shared,
    pos: &Position,
    test: impl FnMut(i32, bool) -> i32,
    mut bounds: impl FnMut(i32, i32),
) -> i32 {
    if let Some(g) = shared.db_gain(pos) {
        return g;
    }
    let mut moves = MoveList::new();
    if let Some(score) = R::generate(pos, &mut moves) {
        // A terminal position has no bound but its final allocation.
        return final_gain(pos, score);
    }
    let (mut lo, mut hi) = R::gain_bounds(pos);
    let mut guess = 0;
    if let Some(s) = crate::packed::PackedBoard::seen_by_mover(pos).and_then(|k| table.probe(k)) {
        lo = lo.max(i32::from(s.lower));
        hi = hi.min(i32::from(s.upper));
        guess = i32::from(s.lower);
    }
    if lo < hi {
        // A shallow search's guess ([`estimate`]), within what is known
        // (it may take seconds: the bounds are known before it).
        bounds(lo, hi);
        guess = estimate::first_guess::<R>(table, shared, pos);
    }
    converge(lo, hi, guess, test, bounds)
}

/// MTD(f)'s loop: null-window tests from `guess` until the bounds
/// `lo..=hi` (true bounds of the value) meet; the value.
fn converge(
    mut lo: i32,
    mut hi: i32,
    guess: i32,
    mut test: impl FnMut(i32, bool) -> i32,
    mut bounds: impl FnMut(i32, i32),
) -> i32 {
    let mut guess = guess.clamp(lo, hi);
    // Tests in a row that moved the bounds the same way: positive for
    // lower bounds raised, negative for upper bounds lowered; and whether
    // a long step overshot (from then on, bisection).
    let mut streak: i32 = 0;
    let mut bisect = false;
    while lo < hi {
        bounds(lo, hi);
        let beta = next_beta(lo, hi, guess, streak, bisect);
        let r = test(beta, expects_high(beta, guess, streak, bisect));
        let overshot = streak.abs() >= STEP_AFTER;
        if r < beta {
            hi = r.max(lo);
            bisect |= overshot && streak > 0;
            streak = streak.min(0) - 1;
        } else {
            lo = r.min(hi);
            bisect |= overshot && streak < 0;
            streak = streak.max(0) + 1;
        }
        guess = r;
    }
    lo
}

/// Whether MTD(f)'s test at `beta` is expected to fail high (`>= beta`),
/// with [`next_beta`]'s arguments: while its steps climb or descend (a
/// streak of [`STEP_AFTER`] or more tests that moved one bound), the way
/// they go; otherwise, whether the last result `guess`, taken as the
/// value, reaches `beta`. After a test that failed high at `r`, plain
/// MTD(f) tests `r + 1` and expects the value to be `r`: low; after one
/// that failed low at `r`, it tests `r`: high.
///
/// Only a hint: the games whose positions can repeat search first with
/// the horizon failing the side expected to win the test, whose result
/// is then a true bound ([`Solver::test`]).
fn expects_high(beta: i32, guess: i32, streak: i32, bisect: bool) -> bool {
    if !bisect && streak >= STEP_AFTER {
        true
    } else if !bisect && streak <= -STEP_AFTER {
        false
    } else {
        guess >= beta
    }
}

/// Tests in a row that must have moved the bounds the same way before
/// MTD(f) takes longer steps ([`next_beta`]).
const STEP_AFTER: i32 = 3;

/// The threshold of MTD(f)'s next test, with the bounds `lo < hi`, the
/// last result `guess`, `streak` tests in a row that raised the lower
/// bound (`streak > 0`) or lowered the upper bound (`streak < 0`), and
/// whether a long step overshot (`bisect`).
///
/// Plain MTD(f) tests at its last result, so a fail-soft result that
/// moves a bound by one seed moves it by one seed a test. When the
/// guess was far off, that is one test a seed of the distance: Dakon
/// 8x8's guess was 81 and its value 128, and it climbed in 24 tests of 1
/// to 7 s each. After [`STEP_AFTER`] tests in a row moved the same
/// bound, the step doubles each test (2, 4, 8, ... seeds past the bound),
/// within the other bound; once such a step overshoots (the test fails
/// the other way), the value lies within less than the step, and the
/// tests bisect what is left. Every test is still a null window strictly
/// inside `(lo, hi]`, so each one narrows the bounds and the value is
/// exact whatever the steps. Dakon 8x8 on 2 threads: 9 tests instead of
/// 24, 56.3 M interior nodes instead of 82.5 M, 52 s instead of 71 s.
/// Kalah's guesses are close: (4,6) and (5,4) within 2 % of the nodes.
fn next_beta(lo: i32, hi: i32, guess: i32, streak: i32, bisect: bool) -> i32 {
    debug_assert!(lo < hi);
    let step = |k: i32| 1i32 << (k.unsigned_abs() - STEP_AFTER as u32 + 1).min(24);
    if bisect {
        lo + (hi - lo + 1) / 2
    } else if streak >= STEP_AFTER {
        lo.saturating_add(step(streak)).min(hi)
    } else if streak <= -STEP_AFTER {
        hi.saturating_sub(step(streak) - 1).max(lo + 1)
    } else if guess <= lo {
        lo + 1
    } else {
        guess.min(hi)
    }
}

/// A solver's table kept while no solver holds it ([`Solver::into_learned`],
/// [`Solver::with_learned`]): the solves of `solve` and `analyse` above the
/// databases hand it across the builds of levels in memory.
pub struct Learned {
    table: Table,
    owner: Option<(&'static str, usize)>,
    /// Nodes that used the table: its growth goes on from them.
    tabled: u64,
    /// [`Solver::cut`].
    cut: Option<RootCut>,
}

/// A move that reached a lower bound at the root of a test: the root's
/// key, the bound (the future gain is at least `lower`) and the move's
/// code (`negamax::move_code`, the pit numbered from the mover's side, as
/// the table keeps it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RootCut {
    key: crate::packed::PackedBoard,
    lower: i32,
    best: u8,
}

/// An exact solver with its table and thread pool. Reuse it across solves
/// to keep what the table learned; a solve of another game or row length
/// clears the table first (keys do not encode them).
///
/// Solving takes `&mut self`: one solve at a time, so two solves can never
/// share the table, the counters or the stop flag (the table and flags are
/// shared only by the threads of one solve). Another thread can watch a
/// solve, or stop it, through the [`Progress`] handle of
/// [`Solver::progress`]. Two threads solving with one solver do not
/// compile:
///
/// ```compile_fail
/// use mancala::search::{Options, Solver};
/// use mancala::{games::Kalah, Variant};
/// let mut solver = Solver::new(Options::default());
/// let pos = "kalah:3x2".parse::<Variant>().unwrap().start();
/// std::thread::scope(|s| {
///     s.spawn(|| solver.solve::<Kalah>(&pos));
///     s.spawn(|| solver.solve::<Kalah>(&pos));
/// });
/// ```
pub struct Solver {
    table: Table,
    /// The game and row length the table's entries belong to: keys do not
    /// encode them, so the table is cleared when they change.
    owner: Option<(&'static str, usize)>,
    pool: rayon::ThreadPool,
    threads: usize,
    stack_bytes: usize,
    /// [`Options::horizon`].
    horizon: usize,
    progress: std::sync::Arc<Progress>,
    /// The move that proved the greatest lower bound at the root of a test
    /// so far, for [`Solver::best_move`] to try first: the table's entry
    /// for the root keeps the move of the *last* test, and after a test
    /// that failed low that is only the move with the highest upper bound.
    cut: std::sync::Mutex<Option<RootCut>>,
}

impl Solver {
    /// A solver with `options.tt_bytes` of table and `options.threads`
    /// threads.
    pub fn new(options: Options) -> Solver {
        let threads = options.threads.max(1);
        let stack_bytes = options.stack_bytes.max(64 << 10);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(stack_bytes)
            .start_handler(move |_| stack::mark(stack_bytes))
            .build()
            .expect("cannot start search threads");
        Solver {
            table: Table::with_bytes(options.tt_bytes),
            owner: None,
            pool,
            threads,
            stack_bytes,
            horizon: options.horizon,
            cut: std::sync::Mutex::new(None),
            progress: std::sync::Arc::new(Progress {
                shared: Shared {
                    region_limit: options.region_limit,
                    ..Shared::default()
                },
                ..Progress::default()
            }),
        }
    }

    /// The same solver, probing `db` (exact gains of every board with at
    /// most `db.max_seeds()` seeds) instead of searching those boards.
    /// Positions of another game or row length are refused by the solves.
    pub fn with_database(mut self, db: std::sync::Arc<dyn Tablebase>) -> Solver {
        let progress = std::sync::Arc::get_mut(&mut self.progress)
            .expect("no progress handle is given out before the databases are set");
        progress.shared.db = Some(db);
        self
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// A handle on the live counters of this solver's solves (nodes,
    /// bounds), for another thread to watch while a solve runs; setting its
    /// `shared.stop` makes the running solve return as soon as it can.
    pub fn progress(&self) -> std::sync::Arc<Progress> {
        std::sync::Arc::clone(&self.progress)
    }

    /// The transposition table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Clears the table if it holds entries of another game or board size.
    fn adopt<R: Rules>(&mut self, pos: &Position) -> Result<(), SolveError> {
        if let Some(db) = &self.progress.shared.db {
            if db.game() != R::NAME || db.n() != pos.n() {
                return Err(SolveError::WrongDatabase {
                    db_game: db.game(),
                    db_n: db.n(),
                    game: R::NAME,
                    n: pos.n(),
                });
            }
        }
        // A new table (fresh memory; the old one's is unmapped, and one
        // that no solve has used was never touched) when the game changes
        // or the position's keys are too wide for the table's layout: its
        // entries are 16 bytes when every key a search from `pos` meets
        // has a quotient in it (boards only lose seeds), else 32.
        let now = Some((R::NAME, pos.n()));
        let key_bits = crate::packed::bits_needed(2 * pos.n(), pos.board_seeds()) as u32;
        if self.owner != now || self.table.key_bits() < key_bits {
            self.table = Table::for_keys(self.table.bytes(), key_bits);
            self.owner = now;
            // Keys do not encode the game either.
            *self.cut.get_mut().unwrap_or_else(|e| e.into_inner()) = None;
        }
        Ok(())
    }

    /// After a solve: a failure clears the flags and turns them into its
    /// error; the table keeps what the solve stored.
    ///
    /// **Why a failed solve's table holds only true bounds.** Every failure
    /// (a stop on request, too many open positions, too little stack) sets
    /// the shared stop flag, and a searcher that sees it (every few
    /// thousand nodes, or at once where the stack or the open positions ran
    /// out) sets its `aborted`, which it never clears: from then on each of
    /// its nodes returns at entry, and each node it was inside returns
    /// after its move loop *before* it stores, settles a component or
    /// keeps a draft (`negamax::Searcher::search_in`). A split search
    /// marks its node aborted when a move was cut short and no sibling
    /// reached `beta` (a move cut short beside one that did is not needed:
    /// the cut rests on the finished sibling). The first guess stops the
    /// same way and stores nothing once stopped (`estimate`), and its
    /// entries are guesses in any case, never read as bounds. So every
    /// entry was stored by a node whose search finished, from results that
    /// finished: a true bound, as in a solve that ran to its end. MTD(f)'s
    /// own loop may go on a few tests with the meaningless results of
    /// stopped tests: it only chooses their windows, and a search is
    /// correct for any window. The same solver, or another one given the
    /// table ([`Solver::into_learned`]), then starts from them.
    fn outcome<T>(&mut self, result: T) -> Result<T, SolveError> {
        let shared = &self.progress.shared;
        let overflow = shared.overflow.swap(false, Ordering::Relaxed);
        let too_deep = shared.too_deep.swap(false, Ordering::Relaxed);
        let interrupted = self.progress.interrupted.swap(false, Ordering::Relaxed);
        if shared.stop.swap(false, Ordering::Relaxed) || overflow || too_deep || interrupted {
            if interrupted {
                let lo = self.progress.lower.load(Ordering::Relaxed);
                let hi = self.progress.upper.load(Ordering::Relaxed);
                return Err(SolveError::Stopped {
                    bounds: (lo != i32::MIN && hi != i32::MAX).then_some((lo, hi)),
                });
            }
            if too_deep {
                return Err(SolveError::TooDeep {
                    mib: self.stack_bytes >> 20,
                });
            }
            return Err(SolveError::TooLarge);
        }
        Ok(result)
    }

    /// The table, with the game it belongs to, for a later solver
    /// ([`Solver::with_learned`]); the rest of the solver (its threads, its
    /// databases) is dropped. Its guess entries are forgotten: a guess is a
    /// depth-limited value whose leaves are exact where the databases of
    /// its solver reach, so a later solver with more databases (more levels
    /// built in memory) guesses better without them, where they would cut
    /// its own iterations of the same depth with the worse values (an Akon
    /// position of 21 seeds handed on across a build with its guesses was
    /// answered in 145.7 s, without them in 58.9 s, one run each on two
    /// threads: `data/cycles.md`, "Stop 50"). The true bounds stay, even
    /// those of a solve that failed (`outcome`).
    pub fn into_learned(self) -> Learned {
        self.table.forget_guesses();
        Learned {
            table: self.table,
            owner: self.owner,
            tabled: self.progress.shared.tabled.load(Ordering::Relaxed),
            cut: self.cut.into_inner().unwrap_or_else(|e| e.into_inner()),
        }
    }

    /// This solver with the table of an earlier one ([`Solver::into_learned`])
    /// in place of its own, size and all: a solve of the same game and row
    /// length starts from every bound the earlier solves proved (a game
    /// value does not depend on the databases, table or horizons that bounded
    /// it: [`Solver::assume_bounds`]), and a solve of another clears it as
    /// usual. The table goes on growing from the nodes that filled it.
    pub fn with_learned(mut self, learned: Learned) -> Solver {
        self.table = learned.table;
        self.owner = learned.owner;
        self.cut = std::sync::Mutex::new(learned.cut);
        self.progress
            .shared
            .tabled
            .fetch_add(learned.tabled, Ordering::Relaxed);
        self
    }

    /// Takes bounds `lo..=hi` on the game value of `pos` (its mover's view,
    /// as [`SolveError::Stopped`] reports them) proven by an earlier search,
    /// so that the next solve of `pos` starts from them instead of proving
    /// them again: a solve stopped to build more levels in memory goes on
    /// after the build from what it had proven (`cli/extend.rs`).
    ///
    /// **Why this is sound.** A game value does not depend on the search
    /// that bounded it: bounds proven with other databases (exact ones
    /// never change a value, only how soon a search reaches it), another
    /// table or other horizons are true bounds of the same value. Less the
    /// seeds already captured they are true bounds of the future gain, what
    /// the table holds for the position (clipped to the seed bound, which
    /// holds too), so they go in as the position's entry, merged with
    /// anything it already knows, and MTD(f) starts inside them.
    /// Bounds that cannot be true (`lo > hi`, or disjoint from what the
    /// seed bound or the table knows) record nothing, nor do bounds on a
    /// position whose board is too wide for the table's keys.
    pub fn assume_bounds<R: Rules>(
        &mut self,
        pos: &Position,
        lo: i32,
        hi: i32,
    ) -> Result<(), SolveError> {
        self.adopt::<R>(pos)?;
        let Some(key) = crate::packed::PackedBoard::seen_by_mover(pos) else {
            return Ok(());
        };
        let captured = pos.lead(pos.to_move());
        let (floor, ceiling) = R::gain_bounds(pos);
        let (lower, upper) = ((lo - captured).max(floor), (hi - captured).min(ceiling));
        if lower > upper {
            return Ok(());
        }
        let new = tt::Stored {
            lower: lower as i16,
            upper: upper as i16,
            best: tt::NO_MOVE,
            work: 0,
        };
        self.table.update(key, |old| match old {
            // Disjoint bounds: keep what the table proved.
            Some(o) if o.lower > new.upper || new.lower > o.upper => o,
            Some(o) => negamax::merge(
                Some(o),
                tt::Stored {
                    best: o.best,
                    ..new
                },
            ),
            None => new,
        });
        Ok(())
    }

    /// Solves `pos` exactly under the rules `R`.
    pub fn solve<R: Rules>(&mut self, pos: &Position) -> Result<Solution, SolveError> {
        self.adopt::<R>(pos)?;
        let start_nodes = self.nodes();
        let start_interior = self.progress.shared.interior.load(Ordering::Relaxed);
        let start_untabled = self.progress.shared.untabled.load(Ordering::Relaxed);
        self.progress.lower.store(i32::MIN, Ordering::Relaxed);
        self.progress.upper.store(i32::MAX, Ordering::Relaxed);
        let captured = pos.lead(pos.to_move());
        let gain = self.gain::<R>(pos, captured);
        let gain = self.outcome(gain)?;
        let best = self.best_move::<R>(pos, gain);
        self.outcome(Solution {
            value: captured + gain,
            gain,
            best,
            nodes: self.nodes() - start_nodes,
            interior: self.progress.shared.interior.load(Ordering::Relaxed) - start_interior,
            untabled: self.progress.shared.untabled.load(Ordering::Relaxed) - start_untabled,
        })
    }

    /// The exact game value of every legal move of `pos`: the value of
    /// `pos` (side to move's view) if that move is played and both sides
    /// play perfectly afterwards. Empty on a terminal position.
    pub fn analyse<R: Rules>(&mut self, pos: &Position) -> Result<Vec<(Move, i32)>, SolveError> {
        self.adopt::<R>(pos)?;
        let mut moves = MoveList::new();
        if R::generate(pos, &mut moves).is_some() {
            return Ok(Vec::new());
        }
        let captured = pos.lead(pos.to_move());
        // The position's own solve first: it leaves in the table the bounds
        // and best moves its children's solves then start from.
        self.gain::<R>(pos, captured);
        let values = moves
            .iter()
            .map(|(m, child)| {
                let g = self.gain::<R>(child, 0);
                (*m, captured + through(pos, child, g))
            })
            .collect();
        // Bounds proven for one move's value say nothing of the others.
        self.outcome(values).map_err(|e| match e {
            SolveError::Stopped { .. } => SolveError::Stopped { bounds: None },
            e => e,
        })
    }

    /// A principal variation from `pos`: moves that keep the game value,
    /// played until the game ends, a position repeats (endless play from
    /// there: the seeds on the board go to nobody) or `max_plies` moves
    /// were made. Among the moves that keep the value it prefers one that
    /// captures, stores or ends the game, then one that reaches a position
    /// not yet on the line, so that the side that gains by making progress
    /// makes it.
    pub fn principal_variation<R: Rules>(
        &mut self,
        pos: &Position,
        max_plies: usize,
    ) -> Result<Line, SolveError> {
        let mut steps = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut at = *pos;
        seen.insert(at);
        loop {
            let mut moves = MoveList::new();
            if let Some(score) = R::generate(&at, &mut moves) {
                return Ok(Line {
                    steps,
                    end: LineEnd::Over(score),
                });
            }
            if steps.len() >= max_plies {
                return Ok(Line {
                    steps,
                    end: LineEnd::Limit,
                });
            }
            let values = self.analyse::<R>(&at)?;
            let best = values.iter().map(|&(_, v)| v).max().expect("a move");
            let progress = |child: &Position| {
                child.board_seeds() != at.board_seeds()
                    || R::generate(child, &mut MoveList::new()).is_some()
            };
            let keeping: Vec<(Move, Position)> = moves
                .iter()
                .zip(&values)
                .filter(|(_, &(_, v))| v == best)
                .map(|(&(m, child), _)| (m, child))
                .collect();
            let (m, child) = keeping
                .iter()
                .find(|(_, c)| progress(c))
                .or_else(|| keeping.iter().find(|(_, c)| !seen.contains(c)))
                .unwrap_or(&keeping[0]);
            steps.push((*m, *child));
            at = *child;
            if !seen.insert(at) {
                return Ok(Line {
                    steps,
                    end: LineEnd::Repetition,
                });
            }
        }
    }

    /// Nodes searched by this solver so far.
    pub fn nodes(&self) -> u64 {
        self.progress.shared.nodes.load(Ordering::Relaxed)
    }

    /// The exact future gain of `pos` by MTD(f); `captured` only offsets
    /// the bounds shown by [`Solver::progress`].
    fn gain<R: Rules>(&self, pos: &Position, captured: i32) -> i32 {
        // In the pool: the first guess searches in parallel too.
        let g = self.pool.install(|| {
            mtdf::<R>(
                &self.table,
                &self.progress.shared,
                pos,
                |beta, high| {
                    let v = self.test::<R>(pos, beta, high);
                    if v >= beta && !self.progress.shared.stop.load(Ordering::Relaxed) {
                        self.note_cut(pos, v);
                    }
                    v
                },
                |lo, hi| self.proven(captured + lo, captured + hi),
            )
        });
        self.proven(captured + g, captured + g);
        g
    }

    /// After a test at the root `pos` that proved its future gain at least
    /// `lower`: the move that cut there, which the test has just stored in
    /// the root's entry, becomes [`Solver::cut`] if its bound is the
    /// greatest so far (or the root is another position).
    fn note_cut(&self, pos: &Position, lower: i32) {
        let Some(key) = crate::packed::PackedBoard::seen_by_mover(pos) else {
            return;
        };
        let Some(best) = self
            .table
            .probe(key)
            .map(|s| s.best)
            .filter(|&b| b != tt::NO_MOVE)
        else {
            return;
        };
        let mut cut = self.cut.lock().unwrap_or_else(|e| e.into_inner());
        if cut.is_none_or(|c| c.key != key || c.lower < lower) {
            *cut = Some(RootCut { key, lower, best });
        }
    }

    /// Records proven bounds on the value for [`Solver::progress`], unless
    /// the solve was stopped: the tests cut short by a stop return
    /// meaningless values, and the bounds proven before them must stay.
    fn proven(&self, lo: i32, hi: i32) {
        if !self.progress.shared.stop.load(Ordering::Relaxed) {
            self.progress.lower.store(lo, Ordering::Relaxed);
            self.progress.upper.store(hi, Ordering::Relaxed);
        }
    }

    /// A fail-soft bound from the null window `(beta - 1, beta)` around the
    /// future gain of `pos` (searched with an empty history).
    ///
    /// In the games whose positions can repeat, with a horizon
    /// ([`Options::horizon`]): searched to the horizon twice, first with
    /// the horizon failing the side expected to win the test (the side to
    /// move when `high`, the test expected to fail high), then the other,
    /// until a result is a true bound (`cycles`, "Horizons"): one that did
    /// not depend on the horizon, or one that favours the side the horizon
    /// failed. Then farther ([`next_horizon`]), and so on; the stack guard
    /// still ends a search that goes deeper than the threads' stacks.
    ///
    /// The expected winner first: when the expectation holds, one search
    /// a round answers. On issue 20's Akon position `N
    /// 2,2,2,2,0,1,0/2,5,1,1,1,2,0 24-25` (databases to 8), the test that
    /// failed low at 32 plies cost 107 M nodes failing the side to move
    /// and then 82 M failing the opponent; opponent first, 126 M
    /// (`data/cycles.md`, "Stop 44").
    fn test<R: Rules>(&self, pos: &Position, beta: i32, high: bool) -> i32 {
        let shared = &self.progress.shared;
        self.pool.install(|| {
            let to_move = pos.to_move();
            let report = |s: &Searcher<R>, v, horizon, answers, begun: std::time::Instant| {
                if !s.aborted {
                    self.progress.report(TestReport {
                        beta,
                        to_move,
                        horizon,
                        result: v,
                        answers,
                        nodes: s.nodes,
                        seconds: begun.elapsed().as_secs_f64(),
                    });
                }
            };
            if !R::CYCLIC || self.horizon == 0 {
                let begun = std::time::Instant::now();
                let mut s = Searcher::<R>::new(&self.table, shared);
                let v = s.search(pos, beta - 1, beta);
                s.flush();
                report(&s, v, None, true, begun);
                return v;
            }
            let me = pos.to_move() as u8;
            // The side expected to win the test first: the horizon
            // failing it, its result is a true bound if it does win.
            let first = if high { me } else { 1 - me };
            let mut horizon = self.horizon;
            loop {
                for fails in [first, 1 - first] {
                    let begun = std::time::Instant::now();
                    let mut s = Searcher::<R>::new(&self.table, shared);
                    s.horizon = horizon;
                    s.fails = Some(fails);
                    let v = s.search(pos, beta - 1, beta);
                    s.flush();
                    let answers = !s.child_tainted || cycles::favours(me, v >= beta, fails);
                    let failed = Side::BOTH[usize::from(fails)];
                    report(&s, v, Some((horizon, failed)), answers, begun);
                    if s.aborted || answers {
                        return v;
                    }
                }
                horizon = next_horizon(horizon);
            }
        })
    }

    /// A move of `pos` whose value is `gain`, the future gain of `pos`.
    ///
    /// Each move is tested in turn until one keeps the value. First the
    /// move that proved the lower bound `gain` at the root ([`Solver::cut`],
    /// from a test of this solver or of the one whose table it took): it
    /// keeps the value, and its child's bound was stored by that test, so
    /// its test is usually answered at once (it is tested all the same: a
    /// move read from the table is only a hint, and every move returned
    /// passed its test). Then the table's best move for
    /// `pos`, which the last test of MTD(f) left there. Then the others,
    /// any of whose tests may cost a search as large as the solve's own.
    /// Tested in the order of the pits, the `akon:7x5` position `S
    /// 1,1,1,2,0,1,3/2,3,3,1,1,1,1 0-0` (databases to 8, 2 threads) had its
    /// value within 40 s and its move after 82.9 s; with the table's move
    /// first, 40.3 s in all. The table's move alone fails where the last
    /// test failed low: it then holds the move with the highest upper
    /// bound, which need not keep the value. `akon` `N
    /// 1,0,2,1,0,0,0/3,1,2,3,4,1,3 24-25` (databases to 8, 2 threads) had
    /// its value after about 45 s, its lower bound proven before a build
    /// of level 14 and its upper bound after it; the table's move did not
    /// keep the value, and the others' tests took the rest of its 102 s,
    /// a build of level 15 among them.
    fn best_move<R: Rules>(&self, pos: &Position, gain: i32) -> Option<Move> {
        let mut moves = MoveList::new();
        if R::generate(pos, &mut moves).is_some() {
            return None;
        }
        let key = crate::packed::PackedBoard::seen_by_mover(pos);
        let cut = *self.cut.lock().unwrap_or_else(|e| e.into_inner());
        let cut_move = cut
            .filter(|c| Some(c.key) == key && c.lower >= gain)
            .map(|c| c.best);
        let table_move = key.and_then(|k| self.table.probe(k)).map(|s| s.best);
        let rank = |m: Move| {
            let code = Some(negamax::move_code(m));
            if code == cut_move {
                0
            } else if code == table_move {
                1
            } else {
                2
            }
        };
        let mut order: Vec<usize> = (0..moves.len()).collect();
        // Stable: the others stay in the order of the pits.
        order.sort_by_key(|&i| rank(moves[i].0));
        for (m, child) in order.iter().map(|&i| &moves[i]) {
            let c = crate::games::move_gain(pos, child);
            // Each test is expected to show that the move keeps the
            // value (the table's move, tested first, usually does).
            let keeps = if child.to_move() == pos.to_move() {
                // Needs g(child) >= gain - c.
                self.test::<R>(child, gain - c, true) >= gain - c
            } else {
                // Needs g(child) <= c - gain.
                self.test::<R>(child, c - gain + 1, false) <= c - gain
            };
            if keeps || self.progress.shared.stop.load(Ordering::Relaxed) {
                return Some(*m);
            }
        }
        unreachable!("some move keeps the value of {pos}")
    }
}

/// One move of random play from `pos`: the move that `draw`'s bits from
/// 33 on pick among the moves in the order `R` generates them, `draw`
/// called only when there is a move; `None` when the game is over. For
/// the tests that walk into games with a generator of their own.
#[cfg(test)]
pub(crate) fn random_move<R: Rules>(
    pos: &Position,
    draw: impl FnOnce() -> u64,
) -> Option<Position> {
    let mut moves = MoveList::new();
    if R::generate(pos, &mut moves).is_some() {
        return None;
    }
    Some(moves[(draw() >> 33) as usize % moves.len()].1)
}

/// Checks every entry of `entries` (a table's true entries, see
/// [`Table::true_entries`]): the bounds it holds must hold the exact gain
/// of its board, which `exact` (a solver with a table of its own) finds
/// afresh; `context` names the case in the panic. For the tests of what a
/// search leaves in its table.
#[cfg(test)]
pub(crate) fn assert_entries_hold_exact<R: Rules>(
    exact: &mut Solver,
    n: usize,
    entries: impl IntoIterator<Item = (crate::packed::PackedBoard, tt::Stored)>,
    context: &str,
) {
    for (key, st) in entries {
        let board = key.unpack(n, [0, 0]).unwrap();
        let g = exact.solve::<R>(&board).unwrap().gain;
        assert!(
            i32::from(st.lower) <= g && g <= i32::from(st.upper),
            "{context}: {board}: stored {}..={}, exact {g}",
            st.lower,
            st.upper
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With [`Progress::record_tests`], every null-window search of a value
    /// is reported: from the root, with a horizon exactly in the games
    /// whose positions can repeat, with nodes that are part of the
    /// solve's; the answering ones are true bounds of the gain and pin it
    /// (the greatest success and the least failure are the value found);
    /// in Akon some searches leaned on the horizon and say they do not
    /// answer. Without the call, nothing is kept.
    #[test]
    fn every_test_is_reported_and_the_answers_pin_the_value() {
        use crate::games::{Akon, Kalah};
        fn check<R: Rules>(variant: &str, record: bool) {
            let pos = variant.parse::<crate::Variant>().unwrap().start();
            let mut solver = Solver::new(Options {
                threads: 1,
                tt_bytes: 16 << 20,
                ..Options::default()
            });
            if record {
                solver.progress().record_tests();
            }
            solver.adopt::<R>(&pos).unwrap();
            let gain = solver.gain::<R>(&pos, 0);
            let reports = solver.progress().take_tests();
            if !record {
                assert!(reports.is_empty(), "{variant}: {reports:?}");
                return;
            }
            assert!(!reports.is_empty(), "{variant}");
            let nodes: u64 = reports.iter().map(|r| r.nodes).sum();
            assert!(nodes > 0 && nodes <= solver.nodes(), "{variant}: {nodes}");
            let (mut lowest_no, mut highest_yes) = (i32::MAX, i32::MIN);
            for r in &reports {
                assert_eq!(r.to_move, pos.to_move(), "{variant}: {r:?}");
                assert_eq!(r.horizon.is_some(), R::CYCLIC, "{variant}: {r:?}");
                if !r.answers {
                    continue;
                }
                if r.result >= r.beta {
                    assert!(gain >= r.result, "{variant}: {gain} {r:?}");
                    highest_yes = highest_yes.max(r.result);
                } else {
                    assert!(gain <= r.result, "{variant}: {gain} {r:?}");
                    lowest_no = lowest_no.min(r.result);
                }
            }
            assert_eq!(
                (highest_yes, lowest_no),
                (gain, gain),
                "{variant}: {reports:?}"
            );
            assert_eq!(reports.iter().any(|r| !r.answers), R::CYCLIC, "{variant}");
            assert!(solver.progress().take_tests().is_empty(), "taken once");
        }
        check::<Kalah>("kalah:4x3", true);
        check::<Akon>("akon:4x3", true);
        check::<Akon>("akon:4x3", false);
    }

    /// Bounds proven by another search ([`Solver::assume_bounds`]): a
    /// solve that starts from any true bounds finds the same value, from
    /// the value itself with no test at all; bounds that cannot hold record
    /// nothing, and the solve is the fresh one node for node. Positions a
    /// few moves into Kalah 4x3 and Akon 4x3 (which can repeat), values
    /// from a fresh solve, on one thread (node counts are then fixed).
    /// (Looser bounds change MTD(f)'s tests, not always to fewer nodes:
    /// Akon 4x3 after pit 1, from −1..=1, took 2.68 M against 2.57 M.)
    #[test]
    fn a_solve_starts_from_bounds_proven_before() {
        use crate::games::{Akon, Kalah};
        fn check<R: Rules>(variant: &str, line: &[u8]) {
            let mut pos = variant.parse::<crate::Variant>().unwrap().start();
            for &pit in line {
                let mut moves = MoveList::new();
                assert!(R::generate(&pos, &mut moves).is_none());
                pos = moves.iter().find(|(m, _)| *m == Move::Pit(pit)).unwrap().1;
            }
            let solver = || {
                Solver::new(Options {
                    threads: 1,
                    tt_bytes: 16 << 20,
                    ..Options::default()
                })
            };
            let fresh = solver().solve::<R>(&pos).unwrap();
            let v = fresh.value;
            for (lo, hi) in [(v, v), (v - 1, v + 1), (v - 3, v), (v, v + 4)] {
                let mut s = solver();
                s.assume_bounds::<R>(&pos, lo, hi).unwrap();
                let got = s.solve::<R>(&pos).unwrap();
                assert_eq!(got.value, v, "{variant} {pos} from {lo}..={hi}");
            }
            // The value alone, from itself: no node searched.
            let mut s = solver();
            s.assume_bounds::<R>(&pos, v, v).unwrap();
            let captured = pos.lead(pos.to_move());
            assert_eq!(s.gain::<R>(&pos, captured), v - captured);
            assert_eq!(s.nodes(), 0, "{variant} {pos}");
            // Bounds that cannot hold: none at all, or outside the seed
            // bound.
            let far = captured + pos.board_seeds() as i32 + 1;
            for (lo, hi) in [(v + 1, v - 1), (far, far + 5)] {
                let mut s = solver();
                s.assume_bounds::<R>(&pos, lo, hi).unwrap();
                let got = s.solve::<R>(&pos).unwrap();
                assert_eq!((got.value, got.nodes), (v, fresh.nodes), "{lo}..={hi}");
            }
        }
        check::<Kalah>("kalah:4x3", &[1, 3]);
        check::<Kalah>("kalah:4x3", &[2]);
        check::<Akon>("akon:4x3", &[2, 3]);
        check::<Akon>("akon:4x3", &[4, 1, 3]);
    }

    /// A solve stopped part-way (2 threads, so that splits are cut short
    /// too; Kalah 4x4 and Akon 4x3, which can repeat) leaves only true
    /// bounds in its table (`Solver::outcome`): the entries of the most
    /// work, those whose searches were the largest, each hold the value a
    /// fresh solve of its board finds. A solver given that table
    /// (`Solver::with_learned`) finds the value of a fresh solve.
    #[test]
    fn a_stopped_solve_leaves_only_true_bounds() {
        use crate::games::{Akon, Kalah};
        fn check<R: Rules>(variant: &str, stop_ms: u64) -> bool {
            let v: crate::Variant = variant.parse().unwrap();
            let pos = v.start();
            let mut solver = Solver::new(Options {
                threads: 2,
                tt_bytes: 16 << 20,
                ..Options::default()
            });
            // The wide layout, whose entries hold their whole keys.
            solver.table = Table::with_bytes(16 << 20);
            solver.owner = Some((R::NAME, v.n()));
            let progress = solver.progress();
            let result = std::thread::scope(|scope| {
                scope.spawn(|| {
                    std::thread::sleep(std::time::Duration::from_millis(stop_ms));
                    progress.stop();
                });
                solver.solve::<R>(&pos)
            });
            let stopped = matches!(result, Err(SolveError::Stopped { .. }));
            let mut exact = Solver::new(Options {
                threads: 1,
                tt_bytes: 64 << 20,
                ..Options::default()
            });
            let mut entries = solver.table.true_entries();
            assert!(entries.len() > 100, "{variant}: {} entries", entries.len());
            entries.sort_by_key(|(_, st)| std::cmp::Reverse(st.work));
            let context = format!("{variant}, stopped after {stop_ms} ms");
            assert_entries_hold_exact::<R>(
                &mut exact,
                v.n(),
                entries.into_iter().take(150),
                &context,
            );
            let value = exact.solve::<R>(&pos).unwrap().value;
            let mut next = Solver::new(Options {
                threads: 2,
                tt_bytes: 16 << 20,
                ..Options::default()
            })
            .with_learned(solver.into_learned());
            assert_eq!(next.solve::<R>(&pos).unwrap().value, value, "{variant}");
            stopped
        }
        let mut stopped = 0;
        for ms in [20, 60, 150] {
            stopped += usize::from(check::<Kalah>("kalah:4x4", ms));
            stopped += usize::from(check::<Akon>("akon:4x3", ms));
        }
        // On a machine fast enough to finish before a stop, the check is of
        // finished solves; at least some must have been stopped.
        assert!(stopped >= 2, "only {stopped} of 6 solves were stopped");
    }

    /// After the value, the best move costs a small part of the solve: the
    /// table's move is tested first, and its child's bounds are in the
    /// table. Start positions where the first move in pit order is not a
    /// best one, so that testing in pit order would search it first (the
    /// test fails so: 90,299 nodes for the move of `kalah:6x3` against
    /// 731,371 for its value).
    /// After MTD(f), [`Solver::cut`] holds a move that proved the value's
    /// lower bound at the root, and it keeps the value (another solver
    /// solves its child); handed to a later solver with the table
    /// ([`Solver::into_learned`]), it is the move that solver's
    /// `best_move` tries first, found at a small part of the value's
    /// cost.
    #[test]
    fn the_move_that_proved_the_value_is_kept_and_handed_on() {
        use crate::games::{Akon, Awari, Kalah};
        // Positions of random play from the start (a fixed linear
        // congruential sequence), every fifth ply up to 40.
        fn positions<R: Rules>(variant: &str) -> Vec<Position> {
            let mut pos = variant.parse::<crate::Variant>().unwrap().start();
            let mut x: u64 = 0x2545_f491_4f6c_dd1d;
            let mut out = Vec::new();
            for ply in 1..=40 {
                let draw = || {
                    x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    x
                };
                let Some(next) = random_move::<R>(&pos, draw) else {
                    break;
                };
                pos = next;
                if ply % 5 == 0 {
                    out.push(pos);
                }
            }
            out
        }
        fn check<R: Rules>(variant: &str) -> usize {
            let options = Options {
                threads: 1,
                tt_bytes: 16 << 20,
                ..Options::default()
            };
            let mut other = Solver::new(options);
            let mut differs = 0;
            for pos in positions::<R>(variant) {
                let mut solver = Solver::new(options);
                solver.adopt::<R>(&pos).unwrap();
                let gain = solver.gain::<R>(&pos, 0);
                let Some(cut) = *solver.cut.lock().unwrap() else {
                    // Proven without a test that cut at the root: a
                    // terminal position, a database board, or every
                    // test failing low at the seed bound.
                    continue;
                };
                assert_eq!(cut.lower, gain, "{variant} {pos}");
                // The move keeps the value, by another solver.
                let mut moves = MoveList::new();
                R::generate(&pos, &mut moves);
                let &(m, child) = moves
                    .iter()
                    .find(|(m, _)| negamax::move_code(*m) == cut.best)
                    .expect("a legal move");
                let c = crate::games::move_gain(&pos, &child);
                let g = other.solve::<R>(&child).unwrap().gain;
                let kept = if child.to_move() == pos.to_move() {
                    c + g
                } else {
                    c - g
                };
                assert_eq!(kept, gain, "{variant} {pos}: move {m}");
                let table_move = crate::packed::PackedBoard::seen_by_mover(&pos)
                    .and_then(|k| solver.table.probe(k))
                    .map(|s| s.best);
                differs += usize::from(table_move != Some(cut.best));
                // Handed on with the table, and tried first.
                let value_nodes = solver.nodes();
                let mut next = Solver::new(options).with_learned(solver.into_learned());
                next.adopt::<R>(&pos).unwrap();
                assert_eq!(next.best_move::<R>(&pos, gain), Some(m), "{variant} {pos}");
                assert!(
                    next.nodes() * 10 <= value_nodes.max(10),
                    "{variant} {pos}: {} nodes for the move, {value_nodes} for the value",
                    next.nodes()
                );
            }
            differs
        }
        // The table's own move at the root is not always the one that cut
        // (the last test failed low there): so the order, the cut's move
        // first, is what the `best_move` check above shows, not chance.
        let differs = check::<Kalah>("kalah:4x4")
            + check::<Kalah>("kalah:5x3")
            + check::<Akon>("akon:4x3")
            + check::<Awari>("awari:4x2");
        assert!(differs > 0);
    }

    #[test]
    fn the_best_move_is_found_from_the_table_at_little_cost() {
        use crate::games::{Akon, Kalah};
        fn check<R: Rules>(variant: &str) {
            let pos = variant.parse::<crate::Variant>().unwrap().start();
            let mut solver = Solver::new(Options {
                threads: 1,
                tt_bytes: 64 << 20,
                ..Options::default()
            });
            solver.adopt::<R>(&pos).unwrap();
            let gain = solver.gain::<R>(&pos, 0);
            let before = solver.nodes();
            let best = solver.best_move::<R>(&pos, gain).unwrap();
            let cost = solver.nodes() - before;
            let mut moves = MoveList::new();
            R::generate(&pos, &mut moves);
            let (_, first) = moves[0];
            let c = crate::games::move_gain(&pos, &first);
            let first_value = if first.to_move() == pos.to_move() {
                c + solver.gain::<R>(&first, 0)
            } else {
                c - solver.gain::<R>(&first, 0)
            };
            assert!(
                first_value < gain,
                "{variant}: pit order finds a best move first"
            );
            assert_ne!(best, moves[0].0, "{variant}");
            assert!(
                cost * 100 <= before,
                "{variant}: {cost} nodes for the move, {before} for the value"
            );
        }
        check::<Kalah>("kalah:5x3");
        check::<Kalah>("kalah:6x3");
        check::<Akon>("akon:4x3");
    }

    /// On two threads a thread with nothing to do gets the moves left at
    /// the node the other is searching (`Searcher::helps`): it happens in
    /// every Kalah solve of some size, every split gives back the count of
    /// searchers at work it took (so the count cannot drift and make the
    /// splits stop or never end), and the values are the published ones
    /// (Irving, Donkers and Uiterwijk 2000, table 9).
    #[test]
    fn an_idle_thread_gets_the_moves_left_and_the_values_stay_exact() {
        use crate::games::Kalah;
        use std::sync::atomic::Ordering::Relaxed;
        let mut solver = Solver::new(Options {
            threads: 2,
            tt_bytes: 64 << 20,
            ..Options::default()
        });
        let shared = &solver.progress.clone().shared;
        for (variant, published) in [("kalah:4x4", 2), ("kalah:6x3", 2), ("kalah:5x4", 12)] {
            let pos = variant.parse::<crate::Variant>().unwrap().start();
            let before = shared.helped.load(Relaxed);
            let solved = solver.solve::<Kalah>(&pos).unwrap();
            assert_eq!(solved.value, published, "{variant}");
            assert!(shared.helped.load(Relaxed) > before, "{variant}: no help");
            assert_eq!(shared.working.load(Relaxed), 0, "{variant}");
        }
    }

    /// A position and its mirror image (rows and captures swapped, the
    /// other side to move) share the table's entries
    /// (`PackedBoard::seen_by_mover`): once one is solved, the other's
    /// future gain is read from the table without a node searched, and it
    /// is the one a fresh solver finds by search. With keys of the board
    /// and the absolute side to move, the second solve searched as much as
    /// the first.
    #[test]
    fn a_mirror_image_is_answered_from_the_table() {
        use crate::games::{Akon, Kalah};
        fn check<R: Rules>(variant: &str) {
            let mut pos = variant.parse::<crate::Variant>().unwrap().start();
            // Into the game, North to move.
            let mut moves = MoveList::new();
            while pos.to_move() == crate::side::Side::South {
                assert!(R::generate(&pos, &mut moves).is_none());
                pos = moves[moves.len() / 2].1;
            }
            let s = pos.to_setup();
            let mirror = Position::from_setup(&crate::Setup {
                to_move: s.to_move.other(),
                south: s.north,
                north: s.south,
                captured: crate::ByPlayer::new(s.captured.north, s.captured.south),
            })
            .unwrap();
            let options = || Options {
                threads: 1,
                tt_bytes: 64 << 20,
                ..Options::default()
            };
            let mut solver = Solver::new(options());
            solver.adopt::<R>(&pos).unwrap();
            let gain = solver.gain::<R>(&pos, 0);
            let before = solver.nodes();
            assert!(before > 1000, "{variant}: a real search, {before} nodes");
            assert_eq!(solver.gain::<R>(&mirror, 0), gain, "{variant}");
            assert_eq!(solver.nodes(), before, "{variant}: nodes for the mirror");
            let mut fresh = Solver::new(options());
            fresh.adopt::<R>(&mirror).unwrap();
            assert_eq!(fresh.gain::<R>(&mirror, 0), gain, "{variant}");
        }
        check::<Kalah>("kalah:5x3");
        check::<Akon>("akon:4x3");
    }

    /// A test of the null window `(beta - 1, beta)` around `value` that
    /// gives away as little as fail-soft allows: `beta` or `beta - 1`.
    fn stingy(value: i32, calls: &mut u32) -> impl FnMut(i32, bool) -> i32 + '_ {
        move |beta, _| {
            *calls += 1;
            if value >= beta {
                beta
            } else {
                beta - 1
            }
        }
    }

    #[test]
    fn mtdf_finds_every_value_from_every_guess_in_few_tests() {
        let (lo, hi) = (-40, 40);
        for value in lo..=hi {
            for guess in [lo, -7, 0, 3, hi] {
                let mut calls = 0;
                let g = converge(lo, hi, guess, stingy(value, &mut calls), |a, b| {
                    assert!(a <= value && value <= b, "{a}..={b} excludes {value}")
                });
                assert_eq!(g, value, "guess {guess}");
                // Plain MTD(f) needs a test per seed of distance (81
                // from -40 to 40); with longer steps at most a few tests
                // per doubling.
                let distance = (value - guess).unsigned_abs();
                assert!(
                    calls <= 2 * STEP_AFTER as u32 + 2 * (32 - distance.leading_zeros()) + 2,
                    "{calls} tests from {guess} to {value}"
                );
            }
        }
    }

    /// The thresholds MTD(f) tests from `guess` to `value`.
    fn thresholds(value: i32, guess: i32) -> Vec<i32> {
        let mut betas = Vec::new();
        let mut calls = 0;
        let mut test = stingy(value, &mut calls);
        let g = converge(
            -100,
            100,
            guess,
            |beta, high| {
                betas.push(beta);
                test(beta, high)
            },
            |_, _| {},
        );
        assert_eq!(g, value);
        betas
    }

    #[test]
    fn a_close_guess_keeps_plain_mtdf_steps_and_a_far_one_takes_long_ones() {
        // Plain MTD(f) while the tests go the same way at most STEP_AFTER
        // times in a row.
        assert_eq!(thresholds(3, 2), [2, 3, 4]);
        assert_eq!(thresholds(-1, 1), [1, 0, -1]);
        // Then steps of 2, 4, 8, 16 past the bound, and bisection once
        // one overshoots (18 -> 17, 16 -> 15 ..., here 33 -> 32 -> 31).
        assert_eq!(thresholds(30, 2), [2, 3, 4, 6, 10, 18, 34, 26, 30, 32, 31]);
        assert_eq!(
            thresholds(-30, -2),
            [-2, -3, -4, -6, -10, -18, -34, -26, -30, -28, -29]
        );
    }

    #[test]
    fn horizons_grow_by_short_steps_then_by_a_quarter_and_stay_even() {
        let mut h = DEFAULT_HORIZON;
        let mut seen = vec![h];
        while h < 100 {
            h = next_horizon(h);
            seen.push(h);
        }
        assert_eq!(seen, [16, 20, 24, 28, 32, 36, 40, 44, 48, 60, 74, 92, 114]);
        for h in 0..10_000 {
            let next = next_horizon(h);
            assert!(next > h && next.is_multiple_of(2), "{h} -> {next}");
        }
        assert_eq!(next_horizon(usize::MAX), usize::MAX & !1);
    }

    #[test]
    fn tests_are_expected_to_fail_the_way_mtdf_goes() {
        // Plain steps: the last result taken as the value.
        assert!(!expects_high(4, 3, 1, false));
        assert!(expects_high(3, 3, -1, false));
        // Long steps: the way they climb or descend.
        assert!(expects_high(10, 6, STEP_AFTER, false));
        assert!(!expects_high(-10, -6, -STEP_AFTER, false));
        // Bisection: the last result again.
        assert!(!expects_high(10, 6, STEP_AFTER, true));
    }

    #[test]
    fn the_next_threshold_lies_strictly_inside_the_bounds() {
        for lo in -6..6 {
            for hi in lo + 1..8 {
                for guess in lo..=hi {
                    for streak in -40..40 {
                        for bisect in [false, true] {
                            let beta = next_beta(lo, hi, guess, streak, bisect);
                            assert!(
                                lo < beta && beta <= hi,
                                "{lo} {hi} {guess} {streak}: {beta}"
                            );
                        }
                    }
                }
            }
        }
    }
}
