//! `analyse --line`: the principal variation replays with `apply`, every
//! move of it keeps the value, and it ends with the announced result: the
//! final scores when the game ends (their difference is the position's
//! value), or a repetition whose captured seeds already make the value.

use mancala::games::MoveList;
use mancala::{Game, Position, Variant};
use std::process::Command;

fn mancala(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .output()
        .expect("could not start the mancala binary");
    assert_eq!(
        out.status.code(),
        Some(0),
        "mancala {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Endgames reached by random play in small variants of `game`.
fn endgames(game: Game, count: usize, seed: u64) -> Vec<(Variant, Position)> {
    let mut x = seed;
    let mut next = move |n: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % n
    };
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

#[test]
fn the_line_replays_and_ends_with_the_value() {
    let mut repetitions = 0;
    for game in Game::ALL {
        for (v, pos) in endgames(game, 20, 3 + game as u64) {
            let spec = v.to_string();
            let text = pos.to_string();
            let json: serde_json::Value = serde_json::from_str(&mancala(&[
                "analyse",
                "--game",
                &spec,
                "--position",
                &text,
                "--line",
                "--json",
                "--threads",
                "1",
            ]))
            .unwrap();
            let value: i64 = mancala(&[
                "solve",
                "--game",
                &spec,
                "--position",
                &text,
                "--threads",
                "1",
            ])
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
            let mut args = vec!["apply", "--game", &spec, "--position", &text];
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
                let moves = mancala(&["moves", "--game", &spec, "--position", &last]);
                assert_eq!(moves.trim(), end, "{spec} \"{text}\": {line:?}");
                let (s, n) = pair(score);
                assert_eq!(view(s, n), value, "{spec} \"{text}\": {line:?} ends {end}");
            } else {
                assert!(end.starts_with("repetition "), "{spec} \"{text}\": {end}");
                repetitions += 1;
                let captured = last.rsplit(' ').next().unwrap();
                let (s, n) = pair(captured);
                assert_eq!(view(s, n), value, "{spec} \"{text}\": {line:?} ends {end}");
            }
        }
    }
    eprintln!("{repetitions} lines ended by repetition");
}
