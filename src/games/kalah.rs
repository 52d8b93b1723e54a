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

use super::{captured, push_sowings, Game, MoveList, Rules, Score};
use crate::position::Position;
use crate::side::Side;

/// The rules of Kalah.
#[derive(Clone, Copy, Debug, Default)]
pub struct Kalah;

impl Rules for Kalah {
    const GAME: Game = Game::Kalah;
    const REFUSAL: &'static str = "Kalah refuses no move with seeds";

    #[inline]
    fn sow(pos: &Position, pit: usize) -> Option<Position> {
        let n = pos.n();
        let me = pos.to_move;
        let own = me.base(n);
        let opp = me.other().base(n);
        let mut p = *pos;
        let mut hand = usize::from(p.pits[own + pit]);
        p.pits[own + pit] = 0;
        // Ring places relative to the mover: 0..n own pits, n the own
        // store, n+1..=2n the opponent's pits.
        let ring = 2 * n + 1;
        let laps = hand / ring;
        if laps > 0 {
            // Whole laps feed every place of the ring once each.
            for c in &mut p.pits[..2 * n] {
                *c += laps as u8;
            }
            p.captured[me.index()] += laps as u8;
            hand -= laps * ring;
        }
        let last = (pit + hand) % ring;
        let mut place = pit;
        for _ in 0..hand {
            place += 1;
            if place == ring {
                place = 0;
            }
            if place < n {
                p.pits[own + place] += 1;
            } else if place == n {
                p.captured[me.index()] += 1;
            } else {
                p.pits[opp + place - n - 1] += 1;
            }
        }
        if last == n {
            // Extra move: the mover stays.
            return Some(p);
        }
        if last < n && p.pits[own + last] == 1 {
            let facing = 2 * n - 1 - (own + last);
            p.captured[me.index()] += 1 + p.pits[facing];
            p.pits[own + last] = 0;
            p.pits[facing] = 0;
        }
        p.to_move = me.other();
        Some(p)
    }

    #[inline]
    fn generate(pos: &Position, moves: &mut MoveList) -> Option<Score> {
        moves.clear();
        let south = pos.row_seeds(Side::South);
        let north = pos.row_seeds(Side::North);
        if south == 0 || north == 0 {
            let mut s = captured(pos);
            s.south += south as u8;
            s.north += north as u8;
            return Some(s);
        }
        push_sowings::<Kalah>(pos, moves);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{play, Move};

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
