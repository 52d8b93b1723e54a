//! Dakon on wide boards (`mancala::wide`): the same moves as the plain
//! second implementation of `tests/it/plain` (written from the rules alone,
//! with no limit on the board) on boards beyond the engine's limits, and
//! the same counts as the engine on the boards both accept.
//!
//! - every Dakon row of `tests/data/perft.tsv` (boards the engine accepts)
//!   is reproduced by the wide representation;
//! - the rows of `tests/data/perft-wide.tsv` (large boards, counted by the
//!   plain implementation: `cargo test --release --test it --
//!   --ignored --nocapture wide::write_rows` prints them) are reproduced by the
//!   wide representation, and a sample of them by the plain one again;
//! - random games on large boards list, position by position, exactly the
//!   moves the plain implementation lists, and `mancala moves` prints them.

use crate::common;
use crate::plain;

use mancala::wide::{WideDakon, WidePosition};

/// Leaves at `depth` plies below `p` (a finished game has none).
fn perft(p: &WidePosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    match WideDakon::moves(p) {
        Err(_) => 0,
        Ok(moves) => moves.iter().map(|(_, c)| perft(c, depth - 1)).sum(),
    }
}

/// The rows `(game, position, depth, count)` of a perft file.
fn rows(text: &str) -> Vec<(String, String, u32, u64)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

fn position(game: &str, text: &str) -> WidePosition {
    game.parse::<WideDakon>()
        .unwrap()
        .parse_position(text)
        .unwrap()
}

#[test]
fn engine_rows_are_reproduced_on_wide_boards() {
    let text = std::fs::read_to_string("tests/data/perft.tsv").unwrap();
    let mut checked = 0;
    for (game, pos, depth, count) in rows(&text) {
        if !game.starts_with("dakon") || count > 2_000_000 {
            continue;
        }
        assert_eq!(
            perft(&position(&game, &pos), depth),
            count,
            "{game} {pos} depth {depth}"
        );
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} rows");
}

/// Large boards: start positions and a few from the middle of a game.
const BOARDS: [(&str, u32); 8] = [
    ("dakon:17x1", 5),
    ("dakon:12x12", 3),
    ("dakon:16x16", 3),
    ("dakon:18x18", 3),
    ("dakon:20x20", 3),
    ("dakon:25x7", 3),
    ("dakon:32x32", 3),
    ("dakon:32x64", 2),
];

#[test]
#[ignore = "writes the rows of tests/data/perft-wide.tsv from the plain implementation"]
fn write_rows() {
    for (game, depth) in BOARDS {
        let (name, n, s) = plain::parse_game(game);
        let start = plain::start(&name, n, s);
        for d in 1..=depth {
            println!(
                "{game}\t{}\t{d}\t{}",
                plain::format_pos(&start),
                plain::perft(game, &start, d)
            );
        }
    }
}

#[test]
fn large_board_rows_are_reproduced() {
    let text = std::fs::read_to_string("tests/data/perft-wide.tsv").unwrap();
    let rows = rows(&text);
    assert!(rows.len() >= 20);
    for (game, pos, depth, count) in &rows {
        assert_eq!(
            perft(&position(game, pos), *depth),
            *count,
            "{game} {pos} depth {depth}"
        );
        // The plain implementation again on the quick rows: the file holds
        // its counts.
        if *count < 50_000 {
            assert_eq!(
                plain::perft(game, &plain::parse_pos(pos), *depth),
                *count,
                "plain: {game}"
            );
        }
    }
}

#[test]
fn random_games_list_the_plain_moves() {
    let mut rng = common::lcg(2048);
    for (game, _) in BOARDS {
        for _ in 0..3 {
            let mut p = game.parse::<WideDakon>().unwrap().start();
            for _ in 0..200 {
                let q = plain::parse_pos(&p.to_string());
                let expected = plain::moves_output(game, &q);
                let (lines, next) = match WideDakon::moves(&p) {
                    Err(s) => (vec![format!("end {}-{}", s.south, s.north)], None),
                    Ok(m) => {
                        let k = rng(m.len() as u64) as usize;
                        (
                            m.iter().map(|(m, c)| format!("{m}\t{c}")).collect(),
                            Some(m[k].1),
                        )
                    }
                };
                assert_eq!(lines, expected, "{game}: {p}");
                match next {
                    Some(c) => p = c,
                    None => break,
                }
            }
        }
    }
}

#[test]
fn the_moves_command_prints_them() {
    for game in ["dakon:32x32", "dakon:20x3"] {
        let (name, n, s) = plain::parse_game(game);
        let expected = plain::moves_output(game, &plain::start(&name, n, s)).join("\n") + "\n";
        assert_eq!(common::ok(&["moves", "--game", game]), expected);
    }
}
