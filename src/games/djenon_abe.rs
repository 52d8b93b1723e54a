//! Djenon-abe (seed text `001`): 2 x 6, 4 seeds a pit, no stores, relay
//! sowing round the ring of all `2n` pits.
//!
//! - A lap ending in a pit that now holds 1 ends the turn; 2 or 4: the mover
//!   takes them and then each preceding pit of the ring (either row) while it
//!   holds 2 or 4; 3 or 5 and more: relay.
//! - Feeding: with the opponent's row empty, only moves that give him seeds
//!   are legal. A player whose own row is empty passes if the opponent will
//!   then have a feeding move.
//! - The game ends, checked in this order: on an empty board; when each row
//!   holds exactly one seed (each player takes his own); when the empty-row
//!   player cannot be fed, whoever is to move (terminal gift: the holder
//!   takes all seeds but one, which goes to the empty-row player).

use super::relay::LapGuard;
use super::{captured, push_sowings, Move, MoveList, Rules, Score};
use crate::position::Position;
use crate::side::Side;

/// The rules of Djenon-abe.
#[derive(Clone, Copy, Debug, Default)]
pub struct DjenonAbe;

impl DjenonAbe {
    /// The feeding moves of `pos`: legal sowings after which the opponent's
    /// row (empty before the move) holds seeds.
    fn feeding_moves(pos: &Position, moves: &mut MoveList) {
        push_sowings::<DjenonAbe>(pos, moves);
        let opp = pos.to_move.other();
        moves.retain(|(_, c)| c.row_seeds(opp) > 0);
    }

    /// The terminal gift: `holder` takes the board but one seed, which goes
    /// to the other player.
    fn gift(pos: &Position, holder: Side) -> Score {
        let mut s = captured(pos);
        let board = pos.board_seeds() as u8;
        s[holder] += board - 1;
        s[holder.other()] += 1;
        s
    }
}

impl Rules for DjenonAbe {
    const NAME: &'static str = "djenon-abe";
    const DEFAULT_SIZE: (usize, usize) = (6, 4);
    const REFUSAL: &'static str = "the opponent's row is empty and this move does not feed it";

    /// A capture takes a pit of two or four seeds, and perhaps more.
    const LEAST_TAKEN: usize = 2;

    /// Every pit taken holds two or four seeds (the end's allocations are
    /// not played on the board).
    const TAKEN_BY: usize = 2;

    fn sow(p: &mut Position, pit: usize) -> bool {
        let n = p.n();
        let me = p.to_move;
        let size = 2 * n;
        let mut place = me.base(n) + pit;
        let mut hand = p.pits[place];
        p.pits[place] = 0;
        let mut guard = LapGuard::new();
        loop {
            while hand > 0 {
                place += 1;
                if place == size {
                    place = 0;
                }
                p.pits[place] += 1;
                hand -= 1;
            }
            match p.pits[place] {
                1 => break,
                2 | 4 => {
                    // Take backwards round the ring, at most once round.
                    let mut i = place;
                    let mut taken = 0u8;
                    for _ in 0..size {
                        if !matches!(p.pits[i], 2 | 4) {
                            break;
                        }
                        taken += p.pits[i];
                        p.pits[i] = 0;
                        i = if i == 0 { size - 1 } else { i - 1 };
                    }
                    p.captured[me.index()] += taken;
                    break;
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
        p.to_move = me.other();
        true
    }

    fn generate(pos: &Position, moves: &mut MoveList) -> Option<Score> {
        moves.clear();
        let me = pos.to_move;
        let mine = pos.row_seeds(me);
        let theirs = pos.row_seeds(me.other());
        if mine + theirs == 0 {
            return Some(captured(pos));
        }
        if mine == 1 && theirs == 1 {
            let mut s = captured(pos);
            s.south += 1;
            s.north += 1;
            return Some(s);
        }
        if theirs == 0 {
            Self::feeding_moves(pos, moves);
            return if moves.is_empty() {
                Some(Self::gift(pos, me))
            } else {
                None
            };
        }
        if mine == 0 {
            let after_pass = pos.with_to_move(me.other());
            Self::feeding_moves(&after_pass, moves);
            let can_feed = !moves.is_empty();
            moves.clear();
            if !can_feed {
                return Some(Self::gift(pos, me.other()));
            }
            moves.push((Move::Pass, after_pass));
            return None;
        }
        push_sowings::<DjenonAbe>(pos, moves);
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
        play::<DjenonAbe>(&pos.parse().unwrap(), Move::Pit(mv))
            .unwrap()
            .to_string()
    }

    #[test]
    fn relay_then_capture_chain_across_rows() {
        // S pit 1 (1 seed) -> S2 now 3: relay 3 seeds to S3, N1, N2.
        // N2 now 2: taken; N1 now 2: taken; S3 (1) stops the chain.
        assert_eq!(after("S 1,2,0/1,1,0 0-0", 1), "N 0,0,1/0,0,0 4-0");
    }
}
