//! Anywoli (seed text `003`): 2 x 12, 4 seeds a pit, a store each that is
//! never sown into; relay sowing round the ring of all `2n` pits.
//!
//! - A seed that is not the last of its lap and brings a pit to exactly 4
//!   sends those 4 at once to the store of that pit's owner.
//! - A lap ending in a pit that now holds 1 ends the turn; exactly 4: the
//!   mover takes them and moves again; any other count: relay.
//! - A player whose row is empty passes.
//! - End at four: as soon as a capture leaves 4 or fewer uncaptured seeds
//!   (board and hand), the game ends at once and those seeds go to the
//!   player who made that capture (the pit's owner for a mid-sow four). This
//!   is part of the move: the board it leaves is empty.

use super::relay::LapGuard;
use super::{captured, push_sowings, Move, MoveList, Rules, Score};
use crate::position::Position;
use crate::side::Side;

/// The rules of Anywoli.
#[derive(Clone, Copy, Debug, Default)]
pub struct Anywoli;

/// Uncaptured seeds at or below which a capture ends the game.
const END_AT: usize = 4;

/// Sends the `left` uncaptured seeds to `taker` and empties the board.
fn end_at_four(p: &mut Position, taker: Side, left: usize) {
    p.captured[taker.index()] += left as u8;
    p.pits.fill(0);
}

impl Rules for Anywoli {
    const NAME: &'static str = "anywoli";
    const DEFAULT_SIZE: (usize, usize) = (12, 4);
    const HAS_STORES: bool = true;
    const REFUSAL: &'static str = "Anywoli refuses no move with seeds";

    /// Seeds leave the board only by fours: a pit of exactly four is
    /// taken (the seeds left at the game's end go with a capture).
    const LEAST_TAKEN: usize = 4;

    /// By fours, and the seeds left at the game's end (four or fewer) go
    /// with the capture that ends it, leaving the board empty.
    const TAKEN_BY: usize = 4;

    fn sow(p: &mut Position, pit: usize) -> bool {
        let n = p.n();
        let me = p.to_move;
        let size = 2 * n;
        let mut place = me.base(n) + pit;
        let mut hand = p.pits[place];
        p.pits[place] = 0;
        // Seeds on the board and in the hand.
        let mut left = p.board_seeds() + usize::from(hand);
        let mut guard = LapGuard::new();
        loop {
            while hand > 0 {
                place += 1;
                if place == size {
                    place = 0;
                }
                p.pits[place] += 1;
                hand -= 1;
                if hand > 0 && p.pits[place] == 4 {
                    // A mid-sow four goes to the pit's owner.
                    let owner = if place < n { Side::South } else { Side::North };
                    p.pits[place] = 0;
                    p.captured[owner.index()] += 4;
                    left -= 4;
                    if left <= END_AT {
                        end_at_four(p, owner, left);
                        p.to_move = me.other();
                        return true;
                    }
                }
            }
            match p.pits[place] {
                1 => {
                    p.to_move = me.other();
                    return true;
                }
                4 => {
                    p.pits[place] = 0;
                    p.captured[me.index()] += 4;
                    left -= 4;
                    if left <= END_AT {
                        end_at_four(p, me, left);
                    }
                    // Extra move: the mover stays.
                    return true;
                }
                _ => {
                    if guard.repeats(&p.pits, place) {
                        return false;
                    }
                    hand = p.pits[place];
                    p.pits[place] = 0;
                }
            }
        }
    }

    fn generate(pos: &Position, moves: &mut MoveList) -> Option<Score> {
        moves.clear();
        let me = pos.to_move;
        if pos.board_seeds() == 0 {
            return Some(captured(pos));
        }
        if pos.row_seeds(me) == 0 {
            moves.push((Move::Pass, pos.with_to_move(me.other())));
            return None;
        }
        push_sowings::<Anywoli>(pos, moves);
        if moves.is_empty() {
            // Every move sows forever: the board goes to nobody.
            return Some(captured(pos));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::play;

    fn after(pos: &str, mv: u8) -> String {
        play::<Anywoli>(&pos.parse().unwrap(), Move::Pit(mv))
            .unwrap()
            .to_string()
    }

    #[test]
    fn mid_sow_four_goes_to_the_owner() {
        // S pit 4 (3 seeds): N1 3 -> 4 mid-sow goes to North, then N2 and
        // N3; the last seed in N3 (was empty) ends the turn.
        assert_eq!(after("S 0,0,0,3/3,0,0,5 0-0", 4), "N 0,0,0,0/0,1,1,5 0-4");
        // The same four leaving 2 seeds: North takes them, the board empties.
        assert_eq!(after("S 0,0,0,3/3,0,0,0 0-0", 4), "N 0,0,0,0/0,0,0,0 0-6");
    }
}
