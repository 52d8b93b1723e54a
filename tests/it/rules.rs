//! Rule-by-rule black-box tests of the `mancala` binary.
//!
//! Every expectation below was worked out by hand from `shared/spec/rules.md`
//! (the comment above each check shows where each seed falls), not taken from
//! the engine. Notation (see `interface.md`):
//! `<to-move> <south pits>/<north pits> <south captured>-<north captured>`,
//! each row in its own sowing order (pit 1 first). In the comments `S3` is
//! South's pit 3, `N1` North's pit 1, `Sst`/`Nst` the stores; `idx` is the
//! board index of rules.md (`0..n-1` South, `n..2n-1` North), and the pit
//! opposite `idx` is `2n-1-idx`.

use crate::common;

use common::{assert_bad, describe, ok_lines, run, text};

// ---------------------------------------------------------------- helpers

/// `mancala moves --game GAME --position POS`, asserting exit status 0;
/// returns the output lines.
fn moves(game: &str, pos: &str) -> Vec<String> {
    ok_lines(&["moves", "--game", game, "--position", pos])
}

/// `mancala apply --game GAME --position POS MOVE...`, asserting exit status 0
/// and a single output line; returns that line.
fn apply(game: &str, pos: &str, mvs: &[&str]) -> String {
    let mut args = vec!["apply", "--game", game, "--position", pos];
    args.extend_from_slice(mvs);
    let out = run(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "expected success\n{}",
        describe(&args, &out)
    );
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "apply must print exactly one line\n{}",
        describe(&args, &out)
    );
    lines[0].to_string()
}

/// `mancala apply ...` that must be refused: exit status 2, nothing on
/// stdout, a message on stderr, no panic.
fn apply_err(game: &str, pos: &str, mvs: &[&str]) {
    let mut args = vec!["apply", "--game", game, "--position", pos];
    args.extend_from_slice(mvs);
    assert_bad(&args);
}

/// The full `moves` output must be exactly these `(move, position after)`
/// lines, in this order.
fn assert_moves(game: &str, pos: &str, expected: &[(&str, &str)]) {
    let got = moves(game, pos);
    let want: Vec<String> = expected
        .iter()
        .map(|(m, p)| format!("{}\t{}", m, p))
        .collect();
    assert_eq!(got, want, "moves --game {} --position {:?}", game, pos);
}

/// The legal moves (first field of each line) must be exactly these.
fn assert_legal(game: &str, pos: &str, expected: &[&str]) {
    let got: Vec<String> = moves(game, pos)
        .iter()
        .map(|l| l.split('\t').next().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        got, expected,
        "legal moves of --game {} --position {:?}",
        game, pos
    );
}

/// The position is terminal: `moves` prints exactly `end SCORES`.
fn assert_end(game: &str, pos: &str, scores: &str) {
    let got = moves(game, pos);
    assert_eq!(
        got,
        vec![format!("end {}", scores)],
        "moves --game {} --position {:?}",
        game,
        pos
    );
}

/// Playing `mv` from `pos` gives `expected`, both through `apply` and as the
/// matching line of `moves`.
fn expect_move(game: &str, pos: &str, mv: &str, expected: &str) {
    assert_eq!(
        apply(game, pos, &[mv]),
        expected,
        "apply --game {} --position {:?} {}",
        game,
        pos,
        mv
    );
    let line = format!("{}\t{}", mv, expected);
    let all = moves(game, pos);
    assert!(
        all.contains(&line),
        "moves --game {} --position {:?} should contain {:?}, got {:?}",
        game,
        pos,
        line,
        all
    );
}

// ================================================================ common model

#[test]
fn common_emptied_origin_pit_is_not_skipped_on_later_laps() {
    // Kalah, 13 seeds from S1 (ring of 13 places: S2..S6, Sst, N1..N6, S1).
    // S2..S6 +1 -> 1,1,1,1,1; Sst 1; N1..N6 +1 -> 2 each; the 13th seed
    // falls back into the emptied S1 (not skipped), which now holds 1: it was
    // empty, so that seed and the opposite pit N6 (2) go to the store:
    // store 1 + 1 + 2 = 4; S1 = 0, N6 = 0.
    expect_move(
        "kalah",
        "S 13,0,0,0,0,0/1,1,1,1,1,1 0-0",
        "1",
        "N 0,1,1,1,1,1/2,2,2,2,2,0 4-0",
    );
    // Dakon n=3, 7 seeds from S1 (ring of 7: S2, S3, Sst, N1, N2, N3, S1).
    // S2 2, S3 2, Sst 1, N1 2, N2 2, N3 2, last seed back in the emptied S1
    // (now 1, own row): nembak takes the opposite N3 (2): store 3; the
    // capturing seed stays in S1.
    expect_move("dakon", "S 7,1,1/1,1,1 0-0", "1", "N 1,2,2/2,2,0 3-0");
}

#[test]
fn common_pit_that_was_empty_means_it_now_holds_exactly_one() {
    // Kalah: S1 (2) -> S2 2, S3 1. S3 held nothing before the last seed (now
    // exactly 1): capture 1 + opposite of S3 (idx 2 -> idx 9 = N4 = 1) = 2.
    expect_move(
        "kalah",
        "S 2,1,0,0,0,0/1,1,1,1,1,1 0-0",
        "1",
        "N 0,2,0,0,0,0/1,1,1,0,1,1 2-0",
    );
    // Kalah: S1 (2) -> S2 1, S3 1 -> 2. S3 held 1 (now 2): not empty, no
    // capture.
    expect_move(
        "kalah",
        "S 2,0,1,0,0,0/1,1,1,1,1,1 0-0",
        "1",
        "N 0,1,2,0,0,0/1,1,1,1,1,1 0-0",
    );
    // Dakon: S1 (1) -> S2, which held 1 and now 2: occupied -> relay, not a
    // nembak. Relay 2 from S2: S3 1, Sst 1 -> last in own store: extra move.
    expect_move("dakon", "S 1,1,0/3,3,3 0-0", "1", "S 0,0,1/3,3,3 1-0");
}

#[test]
fn common_extra_move_keeps_mover_even_when_the_move_ends_the_game() {
    // Kalah: S6 (1) -> Sst: extra move. South's row is now empty, so the game
    // is over, but South stays the side to move, and the board is shown
    // unallocated (N1 still holds 2).
    expect_move(
        "kalah",
        "S 0,0,0,0,0,1/2,0,0,0,0,0 10-10",
        "6",
        "S 0,0,0,0,0,0/2,0,0,0,0,0 11-10",
    );
    // Final scores: each side adds his own row: 11+0, 10+2.
    assert_end("kalah", "S 0,0,0,0,0,0/2,0,0,0,0,0 11-10", "11-12");
    // Dakon: S3 (1) -> Sst: extra move; South to move with no seeds: game
    // over, North takes the 5 seeds left (2+3).
    expect_move("dakon", "S 0,0,1/2,0,3 5-5", "3", "S 0,0,0/2,0,3 6-5");
    assert_end("dakon", "S 0,0,0/2,0,3 6-5", "6-10");
}

#[test]
fn common_end_of_game_allocation_shows_only_in_end_line() {
    // Kalah: S6 (2) -> Sst 6, N1 4 (last, opponent's pit: no capture, turn
    // passes). South's row is empty: game over, but the position keeps N's
    // seeds on the board.
    expect_move(
        "kalah",
        "S 0,0,0,0,0,2/3,0,0,0,0,1 5-5",
        "6",
        "N 0,0,0,0,0,0/4,0,0,0,0,1 6-5",
    );
    // North adds 4+1 = 5 only in the end line.
    assert_end("kalah", "N 0,0,0,0,0,0/4,0,0,0,0,1 6-5", "6-10");
    // Awari: every move of South leaves North empty, so both are legal; after
    // S2 (1) -> S3 the board still shows South's 2 seeds...
    expect_move(
        "awari",
        "S 1,1,0,0,0,0/0,0,0,0,0,0 20-26",
        "2",
        "N 1,0,1,0,0,0/0,0,0,0,0,0 20-26",
    );
    // ...and only the end line gives them to South (North cannot move).
    assert_end("awari", "N 1,0,1,0,0,0/0,0,0,0,0,0 20-26", "22-26");
}

#[test]
fn common_no_legal_move_while_holding_seeds_ends_game_seeds_to_nobody() {
    // Djenon-abe n=2, ring idx0=S1, idx1=S2, idx2=N1, idx3=N2. South's only
    // move is 1 (S2 empty). Take S1: board [0,0,1,2], hand 3 at idx0.
    //   sow idx1,2,3 -> [0,1,2,3]; lap ends at idx3 with 3: relay,
    //   lift -> [0,1,2,0] hand 3 at idx3; sow idx0,1,2 -> [1,2,3,0]: relay
    //   lift -> [1,2,0,0] hand 3 at idx2; sow idx3,0,1 -> [2,3,0,1]: relay
    //   lift -> [2,0,0,1] hand 3 at idx1; sow idx2,3,0 -> [3,0,1,2]: relay
    //   lift -> [0,0,1,2] hand 3 at idx0 = the state we started from.
    // Every lap ends on 3 (relay), so the move sows forever. No end rule
    // applies (board not empty, rows hold 3 and 3, nobody's row is empty),
    // so the game ends and the 6 seeds go to nobody.
    assert_end("djenon-abe", "S 3,0/1,2 4-5", "4-5");
    // Anywoli n=2: South's only move is 1. Take S1: [0,0,2,1] hand 2 at idx0.
    //   sow idx1,2 -> [0,1,3,1]: 3 relays: lift -> [0,1,0,1] hand 3 at idx2;
    //   sow idx3,0,1 -> [1,2,0,2]: 2 relays: lift -> [1,0,0,2] hand 2 at idx1;
    //   sow idx2,3 -> [1,0,1,3]: relay: lift -> [1,0,1,0] hand 3 at idx3;
    //   sow idx0,1,2 -> [2,1,2,0]: relay: lift -> [2,1,0,0] hand 2 at idx2;
    //   sow idx3,0 -> [3,1,0,1]: relay: lift -> [0,1,0,1] hand 3 at idx0.
    // So (board B = [0,1,0,1], hand 3 at idx2) led to (B, hand 3 at idx0).
    // B is unchanged by a turn of 2 places, so (B, 3 at idx0) leads to
    // (B, 3 at idx2) again: a loop. No pit ever reaches 4 (no capture), so
    // the game ends with the 5 seeds going to nobody.
    assert_end("anywoli", "S 2,0/2,1 3-4", "3-4");
}

// ================================================================ kalah

#[test]
fn kalah_last_seed_in_store_gives_extra_move() {
    // Start, S3 (4) -> S4 5, S5 5, S6 5, Sst 1: last in own store, South again.
    expect_move(
        "kalah:6x4",
        "S 4,4,4,4,4,4/4,4,4,4,4,4 0-0",
        "3",
        "S 4,4,0,5,5,5/4,4,4,4,4,4 1-0",
    );
    // ... then S1 (4) -> S2 5, S3 1, S4 6, S5 6: S5 was not empty, turn passes.
    assert_eq!(
        apply("kalah:6x4", "S 4,4,4,4,4,4/4,4,4,4,4,4 0-0", &["3", "1"]),
        "N 0,5,1,6,6,5/4,4,4,4,4,4 1-0"
    );
    // North: N3 (4) -> N4 5, N5 5, N6 5, Nst 1: North again.
    expect_move(
        "kalah:6x4",
        "N 4,4,4,4,4,4/4,4,4,4,4,4 0-0",
        "3",
        "N 4,4,4,4,4,4/4,4,0,5,5,5 0-1",
    );
}

#[test]
fn kalah_capture_last_seed_in_own_empty_pit_takes_opposite() {
    // S1 (2) -> S2 1, S3 1. S3 was empty: S3 (idx 2) faces idx 9 = N4 (5):
    // 1 + 5 = 6 to South's store.
    expect_move(
        "kalah",
        "S 2,0,0,0,0,0/0,0,0,5,3,1 0-0",
        "1",
        "N 0,1,0,0,0,0/0,0,0,0,3,1 6-0",
    );
    // North: N1 (1) -> N2, empty. N2 (idx 7) faces idx 4 = S5 (3):
    // 1 + 3 = 4 to North's store.
    expect_move(
        "kalah",
        "N 0,0,0,4,3,0/1,0,0,0,0,1 0-0",
        "1",
        "S 0,0,0,4,0,0/0,0,0,0,0,1 0-4",
    );
}

#[test]
fn kalah_empty_capture_takes_own_seed_when_opposite_empty() {
    // S3 (1) -> S4, empty. S4 (idx 3) faces idx 8 = N3, which is empty: only
    // the one seed goes to the store (2 -> 3), S4 is emptied.
    expect_move(
        "kalah",
        "S 0,0,1,0,0,1/1,1,0,1,1,1 2-3",
        "3",
        "N 0,0,0,0,0,1/1,1,0,1,1,1 3-3",
    );
}

#[test]
fn kalah_no_capture_in_opponent_empty_pit() {
    // S6 (3) -> Sst 1, N1 1, N2 1: last in an empty pit of the opponent: no
    // capture, turn passes.
    expect_move(
        "kalah",
        "S 1,0,0,0,0,3/0,0,0,0,0,5 0-0",
        "6",
        "N 1,0,0,0,0,0/1,1,0,0,0,5 1-0",
    );
}

#[test]
fn kalah_sowing_skips_opponent_store() {
    // S6 (9) -> Sst 1, N1..N6 2 each (6 seeds), North's store skipped, S1 2,
    // S2 2 (9th). S2 held 1: no capture. North's store stays 0.
    expect_move(
        "kalah",
        "S 1,1,0,0,0,9/1,1,1,1,1,1 0-0",
        "6",
        "N 2,2,0,0,0,0/2,2,2,2,2,2 1-0",
    );
}

#[test]
fn kalah_game_ends_when_either_row_is_empty_each_adds_own_row() {
    // Mover's own row emptied (no extra move): S6 (2) -> Sst, N1.
    expect_move(
        "kalah",
        "S 0,0,0,0,0,2/3,0,0,0,0,1 5-5",
        "6",
        "N 0,0,0,0,0,0/4,0,0,0,0,1 6-5",
    );
    assert_end("kalah", "N 0,0,0,0,0,0/4,0,0,0,0,1 6-5", "6-10");
    // Opponent's row emptied by a capture: S1 (1) -> S2, empty; S2 (idx 1)
    // faces idx 10 = N5 (3): 1 + 3 = 4. North's row is now empty.
    expect_move(
        "kalah",
        "S 1,0,0,0,0,1/0,0,0,0,3,0 0-0",
        "1",
        "N 0,0,0,0,0,1/0,0,0,0,0,0 4-0",
    );
    // North to move has nothing; South adds his own row (1): 5-0.
    assert_end("kalah", "N 0,0,0,0,0,1/0,0,0,0,0,0 4-0", "5-0");
    // Terminal even though the side to move still holds seeds: the
    // opponent's row is empty. South adds his 2.
    assert_end("kalah", "S 2,0,0,0,0,0/0,0,0,0,0,0 5-5", "7-5");
    assert_end("kalah", "N 2,0,0,0,0,0/0,0,0,0,0,0 5-5", "7-5");
}

#[test]
fn kalah_game_ends_after_an_extra_move_too() {
    // S6 (1) -> Sst: extra move, but South's row is empty: game over at
    // once (South does not get to move again). Position keeps South to move.
    expect_move(
        "kalah",
        "S 0,0,0,0,0,1/2,0,0,0,0,0 10-10",
        "6",
        "S 0,0,0,0,0,0/2,0,0,0,0,0 11-10",
    );
    assert_end("kalah", "S 0,0,0,0,0,0/2,0,0,0,0,0 11-10", "11-12");
    // North: N6 (1) -> Nst: extra move, but North's row is empty: game over,
    // North still to move; South's 3 seeds stay on the board...
    expect_move(
        "kalah",
        "N 3,0,0,0,0,0/0,0,0,0,0,1 7-8",
        "6",
        "N 3,0,0,0,0,0/0,0,0,0,0,0 7-9",
    );
    // ...and are added to South's store only in the end line: 7+3, 9+0.
    assert_end("kalah", "N 3,0,0,0,0,0/0,0,0,0,0,0 7-9", "10-9");
}

// ================================================================ awari

#[test]
fn awari_origin_skipped_with_2n_or_more_seeds() {
    // n=6, 12 seeds from S1: S2..S6 1 each (5), N1..N6 2 each (11), S1 is
    // skipped, 12th into S2 (2). Own row: no capture.
    expect_move(
        "awari",
        "S 12,0,0,0,0,0/1,1,1,1,1,1 0-0",
        "1",
        "N 0,2,1,1,1,1/2,2,2,2,2,2 0-0",
    );
}

#[test]
fn awari_origin_skip_threshold_scales_to_2n_at_n3() {
    // n=3, 2n = 6 seeds from S2: S3 1, N1 2, N2 2, N3 2, S1 1, S2 skipped,
    // 6th into S3 (2). Own row: no capture. (Not skipping would put the 6th
    // seed in S2.)
    expect_move("awari", "S 0,6,0/1,1,1 0-0", "2", "N 1,0,2/2,2,2 0-0");
    // n=3, 8 seeds from S2: S3 1, N1 3, N2 2, N3 2, S1 1, S2 skipped, S3 2,
    // N1 4, N2 3 (8th). N2 holds 3: taken; N1 holds 4: chain stops. 3 taken.
    expect_move("awari", "S 0,8,0/2,1,1 0-0", "2", "N 1,0,2/4,0,2 3-0");
    // n=3, 5 seeds (< 2n) from S2 never come round: S3 1, N1 2, N2 2, N3 2,
    // S1 1 (last, own row).
    expect_move("awari", "S 0,5,0/1,1,1 0-0", "2", "N 1,0,1/2,2,2 0-0");
}

#[test]
fn awari_capture_two_or_three_and_preceding_pits() {
    // S6 (4) -> N1 5, N2 3, N3 2, N4 3 (last). N4 3 taken, N3 2 taken, N2 3
    // taken, N1 5 stops the chain: 3+2+3 = 8.
    expect_move(
        "awari",
        "S 0,0,0,0,1,4/4,2,1,2,0,5 0-0",
        "6",
        "N 0,0,0,0,1,0/5,0,0,0,0,5 8-0",
    );
    // S6 (4) -> N1 1, N2 3, N3 4, N4 2 (last). N4 2 taken; N3 holds 4: chain
    // stops there (N2's 3 is not taken).
    expect_move(
        "awari",
        "S 0,0,0,0,1,4/0,2,3,1,0,5 0-0",
        "6",
        "N 0,0,0,0,1,0/1,3,4,0,0,5 2-0",
    );
    // S6 (1) -> N1 4: four is not captured.
    expect_move(
        "awari",
        "S 0,0,0,0,1,1/3,0,0,0,0,0 0-0",
        "6",
        "N 0,0,0,0,1,0/4,0,0,0,0,0 0-0",
    );
}

#[test]
fn awari_capture_chain_stops_at_opponent_pit_1() {
    // S5 (4) -> S6 2, N1 2, N2 2, N3 3 (last). N3 3, N2 2, N1 2 are taken
    // (7); the chain never leaves North's row, so South's own S6 (2) stays.
    expect_move(
        "awari",
        "S 0,0,0,0,4,1/1,1,2,0,0,4 0-0",
        "5",
        "N 0,0,0,0,0,2/0,0,0,0,0,4 7-0",
    );
}

#[test]
fn awari_no_capture_in_own_row() {
    // S1 (1) -> S2 2: own row, no capture.
    expect_move(
        "awari",
        "S 1,1,0,0,0,0/0,0,0,0,0,1 0-0",
        "1",
        "N 0,2,0,0,0,0/0,0,0,0,0,1 0-0",
    );
    // North: N1 (1) -> N2 3: own row, no capture.
    expect_move(
        "awari",
        "N 1,0,0,0,0,0/1,2,0,0,0,0 0-0",
        "1",
        "S 1,0,0,0,0,0/0,3,0,0,0,0 0-0",
    );
}

#[test]
fn awari_capture_counts_do_not_scale_at_n3() {
    // n=3: S3 (3) -> N1 1, N2 2, N3 3 (last). N3 3, N2 2 taken (5); N1 1 stops.
    expect_move("awari", "S 1,0,3/0,1,2 0-0", "3", "N 1,0,0/1,0,0 5-0");
}

#[test]
fn awari_move_leaving_opponent_without_seeds_is_illegal() {
    // North is empty. S5 (1) -> S6: North still empty: illegal. S6 (1) -> N1:
    // feeds. Only 6 is legal.
    assert_moves(
        "awari",
        "S 0,0,0,0,1,1/0,0,0,0,0,0 20-26",
        &[("6", "N 0,0,0,0,1,0/1,0,0,0,0,0 20-26")],
    );
    apply_err("awari", "S 0,0,0,0,1,1/0,0,0,0,0,0 20-26", &["5"]);
    // Checked after captures: S6 (1) -> N1 2, captured, North left empty:
    // illegal. S5 (1) -> S6 2: legal.
    assert_moves(
        "awari",
        "S 0,0,0,0,1,1/1,0,0,0,0,0 20-25",
        &[("5", "N 0,0,0,0,0,2/1,0,0,0,0,0 20-25")],
    );
    apply_err("awari", "S 0,0,0,0,1,1/1,0,0,0,0,0 20-25", &["6"]);
}

#[test]
fn awari_starving_move_legal_when_every_move_starves() {
    // North is empty, S1 (1) -> S2 and S2 (1) -> S3 both leave it empty:
    // every move is like that, so both are legal.
    assert_moves(
        "awari",
        "S 1,1,0,0,0,0/0,0,0,0,0,0 20-26",
        &[
            ("1", "N 0,2,0,0,0,0/0,0,0,0,0,0 20-26"),
            ("2", "N 1,0,1,0,0,0/0,0,0,0,0,0 20-26"),
        ],
    );
    // North then has no move: South takes the 2 seeds left.
    assert_end("awari", "N 0,2,0,0,0,0/0,0,0,0,0,0 20-26", "22-26");
}

#[test]
fn awari_player_to_move_with_no_move_opponent_takes_all() {
    assert_end("awari", "N 0,3,0,0,1,0/0,0,0,0,0,0 20-24", "24-24");
    assert_end("awari", "S 0,0,0,0,0,0/1,2,0,0,0,0 10-10", "10-13");
}

// ================================================================ akon

#[test]
fn akon_seeds_worked_example_takes_nine_and_spares_pit_1() {
    // akon:7x5 (70 seeds: 47 + 23). S2 holds 18, N2..N4 hold 1 each.
    // 18 >= 2n+1 = 15: first lap of 14: S3..S7 6 each, N1..N7 +1
    // (6,2,2,2,6,6,6), S1 5, S2 1 (back in the origin). Rest 4 only into
    // North's pits from N1: N1 7, N2 3, N3 3, N4 3 (last). N4 3, N3 3, N2 3
    // taken = 9; N1 (pit 1) is never taken.
    expect_move(
        "akon:7x5",
        "S 4,18,5,5,5,5,5/5,1,1,1,5,5,5 0-0",
        "2",
        "N 5,1,6,6,6,6,6/7,0,0,0,6,6,6 9-0",
    );
}

#[test]
fn akon_2n_seeds_end_in_origin_without_capture() {
    // akon:7x5, 14 = 2n seeds from S7: N1..N7 +1 (3,2,6,6,6,6,4), S1..S6 +1
    // (6 each), the 14th back into S7 (1). Own row: no capture, turn ends.
    expect_move(
        "akon:7x5",
        "S 5,5,5,5,5,5,14/2,1,5,5,5,5,3 0-0",
        "7",
        "N 6,6,6,6,6,6,1/3,2,6,6,6,6,4 0-0",
    );
    // Scaled to n=3 (akon:3x4): 6 = 2n seeds from S3: N1 3, N2 4, N3 4,
    // S1 6, S2 6, S3 1 (origin). No capture.
    expect_move("akon:3x4", "S 5,5,6/2,3,3 0-0", "3", "N 6,6,1/3,4,4 0-0");
}

#[test]
fn akon_more_than_2n_seeds_skip_own_row_after_first_lap() {
    // akon:3x4 (n=3, 2n+1 = 7). S3 holds 11: first lap of 6: N1 3, N2 1,
    // N3 8, S1 3, S2 3, S3 1. Rest 5 only into North's pits from N1: N1 4,
    // N2 2, N3 9, N1 5, N2 3 (last). N2 3 taken; N1 is pit 1: stop. 3 taken.
    // (Sowing on round the ring would end in South's S2 instead.)
    expect_move("akon:3x4", "S 2,2,11/2,0,7 0-0", "3", "N 3,3,1/5,0,9 3-0");
}

#[test]
fn akon_rest_wraps_opponent_row_again_and_again() {
    // akon:3x4: S3 holds 14. First lap of 6: N1 2, N2 1, N3 10, S1 1, S2 1,
    // S3 1. Rest 8: N1 3, N2 2, N3 11, N1 4, N2 3, N3 12, N1 5, N2 4 (last).
    // N2 4 taken; N1 is pit 1: stop.
    expect_move("akon:3x4", "S 0,0,14/1,0,9 0-0", "3", "N 1,1,1/5,0,12 4-0");
}

#[test]
fn akon_last_seed_in_opponent_pit_1_takes_only_that_seed() {
    // akon:3x4: S2 (2) -> S3 4, N1 3 (last). Pit 1: South takes just the
    // last seed; N1 keeps 2 (a 2..4 capture would have taken 3).
    expect_move("akon:3x4", "S 3,2,3/2,7,7 0-0", "2", "N 3,0,4/2,7,7 1-0");
    // Whatever the pit held: S3 (1) -> N1 10: South takes 1, N1 keeps 9.
    expect_move("akon:3x4", "S 3,2,1/9,5,4 0-0", "3", "N 3,2,0/9,5,4 1-0");
    // North: N2 (2) -> N3 9, S1 2 (last, South's pit 1): North takes 1.
    expect_move("akon:3x4", "N 1,5,5/3,2,8 0-0", "2", "S 1,5,5/3,0,9 0-1");
}

#[test]
fn akon_capture_chain_of_2_3_4_stops_before_pit_1() {
    // akon:4x3: S4 (4) -> N1 2, N2 2, N3 3, N4 4 (last). N4 4, N3 3, N2 2
    // taken = 9; N1 holds 2 but pit 1 is never captured.
    expect_move(
        "akon:4x3",
        "S 5,5,3,4/1,1,2,3 0-0",
        "4",
        "N 5,5,3,0/2,0,0,0 9-0",
    );
}

#[test]
fn akon_capture_chain_stops_at_first_pit_not_holding_2_to_4() {
    // akon:4x3: S4 (4) -> N1 2, N2 6, N3 3, N4 4. N4 4, N3 3 taken (7); N2 6
    // stops the chain.
    expect_move(
        "akon:4x3",
        "S 5,1,3,4/1,5,2,3 0-0",
        "4",
        "N 5,1,3,0/2,6,0,0 7-0",
    );
    // Last pit holds 5: no capture at all.
    expect_move(
        "akon:4x3",
        "S 5,1,2,4/1,5,2,4 0-0",
        "4",
        "N 5,1,2,0/2,6,3,5 0-0",
    );
}

#[test]
fn akon_no_capture_in_own_row() {
    // akon:3x4: S1 (1) -> S2 2: own row, nothing taken.
    expect_move("akon:3x4", "S 1,1,6/2,7,7 0-0", "1", "N 0,2,6/2,7,7 0-0");
}

#[test]
fn akon_move_that_empties_opponent_row_is_illegal() {
    // akon:3x4 (24 = 4 + 20). North is empty. S3 (1) -> N1 (pit 1): South
    // takes that seed and North is empty again: illegal. S2 (3) -> S3 2,
    // N1 1, N2 1: N2 holds 1, no capture; North fed: legal.
    assert_moves(
        "akon:3x4",
        "S 0,3,1/0,0,0 10-10",
        &[("2", "N 0,0,2/1,1,0 10-10")],
    );
    apply_err("akon:3x4", "S 0,3,1/0,0,0 10-10", &["3"]);
}

#[test]
fn akon_starving_move_legal_when_every_move_starves() {
    // akon:3x4: S1 (1) -> S2 leaves North empty; S3 (1) -> N1, taken (pit 1
    // rule), leaves North empty. Every move starves: both legal.
    assert_moves(
        "akon:3x4",
        "S 1,0,1/0,0,0 11-11",
        &[("1", "N 0,1,1/0,0,0 11-11"), ("3", "N 1,0,0/0,0,0 12-11")],
    );
    // North to move has no seeds: South takes what is left.
    assert_end("akon:3x4", "N 0,1,1/0,0,0 11-11", "13-11");
    assert_end("akon:3x4", "N 1,0,0/0,0,0 12-11", "13-11");
}

#[test]
fn akon_game_ends_when_player_to_move_has_no_seeds() {
    // North to move, North's row empty: South takes the 5 seeds left.
    assert_end("akon:3x4", "N 2,0,3/0,0,0 10-9", "15-9");
    // South to move, South's row empty: North takes the 5 seeds left.
    assert_end("akon:3x4", "S 0,0,0/4,1,0 10-9", "10-14");
}

// ================================================================ djenon-abe

#[test]
fn djenon_abe_relay_on_three() {
    // S1 (2) -> S2 1, S3 3 (lap ends on 3): relay, lift 3 from S3 -> N1 1,
    // N2 2, N3 1 (N3 was empty): turn ends. N2's 2 is mid-lap: not taken.
    expect_move("djenon-abe", "S 2,0,2/0,1,0 0-0", "1", "N 0,1,0/1,2,1 0-0");
}

#[test]
fn djenon_abe_relay_on_five_or_more() {
    // S1 (1) -> S2 5: relay 5 -> S3 1, N1 2, N2 1, N3 1, S1 1 (the emptied
    // origin, now 1): turn ends.
    expect_move("djenon-abe", "S 1,4,0/1,0,0 0-0", "1", "N 1,0,1/2,1,1 0-0");
    // S1 (1) -> S2 6: relay 6 -> S3, N1, N2, N3, S1, S2 (lifted pit, now 1):
    // turn ends.
    expect_move("djenon-abe", "S 1,5,0/0,0,0 0-0", "1", "N 1,1,1/1,1,1 0-0");
}

#[test]
fn djenon_abe_turn_ends_when_lap_ends_in_empty_pit() {
    // S1 (1) -> S2 1: was empty, turn ends.
    expect_move("djenon-abe", "S 1,0,0/3,0,0 0-0", "1", "N 0,1,0/3,0,0 0-0");
}

#[test]
fn djenon_abe_capture_two_or_four_chain_backwards_across_rows() {
    // S2 (4) -> S3 2, N1 2, N2 4, N3 2 (last). Taken backwards: N3 2, N2 4,
    // N1 2, then across into South's row: S3 2; S2 (emptied origin, 0)
    // stops. 2+4+2+2 = 10 to South.
    expect_move("djenon-abe", "S 3,4,1/1,3,1 0-0", "2", "N 3,0,0/0,0,0 10-0");
    // Going back from South's pit 1 to North's pit n: N2 (2) -> N3 4, S1 2
    // (last). S1 2 taken, preceding N3 4 taken, N2 (0) stops: 6 to North.
    expect_move("djenon-abe", "N 1,5,1/1,2,3 0-0", "2", "S 0,5,1/1,0,0 0-6");
    // Chain stops at a pit holding 3: S2 (2) -> S3 3, N1 2 (last). N1 2
    // taken; S3 holds 3: stop.
    expect_move("djenon-abe", "S 3,2,2/1,3,0 0-0", "2", "N 3,0,3/0,3,0 2-0");
}

#[test]
fn djenon_abe_feeding_obligation() {
    // North is empty. S1 (1) -> S2 1: North still empty: illegal. S3 (2) ->
    // N1 1, N2 1: feeds. Only 3.
    assert_moves(
        "djenon-abe",
        "S 1,0,2/0,0,0 10-5",
        &[("3", "N 1,0,0/1,1,0 10-5")],
    );
    apply_err("djenon-abe", "S 1,0,2/0,0,0 10-5", &["1"]);
}

#[test]
fn djenon_abe_pass_when_own_row_empty_and_opponent_can_feed() {
    // South's row is empty. North could feed with N3 (1) -> S1, so South
    // passes: `pass` is the only move.
    assert_moves(
        "djenon-abe",
        "S 0,0,0/2,0,1 3-4",
        &[("pass", "N 0,0,0/2,0,1 3-4")],
    );
    // North must then feed: N1 (2) -> N2 1, N3 2: captures its own 2 and
    // leaves South empty: illegal. N3 (1) -> S1 1: legal.
    assert_moves(
        "djenon-abe",
        "N 0,0,0/2,0,1 3-4",
        &[("3", "S 1,0,0/2,0,0 3-4")],
    );
    assert_eq!(
        apply("djenon-abe", "S 0,0,0/2,0,1 3-4", &["pass", "3"]),
        "S 1,0,0/2,0,0 3-4"
    );
    apply_err("djenon-abe", "N 0,0,0/2,0,1 3-4", &["1"]);
}

#[test]
fn djenon_abe_end_when_board_empty() {
    assert_end("djenon-abe", "S 0,0,0/0,0,0 9-9", "9-9");
    assert_end("djenon-abe", "N 0,0,0/0,0,0 0-12", "0-12");
}

#[test]
fn djenon_abe_end_one_seed_per_row_each_takes_own() {
    assert_end("djenon-abe", "S 0,1,0/0,0,1 5-11", "6-12");
    assert_end("djenon-abe", "N 1,0,0/0,1,0 2-3", "3-4");
}

#[test]
fn djenon_abe_terminal_gift() {
    // n=5, North empty, South to move: S1 (4) -> S2..S5 1 each, North still
    // empty: no feeding move. South takes all but one (3), North gets 1.
    assert_end("djenon-abe", "S 4,0,0,0,0/0,0,0,0,0 0-0", "3-1");
    // n=4, South to move with an empty row; North's only move N1 (3) ->
    // N2, N3, N4 cannot feed South. North takes 2, South gets 1.
    assert_end("djenon-abe", "S 0,0,0,0/3,0,0,0 2-3", "3-5");
    // One seed left: S1 (1) -> S2 cannot feed; the holder takes nothing,
    // the seed goes to North.
    assert_end("djenon-abe", "S 1,0,0/0,0,0 8-9", "8-10");
}

#[test]
fn djenon_abe_move_that_sows_forever_is_illegal() {
    // Move 1: take S1 (5): board [0,0,1,2,3,4] (idx0..5 = S1,S2,S3,N1,N2,N3),
    // hand 5 at idx0 = origin p. Call the pattern "p holds 0, p+1 holds 0,
    // p+2..p+5 hold 1,2,3,4". Sowing 5 from p adds one to p+1..p+5, which
    // become 1,2,3,4,5: the lap ends at p+5 on 5: relay, lift it. Now
    // p' = p+5 = p-1 holds 0, p'+1 = p holds 0, p'+2..p'+5 = p+1..p+4 hold
    // 1,2,3,4 and the hand is 5 at p': the same pattern one place back.
    // After 6 relays the state (board, hand 5, place idx0) repeats, and no
    // lap ever ends on 1, 2 or 4: it sows forever.
    // Move 3: S3 (1) -> N1 3: relay 3 -> N2 4, N3 5, S1 6: relay 6 -> S2 1,
    // S3 1, N1 1, N2 5, N3 6, S1 1 (was lifted, now 1): turn ends.
    assert_legal("djenon-abe", "S 5,0,1/2,3,4 0-0", &["3"]);
    assert_moves(
        "djenon-abe",
        "S 5,0,1/2,3,4 0-0",
        &[("3", "N 1,1,1/1,5,6 0-0")],
    );
    apply_err("djenon-abe", "S 5,0,1/2,3,4 0-0", &["1"]);
}

// ================================================================ anywoli

#[test]
fn anywoli_mid_sow_four_goes_to_pit_owner() {
    // S1 (2) -> S2 4 with a seed still in hand: South's pit, so South's
    // store takes the 4 (8 on the board + 1 in hand = 9 still in play, > 4).
    // Last seed S3 1 (was empty): turn ends.
    expect_move(
        "anywoli",
        "S 2,3,0,0/2,2,2,2 0-0",
        "1",
        "N 0,0,1,0/2,2,2,2 4-0",
    );
}

#[test]
fn anywoli_mid_sow_four_in_opponent_pit_goes_to_opponent() {
    // S4 (2) -> N1 4 with a seed in hand: North's pit, so NORTH's store takes
    // the 4 (5 seeds + 1 in hand still in play). Last seed N2 1: turn ends.
    expect_move(
        "anywoli",
        "S 1,0,0,2/3,0,2,2 0-0",
        "4",
        "N 1,0,0,0/0,1,2,2 0-4",
    );
}

#[test]
fn anywoli_several_mid_sow_fours_in_one_move() {
    // S1 (3) -> S2 4 (mid: South +4), S3 4 (mid: South +4), S4 1 (last, was
    // empty): turn ends. 9 seeds remain in play after the second four.
    expect_move(
        "anywoli",
        "S 3,3,3,0/2,2,2,2 0-0",
        "1",
        "N 0,0,0,1/2,2,2,2 8-0",
    );
}

#[test]
fn anywoli_last_of_lap_four_goes_to_mover_with_extra_move() {
    // S4 (1) -> N1 4 as the last seed of the lap: the MOVER (South) takes it
    // although North owns the pit, and moves again. 5 seeds left in play.
    expect_move(
        "anywoli",
        "S 1,0,0,1/3,2,2,0 0-0",
        "4",
        "S 1,0,0,0/0,2,2,0 4-0",
    );
    // Extra move: S1 (1) -> S2 1, turn ends.
    assert_eq!(
        apply("anywoli", "S 1,0,0,1/3,2,2,0 0-0", &["4", "1"]),
        "N 0,1,0,0/0,2,2,0 4-0"
    );
    // In the mover's own row: S1 (1) -> S2 4 (last): South takes, South again.
    expect_move(
        "anywoli",
        "S 1,3,0,0/2,2,2,2 0-0",
        "1",
        "S 0,0,0,0/2,2,2,2 4-0",
    );
}

#[test]
fn anywoli_relay_on_two_three_and_five_or_more() {
    // S1 (1) -> S2 2: relay 2 -> S3 1, S4 1: turn ends.
    expect_move(
        "anywoli",
        "S 1,1,0,0/0,0,0,5 0-0",
        "1",
        "N 0,0,1,1/0,0,0,5 0-0",
    );
    // S1 (1) -> S2 3: relay 3 -> S3 1, S4 1, N1 1: turn ends.
    expect_move(
        "anywoli",
        "S 1,2,0,0/0,0,0,5 0-0",
        "1",
        "N 0,0,1,1/1,0,0,5 0-0",
    );
    // S1 (1) -> S2 5: relay 5 -> S3 1, S4 1, N1 1, N2 1, N3 1: turn ends.
    expect_move(
        "anywoli",
        "S 1,4,0,0/0,0,0,5 0-0",
        "1",
        "N 0,0,1,1/1,1,1,5 0-0",
    );
}

#[test]
fn anywoli_turn_ends_when_lap_ends_in_empty_pit() {
    expect_move(
        "anywoli",
        "S 1,0,0,0/1,1,1,1 0-0",
        "1",
        "N 0,1,0,0/1,1,1,1 0-0",
    );
}

#[test]
fn anywoli_pass_when_own_row_empty() {
    assert_moves(
        "anywoli",
        "S 0,0,0,0/1,2,3,0 3-4",
        &[("pass", "N 0,0,0,0/1,2,3,0 3-4")],
    );
    apply_err("anywoli", "S 0,0,0,0/1,2,3,0 3-4", &["1"]);
    // Not allowed while holding seeds.
    apply_err("anywoli", "S 1,0,0,0/1,2,3,0 3-4", &["pass"]);
}

#[test]
fn anywoli_end_at_four_capturer_takes_the_rest() {
    // S4 (1) -> N1 4 (last of lap): South takes 4; left in play S1 1 + N3 1
    // = 2 <= 4: the game ends at once and South takes those 2 as part of the
    // move (11). Extra move: South stays to move on the empty board.
    expect_move(
        "anywoli",
        "S 1,0,0,1/3,0,1,0 5-5",
        "4",
        "S 0,0,0,0/0,0,0,0 11-5",
    );
    assert_end("anywoli", "S 0,0,0,0/0,0,0,0 11-5", "11-5");
}

#[test]
fn anywoli_end_at_four_after_mid_sow_four_goes_to_pit_owner() {
    // S4 (3) -> N1 4 with 2 seeds still in hand: North takes 4 (6). Left in
    // play: N4 1 + 2 in hand = 3 <= 4: game ends, the pit's owner North
    // takes them too (9). No extra move: North is to move.
    expect_move(
        "anywoli",
        "S 0,0,0,3/3,0,0,1 2-2",
        "4",
        "N 0,0,0,0/0,0,0,0 2-9",
    );
    assert_end("anywoli", "N 0,0,0,0/0,0,0,0 2-9", "2-9");
}

#[test]
fn anywoli_few_seeds_not_from_capture_play_on() {
    // 3 seeds on the board, no capture produced them: play goes on.
    assert_moves(
        "anywoli",
        "S 1,0,0,0/0,2,0,0 0-0",
        &[("1", "N 0,1,0,0/0,2,0,0 0-0")],
    );
    // 4 seeds: S4 (1) -> N1 4 (last): South takes 4, none left: game ends.
    expect_move(
        "anywoli",
        "S 0,0,0,1/3,0,0,0 0-0",
        "4",
        "S 0,0,0,0/0,0,0,0 4-0",
    );
}

#[test]
fn anywoli_empty_board_is_terminal() {
    assert_end("anywoli", "N 0,0,0,0/0,0,0,0 7-5", "7-5");
}

#[test]
fn anywoli_move_that_sows_forever_is_illegal() {
    // n=3, idx0..5 = S1,S2,S3,N1,N2,N3. Move 2: take S2 (3): board
    // B = [1,0,1,0,1,0], hand 3 at idx1.
    //   sow idx2,3,4 -> [1,0,2,1,2,0]: lap ends on 2: relay, lift idx4;
    //   sow idx5,0 -> [2,0,2,1,0,1]: relay, lift idx0;
    //   sow idx1,2 -> [0,1,3,1,0,1]: relay 3, lift idx2;
    //   sow idx3,4,5 -> [0,1,0,2,1,2]: relay, lift idx5;
    //   sow idx0,1 -> [1,2,0,2,1,0]: relay, lift idx1;
    //   sow idx2,3 -> [1,0,1,3,1,0]: relay 3, lift idx3 -> board B again,
    //   hand 3 at idx3.
    // B is unchanged by a turn of 2 places, so from (B, 3, idx3) the same
    // happens shifted by 2: (B, 3, idx5), then (B, 3, idx1): the starting
    // state. No pit ever reaches 4, so nothing is captured: it sows forever.
    // Move 1: S1 (1) -> S2 4 (last of lap): South takes 4, 2 seeds left
    // (S3, N2) <= 4: South takes them too; extra move.
    // Move 3: S3 (1) -> N1 1: turn ends.
    assert_moves(
        "anywoli",
        "S 1,3,1/0,1,0 0-0",
        &[("1", "S 0,0,0/0,0,0 6-0"), ("3", "N 1,3,0/1,1,0 0-0")],
    );
    assert_legal("anywoli", "S 1,3,1/0,1,0 0-0", &["1", "3"]);
    apply_err("anywoli", "S 1,3,1/0,1,0 0-0", &["2"]);
}

// ================================================================ dakon

#[test]
fn dakon_last_seed_in_own_store_gives_extra_move() {
    // S2 (2) -> S3 2, Sst 1: extra move.
    expect_move("dakon", "S 0,2,1/1,1,1 0-0", "2", "S 0,0,2/1,1,1 1-0");
    // dakon:3x3 start, S1 (3) -> S2 4, S3 4, Sst 1: extra move.
    expect_move("dakon:3x3", "S 3,3,3/3,3,3 0-0", "1", "S 0,4,4/3,3,3 1-0");
    // ...then S3 (4) -> Sst 2, N1 4, N2 4, N3 4 (occupied: relay 4) ->
    // (North's store skipped) S1 1, S2 5, S3 1, Sst 3: extra move again.
    assert_eq!(
        apply("dakon:3x3", "S 3,3,3/3,3,3 0-0", &["1", "3"]),
        "S 1,5,1/4,4,0 3-0"
    );
}

#[test]
fn dakon_sowing_skips_opponent_store() {
    // S3 (5) -> Sst 1, N1 1, N2 1, N3 1, North's store skipped, S1 1 (was
    // empty, own row): nembak takes the opposite N3 (1): store 2.
    expect_move("dakon", "S 0,0,5/0,0,0 0-0", "3", "N 1,0,0/1,1,0 2-0");
}

#[test]
fn dakon_relay_in_occupied_pit() {
    // n=4: S1 (1) -> S2 2 (was occupied): relay 2 -> S3 1, S4 1 (was empty,
    // own row): nembak, opposite N1 is empty: nothing taken.
    expect_move(
        "dakon",
        "S 1,1,0,0/0,2,2,0 0-0",
        "1",
        "N 0,0,1,1/0,2,2,0 0-0",
    );
    // Relay in the opponent's row: S4 (2) -> Sst 1, N1 2 (occupied): relay 2
    // -> N2 1, N3 4 (occupied): relay 4 -> N4 1, (North's store skipped)
    // S1 1, S2 1, S3 1 (was empty, own row): nembak takes the opposite
    // N2 (1): store 2.
    expect_move(
        "dakon",
        "S 0,0,0,2/1,0,3,0 0-0",
        "4",
        "N 1,1,1,0/0,0,0,1 2-0",
    );
}

#[test]
fn dakon_nembak_capturing_seed_stays() {
    // S1 (1) -> S2 (was empty, own row): the opposite N2's 4 go to the store;
    // the capturing seed stays in S2.
    expect_move("dakon", "S 1,0,0/0,4,2 0-0", "1", "N 0,1,0/0,0,2 4-0");
}

#[test]
fn dakon_nembak_takes_nothing_if_opposite_empty() {
    // S1 (1) -> S2 (was empty); opposite N2 is empty: nothing taken, the seed
    // stays.
    expect_move("dakon", "S 1,0,0/2,0,2 0-0", "1", "N 0,1,0/2,0,2 0-0");
}

#[test]
fn dakon_mikul_needs_equal_nonzero_neighbours() {
    // n=4: S4 (3) -> Sst 1, N1 2, N2 1 (was empty, opponent's row). Its
    // neighbours N1 2 and N3 2 are equal and non-zero: both and the
    // capturing seed go to South's store: 1 + 2 + 2 + 1 = 6.
    expect_move(
        "dakon",
        "S 1,0,0,3/1,0,2,1 0-0",
        "4",
        "N 1,0,0,0/0,0,0,1 6-0",
    );
    // Unequal neighbours (N1 2, N3 3): nothing.
    expect_move(
        "dakon",
        "S 1,0,0,3/1,0,3,1 0-0",
        "4",
        "N 1,0,0,0/2,1,3,1 1-0",
    );
    // A zero neighbour (N1 1, N3 0): nothing.
    expect_move(
        "dakon",
        "S 1,0,0,3/0,0,0,1 0-0",
        "4",
        "N 1,0,0,0/1,1,0,1 1-0",
    );
}

#[test]
fn dakon_mikul_never_at_pit_1_or_n() {
    // S4 (2) -> Sst 1, N1 1 (was empty, pit 1): one neighbour only, nothing.
    expect_move(
        "dakon",
        "S 1,0,0,2/0,1,0,0 0-0",
        "4",
        "N 1,0,0,0/1,1,0,0 1-0",
    );
    // S4 (5) -> Sst 1, N1 1, N2 1, N3 3, N4 1 (was empty, pit n): nothing,
    // although N3 and the next place of the ring (S1) both hold 3.
    expect_move(
        "dakon",
        "S 3,0,0,5/0,0,2,0 0-0",
        "4",
        "N 3,0,0,0/1,1,3,1 1-0",
    );
}

#[test]
fn dakon_game_ends_when_player_to_move_has_no_seeds() {
    // North to move with no seeds: South takes the 3 left.
    assert_end("dakon", "N 2,0,1/0,0,0 10-5", "13-5");
    // South to move (after an extra move) with no seeds: North takes 5.
    assert_end("dakon", "S 0,0,0/2,0,3 6-5", "6-10");
}
