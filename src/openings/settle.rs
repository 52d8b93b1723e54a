//! A game settled by its first turn: South has a turn after which it gets
//! every seed still to be won, so the game value is the most it can be and
//! no search of the game tree is needed to prove it.
//!
//! **Why the value is exact.** From a position with South to move, South's
//! final score is at most its captured seeds plus every seed on the board
//! (North's captured seeds are North's for good), so the future gain is at
//! most the seeds on the board. A first turn `T` (South's moves joined by
//! extra moves) that ends at a position `P` with North to move, where the
//! exact levels say that North's future gain is minus the seeds on `P`'s
//! board (North gets none of them whatever it does), or that ends the game
//! with every seed South's, gives South exactly that bound: the value is proved, the upper bound by counting and the
//! lower bound by `T` followed by best play from `P`. Nothing of the search
//! that found `T` is trusted but its moves: [`every_seed`] replays them
//! with the rules (each but the last keeps the turn) and reads `P`'s value
//! from the levels again before it answers.
//!
//! **How `T` is found.** The shortest-opening search
//! ([`super::shortest::shortest_judged`]) with the goal "South's final
//! score is every seed", where a turn's end counts at its exact final
//! score when the levels cover its board (a [`super::shortest::Judge`]),
//! else at South's captured seeds. A strong winning opening of Dakon
//! leaves at most one pit's worth of seeds, and its sweeps and local
//! search (module doc of [`super::shortest`]) find many such turns
//! within a fraction of a second; among them, one whose ending North
//! loses entirely. A turn's end that the levels cover but that is not
//! such an ending counts at what South is sure of there (its captured
//! seeds and minus North's future gain), which guides the search towards
//! the good endings. Measured (`mancala solve`, 2 cores; the levels to
//! `n + 2` seeds or fewer, as `solve` builds them): `dakon:6x6` to
//! `dakon:10x10` settled within 0.003 to 0.5 s of search (turns of 32 to
//! 76 moves); `dakon:11x11` with its levels to 11 on disk in 1.2 s
//! (128 moves; 4.3 s when such ends counted at half the seeds left besides
//! South's share, an estimate from above); `dakon:5x5` proved to have no
//! such turn in 12 K positions (its value, 48, is less than its 50 seeds).
//! With fewer levels the ending must leave fewer seeds: `dakon:10x10` with
//! the levels to 8 in 0.5 s, to 7 or 6 none within 20 s.
//!
//! **Scope.** South to move only (the shortest-opening search follows
//! South's turns), on the engine's boards ([`Position`]).

use super::shortest::{shortest_judged, Engine, Options, Progress};
use crate::db::Tablebase;
use crate::games::{play, Move, Rules};
use crate::position::Position;
use crate::side::Side;
use std::time::Duration;

/// A first turn that settles the game: after it South gets every seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    /// South's moves, each but the last giving South the move again.
    pub moves: Vec<Move>,
    /// The position after them: North to move, and North gets none of the
    /// seeds on its board.
    pub after: Position,
    /// The future gain of the root for South: every seed on its board.
    pub gain: i32,
}

/// What [`every_seed`] found, and what it cost.
#[derive(Clone, Debug)]
pub struct Attempt {
    /// The settling turn, when one was found.
    pub settled: Option<Settled>,
    /// With `settled` `None`: whether the search proved that no first turn
    /// ending within the levels settles the game (it saw every turn).
    pub proved_none: bool,
    /// Positions the search expanded.
    pub nodes: u64,
    /// Seconds it took.
    pub seconds: f64,
}

/// Searches for a first turn of South's from `root` after which South gets
/// every seed on the board (module docs), judging each turn's end by
/// `levels` (exact databases of the game of `root`, any number of seeds);
/// at most `time`, remembering at most `max_boards` boards. `None` of the
/// search when `root` does not have South to move or the game is over.
pub fn every_seed<R: Rules>(
    root: &Position,
    levels: &dyn Tablebase,
    time: Option<Duration>,
    max_boards: usize,
    progress: &Progress,
) -> Option<Attempt> {
    if root.to_move() != Side::South || R::outcome(root).is_some() {
        return None;
    }
    let need = u32::from(root.captured(Side::South)) + root.board_seeds() as u32;
    let judge = |b: &Position| final_score::<R>(b, levels);
    let options = Options {
        need,
        time,
        max_boards,
        first_only: true,
    };
    let found = shortest_judged::<Engine<R>>(root, &options, progress, Some(&judge));
    let settled = found.best.map(|best| {
        let after = replay::<R>(root, &best.moves);
        assert_eq!(after, best.after, "the turn replays to where it ended");
        assert_eq!(
            turn_score::<R>(&after, levels),
            Some(need),
            "North gets none of the seeds left after the turn"
        );
        Settled {
            moves: best.moves,
            after,
            gain: root.board_seeds() as i32,
        }
    });
    Some(Attempt {
        proved_none: settled.is_none() && found.proved,
        settled,
        nodes: found.nodes,
        seconds: found.seconds,
    })
}

/// South's final score after a turn that ended at `b`: the game's when the
/// turn ended it, else under perfect play when `levels` cover the board.
fn turn_score<R: Rules>(b: &Position, levels: &dyn Tablebase) -> Option<u32> {
    match R::outcome(b) {
        Some(score) => Some(u32::from(score[Side::South])),
        None => final_score::<R>(b, levels),
    }
}

/// What South is sure to end with from `b` (North to move, the game not
/// over) when `levels` cover its board: its captured seeds, and of the
/// board at least minus North's future gain (North's share less South's;
/// seeds left at a repetition go to nobody, so South's share is at least
/// that, not always half the rest). Exact when it is every seed (North's
/// gain minus the board: North gets nothing), the only score the goal
/// asks for; below, a lower bound that guides the search.
fn final_score<R: Rules>(b: &Position, levels: &dyn Tablebase) -> Option<u32> {
    if b.to_move() != Side::North || R::outcome(b).is_some() {
        return None;
    }
    let north_gain = levels.gain(b)?;
    Some(u32::from(b.captured(Side::South)) + (-north_gain).max(0) as u32)
}

/// The position after South's `moves` from `root`, each but the last
/// keeping South to move (panics otherwise: the search only returns such
/// turns).
fn replay<R: Rules>(root: &Position, moves: &[Move]) -> Position {
    let mut p = *root;
    for (i, &m) in moves.iter().enumerate() {
        assert_eq!(p.to_move(), Side::South, "move {} is South's", i + 1);
        p = play::<R>(&p, m).expect("the turn's moves are legal");
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::build::Progress as BuildProgress;
    use crate::db::extend::{plan, Extended};
    use crate::games::Dakon;
    use crate::search::{Options as SolveOptions, Solver};
    use std::sync::atomic::AtomicBool;

    /// A one-thread solver with a small table.
    fn solver() -> Solver {
        Solver::new(SolveOptions {
            threads: 1,
            tt_bytes: 64 << 20,
            ..SolveOptions::default()
        })
    }

    /// The levels `0..=k` of Dakon with `n` pits a row, built in memory.
    fn levels(n: usize, k: usize) -> Extended {
        let memory = 1 << 30;
        let plan = plan::<Dakon>(n, 0, k, memory).expect("small levels fit");
        Extended::build::<Dakon>(
            None,
            &plan,
            memory,
            &BuildProgress::default(),
            &AtomicBool::new(false),
        )
        .expect("the levels build")
    }

    /// `dakon:6x6` and `dakon:7x7` are settled by a first turn, and the
    /// value it proves is the search's (72 and 98, `data/solved.md`); the
    /// search solves the ending it leaves, without databases, as North
    /// losing every seed on the board; `dakon:5x5` (value 48 of 50 seeds)
    /// has no such turn, proved.
    ///
    /// The ending's value alone proves the start's: the turn is replayed
    /// with the rules, and South then takes every seed, the most any game
    /// can give. The search from the start is asked on `dakon:6x6` only,
    /// where it takes a fraction of a second; on `dakon:7x7` it takes a
    /// minute on one thread without databases and would say nothing more.
    #[test]
    fn a_first_turn_that_takes_every_seed_settles_the_game() {
        for (n, value) in [(6, 72), (7, 98)] {
            let start = Position::start(n, n);
            let db = levels(n, n);
            let attempt =
                every_seed::<Dakon>(&start, &db, None, 1 << 20, &Progress::default()).unwrap();
            let settled = attempt.settled.expect("a settling turn");
            assert_eq!(settled.gain, value, "dakon:{n}x{n}");
            if n == 6 {
                assert_eq!(solver().solve::<Dakon>(&start).unwrap().gain, value);
            }
            let after = replay::<Dakon>(&start, &settled.moves);
            assert_eq!(after, settled.after);
            // Seeds are left: the levels' judgement, not the captures
            // alone, made the turn a win.
            assert!(after.board_seeds() > 0, "dakon:{n}x{n}");
            let ending = solver().solve::<Dakon>(&after).unwrap();
            assert_eq!(ending.gain, -(after.board_seeds() as i32), "dakon:{n}x{n}");
            // South's stores then hold every seed: the start's value.
            let south = i32::from(after.captured(Side::South)) + after.board_seeds() as i32;
            assert_eq!(south, (2 * n * n) as i32, "dakon:{n}x{n}");
            assert_eq!(value, south, "dakon:{n}x{n}");
        }
        let start = Position::start(5, 5);
        let attempt =
            every_seed::<Dakon>(&start, &levels(5, 5), None, 1 << 20, &Progress::default())
                .unwrap();
        assert!(attempt.settled.is_none() && attempt.proved_none);
    }

    /// A turn that ends the game with every seed South's settles it too
    /// (`dakon:1x3`: South's one move leaves North's row empty, and South
    /// takes the seed left: 6, every seed, the search's value too).
    #[test]
    fn a_first_turn_that_ends_the_game_with_every_seed_settles_it() {
        let start = Position::start(1, 3);
        let attempt =
            every_seed::<Dakon>(&start, &levels(1, 2), None, 1 << 10, &Progress::default())
                .unwrap();
        let settled = attempt.settled.expect("a settling turn");
        assert_eq!(settled.gain, 6);
        assert!(Dakon::outcome(&settled.after).is_some());
        assert_eq!(solver().solve::<Dakon>(&start).unwrap().gain, 6);
    }

    /// Only South's turns are searched.
    #[test]
    fn north_to_move_is_not_attempted() {
        let p: Position = "N 1,1,1/1,1,1 0-0".parse().unwrap();
        assert!(
            every_seed::<Dakon>(&p, &levels(3, 3), None, 1 << 10, &Progress::default()).is_none()
        );
    }
}
