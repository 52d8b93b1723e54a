//! Puzzles mined from the endgame databases: positions with few seeds
//! where exactly one move keeps the position's value, the kind of position
//! composed endgame problems are made of.
//!
//! For every board of a level (South to move, nothing captured) the
//! databases give the position's value and the value of every move (the
//! children have no more seeds, so they are in the databases too). A
//! position is a puzzle when it has at least two moves and exactly one of
//! them keeps the value ([`Kind::Unique`]); it is a **sacrifice** when that
//! move captures nothing and the opponent's best reply captures seeds
//! ([`Kind::Sacrifice`]): the winning move gives something away first.
//! Puzzles are ranked sacrifices first, then by value (wins before draws),
//! then by the number of moves that lose value (more ways to go wrong).

use crate::db::{Database, DbError};
use crate::games::{Move, MoveList, Rules};
use crate::position::{Position, MAX_PITS};
use crate::search::negamax::move_gain;

/// Why a position was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// The only move that keeps the value captures nothing, and the
    /// opponent's best reply captures.
    Sacrifice,
    /// Exactly one move keeps the value.
    Unique,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Sacrifice => "sacrifice",
            Kind::Unique => "unique",
        })
    }
}

/// A mined position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position: South to move, nothing captured.
    pub position: Position,
    /// The only move that keeps the value.
    pub solution: Move,
    /// The position's game value (South's view).
    pub value: i32,
    /// Moves that lose value.
    pub wrong: usize,
    /// Why it was chosen.
    pub kind: Kind,
}

/// The value for the mover of `pos` of each of its `moves`, from the
/// databases.
fn move_values(db: &Database, pos: &Position, moves: &MoveList) -> Vec<i32> {
    moves
        .iter()
        .map(|(_, child)| {
            let g = db.gain(child).expect("children have no more seeds");
            let c = move_gain(pos, child);
            if child.to_move() == pos.to_move() {
                c + g
            } else {
                c - g
            }
        })
        .collect()
}

/// Every puzzle among the boards with `k` seeds, best first.
pub fn mine<R: Rules>(db: &Database, k: usize) -> Result<Vec<Puzzle>, DbError> {
    use rayon::prelude::*;
    let level = db.require(k)?;
    let n = db.n();
    let count = level.index.count();
    let mut found: Vec<Puzzle> = (0..count)
        .into_par_iter()
        .filter_map(|r| {
            let mut board = [0u8; MAX_PITS];
            level.index.unrank(r, &mut board[..2 * n]);
            let pos = Position::from_board(n, &board[..2 * n]);
            let mut moves = MoveList::new();
            if R::generate(&pos, &mut moves).is_some() {
                return None;
            }
            if moves.len() < 2 {
                return None;
            }
            let values = move_values(db, &pos, &moves);
            let best = *values.iter().max()?;
            let keeping: Vec<usize> = (0..values.len()).filter(|&i| values[i] == best).collect();
            if keeping.len() != 1 {
                return None;
            }
            let (solution, child) = moves[keeping[0]];
            // A sacrifice: the move captures nothing, and the opponent (to
            // move after it) captures with his best reply.
            let mut kind = Kind::Unique;
            if move_gain(&pos, &child) == 0 && child.to_move() != pos.to_move() {
                let mut replies = MoveList::new();
                if R::generate(&child, &mut replies).is_none() {
                    let reply_values = move_values(db, &child, &replies);
                    let top = reply_values.iter().copied().max().unwrap_or(i32::MIN);
                    let captures = replies
                        .iter()
                        .zip(&reply_values)
                        .any(|((_, c), &v)| v == top && move_gain(&child, c) > 0);
                    if captures {
                        kind = Kind::Sacrifice;
                    }
                }
            }
            Some(Puzzle {
                position: pos,
                solution,
                value: best,
                wrong: values.len() - 1,
                kind,
            })
        })
        .collect();
    found.sort_by(|a, b| {
        a.kind
            .cmp(&b.kind)
            .then(b.value.cmp(&a.value))
            .then(b.wrong.cmp(&a.wrong))
            .then(a.position.pits.cmp(&b.position.pits))
    });
    Ok(found)
}
