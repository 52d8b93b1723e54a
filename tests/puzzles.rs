//! `mancala puzzles` on small databases of several games: every listed
//! puzzle is solved again by the search without databases and has the
//! property it is listed for (exactly one move keeps its value; for a
//! sacrifice, that move captures nothing and a best reply captures).

use mancala::games::MoveList;
use mancala::search::{Options, Solver};
use mancala::{dispatch, Position, Setup, Side, Variant};
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

fn captured_diff(p: &Position, me: Side) -> i32 {
    i32::from(p.captured(me)) - i32::from(p.captured(me.other()))
}

#[test]
fn mined_puzzles_are_puzzles() {
    for (game, k) in [
        ("awari:3x2", 7),
        ("kalah:3x2", 7),
        ("dakon:3x2", 7),
        ("akon:3x2", 7),
    ] {
        let dir = std::env::temp_dir().join(format!(
            "mancala-puzzles-{}-{}",
            game.replace(':', "-"),
            std::process::id()
        ));
        let d = dir.to_str().unwrap();
        mancala(&[
            "db",
            "build",
            "--game",
            game,
            "--max-seeds",
            &k.to_string(),
            "--dir",
            d,
            "--quiet",
        ]);
        let listed = mancala(&[
            "puzzles",
            "--game",
            game,
            "--seeds",
            &k.to_string(),
            "--dir",
            d,
            "--limit",
            "1000000",
        ]);
        let _ = std::fs::remove_dir_all(&dir);
        let v: Variant = game.parse().unwrap();
        let solver = Solver::new(Options {
            threads: 1,
            tt_bytes: 16 << 20,
            ..Options::default()
        });
        let lines: Vec<&str> = listed.lines().collect();
        assert!(!lines.is_empty(), "{game}: no puzzles at {k} seeds");
        let mut sacrifices = 0;
        for line in lines.iter().step_by((lines.len() / 60).max(1)) {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 4, "{line}");
            let pos = Position::from_setup(&f[0].parse::<Setup>().unwrap()).unwrap();
            let value: i32 = f[2].parse().unwrap();
            let values = dispatch!(v.game, R => solver.analyse::<R>(&pos)).unwrap();
            let best = values.iter().map(|&(_, x)| x).max().unwrap();
            assert_eq!(best, value, "{game} {line}");
            let keeping: Vec<String> = values
                .iter()
                .filter(|&&(_, x)| x == best)
                .map(|(m, _)| m.to_string())
                .collect();
            assert_eq!(keeping, [f[1].to_string()], "{game} {line}: {values:?}");
            assert!(values.len() >= 2, "{line}");
            match f[3] {
                "unique" => {}
                "sacrifice" => {
                    sacrifices += 1;
                    let mut moves = MoveList::new();
                    v.generate(&pos, &mut moves);
                    let child = moves.iter().find(|(m, _)| m.to_string() == f[1]).unwrap().1;
                    let me = pos.to_move();
                    assert_eq!(captured_diff(&child, me), 0, "{line}: the move captures");
                    assert_ne!(child.to_move(), me, "{line}");
                    let replies = dispatch!(v.game, R => solver.analyse::<R>(&child)).unwrap();
                    let top = replies.iter().map(|&(_, x)| x).max().unwrap();
                    let mut rm = MoveList::new();
                    v.generate(&child, &mut rm);
                    let captures = replies.iter().zip(rm.iter()).any(|(&(_, x), (_, after))| {
                        x == top && captured_diff(after, child.to_move()) > 0
                    });
                    assert!(captures, "{game} {line}: no best reply captures");
                }
                other => panic!("unknown kind {other}"),
            }
        }
        eprintln!(
            "{game}: {} puzzles, {sacrifices} sacrifices checked",
            lines.len()
        );
    }
}
