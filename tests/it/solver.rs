//! The exact solver: published Kalah values, agreement of parallel and
//! serial search, and consistency of `solve` with `analyse`. (Agreement
//! with an exhaustive retrograde analysis on every reachable position of
//! small boards is in `tests/it/retrograde.rs`.)

use crate::common;

use mancala::games::MoveList;
use mancala::search::{Options, Solver};
use mancala::{dispatch, Game, Position, Variant};

fn solver(threads: usize) -> Solver {
    Solver::new(Options {
        threads,
        tt_bytes: 64 << 20,
        ..Options::default()
    })
}

#[test]
fn published_kalah_values() {
    let text = include_str!("../data/kalah_values.csv");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f[2] != "yes" {
            continue;
        }
        let v: Variant = f[0].parse().unwrap();
        let expected: i32 = f[1].parse().unwrap();
        let s = solver(1)
            .solve::<mancala::games::Kalah>(&v.start())
            .unwrap();
        assert_eq!(s.value, expected, "{}", f[0]);
        checked += 1;
    }
    assert!(checked >= 9, "only {checked} published values checked");
}

/// Positions reached by random play in small variants of every game.
fn random_positions(game: Game, count: usize, seed: u64) -> Vec<(Variant, Position)> {
    let mut next = common::lcg(seed);
    let mut out = Vec::new();
    let mut moves = MoveList::new();
    while out.len() < count {
        let n = 2 + next(2) as usize;
        let s = 1 + next(3) as usize;
        let v: Variant = format!("{game}:{n}x{s}").parse().unwrap();
        let mut pos = v.start();
        let plies = next(30);
        for _ in 0..plies {
            if v.generate(&pos, &mut moves).is_some() {
                break;
            }
            pos = moves[next(moves.len() as u64) as usize].1;
        }
        out.push((v, pos));
    }
    out
}

#[test]
fn parallel_and_serial_search_agree() {
    let mut serial = solver(1);
    let mut parallel = solver(2);
    let mut compared = 0;
    for game in Game::ALL {
        for (v, pos) in random_positions(game, 40, 7 + game as u64) {
            let a = dispatch!(game, R => serial.solve::<R>(&pos)).unwrap();
            let b = dispatch!(game, R => parallel.solve::<R>(&pos)).unwrap();
            assert_eq!(a.value, b.value, "{v} \"{pos}\"");
            serial.table().clear();
            parallel.table().clear();
            compared += 1;
        }
    }
    assert_eq!(compared, 240);
}

#[test]
fn solve_agrees_with_analyse_and_best_move_keeps_the_value() {
    let mut s = solver(1);
    for game in Game::ALL {
        for (v, pos) in random_positions(game, 25, 99 + game as u64) {
            let sol = dispatch!(game, R => s.solve::<R>(&pos)).unwrap();
            let per_move = dispatch!(game, R => s.analyse::<R>(&pos)).unwrap();
            match sol.best {
                None => assert!(per_move.is_empty(), "{v} \"{pos}\""),
                Some(best) => {
                    let max = per_move.iter().map(|(_, x)| *x).max().unwrap();
                    assert_eq!(max, sol.value, "{v} \"{pos}\": {per_move:?}");
                    let kept = per_move.iter().find(|(m, _)| *m == best).unwrap().1;
                    assert_eq!(kept, sol.value, "{v} \"{pos}\": best {best}");
                }
            }
        }
    }
}

#[test]
fn a_level_too_large_fails_cleanly_and_the_solver_recovers() {
    use mancala::games::Awari;
    use mancala::search::SolveError;
    let mut tiny = Solver::new(Options {
        threads: 1,
        tt_bytes: 1 << 20,
        region_limit: 50,
        ..Options::default()
    });
    let v: Variant = "awari:4x2".parse().unwrap();
    assert_eq!(tiny.solve::<Awari>(&v.start()), Err(SolveError::TooLarge));
    // A position without repetitions still solves with the same solver.
    let k: Variant = "kalah:4x3".parse().unwrap();
    let s = tiny.solve::<mancala::games::Kalah>(&k.start()).unwrap();
    assert_eq!(s.value, 8);
    // And with room enough, the same awari position solves (value 0).
    assert_eq!(solver(1).solve::<Awari>(&v.start()).unwrap().value, 0);
}

#[test]
fn a_search_deeper_than_its_stack_fails_cleanly_and_the_solver_recovers() {
    use mancala::games::Awari;
    use mancala::search::SolveError;
    // 128 KiB of stack holds a few dozen plies: the full Awari board goes
    // deeper at once. The solve must fail with an error, not abort.
    let mut shallow = Solver::new(Options {
        threads: 2,
        tt_bytes: 1 << 20,
        stack_bytes: 128 << 10,
        // No horizon: the search goes as deep as its paths at once.
        horizon: 0,
        ..Options::default()
    });
    let v: Variant = "awari".parse().unwrap();
    assert!(matches!(
        shallow.solve::<Awari>(&v.start()),
        Err(SolveError::TooDeep { .. })
    ));
    // Shallow positions still solve with the same solver.
    let small: Variant = "awari:2x2".parse().unwrap();
    let got = shallow.solve::<Awari>(&small.start()).unwrap().value;
    assert_eq!(got, solver(1).solve::<Awari>(&small.start()).unwrap().value);
}

#[test]
fn a_small_stack_holds_long_paths_without_a_capture() {
    use mancala::games::Anywoli;
    // The search of anywoli:5x4 follows a path of positions without a
    // capture deeper than a 1 MiB stack held when each ply kept its
    // node's move arrays on the stack (1.7 KB a ply: the solve failed as
    // too deep); with them in the searcher's pooled frames it solves.
    // Since the first guess stores its results' reach (stop 54) the
    // search tries its moves in another order, and its longest path needs
    // more than 1 MiB of stack and less than 2 MiB: it gets 2 MiB. (What a
    // ply keeps across the recursion is guarded by the size of a frame:
    // `a_frame_holds_only_what_lives_across_the_recursion` in
    // `search/negamax.rs`.) An unoptimised build's frames are larger: it
    // gets more stack.
    let mib = if cfg!(debug_assertions) { 8 } else { 2 };
    let mut small = Solver::new(Options {
        threads: 1,
        tt_bytes: 64 << 20,
        stack_bytes: mib << 20,
        horizon: 0,
        ..Options::default()
    });
    let v: Variant = "anywoli:5x4".parse().unwrap();
    let got = small.solve::<Anywoli>(&v.start()).unwrap();
    assert_eq!(
        got.value,
        solver(2).solve::<Anywoli>(&v.start()).unwrap().value
    );
}

#[test]
fn the_table_layout_follows_the_widest_key() {
    use mancala::games::Kalah;
    let mut s = solver(1);
    // Kalah(4,3): 24 seeds over 12 pits, 36-bit keys: 16-byte entries.
    let small: Variant = "kalah:4x3".parse().unwrap();
    assert_eq!(s.solve::<Kalah>(&small.start()).unwrap().value, 8);
    assert_eq!(s.table().entry_bytes(), 16);
    // 72 seeds over 12 pits need 84 bits, more than a narrow entry's 80:
    // the solver changes to 32-byte entries. South's one move ends the
    // game: 1 seed sown into South's store, then South's row is empty and
    // North takes its 71.
    let big: Variant = "kalah:6x6".parse().unwrap();
    let pos = big
        .parse_position("S 0,0,0,0,0,1/10,10,10,10,10,21 0-0")
        .unwrap();
    assert_eq!(s.solve::<Kalah>(&pos).unwrap().value, -70);
    assert_eq!(s.table().entry_bytes(), 32);
    // A wide table holds every key: a board of the same game and size
    // with fewer seeds solves in it (1 seed each more: 41 - 31).
    let few = big
        .parse_position("S 0,0,0,0,0,1/1,0,0,0,0,0 40-30")
        .unwrap();
    assert_eq!(s.solve::<Kalah>(&few).unwrap().value, 10);
    assert_eq!(s.table().entry_bytes(), 32);
    // Another size: a fresh table, narrow again.
    assert_eq!(s.solve::<Kalah>(&small.start()).unwrap().value, 8);
    assert_eq!(s.table().entry_bytes(), 16);
}
