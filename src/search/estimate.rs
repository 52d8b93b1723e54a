//! A first guess for MTD(f): a shallow, iteratively deepened alpha-beta
//! search whose leaves are scored as if nothing more were captured.
//!
//! MTD(f) converges in two null-window tests when its first guess is the
//! true value, and in one test per step otherwise; each test is a search
//! to the end of the game. Irving, Donkers and Uiterwijk (2000, section 3)
//! found that the close first guess, not move ordering, is what iterative
//! deepening bought them. The guess only steers which null windows are
//! tried: any guess gives the exact value, so this search may be as
//! heuristic as it likes. It counts its nodes with the solve's.
//!
//! **What it leaves in the table.** Its values are not bounds of the true
//! value, so it stores none; but each iteration's best move orders the
//! next one, and the last orders the exact search, through the table's
//! best-move field. An entry it writes holds the trivial bounds
//! `-board..=board` (true of every position) and work 0, so the exact
//! search reads it as "nothing known, try this move first"; it never
//! replaces the move of an entry whose bounds say more (the exact search
//! put that move there).

use super::negamax::{move_code, Shared};
use super::tt::{Stored, Table, NO_MOVE};
use crate::games::{final_gain, move_gain, MoveList, Rules, MAX_MOVES};
use crate::packed::PackedBoard;
use crate::position::Position;
use std::sync::atomic::Ordering;

/// Plies added by each iteration.
const STEP: u32 = 2;
/// The deepest iteration.
const MAX_DEPTH: u32 = 40;
/// No deeper iteration starts once the guess has cost this many nodes.
const NODE_BUDGET: u64 = 20_000;
/// The shallowest remaining depth whose best move is left in the table.
const HINT_MIN_DEPTH: u32 = 2;

/// A guess at the future gain of `pos` (not terminal, not in the
/// databases).
pub(crate) fn first_guess<R: Rules>(table: &Table, shared: &Shared, pos: &Position) -> i32 {
    let mut nodes = [0; 2];
    let mut guess = 0;
    let mut depth = STEP;
    while depth <= MAX_DEPTH && nodes[0] < NODE_BUDGET {
        let b = pos.board_seeds() as i32;
        guess = shallow::<R>(table, shared, pos, depth, -b - 1, b + 1, &mut nodes);
        depth += STEP;
    }
    shared.nodes.fetch_add(nodes[0], Ordering::Relaxed);
    shared.interior.fetch_add(nodes[1], Ordering::Relaxed);
    guess
}

/// Alpha-beta to `depth` plies; a leaf is worth 0 (nothing more captured).
fn shallow<R: Rules>(
    table: &Table,
    shared: &Shared,
    pos: &Position,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut [u64; 2],
) -> i32 {
    nodes[0] += 1;
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
    nodes[1] += 1;
    let key = PackedBoard::new(pos);
    let stored = key.and_then(|k| table.probe(k));
    let hint = stored.map_or(NO_MOVE, |s| s.best);
    // The table's move, then extra moves, then captures, then the pit
    // nearest the end of the row (as the exact search orders).
    let mut order = [(0i32, 0u8); MAX_MOVES];
    for (i, (m, child)) in moves.iter().enumerate() {
        let extra = i32::from(child.to_move() == pos.to_move());
        let first = i32::from(move_code(*m) == hint);
        order[i] = (
            first * 10_000 + extra * 1000 + move_gain(pos, child),
            i as u8,
        );
    }
    let order = &mut order[..moves.len()];
    order.sort_unstable_by_key(|o| std::cmp::Reverse(*o));
    let mut best = i32::MIN;
    let mut best_move = NO_MOVE;
    for &(_, i) in order.iter() {
        let (m, child) = &moves[usize::from(i)];
        let c = move_gain(pos, child);
        let v = if child.to_move() == pos.to_move() {
            c + shallow::<R>(table, shared, child, depth - 1, alpha - c, beta - c, nodes)
        } else {
            c - shallow::<R>(table, shared, child, depth - 1, c - beta, c - alpha, nodes)
        };
        if v > best {
            best = v;
            best_move = move_code(*m);
        }
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    // The move hint (module docs): only where the table knows nothing
    // better, and not from the last plies (a move chosen by a search a
    // ply or two deep is no better than the static order).
    let b = pos.board_seeds() as i16;
    if depth >= HINT_MIN_DEPTH && best_move != hint {
        if let Some(k) = key {
            if !matches!(stored, Some(s) if s.lower > -b || s.upper < b) {
                table.store(
                    k,
                    Stored {
                        lower: -b,
                        upper: b,
                        best: best_move,
                        work: 0,
                    },
                );
            }
        }
    }
    best
}
