//! `db build` and `openings --count` on MPI ranks (`--features mpi`):
//! `mpirun -n K mancala db build ...` for K = 1, 2 and 3 writes level files
//! byte-identical to the single-process build, for every game at a small
//! size and for Awari to 12 seeds; it reuses the levels already built; bad
//! input ends every rank with exit status 2 and the rank in the message.
//! `mpirun -n K mancala openings --count` prints the single-process counts
//! of `dakon:6x6`, and a rank killed during a count (a test hook) leaves a
//! checkpoint from which a second run gives the right totals.
//!
//! Needs `mpirun` on the PATH (Debian: `openmpi-bin`). The ranks are
//! oversubscribed (`--oversubscribe`: three ranks on two cores are fine),
//! and allowed to run as root (CI runs as root).
#![cfg(feature = "mpi")]

#[path = "it/common/mod.rs"]
mod common;

use common::{ok, text, TempDir};
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
/// and compares every level file byte for byte; the log of the ranks says
/// `how` (the way the levels were built: on 2 and 3 ranks the relay games
/// record edges distributed over the ranks, `src/db/edges_on.rs`).
fn same_on_ranks(game: &str, max: usize, how: &str) {
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
        assert!(err.contains(how), "{game} on {ranks} ranks: {err}");
        let got = files(&dir.0);
        assert_eq!(got.len(), want.len(), "{game} on {ranks} ranks");
        for ((name, a), (_, b)) in want.iter().zip(&got) {
            assert!(a == b, "{game} on {ranks} ranks: {name} differs");
        }
    }
}

#[test]
fn awari_to_12_seeds_is_byte_identical_on_1_2_and_3_ranks() {
    same_on_ranks("awari", 12, "propagation:");
}

#[test]
fn kalah_is_byte_identical_on_ranks() {
    same_on_ranks("kalah", 10, "sweeps, moves generated");
}

/// The relay games, over recorded edges (in one process, and distributed
/// over 2 and 3 ranks: at 4 pits a row, level 12 has 50,388 boards, 16
/// shards a rank on two threads, and its counting and recording each take
/// several rounds of exchanges).
#[test]
fn the_relay_games_are_byte_identical_on_ranks() {
    for game in ["dakon:4x4", "anywoli:4x4", "akon:4x4", "djenon-abe:4x4"] {
        same_on_ranks(game, 12, "edges a board recorded");
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

/// `openings --game dakon:6x6 --count --both` on 1, 2 and 3 ranks prints
/// what one process prints.
#[test]
fn dakon_6x6_counts_on_ranks_equal_one_process() {
    let args = [
        "openings",
        "--game",
        "dakon:6x6",
        "--count",
        "--both",
        "--quiet",
    ];
    let want = ok(&args);
    assert!(
        want.contains("# winning 7564946 of 7657399 first turns"),
        "{want}"
    );
    for ranks in 1..=3 {
        let out = mpirun(ranks, &args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{ranks} ranks: {err}");
        assert_eq!(text(&out.stdout), want, "{ranks} ranks");
    }
}

/// Rank 1 dies after 300 jobs (the hook `MANCALA_TEST_RANK_DIES_AFTER_JOBS`,
/// with which rank 0 saves after every answer): the run fails, the
/// checkpoint holds the jobs done (not all), and a second run resumes from
/// it to the totals of one process.
#[test]
fn a_rank_killed_during_a_count_leaves_a_checkpoint_that_resumes() {
    let dir = TempDir::new("mpi-killed");
    let file = dir.0.join("count.txt");
    let file = file.to_str().unwrap();
    let args = [
        "openings",
        "--game",
        "dakon:6x6",
        "--count",
        "--quiet",
        "--checkpoint",
        file,
    ];
    let out = Command::new("mpirun")
        .args(["--oversubscribe", "-n", "3"])
        .arg(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("MANCALA_TEST_RANK_DIES_AFTER_JOBS", "300")
        .output()
        .expect("could not start mpirun");
    assert_ne!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    let saved = std::fs::read_to_string(file).expect("a checkpoint was saved");
    let done = saved.lines().filter(|l| l.starts_with("done ")).count();
    let jobs: usize = saved
        .lines()
        .find_map(|l| l.strip_prefix("split "))
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|j| j.parse().ok())
        .expect("a split line");
    assert!(done > 0 && done < jobs, "{done} of {jobs} jobs saved");
    let out = mpirun(3, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let want = ok(&["openings", "--game", "dakon:6x6", "--count", "--quiet"]);
    assert_eq!(text(&out.stdout), want);
}

/// Ranks with different threads (here 1 and 3, as on unlike nodes) cut the
/// level alike: the files are those of one process (Awari by unmoves, and
/// Anywoli over recorded edges distributed over the ranks).
#[test]
fn ranks_with_unlike_threads_build_the_same_files() {
    for game in ["awari", "anywoli:4x4"] {
        let tag = game.replace(':', "-");
        let one = TempDir::new(&format!("mpi-unlike-one-{tag}"));
        let dir = TempDir::new(&format!("mpi-unlike-{tag}"));
        ok(&[
            "db",
            "build",
            "--game",
            game,
            "--max-seeds",
            "11",
            "--dir",
            one.path(),
            "--quiet",
        ]);
        let rank = |threads: &'static str| {
            vec![
                "db",
                "build",
                "--game",
                game,
                "--max-seeds",
                "11",
                "--dir",
                dir.path(),
                "--quiet",
                "--threads",
                threads,
            ]
        };
        let out = Command::new("mpirun")
            .args(["--oversubscribe", "-n", "1"])
            .arg(env!("CARGO_BIN_EXE_mancala"))
            .args(rank("1"))
            .args([":", "-n", "2"])
            .arg(env!("CARGO_BIN_EXE_mancala"))
            .args(rank("3"))
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .output()
            .expect("could not start mpirun");
        assert_eq!(out.status.code(), Some(0), "{game}: {}", text(&out.stderr));
        assert!(files(&one.0) == files(&dir.0), "{game}: the files differ");
    }
}
