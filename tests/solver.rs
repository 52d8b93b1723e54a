//! The exact solver: published Kalah values, agreement of parallel and
//! serial search, and consistency of `solve` with `analyse`. (Agreement
//! with an exhaustive retrograde analysis on every reachable position of
//! small boards is in `tests/retrograde.rs`.)

use mancala::games::MoveList;
use mancala::search::{Options, Solver};
use mancala::{dispatch, Game, Position, Variant};

fn solver(threads: usize) -> Solver {
    Solver::new(Options {
        threads,
        tt_bytes: 64 << 20,
    })
}

#[test]
fn published_kalah_values() {
    let text = include_str!("data/kalah_values.csv");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f[2] != "yes" {
            continue;
        }
        let v: Variant = f[0].parse().unwrap();
        let expected: i32 = f[1].parse().unwrap();
        let s = solver(1).solve::<mancala::games::Kalah>(&v.start());
        assert_eq!(s.value, expected, "{}", f[0]);
        checked += 1;
    }
    assert!(checked >= 9, "only {checked} published values checked");
}

/// Positions reached by random play in small variants of every game.
fn random_positions(game: Game, count: usize, seed: u64) -> Vec<(Variant, Position)> {
    let mut x = seed;
    let mut next = move |n: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % n
    };
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
    let serial = solver(1);
    let parallel = solver(2);
    let mut compared = 0;
    for game in Game::ALL {
        for (v, pos) in random_positions(game, 40, 7 + game as u64) {
            let a = dispatch!(game, R => serial.solve::<R>(&pos));
            let b = dispatch!(game, R => parallel.solve::<R>(&pos));
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
    let s = solver(1);
    for game in Game::ALL {
        for (v, pos) in random_positions(game, 25, 99 + game as u64) {
            let sol = dispatch!(game, R => s.solve::<R>(&pos));
            let per_move = dispatch!(game, R => s.analyse::<R>(&pos));
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
