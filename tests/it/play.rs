//! `mancala play` driven through stdin: random typing (illegal moves and
//! all) against the perfect player in every game, from both sides, with and
//! without databases. The transcript is replayed: every move the person
//! made was legal, every move the perfect player made keeps the solver's
//! value, the hints give the solver's values, and the game ends with the
//! final score of the rules.

use crate::common;

use mancala::games::MoveList;
use mancala::search::{Options, Solver};
use mancala::{dispatch, Move, Position, Side, Variant};
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `mancala play ARGS` with `input` on stdin; returns stdout.
fn play(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("could not start the mancala binary");
    let mut stdin = child.stdin.take().unwrap();
    let text = input.to_string();
    // The game may stop reading before the input ends (game over).
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(text.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "play {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A value in words, with the verbs for a win, a loss and a draw: "wins
/// by 4", "loses by 2", "draws".
fn verdict(value: i32, [win, lose, draw]: [&str; 3]) -> String {
    match value {
        v if v > 0 => format!("{win} by {v}"),
        v if v < 0 => format!("{lose} by {}", -v),
        _ => draw.to_string(),
    }
}

/// Random typing: pit numbers 0..=n+1 (some illegal), now and then `hint`.
fn typing(seed: u64, n: usize, lines: usize) -> String {
    let mut next = common::lcg(seed);
    next(1); // (the first state is a scrambled seed)
             // Always some bad input first: a word, no pit, a pit beyond the row.
    let mut s = format!("zero\n0\n{}\n", n + 1);
    for _ in 0..lines {
        let r = next(1 << 31) as usize;
        if r.is_multiple_of(11) {
            s.push_str("hint\n");
        } else {
            s.push_str(&format!("{}\n", r % (n + 2)));
        }
    }
    s
}

fn solver() -> Solver {
    Solver::new(Options {
        threads: 1,
        tt_bytes: 32 << 20,
        ..Options::default()
    })
}

/// Replays a transcript; returns how many moves the perfect player made.
fn check_transcript(v: &Variant, start: Position, human: Side, text: &str) -> usize {
    let mut solver = solver();
    let mut pos = start;
    let mut machine = 0;
    let mut lines = text.lines().peekable();
    let mut ended = false;
    while let Some(line) = lines.next() {
        let mut moves = MoveList::new();
        let over = v.generate(&pos, &mut moves);
        if let Some(rest) = line.strip_prefix("you play ") {
            assert_eq!(pos.to_move(), human, "{line}");
            let m: Move = rest.parse().unwrap();
            pos = moves.iter().find(|(x, _)| *x == m).expect("a legal move").1;
        } else if let Some((who, rest)) = line.split_once(" plays ") {
            assert_eq!(who, pos.to_move().name(), "{line}");
            assert_ne!(pos.to_move(), human, "{line}");
            let m: Move = rest.split(' ').next().unwrap().parse().unwrap();
            let values = dispatch!(v.game(), R => solver.analyse::<R>(&pos)).unwrap();
            let best = values.iter().map(|&(_, x)| x).max().unwrap();
            let chosen = values.iter().find(|&&(x, _)| x == m).unwrap().1;
            assert_eq!(chosen, best, "{line} in {pos}: {values:?}");
            let said = verdict(best, ["wins", "loses", "draws"]);
            assert!(
                line.ends_with(&format!("it {said})")),
                "{line}: value {best}"
            );
            pos = moves.iter().find(|(x, _)| *x == m).unwrap().1;
            machine += 1;
        } else if line.ends_with(": hint") {
            let values = dispatch!(v.game(), R => solver.analyse::<R>(&pos)).unwrap();
            for (m, x) in values {
                let hint = lines.next().expect("a hint line");
                let words = format!("you {}", verdict(x, ["win", "lose", "draw"]));
                assert!(
                    hint.starts_with(&format!("  {m}: {words}")),
                    "{hint} vs {m} {x}"
                );
            }
        } else if let Some(rest) = line.strip_prefix("game over: ") {
            let score = over.expect("the game is over");
            assert!(
                rest.starts_with(&format!("South {}, North {}", score.south, score.north)),
                "{line}"
            );
            ended = true;
        } else if line.starts_with("no more input") {
            assert!(over.is_none());
            assert!(line.contains(&pos.to_string()), "{line} vs {pos}");
            ended = true;
        } else if line.contains("illegal") {
            assert_eq!(pos.to_move(), human);
        }
    }
    assert!(ended, "the transcript has no end:\n{text}");
    machine
}

#[test]
fn perfect_player_keeps_the_value() {
    for (game, seed) in [
        ("kalah:3x3", 1),
        ("awari:3x2", 2),
        ("dakon:3x3", 3),
        ("akon:3x2", 4),
        ("djenon-abe:3x2", 5),
        ("anywoli:3x2", 6),
    ] {
        let v: Variant = game.parse().unwrap();
        for (side, human) in [("south", Side::South), ("north", Side::North)] {
            let input = typing(seed, v.n(), 300);
            let text = play(
                &[
                    "--game",
                    game,
                    "--as",
                    side,
                    "--threads",
                    "1",
                    "--tt-mb",
                    "16",
                    "--quiet",
                ],
                &input,
            );
            let machine = check_transcript(&v, v.start(), human, &text);
            assert!(machine > 0, "{game}: the perfect player never moved");
            assert!(text.contains("illegal"), "{game}: no illegal move");
            assert!(text.contains("not understood"), "{game}: no bad word");
        }
    }
}

#[test]
fn undo_takes_back_the_move_and_the_reply() {
    let text = play(
        &[
            "--game",
            "kalah:3x3",
            "--threads",
            "1",
            "--tt-mb",
            "16",
            "--quiet",
        ],
        "1\nundo\nundo\nquit\n",
    );
    let start = "S 3,3,3/3,3,3 0-0";
    assert!(text.contains("you play 1"), "{text}");
    assert!(text.contains("taken back"), "{text}");
    assert!(text.contains("nothing to undo"), "{text}");
    assert!(
        text.contains(&format!("you left the game at \"{start}\"")),
        "{text}"
    );
}

#[test]
fn bad_input_is_explained() {
    let text = play(
        &[
            "--game",
            "kalah:3x3",
            "--threads",
            "1",
            "--tt-mb",
            "16",
            "--quiet",
        ],
        "seven\n\n4\nquit\n",
    );
    assert!(text.contains("\"seven\" is not understood"), "{text}");
    assert!(text.contains("illegal: move 4"), "{text}");
    // Bad arguments are exit status 2 with nothing on stdout.
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["play", "--game", "kalah:3x3", "--as", "east"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn plays_with_databases() {
    let dir = std::env::temp_dir().join(format!("mancala-play-db-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args([
            "db",
            "build",
            "--game",
            "awari:3x2",
            "--max-seeds",
            "8",
            "--dir",
            d,
            "--quiet",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Variant = "awari:3x2".parse().unwrap();
    for seed in 10..14 {
        let input = typing(seed, v.n(), 200);
        let text = play(
            &[
                "--game",
                "awari:3x2",
                "--db",
                d,
                "--threads",
                "1",
                "--tt-mb",
                "16",
                "--quiet",
            ],
            &input,
        );
        check_transcript(&v, v.start(), Side::South, &text);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
