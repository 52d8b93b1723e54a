//! `db build` on MPI ranks (`--features mpi`): `mpirun -n K mancala db
//! build ...` for K = 1, 2 and 3 writes level files byte-identical to the
//! single-process build, for every game at a small size and for Awari to
//! 12 seeds; it reuses the levels already built; bad input ends every rank
//! with exit status 2 and the rank in the message.
//!
//! Needs `mpirun` on the PATH (Debian: `openmpi-bin`). The ranks are
//! oversubscribed (`--oversubscribe`: three ranks on two cores are fine),
//! and allowed to run as root (CI runs as root).
#![cfg(feature = "mpi")]

mod common;

use common::{ok, TempDir};
use std::path::Path;
use std::process::{Command, Output};

/// `mpirun -n ranks mancala ARGS`.
fn mpirun(ranks: usize, args: &[&str]) -> Output {
    Command::new("mpirun")
        .args(["--oversubscribe", "-n", &ranks.to_string()])
        .arg(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .expect("could not start mpirun (install openmpi-bin)")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every file of `dir`, by name, with its bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .filter(|(name, _)| name.ends_with(".mdb"))
        .collect();
    out.sort();
    out
}

/// Builds `game` to `max` seeds in one process, then on 1, 2 and 3 ranks,
/// and compares every level file byte for byte.
fn same_on_ranks(game: &str, max: usize) {
    let tag = game.replace(':', "-");
    let one = TempDir::new(&format!("mpi-{tag}-one"));
    let max = max.to_string();
    ok(&[
        "db",
        "build",
        "--game",
        game,
        "--max-seeds",
        &max,
        "--dir",
        one.path(),
        "--quiet",
    ]);
    let want = files(&one.0);
    assert_eq!(want.len(), max.parse::<usize>().unwrap() + 1, "{game}");
    for ranks in 1..=3 {
        let dir = TempDir::new(&format!("mpi-{tag}-{ranks}"));
        let out = mpirun(
            ranks,
            &[
                "db",
                "build",
                "--game",
                game,
                "--max-seeds",
                &max,
                "--dir",
                dir.path(),
            ],
        );
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{game} on {ranks} ranks: {err}");
        // Rank 0 alone reports: one line of output, one log line a level.
        assert_eq!(
            text(&out.stdout).lines().count(),
            1,
            "{game}: {}",
            text(&out.stdout)
        );
        assert_eq!(
            err.lines().filter(|l| l.starts_with("level 0:")).count(),
            1,
            "{game} on {ranks} ranks: {err}"
        );
        let got = files(&dir.0);
        assert_eq!(got.len(), want.len(), "{game} on {ranks} ranks");
        for ((name, a), (_, b)) in want.iter().zip(&got) {
            assert!(a == b, "{game} on {ranks} ranks: {name} differs");
        }
    }
}

#[test]
fn awari_to_12_seeds_is_byte_identical_on_1_2_and_3_ranks() {
    same_on_ranks("awari", 12);
}

#[test]
fn kalah_is_byte_identical_on_ranks() {
    same_on_ranks("kalah", 10);
}

#[test]
fn the_relay_games_are_byte_identical_on_ranks() {
    for game in ["dakon:4x4", "anywoli:4x4", "akon:4x4", "djenon-abe:4x4"] {
        same_on_ranks(game, 12);
    }
}

/// Levels built before (here by one process, as a build stopped after
/// level 6 leaves them) are reused by the ranks, which build the rest.
#[test]
fn ranks_reuse_the_levels_built() {
    let dir = TempDir::new("mpi-reuse");
    ok(&[
        "db",
        "build",
        "--game",
        "awari:4x4",
        "--max-seeds",
        "6",
        "--dir",
        dir.path(),
        "--quiet",
    ]);
    let out = mpirun(
        2,
        &[
            "db",
            "build",
            "--game",
            "awari:4x4",
            "--max-seeds",
            "10",
            "--dir",
            dir.path(),
        ],
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("level 6: 1716 boards, valid file reused"),
        "{err}"
    );
    assert!(err.contains("level 7: 3432 boards built"), "{err}");
    let one = TempDir::new("mpi-reuse-one");
    ok(&[
        "db",
        "build",
        "--game",
        "awari:4x4",
        "--max-seeds",
        "10",
        "--dir",
        one.path(),
        "--quiet",
    ]);
    assert!(files(&one.0) == files(&dir.0), "reused build differs");
}

/// Bad input: every rank fails alike, says which it is (the first to end
/// the run may be either), and the run ends with exit status 2.
#[test]
fn bad_input_ends_the_ranks_with_status_2() {
    let dir = TempDir::new("mpi-bad");
    let out = mpirun(
        2,
        &[
            "db",
            "build",
            "--game",
            "nope",
            "--max-seeds",
            "3",
            "--dir",
            dir.path(),
        ],
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(" of 2: bad --game: unknown game"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
