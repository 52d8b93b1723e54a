//! Dakon (seed text `004`): 2 x 7, 7 seeds a pit, a store each at the end of
//! its owner's row. Ring: own pits, own store, opponent's pits (the
//! opponent's store is skipped). Relay sowing.
//!
//! - A lap ending in the own store: the mover moves again.
//! - In a pit that was occupied (now 2 or more): relay.
//! - In an own pit that was empty (nembak): the opposite pit's seeds go to
//!   the mover's store; the capturing seed stays.
//! - In an opponent's pit that was empty (mikul): if both neighbours in that
//!   row hold the same non-zero number, both neighbours and the capturing
//!   seed go to the mover's store (pits 1 and n have one neighbour: never).
//! - The player to move with no seeds in his pits ends the game; the
//!   opponent takes all seeds left.
//!
//! Every lap that wraps round the ring drops a seed into the own store, so a
//! Dakon sowing always ends; the lap guard is kept as a safety net.

use super::relay::LapGuard;
use super::{board_to, captured, push_sowings, MoveList, Rules, Score};
use crate::position::Position;

/// The rules of Dakon.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dakon;

impl Rules for Dakon {
    const NAME: &'static str = "dakon";
    const DEFAULT_SIZE: (usize, usize) = (7, 7);
    const HAS_STORES: bool = true;
    const SOWS_INTO_STORES: bool = true;
    const REFUSAL: &'static str = "Dakon refuses no move with seeds";

    fn sow(p: &mut Position, pit: usize) -> bool {
        let n = p.n();
        let me = p.to_move;
        let own = me.base(n);
        let opp = me.other().base(n);
        let ring = 2 * n + 1;
        // Ring places relative to the mover: 0..n own pits, n the own
        // store, n+1..=2n the opponent's pits.
        let mut place = pit;
        let mut hand = p.pits[own + pit];
        p.pits[own + pit] = 0;
        let mut guard = LapGuard::new();
        loop {
            while hand > 0 {
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
                hand -= 1;
            }
            if place == n {
                // Extra move.
                return true;
            }
            let abs = if place < n {
                own + place
            } else {
                opp + place - n - 1
            };
            if p.pits[abs] >= 2 {
                if guard.repeats(&p.pits, place) {
                    return false;
                }
                hand = p.pits[abs];
                p.pits[abs] = 0;
                continue;
            }
            if place < n {
                // Nembak.
                let facing = 2 * n - 1 - abs;
                p.captured[me.index()] += p.pits[facing];
                p.pits[facing] = 0;
            } else {
                // Mikul.
                let k = place - n - 1;
                if k >= 1 && k + 1 < n {
                    let (a, b) = (p.pits[abs - 1], p.pits[abs + 1]);
                    if a == b && a > 0 {
                        p.captured[me.index()] += a + b + 1;
                        p.pits[abs - 1] = 0;
                        p.pits[abs] = 0;
                        p.pits[abs + 1] = 0;
                    }
                }
            }
            p.to_move = me.other();
            return true;
        }
    }

    #[inline]
    fn outcome(pos: &Position) -> Option<Score> {
        // Every Dakon sowing ends, so a mover with seeds has a move.
        let me = pos.to_move;
        pos.row_is_empty(me).then(|| board_to(pos, me.other()))
    }

    fn generate(pos: &Position, moves: &mut MoveList) -> Option<Score> {
        moves.clear();
        let me = pos.to_move;
        if pos.row_is_empty(me) {
            return Some(board_to(pos, me.other()));
        }
        push_sowings::<Dakon>(pos, moves);
        if moves.is_empty() {
            return Some(captured(pos));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{play, Move};

    fn after(pos: &str, mv: u8) -> String {
        play::<Dakon>(&pos.parse().unwrap(), Move::Pit(mv))
            .unwrap()
            .to_string()
    }

    #[test]
    fn nembak_and_mikul() {
        // S pit 1 (1 seed) -> S2 was empty: nembak takes N2 (opposite of S2
        // on a 3-board is N2), the seed stays.
        assert_eq!(after("S 1,0,0/0,5,0 0-0", 1), "N 0,1,0/0,0,0 5-0");
        // S pit 3 (2 seeds): store, N1 was empty but has one neighbour.
        assert_eq!(after("S 0,0,2/0,3,0 0-0", 3), "N 0,0,0/1,3,0 1-0");
        // S pit 3 (3 seeds): store, N1, N2 was empty with N1 = N3 = 1.
        assert_eq!(after("S 0,0,3/0,0,1 0-0", 3), "N 0,0,0/0,0,0 4-0");
    }
}
