//! A first guess for MTD(f): iterative deepening of depth-limited MTD(f)
//! searches whose leaves are scored as if nothing more were captured
//! (Irving, Donkers and Uiterwijk 2000, section 3).
//!
//! MTD(f) converges in two null-window tests when its first guess is the
//! true value, and in one test per step otherwise; each test is a search
//! to the end of the game. Irving, Donkers and Uiterwijk found that the
//! close first guess is what iterative deepening buys. The guess only
//! steers which null windows are tried: any guess gives the exact value,
//! so this search may be as heuristic as it likes. Its nodes count with
//! the solve's.
//!
//! **What it leaves in the table.** A depth-limited value is not a bound
//! of the true value, so it is stored as a *guess* entry with its depth
//! (`tt` module docs): deeper iterations cut on guesses at least as deep
//! and try their moves first; the exact search sees only the moves, as the
//! moves to try first, never the bounds. The depth stored is the result's
//! *reach* ([`Shallow::search`]), the plies to the nearest depth cut it
//! rests on, which is more than the depth asked for where lines end
//! sooner or meet deeper entries. A subtree that ended everywhere in
//! finished games, database boards, seed bounds or true table bounds, with
//! no depth cut, has a true value (reach [`EXACT`]): its fail-soft bound is
//! stored as a true entry, which the exact search then uses like its own.
//! A cut rests on its one move, so a node that cuts with a move of exact
//! reach stores a true lower bound whatever the moves before it were.
//! Storing the reach rather than the depth asked for, interior nodes of
//! the whole solve, 1 thread (`solve --game kalah:MxN --threads 1
//! --extend-mb 0 [--db D]`, D the 20-seed databases): (6,3) 512,842 ->
//! 512,836; (5,4) 1,414,463 -> 1,414,325; (4,6) 2,038,663 -> 2,016,824;
//! with D, (6,3) 27,725 -> 27,720, (5,4) 251,646 -> 251,589, (4,6) 314,306
//! -> 311,739, (6,4) 12,469,609 -> 12,468,979, (5,5) 23,326,701 ->
//! 23,321,640: lower on every row, by at most 1 % (most leaves of an
//! iteration are its depth cuts).
//!
//! **Which move a node keeps.** A node that cuts stores the move that cut.
//! A node that fails low (every move searched, none reached `beta`) keeps
//! the move its entry already had, the one it tried first, if it had one:
//! its own best move would be the one with the highest fail-soft *upper
//! bound*, which says little about which move is best (each bound is only
//! what that move's refutation happened to show). The move that cut in an
//! earlier test or a shallower iteration is the better bet for the next
//! test that needs a cut there, and MTD(f) alternates tests that fail high
//! and low at the root, so without this a test that failed low wiped the
//! cutting moves the test before it had found. It changes
//! only the order in which moves are tried, never a bound. Interior nodes
//! of the whole solve, 1 thread, Kalah without databases: (6,3) 849 K ->
//! 619 K; (4,6) 2.58 M -> 2.46 M; (5,4) 1.60 M -> 1.48 M; (6,4) 58.5 M ->
//! 57.0 M. Storing no move at all when the entry had none did worse
//! ((6,3) 615 K, (4,6) 2.50 M, (5,4) 1.56 M); keeping the earlier move in
//! the exact search's fail-low stores as well changed the counts by under
//! 0.2 %, so the exact search stores its own.

use super::negamax::{merge, move_code, order_score, sort_moves, start_loads, Shared};
use super::tt::{Stored, Table, NO_MOVE};
use crate::games::{final_gain, move_gain, MoveList, Rules, MAX_MOVES};
use crate::packed::PackedBoard;
use crate::position::Position;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// The reach ([`Shallow::search`]) of a result that no depth cut below it
/// touched: a true bound.
const EXACT: u32 = u32::MAX;

/// Plies added by each iteration (Irving et al.'s step).
const STEP: u32 = 3;
/// The deepest iteration.
const MAX_DEPTH: u32 = 39;
/// No deeper iteration starts once the guess has cost
/// `node_budget` nodes.
///
/// The budget grows with the seeds on the board: the deeper iterations
/// cost more than they save on small boards and save much more than they
/// cost on large ones. Measured (interior nodes of the whole solve, 1
/// thread, Kalah; "DB": with its databases to 20 seeds), budget 20 K, 200
/// K, 2 M:
///
/// | board | no DB | DB |
/// |---|---|---|
/// | (6,3), 36 seeds | 0.83, 0.98, 0.94 M | 28 K all three |
/// | (5,4), 40 seeds | 1.95, 1.82, 2.62 M | 199, 244, 250 K |
/// | (4,6), 48 seeds | 2.90, 2.41, 2.63 M | 413, 315, 307 K |
/// | (6,4), 48 seeds | -, 55.9, 56.3 M | 10.5, 10.4, 11.4 M |
/// | (5,5), 50 seeds | -, 88.8 M (640 K: 72.6), 52.5 M | 35.0, 29.3 M (640 K: 22.4), 18.8 M |
///
/// On Kalah(5,5) the deeper guesses do not change the number of tests
/// (two) but their moves: the first test's refutation cost 25.8 M nodes
/// after iterations to 18 plies and 13.9 M after 24.
///
/// In the games whose positions can repeat, without databases, the least
/// budget only: there the depth-limited values say less (Dakon 7x7's climb
/// from 27 to 75 while its value is 98), and Kalah's budget for its 98
/// seeds took its solve from 1.56 M interior nodes and 1.1 s to 3.84 M
/// and 6.8 s. With databases (`db_max`: the most seeds they cover) the
/// leaves that reach them are exact, and the budget grows with the seeds
/// above them, doubling every two from [`CYCLIC_FREE_ABOVE`] on: see that
/// constant for what it bought.
fn node_budget<R: Rules>(board: usize, db_max: Option<usize>) -> u64 {
    let doublings = match db_max {
        _ if !R::CYCLIC => board.saturating_sub(36) / 2,
        Some(max) => board.saturating_sub(max + CYCLIC_FREE_ABOVE) / 2,
        None => 0,
    };
    // Kalah: 20 K at 36 seeds, doubling every two seeds; at most 4 M.
    (MIN_BUDGET << doublings.min(8)).min(MAX_BUDGET)
}

/// In the games whose positions can repeat, with databases: the seeds
/// above the databases up to which the guess has only the least budget.
///
/// Measured on the Akon position of issue 20 (`akon:7x5`, `N
/// 0,0,3,2,0,0,0/4,0,0,0,7,0,2 37-15`, 21 seeds, databases to 8, 2
/// threads, gain −2): with 20 K nodes the guess was +2 (0.02 s), the first
/// test (`g >= 2`) failed in 7.1 s and the second (`g >= 0`) in 56 s;
/// with 200 K nodes (0.1 s) or 2 M (0.5 s) the guess was 0 and the one
/// test that fails took 48.5 s or 45.8 s. With this rule (1.28 M nodes
/// there) and lookups from 4 seeds above the databases
/// (`negamax::ETC_ABOVE_DB_CYCLIC`) the whole solve took 43.9 to 47.2 s
/// and 125 M interior nodes, against 63.2 to 64.1 s and 161 to 167 M.
/// On 30 random positions of 16 seeds a game (`scripts/cycles.sh --levels
/// 8 --count 30 --above 8 akon awari`): Akon 2.57 s at the median
/// against 2.81, Awari 8.67 s both ways.
const CYCLIC_FREE_ABOVE: usize = 1;

/// The least budget of [`node_budget`].
const MIN_BUDGET: u64 = 20_000;

/// The greatest budget of [`node_budget`].
const MAX_BUDGET: u64 = 4_000_000;

/// Nodes between a split search's checks of its siblings' cutoff (as
/// in the exact search).
///
/// Without the cutoff, the siblings of a move that reached `beta` ran to
/// their end, and their nodes counted against the budget: on Kalah(5,5)
/// with 2 threads the iterations to 21 plies counted 2.8 M nodes against
/// 1.85 M on one thread, past the budget of 2.56 M, so the deepest
/// iteration (24 plies) never ran. The guess was 4 instead of 2, the
/// first test failed low at 82 M interior nodes: 85 M in all and 31.8 s,
/// against 53 M on one thread. With the cutoff: 53.3 to 53.7 M interior
/// nodes, 22.3 to 23.7 s (`mancala solve --game kalah:5x5 --threads 2`).
const CUTOFF_CHECK_EVERY: u64 = 64;

/// Plies from the root within which a node of the guess searches its
/// moves after the first in parallel (when the solver has more than one
/// thread).
const SPLIT_PLIES: u32 = 3;

/// Nodes between the shallow search's calls to [`Table::grow_for`]: the
/// table grows with the guess's nodes as with the exact search's (before
/// it did, a guess of 2 M nodes ran in the first 4 MiB of the table and
/// Kalah(4,6) took 3.33 M interior nodes instead of 2.63 M).
///
/// Each searcher counts its own nodes: on several threads the moves after
/// the first at the nodes near the root go to new searchers (the splits
/// below), whose counts stay small, and the root's count jumps by theirs
/// and seldom lands on a multiple, so there the table hardly grows during
/// the guess ((6,4): 4 MiB through 2 M nodes). Counting every searcher's
/// nodes into the solve's shared count instead, as the exact search does,
/// let it grow and did not pay on two threads ((6,4) 12.95 to 13.71 s
/// against 12.34 to 12.66 s, (5,5) about the same; `data/solve-table.md`,
/// "Stop 55"): a guess in a small table keeps its shallow entries, which
/// it needs, in the caches.
const GROW_EVERY: u64 = 4096;

/// A guess at the future gain of `pos` (not terminal, not in the
/// databases).
pub(crate) fn first_guess<R: Rules>(table: &Table, shared: &Shared, pos: &Position) -> i32 {
    let mut s = Shallow::<R>::new(table, shared, 0);
    let (floor, ceiling) = R::gain_bounds(pos);
    let mut guess = 0;
    let mut depth = STEP;
    let budget = node_budget::<R>(
        pos.board_seeds(),
        shared.db.as_deref().map(|d| d.max_seeds()),
    );
    while depth <= MAX_DEPTH && s.nodes < budget && !s.stopped {
        // MTD(f) at this depth, from the last depth's value.
        let (mut lo, mut hi) = (floor, ceiling);
        let mut g = guess.clamp(lo, hi);
        while lo < hi {
            let beta = if g <= lo { lo + 1 } else { g.min(hi) };
            let (r, _) = s.search(pos, depth, beta - 1, beta);
            if r < beta {
                hi = r.max(lo);
            } else {
                lo = r.min(hi);
            }
            g = r;
        }
        guess = lo;
        depth += STEP;
    }
    shared.nodes.fetch_add(s.nodes, Ordering::Relaxed);
    // Every node of the guess keys the table (it grew with them, above).
    shared.tabled.fetch_add(s.nodes, Ordering::Relaxed);
    shared.interior.fetch_add(s.interior, Ordering::Relaxed);
    guess
}

/// The depth-limited search's state.
struct Shallow<'a, R: Rules> {
    table: &'a Table,
    shared: &'a Shared,
    nodes: u64,
    interior: u64,
    /// Plies from the root of the guess.
    ply: u32,
    /// Cutoff flags of the parallel splits above this searcher: one set
    /// means a sibling reached `beta`, so this subtree's work is useless.
    flags: Vec<&'a AtomicBool>,
    /// Set when the solve was stopped (or a sibling above cut): every later
    /// result is meaningless,
    /// and nothing more is stored.
    stopped: bool,
    _rules: std::marker::PhantomData<R>,
}

impl<'a, R: Rules> Shallow<'a, R> {
    /// A new searcher whose root lies `ply` plies from the guess's root.
    fn new(table: &'a Table, shared: &'a Shared, ply: u32) -> Self {
        Shallow {
            table,
            shared,
            nodes: 0,
            interior: 0,
            ply,
            flags: Vec::new(),
            stopped: false,
            _rules: std::marker::PhantomData,
        }
    }

    /// The value for the mover of `pos` of its move to `child`, searched
    /// to `depth - 1` plies with the window `(alpha, beta)`, and the reach
    /// of that value from `pos` (one more than the child's:
    /// [`Shallow::search`]).
    fn value_of(
        &mut self,
        pos: &Position,
        child: &Position,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> (i32, u32) {
        let c = move_gain(pos, child);
        if child.to_move() == pos.to_move() {
            let (v, r) = self.search(child, depth - 1, alpha - c, beta - c);
            (c + v, r.saturating_add(1))
        } else {
            let (v, r) = self.search(child, depth - 1, c - beta, c - alpha);
            (c - v, r.saturating_add(1))
        }
    }

    /// Fail-soft alpha-beta to `depth` plies (a leaf is worth 0: nothing
    /// more captured), and the result's *reach*: the plies below `pos` to
    /// the nearest leaf its result rests on that was cut by depth, at
    /// least `depth` ([`EXACT`] when none: the result is a true bound of
    /// the future gain). A guess entry is stored with the reach of its
    /// result, not with the depth it was asked for, and cuts a later
    /// search asking no more than that (Irving, Donkers and Uiterwijk's
    /// "result depth"): where most lines below a node end in finished
    /// games, database boards or deep entries, the next iteration, three
    /// plies deeper, need not search it again.
    fn search(&mut self, pos: &Position, depth: u32, alpha: i32, beta: i32) -> (i32, u32) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(GROW_EVERY) {
            self.table.grow_for(self.nodes);
            self.stopped |= self.shared.stop.load(Ordering::Relaxed);
        }
        if self.nodes.is_multiple_of(CUTOFF_CHECK_EVERY)
            && self.flags.iter().any(|f| f.load(Ordering::Relaxed))
        {
            self.stopped = true;
        }
        if self.stopped {
            return (0, 0);
        }
        if let Some(g) = self.shared.db_gain(pos) {
            return (g, EXACT);
        }
        let (floor, ceiling) = R::gain_bounds(pos);
        if ceiling <= alpha {
            return (ceiling, EXACT);
        }
        if floor >= beta {
            return (floor, EXACT);
        }
        let key = PackedBoard::seen_by_mover(pos);
        let mut hint = NO_MOVE;
        let mut known = None;
        if let Some((st, guess_depth)) = key.and_then(|k| self.table.probe_guess(k)) {
            let (lo, hi) = (i32::from(st.lower), i32::from(st.upper));
            match guess_depth {
                None => {
                    if lo >= beta || lo == hi {
                        return (lo, EXACT);
                    }
                    if hi <= alpha {
                        return (hi, EXACT);
                    }
                    known = Some(st);
                }
                Some(d) if u32::from(d) >= depth => {
                    if lo >= beta {
                        return (lo, u32::from(d));
                    }
                    if hi <= alpha {
                        return (hi, u32::from(d));
                    }
                }
                Some(_) => {}
            }
            hint = st.best;
        }
        if depth == 0 {
            // A leaf needs only whether the game is over, not its moves
            // ([`Rules::outcome`]; Kalah answers without sowing).
            return match R::outcome(pos) {
                Some(score) => (final_gain(pos, score), EXACT),
                None => (0, 0),
            };
        }
        let mut moves = MoveList::new();
        if let Some(score) = R::generate(pos, &mut moves) {
            return (final_gain(pos, score), EXACT);
        }
        self.interior += 1;
        // Enhanced transposition cutoff: a child whose databases, seed
        // bounds or table entry (true, or a guess at least as deep) already
        // prove a cutoff ends the node before any search. Every child's
        // load (its database byte or its table bucket) is started before
        // any is read, so that their misses to memory overlap (as in the
        // exact search).
        let mut entries: [Option<&u8>; MAX_MOVES] = [None; MAX_MOVES];
        // The value of each move to a child the databases cover, read
        // here once: the move loop below uses it instead of searching the
        // child (a second rank computation), as the exact search does.
        let mut settled: [Option<i32>; MAX_MOVES] = [None; MAX_MOVES];
        let mut keys: [Option<PackedBoard>; MAX_MOVES] = [None; MAX_MOVES];
        let db = self.shared.db.as_deref().map(|d| (d, d.max_seeds()));
        start_loads(db, self.table, &moves, &mut keys, &mut entries, |_| true);
        for (i, (m, child)) in moves.iter().enumerate() {
            let c = move_gain(pos, child);
            let (mut lo, mut hi) = R::gain_bounds(child);
            // The reach of these bounds from `pos`.
            let mut reach = EXACT;
            if let Some(&b) = entries[i] {
                let g = i32::from(b as i8);
                (lo, hi) = (g, g);
            } else if let Some((st, gd)) = keys[i].and_then(|k| self.table.probe_guess(k)) {
                match gd {
                    None => {
                        lo = lo.max(i32::from(st.lower));
                        hi = hi.min(i32::from(st.upper));
                    }
                    Some(d) if u32::from(d) + 1 >= depth => {
                        lo = lo.max(i32::from(st.lower));
                        hi = hi.min(i32::from(st.upper));
                        reach = u32::from(d) + 1;
                    }
                    Some(_) => {}
                }
            }
            let vlo = if child.to_move() == pos.to_move() {
                c + lo
            } else {
                c - hi
            };
            if entries[i].is_some() {
                settled[i] = Some(vlo);
            }
            if vlo >= beta {
                if let Some(k) = key {
                    let stored = Stored {
                        lower: vlo as i16,
                        upper: ceiling as i16,
                        best: move_code(*m),
                        work: 0,
                    };
                    self.store(k, known, stored, reach);
                }
                return (vlo, reach);
            }
        }
        // The exact search's order, the table's move (a guess's too) first.
        let mut order = [(0i32, 0u8); MAX_MOVES];
        for (i, (m, child)) in moves.iter().enumerate() {
            let score = order_score(
                move_gain(pos, child),
                child.to_move() == pos.to_move(),
                move_code(*m) == hint,
            );
            order[i] = (score, i as u8);
        }
        let order = &mut order[..moves.len()];
        sort_moves::<R>(order);
        let nodes_before = self.nodes;
        let mut best = i32::MIN;
        let mut best_move = NO_MOVE;
        // The reach of the moves searched, and of the best: a cut rests on
        // its one move, a failure on every move.
        let (mut reach, mut reach_best) = (EXACT, EXACT);
        for (nth, &(_, i)) in order.iter().enumerate() {
            if nth == 1 && self.ply < SPLIT_PLIES && rayon::current_num_threads() > 1 {
                // Young brothers wait, as in the exact search: the first
                // move did not cut, the others are searched in parallel
                // with the window it left; one that reaches `beta` stops
                // the others (their nodes would count against the budget
                // for nothing).
                let a = alpha.max(best);
                let cutoff = AtomicBool::new(false);
                let results: Vec<_> = order[1..]
                    .par_iter()
                    .map(|&(_, i)| {
                        let mut s = Self::new(self.table, self.shared, self.ply + 1);
                        s.flags.extend(self.flags.iter().copied());
                        s.flags.push(&cutoff);
                        let (v, r) = match settled[usize::from(i)] {
                            Some(v) => (v, EXACT),
                            None => s.value_of(pos, &moves[usize::from(i)].1, depth, a, beta),
                        };
                        if !s.stopped && v >= beta {
                            cutoff.store(true, Ordering::Relaxed);
                        }
                        (s.nodes, s.interior, s.stopped, v, r, i)
                    })
                    .collect();
                let mut unfinished = false;
                for (nodes, interior, stopped, v, r, i) in results {
                    self.nodes += nodes;
                    self.interior += interior;
                    if stopped {
                        unfinished = true;
                        continue;
                    }
                    reach = reach.min(r);
                    if v > best {
                        best = v;
                        best_move = move_code(moves[usize::from(i)].0);
                        reach_best = r;
                    }
                }
                // A move stopped by a sibling's cutoff is harmless (that
                // sibling reached `beta`); otherwise this search itself was
                // stopped from above.
                if (unfinished && best < beta)
                    || self.shared.stop.load(Ordering::Relaxed)
                    || self.flags.iter().any(|f| f.load(Ordering::Relaxed))
                {
                    self.stopped = true;
                }
                break;
            }
            let (m, child) = &moves[usize::from(i)];
            let (v, r) = match settled[usize::from(i)] {
                Some(v) => (v, EXACT),
                None => self.value_of(pos, child, depth, alpha.max(best), beta),
            };
            reach = reach.min(r);
            if v > best {
                best = v;
                best_move = move_code(*m);
                reach_best = r;
                if best >= beta {
                    break;
                }
            }
        }
        if self.stopped {
            return (0, 0);
        }
        if best >= beta {
            reach = reach_best;
        }
        if let Some(k) = key {
            // A node that failed low keeps the move it was given (module
            // docs, "Which move a node keeps").
            let kept = if best < beta && hint != NO_MOVE {
                hint
            } else {
                best_move
            };
            let stored = Stored {
                lower: if best > alpha { best } else { floor } as i16,
                upper: if best < beta { best } else { ceiling } as i16,
                best: kept,
                work: (64 - (self.nodes - nodes_before).leading_zeros()) as u8,
            };
            self.store(k, known, stored, reach);
        }
        (best, reach)
    }

    /// Stores `stored`, a result of reach `reach`: a true entry (merged
    /// with the true bounds `known` had) when nothing below it was cut by
    /// depth, else a guess entry of that reach (at most the most an entry
    /// holds: a shallower reach only makes it cut less).
    fn store(&self, k: PackedBoard, known: Option<Stored>, stored: Stored, reach: u32) {
        if reach == EXACT {
            self.table.store(k, merge(known, stored));
        } else {
            self.table
                .store_guess(k, stored, reach.min(u32::from(u8::MAX)) as u8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Kalah;
    use crate::search::{assert_entries_hold_exact, random_move, Options, Solver};
    use crate::variant::Variant;

    /// The guess's parallel iterations stop a split's other moves once one
    /// reaches `beta`; what they store as true bounds must still be true:
    /// after a first guess on two threads, every true entry in the table
    /// bounds the exact value of its board (a serial solve with a table of
    /// its own).
    #[test]
    fn a_parallel_guess_stores_only_true_bounds() {
        let v: Variant = "kalah:6x3".parse().unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let mut exact = Solver::new(Options {
            threads: 1,
            tt_bytes: 16 << 20,
            ..Options::default()
        });
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        for _ in 0..3 {
            // A position a few random moves into the game.
            let mut pos = v.start();
            for _ in 0..3 {
                let draw = || {
                    rng = rng
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    rng
                };
                let Some(next) = random_move::<Kalah>(&pos, draw) else {
                    break;
                };
                pos = next;
            }
            let table = Table::with_bytes(4 << 20);
            let shared = Shared::default();
            pool.install(|| first_guess::<Kalah>(&table, &shared, &pos));
            let entries = table.true_entries();
            checked += entries.len();
            assert_entries_hold_exact::<Kalah>(&mut exact, v.n(), entries, &v.to_string());
        }
        assert!(checked > 1000, "only {checked} entries checked");
    }

    /// A depth-limited search's result reaches at least the depth asked
    /// for, and its entry holds that reach: a guess entry of the reach, or
    /// a true entry (its bound the exact value's, when the search was
    /// exact) when no depth cut lies below it; a shallower search cuts on
    /// it and hands its reach on. Near the end of Kalah(3,3) many lines
    /// end before the depth, so both kinds occur.
    #[test]
    fn a_guess_entry_holds_the_reach_of_its_result() {
        let v: Variant = "kalah:3x3".parse().unwrap();
        let mut exact = Solver::new(Options {
            threads: 1,
            tt_bytes: 16 << 20,
            ..Options::default()
        });
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let (mut true_entries, mut guesses) = (0, 0);
        for _ in 0..200 {
            let mut pos = v.start();
            for _ in 0..6 {
                let draw = || {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    rng
                };
                let Some(next) = random_move::<Kalah>(&pos, draw) else {
                    break;
                };
                pos = next;
            }
            let mut moves = MoveList::new();
            if Kalah::generate(&pos, &mut moves).is_some() {
                continue;
            }
            let table = Table::with_bytes(1 << 20);
            let shared = Shared::default();
            let depth = 4;
            let (v, reach) = Shallow::<Kalah>::new(&table, &shared, 0).search(&pos, depth, -1, 0);
            assert!(reach >= depth, "reach {reach} below the depth {depth}");
            let key = PackedBoard::seen_by_mover(&pos).unwrap();
            let (stored, guess_depth) = table.probe_guess(key).expect("the root is stored");
            if reach == EXACT {
                assert_eq!(guess_depth, None, "an exact result stored as a guess");
                let g = exact.solve::<Kalah>(&pos).unwrap().gain;
                assert_eq!(v >= 0, g >= 0, "{pos}: {v} against the exact {g}");
                assert!(i32::from(stored.lower) <= g && g <= i32::from(stored.upper));
                true_entries += 1;
            } else {
                assert_eq!(guess_depth.map(u32::from), Some(reach.min(255)));
                // A shallower search of the same test cuts on the entry,
                // and its result keeps the entry's reach.
                let mut s = Shallow::<Kalah>::new(&table, &shared, 0);
                let (w, shallow) = s.search(&pos, depth - 2, -1, 0);
                assert_eq!((w, shallow, s.nodes), (v, reach, 1));
                guesses += 1;
            }
        }
        assert!(
            true_entries > 10 && guesses > 10,
            "{true_entries} exact, {guesses} guesses"
        );
    }

    /// The guess's budget: Kalah's grows with the board whatever the
    /// databases; a cyclic game's stays at the least without databases and
    /// grows with the seeds above them.
    #[test]
    fn the_budget_grows_with_the_seeds_above_the_databases_in_cyclic_games() {
        use crate::games::Akon;
        assert_eq!(node_budget::<Kalah>(36, None), MIN_BUDGET);
        assert_eq!(node_budget::<Kalah>(40, Some(20)), MIN_BUDGET << 2);
        assert_eq!(node_budget::<Kalah>(98, None), MAX_BUDGET);
        assert_eq!(node_budget::<Akon>(98, None), MIN_BUDGET);
        assert_eq!(node_budget::<Akon>(10, Some(8)), MIN_BUDGET);
        // Issue 20's Akon position: 21 seeds, databases to 8.
        assert_eq!(node_budget::<Akon>(21, Some(8)), MIN_BUDGET << 6);
        assert!(node_budget::<Akon>(21, Some(8)) <= MAX_BUDGET);
        assert_eq!(node_budget::<Akon>(60, Some(8)), MAX_BUDGET);
    }
}
