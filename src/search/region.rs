//! Exact resolution of a *region*: every position reachable from a given one
//! without a capture, for the games whose positions can repeat. (A region
//! lies within one database *level*, the boards with a given number of
//! seeds, and is usually a small part of it.)
//!
//! Within a region no move captures or stores a seed (that would lower the
//! seeds on the board), so a cycle of play lies inside one region, and
//! endless play there is worth 0 more to both sides. The positions of the
//! region are found by a breadth-first walk over the moves that keep the
//! board count; every other move *exits* the region and is worth its capture
//! plus the exact value of the position it reaches (a smaller board: solved
//! by the ordinary search, recursively), and terminal positions are worth
//! their final allocation.
//!
//! Values inside the region are then found by retrograde analysis with
//! thresholds. Work with South's future gain. For a threshold `t > 0`, the
//! set `W_t` of positions from which South can force a gain of at least `t`
//! is the least fixed point of: South to move and some exit is worth `>= t`
//! or some move stays in the region at a position of `W_t`; North to move and
//! every exit is worth `>= t` and every move staying in the region reaches
//! `W_t`. Endless play (worth 0 < t) never counts. `L_t` (North forces at
//! most `-t`) is symmetric. A position's value is the largest `t` with the
//! position in `W_t`, else minus the largest `t` with it in `L_t`, else 0.
//! Only thresholds that some exit value equals need to be tried.
//!
//! All the values found are stored as exact in the transposition table.

use super::negamax::{Searcher, Shared};
use super::tt::{Stored, Table};
use crate::games::{final_gain, move_gain};
use crate::games::{MoveList, Rules};
use crate::packed::PackedBoard;
use crate::position::{Position, MAX_PITS};
use crate::side::Side;
use std::collections::HashMap;
use std::sync::atomic::Ordering;

/// The exact future gain of `pos` by MTD(f) over null-window searches, on
/// the calling thread.
pub(crate) fn exact_gain<R: Rules>(table: &Table, shared: &Shared, pos: &Position) -> i32 {
    let mut searcher = Searcher::<R>::new(table, shared);
    let g = super::mtdf::<R>(
        table,
        shared,
        pos,
        false,
        |beta| searcher.search(pos, beta - 1, beta),
        |_, _| {},
    );
    searcher.flush();
    g
}

/// Positions a region may hold before the solve gives up, by default
/// (about 3 GB of bookkeeping); see [`super::Options::region_limit`].
pub const REGION_LIMIT: usize = 20_000_000;

/// A position of the region: board and side to move.
type Key = ([u8; MAX_PITS], Side);

/// Solves the region of `pos` exactly, stores every value found, and returns
/// the future gain of `pos`.
pub(crate) fn resolve<R: Rules>(table: &Table, shared: &Shared, pos: &Position) -> i32 {
    let board = pos.board_seeds();
    let mut index: HashMap<Key, usize> = HashMap::new();
    let mut nodes: Vec<Position> = vec![*pos];
    index.insert((pos.pits, pos.to_move), 0);
    // For each node: South's value of each exit, the in-region children, and
    // (for terminal nodes) the fixed value.
    let mut exits: Vec<Vec<i32>> = Vec::new();
    let mut inner: Vec<Vec<usize>> = Vec::new();
    let mut moves = MoveList::new();
    let mut i = 0;
    while i < nodes.len() {
        if nodes.len() > shared.region_limit || shared.stop.load(Ordering::Relaxed) {
            // Too large to resolve (or stopped): fail the solve, store
            // nothing.
            if nodes.len() > shared.region_limit {
                shared.overflow.store(true, Ordering::Relaxed);
            }
            shared.stop.store(true, Ordering::Relaxed);
            return 0;
        }
        let p = nodes[i];
        let south = |g: i32, side: Side| if side == Side::South { g } else { -g };
        let mut ex = Vec::new();
        let mut inn = Vec::new();
        if let Some(score) = R::generate(&p, &mut moves) {
            ex.push(south(final_gain(&p, score), p.to_move()));
        } else {
            for (_, child) in moves.clone().iter() {
                if child.board_seeds() == board {
                    let next = nodes.len();
                    let j = *index.entry((child.pits, child.to_move)).or_insert(next);
                    if j == next {
                        // Same board, so the same captured seeds as `pos`
                        // up to the side to move: keep the child as found.
                        nodes.push(*child);
                    }
                    inn.push(j);
                } else {
                    let c = move_gain(&p, child);
                    let g = exact_gain::<R>(table, shared, child);
                    let v = if child.to_move() == p.to_move() {
                        c + g
                    } else {
                        c - g
                    };
                    ex.push(south(v, p.to_move()));
                }
            }
        }
        exits.push(ex);
        inner.push(inn);
        i += 1;
    }
    let n = nodes.len();
    // Every position of the region was expanded once: count them as nodes.
    shared.nodes.fetch_add(n as u64, Ordering::Relaxed);
    let terminal: Vec<bool> = (0..n)
        .map(|i| inner[i].is_empty() && R::generate(&nodes[i], &mut moves).is_some())
        .collect();
    // Parents of each node inside the region, for the attractors.
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, inn) in inner.iter().enumerate() {
        for &j in inn {
            parents[j].push(i);
        }
    }
    let mut thresholds: Vec<i32> = exits.iter().flatten().copied().collect();
    thresholds.sort_unstable();
    thresholds.dedup();
    let mut value = vec![0i32; n];
    // South's attractors for t > 0 from the smallest t up, and North's for
    // t < 0 from the largest down: W_t (L_t) shrinks as |t| grows, so the
    // last t whose set holds a position is its value.
    let south = thresholds
        .iter()
        .filter(|&&t| t > 0)
        .map(|&t| (Side::South, t));
    let north = thresholds
        .iter()
        .rev()
        .filter(|&&t| t < 0)
        .map(|&t| (Side::North, t));
    for (player, t) in south.chain(north) {
        let good = |v: i32| {
            if player == Side::South {
                v >= t
            } else {
                v <= t
            }
        };
        let inside = attractor(&nodes, &exits, &inner, &parents, &terminal, player, good);
        for (i, &w) in inside.iter().enumerate() {
            if w {
                value[i] = t;
            }
        }
    }
    if shared.stop.load(Ordering::Relaxed) {
        // An exit's search was stopped: its value is meaningless.
        return 0;
    }
    for (i, p) in nodes.iter().enumerate() {
        let g = if p.to_move() == Side::South {
            value[i]
        } else {
            -value[i]
        };
        if let Some(k) = PackedBoard::new(p) {
            table.store(
                k,
                Stored {
                    lower: g as i16,
                    upper: g as i16,
                    best: super::tt::NO_MOVE,
                    work: 63,
                },
            );
        }
    }
    if pos.to_move() == Side::South {
        value[0]
    } else {
        -value[0]
    }
}

/// The positions from which `player` can force an exit (or terminal value)
/// that satisfies `good`, by the usual counter-based backward induction.
fn attractor(
    nodes: &[Position],
    exits: &[Vec<i32>],
    inner: &[Vec<usize>],
    parents: &[Vec<usize>],
    terminal: &[bool],
    player: Side,
    good: impl Fn(i32) -> bool,
) -> Vec<bool> {
    let n = nodes.len();
    let mut won = vec![false; n];
    // For the opponent's nodes: in-region moves not yet known to be won.
    let mut pending: Vec<usize> = inner.iter().map(Vec::len).collect();
    let mut queue = Vec::new();
    for i in 0..n {
        let win = if terminal[i] {
            good(exits[i][0])
        } else if nodes[i].to_move() == player {
            exits[i].iter().any(|&v| good(v))
        } else {
            // Every exit good and no move staying in the region.
            exits[i].iter().all(|&v| good(v)) && pending[i] == 0
        };
        if win {
            won[i] = true;
            queue.push(i);
        }
    }
    while let Some(j) = queue.pop() {
        for &i in &parents[j] {
            if won[i] {
                continue;
            }
            let win = if nodes[i].to_move() == player {
                true
            } else {
                pending[i] -= 1;
                pending[i] == 0 && exits[i].iter().all(|&v| good(v))
            };
            if win {
                won[i] = true;
                queue.push(i);
            }
        }
    }
    won
}
