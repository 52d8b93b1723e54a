//! The arithmetic of gains: what a move or the end of the game is worth to
//! the side to move, in seeds.
//!
//! Play from a position depends only on its board and the side to move,
//! never on the seeds captured before, so solvers and databases work with
//! the *future gain* `g` of the side to move: what it will still capture
//! minus what the opponent will still capture (`docs/rules.md`, "Game
//! value"). These functions turn positions into such gains; they are rules
//! arithmetic, used alike by the search, the database builds and the
//! puzzles.

use crate::games::Score;
use crate::position::Position;

/// Future gain of the side to move in a terminal position.
#[inline]
pub fn final_gain(pos: &Position, score: Score) -> i32 {
    let me = pos.to_move();
    let opp = me.other();
    (i32::from(score[me]) - i32::from(pos.captured(me)))
        - (i32::from(score[opp]) - i32::from(pos.captured(opp)))
}

/// Net seeds the mover of `pos` captured by the move to `child`.
#[inline]
pub fn move_gain(pos: &Position, child: &Position) -> i32 {
    let me = pos.to_move();
    child.lead(me) - pos.lead(me)
}

/// The value of `pos`'s mover of a move to `child` whose future gain (for
/// `child`'s side to move) is `g`.
#[inline]
pub fn through(pos: &Position, child: &Position, g: i32) -> i32 {
    let c = move_gain(pos, child);
    if child.to_move() == pos.to_move() {
        c + g
    } else {
        c - g
    }
}
