//! `mancala db` from the command line: build, stats, probe and verify on a
//! small Kalah database; probes agree with `solve`; a corrupt, truncated or
//! mismatched file is refused with exit status 2 and a clear message by
//! every command that reads it, and `db build` replaces it.

use crate::common;

use common::{assert_bad, ok_lines, run, text, TempDir};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds Kalah with 3 pits a row, levels 0 to 6, in a new directory.
fn kalah_db(tag: &str) -> TempDir {
    let dir = TempDir::new(tag);
    let lines = ok_lines(&[
        "db",
        "build",
        "--game",
        "kalah:3x2",
        "--max-seeds",
        "6",
        "--dir",
        dir.path(),
        "--quiet",
    ]);
    assert_eq!(
        lines,
        [format!("built kalah levels 0 to 6 in {}", dir.path())]
    );
    dir
}

fn level_file(dir: &TempDir, k: usize) -> PathBuf {
    dir.0.join(format!("kalah-3-{k:03}.mdb"))
}

/// Every command that reads the databases refuses them, naming `why`.
fn all_refuse(dir: &TempDir, why: &str) {
    let d = dir.path();
    let position = "S 1,0,2/0,1,0 4-4";
    for args in [
        vec![
            "db",
            "probe",
            "--game",
            "kalah:3x2",
            "--position",
            position,
            "--dir",
            d,
        ],
        vec![
            "db",
            "stats",
            "--game",
            "kalah:3x2",
            "--seeds",
            "2",
            "--dir",
            d,
        ],
        vec!["db", "verify", "--game", "kalah:3x2", "--dir", d],
        vec![
            "solve",
            "--game",
            "kalah:3x2",
            "--position",
            position,
            "--db",
            d,
        ],
        vec![
            "analyse",
            "--game",
            "kalah:3x2",
            "--position",
            position,
            "--db",
            d,
        ],
    ] {
        let err = assert_bad(&args);
        assert!(err.contains(why), "mancala {args:?}: {err}");
    }
}

#[test]
fn build_stats_probe_and_verify() {
    let dir = kalah_db("ok");
    let d = dir.path();
    // Every board of a level is counted once: C(k + 5, 5) boards.
    for (k, boards) in [(0u64, 1u64), (1, 6), (4, 126), (6, 462)] {
        let lines = ok_lines(&[
            "db",
            "stats",
            "--game",
            "kalah:3x2",
            "--seeds",
            &k.to_string(),
            "--dir",
            d,
        ]);
        let total: u64 = lines
            .iter()
            .map(|l| l.split('\t').nth(1).unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, boards, "level {k}: {lines:?}");
    }
    let lines = ok_lines(&["db", "verify", "--game", "kalah:3x2", "--dir", d]);
    assert_eq!(lines.len(), 7);
    for (k, l) in lines.iter().enumerate() {
        assert_eq!(l, &format!("level {k}\t0 wrong"));
    }
    // A probe agrees with the solver, captured seeds included.
    for position in [
        "S 1,0,2/0,1,0 4-4",
        "N 2,0,0/0,3,1 3-3",
        "S 0,0,1/0,0,0 6-5",
    ] {
        let probe = ok_lines(&[
            "db",
            "probe",
            "--game",
            "kalah:3x2",
            "--position",
            position,
            "--dir",
            d,
        ]);
        let solve = ok_lines(&["solve", "--game", "kalah:3x2", "--position", position]);
        assert_eq!(probe[0], solve[0], "{position}");
        let with_db = ok_lines(&[
            "solve",
            "--game",
            "kalah:3x2",
            "--position",
            position,
            "--db",
            d,
        ]);
        assert_eq!(with_db[0], solve[0], "{position}");
        assert!(probe[1].starts_with("gain "), "{probe:?}");
    }
    // A second build reuses every level.
    ok_lines(&[
        "db",
        "build",
        "--game",
        "kalah:3x2",
        "--max-seeds",
        "6",
        "--dir",
        d,
        "--quiet",
    ]);
}

#[test]
fn probing_beyond_the_built_levels_is_a_clear_error() {
    let dir = kalah_db("beyond");
    let err = assert_bad(&[
        "db",
        "probe",
        "--game",
        "kalah:3x2",
        "--position",
        "S 2,2,2/2,2,2 0-0",
        "--dir",
        dir.path(),
    ]);
    assert!(err.contains("12 seeds") && err.contains("up to 6"), "{err}");
    let err = assert_bad(&[
        "db",
        "stats",
        "--game",
        "kalah:3x2",
        "--seeds",
        "9",
        "--dir",
        dir.path(),
    ]);
    assert!(err.contains("level 9"), "{err}");
    // Another row length or game has no database there.
    let err = assert_bad(&[
        "db",
        "stats",
        "--game",
        "kalah:4x2",
        "--seeds",
        "1",
        "--dir",
        dir.path(),
    ]);
    assert!(err.contains("no database"), "{err}");
    let err = assert_bad(&[
        "db",
        "stats",
        "--game",
        "awari:3x2",
        "--seeds",
        "1",
        "--dir",
        dir.path(),
    ]);
    assert!(err.contains("no database"), "{err}");
    let missing = dir.0.join("nowhere");
    assert_bad(&[
        "db",
        "stats",
        "--game",
        "kalah:3x2",
        "--seeds",
        "1",
        "--dir",
        missing.to_str().unwrap(),
    ]);
}

#[test]
fn a_corrupt_payload_is_refused_and_rebuilt() {
    let dir = kalah_db("corrupt");
    let f = level_file(&dir, 3);
    let mut bytes = std::fs::read(&f).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&f, &bytes).unwrap();
    all_refuse(&dir, "payload checksum");
    // The build finds the file invalid and builds the level again.
    ok_lines(&[
        "db",
        "build",
        "--game",
        "kalah:3x2",
        "--max-seeds",
        "6",
        "--dir",
        dir.path(),
        "--quiet",
    ]);
    ok_lines(&["db", "verify", "--game", "kalah:3x2", "--dir", dir.path()]);
}

#[test]
fn a_corrupt_header_is_refused() {
    let dir = kalah_db("header");
    let f = level_file(&dir, 2);
    let mut bytes = std::fs::read(&f).unwrap();
    bytes[20] ^= 0x40;
    std::fs::write(&f, &bytes).unwrap();
    all_refuse(&dir, "header");
    let mut bytes = std::fs::read(&f).unwrap();
    bytes[0] = b'X';
    std::fs::write(&f, &bytes).unwrap();
    all_refuse(&dir, "magic");
}

#[test]
fn a_truncated_file_is_refused() {
    let dir = kalah_db("truncated");
    let f = level_file(&dir, 5);
    let len = std::fs::metadata(&f).unwrap().len();
    let file = std::fs::OpenOptions::new().write(true).open(&f).unwrap();
    file.set_len(len - 10).unwrap();
    drop(file);
    all_refuse(&dir, "not a valid database file");
    // Shorter than a header.
    std::fs::write(&f, b"MANCALDB").unwrap();
    all_refuse(&dir, "not a valid database file");
}

#[test]
fn a_level_of_another_game_or_size_is_refused() {
    let dir = kalah_db("mismatch");
    // Level 4 put where level 5 belongs.
    std::fs::copy(level_file(&dir, 4), level_file(&dir, 5)).unwrap();
    all_refuse(&dir, "not a valid database file");
    // An Awari level under a Kalah name.
    let other = TempDir::new("mismatch-awari");
    ok_lines(&[
        "db",
        "build",
        "--game",
        "awari:3x2",
        "--max-seeds",
        "5",
        "--dir",
        other.path(),
        "--quiet",
    ]);
    std::fs::copy(other.0.join("awari-3-005.mdb"), level_file(&dir, 5)).unwrap();
    all_refuse(&dir, "not a valid database file");
    // And the Awari databases are not used for Kalah positions.
    let err = assert_bad(&[
        "solve",
        "--game",
        "awari:3x2",
        "--position",
        "S 1,0,2/0,1,0 4-4",
        "--db",
        dir.path(),
    ]);
    assert!(err.contains("awari"), "{err}");
}

#[test]
fn a_build_beyond_the_memory_ceiling_is_refused_before_it_starts() {
    let dir = TempDir::new("memory");
    let err = assert_bad(&[
        "db",
        "build",
        "--game",
        "awari:3x2",
        "--max-seeds",
        "40",
        "--memory",
        "12",
        "--dir",
        dir.path(),
        "--quiet",
    ]);
    assert!(err.contains("--memory"), "{err}");
    // Refused before any level is built: no level file, nothing partial
    // (the directory's lock at most).
    for entry in std::fs::read_dir(&dir.0).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert_eq!(name, mancala::db::lock::LOCK_FILE);
    }
    // Below that level, the same budget builds and verifies.
    let k: usize = err
        .split("level ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!(k > 20, "{err}");
    let below = (k - 1).to_string();
    ok_lines(&[
        "db",
        "build",
        "--game",
        "awari:3x2",
        "--max-seeds",
        &below,
        "--memory",
        "12",
        "--dir",
        dir.path(),
        "--quiet",
    ]);
    let lines = ok_lines(&["db", "verify", "--game", "awari:3x2", "--dir", dir.path()]);
    assert!(lines.len() > 20, "{lines:?}");
}

#[test]
fn bad_arguments_are_refused() {
    let dir = TempDir::new("args");
    let d = dir.path();
    assert_bad(&[
        "db",
        "build",
        "--game",
        "nonsense",
        "--max-seeds",
        "3",
        "--dir",
        d,
    ]);
    assert_bad(&[
        "db",
        "build",
        "--game",
        "kalah",
        "--max-seeds",
        "-1",
        "--dir",
        d,
    ]);
    assert_bad(&[
        "db",
        "build",
        "--game",
        "kalah",
        "--max-seeds",
        "200",
        "--dir",
        d,
    ]);
    assert_bad(&["db", "build", "--game", "kalah", "--dir", d]);
    assert_bad(&[
        "db",
        "probe",
        "--game",
        "kalah:3x2",
        "--position",
        "S 1,2/3 0-0",
        "--dir",
        d,
    ]);
    // A file where the directory should be.
    let file = Path::new(d).join("plain-file");
    std::fs::write(&file, b"x").unwrap();
    assert_bad(&[
        "db",
        "build",
        "--game",
        "kalah:3x2",
        "--max-seeds",
        "2",
        "--dir",
        file.to_str().unwrap(),
    ]);
}

#[test]
fn a_killed_build_keeps_its_finished_levels_and_resumes() {
    let dir = TempDir::new("killed");
    let d = dir.path();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args([
            "db",
            "build",
            "--game",
            "awari",
            "--max-seeds",
            "18",
            "--threads",
            "1",
            "--quiet",
            "--dir",
            d,
        ])
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    child.kill().unwrap();
    child.wait().unwrap();
    // What was finished is valid (level 0 takes no time at all).
    let lines = ok_lines(&["db", "verify", "--game", "awari", "--dir", d]);
    let built = lines.len();
    assert!((1..19).contains(&built), "{lines:?}");
    // A new build reuses those levels and clears the killed one's leftovers.
    let out = run(&[
        "db",
        "build",
        "--game",
        "awari",
        "--max-seeds",
        &(built - 1).to_string(),
        "--dir",
        d,
    ]);
    assert_eq!(out.status.code(), Some(0));
    let err = text(&out.stderr);
    assert_eq!(err.matches("valid file reused").count(), built, "{err}");
    for entry in std::fs::read_dir(&dir.0).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name == mancala::db::lock::LOCK_FILE {
            continue;
        }
        assert!(!name.starts_with('.'), "{name} left behind");
    }
}

#[test]
fn a_second_build_in_the_same_directory_is_refused_and_touches_nothing() {
    let dir = TempDir::new("locked");
    let d = dir.path();
    let build = ["db", "build", "--game", "awari:3x2", "--max-seeds", "6"];
    // Another build's temporary file, as a running build has one.
    let theirs = dir.0.join(".awari-3-004.mdb.tmp4242");
    std::fs::write(&theirs, b"half a level").unwrap();
    let listing = || {
        let mut v: Vec<String> = std::fs::read_dir(&dir.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    {
        // This test holds the lock as a running build would.
        let _held = mancala::db::lock::DirLock::acquire(&dir.0).unwrap();
        let before = listing();
        let err = assert_bad(&[&build[..], &["--dir", d, "--quiet"]].concat());
        assert!(err.contains("another build is running"), "{err}");
        assert_eq!(listing(), before, "the refused build changed the directory");
        assert_eq!(std::fs::read(&theirs).unwrap(), b"half a level");
    }
    // Lock released: the build runs and clears the stale temporary.
    ok_lines(&[&build[..], &["--dir", d, "--quiet"]].concat());
    assert!(!theirs.exists());
    // Readers ignore the lock: they open only finished levels.
    {
        let _held = mancala::db::lock::DirLock::acquire(&dir.0).unwrap();
        let lines = ok_lines(&["db", "verify", "--game", "awari:3x2", "--dir", d]);
        assert_eq!(lines.len(), 7, "{lines:?}");
        ok_lines(&[
            "db",
            "probe",
            "--game",
            "awari:3x2",
            "--position",
            "S 1,2,0/0,1,1 4-3",
            "--dir",
            d,
        ]);
    }

    // Two real processes: the second is refused while the first runs, and
    // the first finishes unharmed.
    let big = TempDir::new("locked-two");
    let mut first = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args([
            "db",
            "build",
            "--game",
            "awari",
            "--max-seeds",
            "12",
            "--threads",
            "1",
            "--method",
            "sweep",
            "--quiet",
            "--dir",
            big.path(),
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The first build holds the lock once it has written level 0.
    let level0 = big.0.join("awari-6-000.mdb");
    let start = std::time::Instant::now();
    while !level0.exists() {
        assert!(
            start.elapsed().as_secs() < 60,
            "the first build never began"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let out = run(&[
        "db",
        "build",
        "--game",
        "awari",
        "--max-seeds",
        "12",
        "--quiet",
        "--dir",
        big.path(),
    ]);
    // Levels 0 to 12 by sweeps take many seconds on one thread: the first
    // still runs.
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first build ended early"
    );
    let status = first.wait().unwrap();
    assert!(status.success(), "the first build failed: {status}");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("another build is running"));
    let lines = ok_lines(&["db", "verify", "--game", "awari", "--dir", big.path()]);
    assert_eq!(lines.len(), 13, "{lines:?}");
}

/// `--memory` is a promise for the propagation over recorded edges too
/// (Anywoli, no unmoves): with a ceiling that leaves the top level's edges
/// about two a board (four bytes each; one sweep leaves 2.7 to record),
/// the build sweeps until they fit and stays within it (and writes the
/// sweep build's files, checked by `tests/it/db.rs`).
#[cfg(target_os = "linux")]
#[test]
fn a_build_by_recorded_edges_stays_within_a_small_memory_ceiling() {
    use mancala::games::Anywoli;
    let dir = TempDir::new("ceiling-edges");
    let mib = 32;
    let peak = mancala::db::peak_bytes_within::<Anywoli>(12, 7, Default::default(), mib << 20);
    assert!(peak <= mib << 20, "announced {peak}");
    assert!(
        peak < mancala::db::peak_bytes::<Anywoli>(12, 7, Default::default()),
        "the ceiling limits the edges"
    );
    let out = run(&[
        "db",
        "build",
        "--game",
        "anywoli",
        "--max-seeds",
        "7",
        "--memory",
        &mib.to_string(),
        "--json",
        "--dir",
        dir.path(),
    ]);
    let log = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{log}");
    assert!(log.contains("edges a board recorded"), "{log}");
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["peak_bytes"], peak);
    let rss = j["max_resident_bytes"].as_u64().unwrap();
    assert!(rss <= mib << 20, "resident {rss} > ceiling {mib} MiB");
    eprintln!("announced {peak} bytes, measured {rss}\n{log}");
}

/// `--memory` is a promise: a build given exactly its announced peak
/// (rounded up to a MiB) runs, and its measured maximum resident set stays
/// within the ceiling and near the announcement.
#[cfg(target_os = "linux")]
#[test]
fn a_build_stays_within_a_small_memory_ceiling() {
    let dir = TempDir::new("ceiling");
    let peak = mancala::db::peak_bytes::<mancala::games::Awari>(6, 13, Default::default());
    let mib = peak.div_ceil(1 << 20);
    let out = run(&[
        "db",
        "build",
        "--game",
        "awari",
        "--max-seeds",
        "13",
        "--memory",
        &mib.to_string(),
        "--quiet",
        "--json",
        "--dir",
        dir.path(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["peak_bytes"], peak);
    let rss = j["max_resident_bytes"].as_u64().unwrap();
    assert!(rss <= mib << 20, "resident {rss} > ceiling {mib} MiB");
    assert!(
        rss * 2 > peak,
        "resident {rss}, announced {peak}: far too high"
    );
    eprintln!("announced {peak} bytes, measured {rss}");
    // One MiB less than the announcement is refused before it starts.
    let tight = TempDir::new("ceiling-tight");
    let err = assert_bad(&[
        "db",
        "build",
        "--game",
        "awari",
        "--max-seeds",
        "13",
        "--memory",
        &(mib - 1).to_string(),
        "--quiet",
        "--dir",
        tight.path(),
    ]);
    assert!(err.contains("--memory"), "{err}");
}
