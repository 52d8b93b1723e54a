//! Kalah, the reference game with published solved values (Irving, Donkers
//! and Uiterwijk, "Solving Kalah", 2000), with their rules:
//!
//! - Ring: own pits, own store, opponent's pits (the opponent's store is
//!   skipped). One lap; the origin pit is not skipped.
//! - Last seed in the own store: the mover moves again.
//! - Last seed in an own pit that was empty: that seed and all seeds of the
//!   opposite pit go to the mover's store (only the one seed when the
//!   opposite pit is empty).
//! - The game ends as soon as either row is empty; each player then adds the
//!   seeds of his own row to his store.

use super::{captured, push_sowings, Move, MoveList, Rules, Score};
use crate::position::Position;
use crate::side::Side;

/// The rules of Kalah.
#[derive(Clone, Copy, Debug, Default)]
pub struct Kalah;

impl Rules for Kalah {
    const NAME: &'static str = "kalah";
    const DEFAULT_SIZE: (usize, usize) = (6, 4);
    const HAS_STORES: bool = true;
    const SOWS_INTO_STORES: bool = true;
    const REFUSAL: &'static str = "Kalah refuses no move with seeds";
    // A move that neither captures nor reaches the store stays in the
    // mover's row and moves seeds towards the store: the sum of the pit
    // numbers of each player's seeds only grows between captures, so no
    // position repeats.
    const CYCLIC: bool = false;

    /// A mover with seeds gets at least one of the seeds on the board: the
    /// non-empty pit nearest his store either reaches the store (a seed
    /// stored) or ends in a pit nearer the store, which is empty (a
    /// capture of at least that seed); and a mover who cannot move has
    /// ended the game with his row empty. So the gain is at least
    /// `1 - (board - 1)` (Irving, Donkers and Uiterwijk's futility range
    /// "improved with knowledge of captures").
    #[inline]
    fn gain_bounds(pos: &Position) -> (i32, i32) {
        let b = pos.board_seeds() as i32;
        let n = pos.n();
        let base = pos.to_move.base(n);
        let lower = if pos.pits[base..base + n].iter().any(|&c| c != 0) {
            2 - b
        } else {
            -b
        };
        (lower, b)
    }

    #[inline(always)]
    fn sow(p: &mut Position, pit: usize) -> bool {
        let n = p.n();
        let me = p.to_move;
        let origin = me.base(n) + pit;
        let mut hand = usize::from(p.pits[origin]);
        p.pits[origin] = 0;
        // The mover's ring: own pits, own store, opponent's pits. Leaving
        // the store out, the pits it passes are the board ring from the
        // origin on, for both sides (North's store sits between North's pit
        // n and South's pit 1), so one lap is a ring sow plus the store.
        let ring = 2 * n + 1;
        if hand >= ring {
            // Whole laps feed every place of the ring once each (no
            // division on the common path: most moves are shorter).
            let laps = hand / ring;
            for c in &mut p.pits[..2 * n] {
                *c += laps as u8;
            }
            p.captured[me.index()] += laps as u8;
            hand -= laps * ring;
        }
        let to_store = n - pit;
        if hand == to_store {
            // Last seed in the own store: extra move.
            p.sow_ring(origin, hand - 1);
            p.captured[me.index()] += 1;
            return true;
        }
        let on_board = if hand > to_store {
            p.captured[me.index()] += 1;
            hand - 1
        } else {
            hand
        };
        // With whole laps only (hand 0) the last seed fell in the origin.
        let last = p.sow_ring(origin, on_board);
        let own = me.base(n);
        if (own..own + n).contains(&last) && p.pits[last] == 1 {
            let facing = 2 * n - 1 - last;
            p.captured[me.index()] += 1 + p.pits[facing];
            p.pits[last] = 0;
            p.pits[facing] = 0;
        }
        p.to_move = me.other();
        true
    }

    #[inline]
    fn generate(pos: &Position, moves: &mut MoveList) -> Option<Score> {
        moves.clear();
        if let Some(s) = Kalah::outcome(pos) {
            return Some(s);
        }
        push_sowings::<Kalah>(pos, moves);
        None
    }

    #[inline]
    fn outcome(pos: &Position) -> Option<Score> {
        // The game ends when either row is empty, whoever is to move; each
        // side keeps the seeds left in its row.
        if pos.row_is_empty(Side::South) || pos.row_is_empty(Side::North) {
            let mut s = captured(pos);
            s.south += pos.row_seeds(Side::South) as u8;
            s.north += pos.row_seeds(Side::North) as u8;
            return Some(s);
        }
        None
    }

    #[inline]
    fn count_moves(pos: &Position) -> Option<usize> {
        // Every non-empty pit is a legal move (no sowing can loop).
        if pos.row_is_empty(Side::South) || pos.row_is_empty(Side::North) {
            return None;
        }
        Some(super::nonempty_pits(pos))
    }

    const HAS_UNMOVES: bool = true;

    #[inline]
    fn quiet_parents(pos: &Position, parent: impl FnMut(Move, &Position)) {
        // A quiet move stays in the mover's row short of the store (from
        // pit `i`, 0-based, at most `n - 1 - i` seeds); the parent has a
        // move only when the other row is not empty (else the game is
        // over), and then every non-empty pit is legal.
        let n = pos.n();
        if pos.row_is_empty(pos.to_move) {
            return;
        }
        super::unmoves::single_lap_parents::<Kalah>(pos, |i| n - 1 - i, |_, _| true, parent);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::play;

    fn after(pos: &str, mv: u8) -> String {
        play::<Kalah>(&pos.parse().unwrap(), Move::Pit(mv))
            .unwrap()
            .to_string()
    }

    #[test]
    fn whole_laps_feed_origin_and_own_store_only() {
        // 2x2 board, ring of 5: 11 seeds = two laps and one seed.
        assert_eq!(after("S 11,0/0,1 0-0", 1), "N 2,3/2,3 2-0");
        // 5 seeds from pit 1 end in the (emptied) origin: capture it and
        // the opposite pit.
        assert_eq!(after("S 5,0/0,3 0-0", 1), "N 0,1/1,0 6-0");
    }
}
