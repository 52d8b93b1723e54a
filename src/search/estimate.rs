//! A first guess for MTD(f): a shallow, iteratively deepened alpha-beta
//! search whose leaves are scored as if nothing more were captured.
//!
//! MTD(f) converges in two null-window tests when its first guess is the
//! true value, and in one test per step otherwise; each test is a search
//! to the end of the game. Irving, Donkers and Uiterwijk (2000, section 3)
//! found that the close first guess, not move ordering, is what iterative
//! deepening bought them. The guess only steers which null windows are
//! tried: any guess gives the exact value, so this search may be as
//! heuristic as it likes. It stores nothing in the table (its values are
//! not bounds of the true value) and counts its nodes with the solve's.

use super::negamax::Shared;
use crate::games::{final_gain, move_gain, MoveList, Rules, MAX_MOVES};
use crate::position::Position;
use std::sync::atomic::Ordering;

/// Plies added by each iteration.
const STEP: u32 = 2;
/// The deepest iteration.
const MAX_DEPTH: u32 = 40;
/// No deeper iteration starts once the guess has cost this many nodes.
const NODE_BUDGET: u64 = 20_000;

/// A guess at the future gain of `pos` (not terminal, not in the
/// databases).
pub(crate) fn first_guess<R: Rules>(shared: &Shared, pos: &Position) -> i32 {
    let mut nodes = 0;
    let mut guess = 0;
    let mut depth = STEP;
    while depth <= MAX_DEPTH && nodes < NODE_BUDGET {
        let b = pos.board_seeds() as i32;
        guess = shallow::<R>(shared, pos, depth, -b - 1, b + 1, &mut nodes);
        depth += STEP;
    }
    shared.nodes.fetch_add(nodes, Ordering::Relaxed);
    guess
}

/// Alpha-beta to `depth` plies; a leaf is worth 0 (nothing more captured).
fn shallow<R: Rules>(
    shared: &Shared,
    pos: &Position,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if let Some(g) = shared.db_gain(pos) {
        return g;
    }
    let mut moves = MoveList::new();
    if let Some(score) = R::generate(pos, &mut moves) {
        return final_gain(pos, score);
    }
    if depth == 0 {
        return 0;
    }
    // Extra moves first, then captures, then the pit nearest the end of
    // the row (as the exact search orders).
    let mut order = [(0i32, 0u8); MAX_MOVES];
    for (i, (_, child)) in moves.iter().enumerate() {
        let extra = i32::from(child.to_move() == pos.to_move());
        order[i] = (extra * 1000 + move_gain(pos, child), i as u8);
    }
    let order = &mut order[..moves.len()];
    order.sort_unstable_by_key(|o| std::cmp::Reverse(*o));
    let mut best = i32::MIN;
    for &(_, i) in order.iter() {
        let child = &moves[usize::from(i)].1;
        let c = move_gain(pos, child);
        let v = if child.to_move() == pos.to_move() {
            c + shallow::<R>(shared, child, depth - 1, alpha - c, beta - c, nodes)
        } else {
            c - shallow::<R>(shared, child, depth - 1, c - beta, c - alpha, nodes)
        };
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}
