//! Levels built in memory above a database, for one solve.
//!
//! A position a few seeds above the databases of a game whose positions
//! can repeat may be beyond the search (`search::cycles`: one null-window
//! test costs about the capture-free component it crosses, which in Awari
//! is most of every level crossed), yet the levels between the databases
//! and the position may be small enough to build in a few seconds: Awari's
//! levels 13 to 18 are 84 M boards, 84 MB once built, about 22 s on two
//! threads by propagation. [`Extended`] is a [`Tablebase`] made of a
//! database on disk (levels `0..from`, or none) and of the levels
//! `from..=top` built in memory by the same builders as `db build`
//! ([`mod@super::build_all`]'s choice of method), never written to disk.
//!
//! **In stages.** A solve may build its levels in more than one stage
//! ([`stages`]): the lowest levels that build within seconds first, the
//! others later, on them ([`Extended::grow`], [`Plan::above`]), if the
//! search with the first still does not answer.
//!
//! **Memory.** A level built in memory keeps one byte a board; while level
//! `k` is built, its working memory (as `db build` plans it) and the copy
//! of its gains come on top of the levels below it. [`plan`] counts the
//! peak of all that, which the caller checks against its budget before
//! anything is allocated; the levels of the database on disk are mapped
//! files, not counted (as in `db build`'s announcement they are
//! the page cache's).
//!
//! **Exactness.** Each level is computed exactly as `db build` computes
//! it, from exact lower levels, so its bytes are those of the level file
//! (the tests compare them).
//!
//! **Only the levels a search can reach.** A move that takes seeds off the
//! board takes at least [`Rules::LEAST_TAKEN`], and a multiple of
//! [`Rules::TAKEN_BY`] unless it empties the board (`tests/it/unmoves.rs`
//! checks both on every board of many levels), so from a board of `top`
//! seeds a search meets boards of `top` seeds, of `top - LEAST_TAKEN` or
//! fewer that differ from `top` by a multiple of `TAKEN_BY`, and the empty
//! board, never the others; and the levels it meets are closed under the
//! same rule (a level's build reads only levels a move reaches from it).
//! The others are left out ([`Plan::levels`]): Awari's 17 of 13..=18 (21.5
//! M of 83.8 M boards), Anywoli's 9 of 9..=10 (28 M of 121 M), and from
//! 16 seeds over databases to 8 its 9, 10 and 11 (Anywoli takes fours:
//! 12 and 16 are the levels met; before, the search of issue 20's
//! position built 9 and 10, 58 s of its 120, for nothing), Djenon-abe's
//! every other level (it takes pits of two and four). A left-out level
//! holds no byte, and [`Extended::gain`] does not answer for it.

use super::build::Progress;
use super::build_all::{plan as plan_level, Method, Way};
use super::probe::{canonical_rank, Database, Level, Tablebase};
use crate::games::Rules;
use crate::index::Indexer;
use crate::position::Position;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Boards a thread builds a second, by each method, as measured on the
/// development machine (2 cores, `db build --threads 2`, the rate per
/// thread): Awari's levels 16 to 20 by propagation over unmoves (1.7 to
/// 1.9 M boards/s a thread); over recorded edges, Akon's levels 13 and 14
/// (1.0 to 1.1 M) and Anywoli's level 10 (0.9 M); by sweeps, Akon's
/// levels 13 and 14 (1.0 M) and 15 and 16 (0.84 M: the larger levels take
/// more sweeps). Only for [`Plan::seconds`], an estimate: with these, the
/// Akon plan of levels 9 to 18 (471 M boards) is estimated at 268 s on 2
/// threads and was built in 277 s, Anywoli's level 10 at 49 s and built in
/// 51 s. Since the builds over recorded edges record from the last sweep's
/// moves ([`super::edges`]) they run a quarter faster (Akon's levels 13
/// to 15 at 1.5 to 1.7 M boards/s a thread, Anywoli's level 9 at 1.4 M);
/// the estimate keeps the rate above, on which the stages' seconds were
/// measured and chosen ([`CYCLIC_LEVELS_SECONDS`], [`LATER_SEARCH_SHARE`]),
/// so it now overstates those builds by about a third.
///
/// In a game whose positions cannot repeat (Kalah) the sweeps go faster
/// (about 9 a level: `build_all::Method`'s docs): Kalah's levels 0 to 14
/// and 0 to 16 with 6 pits (9.7 M and 30.4 M boards) took 1.3 and 5.0 s
/// on 2 threads, 3.7 and 3.0 M boards a second a thread.
fn boards_per_second<R: Rules>(way: Way) -> f64 {
    match way {
        Way::Sweep if !R::CYCLIC => 3.0e6,
        Way::Unmoves => 1.7e6,
        Way::Edges(_) => 0.95e6,
        Way::Sweep => 0.8e6,
    }
}

/// What building the levels `from..=top` in memory costs.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Pits a row of the boards the levels hold.
    pub n: usize,
    /// The first level to build (the levels below it are the database's).
    pub from: usize,
    /// The last level to build.
    pub top: usize,
    /// The levels to build, in increasing order: `from..=top` less those
    /// no search from a board of `top` seeds can reach (module docs).
    pub levels: Vec<usize>,
    /// Boards of the levels to build, in all.
    pub boards: u64,
    /// Bytes at the peak of the builds (see the module docs).
    pub peak_bytes: u64,
    /// Bytes the built levels keep while they are probed.
    pub kept_bytes: u64,
    /// The share of the estimated build a search runs for before the
    /// build ([`Plan::search_first`]).
    search_share: f64,
    /// Single-thread seconds of the builds, estimated from measured rates.
    thread_seconds: f64,
}

/// The share of a plan's estimated seconds a solver should search before
/// it builds the levels (see [`Plan::search_first`]).
pub const SEARCH_FIRST_SHARE: f64 = 0.25;

/// In the games whose positions cannot repeat, the estimated seconds
/// ([`Plan::seconds`]) of the levels a solve without databases builds in
/// memory ([`plan_within`]). The estimate counts 3 M boards a second a
/// thread (`boards_per_second`): 2 s on 2 threads are 12 M boards,
/// Kalah(6,4)'s levels 0 to 14 (9.7 M) and Kalah(5,5)'s 0 to 17 (8.4 M).
pub const ACYCLIC_LEVELS_SECONDS: f64 = 2.0;

/// In the games whose positions cannot repeat, the share of the
/// estimated build of [`plan_within`]'s levels a solve searches without
/// them first. Their build takes seconds where a solve may take a fraction
/// of one: Kalah(4,6) solves in 0.6 s on 2 threads, and with a quarter
/// (0.5 s) it built its levels 0 to 22 and took 2.1 s. The search before
/// the build is lost (the solve starts again with the levels and a new
/// table: going on with the same table was slower, Kalah(6,4) 16.6 to
/// 17.4 s against 13.5 to 14.7 s, all else equal).
pub const ACYCLIC_SEARCH_SHARE: f64 = 0.5;

/// In the games whose positions can repeat, the estimated seconds
/// ([`Plan::seconds`]) of the levels a solve builds in memory first when
/// those up to the position's take longer or do not fit the memory
/// allowed ([`stages`], [`plan_within`]): the lowest of them, within these
/// seconds, cut the search short where its lines fall to few seeds.
/// `akon:7x5` `N 0,0,3,2,0,0,0/4,0,0,0,7,0,2 37-15` (18 seeds on the
/// board; 2 threads) is solved by the search in 44 to 47 s with
/// the databases to 8 seeds, and in 46, 2.5 and 0.15 s with them to 10,
/// 12 and 14 (levels 9 to 12, 13, 14: 9.3, 19.7, 40 M boards, estimated
/// at 4.9, 10.4 and 21 s on 2 threads). These seconds build levels 9 to 13
/// of Akon and Dakon 7x7, 9 to 16 of Awari; Anywoli's level 9 alone (28
/// M boards) would take 15 s.
pub const CYCLIC_LEVELS_SECONDS: f64 = 12.0;

/// Plans estimated at most this many seconds are built at once.
pub const BUILD_AT_ONCE_SECONDS: f64 = 1.0;

impl Plan {
    /// Estimated seconds of the builds on `threads` threads.
    pub fn seconds(&self, threads: usize) -> f64 {
        self.thread_seconds / threads.max(1) as f64
    }

    /// How long to search before building the levels, when a search might
    /// answer without them: [`SEARCH_FIRST_SHARE`] of the estimated
    /// [`Plan::seconds`], none when that is at most
    /// [`BUILD_AT_ONCE_SECONDS`]. Many positions above the databases are
    /// decided by a short forced line that the search finds in well under
    /// a second (Djenon-abe and Dakon, whose levels are large, almost
    /// always: `data/cycles.md`), others only through most of the levels
    /// between (Awari). Searching first for a quarter of the build's time
    /// costs the second kind at most a quarter more than building at once,
    /// and spares the first kind the build. (A quarter, not an eighth:
    /// `akon:7x5` `N 0,0,3,2,0,0,0/4,0,0,0,7,0,2 37-15`, 21 seeds, with
    /// databases to 8, is answered by 57.5 s of search on 2 threads, where
    /// its levels 9 to 18 take 277 s to build; an eighth of that would stop
    /// the search at 34 s. A search that fails for want of stack, as Anywoli's do
    /// within a few seconds, goes on to the build at once whatever the
    /// share.)
    ///
    /// [`plan_within`]'s plans search first for [`ACYCLIC_SEARCH_SHARE`]
    /// of the build instead.
    pub fn search_first(&self, threads: usize) -> f64 {
        let build = self.seconds(threads);
        if build <= BUILD_AT_ONCE_SECONDS {
            0.0
        } else {
            build * self.search_share
        }
    }
}

/// The levels of `R` a search from a board of `top` seeds can meet, from
/// `from` on: `top`, those of `top - LEAST_TAKEN` seeds or fewer that
/// differ from `top` by a multiple of [`Rules::TAKEN_BY`], and the empty
/// board (module docs).
pub fn reachable_levels<R: Rules>(from: usize, top: usize) -> Vec<usize> {
    let below = (top + 1).saturating_sub(R::LEAST_TAKEN.max(1));
    let by = R::TAKEN_BY.max(1);
    (from..below)
        .filter(|&k| k == 0 || (top - k).is_multiple_of(by))
        .chain((from..=top).last())
        .collect()
}

/// The plan of the levels of `R` with `n` pits a row from `from` (the
/// first level the database does not hold; 0 without one) to `top`, the
/// way `db build` would build each within `memory_bytes`, leaving out
/// those no search from `top` meets ([`reachable_levels`]); `None` when a
/// level has more boards than a machine can count, or the peak exceeds
/// `memory_bytes`.
pub fn plan<R: Rules>(n: usize, from: usize, top: usize, memory_bytes: u64) -> Option<Plan> {
    let mut plan = Plan::empty(n, from);
    for k in reachable_levels::<R>(from, top) {
        plan.add::<R>(k, memory_bytes)?;
    }
    Some(plan)
}

/// The plan of the lowest levels of `R` with `n` pits a row, from `from`
/// on, that a search from a board of `top` seeds meets, as many as fit
/// `memory_bytes` and are estimated to build within `seconds` on `threads`
/// threads ([`Plan::seconds`]); `None` when not even level `from` does, or
/// `from` is `top` or more (a level of `top` seeds would be the whole
/// solve).
///
/// For the games whose positions cannot repeat (Kalah), where the search
/// has no trouble reaching the end of the game but spends most of its
/// nodes on the small boards near it: levels that take a few seconds
/// to build cut every line there. Kalah(6,4) without databases, 2
/// threads: 20.8 s and 65.9 M interior nodes by search alone; with the
/// levels 0 to 12, 14, 16 and 18 (built in 0.3, 1.3, 5.0 and about 16 s)
/// it searched 55.1, 43.8, 31.5 and 19.8 M interior nodes in 15.4, 11.2,
/// 8.7 and 5.1 s. Kalah(5,5), 17.4 s by search: with levels 0 to 14, 16
/// and 18 (0.2, 0.7, 1.7 s to build) 12.6, 9.2 and 6.3 s.
pub fn plan_within<R: Rules>(
    n: usize,
    from: usize,
    top: usize,
    memory_bytes: u64,
    threads: usize,
    seconds: f64,
) -> Option<Plan> {
    let mut plan = Plan::empty(n, from);
    for k in reachable_levels::<R>(from, top) {
        if k >= top {
            break;
        }
        let mut more = plan.clone();
        if more.add::<R>(k, memory_bytes).is_none() || more.seconds(threads) > seconds {
            break;
        }
        plan = more;
    }
    if !R::CYCLIC {
        plan.search_share = ACYCLIC_SEARCH_SHARE;
    }
    (!plan.levels.is_empty()).then_some(plan)
}

/// The plans of the levels of `R` with `n` pits a row a solve of a board
/// of `top` seeds builds in memory above the databases (which hold the
/// levels below `from`), within `memory_bytes`, on `threads` threads, in
/// the order they are built, each holding the one before (a solve
/// searches before each build, and goes on to it only if the search has
/// not answered: [`Plan::search_first`]):
///
/// - in a game whose positions can repeat, every level up to the
///   position's ([`plan`]); when those are estimated at more than
///   [`CYCLIC_LEVELS_SECONDS`] (or do not fit), first the lowest of them
///   that build within those seconds ([`plan_within`]), then the lowest
///   within [`STAGE_GROWTH`] times those seconds, and so on, as long as
///   each stage adds a level and they fit `memory_bytes`; the whole plan,
///   if it fits, comes last. A search whose lines fall to few seeds needs
///   no more than the first; a position that needs the levels to some
///   `k` gets them after builds of at most [`STAGE_GROWTH`] times their
///   own estimate, and searches before each later stage below the whole
///   of [`LATER_SEARCH_SHARE`] of the estimate of every level to it
///   (before the whole, [`SEARCH_FIRST_SHARE`] of what it adds), instead
///   of searching on with the first stage's levels for ever (issue 20's
///   `akon:7x5` positions of 21 seeds, databases to 8: with levels to 13
///   no answer in 120 s, with levels to 15 in 21 and 66 s; the whole, to
///   21 seeds, does not fit 2 GiB);
/// - in Kalah, the small levels that build within about
///   [`ACYCLIC_LEVELS_SECONDS`].
pub fn stages<R: Rules>(
    n: usize,
    from: usize,
    top: usize,
    memory_bytes: u64,
    threads: usize,
) -> Vec<Plan> {
    if !R::CYCLIC {
        let seconds = ACYCLIC_LEVELS_SECONDS;
        return plan_within::<R>(n, from, top, memory_bytes, threads, seconds)
            .into_iter()
            .collect();
    }
    let whole = plan::<R>(n, from, top, memory_bytes);
    let mut out: Vec<Plan> = Vec::new();
    let mut seconds = CYCLIC_LEVELS_SECONDS;
    // Each round either ends or doubles `seconds`; the plans within them
    // stop growing once the next level does not fit `memory_bytes` (or
    // every level below `top` is planned), which ends the rounds.
    loop {
        if whole
            .as_ref()
            .is_some_and(|w| w.seconds(threads) <= seconds)
        {
            break;
        }
        let within = plan_within::<R>(n, from, top, memory_bytes, threads, seconds);
        if let Some(p) = within {
            if out.last().is_none_or(|last| p.top > last.top) {
                out.push(p);
            }
        }
        // The next level a larger stage would add, beside those planned.
        let mut planned = out.last().cloned().unwrap_or_else(|| Plan::empty(n, from));
        let next = reachable_levels::<R>(from, top)
            .into_iter()
            .find(|k| !planned.levels.contains(k));
        match next {
            // It fits beside those planned: a longer stage may add it.
            Some(k) if k < top && planned.add::<R>(k, memory_bytes).is_some() => {
                seconds *= STAGE_GROWTH
            }
            // Every level below `top` is planned (the whole comes next),
            // or the next does not fit.
            _ => break,
        }
    }
    // A later stage below the whole searches first for
    // [`LATER_SEARCH_SHARE`] of the seconds of every level to it, not of
    // those it adds ([`Plan::search_first`] takes its share of what is
    // left to build). The whole, once built, answers by a probe: a
    // quarter of what it adds, as before.
    for i in 1..out.len() {
        let (all, before) = (out[i].thread_seconds, out[i - 1].thread_seconds);
        if all > before {
            out[i].search_share = LATER_SEARCH_SHARE * all / (all - before);
        }
    }
    out.extend(whole);
    out
}

/// The share of the estimated seconds of every level to a later stage of
/// [`stages`] (not the first) that a solve searches, with the levels of
/// the stages before, before it builds that stage. More than the first
/// stage's [`SEARCH_FIRST_SHARE`]: the first stage's levels are those a
/// search from most positions needs, and a search with them that has not
/// answered yet often answers before the next levels would pay for their
/// build.
///
/// Measured on `akon:7x5` positions of 21 seeds over databases to 8 (2
/// threads). Stop 45, when a build ended the search before it and the
/// next began afresh: a quarter of the next stage's own estimate (2.7 s of
/// search before level 14), 11 of 18 within 60 s; as long as its build
/// (11 s), 11; twice the estimate of every level to it (42 s), 12; 2.5
/// times (52 s), 13. Since the table goes on across the builds (stop 50:
/// `Solver::into_learned`), a build costs the search after it only the
/// build's own seconds, and an earlier one pays: stop 51, on a machine
/// about 1.5 times slower, 2.5 times answered 12 of the 18 within 60 s,
/// once (21 s before level 14) 13, half (10 s) 7 of the 10 drawn by
/// `scripts/cycles.sh` but two of them 13 s slower than with once. Once
/// also brings each later stage sooner: `S 2,0,3,0,0,0,1/2,5,2,1,0,2,3
/// 24-25`, which the levels to 13 do not answer, is answered in 116 s
/// (the levels to 15 built after 78 s of search) instead of 173 s (to 14
/// after 63 s); peak memory 2.2 GB instead of 1.6 (`data/cycles.md`,
/// "Stop 51").
pub const LATER_SEARCH_SHARE: f64 = 1.0;

/// How much longer (in estimated seconds of the whole build so far) each
/// stage of [`stages`] is than the one before.
pub const STAGE_GROWTH: f64 = 2.0;

impl Plan {
    /// What is left of this plan once `built` (a plan of its lowest
    /// levels, from the same level: [`plan_within`]'s) is built: its levels
    /// above `built`'s, their boards and seconds; the peak and the bytes
    /// kept stay this plan's, which count `built`'s levels already.
    pub fn above(&self, built: &Plan) -> Plan {
        assert_eq!(
            (self.n, self.from),
            (built.n, built.from),
            "plans of the same rows from the same level"
        );
        assert!(
            built.levels.iter().all(|k| self.levels.contains(k)),
            "the levels built are this plan's"
        );
        Plan {
            levels: self
                .levels
                .iter()
                .copied()
                .filter(|&k| k > built.top)
                .collect(),
            boards: self.boards - built.boards,
            thread_seconds: (self.thread_seconds - built.thread_seconds).max(0.0),
            ..self.clone()
        }
    }

    /// A plan of no level yet of boards of `n` pits a row, whose first
    /// level will be `from`.
    fn empty(n: usize, from: usize) -> Plan {
        Plan {
            n,
            from,
            top: from,
            levels: Vec::new(),
            boards: 0,
            peak_bytes: 0,
            kept_bytes: 0,
            search_share: SEARCH_FIRST_SHARE,
            thread_seconds: 0.0,
        }
    }

    /// Adds level `k` (above every level planned so far) as `db build`
    /// would build it within `memory_bytes`, the levels kept so far
    /// counted; `None` when a level has more boards than a machine can
    /// count, or the peak exceeds `memory_bytes`.
    fn add<R: Rules>(&mut self, k: usize, memory_bytes: u64) -> Option<()> {
        let entries = Indexer::new(2 * self.n, k).ok()?.count();
        // Working memory, the copy of the gains, and the levels kept so far.
        let room = memory_bytes.checked_sub(entries + self.kept_bytes)?;
        let (way, need) = plan_level::<R>(Method::Auto, entries, 0, room);
        let need = need.checked_add(entries + self.kept_bytes)?;
        if need > memory_bytes {
            return None;
        }
        self.top = k;
        self.levels.push(k);
        self.peak_bytes = self.peak_bytes.max(need);
        self.kept_bytes += entries;
        self.boards += entries;
        self.thread_seconds += entries as f64 / boards_per_second::<R>(way);
        Some(())
    }
}

/// Why levels could not be built in memory.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExtendError {
    /// Stopped on request before the last level was built.
    #[error("stopped while building level {k} in memory")]
    Stopped {
        /// The level being built.
        k: usize,
    },
    /// The system refused a level's memory, or the plan does not fit.
    #[error("no memory for level {k} built in memory")]
    NoMemory {
        /// The level.
        k: usize,
    },
}

/// A database on disk (or none) and levels built above it in memory: every
/// board of at most [`Tablebase::max_seeds`] seeds (see the module docs).
#[derive(Debug)]
pub struct Extended {
    game: &'static str,
    n: usize,
    base: Option<Arc<Database>>,
    /// The first level held here.
    from: usize,
    /// Levels `from..`, one byte a board (two's complement gain) by rank;
    /// no byte for a level left out.
    levels: Vec<(Indexer, Vec<u8>)>,
}

impl Extended {
    /// Builds levels `plan.from..=plan.top` of `R` in memory, for the
    /// plan's row length, above `base` (which must hold levels
    /// `0..plan.from` exactly, of this game and row length; `None` when
    /// `plan.from` is 0), by the methods of `db build` within
    /// `memory_bytes` (as [`plan`] was given), on the threads of the
    /// current rayon pool. `progress` is live while it runs; `stop` stops
    /// it.
    ///
    /// The row length is the plan's alone, so levels cannot be planned for
    /// one board and built for another (a caller once planned for the
    /// position's 3 pits a row and built the variant's 6: minutes of
    /// build, then a refusal).
    pub fn build<R: Rules>(
        base: Option<Arc<Database>>,
        plan: &Plan,
        memory_bytes: u64,
        progress: &Progress,
        stop: &AtomicBool,
    ) -> Result<Extended, ExtendError> {
        assert_eq!(
            base.as_ref().map_or(0, |db| db.max_seeds() + 1),
            plan.from,
            "the database ends where the levels built in memory start"
        );
        if let Some(db) = &base {
            assert_eq!(
                (db.game(), db.n()),
                (R::NAME, plan.n),
                "the database is of the game and rows of the plan"
            );
        }
        let mut ext = Extended {
            game: R::NAME,
            n: plan.n,
            base,
            from: plan.from,
            levels: Vec::with_capacity(plan.top + 1 - plan.from),
        };
        ext.grow::<R>(plan, memory_bytes, progress, stop)?;
        Ok(ext)
    }

    /// Builds the levels of `plan` above those held here, as
    /// [`Extended::build`] does: `plan` must start where these levels
    /// start, and hold every level held here (a plan of more levels above
    /// the same database, as [`plan`] gives after [`plan_within`]).
    pub fn grow<R: Rules>(
        &mut self,
        plan: &Plan,
        memory_bytes: u64,
        progress: &Progress,
        stop: &AtomicBool,
    ) -> Result<(), ExtendError> {
        use std::sync::atomic::Ordering::Relaxed;
        assert_eq!(
            (self.n, self.from),
            (plan.n, plan.from),
            "the plan is of these rows and starts where these levels start"
        );
        assert_eq!(self.game, R::NAME, "levels of one game");
        let n = self.n;
        let ext = self;
        for k in ext.from + ext.levels.len()..=plan.top {
            let ix = Indexer::new(2 * n, k).map_err(|_| ExtendError::NoMemory { k })?;
            if !plan.levels.contains(&k) {
                // Left out: no search from `plan.top` meets it, and no
                // build of a level the plan holds reads it.
                ext.levels.push((ix, Vec::new()));
                continue;
            }
            let entries = ix.count();
            let kept: u64 = ext.levels.iter().map(|(_, b)| b.len() as u64).sum();
            let room = memory_bytes
                .checked_sub(entries + kept)
                .ok_or(ExtendError::NoMemory { k })?;
            let (way, _) = plan_level::<R>(Method::Auto, entries, 0, room);
            progress.level.store(k as u64, Relaxed);
            progress.entries.store(entries, Relaxed);
            for x in [&progress.sweep, &progress.done, &progress.generated] {
                x.store(0, Relaxed);
            }
            let solved = {
                let lower: Vec<Level<'_>> = (0..k).map(|j| ext.level(j)).collect();
                way.build::<R>(n, k, &lower, progress, stop)
            };
            let Some(solved) = solved else {
                return Err(if stop.load(Relaxed) {
                    ExtendError::Stopped { k }
                } else {
                    ExtendError::NoMemory { k }
                });
            };
            let mut bytes = vec![0u8; solved.len()];
            solved.fill(0, &mut bytes);
            drop(solved);
            ext.levels.push((ix, bytes));
        }
        Ok(())
    }

    /// Level `k`, from the database below [`Extended::from`], from memory
    /// above.
    fn level(&self, k: usize) -> Level<'_> {
        if k < self.from {
            self.base
                .as_ref()
                .and_then(|db| db.level(k))
                .expect("the database holds the levels below `from`")
        } else {
            let (index, bytes) = &self.levels[k - self.from];
            Level { index, bytes }
        }
    }

    /// The first level built in memory.
    pub fn from(&self) -> usize {
        self.from
    }
}

impl Tablebase for Extended {
    fn game(&self) -> &'static str {
        self.game
    }
    fn n(&self) -> usize {
        self.n
    }
    fn max_seeds(&self) -> usize {
        self.from + self.levels.len() - 1
    }
    #[inline]
    fn entry(&self, pos: &Position) -> Option<&u8> {
        let k = pos.board_seeds();
        if k < self.from {
            return self.base.as_deref()?.entry(pos);
        }
        let (ix, bytes) = self.levels.get(k - self.from)?;
        bytes.get(canonical_rank(ix, pos) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::build_all::{build_all, BuildOptions};
    use crate::games::{Awari, Dakon};

    /// Builds `R`'s database to `top` on disk, and the levels above `base`
    /// (from 0 without it) in memory over the database's levels `0..=base`:
    /// every byte agrees.
    fn agrees<R: Rules>(n: usize, base: Option<usize>, top: usize) {
        let dir = std::env::temp_dir().join(format!(
            "mancala-extend-{}-{}-{:?}-{}",
            R::NAME,
            n,
            base,
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let options = BuildOptions {
            dir: dir.clone(),
            memory_bytes: 1 << 30,
            method: Method::Auto,
        };
        let quiet = |_: String| {};
        let stop = AtomicBool::new(false);
        let full = build_all::<R>(n, top, &options, &Progress::default(), &quiet, &stop).unwrap();
        let low = base.map(|base| {
            let options = BuildOptions {
                dir: dir.join("low"),
                ..options.clone()
            };
            let db = build_all::<R>(n, base, &options, &Progress::default(), &quiet, &stop);
            Arc::new(db.unwrap())
        });
        let from = base.map_or(0, |b| b + 1);
        let plan = super::plan::<R>(n, from, top, 1 << 30).unwrap();
        assert_eq!(plan.kept_bytes, plan.boards);
        let progress = Progress::default();
        let ext = Extended::build::<R>(low.clone(), &plan, 1 << 30, &progress, &stop).unwrap();
        // Built in two stages, the lowest levels first and the others
        // grown on them: the same bytes.
        let half = plan.seconds(1) / 2.0;
        if let Some(first) = plan_within::<R>(n, from, top, 1 << 30, 1, half) {
            let mut staged = Extended::build::<R>(low, &first, 1 << 30, &progress, &stop).unwrap();
            assert_eq!(staged.max_seeds(), first.top);
            staged
                .grow::<R>(&plan.above(&first), 1 << 30, &progress, &stop)
                .unwrap();
            assert_eq!(staged.max_seeds(), top);
            for k in 0..=top {
                assert_eq!(
                    staged.level(k).bytes,
                    ext.level(k).bytes,
                    "{} level {k}",
                    R::NAME
                );
            }
        }
        assert_eq!((ext.from(), ext.max_seeds()), (from, top));
        assert_eq!(plan.levels, reachable_levels::<R>(from, top));
        for k in 0..=top {
            let file = full.level(k).unwrap().bytes;
            if k < from || plan.levels.contains(&k) {
                assert_eq!(ext.level(k).bytes, file, "{} level {k}", R::NAME);
            } else {
                // Left out: no byte, and no answer for its boards.
                assert!(ext.level(k).bytes.is_empty(), "{} level {k}", R::NAME);
                let mut board = vec![0u8; 2 * n];
                board[0] = k as u8;
                let pos = Position::from_board(n, &board);
                assert_eq!(ext.gain(&pos), None);
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn levels_built_in_memory_equal_the_files_by_unmoves() {
        agrees::<Awari>(4, Some(3), 9);
    }

    #[test]
    fn levels_built_in_memory_equal_the_files_by_recorded_edges() {
        agrees::<Dakon>(3, Some(2), 8);
    }

    #[test]
    fn levels_built_in_memory_equal_the_files_by_sweeps() {
        // Kalah: no repetitions, built by sweeps.
        agrees::<crate::games::Kalah>(4, None, 10);
        agrees::<crate::games::Kalah>(3, Some(4), 12);
    }

    #[test]
    fn games_that_repeat_build_their_lowest_levels_first_when_the_whole_is_long() {
        use crate::games::{Akon, Anywoli};
        let gib = 2 << 30;
        // akon:7x5 at 18 seeds above databases to 8: levels 9 to 18 (471 M
        // boards, minutes); first 9 to 13, within the seconds, then the
        // lowest within twice the seconds at each stage, then the whole.
        let s = stages::<Akon>(7, 9, 18, gib, 2);
        let tops: Vec<usize> = s.iter().map(|p| p.top).collect();
        assert_eq!(tops, [13, 14, 15, 16, 17, 18]);
        assert_eq!(s[0].levels, (9..=13).collect::<Vec<_>>());
        assert!(s[0].seconds(2) <= CYCLIC_LEVELS_SECONDS);
        let mut seconds = CYCLIC_LEVELS_SECONDS;
        for (stage, next) in s.iter().zip(&s[1..]) {
            // Each stage holds the one before, and is within twice its
            // seconds; the next level more would not be.
            assert!(stage.levels.iter().all(|k| next.levels.contains(k)));
            assert!(stage.seconds(2) <= seconds);
            assert!(next.seconds(2) > seconds);
            seconds *= STAGE_GROWTH;
            assert!(stage.peak_bytes <= gib && stage.from == 9);
        }
        assert_eq!(s[5], plan::<Akon>(7, 9, 18, gib).unwrap());
        // The first stage searches first for a quarter of its estimate.
        assert_eq!(s[0].search_first(2), s[0].seconds(2) * SEARCH_FIRST_SHARE);
        // What a later stage still builds, and the search before it:
        // LATER_SEARCH_SHARE of the estimate of every level to it (below
        // the whole).
        let rest = s[5].above(&s[4]);
        assert_eq!(rest.levels, [18]);
        assert_eq!(rest.boards, s[5].boards - s[4].boards);
        assert!((rest.seconds(2) + s[4].seconds(2) - s[5].seconds(2)).abs() < 1e-9);
        for (stage, next) in s[..5].iter().zip(&s[1..5]) {
            let first = next.above(stage).search_first(2);
            assert!((first - next.seconds(2) * LATER_SEARCH_SHARE).abs() < 1e-6);
        }
        // The whole, a quarter of what it adds.
        assert_eq!(rest.search_first(2), rest.seconds(2) * SEARCH_FIRST_SHARE);
        // At 21 seeds the whole does not fit 2 GiB: the stages go on as
        // long as the next level fits beside those before (to 19).
        let s = stages::<Akon>(7, 9, 21, gib, 2);
        let tops: Vec<usize> = s.iter().map(|p| p.top).collect();
        assert_eq!(tops, [13, 14, 15, 16, 17, 18, 19]);
        assert!(plan::<Akon>(7, 9, 20, gib).is_none());
        // With less room, fewer (the builds of the larger levels take a
        // slower way within less room, but level 13 does not fit 32 MiB
        // beside those to 12).
        let s = stages::<Akon>(7, 9, 21, gib / 64, 2);
        assert!(s.iter().all(|p| p.peak_bytes <= gib / 64));
        assert_eq!(s.last().map(|p| p.top), Some(12));
        // Anywoli takes fours: from 14 seeds over databases to 8 only
        // levels 10 and 14 are met, and level 10 alone takes longer than
        // the first stage's seconds: it is built alone.
        let s = stages::<Anywoli>(12, 9, 14, gib, 2);
        let levels: Vec<Vec<usize>> = s.iter().map(|p| p.levels.clone()).collect();
        assert_eq!(levels, [vec![10]]);
        // From 16 seeds only 12 and 16, and level 12 (834 M boards) does
        // not fit 2 GiB: the search goes on alone, with nothing built for
        // nothing (before, levels 9, 10 and 11, none of which it meets).
        assert!(stages::<Anywoli>(12, 9, 16, gib, 2).is_empty());
        // A whole build within the seconds comes alone.
        let s = stages::<Awari>(6, 9, 12, gib, 2);
        assert_eq!(s, vec![plan::<Awari>(6, 9, 12, gib).unwrap()]);
        // Kalah: its small levels only.
        let s = stages::<crate::games::Kalah>(6, 0, 48, gib, 2);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].top, 14);
    }

    #[test]
    fn levels_left_out_are_read_by_no_build() {
        // Anywoli takes fours: from 11 seeds, levels 4 to 6 and 8 to 10
        // are left out, and the builds of levels 7 and 11 read none of
        // them; Djenon-abe takes twos and fours: from 8, levels 3, 5 and 7.
        agrees::<crate::games::Anywoli>(3, Some(3), 11);
        agrees::<crate::games::DjenonAbe>(3, Some(2), 8);
    }

    #[test]
    fn without_a_database_the_levels_start_at_zero() {
        agrees::<Awari>(3, None, 7);
    }

    #[test]
    fn the_levels_between_the_top_and_its_least_capture_are_left_out() {
        use crate::games::Anywoli;
        assert_eq!(reachable_levels::<Awari>(13, 18), [13, 14, 15, 16, 18]);
        assert_eq!(reachable_levels::<Anywoli>(9, 10), [10]);
        assert_eq!(reachable_levels::<Anywoli>(9, 14), [10, 14]);
        assert_eq!(reachable_levels::<Anywoli>(9, 16), [12, 16]);
        assert_eq!(reachable_levels::<Anywoli>(0, 12), [0, 4, 8, 12]);
        use crate::games::DjenonAbe;
        assert_eq!(reachable_levels::<DjenonAbe>(9, 16), [10, 12, 14, 16]);
        assert_eq!(reachable_levels::<DjenonAbe>(0, 7), [0, 1, 3, 5, 7]);
        assert_eq!(reachable_levels::<Dakon>(9, 12), [9, 10, 11, 12]);
        assert_eq!(reachable_levels::<Awari>(5, 5), [5]);
        assert_eq!(reachable_levels::<Awari>(0, 1), [1]);
        let p = plan::<Awari>(6, 13, 18, 1 << 31).unwrap();
        let full: u64 = (13..=18)
            .map(|k| Indexer::new(12, k).unwrap().count())
            .sum();
        let left_out = Indexer::new(12, 17).unwrap().count();
        assert_eq!(p.boards, full - left_out);
    }

    #[test]
    fn levels_are_built_for_the_rows_of_their_plan() {
        let stop = AtomicBool::new(false);
        let progress = Progress::default();
        let p3 = plan::<Awari>(3, 0, 4, 1 << 30).unwrap();
        assert_eq!(p3.n, 3);
        let ext = Extended::build::<Awari>(None, &p3, 1 << 30, &progress, &stop).unwrap();
        // Level 4 of 3 pits a row: the boards of 6 pits, not of 12.
        assert_eq!(
            ext.level(4).bytes.len() as u64,
            Indexer::new(6, 4).unwrap().count()
        );
        // A plan for other rows is refused before anything is built.
        let p6 = plan::<Awari>(6, 0, 6, 1 << 30).unwrap();
        let grown = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut ext = ext;
            ext.grow::<Awari>(&p6, 1 << 30, &progress, &stop)
        }));
        assert!(grown.is_err(), "a plan of 6 pits a row grew 3-pit levels");
    }
    #[test]
    fn a_plan_over_its_memory_is_refused() {
        let p = plan::<Awari>(6, 0, 12, 1 << 30).unwrap();
        assert!(p.peak_bytes > p.kept_bytes);
        assert_eq!(plan::<Awari>(6, 0, 12, p.peak_bytes - 1), None);
        assert_eq!(
            plan::<Awari>(6, 0, 12, p.peak_bytes).map(|q| q.peak_bytes),
            Some(p.peak_bytes)
        );
        assert!(p.seconds(2) < p.seconds(1));
    }

    #[test]
    fn the_search_first_takes_its_share_of_a_long_build_only() {
        use crate::games::Akon;
        // Akon 7x5 from 9 to 18 seeds: levels 9 to 17 over recorded edges,
        // level 18 by sweeps, at the measured rates (about 268 s on two
        // threads; 277 s measured).
        let long = plan::<Akon>(7, 9, 18, 2 << 30).unwrap();
        let s = long.seconds(2);
        assert!((200.0..350.0).contains(&s), "{s}");
        assert_eq!(long.search_first(2), s * SEARCH_FIRST_SHARE);
        assert!(long.search_first(2) > 57.5, "the 21-seed position's search");
        // A plan of a few boards is built at once.
        let short = plan::<Akon>(7, 0, 3, 2 << 30).unwrap();
        assert!(short.seconds(2) <= BUILD_AT_ONCE_SECONDS);
        assert_eq!(short.search_first(2), 0.0);
    }

    #[test]
    fn kalah_plans_the_small_levels_that_build_within_the_seconds() {
        use crate::games::Kalah;
        let cap = ACYCLIC_LEVELS_SECONDS;
        // Kalah(6,4), 48 seeds: levels 0 to 14 (9.7 M boards) on two
        // threads; level 15 (7.7 M more) would pass the seconds.
        let p = plan_within::<Kalah>(6, 0, 48, 2 << 30, 2, cap).unwrap();
        assert_eq!(p.levels, (0..=14).collect::<Vec<_>>());
        assert_eq!((p.from, p.top, p.boards), (0, 14, 9_657_700));
        assert!(p.seconds(2) <= cap);
        assert!(plan::<Kalah>(6, 0, 15, 2 << 30).unwrap().seconds(2) > cap);
        // Half the build's time searching first, as it is long enough.
        assert_eq!(p.search_first(2), p.seconds(2) * ACYCLIC_SEARCH_SHARE);
        // One thread builds fewer levels in the same time.
        let one = plan_within::<Kalah>(6, 0, 48, 2 << 30, 1, cap).unwrap();
        assert!(one.top < p.top && one.seconds(1) <= cap);
        // Never the position's own level (that would be the whole solve),
        // and levels of a few boards at once.
        let small = plan_within::<Kalah>(3, 0, 18, 2 << 30, 2, cap).unwrap();
        assert_eq!(small.top, 17);
        assert_eq!(small.search_first(2), 0.0);
        // Above the 20-seed databases level 21 alone (129 M boards) takes
        // too long; and a memory budget too small for level 0 plans nothing.
        assert_eq!(plan_within::<Kalah>(6, 21, 48, 2 << 30, 2, cap), None);
        assert_eq!(plan_within::<Kalah>(6, 0, 48, 1, 2, cap), None);
        assert_eq!(plan_within::<Kalah>(6, 0, 0, 2 << 30, 2, cap), None);
        // Within a budget, the levels that fit it.
        let tight = plan_within::<Kalah>(6, 0, 48, p.peak_bytes - 1, 2, cap).unwrap();
        assert!(tight.top < p.top && tight.peak_bytes < p.peak_bytes);
    }
}
