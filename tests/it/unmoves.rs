//! The unmove generators ([`Rules::quiet_parents`]) against the forward
//! generator: on every board of many levels, both sides to move, `p` is a
//! quiet parent of `c` by move `m` exactly when `Rules::generate` of `p`
//! lists `m` leading to `c` with the board seeds unchanged (the same
//! multiset of edges), and every such move passes the turn. Also, for
//! every game, that a move taking seeds off the board takes at least
//! [`Rules::LEAST_TAKEN`] (what the database builds' memory counts on).

use mancala::games::{MoveList, Rules};
use mancala::index::Indexer;
use mancala::position::Setup;
use mancala::side::Side;
use mancala::{dispatch, Game, Position};

fn position(board: &[u8], to_move: Side) -> Position {
    let n = board.len() / 2;
    let row = |r: &[u8]| r.iter().map(|&c| u32::from(c)).collect();
    Position::from_setup(&Setup {
        to_move,
        south: row(&board[..n]),
        north: row(&board[n..]),
        captured: Default::default(),
    })
    .unwrap()
}

/// Calls `f` with every board of `n` pits a row and `k` seeds, South then
/// North to move.
fn for_each_position(n: usize, k: usize, mut f: impl FnMut(Position)) {
    let ix = Indexer::new(2 * n, k).unwrap();
    let mut board = vec![0u8; 2 * n];
    for r in 0..ix.count() {
        ix.unrank(r, &mut board);
        for side in [Side::South, Side::North] {
            f(position(&board, side));
        }
    }
}

/// Checks every board of `n` pits a row with `k` seeds; returns the number
/// of quiet edges found.
fn check<R: Rules>(n: usize, k: usize) -> usize {
    let mut forward = Vec::new();
    let mut backward = Vec::new();
    let mut moves = MoveList::new();
    for_each_position(n, k, |pos| {
        if R::generate(&pos, &mut moves).is_none() {
            for (m, child) in &moves {
                if child.board_seeds() == k {
                    assert_ne!(
                        child.to_move(),
                        pos.to_move(),
                        "{pos} {m}: a quiet move keeps the turn"
                    );
                    forward.push((pos, *m, *child));
                }
            }
        }
        R::quiet_parents(&pos, |m, p| {
            assert_eq!(p.board_seeds(), k);
            backward.push((*p, m, pos));
        });
    });
    let key = |(p, m, c): &(Position, _, Position)| {
        (
            p.board().to_vec(),
            p.to_move() == Side::North,
            *m,
            c.board().to_vec(),
        )
    };
    forward.sort_by_key(key);
    backward.sort_by_key(key);
    if forward != backward {
        let f: std::collections::BTreeSet<_> = forward
            .iter()
            .map(|e| format!("{} {} -> {}", e.0, e.1, e.2))
            .collect();
        let b: std::collections::BTreeSet<_> = backward
            .iter()
            .map(|e| format!("{} {} -> {}", e.0, e.1, e.2))
            .collect();
        let missing: Vec<_> = f.difference(&b).take(5).collect();
        let invented: Vec<_> = b.difference(&f).take(5).collect();
        panic!(
            "{} n={n} k={k}: {} forward, {} backward edges; not unmoved {missing:?}; invented {invented:?}",
            R::NAME,
            forward.len(),
            backward.len()
        );
    }
    forward.len()
}

#[test]
fn unmoves_are_the_forward_moves_reversed() {
    let mut games = 0;
    for game in Game::ALL {
        if !dispatch!(game, R => R::HAS_UNMOVES) {
            continue;
        }
        games += 1;
        let mut edges = 0;
        // Every row length to 4 with many seeds (whole laps included), and
        // the full board of 6 pits to 8 seeds.
        for (n, top) in [(1, 12), (2, 14), (3, 12), (4, 9), (6, 8)] {
            for k in 0..=top {
                edges += dispatch!(game, R => check::<R>(n, k));
            }
        }
        assert!(edges > 100_000, "{game}: only {edges} quiet edges checked");
    }
    assert!(games >= 2, "Awari and Kalah have unmove generators");
}

#[test]
fn seeds_leave_the_board_by_the_taken_by() {
    for game in Game::ALL {
        let claimed = dispatch!(game, R => R::TAKEN_BY);
        let mut all = 0;
        for (n, top) in [(1, 12), (2, 12), (3, 10), (4, 8), (6, 7)] {
            for k in 0..=top {
                all = gcd(all, dispatch!(game, R => taken_by::<R>(n, k)));
            }
        }
        // The claim holds (every amount taken, short of the whole board,
        // is a multiple of it) and is the largest that does.
        assert_eq!(all, claimed, "{game}: seeds leave the board by {all}");
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The greatest common divisor of the seeds the moves of `n` pits a row
/// with `k` seeds take off the board, over every board, both sides to
/// move, leaving out the moves that empty the board (0: none).
fn taken_by<R: Rules>(n: usize, k: usize) -> usize {
    let mut moves = MoveList::new();
    let mut all = 0;
    for_each_position(n, k, |pos| {
        if R::generate(&pos, &mut moves).is_none() {
            for (_, child) in &moves {
                if child.board_seeds() > 0 {
                    all = gcd(all, k - child.board_seeds());
                }
            }
        }
    });
    all
}

/// The fewest seeds a move of `n` pits a row with `k` seeds takes off the
/// board, over every board, both sides to move (`None`: no move takes any).
fn least_taken<R: Rules>(n: usize, k: usize) -> Option<usize> {
    let mut moves = MoveList::new();
    let mut least = None;
    for_each_position(n, k, |pos| {
        if R::generate(&pos, &mut moves).is_none() {
            for (_, child) in &moves {
                let taken = k - child.board_seeds();
                if taken > 0 && least.is_none_or(|l| taken < l) {
                    least = Some(taken);
                }
            }
        }
    });
    least
}

#[test]
fn moves_take_at_least_the_least_taken() {
    for game in Game::ALL {
        let claimed = dispatch!(game, R => R::LEAST_TAKEN);
        let mut least = usize::MAX;
        for (n, top) in [(1, 10), (2, 10), (3, 9), (4, 7), (6, 6)] {
            for k in 0..=top {
                if let Some(l) = dispatch!(game, R => least_taken::<R>(n, k)) {
                    least = least.min(l);
                }
            }
        }
        // The claim is a bound, and the tightest one: a game that claims
        // more than one seed is seen taking exactly that many.
        assert!(
            least >= claimed,
            "{game}: a move takes {least} seeds, fewer than {claimed}"
        );
        assert_eq!(
            least, claimed,
            "{game}: every move takes {least} seeds or more"
        );
    }
}
