//! Positions that can repeat, a few seeds above the databases: the solver,
//! probing only the lower levels, must give every sampled position of a
//! higher level the value that level's database holds (built in the test by
//! retrograde analysis, an independent computation: no search). Every game
//! whose positions can repeat, on its full board.

use crate::common;

use mancala::db::probe::Tablebase;
use mancala::db::{self, build::Progress, BuildOptions, Database};
use mancala::index::Indexer;
use mancala::position::Setup;
use mancala::search::{Options, Solver};
use mancala::{dispatch, Game, Position};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The levels of a database up to `max` seeds only.
#[derive(Debug)]
struct Capped {
    db: Arc<Database>,
    max: usize,
}

impl Tablebase for Capped {
    fn game(&self) -> &'static str {
        self.db.game()
    }
    fn n(&self) -> usize {
        self.db.n()
    }
    fn max_seeds(&self) -> usize {
        self.max
    }
    fn entry(&self, pos: &Position) -> Option<&u8> {
        if pos.board_seeds() > self.max {
            return None;
        }
        self.db.entry(pos)
    }
}

/// Builds `game`'s databases to `top` seeds; then, for `samples` random
/// boards of each level above `low` (either side to move), solves them
/// with the databases capped at `low` and compares with level's value.
fn check(game: &str, low: usize, top: usize, samples: usize) {
    let game = Game::from_name(game).unwrap();
    let (n, _) = game.default_size();
    let dir = common::TempDir::new(&format!("above-{}", game.name()));
    let options = BuildOptions {
        dir: dir.0.clone(),
        memory_bytes: 1 << 30,
        method: db::Method::Auto,
    };
    let stop = AtomicBool::new(false);
    let full = dispatch!(game, R => db::build_all::<R>(n, top, &options, &Progress::default(), &|_| {}, &stop))
        .unwrap();
    let full = Arc::new(full);
    let capped: Arc<dyn Tablebase> = Arc::new(Capped {
        db: Arc::clone(&full),
        max: low,
    });
    let mut solver = Solver::new(Options {
        threads: 2,
        tt_bytes: 64 << 20,
        ..Options::default()
    })
    .with_database(capped);
    let mut next = common::lcg(20 + low as u64);
    let mut failures = Vec::new();
    let mut solved = 0;
    for k in low + 1..=top {
        let ix = Indexer::new(2 * n, k).unwrap();
        for _ in 0..samples {
            let mut board = vec![0u8; 2 * n];
            ix.unrank(next(ix.count()), &mut board);
            let row = |r: &[u8]| r.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
            let side = if next(2) == 0 { 'S' } else { 'N' };
            let text = format!("{side} {}/{} 0-0", row(&board[..n]), row(&board[n..]));
            let pos = Position::from_setup(&text.parse::<Setup>().unwrap()).unwrap();
            let expected = full.gain(&pos).expect("the level is built");
            let got = dispatch!(game, R => solver.solve::<R>(&pos)).unwrap();
            solved += 1;
            if got.gain != expected {
                failures.push(format!(
                    "{} \"{text}\": solver {} with levels to {low}, database {expected}",
                    game.name(),
                    got.gain
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(solved, samples * (top - low));
}

#[test]
fn awari_above_its_databases() {
    check("awari", 6, 12, 8);
}

#[test]
fn akon_above_its_databases() {
    check("akon", 5, 10, 10);
}

#[test]
fn anywoli_above_its_databases() {
    check("anywoli", 3, 8, 8);
}

#[test]
fn djenon_abe_above_its_databases() {
    check("djenon-abe", 6, 12, 10);
}

#[test]
fn dakon_above_its_databases() {
    check("dakon", 5, 10, 10);
}
