//! `analyse --line`: the principal variation replays with `apply`, every
//! move of it keeps the value, and it ends with the announced result: the
//! final scores when the game ends (their difference is the position's
//! value), or a repetition whose captured seeds already make the value.

use crate::common;

use common::ok as mancala;
use mancala::games::MoveList;
use mancala::{Game, Position, Variant};

/// Endgames reached by random play in small variants of `game`.
fn endgames(game: Game, count: usize, seed: u64) -> Vec<(Variant, Position)> {
    let mut next = common::lcg(seed);
    let mut out = Vec::new();
    let mut moves = MoveList::new();
    while out.len() < count {
        // Sizes whose levels resolve in well under a second (awari:4x3's
        // take tens of seconds).
        let (n, s) = [(3, 2), (3, 3), (4, 2)][next(3) as usize];
        let v: Variant = format!("{game}:{n}x{s}").parse().unwrap();
        let mut pos = v.start();
        for _ in 0..4 + next(20) {
            if v.generate(&pos, &mut moves).is_some() {
                break;
            }
            pos = moves[next(moves.len() as u64) as usize].1;
        }
        out.push((v, pos));
    }
    out
}

/// Checks the line of one position (`extra`: more arguments for `analyse`
/// and `solve`, such as `--db DIR`); true when it ends by repetition.
fn check_line(spec: &str, pos: &Position, extra: &[&str]) -> bool {
    let text = pos.to_string();
    let mut args = vec![
        "analyse",
        "--game",
        spec,
        "--position",
        &text,
        "--line",
        "--json",
        "--threads",
        "1",
    ];
    args.extend(extra);
    let json: serde_json::Value = serde_json::from_str(&mancala(&args)).unwrap();
    let mut args = vec![
        "solve",
        "--game",
        spec,
        "--position",
        &text,
        "--threads",
        "1",
    ];
    args.extend(extra);
    let value: i64 = mancala(&args)
        .lines()
        .next()
        .unwrap()
        .strip_prefix("value ")
        .unwrap()
        .parse()
        .unwrap();
    let line: Vec<String> = json["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let end = json["end"].as_str().unwrap();
    // Replay with apply, then read the result off the last position.
    let mut args = vec!["apply", "--game", spec, "--position", &text];
    args.extend(line.iter().map(String::as_str));
    let last = if line.is_empty() {
        text.clone()
    } else {
        mancala(&args).trim().to_string()
    };
    let me_south = pos.to_move() == mancala::Side::South;
    let view = |s: i64, n: i64| if me_south { s - n } else { n - s };
    let pair = |t: &str| -> (i64, i64) {
        let (s, n) = t.split_once('-').unwrap();
        (s.parse().unwrap(), n.parse().unwrap())
    };
    if let Some(score) = end.strip_prefix("end ") {
        let moves = mancala(&["moves", "--game", spec, "--position", &last]);
        assert_eq!(moves.trim(), end, "{spec} \"{text}\": {line:?}");
        let (s, n) = pair(score);
        assert_eq!(view(s, n), value, "{spec} \"{text}\": {line:?} ends {end}");
        false
    } else {
        assert!(end.starts_with("repetition "), "{spec} \"{text}\": {end}");
        let captured = last.rsplit(' ').next().unwrap();
        let (s, n) = pair(captured);
        assert_eq!(view(s, n), value, "{spec} \"{text}\": {line:?} ends {end}");
        true
    }
}

#[test]
fn the_line_replays_and_ends_with_the_value() {
    let mut repetitions = 0;
    for game in Game::ALL {
        for (v, pos) in endgames(game, 20, 3 + game as u64) {
            if check_line(&v.to_string(), &pos, &[]) {
                repetitions += 1;
            }
        }
    }
    eprintln!("{repetitions} lines ended by repetition");
}

/// The same on the full-size boards of the traditional games, in
/// positions their databases cover (up to 6 seeds on the board, any number
/// captured), the solver probing the databases; and the values are those
/// of the search without databases.
#[test]
fn full_size_endgames_with_databases() {
    let mut next = common::lcg(99u64);
    for (game, n) in [
        ("akon", 7),
        ("djenon-abe", 6),
        ("anywoli", 12),
        ("dakon", 7),
    ] {
        let dir = std::env::temp_dir().join(format!("mancala-line-{game}-{}", std::process::id()));
        let d = dir.to_str().unwrap().to_string();
        mancala(&[
            "db",
            "build",
            "--game",
            game,
            "--max-seeds",
            "6",
            "--dir",
            &d,
            "--quiet",
        ]);
        let mut checked = 0;
        for _ in 0..100 {
            if checked == 5 {
                break;
            }
            // A random board of 2..6 seeds; the captured seeds make up the
            // rest of the traditional total, split at random.
            let seeds = 2 + next(5) as usize;
            let mut board = vec![0u8; 2 * n];
            for _ in 0..seeds {
                board[next(2 * n as u64) as usize] += 1;
            }
            let v: Variant = game.parse().unwrap();
            let total = v.start().total_seeds();
            let south = next((total - seeds) as u64 + 1) as usize;
            let row = |r: &[u8]| {
                r.iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let text = format!(
                "{} {}/{} {south}-{}",
                if next(2) == 0 { "S" } else { "N" },
                row(&board[..n]),
                row(&board[n..]),
                total - seeds - south
            );
            let Ok(pos) = v.parse_position(&text) else {
                continue;
            };
            let mut moves = MoveList::new();
            if v.generate(&pos, &mut moves).is_some() {
                continue;
            }
            check_line(game, &pos, &["--db", &d]);
            let with = mancala(&[
                "analyse",
                "--game",
                game,
                "--position",
                &text,
                "--db",
                &d,
                "--threads",
                "1",
            ]);
            let without = mancala(&[
                "analyse",
                "--game",
                game,
                "--position",
                &text,
                "--threads",
                "1",
            ]);
            assert_eq!(with, without, "{game} \"{text}\"");
            checked += 1;
        }
        assert_eq!(checked, 5, "{game}: too few positions in play");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
