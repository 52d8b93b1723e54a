//! `solve` settles a Dakon position by South's first turn when one takes
//! every seed (`mancala::openings::settle`, the command line's
//! `settle.rs`): the value is then the most the position can be worth,
//! proved here without the settling code: the turn replays with `apply`,
//! and the search alone solves the position it leaves as North losing
//! every seed on the board.

use crate::common;

use common::ok as mancala;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.extend(["--json", "--quiet"]);
    serde_json::from_str(&mancala(&a)).unwrap()
}

#[test]
fn dakon_9x9_is_won_with_every_seed_by_a_first_turn() {
    let j = json(&["solve", "--game", "dakon:9x9"]);
    assert_eq!(j["value"], 162, "{j}");
    let turn = &j["first_turn"];
    let moves: Vec<&str> = turn["moves"].as_str().unwrap().split(' ').collect();
    assert_eq!(j["best"], moves[0]);
    let mut args = vec!["apply", "--game", "dakon:9x9"];
    args.extend(&moves);
    let after = mancala(&args);
    assert_eq!(after.trim_end(), turn["after"].as_str().unwrap());
    // Every move but the last kept South to move.
    for k in 1..moves.len() {
        let mut args = vec!["apply", "--game", "dakon:9x9"];
        args.extend(&moves[..k]);
        assert!(mancala(&args).starts_with("S "), "after {k} moves");
    }
    // North to move: searched (no turn of North's is tried), without
    // levels in memory.
    let end = json(&[
        "solve",
        "--game",
        "dakon:9x9",
        "--position",
        after.trim_end(),
        "--extend-mb",
        "0",
    ]);
    assert!(end["first_turn"].is_null());
    assert_eq!(end["value"], -162, "{end}");
    // The text output says the same.
    assert_eq!(
        mancala(&["solve", "--game", "dakon:9x9", "--quiet"]),
        format!("value 162\nbest {}\n", moves[0])
    );
}

#[test]
fn a_position_no_first_turn_settles_is_searched() {
    // dakon:5x5 is worth 48 of its 50 seeds (`data/solved.md`): no turn
    // takes them all, and the search answers.
    let j = json(&["solve", "--game", "dakon:5x5"]);
    assert_eq!(j["value"], 48);
    assert!(j["first_turn"].is_null());
    assert!(j["interior_nodes"].as_u64().unwrap() > 1000);
}

#[test]
fn with_databases_on_disk_the_turn_is_judged_by_them() {
    let dir = common::TempDir::new("settle");
    mancala(&[
        "db",
        "build",
        "--game",
        "dakon:7x7",
        "--max-seeds",
        "7",
        "--dir",
        dir.path(),
        "--quiet",
    ]);
    let j = json(&["solve", "--game", "dakon:7x7", "--db", dir.path()]);
    assert_eq!(j["value"], 98);
    assert!(j["built_in_memory"].is_null());
    let after = j["first_turn"]["after"].as_str().unwrap();
    let seeds: u32 = after[2..after.rfind(' ').unwrap()]
        .split([',', '/'])
        .map(|c| c.parse::<u32>().unwrap())
        .sum();
    assert!(seeds <= 7, "{after}");
}
