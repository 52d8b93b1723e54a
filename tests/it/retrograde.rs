//! The solver against an exhaustive, deliberately simple retrograde
//! analysis (`tests/it/retro`, written from the rules document alone, on the
//! plain rules of `tests/it/plain`): every reachable position of small boards of
//! every game, positions on cycles included, must get the same value.

use crate::plain;
use crate::retro;

use mancala::search::{Options, Solver};
use mancala::{dispatch, Variant};

/// Reachable positions per variant at most (keeps the test to seconds).
const MAX_REACHABLE: usize = 20_000;

/// A start row of `tests/data/small_values.csv` (game, position, value,
/// reachable positions) within [`MAX_REACHABLE`].
struct SmallStart {
    spec: &'static str,
    variant: Variant,
    value: i32,
}

/// The start rows of the small table within [`MAX_REACHABLE`], in its
/// order (the table also has rows of other positions, which these tests
/// leave to the sweeps).
fn small_starts() -> impl Iterator<Item = SmallStart> {
    include_str!("../data/small_values.csv")
        .lines()
        .skip(1)
        .filter_map(|line| {
            // The position has commas itself.
            let f: Vec<&str> = line.split(',').collect();
            let spec = f[0];
            let position = f[1..f.len() - 2].join(",");
            let variant: Variant = spec.parse().unwrap();
            let value = f[f.len() - 2].parse().unwrap();
            let reachable: usize = f[f.len() - 1].parse().unwrap();
            (position == variant.start().to_string() && reachable <= MAX_REACHABLE).then_some(
                SmallStart {
                    spec,
                    variant,
                    value,
                },
            )
        })
}

fn check_variant(
    spec: &str,
    (tt_bytes, horizon, threads): (usize, usize, usize),
    failures: &mut Vec<String>,
) -> usize {
    let v: Variant = spec.parse().unwrap();
    let (name, n, s) = plain::parse_game(spec);
    let start = plain::start(&name, n, s);
    let Some(values) = retro::solve_reachable_limited(spec, &start, MAX_REACHABLE) else {
        return 0;
    };
    let mut solver = Solver::new(Options {
        threads,
        tt_bytes,
        horizon,
        ..Options::default()
    });
    let mut positions: Vec<_> = values.iter().collect();
    positions.sort_by_key(|(p, _)| plain::format_pos(p));
    for (p, &expected) in positions {
        let text = plain::format_pos(p);
        let pos = v.parse_position(&text).unwrap();
        let got = dispatch!(v.game(), R => solver.solve::<R>(&pos))
            .unwrap()
            .value;
        if got != expected && failures.len() < 30 {
            failures.push(format!(
                "{spec} \"{text}\" ({tt_bytes} bytes of table, horizon {horizon}, {threads} threads): solver {got}, retrograde {expected}"
            ));
        }
    }
    values.len()
}

/// Every game is checked with a table large enough to keep what it learns
/// and with a tiny one (1 MiB) that drops entries all the time: a value
/// that depended on the path that led to a position, once stored, would
/// show up with one of them. The games whose positions can repeat are
/// searched to horizons (`search::cycles`, "Horizons"): the default first
/// horizon, one of 2 plies, where most results lean on a horizon and only
/// those that may be stored must be (with the tiny table, so that a wrong
/// one would be found again after the true ones were dropped), and none.
/// The default is searched on two threads too: positions of 12 seeds or
/// more split their moves (`search::negamax`, `may_split`).
fn check_game(game: &str) {
    check_game_with(game, (16 << 20, mancala::search::DEFAULT_HORIZON, 1));
    check_game_with(game, (1 << 20, 2, 1));
    check_game_with(game, (16 << 20, 0, 1));
    check_game_with(game, (16 << 20, mancala::search::DEFAULT_HORIZON, 2));
}

fn check_game_with(game: &str, setting: (usize, usize, usize)) {
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut variants = 0;
    for start in small_starts().filter(|s| s.spec.split(':').next() == Some(game)) {
        let done = check_variant(start.spec, setting, &mut failures);
        if done > 0 {
            compared += done;
            variants += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        variants >= 5 && compared >= 2_000,
        "{game}: only {compared} positions in {variants} variants"
    );
}

/// The root of each test searches all its moves in parallel at once on
/// two threads (`search::negamax`, `races`). Each start in the small table
/// with seeds enough for a node to split (`search::negamax::SPLIT_MIN_SEEDS`),
/// solved afresh on two threads (a new solver each: nothing in the table
/// answers for the root), must give the retrograde value. A race that left
/// out a move gives wrong values here (`akon:2x5`: 2 instead of 4), where
/// the sweeps over every reachable position above, whose tables already
/// hold most roots, did not show it.
#[test]
fn fresh_parallel_solves_of_the_starts_agree() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for SmallStart {
        spec,
        variant,
        value,
    } in small_starts()
    {
        let start = variant.start();
        if start.board_seeds() < mancala::search::negamax::SPLIT_MIN_SEEDS {
            continue;
        }
        let mut solver = Solver::new(Options {
            threads: 2,
            tt_bytes: 16 << 20,
            ..Options::default()
        });
        let got = dispatch!(variant.game(), R => solver.solve::<R>(&start))
            .unwrap()
            .value;
        if got != value {
            failures.push(format!("{spec}: solver {got}, retrograde {value}"));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 20, "only {checked} starts checked");
}

#[test]
fn kalah_every_reachable_position() {
    check_game("kalah");
}

#[test]
fn awari_every_reachable_position() {
    check_game("awari");
}

#[test]
fn akon_every_reachable_position() {
    check_game("akon");
}

#[test]
fn djenon_abe_every_reachable_position() {
    check_game("djenon-abe");
}

#[test]
fn anywoli_every_reachable_position() {
    check_game("anywoli");
}

#[test]
fn dakon_every_reachable_position() {
    check_game("dakon");
}

/// `Rules::gain_bounds` holds: the future gain of every reachable position
/// of the small variants of every game, by the retrograde analysis, lies
/// within the bounds the rules claim (Kalah claims more than the seed
/// bound: a mover with seeds gets at least one of them). Also checks that
/// Kalah's sharper bound is met with equality somewhere, so the test would
/// notice a bound one seed too strong.
#[test]
fn gain_bounds_hold_on_every_reachable_position() {
    use mancala::games::Rules;
    let (mut checked, mut kalah_tight) = (0, 0);
    let mut failures = Vec::new();
    for SmallStart {
        spec, variant: v, ..
    } in small_starts()
    {
        let (name, n, s) = plain::parse_game(spec);
        let start = plain::start(&name, n, s);
        let values = retro::solve_reachable(spec, &start);
        for (p, &value) in &values {
            let pos = v.parse_position(&plain::format_pos(p)).unwrap();
            let me = pos.to_move();
            let gain = value - (i32::from(pos.captured(me)) - i32::from(pos.captured(me.other())));
            let (lo, hi) = dispatch!(v.game(), R => R::gain_bounds(&pos));
            if !(lo..=hi).contains(&gain) && failures.len() < 20 {
                failures.push(format!("{spec} \"{pos}\": gain {gain} outside {lo}..={hi}"));
            }
            if spec.starts_with("kalah") && gain == lo && lo > -(pos.board_seeds() as i32) {
                kalah_tight += 1;
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 10_000, "only {checked} positions");
    assert!(kalah_tight > 0, "Kalah's lower bound is never reached");
}

/// Horizons (`search::cycles`, "Horizons") answer a test whose paths
/// without a capture outgrow the stack: with 128 KiB, `awari:3x3`'s start
/// goes too deep at once without a horizon, and with the default horizon
/// gets the value of the exhaustive retrograde analysis, the same from
/// every reachable position of a small board with a 2-ply horizon.
#[test]
fn horizons_answer_where_paths_outgrow_the_stack() {
    use mancala::games::Awari;
    use mancala::search::SolveError;
    let spec = "awari:3x3";
    let v: Variant = spec.parse().unwrap();
    let (name, n, s) = plain::parse_game(spec);
    let start = plain::start(&name, n, s);
    let values = retro::solve_reachable_limited(spec, &start, 1_000_000).expect("a small board");
    let expected = values[&start];
    let shallow = |horizon| {
        Solver::new(Options {
            threads: 2,
            tt_bytes: 16 << 20,
            stack_bytes: 128 << 10,
            horizon,
            ..Options::default()
        })
    };
    assert!(matches!(
        shallow(0).solve::<Awari>(&v.start()),
        Err(SolveError::TooDeep { .. })
    ));
    let got = shallow(mancala::search::DEFAULT_HORIZON)
        .solve::<Awari>(&v.start())
        .unwrap();
    assert_eq!(got.value, expected, "{} reachable positions", values.len());
}
