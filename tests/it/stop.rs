//! Stopping a long solve: `--stop-after SECS` and Ctrl-C end it with exit
//! status 3 and the bounds on the value proven so far; a solve that ends
//! in time is unaffected.

use crate::common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The bounds `lo..=hi` of a stop message, if it gives them.
fn bounds(stderr: &str) -> Option<(i32, i32)> {
    let (_, tail) = stderr.split_once("lie in ")?;
    let (lo, hi) = tail.trim().split_once("..=")?;
    Some((lo.parse().ok()?, hi.parse().ok()?))
}

/// Runs `mancala ARGS` (a solve with `--stop-after`) and checks that it
/// ended within a minute with status 3 and the stop message; its stdout
/// and stderr.
fn stopped_solve(args: &[&str]) -> (Vec<u8>, String) {
    let t = Instant::now();
    let out = common::run(args);
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(err.starts_with("stopped before the end"), "{err}");
    (out.stdout, err)
}

#[test]
fn stop_after_ends_a_long_solve_with_its_proven_bounds() {
    // Kalah(5,5) takes minutes; its value is 2 (Irving et al.).
    let (stdout, err) = stopped_solve(&[
        "solve",
        "--game",
        "kalah:5x5",
        "--stop-after",
        "1",
        "--quiet",
    ]);
    assert!(stdout.is_empty());
    let (lo, hi) = bounds(&err).expect("a solve reports its bounds");
    assert!(lo <= 2 && 2 <= hi, "{err}");
    // analyse stops too, without bounds (each move has its own value).
    let out = common::run(&[
        "analyse",
        "--game",
        "kalah:5x5",
        "--stop-after",
        "0.5",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(3));
    // A solve that ends in time prints its value as usual.
    assert_eq!(
        common::ok(&["solve", "--game", "kalah:4x3", "--stop-after", "60"]),
        "value 8\nbest 2\n"
    );
}

#[test]
fn stop_after_ends_a_parallel_solve_that_splits_within_the_first_turn() {
    // Dakon 9x9: every node of South's first turn may split; a stopped
    // search once kept splitting into fresh searches that had not seen
    // the stop, and ran on for minutes. Without levels in memory
    // (`--extend-mb 0`) no first turn is tried before the search
    // (`tests/it/settle.rs`): the search itself is stopped.
    stopped_solve(&[
        "solve",
        "--game",
        "dakon:9x9",
        "--threads",
        "2",
        "--extend-mb",
        "0",
        "--stop-after",
        "2",
        "--quiet",
    ]);
}

#[test]
fn ctrl_c_ends_a_long_solve_with_its_proven_bounds() {
    let child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["solve", "--game", "kalah:5x5", "--quiet", "--threads", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("stopped before the end"), "{err}");
    if let Some((lo, hi)) = bounds(&err) {
        assert!(lo <= 2 && 2 <= hi, "{err}");
    }
}
