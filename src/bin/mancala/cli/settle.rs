//! `solve`'s first try in Dakon: a first turn after which South gets every
//! seed still to be won ([`mancala::openings::settle`]), each turn's end
//! judged by the levels of `--db` or, without them, by the small levels
//! built in memory for it. Found, the value is proved (the most the
//! position can be worth) and `solve` answers at once; not found within
//! [`SEARCH_SECONDS`], `solve` searches as before (the levels built here
//! are dropped: the search builds its own, in stages, `extend.rs`).
//!
//! Only in Dakon, whose relay sowing makes first turns of dozens of moves
//! that can take every seed (rules.md's winning openings; `dakon:6x6` to
//! `dakon:10x10` are settled so), and only with South to move.

use super::extend::{build, Built};
use super::{CliError, SearchArgs};
use mancala::db::extend::plan_within;
use mancala::db::Tablebase;
use mancala::games::{Dakon, Game};
use mancala::openings::settle::{every_seed, Attempt};
use mancala::openings::shortest::Progress;
use mancala::search::Options as SolveOptions;
use mancala::side::Side;
use mancala::{Position, Variant};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The estimated seconds of the levels built in memory to judge the ends
/// of turns, without `--db`: `dakon:9x9`'s levels 0 to 9 (5 M boards),
/// `dakon:10x10`'s 0 to 8 (3 M). A settling turn must leave at most that
/// many seeds: `dakon:10x10` is settled with the levels to 8 in 0.5 s, not
/// with those to 7 within 20 s.
const LEVELS_SECONDS: f64 = 4.0;

/// The seconds the search for a settling turn may take. Where one exists
/// it was found within 0.14 s on `dakon:6x6` to `dakon:10x10`; where none
/// is found the solve has lost this much.
const SEARCH_SECONDS: f64 = 8.0;

/// Most boards the search for a turn remembers (about 2 GiB of boards and
/// keys, as `openings --shortest` allows itself 3 GiB).
const MAX_BOARDS: usize = 16 << 20;

/// A settled solve: the turn, what the search cost, and the levels built.
pub struct Outcome {
    /// The search's result, with its turn.
    pub attempt: Attempt,
    /// The levels built in memory to judge the turns' ends, if any.
    pub built: Option<Built>,
}

/// Tries to settle `pos` by a first turn (module docs); `None` when the
/// game is not Dakon, North is to move, there are no levels to judge with,
/// or no turn was found.
pub fn run(
    args: &SearchArgs,
    variant: &Variant,
    pos: &Position,
    begun: Instant,
) -> Result<Option<Outcome>, CliError> {
    if variant.game() != Game::Dakon || pos.to_move() != Side::South || pos.board_seeds() == 0 {
        return Ok(None);
    }
    super::catch_ctrl_c();
    // The solver's threads (`--threads`, by default the solver's own).
    let threads = args
        .threads
        .map_or_else(|| SolveOptions::default().threads, usize::from);
    let mut built = None;
    let levels: Arc<dyn Tablebase> = match args.database(variant, pos)? {
        Some(db) => db,
        None => {
            let budget = args.extend_bytes();
            // Levels below `top` only, and none above `n + 2` seeds: the
            // settling turns found leave at most `n` seeds or so (module
            // docs of `mancala::openings::settle`), and on small boards
            // every level builds within the seconds (`dakon:4x4`'s 0 to 22
            // took 1 s, against a solve of 0.02 s).
            let (n, top) = (pos.n(), pos.board_seeds().min(pos.n() + 3));
            let Some(plan) = (budget > 0)
                .then(|| plan_within::<Dakon>(n, 0, top, budget, threads, LEVELS_SECONDS))
                .flatten()
            else {
                return Ok(None);
            };
            let started = Instant::now();
            let ext = match build(args, variant, None, None, &plan, begun) {
                Ok(ext) => ext,
                // Stopped (Ctrl-C, --stop-after) or no room: the search
                // that follows reports it.
                Err(_) => return Ok(None),
            };
            built = Some(Built {
                from: plan.from,
                top: plan.top,
                levels: plan.levels.clone(),
                boards: plan.boards,
                seconds: started.elapsed().as_secs_f64(),
                nodes_before: 0,
                interior_before: 0,
                seconds_before: 0.0,
            });
            Arc::new(ext)
        }
    };
    let left = args.stop_after.map_or(SEARCH_SECONDS, |s| {
        (s - begun.elapsed().as_secs_f64()).clamp(0.0, SEARCH_SECONDS)
    });
    let progress = Progress::default();
    let done = AtomicBool::new(false);
    let attempt = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Relaxed) {
                if args.stop_requested(begun) {
                    progress.stop.store(true, Relaxed);
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let _done = super::SetOnDrop(&done);
        every_seed::<Dakon>(
            pos,
            levels.as_ref(),
            Some(Duration::from_secs_f64(left)),
            MAX_BOARDS,
            &progress,
        )
    });
    Ok(attempt
        .filter(|a| a.settled.is_some())
        .map(|attempt| Outcome { attempt, built }))
}
