//! A seventh game defined here, outside the library, to show that a game is
//! one file: its `Rules` (identity and sowing) is all that perft, the
//! solver and the database build need.
//!
//! **Toy**: `n` pits a row, no stores. A move sows one lap round the ring
//! (South's pits 1..n, then North's, counter-clockwise), the origin pit
//! included when the lap comes round. If the last seed makes a pit of the
//! opponent's row hold exactly 2 seeds, the mover captures those 2. The
//! turn always passes. A player to move with an empty row cannot move: the
//! game is over and the seeds on the board go to the other player.

use mancala::db::{build::Progress, BuildOptions, Database, Tablebase};
use mancala::perft::perft;
use mancala::search::{Options, Solver};
use mancala::{games::Score, ByPlayer, MoveList, Position, Rules, Side};
use std::sync::atomic::AtomicBool;

#[derive(Clone, Copy, Debug, Default)]
struct Toy;

impl Rules for Toy {
    const NAME: &'static str = "toy";
    const DEFAULT_SIZE: (usize, usize) = (3, 2);
    const REFUSAL: &'static str = "Toy refuses no move with seeds";

    fn sow(p: &mut Position, pit: usize) -> bool {
        let n = p.n();
        let me = p.to_move();
        let board = p.board_mut();
        let mut at = me.base(n) + pit;
        let mut hand = board[at];
        board[at] = 0;
        while hand > 0 {
            at = (at + 1) % (2 * n);
            board[at] += 1;
            hand -= 1;
        }
        let theirs = me.other().base(n)..me.other().base(n) + n;
        if theirs.contains(&at) && board[at] == 2 {
            board[at] = 0;
            p.capture(me, 2);
        }
        *p = p.with_to_move(me.other());
        true
    }

    fn generate(pos: &Position, moves: &mut MoveList) -> Option<Score> {
        moves.clear();
        let me = pos.to_move();
        for k in 0..pos.n() {
            if pos.pit(me, k + 1) > 0 {
                let child = Self::sown(pos, k).expect("a lap always ends");
                moves.push((mancala::Move::Pit(k as u8 + 1), child));
            }
        }
        if !moves.is_empty() {
            return None;
        }
        let mut score = ByPlayer::new(pos.captured(Side::South), pos.captured(Side::North));
        score[me.other()] += pos.board_seeds() as u8;
        Some(score)
    }
}

fn start() -> Position {
    let (n, s) = Toy::DEFAULT_SIZE;
    Position::start(n, s)
}

#[test]
fn perft_counts_the_toy_moves() {
    // From 2,2,2/2,2,2 South has 3 moves; each leaves North 3 non-empty
    // pits (South's lap from pit 3 ends in North's pit 2, making it 3).
    assert_eq!(perft::<Toy>(&start(), 1), 3);
    assert_eq!(perft::<Toy>(&start(), 2), 9);
    // Deeper counts agree with a plain recursion over `generate`.
    fn plain(pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = MoveList::new();
        if Toy::generate(pos, &mut moves).is_some() {
            return 0;
        }
        moves.iter().map(|(_, c)| plain(c, depth - 1)).sum()
    }
    for d in 3..=7 {
        assert_eq!(perft::<Toy>(&start(), d), plain(&start(), d), "depth {d}");
    }
}

#[test]
fn the_solver_and_a_built_database_agree_on_the_toy() {
    let dir = std::env::temp_dir().join(format!("mancala-toy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (n, s) = Toy::DEFAULT_SIZE;
    let seeds = 2 * n * s;
    let options = BuildOptions {
        dir: dir.clone(),
        memory_bytes: 64 << 20,
        method: Default::default(),
    };
    let db = mancala::db::build_all::<Toy>(
        n,
        seeds,
        &options,
        &Progress::default(),
        &|_| {},
        &AtomicBool::new(false),
    )
    .unwrap();
    assert_eq!(Tablebase::game(&db), "toy");
    assert!(dir.join("toy-3-012.mdb").exists());
    // Reopened by name, every level verifies against its definition.
    let db2 = Database::open(&dir, "toy", n, true).unwrap();
    for k in 0..=seeds {
        assert_eq!(db2.verify::<Toy>(k).unwrap().0, 0, "level {k}");
    }
    // The search (which resolves the toy's cycles itself) gives every
    // position reachable from the start the database's value.
    let mut solver = Solver::new(Options {
        threads: 2,
        tt_bytes: 1 << 20,
        ..Options::default()
    });
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![start()];
    while let Some(p) = todo.pop() {
        if !seen.insert(p) {
            continue;
        }
        let s = solver.solve::<Toy>(&p).unwrap();
        assert_eq!(Some(s.gain), db.gain(&p), "{p}");
        let mut moves = MoveList::new();
        if Toy::generate(&p, &mut moves).is_none() {
            todo.extend(moves.iter().map(|(_, c)| *c));
        }
    }
    assert!(seen.len() > 50, "{} positions", seen.len());
    let _ = std::fs::remove_dir_all(&dir);
}
