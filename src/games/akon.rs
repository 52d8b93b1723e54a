//! Akon (seed text `000`): 2 x 7, 5 seeds a pit, no stores, one lap.
//!
//! - With `h <= 2n` seeds: one seed into each next pit of the ring (with
//!   exactly `2n` the last falls back into the origin: own row, no capture).
//! - With `h >= 2n + 1`: one full lap of `2n` seeds ending in the origin,
//!   then the rest only into the opponent's pits 1..n, again and again from
//!   pit 1, until the hand is empty.
//! - Captures only when the last seed falls in the opponent's row: in his
//!   pit 1 the mover takes that last seed only (the rest stays); elsewhere a
//!   pit now holding 2, 3 or 4 is taken, then each preceding pit holding 2,
//!   3 or 4, always stopping before pit 1 (never captured).
//! - No starving: a move leaving the opponent's row empty is not legal
//!   unless every move does.
//! - The player to move with an empty row ends the game; the opponent takes
//!   all seeds left.

use super::{board_to, no_starving, push_sowings, MoveList, Rules, Score};
use crate::position::Position;

/// The rules of Akon.
#[derive(Clone, Copy, Debug, Default)]
pub struct Akon;

impl Rules for Akon {
    const NAME: &'static str = "akon";
    const DEFAULT_SIZE: (usize, usize) = (7, 5);
    const REFUSAL: &'static str =
        "it leaves the opponent without seeds while another move does not (no starving)";

    #[inline]
    fn sow(p: &mut Position, pit: usize) -> bool {
        let n = p.n();
        let me = p.to_move;
        let opp = me.other().base(n);
        let origin = me.base(n) + pit;
        let size = 2 * n;
        let hand = usize::from(p.pits[origin]);
        p.pits[origin] = 0;
        let last = if hand <= size {
            p.sow_ring(origin, hand)
        } else {
            // The full lap: every pit once, the origin last.
            for c in &mut p.pits[..size] {
                *c += 1;
            }
            // The rest into the opponent's pits 1..n only.
            let rest = hand - size;
            let (rounds, extra) = (rest / n, rest % n);
            for (j, c) in p.pits[opp..opp + n].iter_mut().enumerate() {
                *c += (rounds + usize::from(j < extra)) as u8;
            }
            opp + if extra == 0 { n - 1 } else { extra - 1 }
        };
        if (opp..opp + n).contains(&last) {
            if last == opp {
                // Opponent's pit 1: only the last seed is taken.
                p.pits[last] -= 1;
                p.captured[me.index()] += 1;
            } else {
                let mut i = last;
                let mut taken = 0u8;
                while i > opp && matches!(p.pits[i], 2..=4) {
                    taken += p.pits[i];
                    p.pits[i] = 0;
                    i -= 1;
                }
                p.captured[me.index()] += taken;
            }
        }
        p.to_move = me.other();
        true
    }

    #[inline]
    fn generate(pos: &Position, moves: &mut MoveList) -> Option<Score> {
        moves.clear();
        let me = pos.to_move;
        if pos.row_is_empty(me) {
            return Some(board_to(pos, me.other()));
        }
        push_sowings::<Akon>(pos, moves);
        // A pit with 4 or more seeds either receives a seed (then holds 5
        // or more: not taken; in pit 1 only one seed is ever taken) or lies
        // beyond the last seed, where the capture chain never goes.
        no_starving(pos, moves, 4);
        None
    }

    #[inline]
    fn count_moves(pos: &Position) -> Option<usize> {
        super::count_unless_starving::<Akon>(pos, 4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{play, Move};

    fn after(pos: &str, mv: u8) -> String {
        play::<Akon>(&pos.parse().unwrap(), Move::Pit(mv))
            .unwrap()
            .to_string()
    }

    #[test]
    fn seed_text_worked_example() {
        // Pit 2 holds 18: a lap of 14 ends in the origin, then 4 more go to
        // North's pits 1..4; pits 2, 3, 4 (1 + 2 each) are taken: 9 seeds.
        assert_eq!(
            after("S 0,18,0,0,0,0,0/0,1,1,1,0,0,0 0-0", 2),
            "N 1,1,1,1,1,1,1/2,0,0,0,1,1,1 9-0"
        );
    }

    #[test]
    fn two_n_seeds_end_in_the_origin() {
        assert_eq!(
            after("S 0,14,0,0,0,0,0/1,1,1,1,1,1,1 0-0", 2),
            "N 1,1,1,1,1,1,1/2,2,2,2,2,2,2 0-0"
        );
    }
}
