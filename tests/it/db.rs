//! Endgame databases: every stored value against the exhaustive retrograde
//! analysis of `tests/it/retro` (written from the rules document alone) on
//! small boards of every game, both sides to move; Awari against Lincke's
//! published table (appendix B); the solver gives the same values with the
//! databases as without, searching fewer nodes.

use crate::common;
use crate::plain;
use crate::retro;

use common::{position, TempDir};
use mancala::db::{self, build::Progress, BuildOptions, Database};
use mancala::games::MoveList;
use mancala::index::Indexer;
use mancala::search::{Options, Solver};
use mancala::{dispatch, Game, Position, Variant};
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Builds the databases of `game` (`n` pits a row) up to `max` seeds into
/// `dir` by the library, the method chosen automatically.
fn build(game: Game, n: usize, max: usize, dir: &Path) -> Database {
    build_by(game, n, max, dir, db::Method::Auto)
}

fn build_by(game: Game, n: usize, max: usize, dir: &Path, method: db::Method) -> Database {
    let options = BuildOptions {
        dir: dir.to_path_buf(),
        memory_bytes: 1 << 30,
        method,
    };
    let stop = AtomicBool::new(false);
    dispatch!(game, R => db::build_all::<R>(n, max, &options, &Progress::default(), &|_| {}, &stop))
        .unwrap()
}

/// `text` of a board (`2n` pits, South's row first) with `side` to move
/// and nothing captured, in the notation.
fn board_text(board: &[u8], south: bool) -> String {
    let n = board.len() / 2;
    let row = |r: &[u8]| {
        r.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{} {}/{} 0-0",
        if south { 'S' } else { 'N' },
        row(&board[..n]),
        row(&board[n..])
    )
}

/// Every board of `n` pits a row with `k` seeds, by rank.
fn boards(n: usize, k: usize) -> Vec<Vec<u8>> {
    let ix = Indexer::new(2 * n, k).unwrap();
    (0..ix.count())
        .map(|r| {
            let mut b = vec![0u8; 2 * n];
            ix.unrank(r, &mut b);
            b
        })
        .collect()
}

/// The future gain of every (board, South to move) reachable from the
/// boards of `n` pits a row with at most `max` seeds, by the plain
/// retrograde analysis: each board not yet covered is solved with every
/// position reachable from it, and a value found with captured seeds `c`
/// is the future gain plus `c[me] - c[opp]`.
fn retro_gains(game: Game, n: usize, max: usize) -> HashMap<(Vec<u32>, bool), i32> {
    let name = game.to_string();
    let mut gains: HashMap<(Vec<u32>, bool), i32> = HashMap::new();
    for k in 0..=max {
        for b in boards(n, k) {
            for south in [true, false] {
                let key = (b.iter().map(|&c| u32::from(c)).collect::<Vec<_>>(), south);
                if gains.contains_key(&key) {
                    continue;
                }
                let start = plain::parse_pos(&board_text(&b, south));
                for (p, value) in retro::solve_reachable(&name, &start) {
                    let me = if p.south_to_move { 0 } else { 1 };
                    let gain = value - (p.captured[me] as i32 - p.captured[1 - me] as i32);
                    let old = gains.insert((p.pits.clone(), p.south_to_move), gain);
                    assert!(
                        old.is_none_or(|o| o == gain),
                        "{game}: the plain analysis gives two gains to {}",
                        plain::format_pos(&p)
                    );
                }
            }
        }
    }
    gains
}

/// Every board of every level, both sides to move, against the plain
/// retrograde analysis; North to move is looked up through the colour
/// symmetry, so this also proves the symmetry on these boards.
fn check_against_retrograde(game: Game, n: usize, max: usize) {
    let dir = TempDir::new(&format!("{game}-{n}"));
    let db = build(game, n, max, &dir.0);
    assert_eq!(db.max_seeds(), max);
    let expected = retro_gains(game, n, max);
    let mut failures = Vec::new();
    let mut compared = 0;
    for k in 0..=max {
        for b in boards(n, k) {
            for south in [true, false] {
                let text = board_text(&b, south);
                let got = db.gain(&position(&text)).unwrap();
                let key = (b.iter().map(|&c| u32::from(c)).collect::<Vec<_>>(), south);
                let want = expected[&key];
                if got != want && failures.len() < 20 {
                    failures.push(format!("{game} \"{text}\": db {got}, retrograde {want}"));
                }
                compared += 1;
            }
        }
        let (wrong, shown) = dispatch!(game, R => db.verify::<R>(k)).unwrap();
        assert_eq!(wrong, 0, "{game} n={n} level {k}: {shown:?}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared > 100, "{game}: only {compared} boards compared");
}

macro_rules! retro_tests {
    ($($name:ident: $game:expr, [$(($n:expr, $max:expr)),*];)*) => {$(
        #[test]
        fn $name() {
            $(check_against_retrograde($game, $n, $max);)*
        }
    )*};
}

retro_tests! {
    kalah_levels_match_retrograde: Game::Kalah, [(1, 10), (2, 8), (3, 6)];
    awari_levels_match_retrograde: Game::Awari, [(1, 10), (2, 8), (3, 6)];
    akon_levels_match_retrograde: Game::Akon, [(1, 10), (2, 8), (3, 6)];
    djenon_abe_levels_match_retrograde: Game::DjenonAbe, [(1, 10), (2, 8), (3, 6)];
    anywoli_levels_match_retrograde: Game::Anywoli, [(1, 10), (2, 8), (3, 6)];
    dakon_levels_match_retrograde: Game::Dakon, [(1, 10), (2, 8), (3, 6)];
}

/// The propagation builds (by unmoves for Awari and Kalah, over recorded
/// edges for the others) write the very files of the sweep build, byte for
/// byte, for every game on every row length 1..3 and on the full board to 8
/// seeds (Awari's to 12; Anywoli's to 7: its sweeps of level 8 alone take
/// 15 s of a core).
#[test]
fn propagation_and_sweeps_write_identical_files() {
    for game in Game::ALL {
        assert!(dispatch!(game, R => db::Method::Propagate.propagates::<R>()));
        let full = match game {
            Game::Awari => 12,
            Game::Anywoli => 7,
            _ => 8,
        };
        let size = game.default_size().0;
        for (n, max) in [(1, 14), (2, 12), (3, 10), (size, full)] {
            let a = TempDir::new(&format!("sweep-{game}-{n}"));
            let b = TempDir::new(&format!("propagate-{game}-{n}"));
            build_by(game, n, max, &a.0, db::Method::Sweep);
            build_by(game, n, max, &b.0, db::Method::Propagate);
            for k in 0..=max {
                let name = format!("{}-{n}-{k:03}.mdb", game.name());
                let x = std::fs::read(a.0.join(&name)).unwrap();
                let y = std::fs::read(b.0.join(&name)).unwrap();
                assert!(x == y, "{name}: the two methods differ");
            }
        }
    }
}

/// Lincke (2002), appendix B: for each number of stones, the number of
/// Awari configurations (South to move) with each value.
#[test]
fn awari_levels_match_lincke_up_to_12() {
    let mut table: HashMap<usize, Vec<(i32, u64)>> = HashMap::new();
    for line in include_str!("../data/lincke_awari.tsv").lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        table
            .entry(f[0].parse().unwrap())
            .or_default()
            .push((f[1].parse().unwrap(), f[2].parse().unwrap()));
    }
    let dir = TempDir::new("lincke");
    let db = build(Game::Awari, 6, 12, &dir.0);
    for k in 0..=12 {
        let mut want = table[&k].clone();
        want.retain(|&(_, c)| c > 0);
        want.sort_unstable();
        assert_eq!(db.stats(k).unwrap(), want, "awari level {k}");
    }
}

/// Positions reached by random play from the start of `v`.
fn random_positions(v: &Variant, count: usize, seed: u64) -> Vec<Position> {
    let mut next = common::lcg(seed);
    let mut out = Vec::new();
    let mut moves = MoveList::new();
    while out.len() < count {
        let mut pos = v.start();
        for _ in 0..next(12) {
            if v.generate(&pos, &mut moves).is_some() {
                break;
            }
            pos = moves[next(moves.len() as u64) as usize].1;
        }
        out.push(pos);
    }
    out
}

#[test]
fn the_solver_gives_the_same_values_with_databases_and_searches_less() {
    for (spec, max) in [
        ("kalah:4x3", 12),
        ("awari:4x2", 12),
        ("akon:4x2", 12),
        ("djenon-abe:4x2", 12),
        ("anywoli:4x2", 12),
        ("dakon:4x2", 12),
    ] {
        let v: Variant = spec.parse().unwrap();
        let dir = TempDir::new(&format!("solver-{}", v.game()));
        let db = Arc::new(build(v.game(), v.n(), max, &dir.0));
        let options = Options {
            threads: 1,
            tt_bytes: 16 << 20,
            ..Options::default()
        };
        let (mut with_nodes, mut without_nodes) = (0, 0);
        for pos in random_positions(&v, 25, 11 + v.game() as u64) {
            let mut plain = Solver::new(options);
            let mut probing = Solver::new(options).with_database(db.clone());
            let a = dispatch!(v.game(), R => plain.solve::<R>(&pos)).unwrap();
            let b = dispatch!(v.game(), R => probing.solve::<R>(&pos)).unwrap();
            assert_eq!(a.value, b.value, "{spec} \"{pos}\"");
            let a = dispatch!(v.game(), R => plain.analyse::<R>(&pos)).unwrap();
            let b = dispatch!(v.game(), R => probing.analyse::<R>(&pos)).unwrap();
            assert_eq!(a, b, "{spec} \"{pos}\": analyse");
            without_nodes += plain.nodes();
            with_nodes += probing.nodes();
        }
        eprintln!("{spec}: {with_nodes} nodes with databases, {without_nodes} without");
        assert!(
            with_nodes < without_nodes,
            "{spec}: {with_nodes} nodes with databases, {without_nodes} without"
        );
    }
}

#[test]
fn a_database_of_another_game_or_row_length_is_refused_by_the_solver() {
    let dir = TempDir::new("wrong");
    let db = Arc::new(build(Game::Kalah, 3, 4, &dir.0));
    let mut solver = Solver::new(Options {
        threads: 1,
        tt_bytes: 1 << 20,
        ..Options::default()
    })
    .with_database(db);
    let awari: Variant = "awari:3x2".parse().unwrap();
    assert!(solver
        .solve::<mancala::games::Awari>(&awari.start())
        .is_err());
    let kalah: Variant = "kalah:4x2".parse().unwrap();
    assert!(solver
        .solve::<mancala::games::Kalah>(&kalah.start())
        .is_err());
}
