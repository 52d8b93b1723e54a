//! The measures of puzzles, their grades' inputs, the families and the
//! booklet of `puzzles --collection`, each checked against a plain
//! computation in this file: the values of moves come from the solver
//! searching the puzzle's level itself (only the lower levels from a
//! database; boards whose capture-free region exceeds its limit are
//! skipped, at most half of them), not from the level the puzzles are
//! mined from; the legal moves from the rules; the plies to the first capture from a
//! plain bounded search written here, and the booklet is read back as a
//! person would read it and replayed with `apply`, `analyse --db` and
//! `solve --db`.

use crate::common;

use common::{captured_diff, ok as mancala};
use mancala::db::Database;
use mancala::games::{Move, MoveList};
use mancala::puzzles::measures::{measure, Measures, Ply};
use mancala::puzzles::{collection, MineProgress};
use mancala::search::{Options, Solver};
use mancala::{dispatch, Position, Side, Variant};
use std::collections::HashMap;

/// The value of every move of a position, by the solver without
/// databases, memoised.
struct Values {
    v: Variant,
    solver: Solver,
    memo: HashMap<Position, Vec<(Move, Position, i32)>>,
}

impl Values {
    /// The solver for `game`, probing only the levels below `k` of the
    /// databases in `dir` (copied to `dir/below`): the values of boards
    /// with `k` seeds come from its search, not from the level the puzzles
    /// are mined from.
    fn new(game: &str, dir: &std::path::Path, k: usize) -> Values {
        let v: Variant = game.parse().unwrap();
        let below = dir.join("below");
        std::fs::create_dir_all(&below).unwrap();
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            let level: Option<usize> = name
                .strip_suffix(".mdb")
                .and_then(|n| n.rsplit('-').next())
                .and_then(|l| l.parse().ok());
            if level.is_some_and(|l| l < k) {
                std::fs::copy(e.path(), below.join(&name)).unwrap();
            }
        }
        let db = Database::open(&below, v.game().name(), v.n(), true).unwrap();
        assert_eq!(db.max_seeds(), k - 1);
        Values {
            v,
            solver: Solver::new(Options {
                threads: 1,
                tt_bytes: 16 << 20,
                region_limit: 50_000,
                ..Options::default()
            })
            .with_database(std::sync::Arc::new(db)),
            memo: HashMap::new(),
        }
    }

    /// `(move, child, value)` for every move of `pos` (empty when over);
    /// `None` when the search gives up (a capture-free region beyond its
    /// limit): the puzzle is then not checked.
    fn of(&mut self, pos: &Position) -> Option<Vec<(Move, Position, i32)>> {
        if let Some(x) = self.memo.get(pos) {
            return Some(x.clone());
        }
        let mut moves = MoveList::new();
        let x = if self.v.generate(pos, &mut moves).is_some() {
            Vec::new()
        } else {
            let values = dispatch!(self.v.game(), R => self.solver.analyse::<R>(pos)).ok()?;
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
        Some(x)
    }

    /// The game value of `pos` for its mover, the seeds captured so far
    /// included (as `analyse` counts them; the final scores when over).
    fn value(&mut self, pos: &Position) -> Option<i32> {
        let mut moves = MoveList::new();
        if let Some(score) = self.v.generate(pos, &mut moves) {
            // The end-of-game allocation is in the final scores only.
            let me = pos.to_move();
            return Some(i32::from(score[me]) - i32::from(score[me.other()]));
        }
        Some(self.of(pos)?.iter().map(|m| m.2).max().unwrap())
    }

    /// Whether the winner forces seeds off the board of `k` seeds (or the
    /// end) within `d` plies, both sides keeping the value.
    fn forces(
        &mut self,
        pos: &Position,
        k: usize,
        d: u32,
        winner: Side,
        memo: &mut HashMap<(Position, u32), bool>,
    ) -> Option<bool> {
        if pos.board_seeds() < k || self.of(pos)?.is_empty() {
            return Some(true);
        }
        if d == 0 {
            return Some(false);
        }
        if let Some(&b) = memo.get(&(*pos, d)) {
            return Some(b);
        }
        let moves = self.of(pos)?;
        let best = moves.iter().map(|m| m.2).max().unwrap();
        let keeping: Vec<Position> = moves.iter().filter(|m| m.2 == best).map(|m| m.1).collect();
        let mut b = pos.to_move() != winner;
        for c in &keeping {
            let f = self.forces(c, k, d - 1, winner, memo)?;
            if f == (pos.to_move() == winner) {
                b = f;
                break;
            }
        }
        memo.insert((*pos, d), b);
        Some(b)
    }
}

/// `mancala db build` of `game` up to `k` seeds into `dir`, by the command
/// line (unlike `db.rs`'s `build`, which calls the library).
fn build(game: &str, k: usize, dir: &str) {
    mancala(&[
        "db",
        "build",
        "--game",
        game,
        "--max-seeds",
        &k.to_string(),
        "--dir",
        dir,
        "--quiet",
    ]);
}

/// Checks every measure of `m` (a puzzle of `game` with `k` seeds) by
/// the plain computations of this file.
/// `None` when the solver gave up on a board of it (nothing checked).
fn check(values: &mut Values, m: &Measures, k: usize) -> Option<()> {
    let pos = m.position;
    let me = pos.to_move();
    let here = values.of(&pos)?;
    let best = here.iter().map(|x| x.2).max().unwrap();
    assert_eq!(m.value, best, "{pos}");
    assert_eq!(m.moves, here.len(), "{pos}");
    let keeping: Vec<Move> = here.iter().filter(|x| x.2 == best).map(|x| x.0).collect();
    assert_eq!(keeping, vec![m.solution], "{pos}");
    // Wrong moves: every other move, its value and its capture.
    let wrong: Vec<(Move, i32, i32)> = here
        .iter()
        .filter(|x| x.2 != best)
        .map(|x| (x.0, x.2, captured_diff(&x.1, me)))
        .collect();
    let said: Vec<(Move, i32, i32)> = m
        .wrong
        .iter()
        .map(|w| (w.mv, w.value, w.captures))
        .collect();
    assert_eq!(said, wrong, "{pos}");
    let tempting = wrong.iter().filter(|w| w.2 > 0).count();
    assert_eq!(m.tempting(), tempting, "{pos}");
    // Seeds and occupied pits.
    for side in Side::BOTH {
        let row = pos.row(side);
        assert_eq!(
            m.seeds[side],
            row.iter().map(|&c| u32::from(c)).sum::<u32>()
        );
        assert_eq!(
            m.occupied[side],
            row.iter().filter(|&&c| c > 0).count() as u32
        );
    }
    // Refutations: they replay, keep the value at every ply, end with the
    // opponent's first move, and leave the stated value.
    for w in &m.wrong {
        let mut at = here.iter().find(|x| x.0 == w.mv).unwrap().1;
        for (i, p) in w.refutation.iter().enumerate() {
            let moves = values.of(&at)?;
            let top = moves.iter().map(|x| x.2).max().unwrap();
            let step = moves.iter().find(|x| x.0 == p.mv).expect("legal");
            assert_eq!(step.2, top, "{pos}: refutation of {} loses value", w.mv);
            assert_eq!(p.mover, at.to_move());
            assert_eq!(p.choices, moves.len());
            assert_eq!(
                p.captures,
                captured_diff(&step.1, at.to_move()) - captured_diff(&at, at.to_move())
            );
            assert_eq!(
                p.mover == me,
                i + 1 < w.refutation.len(),
                "{pos}: the refutation of {} ends with the opponent's first move",
                w.mv
            );
            at = step.1;
        }
        let after = if at.to_move() == me {
            values.value(&at)?
        } else {
            -values.value(&at)?
        };
        assert_eq!(after, w.value, "{pos}: after the refutation of {}", w.mv);
    }
    // The line: as long as the plain search's distance, value-keeping, a
    // capture at its end, choices and decisions counted again.
    // Lines beyond 12 plies are only replayed, each ply keeping the value;
    // their length is not searched again (the plain search grows fast).
    let Some(line) = &m.line else {
        return Some(());
    };
    if line.len() > 12 {
        let mut at = pos;
        for p in line {
            let moves = values.of(&at)?;
            let top = moves.iter().map(|x| x.2).max().unwrap();
            let step = moves.iter().find(|x| x.0 == p.mv).expect("legal");
            assert_eq!(step.2, top, "{pos}: the line loses value");
            at = step.1;
        }
        return Some(());
    }
    let winner = if best > 0 { me } else { me.other() };
    let mut memo = HashMap::new();
    let plies = line.len() as u32;
    assert!(values.forces(&pos, k, plies, winner, &mut memo)?, "{pos}");
    assert!(
        !values.forces(&pos, k, plies - 1, winner, &mut memo)?,
        "{pos}"
    );
    let mut at = pos;
    let mut decisions = [0u32; 2];
    for p in line {
        assert_eq!(at.board_seeds(), k, "{pos}: seeds left before the end");
        let moves = values.of(&at)?;
        let top = moves.iter().map(|x| x.2).max().unwrap();
        let step = moves.iter().find(|x| x.0 == p.mv).expect("legal");
        assert_eq!(step.2, top, "{pos}: the line loses value");
        assert_eq!(p.choices, moves.len());
        if moves.len() > 1 && p.mv != Move::Pass {
            decisions[at.to_move().index()] += 1;
        }
        at = step.1;
    }
    assert!(at.board_seeds() < k || values.of(&at)?.is_empty(), "{pos}");
    let d = m.decisions();
    assert_eq!([d.south, d.north], decisions, "{pos}");
    assert_eq!(m.depth(), decisions[0] + decisions[1]);
    assert_eq!(
        m.passes(),
        line.iter().filter(|p: &&Ply| p.mv == Move::Pass).count()
    );
    Some(())
}

#[test]
fn measures_match_a_plain_search() {
    for (game, k, sample) in [("anywoli:6x4", 7, 60), ("kalah:6x4", 7, 40)] {
        let dir = common::TempDir::new(&format!("measures-{}", game.replace(':', "-")));
        build(game, k, dir.path());
        let v: Variant = game.parse().unwrap();
        let db = Database::open(&dir.0, v.game().name(), v.n(), true).unwrap();
        let progress = MineProgress::default();
        let (found, positions) =
            dispatch!(v.game(), R => collection::candidates::<R>(&db, k, sample, &progress))
                .unwrap()
                .unwrap();
        assert!(found > 0 && !positions.is_empty(), "{game}: no candidates");
        let mut values = Values::new(game, &dir.0, k);
        let mut lines = 0;
        let mut skipped = 0;
        for pos in &positions {
            let m = dispatch!(v.game(), R => measure::<R>(&db, pos, 20_000)).expect("a puzzle");
            if check(&mut values, &m, k).is_none() {
                skipped += 1;
                continue;
            }
            lines += usize::from(m.line.is_some());
        }
        eprintln!(
            "{game}: {} of {found} candidates measured, {skipped} beyond the solver's region limit, {lines} checked with a line",
            positions.len()
        );
        assert!(skipped * 2 <= positions.len(), "{game}: too few checked");
        assert!(lines > 0, "{game}: no line checked");
        // Positions that are not puzzles are not measured.
        let start = v.start();
        if start.board_seeds() <= k {
            let _ = dispatch!(v.game(), R => measure::<R>(&db, &start, 100));
        }
    }
}

/// The SVG's pit counts, `(side, pit, count)`.
fn svg_counts(svg: &str) -> Vec<(String, usize, u8)> {
    svg.lines()
        .filter(|l| l.starts_with("<text class=\"count\""))
        .map(|l| {
            let attr = |name: &str| {
                let at = l.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                l[at..at + l[at..].find('"').unwrap()].to_string()
            };
            let count = l[l.find('>').unwrap() + 1..l.find("</text>").unwrap()]
                .parse()
                .unwrap();
            (attr("data-side"), attr("data-pit").parse().unwrap(), count)
        })
        .collect()
}

/// One puzzle as the booklet states it.
struct Stated {
    number: usize,
    position: Position,
    value: i32,
    key: String,
    /// The plies of the line to the first capture, mover and move (`S 8`,
    /// `N pass`); `None` when the solution page gives no line.
    line: Option<Vec<String>>,
    /// `(move, South's value after it, refutation moves)`.
    wrong: Vec<(String, i32, Vec<String>)>,
}

/// Asserts that no two puzzles of one level share an idea: the same value
/// and the same moves on the line.
fn ideas_differ(stated: &[(String, Stated)]) {
    for (i, (_, a)) in stated.iter().enumerate() {
        for (_, b) in &stated[i + 1..] {
            assert!(
                a.position.board_seeds() != b.position.board_seeds()
                    || a.value != b.value
                    || a.line != b.line,
                "puzzles {} and {} have the same value and line {:?}",
                a.number,
                b.number,
                a.line
            );
        }
    }
}

/// The levels of the table of the booklet's README.md, in its order.
fn levels_of_table(book: &str) -> Vec<usize> {
    book.lines()
        .skip_while(|l| !l.starts_with("| seeds |"))
        .skip(2)
        .take_while(|l| l.starts_with("| "))
        .map(|l| l[2..].split(' ').next().unwrap().parse().unwrap())
        .collect()
}

fn outcome_value(text: &str) -> i32 {
    if let Some(v) = text.strip_prefix("win by ") {
        v.parse().unwrap()
    } else if let Some(v) = text.strip_prefix("lose by ") {
        -v.parse::<i32>().unwrap()
    } else {
        assert_eq!(text, "draw");
        0
    }
}

/// Reads the booklet in `dir`: its puzzles as README.md and solutions.md
/// state them; checks every diagram against its position.
fn read_booklet(dir: &std::path::Path) -> Vec<(String, Stated)> {
    let book = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let sol = std::fs::read_to_string(dir.join("solutions.md")).unwrap();
    let mut out = Vec::new();
    let mut lines = book.lines().peekable();
    let mut number = 0;
    while let Some(l) = lines.next() {
        let Some(head) = l.strip_prefix("### ") else {
            continue;
        };
        number += 1;
        let (n, rest) = head.split_once(". South to play and ").unwrap();
        assert_eq!(n.parse::<usize>().unwrap(), number, "{head}");
        let value = outcome_value(rest);
        let picture = lines.find(|l| l.starts_with("![")).unwrap();
        let svg_name = &picture[picture.find('(').unwrap() + 1..picture.len() - 1];
        let info = lines.find(|l| l.starts_with('`')).unwrap();
        let position = common::position(&info[1..info[1..].find('`').unwrap() + 1]);
        let svg = std::fs::read_to_string(dir.join(svg_name)).unwrap();
        let counts = svg_counts(&svg);
        assert_eq!(counts.len(), 2 * position.n(), "{svg_name}");
        for (side, pit, count) in counts {
            let s = if side == "south" {
                Side::South
            } else {
                Side::North
            };
            assert_eq!(position.pit(s, pit), count, "{svg_name} {side} {pit}");
        }
        // The solution page.
        let at = sol.find(&format!("## Puzzle {number}\n")).unwrap();
        let section = &sol[at..];
        let section = &section[..section[3..]
            .find("## Puzzle")
            .map_or(section.len(), |e| e + 3)];
        assert!(section.contains(&position.to_string()), "{section}");
        let key = section.split("Key move: **").nth(1).unwrap();
        let key = key[..key.find("**").unwrap()].to_string();
        let line = section
            .lines()
            .find(|l| l.starts_with("Line to the first capture ("))
            .map(|l| {
                l[l.find("): ").unwrap() + 3..]
                    .split(", ")
                    .map(|p| {
                        let w: Vec<&str> = p.split(' ').collect();
                        format!("{} {}", w[0], w[1].trim_end_matches('!'))
                    })
                    .collect()
            });
        let mut wrong = Vec::new();
        for row in section
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| wrong"))
        {
            let f: Vec<&str> = row.split(" | ").collect();
            let mv = f[0]
                .trim_start_matches("| ")
                .split(' ')
                .next()
                .unwrap()
                .to_string();
            let v = outcome_value(f[1]);
            let refutation: Vec<String> = if f[3].starts_with("the game ends") {
                Vec::new()
            } else {
                f[3].trim_end_matches(" |")
                    .split(", ")
                    .map(|p| {
                        let w: Vec<&str> = p.split(' ').collect();
                        w[1].trim_end_matches('!').to_string()
                    })
                    .collect()
            };
            wrong.push((mv, v, refutation));
        }
        out.push((
            svg_name.to_string(),
            Stated {
                number,
                position,
                value,
                key,
                line,
                wrong,
            },
        ));
    }
    out
}

#[test]
fn the_booklet_states_what_the_databases_say() {
    let game = "anywoli";
    let k = 7;
    let dir = common::TempDir::new("booklet");
    let d = dir.path();
    build(game, k, d);
    let out = dir.0.join("book");
    let o = out.to_str().unwrap();
    let run = common::run(&[
        "puzzles",
        "--game",
        game,
        "--seeds",
        "6..7",
        "--dir",
        d,
        "--collection",
        o,
        "--per-grade",
        "2",
        "--sample",
        "600",
        "--threads",
        "2",
    ]);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(run.stdout.is_empty());
    let stated = read_booklet(&out);
    assert!(stated.len() >= 2, "only {} puzzles", stated.len());
    let mut values = Values::new(game, &dir.0, k);
    for (_, p) in &stated {
        let pos = p.position.to_string();
        // The key move is the only one that keeps the value (analyse --db).
        let analysed = mancala(&["analyse", "--game", game, "--position", &pos, "--db", d]);
        let rows: Vec<(String, i32)> = analysed
            .lines()
            .map(|l| {
                let (m, v) = l.split_once('\t').unwrap();
                (m.to_string(), v.parse().unwrap())
            })
            .collect();
        let keeping: Vec<&String> = rows
            .iter()
            .filter(|r| r.1 == p.value)
            .map(|r| &r.0)
            .collect();
        assert_eq!(keeping, vec![&p.key], "puzzle {} {pos}", p.number);
        assert!(rows.iter().all(|r| r.1 <= p.value));
        assert_eq!(rows.len(), p.wrong.len() + 1);
        // Every refutation replays with apply and leaves the stated value.
        for (mv, v, refutation) in &p.wrong {
            let mut args = vec!["apply", "--game", game, "--position", &pos, mv.as_str()];
            args.extend(refutation.iter().map(String::as_str));
            let after = mancala(&args);
            let after = common::position(after.trim());
            let solved = mancala(&[
                "solve",
                "--game",
                game,
                "--position",
                &after.to_string(),
                "--db",
                d,
            ]);
            let g: i32 = solved
                .lines()
                .next()
                .unwrap()
                .strip_prefix("value ")
                .unwrap()
                .parse()
                .unwrap();
            // `solve` counts the captures already made; South's view.
            let south = if after.to_move() == Side::South {
                g
            } else {
                -g
            };
            assert_eq!(
                south, *v,
                "puzzle {} {pos}: {mv} then {refutation:?}",
                p.number
            );
            if let Some(v) = values.value(&p.position) {
                assert_eq!(v, p.value);
            }
        }
    }
    // No two puzzles one seed move apart with the same key move and value.
    for (i, (_, a)) in stated.iter().enumerate() {
        for (_, b) in &stated[i + 1..] {
            if a.key != b.key
                || a.value != b.value
                || a.position.board_seeds() != b.position.board_seeds()
            {
                continue;
            }
            let moved: u32 = a
                .position
                .board()
                .iter()
                .zip(b.position.board())
                .map(|(&x, &y)| u32::from(x.abs_diff(y)))
                .sum();
            assert!(
                moved > 2,
                "puzzles {} and {} are one seed move apart",
                a.number,
                b.number
            );
        }
    }
    // Every line starts with the key move, and no two puzzles of a level
    // share a value and line; the table lists the levels asked.
    for (_, p) in &stated {
        let line = p.line.as_ref().expect("a natural puzzle has a line");
        assert_eq!(line[0], format!("S {}", p.key), "puzzle {}", p.number);
    }
    ideas_differ(&stated);
    let book = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert_eq!(levels_of_table(&book), vec![6, 7]);
    // Written again, the directory is replaced whole; a bad level is an
    // error with exit status 2 and nothing written.
    std::fs::write(out.join("stale.svg"), "x").unwrap();
    mancala(&[
        "puzzles",
        "--game",
        game,
        "--seeds",
        "7",
        "--dir",
        d,
        "--collection",
        o,
        "--per-grade",
        "1",
        "--sample",
        "600",
        "--quiet",
    ]);
    assert!(!out.join("stale.svg").exists());
    for bad in ["9", "7..6", "x"] {
        let r = common::run(&[
            "puzzles",
            "--game",
            game,
            "--seeds",
            bad,
            "--dir",
            d,
            "--collection",
            o,
        ]);
        assert_eq!(r.status.code(), Some(2), "--seeds {bad}");
        assert!(r.stdout.is_empty());
    }
    let r = common::run(&["puzzles", "--game", game, "--seeds", "6..7", "--dir", d]);
    assert_eq!(r.status.code(), Some(2));
}

/// `play --puzzle` judges the first move: right, or what it loses.
#[test]
fn play_judges_the_first_move() {
    let game = "anywoli";
    let dir = common::TempDir::new("play-puzzle");
    let d = dir.path();
    build(game, 7, d);
    let v: Variant = game.parse().unwrap();
    let db = Database::open(&dir.0, v.game().name(), v.n(), true).unwrap();
    let progress = MineProgress::default();
    let (_, positions) = collection::candidates::<mancala::games::Anywoli>(&db, 7, 5, &progress)
        .unwrap()
        .unwrap();
    let pos = positions[0];
    let m = measure::<mancala::games::Anywoli>(&db, &pos, 1000).unwrap();
    let play = |first: &str| -> String {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mancala"))
            .args([
                "play",
                "--game",
                game,
                "--position",
                &pos.to_string(),
                "--db",
                d,
                "--puzzle",
                "--quiet",
                "--threads",
                "1",
            ])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(format!("{first}\nquit\n").as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    let right = play(&m.solution.to_string());
    assert!(
        right.contains(&format!(
            "right: {} is the only move that keeps the value",
            m.solution
        )),
        "{right}"
    );
    let w = &m.wrong[0];
    let wrong = play(&w.mv.to_string());
    assert!(
        wrong.contains(&format!("that loses {}: after {}", m.value - w.value, w.mv)),
        "{wrong}"
    );
}

/// The shipped collection `data/anywoli-puzzles/`: at least 60 puzzles,
/// every grade, puzzles of every level from 8 to 12 seeds, every diagram
/// present and showing its position's counts, no two puzzles one seed
/// move apart with the same key move, no two of a level with the same
/// value and line. With `MANCALA_ANYWOLI_DB=DIR` (the full-board
/// databases to 12 seeds; fewer levels are refused, so that no puzzle's
/// level is left to the search) every key move is also checked to be the
/// only value-keeping one by `analyse --db` and every refutation replayed
/// with `apply` and `solve --db`.
#[test]
fn the_shipped_collection_reads_back() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/anywoli-puzzles");
    let stated = read_booklet(&dir);
    assert!(stated.len() >= 60, "only {} puzzles", stated.len());
    let book = std::fs::read_to_string(dir.join("README.md")).unwrap();
    for grade in ["## Easy", "## Medium", "## Hard", "## Expert"] {
        assert!(book.contains(&format!("\n{grade}\n")), "no {grade}");
    }
    let levels: Vec<usize> = (8..=12).collect();
    assert_eq!(levels_of_table(&book), levels);
    for &k in &levels {
        assert!(
            stated.iter().any(|(_, p)| p.position.board_seeds() == k),
            "no puzzle with {k} seeds"
        );
    }
    assert!(stated
        .iter()
        .all(|(_, p)| levels.contains(&p.position.board_seeds())));
    ideas_differ(&stated);
    for (i, (_, a)) in stated.iter().enumerate() {
        for (_, b) in &stated[i + 1..] {
            let moved: u32 = a
                .position
                .board()
                .iter()
                .zip(b.position.board())
                .map(|(&x, &y)| u32::from(x.abs_diff(y)))
                .sum();
            assert!(
                a.key != b.key || a.value != b.value || moved != 2,
                "puzzles {} and {} are one seed move apart",
                a.number,
                b.number
            );
        }
    }
    // The puzzle the project's README shows is this collection's: its
    // picture, number, value and position.
    let readme = std::fs::read_to_string(dir.join("../../README.md")).unwrap();
    let shown = readme
        .lines()
        .find(|l| l.starts_with("![Anywoli puzzle "))
        .expect("the README shows a puzzle");
    let (number, rest) = shown["![Anywoli puzzle ".len()..]
        .split_once(": South to play and ")
        .unwrap();
    let number: usize = number.parse().unwrap();
    let (outcome, picture) = rest.split_once("](data/anywoli-puzzles/").unwrap();
    let (svg, p) = &stated[number - 1];
    assert_eq!(picture, format!("{svg})"), "README puzzle {number}");
    assert_eq!(outcome_value(outcome), p.value, "README puzzle {number}");
    let after = &readme[readme.find(shown).unwrap() + shown.len()..];
    let position = after.split('`').nth(1).unwrap();
    assert_eq!(
        common::position(position),
        p.position,
        "README puzzle {number}"
    );
    let Ok(db) = std::env::var("MANCALA_ANYWOLI_DB") else {
        eprintln!("MANCALA_ANYWOLI_DB not set: the values were not checked");
        return;
    };
    let built = Database::open(std::path::Path::new(&db), "anywoli", 12, false)
        .expect("MANCALA_ANYWOLI_DB: the full-board Anywoli databases")
        .max_seeds();
    assert!(
        built >= 12,
        "MANCALA_ANYWOLI_DB holds levels 0 to {built}: the collection needs 0 to 12"
    );
    for (_, p) in &stated {
        let pos = p.position.to_string();
        let analysed = mancala(&[
            "analyse",
            "--game",
            "anywoli",
            "--position",
            &pos,
            "--db",
            &db,
        ]);
        let keeping: Vec<&str> = analysed
            .lines()
            .filter(|l| l.split('\t').nth(1) == Some(&p.value.to_string()))
            .map(|l| l.split('\t').next().unwrap())
            .collect();
        assert_eq!(keeping, vec![p.key.as_str()], "puzzle {}", p.number);
        for (mv, v, refutation) in &p.wrong {
            let mut args = vec![
                "apply",
                "--game",
                "anywoli",
                "--position",
                &pos,
                mv.as_str(),
            ];
            args.extend(refutation.iter().map(String::as_str));
            let after = common::position(mancala(&args).trim());
            let solved = mancala(&[
                "solve",
                "--game",
                "anywoli",
                "--position",
                &after.to_string(),
                "--db",
                &db,
            ]);
            let g: i32 = solved.lines().next().unwrap()[6..].parse().unwrap();
            let south = if after.to_move() == Side::South {
                g
            } else {
                -g
            };
            assert_eq!(south, *v, "puzzle {}: {mv} then {refutation:?}", p.number);
        }
    }
}
