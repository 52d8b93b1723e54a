//! `solve` and `analyse` above the databases: the levels between the
//! databases and the position built in memory (`--extend-mb`), checked
//! against the level files `db build` writes.

use crate::common;

use common::{ok, run, TempDir};

/// The JSON object printed by `mancala ARGS --json`.
fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    serde_json::from_str(&ok(&all)).expect("one JSON object")
}

/// Awari positions with 8 to 10 seeds on the board (48 in all).
const AWARI: [&str; 6] = [
    "S 1,2,0,0,1,0/0,3,1,0,2,0 20-18",
    "N 0,0,4,0,0,1/2,0,0,1,0,0 22-18",
    "S 0,1,1,1,1,1/1,1,1,1,0,0 19-20",
    "N 3,0,0,0,0,0/0,0,0,0,0,5 10-30",
    "S 0,0,0,0,0,2/2,2,2,1,0,0 21-18",
    "N 1,0,1,0,1,0/1,0,1,0,1,1 25-16",
];

#[test]
fn levels_above_the_databases_are_built_in_memory_and_agree_with_the_files() {
    let full = TempDir::new("extend-full");
    let low = TempDir::new("extend-low");
    ok(&[
        "db",
        "build",
        "--game",
        "awari",
        "--max-seeds",
        "10",
        "--dir",
        full.path(),
        "--quiet",
    ]);
    ok(&[
        "db",
        "build",
        "--game",
        "awari",
        "--max-seeds",
        "6",
        "--dir",
        low.path(),
        "--quiet",
    ]);
    for pos in AWARI {
        let seeds: u64 = pos[2..]
            .split(' ')
            .next()
            .unwrap()
            .split([',', '/'])
            .map(|c| c.parse::<u64>().unwrap())
            .sum();
        let value = probe_value(full.path(), pos);
        let game = awari(pos);
        let built = json(&[&["solve", "--db", low.path()][..], &game[..]].concat());
        assert_eq!(built["value"], value, "{pos}");
        assert_eq!(built["built_in_memory"]["from"], 7, "{pos}");
        assert_eq!(built["built_in_memory"]["top"], seeds, "{pos}");
        // Without the extension the search answers alone, the same.
        let searched = json(
            &[
                &["solve", "--db", low.path(), "--extend-mb", "0"][..],
                &game[..],
            ]
            .concat(),
        );
        assert_eq!(searched["value"], value, "{pos}");
        assert!(searched["built_in_memory"].is_null(), "{pos}");
        // Without databases every level is built, from 0.
        let alone = json(&[&["solve"][..], &game[..]].concat());
        assert_eq!(alone["value"], value, "{pos}");
        assert_eq!(alone["built_in_memory"]["from"], 0, "{pos}");
    }
    // `analyse` too: every move's value against the files'.
    let pos = AWARI[0];
    let game = awari(pos);
    let built = json(&[&["analyse", "--db", low.path()][..], &game[..]].concat());
    let exact = json(&[&["analyse", "--db", full.path()][..], &game[..]].concat());
    assert_eq!(built["moves"], exact["moves"]);
    assert_eq!(built["built_in_memory"]["from"], 7);
    assert!(exact["built_in_memory"].is_null());
    // Without `--quiet`, stderr says what is built, before and after (10
    // seeds: levels 7, 8 and 10; 9 is left out, as a move takes none or
    // at least two), and stdout is the same JSON.
    let out = run(&[
        "solve",
        "--db",
        low.path(),
        "--game",
        "awari",
        "--position",
        pos,
        "--json",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("note: building levels 7 to 8 and 10 in memory ("),
        "{err}"
    );
    assert!(
        err.contains("note: levels 7 to 8 and 10 built in memory ("),
        "{err}"
    );
    let noted: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(noted["value"], probe_value(full.path(), pos));
}

/// The arguments of an Awari solve of `pos` on two threads, quietly.
fn awari(pos: &str) -> [&str; 7] {
    [
        "--game",
        "awari",
        "--position",
        pos,
        "--threads",
        "2",
        "--quiet",
    ]
}

/// The value `db probe` gives `pos` from the Awari databases in `dir`.
fn probe_value(dir: &str, pos: &str) -> serde_json::Value {
    json(&[
        "db",
        "probe",
        "--game",
        "awari",
        "--dir",
        dir,
        "--position",
        pos,
    ])["value"]
        .clone()
}

#[test]
fn kalah_builds_the_small_levels_when_its_search_does_not_answer_at_once() {
    // Kalah(3,3)'s levels below its 18 seeds take milliseconds: they are
    // built before any search, and the value is the level file's.
    let full = TempDir::new("extend-kalah");
    ok(&[
        "db",
        "build",
        "--game",
        "kalah:3x3",
        "--max-seeds",
        "18",
        "--dir",
        full.path(),
        "--quiet",
    ]);
    let start = "S 3,3,3/3,3,3 0-0";
    let probed = json(&[
        "db",
        "probe",
        "--game",
        "kalah:3x3",
        "--dir",
        full.path(),
        "--position",
        start,
    ])["value"]
        .clone();
    for threads in ["1", "2"] {
        let built = json(&[
            "solve",
            "--game",
            "kalah:3x3",
            "--threads",
            threads,
            "--quiet",
        ]);
        assert_eq!(built["value"], probed);
        assert_eq!(built["built_in_memory"]["from"], 0);
        assert_eq!(built["built_in_memory"]["top"], 17);
        let analysed = json(&[
            "analyse",
            "--game",
            "kalah:3x3",
            "--threads",
            threads,
            "--quiet",
        ]);
        assert!(!analysed["built_in_memory"].is_null(), "{analysed}");
    }
    // Kalah(4,3)'s levels would take about a second on two threads
    // (levels 0 to 23, 7.9 M boards; on many threads they would be built
    // at once): its search, which answers in a tenth of that, goes first
    // and needs none.
    let kalah = json(&["solve", "--game", "kalah:4x3", "--threads", "2", "--quiet"]);
    assert!(kalah["built_in_memory"].is_null());
    // Irving, Donkers and Uiterwijk (2000), table 9.
    assert_eq!(kalah["value"], 8);
    // `--extend-mb 0` searches alone, to the same value.
    let alone = json(&[
        "solve",
        "--game",
        "kalah:3x3",
        "--extend-mb",
        "0",
        "--quiet",
    ]);
    assert!(alone["built_in_memory"].is_null());
    assert_eq!(alone["value"], probed);
}

#[test]
fn small_budgets_only_search() {
    // A budget too small for the levels: the search answers alone.
    let pos = AWARI[2];
    let tight = json(&[
        "solve",
        "--game",
        "awari",
        "--position",
        pos,
        "--extend-mb",
        "1",
        "--quiet",
    ]);
    let roomy = json(&["solve", "--game", "awari", "--position", pos, "--quiet"]);
    assert!(tight["built_in_memory"].is_null());
    assert_eq!(tight["value"], roomy["value"]);
}

#[test]
fn a_level_too_large_for_the_budget_is_named() {
    // Anywoli takes fours: from 16 seeds over databases to 8 a search
    // meets level 12 (1,352,078 boards on 6 pits a row), which does not
    // fit 1 MiB; the note says so and what it takes, and the search goes on
    // alone.
    let low = TempDir::new("extend-anywoli");
    ok(&[
        "db",
        "build",
        "--game",
        "anywoli:6x4",
        "--max-seeds",
        "8",
        "--dir",
        low.path(),
        "--quiet",
    ]);
    let out = run(&[
        "solve",
        "--db",
        low.path(),
        "--game",
        "anywoli:6x4",
        "--position",
        "S 2,0,1,3,0,1/0,2,1,0,3,3 20-12",
        "--extend-mb",
        "1",
        "--threads",
        "1",
        "--stop-after",
        "1",
        "--json",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "note: no levels built in memory: the lowest above the databases that a \
             search from this position meets, 12 (1352078 boards), does not build within \
             --extend-mb (1 MiB) but within "
        ),
        "{err}"
    );
    assert!(matches!(out.status.code(), Some(0 | 3)), "{err}");
}

#[test]
fn a_budget_for_the_lowest_levels_builds_them_alone() {
    // 10 seeds without databases: levels 0 to 8 and 10 take more than 8
    // MiB at their peak, levels 0 to 8 fit (a game whose positions can
    // repeat builds first the lowest levels when the whole does not fit
    // or takes long, `db::extend::stages`); the value is the same. (The
    // search alone, `--extend-mb 0`, takes some 13 s on two threads from
    // this position; the test above checks it over databases to 6 seeds.)
    let pos = AWARI[0];
    let game = awari(pos);
    let low = json(&[&["solve", "--extend-mb", "8"][..], &game[..]].concat());
    assert_eq!(
        low["built_in_memory"]["levels"],
        serde_json::json!([0, 1, 2, 3, 4, 5, 6, 7, 8])
    );
    assert_eq!(low["built_in_memory"]["top"], 8);
    let whole = json(&[&["solve"][..], &game[..]].concat());
    assert_eq!(whole["built_in_memory"]["top"], 10);
    assert_eq!(low["value"], whole["value"]);
}

#[test]
fn a_stop_during_the_search_or_the_build_reports_incomplete_work() {
    // 18 seeds above databases to 12: the search without a horizon does
    // not finish for minutes (with the default horizon it answers within
    // a second), the levels 13 to 18 take some 20 s to build on two
    // cores. A stop in either phase is exit status 3, with no value.
    let low = TempDir::new("extend-stop");
    ok(&[
        "db",
        "build",
        "--game",
        "awari",
        "--max-seeds",
        "12",
        "--dir",
        low.path(),
        "--quiet",
    ]);
    let pos = "N 0,1,0,0,10,0/0,1,0,0,6,0 14-16";
    for secs in ["1", "6"] {
        let out = run(&[
            "solve",
            "--game",
            "awari",
            "--position",
            pos,
            "--db",
            low.path(),
            "--threads",
            "2",
            "--horizon",
            "0",
            "--stop-after",
            secs,
            "--quiet",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "--stop-after {secs}: {err}");
        assert!(out.stdout.is_empty(), "--stop-after {secs}");
        assert!(err.contains("stopped"), "--stop-after {secs}: {err}");
    }
    // A first search that runs out of stack (a sixth of 1 MiB before the
    // build: some 600 plies; no horizon holds it back) goes
    // on to the build, whose levels end its long paths: the value of the
    // 20-seed databases (issue 20), not the stack error.
    let solved = json(&[
        "solve",
        "--game",
        "awari",
        "--position",
        pos,
        "--db",
        low.path(),
        "--threads",
        "2",
        "--stack-mb",
        "1",
        "--horizon",
        "0",
        "--quiet",
    ]);
    assert_eq!(solved["value"], -12);
    assert_eq!(solved["built_in_memory"]["from"], 13);
    assert_eq!(solved["built_in_memory"]["top"], 18);
    // Level 17 is left out: a move from 18 seeds takes none or at least 2.
    assert_eq!(
        solved["built_in_memory"]["levels"],
        serde_json::json!([13, 14, 15, 16, 18])
    );
}

#[test]
fn a_bad_budget_is_refused() {
    let out = run(&["solve", "--game", "awari", "--extend-mb", "x"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_bare_game_builds_its_levels_for_the_rows_of_the_position() {
    // With a bare `--game awari` (6 pits a row by default) a position of 3
    // pits a row is Awari with 3 pits: the levels built in memory are of
    // that board (they were built for 6 pits a row, some 8 minutes, and
    // then refused as another board's).
    let bare = json(&[
        "solve",
        "--game",
        "awari",
        "--position",
        "S 4,4,4/4,4,4 0-0",
        "--quiet",
    ]);
    let sized = json(&["solve", "--game", "awari:3x4", "--quiet"]);
    assert_eq!(bare["value"], sized["value"]);
    assert_eq!(bare["built_in_memory"]["top"], 24);
}
