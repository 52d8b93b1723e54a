//! `mancala puzzles` on small databases of several games: every listed
//! puzzle is solved again by the search without databases and has the
//! property it is listed for (exactly one move keeps its value; for a
//! sacrifice, that move captures nothing and a best reply captures; for a
//! long one, the side to move wins and the first capture is far). The
//! plies to the first capture are checked against a plain bounded search
//! over the solver's values: the winner can force a capture within that
//! many plies and not within one fewer, and the printed line replays,
//! keeps the value at every ply and captures at its last.

use crate::common;

use common::{captured_diff, ok as mancala};
use mancala::games::{Move, MoveList};
use mancala::search::{Options, Solver};
use mancala::{dispatch, Position, Setup, Side, Variant};
use std::collections::HashMap;

/// The value of every move of a position, by the solver without databases,
/// memoised.
struct Values<'a> {
    v: Variant,
    solver: &'a mut Solver,
    memo: HashMap<Position, Vec<(Move, Position, i32)>>,
}

impl Values<'_> {
    /// `(move, child, value)` for every move of `pos` (empty when over).
    fn of(&mut self, pos: &Position) -> Vec<(Move, Position, i32)> {
        if let Some(x) = self.memo.get(pos) {
            return x.clone();
        }
        let mut moves = MoveList::new();
        let x = if self.v.generate(pos, &mut moves).is_some() {
            Vec::new()
        } else {
            let values = dispatch!(self.v.game(), R => self.solver.analyse::<R>(pos)).unwrap();
            moves
                .iter()
                .zip(&values)
                .map(|(&(m, c), &(m2, x))| {
                    assert_eq!(m, m2);
                    (m, c, x)
                })
                .collect()
        };
        self.memo.insert(*pos, x.clone());
        x
    }

    /// Whether the side winning `pos` (`win`: the mover, else the other)
    /// can force seeds off the board (or the end) within `d` plies, both
    /// sides keeping the value.
    fn forces(
        &mut self,
        pos: &Position,
        k: usize,
        d: u32,
        winner: Side,
        memo: &mut HashMap<(Position, u32), bool>,
    ) -> bool {
        if pos.board_seeds() < k || self.of(pos).is_empty() {
            return true;
        }
        if d == 0 {
            return false;
        }
        if let Some(&b) = memo.get(&(*pos, d)) {
            return b;
        }
        let moves = self.of(pos);
        let best = moves.iter().map(|m| m.2).max().unwrap();
        let keeping: Vec<Position> = moves.iter().filter(|m| m.2 == best).map(|m| m.1).collect();
        let b = if pos.to_move() == winner {
            keeping
                .iter()
                .any(|c| self.forces(c, k, d - 1, winner, memo))
        } else {
            keeping
                .iter()
                .all(|c| self.forces(c, k, d - 1, winner, memo))
        };
        memo.insert((*pos, d), b);
        b
    }
}

/// The listing's rows cut to the interface's four columns.
fn plain_rows(listed: &str) -> Vec<String> {
    listed
        .lines()
        .map(|l| l.split('\t').take(4).collect::<Vec<_>>().join("\t"))
        .collect()
}

#[test]
fn mined_puzzles_are_puzzles() {
    for (game, k) in [
        ("awari:3x2", 7),
        ("kalah:3x2", 8),
        ("dakon:3x2", 7),
        ("akon:3x2", 7),
        ("anywoli:3x2", 7),
        ("djenon-abe:3x2", 7),
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
        let seeds = k.to_string();
        let base = [
            "puzzles", "--game", game, "--seeds", &seeds, "--dir", d, "--long", "2",
        ];
        let with = |extra: &[&'static str]| -> Vec<&str> { [&base[..], extra].concat() };
        let listed = mancala(&with(&["--limit", "1000000", "--threads", "2", "--line"]));
        // Without --line, the columns of the interface alone, same rows.
        let plain = mancala(&with(&["--limit", "1000000"]));
        // The counts on stderr are those of the whole listing, and --each
        // keeps the best few of every kind, in the listing's order.
        let out = common::run(&with(&["--each", "--limit", "3"]));
        let kinds: Vec<&str> = listed
            .lines()
            .map(|l| l.split('\t').nth(3).unwrap())
            .collect();
        let count = |kind: &str| kinds.iter().filter(|k| **k == kind).count();
        let said = String::from_utf8(out.stderr).unwrap();
        assert!(
            said.contains(&format!(
                "{} puzzles: {} sacrifice, {} long, {} unique",
                kinds.len(),
                count("sacrifice"),
                count("long"),
                count("unique")
            )),
            "{game}: {said}"
        );
        let each: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        let mut expected = Vec::new();
        for kind in ["sacrifice", "long", "unique"] {
            expected.extend(
                plain_rows(&listed)
                    .into_iter()
                    .filter(|l| l.split('\t').nth(3) == Some(kind))
                    .take(3),
            );
        }
        assert_eq!(each, expected, "{game}");
        let cut: Vec<String> = listed
            .lines()
            .map(|l| l.split('\t').take(4).collect::<Vec<_>>().join("\t"))
            .collect();
        assert_eq!(plain.lines().collect::<Vec<_>>(), cut, "{game}");
        let _ = std::fs::remove_dir_all(&dir);
        let v: Variant = game.parse().unwrap();
        let mut solver = Solver::new(Options {
            threads: 1,
            tt_bytes: 16 << 20,
            ..Options::default()
        });
        let mut values = Values {
            v,
            solver: &mut solver,
            memo: HashMap::new(),
        };
        let lines: Vec<&str> = listed.lines().collect();
        assert!(!lines.is_empty(), "{game}: no puzzles at {k} seeds");
        // A sample across the ranking, and the first 15 of every kind.
        let mut sample: Vec<&str> = lines
            .iter()
            .step_by((lines.len() / 40).max(1))
            .copied()
            .collect();
        for kind in ["sacrifice", "unique", "long"] {
            sample.extend(
                lines
                    .iter()
                    .filter(|l| l.split('\t').nth(3) == Some(kind))
                    .take(15),
            );
        }
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for line in sample {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 6, "{line}");
            *seen.entry(f[3]).or_default() += 1;
            let pos = Position::from_setup(&f[0].parse::<Setup>().unwrap()).unwrap();
            let value: i32 = f[2].parse().unwrap();
            let moves = values.of(&pos);
            assert!(moves.len() >= 2, "{line}");
            let best = moves.iter().map(|m| m.2).max().unwrap();
            assert_eq!(best, value, "{game} {line}");
            let keeping: Vec<String> = moves
                .iter()
                .filter(|m| m.2 == best)
                .map(|m| m.0.to_string())
                .collect();
            assert!(
                keeping.contains(&f[1].to_string()),
                "{game} {line}: {moves:?}"
            );
            match f[3] {
                "unique" => assert_eq!(keeping.len(), 1, "{game} {line}"),
                "sacrifice" => {
                    assert_eq!(keeping.len(), 1, "{game} {line}");
                    let child = moves.iter().find(|m| m.0.to_string() == f[1]).unwrap().1;
                    let me = pos.to_move();
                    assert_eq!(captured_diff(&child, me), 0, "{line}: the move captures");
                    assert_ne!(child.to_move(), me, "{line}");
                    let replies = values.of(&child);
                    let top = replies.iter().map(|m| m.2).max().unwrap();
                    let captures = replies
                        .iter()
                        .any(|m| m.2 == top && captured_diff(&m.1, child.to_move()) > 0);
                    assert!(captures, "{game} {line}: no best reply captures");
                }
                "long" => {
                    assert_eq!(keeping.len(), 1, "{game} {line}");
                    assert!(value > 0, "{game} {line}");
                    assert!(f[4].parse::<u32>().unwrap() >= 2, "{game} {line}");
                }
                other => panic!("unknown kind {other}"),
            }
            // The plies to the first capture, and the line.
            if value == 0 {
                assert_eq!(
                    (f[4], f[5]),
                    ("-", "-"),
                    "{game} {line}: a draw has no distance"
                );
                continue;
            }
            if f[4] == "-" {
                // The loser can keep every seed on the board forever.
                let winner = if value > 0 {
                    pos.to_move()
                } else {
                    pos.to_move().other()
                };
                let mut memo = HashMap::new();
                assert!(
                    !values.forces(&pos, k, 40, winner, &mut memo),
                    "{game} {line}"
                );
                continue;
            }
            let plies: u32 = f[4].parse().unwrap();
            let winner = if value > 0 {
                pos.to_move()
            } else {
                pos.to_move().other()
            };
            let mut memo = HashMap::new();
            assert!(
                values.forces(&pos, k, plies, winner, &mut memo),
                "{game} {line}"
            );
            assert!(
                !values.forces(&pos, k, plies - 1, winner, &mut memo),
                "{game} {line}"
            );
            let moves_of_line: Vec<&str> = f[5].split(' ').collect();
            assert_eq!(moves_of_line.len() as u32, plies, "{game} {line}");
            assert_eq!(moves_of_line[0], f[1], "{game} {line}");
            let mut at = pos;
            for (i, m) in moves_of_line.iter().enumerate() {
                assert_eq!(
                    at.board_seeds(),
                    k,
                    "{game} {line}: seeds left before ply {i}"
                );
                let here = values.of(&at);
                let top = here.iter().map(|x| x.2).max().unwrap();
                let step = here
                    .iter()
                    .find(|x| x.0.to_string() == *m)
                    .unwrap_or_else(|| panic!("{game} {line}: {m} is not legal"));
                assert_eq!(step.2, top, "{game} {line}: ply {i} ({m}) loses value");
                at = step.1;
            }
            assert!(
                at.board_seeds() < k || values.of(&at).is_empty(),
                "{game} {line}: no capture at the end"
            );
        }
        eprintln!("{game}: {} puzzles, checked {seen:?}", lines.len());
        for kind in ["unique", "long"] {
            assert!(seen.contains_key(kind), "{game}: no {kind} puzzle checked");
        }
    }
}
