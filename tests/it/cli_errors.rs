//! Bad input to the `mancala` command line (see `shared/spec/interface.md`):
//! every error is exit status 2, nothing on stdout, a message on stderr, and
//! never a panic. Also: the start position is the default `--position`.

use crate::common;

use common::{assert_bad, ok_lines};

const KALAH_START: &str = "S 4,4,4,4,4,4/4,4,4,4,4,4 0-0";

/// A bad game spec is refused by `moves` (with and without a position) and
/// by `apply`.
fn bad_game(game: &str) {
    assert_bad(&["moves", "--game", game]);
    assert_bad(&["moves", "--game", game, "--position", KALAH_START]);
    assert_bad(&["apply", "--game", game, "--position", KALAH_START, "1"]);
}

/// A bad position is refused by both `moves` and `apply`.
fn bad_position(game: &str, pos: &str) {
    assert_bad(&["moves", "--game", game, "--position", pos]);
    assert_bad(&["apply", "--game", game, "--position", pos, "1"]);
}

/// An illegal move sequence is refused by `apply`.
fn bad_moves(game: &str, pos: &str, mvs: &[&str]) -> String {
    let mut args = vec!["apply", "--game", game, "--position", pos];
    args.extend_from_slice(mvs);
    assert_bad(&args)
}

// ---------------------------------------------------------------- game spec

#[test]
fn unknown_game_name_is_rejected() {
    for g in [
        "chess",
        "oware",
        "kala",
        "kalah2",
        "djenon",
        "djenon_abe",
        "djenonabe",
        "mancala",
    ] {
        bad_game(g);
    }
}

#[test]
fn upper_case_game_name_is_rejected() {
    for g in [
        "Kalah",
        "KALAH",
        "Awari",
        "AKON",
        "Djenon-Abe",
        "Anywoli",
        "DAKON:7x7",
    ] {
        bad_game(g);
    }
}

#[test]
fn empty_game_spec_is_rejected() {
    bad_game("");
    bad_game(":6x4");
}

#[test]
fn zero_board_size_is_rejected() {
    for g in [
        "kalah:0x4",
        "awari:0x4",
        "akon:0x5",
        "djenon-abe:0x4",
        "anywoli:0x4",
        "dakon:0x7",
    ] {
        bad_game(g);
    }
}

#[test]
fn malformed_size_is_rejected() {
    for g in [
        "kalah:",
        "kalah:6",
        "kalah:6x",
        "kalah:x4",
        "kalah:x",
        "kalah:6x4x",
        "kalah:6x4x4",
        "kalah:6x4:1",
        "kalah:6-4",
        "kalah:6*4",
        "kalah:6,4",
        "kalah:ax4",
        "kalah:6xb",
        "kalah:-6x4",
        "kalah:6x-4",
        "kalah::6x4",
        "kalah6x4",
    ] {
        bad_game(g);
    }
}

#[test]
fn absurd_board_size_is_rejected() {
    for g in [
        "kalah:1000x4",
        "kalah:6x1000",
        "kalah:1000000x1000000",
        "kalah:99999999999999999999x4",
        "kalah:6x99999999999999999999",
    ] {
        bad_game(g);
    }
}

#[test]
fn game_size_with_more_than_255_seeds_is_rejected() {
    // 2*n*s > 255.
    for g in [
        "kalah:6x22",
        "awari:6x22",
        "akon:7x19",
        "djenon-abe:6x22",
        "anywoli:12x11",
        "kalah:128x1",
    ] {
        bad_game(g);
    }
    // Dakon goes beyond (wide boards, up to 32 pits a row and 65,535
    // seeds) in moves, apply, show and openings, but not in solve.
    for g in ["dakon:33x1", "dakon:32x1024", "dakon:0x5"] {
        bad_game(g);
    }
    assert_bad(&["moves", "--game", "dakon:7x19", "--position", KALAH_START]);
    // Past the wide limits the message names those limits, not the
    // engine's narrower ones.
    let err = assert_bad(&["openings", "--game", "dakon:33x33", "--shortest"]);
    assert!(err.contains("1..=32") && !err.contains("1..=16"), "{err}");
    let err = assert_bad(&["moves", "--game", "dakon:32x1024"]);
    assert!(err.contains("65535"), "{err}");
    assert_bad(&["solve", "--game", "dakon:7x19"]);
    assert_bad(&["openings", "--game", "dakon:7x19", "--count"]);
}

// ---------------------------------------------------------------- position

#[test]
fn empty_position_is_rejected() {
    bad_position("kalah", "");
    bad_position("kalah", " ");
    bad_position("kalah:6x4", "");
}

#[test]
fn position_with_wrong_field_count_is_rejected() {
    for p in [
        "S",
        "S 4,4,4,4,4,4/4,4,4,4,4,4",
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0",
        "S 4,4,4,4,4,4/4,4,4,4,4,4 0-0 x",
        "S 4,4,4,4,4,4/4,4,4,4,4,4 0-0 N",
        "S 4,4,4,4,4,4 4,4,4,4,4,4 0-0",
    ] {
        bad_position("kalah", p);
    }
}

#[test]
fn position_with_wrong_row_separator_is_rejected() {
    for p in [
        "S 4,4,4,4,4,4,4,4,4,4,4,4 0-0",
        "S 4,4,4/4,4,4/4,4,4 0-0",
        "S / 0-0",
        "S 4,4,4,4,4,4/ 0-0",
        "S /4,4,4,4,4,4 0-0",
    ] {
        bad_position("kalah", p);
    }
}

#[test]
fn position_with_non_numbers_is_rejected() {
    for p in [
        "S 4,4,a,4,4,4/4,4,4,4,4,4 0-0",
        "S 4,4,4,4,4,4/4,4,4,4,4,x 0-0",
        "S 4,4,4.5,4,4,4/4,4,4,4,4,4 0-0",
        "S 4,,4,4,4,4/4,4,4,4,4,4 0-0",
        "S 4,4,4,4,4,4,/4,4,4,4,4,4 0-0",
        "S 4,4,4,4,4,4/4,4,4,4,4,4 a-0",
        "S 4,4,4,4,4,4/4,4,4,4,4,4 0-b",
        "S 4,4,4,4,4,4/4,4,4,4,4,4 0",
        "S 4,4,4,4,4,4/4,4,4,4,4,4 0-0-0",
        "S 4,4,4,4,4,4/4,4,4,4,4,4 0:0",
        "S 4,4,4,4,4,4/4,4,4,4,4,4 -",
        "S 4,4,4,4,4,4/4,4,4,4,4,4 0-",
        "S 4,4,4,4,4,4/4,4,4,4,4,4 -0",
    ] {
        bad_position("kalah", p);
    }
}

#[test]
fn position_with_negative_numbers_is_rejected() {
    for p in [
        "S 4,4,-1,4,4,4/4,4,4,4,4,4 0-0",
        "S 4,4,4,4,4,4/-4,4,4,4,4,4 0-0",
        "S 4,4,4,4,4,4/4,4,4,4,4,4 -1-0",
        "S 4,4,4,4,4,4/4,4,4,4,4,4 0--1",
    ] {
        bad_position("kalah", p);
    }
}

#[test]
fn position_with_rows_of_unequal_length_is_rejected() {
    for p in [
        "S 4,4,4,4,4/4,4,4,4,4,4 0-0",
        "S 4,4,4,4,4,4/4,4,4,4,4,4,4 0-0",
        "S 4/4,4 0-0",
    ] {
        bad_position("kalah", p);
        bad_position("dakon", p);
    }
}

#[test]
fn position_with_wrong_row_length_for_game_size_is_rejected() {
    // 48 seeds but 5 pits a row.
    bad_position("kalah:6x4", "S 4,4,4,4,4/4,4,4,4,4 8-0");
    // 70 seeds but 6 pits a row.
    bad_position("akon:7x5", "S 5,5,5,5,5,5/5,5,5,5,5,5 5-5");
    // Default size of a sized name: dakon:3x3 wants 3 pits a row.
    bad_position("dakon:3x3", "S 2,2,2,3/2,2,2,3 0-0");
}

#[test]
fn position_with_wrong_total_for_game_size_is_rejected() {
    bad_position("kalah:6x4", "S 4,4,4,4,4,4/4,4,4,4,4,4 1-0");
    bad_position("kalah:6x4", "S 4,4,4,4,4,4/4,4,4,4,4,3 0-0");
    bad_position("kalah:6x4", "S 0,0,0,0,0,0/0,0,0,0,0,0 0-0");
    bad_position("dakon:3x3", "S 3,3,3/3,3,3 1-0");
    bad_position("akon:3x4", "S 4,4,4/4,4,4 0-1");
}

#[test]
fn position_with_more_than_255_seeds_is_rejected() {
    // Bare game names accept any total within the limits: 260 is over.
    bad_position("kalah", "S 200,0,0,0,0,0/0,0,0,0,0,0 30-30");
    bad_position("kalah", "S 300,0,0,0,0,0/0,0,0,0,0,1 0-0");
    bad_position("kalah", "S 4,4,4,4,4,4/4,4,4,4,4,4 300-0");
    bad_position("kalah", "S 99999999999999999999,0,0,0,0,0/0,0,0,0,0,1 0-0");
    bad_position("awari", "S 100,100,0,0,0,0/0,0,0,0,0,56 0-0");
}

#[test]
fn position_with_bad_side_letter_is_rejected() {
    for side in ["X", "W", "E", "SN", "1", "-", "South"] {
        let p = format!("{} 4,4,4,4,4,4/4,4,4,4,4,4 0-0", side);
        bad_position("kalah", &p);
    }
}

// ---------------------------------------------------------------- moves

#[test]
fn move_zero_is_illegal() {
    bad_moves("kalah", KALAH_START, &["0"]);
    bad_moves("dakon:3x3", "S 3,3,3/3,3,3 0-0", &["0"]);
}

#[test]
fn move_past_last_pit_is_illegal() {
    // n+1
    bad_moves("kalah", KALAH_START, &["7"]);
    bad_moves("dakon:3x3", "S 3,3,3/3,3,3 0-0", &["4"]);
    bad_moves(
        "anywoli:12x4",
        "S 4,4,4,4,4,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4,4,4,4,4 0-0",
        &["13"],
    );
    bad_moves("kalah", KALAH_START, &["100"]);
    bad_moves("kalah", KALAH_START, &["99999999999999999999"]);
}

#[test]
fn move_from_empty_pit_is_illegal() {
    bad_moves("kalah", "S 0,4,4,4,4,4/4,4,4,4,4,4 0-0", &["1"]);
    bad_moves("akon:3x4", "S 4,0,8/4,4,4 0-0", &["2"]);
    // After the extra move of S3 (4 seeds into S4, S5, S6 and the store),
    // S3 is empty.
    bad_moves("kalah", KALAH_START, &["3", "3"]);
}

#[test]
fn pass_when_not_allowed_is_illegal() {
    bad_moves("kalah", KALAH_START, &["pass"]);
    bad_moves("awari", KALAH_START, &["pass"]);
    bad_moves("djenon-abe", KALAH_START, &["pass"]);
    bad_moves("anywoli", "S 1,0,0,0/1,2,3,0 3-4", &["pass"]);
    bad_moves("dakon:3x3", "S 3,3,3/3,3,3 0-0", &["pass"]);
}

#[test]
fn pit_move_when_pass_is_required_is_illegal() {
    // South's row is empty: only `pass`.
    bad_moves("anywoli", "S 0,0,0,0/1,2,3,0 3-4", &["1"]);
    bad_moves("djenon-abe", "S 0,0,0/2,0,1 3-4", &["3"]);
}

#[test]
fn garbage_moves_are_illegal() {
    for mv in ["x", "", "-1", "1.0", "one", "1,2", "S1", "PASS", "p"] {
        bad_moves("kalah", KALAH_START, &[mv]);
    }
}

#[test]
fn illegal_move_later_in_a_sequence_prints_nothing() {
    // 1 is legal for South, then North may not pass.
    bad_moves("kalah", KALAH_START, &["1", "pass"]);
    bad_moves("kalah", KALAH_START, &["1", "x"]);
    bad_moves("kalah", KALAH_START, &["1", "7"]);
}

#[test]
fn no_move_is_legal_on_a_terminal_position() {
    // North's row is empty: the game is over.
    bad_moves("kalah", "S 1,0,0,0,0,1/0,0,0,0,0,0 28-18", &["1"]);
    bad_moves("dakon", "N 2,0,1/0,0,0 10-5", &["pass"]);
    bad_moves("djenon-abe", "S 0,0,0/0,0,0 9-9", &["pass"]);
}

#[test]
fn illegal_move_message_names_the_move() {
    let err = bad_moves("kalah", KALAH_START, &["7"]);
    assert!(
        err.contains('7'),
        "the message should name the move 7: {:?}",
        err
    );
    let err = bad_moves("kalah", "S 0,4,4,4,4,4/4,4,4,4,4,4 0-0", &["1"]);
    assert!(
        err.contains('1'),
        "the message should name the move 1: {:?}",
        err
    );
}

#[test]
fn unknown_command_is_rejected() {
    assert_bad(&["frobnicate", "--game", "kalah"]);
}

// ---------------------------------------------------------------- defaults

#[test]
fn start_position_is_the_default() {
    // Kalah start, worked by hand: 1 and 2 stay in South's row; 3 ends in
    // the store (extra move); 4, 5, 6 pass the store and feed North.
    let kalah_start_moves = vec![
        "1\tN 0,5,5,5,5,4/4,4,4,4,4,4 0-0",
        "2\tN 4,0,5,5,5,5/4,4,4,4,4,4 0-0",
        "3\tS 4,4,0,5,5,5/4,4,4,4,4,4 1-0",
        "4\tN 4,4,4,0,5,5/5,4,4,4,4,4 1-0",
        "5\tN 4,4,4,4,0,5/5,5,4,4,4,4 1-0",
        "6\tN 4,4,4,4,4,0/5,5,5,4,4,4 1-0",
    ];
    assert_eq!(ok_lines(&["moves", "--game", "kalah"]), kalah_start_moves);
    assert_eq!(
        ok_lines(&["moves", "--game", "kalah:6x4"]),
        kalah_start_moves
    );
    assert_eq!(
        ok_lines(&["moves", "--game", "kalah", "--position", KALAH_START]),
        kalah_start_moves
    );
    // apply from the default start position of a sized game.
    assert_eq!(
        ok_lines(&["apply", "--game", "dakon:3x3", "1"]),
        vec!["S 0,4,4/3,3,3 1-0"]
    );
    assert_eq!(
        ok_lines(&["apply", "--game", "awari:3x2", "1"]),
        vec!["N 0,3,3/2,2,2 0-0"]
    );
    assert_eq!(
        ok_lines(&["apply", "--game", "kalah", "3", "1"]),
        vec!["N 0,5,1,6,6,5/4,4,4,4,4,4 1-0"]
    );
    // Every game's default size: the default position is the start.
    for (game, n, s) in [
        ("kalah", 6, 4),
        ("awari", 6, 4),
        ("akon", 7, 5),
        ("djenon-abe", 6, 4),
        ("anywoli", 12, 4),
        ("dakon", 7, 7),
    ] {
        let row = vec![s.to_string(); n].join(",");
        let start = format!("S {}/{} 0-0", row, row);
        let default = ok_lines(&["moves", "--game", game]);
        let explicit = ok_lines(&["moves", "--game", game, "--position", &start]);
        assert!(!default.is_empty(), "{}: no moves from the start", game);
        assert_eq!(
            default, explicit,
            "{}: default position is not {:?}",
            game, start
        );
        let sized = format!("{}:{}x{}", game, n, s);
        assert_eq!(
            ok_lines(&["moves", "--game", &sized]),
            explicit,
            "{}: not the same start as {}",
            sized,
            game
        );
    }
}

#[test]
fn a_cycle_region_above_the_limit_is_a_clear_error() {
    // The flag was --level-limit before "level" was kept for the databases;
    // the old name still works. (Without `--extend-mb 0` the search would
    // go on to build the levels in memory, and answer; without a horizon
    // its first path meets a region of more than 50 positions at once,
    // where the default horizons search some seconds before one does.)
    for flag in ["--region-limit", "--level-limit"] {
        let err = assert_bad(&[
            "solve",
            "--game",
            "awari:4x3",
            "--threads",
            "1",
            "--extend-mb",
            "0",
            "--horizon",
            "0",
            flag,
            "50",
        ]);
        assert!(err.contains("--region-limit"), "{err}");
        assert_bad(&["solve", "--game", "awari:4x3", flag, "0"]);
        assert_bad(&["analyse", "--game", "awari:4x3", flag, "x"]);
    }
}

#[test]
fn a_solve_deeper_than_its_stack_says_so_and_how_to_give_it_more() {
    // One MiB of stack holds a few hundred plies; Awari's start goes deeper
    // at once along the long capture-free paths its positions allow, when
    // no horizon holds the search back (`--horizon 0`). No levels built
    // in memory (`--extend-mb 0`): a search that fails for want of stack
    // goes on to the next stage's build, and the stages go on to the
    // memory allowed (minutes) before the last search fails.
    let err = assert_bad(&[
        "solve",
        "--game",
        "awari",
        "--threads",
        "1",
        "--stack-mb",
        "1",
        "--horizon",
        "0",
        "--extend-mb",
        "0",
        "--quiet",
    ]);
    assert!(err.contains("1 MiB stack"), "{err}");
    assert!(err.contains("--stack-mb"), "{err}");
    for bad in ["0", "65537", "x"] {
        let err = assert_bad(&["solve", "--game", "awari", "--stack-mb", bad]);
        assert!(err.contains("--stack-mb"), "{err}");
    }
    for bad in ["-1", "x", "1000000001"] {
        let err = assert_bad(&["solve", "--game", "awari", &format!("--horizon={bad}")]);
        assert!(err.contains("--horizon"), "{err}");
    }
}

#[test]
fn a_database_of_more_boards_than_64_bits_count_is_refused_without_a_panic() {
    // Anywoli's 24 pits with 127 seeds: levels past 2^64 boards.
    let dir = std::env::temp_dir().join(format!("mancala-huge-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let err = assert_bad(&[
        "db",
        "build",
        "--game",
        "anywoli",
        "--max-seeds",
        "127",
        "--memory",
        "1",
        "--dir",
        d,
        "--quiet",
    ]);
    assert!(err.contains("--memory"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_database_whose_top_level_cannot_fit_is_refused_before_any_level_is_built() {
    // Anywoli to 99 seeds with the default --memory: the levels below the
    // first one too large would take hours; the build must refuse at once,
    // having written no level file.
    let dir = std::env::temp_dir().join(format!("mancala-over-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let err = assert_bad(&[
        "db",
        "build",
        "--game",
        "anywoli",
        "--max-seeds",
        "99",
        "--dir",
        d,
        "--quiet",
    ]);
    // Level 15 is the first over 16 GiB (levels 13 and 14 fit by sweeps).
    assert!(
        err.contains("level 15 needs") && err.contains("--memory"),
        "{err}"
    );
    let written: Vec<String> = std::fs::read_dir(&dir)
        .map(|r| {
            r.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    assert!(!written.iter().any(|f| f.ends_with(".mdb")), "{written:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
