//! Perft: the number of move sequences of a given length from a position.
//!
//! `perft(p, 0) = 1`; `perft(p, d)` sums `perft(child, d - 1)` over the legal
//! moves of `p` (a `pass` is a move, an extra move is a ply of its own); a
//! terminal position has no children. The counts are the standard check of
//! a move generator against an independent implementation.

use crate::games::{MoveList, Rules};
use crate::position::Position;

/// Number of move sequences of exactly `depth` plies from `pos` under the
/// rules `R`.
pub fn perft<R: Rules>(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        // Bulk counting: the last ply's moves are counted, not made (where
        // the game allows; see `Rules::count_moves`).
        return R::count_moves(pos).unwrap_or(0) as u64;
    }
    let mut moves = MoveList::new();
    if R::generate(pos, &mut moves).is_some() {
        return 0;
    }
    moves
        .iter()
        .map(|(_, child)| perft::<R>(child, depth - 1))
        .sum()
}

/// The same count as [`perft`], but every leaf position is made (its move
/// sown): the rate of this one is the rate of making moves.
pub fn perft_full<R: Rules>(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    if R::generate(pos, &mut moves).is_some() {
        return 0;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|(_, child)| perft_full::<R>(child, depth - 1))
        .sum()
}

/// Perft split by first move: each legal move of `pos` with the count of
/// sequences of `depth` plies that begin with it.
pub fn divide<R: Rules>(pos: &Position, depth: u32) -> Vec<(crate::Move, u64)> {
    let mut moves = MoveList::new();
    if depth == 0 || R::generate(pos, &mut moves).is_some() {
        return Vec::new();
    }
    moves
        .iter()
        .map(|(m, child)| (*m, perft::<R>(child, depth - 1)))
        .collect()
}
