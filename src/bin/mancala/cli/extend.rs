//! The searches of `solve` and `analyse` above the databases: search for a
//! while, then build levels in memory and probe them
//! (`mancala::db::extend`): in the games whose positions can repeat, the
//! levels that build in about 12 s, then those within twice the seconds
//! at each stage, then the missing levels up to the position's; in
//! Kalah, the small levels that build in about 2 s.

use super::{CliError, SearchArgs};
use mancala::db::extend::{self, Extended, Plan};
use mancala::db::Tablebase;
use mancala::games::Rules;
use mancala::search::{SolveError, Solver};
use mancala::{dispatch, Position, Variant};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

/// Levels a search built in memory.
#[derive(Clone, Debug)]
pub struct Built {
    /// The first level built.
    pub from: usize,
    /// The last level built.
    pub top: usize,
    /// The levels built: `from..=top` less those no search from the
    /// position meets (`mancala::db::extend::reachable_levels`).
    pub levels: Vec<usize>,
    /// Boards built, in all.
    pub boards: u64,
    /// Seconds of the builds.
    pub seconds: f64,
    /// Nodes of the searches before the builds (stopped or failed; 0 when
    /// the builds came first), not counted in the solve's own nodes.
    pub nodes_before: u64,
    /// Of those, interior nodes (moves generated).
    pub interior_before: u64,
    /// Seconds from the start to the last build.
    pub seconds_before: f64,
}

/// What [`run`] did: its result, the solver that gave it (with its
/// table, for more searches of the same position), and the levels built.
pub struct Searched<T> {
    /// The search's result.
    pub value: T,
    /// The solver that gave it.
    pub solver: Solver,
    /// The levels built in memory, if any.
    pub built: Option<Built>,
}

/// The search before a build in memory runs with the stack (`--stack-mb`)
/// divided by this: about the depth the whole stack held before a
/// node's move arrays moved off it (`search::negamax`'s `Frame`: 1.7 KB a
/// ply then, 270 bytes now), some 600,000 plies with 1 GiB. A search lost
/// in a capture-free component, which the levels built in memory cut
/// short, then still fails for want of stack within seconds and the build
/// starts at once, as it did before. With the whole stack, Anywoli 12x4
/// positions of 10 seeds with databases to 8 went on searching for their
/// share of the build's time, deeper and deeper, and 1 of 8 was solved
/// within 60 s instead of 8 of 8 (`scripts/cycles.sh --levels 8 --count 8
/// --above 2 anywoli`). The search after the build has the whole stack.
const FIRST_STACK_SHARE: usize = 6;

/// Whether the table of the search before a build goes on to the search
/// after it (`Solver::into_learned`): in the games whose positions can
/// repeat, where the search before a build runs for many seconds and its
/// bounds cut the search after it by half or more (`data/cycles.md`,
/// "Stop 50"); not in Kalah, whose search before its one build runs
/// for about a second without levels. There the carried entries, which
/// the guess after the build cannot replace with its own, changed the
/// guess's iterations, and its budget (`search::estimate`) let a
/// different number of them run: on one thread, Kalah(5,5)'s guess
/// stopped after 21 plies instead of 24 and its first test took 21.6 M
/// nodes instead of 4.9 M; on two threads (`solve --game kalah:MxN
/// --threads 2`, five runs each, interleaved), carried and not: (5,5)
/// 65.2 to 65.7 M interior nodes, median 14.56 s, against 43.1 to 44.0 M,
/// 9.75 s; (6,4) 61.5 to 72.1 M, 14.59 s, against 55.7 to 56.4 M, 11.90
/// s. The bounds proven on the value itself go on in either game
/// (`Solver::assume_bounds`).
fn carries_table(variant: &Variant) -> bool {
    dispatch!(variant.game(), R => R::CYCLIC)
}

/// Runs `work` on a solver of `args` for `pos`. When `pos` has more seeds
/// than the databases hold (or there are none), levels may be built in
/// memory in stages ([`stages`]): before each, `work` runs for
/// [`Plan::search_first`] of that stage's build; if it has not finished,
/// the stage's levels are built (the first stage's above the databases,
/// each later stage's grown on the levels before) and the next search
/// runs on a solver that probes them, with the table of the solver before
/// where it pays ([`carries_table`]; `Solver::into_learned`: every bound
/// the searches before proved, at every position they settled, less their
/// guesses) and the bounds on the
/// value they proved (a solve's: `Solver::assume_bounds`; the note before
/// a build shows them); after the last stage `work` runs to its end.
/// The one table is smaller than `--tt-mb` by what the last stage keeps
/// from the start, so that it fits beside the levels of every stage; where
/// it is carried it is held through the builds, so their peak comes on top
/// of the part of it in use. A search before a build that fails for want
/// of stack or of room for the positions it holds open goes on to the
/// build too (the levels in memory cut those paths short). `--stop-after`
/// and Ctrl-C stop any phase: a stop during a build reports the bounds of
/// the search before it.
pub fn run<T: Send>(
    args: &SearchArgs,
    variant: &Variant,
    pos: &Position,
    work: impl Fn(&mut Solver) -> Result<T, SolveError> + Sync,
) -> Result<Searched<T>, CliError> {
    let begun = Instant::now();
    let db = args.database(variant, pos)?;
    let from = db.as_ref().map_or(0, |d| d.max_seeds() + 1);
    let probe = |ext: &Option<Arc<Extended>>| match ext {
        Some(e) => Some(e.clone() as Arc<dyn Tablebase>),
        None => db.clone().map(|d| d as Arc<dyn Tablebase>),
    };
    // Every solver's table is smaller by what the last stage keeps, so that
    // one table, handed from each solver to the next, fits beside the
    // levels of every stage.
    let threads = args.threads();
    let stages = stages(args, variant, pos, from, threads);
    if stages.is_empty() && !args.quiet {
        if let Some(missing) = too_large(args, variant, pos, from) {
            eprintln!("note: {missing}");
        }
    }
    let less = stages.last().map_or(0, |s| s.kept_bytes);
    let mut solver = args.solver_with(pos, probe(&None), less)?;
    // The levels built so far, the plan they were built by, and what the
    // JSON reports of them.
    let mut ext: Option<Arc<Extended>> = None;
    let mut done: Option<Plan> = None;
    let mut built: Option<Built> = None;
    let (mut nodes_before, mut interior_before) = (0, 0);
    // The bounds on the value the searches before the builds proved: each
    // later search starts from them (`Solver::assume_bounds`).
    let mut proven: Option<(i32, i32)> = None;
    let seed_bound = {
        let lead = pos.lead(pos.to_move());
        let (floor, ceiling) = dispatch!(variant.game(), R => R::gain_bounds(pos));
        (lead + floor, lead + ceiling)
    };
    let assume = |solver: &mut Solver, proven: Option<(i32, i32)>| match proven {
        Some((lo, hi)) => {
            dispatch!(variant.game(), R => solver.assume_bounds::<R>(pos, lo, hi))
        }
        None => Ok(()),
    };
    for stage in stages {
        let plan = done.as_ref().map_or(stage.clone(), |d| stage.above(d));
        let kept = done.as_ref().map_or(0, |d| d.kept_bytes);
        let first = plan.search_first(threads);
        let mut stopped = None;
        if first > 0.0 {
            // The search before a build gets a share of the stack only
            // (`FIRST_STACK_SHARE`).
            let stack = args.stack_bytes() / FIRST_STACK_SHARE;
            let learned = solver.into_learned();
            solver = args
                .solver_with_stack(pos, probe(&ext), less, stack)?
                .with_learned(learned);
            assume(&mut solver, proven)?;
            let left = args
                .stop_after
                .map(|s| (s - begun.elapsed().as_secs_f64()).max(0.0));
            let limit = left.map_or(first, |s| s.min(first));
            let result =
                args.with_progress_within(solver.progress(), Some(limit), || work(&mut solver));
            match result {
                Ok(value) => {
                    return Ok(Searched {
                        value,
                        solver,
                        built,
                    })
                }
                Err(SolveError::Stopped { bounds }) if !args.stop_requested(begun) => {
                    // Both true bounds of one value: their intersection
                    // is too.
                    proven = match (bounds, proven) {
                        (Some((a, b)), Some((c, d))) => Some((a.max(c), b.min(d))),
                        (b, p) => b.or(p),
                    };
                    stopped = Some(SolveError::Stopped { bounds: proven });
                }
                // Too deep or too many open positions: the levels built in
                // memory end those paths, so the build may still settle it.
                Err(SolveError::TooDeep { .. } | SolveError::TooLarge) => {}
                Err(e) => return Err(e.into()),
            }
            nodes_before += solver.nodes();
            interior_before += solver.progress().shared.interior.load(Relaxed);
        }
        let seconds_before = begun.elapsed().as_secs_f64();
        // The solver holds the levels built so far: they grow only once it
        // is gone. Its table stays, with every bound it proved, where it
        // pays.
        let learned = if carries_table(variant) {
            Some(solver.into_learned())
        } else {
            drop(solver);
            None
        };
        if !args.quiet {
            eprintln!(
                "note: {}building {} in memory ({} boards, about {:.0} s estimated)",
                if first > 0.0 {
                    format!(
                        "no answer after {:.1} s of search{}; ",
                        begun.elapsed().as_secs_f64(),
                        match proven {
                            // Within the seed bound: something proven.
                            Some((lo, hi)) if (lo, hi) != seed_bound => {
                                format!(" (the value lies in {lo}..={hi})")
                            }
                            _ => String::new(),
                        }
                    )
                } else {
                    String::new()
                },
                named_levels(&plan.levels),
                plan.boards,
                plan.seconds(threads)
            );
        }
        let started = Instant::now();
        let below = ext
            .take()
            .map(|e| Arc::try_unwrap(e).expect("no solver holds the levels while they grow"));
        let grown = match build(args, variant, db.clone(), below, &plan, begun) {
            Ok(grown) => grown,
            Err(extend::ExtendError::Stopped { .. }) => {
                return Err(stopped
                    .unwrap_or(SolveError::Stopped { bounds: None })
                    .into())
            }
            Err(e) => return Err(CliError::Db(e.to_string())),
        };
        let seconds = started.elapsed().as_secs_f64();
        if !args.quiet {
            eprintln!(
                "note: {} built in memory ({} boards, {} MiB, {:.1} s)",
                named_levels(&plan.levels),
                plan.boards,
                (plan.kept_bytes - kept).div_ceil(1 << 20),
                seconds
            );
        }
        built = Some(Built {
            from: stage.from,
            top: stage.top,
            levels: stage.levels.clone(),
            boards: stage.boards,
            seconds: built.map_or(0.0, |b| b.seconds) + seconds,
            nodes_before,
            interior_before,
            seconds_before,
        });
        ext = Some(Arc::new(grown));
        solver = args.solver_with(pos, probe(&ext), less)?;
        if let Some(learned) = learned {
            solver = solver.with_learned(learned);
        }
        assume(&mut solver, proven)?;
        done = Some(stage);
    }
    let left = args
        .stop_after
        .map(|s| (s - begun.elapsed().as_secs_f64()).max(0.0));
    let value = args.with_progress_within(solver.progress(), left, || work(&mut solver))?;
    Ok(Searched {
        value,
        solver,
        built,
    })
}

/// The stages of levels to build for `pos` from level `from` (the first
/// the databases do not hold), in the order they are built
/// ([`extend::stages`]); none without room for them (`--extend-mb`).
fn stages(
    args: &SearchArgs,
    variant: &Variant,
    pos: &Position,
    from: usize,
    threads: usize,
) -> Vec<Plan> {
    let (top, budget) = (pos.board_seeds(), args.extend_bytes());
    if top < from || budget == 0 {
        return Vec::new();
    }
    dispatch!(variant.game(), R => extend::stages::<R>(pos.n(), from, top, budget, threads))
}

/// When `pos` lies above the databases (or there are none) and the
/// lowest level a search from it meets does not fit `--extend-mb` (so
/// that [`stages`] has none to build), what it would take: the search goes
/// on without it, and the user learns why no level is built.
fn too_large(args: &SearchArgs, variant: &Variant, pos: &Position, from: usize) -> Option<String> {
    let (top, budget) = (pos.board_seeds(), args.extend_bytes());
    if top <= from || budget == 0 {
        return None;
    }
    let n = pos.n();
    dispatch!(variant.game(), R => {
        // The stages build the lowest levels first: say so only when the
        // lowest one the search meets does not fit.
        let lowest = extend::reachable_levels::<R>(from, top)[0];
        if extend::plan::<R>(n, from, lowest, budget).is_some() {
            return None;
        }
        // The least room it builds in, to a power of two of the budget
        // (a build takes a slower way in less room: `db::build_all`).
        let fits = (1..=40)
            .map(|d| budget.saturating_mul(1 << d))
            .find_map(|room| extend::plan::<R>(n, from, lowest, room).map(|p| (room, p)));
        Some(match fits {
            Some((room, p)) => format!(
                "no levels built in memory: the lowest above the databases that a \
                 search from this position meets, {lowest} ({} boards), does not build \
                 within --extend-mb ({} MiB) but within {} MiB; searching without it",
                p.boards,
                budget >> 20,
                room >> 20
            ),
            None => format!(
                "no levels built in memory: the lowest above the databases that a \
                 search from this position meets, {lowest}, holds more boards than a \
                 build can count; searching without it"
            ),
        })
    })
}

/// Builds `plan`'s levels of `variant`'s game (for the plan's row length,
/// the position's: with a bare `--game NAME` it need not be the variant's)
/// above `below` (levels built in memory by an earlier stage), or above
/// `base` when there are none, on the solver's threads (`--threads`), with
/// a progress bar, stopping on Ctrl-C or at `--stop-after` (counted from
/// `begun`).
pub(super) fn build(
    args: &SearchArgs,
    variant: &Variant,
    base: Option<Arc<mancala::db::Database>>,
    below: Option<Extended>,
    plan: &Plan,
    begun: Instant,
) -> Result<Extended, extend::ExtendError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads())
        .build()
        .map_err(|_| extend::ExtendError::NoMemory { k: plan.from })?;
    let progress = mancala::db::build::Progress::default();
    let stop = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    let show = args.shows_progress();
    let budget = args.extend_bytes();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let bar = if show {
                let bar = indicatif::ProgressBar::new(1);
                bar.set_style(
                    indicatif::ProgressStyle::with_template(
                        "{elapsed_precise} [{bar:30}] {percent:>3}% {msg}",
                    )
                    .expect("valid template")
                    .progress_chars("=> "),
                );
                bar
            } else {
                indicatif::ProgressBar::hidden()
            };
            while !done.load(Relaxed) {
                if args.stop_requested(begun) {
                    stop.store(true, Relaxed);
                }
                bar.set_length(progress.entries.load(Relaxed).max(1));
                bar.set_position(progress.done.load(Relaxed));
                bar.set_message(format!(
                    "building level {} of {}..={} in memory",
                    progress.level.load(Relaxed),
                    plan.from,
                    plan.top
                ));
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            bar.finish_and_clear();
        });
        let _done = super::SetOnDrop(&done);
        pool.install(|| match below {
            Some(mut ext) => dispatch!(variant.game(), R => ext.grow::<R>(plan, budget, &progress, &stop))
                .map(|()| ext),
            None => dispatch!(variant.game(), R => Extended::build::<R>(base, plan, budget, &progress, &stop)),
        })
    })
}

/// Levels in increasing order, named: `level 10`, `levels 13 to 16 and
/// 18`.
fn named_levels(levels: &[usize]) -> String {
    let noun = if levels.len() == 1 { "level" } else { "levels" };
    format!("{noun} {}", level_ranges(levels))
}

/// Levels in increasing order as ranges: `13 to 16 and 18`.
fn level_ranges(levels: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &k in levels {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == k => *end = k,
            _ => runs.push((k, k)),
        }
    }
    let text: Vec<String> = runs
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a} to {b}")
            }
        })
        .collect();
    match text.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => text.concat(),
    }
}

/// The JSON of the levels built in memory: `{"from", "top", "levels",
/// "boards", "seconds"}`, or `null` when none were.
pub fn json(built: Option<Built>) -> serde_json::Value {
    built.map_or(serde_json::Value::Null, |b| {
        serde_json::json!({
            "from": b.from,
            "top": b.top,
            "levels": b.levels,
            "boards": b.boards,
            "seconds": b.seconds,
            "nodes_before": b.nodes_before,
            "interior_before": b.interior_before,
            "seconds_before": b.seconds_before,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::{level_ranges, named_levels};

    #[test]
    fn levels_read_as_ranges() {
        assert_eq!(level_ranges(&[13, 14, 15, 16, 18]), "13 to 16 and 18");
        assert_eq!(level_ranges(&[10]), "10");
        assert_eq!(level_ranges(&[9, 10, 14]), "9 to 10 and 14");
        assert_eq!(level_ranges(&[1, 3, 5]), "1, 3 and 5");
        assert_eq!(level_ranges(&[0, 1, 2]), "0 to 2");
        assert_eq!(named_levels(&[10]), "level 10");
        assert_eq!(named_levels(&[13, 14, 16]), "levels 13 to 14 and 16");
    }
}
